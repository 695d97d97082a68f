//! Loading a player's catalogue: time against its size, which should grow in proportion (a large
//! catalogue once took minutes to load). Run: cargo bench -p blitz --bench catalogue_load

use blitz::catalogue::Catalogue;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

/// The shipped demo catalogue's units copied under new ids until there are `cards` of them.
fn catalogue_of(cards: usize) -> String {
    let demo = include_str!("../../../models/catalogues/blitz.toml");
    let mut parts = demo.split("\n[[card]]\n");
    let head = parts.next().unwrap_or_default();
    let units: Vec<&str> = parts.filter(|c| c.contains("type = \"unit\"")).collect();
    let mut out = String::from(head);
    for n in 0..cards {
        let unit = units[n % units.len()];
        out.push_str("\n[[card]]\n");
        out.push_str(&unit.replacen("\"\n", &format!("-x{n}\"\n"), 1));
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("catalogue_load");
    group.sample_size(10);
    for cards in [1_000, 10_000] {
        let text = catalogue_of(cards);
        group.throughput(Throughput::Elements(cards as u64));
        group.bench_with_input(BenchmarkId::from_parameter(cards), &text, |b, text| {
            b.iter(|| {
                let catalogue = Catalogue::from_toml("generated.toml", black_box(text))
                    .expect("the generated catalogue is valid");
                black_box(catalogue.count(None, "unit"))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
