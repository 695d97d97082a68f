//! Units at the table: a unit appearing is a paid play (or a payment question), sideways is an
//! attack, a unit the engine took out of play is an awaited removal.

use super::adapter::{Flag, TableGame, Waiting};
use super::feed::SideSnapshot;
use duel::{Action, CardId, Duel, Phase, Seat};
use rules_core::Game;
use std::collections::BTreeSet;

impl TableGame {
    pub(super) fn flag_missing(&mut self, seat: Seat, what: &str) {
        let name = self.state.players[seat].name.clone();
        if self.flagged.insert(format!("missing|{seat}|{what}")) {
            self.flags.push(Flag {
                action: format!("{name}: {what}"),
                rule: "牌组 deck".into(),
                reason: format!(
                    "{name} 的牌组（手牌与牌库）里没有 {what} / not in {name}'s hand or library"
                ),
            });
        }
    }

    pub(super) fn sync_units(&mut self, seat: Seat, seen: &SideSnapshot) {
        // A unit waiting for its payment was taken back off the table: the question is withdrawn.
        if let Some(w) = self.waiting.as_ref().filter(|w| w.seat == seat) {
            if let Action::PlayCard {
                card,
                slot: Some(i),
                ..
            } = &w.action
            {
                let id = &self.state.def(*card).id;
                if seen.slots[*i].as_ref().is_none_or(|(s, _)| s != id) {
                    self.waiting = None;
                }
            }
        }
        for slot in 0..5 {
            let engine = self.state.players[seat].slots[slot].clone();
            match (&seen.slots[slot], engine) {
                (Some((id, _)), None) if self.remove_pending.get(&(seat, slot)) == Some(id) => {
                    self.notes.push(format!(
                        "请把 {} 移出陣地 {}（已离场）/ take it off the table: it left play",
                        self.state.catalogue.find(id).map_or(id.as_str(), |d| {
                            self.state.catalogue.get(d).name.as_str()
                        }),
                        slot + 1
                    ));
                }
                (Some((id, _)), None) => {
                    self.remove_pending.remove(&(seat, slot));
                    if self.state.slot_claimed(seat, slot) {
                        continue; // Played already; on the stack.
                    }
                    self.play_unit(seat, slot, id, seen);
                }
                (Some((id, tapped)), Some(u)) => {
                    if self.state.def(u.card).id != *id {
                        self.notes.push(format!(
                            "陣地 {}：桌上是 {id}，引擎里是 {} / the table and the engine disagree",
                            slot + 1,
                            self.state.def(u.card).name
                        ));
                    } else if self.untap_pending.contains(&u.card) {
                        if *tapped {
                            self.notes.push(format!(
                                "重置：请把 {} 转正 / untap it (untap step)",
                                self.state.def(u.card).name
                            ));
                        } else {
                            self.untap_pending.remove(&u.card);
                        }
                    } else if *tapped && !u.tapped {
                        self.attack(seat, u.card);
                    } else if !*tapped && u.tapped {
                        self.notes.push(format!(
                            "{} 在引擎中仍横置 / still tapped in the engine: turn it sideways again",
                            self.state.def(u.card).name
                        ));
                    }
                }
                (None, Some(u)) => self.notes.push(format!(
                    "{} 不在桌上，引擎里仍在陣地 {} / missing from the table",
                    self.state.def(u.card).name,
                    slot + 1
                )),
                (None, None) => {
                    self.remove_pending.remove(&(seat, slot));
                }
            }
        }
    }

    pub(super) fn play_unit(&mut self, seat: Seat, slot: usize, id: &str, seen: &SideSnapshot) {
        if let Some(w) = self.waiting.clone().filter(|w| w.seat == seat) {
            if !matches!(w.action, Action::PlayCard { slot: Some(i), .. } if i == slot) {
                return; // Another unit: one payment question at a time.
            }
            // Asked already: a newly tapped territory may now complete the payment.
            let tapped = self.newly_tapped(seat, seen);
            if tapped.len() == w.cost {
                self.waiting = None;
                self.try_apply(w.action.paid_with(tapped));
            } else if self.auto_pay {
                self.waiting = None;
                self.try_apply(w.action);
            }
            return;
        }
        let Some(def) = self.state.catalogue.find(id) else {
            return self.flag_missing(seat, id);
        };
        let Some(card) = self.state.reveal_in_hand(seat, def) else {
            return self.flag_missing(seat, id);
        };
        let action = Action::PlayCard {
            card,
            slot: Some(slot),
            target: None,
            expedition: false,
            pay: None,
        };
        if !self.make_room(seat, &action, Phase::Action) {
            return;
        }
        let cost = self.state.payment_cost(&action).unwrap_or(0);
        let tapped = self.newly_tapped(seat, seen);
        if tapped.len() == cost {
            self.try_apply(action.paid_with(tapped));
        } else if !self.state.payment_is_a_choice(&action) || self.auto_pay {
            self.try_apply(action);
        } else if let Err(v) = Duel::apply(&self.state, &action) {
            // Refused whatever pays (timing, support, too few territories): flag it now.
            let _ = v;
            self.try_apply(action);
        } else {
            let options = self
                .state
                .payment_choices(&action, usize::MAX)
                .into_iter()
                .flatten()
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            self.waiting = Some(Waiting {
                seat,
                action,
                cost,
                seen_tapped: tapped,
                options,
            });
        }
    }

    pub(super) fn attack(&mut self, seat: Seat, unit: CardId) {
        let attack = Action::Attack { unit };
        // Implied passes only within the attacker's own turn (never a whole turn of the other's).
        if self.state.active != seat {
            self.try_apply(attack);
            return;
        }
        if self.make_room(seat, &attack, Phase::Combat) {
            self.try_apply(attack);
        }
    }
}
