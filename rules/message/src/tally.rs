//! The table tally: what to announce from the face-up intelligence in front of each seat (as the
//! camera, or the players, count it). Identities are secret, so a victory is only "possible": the
//! player is asked to reveal their identity.

use crate::catalogue::Colour;
use crate::profile::Profile;
use crate::rules::{self, seed};
use crate::state::{Identity, Seat};
use rules_core::{RuleRef, Text};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatTally {
    pub red: u8,
    pub blue: u8,
    pub black: u8,
}

impl SeatTally {
    /// Counts colours from a string like `红红黑` or `rrb` (r/红 red, b/蓝 blue, k/黑 black).
    pub fn parse(s: &str) -> Option<SeatTally> {
        let mut t = SeatTally::default();
        for ch in s.chars() {
            match ch {
                '红' | 'r' | 'R' => t.red += 1,
                '蓝' | 'u' | 'U' => t.blue += 1,
                '黑' | 'k' | 'K' => t.black += 1,
                ' ' | ',' => {}
                _ => return None,
            }
        }
        Some(t)
    }
    pub fn count(&self, c: Colour) -> u8 {
        match c {
            Colour::Red => self.red,
            Colour::Blue => self.blue,
            Colour::Black => self.black,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Announcement {
    /// 死亡: three or more black.
    Death { seat: Seat },
    /// Three red (潜伏战线) or blue (军情局): if the player has that identity, their team wins.
    PossibleVictory { seat: Seat, identity: Identity },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Said {
    pub announcement: Announcement,
    pub text: Text,
    pub rule: RuleRef,
}

/// What the table must hear, deaths first when `message.death_before_win` is set (a dying player is
/// then not asked about victory).
pub fn announce(seats: &[SeatTally], profile: &Profile) -> Vec<Said> {
    let mut deaths = Vec::new();
    let mut wins = Vec::new();
    for (seat, t) in seats.iter().enumerate() {
        let n = seat + 1;
        let dies = t.black >= 3;
        if dies {
            deaths.push(Said {
                announcement: Announcement::Death { seat },
                text: Text::new(
                    format!("玩家{n}有{}张假情报：死亡，请亮出身份，手牌和情报放入弃牌堆", t.black),
                    format!("player {n} has {} black: dead — reveal your identity, put all your cards in the discard pile", t.black),
                ),
                rule: seed(rules::DEATH),
            });
        }
        if dies && profile.death_before_win {
            continue;
        }
        for (colour, identity, zh) in [
            (Colour::Red, Identity::Lurker, "红"),
            (Colour::Blue, Identity::Bureau, "蓝"),
        ] {
            if t.count(colour) >= 3 {
                wins.push(Said {
                    announcement: Announcement::PossibleVictory { seat, identity },
                    text: Text::new(
                        format!("玩家{n}有三张{zh}情报：如果你是{}，请亮出身份宣告胜利", identity.zh()),
                        format!("player {n} has three {colour:?}: if you are {}, reveal your identity and declare victory", identity.zh()),
                    ),
                    rule: seed(rules::VICTORY),
                });
            }
        }
    }
    if profile.death_before_win {
        deaths.extend(wins);
        deaths
    } else {
        wins.extend(deaths);
        wins
    }
}
