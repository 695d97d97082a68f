//! Whether an outline's sides are edges in the image: a card differs from what it lies on along
//! each of its sides, where a gap between two cards or a patch of patterned table, which the model
//! can outline too, does not along at least one.

use crate::VisionError;
use opencv::core::{Mat, CV_8UC3};
use opencv::prelude::*;

/// How far beyond and within a side the colours compared lie: this share of the outline's
/// shorter side, kept within [`SAMPLE_OFFSET_PX`] (far cards are small, near ones blurred).
const SAMPLE_OFFSET_SHARE: f64 = 0.08;
const SAMPLE_OFFSET_PX: (f64, f64) = (2.0, 12.0);
/// Points compared along each side, spread over its middle (the corners, where a neighbouring
/// card may touch, left out).
const POINTS_PER_SIDE: usize = 12;
const SIDE_SPAN: (f64, f64) = (0.15, 0.85);

/// An outline the model drew is taken for a card only where the image differs across each of
/// its sides at least this much ([`weakest_side`]): the model also outlines the table between two
/// cards of a column, patches of patterned table and glare. Chosen on the Blitz tuning boards
/// 612000–612199: unnamed outlines where no card lies 35 → 18, no visible card lost (the
/// uncovered cards' unnamed outlines measured 30 or more).
pub const CARD_SIDE_MIN_CONTRAST: f64 = 20.0;

/// Whether every side of `corners` that can be judged is an edge in the frame
/// ([`CARD_SIDE_MIN_CONTRAST`]).
pub fn sides_are_edges(image: &Mat, corners: &[[f64; 2]; 4]) -> Result<bool, VisionError> {
    let weakest = weakest_side(image, corners)?;
    Ok(weakest.is_none_or(|w| w >= CARD_SIDE_MIN_CONTRAST))
}

/// The contrast across the outline's weakest side: the median colour difference (BGR, 0–255 a
/// channel, Euclidean, each sample a 3×3 mean) between just within and just beyond it. Sides
/// whose samples leave the image are not judged; `None` when none can be.
pub fn weakest_side(image: &Mat, corners: &[[f64; 2]; 4]) -> Result<Option<f64>, VisionError> {
    Ok(side_contrasts(image, corners, SAMPLE_OFFSET_SHARE)?
        .first()
        .copied())
}

/// The contrast across each side that can be judged, as in [`weakest_side`] but with the colours
/// compared `offset_share` of the shorter side within and beyond; weakest first.
pub fn side_contrasts(
    image: &Mat,
    corners: &[[f64; 2]; 4],
    offset_share: f64,
) -> Result<Vec<f64>, VisionError> {
    let side = |k: usize| crate::detect::dist(corners[k], corners[(k + 1) % 4]);
    let shorter = (0..4).map(side).fold(f64::MAX, f64::min);
    if shorter.is_nan() || shorter <= 0.0 {
        return Ok(Vec::new());
    }
    if image.typ() != CV_8UC3 {
        return Err(VisionError::Other("edges are judged on a BGR image".into()));
    }
    let continuous;
    let image = match image.is_continuous() {
        true => image,
        false => {
            continuous = image.try_clone()?;
            &continuous
        }
    };
    let pixels = Pixels {
        data: image.data_bytes()?,
        cols: image.cols(),
        rows: image.rows(),
    };
    let offset = (offset_share * shorter).clamp(SAMPLE_OFFSET_PX.0, SAMPLE_OFFSET_PX.1);
    let centre = crate::geometry::centroid(corners);
    let mut contrasts = Vec::with_capacity(4);
    for k in 0..4 {
        let (a, b) = (corners[k], corners[(k + 1) % 4]);
        let length = side(k);
        let along = [(b[0] - a[0]) / length, (b[1] - a[1]) / length];
        let mut outward = [along[1], -along[0]];
        let middle = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
        if outward[0] * (middle[0] - centre[0]) + outward[1] * (middle[1] - centre[1]) < 0.0 {
            outward = [-outward[0], -outward[1]];
        }
        let mut differences = Vec::with_capacity(POINTS_PER_SIDE);
        for i in 0..POINTS_PER_SIDE {
            let t =
                SIDE_SPAN.0 + (SIDE_SPAN.1 - SIDE_SPAN.0) * i as f64 / (POINTS_PER_SIDE - 1) as f64;
            let p = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
            let at = |s: f64| [p[0] + outward[0] * s, p[1] + outward[1] * s];
            if let (Some(inside), Some(beyond)) =
                (pixels.mean_3x3(at(-offset)), pixels.mean_3x3(at(offset)))
            {
                let d: f64 = (0..3).map(|c| (inside[c] - beyond[c]).powi(2)).sum();
                differences.push(d.sqrt());
            }
        }
        if differences.len() * 2 < POINTS_PER_SIDE {
            continue;
        }
        differences.sort_by(|x, y| x.total_cmp(y));
        contrasts.push(differences[differences.len() / 2]);
    }
    contrasts.sort_by(|x, y| x.total_cmp(y));
    Ok(contrasts)
}

/// A colour image's pixels, read straight from its buffer: an outline is judged by some
/// hundred samples and a patterned table has hundreds of outlines.
struct Pixels<'a> {
    data: &'a [u8],
    cols: i32,
    rows: i32,
}

impl Pixels<'_> {
    /// The mean colour of the 3×3 pixels around `p`; `None` when they are not all in the image.
    fn mean_3x3(&self, p: [f64; 2]) -> Option<[f64; 3]> {
        let (x, y) = (p[0].round() as i32, p[1].round() as i32);
        if x < 1 || y < 1 || x + 1 >= self.cols || y + 1 >= self.rows {
            return None;
        }
        let mut sum = [0.0; 3];
        for dy in -1..=1 {
            let row = ((y + dy) * self.cols) as usize * 3;
            for dx in -1..=1 {
                let at = row + (x + dx) as usize * 3;
                for (c, s) in sum.iter_mut().enumerate() {
                    *s += f64::from(self.data[at + c]);
                }
            }
        }
        Some(sum.map(|s| s / 9.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Point, Scalar, CV_8UC3};
    use opencv::imgproc;

    fn table() -> Mat {
        Mat::new_rows_cols_with_default(200, 300, CV_8UC3, Scalar::new(60.0, 90.0, 40.0, 0.0))
            .expect("image")
    }

    fn card(image: &mut Mat, x: i32, y: i32) {
        imgproc::rectangle_points(
            image,
            Point::new(x, y),
            Point::new(x + 50, y + 70),
            Scalar::new(230.0, 230.0, 230.0, 0.0),
            -1,
            imgproc::LINE_8,
            0,
        )
        .expect("draw");
    }

    fn outline(x: f64, y: f64, w: f64, h: f64) -> [[f64; 2]; 4] {
        [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]
    }

    #[test]
    fn a_card_on_the_table_has_four_edges() {
        let mut image = table();
        card(&mut image, 100, 60);
        let weakest = weakest_side(&image, &outline(100.0, 60.0, 50.0, 70.0))
            .expect("measured")
            .expect("sides in the image");
        assert!(weakest > 100.0, "{weakest}");
    }

    /// The table between two cards of a column, bounded by their edges above and below: its left
    /// and right sides are table on both sides.
    #[test]
    fn the_gap_between_two_cards_is_no_card() {
        let mut image = table();
        card(&mut image, 100, 10);
        card(&mut image, 100, 120);
        let weakest = weakest_side(&image, &outline(100.0, 80.0, 50.0, 40.0))
            .expect("measured")
            .expect("sides in the image");
        assert!(weakest < 5.0, "{weakest}");
    }

    #[test]
    fn sides_beyond_the_image_are_not_judged() {
        let image = table();
        assert_eq!(
            weakest_side(&image, &outline(-400.0, -400.0, 50.0, 70.0)).expect("measured"),
            None
        );
        assert_eq!(
            weakest_side(&image, &outline(10.0, 10.0, 0.0, 0.0)).expect("measured"),
            None
        );
    }
}
