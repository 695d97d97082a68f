//! `arbiter message …` end to end: the chain ruling a table would ask for, the data check and
//! seeded self-play.

use crate::cli::run_combined as run;

#[test]
fn issue_6_message_chain_seed_example_ends_with_e() {
    let (ok, text) = run(&[
        "message",
        "chain",
        "--players",
        "6",
        "--sender",
        "1",
        "--method",
        "密电",
        "--response",
        "2:拒绝",
        "--response",
        "4:截获",
        "--response",
        "6:截获",
        "--response",
        "2:截获",
        "--response",
        "5:截获",
    ]);
    assert!(ok, "{text}");
    assert!(text.contains("→ 玩家5获得情报"), "{text}");
    assert!(
        text.contains("后发先至"),
        "the ruling cites the rule: {text}"
    );
}

#[test]
fn issue_6_message_chain_json_names_receiver_and_refusals() {
    let (ok, text) = run(&[
        "message",
        "chain",
        "--players",
        "5",
        "--sender",
        "1",
        "--method",
        "secret",
        "--response",
        "1:锁定:3",
        "--response",
        "3:退回",
        "--json",
    ]);
    assert!(ok, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert_eq!(v["receiver"], 2, "seat 3 (0-based 2) is locked: {text}");
    assert_eq!(v["refused"].as_array().map(Vec::len), Some(1), "{text}");
    assert!(text.contains("若你被先锁定了"), "{text}");
}

#[test]
fn issue_6_message_chain_direct_needs_a_target_and_bad_input_is_explained() {
    let (ok, text) = run(&[
        "message",
        "chain",
        "--players",
        "5",
        "--sender",
        "1",
        "--method",
        "直达",
    ]);
    assert!(!ok && text.contains("--target"), "{text}");
    let (ok, text) = run(&[
        "message",
        "chain",
        "--players",
        "5",
        "--sender",
        "1",
        "--method",
        "密电",
        "--response",
        "3:飞刀",
    ]);
    assert!(!ok && text.contains("3:截获"), "{text}");
    let (ok, text) = run(&[
        "message",
        "chain",
        "--players",
        "12",
        "--sender",
        "1",
        "--method",
        "密电",
    ]);
    assert!(!ok && text.contains("3 to 9"), "{text}");
}

#[test]
fn issue_6_message_check_summarises_the_shipped_data() {
    let (ok, text) = run(&["message", "check"]);
    assert!(ok, "{text}");
    assert!(
        text.contains("81 cards (25 red, 25 blue, 31 black)"),
        "{text}"
    );
    assert!(text.contains("40 from the seed, 41 assumed"), "{text}");
    assert!(text.contains("DEMO"), "{text}");
}

#[test]
fn issue_6_message_check_names_file_and_line_of_a_bad_deck() {
    let dir = std::env::temp_dir().join(format!("arbiter-message-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("deck.toml");
    let shipped =
        std::fs::read_to_string(crate::cli::root().join("models/catalogues/message/deck.toml"))
            .unwrap();
    std::fs::write(
        &file,
        shipped.replacen("windows = [\"decision\"]", "windows = [\"transit\"]", 1),
    )
    .unwrap();
    let (ok, text) = run(&["message", "check", "--deck", file.to_str().unwrap()]);
    assert!(!ok, "{text}");
    assert!(
        text.contains("deck.toml:") && text.contains("kind[3].windows"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn message_data_that_cannot_seat_a_table_names_its_files() {
    let dir = std::env::temp_dir().join(format!("arbiter-message-one-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("one-character.toml");
    let shipped = std::fs::read_to_string(
        crate::cli::root().join("models/catalogues/message/characters.toml"),
    )
    .unwrap();
    let first = shipped
        .split("\n[[character]]\n")
        .take(2)
        .collect::<Vec<_>>();
    std::fs::write(&file, first.join("\n[[character]]\n")).unwrap();
    let path = file.to_str().unwrap();
    let (ok, text) = run(&["message", "check", "--characters", path]);
    assert!(ok, "the data parse; only set-ups fail: {text}");
    for players in 3..=9 {
        assert!(
            text.contains(&format!("{players} players cannot be set up")),
            "{text}"
        );
    }
    assert!(text.contains(&format!("characters {path}")), "{text}");
    let (ok, text) = run(&[
        "message",
        "selfplay",
        "--players",
        "5",
        "--characters",
        path,
    ]);
    assert!(!ok, "{text}");
    assert!(
        text.contains("5 players cannot be set up") && text.contains(&format!("characters {path}")),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn issue_6_message_selfplay_is_seeded_and_ends() {
    let (ok, a) = run(&["message", "selfplay", "--players", "7", "--seed", "11"]);
    assert!(ok, "{a}");
    let (_, b) = run(&["message", "selfplay", "--players", "7", "--seed", "11"]);
    assert_eq!(a, b, "same seed, same game");
    assert!(a.contains("winners") || a.contains("draw"), "{a}");
}

#[test]
fn issue_6_message_tally_announces_death_and_possible_victory() {
    let (ok, text) = run(&[
        "message",
        "tally",
        "--seat",
        "红红",
        "--seat",
        "黑黑黑",
        "--seat",
        "rrr",
    ]);
    assert!(ok, "{text}");
    assert!(
        text.contains("玩家2有3张假情报") && text.contains("风声规则 死亡"),
        "{text}"
    );
    assert!(
        text.contains("玩家3有三张红情报") && text.contains("潜伏战线"),
        "{text}"
    );
    assert!(!text.contains("玩家1"), "{text}");
    let (ok, text) = run(&["message", "tally", "--seat", "红绿"]);
    assert!(!ok && text.contains("--seat 1"), "{text}");
}

/// Renders the scripted game in progress (seat 1 gets three black, seat 3 three red) into `out`:
/// its frames, seats.json and truth.json.
fn render_scripted_game(out: &std::path::Path) {
    let (ok, text) = run(&[
        "message",
        "render-scene",
        "--game",
        "--seed",
        "3",
        "--script",
        "kkk,rr,rrr,u",
        "--width",
        "1280",
        "--height",
        "720",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
}

/// The scripted game in progress read by the headless table with the seat regions the renderer
/// wrote.
#[test]
fn issue_6_message_table_headless_tallies_rendered_frames_and_announces() {
    let dir = std::env::temp_dir().join(format!("arbiter-message-table-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    render_scripted_game(&dir);
    assert!(dir.join("seats.json").is_file() && dir.join("frame-0000.png").is_file());
    let source = format!("images:{out}");
    let seats = dir.join("seats.json");
    let (ok, text) = run(&[
        "message",
        "table",
        "--source",
        &source,
        "--seats",
        seats.to_str().unwrap(),
        "--headless",
    ]);
    assert!(ok, "{text}");
    assert!(
        text.contains("玩家1有3张假情报") && text.contains("风声规则 死亡"),
        "{text}"
    );
    assert!(
        text.contains("玩家3有三张红情报") && text.contains("请亮出身份"),
        "{text}"
    );
    assert!(
        text.contains("玩家2 红2蓝0黑0") && text.contains("玩家4 红0蓝1黑0"),
        "final tally: {text}"
    );
    // The death is announced before the possible victory that came later in the game.
    assert!(text.find("假情报").unwrap() < text.find("三张红情报").unwrap());
    let (ok, text) = run(&["message", "table", "--source", &source, "--headless"]);
    assert!(!ok && text.contains("--seats"), "{text}");
    // Regions drawn on another camera size are refused, not silently misapplied.
    let other = dir.join("other-seats.json");
    let drawn = std::fs::read_to_string(&seats).unwrap();
    std::fs::write(&other, drawn.replacen("1280", "1920", 1)).unwrap();
    let (ok, text) = run(&[
        "message",
        "table",
        "--source",
        &source,
        "--seats",
        other.to_str().unwrap(),
        "--headless",
    ]);
    assert!(
        !ok && text.contains("set them again") && text.contains("other-seats.json"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn issue_6_message_print_writes_one_face_per_kind_and_deck_sheets() {
    let dir = std::env::temp_dir().join(format!("arbiter-message-print-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (ok, text) = run(&["print", "--game", "message", "--out", dir.to_str().unwrap()]);
    assert!(ok, "{text}");
    assert!(dir.join("lock-black.png").is_file(), "{text}");
    assert!(
        dir.join("deck-sheet-09.png").is_file(),
        "81 cards, nine a page: {text}"
    );
    assert!(!dir.join("deck-sheet-10.png").exists(), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn issue_6_message_render_scene_writes_image_truth_and_seats() {
    let dir = std::env::temp_dir().join(format!("arbiter-message-scene-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (ok, text) = run(&[
        "message",
        "render-scene",
        "--seed",
        "7",
        "--seats",
        "6",
        "--width",
        "960",
        "--height",
        "540",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(ok && text.contains("6 seats"), "{text}");
    assert!(dir.join("scene.png").is_file());
    let truth: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("truth.json")).unwrap()).unwrap();
    assert_eq!(truth["seats"], 6);
    assert_eq!(truth["params"]["seed"], 7);
    let seats: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("seats.json")).unwrap()).unwrap();
    assert_eq!(seats["seats"].as_array().map(Vec::len), Some(6));
    assert_eq!(seats["image_size"], serde_json::json!([960, 540]));
    let (ok, text) = run(&[
        "message",
        "render-scene",
        "--script",
        "kk,r",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(!ok && text.contains("3 to 9"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// SIGKILL at random points of a 风声 table read from rendered frames, each time resumed from its
/// journal: the finished table (tallies, deaths, every announcement once) is the uninterrupted
/// one's.
#[test]
fn message_table_killed_twenty_times_resumes_to_the_same_table() {
    let dir = std::env::temp_dir().join(format!("arbiter-message-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let frames = dir.join("frames");
    render_scripted_game(&frames);
    let source = format!("images:{}", frames.display());
    let seats = frames.join("seats.json");
    let summary = |text: &str| -> serde_json::Value {
        let start = text.find("{\n").expect("a JSON summary");
        let v: serde_json::Value = serde_json::Deserializer::from_str(&text[start..])
            .into_iter()
            .next()
            .expect("a JSON value")
            .expect("JSON");
        serde_json::json!({"tallies": v["tallies"], "said": v["said"], "dead": v["dead"]})
    };
    let base = [
        "message",
        "table",
        "--headless",
        "--json",
        "--source",
        source.as_str(),
        "--seats",
        seats.to_str().unwrap(),
    ];
    let (ok, text) = run(&base);
    assert!(ok, "{text}");
    let want = summary(&text);
    assert!(
        want["said"].as_array().is_some_and(|s| s.len() >= 2),
        "{want}"
    );

    let journal = dir.join("killed.jsonl");
    let journal_arg = journal.to_str().unwrap().to_string();
    let kills = crate::cli::kill_twenty_times(&base, &journal, 0x9e37_79b9_7f4a_7c15);
    let mut resume = base.to_vec();
    resume.extend(["--resume", journal_arg.as_str()]);
    let (ok, text) = run(&resume);
    assert!(ok, "{text}");
    assert_eq!(summary(&text), want, "after {kills} kills");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `message eval` reports as a table by condition (no debug dump), and reads the second
/// compositor's tables with --scenes-dir, as JSON too.
#[test]
fn message_eval_reports_by_condition_as_a_table_or_json() {
    let (ok, text) = run(&["message", "eval", "--scenes", "2", "--seed", "1000"]);
    assert!(ok, "{text}");
    assert!(!text.contains("MessageSummary"), "{text}");
    assert!(
        text.contains("found%") && text.contains("placement"),
        "{text}"
    );
    assert!(
        text.contains("frames the table counts nothing from"),
        "the frames held for a hand are reported: {text}"
    );
    let dir = crate::cli::root().join("vision/tests/fixtures/message-tables");
    let out = crate::cli::run(&[
        "message",
        "eval",
        "--scenes-dir",
        dir.to_str().unwrap(),
        "--scenes",
        "1",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["summary"]["scenes"], 1);
    assert!(
        v["by_condition"].as_array().is_some_and(|r| !r.is_empty()),
        "{v}"
    );
    let (ok, text) = run(&["message", "eval", "--scenes-dir", "/no/such/folder"]);
    assert!(
        !ok && text.contains("/no/such/folder/manifest.json"),
        "{text}"
    );
}

/// Nobody can confirm a count without the window.
#[test]
fn message_table_headless_cannot_wait_for_confirmation() {
    let (ok, text) = run(&[
        "message",
        "table",
        "--source",
        "synthetic",
        "--headless",
        "--confirm",
        "first-round",
    ]);
    assert!(!ok, "{text}");
    assert!(text.contains("--confirm stable"), "{text}");
}

/// The players' own deck at the table: checked before anything is written (an error names the
/// file), kept whole in the journal (the table resumes with the file gone).
#[test]
fn message_table_keeps_the_deck_given_and_resumes_without_it() {
    let dir = std::env::temp_dir().join(format!("arbiter-message-data-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let deck = dir.join("our-deck.toml");
    std::fs::copy(
        crate::cli::root().join("models/catalogues/message/deck.toml"),
        &deck,
    )
    .unwrap();
    let journal = dir.join("table.jsonl");
    let synthetic = |extra: &[&str]| {
        let mut args = vec!["message", "table", "--source", "synthetic", "--headless"];
        args.extend_from_slice(extra);
        run(&args)
    };
    let (ok, text) = synthetic(&[
        "--deck",
        deck.to_str().unwrap(),
        "--journal",
        journal.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    let header = std::fs::read_to_string(&journal).unwrap();
    let header = header.lines().next().unwrap();
    assert!(header.contains("our-deck.toml"), "{header}");
    std::fs::remove_file(&deck).unwrap();
    let (ok, resumed) = synthetic(&["--resume", journal.to_str().unwrap()]);
    assert!(ok, "{resumed}");

    let bad = dir.join("bad-deck.toml");
    std::fs::write(&bad, "[[card]]\nname = \n").unwrap();
    let fresh = dir.join("never.jsonl");
    let (ok, text) = synthetic(&[
        "--deck",
        bad.to_str().unwrap(),
        "--journal",
        fresh.to_str().unwrap(),
    ]);
    assert!(!ok, "{text}");
    assert!(text.contains("bad-deck.toml"), "{text}");
    assert!(!fresh.exists(), "a refused deck writes no journal");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Headless corrections: `--correct` moves a seat's count on top of the camera's (seat 2 is
/// read with two red; one black more there is in the final tally), is journalled (a resumed table
/// keeps it, and `SEAT:clear` takes it back), and a seat the table has not or a count below zero
/// is refused naming the option.
#[test]
fn message_table_headless_corrections_are_kept_journalled_and_undone() {
    let dir = std::env::temp_dir().join(format!("arbiter-message-correct-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    render_scripted_game(&dir);
    let source = format!("images:{}", dir.display());
    let seats = dir.join("seats.json");
    let journal = dir.join("table.jsonl");
    let table = |extra: &[&str]| {
        let mut args = vec![
            "message",
            "table",
            "--source",
            source.as_str(),
            "--seats",
            seats.to_str().unwrap(),
            "--headless",
        ];
        args.extend_from_slice(extra);
        run(&args)
    };
    let (ok, text) = table(&[
        "--correct",
        "2:black:+1",
        "--journal",
        journal.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    assert!(text.contains("--correct: 玩家2 已修正"), "{text}");
    assert!(text.contains("玩家2 红2蓝0黑1"), "final tally: {text}");
    let (ok, text) = table(&["--resume", journal.to_str().unwrap()]);
    assert!(ok, "{text}");
    assert!(text.contains("玩家2 红2蓝0黑1"), "kept on resume: {text}");
    let (ok, text) = table(&[
        "--resume",
        journal.to_str().unwrap(),
        "--correct",
        "2:clear",
    ]);
    assert!(ok, "{text}");
    assert!(text.contains("correction cleared"), "{text}");
    assert!(
        text.contains("玩家2 红2蓝0黑0"),
        "the camera's count again: {text}"
    );
    for (bad, says) in [
        ("9:black:+1", "the table has 4 seats"),
        ("2:blue:-1", "below zero"),
        ("2:green:+1", "no intelligence colour"),
        ("2:black", "expected SEAT:COLOUR"),
    ] {
        let (ok, text) = table(&["--correct", bad]);
        assert!(!ok, "{bad} accepted: {text}");
        assert!(text.contains(says), "{bad}: {text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `message eval --outcomes FILE`: one JSON line a scene, with each card's outline as read.
#[test]
fn message_eval_writes_each_scenes_outcome() {
    let scenes = crate::cli::eval_outcomes(&["message", "eval", "--scenes", "1", "--seed", "1000"]);
    assert_eq!(scenes.len(), 1, "{scenes:?}");
    let cards = scenes[0]["cards"].as_array().expect("cards");
    assert!(
        cards.iter().any(|c| c["read"]["corners"].is_array()),
        "{scenes:?}"
    );
}
