//! The Blitz card catalogue: every printed card as data (TOML), validated on load.
//!
//! Card text beats the rules (seed "最高原则"), so a card's keywords and effects live here, not in code
//! per card. See `models/catalogues/README.md` for how to write entries for your own printed cards.

use rules_core::data::DataError;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The four factions; front-line cards belong to none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Faction {
    /// 美军
    Us,
    /// 英军
    Uk,
    /// 党卫军
    Ss,
    /// 国防军
    Wh,
}

impl Faction {
    pub const ALL: [Faction; 4] = [Faction::Us, Faction::Uk, Faction::Ss, Faction::Wh];

    pub fn side(self) -> Side {
        match self {
            Faction::Us | Faction::Uk => Side::Allied,
            Faction::Ss | Faction::Wh => Side::Axis,
        }
    }

    /// The name used in catalogue files and card ids ("us", "uk", "ss", "wh").
    pub fn key(self) -> &'static str {
        match self {
            Faction::Us => "us",
            Faction::Uk => "uk",
            Faction::Ss => "ss",
            Faction::Wh => "wh",
        }
    }

    pub fn name_zh(self) -> &'static str {
        match self {
            Faction::Us => "美军",
            Faction::Uk => "英军",
            Faction::Ss => "党卫军",
            Faction::Wh => "国防军",
        }
    }

    pub fn name_en(self) -> &'static str {
        match self {
            Faction::Us => "US",
            Faction::Uk => "UK",
            Faction::Ss => "SS",
            Faction::Wh => "Wehrmacht",
        }
    }
}

/// 盟军 / 德军: which side of the front line a faction's territory is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Allied,
    Axis,
}

impl Side {
    pub fn enemy(self) -> Side {
        match self {
            Side::Allied => Side::Axis,
            Side::Axis => Side::Allied,
        }
    }
}

/// Written in snake_case like every other name in the catalogue ("anti_tank", as in facility effects).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitKind {
    Infantry,
    Engineer,
    Recon,
    Vehicle,
    Artillery,
    AntiTank,
}

impl UnitKind {
    /// Tanks, armoured cars and self-propelled guns: barred by anti-tank obstacles.
    pub fn is_vehicle(self) -> bool {
        matches!(self, UnitKind::Vehicle)
    }
}

/// Keyword abilities a unit's card text grants. Each one changes a rule for that card only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Keyword {
    /// 工程: removes enemy facilities next to it at the end of deployment (部署阶段规则 8).
    Engineer,
    /// 机动: may move up to two cells orthogonally in one deployment step.
    Fast,
    /// 坚守: exempt from the must-advance rule at enemy depth 3 (部署阶段规则 4, "有特殊说明的部队除外").
    HoldsGround,
    /// 自给: needs no resource card to attack.
    SelfSupplied,
    /// 扫雷: enters enemy mines without harm and clears them.
    MineClearer,
}

/// What a facility does while it lies on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum FacilityEffect {
    /// 地雷: an enemy unit entering the cell is destroyed and the mine discarded.
    Mine,
    /// 反坦克障碍: no vehicle of either side may enter the cell.
    AntiTank,
    /// 碉堡 (our design): a friendly unit in the cell gets +bonus defence.
    Bunker { bonus: u8 },
}

/// What a skill card does when shown in the skill step (once per game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum SkillEffect {
    /// Attack one enemy card anywhere on the board with this power (destroyed if power > defence).
    Strike { power: u8 },
    /// Attack the target cell and its four orthogonal neighbours with this power (enemy cards only).
    Barrage { power: u8 },
    /// Discard one enemy resource or facility anywhere on the board.
    Sabotage,
    /// 空投补给: this round all your units count as supplied, whatever their required level.
    Rally,
}

/// The card type and the numbers that go with it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum CardKind {
    Unit {
        kind: UnitKind,
        attack: u8,
        defence: u8,
        /// Required supply level (0: attacks without a resource card).
        supply: u8,
        /// Attack range as (across, forward) offsets in the owner's forward direction.
        range: Vec<(i8, i8)>,
        #[serde(default)]
        keywords: Vec<Keyword>,
    },
    Resource {
        level: u8,
        defence: u8,
        /// Supply range; `None` means the 8 cells around it (RULES-NOTES default).
        #[serde(default)]
        supply_range: Option<Vec<(i8, i8)>>,
    },
    Facility {
        defence: u8,
        effect: FacilityEffect,
    },
    Skill {
        effect: SkillEffect,
    },
    Frontline,
}

/// One printed card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardDef {
    /// Stable id, printed small on the card and used by the camera: e.g. "us-u01", "front-3".
    pub id: String,
    #[serde(default)]
    pub faction: Option<Faction>,
    pub name_zh: String,
    pub name_en: String,
    #[serde(flatten)]
    pub kind: CardKind,
    /// Card text as printed (Chinese) and its translation; the rules it changes are in `kind`.
    #[serde(default)]
    pub text_zh: String,
    #[serde(default)]
    pub text_en: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CatalogueMeta {
    pub game: String,
    pub title: String,
    /// True for our made-up demo deck; a table's own transcription sets false.
    pub demo: bool,
}

/// How far an attack or supply pattern may reach: the board is at most 5 columns wide and 7 rows deep,
/// so no offset can reach further than 4 across or 6 forward/back from a cell on it.
pub const MAX_ACROSS: i8 = 4;
pub const MAX_FORWARD: i8 = 6;
/// Attack, defence and skill power are printed as one digit.
pub const MAX_VALUE: u8 = 9;
/// Supply levels (资源级别): a unit needs 0..=3, a resource gives 1..=3.
pub const MAX_SUPPLY_LEVEL: u8 = 3;

/// The seed's composition of a full set (游戏配件): per faction 24 units, 10 resources, 3 facilities and
/// 2 skills; 5 front-line cards; 161 cards in all.
pub const UNITS_PER_FACTION: usize = 24;
pub const RESOURCES_PER_FACTION: usize = 10;
pub const FACILITIES_PER_FACTION: usize = 3;
pub const SKILLS_PER_FACTION: usize = 2;
pub const FRONTLINE_CARDS: usize = 5;
pub const FULL_SET_CARDS: usize = 161;

impl CardKind {
    /// The `type` key as written in the catalogue.
    pub fn type_name(&self) -> &'static str {
        match self {
            CardKind::Unit { .. } => "unit",
            CardKind::Resource { .. } => "resource",
            CardKind::Facility { .. } => "facility",
            CardKind::Skill { .. } => "skill",
            CardKind::Frontline => "frontline",
        }
    }
}

impl CardDef {
    pub fn keywords(&self) -> &[Keyword] {
        match &self.kind {
            CardKind::Unit { keywords, .. } => keywords,
            _ => &[],
        }
    }

    pub fn has_keyword(&self, keyword: Keyword) -> bool {
        self.keywords().contains(&keyword)
    }
}

/// The whole catalogue, with an index by id.
#[derive(Clone, Debug)]
pub struct Catalogue {
    pub meta: CatalogueMeta,
    pub cards: Vec<CardDef>,
    index: HashMap<String, usize>,
    /// The file it came from, for errors found after loading (e.g. [`Catalogue::check_composition`]).
    origin: String,
}

/// The demo catalogue shipped in the repository, compiled in so tests and the demo never miss it.
pub const DEMO_TOML: &str = include_str!("../../../models/catalogues/blitz.toml");
pub const DEMO_ORIGIN: &str = "models/catalogues/blitz.toml";

impl Catalogue {
    /// The shipped demo deck.
    pub fn demo() -> Catalogue {
        Catalogue::from_toml(DEMO_ORIGIN, DEMO_TOML)
            .expect("the shipped demo catalogue is valid (checked by its test)")
    }

    /// Parses and validates a catalogue. `origin` names the file in errors.
    ///
    /// A table's own catalogue may hold only the cards it owns; [`Catalogue::check_composition`]
    /// checks a complete set separately.
    pub fn from_toml(origin: &str, text: &str) -> Result<Catalogue, DataError> {
        let (meta, cards) = load::parse(origin, text)?;
        let index = cards
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id.clone(), i))
            .collect();
        Ok(Catalogue {
            meta,
            cards,
            index,
            origin: origin.to_string(),
        })
    }

    /// Checks the seed's composition of a full set: every faction has 24 units, 10 resources,
    /// 3 facilities and 2 skills, and there are 5 front-line cards (161 cards).
    pub fn check_composition(&self) -> Result<(), DataError> {
        let expected = [
            ("unit", UNITS_PER_FACTION),
            ("resource", RESOURCES_PER_FACTION),
            ("facility", FACILITIES_PER_FACTION),
            ("skill", SKILLS_PER_FACTION),
        ];
        for faction in Faction::ALL {
            for (type_name, want) in expected {
                let have = self.count(Some(faction), type_name);
                if have != want {
                    return Err(DataError::new(
                        &self.origin,
                        format!(
                            "{} ({}) has {have} {type_name} cards; a full set has {want}",
                            faction.name_zh(),
                            faction.name_en()
                        ),
                    )
                    .with_field(format!(
                        "card[faction = {:?}, type = {type_name:?}]",
                        faction.key()
                    )));
                }
            }
        }
        let fronts = self.count(None, "frontline");
        if fronts != FRONTLINE_CARDS {
            return Err(DataError::new(
                &self.origin,
                format!("{fronts} front-line cards; a full set has {FRONTLINE_CARDS}"),
            )
            .with_field("card[type = \"frontline\"]"));
        }
        if self.cards.len() != FULL_SET_CARDS {
            return Err(DataError::new(
                &self.origin,
                format!(
                    "{} cards; a full set has {FULL_SET_CARDS}",
                    self.cards.len()
                ),
            )
            .with_field("card"));
        }
        Ok(())
    }

    /// How many cards of a faction (None: no faction) have a given `type`.
    pub fn count(&self, faction: Option<Faction>, type_name: &str) -> usize {
        self.cards
            .iter()
            .filter(|c| c.faction == faction && c.kind.type_name() == type_name)
            .count()
    }

    pub fn get(&self, id: &str) -> Option<&CardDef> {
        self.index.get(id).map(|&i| &self.cards[i])
    }

    /// Position of a card in `cards`; engines refer to card definitions by this index.
    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }

    pub fn faction_cards(&self, faction: Faction) -> impl Iterator<Item = (usize, &CardDef)> {
        self.cards
            .iter()
            .enumerate()
            .filter(move |(_, c)| c.faction == Some(faction))
    }
}

/// Checks one card's values; on failure returns the field and what is wrong. The reader in
/// `catalogue_load.rs` turns the field into a line of the file.
fn validate_card(card: &CardDef) -> Result<(), (&'static str, String)> {
    if card.id.trim().is_empty() || card.id.chars().any(char::is_whitespace) {
        return Err(("id", "an id must be non-empty and without spaces".into()));
    }
    if card.name_zh.trim().is_empty() {
        return Err(("name_zh", "empty name".into()));
    }
    if card.name_en.trim().is_empty() {
        return Err(("name_en", "empty name".into()));
    }
    let is_frontline = matches!(card.kind, CardKind::Frontline);
    if is_frontline != card.faction.is_none() {
        let msg = if is_frontline {
            "front-line cards belong to no faction; remove `faction`"
        } else {
            "every card except front-line cards needs a faction (us, uk, ss, wh)"
        };
        return Err(("faction", msg.into()));
    }
    match &card.kind {
        CardKind::Unit {
            kind,
            attack,
            defence,
            supply,
            range,
            keywords,
        } => {
            check_value("attack", *attack, 0)?;
            check_value("defence", *defence, 1)?;
            if *supply > MAX_SUPPLY_LEVEL {
                return Err((
                    "supply",
                    format!("supply level {supply} is above {MAX_SUPPLY_LEVEL}"),
                ));
            }
            check_pattern("range", range)?;
            for (i, k) in keywords.iter().enumerate() {
                if keywords[..i].contains(k) {
                    return Err(("keywords", format!("keyword {k:?} is listed twice")));
                }
            }
            // An engineer unit that cannot remove facilities would contradict its own card type.
            if *kind == UnitKind::Engineer && !keywords.contains(&Keyword::Engineer) {
                return Err((
                    "keywords",
                    "a unit of kind \"engineer\" must carry the \"engineer\" keyword".into(),
                ));
            }
        }
        CardKind::Resource {
            level,
            defence,
            supply_range,
        } => {
            if !(1..=MAX_SUPPLY_LEVEL).contains(level) {
                return Err((
                    "level",
                    format!("a resource's level must be 1..={MAX_SUPPLY_LEVEL}, not {level}"),
                ));
            }
            check_value("defence", *defence, 1)?;
            if let Some(p) = supply_range {
                check_pattern("supply_range", p)?;
            }
        }
        CardKind::Facility { defence, effect } => {
            check_value("defence", *defence, 1)?;
            if let FacilityEffect::Bunker { bonus } = effect {
                check_value("effect", *bonus, 1)?;
            }
        }
        CardKind::Skill { effect } => {
            if let SkillEffect::Strike { power } | SkillEffect::Barrage { power } = effect {
                check_value("effect", *power, 1)?;
            }
        }
        CardKind::Frontline => {}
    }
    Ok(())
}

fn check_value(field: &'static str, value: u8, min: u8) -> Result<(), (&'static str, String)> {
    if (min..=MAX_VALUE).contains(&value) {
        Ok(())
    } else {
        Err((field, format!("{value} is outside {min}..={MAX_VALUE}")))
    }
}

/// A range pattern: (across, forward) offsets, non-empty, no repeats, not the card's own cell, and on
/// the board.
fn check_pattern(field: &'static str, pattern: &[(i8, i8)]) -> Result<(), (&'static str, String)> {
    if pattern.is_empty() {
        return Err((
            field,
            "the pattern needs at least one [across, forward] offset".into(),
        ));
    }
    for (i, &(across, forward)) in pattern.iter().enumerate() {
        if (across, forward) == (0, 0) {
            return Err((field, "offset [0, 0] is the card's own cell".into()));
        }
        if across.abs() > MAX_ACROSS || forward.abs() > MAX_FORWARD {
            return Err((
                field,
                format!(
                    "offset [{across}, {forward}] is off the board (at most {MAX_ACROSS} across, \
                     {MAX_FORWARD} forward or back)"
                ),
            ));
        }
        if pattern[..i].contains(&(across, forward)) {
            return Err((
                field,
                format!("offset [{across}, {forward}] is listed twice"),
            ));
        }
    }
    Ok(())
}

#[path = "catalogue_load.rs"]
mod load;

#[cfg(test)]
#[path = "catalogue_tests.rs"]
mod tests;
