//! `arbiter enroll-deck`: a whole deck enrolled block by block from photos.

use anyhow::Context;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use vision::detector::deck::{confusable, enrol_block};
use vision::detector::{CardDetector, DetectorOptions};
use vision::embed::Embedder;
use vision::identify::{Reference, ReferenceSet};

#[derive(clap::Args, Debug)]
pub struct DeckArgs {
    /// The ids in the order the cards are laid, one per line (`#` starts a comment); without
    /// it, the Blitz catalogue's order.
    #[arg(long)]
    pub ids: Option<PathBuf>,
    /// Cards in a row of each block.
    #[arg(long, default_value_t = 3)]
    pub cols: usize,
    /// Rows in each block.
    #[arg(long, default_value_t = 3)]
    pub rows: usize,
    /// Position in the id list of the first photo's first card (to go on where a sitting ended).
    #[arg(long, default_value_t = 0)]
    pub start: usize,
    /// Reference file to add to (created if missing); a card enrolled again replaces its print.
    #[arg(long)]
    pub refs: PathBuf,
    /// The learned identifier's model.
    #[arg(long, default_value = "models/identify/card_embed.tflite")]
    pub model: PathBuf,
    /// The learned card detector's model.
    #[arg(long, default_value = vision::detector::DEFAULT_MODEL)]
    pub detector_model: PathBuf,
    /// Prints at least this alike (cosine of their embeddings) are listed as confusable.
    #[arg(long, default_value_t = 0.90)]
    pub confusable: f32,
    /// Print the outcome as JSON.
    #[arg(long)]
    pub json: bool,
    /// One photo per block, in laying order.
    #[arg(required = true)]
    pub photos: Vec<PathBuf>,
}

#[derive(Serialize)]
struct PhotoOutcome {
    photo: PathBuf,
    ids: Vec<String>,
    enrolled: usize,
    problem: Option<String>,
}

#[derive(Serialize)]
struct DeckOutcome {
    refs: PathBuf,
    photos: Vec<PhotoOutcome>,
    enrolled: Vec<String>,
    /// Ids the photos were meant to hold that were not enrolled.
    missing: Vec<String>,
    /// Ids of the list no photo reached yet.
    not_yet_laid: usize,
    confusable: Vec<(String, String, f32)>,
}

/// Reads an id list: one id a line, `#` comments, blank lines skipped.
pub fn read_ids(path: &Path) -> anyhow::Result<Vec<String>> {
    let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
    let mut ids = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let id = line.split('#').next().unwrap_or("").trim();
        if id.is_empty() {
            continue;
        }
        anyhow::ensure!(
            !id.chars().any(|c| c.is_whitespace() || c.is_control()),
            "{}:{}: {id:?} is not one id (ids have no spaces)",
            path.display(),
            n + 1
        );
        ids.push(id.to_string());
    }
    anyhow::ensure!(!ids.is_empty(), "{}: no ids", path.display());
    Ok(ids)
}

pub fn run(args: DeckArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        args.cols > 0 && args.rows > 0,
        "--cols and --rows must be at least 1"
    );
    let ids = match &args.ids {
        Some(path) => read_ids(path)?,
        None => blitz::catalogue::Catalogue::demo()
            .cards
            .iter()
            .map(|c| c.id.clone())
            .collect(),
    };
    anyhow::ensure!(
        args.start < ids.len(),
        "--start {}: the list has {} ids",
        args.start,
        ids.len()
    );
    let embedder = Embedder::load(crate::paths::shipped(&args.model))?;
    let mut detector = CardDetector::new(
        crate::paths::shipped(&args.detector_model),
        DetectorOptions::default(),
    )?;
    let mut set = if args.refs.exists() {
        ReferenceSet::load(&args.refs)?
    } else {
        ReferenceSet::default()
    };
    let crops = crops_dir(&args.refs);
    let block = args.cols * args.rows;
    let mut next = args.start;
    let mut outcome = DeckOutcome {
        refs: args.refs.clone(),
        photos: Vec::new(),
        enrolled: Vec::new(),
        missing: Vec::new(),
        not_yet_laid: 0,
        confusable: Vec::new(),
    };
    for photo in &args.photos {
        if next >= ids.len() {
            anyhow::bail!(
                "{}: every id of the list is already laid out by the photos before it",
                photo.display()
            );
        }
        let these: Vec<String> = ids[next..(next + block).min(ids.len())].to_vec();
        next += these.len();
        let image = vision::pipeline::read_image(photo)?;
        let got = enrol_block(&mut detector, &embedder, &image, &these, args.cols)
            .with_context(|| photo.display().to_string())?;
        if got.problem.is_some() {
            outcome.missing.extend(these.iter().cloned());
        }
        for card in &got.enrolled {
            std::fs::create_dir_all(&crops).with_context(|| crops.display().to_string())?;
            let path = crops.join(format!("{}.png", card.id));
            vision::sheets::write_png(&path, &card.crop)?;
            set.refs.retain(|r| r.card != card.id);
            set.refs.push(Reference {
                card: card.id.clone(),
                coarse: Vec::new(),
                fine: Vec::new(),
                full: Vec::new(),
                embedding: card.embedding.clone(),
            });
            outcome.enrolled.push(card.id.clone());
        }
        outcome.photos.push(PhotoOutcome {
            photo: photo.clone(),
            ids: these,
            enrolled: got.enrolled.len(),
            problem: got.problem,
        });
    }
    outcome.not_yet_laid = ids.len() - next;
    let with_embeddings: Vec<(String, Vec<f32>)> = set
        .refs
        .iter()
        .filter(|r| !r.embedding.is_empty())
        .map(|r| (r.card.clone(), r.embedding.clone()))
        .collect();
    outcome.confusable = confusable(&with_embeddings, args.confusable);
    if let Some(dir) = args.refs.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    }
    set.save(&args.refs)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&outcome)?);
    } else {
        print(&outcome);
    }
    Ok(if outcome.enrolled.is_empty() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn print(o: &DeckOutcome) {
    for p in &o.photos {
        match &p.problem {
            None => println!(
                "{}: enrolled {} ({}…{})",
                p.photo.display(),
                p.enrolled,
                p.ids.first().map_or("", |s| s),
                p.ids.last().map_or("", |s| s)
            ),
            Some(why) => println!("{}: not enrolled: {why}", p.photo.display()),
        }
    }
    println!(
        "{} cards enrolled into {}; {} still to enrol from these photos; {} not laid yet",
        o.enrolled.len(),
        o.refs.display(),
        o.missing.len(),
        o.not_yet_laid
    );
    if !o.missing.is_empty() {
        println!("missing: {}", o.missing.join(" "));
    }
    for (a, b, c) in o.confusable.iter().take(20) {
        println!("look alike: {a} and {b} (cosine {c:.3})");
    }
}

fn crops_dir(refs: &Path) -> PathBuf {
    let stem = refs
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "refs".into());
    refs.with_file_name(format!("{stem}-crops"))
}
