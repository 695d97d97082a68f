//! ArUco play-mats: a grid of cells with markers at known places around it, so the camera can map
//! image pixels to table millimetres. Table coordinates: x to the viewer's right, y away from the viewer,
//! origin at the near-left corner of cell (0, 0).

use crate::font::draw_text_centered;
use crate::VisionError;
use opencv::core::{Mat, Ptr, Rect, Scalar, CV_8UC3};
use opencv::prelude::*;
use opencv::{aruco, imgproc};

/// Distance between cell centres; a card (63×88 mm) fits turned either way.
pub const PITCH_MM: f64 = 100.0;
pub const MARKER_MM: f64 = 50.0;
/// The white margin printed round each marker.
const QUIET_ZONE_MM: f64 = 6.0;
/// Markers sit this far outside the grid (centre to grid edge).
pub const MARKER_OFFSET_MM: f64 = 50.0;
/// The mat's paper extends this far beyond the grid.
pub const BORDER_MM: f64 = 90.0;

#[derive(Clone, Debug, PartialEq)]
pub struct MatLayout {
    pub name: String,
    pub cols: u8,
    pub rows: u8,
    /// Marker id and the marker's centre in table mm.
    pub markers: Vec<(i32, [f64; 2])>,
    /// Row drawn as the front line (Blitz), if any.
    pub front_row: Option<u8>,
}

impl MatLayout {
    fn with_markers(
        name: &str,
        cols: u8,
        rows: u8,
        first_id: i32,
        front_row: Option<u8>,
    ) -> MatLayout {
        let (w, h, o) = (
            cols as f64 * PITCH_MM,
            rows as f64 * PITCH_MM,
            MARKER_OFFSET_MM,
        );
        let places = [
            [-o, -o],
            [w + o, -o],
            [-o, h / 2.0],
            [w + o, h / 2.0],
            [-o, h + o],
            [w + o, h + o],
        ];
        let markers = places
            .iter()
            .enumerate()
            .map(|(i, p)| (first_id + i as i32, *p))
            .collect();
        MatLayout {
            name: name.to_string(),
            cols,
            rows,
            markers,
            front_row,
        }
    }

    /// Blitz: 4 columns (two players) or 5 (four players), 7 rows.
    pub fn blitz(cols: u8) -> MatLayout {
        let first = if cols == 5 { 10 } else { 0 };
        MatLayout::with_markers(&format!("blitz-{cols}x7"), cols, 7, first, Some(3))
    }

    /// Duel: two rows of five 陣地 (row 0 near, row 1 far).
    pub fn duel() -> MatLayout {
        MatLayout::with_markers("duel-2x5", 5, 2, 20, None)
    }

    pub fn all() -> Vec<MatLayout> {
        vec![MatLayout::blitz(4), MatLayout::blitz(5), MatLayout::duel()]
    }

    pub fn width_mm(&self) -> f64 {
        self.cols as f64 * PITCH_MM
    }

    pub fn height_mm(&self) -> f64 {
        self.rows as f64 * PITCH_MM
    }

    /// Corners of marker `id` in table mm, in ArUco's order (top-left, top-right, bottom-right,
    /// bottom-left as printed; the top of the printed mat is the far side).
    pub fn marker_corners(&self, id: i32) -> Option<[[f64; 2]; 4]> {
        let (_, c) = self.markers.iter().find(|m| m.0 == id)?;
        let h = MARKER_MM / 2.0;
        Some([
            [c[0] - h, c[1] + h],
            [c[0] + h, c[1] + h],
            [c[0] + h, c[1] - h],
            [c[0] - h, c[1] - h],
        ])
    }

    /// Whether a point in table mm lies on one of the mat's printed markers (with its white
    /// quiet zone), seen or not.
    pub fn on_a_marker(&self, p: [f64; 2]) -> bool {
        let reach = MARKER_MM / 2.0 + QUIET_ZONE_MM;
        self.markers
            .iter()
            .any(|(_, c)| (p[0] - c[0]).abs() <= reach && (p[1] - c[1]).abs() <= reach)
    }

    /// Cell of a point in table mm, if it lies on the grid.
    pub fn cell_of(&self, p: [f64; 2]) -> Option<(u8, u8)> {
        let (c, r) = ((p[0] / PITCH_MM).floor(), (p[1] / PITCH_MM).floor());
        (c >= 0.0 && r >= 0.0 && c < self.cols as f64 && r < self.rows as f64)
            .then_some((c as u8, r as u8))
    }

    pub fn cell_centre(col: u8, row: u8) -> [f64; 2] {
        [(col as f64 + 0.5) * PITCH_MM, (row as f64 + 0.5) * PITCH_MM]
    }
}

pub fn dictionary() -> Result<Ptr<aruco::Dictionary>, VisionError> {
    Ok(aruco::get_predefined_dictionary(
        aruco::PREDEFINED_DICTIONARY_NAME::DICT_4X4_50,
    )?)
}

/// Maps table mm to pixels of a rendered mat at `px_per_mm` (image y grows toward the viewer).
pub fn mat_pixel(layout: &MatLayout, px_per_mm: f64, p: [f64; 2]) -> [f64; 2] {
    [
        (p[0] + BORDER_MM) * px_per_mm,
        (layout.height_mm() + BORDER_MM - p[1]) * px_per_mm,
    ]
}

/// Draws the mat at `px_per_mm` (10 px/mm ≈ 254 dpi for printing; the scene renderer uses less).
pub fn render_mat(layout: &MatLayout, px_per_mm: f64) -> Result<Mat, VisionError> {
    let w = ((layout.width_mm() + 2.0 * BORDER_MM) * px_per_mm).round() as i32;
    let h = ((layout.height_mm() + 2.0 * BORDER_MM) * px_per_mm).round() as i32;
    let mut img =
        Mat::new_rows_cols_with_default(h, w, CV_8UC3, Scalar::new(232.0, 236.0, 238.0, 0.0))?;
    let line = (0.8 * px_per_mm).max(1.0) as i32;
    for r in 0..layout.rows {
        for c in 0..layout.cols {
            let tl = mat_pixel(
                layout,
                px_per_mm,
                [c as f64 * PITCH_MM, (r + 1) as f64 * PITCH_MM],
            );
            let side = (PITCH_MM * px_per_mm) as i32;
            let rect = Rect::new(tl[0] as i32, tl[1] as i32, side, side);
            if layout.front_row == Some(r) {
                imgproc::rectangle(
                    &mut img,
                    rect,
                    Scalar::new(205.0, 210.0, 235.0, 0.0),
                    -1,
                    8,
                    0,
                )?;
            }
            imgproc::rectangle(&mut img, rect, Scalar::all(170.0), line, 8, 0)?;
        }
    }
    let dict = dictionary()?;
    let side = (MARKER_MM * px_per_mm).round() as i32;
    for (id, centre) in &layout.markers {
        let mut marker = Mat::default();
        aruco::draw_marker(&dict, *id, side, &mut marker, 1)?;
        let mut bgr = Mat::default();
        imgproc::cvt_color(&marker, &mut bgr, imgproc::COLOR_GRAY2BGR, 0)?;
        let p = mat_pixel(
            layout,
            px_per_mm,
            [centre[0] - MARKER_MM / 2.0, centre[1] + MARKER_MM / 2.0],
        );
        // A white quiet zone around each marker so it stays findable on any mat colour.
        let q = (QUIET_ZONE_MM * px_per_mm) as i32;
        let zone = Rect::new(
            p[0].round() as i32 - q,
            p[1].round() as i32 - q,
            side + 2 * q,
            side + 2 * q,
        );
        imgproc::rectangle(&mut img, zone, Scalar::all(255.0), -1, 8, 0)?;
        let mut roi = img.roi_mut(Rect::new(
            p[0].round() as i32,
            p[1].round() as i32,
            side,
            side,
        ))?;
        bgr.copy_to(&mut roi)?;
    }
    let title = format!(
        "Arbiter {} mat · 演示垫 · near side (viewer) ↓",
        layout.name
    );
    draw_text_centered(
        &mut img,
        &title,
        w as f32 / 2.0,
        (h as f64 - 15.0 * px_per_mm) as f32,
        (12.0 * px_per_mm) as f32,
        w as f32 * 0.6,
        [90, 90, 90],
    )?;
    Ok(img)
}

/// A printed ArUco marker seen in a frame: its id and its corners in the frame's pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeenMarker {
    pub id: i32,
    pub corners: [[f64; 2]; 4],
}

/// Every DICT_4X4_50 marker in `gray`, found on a copy shrunk `1/shrink` times (2 finds 50 px
/// markers in a quarter of the time), corners in `gray`'s own pixels.
pub fn find_markers(gray: &Mat, shrink: i32) -> Result<Vec<SeenMarker>, VisionError> {
    Ok(find_markers_and_candidates(gray, shrink)?.seen)
}

/// What one marker pass saw, in the frame's own pixels.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MarkerPass {
    pub seen: Vec<SeenMarker>,
    /// Outlines that looked like a marker but whose code could not be read (too small or soft:
    /// worth a closer look).
    pub unread: Vec<[[f64; 2]; 4]>,
}

/// [`find_markers`], and the outlines it could not read.
pub fn find_markers_and_candidates(gray: &Mat, shrink: i32) -> Result<MarkerPass, VisionError> {
    use opencv::core::{Point2f, Size, Vector};
    let shrink = shrink.max(1);
    let small = if shrink == 1 {
        gray.clone()
    } else {
        let mut small = Mat::default();
        imgproc::resize(
            gray,
            &mut small,
            Size::new(gray.cols() / shrink, gray.rows() / shrink),
            0.0,
            0.0,
            imgproc::INTER_AREA,
        )?;
        small
    };
    let params = aruco::DetectorParameters::create()?;
    let mut corners = Vector::<Vector<Point2f>>::new();
    let mut ids = Vector::<i32>::new();
    let mut rejected = Vector::<Vector<Point2f>>::new();
    aruco::detect_markers(
        &small,
        &dictionary()?,
        &mut corners,
        &mut ids,
        &params,
        &mut rejected,
    )?;
    let s = shrink as f64;
    // A shrunk pixel's centre lies half a pixel in: scale about the pixel corners.
    let back = |v: f32| v as f64 * s + (s - 1.0) / 2.0;
    let quad = |q: &Vector<Point2f>| -> Option<[[f64; 2]; 4]> {
        let p: Vec<[f64; 2]> = q.iter().map(|p| [back(p.x), back(p.y)]).collect();
        p.try_into().ok()
    };
    let seen = ids
        .iter()
        .zip(corners.iter())
        .filter_map(|(id, q)| {
            Some(SeenMarker {
                id,
                corners: quad(&q)?,
            })
        })
        .collect();
    let unread = rejected.iter().filter_map(|q| quad(&q)).collect();
    Ok(MarkerPass { seen, unread })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_on_a_marker_or_its_margin_is_on_a_marker_and_a_cell_is_not() {
        let layout = MatLayout::blitz(4);
        for (_, c) in &layout.markers {
            assert!(layout.on_a_marker(*c));
            assert!(layout.on_a_marker([c[0] + MARKER_MM / 2.0 + 5.0, c[1]]));
            assert!(!layout.on_a_marker([c[0] + MARKER_MM / 2.0 + 10.0, c[1]]));
        }
        for (col, row) in [(0, 0), (3, 6), (1, 3)] {
            assert!(!layout.on_a_marker(MatLayout::cell_centre(col, row)));
        }
    }
}
