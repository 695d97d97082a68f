//! Synthetic table scenes from a seed: printed faces laid on a legal-looking Blitz position, seen by a
//! tilted webcam with distortion, uneven light, glare, blur, noise, JPEG and sometimes a hand.
//! Same seed, same scene: every random choice comes from one ChaCha8 stream.

use crate::face::{CARD_H_MM, CARD_W_MM};
use crate::geometry::{self, H3};
use crate::mats::{render_mat, MatLayout, BORDER_MM};
use crate::types::{Cell, Orientation};
use crate::VisionError;
use blitz::catalogue::{CardDef, CardKind, Catalogue, Side};
use opencv::core::{
    Mat, Point, Rect, Scalar, Size, Vector, BORDER_CONSTANT, BORDER_TRANSPARENT, CV_32FC1, CV_8UC1,
    CV_8UC3,
};
use opencv::imgproc::{self, INTER_AREA, INTER_LINEAR};
use opencv::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Table image resolution used while composing (before the camera projection).
pub const TABLE_PX_PER_MM: f64 = 2.0;
/// How far the composed table extends beyond the grid (sideways more: the frame is landscape).
const TABLE_MARGIN_X_MM: f64 = 450.0;
const TABLE_MARGIN_Y_MM: f64 = 220.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Background {
    Wood,
    Cloth,
    LightMat,
    DarkMat,
}

/// Every knob the seed turned, recorded in the ground truth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SceneParams {
    pub seed: u64,
    pub width: i32,
    pub height: i32,
    pub cols: u8,
    pub background: Background,
    pub aruco_mat: bool,
    pub tilt_deg: f64,
    pub roll_deg: f64,
    pub distortion_k1: f64,
    pub light_gradient: f64,
    pub glare_spots: u32,
    pub glare_strength: f64,
    pub motion_blur_px: f64,
    pub defocus_sigma: f64,
    pub noise_sigma: f64,
    pub jpeg_quality: i32,
    pub hand: bool,
    /// The hard condition laid over the scene, if any.
    #[serde(default)]
    pub stress: Option<Stress>,
    /// Where the camera stands round the table.
    #[serde(default)]
    pub placement: Placement,
    /// The camera's turn about the table's vertical axis, counter-clockwise seen from above: 0 looks
    /// from the Allied side along the grid, 90 from the grid's right-hand side, 180 from the Axis side.
    #[serde(default)]
    pub yaw_deg: f64,
}

/// Where the webcam stands round the table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// Behind the Allied player, looking along the grid: the set-up the scanner was first built for.
    #[default]
    Allied,
    /// Straight down from an arm (tilt under 12°), the grid's long side along the image's long side.
    Overhead,
    /// At the side of the table between the players, tilted 15–55°.
    Side,
    /// Behind either player, tilted 15–55°.
    End,
    /// Anywhere: yaw over the full circle, tilt 0–55°.
    Free,
}

impl Placement {
    /// Every placement but the first set-up's: `--camera any`.
    pub const ANY: [Placement; 4] = [
        Placement::Overhead,
        Placement::Side,
        Placement::End,
        Placement::Free,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Placement::Allied => "allied",
            Placement::Overhead => "overhead",
            Placement::Side => "side",
            Placement::End => "end",
            Placement::Free => "free",
        }
    }

    /// Yaw and tilt for this placement, drawn from `rng`; `None` keeps the first set-up's.
    fn draw(self, rng: &mut ChaCha8Rng) -> Option<(f64, f64)> {
        let either =
            |rng: &mut ChaCha8Rng, a: f64| if rng.random_bool(0.5) { a } else { a + 180.0 };
        let (yaw, tilt) = match self {
            Placement::Allied => return None,
            Placement::Overhead => (
                either(rng, 90.0) + rng.random_range(-15.0..15.0),
                rng.random_range(0.0..12.0),
            ),
            Placement::Side => (
                either(rng, 90.0) + rng.random_range(-25.0..25.0),
                rng.random_range(15.0..55.0),
            ),
            Placement::End => (
                either(rng, 0.0) + rng.random_range(-25.0..25.0),
                rng.random_range(15.0..55.0),
            ),
            Placement::Free => (rng.random_range(0.0..360.0), rng.random_range(0.0..55.0)),
        };
        Some((yaw.rem_euclid(360.0), tilt))
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TruthCard {
    pub card: String,
    /// Image corners of the card: its own top-left, top-right, bottom-right, bottom-left.
    pub corners: [[f32; 2]; 4],
    pub center: [f32; 2],
    pub orientation: Orientation,
    pub cell: Cell,
    /// Hidden in part by the hand or by a card lying on it.
    pub covered: bool,
    /// Index of the card this one lies on, if stacked.
    pub on_top_of: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SceneTruth {
    pub params: SceneParams,
    pub cards: Vec<TruthCard>,
    /// Table mm → undistorted image pixels.
    pub table_to_image: H3,
}

pub struct Scene {
    pub image: Mat,
    pub truth: SceneTruth,
}

impl SceneTruth {
    /// The cards that lie on nothing and under nothing, as a layout to lay the same table again
    /// (another camera, some cards taken away).
    pub fn loose_cards(&self) -> Vec<LaidCard> {
        self.cards
            .iter()
            .enumerate()
            .filter(|(i, t)| {
                t.on_top_of.is_none() && !self.cards.iter().any(|o| o.on_top_of == Some(*i))
            })
            .filter_map(|(_, t)| match t.cell {
                Cell::Blitz { col, row } => Some(LaidCard {
                    card: t.card.clone(),
                    col,
                    row,
                    orientation: t.orientation,
                    on_top_of: None,
                }),
                _ => None,
            })
            .collect()
    }
}

/// Options for drawing scenes; `None` fields are drawn at random from the seed.
#[derive(Clone, Debug, Default)]
pub struct SceneOptions {
    pub width: Option<i32>,
    pub height: Option<i32>,
    pub aruco_mat: Option<bool>,
    pub cols: Option<u8>,
    /// Lay exactly these cards instead of a random position (the live demo renders a scripted game).
    pub layout: Option<Vec<LaidCard>>,
    /// Force a hand over the table (or none); the seed still decides where it is.
    pub hand: Option<bool>,
    /// Chance that a cell holds a card (default: drawn from 0.6..1.0 per scene).
    pub occupancy: Option<f64>,
    /// Make the scene harder in one way; the layout stays the seed's.
    pub stress: Option<Stress>,
    /// Where the camera may stand, one drawn per scene (its own random stream, so the layout stays
    /// the seed's); empty: behind the Allied player.
    pub placements: Vec<Placement>,
}

/// A hard condition laid over a seed's scene: the cards and where they lie stay the same as without
/// it, only the camera or what lies on the cards changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stress {
    /// Two to four strong glare spots, each on a card (a lamp reflected in the cards' gloss).
    Glare,
    /// Heavy motion blur and defocus together.
    Blur,
    /// A token or die (12–22 mm across, up to 10 % of the frame's hole) on 70 % of the cards,
    /// inside the frame: the card must still be named.
    Cover,
    /// The camera at 45° from straight down, the steepest the product supports.
    Tilt45,
}

impl Stress {
    pub const ALL: [Stress; 4] = [Stress::Glare, Stress::Blur, Stress::Cover, Stress::Tilt45];

    pub fn name(self) -> &'static str {
        match self {
            Stress::Glare => "glare",
            Stress::Blur => "blur",
            Stress::Cover => "cover",
            Stress::Tilt45 => "tilt45",
        }
    }
}

/// One card of a given layout: where it lies and how it is turned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LaidCard {
    pub card: String,
    pub col: u8,
    pub row: u8,
    pub orientation: Orientation,
    /// Index (in the layout) of the card it lies on: a unit on a front-line card or a facility.
    pub on_top_of: Option<usize>,
}

/// Keeps the catalogue's faces pre-scaled to table resolution, so each scene only composes.
pub struct SceneRenderer {
    cards: Vec<CardDef>,
    faces: HashMap<String, Mat>,
    mats: HashMap<u8, Mat>,
}

struct Placed {
    index: usize,
    centre_mm: [f64; 2],
    angle_deg: f64,
    orientation: Orientation,
    cell: (u8, u8),
    on_top_of: Option<usize>,
}

impl SceneRenderer {
    pub fn new(catalogue: &Catalogue) -> Result<SceneRenderer, VisionError> {
        let w = (CARD_W_MM * TABLE_PX_PER_MM).round() as i32;
        let h = (CARD_H_MM * TABLE_PX_PER_MM).round() as i32;
        let mut faces = HashMap::new();
        for (id, face) in crate::distinct::blitz_faces(&catalogue.cards)? {
            let mut small = Mat::default();
            imgproc::resize(&face, &mut small, Size::new(w, h), 0.0, 0.0, INTER_AREA)?;
            faces.insert(id, small);
        }
        let mut mats = HashMap::new();
        for cols in [4u8, 5] {
            mats.insert(cols, render_mat(&MatLayout::blitz(cols), TABLE_PX_PER_MM)?);
        }
        Ok(SceneRenderer {
            cards: catalogue.cards.clone(),
            faces,
            mats,
        })
    }

    pub fn cards(&self) -> &[CardDef] {
        &self.cards
    }

    fn draw_params(&self, seed: u64, rng: &mut ChaCha8Rng, opts: &SceneOptions) -> SceneParams {
        let background = [
            Background::Wood,
            Background::Cloth,
            Background::LightMat,
            Background::DarkMat,
        ][rng.random_range(0..4)];
        SceneParams {
            seed,
            width: opts.width.unwrap_or(1280),
            height: opts.height.unwrap_or(720),
            cols: opts.cols.unwrap_or(4),
            background,
            aruco_mat: opts.aruco_mat.unwrap_or_else(|| rng.random_bool(0.5)),
            tilt_deg: rng.random_range(0.0..45.0),
            roll_deg: rng.random_range(-4.0..4.0),
            distortion_k1: rng.random_range(-0.12..0.06),
            light_gradient: rng.random_range(0.0..0.45),
            glare_spots: if rng.random_bool(0.4) {
                rng.random_range(1..3)
            } else {
                0
            },
            glare_strength: rng.random_range(40.0..140.0),
            motion_blur_px: if rng.random_bool(0.3) {
                rng.random_range(1.0..4.5)
            } else {
                0.0
            },
            defocus_sigma: if rng.random_bool(0.4) {
                rng.random_range(0.3..1.3)
            } else {
                0.0
            },
            noise_sigma: rng.random_range(0.0..6.0),
            jpeg_quality: rng.random_range(55..96),
            hand: {
                let drawn = rng.random_bool(0.2);
                opts.hand.unwrap_or(drawn)
            },
            stress: None,
            placement: Placement::Allied,
            yaw_deg: 0.0,
        }
    }

    /// The seed's camera made harder; drawn from its own stream so the layout stays the seed's.
    fn stressed(mut p: SceneParams, stress: Option<Stress>) -> SceneParams {
        p.stress = stress;
        let mut rng = ChaCha8Rng::seed_from_u64(p.seed ^ STRESS_STREAM);
        match stress {
            None | Some(Stress::Cover) => {}
            // The glare itself is painted on cards (see `draw_glare`); the camera's own stays.
            Some(Stress::Glare) => {}
            Some(Stress::Blur) => {
                p.motion_blur_px = rng.random_range(4.0..6.0);
                p.defocus_sigma = rng.random_range(1.2..1.8);
            }
            Some(Stress::Tilt45) => p.tilt_deg = 45.0,
        }
        p
    }

    /// Chooses a legal-looking position: front-line cards sideways on row 3, Allied cards upright on
    /// rows 0–2, Axis cards upside down on rows 4–6, some tapped, some units stacked.
    fn layout(&self, rng: &mut ChaCha8Rng, cols: u8, occupancy: Option<f64>) -> Vec<Placed> {
        let pick = |pred: &dyn Fn(&CardDef) -> bool| -> Vec<usize> {
            self.cards
                .iter()
                .enumerate()
                .filter(|(_, c)| pred(c))
                .map(|(i, _)| i)
                .collect()
        };
        let side_of = |c: &CardDef| c.faction.map(|f| f.side());
        let is_unit = |c: &CardDef| matches!(c.kind, CardKind::Unit { .. });
        let on_board = |c: &CardDef| {
            matches!(
                c.kind,
                CardKind::Unit { .. } | CardKind::Resource { .. } | CardKind::Facility { .. }
            )
        };
        let mut fronts = pick(&|c| matches!(c.kind, CardKind::Frontline));
        let mut pools: [Vec<usize>; 2] = [
            pick(&|c| side_of(c) == Some(Side::Allied) && on_board(c)),
            pick(&|c| side_of(c) == Some(Side::Axis) && on_board(c)),
        ];
        fronts.shuffle(rng);
        pools[0].shuffle(rng);
        pools[1].shuffle(rng);
        let mut next = |pool: usize, rng: &mut ChaCha8Rng, unit_only: bool| -> Option<usize> {
            let p = &mut pools[pool];
            let pos = p
                .iter()
                .position(|&i| !unit_only || is_unit(&self.cards[i]))?;
            let _ = rng;
            Some(p.remove(pos))
        };
        let drawn: f64 = rng.random_range(0.6..1.0);
        let occupancy = occupancy.unwrap_or(drawn);
        let mut placed = Vec::new();
        let jitter = |rng: &mut ChaCha8Rng, col: u8, row: u8| {
            let c = MatLayout::cell_centre(col, row);
            [
                c[0] + rng.random_range(-4.0..4.0),
                c[1] + rng.random_range(-4.0..4.0),
            ]
        };
        for col in 0..cols {
            let Some(&front) = fronts.get(col as usize % fronts.len().max(1)) else {
                break;
            };
            let orientation = if rng.random_bool(0.5) {
                Orientation::TappedLeft
            } else {
                Orientation::TappedRight
            };
            let base = placed.len();
            placed.push(Placed {
                index: front,
                centre_mm: jitter(rng, col, 3),
                angle_deg: orientation.quarter_turns() as f64 * 90.0 + rng.random_range(-2.5..2.5),
                orientation,
                cell: (col, 3),
                on_top_of: None,
            });
            if rng.random_bool(0.3) {
                let side = rng.random_range(0..2);
                if let Some(unit) = next(side, rng, true) {
                    placed.push(self.place_on(rng, unit, side, base, &placed[base]));
                }
            }
        }
        for row in (0..7u8).filter(|r| *r != 3) {
            let side = if row < 3 { 0 } else { 1 };
            for col in 0..cols {
                if !rng.random_bool(occupancy) {
                    continue;
                }
                let Some(index) = next(side, rng, false) else {
                    continue;
                };
                let card = &self.cards[index];
                let mut orientation = if side == 0 {
                    Orientation::Upright
                } else {
                    Orientation::Inverted
                };
                if is_unit(card) && rng.random_bool(0.2) {
                    orientation = if rng.random_bool(0.5) {
                        Orientation::TappedLeft
                    } else {
                        Orientation::TappedRight
                    };
                }
                let base = placed.len();
                placed.push(Placed {
                    index,
                    centre_mm: jitter(rng, col, row),
                    angle_deg: orientation.quarter_turns() as f64 * 90.0
                        + rng.random_range(-3.0..3.0),
                    orientation,
                    cell: (col, row),
                    on_top_of: None,
                });
                if matches!(card.kind, CardKind::Facility { .. }) && rng.random_bool(0.4) {
                    if let Some(unit) = next(side, rng, true) {
                        placed.push(self.place_on(rng, unit, side, base, &placed[base]));
                    }
                }
            }
        }
        placed
    }

    /// A given layout, with the small jitter a hand-laid card has.
    fn placed_from(
        &self,
        laid: &[LaidCard],
        rng: &mut ChaCha8Rng,
    ) -> Result<Vec<Placed>, VisionError> {
        laid.iter()
            .map(|l| {
                let index = self
                    .cards
                    .iter()
                    .position(|c| c.id == l.card)
                    .ok_or_else(|| {
                        VisionError::Other(format!(
                            "layout names {:?}, not in the catalogue",
                            l.card
                        ))
                    })?;
                let centre = MatLayout::cell_centre(l.col, l.row);
                let offset = if l.on_top_of.is_some() { 6.0 } else { 0.0 };
                Ok(Placed {
                    index,
                    centre_mm: [
                        centre[0] + offset + rng.random_range(-3.0..3.0),
                        centre[1] - offset + rng.random_range(-3.0..3.0),
                    ],
                    angle_deg: l.orientation.quarter_turns() as f64 * 90.0
                        + rng.random_range(-2.5..2.5),
                    orientation: l.orientation,
                    cell: (l.col, l.row),
                    on_top_of: l.on_top_of,
                })
            })
            .collect()
    }

    fn place_on(
        &self,
        rng: &mut ChaCha8Rng,
        index: usize,
        side: usize,
        under: usize,
        base: &Placed,
    ) -> Placed {
        let orientation = if side == 0 {
            Orientation::Upright
        } else {
            Orientation::Inverted
        };
        Placed {
            index,
            centre_mm: [
                base.centre_mm[0] + rng.random_range(-6.0..6.0),
                base.centre_mm[1] + rng.random_range(-6.0..6.0),
            ],
            angle_deg: orientation.quarter_turns() as f64 * 90.0 + rng.random_range(-3.0..3.0),
            orientation,
            cell: base.cell,
            on_top_of: Some(under),
        }
    }

    pub fn render(&self, seed: u64, opts: &SceneOptions) -> Result<Scene, VisionError> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let params = place_camera(self.draw_params(seed, &mut rng, opts), &opts.placements);
        let params = Self::stressed(params, opts.stress);
        let layout_mat = MatLayout::blitz(params.cols);
        let (grid_w, grid_h) = (layout_mat.width_mm(), layout_mat.height_mm());
        let s = TABLE_PX_PER_MM;
        // A camera turned off the grid's axis sees as much table beyond the ends as the sides.
        let (margin_x, margin_y) = if params.placement == Placement::Allied {
            (TABLE_MARGIN_X_MM, TABLE_MARGIN_Y_MM)
        } else {
            (TABLE_MARGIN_X_MM, TABLE_MARGIN_X_MM)
        };
        let (mut table, mm_to_table) = table_canvas(
            &mut rng,
            params.background,
            [-margin_x, grid_h + margin_y],
            grid_w + 2.0 * margin_x,
            grid_h + 2.0 * margin_y,
        )?;
        if params.aruco_mat {
            if let Some(mat) = self.mats.get(&params.cols) {
                let ox = ((margin_x - BORDER_MM) * s).round() as i32;
                let oy = ((margin_y - BORDER_MM) * s).round() as i32;
                let mut roi = table.roi_mut(Rect::new(ox, oy, mat.cols(), mat.rows()))?;
                mat.copy_to(&mut roi)?;
            }
        }
        let placed = match &opts.layout {
            Some(laid) => self.placed_from(laid, &mut rng)?,
            None => self.layout(&mut rng, params.cols, opts.occupancy),
        };
        let mut polygons: Vec<[[f64; 2]; 4]> = Vec::new();
        for p in &placed {
            let card = &self.cards[p.index];
            let face = self
                .faces
                .get(&card.id)
                .ok_or_else(|| VisionError::Other(format!("no face for {}", card.id)))?;
            polygons.push(paste_card(
                &mut table,
                face,
                geometry::apply(&mm_to_table, p.centre_mm),
                p.angle_deg,
            )?);
        }
        if opts.stress == Some(Stress::Cover) {
            let mut tokens = ChaCha8Rng::seed_from_u64(seed ^ STRESS_STREAM);
            for (i, poly) in polygons.iter().enumerate() {
                let on_top = !placed.iter().any(|q| q.on_top_of == Some(i));
                if on_top && tokens.random_bool(0.7) {
                    draw_token(&mut tokens, &mut table, poly)?;
                }
            }
        }
        if opts.stress == Some(Stress::Glare) && !polygons.is_empty() {
            let mut glare = ChaCha8Rng::seed_from_u64(seed ^ STRESS_STREAM);
            for _ in 0..glare.random_range(2..5) {
                let on = &polygons[glare.random_range(0..polygons.len())];
                draw_glare(&mut glare, &mut table, on)?;
            }
        }
        let hand = if params.hand {
            Some(draw_hand(&mut rng, &mut table)?)
        } else {
            None
        };
        let mut covered: Vec<bool> = placed
            .iter()
            .enumerate()
            .map(|(i, _)| placed.iter().any(|q| q.on_top_of == Some(i)))
            .collect();
        if let Some(hand_mask) = &hand {
            for (i, poly) in polygons.iter().enumerate() {
                // Any part under the hand: a frame cut at one corner already hides the card's
                // outline, so the truth must not expect it found (a few pixels of edge blur aside).
                if coverage(hand_mask, poly)? > 0.002 {
                    covered[i] = true;
                }
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
            [0.0, 0.0],
            grid_w,
            grid_h,
            &mut rng,
        )?;
        let cards = placed
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let corners = polygons[i]
                    .map(|q| camera.distort(geometry::apply(&table_to_image, q)))
                    .map(|q| [q[0] as f32, q[1] as f32]);
                let c = camera.distort(geometry::apply(&mm_to_image, p.centre_mm));
                TruthCard {
                    card: self.cards[p.index].id.clone(),
                    corners,
                    center: [c[0] as f32, c[1] as f32],
                    orientation: p.orientation,
                    cell: Cell::Blitz {
                        col: p.cell.0,
                        row: p.cell.1,
                    },
                    covered: covered[i],
                    on_top_of: p.on_top_of,
                }
            })
            .collect();
        Ok(Scene {
            image,
            truth: SceneTruth {
                params,
                cards,
                table_to_image: camera.mm_to_image,
            },
        })
    }
}

/// The camera of `p` moved to one of `placements` (none: left where it is), drawn from its own
/// stream so the layout stays the seed's.
pub fn place_camera(mut p: SceneParams, placements: &[Placement]) -> SceneParams {
    if placements.is_empty() {
        return p;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(p.seed ^ CAMERA_STREAM);
    p.placement = placements[rng.random_range(0..placements.len())];
    if let Some((yaw, tilt)) = p.placement.draw(&mut rng) {
        p.yaw_deg = yaw;
        p.tilt_deg = tilt;
    }
    p
}

/// Pastes a face centred at `centre` (table px), turned clockwise by `angle_deg`; returns the face's
/// corners (top-left, top-right, bottom-right, bottom-left) in table px.
pub fn paste_card(
    table: &mut Mat,
    face: &Mat,
    centre: [f64; 2],
    angle_deg: f64,
) -> Result<[[f64; 2]; 4], VisionError> {
    let (w, h) = (face.cols() as f64, face.rows() as f64);
    let (sn, cs) = angle_deg.to_radians().sin_cos();
    let map = |x: f64, y: f64| {
        let (dx, dy) = (x - w / 2.0, y - h / 2.0);
        [centre[0] + dx * cs - dy * sn, centre[1] + dx * sn + dy * cs]
    };
    let corners = [map(0.0, 0.0), map(w, 0.0), map(w, h), map(0.0, h)];
    let x0 = corners
        .iter()
        .map(|p| p[0])
        .fold(f64::MAX, f64::min)
        .floor()
        .max(0.0) as i32;
    let y0 = corners
        .iter()
        .map(|p| p[1])
        .fold(f64::MAX, f64::min)
        .floor()
        .max(0.0) as i32;
    let x1 =
        (corners.iter().map(|p| p[0]).fold(f64::MIN, f64::max).ceil() as i32 + 1).min(table.cols());
    let y1 =
        (corners.iter().map(|p| p[1]).fold(f64::MIN, f64::max).ceil() as i32 + 1).min(table.rows());
    if x1 <= x0 || y1 <= y0 {
        return Ok(corners);
    }
    let m = Mat::from_slice_2d(&[
        [
            cs,
            -sn,
            centre[0] - x0 as f64 - (w / 2.0) * cs + (h / 2.0) * sn,
        ],
        [
            sn,
            cs,
            centre[1] - y0 as f64 - (w / 2.0) * sn - (h / 2.0) * cs,
        ],
    ])?;
    let mut roi = table.roi_mut(Rect::new(x0, y0, x1 - x0, y1 - y0))?;
    let size = roi.size()?;
    let mut target = roi.try_clone()?;
    imgproc::warp_affine(
        face,
        &mut target,
        &m,
        size,
        INTER_LINEAR,
        BORDER_TRANSPARENT,
        Scalar::default(),
    )?;
    target.copy_to(&mut roi)?;
    Ok(corners)
}

/// A table surface of the given kind (table px), textured from `rng`.
pub fn background(
    rng: &mut ChaCha8Rng,
    kind: Background,
    w: i32,
    h: i32,
) -> Result<Mat, VisionError> {
    let (base, var): ([f64; 3], f64) = match kind {
        Background::Wood => ([40.0, 95.0, 150.0], 30.0),
        Background::Cloth => ([50.0, 110.0, 40.0], 18.0),
        Background::LightMat => ([205.0, 210.0, 212.0], 14.0),
        Background::DarkMat => ([45.0, 42.0, 40.0], 12.0),
    };
    let tint: [f64; 3] = [0, 1, 2].map(|_| rng.random_range(-20.0..20.0));
    // Low-frequency texture: a small random image scaled up (plus wood grain stripes).
    let (sw, sh) = (16, 24);
    let mut small = Mat::new_rows_cols_with_default(sh, sw, CV_8UC3, Scalar::all(0.0))?;
    let grain: f64 = rng.random_range(0.02..0.08);
    {
        let data = small.data_bytes_mut()?;
        for y in 0..sh as usize {
            for x in 0..sw as usize {
                let n: f64 = rng.random_range(-1.0..1.0);
                for k in 0..3 {
                    data[(y * sw as usize + x) * 3 + k] =
                        (base[k] + tint[k] + n * var).clamp(0.0, 255.0) as u8;
                }
            }
        }
    }
    let mut img = Mat::default();
    imgproc::resize(
        &small,
        &mut img,
        Size::new(w, h),
        0.0,
        0.0,
        imgproc::INTER_CUBIC,
    )?;
    if kind == Background::Wood {
        let data = img.data_bytes_mut()?;
        for y in 0..h as usize {
            for x in 0..w as usize {
                let f = 1.0 + 0.12 * ((x as f64 * grain + (y as f64 * 0.01).sin() * 3.0).sin());
                for k in 0..3 {
                    let i = (y * w as usize + x) * 3 + k;
                    data[i] = (data[i] as f64 * f).clamp(0.0, 255.0) as u8;
                }
            }
        }
    }
    Ok(img)
}

/// Seeds the stress draws apart from the scene's own stream.
const STRESS_STREAM: u64 = 0x5752_4553_5321;
const CAMERA_STREAM: u64 = 0x4341_4d45_5241;

/// A round token or die lying inside a card's frame hole (`poly`: the card's table-px corners from its
/// own top-left), so the frame stays whole and the card must still be named.
fn draw_token(
    rng: &mut ChaCha8Rng,
    table: &mut Mat,
    poly: &[[f64; 2]; 4],
) -> Result<(), VisionError> {
    use crate::face::HOLE_INSET_MM;
    let radius_mm = rng.random_range(6.0..11.0);
    let margin = HOLE_INSET_MM + radius_mm;
    let (u, v) = (
        rng.random_range(margin..CARD_W_MM - margin) / CARD_W_MM,
        rng.random_range(margin..CARD_H_MM - margin) / CARD_H_MM,
    );
    // The card is a rotated rectangle on the table: a point is its corners' bilinear mix.
    let lerp =
        |a: [f64; 2], b: [f64; 2], t: f64| [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
    let centre = lerp(lerp(poly[0], poly[1], u), lerp(poly[3], poly[2], u), v);
    let px_per_mm = crate::detect::dist(poly[0], poly[1]) / CARD_W_MM;
    let r = (radius_mm * px_per_mm).round() as i32;
    let colours = [
        Scalar::new(40.0, 40.0, 200.0, 0.0),
        Scalar::new(30.0, 30.0, 30.0, 0.0),
        Scalar::new(235.0, 235.0, 235.0, 0.0),
        Scalar::new(40.0, 200.0, 230.0, 0.0),
        Scalar::new(160.0, 90.0, 30.0, 0.0),
    ];
    let colour = colours[rng.random_range(0..colours.len())];
    let at = Point::new(centre[0].round() as i32, centre[1].round() as i32);
    imgproc::circle(table, at, r, colour, -1, imgproc::LINE_AA, 0)?;
    let rim = Scalar::new(colour[0] * 0.55, colour[1] * 0.55, colour[2] * 0.55, 0.0);
    imgproc::circle(table, at, r, rim, (r / 8).max(1), imgproc::LINE_AA, 0)?;
    Ok(())
}

/// A lamp's reflection on a card: a bright Gaussian spot (15–35 mm radius) somewhere on it.
fn draw_glare(
    rng: &mut ChaCha8Rng,
    table: &mut Mat,
    poly: &[[f64; 2]; 4],
) -> Result<(), VisionError> {
    let (u, v) = (rng.random_range(0.15..0.85), rng.random_range(0.15..0.85));
    let lerp =
        |a: [f64; 2], b: [f64; 2], t: f64| [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
    let centre = lerp(lerp(poly[0], poly[1], u), lerp(poly[3], poly[2], u), v);
    let px_per_mm = crate::detect::dist(poly[0], poly[1]) / CARD_W_MM;
    let r = rng.random_range(15.0..35.0) * px_per_mm;
    let strength = rng.random_range(150.0..230.0);
    let (w, h) = (table.cols(), table.rows());
    let reach = (2.5 * r).ceil() as i32;
    let (cx, cy) = (centre[0].round() as i32, centre[1].round() as i32);
    let data = table.data_bytes_mut()?;
    for y in (cy - reach).max(0)..(cy + reach).min(h) {
        for x in (cx - reach).max(0)..(cx + reach).min(w) {
            let d2 = ((x as f64 - centre[0]).powi(2) + (y as f64 - centre[1]).powi(2)) / (r * r);
            let add = strength * (-d2).exp();
            for k in 0..3 {
                let i = ((y * w + x) * 3 + k) as usize;
                data[i] = (data[i] as f64 + add).min(255.0) as u8;
            }
        }
    }
    Ok(())
}

/// A hand on a sleeve reaching in from the near edge or a side; returns its mask.
pub fn draw_hand(rng: &mut ChaCha8Rng, table: &mut Mat) -> Result<Mat, VisionError> {
    let (w, h) = (table.cols(), table.rows());
    let mut mask = Mat::new_rows_cols_with_default(h, w, CV_8UC1, Scalar::all(0.0))?;
    let palm = Point::new(
        rng.random_range(w / 5..4 * w / 5),
        rng.random_range(h / 3..h - h / 8),
    );
    let entry = match rng.random_range(0..3) {
        0 => Point::new(palm.x + rng.random_range(-200..200), h + 50),
        1 => Point::new(-50, palm.y + rng.random_range(-200..200)),
        _ => Point::new(w + 50, palm.y + rng.random_range(-200..200)),
    };
    let skin = Scalar::new(
        rng.random_range(90.0..150.0),
        rng.random_range(130.0..175.0),
        rng.random_range(180.0..235.0),
        0.0,
    );
    let sleeve = Scalar::new(
        rng.random_range(20.0..160.0),
        rng.random_range(20.0..120.0),
        rng.random_range(20.0..120.0),
        0.0,
    );
    let radius = rng.random_range(70..100);
    imgproc::line(table, entry, palm, sleeve, radius * 2, imgproc::LINE_AA, 0)?;
    imgproc::line(&mut mask, entry, palm, Scalar::all(255.0), radius * 2, 8, 0)?;
    let axes = opencv::core::Size::new(radius, (radius as f64 * 1.3) as i32);
    let angle = ((palm.y - entry.y) as f64)
        .atan2((palm.x - entry.x) as f64)
        .to_degrees()
        + 90.0;
    imgproc::ellipse(
        table,
        palm,
        axes,
        angle,
        0.0,
        360.0,
        skin,
        -1,
        imgproc::LINE_AA,
        0,
    )?;
    imgproc::ellipse(
        &mut mask,
        palm,
        axes,
        angle,
        0.0,
        360.0,
        Scalar::all(255.0),
        -1,
        8,
        0,
    )?;
    Ok(mask)
}

/// Fraction of a polygon (table px) covered by the mask.
pub fn coverage(mask: &Mat, poly: &[[f64; 2]; 4]) -> Result<f64, VisionError> {
    let mut card =
        Mat::new_rows_cols_with_default(mask.rows(), mask.cols(), CV_8UC1, Scalar::all(0.0))?;
    let pts: Vector<Point> = poly
        .iter()
        .map(|p| Point::new(p[0] as i32, p[1] as i32))
        .collect();
    imgproc::fill_convex_poly(&mut card, &pts, Scalar::all(255.0), 8, 0)?;
    let total = opencv::core::count_non_zero(&card)? as f64;
    let mut both = Mat::default();
    opencv::core::bitwise_and(&card, mask, &mut both, &opencv::core::no_array())?;
    Ok(if total > 0.0 {
        opencv::core::count_non_zero(&both)? as f64 / total
    } else {
        0.0
    })
}

/// A pinhole camera with one radial distortion term, aimed at the middle of a table rectangle.
pub struct Camera {
    focal: f64,
    cx: f64,
    cy: f64,
    k1: f64,
    /// Table mm → undistorted image pixels.
    pub mm_to_image: H3,
}

impl Camera {
    /// Turned about the table by `p.yaw_deg`, tilted and rolled by `p`, backed off until the
    /// rectangle (0,0)–(grid_w, grid_h) mm fits.
    pub fn new(p: &SceneParams, grid_w: f64, grid_h: f64) -> Camera {
        let focal = p.width as f64 * 0.72;
        let (cx, cy) = (p.width as f64 / 2.0, p.height as f64 / 2.0);
        let (st, ct) = p.tilt_deg.to_radians().sin_cos();
        let (sr, cr) = p.roll_deg.to_radians().sin_cos();
        let (sy, cy_) = p.yaw_deg.to_radians().sin_cos();
        let yawed = |v: [f64; 3]| [v[0] * cy_ - v[1] * sy, v[0] * sy + v[1] * cy_, v[2]];
        let centre = [grid_w / 2.0, grid_h / 2.0];
        let build = |dist: f64| -> H3 {
            let back = yawed([0.0, -dist * st, dist * ct]);
            let pos = [centre[0] + back[0], centre[1] + back[1], back[2]];
            let right0 = yawed([1.0, 0.0, 0.0]);
            let down0 = yawed([0.0, -ct, -st]);
            let right = [0, 1, 2].map(|k| cr * right0[k] + sr * down0[k]);
            let down = [0, 1, 2].map(|k| -sr * right0[k] + cr * down0[k]);
            let fwd = yawed([0.0, st, -ct]);
            let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
            let rows = [right, down, fwd];
            let t = rows.map(|r| -dot(r, pos));
            let rt = [
                [rows[0][0], rows[0][1], t[0]],
                [rows[1][0], rows[1][1], t[1]],
                [rows[2][0], rows[2][1], t[2]],
            ];
            geometry::mul(&[[focal, 0.0, cx], [0.0, focal, cy], [0.0, 0.0, 1.0]], &rt)
        };
        // Back the camera off until the grid plus a margin fills at most 95 % of the frame.
        let m = 25.0;
        let outline = [
            [-m, -m],
            [grid_w + m, -m],
            [grid_w + m, grid_h + m],
            [-m, grid_h + m],
        ];
        let mut dist = 400.0;
        let mut h = build(dist);
        for _ in 0..200 {
            h = build(dist);
            let fits = outline.iter().all(|q| {
                let p = geometry::apply(&h, *q);
                (p[0] - cx).abs() < cx * 0.95 && (p[1] - cy).abs() < cy * 0.95
            });
            if fits {
                break;
            }
            dist *= 1.03;
        }
        Camera {
            focal,
            cx,
            cy,
            k1: p.distortion_k1,
            mm_to_image: h,
        }
    }

    /// Undistorted image point → where the lens puts it (inverse of `undistort`, by fixed point).
    pub fn distort(&self, p: [f64; 2]) -> [f64; 2] {
        let (xu, yu) = ((p[0] - self.cx) / self.focal, (p[1] - self.cy) / self.focal);
        let (mut xd, mut yd) = (xu, yu);
        for _ in 0..8 {
            let f = 1.0 + self.k1 * (xd * xd + yd * yd);
            xd = xu / f;
            yd = yu / f;
        }
        [xd * self.focal + self.cx, yd * self.focal + self.cy]
    }
}

/// The table to compose a scene on: a `kind` background covering the rectangle whose far-left corner
/// is (`left_mm`, `far_mm`) and which is `width_mm` × `depth_mm` (x right, y away from the viewer),
/// at [`TABLE_PX_PER_MM`], and table mm → table image pixels (image y toward the viewer).
pub fn table_canvas(
    rng: &mut ChaCha8Rng,
    kind: Background,
    [left_mm, far_mm]: [f64; 2],
    width_mm: f64,
    depth_mm: f64,
) -> Result<(Mat, H3), VisionError> {
    let s = TABLE_PX_PER_MM;
    let tw = (width_mm * s).round() as i32;
    let th = (depth_mm * s).round() as i32;
    let mm_to_table = [
        [s, 0.0, -left_mm * s],
        [0.0, -s, far_mm * s],
        [0.0, 0.0, 1.0],
    ];
    Ok((background(rng, kind, tw, th)?, mm_to_table))
}

/// What the scene's camera saw of a composed table.
pub struct Photo {
    /// The frame, degraded like a webcam's.
    pub image: Mat,
    /// Distorts undistorted image points (for the truth corners).
    pub camera: Camera,
    /// Table mm → undistorted image pixels.
    pub mm_to_image: H3,
    /// Table image pixels → undistorted image pixels.
    pub table_to_image: H3,
}

/// Photographs the composed `table` with the camera of `params`, framing the `w_mm` × `h_mm`
/// rectangle whose corner nearest the table's (0, 0) is `origin_mm`, then degrades the frame
/// (its randomness from `rng`).
pub fn photograph(
    table: &Mat,
    mm_to_table: &H3,
    params: &SceneParams,
    [x0, y0]: [f64; 2],
    w_mm: f64,
    h_mm: f64,
    rng: &mut ChaCha8Rng,
) -> Result<Photo, VisionError> {
    let camera = Camera::new(params, w_mm, h_mm);
    let to_frame = geometry::scale_translate(1.0, -x0, -y0);
    let mm_to_image = geometry::mul(&camera.mm_to_image, &to_frame);
    let table_to_image = geometry::mul(
        &mm_to_image,
        &geometry::invert(mm_to_table).unwrap_or(geometry::IDENTITY),
    );
    let mut image = project(table, &table_to_image, &camera, params)?;
    degrade(&mut image, rng, params)?;
    Ok(Photo {
        image,
        camera,
        mm_to_image,
        table_to_image,
    })
}

/// Renders the camera image in one remap: each output pixel is undistorted, then mapped to the table.
pub fn project(
    table: &Mat,
    table_to_image: &H3,
    cam: &Camera,
    p: &SceneParams,
) -> Result<Mat, VisionError> {
    let inv = geometry::invert(table_to_image)
        .ok_or_else(|| VisionError::Other("degenerate camera".into()))?;
    let mut map_x = Mat::new_rows_cols_with_default(p.height, p.width, CV_32FC1, Scalar::all(0.0))?;
    let mut map_y = Mat::new_rows_cols_with_default(p.height, p.width, CV_32FC1, Scalar::all(0.0))?;
    {
        let mx: &mut [f32] = map_x.data_typed_mut()?;
        let my: &mut [f32] = map_y.data_typed_mut()?;
        for y in 0..p.height as usize {
            for x in 0..p.width as usize {
                let (xd, yd) = (
                    (x as f64 - cam.cx) / cam.focal,
                    (y as f64 - cam.cy) / cam.focal,
                );
                let f = 1.0 + cam.k1 * (xd * xd + yd * yd);
                let u = [xd * f * cam.focal + cam.cx, yd * f * cam.focal + cam.cy];
                let t = geometry::apply(&inv, u);
                mx[y * p.width as usize + x] = t[0] as f32;
                my[y * p.width as usize + x] = t[1] as f32;
            }
        }
    }
    let mut out = Mat::default();
    imgproc::remap(
        table,
        &mut out,
        &map_x,
        &map_y,
        INTER_LINEAR,
        BORDER_CONSTANT,
        Scalar::new(30.0, 30.0, 30.0, 0.0),
    )?;
    Ok(out)
}

/// Uneven light, glare, blur, sensor noise and JPEG, in the order a webcam adds them.
pub fn degrade(img: &mut Mat, rng: &mut ChaCha8Rng, p: &SceneParams) -> Result<(), VisionError> {
    let (w, h) = (img.cols() as usize, img.rows() as usize);
    let angle: f64 = rng.random_range(0.0..std::f64::consts::TAU);
    let (gx, gy) = (
        angle.cos() * p.light_gradient,
        angle.sin() * p.light_gradient,
    );
    let glares: Vec<(f64, f64, f64)> = (0..p.glare_spots)
        .map(|_| {
            (
                rng.random_range(0.0..w as f64),
                rng.random_range(0.0..h as f64),
                rng.random_range(25.0..90.0),
            )
        })
        .collect();
    {
        let data = img.data_bytes_mut()?;
        for y in 0..h {
            for x in 0..w {
                let (nx, ny) = (x as f64 / w as f64 - 0.5, y as f64 / h as f64 - 0.5);
                let gain = 1.0 + gx * nx + gy * ny - 0.25 * (nx * nx + ny * ny);
                let glare: f64 = glares
                    .iter()
                    .map(|(cx, cy, r)| {
                        p.glare_strength
                            * (-((x as f64 - cx).powi(2) + (y as f64 - cy).powi(2)) / (r * r)).exp()
                    })
                    .sum();
                for k in 0..3 {
                    let i = (y * w + x) * 3 + k;
                    data[i] = (data[i] as f64 * gain + glare).clamp(0.0, 255.0) as u8;
                }
            }
        }
    }
    if p.motion_blur_px >= 1.0 {
        // An odd kernel about as long as the smear.
        let len = (p.motion_blur_px.round() as i32) | 1;
        let mut kernel =
            Mat::new_rows_cols_with_default(len, len, opencv::core::CV_32FC1, Scalar::all(0.0))?;
        let a: f64 = rng.random_range(0.0..std::f64::consts::PI);
        let c = len / 2;
        imgproc::line(
            &mut kernel,
            Point::new(
                c - (a.cos() * c as f64) as i32,
                c - (a.sin() * c as f64) as i32,
            ),
            Point::new(
                c + (a.cos() * c as f64) as i32,
                c + (a.sin() * c as f64) as i32,
            ),
            Scalar::all(1.0),
            1,
            8,
            0,
        )?;
        let sum = opencv::core::sum_elems(&kernel)?[0].max(1.0);
        let mut k2 = Mat::default();
        kernel.convert_to(&mut k2, opencv::core::CV_32FC1, 1.0 / sum, 0.0)?;
        let mut out = Mat::default();
        imgproc::filter_2d(
            img,
            &mut out,
            -1,
            &k2,
            Point::new(-1, -1),
            0.0,
            opencv::core::BORDER_REFLECT,
        )?;
        *img = out;
    }
    if p.defocus_sigma > 0.0 {
        let mut out = Mat::default();
        imgproc::gaussian_blur(
            img,
            &mut out,
            Size::new(0, 0),
            p.defocus_sigma,
            0.0,
            opencv::core::BORDER_REFLECT,
        )?;
        *img = out;
    }
    if p.noise_sigma > 0.0 {
        let data = img.data_bytes_mut()?;
        for v in data.iter_mut() {
            // Sum of uniforms: close enough to Gaussian sensor noise, and cheap.
            let n: f64 = (0..3).map(|_| rng.random_range(-1.0..1.0)).sum::<f64>() * p.noise_sigma;
            *v = (*v as f64 + n).clamp(0.0, 255.0) as u8;
        }
    }
    let mut buf = Vector::<u8>::new();
    let params: Vector<i32> =
        Vector::from_slice(&[opencv::imgcodecs::IMWRITE_JPEG_QUALITY, p.jpeg_quality]);
    opencv::imgcodecs::imencode(".jpg", img, &mut buf, &params)?;
    *img = opencv::imgcodecs::imdecode(&buf, opencv::imgcodecs::IMREAD_COLOR)?;
    Ok(())
}
