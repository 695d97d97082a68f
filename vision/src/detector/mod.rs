//! A card detector that does not depend on how a card is printed: a small learned segmentation model
//! (models/detect, trained on procedural designs) marks each visible card's *core* (the card shrunk
//! about its centre, so touching cards stay apart) and every visible card; a card region with one core
//! is that card's outline, touching cards' cores are grown back to theirs, whole cards are snapped
//! to their edges in the full-size frame, and a second small model moves their corners to where it
//! sees them (`corners`).
//!
//! Any image size: the frame is resized (aspect kept) into the model's fixed input, and quads are
//! reported in the input image's pixels.

mod closer;
mod corners;
pub mod deck;
pub mod edges;
pub mod eval;
pub mod join;
pub mod name;
mod quads;
mod refine;
pub mod reshape;

pub use corners::{CornerRefiner, DEFAULT_CORNER_MODEL, PATCH as CORNER_PATCH};
pub use quads::{card_at_angle, core_quads, CoreQuad, CoreShape};
pub use refine::{edge_angle, snap_to_edges};

use crate::pipeline::ms;
use crate::tflite::TfliteModel;
use crate::VisionError;
use opencv::core::{Mat, Rect, Scalar, Size, CV_8UC3};
use opencv::imgproc;
use opencv::prelude::*;
use std::path::Path;
use std::time::Instant;

/// The shipped model's input (width, height), as training (models/detect/train.py) makes it; a
/// model exported at another size is run at its own (read from the file).
pub const INPUT_W: usize = 448;
pub const INPUT_H: usize = 336;
/// The model's output is at half the input resolution, two channels: core, card.
pub const OUTPUT_SCALE: usize = 2;
const CHANNELS: usize = 2;

/// The shipped model's core: each card's visible pixels this many output pixels inside its outline
/// (train.py's `CORE_INSET`).
pub const SHIPPED_CORE_INSET: f64 = 2.0;

/// Where the shipped model lies in the repository.
pub const DEFAULT_MODEL: &str = "models/detect/card_detect.tflite";

#[derive(Clone, Debug)]
pub struct DetectorOptions {
    /// A pixel belongs to a core above this probability.
    pub core_threshold: f32,
    /// Cores grow from the regions above this probability (touching cards' cores that meet at
    /// `core_threshold` may part above it); at or below `core_threshold`, no splitting. The shipped
    /// model was trained to keep the seams between cards open, and splitting above 0.5 only cut
    /// its cores into pieces (chosen on the tuning scenes: models/detect/README.md).
    pub split_threshold: f32,
    /// Cores smaller than this many output pixels are specks, not cards.
    pub min_core_px: f64,
    /// Where the model's core lies inside each card (train.py's `--target`).
    pub core: CoreShape,
    /// Cores smaller than this share of a neighbouring core (one whose card reaches them) are
    /// dropped.
    pub min_core_share: f64,
    /// Cores smaller than this share of the largest core in the same card region are dropped,
    /// wherever in the region they lie.
    pub min_core_share_of_region: f64,
    /// A card region filling less than this share of its quad is a card partly hidden (by another
    /// card, a hand or the frame's edge); the outline is sharp, so the bar is high.
    pub min_card_fill: f64,
    /// The same for a core grown back to its card (cards touching): cores are rounder than cards.
    pub min_core_fill: f64,
    /// A card region holding one core is that card's outline only while its quad's area is at
    /// most this many times the card grown from the core; a larger region holds a neighbour too.
    pub max_region_over_core: f64,
    /// Snap each side to the strongest nearby edge in the full-size frame.
    pub snap_edges: bool,
    /// How many times a whole card's corners go through the corner refiner, when the detector has
    /// one: each pass starts nearer (on the tuning scenes the second took the median corner error
    /// from 1.6 to 1.3 px and named 23 more of 1,233 cards: models/detect/README.md).
    pub corner_passes: usize,
}

impl Default for DetectorOptions {
    fn default() -> Self {
        DetectorOptions {
            core_threshold: 0.5,
            split_threshold: 0.5,
            min_core_px: 6.0,
            core: CoreShape::Inset(SHIPPED_CORE_INSET),
            min_core_share: 0.25,
            min_core_share_of_region: 0.15,
            min_card_fill: 0.75,
            min_core_fill: 0.55,
            max_region_over_core: 1.15,
            snap_edges: true,
            corner_passes: 2,
        }
    }
}

/// One card found in a frame.
#[derive(Clone, Debug, PartialEq)]
pub struct DetectedCard {
    /// The card's outline, image pixels, clockwise on screen, starting at an arbitrary corner (the
    /// identifier decides which corner is the card's top-left).
    pub corners: [[f64; 2]; 4],
    /// Part of the card is not seen: covered by another card or a hand, or beyond the frame.
    pub partly_hidden: bool,
    /// Mean core probability over the card's core.
    pub score: f32,
}

/// A card map taken from the detector, to put back.
pub struct SavedCardMap {
    values: Vec<f32>,
    to_image: f64,
}

/// The model's card probability per output pixel, row by row, for the image it looked at.
#[derive(Clone, Copy, Debug)]
pub struct CardMap<'a> {
    pub values: &'a [f32],
    pub width: usize,
    pub height: usize,
    /// Output pixel to image pixel.
    pub to_image: f64,
}

/// Milliseconds per stage of one [`CardDetector::detect`] call.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DetectTimings {
    pub prepare_ms: f64,
    pub model_ms: f64,
    pub quads_ms: f64,
    pub snap_ms: f64,
    pub corners_ms: f64,
    /// [`CardDetector::detect_closer`]'s closer look (0 without one).
    pub closer_ms: f64,
}

pub struct CardDetector {
    model: TfliteModel,
    pub options: DetectorOptions,
    /// The model's input width and height.
    input_size: (usize, usize),
    input: Vec<f32>,
    corners: Option<CornerRefiner>,
    pub timings: DetectTimings,
    /// The last detection's card probability map (output pixels, row by row) and the size of an
    /// output pixel in that frame's pixels.
    last_cards: Vec<f32>,
    last_to_image: f64,
}

impl CardDetector {
    /// Loads the model (under the guards of [`TfliteModel::load`]) and checks its output shape once.
    pub fn new(
        path: impl AsRef<Path>,
        options: DetectorOptions,
    ) -> Result<CardDetector, VisionError> {
        let model = TfliteModel::load(path)?;
        let input_size = match model.input_shape().as_deref() {
            Some(&[1, h, w, 3]) if w >= 32 && h >= 32 && w % 16 == 0 && h % 16 == 0 => (w, h),
            None => (INPUT_W, INPUT_H),
            Some(other) => {
                return Err(model.error(format!(
                    "model input is {other:?}, expected [1, height, width, 3] with sides a multiple of 16"
                )))
            }
        };
        let (w, h) = input_size;
        let detector = CardDetector {
            model,
            options,
            input_size,
            input: vec![0.0; w * h * 3],
            corners: None,
            timings: DetectTimings::default(),
            last_cards: Vec::new(),
            last_to_image: 0.0,
        };
        let out = detector.run_model()?;
        let (ow, oh) = detector.output_size();
        if out.len() != ow * oh * CHANNELS {
            return Err(detector.model.error(format!(
                "model gives {} values, expected {oh}×{ow}×{CHANNELS}",
                out.len(),
            )));
        }
        if out.iter().any(|v| !v.is_finite()) {
            return Err(detector
                .model
                .error("model gives values that are not finite numbers".into()));
        }
        Ok(detector)
    }

    /// Whole cards' corners are then refined by `refiner` (after the edge snap).
    pub fn with_corner_refiner(mut self, refiner: CornerRefiner) -> CardDetector {
        self.corners = Some(refiner);
        self
    }

    /// The cards in a BGR frame of any size.
    pub fn detect(&mut self, image: &Mat) -> Result<Vec<DetectedCard>, VisionError> {
        self.detect_where(image, |_| true)
    }

    /// As [`CardDetector::detect`], but only the cards whose first outline `wanted` keeps are
    /// fitted to the edges and refined (the costly stages) and returned: a caller that already
    /// knows most cards pays only for the others.
    pub fn detect_where(
        &mut self,
        image: &Mat,
        wanted: impl Fn(&[[f64; 2]; 4]) -> bool,
    ) -> Result<Vec<DetectedCard>, VisionError> {
        if image.typ() != CV_8UC3 || image.cols() < 8 || image.rows() < 8 {
            return Err(VisionError::Other(format!(
                "detector: a BGR u8 frame of at least 8×8 px is needed, got {}×{} type {}",
                image.cols(),
                image.rows(),
                image.typ()
            )));
        }
        let t = Instant::now();
        let scale = self.prepare(image)?;
        self.timings.prepare_ms = ms(t);

        let t = Instant::now();
        let out = self.run_model()?;
        self.timings.model_ms = ms(t);

        let t = Instant::now();
        let (ow, oh) = self.output_size();
        let core: Vec<f32> = out.iter().step_by(CHANNELS).copied().collect();
        let card: Vec<f32> = out.iter().skip(1).step_by(CHANNELS).copied().collect();
        let cores = core_quads(&core, &card, ow, oh, &self.options)?;
        // Output pixel → image pixel.
        let to_image = OUTPUT_SCALE as f64 / scale;
        (self.last_cards, self.last_to_image) = (card, to_image);
        let (iw, ih) = (image.cols() as f64, image.rows() as f64);
        let gray = gray_of(image)?;
        let mut quads = Vec::with_capacity(cores.len());
        for c in &cores {
            let mut quad = c.quad.map(|p| [p[0] * to_image, p[1] * to_image]);
            // A card grown from its core: turn it to the edges the frame shows there.
            if let Some(outline) = &c.core_outline {
                if let Some(angle) = edge_angle(&gray, &quad)? {
                    if let Some(q) = card_at_angle(outline, angle, self.options.core) {
                        quad = q.map(|p| [p[0] * to_image, p[1] * to_image]);
                    }
                }
            }
            quads.push(quad);
        }
        let mut cards: Vec<DetectedCard> = cores
            .iter()
            .zip(quads)
            .map(|(c, corners)| DetectedCard {
                corners,
                partly_hidden: c.hidden
                    || reaches_past_frame(&corners, iw, ih)
                    || side_on_frame_edge(&corners, iw, ih, to_image),
                score: c.score,
            })
            .filter(|c: &DetectedCard| wanted(&c.corners))
            .collect();
        self.timings.quads_ms = ms(t);

        let t = Instant::now();
        for card in cards.iter_mut().filter(|c| !c.partly_hidden) {
            card.corners = self.snapped(&gray, card.corners, to_image)?;
        }
        self.timings.snap_ms = ms(t);

        let t = Instant::now();
        for card in cards.iter_mut().filter(|c| !c.partly_hidden) {
            card.corners = self.refined(image, card.corners)?;
        }
        self.timings.corners_ms = ms(t);
        Ok(cards)
    }

    /// The cards in a frame where they are known to lie apart (an enrolment photo, a block laid
    /// for enroll-deck): as [`CardDetector::detect`], but the pieces the model cut one card into
    /// (touching one another) are joined into that card, fitted to its edges.
    pub fn detect_apart(&mut self, image: &Mat) -> Result<Vec<DetectedCard>, VisionError> {
        let cards = self.detect(image)?;
        let quads: Vec<[[f64; 2]; 4]> = cards.iter().map(|c| c.corners).collect();
        let (w, h) = (image.cols() as f64, image.rows() as f64);
        let mut gray = None;
        let mut apart = Vec::with_capacity(cards.len());
        for group in join::touching_groups(&quads) {
            let pieces: Vec<[[f64; 2]; 4]> = group.iter().map(|&i| quads[i]).collect();
            let outline = match pieces.len() {
                1 => None,
                _ => join::outline_of_pieces(&pieces)?,
            }
            .filter(|q| !reaches_past_frame(q, w, h));
            let Some(outline) = outline else {
                apart.extend(group.iter().map(|&i| cards[i].clone()));
                continue;
            };
            let gray = match &mut gray {
                Some(gray) => gray,
                empty => empty.insert(gray_of(image)?),
            };
            apart.push(DetectedCard {
                corners: self.fitted(image, gray, outline)?,
                partly_hidden: false,
                score: group.iter().map(|&i| cards[i].score).fold(0.0, f32::max),
            });
        }
        Ok(apart)
    }

    /// A whole card's outline found some other way (pieces joined, say) fitted to the frame as
    /// `detect` fits its own: snapped to the edges, then its corners refined.
    fn fitted(
        &mut self,
        image: &Mat,
        gray: &Mat,
        corners: [[f64; 2]; 4],
    ) -> Result<[[f64; 2]; 4], VisionError> {
        let (in_w, in_h) = self.input_size;
        let scale = (in_w as f64 / image.cols() as f64).min(in_h as f64 / image.rows() as f64);
        let snapped = self.snapped(gray, corners, OUTPUT_SCALE as f64 / scale)?;
        self.refined(image, snapped)
    }

    fn snapped(
        &self,
        gray: &Mat,
        corners: [[f64; 2]; 4],
        model_px: f64,
    ) -> Result<[[f64; 2]; 4], VisionError> {
        if !self.options.snap_edges {
            return Ok(corners);
        }
        Ok(snap_to_edges(gray, &corners, model_px)?.unwrap_or(corners))
    }

    fn refined(
        &mut self,
        image: &Mat,
        mut corners: [[f64; 2]; 4],
    ) -> Result<[[f64; 2]; 4], VisionError> {
        if let Some(refiner) = &mut self.corners {
            for _ in 0..self.options.corner_passes {
                match refiner.refine(image, &corners)? {
                    Some(refined) => corners = refined,
                    None => break,
                }
            }
        }
        Ok(corners)
    }

    /// Resizes the frame (aspect kept) into the top-left of the model's input, zero elsewhere, as
    /// BGR / 255; returns the scale from image to input pixels.
    fn prepare(&mut self, image: &Mat) -> Result<f64, VisionError> {
        let (w, h) = (image.cols() as f64, image.rows() as f64);
        let (in_w, in_h) = self.input_size;
        let scale = (in_w as f64 / w).min(in_h as f64 / h);
        let nw = ((w * scale).round() as i32).clamp(1, in_w as i32);
        let nh = ((h * scale).round() as i32).clamp(1, in_h as i32);
        let mut small = Mat::default();
        imgproc::resize(
            image,
            &mut small,
            Size::new(nw, nh),
            0.0,
            0.0,
            imgproc::INTER_AREA,
        )?;
        let mut canvas =
            Mat::new_rows_cols_with_default(in_h as i32, in_w as i32, CV_8UC3, Scalar::all(0.0))?;
        let mut roi = Mat::roi_mut(&mut canvas, Rect::new(0, 0, nw, nh))?;
        small.copy_to(&mut roi)?;
        let bytes = canvas.data_bytes()?;
        for (dst, &b) in self.input.iter_mut().zip(bytes) {
            *dst = b as f32 / 255.0;
        }
        Ok(scale)
    }

    fn run_model(&self) -> Result<Vec<f32>, VisionError> {
        let (w, h) = self.input_size;
        self.model.run(&[1, h, w, 3], &self.input)
    }

    /// The highest card probability the last [`CardDetector::detect_where`] gave inside `quad`
    /// (that frame's pixels), outlined or not: 0 where it did not look.
    pub fn last_card_peak_in(&self, quad: &[[f64; 2]; 4]) -> f32 {
        let (ow, oh) = self.output_size();
        if self.last_to_image <= 0.0 || self.last_cards.len() != ow * oh {
            return 0.0;
        }
        let q = quad.map(|p| [p[0] / self.last_to_image, p[1] / self.last_to_image]);
        let Some([x0, y0, x1, y1]) = crate::geometry::bounds(&q) else {
            return 0.0;
        };
        let xs = (x0.floor().max(0.0) as usize)..(x1.ceil().min(ow as f64).max(0.0) as usize);
        let ys = (y0.floor().max(0.0) as usize)..(y1.ceil().min(oh as f64).max(0.0) as usize);
        let mut peak = 0.0f32;
        for y in ys {
            for x in xs.clone() {
                let centre = [x as f64 + 0.5, y as f64 + 0.5];
                if crate::geometry::point_in_convex(centre, &q) {
                    peak = peak.max(self.last_cards[y * ow + x]);
                }
            }
        }
        peak
    }

    /// The card probability map of the last [`CardDetector::detect_where`] (`None` before one).
    pub fn last_card_map(&self) -> Option<CardMap<'_>> {
        let (width, height) = self.output_size();
        (self.last_to_image > 0.0 && self.last_cards.len() == width * height).then_some(CardMap {
            values: &self.last_cards,
            width,
            height,
            to_image: self.last_to_image,
        })
    }

    /// Takes the last look's card map away, to put back with [`CardDetector::restore_card_map`]
    /// after other looks.
    pub fn take_card_map(&mut self) -> SavedCardMap {
        SavedCardMap {
            values: std::mem::take(&mut self.last_cards),
            to_image: self.last_to_image,
        }
    }

    /// Puts back a card map [`CardDetector::take_card_map`] took.
    pub fn restore_card_map(&mut self, saved: SavedCardMap) {
        (self.last_cards, self.last_to_image) = (saved.values, saved.to_image);
    }

    /// The model's input (width, height).
    pub fn input_size(&self) -> (usize, usize) {
        self.input_size
    }

    fn output_size(&self) -> (usize, usize) {
        let (w, h) = self.input_size;
        (w / OUTPUT_SCALE, h / OUTPUT_SCALE)
    }

    /// The raw model output for an input already at the model's size (agreement tests).
    pub fn raw_output(&mut self, input_bgr: &Mat) -> Result<Vec<f32>, VisionError> {
        let (w, h) = self.input_size;
        if input_bgr.cols() as usize != w || input_bgr.rows() as usize != h {
            return Err(VisionError::Other(format!(
                "raw_output: input must be {w}×{h}"
            )));
        }
        self.prepare(input_bgr)?;
        self.run_model()
    }
}

/// A corner lies more than a pixel beyond the frame: the card reaches past its edge.
fn reaches_past_frame(corners: &[[f64; 2]; 4], width: f64, height: f64) -> bool {
    corners
        .iter()
        .any(|p| p[0] < -1.0 || p[1] < -1.0 || p[0] > width + 1.0 || p[1] > height + 1.0)
}

/// A card with a side along the frame's edge (both its ends within `tolerance` px of the same
/// edge) may go on past it: the model keeps a card's core off the frame's edge as off any other
/// card, so a card cut by the edge ends there, its visible part shaped like another card.
fn side_on_frame_edge(corners: &[[f64; 2]; 4], width: f64, height: f64, tolerance: f64) -> bool {
    (0..4).any(|i| {
        let (a, b) = (corners[i], corners[(i + 1) % 4]);
        [(0, width), (1, height)].iter().any(|&(axis, end)| {
            (a[axis] <= tolerance && b[axis] <= tolerance)
                || (a[axis] >= end - tolerance && b[axis] >= end - tolerance)
        })
    })
}

fn gray_of(image: &Mat) -> Result<Mat, VisionError> {
    let mut gray = Mat::default();
    imgproc::cvt_color(image, &mut gray, imgproc::COLOR_BGR2GRAY, 0)?;
    Ok(gray)
}

/// The shipped detector with the shipped corner refiner, for tests that scan with them.
#[cfg(test)]
pub(crate) fn shipped() -> CardDetector {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    CardDetector::new(root.join(DEFAULT_MODEL), Default::default())
        .expect("shipped detector")
        .with_corner_refiner(
            CornerRefiner::load(root.join(DEFAULT_CORNER_MODEL)).expect("shipped corner refiner"),
        )
}

#[cfg(test)]
mod tests {
    use super::side_on_frame_edge;

    #[test]
    fn a_card_cut_by_the_frame_edge_is_one_with_a_side_along_it() {
        let (w, h) = (1280.0, 720.0);
        // The visible part of a card cut by the bottom edge.
        let cut = [
            [500.0, 690.0],
            [570.0, 688.0],
            [571.0, 719.0],
            [499.0, 718.5],
        ];
        assert!(side_on_frame_edge(&cut, w, h, 3.0));
        // One corner touching the edge, the card turned: wholly in view.
        let turned = [
            [600.0, 600.0],
            [660.0, 640.0],
            [630.0, 718.0],
            [570.0, 678.0],
        ];
        assert!(!side_on_frame_edge(&turned, w, h, 3.0));
        // Along the left edge, and well inside the frame.
        let left = [[1.0, 100.0], [60.0, 100.0], [60.0, 180.0], [0.5, 180.0]];
        assert!(side_on_frame_edge(&left, w, h, 3.0));
        let inside = [
            [100.0, 100.0],
            [160.0, 100.0],
            [160.0, 180.0],
            [100.0, 180.0],
        ];
        assert!(!side_on_frame_edge(&inside, w, h, 3.0));
    }
}
