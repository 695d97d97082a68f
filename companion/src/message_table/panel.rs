//! The 风声 table window: the camera with card outlines and seat regions (drawn once by clicking in
//! the camera view, corners dragged to adjust, saved to a JSON file), each seat's tally, the
//! announcements, and a chain-entry form whose ruling comes from the rules engine.

use super::feed::TableFeed;
use super::session::{describe, TableSession};
use egui::{Color32, RichText};
use message::chain::{parse_response, rule_chain, ChainRequest, Ruling};
use message::{Catalogue, Colour, Method};
use std::path::PathBuf;
use std::sync::Arc;
use vision::games::message::{colour_zh, SeatRegion};

/// The colour of a corrected count.
const CORRECTED: Color32 = Color32::from_rgb(120, 220, 255);

/// A click in the tally (applied after the grid is drawn).
enum TallyAction {
    Correct(usize, Colour, i16),
    Clear(usize),
    UndoDeath(usize),
}

/// The chain being entered.
pub struct ChainForm {
    /// 1-based, as the players say it.
    pub sender: usize,
    pub method: Method,
    pub target: usize,
    pub responses: Vec<String>,
    pub draft: String,
    pub ruling: Option<Result<Ruling, String>>,
}

impl Default for ChainForm {
    fn default() -> Self {
        ChainForm {
            sender: 1,
            method: Method::Secret,
            target: 2,
            responses: Vec::new(),
            draft: String::new(),
            ruling: None,
        }
    }
}

pub struct MessageTableApp {
    pub session: TableSession,
    feed: Option<TableFeed>,
    pub log: Vec<String>,
    image: Option<([usize; 2], Vec<u8>)>,
    texture: Option<egui::TextureHandle>,
    /// The seat whose region is being drawn (0-based).
    pub editing: Option<usize>,
    dragging: Option<(usize, usize)>,
    /// Players when no regions are set yet (the chain form needs it too).
    pub players: usize,
    seats_path: Option<PathBuf>,
    pub chain: ChainForm,
    cat: Arc<Catalogue>,
    fonts_installed: bool,
    pub ended: bool,
    pub style: crate::panel::style::TableStyle,
}

fn seat_colour(seat: usize) -> Color32 {
    const C: [Color32; 9] = [
        Color32::from_rgb(255, 200, 60),
        Color32::from_rgb(90, 200, 255),
        Color32::from_rgb(200, 120, 255),
        Color32::from_rgb(120, 255, 140),
        Color32::from_rgb(255, 130, 170),
        Color32::from_rgb(255, 255, 120),
        Color32::from_rgb(120, 255, 255),
        Color32::from_rgb(255, 170, 110),
        Color32::from_rgb(180, 180, 255),
    ];
    C[seat % C.len()]
}

fn intel_colour(c: Option<Colour>) -> Color32 {
    match c {
        Some(Colour::Red) => Color32::from_rgb(255, 80, 80),
        Some(Colour::Blue) => Color32::from_rgb(80, 150, 255),
        Some(Colour::Black) => Color32::from_rgb(230, 230, 230),
        None => Color32::from_rgb(255, 170, 0),
    }
}

impl MessageTableApp {
    pub fn new(
        session: TableSession,
        feed: Option<TableFeed>,
        cat: Arc<Catalogue>,
        seats_path: Option<PathBuf>,
    ) -> MessageTableApp {
        let players = session.regions.seats.len().clamp(3, 9);
        MessageTableApp {
            session,
            feed,
            log: Vec::new(),
            image: None,
            texture: None,
            editing: None,
            dragging: None,
            players,
            seats_path,
            chain: ChainForm::default(),
            cat,
            fonts_installed: false,
            ended: false,
            style: Default::default(),
        }
    }

    /// Takes one frame from the feed into the session.
    pub fn poll(&mut self) {
        let Some(feed) = self.feed.as_mut() else {
            return;
        };
        match feed.next(&self.session.regions) {
            Ok(Some(frame)) => {
                // Seat cards in view: the regions follow them (the count so far stays).
                if let Some(r) = &frame.regions_from_seat_cards {
                    self.session.regions = r.clone();
                }
                if let Some((size, rgb)) = crate::live::vision_feed::rgb(&frame.image) {
                    self.set_image(size, rgb);
                }
                for c in self.session.see(frame.index, frame.cards, frame.hand_seen) {
                    self.log.push(describe(&c));
                }
                if let Some(e) = self.session.journal_error.take() {
                    self.log
                        .push(format!("记录失败，退出将丢失对局 journal failed: {e}"));
                }
            }
            Ok(None) => self.ended = true,
            Err(e) => self.log.push(format!("摄像头 camera: {e:#}")),
        }
    }

    /// The camera image to show (RGB, width × height).
    pub fn set_image(&mut self, size: [usize; 2], rgb: Vec<u8>) {
        self.image = Some((size, rgb));
    }

    /// Rules on the chain in the form (the engine's own ruling).
    pub fn rule(&mut self) {
        let f = &self.chain;
        let players = self.players;
        let result = (|| -> Result<Ruling, String> {
            let responses = f
                .responses
                .iter()
                .map(|r| parse_response(r).map_err(|e| e.to_string()))
                .collect::<Result<Vec<_>, _>>()?;
            let req = ChainRequest {
                players,
                sender: f.sender.saturating_sub(1),
                method: f.method,
                target: (f.method == Method::Direct).then(|| f.target.saturating_sub(1)),
                responses,
            };
            rule_chain(self.cat.clone(), &req).map_err(|e| e.to_string())
        })();
        self.chain.ruling = Some(result);
    }

    pub fn show(&mut self, ui: &mut egui::Ui) {
        self.style.apply(ui.ctx());
        if !self.fonts_installed {
            self.fonts_installed = true;
            if crate::panel::install_cjk_font(ui.ctx()).is_none() {
                self.log.push(
                    "No CJK font found (install fonts-noto-cjk): Chinese shows as boxes".into(),
                );
            }
            ui.ctx().request_repaint();
            return;
        }
        if self.feed.is_some() && !self.ended {
            self.poll();
            ui.ctx().request_repaint();
        }
        egui::Panel::top("message-top").show(ui, |ui| self.top_ui(ui));
        egui::Panel::bottom("message-log")
            .resizable(true)
            .min_size(self.style.body_px * 1.5 * 6.0 + 40.0)
            .show(ui, |ui| {
                ui.heading("记录 Log");
                egui::ScrollArea::vertical()
                    .stick_to_bottom(true)
                    .show(ui, |ui| {
                        for line in &self.log {
                            ui.label(line);
                        }
                    });
            });
        egui::Panel::left("message-tally")
            .default_size(self.style.body_px * 24.0)
            .show(ui, |ui| self.tally_ui(ui));
        egui::Panel::right("message-chain")
            .default_size(self.style.body_px * 22.0)
            .show(ui, |ui| self.chain_ui(ui));
        egui::CentralPanel::default_margins().show(ui, |ui| self.camera_ui(ui));
    }

    /// The count the camera saw, waiting for OK (Enter) or "not this"; after the first round of a
    /// first-round policy, whether to go on confirming.
    fn seen_ui(&mut self, ui: &mut egui::Ui) {
        use crate::panel::held::{held_ui, policy_ui, Answer};
        let mut changes = Vec::new();
        if let Some(held) = &self.session.held {
            match held_ui(ui, &held.understood, false) {
                Some(Answer::Ok) => changes.extend(self.session.confirm_held()),
                Some(Answer::NotThis) => {
                    self.session.reject_held();
                    self.log.push("不采纳 not taken: the camera's count".into());
                }
                Some(Answer::Correct) | None => {}
            }
        }
        if let Some(policy) = policy_ui(ui, self.session.confirm, self.session.round()) {
            changes.extend(self.session.set_confirm(policy));
        }
        for c in changes {
            self.log.push(describe(&c));
        }
    }

    fn top_ui(&mut self, ui: &mut egui::Ui) {
        self.seen_ui(ui);
        // The latest announcement, or the chain just ruled, read from across the table.
        if let Some(said) = self.session.said.last() {
            ui.label(
                crate::panel::style::prompt(format!("{} · {}", said.text.zh, said.text.en))
                    .strong(),
            );
        } else if let Some(Ok(r)) = &self.chain.ruling {
            ui.label(crate::panel::style::prompt(format!(
                "玩家{}获得情报 · player {} receives the intelligence",
                r.receiver + 1,
                r.receiver + 1
            )));
        }
        ui.horizontal(|ui| {
            ui.label(RichText::new("风声 · 情报计数 The Message at the table").heading());
            ui.label(format!("帧 frames {}", self.session.frames));
            self.style.control(ui);
            if self.session.last_hand {
                ui.colored_label(
                    Color32::from_rgb(240, 200, 80),
                    "手在桌上：本帧不计 / hand over the table: this frame commits nothing",
                );
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("座位数 Seats");
            ui.add(egui::DragValue::new(&mut self.players).range(3..=9))
                .labelled_by(label.id);
            match self.editing {
                None => {
                    if ui.button("设定座位区域 Set seat regions").clicked() {
                        self.editing = Some(0);
                        let mut r = self.session.regions.clone();
                        r.seats.resize(self.players, SeatRegion::default());
                        self.session.set_regions(r);
                    }
                }
                Some(seat) => {
                    ui.colored_label(
                        seat_colour(seat),
                        format!("点击画面画出玩家{}的区域（拖动角点可调整）/ click the camera view round seat {}'s cards (drag a corner to move it)", seat + 1, seat + 1),
                    );
                    if ui.button("清除 Clear").clicked() {
                        if let Some(s) = self.session.regions.seats.get_mut(seat) {
                            s.polygon.clear();
                        }
                    }
                    let last = seat + 1 >= self.players;
                    if ui.button(if last { "完成 Done" } else { "下一位 Next seat" }).clicked() {
                        self.editing = if last { None } else { Some(seat + 1) };
                        if last {
                            self.save_regions();
                        }
                    }
                }
            }
        });
    }

    fn save_regions(&mut self) {
        let mut r = self.session.regions.clone();
        if let Some((size, _)) = &self.image {
            r.image_size = [size[0] as u32, size[1] as u32];
        }
        self.session.set_regions(r.clone());
        if let Some(path) = &self.seats_path {
            match r.save(path) {
                Ok(()) => self.log.push(format!(
                    "座位区域已保存 / seat regions saved to {}",
                    path.display()
                )),
                Err(e) => self
                    .log
                    .push(format!("座位区域未保存 / seat regions not saved: {e}")),
            }
        }
    }

    fn tally_ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("情报 Intelligence");
        ui.label(
            RichText::new("摄像头看错时用 -/+ 修正 / -/+ correct a seat the camera misreads")
                .small(),
        );
        let mut act = None;
        egui::Grid::new("tally").striped(true).show(ui, |ui| {
            ui.label("玩家 Seat");
            ui.colored_label(intel_colour(Some(Colour::Red)), "红 red");
            ui.colored_label(intel_colour(Some(Colour::Blue)), "蓝 blue");
            ui.label("黑 black");
            ui.label("状态 State");
            ui.end_row();
            for seat in 0..self.session.tallies.len() {
                ui.colored_label(seat_colour(seat), format!("玩家{}", seat + 1));
                for colour in [Colour::Red, Colour::Blue, Colour::Black] {
                    ui.horizontal(|ui| {
                        if let Some(a) = self.count_cell(ui, seat, colour) {
                            act = Some(a);
                        }
                    });
                }
                ui.vertical(|ui| {
                    if let Some(a) = self.seat_state(ui, seat) {
                        act = Some(a);
                    }
                });
                ui.end_row();
            }
        });
        match act {
            Some(TallyAction::Correct(seat, colour, delta)) => {
                let changes = self.session.correct(seat, colour, delta);
                self.log.extend(changes.iter().map(describe));
            }
            Some(TallyAction::Clear(seat)) => {
                let changes = self.session.clear_correction(seat);
                self.log.extend(changes.iter().map(describe));
            }
            Some(TallyAction::UndoDeath(seat)) => match self.session.undo_death(seat) {
                Ok(changes) => self.log.extend(changes.iter().map(describe)),
                Err(e) => self.log.push(e.to_string()),
            },
            None => {}
        }
        ui.separator();
        ui.heading("宣告 Announcements");
        if self.session.said.is_empty() {
            ui.label("暂无 / none yet");
        }
        for s in self.session.said.iter().rev() {
            let colour = match s.announcement {
                message::tally::Announcement::Death { .. } => Color32::from_rgb(255, 110, 90),
                message::tally::Announcement::PossibleVictory { .. } => {
                    Color32::from_rgb(240, 200, 80)
                }
            };
            ui.group(|ui| {
                ui.colored_label(colour, RichText::new(&s.text.zh).strong());
                ui.label(&s.text.en);
                ui.label(RichText::new(format!("[{}]", s.rule)).small());
            });
        }
    }

    /// One colour of one seat: `-` count `+`, the count highlighted when corrected. The buttons'
    /// names say the seat and colour (for screen readers and tests).
    fn count_cell(&self, ui: &mut egui::Ui, seat: usize, colour: Colour) -> Option<TallyAction> {
        let n = self.session.tallies[seat].count(colour);
        let corrected = self.session.corrections[seat].of(colour) != 0;
        let zh = colour_zh(colour);
        let button = |ui: &mut egui::Ui, text: &str, name: String, enabled: bool| {
            let r = ui.add_enabled(enabled, egui::Button::new(text).small());
            r.widget_info(|| {
                egui::WidgetInfo::labeled(egui::accesskit::Role::Button, enabled, &name)
            });
            r.clicked()
        };
        let mut act = None;
        if button(ui, "-", format!("玩家{} {zh} -1", seat + 1), n > 0) {
            act = Some(TallyAction::Correct(seat, colour, -1));
        }
        let text = RichText::new(n.to_string());
        let text = if corrected {
            text.strong().color(CORRECTED)
        } else if colour == Colour::Black && n >= 3 {
            text.strong().color(Color32::from_rgb(255, 90, 90))
        } else {
            text
        };
        ui.label(text);
        if button(ui, "+", format!("玩家{} {zh} +1", seat + 1), true) {
            act = Some(TallyAction::Correct(seat, colour, 1));
        }
        act
    }

    /// Dead (with undo) and corrected (with the camera's own count, and clear).
    fn seat_state(&self, ui: &mut egui::Ui, seat: usize) -> Option<TallyAction> {
        let mut act = None;
        let n = seat + 1;
        if let Some(Some(died)) = self.session.dead.get(seat) {
            ui.colored_label(
                Color32::from_rgb(255, 90, 90),
                RichText::new(format!("死亡 dead (黑{})", died.black)).strong(),
            );
            let r = ui.small_button("撤销死亡 Undo death");
            r.widget_info(|| {
                egui::WidgetInfo::labeled(
                    egui::accesskit::Role::Button,
                    true,
                    format!("撤销玩家{n}死亡 undo seat {n} death"),
                )
            });
            if r.clicked() {
                act = Some(TallyAction::UndoDeath(seat));
            }
        }
        let by = self.session.corrections[seat];
        if !by.is_zero() {
            let cam = self.session.camera[seat];
            ui.colored_label(
                CORRECTED,
                format!(
                    "已修正 corrected 红{:+}蓝{:+}黑{:+}",
                    by.red, by.blue, by.black
                ),
            );
            ui.label(
                RichText::new(format!(
                    "摄像头 camera 红{}蓝{}黑{}",
                    cam.red, cam.blue, cam.black
                ))
                .small(),
            );
            let r = ui.small_button("清除修正 Clear");
            r.widget_info(|| {
                egui::WidgetInfo::labeled(
                    egui::accesskit::Role::Button,
                    true,
                    format!("清除玩家{n}修正 clear seat {n} correction"),
                )
            });
            if r.clicked() {
                act = Some(TallyAction::Clear(seat));
            }
        }
        if !self.session.is_dead(seat) && by.is_zero() {
            ui.label("—");
        }
        act
    }

    fn chain_ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("情报传递 Transmission chain");
        let players = self.players;
        ui.horizontal(|ui| {
            let l = ui.label("传出者 Sender");
            ui.add(egui::DragValue::new(&mut self.chain.sender).range(1..=players))
                .labelled_by(l.id);
        });
        ui.horizontal(|ui| {
            ui.label("方式 Method");
            for m in [Method::Secret, Method::Direct, Method::Text] {
                ui.radio_value(&mut self.chain.method, m, m.zh());
            }
        });
        if self.chain.method == Method::Direct {
            ui.horizontal(|ui| {
                let l = ui.label("直达 to seat");
                ui.add(egui::DragValue::new(&mut self.chain.target).range(1..=players))
                    .labelled_by(l.id);
            });
        }
        let l = ui.label("应对 Response (SEAT:CARD, e.g. 3:截获, 1:锁定:4, 2:接收)");
        let mut add = false;
        ui.horizontal(|ui| {
            let r = ui
                .text_edit_singleline(&mut self.chain.draft)
                .labelled_by(l.id);
            add = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            add |= ui.button("添加 Add").clicked();
        });
        if add && !self.chain.draft.trim().is_empty() {
            let r = std::mem::take(&mut self.chain.draft).trim().to_string();
            self.chain.responses.push(r);
        }
        let mut remove = None;
        for (i, r) in self.chain.responses.iter().enumerate() {
            ui.horizontal(|ui| {
                ui.label(format!("{}. {r}", i + 1));
                if ui.small_button(format!("删除 {}", i + 1)).clicked() {
                    remove = Some(i);
                }
            });
        }
        if let Some(i) = remove {
            self.chain.responses.remove(i);
        }
        ui.horizontal(|ui| {
            if ui.button("裁定 Rule").clicked() {
                self.rule();
            }
            if ui.button("新的传递 New chain").clicked() {
                self.chain = ChainForm::default();
            }
        });
        ui.separator();
        match &self.chain.ruling {
            None => {}
            Some(Err(e)) => {
                ui.colored_label(Color32::from_rgb(255, 110, 90), e);
            }
            Some(Ok(r)) => {
                let why = r
                    .because
                    .as_ref()
                    .map(|b| format!(" [{b}]"))
                    .unwrap_or_else(|| " (自愿接收 accepted by choice)".into());
                ui.label(
                    RichText::new(format!(
                        "→ 玩家{}获得情报 / player {} receives it{why}",
                        r.receiver + 1,
                        r.receiver + 1
                    ))
                    .strong()
                    .color(Color32::from_rgb(120, 230, 140)),
                );
                egui::ScrollArea::vertical().show(ui, |ui| {
                    for (i, s) in r.steps.iter().enumerate() {
                        let rule = s
                            .rule
                            .as_ref()
                            .map(|x| format!("  [{x}]"))
                            .unwrap_or_default();
                        ui.label(format!("{}. {} · {}{rule}", i + 1, s.text.zh, s.text.en));
                    }
                    for (i, v) in &r.refused {
                        let what = self
                            .chain
                            .responses
                            .get(*i)
                            .map(String::as_str)
                            .unwrap_or("?");
                        ui.colored_label(
                            Color32::from_rgb(255, 150, 90),
                            format!("不允许 refused {what}: {v}"),
                        );
                    }
                    for i in &r.unused {
                        let what = self
                            .chain
                            .responses
                            .get(*i)
                            .map(String::as_str)
                            .unwrap_or("?");
                        ui.label(format!(
                            "未用 not played {what}: 情报已被接收 / received before its moment"
                        ));
                    }
                });
            }
        }
    }

    fn camera_ui(&mut self, ui: &mut egui::Ui) {
        ui.heading(match &self.feed {
            Some(f) => format!("摄像头 Camera · {}", f.name),
            None => "摄像头 Camera · none".into(),
        });
        let Some((size, rgb)) = &self.image else {
            ui.label("没有画面 / no frames yet");
            return;
        };
        let (response, scale) = crate::panel::camera::show_frame(
            ui,
            &mut self.texture,
            "message-camera",
            *size,
            rgb,
            egui::Sense::click_and_drag(),
        );
        response.widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::Image, true, "摄像头画面 camera view")
        });
        let origin = response.rect.min;
        let to_screen = |p: [f32; 2]| origin + egui::vec2(p[0] * scale, p[1] * scale);
        let to_image = |p: egui::Pos2| [(p.x - origin.x) / scale, (p.y - origin.y) / scale];
        if let Some(seat) = self.editing {
            self.edit_regions(seat, &response, &to_screen, &to_image);
        }
        let painter = ui.painter_at(response.rect);
        let mut labels = Vec::new();
        for (seat, r) in self.session.regions.seats.iter().enumerate() {
            let pts: Vec<egui::Pos2> = r.polygon.iter().map(|p| to_screen(*p)).collect();
            let colour = seat_colour(seat);
            if pts.len() >= 2 {
                painter.add(egui::Shape::closed_line(
                    pts.clone(),
                    egui::Stroke::new(1.5, colour),
                ));
            }
            for p in &pts {
                painter.circle_filled(
                    *p,
                    if self.editing == Some(seat) { 4.0 } else { 2.0 },
                    colour,
                );
            }
            if !pts.is_empty() {
                // The seat's name at the middle of its region's corners.
                let n = pts.len() as f32;
                let c = (pts.iter().fold(egui::Vec2::ZERO, |a, p| a + p.to_vec2()) / n).to_pos2();
                labels.push((
                    vec![c],
                    format!("玩家{} seat {}", seat + 1, seat + 1),
                    colour,
                ));
            }
        }
        for c in &self.session.last {
            let pts: Vec<egui::Pos2> = c.corners.iter().map(|p| to_screen(*p)).collect();
            let colour = intel_colour(c.colour);
            painter.add(egui::Shape::closed_line(
                pts.clone(),
                egui::Stroke::new(2.0, colour),
            ));
            let label = match (&c.face, c.colour) {
                (Some(f), _) => f.clone(),
                (None, Some(col)) => format!("?{}", colour_zh(col)),
                (None, None) => "?".into(),
            };
            labels.push((pts, label, colour));
        }
        let font = egui::TextStyle::Small.resolve(ui.style());
        crate::panel::camera::draw_labels(&painter, font, response.rect, &labels);
    }

    /// Click: add a corner to the seat's region; drag a corner: move it.
    fn edit_regions(
        &mut self,
        seat: usize,
        response: &egui::Response,
        to_screen: &dyn Fn([f32; 2]) -> egui::Pos2,
        to_image: &dyn Fn(egui::Pos2) -> [f32; 2],
    ) {
        let regions = &mut self.session.regions;
        if regions.seats.len() <= seat {
            regions.seats.resize(seat + 1, SeatRegion::default());
        }
        if response.drag_started() {
            if let Some(p) = response.interact_pointer_pos() {
                self.dragging = regions.seats.iter().enumerate().find_map(|(s, r)| {
                    r.polygon
                        .iter()
                        .position(|q| to_screen(*q).distance(p) < 8.0)
                        .map(|i| (s, i))
                });
            }
        }
        if let (Some((s, i)), Some(p)) = (self.dragging, response.interact_pointer_pos()) {
            if response.dragged() {
                if let Some(q) = regions.seats.get_mut(s).and_then(|r| r.polygon.get_mut(i)) {
                    *q = to_image(p);
                }
            }
        }
        if response.drag_stopped() {
            self.dragging = None;
        }
        if response.clicked() {
            if let Some(p) = response.interact_pointer_pos() {
                regions.seats[seat].polygon.push(to_image(p));
            }
        }
    }
}

impl eframe::App for MessageTableApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}

/// Opens the window. Returns when it is closed.
pub fn run(mut app: MessageTableApp) -> anyhow::Result<()> {
    app.style
        .remember_in(crate::paths::user_data(crate::panel::style::SAVED_FILE));
    crate::panel::open_window("Arbiter · 风声", app)
}
