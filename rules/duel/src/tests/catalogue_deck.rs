//! The demo catalogue, catalogue validation, and the three deck formats.

use super::*;
use crate::catalogue::Kind;
use crate::deck::{parse_deck, Format};
use crate::keyword::{Faction, GLOSSARY};
use std::collections::BTreeMap;

#[test]
fn demo_catalogue_is_marked_demo_with_80_cards_four_factions_and_neutral() {
    let cat = Catalogue::demo();
    assert!(cat.demo, "the shipped catalogue must be marked demo");
    assert!(cat.cards.len() >= 80, "{} cards", cat.cards.len());
    for f in [
        Faction::Wei,
        Faction::Shu,
        Faction::Wu,
        Faction::Qun,
        Faction::Neutral,
    ] {
        let n = cat.cards.iter().filter(|c| c.faction == f).count();
        assert!(n >= 12, "{} has only {n} cards", f.zh());
    }
}

#[test]
fn every_glossary_keyword_is_used_by_at_least_two_demo_cards() {
    let cat = Catalogue::demo();
    for name in GLOSSARY {
        let n = cat
            .cards
            .iter()
            .filter(|c| c.keywords.iter().any(|k| k.name_zh() == name))
            .count();
        assert!(n >= 2, "{name} is used by {n} card(s)");
    }
}

#[test]
fn catalogue_error_names_file_line_and_field() {
    let text = "[[card]]\nid = \"a\"\nname = \"甲\"\nen = \"A\"\nfaction = \"wei\"\nkind = \"unit\"\nattack = 1\nhealth = 1\nkeywords = [\"飞行\"]\n";
    let err = Catalogue::parse("bad.toml", text).unwrap_err();
    let e = &err.0[0];
    assert_eq!(e.origin, "bad.toml");
    assert_eq!(e.line, Some(9), "{err}");
    assert!(
        e.field.as_deref().unwrap_or("").contains("keywords"),
        "{err}"
    );
    assert!(e.message.contains("unknown keyword"), "{err}");
}

#[test]
fn catalogue_refuses_a_step_without_a_target_and_keywords_on_wrong_kinds() {
    let base = "[[card]]\nid = \"a\"\nname = \"甲\"\nen = \"A\"\nfaction = \"wei\"\n";
    let no_target = format!("{base}kind = \"trick\"\neffect = [\"damage 2\"]\n");
    assert!(Catalogue::parse("x", &no_target)
        .unwrap_err()
        .to_string()
        .contains("target"));
    let shoot_trick =
        format!("{base}kind = \"trick\"\nkeywords = [\"射击 1\"]\neffect = [\"draw 1\"]\n");
    assert!(Catalogue::parse("x", &shoot_trick)
        .unwrap_err()
        .to_string()
        .contains("射击"));
    let unit_no_stats = format!("{base}kind = \"unit\"\n");
    assert!(Catalogue::parse("x", &unit_no_stats)
        .unwrap_err()
        .to_string()
        .contains("health"));
    let dup = format!("{base}kind = \"trick\"\neffect = [\"draw 1\"]\n{base}kind = \"trick\"\neffect = [\"draw 1\"]\n");
    assert!(Catalogue::parse("x", &dup)
        .unwrap_err()
        .to_string()
        .contains("two cards"));
}

fn deck_text(format: &str, main: &[(&str, u32)], side: &[(&str, u32)], extra: &str) -> String {
    let mut t = format!("format = \"{format}\"\n{extra}\n[main]\n");
    for (k, n) in main {
        t += &format!("\"{k}\" = {n}\n");
    }
    t += "[sideboard]\n";
    for (k, n) in side {
        t += &format!("\"{k}\" = {n}\n");
    }
    t
}

fn check(text: &str, pool: Option<&BTreeMap<usize, u32>>) -> Result<crate::Deck, String> {
    parse_deck(
        "deck.toml",
        text,
        &Catalogue::demo(),
        &Profile::default(),
        pool,
    )
    .map_err(|e| e.to_string())
}

#[test]
fn demo_decks_are_legal_constructed_decks() {
    for (origin, text) in crate::DEMO_DECKS {
        let d = parse_deck(origin, text, &Catalogue::demo(), &Profile::default(), None)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(d.format, Format::Constructed);
        assert!(d.main.len() >= 50);
    }
}

#[test]
fn constructed_needs_50_main_cards() {
    let err = check(
        &deck_text("constructed", &[("wei-land", 40), ("wei-01", 3)], &[], ""),
        None,
    )
    .unwrap_err();
    assert!(err.contains("50 or more") && err.contains("43"), "{err}");
}

#[test]
fn constructed_allows_3_copies_and_names_the_card_over_the_limit() {
    let ok = check(
        &deck_text("constructed", &[("wei-land", 47), ("wei-01", 3)], &[], ""),
        None,
    );
    assert!(ok.is_ok(), "{ok:?}");
    let err = check(
        &deck_text("constructed", &[("wei-land", 46), ("wei-01", 4)], &[], ""),
        None,
    )
    .unwrap_err();
    assert!(
        err.contains("wei-01") && err.contains("虎卫新兵") && err.contains("4 copies"),
        "{err}"
    );
    assert!(err.contains("deck.toml:"), "names the line: {err}");
}

#[test]
fn copies_count_main_and_sideboard_together_and_basic_territories_are_exempt() {
    let side: Vec<(&str, u32)> = vec![("wei-01", 1), ("wei-02", 3), ("wei-03", 3), ("wei-05", 3)];
    let err = check(
        &deck_text("constructed", &[("wei-land", 47), ("wei-01", 3)], &side, ""),
        None,
    )
    .unwrap_err();
    assert!(err.contains("wei-01"), "{err}");
    // A non-basic territory is limited to 3.
    let err = check(
        &deck_text("constructed", &[("wei-land", 46), ("wei-14", 4)], &[], ""),
        None,
    )
    .unwrap_err();
    assert!(err.contains("wei-14"), "{err}");
}

#[test]
fn constructed_sideboard_is_0_or_10() {
    let main = [("wei-land", 50)];
    assert!(check(
        &deck_text(
            "constructed",
            &main,
            &[("wei-01", 3), ("wei-02", 3), ("wei-03", 3), ("wei-05", 1)],
            ""
        ),
        None
    )
    .is_ok());
    let err = check(&deck_text("constructed", &main, &[("wei-01", 3)], ""), None).unwrap_err();
    assert!(err.contains("0 or 10"), "{err}");
}

#[test]
fn unknown_card_is_named_with_its_line() {
    let err = check(
        &deck_text("constructed", &[("wei-land", 50), ("no-such", 1)], &[], ""),
        None,
    )
    .unwrap_err();
    assert!(
        err.contains("no-such") && err.contains("deck.toml:5"),
        "{err}"
    );
}

#[test]
fn limited_needs_35_and_cards_from_the_pool() {
    let cat = Catalogue::demo();
    let pool: BTreeMap<usize, u32> = [(cat.find("wei-01").unwrap(), 2)].into_iter().collect();
    assert!(check(
        &deck_text("limited", &[("wei-land", 33), ("wei-01", 2)], &[], ""),
        Some(&pool)
    )
    .is_ok());
    let err = check(
        &deck_text("limited", &[("wei-land", 30), ("wei-01", 2)], &[], ""),
        Some(&pool),
    )
    .unwrap_err();
    assert!(err.contains("35 or more"), "{err}");
    let err = check(
        &deck_text("limited", &[("wei-land", 33), ("wei-01", 3)], &[], ""),
        Some(&pool),
    )
    .unwrap_err();
    assert!(
        err.contains("pool has 2") && err.contains("wei-01"),
        "{err}"
    );
}

#[test]
fn commander_needs_80_singleton_and_the_commanders_faction() {
    let cat = Catalogue::demo();
    let mut main: Vec<(&str, u32)> = vec![("wei-land", 60)];
    let singles: Vec<&str> = cat
        .cards
        .iter()
        .filter(|c| c.faction == Faction::Wei && c.kind != Kind::Territory)
        .map(|c| c.id.as_str())
        .collect();
    main.extend(singles.iter().map(|k| (*k, 1)));
    main.push(("neu-01", 1));
    main.push(("neu-02", 1));
    main.push(("neu-03", 1));
    main.push(("neu-05", 1));
    let total: u32 = main.iter().map(|e| e.1).sum();
    assert!(total >= 80, "fixture has {total}");
    let cmd = "commander = \"wei-04\"";
    assert!(check(&deck_text("commander", &main, &[], cmd), None).is_ok());
    let mut twice = main.clone();
    twice.push(("neu-04", 2));
    let err = check(&deck_text("commander", &twice, &[], cmd), None).unwrap_err();
    assert!(err.contains("neu-04") && err.contains("统帅赛制"), "{err}");
    let mut shu = main.clone();
    shu.push(("shu-01", 1));
    let err = check(&deck_text("commander", &shu, &[], cmd), None).unwrap_err();
    assert!(
        err.contains("shu-01") && err.contains("duel.commander_same_faction"),
        "{err}"
    );
    let err = check(&deck_text("commander", &main, &[], ""), None).unwrap_err();
    assert!(err.contains("commander"), "{err}");
    let err = check(
        &deck_text("commander", &[("wei-land", 70), ("wei-04", 1)], &[], cmd),
        None,
    )
    .unwrap_err();
    assert!(err.contains("80 or more"), "{err}");
}

#[test]
fn shipped_profile_matches_the_seed_numbers() {
    let p = Profile::shipped();
    assert_eq!(p, Profile::default());
    assert_eq!((p.start_life, p.start_hand, p.hand_limit), (30, 7, 7));
    assert!(Profile::parse("p.toml", "[duel]\nstart_lfe = 3\n")
        .unwrap_err()
        .to_string()
        .contains("start_lfe"));
}

#[test]
fn limited_pool_file_names_unknown_cards_with_their_line() {
    let cat = Catalogue::demo();
    let pool = crate::deck::parse_pool(
        "pool.toml",
        "[pool]\n\"wei-01\" = 2\n\"虎卫新兵\" = 1\n\"zzz\" = 1\n",
        &cat,
    );
    let err = pool.unwrap_err().to_string();
    assert!(err.contains("pool.toml:4") && err.contains("zzz"), "{err}");
    let ok = crate::deck::parse_pool(
        "pool.toml",
        "[pool]\n\"wei-01\" = 2\n\"虎卫新兵\" = 1\n",
        &cat,
    )
    .unwrap();
    assert_eq!(
        ok.get(&cat.find("wei-01").unwrap()),
        Some(&3),
        "id and printed name add up"
    );
}
