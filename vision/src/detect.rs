//! Card quads: every printed card has a black frame; the detector finds the frame's *hole* (its inner
//! edge). Holes stay clean quads on light and dark tables, when cards touch, and for a card lying on
//! another one; a card whose frame is cut by a hand has no hole and is not guessed at.

use crate::geometry::signed_area;
use crate::VisionError;
use opencv::core::{Mat, Point, Vec4i, Vector};
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
}

impl Default for DetectOptions {
    fn default() -> Self {
        DetectOptions {
            min_area: 350.0,
            max_area_fraction: 0.08,
            passes: vec![
                (11, 8.0, 1.0),
                (11, 20.0, 1.0),
                (7, 5.0, 0.6),
                (5, 3.0, 0.6),
                (15, 8.0, 0.6),
                (21, 10.0, 0.6),
            ],
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
    let mut quads: Vec<HoleQuad> = Vec::new();
    for &(block, offset, share) in &opts.passes {
        let rows = ((gray.rows() as f64 * share).round() as i32).clamp(1, gray.rows());
        let part = Mat::roi(gray, opencv::core::Rect::new(0, 0, gray.cols(), rows))?;
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
        for (i, contour) in contours.iter().enumerate() {
            // Holes are the contours with a parent in a two-level hierarchy.
            if hierarchy.get(i)?[3] < 0 || contour.len() < 4 {
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
                points[k] = [p.x as f64 + 0.5, p.y as f64 + 0.5];
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
    Ok(kept)
}

pub fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

/// Whether a frame hole seen in the image measures like one on the table (51×76 mm, ±35 %: lens
/// distortion and a rough fit stretch it).
pub fn card_sized(h: &crate::geometry::H3, quad: &[[f64; 2]; 4]) -> bool {
    use crate::face::{CARD_H_MM, CARD_W_MM, HOLE_INSET_MM};
    let mm = quad.map(|p| crate::geometry::apply(h, p));
    let side = |a: usize, b: usize| dist(mm[a], mm[b]);
    let (s1, s2) = (
        (side(0, 1) + side(2, 3)) / 2.0,
        (side(1, 2) + side(3, 0)) / 2.0,
    );
    let (short, long) = (s1.min(s2), s1.max(s2));
    let (w, h) = (
        CARD_W_MM - 2.0 * HOLE_INSET_MM,
        CARD_H_MM - 2.0 * HOLE_INSET_MM,
    );
    (short / w - 1.0).abs() < 0.35 && (long / h - 1.0).abs() < 0.35
}
