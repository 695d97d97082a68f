//! A hand held still over the table: fast motion is seen by comparing frames, but a hand that
//! stops over a card changes nothing from one frame to the next. It still differs from the table
//! as it was, and it is skin-coloured. So each frame (shrunk) is compared with a slowly learnt
//! picture of the table, and a large skin-coloured blob where the table changed is a hand.
//!
//! Skin is judged in YCrCb with the ranges of Chai & Ngan (1999, "Face segmentation using
//! skin-colour map"), widened a little for webcam colour casts; they were not tuned on our scenes.
//! Wood and card art can be skin-coloured too, which is why only a change from the learnt table
//! counts: the table itself never is a hand, and a newly laid card is too small to be one.

use crate::VisionError;
use opencv::core::{Mat, Scalar, Size, Vector, CV_32FC3, CV_8UC1};
use opencv::imgproc;
use opencv::prelude::*;

/// Frames are judged shrunk to this width (the motion check's own small copy, shared).
pub(crate) const SMALL_W: i32 = crate::memory::SMALL_W;
const SKIN_CR: (f64, f64) = (133.0, 178.0);
const SKIN_CB: (f64, f64) = (75.0, 130.0);
/// Darker than this is shadow, whatever its hue.
const SKIN_MIN_Y: f64 = 45.0;
/// A pixel differs from the learnt table by more than this (of 255, largest channel).
const CHANGED_LEVEL: f64 = 40.0;
/// A hand's skin covers at least this share of the frame (a palm seen from 1 m and more is
/// 0.3–5 %); what tells it from a skin-coloured card laid is the arm it hangs on, reaching in from
/// the frame's edge.
const HAND_SHARE: f64 = 0.002;
/// How fast the learnt table follows what is not a hand (per frame): a card laid is learnt in
/// about twenty frames.
const LEARN_RATE: f64 = 0.1;
/// How fast it follows what looks like a hand: a hand held still for a hundred frames and more,
/// or a patch of another colour than the table's that the first frame learnt under a hand, is
/// learnt in the end.
const LEARN_RATE_UNDER_HAND: f64 = 0.003;
/// A blob mostly this close in colour (of 255, each channel) to the table's own is the table
/// seen again where a hand was, not a hand.
const TABLE_COLOUR_CLOSE: f64 = 30.0;
/// The table's own colour is read in this outer band of the learnt picture (share of each side).
const TABLE_BAND: f64 = 0.1;

#[derive(Default)]
pub struct HandWatch {
    /// The learnt table, small, float BGR.
    table: Option<Mat>,
}

impl HandWatch {
    /// Whether a hand (moving or still) is over the table in `bgr`; learns the frame, apart from
    /// the hand. The first frame only teaches the table.
    pub fn hand_in_view(&mut self, bgr: &Mat) -> Result<bool, VisionError> {
        let (w, h) = (bgr.cols(), bgr.rows());
        if w <= 0 || h <= 0 || bgr.channels() != 3 {
            return Ok(false);
        }
        self.hand_in_small(&crate::memory::shrink_to_width(bgr, SMALL_W)?)
    }

    /// [`HandWatch::hand_in_view`] on the frame already shrunk to [`SMALL_W`] (BGR).
    pub(crate) fn hand_in_small(&mut self, small: &Mat) -> Result<bool, VisionError> {
        let small_h = small.rows();
        let mut now = Mat::default();
        small.convert_to(&mut now, CV_32FC3, 1.0, 0.0)?;
        let Some(table) = self
            .table
            .as_mut()
            .filter(|t| t.size().ok() == now.size().ok())
        else {
            self.table = Some(now);
            return Ok(false);
        };
        let (hand, changed) = hand_mask(small, &now, table)?;
        let (area, blob) = largest_blob(&hand)?;
        let share = area as f64 / (SMALL_W * small_h) as f64;
        let is_hand = share > HAND_SHARE
            && reaches_the_edge(&changed, &blob)?
            && !looks_like_table(&now, table, &blob)?;
        let mut learn = Mat::default();
        opencv::core::bitwise_not(&hand, &mut learn, &opencv::core::no_array())?;
        imgproc::accumulate_weighted(&now, table, LEARN_RATE, &learn)?;
        imgproc::accumulate_weighted(&now, table, LEARN_RATE_UNDER_HAND, &hand)?;
        Ok(is_hand)
    }
}

/// Skin-coloured pixels of `small` that differ from the learnt `table`, opened to drop specks;
/// and every pixel that differs.
fn hand_mask(small: &Mat, now: &Mat, table: &Mat) -> Result<(Mat, Mat), VisionError> {
    let mut ycrcb = Mat::default();
    imgproc::cvt_color(small, &mut ycrcb, imgproc::COLOR_BGR2YCrCb, 0)?;
    let mut skin = Mat::default();
    opencv::core::in_range(
        &ycrcb,
        &Scalar::new(SKIN_MIN_Y, SKIN_CR.0, SKIN_CB.0, 0.0),
        &Scalar::new(255.0, SKIN_CR.1, SKIN_CB.1, 0.0),
        &mut skin,
    )?;
    let mut diff = Mat::default();
    opencv::core::absdiff(now, table, &mut diff)?;
    let mut channels = Vector::<Mat>::new();
    opencv::core::split(&diff, &mut channels)?;
    let mut most = channels.get(0)?;
    for c in 1..channels.len() {
        let mut m = Mat::default();
        opencv::core::max(&most, &channels.get(c)?, &mut m)?;
        most = m;
    }
    let mut changed = Mat::default();
    imgproc::threshold(
        &most,
        &mut changed,
        CHANGED_LEVEL,
        255.0,
        imgproc::THRESH_BINARY,
    )?;
    let mut changed8 = Mat::default();
    changed.convert_to(&mut changed8, CV_8UC1, 1.0, 0.0)?;
    let mut both = Mat::default();
    opencv::core::bitwise_and(&skin, &changed8, &mut both, &opencv::core::no_array())?;
    let kernel = imgproc::get_structuring_element(
        imgproc::MORPH_ELLIPSE,
        Size::new(3, 3),
        opencv::core::Point::new(-1, -1),
    )?;
    let mut opened = Mat::default();
    imgproc::morphology_ex(
        &both,
        &mut opened,
        imgproc::MORPH_OPEN,
        &kernel,
        opencv::core::Point::new(-1, -1),
        1,
        opencv::core::BORDER_CONSTANT,
        imgproc::morphology_default_border_value()?,
    )?;
    Ok((opened, changed8))
}

/// Whether the changed region holding `blob` reaches the frame's edge (an arm reaching in).
fn reaches_the_edge(changed: &Mat, blob: &Mat) -> Result<bool, VisionError> {
    let crate::components::Components { labels, parts } =
        crate::components::components(changed, 8)?;
    let (w, h) = (changed.cols(), changed.rows());
    let mut held = vec![false; parts.len()];
    for y in 0..h {
        for x in 0..w {
            if *blob.at_2d::<u8>(y, x)? != 0 {
                let l = *labels.at_2d::<i32>(y, x)?;
                if let Some(f) = held.get_mut(l as usize) {
                    *f = true;
                }
            }
        }
    }
    Ok(parts
        .iter()
        .zip(&held)
        .skip(1)
        .any(|(p, &held)| held && p.touches_edge(w, h)))
}

/// The largest 8-connected blob of `mask`: its pixel count and its own mask.
fn largest_blob(mask: &Mat) -> Result<(i32, Mat), VisionError> {
    let crate::components::Components { labels, parts } = crate::components::components(mask, 8)?;
    let (mut best, mut label) = (0, 0);
    for (i, p) in parts.iter().enumerate().skip(1) {
        if p.area > best {
            (best, label) = (p.area, i);
        }
    }
    let mut blob = Mat::default();
    opencv::core::compare(
        &labels,
        &Scalar::all(label as f64),
        &mut blob,
        opencv::core::CMP_EQ,
    )?;
    Ok((best, blob))
}

/// Whether most of the blob in `now` has the table's own colour (the learnt picture's median in
/// its outer band): the table seen again where a hand lay when it was learnt.
fn looks_like_table(now: &Mat, table: &Mat, blob: &Mat) -> Result<bool, VisionError> {
    let (w, h) = (table.cols(), table.rows());
    let (bx, by) = (
        ((w as f64 * TABLE_BAND) as i32).max(1),
        ((h as f64 * TABLE_BAND) as i32).max(1),
    );
    let mut samples: [Vec<f32>; 3] = Default::default();
    for y in 0..h {
        for x in 0..w {
            if x >= bx && x < w - bx && y >= by && y < h - by {
                continue;
            }
            let p = table.at_2d::<opencv::core::Vec3f>(y, x)?;
            for (c, s) in samples.iter_mut().enumerate() {
                s.push(p[c]);
            }
        }
    }
    let mut colour = [0.0f32; 3];
    for (c, s) in samples.iter_mut().enumerate() {
        s.sort_by(f32::total_cmp);
        colour[c] = s.get(s.len() / 2).copied().unwrap_or(0.0);
    }
    let (mut like, mut all) = (0usize, 0usize);
    for y in 0..h {
        for x in 0..w {
            if *blob.at_2d::<u8>(y, x)? == 0 {
                continue;
            }
            all += 1;
            let p = now.at_2d::<opencv::core::Vec3f>(y, x)?;
            like += (0..3).all(|c| ((p[c] - colour[c]).abs() as f64) < TABLE_COLOUR_CLOSE) as usize;
        }
    }
    Ok(2 * like > all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Point, Rect, CV_8UC3};

    fn table() -> Mat {
        let mut t = Mat::new_rows_cols_with_default(
            720,
            1280,
            CV_8UC3,
            Scalar::new(60.0, 110.0, 170.0, 0.0),
        )
        .unwrap();
        // A wood-coloured table (itself skin-like) with a grey card on it.
        imgproc::rectangle(
            &mut t,
            Rect::new(500, 300, 90, 126),
            Scalar::all(200.0),
            -1,
            imgproc::LINE_8,
            0,
        )
        .unwrap();
        t
    }

    fn with_hand(t: &Mat) -> Mat {
        let mut h = t.clone();
        imgproc::rectangle(
            &mut h,
            Rect::new(560, 420, 140, 300),
            Scalar::new(60.0, 40.0, 120.0, 0.0),
            -1,
            imgproc::LINE_8,
            0,
        )
        .unwrap();
        imgproc::ellipse(
            &mut h,
            Point::new(600, 380),
            Size::new(80, 104),
            10.0,
            0.0,
            360.0,
            Scalar::new(120.0, 155.0, 210.0, 0.0),
            -1,
            imgproc::LINE_8,
            0,
        )
        .unwrap();
        h
    }

    #[test]
    fn a_skin_coloured_table_is_no_hand_a_still_hand_over_it_is() {
        let t = table();
        let mut w = HandWatch::default();
        assert!(!w.hand_in_view(&t).unwrap(), "the first frame only teaches");
        assert!(!w.hand_in_view(&t).unwrap(), "the table is not a hand");
        let h = with_hand(&t);
        for i in 0..30 {
            assert!(w.hand_in_view(&h).unwrap(), "frame {i} of a still hand");
        }
        // Gone: the table again.
        assert!(!w.hand_in_view(&t).unwrap());
    }

    #[test]
    fn a_hand_in_the_first_frame_is_not_seen_for_ever_once_it_left() {
        let t = table();
        let mut w = HandWatch::default();
        w.hand_in_view(&with_hand(&t)).unwrap();
        // The table where the hand was differs from what was learnt, and wood is skin-coloured:
        // it is still the table's own colour.
        for i in 0..5 {
            assert!(
                !w.hand_in_view(&t).unwrap(),
                "frame {i} after the hand left"
            );
        }
    }

    #[test]
    fn a_card_laid_is_no_hand() {
        let t = table();
        let mut w = HandWatch::default();
        w.hand_in_view(&t).unwrap();
        let mut laid = t.clone();
        // A card with skin-coloured art, laid.
        imgproc::rectangle(
            &mut laid,
            Rect::new(800, 200, 90, 126),
            Scalar::new(120.0, 155.0, 210.0, 0.0),
            -1,
            imgproc::LINE_8,
            0,
        )
        .unwrap();
        for _ in 0..5 {
            assert!(!w.hand_in_view(&laid).unwrap());
        }
    }
}
