//! The Blitz grid without a mat, wherever the camera stands: the front-line row gives the grid's
//! axis, how the players' cards lie and face gives which side is Allied, earlier frames keep it
//! where it was.

use crate::geometry::{self, H3};
use crate::lattice::{self, LatticeSpec};
use crate::mats::PITCH_MM;
use crate::types::{AlliedFrom, AlliedSide, Calibration};
use crate::VisionError;

/// What a named card tells the Blitz grid fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlitzRole {
    /// Lies sideways on the front row (row 3), one a column.
    FrontLine,
    /// An Allied card: on rows 0–3, upright to the Allied player (or tapped).
    Allied,
    /// An Axis card: on rows 3–6, upright to the Axis player.
    Axis,
    Other,
}

/// Our printed cards on the 100 mm grid.
pub const BLITZ_LATTICE: LatticeSpec = lattice::PRINTED_CARDS;
const BLITZ_ROWS: i32 = 7;
const FRONT_ROW: i32 = 3;
/// Cards that must agree on where the grid lay before for the memory to place it.
const MIN_REMEMBERED: usize = 2;
/// Without a front-line card, this many named cards are needed to fit the grid.
const MIN_CARDS_WITHOUT_FRONT: usize = 4;

/// A named card as the Blitz grid fit sees it.
#[derive(Clone, Copy, Debug)]
pub struct GridCard {
    /// Image corners, the card's own top-left first.
    pub corners: [[f64; 2]; 4],
    pub role: BlitzRole,
    /// The cell this card was in when last seen (earlier frames of the same table).
    pub last_cell: Option<(u8, u8)>,
}

/// What the Blitz grid fit has to go on in one frame.
pub struct GridSeen<'a> {
    pub cards: &'a [GridCard],
    /// Outlines seen but not named (cards under a hand, too far to name).
    pub unnamed: &'a [[[f64; 2]; 4]],
    /// The frame's width and height, pixels.
    pub image_size: [f64; 2],
}

/// One way to lay the Blitz grid on the fitted lattice: a quarter turn, then whole-cell shifts.
struct Candidate {
    homography: H3,
    /// The measured pitch along the candidate's own axes, mm.
    pitch_mm: [f64; 2],
    /// How well the cards' kinds, sides and facing agree with it.
    score: i32,
    /// How many cards lie where they were last seen.
    remembered: i32,
}

impl Candidate {
    fn total(&self) -> i32 {
        self.score + 3 * self.remembered
    }
}

/// Fits the Blitz grid (`cols` columns, seven rows) from named cards seen from any side, no mat.
/// Cards seen before keep their cells when they agree (a bumped camera or an emptied first column
/// does not shift the grid); where the named cards span fewer columns than the grid, unnamed
/// outlines beside them (cards under a hand) say which way it reaches, else the way that keeps it
/// in the picture; `allied_towards` (an image direction from the grid toward the Allied
/// player, as the players once answered) settles which side is Allied when nothing else can.
pub fn blitz_frame(
    seen: &GridSeen,
    cols: u8,
    allied_towards: Option<[f64; 2]>,
) -> Result<Calibration, VisionError> {
    let cards = seen.cards;
    let quads: Vec<[[f64; 2]; 4]> = cards.iter().map(|c| c.corners).collect();
    let fronts: Vec<usize> = (0..cards.len())
        .filter(|&i| cards[i].role == BlitzRole::FrontLine)
        .collect();
    if fronts.is_empty() && cards.len() < MIN_CARDS_WITHOUT_FRONT {
        return Ok(Calibration::None {
            reason: "no front-line card and too few named cards to fit the grid".into(),
        });
    }
    // The anchor: the front-line card nearest the middle of the front line (it lies sideways), or
    // the card nearest the middle of all.
    let pool: Vec<usize> = if fronts.is_empty() {
        (0..cards.len()).collect()
    } else {
        fronts.clone()
    };
    let centres: Vec<[f64; 2]> = pool
        .iter()
        .map(|&i| geometry::centroid(&quads[i]))
        .collect();
    let middle = geometry::centroid(&centres);
    let Some(&anchor) = pool.iter().min_by(|&&a, &&b| {
        let d = |i: usize| crate::detect::dist(geometry::centroid(&quads[i]), middle);
        d(a).total_cmp(&d(b))
    }) else {
        return Ok(Calibration::None {
            reason: "no named card".into(),
        });
    };
    let anchor_turns = if fronts.is_empty() { 0 } else { 1 };
    let Some((h, pitch)) = lattice::fit_measured(&BLITZ_LATTICE, &quads, anchor, anchor_turns)?
    else {
        return Ok(Calibration::None {
            reason: "degenerate anchor card".into(),
        });
    };
    let candidates: Vec<Candidate> = (0..4u8)
        .map(|k| {
            let turned = geometry::mul(&lattice::quarter_turn(k), &h);
            place_grid(&turned, lattice::turned_pitch(pitch, k), seen, cols)
        })
        .collect();
    let best = candidates.iter().map(Candidate::total).max().unwrap_or(0);
    let tied: Vec<&Candidate> = candidates.iter().filter(|c| c.total() == best).collect();
    let best_by_cards = candidates.iter().map(|c| c.score).max().unwrap_or(0);
    let cards_alone_tell = candidates
        .iter()
        .filter(|c| c.score == best_by_cards)
        .count()
        == 1;
    let image_down = [0.0, 1.0];
    let towards = |c: &Candidate| allied_direction(&c.homography, cols);
    let agree = |c: &Candidate, want: [f64; 2]| {
        let d = towards(c);
        d[0] * want[0] + d[1] * want[1]
    };
    let (chosen, from) = if tied.len() == 1 {
        let from = if cards_alone_tell && tied[0].score == best_by_cards {
            AlliedFrom::Cards
        } else {
            AlliedFrom::Remembered
        };
        (tied[0], from)
    } else {
        let (want, from) = match allied_towards {
            Some(w) => (w, AlliedFrom::Asked),
            None => (image_down, AlliedFrom::Guessed),
        };
        let Some(c) = tied
            .iter()
            .max_by(|a, b| agree(a, want).total_cmp(&agree(b, want)))
        else {
            return Ok(Calibration::None {
                reason: "no grid fit".into(),
            });
        };
        (*c, from)
    };
    let allied_side = AlliedSide {
        from,
        towards: towards(chosen),
    };
    Ok(if fronts.is_empty() {
        Calibration::Cards {
            named_cards: cards.len(),
            homography: chosen.homography,
            allied_side,
            pitch_mm: chosen.pitch_mm,
        }
    } else {
        Calibration::FrontLine {
            front_cards: fronts.len(),
            homography: chosen.homography,
            allied_side,
            pitch_mm: chosen.pitch_mm,
        }
    })
}

/// Shifts the turned lattice so cards seen before stay in their cells (when most agree), else so
/// the front line is row 3 (or, without one, Allied cards lie near and Axis cards far) and the
/// columns hold the named cards and as many unnamed outlines as they can, then lie in the picture
/// (the leftmost card in column 0 when nothing else tells); scores how well the cards agree.
fn place_grid(h: &H3, pitch_mm: [f64; 2], frame: &GridSeen, cols: u8) -> Candidate {
    let cards = frame.cards;
    let p = PITCH_MM;
    let seen: Vec<((i32, i32), u8, BlitzRole)> = cards
        .iter()
        .map(|c| {
            let q = &c.corners;
            (lattice::cell_of(h, q, p), lattice::turn_of(h, q), c.role)
        })
        .collect();
    let cells: Vec<(i32, i32)> = seen.iter().map(|s| s.0).collect();
    let last: Vec<Option<(u8, u8)>> = cards.iter().map(|c| c.last_cell).collect();
    let from_memory = lattice::remembered_shift(&cells, &last, MIN_REMEMBERED);
    let front_rows: Vec<i32> = seen
        .iter()
        .filter(|s| s.2 == BlitzRole::FrontLine && s.1 % 2 == 1)
        .map(|s| s.0 .1)
        .collect();
    let row_shift = match lattice::most_common(&front_rows) {
        Some((row, _)) => FRONT_ROW - row,
        None => {
            let rows: Vec<(i32, BlitzRole)> = seen.iter().map(|s| (s.0 .1, s.2)).collect();
            (-2 * BLITZ_ROWS..=2 * BLITZ_ROWS)
                .max_by_key(|&shift| (side_score(&rows, shift), -shift.abs()))
                .unwrap_or(0)
        }
    };
    let unnamed_cells: Vec<(i32, i32)> = frame
        .unnamed
        .iter()
        .map(|q| lattice::cell_of(h, q, p))
        .collect();
    let in_picture = picture_test(h, cards, frame.image_size);
    let col_shift = column_shift(&cells, &unnamed_cells, row_shift, cols, &in_picture);
    let (col_shift, row_shift) = from_memory.unwrap_or((col_shift, row_shift));
    let remembered = lattice::count_remembered(&cells, &last, (col_shift, row_shift));
    let mut score = 0;
    for &((col, row), turn, role) in &seen {
        let (col, row) = (col + col_shift, row + row_shift);
        if (0..cols as i32).contains(&col) && (0..BLITZ_ROWS).contains(&row) {
            score += 1;
        }
        score += match role {
            BlitzRole::FrontLine => 3 * (turn % 2 == 1) as i32 + 2 * (row == FRONT_ROW) as i32,
            BlitzRole::Allied | BlitzRole::Axis => {
                let home = if role == BlitzRole::Allied { 0 } else { 2 };
                let facing = match turn {
                    t if t == home => 1,
                    t if t % 2 == 0 => -1,
                    _ => 0,
                };
                // Even turns (upright or inverted) are the rule; tapped units the exception.
                facing + (turn % 2 == 0) as i32 + side_score(&[(row, role)], 0)
            }
            BlitzRole::Other => 0,
        };
    }
    Candidate {
        homography: lattice::shift_cells(h, col_shift, row_shift, p),
        pitch_mm,
        score,
        remembered,
    }
}

/// The shift that puts the leftmost named card in column 0, unless the named cards span fewer
/// columns than the grid and another shift that keeps them all on it also holds more of the
/// unnamed outlines (a hand over the first column hides its cards' names, not always their
/// edges), or as many and more of the grid's cells in the picture (players frame the whole board;
/// `in_picture` takes a lattice cell before the shift).
fn column_shift(
    named: &[(i32, i32)],
    unnamed: &[(i32, i32)],
    row_shift: i32,
    cols: u8,
    in_picture: &dyn Fn(i32, i32) -> bool,
) -> i32 {
    let (Some(left), Some(right)) = (
        named.iter().map(|c| c.0).min(),
        named.iter().map(|c| c.0).max(),
    ) else {
        return 0;
    };
    let on_grid = |shift: i32| {
        unnamed
            .iter()
            .filter(|&&(col, row)| {
                (0..cols as i32).contains(&(col + shift))
                    && (0..BLITZ_ROWS).contains(&(row + row_shift))
            })
            .count()
    };
    let cells_in_picture = |shift: i32| {
        (0..cols as i32)
            .flat_map(|col| (0..BLITZ_ROWS).map(move |row| (col, row)))
            .filter(|&(col, row)| in_picture(col - shift, row - row_shift))
            .count()
    };
    let leftmost_first = -left;
    (leftmost_first..=cols as i32 - 1 - right)
        .max_by_key(|&shift| {
            (
                on_grid(shift),
                cells_in_picture(shift),
                shift == leftmost_first,
            )
        })
        .unwrap_or(leftmost_first)
}

/// Whether the middle of a lattice cell (col, row) under `h` (image → lattice mm) lies in a
/// picture of `size` pixels, on the same side of the camera as the cards seen (no cell does
/// where `h` has no inverse).
fn picture_test(h: &H3, cards: &[GridCard], size: [f64; 2]) -> impl Fn(i32, i32) -> bool {
    let to_image = geometry::invert(h);
    let depth = move |p: [f64; 2]| to_image.map(|m| m[2][0] * p[0] + m[2][1] * p[1] + m[2][2]);
    let seen_depth = cards
        .first()
        .and_then(|c| depth(geometry::apply(h, geometry::centroid(&c.corners))));
    move |col, row| {
        let (Some(m), Some(seen)) = (to_image, seen_depth) else {
            return false;
        };
        let middle = [(col as f64 + 0.5) * PITCH_MM, (row as f64 + 0.5) * PITCH_MM];
        let [x, y] = geometry::apply(&m, middle);
        let same_side = depth(middle).is_some_and(|d| d * seen > 0.0);
        same_side && (0.0..size[0]).contains(&x) && (0.0..size[1]).contains(&y)
    }
}

/// +2 for each Allied card on rows 0–2 and each Axis card on rows 4–6, −2 the other way round,
/// rows shifted by `shift`; +1 for each card on the grid's rows.
fn side_score(rows: &[(i32, BlitzRole)], shift: i32) -> i32 {
    rows.iter()
        .map(|&(row, role)| {
            let row = row + shift;
            let on = (0..BLITZ_ROWS).contains(&row) as i32;
            let side = match role {
                BlitzRole::Allied => (FRONT_ROW - row).signum() * 2,
                BlitzRole::Axis => (row - FRONT_ROW).signum() * 2,
                _ => 0,
            };
            on + side
        })
        .sum()
}

/// The image direction (unit vector) from the grid's middle toward the Allied side under the
/// frame `h` (image → table mm).
pub fn allied_direction(h: &H3, cols: u8) -> [f64; 2] {
    let middle = [
        cols as f64 * PITCH_MM / 2.0,
        BLITZ_ROWS as f64 * PITCH_MM / 2.0,
    ];
    lattice::image_direction(h, middle, [middle[0], middle[1] - PITCH_MM])
}

#[cfg(test)]
mod tests {
    use super::column_shift;

    fn everywhere(_: i32, _: i32) -> bool {
        true
    }

    #[test]
    fn the_leftmost_named_card_is_column_0_when_nothing_else_tells() {
        let named = [(2, 0), (3, 1), (4, 3)];
        assert_eq!(column_shift(&named, &[], 0, 4, &everywhere), -2);
        // An unnamed outline the shift keeps on the grid anyway changes nothing.
        assert_eq!(column_shift(&named, &[(3, 2)], 0, 4, &everywhere), -2);
    }

    #[test]
    fn unnamed_outlines_beside_a_narrow_span_say_where_the_grid_reaches() {
        let named = [(2, 0), (3, 1), (4, 3)];
        // Outlines in the column left of the named ones: that column is the grid's first.
        assert_eq!(
            column_shift(&named, &[(1, 0), (1, 2)], 0, 4, &everywhere),
            -1
        );
        // Off the grid's rows they say nothing.
        assert_eq!(column_shift(&named, &[(1, 9)], 0, 4, &everywhere), -2);
        // A span as wide as the grid leaves no choice, whatever lies beside it.
        let wide = [(1, 0), (4, 3)];
        assert_eq!(
            column_shift(&wide, &[(0, 0), (0, 1)], 0, 4, &everywhere),
            -1
        );
    }

    #[test]
    fn with_nothing_beside_it_the_grid_stays_in_the_picture() {
        let named = [(2, 0), (3, 1), (4, 3)];
        // Lattice column 5 (grid column 3 with the leftmost card in column 0) is out of the picture.
        let left_of_5 = |col: i32, _row: i32| col < 5;
        assert_eq!(column_shift(&named, &[], 0, 4, &left_of_5), -1);
        // Outlines beside the span still come first.
        assert_eq!(column_shift(&named, &[(5, 1)], 0, 4, &left_of_5), -2);
    }
}
