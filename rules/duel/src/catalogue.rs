//! The card catalogue: every card as data (TOML), validated on load, errors naming file, line and field.
//!
//! Abilities are data: keywords (see `keyword.rs`) and effect steps ("damage 2", "draw 1"), so no
//! card has code of its own. The shipped catalogue is a DEMO of our own invention (no real card text).

use crate::keyword::{Boost, Faction, Keyword};
use rules_core::data::{parse_toml, DataError, Lines};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use toml::Spanned;

/// 卡牌类别.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    /// 单位
    Unit,
    /// 锦囊 (resolves, then goes to the graveyard; not an entity)
    Trick,
    /// 陣略 (an entity outside the 陣地)
    Strategy,
    /// 战器 (equipment, attached with 佩带)
    Equipment,
    /// 领土
    Territory,
}

impl Kind {
    pub fn zh(self) -> &'static str {
        match self {
            Kind::Unit => "单位",
            Kind::Trick => "锦囊",
            Kind::Strategy => "陣略",
            Kind::Equipment => "战器",
            Kind::Territory => "领土",
        }
    }
    fn parse(s: &str) -> Option<Kind> {
        Some(match s {
            "unit" | "单位" => Kind::Unit,
            "trick" | "锦囊" => Kind::Trick,
            "strategy" | "陣略" | "阵略" => Kind::Strategy,
            "equipment" | "战器" => Kind::Equipment,
            "territory" | "领土" => Kind::Territory,
            _ => return None,
        })
    }
}

/// 使用时机: {通常} (your 行动 phase, empty stack) or {瞬发} (whenever you hold priority).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Timing {
    Normal,
    Instant,
}

/// What a card's effect points at, chosen when it is played (判定 cards too, seed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TargetSpec {
    None,
    AnyUnit,
    EnemyUnit,
    OwnUnit,
    UnitOrPlayer,
    /// A card the opponent is playing (取消).
    StackCard,
}

impl TargetSpec {
    fn parse(s: &str) -> Option<TargetSpec> {
        Some(match s {
            "none" => TargetSpec::None,
            "unit" => TargetSpec::AnyUnit,
            "enemy-unit" => TargetSpec::EnemyUnit,
            "own-unit" => TargetSpec::OwnUnit,
            "unit-or-player" => TargetSpec::UnitOrPlayer,
            "stack-card" => TargetSpec::StackCard,
            _ => return None,
        })
    }
    fn takes_unit(self) -> bool {
        matches!(
            self,
            TargetSpec::AnyUnit
                | TargetSpec::EnemyUnit
                | TargetSpec::OwnUnit
                | TargetSpec::UnitOrPlayer
        )
    }
}

/// One step of an effect.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    /// Damage to the target (unit or player); on entering: to the opposite enemy unit.
    Damage(u8),
    /// The target unit gets +attack 武力 and a shield preventing `prevent` damage this turn.
    Buff {
        attack: i16,
        prevent: u8,
    },
    /// Remove damage from the target unit, or the target player gains life.
    Heal(u8),
    Draw(u8),
    /// You gain life.
    Gain(u8),
    /// Each opponent loses life (loss of life: not damage, not preventable).
    Drain(u8),
    Destroy,
    Untap,
    /// The target unit moves to an adjacent empty 陣地 (the lower-numbered one first).
    Move,
    /// The target card on the stack is cancelled (取消).
    Cancel,
}

impl Step {
    pub fn parse(text: &str) -> Result<Step, String> {
        let w: Vec<&str> = text.split_whitespace().collect();
        let num = |i: usize| -> Result<u8, String> {
            w.get(i)
                .and_then(|s| s.trim_start_matches('+').parse().ok())
                .ok_or_else(|| format!("`{text}`: expected a number after `{}`", w[0]))
        };
        let Some(head) = w.first() else {
            return Err("empty effect step".into());
        };
        let (step, words) = match *head {
            "damage" => (Step::Damage(num(1)?), 2),
            "buff" => {
                let attack = w
                    .get(1)
                    .and_then(|s| s.trim_start_matches('+').parse::<i16>().ok())
                    .ok_or_else(|| format!("`{text}`: expected `buff +A [prevent N]`"))?;
                if w.get(2) == Some(&"prevent") {
                    (Step::Buff { attack, prevent: num(3)? }, 4)
                } else {
                    (Step::Buff { attack, prevent: 0 }, 2)
                }
            }
            "heal" => (Step::Heal(num(1)?), 2),
            "draw" => (Step::Draw(num(1)?), 2),
            "gain" => (Step::Gain(num(1)?), 2),
            "drain" => (Step::Drain(num(1)?), 2),
            "destroy" => (Step::Destroy, 1),
            "untap" => (Step::Untap, 1),
            "move" => (Step::Move, 1),
            "cancel" => (Step::Cancel, 1),
            other => {
                return Err(format!(
                    "unknown effect step `{other}` (known: damage, buff, heal, draw, gain, drain, destroy, untap, move, cancel)"
                ))
            }
        };
        if w.len() != words {
            return Err(format!("`{text}`: unexpected words"));
        }
        Ok(step)
    }

    /// Whether the step acts on the chosen target (as opposed to you / your opponent).
    fn needs_target(&self) -> bool {
        matches!(
            self,
            Step::Damage(_)
                | Step::Buff { .. }
                | Step::Heal(_)
                | Step::Destroy
                | Step::Untap
                | Step::Move
                | Step::Cancel
        )
    }
}

/// A territory's activated ability: {通常}{横置} this territory and pay {cost}: the steps (no target).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerritoryAbility {
    pub cost: u8,
    pub effect: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardDef {
    pub id: String,
    pub name: String,
    pub en: String,
    pub faction: Faction,
    pub kind: Kind,
    pub cost: u8,
    /// 勢力需求 of the card's own faction.
    pub need: u8,
    pub attack: u8,
    pub health: u8,
    pub subtypes: Vec<String>,
    pub keywords: Vec<Keyword>,
    pub timing: Timing,
    pub target: TargetSpec,
    pub effect: Vec<Step>,
    /// Tricks with 逆境/盛世/外交: extra steps when the condition holds on resolution.
    pub bonus: Vec<Step>,
    /// Entities: steps when it enters the battlefield (triggered; no chosen target).
    pub on_enter: Vec<Step>,
    /// Equipment: what the equipped unit gets.
    pub boost: Boost,
    /// 基本领土: exempt from the copy limit.
    pub basic: bool,
    /// Territories: the faction a face-up copy supports.
    pub support: Option<Faction>,
    pub ability: Option<TerritoryAbility>,
    /// Rules text for people (demo wording).
    pub text: String,
}

impl CardDef {
    pub fn has(&self, pred: impl Fn(&Keyword) -> bool) -> bool {
        self.keywords.iter().any(pred)
    }
    pub fn label(&self) -> String {
        format!("{} {} ({})", self.id, self.name, self.en)
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))]
pub struct CatalogueErrors(pub Vec<DataError>);

#[derive(Clone, Debug)]
pub struct Catalogue {
    pub cards: Vec<CardDef>,
    pub demo: bool,
    pub note: String,
    by_key: HashMap<String, usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMeta {
    #[serde(default)]
    demo: bool,
    #[serde(default)]
    note: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAbility {
    cost: u8,
    effect: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCard {
    id: Spanned<String>,
    name: String,
    en: String,
    faction: Spanned<String>,
    kind: Spanned<String>,
    #[serde(default)]
    cost: u8,
    #[serde(default)]
    need: u8,
    attack: Option<u8>,
    health: Option<u8>,
    #[serde(default)]
    subtypes: Vec<String>,
    keywords: Option<Spanned<Vec<String>>>,
    timing: Option<Spanned<String>>,
    target: Option<Spanned<String>>,
    effect: Option<Spanned<Vec<String>>>,
    bonus: Option<Spanned<Vec<String>>>,
    on_enter: Option<Spanned<Vec<String>>>,
    boost: Option<Spanned<String>>,
    #[serde(default)]
    basic: bool,
    support: Option<Spanned<String>>,
    ability: Option<Spanned<RawAbility>>,
    #[serde(default)]
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    meta: Option<RawMeta>,
    card: Vec<RawCard>,
}

/// The shipped demo catalogue (invented cards, marked `demo = true`).
pub const DEMO_TOML: &str = include_str!("../../../models/catalogues/duel/demo.toml");

impl Catalogue {
    pub fn demo() -> Catalogue {
        // The shipped file is checked by the crate's tests; failing here means the build itself is broken.
        Catalogue::parse("models/catalogues/duel/demo.toml", DEMO_TOML)
            .unwrap_or_else(|e| panic!("shipped duel catalogue is invalid:\n{e}"))
    }

    pub fn parse(origin: &str, text: &str) -> Result<Catalogue, CatalogueErrors> {
        let raw: RawFile = parse_toml(origin, text).map_err(|e| CatalogueErrors(vec![e]))?;
        let lines = Lines::new(text);
        let mut errors = Vec::new();
        let mut cards = Vec::new();
        let mut by_key = HashMap::new();
        for (i, rc) in raw.card.into_iter().enumerate() {
            let line = lines.of(rc.id.span().start);
            let mut err = |field: &str, span: Option<std::ops::Range<usize>>, msg: String| {
                let at = span.map(|s| lines.of(s.start)).unwrap_or(line);
                errors.push(
                    DataError::new(origin, msg)
                        .at_line(at)
                        .with_field(format!("card[{i}] {}.{field}", rc.id.get_ref())),
                );
            };
            match build_card(&rc) {
                Ok(def) => {
                    if def.id.is_empty() {
                        err("id", Some(rc.id.span()), "empty id".into());
                        continue;
                    }
                    for key in [def.id.clone(), def.name.clone()] {
                        if by_key.insert(key.clone(), cards.len()).is_some() {
                            err(
                                "id",
                                Some(rc.id.span()),
                                format!("`{key}` is used by two cards"),
                            );
                        }
                    }
                    cards.push(def);
                }
                Err((field, span, msg)) => err(field, span, msg),
            }
        }
        if !errors.is_empty() {
            return Err(CatalogueErrors(errors));
        }
        let meta = raw.meta.unwrap_or(RawMeta {
            demo: false,
            note: String::new(),
        });
        Ok(Catalogue {
            cards,
            demo: meta.demo,
            note: meta.note,
            by_key,
        })
    }

    /// Looks a card up by id or printed name.
    pub fn find(&self, key: &str) -> Option<usize> {
        self.by_key.get(key).copied()
    }

    pub fn get(&self, index: usize) -> &CardDef {
        &self.cards[index]
    }
}

type FieldError = (&'static str, Option<std::ops::Range<usize>>, String);

fn steps(
    field: &'static str,
    list: &Option<Spanned<Vec<String>>>,
) -> Result<Vec<Step>, FieldError> {
    let Some(list) = list else {
        return Ok(Vec::new());
    };
    list.get_ref()
        .iter()
        .map(|s| Step::parse(s).map_err(|m| (field, Some(list.span()), m)))
        .collect()
}

fn span_of(list: &Option<Spanned<Vec<String>>>) -> Option<std::ops::Range<usize>> {
    list.as_ref().map(|l| l.span())
}

fn build_card(rc: &RawCard) -> Result<CardDef, FieldError> {
    let faction = Faction::parse(rc.faction.get_ref()).ok_or_else(|| {
        (
            "faction",
            Some(rc.faction.span()),
            format!(
                "unknown faction `{}` (wei, shu, wu, qun, neutral)",
                rc.faction.get_ref()
            ),
        )
    })?;
    let kind = Kind::parse(rc.kind.get_ref()).ok_or_else(|| {
        (
            "kind",
            Some(rc.kind.span()),
            format!(
                "unknown kind `{}` (unit, trick, strategy, equipment, territory)",
                rc.kind.get_ref()
            ),
        )
    })?;
    let kw_span = span_of(&rc.keywords);
    let keywords: Vec<Keyword> = rc
        .keywords
        .as_ref()
        .map(|k| k.get_ref().as_slice())
        .unwrap_or_default()
        .iter()
        .map(|s| Keyword::parse(s).map_err(|m| ("keywords", kw_span.clone(), m)))
        .collect::<Result<_, _>>()?;
    let timing = match rc.timing.as_ref().map(|t| (t.get_ref().as_str(), t.span())) {
        None | Some(("normal" | "通常", _)) => Timing::Normal,
        Some(("instant" | "瞬发", _)) => Timing::Instant,
        Some((other, span)) => {
            return Err((
                "timing",
                Some(span),
                format!("unknown timing `{other}` (normal, instant)"),
            ))
        }
    };
    let target = match &rc.target {
        None => TargetSpec::None,
        Some(t) => TargetSpec::parse(t.get_ref()).ok_or_else(|| {
            ("target", Some(t.span()), format!("unknown target `{}` (none, unit, enemy-unit, own-unit, unit-or-player, stack-card)", t.get_ref()))
        })?,
    };
    let effect = steps("effect", &rc.effect)?;
    let bonus = steps("bonus", &rc.bonus)?;
    let on_enter = steps("on_enter", &rc.on_enter)?;
    let boost = match &rc.boost {
        None => Boost::default(),
        Some(b) => Boost::parse(b.get_ref()).ok_or_else(|| {
            (
                "boost",
                Some(b.span()),
                format!("`{}` is not a boost like +2/+0", b.get_ref()),
            )
        })?,
    };
    let support = match &rc.support {
        None => None,
        Some(s) => Some(
            Faction::parse(s.get_ref())
                .filter(|f| *f != Faction::Neutral)
                .ok_or_else(|| {
                    (
                        "support",
                        Some(s.span()),
                        format!("`{}` is not a faction that can be supported", s.get_ref()),
                    )
                })?,
        ),
    };
    let ability = match &rc.ability {
        None => None,
        Some(a) => {
            let list = Some(Spanned::new(a.span(), a.get_ref().effect.clone()));
            Some(TerritoryAbility {
                cost: a.get_ref().cost,
                effect: steps("ability.effect", &list)?,
            })
        }
    };
    let def = CardDef {
        id: rc.id.get_ref().clone(),
        name: rc.name.clone(),
        en: rc.en.clone(),
        faction,
        kind,
        cost: rc.cost,
        need: rc.need,
        attack: rc.attack.unwrap_or(0),
        health: rc.health.unwrap_or(0),
        subtypes: rc.subtypes.clone(),
        keywords,
        timing,
        target,
        effect,
        bonus,
        on_enter,
        boost,
        basic: rc.basic,
        support,
        ability,
        text: rc.text.clone(),
    };
    validate(&def, rc).map_err(|(f, m)| {
        let span = match f {
            "keywords" => kw_span,
            "effect" | "target" => span_of(&rc.effect),
            "on_enter" => span_of(&rc.on_enter),
            _ => None,
        };
        (f, span, m)
    })?;
    Ok(def)
}

/// Checks that make a card playable by the engine: stats where needed, keywords on the right kinds,
/// a target when a step needs one.
fn validate(d: &CardDef, rc: &RawCard) -> Result<(), (&'static str, String)> {
    let unit = d.kind == Kind::Unit;
    if unit && (rc.attack.is_none() || rc.health.is_none()) {
        return Err(("health", "a unit needs `attack` and `health`".into()));
    }
    if unit && d.health == 0 {
        return Err(("health", "a unit needs health 1 or more".into()));
    }
    if !unit && (rc.attack.is_some() || rc.health.is_some()) {
        return Err(("attack", format!("a {} has no attack/health", d.kind.zh())));
    }
    if d.faction == Faction::Neutral && d.need > 0 {
        return Err((
            "need",
            "neutral cards have no faction to require support of".into(),
        ));
    }
    if d.cost > 12 || d.need > 6 {
        return Err((
            "cost",
            "cost above 12 or need above 6 is outside what the engine supports".into(),
        ));
    }
    if d.kind == Kind::Territory {
        if d.cost > 0 || d.need > 0 || !d.effect.is_empty() || d.target != TargetSpec::None {
            return Err((
                "cost",
                "a territory has no cost, need, effect or target".into(),
            ));
        }
        if d.basic && d.support.is_none() {
            return Err(("support", "a basic territory must support a faction".into()));
        }
        if let Some(a) = &d.ability {
            if a.effect.iter().any(|s| s.needs_target()) || a.effect.is_empty() {
                return Err((
                    "ability",
                    "a territory ability takes draw/gain/drain steps only".into(),
                ));
            }
        }
    } else if d.support.is_some() || d.ability.is_some() || d.basic {
        return Err((
            "support",
            "only territories have support, abilities or are basic".into(),
        ));
    }
    if d.kind == Kind::Equipment && !d.has(|k| matches!(k, Keyword::Equip(_))) {
        return Err(("keywords", "equipment needs 佩带 {X}".into()));
    }
    if d.kind != Kind::Equipment && d.boost != Boost::default() {
        return Err(("boost", "only equipment has a boost".into()));
    }
    for k in &d.keywords {
        let ok = match k {
            Keyword::Resist(_)
            | Keyword::Insight
            | Keyword::Tough(_)
            | Keyword::Combo
            | Keyword::Breakthrough
            | Keyword::Shoot(_)
            | Keyword::Haste
            | Keyword::Assault(_)
            | Keyword::Intercept(_)
            | Keyword::Expedition { .. }
            | Keyword::Spoils
            | Keyword::Deadly
            | Keyword::Shift
            | Keyword::Swarm => unit,
            Keyword::Judge(_) | Keyword::Contest | Keyword::Cancel => d.kind == Kind::Trick,
            Keyword::Equip(x) => d.kind == Kind::Equipment && *x > 0,
            Keyword::Turmoil => matches!(d.kind, Kind::Unit | Kind::Strategy),
            Keyword::Ambush => d.kind != Kind::Territory,
            Keyword::Stargaze(x) => d.kind != Kind::Territory && (1..=4).contains(x),
            Keyword::Adversity(b) | Keyword::Prosperity(b) | Keyword::Diplomacy(_, b) => {
                (unit && *b != Boost::default()) || (d.kind == Kind::Trick && !d.bonus.is_empty())
            }
        };
        if !ok {
            return Err((
                "keywords",
                format!(
                    "`{}` does not fit a {} here (see docs/duel.md, keyword table)",
                    k.name_zh(),
                    d.kind.zh()
                ),
            ));
        }
    }
    if !d.bonus.is_empty()
        && !d.has(|k| {
            matches!(
                k,
                Keyword::Adversity(_) | Keyword::Prosperity(_) | Keyword::Diplomacy(..)
            )
        })
    {
        return Err((
            "bonus",
            "`bonus` needs a 逆境, 盛世 or 外交 keyword to say when it applies".into(),
        ));
    }
    if d.kind == Kind::Trick && d.effect.is_empty() {
        return Err(("effect", "a trick needs an effect".into()));
    }
    if d.kind != Kind::Trick && !d.effect.is_empty() {
        return Err((
            "effect",
            "only tricks have `effect`; entities use `on_enter`".into(),
        ));
    }
    let all: Vec<&Step> = d.effect.iter().chain(&d.bonus).collect();
    let needs = all.iter().any(|s| s.needs_target());
    if needs && d.target == TargetSpec::None {
        return Err((
            "target",
            "a step acts on a target but the card names none".into(),
        ));
    }
    if !needs && d.target != TargetSpec::None {
        return Err(("target", "the card names a target no step uses".into()));
    }
    let cancel = all.iter().any(|s| matches!(s, Step::Cancel));
    if cancel != (d.target == TargetSpec::StackCard)
        || cancel != d.has(|k| matches!(k, Keyword::Cancel))
    {
        return Err((
            "effect",
            "`cancel` goes with target `stack-card` and the keyword 取消, and only with them"
                .into(),
        ));
    }
    for s in &all {
        let fits = match s {
            Step::Damage(_) => d.target.takes_unit(),
            Step::Buff { .. } | Step::Destroy | Step::Untap | Step::Move => {
                d.target.takes_unit() && d.target != TargetSpec::UnitOrPlayer
            }
            Step::Heal(_) => d.target.takes_unit(),
            _ => true,
        };
        if !fits {
            return Err((
                "effect",
                format!("step {s:?} does not fit target {:?}", d.target),
            ));
        }
    }
    if d.on_enter.iter().any(|s| {
        !matches!(
            s,
            Step::Damage(_) | Step::Draw(_) | Step::Gain(_) | Step::Drain(_)
        )
    }) {
        return Err((
            "on_enter",
            "on entering only `damage N` (to the opposite unit), draw, gain and drain".into(),
        ));
    }
    if !d.on_enter.is_empty() && matches!(d.kind, Kind::Trick | Kind::Territory) {
        return Err(("on_enter", "only entities have on_enter".into()));
    }
    Ok(())
}
