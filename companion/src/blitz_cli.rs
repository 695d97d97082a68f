//! `arbiter blitz …`: replay scripted games through the Blitz engine.

use anyhow::Context;
use blitz::catalogue::Catalogue;
use blitz::scenario::{self, Report, Scenario};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(clap::Subcommand)]
enum Cmd {
    /// Replay a scenario file: print every action with its ruling, then the outcome.
    Replay {
        /// Scenario TOML (see models/scenarios/blitz/ and docs/blitz.md).
        file: PathBuf,
        /// Print the whole report as JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Replay every scenario in a folder and say which pass their expectations.
    Check {
        /// The folder of scenario TOML files (the shipped ones by default).
        #[arg(default_value = "models/scenarios/blitz")]
        dir: PathBuf,
        /// Print each scenario's verdict and the totals as JSON.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Cmd::Replay { file, json } => {
            let report = replay(&file)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print_report(&report);
            }
            Ok(if report.failures.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Cmd::Check { dir, json } => check(&crate::paths::shipped(&dir), json),
    }
}

/// Replays every scenario of `dir`: a line each (or JSON), failing when one fails or none is there.
fn check(dir: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the folder {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    anyhow::ensure!(
        !files.is_empty(),
        "{}: no scenario files (*.toml) to check",
        dir.display()
    );
    let mut failed = 0;
    let mut verdicts = Vec::new();
    for file in &files {
        let report = replay(file)?;
        let passed = report.failures.is_empty();
        if json {
            verdicts.push(serde_json::json!({
                "file": file, "name": report.name, "passed": passed,
                "actions": report.rulings.len(), "failures": report.failures,
            }));
        } else {
            println!(
                "{}  {}  ({} actions) {}",
                if passed { "pass" } else { "FAIL" },
                file.display(),
                report.rulings.len(),
                report.name
            );
            for f in &report.failures {
                println!("      {f}");
            }
        }
        failed += usize::from(!passed);
    }
    if json {
        let out = serde_json::json!({
            "scenarios": verdicts, "passed": files.len() - failed, "failed": failed,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!("{} passed, {failed} failed", files.len() - failed);
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Loads a scenario, its catalogue and runs it.
pub fn replay(file: &Path) -> anyhow::Result<Report> {
    let origin = file.display().to_string();
    let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {origin}"))?;
    let scenario = Scenario::from_toml(&origin, &text)?;
    let lines = scenario.lines(&origin, &text)?;
    let catalogue = match &scenario.catalogue {
        None => Catalogue::demo(),
        Some(rel) => {
            let path = file.parent().unwrap_or(Path::new(".")).join(rel);
            let shown = path.display().to_string();
            let cat_text = std::fs::read_to_string(&path)
                .with_context(|| format!("{origin}: cannot read the catalogue {shown}"))?;
            Catalogue::from_toml(&shown, &cat_text)?
        }
    };
    let (report, _) = scenario::run(&scenario, &lines, Arc::new(catalogue), &origin)?;
    Ok(report)
}

fn print_report(report: &Report) {
    println!("# {}", report.name);
    for r in &report.rulings {
        let verdict = if r.accepted {
            format!("ok: {}", r.text)
        } else {
            format!("ILLEGAL ({}): {}", r.rule.as_deref().unwrap_or("?"), r.text)
        };
        println!(
            "r{} · {} · {}: {} → {verdict}",
            r.round, r.step, r.actor, r.action
        );
    }
    println!("{}", report.prompt);
    if !report.failures.is_empty() {
        println!("\n{} expectation(s) failed:", report.failures.len());
        for f in &report.failures {
            println!("  {f}");
        }
    }
}
