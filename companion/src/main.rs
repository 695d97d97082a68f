//! `arbiter`: the table companion. `main` maps errors to an exit code; `run` does the work.

mod blitz_cli;
mod duel_cli;
mod duel_table;
mod enroll_deck;
mod fof_cli;
mod fof_kit;
mod fof_panel;
mod live;
mod live_cli;
mod message_cli;
mod message_table;
mod panel;
mod paths;
mod show;
mod table;
mod vision_cli;
mod vision_compare;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "arbiter",
    version,
    about = "A companion for card games played at a real table"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// 死亡前线-闪电战 (Blitz): replay scripted games through the rules engine.
    Blitz(blitz_cli::Args),
    /// Fields of Fire: solo companion with a digital action deck.
    Fof(fof_cli::Args),
    /// 风声 (The Message): rules engine and tally.
    Message(message_cli::Args),
    /// 陣面對決 (Duel): rules engine with stack and priority.
    Duel(duel_cli::Args),
    /// Play the scripted Blitz demo through camera tracking, the adapter and the engine.
    Demo(live_cli::DemoArgs),
    /// Play Blitz live at the table with the panel (or continue a game with --resume).
    Play(live_cli::PlayArgs),
    /// Vision: print cards and mats, scan images, enroll cards, evaluate.
    #[command(flatten)]
    Vision(vision_cli::Command),
}

fn main() -> ExitCode {
    // Rust ignores SIGPIPE, so printing into a closed pipe (`arbiter … | head`) would panic; a
    // command-line tool should simply stop.
    #[cfg(unix)]
    // SAFETY: setting a signal disposition to its default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    match run() {
        Ok(code) => code,
        Err(err) => {
            eprintln!("arbiter: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> anyhow::Result<ExitCode> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Blitz(args)) => blitz_cli::run(args),
        Some(Command::Fof(args)) => fof_cli::run(args),
        Some(Command::Message(args)) => message_cli::run(args),
        Some(Command::Duel(args)) => duel_cli::run(args),
        Some(Command::Vision(cmd)) => vision_cli::run(cmd),
        Some(Command::Demo(args)) => live_cli::demo(args),
        Some(Command::Play(args)) => live_cli::play(args),
        None => {
            // The live panel arrives with the live-play issue; until then say what there is.
            use clap::CommandFactory;
            Cli::command().print_help()?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
