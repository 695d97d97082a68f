//! Prints (confidence, correct) for every visible detected card: `--example tune -- N SEED`.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args[1].parse()?;
    let seed: u64 = args[2].parse()?;
    let cat = blitz::catalogue::Catalogue::demo();
    let renderer = vision::scene::SceneRenderer::new(&cat)?;
    let opts = vision::ScannerOptions {
        min_margin: 0.0,
        min_score: -1.0,
        ..Default::default()
    };
    let scanner = vision::Scanner::new(&cat, opts)?;
    vision::eval::run(
        &renderer,
        &scanner,
        seed,
        n,
        &Default::default(),
        |_, _, o| {
            for c in o.cards.iter().filter(|c| c.detected) {
                println!(
                    "{:.3} {} {}",
                    c.confidence,
                    (c.got.as_ref() == Some(&c.truth)) as u8,
                    c.covered as u8
                );
            }
            Ok(())
        },
    )?;
    Ok(())
}
