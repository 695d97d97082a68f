//! The table's own frame from the cards on it, whatever the camera's yaw: cards lie centred on the
//! cells of a square lattice (one pitch a cell), each turned by whole quarter turns. One card fixes
//! a first frame; every other card refines it. Which of the four quarter turns of the lattice is the
//! game's own, and which cell is its first, each game decides from what its cards mean. The pitch
//! along each axis is measured from the cards (a table laid by hand is not at the printed 100 mm);
//! the frame returned has square cells of the spec's pitch whatever the table's.

mod pitch;

use crate::geometry::{self, H3};
use crate::VisionError;

/// A card's size on the table, mm, and the lattice pitch, mm.
#[derive(Clone, Copy, Debug)]
pub struct LatticeSpec {
    pub pitch_mm: f64,
    pub card_w_mm: f64,
    pub card_h_mm: f64,
}

/// Our printed cards (63 × 88 mm) on the mats' 100 mm pitch: the Blitz grid and the Duel 陣地.
pub const PRINTED_CARDS: LatticeSpec = LatticeSpec {
    pitch_mm: crate::mats::PITCH_MM,
    card_w_mm: crate::face::CARD_W_MM,
    card_h_mm: crate::face::CARD_H_MM,
};

/// How far (in cells, either way from the first card) the lattice is followed: a card further off
/// is another game's or a misfit.
const MAX_CELLS_FROM_ANCHOR: f64 = 12.0;
/// A refined fit needs this many corner pairs (three whole cards); fewer keep the fit it had.
const MIN_CORNER_PAIRS: usize = 12;

/// The centre of an image quad.
fn centre(quad: &[[f64; 2]; 4]) -> [f64; 2] {
    geometry::centroid(quad)
}

/// The middle of a quad's top edge (its corners from the card's own top-left).
fn top_middle(quad: &[[f64; 2]; 4]) -> [f64; 2] {
    [
        (quad[0][0] + quad[1][0]) / 2.0,
        (quad[0][1] + quad[1][1]) / 2.0,
    ]
}

/// Quarter turns clockwise (seen from above, x right, y away) of a card under the frame `h`.
pub fn turn_of(h: &H3, quad: &[[f64; 2]; 4]) -> u8 {
    let c = geometry::apply(h, centre(quad));
    let t = geometry::apply(h, top_middle(quad));
    crate::types::Orientation::from_up_vector(t[0] - c[0], t[1] - c[1]).quarter_turns()
}

/// The lattice cell (col, row) holding a card's centre under the frame `h`.
pub fn cell_of(h: &H3, quad: &[[f64; 2]; 4], pitch: f64) -> (i32, i32) {
    let c = geometry::apply(h, centre(quad));
    ((c[0] / pitch).floor() as i32, (c[1] / pitch).floor() as i32)
}

/// Table-mm corners (the card's own top-left first) of a card centred at `centre`, turned
/// clockwise seen from above by `turns` quarter turns.
pub fn corners_mm(spec: &LatticeSpec, centre: [f64; 2], turns: u8) -> [[f64; 2]; 4] {
    let (hw, hh) = (spec.card_w_mm / 2.0, spec.card_h_mm / 2.0);
    [[-hw, hh], [hw, hh], [hw, -hh], [-hw, -hh]].map(|[mut x, mut y]| {
        for _ in 0..turns {
            (x, y) = (y, -x);
        }
        [centre[0] + x, centre[1] + y]
    })
}

/// The frame turned by `k` quarter turns counter-clockwise about the table's origin: the lattice
/// stays on itself, the game's axes move.
pub fn quarter_turn(k: u8) -> H3 {
    let (s, c) = match k % 4 {
        0 => (0.0, 1.0),
        1 => (1.0, 0.0),
        2 => (0.0, -1.0),
        _ => (-1.0, 0.0),
    };
    [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]
}

/// The pitch (x, y) along the axes of the frame turned by `k` quarter turns.
pub fn turned_pitch(pitch: [f64; 2], k: u8) -> [f64; 2] {
    if k % 2 == 1 {
        [pitch[1], pitch[0]]
    } else {
        pitch
    }
}

/// Moves the frame by whole cells: `cols` along x, `rows` along y.
pub fn shift_cells(h: &H3, cols: i32, rows: i32, pitch: f64) -> H3 {
    geometry::mul(
        &geometry::scale_translate(1.0, cols as f64 * pitch, rows as f64 * pitch),
        h,
    )
}

/// Fits image → lattice from `cards` (image corners, each card's own top-left first): the card
/// `anchor` is laid on cell (0, 0) turned by `anchor_turns`, then the fit grows outwards from it,
/// nearest cards first (one card's homography is only good near that card), the pitch measured
/// from the cards at each step. The lattice's cells are squares of `spec.pitch_mm` whatever the
/// pitch measured (its x and y are table mm scaled by the nominal over the measured pitch).
/// `None` when the anchor's corners are degenerate.
pub fn fit(
    spec: &LatticeSpec,
    cards: &[[[f64; 2]; 4]],
    anchor: usize,
    anchor_turns: u8,
) -> Result<Option<H3>, VisionError> {
    Ok(fit_measured(spec, cards, anchor, anchor_turns)?.map(|(h, _)| h))
}

/// [`fit`], and the pitch (x, y) measured, mm.
pub fn fit_measured(
    spec: &LatticeSpec,
    cards: &[[[f64; 2]; 4]],
    anchor: usize,
    anchor_turns: u8,
) -> Result<Option<(H3, [f64; 2])>, VisionError> {
    let Some(first) = cards.get(anchor) else {
        return Ok(None);
    };
    let origin = [spec.pitch_mm / 2.0, spec.pitch_mm / 2.0];
    let Some(mut h) =
        geometry::homography(&first[..], &corners_mm(spec, origin, anchor_turns), false)?
    else {
        return Ok(None);
    };
    let at = centre(first);
    let mut by_distance: Vec<&[[f64; 2]; 4]> = cards.iter().collect();
    by_distance.sort_by(|a, b| {
        let d = |q: &[[f64; 2]; 4]| crate::detect::dist(centre(q), at);
        d(a).total_cmp(&d(b))
    });
    let nearest = |fraction: f64| {
        ((by_distance.len() as f64 * fraction).ceil() as usize)
            .max(3)
            .min(by_distance.len())
    };
    // The anchor's own frame is true near it: the pitch is first measured there, before any card
    // is pulled onto a lattice of the wrong pitch.
    let mut pitch = pitch::measure(spec, &h, &by_distance[..nearest(0.3)]);
    for fraction in [0.3, 0.6, 1.0, 1.0] {
        let n = nearest(fraction);
        h = refine(spec, pitch, &h, &by_distance[..n])?;
        pitch = pitch::measure(spec, &h, &by_distance[..n]);
    }
    h = refine(spec, pitch, &h, &by_distance)?;
    let square = [
        [spec.pitch_mm / pitch[0], 0.0, 0.0],
        [0.0, spec.pitch_mm / pitch[1], 0.0],
        [0.0, 0.0, 1.0],
    ];
    Ok(Some((geometry::mul(&square, &h), pitch)))
}

/// One least-squares fit (image → table mm) over every card's four corners, each card taken to
/// lie centred on the cell (`pitch` x, y) it falls in under `h`, turned by the quarter turn
/// nearest what `h` says.
fn refine(
    spec: &LatticeSpec,
    pitch: [f64; 2],
    h: &H3,
    cards: &[&[[f64; 2]; 4]],
) -> Result<H3, VisionError> {
    let (mut src, mut dst) = (Vec::new(), Vec::new());
    for quad in cards {
        let c = geometry::apply(h, centre(quad));
        let (col, row) = ((c[0] / pitch[0]).floor(), (c[1] / pitch[1]).floor());
        if col.abs() > MAX_CELLS_FROM_ANCHOR || row.abs() > MAX_CELLS_FROM_ANCHOR {
            continue;
        }
        let cell_centre = [(col + 0.5) * pitch[0], (row + 0.5) * pitch[1]];
        let mm = corners_mm(spec, cell_centre, turn_of(h, quad));
        src.extend_from_slice(&quad[..]);
        dst.extend_from_slice(&mm);
    }
    if src.len() < MIN_CORNER_PAIRS {
        return Ok(*h);
    }
    Ok(geometry::homography(&src, &dst, true)?.unwrap_or(*h))
}

/// The value most often in `v` (the smallest of equals) and how often; `None` when empty.
pub fn most_common<T: Ord + Copy>(v: &[T]) -> Option<(T, usize)> {
    let mut sorted = v.to_vec();
    sorted.sort();
    let mut best: Option<(T, usize)> = None;
    for chunk in sorted.chunk_by(|a, b| a == b) {
        if best.is_none_or(|b| chunk.len() > b.1) {
            best = Some((chunk[0], chunk.len()));
        }
    }
    best
}

/// The whole-cell shift (cols, rows) that puts the cards seen before back where they were last
/// seen: `cells[i]` is card i's cell on the fitted lattice, `last[i]` where it was last seen. `None`
/// unless at least `min_agree` cards, and most of those remembered, agree on it.
pub fn remembered_shift(
    cells: &[(i32, i32)],
    last: &[Option<(u8, u8)>],
    min_agree: usize,
) -> Option<(i32, i32)> {
    let offsets: Vec<(i32, i32)> = cells
        .iter()
        .zip(last)
        .filter_map(|(s, l)| l.map(|(col, row)| (col as i32 - s.0, row as i32 - s.1)))
        .collect();
    most_common(&offsets)
        .filter(|&(_, n)| n >= min_agree && 2 * n > offsets.len())
        .map(|(shift, _)| shift)
}

/// How many cards lie, shifted by `shift`, where they were last seen.
pub fn count_remembered(cells: &[(i32, i32)], last: &[Option<(u8, u8)>], shift: (i32, i32)) -> i32 {
    cells
        .iter()
        .zip(last)
        .filter(|(s, l)| {
            l.is_some_and(|(col, row)| (col as i32, row as i32) == (s.0 + shift.0, s.1 + shift.1))
        })
        .count() as i32
}

/// The image direction (unit vector) from table point `from_mm` toward `to_mm` under the frame `h`
/// (image → table mm); image down when `h` cannot be inverted.
pub fn image_direction(h: &H3, from_mm: [f64; 2], to_mm: [f64; 2]) -> [f64; 2] {
    let Some(inv) = geometry::invert(h) else {
        return [0.0, 1.0];
    };
    let (a, b) = (geometry::apply(&inv, from_mm), geometry::apply(&inv, to_mm));
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let n = (dx * dx + dy * dy).sqrt();
    if n > 0.0 {
        [dx / n, dy / n]
    } else {
        [0.0, 1.0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: LatticeSpec = LatticeSpec {
        pitch_mm: 100.0,
        card_w_mm: 63.0,
        card_h_mm: 88.0,
    };

    /// Image corners of cards laid on `cells` (col, row, turns) seen through `table_to_image`.
    fn seen(table_to_image: &H3, cells: &[(i32, i32, u8)]) -> Vec<[[f64; 2]; 4]> {
        cells
            .iter()
            .map(|&(c, r, t)| {
                let centre = [(c as f64 + 0.5) * 100.0, (r as f64 + 0.5) * 100.0];
                corners_mm(&SPEC, centre, t).map(|p| geometry::apply(table_to_image, p))
            })
            .collect()
    }

    /// A camera looking down at an angle, turned by `yaw` degrees, a little perspective.
    fn camera(yaw: f64) -> H3 {
        let (s, c) = yaw.to_radians().sin_cos();
        [
            [1.1 * c, -1.1 * s, 640.0],
            [-0.9 * s, -0.9 * c, 400.0],
            [0.0002, 0.0001, 1.0],
        ]
    }

    #[test]
    fn every_card_lands_on_its_cell_whatever_the_yaw() {
        let cells: Vec<(i32, i32, u8)> = (0..4)
            .flat_map(|c| (0..7).map(move |r| (c, r, if r == 3 { 1 } else { (r / 4 * 2) as u8 })))
            .collect();
        for yaw in [0.0, 37.0, 90.0, 161.0, 200.0, 270.0, 333.0] {
            let to_image = camera(yaw);
            let cards = seen(&to_image, &cells);
            let h = fit(&SPEC, &cards, 13, cells[13].2).unwrap().unwrap();
            // The anchor (col 1, row 6 here) sits on (0, 0) of the fitted lattice.
            for (quad, &(c, r, t)) in cards.iter().zip(&cells) {
                let (fc, fr) = cell_of(&h, quad, 100.0);
                assert_eq!(
                    (fc - c, fr - r),
                    (0 - 1, 0 - 6),
                    "yaw {yaw}: card at ({c}, {r})"
                );
                assert_eq!(turn_of(&h, quad), t, "yaw {yaw}");
            }
        }
    }

    #[test]
    fn quarter_turns_keep_the_lattice_and_turn_the_cards() {
        let to_image = camera(20.0);
        let cards = seen(&to_image, &[(0, 0, 0), (1, 0, 0), (0, 1, 0), (2, 2, 1)]);
        let h = fit(&SPEC, &cards, 0, 0).unwrap().unwrap();
        let turned = geometry::mul(&quarter_turn(1), &h);
        // Counter-clockwise by a quarter: what was upright now has its top to the left.
        assert_eq!(turn_of(&turned, &cards[0]), 3);
        assert_eq!(cell_of(&turned, &cards[1], 100.0), (-1, 1));
        let back = geometry::mul(&quarter_turn(3), &turned);
        assert_eq!(cell_of(&back, &cards[3], 100.0), (2, 2));
        assert_eq!(
            cell_of(&shift_cells(&back, 1, -2, 100.0), &cards[3], 100.0),
            (3, 0)
        );
    }

    /// Cards laid by hand: `pitch` (x, y) mm apart, each a few mm off its place (a fixed pattern).
    fn laid_by_hand(
        to_image: &H3,
        cells: &[(i32, i32, u8)],
        pitch: [f64; 2],
    ) -> Vec<[[f64; 2]; 4]> {
        cells
            .iter()
            .enumerate()
            .map(|(i, &(c, r, t))| {
                let wobble = [(i as f64 * 2.3).sin() * 7.0, (i as f64 * 1.7).cos() * 7.0];
                let centre = [
                    (c as f64 + 0.5) * pitch[0] + wobble[0],
                    (r as f64 + 0.5) * pitch[1] + wobble[1],
                ];
                corners_mm(&SPEC, centre, t).map(|p| geometry::apply(to_image, p))
            })
            .collect()
    }

    #[test]
    fn cards_laid_by_hand_at_their_own_spacing_keep_their_cells() {
        // Two rows of five and a gap (an empty cell), as a Duel table laid without its mat.
        let cells = [
            (0, 0, 0),
            (1, 0, 0),
            (3, 0, 1),
            (4, 0, 0),
            (0, 1, 2),
            (2, 1, 2),
            (3, 1, 2),
            (4, 1, 3),
        ];
        for pitch in [[82.0, 131.0], [117.0, 96.0], [100.0, 100.0]] {
            for yaw in [0.0, 70.0, 145.0, 230.0, 300.0] {
                let mut to_image = camera(yaw);
                if yaw > 250.0 {
                    // Steeper: the far side much smaller than the near.
                    to_image[2][1] = 0.0012;
                }
                let cards = laid_by_hand(&to_image, &cells, pitch);
                let (h, measured) = fit_measured(&SPEC, &cards, 2, 1).unwrap().unwrap();
                for axis in 0..2 {
                    assert!(
                        (measured[axis] - pitch[axis]).abs() < 8.0,
                        "yaw {yaw}: pitch {pitch:?} measured {measured:?}"
                    );
                }
                for (quad, &(c, r, t)) in cards.iter().zip(&cells) {
                    assert_eq!(
                        cell_of(&h, quad, 100.0),
                        (c - 3, r),
                        "yaw {yaw}, pitch {pitch:?}: card at ({c}, {r})"
                    );
                    assert_eq!(turn_of(&h, quad), t, "yaw {yaw}");
                }
            }
        }
    }

    #[test]
    fn one_row_keeps_the_printed_pitch_across_it() {
        let cards = laid_by_hand(
            &camera(0.0),
            &[(0, 0, 0), (1, 0, 0), (2, 0, 0)],
            [90.0, 130.0],
        );
        let (_, measured) = fit_measured(&SPEC, &cards, 1, 0).unwrap().unwrap();
        assert!((measured[0] - 90.0).abs() < 8.0, "{measured:?}");
        assert_eq!(measured[1], 100.0);
    }

    #[test]
    fn degenerate_anchor_is_none() {
        let flat = [[5.0, 5.0]; 4];
        assert!(fit(&SPEC, &[flat], 0, 0).unwrap().is_none());
        assert!(fit(&SPEC, &[], 0, 0).unwrap().is_none());
    }
}
