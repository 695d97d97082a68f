//! One full 1280×720 frame through the scanner (mat calibration, detection, identification against
//! the whole demo catalogue, cells). Goal from the vision issue: ≤ 33 ms median with ~28 cards on
//! one core (stretch 16 ms). `cargo bench -p vision`.

use criterion::{criterion_group, criterion_main, Criterion};
use vision::scene::{SceneOptions, SceneRenderer};

fn full_frame(c: &mut Criterion) {
    let cat = blitz::catalogue::Catalogue::demo();
    let renderer = SceneRenderer::new(&cat).expect("renderer");
    let scanner = vision::Scanner::new(&cat, Default::default()).expect("scanner");
    // A full board: every cell holds a card (28 or more with stacks).
    for (name, mat) in [("frame_with_mat", true), ("frame_front_line_fit", false)] {
        let scene = renderer
            .render(
                11,
                &SceneOptions {
                    aruco_mat: Some(mat),
                    occupancy: Some(1.0),
                    ..Default::default()
                },
            )
            .expect("scene");
        let cards = scene.truth.cards.len();
        c.bench_function(&format!("{name}_{cards}_cards"), |b| {
            b.iter(|| scanner.scan(&scene.image, 0).expect("scan"))
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = full_frame
}
criterion_main!(benches);
