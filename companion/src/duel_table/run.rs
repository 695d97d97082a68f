//! The `arbiter duel table|render-scene|eval-table` commands.

use super::data::GameData;
use super::feed::DuelFeed;
use super::panel::DuelTableApp;
use super::script::ScriptedTable;
use super::session::{Header, Step, TableSession};
use crate::live::allied::ImageEdge;
use crate::live::confirm::{at_start, AtStart, Confirm};
use crate::panel::feed::Feed;
use crate::table::source::{after_journal, SourceSpec, SOURCE_GRAMMAR};
use anyhow::Context;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use vision::games::duel::{duel_scanner, DuelSceneOptions, DuelSceneRenderer};
use vision::source::FrameSource;

/// Opens the source (synthetic: the scripted demo table, rendered), read for `cat`'s cards.
/// `resume_after`: the last frame a resumed journal holds (see [`after_journal`]).
pub fn open_source(
    spec: &SourceSpec,
    resume_after: Option<u64>,
    cat: &duel::Catalogue,
    card_detector: Option<vision::LearnedDetection>,
) -> anyhow::Result<DuelFeed> {
    let source: Box<dyn FrameSource> =
        match (spec.open_recorded_or_camera()?, spec.synthetic_seed()) {
            (Some(source), _) => source,
            (None, Some(seed)) => Box::new(ScriptedTable::new(seed)?),
            (None, None) => anyhow::bail!("--source {spec}: expected {SOURCE_GRAMMAR}"),
        };
    let source = after_journal(source, spec, resume_after);
    let scanner = duel_scanner(cat)?.with_card_detector(card_detector);
    Ok(DuelFeed::new(source, scanner, spec.to_string()))
}

/// How `arbiter duel table` was asked to run.
#[derive(clap::Args, Debug)]
pub struct TableArgs {
    /// camera:N, video:PATH, images:DIR or synthetic[:SEED] (a scripted demo table, rendered);
    /// synthetic when starting a game, none when resuming (the journal is replayed).
    #[arg(long)]
    pub source: Option<SourceSpec>,
    /// No window: print what was read, played and refused (also when there is no display).
    #[arg(long)]
    pub headless: bool,
    /// Shuffle seed of the engine's decks.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Catalogue TOML (see docs/duel.md); default: the shipped demo catalogue. Kept in the journal.
    #[arg(long, conflicts_with = "resume")]
    pub catalogue: Option<PathBuf>,
    /// The near player's deck TOML; default: the shipped 魏 demo deck. Kept in the journal.
    #[arg(long, conflicts_with = "resume")]
    pub deck_near: Option<PathBuf>,
    /// The far player's deck TOML; default: the shipped 吴群 demo deck. Kept in the journal.
    #[arg(long, conflicts_with = "resume")]
    pub deck_far: Option<PathBuf>,
    /// Also print each change the tracker commits.
    #[arg(long)]
    pub trace: bool,
    /// Without the mat: the edge of the camera picture the near player sits at (else the
    /// panel asks; headless, the bottom is taken).
    #[arg(long, value_enum)]
    pub near_side: Option<ImageEdge>,
    /// Journal the new game here (the panel keeps one in the player's data folder anyway).
    #[arg(long, conflicts_with = "resume")]
    pub journal: Option<PathBuf>,
    /// Continue the game in this journal.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// When a table the camera saw is taken: every (each waits for OK in the panel), stable (once
    /// the camera has seen it unchanged for a few frames), first-round (every, then the panel
    /// asks). Default: first-round in the window, stable headless. Kept in the journal.
    #[arg(long, value_enum)]
    pub confirm: Option<Confirm>,
    /// Headless: print one JSON summary at the end (the log, the refusals, the state) instead of
    /// the lines as they come.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub detector: crate::vision_cli::DetectorChoice,
}

/// Plays the demo decks at the table: the panel, or (headless) a log of what was read and ruled.
/// Every step is journalled before it is taken, so `--resume` continues a game a crash cut short.
pub fn table(args: TableArgs) -> anyhow::Result<ExitCode> {
    let headless = args.headless || args.json || !display_present();
    let confirm = at_start("duel table", args.confirm, headless, args.resume.is_none())?;
    let resumed = args
        .resume
        .as_deref()
        .map(TableSession::resume)
        .transpose()?;
    let source = args
        .source
        .clone()
        .or_else(|| resumed.is_none().then_some(SourceSpec::Synthetic(None)));
    // Check the data files and open the camera before a new journal is written, so a bad file or
    // a missing camera leaves nothing behind.
    let data = match &resumed {
        Some((_, header, _)) => header.data.clone(),
        None => GameData::from_files(
            args.catalogue.as_deref(),
            [args.deck_near.as_deref(), args.deck_far.as_deref()],
        )?,
    };
    let (cat, _) = data.clone().unwrap_or_else(GameData::demo).load()?;
    let resume_after = resumed.as_ref().and_then(|r| r.0.last_frame);
    let mut feed = source
        .as_ref()
        .map(|s| {
            open_source(
                s,
                resume_after,
                &cat,
                args.detector
                    .card_detector(crate::vision_cli::DUEL_DETECTOR)?,
            )
        })
        .transpose()?;
    let (mut session, resumed_steps) = match (resumed, &args.resume) {
        (Some((session, header, warning)), Some(path)) => {
            if let Some(w) = warning {
                eprintln!("warning: {w}");
            }
            if header.headless != headless {
                eprintln!(
                    "note: {} was played {}; it goes on {}",
                    path.display(),
                    if header.headless {
                        "headless"
                    } else {
                        "at the panel"
                    },
                    if headless { "headless" } else { "at the panel" }
                );
            }
            let steps = session.game.log.len();
            (session, Some(steps))
        }
        _ => {
            let journal = match (&args.journal, headless) {
                (Some(p), _) => Some(p.clone()),
                (None, false) => Some(crate::paths::new_journal("duel")?),
                (None, true) => None,
            };
            let header = Header::new(args.seed, headless, data);
            (TableSession::start(&header, journal.as_deref())?, None)
        }
    };
    session.game.auto_pass = headless;
    session.game.auto_pay = headless;
    match confirm {
        AtStart::Choose(c) if c != session.confirm => session.set_confirm(c),
        AtStart::Unattended => session.confirm = Confirm::Stable,
        _ => {}
    }
    if let Some(edge) = args.near_side.filter(|e| session.near_edge != Some(*e)) {
        session.step(Step::NearSide(edge));
    }
    if let Some(edge) = session.near_edge {
        if let Some(f) = feed.as_mut() {
            f.set_allied_towards(edge.towards());
        }
    }
    if let Some(p) = session.journal_path() {
        eprintln!(
            "journal: {} (continue with: arbiter duel table --resume {})",
            p.display(),
            p.display()
        );
    }
    if !headless {
        let Some(feed) = feed else {
            anyhow::bail!("--source is needed for the panel");
        };
        session.wait_for_near_side = true;
        let app = DuelTableApp::new(session, Some(Box::new(feed)));
        super::panel::run(app)?;
        return Ok(ExitCode::SUCCESS);
    }
    let say = |line: &str| {
        if !args.json {
            println!("{line}");
        }
    };
    let mut logged = 0;
    if let Some(n) = resumed_steps {
        for line in &session.game.log {
            say(line);
        }
        say(&format!(
            "-- resumed: {n} log lines replayed from the journal"
        ));
        logged = n;
    }
    let mut flagged = session.game.flags.len();
    if let Some(feed) = feed.as_mut() {
        while session.poll(feed) {
            if let Some(why) = &session.camera_lost {
                anyhow::bail!("{}: {why}", feed.describe());
            }
            if args.trace {
                for e in &session.last_events {
                    say(&format!("frame {}: table {e:?}", session.frames - 1));
                }
            }
            for line in &session.game.log[logged..] {
                say(line);
            }
            logged = session.game.log.len();
            for f in &session.game.flags[flagged..] {
                say(&format!(
                    "!! refused {} [{}]: {}",
                    f.action, f.rule, f.reason
                ));
            }
            flagged = session.game.flags.len();
            if let Some(e) = &session.journal_error {
                anyhow::bail!("{e}");
            }
        }
    }
    let s = &session.game.state;
    let scan_ms = feed.as_ref().map(|f| median(&f.scan_ms)).unwrap_or(0.0);
    if let (Some(f), 0) = (&feed, session.frames) {
        anyhow::bail!("{}: no frames", f.describe());
    }
    if args.json {
        let out = serde_json::json!({
            "frames": session.frames,
            "turn": s.turn,
            "phase": s.phase.en(),
            "life": s.players.iter().map(|p| serde_json::json!({"player": p.name, "life": p.life})).collect::<Vec<_>>(),
            "stack": s.stack.len(),
            "log": session.game.log,
            "refused": session.game.flags.iter().map(|f| serde_json::json!({
                "action": f.action.to_string(), "rule": f.rule.to_string(), "reason": f.reason.to_string(),
            })).collect::<Vec<_>>(),
            "notes": session.game.notes,
            "scan_median_ms": scan_ms,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(ExitCode::SUCCESS);
    }
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
        scan_ms
    );
    for n in &session.game.notes {
        println!("note: {n}");
    }
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

/// Random scenes `seed..seed+count` (image + truth JSON), or the scripted game's frames.
/// What `duel render-scene --json` prints: the files written and the seeds they were drawn from.
#[derive(serde::Serialize)]
struct Rendered<'a> {
    out: &'a Path,
    /// The scripted demo game's frames rather than random scenes.
    script: bool,
    seeds: Vec<u64>,
    images: Vec<PathBuf>,
    /// Ground truth, one file per random scene (the scripted game writes none).
    truths: Vec<PathBuf>,
}

pub fn render_scene(
    seed: u64,
    count: u64,
    out: &Path,
    script: bool,
    json: bool,
) -> anyhow::Result<ExitCode> {
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut rendered = Rendered {
        out,
        script,
        seeds: Vec::new(),
        images: Vec::new(),
        truths: Vec::new(),
    };
    if script {
        let mut table = ScriptedTable::new(seed)?;
        while let Some(frame) = table.next_frame()? {
            let path = out.join(format!("frame-{:04}.png", frame.index));
            vision::sheets::write_png(&path, &frame.image)?;
            rendered.images.push(path);
        }
        rendered.seeds.push(seed);
        if json {
            println!("{}", serde_json::to_string_pretty(&rendered)?);
        } else {
            println!(
                "{} scripted frames (seed {seed}) in {}",
                table.frames(),
                out.display()
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let renderer = DuelSceneRenderer::new(&duel::Catalogue::demo())?;
    for s in seed..seed + count {
        let scene = renderer.render(s, &DuelSceneOptions::default())?;
        let png = out.join(format!("duel-{s:05}.png"));
        vision::sheets::write_png(&png, &scene.image)?;
        let truth = out.join(format!("duel-{s:05}.json"));
        std::fs::write(&truth, serde_json::to_string_pretty(&scene.truth)?)
            .with_context(|| format!("cannot write {}", truth.display()))?;
        rendered.seeds.push(s);
        rendered.images.push(png);
        rendered.truths.push(truth);
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&rendered)?);
    } else {
        println!(
            "{count} scenes (seeds {seed}..{}) in {}",
            seed + count,
            out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads `scenes` random scenes and prints the accuracy summary (JSON).
pub fn eval(
    seed: u64,
    scenes: usize,
    placements: Vec<vision::scene::Placement>,
    aruco_mat: Option<bool>,
    output: &EvalOutput,
    card_detector: Option<vision::LearnedDetection>,
) -> anyhow::Result<ExitCode> {
    let cat = duel::Catalogue::demo();
    let renderer = DuelSceneRenderer::new(&cat)?;
    let mut scanner = duel_scanner(&cat)?.with_card_detector(card_detector);
    let outcomes = vision::games::duel::run(
        &renderer,
        &mut scanner,
        seed,
        scenes,
        &DuelSceneOptions {
            placements,
            aruco_mat,
            ..DuelSceneOptions::default()
        },
        |_, _, _| {},
    )?;
    report(&outcomes, seed, "scene.rs", output)
}

/// Scores the first `limit` tables of another compositor's folder.
pub fn eval_external(
    dir: &Path,
    limit: usize,
    output: &EvalOutput,
    card_detector: Option<vision::LearnedDetection>,
) -> anyhow::Result<ExitCode> {
    let cat = duel::Catalogue::demo();
    let mut scanner = duel_scanner(&cat)?.with_card_detector(card_detector);
    let mut scenes = vision::games::duel::load_scenes(dir)?;
    scenes.truncate(limit);
    anyhow::ensure!(
        !scenes.is_empty(),
        "{}: the manifest lists no scenes",
        dir.display()
    );
    let first = scenes[0].seed;
    let outcomes = vision::games::duel::run_external(&mut scanner, dir, &scenes, |_, _, _| {})?;
    report(&outcomes, first, &dir.display().to_string(), output)
}

/// Where an evaluation's results go.
pub struct EvalOutput {
    /// The summary and the rows by condition as JSON (else a table).
    pub json: bool,
    /// Each scene's outcome as a JSON line.
    pub outcomes: Option<PathBuf>,
}

fn report(
    outcomes: &[vision::games::duel::DuelOutcome],
    first_seed: u64,
    source: &str,
    output: &EvalOutput,
) -> anyhow::Result<ExitCode> {
    if let Some(path) = &output.outcomes {
        crate::table::files::write_json_lines(path, outcomes)?;
    }
    let json = output.json;
    let summary = vision::games::duel::summarise(outcomes, first_seed);
    let rows = vision::games::duel::by_condition(outcomes);
    if json {
        let out =
            serde_json::json!({ "scenes_from": source, "summary": summary, "by_condition": rows });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{} scenes from {source} (first seed {first_seed}), {} visible cards, {} wrong names, \
         {} without the mat, {} unframed; {:.1} ms median, {:.1} p95",
        summary.scenes,
        summary.visible_cards,
        summary.wrong_named,
        summary.scenes_without_mat,
        summary.scenes_unframed,
        summary.median_ms,
        summary.p95_ms
    );
    println!(
        "{:<10} {:<12} {:>6} {:>6} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "axis",
        "value",
        "scenes",
        "cards",
        "named%",
        "slot%",
        "shift%",
        "terr%",
        "tapped%",
        "down%"
    );
    let all = vision::games::duel::DuelConditionRow {
        axis: "all".into(),
        value: String::new(),
        summary,
    };
    for r in std::iter::once(&all).chain(&rows) {
        let s = &r.summary;
        let pct = |x: f64| 100.0 * x;
        println!(
            "{:<10} {:<12} {:>6} {:>6} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>8.2}",
            r.axis,
            r.value,
            s.scenes,
            s.visible_cards,
            pct(s.identity),
            pct(s.slot),
            pct(s.slot_up_to_shift),
            pct(s.territory_side),
            pct(s.tapped),
            pct(s.face_down)
        );
    }
    Ok(ExitCode::SUCCESS)
}
