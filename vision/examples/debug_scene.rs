//! Draws what the scanner found on a scene: `--example debug_scene -- SEED OUT.png`.
use opencv::core::{Point, Scalar};
use opencv::imgproc;
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args[1].parse()?;
    let cat = blitz::catalogue::Catalogue::demo();
    let renderer = vision::scene::SceneRenderer::new(&cat)?;
    let scanner = vision::Scanner::new(&cat, Default::default())?;
    let scene = renderer.render(seed, &Default::default())?;
    let obs = scanner.scan(&scene.image, 0)?;
    let mut img = scene.image.clone();
    for c in &obs.cards {
        let pts: opencv::core::Vector<Point> = c
            .corners
            .iter()
            .map(|p| Point::new(p[0] as i32, p[1] as i32))
            .collect();
        let colour = if c.card.is_some() {
            Scalar::new(0.0, 255.0, 0.0, 0.0)
        } else {
            Scalar::new(0.0, 0.0, 255.0, 0.0)
        };
        imgproc::polylines(&mut img, &pts, true, colour, 1, 8, 0)?;
        imgproc::circle(
            &mut img,
            Point::new(c.corners[0][0] as i32, c.corners[0][1] as i32),
            3,
            Scalar::new(255.0, 0.0, 0.0, 0.0),
            -1,
            8,
            0,
        )?;
    }
    eprintln!("{:?}", obs.calibration);
    vision::sheets::write_png(std::path::Path::new(&args[2]), &img)?;
    Ok(())
}
