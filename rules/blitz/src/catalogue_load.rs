//! Reading a catalogue TOML into [`CardDef`]s with errors that name the file, the line and the field.
//!
//! Why not plain serde on `CardDef`: its card type is a flattened, internally tagged enum, and serde
//! buffers such tables, so toml can only point at the `[[card]]` header and often cannot name the field.
//! Here every key of a card is first read with its span, then each field is decoded on its own, so an
//! error points at the line of the offending key.

use super::{validate_card, CardDef, CardKind, CatalogueMeta};
use rules_core::data::{line_of, parse_toml, DataError, Lines};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::collections::HashMap;
use toml::{Spanned, Value};

type Field = Option<Spanned<Value>>;

#[derive(Deserialize)]
struct RawCatalogue {
    meta: CatalogueMeta,
    card: Vec<Spanned<RawCard>>,
}

/// Only used to find the line of `meta.game` when it is wrong.
#[derive(Deserialize)]
struct MetaGameLine {
    meta: GameOnly,
}
#[derive(Deserialize)]
struct GameOnly {
    game: Spanned<String>,
}

/// Every key a card may have, kept raw with its position. Unknown keys are refused, so a typo such as
/// `atack` is reported where it is written rather than as a missing field.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCard {
    id: Field,
    faction: Field,
    name_zh: Field,
    name_en: Field,
    #[serde(rename = "type")]
    card_type: Field,
    kind: Field,
    attack: Field,
    defence: Field,
    supply: Field,
    range: Field,
    keywords: Field,
    level: Field,
    supply_range: Field,
    effect: Field,
    text_zh: Field,
    text_en: Field,
}

impl RawCard {
    fn fields(&self) -> [(&'static str, &Field); 16] {
        [
            ("id", &self.id),
            ("faction", &self.faction),
            ("name_zh", &self.name_zh),
            ("name_en", &self.name_en),
            ("type", &self.card_type),
            ("kind", &self.kind),
            ("attack", &self.attack),
            ("defence", &self.defence),
            ("supply", &self.supply),
            ("range", &self.range),
            ("keywords", &self.keywords),
            ("level", &self.level),
            ("supply_range", &self.supply_range),
            ("effect", &self.effect),
            ("text_zh", &self.text_zh),
            ("text_en", &self.text_en),
        ]
    }
}

/// The `type` key: which fields a card of that type may carry besides the common ones.
#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum CardType {
    Unit,
    Resource,
    Facility,
    Skill,
    Frontline,
}

impl CardType {
    fn name(self) -> &'static str {
        match self {
            CardType::Unit => "unit",
            CardType::Resource => "resource",
            CardType::Facility => "facility",
            CardType::Skill => "skill",
            CardType::Frontline => "frontline",
        }
    }

    fn own_fields(self) -> &'static [&'static str] {
        match self {
            CardType::Unit => &["kind", "attack", "defence", "supply", "range", "keywords"],
            CardType::Resource => &["level", "defence", "supply_range"],
            CardType::Facility => &["defence", "effect"],
            CardType::Skill => &["effect"],
            CardType::Frontline => &[],
        }
    }
}

const COMMON_FIELDS: [&str; 7] = [
    "id", "faction", "name_zh", "name_en", "type", "text_zh", "text_en",
];

/// Parses and validates the cards of a catalogue; `origin` names the file in errors.
pub(super) fn parse(origin: &str, text: &str) -> Result<(CatalogueMeta, Vec<CardDef>), DataError> {
    let raw: RawCatalogue = parse_toml(origin, text)?;
    if raw.meta.game != "blitz" {
        let mut err = DataError::new(
            origin,
            format!("game is {:?}, expected \"blitz\"", raw.meta.game),
        )
        .with_field("meta.game");
        if let Ok(m) = toml::from_str::<MetaGameLine>(text) {
            err = err.at_line(line_of(text, m.meta.game.span().start));
        }
        return Err(err);
    }
    let lines = Lines::new(text);
    let mut lines_by_id: HashMap<String, usize> = HashMap::new();
    let mut cards = Vec::with_capacity(raw.card.len());
    for (i, spanned) in raw.card.into_iter().enumerate() {
        let reader = CardReader {
            origin,
            lines: &lines,
            card_line: lines.of(spanned.span().start),
            position: i,
            raw: spanned.into_inner(),
        };
        let card = reader.read()?;
        let id_line = reader.line_of_field("id");
        if let Some(first) = lines_by_id.insert(card.id.clone(), id_line) {
            return Err(reader.error(
                "id",
                format!(
                    "duplicate card id {:?} (first used on line {first})",
                    card.id
                ),
            ));
        }
        validate_card(&card).map_err(|(field, msg)| reader.error(field, msg))?;
        cards.push(card);
    }
    Ok((raw.meta, cards))
}

/// Decodes one raw card, field by field.
struct CardReader<'a> {
    origin: &'a str,
    lines: &'a Lines,
    /// Line of the card's table (its `[[card]]` header or first key).
    card_line: usize,
    position: usize,
    raw: RawCard,
}

impl CardReader<'_> {
    fn field(&self, name: &str) -> &Field {
        self.raw
            .fields()
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, f)| f)
            .unwrap_or(&None)
    }

    /// Line of a field's value, or of the card when the field is absent.
    fn line_of_field(&self, name: &str) -> usize {
        match self.field(name) {
            Some(v) => self.lines.of(v.span().start),
            None => self.card_line,
        }
    }

    /// Cards are named by id in errors; a card without a readable id by its position.
    fn label(&self) -> String {
        match self.field("id").as_ref().map(|v| v.get_ref()) {
            Some(Value::String(id)) if !id.trim().is_empty() => id.clone(),
            _ => format!("card[{}]", self.position),
        }
    }

    fn error(&self, field: &str, message: impl Into<String>) -> DataError {
        DataError::new(self.origin, message)
            .at_line(self.line_of_field(field))
            .with_field(format!("{}.{field}", self.label()))
    }

    fn optional<T: DeserializeOwned>(&self, name: &str) -> Result<Option<T>, DataError> {
        match self.field(name) {
            None => Ok(None),
            Some(v) => v
                .get_ref()
                .clone()
                .try_into()
                .map(Some)
                .map_err(|e: toml::de::Error| self.error(name, e.message().to_string())),
        }
    }

    fn required<T: DeserializeOwned>(&self, name: &str) -> Result<T, DataError> {
        self.optional(name)?
            .ok_or_else(|| self.error(name, format!("missing field `{name}`")))
    }

    fn read(&self) -> Result<CardDef, DataError> {
        let card_type: CardType = self.required("type")?;
        for (name, value) in self.raw.fields() {
            let allowed = COMMON_FIELDS.contains(&name) || card_type.own_fields().contains(&name);
            if value.is_some() && !allowed {
                return Err(self.error(
                    name,
                    format!(
                        "`{name}` is not a field of a {} card (it takes {})",
                        card_type.name(),
                        card_type.own_fields().join(", ")
                    ),
                ));
            }
        }
        let kind = match card_type {
            CardType::Unit => CardKind::Unit {
                kind: self.required("kind")?,
                attack: self.required("attack")?,
                defence: self.required("defence")?,
                supply: self.required("supply")?,
                range: self.required("range")?,
                keywords: self.optional("keywords")?.unwrap_or_default(),
            },
            CardType::Resource => CardKind::Resource {
                level: self.required("level")?,
                defence: self.required("defence")?,
                supply_range: self.optional("supply_range")?,
            },
            CardType::Facility => CardKind::Facility {
                defence: self.required("defence")?,
                effect: self.required("effect")?,
            },
            CardType::Skill => CardKind::Skill {
                effect: self.required("effect")?,
            },
            CardType::Frontline => CardKind::Frontline,
        };
        Ok(CardDef {
            id: self.required("id")?,
            faction: self.optional("faction")?,
            name_zh: self.required("name_zh")?,
            name_en: self.required("name_en")?,
            kind,
            text_zh: self.optional("text_zh")?.unwrap_or_default(),
            text_en: self.optional("text_en")?.unwrap_or_default(),
        })
    }
}
