//! Telling look-alike prints apart. Cards of one printed design share the frame, the layout and most
//! of the ink; they differ in a number, a title, the art, a count of marks. The embedding sees a
//! 40×56 crop and leaves such cards a hair apart, so the model abstains between them. Here the
//! candidate prints (the embedding's nearest, and those whose small thumbnails look most like the
//! crop) are compared with the crop pixel by pixel at a larger size, each after the small shift and
//! scale that fits it best, and the print that fits clearly better than every other, with no spot
//! where the crop differs from it, is named.

use crate::ink::Ink;
use crate::VisionError;
use opencv::core::{Mat, Point2f, Rect, Scalar, Size, Vector, BORDER_REPLICATE, CV_32F, CV_32FC3};
use opencv::imgproc::{self, INTER_AREA, INTER_LINEAR};
use opencv::prelude::*;
use std::collections::HashMap;

/// The compared patch: big enough to resolve a card's numbers and title at 1280×720.
pub const PATCH_W: i32 = 64;
pub const PATCH_H: i32 = 90;
/// The crop's middle is slid over the print by up to this many pixels each way: the corners'
/// error (a median of 7 px on a card 150 px tall) is about 3 px at this size.
const SLIDE_PX: i32 = 4;
/// The crop is also compared shrunk and grown by this share: a grown core is often a little too big.
const SCALES: [f64; 3] = [0.95, 1.0, 1.05];
/// Warp at this multiple first, then area-downscale, so a far card is not aliased.
const SUPERSAMPLE: i32 = 2;

/// A card cut upright to `PATCH_W × PATCH_H`, in colour (siblings of one design may differ only
/// in their colour), lightly blurred, float.
#[derive(Clone, Debug)]
pub struct Patch {
    float: Mat,
    /// The patch shrunk to `THUMB_W × THUMB_H`, each channel less its mean over its spread, unit
    /// length: a cheap look at the whole print (colours, where the ink lies) to find the prints worth
    /// comparing with, where the embedding's nearest miss the card.
    thumb: Vec<f32>,
    /// The card's marks, compared by where they lie ([`crate::ink`]).
    ink: Ink,
}

/// The thumbnail's size: coarse enough that a few pixels' corner error and the camera's blur do not
/// change it, fine enough to show the layout of marks.
const THUMB_W: i32 = 8;
const THUMB_H: i32 = 11;

impl Patch {
    /// The quad (its own top-left first, image px) cut from `image` (BGR).
    pub fn cut(image: &Mat, corners: &[[f32; 2]; 4]) -> Result<Patch, VisionError> {
        let (w, h) = (PATCH_W * SUPERSAMPLE, PATCH_H * SUPERSAMPLE);
        let src: Vector<Point2f> = corners.iter().map(|c| Point2f::new(c[0], c[1])).collect();
        let dst: Vector<Point2f> = [[0, 0], [w, 0], [w, h], [0, h]]
            .iter()
            .map(|c| Point2f::new(c[0] as f32, c[1] as f32))
            .collect();
        let m = imgproc::get_perspective_transform(&src, &dst, opencv::core::DECOMP_LU)?;
        let mut big = Mat::default();
        imgproc::warp_perspective(
            image,
            &mut big,
            &m,
            Size::new(w, h),
            INTER_LINEAR,
            BORDER_REPLICATE,
            Scalar::default(),
        )?;
        let mut small = Mat::default();
        imgproc::resize(
            &big,
            &mut small,
            Size::new(PATCH_W, PATCH_H),
            0.0,
            0.0,
            INTER_AREA,
        )?;
        let mut blurred = Mat::default();
        imgproc::gaussian_blur_def(&small, &mut blurred, Size::new(3, 3), 0.8)?;
        let mut float = Mat::default();
        blurred.convert_to(&mut float, CV_32FC3, 1.0 / 255.0, 0.0)?;
        let thumb = thumbnail(&float)?;
        let ink = Ink::cut(image, corners)?;
        Ok(Patch { float, thumb, ink })
    }

    /// How alike this crop's and `print`'s thumbnails are, in -1..1.
    fn look(&self, print: &Patch) -> f32 {
        self.thumb
            .iter()
            .zip(&print.thumb)
            .map(|(a, b)| a * b)
            .sum()
    }

    /// How well this crop fits `print`: the best normalised correlation of the crop's middle slid
    /// and scaled over the print, in -1..1, with the two aligned: the crop's middle and the part of
    /// the print under it, each brought to zero mean and unit spread.
    fn align(&self, print: &Patch) -> Result<Aligned, VisionError> {
        let (tw, th) = (PATCH_W - 2 * SLIDE_PX, PATCH_H - 2 * SLIDE_PX);
        let mut best: Option<(f64, Mat, Rect)> = None;
        for s in SCALES {
            let (w, h) = (
                (PATCH_W as f64 * s).round() as i32,
                (PATCH_H as f64 * s).round() as i32,
            );
            let mut scaled = Mat::default();
            imgproc::resize(
                &self.float,
                &mut scaled,
                Size::new(w, h),
                0.0,
                0.0,
                INTER_LINEAR,
            )?;
            let middle = scaled.roi(Rect::new((w - tw) / 2, (h - th) / 2, tw, th))?;
            let mut response = Mat::default();
            imgproc::match_template_def(
                &print.float,
                &middle,
                &mut response,
                imgproc::TM_CCOEFF_NORMED,
            )?;
            let (mut max, mut at) = (0.0, opencv::core::Point::default());
            opencv::core::min_max_loc(
                &response,
                None,
                Some(&mut max),
                None,
                Some(&mut at),
                &opencv::core::no_array(),
            )?;
            if !max.is_finite() || best.as_ref().is_some_and(|b| b.0 >= max) {
                continue;
            }
            best = Some((max, middle.try_clone()?, Rect::new(at.x, at.y, tw, th)));
        }
        // Only the best alignment is brought to a common scale.
        let best = match best {
            Some((fit, crop, under)) => Some(Aligned {
                fit,
                crop: standardised(&crop)?,
                print: standardised(&print.float.roi(under)?.try_clone()?)?,
            }),
            None => None,
        };
        best.ok_or_else(|| VisionError::Data {
            path: Default::default(),
            reason: "a look-alike patch could not be compared".into(),
        })
    }

    /// How well this crop fits `print` (see [`Patch::align`]), in -1..1.
    pub fn fit(&self, print: &Patch) -> Result<f64, VisionError> {
        Ok(self.align(print)?.fit)
    }
}

/// See [`Patch::thumb`].
fn thumbnail(float: &Mat) -> Result<Vec<f32>, VisionError> {
    let mut soft = Mat::default();
    imgproc::gaussian_blur_def(float, &mut soft, Size::new(5, 5), 1.2)?;
    let mut small = Mat::default();
    imgproc::resize(
        &soft,
        &mut small,
        Size::new(THUMB_W, THUMB_H),
        0.0,
        0.0,
        INTER_AREA,
    )?;
    let standard = standardised_at_least(&small, THUMB_MIN_SPREAD)?;
    let flat = standard.reshape(1, 1)?.try_clone()?;
    let mut v: Vec<f32> = flat.data_typed::<f32>()?.to_vec();
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-6);
    v.iter_mut().for_each(|x| *x /= norm);
    Ok(v)
}

/// A thumbnail channel flatter than this (in 0–1 levels) is noise, not print: its spread is taken
/// to be this.
const THUMB_MIN_SPREAD: f64 = 1.0 / 255.0;

/// A crop aligned to one print.
struct Aligned {
    fit: f64,
    crop: Mat,
    print: Mat,
}

/// Each channel of `m` less its mean, over its spread (a flat channel stays flat), so that a colour
/// cast or dimmer light does not count as a difference.
fn standardised(m: &Mat) -> Result<Mat, VisionError> {
    standardised_at_least(m, 1e-3)
}

/// [`standardised`], a channel's spread taken to be at least `min_spread`.
fn standardised_at_least(m: &Mat, min_spread: f64) -> Result<Mat, VisionError> {
    let mut channels = Vector::<Mat>::new();
    opencv::core::split(m, &mut channels)?;
    let mut out = Vector::<Mat>::new();
    for ch in channels.iter() {
        let (mut mean, mut sd) = (
            opencv::core::Scalar::default(),
            opencv::core::Scalar::default(),
        );
        opencv::core::mean_std_dev(&ch, &mut mean, &mut sd, &opencv::core::no_array())?;
        let mut one = Mat::default();
        let spread = sd[0].max(min_spread);
        ch.convert_to(&mut one, CV_32F, 1.0 / spread, -mean[0] / spread)?;
        out.push(one);
    }
    let mut merged = Mat::default();
    opencv::core::merge(&out, &mut merged)?;
    Ok(merged)
}

/// Where two prints differ by this much (in units of their spread), the pixel tells them apart.
const TELLING_DIFFERENCE: f64 = 0.6;
/// Fewer telling pixels than this share: the two prints cannot be told apart by their pixels.
const MIN_TELLING_SHARE: f64 = 0.01;

/// How much more the crop looks like print `a` than like print `b` where the two differ: the crop's
/// distance to `a` there over the sum of its distances to both. 0: the crop is `a` there; 0.5: it is
/// as far from both (an unknown card of the same design); `None`: the prints do not differ.
fn telling_share(a: &Aligned, b: &Aligned) -> Result<Option<f64>, VisionError> {
    let rows = a.crop.rows();
    let cols = a.crop.cols();
    let (mut to_a, mut to_b, mut telling) = (0.0f64, 0.0f64, 0usize);
    // Channels side by side: each channel of each pixel counts on its own.
    let flat = |m: &Mat| -> Result<Mat, VisionError> { Ok(m.reshape(1, rows)?.try_clone()?) };
    let (crop_a, print_a, crop_b, print_b) = (
        flat(&a.crop)?,
        flat(&a.print)?,
        flat(&b.crop)?,
        flat(&b.print)?,
    );
    for r in 0..rows {
        let (ca, pa) = (crop_a.at_row::<f32>(r)?, print_a.at_row::<f32>(r)?);
        let (cb, pb) = (crop_b.at_row::<f32>(r)?, print_b.at_row::<f32>(r)?);
        for c in 0..ca.len() {
            if ((pa[c] - pb[c]) as f64).abs() < TELLING_DIFFERENCE {
                continue;
            }
            telling += 1;
            to_a += ((ca[c] - pa[c]) as f64).abs();
            to_b += ((cb[c] - pb[c]) as f64).abs();
        }
    }
    if (telling as f64) < MIN_TELLING_SHARE * (3 * rows * cols) as f64 || to_a + to_b <= 0.0 {
        return Ok(None);
    }
    Ok(Some(to_a / (to_a + to_b)))
}

/// The enrolled prints' patches, by card id (a card may be enrolled more than once).
#[derive(Clone, Debug, Default)]
pub struct Prints {
    by_card: HashMap<String, Vec<Patch>>,
}

/// What the look-alike comparison decided among the nearest cards.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolved {
    pub card: String,
    /// The best print's fit, and the crop's worst telling share against another candidate.
    pub fit: f64,
    pub telling_share: f64,
    /// The share of the crop's pixels (each channel on its own) that differ from the best print by
    /// more than [`MISMATCH_DIFFERENCE`]: a card not enrolled that differs from every candidate in a
    /// few pips or digits still shows them here.
    pub mismatch: f64,
    /// The largest mean difference (in units of spread, channels averaged) over any
    /// [`SPOT_PX`]-square of the crop against the best print: one mark, pip or digit more or less
    /// is a spot, while noise and blur spread thin.
    pub worst_spot: f64,
    /// The next best candidate's fit (-1 when there was none).
    pub runner_up_fit: f64,
    /// Which of the crops (the quad's turns) fitted the named card best.
    pub crop: usize,
}

/// A pixel channel this far from the print (in units of their spread) does not match it.
pub const MISMATCH_DIFFERENCE: f64 = 1.2;

/// The side of the square over which [`Resolved::worst_spot`] averages: about a pip at 64×90.
pub const SPOT_PX: i32 = 7;

fn worst_spot(a: &Aligned) -> Result<f64, VisionError> {
    let mut diff = Mat::default();
    opencv::core::absdiff(&a.crop, &a.print, &mut diff)?;
    let mut grey = Mat::default();
    opencv::core::transform(
        &diff,
        &mut grey,
        &Mat::from_slice_2d(&[[1.0f32 / 3.0, 1.0 / 3.0, 1.0 / 3.0]])?,
    )?;
    let mut local = Mat::default();
    imgproc::box_filter_def(&grey, &mut local, -1, Size::new(SPOT_PX, SPOT_PX))?;
    let mut max = 0.0;
    opencv::core::min_max_loc(
        &local,
        None,
        Some(&mut max),
        None,
        None,
        &opencv::core::no_array(),
    )?;
    Ok(max)
}

fn mismatch(a: &Aligned) -> Result<f64, VisionError> {
    let mut diff = Mat::default();
    opencv::core::absdiff(&a.crop, &a.print, &mut diff)?;
    let flat = diff.reshape(1, 1)?.try_clone()?;
    let mut over = Mat::default();
    opencv::core::compare(
        &flat,
        &Scalar::all(MISMATCH_DIFFERENCE),
        &mut over,
        opencv::core::CMP_GT,
    )?;
    let n = opencv::core::count_non_zero(&over)? as f64;
    Ok(n / flat.cols().max(1) as f64)
}

// Chosen together on the tuning sets `export_eval.py --families train --seed 800000 --scenes 200`
// and `--families tuning --seed 810000 --scenes 200` (count-marks siblings), detector corners: the
// most cards named with none named wrong and no unknown card named (models/detect/README.md).

/// A crop fitting its print worse than this is not that print (an unknown card of the same design
/// fits its siblings about as well as they fit each other).
pub const MIN_FIT: f64 = 0.94;
/// The best print must fit this much better than the next candidate's.
pub const MIN_LEAD: f64 = 0.05;
/// The crop may differ from the best print in at most this share of its pixel channels.
pub const MAX_MISMATCH: f64 = 0.08;
/// Where the best card's print and another's differ, the crop must lie at most this share of the way
/// from the best to the other.
pub const MAX_TELLING_SHARE: f64 = 0.4;
/// No spot of the crop may differ from the best print by more than this (see
/// [`Resolved::worst_spot`]): a mark, pip or digit more or less.
pub const MAX_WORST_SPOT: f64 = 1.2;

impl Prints {
    pub fn enrol(&mut self, card: &str, patch: Patch) {
        self.by_card
            .entry(card.to_string())
            .or_default()
            .push(patch);
    }

    pub fn is_empty(&self) -> bool {
        self.by_card.is_empty()
    }

    /// Keeps only the cards `keep` accepts.
    pub fn retain(&mut self, keep: impl Fn(&str) -> bool) {
        self.by_card.retain(|id, _| keep(id));
    }

    /// The `k` cards whose prints' thumbnails are most like the crop's (over the crop's turns),
    /// most alike first.
    pub fn nearest_by_look(&self, crops: &[Patch], k: usize) -> Vec<&str> {
        let mut scored: Vec<(f32, &str)> = self
            .by_card
            .iter()
            .map(|(card, prints)| {
                let best = prints
                    .iter()
                    .flat_map(|p| crops.iter().map(move |c| c.look(p)))
                    .fold(f32::NEG_INFINITY, f32::max);
                (best, card.as_str())
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        scored.into_iter().take(k).map(|(_, c)| c).collect()
    }

    /// Among `candidates` (the nearest cards by embedding and by look), the one whose print the
    /// crop fits best, with its fit and its worst telling share against every other candidate's
    /// print (see [`telling_share`]); `crops` are the same card cut at each turn the quad allows.
    /// `None` when no candidate has a print, or the best cannot be told from another by its pixels.
    pub fn compare(
        &self,
        crops: &[Patch],
        candidates: &[&str],
    ) -> Result<Option<Resolved>, VisionError> {
        // Each candidate's best-fitting print, over the crop's turns.
        let mut aligned: Vec<(&str, Aligned, usize)> = Vec::new();
        for &card in candidates {
            let Some(prints) = self.by_card.get(card) else {
                continue;
            };
            let mut best: Option<(Aligned, usize)> = None;
            for (k, crop) in crops.iter().enumerate() {
                for p in prints {
                    let a = crop.align(p)?;
                    if best.as_ref().is_none_or(|b| a.fit > b.0.fit) {
                        best = Some((a, k));
                    }
                }
            }
            if let Some((b, k)) = best {
                aligned.push((card, b, k));
            }
        }
        aligned.sort_by(|a, b| b.1.fit.total_cmp(&a.1.fit));
        let Some((card, top, crop)) = aligned.first() else {
            return Ok(None);
        };
        let runner_up_fit = aligned.get(1).map_or(-1.0, |a| a.1.fit);
        let worst_spot = worst_spot(top)?;
        let mismatch = mismatch(top)?;
        let mut share = 0.0f64;
        for (_, other, _) in &aligned[1..] {
            match telling_share(top, other)? {
                Some(s) => share = share.max(s),
                None => return Ok(None),
            }
        }
        Ok(Some(Resolved {
            card: card.to_string(),
            fit: top.fit,
            telling_share: share,
            mismatch,
            worst_spot,
            runner_up_fit,
            crop: *crop,
        }))
    }
}

/// What comparing the crop's ink with the candidates' prints found.
#[derive(Clone, Debug, PartialEq)]
pub struct InkResolved {
    pub card: String,
    /// The best print's ink dissimilarity, and the best of every other card's.
    pub dissimilarity: f64,
    pub runner_up: f64,
    /// How far the model's cosine to the card lies behind its nearest print's (0 when it is the
    /// nearest).
    pub behind_nearest: f32,
    /// Which of the crops (the quad's turns) the named card's print fitted.
    pub crop: usize,
}

// Chosen together on the tuning sets (count marks, seeds 810000–810099, and the training families,
// seeds 800000–800199), detector corners: the most cards named with none named wrong and no unknown
// card named; a dissimilarity of 0.05 names one card nobody enrolled (models/detect/README.md).

/// The crop's ink may lie this far at most from its print's (see [`Ink::dissimilarity`]) ...
pub const MAX_INK_DISSIMILARITY: f64 = 0.04;
/// ... this much nearer than to any other candidate's print ...
pub const MIN_INK_LEAD: f64 = 0.03;
/// ... and the model's cosine to the card at most this far behind its nearest print's: another
/// design's card with the same count of marks in the same places (and much the same colours) is
/// further from the crop in the model's eyes than the crop's own siblings.
pub const MAX_INK_BEHIND_NEAREST: f32 = 0.1;
/// Prints whose ink colour (over their paper's) lies further than this from the crop's
/// ([`Ink::tint_difference`]) are not compared.
pub const MAX_INK_TINT_DIFFERENCE: f64 = 0.2;

impl Prints {
    /// Among `candidates`, the card whose print's ink lies nearest the crop's (over the crop's
    /// turns and the card's prints), with the next card's. Only prints whose ink colour (over
    /// their paper's) is near the crop's take part ([`MAX_INK_TINT_DIFFERENCE`]): another design's
    /// card may carry its marks in the same places. `behind_nearest` says how far the model's
    /// cosine to a card lies behind its nearest print's. `None` when no candidate's print takes
    /// part.
    pub fn compare_ink(
        &self,
        crops: &[Patch],
        candidates: &[&str],
        behind_nearest: impl Fn(&str) -> f32,
    ) -> Option<InkResolved> {
        let mut scored: Vec<(&str, f64, usize)> = candidates
            .iter()
            .filter_map(|&card| {
                let prints = self.by_card.get(card)?;
                crops
                    .iter()
                    .enumerate()
                    .flat_map(|(k, crop)| prints.iter().map(move |p| (k, &crop.ink, &p.ink)))
                    .filter(|(_, seen, print)| {
                        seen.tint_difference(print) <= MAX_INK_TINT_DIFFERENCE
                    })
                    .map(|(k, seen, print)| (card, seen.dissimilarity(print), k))
                    .min_by(|a, b| a.1.total_cmp(&b.1))
            })
            .collect();
        scored.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(b.0)));
        let &(card, dissimilarity, crop) = scored.first()?;
        Some(InkResolved {
            card: card.to_string(),
            dissimilarity,
            runner_up: scored.get(1).map_or(1.0, |s| s.1),
            behind_nearest: behind_nearest(card),
            crop,
        })
    }
}

/// Whether the ink comparison is clear enough to name its card.
pub fn ink_names(r: &InkResolved) -> bool {
    r.dissimilarity <= MAX_INK_DISSIMILARITY
        && r.runner_up - r.dissimilarity >= MIN_INK_LEAD
        && r.behind_nearest <= MAX_INK_BEHIND_NEAREST
}

/// How sure an ink naming is, in 0..1: its lead over twice the least lead that names.
pub fn ink_confidence(r: &InkResolved) -> f32 {
    ((r.runner_up - r.dissimilarity) / (2.0 * MIN_INK_LEAD)).clamp(0.0, 1.0) as f32
}

/// Whether a comparison is clear enough to name its card.
pub fn names(r: &Resolved) -> bool {
    r.fit >= MIN_FIT
        && r.fit - r.runner_up_fit >= MIN_LEAD
        && r.telling_share <= MAX_TELLING_SHARE
        && r.mismatch <= MAX_MISMATCH
        && r.worst_spot <= MAX_WORST_SPOT
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Point, CV_8UC3};

    /// A card of one design: a blue frame, a title bar and a big number, `number` telling siblings
    /// apart.
    fn card(number: &str) -> Mat {
        card_in(Scalar::new(160.0, 60.0, 20.0, 0.0), number)
    }

    fn card_in(frame: Scalar, number: &str) -> Mat {
        card_with(frame, Scalar::all(20.0), number)
    }

    /// A card printed in one ink, its title bar and its number alike: the ink's colour over the
    /// paper is the same on every sibling (a print of several inks reads as their mix, which
    /// differs from sibling to sibling).
    fn one_ink_card(number: &str) -> Mat {
        let blue = Scalar::new(160.0, 60.0, 20.0, 0.0);
        card_with(blue, blue, number)
    }

    fn one_ink_prints(numbers: &[&str]) -> Prints {
        let mut p = Prints::default();
        for n in numbers {
            let print = one_ink_card(n);
            p.enrol(n, Patch::cut(&print, &whole(&print)).unwrap());
        }
        p
    }

    fn card_with(frame: Scalar, ink: Scalar, number: &str) -> Mat {
        let mut m = Mat::new_rows_cols_with_default(
            280,
            200,
            CV_8UC3,
            Scalar::new(230.0, 230.0, 230.0, 0.0),
        )
        .unwrap();
        imgproc::rectangle(&mut m, Rect::new(0, 0, 200, 280), frame, 14, 8, 0).unwrap();
        imgproc::rectangle(&mut m, Rect::new(20, 24, 160, 30), frame, -1, 8, 0).unwrap();
        // Printed bold, as a card's number is, so that it still shows at the compared size.
        imgproc::put_text(
            &mut m,
            number,
            Point::new(40, 200),
            imgproc::FONT_HERSHEY_SIMPLEX,
            4.0,
            ink,
            12,
            imgproc::LINE_8,
            false,
        )
        .unwrap();
        m
    }

    fn whole(m: &Mat) -> [[f32; 2]; 4] {
        let (w, h) = (m.cols() as f32, m.rows() as f32);
        [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]]
    }

    /// The card as a camera sees it: smaller, a little off its corners, noisy and dimmer.
    fn seen(m: &Mat) -> Patch {
        let mut dim = Mat::default();
        m.convert_to(&mut dim, -1, 0.8, 10.0).unwrap();
        seen_as(&dim, 6.0)
    }

    /// `m` smaller, a little off its corners, with noise of spread `noise_spread`.
    fn seen_as(m: &Mat, noise_spread: f64) -> Patch {
        let mut small = Mat::default();
        imgproc::resize(m, &mut small, Size::new(100, 140), 0.0, 0.0, INTER_AREA).unwrap();
        let mut noise =
            Mat::new_rows_cols_with_default(140, 100, CV_8UC3, Scalar::all(0.0)).unwrap();
        opencv::core::randn(&mut noise, &Scalar::all(0.0), &Scalar::all(noise_spread)).unwrap();
        let mut noisy = Mat::default();
        opencv::core::add(&small, &noise, &mut noisy, &opencv::core::no_array(), -1).unwrap();
        Patch::cut(
            &noisy,
            &[[2.0, 1.0], [99.0, 3.0], [98.0, 138.0], [1.0, 139.0]],
        )
        .unwrap()
    }

    /// The card as a camera under a dimmer light sees it: smaller, a little off its corners, noisy,
    /// every level scaled down alike (the ink's colour over its paper's stays).
    fn seen_in_dimmer_light(m: &Mat) -> Patch {
        let mut dim = Mat::default();
        m.convert_to(&mut dim, -1, 0.75, 0.0).unwrap();
        seen_as(&dim, 3.0)
    }

    fn prints(numbers: &[&str]) -> Prints {
        let mut p = Prints::default();
        for n in numbers {
            p.enrol(n, Patch::cut(&card(n), &whole(&card(n))).unwrap());
        }
        p
    }

    #[test]
    fn a_sibling_is_told_apart_by_its_number() {
        let p = prints(&["3", "8", "5"]);
        let r = p
            .compare(&[seen(&card("8"))], &["3", "8", "5"])
            .unwrap()
            .expect("compared");
        assert_eq!(r.card, "8");
        assert!(names(&r), "{r:?}");
    }

    #[test]
    fn a_sibling_is_told_apart_by_its_ink() {
        let p = one_ink_prints(&["3", "8", "5"]);
        let r = p
            .compare_ink(
                &[seen_in_dimmer_light(&one_ink_card("8"))],
                &["3", "8", "5"],
                |_| 0.0,
            )
            .expect("compared");
        assert_eq!(r.card, "8");
        assert!(ink_names(&r), "{r:?}");
        let far_behind = InkResolved {
            behind_nearest: MAX_INK_BEHIND_NEAREST + 0.01,
            ..r
        };
        assert!(!ink_names(&far_behind), "the model sees another card");
    }

    #[test]
    fn a_card_nobody_enrolled_is_not_named_by_its_ink() {
        let p = one_ink_prints(&["3", "8", "5"]);
        let r = p.compare_ink(
            &[seen_in_dimmer_light(&one_ink_card("1"))],
            &["3", "8", "5"],
            |_| 0.0,
        );
        assert!(r.as_ref().is_none_or(|r| !ink_names(r)), "{r:?}");
    }

    #[test]
    fn a_print_in_another_colour_is_not_compared_by_its_ink() {
        // Printed in one red: its title bar and its number.
        let red = Scalar::new(30.0, 30.0, 200.0, 0.0);
        let red = card_with(red, red, "8");
        let mut p = Prints::default();
        p.enrol("red 8", Patch::cut(&red, &whole(&red)).unwrap());
        assert_eq!(
            p.compare_ink(
                &[seen_in_dimmer_light(&one_ink_card("8"))],
                &["red 8"],
                |_| 0.0
            ),
            None
        );
        assert!(p
            .compare_ink(&[seen_in_dimmer_light(&red)], &["red 8"], |_| 0.0)
            .is_some());
    }

    #[test]
    fn a_card_nobody_enrolled_is_not_named_after_its_sibling() {
        let p = prints(&["3", "8", "5"]);
        let r = p.compare(&[seen(&card("1"))], &["3", "8", "5"]).unwrap();
        assert!(r.as_ref().is_none_or(|r| !names(r)), "{r:?}");
        // The same crop against its own print would have been named.
        let mut with_it = p.clone();
        with_it.enrol("1", Patch::cut(&card("1"), &whole(&card("1"))).unwrap());
        let r = with_it
            .compare(&[seen(&card("1"))], &["1", "3", "8", "5"])
            .unwrap()
            .expect("compared");
        assert!(r.card == "1" && names(&r), "{r:?}");
    }

    #[test]
    fn prints_that_do_not_differ_are_not_told_apart() {
        let mut p = prints(&["8"]);
        p.enrol(
            "eight again",
            Patch::cut(&card("8"), &whole(&card("8"))).unwrap(),
        );
        let r = p
            .compare(&[seen(&card("8"))], &["8", "eight again"])
            .unwrap();
        assert_eq!(r, None);
    }

    #[test]
    fn no_print_enrolled_compares_nothing() {
        let p = Prints::default();
        assert!(p.is_empty());
        assert_eq!(p.compare(&[seen(&card("8"))], &["8"]).unwrap(), None);
    }

    #[test]
    fn the_prints_that_look_most_like_the_crop_come_first() {
        let frames = [
            ("red", Scalar::new(30.0, 30.0, 200.0, 0.0)),
            ("green", Scalar::new(40.0, 170.0, 40.0, 0.0)),
            ("blue", Scalar::new(160.0, 60.0, 20.0, 0.0)),
        ];
        let mut p = Prints::default();
        for (name, frame) in frames {
            let face = card_in(frame, "4");
            p.enrol(name, Patch::cut(&face, &whole(&face)).unwrap());
        }
        let crop = seen(&card_in(frames[1].1, "4"));
        assert_eq!(
            p.nearest_by_look(std::slice::from_ref(&crop), 1),
            vec!["green"]
        );
        assert_eq!(p.nearest_by_look(&[crop], 5).len(), 3);
    }

    #[test]
    fn a_sibling_one_digit_away_leaves_a_worse_spot_than_the_card_itself() {
        let p = prints(&["3"]);
        let own = p
            .compare(&[seen(&card("3"))], &["3"])
            .unwrap()
            .expect("compared");
        let other = p
            .compare(&[seen(&card("8"))], &["3"])
            .unwrap()
            .expect("compared");
        assert!(
            other.worst_spot > 2.0 * own.worst_spot,
            "own {own:?}, other {other:?}"
        );
    }
}
