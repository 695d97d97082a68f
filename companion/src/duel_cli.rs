//! `arbiter duel …`: check decks and catalogues, play seeded games between random legal players, and
//! play at the table (camera → engine; rendering and measuring synthetic scenes). The printable
//! faces are `arbiter print --game duel`.

use anyhow::Context;
use duel::catalogue::Catalogue;
use duel::selfplay::random_game;
use duel::{from_setup, parse_deck, Duel, Outcome, Profile, Setup};
use rules_core::Game;
use std::collections::BTreeMap;
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
    /// Check a deck file against its format (constructed / limited / commander).
    CheckDeck {
        /// Deck TOML (see models/catalogues/duel/deck-*.toml and docs/duel.md).
        file: PathBuf,
        /// Catalogue TOML; default: the shipped demo catalogue.
        #[arg(long)]
        catalogue: Option<PathBuf>,
        /// Limited only: the pool opened from packs (`[pool]` id = copies).
        #[arg(long)]
        pool: Option<PathBuf>,
        /// Rules profile TOML; default: models/catalogues/duel/profile.toml as shipped.
        #[arg(long)]
        profile: Option<PathBuf>,
        /// Print the result as JSON
        #[arg(long)]
        json: bool,
    },
    /// Validate a catalogue file and count its cards and keywords.
    CheckCatalogue {
        /// Default: the shipped demo catalogue.
        file: Option<PathBuf>,
        /// Print the result as JSON
        #[arg(long)]
        json: bool,
    },
    /// Play one game between two random legal players (seeded) and print the result.
    Selfplay {
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Deck for player A; default: the shipped 魏 demo deck.
        #[arg(long)]
        deck_a: Option<PathBuf>,
        /// Deck for player B; default: the shipped 吴群 demo deck.
        #[arg(long)]
        deck_b: Option<PathBuf>,
        #[arg(long)]
        catalogue: Option<PathBuf>,
        #[arg(long, default_value_t = 20_000)]
        max_actions: usize,
        /// Play this many games (seeds seed, seed+1, …) and print a summary line per game and totals.
        #[arg(long, default_value_t = 1)]
        games: u64,
        /// Print every action with the prompt it answered.
        #[arg(long)]
        log: bool,
        /// Print the result as JSON: each game's outcome and final state as player A sees it, and
        /// the totals.
        #[arg(long, conflicts_with = "log")]
        json: bool,
    },
    /// Play at the table: the camera reads both sides' 陣地 and territories and feeds the engine.
    Table(crate::duel_table::run::TableArgs),
    /// Render synthetic Duel table scenes (PNG + ground-truth JSON), or the scripted game's frames.
    RenderScene {
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 1)]
        count: u64,
        #[arg(long)]
        out: PathBuf,
        /// The scripted demo game (frames frame-NNNN.png) instead of random scenes.
        #[arg(long)]
        script: bool,
        /// Print the result as JSON
        #[arg(long)]
        json: bool,
    },
    /// Measure the table reading on random synthetic scenes (identity, 陣地, tapped, face-down, ms).
    EvalTable {
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 100)]
        scenes: usize,
        /// Where the camera stands (as for `arbiter eval-vision --camera`).
        #[arg(long, value_enum, default_value = "allied")]
        camera: crate::vision_cli::CameraArg,
        /// Whether the scenes have the printed mat: yes, no (the 陣地 from the units), or either.
        #[arg(long, value_enum, default_value = "either")]
        mat: crate::vision_cli::MatArg,
        /// Score the tables another compositor drew (models/detect/export_duel.py's folder, with
        /// manifest.json) instead of rendering scenes.
        #[arg(long)]
        scenes_dir: Option<PathBuf>,
        /// Print the summary and the rows by condition as JSON.
        #[arg(long)]
        json: bool,
        /// Also write each scene's outcome (how every card was read, its phantoms and wrong
        /// names) to FILE, one JSON line a scene, to look at the failures.
        #[arg(long, value_name = "FILE")]
        outcomes: Option<PathBuf>,
        #[command(flatten)]
        detector: crate::vision_cli::DetectorChoice,
    },
}

fn read(path: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

fn load_catalogue(path: Option<&Path>) -> anyhow::Result<Catalogue> {
    match path {
        None => Ok(Catalogue::demo()),
        Some(p) => Catalogue::parse(&p.display().to_string(), &read(p)?)
            .map_err(|e| anyhow::anyhow!("{e}")),
    }
}

fn load_profile(path: Option<&Path>) -> anyhow::Result<Profile> {
    match path {
        None => Ok(Profile::shipped()),
        Some(p) => {
            Profile::parse(&p.display().to_string(), &read(p)?).map_err(|e| anyhow::anyhow!("{e}"))
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    use crate::duel_table::run as table;
    match args.command {
        Cmd::Table(args) => table::table(args),
        Cmd::RenderScene {
            seed,
            count,
            out,
            script,
            json,
        } => table::render_scene(seed, count, &out, script, json),
        Cmd::EvalTable {
            seed,
            scenes,
            camera,
            mat,
            scenes_dir,
            json,
            outcomes,
            detector,
        } => {
            let card_detector = detector.card_detector(crate::vision_cli::DUEL_DETECTOR)?;
            let output = table::EvalOutput { json, outcomes };
            match scenes_dir {
                Some(dir) => table::eval_external(&dir, scenes, &output, card_detector),
                None => table::eval(
                    seed,
                    scenes,
                    camera.placements(),
                    mat.drawn(),
                    &output,
                    card_detector,
                ),
            }
        }
        Cmd::CheckDeck {
            file,
            catalogue,
            pool,
            profile,
            json,
        } => check_deck(
            &file,
            catalogue.as_deref(),
            pool.as_deref(),
            profile.as_deref(),
            json,
        ),
        Cmd::CheckCatalogue { file, json } => check_catalogue(file.as_deref(), json),
        Cmd::Selfplay {
            seed,
            deck_a,
            deck_b,
            catalogue,
            max_actions,
            games,
            log,
            json,
        } => {
            let cat = Arc::new(load_catalogue(catalogue.as_deref())?);
            let profile = Profile::shipped();
            let load =
                |path: &Option<PathBuf>, shipped: (&str, &str)| -> anyhow::Result<Vec<usize>> {
                    let (origin, text) = match path {
                        Some(p) => (p.display().to_string(), read(p)?),
                        None => (shipped.0.to_string(), shipped.1.to_string()),
                    };
                    Ok(parse_deck(&origin, &text, &cat, &profile, None)
                        .map_err(|e| anyhow::anyhow!("{e}"))?
                        .main)
                };
            let decks = [
                load(&deck_a, duel::DEMO_DECKS[0])?,
                load(&deck_b, duel::DEMO_DECKS[1])?,
            ];
            let mut unfinished = 0;
            let (mut wins, mut turns, mut actions) = ([0u64; 2], Vec::new(), Vec::new());
            let started = std::time::Instant::now();
            let mut played = Vec::new();
            for seed in seed..seed + games {
                let setup = Setup {
                    names: ["A".into(), "B".into()],
                    decks: decks.clone(),
                    seed,
                    first: None,
                    shuffle: true,
                };
                let start = from_setup(cat.clone(), profile.clone(), &setup)?;
                let record = random_game(start.clone(), seed, max_actions, log)?;
                if log {
                    print_log(start, &record.log)?;
                }
                let s = &record.state;
                let result = match record.outcome {
                    Some(Outcome::Winner(w)) => {
                        wins[w] += 1;
                        format!("{} wins", s.players[w].name)
                    }
                    Some(Outcome::Draw) => "a draw".to_string(),
                    None => {
                        unfinished += 1;
                        format!("no result after {max_actions} actions")
                    }
                };
                turns.push(s.turn);
                actions.push(record.actions);
                if json {
                    played.push(SelfplayGame {
                        seed,
                        outcome: record.outcome,
                        result,
                        turn: s.turn,
                        actions: record.actions,
                        life: [s.players[0].life, s.players[1].life],
                        view: duel::player_view(s, 0),
                    });
                    continue;
                }
                println!(
                    "seed {seed}: {result} on turn {} after {} actions; life A {} B {}",
                    s.turn, record.actions, s.players[0].life, s.players[1].life
                );
            }
            if json {
                let report = SelfplayReport {
                    games: played,
                    wins,
                    unfinished,
                };
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else if games > 1 {
                let mean = |v: &[usize]| v.iter().sum::<usize>() as f64 / v.len().max(1) as f64;
                let t: Vec<usize> = turns.iter().map(|&t| t as usize).collect();
                println!(
                    "{games} games: A won {}, B won {}, unfinished {unfinished}; turns mean {:.1} max {}; actions mean {:.1} max {}; {:.1} ms per game",
                    wins[0], wins[1], mean(&t), t.iter().max().unwrap_or(&0), mean(&actions), actions.iter().max().unwrap_or(&0),
                    started.elapsed().as_secs_f64() * 1000.0 / games as f64
                );
            }
            Ok(if unfinished == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
    }
}

/// What `duel selfplay --json` prints: every game, then the totals.
#[derive(serde::Serialize)]
struct SelfplayReport {
    games: Vec<SelfplayGame>,
    /// Games won by A and by B.
    wins: [u64; 2],
    /// Games that reached --max-actions without a result.
    unfinished: usize,
}

#[derive(serde::Serialize)]
struct SelfplayGame {
    seed: u64,
    /// `None`: no result within --max-actions.
    outcome: Option<Outcome>,
    /// The outcome in words, as the text output says it.
    result: String,
    turn: u32,
    actions: usize,
    life: [i32; 2],
    /// The final state as player A sees it.
    view: duel::view::PlayerView,
}

/// What `duel check-deck --json` prints: the deck's format, name and sizes when legal, else
/// every problem (file:line and card).
#[derive(serde::Serialize)]
struct DeckCheck<'a> {
    file: &'a Path,
    legal: bool,
    format: Option<duel::deck::Format>,
    name: Option<String>,
    main: Option<usize>,
    sideboard: Option<usize>,
    problems: Vec<String>,
}

fn check_deck(
    file: &Path,
    catalogue: Option<&Path>,
    pool: Option<&Path>,
    profile: Option<&Path>,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let cat = load_catalogue(catalogue)?;
    let profile = load_profile(profile)?;
    let pool = match pool {
        Some(p) => Some(
            duel::deck::parse_pool(&p.display().to_string(), &read(p)?, &cat)
                .map_err(|e| anyhow::anyhow!("{e}"))?,
        ),
        None => None,
    };
    let parsed = parse_deck(
        &file.display().to_string(),
        &read(file)?,
        &cat,
        &profile,
        pool.as_ref(),
    );
    let check = match &parsed {
        Ok(deck) => DeckCheck {
            file,
            legal: true,
            format: Some(deck.format),
            name: Some(deck.name.clone()),
            main: Some(deck.main.len()),
            sideboard: Some(deck.sideboard.len()),
            problems: Vec::new(),
        },
        Err(errors) => DeckCheck {
            file,
            legal: false,
            format: None,
            name: None,
            main: None,
            sideboard: None,
            problems: errors.0.iter().map(|e| e.to_string()).collect(),
        },
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&check)?);
    } else if let Ok(deck) = &parsed {
        println!(
            "{}: legal {} deck \"{}\": {} main, {} sideboard",
            file.display(),
            vision::eval::serde_name(&deck.format),
            deck.name,
            deck.main.len(),
            deck.sideboard.len()
        );
    } else {
        for p in &check.problems {
            println!("{p}");
        }
        println!("{}: {} problem(s)", file.display(), check.problems.len());
    }
    // An illegal deck is a failed check, also when the verdict is printed as JSON.
    Ok(if check.legal {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// What `duel check-catalogue --json` prints: card counts by faction and keyword.
#[derive(serde::Serialize)]
struct CatalogueCheck<'a> {
    /// `None`: the shipped demo catalogue.
    file: Option<&'a Path>,
    cards: usize,
    demo: bool,
    factions: BTreeMap<&'static str, usize>,
    keywords: BTreeMap<&'static str, usize>,
    /// Glossary keywords no card uses.
    unused: Vec<&'static str>,
}

/// What `duel check-catalogue --json` prints for a catalogue that does not load.
#[derive(serde::Serialize)]
struct CatalogueError<'a> {
    file: Option<&'a Path>,
    error: String,
}

fn check_catalogue(file: Option<&Path>, json: bool) -> anyhow::Result<ExitCode> {
    let cat = match load_catalogue(file) {
        Ok(c) => c,
        Err(e) => {
            if json {
                let failed = CatalogueError {
                    file,
                    error: format!("{e:#}"),
                };
                println!("{}", serde_json::to_string_pretty(&failed)?);
            } else {
                println!("{e:#}");
            }
            return Ok(ExitCode::FAILURE);
        }
    };
    const FACTIONS: [&str; 5] = ["wei", "shu", "wu", "qun", "neutral"];
    let factions: Vec<(&'static str, usize)> = FACTIONS
        .iter()
        .map(|&f| {
            let n = cat
                .cards
                .iter()
                .filter(|c| Some(c.faction) == duel::Faction::parse(f))
                .count();
            (f, n)
        })
        .collect();
    let keywords: Vec<(&'static str, usize)> = duel::GLOSSARY
        .iter()
        .map(|&k| {
            let n = cat
                .cards
                .iter()
                .filter(|c| c.keywords.iter().any(|x| x.name_zh() == k))
                .count();
            (k, n)
        })
        .collect();
    let unused: Vec<&'static str> = keywords
        .iter()
        .filter(|(_, n)| *n == 0)
        .map(|(k, _)| *k)
        .collect();
    if json {
        let check = CatalogueCheck {
            file,
            cards: cat.cards.len(),
            demo: cat.demo,
            factions: factions.iter().copied().collect(),
            keywords: keywords.iter().copied().collect(),
            unused,
        };
        println!("{}", serde_json::to_string_pretty(&check)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{} cards{}",
        cat.cards.len(),
        if cat.demo {
            " (DEMO catalogue: invented cards)"
        } else {
            ""
        }
    );
    for (f, n) in &factions {
        println!("  {f}: {n}");
    }
    let counts: Vec<String> = keywords.iter().map(|(k, n)| format!("{k}×{n}")).collect();
    println!("{}", counts.join(" "));
    if !unused.is_empty() {
        println!("keywords no card uses: {}", unused.join(" "));
    }
    Ok(ExitCode::SUCCESS)
}

/// Every action with the prompt it answered and what happened, with card names.
fn print_log(start: duel::State, log: &[(duel::Action, Vec<duel::Event>)]) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let mut s = start;
    for (action, events) in log {
        writeln!(
            out,
            "{} ⇒ {}",
            Duel::prompt(&s).text.zh,
            duel::view::describe_action(&s, action)
        )?;
        s = Duel::apply(&s, action)?.0;
        for e in events {
            writeln!(out, "    {}", duel::view::describe_event(&s, e))?;
        }
    }
    Ok(())
}
