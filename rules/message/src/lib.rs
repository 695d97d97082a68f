//! 风声 (The Message): a pure rules engine. Identities, characters, the 81-card deck, sending by
//! 密电 / 直达 / 文本, every function card with its timing window, response stacks resolved last in
//! first out, death, losing and victory. No I/O: data comes in as strings.

pub mod catalogue;
pub mod chain;
mod check;
pub mod describe;
mod flow;
mod outcome;
pub mod profile;
mod resolve;
pub mod rules;
pub mod selfplay;
mod setup;
pub mod state;
pub mod tally;
pub mod view;

#[cfg(test)]
mod tests;

pub use catalogue::{Catalogue, Colour, Kind, Method};
pub use profile::Profile;
pub use setup::Setup;
pub use state::{Act, Action, Event, Identity, Outcome, Phase, Seat, State, Status};
pub use view::{player_view, View};

use rules_core::{Game, Prompt, Violation};

/// The engine, as the shared [`Game`] trait.
pub struct Message;

impl Game for Message {
    type State = State;
    type Action = Action;
    type Event = Event;

    fn legal_actions(state: &State) -> Vec<Action> {
        state.legal_actions()
    }
    fn apply(state: &State, action: &Action) -> Result<(State, Vec<Event>), Violation> {
        state.apply(action)
    }
    fn prompt(state: &State) -> Prompt {
        describe::prompt(state)
    }
}
