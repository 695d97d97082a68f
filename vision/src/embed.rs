//! A learned card identifier (issue 8): a small CNN, trained in `models/identify/` on crops from the
//! synthetic renderer, maps an upright card crop to an L2-normalised embedding. A card is identified by
//! its nearest enrolled embedding, so a new card only needs its clean face enrolled, never retraining.

use crate::VisionError;
use opencv::core::{Mat, Point2f, Scalar, Size, Vector, BORDER_REPLICATE};
use opencv::imgproc::{self, INTER_AREA, INTER_LINEAR};

/// Crop size the model takes (card aspect 63 × 88 mm ≈ 40 × 56 px), BGR u8.
pub const CROP_W: i32 = 40;
pub const CROP_H: i32 = 56;
/// Warp at this multiple of the crop size first, then area-downscale: a direct warp to 40 px would alias.
const SUPERSAMPLE: i32 = 4;

/// The card quad (its own top-left, top-right, bottom-right, bottom-left, image px) warped upright to
/// `CROP_W × CROP_H`. The same function makes the training crops and the crops identified at run time.
pub fn warp_crop(image: &Mat, corners: &[[f32; 2]; 4]) -> Result<Mat, VisionError> {
    let (w, h) = ((CROP_W * SUPERSAMPLE) as f32, (CROP_H * SUPERSAMPLE) as f32);
    let src: Vector<Point2f> = corners.iter().map(|c| Point2f::new(c[0], c[1])).collect();
    let dst: Vector<Point2f> = [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]]
        .iter()
        .map(|c| Point2f::new(c[0], c[1]))
        .collect();
    let m = imgproc::get_perspective_transform(&src, &dst, opencv::core::DECOMP_LU)?;
    let mut big = Mat::default();
    imgproc::warp_perspective(
        image,
        &mut big,
        &m,
        Size::new(CROP_W * SUPERSAMPLE, CROP_H * SUPERSAMPLE),
        INTER_LINEAR,
        BORDER_REPLICATE,
        Scalar::default(),
    )?;
    let mut small = Mat::default();
    imgproc::resize(
        &big,
        &mut small,
        Size::new(CROP_W, CROP_H),
        0.0,
        0.0,
        INTER_AREA,
    )?;
    Ok(small)
}

/// A face image (any size, upright) resized to the crop size, for enrolment.
pub fn face_crop(face: &Mat) -> Result<Mat, VisionError> {
    let mut small = Mat::default();
    imgproc::resize(
        face,
        &mut small,
        Size::new(CROP_W, CROP_H),
        0.0,
        0.0,
        INTER_AREA,
    )?;
    Ok(small)
}
