//! A learned card identifier (issue 8): a small CNN, trained in `models/identify/` on crops from the
//! synthetic renderer, maps an upright card crop to an L2-normalised embedding. A card is identified by
//! its nearest enrolled embedding, so a new card only needs its clean face enrolled, never retraining.

use crate::tflite::TfliteModel;
use crate::VisionError;
use opencv::core::{Mat, Point2f, Scalar, Size, Vector, BORDER_REPLICATE, CV_8UC3};
use opencv::imgproc::{self, INTER_AREA, INTER_LINEAR};
use opencv::prelude::*;
use std::path::Path;

/// Crop size the model takes (card aspect 63 × 88 mm ≈ 40 × 56 px), BGR u8.
pub const CROP_W: i32 = 40;
pub const CROP_H: i32 = 56;
/// Warp at this multiple of the crop size first, then area-downscale: a direct warp to 40 px would alias.
const SUPERSAMPLE: i32 = 4;

/// The card quad (its own top-left, top-right, bottom-right, bottom-left, image px) warped upright to
/// `CROP_W × CROP_H`. The same function makes the training crops and the crops identified at run time.
pub fn warp_crop(image: &Mat, corners: &[[f32; 2]; 4]) -> Result<Mat, VisionError> {
    warp_crop_sized(image, corners, (CROP_W, CROP_H))
}

/// As [`warp_crop`], to a crop of `(width, height)` (a model's own input size).
pub fn warp_crop_sized(
    image: &Mat,
    corners: &[[f32; 2]; 4],
    (crop_w, crop_h): (i32, i32),
) -> Result<Mat, VisionError> {
    let (w, h) = ((crop_w * SUPERSAMPLE) as f32, (crop_h * SUPERSAMPLE) as f32);
    let src: Vector<Point2f> = corners.iter().map(|c| Point2f::new(c[0], c[1])).collect();
    let dst: Vector<Point2f> = [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]]
        .iter()
        .map(|c| Point2f::new(c[0], c[1]))
        .collect();
    let m = imgproc::get_perspective_transform(&src, &dst, opencv::core::DECOMP_LU)?;
    let mut big = Mat::default();
    imgproc::warp_perspective(
        image,
        &mut big,
        &m,
        Size::new(crop_w * SUPERSAMPLE, crop_h * SUPERSAMPLE),
        INTER_LINEAR,
        BORDER_REPLICATE,
        Scalar::default(),
    )?;
    let mut small = Mat::default();
    imgproc::resize(
        &big,
        &mut small,
        Size::new(crop_w, crop_h),
        0.0,
        0.0,
        INTER_AREA,
    )?;
    Ok(small)
}

/// A face image (any size, upright) resized to the crop size, for enrolment.
pub fn face_crop(face: &Mat) -> Result<Mat, VisionError> {
    let mut small = Mat::default();
    imgproc::resize(
        face,
        &mut small,
        Size::new(CROP_W, CROP_H),
        0.0,
        0.0,
        INTER_AREA,
    )?;
    Ok(small)
}

/// Length of the embedding the shipped model produces.
pub const EMBED_DIM: usize = 64;

/// The float32 TFLite embedding model.
pub struct Embedder {
    model: TfliteModel,
    /// The crop the model takes, (width, height): read from the model, `CROP_W × CROP_H` when it
    /// does not say.
    crop_size: (i32, i32),
}

impl Embedder {
    /// Loads and plans a `.tflite` file (under the guards of [`TfliteModel::load`]).
    pub fn load(path: impl AsRef<Path>) -> Result<Embedder, VisionError> {
        let model = TfliteModel::load(path)?;
        let crop_size = match model.input_shape().as_deref() {
            Some(&[1, h, w, 3]) if (8..=1024).contains(&w) && (8..=1024).contains(&h) => {
                (w as i32, h as i32)
            }
            None => (CROP_W, CROP_H),
            Some(other) => {
                return Err(model.error(format!(
                    "model input is {other:?}, expected [1, height, width, 3]"
                )))
            }
        };
        let embedder = Embedder { model, crop_size };
        // A model with the wrong input or output shape fails here, once, not on every crop.
        let (w, h) = crop_size;
        let probe = embedder.embed_pixels(&vec![0u8; (w * h * 3) as usize])?;
        if probe.len() != EMBED_DIM {
            return Err(embedder.model.error(format!(
                "model gives {} values, expected a {EMBED_DIM}-d embedding",
                probe.len()
            )));
        }
        Ok(embedder)
    }

    /// The crop the model takes, (width, height).
    pub fn crop_size(&self) -> (i32, i32) {
        self.crop_size
    }

    /// The card quad warped upright to this model's crop size.
    pub fn crop(&self, image: &Mat, corners: &[[f32; 2]; 4]) -> Result<Mat, VisionError> {
        warp_crop_sized(image, corners, self.crop_size)
    }

    /// The L2-normalised embedding of a BGR u8 crop of [`Embedder::crop_size`] (see [`warp_crop`]).
    pub fn embed(&self, crop: &Mat) -> Result<Vec<f32>, VisionError> {
        let (w, h) = self.crop_size;
        if crop.typ() != CV_8UC3 || crop.cols() != w || crop.rows() != h {
            return Err(VisionError::Other(format!(
                "embed: crop must be {w}×{h} BGR u8, got {}×{} type {}",
                crop.cols(),
                crop.rows(),
                crop.typ()
            )));
        }
        let owned;
        let crop = if crop.is_continuous() {
            crop
        } else {
            owned = crop.try_clone()?;
            &owned
        };
        self.embed_pixels(crop.data_bytes()?)
    }

    /// As [`Embedder::embed`], from raw row-major BGR bytes (height × width × 3).
    pub fn embed_pixels(&self, bgr: &[u8]) -> Result<Vec<f32>, VisionError> {
        let raw = self.embed_raw(bgr)?;
        Ok(l2_normalised(raw))
    }

    /// The model's raw output (before normalisation), for checking agreement with the Python
    /// interpreter.
    pub fn embed_raw(&self, bgr: &[u8]) -> Result<Vec<f32>, VisionError> {
        let (w, h) = self.crop_size;
        let expected = (w * h * 3) as usize;
        if bgr.len() != expected {
            return Err(VisionError::Other(format!(
                "embed: {} bytes, expected {expected} ({w}×{h}×3)",
                bgr.len()
            )));
        }
        // Training scaled BGR bytes to [0, 1]; the model takes that directly.
        let input: Vec<f32> = bgr.iter().map(|&b| b as f32 / 255.0).collect();
        self.model.run(&[1, h as usize, w as usize, 3], &input)
    }
}

/// Scales to unit length, so a dot product is the cosine similarity. A zero vector stays zero.
pub fn l2_normalised(mut v: Vec<f32>) -> Vec<f32> {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
    v
}

/// Enrolled cards: one embedding per card id, identified by cosine similarity. Enrolling a new card
/// is one embedding of its clean face; the model is not retrained.
#[derive(Clone, Default)]
pub struct Enrolment {
    cards: Vec<(String, Vec<f32>)>,
}

impl Enrolment {
    /// Enrols each (id, clean face) pair, faces at any size (resized to the crop size).
    pub fn from_faces<'a>(
        embedder: &Embedder,
        faces: impl IntoIterator<Item = (&'a str, &'a Mat)>,
    ) -> Result<Enrolment, VisionError> {
        let mut enrolment = Enrolment::default();
        for (id, face) in faces {
            enrolment.enrol(id, embedder.embed(&face_crop(face)?)?);
        }
        Ok(enrolment)
    }

    pub fn enrol(&mut self, card: &str, embedding: Vec<f32>) {
        self.cards
            .push((card.to_string(), l2_normalised(embedding)));
    }

    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Keeps only the cards `keep` accepts (the decks a player has on the table, say).
    pub fn retain(&mut self, keep: impl Fn(&str) -> bool) {
        self.cards.retain(|(id, _)| keep(id));
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// Whether `card` has an enrolled embedding.
    pub fn contains(&self, card: &str) -> bool {
        self.cards.iter().any(|(id, _)| id == card)
    }

    /// The cosine of `embedding` to `card`'s nearest enrolment; `None` when it is not enrolled.
    pub fn cosine_of(&self, card: &str, embedding: &[f32]) -> Option<f32> {
        self.cards
            .iter()
            .filter(|(id, _)| id == card)
            .map(|(_, e)| e.iter().zip(embedding).map(|(a, b)| a * b).sum::<f32>())
            .max_by(f32::total_cmp)
    }

    /// The best enrolled card for an embedding, with the runner-up: the gap between their cosines is
    /// the margin a caller can threshold to abstain.
    /// The nearest `k` enrolled cards (each once, by its best enrolment), best first, with cosines.
    pub fn ranked(&self, embedding: &[f32], k: usize) -> Vec<(&str, f32)> {
        let mut best: Vec<(&str, f32)> = Vec::new();
        for (id, e) in &self.cards {
            let c: f32 = e.iter().zip(embedding).map(|(a, b)| a * b).sum();
            match best.iter_mut().find(|(other, _)| *other == id.as_str()) {
                Some(seen) => seen.1 = seen.1.max(c),
                None => best.push((id.as_str(), c)),
            }
        }
        best.sort_by(|a, b| b.1.total_cmp(&a.1));
        best.truncate(k);
        best
    }

    pub fn nearest(&self, embedding: &[f32]) -> Option<Nearest<'_>> {
        let mut scored: Vec<(&str, f32)> = self
            .cards
            .iter()
            .map(|(id, e)| {
                (
                    id.as_str(),
                    e.iter().zip(embedding).map(|(a, b)| a * b).sum(),
                )
            })
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1));
        let mut it = scored.into_iter();
        let (card, cosine) = it.next()?;
        // A card may be enrolled more than once (its face and a photo of a print): the runner-up
        // is the best other card.
        Some(Nearest {
            card,
            cosine,
            runner_up: it.find(|(other, _)| *other != card),
        })
    }
}

/// What [`Enrolment::nearest`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Nearest<'a> {
    pub card: &'a str,
    pub cosine: f32,
    /// The best other card and its cosine, if another card is enrolled.
    pub runner_up: Option<(&'a str, f32)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runner_up_is_the_best_other_card_when_a_card_is_enrolled_twice() {
        let mut enrolment = Enrolment::default();
        enrolment.enrol("a", vec![1.0, 0.0, 0.0]);
        enrolment.enrol("a", vec![0.9, 0.1, 0.0]);
        enrolment.enrol("b", vec![0.0, 1.0, 0.0]);
        let near = enrolment.nearest(&[1.0, 0.0, 0.0]).expect("enrolled");
        assert_eq!(near.card, "a");
        assert_eq!(near.runner_up.map(|r| r.0), Some("b"));
        assert!(near.cosine - near.runner_up.map_or(0.0, |r| r.1) > 0.9);
    }
}
