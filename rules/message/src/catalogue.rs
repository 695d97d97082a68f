//! The game deck, character cards and identity table as data, validated on load.
//!
//! Files are parsed from strings (the engine does no I/O); errors name the file, line and field.

use rules_core::data::{parse_toml, DataError, Lines};
use serde::{Deserialize, Serialize};
use toml::Spanned;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Red,
    Blue,
    Black,
}

/// How a card travels when sent as intelligence (the stamp in its top-right corner).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// 密电: face down, to the right, player by player.
    Secret,
    /// 直达: face down, straight to one chosen player.
    Direct,
    /// 文本: face up, to the right, player by player.
    Text,
}

/// The nine function-card kinds (seed: 各功能牌（9种）).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// 锁定
    Lock,
    /// 调虎离山
    Lure,
    /// 截获
    Intercept,
    /// 退回
    Return,
    /// 破译
    Decode,
    /// 试探 (assumed card, RULES-NOTES)
    Probe,
    /// 识破 (assumed card)
    Expose,
    /// 烧毁 (assumed card)
    Burn,
    /// 掉包 (assumed card)
    Swap,
}

/// When a function card may be played. Each kind supports a fixed set; the catalogue picks from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Window {
    /// Your own play phase, before you send.
    OwnPlay,
    /// While an intelligence is in transit, before the player it reached decides.
    Transit,
    /// When the intelligence reaches you and you decide.
    Decision,
    /// When your own intelligence comes back to you.
    Returned,
    /// In answer to a function card being used.
    Response,
}

impl Kind {
    pub const ALL: [Kind; 9] = [
        Kind::Lock,
        Kind::Lure,
        Kind::Intercept,
        Kind::Return,
        Kind::Decode,
        Kind::Probe,
        Kind::Expose,
        Kind::Burn,
        Kind::Swap,
    ];

    pub fn zh(self) -> &'static str {
        match self {
            Kind::Lock => "锁定",
            Kind::Lure => "调虎离山",
            Kind::Intercept => "截获",
            Kind::Return => "退回",
            Kind::Decode => "破译",
            Kind::Probe => "试探",
            Kind::Expose => "识破",
            Kind::Burn => "烧毁",
            Kind::Swap => "掉包",
        }
    }

    pub fn en(self) -> &'static str {
        match self {
            Kind::Lock => "Lock",
            Kind::Lure => "Lure Away",
            Kind::Intercept => "Intercept",
            Kind::Return => "Return",
            Kind::Decode => "Decode",
            Kind::Probe => "Probe",
            Kind::Expose => "See Through",
            Kind::Burn => "Burn",
            Kind::Swap => "Swap",
        }
    }

    /// Parses a Chinese or English name (as typed at the table).
    pub fn parse(s: &str) -> Option<Kind> {
        let s = s.trim();
        Kind::ALL.into_iter().find(|k| {
            k.zh() == s
                || k.en().eq_ignore_ascii_case(s)
                || format!("{k:?}").eq_ignore_ascii_case(s)
        })
    }

    /// The windows the engine can play this kind in; a catalogue may enable a subset.
    pub fn supported_windows(self) -> &'static [Window] {
        match self {
            Kind::Lock => &[Window::OwnPlay],
            Kind::Lure => &[Window::OwnPlay, Window::Transit],
            Kind::Intercept => &[Window::Transit],
            Kind::Return => &[Window::Decision],
            Kind::Decode => &[Window::Decision],
            Kind::Probe => &[Window::OwnPlay],
            Kind::Expose => &[Window::Response],
            Kind::Burn => &[Window::OwnPlay, Window::Transit],
            Kind::Swap => &[Window::Returned],
        }
    }
}

impl Method {
    pub fn zh(self) -> &'static str {
        match self {
            Method::Secret => "密电",
            Method::Direct => "直达",
            Method::Text => "文本",
        }
    }
    pub fn parse(s: &str) -> Option<Method> {
        match s.trim().to_ascii_lowercase().as_str() {
            "密电" | "secret" => Some(Method::Secret),
            "直达" | "direct" => Some(Method::Direct),
            "文本" | "text" => Some(Method::Text),
            _ => None,
        }
    }
}

impl Colour {
    pub fn zh(self) -> &'static str {
        match self {
            Colour::Red => "红",
            Colour::Blue => "蓝",
            Colour::Black => "黑",
        }
    }
}

/// What a probed player must do, by identity (the 试探 card prescribes it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProbeAnswer {
    /// Draw one card.
    Draw,
    /// Discard one card of their choice from hand.
    Discard,
    /// Say the printed line; no effect on the cards.
    Say,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProbeTable {
    pub lurker: ProbeAnswer,
    pub bureau: ProbeAnswer,
    pub neutral: ProbeAnswer,
}

/// One physical game card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Card {
    pub kind: Kind,
    pub colour: Colour,
    pub method: Method,
    /// Not in the seed: one of the 41 cards assumed by RULES-NOTES.md.
    pub assumed: bool,
    pub probe: Option<ProbeTable>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KindRules {
    pub kind: Kind,
    pub windows: Vec<Window>,
    pub assumed: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Deck {
    pub cards: Vec<Card>,
    pub kinds: Vec<KindRules>,
}

impl Deck {
    pub fn windows(&self, kind: Kind) -> &[Window] {
        self.kinds
            .iter()
            .find(|k| k.kind == kind)
            .map(|k| k.windows.as_slice())
            .unwrap_or(&[])
    }
    pub fn playable_in(&self, kind: Kind, w: Window) -> bool {
        self.windows(kind).contains(&w)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDeck {
    kind: Vec<Spanned<RawKind>>,
    card: Vec<Spanned<RawCard>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKind {
    kind: Kind,
    windows: Vec<Window>,
    #[serde(default)]
    assumed: bool,
    #[allow(dead_code)]
    #[serde(default)]
    note: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCard {
    kind: Kind,
    colour: Colour,
    method: Method,
    count: u32,
    #[serde(default)]
    assumed: bool,
    probe: Option<ProbeTable>,
}

/// The seed's card totals (游戏配件: 游戏牌81张; 情报种类: 红25 蓝25 黑31).
pub const DECK_SIZE: usize = 81;
pub const COLOUR_TOTALS: [(Colour, usize); 3] =
    [(Colour::Red, 25), (Colour::Blue, 25), (Colour::Black, 31)];

pub fn parse_deck(origin: &str, text: &str) -> Result<Deck, DataError> {
    let raw: RawDeck = parse_toml(origin, text)?;
    let lines = Lines::new(text);
    let mut kinds = Vec::new();
    for (i, k) in raw.kind.iter().enumerate() {
        let line = lines.of(k.span().start);
        let k = k.get_ref();
        if kinds.iter().any(|x: &KindRules| x.kind == k.kind) {
            return Err(
                DataError::new(origin, format!("{:?} is described twice", k.kind))
                    .at_line(line)
                    .with_field(format!("kind[{i}].kind")),
            );
        }
        for w in &k.windows {
            if !k.kind.supported_windows().contains(w) {
                return Err(DataError::new(
                    origin,
                    format!(
                        "{} ({:?}) cannot be played in window {:?}; supported: {:?}",
                        k.kind.zh(),
                        k.kind,
                        w,
                        k.kind.supported_windows()
                    ),
                )
                .at_line(line)
                .with_field(format!("kind[{i}].windows")));
            }
        }
        if k.windows.is_empty() {
            return Err(
                DataError::new(origin, "a card kind needs at least one window")
                    .at_line(line)
                    .with_field(format!("kind[{i}].windows")),
            );
        }
        kinds.push(KindRules {
            kind: k.kind,
            windows: k.windows.clone(),
            assumed: k.assumed,
        });
    }
    for kind in Kind::ALL {
        if !kinds.iter().any(|k| k.kind == kind) {
            return Err(DataError::new(
                origin,
                format!("no [[kind]] entry for {} ({kind:?})", kind.zh()),
            )
            .with_field("kind"));
        }
    }
    let mut cards = Vec::new();
    for (i, c) in raw.card.iter().enumerate() {
        let line = lines.of(c.span().start);
        let c = c.get_ref();
        let err = |field: &str, msg: String| {
            Err(DataError::new(origin, msg)
                .at_line(line)
                .with_field(format!("card[{i}].{field}")))
        };
        if c.count == 0 {
            return err("count", "count must be at least 1".into());
        }
        match (c.kind, &c.probe) {
            (Kind::Probe, None) => {
                return err(
                    "probe",
                    "a 试探 card must say what each identity answers (probe = {...})".into(),
                )
            }
            (k, Some(_)) if k != Kind::Probe => {
                return err(
                    "probe",
                    format!("only 试探 cards have a probe table, not {}", k.zh()),
                )
            }
            _ => {}
        }
        for _ in 0..c.count {
            cards.push(Card {
                kind: c.kind,
                colour: c.colour,
                method: c.method,
                assumed: c.assumed,
                probe: c.probe,
            });
        }
    }
    if cards.len() != DECK_SIZE {
        return Err(DataError::new(
            origin,
            format!(
                "the deck has {} cards; the seed's 游戏配件 gives 游戏牌81张",
                cards.len()
            ),
        )
        .with_field("card"));
    }
    for (colour, want) in COLOUR_TOTALS {
        let have = cards.iter().filter(|c| c.colour == colour).count();
        if have != want {
            return Err(DataError::new(
                origin,
                format!(
                    "{have} {colour:?} cards; the seed's 情报种类 gives {want} {}",
                    colour.zh()
                ),
            )
            .with_field("card"));
        }
    }
    Ok(Deck { cards, kinds })
}

/// A character skill, as data. Each variant is implemented by the engine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "snake_case", deny_unknown_fields)]
pub enum Skill {
    /// 抽牌阶段: draw `count` more cards.
    ExtraDraw { count: u8 },
    /// Cannot be targeted by 锁定.
    LockImmune,
    /// Cannot be targeted by 调虎离山.
    LureImmune,
    /// After receiving a black intelligence (and surviving), draw `count` cards.
    DrawOnBlack { count: u8 },
    /// When this character dies (not when it loses: seed 输掉游戏), the player whose turn it is draws
    /// `count` cards.
    DeathDraw { count: u8 },
}

/// A secret mission (机密任务), used when the player is 打酱油的.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "goal", rename_all = "snake_case", deny_unknown_fields)]
pub enum Mission {
    /// Have at least this many intelligences of each colour in front of you.
    Collect {
        #[serde(default)]
        red: u8,
        #[serde(default)]
        blue: u8,
        #[serde(default)]
        black: u8,
    },
    /// Have at least `count` intelligences in front of you.
    Total { count: u8 },
    /// At least `count` other players have died.
    Deaths { count: u8 },
    /// Hold at least `count` cards after your draw phase.
    HandSize { count: u8 },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Character {
    pub id: String,
    pub name_zh: String,
    pub name_en: String,
    /// Made up by the project (we have no rights to the printed characters).
    pub demo: bool,
    /// A 潜伏 character, kept face down (seed 角色挑选).
    #[serde(default)]
    pub hidden: bool,
    #[serde(default)]
    pub skills: Vec<Skill>,
    pub mission: Mission,
    pub mission_zh: String,
    pub mission_en: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCharacters {
    character: Vec<Spanned<Character>>,
}

pub fn parse_characters(origin: &str, text: &str) -> Result<Vec<Character>, DataError> {
    let raw: RawCharacters = parse_toml(origin, text)?;
    let lines = Lines::new(text);
    let mut out: Vec<Character> = Vec::new();
    for (i, c) in raw.character.into_iter().enumerate() {
        let line = lines.of(c.span().start);
        let c = c.into_inner();
        let err = |field: &str, msg: String| {
            Err(DataError::new(origin, msg)
                .at_line(line)
                .with_field(format!("character[{i}].{field}")))
        };
        if out.iter().any(|o| o.id == c.id) {
            return err("id", format!("id `{}` is used twice", c.id));
        }
        for s in &c.skills {
            let n = match s {
                Skill::ExtraDraw { count }
                | Skill::DrawOnBlack { count }
                | Skill::DeathDraw { count } => *count,
                _ => 1,
            };
            if n == 0 {
                return err("skills", "a skill count must be at least 1".into());
            }
        }
        match c.mission {
            Mission::Collect { black, .. } if black >= 3 => {
                return err(
                    "mission",
                    "a mission needing 3 black can never be met: 3 black intelligences kill (死亡)"
                        .into(),
                )
            }
            Mission::Collect {
                red: 0,
                blue: 0,
                black: 0,
            } => {
                return err(
                    "mission",
                    "a collect mission needs at least one card".into(),
                )
            }
            Mission::Total { count: 0 }
            | Mission::Deaths { count: 0 }
            | Mission::HandSize { count: 0 } => {
                return err("mission", "a mission count must be at least 1".into())
            }
            _ => {}
        }
        out.push(c);
    }
    if out.is_empty() {
        return Err(DataError::new(origin, "no characters").with_field("character"));
    }
    Ok(out)
}

/// 潜伏战线 / 军情局 / 打酱油的 counts for one player count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdentityCounts {
    pub lurker: u8,
    pub bureau: u8,
    pub neutral: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IdentityRow {
    pub players: usize,
    pub standard: IdentityCounts,
    pub optional: Option<IdentityCounts>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawIdentities {
    row: Vec<Spanned<RawRow>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRow {
    players: usize,
    standard: [u8; 3],
    optional: Option<[u8; 3]>,
}

pub fn parse_identities(origin: &str, text: &str) -> Result<Vec<IdentityRow>, DataError> {
    let raw: RawIdentities = parse_toml(origin, text)?;
    let lines = Lines::new(text);
    let mut out: Vec<IdentityRow> = Vec::new();
    for (i, r) in raw.row.into_iter().enumerate() {
        let line = lines.of(r.span().start);
        let r = r.into_inner();
        for (field, set) in [("standard", Some(r.standard)), ("optional", r.optional)] {
            if let Some(s) = set {
                let sum: usize = s.iter().map(|&x| x as usize).sum();
                if sum != r.players {
                    return Err(DataError::new(
                        origin,
                        format!("{field} gives {sum} identities for {} players", r.players),
                    )
                    .at_line(line)
                    .with_field(format!("row[{i}].{field}")));
                }
            }
        }
        if out.iter().any(|o| o.players == r.players) {
            return Err(
                DataError::new(origin, format!("{} players listed twice", r.players))
                    .at_line(line)
                    .with_field(format!("row[{i}].players")),
            );
        }
        let c = |s: [u8; 3]| IdentityCounts {
            lurker: s[0],
            bureau: s[1],
            neutral: s[2],
        };
        out.push(IdentityRow {
            players: r.players,
            standard: c(r.standard),
            optional: r.optional.map(c),
        });
    }
    Ok(out)
}

/// Everything the engine needs to know about the printed components.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Catalogue {
    pub deck: Deck,
    pub characters: Vec<Character>,
    pub identities: Vec<IdentityRow>,
}

pub const DECK_TOML: &str = include_str!("../../../models/catalogues/message/deck.toml");
pub const CHARACTERS_TOML: &str =
    include_str!("../../../models/catalogues/message/characters.toml");
pub const IDENTITIES_TOML: &str =
    include_str!("../../../models/catalogues/message/identities.toml");
pub const PROFILE_TOML: &str = include_str!("../../../models/catalogues/message/profile.toml");

impl Catalogue {
    pub fn parse(
        deck: (&str, &str),
        characters: (&str, &str),
        identities: (&str, &str),
    ) -> Result<Self, DataError> {
        Ok(Catalogue {
            deck: parse_deck(deck.0, deck.1)?,
            characters: parse_characters(characters.0, characters.1)?,
            identities: parse_identities(identities.0, identities.1)?,
        })
    }

    /// The shipped catalogue (built into the binary).
    pub fn shipped() -> Result<Self, DataError> {
        Self::parse(
            ("models/catalogues/message/deck.toml", DECK_TOML),
            ("models/catalogues/message/characters.toml", CHARACTERS_TOML),
            ("models/catalogues/message/identities.toml", IDENTITIES_TOML),
        )
    }
}
