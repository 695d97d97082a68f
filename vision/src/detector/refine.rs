//! Snaps a card quad found at the model's coarse resolution to the card's edges in the full frame:
//! each side is searched along its normal for the strongest brightness step nearest the prediction,
//! a line is fitted through those steps, and the corners are where neighbouring lines cross.

use crate::VisionError;
use opencv::core::Mat;
use opencv::prelude::*;

/// Points sampled along each side (between 15 % and 85 % of it: rounded corners bend the ends).
const SAMPLES: usize = 11;
/// Search reach along the normal, as a share of the side's length, and its bounds in pixels; in a
/// large frame the model's pixel covers many image pixels, and the reach grows to this many of them.
const REACH_SHARE: f64 = 0.15;
const REACH_MIN_PX: f64 = 2.0;
const REACH_MAX_PX: f64 = 14.0;
const REACH_MODEL_PX: f64 = 1.5;
/// A step weaker than this (grey levels over 1.5 px) is no edge.
const MIN_STEP: f32 = 10.0;
/// A step within this share of the strongest one counts as strong: of those, the nearest wins (a
/// card's own printed frame may step more sharply than its outer edge does against the table).
const STRONG_SHARE: f32 = 0.6;
/// Fewer edge points than this on a side leave that side where the model put it.
const MIN_POINTS: usize = 5;
/// Points farther than this from the first line fit are dropped before the second.
const OUTLIER_PX: f64 = 1.5;

/// The snapped quad, or `None` when no side found its edge (keep the model's quad). `model_px` is
/// how many image pixels one pixel of the model's output spans.
pub fn snap_to_edges(
    gray: &Mat,
    corners: &[[f64; 2]; 4],
    model_px: f64,
) -> Result<Option<[[f64; 2]; 4]>, VisionError> {
    let reach_max = REACH_MAX_PX.max(REACH_MODEL_PX * model_px);
    let (w, h) = (gray.cols() as usize, gray.rows() as usize);
    if w < 3 || h < 3 || !gray.is_continuous() {
        return Ok(None);
    }
    let pixels = gray.data_bytes()?;
    let at = |x: f64, y: f64| -> Option<f32> { bilinear(pixels, w, h, x, y) };
    let centre = crate::geometry::centroid(corners);
    let mut lines: [Line; 4] = [Line::default(); 4];
    let mut snapped_any = false;
    for k in 0..4 {
        let (a, b) = (corners[k], corners[(k + 1) % 4]);
        let model_line = Line::through(a, b);
        lines[k] = model_line;
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 4.0 {
            continue;
        }
        // Outward normal: away from the quad's centre.
        let mut n = [-dy / len, dx / len];
        let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
        if (mid[0] - centre[0]) * n[0] + (mid[1] - centre[1]) * n[1] < 0.0 {
            n = [-n[0], -n[1]];
        }
        let reach = (len * REACH_SHARE).clamp(REACH_MIN_PX, reach_max);
        let mut found = Vec::with_capacity(SAMPLES);
        for i in 0..SAMPLES {
            let t = 0.15 + 0.7 * i as f64 / (SAMPLES - 1) as f64;
            let p = [a[0] + dx * t, a[1] + dy * t];
            if let Some(d) = strongest_step(&at, p, n, reach) {
                found.push([p[0] + n[0] * d, p[1] + n[1] * d]);
            }
        }
        if found.len() < MIN_POINTS {
            continue;
        }
        let Some(first) = Line::fit(&found) else {
            continue;
        };
        let kept: Vec<[f64; 2]> = found
            .into_iter()
            .filter(|p| first.distance(*p) <= OUTLIER_PX)
            .collect();
        if kept.len() < MIN_POINTS {
            continue;
        }
        if let Some(line) = Line::fit(&kept) {
            lines[k] = line;
            snapped_any = true;
        }
    }
    if !snapped_any {
        return Ok(None);
    }
    let mut out = *corners;
    for (k, corner) in out.iter_mut().enumerate() {
        // Corner k lies where side k-1 (ending at it) crosses side k (starting at it).
        let Some(p) = lines[(k + 3) % 4].cross(&lines[k]) else {
            return Ok(None);
        };
        let moved = ((p[0] - corner[0]).powi(2) + (p[1] - corner[1]).powi(2)).sqrt();
        if moved > 2.0 * reach_max {
            return Ok(None);
        }
        *corner = p;
    }
    Ok(Some(out))
}

/// The angle (radians, modulo a quarter turn) of the strongest straight edges in the part of `gray`
/// the quad covers: a card's four sides are two perpendicular directions. `None` when the part is
/// flat.
pub fn edge_angle(gray: &Mat, quad: &[[f64; 2]; 4]) -> Result<Option<f64>, VisionError> {
    let (w, h) = (gray.cols(), gray.rows());
    let xs = quad.iter().map(|p| p[0]);
    let ys = quad.iter().map(|p| p[1]);
    let x0 = (xs.clone().fold(f64::MAX, f64::min).floor() as i32).clamp(0, w - 1);
    let x1 = (xs.fold(f64::MIN, f64::max).ceil() as i32).clamp(0, w - 1);
    let y0 = (ys.clone().fold(f64::MAX, f64::min).floor() as i32).clamp(0, h - 1);
    let y1 = (ys.fold(f64::MIN, f64::max).ceil() as i32).clamp(0, h - 1);
    if x1 - x0 < 6 || y1 - y0 < 6 {
        return Ok(None);
    }
    let roi = Mat::roi(gray, opencv::core::Rect::new(x0, y0, x1 - x0, y1 - y0))?;
    let (mut gx, mut gy) = (Mat::default(), Mat::default());
    opencv::imgproc::sobel(
        &roi,
        &mut gx,
        opencv::core::CV_32F,
        1,
        0,
        3,
        1.0,
        0.0,
        opencv::core::BORDER_REPLICATE,
    )?;
    opencv::imgproc::sobel(
        &roi,
        &mut gy,
        opencv::core::CV_32F,
        0,
        1,
        3,
        1.0,
        0.0,
        opencv::core::BORDER_REPLICATE,
    )?;
    let (gx, gy) = (gx.data_typed::<f32>()?, gy.data_typed::<f32>()?);
    // Directions doubled twice (4θ), so the two perpendicular sides and both signs add up.
    let (mut c, mut s) = (0.0f64, 0.0f64);
    for (&a, &b) in gx.iter().zip(gy) {
        let m2 = (a * a + b * b) as f64;
        if m2 < EDGE_ANGLE_MIN_GRADIENT * EDGE_ANGLE_MIN_GRADIENT {
            continue;
        }
        let theta = (b as f64).atan2(a as f64);
        c += m2 * (4.0 * theta).cos();
        s += m2 * (4.0 * theta).sin();
    }
    if c == 0.0 && s == 0.0 {
        return Ok(None);
    }
    Ok(Some(s.atan2(c) / 4.0))
}

/// Sobel magnitude below which a pixel says nothing about the edges' direction.
const EDGE_ANGLE_MIN_GRADIENT: f64 = 40.0;

/// Offset along `n` (within ±reach) of the strong brightness step nearest `p`.
fn strongest_step(
    at: &impl Fn(f64, f64) -> Option<f32>,
    p: [f64; 2],
    n: [f64; 2],
    reach: f64,
) -> Option<f64> {
    let steps = (2.0 * reach / 0.5).round() as usize + 1;
    let mut seen: Vec<(f64, f32)> = Vec::with_capacity(steps);
    for s in 0..steps {
        let d = -reach + 0.5 * s as f64;
        let out = at(p[0] + n[0] * (d + 0.75), p[1] + n[1] * (d + 0.75))?;
        let inn = at(p[0] + n[0] * (d - 0.75), p[1] + n[1] * (d - 0.75))?;
        seen.push((d, (out - inn).abs()));
    }
    let best = seen.iter().map(|s| s.1).fold(0.0f32, f32::max);
    if best < MIN_STEP {
        return None;
    }
    // Local maxima that are strong enough; the nearest to the prediction wins.
    (1..seen.len().saturating_sub(1))
        .filter(|&i| {
            seen[i].1 >= STRONG_SHARE * best
                && seen[i].1 >= seen[i - 1].1
                && seen[i].1 >= seen[i + 1].1
        })
        .map(|i| seen[i].0)
        .min_by(|a, b| a.abs().total_cmp(&b.abs()))
}

fn bilinear(px: &[u8], w: usize, h: usize, x: f64, y: f64) -> Option<f32> {
    if x < 0.0 || y < 0.0 || x > (w - 1) as f64 || y > (h - 1) as f64 {
        return None;
    }
    let (x0, y0) = (x.floor() as usize, y.floor() as usize);
    let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
    let (fx, fy) = ((x - x0 as f64) as f32, (y - y0 as f64) as f32);
    let g = |xx: usize, yy: usize| px[yy * w + xx] as f32;
    let top = g(x0, y0) * (1.0 - fx) + g(x1, y0) * fx;
    let bottom = g(x0, y1) * (1.0 - fx) + g(x1, y1) * fx;
    Some(top * (1.0 - fy) + bottom * fy)
}

/// A line `n · p = c` with unit normal `n`.
#[derive(Clone, Copy, Debug, Default)]
struct Line {
    n: [f64; 2],
    c: f64,
}

impl Line {
    fn through(a: [f64; 2], b: [f64; 2]) -> Line {
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let len = (dx * dx + dy * dy).sqrt().max(1e-12);
        let n = [-dy / len, dx / len];
        Line {
            n,
            c: n[0] * a[0] + n[1] * a[1],
        }
    }

    /// Total least squares through the points.
    fn fit(points: &[[f64; 2]]) -> Option<Line> {
        if points.len() < 2 {
            return None;
        }
        let c = crate::geometry::centroid(points);
        let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
        for p in points {
            let (x, y) = (p[0] - c[0], p[1] - c[1]);
            sxx += x * x;
            sxy += x * y;
            syy += y * y;
        }
        let angle = 0.5 * (2.0 * sxy).atan2(sxx - syy);
        let n = [-angle.sin(), angle.cos()];
        Some(Line {
            n,
            c: n[0] * c[0] + n[1] * c[1],
        })
    }

    fn distance(&self, p: [f64; 2]) -> f64 {
        (self.n[0] * p[0] + self.n[1] * p[1] - self.c).abs()
    }

    fn cross(&self, o: &Line) -> Option<[f64; 2]> {
        let det = self.n[0] * o.n[1] - self.n[1] * o.n[0];
        if det.abs() < 1e-6 {
            return None;
        }
        Some([
            (self.c * o.n[1] - self.n[1] * o.c) / det,
            (self.n[0] * o.c - self.c * o.n[0]) / det,
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Point, Scalar, Vector, CV_8UC1};
    use opencv::imgproc;

    #[test]
    fn a_rough_quad_snaps_to_the_card_edges() {
        let mut img =
            Mat::new_rows_cols_with_default(200, 200, CV_8UC1, Scalar::all(40.0)).expect("image");
        let card = [[50.0, 40.0], [140.0, 48.0], [132.0, 170.0], [44.0, 160.0]];
        let pts: Vector<Point> = card
            .iter()
            .map(|p| Point::new(p[0] as i32, p[1] as i32))
            .collect();
        imgproc::fill_convex_poly(&mut img, &pts, Scalar::all(220.0), imgproc::LINE_8, 0)
            .expect("draw");
        let rough = [[53.0, 43.0], [137.0, 45.0], [135.0, 166.0], [47.0, 163.0]];
        let snapped = snap_to_edges(&img, &rough, 2.0)
            .expect("snap")
            .expect("edges found");
        for (s, c) in snapped.iter().zip(card) {
            let err = ((s[0] - c[0]).powi(2) + (s[1] - c[1]).powi(2)).sqrt();
            assert!(err < 1.5, "corner {s:?} vs {c:?}");
        }
    }

    #[test]
    fn a_flat_image_keeps_the_models_quad() {
        let img =
            Mat::new_rows_cols_with_default(100, 100, CV_8UC1, Scalar::all(128.0)).expect("image");
        let q = [[20.0, 20.0], [70.0, 20.0], [70.0, 80.0], [20.0, 80.0]];
        assert_eq!(snap_to_edges(&img, &q, 2.0).expect("snap"), None);
    }
}
