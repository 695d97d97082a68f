//! Command points per HQ, the map bookkeeping (enemies, PC markers, deck), and every other action the
//! rules allow now: as buttons, a fire form, or typed in the CLI's words.

use super::{Command, Drafts};
use egui::{Color32, RichText};
use fof::card::Experience;
use fof::{Action, State};

pub struct SidePanel;

impl SidePanel {
    pub fn ui(
        &self,
        ui: &mut egui::Ui,
        s: &State,
        legal: &[Action],
        drafts: &mut Drafts,
    ) -> Vec<Command> {
        let mut out = Vec::new();
        egui::ScrollArea::vertical().show(ui, |ui| {
            commands_ui(ui, s);
            ui.separator();
            bookkeeping_ui(ui, s);
            ui.separator();
            out.extend(actions_ui(ui, legal));
            out.extend(fire_ui(ui, legal, drafts));
            ui.separator();
            out.extend(typed_ui(ui, drafts));
        });
        out
    }
}

fn commands_ui(ui: &mut egui::Ui, s: &State) {
    ui.heading("指令 Command points");
    let profile = &s.mission.profile;
    egui::Grid::new("fof-hq-commands")
        .striped(true)
        .num_columns(5)
        .spacing([14.0, 4.0])
        .show(ui, |ui| {
            for h in [
                "指挥部 HQ",
                "现有 now",
                "保留 saved",
                "上限 keep",
                "启动 act.",
            ] {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for hq in &s.mission.hqs {
                let c = s.commands.get(&hq.id).cloned().unwrap_or_default();
                ui.label(format!(
                    "{} {} ({})",
                    hq.id,
                    hq.name.zh,
                    hq.experience.name()
                ))
                .on_hover_text(&hq.name.en);
                ui.label(RichText::new(c.available.to_string()).size(18.0).strong());
                ui.label(c.saved.to_string());
                ui.label(profile.save_limit.get(hq.experience).to_string());
                ui.label(if c.activated { "是 yes" } else { "-" });
                ui.end_row();
            }
            ui.label("一般主动 general");
            ui.label(RichText::new(s.general.to_string()).size(18.0).strong());
            ui.label("0");
            ui.label("0");
            ui.label("-");
            ui.end_row();
        });
    if s.limited_visibility() {
        ui.label(format!(
            "能见度受限：每个指挥部最多使用 {} / limited visibility: at most {} spent per HQ",
            profile.limited_visibility_spend_cap, profile.limited_visibility_spend_cap
        ));
    }
}

fn bookkeeping_ui(ui: &mut egui::Ui, s: &State) {
    let list = |v: Vec<&str>| {
        if v.is_empty() {
            "-".to_string()
        } else {
            v.join(", ")
        }
    };
    ui.label(format!(
        "敌方单位 enemies: {}",
        list(s.enemies.iter().map(String::as_str).collect())
    ));
    ui.label(format!(
        "PC标记 PC markers: {}",
        list(s.pc_markers.iter().map(String::as_str).collect())
    ));
    ui.label(format!(
        "牌堆 deck: {} 待抽 to draw, {} 弃牌 discarded, 第{}次洗牌 shuffle {}",
        s.pile.draw.len(),
        s.pile.discard.len(),
        s.pile.shuffles,
        s.pile.shuffles
    ));
    ui.label(
        RichText::new(&s.deck.name)
            .small()
            .color(Color32::from_gray(160)),
    );
}

/// The step's own actions (activate, spend, activity, PC checks) as buttons. Next, draw and answers
/// have their own places; fire and map bookkeeping (enemy and marker changes) go through the fire
/// form and the typed line, as their choices are too many for buttons.
fn actions_ui(ui: &mut egui::Ui, legal: &[Action]) -> Vec<Command> {
    let mut out = Vec::new();
    let buttons: Vec<&Action> = legal
        .iter()
        .filter(|a| {
            matches!(
                a,
                Action::Activate { .. }
                    | Action::Spend { .. }
                    | Action::SetActivity { .. }
                    | Action::CheckPc { .. }
            )
        })
        .collect();
    ui.heading("本步操作 Step actions");
    if buttons.is_empty() {
        ui.label("此步没有其他操作 / nothing else to do in this step");
    }
    ui.horizontal_wrapped(|ui| {
        for a in buttons {
            if ui.button(a.to_string()).clicked() {
                out.push(Command::Play(a.clone()));
            }
        }
    });
    out
}

/// 3.6 / 3.7.4: effective-fire draw at a net modifier, then the hit-effect draw for an experience.
fn fire_ui(ui: &mut egui::Ui, legal: &[Action], drafts: &mut Drafts) -> Vec<Command> {
    if !legal.iter().any(|a| matches!(a, Action::Fire { .. })) {
        return Vec::new();
    }
    let mut out = Vec::new();
    ui.add_space(4.0);
    ui.horizontal(|ui| {
        let label = ui.label("射击 Fire, net modifier");
        ui.add(egui::DragValue::new(&mut drafts.fire_modifier).range(-10..=10))
            .labelled_by(label.id);
        for e in Experience::ALL {
            ui.radio_value(&mut drafts.fire_experience, e, e.name());
        }
    });
    let action = Action::Fire {
        modifier: drafts.fire_modifier,
        experience: drafts.fire_experience,
    };
    if ui.button(format!("抽射击牌 {action}")).clicked() {
        out.push(Command::Play(action));
    }
    out
}

fn typed_ui(ui: &mut egui::Ui, drafts: &mut Drafts) -> Vec<Command> {
    let mut out = Vec::new();
    let label = ui.label("输入操作 Type an action (enemy add E3, pc-place D …)");
    ui.horizontal(|ui| {
        let edit = ui
            .add(egui::TextEdit::singleline(&mut drafts.typed).desired_width(230.0))
            .labelled_by(label.id);
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if (ui.button("执行 Do").clicked() || enter) && !drafts.typed.trim().is_empty() {
            out.push(Command::Typed(std::mem::take(&mut drafts.typed)));
        }
    });
    out
}
