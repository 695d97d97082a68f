//! Where the panel's frames come from: a camera, a video or a scripted demo, already turned into
//! sightings by the vision pipeline.

use crate::live::tracker::FrameSightings;

/// A card outline to draw over the camera image.
#[derive(Clone, Debug)]
pub struct Overlay {
    pub corners: [[f32; 2]; 4],
    pub label: String,
    pub uncertain: bool,
}

pub struct FeedFrame {
    /// RGB pixels and their size, when there is an image to show.
    pub image: Option<([usize; 2], Vec<u8>)>,
    pub sightings: FrameSightings,
    pub overlays: Vec<Overlay>,
    /// Actions the players make outside the camera's view at this point (panel presses in a
    /// scripted demo), in the action notation.
    pub presses: Vec<String>,
    /// The grid was fitted but nothing on the table said which side is Allied: ask the players.
    pub allied_side_unknown: bool,
}

pub enum FeedStatus {
    Frame(Box<FeedFrame>),
    /// The camera is gone; the game is kept and resumes when frames return.
    Lost(String),
    Ended,
}

pub trait Feed {
    fn poll(&mut self) -> FeedStatus;
    fn describe(&self) -> String;
    /// The players' answer to "which side is Allied?": an image direction from the table toward
    /// the Allied player, for feeds that fit the table from the cards.
    fn set_allied_towards(&mut self, _towards: [f64; 2]) {}
    /// The rate the source's frames were recorded at, when it knows it (a video file).
    fn frames_per_second(&self) -> Option<f64> {
        None
    }
}
