//! The Blitz print-and-play kit: every catalogue card with its faction's back, the 4- and
//! 5-column mats with each cell's name, the set-up sheet and the card reference.

use crate::face::{faction_colour, CARD_H_MM, CARD_W_MM};
use crate::kit::{plain_back, text_pages, Kit, KitCard, KitMat};
use crate::mats::{mat_pixel, render_mat, MatLayout, PITCH_MM};
use crate::VisionError;
use blitz::catalogue::{CardDef, CardKind, Catalogue, Faction};

/// Mats are printed at 6 px/mm (152 dpi): the markers and lines stay sharp, the file stays small.
const MAT_PX_PER_MM: f64 = 6.0;

fn back_index(faction: Option<Faction>) -> usize {
    match faction {
        Some(f) => Faction::ALL.iter().position(|x| *x == f).unwrap_or(0) + 1,
        None => 0,
    }
}

/// One line of a card's numbers, as a player reads them.
fn numbers(card: &CardDef) -> String {
    match &card.kind {
        CardKind::Unit {
            kind,
            attack,
            defence,
            supply,
            range,
            keywords,
        } => {
            let range: Vec<String> = range.iter().map(|(a, f)| format!("({a},{f})")).collect();
            let mut s = format!(
                "unit ({kind:?}) - attack {attack}, defence {defence}, supply level {supply}, range (across,forward) {}",
                range.join(" ")
            );
            if !keywords.is_empty() {
                s += &format!(", {keywords:?}");
            }
            s
        }
        CardKind::Resource {
            level,
            defence,
            supply_range,
        } => format!(
            "resource - level {level}, defence {defence}, supplies {}",
            match supply_range {
                None => "the 8 cells around it".to_string(),
                Some(r) => r
                    .iter()
                    .map(|(a, f)| format!("({a},{f})"))
                    .collect::<Vec<_>>()
                    .join(" "),
            }
        ),
        CardKind::Facility { defence, effect } => {
            format!("facility - defence {defence}, {effect:?}")
        }
        CardKind::Skill { effect } => format!("skill - {effect:?}"),
        CardKind::Frontline => "front-line card".to_string(),
    }
}

fn side_name(faction: Option<Faction>) -> String {
    match faction {
        Some(f) => format!("{} {}", f.name_zh(), f.name_en()),
        None => "前线 Front line".to_string(),
    }
}

/// The mat with each cell's name (A1 is the Allied side's left corner) in its corner.
fn labelled_mat(cols: u8) -> Result<KitMat, VisionError> {
    let layout = MatLayout::blitz(cols);
    let mut image = render_mat(&layout, MAT_PX_PER_MM)?;
    for row in 0..layout.rows {
        for col in 0..layout.cols {
            let name = blitz::board::Cell::new(col as i8, row as i8).to_string();
            let at = mat_pixel(
                &layout,
                MAT_PX_PER_MM,
                [
                    col as f64 * PITCH_MM + 4.0,
                    (row + 1) as f64 * PITCH_MM - 12.0,
                ],
            );
            crate::font::draw_text(
                &mut image,
                &name,
                at[0] as f32,
                at[1] as f32,
                (8.0 * MAT_PX_PER_MM) as f32,
                [150, 150, 150],
            )?;
        }
    }
    Ok(KitMat {
        name: layout.name.clone(),
        image,
        px_per_mm: MAT_PX_PER_MM,
    })
}

fn setup_lines(cat: &Catalogue) -> Vec<String> {
    let count = |f: Option<Faction>| cat.cards.iter().filter(|c| c.faction == f).count();
    let mut lines = vec![
        "## What to print".to_string(),
        "Print at 100 % (\"actual size\"), never \"fit to page\". Card pages are printed on both sides, flipping on the long edge: the page after each fronts page holds those cards' backs.".to_string(),
        format!("{} cards, 63 x 88 mm, cut along the marks:", cat.cards.len()),
    ];
    for f in [
        None,
        Some(Faction::Us),
        Some(Faction::Uk),
        Some(Faction::Ss),
        Some(Faction::Wh),
    ] {
        lines.push(format!("  {}: {} cards", side_name(f), count(f)));
    }
    lines.extend([
        "The mat is optional: Arbiter finds the grid from the cards themselves. If you want it, print only the one for your game (blitz-4x7 for four front-line cards, blitz-5x7 for five); each tile's place is printed at its foot. Cut each tile at its picture's edge and lay it over its neighbours up to the dashed lines, then tape.".to_string(),
        "## The table".to_string(),
        "Lay the front-line cards in a row across the middle; the Allied player sits at row 1, the Axis player at the far end. Cells are 100 mm apart.".to_string(),
        "## The camera".to_string(),
        "Anywhere it sees the whole grid: overhead is best, from the side or behind a player works if every card shows at least a finger's width. Keep hands out of the picture when you end a step; Arbiter commits only what stays still.".to_string(),
        "## Then".to_string(),
        "arbiter play --source camera:0  (or a video file). The card reference at the end of this file lists every card's numbers and text.".to_string(),
    ]);
    lines
}

fn reference_lines(cat: &Catalogue) -> Vec<String> {
    let mut lines = Vec::new();
    for f in [
        None,
        Some(Faction::Us),
        Some(Faction::Uk),
        Some(Faction::Ss),
        Some(Faction::Wh),
    ] {
        lines.push(format!("## {}", side_name(f)));
        for c in cat.cards.iter().filter(|c| c.faction == f) {
            lines.push(format!(
                "{}  {} / {} - {}",
                c.id,
                c.name_zh,
                c.name_en,
                numbers(c)
            ));
            for t in [&c.text_zh, &c.text_en] {
                if !t.is_empty() {
                    lines.push(format!("    {t}"));
                }
            }
        }
    }
    lines
}

/// The whole kit for `cat`.
pub fn kit(cat: &Catalogue) -> Result<Kit, VisionError> {
    let faces = crate::distinct::blitz_faces(&cat.cards)?;
    let mut backs = Vec::new();
    for f in [
        None,
        Some(Faction::Us),
        Some(Faction::Uk),
        Some(Faction::Ss),
        Some(Faction::Wh),
    ] {
        backs.push(plain_back(
            "死亡前线 · BLITZ",
            &side_name(f),
            faction_colour(f),
        )?);
    }
    let cards = cat
        .cards
        .iter()
        .zip(faces)
        .map(|(def, (id, front))| KitCard {
            id,
            front,
            back: back_index(def.faction),
            copies: 1,
        })
        .collect();
    Ok(Kit {
        card_mm: [CARD_W_MM, CARD_H_MM],
        cards,
        backs,
        mats: vec![labelled_mat(4)?, labelled_mat(5)?],
        setup: text_pages(
            "死亡前线-闪电战 Blitz - print-and-play kit",
            &setup_lines(cat),
        )?,
        reference: text_pages("Blitz - card reference", &reference_lines(cat))?,
    })
}
