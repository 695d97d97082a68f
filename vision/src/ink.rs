//! A print's marks, compared by where they lie rather than by their shades. Siblings of one design
//! (a count of marks, pips, a numeral) differ in a mark more or less; a photo at the table blurs,
//! tints and dims the whole card, so the embedding and a pixel-by-pixel fit see the card's light
//! more than its marks. Here each crop's ink (what differs from its paper, by a threshold chosen for
//! that crop) is compared with a print's by the distance from each mark's pixels to the other's
//! nearest ink: a mark more or less is far from everything, while blur and a few pixels of corner
//! error stay near. An experiment, off by default: it tells a count's siblings apart, but not the
//! same card of two decks of one style, and a print of several inks has a tint that is their mix,
//! which differs from sibling to sibling (models/detect/README.md).

use crate::VisionError;
use opencv::core::{Mat, Scalar, CV_8U};
use opencv::imgproc;
use opencv::prelude::*;

/// The crop the ink is read from: a card 1280×720 frames show about this tall, upright.
pub const INK_W: i32 = 90;
pub const INK_H: i32 = 126;
/// The card's outer band (its border, and where corner error puts the table) is left out.
const MARGIN_SHARE: f64 = 0.07;
/// Ink differs from the paper by at least this colour distance (0–255 levels) ...
const MIN_CONTRAST: f32 = 12.0;
/// ... and by at least this share of the crop's strongest difference (its 99.5th percentile), so
/// that a dim photo's faint marks and a crisp print's bold ones are read alike.
const CONTRAST_SHARE: f32 = 0.3;
const STRONGEST_PERCENTILE: f64 = 0.995;
/// A crop smaller than this each way has no marks to read.
pub const MIN_CROP_PX: i32 = 8;
/// Ink specks smaller than this many pixels are noise, not marks.
const MIN_SPECK_PX: i32 = 3;
/// Ink touching the crop's edge no thicker than this is the border or the table past a side a few
/// pixels off, not a mark; a title bar cut by the margin is kept.
const EDGE_STRIP_PX: i32 = 4;
/// Distances beyond this many pixels count as this: a mark missing is as far as it gets.
const CAP_PX: f32 = 6.0;
/// The crop is slid over the print by up to this many pixels each way (corner error, 1–3 px here).
const SHIFT_PX: i32 = 3;

/// One crop's ink: its pixels, and every pixel's distance to the nearest ink.
#[derive(Clone, Debug)]
pub struct Ink {
    width: i32,
    height: i32,
    points: Vec<(i32, i32)>,
    distance: Vec<f32>,
    /// The ink's colour over the paper's, per channel (BGR), as logarithms (the mean over the ink
    /// pixels that differ most, see [`tint`]): a colour cast scales both alike, so this stays while
    /// the print's own colours change it.
    tint: [f32; 3],
}

impl Ink {
    /// The ink of the quad (its own top-left first, image px) cut upright from `image` (BGR).
    pub fn cut(image: &Mat, corners: &[[f32; 2]; 4]) -> Result<Ink, VisionError> {
        Ink::of(&crate::embed::warp_crop_sized(
            image,
            corners,
            (INK_W, INK_H),
        )?)
    }

    /// The ink of an upright card crop (BGR, 8 bits, at least [`MIN_CROP_PX`] each way).
    pub fn of(crop: &Mat) -> Result<Ink, VisionError> {
        if crop.cols() < MIN_CROP_PX || crop.rows() < MIN_CROP_PX {
            return Err(VisionError::Data {
                path: Default::default(),
                reason: format!(
                    "an ink crop of {}×{} px is too small to read",
                    crop.cols(),
                    crop.rows()
                ),
            });
        }
        let (mx, my) = (
            (crop.cols() as f64 * MARGIN_SHARE) as i32,
            (crop.rows() as f64 * MARGIN_SHARE) as i32,
        );
        let inner = crop.roi(opencv::core::Rect::new(
            mx,
            my,
            crop.cols() - 2 * mx,
            crop.rows() - 2 * my,
        ))?;
        let (width, height) = (inner.cols(), inner.rows());
        let inner = inner.try_clone()?;
        let (contrast, paper) = contrast_to_paper(&inner)?;
        let mask = marks(&contrast, width, height)?;
        let tint = tint(&inner, &mask, &contrast, paper)?;
        let points: Vec<(i32, i32)> = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .filter(|&(x, y)| mask[(y * width + x) as usize])
            .collect();
        let distance = distance_to_ink(&mask, width, height)?;
        Ok(Ink {
            width,
            height,
            points,
            distance,
            tint,
        })
    }

    /// Whether any ink was read.
    pub fn is_blank(&self) -> bool {
        self.points.is_empty()
    }

    /// How unlike `print`'s this crop's ink is, in 0..1: at the shift that fits best, the larger of
    /// the mean (capped) distance from the crop's ink to the print's and from the print's to the
    /// crop's, over the cap. 1 when either has no ink or their sizes differ.
    pub fn dissimilarity(&self, print: &Ink) -> f64 {
        if self.is_blank()
            || print.is_blank()
            || (self.width, self.height) != (print.width, print.height)
        {
            return 1.0;
        }
        let mut best = f64::INFINITY;
        for dy in -SHIFT_PX..=SHIFT_PX {
            for dx in -SHIFT_PX..=SHIFT_PX {
                let there = mean_capped(&self.points, print, dx, dy);
                let back = mean_capped(&print.points, self, -dx, -dy);
                best = best.min(there.max(back));
            }
        }
        best / CAP_PX as f64
    }

    /// How far this crop's ink colour (over its paper's) lies from `print`'s: the largest
    /// difference of the channels' logarithms (0.1 is about 10 %).
    pub fn tint_difference(&self, print: &Ink) -> f64 {
        (0..3)
            .map(|c| (self.tint[c] - print.tint[c]).abs() as f64)
            .fold(0.0, f64::max)
    }

    fn capped_distance_at(&self, x: i32, y: i32) -> f32 {
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            return CAP_PX;
        }
        self.distance[(y * self.width + x) as usize].min(CAP_PX)
    }
}

/// The mean capped distance from `points` moved by (dx, dy) to `to`'s ink.
fn mean_capped(points: &[(i32, i32)], to: &Ink, dx: i32, dy: i32) -> f64 {
    let sum: f64 = points
        .iter()
        .map(|&(x, y)| to.capped_distance_at(x + dx, y + dy) as f64)
        .sum();
    sum / points.len().max(1) as f64
}

/// Each pixel's colour distance (0–255 levels) from the crop's paper: its median colour, which a
/// card's marks, text and art cover less than half of on the cards that need this.
fn contrast_to_paper(inner: &Mat) -> Result<(Vec<f32>, [f32; 3]), VisionError> {
    let bytes = inner.data_bytes()?;
    let channels = inner.channels() as usize;
    if channels != 3 || inner.depth() != CV_8U {
        return Err(VisionError::Data {
            path: Default::default(),
            reason: "an ink crop must be 8-bit BGR".into(),
        });
    }
    let n = bytes.len() / 3;
    let median = |c: usize| -> f32 {
        let mut v: Vec<u8> = bytes.iter().skip(c).step_by(3).copied().collect();
        let mid = v.len() / 2;
        *v.select_nth_unstable(mid).1 as f32
    };
    let paper = [median(0), median(1), median(2)];
    let contrast = (0..n)
        .map(|i| {
            (0..3)
                .map(|c| (bytes[3 * i + c] as f32 - paper[c]).powi(2))
                .sum::<f32>()
                .sqrt()
        })
        .collect();
    Ok((contrast, paper))
}

/// Levels this far above black keep a dark channel's logarithm from swinging on noise.
const TINT_FLOOR: f32 = 8.0;

/// See [`Ink::tint`], over the ink pixels that differ from the paper at least as much as half of
/// them do: a blurred or smaller photo blends a mark's rim with the paper, not its middle. All zeros
/// without ink.
fn tint(
    inner: &Mat,
    mask: &[bool],
    contrast: &[f32],
    paper: [f32; 3],
) -> Result<[f32; 3], VisionError> {
    let bytes = inner.data_bytes()?;
    let mut inked: Vec<(f32, usize)> = mask
        .iter()
        .enumerate()
        .filter(|(_, &m)| m)
        .map(|(i, _)| (contrast[i], i))
        .collect();
    if inked.is_empty() {
        return Ok([0.0; 3]);
    }
    let half = inked.len() / 2;
    inked.select_nth_unstable_by(half, |a, b| b.0.total_cmp(&a.0));
    let strongest = &inked[..=half];
    let mut sum = [0.0f32; 3];
    for &(_, i) in strongest {
        for (c, s) in sum.iter_mut().enumerate() {
            *s += bytes[3 * i + c] as f32;
        }
    }
    let n = strongest.len() as f32;
    Ok([0, 1, 2].map(|c| ((sum[c] / n + TINT_FLOOR) / (paper[c] + TINT_FLOOR)).ln()))
}

/// The ink: pixels past the crop's own threshold (Otsu's, on the contrast scaled to its strongest,
/// at least [`MIN_CONTRAST`] and [`CONTRAST_SHARE`] of the strongest), less specks and thin strips
/// along the crop's edge ([`EDGE_STRIP_PX`]).
fn marks(contrast: &[f32], width: i32, height: i32) -> Result<Vec<bool>, VisionError> {
    let mut sorted = contrast.to_vec();
    let k = ((sorted.len() as f64 - 1.0) * STRONGEST_PERCENTILE) as usize;
    let strongest = *sorted.select_nth_unstable_by(k, f32::total_cmp).1;
    let scale = 255.0 / strongest.max(1e-3);
    let levels: Vec<u8> = contrast
        .iter()
        .map(|&c| (c * scale).clamp(0.0, 255.0) as u8)
        .collect();
    let level_mat = grey(&levels, width, height)?;
    let mut unused = Mat::default();
    let otsu = imgproc::threshold(
        &level_mat,
        &mut unused,
        0.0,
        255.0,
        imgproc::THRESH_BINARY | imgproc::THRESH_OTSU,
    )? as f32;
    let threshold = (otsu / scale)
        .max(MIN_CONTRAST)
        .max(CONTRAST_SHARE * strongest);
    let ink: Vec<u8> = contrast.iter().map(|&c| u8::from(c > threshold)).collect();
    let ink_mat = grey(&ink, width, height)?;
    let crate::components::Components { labels, parts } =
        crate::components::components(&ink_mat, 8)?;
    let keep: Vec<bool> = parts
        .iter()
        .enumerate()
        .map(|(label, p)| {
            let strip = p.touches_edge(width, height) && p.width.min(p.height) <= EDGE_STRIP_PX;
            label > 0 && !strip && p.area >= MIN_SPECK_PX
        })
        .collect();
    let labels = labels.data_typed::<i32>()?;
    Ok(labels
        .iter()
        .map(|&l| keep.get(l as usize).copied().unwrap_or(false))
        .collect())
}

/// A one-channel 8-bit image of `data`, row by row.
fn grey(data: &[u8], width: i32, height: i32) -> Result<Mat, VisionError> {
    let mut m = Mat::new_rows_cols_with_default(height, width, CV_8U, Scalar::all(0.0))?;
    m.data_bytes_mut()?.copy_from_slice(data);
    Ok(m)
}

/// Every pixel's distance to the nearest ink (large everywhere when there is none).
fn distance_to_ink(mask: &[bool], width: i32, height: i32) -> Result<Vec<f32>, VisionError> {
    let not_ink: Vec<u8> = mask.iter().map(|&m| if m { 0 } else { 255 }).collect();
    let not_ink = grey(&not_ink, width, height)?;
    let mut distance = Mat::default();
    imgproc::distance_transform(
        &not_ink,
        &mut distance,
        imgproc::DIST_L2,
        3,
        opencv::core::CV_32F,
    )?;
    Ok(distance.data_typed::<f32>()?.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{Point, Size, BORDER_REPLICATE, CV_8UC3};
    use opencv::imgproc::INTER_LINEAR;

    /// A card of one design: cream paper in a red border, `count` dark squares in a column.
    fn card(count: i32, paper: f64, ink: f64) -> Mat {
        let mut m = Mat::new_rows_cols_with_default(
            INK_H,
            INK_W,
            CV_8UC3,
            Scalar::new(40.0, 40.0, 200.0, 0.0),
        )
        .unwrap();
        imgproc::rectangle(
            &mut m,
            opencv::core::Rect::new(6, 6, INK_W - 12, INK_H - 12),
            Scalar::all(paper),
            -1,
            imgproc::LINE_8,
            0,
        )
        .unwrap();
        for k in 0..count {
            let c = Point::new(INK_W / 2, 24 + 20 * k);
            imgproc::rectangle_points(
                &mut m,
                c - Point::new(5, 5),
                c + Point::new(5, 5),
                Scalar::all(ink),
                -1,
                imgproc::LINE_8,
                0,
            )
            .unwrap();
        }
        m
    }

    #[test]
    fn a_mark_more_is_further_than_a_dimmer_blurred_photo_of_the_same_card() {
        let print = Ink::of(&card(3, 240.0, 40.0)).unwrap();
        let mut dim = Mat::default();
        imgproc::gaussian_blur_def(&card(3, 150.0, 100.0), &mut dim, Size::new(5, 5), 1.5).unwrap();
        let same = Ink::of(&dim).unwrap().dissimilarity(&print);
        let sibling = Ink::of(&card(4, 240.0, 40.0))
            .unwrap()
            .dissimilarity(&print);
        assert!(same < 0.1, "the same card dimmed and blurred: {same}");
        assert!(sibling > same + 0.1, "a mark more: {sibling} vs {same}");
    }

    #[test]
    fn a_shift_of_a_few_pixels_is_forgiven() {
        let print = Ink::of(&card(2, 240.0, 40.0)).unwrap();
        let m = Mat::from_slice_2d(&[[1.0f32, 0.0, 2.0], [0.0, 1.0, -2.0]]).unwrap();
        let mut moved = Mat::default();
        imgproc::warp_affine(
            &card(2, 240.0, 40.0),
            &mut moved,
            &m,
            Size::new(INK_W, INK_H),
            INTER_LINEAR,
            BORDER_REPLICATE,
            Scalar::default(),
        )
        .unwrap();
        assert!(Ink::of(&moved).unwrap().dissimilarity(&print) < 0.05);
    }

    #[test]
    fn a_crop_too_small_to_read_is_an_error() {
        let tiny = Mat::new_rows_cols_with_default(4, 4, CV_8UC3, Scalar::all(128.0)).unwrap();
        assert!(Ink::of(&tiny).is_err());
        assert!(Ink::of(&Mat::default()).is_err());
    }

    #[test]
    fn a_blank_card_cannot_be_compared() {
        let blank = Ink::of(&card(0, 240.0, 40.0)).unwrap();
        assert!(
            blank.is_blank(),
            "the border touches the edge and is left out"
        );
        let print = Ink::of(&card(1, 240.0, 40.0)).unwrap();
        assert_eq!(blank.dissimilarity(&print), 1.0);
        assert_eq!(print.dissimilarity(&blank), 1.0);
    }

    #[test]
    fn the_ink_of_a_cut_card_is_read_upright() {
        // The card drawn at twice the size into a larger frame, cut back by its corners.
        let face = card(2, 240.0, 40.0);
        let mut frame =
            Mat::new_rows_cols_with_default(400, 300, CV_8UC3, Scalar::all(90.0)).unwrap();
        let mut big = Mat::default();
        imgproc::resize(&face, &mut big, Size::new(180, 252), 0.0, 0.0, INTER_LINEAR).unwrap();
        let mut at = frame
            .roi_mut(opencv::core::Rect::new(50, 70, 180, 252))
            .unwrap();
        big.copy_to(&mut at).unwrap();
        let corners = [[50.0, 70.0], [230.0, 70.0], [230.0, 322.0], [50.0, 322.0]];
        let cut = Ink::cut(&frame, &corners).unwrap();
        assert!(cut.dissimilarity(&Ink::of(&face).unwrap()) < 0.05);
        let turned = [corners[2], corners[3], corners[0], corners[1]];
        let upside_down = Ink::cut(&frame, &turned).unwrap();
        assert!(upside_down.dissimilarity(&Ink::of(&face).unwrap()) > 0.2);
    }
}
