//! Random legal playouts of whole games: engine actions per second (legal_actions + apply) on one
//! core, and the chain ruling's latency. Run: cargo bench -p message --bench playout

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use message::chain::{parse_response, rule_chain, ChainRequest};
use message::selfplay::random_game;
use message::{Catalogue, Method, Profile, Setup, State};
use std::hint::black_box;
use std::sync::Arc;

fn bench(c: &mut Criterion) {
    let cat = Arc::new(Catalogue::shipped().expect("shipped catalogue"));
    for players in [3usize, 6, 9] {
        // Count the actions of the benched seeds once, so throughput is in actions.
        let seeds: Vec<u64> = (0..8).collect();
        let start = |seed| {
            State::from_setup(
                cat.clone(),
                Profile::default(),
                &Setup {
                    players,
                    seed,
                    first_player: 0,
                },
            )
            .expect("setup")
        };
        let actions: usize = seeds
            .iter()
            .map(|&s| random_game(start(s), 50_000).log.len())
            .sum();
        let mut g = c.benchmark_group(format!("playout_{players}p"));
        g.throughput(Throughput::Elements(actions as u64));
        g.sample_size(10);
        g.bench_function("8_games", |b| {
            b.iter(|| {
                for &s in &seeds {
                    black_box(random_game(start(s), 50_000).log.len());
                }
            })
        });
        g.finish();
    }
    let responses = ["2:拒绝", "4:截获", "6:截获", "2:截获", "5:截获"]
        .iter()
        .map(|r| parse_response(r).unwrap())
        .collect();
    let req = ChainRequest {
        players: 6,
        sender: 0,
        method: Method::Secret,
        target: None,
        responses,
    };
    c.bench_function("chain_seed_example", |b| {
        b.iter(|| black_box(rule_chain(cat.clone(), &req).unwrap().receiver))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
