//! What a game tells the scanner about its table, so the scanner core (detect, identify, orient,
//! frame) knows no game: the mats the game prints, how to fit its frame from the named cards when
//! no mat is seen, and what a grid position is called. Each game's is in `games/<game>`.

use crate::geometry::H3;
use crate::mats::MatLayout;
use crate::types::{Calibration, Cell, DuelSide};
use crate::VisionError;

/// A named card as a frame fit sees it.
#[derive(Clone, Copy, Debug)]
pub struct NamedCard<'a> {
    pub id: &'a str,
    /// Image corners, the card's own top-left first.
    pub corners: [[f64; 2]; 4],
    /// The grid cell (col, row) this card was in when last seen, in earlier frames of the table.
    pub last_cell: Option<(u8, u8)>,
}

/// What a frame fit from the cards has to go on in one frame.
#[derive(Clone, Copy, Debug)]
pub struct CardsSeen<'a> {
    pub named: &'a [NamedCard<'a>],
    /// Outlines of cards seen but not named (under a hand, too far), which may say how far the
    /// grid reaches but not how it lies.
    pub unnamed: &'a [[[f64; 2]; 4]],
    /// The frame's width and height, pixels.
    pub image_size: [f64; 2],
}

pub trait TableLayout: Send + Sync {
    /// The mats whose markers give the frame.
    fn mats(&self) -> Vec<MatLayout>;

    /// Whether a mat fit from fewer than three markers (the rest of the mat extrapolated) agrees
    /// with the named cards; if not, the cards fit the frame themselves.
    fn trusts_sparse_mat(&self, _h: &H3, _mat: &MatLayout, _named: &[NamedCard]) -> bool {
        true
    }

    /// Whether an empty cell far from the camera (seen too small for the learned detector) is worth
    /// a second, closer look ([`crate::far_cells`]): where the game's cards fill most of its grid,
    /// an empty far cell is more likely a card missed than no card.
    fn far_cells_worth_a_look(&self) -> bool {
        false
    }

    /// Quarter turns from the table's frame to the owner's view of card `id` lying in `cell` (2 for
    /// a card of the player across the table: a Duel unit in a far 陣地, by default).
    fn owner_turns(&self, _id: &str, cell: Option<Cell>) -> u8 {
        match cell {
            Some(Cell::Duel {
                side: DuelSide::Far,
                ..
            }) => 2,
            _ => 0,
        }
    }

    /// The frame and grid from the cards seen when no mat was seen; `None` when this game places
    /// cards only with its mat. `allied_towards`: the players' answer to which side is whose.
    fn frame_from_cards(
        &self,
        seen: &CardsSeen,
        allied_towards: Option<[f64; 2]>,
    ) -> Result<Option<(Calibration, MatLayout)>, VisionError>;
}

/// A game that places cards only on its printed mat (陣面對決's 陣地), or not at all (风声 reads
/// seat regions instead).
pub struct MatOnly {
    pub mats: Vec<MatLayout>,
}

impl TableLayout for MatOnly {
    fn mats(&self) -> Vec<MatLayout> {
        self.mats.clone()
    }

    fn frame_from_cards(
        &self,
        _seen: &CardsSeen,
        _allied_towards: Option<[f64; 2]>,
    ) -> Result<Option<(Calibration, MatLayout)>, VisionError> {
        Ok(None)
    }
}

/// The game's name for a grid cell: Blitz (col, row); Duel (side, 陣地 1–5 from the near player's
/// left) on the two-row Duel mat.
pub fn grid_cell(layout: &MatLayout, col: u8, row: u8) -> Cell {
    if layout.front_row.is_none() && layout.rows == 2 {
        let side = if row == 0 {
            DuelSide::Near
        } else {
            DuelSide::Far
        };
        Cell::Duel {
            side,
            slot: col + 1,
        }
    } else {
        Cell::Blitz { col, row }
    }
}
