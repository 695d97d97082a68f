//! The enrol-a-deck window: the camera with the cards it finds, each labelled with the id it will
//! be stored under; the next block to lay (ids and names, as a grid); Space takes the block. What
//! each take gave, what is still missing and which prints look alike stay in view.

use super::sitting::{Sitting, Taken};
use egui::{Color32, RichText};
use opencv::core::Mat;
use vision::detector::deck::reading_order;
use vision::detector::{CardDetector, DetectedCard};
use vision::embed::Embedder;
use vision::geometry::centroid;
use vision::source::FrameSource;

/// Type sizes read from a metre away on a 1080p screen.
const BODY: f32 = 20.0;
const HEADING: f32 = 30.0;
const PROMPT: f32 = 36.0;
/// Crops of the last block shown this tall.
const THUMB_HEIGHT: f32 = 130.0;
/// The block list and the last take beside the camera (wide enough for a 3 × 3 of ids).
const BLOCK_PANEL_WIDTH: f32 = 740.0;
const GOOD: Color32 = Color32::from_rgb(80, 230, 120);
const WARN: Color32 = Color32::from_rgb(255, 170, 0);
const BAD: Color32 = Color32::from_rgb(255, 90, 90);

/// What the player asked for this frame; applied once, after the panels are drawn.
#[must_use]
enum Command {
    Take,
    Skip,
    Back,
    NextPhoto,
    Block(usize, usize),
}

pub struct EnrolApp {
    pub sitting: Sitting,
    source: Box<dyn FrameSource>,
    /// A folder of photos: the next one is shown only after a take or a skip, one photo a block.
    step_per_block: bool,
    want_frame: bool,
    detector: CardDetector,
    embedder: Embedder,
    pub cols: usize,
    pub rows: usize,
    min_cosine: f32,
    /// Enrolled prints at least `min_cosine` alike, most alike first (worked out after each take).
    alike: Vec<(String, String, f32)>,
    frame: Option<Mat>,
    /// The cards found in `frame`.
    pub seen: Vec<DetectedCard>,
    image: Option<([usize; 2], Vec<u8>)>,
    texture: Option<egui::TextureHandle>,
    /// The last take: its ids, and its crops once uploaded.
    pub last: Option<Taken>,
    thumbs: Vec<(String, egui::TextureHandle)>,
    pub log: Vec<String>,
    fonts_installed: bool,
    pub ended: bool,
}

impl EnrolApp {
    pub fn new(
        sitting: Sitting,
        source: Box<dyn FrameSource>,
        step_per_block: bool,
        detector: CardDetector,
        embedder: Embedder,
        (cols, rows): (usize, usize),
        min_cosine: f32,
    ) -> EnrolApp {
        EnrolApp {
            alike: sitting.confusable(min_cosine),
            sitting,
            source,
            step_per_block,
            want_frame: true,
            detector,
            embedder,
            cols: cols.max(1),
            rows: rows.max(1),
            min_cosine,
            frame: None,
            seen: Vec::new(),
            image: None,
            texture: None,
            last: None,
            thumbs: Vec::new(),
            log: Vec::new(),
            fonts_installed: false,
            ended: false,
        }
    }

    fn block_size(&self) -> usize {
        self.cols * self.rows
    }

    /// Takes the next frame from the source (when one is wanted) and finds its cards.
    pub fn poll(&mut self) {
        if !self.want_frame || self.ended {
            return;
        }
        match self.source.next_frame() {
            Ok(Some(frame)) => {
                match self.detector.detect_apart(&frame.image) {
                    Ok(cards) => self.seen = cards,
                    Err(e) => {
                        self.seen.clear();
                        self.log.push(format!("{}: {e}", frame.origin));
                    }
                }
                self.image = crate::live::vision_feed::rgb(&frame.image);
                self.frame = Some(frame.image);
                self.want_frame = !self.step_per_block;
            }
            Ok(None) => self.ended = true,
            Err(e) => self.log.push(format!("摄像头 camera: {e}")),
        }
    }

    /// The whole cards seen, in the order the block's ids are given to them; `None` when their
    /// number is not the block's.
    pub fn seen_in_order(&self) -> Option<Vec<&DetectedCard>> {
        let whole: Vec<&DetectedCard> = self.seen.iter().filter(|c| !c.partly_hidden).collect();
        let expected = self.sitting.block(self.block_size()).len();
        if whole.len() != expected || expected == 0 {
            return None;
        }
        let centres: Vec<[f64; 2]> = whole.iter().map(|c| centroid(&c.corners)).collect();
        let order = reading_order(&centres, self.cols)?;
        Some(order.into_iter().map(|i| whole[i]).collect())
    }

    /// Enrols the block under the camera now.
    pub fn take(&mut self) {
        let Some(frame) = &self.frame else {
            self.log.push("还没有画面 no frame yet".into());
            return;
        };
        match self
            .sitting
            .take(&self.seen, &self.embedder, frame, self.cols, self.rows)
        {
            Ok(taken) => {
                match &taken.problem {
                    None => {
                        self.log.push(format!(
                            "登记 enrolled {} ({}…{})",
                            taken.cards.len(),
                            taken.ids.first().map_or("", |s| s),
                            taken.ids.last().map_or("", |s| s)
                        ));
                        self.want_frame = true;
                        self.alike = self.sitting.confusable(self.min_cosine);
                    }
                    Some(why) => self.log.push(format!("未登记 not enrolled: {why}")),
                }
                self.thumbs.clear();
                self.last = Some(taken);
            }
            Err(e) => self.log.push(format!("登记失败 enrol failed: {e:#}")),
        }
    }

    fn apply(&mut self, command: Command) {
        match command {
            Command::Take => self.take(),
            Command::Skip => {
                self.sitting.skip(self.block_size());
                self.want_frame = true;
            }
            Command::Back => self.sitting.back(self.block_size()),
            Command::NextPhoto => self.want_frame = true,
            Command::Block(cols, rows) => {
                self.cols = cols.max(1);
                self.rows = rows.max(1);
            }
        }
    }

    pub fn show(&mut self, ui: &mut egui::Ui) {
        if !self.fonts_installed {
            self.fonts_installed = true;
            if crate::panel::install_cjk_font(ui.ctx()).is_none() {
                self.log
                    .push("No CJK font found (install fonts-noto-cjk)".into());
            }
            table_type(ui.ctx());
            ui.ctx().request_repaint();
            return;
        }
        self.poll();
        if !self.ended {
            ui.ctx().request_repaint();
        }
        let mut commands = Vec::new();
        if ui.input(|i| i.key_pressed(egui::Key::Space)) && !self.sitting.done() {
            commands.push(Command::Take);
        }
        egui::Panel::top("enrol-top").show(ui, |ui| self.top_ui(ui));
        egui::Panel::bottom("enrol-log")
            .resizable(true)
            .default_size(120.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .stick_to_bottom(true)
                    .show(ui, |ui| {
                        for line in &self.log {
                            ui.label(line);
                        }
                    });
            });
        egui::Panel::left("enrol-block")
            .exact_size(BLOCK_PANEL_WIDTH)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        ui.set_max_width(BLOCK_PANEL_WIDTH - 20.0);
                        commands.extend(self.block_ui(ui))
                    });
            });
        egui::CentralPanel::default_margins().show(ui, |ui| self.camera_ui(ui));
        for c in commands {
            self.apply(c);
        }
    }

    fn top_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new("登记整副牌 Enrol a deck")
                    .size(HEADING)
                    .strong(),
            );
            ui.label(format!(
                "已登记 enrolled {} / {} · 本次 this sitting {} · {}",
                self.sitting.held(),
                self.sitting.ids.len(),
                self.sitting.enrolled.len(),
                self.sitting.refs_path().display()
            ));
        });
    }

    fn block_ui(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut commands = Vec::new();
        let (mut cols, mut rows) = (self.cols, self.rows);
        ui.horizontal(|ui| {
            ui.label("每批 block");
            ui.add(egui::DragValue::new(&mut cols).range(1..=8));
            ui.label("×");
            ui.add(egui::DragValue::new(&mut rows).range(1..=8));
            if ui.button("一次一张 one at a time").clicked() {
                (cols, rows) = (1, 1);
            }
        });
        if (cols, rows) != (self.cols, self.rows) {
            commands.push(Command::Block(cols, rows));
        }
        ui.separator();
        if self.sitting.done() {
            ui.label(
                RichText::new("整副牌都已放过 every card of the list has been laid")
                    .size(HEADING)
                    .color(GOOD),
            );
        } else {
            self.next_block_ui(ui);
            let (whole, hidden) = self.seen_counts();
            let want = self.sitting.block(self.block_size()).len();
            let ready = self.seen_in_order().is_some();
            let colour = if ready { GOOD } else { WARN };
            ui.label(
                RichText::new(format!(
                    "看到 seen {whole} 张完整 whole ({hidden} 张被挡 partly hidden), 需要 want {want}"
                ))
                .color(colour),
            );
            ui.horizontal(|ui| {
                let take = ui.add_enabled(
                    self.frame.is_some(),
                    egui::Button::new(
                        RichText::new("拍下这一批 Take this block [Space]").size(HEADING),
                    ),
                );
                if take.clicked() {
                    commands.push(Command::Take);
                }
            });
            ui.horizontal(|ui| {
                if ui.button("跳过这一批 Skip block").clicked() {
                    commands.push(Command::Skip);
                }
                if self.sitting.next > 0 && ui.button("上一批 Previous block").clicked() {
                    commands.push(Command::Back);
                }
                if self.step_per_block && ui.button("下一张照片 Next photo").clicked() {
                    commands.push(Command::NextPhoto);
                }
            });
        }
        ui.separator();
        self.last_take_ui(ui);
        self.missing_ui(ui);
        commands
    }

    /// The next block's ids laid out as the player should lay them.
    fn next_block_ui(&self, ui: &mut egui::Ui) {
        let block = self.sitting.block(self.block_size());
        ui.label(
            RichText::new(format!(
                "下一批 next: 第 {}–{} 张 cards {}–{} — 正面朝上, 按此排列 lay face up like this",
                self.sitting.next + 1,
                self.sitting.next + block.len(),
                self.sitting.next + 1,
                self.sitting.next + block.len()
            ))
            .strong(),
        );
        egui::Grid::new("enrol-next")
            .striped(true)
            .spacing([12.0, 6.0])
            .show(ui, |ui| {
                for (r, row) in block.chunks(self.cols).enumerate() {
                    for (c, id) in row.iter().enumerate() {
                        let name = self.sitting.name(id).unwrap_or("");
                        let place = r * self.cols + c + 1;
                        ui.label(format!("{place}. {id}\n{name}"));
                    }
                    ui.end_row();
                }
            });
    }

    fn seen_counts(&self) -> (usize, usize) {
        let hidden = self.seen.iter().filter(|c| c.partly_hidden).count();
        (self.seen.len() - hidden, hidden)
    }

    fn last_take_ui(&mut self, ui: &mut egui::Ui) {
        let Some(last) = &self.last else {
            return;
        };
        match &last.problem {
            Some(why) => {
                ui.label(
                    RichText::new(format!("未登记 not enrolled: {why}"))
                        .color(BAD)
                        .strong(),
                );
            }
            None => {
                ui.label(
                    RichText::new(format!("刚登记 just enrolled {}", last.cards.len())).color(GOOD),
                );
                if self.thumbs.is_empty() {
                    for card in &last.cards {
                        if let Some((size, rgb)) = crate::live::vision_feed::rgb(&card.crop) {
                            let image = egui::ColorImage::from_rgb(size, &rgb);
                            let handle = ui.ctx().load_texture(
                                format!("enrol-{}", card.id),
                                image,
                                egui::TextureOptions::LINEAR,
                            );
                            self.thumbs.push((card.id.clone(), handle));
                        }
                    }
                }
                // Laid out as the block was, each crop as the model saw it.
                let cols = self.cols.max(1);
                let cell = (ui.available_width() / cols as f32 - 12.0).max(40.0);
                egui::Grid::new("enrol-last")
                    .spacing([8.0, 8.0])
                    .show(ui, |ui| {
                        for row in self.thumbs.chunks(cols) {
                            for (id, t) in row {
                                let [w, h] = t.size();
                                let scale =
                                    (THUMB_HEIGHT / h.max(1) as f32).min(cell / w.max(1) as f32);
                                ui.vertical(|ui| {
                                    ui.set_max_width(cell);
                                    ui.add(egui::Image::new((
                                        t.id(),
                                        egui::vec2(w as f32 * scale, h as f32 * scale),
                                    )));
                                    ui.add(
                                        egui::Label::new(RichText::new(id).size(BODY * 0.8))
                                            .truncate(),
                                    );
                                });
                            }
                            ui.end_row();
                        }
                    });
            }
        }
    }

    fn missing_ui(&self, ui: &mut egui::Ui) {
        if !self.sitting.missing.is_empty() {
            ui.separator();
            ui.label(
                RichText::new(format!("缺 missing ({})", self.sitting.missing.len()))
                    .color(WARN)
                    .strong(),
            );
            ui.label(self.sitting.missing.join(" "));
        }
        let alike = &self.alike;
        if !alike.is_empty() {
            ui.separator();
            ui.label(
                RichText::new(format!("相像 look alike ({})", alike.len()))
                    .color(WARN)
                    .strong(),
            );
            for (a, b, c) in alike.iter().take(12) {
                ui.label(format!("{a} ≈ {b} ({c:.3})"));
            }
        }
    }

    fn camera_ui(&mut self, ui: &mut egui::Ui) {
        let Some((size, rgb)) = &self.image else {
            ui.label("没有画面 / no frames yet");
            return;
        };
        let (response, scale) = crate::panel::camera::show_frame(
            ui,
            &mut self.texture,
            "enrol-camera",
            *size,
            rgb,
            egui::Sense::hover(),
        );
        let origin = response.rect.min;
        let to_screen = |p: [f64; 2]| origin + egui::vec2(p[0] as f32 * scale, p[1] as f32 * scale);
        let ordered = self.seen_in_order();
        let block = self.sitting.block(self.block_size());
        let painter = ui.painter();
        for card in &self.seen {
            let colour = if card.partly_hidden { BAD } else { WARN };
            let pts: Vec<egui::Pos2> = card.corners.iter().map(|&p| to_screen(p)).collect();
            painter.add(egui::Shape::closed_line(
                pts,
                egui::Stroke::new(2.0, colour),
            ));
        }
        // Each card the block will take, outlined green with its place in the block (the list
        // beside gives the id that place is stored under).
        for (place, (card, _)) in ordered.iter().flatten().zip(block).enumerate() {
            let pts: Vec<egui::Pos2> = card.corners.iter().map(|&p| to_screen(p)).collect();
            painter.add(egui::Shape::closed_line(pts, egui::Stroke::new(3.0, GOOD)));
            let c = centroid(&card.corners);
            let at = to_screen(c);
            let galley = painter.layout_no_wrap(
                (place + 1).to_string(),
                egui::FontId::proportional(PROMPT),
                Color32::WHITE,
            );
            let rect = egui::Align2::CENTER_CENTER.anchor_size(at, galley.size());
            painter.rect_filled(rect.expand(3.0), 4.0, Color32::from_black_alpha(190));
            painter.galley(rect.min, galley, Color32::WHITE);
        }
    }
}

/// Large type for the whole window (read from a metre away).
fn table_type(ctx: &egui::Context) {
    use egui::{FontId, TextStyle};
    ctx.all_styles_mut(|style| {
        style.text_styles = [
            (TextStyle::Heading, FontId::proportional(HEADING)),
            (TextStyle::Body, FontId::proportional(BODY)),
            (TextStyle::Button, FontId::proportional(BODY)),
            (TextStyle::Small, FontId::proportional(BODY * 0.8)),
            (TextStyle::Monospace, FontId::monospace(BODY)),
        ]
        .into();
    });
}

impl eframe::App for EnrolApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}

/// Opens the window. Returns when it is closed.
pub fn run(app: EnrolApp) -> anyhow::Result<()> {
    crate::panel::open_window("Arbiter · 登记整副牌 Enrol a deck", app)
}
