//! `arbiter print|scan|enroll|eval-vision`: printable cards and mats, scanning images, enrolling
//! real cards and measuring the pipeline on synthetic scenes.

use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;
use vision::mats::MatLayout;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GameName {
    Blitz,
    Duel,
}

#[derive(clap::Subcommand)]
pub enum Command {
    /// Write printable card faces (one PNG per card, 63×88 mm at 300 dpi), A4 sheets and ArUco mats.
    Print {
        #[arg(long, value_enum)]
        game: GameName,
        #[arg(long)]
        out: PathBuf,
    },
}

pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Print { game, out } => print(game, out),
    }
}

fn print(game: GameName, out: PathBuf) -> anyhow::Result<ExitCode> {
    let (cards, mats) = match game {
        GameName::Blitz => {
            let cat = blitz::catalogue::Catalogue::demo();
            (cat.cards, vec![MatLayout::blitz(4), MatLayout::blitz(5)])
        }
        // The Duel catalogue has no printable faces yet: only its mat.
        GameName::Duel => (Vec::new(), vec![MatLayout::duel()]),
    };
    let written = vision::sheets::write_print_set(&cards, &mats, &out)
        .with_context(|| format!("writing print set to {}", out.display()))?;
    println!("wrote {} files to {}", written.len(), out.display());
    Ok(ExitCode::SUCCESS)
}
