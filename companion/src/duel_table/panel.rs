//! The Duel table panel: camera view with outlines, both sides from the engine (life, 陣地,
//! territories), the stack (top first) and who holds priority with pass buttons, the prompt, the
//! payment question and flagged refusals.

use super::correct::{card_at, changed_places, Correction, Place};
use super::session::{Step, TableSession};
use crate::live::allied::{ask_edge, ImageEdge};
use crate::live::confirm::Confirm;
use crate::panel::feed::Feed;
use duel::{CardId, Seat};
use egui::{Color32, RichText};
use rules_core::Game;
use std::collections::BTreeSet;
use vision::types::DuelSide;

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// The priority holder passes.
    Pass,
    /// Both players pass until the stack is empty.
    Resolve,
    /// Pay the waiting play with these territories.
    Pay(Vec<CardId>),
    /// Let the engine choose the territories.
    EnginePays,
    /// The players' answer: the near player sits at this edge of the camera picture.
    NearSide(ImageEdge),
    /// The table the camera saw is right: take it.
    ConfirmSeen,
    /// It is not: drop it.
    RejectSeen,
    /// Show (true) or close the list of the held table's cards to correct.
    Correcting(bool),
    /// A card of the held table is this one, not what the camera read.
    Correct(Correction),
    /// When tables the camera sees are taken, for the rest of the game.
    SetConfirm(Confirm),
}

pub struct DuelTableApp {
    pub session: TableSession,
    feed: Option<Box<dyn Feed>>,
    texture: Option<egui::TextureHandle>,
    fonts_installed: bool,
    pub font_missing: bool,
    /// Territories ticked for the waiting payment.
    picked: BTreeSet<CardId>,
    /// The held table's cards are listed for correction.
    correcting: bool,
    pub style: crate::panel::style::TableStyle,
}

impl DuelTableApp {
    pub fn new(session: TableSession, feed: Option<Box<dyn Feed>>) -> DuelTableApp {
        DuelTableApp {
            session,
            feed,
            texture: None,
            fonts_installed: false,
            font_missing: false,
            picked: BTreeSet::new(),
            correcting: false,
            style: Default::default(),
        }
    }

    pub fn apply(&mut self, c: Command) {
        let step = match c {
            Command::ConfirmSeen => return self.session.confirm_held(),
            Command::RejectSeen => return self.session.reject_held(),
            Command::Correcting(on) => {
                self.correcting = on;
                return;
            }
            Command::Correct(c) => return self.session.correct_held(c),
            Command::SetConfirm(policy) => return self.session.set_confirm(policy),
            Command::NearSide(edge) => {
                if let Some(feed) = self.feed.as_mut() {
                    feed.set_allied_towards(edge.towards());
                }
                Step::NearSide(edge)
            }
            Command::Pass => Step::Pass,
            Command::Resolve => Step::Resolve,
            Command::Pay(list) => Step::Pay(list),
            Command::EnginePays => Step::EnginePays,
        };
        let paid = matches!(step, Step::Pay(_));
        self.session.step(step);
        if paid && self.session.game.waiting.is_none() {
            self.picked.clear();
        }
    }

    pub fn show(&mut self, ui: &mut egui::Ui) {
        self.style.apply(ui.ctx());
        if !self.fonts_installed {
            self.fonts_installed = true;
            self.font_missing = crate::panel::install_cjk_font(ui.ctx()).is_none();
            ui.ctx().request_repaint();
            return;
        }
        if let Some(feed) = self.feed.as_mut() {
            self.session.poll(feed.as_mut());
            if !self.session.ended {
                ui.ctx().request_repaint();
            }
        }
        let mut commands = Vec::new();
        egui::Panel::top("duel-prompt").show(ui, |ui| commands.extend(self.prompt_ui(ui)));
        egui::Panel::right("duel-stack")
            .default_size(self.style.body_px * 22.0)
            .show(ui, |ui| commands.extend(self.stack_ui(ui)));
        egui::Panel::left("duel-board")
            .default_size(self.style.body_px * 24.0)
            .show(ui, |ui| self.board_ui(ui));
        egui::CentralPanel::default_margins().show(ui, |ui| self.camera_ui(ui));
        for c in commands {
            self.apply(c);
        }
        self.correcting &= self.session.held.is_some();
    }

    /// The table the camera saw, waiting for OK (Enter) or "not this"; after round 1 of a
    /// first-round policy, whether to go on confirming.
    fn seen_ui(&self, ui: &mut egui::Ui) -> Vec<Command> {
        use crate::panel::held::{held_ui, policy_ui, Answer};
        let session = &self.session;
        let mut out = Vec::new();
        if let Some(held) = &session.held {
            match held_ui(ui, &held.understood, true) {
                Some(Answer::Ok) => out.push(Command::ConfirmSeen),
                Some(Answer::NotThis) => out.push(Command::RejectSeen),
                Some(Answer::Correct) => out.push(Command::Correcting(true)),
                None => {}
            }
            if self.correcting {
                out.extend(self.correct_ui(ui));
            }
        }
        out.extend(policy_ui(ui, session.confirm, session.round()).map(Command::SetConfirm));
        out
    }

    /// Each card the held table adds or renames, with the catalogue to say what it really is.
    fn correct_ui(&self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut out = Vec::new();
        let session = &self.session;
        let Some(held) = &session.held else {
            return out;
        };
        let Some(table) = held.table() else {
            return out;
        };
        let cards = &session.game.state.catalogue.cards;
        let card_label = |c: &duel::CardDef| format!("{} {} ({})", c.name, c.en, c.id);
        let name = |id: Option<&str>| match id {
            None => "暗置 face down".to_string(),
            Some(id) => cards
                .iter()
                .find(|c| c.id == id)
                .map_or_else(|| id.to_string(), card_label),
        };
        ui.horizontal(|ui| {
            ui.label("更正：选出实际的牌 / Correct: pick the card that really lies there");
            if ui.button("完成 Done").clicked() {
                out.push(Command::Correcting(false));
            }
        });
        for (side, place) in changed_places(&session.taken, table) {
            let (Some(now), Some(seen)) = (
                card_at(table, side, place),
                card_at(&held.read, side, place),
            ) else {
                continue;
            };
            let side_words = match side {
                DuelSide::Near => "近方 near",
                DuelSide::Far => "远方 far",
            };
            let place_words = match place {
                Place::Slot(i) => format!("陣地 {}", i + 1),
                Place::Territory(n) => format!("领土 territory {}", n + 1),
            };
            ui.horizontal(|ui| {
                let mut choice = now.map(str::to_string);
                let label = format!("{side_words} · {place_words}");
                egui::ComboBox::new(("duel-correct", side, place), label)
                    .selected_text(name(now))
                    .height(self.style.body_px * 20.0)
                    .show_ui(ui, |ui| {
                        if matches!(place, Place::Territory(_)) {
                            ui.selectable_value(&mut choice, None, name(None));
                        }
                        for c in cards.iter() {
                            ui.selectable_value(&mut choice, Some(c.id.clone()), card_label(c));
                        }
                    });
                if choice.as_deref() != now {
                    out.push(Command::Correct(Correction {
                        side,
                        place,
                        seen: seen.map(str::to_string),
                        card: choice,
                    }));
                }
            });
        }
        out
    }

    fn prompt_ui(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        let s = &self.session.game.state;
        let prompt = duel::Duel::prompt(s);
        let mut out = Vec::new();
        self.style.control(ui);
        ui.label(crate::panel::style::prompt(&prompt.text.zh).strong());
        ui.label(crate::panel::style::prompt(&prompt.text.en));
        out.extend(self.seen_ui(ui));
        if let Some(f) = self.session.game.flags.last() {
            ui.label(
                crate::panel::style::prompt(format!("!! {} [{}]: {}", f.action, f.rule, f.reason))
                    .color(Color32::from_rgb(255, 110, 90)),
            );
        } else if let Some(line) = self.session.game.log.last() {
            ui.label(crate::panel::style::prompt(line));
        }
        if self.font_missing {
            ui.colored_label(
                Color32::from_rgb(230, 150, 40),
                "No CJK font found (install fonts-noto-cjk)",
            );
        }
        if let Some(why) = &self.session.camera_lost {
            ui.colored_label(
                Color32::from_rgb(230, 150, 40),
                format!("摄像头中断 camera lost: {why}"),
            );
        }
        if let Some(why) = &self.session.journal_error {
            ui.colored_label(
                Color32::from_rgb(230, 90, 60),
                format!("记录失败，退出将丢失对局 journal failed: {why}"),
            );
        }
        if self.session.asks_near_side() {
            let question =
                "近方玩家在画面哪一边？ Which side of the camera picture is the near player?";
            out.extend(ask_edge(ui, question).map(Command::NearSide));
        }
        ui.horizontal(|ui| {
            let holder = self.session.game.priority_holder().unwrap_or_default();
            ui.label(RichText::new(format!("优先权 Priority: {holder}")).strong());
            if ui.button("让过 Pass").clicked() {
                out.push(Command::Pass);
            }
            if ui.button("双方让过，结算堆叠 Resolve").clicked() {
                out.push(Command::Resolve);
            }
        });
        out
    }

    fn stack_ui(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut out = Vec::new();
        let game = &self.session.game;
        ui.heading("堆叠 Stack (top first)");
        let lines = game.stack_lines();
        if lines.is_empty() {
            ui.label("（空 empty）");
        }
        for (i, line) in lines.iter().enumerate() {
            let label = if i == 0 {
                format!("顶 top: {line}")
            } else {
                line.clone()
            };
            ui.label(label);
        }
        if let Some(w) = &game.waiting {
            ui.separator();
            ui.heading("支付 Payment");
            let s = &game.state;
            ui.colored_label(
                Color32::from_rgb(240, 200, 80),
                format!(
                    "{}：选择 {} 张领土支付 / choose {} territories to pay",
                    duel::view::describe_action(s, &w.action),
                    w.cost,
                    w.cost
                ),
            );
            for &t in &w.options {
                let face_up = s.players[w.seat]
                    .territories
                    .iter()
                    .any(|x| x.card == t && x.face_up);
                let name = if face_up {
                    s.def(t).name.clone()
                } else {
                    format!("暗置领土 #{t}")
                };
                let mut on = self.picked.contains(&t);
                if ui.checkbox(&mut on, name).changed() {
                    if on {
                        self.picked.insert(t);
                    } else {
                        self.picked.remove(&t);
                    }
                }
            }
            ui.horizontal(|ui| {
                if ui.button("支付 Pay").clicked() {
                    out.push(Command::Pay(self.picked.iter().copied().collect()));
                }
                if ui.button("由引擎选择 Engine picks").clicked() {
                    out.push(Command::EnginePays);
                }
            });
        }
        ui.separator();
        ui.heading("拒绝 Refused");
        for f in &game.flags {
            ui.colored_label(
                Color32::from_rgb(255, 110, 90),
                format!("!! {} [{}]: {}", f.action, f.rule, f.reason),
            );
        }
        if !game.notes.is_empty() {
            ui.separator();
            ui.heading("桌面差异 Table differs");
            for n in &game.notes {
                ui.label(n);
            }
        }
        ui.separator();
        ui.heading("记录 Log");
        egui::ScrollArea::vertical()
            .stick_to_bottom(true)
            .show(ui, |ui| {
                for line in game.log.iter().rev().take(40).rev() {
                    ui.label(line);
                }
            });
        out
    }

    fn side_ui(ui: &mut egui::Ui, s: &duel::State, seat: Seat, heading: &str) {
        let p = &s.players[seat];
        let who = if p.name.contains(heading) {
            p.name.clone()
        } else {
            format!("{heading} · {}", p.name)
        };
        ui.heading(format!("{who} · 生命 Life {}", p.life));
        ui.label(format!(
            "手牌 hand {} · 牌库 library {} · 墓地 graveyard {}",
            p.hand.len(),
            p.library.len(),
            p.graveyard.len()
        ));
        for (i, u) in p.slots.iter().enumerate() {
            let text = match u {
                Some(u) => format!(
                    "陣地 {}: {} {} {}/{} 伤 dmg {}{}{}",
                    i + 1,
                    s.def(u.card).name,
                    s.def(u.card).en,
                    s.attack_of(u.card),
                    s.health_of(u.card),
                    u.damage,
                    if u.tapped { " 横置 tapped" } else { "" },
                    if u.fresh { " 整备 just arrived" } else { "" }
                ),
                None => format!("陣地 {}: —", i + 1),
            };
            ui.label(text);
        }
        let lands: Vec<String> = p
            .territories
            .iter()
            .map(|t| {
                let name = if t.face_up {
                    format!("{} {}", s.def(t.card).name, s.def(t.card).en)
                } else {
                    "暗置 face down".into()
                };
                if t.tapped {
                    format!("{name} (横置 tapped)")
                } else {
                    name
                }
            })
            .collect();
        ui.label(format!("领土 territories: {}", lands.join("、")));
    }

    fn board_ui(&mut self, ui: &mut egui::Ui) {
        let g = &self.session.game;
        let s = &g.state;
        ui.heading(format!(
            "第 {} 回合 turn · {} {} · 行动方 {}",
            s.turn,
            s.phase.zh(),
            s.phase.en(),
            s.players[s.active].name
        ));
        ui.separator();
        Self::side_ui(ui, s, g.seats[1], "远方");
        ui.separator();
        Self::side_ui(ui, s, g.seats[0], "近方");
    }

    fn camera_ui(&mut self, ui: &mut egui::Ui) {
        ui.heading(match &self.feed {
            Some(f) => format!("摄像头 Camera · {}", f.describe()),
            None => "摄像头 Camera".into(),
        });
        crate::panel::camera::camera_view(
            ui,
            &mut self.texture,
            "duel-camera",
            self.session.image.as_ref(),
            &self.session.overlays,
        );
    }
}

impl eframe::App for DuelTableApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}

/// Opens the window. Returns when it is closed.
pub fn run(mut app: DuelTableApp) -> anyhow::Result<()> {
    app.style
        .remember_in(crate::paths::user_data(crate::panel::style::SAVED_FILE));
    crate::panel::open_window("陣面對決 at the table", app)
}
