//! The golden scenarios in models/scenarios/blitz: every expectation holds, and they cover each victory
//! condition with two and four players.

use blitz::catalogue::{Catalogue, Faction};
use blitz::scenario::{self, Report, Scenario};
use std::path::PathBuf;
use std::sync::Arc;

fn folder() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models/scenarios/blitz")
}

fn run_text(origin: &str, text: &str) -> (Scenario, Report) {
    let scenario = Scenario::from_toml(origin, text).unwrap_or_else(|e| panic!("{e}"));
    let lines = scenario
        .lines(origin, text)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        scenario.catalogue.is_none(),
        "{origin}: golden scenarios use the demo catalogue"
    );
    let (report, _) = scenario::run(&scenario, &lines, Arc::new(Catalogue::demo()), origin)
        .unwrap_or_else(|e| panic!("{e}"));
    (scenario, report)
}

fn all() -> Vec<(Scenario, Report)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder())
        .expect("scenario folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            run_text(
                &f.display().to_string(),
                &std::fs::read_to_string(f).expect("read scenario"),
            )
        })
        .collect()
}

#[test]
fn every_golden_scenario_plays_as_scripted() {
    let runs = all();
    assert!(runs.len() >= 10, "only {} scenarios", runs.len());
    for (_, report) in &runs {
        assert!(
            report.failures.is_empty(),
            "{}:\n{}",
            report.name,
            report.failures.join("\n")
        );
        assert!(
            report.outcome.is_some(),
            "{} is a full game and must end",
            report.name
        );
    }
}

#[test]
fn scenarios_cover_each_victory_condition_with_two_and_four_players() {
    let runs = all();
    for rule in ["胜利条件 1", "胜利条件 2", "胜利条件 3"] {
        for players in [2, 4] {
            let covered = runs.iter().any(|(s, r)| {
                s.players.len() == players
                    && r.outcome.as_ref().is_some_and(|o| o.rule.contains(rule))
            });
            assert!(covered, "no {players}-player scenario ends by {rule}");
        }
    }
}

#[test]
fn a_wrong_expectation_is_reported_not_ignored() {
    let path = folder().join("demo-2p.toml");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("winner = \"allied\"", "winner = \"axis\"");
    let (_, report) = run_text("demo-2p (edited)", &text);
    assert_eq!(report.failures.len(), 1, "{:?}", report.failures);
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("us: deploy us-u19 B2", "us: deploy us-u19 B5");
    let (_, report) = run_text("demo-2p (edited)", &text);
    assert!(
        report.failures.iter().any(|f| f.contains("部署阶段规则 2")),
        "{:?}",
        report.failures
    );
}

#[test]
fn an_out_of_turn_attempt_names_the_player_who_tried() {
    // US keeps, so it is SS's choice: a US mulligan now is US's attempt (refused by the turn order:
    // US has its mulligan left), and the next line is SS's.
    let text = "name = \"x\"\nplayers = [\"us\", \"ss\"]\nscript = \"\"\"\nus: keep\n\
                us: mulligan ! 部署阶段规则 7\nss: keep\n\"\"\"\n";
    let (_, report) = run_text("out of turn", text);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let out_of_turn = &report.rulings[1];
    assert!(!out_of_turn.accepted);
    assert_eq!(out_of_turn.actor, Faction::Us.name_en(), "{out_of_turn:?}");
    assert_eq!(report.rulings[2].actor, Faction::Ss.name_en());
}

#[test]
fn a_bad_script_line_names_the_file_and_line() {
    let text =
        "name = \"x\"\nplayers = [\"us\", \"ss\"]\nscript = \"\"\"\nkeep\nfly us-u01 B3\n\"\"\"\n";
    let scenario = Scenario::from_toml("bad.toml", text).unwrap();
    let lines = scenario.lines("bad.toml", text).unwrap();
    let err =
        scenario::run(&scenario, &lines, Arc::new(Catalogue::demo()), "bad.toml").unwrap_err();
    assert_eq!(err.line, Some(5), "{err}");
    assert!(err.to_string().starts_with("bad.toml:5"), "{err}");
}
