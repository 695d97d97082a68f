//! Vision through the `arbiter` binary: render a synthetic scene, scan it as JSON; bad files fail
//! with their name.

use crate::cli::run;

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("arbiter-e2e-vision-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn issue_3_scan_prints_json_per_image_with_the_documented_fields() {
    let dir = temp_dir("scan");
    let image = crate::cli::render_blitz_scene(11, &dir);
    let out = run(&[
        "scan",
        "--game",
        "blitz",
        "--mat",
        "--json",
        image.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line: serde_json::Value =
        serde_json::from_str(text.lines().next().expect("one line")).expect("json");
    let obs = &line["observation"];
    assert!(obs["calibration"]["method"].is_string(), "{obs}");
    let cards = obs["cards"].as_array().expect("cards");
    assert!(cards.len() >= 10, "{} cards", cards.len());
    for key in [
        "card",
        "corners",
        "center",
        "orientation",
        "cell",
        "covered",
        "confidence",
    ] {
        assert!(cards[0].get(key).is_some(), "missing {key}");
    }
    // Every named card is a catalogue id.
    let cat = blitz::catalogue::Catalogue::demo();
    for c in cards {
        if let Some(id) = c["card"].as_str() {
            assert!(cat.get(id).is_some(), "{id}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Without --json, scan prints a table a player reads: cells as the panel names them (B3), the
/// orientation in words, no Rust debug output.
#[test]
fn scan_prints_cells_as_the_panel_names_them() {
    let dir = temp_dir("scan-text");
    let image = crate::cli::render_blitz_scene(11, &dir);
    let out = run(&["scan", "--game", "blitz", "--mat", image.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !text.contains("Some(") && !text.contains("Blitz {"),
        "{text}"
    );
    let cells: Vec<&str> = text
        .lines()
        .skip(2)
        .filter_map(|l| l.split_whitespace().nth(1))
        .collect();
    assert!(cells.len() >= 10, "{text}");
    assert!(
        cells
            .iter()
            .all(|c| *c == "-" || blitz::board::Cell::parse(c).is_some()),
        "{cells:?}"
    );
    assert!(
        text.contains("upright") || text.contains("inverted"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `scan --catalogue` names the cards of the player's catalogue: a catalogue without the US
/// resource cards never names one, and every card it names is one of its own.
#[test]
fn scan_names_the_cards_of_the_catalogue_it_is_given() {
    let dir = temp_dir("scan-catalogue");
    let image = crate::cli::render_blitz_scene(11, &dir);
    let demo = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/catalogues/blitz.toml"),
    )
    .expect("demo catalogue");
    let mut parts = demo.split("[[card]]");
    let mut trimmed = parts.next().expect("header").to_string();
    let mut kept = std::collections::HashSet::new();
    for card in parts {
        let id = card
            .lines()
            .find_map(|l| l.trim().strip_prefix("id = \""))
            .and_then(|rest| rest.split('"').next())
            .expect("card id");
        if !id.starts_with("us-r") {
            kept.insert(id.to_string());
            trimmed.push_str("[[card]]");
            trimmed.push_str(card);
        }
    }
    let catalogue = dir.join("mine.toml");
    std::fs::write(&catalogue, trimmed).unwrap();
    let named = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["scan", "--game", "blitz", "--mat", "--json"];
        args.extend_from_slice(extra);
        args.push(image.to_str().unwrap());
        let out = run(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        let line: serde_json::Value =
            serde_json::from_str(text.lines().next().expect("one line")).expect("json");
        line["observation"]["cards"]
            .as_array()
            .expect("cards")
            .iter()
            .filter_map(|c| c["card"].as_str().map(str::to_string))
            .collect()
    };
    let with_demo = named(&[]);
    assert!(
        with_demo.iter().any(|id| id.starts_with("us-r")),
        "{with_demo:?}"
    );
    let with_mine = named(&["--catalogue", catalogue.to_str().unwrap()]);
    assert!(with_mine.len() >= 10, "{with_mine:?}");
    assert!(
        with_mine.iter().all(|id| kept.contains(id)),
        "{with_mine:?}"
    );
    let missing = dir.join("nope.toml");
    let out = run(&[
        "scan",
        "--game",
        "blitz",
        "--catalogue",
        missing.to_str().unwrap(),
        image.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("nope.toml"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn issue_3_scan_of_a_corrupt_image_names_the_file() {
    let dir = temp_dir("bad");
    let bad = dir.join("broken.jpg");
    std::fs::write(&bad, b"not an image").unwrap();
    let out = run(&["scan", "--game", "blitz", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("broken.jpg"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn issue_8_eval_vision_compares_identifiers_side_by_side_on_the_same_scenes() {
    let out = run(&[
        "eval-vision",
        "--game",
        "blitz",
        "--scenes",
        "1",
        "--seed",
        "21020",
        "--identifier",
        "hash,fused",
        "--hard",
        "cover",
        "--hard-scenes",
        "1",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON rows");
    let rows = rows.as_array().expect("an array");
    let names: Vec<(String, String)> = rows
        .iter()
        .map(|r| {
            (
                r["condition"].as_str().unwrap_or("").to_string(),
                r["identifier"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let pair = |c: &str, i: &str| (c.to_string(), i.to_string());
    assert_eq!(
        names,
        vec![
            pair("standard", "hash"),
            pair("standard", "fused"),
            pair("cover", "hash"),
            pair("cover", "fused"),
        ]
    );
    for r in rows {
        let s = &r["summary"];
        assert_eq!(s["scenes"], 1);
        // The same scene for both identifiers: the same cards to name.
        assert_eq!(s["visible_cards"], rows[0]["summary"]["visible_cards"]);
        let extra = s["identifier_extra_ms_per_quad"]
            .as_f64()
            .expect("a number");
        assert_eq!(extra > 0.0, r["identifier"] == "fused", "{r}");
    }
}

#[test]
fn issue_8_eval_vision_with_a_missing_model_names_the_file() {
    let out = run(&[
        "eval-vision",
        "--game",
        "blitz",
        "--scenes",
        "1",
        "--identifier",
        "model",
        "--model",
        "/nonexistent/card_embed.tflite",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/card_embed.tflite"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn issue_8_scan_with_the_fused_identifier_names_the_cards_of_a_rendered_scene() {
    let dir = temp_dir("fused");
    let image = crate::cli::render_blitz_scene(12, &dir);
    let truth: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("scene-12.json")).expect("truth"))
            .expect("truth JSON");
    let visible: Vec<&str> = truth["cards"]
        .as_array()
        .expect("cards")
        .iter()
        .filter(|c| c["covered"] == false)
        .filter_map(|c| c["card"].as_str())
        .collect();
    let out = run(&[
        "scan",
        "--game",
        "blitz",
        "--identifier",
        "fused",
        "--json",
        image.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
    let named: Vec<&str> = line["observation"]["cards"]
        .as_array()
        .expect("cards")
        .iter()
        .filter_map(|c| c["card"].as_str())
        .collect();
    let all: Vec<&str> = truth["cards"]
        .as_array()
        .expect("cards")
        .iter()
        .filter_map(|c| c["card"].as_str())
        .collect();
    assert!(
        named.iter().all(|id| all.contains(id)),
        "named {named:?}, laid {all:?}"
    );
    let found = visible.iter().filter(|id| named.contains(id)).count();
    assert!(
        found * 10 >= visible.len() * 9,
        "{found} of {} visible cards named",
        visible.len()
    );
}

#[test]
fn issue_8_a_reference_enrolled_without_the_model_is_refused_by_fused_with_the_reason() {
    let dir = temp_dir("refs");
    let refs = dir.join("enrolled.json");
    let reference = serde_json::json!({"refs": [{"card": "us-u01", "coarse": [], "fine": []}]});
    std::fs::write(&refs, reference.to_string()).expect("refs");
    let out = run(&[
        "scan",
        "--game",
        "blitz",
        "--identifier",
        "fused",
        "--refs",
        refs.to_str().unwrap(),
        "no-image.png",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("us-u01 was enrolled without the model") && err.contains("enrolled.json"),
        "{err}"
    );
}

fn any_cards() -> std::path::PathBuf {
    crate::cli::root().join("vision/tests/fixtures/any-cards")
}

/// A deck of a design family no model was trained on (models/detect/export_eval.py, seed 599000,
/// `--block-family gradient_frame`): two 3×3 block photos enrol its 12 cards, then a scan of the
/// same cards shuffled under another camera finds them and names some with the learned detector and
/// identifier, none wrongly (measured with the inset-core detector: 12 enrolled; 12 quads, 12 named
/// right, 0 wrong; with the share-core detector before it 13 quads, 3 named right).
#[test]
fn enroll_deck_enrols_a_whole_deck_from_block_photos_and_scan_then_names_it() {
    let dir = temp_dir("deck");
    let blocks = any_cards().join("blocks");
    let refs = dir.join("deck.json");
    let (ok, text) = crate::cli::run_combined(&[
        "enroll-deck",
        "--ids",
        blocks.join("ids.txt").to_str().unwrap(),
        "--refs",
        refs.to_str().unwrap(),
        "--json",
        blocks.join("block-1.jpg").to_str().unwrap(),
        blocks.join("block-2.jpg").to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    let json_start = text.find('{').expect("json");
    let outcome: serde_json::Value =
        serde_json::from_str(&text[json_start..text.rfind('}').unwrap() + 1])
            .expect("outcome json");
    assert_eq!(
        outcome["enrolled"].as_array().map(|a| a.len()),
        Some(12),
        "{outcome}"
    );
    assert_eq!(
        outcome["missing"].as_array().map(|a| a.len()),
        Some(0),
        "{outcome}"
    );
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&refs).expect("refs written"))
            .expect("refs json");
    let saved = saved["refs"].as_array().expect("refs");
    assert_eq!(saved.len(), 12);
    assert!(saved
        .iter()
        .all(|r| r["embedding"].as_array().map(|e| e.len()) == Some(64)));
    assert_eq!(
        std::fs::read_dir(dir.join("deck-crops"))
            .expect("crops")
            .count(),
        12
    );

    let out = run(&[
        "scan",
        "--game",
        "blitz",
        "--identifier",
        "model",
        "--detector",
        "both",
        "--refs",
        refs.to_str().unwrap(),
        "--json",
        blocks.join("check.jpg").to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line: serde_json::Value = serde_json::from_str(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .expect("a line"),
    )
    .expect("scan json");
    let mut cards: Vec<(f64, f64, Option<String>)> = line["observation"]["cards"]
        .as_array()
        .expect("cards")
        .iter()
        .map(|c| {
            (
                c["center"][0].as_f64().unwrap_or(0.0),
                c["center"][1].as_f64().unwrap_or(0.0),
                c["card"].as_str().map(String::from),
            )
        })
        .collect();
    assert!(
        (11..=14).contains(&cards.len()),
        "{} cards: {line}",
        cards.len()
    );
    // Reading order: rows of four from the top.
    cards.sort_by(|a, b| a.1.total_cmp(&b.1));
    let mut order = Vec::new();
    for row in cards.chunks_mut(4) {
        row.sort_by(|a, b| a.0.total_cmp(&b.0));
        order.extend(row.iter().map(|c| c.2.clone()));
    }
    let expected: Vec<String> = std::fs::read_to_string(blocks.join("check-ids.txt"))
        .expect("check ids")
        .lines()
        .map(String::from)
        .collect();
    // Every name is a card of the deck, none named twice, and each named card lies where the
    // shuffled block put it (rows of four from the top).
    let named: Vec<&String> = order.iter().flatten().collect();
    let distinct: std::collections::HashSet<&&String> = named.iter().collect();
    assert_eq!(distinct.len(), named.len(), "a card named twice: {order:?}");
    assert!(
        named.iter().all(|n| expected.contains(n)),
        "named outside the deck: {order:?}"
    );
    if order.len() == expected.len() {
        let misplaced = order
            .iter()
            .zip(&expected)
            .filter(|(g, e)| g.as_ref().is_some_and(|g| g != *e))
            .count();
        assert_eq!(misplaced, 0, "named wrong: {order:?} vs {expected:?}");
    }
    assert!(named.len() >= 8, "named {} of 12: {order:?}", named.len());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn enroll_deck_refuses_a_block_photo_with_the_wrong_number_of_cards_and_names_it() {
    let dir = temp_dir("deck-bad");
    let ids = any_cards().join("blocks/ids.txt");
    let refs = dir.join("deck.json");
    let enrol = |photo: &std::path::Path| {
        crate::cli::run_combined(&[
            "enroll-deck",
            "--ids",
            ids.to_str().unwrap(),
            "--refs",
            refs.to_str().unwrap(),
            photo.to_str().unwrap(),
        ])
    };
    // A photo of one card where the ids ask for a 3×3 block.
    let (ok, text) = enrol(&any_cards().join("enrol/gradient_frame-021-01.jpg"));
    assert!(!ok, "nothing enrolled must fail: {text}");
    assert!(
        text.contains("gradient_frame-021-01.jpg") && text.contains("not enrolled"),
        "{text}"
    );
    assert!(text.contains("missing:"), "{text}");
    // A table of nine cards strewn about (at all distances) is not a 3×3 block either.
    let (ok, text) = enrol(&any_cards().join("scenes/599001.jpg"));
    assert!(!ok && text.contains("599001.jpg: not enrolled"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `--allied-side` is only the players' answer for when the cards cannot tell: on a board whose
/// cards say which side is Allied (a second compositor's board, camera anywhere) it changes nothing.
#[test]
fn scan_allied_side_does_not_override_what_the_cards_tell() {
    let board = crate::cli::root().join("vision/tests/fixtures/boards/scenes/699000.jpg");
    let board = board.to_str().unwrap();
    let plain = crate::cli::run(&["scan", "--game", "blitz", "--json", board]);
    let told = crate::cli::run(&[
        "scan",
        "--game",
        "blitz",
        "--json",
        "--allied-side",
        "left",
        board,
    ]);
    assert!(plain.status.success() && told.status.success());
    let cells = |out: &std::process::Output| -> (String, Vec<String>) {
        let v: serde_json::Value =
            serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().next().unwrap())
                .unwrap();
        let obs = &v["observation"];
        let from = obs["calibration"]["allied_side"]["from"].to_string();
        let cells = obs["cards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| format!("{} {}", c["card"], c["cell"]))
            .collect();
        (from, cells)
    };
    let (from, a) = cells(&plain);
    assert_eq!(from, "\"cards\"");
    assert_eq!(cells(&told).1, a);
}

/// `eval-vision --outcomes FILE` keeps each board's outlines with the truth card each lies on;
/// several identifiers at once are refused with the reason.
#[test]
fn eval_vision_writes_each_boards_outlines() {
    let boards = crate::cli::eval_outcomes(&[
        "eval-vision",
        "--game",
        "blitz",
        "--scenes",
        "2",
        "--seed",
        "21020",
    ]);
    assert_eq!(boards.len(), 2, "{boards:?}");
    for board in &boards {
        let truth = board["cards"].as_array().expect("cards");
        let seen = board["seen"].as_array().expect("outlines");
        assert!(!seen.is_empty(), "{board}");
        // A named outline lies on the card it names (the scenes' cards are named right here).
        for s in seen.iter().filter(|s| s["card"].is_string()) {
            let on = s["on_card"].as_u64().expect("on a card") as usize;
            assert_eq!(truth[on]["truth"], s["card"], "{s}");
        }
    }
    let out = run(&[
        "eval-vision",
        "--game",
        "blitz",
        "--scenes",
        "1",
        "--identifier",
        "hash,fused",
        "--outcomes",
        "never-written.jsonl",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--outcomes takes one identifier"), "{err}");
}
