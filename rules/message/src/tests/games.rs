//! Full random games: every table size ends with a winner or a draw, never a stuck state.

use super::*;

/// Plays uniformly random legal actions. Returns the final state and the number of actions.
pub fn random_game(players: usize, seed: u64, bound: usize) -> (State, usize) {
    let p = crate::selfplay::random_game(new_game(players, seed), bound);
    assert!(
        p.finished || p.log.len() == bound,
        "stuck: no legal action in {:?} (seed {seed}, {players}p)",
        p.state.phase
    );
    (p.state, p.log.len())
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
        let mut turns = Vec::new();
        let (mut team, mut neutral, mut draws) = (0, 0, 0);
        for seed in 0..20u64 {
            let (s, _) = random_game(players, seed, 20_000);
            turns.push(s.turns_played);
            match &s.outcome {
                Some(Outcome::Win { winners, .. })
                    if winners
                        .iter()
                        .all(|&w| s.players[w].identity == Identity::Neutral) =>
                {
                    neutral += 1
                }
                Some(Outcome::Win { .. }) => team += 1,
                _ => draws += 1,
            }
        }
        turns.sort_unstable();
        eprintln!(
            "{players}p: turns min {} median {} max {}; team wins {team}, neutral wins {neutral}, draws {draws}",
            turns[0], turns[turns.len() / 2], turns[turns.len() - 1]
        );
    }
}
