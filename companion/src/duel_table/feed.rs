//! Camera frames → the Duel table reading → sightings for the game-agnostic tracker, and back from
//! the tracker's committed table to a per-side snapshot the adapter compares with the engine.
//!
//! The tracker follows one card per key, but a Duel table holds several copies of a card and
//! every face-down territory shows the same back, so keys carry the place: `u:n:2:wei-01` is the
//! unit in the near side's 陣地 3; `t:f:back#1` is the far side's second face-down territory from
//! the viewer's left (the n-th of that kind, so a territory nudged along the strip keeps its key).

use crate::live::tracker::{CardPlace, FrameSightings, GridCell, Sighting};
use crate::live::vision_feed::scan_next;
use crate::panel::feed::{Feed, FeedStatus, Overlay};
use std::collections::BTreeMap;
use vision::games::duel::{read_table, DuelTableView, TerritoryStrips, BACK_ID};
use vision::source::FrameSource;
use vision::types::DuelSide;
use vision::{Scanner, TableObservation};

/// What the tracker has committed, per side.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SideSnapshot {
    /// (catalogue id, tapped) per 陣地.
    pub slots: [Option<(String, bool)>; 5],
    /// (catalogue id, or `None` for a face-down territory; tapped), left to right.
    pub territories: Vec<(Option<String>, bool)>,
}

#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TableSnapshot {
    pub near: SideSnapshot,
    pub far: SideSnapshot,
}

impl TableSnapshot {
    pub fn side(&self, side: DuelSide) -> &SideSnapshot {
        match side {
            DuelSide::Near => &self.near,
            DuelSide::Far => &self.far,
        }
    }

    pub fn side_mut(&mut self, side: DuelSide) -> &mut SideSnapshot {
        match side {
            DuelSide::Near => &mut self.near,
            DuelSide::Far => &mut self.far,
        }
    }
}

fn side_code(side: DuelSide) -> &'static str {
    match side {
        DuelSide::Near => "n",
        DuelSide::Far => "f",
    }
}

/// Territories are tracked in 50 mm bins along the strip (cells only tell the tracker "moved").
fn strip_cell(side: DuelSide, x_mm: f64) -> GridCell {
    let row = if side == DuelSide::Near { -1 } else { 2 };
    ((x_mm / 50.0).round().clamp(-100.0, 100.0) as i8, row)
}

/// One frame's reading as tracker sightings (keys as in the module comment).
pub fn sightings(view: &DuelTableView, index: u64) -> FrameSightings {
    let mut out = Vec::new();
    for side in [DuelSide::Near, DuelSide::Far] {
        let seen = view.side(side);
        let code = side_code(side);
        let row = if side == DuelSide::Near { 0 } else { 1 };
        for (i, s) in seen.slots.iter().enumerate() {
            let Some(s) = s else { continue };
            out.push(Sighting {
                card: s.card.as_ref().map(|id| format!("u:{code}:{i}:{id}")),
                cell: Some((i as i8, row)),
                tapped: s.tapped,
                covered: s.covered,
                confidence: s.confidence,
            });
        }
        let mut nth: BTreeMap<String, usize> = BTreeMap::new();
        for t in &seen.territories {
            let kind = if t.face_down {
                Some(BACK_ID.to_string())
            } else {
                t.card.clone()
            };
            let key = kind.map(|k| {
                let n = nth.entry(k.clone()).or_default();
                *n += 1;
                format!("t:{code}:{k}#{}", *n - 1)
            });
            out.push(Sighting {
                card: key,
                cell: Some(strip_cell(side, t.x_mm)),
                tapped: t.tapped,
                covered: t.covered,
                confidence: t.confidence,
            });
        }
    }
    FrameSightings {
        index,
        sightings: out,
        // Without the 陣地 (no mat, no unit) nothing can be placed: such a frame must not make
        // cards "disappear".
        occluded: view.occluded || !view.calibrated,
    }
}

/// The tracker's committed table as a per-side snapshot.
pub fn snapshot(committed: &BTreeMap<String, CardPlace>) -> TableSnapshot {
    let mut snap = TableSnapshot::default();
    let mut territories: Vec<(DuelSide, i8, Option<String>, bool)> = Vec::new();
    for (key, place) in committed {
        let mut parts = key.splitn(4, ':');
        let (kind, side) = (parts.next(), parts.next());
        let side = match side {
            Some("n") => DuelSide::Near,
            Some("f") => DuelSide::Far,
            _ => continue,
        };
        let target = snap.side_mut(side);
        match kind {
            Some("u") => {
                let slot: Option<usize> = parts.next().and_then(|s| s.parse().ok());
                if let (Some(slot), Some(id)) = (slot.filter(|s| *s < 5), parts.next()) {
                    target.slots[slot] = Some((id.to_string(), place.tapped));
                }
            }
            Some("t") => {
                let rest = parts.next().unwrap_or_default();
                let id = rest.split('#').next().unwrap_or_default();
                let card = (id != BACK_ID).then(|| id.to_string());
                territories.push((side, place.cell.0, card, place.tapped));
            }
            _ => {}
        }
    }
    territories.sort_by_key(|t| t.1);
    for (side, _, card, tapped) in territories {
        snap.side_mut(side).territories.push((card, tapped));
    }
    snap
}

/// Card outlines with what they were read as.
pub fn overlays(obs: &TableObservation) -> Vec<Overlay> {
    obs.cards
        .iter()
        .map(|c| Overlay {
            corners: c.corners,
            label: match (&c.card, c.cell) {
                (Some(id), Some(vision::Cell::Duel { side, slot })) => {
                    format!("{id} {}{slot}", side_code(side))
                }
                (Some(id), _) => id.clone(),
                (None, _) => "?".into(),
            },
            uncertain: c.card.is_none() || c.covered,
        })
        .collect()
}

/// A frame source read through the Duel scanner.
pub struct DuelFeed {
    source: Box<dyn FrameSource>,
    scanner: Scanner,
    strips: TerritoryStrips,
    name: String,
    memory: vision::memory::TableMemory,
    pub scan_ms: Vec<f64>,
}

impl DuelFeed {
    pub fn new(source: Box<dyn FrameSource>, scanner: Scanner, name: String) -> DuelFeed {
        DuelFeed {
            source,
            scanner,
            strips: TerritoryStrips::duel(),
            name,
            memory: Default::default(),
            scan_ms: Vec::new(),
        }
    }
}

impl Feed for DuelFeed {
    fn poll(&mut self) -> FeedStatus {
        let strips = &self.strips;
        let read = |obs: &TableObservation, index: u64| {
            (sightings(&read_table(obs, strips), index), overlays(obs))
        };
        scan_next(
            self.source.as_mut(),
            &self.scanner,
            &mut self.memory,
            &mut self.scan_ms,
            read,
        )
        .unwrap_or_else(|e| FeedStatus::Lost(e.to_string()))
    }

    fn describe(&self) -> String {
        self.name.clone()
    }

    /// Here the answer says where the near player sits.
    fn set_allied_towards(&mut self, towards: [f64; 2]) {
        self.scanner.options.allied_towards = Some(towards);
    }
}
