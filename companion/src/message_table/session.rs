//! The table tally from the camera: each frame's seat readings become sightings for the game-agnostic
//! tracker, whose committed cards give each seat's colour count; the rules engine's `announce` says
//! what the table must hear, and each announcement is made once.
//!
//! Tracker keys. The tracker keys cards by name, but a 风声 deck holds many copies of one face, and a
//! seat may hold two of them; and the tally needs only the colour. So a card is keyed by seat, colour
//! and its rank among that seat's cards of that colour (`s2:black#1`), in the cell (seat, 0). A card
//! the matcher abstains on still counts when its header colour is read; one with no colour at all is
//! reported as unreadable in its seat.
//!
//! Players may correct the camera (a card lying fanned under another, a misread colour): a
//! correction is an offset per colour on top of the camera's count, kept until cleared, so later
//! frames do not undo it. A seat announced dead stays dead when its cards leave the table (the rule
//! puts them in the discard pile); its later tally is not announced, and a death declared by mistake
//! can be undone once the tally no longer holds three black.

use crate::live::confirm::Confirm;
use crate::live::tracker::{FrameSightings, Sighting, TableEvent, Tracker, TrackerConfig};
use crate::table::journal::Journal;
use message::tally::{announce, Announcement, Said, SeatTally};
use message::{Colour, Profile};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use vision::games::message::{colour_en, hand_over_table, SeatCard, SeatRegions};

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
    /// A player changed the seat's correction (zero: cleared); `camera` is the camera's own count.
    Corrected {
        seat: usize,
        by: Correction,
        camera: SeatTally,
    },
    /// A death declared by mistake was undone.
    DeathUndone { seat: usize },
}

/// A player's adjustment of one seat's tally, per colour, on top of what the camera counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Correction {
    pub red: i16,
    pub blue: i16,
    pub black: i16,
}

impl Correction {
    pub fn is_zero(&self) -> bool {
        *self == Correction::default()
    }
    pub fn of(&self, c: Colour) -> i16 {
        match c {
            Colour::Red => self.red,
            Colour::Blue => self.blue,
            Colour::Black => self.black,
        }
    }
    fn of_mut(&mut self, c: Colour) -> &mut i16 {
        match c {
            Colour::Red => &mut self.red,
            Colour::Blue => &mut self.blue,
            Colour::Black => &mut self.black,
        }
    }
    /// The corrected tally (never below zero).
    pub fn apply(&self, camera: SeatTally) -> SeatTally {
        let add = |n: u8, by: i16| (n as i16 + by).clamp(0, u8::MAX as i16) as u8;
        SeatTally {
            red: add(camera.red, self.red),
            blue: add(camera.blue, self.blue),
            black: add(camera.black, self.black),
        }
    }
}

/// Why a death cannot be undone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UndoRefused {
    NotDead {
        seat: usize,
    },
    /// The tally still holds three black: the death would be declared again at once.
    StillThreeBlack {
        seat: usize,
        black: u8,
    },
}

impl std::fmt::Display for UndoRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UndoRefused::NotDead { seat } => write!(
                f,
                "玩家{n}没有死亡 / seat {n} is not dead",
                n = seat + 1
            ),
            UndoRefused::StillThreeBlack { seat, black } => write!(
                f,
                "玩家{n}仍有{black}张黑情报：先修正计数（黑 -1）再撤销 / seat {n} still counts {black} black: correct the tally (black -1) first [风声规则 死亡]",
                n = seat + 1
            ),
        }
    }
}

pub struct TableSession {
    pub regions: SeatRegions,
    pub profile: Profile,
    tracker: Tracker,
    /// Tracker key → (seat, colour).
    keys: BTreeMap<String, (usize, Colour)>,
    /// What the camera's committed cards give, per seat.
    pub camera: Vec<SeatTally>,
    /// Players' corrections, per seat (kept until cleared).
    pub corrections: Vec<Correction>,
    /// The tally announced from: the camera's count with the corrections.
    pub tallies: Vec<SeatTally>,
    /// Seats announced dead, with the tally they died with (kept when their cards leave the table).
    pub dead: Vec<Option<SeatTally>>,
    /// Every announcement made, in order.
    pub said: Vec<Said>,
    announced: BTreeSet<String>,
    /// The latest frame's reading (the panel draws it).
    pub last: Vec<SeatCard>,
    pub last_hand: bool,
    pub frames: u64,
    /// Frames still to see after a resume before the camera's count is trusted again (the
    /// tracker starts empty and must see each card for a few frames first).
    warmup: u32,
    /// The source frame of the last camera count taken (a recorded source resumes after it).
    pub last_frame: Option<u64>,
    /// A step that could not be journalled (the game goes on; the panel and CLI say so).
    pub journal_error: Option<String>,
    /// When a count the camera sees is taken: at once (stable), or after the players' OK.
    pub confirm: Confirm,
    /// The count waiting for that OK (a newer one replaces it).
    pub held: Option<HeldCount>,
    /// A count the players said was not what lies on the table: not offered again until the
    /// camera sees something else.
    rejected: Option<Vec<SeatTally>>,
    /// Camera counts taken so far (replayed ones too): with the seats, how far the game is.
    taken: usize,
    journal: Option<Journal>,
}

/// The camera's count per seat, waiting for the players' OK before it is taken.
#[derive(Clone, Debug, PartialEq)]
pub struct HeldCount {
    frame: u64,
    counts: Vec<SeatTally>,
    /// What changed, a line per seat, in both languages.
    pub understood: Vec<String>,
}

/// One committed step of a 风声 table, journalled before it is taken (`super::record`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Step {
    /// The camera's committed count per seat changed, at this source frame.
    Camera { frame: u64, counts: Vec<SeatTally> },
    /// A player set a seat's correction (zero: cleared).
    Correct { seat: usize, by: Correction },
    /// A death declared by mistake was undone.
    UndoDeath { seat: usize },
    /// New seat regions were set in the panel.
    Regions(SeatRegions),
    /// The players chose when the camera's counts are taken.
    Confirm(Confirm),
}

fn key(seat: usize, colour: Colour, rank: usize) -> String {
    format!("s{}:{}#{rank}", seat + 1, colour_en(colour))
}

impl TableSession {
    pub fn new(regions: SeatRegions, profile: Profile) -> TableSession {
        let seats = regions.seats.len();
        TableSession {
            regions,
            profile,
            tracker: Tracker::new(TrackerConfig::default()),
            keys: BTreeMap::new(),
            camera: vec![SeatTally::default(); seats],
            corrections: vec![Correction::default(); seats],
            tallies: vec![SeatTally::default(); seats],
            dead: vec![None; seats],
            said: Vec::new(),
            announced: BTreeSet::new(),
            last: Vec::new(),
            last_hand: false,
            frames: 0,
            warmup: 0,
            last_frame: None,
            journal_error: None,
            confirm: Confirm::Stable,
            held: None,
            rejected: None,
            taken: 0,
            journal: None,
        }
    }

    /// Journals `step` (synced to disk) before it is taken.
    fn record(&mut self, step: &Step) {
        if let Some(j) = self.journal.as_mut() {
            if let Err(e) = j.append(step) {
                self.journal_error = Some(format!("{e:#}"));
            }
        }
    }

    /// Keeps every later step in `journal`; `resumed`: the game was replayed from it, so the
    /// camera's count holds until the tracker has seen the table again.
    pub fn keep_journal(&mut self, journal: Journal, resumed: bool) {
        self.journal = Some(journal);
        if resumed {
            self.warmup = self.tracker.config.stable_frames + 1;
        }
    }

    pub fn journal_path(&self) -> Option<&std::path::Path> {
        self.journal.as_ref().map(Journal::path)
    }

    /// Takes the camera's count (a frame's, or one replayed from the journal).
    pub fn take_camera(&mut self, frame: u64, counts: Vec<SeatTally>) -> Vec<Change> {
        self.record(&Step::Camera {
            frame,
            counts: counts.clone(),
        });
        self.last_frame = Some(frame);
        self.taken += 1;
        self.camera = counts;
        self.camera
            .resize(self.regions.seats.len(), SeatTally::default());
        let mut out = self.retally();
        out.extend(self.announce_new().into_iter().map(Change::Announce));
        out
    }

    /// New seat regions (set in the panel): the count starts again from what the camera sees; what
    /// was said, the deaths and the players' corrections are kept.
    pub fn set_regions(&mut self, regions: SeatRegions) {
        let said = std::mem::take(&mut self.said);
        let announced = std::mem::take(&mut self.announced);
        let mut corrections = std::mem::take(&mut self.corrections);
        let mut dead = std::mem::take(&mut self.dead);
        let journal = self.journal.take();
        let (frames, last_frame, journal_error) =
            (self.frames, self.last_frame, self.journal_error.take());
        let (confirm, taken) = (self.confirm, self.taken);
        *self = TableSession::new(regions.clone(), self.profile.clone());
        self.journal = journal;
        (self.frames, self.last_frame, self.journal_error) = (frames, last_frame, journal_error);
        (self.confirm, self.taken) = (confirm, taken);
        self.record(&Step::Regions(regions));
        corrections.resize(self.corrections.len(), Correction::default());
        dead.resize(self.dead.len(), None);
        self.said = said;
        self.announced = announced;
        self.corrections = corrections;
        self.dead = dead;
        self.tallies = self
            .corrections
            .iter()
            .map(|c| c.apply(SeatTally::default()))
            .collect();
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

    /// One frame: returns what changed (tallies first, then what to announce). `hand_seen`: the
    /// camera saw a hand over the table (skin where the table changed); a card read as covered
    /// with no card beside it to cover it says so too. Such a frame commits nothing.
    pub fn see(&mut self, index: u64, cards: Vec<SeatCard>, hand_seen: bool) -> Vec<Change> {
        self.frames += 1;
        let hand = hand_seen || hand_over_table(&cards);
        let frame = self.sightings(index, &cards, hand);
        self.last = cards;
        self.last_hand = hand;
        let events = self.tracker.update(&frame);
        let mut out = Vec::new();
        let mut camera = vec![SeatTally::default(); self.regions.seats.len()];
        for k in self.tracker.committed().keys() {
            if let Some((seat, colour)) = self.keys.get(k) {
                if let Some(t) = camera.get_mut(*seat) {
                    match colour {
                        Colour::Red => t.red += 1,
                        Colour::Blue => t.blue += 1,
                        Colour::Black => t.black += 1,
                    }
                }
            }
        }
        if self.warmup > 0 {
            self.warmup -= 1;
        } else if camera == self.camera {
            // The table is back to what was counted.
            self.held = None;
            self.rejected = None;
        } else if self.confirm.waits() {
            if let Some(held) = self.held.as_mut().filter(|h| h.counts == camera) {
                // Held already: only the frame it was last seen in moves on.
                held.frame = index;
            } else if self.rejected.as_ref() != Some(&camera) {
                self.rejected = None;
                let understood = self.understand(&camera);
                self.held = Some(HeldCount {
                    frame: index,
                    counts: camera,
                    understood,
                });
            }
        } else {
            out.extend(self.take_camera(index, camera));
        }
        out.extend(self.retally());
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

    /// How `counts` differ from the count taken, a line per seat that changed.
    fn understand(&self, counts: &[SeatTally]) -> Vec<String> {
        let none = SeatTally::default();
        counts
            .iter()
            .enumerate()
            .filter_map(|(seat, to)| {
                let from = self.camera.get(seat).unwrap_or(&none);
                (from != to).then(|| {
                    let n = seat + 1;
                    let zh = |t: &SeatTally| format!("红{} 蓝{} 黑{}", t.red, t.blue, t.black);
                    let en = |t: &SeatTally| {
                        format!("{} red, {} blue, {} black", t.red, t.blue, t.black)
                    };
                    format!(
                        "座位 {n}：{} → {} / seat {n}: {} → {}",
                        zh(from),
                        zh(to),
                        en(from),
                        en(to)
                    )
                })
            })
            .collect()
    }

    /// The players' OK: the held count is journalled and taken; what changed with it.
    pub fn confirm_held(&mut self) -> Vec<Change> {
        match self.held.take() {
            Some(held) => self.take_camera(held.frame, held.counts),
            None => Vec::new(),
        }
    }

    /// The players' "not this": the held count is dropped, and not offered again until the camera
    /// sees the table change.
    pub fn reject_held(&mut self) {
        if let Some(held) = self.held.take() {
            self.rejected = Some(held.counts);
        }
    }

    /// The players chose the policy for the rest of the game (journalled); stable takes the held
    /// count now.
    pub fn set_confirm(&mut self, policy: Confirm) -> Vec<Change> {
        self.record(&Step::Confirm(policy));
        self.confirm = policy;
        if policy.waits() {
            Vec::new()
        } else {
            self.confirm_held()
        }
    }

    /// About how many rounds of intelligence have been counted: one card a seat is a round.
    pub fn round(&self) -> u16 {
        let seats = self.regions.seats.len().max(1);
        (self.taken / seats + 1).min(u16::MAX as usize) as u16
    }

    /// The announced tallies from the camera's count and the corrections: what changed.
    fn retally(&mut self) -> Vec<Change> {
        let tallies: Vec<SeatTally> = self
            .camera
            .iter()
            .zip(&self.corrections)
            .map(|(t, c)| c.apply(*t))
            .collect();
        let mut out = Vec::new();
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
        out
    }

    /// A player's correction of one seat's count of one colour by `delta` (kept until cleared);
    /// refused (nothing changes) where the tally would go below zero. The announcements are made
    /// again from the corrected tally.
    pub fn correct(&mut self, seat: usize, colour: Colour, delta: i16) -> Vec<Change> {
        let (Some(by), Some(t)) = (self.corrections.get(seat), self.tallies.get(seat)) else {
            return Vec::new();
        };
        let to = t.count(colour) as i16 + delta;
        if delta == 0 || !(0..=u8::MAX as i16).contains(&to) {
            return Vec::new();
        }
        let mut by = *by;
        *by.of_mut(colour) += delta;
        self.set_correction(seat, by)
    }

    /// Back to the camera's own count for this seat.
    pub fn clear_correction(&mut self, seat: usize) -> Vec<Change> {
        match self.corrections.get(seat) {
            Some(c) if !c.is_zero() => self.set_correction(seat, Correction::default()),
            _ => Vec::new(),
        }
    }

    /// Sets a seat's correction (zero: back to the camera's count).
    pub fn set_correction(&mut self, seat: usize, by: Correction) -> Vec<Change> {
        if seat >= self.corrections.len() {
            return Vec::new();
        }
        self.record(&Step::Correct { seat, by });
        self.corrections[seat] = by;
        let mut out = vec![Change::Corrected {
            seat,
            by,
            camera: self.camera[seat],
        }];
        out.extend(self.retally());
        out.extend(self.announce_new().into_iter().map(Change::Announce));
        out
    }

    /// Whether the seat was announced dead.
    pub fn is_dead(&self, seat: usize) -> bool {
        self.dead.get(seat).is_some_and(Option::is_some)
    }

    /// Undoes a death declared by mistake: the seat is alive again and its death is taken out of
    /// what was said. Refused while the tally still holds three black (it would die again at once).
    pub fn undo_death(&mut self, seat: usize) -> Result<Vec<Change>, UndoRefused> {
        if !self.is_dead(seat) {
            return Err(UndoRefused::NotDead { seat });
        }
        let black = self.tallies[seat].black;
        if black >= 3 {
            return Err(UndoRefused::StillThreeBlack { seat, black });
        }
        self.record(&Step::UndoDeath { seat });
        self.dead[seat] = None;
        let death = Announcement::Death { seat };
        self.announced.remove(&format!("{death:?}"));
        self.said.retain(|s| s.announcement != death);
        let mut out = vec![Change::DeathUndone { seat }];
        out.extend(self.announce_new().into_iter().map(Change::Announce));
        Ok(out)
    }

    /// Announcements not made before (each once; deaths first under message.death_before_win). A
    /// seat dead before this tally is not announced again: its cards are leaving the table.
    fn announce_new(&mut self) -> Vec<Said> {
        let dead_before: Vec<bool> = self.dead.iter().map(Option::is_some).collect();
        let mut out = Vec::new();
        for s in announce(&self.tallies, &self.profile) {
            let seat = match s.announcement {
                Announcement::Death { seat } | Announcement::PossibleVictory { seat, .. } => seat,
            };
            if dead_before.get(seat).copied().unwrap_or(false) {
                continue;
            }
            if let Announcement::Death { seat } = s.announcement {
                if let Some(d) = self.dead.get_mut(seat) {
                    *d = Some(self.tallies[seat]);
                }
            }
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
        Change::Corrected { seat, by, camera } if by.is_zero() => format!(
            "玩家{n} 修正已清除，按摄像头计数 红{}蓝{}黑{} / seat {n}: correction cleared, the camera's count again",
            camera.red,
            camera.blue,
            camera.black,
            n = seat + 1
        ),
        Change::Corrected { seat, by, camera } => format!(
            "玩家{n} 已修正 红{:+}蓝{:+}黑{:+}（摄像头 红{}蓝{}黑{}）/ seat {n} corrected: red {:+}, blue {:+}, black {:+} on the camera's count",
            by.red,
            by.blue,
            by.black,
            camera.red,
            camera.blue,
            camera.black,
            by.red,
            by.blue,
            by.black,
            n = seat + 1
        ),
        Change::DeathUndone { seat } => format!(
            "玩家{n} 死亡已撤销 / seat {n}: death undone (declared by mistake)",
            n = seat + 1
        ),
        Change::Unreadable { seat } => format!(
            "玩家{n}面前有一张无法识别的牌 / seat {n}: a card here cannot be read (colour unknown)",
            n = seat + 1
        ),
    }
}
