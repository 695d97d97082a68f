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
    let mut labels = Vec::new();
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
        labels.push((pts, o.label.clone(), colour));
    }
    let font = egui::TextStyle::Small.resolve(ui.style());
    draw_labels(painter, font, response.rect, &labels);
}

/// Draws each `(outline, text, colour)` label on a dark plate where [`place_labels`] puts it:
/// labels never overlap one another, and one with no room is left out.
pub fn draw_labels(
    painter: &egui::Painter,
    font: egui::FontId,
    bounds: egui::Rect,
    labels: &[(Vec<egui::Pos2>, String, Color32)],
) {
    let galleys: Vec<_> = labels
        .iter()
        .map(|(_, text, colour)| painter.layout_no_wrap(text.clone(), font.clone(), *colour))
        .collect();
    let sizes: Vec<egui::Vec2> = galleys
        .iter()
        .map(|g| g.size() + egui::vec2(6.0, 2.0))
        .collect();
    let outlines: Vec<Vec<egui::Pos2>> = labels.iter().map(|(pts, _, _)| pts.clone()).collect();
    let places = place_labels(&outlines, &sizes, bounds);
    for ((galley, place), (_, _, colour)) in galleys.into_iter().zip(places).zip(labels) {
        let Some(rect) = place else { continue };
        painter.rect_filled(rect, 3.0, Color32::from_black_alpha(190));
        painter.galley(rect.min + egui::vec2(3.0, 1.0), galley, *colour);
    }
}

/// Where each card's label goes: on the card's centre, else just above or below it, the first of
/// these that stays inside `bounds` and clear of every label placed before; `None` when none is
/// (the outline still shows the card).
pub fn place_labels(
    outlines: &[Vec<egui::Pos2>],
    sizes: &[egui::Vec2],
    bounds: egui::Rect,
) -> Vec<Option<egui::Rect>> {
    let mut placed: Vec<egui::Rect> = Vec::new();
    outlines
        .iter()
        .zip(sizes)
        .map(|(pts, size)| {
            if pts.is_empty() {
                return None;
            }
            let card = egui::Rect::from_points(pts);
            let candidates = [
                egui::Rect::from_center_size(card.center(), *size),
                egui::Rect::from_center_size(
                    egui::pos2(card.center().x, card.top() - size.y / 2.0),
                    *size,
                ),
                egui::Rect::from_center_size(
                    egui::pos2(card.center().x, card.bottom() + size.y / 2.0),
                    *size,
                ),
            ];
            let free = candidates
                .into_iter()
                .find(|r| bounds.contains_rect(*r) && !placed.iter().any(|p| p.intersects(*r)))?;
            placed.push(free);
            Some(free)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::place_labels;
    use egui::{pos2, vec2, Rect};

    fn square(x: f32, y: f32, side: f32) -> Vec<egui::Pos2> {
        vec![
            pos2(x, y),
            pos2(x + side, y),
            pos2(x + side, y + side),
            pos2(x, y + side),
        ]
    }

    #[test]
    fn labels_never_overlap_and_stay_on_the_picture() {
        let bounds = Rect::from_min_size(pos2(0.0, 0.0), vec2(400.0, 300.0));
        // A crowded row of small cards, closer together than their labels are wide.
        let outlines: Vec<_> = (0..12)
            .map(|i| square(10.0 + i as f32 * 30.0, 100.0, 28.0))
            .collect();
        let sizes = vec![vec2(70.0, 18.0); outlines.len()];
        let places = place_labels(&outlines, &sizes, bounds);
        let shown: Vec<Rect> = places.iter().flatten().copied().collect();
        assert!(shown.len() >= 6, "{} of 12 labelled", shown.len());
        for (i, a) in shown.iter().enumerate() {
            assert!(bounds.contains_rect(*a));
            for b in &shown[i + 1..] {
                assert!(!a.intersects(*b), "{a:?} overlaps {b:?}");
            }
        }
        // Cards far apart keep their labels on their centres.
        let apart = vec![square(10.0, 10.0, 80.0), square(200.0, 150.0, 80.0)];
        let places = place_labels(&apart, &sizes[..2], bounds);
        assert_eq!(places[0].map(|r| r.center()), Some(pos2(50.0, 50.0)));
        assert_eq!(places[1].map(|r| r.center()), Some(pos2(240.0, 190.0)));
    }
}
