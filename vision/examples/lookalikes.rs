//! Lists the catalogue's most alike pairs of faces as the matcher sees them (whitened fine patches),
//! so a card design that could be confused with another is caught before it is printed.

use vision::identify::ReferenceSet;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cat = blitz::catalogue::Catalogue::demo();
    let refs = ReferenceSet::from_catalogue(&cat.cards)?;
    let mut pairs: Vec<(f32, String, String)> = refs
        .refs
        .iter()
        .filter_map(|r| {
            refs.closest(&r.fine, &r.card)
                .map(|(other, score)| (score, r.card.clone(), other))
        })
        .collect();
    pairs.sort_by(|a, b| b.0.total_cmp(&a.0));
    spread(&refs);
    for (score, a, b) in pairs.iter().take(15) {
        println!("{score:.3}  {a}  {b}");
    }
    Ok(())
}

/// How far each face stands from the shared look (low: little of it tells the card apart).
#[allow(dead_code)]
fn spread(refs: &ReferenceSet) {
    let n = refs.refs.len() as f32;
    let mut mean = vec![0.0f32; refs.refs[0].fine.len()];
    for r in &refs.refs {
        mean.iter_mut().zip(&r.fine).for_each(|(m, x)| *m += x / n);
    }
    let mut d: Vec<(f32, &str)> = refs
        .refs
        .iter()
        .map(|r| {
            (
                r.fine
                    .iter()
                    .zip(&mean)
                    .map(|(a, b)| (a - b).powi(2))
                    .sum::<f32>()
                    .sqrt(),
                r.card.as_str(),
            )
        })
        .collect();
    d.sort_by(|a, b| a.0.total_cmp(&b.0));
    println!("least distinct from the mean: {:?}", &d[..8]);
    println!("median {:?}", d[d.len() / 2]);
}
