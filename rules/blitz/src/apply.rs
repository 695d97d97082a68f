//! Carrying out an allowed action, then moving the turn, the step and the round on.

use crate::action::{Action, Event, SkillTarget};
use crate::board::Cell;
use crate::catalogue::{CardKind, SkillEffect};
use crate::checks::{self, check, check_enter, Entry};
use crate::state::{CardId, PendingAdvance, PlayerId, State};
use crate::steps::{Step, Turns};
use rand::seq::SliceRandom;
use rules_core::Violation;

pub fn apply(state: &State, action: &Action) -> Result<(State, Vec<Event>), Violation> {
    check(state, action)?;
    let player = state
        .actor()
        .expect("check refuses actions once the game is over");
    let mut s = state.clone();
    let mut ev = Vec::new();
    let keeps_turn = s.execute(player, action, &mut ev);
    if !keeps_turn {
        s.pass_turn(&mut ev);
    }
    Ok((s, ev))
}

impl State {
    /// Carries out an action without its checks (the players overruled them: see `overrule`).
    pub(crate) fn execute_unchecked(
        &mut self,
        player: PlayerId,
        action: &Action,
        ev: &mut Vec<Event>,
    ) -> bool {
        self.execute(player, action, ev)
    }

    /// Does the action; returns true when the same player acts again (a pending choice, a vote).
    fn execute(&mut self, player: PlayerId, action: &Action, ev: &mut Vec<Event>) -> bool {
        match action {
            Action::Keep => {
                self.players[player].done = true;
                ev.push(Event::KeptHand(player));
            }
            Action::Mulligan => {
                let p = &mut self.players[player];
                p.mulligans_used += 1;
                let hand = std::mem::take(&mut p.hand);
                p.deck.extend(hand);
                p.deck.shuffle(&mut self.rng);
                let n = self.profile.opening_hand.min(p.deck.len());
                let at = p.deck.len() - n;
                p.hand = p.deck.split_off(at);
                p.done = p.mulligans_used >= self.profile.mulligans;
                ev.push(Event::Mulliganed(player));
                return !p.done;
            }
            Action::Draw => {
                self.draw(player);
                self.players[player].done = true;
                ev.push(Event::Drew(player));
            }
            Action::SkipDraw => {
                self.players[player].done = true;
                ev.push(Event::SkippedDraw(player));
            }
            Action::DiscardAndDraw(card) => {
                self.discard_from_hand(player, *card);
                ev.push(Event::Discarded {
                    card: *card,
                    rule: "部署阶段 a. 摸牌步骤".into(),
                });
                self.draw(player);
                self.players[player].done = true;
                ev.push(Event::Drew(player));
            }
            Action::Deploy { card, cell } => {
                self.take_from_hand(player, *card);
                self.put(*card, Some(player), *cell, false);
                ev.push(Event::Deployed {
                    card: *card,
                    cell: *cell,
                });
            }
            Action::Move { card, to } => {
                let from = self.placed(*card).map(|p| p.cell).unwrap_or(*to);
                let side = self.side_of(player);
                let entry = check_enter(self, *card, side, *to).unwrap_or(Entry::Plain);
                ev.push(Event::Moved {
                    card: *card,
                    from,
                    to: *to,
                });
                self.enter(*card, *to, entry, true, ev);
            }
            Action::PlaceFacility { card, cell } => {
                self.take_from_hand(player, *card);
                self.put(*card, Some(player), *cell, true);
                ev.push(Event::FacilityPlaced {
                    card: *card,
                    cell: *cell,
                });
            }
            Action::UseSkill { card, target } => {
                self.take_from_hand(player, *card);
                self.players[player].discard.push(*card);
                ev.push(Event::SkillUsed { card: *card });
                self.resolve_skill(player, *card, target, ev);
            }
            Action::Attack { attackers, target } => {
                return self.resolve_attack(player, attackers, *target, ev);
            }
            Action::Advance(card) => {
                let pending = self.pending_advance.take().expect("checked");
                let side = self.side_of(player);
                let entry = check_enter(self, *card, side, pending.cell).unwrap_or(Entry::Plain);
                ev.push(Event::Advanced {
                    card: *card,
                    to: pending.cell,
                });
                self.enter(*card, pending.cell, entry, false, ev);
            }
            Action::Hold => {
                self.pending_advance = None;
            }
            Action::Done => {
                self.players[player].done = true;
                ev.push(Event::Passed(player));
            }
            Action::Stalemate => {
                self.players[player].voted_stalemate = true;
                ev.push(Event::VotedStalemate(player));
                return true;
            }
        }
        false
    }

    fn draw(&mut self, player: PlayerId) {
        let p = &mut self.players[player];
        if let Some(card) = p.deck.pop() {
            p.hand.push(card);
        }
    }

    fn take_from_hand(&mut self, player: PlayerId, card: CardId) {
        let hand = &mut self.players[player].hand;
        if let Some(i) = hand.iter().position(|&c| c == card) {
            hand.remove(i);
        }
    }

    fn discard_from_hand(&mut self, player: PlayerId, card: CardId) {
        self.take_from_hand(player, card);
        self.players[player].discard.push(card);
    }

    /// Takes a card off the board into its owner's discard pile (攻防阶段规则 6: at once).
    pub(crate) fn destroy(&mut self, card: CardId, rule: &str, ev: &mut Vec<Event>) {
        if let Some(p) = self.lift(card) {
            if let Some(owner) = p.owner {
                self.players[owner].discard.push(card);
            }
            ev.push(Event::Destroyed { card });
            ev.push(Event::Discarded {
                card,
                rule: rule.into(),
            });
        }
    }

    /// Moves a card already on the board into `to`, with what the cell does to it.
    fn enter(
        &mut self,
        card: CardId,
        to: Cell,
        entry: Entry,
        counts_as_move: bool,
        ev: &mut Vec<Event>,
    ) {
        let Some(mut placed) = self.lift(card) else {
            return;
        };
        match entry {
            Entry::Breakthrough => {
                if let Some(owner) = placed.owner {
                    self.broke_through.push((owner, card));
                }
                ev.push(Event::BrokeThrough { card });
                return;
            }
            Entry::Mine { mine, cleared } if !cleared => {
                let owner = placed.owner;
                if let Some(o) = owner {
                    self.players[o].discard.push(card);
                }
                ev.push(Event::MineExploded { mine, unit: card });
                ev.push(Event::Destroyed { card });
                self.destroy(mine, "地雷", ev);
                return;
            }
            Entry::Mine { mine, .. } => {
                ev.push(Event::MineCleared { mine, unit: card });
                self.destroy(mine, "地雷", ev);
            }
            Entry::Plain => {}
        }
        placed.cell = to;
        placed.moved_this_step |= counts_as_move;
        let idx = self.geometry.index(to);
        self.cells[idx].occupant = Some(card);
        self.placed[card as usize] = Some(placed);
    }

    fn resolve_skill(
        &mut self,
        player: PlayerId,
        card: CardId,
        target: &SkillTarget,
        ev: &mut Vec<Event>,
    ) {
        let CardKind::Skill { effect } = self.def(card).kind else {
            return;
        };
        let side = self.side_of(player);
        match (effect, target) {
            (SkillEffect::Strike { power }, SkillTarget::Card(t)) => {
                self.hit(vec![card], *t, power, ev);
            }
            (SkillEffect::Barrage { power }, SkillTarget::Cell(c)) => {
                let mut cells = vec![*c];
                cells.extend(c.orthogonal_neighbours());
                for cell in cells {
                    if let Some(t) = self.stack(cell).occupant {
                        if self.card_side(t) == Some(side.enemy()) {
                            self.hit(vec![card], t, power, ev);
                        }
                    }
                }
            }
            (SkillEffect::Sabotage, SkillTarget::Card(t)) => self.destroy(*t, "技能牌", ev),
            (SkillEffect::Rally, _) => self.players[player].rally = true,
            _ => {}
        }
    }

    /// One blow against a card: destroyed only when the power is strictly greater than its defence.
    fn hit(&mut self, by: Vec<CardId>, target: CardId, power: u8, ev: &mut Vec<Event>) -> bool {
        let defence = checks::defence_at(self, target);
        let destroyed = power > defence;
        ev.push(Event::Attacked {
            attackers: by,
            target,
            power,
            defence,
            destroyed,
        });
        if destroyed {
            self.destroy(target, "攻防阶段规则 6", ev);
        }
        destroyed
    }

    fn resolve_attack(
        &mut self,
        player: PlayerId,
        attackers: &[CardId],
        target: CardId,
        ev: &mut Vec<Event>,
    ) -> bool {
        let power = checks::attack_power(self, attackers);
        let cell = self.placed(target).map(|p| p.cell);
        let was_unit = matches!(self.def(target).kind, CardKind::Unit { .. });
        for &a in attackers {
            if let Some(p) = self.placed[a as usize].as_mut() {
                p.tapped = true;
            }
        }
        let destroyed = self.hit(attackers.to_vec(), target, power, ev);
        let (true, true, Some(cell)) = (destroyed, was_unit, cell) else {
            return false;
        };
        let side = self.side_of(player);
        let can_enter: Vec<CardId> = attackers
            .iter()
            .copied()
            .filter(|&a| check_enter(self, a, side, cell).is_ok())
            .collect();
        if can_enter.is_empty() {
            return false;
        }
        self.pending_advance = Some(PendingAdvance {
            player,
            attackers: can_enter,
            cell,
        });
        true
    }

    /// Hands the turn to the next player who has not finished the step; ends the step when all have.
    pub(crate) fn pass_turn(&mut self, ev: &mut Vec<Event>) {
        if self.outcome.is_some() || self.pending_advance.is_some() {
            return;
        }
        let n = self.order.len();
        let alternate = self.step.info().turns == Turns::AlternateUntilAllPass;
        let current = self.turn;
        let start = if alternate { current + 1 } else { current };
        let next = (0..n)
            .map(|k| (start + k) % n)
            .find(|&i| !self.players[self.order[i]].done);
        match next {
            Some(i) => self.turn = i,
            None => self.end_step(ev),
        }
    }

    fn end_step(&mut self, ev: &mut Vec<Event>) {
        if self.step == Step::Facility {
            self.end_of_deployment(ev);
        }
        match self.step.next_in_round() {
            Some(next) => self.start_step(next, ev),
            None => {
                self.settle(ev);
                if self.outcome.is_none() {
                    self.start_round(ev);
                }
            }
        }
    }

    pub(crate) fn start_step(&mut self, step: Step, ev: &mut Vec<Event>) {
        self.step = step;
        self.turn = 0;
        for p in &mut self.players {
            p.done = false;
        }
        for p in self.placed.iter_mut().flatten() {
            p.moved_this_step = false;
        }
        ev.push(Event::StepStarted(step));
    }

    fn start_round(&mut self, ev: &mut Vec<Event>) {
        self.round += 1;
        let rotate = self.players.len() > 2 || self.profile.rotate_order_two_players;
        if rotate {
            // 决定玩家行动顺序: the second player leads next round, the first goes last.
            self.order.rotate_left(1);
        }
        for p in self.placed.iter_mut().flatten() {
            p.tapped = false;
        }
        for p in &mut self.players {
            p.rally = false;
            p.voted_stalemate = false;
        }
        ev.push(Event::RoundStarted {
            round: self.round,
            order: self.order.clone(),
        });
        self.start_step(Step::Draw, ev);
    }

    /// 部署阶段规则 6 and 8, applied when the deployment phase ends.
    fn end_of_deployment(&mut self, ev: &mut Vec<Event>) {
        let exposure = self.profile.resource_exposure;
        let reach = self.profile.engineer_reach;
        let mut doomed: Vec<(CardId, &'static str)> = Vec::new();
        for p in self.placed.iter().flatten() {
            let Some(side) = self.card_side(p.card) else {
                continue;
            };
            let enemy_units_near = |dist: i8, engineers_only: bool| {
                self.units_on_board(side.enemy()).any(|u| {
                    u.cell.manhattan(p.cell) <= dist
                        && (!engineers_only
                            || checks::has(self, u.card, crate::catalogue::Keyword::Engineer))
                })
            };
            match self.def(p.card).kind {
                CardKind::Resource { .. } if enemy_units_near(exposure, false) => {
                    doomed.push((p.card, "部署阶段规则 6"));
                }
                CardKind::Facility { .. } if enemy_units_near(reach, true) => {
                    doomed.push((p.card, "部署阶段规则 8"));
                }
                _ => {}
            }
        }
        for (card, rule) in doomed {
            self.destroy(card, rule, ev);
        }
    }
}
