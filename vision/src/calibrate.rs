//! Tying image pixels to table millimetres from the ArUco mat. Without a mat each game fits its
//! own frame from the cards (`lattice.rs`, and the game's module under `games/`).

use crate::geometry::{self, H3};
use crate::mats::{dictionary, MatLayout};
use crate::types::Calibration;
use crate::VisionError;
use opencv::aruco;
use opencv::core::{Mat, Point2f, Vector};
use opencv::prelude::*;

/// Finds mat markers; picks the layout with most markers seen; needs at least two markers.
pub fn from_mat(
    gray: &Mat,
    layouts: &[MatLayout],
) -> Result<Option<(Calibration, MatLayout)>, VisionError> {
    let dict = dictionary()?;
    let params = aruco::DetectorParameters::create()?;
    let mut corners = Vector::<Vector<Point2f>>::new();
    let mut ids = Vector::<i32>::new();
    let mut rejected = Vector::<Vector<Point2f>>::new();
    // Markers are 50 mm (about 50 px at 1280×720): half resolution still finds them, in a quarter
    // of the time.
    let mut half = Mat::default();
    opencv::imgproc::resize(
        gray,
        &mut half,
        opencv::core::Size::new(gray.cols() / 2, gray.rows() / 2),
        0.0,
        0.0,
        opencv::imgproc::INTER_AREA,
    )?;
    aruco::detect_markers(&half, &dict, &mut corners, &mut ids, &params, &mut rejected)?;
    let mut best: Option<(usize, &MatLayout)> = None;
    for layout in layouts {
        let hits = ids
            .iter()
            .filter(|id| layout.marker_corners(*id).is_some())
            .count();
        if hits >= 2 && best.is_none_or(|b| hits > b.0) {
            best = Some((hits, layout));
        }
    }
    let Some((hits, layout)) = best else {
        return Ok(None);
    };
    let (mut src, mut dst) = (Vec::new(), Vec::new());
    for (id, quad) in ids.iter().zip(corners.iter()) {
        let Some(mm) = layout.marker_corners(id) else {
            continue;
        };
        for (k, p) in quad.iter().enumerate().take(4) {
            src.push([p.x as f64 * 2.0 + 0.5, p.y as f64 * 2.0 + 0.5]);
            dst.push(mm[k]);
        }
    }
    let Some(h) = geometry::homography(&src, &dst, true)? else {
        return Ok(None);
    };
    Ok(Some((
        Calibration::Mat {
            mat: layout.name.clone(),
            markers: hits,
            homography: h,
        },
        layout.clone(),
    )))
}

pub fn to_table(h: &H3, p: [f64; 2]) -> [f64; 2] {
    geometry::apply(h, p)
}
