//! Shapes shared by every Arbiter rules engine.
//!
//! Each game crate (`blitz`, `message`, `fof`, `duel`) implements [`Game`]: a pure state machine with
//! `legal_actions`, `apply` and `prompt`. Nothing here does I/O: data files are parsed from strings the
//! caller read, so errors can still name the file and line.

pub mod conformance;
pub mod data;

use serde::{Deserialize, Serialize};
use std::fmt;

/// A sentence in both languages the panel shows (Chinese first: the printed cards are Chinese).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Text {
    pub zh: String,
    pub en: String,
}

impl Text {
    pub fn new(zh: impl Into<String>, en: impl Into<String>) -> Self {
        Text {
            zh: zh.into(),
            en: en.into(),
        }
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} / {}", self.zh, self.en)
    }
}

/// Where a ruling comes from: a rulebook section, a rules-profile option, or a card's own text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RuleRef {
    /// A numbered rule or section of the seed rulebook, e.g. "部署阶段规则 3".
    Rulebook(String),
    /// A named rules-profile option, e.g. "blitz.combine_attacks".
    Profile(String),
    /// A card's text, which beats the rules (Blitz "最高原则").
    Card(String),
}

impl RuleRef {
    pub fn rulebook(s: impl Into<String>) -> Self {
        RuleRef::Rulebook(s.into())
    }
    pub fn profile(s: impl Into<String>) -> Self {
        RuleRef::Profile(s.into())
    }
}

impl fmt::Display for RuleRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleRef::Rulebook(s) => write!(f, "{s}"),
            RuleRef::Profile(s) => write!(f, "profile option {s}"),
            RuleRef::Card(s) => write!(f, "card text of {s}"),
        }
    }
}

/// Why an action was refused. The state it was tried on is left untouched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    pub rule: RuleRef,
    pub reason: Text,
}

impl Violation {
    pub fn new(rule: RuleRef, zh: impl Into<String>, en: impl Into<String>) -> Self {
        Violation {
            rule,
            reason: Text::new(zh, en),
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal ({}): {}", self.rule, self.reason)
    }
}

impl std::error::Error for Violation {}

/// What the panel asks next: who acts, and what they may do now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompt {
    /// Seat or player name that must act; `None` when the game is over.
    pub actor: Option<String>,
    pub text: Text,
}

/// A game's rules engine. `apply` borrows the state, so a refused action leaves the caller's state as
/// it was; every action in `legal_actions` must be accepted by `apply`, and nothing else.
pub trait Game {
    type State: Clone;
    type Action: Clone + fmt::Debug;
    type Event: Clone + fmt::Debug;

    fn legal_actions(state: &Self::State) -> Vec<Self::Action>;
    fn apply(
        state: &Self::State,
        action: &Self::Action,
    ) -> Result<(Self::State, Vec<Self::Event>), Violation>;
    fn prompt(state: &Self::State) -> Prompt;
}
