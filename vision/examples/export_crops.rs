//! Training data for the learned identifier (issue 8, `models/identify/`): renders the scenes of a seed
//! range and writes each visible (not covered) card warped upright to `CROP_W × CROP_H`, plus every
//! catalogue face at the same size (the enrolment set).
//!
//! `cargo run --release -p vision --example export_crops -- FIRST LAST OUT_DIR`
//!
//! Writes `OUT_DIR/crops.u8` (N × CROP_H × CROP_W × 3 BGR bytes, row-major) with `crops.csv`
//! (`index,card,seed`), and `faces.u8` / `faces.csv` likewise. Keep clear of seeds 1–1000 and
//! 5000–6499: those are the evaluation and tuning sets.

use std::io::Write;
use vision::embed::{face_crop, warp_crop, CROP_H, CROP_W};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(first), Some(last), Some(out)) = (
        args.get(1).and_then(|s| s.parse::<u64>().ok()),
        args.get(2).and_then(|s| s.parse::<u64>().ok()),
        args.get(3),
    ) else {
        return Err("usage: export_crops FIRST_SEED LAST_SEED OUT_DIR".into());
    };
    if (first..=last).any(|s| (1..=1000).contains(&s) || (5000..=6499).contains(&s)) {
        return Err(
            "seeds 1–1000 and 5000–6499 are the evaluation/tuning sets; pick others".into(),
        );
    }
    let out = std::path::PathBuf::from(out);
    std::fs::create_dir_all(&out)?;
    let catalogue = blitz::catalogue::Catalogue::demo();
    let renderer = vision::scene::SceneRenderer::new(&catalogue)?;

    let mut faces = Writer::create(&out, "faces")?;
    for (id, face) in vision::distinct::blitz_faces(&catalogue.cards)? {
        faces.push(&face_crop(&face)?, &id, 0)?;
    }
    let mut crops = Writer::create(&out, "crops")?;
    for seed in first..=last {
        let scene = renderer.render(seed, &Default::default())?;
        for card in scene.truth.cards.iter().filter(|c| !c.covered) {
            crops.push(&warp_crop(&scene.image, &card.corners)?, &card.card, seed)?;
        }
    }
    eprintln!(
        "{} faces, {} crops of {CROP_W}×{CROP_H} from seeds {first}–{last} in {}",
        faces.count,
        crops.count,
        out.display()
    );
    Ok(())
}

/// Raw u8 pixels plus a CSV index: no image codec or array format needed on the Python side.
struct Writer {
    pixels: std::io::BufWriter<std::fs::File>,
    index: std::io::BufWriter<std::fs::File>,
    count: usize,
}

impl Writer {
    fn create(dir: &std::path::Path, name: &str) -> std::io::Result<Writer> {
        let pixels =
            std::io::BufWriter::new(std::fs::File::create(dir.join(format!("{name}.u8")))?);
        let mut index =
            std::io::BufWriter::new(std::fs::File::create(dir.join(format!("{name}.csv")))?);
        writeln!(index, "index,card,seed")?;
        Ok(Writer {
            pixels,
            index,
            count: 0,
        })
    }

    fn push(
        &mut self,
        crop: &opencv::core::Mat,
        card: &str,
        seed: u64,
    ) -> Result<(), Box<dyn std::error::Error>> {
        use opencv::prelude::*;
        let bytes = crop.data_bytes()?;
        if bytes.len() != (CROP_W * CROP_H * 3) as usize {
            return Err(format!(
                "crop of {} bytes, expected {CROP_W}×{CROP_H}×3",
                bytes.len()
            )
            .into());
        }
        self.pixels.write_all(bytes)?;
        writeln!(self.index, "{},{card},{seed}", self.count)?;
        self.count += 1;
        Ok(())
    }
}
