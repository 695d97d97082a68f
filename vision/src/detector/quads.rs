//! From the model's two maps to one quad per card: a card region's own outline where it holds one
//! core, else each core grown back to its card.

use super::DetectorOptions;
use crate::detect::dist;
use crate::geometry::{apply, centroid, signed_area, square_to_quad};
use crate::VisionError;
use opencv::core::{Mat, Point, Point2f, Vector, CV_8UC1};
use opencv::imgproc;
use opencv::prelude::*;

/// One card found in the model's output, in output pixels (continuous coordinates: pixel `i` spans
/// `[i, i+1)`).
#[derive(Clone, Debug, PartialEq)]
pub struct CoreQuad {
    /// The card's outline, clockwise on screen.
    pub quad: [[f64; 2]; 4],
    /// The share of the quad the card's visible pixels (or its core's) fill: a whole card fills its
    /// quad.
    pub fill: f64,
    /// Too little of the quad filled: part of the card is hidden.
    pub hidden: bool,
    /// For a card grown from its core (cards touching): the core's outline points, so the caller
    /// can turn the quad to the card's edges seen in the frame (a round core hardly shows its angle).
    pub core_outline: Option<Vec<[f64; 2]>>,
    pub score: f32,
}

/// Cores of fewer pixels keep their minimum-area rectangle (too few pixels to see perspective).
const MIN_REFIT_PX: f64 = 30.0;
/// The polygon through boundary pixels' centres lies this far inside the region's true outline.
const HALF_PIXEL: f64 = 0.5;

/// One thresholded channel's connected regions: labels, each region's pixel count and summed
/// probability, and its outer contour.
struct Regions {
    labels: Mat,
    pixels: Vec<usize>,
    sums: Vec<f32>,
    contours: Vec<Option<Vector<Point>>>,
}

impl Regions {
    /// The connected regions of `prob > threshold`.
    fn of(
        prob: &[f32],
        w: usize,
        h: usize,
        threshold: f32,
        connectivity: i32,
    ) -> Result<Regions, VisionError> {
        let mask = threshold_mask(prob, w, h, threshold)?;
        let mut labels = Mat::default();
        let n =
            imgproc::connected_components(&mask, &mut labels, connectivity, opencv::core::CV_32S)?
                .max(1) as usize;
        Regions::from_labels(labels, n, prob)
    }

    /// Cores grown from the model's surest pixels: each region of `prob > split` is a seed, and
    /// seeds take the pixels of `prob > threshold` around them breadth first (progressive scale
    /// expansion), so cores of touching cards that meet at `threshold` but part above `split`
    /// stay two. A region of `prob > threshold` with no seed in it is a core of its own.
    fn expanded(
        prob: &[f32],
        w: usize,
        h: usize,
        threshold: f32,
        split: f32,
    ) -> Result<Regions, VisionError> {
        if split <= threshold {
            return Regions::of(prob, w, h, threshold, 8);
        }
        let seeds = threshold_mask(prob, w, h, split)?;
        let mut seed_labels = Mat::default();
        let seeded =
            imgproc::connected_components(&seeds, &mut seed_labels, 8, opencv::core::CV_32S)?
                .max(1);
        let mut label: Vec<i32> = seed_labels.data_typed::<i32>()?.to_vec();
        let mut queue: std::collections::VecDeque<usize> =
            (0..w * h).filter(|&i| label[i] > 0).collect();
        while let Some(i) = queue.pop_front() {
            let (x, y) = (i % w, i / w);
            let around = [
                (x > 0).then(|| i - 1),
                (x + 1 < w).then(|| i + 1),
                (y > 0).then(|| i - w),
                (y + 1 < h).then(|| i + w),
            ];
            for j in around.into_iter().flatten() {
                if label[j] == 0 && prob[j] > threshold {
                    label[j] = label[i];
                    queue.push_back(j);
                }
            }
        }
        // What no seed reached: its own regions, numbered after the seeds.
        let rest: Vec<f32> = (0..w * h)
            .map(|i| if label[i] == 0 { prob[i] } else { 0.0 })
            .collect();
        let rest_mask = threshold_mask(&rest, w, h, threshold)?;
        let mut rest_labels = Mat::default();
        let unseeded =
            imgproc::connected_components(&rest_mask, &mut rest_labels, 8, opencv::core::CV_32S)?
                .max(1);
        for (l, &r) in label.iter_mut().zip(rest_labels.data_typed::<i32>()?) {
            if r > 0 {
                *l = seeded - 1 + r;
            }
        }
        let mut labels =
            Mat::new_rows_cols_with_default(h as i32, w as i32, opencv::core::CV_32S, 0.0.into())?;
        labels.data_typed_mut::<i32>()?.copy_from_slice(&label);
        Regions::from_labels(labels, (seeded + unseeded - 1) as usize, prob)
    }

    /// Pixel counts, summed probabilities and outer contours of labels `1..n`.
    fn from_labels(labels: Mat, n: usize, prob: &[f32]) -> Result<Regions, VisionError> {
        let w = labels.cols();
        let (mut pixels, mut sums) = (vec![0usize; n], vec![0.0f32; n]);
        let mut boxes = vec![(i32::MAX, i32::MAX, i32::MIN, i32::MIN); n];
        for (i, (&label, &p)) in labels.data_typed::<i32>()?.iter().zip(prob).enumerate() {
            if label > 0 && (label as usize) < n {
                let l = label as usize;
                pixels[l] += 1;
                sums[l] += p;
                let (x, y) = ((i as i32) % w, (i as i32) / w);
                let b = &mut boxes[l];
                *b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
            }
        }
        let mut contours = vec![None; n];
        for (l, &(x0, y0, x1, y1)) in boxes.iter().enumerate().skip(1) {
            if pixels[l] == 0 {
                continue;
            }
            // The label's own mask over its box, one pixel of margin for find_contours.
            let (bw, bh) = (x1 - x0 + 3, y1 - y0 + 3);
            let mut mask = Mat::new_rows_cols_with_default(bh, bw, CV_8UC1, 0.0.into())?;
            for y in y0..=y1 {
                for x in x0..=x1 {
                    if *labels.at_2d::<i32>(y, x)? == l as i32 {
                        *mask.at_2d_mut::<u8>(y - y0 + 1, x - x0 + 1)? = 255;
                    }
                }
            }
            let mut found = Vector::<Vector<Point>>::new();
            imgproc::find_contours(
                &mask,
                &mut found,
                imgproc::RETR_EXTERNAL,
                imgproc::CHAIN_APPROX_NONE,
                Point::new(x0 - 1, y0 - 1),
            )?;
            // A label split in pieces (a seed's reach can wrap round): its largest piece.
            contours[l] = found
                .iter()
                .max_by_key(|c| c.len())
                .filter(|c| !c.is_empty());
        }
        Ok(Regions {
            labels,
            pixels,
            sums,
            contours,
        })
    }
}

fn threshold_mask(prob: &[f32], w: usize, h: usize, threshold: f32) -> Result<Mat, VisionError> {
    let mut mask = Mat::new_rows_cols_with_default(h as i32, w as i32, CV_8UC1, 0.0.into())?;
    for (m, &p) in mask.data_bytes_mut()?.iter_mut().zip(prob) {
        *m = if p > threshold { 255 } else { 0 };
    }
    Ok(mask)
}

/// The cards in the model's `w × h` core and card maps. A card region holding exactly one core is
/// that card's own outline (sharp, perspective kept); a region holding several cores is cards
/// touching or overlapping, and each of its cores is grown back to its card (`CoreShape::grow`).
pub fn core_quads(
    core: &[f32],
    card: &[f32],
    w: usize,
    h: usize,
    opts: &DetectorOptions,
) -> Result<Vec<CoreQuad>, VisionError> {
    if core.len() != w * h || card.len() != w * h {
        return Err(VisionError::Other(format!(
            "model maps have {} and {} values, expected {w}×{h}",
            core.len(),
            card.len()
        )));
    }
    let cores = Regions::expanded(core, w, h, opts.core_threshold, opts.split_threshold)?;
    let cards = Regions::of(card, w, h, opts.core_threshold, 4)?;
    // Which card region each core lies in (by its pixels' majority), and how many cores each holds.
    let core_labels = cores.labels.data_typed::<i32>()?;
    let card_labels = cards.labels.data_typed::<i32>()?;
    let mut votes: Vec<std::collections::HashMap<i32, usize>> =
        vec![Default::default(); cores.pixels.len()];
    for (&c, &k) in core_labels.iter().zip(card_labels) {
        if c > 0 && k > 0 {
            *votes[c as usize].entry(k).or_default() += 1;
        }
    }
    let region_of: Vec<Option<i32>> = votes
        .iter()
        .map(|v| v.iter().max_by_key(|(_, n)| **n).map(|(k, _)| *k))
        .collect();
    // Each core's quad and the card grown from it, fitted once for the tests below.
    let fitted: Vec<Option<FittedCore>> = cores
        .contours
        .iter()
        .zip(&cores.pixels)
        .map(|(contour, &pixels)| match contour {
            Some(contour) if pixels as f64 >= opts.min_core_px => {
                let quad = fit_quad(contour, pixels as f64)?;
                Ok(Some(FittedCore {
                    contour,
                    quad,
                    card: opts.core.grow(&quad),
                }))
            }
            _ => Ok(None),
        })
        .collect::<Result<_, VisionError>>()?;
    let mut significant = significant_cores(&cores.pixels, &fitted, opts.min_core_share);
    for label in region_specks(&cores.pixels, &region_of, cards.pixels.len(), opts) {
        significant[label] = false;
    }
    let mut cores_in = vec![0usize; cards.pixels.len()];
    for (label, r) in region_of.iter().enumerate().skip(1) {
        if let Some(k) = r {
            if significant[label] {
                cores_in[*k as usize] += 1;
            }
        }
    }
    let mut out = Vec::new();
    for (label, (&pixels, &sum)) in cores.pixels.iter().zip(&cores.sums).enumerate().skip(1) {
        if !significant[label] {
            continue;
        }
        let score = sum / pixels as f32;
        let alone = region_of[label].filter(|k| cores_in[*k as usize] == 1);
        let core_area = fitted[label]
            .as_ref()
            .map_or(0.0, |f| signed_area(&f.card).abs());
        if let Some(k) = alone {
            if let Some(contour) = &cards.contours[k as usize] {
                let quad = fit_quad(contour, cards.pixels[k as usize] as f64)?;
                let area = signed_area(&quad).abs();
                // A region much larger than its one core's card holds more than that card (a
                // neighbour whose own core the model missed): the core's card is the better bet.
                if area > 0.0
                    && area <= opts.max_region_over_core * core_area.max(f64::MIN_POSITIVE)
                {
                    let fill = (cards.pixels[k as usize] as f64 / area).min(1.0);
                    out.push(CoreQuad {
                        quad,
                        hidden: fill < opts.min_card_fill,
                        fill,
                        score,
                        core_outline: None,
                    });
                    continue;
                }
            }
        }
        let Some(FittedCore {
            contour,
            quad,
            card: grown,
        }) = fitted[label]
        else {
            continue;
        };
        let area = signed_area(&quad).abs();
        if area <= 0.0 {
            continue;
        }
        let fill = (pixels as f64 / area).min(1.0);
        out.push(CoreQuad {
            quad: grown,
            hidden: fill < opts.min_core_fill,
            fill,
            score,
            core_outline: Some(
                contour
                    .iter()
                    .map(|p| [p.x as f64 + 0.5, p.y as f64 + 0.5])
                    .collect(),
            ),
        });
    }
    Ok(out)
}

/// A core's outline, its quad and the card grown from it.
#[derive(Clone, Copy)]
struct FittedCore<'a> {
    contour: &'a Vector<Point>,
    quad: [[f64; 2]; 4],
    card: [[f64; 2]; 4],
}

/// A core near a much larger one (its centre within [`NEIGHBOUR_REACH`] of that core's card) is
/// a speck of the model's doubt or a sliver of a card mostly hidden under that one, not a card of
/// its own. Only neighbours count: in a cluster of cards seen in perspective, a far card's core is
/// rightly smaller than a near card's. `fitted[label]` is `None` for cores too small to be cards.
fn significant_cores(pixels: &[usize], fitted: &[Option<FittedCore>], min_share: f64) -> Vec<bool> {
    let cards: Vec<Option<([f64; 2], f64)>> = fitted
        .iter()
        .map(|f| {
            f.as_ref()
                .map(|f| (centroid(&f.card), signed_area(&f.card).abs().sqrt()))
        })
        .collect();
    (0..pixels.len())
        .map(|i| {
            let Some((centre, _)) = cards[i] else {
                return false;
            };
            !cards.iter().enumerate().any(|(j, card)| {
                card.is_some_and(|(other, size)| {
                    j != i
                        && (pixels[i] as f64) < min_share * pixels[j] as f64
                        && dist(centre, other) < NEIGHBOUR_REACH * size
                })
            })
        })
        .collect()
}

/// The cores under `min_core_share_of_region` of their card region's largest, however far from
/// it: specks too, but only much smaller ones (a scattered pile's region runs through many cards).
fn region_specks(
    pixels: &[usize],
    region_of: &[Option<i32>],
    regions: usize,
    opts: &DetectorOptions,
) -> Vec<usize> {
    let mut largest = vec![0usize; regions];
    for (&px, r) in pixels.iter().zip(region_of).skip(1) {
        if let Some(k) = r {
            largest[*k as usize] = largest[*k as usize].max(px);
        }
    }
    (1..pixels.len())
        .filter(|&label| {
            region_of[label].is_some_and(|k| {
                (pixels[label] as f64) < opts.min_core_share_of_region * largest[k as usize] as f64
            })
        })
        .collect()
}

/// How near a much larger core a small core must lie to be taken for its speck, in the larger
/// core's card sizes (the square root of its area): a neighbouring card's centre lies about one
/// size away, a sliver of a card under it about half.
const NEIGHBOUR_REACH: f64 = 1.0;

/// A quad around a region's outline: its own four hull corners when they make a clean quad
/// (perspective kept), else its minimum-area rectangle; half a pixel outside the boundary pixels'
/// centres, clockwise on screen.
fn fit_quad(contour: &Vector<Point>, pixels: f64) -> Result<[[f64; 2]; 4], VisionError> {
    let r = imgproc::min_area_rect(contour)?;
    let mut corners = [Point2f::default(); 4];
    r.points(&mut corners)?;
    let mut rect = corners.map(|p| [p.x as f64 + 0.5, p.y as f64 + 0.5]);
    if signed_area(&rect) < 0.0 {
        rect.reverse();
    }
    if pixels >= MIN_REFIT_PX {
        if let Some(q) = refit_sides(contour, &rect)? {
            return Ok(q);
        }
    }
    Ok(grown_by_half_a_pixel(&rect))
}

/// The quad moved half a pixel outwards at each corner (along its diagonal from the centroid).
fn grown_by_half_a_pixel(q: &[[f64; 2]; 4]) -> [[f64; 2]; 4] {
    let c = crate::geometry::centroid(q);
    q.map(|p| {
        let (dx, dy) = (p[0] - c[0], p[1] - c[1]);
        let d = (dx * dx + dy * dy).sqrt().max(1e-9);
        let f = 1.0 + HALF_PIXEL * std::f64::consts::SQRT_2 / d;
        [c[0] + dx * f, c[1] + dy * f]
    })
}

/// The outline's own four corners when its convex hull simplifies to four points close to the
/// rectangle's (a card seen in perspective is a convex quad, its rounded corners aside).
fn refit_sides(
    contour: &Vector<Point>,
    rect: &[[f64; 2]; 4],
) -> Result<Option<[[f64; 2]; 4]>, VisionError> {
    let mut hull = Vector::<Point>::new();
    imgproc::convex_hull(contour, &mut hull, true, true)?;
    let perimeter = imgproc::arc_length(&hull, true)?;
    let mut eps = 0.02 * perimeter;
    for _ in 0..10 {
        let mut approx = Vector::<Point>::new();
        imgproc::approx_poly_dp(&hull, &mut approx, eps, true)?;
        if approx.len() < 4 {
            return Ok(None);
        }
        if approx.len() == 4 {
            let mut q = [[0.0; 2]; 4];
            for (k, p) in approx.iter().enumerate() {
                q[k] = [p.x as f64 + 0.5, p.y as f64 + 0.5];
            }
            if signed_area(&q) < 0.0 {
                q.reverse();
            }
            let size = signed_area(rect).abs().sqrt();
            // Each corner near one of the rectangle's, and the area close to it.
            let near = q.iter().all(|p| {
                rect.iter()
                    .any(|r| crate::detect::dist(*p, *r) <= MAX_REFIT_SHARE * size + 1.0)
            });
            let area_ratio = signed_area(&q).abs() / signed_area(rect).abs().max(1e-9);
            if !near || area_ratio < 0.85 {
                return Ok(None);
            }
            return Ok(Some(grown_by_half_a_pixel(&q)));
        }
        eps *= 1.3;
    }
    Ok(None)
}

/// A refitted corner may move this share of the core's size from the rectangle's corner.
const MAX_REFIT_SHARE: f64 = 0.25;

/// Where a model's core lies inside each card, which says how a core grows back to its card.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CoreShape {
    /// The card shrunk about its centre to this share of its width and height.
    Share(f64),
    /// The card's visible pixels farther than this many output pixels from its outline.
    Inset(f64),
}

impl CoreShape {
    /// The card's outline from its core's quad.
    pub fn grow(&self, core: &[[f64; 2]; 4]) -> [[f64; 2]; 4] {
        match *self {
            CoreShape::Share(share) => grow_by_share(core, share),
            CoreShape::Inset(inset) => offset_sides(core, inset).unwrap_or(*core),
        }
    }

    /// A card's half width from its core's.
    fn grow_half(&self, half: f64) -> f64 {
        match *self {
            CoreShape::Share(share) => half / share,
            CoreShape::Inset(inset) => half + inset,
        }
    }
}

/// The core covers `share` of the card's width and height about the card's centre, so in the
/// card's own plane (through the quad's homography, exact under perspective) the card's corners
/// lie at `0.5 ± 0.5 / share`.
fn grow_by_share(core: &[[f64; 2]; 4], share: f64) -> [[f64; 2]; 4] {
    let Some(h) = square_to_quad(core) else {
        return *core;
    };
    let (lo, hi) = (0.5 - 0.5 / share, 0.5 + 0.5 / share);
    [[lo, lo], [hi, lo], [hi, hi], [lo, hi]].map(|p| apply(&h, p))
}

/// Each side of a convex quad moved `by` outwards, the corners where the moved sides meet; `None`
/// for a degenerate quad (two sides parallel where they should meet).
fn offset_sides(q: &[[f64; 2]; 4], by: f64) -> Option<[[f64; 2]; 4]> {
    let c = crate::geometry::centroid(q);
    // Side k runs from corner k to corner k+1: its outward unit normal and offset (n·x = d).
    let mut lines = [([0.0f64; 2], 0.0f64); 4];
    for k in 0..4 {
        let (a, b) = (q[k], q[(k + 1) % 4]);
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1e-9 {
            return None;
        }
        let mut n = [dy / len, -dx / len];
        if n[0] * (c[0] - a[0]) + n[1] * (c[1] - a[1]) > 0.0 {
            n = [-n[0], -n[1]];
        }
        lines[k] = (n, n[0] * a[0] + n[1] * a[1] + by);
    }
    let mut out = [[0.0; 2]; 4];
    for (k, corner) in out.iter_mut().enumerate() {
        let ((n1, d1), (n2, d2)) = (lines[(k + 3) % 4], lines[k]);
        let det = n1[0] * n2[1] - n1[1] * n2[0];
        if det.abs() < 1e-9 {
            return None;
        }
        *corner = [
            (d1 * n2[1] - n1[1] * d2) / det,
            (n1[0] * d2 - d1 * n2[0]) / det,
        ];
    }
    Some(out)
}

/// The rectangle turned by `angle` (radians) that holds `outline`, grown by half a pixel and then
/// back from a core to its card; clockwise on screen.
pub fn card_at_angle(outline: &[[f64; 2]], angle: f64, core: CoreShape) -> Option<[[f64; 2]; 4]> {
    if outline.len() < 3 {
        return None;
    }
    let (u, v) = ([angle.cos(), angle.sin()], [-angle.sin(), angle.cos()]);
    let dot = |p: &[f64; 2], a: [f64; 2]| p[0] * a[0] + p[1] * a[1];
    let (mut u0, mut u1, mut v0, mut v1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for p in outline {
        u0 = u0.min(dot(p, u));
        u1 = u1.max(dot(p, u));
        v0 = v0.min(dot(p, v));
        v1 = v1.max(dot(p, v));
    }
    let (cu, cv) = ((u0 + u1) / 2.0, (v0 + v1) / 2.0);
    let (hu, hv) = (
        core.grow_half((u1 - u0) / 2.0 + HALF_PIXEL),
        core.grow_half((v1 - v0) / 2.0 + HALF_PIXEL),
    );
    let at = |a: f64, b: f64| [u[0] * a + v[0] * b, u[1] * a + v[1] * b];
    let mut q = [
        at(cu - hu, cv - hv),
        at(cu + hu, cv - hv),
        at(cu + hu, cv + hv),
        at(cu - hu, cv + hv),
    ];
    if signed_area(&q) < 0.0 {
        q.reverse();
    }
    Some(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grown_core_is_the_card_it_was_shrunk_from() {
        let card = [[100.0, 50.0], [160.0, 55.0], [150.0, 140.0], [95.0, 130.0]];
        let h = square_to_quad(&card).expect("card");
        let share = 0.64;
        let (lo, hi) = (0.5 - share / 2.0, 0.5 + share / 2.0);
        let core = [[lo, lo], [hi, lo], [hi, hi], [lo, hi]].map(|p| apply(&h, p));
        let grown = CoreShape::Share(share).grow(&core);
        for (g, c) in grown.iter().zip(card) {
            assert!(
                (g[0] - c[0]).abs() < 1e-6 && (g[1] - c[1]).abs() < 1e-6,
                "{g:?} vs {c:?}"
            );
        }
    }

    fn map_with(w: usize, h: usize, rects: &[(usize, usize, usize, usize)]) -> Vec<f32> {
        let mut m = vec![0.0; w * h];
        for &(x0, y0, x1, y1) in rects {
            for y in y0..y1 {
                for x in x0..x1 {
                    m[y * w + x] = 0.9;
                }
            }
        }
        m
    }

    fn width(q: &[[f64; 2]; 4]) -> f64 {
        let xs: Vec<f64> = q.iter().map(|p| p[0]).collect();
        xs.iter().cloned().fold(f64::MIN, f64::max) - xs.iter().cloned().fold(f64::MAX, f64::min)
    }

    /// The only quad found in the 60×40 maps, checked to be `wide` output pixels across.
    fn one_quad_of_width(
        core: &[f32],
        card: &[f32],
        opts: &DetectorOptions,
        wide: f64,
    ) -> CoreQuad {
        let quads = core_quads(core, card, 60, 40, opts).expect("quads");
        assert_eq!(quads.len(), 1, "{quads:?}");
        assert!(
            (width(&quads[0].quad) - wide).abs() < 1.0,
            "{:?}",
            quads[0].quad
        );
        quads[0].clone()
    }

    #[test]
    fn a_card_alone_is_its_own_outline() {
        let card = map_with(60, 40, &[(10, 5, 30, 35)]);
        let core = map_with(60, 40, &[(12, 7, 28, 33)]);
        let quad = one_quad_of_width(&core, &card, &DetectorOptions::default(), 20.0);
        assert!(quad.fill > 0.95);
        assert!((quad.score - 0.9).abs() < 1e-4);
        assert!(signed_area(&quad.quad) > 0.0);
    }

    #[test]
    fn a_region_holding_a_neighbour_whose_core_was_missed_gives_the_cores_card() {
        // Two 20×30 cards side by side make one card region; the model found only the left one's
        // core (2 px inside it). The region's outline would cover both cards.
        let card = map_with(60, 40, &[(5, 5, 45, 35)]);
        let core = map_with(60, 40, &[(7, 7, 23, 33)]);
        one_quad_of_width(&core, &card, &DetectorOptions::default(), 20.0);
        let always_region = DetectorOptions {
            max_region_over_core: f64::INFINITY,
            ..DetectorOptions::default()
        };
        one_quad_of_width(&core, &card, &always_region, 40.0);
    }

    #[test]
    fn a_far_card_in_a_pile_is_a_card_and_a_sliver_beside_a_near_one_is_not() {
        // One card region runs through a pile seen in perspective: a near card's 30×40 core, a
        // far card's 14×18 core (a fifth of the near one's) two card sizes away, and a core as
        // small right beside the near card (a sliver of a card under it).
        let card = map_with(120, 60, &[(2, 2, 110, 55)]);
        let core = map_with(
            120,
            60,
            &[(5, 5, 35, 45), (90, 10, 104, 28), (40, 10, 54, 28)],
        );
        let quads = core_quads(&core, &card, 120, 60, &DetectorOptions::default()).expect("quads");
        let mut centres: Vec<[f64; 2]> = quads.iter().map(|q| centroid(&q.quad)).collect();
        centres.sort_by(|a, b| a[0].total_cmp(&b[0]));
        assert_eq!(centres.len(), 2, "{quads:?}");
        assert!(dist(centres[0], [20.0, 25.0]) < 1.0, "{centres:?}");
        assert!(dist(centres[1], [97.0, 19.0]) < 1.0, "{centres:?}");
    }

    #[test]
    fn touching_cards_are_told_apart_by_their_cores() {
        // Two cards side by side make one card region; their 12×18 cores have a 2-pixel gap; and
        // a 2×2 speck is no card.
        let card = map_with(60, 40, &[(1, 0, 35, 28)]);
        let core = map_with(60, 40, &[(5, 5, 17, 23), (19, 5, 31, 23), (50, 30, 52, 32)]);
        let options = DetectorOptions {
            core: CoreShape::Share(0.64),
            ..DetectorOptions::default()
        };
        let quads = core_quads(&core, &card, 60, 40, &options).expect("quads");
        assert_eq!(quads.len(), 2, "{quads:?}");
        for q in &quads {
            let grown = 12.0 / 0.64;
            assert!(
                (width(&q.quad) - grown).abs() < 1.5,
                "width {}",
                width(&q.quad)
            );
            assert!(q.fill > 0.9, "fill {}", q.fill);
        }
    }

    #[test]
    fn a_card_with_a_bite_out_of_it_does_not_fill_its_quad() {
        // An L-shaped card region: a card whose corner lies under another card.
        let card = map_with(60, 60, &[(10, 10, 40, 25), (10, 25, 22, 50)]);
        let core = map_with(60, 60, &[(12, 12, 38, 23), (12, 23, 20, 48)]);
        let quads = core_quads(&core, &card, 60, 60, &DetectorOptions::default()).expect("quads");
        assert_eq!(quads.len(), 1);
        assert!(quads[0].hidden, "{}", quads[0].fill);
    }

    #[test]
    fn inset_cores_grow_back_by_their_inset_on_every_side() {
        // Two 16×24 cards side by side (one card region); inset cores 2 px inside each.
        let card = map_with(60, 40, &[(4, 4, 36, 28)]);
        let core = map_with(60, 40, &[(6, 6, 18, 26), (22, 6, 34, 26)]);
        let options = DetectorOptions {
            core: CoreShape::Inset(2.0),
            ..DetectorOptions::default()
        };
        let quads = core_quads(&core, &card, 60, 40, &options).expect("quads");
        assert_eq!(quads.len(), 2, "{quads:?}");
        let mut lefts: Vec<f64> = quads
            .iter()
            .map(|q| q.quad.iter().map(|p| p[0]).fold(f64::MAX, f64::min))
            .collect();
        lefts.sort_by(f64::total_cmp);
        assert!(
            (lefts[0] - 4.0).abs() < 0.6 && (lefts[1] - 20.0).abs() < 0.6,
            "{lefts:?}"
        );
        for q in &quads {
            assert!(
                (width(&q.quad) - 16.0).abs() < 1.0,
                "width {}",
                width(&q.quad)
            );
            assert!(!q.hidden, "fill {}", q.fill);
        }
    }

    #[test]
    fn offset_sides_of_a_slanted_quad_keep_their_directions() {
        let q = [[10.0, 10.0], [30.0, 12.0], [28.0, 40.0], [8.0, 37.0]];
        let grown = offset_sides(&q, 2.0).expect("quad");
        for k in 0..4 {
            let (a, b) = (q[k], q[(k + 1) % 4]);
            let (ga, gb) = (grown[k], grown[(k + 1) % 4]);
            let cross = (b[0] - a[0]) * (gb[1] - ga[1]) - (b[1] - a[1]) * (gb[0] - ga[0]);
            assert!(cross.abs() < 1e-6, "side {k} turned");
            // The moved side lies 2 px from the old one.
            let len = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt();
            let away =
                ((b[0] - a[0]) * (ga[1] - a[1]) - (b[1] - a[1]) * (ga[0] - a[0])).abs() / len;
            assert!((away - 2.0).abs() < 1e-6, "side {k} moved {away}");
        }
        assert!(signed_area(&grown).abs() > signed_area(&q).abs());
        assert!(offset_sides(&[[0.0, 0.0]; 4], 1.0).is_none());
    }

    #[test]
    fn a_wrong_sized_map_is_an_error() {
        assert!(core_quads(&[0.0; 10], &[0.0; 16], 4, 4, &DetectorOptions::default()).is_err());
    }
}
