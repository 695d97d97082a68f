//! `eval-vision --report DIR`: crops of the worst failures and a chart of accuracy against camera
//! tilt, blur and glare, so a person can see where the pipeline breaks.

use crate::eval::{CardOutcome, SceneOutcome};
use crate::sheets::write_png;
use crate::VisionError;
use opencv::core::{Mat, Point, Rect, Scalar, CV_8UC3};
use opencv::imgproc::{self, FONT_HERSHEY_SIMPLEX};
use opencv::prelude::*;
use std::path::Path;

/// One failed card, cropped from its frame with the truth outline drawn on it.
pub struct FailureCrop {
    pub seed: u64,
    pub label: String,
    pub image: Mat,
}

pub fn is_failure(c: &CardOutcome) -> bool {
    !c.covered && (c.got.as_ref() != Some(&c.truth) || !c.orientation_ok || !c.cell_ok)
}

/// "us-u01 -> unknown cell!": the truth, what was read, and what else went wrong.
pub fn failure_label(c: &CardOutcome) -> String {
    format!(
        "{} -> {}{}{}",
        c.truth,
        c.got
            .as_deref()
            .unwrap_or(if c.detected { "unknown" } else { "missed" }),
        if c.orientation_ok { "" } else { " orient!" },
        if c.cell_ok { "" } else { " cell!" }
    )
}

/// Crops a failed card (its truth outline plus a margin) and labels it.
pub fn crop_failure(frame: &Mat, seed: u64, c: &CardOutcome) -> Result<FailureCrop, VisionError> {
    let xs = c.corners.map(|p| p[0] as i32);
    let ys = c.corners.map(|p| p[1] as i32);
    let m = 12;
    let x0 = (xs.iter().min().copied().unwrap_or(0) - m).clamp(0, frame.cols() - 1);
    let y0 = (ys.iter().min().copied().unwrap_or(0) - m).clamp(0, frame.rows() - 1);
    let x1 = (xs.iter().max().copied().unwrap_or(0) + m).clamp(x0 + 1, frame.cols());
    let y1 = (ys.iter().max().copied().unwrap_or(0) + m).clamp(y0 + 1, frame.rows());
    let crop = Mat::roi(frame, Rect::new(x0, y0, x1 - x0, y1 - y0))?.try_clone()?;
    let mut big = Mat::default();
    let scale = 3.0;
    imgproc::resize(
        &crop,
        &mut big,
        opencv::core::Size::new(0, 0),
        scale,
        scale,
        imgproc::INTER_NEAREST,
    )?;
    let mut out = Mat::new_rows_cols_with_default(
        big.rows() + 40,
        big.cols().max(260),
        CV_8UC3,
        Scalar::all(255.0),
    )?;
    big.copy_to(&mut Mat::roi_mut(
        &mut out,
        Rect::new(0, 40, big.cols(), big.rows()),
    )?)?;
    let pts: opencv::core::Vector<Point> = c
        .corners
        .iter()
        .map(|p| {
            Point::new(
                ((p[0] as f64 - x0 as f64) * scale) as i32,
                ((p[1] as f64 - y0 as f64) * scale) as i32 + 40,
            )
        })
        .collect();
    imgproc::polylines(
        &mut out,
        &pts,
        true,
        Scalar::new(0.0, 200.0, 0.0, 0.0),
        1,
        8,
        0,
    )?;
    let label = format!("seed {seed}: {}", failure_label(c));
    imgproc::put_text(
        &mut out,
        &label,
        Point::new(4, 26),
        FONT_HERSHEY_SIMPLEX,
        0.5,
        Scalar::all(0.0),
        1,
        imgproc::LINE_AA,
        false,
    )?;
    Ok(FailureCrop {
        seed,
        label,
        image: out,
    })
}

/// Label, accuracy and card count of each bin.
type Bins = Vec<(String, f64, usize)>;

/// Identity accuracy of visible cards in bins of a scene quantity.
fn binned(
    outcomes: &[SceneOutcome],
    key: &dyn Fn(&SceneOutcome) -> f64,
    edges: &[f64],
) -> Vec<(String, f64, usize)> {
    let mut bins = Vec::new();
    for w in edges.windows(2) {
        let cards: Vec<&CardOutcome> = outcomes
            .iter()
            .filter(|s| key(s) >= w[0] && key(s) < w[1])
            .flat_map(|s| s.cards.iter().filter(|c| !c.covered))
            .collect();
        let ok = cards
            .iter()
            .filter(|c| c.got.as_ref() == Some(&c.truth))
            .count();
        let acc = if cards.is_empty() {
            f64::NAN
        } else {
            ok as f64 / cards.len() as f64
        };
        bins.push((format!("{}-{}", w[0], w[1]), acc, cards.len()));
    }
    bins
}

/// A bar chart per quantity (identity accuracy of visible cards), drawn with OpenCV.
pub fn accuracy_chart(outcomes: &[SceneOutcome]) -> Result<Mat, VisionError> {
    let panels: [(&str, Bins); 3] = [
        (
            "tilt (deg)",
            binned(
                outcomes,
                &|s| s.tilt_deg,
                &[0.0, 10.0, 20.0, 30.0, 40.0, 46.0],
            ),
        ),
        (
            "blur (px)",
            binned(outcomes, &|s| s.blur, &[0.0, 0.5, 1.5, 2.5, 3.5, 10.0]),
        ),
        (
            "glare spots",
            binned(outcomes, &|s| s.glare_spots as f64, &[0.0, 1.0, 2.0, 3.0]),
        ),
    ];
    let (pw, ph) = (420, 320);
    let mut img = Mat::new_rows_cols_with_default(ph, pw * 3, CV_8UC3, Scalar::all(255.0))?;
    let black = Scalar::all(0.0);
    for (i, (title, bins)) in panels.iter().enumerate() {
        let x0 = i as i32 * pw + 50;
        let (y0, y1) = (40, ph - 60);
        imgproc::put_text(
            &mut img,
            &format!("identity accuracy vs {title}"),
            Point::new(x0 - 30, 25),
            FONT_HERSHEY_SIMPLEX,
            0.5,
            black,
            1,
            imgproc::LINE_AA,
            false,
        )?;
        imgproc::line(
            &mut img,
            Point::new(x0, y1),
            Point::new(x0 + pw - 80, y1),
            black,
            1,
            8,
            0,
        )?;
        imgproc::line(
            &mut img,
            Point::new(x0, y0),
            Point::new(x0, y1),
            black,
            1,
            8,
            0,
        )?;
        for (tick, label) in [(0.0, "0"), (0.5, "50%"), (1.0, "100%")] {
            let y = y1 - ((y1 - y0) as f64 * tick) as i32;
            imgproc::put_text(
                &mut img,
                label,
                Point::new(x0 - 45, y + 5),
                FONT_HERSHEY_SIMPLEX,
                0.4,
                black,
                1,
                imgproc::LINE_AA,
                false,
            )?;
        }
        let bw = (pw - 100) / bins.len().max(1) as i32;
        for (k, (label, acc, n)) in bins.iter().enumerate() {
            let x = x0 + 10 + k as i32 * bw;
            if acc.is_finite() {
                let top = y1 - ((y1 - y0) as f64 * acc) as i32;
                imgproc::rectangle(
                    &mut img,
                    Rect::new(x, top, bw - 10, y1 - top),
                    Scalar::new(180.0, 120.0, 40.0, 0.0),
                    -1,
                    8,
                    0,
                )?;
                imgproc::put_text(
                    &mut img,
                    &format!("{:.1}", acc * 100.0),
                    Point::new(x, top - 4),
                    FONT_HERSHEY_SIMPLEX,
                    0.35,
                    black,
                    1,
                    imgproc::LINE_AA,
                    false,
                )?;
            }
            imgproc::put_text(
                &mut img,
                label,
                Point::new(x, y1 + 18),
                FONT_HERSHEY_SIMPLEX,
                0.35,
                black,
                1,
                imgproc::LINE_AA,
                false,
            )?;
            imgproc::put_text(
                &mut img,
                &format!("n={n}"),
                Point::new(x, y1 + 34),
                FONT_HERSHEY_SIMPLEX,
                0.3,
                black,
                1,
                imgproc::LINE_AA,
                false,
            )?;
        }
    }
    Ok(img)
}

pub fn write_report(
    dir: &Path,
    outcomes: &[SceneOutcome],
    crops: &[FailureCrop],
) -> Result<(), VisionError> {
    std::fs::create_dir_all(dir).map_err(|e| VisionError::io(dir, e))?;
    write_png(&dir.join("accuracy.png"), &accuracy_chart(outcomes)?)?;
    for (i, crop) in crops.iter().enumerate() {
        write_png(
            &dir.join(format!("failure-{i:03}-seed{}.png", crop.seed)),
            &crop.image,
        )?;
    }
    // Every failure, not only the cropped ones: each failed visible card, each wrong name and
    // each unnamed outline where no card lies.
    let mut list: Vec<String> = Vec::new();
    for o in outcomes {
        for c in o.cards.iter().filter(|c| is_failure(c)) {
            list.push(format!("seed {}: {}", o.seed, failure_label(c)));
        }
        for w in &o.wrong_names {
            list.push(format!("seed {}: wrong name: {w}", o.seed));
        }
        for p in o.phantom_places() {
            list.push(format!("seed {}: unnamed, no card there: {p}", o.seed));
        }
    }
    let path = dir.join("failures.txt");
    std::fs::write(&path, list.join("\n") + "\n").map_err(|e| VisionError::io(&path, e))?;
    Ok(())
}

/// Renders and scans `n` scenes from `seed` with a progress bar on stderr, keeping the worst
/// failures (lowest-accuracy scenes first) for the report; writes the report when `dir` is given.
pub fn evaluate(
    renderer: &crate::scene::SceneRenderer,
    scanner: &crate::Scanner,
    seed: u64,
    n: usize,
    opts: &crate::scene::SceneOptions,
    dir: Option<&Path>,
    progress: bool,
) -> Result<(crate::eval::Summary, Vec<SceneOutcome>), VisionError> {
    const KEEP: usize = 60;
    let bar = if progress {
        indicatif::ProgressBar::new(n as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} scenes  {elapsed} (eta {eta})  {msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let mut crops: Vec<(usize, FailureCrop)> = Vec::new();
    let mut ok = 0usize;
    let mut seen = 0usize;
    let outcomes = crate::eval::run(renderer, scanner, seed, n, opts, |scene, _, outcome| {
        let failures: Vec<&CardOutcome> = outcome.cards.iter().filter(|c| is_failure(c)).collect();
        let visible = outcome.cards.iter().filter(|c| !c.covered).count();
        seen += visible;
        ok += outcome
            .cards
            .iter()
            .filter(|c| !c.covered && c.got.as_ref() == Some(&c.truth))
            .count();
        bar.set_message(format!(
            "identity {:.2}%",
            100.0 * ok as f64 / seen.max(1) as f64
        ));
        bar.inc(1);
        if dir.is_some() {
            for c in failures.iter().take(3) {
                crops.push((failures.len(), crop_failure(&scene.image, outcome.seed, c)?));
            }
            crops.sort_by_key(|c| std::cmp::Reverse(c.0));
            crops.truncate(KEEP);
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    let summary = crate::eval::summarise(&outcomes, seed);
    if let Some(dir) = dir {
        let crops: Vec<FailureCrop> = crops.into_iter().map(|c| c.1).collect();
        write_report(dir, &outcomes, &crops)?;
        let path = dir.join("summary.json");
        let text = serde_json::to_string_pretty(&summary)
            .map_err(|e| VisionError::Other(e.to_string()))?;
        std::fs::write(&path, text).map_err(|e| VisionError::io(&path, e))?;
    }
    Ok((summary, outcomes))
}
