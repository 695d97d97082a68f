use opencv::prelude::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args[1].parse().unwrap();
    let id = &args[2];
    let cat = blitz::catalogue::Catalogue::demo();
    let renderer = vision::scene::SceneRenderer::new(&cat).unwrap();
    let scene = renderer.render(seed, &Default::default()).unwrap();
    let t = scene.truth.cards.iter().find(|c| &c.card == id).unwrap();
    println!("truth centre {:?} corners {:?}", t.center, t.corners);
    let mut gray = opencv::core::Mat::default();
    opencv::imgproc::cvt_color(&scene.image, &mut gray, opencv::imgproc::COLOR_BGR2GRAY, 0)
        .unwrap();
    let mut o = vision::detect::DetectOptions::default();
    o.min_area = 50.0;
    for h in vision::detect::find_holes(&gray, &o, None).unwrap() {
        let c = vision::geometry::centroid(&h.points);
        if (c[0] - t.center[0] as f64).abs() < 60.0 && (c[1] - t.center[1] as f64).abs() < 60.0 {
            println!("{:?}", h);
        }
    }
    let _ = gray.rows();
}
