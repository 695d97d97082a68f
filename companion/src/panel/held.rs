//! What every table panel shows while a change the camera saw waits for the players: the change in
//! words with OK (Enter) and "not this" (and, where the game can take a typed action, "correct"),
//! and after the first round the question whether to go on confirming.

use crate::live::confirm::Confirm;
use egui::Color32;

/// The players' answer to a held change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Ok,
    /// Put the change into the correction box to be edited.
    Correct,
    NotThis,
}

const AMBER: Color32 = Color32::from_rgb(240, 200, 80);

/// Lines of a held change shown in the prompt's size; the rest are counted (a table first seen
/// mid-game can hold a dozen plays), so the buttons stay in view.
const SHOWN_LINES: usize = 5;

/// The held change (`lines`, the first after "看到 Seen —") with its buttons above the rest of
/// it; Enter is OK unless a text field has the keyboard. `correctable`: offer 更正 Correct….
pub fn held_ui(ui: &mut egui::Ui, lines: &[String], correctable: bool) -> Option<Answer> {
    let (first, rest) = lines.split_first()?;
    ui.label(super::style::prompt(format!("看到 Seen — {first}")).color(AMBER));
    let typing = ui.ctx().egui_wants_keyboard_input();
    let enter = !typing && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Enter));
    let mut answer = enter.then_some(Answer::Ok);
    ui.horizontal(|ui| {
        if ui.button("确认 OK [Enter]").clicked() {
            answer = Some(Answer::Ok);
        }
        if correctable && ui.button("更正 Correct…").clicked() {
            answer = Some(Answer::Correct);
        }
        if ui.button("不采纳 Not this").clicked() {
            answer = Some(Answer::NotThis);
        }
    });
    for line in rest.iter().take(SHOWN_LINES - 1) {
        ui.label(super::style::prompt(line).color(AMBER));
    }
    let more = rest.len().saturating_sub(SHOWN_LINES - 1);
    if more > 0 {
        ui.label(
            egui::RichText::new(format!(
                "…另 {more} 项 / {more} more (see the log after OK)"
            ))
            .color(AMBER),
        );
    }
    answer
}

/// After the first round of a first-round policy: go on confirming, or commit once stable.
pub fn policy_ui(ui: &mut egui::Ui, policy: Confirm, round: u16) -> Option<Confirm> {
    if !policy.asks_from(round) {
        return None;
    }
    let mut chosen = None;
    ui.horizontal_wrapped(|ui| {
        ui.label(
            "第一回合已结束：继续逐一确认吗？ Round 1 is over: go on confirming every change?",
        );
        if ui.button("继续确认 Keep confirming").clicked() {
            chosen = Some(Confirm::Every);
        }
        if ui.button("稳定后自动提交 Commit once stable").clicked() {
            chosen = Some(Confirm::Stable);
        }
    });
    chosen
}
