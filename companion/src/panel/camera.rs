//! The camera view every table window shows: the latest frame as a texture, scaled to fit, with
//! card outlines drawn over it.

use super::feed::Overlay;
use egui::Color32;

/// Shows the frame (RGB, width × height), uploading it into `texture` (created under `id` on first
/// use), scaled to fit the space left. Returns the image's response and the image → screen scale,
/// so a caller can draw over it or take clicks (`sense`).
pub fn show_frame(
    ui: &mut egui::Ui,
    texture: &mut Option<egui::TextureHandle>,
    id: &str,
    size: [usize; 2],
    rgb: &[u8],
    sense: egui::Sense,
) -> (egui::Response, f32) {
    let image = egui::ColorImage::from_rgb(size, rgb);
    let texture = match texture {
        Some(t) => {
            t.set(image, egui::TextureOptions::LINEAR);
            t
        }
        None => texture.insert(
            ui.ctx()
                .load_texture(id, image, egui::TextureOptions::LINEAR),
        ),
    };
    let avail = ui.available_size();
    let scale = (avail.x / size[0] as f32).min(avail.y / size[1] as f32);
    let response = ui.add(
        egui::Image::new((
            texture.id(),
            egui::vec2(size[0] as f32 * scale, size[1] as f32 * scale),
        ))
        .sense(sense),
    );
    (response, scale)
}

/// The latest frame with the recognised cards outlined (orange where the vision is unsure), or a
/// note when no frame has come yet.
pub fn camera_view(
    ui: &mut egui::Ui,
    texture: &mut Option<egui::TextureHandle>,
    id: &str,
    image: Option<&([usize; 2], Vec<u8>)>,
    overlays: &[Overlay],
) {
    let Some((size, rgb)) = image else {
        ui.label("没有画面 / no frames yet");
        return;
    };
    let (response, scale) = show_frame(ui, texture, id, *size, rgb, egui::Sense::hover());
    let origin = response.rect.min;
    let painter = ui.painter();
    for o in overlays {
        let pts: Vec<egui::Pos2> = o
            .corners
            .iter()
            .map(|c| origin + egui::vec2(c[0] * scale, c[1] * scale))
            .collect();
        let colour = if o.uncertain {
            Color32::from_rgb(255, 170, 0)
        } else {
            Color32::from_rgb(80, 230, 120)
        };
        painter.add(egui::Shape::closed_line(
            pts.clone(),
            egui::Stroke::new(2.0, colour),
        ));
        painter.text(
            pts[0],
            egui::Align2::LEFT_BOTTOM,
            &o.label,
            egui::FontId::proportional(13.0),
            colour,
        );
    }
}
