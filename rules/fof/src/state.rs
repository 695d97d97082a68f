//! The game state: where in the sequence we are, the deck, command points, markers, and the draw log.

use crate::card::{ActionCard, ContactResult, Experience, HitEffect};
use crate::deck::{Deck, DrawPile};
use crate::mission::{HqRole, Mission, TimeOfDay};
use crate::sequence::{Sequence, Step};
use rules_core::Text;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Friendly,
    Enemy,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CommandKind {
    Activated,
    Initiative,
}

/// Command points of one HQ this turn.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HqCommands {
    pub available: u8,
    /// Spent so far this turn (for the limited-visibility cap).
    pub spent: u8,
    /// Kept from the last command phase, to be added at the next.
    pub saved: u8,
    pub activated: bool,
}

/// A card field Arbiter needs from a drawn card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CardField {
    HqTrigger,
    R,
    Command,
    Initiative,
    FireEffective { modifier: i8 },
    Hit { experience: Experience },
    Contact,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum JobKind {
    HqCheck(Side),
    HqEvent(Side),
    Command {
        hq: String,
        kind: CommandKind,
    },
    GeneralInitiative,
    EnemyCheck {
        unit: String,
        index: usize,
        of: usize,
    },
    Pc {
        marker: String,
        draw: u8,
        of: u8,
    },
    Fire {
        modifier: i8,
        experience: Experience,
    },
    Hit {
        experience: Experience,
    },
    Plain {
        purpose: String,
    },
}

/// A draw still to be made or read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Job {
    pub kind: JobKind,
    pub card: Option<u16>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DrawRecord {
    /// 1-based count of draws this game.
    pub seq: u32,
    pub turn: u32,
    pub step: String,
    pub card: u16,
    pub purpose: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Event {
    StepEntered {
        turn: u32,
        step: String,
        title: Text,
    },
    StepSkipped {
        turn: u32,
        step: String,
        reason: Text,
    },
    Drew {
        record: DrawRecord,
        card: Option<ActionCard>,
    },
    Reshuffled {
        shuffle: u32,
        cards: usize,
    },
    HqEvent {
        side: Side,
        r: u8,
        event: Text,
    },
    NoHqEvent {
        side: Side,
    },
    Commands {
        hq: String,
        kind: CommandKind,
        printed: u8,
        modifier: i8,
        gained: u8,
        available: u8,
    },
    Activated {
        hq: String,
        by: Option<String>,
    },
    Spent {
        hq: String,
        points: u8,
        left: u8,
    },
    Saved {
        hq: String,
        kept: u8,
        lost: u8,
    },
    EnemyOrder {
        units: Vec<String>,
    },
    EnemyCheck {
        unit: String,
        card: u16,
    },
    PcPlaced {
        markers: Vec<String>,
    },
    PcResolved {
        marker: String,
        contact: Option<ContactResult>,
        automatic: bool,
    },
    FireResolved {
        modifier: i8,
        effective: bool,
    },
    HitResolved {
        experience: Experience,
        effect: HitEffect,
    },
    ActivitySet {
        level: String,
    },
    EnemyAdded {
        unit: String,
    },
    EnemyRemoved {
        unit: String,
    },
    PcRemoved {
        marker: String,
    },
    Awaiting {
        card: u16,
        question: Text,
    },
    TurnAdvanced {
        turn: u32,
        time: TimeOfDay,
    },
    GameOver {
        objectives: Text,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub mission: Arc<Mission>,
    pub deck: Arc<Deck>,
    pub sequence: Arc<Sequence>,
    pub seed: u64,
    pub pile: DrawPile,
    pub turn: u32,
    /// Index of the current step in `sequence.steps`.
    pub step: usize,
    pub activity: String,
    pub enemies: Vec<String>,
    pub pc_markers: BTreeSet<String>,
    /// Last PC marker resolved in this 3.7.2 step (markers go in alphabetical order).
    pub pc_last: Option<String>,
    pub commands: BTreeMap<String, HqCommands>,
    /// General initiative (3.3.2 D): any unit may use it; never saved.
    pub general: u8,
    pub jobs: VecDeque<Job>,
    /// A drawn physical card whose field the player must read out (`answer …`).
    pub awaiting: Option<CardField>,
    pub log: Vec<DrawRecord>,
    pub game_over: bool,
}

impl State {
    pub fn current_step(&self) -> &Step {
        &self.sequence.steps[self.step]
    }

    pub fn time_of_day(&self) -> TimeOfDay {
        self.mission.time_at(self.turn)
    }

    pub fn limited_visibility(&self) -> bool {
        self.mission.limited_visibility_at(self.turn)
    }

    pub fn hq_role(&self, hq: &str) -> Option<HqRole> {
        self.mission.hq(hq).map(|h| h.role)
    }

    pub fn company_id(&self) -> &str {
        self.mission
            .hqs
            .iter()
            .find(|h| h.role == HqRole::Company)
            .map(|h| h.id.as_str())
            .unwrap_or("co")
    }

    /// "CO HQ" for the company, else the HQ's English name.
    pub fn hq_label(&self, hq: &str) -> String {
        match self.mission.hq(hq) {
            Some(h) if h.role == HqRole::Company => "CO HQ".into(),
            Some(h) => h.name.en.clone(),
            None => hq.to_string(),
        }
    }
}
