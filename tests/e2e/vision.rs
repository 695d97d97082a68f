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
