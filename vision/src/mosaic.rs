//! Several parts of a frame shown to the card detector in one input, each scaled into a tile of
//! it (a closer look at cards run together, [`crate::merged`]), and the way back from what the
//! model saw to frame pixels.

use crate::geometry;
use crate::VisionError;
use opencv::core::{Mat, Rect, Scalar, Size, CV_8UC3};
use opencv::imgproc;
use opencv::prelude::*;

/// One part of the frame a closer look shows the model.
#[derive(Clone, Debug, PartialEq)]
pub struct Tile {
    /// Frame pixels to show.
    pub region: Rect,
    /// The cards whose centres lie in this outline (frame pixels) are kept.
    pub keep: [[f64; 2]; 4],
}

/// Where a tile's region lies in the mosaic.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    /// The region's top-left, in the frame.
    region_at: [f64; 2],
    /// Its top-left and size, in the mosaic.
    at: [f64; 2],
    size: [f64; 2],
    /// Mosaic pixels per frame pixel.
    scale: f64,
}

/// How the model's input maps back to the frame.
pub enum ToFrame {
    /// A part of the frame at this offset, unscaled.
    Offset([f64; 2]),
    /// Tiles of a mosaic.
    Tiles(Vec<Placed>),
}

impl ToFrame {
    /// A quad of what the model saw, in frame pixels, and whether it reaches past its tile; `None`
    /// when its centre lies in no tile.
    pub fn place(&self, q: &[[f64; 2]; 4]) -> Option<([[f64; 2]; 4], bool)> {
        match self {
            ToFrame::Offset([ox, oy]) => Some((q.map(|p| [p[0] + ox, p[1] + oy]), false)),
            ToFrame::Tiles(tiles) => {
                let inside = |t: &Placed, p: [f64; 2]| {
                    (0..2).all(|k| p[k] >= t.at[k] && p[k] <= t.at[k] + t.size[k])
                };
                let c = geometry::centroid(q);
                let t = tiles.iter().find(|t| inside(t, c))?;
                let past = q.iter().any(|&p| !inside(t, p));
                let to = |p: [f64; 2]| [0, 1].map(|k| t.region_at[k] + (p[k] - t.at[k]) / t.scale);
                Some((q.map(to), past))
            }
        }
    }
}

/// The tiles' regions of `image`, each scaled (its aspect kept) into its own part of a
/// `width`×`height` input: the whole of it for one tile, a quarter each for up to four.
pub fn mosaic(
    image: &Mat,
    tiles: &[Tile],
    width: usize,
    height: usize,
) -> Result<(Mat, Vec<Placed>), VisionError> {
    let (w, h) = (width as i32, height as i32);
    let mut canvas = Mat::new_rows_cols_with_default(h, w, CV_8UC3, Scalar::all(0.0))?;
    let per_row = if tiles.len() > 1 { 2 } else { 1 };
    let (tile_w, tile_h) = (w / per_row, h / per_row);
    let mut placed = Vec::with_capacity(tiles.len());
    for (k, tile) in tiles.iter().take((per_row * per_row) as usize).enumerate() {
        let r = tile.region;
        if r.width <= 0 || r.height <= 0 {
            continue;
        }
        let scale =
            (f64::from(tile_w) / f64::from(r.width)).min(f64::from(tile_h) / f64::from(r.height));
        let size = Size::new(
            ((f64::from(r.width) * scale).floor() as i32).clamp(1, tile_w),
            ((f64::from(r.height) * scale).floor() as i32).clamp(1, tile_h),
        );
        let (x, y) = ((k as i32 % per_row) * tile_w, (k as i32 / per_row) * tile_h);
        let mut scaled = Mat::default();
        let how = if scale < 1.0 {
            imgproc::INTER_AREA
        } else {
            imgproc::INTER_LINEAR
        };
        imgproc::resize(&Mat::roi(image, r)?, &mut scaled, size, 0.0, 0.0, how)?;
        let mut at = Mat::roi_mut(&mut canvas, Rect::new(x, y, size.width, size.height))?;
        scaled.copy_to(&mut at)?;
        placed.push(Placed {
            region_at: [f64::from(r.x), f64::from(r.y)],
            at: [f64::from(x), f64::from(y)],
            size: [f64::from(size.width), f64::from(size.height)],
            scale,
        });
    }
    Ok((canvas, placed))
}

/// Tiles may overlap, and a card in both is outlined twice: of two outlines each holding the
/// other's centre, the one `rank` puts first (the higher) is kept, else the larger.
pub fn one_outline_a_card<T, K: Ord>(
    mut cards: Vec<T>,
    corners: impl Fn(&T) -> [[f64; 2]; 4],
    rank: impl Fn(&T) -> K,
) -> Vec<T> {
    let area = |c: &T| geometry::signed_area(&corners(c)).abs();
    cards.sort_by(|a, b| rank(b).cmp(&rank(a)).then(area(b).total_cmp(&area(a))));
    let mut kept: Vec<T> = Vec::with_capacity(cards.len());
    for card in cards {
        let q = corners(&card);
        let same = |k: &T| {
            let kq = corners(k);
            geometry::point_in_convex(geometry::centroid(&q), &kq)
                && geometry::point_in_convex(geometry::centroid(&kq), &q)
        };
        if !kept.iter().any(same) {
            kept.push(card);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two regions share one input, a quarter each, their aspect kept; a quad seen in the second
    /// tile maps back into the second region, one reaching past its tile is partly hidden, one
    /// centred in no tile is nowhere. One region alone fills the input.
    #[test]
    fn regions_tile_one_input_and_map_back_to_the_frame() {
        let image = Mat::new_rows_cols_with_default(720, 1280, CV_8UC3, Scalar::all(50.0)).unwrap();
        let keep = [[0.0; 2]; 4];
        let tiles = [
            Tile {
                region: Rect::new(100, 100, 448, 336),
                keep,
            },
            Tile {
                region: Rect::new(600, 200, 224, 84),
                keep,
            },
        ];
        let (canvas, placed) = mosaic(&image, &tiles, 448, 336).unwrap();
        assert_eq!((canvas.cols(), canvas.rows()), (448, 336));
        assert_eq!(placed.len(), 2);
        assert!((placed[0].scale - 0.5).abs() < 1e-9, "{placed:?}");
        assert_eq!(placed[1].at, [224.0, 0.0]);
        assert!((placed[1].scale - 1.0).abs() < 1e-9, "{placed:?}");
        let to_frame = ToFrame::Tiles(placed);
        let quad = |x: f64, y: f64| [[x, y], [x + 20.0, y], [x + 20.0, y + 30.0], [x, y + 30.0]];
        let (q, past) = to_frame
            .place(&quad(234.0, 10.0))
            .expect("in the second tile");
        assert_eq!(q[0], [610.0, 210.0]);
        assert!(!past);
        let (_, past) = to_frame
            .place(&quad(430.0, 10.0))
            .expect("centred in the second tile");
        assert!(past, "it reaches past the tile's right side");
        assert!(
            to_frame.place(&quad(300.0, 200.0)).is_none(),
            "below the second tile's crop"
        );
        let (_, alone) = mosaic(&image, &tiles[1..], 448, 336).unwrap();
        assert!((alone[0].scale - 2.0).abs() < 1e-9, "{alone:?}");
    }
}
