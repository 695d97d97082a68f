//! Golden scenarios: a set-up, a script of actions with the rulings expected, and the expected end.
//!
//! ```toml
//! name = "Breakthrough"
//! players = ["us", "ss"]
//! seed = 7
//! catalogue = "../../catalogues/blitz.toml"   # optional, relative to the scenario file
//! [profile]                                    # optional: options of models/profiles/blitz.toml
//! combine_attacks = "sum"
//! [decks]                                      # optional: top of each deck, first card drawn first
//! us = ["us-u01", "us-r01"]
//! [end]                                        # optional: expected outcome
//! winner = "allied"                            # allied | axis | draw
//! rule = "胜利条件 3"
//! ```
//! and `script`, one action per line in the notation of [`crate::action`], optionally prefixed by
//! the faction expected to act (`us: deploy us-u01 B3`). A line ending in `! 部署阶段规则 3` expects
//! that action to be refused under that rule; `=> text` expects an event whose description contains
//! the text. `#` starts a comment.

use crate::action::{Action, Event};
use crate::catalogue::{Catalogue, Faction};
use crate::describe::describe;
use crate::profile::Profile;
use crate::state::{Setup, State, Winner};
use crate::{apply, check_as};
use rules_core::data::{parse_toml, DataError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    pub players: Vec<Faction>,
    #[serde(default)]
    pub seed: u64,
    /// Path of the catalogue, relative to the scenario file; the demo catalogue when absent.
    #[serde(default)]
    pub catalogue: Option<String>,
    #[serde(default)]
    pub profile: Option<Profile>,
    #[serde(default)]
    pub decks: BTreeMap<Faction, Vec<String>>,
    pub script: String,
    #[serde(default)]
    pub end: Option<ExpectedEnd>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectedEnd {
    pub winner: String,
    #[serde(default)]
    pub rule: Option<String>,
}

/// One line of the script.
#[derive(Clone, Debug)]
pub struct Line {
    pub number: usize,
    pub actor: Option<Faction>,
    pub action: String,
    pub expect_rule: Option<String>,
    pub expect_events: Vec<String>,
}

/// What happened to one line, for the transcript.
#[derive(Clone, Debug, Serialize)]
pub struct Ruling {
    pub line: usize,
    pub round: u16,
    pub step: String,
    pub actor: String,
    pub action: String,
    pub accepted: bool,
    /// The rule cited when refused.
    pub rule: Option<String>,
    pub text: String,
    pub events: Vec<String>,
    /// What the script expected and did not get.
    pub mismatch: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub name: String,
    pub rulings: Vec<Ruling>,
    pub outcome: Option<crate::state::Outcome>,
    pub prompt: String,
    /// Every expectation that failed; empty when the scenario passes.
    pub failures: Vec<String>,
}

impl Scenario {
    pub fn from_toml(origin: &str, text: &str) -> Result<Scenario, DataError> {
        parse_toml(origin, text)
    }

    /// The script's lines, with the line numbers of the file (the script starts after `script = """`).
    pub fn lines(&self, origin: &str, file_text: &str) -> Result<Vec<Line>, DataError> {
        let first = file_text
            .lines()
            .position(|l| l.trim_start().starts_with("script"))
            .map(|i| i + 2)
            .unwrap_or(1);
        let mut out = Vec::new();
        for (i, raw) in self.script.lines().enumerate() {
            let number = first + i;
            let text = raw.split('#').next().unwrap_or("").trim();
            if text.is_empty() {
                continue;
            }
            let (text, events) = match text.split_once("=>") {
                Some((a, e)) => (
                    a.trim(),
                    e.split(';').map(|s| s.trim().to_string()).collect(),
                ),
                None => (text, Vec::new()),
            };
            let (text, expect_rule) = match text.split_once('!') {
                Some((a, r)) => (a.trim(), Some(r.trim().to_string())),
                None => (text, None),
            };
            let (actor, action) = match text.split_once(':') {
                Some((f, a)) => {
                    let faction = parse_faction(f.trim()).ok_or_else(|| {
                        DataError::new(origin, format!("unknown faction {:?}", f.trim()))
                            .at_line(number)
                            .with_field("script")
                    })?;
                    (Some(faction), a.trim())
                }
                None => (None, text),
            };
            out.push(Line {
                number,
                actor,
                action: action.to_string(),
                expect_rule,
                expect_events: events,
            });
        }
        Ok(out)
    }

    pub fn setup(&self, catalogue: Arc<Catalogue>) -> Setup {
        Setup {
            catalogue,
            profile: self.profile.clone().unwrap_or_default(),
            players: self.players.clone(),
            seed: self.seed,
            stacked_decks: self
                .players
                .iter()
                .map(|f| self.decks.get(f).cloned().unwrap_or_default())
                .collect(),
        }
    }
}

pub fn parse_faction(s: &str) -> Option<Faction> {
    Faction::ALL
        .into_iter()
        .find(|f| f.key() == s.to_ascii_lowercase())
}

/// Plays the scenario through the engine, checking every expectation. Errors are for scenarios that
/// cannot even start (bad set-up, an action that cannot be read); failed expectations are in the report.
pub fn run(
    scenario: &Scenario,
    lines: &[Line],
    catalogue: Arc<Catalogue>,
    origin: &str,
) -> Result<(Report, State), DataError> {
    let mut state = State::from_setup(scenario.setup(catalogue))
        .map_err(|e| DataError::new(origin, e.to_string()).with_field("players"))?;
    let mut rulings = Vec::new();
    let mut failures = Vec::new();
    for line in lines {
        let action = Action::parse(&state, &line.action).map_err(|e| {
            DataError::new(origin, e.to_string())
                .at_line(line.number)
                .with_field("script")
        })?;
        let ruling = play_line(&mut state, line, &action);
        if let Some(m) = &ruling.mismatch {
            failures.push(format!("{origin}:{}: {m}", line.number));
        }
        rulings.push(ruling);
    }
    if let Some(end) = &scenario.end {
        let got = state.outcome.as_ref();
        let winner = got.map(|o| match o.winner {
            Winner::Side(crate::catalogue::Side::Allied) => "allied",
            Winner::Side(crate::catalogue::Side::Axis) => "axis",
            Winner::Draw => "draw",
        });
        if winner != Some(end.winner.as_str()) {
            failures.push(format!(
                "{origin}: expected winner {}, got {:?}",
                end.winner, got
            ));
        }
        if let (Some(rule), Some(o)) = (&end.rule, got) {
            if !o.rule.contains(rule.as_str()) {
                failures.push(format!(
                    "{origin}: expected the game to end by {rule}, got {}",
                    o.rule
                ));
            }
        }
    }
    let report = Report {
        name: scenario.name.clone(),
        rulings,
        outcome: state.outcome.clone(),
        prompt: crate::prompt(&state).text.to_string(),
        failures,
    };
    Ok((report, state))
}

fn play_line(state: &mut State, line: &Line, action: &Action) -> Ruling {
    let info = state.step.info();
    // The player who tried: the one the line names, else whoever's turn it is.
    let actor = line
        .actor
        .or_else(|| state.actor().map(|p| state.players[p].faction))
        .map(|f| f.name_en().to_string())
        .unwrap_or_default();
    let mut ruling = Ruling {
        line: line.number,
        round: state.round,
        step: format!("{} {}", info.name.zh, info.name.en),
        actor,
        action: line.action.clone(),
        accepted: false,
        rule: None,
        text: String::new(),
        events: Vec::new(),
        mismatch: None,
    };
    // A named actor is checked like a player seen acting at the table.
    let seat = line
        .actor
        .and_then(|f| state.players.iter().position(|p| p.faction == f));
    let verdict = match (line.actor, seat) {
        (Some(f), None) => {
            ruling.mismatch = Some(format!("{} is not playing", f.name_en()));
            return ruling;
        }
        (_, Some(seat)) => check_as(state, seat, action),
        (None, None) => Ok(()),
    };
    let result = verdict.and_then(|()| apply(state, action));
    match result {
        Ok((next, events)) => {
            ruling.accepted = true;
            ruling.events = describe_all(state, &next, &events);
            ruling.text = if ruling.events.is_empty() {
                "ok".into()
            } else {
                ruling.events.join("; ")
            };
            *state = next;
            if let Some(rule) = &line.expect_rule {
                ruling.mismatch = Some(format!(
                    "expected `{}` to be refused by {rule}, but it was accepted",
                    line.action
                ));
            }
        }
        Err(v) => {
            ruling.rule = Some(v.rule.to_string());
            ruling.text = v.reason.to_string();
            match &line.expect_rule {
                None => ruling.mismatch = Some(format!("`{}` was refused: {v}", line.action)),
                Some(rule) if !v.rule.to_string().contains(rule.as_str()) => {
                    ruling.mismatch = Some(format!(
                        "`{}` was refused by {} instead of {rule}",
                        line.action, v.rule
                    ))
                }
                Some(_) => {}
            }
        }
    }
    for want in &line.expect_events {
        if ruling.mismatch.is_none() && !ruling.events.iter().any(|e| e.contains(want.as_str())) {
            ruling.mismatch = Some(format!(
                "expected an event containing {want:?}, got {:?}",
                ruling.events
            ));
        }
    }
    ruling
}

/// Events of one accepted action in the order they happened (for callers that replay actions).
pub fn describe_all(before: &State, after: &State, events: &[Event]) -> Vec<String> {
    events
        .iter()
        .map(|e| describe(before, after, e))
        .filter(|s| !s.is_empty())
        .collect()
}
