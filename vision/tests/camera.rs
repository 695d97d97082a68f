//! The table's frame from the cards wherever the camera stands: overhead, at the side, behind
//! either player, or anywhere round the table, without the mat. Floors on a few fixed seeds sit
//! below what `arbiter eval-vision --camera any --mat no` measures (docs/vision.md).

mod common;

use vision::eval::{compare, summarise, SceneOutcome};
use vision::scene::{LaidCard, Placement, SceneOptions};
use vision::types::{AlliedFrom, Calibration, Orientation};

fn no_mat(placement: Placement, cols: u8) -> SceneOptions {
    SceneOptions {
        aruco_mat: Some(false),
        placements: vec![placement],
        cols: Some(cols),
        ..Default::default()
    }
}

fn scan(scanner: &vision::Scanner, seed: u64, opts: &SceneOptions) -> (SceneOutcome, Calibration) {
    let scene = common::kit().renderer.render(seed, opts).unwrap();
    let obs = scanner.scan(&scene.image, seed).unwrap();
    (compare(&scene.truth, &obs), obs.calibration)
}

fn floors(placement: Placement, seeds: std::ops::Range<u64>) {
    let kit = common::kit();
    let opts = no_mat(placement, 4);
    let mut outcomes = Vec::new();
    for seed in seeds.clone() {
        let (o, calibration) = scan(&kit.scanner, seed, &opts);
        assert!(
            !calibration.allied_side_unknown(),
            "{placement:?} seed {seed}: the cards should tell the Allied side: {calibration:?}"
        );
        outcomes.push(o);
    }
    let s = summarise(&outcomes, seeds.start);
    eprintln!("{placement:?}: {s:#?}");
    assert!(s.visible_cards > 60);
    assert!(
        s.cell_accuracy >= 0.98,
        "{placement:?} cell {:.3}",
        s.cell_accuracy
    );
    assert!(
        s.orientation_accuracy >= 0.98,
        "{placement:?} orientation {:.3}",
        s.orientation_accuracy
    );
    assert!(
        s.whole_board_exact >= 0.6,
        "{placement:?} whole board {:.3}",
        s.whole_board_exact
    );
}

#[test]
fn overhead_camera_cells_and_orientation() {
    floors(Placement::Overhead, 3000..3004);
}

#[test]
fn side_camera_cells_and_orientation() {
    floors(Placement::Side, 3100..3104);
}

#[test]
fn end_camera_behind_either_player_cells_and_orientation() {
    floors(Placement::End, 3200..3204);
}

#[test]
fn camera_anywhere_round_the_table_cells_and_orientation() {
    floors(Placement::Free, 3300..3304);
}

#[test]
fn four_players_seven_by_five_from_the_side() {
    let kit = common::kit();
    let scanner = vision::Scanner::new(
        &kit.catalogue,
        vision::ScannerOptions {
            cols: 5,
            ..Default::default()
        },
    )
    .unwrap();
    let opts = no_mat(Placement::Side, 5);
    let outcomes: Vec<SceneOutcome> = (3400..3403)
        .map(|seed| scan(&scanner, seed, &opts).0)
        .collect();
    let s = summarise(&outcomes, 3400);
    assert!(s.visible_cards > 60);
    assert!(s.cell_accuracy >= 0.98, "cell {:.3}", s.cell_accuracy);
}

/// Only the front line on the table: nothing says which side is Allied, so the fit says so (the
/// panel asks); with the players' answer the rows come out right from the Axis end too.
#[test]
fn only_front_line_cards_ask_which_side_is_allied() {
    let kit = common::kit();
    let fronts: Vec<&str> = kit
        .catalogue
        .cards
        .iter()
        .filter(|c| matches!(c.kind, blitz::catalogue::CardKind::Frontline))
        .map(|c| c.id.as_str())
        .take(4)
        .collect();
    let layout: Vec<LaidCard> = fronts
        .iter()
        .enumerate()
        .map(|(col, id)| LaidCard {
            card: id.to_string(),
            col: col as u8,
            row: 3,
            orientation: Orientation::TappedLeft,
            on_top_of: None,
        })
        .collect();
    let opts = SceneOptions {
        layout: Some(layout),
        hand: Some(false),
        ..no_mat(Placement::End, 4)
    };
    // The first seed whose camera stands behind the Axis player (yaw near 180°).
    let seed = (0..200)
        .find(|&s| {
            let scene = kit.renderer.render(s, &opts).unwrap();
            let yaw = scene.truth.params.yaw_deg;
            (150.0..210.0).contains(&yaw)
        })
        .unwrap();
    let (guessed, calibration) = scan(&kit.scanner, seed, &opts);
    assert!(calibration.allied_side_unknown(), "{calibration:?}");
    // The guess takes the image's bottom for the Allied side: from the Axis end that is wrong.
    assert!(guessed.cards.iter().all(|c| !c.cell_ok), "{guessed:?}");

    // The players say the Allied side is at the top of the image.
    let told = vision::Scanner::new(
        &kit.catalogue,
        vision::ScannerOptions {
            allied_towards: Some([0.0, -1.0]),
            ..Default::default()
        },
    )
    .unwrap();
    let (answered, calibration) = scan(&told, seed, &opts);
    assert!(
        matches!(
            calibration,
            Calibration::FrontLine { allied_side, .. } if allied_side.from == AlliedFrom::Asked
        ),
        "{calibration:?}"
    );
    assert!(answered.cards.iter().all(|c| c.cell_ok), "{answered:?}");
}

/// The camera is moved and the first column's cards are taken away: on its own the fit would call
/// the second column the first (from this camera both the emptied column and one beyond the last
/// lie in the picture, so nothing in the frame tells); remembering where the other cards lay
/// keeps every cell.
#[test]
fn the_grid_is_held_over_a_moved_camera_and_an_emptied_first_column() {
    let kit = common::kit();
    let start = SceneOptions {
        hand: Some(false),
        ..no_mat(Placement::Side, 4)
    };
    let first = kit.renderer.render(3500, &start).unwrap();
    let all = first.truth.loose_cards();
    assert!(all.len() > 15, "{} cards", all.len());
    let mut memory = vision::memory::TableMemory::new();
    let opts = SceneOptions {
        layout: Some(all.clone()),
        ..start.clone()
    };
    let scene = kit.renderer.render(3500, &opts).unwrap();
    let obs = kit
        .scanner
        .scan_following(&scene.image, 0, &mut memory)
        .unwrap();
    let o = compare(&scene.truth, &obs);
    assert!(o.cards.iter().all(|c| c.cell_ok), "first frame: {o:?}");

    let rest: Vec<LaidCard> = all.into_iter().filter(|l| l.col != 0).collect();
    let moved = SceneOptions {
        layout: Some(rest),
        placements: vec![Placement::Free],
        ..start
    };
    let scene = kit.renderer.render(3518, &moved).unwrap();
    let alone = compare(&scene.truth, &kit.scanner.scan(&scene.image, 1).unwrap());
    assert!(alone.cards.len() > 10);
    assert!(
        alone.cards.iter().all(|c| !c.cell_ok),
        "without memory every column is one off: {alone:?}"
    );
    let obs = kit
        .scanner
        .scan_following(&scene.image, 1, &mut memory)
        .unwrap();
    assert!(obs.motion, "the camera moved between the frames");
    assert!(
        matches!(obs.calibration, Calibration::FrontLine { allied_side, .. } | Calibration::Cards { allied_side, .. } if allied_side.from != AlliedFrom::Guessed)
    );
    let kept = compare(&scene.truth, &obs);
    assert!(kept.cards.iter().all(|c| c.cell_ok), "{kept:?}");
    // A still camera is no motion.
    let again = kit
        .scanner
        .scan_following(&scene.image, 2, &mut memory)
        .unwrap();
    assert!(!again.motion);
}

/// Four boards from the second compositor (models/detect/export_boards.py --camera depth-mirrored,
/// seeds 699000–699003, no code shared with scene.rs): our faces on its tables, its camera anywhere
/// round the table.
#[test]
fn boards_from_the_second_compositor_get_their_cells() {
    let kit = common::kit();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/boards");
    let outcomes = vision::eval::run_dir(&kit.scanner, &dir, None, |_, _| {}).unwrap();
    let s = summarise(&outcomes, 699000);
    eprintln!("{s:#?}");
    assert_eq!(outcomes.len(), 4);
    assert!(s.visible_cards > 60);
    assert!(
        s.identity_accuracy >= 0.9,
        "named {:.3}",
        s.identity_accuracy
    );
    assert!(s.cell_accuracy >= 0.9, "cell {:.3}", s.cell_accuracy);
    assert!(
        s.orientation_accuracy >= 0.9,
        "orientation {:.3}",
        s.orientation_accuracy
    );
    assert!(
        s.wrong_confident_rate <= 0.01,
        "wrong {:.3}",
        s.wrong_confident_rate
    );
}

/// A board from the second compositor seen from its end at 39° (tuning seed 612056): the far
/// front-line cards are 37 px wide and out of focus, so blur closes the white gap between frame and
/// picture. The plain passes miss them; the sharpened copy around the cards found opens it.
#[test]
fn far_out_of_focus_cards_are_found_on_the_sharpened_copy() {
    use vision::detect::{find_holes, DetectOptions};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/far-cards");
    let manifest = vision::eval::BoardManifest::load(&dir).unwrap();
    let scene = &manifest.scenes[0];
    let image = vision::pipeline::read_image(&dir.join(&scene.image)).unwrap();
    let mut gray = opencv::core::Mat::default();
    opencv::imgproc::cvt_color(&image, &mut gray, opencv::imgproc::COLOR_BGR2GRAY, 0).unwrap();
    let found = |opts: &DetectOptions, id: &str| {
        let card = scene.cards.iter().find(|c| c.id == id).unwrap();
        let centre = vision::geometry::centroid(&card.corners.map(|p| [p[0] as f64, p[1] as f64]));
        find_holes(&gray, opts, None)
            .unwrap()
            .iter()
            .any(|h| vision::detect::dist(vision::geometry::centroid(&h.points), centre) < 8.0)
    };
    let far = ["front-3", "front-4", "front-5", "ss-u10"];
    for id in far {
        assert!(
            !found(&DetectOptions::plain(), id),
            "{id}: the plain passes now find it"
        );
        assert!(found(&DetectOptions::default(), id), "{id} not found");
    }
    // Everything the plain passes find, the sharpened default finds too.
    for card in scene
        .cards
        .iter()
        .filter(|c| !c.covered && !far.contains(&c.id.as_str()))
    {
        if found(&DetectOptions::plain(), &card.id) {
            assert!(
                found(&DetectOptions::default(), &card.id),
                "{} lost",
                card.id
            );
        }
    }
}

#[test]
fn a_missing_or_broken_board_manifest_is_an_error_naming_it() {
    let dir = std::env::temp_dir().join(format!("arbiter-boards-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let err = vision::eval::BoardManifest::load(&dir)
        .unwrap_err()
        .to_string();
    assert!(err.contains("manifest.json"), "{err}");
    std::fs::write(dir.join("manifest.json"), "{\"scenes\": 3}").unwrap();
    let err = vision::eval::BoardManifest::load(&dir)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("manifest.json") && err.contains("not a board manifest"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Orientation as each card's owner sees it: an Axis card upright to the Axis player (inverted in
/// the table's frame) is upright to its owner, whichever side the camera watches from.
#[test]
fn orientation_to_the_owner_turns_axis_cards_round() {
    let kit = common::kit();
    let opts = no_mat(Placement::End, 4);
    let scene = kit.renderer.render(3700, &opts).unwrap();
    let obs = kit.scanner.scan(&scene.image, 0).unwrap();
    let mut checked = 0;
    for c in obs.cards.iter().filter(|c| c.card.is_some()) {
        let id = c.card.as_deref().unwrap();
        let axis = id.starts_with("ss-") || id.starts_with("wh-");
        let want = if axis {
            c.orientation.turned(2)
        } else {
            c.orientation
        };
        assert_eq!(c.to_owner, want, "{id}");
        if axis && c.orientation == Orientation::Inverted {
            assert_eq!(c.to_owner, Orientation::Upright);
            checked += 1;
        }
    }
    assert!(checked >= 3, "{checked} Axis cards checked");
}

/// A hand reaching in and held still over the table is reported on every frame it stays, not only
/// the frame it moved in; the table alone is not a hand. Scenes of one seed with and without the
/// hand (the seed decides the table, the camera and where the hand is).
#[test]
fn a_hand_held_still_is_reported_on_every_frame_it_stays() {
    let kit = common::kit();
    let (mut caught, mut still_frames, mut false_alarms, mut quiet_frames) = (0, 0, 0, 0);
    for seed in 4000..4008 {
        let opts = |hand| SceneOptions {
            hand: Some(hand),
            ..SceneOptions::default()
        };
        let bare = kit.renderer.render(seed, &opts(false)).unwrap().image;
        let held = kit.renderer.render(seed, &opts(true)).unwrap().image;
        let mut memory = vision::memory::TableMemory::new();
        let mut scan = |image: &opencv::core::Mat, i: u64| {
            kit.scanner.scan_following(image, i, &mut memory).unwrap()
        };
        for i in 0..3 {
            let obs = scan(&bare, i);
            if i > 0 {
                quiet_frames += 1;
                false_alarms += obs.hand as usize;
            }
        }
        for i in 3..7 {
            let obs = scan(&held, i);
            if i > 3 {
                still_frames += 1;
                caught += obs.hand as usize;
                assert!(!obs.motion, "seed {seed}: a still hand is not motion");
                assert!(obs.hand_or_motion_suspected || !obs.hand);
            }
        }
    }
    eprintln!(
        "still hand caught {caught}/{still_frames}, false alarms {false_alarms}/{quiet_frames}"
    );
    // Measured 15 of 24 still-hand frames, no false alarm (docs/vision.md): a floor below it.
    assert!(caught * 2 >= still_frames, "caught {caught}/{still_frames}");
    assert_eq!(
        false_alarms, 0,
        "false alarms {false_alarms}/{quiet_frames}"
    );
}
