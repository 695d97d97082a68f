//! Random legal playouts: how many engine actions per second (legal_actions + apply) on one core.
//! Goal (issue 2): ≥ 100,000 actions/s. Run: cargo bench -p blitz --bench playout

use blitz::catalogue::{Catalogue, Faction};
use blitz::{apply, legal_actions, Action, Profile, Setup, State};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::sync::Arc;

const MAX_ACTIONS: usize = 2_000;

/// Plays one game with a random player who finishes a step a third of the time; returns the actions.
fn playout(catalogue: &Arc<Catalogue>, seed: u64, four: bool) -> usize {
    use Faction::*;
    let players = if four {
        vec![Us, Ss, Uk, Wh]
    } else {
        vec![Us, Ss]
    };
    let mut state = State::from_setup(Setup {
        catalogue: catalogue.clone(),
        profile: Profile::default(),
        players,
        seed,
        stacked_decks: vec![],
    })
    .expect("valid set-up");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut actions = 0;
    while state.outcome.is_none() && actions < MAX_ACTIONS {
        let legal = legal_actions(&state);
        let others: Vec<&Action> = legal
            .iter()
            .filter(|a| !matches!(a, Action::Done | Action::Stalemate))
            .collect();
        let pick = if others.is_empty() || rng.random_bool(1.0 / 3.0) {
            legal
                .iter()
                .find(|a| matches!(a, Action::Done))
                .unwrap_or(&legal[0])
        } else {
            others[rng.random_range(0..others.len())]
        };
        state = apply(&state, pick).expect("legal action").0;
        actions += 1;
    }
    black_box(&state);
    actions
}

fn bench(c: &mut Criterion) {
    let catalogue = Arc::new(Catalogue::demo());
    for (name, four) in [("two_players", false), ("four_players", true)] {
        let seeds: Vec<u64> = (0..16).collect();
        let total: usize = seeds.iter().map(|&s| playout(&catalogue, s, four)).sum();
        let mut group = c.benchmark_group("random_playout");
        group.throughput(Throughput::Elements(total as u64));
        group.sample_size(20);
        group.bench_function(name, |b| {
            b.iter(|| {
                seeds
                    .iter()
                    .map(|&s| playout(&catalogue, s, four))
                    .sum::<usize>()
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
