//! `arbiter message …`: filled in by the message issue.

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
        None => anyhow::bail!("the message commands are not built yet"),
    }
}
