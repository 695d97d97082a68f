use fof::card::ActionIcon;
use fof::{Deck, DeckKind};

#[test]
fn demo_deck_is_marked_as_not_the_published_deck_and_has_every_r_number() {
    let deck = Deck::demo().unwrap();
    assert!(deck.name.contains("not the published"), "{}", deck.name);
    let DeckKind::Digital(cards) = &deck.kind else {
        panic!("demo deck is digital")
    };
    assert_eq!(cards.len(), 50);
    for r in 1..=10 {
        assert_eq!(cards.iter().filter(|c| c.r == r).count(), 5, "R# {r}");
    }
    assert!(cards.iter().any(|c| c.hq_radio));
    assert!(cards
        .iter()
        .any(|c| c.icons.contains(&ActionIcon::AtModifier) && c.at_modifier != 0));
    assert!(fof::deck::DEMO_DECK_TOML.contains("NOT the published deck"));
}

const GOOD_CARD: &str = "[[card]]\nnumber = 1\nr = 3\ncommand = 2\ninitiative = 1\neffective_fire = 2\nhit = { green = \"pinned\", line = \"pinned\", veteran = \"no_effect\" }\ncontact = \"none\"\n";

fn parse(body: &str) -> Result<Deck, rules_core::data::DataError> {
    Deck::parse(
        "my-deck.toml",
        &format!("[deck]\nname = \"test\"\n\n{body}"),
    )
}

#[test]
fn deck_file_good_card_parses() {
    let deck = parse(GOOD_CARD).unwrap();
    assert_eq!(deck.card(1).unwrap().r, 3);
}

#[test]
fn deck_file_r_number_out_of_range_names_file_line_field() {
    let err = parse(&GOOD_CARD.replace("r = 3", "r = 11")).unwrap_err();
    assert_eq!(err.origin, "my-deck.toml");
    assert_eq!(err.line, Some(6), "{err}");
    assert_eq!(err.field.as_deref(), Some("card[0].r"));
}

#[test]
fn deck_file_wrong_type_names_the_field_line() {
    let err = parse(&GOOD_CARD.replace("command = 2", "command = \"two\"")).unwrap_err();
    assert_eq!(err.line, Some(7), "{err}");
    assert_eq!(err.field.as_deref(), Some("card[0].command"));
}

#[test]
fn deck_file_unknown_hit_effect_is_refused() {
    let err = parse(&GOOD_CARD.replace("\"pinned\", line", "\"stunned\", line")).unwrap_err();
    assert_eq!(err.field.as_deref(), Some("card[0].hit"), "{err}");
    assert!(err.message.contains("stunned"), "{err}");
}

#[test]
fn deck_file_misspelt_key_is_refused_not_ignored() {
    let err = parse(&format!("{GOOD_CARD}hq_radoi = true\n")).unwrap_err();
    assert_eq!(err.field.as_deref(), Some("card[0].hq_radoi"), "{err}");
    assert_eq!(err.line, Some(12), "{err}");
}

#[test]
fn deck_file_missing_field_names_it() {
    let err = parse(&GOOD_CARD.replace("contact = \"none\"\n", "")).unwrap_err();
    assert_eq!(err.field.as_deref(), Some("card[0].contact"), "{err}");
}

#[test]
fn deck_file_duplicate_and_missing_numbers() {
    let two = format!("{GOOD_CARD}\n{GOOD_CARD}");
    let err = parse(&two).unwrap_err();
    assert!(err.message.contains("already used at line 5"), "{err}");
    let gap = format!(
        "{GOOD_CARD}\n{}",
        GOOD_CARD.replace("number = 1", "number = 3")
    );
    let err = parse(&gap).unwrap_err();
    assert!(err.message.contains("2 is missing"), "{err}");
}

#[test]
fn deck_file_at_modifier_needs_its_icon() {
    let err = parse(&format!("{GOOD_CARD}at_modifier = 1\n")).unwrap_err();
    assert_eq!(err.field.as_deref(), Some("card[0].at_modifier"), "{err}");
    let ok = parse(&format!(
        "{GOOD_CARD}at_modifier = 1\nicons = [\"at_modifier\"]\n"
    ))
    .unwrap();
    assert_eq!(ok.card(1).unwrap().at_modifier, 1);
}

#[test]
fn physical_deck_file_lists_no_cards() {
    let deck = Deck::parse(
        "mine.toml",
        "[deck]\nname = \"my own deck\"\nphysical_cards = 54\n",
    )
    .unwrap();
    assert_eq!(deck.kind, DeckKind::Physical(54));
    assert!(deck.card(1).is_none());
    let err = Deck::parse(
        "mine.toml",
        &format!("[deck]\nname = \"x\"\nphysical_cards = 1\n{GOOD_CARD}"),
    )
    .unwrap_err();
    assert!(err.message.contains("physical"), "{err}");
}

#[test]
fn same_seed_same_draws_different_seed_different_draws() {
    let a = fof::deck::draw_sequence(7, 50, 120);
    let b = fof::deck::draw_sequence(7, 50, 120);
    let c = fof::deck::draw_sequence(8, 50, 120);
    assert_eq!(a, b);
    assert_ne!(a, c);
    // Each shuffle of 50 is a permutation.
    let mut first: Vec<u16> = a[..50].to_vec();
    first.sort();
    assert_eq!(first, (1..=50).collect::<Vec<u16>>());
    // Draws past 50 come from a reshuffle, which is a different order.
    assert_ne!(a[..50], a[50..100]);
}
