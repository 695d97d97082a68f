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

use super::data::GameData;
use super::feed::TableSnapshot;
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

#[derive(Clone)]
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
    pub(super) flagged: BTreeSet<String>,
    /// Cards the engine untapped at 重置 that the table still shows tapped: the player has yet to
    /// turn them back (not an attack, not a payment).
    pub untap_pending: BTreeSet<CardId>,
    /// Units that left a 陣地 in the engine (died, destroyed, exiled, moved) and are still on the
    /// table there: (seat, slot) → catalogue id. Awaited removals, not new plays.
    pub remove_pending: BTreeMap<(Seat, usize), String>,
}

/// What a replay of the journal rebuilds of a [`TableGame`] (its notes are shown, not kept).
#[derive(Clone, Debug)]
pub struct Position {
    state: State,
    seats: [Seat; 2],
    log: usize,
    flags: usize,
    waiting: Option<Waiting>,
    flagged: BTreeSet<String>,
    untap_pending: BTreeSet<CardId>,
    remove_pending: BTreeMap<(Seat, usize), String>,
}

impl TableGame {
    /// The game as a replay would rebuild it (see [`TableGame::is_at`]).
    pub fn position(&self) -> Position {
        Position {
            state: self.state.clone(),
            seats: self.seats,
            log: self.log.len(),
            flags: self.flags.len(),
            waiting: self.waiting.clone(),
            flagged: self.flagged.clone(),
            untap_pending: self.untap_pending.clone(),
            remove_pending: self.remove_pending.clone(),
        }
    }

    /// Whether the game is still at `p` (compared in place: no copy of the state).
    pub fn is_at(&self, p: &Position) -> bool {
        self.state == p.state
            && self.seats == p.seats
            && (self.log.len(), self.flags.len()) == (p.log, p.flags)
            && self.waiting == p.waiting
            && self.flagged == p.flagged
            && self.untap_pending == p.untap_pending
            && self.remove_pending == p.remove_pending
    }

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
    #[cfg(test)]
    pub fn demo(seed: u64) -> anyhow::Result<TableGame> {
        TableGame::start(&GameData::demo(), seed)
    }

    /// `data`'s catalogue and decks (near player first), both players keep, on to the first
    /// player's action phase; an error names the file at fault.
    pub fn start(data: &GameData, seed: u64) -> anyhow::Result<TableGame> {
        let (cat, decks) = data.load()?;
        let setup = duel::Setup {
            names: ["近方 Near".into(), "远方 Far".into()],
            decks,
            seed,
            first: Some(0),
            shuffle: true,
        };
        let state = duel::from_setup(std::sync::Arc::new(cat), duel::Profile::default(), &setup)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut game = TableGame::new(state);
        for a in [Action::Keep, Action::Keep] {
            game.apply(a)?;
        }
        game.pass_to(0, Phase::Action);
        Ok(game)
    }

    pub(super) fn seat_of(&self, side: DuelSide) -> Seat {
        match side {
            DuelSide::Near => self.seats[0],
            DuelSide::Far => self.seats[1],
        }
    }

    /// Applies an action; a refusal is returned (the state is unchanged).
    pub fn apply(&mut self, action: Action) -> Result<(), rules_core::Violation> {
        let said = match action {
            // The engine had to pick some hand card; at the table it is a secret card back.
            Action::PlayTerritory { face_up: false, .. } => {
                "暗置一张领土 / a territory, face down".to_string()
            }
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
    pub(super) fn try_apply(&mut self, action: Action) -> bool {
        let said = describe_action(&self.state, &action);
        match self.apply(action) {
            Ok(()) => true,
            Err(v) => {
                self.flag(said, &v);
                false
            }
        }
    }

    /// Records a refusal once (the same refused change is seen again every frame it stays).
    pub(super) fn flag(&mut self, action: String, v: &rules_core::Violation) {
        if self.flagged.insert(format!("{action}|{}", v.rule)) {
            self.flags.push(Flag {
                action,
                rule: v.rule.to_string(),
                reason: v.reason.zh.clone() + " / " + &v.reason.en,
            });
        }
    }

    /// The priority holder passes (a panel button).
    pub fn pass(&mut self) -> bool {
        self.try_apply(Action::Pass)
    }

    /// Implied passes: both players pass until `seat` is active in `phase` with an empty stack.
    pub(super) fn pass_to(&mut self, seat: Seat, phase: Phase) {
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
    /// `seat`'s `phase`. Passes are made only if the play is then allowed: otherwise the refusal it
    /// would meet there is flagged and the engine does not move.
    pub(super) fn make_room(&mut self, seat: Seat, action: &Action, phase: Phase) -> bool {
        if Duel::apply(&self.state, action).is_ok() {
            return true;
        }
        let s = &self.state;
        if !s.stack.is_empty() && s.actor().is_some_and(|a| a != seat) {
            let passed = Duel::apply(s, &Action::Pass).ok();
            if passed.is_some_and(|(after, _)| Duel::apply(&after, action).is_ok()) {
                self.pass();
                return true;
            }
        }
        let trial = passed_to(&self.state, seat, phase);
        match Duel::apply(&trial, action) {
            Ok(_) => {
                self.pass_to(seat, phase);
                true
            }
            Err(v) => {
                let said = describe_action(&trial, action);
                self.flag(said, &v);
                false
            }
        }
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

/// The state after both players pass until `seat` is active in `phase` with an empty stack (or
/// nothing more can pass).
fn passed_to(s: &State, seat: Seat, phase: Phase) -> State {
    let mut s = s.clone();
    for _ in 0..16 {
        if s.outcome.is_some() || s.pending.is_some() {
            break;
        }
        if s.active == seat && s.phase == phase && s.stack.is_empty() {
            break;
        }
        match Duel::apply(&s, &Action::Pass) {
            Ok((next, _)) => s = next,
            Err(_) => break,
        }
    }
    s
}
