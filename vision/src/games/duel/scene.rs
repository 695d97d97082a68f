//! Synthetic Duel table scenes from a seed: the Duel mat (or none), units in 陣地 (some tapped), each
//! side's territories in its strip (face up or the card back, some tapped), sometimes a hand, seen by
//! the same tilted, blurred, glared webcam as the Blitz scenes. Same seed, same scene.

use super::faces::BACK_ID;
use super::read::DuelTableView;
use crate::face::{CARD_H_MM, CARD_W_MM};
use crate::geometry::{self, point_in_convex, H3};
use crate::mats::{mat_pixel, render_mat, MatLayout, BORDER_MM};
use crate::scene::{
    coverage, draw_hand, paste_card, photograph, table_canvas, Background, Photo, SceneParams,
    TABLE_PX_PER_MM,
};
use crate::types::{DuelSide, ObservedCard, Orientation, TableObservation};
use crate::VisionError;
use duel::catalogue::{Catalogue, Kind};
use opencv::core::{Mat, Rect, Scalar, Size, CV_8UC1};
use opencv::imgproc::{self, INTER_AREA};
use opencv::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Table image extent in mat mm (the camera sees beyond the mat at a steep tilt).
const TABLE_X: (f64, f64) = (-550.0, 1050.0);
const TABLE_Y: (f64, f64) = (-420.0, 620.0);
/// What the camera frames: the mat with both territory strips.
const FRAME_X: (f64, f64) = (-100.0, 600.0);
const FRAME_Y: (f64, f64) = (-160.0, 360.0);
/// Territory rows: centre depth of each side's strip, and the spacing along it.
const NEAR_STRIP_Y: f64 = -78.0;
const FAR_STRIP_Y: f64 = 278.0;
const STRIP_PITCH: f64 = 100.0;

/// Where a card lies on the Duel table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "zone")]
pub enum Place {
    /// 陣地 `slot` (0–4 from the viewer's left).
    Slot { side: DuelSide, slot: u8 },
    /// The `index`-th territory from the viewer's left in that side's strip.
    Territory { side: DuelSide, index: u8 },
}

/// One card to lay (a scripted table) or laid (the truth).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LaidCard {
    /// Catalogue id, or [`BACK_ID`] for a face-down territory.
    pub card: String,
    pub place: Place,
    pub tapped: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TruthCard {
    /// Catalogue id, or [`BACK_ID`] for a face-down territory.
    pub card: String,
    pub place: Place,
    pub tapped: bool,
    /// Image corners: the card's own top-left, top-right, bottom-right, bottom-left.
    pub corners: [[f32; 2]; 4],
    pub center: [f32; 2],
    /// Partly under the hand.
    pub covered: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DuelTruth {
    pub params: SceneParams,
    pub cards: Vec<TruthCard>,
    /// Mat mm → undistorted image pixels.
    pub table_to_image: H3,
}

pub struct DuelScene {
    pub image: Mat,
    pub truth: DuelTruth,
}

/// `None` fields are drawn from the seed.
#[derive(Clone, Debug, Default)]
pub struct DuelSceneOptions {
    pub width: Option<i32>,
    pub height: Option<i32>,
    pub aruco_mat: Option<bool>,
    pub hand: Option<bool>,
    /// Lay exactly these cards (a scripted table) instead of a random one.
    pub layout: Option<Vec<LaidCard>>,
    /// Face up/down camera conditions kept mild (for scripted demo frames).
    pub gentle: bool,
    /// Where the camera may stand, one drawn per scene (empty: behind the near player).
    pub placements: Vec<crate::scene::Placement>,
}

/// Keeps every face (and the back) pre-scaled to table resolution.
pub struct DuelSceneRenderer {
    faces: HashMap<String, Mat>,
    units: Vec<String>,
    lands: Vec<String>,
    mat: Mat,
}

impl DuelSceneRenderer {
    pub fn new(catalogue: &Catalogue) -> Result<DuelSceneRenderer, VisionError> {
        let w = (CARD_W_MM * TABLE_PX_PER_MM).round() as i32;
        let h = (CARD_H_MM * TABLE_PX_PER_MM).round() as i32;
        let mut faces = HashMap::new();
        // The very faces the references are made from (designed together, see crate::distinct).
        for (id, face) in super::faces::render_faces(catalogue)? {
            let mut small = Mat::default();
            imgproc::resize(&face, &mut small, Size::new(w, h), 0.0, 0.0, INTER_AREA)?;
            faces.insert(id, small);
        }
        let ids = |k: Kind| -> Vec<String> {
            catalogue
                .cards
                .iter()
                .filter(|c| c.kind == k)
                .map(|c| c.id.clone())
                .collect()
        };
        Ok(DuelSceneRenderer {
            faces,
            units: ids(Kind::Unit),
            lands: ids(Kind::Territory),
            mat: render_mat(&MatLayout::duel(), TABLE_PX_PER_MM)?,
        })
    }

    fn params(&self, seed: u64, rng: &mut ChaCha8Rng, o: &DuelSceneOptions) -> SceneParams {
        let gentle = o.gentle;
        let background = [
            Background::Wood,
            Background::Cloth,
            Background::LightMat,
            Background::DarkMat,
        ][rng.random_range(0..4)];
        let chance = |rng: &mut ChaCha8Rng, p: f64| !gentle && rng.random_bool(p);
        SceneParams {
            seed,
            width: o.width.unwrap_or(1280),
            height: o.height.unwrap_or(720),
            cols: 5,
            background,
            aruco_mat: o.aruco_mat.unwrap_or_else(|| rng.random_bool(0.85)),
            tilt_deg: rng.random_range(0.0..if gentle { 20.0 } else { 40.0 }),
            roll_deg: rng.random_range(-4.0..4.0),
            distortion_k1: rng.random_range(-0.12..0.06),
            light_gradient: rng.random_range(0.0..0.4),
            glare_spots: if chance(rng, 0.4) {
                rng.random_range(1..3)
            } else {
                0
            },
            glare_strength: rng.random_range(40.0..140.0),
            motion_blur_px: if chance(rng, 0.3) {
                rng.random_range(1.0..4.0)
            } else {
                0.0
            },
            defocus_sigma: if chance(rng, 0.4) {
                rng.random_range(0.3..1.2)
            } else {
                0.0
            },
            noise_sigma: rng.random_range(0.0..if gentle { 2.0 } else { 6.0 }),
            jpeg_quality: rng.random_range(if gentle { 85 } else { 55 }..96),
            hand: {
                let drawn = rng.random_bool(0.2);
                o.hand.unwrap_or(drawn && !gentle)
            },
            stress: None,
            placement: crate::scene::Placement::Allied,
            yaw_deg: 0.0,
        }
    }

    /// A random table: units in some 陣地 (a quarter tapped), up to five territories a side.
    fn random_layout(&self, rng: &mut ChaCha8Rng) -> Vec<LaidCard> {
        let mut laid = Vec::new();
        let occupancy: f64 = rng.random_range(0.3..0.9);
        for side in [DuelSide::Near, DuelSide::Far] {
            for slot in 0..5u8 {
                if self.units.is_empty() || !rng.random_bool(occupancy) {
                    continue;
                }
                let card = self.units[rng.random_range(0..self.units.len())].clone();
                laid.push(LaidCard {
                    card,
                    place: Place::Slot { side, slot },
                    tapped: rng.random_bool(0.25),
                });
            }
            let n = rng.random_range(0..=5u8);
            for index in 0..n {
                let face_down = self.lands.is_empty() || rng.random_bool(0.3);
                let card = if face_down {
                    BACK_ID.to_string()
                } else {
                    self.lands[rng.random_range(0..self.lands.len())].clone()
                };
                laid.push(LaidCard {
                    card,
                    place: Place::Territory { side, index },
                    tapped: rng.random_bool(0.3),
                });
            }
        }
        laid
    }

    /// Centre (mat mm) and orientation (mat terms) of a laid card, with a hand-laid jitter.
    fn pose(rng: &mut ChaCha8Rng, l: &LaidCard) -> ([f64; 2], Orientation) {
        let (side, centre) = match l.place {
            Place::Slot { side, slot } => {
                let row = if side == DuelSide::Near { 0 } else { 1 };
                (side, MatLayout::cell_centre(slot, row))
            }
            Place::Territory { side, index } => {
                let y = if side == DuelSide::Near {
                    NEAR_STRIP_Y
                } else {
                    FAR_STRIP_Y
                };
                (side, [50.0 + index as f64 * STRIP_PITCH, y])
            }
        };
        let orientation = match (side, l.tapped) {
            (DuelSide::Near, false) => Orientation::Upright,
            (DuelSide::Far, false) => Orientation::Inverted,
            (_, true) if rng.random_bool(0.5) => Orientation::TappedLeft,
            (_, true) => Orientation::TappedRight,
        };
        let centre = [
            centre[0] + rng.random_range(-4.0..4.0),
            centre[1] + rng.random_range(-4.0..4.0),
        ];
        (centre, orientation)
    }

    pub fn render(&self, seed: u64, opts: &DuelSceneOptions) -> Result<DuelScene, VisionError> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let params =
            crate::scene::place_camera(self.params(seed, &mut rng, opts), &opts.placements);
        let s = TABLE_PX_PER_MM;
        let (mut table, mm_to_table) = table_canvas(
            &mut rng,
            params.background,
            [TABLE_X.0, TABLE_Y.1],
            TABLE_X.1 - TABLE_X.0,
            TABLE_Y.1 - TABLE_Y.0,
        )?;
        if params.aruco_mat {
            let layout = MatLayout::duel();
            // The mat image's top-left pixel is its far-left paper corner.
            let top_left_mm = [-BORDER_MM, layout.height_mm() + BORDER_MM];
            debug_assert_eq!(mat_pixel(&layout, 1.0, top_left_mm), [0.0, 0.0]);
            let at = geometry::apply(&mm_to_table, top_left_mm);
            let rect = Rect::new(
                at[0].round() as i32,
                at[1].round() as i32,
                self.mat.cols(),
                self.mat.rows(),
            );
            let mut roi = table.roi_mut(rect)?;
            self.mat.copy_to(&mut roi)?;
        }
        let laid = match &opts.layout {
            Some(l) => l.clone(),
            None => self.random_layout(&mut rng),
        };
        let mut placed = Vec::with_capacity(laid.len());
        for l in &laid {
            let face = self.faces.get(&l.card).ok_or_else(|| {
                VisionError::Other(format!("layout names {:?}, not a Duel face", l.card))
            })?;
            let (centre, orientation) = Self::pose(&mut rng, l);
            let angle = orientation.quarter_turns() as f64 * 90.0 + rng.random_range(-3.0..3.0);
            let poly = paste_card(
                &mut table,
                face,
                geometry::apply(&mm_to_table, centre),
                angle,
            )?;
            placed.push((centre, poly));
        }
        let mut covered = vec![false; laid.len()];
        if params.hand {
            // The hand reaches into the framed part of the table (not somewhere off camera).
            let at = geometry::apply(&mm_to_table, [FRAME_X.0, FRAME_Y.1]);
            let rect = Rect::new(
                at[0].round() as i32,
                at[1].round() as i32,
                ((FRAME_X.1 - FRAME_X.0) * s).round() as i32,
                // Beyond the near edge of the frame too, so the arm comes from the viewer's side.
                ((FRAME_Y.1 - FRAME_Y.0 + 120.0) * s).round() as i32,
            );
            let mut part = Mat::roi(&table, rect)?.try_clone()?;
            let part_mask = draw_hand(&mut rng, &mut part)?;
            part.copy_to(&mut table.roi_mut(rect)?)?;
            let mut mask = Mat::new_rows_cols_with_default(
                table.rows(),
                table.cols(),
                CV_8UC1,
                Scalar::all(0.0),
            )?;
            part_mask.copy_to(&mut mask.roi_mut(rect)?)?;
            for (i, (_, poly)) in placed.iter().enumerate() {
                covered[i] = coverage(&mask, poly)? > 0.002;
            }
        }
        let Photo {
            image,
            camera,
            mm_to_image,
            table_to_image,
        } = photograph(
            &table,
            &mm_to_table,
            &params,
            [FRAME_X.0, FRAME_Y.0],
            FRAME_X.1 - FRAME_X.0,
            FRAME_Y.1 - FRAME_Y.0,
            &mut rng,
        )?;
        let cards = laid
            .iter()
            .zip(&placed)
            .zip(&covered)
            .map(|((l, (centre, poly)), covered)| {
                let corners = poly
                    .map(|q| camera.distort(geometry::apply(&table_to_image, q)))
                    .map(|q| [q[0] as f32, q[1] as f32]);
                let c = camera.distort(geometry::apply(&mm_to_image, *centre));
                TruthCard {
                    card: l.card.clone(),
                    place: l.place,
                    tapped: l.tapped,
                    corners,
                    center: [c[0] as f32, c[1] as f32],
                    covered: *covered,
                }
            })
            .collect();
        Ok(DuelScene {
            image,
            truth: DuelTruth {
                params,
                cards,
                table_to_image: mm_to_image,
            },
        })
    }
}

/// How one truth card was read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CardResult {
    pub truth: String,
    pub place: Place,
    pub covered: bool,
    pub detected: bool,
    /// Where the reading put it (`None`: not found, or found and placed nowhere).
    #[serde(default)]
    pub read_place: Option<Place>,
    /// Named right (the back counts as a name).
    pub identity_ok: bool,
    /// In the right 陣地, or among the right side's territories.
    pub place_ok: bool,
    /// A unit in the right 陣地 once the scene's 陣地 are moved along the rows by the one shift
    /// that places most units right: without the mat nothing on the table says which 陣地 is the
    /// first, so the first unit seen is laid in the middle one and the rest follow from it.
    pub slot_up_to_shift_ok: bool,
    pub tapped_ok: bool,
}

/// How a scene was taken, for the report by condition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SceneConditions {
    /// Where the camera stood (overhead, side, end, free, allied).
    pub placement: String,
    /// 0: behind the near player; 90: at the near player's right.
    pub yaw_deg: f64,
    pub tilt_deg: f64,
    pub table: String,
    /// "printed": cards on the mat's 100 mm pitch; "loose": laid by hand at other spacings.
    pub spacing: String,
}

impl SceneConditions {
    fn of(params: &SceneParams) -> SceneConditions {
        SceneConditions {
            placement: params.placement.name().to_string(),
            yaw_deg: params.yaw_deg,
            tilt_deg: params.tilt_deg,
            table: format!("{:?}", params.background).to_lowercase(),
            spacing: "printed".into(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DuelOutcome {
    pub seed: u64,
    pub conditions: SceneConditions,
    pub aruco_mat: bool,
    /// The 陣地 were found (from the mat or the units).
    pub framed: bool,
    pub hand: bool,
    pub cards: Vec<CardResult>,
    /// Observations naming a card that is not there (a wrong id, or no card at all), covered or not.
    pub wrong_named: usize,
    /// Unnamed outlines where no card lies (the mat's paper, the table): at the table each is a
    /// card the tracker waits on.
    #[serde(default)]
    pub phantoms: usize,
    pub total_ms: f64,
}

/// Where the view put the card seen at `center` (the scanner's centre, matched exactly).
fn read_place(view: &DuelTableView, center: [f32; 2]) -> Option<(Place, bool, bool)> {
    for side in [DuelSide::Near, DuelSide::Far] {
        let seen = view.side(side);
        for (i, s) in seen.slots.iter().enumerate() {
            if let Some(s) = s.as_ref().filter(|s| s.center == center) {
                let place = Place::Slot {
                    side,
                    slot: i as u8,
                };
                return Some((place, s.tapped, false));
            }
        }
        for (i, t) in seen.territories.iter().enumerate() {
            if t.center == center {
                let place = Place::Territory {
                    side,
                    index: i as u8,
                };
                return Some((place, t.tapped, t.face_down));
            }
        }
    }
    None
}

/// Compares a frame's reading with its truth. An observation belongs to the truth card whose
/// outline holds its centre.
pub fn compare(truth: &DuelTruth, obs: &TableObservation, view: &DuelTableView) -> DuelOutcome {
    let scene = SceneFacts {
        seed: truth.params.seed,
        conditions: SceneConditions::of(&truth.params),
        aruco_mat: truth.params.aruco_mat,
        hand: truth.params.hand,
    };
    compare_cards(&truth.cards, scene, obs, view)
}

/// What a comparison keeps of a scene beside its cards.
pub struct SceneFacts {
    pub seed: u64,
    pub conditions: SceneConditions,
    pub aruco_mat: bool,
    pub hand: bool,
}

/// [`compare`] for the truth cards of a scene from any renderer.
pub fn compare_cards(
    truth: &[TruthCard],
    scene: SceneFacts,
    obs: &TableObservation,
    view: &DuelTableView,
) -> DuelOutcome {
    let seen: Vec<_> = truth
        .iter()
        .map(|t| {
            let poly = t.corners.map(|p| [p[0] as f64, p[1] as f64]);
            obs.cards
                .iter()
                .find(|o| point_in_convex([o.center[0] as f64, o.center[1] as f64], &poly))
        })
        .collect();
    let read: Vec<Option<(Place, bool, bool)>> = seen
        .iter()
        .map(|o| o.and_then(|o| read_place(view, o.center)))
        .collect();
    let reads: Vec<Option<Place>> = read.iter().map(|r| r.map(|r| r.0)).collect();
    let mut cards: Vec<CardResult> = truth
        .iter()
        .zip(seen.iter().zip(&read))
        .map(|(t, (seen, read))| {
            let place_ok = match (t.place, read) {
                (Place::Slot { .. }, Some((p, _, _))) => *p == t.place,
                (Place::Territory { side, .. }, Some((Place::Territory { side: s, .. }, _, _))) => {
                    *s == side
                }
                _ => false,
            };
            CardResult {
                truth: t.card.clone(),
                place: t.place,
                covered: t.covered,
                detected: seen.is_some(),
                read_place: read.map(|r| r.0),
                identity_ok: seen.is_some_and(|o| o.card.as_deref() == Some(t.card.as_str())),
                place_ok,
                slot_up_to_shift_ok: false,
                tapped_ok: read.is_some_and(|r| r.1 == t.tapped),
            }
        })
        .collect();
    let shifted_ok = |t: &TruthCard, read: Option<Place>, shift: i32| match (t.place, read) {
        (Place::Slot { side, slot }, Some(Place::Slot { side: s, slot: r })) => {
            side == s && r as i32 == slot as i32 + shift
        }
        _ => false,
    };
    let count_at = |shift: i32| {
        truth
            .iter()
            .zip(&reads)
            .filter(|(t, r)| shifted_ok(t, **r, shift))
            .count()
    };
    let best_shift = (-4..=4)
        .max_by_key(|&s| (count_at(s), -s.abs()))
        .unwrap_or(0);
    for ((c, t), r) in cards.iter_mut().zip(truth).zip(&reads) {
        c.slot_up_to_shift_ok = shifted_ok(t, *r, best_shift);
    }
    let lies_on = |o: &ObservedCard, id: Option<&str>| {
        let c = [o.center[0] as f64, o.center[1] as f64];
        truth.iter().any(|t| {
            let poly = t.corners.map(|p| [p[0] as f64, p[1] as f64]);
            id.is_none_or(|id| t.card == id) && point_in_convex(c, &poly)
        })
    };
    let wrong_named = obs
        .cards
        .iter()
        .filter(|o| o.card.as_deref().is_some_and(|id| !lies_on(o, Some(id))))
        .count();
    let phantoms = obs
        .cards
        .iter()
        .filter(|o| o.card.is_none() && !lies_on(o, None))
        .count();
    DuelOutcome {
        wrong_named,
        phantoms,
        seed: scene.seed,
        conditions: scene.conditions,
        aruco_mat: scene.aruco_mat,
        framed: view.calibrated,
        hand: scene.hand,
        cards,
        total_ms: obs.timings.total_ms,
    }
}
