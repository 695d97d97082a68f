//! Tests of the catalogue: the shipped demo deck, and every kind of bad entry a player may write.

use super::*;
use std::collections::{BTreeSet, HashSet};

const ORIGIN: &str = "my-cards.toml";
const HEAD: &str = "[meta]\ngame = \"blitz\"\ntitle = \"test\"\ndemo = false\n\n";

/// A well-formed unit; tests break one thing in it.
const UNIT: &str = r#"[[card]]
id = "us-u01"
faction = "us"
name_zh = "步枪排"
name_en = "Rifle platoon"
type = "unit"
kind = "infantry"
attack = 2
defence = 3
supply = 1
range = [[-1, 0], [1, 0], [0, 1]]
"#;

const FRONT: &str = r#"[[card]]
id = "front-1"
name_zh = "前线"
name_en = "Front line"
type = "frontline"
"#;

fn load(cards: &str) -> (String, Result<Catalogue, DataError>) {
    let text = format!("{HEAD}{cards}");
    let result = Catalogue::from_toml(ORIGIN, &text);
    (text, result)
}

/// 1-based line of the `nth` (0-based) line of `text` that starts with `prefix`.
fn line_starting(text: &str, prefix: &str, nth: usize) -> usize {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with(prefix))
        .nth(nth)
        .map(|(i, _)| i + 1)
        .unwrap_or_else(|| panic!("no line starting with {prefix:?} in test text"))
}

/// Loads `cards`, expects an error at the line starting with `line_prefix` and the given field.
fn assert_error(cards: &str, line_prefix: &str, nth: usize, field: &str) -> DataError {
    let (text, result) = load(cards);
    let err = result.expect_err("this catalogue must be refused");
    assert_eq!(err.origin, ORIGIN, "{err}");
    assert_eq!(
        err.line,
        Some(line_starting(&text, line_prefix, nth)),
        "{err}"
    );
    assert_eq!(err.field.as_deref(), Some(field), "{err}");
    assert!(err.to_string().starts_with("my-cards.toml:"), "{err}");
    err
}

// ── The shipped demo deck ────────────────────────────────────────────────────────────────────────

fn demo() -> Catalogue {
    Catalogue::from_toml(DEMO_ORIGIN, DEMO_TOML).unwrap_or_else(|e| panic!("demo refused: {e}"))
}

#[test]
fn demo_loads_and_has_the_full_set_of_game_components() {
    let cat = demo();
    assert!(cat.meta.demo, "the shipped deck must say it is a demo");
    assert_eq!(cat.cards.len(), 161);
    cat.check_composition()
        .unwrap_or_else(|e| panic!("composition: {e}"));
}

#[test]
fn demo_every_faction_has_24_units_10_resources_3_facilities_2_skills() {
    let cat = demo();
    for faction in Faction::ALL {
        let cards: Vec<&CardDef> = cat.faction_cards(faction).map(|(_, c)| c).collect();
        let of = |pred: fn(&CardKind) -> bool| cards.iter().filter(|c| pred(&c.kind)).count();
        assert_eq!(
            of(|k| matches!(k, CardKind::Unit { .. })),
            24,
            "{faction:?}"
        );
        assert_eq!(
            of(|k| matches!(k, CardKind::Resource { .. })),
            10,
            "{faction:?}"
        );
        assert_eq!(
            of(|k| matches!(k, CardKind::Facility { .. })),
            3,
            "{faction:?}"
        );
        assert_eq!(
            of(|k| matches!(k, CardKind::Skill { .. })),
            2,
            "{faction:?}"
        );
        assert_eq!(cards.len(), 39, "{faction:?}");
    }
    let fronts = cat
        .cards
        .iter()
        .filter(|c| matches!(c.kind, CardKind::Frontline))
        .count();
    assert_eq!(fronts, 5);
}

#[test]
fn demo_ids_follow_faction_type_number_convention() {
    let cat = demo();
    let mut expected = BTreeSet::new();
    for f in Faction::ALL {
        for (letter, n) in [("u", 24), ("r", 10), ("f", 3), ("s", 2)] {
            for i in 1..=n {
                expected.insert(format!("{}-{letter}{i:02}", f.key()));
            }
        }
    }
    for i in 1..=5 {
        expected.insert(format!("front-{i}"));
    }
    let ids: BTreeSet<String> = cat.cards.iter().map(|c| c.id.clone()).collect();
    assert_eq!(ids, expected);
    for card in &cat.cards {
        let letter = &card.kind.type_name()[..1];
        if let Some(f) = card.faction {
            assert!(
                card.id.starts_with(&format!("{}-{letter}", f.key())),
                "{} is a {} {} card",
                card.id,
                f.key(),
                card.kind.type_name()
            );
        }
    }
}

#[test]
fn demo_factions_are_balanced_in_attack_plus_defence() {
    let cat = demo();
    let totals: Vec<u32> = Faction::ALL
        .iter()
        .map(|&f| {
            cat.faction_cards(f)
                .filter_map(|(_, c)| match c.kind {
                    CardKind::Unit {
                        attack, defence, ..
                    } => Some(u32::from(attack) + u32::from(defence)),
                    _ => None,
                })
                .sum()
        })
        .collect();
    let (min, max) = (totals.iter().min().unwrap(), totals.iter().max().unwrap());
    // Within 3% of each other: the factions differ in how, not in how much.
    assert!(
        max - min <= max * 3 / 100,
        "attack+defence per faction: {totals:?}"
    );
}

#[test]
fn demo_factions_differ_in_shape() {
    let cat = demo();
    let shapes: HashSet<Vec<usize>> = Faction::ALL
        .iter()
        .map(|&f| {
            [
                UnitKind::Infantry,
                UnitKind::Engineer,
                UnitKind::Recon,
                UnitKind::Vehicle,
                UnitKind::Artillery,
                UnitKind::AntiTank,
            ]
            .iter()
            .map(|want| {
                cat.faction_cards(f)
                    .filter(|(_, c)| matches!(&c.kind, CardKind::Unit { kind, .. } if kind == want))
                    .count()
            })
            .collect()
        })
        .collect();
    assert!(shapes.len() >= 3, "factions should not share one unit mix");
}

#[test]
fn demo_uses_every_keyword_and_each_faction_has_mine_obstacle_and_bunker() {
    let cat = demo();
    for k in [
        Keyword::Engineer,
        Keyword::Fast,
        Keyword::HoldsGround,
        Keyword::SelfSupplied,
        Keyword::MineClearer,
    ] {
        assert!(cat.cards.iter().any(|c| c.has_keyword(k)), "{k:?} unused");
    }
    let mut skill_pairs = HashSet::new();
    for f in Faction::ALL {
        let effects: Vec<&FacilityEffect> = cat
            .faction_cards(f)
            .filter_map(|(_, c)| match &c.kind {
                CardKind::Facility { effect, .. } => Some(effect),
                _ => None,
            })
            .collect();
        assert!(effects.contains(&&FacilityEffect::Mine), "{f:?}");
        assert!(effects.contains(&&FacilityEffect::AntiTank), "{f:?}");
        assert!(
            effects
                .iter()
                .any(|e| matches!(e, FacilityEffect::Bunker { bonus: 1 | 2 })),
            "{f:?}"
        );
        let skills: Vec<String> = cat
            .faction_cards(f)
            .filter_map(|(_, c)| match &c.kind {
                CardKind::Skill { effect } => Some(format!("{effect:?}")),
                _ => None,
            })
            .collect();
        skill_pairs.insert(skills);
    }
    assert_eq!(
        skill_pairs.len(),
        4,
        "each faction has its own pair of skills"
    );
}

#[test]
fn demo_ranges_fit_their_unit_kind() {
    let cat = demo();
    for card in &cat.cards {
        let CardKind::Unit { kind, range, .. } = &card.kind else {
            continue;
        };
        let reach = |&(a, f): &(i8, i8)| a.abs().max(f.abs());
        let ok = match kind {
            // Guns fire over the line: nothing next to them.
            UnitKind::Artillery => range.iter().all(|&(_, f)| f >= 2),
            // Tanks and anti-tank guns shoot ahead.
            UnitKind::Vehicle | UnitKind::AntiTank => range.iter().all(|&(_, f)| f >= 1),
            // Scouts see wide.
            UnitKind::Recon => range.len() >= 5,
            // Foot soldiers reach a few cells at most (a sniper 3).
            UnitKind::Infantry | UnitKind::Engineer => range.iter().all(|o| reach(o) <= 3),
        };
        assert!(ok, "{} ({kind:?}) has range {range:?}", card.id);
    }
}

#[test]
fn demo_engineer_units_remove_facilities() {
    for card in &demo().cards {
        if matches!(
            card.kind,
            CardKind::Unit {
                kind: UnitKind::Engineer,
                ..
            }
        ) {
            assert!(card.has_keyword(Keyword::Engineer), "{}", card.id);
        }
    }
}

#[test]
fn demo_every_card_has_text_in_both_languages_when_it_has_abilities() {
    for card in &demo().cards {
        let has_ability = !card.keywords().is_empty()
            || matches!(
                card.kind,
                CardKind::Facility { .. } | CardKind::Skill { .. }
            )
            || matches!(
                card.kind,
                CardKind::Resource {
                    supply_range: Some(_),
                    ..
                }
            );
        if has_ability {
            assert!(
                !card.text_zh.is_empty() && !card.text_en.is_empty(),
                "{}",
                card.id
            );
        }
    }
}

// ── Composition of a full set ───────────────────────────────────────────────────────────────────

#[test]
fn composition_check_refuses_a_set_missing_one_card() {
    // Drop the last card (国防军's second skill) from the demo text.
    let cut = DEMO_TOML.rfind("[[card]]").expect("demo has cards");
    let cat = Catalogue::from_toml("short.toml", &DEMO_TOML[..cut]).expect("still valid cards");
    let err = cat.check_composition().expect_err("a card is missing");
    assert_eq!(err.origin, "short.toml");
    assert!(
        err.message.contains("国防军") && err.message.contains("skill"),
        "{err}"
    );
    assert_eq!(
        err.field.as_deref(),
        Some("card[faction = \"wh\", type = \"skill\"]")
    );
}

#[test]
fn a_tables_partial_catalogue_loads_but_is_not_a_full_set() {
    let (_, result) = load(&format!("{UNIT}\n{FRONT}"));
    let cat = result.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(cat.cards.len(), 2);
    assert!(cat.get("us-u01").is_some() && cat.index_of("front-1") == Some(1));
    assert!(cat.check_composition().is_err());
}

#[test]
fn composition_check_counts_front_line_cards() {
    // Turn one front-line card into a sixth... by renaming front-5 we keep 5; adding one makes 6.
    let extra = "\n[[card]]\nid = \"front-6\"\nname_zh = \"前线\"\nname_en = \"Front\"\ntype = \"frontline\"\n";
    let cat = Catalogue::from_toml("six.toml", &format!("{DEMO_TOML}{extra}")).expect("valid");
    let err = cat.check_composition().expect_err("six front-line cards");
    assert!(err.message.contains("6 front-line"), "{err}");
}

// ── Errors name the file, the line and the field ────────────────────────────────────────────────

#[test]
fn missing_field_is_named_at_its_card() {
    let cards = UNIT.replace("attack = 2\n", "");
    let err = assert_error(&cards, "[[card]]", 0, "us-u01.attack");
    assert!(err.message.contains("missing field `attack`"), "{err}");
}

#[test]
fn wrong_type_is_named_at_its_line() {
    let cards = UNIT.replace("attack = 2", "attack = \"high\"");
    let err = assert_error(&cards, "attack", 0, "us-u01.attack");
    assert!(err.message.contains("invalid type"), "{err}");
}

#[test]
fn negative_value_is_named_at_its_line() {
    let cards = UNIT.replace("defence = 3", "defence = -1");
    assert_error(&cards, "defence", 0, "us-u01.defence");
}

#[test]
fn attack_above_nine_is_refused() {
    let cards = UNIT.replace("attack = 2", "attack = 10");
    let err = assert_error(&cards, "attack", 0, "us-u01.attack");
    assert!(err.message.contains("0..=9"), "{err}");
}

#[test]
fn zero_defence_unit_is_refused() {
    let cards = UNIT.replace("defence = 3", "defence = 0");
    assert_error(&cards, "defence", 0, "us-u01.defence");
}

#[test]
fn supply_level_above_three_is_refused() {
    let cards = UNIT.replace("supply = 1", "supply = 4");
    assert_error(&cards, "supply", 0, "us-u01.supply");
}

#[test]
fn range_offset_on_the_units_own_cell_is_refused() {
    let cards = UNIT.replace("[1, 0], [0, 1]]", "[0, 0], [0, 1]]");
    let err = assert_error(&cards, "range", 0, "us-u01.range");
    assert!(err.message.contains("[0, 0]"), "{err}");
}

#[test]
fn range_offset_off_the_board_is_refused() {
    let across = UNIT.replace("[[-1, 0],", "[[-5, 0],");
    assert_error(&across, "range", 0, "us-u01.range");
    let forward = UNIT.replace("[0, 1]]", "[0, 7]]");
    let err = assert_error(&forward, "range", 0, "us-u01.range");
    assert!(err.message.contains("off the board"), "{err}");
    // The edge of the board is still fine.
    let edge = UNIT.replace("[[-1, 0], [1, 0], [0, 1]]", "[[-4, 0], [0, 6], [0, -6]]");
    assert!(load(&edge).1.is_ok());
}

#[test]
fn empty_or_repeated_range_is_refused() {
    assert_error(
        &UNIT.replace("[[-1, 0], [1, 0], [0, 1]]", "[]"),
        "range",
        0,
        "us-u01.range",
    );
    assert_error(
        &UNIT.replace("[1, 0], [0, 1]]", "[0, 1], [0, 1]]"),
        "range",
        0,
        "us-u01.range",
    );
}

#[test]
fn range_offset_with_one_number_is_refused() {
    let cards = UNIT.replace("[0, 1]]", "[1]]");
    assert_error(&cards, "range", 0, "us-u01.range");
}

#[test]
fn duplicate_id_is_named_at_the_second_id() {
    let second = UNIT.replace("步枪排", "第二步枪排");
    let err = assert_error(&format!("{UNIT}\n{second}"), "id =", 1, "us-u01.id");
    let first = line_starting(&format!("{HEAD}{UNIT}"), "id =", 0);
    assert!(err.message.contains(&format!("line {first}")), "{err}");
}

#[test]
fn unknown_keyword_is_named_at_its_line() {
    let cards = format!("{UNIT}keywords = [\"fast\", \"flying\"]\n");
    let err = assert_error(&cards, "keywords", 0, "us-u01.keywords");
    assert!(err.message.contains("flying"), "{err}");
}

#[test]
fn repeated_keyword_is_refused() {
    let cards = format!("{UNIT}keywords = [\"fast\", \"fast\"]\n");
    assert_error(&cards, "keywords", 0, "us-u01.keywords");
}

#[test]
fn engineer_kind_without_engineer_keyword_is_refused() {
    let cards = UNIT.replace("kind = \"infantry\"", "kind = \"engineer\"");
    let err = assert_error(&cards, "[[card]]", 0, "us-u01.keywords");
    assert!(err.message.contains("engineer"), "{err}");
    let fixed = format!("{cards}keywords = [\"engineer\"]\n");
    assert!(load(&fixed).1.is_ok());
}

#[test]
fn unknown_unit_kind_is_named_at_its_line() {
    let cards = UNIT.replace("kind = \"infantry\"", "kind = \"cavalry\"");
    assert_error(&cards, "kind", 0, "us-u01.kind");
}

#[test]
fn front_line_card_with_a_faction_is_refused() {
    let cards = FRONT.replace("type =", "faction = \"us\"\ntype =");
    let err = assert_error(&cards, "faction", 0, "front-1.faction");
    assert!(err.message.contains("no faction"), "{err}");
}

#[test]
fn faction_card_without_a_faction_is_refused() {
    let cards = UNIT.replace("faction = \"us\"\n", "");
    assert_error(&cards, "[[card]]", 0, "us-u01.faction");
}

#[test]
fn unknown_faction_is_named_at_its_line() {
    let cards = UNIT.replace("faction = \"us\"", "faction = \"usa\"");
    assert_error(&cards, "faction", 0, "us-u01.faction");
}

#[test]
fn wrong_meta_game_is_named_at_its_line() {
    let text = format!("{HEAD}{UNIT}").replace("game = \"blitz\"", "game = \"fof\"");
    let err = Catalogue::from_toml(ORIGIN, &text).expect_err("not a blitz catalogue");
    assert_eq!(err.origin, ORIGIN);
    assert_eq!(err.line, Some(line_starting(&text, "game", 0)), "{err}");
    assert_eq!(err.field.as_deref(), Some("meta.game"));
}

#[test]
fn unknown_card_type_is_named_at_its_line() {
    let cards = UNIT.replace("type = \"unit\"", "type = \"tank\"");
    assert_error(&cards, "type", 0, "us-u01.type");
}

#[test]
fn field_of_another_card_type_is_refused() {
    let cards = format!("{UNIT}level = 2\n");
    let err = assert_error(&cards, "level", 0, "us-u01.level");
    assert!(err.message.contains("not a field of a unit card"), "{err}");
}

#[test]
fn misspelt_key_is_named_where_it_is_written() {
    let (text, result) = load(&UNIT.replace("attack = 2", "atack = 2"));
    let err = result.expect_err("typo");
    assert_eq!(err.line, Some(line_starting(&text, "atack", 0)), "{err}");
    assert_eq!(err.field.as_deref(), Some("atack"), "{err}");
}

#[test]
fn empty_name_is_refused() {
    assert_error(
        &UNIT.replace("name_en = \"Rifle platoon\"", "name_en = \" \""),
        "name_en",
        0,
        "us-u01.name_en",
    );
}

#[test]
fn id_with_spaces_is_refused() {
    assert_error(
        &UNIT.replace("id = \"us-u01\"", "id = \"us u01\""),
        "id",
        0,
        "us u01.id",
    );
}

#[test]
fn card_without_id_is_named_by_its_position() {
    let cards = format!("{FRONT}\n{}", UNIT.replace("id = \"us-u01\"\n", ""));
    assert_error(&cards, "[[card]]", 1, "card[1].id");
}

#[test]
fn resource_level_and_supply_range_are_checked() {
    let resource = "[[card]]\nid = \"us-r01\"\nfaction = \"us\"\nname_zh = \"弹药\"\nname_en = \"Ammo\"\ntype = \"resource\"\nlevel = 2\ndefence = 2\n";
    let ok = load(resource).1.unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(
        ok.get("us-r01").map(|c| &c.kind),
        Some(CardKind::Resource {
            supply_range: None,
            ..
        })
    ));
    assert_error(
        &resource.replace("level = 2", "level = 4"),
        "level",
        0,
        "us-r01.level",
    );
    assert_error(
        &resource.replace("level = 2", "level = 0"),
        "level",
        0,
        "us-r01.level",
    );
    let bad_range = format!("{resource}supply_range = [[0, 0]]\n");
    assert_error(&bad_range, "supply_range", 0, "us-r01.supply_range");
}

#[test]
fn facility_and_skill_effects_are_checked() {
    let facility = "[[card]]\nid = \"us-f01\"\nfaction = \"us\"\nname_zh = \"碉堡\"\nname_en = \"Bunker\"\ntype = \"facility\"\ndefence = 3\neffect = { kind = \"bunker\", bonus = 2 }\n";
    assert!(load(facility).1.is_ok());
    assert_error(
        &facility.replace("bonus = 2", "bonus = 0"),
        "effect",
        0,
        "us-f01.effect",
    );
    assert_error(
        &facility.replace(", bonus = 2", ""),
        "effect",
        0,
        "us-f01.effect",
    );
    let skill = "[[card]]\nid = \"us-s01\"\nfaction = \"us\"\nname_zh = \"空袭\"\nname_en = \"Air strike\"\ntype = \"skill\"\neffect = { kind = \"strike\", power = 6 }\n";
    assert!(load(skill).1.is_ok());
    let err = assert_error(
        &skill.replace("\"strike\", power = 6", "\"nuke\""),
        "effect",
        0,
        "us-s01.effect",
    );
    assert!(err.message.contains("nuke"), "{err}");
    assert_error(
        &skill.replace("power = 6", "power = 12"),
        "effect",
        0,
        "us-s01.effect",
    );
}

#[test]
fn toml_syntax_error_names_its_line() {
    let (text, result) = load(&UNIT.replace("name_en = \"Rifle platoon\"", "name_en = \"Rifle"));
    let err = result.expect_err("unterminated string");
    assert_eq!(err.line, Some(line_starting(&text, "name_en", 0)), "{err}");
}

#[test]
fn effect_may_be_written_as_a_sub_table() {
    let facility = "[[card]]\nid = \"us-f03\"\nfaction = \"us\"\nname_zh = \"碉堡\"\nname_en = \"Bunker\"\ntype = \"facility\"\ndefence = 3\n\n[card.effect]\nkind = \"bunker\"\nbonus = 2\n";
    let cat = load(facility).1.unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(
        cat.get("us-f03").map(|c| &c.kind),
        Some(CardKind::Facility {
            effect: FacilityEffect::Bunker { bonus: 2 },
            ..
        })
    ));
    let bad = facility.replace("bonus = 2", "bonus = \"two\"");
    assert_error(&bad, "[card.effect]", 0, "us-f03.effect");
}

#[test]
fn card_round_trips_through_serde_like_the_loader_reads_it() {
    // The engine may serialise cards (e.g. in saved games); what it writes must load again the same.
    let cat = demo();
    for card in &cat.cards {
        let written = toml::to_string(&RoundTrip {
            meta: cat.meta.clone(),
            card: vec![card.clone()],
        })
        .unwrap_or_else(|e| panic!("{}: {e}", card.id));
        let again = Catalogue::from_toml("written.toml", &written)
            .unwrap_or_else(|e| panic!("{}: {e}\n{written}", card.id));
        assert_eq!(again.cards, vec![card.clone()]);
    }
}

#[derive(serde::Serialize)]
struct RoundTrip {
    meta: CatalogueMeta,
    card: Vec<CardDef>,
}
