//! 陣面對決 at the table: Duel card faces and the card back, the Duel mat scene, reading 陣地 rows and
//! territories, and the 陣地 without the mat from the units in them.
//!
//! Table millimetres are the Duel mat's ([`crate::mats::MatLayout::duel`]): x to the viewer's right,
//! y away from the viewer, 陣地 row 0 (near) at y 0–100 and row 1 (far) at y 100–200. Each side's
//! territories lie in a strip on its own side of its 陣地 row ([`TerritoryStrips`]).

mod eval;
mod external;
mod faces;
mod frame;
pub mod kit;
mod read;
mod scene;

pub use eval::{by_condition, duel_scanner, run, summarise, DuelConditionRow, DuelSummary};
pub use external::{load_scenes, run_external, ExternalCard, ExternalScene};
pub use faces::{back_design, design, reference_set, render_faces, write_print_set, BACK_ID};
pub use frame::{duel_frame, near_direction, DuelTable, SlotCard, DUEL_LATTICE};
pub use read::{read_table, DuelTableView, SideSeen, SlotSeen, TerritorySeen, TerritoryStrips};
pub use scene::{
    compare, compare_cards, CardResult, DuelOutcome, DuelScene, DuelSceneOptions,
    DuelSceneRenderer, DuelTruth, LaidCard, Place, SceneConditions, SceneFacts, TruthCard,
};
