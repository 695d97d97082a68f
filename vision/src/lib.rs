//! Vision: from a camera frame to a [`TableObservation`].
//!
//! Printed material ([`face`], [`mats`], [`sheets`]) is drawn by code from the catalogue, so the
//! synthetic scenes ([`scene`]) and the reference set ([`identify`]) come from the very same pixels a
//! player prints. The pipeline ([`pipeline::Scanner`]) is: calibration ([`calibrate`]), card quads
//! ([`detect`]), identity and orientation ([`identify`]), cell assignment.

pub mod calibrate;
pub mod components;
pub mod detect;
pub mod detector;
pub mod distinct;
pub mod embed;
pub mod error;
pub mod eval;
pub mod face;
pub mod far_cells;
pub mod files;
pub mod font;
pub mod games;
pub mod geometry;
pub mod hands;
pub mod identifier;
pub mod identify;
pub mod ink;
pub mod kit;
pub mod lattice;
pub mod lookalike;
pub mod mats;
pub mod memory;
pub mod merged;
pub mod mosaic;
pub mod orb;
pub mod pairs;
pub mod pipeline;
pub mod report;
pub mod scene;
pub mod sheets;
pub mod siblings;
pub mod source;
pub mod table;
pub mod tflite;
pub mod types;

pub use error::VisionError;
pub use pipeline::{LearnedDetection, Scanner, ScannerOptions};
pub use types::*;
