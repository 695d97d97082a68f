//! ORB keypoints as a card identifier (issue 8's baseline): each reference face's binary descriptors
//! in one brute-force Hamming index; a crop's descriptors vote for the reference their nearest
//! neighbour belongs to, when that neighbour clearly beats the second nearest (Lowe's ratio test).

use crate::geometry;
use crate::identifier::Verdict;
use crate::VisionError;
use opencv::core::{no_array, DMatch, KeyPoint, Mat, Ptr, Size, Vector, NORM_HAMMING};
use opencv::features2d::{BFMatcher, ORB_ScoreType, ORB};
use opencv::imgproc::{self, INTER_AREA, INTER_LINEAR};
use opencv::prelude::*;
use std::sync::Mutex;

/// Crop size the keypoints are found in: 2 px per mm of the 63 × 88 mm card.
const CROP_W: i32 = 126;
const CROP_H: i32 = 176;
/// About the card's size in a 1280 × 720 frame: references pass through it so both sides are as soft.
const SEEN_W: i32 = 48;
const SEEN_H: i32 = 67;
const RATIO: f32 = 0.8;
/// A card is named with at least this many votes and twice the runner-up's.
const MIN_VOTES: usize = 8;

pub struct OrbIndex {
    cards: Vec<String>,
    /// Every reference descriptor, one per row, and the card each row belongs to.
    train: Mat,
    row_card: Vec<usize>,
    // OpenCV's detector mutates itself while working, and neither it nor the matcher may be shared
    // between threads unguarded; the scanner is.
    tools: Mutex<(Ptr<ORB>, Ptr<BFMatcher>)>,
}

fn detector() -> Result<Ptr<ORB>, VisionError> {
    Ok(ORB::create(
        300,
        1.2,
        4,
        15,
        0,
        2,
        ORB_ScoreType::HARRIS_SCORE,
        15,
        10,
    )?)
}

fn describe(orb: &mut Ptr<ORB>, crop: &Mat) -> Result<Mat, VisionError> {
    let mut gray = Mat::default();
    imgproc::cvt_color(crop, &mut gray, imgproc::COLOR_BGR2GRAY, 0)?;
    let mut keypoints = Vector::<KeyPoint>::new();
    let mut descriptors = Mat::default();
    orb.detect_and_compute(&gray, &no_array(), &mut keypoints, &mut descriptors, false)?;
    Ok(descriptors)
}

fn resized(src: &Mat, w: i32, h: i32, interpolation: i32) -> Result<Mat, VisionError> {
    let mut out = Mat::default();
    imgproc::resize(src, &mut out, Size::new(w, h), 0.0, 0.0, interpolation)?;
    Ok(out)
}

impl OrbIndex {
    /// Indexes each (id, clean face) pair, faces upright at any size.
    pub fn from_faces<'a>(
        faces: impl IntoIterator<Item = (&'a str, &'a Mat)>,
    ) -> Result<OrbIndex, VisionError> {
        let mut orb = detector()?;
        let mut cards = Vec::new();
        let mut all = Vector::<Mat>::new();
        let mut row_card = Vec::new();
        for (id, face) in faces {
            let seen = resized(face, SEEN_W, SEEN_H, INTER_AREA)?;
            let crop = resized(&seen, CROP_W, CROP_H, INTER_LINEAR)?;
            let descriptors = describe(&mut orb, &crop)?;
            row_card.extend(std::iter::repeat_n(
                cards.len(),
                descriptors.rows() as usize,
            ));
            if !descriptors.empty() {
                all.push(descriptors);
            }
            cards.push(id.to_string());
        }
        let mut train = Mat::default();
        if !all.is_empty() {
            opencv::core::vconcat(&all, &mut train)?;
        }
        Ok(OrbIndex {
            cards,
            train,
            row_card,
            tools: Mutex::new((orb, BFMatcher::create(NORM_HAMMING, false)?)),
        })
    }

    /// Names the card whose corners (its own top-left first, image px) are given, or abstains.
    pub fn identify(&self, image: &Mat, corners: &[[f32; 2]; 4]) -> Result<Verdict, VisionError> {
        let src: Vec<[f64; 2]> = corners.iter().map(|p| [p[0] as f64, p[1] as f64]).collect();
        let Some(crop) = geometry::warp_quad(image, &src, CROP_W, CROP_H, INTER_LINEAR)? else {
            return Ok(Verdict::abstain());
        };
        let mut tools = self
            .tools
            .lock()
            .map_err(|_| VisionError::Other("ORB detector poisoned by an earlier panic".into()))?;
        let (orb, matcher) = &mut *tools;
        let descriptors = describe(orb, &crop)?;
        if descriptors.rows() < 2 || self.train.rows() < 2 {
            return Ok(Verdict::abstain());
        }
        let mut matches = Vector::<Vector<DMatch>>::new();
        matcher.knn_train_match(
            &descriptors,
            &self.train,
            &mut matches,
            2,
            &no_array(),
            false,
        )?;
        drop(tools);
        let mut votes = vec![0usize; self.cards.len()];
        for pair in &matches {
            if pair.len() < 2 {
                continue;
            }
            let (best, second) = (pair.get(0)?, pair.get(1)?);
            if best.distance < RATIO * second.distance {
                let card = self.row_card.get(best.train_idx as usize);
                if let Some(v) = card.and_then(|&c| votes.get_mut(c)) {
                    *v += 1;
                }
            }
        }
        let mut ranked: Vec<(usize, usize)> = votes.into_iter().enumerate().collect();
        ranked.sort_by_key(|r| std::cmp::Reverse(r.1));
        let Some(&(card, top)) = ranked.first() else {
            return Ok(Verdict::abstain());
        };
        let second = ranked.get(1).map_or(0, |r| r.1);
        if top < MIN_VOTES || top < 2 * second {
            return Ok(Verdict::abstain());
        }
        Ok(Verdict {
            card: Some(self.cards[card].clone()),
            confidence: ((top - second) as f32 / top as f32).clamp(0.0, 1.0),
        })
    }
}
