//! `arbiter message …`: rule on a transmission chain at the table, check the data files, and play
//! seeded random games.

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
    /// Validate the deck, character, identity and profile files and summarise them.
    Check {
        #[command(flatten)]
        data: DataArgs,
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
        /// Print the final state as seat 1 sees it (JSON).
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        data: DataArgs,
    },
}

fn read(path: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

fn source(
    path: &Option<PathBuf>,
    shipped: &'static str,
    name: &str,
) -> anyhow::Result<(String, String)> {
    Ok(match path {
        Some(p) => (p.display().to_string(), read(p)?),
        None => (
            format!("models/catalogues/message/{name} (shipped)"),
            shipped.to_string(),
        ),
    })
}

fn load(data: &DataArgs) -> anyhow::Result<(Catalogue, Profile)> {
    use message::catalogue::{CHARACTERS_TOML, DECK_TOML, IDENTITIES_TOML, PROFILE_TOML};
    let d = source(&data.deck, DECK_TOML, "deck.toml")?;
    let c = source(&data.characters, CHARACTERS_TOML, "characters.toml")?;
    let i = source(&data.identities, IDENTITIES_TOML, "identities.toml")?;
    let p = source(&data.profile, PROFILE_TOML, "profile.toml")?;
    let cat = Catalogue::parse((&d.0, &d.1), (&c.0, &c.1), (&i.0, &i.1))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let profile = parse_profile(&p.0, &p.1).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok((cat, profile))
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
            let p = source(&profile, message::catalogue::PROFILE_TOML, "profile.toml")?;
            let profile = parse_profile(&p.0, &p.1).map_err(|e| anyhow::anyhow!("{e}"))?;
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
        Cmd::Check { data } => {
            let (cat, profile) = load(&data)?;
            let cards = &cat.deck.cards;
            let count = |c| cards.iter().filter(|x| x.colour == c).count();
            println!(
                "deck: {} cards ({} red, {} blue, {} black); {} from the seed, {} assumed (RULES-NOTES, editable)",
                cards.len(),
                count(message::Colour::Red),
                count(message::Colour::Blue),
                count(message::Colour::Black),
                cards.iter().filter(|c| !c.assumed).count(),
                cards.iter().filter(|c| c.assumed).count()
            );
            for k in message::Kind::ALL {
                let n = cards.iter().filter(|c| c.kind == k).count();
                println!("  {}×{n} windows {:?}", k.zh(), cat.deck.windows(k));
            }
            let demo = cat.characters.iter().filter(|c| c.demo).count();
            println!(
                "characters: {} ({demo} DEMO, invented by the project)",
                cat.characters.len()
            );
            println!("identity table: {} player counts", cat.identities.len());
            println!("profile: {profile:?}");
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Selfplay {
            players,
            seed,
            max_actions,
            log,
            json,
            data,
        } => {
            let (cat, profile) = load(&data)?;
            let start = State::from_setup(
                Arc::new(cat),
                profile,
                &Setup {
                    players,
                    seed,
                    first_player: 0,
                },
            )
            .map_err(|v| anyhow::anyhow!("{v}"))?;
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
            if json {
                println!("{}", serde_json::to_string_pretty(&player_view(s, 0))?);
            }
            Ok(if played.finished {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
    }
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
