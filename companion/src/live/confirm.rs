//! When a change the camera sees is committed: after the players' OK, or on its own once the
//! tracker has seen it stable.

use serde::{Deserialize, Serialize};

/// The confirmation policy of a table session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Confirm {
    /// Every change the camera sees waits for OK (or a correction).
    Every,
    /// A legal change is committed once the tracker has seen it stable.
    Stable,
    /// Confirm every change, and from the second round on ask whether to go on confirming.
    #[default]
    FirstRound,
}

impl Confirm {
    /// Whether a legal change seen on the table waits for the players.
    pub fn waits(self) -> bool {
        !matches!(self, Confirm::Stable)
    }

    /// Whether the players are asked to choose the policy for the rest of the game.
    pub fn asks_from(self, round: u16) -> bool {
        self == Confirm::FirstRound && round >= 2
    }
}

/// A legal change the camera saw, waiting for the players.
#[derive(Clone, Debug, PartialEq)]
pub struct Seen<A> {
    pub seat: usize,
    pub action: A,
    /// What the camera understood, in the action notation ("move us-u01 B4").
    pub notation: String,
    /// The same for people: card, from, to.
    pub text: String,
}
