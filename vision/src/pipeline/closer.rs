//! The closer looks at cards run together ([`crate::merged`]): where the first look outlined
//! several cards as one, or saw card pixels it outlined nowhere. The parts of the frame to look
//! at are shown to the model together, each scaled into a tile of one input: one model run.

use super::{take_learned, Found, LearnedPass, Look, Scanner};
use crate::geometry;
use crate::merged::{self, CloserLook, Why};
use crate::VisionError;
use opencv::core::{Mat, Rect, Scalar, Size, CV_8UC3};
use opencv::imgproc;
use opencv::prelude::*;

/// One part of the frame a closer look shows the model.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Tile {
    /// Frame pixels to show.
    pub region: Rect,
    /// The cards whose centres lie in this outline (frame pixels) are kept.
    pub keep: [[f64; 2]; 4],
}

/// Where a tile's region lies in the mosaic.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Placed {
    /// The region's top-left, in the frame.
    region_at: [f64; 2],
    /// Its top-left and size, in the mosaic.
    at: [f64; 2],
    size: [f64; 2],
    /// Mosaic pixels per frame pixel.
    scale: f64,
}

/// How the model's input maps back to the frame.
pub(super) enum ToFrame {
    /// A part of the frame at this offset, unscaled.
    Offset([f64; 2]),
    /// Tiles of a mosaic.
    Tiles(Vec<Placed>),
}

impl ToFrame {
    /// A quad of what the model saw, in frame pixels, and whether it reaches past its tile; `None`
    /// when its centre lies in no tile.
    pub(super) fn place(&self, q: &[[f64; 2]; 4]) -> Option<([[f64; 2]; 4], bool)> {
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
pub(super) fn mosaic(
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

/// What the closer looks found.
#[derive(Default)]
pub(super) struct CloserLooks {
    /// Cards named or outlined in them.
    pub cards: u32,
    /// Milliseconds the detection (not the naming) took.
    pub detect_ms: f64,
}

impl Scanner {
    /// Looks again, closer, at each learned outline several cards large (unnamed ones kept, and
    /// those the first look drew over the named cards they ran together) and at the first look's
    /// card pixels that no outline holds. An outline the look parts into two or more cards (the
    /// named ones in it counted) gives way to the new ones; beside no outline, the new ones are
    /// added.
    pub(super) fn look_closer_at_merged(
        &self,
        image: &Mat,
        found: &mut Vec<Found>,
        first: &LearnedPass,
        table: Option<&geometry::H3>,
    ) -> Result<CloserLooks, VisionError> {
        let Some(learned) = &self.learned else {
            return Ok(CloserLooks::default());
        };
        let named: Vec<[[f64; 2]; 4]> = found
            .iter()
            .filter(|f| f.card.is_some())
            .map(|f| f.corners)
            .collect();
        let outlines: Vec<[[f64; 2]; 4]> = found
            .iter()
            .filter(|f| f.card.is_none() && f.any_design)
            .map(|f| f.corners)
            .chain(first.claimed.iter().copied())
            .collect();
        let explained: Vec<[[f64; 2]; 4]> = found.iter().map(|f| f.corners).collect();
        let offset = first
            .looked_at
            .map_or([0.0, 0.0], |r| [f64::from(r.x), f64::from(r.y)]);
        let named_refs: Vec<&[[f64; 2]; 4]> = named.iter().collect();
        let lock = || {
            learned
                .detector
                .lock()
                .map_err(|_| VisionError::Other("card detector lock poisoned".into()))
        };
        let looks: Vec<CloserLook> = {
            let detector = lock()?;
            let map = detector.last_card_map().map(|m| (m, offset));
            let (w, h) = (image.cols(), image.rows());
            merged::closer_looks(&named_refs, &outlines, map, &explained, w, h)?
        };
        if looks.is_empty() {
            return Ok(CloserLooks::default());
        }
        let keep_of = |look: &CloserLook| match look.why {
            Why::Merged(index) => outlines[index],
            Why::Unexplained([x0, y0, x1, y1]) => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
        };
        let tiles: Vec<Tile> = looks
            .iter()
            .map(|look| Tile {
                region: look.region,
                keep: keep_of(look),
            })
            .collect();
        // The far cells' look reads the first look's map after this one.
        let first_map = lock()?.take_card_map();
        let pass = self.learned_cards(image, found, table, Look::Closer(&tiles));
        lock()?.restore_card_map(first_map);
        let pass = pass?;
        let mut done = CloserLooks {
            cards: 0,
            detect_ms: pass.detect_ms,
        };
        let mut cards = one_outline_a_card(pass.cards);
        for (look, tile) in looks.iter().zip(&tiles) {
            let in_it =
                |f: &Found| geometry::point_in_convex(geometry::centroid(&f.corners), &tile.keep);
            let (mine, rest): (Vec<Found>, Vec<Found>) = cards
                .into_iter()
                .partition(|f| in_it(f) && (f.card.is_some() || look.card_sized(&f.corners)));
            cards = rest;
            let parted = match look.why {
                Why::Merged(_) => {
                    let named_in_it = named
                        .iter()
                        .filter(|q| geometry::point_in_convex(geometry::centroid(*q), &tile.keep))
                        .count();
                    mine.len() + named_in_it >= 2
                }
                Why::Unexplained(_) => true,
            };
            if parted && !mine.is_empty() {
                done.cards += mine.len() as u32;
                found.retain(|f| f.card.is_some() || f.corners != tile.keep);
                take_learned(found, mine);
            }
        }
        Ok(done)
    }
}

/// Tiles may overlap, and a card in both is outlined twice: of two outlines each holding the
/// other's centre, the named one is kept, else the whole one, else the larger.
fn one_outline_a_card(mut cards: Vec<Found>) -> Vec<Found> {
    let area = |f: &Found| geometry::signed_area(&f.corners).abs();
    cards.sort_by(|a, b| {
        (b.card.is_some(), !b.covered)
            .cmp(&(a.card.is_some(), !a.covered))
            .then(area(b).total_cmp(&area(a)))
    });
    let mut kept: Vec<Found> = Vec::with_capacity(cards.len());
    for card in cards {
        let same = |k: &Found| {
            geometry::point_in_convex(geometry::centroid(&card.corners), &k.corners)
                && geometry::point_in_convex(geometry::centroid(&k.corners), &card.corners)
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

    /// A card in two overlapping tiles is outlined twice: one outline is kept, the named one
    /// before the other; a neighbour overlapping it, each centre outside the other, stays.
    #[test]
    fn a_card_outlined_in_two_tiles_is_kept_once() {
        let card = |x: f64, name: Option<&str>| Found {
            corners: [[x, 0.0], [x + 40.0, 0.0], [x + 40.0, 56.0], [x, 56.0]],
            card: name.map(str::to_string),
            confidence: 0.0,
            covered: false,
            model_sure: false,
            any_design: true,
        };
        let kept = one_outline_a_card(vec![
            card(0.0, None),
            card(2.0, Some("lock-red")),
            card(25.0, None),
        ]);
        let xs: Vec<(f64, Option<String>)> = kept
            .iter()
            .map(|f| (f.corners[0][0], f.card.clone()))
            .collect();
        assert_eq!(xs, vec![(2.0, Some("lock-red".to_string())), (25.0, None)]);
    }
}
