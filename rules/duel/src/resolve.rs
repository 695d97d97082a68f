//! Resolving the top of the stack, effect steps, damage, and the checks after every action.

use crate::action::Event;
use crate::catalogue::{Kind, Step};
use crate::exec::Events;
use crate::keyword::Keyword;
use crate::profile::TurnPrevention;
use crate::rules::Source;
use crate::state::{CardId, Outcome, Pending, Seat, StackItem, StackKind, State, Target};

/// Where a card leaving the battlefield goes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Dest {
    Graveyard,
    Exile,
}

impl State {
    /// Last in, first out: resolves the top item.
    pub fn resolve_top(&mut self, ev: &mut Events) {
        let Some(item) = self.stack.pop() else { return };
        let c = item.controller;
        ev.push(Event::Resolved { controller: c });
        match item.kind {
            StackKind::Card {
                card,
                slot,
                expedition,
            } => match self.def(card).kind {
                Kind::Unit => {
                    let free = slot.is_some_and(|i| self.players[c].slots[i].is_none());
                    if free {
                        self.enter(c, card, slot, expedition, ev);
                    } else {
                        // The 陣地 filled while it waited (a move): the unit cannot enter.
                        self.players[self.owner(card)].graveyard.push(card);
                        ev.push(Event::Fizzled { controller: c });
                    }
                }
                Kind::Trick => self.resolve_trick(c, card, item.target, ev),
                _ => self.enter(c, card, None, false, ev),
            },
            StackKind::Shoot { unit, amount } => {
                if let Some(Target::Unit(t)) = item.target {
                    let src = Source {
                        card: unit,
                        controller: c,
                    };
                    if self.can_target_unit(t, src).is_ok() {
                        self.damage_unit(src, t, amount, false, ev);
                    } else {
                        ev.push(Event::Fizzled { controller: c });
                    }
                }
            }
            StackKind::TerritoryAbility { territory } => {
                let steps = self
                    .def(territory)
                    .ability
                    .as_ref()
                    .map(|a| a.effect.clone())
                    .unwrap_or_default();
                for step in &steps {
                    self.run_step(
                        step,
                        Source {
                            card: territory,
                            controller: c,
                        },
                        None,
                        ev,
                    );
                }
            }
            StackKind::Equip { equipment, unit } => {
                let unit_ok = self.find_unit(unit).is_some_and(|(s, _)| s == c);
                let e = self.players[c]
                    .entities
                    .iter_mut()
                    .find(|e| e.card == equipment && e.attached.is_none());
                match (e, unit_ok) {
                    (Some(e), true) => {
                        e.attached = Some(unit);
                        ev.push(Event::Equipped { equipment, unit });
                    }
                    _ => ev.push(Event::Fizzled { controller: c }),
                }
            }
            StackKind::Attack { unit } => self.resolve_attack(c, unit, ev),
            StackKind::Intercept {
                source,
                victim,
                amount,
            } => {
                if self.find_unit(victim).is_some() {
                    self.damage_unit(
                        Source {
                            card: source,
                            controller: c,
                        },
                        victim,
                        amount,
                        false,
                        ev,
                    );
                }
            }
            StackKind::Assault { unit, amount } => {
                // Checked on resolution: still untapped (last known state if it left the battlefield).
                let (seat, slot, tapped) = match self.find_unit(unit) {
                    Some((s, i)) => (s, i, self.unit(unit).is_some_and(|u| u.tapped)),
                    None => match self.last_known.iter().rev().find(|l| l.0 == unit) {
                        Some(&(_, s, i, t)) => (s, i, t),
                        None => return,
                    },
                };
                let opposite = self.players[State::other(seat)].slots[slot]
                    .as_ref()
                    .map(|u| u.card);
                if let (false, Some(victim)) = (tapped, opposite) {
                    self.damage_unit(
                        Source {
                            card: unit,
                            controller: c,
                        },
                        victim,
                        amount,
                        false,
                        ev,
                    );
                }
            }
            StackKind::Combo { unit } => {
                if let Some(u) = self.unit_mut(unit) {
                    u.tapped = false;
                    ev.push(Event::Untapped { card: unit });
                }
            }
            StackKind::OnEnter { card } => {
                let steps = self.def(card).on_enter.clone();
                // Where it stands, or stood when it left (last known information).
                let at = self.find_unit(card).or_else(|| {
                    let l = self.last_known.iter().rev().find(|l| l.0 == card)?;
                    Some((l.1, l.2))
                });
                let opposite = at.and_then(|(s, i)| {
                    self.players[State::other(s)].slots[i]
                        .as_ref()
                        .map(|u| u.card)
                });
                for step in &steps {
                    let target = match step {
                        Step::Damage(_) => match opposite {
                            Some(u) => Some(Target::Unit(u)),
                            None => continue,
                        },
                        _ => None,
                    };
                    self.run_step(
                        step,
                        Source {
                            card,
                            controller: c,
                        },
                        target,
                        ev,
                    );
                }
            }
            StackKind::Stargaze { amount, .. } => self.stargaze(c, amount),
            StackKind::ExpeditionExile { unit } => {
                if self.find_unit(unit).is_some() {
                    self.leave_field(unit, Dest::Exile, ev);
                }
            }
        }
    }

    fn stargaze(&mut self, seat: Seat, amount: u8) {
        let cards: Vec<CardId> = self.players[seat]
            .library
            .iter()
            .take(amount as usize)
            .copied()
            .collect();
        if !cards.is_empty() {
            self.pending = Some(Pending::Stargaze { seat, cards });
        }
    }

    /// 判定/拼点 use the printed cost; territories count as 0 (seed).
    fn printed_cost(&self, card: CardId) -> u8 {
        let d = self.def(card);
        if d.kind == Kind::Territory {
            0
        } else {
            d.cost
        }
    }

    /// Reveal the top card, then put it at the bottom. `None` for an empty library.
    fn reveal_top_to_bottom(&mut self, seat: Seat) -> Option<(CardId, u8)> {
        let lib = &mut self.players[seat].library;
        if lib.is_empty() {
            return None;
        }
        let card = lib.remove(0);
        lib.push(card);
        Some((card, self.printed_cost(card)))
    }

    fn resolve_trick(&mut self, c: Seat, card: CardId, target: Option<Target>, ev: &mut Events) {
        let d = self.def(card).clone();
        let src = Source {
            card,
            controller: c,
        };
        self.players[self.owner(card)].graveyard.push(card);
        // A target that became illegal (gone, 洞察, 抵抗) means the card does nothing.
        let target_ok = match target {
            Some(Target::Unit(u)) => self.can_target_unit(u, src).is_ok(),
            Some(Target::StackCard(x)) => self
                .stack
                .iter()
                .any(|i| matches!(i.kind, StackKind::Card { card, .. } if card == x)),
            _ => true,
        };
        if !target_ok {
            ev.push(Event::Fizzled { controller: c });
            return;
        }
        let mut go = true;
        for k in &d.keywords {
            match k {
                Keyword::Judge(n) => {
                    let shown = self.reveal_top_to_bottom(c);
                    let passed = shown.is_some_and(|(_, cost)| cost >= *n);
                    ev.push(Event::Judged {
                        seat: c,
                        card: shown.map(|x| x.0),
                        cost: shown.map_or(0, |x| x.1),
                        passed,
                    });
                    go &= passed;
                }
                Keyword::Contest => {
                    let mine = self.reveal_top_to_bottom(c).map(|x| x.1);
                    let theirs = self.reveal_top_to_bottom(State::other(c)).map(|x| x.1);
                    // An empty library shows nothing and cannot win.
                    let won = match (mine, theirs) {
                        (Some(a), Some(b)) => a > b,
                        (Some(_), None) => true,
                        _ => false,
                    };
                    ev.push(Event::Contested {
                        seat: c,
                        mine,
                        theirs,
                        won,
                    });
                    go &= won;
                }
                _ => {}
            }
        }
        if go {
            for step in &d.effect {
                self.run_step(step, src, target, ev);
            }
            let conds: Vec<bool> = d
                .keywords
                .iter()
                .filter_map(|k| self.condition_holds(c, k))
                .collect();
            if !conds.is_empty() && conds.iter().all(|b| *b) {
                for step in &d.bonus {
                    self.run_step(step, src, target, ev);
                }
            }
        }
        for k in &d.keywords {
            if let Keyword::Stargaze(x) = k {
                self.stargaze(c, *x);
            }
        }
    }

    pub fn run_step(&mut self, step: &Step, src: Source, target: Option<Target>, ev: &mut Events) {
        let c = src.controller;
        let unit = match target {
            Some(Target::Unit(u)) if self.find_unit(u).is_some() => Some(u),
            _ => None,
        };
        match step {
            Step::Damage(n) => match target {
                Some(Target::Player(p)) => self.damage_player(src, p, *n, false, ev),
                _ => {
                    if let Some(u) = unit {
                        self.damage_unit(src, u, *n, false, ev);
                    }
                }
            },
            Step::Buff { attack, prevent } => {
                if let Some(x) = unit.and_then(|u| self.unit_mut(u)) {
                    x.turn_attack += attack;
                    x.turn_prevent = x.turn_prevent.saturating_add(*prevent);
                }
            }
            Step::Heal(n) => match target {
                Some(Target::Player(p)) => self.gain(p, *n, ev),
                _ => {
                    if let Some(u) = unit {
                        if let Some(x) = self.unit_mut(u) {
                            let healed = x.damage.min(*n);
                            x.damage -= healed;
                            ev.push(Event::Healed {
                                card: u,
                                amount: healed,
                            });
                        }
                    }
                }
            },
            Step::Draw(n) => self.draw(c, *n as usize, ev),
            Step::Gain(n) => self.gain(c, *n, ev),
            Step::Drain(n) => {
                let o = State::other(c);
                self.players[o].life -= *n as i32;
                ev.push(Event::LifeLost {
                    seat: o,
                    amount: *n,
                });
            }
            Step::Destroy => {
                if let Some(u) = unit {
                    ev.push(Event::Destroyed { card: u });
                    self.leave_field(u, Dest::Graveyard, ev);
                }
            }
            Step::Untap => {
                if let Some(x) = unit.and_then(|u| self.unit_mut(u)) {
                    x.tapped = false;
                }
            }
            Step::Move => {
                if let Some((s, i)) = unit.and_then(|u| self.find_unit(u)) {
                    let to = [i.checked_sub(1), Some(i + 1)]
                        .into_iter()
                        .flatten()
                        .find(|&j| j < 5 && self.players[s].slots[j].is_none());
                    if let (Some(to), Some(u)) = (to, unit) {
                        self.move_unit(u, to, ev);
                    }
                }
            }
            Step::Cancel => {
                if let Some(Target::StackCard(x)) = target {
                    if let Some(pos) = self
                        .stack
                        .iter()
                        .position(|i| matches!(i.kind, StackKind::Card { card, .. } if card == x))
                    {
                        self.stack.remove(pos);
                        self.players[self.owner(x)].graveyard.push(x);
                        ev.push(Event::Cancelled { card: x });
                    }
                }
            }
        }
    }

    pub fn gain(&mut self, seat: Seat, n: u8, ev: &mut Events) {
        if n > 0 {
            self.players[seat].life += n as i32;
            ev.push(Event::LifeGained { seat, amount: n });
        }
    }

    /// Damage to a unit after 抵抗, the turn's shield and each 坚韧. Returns what was dealt.
    pub fn damage_unit(
        &mut self,
        src: Source,
        victim: CardId,
        amount: u8,
        combat: bool,
        ev: &mut Events,
    ) -> u8 {
        if amount == 0 || self.find_unit(victim).is_none() {
            return 0;
        }
        if self.resists(victim, src) {
            ev.push(Event::Prevented {
                card: victim,
                amount,
            });
            return 0;
        }
        let tough: Vec<u8> = self
            .def(victim)
            .keywords
            .iter()
            .filter_map(|k| {
                if let Keyword::Tough(x) = k {
                    Some(*x)
                } else {
                    None
                }
            })
            .collect();
        let deadly = self.def(src.card).has(|k| matches!(k, Keyword::Deadly));
        let mode = self.profile.turn_prevention;
        let Some(u) = self.unit_mut(victim) else {
            return 0;
        };
        let mut n = amount;
        let shield = u.turn_prevent.min(n);
        n -= shield;
        if mode == TurnPrevention::Pool {
            u.turn_prevent -= shield;
        }
        for x in tough {
            n -= x.min(n);
        }
        if n > 0 {
            u.damage = u.damage.saturating_add(n);
            u.doomed |= deadly;
        }
        if amount > n {
            ev.push(Event::Prevented {
                card: victim,
                amount: amount - n,
            });
        }
        if n > 0 {
            ev.push(Event::UnitDamaged {
                card: victim,
                amount: n,
            });
            if combat {
                self.dealt_combat_damage(src.card);
            }
        }
        n
    }

    pub fn damage_player(
        &mut self,
        src: Source,
        seat: Seat,
        amount: u8,
        combat: bool,
        ev: &mut Events,
    ) {
        if amount == 0 {
            return;
        }
        self.players[seat].life -= amount as i32;
        ev.push(Event::PlayerDamaged { seat, amount });
        if self.def(src.card).has(|k| matches!(k, Keyword::Spoils)) {
            self.gain(src.controller, amount, ev);
        }
        if combat {
            self.dealt_combat_damage(src.card);
        }
    }

    /// 连击: the first combat damage each turn triggers an untap.
    fn dealt_combat_damage(&mut self, unit: CardId) {
        let combo = self.def(unit).has(|k| matches!(k, Keyword::Combo));
        let Some((seat, _)) = self.find_unit(unit) else {
            return;
        };
        let Some(u) = self.unit_mut(unit) else { return };
        let first = !u.dealt_combat_damage;
        u.dealt_combat_damage = true;
        if first && combo {
            self.triggers.push(StackItem {
                controller: seat,
                kind: StackKind::Combo { unit },
                target: None,
            });
        }
    }

    fn resolve_attack(&mut self, c: Seat, unit: CardId, ev: &mut Events) {
        let Some((seat, slot)) = self.find_unit(unit).filter(|x| x.0 == c) else {
            ev.push(Event::Fizzled { controller: c });
            return;
        };
        let opp = State::other(seat);
        let power = self.attack_of(unit);
        let Some(defender) = self.players[opp].slots[slot].as_ref().map(|u| u.card) else {
            // An empty 陣地: the damage goes to the player behind it.
            self.damage_player(
                Source {
                    card: unit,
                    controller: c,
                },
                opp,
                power,
                true,
                ev,
            );
            return;
        };
        if self.def(unit).has(|k| matches!(k, Keyword::Breakthrough)) {
            let remaining = (self.health_of(defender)
                - self.unit(defender).map_or(0, |u| u.damage as i16))
            .max(1) as u8;
            let lethal = if self.def(unit).has(|k| matches!(k, Keyword::Deadly)) {
                1
            } else {
                remaining
            };
            if power > lethal {
                self.pending = Some(Pending::Breakthrough {
                    seat: c,
                    attacker: unit,
                    defender,
                    min: lethal,
                    max: power,
                });
                return;
            }
        }
        self.combat_exchange(unit, defender, power, 0, ev);
    }

    /// Attacker and defender deal their damage at the same time; `to_player` is 破竹's excess.
    pub fn combat_exchange(
        &mut self,
        attacker: CardId,
        defender: CardId,
        to_unit: u8,
        to_player: u8,
        ev: &mut Events,
    ) {
        let (Some((a_seat, _)), Some((d_seat, _))) =
            (self.find_unit(attacker), self.find_unit(defender))
        else {
            return;
        };
        let back = self.attack_of(defender);
        let a_src = Source {
            card: attacker,
            controller: a_seat,
        };
        self.damage_unit(a_src, defender, to_unit, true, ev);
        self.damage_player(a_src, d_seat, to_player, true, ev);
        self.damage_unit(
            Source {
                card: defender,
                controller: d_seat,
            },
            attacker,
            back,
            true,
            ev,
        );
    }

    /// A unit leaves the battlefield; its equipment stays, unattached.
    pub fn leave_field(&mut self, unit: CardId, dest: Dest, ev: &mut Events) {
        let Some((seat, slot)) = self.find_unit(unit) else {
            return;
        };
        let tapped = self.unit(unit).is_some_and(|u| u.tapped);
        self.players[seat].slots[slot] = None;
        self.last_known.push((unit, seat, slot, tapped));
        for p in &mut self.players {
            for e in &mut p.entities {
                if e.attached == Some(unit) {
                    e.attached = None;
                }
            }
        }
        let owner = self.owner(unit);
        match dest {
            Dest::Graveyard => self.players[owner].graveyard.push(unit),
            Dest::Exile => {
                self.exile.push(unit);
                ev.push(Event::Exiled { card: unit });
            }
        }
    }

    /// After every action: deaths, losses, then waiting triggers onto the stack.
    pub fn settle(&mut self, ev: &mut Events) {
        loop {
            let dying: Vec<CardId> = self
                .players
                .iter()
                .flat_map(|p| p.slots.iter().flatten())
                .filter(|u| u.doomed || u.damage as i16 >= self.health_of(u.card))
                .map(|u| u.card)
                .collect();
            if dying.is_empty() {
                break;
            }
            for card in dying {
                ev.push(Event::Died { card });
                self.leave_field(card, Dest::Graveyard, ev);
            }
        }
        if self.outcome.is_none() {
            let lost: Vec<bool> = self
                .players
                .iter()
                .map(|p| p.life <= 0 || p.drew_from_empty)
                .collect();
            let outcome = match (lost[0], lost[1]) {
                (true, true) => Some(Outcome::Draw),
                (true, false) => Some(Outcome::Winner(1)),
                (false, true) => Some(Outcome::Winner(0)),
                _ => None,
            };
            if let Some(o) = outcome {
                self.outcome = Some(o);
                ev.push(Event::GameOver { outcome: o });
            }
        }
        if !self.triggers.is_empty() {
            let mut t = std::mem::take(&mut self.triggers);
            // Active player's triggers go on first, so the other player's resolve first.
            t.sort_by_key(|i| i.controller != self.active);
            self.stack.extend(t);
            self.passes = 0;
        }
    }
}
