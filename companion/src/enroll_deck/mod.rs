//! `arbiter enroll-deck`: a whole deck enrolled block by block, from one photo a block or at the
//! table in a window (`--source`).

use anyhow::Context;
use serde::Serialize;
use sitting::Sitting;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use vision::detector::CardDetector;
use vision::embed::Embedder;

mod panel;
mod sitting;
#[cfg(test)]
mod tests;

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
    /// Position in the id list of the first block's first card (to go on where a sitting ended).
    /// Default: 0 for photos; with --source, the first id the reference file does not hold yet.
    #[arg(long)]
    pub start: Option<usize>,
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
    /// Enrol at the table instead of from photos: a window shows the camera (camera:N,
    /// video:PATH, or images:DIR stepped one photo a block), the cards it finds numbered by their
    /// place in the block beside the list of ids, and takes the block when the player presses
    /// Space.
    #[arg(long, conflicts_with = "photos")]
    pub source: Option<crate::table::source::SourceSpec>,
    /// One photo per block, in laying order.
    #[arg(required_unless_present = "source")]
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
    let (ids, names) = match &args.ids {
        Some(path) => (read_ids(path)?, HashMap::new()),
        None => blitz_order(),
    };
    let embedder = Embedder::load(crate::paths::shipped(&args.model))?;
    let detector = crate::vision_cli::learned_card_detector(&args.detector_model)?;
    if let Some(spec) = &args.source {
        let sitting = Sitting::open(ids, names, &args.refs, args.start)?;
        let source = spec.open("enrol from photos, or lay the cards before a camera")?;
        let app = panel::EnrolApp::new(
            sitting,
            source,
            matches!(spec, crate::table::source::SourceSpec::Images(_)),
            detector,
            embedder,
            (args.cols, args.rows),
            args.confusable,
        );
        panel::run(app)?;
        return Ok(ExitCode::SUCCESS);
    }
    let sitting = Sitting::open(ids, names, &args.refs, Some(args.start.unwrap_or(0)))?;
    from_photos(args, sitting, detector, embedder)
}

/// One photo a block, in laying order: each photo is the next block whatever it held.
fn from_photos(
    args: DeckArgs,
    mut sitting: Sitting,
    mut detector: CardDetector,
    embedder: Embedder,
) -> anyhow::Result<ExitCode> {
    let block = args.cols * args.rows;
    let mut outcome = DeckOutcome {
        refs: args.refs.clone(),
        photos: Vec::new(),
        enrolled: Vec::new(),
        missing: Vec::new(),
        not_yet_laid: 0,
        confusable: Vec::new(),
    };
    for photo in &args.photos {
        anyhow::ensure!(
            !sitting.done(),
            "{}: every id of the list is already laid out by the photos before it",
            photo.display()
        );
        let image = vision::pipeline::read_image(photo)?;
        let cards = detector
            .detect_apart(&image)
            .with_context(|| photo.display().to_string())?;
        let taken = sitting
            .take(&cards, &embedder, &image, args.cols, args.rows)
            .with_context(|| photo.display().to_string())?;
        if taken.problem.is_some() {
            sitting.skip(block);
        }
        outcome.photos.push(PhotoOutcome {
            photo: photo.clone(),
            ids: taken.ids,
            enrolled: taken.cards.len(),
            problem: taken.problem,
        });
    }
    sitting.save()?;
    outcome.enrolled = sitting.enrolled.clone();
    outcome.missing = sitting.missing.clone();
    outcome.not_yet_laid = sitting.ids.len() - sitting.next.min(sitting.ids.len());
    outcome.confusable = sitting.confusable(args.confusable);
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

/// The Blitz catalogue's ids in its order, with their names.
fn blitz_order() -> (Vec<String>, HashMap<String, String>) {
    let cat = blitz::catalogue::Catalogue::demo();
    let ids = cat.cards.iter().map(|c| c.id.clone()).collect();
    let names = cat
        .cards
        .iter()
        .map(|c| (c.id.clone(), format!("{} {}", c.name_zh, c.name_en)))
        .collect();
    (ids, names)
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
