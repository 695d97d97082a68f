//! The Blitz card catalogue: every printed card as data (TOML), validated on load.
//!
//! Card text beats the rules (seed "最高原则"), so a card's keywords and effects live here, not in code
//! per card. See `models/catalogues/README.md` for how to write entries for your own printed cards.

use rules_core::data::{line_of, parse_toml, DataError};
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
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
    /// Untap all your units: they may attack again this round.
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

/// The whole catalogue, with an index by id.
#[derive(Clone, Debug)]
pub struct Catalogue {
    pub meta: CatalogueMeta,
    pub cards: Vec<CardDef>,
    index: HashMap<String, usize>,
}

#[derive(Deserialize)]
struct RawCatalogue {
    meta: CatalogueMeta,
    card: Vec<toml::Spanned<CardDef>>,
}

/// The demo catalogue shipped in the repository, compiled in so tests and the demo never miss it.
pub const DEMO_TOML: &str = include_str!("../../../models/catalogues/blitz.toml");

impl Catalogue {
    /// The shipped demo deck.
    pub fn demo() -> Catalogue {
        Catalogue::from_toml("models/catalogues/blitz.toml", DEMO_TOML)
            .expect("the shipped demo catalogue is valid (checked by its test)")
    }

    /// Parses and validates a catalogue. `origin` names the file in errors.
    pub fn from_toml(origin: &str, text: &str) -> Result<Catalogue, DataError> {
        let raw: RawCatalogue = parse_toml(origin, text)?;
        if raw.meta.game != "blitz" {
            return Err(DataError::new(
                origin,
                format!("game is {:?}, expected \"blitz\"", raw.meta.game),
            )
            .with_field("meta.game"));
        }
        let mut index = HashMap::new();
        let mut cards = Vec::with_capacity(raw.card.len());
        for spanned in raw.card {
            let line = line_of(text, spanned.span().start);
            let card = spanned.into_inner();
            let fail = |field: &str, msg: String| {
                DataError::new(origin, msg)
                    .at_line(line)
                    .with_field(format!("{}.{field}", card.id))
            };
            if index.insert(card.id.clone(), cards.len()).is_some() {
                return Err(fail("id", format!("duplicate card id {:?}", card.id)));
            }
            validate_card(&card).map_err(|(field, msg)| fail(field, msg))?;
            cards.push(card);
        }
        Ok(Catalogue {
            meta: raw.meta,
            cards,
            index,
        })
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

/// Checks one card's fields; on failure returns the field and what is wrong.
fn validate_card(card: &CardDef) -> Result<(), (&'static str, String)> {
    if card.id.trim().is_empty() {
        return Err(("id", "empty id".into()));
    }
    if card.name_zh.trim().is_empty() {
        return Err(("name_zh", "empty name".into()));
    }
    let is_frontline = matches!(card.kind, CardKind::Frontline);
    if is_frontline != card.faction.is_none() {
        return Err((
            "faction",
            "front-line cards have no faction; every other card has one".into(),
        ));
    }
    let pattern_ok = |p: &[(i8, i8)]| {
        p.iter()
            .all(|&(a, f)| (a, f) != (0, 0) && a.abs() <= 4 && f.abs() <= 7)
    };
    match &card.kind {
        CardKind::Unit { range, defence, .. } => {
            if range.is_empty() || !pattern_ok(range) {
                return Err((
                    "range",
                    "attack range needs offsets within 4 across and 7 forward, not (0, 0)".into(),
                ));
            }
            if *defence == 0 {
                return Err(("defence", "a unit's defence must be at least 1".into()));
            }
        }
        CardKind::Resource {
            level,
            supply_range,
            ..
        } => {
            if *level == 0 {
                return Err(("level", "a resource's level must be at least 1".into()));
            }
            if let Some(p) = supply_range {
                if p.is_empty() || !pattern_ok(p) {
                    return Err((
                        "supply_range",
                        "supply range needs offsets within 4 across and 7 forward, not (0, 0)"
                            .into(),
                    ));
                }
            }
        }
        CardKind::Facility { .. } | CardKind::Skill { .. } | CardKind::Frontline => {}
    }
    Ok(())
}
