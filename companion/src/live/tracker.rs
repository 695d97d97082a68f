//! From a stream of per-frame sightings to table events: a change is committed only once it has been
//! seen the same way for several frames; frames with a hand over the table or heavy motion commit
//! nothing; a card briefly hidden keeps its last known state.
//!
//! The tracker knows nothing of any game: cards are catalogue ids, places are grid cells. Each game's
//! adapter turns its events into that game's actions.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A grid cell as the camera assigns it: (column, row from the viewer's side), 0-based.
pub type GridCell = (i8, i8);

/// One card as seen in one frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sighting {
    /// Catalogue id; `None` when identification abstained.
    pub card: Option<String>,
    pub cell: Option<GridCell>,
    /// Turned sideways (tapped left or right).
    pub tapped: bool,
    /// Partly covered: seen, but not trusted.
    pub covered: bool,
    pub confidence: f32,
}

/// What one frame showed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FrameSightings {
    pub index: u64,
    pub sightings: Vec<Sighting>,
    /// A hand or arm over the table, or heavy motion: nothing in this frame is committed.
    pub occluded: bool,
}

/// Where a card lies and how it is turned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardPlace {
    pub cell: GridCell,
    pub tapped: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TableEvent {
    Placed {
        card: String,
        place: CardPlace,
    },
    Moved {
        card: String,
        from: GridCell,
        to: GridCell,
    },
    Removed {
        card: String,
        from: GridCell,
    },
    Tapped {
        card: String,
    },
    Untapped {
        card: String,
    },
    /// Something stable the tracker cannot name: an unidentified card at a cell.
    Uncertain {
        cell: GridCell,
        note: String,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrackerConfig {
    /// Frames a change must be seen unchanged before it is committed.
    pub stable_frames: u32,
    /// Frames a committed card may be missing (and not covered) before it counts as removed.
    pub missing_frames: u32,
    /// Sightings below this confidence are ignored.
    pub min_confidence: f32,
}

impl Default for TrackerConfig {
    fn default() -> Self {
        TrackerConfig {
            stable_frames: 3,
            missing_frames: 5,
            min_confidence: 0.5,
        }
    }
}

#[derive(Clone, Debug, Default)]
struct Candidate {
    place: Option<CardPlace>,
    frames: u32,
}

/// Everything a tracker remembers between frames, to be journalled beside a committed table: a
/// tracker restored from it and fed the frames after reads them exactly as the one it was taken
/// from (a fresh one would commit every card again, one by one as each steadies).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TrackerMemory {
    committed: BTreeMap<String, CardPlace>,
    /// (card, the place it is being seen at, frames seen there so far).
    candidates: Vec<(String, Option<CardPlace>, u32)>,
    /// (cell, frames an unnamed card has lain there, reported yet).
    unknown: Vec<(GridCell, u32, bool)>,
    quiet_frames: u32,
}

#[derive(Clone, Debug, Default)]
pub struct Tracker {
    pub config: TrackerConfig,
    committed: BTreeMap<String, CardPlace>,
    candidates: BTreeMap<String, Candidate>,
    unknown: BTreeMap<GridCell, u32>,
    reported_unknown: BTreeMap<GridCell, bool>,
    /// Frames in a row that changed nothing (the adapter uses this to close joint attacks).
    pub quiet_frames: u32,
}

impl Tracker {
    pub fn new(config: TrackerConfig) -> Tracker {
        Tracker {
            config,
            ..Tracker::default()
        }
    }

    /// A tracker that goes on from `memory` (see [`TrackerMemory`]).
    pub fn restore(config: TrackerConfig, memory: &TrackerMemory) -> Tracker {
        Tracker {
            config,
            committed: memory.committed.clone(),
            candidates: memory
                .candidates
                .iter()
                .map(|(card, place, frames)| {
                    let (place, frames) = (*place, *frames);
                    (card.clone(), Candidate { place, frames })
                })
                .collect(),
            unknown: memory.unknown.iter().map(|(c, n, _)| (*c, *n)).collect(),
            reported_unknown: memory.unknown.iter().map(|(c, _, r)| (*c, *r)).collect(),
            quiet_frames: memory.quiet_frames,
        }
    }

    /// What this tracker remembers, for [`Tracker::restore`].
    pub fn memory(&self) -> TrackerMemory {
        TrackerMemory {
            committed: self.committed.clone(),
            candidates: self
                .candidates
                .iter()
                .map(|(card, c)| (card.clone(), c.place, c.frames))
                .collect(),
            unknown: self
                .unknown
                .iter()
                .map(|(cell, n)| {
                    let reported = self.reported_unknown.get(cell).copied().unwrap_or(false);
                    (*cell, *n, reported)
                })
                .collect(),
            quiet_frames: self.quiet_frames,
        }
    }

    /// The table as last committed.
    pub fn committed(&self) -> &BTreeMap<String, CardPlace> {
        &self.committed
    }

    pub fn update(&mut self, frame: &FrameSightings) -> Vec<TableEvent> {
        if frame.occluded {
            self.quiet_frames = 0;
            return Vec::new();
        }
        let trusted: BTreeMap<&str, CardPlace> = frame
            .sightings
            .iter()
            .filter(|s| !s.covered && s.confidence >= self.config.min_confidence)
            .filter_map(|s| {
                Some((
                    s.card.as_deref()?,
                    CardPlace {
                        cell: s.cell?,
                        tapped: s.tapped,
                    },
                ))
            })
            .collect();
        let covered_cells: Vec<GridCell> = frame
            .sightings
            .iter()
            .filter(|s| s.covered)
            .filter_map(|s| s.cell)
            .collect();

        let mut events = Vec::new();
        let mut ids: Vec<String> = self.committed.keys().cloned().collect();
        ids.extend(trusted.keys().map(|s| s.to_string()));
        ids.sort();
        ids.dedup();
        for id in ids {
            let seen = trusted.get(id.as_str()).copied();
            let known = self.committed.get(&id).copied();
            // A committed card that is not seen but lies under a covered sighting is only hidden.
            let hidden = seen.is_none() && known.is_some_and(|k| covered_cells.contains(&k.cell));
            if seen == known || hidden {
                self.candidates.remove(&id);
                continue;
            }
            let need = if seen.is_none() {
                self.config.missing_frames
            } else {
                self.config.stable_frames
            };
            let cand = self.candidates.entry(id.clone()).or_default();
            if cand.place == seen {
                cand.frames += 1;
            } else {
                *cand = Candidate {
                    place: seen,
                    frames: 1,
                };
            }
            if cand.frames >= need {
                self.candidates.remove(&id);
                events.extend(self.commit(&id, known, seen));
            }
        }
        events.extend(self.track_unknown(frame));
        self.quiet_frames = if events.is_empty() {
            self.quiet_frames + 1
        } else {
            0
        };
        events
    }

    fn commit(
        &mut self,
        id: &str,
        known: Option<CardPlace>,
        seen: Option<CardPlace>,
    ) -> Vec<TableEvent> {
        let card = id.to_string();
        match (known, seen) {
            (None, Some(place)) => {
                self.committed.insert(card.clone(), place);
                vec![TableEvent::Placed { card, place }]
            }
            (Some(k), None) => {
                self.committed.remove(id);
                vec![TableEvent::Removed { card, from: k.cell }]
            }
            (Some(k), Some(s)) => {
                self.committed.insert(card.clone(), s);
                let mut out = Vec::new();
                if k.cell != s.cell {
                    out.push(TableEvent::Moved {
                        card: card.clone(),
                        from: k.cell,
                        to: s.cell,
                    });
                }
                if k.tapped != s.tapped {
                    out.push(if s.tapped {
                        TableEvent::Tapped { card }
                    } else {
                        TableEvent::Untapped { card }
                    });
                }
                out
            }
            (None, None) => Vec::new(),
        }
    }

    /// Unidentified cards that stay put are reported once, so the players can name them.
    fn track_unknown(&mut self, frame: &FrameSightings) -> Vec<TableEvent> {
        let cells: Vec<GridCell> = frame
            .sightings
            .iter()
            .filter(|s| s.card.is_none() && !s.covered)
            .filter_map(|s| s.cell)
            .collect();
        self.unknown.retain(|c, _| cells.contains(c));
        let mut out = Vec::new();
        for cell in cells {
            let n = self.unknown.entry(cell).or_insert(0);
            *n += 1;
            if *n == self.config.stable_frames
                && !self.reported_unknown.get(&cell).copied().unwrap_or(false)
            {
                self.reported_unknown.insert(cell, true);
                out.push(TableEvent::Uncertain {
                    cell,
                    note: "a card here could not be identified".into(),
                });
            }
        }
        self.reported_unknown
            .retain(|c, _| self.unknown.contains_key(c));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(card: &str, cell: GridCell, tapped: bool) -> Sighting {
        Sighting {
            card: Some(card.into()),
            cell: Some(cell),
            tapped,
            covered: false,
            confidence: 0.9,
        }
    }

    fn frame(index: u64, sightings: Vec<Sighting>) -> FrameSightings {
        FrameSightings {
            index,
            sightings,
            occluded: false,
        }
    }

    fn feed(t: &mut Tracker, frames: &[FrameSightings]) -> Vec<TableEvent> {
        frames.iter().flat_map(|f| t.update(f)).collect()
    }

    #[test]
    fn a_card_is_committed_only_after_stable_frames() {
        let mut t = Tracker::new(TrackerConfig::default());
        let f = frame(0, vec![seen("us-u01", (1, 2), false)]);
        assert!(t.update(&f).is_empty());
        assert!(t.update(&f).is_empty());
        let ev = t.update(&f);
        assert_eq!(
            ev,
            vec![TableEvent::Placed {
                card: "us-u01".into(),
                place: CardPlace {
                    cell: (1, 2),
                    tapped: false
                }
            }]
        );
    }

    #[test]
    fn a_flicker_commits_nothing() {
        let mut t = Tracker::new(TrackerConfig::default());
        let a = frame(0, vec![seen("us-u01", (1, 2), false)]);
        let b = frame(1, vec![seen("us-u01", (2, 2), false)]);
        assert!(feed(&mut t, &[a.clone(), b.clone(), a.clone(), b]).is_empty());
    }

    #[test]
    fn occluded_frames_commit_nothing() {
        let mut t = Tracker::new(TrackerConfig::default());
        let mut f = frame(0, vec![seen("us-u01", (1, 2), false)]);
        f.occluded = true;
        assert!(feed(&mut t, &[f.clone(), f.clone(), f.clone(), f]).is_empty());
    }

    #[test]
    fn moves_taps_and_removals_are_reported() {
        let mut t = Tracker::new(TrackerConfig::default());
        let placed = frame(0, vec![seen("us-u01", (1, 2), false)]);
        feed(&mut t, &[placed.clone(), placed.clone(), placed]);
        let moved = frame(1, vec![seen("us-u01", (1, 3), true)]);
        let ev = feed(&mut t, &[moved.clone(), moved.clone(), moved]);
        assert_eq!(
            ev,
            vec![
                TableEvent::Moved {
                    card: "us-u01".into(),
                    from: (1, 2),
                    to: (1, 3)
                },
                TableEvent::Tapped {
                    card: "us-u01".into()
                }
            ]
        );
        let empty = frame(2, vec![]);
        let ev = feed(&mut t, &vec![empty; 5]);
        assert_eq!(
            ev,
            vec![TableEvent::Removed {
                card: "us-u01".into(),
                from: (1, 3)
            }]
        );
    }

    #[test]
    fn a_briefly_hidden_card_keeps_its_state() {
        let mut t = Tracker::new(TrackerConfig::default());
        let placed = frame(0, vec![seen("us-u01", (1, 2), false)]);
        feed(&mut t, &[placed.clone(), placed.clone(), placed]);
        let gone = frame(1, vec![]);
        assert!(
            feed(&mut t, &vec![gone; 4]).is_empty(),
            "4 missing frames are not yet a removal"
        );
        let covered = frame(
            2,
            vec![Sighting {
                covered: true,
                card: None,
                ..seen("x", (1, 2), false)
            }],
        );
        assert!(
            feed(&mut t, &vec![covered; 20]).is_empty(),
            "covered: kept as it was"
        );
        assert!(t.committed().contains_key("us-u01"));
    }

    #[test]
    fn an_unidentified_card_is_reported_once() {
        let mut t = Tracker::new(TrackerConfig::default());
        let f = frame(
            0,
            vec![Sighting {
                card: None,
                ..seen("x", (0, 0), false)
            }],
        );
        let ev = feed(&mut t, &vec![f; 10]);
        assert_eq!(ev.len(), 1);
        assert!(matches!(ev[0], TableEvent::Uncertain { cell: (0, 0), .. }));
    }

    /// A tracker restored from another's journalled memory mid-change reads the following frames
    /// exactly as the original does; a fresh one does not.
    #[test]
    fn a_restored_tracker_goes_on_like_the_original() {
        let unnamed = |cell| Sighting {
            card: None,
            ..seen("x", cell, false)
        };
        let frames: Vec<FrameSightings> = (0..24u64)
            .map(|i| {
                let mut s = vec![seen("a", (0, 0), i >= 6)];
                if i >= 4 {
                    s.push(seen("b", (1, (i / 9) as i8), false));
                }
                if i % 7 != 3 {
                    s.push(unnamed((2, 2)));
                }
                frame(i, s)
            })
            .collect();
        for cut in [5usize, 7, 10, 13] {
            let mut original = Tracker::new(TrackerConfig::default());
            feed(&mut original, &frames[..cut]);
            let json = serde_json::to_string(&original.memory()).unwrap();
            let memory: TrackerMemory = serde_json::from_str(&json).unwrap();
            let mut restored = Tracker::restore(TrackerConfig::default(), &memory);
            let mut fresh = Tracker::new(TrackerConfig::default());
            let rest = &frames[cut..];
            let want = feed(&mut original, rest);
            assert_eq!(feed(&mut restored, rest), want, "cut at {cut}");
            assert_eq!(restored.memory(), original.memory());
            assert_ne!(
                feed(&mut fresh, rest),
                want,
                "cut at {cut}: a fresh tracker differs"
            );
        }
    }
}
