//! The `arbiter duel table|print|render-scene|eval-table` commands.

use super::adapter::TableGame;
use super::feed::DuelFeed;
use super::panel::DuelTableApp;
use super::script::ScriptedTable;
use super::session::TableSession;
use crate::live::source::open_frame_source;
use anyhow::Context;
use std::path::Path;
use std::process::ExitCode;
use vision::games::duel::{duel_scanner, DuelSceneOptions, DuelSceneRenderer};
use vision::source::FrameSource;

/// Opens camera:N, video:PATH, images:PATH or synthetic[:SEED] (the scripted demo table).
pub fn open_source(spec: &str) -> anyhow::Result<DuelFeed> {
    let (kind, arg) = spec.split_once(':').unwrap_or((spec, ""));
    let source: Box<dyn FrameSource> = match open_frame_source(spec, kind, arg)? {
        Some(source) => source,
        None if kind == "synthetic" => {
            let seed = if arg.is_empty() {
                1
            } else {
                arg.parse()
                    .with_context(|| format!("--source {spec:?}: seed"))?
            };
            Box::new(ScriptedTable::new(seed)?)
        }
        None => anyhow::bail!(
            "--source {spec:?}: expected camera:N, video:PATH, images:PATH or synthetic[:SEED]"
        ),
    };
    let scanner = duel_scanner(&duel::Catalogue::demo())?;
    Ok(DuelFeed::new(source, scanner, spec.to_string()))
}

/// Plays the demo decks at the table: the panel, or (headless) a log of what was read and ruled.
pub fn table(source: &str, headless: bool, seed: u64, trace: bool) -> anyhow::Result<ExitCode> {
    let mut feed = open_source(source)?;
    let mut game = TableGame::demo(seed)?;
    if headless || !display_present() {
        // Nobody to press buttons: nobody responds, and an unclear payment takes the engine's way.
        game.auto_pass = true;
        game.auto_pay = true;
        let mut session = TableSession::new(game);
        let (mut logged, mut flagged) = (0, 0);
        while session.poll(&mut feed) {
            if let Some(why) = &session.camera_lost {
                anyhow::bail!("{source}: {why}");
            }
            if trace {
                for e in &session.last_events {
                    println!("frame {}: table {e:?}", session.frames - 1);
                }
            }
            for line in &session.game.log[logged..] {
                println!("{line}");
            }
            logged = session.game.log.len();
            for f in &session.game.flags[flagged..] {
                println!("!! refused {} [{}]: {}", f.action, f.rule, f.reason);
            }
            flagged = session.game.flags.len();
        }
        let s = &session.game.state;
        println!(
            "{} frames; turn {} {}; life {} {} / {} {}; stack {}; {} refused; scan median {:.1} ms",
            session.frames,
            s.turn,
            s.phase.en(),
            s.players[0].name,
            s.players[0].life,
            s.players[1].name,
            s.players[1].life,
            s.stack.len(),
            session.game.flags.len(),
            median(&feed.scan_ms)
        );
        for n in &session.game.notes {
            println!("note: {n}");
        }
        if session.frames == 0 {
            anyhow::bail!("{source}: no frames");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let app = DuelTableApp::new(TableSession::new(game), Some(Box::new(feed)));
    super::panel::run(app)?;
    Ok(ExitCode::SUCCESS)
}

fn display_present() -> bool {
    std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some()
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

pub fn print(out: &Path) -> anyhow::Result<ExitCode> {
    let written = vision::games::duel::write_print_set(&duel::Catalogue::demo(), out)?;
    println!("{} files written to {}", written.len(), out.display());
    Ok(ExitCode::SUCCESS)
}

/// Random scenes `seed..seed+count` (image + truth JSON), or the scripted game's frames.
pub fn render_scene(seed: u64, count: u64, out: &Path, script: bool) -> anyhow::Result<ExitCode> {
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    if script {
        let mut table = ScriptedTable::new(seed)?;
        while let Some(frame) = table.next_frame()? {
            let path = out.join(format!("frame-{:04}.png", frame.index));
            vision::sheets::write_png(&path, &frame.image)?;
        }
        println!(
            "{} scripted frames (seed {seed}) in {}",
            table.frames(),
            out.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let renderer = DuelSceneRenderer::new(&duel::Catalogue::demo())?;
    for s in seed..seed + count {
        let scene = renderer.render(s, &DuelSceneOptions::default())?;
        let png = out.join(format!("duel-{s:05}.png"));
        vision::sheets::write_png(&png, &scene.image)?;
        let json = out.join(format!("duel-{s:05}.json"));
        std::fs::write(&json, serde_json::to_string_pretty(&scene.truth)?)
            .with_context(|| format!("cannot write {}", json.display()))?;
    }
    println!(
        "{count} scenes (seeds {seed}..{}) in {}",
        seed + count,
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Reads `scenes` random scenes and prints the accuracy summary (JSON).
pub fn eval(
    seed: u64,
    scenes: usize,
    placements: Vec<vision::scene::Placement>,
) -> anyhow::Result<ExitCode> {
    let cat = duel::Catalogue::demo();
    let renderer = DuelSceneRenderer::new(&cat)?;
    let scanner = duel_scanner(&cat)?;
    let outcomes = vision::games::duel::run(
        &renderer,
        &scanner,
        seed,
        scenes,
        &DuelSceneOptions {
            placements,
            ..DuelSceneOptions::default()
        },
        |_, _, _| {},
    )?;
    let summary = vision::games::duel::summarise(&outcomes, seed);
    println!("{}", serde_json::to_string_pretty(&summary)?);
    Ok(ExitCode::SUCCESS)
}
