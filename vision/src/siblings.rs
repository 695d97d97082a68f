//! Telling sibling prints apart: cards of one printed design that differ only in a count or a number
//! (pips, marks, a big numeral) sit a hair apart in the identifier's 40×56 embedding, so it abstains
//! between them. A second model, trained on such siblings at twice the resolution
//! (`models/identify/card_siblings.tflite`), compares the crop with the prints of the cards the first
//! model found nearest, and names one only when it leads the others clearly. An experiment, used
//! only where loaded (`arbiter eval-cards --siblings`): it names count siblings like those it was
//! trained on, but on the held-out playing-card pips none right and a few wrong
//! (models/detect/README.md).

use crate::embed::{Embedder, Enrolment};
use crate::VisionError;
use opencv::core::Mat;
use std::path::Path;

/// Where the shipped sibling model lies, from the repository root.
pub const DEFAULT_MODEL: &str = "models/identify/card_siblings.tflite";

/// The sibling model and every enrolled print's embedding under it.
pub struct Siblings {
    pub embedder: Embedder,
    pub enrolment: Enrolment,
}

/// What the sibling model saw among the candidates: the nearest candidate, its cosine and its lead
/// over the best other candidate (-1 less its cosine when it is the only one).
pub type SiblingSeen = (String, f32, f32);

impl Siblings {
    /// Loads the model (under the guards of every model file); prints are enrolled afterwards.
    pub fn load(path: impl AsRef<Path>) -> Result<Siblings, VisionError> {
        Ok(Siblings {
            embedder: Embedder::load(path)?,
            enrolment: Enrolment::default(),
        })
    }

    /// The sibling model's embedding of the crop cut by `corners` (its own top-left first).
    pub fn embed_at(&self, image: &Mat, corners: &[[f32; 2]; 4]) -> Result<Vec<f32>, VisionError> {
        self.embedder.embed(&self.embedder.crop(image, corners)?)
    }

    /// Which of `candidates` the crop is nearest by the sibling model, at whichever of `turns` (the
    /// card's corners, its own top-left first) brings one nearest: the first model may have chosen
    /// the turn by a sibling's print. `None` when fewer than two candidates have an enrolled print
    /// here (nothing to tell apart).
    pub fn rank(
        &self,
        image: &Mat,
        turns: &[[[f32; 2]; 4]],
        candidates: &[&str],
    ) -> Result<Option<(SiblingSeen, usize)>, VisionError> {
        let enrolled: Vec<&str> = candidates
            .iter()
            .copied()
            .filter(|c| self.enrolment.contains(c))
            .collect();
        if enrolled.len() < 2 {
            return Ok(None);
        }
        let mut best: Option<(SiblingSeen, usize)> = None;
        for (i, corners) in turns.iter().enumerate() {
            let embedding = self.embed_at(image, corners)?;
            if let Some(seen) = nearest_of(&self.enrolment, &embedding, &enrolled) {
                if best.as_ref().is_none_or(|(b, _)| seen.1 > b.1) {
                    best = Some((seen, i));
                }
            }
        }
        Ok(best)
    }
}

/// The nearest of `candidates` to `embedding`, with its lead over the best other candidate.
fn nearest_of(
    enrolment: &Enrolment,
    embedding: &[f32],
    candidates: &[&str],
) -> Option<SiblingSeen> {
    let mut scored: Vec<(&str, f32)> = candidates
        .iter()
        .filter_map(|c| enrolment.cosine_of(c, embedding).map(|s| (*c, s)))
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    let (card, cosine) = *scored.first()?;
    let runner_up = scored.get(1).map_or(-1.0, |r| r.1);
    Some((card.to_string(), cosine, cosine - runner_up))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_candidate_leads_only_the_other_candidates() {
        let mut enrolment = Enrolment::default();
        enrolment.enrol("three", vec![1.0, 0.0, 0.0]);
        enrolment.enrol("four", vec![0.8, 0.6, 0.0]);
        enrolment.enrol("elsewhere", vec![1.0, 0.05, 0.0]);
        let seen = nearest_of(&enrolment, &[1.0, 0.0, 0.0], &["three", "four"]);
        let (card, cosine, lead) = seen.expect("two candidates");
        assert_eq!(card, "three");
        assert!((cosine - 1.0).abs() < 1e-6);
        // "elsewhere" is nearer still but not a candidate: the lead is over "four".
        assert!((lead - 0.2).abs() < 1e-6, "{lead}");
        assert_eq!(nearest_of(&enrolment, &[1.0, 0.0, 0.0], &["gone"]), None);
    }
}
