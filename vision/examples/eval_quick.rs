//! Quick evaluation loop for development: `cargo run --release -p vision --example eval_quick -- N SEED`.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let cat = blitz::catalogue::Catalogue::demo();
    let renderer = vision::scene::SceneRenderer::new(&cat)?;
    let scanner = vision::Scanner::new(&cat, Default::default())?;
    let outcomes = vision::eval::run(
        &renderer,
        &scanner,
        seed,
        n,
        &Default::default(),
        |_, _, o| {
            for c in o.cards.iter().filter(|c| {
                !c.covered && (c.got.as_ref() != Some(&c.truth) || !c.orientation_ok || !c.cell_ok)
            }) {
                eprintln!(
                    "seed {} tilt {:.0} mat {} truth {} got {:?} det {} orient {} cell {}",
                    o.seed,
                    o.tilt_deg,
                    o.aruco_mat,
                    c.truth,
                    c.got,
                    c.detected,
                    c.orientation_ok,
                    c.cell_ok
                );
            }
            Ok(())
        },
    )?;
    println!(
        "{}",
        serde_json::to_string_pretty(&vision::eval::summarise(&outcomes, seed))?
    );
    Ok(())
}
