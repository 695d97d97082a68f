//! The rules profile: numbers from the seed and named options for what it leaves open
//! (see docs/duel.md and models/catalogues/duel/profile.toml). Rulings cite options as `duel.<name>`.

use rules_core::data::{parse_toml, DataError};
use serde::{Deserialize, Serialize};

/// How a "prevent N damage this turn" shield (奋迅-like buffs) is used up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnPrevention {
    /// One pool of N for the whole turn, spent by each damage it prevents.
    Pool,
    /// N off every damage this turn (like 坚韧 for the rest of the turn).
    EachDamage,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Profile {
    /// Seed: 起始体力 30.
    pub start_life: i32,
    /// Seed: 遊戲開始時每名玩家抓七張牌.
    pub start_hand: usize,
    /// Seed: 手牌上限是七張.
    pub hand_limit: usize,
    /// duel.first_player_skips_draw: the first player skips the draw of turn 1.
    pub first_player_skips_draw: bool,
    /// duel.turn_prevention: how a buff's "prevent N this turn" works.
    pub turn_prevention: TurnPrevention,
    /// duel.commander_same_faction: commander decks hold only the commander's faction and neutral cards.
    pub commander_same_faction: bool,
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            start_life: 30,
            start_hand: 7,
            hand_limit: 7,
            first_player_skips_draw: true,
            turn_prevention: TurnPrevention::Pool,
            commander_same_faction: true,
        }
    }
}

pub const PROFILE_TOML: &str = include_str!("../../../models/catalogues/duel/profile.toml");

impl Profile {
    pub fn parse(origin: &str, text: &str) -> Result<Profile, DataError> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct File {
            duel: Profile,
        }
        let p = parse_toml::<File>(origin, text)?.duel;
        if p.start_life <= 0 || p.start_hand == 0 || p.hand_limit == 0 {
            return Err(DataError::new(
                origin,
                "start_life, start_hand and hand_limit must be positive",
            )
            .with_field("duel"));
        }
        Ok(p)
    }

    /// The shipped profile (same values as `Default`, written out so tables can copy and edit it).
    pub fn shipped() -> Profile {
        Profile::parse("models/catalogues/duel/profile.toml", PROFILE_TOML).unwrap_or_default()
    }
}
