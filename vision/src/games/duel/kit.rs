//! The Duel print-and-play kit: the cards of the decks to be played (each as often as the decks
//! hold it) with the back the camera reads as face down, the 陣地 mat, the set-up sheet and the
//! card reference.

use super::faces::{render_faces, BACK_ID};
use crate::face::{CARD_H_MM, CARD_W_MM};
use crate::kit::{text_pages, Kit, KitCard, KitMat};
use crate::mats::{render_mat, MatLayout};
use crate::VisionError;
use duel::catalogue::{CardDef, Catalogue, Kind};
use duel::Deck;

const MAT_PX_PER_MM: f64 = 6.0;

/// How many copies of catalogue card `index` the decks hold together (commanders included).
fn copies(decks: &[Deck], index: usize) -> usize {
    decks
        .iter()
        .map(|d| {
            d.main.iter().filter(|i| **i == index).count() + usize::from(d.commander == Some(index))
        })
        .sum()
}

fn numbers(c: &CardDef) -> String {
    let mut s = format!("{} {} - cost {}", c.faction.zh(), c.kind.zh(), c.cost);
    if c.kind == Kind::Unit {
        s += &format!(", attack {}, health {}", c.attack, c.health);
    }
    if !c.keywords.is_empty() {
        let k: Vec<&str> = c.keywords.iter().map(|k| k.name_zh()).collect();
        s += &format!(", {}", k.join(" "));
    }
    s
}

fn setup_lines(cat: &Catalogue, decks: &[Deck], printed: usize) -> Vec<String> {
    let mut lines = vec![
        "## What to print".to_string(),
        "Print at 100 % (\"actual size\"), never \"fit to page\". Card pages are printed on both sides, flipping on the long edge: every card has the same back, which the camera reads as a face-down card.".to_string(),
        format!("{printed} cards, 63 x 88 mm, cut along the marks. They make these decks:"),
    ];
    for d in decks {
        lines.push(format!(
            "  {}: {} cards",
            d.name,
            d.main.len() + usize::from(d.commander.is_some())
        ));
    }
    lines.extend([
        "The mat (duel-2x5) holds both sides' five 陣地; print its tiles, cut each at its picture's edge, lay it over its neighbours up to the dashed lines and tape. Each player's territories lie in a row between the player and the mat; tap one by turning it sideways.".to_string(),
        "## The camera".to_string(),
        "Anywhere it sees the mat's four markers and both rows: overhead, or from one player's side.".to_string(),
        "## Then".to_string(),
        "arbiter duel table --source camera:0. The card reference at the end of this file lists every card's numbers and text.".to_string(),
    ]);
    let unused = cat
        .cards
        .iter()
        .enumerate()
        .filter(|(i, _)| copies(decks, *i) == 0)
        .count();
    if unused > 0 {
        lines.push(format!(
            "{unused} catalogue cards are in neither deck and are not printed; they are in the reference."
        ));
    }
    lines
}

fn reference_lines(cat: &Catalogue, decks: &[Deck]) -> Vec<String> {
    let mut lines = vec!["## Cards".to_string()];
    for (i, c) in cat.cards.iter().enumerate() {
        lines.push(format!(
            "{}  {} / {} - {} (x{} printed)",
            c.id,
            c.name,
            c.en,
            numbers(c),
            copies(decks, i)
        ));
        if !c.text.is_empty() {
            lines.push(format!("    {}", c.text));
        }
    }
    lines
}

/// The kit for playing `decks` (cards from `cat`).
pub fn kit(cat: &Catalogue, decks: &[Deck]) -> Result<Kit, VisionError> {
    let mut faces = render_faces(cat)?;
    let back = match faces.pop() {
        Some((id, back)) if id == BACK_ID => back,
        _ => {
            return Err(VisionError::Other(
                "the Duel faces came without their back".into(),
            ))
        }
    };
    let cards: Vec<KitCard> = faces
        .into_iter()
        .enumerate()
        .map(|(i, (id, front))| KitCard {
            id,
            front,
            back: 0,
            copies: copies(decks, i),
        })
        .filter(|k| k.copies > 0)
        .collect();
    let printed = cards.iter().map(|k| k.copies).sum();
    let layout = MatLayout::duel();
    Ok(Kit {
        card_mm: [CARD_W_MM, CARD_H_MM],
        cards,
        backs: vec![back],
        mats: vec![KitMat {
            name: layout.name.clone(),
            image: render_mat(&layout, MAT_PX_PER_MM)?,
            px_per_mm: MAT_PX_PER_MM,
        }],
        setup: text_pages(
            "陣面對決 Duel - print-and-play kit",
            &setup_lines(cat, decks, printed),
        )?,
        reference: text_pages("Duel - card reference", &reference_lines(cat, decks))?,
    })
}
