//! Identification against reference faces. Stage one compares a tiny colour thumbnail (8×8) against
//! every reference in all four rotations and keeps a shortlist; stage two compares a finer patch
//! (24×24, colour) of the shortlist; the rotation is then settled on the raw faces. A card is named only when the winner clearly beats the best other
//! card; otherwise it is reported unknown.

use crate::face::{hole_rect, FACE_H, FACE_W};
use crate::geometry::{self, H3};
use crate::VisionError;
use opencv::core::{Mat, Rect, Size};
use opencv::imgproc::{self, INTER_AREA, INTER_LINEAR};
use opencv::prelude::*;
use serde::{Deserialize, Serialize};

pub const FINE_W: i32 = 24;
pub const FINE_H: i32 = 24;
pub const COARSE_W: i32 = 8;
pub const COARSE_H: i32 = 8;
/// The part of the hole compared: header and picture (the top 64.5 %). The lower part (numbers, id,
/// pattern) looks alike on many cards and would only blur the difference between them.
const COMPARED_FRACTION: f64 = 0.645;
const SHORTLIST: usize = 8;

/// What is compared of one patch.
#[derive(Clone, Debug, PartialEq)]
pub struct Descriptors {
    /// Tiny colour thumbnail of the top part (header and picture): the fast first stage.
    pub coarse: Vec<f32>,
    /// Finer colour patch of the same part: the re-check of the shortlist.
    pub fine: Vec<f32>,
    /// The whole hole, blurred and small: its layout shows whether all of the card is in view.
    pub full: Vec<f32>,
    /// How much the middle of the hole varies (the largest channel's standard deviation, 0–255):
    /// a printed face has art and text there, a square of the table none.
    pub ink: f32,
}
/// A card's corners in image pixels and the homography from card mm to the image.
pub type CardPlacement = ([[f64; 2]; 4], H3);
const BLUR_SIGMA: f64 = 2.0;

/// Descriptors of one reference card (upright), kept in a file for enrolled cards.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Reference {
    pub card: String,
    pub coarse: Vec<f32>,
    pub fine: Vec<f32>,
    /// Whole-hole layout (see [`Descriptors::full`]); empty in reference files from before it.
    #[serde(default)]
    pub full: Vec<f32>,
    /// The learned model's embedding of the enrolled photo (issue 8), when the model was at hand:
    /// what lets `--identifier model|fused` name this print too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub embedding: Vec<f32>,
}

/// What [`enroll`] read from a photo of one card.
#[derive(Clone, Debug)]
pub struct Enrolled {
    pub reference: Reference,
    /// A known card it looks like, with the score, if any.
    pub similar: Option<(String, f32)>,
    /// The card's corners in the photo (its own top-left first), to cut the model's crop.
    pub corners: [[f32; 2]; 4],
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ReferenceSet {
    pub refs: Vec<Reference>,
    /// The look all faces share (frame, header layout, number boxes), taken out before comparing so
    /// the scores measure what tells cards apart. Filled by [`ReferenceSet::prepare`].
    #[serde(skip)]
    mean: Option<(Vec<f32>, Vec<f32>)>,
    #[serde(skip)]
    whitened: Vec<(Vec<f32>, Vec<f32>)>,
}

/// `v` less the shared look `mean`, at unit length.
pub fn minus_mean(v: &[f32], mean: &[f32]) -> Vec<f32> {
    let mut out: Vec<f32> = v.iter().zip(mean).map(|(a, m)| a - m).collect();
    let norm = out.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-6);
    out.iter_mut().for_each(|x| *x /= norm);
    out
}

/// What the matcher decided for one quad.
#[derive(Clone, Debug, PartialEq)]
pub struct Match {
    /// Index into the reference set of the best match.
    pub best: usize,
    /// Which hole corner is the card's top-left (0..4).
    pub roll: usize,
    pub score: f32,
    pub runner_up: f32,
    /// Largest per-tile error of the winner: high when part of the card is hidden.
    pub worst_tile: f32,
    /// The raw faces and the whitened residue agree on the rotation (a disagreement means the
    /// winner is doubtful).
    pub rotation_agrees: bool,
    /// Correlation of the whole hole with the winner's (1 = same layout); low when the quad is
    /// not the whole card, e.g. a sleeve closing off part of it. `None` without a layout reference.
    pub layout: Option<f32>,
}

/// Zero-mean per channel, then unit length: insensitive to overall brightness and contrast.
fn normalise(patch: &Mat) -> Result<Vec<f32>, VisionError> {
    let data = patch.data_bytes()?;
    let n = data.len() / 3;
    let mut v: Vec<f32> = data.iter().map(|&b| b as f32).collect();
    for k in 0..3 {
        let mean = (0..n).map(|i| v[i * 3 + k]).sum::<f32>() / n as f32;
        for i in 0..n {
            v[i * 3 + k] -= mean;
        }
    }
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-3);
    v.iter_mut().for_each(|x| *x /= norm);
    Ok(v)
}

fn resize(src: &Mat, w: i32, h: i32) -> Result<Mat, VisionError> {
    let mut out = Mat::default();
    imgproc::resize(src, &mut out, Size::new(w, h), 0.0, 0.0, INTER_AREA)?;
    Ok(out)
}

const FULL_SIDE: i32 = 12;

/// Descriptors of a printed face (FACE_W × FACE_H): its hole region, as the camera sees it.
pub fn describe_face(face: &Mat) -> Result<Descriptors, VisionError> {
    let hole = hole_rect(FACE_W as f64, FACE_H as f64);
    let rect = Rect::new(
        hole[0][0] as i32,
        hole[0][1] as i32,
        (hole[1][0] - hole[0][0]) as i32,
        (hole[2][1] - hole[1][1]) as i32,
    );
    let crop = Mat::roi(face, rect)?.try_clone()?;
    // Down to about what a webcam sees first, so both sides are smoothed alike.
    let small = resize(&crop, FINE_W * 2, FINE_H * 2)?;
    describe(&small)
}

/// Descriptors of a hole patch (any size, upright, BGR).
pub fn describe(patch: &Mat) -> Result<Descriptors, VisionError> {
    describe_with_ink(patch, middle_ink(patch)?)
}

/// [`describe`], the ink given: the four rolls of one hole share it.
fn describe_with_ink(patch: &Mat, ink: f32) -> Result<Descriptors, VisionError> {
    let mut whole = Mat::default();
    imgproc::gaussian_blur(
        patch,
        &mut whole,
        Size::new(0, 0),
        BLUR_SIGMA,
        0.0,
        opencv::core::BORDER_REPLICATE,
    )?;
    let full = normalise(&resize(&whole, FULL_SIDE, FULL_SIDE)?)?;
    let rows = (patch.rows() as f64 * COMPARED_FRACTION).round() as i32;
    let top = Mat::roi(patch, Rect::new(0, 0, patch.cols(), rows))?.try_clone()?;
    // Smooth first: a webcam frame is softer than the printed face, and fine print (names, digits)
    // would otherwise weigh more than the big shapes that tell cards apart.
    let mut soft = Mat::default();
    imgproc::gaussian_blur(
        &top,
        &mut soft,
        Size::new(0, 0),
        BLUR_SIGMA,
        0.0,
        opencv::core::BORDER_REPLICATE,
    )?;
    let fine = resize(&soft, FINE_W, FINE_H)?;
    let coarse = resize(&fine, COARSE_W, COARSE_H)?;
    Ok(Descriptors {
        coarse: normalise(&coarse)?,
        fine: normalise(&fine)?,
        full,
        ink,
    })
}

/// The share of the hole left out on each side when its ink is measured: the hole's edge may
/// take in a sliver of the frame or of what lies beyond.
const INK_MARGIN: f64 = 0.1;

fn middle_ink(patch: &Mat) -> Result<f32, VisionError> {
    let (mx, my) = (
        (patch.cols() as f64 * INK_MARGIN).round() as i32,
        (patch.rows() as f64 * INK_MARGIN).round() as i32,
    );
    let middle = Mat::roi(
        patch,
        Rect::new(mx, my, patch.cols() - 2 * mx, patch.rows() - 2 * my),
    )?;
    let (mut mean, mut deviation) = (Mat::default(), Mat::default());
    opencv::core::mean_std_dev(
        &middle,
        &mut mean,
        &mut deviation,
        &opencv::core::no_array(),
    )?;
    let mut most: f64 = 0.0;
    for k in 0..deviation.rows() {
        most = most.max(*deviation.at::<f64>(k)?);
    }
    Ok(most as f32)
}

impl ReferenceSet {
    /// Builds the set from printed faces: the hole region of each face, as the camera sees it.
    pub fn from_faces<'a>(
        faces: impl IntoIterator<Item = (&'a str, &'a Mat)>,
    ) -> Result<ReferenceSet, VisionError> {
        let mut refs = Vec::new();
        for (id, face) in faces {
            let d = describe_face(face)?;
            refs.push(Reference {
                card: id.to_string(),
                coarse: d.coarse,
                fine: d.fine,
                full: d.full,
                embedding: Vec::new(),
            });
        }
        let mut set = ReferenceSet {
            refs,
            ..Default::default()
        };
        set.prepare();
        Ok(set)
    }

    /// Computes the shared look from the current references (call after adding references).
    pub fn prepare(&mut self) {
        if self.refs.is_empty() {
            return;
        }
        let mean = |f: &dyn Fn(&Reference) -> &Vec<f32>| {
            let n = f(&self.refs[0]).len();
            let mut m = vec![0.0f32; n];
            for r in &self.refs {
                m.iter_mut()
                    .zip(f(r))
                    .for_each(|(a, b)| *a += b / self.refs.len() as f32);
            }
            m
        };
        let mean = self
            .mean
            .clone()
            .unwrap_or_else(|| (mean(&|r| &r.coarse), mean(&|r| &r.fine)));
        self.whitened = self
            .refs
            .iter()
            .map(|r| (minus_mean(&r.coarse, &mean.0), minus_mean(&r.fine, &mean.1)))
            .collect();
        self.mean = Some(mean);
    }

    /// The most similar reference to a fine descriptor other than `exclude`, with its score.
    pub fn closest(&self, fine: &[f32], exclude: &str) -> Option<(String, f32)> {
        let (_, mean_f) = self.mean.as_ref()?;
        let obs = minus_mean(fine, mean_f);
        self.refs
            .iter()
            .zip(&self.whitened)
            .filter(|(r, _)| r.card != exclude)
            .map(|(r, w)| {
                (
                    r.card.clone(),
                    w.1.iter().zip(&obs).map(|(a, b)| a * b).sum::<f32>(),
                )
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// Adds references (enrolled cards) keeping the shared look of the existing set.
    pub fn extend(&mut self, more: Vec<Reference>) {
        self.refs.extend(more);
        self.prepare();
    }

    /// The catalogue's faces, rendered one at a time (never all in memory at once).
    pub fn from_catalogue(
        cards: &[blitz::catalogue::CardDef],
    ) -> Result<ReferenceSet, VisionError> {
        ReferenceSet::from_designs(&crate::distinct::blitz_designs(cards)?)
    }

    /// Each design's face, rendered one at a time.
    pub fn from_designs(designs: &[crate::face::FaceDesign]) -> Result<ReferenceSet, VisionError> {
        let mut set = ReferenceSet::default();
        for d in designs {
            let face = crate::face::render_design(d)?;
            set.refs
                .extend(ReferenceSet::from_faces([(d.id.as_str(), &face)])?.refs);
        }
        set.prepare();
        Ok(set)
    }

    /// Compares the patches seen for one hole (one per roll) against every reference.
    pub fn best_match(&self, rolls: &[Descriptors; 4]) -> Option<Match> {
        let (mean_c, mean_f) = self.mean.as_ref()?;
        if self.whitened.len() != self.refs.len() || self.refs.is_empty() {
            return None;
        }
        let dot = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>();
        let raw = rolls;
        let rolls: Vec<(Vec<f32>, Vec<f32>)> = rolls
            .iter()
            .map(|d| (minus_mean(&d.coarse, mean_c), minus_mean(&d.fine, mean_f)))
            .collect();
        let mut coarse: Vec<(f32, usize, usize)> = Vec::with_capacity(self.refs.len() * 4);
        for (i, r) in self.whitened.iter().enumerate() {
            for (roll, obs) in rolls.iter().enumerate() {
                coarse.push((dot(&r.0, &obs.0), i, roll));
            }
        }
        coarse.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut fine: Vec<(f32, usize, usize)> = coarse
            .iter()
            .take(SHORTLIST)
            .map(|&(_, i, roll)| (dot(&self.whitened[i].1, &rolls[roll].1), i, roll))
            .collect();
        fine.sort_by(|a, b| b.0.total_cmp(&a.0));
        let (score, best, whitened_roll) = fine[0];
        // The rotation from the raw faces: the layout every card shares shows which way is up far
        // better than the whitened residue does.
        let roll = (0..4)
            .max_by(|&a, &b| {
                dot(&self.refs[best].fine, &raw[a].fine)
                    .total_cmp(&dot(&self.refs[best].fine, &raw[b].fine))
            })
            .unwrap_or(0);
        let best_id = &self.refs[best].card;
        let runner_up = fine
            .iter()
            .find(|f| &self.refs[f.1].card != best_id)
            .map(|f| f.0)
            .unwrap_or(-1.0);
        let worst_tile = worst_tile_error(&self.whitened[best].1, &rolls[roll].1);
        let full = &self.refs[best].full;
        let layout = (full.len() == raw[roll].full.len()).then(|| dot(full, &raw[roll].full));
        Some(Match {
            layout,
            best,
            roll,
            score,
            runner_up,
            worst_tile,
            rotation_agrees: roll == whitened_roll,
        })
    }
}

/// Per-tile squared error (2×2 tiles) of two unit descriptors, scaled so a perfect match is 0 and
/// an unrelated tile about 1.
fn worst_tile_error(a: &[f32], b: &[f32]) -> f32 {
    let (tw, th) = (FINE_W as usize / 2, FINE_H as usize / 2);
    let mut worst: f32 = 0.0;
    for ty in 0..2 {
        for tx in 0..2 {
            let mut err = 0.0;
            let mut energy = 0.0;
            for y in ty * th..(ty + 1) * th {
                for x in tx * tw..(tx + 1) * tw {
                    for k in 0..3 {
                        let i = (y * FINE_W as usize + x) * 3 + k;
                        err += (a[i] - b[i]).powi(2);
                        energy += a[i].powi(2) + b[i].powi(2);
                    }
                }
            }
            worst = worst.max(err / energy.max(1e-6));
        }
    }
    worst
}

/// Warps the hole quad to an upright patch for each of the four choices of the card's top-left
/// corner. Two warps: the other two rolls are the same patches turned 180°.
pub fn hole_patches(image: &Mat, hole: &[[f64; 2]; 4]) -> Result<[Descriptors; 4], VisionError> {
    let (w, h) = (FINE_W * 2, FINE_H * 2);
    let mut out: Vec<Descriptors> = Vec::with_capacity(4);
    let mut patches = Vec::with_capacity(2);
    for roll in 0..2 {
        let src: Vec<[f64; 2]> = (0..4).map(|k| hole[(k + roll) % 4]).collect();
        let patch = geometry::warp_quad(image, &src, w, h, INTER_LINEAR)?
            .ok_or_else(|| VisionError::Other("degenerate quad".into()))?;
        patches.push(patch);
    }
    let ink = middle_ink(&patches[0])?;
    for roll in 0..4 {
        let base = &patches[roll % 2];
        if roll >= 2 {
            let mut turned = Mat::default();
            opencv::core::rotate(base, &mut turned, opencv::core::ROTATE_180)?;
            out.push(describe_with_ink(&turned, ink)?);
        } else {
            out.push(describe_with_ink(base, ink)?);
        }
    }
    let arr: [Descriptors; 4] = out
        .try_into()
        .map_err(|_| VisionError::Other("rolls".into()))?;
    Ok(arr)
}

/// The card's corners (top-left, top-right, bottom-right, bottom-left) from its hole and roll.
pub fn card_corners(
    hole: &[[f64; 2]; 4],
    roll: usize,
) -> Result<Option<CardPlacement>, VisionError> {
    let (w, h) = (crate::face::CARD_W_MM, crate::face::CARD_H_MM);
    let local = hole_rect(w, h);
    let img: Vec<[f64; 2]> = (0..4).map(|k| hole[(k + roll) % 4]).collect();
    let Some(hm) = geometry::homography(&local, &img, false)? else {
        return Ok(None);
    };
    let corners = [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]].map(|p| geometry::apply(&hm, p));
    Ok(Some((corners, hm)))
}

/// Where the frame hole of one of our printed faces lies when the card's outline is `card` (any
/// corner first, either way round): the inverse of [`card_corners`], in the winding the frame
/// detector gives. `None` for degenerate geometry.
pub fn hole_of_card(card: &[[f64; 2]; 4]) -> Result<Option<[[f64; 2]; 4]>, VisionError> {
    let mut card = *card;
    if geometry::signed_area(&card) < 0.0 {
        card.swap(1, 3);
    }
    let side = |a: usize, b: usize| crate::detect::dist(card[a % 4], card[b % 4]);
    // The card's short sides first, as the face's own corners have them.
    let roll = usize::from(side(0, 1) + side(2, 3) > side(1, 2) + side(3, 0));
    let outline: [[f64; 2]; 4] = std::array::from_fn(|k| card[(k + roll) % 4]);
    let (w, h) = (crate::face::CARD_W_MM, crate::face::CARD_H_MM);
    let rect = [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]];
    let Some(hm) = geometry::homography(&rect, &outline, false)? else {
        return Ok(None);
    };
    Ok(Some(hole_rect(w, h).map(|p| geometry::apply(&hm, p))))
}

/// Descriptors of a card laid upright (top away from the camera) in `image`: the largest frame hole.
/// Returns the reference, its corners and, if it looks like a card already known, that card and its
/// score.
pub fn enroll(image: &Mat, card: &str, known: &ReferenceSet) -> Result<Enrolled, VisionError> {
    let mut gray = Mat::default();
    imgproc::cvt_color(image, &mut gray, imgproc::COLOR_BGR2GRAY, 0)?;
    // One card, maybe close to the camera: allow a hole up to most of the frame.
    let opts = crate::detect::DetectOptions {
        max_area_fraction: 0.9,
        ..crate::detect::DetectOptions::plain()
    };
    let holes = crate::detect::find_holes(&gray, &opts, None)?;
    let hole = holes
        .first()
        .ok_or_else(|| VisionError::Other("no card frame found in the image".into()))?;
    let rolls = hole_patches(image, &hole.points)?;
    // The roll whose top edge points up in the image.
    let c = geometry::centroid(&hole.points);
    let roll = (0..4)
        .max_by(|&a, &b| {
            let up = |r: usize| c[1] - (hole.points[r][1] + hole.points[(r + 1) % 4][1]) / 2.0;
            up(a).total_cmp(&up(b))
        })
        .unwrap_or(0);
    let d = rolls[roll].clone();
    let similar = known.closest(&d.fine, card).filter(|(_, s)| *s > 0.6);
    let (corners, _) = card_corners(&hole.points, roll)?
        .ok_or_else(|| VisionError::Other("degenerate card frame".into()))?;
    Ok(Enrolled {
        reference: Reference {
            card: card.to_string(),
            coarse: d.coarse,
            fine: d.fine,
            full: d.full,
            embedding: Vec::new(),
        },
        similar,
        corners: corners.map(|p| [p[0] as f32, p[1] as f32]),
    })
}

impl ReferenceSet {
    pub fn load(path: &std::path::Path) -> Result<ReferenceSet, VisionError> {
        let text = std::fs::read_to_string(path).map_err(|e| VisionError::io(path, e))?;
        serde_json::from_str(&text).map_err(|e| VisionError::Data {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })
    }

    /// Writes to a temporary file beside `path`, syncs it and renames it over the old file: a kill
    /// at any moment leaves the old references or the new ones, never half of a player's deck.
    pub fn save(&self, path: &std::path::Path) -> Result<(), VisionError> {
        let text = serde_json::to_string(self).map_err(|e| VisionError::Other(e.to_string()))?;
        crate::files::write_atomic(path, text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_hole_has_no_ink_and_a_face_has_some() {
        let plain = Mat::new_rows_cols_with_default(
            48,
            48,
            opencv::core::CV_8UC3,
            opencv::core::Scalar::new(180.0, 90.0, 40.0, 0.0),
        )
        .expect("patch");
        assert!(describe(&plain).expect("descriptors").ink < 1.0);
        let catalogue = blitz::catalogue::Catalogue::demo();
        let faces = crate::distinct::blitz_faces(&catalogue.cards).expect("faces");
        for (id, face) in faces.iter().take(5) {
            let ink = describe_face(face).expect("descriptors").ink;
            assert!(ink > 20.0, "{id}: {ink}");
        }
    }

    /// A card's outline given from any corner, either way round, gives back the hole whose card
    /// it is: `card_corners` of that hole is the same outline.
    #[test]
    fn the_hole_of_a_card_outline_is_the_one_whose_card_it_is() {
        let hole = [[102.0, 51.0], [161.0, 58.0], [154.0, 140.0], [96.0, 131.0]];
        let (card, _) = card_corners(&hole, 0).unwrap().unwrap();
        for roll in 0..4 {
            for reversed in [false, true] {
                let mut given: [[f64; 2]; 4] = std::array::from_fn(|k| card[(k + roll) % 4]);
                if reversed {
                    given.reverse();
                }
                let found = hole_of_card(&given).unwrap().unwrap();
                let (back, _) = card_corners(&found, 0).unwrap().unwrap();
                let off = |q: &[[f64; 2]; 4]| {
                    card.iter()
                        .map(|p| {
                            q.iter()
                                .map(|r| (p[0] - r[0]).hypot(p[1] - r[1]))
                                .fold(f64::MAX, f64::min)
                        })
                        .fold(0.0, f64::max)
                };
                assert!(
                    off(&back) < 1e-6,
                    "roll {roll} reversed {reversed}: {back:?}"
                );
                assert!(geometry::signed_area(&found) > 0.0);
            }
        }
        let flat = [[0.0, 0.0], [10.0, 0.0], [20.0, 0.0], [30.0, 0.0]];
        assert_eq!(hole_of_card(&flat).unwrap(), None);
    }
}
