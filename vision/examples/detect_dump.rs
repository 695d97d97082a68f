//! Prints the card detector's quads for every scene of an evaluation set (export_eval.py), one JSON
//! line per scene, to compare the detector's geometry with the truth outside Rust:
//! `{"image": .., "cards": [{"corners": .., "partly_hidden": .., "score": ..}]}`.
//!
//!     cargo run --release -p vision --example detect_dump -- SCENES_DIR [LIMIT [CORNER_MODEL]] [--closer] > dets.jsonl
//!
//! With CORNER_MODEL, whole cards' corners are refined by that model; with `--closer`, the
//! detector looks again, closer, where it ran cards together (`CardDetector::look_closer`, as though no card were named).

use vision::detector::{
    eval::Manifest, CardDetector, CornerRefiner, DetectorOptions, DEFAULT_MODEL,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let closer = std::env::args().any(|a| a == "--closer");
    let args: Vec<String> = std::env::args().filter(|a| a != "--closer").collect();
    let dir = std::path::PathBuf::from(args.get(1).ok_or("SCENES_DIR")?);
    let limit: usize = args
        .get(2)
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(usize::MAX);
    let manifest = Manifest::load(&dir)?;
    let mut detector = CardDetector::new(DEFAULT_MODEL, DetectorOptions::default())?;
    if let Some(corners) = args.get(3) {
        detector = detector.with_corner_refiner(CornerRefiner::load(corners)?);
    }
    for scene in manifest.scenes.iter().take(limit) {
        let img = vision::pipeline::read_image(&dir.join(&scene.image))?;
        let mut found = detector.detect(&img)?;
        if closer {
            // Nothing is named here: every outline may be cards run together.
            let more = detector.look_closer(&img, &found, &vec![false; found.len()])?;
            found = found
                .into_iter()
                .enumerate()
                .filter(|(k, _)| !more.parted.contains(k))
                .map(|(_, c)| c)
                .chain(more.cards)
                .collect();
        }
        let cards: Vec<serde_json::Value> = found
            .iter()
            .map(|c| serde_json::json!({"corners": c.corners, "partly_hidden": c.partly_hidden, "score": c.score}))
            .collect();
        println!(
            "{}",
            serde_json::json!({"image": scene.image, "cards": cards})
        );
    }
    Ok(())
}
