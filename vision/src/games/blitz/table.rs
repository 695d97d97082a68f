//! The Blitz table as the scanner sees it: its mats, and without one the grid from the front-line,
//! Allied and Axis cards (`frame.rs`).

use super::frame::{blitz_frame, BlitzRole, GridCard, GridSeen};
use crate::geometry::{self, H3};
use crate::identify::ReferenceSet;
use crate::mats::MatLayout;
use crate::pipeline::{Scanner, ScannerOptions};
use crate::table::{CardsSeen, NamedCard, TableLayout};
use crate::VisionError;
use blitz::catalogue::{CardKind, Catalogue, Side};
use std::collections::HashMap;

pub struct BlitzTable {
    roles: HashMap<String, BlitzRole>,
    cols: u8,
}

impl BlitzTable {
    /// The grid `cols` wide (4 for two players, 5 for four), the cards' roles from `catalogue`.
    pub fn new(catalogue: &Catalogue, cols: u8) -> BlitzTable {
        let roles = catalogue
            .cards
            .iter()
            .map(|c| {
                let role = match (&c.kind, c.faction.map(|f| f.side())) {
                    (CardKind::Frontline, _) => BlitzRole::FrontLine,
                    (_, Some(Side::Allied)) => BlitzRole::Allied,
                    (_, Some(Side::Axis)) => BlitzRole::Axis,
                    _ => BlitzRole::Other,
                };
                (c.id.clone(), role)
            })
            .collect();
        BlitzTable { roles, cols }
    }

    fn role(&self, id: &str) -> BlitzRole {
        self.roles.get(id).copied().unwrap_or(BlitzRole::Other)
    }
}

impl TableLayout for BlitzTable {
    fn mats(&self) -> Vec<MatLayout> {
        MatLayout::all()
    }

    /// Every named card on the grid and every named front-line card on the front row.
    fn trusts_sparse_mat(&self, h: &H3, mat: &MatLayout, named: &[NamedCard]) -> bool {
        let Some(front_row) = mat.front_row else {
            return true;
        };
        named.iter().all(|c| {
            match mat.cell_of(geometry::apply(h, geometry::centroid(&c.corners))) {
                None => false,
                Some((_, row)) => self.role(c.id) != BlitzRole::FrontLine || row == front_row,
            }
        })
    }

    /// A board fills most of its grid (the front row whole, most other cells taken).
    fn far_cells_worth_a_look(&self) -> bool {
        true
    }

    fn owner_turns(&self, id: &str, _cell: Option<crate::Cell>) -> u8 {
        match self.role(id) {
            BlitzRole::Axis => 2,
            _ => 0,
        }
    }

    fn frame_from_cards(
        &self,
        seen: &CardsSeen,
        allied_towards: Option<[f64; 2]>,
    ) -> Result<Option<(crate::Calibration, MatLayout)>, VisionError> {
        let cards: Vec<GridCard> = seen
            .named
            .iter()
            .map(|c| GridCard {
                corners: c.corners,
                role: self.role(c.id),
                last_cell: c.last_cell,
            })
            .collect();
        let calibration = blitz_frame(
            &GridSeen {
                cards: &cards,
                unnamed: seen.unnamed,
                image_size: seen.image_size,
            },
            self.cols,
            allied_towards,
        )?;
        Ok(Some((calibration, MatLayout::blitz(self.cols))))
    }
}

impl Scanner {
    /// A scanner for the Blitz catalogue's printed faces.
    pub fn new(catalogue: &Catalogue, options: ScannerOptions) -> Result<Scanner, VisionError> {
        let refs = ReferenceSet::from_catalogue(&catalogue.cards)?;
        Ok(Scanner::with_refs(catalogue, refs, options))
    }

    /// A Blitz scanner with `refs` (the catalogue's faces and any enrolled prints).
    pub fn with_refs(
        catalogue: &Catalogue,
        refs: ReferenceSet,
        options: ScannerOptions,
    ) -> Scanner {
        let table = BlitzTable::new(catalogue, options.cols);
        Scanner::with_table(refs, Box::new(table), options)
    }
}
