//! `arbiter fof …`: filled in by the fof issue.

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
        None => anyhow::bail!("the fof commands are not built yet"),
    }
}
