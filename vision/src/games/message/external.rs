//! 风声 tables drawn by another compositor (models/detect/export_message.py, which shares no code
//! with [`super::scene`]): a folder of images and a manifest.json with each card's face id, seat,
//! image corners, overlapped and covered, and each scene's seats, camera and table. The seats are
//! read from the seat cards on the table only; a scene where one is not seen has no seat regions
//! (its cards count as in no seat).

use super::eval::{compare_cards, MessageConditions, MessageOutcome};
use super::faces::MessageFace;
use super::markers::read_with_seat_cards;
use super::read::SeatCard;
use super::scene::MessageTruthCard;
use super::seats::{SeatRegion, SeatRegions};
use crate::{Scanner, VisionError};
use opencv::prelude::*;
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct Manifest {
    scenes: Vec<ExternalMessageScene>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct ExternalMessageScene {
    /// Relative to the manifest's folder.
    pub image: PathBuf,
    pub seed: u64,
    pub seats: usize,
    pub placement: String,
    pub yaw_deg: f64,
    pub tilt_deg: f64,
    pub table: String,
    #[serde(default)]
    pub hand: bool,
    pub cards: Vec<ExternalMessageCard>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct ExternalMessageCard {
    /// The face id (`arbiter print --game message` names each face file by it).
    pub id: String,
    /// 0-based, in passing order.
    pub seat: usize,
    /// Image pixels, the card's own top-left first.
    pub corners: [[f32; 2]; 4],
    /// A later card of its row lies on part of it.
    pub overlapped: bool,
    /// Part of it under a hand or out of the frame.
    pub covered: bool,
}

impl ExternalMessageScene {
    fn truth(
        &self,
        faces: &[MessageFace],
        manifest: &Path,
    ) -> Result<Vec<MessageTruthCard>, VisionError> {
        self.cards
            .iter()
            .map(|c| {
                let face = faces.iter().find(|f| f.id == c.id).ok_or_else(|| {
                    VisionError::Other(format!(
                        "{}: scene {}: `{}` is not a 风声 face of the shipped catalogue",
                        manifest.display(),
                        self.seed,
                        c.id
                    ))
                })?;
                let center = c
                    .corners
                    .iter()
                    .fold([0.0f32; 2], |a, p| [a[0] + p[0] / 4.0, a[1] + p[1] / 4.0]);
                Ok(MessageTruthCard {
                    face: c.id.clone(),
                    colour: face.colour,
                    seat: c.seat,
                    corners: c.corners,
                    center,
                    overlapped: c.overlapped,
                    under_hand: c.covered,
                })
            })
            .collect()
    }

    fn conditions(&self) -> MessageConditions {
        MessageConditions {
            placement: self.placement.clone(),
            yaw_deg: self.yaw_deg,
            tilt_deg: self.tilt_deg,
            table: self.table.clone(),
            hand: self.hand,
        }
    }
}

/// The scenes of `dir`/manifest.json; an error names the file and what is wrong in it.
pub fn load_scenes(dir: &Path) -> Result<Vec<ExternalMessageScene>, VisionError> {
    let path = dir.join("manifest.json");
    let text = std::fs::read_to_string(&path).map_err(|e| VisionError::io(&path, e))?;
    let manifest: Manifest = serde_json::from_str(&text).map_err(|e| VisionError::Data {
        path: path.clone(),
        reason: format!(
            "line {} column {}: not a 风声 scene manifest: {e}",
            e.line(),
            e.column()
        ),
    })?;
    if let Some(s) = manifest.scenes.iter().find(|s| !(3..=9).contains(&s.seats)) {
        return Err(VisionError::Data {
            path,
            reason: format!(
                "scene {}: 风声 is played by 3 to 9 players, not {}",
                s.seed, s.seats
            ),
        });
    }
    Ok(manifest.scenes)
}

/// Scans each scene of `dir` and reads its seats from the seat cards in view; `each` is called
/// after every scene. The time is the scan plus the seat and colour reading.
pub fn run_external(
    scanner: &Scanner,
    faces: &[MessageFace],
    dir: &Path,
    scenes: &[ExternalMessageScene],
    mut each: impl FnMut(&ExternalMessageScene, &[SeatCard], &MessageOutcome),
) -> Result<Vec<MessageOutcome>, VisionError> {
    let manifest = dir.join("manifest.json");
    let mut out = Vec::with_capacity(scenes.len());
    for (i, scene) in scenes.iter().enumerate() {
        let truth = scene.truth(faces, &manifest)?;
        let image = crate::pipeline::read_image(&dir.join(&scene.image))?;
        let t = std::time::Instant::now();
        let obs = scanner.scan(&image, i as u64)?;
        // No regions drawn for this camera: without every seat card, no card has a seat.
        let none_drawn = SeatRegions {
            image_size: [image.cols() as u32, image.rows() as u32],
            seats: vec![SeatRegion::default(); scene.seats],
        };
        let (read, from_cards) = read_with_seat_cards(&obs, &image, &none_drawn, faces)?;
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        let mut outcome = compare_cards(scene.seed, scene.seats, &truth, &read, ms);
        outcome.seat_card_regions = from_cards.is_some();
        // One picture of each table: no hand-free frame to learn the table from, so only a card
        // read covered with nothing beside it says a hand is there.
        outcome.held = super::read::hand_over_table(&read);
        outcome.conditions = Some(scene.conditions());
        each(scene, &read, &outcome);
        out.push(outcome);
    }
    Ok(out)
}
