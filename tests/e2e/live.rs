//! Issue 4: the scripted demo through tracker → adapter → engine, and a game that survives a kill.

use crate::cli::{arbiter, run};
use std::process::Stdio;
use std::time::Duration;

#[test]
fn issue_4_demo_recognises_the_script_and_ends_in_victory() {
    let out = run(&["demo", "--headless", "--ground-truth", "--json"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON summary");
    assert_eq!(summary["matches_script"], true, "{summary}");
    assert_eq!(summary["outcome"]["rule"], "胜利条件 3");
    assert!(summary["recognised_actions"].as_u64().unwrap() > 60);
}

#[test]
fn issue_4_demo_flags_the_illegal_moves_and_shows_the_joint_attack_and_removal() {
    let out = run(&["demo", "--headless", "--ground-truth"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("ILLEGAL (部署阶段规则 2)"), "{text}");
    assert!(text.contains("ILLEGAL (攻防阶段规则 4)"), "{text}");
    assert!(text.contains("attack us-u01+us-u19 ss-u04"), "{text}");
    assert!(text.contains("部署阶段规则 6"), "{text}");
    assert!(text.contains("盟军获胜"), "{text}");
}

#[test]
fn issue_4_a_killed_demo_resumes_with_no_committed_action_lost() {
    let dir = std::env::temp_dir().join(format!("arbiter-kill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let journal = dir.join("game.jsonl");
    let _ = std::fs::remove_file(&journal);
    let mut child = arbiter()
        .args([
            "demo",
            "--headless",
            "--ground-truth",
            "--frame-delay-ms",
            "3",
            "--journal",
        ])
        .arg(&journal)
        .stdout(Stdio::null())
        .spawn()
        .expect("start the demo");
    // Kill it mid-game: once a few actions are in the journal (the machine may be slow to start it).
    let started = std::time::Instant::now();
    while started.elapsed() < Duration::from_secs(30) {
        let lines = std::fs::read_to_string(&journal)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if lines > 12 {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("kill");
    child.wait().unwrap();
    let written = std::fs::read_to_string(&journal).expect("journal");
    // A line cut off by the kill is not committed: count the complete ones.
    let complete = |l: &&str| serde_json::from_str::<serde_json::Value>(l).is_ok();
    let committed = written
        .lines()
        .skip(1)
        .filter(complete)
        .filter(|l| l.contains("\"Action\""))
        .count();
    assert!(
        committed > 3,
        "the demo got going before the kill ({committed} actions)"
    );

    let out = run(&["play", "--headless", "--resume", journal.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let replayed = text.lines().filter(|l| l.contains(" → ok")).count();
    assert_eq!(replayed, committed, "{text}");
    assert!(!text.contains("ILLEGAL"), "{text}");
}

#[test]
fn issue_4_demo_through_the_renderer_and_the_vision_pipeline_equals_the_script() {
    // Each table is rendered by the synthetic camera (seed 2) and read back by the scanner.
    let out = run(&["demo", "--headless", "--camera-seed", "2", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON summary");
    assert_eq!(summary["matches_script"], true, "{summary}");
    assert_eq!(summary["outcome"]["rule"], "胜利条件 3");
}

#[test]
fn issue_4_play_reads_frames_from_an_image_source_through_the_vision_pipeline() {
    let dir = std::env::temp_dir().join(format!("arbiter-frames-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let frames = dir.join("frames");
    std::fs::create_dir_all(&frames).unwrap();
    crate::cli::render_blitz_scene(3, &frames);
    // Only the image is a frame; the ground truth beside it is not.
    for entry in std::fs::read_dir(&frames).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            std::fs::remove_file(path).unwrap();
        }
    }
    let journal = dir.join("game.jsonl");
    let source = format!("images:{}", frames.display());
    let out = run(&[
        "play",
        "--headless",
        "--mat",
        "--source",
        &source,
        "--journal",
        journal.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("Opening hand"),
        "the game waits for the opening hands: {text}"
    );
    // How fast the loop went, without a window: an image folder knows no recorded rate.
    let pace = text
        .lines()
        .find(|l| l.starts_with("live loop without a window:"))
        .unwrap_or_else(|| panic!("no pace reported: {text}"));
    assert!(
        pace.contains("frames a second")
            && pace.contains("ms median")
            && !pace.contains("recorded"),
        "{pace}"
    );
    assert!(journal.exists(), "a new game keeps its journal");
    let out = run(&[
        "play",
        "--headless",
        "--source",
        "images:/no/such/folder",
        "--journal",
        dir.join("other.jsonl").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/folder"));
    assert!(
        !dir.join("other.jsonl").exists(),
        "a source that cannot open leaves no journal"
    );
}

#[test]
fn issue_8_play_with_a_missing_model_names_it_and_writes_no_journal() {
    let dir = std::env::temp_dir().join(format!("arbiter-model-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let frames = dir.join("frames");
    std::fs::create_dir_all(&frames).unwrap();
    crate::cli::render_blitz_scene(3, &frames);
    let journal = dir.join("game.jsonl");
    let out = run(&[
        "play",
        "--headless",
        "--source",
        &format!("images:{}", frames.join("scene-3.png").display()),
        "--identifier",
        "fused",
        "--model",
        "/nonexistent/card_embed.tflite",
        "--journal",
        journal.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/card_embed.tflite"), "{err}");
    assert!(
        !journal.exists(),
        "no game is started without its identifier"
    );
}

/// The catalogue and profile a player edits are the ones that run: `play --catalogue --profile`
/// names the catalogue (with its fingerprint) and keeps the profile in the journal; a catalogue
/// changed since is refused on resume, naming the journal and the file; a bad profile names its
/// file.
#[test]
fn play_runs_on_the_players_catalogue_and_profile_and_a_changed_catalogue_cannot_resume() {
    let dir = std::env::temp_dir().join(format!("arbiter-own-catalogue-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let frames = dir.join("frames");
    std::fs::create_dir_all(&frames).unwrap();
    crate::cli::render_blitz_scene(3, &frames);
    let root = crate::cli::root();
    let catalogue = dir.join("my-cards.toml");
    std::fs::copy(root.join("models/catalogues/blitz.toml"), &catalogue).unwrap();
    let profile = dir.join("my-rules.toml");
    let shipped = std::fs::read_to_string(root.join("models/profiles/blitz.toml")).unwrap();
    std::fs::write(&profile, format!("{shipped}\n")).unwrap();
    let journal = dir.join("game.jsonl");
    let source = format!("images:{}", frames.join("scene-3.png").display());
    let play = |extra: &[&str]| {
        let mut args = vec!["play", "--headless", "--mat", "--source", &source];
        args.extend_from_slice(extra);
        run(&args)
    };
    let out = play(&[
        "--catalogue",
        catalogue.to_str().unwrap(),
        "--profile",
        profile.to_str().unwrap(),
        "--journal",
        journal.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let header = std::fs::read_to_string(&journal).unwrap();
    let header = header.lines().next().unwrap();
    assert!(
        header.contains("my-cards.toml") && header.contains("fingerprint"),
        "{header}"
    );
    let out = play(&["--resume", journal.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "the same catalogue resumes: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The player edits the catalogue: the game cannot be replayed on other cards.
    let text = std::fs::read_to_string(&catalogue).unwrap();
    std::fs::write(&catalogue, format!("{text}\n# edited\n")).unwrap();
    let out = play(&["--resume", journal.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("game.jsonl:1") && err.contains("my-cards.toml") && err.contains("changed"),
        "{err}"
    );
    // A profile that is not one names its file.
    std::fs::write(&profile, "[blitz]\nno_such_option = 1\n").unwrap();
    let out = play(&[
        "--profile",
        profile.to_str().unwrap(),
        "--journal",
        dir.join("other.jsonl").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("my-rules.toml"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
