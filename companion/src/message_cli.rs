//! `arbiter message …`: rule on a transmission chain at the table, check the data files, and play
//! seeded random games. The printable faces and seat cards are `arbiter print --game message`.

use crate::message_table::data::CatalogueFiles;
use crate::table::files::DataText;
use crate::table::source::SourceSpec;
use anyhow::Context;
use message::chain::{parse_response, rule_chain, ChainRequest, Ruling};
use message::describe::describe;
use message::profile::parse_profile;
use message::selfplay::random_game;
use message::tally::{announce, SeatTally};
use message::{player_view, Catalogue, Method, Outcome, Profile, Setup, State};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(clap::Args)]
struct DataArgs {
    /// Deck TOML; default: the shipped models/catalogues/message/deck.toml.
    #[arg(long)]
    deck: Option<PathBuf>,
    /// Character TOML; default: the shipped demo characters.
    #[arg(long)]
    characters: Option<PathBuf>,
    /// Identity table TOML; default: the shipped seed table.
    #[arg(long)]
    identities: Option<PathBuf>,
    /// Rules profile TOML; default: models/catalogues/message/profile.toml as shipped.
    #[arg(long)]
    profile: Option<PathBuf>,
}

#[derive(clap::Subcommand)]
enum Cmd {
    /// Who receives an intelligence: sender, method and the responses in the order played.
    Chain {
        /// Players at the table (3-9), seats numbered 1..N in passing order (to the right).
        #[arg(long)]
        players: usize,
        /// Seat of the sender (1-based).
        #[arg(long)]
        sender: usize,
        /// 密电 | 直达 | 文本 (or secret | direct | text).
        #[arg(long)]
        method: String,
        /// For 直达: the seat it is sent to.
        #[arg(long)]
        target: Option<usize>,
        /// SEAT:CARD or SEAT:CARD:TARGET in the order played, e.g. 3:截获, 1:锁定:4, 2:退回,
        /// 5:识破, 2:接收 (accept), 2:拒绝 (refuse). Repeat the option.
        #[arg(long = "response")]
        responses: Vec<String>,
        #[arg(long)]
        json: bool,
    },
    /// What to announce from the face-up intelligence in front of each seat (death at 3 black, a
    /// possible victory at 3 red / 3 blue). One --seat per seat, in seat order: 红红黑, rrk, or "".
    Tally {
        #[arg(long = "seat")]
        seats: Vec<String>,
        #[arg(long)]
        json: bool,
        /// Rules profile TOML (message.death_before_win); default: as shipped.
        #[arg(long)]
        profile: Option<PathBuf>,
    },
    /// At the table: read each seat's face-up intelligence with the camera, keep the tally and
    /// announce deaths and possible victories (the panel also rules on transmission chains).
    Table(Box<TableArgs>),
    /// Render a synthetic table scene (image, ground truth, seat regions) from a seed; with --game,
    /// the frames of a game in progress (one card arriving every few frames).
    RenderScene {
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        out: PathBuf,
        /// Render a game in progress: frame-0000.png … instead of one scene.png.
        #[arg(long)]
        game: bool,
        /// Colours in front of each seat, comma-separated, e.g. kkk,rr,urr (r red, u blue, k black).
        #[arg(long)]
        script: Option<String>,
        /// Players (3-9) of a random table.
        #[arg(long)]
        seats: Option<usize>,
        #[arg(long, default_value_t = 1920)]
        width: i32,
        #[arg(long, default_value_t = 1080)]
        height: i32,
        /// Print the result as JSON
        #[arg(long)]
        json: bool,
    },
    /// Measure the table reading on synthetic scenes (identity, colour, seat, time per frame).
    Eval {
        #[arg(long, default_value_t = 100)]
        scenes: usize,
        #[arg(long, default_value_t = 1000)]
        seed: u64,
        #[arg(long)]
        json: bool,
        /// Lay every row side by side (by default about a third of the rows are fanned, overlapping).
        #[arg(long)]
        no_overlap: bool,
        /// Lay each seat's seat card and read the seats from them.
        #[arg(long)]
        seat_cards: bool,
        /// Where the camera stands (as for `arbiter eval-vision --camera`).
        #[arg(long, value_enum, default_value = "allied")]
        camera: crate::vision_cli::CameraArg,
        /// Score the tables another compositor drew (models/detect/export_message.py's folder,
        /// with manifest.json; seats from the seat cards) instead of rendering scenes.
        #[arg(long)]
        scenes_dir: Option<PathBuf>,
        /// Also write each scene's outcome (how every card was read, its phantoms) to FILE, one
        /// JSON line a scene, to look at the failures.
        #[arg(long, value_name = "FILE")]
        outcomes: Option<PathBuf>,
        #[command(flatten)]
        detector: crate::vision_cli::DetectorChoice,
    },
    /// Validate the deck, character, identity and profile files and summarise them.
    Check {
        #[command(flatten)]
        data: DataArgs,
        /// Print the result as JSON
        #[arg(long)]
        json: bool,
    },
    /// Play a seeded game between random legal players and print the result.
    Selfplay {
        #[arg(long, default_value_t = 5)]
        players: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 50_000)]
        max_actions: usize,
        /// Print every event with the rule it applies.
        #[arg(long)]
        log: bool,
        /// Print the result as JSON: the outcome and the final state as seat 1 sees it.
        #[arg(long, conflicts_with = "log")]
        json: bool,
        #[command(flatten)]
        data: DataArgs,
    },
}

#[derive(clap::Args)]
struct TableArgs {
    /// camera:N, video:PATH, images:DIR or synthetic[:SEED] (a seeded game in progress).
    #[arg(long, default_value = "synthetic")]
    source: SourceSpec,
    /// Seat regions (JSON, image pixels). Read if it exists; the panel saves the regions it sets here.
    /// A synthetic game brings its own.
    #[arg(long)]
    seats: Option<PathBuf>,
    /// Print each committed tally change and announcement instead of opening the window.
    #[arg(long)]
    headless: bool,
    /// Rules profile TOML (message.death_before_win); default: as shipped.
    #[arg(long)]
    profile: Option<PathBuf>,
    /// Deck TOML (the faces the camera reads); default: the shipped deck. Kept in the journal.
    #[arg(long, conflicts_with = "resume")]
    deck: Option<PathBuf>,
    /// Character TOML; default: the shipped demo characters. Kept in the journal.
    #[arg(long, conflicts_with = "resume")]
    characters: Option<PathBuf>,
    /// Identity table TOML; default: the shipped seed table. Kept in the journal.
    #[arg(long, conflicts_with = "resume")]
    identities: Option<PathBuf>,
    /// Synthetic game: seed of the table and camera.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Synthetic game: colours arriving in front of each seat, e.g. kkk,rr,urr.
    #[arg(long)]
    script: Option<String>,
    /// Headless: print one JSON summary at the end (the tallies, what was said, the deaths) instead
    /// of the lines as they come.
    #[arg(long)]
    json: bool,
    /// Journal the table here (the panel keeps one in the player's data folder anyway).
    #[arg(long, conflicts_with = "resume")]
    journal: Option<PathBuf>,
    /// Continue the table in this journal: its seats, profile, counts, corrections and deaths.
    #[arg(long)]
    resume: Option<PathBuf>,
    /// When a count the camera sees is taken: every (each waits for OK in the panel), stable (once
    /// the camera has seen it unchanged for a few frames), first-round (every, then the panel
    /// asks). Default: first-round in the window, stable headless. Kept in the journal.
    #[arg(long, value_enum)]
    confirm: Option<crate::live::confirm::Confirm>,
    /// Open the panel with this chain already entered and ruled: the sender's seat…
    #[arg(long)]
    chain_sender: Option<usize>,
    /// …the method (密电 | 直达 | 文本)…
    #[arg(long, default_value = "密电")]
    chain_method: String,
    /// …and the responses in order (SEAT:CARD, repeat the option).
    #[arg(long = "chain-response")]
    chain_responses: Vec<String>,
    /// Correct a seat's count before the frames are read (a card the camera cannot see, say):
    /// SEAT:COLOUR:±N (red|blue|black or 红|蓝|黑), or SEAT:clear for the camera's count again.
    /// Repeat the option; kept until cleared, and journalled like the panel's -/+ buttons.
    #[arg(long = "correct", value_parser = parse_seat_correction)]
    corrections: Vec<SeatCorrection>,
    #[command(flatten)]
    detector: crate::vision_cli::DetectorChoice,
}

/// One `--correct`: a seat's count of one colour moved, or (`None`) the seat's correction cleared.
#[derive(Clone, Debug, PartialEq)]
struct SeatCorrection {
    /// 0-based.
    seat: usize,
    by: Option<(message::Colour, i16)>,
    /// As given, for the errors.
    text: String,
}

fn parse_seat_correction(text: &str) -> Result<SeatCorrection, String> {
    let parts: Vec<&str> = text.split(':').map(str::trim).collect();
    let seat = parts
        .first()
        .and_then(|s| s.parse::<usize>().ok())
        .filter(|&s| s >= 1)
        .ok_or_else(|| format!("`{text}`: the seat comes first, from 1 (SEAT:COLOUR:±N)"))?
        - 1;
    let by = match parts[1..] {
        ["clear"] => None,
        [colour, delta] => {
            let colour = match colour {
                "red" | "红" => message::Colour::Red,
                "blue" | "蓝" => message::Colour::Blue,
                "black" | "黑" => message::Colour::Black,
                other => {
                    return Err(format!(
                        "`{text}`: `{other}` is no intelligence colour (red, blue, black or 红, 蓝, 黑)"
                    ))
                }
            };
            let delta = delta
                .parse::<i16>()
                .ok()
                .filter(|d| *d != 0)
                .ok_or_else(|| {
                    format!("`{text}`: `{delta}` is no change of the count (+1, -2, …)")
                })?;
            Some((colour, delta))
        }
        _ => return Err(format!("`{text}`: expected SEAT:COLOUR:±N or SEAT:clear")),
    };
    Ok(SeatCorrection {
        seat,
        by,
        text: text.to_string(),
    })
}

/// Applies the `--correct` options to the table, in order, each journalled; a seat the table has
/// not, or a count that would go below zero, is an error naming the option.
fn apply_corrections(
    session: &mut crate::message_table::session::TableSession,
    corrections: &[SeatCorrection],
    say: &mut dyn FnMut(&crate::message_table::session::Change),
) -> anyhow::Result<()> {
    let seats = session.tallies.len();
    for c in corrections {
        anyhow::ensure!(
            c.seat < seats,
            "--correct {}: the table has {seats} seats",
            c.text
        );
        let changes = match c.by {
            Some((colour, delta)) => {
                let changes = session.correct(c.seat, colour, delta);
                anyhow::ensure!(
                    !changes.is_empty(),
                    "--correct {}: seat {}'s count would go below zero",
                    c.text,
                    c.seat + 1
                );
                changes
            }
            None => session.clear_correction(c.seat),
        };
        for change in &changes {
            say(change);
        }
    }
    Ok(())
}

/// The profile file given, else the shipped one, and where it came from.
fn load_profile(path: &Option<PathBuf>) -> anyhow::Result<(Profile, String)> {
    let p = DataText::given_or(
        path.as_deref(),
        DataText::shipped(
            "models/catalogues/message/profile.toml",
            message::catalogue::PROFILE_TOML,
        ),
    )?;
    let profile = parse_profile(&p.origin, &p.text).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok((profile, p.origin))
}

/// Where a game's data came from, for refusals that only a set-up finds: the identity rows, the
/// characters and the profile's offer count are checked against the number of players.
struct DataFiles {
    deck: String,
    characters: String,
    identities: String,
    profile: String,
}

impl DataFiles {
    fn refusal(&self, players: usize, why: impl std::fmt::Display) -> anyhow::Error {
        anyhow::anyhow!(
            "{players} players cannot be set up: {why}\n  data: identity rows {}, characters {}, \
             profile {}, deck {}",
            self.identities,
            self.characters,
            self.profile,
            self.deck
        )
    }
}

fn load(data: &DataArgs) -> anyhow::Result<(Catalogue, Profile, DataFiles)> {
    let files = CatalogueFiles::given_or_shipped(
        data.deck.as_deref(),
        data.characters.as_deref(),
        data.identities.as_deref(),
    )?;
    let cat = files.load()?;
    let (profile, profile_origin) = load_profile(&data.profile)?;
    let files = DataFiles {
        deck: files.deck.origin,
        characters: files.characters.origin,
        identities: files.identities.origin,
        profile: profile_origin,
    };
    Ok((cat, profile, files))
}

/// Each table size of the rules (3–9 players) the data cannot set up, with the reason.
fn unplayable(cat: &Arc<Catalogue>, profile: &Profile) -> Vec<Unplayable> {
    (3..=9)
        .filter_map(|players| {
            let setup = Setup {
                players,
                seed: 0,
                first_player: 0,
            };
            State::from_setup(cat.clone(), profile.clone(), &setup)
                .err()
                .map(|v| Unplayable {
                    players,
                    why: v.to_string(),
                })
        })
        .collect()
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Cmd::Chain {
            players,
            sender,
            method,
            target,
            responses,
            json,
        } => {
            let method = Method::parse(&method)
                .ok_or_else(|| anyhow::anyhow!("--method: 密电, 直达 or 文本, not `{method}`"))?;
            let seat = |n: usize, what: &str| {
                n.checked_sub(1)
                    .ok_or_else(|| anyhow::anyhow!("{what}: seats are numbered from 1"))
            };
            let req = ChainRequest {
                players,
                sender: seat(sender, "--sender")?,
                method,
                target: target.map(|t| seat(t, "--target")).transpose()?,
                responses: responses
                    .iter()
                    .map(|r| parse_response(r))
                    .collect::<Result<_, _>>()?,
            };
            if method == Method::Direct && req.target.is_none() {
                anyhow::bail!("a 直达 intelligence needs --target SEAT");
            }
            let cat = Arc::new(Catalogue::shipped().map_err(|e| anyhow::anyhow!("{e}"))?);
            let ruling = rule_chain(cat, &req)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&ruling)?);
            } else {
                print_ruling(&ruling, &responses);
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Tally {
            seats,
            json,
            profile,
        } => {
            let (profile, _) = load_profile(&profile)?;
            let tallies = seats
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    SeatTally::parse(s).ok_or_else(|| {
                        anyhow::anyhow!("--seat {} `{s}`: use 红/蓝/黑 or r/u/k per card", i + 1)
                    })
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            let said = announce(&tallies, &profile);
            if json {
                println!("{}", serde_json::to_string_pretty(&said)?);
            } else if said.is_empty() {
                println!("nothing to announce");
            } else {
                for s in &said {
                    println!("{}  [{}]", s.text, s.rule);
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Table(args) => table(*args),
        Cmd::RenderScene {
            seed,
            out,
            game,
            script,
            seats,
            width,
            height,
            json,
        } => render_scene(
            seed,
            &out,
            game,
            script.as_deref(),
            seats,
            (width, height),
            json,
        ),
        Cmd::Eval {
            scenes,
            seed,
            json,
            no_overlap,
            seat_cards,
            camera,
            scenes_dir,
            outcomes: outcomes_file,
            detector,
        } => {
            let cat = Catalogue::shipped().map_err(|e| anyhow::anyhow!("{e}"))?;
            let (scanner, faces) = vision::games::message::message_scanner(&cat)?;
            let scanner = detector.added_to(scanner, crate::vision_cli::MESSAGE_DETECTOR)?;
            let (outcomes, source) = match scenes_dir {
                Some(dir) => {
                    let mut found = vision::games::message::load_scenes(&dir)?;
                    found.truncate(scenes);
                    anyhow::ensure!(
                        !found.is_empty(),
                        "{}: the manifest lists no scenes",
                        dir.join("manifest.json").display()
                    );
                    let outcomes = vision::games::message::run_external(
                        &scanner,
                        &faces,
                        &dir,
                        &found,
                        |_, _, _| {},
                    )?;
                    (outcomes, dir.display().to_string())
                }
                None => {
                    let renderer = vision::games::message::MessageSceneRenderer::new(&cat)?;
                    let outcomes = vision::games::message::run(
                        &renderer,
                        &scanner,
                        &faces,
                        seed,
                        scenes,
                        &vision::games::message::MessageSceneOptions {
                            overlap: no_overlap.then_some(false),
                            seat_cards,
                            placements: camera.placements(),
                            ..Default::default()
                        },
                        |_, _, _| {},
                    )?;
                    (outcomes, "the scene renderer".to_string())
                }
            };
            if let Some(path) = &outcomes_file {
                crate::table::files::write_json_lines(path, &outcomes)?;
            }
            crate::message_table::report::eval_report(&outcomes, &source, json)
        }
        Cmd::Check { data, json } => check(&data, json),
        Cmd::Selfplay {
            players,
            seed,
            max_actions,
            log,
            json,
            data,
        } => {
            let (cat, profile, files) = load(&data)?;
            let start = State::from_setup(
                Arc::new(cat),
                profile,
                &Setup {
                    players,
                    seed,
                    first_player: 0,
                },
            )
            .map_err(|v| files.refusal(players, v))?;
            let played = random_game(start, max_actions);
            if log {
                for (a, events) in &played.log {
                    for e in events {
                        let (text, rule) = describe(&played.state, e);
                        match rule {
                            Some(r) => println!("{text}  [{r}]"),
                            None => println!("{text}"),
                        }
                    }
                    let _ = a;
                }
            }
            let s = &played.state;
            if json {
                let report = SelfplayReport {
                    seed,
                    players,
                    finished: played.finished,
                    outcome: &s.outcome,
                    turns: s.turns_played,
                    actions: played.log.len(),
                    view: player_view(s, 0),
                };
                println!("{}", serde_json::to_string_pretty(&report)?);
                return Ok(if played.finished {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::FAILURE
                });
            }
            match &s.outcome {
                Some(Outcome::Win {
                    winners,
                    text,
                    rule,
                }) => {
                    let w: Vec<String> = winners.iter().map(|x| (x + 1).to_string()).collect();
                    println!("seed {seed}, {players} players: winners {} after {} turns, {} actions — {text} [{rule}]", w.join(","), s.turns_played, played.log.len());
                }
                Some(Outcome::Draw { text, rule }) => println!(
                    "seed {seed}, {players} players: draw after {} turns — {text} [{rule}]",
                    s.turns_played
                ),
                None => println!(
                    "seed {seed}, {players} players: not over after {} actions",
                    played.log.len()
                ),
            }
            Ok(if played.finished {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
    }
}

/// What `message selfplay --json` prints: how the game ended and where it stood.
#[derive(serde::Serialize)]
struct SelfplayReport<'a> {
    seed: u64,
    players: usize,
    /// False when --max-actions was reached first, or no action was legal.
    finished: bool,
    outcome: &'a Option<Outcome>,
    turns: u32,
    actions: usize,
    /// The final state as seat 1 sees it.
    view: message::View,
}

/// What `message check --json` prints: the data files summarised, and the profile as loaded.
#[derive(serde::Serialize)]
struct DataCheck<'a> {
    deck: DeckSummary<'a>,
    characters: CharacterSummary,
    /// Player counts the identity table covers.
    identity_tables: usize,
    /// Table sizes of the rules (3–9) these data cannot set up.
    unplayable: Vec<Unplayable>,
    profile: &'a Profile,
}

#[derive(serde::Serialize)]
struct Unplayable {
    players: usize,
    why: String,
}

#[derive(serde::Serialize)]
struct DeckSummary<'a> {
    total: usize,
    red: usize,
    blue: usize,
    black: usize,
    /// Cards as the seed lists them, and those assumed (RULES-NOTES, editable).
    from_seed: usize,
    assumed: usize,
    kinds: Vec<KindSummary<'a>>,
}

#[derive(serde::Serialize)]
struct KindSummary<'a> {
    kind: message::Kind,
    zh: &'static str,
    cards: usize,
    windows: &'a [message::catalogue::Window],
}

#[derive(serde::Serialize)]
struct CharacterSummary {
    total: usize,
    /// Invented by the project (not the published characters).
    demo: usize,
}

fn check(data: &DataArgs, json: bool) -> anyhow::Result<ExitCode> {
    let (cat, profile, files) = load(data)?;
    let cat = Arc::new(cat);
    let cards = &cat.deck.cards;
    let count = |c| cards.iter().filter(|x| x.colour == c).count();
    let summary = DataCheck {
        deck: DeckSummary {
            total: cards.len(),
            red: count(message::Colour::Red),
            blue: count(message::Colour::Blue),
            black: count(message::Colour::Black),
            from_seed: cards.iter().filter(|c| !c.assumed).count(),
            assumed: cards.iter().filter(|c| c.assumed).count(),
            kinds: message::Kind::ALL
                .iter()
                .map(|&k| KindSummary {
                    kind: k,
                    zh: k.zh(),
                    cards: cards.iter().filter(|c| c.kind == k).count(),
                    windows: cat.deck.windows(k),
                })
                .collect(),
        },
        characters: CharacterSummary {
            total: cat.characters.len(),
            demo: cat.characters.iter().filter(|c| c.demo).count(),
        },
        identity_tables: cat.identities.len(),
        unplayable: unplayable(&cat, &profile),
        profile: &profile,
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
        return Ok(ExitCode::SUCCESS);
    }
    let d = &summary.deck;
    println!(
        "deck: {} cards ({} red, {} blue, {} black); {} from the seed, {} assumed (RULES-NOTES, editable)",
        d.total, d.red, d.blue, d.black, d.from_seed, d.assumed
    );
    for k in &d.kinds {
        let windows: Vec<String> = k.windows.iter().map(vision::eval::serde_name).collect();
        println!("  {}×{} windows: {}", k.zh, k.cards, windows.join(", "));
    }
    println!(
        "characters: {} ({} DEMO, invented by the project)",
        summary.characters.total, summary.characters.demo
    );
    println!("identity table: {} player counts", summary.identity_tables);
    for u in &summary.unplayable {
        println!("{}", files.refusal(u.players, &u.why));
    }
    crate::show::print_options("profile", &profile)?;
    Ok(ExitCode::SUCCESS)
}

fn print_ruling(r: &Ruling, responses: &[String]) {
    for (i, s) in r.steps.iter().enumerate() {
        match &s.rule {
            Some(rule) => println!("{:>2}. {}  [{rule}]", i + 1, s.text),
            None => println!("{:>2}. {}", i + 1, s.text),
        }
    }
    for (i, v) in &r.refused {
        println!(
            "refused {}: {v}",
            responses.get(*i).map(String::as_str).unwrap_or("?")
        );
    }
    for i in &r.unused {
        println!(
            "not played {}: the intelligence was received before its moment",
            responses.get(*i).map(String::as_str).unwrap_or("?")
        );
    }
    let why = r
        .because
        .as_ref()
        .map(|b| format!(" [{b}]"))
        .unwrap_or_else(|| " (accepted by choice)".into());
    println!(
        "→ 玩家{0}获得情报 / player {0} receives the intelligence{why}",
        r.receiver + 1
    );
}

fn render_scene(
    seed: u64,
    out: &Path,
    game: bool,
    script: Option<&str>,
    seats: Option<usize>,
    size: (i32, i32),
    json: bool,
) -> anyhow::Result<ExitCode> {
    use vision::games::message::{layout_from_colours, MessageSceneOptions, MessageSceneRenderer};
    let cat = Catalogue::shipped().map_err(|e| anyhow::anyhow!("{e}"))?;
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    // The scene's truth and seat regions beside its images.
    let record_truth = |rendered: &mut Rendered, truth: &vision::games::message::MessageTruth| {
        let write = |name: &str, text: String| -> anyhow::Result<PathBuf> {
            let path = out.join(name);
            std::fs::write(&path, text)
                .with_context(|| format!("cannot write {}", path.display()))?;
            Ok(path)
        };
        rendered.truth = Some(write("truth.json", serde_json::to_string_pretty(truth)?)?);
        rendered.seat_regions = Some(write(
            "seats.json",
            serde_json::to_string_pretty(&truth.regions)?,
        )?);
        rendered.seats = truth.seats;
        rendered.cards = truth.cards.len();
        anyhow::Ok(())
    };
    let mut rendered = Rendered {
        out,
        seed,
        game,
        seats: 0,
        cards: 0,
        images: Vec::new(),
        truth: None,
        seat_regions: None,
    };
    if game {
        let mut g = crate::message_table::feed::SyntheticGame::new(&cat, seed, script)?;
        g.size = size;
        for i in 0..g.frames() {
            let scene = g.frame(i)?;
            let path = out.join(format!("frame-{i:04}.png"));
            vision::sheets::write_png(&path, &scene.image)?;
            rendered.images.push(path);
            if i + 1 == g.frames() {
                record_truth(&mut rendered, &scene.truth)?;
            }
        }
        if json {
            println!("{}", serde_json::to_string_pretty(&rendered)?);
        } else {
            println!(
                "{} frames of a 风声 game (seed {seed}) in {}, with seats.json and truth.json (the last frame)",
                g.frames(),
                out.display()
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let layout = match script {
        Some(s) => Some(layout_from_colours(
            &cat,
            &s.split(',').collect::<Vec<_>>(),
            seed,
        )?),
        None => None,
    };
    let renderer = MessageSceneRenderer::new(&cat)?;
    let scene = renderer.render(
        seed,
        &MessageSceneOptions {
            width: Some(size.0),
            height: Some(size.1),
            seats,
            layout,
            ..MessageSceneOptions::default()
        },
    )?;
    let image = out.join("scene.png");
    vision::sheets::write_png(&image, &scene.image)?;
    rendered.images.push(image);
    record_truth(&mut rendered, &scene.truth)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&rendered)?);
    } else {
        println!(
            "scene seed {seed}: {} seats, {} cards → {}/scene.png, truth.json, seats.json",
            rendered.seats,
            rendered.cards,
            out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// What `message render-scene --json` prints: the files written, and the table in the (last) frame.
#[derive(serde::Serialize)]
struct Rendered<'a> {
    out: &'a Path,
    seed: u64,
    /// A game in progress (frame-NNNN.png) rather than one scene.
    game: bool,
    seats: usize,
    cards: usize,
    images: Vec<PathBuf>,
    truth: Option<PathBuf>,
    seat_regions: Option<PathBuf>,
}

fn table(args: TableArgs) -> anyhow::Result<ExitCode> {
    use crate::message_table::feed::{SyntheticGame, TableFeed};
    use crate::message_table::panel::{run as run_panel, MessageTableApp};
    use crate::message_table::record;
    use crate::message_table::session::{describe as say, TableSession};
    use opencv::prelude::MatTraitConst;
    use vision::games::message::SeatRegions;
    let resumed = args.resume.as_deref().map(record::resume).transpose()?;
    // The data files are checked before the camera opens or a journal is written.
    let data = match &resumed {
        Some(r) => r.data.clone(),
        None => CatalogueFiles::given(
            args.deck.as_deref(),
            args.characters.as_deref(),
            args.identities.as_deref(),
        )?,
    };
    let cat = data
        .clone()
        .unwrap_or_else(CatalogueFiles::shipped)
        .load()?;
    let (profile, _) = load_profile(&args.profile)?;
    let from_file = match &args.seats {
        Some(path) if path.exists() => Some(SeatRegions::load(path)?),
        _ => None,
    };
    let (mut source, regions): (Box<dyn vision::source::FrameSource>, Option<SeatRegions>) =
        if let SourceSpec::Synthetic(seed) = args.source {
            // `--seed` is the older spelling of synthetic:SEED.
            let g = SyntheticGame::new(&cat, seed.unwrap_or(args.seed), args.script.as_deref())?;
            let r = from_file.or(Some(g.regions()?));
            (Box::new(g), r)
        } else {
            (
                args.source.open("synthetic draws a seeded game")?,
                from_file,
            )
        };
    let resumed = match resumed {
        Some(r) => {
            if let Some(w) = r.warning {
                eprintln!("warning: {w}");
            }
            source =
                crate::table::source::after_journal(source, &args.source, r.session.last_frame);
            Some(r.session)
        }
        None => None,
    };
    let card_detector = args
        .detector
        .card_detector(crate::vision_cli::MESSAGE_DETECTOR)?;
    let mut feed = TableFeed::new(source, &cat, args.source.to_string(), card_detector)?;
    // A new table's journal: where asked, else (at the panel) in the player's data folder.
    let new_session =
        |regions: SeatRegions, profile: Profile, panel: bool| -> anyhow::Result<TableSession> {
            match (&args.journal, panel) {
                (Some(p), _) => record::start(p, regions, profile, data.clone()),
                (None, true) => record::start(
                    &crate::paths::new_journal("message")?,
                    regions,
                    profile,
                    data.clone(),
                ),
                (None, false) => Ok(TableSession::new(regions, profile)),
            }
        };
    use crate::live::confirm::{at_start, AtStart, Confirm};
    let confirm = at_start(
        "message table",
        args.confirm,
        args.headless,
        resumed.is_none(),
    )?;
    let start_confirm = |session: &mut TableSession| match confirm {
        AtStart::Choose(c) if c != session.confirm => {
            session.set_confirm(c);
        }
        AtStart::Unattended => session.confirm = Confirm::Stable,
        _ => {}
    };
    if !args.headless {
        let mut session = match resumed {
            Some(s) => s,
            None => new_session(regions.unwrap_or_default(), profile, true)?,
        };
        start_confirm(&mut session);
        apply_corrections(&mut session, &args.corrections, &mut |_| {})?;
        if let Some(p) = session.journal_path() {
            eprintln!(
                "journal: {} (continue with: arbiter message table --resume {})",
                p.display(),
                p.display()
            );
        }
        let seats_path = args
            .seats
            .clone()
            .or(Some(PathBuf::from("message-seats.json")));
        let mut app = MessageTableApp::new(session, Some(feed), Arc::new(cat), seats_path);
        if let Some(sender) = args.chain_sender {
            app.chain.sender = sender;
            app.chain.method = Method::parse(&args.chain_method).ok_or_else(|| {
                anyhow::anyhow!(
                    "--chain-method: 密电, 直达 or 文本, not `{}`",
                    args.chain_method
                )
            })?;
            app.chain.responses = args.chain_responses.clone();
            app.rule();
        }
        run_panel(app)?;
        return Ok(ExitCode::SUCCESS);
    }
    let regions = resumed.as_ref().map(|s| s.regions.clone()).or(regions);
    let Some(regions) = regions else {
        if let Some(path) = &args.seats {
            anyhow::bail!(
                "--seats {}: no such file (set the seat regions once in the panel: arbiter message table --source {} --seats {})",
                path.display(),
                args.source,
                path.display()
            );
        }
        anyhow::bail!(
            "--seats FILE: no seat regions (set them once in the panel: arbiter message table --source {} --seats FILE)",
            args.source
        );
    };
    let mut session = match resumed {
        Some(s) => s,
        None => new_session(regions, profile, false)?,
    };
    start_confirm(&mut session);
    apply_corrections(&mut session, &args.corrections, &mut |c| {
        if !args.json {
            println!("--correct: {}", say(c));
        }
    })?;
    let mut ms = Vec::new();
    while let Some(frame) = feed.next(&session.regions)? {
        // Seat cards in view: the regions follow them (the count so far stays).
        if let Some(r) = &frame.regions_from_seat_cards {
            session.regions = r.clone();
        }
        let [w, h] = session.regions.image_size;
        let (fw, fh) = (frame.image.cols() as u32, frame.image.rows() as u32);
        if (w, h) != (0, 0) && (w, h) != (fw, fh) {
            let drawn = args
                .seats
                .as_ref()
                .map_or_else(String::new, |p| format!(" ({})", p.display()));
            anyhow::bail!(
                "{}: the frame is {fw}×{fh} but the seat regions{drawn} were drawn on {w}×{h}; set them again",
                frame.origin
            );
        }
        ms.push(frame.scan_ms);
        for c in session.see(frame.index, frame.cards, frame.hand_seen) {
            if !args.json {
                println!("frame {}: {}", frame.index, say(&c));
            }
        }
        if let Some(e) = &session.journal_error {
            anyhow::bail!("{e}");
        }
    }
    ms.sort_by(f64::total_cmp);
    let median = ms.get(ms.len() / 2).copied().unwrap_or(0.0);
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "frames": ms.len(),
                "median_ms": median,
                "tallies": session.tallies,
                "said": session.said,
                // Per seat, like `tallies`: null, or the tally the seat died with.
                "dead": session.dead,
            }))?
        );
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{} frames, {:.0} ms a frame (median); tally: {}",
        ms.len(),
        median,
        session
            .tallies
            .iter()
            .enumerate()
            .map(|(i, t)| format!("玩家{} 红{}蓝{}黑{}", i + 1, t.red, t.blue, t.black))
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(ExitCode::SUCCESS)
}
