//! A long run of one table through `Scanner::scan_following`, as a camera feeds it: mostly frames in
//! which nothing moved (sensor noise only), and every `CHANGE_EVERY`-th frame a card laid or taken
//! away. Prints, as JSON, the median and p95 time of reused and scanned frames and the process's
//! resident memory after the warm-up and at the end, so that a leak shows as growth.
//!
//! `cargo run --release -p vision --example soak -- [FRAMES] [CHANGE_EVERY]` (default 10000, 50).

use opencv::core::{Mat, Rect, Scalar, CV_16SC3, CV_8U};
use opencv::prelude::*;
use std::time::Instant;
use vision::scene::{SceneOptions, SceneRenderer};

/// Frames before the first memory reading: buffers and caches have reached their size by then.
const WARM_UP: usize = 200;
/// Distinct noise patterns cycled through, so that no two neighbouring frames are identical.
const NOISE_PATTERNS: usize = 8;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let frames: usize = args.first().map_or(Ok(10_000), |a| a.parse())?;
    let change_every: usize = args.get(1).map_or(Ok(50), |a| a.parse())?;
    if change_every == 0 {
        return Err("CHANGE_EVERY must be at least 1".into());
    }

    let cat = blitz::catalogue::Catalogue::demo();
    let renderer = SceneRenderer::new(&cat)?;
    let scanner = vision::Scanner::new(&cat, Default::default())?;
    let scene = renderer.render(
        11,
        &SceneOptions {
            aruco_mat: Some(false),
            occupancy: Some(1.0),
            ..Default::default()
        },
    )?;
    let mut laid = scene.image.clone();
    opencv::imgproc::rectangle(
        &mut laid,
        Rect::new(600, 300, 60, 84),
        Scalar::all(30.0),
        -1,
        8,
        0,
    )?;
    let noisy = |base: &Mat, seed: u64| -> Result<Mat> {
        let mut noise =
            Mat::new_rows_cols_with_default(base.rows(), base.cols(), CV_16SC3, Scalar::all(0.0))?;
        opencv::core::set_rng_seed(seed as i32)?;
        opencv::core::randn(&mut noise, &Scalar::all(0.0), &Scalar::all(3.0))?;
        let mut out = Mat::default();
        opencv::core::add(base, &noise, &mut out, &opencv::core::no_array(), CV_8U)?;
        Ok(out)
    };
    let tables = [&scene.image, &laid];
    let mut variants = Vec::new();
    for (t, table) in tables.iter().enumerate() {
        let mut v = Vec::new();
        for k in 0..NOISE_PATTERNS {
            v.push(noisy(table, (t * NOISE_PATTERNS + k) as u64 + 1)?);
        }
        variants.push(v);
    }

    let mut memory = vision::memory::TableMemory::new();
    let (mut reused, mut scanned) = (Vec::new(), Vec::new());
    let mut rss_after_warm_up = 0;
    for i in 0..frames {
        let table = (i / change_every) % 2;
        let frame = &variants[table][i % NOISE_PATTERNS];
        let t = Instant::now();
        let obs = scanner.scan_following(frame, i as u64, &mut memory)?;
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        if obs.timings.reused {
            reused.push(ms);
        } else {
            scanned.push(ms);
        }
        if i + 1 == WARM_UP.min(frames) {
            rss_after_warm_up = rss_kib()?;
        }
    }
    let rss_end = rss_kib()?;
    let report = serde_json::json!({
        "frames": frames,
        "change_every": change_every,
        // Every change must be scanned: fewer scans than changes is a dropped change.
        "changes_made": frames.saturating_sub(1) / change_every,
        "reused": summary(&mut reused),
        "scanned": summary(&mut scanned),
        "rss_kib_after_warm_up": rss_after_warm_up,
        "rss_kib_at_end": rss_end,
        "warm_up_frames": WARM_UP.min(frames),
    });
    println!("{}", serde_json::to_string_pretty(&report)?);
    Ok(())
}

/// Count, median and p95 of `ms`.
fn summary(ms: &mut [f64]) -> serde_json::Value {
    ms.sort_by(f64::total_cmp);
    let q = |f: f64| {
        ms.get(((ms.len().max(1) - 1) as f64 * f).round() as usize)
            .copied()
    };
    serde_json::json!({ "count": ms.len(), "median_ms": q(0.5), "p95_ms": q(0.95) })
}

/// The process's resident memory in KiB, from /proc/self/statm (pages × page size).
fn rss_kib() -> Result<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm")?;
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .ok_or_else(|| format!("/proc/self/statm: no resident field in {statm:?}"))?
        .parse()?;
    // Linux pages are 4 KiB on the machines this runs on.
    Ok(pages * 4)
}
