//! `arbiter duel …` end to end: deck checks, the catalogue check and seeded self-play.

use crate::cli::run_combined as run;

#[test]
fn duel_check_deck_accepts_the_shipped_demo_decks() {
    for deck in [
        "models/catalogues/duel/deck-wei.toml",
        "models/catalogues/duel/deck-wu-qun.toml",
    ] {
        let (ok, text) = run(&["duel", "check-deck", deck]);
        assert!(ok, "{text}");
        assert!(text.contains("legal constructed deck"), "{text}");
    }
}

#[test]
fn duel_check_deck_names_the_card_and_line_of_each_problem() {
    let dir = std::env::temp_dir().join(format!("arbiter-duel-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad-deck.toml");
    std::fs::write(&file, "format = \"constructed\"\n[main]\n\"wei-land\" = 44\n\"wei-01\" = 4\n\"no-such-card\" = 1\n").unwrap();
    let (ok, text) = run(&["duel", "check-deck", file.to_str().unwrap()]);
    assert!(!ok, "an illegal deck must fail: {text}");
    assert!(
        text.contains("bad-deck.toml:4") && text.contains("wei-01") && text.contains("虎卫新兵"),
        "{text}"
    );
    assert!(
        text.contains("no-such-card") && text.contains("bad-deck.toml:5"),
        "{text}"
    );
    assert!(text.contains("50 or more"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn duel_check_catalogue_counts_every_glossary_keyword() {
    let (ok, text) = run(&["duel", "check-catalogue"]);
    assert!(ok, "{text}");
    assert!(text.contains("DEMO"), "{text}");
    assert!(!text.contains("keywords no card uses"), "{text}");
    assert!(text.contains("破竹×") && text.contains("族群×"), "{text}");
}

#[test]
fn duel_selfplay_is_seeded_and_ends_with_a_winner() {
    let (ok, first) = run(&["duel", "selfplay", "--seed", "5"]);
    assert!(ok, "{first}");
    assert!(first.contains(" wins on turn "), "{first}");
    let (_, again) = run(&["duel", "selfplay", "--seed", "5"]);
    assert_eq!(first, again, "same seed, same game");
    let (_, log) = run(&["duel", "selfplay", "--seed", "5", "--log"]);
    assert!(
        log.contains("持有优先权") && log.contains("让出优先权"),
        "the log shows prompts and actions"
    );
    let (ok, many) = run(&["duel", "selfplay", "--seed", "20", "--games", "5"]);
    assert!(ok, "{many}");
    assert!(
        many.contains("5 games:") && many.contains("unfinished 0"),
        "{many}"
    );
}

/// Renders the scripted demo game's 45 frames (seed 3) into `out`.
fn render_scripted_game(out: &std::path::Path) {
    let (ok, text) = run(&[
        "duel",
        "render-scene",
        "--script",
        "--seed",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
}

/// At the table: the scripted game's frames rendered to PNGs, read back headless through the Duel
/// scanner, tracker and adapter: territory plays, a paid unit, a refused attack (整备), an attack.
#[test]
fn duel_table_headless_reads_rendered_frames_into_plays_payments_and_refusals() {
    let dir = std::env::temp_dir().join(format!("arbiter-duel-table-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    render_scripted_game(&dir);
    let source = format!("images:{out}");
    let (ok, text) = run(&["duel", "table", "--source", &source, "--headless"]);
    assert!(ok, "{text}");
    for want in [
        "明置领土 魏领土",
        "打出 虎卫新兵 于陣地 3，横置 魏领土",
        "明置领土 群领土",
        "打出 黄巾信徒 于陣地 3，横置 群领土",
        "!! refused 黄巾信徒 攻击 / Yellow Turban Zealot attacks [整备]",
        "暗置一张领土",
        "虎卫新兵 攻击",
        "黄巾信徒 死去",
        // The log in English too.
        "play Tiger Guard Recruit in 陣地 3, tapping",
        "Yellow Turban Zealot dies",
    ] {
        assert!(text.contains(want), "missing {want:?} in:\n{text}");
    }
    assert!(text.contains("45 frames; turn 3"), "{text}");
    // The same game as one JSON summary.
    let out = crate::cli::run(&["duel", "table", "--source", &source, "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["frames"], 45);
    assert_eq!(v["turn"], 3);
    let log: Vec<&str> = v["log"]
        .as_array()
        .expect("log")
        .iter()
        .filter_map(|l| l.as_str())
        .collect();
    assert!(log.iter().any(|l| l.contains("黄巾信徒 死去")), "{log:?}");
    let refused = v["refused"].as_array().expect("refused");
    assert_eq!(refused.len(), 1, "{v}");
    assert_eq!(refused[0]["rule"], "整备");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn duel_table_bad_source_is_an_error_naming_it() {
    let (ok, text) = run(&[
        "duel",
        "table",
        "--source",
        "images:/no/such/dir",
        "--headless",
    ]);
    assert!(!ok, "{text}");
    assert!(text.contains("/no/such/dir"), "{text}");
}

/// Nobody can confirm a table without the window.
#[test]
fn duel_table_headless_cannot_wait_for_confirmation() {
    let (ok, text) = run(&[
        "duel",
        "table",
        "--source",
        "synthetic:3",
        "--headless",
        "--confirm",
        "every",
    ]);
    assert!(!ok, "{text}");
    assert!(text.contains("--confirm stable"), "{text}");
}

#[test]
fn duel_print_writes_every_face_the_back_and_the_mat() {
    let dir = std::env::temp_dir().join(format!("arbiter-duel-print-{}", std::process::id()));
    let (ok, text) = run(&["print", "--game", "duel", "--out", dir.to_str().unwrap()]);
    assert!(ok, "{text}");
    for f in ["back.png", "wei-01.png", "mat-duel-2x5.png", "sheet-01.png"] {
        assert!(dir.join(f).is_file(), "{f} missing: {text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The engine's log of a headless table run (everything before the closing summary) and the
/// summary's game state (turn, life, stack, refusals), without what differs between runs (the
/// resume marker, frame counts, timings; a refusal is printed when it happens, not replayed).
fn game_log(text: &str) -> (Vec<String>, String) {
    let log = text
        .lines()
        .take_while(|l| !l.contains(" frames; turn "))
        .filter(|l| !l.starts_with("-- resumed") && !l.starts_with("journal:"))
        .filter(|l| !l.starts_with("warning:") && !l.starts_with("note:"))
        .filter(|l| !l.starts_with("!! refused"))
        .map(str::to_string)
        .collect();
    let state = text
        .lines()
        .find_map(|l| {
            let from = l.find("turn ")?;
            let to = l.find("; scan median")?;
            Some(l[from..to].to_string())
        })
        .unwrap_or_default();
    (log, state)
}

/// SIGKILL at random points of a Duel table game read from rendered frames, each time resumed
/// from its journal: the finished game's log is the uninterrupted game's, line for line (no
/// committed step lost, none taken twice, no illegal state).
#[test]
fn duel_table_killed_twenty_times_resumes_to_the_same_game() {
    let dir = std::env::temp_dir().join(format!("arbiter-duel-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let frames = dir.join("frames");
    render_scripted_game(&frames);
    let source = format!("images:{}", frames.display());
    let whole = dir.join("whole.jsonl");
    let (ok, text) = run(&[
        "duel",
        "table",
        "--headless",
        "--source",
        &source,
        "--journal",
        whole.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    let want = game_log(&text);
    assert!(want.0.len() > 10 && want.1.contains("1 refused"), "{text}");

    let journal = dir.join("killed.jsonl");
    let journal_arg = journal.to_str().unwrap().to_string();
    let kills = crate::cli::kill_twenty_times(
        &["duel", "table", "--headless", "--source", &source],
        &journal,
        0x2545_f491_4f6c_dd1d,
    );
    // Replay what the journal holds, then play the frames it had not reached.
    let (ok, text) = run(&[
        "duel",
        "table",
        "--headless",
        "--source",
        &source,
        "--resume",
        &journal_arg,
    ]);
    assert!(ok, "{text}");
    // A refusal is said, not committed: a run killed after saying it does not say it again.
    let committed = |(log, state): (Vec<String>, String)| {
        let state: Vec<&str> = state
            .split("; ")
            .filter(|p| !p.ends_with(" refused"))
            .collect();
        (log, state.join("; "))
    };
    assert_eq!(
        committed(game_log(&text)),
        committed(want),
        "after {kills} kills"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn duel_table_refuses_a_journal_of_another_game_naming_it() {
    let dir = std::env::temp_dir().join(format!("arbiter-duel-wrong-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("fof.jsonl");
    std::fs::write(
        &path,
        "{\"game\":\"fof\",\"format\":1,\"seed\":1,\"headless\":true,\"catalogue\":\"0\"}\n",
    )
    .unwrap();
    let (ok, text) = run(&[
        "duel",
        "table",
        "--headless",
        "--resume",
        path.to_str().unwrap(),
    ]);
    assert!(!ok, "{text}");
    assert!(text.contains("fof.jsonl:1: a fof journal"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The players' own catalogue and decks at the table: read from the files (a renamed card is
/// said by its new name), kept whole in the journal (the game resumes with the files gone), and a
/// bad deck refused naming its file before anything is written.
#[test]
fn duel_table_plays_the_catalogue_and_decks_given_and_resumes_without_them() {
    let dir = std::env::temp_dir().join(format!("arbiter-duel-data-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let shipped = crate::cli::root().join("models/catalogues/duel");
    let catalogue = std::fs::read_to_string(shipped.join("demo.toml")).unwrap();
    assert!(catalogue.contains("en = \"Yellow Turban Zealot\""));
    let renamed = dir.join("ours.toml");
    std::fs::write(
        &renamed,
        catalogue.replace(
            "en = \"Yellow Turban Zealot\"",
            "en = \"Yellow Turban Devotee\"",
        ),
    )
    .unwrap();
    let near = dir.join("near.toml");
    std::fs::copy(shipped.join("deck-wei.toml"), &near).unwrap();
    let journal = dir.join("game.jsonl");
    let synthetic = |extra: &[&str]| {
        let mut args = vec!["duel", "table", "--headless", "--source", "synthetic:3"];
        args.extend_from_slice(extra);
        run(&args)
    };
    let (ok, text) = synthetic(&[
        "--catalogue",
        renamed.to_str().unwrap(),
        "--deck-near",
        near.to_str().unwrap(),
        "--journal",
        journal.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    assert!(text.contains("Yellow Turban Devotee dies"), "{text}");
    assert!(!text.contains("Zealot"), "{text}");
    std::fs::remove_file(&renamed).unwrap();
    std::fs::remove_file(&near).unwrap();
    let (ok, resumed) = run(&[
        "duel",
        "table",
        "--headless",
        "--resume",
        journal.to_str().unwrap(),
    ]);
    assert!(ok, "{resumed}");
    assert!(resumed.contains("Yellow Turban Devotee dies"), "{resumed}");

    let bad = dir.join("bad-deck.toml");
    std::fs::write(&bad, "[deck]\nmain = [\n").unwrap();
    let fresh = dir.join("never.jsonl");
    let (ok, text) = synthetic(&[
        "--deck-far",
        bad.to_str().unwrap(),
        "--journal",
        fresh.to_str().unwrap(),
    ]);
    assert!(!ok, "{text}");
    assert!(text.contains("bad-deck.toml:"), "{text}");
    assert!(!fresh.exists(), "a refused deck writes no journal");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `duel eval-table --outcomes FILE`: one JSON line a scene, with where each card was read.
#[test]
fn duel_eval_table_writes_each_scenes_outcome() {
    let scenes =
        crate::cli::eval_outcomes(&["duel", "eval-table", "--seed", "900", "--scenes", "2"]);
    assert_eq!(scenes.len(), 2, "{scenes:?}");
    assert_eq!(scenes[0]["seed"], 900);
    let cards = scenes[0]["cards"].as_array().expect("cards");
    assert!(!cards.is_empty());
    // Where each card was read is kept (seed 900 is a floor test's scene: its cards are read).
    assert!(
        cards.iter().any(|c| c["read_place"].is_object()),
        "{scenes:?}"
    );
}

/// The Blitz-only vision commands offered `--game duel` and refused it with a stale reason; they
/// now say which commands read the Duel table.
#[test]
fn scan_with_the_duel_game_points_to_the_duel_table_commands() {
    let out = crate::cli::run(&["scan", "--game", "duel", "nothing.jpg"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("arbiter duel table"), "{err}");
    assert!(err.contains("arbiter duel eval-table"), "{err}");
}
