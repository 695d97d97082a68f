//! Where a second, closer look pays for cards run together: a row of overlapping cards that the
//! camera sees small (a 风声 seat's intelligence, fanned, across a 1920 px frame) reaches the
//! learned detector a few pixels a card, and it outlines the whole row as one card, or sees card
//! there and outlines nothing. Such an outline is much larger than the named cards beside it;
//! such card pixels lie outside every outline. Cropped to them, the detector's input holds each
//! card several times larger, and the cards come apart.

use crate::detector::CardMap;
use crate::geometry;
use crate::VisionError;
use opencv::core::{Mat, Rect};

/// An unnamed outline is taken for cards run together when its area is at least this many times
/// a card's, the card measured as the named cards nearest it. Printed cards differ in size up to
/// 1.7× in area (57×87 to 70×120 mm), so one big card of another deck stays below it; a closer
/// look that finds a single card keeps the outline anyway.
pub const MERGED_MIN_AREA_RATIO: f64 = 1.8;

/// How many named cards nearest an outline give the card size it is measured against (their
/// median area): near ones, as perspective shrinks the far side of the table.
const NEAREST_NAMED: usize = 3;

/// Around the outline, this share of a card's longer side more is cropped on each side (the
/// detector needs the table round a card to see its edges).
const MARGIN_CARDS: f64 = 0.5;

/// At most this many closer looks a frame, the largest first: they share one model run, each a
/// quarter of its input. On the 风声 tuning tables 661000–661099, one run per look gave 86.89 /
/// 88.33 / 89.95 / 90.13 % of seats exact with 1 / 2 / 3 / 5 looks; four tiled into one run,
/// 90.48 % (before a card in two tiles was kept once).
pub const MAX_LOOKS: usize = 4;

/// A pixel of the model's card map at least this likely is card.
const CARD_MAP_LEVEL: f32 = 0.5;

/// Card pixels outside every outline are looked at again where they join into at least this
/// share of a card (the visible strip of a fanned card; a sliver along an outline's edge is
/// less).
pub const UNEXPLAINED_MIN_CARD_SHARE: f64 = 0.5;

/// An unnamed outline a closer look finds is kept only when its area is at least this share of
/// a card's (measured as the named cards nearest it): the crop enlarges the table's pattern too,
/// and the model outlines pieces of it. Chosen on the 风声 tuning tables 661000–661099: the
/// overlapped cards it outlined there measured 0.24 of a card or more, 60 of the 89 outlines
/// where no card lies less than 0.2.
pub const CLOSER_UNNAMED_MIN_CARD_SHARE: f64 = 0.2;

/// An unnamed outline a closer look finds whole (not partly hidden) is kept only when its area
/// is at least this share of a card's: enlarged, the model cuts some prints into pieces at a
/// strong line across them (where the art meets the text box). Chosen on the any-design tuning
/// set 800000–800199: of the whole new outlines under half a card none was a card (32 pieces),
/// from half a card up 15 of 51 lay on a card's true outline. Not for the 风声 table's scanner:
/// there the model calls some fanned, overlapped cards whole, and its tuning tables lost three.
pub const CLOSER_WHOLE_MIN_CARD_SHARE: f64 = 0.5;

/// A closer look: where in the frame to crop, and which cards of it to keep.
#[derive(Clone, Debug, PartialEq)]
pub struct CloserLook {
    pub why: Why,
    /// Frame pixels to crop.
    pub region: Rect,
    /// The area of a card there (frame pixels): the named cards' nearest it.
    pub card_area: f64,
}

impl CloserLook {
    /// An outline's area as a share of a card's there.
    pub fn card_share(&self, quad: &[[f64; 2]; 4]) -> f64 {
        geometry::signed_area(quad).abs() / self.card_area
    }
}

/// What a closer look is for.
#[derive(Clone, Debug, PartialEq)]
pub enum Why {
    /// The outline with this index among those given is several cards run together: the cards
    /// whose centres lie in it take its place where it comes apart.
    Merged(usize),
    /// Card pixels outside every outline, within these bounds (frame pixels, x0 y0 x1 y1): the
    /// cards whose centres lie in them are added.
    Unexplained([f64; 4]),
}

impl Why {
    /// Whether a look came out with cards to keep: `found` new cards (the card-sized ones in its
    /// tile), with `named_in_it` named cards already in a merged outline. A merged outline that
    /// is still one card stays as it was.
    pub fn parted_into(&self, found: usize, named_in_it: usize) -> bool {
        match self {
            Why::Merged(_) => found + named_in_it >= 2,
            Why::Unexplained(_) => found > 0,
        }
    }
}

/// The closer looks a frame needs, largest first, at most [`MAX_LOOKS`]: the `outlines` (image
/// corners) several cards large, and the card pixels of `map` (the first look's, its image at
/// `offset` in the frame) outside every outline of `explained`, each measured against the named
/// cards nearest it. None without a named card.
pub fn closer_looks(
    named: &[&[[f64; 2]; 4]],
    outlines: &[[[f64; 2]; 4]],
    map: Option<(CardMap, [f64; 2])>,
    explained: &[[[f64; 2]; 4]],
    width: i32,
    height: i32,
) -> Result<Vec<CloserLook>, VisionError> {
    let mut looks: Vec<(f64, CloserLook)> = outlines
        .iter()
        .enumerate()
        .filter_map(|(index, quad)| {
            // An outline among the cards that measure a card does not measure itself.
            let others: Vec<&[[f64; 2]; 4]> =
                named.iter().copied().filter(|q| *q != quad).collect();
            let card = nearest_card(&others, geometry::centroid(quad))?;
            let area = geometry::signed_area(quad).abs();
            if area < MERGED_MIN_AREA_RATIO * card.area {
                return None;
            }
            let reach = MARGIN_CARDS * card.longer_side;
            let region = geometry::frame_pixels_around(quad.iter(), reach, width, height)?;
            let why = Why::Merged(index);
            let card_area = card.area;
            Some((
                area,
                CloserLook {
                    why,
                    region,
                    card_area,
                },
            ))
        })
        .collect();
    if let Some((map, offset)) = map {
        for (area, [x0, y0, x1, y1]) in unexplained_blobs(&map, offset, explained)? {
            let Some(card) = nearest_card(named, [(x0 + x1) / 2.0, (y0 + y1) / 2.0]) else {
                continue;
            };
            if area < UNEXPLAINED_MIN_CARD_SHARE * card.area {
                continue;
            }
            let corners = [[x0, y0], [x1, y1]];
            let reach = MARGIN_CARDS * card.longer_side;
            let Some(region) = geometry::frame_pixels_around(corners.iter(), reach, width, height)
            else {
                continue;
            };
            let why = Why::Unexplained([x0, y0, x1, y1]);
            let card_area = card.area;
            looks.push((
                area,
                CloserLook {
                    why,
                    region,
                    card_area,
                },
            ));
        }
    }
    looks.sort_by(|a, b| b.0.total_cmp(&a.0));
    Ok(looks.into_iter().take(MAX_LOOKS).map(|(_, m)| m).collect())
}

/// The joined card pixels of `map` outside every quad of `explained` (frame pixels; the map's
/// image lies at `offset` in the frame): each one's area and bounds, in frame pixels.
fn unexplained_blobs(
    map: &CardMap,
    offset: [f64; 2],
    explained: &[[[f64; 2]; 4]],
) -> Result<Vec<(f64, [f64; 4])>, VisionError> {
    let (w, h, s) = (map.width, map.height, map.to_image);
    let mut card: Vec<u8> = map
        .values
        .iter()
        .map(|&p| u8::from(p >= CARD_MAP_LEVEL))
        .collect();
    for quad in explained {
        let q = quad.map(|p| [(p[0] - offset[0]) / s, (p[1] - offset[1]) / s]);
        let Some([x0, y0, x1, y1]) = geometry::bounds(&q) else {
            continue;
        };
        let xs = (x0.floor().max(0.0) as usize)..(x1.ceil().clamp(0.0, w as f64) as usize);
        let ys = (y0.floor().max(0.0) as usize)..(y1.ceil().clamp(0.0, h as f64) as usize);
        for y in ys {
            for x in xs.clone() {
                if geometry::point_in_convex([x as f64 + 0.5, y as f64 + 0.5], &q) {
                    card[y * w + x] = 0;
                }
            }
        }
    }
    let mask = Mat::new_rows_cols_with_data(h as i32, w as i32, &card)?;
    let parts = crate::components::components(&mask, 4)?.parts;
    // Label 0 is the background.
    let blobs = parts
        .iter()
        .skip(1)
        .map(|p| {
            let (x, y) = (f64::from(p.left), f64::from(p.top));
            let (bw, bh) = (f64::from(p.width), f64::from(p.height));
            let bounds = [
                x * s + offset[0],
                y * s + offset[1],
                (x + bw) * s + offset[0],
                (y + bh) * s + offset[1],
            ];
            (f64::from(p.area) * s * s, bounds)
        })
        .collect();
    Ok(blobs)
}

/// A card's size near a point of the frame.
struct CardSize {
    area: f64,
    longer_side: f64,
}

/// The median area (and longer side) of the named cards nearest `at`.
fn nearest_card(named: &[&[[f64; 2]; 4]], at: [f64; 2]) -> Option<CardSize> {
    let mut by_distance: Vec<(f64, &[[f64; 2]; 4])> = named
        .iter()
        .map(|q| (crate::detect::dist(geometry::centroid(*q), at), *q))
        .collect();
    by_distance.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut near: Vec<(f64, f64)> = by_distance
        .iter()
        .take(NEAREST_NAMED)
        .map(|(_, q)| {
            let longer = (0..4)
                .map(|k| crate::detect::dist(q[k], q[(k + 1) % 4]))
                .fold(0.0, f64::max);
            (geometry::signed_area(*q).abs(), longer)
        })
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0));
    let &(area, longer_side) = near.get(near.len() / 2)?;
    (area > 0.0).then_some(CardSize { area, longer_side })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quad(x: f64, y: f64, w: f64, h: f64) -> [[f64; 2]; 4] {
        [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]
    }

    /// A row three cards wide beside cards of 40×56 px is looked at again, cropped half a card
    /// round it; an outline the size of a card, or of a larger printed card, is not; with no
    /// named card nothing says how big a card is.
    #[test]
    fn an_outline_several_cards_large_beside_named_cards_is_looked_at_again() {
        let a = quad(100.0, 100.0, 40.0, 56.0);
        let b = quad(160.0, 100.0, 40.0, 56.0);
        let named = [&a, &b];
        let row = quad(300.0, 100.0, 110.0, 56.0);
        let one = quad(500.0, 100.0, 40.0, 56.0);
        let big_card = quad(600.0, 100.0, 48.0, 78.0);
        let found = closer_looks(&named, &[one, row, big_card], None, &[], 1280, 720).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].why, Why::Merged(1));
        assert_eq!(found[0].region, Rect::new(272, 72, 166, 112));
        assert!(closer_looks(&[], &[row], None, &[], 1280, 720)
            .unwrap()
            .is_empty());
    }

    /// Where the cards that measure a card are every whole outline (cards of any design, none
    /// named), an outline is measured against the others, not itself.
    #[test]
    fn an_outline_is_not_measured_against_itself() {
        let a = quad(100.0, 100.0, 40.0, 56.0);
        let row = quad(150.0, 100.0, 110.0, 56.0);
        let found = closer_looks(&[&a, &row], &[a, row], None, &[], 1280, 720).unwrap();
        let why: Vec<Why> = found.into_iter().map(|m| m.why).collect();
        assert_eq!(why, [Why::Merged(1)]);
    }

    /// The largest outlines are looked at first, and only so many.
    #[test]
    fn the_largest_outlines_are_looked_at_first() {
        let a = quad(100.0, 100.0, 40.0, 56.0);
        let rows: Vec<[[f64; 2]; 4]> = (0..5)
            .map(|k| {
                quad(
                    200.0 + 150.0 * k as f64,
                    300.0,
                    90.0 + 10.0 * k as f64,
                    56.0,
                )
            })
            .collect();
        let found = closer_looks(&[&a], &rows, None, &[], 1280, 720).unwrap();
        let order: Vec<Why> = found.into_iter().map(|m| m.why).collect();
        assert_eq!(order, [4, 3, 2, 1].map(Why::Merged));
    }

    /// Card pixels outside every outline, joined into more than half a card, are looked at
    /// again; those an outline covers, and a sliver, are not. The map's image lies at an offset
    /// in the frame and its pixels are 2 frame pixels each.
    #[test]
    fn card_pixels_outside_every_outline_are_looked_at_again() {
        let (w, h) = (100, 60);
        let mut values = vec![0.0f32; w * h];
        let mut fill = |x0: usize, y0: usize, x1: usize, y1: usize| {
            for y in y0..y1 {
                for x in x0..x1 {
                    values[y * w + x] = 0.9;
                }
            }
        };
        fill(10, 10, 30, 38); // a card an outline explains: 40×56 frame px
        fill(40, 10, 60, 38); // a card nothing outlined
        fill(70, 10, 72, 38); // a sliver
        let map = CardMap {
            values: &values,
            width: w,
            height: h,
            to_image: 2.0,
        };
        let offset = [100.0, 50.0];
        let named = quad(120.0, 70.0, 40.0, 56.0);
        let found = closer_looks(&[&named], &[], Some((map, offset)), &[named], 1280, 720).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].why, Why::Unexplained([180.0, 70.0, 220.0, 126.0]));
        assert_eq!(found[0].region, Rect::new(152, 42, 96, 112));
    }
}
