//! Receiving an intelligence, death, losing, and the victory conditions.

use crate::catalogue::{Colour, Mission, Skill};
use crate::rules::{self, seed};
use crate::state::*;
use rules_core::{RuleRef, Text};

impl State {
    /// The intelligence is taken by `seat`; then 死亡 and 胜利条件 in the order of
    /// message.death_before_win.
    pub(crate) fn receive(&mut self, seat: Seat, forced: Option<RuleRef>, ev: &mut Vec<Event>) {
        let Some(t) = self.transit.take() else { return };
        self.moving = false;
        self.players[seat].intel.push(t.card);
        ev.push(Event::Received {
            seat,
            card: t.card,
            forced,
        });
        let dies = self.count(seat, Colour::Black) >= 3;
        if self.profile.death_before_win {
            if dies {
                self.die(seat, ev);
            }
            self.check_victory(None, ev);
        } else {
            self.check_victory(None, ev);
            if self.outcome.is_none() && dies {
                self.die(seat, ev);
                self.check_victory(None, ev);
            }
        }
        if self.outcome.is_none()
            && self.alive(seat)
            && self.cat.deck.cards[t.card].colour == Colour::Black
        {
            let extra: u8 = self.skill_sum(seat, |s| match s {
                Skill::DrawOnBlack { count } => *count,
                _ => 0,
            });
            self.draw(seat, extra as usize, ev);
        }
    }

    pub(crate) fn skill_sum(&self, seat: Seat, f: impl Fn(&Skill) -> u8) -> u8 {
        self.players[seat]
            .character
            .map_or(0, |c| self.cat.characters[c].skills.iter().map(f).sum())
    }

    pub fn count(&self, seat: Seat, colour: Colour) -> usize {
        self.players[seat]
            .intel
            .iter()
            .filter(|&&c| self.cat.deck.cards[c].colour == colour)
            .count()
    }

    pub(crate) fn discard_all_cards(&mut self, seat: Seat) {
        let p = &mut self.players[seat];
        let cards: Vec<CardId> = p.hand.drain(..).chain(p.intel.drain(..)).collect();
        self.discard.extend(cards);
    }

    pub(crate) fn die(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        self.players[seat].status = Status::Dead;
        self.players[seat].revealed = true;
        ev.push(Event::Died {
            seat,
            identity: self.players[seat].identity,
        });
        self.discard_all_cards(seat);
        let gift = self.skill_sum(seat, |s| match s {
            Skill::DeathDraw { count } => *count,
            _ => 0,
        });
        let turn = self.turn.seat;
        if gift > 0 && turn != seat && self.alive(turn) {
            self.draw(turn, gift as usize, ev);
        }
        self.check_nobody_left();
    }

    pub(crate) fn lose(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        self.players[seat].status = Status::Lost;
        ev.push(Event::Lost { seat });
        self.discard_all_cards(seat);
        self.check_nobody_left();
    }

    pub(crate) fn check_nobody_left(&mut self) {
        if self.outcome.is_none() && !(0..self.n()).any(|s| self.alive(s)) {
            self.outcome = Some(Outcome::Draw {
                text: Text::new(
                    "所有玩家都已死亡或输掉游戏，无人胜利",
                    "every player is dead or has lost: nobody wins",
                ),
                rule: seed(rules::LOSING),
            });
        }
    }

    /// Whether a neutral player's secret mission is met. `after_draw` enables the hand-size goal.
    pub fn mission_met(&self, seat: Seat, after_draw: bool) -> bool {
        let Some(c) = self.players[seat].character else {
            return false;
        };
        match self.cat.characters[c].mission {
            Mission::Collect { red, blue, black } => {
                self.count(seat, Colour::Red) >= red as usize
                    && self.count(seat, Colour::Blue) >= blue as usize
                    && self.count(seat, Colour::Black) >= black as usize
            }
            Mission::Total { count } => self.players[seat].intel.len() >= count as usize,
            Mission::Deaths { count } => {
                self.players
                    .iter()
                    .enumerate()
                    .filter(|(i, p)| *i != seat && p.status == Status::Dead)
                    .count()
                    >= count as usize
            }
            Mission::HandSize { count } => {
                after_draw && self.players[seat].hand.len() >= count as usize
            }
        }
    }

    pub(crate) fn check_victory(&mut self, after_draw: Option<Seat>, _ev: &mut Vec<Event>) {
        if self.outcome.is_some() {
            return;
        }
        let mut winners: Vec<Seat> = Vec::new();
        let mut why: Vec<&str> = Vec::new();
        let team = |s: &State, id: Identity| -> Vec<Seat> {
            (0..s.n())
                .filter(|&i| s.players[i].identity == id)
                .collect()
        };
        for s in 0..self.n() {
            if !self.alive(s) {
                continue;
            }
            match self.players[s].identity {
                Identity::Lurker if self.count(s, Colour::Red) >= 3 => {
                    winners.extend(team(self, Identity::Lurker));
                    why.push("潜伏战线集齐三张红情报 / 潜伏战线 has three red");
                }
                Identity::Bureau if self.count(s, Colour::Blue) >= 3 => {
                    winners.extend(team(self, Identity::Bureau));
                    why.push("军情局集齐三张蓝情报 / 军情局 has three blue");
                }
                Identity::Neutral if self.mission_met(s, after_draw == Some(s)) => {
                    winners.push(s);
                    why.push("打酱油的完成机密任务 / a neutral completed their secret mission");
                }
                _ => {}
            }
        }
        winners.sort_unstable();
        winners.dedup();
        if !winners.is_empty() {
            why.dedup();
            let (zh, en): (Vec<&str>, Vec<&str>) = why
                .iter()
                .map(|w| w.split_once(" / ").unwrap_or((w, w)))
                .unzip();
            self.outcome = Some(Outcome::Win {
                winners,
                text: Text::new(zh.join("；"), en.join("; ")),
                rule: seed(rules::VICTORY),
            });
        }
    }
}
