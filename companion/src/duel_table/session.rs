//! One table session: frames → tracker → adapter, with the latest image and outlines for the panel,
//! every step the game takes journalled first (`crate::table::journal`) so a crash loses nothing.
//!
//! The journal records the adapter's inputs, not the engine's moves: each table the tracker
//! committed and each panel answer, in order. The adapter is deterministic, so replaying them on
//! the same demo decks rebuilds the very same game (hidden cards revealed, payments waiting,
//! removals awaited) without the engine's moves having to be told apart from the adapter's.

use super::adapter::TableGame;
use super::correct::{self, Correction};
use super::data::GameData;
use super::feed::{snapshot, TableSnapshot};
use crate::live::allied::ImageEdge;
use crate::live::confirm::Confirm;
use crate::live::runner::next_frame;
use crate::live::tracker::{Tracker, TrackerConfig, TrackerMemory};
use crate::panel::feed::{Feed, FeedFrame, Overlay};
use crate::table::journal::{expect_game, fingerprint, Journal};
use anyhow::bail;
use duel::CardId;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Named sightings below this are ignored. Lower than Blitz's 0.5: Duel faces of one faction share
/// the header colour, so a right name often wins by a smaller lead; the scanner already abstains
/// when the lead is unclear, and a change still has to hold for several frames.
pub const MIN_CONFIDENCE: f32 = 0.15;

const GAME: &str = "duel";
const FORMAT: u32 = 1;

/// The journal's first line: everything the game was set up from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Always "duel": another game's journal is refused.
    pub game: String,
    pub format: u32,
    /// Shuffle seed of the demo decks.
    pub seed: u64,
    /// Nobody at the panel: the engine passes and pays (as `TableGame::auto_pass`/`auto_pay`).
    pub headless: bool,
    /// FNV-1a of the catalogue file the game was played with: a changed one cannot replay.
    pub catalogue: String,
    /// The catalogue and decks when not the shipped demo ones, whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<GameData>,
}

/// One committed step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Step {
    /// The table as the tracker committed it at frame `frame` of the source.
    Table {
        frame: u64,
        table: Box<TableSnapshot>,
        /// The tracker after that frame: a resumed session reads the frames after it as this one
        /// would have (journals written before it was kept resume with a fresh tracker).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tracker: Option<Box<TrackerMemory>>,
    },
    /// The priority holder passed (panel).
    Pass,
    /// Both players passed until the stack was empty (panel).
    Resolve,
    /// The waiting payment settled with these territories (panel).
    Pay(Vec<CardId>),
    /// The engine chose the waiting payment's territories (panel).
    EnginePays,
    /// The near player sits at this edge of the camera picture (panel).
    NearSide(ImageEdge),
    /// The players chose when tables the camera saw are committed (panel).
    Confirm(Confirm),
    /// The players said what a card the camera misread is (panel): every later table is read
    /// with it.
    Correct(Correction),
}

/// A table the camera saw, waiting for the players' OK before the game takes it.
#[derive(Clone, Debug, PartialEq)]
pub struct HeldTable {
    step: Step,
    /// The table as the camera read it, before the players' corrections.
    pub read: TableSnapshot,
    /// What the game would make of it, in words (plays, payments, attacks, refusals).
    pub understood: Vec<String>,
}

impl HeldTable {
    /// The table held, the players' corrections laid over it.
    pub fn table(&self) -> Option<&TableSnapshot> {
        match &self.step {
            Step::Table { table, .. } => Some(table),
            _ => None,
        }
    }
}

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
    /// The 陣地 were laid from the units (no mat) but nothing said which side is near.
    pub near_side_unknown: bool,
    /// The players' answer: the edge of the camera picture the near player sits at.
    pub near_edge: Option<ImageEdge>,
    /// Commit nothing while the near side is a guess (a panel that can ask); headless, the guess
    /// (the picture's bottom) is played.
    pub wait_for_near_side: bool,
    /// The source frame of the last table committed (a recorded source resumes after it).
    pub last_frame: Option<u64>,
    /// A step that could not be journalled (the game goes on; the panel shows it).
    pub journal_error: Option<String>,
    /// When a table the camera saw is taken: at once (stable), or after the players' OK.
    pub confirm: Confirm,
    /// The table waiting for that OK (a newer one replaces it: each is the whole table).
    pub held: Option<HeldTable>,
    /// What the players said about cards the camera misread, in the order said.
    pub corrections: Vec<Correction>,
    /// The last table the game took.
    pub taken: TableSnapshot,
    journal: Option<Journal>,
}

impl Header {
    #[cfg(test)]
    pub fn demo(seed: u64, headless: bool) -> Header {
        Header::new(seed, headless, None)
    }

    /// A game of `data` (`None`: the shipped demo catalogue and decks).
    pub fn new(seed: u64, headless: bool, data: Option<GameData>) -> Header {
        let catalogue = data
            .as_ref()
            .map_or(duel::catalogue::DEMO_TOML, |d| d.catalogue.text.as_str());
        Header {
            game: GAME.into(),
            format: FORMAT,
            seed,
            headless,
            catalogue: fingerprint(catalogue),
            data,
        }
    }

    /// What the game is played with.
    pub fn data(&self) -> GameData {
        self.data.clone().unwrap_or_else(GameData::demo)
    }

    fn game(&self) -> anyhow::Result<TableGame> {
        let mut game = TableGame::start(&self.data(), self.seed)?;
        // Nobody to press buttons: nobody responds, and an unclear payment takes the engine's way.
        game.auto_pass = self.headless;
        game.auto_pay = self.headless;
        Ok(game)
    }
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
            near_side_unknown: false,
            near_edge: None,
            wait_for_near_side: false,
            last_frame: None,
            journal_error: None,
            confirm: Confirm::Stable,
            held: None,
            corrections: Vec::new(),
            taken: TableSnapshot::default(),
            journal: None,
        }
    }

    /// A new demo game set up from `header`, journalled at `journal` when given.
    pub fn start(header: &Header, journal: Option<&Path>) -> anyhow::Result<TableSession> {
        let mut session = TableSession::new(header.game()?);
        session.journal = journal.map(|p| Journal::create(p, header)).transpose()?;
        Ok(session)
    }

    /// Continues the game in the journal at `path`: replays every step. Returns the header and a
    /// warning when a cut-off last line was dropped.
    pub fn resume(path: &Path) -> anyhow::Result<(TableSession, Header, Option<String>)> {
        let (journal, resumed) = Journal::resume::<Header, Step>(path)?;
        let header = resumed.header;
        let shown = path.display();
        expect_game(path, (&header.game, header.format), (GAME, FORMAT), "Duel")?;
        let now = fingerprint(&header.data().catalogue.text);
        if header.catalogue != now {
            bail!(
                "{shown}:1: played with another catalogue ({}; this one is {now}): it cannot be replayed",
                header.catalogue
            );
        }
        let mut session = TableSession::new(header.game()?);
        let mut memory = None;
        for step in resumed.entries {
            session.apply(&step);
            if let Step::Table { tracker, .. } = step {
                memory = tracker;
            }
        }
        if let Some(memory) = memory {
            session.tracker = Tracker::restore(session.tracker.config.clone(), &memory);
        }
        session.journal = Some(journal);
        Ok((session, header, resumed.warning))
    }

    pub fn journal_path(&self) -> Option<&Path> {
        self.journal.as_ref().map(Journal::path)
    }

    /// Journals `step` (synced to disk), then takes it.
    pub fn step(&mut self, step: Step) {
        self.journal(&step);
        self.apply(&step);
    }

    fn journal(&mut self, step: &Step) {
        if let Some(j) = self.journal.as_mut() {
            if let Err(e) = j.append(step) {
                self.journal_error = Some(format!("{e:#}"));
            }
        }
    }

    fn apply(&mut self, step: &Step) {
        let game = &mut self.game;
        match step {
            Step::Table { frame, table, .. } => {
                self.last_frame = Some(*frame);
                self.taken = (**table).clone();
                game.sync(table)
            }
            Step::Pass => {
                game.pass();
            }
            Step::Resolve => game.resolve_stack(),
            Step::Pay(list) => {
                game.pay_waiting(list.clone());
            }
            Step::EnginePays => {
                if let Some(w) = game.waiting.take() {
                    let _ = game.apply(w.action);
                }
            }
            Step::NearSide(edge) => self.near_edge = Some(*edge),
            Step::Confirm(policy) => self.confirm = *policy,
            Step::Correct(c) => self.corrections.push(c.clone()),
        }
    }

    /// The round being played: both players' first turns are round 1.
    pub fn round(&self) -> u16 {
        (self.game.state.turn.div_ceil(2)).min(u16::MAX as u32) as u16
    }

    /// What taking `table` would do to the game, in words; empty when it changes nothing.
    fn understand(&self, table: &Step) -> Vec<String> {
        let mut trial = self.game.clone();
        let (log, flags) = (trial.log.len(), trial.flags.len());
        if let Step::Table { table, .. } = table {
            trial.sync(table);
        }
        // The plays, payments and attacks; what follows from them (events, indented) and the
        // priority passes that carry the game to the table's phase are in the log after OK.
        let pass = duel::view::describe_action(&trial.state, &duel::Action::Pass);
        let mut said: Vec<String> = trial.log[log.min(trial.log.len())..]
            .iter()
            .filter(|l| !l.starts_with(' ') && !l.ends_with(&pass))
            .cloned()
            .collect();
        said.extend(
            trial.flags[flags.min(trial.flags.len())..]
                .iter()
                .map(|f| format!("!! {} [{}]: {}", f.action, f.rule, f.reason)),
        );
        if said.is_empty() && trial.waiting.is_some() && self.game.waiting.is_none() {
            said.push("等待支付 a play waits for its payment".into());
        }
        said
    }

    /// The players' OK: the held table is journalled and taken.
    pub fn confirm_held(&mut self) {
        if let Some(held) = self.held.take() {
            self.step(held.step);
        }
    }

    /// The players' "not this": the held table is dropped; the game stays as it was until the
    /// camera sees the table change again.
    pub fn reject_held(&mut self) {
        if let Some(held) = self.held.take() {
            self.game
                .notes
                .push(format!("不采纳 not taken: {}", held.understood.join("; ")));
        }
    }

    /// The players' correction of a card in the held table (journalled): the table is read again
    /// with it and held for their OK, or taken when it no longer changes the game.
    pub fn correct_held(&mut self, correction: Correction) {
        self.step(Step::Correct(correction));
        if let Some(held) = self.held.take() {
            if let Step::Table { frame, tracker, .. } = held.step {
                let table = correct::corrected(&self.corrections, &held.read);
                let step = Step::Table {
                    frame,
                    table: Box::new(table),
                    tracker,
                };
                self.take_or_hold(step, held.read);
            }
        }
    }

    /// The players chose the policy for the rest of the game (journalled); stable takes the held
    /// table now.
    pub fn set_confirm(&mut self, policy: Confirm) {
        self.step(Step::Confirm(policy));
        if !policy.waits() {
            self.confirm_held();
        }
    }

    /// Whether the panel must ask which side of the picture is near.
    pub fn asks_near_side(&self) -> bool {
        self.near_side_unknown && self.near_edge.is_none()
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
        self.near_side_unknown = frame.allied_side_unknown;
        let mut sightings = frame.sightings;
        // Near and far swapped would move every unit across the table: wait for the answer.
        if self.wait_for_near_side && self.asks_near_side() {
            sightings.occluded = true;
        }
        let events = self.tracker.update(&sightings);
        // Nothing is taken while the players look at what the camera saw, nor from a frame that
        // changed nothing unless a payment waits on the table.
        let reads_table =
            !events.is_empty() || (self.held.is_none() && self.game.waiting.is_some());
        if !reads_table {
            self.last_events = events;
            return;
        }
        let read = snapshot(self.tracker.committed());
        let table = Step::Table {
            frame: sightings.index,
            table: Box::new(correct::corrected(&self.corrections, &read)),
            tracker: Some(Box::new(self.tracker.memory())),
        };
        if !events.is_empty() {
            self.take_or_hold(table, read);
        } else {
            // A waiting payment reads the table again each frame; a frame that moved nothing is
            // not journalled (a replay without it rebuilds the same game).
            let before = self.game.position();
            self.apply(&table);
            if !self.game.is_at(&before) {
                self.journal(&table);
            }
        }
        self.last_events = events;
    }

    /// A table the tracker committed: taken now, or held for the players' OK when the policy waits
    /// and it would change the game.
    fn take_or_hold(&mut self, table: Step, read: TableSnapshot) {
        if !self.confirm.waits() {
            self.step(table);
            return;
        }
        let understood = self.understand(&table);
        if understood.is_empty() {
            self.held = None;
            self.step(table);
        } else {
            self.held = Some(HeldTable {
                step: table,
                read,
                understood,
            });
        }
    }
}
