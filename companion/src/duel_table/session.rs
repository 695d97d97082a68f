//! One table session: frames → tracker → adapter, with the latest image and outlines for the panel.

use super::adapter::TableGame;
use super::feed::snapshot;
use crate::live::runner::next_frame;
use crate::live::tracker::{Tracker, TrackerConfig};
use crate::panel::feed::{Feed, FeedFrame, Overlay};

/// Named sightings below this are ignored. Lower than Blitz's 0.5: Duel faces of one faction share
/// the header colour, so a right name often wins by a smaller lead; the scanner already abstains
/// when the lead is unclear, and a change still has to hold for several frames.
pub const MIN_CONFIDENCE: f32 = 0.15;

pub struct TableSession {
    pub game: TableGame,
    pub tracker: Tracker,
    pub image: Option<([usize; 2], Vec<u8>)>,
    pub overlays: Vec<Overlay>,
    pub frames: u64,
    pub ended: bool,
    pub camera_lost: Option<String>,
    /// What the tracker committed from the last frame.
    pub last_events: Vec<crate::live::tracker::TableEvent>,
}

impl TableSession {
    pub fn new(game: TableGame) -> TableSession {
        TableSession {
            game,
            tracker: Tracker::new(TrackerConfig {
                min_confidence: MIN_CONFIDENCE,
                ..TrackerConfig::default()
            }),
            image: None,
            overlays: Vec::new(),
            frames: 0,
            ended: false,
            camera_lost: None,
            last_events: Vec::new(),
        }
    }

    /// Reads one frame from the feed; false when it ended.
    pub fn poll(&mut self, feed: &mut dyn Feed) -> bool {
        if let Some(frame) = next_frame(feed, &mut self.camera_lost, &mut self.ended) {
            self.process(frame);
        }
        !self.ended
    }

    pub fn process(&mut self, frame: FeedFrame) {
        self.frames += 1;
        if frame.image.is_some() {
            self.image = frame.image;
        }
        self.overlays = frame.overlays;
        let events = self.tracker.update(&frame.sightings);
        if !events.is_empty() || self.game.waiting.is_some() {
            self.game.sync(&snapshot(self.tracker.committed()));
        }
        self.last_events = events;
    }
}
