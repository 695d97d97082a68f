//! The enrol-a-deck window driven through egui_kittest on the held-out block photos
//! (vision/tests/fixtures/any-cards/blocks: a gradient_frame deck no model was trained on).

use super::panel::EnrolApp;
use super::read_ids;
use super::sitting::Sitting;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use vision::embed::Embedder;
use vision::source::ImageFiles;

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

fn blocks() -> PathBuf {
    repo("vision/tests/fixtures/any-cards/blocks")
}

fn temp_refs(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-enrol-{name}-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("deck.json")
}

fn app(refs: &Path, photos: &[PathBuf]) -> EnrolApp {
    let ids = read_ids(&blocks().join("ids.txt")).expect("ids");
    let sitting = Sitting::open(ids, HashMap::new(), refs, None).expect("sitting");
    let detector = crate::vision_cli::learned_card_detector(&repo(vision::detector::DEFAULT_MODEL))
        .expect("detector");
    let embedder = Embedder::load(repo("models/identify/card_embed.tflite")).expect("embedder");
    let source = ImageFiles::new(photos).expect("photos");
    EnrolApp::new(
        sitting,
        Box::new(source),
        true,
        detector,
        embedder,
        (3, 3),
        0.9,
    )
}

fn harness(app: EnrolApp) -> Harness<'static, EnrolApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1920.0, 1080.0))
        .build_ui_state(|ui, app: &mut EnrolApp| app.show(ui), app);
    h.run_steps(3);
    h
}

#[test]
fn enrol_panel_takes_block_after_block_under_the_camera_and_resumes_where_it_ended() {
    let refs = temp_refs("blocks");
    let photos = [blocks().join("block-1.jpg"), blocks().join("block-2.jpg")];
    let mut h = harness(app(&refs, &photos));
    // The first block's ids are shown and every card of the photo gets one.
    h.get_by_label_contains("gradient_frame-007-00");
    h.get_by_label_contains("看到 seen 9 张完整 whole");
    assert!(h.state().seen_in_order().is_some(), "the 3×3 block is seen");
    h.key_press(egui::Key::Space);
    h.run_steps(3);
    assert_eq!(h.state().sitting.enrolled.len(), 9, "{:?}", h.state().log);
    h.get_by_label_contains("刚登记 just enrolled 9");
    // The second photo holds the last three: a block of 3 (fewer than 9 left).
    h.get_by_label_contains("gradient_frame-007-09");
    h.get_by_label("拍下这一批 Take this block [Space]").click();
    h.run_steps(3);
    assert_eq!(h.state().sitting.enrolled.len(), 12, "{:?}", h.state().log);
    h.get_by_label_contains("整副牌都已放过");
    h.get_by_label_contains("已登记 enrolled 12 / 12");
    let saved = vision::identify::ReferenceSet::load(&refs).expect("saved after each block");
    assert_eq!(saved.refs.len(), 12);
    // A new sitting on the same file starts after the last card it holds.
    let again = Sitting::open(
        read_ids(&blocks().join("ids.txt")).expect("ids"),
        HashMap::new(),
        &refs,
        None,
    )
    .expect("reopened");
    assert!(again.done());
    std::fs::remove_dir_all(refs.parent().expect("dir")).ok();
}

#[test]
fn enrol_panel_refuses_a_photo_that_is_not_the_block_and_keeps_the_block_to_lay_again() {
    let refs = temp_refs("refused");
    let one_card = repo("vision/tests/fixtures/any-cards/enrol/gradient_frame-021-01.jpg");
    let mut h = harness(app(&refs, &[one_card, blocks().join("block-1.jpg")]));
    assert!(h.state().seen_in_order().is_none());
    h.key_press(egui::Key::Space);
    h.run_steps(3);
    assert!(h.state().sitting.enrolled.is_empty());
    assert_eq!(h.state().sitting.next, 0, "the block is still to lay");
    assert!(
        h.query_all_by_label_contains("未登记 not enrolled: 1 whole cards seen")
            .count()
            >= 1,
        "the refusal is shown with its reason"
    );
    assert!(!refs.exists(), "nothing saved for a refused block");
    // Skipped: its ids are listed missing and the next block is asked for.
    h.get_by_label("跳过这一批 Skip block").click();
    h.run_steps(3);
    assert_eq!(h.state().sitting.next, 9);
    assert_eq!(h.state().sitting.missing.len(), 9);
    h.get_by_label_contains("缺 missing (9)");
    std::fs::remove_dir_all(refs.parent().expect("dir")).ok();
}
