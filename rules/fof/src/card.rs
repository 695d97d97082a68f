//! The action card: every field RULES-NOTES.md lists for Fields of Fire. The values in our demo deck are
//! our own invention; the published deck's values are not public.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Experience level of a unit or HQ (green / line / veteran).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Experience {
    Green,
    Line,
    Veteran,
}

impl Experience {
    pub const ALL: [Experience; 3] = [Experience::Green, Experience::Line, Experience::Veteran];
    pub fn name(self) -> &'static str {
        match self {
            Experience::Green => "green",
            Experience::Line => "line",
            Experience::Veteran => "veteran",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.name() == s)
    }
}

/// What a hit does to the target, read by the target's experience.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HitEffect {
    NoEffect,
    Pinned,
    Panicked,
    Casualty,
    Killed,
}

impl HitEffect {
    pub const ALL: [HitEffect; 5] = [
        HitEffect::NoEffect,
        HitEffect::Pinned,
        HitEffect::Panicked,
        HitEffect::Casualty,
        HitEffect::Killed,
    ];
    pub fn name(self) -> &'static str {
        match self {
            HitEffect::NoEffect => "no_effect",
            HitEffect::Pinned => "pinned",
            HitEffect::Panicked => "panicked",
            HitEffect::Casualty => "casualty",
            HitEffect::Killed => "killed",
        }
    }
    pub fn zh(self) -> &'static str {
        match self {
            HitEffect::NoEffect => "无效果",
            HitEffect::Pinned => "压制",
            HitEffect::Panicked => "惊恐",
            HitEffect::Casualty => "伤亡",
            HitEffect::Killed => "阵亡",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.name() == s)
    }
}

/// Hit effects printed per experience level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HitEffects {
    pub green: HitEffect,
    pub line: HitEffect,
    pub veteran: HitEffect,
}

impl HitEffects {
    pub fn for_experience(&self, e: Experience) -> HitEffect {
        match e {
            Experience::Green => self.green,
            Experience::Line => self.line,
            Experience::Veteran => self.veteran,
        }
    }
}

/// The potential-contact result printed on the card: what, if anything, a PC draw reveals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContactResult {
    None,
    Sniper,
    Team,
    Squad,
    Platoon,
    Vehicle,
}

impl ContactResult {
    pub const ALL: [ContactResult; 6] = [
        ContactResult::None,
        ContactResult::Sniper,
        ContactResult::Team,
        ContactResult::Squad,
        ContactResult::Platoon,
        ContactResult::Vehicle,
    ];
    pub fn name(self) -> &'static str {
        match self {
            ContactResult::None => "none",
            ContactResult::Sniper => "sniper",
            ContactResult::Team => "team",
            ContactResult::Squad => "squad",
            ContactResult::Platoon => "platoon",
            ContactResult::Vehicle => "vehicle",
        }
    }
    pub fn zh(self) -> &'static str {
        match self {
            ContactResult::None => "无接敌",
            ContactResult::Sniper => "狙击手",
            ContactResult::Team => "小组",
            ContactResult::Squad => "班",
            ContactResult::Platoon => "排",
            ContactResult::Vehicle => "车辆",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.name() == s)
    }
}

/// Action-attempt icons (RULES-NOTES.md, Fields of Fire).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionIcon {
    AtModifier,
    BattalionFireMission,
    CallForFire,
    Contact,
    Cover,
    Grenade,
    HqEvent,
    Infiltrate,
    Jammed,
    Rally,
    ShortRound,
    Spot,
}

impl ActionIcon {
    pub fn name(self) -> &'static str {
        match self {
            ActionIcon::AtModifier => "at_modifier",
            ActionIcon::BattalionFireMission => "battalion_fire_mission",
            ActionIcon::CallForFire => "call_for_fire",
            ActionIcon::Contact => "contact",
            ActionIcon::Cover => "cover",
            ActionIcon::Grenade => "grenade",
            ActionIcon::HqEvent => "hq_event",
            ActionIcon::Infiltrate => "infiltrate",
            ActionIcon::Jammed => "jammed",
            ActionIcon::Rally => "rally",
            ActionIcon::ShortRound => "short_round",
            ActionIcon::Spot => "spot",
        }
    }
}

/// One action card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionCard {
    /// Card number, 1..=N, printed on the card.
    pub number: u16,
    /// R#: the 1–10 random number at the bottom of the card.
    pub r: u8,
    /// HQ radio icon (triggers the higher-HQ event draw in 3.1 / 3.2.1 / 3.4.1).
    pub hq_radio: bool,
    /// Activated-command number (the figure on the helmet).
    pub command: u8,
    /// Initiative-command number (the figure at the helmet's lower right).
    pub initiative: u8,
    /// Effective fire: fire is effective when the net combat modifier is at least this value.
    pub effective_fire: i8,
    /// Hit effects by the target's experience.
    pub hit: HitEffects,
    /// Potential-contact result.
    pub contact: ContactResult,
    /// Action-attempt icons.
    pub icons: Vec<ActionIcon>,
    /// Anti-tank modifier; non-zero exactly when the `at_modifier` icon is printed.
    pub at_modifier: i8,
}

impl fmt::Display for ActionCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "#{} R{} {}cmd {} / init {} | fire eff. at {:+} | hit G:{} L:{} V:{} | PC:{}",
            self.number,
            self.r,
            if self.hq_radio { "[HQ] " } else { "" },
            self.command,
            self.initiative,
            self.effective_fire,
            self.hit.green.name(),
            self.hit.line.name(),
            self.hit.veteran.name(),
            self.contact.name(),
        )?;
        if !self.icons.is_empty() {
            let names: Vec<&str> = self.icons.iter().map(|i| i.name()).collect();
            write!(f, " | icons: {}", names.join(", "))?;
        }
        if self.at_modifier != 0 {
            write!(f, " (AT {:+})", self.at_modifier)?;
        }
        Ok(())
    }
}
