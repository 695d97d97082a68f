//! The table tally from the camera: each frame's seat readings become sightings for the game-agnostic
//! tracker, whose committed cards give each seat's colour count; the rules engine's `announce` says
//! what the table must hear, and each announcement is made once.
//!
//! Tracker keys. The tracker keys cards by name, but a 风声 deck holds many copies of one face, and a
//! seat may hold two of them; and the tally needs only the colour. So a card is keyed by seat, colour
//! and its rank among that seat's cards of that colour (`s2:black#1`), in the cell (seat, 0). A card
//! the matcher abstains on still counts when its header colour is read; one with no colour at all is
//! reported as unreadable in its seat.

use crate::live::tracker::{FrameSightings, Sighting, TableEvent, Tracker, TrackerConfig};
use message::tally::{announce, Said, SeatTally};
use message::{Colour, Profile};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use vision::message_table::{colour_en, SeatCard, SeatRegions};

/// What changed at the table in one frame.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Change {
    /// A seat's committed colour count changed.
    Tally {
        seat: usize,
        from: SeatTally,
        to: SeatTally,
    },
    /// The table must hear this (death, possible victory), with the rule.
    Announce(Said),
    /// A card stays in this seat that can be neither named nor its colour read.
    Unreadable { seat: usize },
}

pub struct TableSession {
    pub regions: SeatRegions,
    pub profile: Profile,
    tracker: Tracker,
    /// Tracker key → (seat, colour).
    keys: BTreeMap<String, (usize, Colour)>,
    pub tallies: Vec<SeatTally>,
    /// Every announcement made, in order.
    pub said: Vec<Said>,
    announced: BTreeSet<String>,
    /// The latest frame's reading (the panel draws it).
    pub last: Vec<SeatCard>,
    pub last_hand: bool,
    pub frames: u64,
}

fn key(seat: usize, colour: Colour, rank: usize) -> String {
    format!("s{}:{}#{rank}", seat + 1, colour_en(colour))
}

/// Whether a covered card is hidden by something that is not one of the cards beside it (a hand or
/// an arm): cards in a fanned row cover each other by design.
pub fn hand_over_table(cards: &[SeatCard]) -> bool {
    let radius = |c: &SeatCard| {
        c.corners
            .iter()
            .map(|p| (p[0] - c.center[0]).hypot(p[1] - c.center[1]))
            .fold(0.0f32, f32::max)
    };
    cards.iter().enumerate().any(|(i, c)| {
        c.covered
            && !cards.iter().enumerate().any(|(j, o)| {
                j != i
                    && (o.center[0] - c.center[0]).hypot(o.center[1] - c.center[1])
                        < radius(c) + radius(o)
            })
    })
}

impl TableSession {
    pub fn new(regions: SeatRegions, profile: Profile) -> TableSession {
        let seats = regions.seats.len();
        TableSession {
            regions,
            profile,
            tracker: Tracker::new(TrackerConfig::default()),
            keys: BTreeMap::new(),
            tallies: vec![SeatTally::default(); seats],
            said: Vec::new(),
            announced: BTreeSet::new(),
            last: Vec::new(),
            last_hand: false,
            frames: 0,
        }
    }

    /// New seat regions (set in the panel): the count starts again from what the camera sees.
    pub fn set_regions(&mut self, regions: SeatRegions) {
        let keep = std::mem::take(&mut self.said);
        *self = TableSession::new(regions, self.profile.clone());
        self.said = keep;
    }

    /// The tracker's sightings for one frame of seat readings.
    pub fn sightings(&mut self, index: u64, cards: &[SeatCard], occluded: bool) -> FrameSightings {
        let mut ranked: BTreeMap<(usize, Colour), Vec<&SeatCard>> = BTreeMap::new();
        let mut sightings = Vec::new();
        for c in cards {
            let Some(seat) = c.seat else { continue };
            match c.colour {
                Some(colour) => ranked.entry((seat, colour)).or_default().push(c),
                None => sightings.push(Sighting {
                    card: None,
                    cell: Some((seat as i8, 0)),
                    tapped: false,
                    covered: c.covered,
                    confidence: 0.0,
                }),
            }
        }
        for ((seat, colour), mut of) in ranked {
            // Rank along the row as the camera sees it, so a card keeps its key frame to frame.
            of.sort_by(|a, b| (a.center[0] + a.center[1]).total_cmp(&(b.center[0] + b.center[1])));
            for (rank, c) in of.into_iter().enumerate() {
                let k = key(seat, colour, rank);
                self.keys.insert(k.clone(), (seat, colour));
                sightings.push(Sighting {
                    card: Some(k),
                    cell: Some((seat as i8, 0)),
                    tapped: false,
                    covered: c.covered,
                    // Named cards carry the matcher's confidence; colour-only ones are as sure as
                    // their colour reading was to be used at all.
                    confidence: if c.face.is_some() {
                        c.confidence.max(0.5)
                    } else {
                        0.5
                    },
                });
            }
        }
        FrameSightings {
            index,
            sightings,
            occluded,
        }
    }

    /// One frame: returns what changed (tallies first, then what to announce).
    pub fn see(&mut self, index: u64, cards: Vec<SeatCard>) -> Vec<Change> {
        self.frames += 1;
        let hand = hand_over_table(&cards);
        let frame = self.sightings(index, &cards, hand);
        self.last = cards;
        self.last_hand = hand;
        let events = self.tracker.update(&frame);
        let mut out = Vec::new();
        let mut tallies = vec![SeatTally::default(); self.regions.seats.len()];
        for k in self.tracker.committed().keys() {
            if let Some((seat, colour)) = self.keys.get(k) {
                if let Some(t) = tallies.get_mut(*seat) {
                    match colour {
                        Colour::Red => t.red += 1,
                        Colour::Blue => t.blue += 1,
                        Colour::Black => t.black += 1,
                    }
                }
            }
        }
        for (seat, (from, to)) in self.tallies.iter().zip(&tallies).enumerate() {
            if from != to {
                out.push(Change::Tally {
                    seat,
                    from: *from,
                    to: *to,
                });
            }
        }
        self.tallies = tallies;
        for e in events {
            if let TableEvent::Uncertain { cell, .. } = e {
                out.push(Change::Unreadable {
                    seat: cell.0 as usize,
                });
            }
        }
        out.extend(self.announce_new().into_iter().map(Change::Announce));
        out
    }

    /// Announcements not made before (each once; deaths first under message.death_before_win).
    fn announce_new(&mut self) -> Vec<Said> {
        let mut out = Vec::new();
        for s in announce(&self.tallies, &self.profile) {
            let k = format!("{:?}", s.announcement);
            if self.announced.insert(k) {
                self.said.push(s.clone());
                out.push(s);
            }
        }
        out
    }
}

/// A change as one line of text (the headless table prints these).
pub fn describe(change: &Change) -> String {
    match change {
        Change::Tally { seat, from, to } => format!(
            "玩家{n} 情报 红{}蓝{}黑{} (was 红{}蓝{}黑{}) / seat {n}: {} red, {} blue, {} black",
            to.red,
            to.blue,
            to.black,
            from.red,
            from.blue,
            from.black,
            to.red,
            to.blue,
            to.black,
            n = seat + 1
        ),
        Change::Announce(s) => format!("宣告 {}  [{}]", s.text, s.rule),
        Change::Unreadable { seat } => format!(
            "玩家{n}面前有一张无法识别的牌 / seat {n}: a card here cannot be read (colour unknown)",
            n = seat + 1
        ),
    }
}
