//! Seeded games between players who pick uniformly among the legal actions (for tests, the CLI and
//! benchmarks). The player RNG is derived from the game seed, so a game replays from its seed.

use crate::state::{Action, Event, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub struct Played {
    pub state: State,
    /// Every action taken, with the events it caused.
    pub log: Vec<(Action, Vec<Event>)>,
    /// False when the action bound was reached first, or no action was legal (a stuck state).
    pub finished: bool,
}

pub fn random_game(start: State, max_actions: usize) -> Played {
    let mut rng = ChaCha8Rng::seed_from_u64(start.seed ^ 0x5eed);
    let mut s = start;
    let mut log = Vec::new();
    for _ in 0..max_actions {
        if s.outcome.is_some() {
            return Played {
                state: s,
                log,
                finished: true,
            };
        }
        let legal = s.legal_actions();
        if legal.is_empty() {
            break;
        }
        let a = legal[rng.random_range(0..legal.len())].clone();
        match s.apply(&a) {
            Ok((next, ev)) => {
                log.push((a, ev));
                s = next;
            }
            Err(_) => break,
        }
    }
    let finished = s.outcome.is_some();
    Played {
        state: s,
        log,
        finished,
    }
}
