//! `arbiter duel …`: filled in by the duel issue.

use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(clap::Subcommand)]
enum Cmd {}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        None => anyhow::bail!("the duel commands are not built yet"),
    }
}
