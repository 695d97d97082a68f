//! The 风声 print-and-play kit: the intelligence deck (every copy) with one shared back, the
//! identity and character cards with their own backs, the nine seat cards, the set-up sheet and
//! the card reference.

use super::faces::{colour_en, colour_zh, faces, render_faces};
use super::markers::{render_seat_card, MAX_SEATS};
use crate::face::{CARD_H_MM, CARD_W_MM, PX_PER_MM};
use crate::kit::{plain_back, text_card, text_pages, Kit, KitCard};
use crate::VisionError;
use message::catalogue::{Catalogue, Character, IdentityCounts, Skill};

const INTELLIGENCE_BACK: usize = 0;
const IDENTITY_BACK: usize = 1;
const CHARACTER_BACK: usize = 2;
const SEAT_BACK: usize = 3;

fn skill_text(s: &Skill) -> String {
    match s {
        Skill::ExtraDraw { count } => format!("抽牌阶段多抽 {count} 张 · Draw {count} more in your draw phase"),
        Skill::LockImmune => "不能成为锁定的目标 · Cannot be locked".to_string(),
        Skill::LureImmune => "不能成为调虎离山的目标 · Cannot be lured away".to_string(),
        Skill::DrawOnBlack { count } => {
            format!("收到黑情报后抽 {count} 张 · After receiving a black intelligence, draw {count}")
        }
        Skill::DeathDraw { count } => format!(
            "死亡时当前回合玩家抽 {count} 张 · When this character dies, the player whose turn it is draws {count}"
        ),
    }
}

fn character_body(c: &Character) -> Vec<String> {
    let mut body: Vec<String> = c.skills.iter().map(skill_text).collect();
    body.push(format!("机密任务: {}", c.mission_zh));
    body.push(format!("Secret mission: {}", c.mission_en));
    if c.hidden {
        body.push("潜伏: 背面朝上 · kept face down".to_string());
    }
    body
}

/// How many cards of each identity the largest table needs: the most any row of the identity
/// table deals, standard or optional.
fn identity_cards(cat: &Catalogue) -> IdentityCounts {
    let mut most = IdentityCounts {
        lurker: 0,
        bureau: 0,
        neutral: 0,
    };
    for row in &cat.identities {
        for c in std::iter::once(row.standard).chain(row.optional) {
            most.lurker = most.lurker.max(c.lurker);
            most.bureau = most.bureau.max(c.bureau);
            most.neutral = most.neutral.max(c.neutral);
        }
    }
    most
}

fn setup_lines(cat: &Catalogue, deck: usize, ids: IdentityCounts) -> Vec<String> {
    vec![
        "## What to print".to_string(),
        "Print at 100 % (\"actual size\"), never \"fit to page\". Card pages are printed on both sides, flipping on the long edge.".to_string(),
        format!("Intelligence deck: {deck} cards, one back for all."),
        format!(
            "Identity cards: {} 潜伏战线 (lurker), {} 军情局 (bureau), {} 打酱油的 (neutral): enough for the largest table.",
            ids.lurker, ids.bureau, ids.neutral
        ),
        format!("Character cards: {}.", cat.characters.len()),
        format!("Seat cards: {MAX_SEATS}, one in front of each player (seat 1 first, then to the right)."),
        "## The table".to_string(),
        "Each player lays their seat card in front of them and their face-up intelligence just beyond it, towards the middle. Identities stay face down.".to_string(),
        "## The camera".to_string(),
        "Anywhere it sees every seat card: overhead is best; from one side works if no seat is hidden behind another.".to_string(),
        "## Then".to_string(),
        "arbiter message table --source camera:0. The card reference at the end of this file lists every card.".to_string(),
    ]
}

fn reference_lines(cat: &Catalogue) -> Vec<String> {
    let mut lines = vec!["## Intelligence".to_string()];
    for f in faces(cat) {
        lines.push(format!(
            "{}  {} {} / {} {} - {} (x{})",
            f.id,
            colour_zh(f.colour),
            f.kind.zh(),
            colour_en(f.colour),
            f.kind.en(),
            f.method.zh(),
            f.copies
        ));
    }
    lines.push("## Characters".to_string());
    for c in &cat.characters {
        lines.push(format!("{}  {} / {}", c.id, c.name_zh, c.name_en));
        for l in character_body(c) {
            lines.push(format!("    {l}"));
        }
    }
    lines
}

/// The whole kit for `cat`.
pub fn kit(cat: &Catalogue) -> Result<Kit, VisionError> {
    let faces = faces(cat);
    let rendered = render_faces(&faces)?;
    let mut cards: Vec<KitCard> = faces
        .iter()
        .zip(rendered)
        .map(|(f, (id, front))| KitCard {
            id,
            front,
            back: INTELLIGENCE_BACK,
            copies: f.copies,
        })
        .collect();
    let deck = cards.iter().map(|k| k.copies).sum();
    let ids = identity_cards(cat);
    for (id, zh, en, bgr, n) in [
        (
            "identity-lurker",
            "潜伏战线",
            "LURKER",
            [40, 40, 205],
            ids.lurker,
        ),
        (
            "identity-bureau",
            "军情局",
            "BUREAU",
            [195, 95, 20],
            ids.bureau,
        ),
        (
            "identity-neutral",
            "打酱油的",
            "NEUTRAL",
            [90, 90, 90],
            ids.neutral,
        ),
    ] {
        cards.push(KitCard {
            id: id.to_string(),
            front: text_card(bgr, zh, en, &[])?,
            back: IDENTITY_BACK,
            copies: n as usize,
        });
    }
    for c in &cat.characters {
        cards.push(KitCard {
            id: c.id.clone(),
            front: text_card([60, 70, 40], &c.name_zh, &c.name_en, &character_body(c))?,
            back: CHARACTER_BACK,
            copies: 1,
        });
    }
    for s in 0..MAX_SEATS {
        cards.push(KitCard {
            id: format!("seat-{}", s + 1),
            front: render_seat_card(s, PX_PER_MM)?,
            back: SEAT_BACK,
            copies: 1,
        });
    }
    let backs = vec![
        plain_back("风声", "情报 INTELLIGENCE", [50, 45, 40])?,
        plain_back("风声", "身份 IDENTITY", [30, 30, 30])?,
        plain_back("风声", "角色 CHARACTER", [60, 70, 40])?,
        plain_back("风声", "座位 SEAT", [140, 140, 140])?,
    ];
    Ok(Kit {
        card_mm: [CARD_W_MM, CARD_H_MM],
        cards,
        backs,
        mats: Vec::new(),
        setup: text_pages(
            "风声 The Message - print-and-play kit",
            &setup_lines(cat, deck, ids),
        )?,
        reference: text_pages("风声 - card reference", &reference_lines(cat))?,
    })
}
