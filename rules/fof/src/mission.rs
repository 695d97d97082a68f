//! Mission files: type, turn track and time of day, HQs, enemy units and PC markers at set-up, the PC
//! draw chart and the higher-HQ event tables (R# 1–10), the deck to use and the rules profile.

use crate::card::Experience;
use crate::profile::Profile;
use crate::reader::{RawTable, TableReader};
use crate::sequence::MissionType;
use rules_core::data::{parse_toml, DataError, Lines};
use rules_core::Text;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use toml::{Spanned, Value};

pub const DEMO_MISSION_TOML: &str =
    include_str!("../../../models/catalogues/fof/demo-mission.toml");

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeOfDay {
    Day,
    Dusk,
    Night,
    Dawn,
}

impl TimeOfDay {
    pub fn text(self) -> Text {
        match self {
            TimeOfDay::Day => Text::new("白天", "day"),
            TimeOfDay::Dusk => Text::new("黄昏", "dusk"),
            TimeOfDay::Night => Text::new("夜间", "night"),
            TimeOfDay::Dawn => Text::new("黎明", "dawn"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HqRole {
    Company,
    Platoon,
    Staff,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hq {
    pub id: String,
    pub name: Text,
    pub role: HqRole,
    pub experience: Experience,
}

/// How many PC draws a marker takes at an activity level, or automatic contact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum PcDraws {
    Count(u8),
    Auto,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum DeckRef {
    /// A deck file, relative to the mission file.
    File(String),
    /// The player's own physical deck of this many numbered cards.
    Physical(u16),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mission {
    pub name: Text,
    pub note: String,
    pub mission_type: MissionType,
    pub turns: u32,
    /// Time of day for each turn, 1..=turns.
    pub time_of_day: Vec<TimeOfDay>,
    pub limited_visibility: Vec<TimeOfDay>,
    pub battalion_on_map: bool,
    pub activity_levels: Vec<String>,
    pub start_activity: String,
    pub enemy_units: Vec<String>,
    pub pc_markers: Vec<String>,
    pub objectives: Text,
    pub deck: DeckRef,
    pub profile: Profile,
    pub hqs: Vec<Hq>,
    /// marker → activity level → draws.
    pub pc_chart: BTreeMap<String, BTreeMap<String, PcDraws>>,
    /// R# 1..=10 → event, index r-1.
    pub friendly_hq_events: Vec<Text>,
    pub enemy_hq_events: Vec<Text>,
}

impl Mission {
    pub fn demo() -> Result<Mission, DataError> {
        Mission::parse("models/catalogues/fof/demo-mission.toml", DEMO_MISSION_TOML)
    }

    pub fn time_at(&self, turn: u32) -> TimeOfDay {
        let i = (turn.max(1) - 1) as usize;
        self.time_of_day[i.min(self.time_of_day.len() - 1)]
    }

    pub fn limited_visibility_at(&self, turn: u32) -> bool {
        self.limited_visibility.contains(&self.time_at(turn))
    }

    pub fn hq(&self, id: &str) -> Option<&Hq> {
        self.hqs.iter().find(|h| h.id == id)
    }

    pub fn parse(origin: &str, text: &str) -> Result<Mission, DataError> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Raw {
            mission: Spanned<RawTable>,
            deck: Spanned<RawTable>,
            profile: Option<Spanned<RawTable>>,
            hq: Vec<Spanned<RawTable>>,
            pc_chart: Vec<Spanned<RawTable>>,
            friendly_hq_event: Vec<Spanned<RawTable>>,
            enemy_hq_event: Vec<Spanned<RawTable>>,
        }
        let raw: Raw = parse_toml(origin, text)?;
        let lines = Lines::new(text);
        let m = TableReader::new(origin, &lines, "mission", &raw.mission);
        let mut mission = Mission {
            name: Text::new(m.req::<String>("name_zh")?, m.req::<String>("name_en")?),
            note: m.or("note", String::new())?,
            mission_type: m.req("type")?,
            turns: m.req("turns")?,
            time_of_day: m.req("time_of_day")?,
            limited_visibility: m.or("limited_visibility", vec![TimeOfDay::Night])?,
            battalion_on_map: m.or("battalion_on_map", false)?,
            activity_levels: m.req("activity_levels")?,
            start_activity: m.req("start_activity")?,
            enemy_units: m.or("enemy_units", Vec::new())?,
            pc_markers: m.or("pc_markers", Vec::new())?,
            objectives: Text::new(
                m.req::<String>("objectives_zh")?,
                m.req::<String>("objectives_en")?,
            ),
            deck: DeckRef::Physical(0),
            profile: Profile::default(),
            hqs: Vec::new(),
            pc_chart: BTreeMap::new(),
            friendly_hq_events: Vec::new(),
            enemy_hq_events: Vec::new(),
        };
        m.finish()?;
        if mission.turns == 0 {
            return Err(m.error("turns", "a mission lasts at least one turn"));
        }
        if mission.time_of_day.len() != mission.turns as usize {
            return Err(m.error(
                "time_of_day",
                format!(
                    "needs one entry per turn ({}), found {}",
                    mission.turns,
                    mission.time_of_day.len()
                ),
            ));
        }
        if mission.activity_levels.is_empty() {
            return Err(m.error("activity_levels", "list at least one activity level"));
        }
        if !mission.activity_levels.contains(&mission.start_activity) {
            return Err(m.error("start_activity", "not one of activity_levels"));
        }
        unique(&m, "enemy_units", &mission.enemy_units)?;
        unique(&m, "pc_markers", &mission.pc_markers)?;

        let d = TableReader::new(origin, &lines, "deck", &raw.deck);
        let file: Option<String> = d.opt("file")?;
        let physical: Option<u16> = d.opt("physical_cards")?;
        d.finish()?;
        mission.deck = match (file, physical) {
            (Some(f), None) => DeckRef::File(f),
            (None, Some(n)) if n > 0 => DeckRef::Physical(n),
            (None, Some(_)) => return Err(d.error("physical_cards", "must be at least 1")),
            _ => {
                return Err(d.error(
                    "file",
                    "give exactly one of deck.file or deck.physical_cards",
                ))
            }
        };

        if let Some(p) = &raw.profile {
            mission.profile = Profile::read(&TableReader::new(origin, &lines, "profile", p))?;
        }

        let mut roles = BTreeMap::new();
        for (i, t) in raw.hq.iter().enumerate() {
            let r = TableReader::new(origin, &lines, format!("hq[{i}]"), t);
            let hq = Hq {
                id: r.req("id")?,
                name: Text::new(r.req::<String>("name_zh")?, r.req::<String>("name_en")?),
                role: r.req("role")?,
                experience: r.req("experience")?,
            };
            r.finish()?;
            if mission.hq(&hq.id).is_some() || hq.id == "general" {
                return Err(r.error("id", format!("HQ id `{}` is used twice or reserved", hq.id)));
            }
            *roles.entry(hq.role).or_insert(0) += 1;
            mission.hqs.push(hq);
        }
        if roles.get(&HqRole::Company) != Some(&1) {
            return Err(DataError::new(
                origin,
                "a mission needs exactly one HQ with role = \"company\"",
            )
            .with_field("hq.role"));
        }

        for (i, t) in raw.pc_chart.iter().enumerate() {
            let r = TableReader::new(origin, &lines, format!("pc_chart[{i}]"), t);
            let marker: String = r.req("marker")?;
            let mut row = BTreeMap::new();
            for level in &mission.activity_levels {
                let v: Value = r.req(level)?;
                let draws = match &v {
                    Value::Integer(n) if (0..=20).contains(n) => PcDraws::Count(*n as u8),
                    Value::String(s) if s == "auto" => PcDraws::Auto,
                    _ => {
                        return Err(r.error(level, "expected a number of draws 0..=20 or \"auto\""))
                    }
                };
                row.insert(level.clone(), draws);
            }
            r.finish()?;
            if mission.pc_chart.insert(marker.clone(), row).is_some() {
                return Err(r.error("marker", format!("marker {marker} has two rows")));
            }
        }
        for marker in &mission.pc_markers {
            if !mission.pc_chart.contains_key(marker) {
                return Err(m.error(
                    "pc_markers",
                    format!("marker {marker} has no [[pc_chart]] row"),
                ));
            }
        }
        mission.friendly_hq_events =
            event_table(origin, &lines, "friendly_hq_event", &raw.friendly_hq_event)?;
        mission.enemy_hq_events =
            event_table(origin, &lines, "enemy_hq_event", &raw.enemy_hq_event)?;
        Ok(mission)
    }
}

fn unique(m: &TableReader, key: &str, items: &[String]) -> Result<(), DataError> {
    let set: BTreeSet<&String> = items.iter().collect();
    if set.len() != items.len() {
        return Err(m.error(key, "an entry is listed twice"));
    }
    Ok(())
}

/// An event table must have exactly one row for each R# 1..=10.
fn event_table(
    origin: &str,
    lines: &Lines,
    name: &str,
    rows: &[Spanned<RawTable>],
) -> Result<Vec<Text>, DataError> {
    let mut table: Vec<Option<Text>> = vec![None; 10];
    for (i, t) in rows.iter().enumerate() {
        let r = TableReader::new(origin, lines, format!("{name}[{i}]"), t);
        let n: u8 = r.req("r")?;
        let event = Text::new(r.req::<String>("zh")?, r.req::<String>("en")?);
        r.finish()?;
        if !(1..=10).contains(&n) {
            return Err(r.error("r", "R# must be 1..=10"));
        }
        if table[usize::from(n - 1)].replace(event).is_some() {
            return Err(r.error("r", format!("R# {n} has two rows")));
        }
    }
    table
        .into_iter()
        .enumerate()
        .map(|(i, e)| {
            e.ok_or_else(|| {
                DataError::new(origin, format!("no row for R# {}", i + 1)).with_field(name)
            })
        })
        .collect()
}
