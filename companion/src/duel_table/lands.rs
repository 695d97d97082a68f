//! Territories at the table: plays (face up or down), which ones the table shows newly tapped
//! (payment), and untaps awaited after 重置.

use super::adapter::TableGame;
use super::feed::SideSnapshot;
use duel::{Action, CardId, Phase, Seat};

impl TableGame {
    /// Forgets awaited untaps the table already shows (the engine turned a page this sync).
    pub(super) fn prune_untaps(&mut self, seat: Seat, seen: &SideSnapshot) {
        let p = &self.state.players[seat];
        for (slot, u) in p.slots.iter().enumerate() {
            if let (Some(u), Some((_, false))) = (u, &seen.slots[slot]) {
                self.untap_pending.remove(&u.card);
            }
        }
        let mut kinds: Vec<Option<String>> = seen.territories.iter().map(|t| t.0.clone()).collect();
        kinds.sort();
        kinds.dedup();
        for kind in kinds {
            let seen_tapped = seen
                .territories
                .iter()
                .filter(|t| t.0 == kind && t.1)
                .count();
            let engine = self.engine_territories(seat, &kind);
            let engine_tapped = engine.iter().filter(|t| t.1).count();
            let allowed = seen_tapped.saturating_sub(engine_tapped);
            let pending: Vec<CardId> = engine
                .iter()
                .filter(|t| !t.1 && self.untap_pending.contains(&t.0))
                .map(|t| t.0)
                .collect();
            for c in pending.iter().skip(allowed) {
                self.untap_pending.remove(c);
            }
        }
    }

    pub(super) fn sync_territories(&mut self, seat: Seat, seen: &SideSnapshot) {
        let count = |cards: &mut dyn Iterator<Item = &Option<String>>, want: &Option<String>| {
            cards.filter(|c| *c == want).count()
        };
        let mut kinds: Vec<Option<String>> = seen.territories.iter().map(|t| t.0.clone()).collect();
        kinds.sort();
        kinds.dedup();
        for kind in kinds {
            let on_table = count(&mut seen.territories.iter().map(|t| &t.0), &kind);
            let engine = self.engine_territories(seat, &kind).len();
            for _ in engine..on_table {
                let card = match &kind {
                    Some(id) => match self.state.catalogue.find(id) {
                        Some(def) => self.state.reveal_in_hand(seat, def),
                        None => None,
                    },
                    None => self.state.any_hand_card(seat),
                };
                let Some(card) = card else {
                    self.flag_missing(seat, kind.as_deref().unwrap_or("暗置领土"));
                    break;
                };
                let face_up = kind.is_some();
                let play = Action::PlayTerritory { card, face_up };
                if !self.make_room(seat, &play, Phase::Action) || !self.try_apply(play) {
                    break;
                }
            }
            if on_table < engine {
                self.notes.push(format!(
                    "{}：桌上少了 {} 张 {} / a territory is missing from the table",
                    self.state.players[seat].name,
                    engine - on_table,
                    kind.as_deref().unwrap_or("暗置领土")
                ));
            }
        }
    }

    /// The engine's territories of one kind (a catalogue id face up, or `None` face down).
    pub(super) fn engine_territories(
        &self,
        seat: Seat,
        kind: &Option<String>,
    ) -> Vec<(CardId, bool)> {
        self.state.players[seat]
            .territories
            .iter()
            .filter(|t| match kind {
                Some(id) => t.face_up && self.state.def(t.card).id == *id,
                None => !t.face_up,
            })
            .map(|t| (t.card, t.tapped))
            .collect()
    }

    /// Territories the table shows tapped but the engine has untapped (engine ids).
    pub(super) fn newly_tapped(&mut self, seat: Seat, seen: &SideSnapshot) -> Vec<CardId> {
        let mut kinds: Vec<Option<String>> = seen.territories.iter().map(|t| t.0.clone()).collect();
        kinds.sort();
        kinds.dedup();
        let mut out = Vec::new();
        for kind in kinds {
            let seen_tapped = seen
                .territories
                .iter()
                .filter(|t| t.0 == kind && t.1)
                .count();
            let engine = self.engine_territories(seat, &kind);
            let engine_tapped = engine.iter().filter(|t| t.1).count();
            let pending: Vec<CardId> = engine
                .iter()
                .filter(|t| !t.1 && self.untap_pending.contains(&t.0))
                .map(|t| t.0)
                .collect();
            // Fewer sideways than the engine's tapped plus those awaiting 重置: some were untapped.
            let untapped_now = (engine_tapped + pending.len()).saturating_sub(seen_tapped);
            for c in pending.iter().take(untapped_now) {
                self.untap_pending.remove(c);
            }
            let still = pending.len() - untapped_now.min(pending.len());
            out.extend(
                engine
                    .iter()
                    .filter(|t| !t.1 && !self.untap_pending.contains(&t.0))
                    .take(seen_tapped.saturating_sub(engine_tapped + still))
                    .map(|t| t.0),
            );
        }
        out
    }
}
