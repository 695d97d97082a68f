//! What the player can do, and the words for it (`arbiter fof act "spend co 2"`).

use crate::card::{ContactResult, Experience, HitEffect};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The player's reading of a physical card (physical-deck mode only).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    Yes,
    No,
    Number(u8),
    Hit(HitEffect),
    Contact(ContactResult),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Finish the current step and enter the next one, making its draws.
    Next,
    /// An extra draw for a purpose the player names (fire, rally, a check the tables ask for…).
    Draw {
        purpose: String,
    },
    /// Reads the drawn physical card for Arbiter.
    Answer(Answer),
    /// Bn activates the CO (3.3.1 A) or the CO activates a platoon or staff HQ (3.3.1 B).
    Activate {
        hq: String,
    },
    /// Spend command points of an HQ (or `general` initiative) during the command phase.
    Spend {
        hq: String,
        points: u8,
    },
    /// Set the current activity level (3.7.1 A).
    SetActivity {
        level: String,
    },
    /// Resolve one PC marker (3.7.2).
    CheckPc {
        marker: String,
    },
    /// Resolve one fire: effective-fire draw, then the hit-effect draw (3.6, 3.7.4).
    Fire {
        modifier: i8,
        experience: Experience,
    },
    AddEnemy {
        unit: String,
    },
    RemoveEnemy {
        unit: String,
    },
    PlacePc {
        marker: String,
    },
    RemovePc {
        marker: String,
    },
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Yes => write!(f, "yes"),
            Answer::No => write!(f, "no"),
            Answer::Number(n) => write!(f, "{n}"),
            Answer::Hit(h) => write!(f, "{}", h.name()),
            Answer::Contact(c) => write!(f, "{}", c.name()),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Next => write!(f, "next"),
            Action::Draw { purpose } => write!(f, "draw {purpose}"),
            Action::Answer(a) => write!(f, "answer {a}"),
            Action::Activate { hq } => write!(f, "activate {hq}"),
            Action::Spend { hq, points } => write!(f, "spend {hq} {points}"),
            Action::SetActivity { level } => write!(f, "activity {level}"),
            Action::CheckPc { marker } => write!(f, "pc {marker}"),
            Action::Fire {
                modifier,
                experience,
            } => write!(f, "fire {modifier:+} {}", experience.name()),
            Action::AddEnemy { unit } => write!(f, "enemy add {unit}"),
            Action::RemoveEnemy { unit } => write!(f, "enemy remove {unit}"),
            Action::PlacePc { marker } => write!(f, "pc-place {marker}"),
            Action::RemovePc { marker } => write!(f, "pc-remove {marker}"),
        }
    }
}

impl FromStr for Answer {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        match s {
            "yes" | "y" => return Ok(Answer::Yes),
            "no" | "n" => return Ok(Answer::No),
            _ => {}
        }
        if let Ok(n) = s.parse::<u8>() {
            return Ok(Answer::Number(n));
        }
        if let Some(h) = HitEffect::parse(s) {
            return Ok(Answer::Hit(h));
        }
        if let Some(c) = ContactResult::parse(s) {
            return Ok(Answer::Contact(c));
        }
        Err(format!(
            "`{s}` is not an answer (yes, no, a number, a hit effect or a contact result)"
        ))
    }
}

impl FromStr for Action {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let one = |i: usize| -> Result<String, String> {
            words
                .get(i)
                .map(|w| w.to_string())
                .ok_or_else(|| format!("`{s}`: missing a word after `{}`", words[..i].join(" ")))
        };
        let Some(&verb) = words.first() else {
            return Err("empty action".into());
        };
        let action = match verb {
            "next" => Action::Next,
            "draw" => Action::Draw {
                purpose: if words.len() > 1 {
                    words[1..].join(" ")
                } else {
                    "free draw".into()
                },
            },
            "answer" => Action::Answer(one(1)?.parse()?),
            "activate" => Action::Activate { hq: one(1)? },
            "spend" => Action::Spend {
                hq: one(1)?,
                points: one(2)?
                    .parse()
                    .map_err(|_| format!("`{s}`: points must be a number 0..=255"))?,
            },
            "activity" => Action::SetActivity { level: one(1)? },
            "pc" => Action::CheckPc { marker: one(1)? },
            "fire" => Action::Fire {
                modifier: one(1)?
                    .trim_start_matches('+')
                    .parse()
                    .map_err(|_| format!("`{s}`: the net combat modifier must be a number"))?,
                experience: Experience::parse(&one(2)?)
                    .ok_or_else(|| format!("`{s}`: experience is green, line or veteran"))?,
            },
            "enemy" => match one(1)?.as_str() {
                "add" => Action::AddEnemy { unit: one(2)? },
                "remove" => Action::RemoveEnemy { unit: one(2)? },
                other => {
                    return Err(format!(
                        "`enemy {other}`: say `enemy add X` or `enemy remove X`"
                    ))
                }
            },
            "pc-place" => Action::PlacePc { marker: one(1)? },
            "pc-remove" => Action::RemovePc { marker: one(1)? },
            other => return Err(format!("unknown action `{other}`")),
        };
        let expected = match &action {
            Action::Draw { .. } => words.len(),
            Action::Next => 1,
            Action::Spend { .. }
            | Action::Fire { .. }
            | Action::AddEnemy { .. }
            | Action::RemoveEnemy { .. } => 3,
            _ => 2,
        };
        if words.len() != expected {
            return Err(format!("`{s}`: expected {expected} words"));
        }
        Ok(action)
    }
}
