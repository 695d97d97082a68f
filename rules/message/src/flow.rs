//! How the game moves: turns, the travelling intelligence and response rounds.

use crate::catalogue::{Kind, Method, Skill};
use crate::rules::{self, seed};
use crate::state::*;
use rand::seq::SliceRandom;
use rules_core::{Text, Violation};
use std::collections::VecDeque;

impl State {
    /// Applies a checked action; the caller's state is untouched when refused.
    pub fn apply(&self, a: &Action) -> Result<(State, Vec<Event>), Violation> {
        self.check(a)?;
        let mut s = self.clone();
        let mut ev = Vec::new();
        s.perform(a, &mut ev);
        s.settle(&mut ev);
        Ok((s, ev))
    }

    pub(crate) fn perform(&mut self, a: &Action, ev: &mut Vec<Event>) {
        let seat = a.seat;
        match a.act.clone() {
            Act::Choose { index } => {
                let c = self.players[seat].offered[index];
                self.players[seat].character = Some(c);
                ev.push(Event::CharacterChosen { seat, character: c });
                let next = (seat + 1) % self.n();
                if next == self.turn.seat {
                    self.start_turn(self.turn.seat, ev);
                } else {
                    self.phase = Phase::Choose { seat: next };
                }
            }
            Act::Send { card, target } => {
                self.players[seat].hand.retain(|&c| c != card);
                let method = self.cat.deck.cards[card].method;
                let mut seen = vec![false; self.n()];
                seen[seat] = true;
                self.transit = Some(Transit {
                    card,
                    sender: seat,
                    method,
                    dir: Dir::Right,
                    holder: seat,
                    face_up: method == Method::Text,
                    seen,
                });
                self.turn.sent = true;
                ev.push(Event::Sent {
                    seat,
                    method,
                    target,
                });
                match target {
                    Some(t) => self.arrive(t, ev),
                    None => self.move_on(ev),
                }
            }
            Act::Play {
                card,
                target,
                target_card,
            } => {
                self.players[seat].hand.retain(|&c| c != card);
                let kind = self.kind_of(card);
                if kind == Kind::Swap {
                    if let Some(r) = target_card {
                        self.players[seat].hand.retain(|&c| c != r);
                    }
                }
                let on = (kind == Kind::Expose).then(|| self.stack.len().saturating_sub(1));
                self.stack.push(Use {
                    seat,
                    card,
                    kind,
                    target,
                    target_card,
                    on,
                    cancelled: false,
                });
                ev.push(Event::Played { seat, kind, target });
                let ctx = match &self.phase {
                    Phase::Play => Ctx::Play,
                    Phase::Round { ctx, .. } => *ctx,
                    _ => Ctx::Decision,
                };
                self.open_round(ctx, seat + 1);
            }
            Act::Pass => match &mut self.phase {
                Phase::Round { queue, .. } => {
                    queue.pop_front();
                }
                _ => {
                    ev.push(Event::Refused { seat });
                    let direct = self
                        .transit
                        .as_ref()
                        .is_some_and(|t| t.method == Method::Direct);
                    if direct {
                        let sender = self.turn.seat;
                        self.arrive(sender, ev);
                    } else {
                        self.move_on(ev);
                    }
                }
            },
            Act::Accept => {
                if let Some(t) = self.transit.clone() {
                    let forced = if t.holder == t.sender {
                        Some(seed(rules::BACK_TO_SENDER))
                    } else if self.is_locked(t.holder) {
                        Some(rules::card(Kind::Lock))
                    } else {
                        None
                    };
                    self.receive(t.holder, forced, ev);
                    if self.outcome.is_none() {
                        self.end_turn(ev);
                    }
                }
            }
            Act::Discard { card } => {
                self.players[seat].hand.retain(|&c| c != card);
                self.discard.push(card);
                ev.push(Event::Discarded { seat, card });
                self.phase = Phase::Play;
            }
        }
    }

    pub(crate) fn open_round(&mut self, ctx: Ctx, from: Seat) {
        let n = self.n();
        let queue: VecDeque<Seat> = (0..n).map(|k| (from + k) % n).collect();
        self.phase = Phase::Round { ctx, queue };
    }

    /// Runs everything that needs no decision until someone must act or the game is over.
    pub(crate) fn settle(&mut self, ev: &mut Vec<Event>) {
        for _ in 0..100_000 {
            if let Some(o) = &self.outcome {
                if self.phase != Phase::Over {
                    ev.push(Event::GameOver { outcome: o.clone() });
                    self.phase = Phase::Over;
                }
                return;
            }
            match self.phase.clone() {
                Phase::Round { ctx, mut queue } => {
                    while let Some(&s) = queue.front() {
                        self.phase = Phase::Round {
                            ctx,
                            queue: queue.clone(),
                        };
                        if self.alive(s) && self.asked_in_round(s) {
                            break;
                        }
                        queue.pop_front();
                    }
                    self.phase = Phase::Round {
                        ctx,
                        queue: queue.clone(),
                    };
                    if !queue.is_empty() {
                        return;
                    }
                    if !self.stack.is_empty() {
                        self.resolve_top(ev);
                        let from = self.transit.as_ref().map_or(self.turn.seat, |t| t.holder);
                        self.open_round(ctx, from);
                        continue;
                    }
                    self.after_round(ctx, ev);
                }
                Phase::Play => {
                    if self.players[self.turn.seat].hand.is_empty() {
                        // 输掉游戏: nothing left to send.
                        self.lose(self.turn.seat, ev);
                        if self.outcome.is_none() {
                            self.end_turn(ev);
                        }
                        continue;
                    }
                    return;
                }
                Phase::ProbeDiscard { seat } => {
                    if self.players[seat].hand.is_empty() || !self.alive(seat) {
                        self.phase = Phase::Play;
                        continue;
                    }
                    return;
                }
                _ => return,
            }
        }
    }

    pub(crate) fn after_round(&mut self, ctx: Ctx, ev: &mut Vec<Event>) {
        if let Some(t) = self.pending_discard.take() {
            self.phase = Phase::ProbeDiscard { seat: t };
            return;
        }
        let Some(t) = self.transit.clone() else {
            if self.turn.sent {
                self.end_turn(ev);
            } else {
                self.phase = Phase::Play;
            }
            return;
        };
        if self.moving {
            self.moving = false;
            if t.method == Method::Direct && t.holder != t.sender {
                self.arrive(t.sender, ev);
            } else {
                self.move_on(ev);
            }
        } else if ctx == Ctx::Arrival
            && t.holder != t.sender
            && self.is_lured(t.holder)
            && !self.is_locked(t.holder)
        {
            ev.push(Event::Skipped { seat: t.holder });
            if t.method == Method::Direct {
                self.arrive(t.sender, ev);
            } else {
                self.move_on(ev);
            }
        } else {
            self.phase = Phase::Decide;
        }
    }

    /// The intelligence leaves its holder for the next player in its direction, passing over the
    /// dead and the lured (unless locked: 锁定高于调虎离山). The sender is never passed over.
    pub(crate) fn move_on(&mut self, ev: &mut Vec<Event>) {
        let Some(t) = self.transit.clone() else {
            return;
        };
        let n = self.n();
        let mut s = t.holder;
        for _ in 0..n {
            s = match t.dir {
                Dir::Right => (s + 1) % n,
                Dir::Left => (s + n - 1) % n,
            };
            if s == t.sender {
                break;
            }
            if !self.alive(s) {
                continue;
            }
            if self.is_lured(s) && !self.is_locked(s) {
                ev.push(Event::Skipped { seat: s });
                continue;
            }
            break;
        }
        self.arrive(s, ev);
    }

    pub(crate) fn arrive(&mut self, s: Seat, ev: &mut Vec<Event>) {
        if let Some(t) = &mut self.transit {
            t.holder = s;
        }
        ev.push(Event::Arrived { seat: s });
        self.open_round(Ctx::Arrival, s);
    }

    pub(crate) fn draw(&mut self, seat: Seat, count: usize, ev: &mut Vec<Event>) {
        let mut got = 0;
        for _ in 0..count {
            if self.deck.is_empty() {
                self.reshuffle(ev);
            }
            let Some(c) = self.deck.pop() else { break };
            self.players[seat].hand.push(c);
            got += 1;
            if self.deck.is_empty() {
                // 当牌库的牌抽完时，马上把弃牌堆洗混后形成新的牌库.
                self.reshuffle(ev);
            }
        }
        if got > 0 {
            ev.push(Event::Drew { seat, count: got });
        }
    }

    pub(crate) fn reshuffle(&mut self, ev: &mut Vec<Event>) {
        if self.discard.is_empty() {
            return;
        }
        let mut d = std::mem::take(&mut self.discard);
        d.shuffle(&mut self.rng);
        ev.push(Event::Reshuffled { count: d.len() });
        self.deck = d;
    }

    pub(crate) fn start_turn(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        self.turn = Turn {
            seat,
            number: self.turns_played + 1,
            locked: Vec::new(),
            lured: Vec::new(),
            sent: false,
        };
        ev.push(Event::TurnStarted {
            seat,
            number: self.turn.number,
        });
        let extra = self.skill_sum(seat, |s| match s {
            Skill::ExtraDraw { count } => *count,
            _ => 0,
        });
        self.draw(
            seat,
            self.profile.draw_per_turn as usize + extra as usize,
            ev,
        );
        self.check_victory(Some(seat), ev);
        self.phase = Phase::Play;
    }

    pub(crate) fn end_turn(&mut self, ev: &mut Vec<Event>) {
        self.transit = None;
        self.turns_played += 1;
        if self.profile.max_turns > 0 && self.turns_played >= self.profile.max_turns {
            self.outcome = Some(Outcome::Draw {
                text: Text::new(
                    format!("已进行 {} 回合，和局", self.turns_played),
                    format!("{} turns played: a draw", self.turns_played),
                ),
                rule: rules::profile("max_turns"),
            });
            return;
        }
        let n = self.n();
        let next = (1..=n)
            .map(|k| (self.turn.seat + k) % n)
            .find(|&s| self.alive(s));
        match next {
            Some(s) => self.start_turn(s, ev),
            None => self.check_nobody_left(),
        }
    }
}
