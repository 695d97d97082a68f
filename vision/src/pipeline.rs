//! The pipeline for one frame: quads → identity and orientation → calibration → cells.

use crate::calibrate;
use crate::detect::{card_sized, find_holes, DetectOptions};
use crate::detector::name::name_card;
use crate::detector::{CardDetector, DetectedCard};
use crate::face::{CARD_H_MM, CARD_W_MM, FRAME_MM, HOLE_INSET_MM};
use crate::far_cells;
use crate::geometry;
use crate::identifier::{fuse, Identifier, Verdict};
use crate::identify::{card_corners, hole_of_card, hole_patches, ReferenceSet};
use crate::mats::MatLayout;
use crate::memory::{IdentifiedQuad, SinceScan, TableMemory, Unchanged};
use crate::mosaic;
use crate::table::{grid_cell, CardsSeen, MatOnly, NamedCard, TableLayout};
use crate::types::*;
use crate::VisionError;
use opencv::core::Mat;
use opencv::imgproc;
use opencv::prelude::*;
use std::sync::Mutex;
use std::time::Instant;

mod closer;

#[derive(Clone, Debug)]
pub struct ScannerOptions {
    /// Look for the ArUco mat first.
    pub use_mat: bool,
    /// Grid width when fitting without a mat: 4 (two players) or 5 (four players).
    pub cols: u8,
    /// Minimum fine score of the winner.
    pub min_score: f32,
    /// Minimum lead of the winner over the best other card.
    pub min_margin: f32,
    /// A tile error above this marks the card as partly hidden.
    pub covered_tile_error: f32,
    /// A whole-hole layout correlation below this means the quad is not all of the card (a sleeve
    /// or hand closes it off): reported covered, not named.
    pub min_layout: f32,
    /// Width over height of a card on the table (0.72 printed) above which a quad is taken for a
    /// card cut short by a sleeve lying across it: reported covered, not named.
    pub max_aspect: f64,
    pub detect: DetectOptions,
    /// Image direction from the grid toward the Allied player, as the players answered when the
    /// cards could not tell; used only then.
    pub allied_towards: Option<[f64; 2]>,
    /// Frames of a sequence ([`Scanner::scan_following`]) that show what the last one scanned
    /// showed are not scanned again (see [`crate::memory::GATE_LEVEL`]).
    pub gate_unchanged: bool,
    /// Where the game says so ([`TableLayout::far_cells_worth_a_look`]), the learned detector
    /// looks again, closer, at the empty cells the camera sees too small ([`far_cells`]).
    pub look_closer_at_far_cells: bool,
    /// The learned detector looks again, closer, at cards run together ([`merged`]): an outline
    /// several cards large, card pixels outlined nowhere. Worth its model runs where cards lie
    /// in overlapping rows (a 风声 seat's intelligence); elsewhere the table and the mat's paper
    /// set it off for nothing. Off by default.
    pub look_closer_at_merged: bool,
}

impl Default for ScannerOptions {
    fn default() -> Self {
        ScannerOptions {
            use_mat: true,
            cols: 4,
            min_score: 0.0,
            min_margin: 0.05,
            covered_tile_error: 0.9,
            min_layout: 0.35,
            max_aspect: 0.80,
            detect: DetectOptions::default(),
            allied_towards: None,
            gate_unchanged: true,
            look_closer_at_far_cells: true,
            look_closer_at_merged: false,
        }
    }
}

impl ScannerOptions {
    /// The defaults with the plain threshold passes (`DetectOptions::plain`): for tables where an
    /// unnamed outline counts (a Duel card face down, a 风声 card's colour read from its pixels).
    pub fn plain_detection() -> ScannerOptions {
        ScannerOptions {
            detect: DetectOptions::plain(),
            ..ScannerOptions::default()
        }
    }
}

pub struct Scanner {
    pub refs: ReferenceSet,
    pub options: ScannerOptions,
    /// The game's table: its mats and its frame from the cards.
    table: Box<dyn TableLayout>,
    layouts: Vec<MatLayout>,
    identifier: Identifier,
    /// The design-agnostic detector, for cards without our printed frame (named by the model).
    learned: Option<LearnedStage>,
}

/// The learned card detector as a scanner runs it.
struct LearnedStage {
    detector: Mutex<CardDetector>,
    keep_unnamed: bool,
}

/// The learned card detector and which of its outlines a scan keeps.
pub struct LearnedDetection {
    pub detector: CardDetector,
    /// Also the outlines no identifier names whose sides are edges in the image (reported as
    /// unidentified cards). Where every card at the table is one the identifier knows, leave
    /// them out: a plain white mat's paper can look like a card to the model, and such pieces
    /// keep a table's tracker from settling (or read as face-down cards where a game has them).
    pub keep_unnamed: bool,
}

impl From<CardDetector> for LearnedDetection {
    fn from(detector: CardDetector) -> LearnedDetection {
        LearnedDetection {
            detector,
            keep_unnamed: true,
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Found {
    corners: [[f64; 2]; 4],
    card: Option<String>,
    confidence: f32,
    covered: bool,
    /// The learned model named the card on its own thresholds: it judged the crop itself, so the
    /// quad's shape need not vouch for it.
    model_sure: bool,
    /// Found by the design-agnostic detector: its size says nothing against our printed faces'.
    any_design: bool,
}

/// Around the named cards, a card's length and a half beyond them on every side (a row or
/// column the frame holes missed lies within it), when that is less than most of the frame.
fn cards_region(named: &[&[[f64; 2]; 4]], width: i32, height: i32) -> Option<opencv::core::Rect> {
    let longest_side = named
        .iter()
        .flat_map(|q| (0..4).map(|k| crate::detect::dist(q[k], q[(k + 1) % 4])))
        .fold(0.0, f64::max);
    if longest_side <= 0.0 {
        return None;
    }
    let points = named.iter().flat_map(|q| q.iter());
    let r = geometry::frame_pixels_around(points, 1.5 * longest_side, width, height)?;
    let (w, h) = (f64::from(width), f64::from(height));
    (f64::from(r.width) * f64::from(r.height) <= CARDS_REGION_MAX_SHARE * w * h).then_some(r)
}

/// What the learned detector is shown of the frame.
enum View<'a> {
    Whole,
    /// This part of it (far cards then get more of the model's input).
    Region(opencv::core::Rect),
    /// Several parts, each scaled into a tile of one input ([`mosaic::mosaic`]).
    Tiles(&'a [mosaic::Tile]),
}

/// The learned detector's outlines that `unclaimed` keeps, in frame pixels, and (unfitted) those
/// it does not, from what `view` shows of the frame. With the mat's `table` homography (image to
/// mm), outlines not card-sized on the table (its markers, its printed labels) are no cards.
fn unclaimed_outlines(
    detector: &Mutex<CardDetector>,
    image: &Mat,
    view: &View,
    table: Option<&geometry::H3>,
    unclaimed: impl Fn(&[[f64; 2]; 4]) -> bool,
) -> Result<Outlines, VisionError> {
    let card_shaped = |quad: &[[f64; 2]; 4]| match table {
        None => true,
        Some(h) => matches!(hole_of_card(quad), Ok(Some(hole)) if card_sized(h, &hole)),
    };
    let mut detector = detector
        .lock()
        .map_err(|_| VisionError::Other("card detector lock poisoned".into()))?;
    let shown;
    let (seen, to_frame): (&Mat, mosaic::ToFrame) = match view {
        View::Whole => (image, mosaic::ToFrame::Offset([0.0, 0.0])),
        View::Region(r) => {
            shown = Mat::roi(image, *r)?.try_clone()?;
            let offset = [f64::from(r.x), f64::from(r.y)];
            (&shown, mosaic::ToFrame::Offset(offset))
        }
        View::Tiles(tiles) => {
            let (input_w, input_h) = detector.input_size();
            let (mosaic, placed) = mosaic::mosaic(image, tiles, input_w, input_h)?;
            shown = mosaic;
            (&shown, mosaic::ToFrame::Tiles(placed))
        }
    };
    let claimed = std::cell::RefCell::new(Vec::new());
    let mut detected = detector.detect_where(seen, |q| {
        let Some((q, _)) = to_frame.place(q) else {
            return false;
        };
        let free = unclaimed(&q);
        if !free {
            claimed.borrow_mut().push(q);
        }
        free && card_shaped(&q)
    })?;
    detected.retain_mut(|card| match to_frame.place(&card.corners) {
        Some((q, past_its_tile)) => {
            card.corners = q;
            card.partly_hidden |= past_its_tile;
            true
        }
        None => false,
    });
    Ok(Outlines {
        unclaimed: detected,
        claimed: claimed.into_inner(),
    })
}

/// The learned detector's outlines a look keeps, and (unfitted, in frame pixels) those it drew
/// over named cards.
struct Outlines {
    unclaimed: Vec<DetectedCard>,
    claimed: Vec<[[f64; 2]; 4]>,
}

/// Without the model to check it, a hole put in an outline found another way is one of our faces
/// only when the classical matcher names it with at least this confidence (its lead over the best
/// other card, 0.25 = 1): nothing else says a frame is there. Chosen on the Duel tuning tables
/// 621100–621399, where outlines on the mat and the table were named at 0.20–0.42 (wrong names
/// 10 → 1 of 300 tables).
const OUTLINE_MIN_CONFIDENCE: f32 = 0.5;

/// An unnamed frame hole is kept only where the image differs across three of its sides at least
/// this much, the colours compared half a frame's width within and beyond: a card's hole meets its
/// black frame, where a brick or a paving stone that the frame finder takes for a hole looks the
/// same within as beyond. One side may be hidden (a card fanned over it). Chosen on the Blitz
/// tuning boards 612000–612199 (unnamed outlines where no card lies 18 → 12, the bricks' holes
/// measured 1–8 and the named cards' 75 or more), checked on the Duel tuning tables
/// 621100–621399 and the 风声 tuning tables 661000–661099.
const UNNAMED_HOLE_MIN_SIDE_CONTRAST: f64 = 40.0;

fn hole_is_framed(image: &Mat, hole: &[[f64; 2]; 4]) -> Result<bool, VisionError> {
    let half_frame = FRAME_MM / 2.0 / (CARD_W_MM - 2.0 * HOLE_INSET_MM);
    let sides = crate::detector::edges::side_contrasts(image, hole, half_frame)?;
    // Weakest first: the second is the weakest of the three strongest.
    Ok(sides
        .get(1)
        .is_none_or(|&c| c >= UNNAMED_HOLE_MIN_SIDE_CONTRAST))
}

/// The sides of the printed cards a player may own, in mm: from 57×87 to 70×120.
const ANY_CARD_SHORT_MM: (f64, f64) = (57.0, 70.0);
const ANY_CARD_LONG_MM: (f64, f64) = (86.0, 120.0);
/// No printed card is squarer than this (long side over short: 70×86 mm would be 1.23); a mat's
/// marker with its white margin is about 1.0. With the size, chosen on scene.rs seeds 1–40 with
/// the mat (unnamed outlines where no card lies 69 → 17).
const ANY_CARD_MIN_ASPECT: f64 = 1.2;
/// How far an outline's sides, measured under the table's frame (the mat's, or one fitted to the
/// cards), may fall outside [`ANY_CARD_SHORT_MM`] and [`ANY_CARD_LONG_MM`] (a rough fit stretches
/// them). Chosen on the Blitz tuning boards 612000–612199: at 0.35 unnamed outlines where no card
/// lies 11 → 5, at 0.25 → 3, no card lost either way.
const OUTLINE_SIZE_TOLERANCE: f64 = 0.25;

/// Whether an unnamed outline measures like a card of some printed size and shape: the learned
/// detector also outlines a patch of check cloth between the cards, smaller than any card, and a
/// mat's markers, square. A partly hidden outline may be smaller or squarer, not larger.
fn outline_card_sized(h: &geometry::H3, quad: &[[f64; 2]; 4], partly_hidden: bool) -> bool {
    let (short, long) = crate::detect::sides_mm(h, quad);
    let (less, more) = (1.0 - OUTLINE_SIZE_TOLERANCE, 1.0 + OUTLINE_SIZE_TOLERANCE);
    let not_larger = short <= ANY_CARD_SHORT_MM.1 * more && long <= ANY_CARD_LONG_MM.1 * more;
    let not_smaller = short >= ANY_CARD_SHORT_MM.0 * less && long >= ANY_CARD_LONG_MM.0 * less;
    let card_shaped = long >= short * ANY_CARD_MIN_ASPECT;
    not_larger && (partly_hidden || (not_smaller && card_shaped))
}

/// A hole whose middle varies less than this ([`crate::identify::Descriptors::ink`]) is a plain
/// square of the table (a check, a brick), not a card, however the matcher scores it. Chosen on
/// the Duel tuning tables 621100–621399 and 625000–625299: the middles of the eight squares of
/// check cloth and brick named there varied 1.9–2.9, those of the 6,331 cards named right 11.8 or
/// more, and the guard loses none of them.
const BLANK_HOLE_MAX_INK: f32 = 6.0;

/// A card the classical matcher names with at least this confidence is a card even where a frame
/// fitted to the cards says its size is off.
const CLEARLY_NAMED: f32 = 0.4;

/// A card the classical matcher names with at least this confidence keeps its name where a frame
/// fitted to the cards says it looks squat (as a card cut short by a sleeve does). Chosen on the
/// Duel tuning tables 621100–621399: at 0.4 two textures far off the table were named (0.41,
/// 0.49); at 0.6 none, and named 98.40 → 99.91 %.
const SURELY_NAMED: f32 = 0.6;

/// A region of the frame bigger than this share of it is looked at whole.
const CARDS_REGION_MAX_SHARE: f64 = 0.8;

/// Where the learned detector looks.
#[derive(Clone, Copy)]
enum Look<'a> {
    /// Around the named cards, or the whole frame.
    AroundNamed,
    /// Closer, at the table frame's far empty cells ([`far_cells`]) where the first look (the
    /// whole frame, or this part of it) saw something of a card; nowhere if there are none.
    FarCells {
        to_table: &'a geometry::H3,
        layout: &'a MatLayout,
        first_look: Option<opencv::core::Rect>,
    },
    /// Closer, at cards run together ([`merged`]): each region of the frame shown to the model
    /// as a tile of one input, and the cards whose centres lie in some `keep` of them.
    Closer(&'a [mosaic::Tile]),
}

/// What one look of the learned detector found.
#[derive(Default)]
struct LearnedPass {
    cards: Vec<Found>,
    /// Milliseconds the detection (not the naming) took.
    detect_ms: f64,
    /// The part of the frame it looked at (`None`: all of it, or nothing).
    looked_at: Option<opencv::core::Rect>,
    /// The outlines it drew over named cards (unfitted, in frame pixels): one much larger than a
    /// card ran several together.
    claimed: Vec<[[f64; 2]; 4]>,
}

/// Where a frame hole to identify came from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum HoleFrom {
    /// Found as a frame hole.
    Frame,
    /// Put where a card outline found another way has its hole, if it is one of our faces.
    Outline,
}

impl Scanner {
    /// A scanner for the faces in `refs` on the table `table` describes.
    pub fn with_table(
        refs: ReferenceSet,
        table: Box<dyn TableLayout>,
        options: ScannerOptions,
    ) -> Scanner {
        let layouts = table.mats();
        Scanner {
            refs,
            options: ScannerOptions {
                use_mat: options.use_mat && !layouts.is_empty(),
                ..options
            },
            table,
            layouts,
            identifier: Identifier::Hash,
            learned: None,
        }
    }

    /// Names cards with `identifier` instead of the classical matcher alone.
    pub fn with_identifier(mut self, identifier: Identifier) -> Scanner {
        self.identifier = identifier;
        self
    }

    pub fn identifier(&self) -> &Identifier {
        &self.identifier
    }

    /// A scanner for any game's printed faces: `refs` from [`crate::face::render_design`] faces,
    /// cells only from one of `layouts` (mats) when its markers are seen.
    pub fn for_references(
        refs: ReferenceSet,
        layouts: Vec<MatLayout>,
        options: ScannerOptions,
    ) -> Scanner {
        Scanner::with_table(refs, Box::new(MatOnly { mats: layouts }), options)
    }

    /// Also finds cards with the learned detector (`None`: the frame holes alone): our own faces
    /// are named as their frame would be, other prints by the learned identifier (`model` or
    /// `fused`), so with the classical identifiers alone they are reported unnamed.
    pub fn with_card_detector(mut self, detector: Option<impl Into<LearnedDetection>>) -> Scanner {
        self.learned = detector
            .map(Into::into)
            .map(|l: LearnedDetection| LearnedStage {
                detector: Mutex::new(l.detector),
                keep_unnamed: l.keep_unnamed,
            });
        self
    }

    /// Cards the learned detector finds where no frame hole was named, each named by
    /// [`Scanner::name_outline`].
    fn learned_cards(
        &self,
        image: &Mat,
        found: &[Found],
        table: Option<&geometry::H3>,
        look: Look,
    ) -> Result<LearnedPass, VisionError> {
        let Some(learned) = &self.learned else {
            return Ok(LearnedPass::default());
        };
        // Only a named card claims its place: an unnamed frame quad inside another design's
        // card is that card's printed frame, not a card.
        let named: Vec<&[[f64; 2]; 4]> = found
            .iter()
            .filter(|f| f.card.is_some())
            .map(|f| &f.corners)
            .collect();
        let unclaimed = |quad: &[[f64; 2]; 4]| {
            let centre = geometry::centroid(quad);
            !named.iter().any(|&f| {
                geometry::point_in_convex(centre, f)
                    || geometry::point_in_convex(geometry::centroid(f), quad)
            })
        };
        let (view, far) = match look {
            Look::AroundNamed => match cards_region(&named, image.cols(), image.rows()) {
                Some(r) => (View::Region(r), None),
                None => (View::Whole, None),
            },
            Look::FarCells {
                to_table,
                layout,
                first_look,
            } => {
                let detector = learned
                    .detector
                    .lock()
                    .map_err(|_| VisionError::Other("card detector lock poisoned".into()))?;
                // The first look's map, in frame pixels.
                let [ox, oy] = first_look.map_or([0.0, 0.0], |r| [f64::from(r.x), f64::from(r.y)]);
                let seen = |q: &[[f64; 2]; 4]| {
                    detector.last_card_peak_in(&q.map(|p| [p[0] - ox, p[1] - oy]))
                };
                let frame = (image.cols(), image.rows());
                let input = detector.input_size();
                match far_cells::far_empty_cells(to_table, layout, &named, frame, input, seen) {
                    Some(far) => (
                        View::Region(far.region),
                        Some((far.cells, to_table, layout)),
                    ),
                    None => return Ok(LearnedPass::default()),
                }
            }
            Look::Closer(tiles) => (View::Tiles(tiles), None),
        };
        // A closer look keeps only whole cards in the cells it looked at: where the crop's edges
        // cut the table's pattern, the model outlines pieces that reach past them.
        let in_look = |card: &DetectedCard| match (&far, &look) {
            (None, Look::Closer(tiles)) => {
                let centre = geometry::centroid(&card.corners);
                tiles
                    .iter()
                    .any(|t| geometry::point_in_convex(centre, &t.keep))
            }
            (None, _) => true,
            (Some((cells, to_table, layout)), _) => {
                let centre = geometry::apply(to_table, geometry::centroid(&card.corners));
                !card.partly_hidden && layout.cell_of(centre).is_some_and(|c| cells.contains(&c))
            }
        };
        let t = Instant::now();
        let Outlines {
            unclaimed: detected,
            claimed,
        } = unclaimed_outlines(&learned.detector, image, &view, table, unclaimed)?;
        let detect_ms = ms(t);
        let mut out = Vec::new();
        // The fitted outline may have moved onto a named card.
        for card in detected
            .into_iter()
            .filter(|c| unclaimed(&c.corners) && in_look(c))
        {
            let found = self.name_outline(image, card)?;
            let keep = match found.card {
                Some(_) => true,
                None => {
                    learned.keep_unnamed
                        && crate::detector::edges::sides_are_edges(image, &found.corners)?
                }
            };
            if keep {
                out.push(found);
            }
        }
        Ok(LearnedPass {
            cards: out,
            detect_ms,
            looked_at: match view {
                View::Region(r) => Some(r),
                View::Whole | View::Tiles(_) => None,
            },
            claimed,
        })
    }

    /// One of our own faces (the classical matcher knows it by its frame) is named as its frame
    /// hole is, by the table's identifier; any other print by the model's stricter rule for cards
    /// of any design, or left unnamed without the model.
    fn name_outline(&self, image: &Mat, card: DetectedCard) -> Result<Found, VisionError> {
        let as_frame = match card.partly_hidden {
            false => match hole_of_card(&card.corners)? {
                Some(hole) => self.identify_quad(image, &hole, HoleFrom::Outline, &mut 0.0)?,
                None => None,
            },
            true => None,
        };
        if let Some(f) = as_frame.filter(|f| f.card.is_some()) {
            return Ok(Found {
                any_design: true,
                ..f
            });
        }
        let (corners, verdict) = match &self.identifier {
            Identifier::Model(learned) | Identifier::Fused(learned) => {
                // Moving sides costs up to 64 crops a card: not in a live scan.
                let named = name_card(learned, image, &card, Default::default())?;
                (named.corners, named.verdict)
            }
            _ => (card.corners, Verdict::abstain()),
        };
        Ok(Found {
            corners,
            any_design: true,
            model_sure: verdict.card.is_some(),
            card: verdict.card,
            confidence: verdict.confidence,
            covered: card.partly_hidden,
        })
    }

    /// Matches one frame hole against the references; `None` when nothing could be compared, or
    /// when a hole put in an outline is not one the classical matcher names.
    /// `extra_ms` gathers the time the chosen identifier spends beyond the classical matcher.
    fn identify_quad(
        &self,
        image: &Mat,
        hole: &[[f64; 2]; 4],
        from: HoleFrom,
        extra_ms: &mut f64,
    ) -> Result<Option<Found>, VisionError> {
        let rolls = hole_patches(image, hole)?;
        if rolls[0].ink < BLANK_HOLE_MAX_INK {
            return Ok(None);
        }
        let Some(m) = self.refs.best_match(&rolls) else {
            return Ok(None);
        };
        let Some((corners, _)) = card_corners(hole, m.roll)? else {
            return Ok(None);
        };
        let cut_off = m.layout.is_some_and(|l| l < self.options.min_layout);
        let covered = m.worst_tile > self.options.covered_tile_error || cut_off;
        let margin = m.score - m.runner_up;
        let named = m.score >= self.options.min_score
            && margin >= self.options.min_margin
            && m.rotation_agrees;
        let hash = if named {
            Verdict {
                card: Some(self.refs.refs[m.best].card.clone()),
                // The winner's lead over the best other card, scaled so a lead of 0.25 is certain.
                confidence: (margin / 0.25).clamp(0.0, 1.0),
            }
        } else {
            Verdict::abstain()
        };
        if from == HoleFrom::Outline {
            // The model checks every name it fuses; the classical matcher alone must be sure.
            let checked = matches!(self.identifier, Identifier::Model(_) | Identifier::Fused(_));
            if hash.card.is_none() || (!checked && hash.confidence < OUTLINE_MIN_CONFIDENCE) {
                return Ok(None);
            }
        }
        let t = Instant::now();
        let px = |c: &[[f64; 2]; 4]| c.map(|p| [p[0] as f32, p[1] as f32]);
        let mut corners = corners;
        let mut model_sure = false;
        let verdict = match &self.identifier {
            Identifier::Hash => hash,
            Identifier::Orb(orb) => orb.identify(image, &px(&corners))?,
            Identifier::Model(learned) | Identifier::Fused(learned) => {
                let mut seen = learned.assess(image, &px(&corners))?;
                // The rotation comes from the layout all faces share; when the classical matcher
                // could not name the card (a token over its header, say), that may be 180° off:
                // the model also looks at the card turned round and keeps the closer match.
                // Only a turned crop the model would name on its own may replace the first.
                if hash.card.is_none() && !learned.names(&seen) {
                    if let Some((turned, _)) = card_corners(hole, (m.roll + 2) % 4)? {
                        let other = learned.assess(image, &px(&turned))?;
                        if learned.names(&other) {
                            seen = other;
                            corners = turned;
                        }
                    }
                }
                model_sure = learned.names(&seen);
                if matches!(self.identifier, Identifier::Fused(_)) {
                    fuse(hash, m.score, &seen, &learned.thresholds)
                } else {
                    learned.verdict(&seen)
                }
            }
        };
        if !matches!(self.identifier, Identifier::Hash) {
            *extra_ms += ms(t);
        }
        // A quad that is not all of the card (its layout unlike the winner's) is not named by the
        // identifiers that cannot tell: the model can, its cosine falls on a cut-off crop.
        let vetoed = cut_off && matches!(self.identifier, Identifier::Hash | Identifier::Orb(_));
        let verdict = if vetoed { Verdict::abstain() } else { verdict };
        Ok(Some(Found {
            corners,
            any_design: false,
            model_sure: model_sure && verdict.card.is_some(),
            card: verdict.card,
            confidence: verdict.confidence,
            covered,
        }))
    }

    /// Scans one frame on its own.
    pub fn scan(&self, image: &Mat, frame_index: u64) -> Result<TableObservation, VisionError> {
        Ok(self.scan_frame(image, frame_index, None, None)?.0)
    }

    /// Scans the next frame of a table seen before: cards keep the cells `memory` remembers when
    /// most of them agree, fast motion since the last frame is reported, and `memory` learns this
    /// frame. A frame that shows what the last one scanned showed is not scanned again (when
    /// [`ScannerOptions::gate_unchanged`]): that scan's cards are taken, with this frame's hand and
    /// motion watch.
    pub fn scan_following(
        &self,
        image: &Mat,
        frame_index: u64,
        memory: &mut TableMemory,
    ) -> Result<TableObservation, VisionError> {
        let start = Instant::now();
        // One shrunk copy of the frame for the gate, the motion and the hand watch.
        let small = crate::memory::Small::of(image)?;
        if !self.options.gate_unchanged {
            return Ok(self
                .scan_frame(image, frame_index, Some((memory, &small)), None)?
                .0);
        }
        let towards = self.options.allied_towards;
        let unchanged = match memory.since_scan(&small, [image.cols(), image.rows()], towards)? {
            SinceScan::Changed(unchanged) => Some(unchanged),
            SinceScan::Unknown => None,
            SinceScan::Same(last) => {
                let mut obs = *last;
                let (motion, hand) = memory.watch(&small)?;
                obs.frame_index = frame_index;
                (obs.motion, obs.hand) = (motion, hand);
                obs.hand_or_motion_suspected =
                    motion || hand || obs.cards.iter().any(|c| c.covered);
                obs.timings = Timings {
                    total_ms: ms(start),
                    reused: true,
                    ..Timings::default()
                };
                return Ok(obs);
            }
        };
        let (obs, identified) =
            self.scan_frame(image, frame_index, Some((&mut *memory, &small)), unchanged)?;
        let whole = !obs.motion || self.learned.is_none();
        memory.scanned(&small, &obs, towards, identified, whole);
        Ok(obs)
    }

    /// Scans one frame; `unchanged`: the last scan's quads, taken again where nothing changed
    /// under them (change gating, quad by quad). Also what it made of each quad it identified.
    fn scan_frame(
        &self,
        image: &Mat,
        frame_index: u64,
        following: Option<(&mut TableMemory, &crate::memory::Small)>,
        unchanged: Option<Unchanged>,
    ) -> Result<(TableObservation, Vec<IdentifiedQuad>), VisionError> {
        let (mut memory, small) = following.unzip();
        let start = Instant::now();
        let (motion, hand) = match (memory.as_mut(), small) {
            (Some(m), Some(small)) => m.watch(small)?,
            _ => (false, false),
        };
        let mut timings = Timings::default();
        let mut gray = Mat::default();
        imgproc::cvt_color(image, &mut gray, imgproc::COLOR_BGR2GRAY, 0)?;

        let t = Instant::now();
        let mat = if self.options.use_mat {
            calibrate::from_mat(&gray, &self.layouts)?
        } else {
            None
        };
        timings.calibrate_ms += ms(t);

        let t = Instant::now();
        let table = mat.as_ref().and_then(|(c, _)| c.homography().copied());
        let holes = find_holes(&gray, &self.options.detect, table.as_ref())?;
        timings.detect_ms = ms(t);

        let t = Instant::now();
        let mut identified: Vec<IdentifiedQuad> = Vec::with_capacity(holes.len());
        let mut quads_taken_again = 0u32;
        let mut identify = |points: &[[f64; 2]; 4], extra_ms: &mut f64| {
            let again = unchanged.as_ref().and_then(|u| u.identified(points));
            let (found, taken_again) = match again {
                Some(q) => {
                    quads_taken_again += 1;
                    (q.found.clone(), q.taken_again + 1)
                }
                None => (
                    self.identify_quad(image, points, HoleFrom::Frame, extra_ms)?,
                    0,
                ),
            };
            identified.push(IdentifiedQuad {
                quad: *points,
                found: found.clone(),
                taken_again,
            });
            Ok::<_, VisionError>(found)
        };
        let mut found = Vec::with_capacity(holes.len());
        let mut extra_ms = 0.0;
        let mut quads = 0u32;
        for hole in &holes {
            quads += 1;
            let outer = identify(&hole.points, &mut extra_ms)?;
            let outer = match outer {
                Some(f) if f.card.is_none() && !hole_is_framed(image, &hole.points)? => None,
                other => other,
            };
            if outer.as_ref().is_some_and(|f| f.card.is_some()) || hole.inner.is_empty() {
                found.extend(outer);
                continue;
            }
            // Not a card: perhaps the merged margins of overlapping cards; try what lies inside.
            let mut inner = Vec::new();
            for q in &hole.inner {
                quads += 1;
                inner.extend(identify(&q.points, &mut extra_ms)?.filter(|f| f.card.is_some()));
            }
            if inner.is_empty() {
                found.extend(outer);
            } else {
                found.extend(inner);
            }
        }
        // A frame in motion commits nothing (the table is read once it is still): the learned
        // detector's look is kept for the still frame after it.
        let mut first = match motion {
            false => self.learned_cards(image, &found, table.as_ref(), Look::AroundNamed)?,
            true => LearnedPass::default(),
        };
        let (mut learned_detect_ms, first_look) = (first.detect_ms, first.looked_at);
        quads += first.cards.len() as u32;
        take_learned(&mut found, std::mem::take(&mut first.cards));
        if !motion && self.options.look_closer_at_merged {
            let closer = self.look_closer_at_merged(image, &mut found, &first, table.as_ref())?;
            quads += closer.cards;
            learned_detect_ms += closer.detect_ms;
        }
        timings.detect_ms += learned_detect_ms;
        timings.identify_ms = ms(t) - learned_detect_ms;
        timings.identifier_extra_ms = extra_ms;
        timings.quads_identified = quads;
        timings.quads_taken_again = quads_taken_again;

        let t = Instant::now();
        let named: Vec<NamedCard> = found
            .iter()
            .filter_map(|f| {
                let id = f.card.as_deref()?;
                Some(NamedCard {
                    id,
                    corners: f.corners,
                    last_cell: memory.as_ref().and_then(|m| m.cells.get(id).copied()),
                })
            })
            .collect();
        // Two markers on one edge leave the rest of the mat to extrapolation, a whole row or column
        // off at 35° tilt: the game says whether such a fit agrees with the cards; if not, the
        // cards fit the frame themselves.
        let mat = mat.filter(|(c, l)| match c {
            Calibration::Mat {
                markers,
                homography,
                ..
            } if *markers < 3 => self.table.trusts_sparse_mat(homography, l, &named),
            _ => true,
        });
        let fitted = match mat {
            Some(m) => Some(m),
            None => {
                let unnamed: Vec<[[f64; 2]; 4]> = found
                    .iter()
                    .filter(|f| f.card.is_none())
                    .map(|f| f.corners)
                    .collect();
                let seen = CardsSeen {
                    named: &named,
                    unnamed: &unnamed,
                    image_size: [f64::from(image.cols()), f64::from(image.rows())],
                };
                self.table
                    .frame_from_cards(&seen, self.options.allied_towards)?
            }
        };
        let (calibration, layout) = match fitted {
            Some((c, l)) => (c, Some(l)),
            None => (
                Calibration::None {
                    reason: "no play-mat markers seen".into(),
                },
                None,
            ),
        };
        // The frame says where the table's far cells lie: a closer look at the empty ones.
        let mut far_look_ms = 0.0;
        let look_far =
            !motion && self.options.look_closer_at_far_cells && self.table.far_cells_worth_a_look();
        if let (true, Some(to_table), Some(layout)) = (look_far, calibration.homography(), &layout)
        {
            let far = Instant::now();
            let look = Look::FarCells {
                to_table,
                layout,
                first_look,
            };
            let closer = self.learned_cards(image, &found, table.as_ref(), look)?;
            timings.quads_identified += closer.cards.len() as u32;
            take_learned(&mut found, closer.cards);
            far_look_ms = ms(far);
            timings.detect_ms += closer.detect_ms;
            timings.identify_ms += far_look_ms - closer.detect_ms;
        }
        // A partly hidden outline with nothing to hide it (no card, no frame edge, no hand).
        let in_question = |f: &Found| f.card.is_none() && f.any_design && f.covered;
        if !hand && found.iter().any(in_question) {
            let frame = (image.cols(), image.rows());
            let outlines: Vec<[[f64; 2]; 4]> = found.iter().map(|f| f.corners).collect();
            found.retain(|f| !in_question(f) || something_can_hide(f, &outlines, frame));
        }
        let metric = calibration.metric_homography();
        if let Some(homography) = &metric {
            // An unnamed outline must measure like a card of some printed size, whatever gave
            // the frame; on a mat the detector also outlines its markers, partly hidden ones too.
            let markers = match (&calibration, &layout) {
                (Calibration::Mat { .. }, Some(layout)) => Some(layout),
                _ => None,
            };
            found.retain(|f| {
                let on_a_marker = || {
                    let centre = geometry::apply(homography, geometry::centroid(&f.corners));
                    markers.is_some_and(|l| l.on_a_marker(centre))
                };
                f.card.is_some()
                    || !f.any_design
                    || (outline_card_sized(homography, &f.corners, f.covered) && !on_a_marker())
            });
        }
        if let (Calibration::FrontLine { .. } | Calibration::Cards { .. }, Some(homography)) =
            (&calibration, &metric)
        {
            found.retain(|f| {
                let hole = [0, 1, 2, 3].map(|k| {
                    let c = geometry::centroid(&f.corners);
                    // The hole lies inside the card by the frame inset; shrink the corners to it.
                    let (sx, sy) = (
                        1.0 - 2.0 * HOLE_INSET_MM / CARD_W_MM,
                        1.0 - 2.0 * HOLE_INSET_MM / CARD_H_MM,
                    );
                    let s = (sx + sy) / 2.0;
                    [
                        c[0] + (f.corners[k][0] - c[0]) * s,
                        c[1] + (f.corners[k][1] - c[1]) * s,
                    ]
                });
                // A clearly named card is a card even where a rough fit says its size is off.
                f.any_design || f.confidence >= CLEARLY_NAMED || card_sized(homography, &hole)
            });
        }
        let from_cards = !matches!(calibration, Calibration::Mat { .. });
        if let Some(h) = &metric {
            for f in found.iter_mut() {
                // Far from two markers on one edge a mat fit can make a whole card look squat;
                // the model reads the crop itself, and a crop of part of a card falls below its
                // thresholds (tuned on scenes with hands and sleeves). A frame fitted to the
                // cards is rougher still: a surely named card is not unnamed by it.
                let vouched_for =
                    f.model_sure || f.any_design || (from_cards && f.confidence >= SURELY_NAMED);
                if !vouched_for && cut_short(h, &f.corners, self.options.max_aspect) {
                    f.card = None;
                    f.confidence = 0.0;
                    f.covered = true;
                }
            }
        }
        timings.calibrate_ms += ms(t) - far_look_ms;
        let cards = found
            .into_iter()
            .map(|f| {
                let centre = geometry::centroid(&f.corners);
                let top = [
                    (f.corners[0][0] + f.corners[1][0]) / 2.0,
                    (f.corners[0][1] + f.corners[1][1]) / 2.0,
                ];
                let (orientation, cell) = match (calibration.homography(), &layout) {
                    (Some(h), Some(layout)) => {
                        let (c, tp) = (geometry::apply(h, centre), geometry::apply(h, top));
                        let cell = layout
                            .cell_of(c)
                            .map(|(col, row)| grid_cell(layout, col, row));
                        (
                            Orientation::from_up_vector(tp[0] - c[0], tp[1] - c[1]),
                            cell,
                        )
                    }
                    _ => (
                        Orientation::from_up_vector(top[0] - centre[0], centre[1] - top[1]),
                        None,
                    ),
                };
                let to_owner = match (&f.card, calibration.homography()) {
                    (Some(id), Some(_)) => orientation.turned(self.table.owner_turns(id, cell)),
                    _ => orientation,
                };
                ObservedCard {
                    card: f.card,
                    corners: f.corners.map(|p| [p[0] as f32, p[1] as f32]),
                    center: [centre[0] as f32, centre[1] as f32],
                    orientation,
                    to_owner,
                    cell,
                    covered: f.covered,
                    confidence: f.confidence,
                }
            })
            .collect::<Vec<_>>();
        timings.assign_ms = ms(t);
        timings.total_ms = ms(start);
        // A guessed Allied side is not remembered: the players' answer must still be asked for.
        if let Some(m) = memory.filter(|_| !calibration.allied_side_unknown()) {
            for c in &cards {
                if let (Some(id), Some(cell)) = (&c.card, c.cell) {
                    m.cells.insert(id.clone(), cell.lattice_cell());
                }
            }
        }
        let hand_or_motion_suspected = motion || hand || cards.iter().any(|c| c.covered);
        let observation = TableObservation {
            frame_index,
            calibration,
            cards,
            hand_or_motion_suspected,
            motion,
            hand,
            timings,
        };
        Ok((observation, identified))
    }
}

/// An outline reaching this close to the frame's edge (pixels) may be a card the edge cuts.
const FRAME_EDGE_PX: f64 = 4.0;

/// Whether something can hide the partly hidden outline `f`: another of `outlines` touching it
/// (a card over it) or the frame's edge. A hand is not outlined; the caller asks only when none
/// is in view. Outlined alone in the open, "partly hidden" is the table's pattern.
fn something_can_hide(f: &Found, outlines: &[[[f64; 2]; 4]], (width, height): (i32, i32)) -> bool {
    let (w, h) = (f64::from(width), f64::from(height));
    let at_edge = f.corners.iter().any(|p| {
        p[0] <= FRAME_EDGE_PX
            || p[1] <= FRAME_EDGE_PX
            || p[0] >= w - FRAME_EDGE_PX
            || p[1] >= h - FRAME_EDGE_PX
    });
    at_edge
        || outlines
            .iter()
            .any(|q| *q != f.corners && geometry::quads_touch(q, &f.corners))
}

/// Adds the learned detector's cards to those `found` so far: an unnamed quad that one of them
/// covers was part of it.
fn take_learned(found: &mut Vec<Found>, more: Vec<Found>) {
    found.retain(|f| {
        let c = geometry::centroid(&f.corners);
        f.card.is_some()
            || !more
                .iter()
                .any(|m| geometry::point_in_convex(c, &m.corners))
    });
    found.extend(more);
}

/// Whether a card's quad (its corners from its own top-left, in image pixels) is much squarer on the
/// table than a card: a sleeve or arm across it closed the frame's hole early.
fn cut_short(h: &geometry::H3, corners: &[[f64; 2]; 4], max_aspect: f64) -> bool {
    let mm = corners.map(|p| geometry::apply(h, p));
    let d = crate::detect::dist;
    let width = (d(mm[0], mm[1]) + d(mm[3], mm[2])) / 2.0;
    let height = (d(mm[1], mm[2]) + d(mm[0], mm[3])) / 2.0;
    height > 0.0 && width / height > max_aspect
}

/// Milliseconds since `t`.
pub(crate) fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// Reads an image file; a missing, empty or corrupt file is an error naming it.
pub fn read_image(path: &std::path::Path) -> Result<Mat, VisionError> {
    let bytes = std::fs::read(path).map_err(|e| VisionError::io(path, e))?;
    if bytes.is_empty() {
        return Err(VisionError::BadImage {
            path: path.to_path_buf(),
        });
    }
    let buf = opencv::core::Vector::<u8>::from_slice(&bytes);
    let img = opencv::imgcodecs::imdecode(&buf, opencv::imgcodecs::IMREAD_COLOR).map_err(|_| {
        VisionError::BadImage {
            path: path.to_path_buf(),
        }
    })?;
    if img.empty() {
        return Err(VisionError::BadImage {
            path: path.to_path_buf(),
        });
    }
    Ok(img)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(x: f64, y: f64) -> [[f64; 2]; 4] {
        [[x, y], [x + 40.0, y], [x + 40.0, y + 56.0], [x, y + 56.0]]
    }

    /// Under a frame in mm (here the image itself), an unnamed outline is kept when it measures
    /// like some printed card: not a square, not a patch smaller than any card, not a sheet
    /// larger; a partly hidden one may be smaller or squarer.
    /// A partly hidden outline needs something to hide it: a card touching it or the frame's
    /// edge. Alone in the open it is not hidden by anything.
    #[test]
    fn a_partly_hidden_outline_is_hidden_by_a_card_or_the_frame_edge() {
        let outline = |x: f64, y: f64| Found {
            corners: [[x, y], [x + 40.0, y], [x + 40.0, y + 56.0], [x, y + 56.0]],
            card: None,
            confidence: 0.0,
            covered: true,
            model_sure: false,
            any_design: true,
        };
        let frame = (1280, 720);
        let alone = outline(400.0, 300.0);
        let beside = outline(430.0, 330.0);
        let far = outline(900.0, 300.0);
        let all: Vec<[[f64; 2]; 4]> = [&alone, &beside, &far].map(|f| f.corners).to_vec();
        assert!(!something_can_hide(&far, &all, frame), "nothing touches it");
        assert!(
            something_can_hide(&alone, &all, frame) && something_can_hide(&beside, &all, frame)
        );
        assert!(
            something_can_hide(&outline(1238.0, 300.0), &all, frame),
            "at the right edge"
        );
        assert!(
            something_can_hide(&outline(600.0, 2.0), &all, frame),
            "at the top edge"
        );
    }

    #[test]
    fn an_outline_measures_like_a_card_of_some_printed_size() {
        let mm = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let quad = |w: f64, h: f64| {
            [
                [100.0, 100.0],
                [100.0 + w, 100.0],
                [100.0 + w, 100.0 + h],
                [100.0, 100.0 + h],
            ]
        };
        for (w, h) in [(63.0, 88.0), (57.0, 87.0), (70.0, 120.0), (88.0, 63.0)] {
            assert!(outline_card_sized(&mm, &quad(w, h), false), "{w}×{h}");
        }
        for (w, h) in [(60.0, 60.0), (30.0, 45.0), (200.0, 300.0)] {
            assert!(!outline_card_sized(&mm, &quad(w, h), false), "{w}×{h}");
        }
        assert!(outline_card_sized(&mm, &quad(30.0, 45.0), true));
        assert!(outline_card_sized(&mm, &quad(60.0, 60.0), true));
        assert!(!outline_card_sized(&mm, &quad(200.0, 300.0), true));
    }

    /// The region reaches a card's length and a half past the named cards, stays in the frame,
    /// and is the whole frame (None) with no card named or when it would cover most of it.
    #[test]
    fn the_learned_detector_looks_around_the_named_cards() {
        let (a, b) = (card(500.0, 300.0), card(600.0, 380.0));
        let r = cards_region(&[&a, &b], 1280, 720).expect("a region");
        assert_eq!((r.x, r.y, r.width, r.height), (416, 216, 308, 304));
        let edge = card(10.0, 650.0);
        let r = cards_region(&[&edge], 1280, 720).expect("a region");
        assert_eq!((r.x, r.y), (0, 566));
        assert_eq!((r.x + r.width, r.y + r.height), (134, 720));
        assert!(cards_region(&[], 1280, 720).is_none());
        let spread = [card(100.0, 100.0), card(1100.0, 600.0)];
        assert!(cards_region(&[&spread[0], &spread[1]], 1280, 720).is_none());
    }
}
