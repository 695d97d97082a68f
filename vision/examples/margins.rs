//! Matches every frame hole of synthetic scenes with no abstention and prints one line per hole that
//! lies on a truth card: what won, by how much, and how well the whole hole's layout agreed, so the
//! abstain and cover thresholds can be chosen from curves: `margins SEED N > out.tsv`.

use opencv::imgproc;
use opencv::prelude::*;
use vision::detect::{find_holes, DetectOptions};
use vision::geometry::{centroid, point_in_convex};
use vision::identify::{hole_patches, ReferenceSet};
use vision::scene::SceneRenderer;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (seed, n) = (
        args.first().copied().unwrap_or(5000),
        args.get(1).copied().unwrap_or(100),
    );
    let cat = blitz::catalogue::Catalogue::demo();
    let renderer = SceneRenderer::new(&cat)?;
    let refs = ReferenceSet::from_catalogue(&cat.cards)?;
    println!("seed\ttruth\tcovered\tgot\tscore\tmargin\tlayout\tworst_tile\tagrees");
    for s in seed..seed + n {
        let scene = renderer.render(s, &Default::default())?;
        let mut gray = Mat::default();
        imgproc::cvt_color(&scene.image, &mut gray, imgproc::COLOR_BGR2GRAY, 0)?;
        for hole in find_holes(&gray, &DetectOptions::default(), None)? {
            let c = centroid(&hole.points);
            let Some(t) = scene
                .truth
                .cards
                .iter()
                .rev()
                .find(|t| point_in_convex(c, &t.corners.map(|p| [p[0] as f64, p[1] as f64])))
            else {
                continue;
            };
            let Some(m) = refs.best_match(&hole_patches(&scene.image, &hole.points)?) else {
                continue;
            };
            println!(
                "{s}\t{}\t{}\t{}\t{:.4}\t{:.4}\t{:.4}\t{:.3}\t{}",
                t.card,
                t.covered,
                refs.refs[m.best].card,
                m.score,
                m.score - m.runner_up,
                m.layout.unwrap_or(f32::NAN),
                m.worst_tile,
                m.rotation_agrees
            );
        }
    }
    Ok(())
}
