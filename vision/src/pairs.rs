//! The pair verifier: where the identifier abstains between near prints (siblings of one printed
//! design that differ in a count, a numeral or a title), a second model looks at the card seen on
//! the table and each candidate's enrolled print side by side, both cut upright at 64×88, and says
//! how likely they are the same card. It only has to find *where* two crops differ (a pip more, a
//! digit), not squeeze the whole card into an embedding, so it carries over to designs it never saw
//! (models/identify/train_pairs.py; models/identify/README.md has what it measured).

use crate::embed::warp_crop_sized;
use crate::tflite::TfliteModel;
use crate::VisionError;
use opencv::core::{Mat, CV_8UC3};
use opencv::prelude::*;
use std::collections::HashMap;
use std::path::Path;

/// Where the shipped pair verifier lies, from the repository root.
pub const DEFAULT_MODEL: &str = "models/identify/card_pairs.tflite";

/// The crop each side is cut to (the card's 63 × 88 mm at about 1 px per mm), BGR.
pub const CROP_W: i32 = 64;
pub const CROP_H: i32 = 88;
const CHANNELS: usize = 6;

/// The verifier and every enrolled print cut for it.
pub struct PairVerifier {
    model: TfliteModel,
    pub prints: PairPrints,
}

/// Each enrolled card's prints (a card may be enrolled more than once), cut upright and scaled to
/// 0..1, row-major BGR.
#[derive(Clone, Debug, Default)]
pub struct PairPrints(HashMap<String, Vec<Vec<f32>>>);

impl PairPrints {
    /// Enrols the print of `card` lying at `corners` in `photo`.
    pub fn enrol(
        &mut self,
        card: &str,
        photo: &Mat,
        corners: &[[f32; 2]; 4],
    ) -> Result<(), VisionError> {
        let crop = PairVerifier::cut(photo, corners)?;
        self.0.entry(card.to_string()).or_default().push(crop);
        Ok(())
    }

    /// A copy of the prints of the cards `keep` accepts (the others are not copied: a print is
    /// 67 KB).
    pub fn only(&self, keep: impl Fn(&str) -> bool) -> PairPrints {
        PairPrints(
            self.0
                .iter()
                .filter(|(card, _)| keep(card))
                .map(|(card, prints)| (card.clone(), prints.clone()))
                .collect(),
        )
    }
}

/// What the verifier saw among the candidates: the likeliest card, its probability of being the
/// card seen, and its lead over the likeliest other candidate.
pub type PairSeen = (String, f32, f32);

impl PairVerifier {
    /// Loads the model (under the guards of every model file) and checks its input and output once;
    /// prints are enrolled afterwards.
    pub fn load(path: impl AsRef<Path>) -> Result<PairVerifier, VisionError> {
        let model = TfliteModel::load(path)?;
        let expected = [1, CROP_H as usize, CROP_W as usize, CHANNELS];
        if let Some(shape) = model.input_shape() {
            if shape != expected {
                return Err(model.error(format!(
                    "model input is {shape:?}, expected {expected:?} (the seen crop and a print)"
                )));
            }
        }
        let verifier = PairVerifier {
            model,
            prints: PairPrints::default(),
        };
        let blank = vec![0.0; (CROP_W * CROP_H * 3) as usize];
        verifier.same_logit(&blank, &blank)?;
        Ok(verifier)
    }

    /// The quad (its own top-left first, image px) cut upright at the verifier's size, 0..1.
    pub fn cut(image: &Mat, corners: &[[f32; 2]; 4]) -> Result<Vec<f32>, VisionError> {
        let crop = warp_crop_sized(image, corners, (CROP_W, CROP_H))?;
        if crop.typ() != CV_8UC3 {
            return Err(VisionError::Other(format!(
                "pair crop: expected BGR u8, got type {}",
                crop.typ()
            )));
        }
        // A fresh resize: continuous, so its bytes are the rows one after another.
        Ok(crop
            .data_bytes()?
            .iter()
            .map(|&b| b as f32 / 255.0)
            .collect())
    }

    /// The model's logit that `seen` and `print` (each [`PairVerifier::cut`]) are the same card.
    pub fn same_logit(&self, seen: &[f32], print: &[f32]) -> Result<f32, VisionError> {
        let pixels = (CROP_W * CROP_H) as usize;
        if seen.len() != pixels * 3 || print.len() != pixels * 3 {
            return Err(VisionError::Other(format!(
                "pair verifier: crops of {} and {} values, expected {}",
                seen.len(),
                print.len(),
                pixels * 3
            )));
        }
        let mut input = Vec::with_capacity(pixels * CHANNELS);
        for (s, p) in seen.chunks_exact(3).zip(print.chunks_exact(3)) {
            input.extend_from_slice(s);
            input.extend_from_slice(p);
        }
        let out = self
            .model
            .run(&[1, CROP_H as usize, CROP_W as usize, CHANNELS], &input)?;
        match out.as_slice() {
            [logit] => Ok(*logit),
            other => Err(self.model.error(format!(
                "model gives {} values, expected one logit",
                other.len()
            ))),
        }
    }

    /// Which of `candidates` the card is likeliest to be, at whichever of `turns` (the card's
    /// corners, its own top-left first) one is likeliest: the identifier may have chosen the turn by
    /// a sibling's print. `None` when fewer than two candidates have an enrolled print (nothing to
    /// tell apart).
    pub fn rank(
        &self,
        image: &Mat,
        turns: &[[[f32; 2]; 4]],
        candidates: &[&str],
    ) -> Result<Option<(PairSeen, usize)>, VisionError> {
        let enrolled: Vec<(&str, &Vec<Vec<f32>>)> = candidates
            .iter()
            .filter_map(|&c| self.prints.0.get(c).map(|p| (c, p)))
            .collect();
        if enrolled.len() < 2 {
            return Ok(None);
        }
        let seen: Vec<Vec<f32>> = turns
            .iter()
            .map(|t| Self::cut(image, t))
            .collect::<Result<_, _>>()?;
        // Each candidate's likeliest print over the turns, and the turn it was at.
        let mut scored: Vec<(&str, f32, usize)> = Vec::with_capacity(enrolled.len());
        for (card, prints) in enrolled {
            let mut best = (f32::NEG_INFINITY, 0);
            for (turn, crop) in seen.iter().enumerate() {
                for print in prints {
                    let logit = self.same_logit(crop, print)?;
                    if logit > best.0 {
                        best = (logit, turn);
                    }
                }
            }
            scored.push((card, best.0, best.1));
        }
        Ok(likeliest(&scored))
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The likeliest of the scored candidates (card, logit, turn), with its probability and its lead in
/// probability over the next; `None` when there are none.
fn likeliest(scored: &[(&str, f32, usize)]) -> Option<(PairSeen, usize)> {
    let mut order: Vec<&(&str, f32, usize)> = scored.iter().collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    let &&(card, logit, turn) = order.first()?;
    let p = sigmoid(logit);
    let runner_up = order.get(1).map_or(0.0, |r| sigmoid(r.1));
    Some(((card.to_string(), p, p - runner_up), turn))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_likeliest_leads_the_next_candidate_in_probability() {
        let scored = [("three", 0.0, 1), ("four", 4.0, 0), ("five", -4.0, 1)];
        let ((card, p, lead), turn) = likeliest(&scored).expect("candidates");
        assert_eq!((card.as_str(), turn), ("four", 0));
        assert!((p - sigmoid(4.0)).abs() < 1e-6);
        assert!((lead - (sigmoid(4.0) - 0.5)).abs() < 1e-6, "{lead}");
        assert_eq!(likeliest(&[]), None);
    }
}
