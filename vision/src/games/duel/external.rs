//! Duel tables drawn by another compositor (models/detect/export_duel.py, which shares no code with
//! [`super::scene`]): a folder of images and a manifest.json with each card's id, image corners,
//! place and tap, and each scene's camera and the image direction toward the near player.

use super::read::{read_table, TerritoryStrips};
use super::scene::{compare_cards, DuelOutcome, Place, SceneConditions, SceneFacts, TruthCard};
use crate::types::TableObservation;
use crate::{Scanner, VisionError};
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct Manifest {
    scenes: Vec<ExternalScene>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct ExternalScene {
    /// Relative to the manifest's folder.
    pub image: PathBuf,
    pub seed: u64,
    pub placement: String,
    pub yaw_deg: f64,
    pub tilt_deg: f64,
    pub table: String,
    pub mat: bool,
    pub spacing: String,
    #[serde(default)]
    pub hand: bool,
    /// The image direction toward the near player (what the players tell the panel).
    pub near_direction: [f64; 2],
    pub cards: Vec<ExternalCard>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct ExternalCard {
    pub id: String,
    /// Image pixels, the card's own top-left first.
    pub corners: [[f32; 2]; 4],
    pub place: Place,
    pub tapped: bool,
    pub covered: bool,
}

impl ExternalScene {
    fn truth(&self) -> Vec<TruthCard> {
        self.cards
            .iter()
            .map(|c| {
                let n = 4.0;
                let center = c
                    .corners
                    .iter()
                    .fold([0.0f32; 2], |a, p| [a[0] + p[0] / n, a[1] + p[1] / n]);
                TruthCard {
                    card: c.id.clone(),
                    place: c.place,
                    tapped: c.tapped,
                    corners: c.corners,
                    center,
                    covered: c.covered,
                }
            })
            .collect()
    }

    fn facts(&self) -> SceneFacts {
        SceneFacts {
            seed: self.seed,
            conditions: SceneConditions {
                placement: self.placement.clone(),
                yaw_deg: self.yaw_deg,
                tilt_deg: self.tilt_deg,
                table: self.table.clone(),
                spacing: self.spacing.clone(),
            },
            aruco_mat: self.mat,
            hand: self.hand,
        }
    }
}

/// The scenes of `dir`/manifest.json; an error names the file and what is wrong in it.
pub fn load_scenes(dir: &Path) -> Result<Vec<ExternalScene>, VisionError> {
    let path = dir.join("manifest.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| VisionError::Other(format!("{}: {e}", path.display())))?;
    let manifest: Manifest = serde_json::from_str(&text).map_err(|e| {
        VisionError::Other(format!(
            "{}:{}:{}: not a Duel scene manifest: {e}",
            path.display(),
            e.line(),
            e.column()
        ))
    })?;
    Ok(manifest.scenes)
}

/// Scans and reads each scene of `dir`, the players' near side given from the manifest as the
/// panel asks it once; `each` is called after every scene.
pub fn run_external(
    scanner: &mut Scanner,
    dir: &Path,
    scenes: &[ExternalScene],
    mut each: impl FnMut(&ExternalScene, &TableObservation, &DuelOutcome),
) -> Result<Vec<DuelOutcome>, VisionError> {
    let strips = TerritoryStrips::duel();
    let mut out = Vec::with_capacity(scenes.len());
    for (i, scene) in scenes.iter().enumerate() {
        let path = dir.join(&scene.image);
        let image = crate::pipeline::read_image(&path)?;
        scanner.options.allied_towards = Some(scene.near_direction);
        let obs = scanner.scan(&image, i as u64)?;
        let view = read_table(&obs, &strips);
        let outcome = compare_cards(&scene.truth(), scene.facts(), &obs, &view);
        each(scene, &obs, &outcome);
        out.push(outcome);
    }
    Ok(out)
}
