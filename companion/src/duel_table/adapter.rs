//! The table as the tracker committed it → 陣面對決 engine actions. After each committed change the
//! adapter compares the table with the engine, side by side, and reads each difference as the play
//! that explains it:
//! - a unit in a 陣地 the engine has empty: that card is played there and must be paid for, with
//!   the territories seen newly tapped when they are exactly the cost, the engine's only way when
//!   there is no choice, else the panel asks which territories pay (`Waiting`);
//! - a territory more than the engine has: a territory play, face up (its card) or face down;
//! - a unit the engine has untapped, seen sideways: an attack declaration;
//! - a unit the engine took out of play still on the table: awaited removal, not a new play;
//! - everything else that differs (a unit gone, untapped early) is noted, not applied.
//!
//! Anything the engine refuses is flagged with the rule it cites and never applied. Implied
//! passes: a player acting at the table while the engine waits on passes is read as both players
//! having passed up to that player's action (or combat) phase, or, for a response, as the priority
//! holder having passed priority on (docs/duel.md, "At the table").

use super::feed::{SideSnapshot, TableSnapshot};
use duel::state::StackKind;
use duel::view::{describe_action, describe_event};
use duel::{Action, CardId, Duel, Phase, Seat, State};
use rules_core::Game;
use std::collections::{BTreeMap, BTreeSet};
use vision::types::DuelSide;

/// A refused table change: what was tried, the rule and the reason.
#[derive(Clone, Debug, PartialEq)]
pub struct Flag {
    pub action: String,
    pub rule: String,
    pub reason: String,
}

/// A unit seen in a 陣地 whose payment the players must settle.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting {
    pub seat: Seat,
    pub action: Action,
    pub cost: usize,
    /// Territories the camera saw newly tapped (engine ids).
    pub seen_tapped: Vec<CardId>,
    /// The untapped territories that could pay.
    pub options: Vec<CardId>,
}

pub struct TableGame {
    pub state: State,
    /// Engine seat sitting on each side: `[near, far]`.
    pub seats: [Seat; 2],
    /// Applied actions and their events, in words.
    pub log: Vec<String>,
    pub flags: Vec<Flag>,
    /// Differences the adapter does not turn into actions (shown, never applied).
    pub notes: Vec<String>,
    pub waiting: Option<Waiting>,
    /// Resolve the stack by passing for both players whenever nobody acts (headless play).
    pub auto_pass: bool,
    /// Settle an unclear payment with the engine's choice instead of asking (headless play).
    pub auto_pay: bool,
    flagged: BTreeSet<String>,
    /// Cards the engine untapped at 重置 that the table still shows tapped: the player has yet to
    /// turn them back (not an attack, not a payment).
    pub untap_pending: BTreeSet<CardId>,
    /// Units that left a 陣地 in the engine (died, destroyed, exiled, moved) and are still on the
    /// table there: (seat, slot) → catalogue id. Awaited removals, not new plays.
    pub remove_pending: BTreeMap<(Seat, usize), String>,
}

impl TableGame {
    pub fn new(state: State) -> TableGame {
        TableGame {
            state,
            seats: [0, 1],
            log: Vec::new(),
            flags: Vec::new(),
            notes: Vec::new(),
            waiting: None,
            auto_pass: false,
            auto_pay: false,
            flagged: BTreeSet::new(),
            untap_pending: BTreeSet::new(),
            remove_pending: BTreeMap::new(),
        }
    }

    /// The demo decks, both players keep, on to the first player's action phase.
    pub fn demo(seed: u64) -> anyhow::Result<TableGame> {
        let cat = std::sync::Arc::new(duel::Catalogue::demo());
        let decks = duel::DEMO_DECKS.map(|(origin, text)| {
            duel::parse_deck(origin, text, &cat, &duel::Profile::default(), None)
                .map(|d| d.main)
                .map_err(|e| anyhow::anyhow!("{origin}: {e:?}"))
        });
        let [a, b] = decks;
        let setup = duel::Setup {
            names: ["近方 Near".into(), "远方 Far".into()],
            decks: [a?, b?],
            seed,
            first: Some(0),
            shuffle: true,
        };
        let state = duel::from_setup(cat, duel::Profile::default(), &setup)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut game = TableGame::new(state);
        for a in [Action::Keep, Action::Keep] {
            game.apply(a)?;
        }
        game.pass_to(0, Phase::Action);
        Ok(game)
    }

    fn seat_of(&self, side: DuelSide) -> Seat {
        match side {
            DuelSide::Near => self.seats[0],
            DuelSide::Far => self.seats[1],
        }
    }

    /// Applies an action; a refusal is returned (the state is unchanged).
    pub fn apply(&mut self, action: Action) -> Result<(), rules_core::Violation> {
        let said = match action {
            // The engine had to pick some hand card; at the table it is a secret card back.
            Action::PlayTerritory { face_up: false, .. } => "暗置一张领土".to_string(),
            _ => describe_action(&self.state, &action),
        };
        let (next, events) = Duel::apply(&self.state, &action)?;
        let who = self
            .state
            .actor()
            .map(|s| self.state.players[s].name.clone())
            .unwrap_or_default();
        self.log.push(format!("{who}: {said}"));
        // The action line already says "pass".
        for e in events
            .iter()
            .filter(|e| !matches!(e, duel::Event::Passed { .. }))
        {
            self.log.push(format!("  {}", describe_event(&next, e)));
        }
        for seat in 0..2 {
            for slot in 0..5 {
                let before = self.state.players[seat].slots[slot]
                    .as_ref()
                    .map(|u| u.card);
                let after = next.players[seat].slots[slot].as_ref().map(|u| u.card);
                if let Some(gone) = before.filter(|b| Some(*b) != after) {
                    let id = self.state.def(gone).id.clone();
                    self.remove_pending.insert((seat, slot), id);
                }
            }
        }
        if next.turn != self.state.turn {
            // 重置 untapped these in the engine; on the table they are still sideways.
            for (before, after) in self.state.players.iter().zip(&next.players) {
                let tapped_units = before.slots.iter().flatten().filter(|u| u.tapped);
                self.untap_pending.extend(
                    tapped_units
                        .filter(|u| {
                            after
                                .slots
                                .iter()
                                .flatten()
                                .any(|a| a.card == u.card && !a.tapped)
                        })
                        .map(|u| u.card),
                );
                let tapped_lands = before.territories.iter().filter(|t| t.tapped);
                self.untap_pending.extend(
                    tapped_lands
                        .filter(|t| {
                            after
                                .territories
                                .iter()
                                .any(|a| a.card == t.card && !a.tapped)
                        })
                        .map(|t| t.card),
                );
            }
        }
        self.state = next;
        Ok(())
    }

    /// Applies, or flags the refusal once (the same refused change is not re-flagged every frame).
    fn try_apply(&mut self, action: Action) -> bool {
        let said = describe_action(&self.state, &action);
        match self.apply(action) {
            Ok(()) => true,
            Err(v) => {
                if self.flagged.insert(format!("{said}|{}", v.rule)) {
                    self.flags.push(Flag {
                        action: said,
                        rule: v.rule.to_string(),
                        reason: v.reason.zh.clone() + " / " + &v.reason.en,
                    });
                }
                false
            }
        }
    }

    /// The priority holder passes (a panel button).
    pub fn pass(&mut self) -> bool {
        self.try_apply(Action::Pass)
    }

    /// Implied passes: both players pass until `seat` is active in `phase` with an empty stack.
    fn pass_to(&mut self, seat: Seat, phase: Phase) {
        for _ in 0..16 {
            let s = &self.state;
            if s.outcome.is_some() || s.pending.is_some() {
                return;
            }
            if s.active == seat && s.phase == phase && s.stack.is_empty() {
                return;
            }
            if Duel::apply(s, &Action::Pass).is_err() || !self.pass() {
                return;
            }
        }
    }

    /// Implied passes before a table play by `seat`: none when it is allowed now; one when it is a
    /// response and the other player holds priority (they passed it on); otherwise both pass up to
    /// `seat`'s action phase.
    fn make_room(&mut self, seat: Seat, action: &Action) {
        if Duel::apply(&self.state, action).is_ok() {
            return;
        }
        let s = &self.state;
        if !s.stack.is_empty() && s.actor().is_some_and(|a| a != seat) {
            let passed = Duel::apply(s, &Action::Pass).ok();
            if passed.is_some_and(|(after, _)| Duel::apply(&after, action).is_ok()) {
                self.pass();
                return;
            }
        }
        self.pass_to(seat, Phase::Action);
    }

    /// Passes for both players until the stack is empty (nobody responds).
    pub fn resolve_stack(&mut self) {
        for _ in 0..32 {
            if self.state.stack.is_empty()
                || self.state.pending.is_some()
                || self.state.outcome.is_some()
            {
                return;
            }
            if !self.pass() {
                return;
            }
        }
    }

    /// Compares the committed table with the engine and plays what explains the differences.
    pub fn sync(&mut self, table: &TableSnapshot) {
        self.notes.clear();
        for side in [DuelSide::Near, DuelSide::Far] {
            let seat = self.seat_of(side);
            self.sync_territories(seat, table.side(side));
        }
        for side in [DuelSide::Near, DuelSide::Far] {
            let seat = self.seat_of(side);
            self.sync_units(seat, table.side(side));
        }
        if self.auto_pass {
            self.resolve_stack();
        }
        for side in [DuelSide::Near, DuelSide::Far] {
            let seat = self.seat_of(side);
            self.prune_untaps(seat, table.side(side));
        }
    }

    /// Forgets awaited untaps the table already shows (the engine turned a page this sync).
    fn prune_untaps(&mut self, seat: Seat, seen: &SideSnapshot) {
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

    fn sync_territories(&mut self, seat: Seat, seen: &SideSnapshot) {
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
                self.make_room(seat, &Action::PlayTerritory { card, face_up });
                if !self.try_apply(Action::PlayTerritory { card, face_up }) {
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
    fn engine_territories(&self, seat: Seat, kind: &Option<String>) -> Vec<(CardId, bool)> {
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
    fn newly_tapped(&mut self, seat: Seat, seen: &SideSnapshot) -> Vec<CardId> {
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

    fn flag_missing(&mut self, seat: Seat, what: &str) {
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

    fn sync_units(&mut self, seat: Seat, seen: &SideSnapshot) {
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

    fn play_unit(&mut self, seat: Seat, slot: usize, id: &str, seen: &SideSnapshot) {
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
        self.make_room(seat, &action);
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

    fn attack(&mut self, seat: Seat, unit: CardId) {
        if self.state.phase == Phase::Action && self.state.active == seat {
            self.pass_to(seat, Phase::Combat);
        }
        self.try_apply(Action::Attack { unit });
    }

    /// The panel settles a waiting payment with these territories.
    pub fn pay_waiting(&mut self, territories: Vec<CardId>) -> bool {
        let Some(w) = self.waiting.take() else {
            return false;
        };
        let ok = self.try_apply(w.action.paid_with(territories));
        if !ok {
            self.waiting = Some(w);
        }
        ok
    }

    /// The stack, top first, each item described.
    pub fn stack_lines(&self) -> Vec<String> {
        let s = &self.state;
        s.stack
            .iter()
            .rev()
            .map(|i| {
                let who = &s.players[i.controller].name;
                let what = duel::view::describe(s, &i.kind, i.target);
                let tag = match i.kind {
                    StackKind::Card { .. } => "牌",
                    _ => "能力",
                };
                format!("{what} （{who} · {tag}）")
            })
            .collect()
    }

    /// Who holds priority, by name (none when the game is over).
    pub fn priority_holder(&self) -> Option<String> {
        self.state
            .actor()
            .map(|s| self.state.players[s].name.clone())
    }
}
