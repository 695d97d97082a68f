//! The players' corrections of what the camera reads at the Duel table: "the card the camera reads
//! as X in this place is Y". Kept for the rest of the game (journalled) and laid over every table
//! the tracker commits, so a card the camera keeps misreading stays what the players said it is.

use super::feed::TableSnapshot;
use serde::{Deserialize, Serialize};
use vision::types::DuelSide;

/// A place on one side of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Place {
    /// 陣地 0..5, from the viewer's left as the snapshot keeps them.
    Slot(usize),
    /// The n-th territory from the left.
    Territory(usize),
}

/// What lies in `place`, as the players said.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Correction {
    pub side: DuelSide,
    pub place: Place,
    /// What the camera reads there (`None`: a face-down territory).
    pub seen: Option<String>,
    /// What lies there (`None`: face down; only a territory can be).
    pub card: Option<String>,
}

/// The card read in `place` (`Some(None)`: a face-down territory); `None` when nothing lies there.
pub fn card_at(table: &TableSnapshot, side: DuelSide, place: Place) -> Option<Option<&str>> {
    let side = table.side(side);
    match place {
        Place::Slot(i) => side.slots.get(i)?.as_ref().map(|(id, _)| Some(id.as_str())),
        Place::Territory(n) => side.territories.get(n).map(|(id, _)| id.as_deref()),
    }
}

/// The table the camera read with the corrections laid over it. Each correction is matched
/// against the camera's own reading, the latest for a place and reading winning.
pub fn corrected(corrections: &[Correction], read: &TableSnapshot) -> TableSnapshot {
    let mut table = read.clone();
    for c in corrections {
        if card_at(read, c.side, c.place) != Some(c.seen.as_deref()) {
            continue;
        }
        let side = table.side_mut(c.side);
        match c.place {
            Place::Slot(i) => {
                if let (Some(Some((id, _))), Some(card)) = (side.slots.get_mut(i), &c.card) {
                    *id = card.clone();
                }
            }
            Place::Territory(n) => {
                if let Some((id, _)) = side.territories.get_mut(n) {
                    *id = c.card.clone();
                }
            }
        }
    }
    table
}

/// The places of `after` whose card is not the one `before` has there: what a held table changes.
pub fn changed_places(before: &TableSnapshot, after: &TableSnapshot) -> Vec<(DuelSide, Place)> {
    let mut out = Vec::new();
    for side in [DuelSide::Near, DuelSide::Far] {
        let s = after.side(side);
        let places = (0..s.slots.len())
            .map(Place::Slot)
            .chain((0..s.territories.len()).map(Place::Territory));
        for place in places {
            let now = card_at(after, side, place);
            if now.is_some() && now != card_at(before, side, place) {
                out.push((side, place));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> TableSnapshot {
        let mut t = TableSnapshot::default();
        t.near.slots[2] = Some(("wei-01".into(), false));
        t.near.territories = vec![(None, false), (Some("shu-05".into()), true)];
        t.far.slots[0] = Some(("wu-02".into(), true));
        t
    }

    fn fix(side: DuelSide, place: Place, seen: Option<&str>, card: Option<&str>) -> Correction {
        Correction {
            side,
            place,
            seen: seen.map(Into::into),
            card: card.map(Into::into),
        }
    }

    /// The camera's wei-01 in the near 陣地 3 is `card`.
    fn wei_01_in_near_slot_2_is(card: Option<&str>) -> Correction {
        fix(DuelSide::Near, Place::Slot(2), Some("wei-01"), card)
    }

    #[test]
    fn a_correction_renames_the_card_it_was_made_for_and_keeps_its_tap() {
        let fixes = [
            wei_01_in_near_slot_2_is(Some("wei-03")),
            fix(DuelSide::Near, Place::Territory(0), None, Some("qun-01")),
        ];
        let t = corrected(&fixes, &table());
        assert_eq!(t.near.slots[2], Some(("wei-03".into(), false)));
        assert_eq!(t.near.territories[0], (Some("qun-01".into()), false));
        assert_eq!(t.near.territories[1], (Some("shu-05".into()), true));
        assert_eq!(t.far, table().far);
    }

    #[test]
    fn a_correction_leaves_another_card_in_its_place_alone() {
        let fixes = [fix(
            DuelSide::Far,
            Place::Slot(0),
            Some("wu-09"),
            Some("wu-03"),
        )];
        assert_eq!(corrected(&fixes, &table()), table());
        let empty = [fix(
            DuelSide::Far,
            Place::Slot(4),
            Some("wu-02"),
            Some("wu-03"),
        )];
        assert_eq!(corrected(&empty, &table()), table());
    }

    #[test]
    fn the_latest_correction_of_a_reading_wins() {
        let fixes = [
            wei_01_in_near_slot_2_is(Some("wei-03")),
            wei_01_in_near_slot_2_is(Some("wei-04")),
        ];
        let t = corrected(&fixes, &table());
        assert_eq!(
            t.near.slots[2].as_ref().map(|s| s.0.as_str()),
            Some("wei-04")
        );
    }

    #[test]
    fn changed_places_are_the_new_and_renamed_cards_only() {
        let before = table();
        let mut after = table();
        after.near.slots[2] = Some(("wei-01".into(), true));
        after.near.slots[3] = Some(("wei-07".into(), false));
        after.far.territories = vec![(None, false)];
        after.far.slots[0] = Some(("wu-04".into(), true));
        assert_eq!(
            changed_places(&before, &after),
            vec![
                (DuelSide::Near, Place::Slot(3)),
                (DuelSide::Far, Place::Slot(0)),
                (DuelSide::Far, Place::Territory(0)),
            ]
        );
    }
}
