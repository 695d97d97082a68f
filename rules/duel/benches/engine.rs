//! How fast the engine answers: legal actions in a mid-game state, and a whole random game.
//! (Timing goals live here, never in tests.)

use criterion::{criterion_group, criterion_main, Criterion};
use duel::selfplay::random_game;
use duel::{from_setup, parse_deck, Catalogue, Duel, Profile, Setup, State};
use rules_core::Game;
use std::hint::black_box;
use std::sync::Arc;

fn start(seed: u64) -> State {
    let cat = Arc::new(Catalogue::demo());
    let decks = duel::DEMO_DECKS.map(|(o, t)| {
        parse_deck(o, t, &cat, &Profile::default(), None)
            .expect("demo deck")
            .main
    });
    let setup = Setup {
        names: ["A".into(), "B".into()],
        decks,
        seed,
        first: None,
        shuffle: true,
    };
    from_setup(cat, Profile::default(), &setup).expect("setup")
}

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
