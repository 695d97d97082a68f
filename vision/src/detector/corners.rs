//! Learned corner refinement: the detector finds cards at a quarter of a 1280-px frame's resolution,
//! so its corners are some pixels off, and a crop cut from them names the card less often. A small
//! network (models/detect/card_corners.tflite, trained by corners_train.py) looks at one corner at a
//! time — a square cut along the card's own axes around where the detector put it, the card's inside
//! towards the bottom right — and says where the corner really is. The four corners of a card go
//! through the model in one call.

use crate::detect::dist as distance;
use crate::geometry::{self, H3};
use crate::tflite::TfliteModel;
use crate::VisionError;
use opencv::core::{Mat, Scalar, Size, BORDER_CONSTANT};
use opencv::imgproc;
use opencv::prelude::*;
use std::path::Path;

/// Where the shipped refiner lies in the repository.
pub const DEFAULT_CORNER_MODEL: &str = "models/detect/card_corners.tflite";

/// The patch's side in pixels and how far it reaches along the card's sides either way of the
/// corner, as a share of each side (corners_train.py's `PATCH` and `REACH`).
pub const PATCH: usize = 48;
const REACH: f64 = 0.25;
/// corners_train.py's `normalise`: a patch's spread is floored by this before dividing.
const SPREAD_FLOOR: f32 = 0.02;
/// Corners go through the model four at a time (one card).
const BATCH: usize = 4;
/// A refined corner farther than this share of the card's mean side from where it was is not
/// believed (the refiner was trained on quads at most 0.2 off): the card keeps its quad.
const MAX_MOVE: f64 = 0.3;

pub struct CornerRefiner {
    model: TfliteModel,
    input: Vec<f32>,
}

impl CornerRefiner {
    /// Loads the model (under the guards of [`TfliteModel::load`]) and checks it gives two finite
    /// numbers a corner.
    pub fn load(path: impl AsRef<Path>) -> Result<CornerRefiner, VisionError> {
        let refiner = CornerRefiner {
            model: TfliteModel::load(path)?,
            input: vec![0.0; BATCH * PATCH * PATCH * 3],
        };
        let out = refiner.run_model()?;
        if out.len() != BATCH * 2 {
            return Err(refiner.model.error(format!(
                "corner model gives {} values for {BATCH} patches, expected {}",
                out.len(),
                BATCH * 2
            )));
        }
        if out.iter().any(|v| !v.is_finite()) {
            return Err(refiner
                .model
                .error("corner model gives values that are not finite numbers".into()));
        }
        Ok(refiner)
    }

    /// The card's corners moved to where the model sees them, in the order given; `None` when the
    /// quad is degenerate or the model's answer is not believable (keep the quad).
    pub fn refine(
        &mut self,
        image: &Mat,
        corners: &[[f64; 2]; 4],
    ) -> Result<Option<[[f64; 2]; 4]>, VisionError> {
        // The model was trained on quads clockwise on screen.
        let reversed = geometry::signed_area(corners) < 0.0;
        let quad = if reversed {
            [corners[3], corners[2], corners[1], corners[0]]
        } else {
            *corners
        };
        let mut maps = [geometry::IDENTITY; BATCH];
        for (k, map) in maps.iter_mut().enumerate() {
            let turned = [0, 1, 2, 3].map(|i| quad[(k + i) % 4]);
            let Some(unit_to_image) = geometry::square_to_quad(&turned) else {
                return Ok(None);
            };
            let patch = cut_patch(image, &unit_to_image)?;
            normalise_into(
                &patch,
                &mut self.input[k * PATCH * PATCH * 3..(k + 1) * PATCH * PATCH * 3],
            )?;
            *map = unit_to_image;
        }
        let out = self.run_model()?;
        let refined: [[f64; 2]; 4] = std::array::from_fn(|k| {
            let unit = [out[2 * k] as f64 * REACH, out[2 * k + 1] as f64 * REACH];
            geometry::apply(&maps[k], unit)
        });
        if !believable(&quad, &refined) {
            return Ok(None);
        }
        Ok(Some(if reversed {
            [refined[3], refined[2], refined[1], refined[0]]
        } else {
            refined
        }))
    }

    fn run_model(&self) -> Result<Vec<f32>, VisionError> {
        self.model.run(&[BATCH, PATCH, PATCH, 3], &self.input)
    }

    /// The raw model output for four BGR patches already cut (agreement tests).
    pub fn raw_output(&mut self, patches: &[Mat; 4]) -> Result<Vec<f32>, VisionError> {
        for (k, p) in patches.iter().enumerate() {
            if p.cols() as usize != PATCH || p.rows() as usize != PATCH {
                return Err(VisionError::Other(format!(
                    "raw_output: patches must be {PATCH}×{PATCH}"
                )));
            }
            normalise_into(
                p,
                &mut self.input[k * PATCH * PATCH * 3..(k + 1) * PATCH * PATCH * 3],
            )?;
        }
        self.run_model()
    }
}

/// The patch around the unit square's origin: its pixel centres spread over [-REACH, REACH]².
fn cut_patch(image: &Mat, unit_to_image: &H3) -> Result<Mat, VisionError> {
    let step = 2.0 * REACH / PATCH as f64;
    let offset = -REACH + step / 2.0;
    let patch_to_image = geometry::to_mat(&geometry::mul(
        unit_to_image,
        &geometry::scale_translate(step, offset, offset),
    ))?;
    let mut patch = Mat::default();
    imgproc::warp_perspective(
        image,
        &mut patch,
        &patch_to_image,
        Size::new(PATCH as i32, PATCH as i32),
        imgproc::INTER_LINEAR | imgproc::WARP_INVERSE_MAP,
        BORDER_CONSTANT,
        Scalar::all(0.0),
    )?;
    Ok(patch)
}

/// BGR / 255 less the patch's mean, over its spread: what corners_train.py's `normalise` gives.
fn normalise_into(patch: &Mat, dst: &mut [f32]) -> Result<(), VisionError> {
    let bytes = patch.data_bytes()?;
    if bytes.len() != dst.len() {
        return Err(VisionError::Other(format!(
            "corner patch has {} values, expected {}",
            bytes.len(),
            dst.len()
        )));
    }
    let n = bytes.len() as f64;
    let mean = bytes.iter().map(|&b| b as f64 / 255.0).sum::<f64>() / n;
    let var = bytes
        .iter()
        .map(|&b| (b as f64 / 255.0 - mean).powi(2))
        .sum::<f64>()
        / n;
    let spread = var.sqrt() as f32 + SPREAD_FLOOR;
    for (d, &b) in dst.iter_mut().zip(bytes) {
        *d = (b as f32 / 255.0 - mean as f32) / spread;
    }
    Ok(())
}

/// Each corner moved at most `MAX_MOVE` of the mean side (a corner that is not a finite point never
/// is), and the quad still convex and clockwise.
fn believable(before: &[[f64; 2]; 4], after: &[[f64; 2]; 4]) -> bool {
    let side = (0..4)
        .map(|i| distance(before[i], before[(i + 1) % 4]))
        .sum::<f64>()
        / 4.0;
    let moved_little = (0..4).all(|i| distance(before[i], after[i]) <= MAX_MOVE * side);
    let convex = (0..4).all(|i| {
        let (a, b, c) = (after[i], after[(i + 1) % 4], after[(i + 2) % 4]);
        (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]) > 0.0
    });
    moved_little && convex
}

#[cfg(test)]
mod tests {
    use super::*;

    const SQUARE: [[f64; 2]; 4] = [[10.0, 10.0], [50.0, 10.0], [50.0, 60.0], [10.0, 60.0]];

    #[test]
    fn a_patch_is_cut_along_the_cards_sides_with_its_inside_to_the_bottom_right() {
        // A white card on black: every corner's patch is black above and left of its centre and
        // white below and right of it, whichever corner it is.
        let mut image =
            Mat::new_rows_cols_with_default(80, 70, opencv::core::CV_8UC3, Scalar::all(0.0))
                .unwrap();
        imgproc::rectangle_points(
            &mut image,
            opencv::core::Point::new(10, 10),
            opencv::core::Point::new(49, 59),
            Scalar::all(255.0),
            -1,
            imgproc::LINE_8,
            0,
        )
        .unwrap();
        let quad = [[10.0, 10.0], [50.0, 10.0], [50.0, 60.0], [10.0, 60.0]];
        for k in 0..4 {
            let turned = [0, 1, 2, 3].map(|i| quad[(k + i) % 4]);
            let m = geometry::square_to_quad(&turned).unwrap();
            let patch = cut_patch(&image, &m).unwrap();
            let at = |x: i32, y: i32| patch.at_2d::<opencv::core::Vec3b>(y, x).unwrap()[0];
            let (a, b) = (PATCH as i32 / 4, 3 * PATCH as i32 / 4);
            assert_eq!((at(a, a), at(b, a), at(a, b)), (0, 0, 0), "corner {k}");
            assert_eq!(at(b, b), 255, "corner {k}");
        }
    }

    #[test]
    fn a_corner_thrown_far_or_a_folded_quad_is_not_believed() {
        let mut far = SQUARE;
        far[2] = [90.0, 90.0];
        assert!(!believable(&SQUARE, &far));
        let mut folded = SQUARE;
        folded.swap(1, 2);
        assert!(!believable(&SQUARE, &folded));
        let mut lost = SQUARE;
        lost[1] = [f64::NAN, 10.0];
        assert!(!believable(&SQUARE, &lost));
        let mut nudged = SQUARE;
        nudged[0] = [12.0, 9.0];
        assert!(believable(&SQUARE, &nudged));
    }

    #[test]
    fn normalised_patches_have_no_mean_and_unit_spread() {
        let patch = Mat::new_rows_cols_with_default(
            PATCH as i32,
            PATCH as i32,
            opencv::core::CV_8UC3,
            Scalar::new(40.0, 90.0, 200.0, 0.0),
        )
        .unwrap();
        let mut dst = vec![0.0; PATCH * PATCH * 3];
        normalise_into(&patch, &mut dst).unwrap();
        let mean = dst.iter().sum::<f32>() / dst.len() as f32;
        let spread =
            (dst.iter().map(|v| (v - mean).powi(2)).sum::<f32>() / dst.len() as f32).sqrt();
        assert!(mean.abs() < 1e-4, "{mean}");
        let s = spread_of(&[40, 90, 200]);
        assert!((spread - s / (s + SPREAD_FLOOR)).abs() < 1e-3, "{spread}");
    }

    fn spread_of(levels: &[u8]) -> f32 {
        let v: Vec<f32> = levels.iter().map(|&b| b as f32 / 255.0).collect();
        let m = v.iter().sum::<f32>() / v.len() as f32;
        (v.iter().map(|x| (x - m).powi(2)).sum::<f32>() / v.len() as f32).sqrt()
    }
}
