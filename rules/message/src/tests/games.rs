//! Full random games: every table size ends with a winner or a draw, never a stuck state.

use super::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays uniformly random legal actions. Returns the final state and the number of actions.
pub fn random_game(players: usize, seed: u64, bound: usize) -> (State, usize) {
    let mut s = new_game(players, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    for step in 0..bound {
        if s.outcome.is_some() {
            return (s, step);
        }
        let legal = s.legal_actions();
        assert!(
            !legal.is_empty(),
            "stuck: no legal action in {:?} (seed {seed}, {players}p)",
            s.phase
        );
        let a = &legal[rng.random_range(0..legal.len())];
        s = s
            .apply(a)
            .unwrap_or_else(|v| panic!("legal action refused: {a:?}: {v}"))
            .0;
    }
    (s, bound)
}

#[test]
fn random_games_for_3_to_9_players_end_with_a_winner_or_a_draw() {
    let bound = 20_000;
    let mut wins = 0;
    let mut draws = 0;
    for players in 3..=9 {
        for seed in 0..12u64 {
            let (s, steps) = random_game(players, seed, bound);
            assert!(
                s.outcome.is_some(),
                "{players}p seed {seed}: not over after {steps} actions"
            );
            assert_eq!(s.phase, Phase::Over);
            assert!(s.legal_actions().is_empty());
            match s.outcome {
                Some(Outcome::Win { .. }) => wins += 1,
                _ => draws += 1,
            }
        }
    }
    // Random play mostly ends by a team or a neutral winning; record the split for the report.
    eprintln!("random games: {wins} wins, {draws} draws");
    assert!(wins > draws, "{wins} wins, {draws} draws");
}

#[test]
fn a_game_is_reproducible_from_its_seed() {
    let (a, na) = random_game(6, 42, 20_000);
    let (b, nb) = random_game(6, 42, 20_000);
    assert_eq!(na, nb);
    assert_eq!(a.players, b.players);
    assert_eq!(a.seed, 42);
}

/// Game lengths for docs/message.md: `cargo test -p message print_game_lengths -- --ignored --nocapture`.
#[test]
#[ignore]
fn print_game_lengths() {
    for players in 3..=9 {
        let mut lens = Vec::new();
        let mut turns = Vec::new();
        for seed in 0..20u64 {
            let (s, n) = random_game(players, seed, 20_000);
            lens.push(n);
            turns.push(s.turns_played);
        }
        eprintln!("{players}p actions {lens:?} turns {turns:?}");
    }
}
