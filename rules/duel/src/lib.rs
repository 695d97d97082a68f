//! 陣面對決 (Duel): a rules engine with the stack and priority, 陣地 combat and the glossary's 24
//! keywords as data-driven abilities. Pure: parses strings, never touches files.
//!
//! Shape: [`from_setup`] → [`State`]; [`Duel`] implements [`rules_core::Game`] (`legal_actions`,
//! `apply`, `prompt`); [`player_view`] hides what a seat may not see. See docs/duel.md.
//!
//! ```
//! use duel::{from_setup, parse_deck, Action, Catalogue, Duel, Profile, Setup, DEMO_DECKS};
//! use rules_core::Game;
//! use std::sync::Arc;
//!
//! let cat = Arc::new(Catalogue::demo());
//! let decks = DEMO_DECKS.map(|(origin, text)| parse_deck(origin, text, &cat, &Profile::default(), None).unwrap().main);
//! let setup = Setup { names: ["甲".into(), "乙".into()], decks, seed: 7, first: Some(0), shuffle: true };
//! let state = from_setup(cat, Profile::default(), &setup).unwrap();
//! assert!(Duel::legal_actions(&state).contains(&Action::Keep));
//! let (state, _events) = Duel::apply(&state, &Action::Keep).unwrap();
//! assert_eq!(Duel::prompt(&state).actor.as_deref(), Some("乙"));
//! assert!(Duel::apply(&state, &Action::Pass).is_err(), "no passing during the mulligan");
//! ```

pub mod action;
pub mod catalogue;
mod check;
pub mod deck;
mod exec;
mod hidden;
pub mod keyword;
mod legal;
mod pay;
pub mod profile;
mod resolve;
pub mod rules;
pub mod selfplay;
pub mod setup;
pub mod state;
pub mod view;

pub use action::{Action, Event};
pub use catalogue::{CardDef, Catalogue, Kind};
pub use deck::{parse_deck, Deck, Format};
pub use keyword::{Faction, Keyword, GLOSSARY};
pub use profile::Profile;
pub use setup::{from_setup, Setup, SetupError};
pub use state::{CardId, Outcome, Pending, Phase, Seat, State, Target};
pub use view::{player_view, PlayerView};

/// The two shipped demo decks (TOML), legal constructed decks built from the demo catalogue.
pub const DEMO_DECKS: [(&str, &str); 2] = [
    (
        "models/catalogues/duel/deck-wei.toml",
        include_str!("../../../models/catalogues/duel/deck-wei.toml"),
    ),
    (
        "models/catalogues/duel/deck-wu-qun.toml",
        include_str!("../../../models/catalogues/duel/deck-wu-qun.toml"),
    ),
];

pub struct Duel;

impl rules_core::Game for Duel {
    type State = State;
    type Action = Action;
    type Event = Event;

    fn legal_actions(state: &State) -> Vec<Action> {
        legal::legal_actions(state)
    }

    fn apply(state: &State, action: &Action) -> Result<(State, Vec<Event>), rules_core::Violation> {
        exec::apply(state, action)
    }

    fn prompt(state: &State) -> rules_core::Prompt {
        view::prompt(state)
    }
}

#[cfg(test)]
mod tests;
