//! The virtual board: 7 rows × 4 or 5 columns around the front-line cards.
//!
//! Rows are counted from the viewer's (Allied) side: rows 0–2 are Allied territory (row 2 nearest the
//! front), row 3 is the front line, rows 4–6 are Axis territory. Row 7 (for Allied units) and row -1
//! (for Axis units) are "纵深第4格", just past the enemy's back edge: reaching it is the breakthrough.

use crate::catalogue::Side;
use serde::{Deserialize, Serialize};
use std::fmt;

pub const ROWS: i8 = 7;
pub const FRONT_ROW: i8 = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
pub struct Cell {
    pub col: i8,
    pub row: i8,
}

impl Cell {
    pub const fn new(col: i8, row: i8) -> Cell {
        Cell { col, row }
    }

    /// The cell `(across, forward)` away in `side`'s forward direction (Axis cards face the other way,
    /// so their patterns are turned 180°).
    pub fn offset(self, side: Side, across: i8, forward: i8) -> Cell {
        match side {
            Side::Allied => Cell::new(self.col + across, self.row + forward),
            Side::Axis => Cell::new(self.col - across, self.row - forward),
        }
    }

    pub fn manhattan(self, other: Cell) -> i8 {
        (self.col - other.col).abs() + (self.row - other.row).abs()
    }

    pub fn orthogonal_neighbours(self) -> [Cell; 4] {
        [
            Cell::new(self.col, self.row + 1),
            Cell::new(self.col, self.row - 1),
            Cell::new(self.col + 1, self.row),
            Cell::new(self.col - 1, self.row),
        ]
    }

    /// Parses "B3": column letter from A, row number from 1 on the viewer's side. "B8" is the Allied
    /// breakthrough cell past row 7 and "B0" the Axis one.
    pub fn parse(s: &str) -> Option<Cell> {
        let mut chars = s.trim().chars();
        let letter = chars.next()?.to_ascii_uppercase();
        if !letter.is_ascii_uppercase() {
            return None;
        }
        let row: i8 = chars.as_str().parse().ok()?;
        if !(0..=ROWS + 1).contains(&row) {
            return None;
        }
        Some(Cell::new(letter as i8 - b'A' as i8, row - 1))
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'A' as i8 + self.col) as u8 as char,
            self.row + 1
        )
    }
}

/// The board's size and the territory arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    pub width: i8,
}

impl Geometry {
    pub fn contains(self, c: Cell) -> bool {
        (0..self.width).contains(&c.col) && (0..ROWS).contains(&c.row)
    }

    pub fn index(self, c: Cell) -> usize {
        (c.row as usize) * self.width as usize + c.col as usize
    }

    pub fn cells(self) -> impl Iterator<Item = Cell> {
        let w = self.width;
        (0..ROWS).flat_map(move |row| (0..w).map(move |col| Cell::new(col, row)))
    }

    pub fn len(self) -> usize {
        ROWS as usize * self.width as usize
    }

    pub fn is_empty(self) -> bool {
        self.width == 0
    }
}

/// Whose territory a row is, if anyone's.
pub fn territory_of(row: i8) -> Option<Side> {
    match row {
        0..=2 => Some(Side::Allied),
        4..=6 => Some(Side::Axis),
        _ => None,
    }
}

/// Depth of `cell` inside `side`'s enemy's territory: 1 next to the front, 3 at the back edge, 4 past
/// it (the breakthrough). 0 or less: not in enemy territory.
pub fn enemy_depth(side: Side, cell: Cell) -> i8 {
    match side {
        Side::Allied => cell.row - FRONT_ROW,
        Side::Axis => FRONT_ROW - cell.row,
    }
}

/// The breakthrough row for a side's units.
pub fn breakthrough_row(side: Side) -> i8 {
    match side {
        Side::Allied => ROWS,
        Side::Axis => -1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_names_round_trip() {
        assert_eq!(Cell::parse("A1"), Some(Cell::new(0, 0)));
        assert_eq!(Cell::parse("e7"), Some(Cell::new(4, 6)));
        assert_eq!(Cell::parse("B8"), Some(Cell::new(1, 7)));
        assert_eq!(Cell::parse("B0"), Some(Cell::new(1, -1)));
        assert_eq!(Cell::parse("B9"), None);
        assert_eq!(Cell::parse("7"), None);
        assert_eq!(Cell::new(2, 3).to_string(), "C4");
    }

    #[test]
    fn axis_patterns_face_the_other_way() {
        let c = Cell::new(2, 5);
        assert_eq!(c.offset(Side::Allied, 1, 1), Cell::new(3, 6));
        assert_eq!(c.offset(Side::Axis, 1, 1), Cell::new(1, 4));
    }

    #[test]
    fn depth_counts_from_the_front() {
        assert_eq!(enemy_depth(Side::Allied, Cell::new(0, 4)), 1);
        assert_eq!(enemy_depth(Side::Allied, Cell::new(0, 7)), 4);
        assert_eq!(enemy_depth(Side::Axis, Cell::new(0, 0)), 3);
        assert_eq!(enemy_depth(Side::Axis, Cell::new(0, 5)), -2);
    }
}
