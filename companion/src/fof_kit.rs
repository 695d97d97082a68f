//! The Fields of Fire print-and-play kit: the demo action deck as cards (every field in both
//! languages) with one back, and the set-up sheet. The map, counters and rules are the published
//! game's and are not printed.

use crate::fof_panel::card::{experience_zh, icon_zh};
use fof::card::{ActionCard, Experience};
use vision::kit::{plain_back, text_card, text_pages, Kit, KitCard};

fn body(c: &ActionCard) -> Vec<String> {
    let mut lines = vec![
        format!(
            "启动指令 Command {} · 主动 Initiative {}",
            c.command, c.initiative
        ),
        format!("有效射击 Effective fire ≥ {:+}", c.effective_fire),
    ];
    for e in Experience::ALL {
        let hit = c.hit.for_experience(e);
        lines.push(format!(
            "命中 Hit {} {}: {} {}",
            experience_zh(e),
            e.name(),
            hit.zh(),
            hit.name()
        ));
    }
    lines.push(format!(
        "接敌 PC contact: {} {}",
        c.contact.zh(),
        c.contact.name()
    ));
    if !c.icons.is_empty() {
        let icons: Vec<String> = c
            .icons
            .iter()
            .map(|i| format!("{} {}", icon_zh(*i), i.name()))
            .collect();
        lines.push(format!("图标 Icons: {}", icons.join(", ")));
    }
    if c.at_modifier != 0 {
        lines.push(format!("反坦克 AT modifier {:+}", c.at_modifier));
    }
    if c.hq_radio {
        lines.push("HQ 无线电 radio".to_string());
    }
    lines
}

fn setup_lines(cards: usize) -> Vec<String> {
    vec![
        "## What to print".to_string(),
        "Print at 100 % (\"actual size\"), never \"fit to page\". Card pages are printed on both sides, flipping on the long edge.".to_string(),
        format!("The Arbiter demo action deck: {cards} cards, 63 x 88 mm. Its values are invented, not the published deck's."),
        "The map, counters and rulebook are the published game's: use your own copy.".to_string(),
        "## Playing".to_string(),
        "arbiter fof new --mission models/catalogues/fof/demo-mission.toml --seed N starts a game on this deck: Arbiter draws and shows each card, and these printed cards are the same deck in your hand.".to_string(),
        "To draw from the printed deck yourself, add --physical 50: Arbiter names the number to take, you read the card.".to_string(),
        "arbiter fof panel opens the window: the turn sequence, the command points and the last card drawn, large.".to_string(),
    ]
}

/// The kit for `cards` (the action deck).
pub fn kit(cards: &[ActionCard]) -> Result<Kit, vision::VisionError> {
    let back = plain_back("FIELDS OF FIRE", "行动牌 ACTION", [45, 60, 70])?;
    let mut out = Vec::new();
    for c in cards {
        out.push(KitCard {
            id: format!("action-{:02}", c.number),
            front: text_card(
                [50, 70, 85],
                &format!("#{}", c.number),
                &format!("R# {}", c.r),
                &body(c),
            )?,
            back: 0,
            copies: 1,
        });
    }
    Ok(Kit {
        card_mm: [vision::face::CARD_W_MM, vision::face::CARD_H_MM],
        cards: out,
        backs: vec![back],
        mats: Vec::new(),
        setup: text_pages(
            "Fields of Fire - print-and-play action deck",
            &setup_lines(cards.len()),
        )?,
        reference: text_pages(
            "Fields of Fire - action deck reference",
            &cards.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        )?,
    })
}

#[cfg(test)]
mod tests {
    use vision::kit::{write_pdf, KitPage};

    #[test]
    fn the_demo_deck_prints_every_card_once_with_its_back() {
        let deck = fof::deck::Deck::demo().expect("shipped deck");
        let fof::deck::DeckKind::Digital(cards) = &deck.kind else {
            panic!("the shipped deck lists its cards");
        };
        let kit = super::kit(cards).expect("kit");
        let path = std::env::temp_dir().join(format!("arbiter-fof-kit-{}.pdf", std::process::id()));
        let pages = write_pdf(&kit, &path, vision::kit::Paper::A4).expect("pdf");
        let fronts: Vec<&String> = pages
            .iter()
            .filter_map(|p| match p {
                KitPage::Fronts { cards } => Some(cards),
                _ => None,
            })
            .flatten()
            .collect();
        assert_eq!(fronts.len(), cards.len());
        let backs = pages
            .iter()
            .filter(|p| matches!(p, KitPage::Backs { .. }))
            .count();
        assert_eq!(backs, cards.len().div_ceil(9));
        assert_eq!(fronts[0], "action-01");
        let _ = std::fs::remove_file(&path);
    }
}
