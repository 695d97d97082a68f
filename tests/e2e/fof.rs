//! Issue 5: `arbiter fof …`, the Fields of Fire solo companion, driven as a player would.

use crate::cli::arbiter;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Output;

fn journal(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-fof-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}.jsonl"));
    let _ = std::fs::remove_file(&path);
    path
}

fn fof(journal: &PathBuf, args: &[&str]) -> Output {
    arbiter()
        .arg("fof")
        .args(args)
        .arg("--journal")
        .arg(journal)
        .output()
        .expect("run arbiter")
}

fn ok_json(out: Output) -> Value {
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn new_game(j: &PathBuf, extra: &[&str]) -> Value {
    let mut args = vec![
        "new",
        "--mission",
        "models/catalogues/fof/demo-mission.toml",
        "--seed",
        "7",
        "--json",
    ];
    args.extend_from_slice(extra);
    ok_json(fof(j, &args))
}

#[test]
fn issue_5_fof_draw_without_a_game_is_reproducible_from_the_seed() {
    let draw = |seed: &str| {
        let out = arbiter()
            .args(["fof", "draw", "--seed", seed, "-n", "60", "--json"])
            .output()
            .unwrap();
        ok_json(out)
    };
    let a = draw("42");
    assert_eq!(a, draw("42"));
    assert_ne!(a["cards"], draw("43")["cards"]);
    let cards = a["cards"].as_array().unwrap();
    assert_eq!(cards.len(), 60);
    assert!(
        cards[0]["card"]["r"].is_u64(),
        "demo deck cards carry their fields: {}",
        cards[0]
    );
    let mut first: Vec<u64> = cards[..50]
        .iter()
        .map(|c| c["number"].as_u64().unwrap())
        .collect();
    first.sort();
    assert_eq!(
        first,
        (1..=50).collect::<Vec<u64>>(),
        "the first 50 draws are the whole deck"
    );
}

#[test]
fn issue_5_fof_game_resumes_from_the_journal_and_undo_redo_is_exact() {
    let j = journal("resume");
    let started = new_game(&j, &[]);
    assert_eq!(started["step"], "3.3.1 A");
    ok_json(fof(&j, &["act", "activate", "co", "--json"]));
    let next = ok_json(fof(&j, &["next", "--json"]));
    assert_eq!(next["step"], "3.3.1 B");
    let drew = next["events"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["event"]["record"]["purpose"] == "3.3.1 B: CO HQ activation");
    assert!(drew, "{next}");
    let before = ok_json(fof(&j, &["status", "--json"]));
    ok_json(fof(&j, &["next", "--json"]));
    let after = ok_json(fof(&j, &["status", "--json"]));
    ok_json(fof(&j, &["undo", "--json"]));
    assert_eq!(
        ok_json(fof(&j, &["status", "--json"])),
        before,
        "undo restores the state"
    );
    ok_json(fof(&j, &["next", "--json"]));
    assert_eq!(
        ok_json(fof(&j, &["status", "--json"])),
        after,
        "redo gives the same draws"
    );
}

#[test]
fn issue_5_fof_truncated_journal_resumes_at_last_complete_action_with_warning() {
    let j = journal("truncated");
    new_game(&j, &[]);
    ok_json(fof(&j, &["next", "--json"]));
    let good = ok_json(fof(&j, &["status", "--json"]));
    ok_json(fof(&j, &["next", "--json"]));
    // Cut the last line in half, as a crash mid-write would.
    let text = std::fs::read_to_string(&j).unwrap();
    let last_start = text.trim_end().rfind('\n').unwrap() + 1;
    let cut = last_start + (text.len() - last_start) / 2;
    std::fs::write(&j, &text[..cut]).unwrap();
    let lines = text[..cut].lines().count();

    let out = fof(&j, &["status", "--json"]);
    let warning = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(warning.contains("warning"), "{warning}");
    assert!(
        warning.contains(&j.display().to_string()),
        "names the file: {warning}"
    );
    assert!(
        warning.contains(&format!("line {lines}")),
        "names the line: {warning}"
    );
    assert_eq!(ok_json(out), good);

    // The next command drops the partial line and carries on; the journal reads cleanly again.
    ok_json(fof(&j, &["next", "--json"]));
    let out = fof(&j, &["status", "--json"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("warning"));
    for line in std::fs::read_to_string(&j).unwrap().lines() {
        serde_json::from_str::<Value>(line).expect("every journal line is whole");
    }
}

#[test]
fn issue_5_fof_physical_deck_asks_the_player_to_read_the_card() {
    let j = journal("physical");
    new_game(&j, &["--physical", "54"]);
    let next = ok_json(fof(&j, &["next", "--json"])); // 3.3.1 B: CO not activated, no draw
    assert_eq!(next["step"], "3.3.1 B");
    ok_json(fof(&j, &["next", "--json"])); // 3.3.1 C
    let co = ok_json(fof(&j, &["next", "--json"])); // 3.3.2 A: CO initiative draw
    assert!(
        co["prompt"]["text"]["en"]
            .as_str()
            .unwrap()
            .contains("initiative number"),
        "{co}"
    );
    let refused = fof(&j, &["next", "--json"]);
    assert_eq!(refused.status.code(), Some(2));
    let answered = ok_json(fof(&j, &["act", "answer", "3", "--json"]));
    let text = answered["events"].to_string();
    assert!(text.contains("printed 3"), "{text}");
}

#[test]
fn issue_5_fof_refusal_cites_the_rule() {
    let j = journal("refusal");
    new_game(&j, &[]);
    let out = fof(&j, &["act", "activate", "1plt"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("3.3.1 A"), "{err}");
}

/// A journal whose last line is whole but lost its newline (an editor, a copy) keeps that action,
/// and the next one is written on a line of its own.
#[test]
fn fof_a_whole_last_line_without_its_newline_keeps_its_action() {
    let j = journal("no-newline");
    new_game(&j, &[]);
    ok_json(fof(&j, &["next", "--json"]));
    let good = ok_json(fof(&j, &["status", "--json"]));
    let text = std::fs::read_to_string(&j).unwrap();
    std::fs::write(&j, text.trim_end_matches('\n')).unwrap();
    assert_eq!(ok_json(fof(&j, &["status", "--json"])), good);
    ok_json(fof(&j, &["next", "--json"]));
    let lines: Vec<String> = std::fs::read_to_string(&j)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), text.lines().count() + 1, "{lines:?}");
    for line in &lines {
        serde_json::from_str::<Value>(line).expect("every journal line is whole");
    }
}

/// Several `fof` commands at once on one journal: each write is checked and made under the
/// journal's lock, so the journal holds exactly the actions that were reported as played, and it
/// still loads.
#[test]
fn fof_commands_at_once_write_only_what_they_report() {
    let j = journal("at-once");
    new_game(&j, &[]);
    let children: Vec<std::process::Child> = (0..6)
        .map(|_| {
            arbiter()
                .args(["fof", "next", "--journal"])
                .arg(&j)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("start")
        })
        .collect();
    let mut played = 0;
    for child in children {
        let out = child.wait_with_output().expect("wait");
        if out.status.success() {
            played += 1;
        } else {
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains("changed since it was read") || err.contains("refused"),
                "{err}"
            );
        }
    }
    assert!(played >= 1);
    let text = std::fs::read_to_string(&j).expect("journal");
    assert_eq!(text.lines().count(), 1 + played, "{text}");
    let status = fof(&j, &["status", "--json"]);
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
}

#[test]
fn fof_a_mission_whose_deck_file_is_missing_names_the_mission_and_the_deck() {
    let j = journal("missing-deck");
    let dir = j.parent().unwrap().join("missing-deck-mission");
    std::fs::create_dir_all(&dir).unwrap();
    let mission = dir.join("mission.toml");
    let shipped =
        std::fs::read_to_string(crate::cli::root().join("models/catalogues/fof/demo-mission.toml"))
            .unwrap();
    std::fs::write(
        &mission,
        shipped.replace("file = \"demo-deck.toml\"", "file = \"gone.toml\""),
    )
    .unwrap();
    let out = fof(
        &j,
        &["new", "--mission", mission.to_str().unwrap(), "--seed", "7"],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains(&format!("{}: its deck.file `gone.toml`", mission.display()))
            && err.contains("gone.toml"),
        "{err}"
    );
    assert!(!j.exists(), "no journal for a game that could not start");
    let _ = std::fs::remove_dir_all(&dir);
}
