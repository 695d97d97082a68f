//! A closer look at cards run together, for cards of any design ([`crate::merged`]): the whole
//! cards the first look found say how large a card is there; unnamed outlines several cards
//! large and card pixels no outline holds are looked at again, tiled into one model input.

use super::{CardDetector, DetectedCard};
use crate::geometry;
use crate::merged::{self, CloserLook, Why};
use crate::mosaic::{self, one_outline_a_card, Tile, ToFrame};
use crate::VisionError;
use opencv::core::Mat;
use opencv::prelude::*;
use std::time::Instant;

/// What a closer look found: the first look's outlines that gave way (cards run together that
/// came apart) and the cards to put in their place or beside them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CloserFound {
    /// Indices into the first look's cards.
    pub parted: Vec<usize>,
    pub cards: Vec<DetectedCard>,
}

impl CardDetector {
    /// A closer look after [`CardDetector::detect`] (its card map is this detector's last) found
    /// `first`, of which those `named` are known cards: where it ran cards together (an unnamed
    /// outline several whole cards large) or saw card pixels it outlined nowhere, the parts of the
    /// frame are shown to the model again, tiled into one input. An outline that comes apart into
    /// two or more cards (named ones in it counted) gives way to them; among the card pixels the
    /// new cards are added. Cards the first look outlined stay as they were.
    /// `timings.closer_ms` is the look's time; the other stage timings stay the first look's.
    pub fn look_closer(
        &mut self,
        image: &Mat,
        first: &[DetectedCard],
        named: &[bool],
    ) -> Result<CloserFound, VisionError> {
        let t = Instant::now();
        let first_timings = self.timings;
        let looks = self.closer_looks(image, first, named)?;
        let found = match looks.is_empty() {
            true => CloserFound::default(),
            false => {
                let tiles: Vec<Tile> = looks
                    .iter()
                    .map(|look| Tile {
                        region: look.region,
                        keep: keep_of(look, first),
                    })
                    .collect();
                let new = self.cards_in_tiles(image, &tiles)?;
                parted(&looks, &tiles, new, first, named)
            }
        };
        self.timings = first_timings;
        self.timings.closer_ms = t.elapsed().as_secs_f64() * 1000.0;
        Ok(found)
    }

    /// The cards the model finds in `tiles` of `image` shown together (frame pixels), one outline
    /// a card; whole ones only where every side is an edge (enlarged, the model also outlines
    /// glare and patches of patterned table). The first look's card map is kept.
    fn cards_in_tiles(
        &mut self,
        image: &Mat,
        tiles: &[Tile],
    ) -> Result<Vec<DetectedCard>, VisionError> {
        let (input_w, input_h) = self.input_size();
        let (shown, placed) = mosaic::mosaic(image, tiles, input_w, input_h)?;
        let to_frame = ToFrame::Tiles(placed);
        let first_map = self.take_card_map();
        let seen = self.detect_where(&shown, |q| to_frame.place(q).is_some());
        self.restore_card_map(first_map);
        let mut cards = Vec::new();
        for mut card in seen? {
            let Some((q, past_its_tile)) = to_frame.place(&card.corners) else {
                continue;
            };
            card.corners = q;
            card.partly_hidden |= past_its_tile;
            if card.partly_hidden || super::edges::sides_are_edges(image, &card.corners)? {
                cards.push(card);
            }
        }
        Ok(one_outline_a_card(
            cards,
            |c| c.corners,
            |c| !c.partly_hidden,
        ))
    }

    /// Where the first look's `cards` (and its card map) call for a closer look: its unnamed
    /// outlines, each measured against the whole cards nearest it.
    fn closer_looks(
        &self,
        image: &Mat,
        cards: &[DetectedCard],
        named: &[bool],
    ) -> Result<Vec<CloserLook>, VisionError> {
        let whole: Vec<&[[f64; 2]; 4]> = cards
            .iter()
            .filter(|c| !c.partly_hidden)
            .map(|c| &c.corners)
            .collect();
        let outlines: Vec<[[f64; 2]; 4]> = cards.iter().map(|c| c.corners).collect();
        let map = self.last_card_map().map(|m| (m, [0.0, 0.0]));
        let mut looks = merged::closer_looks(
            &whole,
            &outlines,
            map,
            &outlines,
            image.cols(),
            image.rows(),
        )?;
        looks.retain(|look| match look.why {
            Why::Merged(index) => !named.get(index).copied().unwrap_or(false),
            Why::Unexplained(_) => true,
        });
        Ok(looks)
    }
}

/// What the closer `looks` (shown as `tiles`) found in the `new` cards: each look keeps the card-
/// sized ones centred in its tile; a merged outline of `first` gives way where they part it into
/// two or more cards (the named cards of `first` in it counted). A new card on a card the first
/// look outlined, and kept, is that card.
fn parted(
    looks: &[CloserLook],
    tiles: &[Tile],
    mut new: Vec<DetectedCard>,
    first: &[DetectedCard],
    named: &[bool],
) -> CloserFound {
    let mut found = CloserFound::default();
    for (look, tile) in looks.iter().zip(tiles) {
        let in_tile =
            |q: &[[f64; 2]; 4]| geometry::point_in_convex(geometry::centroid(q), &tile.keep);
        let (mine, rest): (Vec<DetectedCard>, Vec<DetectedCard>) = new
            .into_iter()
            .partition(|c| in_tile(&c.corners) && look.card_share(&c.corners) >= min_card_share(c));
        new = rest;
        let named_in_it = match look.why {
            Why::Merged(index) => first
                .iter()
                .zip(named)
                .enumerate()
                .filter(|&(k, (c, &n))| k != index && n && in_tile(&c.corners))
                .count(),
            Why::Unexplained(_) => 0,
        };
        if look.why.parted_into(mine.len(), named_in_it) {
            if let Why::Merged(index) = look.why {
                found.parted.push(index);
            }
            found.cards.extend(mine);
        }
    }
    let kept: Vec<&DetectedCard> = first
        .iter()
        .enumerate()
        .filter(|(k, _)| !found.parted.contains(k))
        .map(|(_, c)| c)
        .collect();
    found.cards.retain(|c| {
        let centre = geometry::centroid(&c.corners);
        !kept.iter().any(|k| {
            geometry::point_in_convex(centre, &k.corners)
                || geometry::point_in_convex(geometry::centroid(&k.corners), &c.corners)
        })
    });
    found
}

/// The least share of a card a new outline must cover to be one: a whole card's pieces (the
/// model cuts some prints at a strong line across them) are smaller than a card.
fn min_card_share(card: &DetectedCard) -> f64 {
    match card.partly_hidden {
        true => merged::CLOSER_UNNAMED_MIN_CARD_SHARE,
        false => merged::CLOSER_WHOLE_MIN_CARD_SHARE,
    }
}

/// The outline whose cards a look keeps: the merged outline, or the card pixels' bounds.
fn keep_of(look: &CloserLook, cards: &[DetectedCard]) -> [[f64; 2]; 4] {
    match look.why {
        Why::Merged(index) => cards.get(index).map_or([[0.0; 2]; 4], |c| c.corners),
        Why::Unexplained([x0, y0, x1, y1]) => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::Rect;

    fn card(x: f64, w: f64, partly_hidden: bool) -> DetectedCard {
        DetectedCard {
            corners: [[x, 0.0], [x + w, 0.0], [x + w, 56.0], [x, 56.0]],
            partly_hidden,
            score: 0.9,
        }
    }

    /// Cards of 40×56 px. A merged outline three cards wide gives way to the three whole cards
    /// found in it, but not to one piece of a card (under half a card seen whole); card pixels
    /// outside every outline add the partly hidden card found there, and a new outline on a card
    /// the first look kept is that card.
    #[test]
    fn a_merged_outline_gives_way_to_the_cards_it_parts_into_not_to_pieces() {
        let first = vec![card(0.0, 40.0, false), card(100.0, 120.0, false)];
        let look = |why: Why| CloserLook {
            why,
            region: Rect::new(0, 0, 400, 100),
            card_area: 40.0 * 56.0,
        };
        let looks = vec![
            look(Why::Merged(1)),
            look(Why::Unexplained([0.0, 0.0, 340.0, 56.0])),
        ];
        let tiles: Vec<Tile> = looks
            .iter()
            .map(|l| Tile {
                region: l.region,
                keep: keep_of(l, &first),
            })
            .collect();
        let three = vec![
            card(100.0, 40.0, false),
            card(140.0, 40.0, false),
            card(180.0, 40.0, false),
            card(300.0, 30.0, true),
            card(2.0, 40.0, false),
        ];
        let found = parted(&looks, &tiles, three, &first, &[false, false]);
        assert_eq!(found.parted, [1]);
        let xs: Vec<f64> = found.cards.iter().map(|c| c.corners[0][0]).collect();
        assert_eq!(xs, [100.0, 140.0, 180.0, 300.0]);

        let pieces = vec![card(100.0, 60.0, false), card(160.0, 15.0, false)];
        let found = parted(&looks[..1], &tiles[..1], pieces, &first, &[false, false]);
        assert!(
            found.parted.is_empty() && found.cards.is_empty(),
            "{found:?}"
        );
    }
}
