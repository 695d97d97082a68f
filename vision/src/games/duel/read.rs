//! From one scanned frame to what lies on each side of the Duel table: the unit in each 陣地 and
//! the territories (face up or down, tapped or not). 陣地 come from the scanner's cells (from the mat,
//! or without it from the units); a card outside the cells whose centre lies in a side's territory
//! strip (mat mm, from the frame's homography) is that side's territory.

use crate::geometry;
use crate::types::{Cell, DuelSide, ObservedCard, Orientation, TableObservation};
use serde::{Deserialize, Serialize};

use super::faces::BACK_ID;

/// Where each side's territories lie, in Duel mat mm (the mat's 陣地 rows span y 0–200).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TerritoryStrips {
    /// y range of the near side's strip (between the near player and the near 陣地 row).
    pub near_y: (f64, f64),
    /// y range of the far side's strip (beyond the far 陣地 row).
    pub far_y: (f64, f64),
    /// x range of both strips (wider than the mat: territories pile up over a game).
    pub x: (f64, f64),
}

impl TerritoryStrips {
    /// Strips a card's depth wide, just outside the 陣地 rows.
    pub fn duel() -> TerritoryStrips {
        TerritoryStrips {
            near_y: (-200.0, -4.0),
            far_y: (204.0, 400.0),
            x: (-250.0, 750.0),
        }
    }

    fn side_of(&self, p: [f64; 2]) -> Option<DuelSide> {
        if p[0] < self.x.0 || p[0] > self.x.1 {
            return None;
        }
        if (self.near_y.0..=self.near_y.1).contains(&p[1]) {
            Some(DuelSide::Near)
        } else if (self.far_y.0..=self.far_y.1).contains(&p[1]) {
            Some(DuelSide::Far)
        } else {
            None
        }
    }
}

/// The card in one 陣地.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SlotSeen {
    /// Catalogue id; `None` when identification abstained.
    pub card: Option<String>,
    pub tapped: bool,
    pub covered: bool,
    pub confidence: f32,
    /// Image pixels.
    pub center: [f32; 2],
}

/// One territory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TerritorySeen {
    /// Catalogue id of a face-up territory; `None` when face down or not named.
    pub card: Option<String>,
    /// The card back was seen (暗置).
    pub face_down: bool,
    pub tapped: bool,
    pub covered: bool,
    pub confidence: f32,
    pub center: [f32; 2],
    /// Position along the strip (mat mm), for ordering and tracking.
    pub x_mm: f64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SideSeen {
    /// 陣地 1–5 from the viewer's left (index 0–4).
    pub slots: [Option<SlotSeen>; 5],
    /// Left to right along the strip.
    pub territories: Vec<TerritorySeen>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DuelTableView {
    /// The Duel mat was seen: without it nothing can be placed (cards are only counted).
    pub calibrated: bool,
    pub near: SideSeen,
    pub far: SideSeen,
    /// Cards seen neither in a 陣地 nor in a territory strip (hands, piles, strays).
    pub elsewhere: usize,
    /// A hand or motion probably hides part of the table.
    pub occluded: bool,
}

impl DuelTableView {
    pub fn side(&self, side: DuelSide) -> &SideSeen {
        match side {
            DuelSide::Near => &self.near,
            DuelSide::Far => &self.far,
        }
    }
    fn side_mut(&mut self, side: DuelSide) -> &mut SideSeen {
        match side {
            DuelSide::Near => &mut self.near,
            DuelSide::Far => &mut self.far,
        }
    }
}

fn tapped(o: Orientation) -> bool {
    matches!(o, Orientation::TappedLeft | Orientation::TappedRight)
}

/// Sorts a scanned frame into 陣地 and territories. Orientation is the mat's (the scanner turns it
/// into mat terms when it sees the mat), so "tapped" is sideways on the table, whatever the camera.
pub fn read_table(obs: &TableObservation, strips: &TerritoryStrips) -> DuelTableView {
    let mut view = DuelTableView {
        calibrated: obs.calibration.homography().is_some(),
        occluded: obs.hand_or_motion_suspected,
        ..DuelTableView::default()
    };
    let h = obs.calibration.homography().copied();
    for card in &obs.cards {
        match (card.cell, h) {
            (Some(Cell::Duel { side, slot }), _) if (1..=5).contains(&slot) => {
                put_slot(view.side_mut(side), slot as usize - 1, card)
            }
            (_, Some(h)) => {
                let c = [card.center[0] as f64, card.center[1] as f64];
                let mm = geometry::apply(&h, c);
                match strips.side_of(mm) {
                    Some(side) => view.side_mut(side).territories.push(territory(card, mm[0])),
                    None => view.elsewhere += 1,
                }
            }
            _ => view.elsewhere += 1,
        }
    }
    for side in [&mut view.near, &mut view.far] {
        side.territories.sort_by(|a, b| a.x_mm.total_cmp(&b.x_mm));
    }
    view
}

/// Two quads in one 陣地 (a stray or a double detection): the more confident stands.
fn put_slot(side: &mut SideSeen, i: usize, card: &ObservedCard) {
    let seen = SlotSeen {
        card: card.card.clone(),
        tapped: tapped(card.orientation),
        covered: card.covered,
        confidence: card.confidence,
        center: card.center,
    };
    match &side.slots[i] {
        Some(old) if old.confidence >= seen.confidence => {}
        _ => side.slots[i] = Some(seen),
    }
}

fn territory(card: &ObservedCard, x_mm: f64) -> TerritorySeen {
    let face_down = card.card.as_deref() == Some(BACK_ID);
    TerritorySeen {
        card: card.card.clone().filter(|_| !face_down),
        face_down,
        tapped: tapped(card.orientation),
        covered: card.covered,
        confidence: card.confidence,
        center: card.center,
        x_mm,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Calibration, Timings};

    /// A mat homography that is the identity: image pixels are mat mm.
    fn obs(cards: Vec<ObservedCard>) -> TableObservation {
        TableObservation {
            frame_index: 0,
            calibration: Calibration::Mat {
                mat: "duel-2x5".into(),
                markers: 6,
                homography: geometry::IDENTITY,
            },
            cards,
            hand_or_motion_suspected: false,
            motion: false,
            hand: false,
            timings: Timings::default(),
        }
    }

    fn card(id: &str, at: [f32; 2], o: Orientation, cell: Option<Cell>) -> ObservedCard {
        ObservedCard {
            card: Some(id.into()),
            corners: [at; 4],
            center: at,
            orientation: o,
            to_owner: o,
            cell,
            covered: false,
            confidence: 0.9,
        }
    }

    #[test]
    fn duel_table_units_go_to_their_cell_and_sideways_is_tapped() {
        let view = read_table(
            &obs(vec![
                card(
                    "wei-01",
                    [250.0, 50.0],
                    Orientation::TappedLeft,
                    Some(Cell::Duel {
                        side: DuelSide::Near,
                        slot: 3,
                    }),
                ),
                card(
                    "wu-02",
                    [50.0, 150.0],
                    Orientation::Inverted,
                    Some(Cell::Duel {
                        side: DuelSide::Far,
                        slot: 1,
                    }),
                ),
            ]),
            &TerritoryStrips::duel(),
        );
        let near = view.near.slots[2].as_ref().expect("near 陣地 3");
        assert_eq!((near.card.as_deref(), near.tapped), (Some("wei-01"), true));
        let far = view.far.slots[0].as_ref().expect("far 陣地 1");
        assert_eq!((far.card.as_deref(), far.tapped), (Some("wu-02"), false));
        assert!(view.calibrated);
    }

    #[test]
    fn duel_table_cards_in_a_strip_are_that_sides_territories_backs_face_down() {
        let view = read_table(
            &obs(vec![
                card("wei-land", [300.0, -70.0], Orientation::Upright, None),
                card(BACK_ID, [100.0, -60.0], Orientation::TappedRight, None),
                card("wu-land", [200.0, 280.0], Orientation::Inverted, None),
                card("wei-02", [250.0, 700.0], Orientation::Upright, None),
            ]),
            &TerritoryStrips::duel(),
        );
        let near = &view.near.territories;
        assert_eq!(near.len(), 2);
        assert!(near[0].face_down && near[0].tapped && near[0].card.is_none());
        assert_eq!(near[1].card.as_deref(), Some("wei-land"));
        assert!(!near[1].face_down && !near[1].tapped);
        assert_eq!(view.far.territories.len(), 1);
        assert_eq!(view.far.territories[0].card.as_deref(), Some("wu-land"));
        assert_eq!(view.elsewhere, 1, "far beyond the strips");
    }

    #[test]
    fn duel_table_without_a_frame_places_nothing() {
        let mut o = obs(vec![card(
            "wei-land",
            [300.0, -70.0],
            Orientation::Upright,
            None,
        )]);
        o.calibration = Calibration::None {
            reason: "no mat and no unit".into(),
        };
        let view = read_table(&o, &TerritoryStrips::duel());
        assert!(!view.calibrated);
        assert_eq!(view.elsewhere, 1);
        assert!(view.near.territories.is_empty());
    }
}
