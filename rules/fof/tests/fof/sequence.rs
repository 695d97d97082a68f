//! Scripted turns pass through exactly the published steps, in order (seed 003 §3, RULES-NOTES 3.7.2–3.8).

use crate::{act, mission_of_type, start};
use fof::{Action, Deck, Event};

const COMMAND: [&str; 7] = [
    "3.3.1 A", "3.3.1 B", "3.3.1 C", "3.3.2 A", "3.3.2 B", "3.3.2 C", "3.3.2 D",
];
const TAIL: [&str; 6] = ["3.5", "3.6", "3.7.1 A", "3.7.2", "3.7.3", "3.7.4"];

/// The published order, written out here independently of the data file.
fn published(kind: &str, turn: u32) -> Vec<&'static str> {
    let mut steps = Vec::new();
    if turn >= 2 {
        steps.push("3.1");
    }
    if kind == "defensive" {
        if turn >= 2 {
            steps.push("3.2.1");
        }
        steps.push("3.2.2");
        steps.extend(COMMAND);
    } else {
        steps.extend(COMMAND);
        if turn >= 2 {
            steps.push("3.4.1");
        }
        steps.push("3.4.2");
    }
    steps.extend(TAIL);
    steps.push("3.8");
    steps
}

/// Plays `turns` turns pressing only `next` (answering nothing: digital deck), and returns the step
/// ids entered, per turn.
fn walk(kind: &str, turns: u32) -> Vec<Vec<String>> {
    let mut s = start(mission_of_type(kind), Deck::demo().unwrap(), 11);
    let mut per_turn = vec![vec![s.current_step().id.clone()]];
    while !s.game_over && per_turn.len() <= turns as usize {
        let (next, events) = act(&s, Action::Next);
        for e in events {
            match e {
                Event::TurnAdvanced { .. } => per_turn.push(Vec::new()),
                Event::StepEntered { step, .. } => per_turn.last_mut().unwrap().push(step),
                _ => {}
            }
        }
        s = next;
    }
    per_turn.truncate(turns as usize);
    per_turn
}

#[test]
fn offensive_turns_follow_published_sequence() {
    for (i, steps) in walk("offensive", 3).iter().enumerate() {
        assert_eq!(
            steps,
            &published("offensive", i as u32 + 1),
            "turn {}",
            i + 1
        );
    }
}

#[test]
fn combat_patrol_turns_follow_published_sequence() {
    for (i, steps) in walk("patrol", 3).iter().enumerate() {
        assert_eq!(steps, &published("patrol", i as u32 + 1), "turn {}", i + 1);
    }
}

#[test]
fn defensive_turns_follow_published_sequence() {
    for (i, steps) in walk("defensive", 3).iter().enumerate() {
        assert_eq!(
            steps,
            &published("defensive", i as u32 + 1),
            "turn {}",
            i + 1
        );
    }
}

#[test]
fn mission_ends_after_its_last_turn() {
    let steps = walk("offensive", 99);
    assert_eq!(steps.len(), 6, "the demo mission has 6 turns");
}

#[test]
fn rule_3_1_first_turn_skips_higher_hq_events() {
    let s = start(mission_of_type("offensive"), Deck::demo().unwrap(), 3);
    assert_eq!(s.current_step().id, "3.3.1 A");
    assert!(s.log.is_empty(), "nothing drawn before 3.3.1 B");
}

#[test]
fn every_step_has_a_bilingual_prompt() {
    for step in &fof::Sequence::standard().unwrap().steps {
        assert!(
            !step.prompt.zh.is_empty() && !step.prompt.en.is_empty(),
            "{}",
            step.id
        );
        assert!(
            !step.title.zh.is_empty() && !step.title.en.is_empty(),
            "{}",
            step.id
        );
    }
}

#[test]
fn sequence_file_errors_name_line_and_field() {
    let bad = fof::sequence::SEQUENCE_TOML.replacen(
        "kind = \"co_activation\"",
        "kind = \"co_activaton\"",
        1,
    );
    let err = fof::Sequence::parse("sequence.toml", &bad).unwrap_err();
    assert_eq!(err.field.as_deref(), Some("step[4].kind"), "{err}");
    assert!(err.line.is_some());
}
