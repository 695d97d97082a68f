//! Carrying out an allowed action, and the turn structure (phases, priority passing, hand limit).

use crate::action::{Action, Event};
use crate::catalogue::Kind;
use crate::check::check;
use crate::keyword::Keyword;
use crate::state::{
    CardId, Entity, Pending, Phase, Seat, StackItem, StackKind, State, Target, Territory,
};
use rules_core::Violation;

pub type Events = Vec<Event>;

pub fn apply(s: &State, action: &Action) -> Result<(State, Events), Violation> {
    check(s, action)?;
    let mut s = s.clone();
    let mut ev = Vec::new();
    // `check` passed, so `actor` is Some.
    let seat = s.actor().unwrap_or(s.priority);
    perform(&mut s, seat, action, &mut ev);
    s.settle(&mut ev);
    Ok((s, ev))
}

fn perform(s: &mut State, seat: Seat, action: &Action, ev: &mut Events) {
    match action {
        Action::Keep => {
            s.players[seat].kept = true;
            ev.push(Event::Kept { seat });
            if s.players.iter().all(|p| p.kept) {
                s.turn = 1;
                s.active = s.first;
                s.begin_turn(ev);
            }
        }
        Action::Mulligan { cards } => {
            let p = &mut s.players[seat];
            p.hand.retain(|c| !cards.contains(c));
            p.library.extend(cards);
            // 调度: the first redraws as many, each later one one fewer.
            let draw = if p.mulligans == 0 {
                cards.len()
            } else {
                cards.len() - 1
            };
            p.mulligans += 1;
            ev.push(Event::Mulliganed {
                seat,
                put_back: cards.len(),
                drew: draw,
            });
            s.draw(seat, draw, ev);
        }
        Action::Pass => {
            ev.push(Event::Passed { seat });
            s.passes += 1;
            if s.passes >= 2 {
                s.passes = 0;
                if s.stack.is_empty() {
                    s.advance_phase(ev);
                } else {
                    s.resolve_top(ev);
                    s.priority = s.active;
                }
            } else {
                s.priority = State::other(seat);
            }
            return;
        }
        Action::PlayTerritory { card, face_up } => {
            let p = &mut s.players[seat];
            p.hand.retain(|c| c != card);
            p.territories.push(Territory {
                card: *card,
                face_up: *face_up,
                tapped: false,
            });
            p.played_territory = true;
            ev.push(Event::TerritoryPlayed {
                seat,
                card: *card,
                face_up: *face_up,
            });
        }
        Action::PlayCard {
            card,
            slot,
            target,
            expedition,
            pay,
        } => {
            let d = s.def(*card);
            let cost = if *expedition {
                d.keywords
                    .iter()
                    .find_map(|k| match k {
                        Keyword::Expedition { cost, .. } => Some(*cost),
                        _ => None,
                    })
                    .unwrap_or(d.cost)
            } else {
                d.cost
            };
            s.players[seat].hand.retain(|c| c != card);
            s.pay_with(seat, cost as usize, None, pay.as_deref());
            s.stack.push(StackItem {
                controller: seat,
                kind: StackKind::Card {
                    card: *card,
                    slot: *slot,
                    expedition: *expedition,
                },
                target: *target,
            });
            ev.push(Event::Played {
                seat,
                card: *card,
                cost_paid: cost,
            });
        }
        Action::ActivateTerritory { territory, pay } => {
            let cost = s.def(*territory).ability.as_ref().map_or(0, |a| a.cost) as usize
                + s.turmoil_against(seat) as usize;
            if let Some(t) = s.players[seat]
                .territories
                .iter_mut()
                .find(|t| t.card == *territory)
            {
                t.tapped = true;
            }
            s.pay_with(seat, cost, Some(*territory), pay.as_deref());
            s.stack.push(StackItem {
                controller: seat,
                kind: StackKind::TerritoryAbility {
                    territory: *territory,
                },
                target: None,
            });
            ev.push(Event::AbilityActivated {
                seat,
                source: *territory,
            });
        }
        Action::Shoot { unit, target } => {
            let amount = s
                .def(*unit)
                .keywords
                .iter()
                .find_map(|k| match k {
                    Keyword::Shoot(x) => Some(*x),
                    _ => None,
                })
                .unwrap_or(0);
            if let Some(u) = s.unit_mut(*unit) {
                u.tapped = true;
            }
            s.stack.push(StackItem {
                controller: seat,
                kind: StackKind::Shoot {
                    unit: *unit,
                    amount,
                },
                target: Some(Target::Unit(*target)),
            });
            ev.push(Event::AbilityActivated {
                seat,
                source: *unit,
            });
        }
        Action::Shift { unit, to } => {
            if let Some(u) = s.unit_mut(*unit) {
                u.shifted = true;
            }
            s.move_unit(*unit, *to, ev);
        }
        Action::Equip {
            equipment,
            unit,
            pay,
        } => {
            let cost = s
                .def(*equipment)
                .keywords
                .iter()
                .find_map(|k| match k {
                    Keyword::Equip(x) => Some(*x),
                    _ => None,
                })
                .unwrap_or(0);
            s.pay_with(seat, cost as usize, None, pay.as_deref());
            s.stack.push(StackItem {
                controller: seat,
                kind: StackKind::Equip {
                    equipment: *equipment,
                    unit: *unit,
                },
                target: Some(Target::Unit(*unit)),
            });
            ev.push(Event::AbilityActivated {
                seat,
                source: *equipment,
            });
        }
        Action::Attack { unit } => {
            if let Some(u) = s.unit_mut(*unit) {
                u.tapped = true;
            }
            let slot = s.find_unit(*unit).map_or(0, |x| x.1);
            s.stack.push(StackItem {
                controller: seat,
                kind: StackKind::Attack { unit: *unit },
                target: None,
            });
            ev.push(Event::Attacked { unit: *unit, slot });
        }
        Action::Arrange { top, bottom } => {
            let p = &mut s.players[seat];
            p.library
                .retain(|c| !top.contains(c) && !bottom.contains(c));
            let mut lib = top.clone();
            lib.append(&mut p.library);
            lib.extend(bottom);
            p.library = lib;
            s.pending = None;
            ev.push(Event::Arranged {
                seat,
                top: top.len(),
                bottom: bottom.len(),
            });
            s.priority = s.active;
        }
        Action::AssignBreakthrough { to_unit } => {
            if let Some(Pending::Breakthrough {
                attacker,
                defender,
                max,
                ..
            }) = s.pending.take()
            {
                s.combat_exchange(attacker, defender, *to_unit, max - to_unit, ev);
            }
            s.priority = s.active;
        }
        Action::Discard { card } => {
            let p = &mut s.players[seat];
            p.hand.retain(|c| c != card);
            p.graveyard.push(*card);
            ev.push(Event::Discarded { seat, card: *card });
            if p.hand.len() <= s.profile.hand_limit {
                s.pending = None;
                s.end_turn(ev);
            }
        }
    }
    // Any action other than passing restarts the run of passes.
    s.passes = 0;
}

impl State {
    /// Draw `n`; drawing from an empty library loses the game (checked in `settle`).
    pub fn draw(&mut self, seat: Seat, n: usize, ev: &mut Events) {
        for _ in 0..n {
            let p = &mut self.players[seat];
            if p.library.is_empty() {
                p.drew_from_empty = true;
                return;
            }
            let card = p.library.remove(0);
            p.hand.push(card);
            ev.push(Event::Drew { seat, card });
        }
    }

    /// Tap the chosen territories (already checked), or let [`State::pay`] choose.
    fn pay_with(
        &mut self,
        seat: Seat,
        n: usize,
        except: Option<CardId>,
        chosen: Option<&[CardId]>,
    ) {
        let Some(chosen) = chosen else {
            return self.pay(seat, n, except);
        };
        for t in &mut self.players[seat].territories {
            if chosen.contains(&t.card) {
                t.tapped = true;
            }
        }
    }

    /// Tap `n` untapped territories: face-down first, then those without abilities (keeps abilities usable).
    pub fn pay(&mut self, seat: Seat, n: usize, except: Option<CardId>) {
        let mut order: Vec<usize> = (0..self.players[seat].territories.len()).collect();
        order.sort_by_key(|&i| {
            let t = &self.players[seat].territories[i];
            (t.face_up, self.def(t.card).ability.is_some(), i)
        });
        let mut left = n;
        for i in order {
            if left == 0 {
                break;
            }
            let t = &mut self.players[seat].territories[i];
            if !t.tapped && Some(t.card) != except {
                t.tapped = true;
                left -= 1;
            }
        }
    }

    /// 重置 then 摸牌 for the active player.
    pub fn begin_turn(&mut self, ev: &mut Events) {
        let a = self.active;
        for seat in 0..2 {
            for u in self.players[seat].slots.iter_mut().flatten() {
                u.dealt_combat_damage = false;
                u.shifted = false;
                if seat == a {
                    u.tapped = false;
                    u.fresh = false;
                }
            }
        }
        for t in &mut self.players[a].territories {
            t.tapped = false;
        }
        self.players[a].played_territory = false;
        self.phase = Phase::Draw;
        self.priority = a;
        self.passes = 0;
        ev.push(Event::PhaseBegan {
            seat: a,
            turn: self.turn,
            phase: Phase::Draw,
        });
        let skip = self.turn == 1 && self.profile.first_player_skips_draw;
        if !skip {
            self.draw(a, 1, ev);
        }
    }

    fn advance_phase(&mut self, ev: &mut Events) {
        let next = match self.phase {
            Phase::Draw => Phase::Action,
            Phase::Action => Phase::Combat,
            Phase::Combat => Phase::End,
            Phase::End | Phase::Mulligan => {
                // 弃牌步骤 (no priority), then the turn ends.
                if self.players[self.active].hand.len() > self.profile.hand_limit {
                    self.pending = Some(Pending::Discard { seat: self.active });
                } else {
                    self.end_turn(ev);
                }
                return;
            }
        };
        self.phase = next;
        self.priority = self.active;
        ev.push(Event::PhaseBegan {
            seat: self.active,
            turn: self.turn,
            phase: next,
        });
    }

    pub fn end_turn(&mut self, ev: &mut Events) {
        for p in &mut self.players {
            for u in p.slots.iter_mut().flatten() {
                u.turn_attack = 0;
                u.turn_prevent = 0;
            }
        }
        self.active = State::other(self.active);
        self.turn += 1;
        self.begin_turn(ev);
    }

    /// Moves a unit to another 陣地 of its controller; 突击 and 迎击 trigger.
    pub fn move_unit(&mut self, unit: CardId, to: usize, ev: &mut Events) {
        let Some((seat, from)) = self.find_unit(unit) else {
            return;
        };
        if self.players[seat].slots[to].is_some() {
            return;
        }
        let u = self.players[seat].slots[from].take();
        self.players[seat].slots[to] = u;
        ev.push(Event::Moved {
            card: unit,
            from,
            to,
        });
        let tapped = self.unit(unit).is_some_and(|u| u.tapped);
        for k in &self.def(unit).keywords.clone() {
            if let (Keyword::Assault(x), false) = (k, tapped) {
                self.triggers.push(StackItem {
                    controller: seat,
                    kind: StackKind::Assault { unit, amount: *x },
                    target: None,
                });
            }
        }
        self.entered_slot(seat, to, unit);
    }

    /// A unit entered `slot` of `seat`: 迎击 of the opposite unit triggers.
    pub fn entered_slot(&mut self, seat: Seat, slot: usize, unit: CardId) {
        let opp = State::other(seat);
        if let Some(o) = &self.players[opp].slots[slot] {
            let source = o.card;
            for k in &self.def(source).keywords.clone() {
                if let Keyword::Intercept(x) = k {
                    self.triggers.push(StackItem {
                        controller: opp,
                        kind: StackKind::Intercept {
                            source,
                            victim: unit,
                            amount: *x,
                        },
                        target: Some(Target::Unit(unit)),
                    });
                }
            }
        }
    }

    /// A card becomes an entity on the battlefield (陣略, 战器) or a unit in `slot`.
    pub fn enter(
        &mut self,
        seat: Seat,
        card: CardId,
        slot: Option<usize>,
        expedition: bool,
        ev: &mut Events,
    ) {
        let d = self.def(card).clone();
        match (d.kind, slot) {
            (Kind::Unit, Some(i)) => {
                self.players[seat].slots[i] = Some(crate::state::Unit::new(card));
                self.entered_slot(seat, i, card);
            }
            _ => self.players[seat].entities.push(Entity {
                card,
                attached: None,
            }),
        }
        ev.push(Event::Entered { seat, card, slot });
        // 远征's exile goes on first so the card's own enter effect resolves before it (docs/duel.md).
        if expedition {
            self.triggers.push(StackItem {
                controller: seat,
                kind: StackKind::ExpeditionExile { unit: card },
                target: None,
            });
        }
        if !d.on_enter.is_empty() {
            self.triggers.push(StackItem {
                controller: seat,
                kind: StackKind::OnEnter { card },
                target: None,
            });
        }
        for k in &d.keywords {
            if let Keyword::Stargaze(x) = k {
                self.triggers.push(StackItem {
                    controller: seat,
                    kind: StackKind::Stargaze { card, amount: *x },
                    target: None,
                });
            }
        }
    }
}
