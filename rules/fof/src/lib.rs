//! Fields of Fire solo companion: the action deck (digital, or the player's physical deck drawn by
//! number) and the turn sequence 3.1–3.8 as data, as a pure state machine. No file I/O: the CLI reads
//! the mission, deck and journal files and hands their text in.

pub mod action;
pub mod card;
pub mod deck;
mod describe;
mod engine;
pub mod fairness;
mod jobs;
mod legal;
pub mod mission;
pub mod profile;
mod reader;
pub mod sequence;
pub mod state;

pub use action::{Action, Answer};
pub use card::ActionCard;
pub use deck::{Deck, DeckKind};
pub use engine::{Setup, SetupError};
pub use mission::Mission;
pub use sequence::{MissionType, Sequence};
pub use state::{Event, State};

/// The Fields of Fire rules engine.
pub struct FieldsOfFire;

impl rules_core::Game for FieldsOfFire {
    type State = State;
    type Action = Action;
    type Event = Event;

    fn legal_actions(state: &State) -> Vec<Action> {
        legal::legal_actions(state)
    }

    fn apply(state: &State, action: &Action) -> Result<(State, Vec<Event>), rules_core::Violation> {
        engine::apply(state, action)
    }

    fn prompt(state: &State) -> rules_core::Prompt {
        legal::prompt(state)
    }
}
