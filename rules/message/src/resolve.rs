//! Resolving the top card of the response stack (last in, first out).

use crate::catalogue::{Kind, Method, ProbeAnswer};
use crate::rules::{self, seed};
use crate::state::*;

impl State {
    pub(crate) fn resolve_top(&mut self, ev: &mut Vec<Event>) {
        let Some(u) = self.stack.pop() else { return };
        let kind = u.kind;
        let mut to_discard = true;
        if u.cancelled {
            ev.push(Event::Cancelled { kind, seat: u.seat });
            if kind == Kind::Swap {
                if let Some(r) = u.target_card {
                    self.players[u.seat].hand.push(r);
                }
            }
            self.discard.push(u.card);
            return;
        }
        match kind {
            Kind::Expose => {
                if let Some(i) = u.on {
                    if let Some(x) = self.stack.get_mut(i) {
                        x.cancelled = true;
                    }
                }
            }
            Kind::Lock => {
                if let Some(t) = u.target {
                    self.turn.locked.push(t);
                    ev.push(Event::Locked { seat: t });
                }
            }
            Kind::Lure => {
                if let Some(t) = u.target {
                    self.turn.lured.push(t);
                    ev.push(Event::Lured { seat: t });
                }
            }
            Kind::Intercept => {
                if self.transit.is_some() && self.alive(u.seat) {
                    ev.push(Event::Intercepted { seat: u.seat });
                    self.discard.push(u.card);
                    to_discard = false;
                    self.receive(u.seat, Some(seed(rules::INTERCEPT_LAST)), ev);
                } else {
                    // 未截获成功的玩家，打出的截获视为弃牌.
                    ev.push(Event::Fizzled { kind, seat: u.seat });
                }
            }
            Kind::Return => match &mut self.transit {
                Some(t) if t.holder == u.seat => {
                    t.dir = match t.dir {
                        Dir::Right => Dir::Left,
                        Dir::Left => Dir::Right,
                    };
                    self.moving = true;
                    ev.push(Event::Reversed { seat: u.seat });
                }
                _ => ev.push(Event::Fizzled { kind, seat: u.seat }),
            },
            Kind::Decode => match &mut self.transit {
                Some(t) => {
                    t.seen[u.seat] = true;
                    ev.push(Event::Looked { seat: u.seat });
                }
                None => ev.push(Event::Fizzled { kind, seat: u.seat }),
            },
            Kind::Probe => {
                to_discard = false;
                self.set_aside.push(u.card);
                if let (Some(t), Some(table)) = (u.target, self.cat.deck.cards[u.card].probe) {
                    let answer = match self.players[t].identity {
                        Identity::Lurker => table.lurker,
                        Identity::Bureau => table.bureau,
                        Identity::Neutral => table.neutral,
                    };
                    ev.push(Event::Probed { seat: t, answer });
                    match answer {
                        ProbeAnswer::Draw => self.draw(t, 1, ev),
                        ProbeAnswer::Discard if !self.players[t].hand.is_empty() => {
                            self.pending_discard = Some(t)
                        }
                        _ => {}
                    }
                }
            }
            Kind::Burn => {
                if let (Some(t), Some(c)) = (u.target, u.target_card) {
                    if self.players[t].intel.contains(&c) {
                        self.players[t].intel.retain(|&x| x != c);
                        self.discard.push(c);
                        ev.push(Event::Burned { seat: t, card: c });
                    } else {
                        ev.push(Event::Fizzled { kind, seat: u.seat });
                    }
                }
            }
            Kind::Swap => {
                let r = u.target_card;
                match (&self.transit, r) {
                    (Some(t), Some(r)) if t.holder == u.seat && t.sender == u.seat => {
                        self.discard.push(t.card);
                        let n = self.n();
                        self.transit = Some(Transit {
                            card: r,
                            sender: u.seat,
                            method: Method::Text,
                            dir: Dir::Right,
                            holder: u.seat,
                            face_up: true,
                            seen: vec![true; n],
                        });
                        self.moving = true;
                        ev.push(Event::Swapped { seat: u.seat });
                    }
                    _ => {
                        self.players[u.seat].hand.extend(r);
                        ev.push(Event::Fizzled { kind, seat: u.seat });
                    }
                }
            }
        }
        if to_discard {
            self.discard.push(u.card);
        }
    }
}
