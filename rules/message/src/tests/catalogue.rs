//! The shipped data, and the errors bad data gets (file, line, field).

use super::*;
use crate::catalogue::*;
use crate::profile::parse_profile;

#[test]
fn shipped_deck_has_the_seed_cards_and_the_assumed_ones() {
    let c = cat();
    let cards = &c.deck.cards;
    assert_eq!(cards.len(), 81);
    assert_eq!(cards.iter().filter(|x| !x.assumed).count(), 40);
    assert_eq!(cards.iter().filter(|x| x.assumed).count(), 41);
    // Seed 各功能牌: kind, method, red/blue/black.
    for (kind, method, rgb) in [
        (Kind::Lock, Method::Direct, [3, 3, 6]),
        (Kind::Lure, Method::Text, [2, 2, 2]),
        (Kind::Intercept, Method::Secret, [1, 1, 6]),
        (Kind::Return, Method::Text, [3, 3, 2]),
        (Kind::Decode, Method::Secret, [2, 2, 2]),
        (Kind::Probe, Method::Secret, [7, 7, 4]),
        (Kind::Expose, Method::Text, [2, 2, 4]),
        (Kind::Burn, Method::Secret, [2, 2, 3]),
        (Kind::Swap, Method::Text, [3, 3, 2]),
    ] {
        let of = |col| {
            cards
                .iter()
                .filter(|x| x.kind == kind && x.colour == col)
                .count()
        };
        assert_eq!(
            [of(Colour::Red), of(Colour::Blue), of(Colour::Black)],
            rgb,
            "{kind:?}"
        );
        assert!(
            cards
                .iter()
                .filter(|x| x.kind == kind)
                .all(|x| x.method == method),
            "{kind:?}"
        );
        let seed_card = matches!(
            kind,
            Kind::Lock | Kind::Lure | Kind::Intercept | Kind::Return | Kind::Decode
        );
        assert!(cards
            .iter()
            .filter(|x| x.kind == kind)
            .all(|x| x.assumed != seed_card));
    }
}

#[test]
fn shipped_characters_are_demo_with_every_skill_and_mission_kind() {
    let c = cat();
    assert_eq!(c.characters.len(), 18);
    assert!(c.characters.iter().all(|x| x.demo));
    let skills: Vec<String> = c
        .characters
        .iter()
        .flat_map(|x| {
            x.skills.iter().map(|s| {
                format!("{s:?}")
                    .split([' ', '{'])
                    .next()
                    .unwrap()
                    .to_string()
            })
        })
        .collect();
    for k in [
        "ExtraDraw",
        "LockImmune",
        "LureImmune",
        "DrawOnBlack",
        "DeathDraw",
    ] {
        assert!(skills.iter().any(|s| s == k), "{k} unused");
    }
    let has = |f: fn(&Mission) -> bool| c.characters.iter().any(|x| f(&x.mission));
    assert!(has(|m| matches!(m, Mission::Collect { .. })));
    assert!(has(|m| matches!(m, Mission::Total { .. })));
    assert!(has(|m| matches!(m, Mission::Deaths { .. })));
    assert!(has(|m| matches!(m, Mission::HandSize { .. })));
    assert!(c.characters.iter().any(|x| x.hidden));
}

#[test]
fn shipped_identity_table_is_the_seeds() {
    let c = cat();
    let rows: Vec<(usize, [u8; 3], Option<[u8; 3]>)> = c
        .identities
        .iter()
        .map(|r| {
            (
                r.players,
                [r.standard.lurker, r.standard.bureau, r.standard.neutral],
                r.optional.map(|o| [o.lurker, o.bureau, o.neutral]),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            (3, [1, 1, 1], None),
            (4, [1, 1, 2], Some([2, 2, 0])),
            (5, [2, 2, 1], None),
            (6, [2, 2, 2], Some([3, 3, 0])),
            (7, [3, 3, 1], Some([2, 2, 3])),
            (8, [3, 3, 2], None),
            (9, [3, 3, 3], None),
        ]
    );
}

#[test]
fn shipped_profile_is_the_documented_default() {
    let p = parse_profile("profile.toml", PROFILE_TOML).unwrap();
    assert_eq!(p, Profile::default());
    assert!(p.death_before_win);
    let err =
        parse_profile("p.toml", "[message]\ndeath_before_win = true\nblitz = 1\n").unwrap_err();
    assert!(err.to_string().starts_with("p.toml:"), "{err}");
}

#[test]
fn a_window_a_card_does_not_support_names_line_and_field() {
    let bad = DECK_TOML.replacen("windows = [\"transit\"]", "windows = [\"own_play\"]", 1);
    let err = parse_deck("deck.toml", &bad).unwrap_err();
    assert_eq!(err.field.as_deref(), Some("kind[2].windows"), "{err}");
    let line = err.line.unwrap();
    assert!(
        bad.lines().nth(line - 1).unwrap().contains("[[kind]]")
            || bad.lines().nth(line).unwrap().contains("intercept"),
        "{err}"
    );
}

#[test]
fn a_deck_that_is_not_81_cards_is_refused() {
    let bad = DECK_TOML.replacen("count = 6\n", "count = 5\n", 1);
    let err = parse_deck("deck.toml", &bad).unwrap_err();
    assert!(err.message.contains("81"), "{err}");
}

#[test]
fn a_probe_without_its_answers_is_refused_with_its_line() {
    let bad = DECK_TOML.replacen(
        "probe = { lurker = \"draw\", bureau = \"discard\", neutral = \"say\" }\n",
        "",
        1,
    );
    let err = parse_deck("deck.toml", &bad).unwrap_err();
    assert!(
        err.field.as_deref().is_some_and(|f| f.ends_with(".probe")),
        "{err}"
    );
    assert!(err.line.is_some());
}

#[test]
fn an_unknown_card_kind_names_its_line() {
    let bad = DECK_TOML.replacen("kind = \"burn\"\nmethod", "kind = \"flame\"\nmethod", 1);
    let err = parse_deck("deck.toml", &bad).unwrap_err();
    assert!(err.line.is_some() && err.message.contains("flame"), "{err}");
}

#[test]
fn character_errors_name_the_entry() {
    let dup = CHARACTERS_TOML.replacen("id = \"demo-02\"", "id = \"demo-01\"", 1);
    let err = parse_characters("c.toml", &dup).unwrap_err();
    assert_eq!(err.field.as_deref(), Some("character[1].id"), "{err}");
    let deadly = CHARACTERS_TOML.replacen(
        "{ goal = \"collect\", black = 2 }",
        "{ goal = \"collect\", black = 3 }",
        1,
    );
    let err = parse_characters("c.toml", &deadly).unwrap_err();
    assert!(err.message.contains("死亡"), "{err}");
    let unknown = CHARACTERS_TOML.replacen("effect = \"lock_immune\"", "effect = \"fly\"", 1);
    let err = parse_characters("c.toml", &unknown).unwrap_err();
    assert!(err.line.is_some() && err.message.contains("fly"), "{err}");
}

#[test]
fn identity_rows_must_add_up() {
    let err =
        parse_identities("i.toml", "[[row]]\nplayers = 4\nstandard = [1, 1, 1]\n").unwrap_err();
    assert_eq!(err.field.as_deref(), Some("row[0].standard"));
    assert_eq!(err.line, Some(1));
}
