//! Accuracy floors on a small fixed-seed set, bad inputs, and the building blocks of the pipeline.
//! The floors sit below what `arbiter eval-vision` measures (see docs/vision.md) so that a real
//! regression trips them; timing goals live in the criterion bench, not here.

mod common;

use vision::eval::{compare, summarise};
use vision::scene::SceneOptions;

#[test]
fn accuracy_floors_on_fixed_seeds_1000_to_1007() {
    let kit = common::kit();
    let outcomes: Vec<_> = (1000..1008)
        .map(|seed| {
            let scene = kit.renderer.render(seed, &SceneOptions::default()).unwrap();
            let obs = kit.scanner.scan(&scene.image, seed).unwrap();
            compare(&scene.truth, &obs)
        })
        .collect();
    let s = summarise(&outcomes, 1000);
    eprintln!("{s:#?}");
    assert!(s.visible_cards > 100);
    assert!(
        s.identity_accuracy >= 0.99,
        "identity {:.3}",
        s.identity_accuracy
    );
    assert!(
        s.wrong_confident_rate <= 0.005,
        "wrong-confident {:.3}",
        s.wrong_confident_rate
    );
    assert!(
        s.orientation_accuracy >= 0.99,
        "orientation {:.3}",
        s.orientation_accuracy
    );
    assert!(s.cell_accuracy >= 0.99, "cell {:.3}", s.cell_accuracy);
    // 8 of 8 exact when measured (issue 3); one bad board of eight would still pass.
    assert!(
        s.whole_board_exact >= 0.85,
        "whole board {:.3}",
        s.whole_board_exact
    );
}

#[test]
fn with_the_mat_every_card_gets_a_cell_from_the_markers() {
    let kit = common::kit();
    let opts = SceneOptions {
        aruco_mat: Some(true),
        ..Default::default()
    };
    let scene = kit.renderer.render(5, &opts).unwrap();
    let obs = kit.scanner.scan(&scene.image, 0).unwrap();
    assert!(
        matches!(obs.calibration, vision::Calibration::Mat { ref mat, .. } if mat == "blitz-4x7"),
        "{:?}",
        obs.calibration
    );
    let outcome = compare(&scene.truth, &obs);
    let visible = outcome
        .cards
        .iter()
        .filter(|c| !c.covered && c.detected)
        .count();
    let celled = outcome
        .cards
        .iter()
        .filter(|c| !c.covered && c.cell_ok)
        .count();
    assert!(
        celled * 10 >= visible * 9,
        "{celled} of {visible} cells right"
    );
}

#[test]
fn observation_serialises_with_the_documented_fields() {
    let kit = common::kit();
    let scene = kit.renderer.render(3, &SceneOptions::default()).unwrap();
    let obs = kit.scanner.scan(&scene.image, 9).unwrap();
    let v = serde_json::to_value(&obs).unwrap();
    assert_eq!(v["frame_index"], 9);
    let card = &v["cards"][0];
    for key in [
        "card",
        "corners",
        "center",
        "orientation",
        "cell",
        "covered",
        "confidence",
    ] {
        assert!(card.get(key).is_some(), "missing {key} in {card}");
    }
    let back: vision::TableObservation = serde_json::from_value(v).unwrap();
    assert_eq!(back, obs);
}

#[test]
fn empty_corrupt_and_missing_images_are_errors_naming_the_file() {
    let dir = std::env::temp_dir().join(format!("arbiter-vision-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let empty = dir.join("empty.png");
    std::fs::write(&empty, b"").unwrap();
    let corrupt = dir.join("corrupt.jpg");
    std::fs::write(&corrupt, b"\xff\xd8 this is not really a jpeg").unwrap();
    let missing = dir.join("missing.png");
    for path in [&empty, &corrupt, &missing] {
        let err = vision::pipeline::read_image(path).unwrap_err().to_string();
        assert!(err.contains(&path.display().to_string()), "{err}");
    }
    let mut files = vision::source::ImageFiles::new(std::slice::from_ref(&corrupt)).unwrap();
    use vision::source::FrameSource;
    assert!(files.next_frame().is_err());
    std::fs::remove_dir_all(&dir).ok();
}

/// A video file says the rate it was recorded at (for the live loop's "keeps up" report) and gives
/// its frames in order; an image folder knows no rate.
#[test]
fn a_video_file_gives_its_frames_and_the_rate_it_was_recorded_at() {
    use opencv::core::{Mat, Scalar, Size, CV_8UC3};
    use opencv::videoio::{VideoWriter, VideoWriterTrait};
    use vision::source::FrameSource;
    let dir = std::env::temp_dir().join(format!("arbiter-video-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("table.avi");
    let fourcc = VideoWriter::fourcc('M', 'J', 'P', 'G').unwrap();
    let mut writer = VideoWriter::new(
        path.to_str().unwrap(),
        fourcc,
        24.0,
        Size::new(160, 120),
        true,
    )
    .unwrap();
    for k in 0..5 {
        let frame =
            Mat::new_rows_cols_with_default(120, 160, CV_8UC3, Scalar::all(40.0 * k as f64))
                .unwrap();
        writer.write(&frame).unwrap();
    }
    writer.release().unwrap();
    let mut video = vision::source::VideoFile::open(&path).unwrap();
    let rate = video.frames_per_second().expect("a video knows its rate");
    assert!((rate - 24.0).abs() < 0.01, "{rate}");
    let mut frames = 0;
    while let Some(frame) = video.next_frame().unwrap() {
        assert_eq!(frame.index, frames);
        frames += 1;
    }
    assert_eq!(frames, 5);
    let images = vision::source::ImageFiles::new(std::slice::from_ref(&dir)).unwrap();
    assert_eq!(images.frames_per_second(), None);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn no_camera_is_a_clear_error_not_a_panic() {
    let cameras = vision::source::list_cameras().unwrap_or_default();
    if cameras.is_empty() {
        let err = vision::source::Webcam::open(0, 1280, 720)
            .err()
            .expect("no camera: open must fail");
        assert!(err.to_string().contains("no camera"), "{err}");
    }
}

#[test]
fn orientation_follows_the_card_top() {
    use vision::Orientation::*;
    assert_eq!(vision::Orientation::from_up_vector(0.0, 1.0), Upright);
    assert_eq!(vision::Orientation::from_up_vector(0.0, -1.0), Inverted);
    assert_eq!(vision::Orientation::from_up_vector(1.0, 0.1), TappedRight);
    assert_eq!(vision::Orientation::from_up_vector(-1.0, 0.1), TappedLeft);
    for t in 0..4 {
        assert_eq!(
            vision::Orientation::from_quarter_turns(t).quarter_turns(),
            t
        );
    }
}

#[test]
fn mat_cells_count_rows_from_the_viewer() {
    let layout = vision::mats::MatLayout::blitz(4);
    assert_eq!(layout.cell_of([50.0, 50.0]), Some((0, 0)));
    assert_eq!(layout.cell_of([350.0, 650.0]), Some((3, 6)));
    assert_eq!(layout.cell_of([450.0, 50.0]), None);
    assert_eq!(vision::mats::MatLayout::blitz(5).markers[0].0, 10);
    assert_eq!(vision::mats::MatLayout::duel().rows, 2);
}

#[test]
fn enrolling_a_card_gives_a_reference_that_matches_it() {
    let kit = common::kit();
    let card = kit
        .catalogue
        .get("us-u01")
        .or(kit.catalogue.cards.first())
        .unwrap();
    // A face lying upright on a grey table, at about webcam size.
    let face = vision::face::render_face(card).unwrap();
    let mut small = opencv::core::Mat::default();
    opencv::imgproc::resize(
        &face,
        &mut small,
        opencv::core::Size::new(124, 173),
        0.0,
        0.0,
        opencv::imgproc::INTER_AREA,
    )
    .unwrap();
    let mut table = opencv::core::Mat::new_rows_cols_with_default(
        300,
        300,
        opencv::core::CV_8UC3,
        opencv::core::Scalar::all(90.0),
    )
    .unwrap();
    use opencv::prelude::*;
    small
        .copy_to(
            &mut opencv::core::Mat::roi_mut(&mut table, opencv::core::Rect::new(80, 60, 124, 173))
                .unwrap(),
        )
        .unwrap();
    let vision::identify::Enrolled {
        reference,
        similar,
        corners,
    } = vision::identify::enroll(&table, &card.id, &kit.scanner.refs).unwrap();
    // The card was pasted at (80, 60), 124 × 173 px: its corners, within a pixel or two.
    let expected = [[80.0, 60.0], [204.0, 60.0], [204.0, 233.0], [80.0, 233.0]];
    for (got, want) in corners.iter().zip(expected) {
        assert!(
            (got[0] - want[0]).abs() < 3.0 && (got[1] - want[1]).abs() < 3.0,
            "corners {corners:?}"
        );
    }
    assert!(similar.is_none(), "{similar:?}");
    let own = kit
        .scanner
        .refs
        .refs
        .iter()
        .find(|r| r.card == card.id)
        .unwrap();
    let dot: f32 = own
        .fine
        .iter()
        .zip(&reference.fine)
        .map(|(a, b)| a * b)
        .sum();
    assert!(
        dot > 0.8,
        "enrolled descriptor should match the printed face ({dot:.2})"
    );
}

#[test]
fn duel_mat_cells_are_side_and_slot() {
    // A card face on the printed Duel mat, seen straight from above.
    use opencv::prelude::*;
    let kit = common::kit();
    let layout = vision::mats::MatLayout::duel();
    let px_per_mm = 1.6;
    let mut mat = vision::mats::render_mat(&layout, px_per_mm).unwrap();
    let card = kit
        .catalogue
        .cards
        .iter()
        .find(|c| c.id.ends_with("u01"))
        .unwrap();
    let face = vision::face::render_face(card).unwrap();
    let (w, h) = ((63.0 * px_per_mm) as i32, (88.0 * px_per_mm) as i32);
    let mut small = opencv::core::Mat::default();
    opencv::imgproc::resize(
        &face,
        &mut small,
        opencv::core::Size::new(w, h),
        0.0,
        0.0,
        opencv::imgproc::INTER_AREA,
    )
    .unwrap();
    // Slot 3 on the far side: cell (2, 1), centre (250, 150) mm.
    let p = vision::mats::mat_pixel(&layout, px_per_mm, [250.0, 150.0]);
    let rect = opencv::core::Rect::new(p[0] as i32 - w / 2, p[1] as i32 - h / 2, w, h);
    small
        .copy_to(&mut opencv::core::Mat::roi_mut(&mut mat, rect).unwrap())
        .unwrap();
    let obs = kit.scanner.scan(&mat, 0).unwrap();
    assert!(
        matches!(obs.calibration, vision::Calibration::Mat { ref mat, .. } if mat == "duel-2x5"),
        "{:?}",
        obs.calibration
    );
    let seen = obs
        .cards
        .iter()
        .find(|c| c.card.as_deref() == Some(card.id.as_str()))
        .expect("card found");
    assert_eq!(
        seen.cell,
        Some(vision::Cell::Duel {
            side: vision::DuelSide::Far,
            slot: 3
        })
    );
}

/// An unnamed outline where no card lies is a phantom (a card the tracker would wait on): it is
/// counted, said in words, and the table is not exact; one named wrongly is a wrong name instead.
#[test]
fn an_unnamed_outline_where_no_card_lies_spoils_the_exact_table() {
    let kit = common::kit();
    let (scene, mut obs, clean) = (1000..1008)
        .map(|seed| {
            let scene = kit.renderer.render(seed, &SceneOptions::default()).unwrap();
            let obs = kit.scanner.scan(&scene.image, seed).unwrap();
            let outcome = compare(&scene.truth, &obs);
            (scene, obs, outcome)
        })
        .find(|(_, _, o)| o.exact)
        .expect("an exact table among the fixed seeds");
    assert_eq!(clean.phantoms(), 0, "{:?}", clean.phantom_places());
    let mut phantom = obs.cards[0].clone();
    let corners = [[2.0, 2.0], [30.0, 2.0], [30.0, 40.0], [2.0, 40.0]];
    assert!(scene
        .truth
        .cards
        .iter()
        .all(|t| t.corners.iter().all(|p| p[0] > 40.0 || p[1] > 50.0)));
    phantom.card = None;
    phantom.covered = true;
    phantom.corners = corners;
    phantom.center = [16.0, 21.0];
    obs.cards.push(phantom);
    let spoilt = compare(&scene.truth, &obs);
    assert_eq!(spoilt.phantoms(), 1);
    assert_eq!(
        spoilt.phantom_places(),
        vec!["partly hidden, 28×38 px at (16, 21)"]
    );
    assert_eq!(spoilt.wrong_named, 0);
    assert!(!spoilt.exact);
    assert_eq!(summarise(&[clean, spoilt], 1000).phantoms, 1);
}

fn outcome(seed: u64) -> vision::eval::SceneOutcome {
    let kit = common::kit();
    let scene = kit.renderer.render(seed, &SceneOptions::default()).unwrap();
    let obs = kit.scanner.scan(&scene.image, seed).unwrap();
    compare(&scene.truth, &obs)
}

/// Seed 103: two cards one above the other on cloth, their white margins blurred into one blob;
/// the blob's outline used to be taken for one card and hide both.
#[test]
fn issue3_touching_cards_merged_margins_are_not_one_card() {
    let o = outcome(103);
    for id in ["us-u21", "uk-u01"] {
        let c = o.cards.iter().find(|c| c.truth == id).unwrap();
        assert!(c.detected && c.got.as_deref() == Some(id), "{c:?}");
    }
}

/// Seeds 33 and 359: only two mat markers in view, both on one edge; the homography from them put
/// whole rows or columns one cell off. The cards' own fit is used instead.
#[test]
fn issue3_two_markers_on_one_edge_do_not_calibrate_the_mat() {
    for seed in [33, 359] {
        let o = outcome(seed);
        let wrong: Vec<_> = o
            .cards
            .iter()
            .filter(|c| !c.covered && !c.cell_ok)
            .collect();
        assert!(wrong.is_empty(), "seed {seed}: {wrong:?}");
    }
}

/// Seeds 23, 212, 509 and 543: a sleeve across the lower part of a card closes its frame's hole
/// early; the short quad matched another card. It must be reported covered, never named wrongly.
#[test]
fn issue3_a_card_cut_short_by_a_sleeve_is_not_named_wrongly() {
    for seed in [23, 212, 509, 543] {
        let o = outcome(seed);
        assert!(o.wrong_names.is_empty(), "seed {seed}: {:?}", o.wrong_names);
    }
}

/// Change gating: the same frame again, or with sensor noise, is not scanned again (the last scan's
/// cards are taken); one card covered by something new is scanned; an Allied side answered since
/// is scanned with.
#[test]
fn a_frame_in_which_nothing_changed_is_not_scanned_again() {
    use opencv::core::{Mat, Scalar};
    use opencv::prelude::*;
    let kit = common::kit();
    let (scene, mut memory, first) = scanned_once(kit);
    assert!(!first.timings.reused);
    let again = kit
        .scanner
        .scan_following(&scene.image, 1, &mut memory)
        .unwrap();
    assert!(again.timings.reused);
    assert_eq!((again.frame_index, &again.cards), (1, &first.cards));
    let (rows, cols) = (scene.image.rows(), scene.image.cols());
    let mut noise =
        Mat::new_rows_cols_with_default(rows, cols, opencv::core::CV_16SC3, Scalar::all(0.0))
            .unwrap();
    opencv::core::randn(&mut noise, &Scalar::all(0.0), &Scalar::all(4.0)).unwrap();
    let mut noisy = Mat::default();
    let mask = opencv::core::no_array();
    opencv::core::add(&scene.image, &noise, &mut noisy, &mask, opencv::core::CV_8U).unwrap();
    let noisy_obs = kit.scanner.scan_following(&noisy, 2, &mut memory).unwrap();
    assert!(noisy_obs.timings.reused, "sensor noise is no change");
    // Something new over one card (a far one: the smallest change that matters).
    let far = first
        .cards
        .iter()
        .min_by(|a, b| a.center[1].total_cmp(&b.center[1]))
        .expect("cards");
    let changed = green_patch(&scene.image, far.center, [24, 32]);
    let changed_obs = kit
        .scanner
        .scan_following(&changed, 3, &mut memory)
        .unwrap();
    assert!(!changed_obs.timings.reused, "a covered card is a change");
    let same = kit
        .scanner
        .scan_following(&changed, 4, &mut memory)
        .unwrap();
    assert!(same.timings.reused);
    let mut answered = vision::Scanner::new(&kit.catalogue, Default::default()).unwrap();
    answered.options.allied_towards = Some([0.0, 1.0]);
    let after_answer = answered.scan_following(&changed, 5, &mut memory).unwrap();
    assert!(
        !after_answer.timings.reused,
        "scanned with the players' answer"
    );
}

/// Change gating quad by quad: in a changed frame the quads under which nothing changed are taken
/// as the last scan named them; a card whose picture changed (its outline the same) is looked at
/// again.
#[test]
fn a_changed_frame_names_again_only_the_quads_under_the_change() {
    let kit = common::kit();
    let (scene, mut memory, first) = scanned_once(kit);
    assert_eq!(first.timings.quads_taken_again, 0);
    let target = first
        .cards
        .iter()
        .filter(|c| c.card.is_some())
        .max_by(|a, b| a.center[1].total_cmp(&b.center[1]))
        .expect("a named card")
        .clone();
    // A patch inside the card's picture: its outline (the quad) stays, its pixels change.
    let changed = green_patch(&scene.image, target.center, [20, 20]);
    let obs = kit
        .scanner
        .scan_following(&changed, 1, &mut memory)
        .unwrap();
    assert!(!obs.timings.reused, "the patch is a change");
    let (again, all) = (obs.timings.quads_taken_again, obs.timings.quads_identified);
    assert!(
        again < all && again + 3 >= all,
        "taken again {again} of {all}: all but the quads under the patch"
    );
    for c in first
        .cards
        .iter()
        .filter(|c| c.card.is_some() && c.card != target.card)
    {
        assert!(
            obs.cards
                .iter()
                .any(|o| o.card == c.card && o.corners == c.corners),
            "{:?} as it was",
            c.card
        );
    }
}

/// The table the gating tests change (scene 1003), rendered and scanned once into a new memory.
fn scanned_once(
    kit: &common::Kit,
) -> (
    vision::scene::Scene,
    vision::memory::TableMemory,
    vision::TableObservation,
) {
    let scene = kit.renderer.render(1003, &SceneOptions::default()).unwrap();
    let mut memory = vision::memory::TableMemory::new();
    let first = kit
        .scanner
        .scan_following(&scene.image, 0, &mut memory)
        .unwrap();
    (scene, memory, first)
}

/// `image` with a green patch of `size` px painted centred on `at`.
fn green_patch(image: &opencv::core::Mat, at: [f32; 2], size: [i32; 2]) -> opencv::core::Mat {
    let mut out = image.clone();
    opencv::imgproc::rectangle(
        &mut out,
        opencv::core::Rect::new(
            at[0] as i32 - size[0] / 2,
            at[1] as i32 - size[1] / 2,
            size[0],
            size[1],
        ),
        opencv::core::Scalar::new(40.0, 180.0, 40.0, 0.0),
        -1,
        opencv::imgproc::LINE_8,
        0,
    )
    .unwrap();
    out
}
