//! Card quads: every printed card has a black frame; the detector finds the frame's *hole* (its inner
//! edge). Holes stay clean quads on light and dark tables, when cards touch, and for a card lying on
//! another one; a card whose frame is cut by a hand has no hole and is not guessed at.

use crate::geometry::signed_area;
use crate::VisionError;
use opencv::core::{Mat, Point, Rect, Vec4i, Vector};
use opencv::imgproc;
use opencv::prelude::*;

/// One candidate card: the frame's hole as four image points, clockwise on screen.
#[derive(Clone, Debug, PartialEq)]
pub struct HoleQuad {
    pub points: [[f64; 2]; 4],
    pub area: f64,
    /// Smaller quads inside this one, taken for its content. If this quad turns out not to be a
    /// card (the merged margins of a fan of overlapping cards), they are the cards to try instead.
    pub inner: Vec<HoleQuad>,
}

#[derive(Clone, Debug)]
pub struct DetectOptions {
    pub min_area: f64,
    /// Fraction of the frame area.
    pub max_area_fraction: f64,
    /// Threshold passes (neighbourhood size, offset, share of the frame's rows from the top): a
    /// small offset finds faint frames (blur, glare); a large one keeps only near-black pixels, so a
    /// blurred picture does not leak into the frame's hole; a small neighbourhood keeps the thin white
    /// gap of a far, foreshortened card open between its frame and its header. Those cards lie in the
    /// upper part of a tilted camera's frame, and a fine threshold is slow on a noisy frame (tens of
    /// thousands of specks), so the fine passes look at the top 60 % only (at 45° the front-line row
    /// lies just below the middle). Far cards at 45° with defocus lose that gap at any neighbourhood;
    /// coarser neighbourhoods (15, 21 px) over the same part still close their holes cleanly.
    pub passes: Vec<(i32, f64, f64)>,
    /// The same kind of passes over an unsharp-masked copy of the frame (`sharpen`) around the cards
    /// the passes above found. A far card out of focus keeps only a pixel of white between its frame
    /// and its picture, which blur closes at any threshold; sharpening opens it again, wherever the
    /// far cards lie in the frame. The finest neighbourhood (5 px) is only run here. Empty: no
    /// sharpened copy is made.
    pub sharpened_passes: Vec<(i32, f64, f64)>,
    pub sharpen: Sharpen,
}

/// An unsharp mask: `(1 + amount) · image − amount · blur(image, sigma)`.
#[derive(Clone, Copy, Debug)]
pub struct Sharpen {
    pub sigma: f64,
    pub amount: f64,
}

impl Default for DetectOptions {
    /// The plain passes with the finest one (5 px) moved onto a sharpened copy around the cards
    /// found. Chosen on Blitz tables from the second compositor (tuning seeds 612000–612199), where
    /// it finds a third of the far, out-of-focus cards the plain passes miss.
    fn default() -> Self {
        let mut opts = DetectOptions::plain();
        opts.passes.retain(|&(block, ..)| block != FINEST_BLOCK);
        opts.sharpened_passes = vec![(FINEST_BLOCK, FINEST_OFFSET, 1.0)];
        opts
    }
}

/// The finest threshold pass: a 5 px neighbourhood with offset 3.
const FINEST_BLOCK: i32 = 5;
const FINEST_OFFSET: f64 = 3.0;

impl DetectOptions {
    /// Threshold passes on the frame as it is, the finest one over the top 60 %. For tables where
    /// every outline counts even unnamed (a Duel card face down, a 风声 card's colour read from its
    /// pixels): there the sharpened copy's extra outlines on the table read as cards.
    pub fn plain() -> Self {
        DetectOptions {
            min_area: 350.0,
            max_area_fraction: 0.08,
            passes: vec![
                (11, 8.0, 1.0),
                (11, 20.0, 1.0),
                (7, 5.0, 0.6),
                (FINEST_BLOCK, FINEST_OFFSET, 0.6),
                (15, 8.0, 0.6),
                (21, 10.0, 0.6),
            ],
            sharpened_passes: Vec::new(),
            sharpen: Sharpen {
                sigma: 1.5,
                amount: 2.0,
            },
        }
    }
}

/// Finds frame holes in a grey image.
/// With `table` (image → table mm, from the mat), quads that are not card-sized on the table are
/// dropped before anything else, so a mat cell around a card cannot hide it.
pub fn find_holes(
    gray: &Mat,
    opts: &DetectOptions,
    table: Option<&crate::geometry::H3>,
) -> Result<Vec<HoleQuad>, VisionError> {
    let max_area = opts.max_area_fraction * (gray.rows() * gray.cols()) as f64;
    let whole = Rect::new(0, 0, gray.cols(), gray.rows());
    let mut quads: Vec<HoleQuad> = Vec::new();
    threshold_passes(gray, whole, &opts.passes, opts, max_area, table, &mut quads)?;
    if !opts.sharpened_passes.is_empty() {
        // Cards missed are among or beside the cards found: sharpen only there (a sharpened
        // frame's noise makes thousands of specks to trace).
        let near = around_cards(&quads, whole).unwrap_or(whole);
        let sharp = unsharp(&Mat::roi(gray, near)?, opts.sharpen)?;
        let passes = &opts.sharpened_passes;
        threshold_passes(&sharp, near, passes, opts, max_area, table, &mut quads)?;
    }
    Ok(outermost(quads))
}

/// The part of the frame within two card widths of the holes found, or `None` when none was.
fn around_cards(quads: &[HoleQuad], frame: Rect) -> Option<Rect> {
    let mut sizes: Vec<f64> = quads.iter().map(|q| q.area.sqrt()).collect();
    sizes.sort_by(f64::total_cmp);
    let reach = 2.0 * *sizes.get(sizes.len() / 2)?;
    let points = quads.iter().flat_map(|q| q.points);
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for [x, y] in points {
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    let left = ((x0 - reach).floor() as i32).max(frame.x);
    let top = ((y0 - reach).floor() as i32).max(frame.y);
    let right = ((x1 + reach).ceil() as i32).min(frame.x + frame.width);
    let bottom = ((y1 + reach).ceil() as i32).min(frame.y + frame.height);
    (right > left && bottom > top).then(|| Rect::new(left, top, right - left, bottom - top))
}

fn unsharp(gray: &impl opencv::core::ToInputArray, sharpen: Sharpen) -> Result<Mat, VisionError> {
    let mut blurred = Mat::default();
    imgproc::gaussian_blur(
        gray,
        &mut blurred,
        opencv::core::Size::new(0, 0),
        sharpen.sigma,
        sharpen.sigma,
        opencv::core::BORDER_DEFAULT,
    )?;
    let mut sharp = Mat::default();
    opencv::core::add_weighted(
        gray,
        1.0 + sharpen.amount,
        &blurred,
        -sharpen.amount,
        0.0,
        &mut sharp,
        -1,
    )?;
    Ok(sharp)
}

/// Adds the holes each threshold pass finds in `gray` (the part `at` of the frame) to `quads`, in
/// frame pixels, skipping holes already there.
fn threshold_passes(
    gray: &Mat,
    at: Rect,
    passes: &[(i32, f64, f64)],
    opts: &DetectOptions,
    max_area: f64,
    table: Option<&crate::geometry::H3>,
    quads: &mut Vec<HoleQuad>,
) -> Result<(), VisionError> {
    for &(block, offset, share) in passes {
        let rows = ((gray.rows() as f64 * share).round() as i32).clamp(1, gray.rows());
        let part = Mat::roi(gray, Rect::new(0, 0, gray.cols(), rows))?;
        let mut dark = Mat::default();
        imgproc::adaptive_threshold(
            &part,
            &mut dark,
            255.0,
            imgproc::ADAPTIVE_THRESH_MEAN_C,
            imgproc::THRESH_BINARY_INV,
            block,
            offset,
        )?;
        let mut contours = Vector::<Vector<Point>>::new();
        let mut hierarchy = Vector::<Vec4i>::new();
        imgproc::find_contours_with_hierarchy(
            &dark,
            &mut contours,
            &mut hierarchy,
            imgproc::RETR_CCOMP,
            imgproc::CHAIN_APPROX_SIMPLE,
            Point::new(0, 0),
        )?;
        for (i, links) in hierarchy.iter().enumerate() {
            // Holes are the contours with a parent in a two-level hierarchy; the thousands of
            // specks a noisy frame gives are outer contours, skipped before they are copied.
            if links[3] < 0 {
                continue;
            }
            let contour = contours.get(i)?;
            if contour.len() < 4 {
                continue;
            }
            let area = imgproc::contour_area(&contour, false)?;
            if area < opts.min_area || area > max_area {
                continue;
            }
            let perimeter = imgproc::arc_length(&contour, true)?;
            let mut approx = Vector::<Point>::new();
            imgproc::approx_poly_dp(&contour, &mut approx, 0.04 * perimeter, true)?;
            if approx.len() != 4 || !imgproc::is_contour_convex(&approx)? {
                continue;
            }
            let mut points = [[0.0; 2]; 4];
            for (k, p) in approx.iter().enumerate() {
                points[k] = [(p.x + at.x) as f64 + 0.5, (p.y + at.y) as f64 + 0.5];
            }
            if signed_area(&points) < 0.0 {
                points.reverse();
            }
            let sides: Vec<f64> = (0..4)
                .map(|k| dist(points[k], points[(k + 1) % 4]))
                .collect();
            let short = sides.iter().cloned().fold(f64::MAX, f64::min);
            let long = sides.iter().cloned().fold(0.0, f64::max);
            // Opposite sides of a card seen at up to 45° stay within a factor ~2; reject slivers.
            if short / long < 0.3 {
                continue;
            }
            // The hole must fill its quad: a broken frame merged with its surroundings does not.
            let quad_area = signed_area(&points).abs();
            if area / quad_area < 0.85 {
                continue;
            }
            if table.is_some_and(|h| !card_sized(h, &points)) {
                continue;
            }
            // The same hole found by an earlier pass.
            let c = crate::geometry::centroid(&points);
            if quads.iter().any(|q| {
                dist(crate::geometry::centroid(&q.points), c) < 0.2 * area.sqrt()
                    && (0.8..1.25).contains(&(q.area / area))
            }) {
                continue;
            }
            quads.push(HoleQuad {
                points,
                area,
                inner: Vec::new(),
            });
        }
    }
    Ok(())
}

/// Drops quads that are outlines around other holes and folds content quads into their card.
fn outermost(quads: Vec<HoleQuad>) -> Vec<HoleQuad> {
    // A quad holding another one of 45–85 % its area is not a card's hole: content inside a hole
    // covers at most ~35 % of it. It is the card's outline (on a dark table the white margin makes a
    // hole of 1/0.70 the frame hole's area) or the space around a card lying on another: keep the
    // inner quad.
    let inside = |inner: &HoleQuad, outer: &HoleQuad| {
        crate::geometry::point_in_convex(crate::geometry::centroid(&inner.points), &outer.points)
    };
    // Likewise a quad holding two or more card-sized holes is the white margins of touching cards
    // merged into one blob, not a card (a card's own content never makes two such quads).
    let outlines: Vec<bool> = quads
        .iter()
        .map(|q| {
            let held = |range: std::ops::Range<f64>| -> Vec<&HoleQuad> {
                quads
                    .iter()
                    .filter(|p| inside(p, q) && range.contains(&(p.area / q.area)))
                    .collect()
            };
            let cards = held(0.12..0.45);
            // Two passes may find the same picture twice: only quads apart count as two cards.
            let apart = cards
                .iter()
                .any(|a| cards.iter().any(|b| !inside(a, b) && !inside(b, a)));
            !held(0.45..0.85).is_empty() || apart
        })
        .collect();
    let mut quads: Vec<HoleQuad> = quads
        .into_iter()
        .zip(outlines)
        .filter(|(_, o)| !o)
        .map(|(q, _)| q)
        .collect();
    // Content inside a card can form smaller quads: keep the outermost.
    quads.sort_by(|a, b| b.area.total_cmp(&a.area));
    let mut kept: Vec<HoleQuad> = Vec::new();
    for q in quads {
        let c = crate::geometry::centroid(&q.points);
        if let Some(outer) = kept
            .iter_mut()
            .find(|k| crate::geometry::point_in_convex(c, &k.points) && q.area < 0.45 * k.area)
        {
            if q.area > 0.08 * outer.area {
                outer.inner.push(q);
            }
            continue;
        }
        kept.push(q);
    }
    kept
}

pub fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

/// A quad's short and long side on the table (each the mean of two opposite sides), `h` taking
/// image pixels to table millimetres.
pub fn sides_mm(h: &crate::geometry::H3, quad: &[[f64; 2]; 4]) -> (f64, f64) {
    let mm = quad.map(|p| crate::geometry::apply(h, p));
    let side = |a: usize, b: usize| dist(mm[a], mm[b]);
    let (s1, s2) = (
        (side(0, 1) + side(2, 3)) / 2.0,
        (side(1, 2) + side(3, 0)) / 2.0,
    );
    (s1.min(s2), s1.max(s2))
}

/// Whether a frame hole seen in the image measures like one on the table (51×76 mm, ±35 %: lens
/// distortion and a rough fit stretch it).
pub fn card_sized(h: &crate::geometry::H3, quad: &[[f64; 2]; 4]) -> bool {
    use crate::face::{CARD_H_MM, CARD_W_MM, HOLE_INSET_MM};
    let (short, long) = sides_mm(h, quad);
    let (w, h) = (
        CARD_W_MM - 2.0 * HOLE_INSET_MM,
        CARD_H_MM - 2.0 * HOLE_INSET_MM,
    );
    (short / w - 1.0).abs() < 0.35 && (long / h - 1.0).abs() < 0.35
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x: f64, y: f64, side: f64) -> HoleQuad {
        HoleQuad {
            points: [[x, y], [x + side, y], [x + side, y + side], [x, y + side]],
            area: side * side,
            inner: Vec::new(),
        }
    }

    #[test]
    fn the_sharpened_look_reaches_two_card_widths_round_the_cards_and_stays_in_the_frame() {
        let frame = Rect::new(0, 0, 640, 480);
        assert_eq!(around_cards(&[], frame), None);
        let cards = [square(300.0, 200.0, 20.0), square(340.0, 220.0, 20.0)];
        assert_eq!(
            around_cards(&cards, frame),
            Some(Rect::new(260, 160, 140, 120))
        );
        let at_the_edge = [square(5.0, 450.0, 20.0)];
        assert_eq!(
            around_cards(&at_the_edge, frame),
            Some(Rect::new(0, 410, 65, 70))
        );
    }
}
