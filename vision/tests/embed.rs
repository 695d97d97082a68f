//! The learned identifier (issue 8) run from Rust: tract must agree with the Python TFLite interpreter
//! on the shipped model, and a broken model file must be an error, never a panic.

use std::path::PathBuf;
use vision::embed::{Embedder, EMBED_DIM};

fn model_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../models/identify")
}

#[derive(serde::Deserialize)]
struct Agreement {
    cases: Vec<Case>,
}

#[derive(serde::Deserialize)]
struct Case {
    name: String,
    bgr_u8: Vec<u8>,
    raw: Vec<f32>,
    embedding: Vec<f32>,
}

/// The fixtures were written by `models/identify/train.py` from `tf.lite.Interpreter` outputs.
#[test]
fn tract_agrees_with_the_python_tflite_interpreter_to_1e_4() {
    agrees_with_python("card_embed.tflite", "agreement.json", (40, 56));
}

#[test]
fn the_sibling_model_takes_twice_the_crop_and_agrees_with_python_to_1e_4() {
    agrees_with_python(
        "card_siblings.tflite",
        "card_siblings-agreement.json",
        (80, 112),
    );
}

#[derive(serde::Deserialize)]
struct PairAgreement {
    input_shape: Vec<usize>,
    cases: Vec<PairCase>,
}

#[derive(serde::Deserialize)]
struct PairCase {
    name: String,
    /// Height × width × 6: the seen crop's BGR, then the print's, for each pixel.
    bgr_u8: Vec<u8>,
    logit: f32,
}

/// The pair verifier's fixtures were written by `models/identify/train_pairs.py` from
/// `tf.lite.Interpreter` outputs; a crop with its own face must be likelier the same card than
/// with a sibling's.
#[test]
fn the_pair_verifier_agrees_with_python_to_1e_3() {
    use vision::pairs::{PairVerifier, CROP_H, CROP_W};
    let verifier = PairVerifier::load(model_dir().join("card_pairs.tflite")).expect("loads");
    let text = std::fs::read_to_string(model_dir().join("card_pairs-agreement.json"))
        .expect("card_pairs-agreement.json");
    let agreement: PairAgreement = serde_json::from_str(&text).expect("agreement parses");
    assert_eq!(
        agreement.input_shape,
        [1, CROP_H as usize, CROP_W as usize, 6]
    );
    assert!(agreement.cases.len() >= 3, "too few agreement cases");
    let mut logits = Vec::new();
    for case in &agreement.cases {
        let (mut seen, mut print) = (Vec::new(), Vec::new());
        for pixel in case.bgr_u8.chunks_exact(6) {
            seen.extend(pixel[..3].iter().map(|&b| b as f32 / 255.0));
            print.extend(pixel[3..].iter().map(|&b| b as f32 / 255.0));
        }
        let logit = verifier.same_logit(&seen, &print).expect("runs");
        assert!(
            (logit - case.logit).abs() <= 1e-3 * case.logit.abs().max(1.0),
            "{}: tract {logit} vs python {}",
            case.name,
            case.logit
        );
        logits.push(logit);
    }
    assert!(
        logits[0] > logits[1],
        "own face {} vs a sibling's {}",
        logits[0],
        logits[1]
    );
}

/// `model` (in models/identify) takes crops of `crop_size` and gives, through tract, the outputs
/// the Python interpreter wrote in `agreement`.
fn agrees_with_python(model: &str, agreement: &str, crop_size: (i32, i32)) {
    let embedder = Embedder::load(model_dir().join(model)).expect("shipped model loads");
    assert_eq!(embedder.crop_size(), crop_size, "{model}");
    let text = std::fs::read_to_string(model_dir().join(agreement)).expect(agreement);
    let agreement: Agreement = serde_json::from_str(&text).expect("agreement parses");
    assert!(agreement.cases.len() >= 3, "too few agreement cases");
    for case in &agreement.cases {
        let raw = embedder.embed_raw(&case.bgr_u8).expect("runs");
        let embedding = embedder.embed_pixels(&case.bgr_u8).expect("runs");
        assert_eq!(raw.len(), EMBED_DIM, "{}", case.name);
        assert_eq!(case.raw.len(), EMBED_DIM, "{}", case.name);
        for (i, (got, want)) in raw.iter().zip(&case.raw).enumerate() {
            assert!(
                (got - want).abs() <= 1e-4,
                "{model} {} raw[{i}]: tract {got} vs python {want}",
                case.name
            );
        }
        for (i, (got, want)) in embedding.iter().zip(&case.embedding).enumerate() {
            assert!(
                (got - want).abs() <= 1e-4,
                "{model} {} embedding[{i}]: tract {got} vs python {want}",
                case.name
            );
        }
    }
}

#[test]
fn a_truncated_model_file_is_an_error_not_a_panic() {
    let bytes = std::fs::read(model_dir().join("card_embed.tflite")).expect("shipped model");
    let dir = std::env::temp_dir().join(format!("arbiter-embed-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, content) in [
        ("truncated.tflite", bytes[..bytes.len() / 3].to_vec()),
        ("head-only.tflite", bytes[..64].to_vec()),
        (
            "garbage.tflite",
            (0..4096u32)
                .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
                .collect(),
        ),
        ("empty.tflite", Vec::new()),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, content).unwrap();
        let result = Embedder::load(&path);
        assert!(result.is_err(), "{name} loaded as a model");
        let message = result.err().unwrap().to_string();
        assert!(
            message.contains(name),
            "{name}: the error should name the file: {message}"
        );
    }
    let missing = Embedder::load(dir.join("missing.tflite"));
    assert!(missing.is_err());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_crop_of_the_wrong_size_is_an_error() {
    let embedder =
        Embedder::load(model_dir().join("card_embed.tflite")).expect("shipped model loads");
    assert!(embedder.embed_pixels(&[0u8; 30]).is_err());
    let wrong = opencv::core::Mat::new_rows_cols_with_default(
        10,
        10,
        opencv::core::CV_8UC3,
        opencv::core::Scalar::all(0.0),
    )
    .unwrap();
    assert!(embedder.embed(&wrong).is_err());
}

/// Issue 8: cards the model never saw in training (held out by `train.py`, listed in metrics.json) are
/// identified by enrolling their clean face, with no retraining. Seeds 21000–21009 are validation scenes.
#[test]
fn a_card_never_seen_in_training_is_identified_by_enrolling_its_face() {
    #[derive(serde::Deserialize)]
    struct Metrics {
        held_out_cards: Vec<String>,
    }
    let text = std::fs::read_to_string(model_dir().join("metrics.json")).expect("metrics.json");
    let held_out = serde_json::from_str::<Metrics>(&text)
        .expect("parses")
        .held_out_cards;
    assert!(!held_out.is_empty());
    let embedder =
        Embedder::load(model_dir().join("card_embed.tflite")).expect("shipped model loads");
    let catalogue = blitz::catalogue::Catalogue::demo();
    let faces = vision::distinct::blitz_faces(&catalogue.cards).expect("faces");
    let enrolment = vision::embed::Enrolment::from_faces(
        &embedder,
        faces.iter().map(|(id, m)| (id.as_str(), m)),
    )
    .expect("enrols");
    assert_eq!(enrolment.len(), catalogue.cards.len());
    let renderer = vision::scene::SceneRenderer::new(&catalogue).expect("renderer");
    let (mut unseen, mut unseen_right, mut all, mut all_right) = (0, 0, 0, 0);
    for seed in 21000..21010 {
        let scene = renderer.render(seed, &Default::default()).expect("renders");
        for card in scene.truth.cards.iter().filter(|c| !c.covered) {
            let crop = vision::embed::warp_crop(&scene.image, &card.corners).expect("crop");
            let embedding = embedder.embed(&crop).expect("embeds");
            let best = enrolment.nearest(&embedding).expect("enrolled").card;
            let right = best == card.card;
            all += 1;
            all_right += usize::from(right);
            if held_out.contains(&card.card) {
                unseen += 1;
                unseen_right += usize::from(right);
            }
        }
    }
    assert!(
        unseen >= 10,
        "too few held-out cards in these scenes: {unseen}"
    );
    assert!(
        unseen_right * 100 >= unseen * 95,
        "held-out cards: {unseen_right}/{unseen} identified"
    );
    assert!(all_right * 100 >= all * 95, "all cards: {all_right}/{all}");
}

fn learned(faces: &[(&str, &opencv::core::Mat)]) -> vision::identifier::Learned {
    vision::identifier::Learned::load(
        &model_dir().join("card_embed.tflite"),
        faces.iter().copied(),
    )
    .expect("shipped model loads")
}

/// Scanners naming cards with `kinds`, every catalogue card enrolled except `left_out`.
fn scanners(
    kinds: &[vision::identifier::IdentifierKind],
    left_out: &[&str],
) -> Vec<vision::Scanner> {
    use vision::identifier::{Identifier, IdentifierKind};
    let catalogue = blitz::catalogue::Catalogue::demo();
    let faces = vision::distinct::blitz_faces(&catalogue.cards).expect("faces");
    let kept: Vec<(&str, &opencv::core::Mat)> = faces
        .iter()
        .map(|(id, m)| (id.as_str(), m))
        .filter(|(id, _)| !left_out.contains(id))
        .collect();
    kinds
        .iter()
        .map(|kind| {
            let refs = vision::identify::ReferenceSet::from_faces(kept.iter().copied())
                .expect("references");
            let identifier = match kind {
                IdentifierKind::Hash => Identifier::Hash,
                IdentifierKind::Orb => Identifier::Orb(
                    vision::orb::OrbIndex::from_faces(kept.iter().copied()).expect("orb index"),
                ),
                IdentifierKind::Model => Identifier::Model(learned(&kept)),
                IdentifierKind::Fused => Identifier::Fused(learned(&kept)),
            };
            vision::Scanner::with_refs(&catalogue, refs, Default::default())
                .with_identifier(identifier)
        })
        .collect()
}

/// Issue 8: the model and the fused identifier name the cards of whole scenes through the pipeline
/// (seeds 21010–21012, validation range), and report the time they add.
#[test]
fn issue_8_model_and_fused_scanners_name_the_cards_of_rendered_scenes() {
    use vision::identifier::IdentifierKind;
    let catalogue = blitz::catalogue::Catalogue::demo();
    let renderer = vision::scene::SceneRenderer::new(&catalogue).expect("renderer");
    let scanners = scanners(&[IdentifierKind::Model, IdentifierKind::Fused], &[]);
    for scanner in &scanners {
        let (mut visible, mut right, mut wrong) = (0, 0, 0);
        for seed in 21010..21013 {
            let scene = renderer.render(seed, &Default::default()).expect("renders");
            let obs = scanner.scan(&scene.image, seed).expect("scans");
            assert!(obs.timings.quads_identified > 0);
            assert!(obs.timings.identifier_extra_ms > 0.0);
            let outcome = vision::eval::compare(&scene.truth, &obs);
            wrong += outcome.wrong_named;
            for c in outcome.cards.iter().filter(|c| !c.covered) {
                visible += 1;
                right += usize::from(c.got.as_ref() == Some(&c.truth));
            }
        }
        let kind = scanner.identifier().kind().name();
        assert_eq!(wrong, 0, "{kind}: cards named wrongly");
        assert!(
            right * 100 >= visible * 95,
            "{kind}: {right}/{visible} named"
        );
    }
}

/// Issue 8: a card nobody enrolled is not named by the fused identifier, though the classical
/// matcher alone names some such cards as their nearest look-alike.
#[test]
fn issue_8_fused_does_not_name_a_card_nobody_enrolled() {
    use vision::identifier::IdentifierKind;
    let catalogue = blitz::catalogue::Catalogue::demo();
    let renderer = vision::scene::SceneRenderer::new(&catalogue).expect("renderer");
    // Leave out every card of these scenes' first rows: many strangers per scene.
    let scenes: Vec<_> = (21013..21016)
        .map(|seed| renderer.render(seed, &Default::default()).expect("renders"))
        .collect();
    let strangers: Vec<String> = scenes
        .iter()
        .flat_map(|s| s.truth.cards.iter().filter(|c| !c.covered).step_by(3))
        .map(|c| c.card.clone())
        .collect();
    let left_out: Vec<&str> = strangers.iter().map(String::as_str).collect();
    let scanners = scanners(&[IdentifierKind::Hash, IdentifierKind::Fused], &left_out);
    let named = |scanner: &vision::Scanner| -> (usize, usize) {
        let (mut seen, mut named) = (0, 0);
        for scene in &scenes {
            let obs = scanner.scan(&scene.image, 0).expect("scans");
            let outcome = vision::eval::compare(&scene.truth, &obs);
            for c in outcome
                .cards
                .iter()
                .filter(|c| !c.covered && left_out.contains(&c.truth.as_str()))
            {
                seen += 1;
                named += usize::from(c.got.is_some());
            }
        }
        (seen, named)
    };
    let (seen, fused_named) = named(&scanners[1]);
    assert!(seen >= 10, "too few strangers: {seen}");
    assert_eq!(
        fused_named, 0,
        "fused named {fused_named} of {seen} unenrolled cards"
    );
    let (_, hash_named) = named(&scanners[0]);
    eprintln!("unenrolled cards named: hash {hash_named}/{seen}, fused 0/{seen}");
}

/// Issue 8's ORB baseline names a clean, upright card seen at about webcam size (48 px wide).
#[test]
fn orb_names_a_clean_face() {
    use opencv::prelude::MatTraitConst;
    let catalogue = blitz::catalogue::Catalogue::demo();
    let faces = vision::distinct::blitz_faces(&catalogue.cards).expect("faces");
    let index = vision::orb::OrbIndex::from_faces(faces.iter().map(|(id, m)| (id.as_str(), m)))
        .expect("index");
    let mut named = 0;
    for (id, face) in faces.iter().step_by(16) {
        let small = shrunk(face, 48, 67);
        let (w, h) = (small.cols() as f32, small.rows() as f32);
        let verdict = index
            .identify(&small, &[[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]])
            .expect("identifies");
        // Never a wrong name; abstaining is ORB's usual failure on cards this small.
        assert!(
            verdict.card.as_ref().is_none_or(|c| c == id),
            "{id} named {:?}",
            verdict.card
        );
        named += usize::from(verdict.card.is_some());
    }
    assert!(named >= 5, "ORB named {named} of 11 clean faces");
}

/// Issue 8: a photo enrolled with `identify::enroll` gives the corners to cut the model's crop, and
/// its embedding finds the card among the enrolled faces (what `arbiter enroll` stores).
#[test]
fn issue_8_an_enrolled_photo_embeds_near_its_own_face() {
    use opencv::prelude::*;
    let catalogue = blitz::catalogue::Catalogue::demo();
    let faces = vision::distinct::blitz_faces(&catalogue.cards).expect("faces");
    let refs =
        vision::identify::ReferenceSet::from_faces(faces.iter().map(|(id, m)| (id.as_str(), m)))
            .expect("references");
    let embedder =
        Embedder::load(model_dir().join("card_embed.tflite")).expect("shipped model loads");
    let enrolment = vision::embed::Enrolment::from_faces(
        &embedder,
        faces.iter().map(|(id, m)| (id.as_str(), m)),
    )
    .expect("enrols");
    for (id, face) in faces.iter().step_by(40) {
        let small = shrunk(face, 124, 173);
        let mut photo = opencv::core::Mat::new_rows_cols_with_default(
            300,
            300,
            opencv::core::CV_8UC3,
            opencv::core::Scalar::all(90.0),
        )
        .expect("table");
        small
            .copy_to(
                &mut opencv::core::Mat::roi_mut(
                    &mut photo,
                    opencv::core::Rect::new(80, 60, 124, 173),
                )
                .expect("roi"),
            )
            .expect("paste");
        let enrolled = vision::identify::enroll(&photo, id, &refs).expect("enrols");
        let crop = vision::embed::warp_crop(&photo, &enrolled.corners).expect("crop");
        let near = enrolment
            .nearest(&embedder.embed(&crop).expect("embeds"))
            .expect("enrolled");
        assert_eq!(near.card, id.as_str());
        assert!(near.cosine > 0.9, "{id}: cosine {}", near.cosine);
    }
}

/// A face scaled down (area-averaged) to `w × h`, as a camera would see it.
fn shrunk(face: &opencv::core::Mat, w: i32, h: i32) -> opencv::core::Mat {
    let mut small = opencv::core::Mat::default();
    opencv::imgproc::resize(
        face,
        &mut small,
        opencv::core::Size::new(w, h),
        0.0,
        0.0,
        opencv::imgproc::INTER_AREA,
    )
    .expect("resize");
    small
}

fn missed_cards() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/missed-cards")
}

/// The shipped learned card detector with its corner refiner.
fn card_detector() -> vision::detector::CardDetector {
    let models = model_dir().join("..");
    vision::detector::CardDetector::new(
        models.join("detect/card_detect.tflite"),
        Default::default(),
    )
    .expect("shipped detector loads")
    .with_corner_refiner(
        vision::detector::CornerRefiner::load(models.join("detect/card_corners.tflite"))
            .expect("shipped corner refiner loads"),
    )
}

/// The table's scanner: the fused identifier and the learned detector beside the frame holes.
fn fused_with_learned_detector() -> vision::Scanner {
    scanners(&[vision::identifier::IdentifierKind::Fused], &[])
        .pop()
        .expect("a scanner")
        .with_card_detector(Some(card_detector()))
}

/// How `scanner` reads a fixture of two boards from seed `first_seed` on.
fn two_boards_read(
    scanner: &vision::Scanner,
    dir: &std::path::Path,
    first_seed: u64,
) -> vision::eval::Summary {
    let outcomes = vision::eval::run_dir(scanner, dir, None, |_, _| {}).expect("fixture reads");
    assert_eq!(outcomes.len(), 2);
    vision::eval::summarise(&outcomes, first_seed)
}

/// Two tuning boards from the second compositor (models/detect/export_boards.py, seeds 612028 and
/// 612075): a side camera with the far row half under an arm, and an end camera at 44° whose far
/// card's frame is too soft to find. The learned detector finds the cards the frame holes miss,
/// and the table's identifier names them as frame holes: both boards read exactly, where the
/// frame holes alone miss a card.
#[test]
fn the_learned_detector_finds_the_cards_the_frame_holes_miss() {
    use vision::identifier::IdentifierKind;
    let dir = missed_cards();
    let mut scanners = scanners(&[IdentifierKind::Fused, IdentifierKind::Fused], &[]);
    let with_learned = scanners
        .pop()
        .expect("two scanners")
        .with_card_detector(Some(card_detector()));
    let frame_only = scanners.pop().expect("two scanners");
    let before = two_boards_read(&frame_only, &dir, 612028);
    assert!(before.missed_rate > 0.0, "{before:#?}");
    assert!(before.whole_board_exact < 1.0, "{before:#?}");
    let after = two_boards_read(&with_learned, &dir, 612028);
    assert_eq!(after.whole_board_exact, 1.0, "{after:#?}");
    assert_eq!(after.wrong_confident_rate, 0.0);
}

/// Two tuning boards from the second compositor (models/detect/export_boards.py, seeds 612013 and
/// 612046), an end and a side camera at 50° tilt: the far row's cards are 20–35 px tall, too small
/// for the learned detector shown the whole frame. The table's frame, fitted to the near cards,
/// says where the far empty cells lie; a closer look at them finds the cards, and neither board
/// reads exactly without it.
#[test]
fn a_closer_look_at_the_far_empty_cells_finds_the_cards_there() {
    use vision::identifier::IdentifierKind;
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/far-steep-cards");
    let mut scanners = scanners(&[IdentifierKind::Fused, IdentifierKind::Fused], &[]);
    let closer = scanners
        .pop()
        .expect("two scanners")
        .with_card_detector(Some(card_detector()));
    let mut whole_frame_only = scanners
        .pop()
        .expect("two scanners")
        .with_card_detector(Some(card_detector()));
    whole_frame_only.options.look_closer_at_far_cells = false;
    let before = two_boards_read(&whole_frame_only, &dir, 612013);
    assert_eq!(before.whole_board_exact, 0.0, "{before:#?}");
    assert!(before.missed_rate > 0.0, "{before:#?}");
    let after = two_boards_read(&closer, &dir, 612013);
    assert_eq!(after.whole_board_exact, 1.0, "{after:#?}");
    assert_eq!(after.wrong_confident_rate, 0.0);
    assert_eq!(after.phantoms, 0);
}

/// Two tuning boards from the second compositor (seeds 613047 and 613191: end cameras at 46°, on
/// checked cloth and gravel) where one far card's classical match is clear (score 0.64–0.74) and
/// the model's nearest is the same card with a clear lead (0.19–0.27) but at cosine 0.55–0.59,
/// under `agree_cosine`: the lead agreement names them, so both boards read exactly; without it
/// neither does.
#[test]
fn a_clear_lead_on_a_clear_classical_match_names_the_far_card() {
    use vision::identifier::{Identifier, IdentifierKind};
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lead-agreement");
    let catalogue = blitz::catalogue::Catalogue::demo();
    let faces = vision::distinct::blitz_faces(&catalogue.cards).expect("faces");
    let faces: Vec<(&str, &opencv::core::Mat)> =
        faces.iter().map(|(id, m)| (id.as_str(), m)).collect();
    let mut without_lead = learned(&faces);
    without_lead.thresholds.lead_agree_gap = f32::INFINITY;
    let read = |identifier: Identifier| {
        let scanner = scanners(&[IdentifierKind::Hash], &[])
            .pop()
            .expect("a scanner")
            .with_identifier(identifier)
            .with_card_detector(Some(card_detector()));
        two_boards_read(&scanner, &dir, 613047)
    };
    let before = read(Identifier::Fused(without_lead));
    assert_eq!(before.whole_board_exact, 0.0, "{before:#?}");
    let after = read(Identifier::Fused(learned(&faces)));
    assert_eq!(after.whole_board_exact, 1.0, "{after:#?}");
    assert_eq!(after.wrong_confident_rate, 0.0);
}

/// A tuning board (seed 613246, an end camera at 43° on felt) with a card cut by the frame's
/// bottom edge: its visible strip is shaped like a front-line card lying sideways, and was named
/// one. A side along the frame's edge makes an outline partly hidden, so nothing is named there.
#[test]
fn a_card_cut_by_the_frame_edge_is_not_named_as_another() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cut-by-frame-edge");
    let scanner = fused_with_learned_detector();
    let outcomes = vision::eval::run_dir(&scanner, &dir, None, |_, _| {}).expect("fixture reads");
    assert_eq!(outcomes.len(), 1);
    let s = vision::eval::summarise(&outcomes, 613246);
    assert_eq!(s.wrong_confident_rate, 0.0, "{s:#?}");
    assert!(s.identity_accuracy >= 0.99, "{s:#?}");
}

/// Two boards with an arm over the grid's first column, so the named cards span three of its four
/// columns, and taking the leftmost for column 0 put every card a column off: on tuning board
/// 614109 (wood, 19° tilt) the edges of a card peeking out beside the arm say the grid reaches that
/// way; on 609215 (brick, overhead) nothing peeks out, and the other way would leave a column
/// outside the picture.
#[test]
fn a_hand_over_the_first_column_does_not_shift_the_grid() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hand-over-a-column");
    let scanner = fused_with_learned_detector();
    let outcomes = vision::eval::run_dir(&scanner, &dir, None, |_, _| {}).expect("fixture reads");
    assert_eq!(outcomes.len(), 2);
    let s = vision::eval::summarise(&outcomes, 614109);
    assert!(s.cell_accuracy >= 0.99, "{s:#?}");
    assert_eq!(s.wrong_confident_rate, 0.0, "{s:#?}");
}

/// Reads a fixture of two second-compositor boards with the fused identifier and the learned
/// detector: no unnamed outline where no card lies, and the cards named.
fn reads_two_boards_without_phantoms(fixture: &str, first_seed: u64) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(fixture);
    let scanner = fused_with_learned_detector();
    let outcomes = vision::eval::run_dir(&scanner, &dir, None, |_, _| {}).expect("fixture reads");
    assert_eq!(outcomes.len(), 2);
    for o in &outcomes {
        assert_eq!(o.phantoms(), 0, "{}: {:?}", o.seed, o.phantom_places());
    }
    let s = vision::eval::summarise(&outcomes, first_seed);
    assert!(s.identity_accuracy >= 0.99, "{s:#?}");
}

/// Two tuning boards from the second compositor (seeds 612055 and 612121) where the learned
/// detector outlines what is no card: the table between two cards of a column, and patches of a
/// patterned table. Nothing names them, and their sides are not edges in the image, so they are
/// not reported (every unnamed outline kept, the boards had four phantoms).
#[test]
fn the_learned_detector_reports_no_outline_without_edges() {
    reads_two_boards_without_phantoms("edgeless-outlines", 612055);
}

/// Two tuning boards from the second compositor (seeds 612015 and 612020) on brick tables, whose
/// mortar the frame finder takes for card frames: nothing names those holes, and the image is the
/// same just within as just beyond their sides, where a card's hole meets its black frame, so
/// they are not reported (every unnamed hole kept, the boards had four phantoms, all partly
/// hidden).
#[test]
fn a_brick_is_no_card_hole() {
    reads_two_boards_without_phantoms("frameless-holes", 612015);
}

/// Two tuning boards from the second compositor (seeds 612136 and 612158) where the learned
/// detector outlines patches of a check cloth between the cards and the table between two cards
/// of a column: nothing names them and their sides are edges, but under the frame the cards
/// give the table they measure like no printed card (seven phantoms without the size check).
#[test]
fn an_unnamed_outline_must_measure_like_a_card() {
    reads_two_boards_without_phantoms("undersized-outlines", 612136);
}

/// Two scenes of our own renderer with the printed mat, the camera anywhere (seeds 5 and 10,
/// among the 1–40 the check was chosen on): the learned detector outlines the mat's markers, one
/// of them cut by the image's edge. Nothing names them; they are square, or lie on a marker of the
/// mat the frame was fitted to, so they are not reported (five phantoms before).
#[test]
fn the_mats_markers_are_no_cards() {
    let catalogue = blitz::catalogue::Catalogue::demo();
    let renderer = vision::scene::SceneRenderer::new(&catalogue).expect("renderer");
    let scanner = fused_with_learned_detector();
    let opts = vision::scene::SceneOptions {
        aruco_mat: Some(true),
        placements: vision::scene::Placement::ANY.to_vec(),
        ..Default::default()
    };
    for seed in [5, 10] {
        let scene = renderer.render(seed, &opts).expect("renders");
        let obs = scanner.scan(&scene.image, seed).expect("scans");
        assert!(
            matches!(obs.calibration, vision::Calibration::Mat { .. }),
            "{seed}: {:?}",
            obs.calibration
        );
        let outcome = vision::eval::compare(&scene.truth, &obs);
        assert_eq!(
            outcome.phantoms(),
            0,
            "{seed}: {:?}",
            outcome.phantom_places()
        );
        assert_eq!(outcome.wrong_named, 0, "{seed}");
    }
}

/// A frame in motion commits nothing, so it is read without the learned detector; the still frame
/// after it is read again with it (not taken as the same table): board 612075's far card, which
/// only the learned detector finds, is missing while the camera moves and named once it is still.
#[test]
fn the_learned_detector_waits_for_a_still_frame() {
    let dir = missed_cards().join("scenes");
    let read = |seed: u32| vision::pipeline::read_image(&dir.join(format!("{seed}.jpg"))).unwrap();
    let scanner = fused_with_learned_detector();
    let far = "wh-r01";
    let named =
        |obs: &vision::TableObservation| obs.cards.iter().any(|c| c.card.as_deref() == Some(far));
    let mut memory = vision::memory::TableMemory::new();
    scanner
        .scan_following(&read(612028), 0, &mut memory)
        .unwrap();
    let board = read(612075);
    let moving = scanner.scan_following(&board, 1, &mut memory).unwrap();
    assert!(moving.motion && !named(&moving), "{:?}", moving.timings);
    let still = scanner.scan_following(&board, 2, &mut memory).unwrap();
    assert!(
        !still.motion && !still.timings.reused,
        "{:?}",
        still.timings
    );
    assert!(named(&still));
    let again = scanner.scan_following(&board, 3, &mut memory).unwrap();
    assert!(again.timings.reused && named(&again));
}
