//! What players do, what happens, and the short notation scenarios and the CLI use.
//!
//! Notation (cards by catalogue id, cells as "B3"): `keep`, `mulligan`, `draw`, `skip-draw`,
//! `discard-draw us-u03`, `deploy us-u01 B2`, `move us-u01 B3`, `place us-f01 C1`,
//! `skill us-s01 ss-u04` / `skill us-s02 C5` / `skill us-s03`, `attack us-u01+us-u02 ss-u04`,
//! `advance us-u01`, `hold`, `done`, `stalemate`.

use crate::board::Cell;
use crate::state::{CardId, Outcome, PlayerId, State};
use serde::{Deserialize, Serialize};

/// What a skill is aimed at.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SkillTarget {
    None,
    Card(CardId),
    Cell(Cell),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    Keep,
    Mulligan,
    Draw,
    SkipDraw,
    DiscardAndDraw(CardId),
    Deploy {
        card: CardId,
        cell: Cell,
    },
    Move {
        card: CardId,
        to: Cell,
    },
    PlaceFacility {
        card: CardId,
        cell: Cell,
    },
    UseSkill {
        card: CardId,
        target: SkillTarget,
    },
    Attack {
        attackers: Vec<CardId>,
        target: CardId,
    },
    Advance(CardId),
    Hold,
    /// Finish the current step (跳过行动 / done for this step).
    Done,
    /// Agree that the stalemate is hopeless (游戏结束条件 3); counted at settlement.
    Stalemate,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    KeptHand(PlayerId),
    Mulliganed(PlayerId),
    Drew(PlayerId),
    SkippedDraw(PlayerId),
    Discarded {
        card: CardId,
        rule: String,
    },
    Deployed {
        card: CardId,
        cell: Cell,
    },
    Moved {
        card: CardId,
        from: Cell,
        to: Cell,
    },
    MineExploded {
        mine: CardId,
        unit: CardId,
    },
    MineCleared {
        mine: CardId,
        unit: CardId,
    },
    BrokeThrough {
        card: CardId,
    },
    FacilityPlaced {
        card: CardId,
        cell: Cell,
    },
    SkillUsed {
        card: CardId,
    },
    Attacked {
        attackers: Vec<CardId>,
        target: CardId,
        power: u8,
        defence: u8,
        destroyed: bool,
    },
    Destroyed {
        card: CardId,
    },
    Advanced {
        card: CardId,
        to: Cell,
    },
    Passed(PlayerId),
    VotedStalemate(PlayerId),
    StepStarted(crate::steps::Step),
    RoundStarted {
        round: u16,
        order: Vec<PlayerId>,
    },
    GameOver(Outcome),
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read action {text:?}: {reason}")]
pub struct NotationError {
    pub text: String,
    pub reason: String,
}

impl Action {
    /// Reads the short notation; card ids are looked up in the state's catalogue.
    pub fn parse(state: &State, text: &str) -> Result<Action, NotationError> {
        let err = |reason: &str| NotationError {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let card = |s: &str| {
            state
                .card_by_id(s)
                .ok_or_else(|| err(&format!("no card {s:?} in the catalogue")))
        };
        let cell =
            |s: &str| Cell::parse(s).ok_or_else(|| err(&format!("{s:?} is not a cell like B3")));
        let words: Vec<&str> = text.split_whitespace().collect();
        let action = match words.as_slice() {
            ["keep"] => Action::Keep,
            ["mulligan"] => Action::Mulligan,
            ["draw"] => Action::Draw,
            ["skip-draw"] => Action::SkipDraw,
            ["discard-draw", c] => Action::DiscardAndDraw(card(c)?),
            ["deploy", c, at] => Action::Deploy {
                card: card(c)?,
                cell: cell(at)?,
            },
            ["move", c, at] => Action::Move {
                card: card(c)?,
                to: cell(at)?,
            },
            ["place", c, at] => Action::PlaceFacility {
                card: card(c)?,
                cell: cell(at)?,
            },
            ["skill", c] => Action::UseSkill {
                card: card(c)?,
                target: SkillTarget::None,
            },
            ["skill", c, t] => {
                let target = match Cell::parse(t) {
                    Some(at) if state.card_by_id(t).is_none() => SkillTarget::Cell(at),
                    _ => SkillTarget::Card(card(t)?),
                };
                Action::UseSkill {
                    card: card(c)?,
                    target,
                }
            }
            ["attack", list, target] => Action::Attack {
                attackers: list.split('+').map(card).collect::<Result<_, _>>()?,
                target: card(target)?,
            },
            ["advance", c] => Action::Advance(card(c)?),
            ["hold"] => Action::Hold,
            ["done"] => Action::Done,
            ["stalemate"] => Action::Stalemate,
            _ => return Err(err("unknown action; see the notation in the README")),
        };
        Ok(action)
    }

    /// Writes the short notation back.
    pub fn notation(&self, state: &State) -> String {
        let id = |c: &CardId| state.id_of(*c).to_string();
        match self {
            Action::Keep => "keep".into(),
            Action::Mulligan => "mulligan".into(),
            Action::Draw => "draw".into(),
            Action::SkipDraw => "skip-draw".into(),
            Action::DiscardAndDraw(c) => format!("discard-draw {}", id(c)),
            Action::Deploy { card, cell } => format!("deploy {} {cell}", id(card)),
            Action::Move { card, to } => format!("move {} {to}", id(card)),
            Action::PlaceFacility { card, cell } => format!("place {} {cell}", id(card)),
            Action::UseSkill { card, target } => match target {
                SkillTarget::None => format!("skill {}", id(card)),
                SkillTarget::Card(t) => format!("skill {} {}", id(card), id(t)),
                SkillTarget::Cell(at) => format!("skill {} {at}", id(card)),
            },
            Action::Attack { attackers, target } => format!(
                "attack {} {}",
                attackers.iter().map(id).collect::<Vec<_>>().join("+"),
                id(target)
            ),
            Action::Advance(c) => format!("advance {}", id(c)),
            Action::Hold => "hold".into(),
            Action::Done => "done".into(),
            Action::Stalemate => "stalemate".into(),
        }
    }
}
