//! One full 1280×720 frame through the scanner (mat calibration, detection, identification against
//! the whole demo catalogue, cells). Goal from the vision issue: ≤ 33 ms median with ~28 cards on
//! one core (stretch 16 ms). `cargo bench -p vision`.

use criterion::{criterion_group, criterion_main, Criterion};
use vision::scene::{SceneOptions, SceneRenderer};

fn full_frame(c: &mut Criterion) {
    let cat = blitz::catalogue::Catalogue::demo();
    let renderer = SceneRenderer::new(&cat).expect("renderer");
    let scanner = vision::Scanner::new(&cat, Default::default()).expect("scanner");
    // A full board: every cell holds a card (28 or more with stacks).
    for (name, mat) in [("frame_with_mat", true), ("frame_front_line_fit", false)] {
        let scene = renderer
            .render(
                11,
                &SceneOptions {
                    aruco_mat: Some(mat),
                    occupancy: Some(1.0),
                    ..Default::default()
                },
            )
            .expect("scene");
        let cards = scene.truth.cards.len();
        c.bench_function(&format!("{name}_{cards}_cards"), |b| {
            b.iter(|| scanner.scan(&scene.image, 0).expect("scan"))
        });
    }
}

/// Scene 11 with every cell holding a card, no mat.
fn full_board_without_mat(renderer: &SceneRenderer) -> vision::scene::Scene {
    full_board(renderer, None)
}

/// Scene 11 with every cell holding a card, no mat; `hand` forces a hand over it or none (else
/// the seed decides).
fn full_board(renderer: &SceneRenderer, hand: Option<bool>) -> vision::scene::Scene {
    renderer
        .render(
            11,
            &SceneOptions {
                aruco_mat: Some(false),
                occupancy: Some(1.0),
                hand,
                ..Default::default()
            },
        )
        .expect("scene")
}

/// A sequence of frames of one table (`scan_following`): a frame like the last one scanned (with
/// sensor noise) against one in which a card changed (each scanned in full).
fn sequence(c: &mut Criterion) {
    use opencv::core::{Mat, Rect, Scalar};
    use opencv::prelude::*;
    let cat = blitz::catalogue::Catalogue::demo();
    let renderer = SceneRenderer::new(&cat).expect("renderer");
    let scanner = vision::Scanner::new(&cat, Default::default()).expect("scanner");
    let scene = full_board_without_mat(&renderer);
    let (rows, cols) = (scene.image.rows(), scene.image.cols());
    let mut noise =
        Mat::new_rows_cols_with_default(rows, cols, opencv::core::CV_16SC3, Scalar::all(0.0))
            .expect("noise");
    opencv::core::randn(&mut noise, &Scalar::all(0.0), &Scalar::all(3.0)).expect("noise");
    let mut noisy = Mat::default();
    let mask = opencv::core::no_array();
    opencv::core::add(&scene.image, &noise, &mut noisy, &mask, opencv::core::CV_8U).expect("add");
    let mut memory = vision::memory::TableMemory::new();
    scanner
        .scan_following(&scene.image, 0, &mut memory)
        .expect("scan");
    c.bench_function("sequence_unchanged_frame", |b| {
        b.iter(|| {
            scanner
                .scan_following(&noisy, 1, &mut memory)
                .expect("scan")
        })
    });
    // A hand reaching over the same board: the first frame with it, then the first without it,
    // each a change (scanned in full), as when a player lays or picks up a card.
    let with_hand = full_board(&renderer, Some(true));
    let mut hand_in = false;
    c.bench_function("sequence_hand_over_table", |b| {
        b.iter(|| {
            hand_in = !hand_in;
            let frame = if hand_in {
                &with_hand.image
            } else {
                &scene.image
            };
            scanner.scan_following(frame, 3, &mut memory).expect("scan")
        })
    });
    let mut moved = scene.image.clone();
    let rect = Rect::new(600, 300, 60, 84);
    opencv::imgproc::rectangle(&mut moved, rect, Scalar::all(30.0), -1, 8, 0).expect("card");
    let mut flip = false;
    c.bench_function("sequence_changed_frame", |b| {
        b.iter(|| {
            flip = !flip;
            let frame = if flip { &moved } else { &scene.image };
            scanner.scan_following(frame, 2, &mut memory).expect("scan")
        })
    });
}

/// The same full board through the frame-hole detector alone and through the learned, design-
/// agnostic detector (stages: model, quads, snap), and a held-out-family scene of the committed
/// fixture through the learned detector: what the new detector costs against the old in one run.
fn detectors(c: &mut Criterion) {
    let cat = blitz::catalogue::Catalogue::demo();
    let renderer = SceneRenderer::new(&cat).expect("renderer");
    let scene = full_board_without_mat(&renderer);
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut learned = vision::detector::CardDetector::new(
        root.join("../models/detect/card_detect.tflite"),
        Default::default(),
    )
    .expect("detector");
    let mut gray = opencv::core::Mat::default();
    opencv::imgproc::cvt_color(&scene.image, &mut gray, opencv::imgproc::COLOR_BGR2GRAY, 0)
        .expect("grey");
    let options = vision::detect::DetectOptions::default();
    c.bench_function("detect_frame_holes_full_board", |b| {
        b.iter(|| vision::detect::find_holes(&gray, &options, None).expect("holes"))
    });
    c.bench_function("detect_learned_full_board", |b| {
        b.iter(|| learned.detect(&scene.image).expect("detect"))
    });
    let any =
        vision::pipeline::read_image(&root.join("tests/fixtures/any-cards/scenes/599000.jpg"))
            .expect("fixture scene");
    c.bench_function("detect_learned_any_design_scene", |b| {
        b.iter(|| learned.detect(&any).expect("detect"))
    });
    let mut refined = vision::detector::CardDetector::new(
        root.join("../models/detect/card_detect.tflite"),
        Default::default(),
    )
    .expect("detector")
    .with_corner_refiner(
        vision::detector::CornerRefiner::load(root.join("../models/detect/card_corners.tflite"))
            .expect("corner refiner"),
    );
    c.bench_function("detect_learned_any_design_scene_corners_refined", |b| {
        b.iter(|| refined.detect(&any).expect("detect"))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = full_frame, sequence, detectors
}
criterion_main!(benches);
