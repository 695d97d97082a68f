//! The Duel table without its mat, wherever the camera stands: the units in the 陣地 give the two
//! rows of five (units lie on a 100 mm lattice, a near unit upright to the near player, a far one
//! to the far player), earlier frames keep the 陣地 where they were, and the players' answer says
//! which side is near (the table is the same turned half round, so the cards cannot).

use super::faces::BACK_ID;
use crate::geometry::{self, H3};
use crate::lattice::{self, LatticeSpec};
use crate::mats::{MatLayout, PITCH_MM};
use crate::table::{CardsSeen, TableLayout};
use crate::types::{AlliedFrom, AlliedSide, Calibration};
use crate::VisionError;
use duel::{Catalogue, Kind};
use std::collections::HashSet;

/// Units on the Duel mat's 100 mm 陣地.
pub const DUEL_LATTICE: LatticeSpec = lattice::PRINTED_CARDS;
const SLOTS: i32 = 5;
const ROWS: i32 = 2;
/// Units that must agree on where the 陣地 lay before for the memory to place them.
const MIN_REMEMBERED: usize = 1;
/// A fit whose near side lies within 60° of the players' answer agrees with it (cosine): an answer
/// given as an edge of the picture is up to 45° off the table's own axis for a camera at a corner.
const AGREES_WITH_ANSWER: f64 = 0.5;

/// A named unit as the 陣地 fit sees it.
#[derive(Clone, Copy, Debug)]
pub struct SlotCard {
    /// Image corners, the card's own top-left first.
    pub corners: [[f64; 2]; 4],
    /// (slot 0–4, row 0 near / 1 far) where it was last seen.
    pub last_cell: Option<(u8, u8)>,
}

/// The Duel table: its mat, and without it the 陣地 from the units.
pub struct DuelTable {
    units: HashSet<String>,
    territories: HashSet<String>,
}

impl DuelTable {
    pub fn new(catalogue: &Catalogue) -> DuelTable {
        let of_kind = |kind: Kind| {
            catalogue
                .cards
                .iter()
                .filter(|c| c.kind == kind)
                .map(|c| c.id.clone())
                .collect()
        };
        DuelTable {
            units: of_kind(Kind::Unit),
            territories: of_kind(Kind::Territory),
        }
    }
}

impl TableLayout for DuelTable {
    fn mats(&self) -> Vec<MatLayout> {
        vec![MatLayout::duel()]
    }

    fn frame_from_cards(
        &self,
        seen: &CardsSeen,
        near_towards: Option<[f64; 2]>,
    ) -> Result<Option<(Calibration, MatLayout)>, VisionError> {
        let named = seen.named;
        let units: Vec<SlotCard> = named
            .iter()
            .filter(|c| c.id != BACK_ID && self.units.contains(c.id))
            .map(|c| SlotCard {
                corners: c.corners,
                last_cell: c.last_cell,
            })
            .collect();
        // A back or a territory card lies only in a territory strip, never in a 陣地.
        let territories: Vec<[[f64; 2]; 4]> = named
            .iter()
            .filter(|c| c.id == BACK_ID || self.territories.contains(c.id))
            .map(|c| c.corners)
            .collect();
        let frame = duel_frame(&units, &territories, near_towards)?;
        Ok(Some((frame, MatLayout::duel())))
    }
}

/// One way to lay the 陣地 rows on the fitted lattice.
struct Candidate {
    homography: H3,
    /// The measured pitch along the candidate's own axes, mm.
    pitch_mm: [f64; 2],
    score: i32,
    remembered: i32,
}

/// Fits the Duel 陣地 (mat mm: row 0 near, row 1 far, slot 0 at the near player's left) from the
/// units in them. Units seen before keep their 陣地 when they agree; otherwise the units' span is
/// laid in the middle of the five (all five when it spans them). `territories`: cards that can
/// only be territories (backs, territory cards), which say where the strips beside the rows are
/// (a unit card laid as a territory looks like a unit). `near_towards`: the image direction from
/// the table toward the near player, as the players answered.
pub fn duel_frame(
    units: &[SlotCard],
    territories: &[[[f64; 2]; 4]],
    near_towards: Option<[f64; 2]>,
) -> Result<Calibration, VisionError> {
    let quads: Vec<[[f64; 2]; 4]> = units.iter().map(|c| c.corners).collect();
    let centres: Vec<[f64; 2]> = quads.iter().map(|q| geometry::centroid(q)).collect();
    if centres.is_empty() {
        return Ok(Calibration::None {
            reason: "no mat and no unit in a 陣地 to lay the 陣地 from".into(),
        });
    }
    let middle = geometry::centroid(&centres);
    let anchor = (0..centres.len())
        .min_by(|&a, &b| {
            let d = |i: usize| crate::detect::dist(centres[i], middle);
            d(a).total_cmp(&d(b))
        })
        .unwrap_or(0);
    let Some((h, pitch)) = lattice::fit_measured(&DUEL_LATTICE, &quads, anchor, 0)? else {
        return Ok(Calibration::None {
            reason: "degenerate unit card".into(),
        });
    };
    let candidates: Vec<Candidate> = (0..4u8)
        .map(|k| {
            let turned = geometry::mul(&lattice::quarter_turn(k), &h);
            place_rows(&turned, lattice::turned_pitch(pitch, k), units, territories)
        })
        .collect();
    let total = |c: &Candidate| c.score + 3 * c.remembered;
    let towards = |c: &Candidate| near_direction(&c.homography);
    let agrees = |c: &Candidate, want: [f64; 2]| {
        let d = towards(c);
        d[0] * want[0] + d[1] * want[1] >= AGREES_WITH_ANSWER
    };
    // The players said where near is: a fit turned a quarter from it is wrong whatever the units
    // say (where most units are tapped, they look upright to it).
    let answered: Vec<&Candidate> = match near_towards {
        Some(want) => candidates.iter().filter(|c| agrees(c, want)).collect(),
        None => Vec::new(),
    };
    let narrowed = !answered.is_empty() && answered.len() < candidates.len();
    let pool = match narrowed {
        true => answered,
        false => candidates.iter().collect(),
    };
    let best = pool.iter().map(|c| total(c)).max().unwrap_or(0);
    let tied: Vec<&Candidate> = pool.into_iter().filter(|c| total(c) == best).collect();
    let (chosen, from) = if tied.len() == 1 {
        let from = match narrowed {
            true => AlliedFrom::Asked,
            false => AlliedFrom::Remembered,
        };
        (tied[0], from)
    } else {
        let (want, from) = match near_towards {
            Some(w) => (w, AlliedFrom::Asked),
            None => ([0.0, 1.0], AlliedFrom::Guessed),
        };
        let agree = |c: &Candidate| {
            let d = towards(c);
            d[0] * want[0] + d[1] * want[1]
        };
        let Some(c) = tied.iter().max_by(|a, b| agree(a).total_cmp(&agree(b))) else {
            return Ok(Calibration::None {
                reason: "no 陣地 fit".into(),
            });
        };
        (*c, from)
    };
    Ok(Calibration::Cards {
        named_cards: units.len(),
        homography: chosen.homography,
        allied_side: AlliedSide {
            from,
            towards: towards(chosen),
        },
        pitch_mm: chosen.pitch_mm,
    })
}

/// Shifts the turned lattice so units seen before stay in their 陣地 (when most agree), else so
/// the rows hold the units (near units upright in row 0, far ones inverted in row 1), the
/// territories lie beside them and the units' span lies in the middle of the five; scores how
/// well the cards agree.
fn place_rows(
    h: &H3,
    pitch_mm: [f64; 2],
    units: &[SlotCard],
    territories: &[[[f64; 2]; 4]],
) -> Candidate {
    let p = PITCH_MM;
    let seen: Vec<((i32, i32), u8)> = units
        .iter()
        .map(|c| {
            (
                lattice::cell_of(h, &c.corners, p),
                lattice::turn_of(h, &c.corners),
            )
        })
        .collect();
    let cells: Vec<(i32, i32)> = seen.iter().map(|s| s.0).collect();
    let last: Vec<Option<(u8, u8)>> = units.iter().map(|c| c.last_cell).collect();
    let from_memory = lattice::remembered_shift(&cells, &last, MIN_REMEMBERED);
    let territory_rows: Vec<i32> = territories
        .iter()
        .map(|q| lattice::cell_of(h, q, p).1)
        .collect();
    let row_score = |shift: i32| -> i32 {
        let units: i32 = seen
            .iter()
            .map(|&((_, row), turn)| {
                let row = row + shift;
                let on = (0..ROWS).contains(&row) as i32;
                let facing = match (turn, row) {
                    (0, 0) | (2, 1) => 2,
                    (0, 1) | (2, 0) => -2,
                    _ => 0,
                };
                on + facing
            })
            .sum();
        let beside: i32 = territory_rows
            .iter()
            .map(|&row| match row + shift {
                r if (0..ROWS).contains(&r) => -2,
                // The strips reach up to two cards' depth from the rows.
                r if (-2..0).contains(&r) || (ROWS..ROWS + 2).contains(&r) => 1,
                _ => 0,
            })
            .sum();
        units + beside
    };
    let row_shift = (-8..=8)
        .max_by_key(|&s| (row_score(s), -s.abs()))
        .unwrap_or(0);
    let (lo, hi) = seen.iter().fold((i32::MAX, i32::MIN), |(lo, hi), s| {
        (lo.min(s.0 .0), hi.max(s.0 .0))
    });
    let span = hi - lo + 1;
    let col_shift = -lo + (SLOTS - span).max(0) / 2;
    let (mut col_shift, row_shift) = from_memory.unwrap_or((col_shift, row_shift));
    // A unit laid beyond the remembered end of the row (the first unit was not in the middle
    // after all): the 陣地 move the least that keeps every unit on them.
    if span <= SLOTS {
        col_shift += (-(lo + col_shift)).max(0) - (hi + col_shift - (SLOTS - 1)).max(0);
    }
    let remembered = lattice::count_remembered(&cells, &last, (col_shift, row_shift));
    let mut score = row_score(row_shift);
    for &((col, _), turn) in &seen {
        score += (0..SLOTS).contains(&(col + col_shift)) as i32;
        // Upright or inverted is the rule; tapped units the exception.
        score += (turn % 2 == 0) as i32;
    }
    Candidate {
        homography: lattice::shift_cells(h, col_shift, row_shift, p),
        pitch_mm,
        score,
        remembered,
    }
}

/// The image direction from the 陣地 rows' middle toward the near player under `h`.
pub fn near_direction(h: &H3) -> [f64; 2] {
    let middle = [SLOTS as f64 * PITCH_MM / 2.0, ROWS as f64 * PITCH_MM / 2.0];
    lattice::image_direction(h, middle, [middle[0], middle[1] - PITCH_MM])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A camera turned `yaw` degrees round the table, looking down at an angle.
    fn camera(yaw: f64) -> H3 {
        let (s, c) = yaw.to_radians().sin_cos();
        [
            [1.2 * c, -1.2 * s, 640.0],
            [-s, -c, 420.0],
            [0.0002, 0.0001, 1.0],
        ]
    }

    /// Units on (slot, row, quarter turns) seen through `to_image` (mat mm → image).
    fn seen(to_image: &H3, cells: &[(i32, i32, u8)]) -> Vec<SlotCard> {
        cells
            .iter()
            .map(|&(c, r, t)| {
                let centre = [(c as f64 + 0.5) * 100.0, (r as f64 + 0.5) * 100.0];
                SlotCard {
                    corners: lattice::corners_mm(&DUEL_LATTICE, centre, t)
                        .map(|p| geometry::apply(to_image, p)),
                    last_cell: None,
                }
            })
            .collect()
    }

    fn cells_of(cal: &Calibration, units: &[SlotCard]) -> Vec<(i32, i32, u8)> {
        let h = cal.homography().expect("a frame");
        units
            .iter()
            .map(|u| {
                let (c, r) = lattice::cell_of(h, &u.corners, 100.0);
                (c, r, lattice::turn_of(h, &u.corners))
            })
            .collect()
    }

    /// The image direction toward the near player, as the players would answer it.
    fn near_of(to_image: &H3) -> [f64; 2] {
        lattice::image_direction(
            &geometry::invert(to_image).unwrap(),
            [0.0, 100.0],
            [0.0, 0.0],
        )
    }

    /// Units on `cells` seen from each of `yaws` land there once near is answered.
    fn land_once_answered(cells: &[(i32, i32, u8)], yaws: &[f64]) {
        for &yaw in yaws {
            let to_image = camera(yaw);
            let units = seen(&to_image, cells);
            let cal = duel_frame(&units, &[], Some(near_of(&to_image))).unwrap();
            assert_eq!(cells_of(&cal, &units), cells, "yaw {yaw}");
            let Calibration::Cards { allied_side, .. } = cal else {
                panic!("cards frame");
            };
            assert_eq!(allied_side.from, AlliedFrom::Asked);
        }
    }

    #[test]
    fn a_full_table_lands_in_its_slots_whatever_the_yaw_once_near_is_answered() {
        let cells = [(0, 0, 0), (2, 0, 1), (4, 0, 0), (1, 1, 2), (3, 1, 3)];
        land_once_answered(&cells, &[0.0, 45.0, 90.0, 180.0, 250.0, 310.0]);
    }

    #[test]
    fn the_answer_holds_when_most_units_are_tapped() {
        // Four of six units sideways: turned a quarter, the fit sees them upright.
        let cells = [
            (0, 0, 1),
            (1, 0, 3),
            (2, 0, 0),
            (0, 1, 1),
            (1, 1, 3),
            (3, 1, 2),
        ];
        land_once_answered(&cells, &[0.0, 100.0, 200.0, 300.0]);
    }

    #[test]
    fn a_unit_card_laid_as_a_territory_beside_territory_cards_is_not_taken_for_a_unit() {
        let to_image = camera(20.0);
        // A far unit turned sideways, and beyond the far row a strip of territories: a unit card
        // face up among two territory cards and a back.
        let cells = [(1, 1, 1), (0, 2, 2)];
        let units = seen(&to_image, &cells);
        let strip: Vec<[[f64; 2]; 4]> = seen(&to_image, &[(1, 2, 2), (2, 2, 2), (3, 2, 2)])
            .iter()
            .map(|c| c.corners)
            .collect();
        let near = near_of(&to_image);
        // Rows and turns (which 陣地 along the row nothing on this table says).
        let rows = |cal: &Calibration| -> Vec<(i32, u8)> {
            cells_of(cal, &units)
                .iter()
                .map(|&(_, r, t)| (r, t))
                .collect()
        };
        let cal = duel_frame(&units, &strip, Some(near)).unwrap();
        assert_eq!(rows(&cal), vec![(1, 1), (2, 2)]);
        // Without the territories the unit card in the strip is a far unit, the rows one off.
        let cal = duel_frame(&units, &[], Some(near)).unwrap();
        assert_eq!(rows(&cal), vec![(0, 1), (1, 2)]);
    }

    #[test]
    fn unanswered_the_near_side_is_a_guess_and_a_lone_unit_takes_the_middle_slot() {
        let units = seen(&camera(0.0), &[(0, 1, 2)]);
        let cal = duel_frame(&units, &[], None).unwrap();
        assert!(cal.allied_side_unknown());
        // Near taken to be the image's bottom: a unit upright to the top is far; alone, it takes
        // the middle 陣地.
        assert_eq!(cells_of(&cal, &units), vec![(2, 1, 2)]);
    }

    #[test]
    fn remembered_slots_hold_when_the_span_shrinks() {
        let to_image = camera(30.0);
        let mut units = seen(&to_image, &[(4, 0, 0), (3, 1, 2)]);
        units[0].last_cell = Some((4, 0));
        units[1].last_cell = Some((3, 1));
        let cal = duel_frame(&units, &[], None).unwrap();
        assert_eq!(cells_of(&cal, &units), vec![(4, 0, 0), (3, 1, 2)]);
        let Calibration::Cards { allied_side, .. } = cal else {
            panic!("cards frame");
        };
        assert_eq!(allied_side.from, AlliedFrom::Remembered);
    }

    #[test]
    fn a_unit_beyond_the_remembered_row_end_moves_the_slots_the_least() {
        let to_image = camera(0.0);
        // Remembered in the middle; then a unit three to its left.
        let mut units = seen(&to_image, &[(3, 0, 0), (0, 0, 0)]);
        units[0].last_cell = Some((2, 0));
        let cal = duel_frame(&units, &[], None).unwrap();
        assert_eq!(cells_of(&cal, &units), vec![(3, 0, 0), (0, 0, 0)]);
    }

    #[test]
    fn no_unit_no_frame() {
        assert!(duel_frame(&[], &[], None).unwrap().homography().is_none());
    }
}
