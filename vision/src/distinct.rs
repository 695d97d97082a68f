//! Faces a camera can tell apart. Pictures are drawn at random from a seed, and now and then two
//! cards of one faction come out alike (same header colour, similar shapes), or one comes out faint
//! (little but a gradient): the matcher then abstains. So a set of faces is designed together: in
//! catalogue order, a card whose picture is too like an earlier card's, or too faint, gets its art
//! re-rolled (a fixed sequence of seeds), keeping the best roll. Same catalogue, same faces; print, references and scenes all use this.

use crate::face::{render_design, FaceDesign};
use crate::identify::{describe_face, Descriptors};
use crate::VisionError;
use opencv::core::Mat;

/// Two faces whose whitened patches correlate above this are too alike.
pub const MAX_LIKENESS: f32 = 0.55;
/// A face whose patch stands this little from the shared look (unit patches; the catalogue's
/// median is about 0.5) has a faint picture that blur and noise wash out.
pub const MIN_SPREAD: f32 = 0.42;
const MAX_ROLLS: u64 = 24;

/// Chooses each design's art so that no two faces look alike to the matcher; returns the designs
/// in order. Only each face's descriptor is kept, not the face: a catalogue of ten thousand cards
/// needs tens of megabytes here, not tens of gigabytes.
pub fn distinct_designs(designs: Vec<FaceDesign>) -> Result<Vec<FaceDesign>, VisionError> {
    let first: Vec<(FaceDesign, Descriptors)> = designs
        .into_iter()
        .map(|d| {
            let desc = describe_face(&render_design(&d)?)?;
            Ok((d, desc))
        })
        .collect::<Result<_, VisionError>>()?;
    // The look every face shares, from the first rendering, taken out before comparing.
    let n = first.len().max(1) as f32;
    let mut mean = vec![0.0f32; first.first().map_or(0, |f| f.1.fine.len())];
    for (_, d) in &first {
        mean.iter_mut().zip(&d.fine).for_each(|(m, x)| *m += x / n);
    }
    let whiten = |d: &Descriptors| crate::identify::minus_mean(&d.fine, &mean);
    let spread = |d: &Descriptors| {
        d.fine
            .iter()
            .zip(&mean)
            .map(|(a, b)| (a - b).powi(2))
            .sum::<f32>()
            .sqrt()
    };
    let mut accepted: Vec<Vec<f32>> = Vec::with_capacity(first.len());
    let mut chosen = Vec::with_capacity(first.len());
    for (design, desc) in first {
        let likeness = |w: &[f32]| {
            accepted
                .iter()
                .map(|a| a.iter().zip(w).map(|(x, y)| x * y).sum::<f32>())
                .fold(f32::MIN, f32::max)
        };
        // Lower is better: alike to another card, or faint.
        let fault = |l: f32, s: f32| (l - MAX_LIKENESS).max(0.0) + (MIN_SPREAD - s).max(0.0);
        let w = whiten(&desc);
        let mut best = (fault(likeness(&w), spread(&desc)), design.clone(), w);
        let mut roll = 1;
        while best.0 > 0.0 && roll <= MAX_ROLLS {
            let d = FaceDesign {
                art: design.art ^ roll.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                ..design.clone()
            };
            let desc = describe_face(&render_design(&d)?)?;
            let w = whiten(&desc);
            let f = fault(likeness(&w), spread(&desc));
            if f < best.0 {
                best = (f, d, w);
            }
            roll += 1;
        }
        accepted.push(best.2);
        chosen.push(best.1);
    }
    Ok(chosen)
}

/// Renders a set of designs so that no two look alike to the matcher; returns (id, face) in order.
pub fn distinct_faces(designs: Vec<FaceDesign>) -> Result<Vec<(String, Mat)>, VisionError> {
    distinct_designs(designs)?
        .into_iter()
        .map(|d| Ok((d.id.clone(), render_design(&d)?)))
        .collect()
}

/// The Blitz catalogue's faces, designed together.
pub fn blitz_faces(cards: &[blitz::catalogue::CardDef]) -> Result<Vec<(String, Mat)>, VisionError> {
    distinct_faces(cards.iter().map(FaceDesign::blitz).collect())
}

/// The Blitz catalogue's face designs, chosen together (render each with
/// [`crate::face::render_design`] when it is needed).
pub fn blitz_designs(cards: &[blitz::catalogue::CardDef]) -> Result<Vec<FaceDesign>, VisionError> {
    distinct_designs(cards.iter().map(FaceDesign::blitz).collect())
}
