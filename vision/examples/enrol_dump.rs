//! Prints where the enrolment finds the card in each enrolment photo of an evaluation set
//! (export_eval.py), one JSON line a photo, to compare with the truth outside Rust:
//! `{"id": .., "corners": .., "whole": [..]}` (`corners` `null` when no card was enrolled; `whole`
//! the quads `detect` reports whole, to find photos whose card the model cuts into pieces).
//!
//!     cargo run --release -p vision --example enrol_dump -- SCENES_DIR > enrol.jsonl

use vision::detector::{
    eval::Manifest, name::enrolment_corners, CardDetector, CornerRefiner, DetectorOptions,
    DEFAULT_CORNER_MODEL, DEFAULT_MODEL,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).ok_or("SCENES_DIR")?);
    let manifest = Manifest::load(&dir)?;
    let mut detector = CardDetector::new(DEFAULT_MODEL, DetectorOptions::default())?
        .with_corner_refiner(CornerRefiner::load(DEFAULT_CORNER_MODEL)?);
    for entry in &manifest.enrol {
        let photo = vision::pipeline::read_image(&dir.join(&entry.image))?;
        let whole: Vec<_> = detector
            .detect(&photo)?
            .into_iter()
            .filter(|c| !c.partly_hidden)
            .map(|c| c.corners)
            .collect();
        let corners = enrolment_corners(&mut detector, &photo)?;
        println!(
            "{}",
            serde_json::json!({"id": entry.id, "corners": corners, "whole": whole})
        );
    }
    Ok(())
}
