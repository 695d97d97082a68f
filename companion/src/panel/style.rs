//! Table mode: type large enough to read from a metre away on a 1080p screen, changed at the table
//! with A− / A+ (or Ctrl + / Ctrl −). The text styles are resized, so layouts reflow; egui's own
//! zoom, which scales the whole window and clips the side panels, is turned off. The size chosen is
//! kept for the next window in the player's data folder.

use egui::{FontId, Key, KeyboardShortcut, Modifiers, RichText, TextStyle};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Body text at table distance: 20 px is read from 1 m on a 24" 1080p screen.
pub const DEFAULT_BODY_PX: f32 = 20.0;
pub const MIN_BODY_PX: f32 = 12.0;
pub const MAX_BODY_PX: f32 = 40.0;
const STEP_PX: f32 = 2.0;
/// The current prompt and the last ruling, the two things read from across the table.
const PROMPT_SCALE: f32 = 1.6;
const HEADING_SCALE: f32 = 1.3;
const SMALL_SCALE: f32 = 0.8;

pub const LARGER: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Equals);
pub const LARGER_PLUS: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Plus);
pub const SMALLER: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Minus);

fn prompt_style() -> TextStyle {
    TextStyle::Name("prompt".into())
}

/// The file in the player's data folder that keeps the type size between windows.
pub const SAVED_FILE: &str = "panel.json";

/// The saved type size and whether the window's styles already match it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableStyle {
    pub body_px: f32,
    #[serde(skip)]
    applied: Option<f32>,
    /// Where a changed size is written (none: not kept, as in tests).
    #[serde(skip)]
    remembered_in: Option<PathBuf>,
}

impl Default for TableStyle {
    fn default() -> Self {
        TableStyle::new(DEFAULT_BODY_PX)
    }
}

impl TableStyle {
    pub fn new(body_px: f32) -> TableStyle {
        TableStyle {
            body_px: body_px.clamp(MIN_BODY_PX, MAX_BODY_PX),
            applied: None,
            remembered_in: None,
        }
    }

    /// Takes the size saved in `file` (a missing file keeps this one; an unreadable one is named
    /// on stderr and left alone until the size is changed) and saves every later change there.
    pub fn remember_in(&mut self, file: PathBuf) {
        match std::fs::read_to_string(&file) {
            Ok(text) => match serde_json::from_str::<TableStyle>(&text) {
                Ok(saved) => self.body_px = saved.body_px.clamp(MIN_BODY_PX, MAX_BODY_PX),
                Err(e) => eprintln!(
                    "warning: {}: not a saved panel style ({e}); using {} px",
                    file.display(),
                    self.body_px
                ),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => eprintln!("warning: cannot read {}: {e}", file.display()),
        }
        self.applied = None;
        self.remembered_in = Some(file);
    }

    fn save(&self, file: &Path) {
        let written = file
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| {
                let text = serde_json::to_string(self).map_err(std::io::Error::other)?;
                std::fs::write(file, text)
            });
        if let Err(e) = written {
            // The window goes on at the size chosen; only the next one will not know it.
            eprintln!(
                "warning: cannot save the text size in {}: {e}",
                file.display()
            );
        }
    }

    /// Takes the size keys and sets the text styles when the size changed; call at the start of
    /// every frame.
    pub fn apply(&mut self, ctx: &egui::Context) {
        let (larger, smaller) = ctx.input_mut(|i| {
            (
                i.consume_shortcut(&LARGER) || i.consume_shortcut(&LARGER_PLUS),
                i.consume_shortcut(&SMALLER),
            )
        });
        if larger {
            self.step(1.0);
        }
        if smaller {
            self.step(-1.0);
        }
        if self.applied == Some(self.body_px) {
            return;
        }
        if let (Some(file), Some(_)) = (&self.remembered_in, self.applied) {
            self.save(file);
        }
        let body = self.body_px;
        ctx.options_mut(|o| o.zoom_with_keyboard = false);
        ctx.all_styles_mut(|style| {
            let p = |size: f32| FontId::proportional(size);
            style.text_styles = [
                (TextStyle::Small, p(body * SMALL_SCALE)),
                (TextStyle::Body, p(body)),
                (TextStyle::Button, p(body)),
                (TextStyle::Heading, p(body * HEADING_SCALE)),
                (TextStyle::Monospace, FontId::monospace(body * 0.9)),
                (prompt_style(), p(body * PROMPT_SCALE)),
            ]
            .into();
            style.spacing.interact_size.y = body * 1.4;
        });
        self.applied = Some(body);
        ctx.request_repaint();
    }

    fn step(&mut self, direction: f32) {
        self.body_px = (self.body_px + direction * STEP_PX).clamp(MIN_BODY_PX, MAX_BODY_PX);
    }

    /// The A− / A+ buttons with the size between them.
    pub fn control(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let smaller = ui
                .button("A−")
                .on_hover_text("字小一点 Smaller text (Ctrl −)");
            if smaller.clicked() {
                self.step(-1.0);
            }
            ui.label(format!("{:.0} px", self.body_px));
            let larger = ui
                .button("A+")
                .on_hover_text("字大一点 Larger text (Ctrl +)");
            if larger.clicked() {
                self.step(1.0);
            }
        });
    }
}

/// Text in the prompt's size: the current prompt, the last ruling.
pub fn prompt(text: impl Into<String>) -> RichText {
    RichText::new(text).text_style(prompt_style())
}
