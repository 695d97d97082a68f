fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seed: u64 = std::env::args().nth(1).unwrap().parse()?;
    let cat = blitz::catalogue::Catalogue::demo();
    let renderer = vision::scene::SceneRenderer::new(&cat)?;
    let scanner = vision::Scanner::new(&cat, Default::default())?;
    let scene = renderer.render(seed, &Default::default())?;
    let obs = scanner.scan(&scene.image, 0)?;
    println!("{:?}", obs.calibration);
    for c in &obs.cards {
        let t = scene
            .truth
            .cards
            .iter()
            .find(|t| Some(&t.card) == c.card.as_ref());
        println!(
            "{:?} {:?} truth {:?} {:?}",
            c.card,
            c.cell,
            t.map(|t| t.cell),
            c.center
        );
    }
    Ok(())
}
