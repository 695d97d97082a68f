//! The joined parts of a one-channel mask (OpenCV's connected components with their stats), read
//! once into plain values.

use crate::VisionError;
use opencv::core::{Mat, CV_32S};
use opencv::imgproc;
use opencv::prelude::*;

/// One joined part of a mask: its bounding box and pixel count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Component {
    pub left: i32,
    pub top: i32,
    pub width: i32,
    pub height: i32,
    pub area: i32,
}

impl Component {
    /// Whether its box reaches a side of a `width`×`height` image.
    pub fn touches_edge(&self, width: i32, height: i32) -> bool {
        self.left == 0
            || self.top == 0
            || self.left + self.width >= width
            || self.top + self.height >= height
    }
}

/// A mask's parts: each pixel's label (32-bit, 0 the background) and each label's part
/// (`parts[0]` is the background).
pub struct Components {
    pub labels: Mat,
    pub parts: Vec<Component>,
}

/// The parts of `mask` (non-zero pixels), joined 4- or 8-connected.
pub fn components(
    mask: &impl opencv::core::ToInputArray,
    connectivity: i32,
) -> Result<Components, VisionError> {
    let (mut labels, mut stats, mut centroids) = (Mat::default(), Mat::default(), Mat::default());
    let n = imgproc::connected_components_with_stats(
        mask,
        &mut labels,
        &mut stats,
        &mut centroids,
        connectivity,
        CV_32S,
    )?;
    let parts = (0..n)
        .map(|k| {
            let at = |c: i32| stats.at_2d::<i32>(k, c).copied();
            Ok(Component {
                left: at(imgproc::CC_STAT_LEFT)?,
                top: at(imgproc::CC_STAT_TOP)?,
                width: at(imgproc::CC_STAT_WIDTH)?,
                height: at(imgproc::CC_STAT_HEIGHT)?,
                area: at(imgproc::CC_STAT_AREA)?,
            })
        })
        .collect::<Result<_, VisionError>>()?;
    Ok(Components { labels, parts })
}
