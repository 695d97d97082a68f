//! The panel's commands driven through egui_kittest (no GPU, no window).

use super::BlitzApp;
use crate::live::blitz::{Header, Session, Source};
use crate::live::runner::Runner;
use crate::live::tracker::{Tracker, TrackerConfig};
use blitz::catalogue::{Catalogue, Faction};
use blitz::steps::Step;
use blitz::{Action, Profile};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use std::sync::Arc;

/// US against SS at a real table (hands hidden), seed 3.
fn two_player_header() -> Header {
    Header {
        game: "blitz".into(),
        players: vec![Faction::Us, Faction::Ss],
        seed: 3,
        profile: Profile::default(),
        stacked_decks: vec![],
        hidden_hands: true,
        catalogue: None,
    }
}

/// A two-player game at its first deploy step, journalled at `journal` when given.
fn app_at_deploy_journalled(journal: Option<&std::path::Path>) -> BlitzApp {
    let header = two_player_header();
    let mut session = Session::new(header, Arc::new(Catalogue::demo()), journal).unwrap();
    for a in [
        Action::Keep,
        Action::Keep,
        Action::SkipDraw,
        Action::SkipDraw,
    ] {
        let seat = session.state.actor().unwrap();
        assert!(session.submit(seat, a, Source::Panel));
    }
    BlitzApp::new(
        Runner::new(session, Tracker::new(TrackerConfig::default())),
        None,
    )
}

fn app_at_deploy() -> BlitzApp {
    app_at_deploy_journalled(None)
}

fn harness(app: BlitzApp) -> Harness<'static, BlitzApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1920.0, 1080.0))
        .build_ui_state(|ui, app: &mut BlitzApp| app.show(ui), app);
    // The harness refuses missing glyphs, so this also checks the CJK font covers everything drawn.
    h.run();
    let no_font = h
        .state()
        .runner
        .session
        .questions
        .iter()
        .any(|q| q.text.contains("CJK"));
    assert!(!no_font, "fonts-noto-cjk is installed by scripts/setup.sh");
    h
}

#[test]
fn issue_4_panel_correct_applies_a_typed_action() {
    let mut h = harness(app_at_deploy());
    h.get_by_role(egui::accesskit::Role::TextInput).click();
    h.run();
    h.get_by_role(egui::accesskit::Role::TextInput)
        .type_text("deploy us-u01 B3");
    h.run();
    h.get_by_label("确认 Confirm").click();
    h.run();
    let state = &h.state().runner.session.state;
    let sherman = state.card_by_id("us-u01").unwrap();
    assert_eq!(
        state.placed(sherman).map(|p| p.cell.to_string()).as_deref(),
        Some("B3")
    );
}

#[test]
fn issue_4_panel_undo_takes_the_last_action_back() {
    let mut app = app_at_deploy();
    assert!(app.runner.press("deploy us-u01 B3"));
    let mut h = harness(app);
    h.get_by_label("撤销 Undo").click();
    h.run();
    let state = &h.state().runner.session.state;
    assert!(state.placed(state.card_by_id("us-u01").unwrap()).is_none());
}

#[test]
fn issue_4_panel_confirm_answers_a_question_and_buttons_submit() {
    let mut app = app_at_deploy();
    // The camera saw a card it cannot name: the players confirm they have seen the question.
    app.runner
        .session
        .on_table_event(&crate::live::tracker::TableEvent::Uncertain {
            cell: (0, 0),
            note: "?".into(),
        });
    let mut h = harness(app);
    assert_eq!(h.state().runner.session.questions.len(), 1);
    h.get_by_label("OK").click();
    h.run();
    assert!(h.state().runner.session.questions.is_empty());
    // "done" for US, then SS: the deploy step ends.
    h.get_by_label("done").click();
    h.run();
    h.get_by_label("done").click();
    h.run();
    assert_eq!(h.state().runner.session.state.step, Step::Facility);
}

#[test]
fn issue_4_panel_overrule_lets_a_flagged_change_stand() {
    let mut app = app_at_deploy();
    let seen = crate::live::tracker::TableEvent::Placed {
        card: "us-u01".into(),
        place: crate::live::tracker::CardPlace {
            cell: (1, 4),
            tapped: false,
        },
    };
    app.runner.session.on_table_event(&seen);
    assert_eq!(
        app.runner.session.rulings.last().unwrap().rule.as_deref(),
        Some("部署阶段规则 2")
    );
    let mut h = harness(app);
    h.get_by_label("裁定有效 Overrule").click();
    h.run();
    let state = &h.state().runner.session.state;
    let sherman = state.card_by_id("us-u01").unwrap();
    assert_eq!(
        state.placed(sherman).map(|p| p.cell.to_string()).as_deref(),
        Some("B5")
    );
    assert!(h.state().runner.session.questions.is_empty());
}

/// The same image every poll: a table nobody touches.
struct Still(opencv::core::Mat, u64);

impl vision::source::FrameSource for Still {
    fn next_frame(&mut self) -> Result<Option<vision::source::Frame>, vision::VisionError> {
        self.1 += 1;
        Ok(Some(vision::source::Frame {
            index: self.1,
            image: self.0.clone(),
            origin: "still".into(),
            truth: None,
        }))
    }
}

/// Only the front line on the table, the camera behind the Axis player: the cards cannot tell which
/// side is Allied, so the panel asks; the answer fixes the cells and is kept in the journal.
#[test]
fn the_panel_asks_which_side_is_allied_when_the_cards_cannot_tell() {
    use vision::scene::{LaidCard, Placement, SceneOptions, SceneRenderer};
    let catalogue = Catalogue::demo();
    let fronts: Vec<String> = catalogue
        .cards
        .iter()
        .filter(|c| matches!(c.kind, blitz::catalogue::CardKind::Frontline))
        .map(|c| c.id.clone())
        .take(4)
        .collect();
    let opts = SceneOptions {
        layout: Some(
            fronts
                .iter()
                .enumerate()
                .map(|(col, id)| LaidCard {
                    card: id.clone(),
                    col: col as u8,
                    row: 3,
                    orientation: vision::Orientation::TappedLeft,
                    on_top_of: None,
                })
                .collect(),
        ),
        hand: Some(false),
        aruco_mat: Some(false),
        placements: vec![Placement::End],
        ..Default::default()
    };
    let renderer = SceneRenderer::new(&catalogue).unwrap();
    let scene = (0..200)
        .map(|seed| renderer.render(seed, &opts).unwrap())
        .find(|s| (160.0..200.0).contains(&s.truth.params.yaw_deg))
        .unwrap();
    let scanner = vision::Scanner::new(&catalogue, Default::default()).unwrap();
    let feed = crate::live::vision_feed::VisionFeed::new(
        Box::new(Still(scene.image, 0)),
        scanner,
        "still".into(),
    );
    let dir = std::env::temp_dir().join(format!("arbiter-allied-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let journal = dir.join("game.jsonl");
    let header = two_player_header();
    let catalogue = Arc::new(catalogue);
    let session = Session::new(header, catalogue.clone(), Some(&journal)).unwrap();
    let app = BlitzApp::new(
        Runner::new(session, Tracker::new(TrackerConfig::default())),
        Some(Box::new(feed)),
    );
    let mut h = Harness::builder()
        .with_size(egui::vec2(1920.0, 1080.0))
        .build_ui_state(|ui, app: &mut BlitzApp| app.show(ui), app);
    h.run_steps(3);
    assert!(h.state().runner.allied_side_unknown);
    h.get_by_label("上 Top").click();
    h.run_steps(3);
    let runner = &h.state().runner;
    assert!(!runner.allied_side_unknown);
    assert!(h.query_by_label("上 Top").is_none(), "asked once");
    for (col, id) in fronts.iter().enumerate() {
        let want = format!("{id} {}", blitz::Cell::new(col as i8, 3));
        assert!(
            runner.overlays.iter().any(|o| o.label == want),
            "{want} not in {:?}",
            runner.overlays.iter().map(|o| &o.label).collect::<Vec<_>>()
        );
    }
    // The window closed: its journal is free to resume.
    drop(h);
    let (resumed, _) = Session::resume(&journal, catalogue).unwrap();
    assert_eq!(
        resumed.allied_edge,
        Some(crate::live::allied::ImageEdge::Top)
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The type size control: A+ / A− and Ctrl + / Ctrl − resize the text styles the whole panel uses
/// (so it reflows), within the limits, and the prompt stays 1.6 times the body.
#[test]
fn text_size_control_resizes_every_text_style() {
    use super::style::{DEFAULT_BODY_PX, MAX_BODY_PX};
    let mut h = harness(app_at_deploy());
    let body = |h: &Harness<'static, BlitzApp>| {
        h.ctx.global_style().text_styles[&egui::TextStyle::Body].size
    };
    assert_eq!(body(&h), DEFAULT_BODY_PX);
    h.get_by_label("A+").click();
    h.run();
    assert_eq!(h.state().style.body_px, DEFAULT_BODY_PX + 2.0);
    assert_eq!(body(&h), DEFAULT_BODY_PX + 2.0);
    let prompt = h.ctx.global_style().text_styles[&egui::TextStyle::Name("prompt".into())].size;
    assert!((prompt - 1.6 * (DEFAULT_BODY_PX + 2.0)).abs() < 1e-3);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Minus);
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Minus);
    h.run();
    assert_eq!(body(&h), DEFAULT_BODY_PX - 2.0);
    for _ in 0..20 {
        h.get_by_label("A+").click();
        h.run();
    }
    assert_eq!(h.state().style.body_px, MAX_BODY_PX);
    // egui's own zoom would scale the whole window and clip the side panels.
    assert_eq!(h.ctx.zoom_factor(), 1.0);
}

/// The size chosen in one window is the next window's size; a saved file that is not a style is
/// left as it was until the size is changed.
#[test]
fn text_size_is_kept_for_the_next_window() {
    use super::style::DEFAULT_BODY_PX;
    let file =
        std::env::temp_dir().join(format!("arbiter-panel-style-{}.json", std::process::id()));
    std::fs::remove_file(&file).ok();
    let mut first = app_at_deploy();
    first.style.remember_in(file.clone());
    let mut h = harness(first);
    h.get_by_label("A+").click();
    h.run();
    h.get_by_label("A+").click();
    h.run();
    assert!(file.is_file(), "nothing saved");
    let mut second = app_at_deploy();
    second.style.remember_in(file.clone());
    let h = harness(second);
    assert_eq!(h.state().style.body_px, DEFAULT_BODY_PX + 4.0);
    assert_eq!(
        h.ctx.global_style().text_styles[&egui::TextStyle::Body].size,
        DEFAULT_BODY_PX + 4.0
    );
    drop(h);
    std::fs::write(&file, "not json").unwrap();
    let mut third = app_at_deploy();
    third.style.remember_in(file.clone());
    let mut h = harness(third);
    h.run();
    assert_eq!(h.state().style.body_px, DEFAULT_BODY_PX);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not json");
    std::fs::remove_file(&file).ok();
}

fn placed(card: &str, cell: (i8, i8)) -> crate::live::tracker::TableEvent {
    crate::live::tracker::TableEvent::Placed {
        card: card.into(),
        place: crate::live::tracker::CardPlace {
            cell,
            tapped: false,
        },
    }
}

fn cell_of(app: &BlitzApp, card: &str) -> Option<String> {
    let state = &app.runner.session.state;
    state
        .placed(state.card_by_id(card).unwrap())
        .map(|p| p.cell.to_string())
}

/// A deploy-step game journalled to a fresh file, confirming every change.
fn confirming_app(name: &str) -> (BlitzApp, std::path::PathBuf) {
    let path = std::env::temp_dir().join(format!(
        "arbiter-confirm-{name}-{}.jsonl",
        std::process::id()
    ));
    crate::table::journal::remove_with_lock(&path);
    let mut app = app_at_deploy_journalled(Some(&path));
    app.runner
        .session
        .set_confirm(crate::live::confirm::Confirm::Every);
    (app, path)
}

fn journal_lines(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Confirm every change: what the camera saw waits, shown as card, from and to; Enter commits and
/// journals it; a second change seen meanwhile waits behind it, then "not this" commits nothing.
#[test]
fn a_seen_change_waits_for_ok_and_enter_commits_it() {
    let (mut app, path) = confirming_app("ok");
    let lines_before = journal_lines(&path).len();
    app.runner.session.on_table_event(&placed("us-u01", (1, 2)));
    app.runner.session.on_table_event(&placed("ss-u01", (2, 4)));
    assert_eq!(
        cell_of(&app, "us-u01"),
        None,
        "nothing committed before the OK"
    );
    let mut h = harness(app);
    assert!(h.query_by_label_contains("看到 Seen").is_some());
    assert!(
        h.query_by_label_contains("M4谢尔曼坦克 M4 Sherman 手牌 hand → B3")
            .is_some(),
        "the change is shown as card, from and to"
    );
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(cell_of(h.state(), "us-u01").as_deref(), Some("B3"));
    let lines = journal_lines(&path);
    assert_eq!(lines.len(), lines_before + 1);
    assert!(
        lines[lines.len() - 1].contains("deploy us-u01 B3"),
        "{}",
        lines[lines.len() - 1]
    );
    // The second placement, held while the first waited, now waits in its turn.
    let waiting = h
        .state()
        .runner
        .session
        .seen
        .clone()
        .expect("the second change waits");
    assert_eq!(waiting.notation, "deploy ss-u01 C5");
    h.get_by_label("不采纳 Not this").click();
    h.run();
    assert_eq!(cell_of(h.state(), "ss-u01"), None);
    assert!(h.state().runner.session.seen.is_none());
    assert_eq!(
        journal_lines(&path).len(),
        lines_before + 1,
        "a rejection commits nothing"
    );
    crate::table::journal::remove_with_lock(&path);
}

/// "Correct…" puts what the camera understood in the correction box; the typed action replaces
/// it and is journalled as the players' own.
#[test]
fn a_seen_change_is_corrected_by_typing_the_right_action() {
    let (mut app, path) = confirming_app("correct");
    app.runner.session.on_table_event(&placed("us-u01", (1, 2)));
    let mut h = harness(app);
    h.get_by_label("更正 Correct…").click();
    h.run();
    let input = h.get_by_role(egui::accesskit::Role::TextInput);
    assert_eq!(input.value().as_deref(), Some("deploy us-u01 B3"));
    input.focus();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    h.get_by_role(egui::accesskit::Role::TextInput)
        .type_text("deploy us-u01 C3");
    h.run();
    h.get_by_label("确认 Confirm").click();
    h.run();
    assert_eq!(cell_of(h.state(), "us-u01").as_deref(), Some("C3"));
    assert!(h.state().runner.session.seen.is_none());
    let last = journal_lines(&path).pop().unwrap();
    assert!(
        last.contains("deploy us-u01 C3") && last.contains("Panel"),
        "{last}"
    );
    crate::table::journal::remove_with_lock(&path);
}

/// First-round policy: from round 2 the panel asks once whether to go on confirming; the answer
/// is journalled and a resumed game keeps it.
#[test]
fn after_the_first_round_the_panel_asks_whether_to_go_on_confirming() {
    let (mut app, path) = confirming_app("policy");
    app.runner
        .session
        .set_confirm(crate::live::confirm::Confirm::FirstRound);
    app.runner.session.state.round = 2;
    let mut h = harness(app);
    h.get_by_label("稳定后自动提交 Commit once stable").click();
    h.run();
    assert_eq!(
        h.state().runner.session.confirm,
        crate::live::confirm::Confirm::Stable
    );
    assert!(h
        .query_by_label("稳定后自动提交 Commit once stable")
        .is_none());
    // Now a legal change commits without waiting.
    h.state_mut().runner.session.state.round = 1;
    h.state_mut()
        .runner
        .session
        .on_table_event(&placed("us-u01", (1, 2)));
    assert_eq!(cell_of(h.state(), "us-u01").as_deref(), Some("B3"));
    drop(h);
    let (resumed, _) = Session::resume(&path, Arc::new(Catalogue::demo())).unwrap();
    assert_eq!(resumed.confirm, crate::live::confirm::Confirm::Stable);
    crate::table::journal::remove_with_lock(&path);
}
