//! Issue 8: the learned identifier and the classical matcher side by side on the same true card quads,
//! with extra degradation laid on each scene (the hard cases: blur, heavy JPEG, glare, cover, dim +
//! noise). Both get the truth quad, so this isolates identification from detection.
//!
//! `cargo run --release -p vision --example embed_stress -- [FIRST LAST]` (default seeds 31000–31049,
//! outside every training, tuning and evaluation range).

use opencv::core::{Mat, Point, Scalar, Vector};
use opencv::imgproc;
use opencv::prelude::*;
use rand::{Rng, SeedableRng};
use vision::embed::{warp_crop, Embedder, Enrolment};
use vision::face::{hole_rect, CARD_H_MM, CARD_W_MM};
use vision::identify::{hole_patches, ReferenceSet};

const CONDITIONS: [&str; 7] = [
    "none",
    "blur σ2.5",
    "jpeg q8",
    "glare mild",
    "glare",
    "cover 35 %",
    "dim+noise",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let first: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(31000);
    let last: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(31049);
    let embedder = Embedder::load("models/identify/card_embed.tflite")?;
    let catalogue = blitz::catalogue::Catalogue::demo();
    let faces = vision::distinct::blitz_faces(&catalogue.cards)?;
    let enrolment = Enrolment::from_faces(&embedder, faces.iter().map(|(id, m)| (id.as_str(), m)))?;
    let refs = ReferenceSet::from_faces(faces.iter().map(|(id, m)| (id.as_str(), m)))?;
    let renderer = vision::scene::SceneRenderer::new(&catalogue)?;
    // [condition] -> (cards, classical right, model right)
    let mut tally = [(0usize, 0usize, 0usize); CONDITIONS.len()];
    for seed in first..=last {
        let scene = renderer.render(seed, &Default::default())?;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for (c, _) in CONDITIONS.iter().enumerate() {
            let whole = degrade_whole(&scene.image, c, &mut rng)?;
            for card in scene.truth.cards.iter().filter(|t| !t.covered) {
                let image = degrade_card(&whole, &card.corners, c, &mut rng)?;
                let crop = warp_crop(&image, &card.corners)?;
                let model = enrolment
                    .nearest(&embedder.embed(&crop)?)
                    .map(|n| n.card.to_string());
                let hole = hole_of(&card.corners);
                let classical = refs
                    .best_match(&hole_patches(&image, &hole)?)
                    .map(|m| refs.refs[m.best].card.clone());
                let t = &mut tally[c];
                t.0 += 1;
                t.1 += usize::from(classical.as_deref() == Some(card.card.as_str()));
                t.2 += usize::from(model.as_deref() == Some(card.card.as_str()));
            }
        }
    }
    println!("seeds {first}–{last}, true quads, top-1 identity:");
    println!(
        "{:<12} {:>6} {:>10} {:>10}",
        "condition", "cards", "classical", "model"
    );
    for (name, (n, classical, model)) in CONDITIONS.iter().zip(tally) {
        let pct = |k: usize| 100.0 * k as f64 / n.max(1) as f64;
        println!(
            "{name:<12} {n:>6} {:>9.2}% {:>9.2}%",
            pct(classical),
            pct(model)
        );
    }
    Ok(())
}

/// The card's frame hole in image pixels, from its true corners (same order: TL, TR, BR, BL).
fn hole_of(corners: &[[f32; 2]; 4]) -> [[f64; 2]; 4] {
    let local = [
        [0.0, 0.0],
        [CARD_W_MM, 0.0],
        [CARD_W_MM, CARD_H_MM],
        [0.0, CARD_H_MM],
    ];
    let img: Vec<[f64; 2]> = corners.iter().map(|c| [c[0] as f64, c[1] as f64]).collect();
    let h = vision::geometry::homography(&local, &img, false)
        .ok()
        .flatten()
        .expect("a true card quad is not degenerate");
    hole_rect(CARD_W_MM, CARD_H_MM).map(|p| vision::geometry::apply(&h, p))
}

fn degrade_whole(image: &Mat, condition: usize, rng: &mut impl Rng) -> opencv::Result<Mat> {
    let mut out = Mat::default();
    match CONDITIONS[condition] {
        "blur σ2.5" => {
            imgproc::gaussian_blur_def(image, &mut out, opencv::core::Size::new(0, 0), 2.5)?
        }
        "jpeg q8" => {
            let mut buf = Vector::<u8>::new();
            let params = Vector::from_slice(&[opencv::imgcodecs::IMWRITE_JPEG_QUALITY, 8]);
            opencv::imgcodecs::imencode(".jpg", image, &mut buf, &params)?;
            out = opencv::imgcodecs::imdecode(&buf, opencv::imgcodecs::IMREAD_COLOR)?;
        }
        "dim+noise" => {
            let mut noise =
                Mat::new_size_with_default(image.size()?, image.typ(), Scalar::all(0.0))?;
            let sigma = 10.0 + rng.random_range(0.0..4.0);
            opencv::core::randn(&mut noise, &Scalar::all(0.0), &Scalar::all(sigma))?;
            let mut dim = Mat::default();
            image.convert_to(&mut dim, -1, 0.4, 0.0)?;
            // Signed noise on unsigned pixels: add it to a float copy.
            let (mut f, mut n) = (Mat::default(), Mat::default());
            dim.convert_to(&mut f, opencv::core::CV_32F, 1.0, 0.0)?;
            noise.convert_to(&mut n, opencv::core::CV_32F, 1.0, 0.0)?;
            let mut sum = Mat::default();
            opencv::core::add_def(&f, &n, &mut sum)?;
            sum.convert_to(&mut out, image.typ(), 1.0, 0.0)?;
        }
        _ => out = image.try_clone()?,
    }
    Ok(out)
}

/// Per-card hard cases: a glare disc or a flat cover over part of this card only.
fn degrade_card(
    image: &Mat,
    corners: &[[f32; 2]; 4],
    condition: usize,
    rng: &mut impl Rng,
) -> opencv::Result<Mat> {
    let name = CONDITIONS[condition];
    if !name.starts_with("glare") && name != "cover 35 %" {
        return Ok(image.clone());
    }
    let mut out = image.try_clone()?;
    let at = |u: f32, v: f32| {
        // Bilinear point inside the quad at card fractions (u across, v down).
        let top = [
            corners[0][0] + (corners[1][0] - corners[0][0]) * u,
            corners[0][1] + (corners[1][1] - corners[0][1]) * u,
        ];
        let bottom = [
            corners[3][0] + (corners[2][0] - corners[3][0]) * u,
            corners[3][1] + (corners[2][1] - corners[3][1]) * u,
        ];
        Point::new(
            (top[0] + (bottom[0] - top[0]) * v).round() as i32,
            (top[1] + (bottom[1] - top[1]) * v).round() as i32,
        )
    };
    let width =
        ((corners[1][0] - corners[0][0]).powi(2) + (corners[1][1] - corners[0][1]).powi(2)).sqrt();
    if let Some(level) = name.strip_prefix("glare") {
        // Strong: a disc 0.3 card-widths across at 85 % white; mild: 0.2 at 60 %.
        let (size, alpha) = if level.is_empty() {
            (0.3, 0.85)
        } else {
            (0.2, 0.6)
        };
        let centre = at(rng.random_range(0.2..0.8), rng.random_range(0.15..0.6));
        let mut overlay = out.try_clone()?;
        let radius = (width * size).round() as i32;
        imgproc::circle(
            &mut overlay,
            centre,
            radius,
            Scalar::all(255.0),
            -1,
            imgproc::LINE_AA,
            0,
        )?;
        let mut blended = Mat::default();
        opencv::core::add_weighted_def(&overlay, alpha, &out, 1.0 - alpha, 0.0, &mut blended)?;
        let mut soft = Mat::default();
        imgproc::gaussian_blur_def(&blended, &mut soft, opencv::core::Size::new(0, 0), 3.0)?;
        let mut mask =
            Mat::new_size_with_default(out.size()?, opencv::core::CV_8UC1, Scalar::all(0.0))?;
        imgproc::circle(
            &mut mask,
            centre,
            radius + 4,
            Scalar::all(255.0),
            -1,
            imgproc::LINE_8,
            0,
        )?;
        soft.copy_to_masked(&mut out, &mask)?;
    } else {
        // A hand-coloured band over 35 % of the card from a random side.
        let s = 0.35;
        let quad = match rng.random_range(0..4) {
            0 => [at(0.0, 0.0), at(1.0, 0.0), at(1.0, s), at(0.0, s)],
            1 => [
                at(0.0, 1.0 - s),
                at(1.0, 1.0 - s),
                at(1.0, 1.0),
                at(0.0, 1.0),
            ],
            2 => [at(0.0, 0.0), at(s, 0.0), at(s, 1.0), at(0.0, 1.0)],
            _ => [
                at(1.0 - s, 0.0),
                at(1.0, 0.0),
                at(1.0, 1.0),
                at(1.0 - s, 1.0),
            ],
        };
        let pts = Vector::<Point>::from_slice(&quad);
        imgproc::fill_convex_poly(
            &mut out,
            &pts,
            Scalar::new(120.0, 150.0, 200.0, 0.0),
            imgproc::LINE_8,
            0,
        )?;
    }
    Ok(out)
}
