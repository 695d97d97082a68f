//! The closer looks at cards run together ([`crate::merged`]): where the first look outlined
//! several cards as one, or saw card pixels it outlined nowhere. The parts of the frame to look
//! at are shown to the model together, each scaled into a tile of one input: one model run.

use super::{take_learned, Found, LearnedPass, Look, Scanner};
use crate::geometry;
use crate::merged::{self, CloserLook, Why};
use crate::mosaic::{one_outline_a_card, Tile};
use crate::VisionError;
use opencv::core::Mat;
use opencv::prelude::*;

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
        let mut cards = one_outline_a_card(
            pass.cards,
            |f: &Found| f.corners,
            |f: &Found| (f.card.is_some(), !f.covered),
        );
        for (look, tile) in looks.iter().zip(&tiles) {
            let in_it =
                |f: &Found| geometry::point_in_convex(geometry::centroid(&f.corners), &tile.keep);
            let (mine, rest): (Vec<Found>, Vec<Found>) = cards.into_iter().partition(|f| {
                in_it(f)
                    && (f.card.is_some()
                        || look.card_share(&f.corners) >= merged::CLOSER_UNNAMED_MIN_CARD_SHARE)
            });
            cards = rest;
            let named_in_it = match look.why {
                Why::Merged(_) => named
                    .iter()
                    .filter(|q| geometry::point_in_convex(geometry::centroid(*q), &tile.keep))
                    .count(),
                Why::Unexplained(_) => 0,
            };
            if look.why.parted_into(mine.len(), named_in_it) && !mine.is_empty() {
                done.cards += mine.len() as u32;
                found.retain(|f| f.card.is_some() || f.corners != tile.keep);
                take_learned(found, mine);
            }
        }
        Ok(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let kept = one_outline_a_card(
            vec![
                card(0.0, None),
                card(2.0, Some("lock-red")),
                card(25.0, None),
            ],
            |f: &Found| f.corners,
            |f: &Found| (f.card.is_some(), !f.covered),
        );
        let xs: Vec<(f64, Option<String>)> = kept
            .iter()
            .map(|f| (f.corners[0][0], f.card.clone()))
            .collect();
        assert_eq!(xs, vec![(2.0, Some("lock-red".to_string())), (25.0, None)]);
    }
}
