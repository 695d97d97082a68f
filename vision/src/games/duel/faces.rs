//! Printed Duel faces: one [`FaceDesign`] per catalogue card and a card back, so a face-down
//! territory is seen as face-down (the reference named [`BACK_ID`]).

use crate::face::FaceDesign;
use crate::identify::ReferenceSet;
use crate::mats::MatLayout;
use crate::sheets::{sheet, write_png};
use crate::VisionError;
use duel::catalogue::{CardDef, Catalogue, Kind};
use duel::Faction;
use opencv::core::Mat;
use std::path::{Path, PathBuf};

/// The reference id of the printed card back.
pub const BACK_ID: &str = "back";

/// Header colour (BGR) by faction: 魏 blue, 蜀 green, 吴 red, 群 ochre, neutral grey.
fn faction_colour(f: Faction) -> [u8; 3] {
    match f {
        Faction::Wei => [150, 70, 25],
        Faction::Shu => [45, 125, 35],
        Faction::Wu => [35, 35, 175],
        Faction::Qun => [20, 120, 170],
        Faction::Neutral => [105, 105, 105],
    }
}

/// The face of one Duel catalogue card: name, faction · type, and its numbers.
pub fn design(card: &CardDef) -> FaceDesign {
    let num = |n: u8| n.to_string();
    let stats = match card.kind {
        Kind::Unit => vec![
            ("费".to_string(), num(card.cost)),
            ("攻".to_string(), num(card.attack)),
            ("防".to_string(), num(card.health)),
        ],
        Kind::Territory => card
            .ability
            .iter()
            .map(|a| ("启".to_string(), num(a.cost)))
            .collect(),
        _ => vec![("费".to_string(), num(card.cost))],
    };
    FaceDesign {
        id: card.id.clone(),
        title: card.name.clone(),
        subtitle: format!("{} · {}", card.faction.zh(), card.kind.zh()),
        colour: faction_colour(card.faction),
        stats,
        pattern: None,
        art: crate::face::id_seed(&card.id),
    }
}

/// The back every Duel card shares: the same frame, its own picture (seeded from "back").
pub fn back_design() -> FaceDesign {
    FaceDesign {
        id: BACK_ID.to_string(),
        title: "陣面對決".to_string(),
        subtitle: "牌背 · CARD BACK".to_string(),
        colour: [70, 25, 60],
        stats: Vec::new(),
        pattern: None,
        art: crate::face::id_seed(BACK_ID),
    }
}

/// Every catalogue face, then the back, rendered at print resolution.
pub fn render_faces(catalogue: &Catalogue) -> Result<Vec<(String, Mat)>, VisionError> {
    // Designed together so no two faces (nor a face and the back) look alike to the matcher.
    let mut designs: Vec<FaceDesign> = catalogue.cards.iter().map(design).collect();
    designs.push(back_design());
    crate::distinct::distinct_faces(designs)
}

/// The reference set the scanner compares against: every face and the back.
pub fn reference_set(faces: &[(String, Mat)]) -> Result<ReferenceSet, VisionError> {
    ReferenceSet::from_faces(faces.iter().map(|(id, m)| (id.as_str(), m)))
}

/// Writes one PNG per face (named by id; `back.png` for the back), A4 sheets of nine, and the Duel
/// mat into `out`. Returns the files written.
pub fn write_print_set(catalogue: &Catalogue, out: &Path) -> Result<Vec<PathBuf>, VisionError> {
    std::fs::create_dir_all(out).map_err(|e| VisionError::io(out, e))?;
    let faces = render_faces(catalogue)?;
    let mut written = Vec::new();
    for (id, face) in &faces {
        let path = out.join(format!("{id}.png"));
        write_png(&path, face)?;
        written.push(path);
    }
    for (page, chunk) in faces.chunks(9).enumerate() {
        let refs: Vec<&Mat> = chunk.iter().map(|(_, m)| m).collect();
        let path = out.join(format!("sheet-{:02}.png", page + 1));
        write_png(&path, &sheet(&refs)?)?;
        written.push(path);
    }
    let layout = MatLayout::duel();
    let path = out.join(format!("mat-{}.png", layout.name));
    write_png(&path, &crate::mats::render_mat(&layout, 10.0)?)?;
    written.push(path);
    Ok(written)
}
