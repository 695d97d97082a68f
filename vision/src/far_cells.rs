//! Where a second, closer look pays: the empty cells of the table's frame that the camera sees so
//! small (far away, at a steep tilt) that the learned detector, shown the whole frame, cannot
//! outline a card in them. Cropped to those cells, the detector's input holds them several times
//! larger.

use crate::geometry::{self, H3};
use crate::mats::{MatLayout, PITCH_MM};
use opencv::core::Rect;

/// A cell whose image is smaller than this (the square root of its area, in frame pixels) is far:
/// at the detector's whole-frame scale (448 of 1280 px) a card in it is under about 20 px tall,
/// where the model finds few. Chosen on the Blitz tuning boards 612000–612199 (whole board exact
/// 97.0 % without the closer look; 97.5 % at 70, 98.0 % at 80, 98.5 % at 90, 98.0 % at 100, the
/// time growing with it), checked on 613000–613299 (95.7 → 96.0 %).
pub const FAR_CELL_MAX_PX: f64 = 80.0;

/// A far cell is looked at again only where the first look saw at least this much of a card in
/// it (the model's card probability, at its peak): an empty cell shows the table. Chosen on the
/// Blitz tuning boards 612000–612199 (closer looks in 82 → 51 of 200 boards, at 0.3 in 40, no
/// board lost either way), checked on 613000–613299 (at 0.3 one more card missed, at 0.1 none).
pub const FAR_CELL_MIN_PEAK: f32 = 0.1;

/// The closer look is taken only when the crop shows the far cells at least this many times
/// larger to the detector than the whole frame does.
pub const MIN_GAIN: f64 = 1.5;

/// Around the far cells, this share of a cell more is cropped on each side (a card may stick out
/// of its cell, and the detector needs the table round a card to see its edges).
const MARGIN_CELLS: f64 = 0.5;

/// The far empty cells of a table frame and the part of the frame to look at again for them.
#[derive(Clone, Debug, PartialEq)]
pub struct FarCells {
    /// (col, row) of each.
    pub cells: Vec<(u8, u8)>,
    /// Frame pixels round them all.
    pub region: Rect,
}

/// The far cells of `layout` in which no card of `cards` (image corners) lies, and the rectangle
/// of the frame (width × height px) round them. `to_table` maps the image to the layout's mm;
/// `input` is the detector's input size; `seen` how much of a card the first look saw in a cell
/// (image corners). `None` when no cell is far and empty, or when the crop would not show them
/// [`MIN_GAIN`] times larger.
pub fn far_empty_cells(
    to_table: &H3,
    layout: &MatLayout,
    cards: &[&[[f64; 2]; 4]],
    frame: (i32, i32),
    input: (usize, usize),
    seen: impl Fn(&[[f64; 2]; 4]) -> f32,
) -> Option<FarCells> {
    let to_image = geometry::invert(to_table)?;
    let (w, h) = (f64::from(frame.0), f64::from(frame.1));
    let taken: Vec<(u8, u8)> = cards
        .iter()
        .filter_map(|q| layout.cell_of(geometry::apply(to_table, geometry::centroid(*q))))
        .collect();
    let mut far = Vec::new();
    for row in 0..layout.rows {
        for col in 0..layout.cols {
            if taken.contains(&(col, row)) {
                continue;
            }
            let Some(corners) = cell_in_image(&to_image, col, row) else {
                continue;
            };
            let size = geometry::signed_area(&corners).abs().sqrt();
            let centre = geometry::centroid(&corners);
            let in_frame = (0.0..w).contains(&centre[0]) && (0.0..h).contains(&centre[1]);
            let small = in_frame && (1.0..FAR_CELL_MAX_PX).contains(&size);
            if small && seen(&corners) >= FAR_CELL_MIN_PEAK {
                far.push(SeenCell {
                    size,
                    cell: (col, row),
                    corners,
                });
            }
        }
    }
    let region = region_round(&far, frame)?;
    let scale_to_input = |w: f64, h: f64| (input.0 as f64 / w).min(input.1 as f64 / h);
    let cropped = scale_to_input(f64::from(region.width), f64::from(region.height));
    (cropped >= MIN_GAIN * scale_to_input(w, h)).then(|| FarCells {
        cells: far.iter().map(|f| f.cell).collect(),
        region,
    })
}

/// A cell of the table's frame as the image shows it.
struct SeenCell {
    /// The square root of its area, px.
    size: f64,
    /// (col, row).
    cell: (u8, u8),
    corners: [[f64; 2]; 4],
}

/// The frame's pixels round `cells` and [`MARGIN_CELLS`] beyond; `None` when that is a sliver.
fn region_round(cells: &[SeenCell], (width, height): (i32, i32)) -> Option<Rect> {
    let largest = cells.iter().map(|c| c.size).fold(0.0, f64::max);
    let corners = cells.iter().flat_map(|c| c.corners.iter());
    let r = geometry::frame_pixels_around(corners, MARGIN_CELLS * largest, width, height)?;
    (r.width >= 8 && r.height >= 8).then_some(r)
}

/// Cell (`col`, `row`)'s corners in the image; `None` where the frame puts part of it behind the
/// camera (the homography's sign flips there).
fn cell_in_image(to_image: &H3, col: u8, row: u8) -> Option<[[f64; 2]; 4]> {
    let (x, y) = (f64::from(col) * PITCH_MM, f64::from(row) * PITCH_MM);
    let corners = [
        [x, y],
        [x + PITCH_MM, y],
        [x + PITCH_MM, y + PITCH_MM],
        [x, y + PITCH_MM],
    ];
    let depth = |p: [f64; 2]| to_image[2][0] * p[0] + to_image[2][1] * p[1] + to_image[2][2];
    let first = depth(corners[0]);
    if corners.iter().any(|&p| depth(p) * first <= 0.0) {
        return None;
    }
    Some(corners.map(|p| geometry::apply(to_image, p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A camera looking along the grid: the far rows (large y) shrink toward the top of the frame.
    fn tilted() -> H3 {
        // Table mm → image: x spread about the centre, y compressed with distance.
        let to_image = [[1.0, 0.0, 440.0], [0.0, -0.9, 700.0], [0.0, 0.0015, 1.0]];
        geometry::invert(&to_image).unwrap()
    }

    #[test]
    fn the_far_empty_cells_are_looked_at_again_and_the_near_ones_are_not() {
        let layout = MatLayout::blitz(4);
        let far = far_empty_cells(&tilted(), &layout, &[], (1280, 720), (448, 336), |_| 1.0)
            .expect("far cells at this tilt");
        let region = far.region;
        assert!(far.cells.contains(&(3, 6)) && !far.cells.contains(&(0, 0)));
        let to_image = geometry::invert(&tilted()).unwrap();
        let near = cell_in_image(&to_image, 0, 0).unwrap();
        let far = cell_in_image(&to_image, 3, 6).unwrap();
        let inside = |p: [f64; 2]| {
            p[0] >= f64::from(region.x)
                && p[1] >= f64::from(region.y)
                && p[0] <= f64::from(region.x + region.width)
                && p[1] <= f64::from(region.y + region.height)
        };
        assert!(far.iter().all(|&p| inside(p)), "{region:?} {far:?}");
        assert!(!inside(geometry::centroid(&near)), "{region:?} {near:?}");
    }

    #[test]
    fn no_closer_look_when_every_far_cell_holds_a_card_or_the_camera_is_overhead() {
        let layout = MatLayout::blitz(4);
        let to_image = geometry::invert(&tilted()).unwrap();
        let cells: Vec<[[f64; 2]; 4]> = (0..layout.rows)
            .flat_map(|r| (0..layout.cols).map(move |c| (c, r)))
            .filter_map(|(c, r)| cell_in_image(&to_image, c, r))
            .collect();
        let all: Vec<&[[f64; 2]; 4]> = cells.iter().collect();
        assert_eq!(
            far_empty_cells(&tilted(), &layout, &all, (1280, 720), (448, 336), |_| 1.0),
            None
        );
        // Overhead, 0.9 px a mm: every cell 90 px.
        let overhead =
            geometry::invert(&[[0.9, 0.0, 300.0], [0.0, -0.9, 680.0], [0.0, 0.0, 1.0]]).unwrap();
        assert_eq!(
            far_empty_cells(&overhead, &layout, &[], (1280, 720), (448, 336), |_| 1.0),
            None
        );
    }
}
