//! The live loop without any window: frames → tracker → adapter → engine. The panel and the headless
//! demo both drive it.

use super::blitz::{Session, Source};
use super::tracker::Tracker;
use crate::panel::feed::{Feed, FeedFrame, FeedStatus, Overlay};
use blitz::Action;
use std::time::{Duration, Instant};

/// Takes what the feed has: a frame (the camera is back, if it was lost), or `None` after noting a
/// lost camera in `camera_lost` (the game is kept) or the end of the feed in `ended`.
pub fn next_frame(
    feed: &mut dyn Feed,
    camera_lost: &mut Option<String>,
    ended: &mut bool,
) -> Option<FeedFrame> {
    match feed.poll() {
        FeedStatus::Frame(frame) => {
            *camera_lost = None;
            Some(*frame)
        }
        FeedStatus::Lost(why) => {
            *camera_lost = Some(why);
            None
        }
        FeedStatus::Ended => {
            *ended = true;
            None
        }
    }
}

pub struct Runner {
    pub session: Session,
    pub tracker: Tracker,
    /// Set while the camera is gone; the game is kept.
    pub camera_lost: Option<String>,
    pub image: Option<([usize; 2], Vec<u8>)>,
    pub overlays: Vec<Overlay>,
    pub frames: u64,
    /// Frames and wall time from a change first seen to its ruling (for the latency report).
    pub latencies: Vec<(u32, Duration)>,
    pending_since: Option<(u64, Instant)>,
    pub ended: bool,
    /// Quiet frames after the last tap before a joint attack is closed (a second attacker may still
    /// be turned); a button press closes it at once.
    pub attack_settle_frames: u32,
    /// The last frame's grid fit could not tell which side is Allied.
    pub allied_side_unknown: bool,
}

impl Runner {
    pub fn new(session: Session, tracker: Tracker) -> Runner {
        Runner {
            session,
            tracker,
            camera_lost: None,
            image: None,
            overlays: Vec::new(),
            frames: 0,
            latencies: Vec::new(),
            pending_since: None,
            ended: false,
            attack_settle_frames: 45,
            allied_side_unknown: false,
        }
    }

    /// Takes what the feed has; returns true when a frame was processed.
    pub fn poll(&mut self, feed: &mut dyn Feed) -> bool {
        let Some(frame) = next_frame(feed, &mut self.camera_lost, &mut self.ended) else {
            return false;
        };
        self.process(frame);
        true
    }

    pub fn process(&mut self, frame: FeedFrame) {
        self.frames += 1;
        let committed_before = self.session.rulings.len();
        let differs = frame.sightings.sightings.iter().any(|s| {
            let Some(id) = s.card.as_deref() else {
                return false;
            };
            let known = self.tracker.committed().get(id);
            known.is_none_or(|k| Some(k.cell) != s.cell || k.tapped != s.tapped)
        });
        if differs && self.pending_since.is_none() {
            self.pending_since = Some((self.frames, Instant::now()));
        }
        for event in self.tracker.update(&frame.sightings) {
            self.session.on_table_event(&event);
        }
        if self.tracker.quiet_frames >= self.attack_settle_frames {
            self.session.on_quiet();
        }
        if self.session.rulings.len() > committed_before {
            if let Some((first, at)) = self.pending_since.take() {
                self.latencies
                    .push(((self.frames - first + 1) as u32, at.elapsed()));
            }
        } else if !differs {
            self.pending_since = None;
        }
        for press in &frame.presses {
            self.press(press);
        }
        if frame.image.is_some() {
            self.image = frame.image;
        }
        self.overlays = frame.overlays;
        self.allied_side_unknown = frame.allied_side_unknown;
    }

    /// A button pressed on the panel, in the action notation, by whoever is to act.
    pub fn press(&mut self, notation: &str) -> bool {
        self.session.on_quiet();
        let Some(seat) = self.session.state.actor() else {
            return false;
        };
        match Action::parse(&self.session.state, notation) {
            Ok(action) => self.session.submit(seat, action, Source::Panel),
            Err(e) => {
                self.session.questions.push(super::blitz::Question {
                    text: e.to_string(),
                    options: vec![("OK".into(), None)],
                    overrule: None,
                });
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::blitz::Header;
    use crate::live::tracker::{FrameSightings, TrackerConfig};
    use blitz::catalogue::{Catalogue, Faction};
    use std::collections::VecDeque;
    use std::sync::Arc;

    struct Flaky(VecDeque<FeedStatus>);

    impl Feed for Flaky {
        fn poll(&mut self) -> FeedStatus {
            self.0.pop_front().unwrap_or(FeedStatus::Ended)
        }
        fn describe(&self) -> String {
            "flaky camera".into()
        }
    }

    fn frame() -> FeedStatus {
        FeedStatus::Frame(Box::new(FeedFrame {
            image: None,
            sightings: FrameSightings::default(),
            overlays: Vec::new(),
            presses: vec!["keep".into()],
            allied_side_unknown: false,
        }))
    }

    #[test]
    fn issue_4_camera_lost_mid_game_keeps_the_game_and_resumes() {
        let header = Header {
            game: "blitz".into(),
            players: vec![Faction::Us, Faction::Ss],
            seed: 1,
            profile: blitz::Profile::default(),
            stacked_decks: vec![],
            hidden_hands: true,
            catalogue: None,
        };
        let session = Session::new(header, Arc::new(Catalogue::demo()), None).unwrap();
        let mut runner = Runner::new(session, Tracker::new(TrackerConfig::default()));
        let mut feed = Flaky(VecDeque::from([
            frame(),
            FeedStatus::Lost("unplugged".into()),
            FeedStatus::Lost("still unplugged".into()),
            frame(),
        ]));
        runner.poll(&mut feed);
        assert_eq!(runner.session.rulings.len(), 1, "US kept");
        runner.poll(&mut feed);
        assert_eq!(runner.camera_lost.as_deref(), Some("unplugged"));
        runner.poll(&mut feed);
        assert!(
            runner.camera_lost.is_some(),
            "still lost while no frame comes"
        );
        runner.poll(&mut feed);
        assert_eq!(runner.camera_lost, None, "frames are back");
        assert_eq!(
            runner.session.rulings.len(),
            2,
            "the game went on from where it was"
        );
        assert!(!runner.ended);
    }
}
