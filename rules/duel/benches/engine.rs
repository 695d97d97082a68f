//! How fast the engine answers: legal actions in a mid-game state, and a whole random game.
//! (Timing goals live here, never in tests.)

use criterion::{criterion_group, criterion_main, Criterion};
use duel::selfplay::{demo_start as start, random_game};
use duel::Duel;
use rules_core::Game;
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let mid = random_game(start(42), 42, 250, false)
        .expect("legal play")
        .state;
    c.bench_function("duel legal_actions (mid-game)", |b| {
        b.iter(|| Duel::legal_actions(black_box(&mid)))
    });
    let first = Duel::legal_actions(&mid)
        .into_iter()
        .next()
        .expect("an action");
    c.bench_function("duel apply (mid-game)", |b| {
        b.iter(|| Duel::apply(black_box(&mid), black_box(&first)))
    });
    c.bench_function("duel random game (demo decks)", |b| {
        b.iter(|| {
            random_game(start(7), 7, 20_000, false)
                .expect("legal play")
                .actions
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
