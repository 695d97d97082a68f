//! A whole card the identifier does not name may have one side where the detector put it wrong:
//! on a strong line inside the print (the art's edge), or past the card into a neighbour or its
//! shadow. Typically the other two corners are right (on the tuning scenes, of the found cards 4–16
//! px off, the two best corners were 1.0 and 2.3 px off, the worst two 6.9 and 18.7). So each side
//! in turn is moved along its two neighbours until the card has one of the common card shapes,
//! and each such quad is offered to the identifier.

use crate::detect::dist;

/// Short side over long side of common card sizes: 63×88 mm (poker, most TCGs), 57×87, 59×86
/// (Japanese TCGs), 70×120 (tarot).
pub const CARD_ASPECTS: [f64; 4] = [63.0 / 88.0, 57.0 / 87.0, 59.0 / 86.0, 70.0 / 120.0];
/// A side is moved at most this share of the side across from it (a larger change is another
/// card, not this one's outline mended).
const MOST_MOVED: f64 = 0.6;

type Corners = [[f64; 2]; 4];

/// The quads with one side moved (along the two sides beside it, the side across kept) so that
/// the card has one of [`CARD_ASPECTS`], the moved side being a short or a long one; corners keep
/// their order.
pub fn with_one_side_moved(quad: &Corners) -> Vec<Corners> {
    let mut out = Vec::with_capacity(4 * CARD_ASPECTS.len() * 2);
    for k in 0..4 {
        let (a, b, c, d) = (
            quad[k],
            quad[(k + 1) % 4],
            quad[(k + 2) % 4],
            quad[(k + 3) % 4],
        );
        let across = dist(c, d);
        let (da, cb) = (dist(d, a), dist(c, b));
        if across <= 0.0 || da <= 0.0 || cb <= 0.0 {
            continue;
        }
        let unit_a = [(a[0] - d[0]) / da, (a[1] - d[1]) / da];
        let unit_b = [(b[0] - c[0]) / cb, (b[1] - c[1]) / cb];
        for aspect in CARD_ASPECTS {
            for length in [across / aspect, across * aspect] {
                let new_a = [d[0] + unit_a[0] * length, d[1] + unit_a[1] * length];
                let new_b = [c[0] + unit_b[0] * length, c[1] + unit_b[1] * length];
                if dist(new_a, a).max(dist(new_b, b)) > MOST_MOVED * across {
                    continue;
                }
                let mut moved = *quad;
                moved[k] = new_a;
                moved[(k + 1) % 4] = new_b;
                out.push(moved);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_whose_one_side_lies_on_its_art_gets_that_side_back() {
        // A 63×88 card (×1 px/mm), upright; the detector put its bottom side at the art's edge.
        let card = [[0.0, 0.0], [63.0, 0.0], [63.0, 88.0], [0.0, 88.0]];
        let cut = [[0.0, 0.0], [63.0, 0.0], [63.0, 56.0], [0.0, 56.0]];
        let mended = with_one_side_moved(&cut);
        assert!(mended
            .iter()
            .any(|q| q.iter().zip(&card).all(|(p, c)| dist(*p, *c) < 1e-6)));
        // Every quad keeps two corners where they were.
        for q in &mended {
            let kept = q
                .iter()
                .zip(&cut)
                .filter(|(p, c)| dist(**p, **c) < 1e-9)
                .count();
            assert_eq!(kept, 2, "{q:?}");
        }
    }

    #[test]
    fn no_side_moves_farther_than_its_share_of_the_side_across() {
        let quads = [
            [[0.0, 0.0], [63.0, 0.0], [63.0, 10.0], [0.0, 10.0]],
            [[10.0, 5.0], [80.0, 12.0], [70.0, 100.0], [2.0, 90.0]],
        ];
        for quad in quads {
            let offered = with_one_side_moved(&quad);
            assert!(!offered.is_empty());
            for q in offered {
                let kept: Vec<usize> = (0..4).filter(|&i| dist(q[i], quad[i]) < 1e-9).collect();
                assert_eq!(kept.len(), 2, "{q:?}");
                let across = dist(quad[kept[0]], quad[kept[1]]);
                for i in (0..4).filter(|i| !kept.contains(i)) {
                    assert!(dist(q[i], quad[i]) <= MOST_MOVED * across + 1e-9);
                }
            }
        }
    }
}
