//! 死亡前线-闪电战 (Blitz) rules engine.
//!
//! A pure state machine: [`State::from_setup`] deals a game, [`legal_actions`] lists what the player
//! to act may do, [`apply`] carries out one action or refuses it with the rule it breaks (the state
//! passed in is never changed), and [`prompt`] says what comes next in Chinese and English.

pub mod action;
mod apply;
pub mod board;
pub mod catalogue;
mod checks;
pub mod describe;
mod legal;
mod overrule;
pub mod profile;
mod prompt;
pub mod reveal;
pub mod scenario;
mod settle;
pub mod state;
pub mod steps;

pub use action::{Action, Event, SkillTarget};
pub use apply::apply;
pub use board::Cell;
pub use checks::{check, check_as};
pub use legal::legal_actions;
pub use overrule::overrule;
pub use profile::Profile;
pub use prompt::prompt;
pub use reveal::reveal;
pub use state::{CardId, Outcome, PlayerId, Setup, SetupError, State, Winner};

/// The engine as a [`rules_core::Game`].
pub struct Blitz;

impl rules_core::Game for Blitz {
    type State = State;
    type Action = Action;
    type Event = Event;

    fn legal_actions(state: &State) -> Vec<Action> {
        legal_actions(state)
    }

    fn apply(state: &State, action: &Action) -> Result<(State, Vec<Event>), rules_core::Violation> {
        apply(state, action)
    }

    fn prompt(state: &State) -> rules_core::Prompt {
        prompt(state)
    }
}
