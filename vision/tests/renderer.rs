//! The synthetic renderer: same seed, same scene; the truth image of a fixed seed does not drift.

mod common;

use opencv::core::{Mat, Size};
use opencv::prelude::*;
use std::path::PathBuf;
use vision::scene::SceneOptions;

fn truth_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../models/vision")
}

#[test]
fn same_seed_same_scene() {
    let kit = common::kit();
    let a = kit.renderer.render(42, &SceneOptions::default()).unwrap();
    let b = kit.renderer.render(42, &SceneOptions::default()).unwrap();
    assert_eq!(a.truth, b.truth);
    assert_eq!(a.image.data_bytes().unwrap(), b.image.data_bytes().unwrap());
    let c = kit.renderer.render(43, &SceneOptions::default()).unwrap();
    assert_ne!(
        a.truth.cards, c.truth.cards,
        "different seeds should give different layouts"
    );
}

#[test]
fn scene_layout_follows_the_blitz_grid_conventions() {
    let kit = common::kit();
    for seed in 1..6 {
        let scene = kit.renderer.render(seed, &SceneOptions::default()).unwrap();
        assert_eq!((scene.image.cols(), scene.image.rows()), (1280, 720));
        for card in &scene.truth.cards {
            let def = kit
                .catalogue
                .get(&card.card)
                .expect("card from the catalogue");
            let vision::Cell::Blitz { row, .. } = card.cell else {
                panic!("blitz cell")
            };
            use vision::Orientation::*;
            match (&def.kind, def.faction.map(|f| f.side())) {
                (blitz::catalogue::CardKind::Frontline, _) => {
                    assert_eq!(row, 3);
                    assert!(
                        matches!(card.orientation, TappedLeft | TappedRight),
                        "front lines lie sideways"
                    );
                }
                (_, Some(blitz::catalogue::Side::Allied)) if card.on_top_of.is_none() => {
                    assert!(row < 3);
                    assert!(matches!(
                        card.orientation,
                        Upright | TappedLeft | TappedRight
                    ));
                }
                (_, Some(blitz::catalogue::Side::Axis)) if card.on_top_of.is_none() => {
                    assert!(row > 3);
                    assert!(matches!(
                        card.orientation,
                        Inverted | TappedLeft | TappedRight
                    ));
                }
                _ => {}
            }
            if let Some(under) = card.on_top_of {
                assert!(
                    scene.truth.cards[under].covered,
                    "a card under another is covered"
                );
            }
        }
    }
}

fn thumbnail(img: &Mat) -> Mat {
    let mut small = Mat::default();
    opencv::imgproc::resize(
        img,
        &mut small,
        Size::new(160, 90),
        0.0,
        0.0,
        opencv::imgproc::INTER_AREA,
    )
    .unwrap();
    small
}

/// Truth-image regression: scene seed 7 against the stored thumbnail and ground truth. Set
/// ARBITER_UPDATE_TRUTH=1 to rewrite them after an intended change to the renderer.
#[test]
fn truth_image_of_seed_7_is_unchanged() {
    let kit = common::kit();
    let scene = kit.renderer.render(7, &SceneOptions::default()).unwrap();
    let thumb = thumbnail(&scene.image);
    let png = truth_dir().join("truth-seed7.png");
    let json = truth_dir().join("truth-seed7.json");
    if std::env::var_os("ARBITER_UPDATE_TRUTH").is_some() {
        vision::sheets::write_png(&png, &thumb).unwrap();
        std::fs::write(&json, serde_json::to_string_pretty(&scene.truth).unwrap()).unwrap();
    }
    let stored = vision::pipeline::read_image(&png).unwrap();
    let (a, b) = (thumb.data_bytes().unwrap(), stored.data_bytes().unwrap());
    assert_eq!(a.len(), b.len());
    let mean_diff = a
        .iter()
        .zip(b)
        .map(|(x, y)| (*x as f64 - *y as f64).abs())
        .sum::<f64>()
        / a.len() as f64;
    assert!(
        mean_diff < 2.0,
        "scene 7 drifted from the stored truth image: mean difference {mean_diff:.2}"
    );
    let stored: vision::scene::SceneTruth =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(stored.cards.len(), scene.truth.cards.len());
    for (s, t) in stored.cards.iter().zip(&scene.truth.cards) {
        assert_eq!(
            (&s.card, s.cell, s.orientation, s.covered),
            (&t.card, t.cell, t.orientation, t.covered)
        );
        for (p, q) in s.corners.iter().zip(&t.corners) {
            assert!((p[0] - q[0]).abs() < 0.5 && (p[1] - q[1]).abs() < 0.5);
        }
    }
}

#[test]
fn issue3_every_card_face_is_printable_size_and_distinct() {
    let kit = common::kit();
    let mut seen = std::collections::HashSet::new();
    let faces = vision::distinct::blitz_faces(&kit.catalogue.cards).unwrap();
    assert_eq!(faces.len(), kit.catalogue.cards.len());
    for (id, face) in &faces {
        assert_eq!((face.cols(), face.rows()), (744, 1039), "{id}");
        assert!(
            seen.insert(face.data_bytes().unwrap().to_vec()),
            "{id} has the same face as another card"
        );
    }
    // The set is designed so that no two faces look alike to the matcher once the shared layout
    // is taken out (issue 3: look-alike pictures were the main cause of abstentions).
    let refs = &kit.scanner.refs;
    for r in &refs.refs {
        let (other, score) = refs.closest(&r.fine, &r.card).unwrap();
        assert!(
            score < vision::distinct::MAX_LIKENESS + 0.05,
            "{} looks like {other} ({score:.2})",
            r.card
        );
    }
}

/// Issue 8's hard conditions change the camera or what lies on the cards, never which cards lie
/// where: the conditions compare like with like.
#[test]
fn issue_8_hard_conditions_keep_the_seeds_layout() {
    use vision::scene::{SceneOptions, Stress};
    let kit = common::kit();
    let plain = kit.renderer.render(42, &Default::default()).unwrap();
    for stress in Stress::ALL {
        let opts = SceneOptions {
            stress: Some(stress),
            ..Default::default()
        };
        let hard = kit.renderer.render(42, &opts).unwrap();
        assert_eq!(hard.truth.params.stress, Some(stress));
        let cells = |s: &vision::scene::Scene| -> Vec<(String, vision::Cell, vision::Orientation)> {
            s.truth
                .cards
                .iter()
                .map(|c| (c.card.clone(), c.cell, c.orientation))
                .collect()
        };
        assert_eq!(cells(&hard), cells(&plain), "{}", stress.name());
        let diff = opencv::core::norm2(
            &hard.image,
            &plain.image,
            opencv::core::NORM_L1,
            &opencv::core::no_array(),
        )
        .unwrap();
        assert!(diff > 0.0, "{} changed nothing", stress.name());
    }
}
