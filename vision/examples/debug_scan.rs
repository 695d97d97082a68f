//! Prints every frame hole the detector finds in an image, with the matcher's verdict, so a missed or
//! unknown card in an eval report can be traced: `cargo run -p vision --example debug_scan IMG [x0 y0 x1 y1]`.

use opencv::imgproc;
use opencv::prelude::*;
use vision::detect::{find_holes, DetectOptions};
use vision::geometry::centroid;
use vision::identify::{hole_patches, ReferenceSet};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).ok_or("usage: debug_scan IMAGE [x0 y0 x1 y1]")?;
    let window: Vec<f64> = args[2..].iter().filter_map(|a| a.parse().ok()).collect();
    let image = vision::pipeline::read_image(std::path::Path::new(path))?;
    let mut gray = Mat::default();
    imgproc::cvt_color(&image, &mut gray, imgproc::COLOR_BGR2GRAY, 0)?;
    let refs = ReferenceSet::from_catalogue(&blitz::catalogue::Catalogue::demo().cards)?;
    let holes = find_holes(&gray, &DetectOptions::default(), None)?;
    println!("{} holes", holes.len());
    for hole in &holes {
        let c = centroid(&hole.points);
        if window.len() == 4
            && !(window[0] <= c[0] && c[0] <= window[2] && window[1] <= c[1] && c[1] <= window[3])
        {
            continue;
        }
        let rolls = hole_patches(&image, &hole.points)?;
        match refs.best_match(&rolls) {
            Some(m) => println!(
                "({:.0}, {:.0}) area {:.0}: {} score {:.3} runner-up {:.3} margin {:.3} roll {} agrees {} worst tile {:.2}",
                c[0], c[1], hole.area, refs.refs[m.best].card, m.score, m.runner_up, m.score - m.runner_up, m.roll, m.rotation_agrees, m.worst_tile
            ),
            None => println!("({:.0}, {:.0}) area {:.0}: no match", c[0], c[1], hole.area),
        }
    }
    Ok(())
}
