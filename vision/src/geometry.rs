//! Small plane geometry in f64: 3×3 homographies and their conversion to OpenCV matrices.

use crate::VisionError;
use opencv::core::{Mat, Point2f, Vector};
use opencv::prelude::*;

pub type H3 = [[f64; 3]; 3];

pub const IDENTITY: H3 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

pub fn apply(h: &H3, p: [f64; 2]) -> [f64; 2] {
    let x = h[0][0] * p[0] + h[0][1] * p[1] + h[0][2];
    let y = h[1][0] * p[0] + h[1][1] * p[1] + h[1][2];
    let w = h[2][0] * p[0] + h[2][1] * p[1] + h[2][2];
    [x / w, y / w]
}

pub fn mul(a: &H3, b: &H3) -> H3 {
    let mut r = [[0.0; 3]; 3];
    for (i, row) in r.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = (0..3).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    r
}

pub fn invert(m: &H3) -> Option<H3> {
    let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    if det.abs() < 1e-12 {
        return None;
    }
    let c = |a: usize, b: usize, c2: usize, d: usize| m[a][b] * m[c2][d] - m[a][d] * m[c2][b];
    Some([
        [
            c(1, 1, 2, 2) / det,
            -c(0, 1, 2, 2) / det,
            c(0, 1, 1, 2) / det,
        ],
        [
            -c(1, 0, 2, 2) / det,
            c(0, 0, 2, 2) / det,
            -c(0, 0, 1, 2) / det,
        ],
        [
            c(1, 0, 2, 1) / det,
            -c(0, 0, 2, 1) / det,
            c(0, 0, 1, 1) / det,
        ],
    ])
}

/// The smallest upright box holding `points`: [left, top, right, bottom]; `None` for no points.
pub fn bounds<'a>(points: impl IntoIterator<Item = &'a [f64; 2]>) -> Option<[f64; 4]> {
    points.into_iter().fold(None, |b, p| {
        let [x0, y0, x1, y1] = b.unwrap_or([p[0], p[1], p[0], p[1]]);
        Some([x0.min(p[0]), y0.min(p[1]), x1.max(p[0]), y1.max(p[1])])
    })
}

/// The whole pixels of a `width` × `height` frame within `reach` of the box round `points`;
/// `None` for no points or where that holds no pixel.
pub fn frame_pixels_around<'a>(
    points: impl IntoIterator<Item = &'a [f64; 2]>,
    reach: f64,
    width: i32,
    height: i32,
) -> Option<opencv::core::Rect> {
    let [x0, y0, x1, y1] = bounds(points)?;
    let (x0, y0) = ((x0 - reach).max(0.0).floor(), (y0 - reach).max(0.0).floor());
    let x1 = (x1 + reach).min(f64::from(width)).ceil();
    let y1 = (y1 + reach).min(f64::from(height)).ceil();
    (x1 > x0 && y1 > y0)
        .then(|| opencv::core::Rect::new(x0 as i32, y0 as i32, (x1 - x0) as i32, (y1 - y0) as i32))
}

pub fn scale_translate(s: f64, tx: f64, ty: f64) -> H3 {
    [[s, 0.0, tx], [0.0, s, ty], [0.0, 0.0, 1.0]]
}

pub fn to_mat(h: &H3) -> Result<Mat, VisionError> {
    Ok(Mat::from_slice_2d(h)?)
}

pub fn from_mat(m: &Mat) -> Result<Option<H3>, VisionError> {
    if m.rows() != 3 || m.cols() != 3 {
        return Ok(None);
    }
    let mut h = [[0.0; 3]; 3];
    for (i, row) in h.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = *m.at_2d::<f64>(i as i32, j as i32)?;
        }
    }
    Ok(Some(h))
}

pub fn points(p: &[[f64; 2]]) -> Vector<Point2f> {
    p.iter()
        .map(|q| Point2f::new(q[0] as f32, q[1] as f32))
        .collect()
}

/// Warps the quad `corners` (image px: top-left, top-right, bottom-right, bottom-left) to an upright
/// `w`×`h` image, edges replicated; `None` when the quad is degenerate.
pub fn warp_quad(
    image: &Mat,
    corners: &[[f64; 2]],
    w: i32,
    h: i32,
    interpolation: i32,
) -> Result<Option<Mat>, VisionError> {
    let (wf, hf) = (w as f64, h as f64);
    let rect = [[0.0, 0.0], [wf, 0.0], [wf, hf], [0.0, hf]];
    let Some(hm) = homography(corners, &rect, false)? else {
        return Ok(None);
    };
    let mut out = Mat::default();
    opencv::imgproc::warp_perspective(
        image,
        &mut out,
        &to_mat(&hm)?,
        opencv::core::Size::new(w, h),
        interpolation,
        opencv::core::BORDER_REPLICATE,
        opencv::core::Scalar::default(),
    )?;
    Ok(Some(out))
}

/// Homography from four (or more) point pairs; `None` when degenerate.
pub fn homography(
    src: &[[f64; 2]],
    dst: &[[f64; 2]],
    ransac: bool,
) -> Result<Option<H3>, VisionError> {
    if src.len() < 4 || src.len() != dst.len() {
        return Ok(None);
    }
    let (s, d) = (points(src), points(dst));
    let m = if src.len() == 4 {
        opencv::imgproc::get_perspective_transform(&s, &d, opencv::core::DECOMP_LU)?
    } else {
        let mut mask = Mat::default();
        let method = if ransac { opencv::calib3d::RANSAC } else { 0 };
        opencv::calib3d::find_homography(&s, &d, &mut mask, method, 8.0)?
    };
    // Points all on one line (or one point) give no plane: OpenCV may still return a matrix.
    let usable = |h: &H3| h.iter().flatten().all(|v| v.is_finite()) && invert(h).is_some();
    Ok(from_mat(&m)?.filter(usable))
}

pub fn centroid(p: &[[f64; 2]]) -> [f64; 2] {
    let n = p.len().max(1) as f64;
    [
        p.iter().map(|q| q[0]).sum::<f64>() / n,
        p.iter().map(|q| q[1]).sum::<f64>() / n,
    ]
}

/// Area of a polygon (shoelace), positive when the points turn clockwise in image coordinates.
pub fn signed_area(p: &[[f64; 2]]) -> f64 {
    let n = p.len();
    (0..n)
        .map(|i| p[i][0] * p[(i + 1) % n][1] - p[(i + 1) % n][0] * p[i][1])
        .sum::<f64>()
        / 2.0
}

/// Whether two quads may touch: their centroids are nearer than the sum of their reaches (each
/// the farthest corner from its centroid). Cheap and generous: a card lying over another, or
/// beside it, touches it.
pub fn quads_touch(a: &[[f64; 2]; 4], b: &[[f64; 2]; 4]) -> bool {
    let reach = |q: &[[f64; 2]; 4]| {
        let c = centroid(q);
        let r = q
            .iter()
            .map(|p| (p[0] - c[0]).hypot(p[1] - c[1]))
            .fold(0.0, f64::max);
        (c, r)
    };
    let ((ca, ra), (cb, rb)) = (reach(a), reach(b));
    (ca[0] - cb[0]).hypot(ca[1] - cb[1]) < ra + rb
}

pub fn point_in_convex(p: [f64; 2], poly: &[[f64; 2]]) -> bool {
    let n = poly.len();
    let mut sign = 0.0;
    for i in 0..n {
        let a = poly[i];
        let b = poly[(i + 1) % n];
        let cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
        if cross.abs() < 1e-9 {
            continue;
        }
        if sign == 0.0 {
            sign = cross.signum();
        } else if cross.signum() != sign {
            return false;
        }
    }
    true
}

/// The homography taking the unit square's corners (0,0), (1,0), (1,1), (0,1) to `q[0..4]`
/// (Heckbert's closed form); `None` for a degenerate quad.
pub fn square_to_quad(q: &[[f64; 2]; 4]) -> Option<H3> {
    let [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = *q;
    let (sx, sy) = (x0 - x1 + x2 - x3, y0 - y1 + y2 - y3);
    let (dx1, dy1, dx2, dy2) = (x1 - x2, y1 - y2, x3 - x2, y3 - y2);
    let det = dx1 * dy2 - dx2 * dy1;
    if det.abs() < 1e-12 {
        return None;
    }
    let g = (sx * dy2 - dx2 * sy) / det;
    let h = (dx1 * sy - sx * dy1) / det;
    Some([
        [x1 - x0 + g * x1, x3 - x0 + h * x3, x0],
        [y1 - y0 + g * y1, y3 - y0 + h * y3, y0],
        [g, h, 1.0],
    ])
}

#[cfg(test)]
mod square_tests {
    use super::*;

    #[test]
    fn square_to_quad_maps_the_corners_and_the_centre_to_the_diagonals_crossing() {
        let q = [[10.0, 12.0], [52.0, 8.0], [60.0, 70.0], [5.0, 61.0]];
        let h = square_to_quad(&q).expect("not degenerate");
        for (s, t) in [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
            .iter()
            .zip(q)
        {
            let p = apply(&h, *s);
            assert!((p[0] - t[0]).abs() < 1e-9 && (p[1] - t[1]).abs() < 1e-9);
        }
        // The centre lies on both diagonals.
        let c = apply(&h, [0.5, 0.5]);
        let cross = |a: [f64; 2], b: [f64; 2], p: [f64; 2]| {
            (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
        };
        assert!(cross(q[0], q[2], c).abs() < 1e-6);
        assert!(cross(q[1], q[3], c).abs() < 1e-6);
        assert!(square_to_quad(&[[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]).is_none());
    }
}
