//! The vision pipeline as a feed: frames from a camera, a video, images or the synthetic renderer are
//! scanned into table observations, then into the tracker's sightings.

use super::demo::{Layout, Recognizer};
use super::tracker::{FrameSightings, Sighting};
use crate::panel::feed::{Feed, FeedFrame, FeedStatus, Overlay};
use blitz::catalogue::{CardKind, Catalogue, Side};
use opencv::core::Mat;
use opencv::imgproc;
use opencv::prelude::*;
use std::time::Duration;
use vision::scene::{LaidCard, SceneOptions, SceneRenderer};
use vision::source::FrameSource;
use vision::{Cell, Orientation, Scanner, ScannerOptions, TableObservation};

/// Observation → what the tracker needs. Abstentions stay in (as unknown cards), so they can be asked.
pub fn sightings(obs: &TableObservation) -> FrameSightings {
    let sightings = obs
        .cards
        .iter()
        .map(|c| Sighting {
            card: c.card.clone(),
            cell: match c.cell {
                Some(Cell::Blitz { col, row }) => Some((col as i8, row as i8)),
                _ => None,
            },
            tapped: matches!(
                c.orientation,
                Orientation::TappedLeft | Orientation::TappedRight
            ),
            covered: c.covered,
            confidence: c.confidence,
        })
        .collect();
    FrameSightings {
        index: obs.frame_index,
        sightings,
        occluded: hand_suspected(obs),
    }
}

/// Fast motion (a hand moving, a bumped camera) stops the frame from committing. The pipeline also
/// marks every partly hidden card; a card under another card (a unit on a front-line card or a
/// facility) is hidden by the game itself, not by a hand: only an identified card hidden by
/// something that is not a card on it stops the frame too.
fn hand_suspected(obs: &TableObservation) -> bool {
    if obs.motion {
        return true;
    }
    if !obs.hand_or_motion_suspected {
        return false;
    }
    obs.cards.iter().enumerate().any(|(i, c)| {
        let explained = obs
            .cards
            .iter()
            .enumerate()
            .any(|(j, other)| j != i && inside(other.center, &c.corners));
        c.covered && c.card.is_some() && !explained
    })
}

/// Whether a point lies in a convex quad (corners in order, either winding).
fn inside(p: [f32; 2], quad: &[[f32; 2]; 4]) -> bool {
    let cross =
        |a: [f32; 2], b: [f32; 2]| (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
    let signs: Vec<f32> = (0..4).map(|k| cross(quad[k], quad[(k + 1) % 4])).collect();
    signs.iter().all(|&s| s >= 0.0) || signs.iter().all(|&s| s <= 0.0)
}

pub fn overlays(obs: &TableObservation) -> Vec<Overlay> {
    obs.cards
        .iter()
        .map(|c| Overlay {
            corners: c.corners,
            label: match (&c.card, c.cell) {
                (Some(id), Some(Cell::Blitz { col, row })) => {
                    format!("{id} {}", blitz::Cell::new(col as i8, row as i8))
                }
                (Some(id), _) => id.clone(),
                (None, _) => "?".into(),
            },
            uncertain: c.card.is_none() || c.covered,
        })
        .collect()
}

/// BGR Mat → RGB bytes for the panel.
pub fn rgb(image: &Mat) -> Option<([usize; 2], Vec<u8>)> {
    let mut out = Mat::default();
    imgproc::cvt_color(image, &mut out, imgproc::COLOR_BGR2RGB, 0).ok()?;
    let bytes = out.data_bytes().ok()?.to_vec();
    Some(([out.cols() as usize, out.rows() as usize], bytes))
}

/// One poll of a scanned source: the next frame, scanned as the next of the table `memory` has seen
/// (its time noted in `scan_ms`) and `read` (observation, frame index) into sightings and outlines;
/// a frame that cannot be scanned is a lost camera. An error of the source itself is returned, so
/// each feed decides how to wait.
pub fn scan_next(
    source: &mut dyn FrameSource,
    scanner: &Scanner,
    memory: &mut vision::memory::TableMemory,
    scan_ms: &mut Vec<f64>,
    read: impl FnOnce(&TableObservation, u64) -> (FrameSightings, Vec<Overlay>),
) -> Result<FeedStatus, vision::VisionError> {
    let Some(frame) = source.next_frame()? else {
        return Ok(FeedStatus::Ended);
    };
    Ok(
        match scanner.scan_following(&frame.image, frame.index, memory) {
            Ok(obs) => {
                scan_ms.push(obs.timings.total_ms);
                let (sightings, overlays) = read(&obs, frame.index);
                FeedStatus::Frame(Box::new(FeedFrame {
                    image: rgb(&frame.image),
                    sightings,
                    overlays,
                    presses: Vec::new(),
                    allied_side_unknown: obs.calibration.allied_side_unknown(),
                }))
            }
            Err(e) => FeedStatus::Lost(format!("{}: {e}", frame.origin)),
        },
    )
}

/// A live source scanned frame by frame.
pub struct VisionFeed {
    source: Box<dyn FrameSource>,
    scanner: Scanner,
    name: String,
    memory: vision::memory::TableMemory,
    pub scan_ms: Vec<f64>,
}

impl VisionFeed {
    pub fn new(source: Box<dyn FrameSource>, scanner: Scanner, name: String) -> VisionFeed {
        VisionFeed {
            source,
            scanner,
            name,
            memory: Default::default(),
            scan_ms: Vec::new(),
        }
    }
}

impl Feed for VisionFeed {
    fn poll(&mut self) -> FeedStatus {
        let read = |obs: &TableObservation, _: u64| (sightings(obs), overlays(obs));
        let (source, scanner) = (self.source.as_mut(), &self.scanner);
        scan_next(source, scanner, &mut self.memory, &mut self.scan_ms, read).unwrap_or_else(|e| {
            // A camera that stops answering: say so, keep the game, try again shortly.
            std::thread::sleep(Duration::from_millis(200));
            FeedStatus::Lost(e.to_string())
        })
    }

    fn describe(&self) -> String {
        self.name.clone()
    }

    fn set_allied_towards(&mut self, towards: [f64; 2]) {
        self.scanner.options.allied_towards = Some(towards);
    }

    fn frames_per_second(&self) -> Option<f64> {
        self.source.frames_per_second()
    }
}

/// Renders each table layout with the synthetic renderer (one camera set-up for the whole game, from
/// the seed) and reads it back with the scanner: the demo's frames go through real vision.
pub struct Rendered {
    renderer: SceneRenderer,
    scanner: Scanner,
    catalogue: Catalogue,
    seed: u64,
    cols: u8,
    pub scan_ms: Vec<f64>,
}

impl Rendered {
    pub fn new(catalogue: Catalogue, seed: u64, cols: u8) -> anyhow::Result<Rendered> {
        let renderer = SceneRenderer::new(&catalogue)?;
        let scanner = Scanner::new(
            &catalogue,
            ScannerOptions {
                use_mat: true,
                cols,
                ..ScannerOptions::default()
            },
        )?;
        Ok(Rendered {
            renderer,
            scanner,
            catalogue,
            seed,
            cols,
            scan_ms: Vec::new(),
        })
    }

    /// Reads the rendered frames with `identifier` instead of the classical matcher alone.
    pub fn with_identifier(mut self, identifier: vision::identifier::Identifier) -> Rendered {
        self.scanner = self.scanner.with_identifier(identifier);
        self
    }

    /// Also finds cards with the learned, design-agnostic detector.
    pub fn with_card_detector(mut self, detector: Option<vision::LearnedDetection>) -> Rendered {
        self.scanner = self.scanner.with_card_detector(detector);
        self
    }

    /// Front-line cards and facilities first, so the cards lying on them can point at them.
    fn laid(&self, layout: &Layout) -> Vec<LaidCard> {
        let under = |id: &str| {
            self.catalogue
                .get(id)
                .is_some_and(|c| matches!(c.kind, CardKind::Frontline | CardKind::Facility { .. }))
        };
        let mut ids: Vec<&String> = layout.keys().collect();
        ids.sort_by_key(|id| !under(id));
        let mut out: Vec<LaidCard> = Vec::new();
        for id in ids {
            let place = layout[id];
            let def = self.catalogue.get(id);
            let side = def.and_then(|d| d.faction).map(|f| f.side());
            let orientation = match (def.map(|d| &d.kind), side, place.tapped) {
                (Some(CardKind::Frontline), _, _) => Orientation::TappedLeft,
                (_, Some(Side::Axis), true) => Orientation::TappedLeft,
                (_, _, true) => Orientation::TappedRight,
                (_, Some(Side::Axis), false) => Orientation::Inverted,
                _ => Orientation::Upright,
            };
            let on_top_of = if under(id) {
                None
            } else {
                out.iter()
                    .position(|l| (l.col as i8, l.row as i8) == place.cell)
            };
            out.push(LaidCard {
                card: id.clone(),
                col: place.cell.0 as u8,
                row: place.cell.1 as u8,
                orientation,
                on_top_of,
            });
        }
        out
    }
}

impl Recognizer for Rendered {
    fn see(&mut self, layout: &Layout, frame: u64, hand: bool) -> FeedFrame {
        let opts = SceneOptions {
            layout: Some(self.laid(layout)),
            hand: Some(hand),
            aruco_mat: Some(true),
            cols: Some(self.cols),
            ..SceneOptions::default()
        };
        let scanned = self
            .renderer
            .render(self.seed, &opts)
            .map_err(|e| e.to_string())
            .and_then(|scene| {
                let obs = self
                    .scanner
                    .scan(&scene.image, frame)
                    .map_err(|e| e.to_string())?;
                Ok((scene, obs))
            });
        match scanned {
            Ok((scene, obs)) => {
                self.scan_ms.push(obs.timings.total_ms);
                FeedFrame {
                    image: rgb(&scene.image),
                    sightings: sightings(&obs),
                    overlays: overlays(&obs),
                    presses: Vec::new(),
                    allied_side_unknown: obs.calibration.allied_side_unknown(),
                }
            }
            // A frame that cannot be rendered or read is a frame with nothing trusted in it.
            Err(_) => FeedFrame {
                image: None,
                sightings: FrameSightings {
                    index: frame,
                    sightings: Vec::new(),
                    occluded: true,
                },
                overlays: Vec::new(),
                presses: Vec::new(),
                allied_side_unknown: false,
            },
        }
    }

    fn name(&self) -> String {
        format!(
            "synthetic camera (seed {}), scanned by the vision pipeline",
            self.seed
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vision::{Calibration, ObservedCard, Timings};

    fn card(id: Option<&str>, center: [f32; 2], half: f32, covered: bool) -> ObservedCard {
        let [x, y] = center;
        ObservedCard {
            card: id.map(str::to_string),
            corners: [
                [x - half, y - half],
                [x + half, y - half],
                [x + half, y + half],
                [x - half, y + half],
            ],
            center,
            orientation: Orientation::Upright,
            to_owner: Orientation::Upright,
            cell: Some(Cell::Blitz { col: 0, row: 0 }),
            covered,
            confidence: 0.9,
        }
    }

    fn obs(cards: Vec<ObservedCard>) -> TableObservation {
        TableObservation {
            frame_index: 0,
            calibration: Calibration::None {
                reason: "test".into(),
            },
            hand_or_motion_suspected: cards.iter().any(|c| c.covered),
            motion: false,
            hand: false,
            cards,
            timings: Timings::default(),
        }
    }

    #[test]
    fn issue_4_a_card_lying_on_another_is_not_a_hand() {
        let o = obs(vec![
            card(Some("front-1"), [100.0, 100.0], 40.0, true),
            card(Some("us-u01"), [110.0, 95.0], 30.0, false),
        ]);
        assert!(!sightings(&o).occluded);
    }

    #[test]
    fn issue_4_a_hidden_card_with_nothing_on_it_is_a_hand() {
        let o = obs(vec![
            card(Some("front-1"), [100.0, 100.0], 40.0, true),
            card(Some("us-u01"), [300.0, 95.0], 30.0, false),
        ]);
        assert!(sightings(&o).occluded);
    }

    /// A moved camera between frames of a game, and the first column's cards taken away: the
    /// tracker hears that those cards left and nothing else, since the scanner keeps the grid
    /// where the other cards lay (alone, it would call every other card moved one column over).
    #[test]
    fn the_tracker_holds_the_grid_over_a_moved_camera() {
        use super::super::tracker::{TableEvent, Tracker, TrackerConfig};
        use vision::scene::{Placement, SceneOptions};
        let catalogue = Catalogue::demo();
        let renderer = SceneRenderer::new(&catalogue).unwrap();
        let scanner = Scanner::new(&catalogue, ScannerOptions::default()).unwrap();
        let base = SceneOptions {
            hand: Some(false),
            aruco_mat: Some(false),
            placements: vec![Placement::Side],
            ..Default::default()
        };
        let first = renderer.render(3600, &base).unwrap();
        let truth = &first.truth;
        let all = truth.loose_cards();
        let gone: Vec<String> = all
            .iter()
            .filter(|l| l.col == 0)
            .map(|l| l.card.clone())
            .collect();
        assert!(all.len() > 15 && !gone.is_empty());
        let before = SceneOptions {
            layout: Some(all.clone()),
            ..base.clone()
        };
        let after = SceneOptions {
            layout: Some(all.into_iter().filter(|l| l.col != 0).collect()),
            placements: vec![Placement::Free],
            ..base
        };
        let frames = [
            renderer.render(3600, &before).unwrap().image,
            renderer.render(3617, &after).unwrap().image,
        ];
        let mut memory = vision::memory::TableMemory::new();
        let mut tracker = Tracker::new(TrackerConfig::default());
        let mut events = Vec::new();
        for i in 0..24u64 {
            let image = &frames[(i / 12) as usize];
            let obs = scanner.scan_following(image, i, &mut memory).unwrap();
            let seen = tracker.update(&sightings(&obs));
            if i >= 12 {
                events.extend(seen);
            }
        }
        let mut removed: Vec<String> = events
            .iter()
            .filter_map(|e| match e {
                TableEvent::Removed { card, .. } => Some(card.clone()),
                _ => None,
            })
            .collect();
        removed.sort();
        let mut want = gone;
        want.sort();
        assert_eq!(removed, want, "{events:?}");
        assert_eq!(
            events.len(),
            removed.len(),
            "nothing but the removals: {events:?}"
        );
    }
}
