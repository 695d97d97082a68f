//! Tying image pixels to table millimetres: from the ArUco mat, or (Blitz, no mat) from the
//! front-line cards, since every position is relative to the front line.

use crate::face::{CARD_H_MM, CARD_W_MM};
use crate::geometry::{self, H3};
use crate::mats::{dictionary, MatLayout, PITCH_MM};
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

/// Fits the Blitz grid from visible front-line cards (image corners in card order, any order of
/// cards). Front-line cards lie sideways in row 3; their columns follow from their spacing, and the
/// cards on row 3 (front-line or units on them) fix which column is the first.
pub fn from_front_line(
    fronts: &[[[f64; 2]; 4]],
    others: &[[f64; 2]],
    cols: u8,
) -> Result<Calibration, VisionError> {
    if fronts.is_empty() {
        return Ok(Calibration::None {
            reason: "no front-line card visible".into(),
        });
    }
    let mut fronts: Vec<&[[f64; 2]; 4]> = fronts.iter().collect();
    fronts.sort_by(|a, b| geometry::centroid(*a)[0].total_cmp(&geometry::centroid(*b)[0]));
    // Table-mm corners of a sideways card centred at `centre`, matched by where each corner lies in
    // the image (left/right, near/far): the camera sits on the near side.
    let corners_mm = |quad: &[[f64; 2]; 4], centre: [f64; 2]| -> Vec<[f64; 2]> {
        let c = geometry::centroid(quad);
        quad.iter()
            .map(|p| {
                let sx = if p[0] < c[0] { -1.0 } else { 1.0 };
                let sy = if p[1] < c[1] { 1.0 } else { -1.0 };
                [
                    centre[0] + sx * CARD_H_MM / 2.0,
                    centre[1] + sy * CARD_W_MM / 2.0,
                ]
            })
            .collect()
    };
    let first = MatLayout::cell_centre(0, 3);
    let Some(h0) = geometry::homography(&fronts[0][..], &corners_mm(fronts[0], first), false)?
    else {
        return Ok(Calibration::None {
            reason: "degenerate front-line card".into(),
        });
    };
    let (mut src, mut dst) = (Vec::new(), Vec::new());
    for quad in &fronts {
        let mm = geometry::apply(&h0, geometry::centroid(*quad));
        let col = ((mm[0] - PITCH_MM / 2.0) / PITCH_MM).round().max(0.0) as u8;
        src.extend_from_slice(&quad[..]);
        dst.extend(corners_mm(quad, MatLayout::cell_centre(col, 3)));
    }
    let Some(h) = geometry::homography(&src, &dst, false)? else {
        return Ok(Calibration::None {
            reason: "front-line fit failed".into(),
        });
    };
    // Columns so far count from the leftmost front-line card seen, which may not be column 0 (its
    // neighbours may be hidden under units). Cards fill the grid's width almost always, so shift the
    // leftmost card seen on any row to column 0.
    let all_cols: Vec<f64> = others
        .iter()
        .map(|p| (geometry::apply(&h, *p)[0] / PITCH_MM).floor())
        .collect();
    let min_col = all_cols.iter().cloned().fold(f64::MAX, f64::min);
    let shift = if min_col.is_finite() { -min_col } else { 0.0 };
    let _ = cols;
    let h = geometry::mul(&geometry::scale_translate(1.0, shift * PITCH_MM, 0.0), &h);
    Ok(Calibration::FrontLine {
        front_cards: fronts.len(),
        homography: h,
    })
}

pub fn to_table(h: &H3, p: [f64; 2]) -> [f64; 2] {
    geometry::apply(h, p)
}

/// Refines a grid fit with every named card: each card is assumed to lie centred on the cell it
/// falls in, turned by a whole number of quarter turns, so its four corners are known in table mm.
/// A least-squares fit over all of them averages out one card's corner noise and perspective.
pub fn refine_with_cards(h: &H3, cards: &[[[f64; 2]; 4]], cols: u8) -> Result<H3, VisionError> {
    let (mut src, mut dst) = (Vec::new(), Vec::new());
    for quad in cards {
        let c = geometry::apply(h, geometry::centroid(quad));
        let (col, row) = ((c[0] / PITCH_MM).floor(), (c[1] / PITCH_MM).floor());
        // Columns may still be off by a whole shift here (fixed afterwards); rows are anchored.
        if col < -(cols as f64) || col >= 2.0 * cols as f64 || !(0.0..7.0).contains(&row) {
            continue;
        }
        let centre = MatLayout::cell_centre(col as u8, row as u8);
        let top = geometry::apply(
            h,
            [
                (quad[0][0] + quad[1][0]) / 2.0,
                (quad[0][1] + quad[1][1]) / 2.0,
            ],
        );
        let turns =
            crate::types::Orientation::from_up_vector(top[0] - c[0], top[1] - c[1]).quarter_turns();
        let (hw, hh) = (CARD_W_MM / 2.0, CARD_H_MM / 2.0);
        for (k, local) in [[-hw, hh], [hw, hh], [hw, -hh], [-hw, -hh]]
            .iter()
            .enumerate()
        {
            let (mut x, mut y) = (local[0], local[1]);
            for _ in 0..turns {
                // A quarter turn clockwise seen from above (x right, y away).
                (x, y) = (y, -x);
            }
            src.push(quad[k]);
            dst.push([centre[0] + x, centre[1] + y]);
        }
    }
    if src.len() < 12 {
        return Ok(*h);
    }
    Ok(geometry::homography(&src, &dst, true)?.unwrap_or(*h))
}

/// Shifts columns so the leftmost named card is in column 0.
pub fn shift_to_first_column(h: &H3, cards: &[[[f64; 2]; 4]]) -> H3 {
    let min_col = cards
        .iter()
        .map(|q| (geometry::apply(h, geometry::centroid(q))[0] / PITCH_MM).floor())
        .fold(f64::MAX, f64::min);
    if !min_col.is_finite() {
        return *h;
    }
    geometry::mul(&geometry::scale_translate(1.0, -min_col * PITCH_MM, 0.0), h)
}

/// Table-mm corners (top-left, top-right, bottom-right, bottom-left) of a card centred at `centre`,
/// turned clockwise (seen from above) by `turns` quarter turns.
pub fn card_corners_mm(centre: [f64; 2], turns: u8) -> [[f64; 2]; 4] {
    let (hw, hh) = (CARD_W_MM / 2.0, CARD_H_MM / 2.0);
    [[-hw, hh], [hw, hh], [hw, -hh], [-hw, -hh]].map(|[mut x, mut y]| {
        for _ in 0..turns {
            (x, y) = (y, -x);
        }
        [centre[0] + x, centre[1] + y]
    })
}

/// A first fit from one card near the middle of the named ones, its turn read from the image (the
/// camera sits on the near side). Rows and columns are fixed afterwards.
pub fn from_cards(named: &[[[f64; 2]; 4]]) -> Result<Option<(H3, [f64; 2])>, VisionError> {
    if named.len() < 4 {
        return Ok(None);
    }
    let centres: Vec<[f64; 2]> = named.iter().map(|q| geometry::centroid(q)).collect();
    let middle = geometry::centroid(&centres);
    let Some(anchor) = named.iter().min_by(|a, b| {
        crate::detect::dist(geometry::centroid(*a), middle)
            .total_cmp(&crate::detect::dist(geometry::centroid(*b), middle))
    }) else {
        return Ok(None);
    };
    let c = geometry::centroid(anchor);
    let top = [
        (anchor[0][0] + anchor[1][0]) / 2.0,
        (anchor[0][1] + anchor[1][1]) / 2.0,
    ];
    let turns =
        crate::types::Orientation::from_up_vector(top[0] - c[0], c[1] - top[1]).quarter_turns();
    let mm = card_corners_mm(MatLayout::cell_centre(0, 3), turns);
    Ok(geometry::homography(&anchor[..], &mm, false)?.map(|h| (h, c)))
}

/// Shifts rows so Allied cards (`Some(true)`) lie on rows 0–3 and Axis cards (`Some(false)`) on
/// rows 3–6, with every card on the grid.
pub fn shift_rows_by_side(h: &H3, named: &[[[f64; 2]; 4]], allied: &[Option<bool>]) -> H3 {
    let rows: Vec<i32> = named
        .iter()
        .map(|q| (geometry::apply(h, geometry::centroid(q))[1] / PITCH_MM).floor() as i32)
        .collect();
    let score = |s: i32| -> i32 {
        rows.iter()
            .zip(allied)
            .map(|(r, side)| {
                let r = r + s;
                let on_grid = (0..7).contains(&r) as i32;
                let side_ok = match side {
                    Some(true) => (r <= 3) as i32,
                    Some(false) => (r >= 3) as i32,
                    None => 0,
                };
                on_grid * 2 + side_ok
            })
            .sum()
    };
    let best = (-7..=7)
        .max_by_key(|s: &i32| (score(*s), -s.abs()))
        .unwrap_or(0);
    geometry::mul(
        &geometry::scale_translate(1.0, 0.0, best as f64 * PITCH_MM),
        h,
    )
}
