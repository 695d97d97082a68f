//! The lattice pitch along each table axis, measured from the cards: players lay cards by hand at
//! their own spacing, along the rows and between them, not at the printed sheet's.

use super::{centre, turn_of, LatticeSpec};
use crate::geometry::{self, H3};

/// Centres closer across an axis than this share of the card's short side lie on one line along
/// it (a row along x, a column along y).
const SAME_LINE_SHARE: f64 = 0.5;
/// Neighbours closer along the line than this share of the short side lie on one another (a
/// unit on a front-line card), not in neighbouring cells.
const STACKED_SHARE: f64 = 0.6;
/// The pitches a table can have, as shares of the card's short and long sides: closer, cards in
/// neighbouring cells would overlap; further, they are not one lattice.
const MIN_PITCH_OF_SHORT_SIDE: f64 = 1.0;
const MAX_PITCH_OF_LONG_SIDE: f64 = 1.6;
/// The nominal pitch counts as this many measured gaps: one gap laid carelessly does not move the
/// pitch far from the printed one, many do.
const PRIOR_GAPS: f64 = 0.5;

/// A card as the pitch measure sees it: its centre under the frame and how many frame units one
/// table mm is along each axis, from the card's own size.
struct Ruler {
    centre: [f64; 2],
    units_per_mm: [f64; 2],
}

fn ruler(spec: &LatticeSpec, h: &H3, quad: &[[f64; 2]; 4]) -> Option<Ruler> {
    let m = quad.map(|p| geometry::apply(h, p));
    let len = |v: [f64; 2]| (v[0] * v[0] + v[1] * v[1]).sqrt();
    let across = len([
        (m[1][0] - m[0][0] + m[2][0] - m[3][0]) / 2.0,
        (m[1][1] - m[0][1] + m[2][1] - m[3][1]) / 2.0,
    ]);
    let down = len([
        (m[3][0] - m[0][0] + m[2][0] - m[1][0]) / 2.0,
        (m[3][1] - m[0][1] + m[2][1] - m[1][1]) / 2.0,
    ]);
    // Upright or inverted, the card's width lies along x; turned sideways, its height does.
    let units_per_mm = if turn_of(h, quad).is_multiple_of(2) {
        [across / spec.card_w_mm, down / spec.card_h_mm]
    } else {
        [down / spec.card_h_mm, across / spec.card_w_mm]
    };
    (units_per_mm.iter().all(|u| u.is_finite() && *u > 0.0)).then(|| Ruler {
        centre: geometry::apply(h, centre(quad)),
        units_per_mm,
    })
}

/// The gaps, mm, from each card to its nearest neighbour further along `axis` (0: x, 1: y) on
/// the same line.
fn gaps(spec: &LatticeSpec, rulers: &[Ruler], axis: usize) -> Vec<f64> {
    let other = 1 - axis;
    let short = spec.card_w_mm.min(spec.card_h_mm);
    rulers
        .iter()
        .filter_map(|a| {
            rulers
                .iter()
                .filter_map(|b| {
                    let mean = |k: usize| (a.units_per_mm[k] + b.units_per_mm[k]) / 2.0;
                    let along = (b.centre[axis] - a.centre[axis]) / mean(axis);
                    let across = (b.centre[other] - a.centre[other]) / mean(other);
                    (across.abs() < SAME_LINE_SHARE * short && along > STACKED_SHARE * short)
                        .then_some(along)
                })
                .min_by(f64::total_cmp)
        })
        .collect()
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// One pitch from the gaps along a line: the neighbouring cells' gap is the typical one among
/// the shortest; longer gaps skip empty cells and count as that many pitches. When even the
/// shortest gap is longer than any pitch a table is laid at, every gap skips cells and the printed
/// pitch counts them.
fn pitch_from_gaps(spec: &LatticeSpec, gaps: &[f64]) -> f64 {
    let nominal = spec.pitch_mm;
    let short = spec.card_w_mm.min(spec.card_h_mm);
    let long = spec.card_w_mm.max(spec.card_h_mm);
    let (lowest, highest) = (
        MIN_PITCH_OF_SHORT_SIDE * short,
        MAX_PITCH_OF_LONG_SIDE * long,
    );
    let Some(shortest) = gaps.iter().copied().min_by(f64::total_cmp) else {
        return nominal;
    };
    let neighbour = median(
        gaps.iter()
            .copied()
            .filter(|g| *g < 1.5 * shortest)
            .collect(),
    )
    .filter(|g| (lowest..=highest).contains(g))
    .unwrap_or(nominal);
    let per_cell: Vec<f64> = gaps
        .iter()
        .map(|g| g / (g / neighbour).round().max(1.0))
        .collect();
    let n = per_cell.len() as f64;
    let measured = per_cell.iter().sum::<f64>() / n;
    let pitch = (measured * n + nominal * PRIOR_GAPS) / (n + PRIOR_GAPS);
    pitch.clamp(lowest, highest)
}

/// The pitch (x, y), mm, of the lattice the cards lie on under `h` (image → table), each card's
/// own size the ruler, so a frame fitted at a wrong pitch still measures the right one; the
/// spec's pitch along an axis where no two cards are neighbours.
pub fn measure(spec: &LatticeSpec, h: &H3, cards: &[&[[f64; 2]; 4]]) -> [f64; 2] {
    let rulers: Vec<Ruler> = cards.iter().filter_map(|q| ruler(spec, h, q)).collect();
    [0, 1].map(|axis| pitch_from_gaps(spec, &gaps(spec, &rulers, axis)))
}
