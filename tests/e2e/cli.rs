//! Runs the built `arbiter` binary as a user would (scripts/test.sh builds it before the tests).

use std::path::PathBuf;
use std::process::{Command, Output};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub fn arbiter() -> Command {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"));
    let exe = target.join("debug").join("arbiter");
    assert!(
        exe.exists(),
        "{} is missing: build it first (cargo build -p arbiter)",
        exe.display()
    );
    let mut cmd = Command::new(exe);
    cmd.current_dir(root());
    cmd
}

pub fn run(args: &[&str]) -> Output {
    arbiter().args(args).output().expect("run arbiter")
}

/// Renders Blitz scene `seed` into `out` (scene-SEED.png and its truth JSON) and returns the image.
pub fn render_blitz_scene(seed: u64, out: &std::path::Path) -> PathBuf {
    let result = run(&[
        "render-scene",
        "--seed",
        &seed.to_string(),
        "--out",
        out.to_str().expect("a UTF-8 temp path"),
    ]);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    out.join(format!("scene-{seed}.png"))
}

/// Success, and stdout followed by stderr.
pub fn run_combined(args: &[&str]) -> (bool, String) {
    let out = run(args);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn help_lists_the_games() {
    let out = run(&["--help"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("blitz"), "{text}");
}

#[test]
fn issue_2_blitz_replay_prints_every_action_with_its_ruling() {
    let out = run(&["blitz", "replay", "models/scenarios/blitz/demo-2p.toml"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("ILLEGAL (部署阶段规则 2)"), "{text}");
    assert!(text.contains("is destroyed"), "{text}");
    assert!(text.contains("盟军获胜"), "{text}");
}

#[test]
fn issue_2_blitz_replay_json_has_the_outcome() {
    let out = run(&[
        "blitz",
        "replay",
        "models/scenarios/blitz/demo-2p.toml",
        "--json",
    ]);
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["outcome"]["rule"], "胜利条件 3");
    assert!(report["rulings"].as_array().is_some_and(|r| r.len() > 50));
    assert_eq!(report["failures"].as_array().map(Vec::len), Some(0));
}

#[test]
fn issue_2_blitz_replay_of_a_broken_file_names_file_and_line() {
    let dir = std::env::temp_dir().join(format!("arbiter-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("broken.toml");
    std::fs::write(
        &file,
        "name = \"x\"\nplayers = [\"us\", \"ss\"]\nseed = \"seven\"\nscript = \"\"\n",
    )
    .unwrap();
    let out = run(&["blitz", "replay", file.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("broken.toml:3"), "{err}");
    let out = run(&["blitz", "replay", "no/such/file.toml"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no/such/file.toml"));
}

#[test]
fn issue_2_blitz_check_passes_every_golden_scenario() {
    let out = run(&["blitz", "check"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains(" 0 failed"), "{text}");
    let out = run(&["blitz", "check", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let scenarios = v["scenarios"].as_array().expect("scenarios");
    assert!(scenarios.len() >= 5, "{v}");
    assert_eq!(v["failed"], 0);
    assert!(scenarios
        .iter()
        .all(|s| s["passed"] == true && s["file"].is_string()));
    // A folder with no scenario is nothing checked: an error, not a pass.
    let empty = std::env::temp_dir().join(format!("arbiter-no-scenarios-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let out = run(&["blitz", "check", empty.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no scenario files"));
    std::fs::remove_dir_all(&empty).ok();
}

/// Every command that reads shipped files (models, scenarios) works from any working directory,
/// and a player's enrolled prints go to their own data folder, not into the working directory.
#[test]
fn commands_work_from_another_directory() {
    let dir = std::env::temp_dir().join(format!("arbiter-anywhere-{}", std::process::id()));
    let data = dir.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let scene = render_blitz_scene(21, &dir);
    let scene = scene.to_str().unwrap();
    let face = dir.join("faces");
    let runs: Vec<Vec<&str>> = vec![
        vec!["scan", "--game", "blitz", "--json", scene],
        vec![
            "scan",
            "--game",
            "blitz",
            "--detector",
            "both",
            "--json",
            scene,
        ],
        vec!["blitz", "check"],
        vec!["demo", "--headless"],
        vec![
            "eval-vision",
            "--game",
            "blitz",
            "--scenes",
            "2",
            "--camera",
            "any",
        ],
        vec!["print", "--game", "blitz", "--out", face.to_str().unwrap()],
    ];
    for args in runs {
        let out = arbiter()
            .current_dir(&dir)
            .env("XDG_DATA_HOME", &data)
            .args(&args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?} from {}: {}{}",
            dir.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // The default identifier is the fused one, which needs the model: it was found.
    let out = arbiter()
        .current_dir(&dir)
        .args(["scan", "--game", "blitz", "--json", scene])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("us-") || text.contains("ss-"), "{text}");
    let card = face.join("us-u01.png");
    let card = if card.exists() {
        card
    } else {
        std::fs::read_dir(&face)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .find(|p| p.extension().is_some_and(|x| x == "png"))
            .unwrap()
    };
    let id = card.file_stem().unwrap().to_str().unwrap().to_string();
    // The printed face lying on a grey table, at about webcam size.
    let photo = dir.join("photo.png");
    let made = Command::new("convert")
        .arg(&card)
        .args([
            "-resize",
            "124x173!",
            "-background",
            "gray35",
            "-gravity",
            "center",
        ])
        .args(["-extent", "300x300"])
        .arg(&photo)
        .status()
        .expect("ImageMagick's convert (scripts/setup.sh installs it)");
    assert!(made.success());
    let out = arbiter()
        .current_dir(&dir)
        .env("XDG_DATA_HOME", &data)
        .args([
            "enroll",
            "--game",
            "blitz",
            "--id",
            &id,
            "--json",
            photo.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let enrolled: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(enrolled["id"], id.as_str());
    assert_eq!(enrolled["embedding"], true, "{enrolled}");
    let refs = data.join("arbiter").join("enrolled.json");
    assert_eq!(enrolled["refs"].as_str(), refs.to_str());
    assert!(refs.exists());
    assert!(
        !dir.join("models").exists(),
        "nothing written into the working directory's models/"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs an eval command with `--outcomes FILE` added and returns the JSON lines it wrote there
/// (one a scene), asserting it succeeded.
pub fn eval_outcomes(args: &[&str]) -> Vec<serde_json::Value> {
    let dir = std::env::temp_dir().join(format!(
        "arbiter-outcomes-{}-{}",
        args.join("-"),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("outcomes.jsonl");
    let mut with_file = args.to_vec();
    with_file.extend(["--outcomes", file.to_str().unwrap()]);
    let (ok, text) = run_combined(&with_file);
    assert!(ok, "{text}");
    let written = std::fs::read_to_string(&file).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    written
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// Lines in a journal file (0 when there is none yet).
pub fn lines_in(path: &std::path::Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

/// Starts `args` with `--journal JOURNAL` (then `--resume JOURNAL` while it exists) and SIGKILLs
/// it twenty times at seeded random moments: two runs in three at any moment (the journal's replay
/// included), every third only after it journalled a step of its own, so the game moves on.
/// A run that finishes its game before its kill (a fast machine) is let finish, and a new game is
/// started in a fresh journal, so every kill falls inside a game. Returns the number of kills;
/// panics when a run fails on its own or the game was always killed at one point.
pub fn kill_twenty_times(args: &[&str], journal: &std::path::Path, seed: u64) -> usize {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let journal_arg = journal.to_str().expect("a UTF-8 path").to_string();
    let mut kill_points = std::collections::BTreeSet::new();
    let mut x = seed.max(1);
    let mut kills = 0;
    let mut games_finished = 0;
    while kills < 20 {
        let before = lines_in(journal).max(1);
        let mut cmd = arbiter();
        cmd.args(args);
        if journal.exists() {
            cmd.args(["--resume", &journal_arg]);
        } else {
            cmd.args(["--journal", &journal_arg]);
        }
        let errors = journal.with_extension("stderr");
        let mut child = cmd
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&errors).expect("a stderr file"))
            .spawn()
            .expect("start");
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let must_advance = kills % 3 == 2;
        let wait = Duration::from_millis(if must_advance { x % 300 } else { x % 600 });
        let starting = Instant::now();
        while must_advance
            && lines_in(journal) <= before
            && starting.elapsed() < Duration::from_secs(120)
        {
            if let Ok(Some(_)) = child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let started = Instant::now();
        let mut finished = false;
        while started.elapsed() < wait {
            if let Ok(Some(status)) = child.try_wait() {
                let said = std::fs::read_to_string(&errors).unwrap_or_default();
                assert!(
                    status.success(),
                    "the run after {kills} kills failed ({status}): {said}"
                );
                finished = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        if finished {
            games_finished += 1;
            assert!(
                games_finished < 20,
                "the runs keep finishing before any kill"
            );
            std::fs::remove_file(journal).expect("a finished game's journal");
            continue;
        }
        child.kill().expect("SIGKILL");
        child.wait().expect("reaped");
        kills += 1;
        kill_points.insert(lines_in(journal));
    }
    eprintln!(
        "{kills} kills, at journal lengths {kill_points:?}; {games_finished} games finished between them"
    );
    assert!(
        kill_points.len() >= 3,
        "killed at several points: {kill_points:?}"
    );
    kills
}

/// One `--source` grammar for every table command: the same words for the same mistake, and a
/// rendered table only where the command draws one.
#[test]
fn every_table_command_reads_one_source_grammar() {
    let commands: [&[&str]; 4] = [
        &[
            "play",
            "--headless",
            "--journal",
            "/tmp/arbiter-never-written.jsonl",
        ],
        &["duel", "table", "--headless"],
        &["message", "table", "--headless"],
        &["enroll-deck", "--refs", "/tmp/arbiter-never-written.json"],
    ];
    for command in commands {
        for (bad, says) in [
            (
                "webcam:0",
                "expected camera:N, video:PATH, images:DIR or synthetic[:SEED]",
            ),
            ("camera:one", "the camera number must be"),
            ("synthetic:-5", "the seed must be"),
        ] {
            let mut args = command.to_vec();
            args.extend(["--source", bad]);
            let out = run(&args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(!out.status.success(), "{args:?} accepted {bad}");
            assert!(err.contains(says), "{args:?}: {err}");
        }
    }
    let journal = "/tmp/arbiter-never-written.jsonl";
    let out = run(&[
        "play",
        "--headless",
        "--journal",
        journal,
        "--source",
        "synthetic",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("arbiter demo"), "{err}");
    let out = run(&["play", "--headless", "--journal", journal]);
    assert!(
        !out.status.success(),
        "headless with nothing to read is nothing done"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing to read"));
    for file in [journal, "/tmp/arbiter-never-written.json"] {
        assert!(
            !std::path::Path::new(file).exists(),
            "a refused source writes nothing: {file}"
        );
    }
}

/// One `print` command for every game on the table, with --json listing what it wrote.
/// `arbiter print --game GAME --out OUT --json`, which must succeed; its JSON.
fn print_json(game: &str, out: &std::path::Path) -> serde_json::Value {
    let done = run(&[
        "print",
        "--game",
        game,
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    serde_json::from_slice(&done.stdout).expect("JSON")
}

#[test]
fn one_print_command_writes_each_games_set() {
    let dir = std::env::temp_dir().join(format!("arbiter-print-all-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (game, must) in [
        ("duel", ["back.png", "mat-duel-2x5.png"]),
        ("message", ["seat-1.png", "seat-cards-sheet.png"]),
    ] {
        let out = dir.join(game);
        let v = print_json(game, &out);
        assert_eq!(v["game"], game);
        let files: Vec<String> = v["files"]
            .as_array()
            .expect("files")
            .iter()
            .filter_map(|f| f.as_str().map(str::to_string))
            .collect();
        assert!(files.len() > 30, "{game}: {} files", files.len());
        for name in must {
            assert!(files.iter().any(|f| f.ends_with(name)), "{game}: no {name}");
            assert!(
                out.join(name).exists(),
                "{game}: {name} listed but not written"
            );
        }
        // The kit: one PDF, its pages listed in order, starting with the set-up sheet.
        let pdf = out.join(format!("{game}-kit.pdf"));
        assert_eq!(v["pdf"].as_str(), pdf.to_str(), "{game}");
        let head = std::fs::read(&pdf).expect("the kit PDF");
        assert!(head.starts_with(b"%PDF-"), "{game}: not a PDF");
        let pages = v["pages"].as_array().expect("pages");
        assert_eq!(pages[0]["page"], "setup", "{game}");
        let fronts = pages.iter().filter(|p| p["page"] == "fronts").count();
        let backs = pages.iter().filter(|p| p["page"] == "backs").count();
        assert!(
            fronts > 3 && fronts == backs,
            "{game}: {fronts} fronts, {backs} backs"
        );
    }
    // Fields of Fire: the 50 demo action cards, nine a page, and nothing but the PDF.
    let out = dir.join("fof");
    let v = print_json("fof", &out);
    let pages = v["pages"].as_array().expect("pages");
    let cards: usize = pages
        .iter()
        .filter(|p| p["page"] == "fronts")
        .map(|p| p["cards"].as_array().map_or(0, Vec::len))
        .sum();
    assert_eq!(cards, 50);
    assert!(out.join("fof-kit.pdf").is_file());
    std::fs::remove_dir_all(&dir).ok();
}

/// The leaf subcommands under `path` (e.g. `["duel"]`), found by walking each `--help`'s
/// "Commands:" section, as their full paths (`duel check-deck`).
fn leaf_commands(path: &[String]) -> Vec<Vec<String>> {
    let mut args = path.to_vec();
    args.push("--help".into());
    let out = arbiter().args(&args).output().expect("run arbiter");
    let help = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{args:?}: {help}");
    let Some(start) = help.find("Commands:\n") else {
        return vec![path.to_vec()];
    };
    // A command's line starts two spaces in; wrapped descriptions are indented further.
    let names: Vec<String> = help[start + "Commands:\n".len()..]
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.strip_prefix("  "))
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect();
    assert!(!names.is_empty(), "{args:?}: no commands in {help}");
    names
        .into_iter()
        .flat_map(|name| {
            let mut sub = path.to_vec();
            sub.push(name);
            leaf_commands(&sub)
        })
        .collect()
}

/// Every leaf command that prints results takes `--json`, and with it prints one JSON value on
/// stdout (nothing else there), on shipped data, quickly and without a camera.
#[test]
fn every_command_that_prints_has_json() {
    // Leaves without a result to print: `fof panel` only opens the window on a journal.
    const NO_RESULT: [&str; 1] = ["fof panel"];
    // Leaves that have --json (checked below) but are not run here, and why.
    const NOT_RUN: [(&str, &str); 2] = [
        (
            "enroll",
            "needs a photo of a printed Blitz face (the whole print set, ~8 s): \
             commands_work_from_another_directory enrols one with --json",
        ),
        (
            "eval-cards",
            "enrols every card of an evaluation set before scoring one scene (~8 s in a debug build)",
        ),
    ];
    let leaves: Vec<String> = leaf_commands(&[])
        .into_iter()
        .map(|p| p.join(" "))
        .collect();
    assert!(leaves.len() > 20, "{leaves:?}");
    for leaf in &leaves {
        if NO_RESULT.contains(&leaf.as_str()) {
            continue;
        }
        let mut args: Vec<&str> = leaf.split(' ').collect();
        args.push("--help");
        let out = run(&args);
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(
            help.contains("--json"),
            "`arbiter {leaf}` has no --json:\n{help}"
        );
    }

    let dir = std::env::temp_dir().join(format!("arbiter-every-json-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let at = |name: &str| {
        dir.join(name)
            .to_str()
            .expect("a UTF-8 temp path")
            .to_string()
    };
    let bad_deck = at("bad-deck.toml");
    std::fs::write(
        &bad_deck,
        "format = \"constructed\"\n[main]\n\"wei-land\" = 10\n",
    )
    .unwrap();
    let journal = at("fof.jsonl");
    // A fof command's arguments on the temp journal.
    let fof = |words: &[&str]| -> Vec<String> {
        let mut args = vec!["--journal".to_string(), journal.clone()];
        args.extend(words.iter().map(|w| w.to_string()));
        args
    };
    let blocks = root().join("vision/tests/fixtures/any-cards/blocks");
    let blocks = |name: &str| blocks.join(name).to_str().unwrap().to_string();
    // (leaf, arguments after the leaf's own words, succeeds), in an order where each run finds
    // what an earlier one wrote.
    let s = |v: &[&str]| v.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    let runs: Vec<(&str, Vec<String>, bool)> = vec![
        (
            "blitz replay",
            s(&["models/scenarios/blitz/demo-2p.toml"]),
            true,
        ),
        ("blitz check", vec![], true),
        (
            "fof new",
            fof(&[
                "--mission",
                "models/catalogues/fof/demo-mission.toml",
                "--seed",
                "7",
            ]),
            true,
        ),
        ("fof act", fof(&["activate", "co"]), true),
        ("fof next", fof(&[]), true),
        ("fof draw", fof(&["--purpose", "e2e"]), true),
        ("fof actions", fof(&[]), true),
        ("fof undo", fof(&[]), true),
        ("fof status", fof(&[]), true),
        (
            "message chain",
            s(&["--players", "3", "--sender", "1", "--method", "密电"]),
            true,
        ),
        (
            "message tally",
            s(&["--seat", "红红黑", "--seat", "kkk", "--seat", ""]),
            true,
        ),
        ("message check", vec![], true),
        (
            "message selfplay",
            s(&["--players", "3", "--seed", "1"]),
            true,
        ),
        (
            "message render-scene",
            vec!["--seed".into(), "1".into(), "--out".into(), at("message")],
            true,
        ),
        (
            "message table",
            vec![
                "--headless".into(),
                "--source".into(),
                format!("images:{}", at("message/scene.png")),
                "--seats".into(),
                at("message/seats.json"),
            ],
            true,
        ),
        ("message eval", s(&["--scenes", "1"]), true),
        (
            "duel check-deck",
            s(&["models/catalogues/duel/deck-wei.toml"]),
            true,
        ),
        // An illegal deck fails, with its problems still printed as JSON.
        ("duel check-deck", vec![bad_deck.clone()], false),
        ("duel check-catalogue", vec![], true),
        ("duel check-catalogue", vec![at("no-such.toml")], false),
        ("duel selfplay", s(&["--seed", "1"]), true),
        (
            "duel render-scene",
            vec!["--count".into(), "1".into(), "--out".into(), at("duel")],
            true,
        ),
        (
            "duel table",
            vec![
                "--headless".into(),
                "--source".into(),
                format!("images:{}", at("duel")),
            ],
            true,
        ),
        ("duel eval-table", s(&["--scenes", "1"]), true),
        ("demo", s(&["--headless", "--ground-truth"]), true),
        (
            "render-scene",
            vec!["--seed".into(), "1".into(), "--out".into(), at("blitz")],
            true,
        ),
        (
            "scan",
            vec!["--game".into(), "blitz".into(), at("blitz/scene-1.png")],
            true,
        ),
        (
            "play",
            vec![
                "--headless".into(),
                "--source".into(),
                format!("images:{}", at("blitz/scene-1.png")),
                "--journal".into(),
                at("play.jsonl"),
            ],
            true,
        ),
        (
            "print",
            vec!["--game".into(), "fof".into(), "--out".into(), at("print")],
            true,
        ),
        (
            "eval-vision",
            s(&["--game", "blitz", "--scenes", "1"]),
            true,
        ),
        (
            "enroll-deck",
            vec![
                "--ids".into(),
                blocks("ids.txt"),
                "--refs".into(),
                at("deck.json"),
                blocks("block-1.jpg"),
            ],
            true,
        ),
    ];
    let mut printed = std::collections::BTreeMap::new();
    for (leaf, rest, succeeds) in &runs {
        assert!(
            leaves.iter().any(|l| l == leaf),
            "{leaf} is not among {leaves:?}"
        );
        let mut args: Vec<&str> = leaf.split(' ').collect();
        args.extend(rest.iter().map(String::as_str));
        args.push("--json");
        let started = std::time::Instant::now();
        let out = arbiter()
            .env("XDG_DATA_HOME", dir.join("data"))
            .args(&args)
            .output()
            .expect("run arbiter");
        let said = format!(
            "{args:?} ({:.1} s): {}{}",
            started.elapsed().as_secs_f64(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.status.success(), *succeeds, "{said}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("stdout is not one JSON value ({e}): {said}"));
        printed.entry(*leaf).or_insert_with(Vec::new).push(v);
    }
    // Every leaf with a result is run above or said why not.
    for leaf in &leaves {
        let leaf = leaf.as_str();
        assert!(
            printed.contains_key(leaf)
                || NO_RESULT.contains(&leaf)
                || NOT_RUN.iter().any(|(l, _)| *l == leaf),
            "`arbiter {leaf} --json` is not run here: add it, or say in NOT_RUN why not"
        );
    }
    // The new outputs hold what they say.
    let deck = &printed["duel check-deck"];
    assert_eq!(deck[0]["legal"], true);
    assert_eq!(deck[0]["format"], "constructed");
    assert_eq!(deck[1]["legal"], false);
    assert!(
        deck[1]["problems"]
            .as_array()
            .is_some_and(|p| !p.is_empty()),
        "{}",
        deck[1]
    );
    let cat = &printed["duel check-catalogue"];
    assert!(
        cat[0]["file"].is_null() && cat[0]["demo"] == true,
        "{}",
        cat[0]
    );
    assert!(
        cat[0]["factions"]["wei"].as_u64().is_some_and(|n| n > 0),
        "{}",
        cat[0]
    );
    assert!(
        cat[1]["error"]
            .as_str()
            .is_some_and(|e| e.contains("no-such.toml")),
        "{}",
        cat[1]
    );
    let check = &printed["message check"][0];
    assert_eq!(check["deck"]["total"], 81);
    assert_eq!(check["profile"]["death_before_win"], true);
    for (leaf, image) in [
        ("render-scene", &printed["render-scene"][0]["image"]),
        (
            "duel render-scene",
            &printed["duel render-scene"][0]["images"][0],
        ),
        (
            "message render-scene",
            &printed["message render-scene"][0]["images"][0],
        ),
    ] {
        let file = image.as_str().unwrap_or_default();
        assert!(std::path::Path::new(file).is_file(), "{leaf}: {image}");
    }
    let play = &printed["play"][0];
    assert!(
        play["rulings"].is_array() && play["prompt"].is_object(),
        "{play}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
