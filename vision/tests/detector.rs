//! The design-agnostic card detector run from Rust: tract agrees with the Python TFLite interpreter,
//! broken model files are errors naming the file, and on a small fixed evaluation set of held-out
//! design families (models/detect/export_eval.py, seeds 599000–599011) it finds and names cards
//! above a floor per family.

use opencv::prelude::*;
use std::path::PathBuf;
use vision::detector::eval::{deck_of, evaluate, EnrolledDecks, EvalOptions};
use vision::detector::{CardDetector, DetectorOptions, INPUT_H, INPUT_W, OUTPUT_SCALE};
use vision::identifier::Learned;

fn models() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../models")
}

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/any-cards")
}

/// The shipped detector with its corner refiner, as the CLI runs it.
fn detector() -> CardDetector {
    CardDetector::new(
        models().join("detect/card_detect.tflite"),
        DetectorOptions::default(),
    )
    .expect("shipped detector loads")
    .with_corner_refiner(
        vision::detector::CornerRefiner::load(models().join("detect/card_corners.tflite"))
            .expect("shipped corner refiner loads"),
    )
}

#[derive(serde::Deserialize)]
struct Case {
    input: String,
    mean: Vec<f32>,
    samples: Vec<[f32; 4]>,
}

/// The fixtures were written by models/detect/train.py from `tf.lite.Interpreter` outputs.
#[test]
fn tract_agrees_with_the_python_tflite_interpreter_to_1e_4() {
    let mut d = detector();
    let dir = models().join("detect");
    let text = std::fs::read_to_string(dir.join("agreement.json")).expect("agreement.json");
    let cases: Vec<Case> = serde_json::from_str(&text).expect("agreement.json parses");
    assert!(cases.len() >= 2);
    assert_eq!(
        d.input_size(),
        (INPUT_W, INPUT_H),
        "the shipped model's input"
    );
    let ow = INPUT_W / OUTPUT_SCALE;
    for case in &cases {
        let input = vision::pipeline::read_image(&dir.join(&case.input)).expect("input png");
        let out = d.raw_output(&input).expect("runs");
        for c in 0..2 {
            let mean = out.iter().skip(c).step_by(2).sum::<f32>() / (out.len() / 2) as f32;
            assert!(
                (mean - case.mean[c]).abs() < 1e-4,
                "{} channel {c} mean {mean} vs {}",
                case.input,
                case.mean[c]
            );
        }
        for s in &case.samples {
            let (r, col) = (s[0] as usize, s[1] as usize);
            for c in 0..2 {
                let got = out[(r * ow + col) * 2 + c];
                assert!(
                    (got - s[2 + c]).abs() < 1e-4,
                    "{} ({r},{col}) ch {c}: {got} vs {}",
                    case.input,
                    s[2 + c]
                );
            }
        }
    }
    assert_eq!(INPUT_H % OUTPUT_SCALE, 0);
}

#[test]
fn broken_or_wrong_model_files_are_errors_that_name_the_file() {
    let dir = std::env::temp_dir().join(format!("arbiter-detector-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let shipped = std::fs::read(models().join("detect/card_detect.tflite")).expect("model");
    for (name, bytes) in [
        ("empty.tflite", Vec::new()),
        ("truncated.tflite", shipped[..shipped.len() / 2].to_vec()),
        (
            "garbage.tflite",
            (0..5000u32)
                .map(|i| (i.wrapping_mul(2654435761) >> 11) as u8)
                .collect(),
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("write");
        let err = CardDetector::new(&path, DetectorOptions::default())
            .err()
            .unwrap_or_else(|| panic!("{name} loaded"));
        assert!(err.to_string().contains(name), "{name}: {err}");
    }
    // A real model of the wrong kind: the identifier's embedding model.
    let embed = models().join("identify/card_embed.tflite");
    let err = CardDetector::new(&embed, DetectorOptions::default())
        .err()
        .expect("the identifier is no detector");
    assert!(err.to_string().contains("card_embed.tflite"), "{err}");
    let missing = CardDetector::new(dir.join("missing.tflite"), DetectorOptions::default());
    assert!(missing
        .err()
        .expect("missing")
        .to_string()
        .contains("missing.tflite"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn frames_of_any_size_give_corners_in_the_frames_own_pixels() {
    let mut d = detector();
    let dir = fixture();
    let manifest = vision::detector::eval::Manifest::load(&dir).expect("fixture manifest");
    let scene = &manifest.scenes[0];
    let image = vision::pipeline::read_image(&dir.join(&scene.image)).expect("scene");
    let full = d.detect(&image).expect("detects");
    assert!(!full.is_empty());
    // The same frame at twice the size: the same cards, at twice the coordinates.
    let mut big = opencv::core::Mat::default();
    opencv::imgproc::resize(
        &image,
        &mut big,
        opencv::core::Size::new(0, 0),
        2.0,
        2.0,
        opencv::imgproc::INTER_LINEAR,
    )
    .expect("resize");
    let doubled = d.detect(&big).expect("detects");
    let centre = |c: &[[f64; 2]; 4]| vision::geometry::centroid(c);
    // Whole cards only (a partly hidden region may split another way at another size), the same
    // place within a tenth of the card's shorter side (the edges are fitted at the frame's own
    // resolution, so a few pixels apart).
    let whole: Vec<_> = full.iter().filter(|c| !c.partly_hidden).collect();
    let shorter_side = |c: &[[f64; 2]; 4]| {
        (0..4)
            .map(|i| vision::detect::dist(c[i], c[(i + 1) % 4]))
            .fold(f64::MAX, f64::min)
    };
    let mut matched = 0;
    for a in &whole {
        let ca = centre(&a.corners);
        let near = 0.1 * shorter_side(&a.corners);
        if doubled.iter().any(|b| {
            let cb = centre(&b.corners);
            ((cb[0] / 2.0 - ca[0]).powi(2) + (cb[1] / 2.0 - ca[1]).powi(2)).sqrt() < near
        }) {
            matched += 1;
        }
    }
    assert!(
        matched as f64 >= 0.8 * whole.len() as f64,
        "{matched} of {} whole cards found again at 2×",
        whole.len()
    );
}

/// The committed fixture scored with the shipped models, the sibling model left out.
fn evaluate_fixture(options: EvalOptions) -> vision::detector::eval::Report {
    evaluate_set(&fixture(), options, NearPrints::IdentifierAlone)
}

/// What tells near prints apart where the identifier abstains between them.
#[derive(Clone, Copy, PartialEq)]
enum NearPrints {
    IdentifierAlone,
    SiblingModel,
    PairVerifier,
}

/// An evaluation set scored with the shipped models, with or without a model that tells near
/// prints apart.
fn evaluate_set(
    dir: &std::path::Path,
    options: EvalOptions,
    near_prints: NearPrints,
) -> vision::detector::eval::Report {
    let mut learned = Learned::load(
        &models().join("identify/card_embed.tflite"),
        std::iter::empty(),
    )
    .expect("identifier");
    match near_prints {
        NearPrints::IdentifierAlone => {}
        NearPrints::SiblingModel => {
            learned.siblings = Some(
                vision::siblings::Siblings::load(models().join("identify/card_siblings.tflite"))
                    .expect("sibling model"),
            )
        }
        NearPrints::PairVerifier => {
            learned.pairs = Some(
                vision::pairs::PairVerifier::load(models().join("identify/card_pairs.tflite"))
                    .expect("pair verifier"),
            )
        }
    }
    evaluate(dir, &mut detector(), &mut learned, options, |_, _| {}).expect("evaluates")
}

/// Floors on the committed fixture (12 scenes of held-out families, never trained on nor tuned on):
/// found per family, named right, (almost) no wrong names and no unknown card named. The floors sit
/// below what was measured, so a real regression, not noise, fails them.
#[test]
fn held_out_design_families_are_found_and_named_above_their_floors() {
    let report = evaluate_fixture(EvalOptions::default());
    let all = report.total.rates();
    assert!(
        report.total.cards >= 60,
        "fixture too small: {}",
        report.total.cards
    );
    assert!(all.found >= FOUND_FLOOR, "found {:.2} %", all.found);
    assert!(
        all.named_right >= NAMED_FLOOR,
        "named right {:.2} %",
        all.named_right
    );
    assert!(
        report.corner_err_median_px <= CORNER_ERR_CEILING_PX,
        "corners {:.2} px off (median)",
        report.corner_err_median_px
    );
    assert!(
        all.named_wrong <= WRONG_CEILING,
        "named wrong {:.3} %",
        all.named_wrong
    );
    assert!(
        all.unknown_named <= WRONG_CEILING,
        "unknown named {:.2} %",
        all.unknown_named
    );
    for (family, (t, r)) in &report.by["family"] {
        assert!(t.cards >= 10, "{family}: only {} cards", t.cards);
        assert!(
            r.found >= FAMILY_FOUND_FLOOR,
            "{family}: found {:.2} %",
            r.found
        );
    }
}

/// Naming from the cards' true corners leaves finding out: every card wholly in view is found, with
/// no corner error and no extra detection, and at least as many are named right as from the
/// detector's quads.
#[test]
fn named_from_true_corners_every_whole_card_is_found_and_none_is_lost_to_the_detector() {
    let detected = evaluate_fixture(EvalOptions::default());
    let options = EvalOptions {
        true_corners: true,
        ..Default::default()
    };
    let truth = evaluate_fixture(options);
    assert!(truth.true_corners && !detected.true_corners);
    assert_eq!(truth.total.cards, detected.total.cards);
    assert_eq!(
        truth.total.found, truth.total.cards,
        "cards found from their own corners"
    );
    assert_eq!(
        truth.total.extra_detections, 0,
        "extra detections from the truth"
    );
    assert!(
        truth.corner_err_median_px < 1e-6,
        "corner error {}",
        truth.corner_err_median_px
    );
    let decided = truth.decisions.len();
    assert!(decided >= 40, "only {decided} cards decided");
    assert!(
        truth.total.named_right >= detected.total.named_right,
        "true corners named {} right, the detector's quads {}",
        truth.total.named_right,
        detected.total.named_right
    );
}

/// Moving one side of an unnamed card's quad to a card's shape names no card wrong and no card
/// nobody enrolled, and loses none named without it. The fixture is one scene of the training-family
/// tuning set (seed 800048, `export_eval.py --families train --seed 800048 --scenes 1`), on which
/// the mending's bars were chosen, where the shipped detector leaves two cards a side off.
#[test]
fn moving_a_side_of_an_unnamed_card_names_nothing_wrong() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mended-cards");
    let plain = evaluate_set(&dir, EvalOptions::default(), NearPrints::IdentifierAlone);
    let mended = evaluate_set(
        &dir,
        EvalOptions {
            mend_sides: true,
            ..Default::default()
        },
        NearPrints::IdentifierAlone,
    );
    assert_eq!(mended.total.named_wrong, 0, "named wrong");
    assert_eq!(mended.total.unknown_named, plain.total.unknown_named);
    assert!(
        mended.total.named_right >= plain.total.named_right,
        "named right {} with sides moved, {} without",
        mended.total.named_right,
        plain.total.named_right
    );
    assert_eq!(plain.sides_mended, 0);
    assert!(
        mended.sides_mended > 0,
        "no detection named with a side moved"
    );
}

/// A closer look parts rows of touching cards the first look outlined as one, and names nothing
/// wrong. The fixture is two scenes of the training-family tuning set (seeds 800091 and 800137,
/// `export_eval.py --families train`; the look's bars were chosen on that set): rows of white
/// text-box cards touching end to end on a light and on a grass table, five of whose cards the
/// first look ran into their neighbours.
#[test]
fn a_closer_look_parts_touching_cards_and_names_nothing_wrong() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/closer-cards");
    let plain = evaluate_set(&dir, EvalOptions::default(), NearPrints::IdentifierAlone);
    let closer = evaluate_set(
        &dir,
        EvalOptions {
            look_closer: true,
            ..Default::default()
        },
        NearPrints::IdentifierAlone,
    );
    assert_eq!(closer.total.cards, plain.total.cards);
    assert!(
        closer.total.found >= plain.total.found + 3,
        "found {} with a closer look, {} without",
        closer.total.found,
        plain.total.found
    );
    assert!(
        closer.total.named_right > plain.total.named_right,
        "named right {} with a closer look, {} without",
        closer.total.named_right,
        plain.total.named_right
    );
    assert_eq!(closer.total.named_wrong, 0, "named wrong");
    assert_eq!(
        closer.total.unknown_named, 0,
        "a card nobody enrolled named"
    );
    assert!(!plain.stages.contains_key("detect: closer look"));
    assert!(
        closer.stages["detect: closer look"].p95_ms > 0.0,
        "the look's time is reported"
    );
}

/// The sibling model names cards the identifier abstains on between prints of one design that
/// differ only in a count, and none wrong: no card named wrong, no card nobody enrolled named, none
/// named without it lost. The fixture is four scenes of the count-marks tuning set (seeds
/// 810000–810003, `export_eval.py --families tuning --seed 810000 --scenes 4`): no identifier
/// trained on them; the sibling model's thresholds were chosen on that set. (On the held-out
/// pips it names none right and a few wrong, so it stays an experiment, off by default.)
#[test]
fn the_sibling_model_names_count_siblings_and_nothing_wrong() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/count-cards");
    let plain = evaluate_set(&dir, EvalOptions::default(), NearPrints::IdentifierAlone);
    let told = evaluate_set(&dir, EvalOptions::default(), NearPrints::SiblingModel);
    assert_eq!(told.total.named_wrong, 0, "named wrong");
    assert_eq!(
        told.total.unknown_named, plain.total.unknown_named,
        "unknown named"
    );
    assert!(
        told.total.named_right > plain.total.named_right,
        "named right {} with the sibling model, {} without",
        told.total.named_right,
        plain.total.named_right
    );
    assert!(
        plain.decisions.iter().all(|d| d.siblings.is_none()),
        "the sibling model looked without being loaded"
    );
}

/// The pair verifier looks at the cards the identifier abstains on between near prints and, at its
/// shipped thresholds, names none wrong: no card named wrong, no card nobody enrolled named, none
/// named without it lost. The fixture is the four count-marks tuning scenes above; the verifier
/// never trained on that family, and its thresholds were chosen on the tuning sets. (Held-out it
/// names under a point more at several times the naming time, so it stays off by default.)
#[test]
fn the_pair_verifier_looks_at_near_prints_and_names_nothing_wrong() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/count-cards");
    let plain = evaluate_set(&dir, EvalOptions::default(), NearPrints::IdentifierAlone);
    let told = evaluate_set(&dir, EvalOptions::default(), NearPrints::PairVerifier);
    assert_eq!(told.total.named_wrong, 0, "named wrong");
    assert_eq!(
        told.total.unknown_named, plain.total.unknown_named,
        "unknown named"
    );
    assert!(
        told.total.named_right >= plain.total.named_right,
        "named right {} with the pair verifier, {} without",
        told.total.named_right,
        plain.total.named_right
    );
    let looked = told
        .decisions
        .iter()
        .filter(|d| d.siblings.is_some())
        .count();
    assert!(looked >= 10, "the pair verifier looked at {looked} cards");
    // Each card looked at says whether it was among the prints ranked; a right likeliest was.
    for d in told.decisions.iter().filter(|d| d.siblings.is_some()) {
        let among = d
            .siblings_among
            .expect("looked at, so the prints ranked are known");
        assert!(
            among || d.siblings.is_some_and(|(right, _, _)| !right),
            "{d:?}"
        );
    }
    let among = told
        .decisions
        .iter()
        .filter(|d| d.siblings_among == Some(true))
        .count();
    assert!(
        among >= 5,
        "{among} of {looked} cards among the prints ranked"
    );
}

/// Comparing the look-alike prints' ink names cards of one design that differ only in a count, where
/// the identifier abstains between them, and none wrong: no card named wrong, no card nobody enrolled
/// named, none named without it lost. The fixture is four scenes of the count-marks tuning set
/// (seeds 810000–810003), on which the ink's thresholds were chosen. (On the held-out pips it
/// names nearly as many cards wrong as right, so it stays an experiment, off by default.)
#[test]
fn the_ink_of_count_siblings_names_them_and_nothing_wrong() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/count-cards");
    let without = evaluate_set(&dir, EvalOptions::default(), NearPrints::IdentifierAlone);
    let inked = evaluate_set(
        &dir,
        EvalOptions {
            ink: true,
            ..Default::default()
        },
        NearPrints::IdentifierAlone,
    );
    assert_eq!(inked.total.named_wrong, 0, "named wrong");
    assert_eq!(inked.total.unknown_named, 0, "unknown named");
    assert!(
        inked.total.named_right > without.total.named_right,
        "named right {} with the ink, {} without",
        inked.total.named_right,
        without.total.named_right
    );
    assert!(
        without.decisions.iter().all(|d| d.ink.is_none()),
        "the ink was compared while left out"
    );
}

/// Measured with the shipped models and corner refiner (models/detect/README.md), cards that must be
/// found matched first: found 73.9 %, per family 61.8 % (pips) to 95.2 % (gradient frames), named
/// right 49.2 % (30.5 % without the refiner), no wrong name, no unknown card named.
const FOUND_FLOOR: f64 = 60.0;
const FAMILY_FOUND_FLOOR: f64 = 50.0;
const NAMED_FLOOR: f64 = 40.0;
/// Whole cards' corners, median pixels off: 1.13 with the corner refiner, 6.03 without it.
const CORNER_ERR_CEILING_PX: f64 = 2.5;
const WRONG_CEILING: f64 = 1.0;

/// corners_train.py wrote the four patches of one validation card and the Python TFLite
/// interpreter's answer for them.
#[test]
fn the_corner_refiner_agrees_with_the_python_tflite_interpreter_to_1e_4() {
    #[derive(serde::Deserialize)]
    struct CornerCase {
        input: String,
        output: Vec<[f32; 2]>,
    }
    let dir = models().join("detect");
    let mut refiner = vision::detector::CornerRefiner::load(dir.join("card_corners.tflite"))
        .expect("shipped corner refiner loads");
    let text = std::fs::read_to_string(dir.join("corners-agreement.json")).expect("json");
    let case: CornerCase = serde_json::from_str(&text).expect("corners-agreement.json parses");
    let strip = vision::pipeline::read_image(&dir.join(&case.input)).expect("input png");
    let side = vision::detector::CORNER_PATCH as i32;
    let patch = |k: i32| {
        let roi = opencv::core::Mat::roi(&strip, opencv::core::Rect::new(k * side, 0, side, side))
            .expect("roi");
        let mut copy = opencv::core::Mat::default();
        roi.copy_to(&mut copy).expect("copy");
        copy
    };
    let out = refiner
        .raw_output(&[patch(0), patch(1), patch(2), patch(3)])
        .expect("runs");
    assert_eq!(case.output.len(), 4);
    for (k, want) in case.output.iter().enumerate() {
        for c in 0..2 {
            let got = out[2 * k + c];
            assert!(
                (got - want[c]).abs() < 1e-4,
                "corner {k}.{c}: {got} vs {}",
                want[c]
            );
        }
    }
}

#[test]
fn a_detector_model_is_no_corner_refiner_and_the_error_names_it() {
    let err = vision::detector::CornerRefiner::load(models().join("detect/card_detect.tflite"))
        .err()
        .expect("the detector is no corner refiner");
    assert!(err.to_string().contains("card_detect.tflite"), "{err}");
    let dir = std::env::temp_dir().join(format!("arbiter-corners-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("half.tflite");
    let shipped = std::fs::read(models().join("detect/card_corners.tflite")).expect("model");
    std::fs::write(&path, &shipped[..shipped.len() / 2]).expect("write");
    let err = vision::detector::CornerRefiner::load(&path)
        .err()
        .expect("half a model");
    assert!(err.to_string().contains("half.tflite"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[derive(serde::Deserialize)]
struct CutCards {
    photos: Vec<CutCard>,
}

#[derive(serde::Deserialize)]
struct CutCard {
    image: String,
    corners: [[f64; 2]; 4],
}

/// Mean distance between two quads' corners, `found` taken in the order that fits best.
fn corner_error(found: &[[f64; 2]; 4], truth: &[[f64; 2]; 4]) -> f64 {
    (0..4)
        .map(|k| {
            (0..4)
                .map(|i| {
                    let (p, q) = (found[(i + k) % 4], truth[i]);
                    ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2)).sqrt()
                })
                .sum::<f64>()
                / 4.0
        })
        .fold(f64::MAX, f64::min)
}

/// Enrolment photos (one card each, training families) where the model cuts the card into pieces
/// at a strong line across its print, or sees a plain card only as partly hidden: no whole card
/// `detect` reports is the card, while the enrolment finds it, its own top-left first.
#[test]
fn an_enrolment_photo_whose_card_the_model_cuts_into_pieces_is_enrolled_whole() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cut-cards");
    let text = std::fs::read_to_string(dir.join("truth.json")).expect("truth.json");
    let cut: CutCards = serde_json::from_str(&text).expect("truth.json parses");
    assert!(cut.photos.len() >= 4);
    let mut d = detector();
    for photo in &cut.photos {
        let image = vision::pipeline::read_image(&dir.join(&photo.image)).expect("photo");
        let pieces = d.detect(&image).expect("detects");
        let best_piece = pieces
            .iter()
            .filter(|c| !c.partly_hidden)
            .map(|c| corner_error(&c.corners, &photo.corners))
            .reduce(|a, b| a.min(b));
        assert!(
            best_piece.is_none_or(|err| err > 10.0),
            "{}: the model no longer cuts this card ({best_piece:?} px): pick another photo",
            photo.image
        );
        let corners = vision::detector::name::enrolment_corners(&mut d, &image)
            .expect("runs")
            .unwrap_or_else(|| panic!("{}: no card enrolled", photo.image));
        let err = (0..4)
            .map(|i| {
                let (p, q) = (corners[i], photo.corners[i]);
                ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2)).sqrt()
            })
            .sum::<f64>()
            / 4.0;
        assert!(err < 3.0, "{}: enrolled {err:.1} px off", photo.image);
    }
}

/// With only the decks on the table enrolled, as a player has them, a card left unenrolled has no
/// other decks' prints crowding its sibling, and the model's lead alone named it as that sibling.
/// The fixture is one scene of the count-marks tuning set (seed 810178, `export_eval.py --families
/// tuning --seed 810178 --scenes 1`), where `count_marks-010-10` is not enrolled and its sibling
/// led the runner-up by 0.13 at cosine 0.82.
#[test]
fn a_card_left_unenrolled_is_not_named_as_its_sibling_on_the_table() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/unenrolled-sibling");
    let options = EvalOptions {
        enrolled: EnrolledDecks::OnTable,
        ..Default::default()
    };
    let report = evaluate_set(&dir, options, NearPrints::IdentifierAlone);
    assert_eq!(report.enrolled_decks, EnrolledDecks::OnTable);
    let unenrolled = report
        .decisions
        .iter()
        .find(|d| d.card == "count_marks-010-10")
        .expect("the unenrolled card is found");
    assert!(unenrolled.unknown && !unenrolled.nearest_right);
    assert!(
        unenrolled.cosine >= 0.7 && unenrolled.gap >= vision::detector::name::ANY_DESIGN_MIN_GAP,
        "the case the cosine floor is for: cosine {} lead {}",
        unenrolled.cosine,
        unenrolled.gap
    );
    assert_eq!(
        report.total.unknown_named, 0,
        "a card nobody enrolled named"
    );
    assert_eq!(report.total.named_wrong, 0, "named wrong");
    assert!(
        report.total.named_right >= 2,
        "named {}",
        report.total.named_right
    );
}

/// Named among the decks on each scene's table, every card's nearest print is of a deck lying there;
/// with every deck enrolled at once the four count-marks scenes' cards are compared with prints of
/// decks on other tables too.
#[test]
fn named_among_the_decks_on_the_table_the_nearest_print_lies_on_that_table() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/count-cards");
    let manifest = vision::detector::eval::Manifest::load(&dir).expect("manifest");
    let decks_of_scene = |image: &str| {
        let scene = manifest.scenes.iter().find(|s| s.image == image);
        scene.map(|s| s.decks()).unwrap_or_default()
    };
    let elsewhere = |report: &vision::detector::eval::Report| {
        report
            .decisions
            .iter()
            .filter(|d| !decks_of_scene(&d.scene).contains(deck_of(&d.nearest)))
            .count()
    };
    let all = evaluate_set(&dir, EvalOptions::default(), NearPrints::IdentifierAlone);
    let on_table = evaluate_set(
        &dir,
        EvalOptions {
            enrolled: EnrolledDecks::OnTable,
            ..Default::default()
        },
        NearPrints::IdentifierAlone,
    );
    assert!(
        on_table.decisions.len() >= 20,
        "{} decided",
        on_table.decisions.len()
    );
    assert_eq!(
        elsewhere(&on_table),
        0,
        "a nearest print from another table"
    );
    assert!(
        elsewhere(&all) > 0,
        "every deck enrolled, yet none elsewhere nearest"
    );
}
