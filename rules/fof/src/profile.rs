//! Rules-profile options: the readings RULES-NOTES.md gives for what the seed leaves open, each named so
//! a ruling can cite it ("profile option fof.save_limit") and a table can switch it in the mission file.

use crate::card::Experience;
use crate::reader::TableReader;
use rules_core::data::DataError;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HqTrigger {
    /// The HQ radio icon starts a higher-HQ event (default).
    RadioIcon,
    /// The `hq_event` action-attempt icon does.
    HqEventIcon,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    Down,
    Up,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerExperience<T> {
    pub green: T,
    pub line: T,
    pub veteran: T,
}

impl<T: Copy> PerExperience<T> {
    pub fn get(&self, e: Experience) -> T {
        match e {
            Experience::Green => self.green,
            Experience::Line => self.line,
            Experience::Veteran => self.veteran,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Profile {
    /// fof.reshuffle_when_empty: reshuffle the discards when the draw pile runs out (RULES-NOTES
    /// "Reshuffle when the deck runs out (option)"). Off: the discards are reshuffled at 3.8 clean-up
    /// and a draw from an empty pile is refused.
    pub reshuffle_when_empty: bool,
    /// fof.hq_event_trigger: which icon starts a higher-HQ event in 3.1 / 3.2.1 / 3.4.1.
    pub hq_event_trigger: HqTrigger,
    /// fof.experience_modifier: added to an HQ's drawn command number (seed 3.3: "指令点数根据指挥部
    /// 经验进行修正"; the values are not in the seed: default green −1, line 0, veteran +1).
    pub experience_modifier: PerExperience<i8>,
    /// fof.save_limit: commands an HQ may keep for later turns (RULES-NOTES: green 2, line 4, veteran 6).
    pub save_limit: PerExperience<u8>,
    /// fof.limited_visibility_spend_cap: at night or in limited visibility an HQ may spend at most this
    /// many commands in a turn (RULES-NOTES: 4).
    pub limited_visibility_spend_cap: u8,
    /// fof.limited_visibility_caps_saving: seed 3.3.1 B says what an HQ may keep depends on experience
    /// "and day/night" (及昼夜影响); read as: in limited visibility no HQ keeps more than the spend cap.
    pub limited_visibility_caps_saving: bool,
    /// fof.activation_cost: commands the CO spends to activate one subordinate HQ (seed 3.3: commands
    /// flow down the chain; one command per order).
    pub activation_cost: u8,
    /// fof.patrol_initiative_rounding: general initiative is halved on a combat patrol (seed 3.3.2 D);
    /// which way an odd number rounds.
    pub patrol_initiative_rounding: Rounding,
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            reshuffle_when_empty: true,
            hq_event_trigger: HqTrigger::RadioIcon,
            experience_modifier: PerExperience {
                green: -1,
                line: 0,
                veteran: 1,
            },
            save_limit: PerExperience {
                green: 2,
                line: 4,
                veteran: 6,
            },
            limited_visibility_spend_cap: 4,
            limited_visibility_caps_saving: true,
            activation_cost: 1,
            patrol_initiative_rounding: Rounding::Down,
        }
    }
}

impl Profile {
    /// Reads `[profile]`; every key is optional and falls back to the default above.
    pub fn read(r: &TableReader) -> Result<Profile, DataError> {
        let d = Profile::default();
        let p = Profile {
            reshuffle_when_empty: r.or("reshuffle_when_empty", d.reshuffle_when_empty)?,
            hq_event_trigger: r.or("hq_event_trigger", d.hq_event_trigger)?,
            experience_modifier: r.or("experience_modifier", d.experience_modifier)?,
            save_limit: r.or("save_limit", d.save_limit)?,
            limited_visibility_spend_cap: r.or(
                "limited_visibility_spend_cap",
                d.limited_visibility_spend_cap,
            )?,
            limited_visibility_caps_saving: r.or(
                "limited_visibility_caps_saving",
                d.limited_visibility_caps_saving,
            )?,
            activation_cost: r.or("activation_cost", d.activation_cost)?,
            patrol_initiative_rounding: r
                .or("patrol_initiative_rounding", d.patrol_initiative_rounding)?,
        };
        r.finish()?;
        Ok(p)
    }
}
