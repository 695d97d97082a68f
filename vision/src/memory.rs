//! What the scanner keeps between frames of one table: the cells named cards were last seen in (so a
//! refit after a bumped camera, a hand over some cards or an emptied first column keeps the grid
//! where the cards are), the last frame, small, to tell fast motion, and the table as it was learnt,
//! to tell a hand held still; and the frame last scanned with what it showed, so that a frame in
//! which nothing changed is not scanned again (change gating).

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

/// Change gating compares the frame with the last one scanned in tiles of this many shrunk pixels
/// square (32 px of a 1280-wide frame: less than a far card).
pub const GATE_TILE: i32 = 4;
/// A tile whose shrunk pixels changed by more than this on average (of 255) since the last scan is
/// a change there: the frame is scanned again. Sensor noise and JPEG moves a shrunk pixel by about
/// 1; a card laid, moved, turned or swapped for another moves its tiles by tens.
pub const GATE_LEVEL: f64 = 5.0;

/// The frame last scanned (shrunk, grey), what the scan saw, and the Allied side the scan was
/// told (an answer given since must be scanned with).
struct Scanned {
    small: Mat,
    observation: crate::TableObservation,
    allied_towards: Option<[f64; 2]>,
    /// What the scan made of each quad it identified.
    identified: Vec<IdentifiedQuad>,
    /// The scan looked with every detector (a frame in motion skips the learned one), so the
    /// same frame again may take its observation.
    whole: bool,
}

/// A frame against the one last scanned.
pub(crate) enum SinceScan {
    /// Nothing changed: that scan's observation.
    Same(Box<crate::TableObservation>),
    /// Something changed: that scan's quads, to take again where nothing changed under them.
    Changed(Unchanged),
    /// Nothing to compare with: no scan yet, another frame size or another Allied side.
    Unknown,
}

/// A quad the last scan identified (its points in the frame), what it made of it, and how many
/// scans in a row have taken that again.
#[derive(Clone, Debug)]
pub(crate) struct IdentifiedQuad {
    pub(crate) quad: [[f64; 2]; 4],
    pub(crate) found: Option<crate::pipeline::Found>,
    pub(crate) taken_again: u32,
}

/// A quad is identified afresh after being taken again this many scans in a row: each scan
/// compares with the one before, so a slow change (light fading) could otherwise creep past the
/// gate unseen.
const MAX_TAKEN_AGAIN: u32 = 8;

/// A quad found again within this many pixels at every corner is the same quad.
const SAME_QUAD_PX: f64 = 1.5;

/// The last scan's quads, to be taken again where the frame has not changed under them.
pub(crate) struct Unchanged {
    /// Mean change of each gate tile since the last scan (of 255).
    per_tile: Mat,
    /// A tile's size in the frame's pixels, x and y.
    tile_px: [f64; 2],
    identified: Vec<IdentifiedQuad>,
}

impl Unchanged {
    /// What the last scan made of `quad` when it found the same quad (taken again fewer than
    /// [`MAX_TAKEN_AGAIN`] times) and no gate tile under it changed by more than [`GATE_LEVEL`]
    /// since; `None`: identify it again.
    pub(crate) fn identified(&self, quad: &[[f64; 2]; 4]) -> Option<&IdentifiedQuad> {
        let found = self.identified.iter().find(|q| {
            q.taken_again < MAX_TAKEN_AGAIN
                && q.quad
                    .iter()
                    .zip(quad)
                    .all(|(a, b)| (a[0] - b[0]).hypot(a[1] - b[1]) <= SAME_QUAD_PX)
        })?;
        let (cols, rows) = (self.per_tile.cols(), self.per_tile.rows());
        let span = |k: usize, n: i32| {
            let (lo, hi) = quad
                .iter()
                .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p[k]), b.max(p[k])));
            let t = self.tile_px[k];
            (
                ((lo / t).floor() as i32).clamp(0, n - 1),
                ((hi / t).floor() as i32).clamp(0, n - 1),
            )
        };
        let ((x0, x1), (y0, y1)) = (span(0, cols), span(1, rows));
        for y in y0..=y1 {
            for x in x0..=x1 {
                if f64::from(*self.per_tile.at_2d::<u8>(y, x).ok()?) > GATE_LEVEL {
                    return None;
                }
            }
        }
        Some(found)
    }
}

#[derive(Default)]
pub struct TableMemory {
    /// Card id → (col, row) of its cell when last seen.
    pub cells: HashMap<String, (u8, u8)>,
    last_small: Option<Mat>,
    hands: crate::hands::HandWatch,
    scanned: Option<Scanned>,
}

impl TableMemory {
    pub fn new() -> TableMemory {
        TableMemory::default()
    }

    /// Fast motion since the last frame, and a hand (moving or held still, see [`crate::hands`])
    /// over the table, both judged on the frame's one shrunk copy (no hand without colour).
    pub fn watch(&mut self, small: &Small) -> Result<(bool, bool), VisionError> {
        let Some(bgr) = &small.bgr else {
            return Ok((false, false));
        };
        Ok((
            self.moved_small(small.grey.clone())?,
            self.hands.hand_in_small(bgr)?,
        ))
    }

    /// `image` (the frame's shrunk copy; the frame is `frame_size`, cols and rows) against the
    /// frame last scanned with the same `allied_towards`: the same when no tile of the two shrunk
    /// copies differs by more than [`GATE_LEVEL`], else changed (the last scan's quads are taken
    /// out: the scan under way leaves its own).
    pub(crate) fn since_scan(
        &mut self,
        image: &Small,
        frame_size: [i32; 2],
        allied_towards: Option<[f64; 2]>,
    ) -> Result<SinceScan, VisionError> {
        let Some(scanned) = self.scanned.as_mut() else {
            return Ok(SinceScan::Unknown);
        };
        let Some(per_tile) = tile_changes(scanned, image, allied_towards)? else {
            return Ok(SinceScan::Unknown);
        };
        let mut most = 0.0;
        opencv::core::min_max_loc(
            &per_tile,
            None,
            Some(&mut most),
            None,
            None,
            &opencv::core::no_array(),
        )?;
        if most <= GATE_LEVEL && scanned.whole {
            return Ok(SinceScan::Same(Box::new(scanned.observation.clone())));
        }
        let tile_px = [
            f64::from(frame_size[0]) / f64::from(per_tile.cols().max(1)),
            f64::from(frame_size[1]) / f64::from(per_tile.rows().max(1)),
        ];
        Ok(SinceScan::Changed(Unchanged {
            per_tile,
            tile_px,
            identified: std::mem::take(&mut scanned.identified),
        }))
    }

    /// Remembers `image` as the frame last scanned, with what the scan saw and made of each quad,
    /// and whether it looked with every detector (`whole`).
    pub(crate) fn scanned(
        &mut self,
        image: &Small,
        observation: &crate::TableObservation,
        allied_towards: Option<[f64; 2]>,
        identified: Vec<IdentifiedQuad>,
        whole: bool,
    ) {
        self.scanned = Some(Scanned {
            small: image.grey.clone(),
            observation: observation.clone(),
            allied_towards,
            identified,
            whole,
        });
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

/// Each gate tile's mean change since `scanned` (of 255); `None` when it cannot be compared
/// (another frame size or another Allied side).
fn tile_changes(
    scanned: &Scanned,
    image: &Small,
    allied_towards: Option<[f64; 2]>,
) -> Result<Option<Mat>, VisionError> {
    if scanned.allied_towards != allied_towards {
        return Ok(None);
    }
    let small = &image.grey;
    if small.empty() || small.size()? != scanned.small.size()? {
        return Ok(None);
    }
    let mut diff = Mat::default();
    opencv::core::absdiff(&scanned.small, small, &mut diff)?;
    let tiles = Size::new(
        (small.cols() / GATE_TILE).max(1),
        (small.rows() / GATE_TILE).max(1),
    );
    let mut per_tile = Mat::default();
    imgproc::resize(&diff, &mut per_tile, tiles, 0.0, 0.0, imgproc::INTER_AREA)?;
    Ok(Some(per_tile))
}

/// A frame shrunk once to [`SMALL_W`]: what change gating, motion and the hand watch all judge.
pub struct Small {
    /// In colour; `None` when the frame was grey (no hand can be told without colour).
    bgr: Option<Mat>,
    grey: Mat,
}

impl Small {
    /// `image` (BGR or grey) shrunk to [`SMALL_W`]; an empty image gives an empty copy, which
    /// nothing matches and nothing moves in.
    pub fn of(image: &Mat) -> Result<Small, VisionError> {
        if image.cols() <= 0 || image.rows() <= 0 {
            return Ok(Small {
                bgr: None,
                grey: Mat::default(),
            });
        }
        let mut small = shrink_to_width(image, SMALL_W)?;
        if small.channels() == 1 {
            return Ok(Small {
                bgr: None,
                grey: small,
            });
        }
        if small.channels() == 4 {
            let mut bgr = Mat::default();
            imgproc::cvt_color(&small, &mut bgr, imgproc::COLOR_BGRA2BGR, 0)?;
            small = bgr;
        }
        let mut grey = Mat::default();
        imgproc::cvt_color(&small, &mut grey, imgproc::COLOR_BGR2GRAY, 0)?;
        Ok(Small {
            bgr: Some(small),
            grey,
        })
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
    fn a_frame_is_shrunk_once_to_grey_and_colour_whatever_its_channels() {
        for (channels, kind) in [
            (1, opencv::core::CV_8UC1),
            (3, opencv::core::CV_8UC3),
            (4, opencv::core::CV_8UC4),
        ] {
            let frame =
                Mat::new_rows_cols_with_default(720, 1280, kind, Scalar::all(90.0)).unwrap();
            let small = Small::of(&frame).unwrap();
            assert_eq!(small.grey.channels(), 1, "{channels} channels");
            assert_eq!(small.grey.cols(), SMALL_W);
            assert_eq!(
                small.bgr.as_ref().map(|m| m.channels()),
                (channels != 1).then_some(3),
                "{channels} channels"
            );
        }
        let empty = Small::of(&Mat::default()).unwrap();
        assert!(empty.grey.empty() && empty.bgr.is_none());
    }

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
