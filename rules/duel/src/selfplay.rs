//! Two random legal players: each picks uniformly among the legal actions (seeded ChaCha), used by the
//! property tests and `arbiter duel selfplay`.

use crate::action::{Action, Event};
use crate::state::{Outcome, State};
use crate::Duel;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rules_core::{Game, Violation};

/// A fresh game between the two shipped demo decks (players "A" and "B"), shuffled from `seed`.
/// The demo data is compiled in and checked by the catalogue tests, so it cannot fail here.
pub fn demo_start(seed: u64) -> State {
    use crate::{from_setup, parse_deck, Catalogue, Profile, Setup, DEMO_DECKS};
    let cat = std::sync::Arc::new(Catalogue::demo());
    let decks = DEMO_DECKS.map(|(o, t)| {
        parse_deck(o, t, &cat, &Profile::default(), None)
            .expect("the shipped demo decks are legal")
            .main
    });
    let setup = Setup {
        names: ["A".into(), "B".into()],
        decks,
        seed,
        first: None,
        shuffle: true,
    };
    from_setup(cat, Profile::default(), &setup).expect("the demo set-up is valid")
}

#[derive(Debug)]
pub struct GameRecord {
    pub state: State,
    pub actions: usize,
    pub outcome: Option<Outcome>,
    pub log: Vec<(Action, Vec<Event>)>,
}

/// Plays until the game ends or `max_actions` were taken. `keep_log` keeps every action and its events.
pub fn random_game(
    start: State,
    seed: u64,
    max_actions: usize,
    keep_log: bool,
) -> Result<GameRecord, Violation> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = start;
    let mut log = Vec::new();
    let mut actions = 0;
    while state.outcome.is_none() && actions < max_actions {
        let legal = Duel::legal_actions(&state);
        if legal.is_empty() {
            break;
        }
        // Passing is weighted up a little so random games get past the mulligan and through turns.
        let pick = if rng.random_range(0..4) == 0 && legal.contains(&Action::Pass) {
            Action::Pass
        } else {
            legal[rng.random_range(0..legal.len())].clone()
        };
        let (next, events) = Duel::apply(&state, &pick)?;
        if keep_log {
            log.push((pick, events));
        }
        state = next;
        actions += 1;
    }
    let outcome = state.outcome;
    Ok(GameRecord {
        state,
        actions,
        outcome,
        log,
    })
}
