//! The board diagram: the engine's view of the 7×4 / 7×5 grid, drawn from the state alone.

use blitz::board::{FRONT_ROW, ROWS};
use blitz::catalogue::{CardKind, Side};
use blitz::{Cell, State};
use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};

pub struct BoardPanel;

/// Draws `text` anchored at `at`, shrunk from `size` until it fits `width` (never below 9 px), so
/// a long name stays inside its cell.
fn fitted_text(
    painter: &egui::Painter,
    at: Pos2,
    anchor: Align2,
    text: &str,
    size: f32,
    width: f32,
    colour: Color32,
) {
    let mut size = size;
    loop {
        let galley = painter.layout_no_wrap(text.to_string(), FontId::proportional(size), colour);
        if galley.size().x <= width || size <= 9.0 {
            let rect = anchor.anchor_size(at, galley.size());
            painter.galley(rect.min, galley, colour);
            return;
        }
        size = (size * width / galley.size().x).max(9.0).min(size - 0.5);
    }
}

fn side_colour(side: Option<Side>) -> Color32 {
    match side {
        Some(Side::Allied) => Color32::from_rgb(60, 110, 190),
        Some(Side::Axis) => Color32::from_rgb(170, 60, 50),
        None => Color32::from_gray(120),
    }
}

impl BoardPanel {
    /// Draws the grid, row 1 (the viewer's side) at the bottom. `highlight` marks cells (e.g. a
    /// question's cell).
    pub fn ui(&self, ui: &mut egui::Ui, state: &State, highlight: &[Cell]) {
        let width = state.geometry.width;
        let avail = ui.available_size();
        let cell = (avail.x / (width as f32 + 0.6))
            .min(avail.y / (ROWS as f32 + 0.6))
            .clamp(28.0, 150.0);
        let (rect, _) = ui.allocate_exact_size(
            Vec2::new(cell * (width as f32 + 0.6), cell * (ROWS as f32 + 0.6)),
            Sense::hover(),
        );
        let painter = ui.painter_at(rect);
        let origin = rect.min + Vec2::new(cell * 0.6, 0.0);
        let cell_rect = |c: Cell| {
            let top = (ROWS - 1 - c.row) as f32 * cell;
            Rect::from_min_size(
                origin + Vec2::new(c.col as f32 * cell, top),
                Vec2::splat(cell),
            )
            .shrink(2.0)
        };
        let size = (cell * 0.16).max(9.0);
        let small = FontId::proportional(size);
        for c in state.geometry.cells() {
            let r = cell_rect(c);
            let fill = match c.row {
                FRONT_ROW => Color32::from_gray(70),
                r if r < FRONT_ROW => Color32::from_rgb(30, 40, 60),
                _ => Color32::from_rgb(60, 32, 30),
            };
            painter.rect_filled(r, 4.0, fill);
            if highlight.contains(&c) {
                painter.rect_stroke(
                    r,
                    4.0,
                    Stroke::new(3.0, Color32::YELLOW),
                    StrokeKind::Inside,
                );
            }
            painter.text(
                r.left_top() + Vec2::splat(3.0),
                Align2::LEFT_TOP,
                c.to_string(),
                small.clone(),
                Color32::from_gray(150),
            );
            let stack = state.stack(c);
            if let Some(under) = stack.under {
                let def = state.def(under);
                let label = match def.kind {
                    CardKind::Frontline => "前线 Front".to_string(),
                    _ => format!("[{} {}]", def.name_zh, def.name_en),
                };
                fitted_text(
                    &painter,
                    r.center_bottom() - Vec2::new(0.0, 3.0),
                    Align2::CENTER_BOTTOM,
                    &label,
                    size,
                    r.width() - 4.0,
                    side_colour(state.card_side(under)).gamma_multiply(1.6),
                );
            }
            if let Some(card) = stack.occupant {
                let def = state.def(card);
                let placed = state.placed(card);
                let tapped = placed.is_some_and(|p| p.tapped);
                let body = if tapped {
                    r.shrink2(Vec2::new(2.0, cell * 0.22))
                } else {
                    r.shrink2(Vec2::new(cell * 0.2, 6.0))
                };
                painter.rect_filled(body, 3.0, side_colour(state.card_side(card)));
                let numbers = match def.kind {
                    CardKind::Unit {
                        attack,
                        defence,
                        supply,
                        ..
                    } => format!("{attack}/{defence} 补S{supply}"),
                    CardKind::Resource { level, .. } => format!("补给 L{level}"),
                    _ => String::new(),
                };
                let lines = [
                    (def.name_zh.as_str(), -0.14, Color32::WHITE),
                    (def.name_en.as_str(), 0.02, Color32::from_gray(225)),
                    (numbers.as_str(), 0.18, Color32::from_gray(235)),
                ];
                for (text, dy, colour) in lines {
                    fitted_text(
                        &painter,
                        body.center() + Vec2::new(0.0, cell * dy),
                        Align2::CENTER_CENTER,
                        text,
                        size,
                        body.width() - 4.0,
                        colour,
                    );
                }
            }
        }
        for row in 0..ROWS {
            let y = origin.y + (ROWS - 1 - row) as f32 * cell + cell * 0.5;
            painter.text(
                Pos2::new(rect.min.x + cell * 0.3, y),
                Align2::CENTER_CENTER,
                format!("{}", row + 1),
                small.clone(),
                Color32::GRAY,
            );
        }
    }
}
