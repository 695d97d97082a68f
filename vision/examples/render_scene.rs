//! Renders scenes for a look: `cargo run -p vision --example render_scene -- SEED OUT_DIR`.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let out = std::path::PathBuf::from(args.get(2).cloned().unwrap_or_else(|| "/tmp".into()));
    let renderer = vision::scene::SceneRenderer::new(&blitz::catalogue::Catalogue::demo())?;
    let t = std::time::Instant::now();
    let scene = renderer.render(seed, &Default::default())?;
    eprintln!("rendered in {:?}", t.elapsed());
    vision::sheets::write_png(&out.join(format!("scene-{seed}.png")), &scene.image)?;
    std::fs::write(
        out.join(format!("scene-{seed}.json")),
        serde_json::to_string_pretty(&scene.truth)?,
    )?;
    Ok(())
}
