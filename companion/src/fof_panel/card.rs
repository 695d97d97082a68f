//! The last drawn card, large: every field of the action card (or, with a physical deck, the number to
//! take and the question to answer), and what the last action did.

use super::{Command, Outcome};
use egui::{Color32, RichText};
use fof::card::{ActionCard, ActionIcon, Experience};
use fof::state::DrawRecord;
use fof::{Action, State};

const INK: Color32 = Color32::from_rgb(35, 35, 30);
const PAPER: Color32 = Color32::from_rgb(238, 232, 212);
const MUTED: Color32 = Color32::from_rgb(95, 90, 75);

pub struct CardPanel;

impl CardPanel {
    pub fn ui(
        &self,
        ui: &mut egui::Ui,
        s: &State,
        legal: &[Action],
        outcome: &Outcome,
    ) -> Vec<Command> {
        let mut out = Vec::new();
        egui::ScrollArea::vertical().show(ui, |ui| {
            match s.log.last() {
                None => {
                    ui.heading("行动牌 Action card");
                    ui.label("还没有抽牌 / no card drawn yet");
                }
                Some(record) => {
                    ui.label(
                        RichText::new(format!(
                            "抽牌 {} · 第{}回合 turn {} · {}",
                            record.seq, record.turn, record.turn, record.purpose
                        ))
                        .size(16.0)
                        .strong(),
                    );
                    match s.deck.card(record.card) {
                        Some(card) => card_face(ui, card),
                        None => physical_card(ui, record),
                    }
                }
            }
            out.extend(answers_ui(ui, s, legal));
            outcome_ui(ui, outcome);
        });
        out
    }
}

/// A digital card drawn like the printed one, every field labelled in both languages.
fn card_face(ui: &mut egui::Ui, c: &ActionCard) {
    egui::Frame::new()
        .fill(PAPER)
        .stroke(egui::Stroke::new(2.0, MUTED))
        .corner_radius(10.0)
        .inner_margin(16.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width().min(640.0));
            ui.style_mut().visuals.override_text_color = Some(INK);
            ui.horizontal(|ui| {
                ui.label(
                    RichText::new(format!("#{}", c.number))
                        .size(40.0)
                        .strong()
                        .color(INK),
                );
                ui.add_space(24.0);
                ui.label(
                    RichText::new(format!("R# {}", c.r))
                        .size(40.0)
                        .strong()
                        .color(INK),
                );
                ui.add_space(24.0);
                let (text, colour) = if c.hq_radio {
                    ("HQ 无线电 radio: 有 yes", Color32::from_rgb(150, 30, 30))
                } else {
                    ("HQ 无线电 radio: 无 no", MUTED)
                };
                ui.label(RichText::new(text).size(18.0).color(colour));
            });
            ui.separator();
            egui::Grid::new("card-fields")
                .num_columns(2)
                .spacing([24.0, 4.0])
                .show(ui, |ui| {
                    let field = |ui: &mut egui::Ui, name: &str, value: String| {
                        ui.label(RichText::new(name).size(17.0).color(MUTED));
                        ui.label(RichText::new(value).size(21.0).strong().color(INK));
                        ui.end_row();
                    };
                    field(ui, "启动指令 Command (helmet)", c.command.to_string());
                    field(ui, "主动指令 Initiative", c.initiative.to_string());
                    field(
                        ui,
                        "有效射击 Effective fire",
                        format!(
                            "净修正 ≥ {:+} / net modifier at least {:+}",
                            c.effective_fire, c.effective_fire
                        ),
                    );
                    for e in Experience::ALL {
                        let effect = c.hit.for_experience(e);
                        field(
                            ui,
                            &format!("命中 Hit · {} {}", experience_zh(e), e.name()),
                            format!("{} {}", effect.zh(), effect.name()),
                        );
                    }
                    field(
                        ui,
                        "潜在接敌 PC contact",
                        format!("{} {}", c.contact.zh(), c.contact.name()),
                    );
                    let icons: Vec<String> = c
                        .icons
                        .iter()
                        .map(|i| format!("{} {}", icon_zh(*i), i.name()))
                        .collect();
                    field(
                        ui,
                        "图标 Icons",
                        if icons.is_empty() {
                            "无 none".into()
                        } else {
                            icons.join("\n")
                        },
                    );
                    field(
                        ui,
                        "反坦克修正 AT modifier",
                        if c.at_modifier == 0 {
                            "无 none".into()
                        } else {
                            format!("{:+}", c.at_modifier)
                        },
                    );
                });
        });
}

/// A card from the player's own deck: Arbiter only knows its number.
fn physical_card(ui: &mut egui::Ui, record: &DrawRecord) {
    egui::Frame::new()
        .fill(PAPER)
        .stroke(egui::Stroke::new(2.0, MUTED))
        .corner_radius(10.0)
        .inner_margin(16.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width().min(640.0));
            ui.style_mut().visuals.override_text_color = Some(INK);
            ui.label(
                RichText::new(format!("#{}", record.card))
                    .size(56.0)
                    .strong()
                    .color(INK),
            );
            ui.label(
                RichText::new(format!(
                    "从你的牌堆取出第{}号牌并阅读 / take card #{} from your deck and read it",
                    record.card, record.card
                ))
                .size(18.0),
            );
        });
}

/// Physical deck: the card question's answers as buttons (only answers are legal then).
fn answers_ui(ui: &mut egui::Ui, s: &State, legal: &[Action]) -> Vec<Command> {
    let mut out = Vec::new();
    if s.awaiting.is_none() {
        return out;
    }
    ui.add_space(8.0);
    ui.label(
        RichText::new("读牌回答 Answer from the card in your hand:")
            .size(17.0)
            .strong(),
    );
    ui.horizontal_wrapped(|ui| {
        for a in legal {
            if let Action::Answer(_) = a {
                let text = RichText::new(a.to_string()).size(18.0);
                if ui.button(text).clicked() {
                    out.push(Command::Play(a.clone()));
                }
            }
        }
    });
    out
}

fn outcome_ui(ui: &mut egui::Ui, outcome: &Outcome) {
    if let Some(e) = &outcome.error {
        ui.add_space(8.0);
        ui.colored_label(
            Color32::from_rgb(255, 120, 100),
            RichText::new(e).size(15.0),
        );
    }
    if !outcome.events.is_empty() {
        ui.add_space(8.0);
        ui.label(RichText::new("上一步 Last action").strong());
        for (zh, en) in &outcome.events {
            ui.label(RichText::new(zh).color(Color32::from_gray(230)));
            ui.label(RichText::new(en).color(Color32::from_gray(165)));
        }
    }
}

pub(crate) fn experience_zh(e: Experience) -> &'static str {
    match e {
        Experience::Green => "新兵",
        Experience::Line => "常规",
        Experience::Veteran => "老兵",
    }
}

pub(crate) fn icon_zh(i: ActionIcon) -> &'static str {
    match i {
        ActionIcon::AtModifier => "反坦克修正",
        ActionIcon::BattalionFireMission => "营火力任务",
        ActionIcon::CallForFire => "呼叫火力/地雷",
        ActionIcon::Contact => "接敌",
        ActionIcon::Cover => "掩蔽",
        ActionIcon::Grenade => "手榴弹",
        ActionIcon::HqEvent => "指挥部事件",
        ActionIcon::Infiltrate => "渗透",
        ActionIcon::Jammed => "卡壳",
        ActionIcon::Rally => "重整",
        ActionIcon::ShortRound => "近弹",
        ActionIcon::Spot => "观察/集中火力",
    }
}
