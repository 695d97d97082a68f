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

/// What a table command does with its `--confirm` when it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtStart {
    /// Journal this policy: the one asked for, or the window's default for a new game.
    Choose(Confirm),
    /// Nobody sits at a window: changes are taken once stable, and that is not journalled.
    Unattended,
    /// A resumed game at the window keeps the policy its journal holds.
    Keep,
}

/// The policy `command` starts with; asking a headless run to wait for OK is an error, said before
/// anything is written.
pub fn at_start(
    command: &str,
    asked: Option<Confirm>,
    headless: bool,
    new_game: bool,
) -> anyhow::Result<AtStart> {
    Ok(match (asked, headless) {
        (Some(c), true) if c.waits() => anyhow::bail!(
            "{command} --headless --confirm {}: nobody can confirm without the window; use --confirm stable",
            clap::ValueEnum::to_possible_value(&c)
                .map(|v| v.get_name().to_string())
                .unwrap_or_default()
        ),
        (Some(c), _) => AtStart::Choose(c),
        (None, false) if new_game => AtStart::Choose(Confirm::FirstRound),
        (None, true) => AtStart::Unattended,
        (None, false) => AtStart::Keep,
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_headless_run_cannot_wait_and_a_new_game_at_the_window_confirms_its_first_round() {
        let err = at_start("play", Some(Confirm::Every), true, true).unwrap_err();
        assert!(
            err.to_string().contains("play --headless --confirm every"),
            "{err}"
        );
        let stable = at_start("play", Some(Confirm::Stable), true, false).unwrap();
        assert_eq!(stable, AtStart::Choose(Confirm::Stable));
        let first = at_start("play", None, false, true).unwrap();
        assert_eq!(first, AtStart::Choose(Confirm::FirstRound));
        assert_eq!(at_start("play", None, false, false).unwrap(), AtStart::Keep);
        assert_eq!(
            at_start("play", None, true, true).unwrap(),
            AtStart::Unattended
        );
    }
}
