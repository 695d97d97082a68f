//! Frames for the table: a camera, a video, a folder of images, or a synthetic game in progress;
//! each frame is scanned and read into seat cards.

use anyhow::Context;
use message::Catalogue;
use opencv::core::Mat;
use vision::games::message::{
    layout_from_colours, message_scanner, read_with_seat_cards, MessageFace, MessageSceneOptions,
    MessageSceneRenderer, SeatCard, SeatRegions,
};
use vision::memory::TableMemory;
use vision::source::{Frame, FrameSource};
use vision::Scanner;

/// One frame, read.
pub struct TableFrame {
    pub index: u64,
    pub origin: String,
    /// BGR.
    pub image: Mat,
    pub cards: Vec<SeatCard>,
    /// The seat regions this frame was read against when the seat cards gave them (every seat's
    /// card seen); `None`: the regions drawn for the camera.
    pub regions_from_seat_cards: Option<SeatRegions>,
    /// A hand (skin where the table changed, [`vision::hands::HandWatch`] through the scanner's
    /// table memory) is over the table.
    pub hand_seen: bool,
    pub scan_ms: f64,
}

/// A synthetic game: one seeded table whose cards arrive one at a time (`frames_per_card` frames
/// each), seen through the same camera with fresh noise every frame.
pub struct SyntheticGame {
    renderer: MessageSceneRenderer,
    seed: u64,
    layout: Option<Vec<Vec<String>>>,
    pub frames_per_card: u64,
    /// Frames after the last card arrives.
    pub tail: u64,
    /// From this frame on, a hand is drawn over the table (a new spot each frame).
    pub hand_from: Option<u64>,
    next: u64,
    total: u64,
    pub size: (i32, i32),
}

impl SyntheticGame {
    /// `script`: colours per seat, e.g. `kkk,rr,urr` (see `SeatTally::parse`); `None`: a random table.
    pub fn new(cat: &Catalogue, seed: u64, script: Option<&str>) -> anyhow::Result<SyntheticGame> {
        let renderer = MessageSceneRenderer::new(cat)?;
        let layout = match script {
            Some(s) => {
                let seats: Vec<&str> = s.split(',').collect();
                Some(layout_from_colours(cat, &seats, seed)?)
            }
            None => None,
        };
        let mut g = SyntheticGame {
            renderer,
            seed,
            layout,
            frames_per_card: 4,
            tail: 6,
            hand_from: None,
            next: 0,
            total: 0,
            size: (1280, 720),
        };
        let full = g.render(u64::MAX, 0)?;
        g.total = full.truth.cards.len() as u64 * g.frames_per_card + g.tail;
        Ok(g)
    }

    fn options(&self, shown: u64, frame: u64) -> MessageSceneOptions {
        MessageSceneOptions {
            width: Some(self.size.0),
            height: Some(self.size.1),
            layout: self.layout.clone(),
            overlap: Some(false),
            hand: Some(self.hand_from.is_some_and(|from| frame >= from)),
            gentle: true,
            frame,
            shown: Some(shown.min(usize::MAX as u64) as usize),
            ..MessageSceneOptions::default()
        }
    }

    fn render(
        &self,
        shown: u64,
        frame: u64,
    ) -> anyhow::Result<vision::games::message::MessageScene> {
        Ok(self
            .renderer
            .render(self.seed, &self.options(shown, frame))?)
    }

    /// The seat regions of this table's camera (a player would draw the same in the panel).
    pub fn regions(&self) -> anyhow::Result<SeatRegions> {
        Ok(self.render(0, 0)?.truth.regions)
    }

    pub fn frames(&self) -> u64 {
        self.total
    }

    /// Frame `i` of the game: `i / frames_per_card` cards laid.
    pub fn frame(&self, i: u64) -> anyhow::Result<vision::games::message::MessageScene> {
        self.render(i / self.frames_per_card.max(1), i)
    }
}

impl FrameSource for SyntheticGame {
    fn next_frame(&mut self) -> Result<Option<Frame>, vision::VisionError> {
        if self.next >= self.total {
            return Ok(None);
        }
        let i = self.next;
        let scene = self
            .frame(i)
            .map_err(|e| vision::VisionError::Other(format!("{e:#}")))?;
        self.next += 1;
        Ok(Some(Frame {
            index: i,
            image: scene.image,
            origin: format!("synthetic 风声 seed {} frame {i}", self.seed),
            truth: None,
        }))
    }
}

/// A source scanned and read frame by frame.
pub struct TableFeed {
    source: Box<dyn FrameSource>,
    scanner: Scanner,
    faces: Vec<MessageFace>,
    /// The frames before: the hand and motion watch, and the last scan for an unchanged frame.
    memory: TableMemory,
    pub name: String,
}

impl TableFeed {
    pub fn new(
        source: Box<dyn FrameSource>,
        cat: &Catalogue,
        name: String,
        card_detector: Option<vision::LearnedDetection>,
    ) -> anyhow::Result<TableFeed> {
        let (scanner, faces) = message_scanner(cat)?;
        let scanner = scanner.with_card_detector(card_detector);
        Ok(TableFeed {
            source,
            scanner,
            faces,
            memory: TableMemory::new(),
            name,
        })
    }

    /// The next frame read against the seat cards' regions when every one of `regions`' seats has
    /// its seat card in view, else against `regions`; `Ok(None)` when the source ends.
    pub fn next(&mut self, regions: &SeatRegions) -> anyhow::Result<Option<TableFrame>> {
        let Some(frame) = self.source.next_frame()? else {
            return Ok(None);
        };
        let t = std::time::Instant::now();
        let obs = self
            .scanner
            .scan_following(&frame.image, frame.index, &mut self.memory)
            .with_context(|| frame.origin.clone())?;
        let (cards, from_cards) = read_with_seat_cards(&obs, &frame.image, regions, &self.faces)
            .with_context(|| frame.origin.clone())?;
        Ok(Some(TableFrame {
            index: frame.index,
            origin: frame.origin,
            image: frame.image,
            cards,
            regions_from_seat_cards: from_cards,
            hand_seen: obs.hand,
            scan_ms: t.elapsed().as_secs_f64() * 1000.0,
        }))
    }
}
