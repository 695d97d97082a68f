//! Synthetic 风声 table scenes from a seed: 3–9 seats round an oval table, each seat's face-up
//! intelligence laid in a row in front of it (facing its player; some rows fanned so the cards
//! overlap), sometimes a hand, seen by the same tilted, blurred, glared webcam as the Blitz scenes.
//! Same seed, same table and camera; `frame` only redraws the sensor noise, glare and the hand, so a
//! sequence of frames of one table can be rendered (a game in progress: `shown`).
//!
//! Table millimetres: origin at the table's centre, x to the viewer's right, y away from the viewer.
//! Seat 1 is nearest the camera; seats follow in passing order (to each player's right), which seen
//! from above is counter-clockwise.

use super::faces::{faces, render, MessageFace};
use super::seats::{SeatRegion, SeatRegions};
use crate::face::{CARD_H_MM, CARD_W_MM};
use crate::geometry;
use crate::scene::{
    coverage, draw_hand, paste_card, photograph, table_canvas, Background, Photo, SceneParams,
    TABLE_PX_PER_MM,
};
use crate::VisionError;
use message::catalogue::{Catalogue, Colour};
use opencv::core::{Mat, Point, Scalar, Size, Vector, CV_8UC1};
use opencv::imgproc::{self, INTER_AREA};
use opencv::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::f64::consts::{PI, TAU};

/// Room along a seat's arc for its row of cards (mm): rows wider than this are fanned.
const ROW_SHARE: f64 = 0.8;
/// Where a seat card lies: this far (mm) beyond the middle of its seat's row, toward the player.
const SEAT_CARD_OUT_MM: f64 = 100.0;
/// Centre-to-centre pitch of a row laid side by side (a little gap between cards).
const SIDE_BY_SIDE: f64 = CARD_W_MM + 6.0;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MessageTruthCard {
    /// Face id (copies of a face share it).
    pub face: String,
    pub colour: Colour,
    /// 0-based seat.
    pub seat: usize,
    /// Image corners: the card's own top-left, top-right, bottom-right, bottom-left.
    pub corners: [[f32; 2]; 4],
    pub center: [f32; 2],
    /// Part of it under a card laid later in its row.
    pub overlapped: bool,
    /// Part of it under the hand.
    pub under_hand: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MessageTruth {
    pub params: SceneParams,
    pub seats: usize,
    pub cards: Vec<MessageTruthCard>,
    /// The seat regions a player would draw for this camera (image pixels).
    pub regions: SeatRegions,
}

pub struct MessageScene {
    pub image: Mat,
    pub truth: MessageTruth,
}

/// `None` fields are drawn from the seed.
#[derive(Clone, Debug, Default)]
pub struct MessageSceneOptions {
    pub width: Option<i32>,
    pub height: Option<i32>,
    /// Players at the table (3–9).
    pub seats: Option<usize>,
    pub hand: Option<bool>,
    /// Face ids in front of each seat (a scripted table) instead of a random one.
    pub layout: Option<Vec<Vec<String>>>,
    /// Fan every row (true), none (false), or some at random.
    pub overlap: Option<bool>,
    /// Mild camera conditions (no glare, blur or hand): frames for a scripted demo.
    pub gentle: bool,
    /// Which frame of this table: redraws only noise, glare and the hand.
    pub frame: u64,
    /// Lay only the first `shown` cards in the order they were received (one per seat in turn).
    pub shown: Option<usize>,
    /// Lay each seat's printed seat card (its ArUco marker) in front of the seat's row.
    pub seat_cards: bool,
    /// Where the camera may stand, one drawn per scene (empty: beside seat 1).
    pub placements: Vec<crate::scene::Placement>,
}

/// Keeps every face pre-scaled to table resolution.
pub struct MessageSceneRenderer {
    faces: Vec<MessageFace>,
    scaled: HashMap<String, Mat>,
    /// Face index of each physical card of the deck (random tables draw from the deck's mix).
    deck: Vec<usize>,
}

/// A table's oval: the radii (mm) of the line the rows are laid on.
fn oval(seats: usize) -> (f64, f64) {
    // About 300 mm of arc per seat, but never a table too small for its rows.
    let mean = (seats as f64 * 300.0 / TAU).max(230.0);
    // Wider than deep, like the camera's 16:9 frame.
    (mean * 1.3, mean / 1.3)
}

fn on_oval(a: f64, b: f64, theta: f64, s: f64) -> [f64; 2] {
    [a * s * theta.cos(), b * s * theta.sin()]
}

/// Parametric angle of a seat's place on the oval: seat 1 nearest the camera, then counter-clockwise.
fn seat_angle(seat: usize, seats: usize) -> f64 {
    -PI / 2.0 + seat as f64 * TAU / seats as f64
}

/// Draws a scripted colour string (`rrk`, `红红黑`) into face ids from the faces of those colours.
pub fn layout_from_colours(
    cat: &Catalogue,
    seats: &[&str],
    seed: u64,
) -> Result<Vec<Vec<String>>, VisionError> {
    let all = faces(cat);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            s.chars()
                .filter(|c| !matches!(c, ' ' | ','))
                .map(|ch| {
                    let colour = match ch {
                        'r' | 'R' | '红' => Colour::Red,
                        'u' | 'U' | '蓝' => Colour::Blue,
                        'k' | 'K' | '黑' => Colour::Black,
                        _ => {
                            return Err(VisionError::Other(format!(
                                "seat {}: `{ch}` is not a colour (r/红 red, u/蓝 blue, k/黑 black)",
                                i + 1
                            )))
                        }
                    };
                    let of: Vec<&MessageFace> = all.iter().filter(|f| f.colour == colour).collect();
                    let f = of
                        .get(rng.random_range(0..of.len().max(1)))
                        .ok_or_else(|| VisionError::Other("the deck has no such colour".into()))?;
                    Ok(f.id.clone())
                })
                .collect()
        })
        .collect()
}

impl MessageSceneRenderer {
    pub fn new(cat: &Catalogue) -> Result<MessageSceneRenderer, VisionError> {
        let faces = faces(cat);
        let w = (CARD_W_MM * TABLE_PX_PER_MM).round() as i32;
        let h = (CARD_H_MM * TABLE_PX_PER_MM).round() as i32;
        let mut scaled = HashMap::new();
        for f in &faces {
            let mut small = Mat::default();
            imgproc::resize(
                &render(f)?,
                &mut small,
                Size::new(w, h),
                0.0,
                0.0,
                INTER_AREA,
            )?;
            scaled.insert(f.id.clone(), small);
        }
        let deck = faces
            .iter()
            .enumerate()
            .flat_map(|(i, f)| std::iter::repeat_n(i, f.copies))
            .collect();
        Ok(MessageSceneRenderer {
            faces,
            scaled,
            deck,
        })
    }

    pub fn faces(&self) -> &[MessageFace] {
        &self.faces
    }

    fn params(&self, seed: u64, rng: &mut ChaCha8Rng, o: &MessageSceneOptions) -> SceneParams {
        let gentle = o.gentle;
        let background = [
            Background::Wood,
            Background::Cloth,
            Background::LightMat,
            Background::DarkMat,
        ][rng.random_range(0..4)];
        SceneParams {
            seed,
            width: o.width.unwrap_or(1920),
            height: o.height.unwrap_or(1080),
            cols: 0,
            background,
            aruco_mat: false,
            tilt_deg: rng.random_range(0.0..if gentle { 15.0 } else { 30.0 }),
            roll_deg: rng.random_range(-4.0..4.0),
            distortion_k1: rng.random_range(-0.1..0.05),
            light_gradient: rng.random_range(0.0..0.4),
            // Drawn per frame (see `frame_noise`); kept here so the truth records them.
            glare_spots: 0,
            glare_strength: rng.random_range(40.0..120.0),
            motion_blur_px: 0.0,
            defocus_sigma: 0.0,
            noise_sigma: 0.0,
            jpeg_quality: 90,
            hand: false,
            stress: None,
            placement: crate::scene::Placement::Allied,
            yaw_deg: 0.0,
        }
    }

    /// What changes from frame to frame of one table: glare, blur, noise, JPEG and the hand.
    fn frame_noise(p: &mut SceneParams, rng: &mut ChaCha8Rng, o: &MessageSceneOptions) {
        let chance = |rng: &mut ChaCha8Rng, q: f64| !o.gentle && rng.random_bool(q);
        p.glare_spots = if chance(rng, 0.4) {
            rng.random_range(1..3)
        } else {
            0
        };
        p.motion_blur_px = if chance(rng, 0.25) {
            rng.random_range(1.0..3.5)
        } else {
            0.0
        };
        p.defocus_sigma = if chance(rng, 0.4) {
            rng.random_range(0.3..1.1)
        } else {
            0.0
        };
        p.noise_sigma = rng.random_range(0.0..if o.gentle { 2.0 } else { 6.0 });
        p.jpeg_quality = rng.random_range(if o.gentle { 85 } else { 60 }..96);
        let drawn = chance(rng, 0.2);
        p.hand = o.hand.unwrap_or(drawn);
    }

    fn random_layout(&self, rng: &mut ChaCha8Rng, seats: usize) -> Vec<Vec<String>> {
        let most = if seats <= 6 { 5 } else { 4 };
        (0..seats)
            .map(|_| {
                let n = rng.random_range(0..=most);
                (0..n)
                    .map(|_| {
                        let f = self.deck[rng.random_range(0..self.deck.len())];
                        self.faces[f].id.clone()
                    })
                    .collect()
            })
            .collect()
    }

    pub fn render(&self, seed: u64, o: &MessageSceneOptions) -> Result<MessageScene, VisionError> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut params = crate::scene::place_camera(self.params(seed, &mut rng, o), &o.placements);
        let layout = match &o.layout {
            Some(l) => l.clone(),
            None => {
                let seats = o.seats.unwrap_or_else(|| rng.random_range(3..=9));
                self.random_layout(&mut rng, seats)
            }
        };
        let seats = layout.len();
        if !(3..=9).contains(&seats) {
            return Err(VisionError::Other(format!(
                "风声 is played by 3 to 9 players, not {seats}"
            )));
        }
        let (a, b) = oval(seats);
        // The frame: the table with its rows and the players' edge (and the seat cards beyond).
        let out = if o.seat_cards { SEAT_CARD_OUT_MM } else { 0.0 };
        let (fx, fy) = (a + 90.0 + out, b + 90.0 + out);
        let (tx, ty) = (fx + 380.0, fy + 320.0);
        let (mut table, mm_to_table) =
            table_canvas(&mut rng, params.background, [-tx, ty], 2.0 * tx, 2.0 * ty)?;

        // Order in which the cards were received: one per seat in turn.
        let mut order: Vec<(usize, usize)> = Vec::new();
        let deepest = layout.iter().map(Vec::len).max().unwrap_or(0);
        for k in 0..deepest {
            for (seat, row) in layout.iter().enumerate() {
                if k < row.len() {
                    order.push((seat, k));
                }
            }
        }
        let shown = o.shown.unwrap_or(order.len()).min(order.len());
        let laid: Vec<(usize, usize)> = order[..shown].to_vec();

        // Poses: every card of the full layout gets its pose from the seed, so a progression keeps
        // each card where it will stay.
        let mut poses: HashMap<(usize, usize), ([f64; 2], f64)> = HashMap::new();
        for (seat, row) in layout.iter().enumerate() {
            let theta = seat_angle(seat, seats);
            let centre = on_oval(a, b, theta, 1.0);
            // The card's up points to the table's centre; `phi` turns it counter-clockwise (mm).
            let phi = (-centre[1]).atan2(-centre[0]) - PI / 2.0;
            let right = [phi.cos(), phi.sin()];
            let arc = TAU * ((a * a + b * b) / 2.0).sqrt() / seats as f64;
            let n = row.len().max(1) as f64;
            let fan = match o.overlap {
                Some(f) => f,
                None => rng.random_bool(0.3),
            };
            let room = (arc * ROW_SHARE - CARD_W_MM) / (n - 1.0).max(1.0);
            let pitch = if fan {
                room.min(CARD_W_MM * 0.72)
            } else {
                room.min(SIDE_BY_SIDE)
            };
            for k in 0..row.len() {
                let off = (k as f64 - (n - 1.0) / 2.0) * pitch;
                let c = [
                    centre[0] + off * right[0] + rng.random_range(-4.0..4.0),
                    centre[1] + off * right[1] + rng.random_range(-4.0..4.0),
                ];
                let angle = phi.to_degrees() + rng.random_range(-6.0..6.0);
                poses.insert((seat, k), (c, angle));
            }
        }
        let mut placed: Vec<(usize, usize, [[f64; 2]; 4])> = Vec::with_capacity(laid.len());
        // Lay each row left to right so later cards lie on earlier ones.
        let mut by_row = laid.clone();
        by_row.sort();
        for &(seat, k) in &by_row {
            let id = &layout[seat][k];
            let face = self.scaled.get(id).ok_or_else(|| {
                VisionError::Other(format!("seat {}: `{id}` is not a 风声 face", seat + 1))
            })?;
            let (c, angle) = poses[&(seat, k)];
            // paste_card turns clockwise on the table image (y down): the mm angle, negated.
            let poly = paste_card(&mut table, face, geometry::apply(&mm_to_table, c), -angle)?;
            placed.push((seat, k, poly));
        }
        let overlapped = overlaps(&table, &placed)?;
        if o.seat_cards {
            for seat in 0..seats {
                let theta = seat_angle(seat, seats);
                let row = on_oval(a, b, theta, 1.0);
                let r = (row[0] * row[0] + row[1] * row[1]).sqrt().max(1.0);
                let c = [
                    row[0] + SEAT_CARD_OUT_MM * row[0] / r,
                    row[1] + SEAT_CARD_OUT_MM * row[1] / r,
                ];
                let phi = (-c[1]).atan2(-c[0]) - PI / 2.0;
                let card = super::markers::render_seat_card(seat, TABLE_PX_PER_MM)?;
                paste_card(
                    &mut table,
                    &card,
                    geometry::apply(&mm_to_table, c),
                    -phi.to_degrees(),
                )?;
            }
        }

        let mut frame_rng = ChaCha8Rng::seed_from_u64(
            seed ^ (o.frame.wrapping_add(1)).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        Self::frame_noise(&mut params, &mut frame_rng, o);
        let mut under_hand = vec![false; placed.len()];
        if params.hand {
            let mask = draw_hand(&mut frame_rng, &mut table)?;
            for (i, (_, _, poly)) in placed.iter().enumerate() {
                under_hand[i] = coverage(&mask, poly)? > 0.002;
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
            [-fx, -fy],
            2.0 * fx,
            2.0 * fy,
            &mut frame_rng,
        )?;

        let to_image = |p: [f64; 2]| {
            let q = camera.distort(geometry::apply(&mm_to_image, p));
            [q[0] as f32, q[1] as f32]
        };
        let colour_of = |id: &str| {
            self.faces
                .iter()
                .find(|f| f.id == id)
                .map(|f| f.colour)
                .unwrap_or(Colour::Black)
        };
        let cards = placed
            .iter()
            .enumerate()
            .map(|(i, (seat, k, poly))| {
                let corners = poly.map(|q| {
                    let p = camera.distort(geometry::apply(&table_to_image, q));
                    [p[0] as f32, p[1] as f32]
                });
                MessageTruthCard {
                    face: layout[*seat][*k].clone(),
                    colour: colour_of(&layout[*seat][*k]),
                    seat: *seat,
                    corners,
                    center: to_image(poses[&(*seat, *k)].0),
                    overlapped: overlapped[i],
                    under_hand: under_hand[i],
                }
            })
            .collect();
        let regions = SeatRegions {
            image_size: [params.width as u32, params.height as u32],
            seats: (0..seats)
                .map(|seat| SeatRegion {
                    polygon: wedge(a, b, seat, seats).into_iter().map(to_image).collect(),
                    seat_card: None,
                })
                .collect(),
        };
        Ok(MessageScene {
            image,
            truth: MessageTruth {
                params,
                seats,
                cards,
                regions,
            },
        })
    }
}

/// A seat's region on the table (mm): the sector of the oval between the seat's neighbours, from near
/// the centre to beyond the table's edge.
fn wedge(a: f64, b: f64, seat: usize, seats: usize) -> Vec<[f64; 2]> {
    let theta = seat_angle(seat, seats);
    let half = PI / seats as f64;
    let steps = 8;
    let (inner, outer) = (0.35, 1.45);
    let arc = |s: f64, rev: bool| -> Vec<[f64; 2]> {
        let mut v: Vec<[f64; 2]> = (0..=steps)
            .map(|i| theta - half + 2.0 * half * i as f64 / steps as f64)
            .map(|t| on_oval(a, b, t, s))
            .collect();
        if rev {
            v.reverse();
        }
        v
    };
    let mut poly = arc(outer, false);
    poly.extend(arc(inner, true));
    poly
}

/// Which placed cards have part of them under a card laid after them.
fn overlaps(
    table: &Mat,
    placed: &[(usize, usize, [[f64; 2]; 4])],
) -> Result<Vec<bool>, VisionError> {
    let mut out = vec![false; placed.len()];
    for (i, (seat, _, poly)) in placed.iter().enumerate() {
        let later: Vec<&[[f64; 2]; 4]> = placed[i + 1..]
            .iter()
            .filter(|(s, _, _)| s == seat)
            .map(|(_, _, p)| p)
            .collect();
        if later.is_empty() {
            continue;
        }
        let mut mask =
            Mat::new_rows_cols_with_default(table.rows(), table.cols(), CV_8UC1, Scalar::all(0.0))?;
        for p in later {
            let pts: Vector<Point> = p
                .iter()
                .map(|q| Point::new(q[0] as i32, q[1] as i32))
                .collect();
            imgproc::fill_convex_poly(&mut mask, &pts, Scalar::all(255.0), 8, 0)?;
        }
        out[i] = coverage(&mask, poly)? > 0.01;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_table_scene_truth_puts_each_card_in_its_seat_region() {
        let cat = Catalogue::shipped().expect("shipped");
        let r = MessageSceneRenderer::new(&cat).expect("renderer");
        for seed in [1, 2, 3] {
            let scene = r
                .render(
                    seed,
                    &MessageSceneOptions {
                        width: Some(960),
                        height: Some(540),
                        ..Default::default()
                    },
                )
                .expect("scene");
            assert!((3..=9).contains(&scene.truth.seats));
            for c in &scene.truth.cards {
                assert_eq!(
                    scene.truth.regions.seat_of(c.center),
                    Some(c.seat),
                    "seed {seed}: {c:?}"
                );
            }
        }
    }

    #[test]
    fn message_table_scene_progression_keeps_cards_in_place() {
        let cat = Catalogue::shipped().expect("shipped");
        let r = MessageSceneRenderer::new(&cat).expect("renderer");
        let layout = layout_from_colours(&cat, &["kk", "r", "uu", "k"], 4).expect("layout");
        let o = |shown, frame| MessageSceneOptions {
            width: Some(640),
            height: Some(360),
            layout: Some(layout.clone()),
            shown: Some(shown),
            frame,
            gentle: true,
            ..Default::default()
        };
        let early = r.render(7, &o(2, 0)).expect("scene");
        let late = r.render(7, &o(6, 3)).expect("scene");
        assert_eq!(early.truth.cards.len(), 2);
        assert_eq!(late.truth.cards.len(), 6);
        for c in &early.truth.cards {
            assert!(late
                .truth
                .cards
                .iter()
                .any(|l| l.center == c.center && l.face == c.face));
        }
        assert_eq!(early.truth.regions, late.truth.regions, "the same camera");
    }
}
