//! The scripted demo as a feed: a scenario is played by a shadow engine to know what the table looks
//! like after each action; the table is then shown frame by frame (with a hand over it while cards are
//! laid) and a `Recognizer` turns each frame into sightings, as the camera pipeline would. The live
//! loop must rebuild the game from those frames alone.

use super::tracker::{CardPlace, FrameSightings, Sighting};
use crate::panel::feed::{Feed, FeedFrame, FeedStatus, Overlay};
use blitz::catalogue::Catalogue;
use blitz::scenario::{Line, Scenario};
use blitz::{apply, Action, State};
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

/// What lies on the table: card id → where and how.
pub type Layout = BTreeMap<String, CardPlace>;

/// Turns a table layout into what the camera reports for one frame.
pub trait Recognizer {
    fn see(&mut self, layout: &Layout, frame: u64, hand_over_table: bool) -> FeedFrame;
    fn name(&self) -> String;
}

/// Reports the layout exactly (for tests of everything after vision, and when no renderer is present).
pub struct GroundTruth;

impl Recognizer for GroundTruth {
    fn see(&mut self, layout: &Layout, frame: u64, hand: bool) -> FeedFrame {
        let sightings = layout
            .iter()
            .map(|(id, p)| Sighting {
                card: Some(id.clone()),
                cell: Some(p.cell),
                tapped: p.tapped,
                covered: false,
                confidence: 1.0,
            })
            .collect();
        FeedFrame {
            image: None,
            sightings: FrameSightings {
                index: frame,
                sightings,
                occluded: hand,
            },
            overlays: Vec::<Overlay>::new(),
            presses: Vec::new(),
            allied_side_unknown: false,
        }
    }

    fn name(&self) -> String {
        "ground truth (no rendering)".into()
    }
}

/// One thing that happens at the table, in order.
#[derive(Clone, Debug)]
pub enum Beat {
    /// The table now looks like this (a hand hovers over it for the first frames).
    Table(Layout),
    /// A button pressed on the panel.
    Press(String),
}

/// The layout the engine's state implies: every card on the board, front-line cards included.
pub fn layout_of(state: &State) -> Layout {
    state
        .placed
        .iter()
        .flatten()
        .map(|p| {
            (
                state.id_of(p.card).to_string(),
                CardPlace {
                    cell: (p.cell.col, p.cell.row),
                    tapped: p.tapped,
                },
            )
        })
        .collect()
}

/// The script's beats, and the actions the engine accepted (what the camera should recover).
pub fn beats(
    scenario: &Scenario,
    lines: &[Line],
    catalogue: Arc<Catalogue>,
) -> anyhow::Result<(Vec<Beat>, Vec<String>)> {
    let mut state = State::from_setup(scenario.setup(catalogue))?;
    let mut out = vec![Beat::Table(layout_of(&state))];
    let mut accepted = Vec::new();
    for line in lines {
        let action = Action::parse(&state, &line.action)?;
        let before = layout_of(&state);
        let result = apply(&state, &action);
        let seen_on_table = matches!(
            action,
            Action::Deploy { .. }
                | Action::Move { .. }
                | Action::PlaceFacility { .. }
                | Action::Attack { .. }
                | Action::Advance(_)
        );
        match result {
            Ok((next, _)) => {
                if seen_on_table {
                    if let Action::Attack { attackers, .. } = &action {
                        // Attackers are turned sideways one by one before the target is taken off.
                        let mut tapping = before.clone();
                        for a in attackers {
                            if let Some(p) = tapping.get_mut(state.id_of(*a)) {
                                p.tapped = true;
                            }
                            out.push(Beat::Table(tapping.clone()));
                        }
                    }
                    out.push(Beat::Table(layout_of(&next)));
                } else {
                    out.push(Beat::Press(line.action.clone()));
                    let after = layout_of(&next);
                    if after != before {
                        out.push(Beat::Table(after)); // the players take off what the rules removed
                    }
                }
                accepted.push(line.action.clone());
                state = next;
            }
            Err(_) if seen_on_table => {
                // An illegal change is laid on the table, flagged, and taken back.
                let mut wrong = before.clone();
                match &action {
                    Action::Deploy { card, cell } | Action::PlaceFacility { card, cell } => {
                        let place = CardPlace {
                            cell: (cell.col, cell.row),
                            tapped: false,
                        };
                        wrong.insert(state.id_of(*card).to_string(), place);
                    }
                    Action::Move { card, to } => {
                        if let Some(p) = wrong.get_mut(state.id_of(*card)) {
                            p.cell = (to.col, to.row);
                        }
                    }
                    Action::Attack { attackers, .. } => {
                        for a in attackers {
                            if let Some(p) = wrong.get_mut(state.id_of(*a)) {
                                p.tapped = true;
                            }
                        }
                    }
                    _ => {}
                }
                out.push(Beat::Table(wrong));
                out.push(Beat::Table(before));
            }
            Err(_) => out.push(Beat::Press(line.action.clone())),
        }
    }
    Ok((out, accepted))
}

pub struct DemoFeed {
    beats: VecDeque<Beat>,
    layout: Layout,
    /// Frames each table change is held (longer than the tracker needs to commit a change).
    pub hold: u32,
    /// Of those, how many first frames have a hand over the table.
    pub hand_frames: u32,
    left_in_beat: u32,
    frame: u64,
    recognizer: Box<dyn Recognizer>,
}

impl DemoFeed {
    pub fn new(beats: Vec<Beat>, recognizer: Box<dyn Recognizer>) -> DemoFeed {
        DemoFeed {
            beats: beats.into(),
            layout: Layout::new(),
            hold: 9,
            hand_frames: 2,
            left_in_beat: 0,
            frame: 0,
            recognizer,
        }
    }
}

impl Feed for DemoFeed {
    fn poll(&mut self) -> FeedStatus {
        let mut presses = Vec::new();
        if self.left_in_beat == 0 {
            // Presses happen between table changes, once the last change has settled.
            while let Some(Beat::Press(p)) = self.beats.front() {
                presses.push(p.clone());
                self.beats.pop_front();
            }
            match self.beats.pop_front() {
                Some(Beat::Table(layout)) => {
                    self.layout = layout;
                    self.left_in_beat = self.hold;
                }
                Some(Beat::Press(_)) => unreachable!("presses are taken above"),
                None if presses.is_empty() => return FeedStatus::Ended,
                None => {}
            }
        }
        let hand = self.left_in_beat > self.hold - self.hand_frames.min(self.hold);
        let mut frame = self.recognizer.see(&self.layout, self.frame, hand);
        frame.presses = presses;
        self.frame += 1;
        self.left_in_beat = self.left_in_beat.saturating_sub(1);
        FeedStatus::Frame(Box::new(frame))
    }

    fn describe(&self) -> String {
        format!(
            "scripted demo, frame {} · {}",
            self.frame,
            self.recognizer.name()
        )
    }
}
