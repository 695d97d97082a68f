//! What the scanner keeps between frames of one table: the cells named cards were last seen in (so a
//! refit after a bumped camera, a hand over some cards or an emptied first column keeps the grid
//! where the cards are), the last frame, small, to tell fast motion, and the table as it was learnt,
//! to tell a hand held still.

use crate::VisionError;
use opencv::core::{Mat, Size};
use opencv::imgproc;
use opencv::prelude::*;
use std::collections::HashMap;

/// Motion (and a hand held still) is judged on frames shrunk to this width.
pub(crate) const SMALL_W: i32 = 160;
/// A small-frame pixel that changed by more than this (of 255) moved.
const MOVED_LEVEL: f64 = 28.0;
/// More than this share of moved pixels is fast motion: a hand, a bumped camera, cards being laid.
const MOTION_SHARE: f64 = 0.02;

#[derive(Default)]
pub struct TableMemory {
    /// Card id → (col, row) of its cell when last seen.
    pub cells: HashMap<String, (u8, u8)>,
    last_small: Option<Mat>,
    hands: crate::hands::HandWatch,
}

impl TableMemory {
    pub fn new() -> TableMemory {
        TableMemory::default()
    }

    /// Fast motion since the last frame, and a hand (moving or held still, see [`crate::hands`])
    /// over the table in `bgr`, both judged on one shrunk copy of the frame.
    pub fn watch(&mut self, bgr: &Mat) -> Result<(bool, bool), VisionError> {
        if bgr.cols() <= 0 || bgr.rows() <= 0 || bgr.channels() != 3 {
            return Ok((false, false));
        }
        let small = shrink_to_width(bgr, SMALL_W)?;
        let mut gray = Mat::default();
        imgproc::cvt_color(&small, &mut gray, imgproc::COLOR_BGR2GRAY, 0)?;
        Ok((self.moved_small(gray)?, self.hands.hand_in_small(&small)?))
    }

    /// Whether much of `gray` changed since the last frame given here (the first never has).
    pub fn moved(&mut self, gray: &Mat) -> Result<bool, VisionError> {
        let (w, h) = (gray.cols(), gray.rows());
        if w <= 0 || h <= 0 {
            return Ok(false);
        }
        self.moved_small(shrink_to_width(gray, SMALL_W)?)
    }

    /// [`TableMemory::moved`] on the frame already shrunk to [`SMALL_W`] (grey).
    fn moved_small(&mut self, small: Mat) -> Result<bool, VisionError> {
        let small_h = small.rows();
        let moved = match &self.last_small {
            Some(last) if last.size()? == small.size()? => {
                let mut diff = Mat::default();
                opencv::core::absdiff(last, &small, &mut diff)?;
                let mut mask = Mat::default();
                imgproc::threshold(&diff, &mut mask, MOVED_LEVEL, 255.0, imgproc::THRESH_BINARY)?;
                let share =
                    opencv::core::count_non_zero(&mask)? as f64 / (SMALL_W * small_h) as f64;
                share > MOTION_SHARE
            }
            _ => false,
        };
        self.last_small = Some(small);
        Ok(moved)
    }
}

/// `image` shrunk (area-averaged) to `width` pixels, its aspect kept.
pub(crate) fn shrink_to_width(image: &Mat, width: i32) -> Result<Mat, VisionError> {
    let (w, h) = (image.cols().max(1), image.rows());
    let small_h = ((h as f64 * width as f64 / w as f64).round() as i32).max(1);
    let mut small = Mat::default();
    imgproc::resize(
        image,
        &mut small,
        Size::new(width, small_h),
        0.0,
        0.0,
        imgproc::INTER_AREA,
    )?;
    Ok(small)
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Rect, Scalar, CV_8UC1};

    #[test]
    fn a_still_table_does_not_move_a_hand_does() {
        let table = Mat::new_rows_cols_with_default(720, 1280, CV_8UC1, Scalar::all(90.0)).unwrap();
        let mut m = TableMemory::new();
        assert!(
            !m.moved(&table).unwrap(),
            "the first frame has nothing to compare with"
        );
        assert!(!m.moved(&table).unwrap());
        let mut hand = table.clone();
        imgproc::rectangle(
            &mut hand,
            Rect::new(300, 200, 260, 320),
            Scalar::all(200.0),
            -1,
            imgproc::LINE_8,
            0,
        )
        .unwrap();
        assert!(m.moved(&hand).unwrap());
        assert!(!m.moved(&hand).unwrap(), "still again");
        // One card's worth of change (a card laid) is not fast motion.
        let mut card = hand.clone();
        imgproc::rectangle(
            &mut card,
            Rect::new(900, 100, 40, 56),
            Scalar::all(20.0),
            -1,
            imgproc::LINE_8,
            0,
        )
        .unwrap();
        assert!(!m.moved(&card).unwrap());
    }
}
