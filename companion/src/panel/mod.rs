//! The egui panel: camera view with overlays, the engine's board, the prompt, questions and rulings.
//!
//! Shape (egui_demo_app's wrap_app): the saved settings are apart from the runtime handles; each panel is
//! a struct with `fn ui` returning `Command`s, which the app applies once per frame.

mod app;
mod board;
pub mod camera;
pub mod feed;
pub mod held;
pub mod style;

pub use app::BlitzApp;

use std::sync::Arc;

/// Loads a CJK font into egui so card names and rulings in Chinese are readable.
pub fn install_cjk_font(ctx: &egui::Context) -> Option<String> {
    const CANDIDATES: [(&str, u32); 3] = [
        ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 2),
        ("/usr/share/fonts/opentype/noto/NotoSansCJK-Medium.ttc", 2),
        ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),
    ];
    let (path, index, bytes) = CANDIDATES
        .iter()
        .find_map(|(p, i)| std::fs::read(p).ok().map(|b| (*p, *i, b)))?;
    let mut fonts = egui::FontDefinitions::default();
    let mut data = egui::FontData::from_owned(bytes);
    data.index = index;
    fonts.font_data.insert("cjk".into(), Arc::new(data));
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        fonts.families.entry(family).or_default().push("cjk".into());
    }
    ctx.set_fonts(fonts);
    Some(path.to_string())
}

/// Opens the Blitz window. Returns when it is closed.
pub fn run(mut app: BlitzApp, title: &str) -> anyhow::Result<()> {
    app.style
        .remember_in(crate::paths::user_data(crate::panel::style::SAVED_FILE));
    open_window(title, app)
}

/// Table windows are laid out for a 1080p screen seen from a metre away.
pub const TABLE_WINDOW: [f32; 2] = [1920.0, 1080.0];

/// Opens a table window on `app`, maximised (every table window alike). Returns when it is closed.
pub fn open_window<A: eframe::App + 'static>(title: &str, app: A) -> anyhow::Result<()> {
    let options = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        viewport: egui::ViewportBuilder::default()
            .with_inner_size(TABLE_WINDOW)
            .with_maximized(true)
            .with_title(title),
        ..Default::default()
    };
    eframe::run_native(title, options, Box::new(|_cc| Ok(Box::new(app))))
        .map_err(|e| anyhow::anyhow!("cannot open the window: {e}"))
}

#[cfg(test)]
mod tests;
