//! Integration tests of the fof engine, named after the rule each one checks.

mod commands;
mod deck_file;
mod fairness;
mod mission_file;
mod play;
mod properties;
mod sequence;

use fof::{Action, Deck, Event, Mission, Sequence, Setup, State};
use rules_core::Game;

pub fn mission_of_type(kind: &str) -> Mission {
    let text = fof::mission::DEMO_MISSION_TOML
        .replace("type = \"offensive\"", &format!("type = \"{kind}\""));
    Mission::parse("demo-mission.toml", &text).expect("demo mission parses")
}

pub fn edited_mission(from: &str, to: &str) -> Mission {
    let text = fof::mission::DEMO_MISSION_TOML.replace(from, to);
    assert_ne!(
        text,
        fof::mission::DEMO_MISSION_TOML,
        "edit `{from}` found nothing"
    );
    Mission::parse("demo-mission.toml", &text).expect("edited mission parses")
}

pub fn start(mission: Mission, deck: Deck, seed: u64) -> State {
    let setup = Setup {
        mission,
        deck,
        sequence: Sequence::standard().expect("sequence parses"),
        seed,
    };
    State::from_setup(setup).expect("set-up").0
}

pub fn demo(seed: u64) -> State {
    start(
        Mission::demo().expect("demo mission"),
        Deck::demo().expect("demo deck"),
        seed,
    )
}

pub fn act(s: &State, a: Action) -> (State, Vec<Event>) {
    fof::FieldsOfFire::apply(s, &a).unwrap_or_else(|v| panic!("{a} refused: {v}"))
}

pub fn act_str(s: &State, a: &str) -> (State, Vec<Event>) {
    act(s, a.parse().unwrap_or_else(|e| panic!("{e}")))
}

/// Presses `next` until the step with this id is current.
pub fn go_to(mut s: State, id: &str) -> State {
    for _ in 0..100 {
        if s.current_step().id == id {
            return s;
        }
        if s.awaiting.is_some() {
            // Physical deck: read every card as the dullest answer (no icon, lowest number).
            let legal = fof::FieldsOfFire::legal_actions(&s);
            let pick = legal
                .iter()
                .find(|a| **a == Action::Answer(fof::Answer::No))
                .unwrap_or(&legal[0])
                .clone();
            s = act(&s, pick).0;
            continue;
        }
        s = act(&s, Action::Next).0;
    }
    panic!("never reached step {id}");
}
