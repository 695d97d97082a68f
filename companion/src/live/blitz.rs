//! A live Blitz game: the engine state, its undo history and journal, and the adapter that turns what
//! the tracker saw on the table into engine actions (or into questions for the players).

use super::tracker::{GridCell, TableEvent};
use crate::table::journal::Journal;
use anyhow::Context;
use blitz::catalogue::{CardKind, Catalogue, Faction};
use blitz::steps::Step;
use blitz::{
    apply, check_as, legal_actions, reveal, Action, CardId, Cell, PlayerId, Profile, Setup, State,
};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;

/// The journal's first line: everything needed to deal the same game again.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Header {
    pub game: String,
    pub players: Vec<Faction>,
    pub seed: u64,
    pub profile: Profile,
    /// Per seat, the top of the deck (scripted games); empty at a real table.
    #[serde(default)]
    pub stacked_decks: Vec<Vec<String>>,
    /// Real table: the engine does not know the hands, and a card laid down is revealed from the deck.
    pub hidden_hands: bool,
    /// The catalogue file the game was played with (none: the shipped demo catalogue).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalogue: Option<CatalogueFile>,
}

/// A catalogue file named in a journal: where it was, and its text's fingerprint, so a resumed
/// game runs on the same cards or is refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CatalogueFile {
    pub path: std::path::PathBuf,
    pub fingerprint: String,
}

impl CatalogueFile {
    /// Reads and validates the catalogue at `path`.
    pub fn load(path: &Path) -> anyhow::Result<(CatalogueFile, Catalogue)> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the catalogue {shown}"))?;
        let catalogue = Catalogue::from_toml(&shown, &text)?;
        let file = CatalogueFile {
            path: std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
            fingerprint: crate::table::journal::fingerprint(&text),
        };
        Ok((file, catalogue))
    }

    /// The catalogue a journal's header names, checked against its fingerprint.
    pub fn reload(&self, journal: &Path) -> anyhow::Result<Catalogue> {
        let (now, catalogue) = Self::load(&self.path)
            .with_context(|| format!("{}:1: the game's catalogue", journal.display()))?;
        anyhow::ensure!(
            now.fingerprint == self.fingerprint,
            "{}:1: the catalogue {} changed since the game began (fingerprint {}, now {}): it cannot be replayed",
            journal.display(),
            self.path.display(),
            self.fingerprint,
            now.fingerprint
        );
        Ok(catalogue)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Source {
    Camera,
    Panel,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Entry {
    Action {
        seat: PlayerId,
        action: String,
        source: Source,
    },
    Undo,
    /// The players let a change stand against the rules.
    Overrule {
        seat: PlayerId,
        action: String,
    },
    /// The players changed a rules-profile option; the game so far is replayed under it.
    Profile(Profile),
    /// The players said which edge of the camera picture the Allied side is at.
    AlliedSide(super::allied::ImageEdge),
    /// The players chose when changes seen on the table are committed.
    Confirm(super::confirm::Confirm),
}

/// One line of the rulings log.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ruling {
    pub round: u16,
    pub accepted: bool,
    pub who: String,
    pub action: String,
    pub text: String,
    pub rule: Option<String>,
}

/// Something seen on the table that matches no legal action, or that needs a choice.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    pub text: String,
    /// Each choice and the action it submits (`None`: dismiss, the table is put right by hand).
    pub options: Vec<(String, Option<(PlayerId, Action)>)>,
    /// The change seen on the table, which the players may let stand against the rules.
    pub overrule: Option<(PlayerId, Action)>,
}

pub struct Session {
    pub header: Header,
    pub state: State,
    history: Vec<State>,
    /// The committed actions, in step with `history` (replayed when the profile changes).
    actions: Vec<(PlayerId, Action)>,
    /// Which of `actions` the players overruled the engine for.
    overruled: Vec<usize>,
    pub catalogue: Arc<Catalogue>,
    pub rulings: Vec<Ruling>,
    pub questions: Vec<Question>,
    /// Units turned sideways in the attack step, not yet resolved into one attack.
    pub declaring: Vec<CardId>,
    /// Where the players said the Allied side is in the camera picture (asked when the cards on
    /// the table could not tell).
    pub allied_edge: Option<super::allied::ImageEdge>,
    /// When a change seen on the table is committed (stable by default; `play` asks first).
    pub confirm: super::confirm::Confirm,
    /// The change the camera saw, waiting for the players' OK.
    pub seen: Option<super::confirm::Seen<Action>>,
    /// Table events that came while a change waited, handled after it in order.
    held: Vec<TableEvent>,
    journal: Option<Journal>,
}

impl Session {
    pub fn new(
        header: Header,
        catalogue: Arc<Catalogue>,
        journal: Option<&Path>,
    ) -> anyhow::Result<Session> {
        let state = State::from_setup(Setup {
            catalogue: catalogue.clone(),
            profile: header.profile.clone(),
            players: header.players.clone(),
            seed: header.seed,
            stacked_decks: header.stacked_decks.clone(),
        })?;
        let journal = journal.map(|p| Journal::create(p, &header)).transpose()?;
        Ok(Session {
            header,
            state,
            history: Vec::new(),
            actions: Vec::new(),
            overruled: Vec::new(),
            catalogue,
            rulings: Vec::new(),
            questions: Vec::new(),
            declaring: Vec::new(),
            allied_edge: None,
            confirm: super::confirm::Confirm::Stable,
            seen: None,
            held: Vec::new(),
            journal,
        })
    }

    /// Continues the game in a journal: replays every committed action. Returns a warning if the last
    /// entry had been cut off.
    pub fn resume(
        path: &Path,
        catalogue: Arc<Catalogue>,
    ) -> anyhow::Result<(Session, Option<String>)> {
        let (journal, resumed) = Journal::resume::<Header, Entry>(path)?;
        // A game played on a catalogue file goes on with that file, unchanged.
        let catalogue = match &resumed.header.catalogue {
            Some(file) => Arc::new(file.reload(path)?),
            None => catalogue,
        };
        let mut session = Session::new(resumed.header, catalogue, None)
            .with_context(|| format!("{}:1: the game's set-up", path.display()))?;
        for (i, entry) in resumed.entries.iter().enumerate() {
            match entry {
                Entry::Undo => {
                    session.undo_in_memory();
                }
                Entry::Profile(profile) => session
                    .replay_under(profile.clone())
                    .with_context(|| format!("{}:{}: a rules change", path.display(), i + 2))?,
                Entry::AlliedSide(edge) => session.allied_edge = Some(*edge),
                Entry::Confirm(policy) => session.confirm = *policy,
                Entry::Overrule { seat, action } => {
                    let parsed = Action::parse(&session.state, action)
                        .with_context(|| format!("{}: entry {}", path.display(), i + 2))?;
                    session.questions.push(Question {
                        text: String::new(),
                        options: Vec::new(),
                        overrule: Some((*seat, parsed)),
                    });
                    let last = session.questions.len() - 1;
                    session.overrule_question(last);
                }
                Entry::Action {
                    seat,
                    action,
                    source,
                } => {
                    let parsed = Action::parse(&session.state, action)
                        .with_context(|| format!("{}: entry {}", path.display(), i + 2))?;
                    session.commit(*seat, parsed, *source).map_err(|v| {
                        anyhow::anyhow!(
                            "{}: entry {} no longer applies: {v}",
                            path.display(),
                            i + 2
                        )
                    })?;
                }
            }
        }
        session.journal = Some(journal);
        Ok((session, resumed.warning))
    }

    fn seat_of(&self, faction: Option<Faction>) -> Option<PlayerId> {
        let f = faction?;
        self.state.players.iter().position(|p| p.faction == f)
    }

    pub fn actor_name(&self, seat: PlayerId) -> String {
        let f = self.state.players[seat].faction;
        format!("{} {}", f.name_zh(), f.name_en())
    }

    /// Applies an action for `seat`, logs the ruling and, when accepted, journals it.
    pub fn submit(&mut self, seat: PlayerId, action: Action, source: Source) -> bool {
        let notation = action.notation(&self.state);
        match self.commit(seat, action.clone(), source) {
            Ok(()) => {
                let entry = Entry::Action {
                    seat,
                    action: notation,
                    source,
                };
                if let Some(j) = self.journal.as_mut() {
                    if let Err(e) = j.append(&entry) {
                        self.rulings.push(self.note(format!("journal: {e:#}")));
                    }
                }
                true
            }
            Err(violation) => {
                self.refuse(seat, notation, &violation);
                false
            }
        }
    }

    fn refuse(&mut self, seat: PlayerId, notation: String, violation: &rules_core::Violation) {
        self.rulings.push(Ruling {
            round: self.state.round,
            accepted: false,
            who: self.actor_name(seat),
            action: notation,
            text: violation.reason.to_string(),
            rule: Some(violation.rule.to_string()),
        });
    }

    /// What `action` would do now: the state it starts from (a hidden card revealed), the state
    /// after it and its events; nothing is changed.
    fn try_action(
        &self,
        seat: PlayerId,
        action: &Action,
    ) -> Result<(State, State, Vec<blitz::Event>), rules_core::Violation> {
        let mut base = self.state.clone();
        if self.header.hidden_hands {
            if let Some(card) = laid_from_hand(action) {
                base = reveal(&base, seat, card)?;
            }
        }
        check_as(&base, seat, action)?;
        let (next, events) = apply(&base, action)?;
        Ok((base, next, events))
    }

    /// A change seen on the table: committed now, or (when the policy waits) held for the players'
    /// OK if the rules allow it. False when the rules refuse it.
    fn submit_camera(&mut self, seat: PlayerId, action: Action) -> bool {
        if !self.confirm.waits() {
            return self.submit(seat, action, Source::Camera);
        }
        let notation = action.notation(&self.state);
        match self.try_action(seat, &action) {
            Ok((base, _, _)) => {
                let text = format!("{}: {}", self.actor_name(seat), seen_text(&base, &action));
                self.seen = Some(super::confirm::Seen {
                    seat,
                    action,
                    notation,
                    text,
                });
                true
            }
            Err(v) => {
                self.refuse(seat, notation, &v);
                false
            }
        }
    }

    /// The players' OK for the change the camera saw: committed and journalled, then the events
    /// held behind it are handled.
    pub fn confirm_seen(&mut self) {
        if let Some(seen) = self.seen.take() {
            self.submit(seen.seat, seen.action, Source::Camera);
        }
        self.release_held();
    }

    /// The players say the camera got it wrong, or take the change back: nothing is committed and
    /// the card is to be put back (or the right action typed as a correction).
    pub fn reject_seen(&mut self) {
        if let Some(seen) = self.seen.take() {
            let note = self.note(format!(
                "不采纳 not taken: {} — 请复原 / put the card back, or type the right action",
                seen.text
            ));
            self.rulings.push(note);
        }
        self.release_held();
    }

    fn release_held(&mut self) {
        let held = std::mem::take(&mut self.held);
        for (i, event) in held.iter().enumerate() {
            self.on_table_event(event);
            if self.seen.is_some() {
                self.held.extend_from_slice(&held[i + 1..]);
                return;
            }
        }
    }

    /// The players chose the confirmation policy for the rest of the game (journalled).
    pub fn set_confirm(&mut self, policy: super::confirm::Confirm) {
        self.confirm = policy;
        if let Some(j) = self.journal.as_mut() {
            if let Err(e) = j.append(&Entry::Confirm(policy)) {
                let note = self.note(format!("journal: {e:#}"));
                self.rulings.push(note);
            }
        }
        if !policy.waits() && self.seen.is_some() {
            self.confirm_seen();
        }
    }

    fn commit(
        &mut self,
        seat: PlayerId,
        action: Action,
        _source: Source,
    ) -> Result<(), rules_core::Violation> {
        let (base, next, events) = self.try_action(seat, &action)?;
        let described = blitz::scenario::describe_all(&base, &next, &events);
        self.rulings.push(Ruling {
            round: base.round,
            accepted: true,
            who: self.actor_name(seat),
            action: action.notation(&base),
            text: if described.is_empty() {
                "ok".into()
            } else {
                described.join("; ")
            },
            rule: None,
        });
        self.history.push(std::mem::replace(&mut self.state, next));
        self.actions.push((seat, action));
        Ok(())
    }

    /// Replays the game so far under another rules profile; refuses if an action no longer applies.
    fn replay_under(&mut self, profile: Profile) -> anyhow::Result<()> {
        let mut header = self.header.clone();
        header.profile = profile;
        let mut fresh = Session::new(header, self.catalogue.clone(), None)?;
        for (i, (seat, action)) in self.actions.iter().enumerate() {
            let text = action.notation(&fresh.state);
            if self.overruled.contains(&i) {
                let (next, _) = blitz::overrule(&fresh.state, *seat, action)
                    .map_err(|v| anyhow::anyhow!("`{text}`: {v}"))?;
                fresh
                    .history
                    .push(std::mem::replace(&mut fresh.state, next));
                fresh.actions.push((*seat, action.clone()));
                fresh.overruled.push(i);
                continue;
            }
            fresh
                .commit(*seat, action.clone(), Source::Panel)
                .map_err(|v| anyhow::anyhow!("`{text}` is not legal under the new profile: {v}"))?;
        }
        self.header = fresh.header;
        self.state = fresh.state;
        self.history = fresh.history;
        self.actions = fresh.actions;
        self.overruled = fresh.overruled;
        Ok(())
    }

    /// Changes a rules-profile option mid-game (journalled).
    pub fn change_profile(&mut self, profile: Profile) -> anyhow::Result<()> {
        self.replay_under(profile.clone())?;
        if let Some(j) = self.journal.as_mut() {
            j.append(&Entry::Profile(profile))?;
        }
        let note = self.note("规则选项已更改 rules profile changed".into());
        self.rulings.push(note);
        Ok(())
    }

    fn note(&self, text: String) -> Ruling {
        Ruling {
            round: self.state.round,
            accepted: true,
            who: String::new(),
            action: String::new(),
            text,
            rule: None,
        }
    }

    fn undo_in_memory(&mut self) -> bool {
        match self.history.pop() {
            Some(prev) => {
                self.state = prev;
                self.actions.pop();
                self.overruled.retain(|&i| i < self.actions.len());
                self.declaring.clear();
                true
            }
            None => false,
        }
    }

    /// Remembers which edge of the camera picture the Allied side is at (journalled).
    pub fn set_allied_edge(&mut self, edge: super::allied::ImageEdge) {
        self.allied_edge = Some(edge);
        if let Some(j) = self.journal.as_mut() {
            if let Err(e) = j.append(&Entry::AlliedSide(edge)) {
                let note = self.note(format!("journal: {e:#}"));
                self.rulings.push(note);
            }
        }
    }

    /// Takes back the last committed action (journalled, so a resume takes it back too).
    pub fn undo(&mut self) -> bool {
        if !self.undo_in_memory() {
            return false;
        }
        if let Some(j) = self.journal.as_mut() {
            if let Err(e) = j.append(&Entry::Undo) {
                let note = self.note(format!("journal: {e:#}"));
                self.rulings.push(note);
            }
        }
        let note = self.note("撤销 undone".into());
        self.rulings.push(note);
        true
    }

    /// The actions the panel offers as buttons: everything that is not seen on the table.
    pub fn panel_actions(&self) -> Vec<Action> {
        legal_actions(&self.state)
            .into_iter()
            .filter(|a| {
                matches!(
                    a,
                    Action::Keep
                        | Action::Mulligan
                        | Action::Draw
                        | Action::SkipDraw
                        | Action::Done
                        | Action::Stalemate
                        | Action::Hold
                ) || matches!(a, Action::UseSkill { .. })
            })
            .collect()
    }

    fn card(&self, id: &str) -> Option<CardId> {
        self.state.card_by_id(id)
    }

    /// Turns one table event into an engine action, a question, or nothing (a change the engine made
    /// itself, such as a destroyed card taken off the table).
    pub fn on_table_event(&mut self, event: &TableEvent) {
        if self.seen.is_some() {
            self.held.push(event.clone());
            return;
        }
        match event {
            TableEvent::Placed { card, place } => self.on_placed(card, place.cell),
            TableEvent::Moved { card, to, .. } => self.on_moved(card, *to),
            TableEvent::Removed { card, from } => self.on_removed(card, *from),
            TableEvent::Tapped { card } => self.on_tapped(card),
            TableEvent::Untapped { card } => {
                // An attack declared and taken back (flagged, or the players changed their minds).
                if let Some(c) = self.card(card) {
                    self.declaring.retain(|&d| d != c);
                    if self.declaring.is_empty() {
                        self.questions.retain(|q| !q.text.starts_with("攻击目标"));
                    }
                }
            }
            TableEvent::Uncertain { cell, note } => self.questions.push(Question {
                text: format!("{} 无法识别 / {note} at {}", to_cell(*cell), to_cell(*cell)),
                options: vec![("OK".into(), None)],
                overrule: None,
            }),
        }
    }

    fn unknown_card(&mut self, id: &str) {
        self.questions.push(Question {
            text: format!("{id} 不在目录中 / {id} is not in the catalogue"),
            options: vec![("OK".into(), None)],
            overrule: None,
        });
    }

    fn on_placed(&mut self, id: &str, cell: GridCell) {
        let Some(card) = self.card(id) else {
            return self.unknown_card(id);
        };
        let def = self.state.def(card);
        if matches!(def.kind, CardKind::Frontline) {
            return;
        }
        if self.state.placed(card).is_some() {
            return self.on_moved(id, cell);
        }
        let Some(seat) = self.seat_of(def.faction) else {
            return self.unknown_card(id);
        };
        let at = to_cell(cell);
        let action = match def.kind {
            CardKind::Facility { .. } => Action::PlaceFacility { card, cell: at },
            CardKind::Skill { .. } => return,
            _ => Action::Deploy { card, cell: at },
        };
        self.submit_seen(
            seat,
            action,
            format!("{} → {at}?", self.state.card_name(card)),
        );
    }

    fn on_moved(&mut self, id: &str, to: GridCell) {
        let Some(card) = self.card(id) else {
            return self.unknown_card(id);
        };
        let Some(seat) = self.seat_of(self.state.def(card).faction) else {
            return;
        };
        let at = to_cell(to);
        if self.state.placed(card).is_some_and(|p| p.cell == at) {
            return; // seen again where the engine has it (it was hidden for a while)
        }
        let action = match &self.state.pending_advance {
            Some(p) if p.attackers.contains(&card) && p.cell == at => Action::Advance(card),
            _ => Action::Move { card, to: at },
        };
        self.submit_seen(
            seat,
            action,
            format!("{} → {at}?", self.state.card_name(card)),
        );
    }

    fn on_removed(&mut self, id: &str, from: GridCell) {
        let Some(card) = self.card(id) else { return };
        // Front-line cards never leave, and a facility under a unit is hidden by it: a card lying on
        // them covers them from the camera.
        let def = self.state.def(card);
        let under_a_unit = self
            .state
            .placed(card)
            .is_some_and(|p| self.state.stack(p.cell).occupant.is_some());
        if matches!(def.kind, CardKind::Frontline)
            || (matches!(def.kind, CardKind::Facility { .. }) && under_a_unit)
        {
            return;
        }
        if self.state.placed(card).is_none() {
            // The engine already took it off (destroyed, removed at the end of deployment), or an
            // illegal placement was taken back: its question is answered.
            let name = self.state.card_name(card);
            self.questions.retain(|q| !q.text.starts_with(&name));
            return;
        }
        let seat = self.state.actor();
        // A target of the attack being declared: the players took it off, so the attack resolves now.
        if !self.declaring.is_empty() {
            if let Some(s) = seat {
                let attack = Action::Attack {
                    attackers: self.declaring.clone(),
                    target: card,
                };
                if check_as(&self.state, s, &attack).is_ok() {
                    self.declaring.clear();
                    self.submit_camera(s, attack);
                    if self.seen.is_none() && self.state.placed(card).is_some() {
                        self.questions.push(Question {
                            text: format!(
                                "{} 未被消灭，请放回 / was not destroyed: put it back",
                                self.state.card_name(card)
                            ),
                            options: vec![("OK".into(), None)],
                            overrule: None,
                        });
                    }
                    return;
                }
            }
        }
        // A unit lifted off the enemy's back edge in the deploy step is breaking through.
        if let (Some(p), Some(owner)) = (
            self.state.placed(card).copied(),
            self.seat_of(self.state.def(card).faction),
        ) {
            let side = self.state.side_of(owner);
            if self.state.step == Step::DeployMove && blitz::board::enemy_depth(side, p.cell) == 3 {
                let to = Cell::new(p.cell.col, blitz::board::breakthrough_row(side));
                if self.submit_camera(owner, Action::Move { card, to }) {
                    return;
                }
            }
        }
        self.questions.push(Question {
            text: format!(
                "{} 从 {} 被拿走了，但规则没有移除它 / {} left {} but no rule removed it: put it back?",
                self.state.card_name(card),
                to_cell(from),
                self.state.card_name(card),
                to_cell(from)
            ),
            options: vec![("OK".into(), None)],
                overrule: None,
        });
    }

    fn on_tapped(&mut self, id: &str) {
        let Some(card) = self.card(id) else {
            return self.unknown_card(id);
        };
        if self.state.step != Step::Attack || self.state.placed(card).is_none_or(|p| p.tapped) {
            return;
        }
        if !self.declaring.contains(&card) {
            self.declaring.push(card);
        }
        self.offer_attack_targets();
    }

    /// The attacks the declared units can make together, as a question when the target is not obvious.
    pub fn attack_options(&self) -> Vec<(PlayerId, Action)> {
        let Some(seat) = self.state.actor() else {
            return Vec::new();
        };
        let mut want = self.declaring.clone();
        want.sort_unstable();
        legal_actions(&self.state)
            .into_iter()
            .filter(|a| match a {
                Action::Attack { attackers, .. } => {
                    let mut got = attackers.clone();
                    got.sort_unstable();
                    got == want
                }
                _ => false,
            })
            .map(|a| (seat, a))
            .collect()
    }

    fn offer_attack_targets(&mut self) {
        self.questions.retain(|q| !q.text.starts_with("攻击目标"));
        let options = self.attack_options();
        let names: Vec<String> = self
            .declaring
            .iter()
            .map(|&c| self.state.card_name(c))
            .collect();
        let text = format!("攻击目标？ / Attack target for {}?", names.join(" + "));
        let mut opts: Vec<(String, Option<(PlayerId, Action)>)> = options
            .into_iter()
            .map(|(s, a)| {
                let label = match &a {
                    Action::Attack { target, .. } => self.state.card_name(*target),
                    _ => a.notation(&self.state),
                };
                (label, Some((s, a)))
            })
            .collect();
        if opts.is_empty() {
            let seat = self.state.actor().unwrap_or(0);
            let refusal = self.why_no_attack(seat);
            let why = match refusal {
                Some(v) => {
                    self.rulings.push(Ruling {
                        round: self.state.round,
                        accepted: false,
                        who: self.actor_name(seat),
                        action: format!("attack {}", names.join("+")),
                        text: v.reason.to_string(),
                        rule: Some(v.rule.to_string()),
                    });
                    v.to_string()
                }
                None => "no target in range / 范围内没有目标".into(),
            };
            opts.push((format!("x {why}"), None));
        }
        self.questions.push(Question {
            text,
            options: opts,
            overrule: None,
        });
    }

    /// Why the declared units can attack nothing: the most telling refusal (an enemy in range that
    /// still cannot be attacked, e.g. for want of supply, before "out of range").
    fn why_no_attack(&self, seat: PlayerId) -> Option<rules_core::Violation> {
        let st = &self.state;
        let mut refusals: Vec<rules_core::Violation> = Vec::new();
        for &c in &self.declaring {
            let enemy = st.card_side(c).map(|s| s.enemy());
            for t in st
                .placed
                .iter()
                .flatten()
                .filter(|t| st.card_side(t.card) == enemy)
            {
                if let Err(v) = check_as(
                    st,
                    seat,
                    &Action::Attack {
                        attackers: vec![c],
                        target: t.card,
                    },
                ) {
                    refusals.push(v);
                }
            }
        }
        let out_of_range = |v: &rules_core::Violation| v.rule.to_string() == "攻防阶段规则 5";
        refusals
            .iter()
            .find(|v| !out_of_range(v))
            .or(refusals.first())
            .cloned()
    }

    /// Once the table has been quiet for a while (or a button is pressed), a declared attack with a
    /// single possible target is made.
    pub fn on_quiet(&mut self) {
        if self.declaring.is_empty() || self.seen.is_some() {
            return;
        }
        let options = self.attack_options();
        if let [(seat, attack)] = options.as_slice() {
            let (seat, attack) = (*seat, attack.clone());
            self.declaring.clear();
            self.questions.retain(|q| !q.text.starts_with("攻击目标"));
            self.submit_camera(seat, attack);
        }
    }

    /// The players picked an answer to question `index`.
    pub fn answer(&mut self, index: usize, option: usize) {
        if index >= self.questions.len() {
            return;
        }
        let q = self.questions.remove(index);
        if let Some((_, Some((seat, action)))) = q.options.get(option).cloned() {
            if matches!(action, Action::Attack { .. }) {
                self.declaring.clear();
            }
            self.submit(seat, action, Source::Panel);
        }
    }

    /// Applies a change seen on the table; a refusal is flagged at once and asked about.
    fn submit_seen(&mut self, seat: PlayerId, action: Action, question: String) {
        if !self.submit_camera(seat, action.clone()) {
            let why = self
                .rulings
                .last()
                .map(|r| format!("{} ({})", r.text, r.rule.as_deref().unwrap_or("")))
                .unwrap_or_default();
            self.questions.push(Question {
                text: format!("{question} 不合规则，请复原 / not allowed: {why}"),
                options: vec![("OK".into(), None)],
                overrule: Some((seat, action)),
            });
        }
    }

    /// The players let the change of question `index` stand against the rules (journalled).
    pub fn overrule_question(&mut self, index: usize) {
        let Some((seat, action)) = self.questions.get(index).and_then(|q| q.overrule.clone())
        else {
            return;
        };
        let notation = action.notation(&self.state);
        match blitz::overrule(&self.state, seat, &action) {
            Ok((next, events)) => {
                self.questions.remove(index);
                let described = blitz::scenario::describe_all(&self.state, &next, &events);
                self.rulings.push(Ruling {
                    round: self.state.round,
                    accepted: true,
                    who: self.actor_name(seat),
                    action: notation.clone(),
                    text: format!(
                        "裁定有效（玩家否决规则）/ overruled by the players: {}",
                        described.join("; ")
                    ),
                    rule: None,
                });
                self.history.push(std::mem::replace(&mut self.state, next));
                self.actions.push((seat, action));
                self.overruled.push(self.actions.len() - 1);
                if let Some(j) = self.journal.as_mut() {
                    if let Err(e) = j.append(&Entry::Overrule {
                        seat,
                        action: notation,
                    }) {
                        let note = self.note(format!("journal: {e:#}"));
                        self.rulings.push(note);
                    }
                }
            }
            Err(v) => {
                let note = self.note(format!("{v}"));
                self.rulings.push(note);
            }
        }
    }
}

/// A change seen on the table for people: the card, where from and where to.
fn seen_text(state: &State, action: &Action) -> String {
    let name = |c: CardId| state.card_name(c);
    let from = |c: CardId| {
        state
            .placed(c)
            .map(|p| p.cell.to_string())
            .unwrap_or_else(|| "手牌 hand".into())
    };
    match action {
        Action::Deploy { card, cell } | Action::PlaceFacility { card, cell } => {
            format!("{} {} → {cell}", name(*card), from(*card))
        }
        Action::Move { card, to } => format!("{} {} → {to}", name(*card), from(*card)),
        Action::Advance(card) => format!("{} {} 推进 advances", name(*card), from(*card)),
        Action::Attack { attackers, target } => {
            let who: Vec<String> = attackers.iter().map(|&c| name(c)).collect();
            format!(
                "{} 攻击 attack {} ({})",
                who.join(" + "),
                name(*target),
                from(*target)
            )
        }
        other => other.notation(state),
    }
}

fn laid_from_hand(action: &Action) -> Option<CardId> {
    match action {
        Action::Deploy { card, .. }
        | Action::PlaceFacility { card, .. }
        | Action::UseSkill { card, .. }
        | Action::DiscardAndDraw(card) => Some(*card),
        _ => None,
    }
}

pub fn to_cell((col, row): GridCell) -> Cell {
    Cell::new(col, row)
}
