//! The Blitz window: one struct per area, each returning commands applied once per frame.

use super::board::BoardPanel;
use super::feed::Feed;
use crate::live::allied::ImageEdge;
use crate::live::confirm::Confirm;
use crate::live::runner::Runner;
use blitz::profile::{AnnihilationScope, CombineAttacks};
use blitz::{Action, PlayerId, Profile};
use egui::{Color32, RichText};

/// What the players asked for this frame.
#[must_use]
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Submit(PlayerId, Action),
    Answer {
        question: usize,
        option: usize,
    },
    /// Let the change a question is about stand against the rules.
    Overrule(usize),
    Undo,
    /// Type an action to correct what the camera saw ("move us-u01 B4").
    Correct(String),
    SetProfile(Profile),
    /// The players say which edge of the camera picture the Allied side is at.
    AlliedSide(ImageEdge),
    /// OK for the change the camera saw.
    ConfirmSeen,
    /// Not what happened: nothing is committed (the players put it back or type a correction).
    RejectSeen,
    SetConfirm(Confirm),
}

pub struct BlitzApp {
    pub runner: Runner,
    feed: Option<Box<dyn Feed>>,
    correction: String,
    settings_open: bool,
    profile_draft: Profile,
    texture: Option<egui::TextureHandle>,
    /// Frames taken from the feed per UI frame (replays run faster than a camera).
    pub frames_per_ui_frame: usize,
    /// A replay is paced to this many frames per second so a person can follow it (0: as fast as drawn).
    pub replay_fps: f32,
    last_poll: std::time::Instant,
    fonts_installed: bool,
    pub style: super::style::TableStyle,
}

impl BlitzApp {
    pub fn new(runner: Runner, mut feed: Option<Box<dyn Feed>>) -> BlitzApp {
        let profile_draft = runner.session.state.profile.clone();
        // A resumed game keeps the players' earlier answer.
        if let (Some(edge), Some(feed)) = (runner.session.allied_edge, feed.as_mut()) {
            feed.set_allied_towards(edge.towards());
        }
        BlitzApp {
            runner,
            feed,
            correction: String::new(),
            settings_open: false,
            profile_draft,
            texture: None,
            frames_per_ui_frame: 1,
            replay_fps: 0.0,
            last_poll: std::time::Instant::now(),
            fonts_installed: false,
            style: Default::default(),
        }
    }

    pub fn apply(&mut self, command: Command) {
        let session = &mut self.runner.session;
        match command {
            Command::Submit(seat, action) => {
                session.submit(seat, action, crate::live::blitz::Source::Panel);
            }
            Command::Answer { question, option } => session.answer(question, option),
            Command::Overrule(question) => session.overrule_question(question),
            Command::Undo => {
                session.undo();
            }
            Command::Correct(text) => {
                // A correction replaces what the camera understood.
                if session.seen.is_some() {
                    session.reject_seen();
                }
                self.runner.press(&text);
            }
            Command::ConfirmSeen => session.confirm_seen(),
            Command::RejectSeen => session.reject_seen(),
            Command::SetConfirm(policy) => session.set_confirm(policy),
            Command::AlliedSide(edge) => {
                session.set_allied_edge(edge);
                if let Some(feed) = self.feed.as_mut() {
                    feed.set_allied_towards(edge.towards());
                }
            }
            Command::SetProfile(profile) => {
                if let Err(e) = session.change_profile(profile) {
                    session.questions.push(crate::live::blitz::Question {
                        text: format!("{e:#}"),
                        options: vec![("OK".into(), None)],
                        overrule: None,
                    });
                }
            }
        }
    }

    /// Draws everything and applies the commands (separate from eframe so tests can drive it).
    pub fn show(&mut self, ui: &mut egui::Ui) {
        self.style.apply(ui.ctx());
        // Fonts take effect from the next frame: install the CJK face and draw from then on.
        if !self.fonts_installed {
            self.fonts_installed = true;
            if super::install_cjk_font(ui.ctx()).is_none() {
                self.runner
                    .session
                    .questions
                    .push(crate::live::blitz::Question {
                    text: "No CJK font found (install fonts-noto-cjk): Chinese text shows as boxes"
                        .into(),
                    options: vec![("OK".into(), None)],
                    overrule: None,
                });
            }
            ui.ctx().request_repaint();
            return;
        }
        let due = self.replay_fps <= 0.0
            || self.last_poll.elapsed().as_secs_f32() >= 1.0 / self.replay_fps;
        if let (Some(feed), true) = (self.feed.as_mut(), due) {
            self.last_poll = std::time::Instant::now();
            for _ in 0..self.frames_per_ui_frame {
                if !self.runner.poll(feed.as_mut()) {
                    break;
                }
            }
        }
        if self.feed.is_some() && !self.runner.ended {
            ui.ctx().request_repaint();
        }
        let mut commands = Vec::new();
        egui::Panel::top("prompt").show(ui, |ui| commands.extend(self.prompt_ui(ui)));
        // Eight lines of rulings at the chosen size.
        let rulings_height = self.style.body_px * 1.5 * 8.0 + 40.0;
        egui::Panel::bottom("rulings")
            .resizable(true)
            .min_size(rulings_height)
            .show(ui, |ui| self.rulings_ui(ui));
        egui::Panel::right("actions")
            .default_size(self.style.body_px * 22.0)
            .show(ui, |ui| commands.extend(self.actions_ui(ui)));
        egui::Panel::left("board")
            .default_size(self.style.body_px * 26.0)
            .show(ui, |ui| {
                ui.heading("棋盘 Board (engine)");
                BoardPanel.ui(ui, &self.runner.session.state, &[]);
            });
        egui::CentralPanel::default_margins().show(ui, |ui| self.camera_ui(ui));
        for c in commands {
            self.apply(c);
        }
    }

    fn prompt_ui(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        let prompt = blitz::prompt(&self.runner.session.state);
        let mut out = Vec::new();
        ui.horizontal(|ui| {
            if ui.button("撤销 Undo").clicked() {
                out.push(Command::Undo);
            }
            if ui.button("规则 Rules").clicked() {
                self.settings_open = !self.settings_open;
            }
            self.style.control(ui);
        });
        ui.label(super::style::prompt(&prompt.text.zh).strong());
        ui.label(super::style::prompt(&prompt.text.en));
        if let Some(last) = self.runner.session.rulings.last() {
            let colour = if last.accepted {
                Color32::from_gray(215)
            } else {
                Color32::from_rgb(255, 110, 90)
            };
            ui.label(super::style::prompt(ruling_line(last)).color(colour));
        }
        out.extend(self.seen_ui(ui));
        if self.runner.allied_side_unknown && self.runner.session.allied_edge.is_none() {
            let question =
                "同盟方在画面哪一边？ Which side of the camera picture is the Allied side?";
            out.extend(crate::live::allied::ask_edge(ui, question).map(Command::AlliedSide));
        }
        if let Some(why) = &self.runner.camera_lost {
            ui.colored_label(Color32::from_rgb(230, 150, 40), format!("摄像头中断，游戏已保留 / camera lost ({why}): the game is kept and resumes when frames return"));
        }
        out
    }

    /// The change the camera understood, waiting for OK (Enter), a correction or a rejection; and,
    /// after the first round, the question whether to go on confirming.
    fn seen_ui(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        use super::held::{held_ui, policy_ui, Answer};
        let mut out = Vec::new();
        let session = &self.runner.session;
        if let Some(seen) = &session.seen {
            match held_ui(ui, std::slice::from_ref(&seen.text), true) {
                Some(Answer::Ok) => out.push(Command::ConfirmSeen),
                Some(Answer::Correct) => self.correction = seen.notation.clone(),
                Some(Answer::NotThis) => out.push(Command::RejectSeen),
                None => {}
            }
        }
        out.extend(policy_ui(ui, session.confirm, session.state.round).map(Command::SetConfirm));
        out
    }

    fn actions_ui(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut out = Vec::new();
        let session = &self.runner.session;
        ui.heading("问题 Questions");
        for (qi, q) in session.questions.iter().enumerate() {
            ui.group(|ui| {
                ui.colored_label(Color32::from_rgb(240, 200, 80), &q.text);
                ui.horizontal_wrapped(|ui| {
                    for (oi, (label, _)) in q.options.iter().enumerate() {
                        if ui.button(label).clicked() {
                            out.push(Command::Answer {
                                question: qi,
                                option: oi,
                            });
                        }
                    }
                    if q.overrule.is_some() && ui.button("裁定有效 Overrule").clicked() {
                        out.push(Command::Overrule(qi));
                    }
                });
            });
        }
        ui.separator();
        ui.heading("操作 Actions");
        if let Some(seat) = session.state.actor() {
            ui.horizontal_wrapped(|ui| {
                for action in session.panel_actions() {
                    if ui.button(action.notation(&session.state)).clicked() {
                        out.push(Command::Submit(seat, action));
                    }
                }
            });
        }
        ui.separator();
        let label = ui.label("更正 Correct (action notation, e.g. move us-u01 B4)");
        ui.horizontal(|ui| {
            ui.text_edit_singleline(&mut self.correction)
                .labelled_by(label.id);
            if ui.button("确认 Confirm").clicked() && !self.correction.trim().is_empty() {
                out.push(Command::Correct(std::mem::take(&mut self.correction)));
            }
        });
        if self.settings_open {
            ui.separator();
            out.extend(self.settings_ui(ui));
        }
        out
    }

    fn settings_ui(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        let p = &mut self.profile_draft;
        ui.heading("规则选项 Rules profile");
        let note = |ui: &mut egui::Ui, text: &str| {
            ui.label(RichText::new(text).small().color(Color32::from_gray(170)));
        };
        ui.horizontal(|ui| {
            ui.label("合击 Joint attack (blitz.combine_attacks)");
            ui.radio_value(&mut p.combine_attacks, CombineAttacks::Sum, "sum");
            ui.radio_value(&mut p.combine_attacks, CombineAttacks::Highest, "highest");
        });
        note(ui, "几支部队攻击同一目标时：相加或只取最高 · several units attacking one target add up, or only the strongest counts");
        ui.checkbox(
            &mut p.deploy_then_move,
            "部署后移动 Deploy then move (blitz.deploy_then_move)",
        );
        note(
            ui,
            "本回合部署的卡也可移动 · a card deployed this round may also move this round",
        );
        ui.horizontal(|ui| {
            ui.label("全歼 Annihilation (blitz.annihilation_scope)");
            ui.radio_value(&mut p.annihilation_scope, AnnihilationScope::Board, "board");
            ui.radio_value(&mut p.annihilation_scope, AnnihilationScope::All, "all");
        });
        note(ui, "胜利条件一：场上无敌军部队，或连手牌和牌库也没有 · victory 1: no enemy unit on the board, or none in hand and deck either");
        ui.checkbox(
            &mut p.rotate_order_two_players,
            "两人轮换先手 Rotate order, two players (blitz.rotate_order_two_players)",
        );
        note(ui, "两人游戏时也轮换行动顺序 · the second player of a round acts first in the next, with two players too");
        ui.checkbox(
            &mut p.facilities_own_side,
            "设施仅限己方 Facilities own side (blitz.facilities_own_side)",
        );
        note(
            ui,
            "设施只能放在己方区域 · facilities are placed only in your own territory",
        );
        ui.add(
            egui::Slider::new(&mut p.engineer_reach, 0..=2)
                .text("工兵范围 Engineer reach (blitz.engineer_reach)"),
        );
        note(ui, "工兵清除多少格内的敌方设施 · an engineer removes enemy facilities this many cells away");
        ui.add(
            egui::Slider::new(&mut p.resource_exposure, 0..=2)
                .text("资源暴露 Resource exposure (blitz.resource_exposure)"),
        );
        note(ui, "敌军部队多少格内的资源被弃 · a resource this close to an enemy unit is discarded after deployment");
        if ui.button("应用 Apply").clicked() {
            return vec![Command::SetProfile(p.clone())];
        }
        Vec::new()
    }

    fn rulings_ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("裁定 Rulings");
        egui::ScrollArea::vertical()
            .stick_to_bottom(true)
            .show(ui, |ui| {
                for r in &self.runner.session.rulings {
                    let colour = if r.accepted {
                        Color32::from_gray(210)
                    } else {
                        Color32::from_rgb(255, 110, 90)
                    };
                    ui.colored_label(colour, ruling_line(r));
                }
            });
    }

    fn camera_ui(&mut self, ui: &mut egui::Ui) {
        ui.heading(match &self.feed {
            Some(f) => format!("摄像头 Camera · {}", f.describe()),
            None => "摄像头 Camera · none".into(),
        });
        super::camera::camera_view(
            ui,
            &mut self.texture,
            "camera",
            self.runner.image.as_ref(),
            &self.runner.overlays,
        );
    }
}

/// One ruling as the panel prints it: accepted or refused, round, who, what, the rule, why.
fn ruling_line(r: &crate::live::blitz::Ruling) -> String {
    let mark = if r.accepted { "ok" } else { "!!" };
    let rule = r
        .rule
        .as_deref()
        .map(|x| format!(" [{x}]"))
        .unwrap_or_default();
    format!(
        "{mark} r{} {} {}{rule}: {}",
        r.round, r.who, r.action, r.text
    )
}

impl eframe::App for BlitzApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}
