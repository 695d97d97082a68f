//! The turn sequence as a checklist (done, current, to come) and the log of draws with their purpose.

use egui::{Color32, RichText};
use fof::State;

const CURRENT: Color32 = Color32::from_rgb(255, 205, 90);
const DONE: Color32 = Color32::from_gray(140);

/// The steps this mission type runs this turn; the current one highlighted.
pub fn checklist_ui(ui: &mut egui::Ui, s: &State) {
    ui.heading(format!("回合顺序 Sequence · turn {}", s.turn));
    egui::ScrollArea::vertical().show(ui, |ui| {
        for (i, step) in s.sequence.steps.iter().enumerate() {
            if !step.applies(s.mission.mission_type, s.turn) {
                continue;
            }
            let (mark, colour) = if s.game_over || i < s.step {
                ("[x]", DONE)
            } else if i == s.step {
                ("[>]", CURRENT)
            } else {
                ("[ ]", Color32::from_gray(215))
            };
            let line = format!("{mark} {:<8} {}", step.id, step.title.zh);
            let text = RichText::new(line).monospace().color(colour);
            if i == s.step && !s.game_over {
                egui::Frame::new()
                    .fill(Color32::from_rgb(70, 55, 20))
                    .corner_radius(4.0)
                    .inner_margin(4.0)
                    .show(ui, |ui| {
                        ui.label(text.strong());
                        ui.label(RichText::new(&step.title.en).color(CURRENT));
                        if step.draws != "none" && !step.draws.is_empty() {
                            ui.label(
                                RichText::new(format!("抽牌 draws: {}", step.draws))
                                    .small()
                                    .color(Color32::from_gray(200)),
                            );
                        }
                    });
            } else {
                ui.label(text).on_hover_text(&step.title.en);
            }
        }
        if s.game_over {
            ui.label(
                RichText::new("任务结束 Mission over")
                    .strong()
                    .color(CURRENT),
            );
        }
    });
}

/// Every draw this game, newest at the bottom, with its purpose and the card's face.
pub fn log_ui(ui: &mut egui::Ui, s: &State) {
    ui.heading(format!("抽牌记录 Draw log ({} draws)", s.log.len()));
    egui::ScrollArea::vertical()
        .stick_to_bottom(true)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let last = s.log.len();
            for (i, d) in s.log.iter().enumerate() {
                let face = match s.deck.card(d.card) {
                    Some(c) => c.to_string(),
                    None => format!("card #{} (physical deck)", d.card),
                };
                let line = format!("{:>3}. turn {} {} — {face}", d.seq, d.turn, d.purpose);
                let text = RichText::new(line).monospace();
                ui.label(if i + 1 == last {
                    text.color(CURRENT)
                } else {
                    text
                });
            }
        });
}
