//! Which side of the camera picture the Allied player sits at: asked once when the cards on the
//! table cannot tell (only front-line cards, say), remembered for the session and its journal.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum ImageEdge {
    Bottom,
    Top,
    Left,
    Right,
}

impl ImageEdge {
    pub const ALL: [ImageEdge; 4] = [
        ImageEdge::Bottom,
        ImageEdge::Top,
        ImageEdge::Left,
        ImageEdge::Right,
    ];

    /// The image direction from the table's middle toward this edge.
    pub fn towards(self) -> [f64; 2] {
        match self {
            ImageEdge::Bottom => [0.0, 1.0],
            ImageEdge::Top => [0.0, -1.0],
            ImageEdge::Left => [-1.0, 0.0],
            ImageEdge::Right => [1.0, 0.0],
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            ImageEdge::Bottom => "下 Bottom",
            ImageEdge::Top => "上 Top",
            ImageEdge::Left => "左 Left",
            ImageEdge::Right => "右 Right",
        }
    }
}

/// Asks, once a frame, at which edge of the camera picture someone sits (`question`, Chinese and
/// English); the edge pressed, if any.
pub fn ask_edge(ui: &mut egui::Ui, question: &str) -> Option<ImageEdge> {
    let mut pressed = None;
    ui.horizontal_wrapped(|ui| {
        ui.colored_label(
            egui::Color32::from_rgb(240, 200, 80),
            egui::RichText::new(question).size(16.0),
        );
        for edge in ImageEdge::ALL {
            if ui.button(edge.label()).clicked() {
                pressed = Some(edge);
            }
        }
    });
    pressed
}
