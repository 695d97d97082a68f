//! Deck files and the three formats' construction rules (seed 「初陣」 and 「統帥賽制」).
//!
//! ```toml
//! name = "魏 demo"
//! format = "constructed"        # constructed | limited | commander
//! # commander = "wei-04"        # commander format only
//! [main]
//! "wei-land" = 18               # card id or printed name = copies
//! [sideboard]
//! ```

use crate::catalogue::{Catalogue, Kind};
use crate::keyword::Faction;
use crate::profile::Profile;
use rules_core::data::{parse_toml, DataError, Lines};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use toml::Spanned;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// 标准构筑: 50+ main, sideboard 0 or 10, at most 3 of a name except basic territories.
    Constructed,
    /// 限制赛 (现开/轮抓): 35+ main from the player's pool plus any basic territories.
    Limited,
    /// 统帅赛制: a commander, 80+ cards, one of each name except territories.
    Commander,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDeck {
    #[serde(default)]
    name: String,
    format: Spanned<Format>,
    commander: Option<Spanned<String>>,
    #[serde(default)]
    main: BTreeMap<String, Spanned<u32>>,
    #[serde(default)]
    sideboard: BTreeMap<String, Spanned<u32>>,
}

/// A deck that passed its format's rules: main deck as catalogue indices, one entry per copy.
#[derive(Clone, Debug, PartialEq)]
pub struct Deck {
    pub name: String,
    pub format: Format,
    pub commander: Option<usize>,
    pub main: Vec<usize>,
    pub sideboard: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))]
pub struct DeckErrors(pub Vec<DataError>);

/// Parses and validates a deck. `pool` (limited only): the cards opened, as catalogue index → copies.
pub fn parse_deck(
    origin: &str,
    text: &str,
    catalogue: &Catalogue,
    profile: &Profile,
    pool: Option<&BTreeMap<usize, u32>>,
) -> Result<Deck, DeckErrors> {
    let raw: RawDeck = parse_toml(origin, text).map_err(|e| DeckErrors(vec![e]))?;
    let lines = Lines::new(text);
    let mut errors = Vec::new();
    let mut resolve =
        |section: &str, list: &BTreeMap<String, Spanned<u32>>| -> Vec<(usize, u32, usize)> {
            let mut out = Vec::new();
            for (key, count) in list {
                let line = lines.of(count.span().start);
                match catalogue.find(key) {
                    Some(i) => out.push((i, *count.get_ref(), line)),
                    None => errors.push(
                        DataError::new(
                            origin,
                            format!("unknown card `{key}`: not in the catalogue"),
                        )
                        .at_line(line)
                        .with_field(format!("{section}.{key}")),
                    ),
                }
            }
            out
        };
    let main = resolve("main", &raw.main);
    let side = resolve("sideboard", &raw.sideboard);
    let format = *raw.format.get_ref();
    let total = |l: &[(usize, u32, usize)]| l.iter().map(|e| e.1).sum::<u32>();
    let (n_main, n_side) = (total(&main), total(&side));
    let deck_err = |msg: String| DataError::new(origin, msg).with_field("main");
    match format {
        Format::Constructed => {
            if n_main < 50 {
                errors.push(deck_err(format!(
                    "初陣: a constructed main deck needs 50 or more cards, this one has {n_main}"
                )));
            }
            if n_side != 0 && n_side != 10 {
                errors.push(
                    deck_err(format!(
                        "初陣: the sideboard must have 0 or 10 cards, this one has {n_side}"
                    ))
                    .with_field("sideboard"),
                );
            }
        }
        Format::Limited => {
            if n_main < 35 {
                errors.push(deck_err(format!(
                    "限制赛: a limited main deck needs 35 or more cards, this one has {n_main}"
                )));
            }
        }
        Format::Commander => {
            if n_main < 80 {
                errors.push(deck_err(format!(
                    "统帅赛制: a commander deck needs 80 or more cards, this one has {n_main}"
                )));
            }
        }
    }
    // Copies are counted by printed name over main and sideboard together.
    let mut copies: BTreeMap<usize, (u32, usize)> = BTreeMap::new();
    for &(i, n, line) in main.iter().chain(&side) {
        let e = copies.entry(i).or_insert((0, line));
        e.0 += n;
    }
    for (&i, &(n, line)) in &copies {
        let card = catalogue.get(i);
        let limit = match format {
            Format::Constructed if !card.basic => Some(3),
            Format::Commander if card.kind != Kind::Territory => Some(1),
            _ => None,
        };
        if let Some(limit) = limit.filter(|l| n > *l) {
            let rule = if format == Format::Commander {
                "统帅赛制: one copy of each name except territories"
            } else {
                "初陣: at most 3 copies of a name except basic territories"
            };
            errors.push(
                DataError::new(
                    origin,
                    format!(
                        "{} has {n} copies, the limit is {limit} ({rule})",
                        card.label()
                    ),
                )
                .at_line(line)
                .with_field(card.id.clone()),
            );
        }
        if let (Format::Limited, Some(pool)) = (format, pool) {
            let have = pool.get(&i).copied().unwrap_or(0);
            if !card.basic && n > have {
                errors.push(
                    DataError::new(origin, format!("{} ×{n} but the pool has {have} (限制赛: cards other than basic territories come from your packs)", card.label()))
                        .at_line(line)
                        .with_field(card.id.clone()),
                );
            }
        }
    }
    let mut commander = None;
    match (format, &raw.commander) {
        (Format::Commander, None) => errors.push(
            DataError::new(origin, "统帅赛制: name a `commander` card").with_field("commander"),
        ),
        (Format::Commander, Some(c)) => {
            let line = lines.of(c.span().start);
            match catalogue.find(c.get_ref()) {
                None => errors.push(
                    DataError::new(origin, format!("unknown commander card `{}`", c.get_ref()))
                        .at_line(line)
                        .with_field("commander"),
                ),
                Some(ci) => {
                    commander = Some(ci);
                    let cdef = catalogue.get(ci);
                    if cdef.kind == Kind::Territory {
                        errors.push(
                            DataError::new(
                                origin,
                                format!(
                                    "{} is a territory and cannot be the commander",
                                    cdef.label()
                                ),
                            )
                            .at_line(line)
                            .with_field("commander"),
                        );
                    }
                    if !main.iter().any(|e| e.0 == ci) {
                        errors.push(
                            DataError::new(
                                origin,
                                format!("the commander {} must be in the main deck", cdef.label()),
                            )
                            .at_line(line)
                            .with_field("commander"),
                        );
                    }
                    if profile.commander_same_faction {
                        for &(i, _, l) in &main {
                            let d = catalogue.get(i);
                            let f = if d.kind == Kind::Territory {
                                d.support.unwrap_or(Faction::Neutral)
                            } else {
                                d.faction
                            };
                            if f != Faction::Neutral && f != cdef.faction {
                                errors.push(
                                    DataError::new(origin, format!("{} is {} but the commander is {} (profile option duel.commander_same_faction)", d.label(), f.zh(), cdef.faction.zh()))
                                        .at_line(l)
                                        .with_field(d.id.clone()),
                                );
                            }
                        }
                    }
                }
            }
        }
        (_, Some(c)) => errors.push(
            DataError::new(origin, "`commander` is only for the commander format")
                .at_line(lines.of(c.span().start))
                .with_field("commander"),
        ),
        _ => {}
    }
    if !errors.is_empty() {
        return Err(DeckErrors(errors));
    }
    let expand = |l: &[(usize, u32, usize)]| {
        l.iter()
            .flat_map(|&(i, n, _)| std::iter::repeat_n(i, n as usize))
            .collect()
    };
    Ok(Deck {
        name: raw.name,
        format,
        commander,
        main: expand(&main),
        sideboard: expand(&side),
    })
}

/// A limited pool file: `[pool]` with card id or name = copies opened.
pub fn parse_pool(
    origin: &str,
    text: &str,
    catalogue: &Catalogue,
) -> Result<BTreeMap<usize, u32>, DeckErrors> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct RawPool {
        pool: BTreeMap<String, Spanned<u32>>,
    }
    let raw: RawPool = parse_toml(origin, text).map_err(|e| DeckErrors(vec![e]))?;
    let lines = Lines::new(text);
    let mut out = BTreeMap::new();
    let mut errors = Vec::new();
    for (key, n) in raw.pool {
        match catalogue.find(&key) {
            Some(i) => *out.entry(i).or_insert(0) += *n.get_ref(),
            None => errors.push(
                DataError::new(
                    origin,
                    format!("unknown card `{key}`: not in the catalogue"),
                )
                .at_line(lines.of(n.span().start))
                .with_field(format!("pool.{key}")),
            ),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(DeckErrors(errors))
    }
}
