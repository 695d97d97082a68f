//! The Blitz rules profile: every point the rulebook leaves open, as a named option.
//!
//! Defaults are the readings of RULES-NOTES.md; `models/profiles/blitz.toml` documents each option.
//! A ruling that depends on one cites it as "profile option blitz.<name>".

use rules_core::data::{parse_toml, DataError};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CombineAttacks {
    /// Joint attackers add their attack values (the seed's cut sentence "将各部队相应的攻击…").
    Sum,
    /// Only the strongest attacker counts.
    Highest,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnnihilationScope {
    /// Victory 1 holds when the enemy has no unit on the board.
    Board,
    /// … only when the enemy has no unit on the board, in hand or in the deck.
    All,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Profile {
    /// blitz.combine_attacks
    pub combine_attacks: CombineAttacks,
    /// blitz.deploy_then_move: a card deployed this round may also move this round.
    pub deploy_then_move: bool,
    /// blitz.annihilation_scope
    pub annihilation_scope: AnnihilationScope,
    /// blitz.annihilation_from_round: victory 1 is checked from this round on.
    pub annihilation_from_round: u16,
    /// blitz.rotate_order_two_players: the seed's order rotation ("这一回合中的第二个行动玩家在下一回合
    /// 第一个行动") also applies with two players.
    pub rotate_order_two_players: bool,
    /// blitz.hand_limit
    pub hand_limit: usize,
    /// blitz.opening_hand
    pub opening_hand: usize,
    /// blitz.mulligans: how many times a player may throw back the opening hand.
    pub mulligans: u8,
    /// blitz.engineer_reach: an engineer removes enemy facilities within this many orthogonal cells
    /// (rule 8 "横向或纵向一格范围": 1, its own cell included).
    pub engineer_reach: i8,
    /// blitz.resource_exposure: a resource within this many orthogonal cells of an enemy unit is
    /// discarded at the end of deployment (rule 6).
    pub resource_exposure: i8,
    /// blitz.facilities_own_side: facilities are placed only in your own territory, like units and
    /// resources (rule 2 names only those two).
    pub facilities_own_side: bool,
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            combine_attacks: CombineAttacks::Sum,
            deploy_then_move: false,
            annihilation_scope: AnnihilationScope::Board,
            annihilation_from_round: 2,
            rotate_order_two_players: true,
            hand_limit: 8,
            opening_hand: 8,
            mulligans: 1,
            engineer_reach: 1,
            resource_exposure: 1,
            facilities_own_side: true,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfileFile {
    #[serde(default)]
    blitz: Profile,
}

/// The documented default profile, shipped as data.
pub const DEFAULT_TOML: &str = include_str!("../../../models/profiles/blitz.toml");

impl Profile {
    /// Parses a profile file (`[blitz]` table); missing options keep their defaults, unknown ones are
    /// an error naming the line.
    pub fn from_toml(origin: &str, text: &str) -> Result<Profile, DataError> {
        let file: ProfileFile = parse_toml(origin, text)?;
        if file.blitz.hand_limit == 0 || file.blitz.opening_hand > file.blitz.hand_limit {
            return Err(
                DataError::new(origin, "opening_hand must be between 1 and hand_limit")
                    .with_field("blitz.opening_hand"),
            );
        }
        Ok(file.blitz)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_profile_is_the_default() {
        let p = Profile::from_toml("blitz.toml", DEFAULT_TOML).unwrap();
        assert_eq!(p, Profile::default());
    }

    #[test]
    fn unknown_option_is_named_with_its_line() {
        let err = Profile::from_toml(
            "p.toml",
            "[blitz]\ncombine_attacks = \"sum\"\ncombine = 1\n",
        )
        .unwrap_err();
        assert_eq!(err.line, Some(3), "{err}");
        assert!(err.message.contains("combine"), "{err}");
    }

    #[test]
    fn bad_value_is_named() {
        let err =
            Profile::from_toml("p.toml", "[blitz]\ncombine_attacks = \"average\"\n").unwrap_err();
        assert_eq!(err.line, Some(2), "{err}");
    }
}
