//! Deck files (digital cards or a physical deck of N numbered cards) and the draw pile with its
//! seeded ChaCha8 shuffle.

use crate::card::{ActionCard, ActionIcon};
use crate::reader::{RawTable, TableReader};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rules_core::data::{parse_toml, DataError, Lines};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// Our demo deck (NOT the published Fields of Fire deck).
pub const DEMO_DECK_TOML: &str = include_str!("../../../models/catalogues/fof/demo-deck.toml");

#[derive(Clone, Debug, PartialEq)]
pub enum DeckKind {
    /// Arbiter knows every card's values.
    Digital(Vec<ActionCard>),
    /// The player's own deck of N numbered cards: Arbiter draws numbers, the player reads the card.
    Physical(u16),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Deck {
    pub name: String,
    pub note: String,
    pub kind: DeckKind,
}

impl Deck {
    pub fn physical(cards: u16) -> Deck {
        Deck {
            name: format!("physical deck of {cards} cards"),
            note: "the player reads each drawn card from their own deck".into(),
            kind: DeckKind::Physical(cards),
        }
    }

    pub fn demo() -> Result<Deck, DataError> {
        Deck::parse("models/catalogues/fof/demo-deck.toml", DEMO_DECK_TOML)
    }

    pub fn len(&self) -> u16 {
        match &self.kind {
            DeckKind::Digital(cards) => cards.len() as u16,
            DeckKind::Physical(n) => *n,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The card with this number, when Arbiter knows the cards.
    pub fn card(&self, number: u16) -> Option<&ActionCard> {
        match &self.kind {
            DeckKind::Digital(cards) => cards.get(usize::from(number).checked_sub(1)?),
            DeckKind::Physical(_) => None,
        }
    }

    /// Parses a deck file. Cards must be numbered 1..=N with no gaps, so a drawn number names one card.
    pub fn parse(origin: &str, text: &str) -> Result<Deck, DataError> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct RawDeck {
            deck: Spanned<RawTable>,
            #[serde(default)]
            card: Vec<Spanned<RawTable>>,
        }
        let raw: RawDeck = parse_toml(origin, text)?;
        let lines = Lines::new(text);
        let head = TableReader::new(origin, &lines, "deck", &raw.deck);
        let name: String = head.req("name")?;
        let note: String = head.or("note", String::new())?;
        let physical: Option<u16> = head.opt("physical_cards")?;
        head.finish()?;
        if let Some(n) = physical {
            if n == 0 {
                return Err(head.error("physical_cards", "a deck needs at least one card"));
            }
            if let Some(first) = raw.card.first() {
                let r = TableReader::new(origin, &lines, "card[0]", first);
                return Err(DataError::new(
                    origin,
                    "a physical deck lists no [[card]]: the player reads the cards in hand",
                )
                .at_line(r.line()));
            }
            return Ok(Deck {
                name,
                note,
                kind: DeckKind::Physical(n),
            });
        }
        if raw.card.is_empty() {
            return Err(
                DataError::new(origin, "no [[card]] entries (and no deck.physical_cards)")
                    .with_field("card"),
            );
        }
        let mut cards = Vec::with_capacity(raw.card.len());
        let mut seen: BTreeMap<u16, usize> = BTreeMap::new();
        for (i, table) in raw.card.iter().enumerate() {
            let r = TableReader::new(origin, &lines, format!("card[{i}]"), table);
            let card = read_card(&r)?;
            if let Some(line) = seen.insert(card.number, r.line_of_key("number")) {
                return Err(r.error(
                    "number",
                    format!("card number {} already used at line {line}", card.number),
                ));
            }
            cards.push(card);
        }
        cards.sort_by_key(|c| c.number);
        for (i, c) in cards.iter().enumerate() {
            if usize::from(c.number) != i + 1 {
                return Err(DataError::new(
                    origin,
                    format!(
                        "cards must be numbered 1..={} without gaps; {} is missing",
                        cards.len(),
                        i + 1
                    ),
                )
                .with_field("card.number"));
            }
        }
        Ok(Deck {
            name,
            note,
            kind: DeckKind::Digital(cards),
        })
    }
}

fn read_card(r: &TableReader) -> Result<ActionCard, DataError> {
    let card = ActionCard {
        number: r.req("number")?,
        r: r.req("r")?,
        hq_radio: r.or("hq_radio", false)?,
        command: r.req("command")?,
        initiative: r.req("initiative")?,
        effective_fire: r.req("effective_fire")?,
        hit: r.req("hit")?,
        contact: r.req("contact")?,
        icons: r.or("icons", Vec::new())?,
        at_modifier: r.or("at_modifier", 0)?,
    };
    r.finish()?;
    if card.number == 0 {
        return Err(r.error("number", "card numbers start at 1"));
    }
    if !(1..=10).contains(&card.r) {
        return Err(r.error("r", format!("R# must be 1..=10, found {}", card.r)));
    }
    if card.command > 9 || card.initiative > 9 {
        let key = if card.command > 9 {
            "command"
        } else {
            "initiative"
        };
        return Err(r.error(key, "command numbers are 0..=9"));
    }
    let has_at_icon = card.icons.contains(&ActionIcon::AtModifier);
    if has_at_icon != (card.at_modifier != 0) {
        return Err(r.error(
            "at_modifier",
            "at_modifier must be non-zero exactly when the `at_modifier` icon is listed",
        ));
    }
    let mut icons = card.icons.clone();
    icons.sort();
    icons.dedup();
    if icons.len() != card.icons.len() {
        return Err(r.error("icons", "an icon is listed twice"));
    }
    Ok(card)
}

/// The face-down draw pile and the discard pile, shuffled by a seeded ChaCha8 generator. The
/// generator's stream continues through reshuffles, so every reshuffle is a fresh shuffle and the whole
/// game is fixed by the seed.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawPile {
    rng: ChaCha8Rng,
    /// Top of the pile is the last element.
    pub draw: Vec<u16>,
    pub discard: Vec<u16>,
    pub shuffles: u32,
}

impl DrawPile {
    pub fn new(seed: u64, cards: u16) -> DrawPile {
        let mut pile = DrawPile {
            rng: ChaCha8Rng::seed_from_u64(seed),
            draw: Vec::new(),
            discard: (1..=cards).collect(),
            shuffles: 0,
        };
        pile.reshuffle();
        pile
    }

    /// Puts the discards back and shuffles them (Fisher–Yates via `rand`).
    pub fn reshuffle(&mut self) {
        self.draw.append(&mut self.discard);
        self.draw.sort_unstable(); // the shuffle must not depend on the discard order
        self.draw.shuffle(&mut self.rng);
        self.shuffles += 1;
    }

    /// Draws the top card onto the discard pile. `None` when the draw pile is empty.
    pub fn draw(&mut self) -> Option<u16> {
        let card = self.draw.pop()?;
        self.discard.push(card);
        Some(card)
    }
}

/// Draw order of `count` cards from a fresh deck shuffled with `seed`; `arbiter fof draw --seed` prints
/// these, and the fairness tests count them. Draws past the end reshuffle the discards.
pub fn draw_sequence(seed: u64, cards: u16, count: usize) -> Vec<u16> {
    let mut pile = DrawPile::new(seed, cards);
    (0..count)
        .filter_map(|_| {
            if pile.draw.is_empty() {
                pile.reshuffle();
            }
            pile.draw()
        })
        .collect()
}
