//! The learned identifier (issue 8) from Rust alone: enrols every catalogue face, then identifies each
//! visible card of the scenes of a seed range by nearest embedding, and reports top-1 and the median
//! time per crop (warp, and embed).
//!
//! `cargo run --release -p vision --example embed_eval -- [FIRST LAST [MODEL]]` (default 21000–21099,
//! the training script's validation range; keep clear of 1–1000 and 5000–6499 for anything tuned).

use std::time::Instant;
use vision::embed::{warp_crop, Embedder, Enrolment};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let first: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(21000);
    let last: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(21099);
    let model = args
        .get(3)
        .cloned()
        .unwrap_or_else(|| "models/identify/card_embed.tflite".into());
    let embedder = Embedder::load(&model)?;
    let catalogue = blitz::catalogue::Catalogue::demo();
    let faces = vision::distinct::blitz_faces(&catalogue.cards)?;
    let enrolment = Enrolment::from_faces(&embedder, faces.iter().map(|(id, m)| (id.as_str(), m)))?;
    let renderer = vision::scene::SceneRenderer::new(&catalogue)?;

    let (mut total, mut correct) = (0usize, 0usize);
    let (mut warp_ms, mut embed_ms) = (Vec::new(), Vec::new());
    for seed in first..=last {
        let scene = renderer.render(seed, &Default::default())?;
        for card in scene.truth.cards.iter().filter(|c| !c.covered) {
            let t = Instant::now();
            let crop = warp_crop(&scene.image, &card.corners)?;
            warp_ms.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            let embedding = embedder.embed(&crop)?;
            embed_ms.push(t.elapsed().as_secs_f64() * 1e3);
            let best = enrolment.nearest(&embedding).map(|n| n.card);
            total += 1;
            correct += usize::from(best == Some(card.card.as_str()));
        }
    }
    println!(
        "seeds {first}–{last}: {correct}/{total} = {:.2} % top-1 over {} enrolled faces; median ms per crop: warp {:.3}, embed {:.3}",
        100.0 * correct as f64 / total.max(1) as f64,
        enrolment.len(),
        median(&mut warp_ms),
        median(&mut embed_ms)
    );
    Ok(())
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}
