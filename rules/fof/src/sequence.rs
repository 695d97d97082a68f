//! The turn sequence 3.1–3.8 as a table of steps read from data
//! (models/catalogues/fof/sequence.toml). Code only knows what each *kind* of step does.

use crate::reader::{RawTable, TableReader};
use rules_core::data::{parse_toml, DataError, Lines};
use rules_core::Text;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use toml::Spanned;

pub const SEQUENCE_TOML: &str = include_str!("../../../models/catalogues/fof/sequence.toml");

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissionType {
    Offensive,
    Patrol,
    Defensive,
}

impl MissionType {
    pub fn name(self) -> &'static str {
        match self {
            MissionType::Offensive => "offensive",
            MissionType::Patrol => "patrol",
            MissionType::Defensive => "defensive",
        }
    }
}

/// What Arbiter does in a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    FriendlyHqEvents,
    EnemyHqEvents,
    EnemyActivity,
    BattalionActivation,
    CoActivation,
    SubordinateActivation,
    CoInitiative,
    PlatoonInitiative,
    StaffInitiative,
    GeneralInitiative,
    CapturesAndRetreats,
    Vehicles,
    UpdateFireMissions,
    PotentialContact,
    PinnedRecover,
    CombatEffects,
    CleanUp,
}

impl StepKind {
    /// Steps of the friendly command phase (3.3), where command points may be spent.
    pub fn is_command(self) -> bool {
        matches!(
            self,
            StepKind::BattalionActivation
                | StepKind::CoActivation
                | StepKind::SubordinateActivation
                | StepKind::CoInitiative
                | StepKind::PlatoonInitiative
                | StepKind::StaffInitiative
                | StepKind::GeneralInitiative
        )
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Step {
    /// Section number, e.g. "3.3.1 B".
    pub id: String,
    /// The seed's own number when it differs from `id`.
    pub seed_ref: Option<String>,
    pub kind: StepKind,
    pub missions: Vec<MissionType>,
    pub from_turn: u32,
    pub title: Text,
    pub prompt: Text,
    /// What the step draws, in words.
    pub draws: String,
}

impl Step {
    pub fn applies(&self, mission: MissionType, turn: u32) -> bool {
        self.missions.contains(&mission) && turn >= self.from_turn
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sequence {
    pub steps: Vec<Step>,
}

impl Sequence {
    pub fn standard() -> Result<Sequence, DataError> {
        Sequence::parse("models/catalogues/fof/sequence.toml", SEQUENCE_TOML)
    }

    /// Step ids a mission type runs in a turn, in order.
    pub fn ids_for(&self, mission: MissionType, turn: u32) -> Vec<&str> {
        self.steps
            .iter()
            .filter(|s| s.applies(mission, turn))
            .map(|s| s.id.as_str())
            .collect()
    }

    pub fn parse(origin: &str, text: &str) -> Result<Sequence, DataError> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Raw {
            step: Vec<Spanned<RawTable>>,
        }
        let raw: Raw = parse_toml(origin, text)?;
        let lines = Lines::new(text);
        let mut steps = Vec::new();
        let mut ids = BTreeSet::new();
        for (i, table) in raw.step.iter().enumerate() {
            let r = TableReader::new(origin, &lines, format!("step[{i}]"), table);
            let step = Step {
                id: r.req("id")?,
                seed_ref: r.opt("seed_ref")?,
                kind: r.req("kind")?,
                missions: r.req("missions")?,
                from_turn: r.or("from_turn", 1)?,
                title: Text::new(r.req::<String>("zh")?, r.req::<String>("en")?),
                prompt: Text::new(r.req::<String>("prompt_zh")?, r.req::<String>("prompt_en")?),
                draws: r.req("draws")?,
            };
            r.finish()?;
            if !ids.insert(step.id.clone()) {
                return Err(r.error("id", format!("step {} is listed twice", step.id)));
            }
            if step.missions.is_empty() {
                return Err(r.error("missions", "a step must apply to at least one mission type"));
            }
            if step.from_turn == 0 {
                return Err(r.error("from_turn", "turns are numbered from 1"));
            }
            steps.push(step);
        }
        for m in [
            MissionType::Offensive,
            MissionType::Patrol,
            MissionType::Defensive,
        ] {
            let last = steps.iter().rev().find(|s| s.missions.contains(&m));
            if last.map(|s| s.kind) != Some(StepKind::CleanUp) {
                return Err(DataError::new(
                    origin,
                    format!("the {} sequence must end with a clean_up step", m.name()),
                )
                .with_field("step.kind"));
            }
        }
        Ok(Sequence { steps })
    }
}
