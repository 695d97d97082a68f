//! Tying image pixels to table millimetres from the ArUco mat. Without a mat each game fits its
//! own frame from the cards (`lattice.rs`, and the game's module under `games/`).

use crate::geometry::{self, H3};
use crate::mats::{find_markers, MatLayout};
use crate::types::Calibration;
use crate::VisionError;
use opencv::core::Mat;

/// Finds mat markers; picks the layout with most markers seen; needs at least two markers.
pub fn from_mat(
    gray: &Mat,
    layouts: &[MatLayout],
) -> Result<Option<(Calibration, MatLayout)>, VisionError> {
    // Markers are 50 mm (about 50 px at 1280×720): half resolution still finds them, in a quarter
    // of the time.
    let seen = find_markers(gray, 2)?;
    let mut best: Option<(usize, &MatLayout)> = None;
    for layout in layouts {
        let hits = seen
            .iter()
            .filter(|m| layout.marker_corners(m.id).is_some())
            .count();
        if hits >= 2 && best.is_none_or(|b| hits > b.0) {
            best = Some((hits, layout));
        }
    }
    let Some((hits, layout)) = best else {
        return Ok(None);
    };
    let (mut src, mut dst) = (Vec::new(), Vec::new());
    for m in &seen {
        let Some(mm) = layout.marker_corners(m.id) else {
            continue;
        };
        src.extend_from_slice(&m.corners);
        dst.extend_from_slice(&mm[..4]);
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
