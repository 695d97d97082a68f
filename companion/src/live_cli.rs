//! `arbiter demo` and `arbiter play`: live Blitz through tracker → adapter → engine, in the window or
//! headless.

use crate::live::blitz::{Header, Session};
use crate::live::confirm::{at_start, AtStart, Confirm};
use crate::live::demo::{beats, DemoFeed, GroundTruth, Recognizer};
use crate::live::runner::Runner;
use crate::live::tracker::{Tracker, TrackerConfig};
use crate::panel::feed::{Feed, FeedStatus};
use anyhow::Context;
use blitz::catalogue::Catalogue;
use blitz::scenario::Scenario;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

pub const DEMO_ORIGIN: &str = "models/scenarios/blitz/demo-2p.toml";
pub const DEMO_TOML: &str = include_str!("../../models/scenarios/blitz/demo-2p.toml");

#[derive(clap::Args)]
pub struct DemoArgs {
    /// Print each recognised action and ruling instead of opening the window (also without a display).
    #[arg(long)]
    pub headless: bool,
    /// Keep the game's journal here (resume it with `arbiter play --resume FILE`).
    #[arg(long)]
    pub journal: Option<PathBuf>,
    /// Stop after this many frames (to test a crash mid-game).
    #[arg(long)]
    pub max_frames: Option<u64>,
    /// Print a JSON summary at the end.
    #[arg(long)]
    pub json: bool,
    /// Skip the renderer and the vision pipeline: report each table exactly as laid (tests the
    /// tracker, adapter and engine alone).
    #[arg(long)]
    pub ground_truth: bool,
    /// Seed of the synthetic camera (background, tilt, light, lens) for the whole game.
    #[arg(long, default_value_t = 2)]
    pub camera_seed: u64,
    /// Wait this long between frames (a camera's pace; 0 replays as fast as possible).
    #[arg(long, default_value_t = 0)]
    pub frame_delay_ms: u64,
    #[command(flatten)]
    pub identifier: crate::vision_cli::IdentifierChoice,
}

#[derive(clap::Args)]
pub struct PlayArgs {
    /// The game (only blitz has a live panel so far).
    #[arg(long, default_value = "blitz")]
    pub game: String,
    /// Continue the game in this journal.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Start a new game with this journal file.
    #[arg(long, default_value = "arbiter-game.jsonl")]
    pub journal: PathBuf,
    /// Factions by seat, e.g. us,ss or us,ss,uk,wh.
    #[arg(long, default_value = "us,ss", value_delimiter = ',')]
    pub players: Vec<String>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Finish the replay without a window and print the rulings.
    #[arg(long)]
    pub headless: bool,
    /// Where frames come from: camera:N (webcam N), video:PATH, images:DIR (a folder or one
    /// image); a rendered table is `arbiter demo`.
    #[arg(long)]
    pub source: Option<crate::table::source::SourceSpec>,
    /// The table has the printed ArUco play-mat (otherwise the grid is fitted from the front line).
    #[arg(long)]
    pub mat: bool,
    /// Which edge of the camera picture the Allied player sits at, for when the cards cannot tell
    /// (otherwise the panel asks); kept in the journal.
    #[arg(long, value_enum)]
    pub allied_side: Option<crate::live::allied::ImageEdge>,
    /// When a change seen on the table is committed: every (each waits for OK in the panel),
    /// stable (once the camera has seen it unchanged for a few frames), first-round (every, then
    /// the panel asks). Default: first-round in the window, stable headless. Kept in the journal.
    #[arg(long, value_enum)]
    pub confirm: Option<crate::live::confirm::Confirm>,
    /// Catalogue TOML of the cards at the table (default: the shipped demo catalogue); named in
    /// the journal, which a resumed game checks it against.
    #[arg(long, conflicts_with = "resume")]
    pub catalogue: Option<std::path::PathBuf>,
    /// Rules profile TOML (default: models/profiles/blitz.toml as shipped); kept in the journal.
    #[arg(long, conflicts_with = "resume")]
    pub profile: Option<std::path::PathBuf>,
    /// Print the result as JSON (headless: the rulings and where the game stands)
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub identifier: crate::vision_cli::IdentifierChoice,
}

/// What `play --headless --json` prints: the game's journal, what was read, every ruling, and
/// where the game stands.
#[derive(serde::Serialize)]
struct PlaySummary<'a> {
    journal: &'a std::path::Path,
    /// `None`: a journal replayed without a camera.
    source: Option<String>,
    frames: u64,
    /// How fast the live loop (read, scan, track, rule; no window) went through the frames.
    speed: Option<LoopSpeed>,
    rulings: &'a [crate::live::blitz::Ruling],
    outcome: &'a Option<blitz::state::Outcome>,
    prompt: rules_core::Prompt,
}

/// The headless live loop's pace: frames a second over the whole run and each frame's time, beside
/// the rate the video was recorded at (the loop keeps up when it reads faster than that).
#[derive(serde::Serialize)]
struct LoopSpeed {
    frames: usize,
    seconds: f64,
    frames_per_second: f64,
    frame_ms: vision::eval::StageStats,
    recorded_frames_per_second: Option<f64>,
}

impl LoopSpeed {
    fn new(frame_ms: Vec<f64>, seconds: f64, recorded: Option<f64>) -> Option<LoopSpeed> {
        (!frame_ms.is_empty() && seconds > 0.0).then(|| LoopSpeed {
            frames: frame_ms.len(),
            seconds,
            frames_per_second: frame_ms.len() as f64 / seconds,
            frame_ms: vision::eval::stats(frame_ms),
            recorded_frames_per_second: recorded,
        })
    }

    fn line(&self) -> String {
        let pace = match self.recorded_frames_per_second {
            Some(rate) if self.frames_per_second >= rate => {
                format!(" (recorded at {rate:.1}: keeps up)")
            }
            Some(rate) => format!(" (recorded at {rate:.1}: falls behind)"),
            None => String::new(),
        };
        format!(
            "live loop without a window: {} frames in {:.1} s, {:.1} frames a second{pace}; \
             a frame {:.1} ms median, {:.1} ms p95",
            self.frames,
            self.seconds,
            self.frames_per_second,
            self.frame_ms.median_ms,
            self.frame_ms.p95_ms
        )
    }
}

/// Opens a camera, video or images source and reads its first frame.
fn open_source(
    spec: &crate::table::source::SourceSpec,
    mat: bool,
    cols: u8,
    identifier: &crate::vision_cli::IdentifierChoice,
    catalogue: &Catalogue,
) -> anyhow::Result<Box<dyn Feed>> {
    let source = spec.open("`arbiter demo` plays a rendered table")?;
    let options = vision::ScannerOptions {
        use_mat: mat,
        cols,
        ..vision::ScannerOptions::default()
    };
    // The faces are designed once for both the classical references and the model.
    let designs = vision::distinct::blitz_designs(&catalogue.cards)?;
    let refs = vision::identify::ReferenceSet::from_designs(&designs)?;
    let scanner = identifier.detector.added_to(
        vision::Scanner::with_refs(catalogue, refs, options)
            .with_identifier(identifier.load(&designs)?),
        crate::vision_cli::BLITZ_DETECTOR,
    )?;
    let mut feed = crate::live::vision_feed::VisionFeed::new(source, scanner, spec.to_string());
    // Read the first frame now: a source that cannot deliver is an error before any game is written.
    let first = match feed.poll() {
        FeedStatus::Lost(why) => anyhow::bail!("{spec}: {why}"),
        status => status,
    };
    Ok(Box::new(Primed {
        first: Some(first),
        inner: feed,
    }))
}

/// A feed whose first frame was already read (to check the source works).
struct Primed<F: Feed> {
    first: Option<FeedStatus>,
    inner: F,
}

impl<F: Feed> Feed for Primed<F> {
    fn poll(&mut self) -> FeedStatus {
        self.first.take().unwrap_or_else(|| self.inner.poll())
    }

    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn set_allied_towards(&mut self, towards: [f64; 2]) {
        self.inner.set_allied_towards(towards);
    }

    fn frames_per_second(&self) -> Option<f64> {
        self.inner.frames_per_second()
    }
}

fn runner_cols(session: &Session) -> u8 {
    session.state.geometry.width as u8
}

fn display_present() -> bool {
    std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some()
}

/// The demo scenario, the shadow engine's beats and the actions a perfect recognition would find.
pub fn demo_feed(
    recognizer: Box<dyn Recognizer>,
) -> anyhow::Result<(DemoFeed, Vec<String>, Scenario)> {
    let scenario = Scenario::from_toml(DEMO_ORIGIN, DEMO_TOML)?;
    let lines = scenario.lines(DEMO_ORIGIN, DEMO_TOML)?;
    let (beats, accepted) = beats(&scenario, &lines, Arc::new(Catalogue::demo()))?;
    Ok((DemoFeed::new(beats, recognizer), accepted, scenario))
}

pub fn demo_session(
    scenario: &Scenario,
    journal: Option<&std::path::Path>,
) -> anyhow::Result<Session> {
    let header = Header {
        game: "blitz".into(),
        players: scenario.players.clone(),
        seed: scenario.seed,
        profile: scenario.profile.clone().unwrap_or_default(),
        stacked_decks: Vec::new(),
        hidden_hands: true,
        catalogue: None,
    };
    Session::new(header, Arc::new(Catalogue::demo()), journal)
}

pub fn demo(args: DemoArgs) -> anyhow::Result<ExitCode> {
    let recognizer: Box<dyn Recognizer> = if args.ground_truth {
        Box::new(GroundTruth)
    } else {
        Box::new(
            crate::live::vision_feed::Rendered::new(Catalogue::demo(), args.camera_seed, 4)?
                .with_identifier(
                    args.identifier
                        .load(&vision::distinct::blitz_designs(&Catalogue::demo().cards)?)?,
                )
                .with_card_detector(
                    args.identifier
                        .detector
                        .card_detector(crate::vision_cli::BLITZ_DETECTOR)?,
                ),
        )
    };
    let (mut feed, script, scenario) = demo_feed(recognizer)?;
    let session = demo_session(&scenario, args.journal.as_deref())?;
    let mut runner = Runner::new(session, Tracker::new(TrackerConfig::default()));
    if !args.headless && display_present() {
        let mut app = crate::panel::BlitzApp::new(runner, Some(Box::new(feed)));
        app.replay_fps = 12.0;
        crate::panel::run(app, "Arbiter · 死亡前线-闪电战 demo")?;
        return Ok(ExitCode::SUCCESS);
    }
    let started = Instant::now();
    let mut printed = 0;
    while !runner.ended {
        if args.max_frames.is_some_and(|m| runner.frames >= m) {
            break;
        }
        runner.poll(&mut feed);
        if args.frame_delay_ms > 0 {
            std::thread::sleep(std::time::Duration::from_millis(args.frame_delay_ms));
        }
        for r in &runner.session.rulings[printed..] {
            let verdict = if r.accepted {
                "ok".to_string()
            } else {
                format!("ILLEGAL ({})", r.rule.as_deref().unwrap_or("?"))
            };
            if !args.json {
                println!(
                    "frame {:>4} · r{} {}: {} → {verdict}: {}",
                    runner.frames, r.round, r.who, r.action, r.text
                );
            }
        }
        printed = runner.session.rulings.len();
    }
    let elapsed = started.elapsed();
    let recognised: Vec<String> = runner
        .session
        .rulings
        .iter()
        .filter(|r| r.accepted && !r.action.is_empty())
        .map(|r| r.action.clone())
        .collect();
    let mut latency_frames: Vec<u32> = runner.latencies.iter().map(|l| l.0).collect();
    latency_frames.sort_unstable();
    let mut latency_us: Vec<u128> = runner.latencies.iter().map(|l| l.1.as_micros()).collect();
    latency_us.sort_unstable();
    let median = |v: &[u128]| v.get(v.len() / 2).copied().unwrap_or(0);
    let fps = runner.frames as f64 / elapsed.as_secs_f64().max(1e-9);
    let prompt = blitz::prompt(&runner.session.state);
    let summary = serde_json::json!({
        "frames": runner.frames,
        "recognised_actions": recognised.len(),
        "script_actions": script.len(),
        "matches_script": recognised == script,
        "outcome": runner.session.state.outcome,
        "latency_frames_median": latency_frames.get(latency_frames.len() / 2),
        "latency_ms_median": median(&latency_us) as f64 / 1000.0,
        "loop_fps": fps,
        "prompt": prompt.text.en,
    });
    if args.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        println!("\n{}", prompt.text);
        println!(
            "{} frames, {} actions recognised ({} in the script, {}), placement→ruling latency median {} frames / {:.2} ms, loop {:.0} frames/s",
            runner.frames,
            recognised.len(),
            script.len(),
            if recognised == script { "identical" } else { "DIFFERENT" },
            summary["latency_frames_median"],
            median(&latency_us) as f64 / 1000.0,
            fps
        );
    }
    let complete = runner.ended && recognised == script;
    Ok(if complete || args.max_frames.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

pub fn play(args: PlayArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        args.game == "blitz",
        "only blitz has a live panel so far (got {:?})",
        args.game
    );
    // Headless with nothing to read and nothing to replay would only write an empty game.
    let headless = args.headless || !display_present();
    anyhow::ensure!(
        args.source.is_some() || args.resume.is_some() || !headless,
        "play --headless: nothing to read; give --source (camera:N, video:PATH, images:DIR) or \
         --resume FILE to replay a journal's rulings"
    );
    let confirm = at_start("play", args.confirm, headless, args.resume.is_none())?;
    let (catalogue_file, catalogue) = match &args.catalogue {
        Some(path) => {
            let (file, catalogue) = crate::live::blitz::CatalogueFile::load(path)?;
            (Some(file), Arc::new(catalogue))
        }
        None => (None, Arc::new(Catalogue::demo())),
    };
    let profile = match &args.profile {
        Some(path) => {
            let shown = path.display().to_string();
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the profile {shown}"))?;
            blitz::Profile::from_toml(&shown, &text)?
        }
        None => blitz::Profile::default(),
    };
    // Open the camera before a new journal is written, so a missing camera leaves nothing behind.
    let early_cols = if args.players.len() == 4 { 5 } else { 4 };
    let mut feed = match (&args.source, &args.resume) {
        (Some(s), None) => Some(open_source(
            s,
            args.mat,
            early_cols,
            &args.identifier,
            &catalogue,
        )?),
        _ => None,
    };
    let session = match &args.resume {
        Some(path) => {
            let (session, warning) = Session::resume(path, catalogue)?;
            if let Some(w) = warning {
                eprintln!("arbiter: warning: {w}");
            }
            session
        }
        None => {
            let players = args
                .players
                .iter()
                .map(|p| {
                    blitz::scenario::parse_faction(p)
                        .with_context(|| format!("unknown faction {p:?} (us, uk, ss, wh)"))
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            let header = Header {
                game: "blitz".into(),
                players,
                seed: args.seed,
                profile,
                stacked_decks: Vec::new(),
                hidden_hands: true,
                catalogue: catalogue_file,
            };
            Session::new(header, catalogue, Some(&args.journal))?
        }
    };
    if let (Some(s), Some(_)) = (&args.source, &args.resume) {
        feed = Some(open_source(
            s,
            args.mat,
            runner_cols(&session),
            &args.identifier,
            &session.catalogue,
        )?);
    }
    let mut session = session;
    if let Some(edge) = args.allied_side {
        session.set_allied_edge(edge);
    }
    match confirm {
        AtStart::Choose(c) if c != session.confirm => session.set_confirm(c),
        AtStart::Unattended => session.confirm = Confirm::Stable,
        _ => {}
    }
    if let (Some(edge), Some(feed)) = (session.allied_edge, feed.as_mut()) {
        feed.set_allied_towards(edge.towards());
    }
    let mut runner = Runner::new(session, Tracker::new(TrackerConfig::default()));
    if headless {
        let mut speed = None;
        if let Some(feed) = feed.as_mut() {
            let started = std::time::Instant::now();
            let mut frame_ms = Vec::new();
            while !runner.ended {
                let t = std::time::Instant::now();
                if runner.poll(feed.as_mut()) {
                    frame_ms.push(t.elapsed().as_secs_f64() * 1000.0);
                }
                if let Some(why) = &runner.camera_lost {
                    anyhow::bail!("{}: {why}", feed.describe());
                }
            }
            let seconds = started.elapsed().as_secs_f64();
            speed = LoopSpeed::new(frame_ms, seconds, feed.frames_per_second());
        }
        if args.json {
            let summary = PlaySummary {
                journal: args.resume.as_deref().unwrap_or(&args.journal),
                source: args.source.as_ref().map(|s| s.to_string()),
                frames: runner.frames,
                speed,
                rulings: &runner.session.rulings,
                outcome: &runner.session.state.outcome,
                prompt: blitz::prompt(&runner.session.state),
            };
            println!("{}", serde_json::to_string_pretty(&summary)?);
            return Ok(ExitCode::SUCCESS);
        }
        for r in &runner.session.rulings {
            let verdict = if r.accepted {
                "ok".into()
            } else {
                format!("ILLEGAL ({})", r.rule.as_deref().unwrap_or("?"))
            };
            println!(
                "r{} {}: {} → {verdict}: {}",
                r.round, r.who, r.action, r.text
            );
        }
        println!("{}", blitz::prompt(&runner.session.state).text);
        if let Some(speed) = &speed {
            println!("{}", speed.line());
        }
        return Ok(ExitCode::SUCCESS);
    }
    crate::panel::run(
        crate::panel::BlitzApp::new(runner, feed),
        "Arbiter · 死亡前线-闪电战",
    )?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A recorded source at 25 frames a second that ends at once.
    struct Recorded;

    impl Feed for Recorded {
        fn poll(&mut self) -> FeedStatus {
            FeedStatus::Ended
        }
        fn describe(&self) -> String {
            "recorded".into()
        }
        fn frames_per_second(&self) -> Option<f64> {
            Some(25.0)
        }
    }

    #[test]
    fn a_primed_feed_still_says_its_recorded_rate_and_the_pace_line_compares_with_it() {
        let primed = Primed {
            first: Some(FeedStatus::Ended),
            inner: Recorded,
        };
        assert_eq!(primed.frames_per_second(), Some(25.0));
        let fast = LoopSpeed::new(vec![10.0; 50], 0.5, Some(25.0)).expect("frames were read");
        assert!(fast.line().contains("keeps up"), "{}", fast.line());
        let slow = LoopSpeed::new(vec![80.0; 10], 0.8, Some(25.0)).expect("frames were read");
        assert!(slow.line().contains("falls behind"), "{}", slow.line());
        assert!(LoopSpeed::new(Vec::new(), 0.0, None).is_none());
    }
}
