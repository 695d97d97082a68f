//! 风声 at the table: intelligence card faces, table scenes with seats, reading each seat's face-up
//! intelligence (face and colour) from a camera frame.

mod eval;
mod external;
mod faces;
pub mod kit;
mod markers;
mod read;
mod scene;
mod seats;

pub use eval::{
    by_condition, compare, compare_cards, message_scanner, run, summarise, CardResult,
    MessageConditionRow, MessageConditions, MessageOutcome, MessageSummary,
};
pub use external::{load_scenes, run_external, ExternalMessageCard, ExternalMessageScene};
pub use faces::{
    colour_bgr, colour_en, colour_zh, design, face_of, faces, reference_set, render, render_faces,
    write_print_set, MessageFace,
};
pub use markers::{
    find_seat_markers, look_closer, read_with_seat_cards, regions_from_markers, render_seat_card,
    without_seat_cards, SeatMarker, FIRST_SEAT_MARKER,
};
pub use read::{hand_over_table, read_colour, read_seats, SeatCard};
pub use scene::{
    layout_from_colours, MessageScene, MessageSceneOptions, MessageSceneRenderer, MessageTruth,
    MessageTruthCard,
};
pub use seats::{point_in_polygon, SeatRegion, SeatRegions};
