//! The print-and-play kits as PDFs: every page A4 (or Letter), each card printed as often as the game needs
//! with its back behind it on the following page, every picture stored once.

use lopdf::{Document, Object};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use vision::kit::{write_pdf, Kit, KitPage, Paper};

fn out(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name)
}

fn number(o: &Object) -> f64 {
    match o {
        Object::Integer(i) => *i as f64,
        Object::Real(r) => *r as f64,
        other => panic!("not a number: {other:?}"),
    }
}

/// Writes `kit` and checks the PDF against the pages it says it wrote; returns those pages.
fn written(kit: &Kit, name: &str) -> Vec<KitPage> {
    written_on(kit, name, Paper::A4)
}

fn written_on(kit: &Kit, name: &str, paper: Paper) -> Vec<KitPage> {
    let path = out(name);
    let pages = write_pdf(kit, &path, paper).expect("write the kit");
    let want = paper.mm().map(|mm| mm * 72.0 / 25.4);
    let doc = Document::load(&path).expect("read the kit back");
    let ids = doc.get_pages();
    assert_eq!(ids.len(), pages.len(), "{name}: pages in the file");
    for (n, id) in ids.values().enumerate() {
        let page = doc.get_dictionary(*id).expect("page dictionary");
        let mb = page
            .get(b"MediaBox")
            .and_then(Object::as_array)
            .expect("MediaBox");
        let size: Vec<f64> = mb.iter().map(number).collect();
        assert!(
            (size[2] - want[0]).abs() < 0.1 && (size[3] - want[1]).abs() < 0.1,
            "{name} page {}: {size:?} is not {paper:?}",
            n + 1
        );
    }
    // Each card's front is stored once however many copies, and each back once.
    let images = doc
        .objects
        .values()
        .filter(|o| {
            o.as_stream()
                .ok()
                .and_then(|s| s.dict.get(b"Subtype").ok())
                .and_then(|t| t.as_name().ok())
                == Some(b"Image".as_slice())
        })
        .count();
    let full_pages = pages
        .iter()
        .filter(|p| {
            matches!(
                p,
                KitPage::Setup | KitPage::Reference | KitPage::MatTile { .. }
            )
        })
        .count();
    let backs_used: BTreeSet<usize> = kit
        .cards
        .iter()
        .filter(|k| k.copies > 0)
        .map(|k| k.back)
        .collect();
    let fronts = kit.cards.iter().filter(|k| k.copies > 0).count();
    assert_eq!(
        images,
        full_pages + fronts + backs_used.len(),
        "{name}: pictures stored"
    );
    pages
}

/// Every card appears on fronts pages once per copy, and the page after each fronts page holds
/// the same cards' backs.
fn check_cards(kit: &Kit, pages: &[KitPage]) {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (i, p) in pages.iter().enumerate() {
        if let KitPage::Fronts { cards } = p {
            assert!(cards.len() <= 9);
            assert_eq!(
                pages.get(i + 1),
                Some(&KitPage::Backs {
                    cards: cards.clone()
                })
            );
            for c in cards {
                *seen.entry(c.clone()).or_default() += 1;
            }
        }
    }
    for k in &kit.cards {
        assert_eq!(
            seen.get(&k.id).copied().unwrap_or(0),
            k.copies,
            "copies of {}",
            k.id
        );
    }
    assert_eq!(pages.first(), Some(&KitPage::Setup));
    assert_eq!(pages.last(), Some(&KitPage::Reference));
}

fn tiles(pages: &[KitPage], name: &str) -> usize {
    let tiles: Vec<&KitPage> = pages
        .iter()
        .filter(|p| matches!(p, KitPage::MatTile { mat, .. } if mat == name))
        .collect();
    if let Some(KitPage::MatTile { cols, rows, .. }) = tiles.first() {
        assert_eq!(tiles.len(), cols * rows, "{name}: every tile once");
    }
    tiles.len()
}

#[test]
fn blitz_kit_prints_every_card_with_its_faction_back_and_both_mats() {
    let cat = blitz::catalogue::Catalogue::demo();
    let kit = vision::games::blitz::kit::kit(&cat).expect("kit");
    assert_eq!(kit.cards.len(), cat.cards.len());
    assert_eq!(kit.backs.len(), 5);
    let pages = written(&kit, "blitz-kit.pdf");
    check_cards(&kit, &pages);
    assert!(tiles(&pages, "blitz-4x7") >= 4 && tiles(&pages, "blitz-5x7") >= 4);
    // On Letter: the same cards, and the mats in tiles of Letter's shape.
    let letter = written_on(&kit, "blitz-kit-letter.pdf", Paper::Letter);
    check_cards(&kit, &letter);
    assert!(tiles(&letter, "blitz-4x7") >= 4);
}

#[test]
fn duel_kit_prints_both_demo_decks_and_the_mat() {
    let cat = duel::Catalogue::demo();
    let decks: Vec<duel::Deck> = duel::DEMO_DECKS
        .iter()
        .map(|(origin, text)| {
            duel::parse_deck(origin, text, &cat, &duel::Profile::default(), None).expect("deck")
        })
        .collect();
    let kit = vision::games::duel::kit::kit(&cat, &decks).expect("kit");
    let printed: usize = kit.cards.iter().map(|k| k.copies).sum();
    let wanted: usize = decks
        .iter()
        .map(|d| d.main.len() + usize::from(d.commander.is_some()))
        .sum();
    assert_eq!(printed, wanted);
    let pages = written(&kit, "duel-kit.pdf");
    check_cards(&kit, &pages);
    assert!(tiles(&pages, "duel-2x5") >= 2);
}

#[test]
fn message_kit_prints_the_whole_deck_identities_characters_and_seats() {
    let cat = message::Catalogue::shipped().expect("shipped catalogue");
    let kit = vision::games::message::kit::kit(&cat).expect("kit");
    let deck: usize = kit
        .cards
        .iter()
        .filter(|k| k.back == 0)
        .map(|k| k.copies)
        .sum();
    assert_eq!(deck, cat.deck.cards.len());
    let seats = kit
        .cards
        .iter()
        .filter(|k| k.id.starts_with("seat-"))
        .count();
    assert_eq!(seats, 9);
    let identities: usize = kit
        .cards
        .iter()
        .filter(|k| k.id.starts_with("identity-"))
        .map(|k| k.copies)
        .sum();
    assert!(
        identities >= 9,
        "{identities} identity cards cannot deal nine players"
    );
    let pages = written(&kit, "message-kit.pdf");
    check_cards(&kit, &pages);
}
