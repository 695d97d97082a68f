//! How the game moves: setup, turns, the travelling intelligence, response rounds, death and victory.

use crate::catalogue::{Catalogue, Colour, Kind, Method, Mission, ProbeAnswer, Skill};
use crate::profile::{IdentitySet, Profile};
use crate::rules::{self, seed};
use crate::state::*;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rules_core::{RuleRef, Text, Violation};
use std::collections::VecDeque;
use std::sync::Arc;

/// What a table sets before a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub players: usize,
    /// Seed of every shuffle (characters, identities, deck, reshuffles).
    pub seed: u64,
    pub first_player: Seat,
}

impl State {
    /// Deals characters, identities and cards. Refuses a player count the identity table lacks, an
    /// identity set the table does not print for that count, or too few character cards.
    pub fn from_setup(
        cat: Arc<Catalogue>,
        profile: Profile,
        setup: &Setup,
    ) -> Result<State, Violation> {
        let n = setup.players;
        let row = cat
            .identities
            .iter()
            .find(|r| r.players == n)
            .ok_or_else(|| {
                Violation::new(
                    seed(rules::IDENTITIES),
                    format!("身份表没有 {n} 人的配置"),
                    format!("the identity table has no row for {n} players"),
                )
            })?;
        let counts = match profile.identity_set {
            IdentitySet::Standard => row.standard,
            IdentitySet::Optional => row.optional.ok_or_else(|| {
                Violation::new(
                    rules::profile("identity_set"),
                    format!("{n} 人没有可选的身份配置"),
                    format!("the seed prints no optional identity set for {n} players"),
                )
            })?,
        };
        let offered = profile.characters_offered as usize;
        if cat.characters.len() < n * offered {
            return Err(Violation::new(
                seed(rules::CHARACTERS),
                format!("角牌不足：{n} 人各发 {offered} 张需要 {} 张", n * offered),
                format!("not enough character cards: {} needed to offer {offered} to each of {n} players", n * offered),
            ));
        }
        if setup.first_player >= n {
            return Err(Violation::new(
                seed(rules::FLOW),
                "起始玩家不存在",
                "the first player is not at the table",
            ));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
        let mut chars: Vec<usize> = (0..cat.characters.len()).collect();
        chars.shuffle(&mut rng);
        let mut ids = Vec::new();
        for (id, k) in [
            (Identity::Lurker, counts.lurker),
            (Identity::Bureau, counts.bureau),
            (Identity::Neutral, counts.neutral),
        ] {
            ids.extend(std::iter::repeat_n(id, k as usize));
        }
        ids.shuffle(&mut rng);
        let mut deck: Vec<CardId> = (0..cat.deck.cards.len()).collect();
        deck.shuffle(&mut rng);
        let mut players: Vec<Player> = (0..n)
            .map(|i| Player {
                identity: ids[i],
                offered: chars[i * offered..(i + 1) * offered].to_vec(),
                character: None,
                hand: Vec::new(),
                intel: Vec::new(),
                status: Status::Alive,
                revealed: false,
            })
            .collect();
        for k in 0..n {
            let p = &mut players[(setup.first_player + k) % n];
            for _ in 0..profile.start_hand {
                if let Some(c) = deck.pop() {
                    p.hand.push(c);
                }
            }
        }
        Ok(State {
            cat,
            profile,
            seed: setup.seed,
            rng,
            players,
            deck,
            discard: Vec::new(),
            set_aside: Vec::new(),
            turn: Turn {
                seat: setup.first_player,
                number: 0,
                locked: Vec::new(),
                lured: Vec::new(),
                sent: false,
            },
            transit: None,
            stack: Vec::new(),
            phase: Phase::Choose {
                seat: setup.first_player,
            },
            outcome: None,
            turns_played: 0,
            pending_discard: None,
            moving: false,
        })
    }

    /// Applies a checked action; the caller's state is untouched when refused.
    pub fn apply(&self, a: &Action) -> Result<(State, Vec<Event>), Violation> {
        self.check(a)?;
        let mut s = self.clone();
        let mut ev = Vec::new();
        s.perform(a, &mut ev);
        s.settle(&mut ev);
        Ok((s, ev))
    }

    fn perform(&mut self, a: &Action, ev: &mut Vec<Event>) {
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

    fn open_round(&mut self, ctx: Ctx, from: Seat) {
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

    fn after_round(&mut self, ctx: Ctx, ev: &mut Vec<Event>) {
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
    fn move_on(&mut self, ev: &mut Vec<Event>) {
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

    fn arrive(&mut self, s: Seat, ev: &mut Vec<Event>) {
        if let Some(t) = &mut self.transit {
            t.holder = s;
        }
        ev.push(Event::Arrived { seat: s });
        self.open_round(Ctx::Arrival, s);
    }

    fn resolve_top(&mut self, ev: &mut Vec<Event>) {
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

    /// The intelligence is taken by `seat`; then 死亡 and 胜利条件 in the order of
    /// message.death_before_win.
    fn receive(&mut self, seat: Seat, forced: Option<RuleRef>, ev: &mut Vec<Event>) {
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

    fn skill_sum(&self, seat: Seat, f: impl Fn(&Skill) -> u8) -> u8 {
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

    fn discard_all_cards(&mut self, seat: Seat) {
        let p = &mut self.players[seat];
        let cards: Vec<CardId> = p.hand.drain(..).chain(p.intel.drain(..)).collect();
        self.discard.extend(cards);
    }

    fn die(&mut self, seat: Seat, ev: &mut Vec<Event>) {
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

    fn lose(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        self.players[seat].status = Status::Lost;
        ev.push(Event::Lost { seat });
        self.discard_all_cards(seat);
        self.check_nobody_left();
    }

    fn check_nobody_left(&mut self) {
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

    fn check_victory(&mut self, after_draw: Option<Seat>, _ev: &mut Vec<Event>) {
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

    fn reshuffle(&mut self, ev: &mut Vec<Event>) {
        if self.discard.is_empty() {
            return;
        }
        let mut d = std::mem::take(&mut self.discard);
        d.shuffle(&mut self.rng);
        ev.push(Event::Reshuffled { count: d.len() });
        self.deck = d;
    }

    fn start_turn(&mut self, seat: Seat, ev: &mut Vec<Event>) {
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

    fn end_turn(&mut self, ev: &mut Vec<Event>) {
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
