//! The rules profile: seed values and the named readings where the seed is silent.

use rules_core::data::{parse_toml, DataError};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IdentitySet {
    Standard,
    Optional,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// message.death_before_win
    pub death_before_win: bool,
    /// message.identity_set
    pub identity_set: IdentitySet,
    /// message.start_hand
    pub start_hand: u8,
    /// message.draw_per_turn
    pub draw_per_turn: u8,
    /// message.characters_offered
    pub characters_offered: u8,
    /// message.max_turns (0 = no limit)
    pub max_turns: u32,
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            death_before_win: true,
            identity_set: IdentitySet::Standard,
            start_hand: 3,
            draw_per_turn: 2,
            characters_offered: 2,
            max_turns: 0,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    message: Profile,
}

pub fn parse_profile(origin: &str, text: &str) -> Result<Profile, DataError> {
    let f: File = parse_toml(origin, text)?;
    if f.message.characters_offered == 0 {
        return Err(
            DataError::new(origin, "must be at least 1").with_field("message.characters_offered")
        );
    }
    Ok(f.message)
}
