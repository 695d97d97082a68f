//! The panel driven through egui_kittest (no window): every button goes through the journal file, so a
//! fresh load of the file (what `arbiter fof status` does) sees the same game.

use super::FofApp;
use crate::fof_cli::{create_journal, Journal};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use fof::Action;
use std::path::{Path, PathBuf};

fn demo_mission() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/catalogues/fof/demo-mission.toml")
}

/// A new journal in its own temporary directory (removed by the caller's `Temp`).
struct Temp(PathBuf);

impl Temp {
    fn new(name: &str) -> Temp {
        let dir =
            std::env::temp_dir().join(format!("arbiter-fof-panel-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Temp(dir)
    }
    fn journal(&self) -> PathBuf {
        self.0.join("game.jsonl")
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn new_game(t: &Temp, seed: u64, physical: Option<u16>) -> Journal {
    create_journal(&t.journal(), &demo_mission(), seed, None, physical, false).unwrap();
    Journal::load(&t.journal()).unwrap()
}

fn harness(app: FofApp) -> Harness<'static, FofApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1920.0, 1080.0))
        .build_ui_state(|ui, app: &mut FofApp| app.show(ui), app);
    // The harness refuses missing glyphs, so this also checks the CJK font covers everything drawn.
    h.run();
    assert!(
        !h.state().font_missing,
        "fonts-noto-cjk is installed by scripts/setup.sh"
    );
    h
}

fn journal_lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// What `arbiter fof status` would see: the journal file loaded afresh.
fn reloaded(path: &Path) -> fof::State {
    Journal::load(path).unwrap().state().clone()
}

const TYPE_LABEL: &str = "输入操作 Type an action (enemy add E3, pc-place D …)";

fn click(h: &mut Harness<'static, FofApp>, label: &str) {
    h.get_by_label(label).click();
    h.run();
}

#[test]
fn fof_panel_next_enters_the_next_step_and_writes_the_journal() {
    let t = Temp::new("next");
    let mut h = harness(FofApp::new(new_game(&t, 2026, None)));
    assert_eq!(h.state().journal.state().current_step().id, "3.3.1 A");
    click(&mut h, "下一步 Next");
    let state = h.state().journal.state().clone();
    assert_eq!(state.current_step().id, "3.3.1 B");
    let lines = journal_lines(&t.journal());
    assert_eq!(lines.len(), 2, "set-up line and one action");
    assert_eq!(lines[1]["kind"], "action");
    assert_eq!(lines[1]["action"], "next");
    assert_eq!(reloaded(&t.journal()), state);
}

#[test]
fn fof_panel_draw_logs_the_typed_purpose_and_shows_the_card() {
    let t = Temp::new("draw");
    let mut h = harness(FofApp::new(new_game(&t, 7, None)));
    h.get_by_label("用途 purpose:").click();
    h.run();
    h.get_by_label("用途 purpose:")
        .type_text("rally check for squad 1/1");
    h.run();
    click(&mut h, "抽牌 Draw");
    let state = h.state().journal.state().clone();
    let last = state.log.last().expect("a draw in the log");
    assert_eq!(last.purpose, "3.3.1 A: rally check for squad 1/1");
    // The card is shown large: its number and R# as labels.
    let card = state.deck.card(last.card).unwrap();
    h.get_by_label(&format!("#{}", card.number));
    h.get_by_label(&format!("R# {}", card.r));
    let lines = journal_lines(&t.journal());
    assert_eq!(lines.len(), 2);
    assert_eq!(
        lines[1]["action"]["draw"]["purpose"],
        "rally check for squad 1/1"
    );
    assert_eq!(reloaded(&t.journal()), state);
    // The purpose box is cleared for the next draw.
    assert!(h.state().drafts.purpose.is_empty());
}

#[test]
fn fof_panel_undo_appends_an_undo_line_and_restores_the_state() {
    let t = Temp::new("undo");
    let mut h = harness(FofApp::new(new_game(&t, 11, None)));
    let before = h.state().journal.state().clone();
    click(&mut h, "抽牌 Draw");
    assert_ne!(h.state().journal.state(), &before);
    click(&mut h, "撤销 Undo");
    assert_eq!(h.state().journal.state(), &before);
    let lines = journal_lines(&t.journal());
    assert_eq!(lines.len(), 3, "set-up, draw, undo: nothing erased");
    assert_eq!(lines[2]["kind"], "undo");
    assert_eq!(reloaded(&t.journal()), before);
}

#[test]
fn fof_panel_step_action_buttons_follow_the_rules() {
    // 3.3.1 A: the Bn activates the CO (a step button); then 3.3.1 B draws its command number.
    let t = Temp::new("activate");
    let mut h = harness(FofApp::new(new_game(&t, 2026, None)));
    click(&mut h, "activate co");
    assert!(h.state().journal.state().commands["co"].activated);
    click(&mut h, "下一步 Next");
    let s = h.state().journal.state().clone();
    assert_eq!(s.current_step().id, "3.3.1 B");
    assert_eq!(s.log.last().unwrap().purpose, "3.3.1 B: CO HQ activation");
    assert!(
        s.commands["co"].available >= 1,
        "activated commands are at least 1"
    );
    assert_eq!(reloaded(&t.journal()), s);
}

#[test]
fn fof_panel_refused_typed_action_names_the_rule_and_writes_nothing() {
    let t = Temp::new("refused");
    let mut h = harness(FofApp::new(new_game(&t, 3, None)));
    let before = h.state().journal.state().clone();
    h.get_by_label(TYPE_LABEL).click();
    h.run();
    h.get_by_label(TYPE_LABEL).type_text("activate 1plt");
    h.run();
    click(&mut h, "执行 Do");
    let error = h.state().outcome.error.clone().expect("a refusal");
    assert!(error.contains("(3.3.1 A)"), "cites the rule: {error}");
    assert_eq!(h.state().journal.state(), &before);
    assert_eq!(journal_lines(&t.journal()).len(), 1);
}

#[test]
fn fof_panel_physical_deck_asks_and_takes_the_answer_by_button() {
    // Physical deck, CO not activated: 3.3.2 A draws the CO's initiative card and asks for its number.
    let t = Temp::new("physical");
    let mut h = harness(FofApp::new(new_game(&t, 5, Some(54))));
    for _ in 0..3 {
        click(&mut h, "下一步 Next");
    }
    let s = h.state().journal.state().clone();
    assert_eq!(s.current_step().id, "3.3.2 A");
    assert!(s.awaiting.is_some());
    let card = s.log.last().unwrap().card;
    h.get_by_label(&format!("#{card}"));
    click(&mut h, "answer 2");
    let s = h.state().journal.state().clone();
    assert!(s.awaiting.is_none());
    assert_eq!(s.commands["co"].available, 2);
    let lines = journal_lines(&t.journal());
    assert_eq!(lines.last().unwrap()["action"]["answer"]["number"], 2);
    assert_eq!(reloaded(&t.journal()), s);
}

#[test]
fn fof_panel_follows_moves_made_with_the_cli_meanwhile() {
    let t = Temp::new("follow");
    let mut h = harness(FofApp::new(new_game(&t, 9, None)));
    // Another process (the CLI) plays on the same file.
    let mut cli = Journal::load(&t.journal()).unwrap();
    cli.play(&Action::Next).unwrap().unwrap();
    h.run();
    assert_eq!(h.state().journal.state(), cli.state());
    // And the panel's next action lands after it, not over it.
    click(&mut h, "下一步 Next");
    assert_eq!(journal_lines(&t.journal()).len(), 3);
    assert_eq!(reloaded(&t.journal()), *h.state().journal.state());
}

#[test]
fn fof_panel_reopened_shows_what_the_last_action_did() {
    let t = Temp::new("reopen");
    let mut cli = new_game(&t, 2026, None);
    cli.play(&Action::Activate { hq: "co".into() })
        .unwrap()
        .unwrap();
    cli.play(&Action::Next).unwrap().unwrap();
    // Closing the window and opening it again: the journal alone tells the panel what happened last.
    let h = harness(FofApp::new(Journal::load(&t.journal()).unwrap()));
    let events = &h.state().outcome.events;
    assert!(
        events
            .iter()
            .any(|(_, en)| en.starts_with("co activated commands: printed")),
        "{events:?}"
    );
    h.get_by_label("— turn 1, 3.3.1 B Activation: company HQ —");
}

#[test]
fn fof_panel_keys_n_d_u_play_next_draw_undo_but_not_while_typing() {
    let t = Temp::new("keys");
    let mut h = harness(FofApp::new(new_game(&t, 4, None)));
    h.key_press(egui::Key::N);
    h.run();
    assert_eq!(h.state().journal.state().current_step().id, "3.3.1 B");
    h.key_press(egui::Key::D);
    h.run();
    assert_eq!(
        h.state().journal.state().log.last().unwrap().purpose,
        "3.3.1 B: free draw"
    );
    h.key_press(egui::Key::U);
    h.run();
    assert!(h.state().journal.state().log.is_empty());
    assert_eq!(journal_lines(&t.journal()).len(), 4, "next, draw, undo");
    // Typing "n" into the purpose box is text, not Next.
    h.get_by_label("用途 purpose:").click();
    h.run();
    h.get_by_label("用途 purpose:").type_text("n");
    h.run();
    h.key_press(egui::Key::N);
    h.run();
    assert_eq!(h.state().journal.state().current_step().id, "3.3.1 B");
    assert_eq!(h.state().drafts.purpose, "n");
}

#[test]
fn fof_a_journal_read_before_another_wrote_refuses_to_write_over_it() {
    let t = Temp::new("stale");
    let mut first = new_game(&t, 9, None);
    let mut second = Journal::load(&t.journal()).unwrap();
    first.play(&Action::Next).unwrap().unwrap();
    let err = second.play(&Action::Next).unwrap_err().to_string();
    assert!(err.contains("changed since it was read"), "{err}");
    assert_eq!(
        journal_lines(&t.journal()).len(),
        2,
        "only the first write landed"
    );
    assert_eq!(reloaded(&t.journal()), *first.state());
}
