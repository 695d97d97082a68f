//! `arbiter fof …`: the Fields of Fire solo companion. The game lives in a journal file (JSON lines,
//! append-only, flushed after every command): the first line holds the set-up (seed, mission and deck
//! text), every later line one action or an undo, so each command replays the journal and carries on
//! where the last one stopped.

use anyhow::{bail, Context};
use fof::deck::{draw_sequence, Deck};
use fof::{Action, Event, FieldsOfFire, Mission, Sequence, Setup, State};
use rules_core::Game;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The game's journal file.
    #[arg(long, global = true, default_value = "fof-journal.jsonl")]
    journal: PathBuf,
    /// Print JSON instead of text.
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    command: Cmd,
}

#[derive(clap::Subcommand)]
enum Cmd {
    /// Start a game from a mission file (a new journal).
    New {
        #[arg(long)]
        mission: PathBuf,
        #[arg(long)]
        seed: u64,
        /// Use this deck file instead of the mission's.
        #[arg(long)]
        deck: Option<PathBuf>,
        /// Play with your own physical deck of N numbered cards: Arbiter draws numbers, you read them.
        #[arg(long, conflicts_with = "deck")]
        physical: Option<u16>,
        /// Replace an existing journal.
        #[arg(long)]
        force: bool,
    },
    /// Finish the current step and enter the next, making its draws.
    Next,
    /// Draw a card: in the game (with a purpose), or with --seed from a fresh shuffle and no game.
    Draw {
        #[arg(long)]
        purpose: Option<String>,
        /// Without a game: shuffle a fresh deck with this seed.
        #[arg(long)]
        seed: Option<u64>,
        /// Without a game: how many cards.
        #[arg(short = 'n', default_value_t = 1, requires = "seed")]
        count: usize,
        /// Without a game: deck file (default: the demo deck).
        #[arg(long, requires = "seed")]
        deck: Option<PathBuf>,
    },
    /// Any other action: `activate co`, `spend 1plt 2`, `answer yes`, `activity heavy`, `pc A`,
    /// `fire +2 line`, `enemy add E3`, `enemy remove E1`, `pc-place D`, `pc-remove A`.
    Act {
        #[arg(required = true, num_args = 1.., allow_negative_numbers = true)]
        words: Vec<String>,
    },
    /// List the actions the rules allow now.
    Actions,
    /// Take back the last action.
    Undo,
    /// Where the game stands: turn, step, command points, deck, recent draws.
    Status,
    /// Open the egui panel on the journal's game (every click goes through the same journal).
    Panel,
}

/// One line of the journal.
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Line {
    New {
        version: u32,
        seed: u64,
        mission_origin: String,
        mission: String,
        deck_origin: String,
        /// Deck file text; `None` for a physical deck.
        deck: Option<String>,
        physical: Option<u16>,
    },
    Action {
        action: Action,
    },
    Undo,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let out = Output { json: args.json };
    match args.command {
        Cmd::New {
            mission,
            seed,
            deck,
            physical,
            force,
        } => new_game(
            &args.journal,
            &mission,
            seed,
            deck.as_deref(),
            physical,
            force,
            &out,
        ),
        Cmd::Draw {
            seed: Some(seed),
            count,
            deck,
            purpose,
        } => {
            if purpose.is_some() {
                bail!("--purpose is for draws in a game; --seed draws from a fresh shuffle without one");
            }
            standalone_draw(seed, count, deck.as_deref(), &out)
        }
        Cmd::Draw {
            seed: None,
            purpose,
            ..
        } => {
            let purpose = purpose.unwrap_or_else(|| "free draw".into());
            play(&args.journal, Action::Draw { purpose }, &out)
        }
        Cmd::Next => play(&args.journal, Action::Next, &out),
        Cmd::Act { words } => {
            let action: Action = words.join(" ").parse().map_err(anyhow::Error::msg)?;
            play(&args.journal, action, &out)
        }
        Cmd::Actions => {
            let game = Journal::load(&args.journal)?;
            let legal: Vec<String> = FieldsOfFire::legal_actions(game.state())
                .iter()
                .map(|a| a.to_string())
                .collect();
            if out.json {
                println!("{}", json!({ "legal": legal }));
            } else {
                for a in legal {
                    println!("{a}");
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Undo => {
            let mut game = Journal::load(&args.journal)?;
            game.undo()?;
            out.report(game.state(), &[], Some("undone"));
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Status => {
            let game = Journal::load(&args.journal)?;
            out.status(game.state(), &args.journal);
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Panel => {
            if !has_display() {
                bail!("no display (DISPLAY and WAYLAND_DISPLAY are unset): the panel needs a desktop; use `arbiter fof next|draw|undo|status` here");
            }
            let game = Journal::load(&args.journal)?;
            crate::fof_panel::run(crate::fof_panel::FofApp::new(game))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn has_display() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|x| !x.is_empty()))
}

fn read(path: &Path) -> anyhow::Result<String> {
    fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

fn setup_from(line: &Line) -> anyhow::Result<Setup> {
    let Line::New {
        seed,
        mission_origin,
        mission,
        deck_origin,
        deck,
        physical,
        ..
    } = line
    else {
        bail!("the first line must be the game's set-up");
    };
    let mission = Mission::parse(mission_origin, mission)?;
    let deck = match (deck, physical) {
        (_, Some(n)) => Deck::physical(*n),
        (Some(text), None) => Deck::parse(deck_origin, text)?,
        (None, None) => bail!("the set-up names no deck"),
    };
    Ok(Setup {
        mission,
        deck,
        sequence: Sequence::standard()?,
        seed: *seed,
    })
}

fn new_game(
    journal: &Path,
    mission_path: &Path,
    seed: u64,
    deck_path: Option<&Path>,
    physical: Option<u16>,
    force: bool,
    out: &Output,
) -> anyhow::Result<ExitCode> {
    let (state, events) = create_journal(journal, mission_path, seed, deck_path, physical, force)?;
    out.report(
        &state,
        &events,
        Some(&format!(
            "new game, seed {seed}, journal {}",
            journal.display()
        )),
    );
    Ok(ExitCode::SUCCESS)
}

/// Writes a new journal's set-up line (flushed) and returns the opening state.
pub(crate) fn create_journal(
    journal: &Path,
    mission_path: &Path,
    seed: u64,
    deck_path: Option<&Path>,
    physical: Option<u16>,
    force: bool,
) -> anyhow::Result<(State, Vec<Event>)> {
    if journal.exists() && !force {
        bail!(
            "{} already holds a game; use another --journal, or --force to replace it",
            journal.display()
        );
    }
    let mission_text = read(mission_path)?;
    let mission_origin = mission_path.display().to_string();
    let mission = Mission::parse(&mission_origin, &mission_text)?;
    let (deck_origin, deck_text, physical) = match (physical, deck_path, &mission.deck) {
        (Some(n), _, _) => (format!("physical deck of {n}"), None, Some(n)),
        (None, Some(p), _) => (p.display().to_string(), Some(read(p)?), None),
        (None, None, fof::mission::DeckRef::Physical(n)) => {
            (format!("physical deck of {n}"), None, Some(*n))
        }
        (None, None, fof::mission::DeckRef::File(f)) => {
            let p = mission_path.parent().unwrap_or(Path::new(".")).join(f);
            let text = read(&p).with_context(|| {
                format!("{mission_origin}: its deck.file `{f}` (relative to the mission file)")
            })?;
            (p.display().to_string(), Some(text), None)
        }
    };
    let first = Line::New {
        version: 1,
        seed,
        mission_origin,
        mission: mission_text,
        deck_origin,
        deck: deck_text,
        physical,
    };
    let (state, events) = State::from_setup(setup_from(&first)?)?;
    let mut file = fs::File::create(journal)
        .with_context(|| format!("cannot create {}", journal.display()))?;
    writeln!(file, "{}", serde_json::to_string(&first)?)?;
    file.sync_data()?;
    Ok((state, events))
}

fn play(journal: &Path, action: Action, out: &Output) -> anyhow::Result<ExitCode> {
    let mut game = Journal::load(journal)?;
    match game.play(&action)? {
        Ok(events) => {
            out.report(game.state(), &events, None);
            Ok(ExitCode::SUCCESS)
        }
        Err(v) => {
            if out.json {
                println!(
                    "{}",
                    json!({ "refused": action.to_string(), "violation": v, "prompt": FieldsOfFire::prompt(game.state()) })
                );
            } else {
                eprintln!("refused `{action}`: {v}");
                eprintln!("{}", FieldsOfFire::prompt(game.state()).text.en);
            }
            Ok(ExitCode::from(2))
        }
    }
}

/// A journal replayed into the stack of states it passed through (undo pops one). The CLI and the
/// panel both play through it, so every action is appended and flushed the same way.
pub(crate) struct Journal {
    path: PathBuf,
    states: Vec<State>,
    /// What the action that led to each state did (parallel to `states`; the first: the set-up's).
    events: Vec<Vec<Event>>,
    /// Byte length of the complete lines; a cut-off tail beyond it is dropped before the next write.
    complete_len: u64,
    truncated: bool,
    /// The last line is whole but lost its newline: the next write starts a new line first.
    needs_newline: bool,
    /// The cut-mid-write warning given at load, if any (the panel shows it too).
    pub(crate) warning: Option<String>,
}

impl Journal {
    pub(crate) fn load(path: &Path) -> anyhow::Result<Journal> {
        let text = fs::read_to_string(path).with_context(|| {
            format!("cannot read journal {} (start a game with `arbiter fof new --mission FILE --seed N`)", path.display())
        })?;
        let mut states: Vec<State> = Vec::new();
        let mut events: Vec<Vec<Event>> = Vec::new();
        let mut offset = 0usize;
        let mut complete_len = 0u64;
        let mut truncated = false;
        let mut warning = None;
        for (i, raw) in text.split_inclusive('\n').enumerate() {
            let n = i + 1;
            offset += raw.len();
            let is_last_and_cut = offset == text.len() && !raw.ends_with('\n');
            let line: Line = match serde_json::from_str(raw.trim_end()) {
                Ok(l) => l,
                Err(e) if is_last_and_cut => {
                    let text = format!(
                        "warning: {} line {n} is incomplete (cut mid-write: {e}); resumed at the last complete action (line {}); the partial line will be dropped at the next write",
                        path.display(),
                        n - 1
                    );
                    eprintln!("{text}");
                    warning = Some(text);
                    truncated = true;
                    break;
                }
                Err(e) => bail!("{} line {n}: not a journal line: {e}", path.display()),
            };
            match (states.last(), line) {
                (None, first @ Line::New { .. }) => {
                    let setup = setup_from(&first)
                        .with_context(|| format!("{} line {n}", path.display()))?;
                    let (state, opening) = State::from_setup(setup)
                        .with_context(|| format!("{} line {n}", path.display()))?;
                    states.push(state);
                    events.push(opening);
                }
                (None, _) => bail!(
                    "{} line {n}: the journal must start with the set-up line",
                    path.display()
                ),
                (Some(_), Line::New { .. }) => {
                    bail!("{} line {n}: a second set-up line", path.display())
                }
                (Some(s), Line::Action { action }) => {
                    let (next, happened) = FieldsOfFire::apply(s, &action).map_err(|v| {
                        anyhow::anyhow!(
                            "{} line {n}: `{action}` refused on replay: {v}",
                            path.display()
                        )
                    })?;
                    states.push(next);
                    events.push(happened);
                }
                (Some(_), Line::Undo) => {
                    if states.len() < 2 {
                        bail!("{} line {n}: undo with nothing to undo", path.display());
                    }
                    states.pop();
                    events.pop();
                }
            }
            complete_len = offset as u64;
        }
        if states.is_empty() {
            bail!("{} holds no complete set-up line", path.display());
        }
        let needs_newline = !truncated && !text.is_empty() && !text.ends_with('\n');
        Ok(Journal {
            path: path.to_path_buf(),
            states,
            events,
            complete_len,
            truncated,
            needs_newline,
            warning,
        })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn state(&self) -> &State {
        self.states
            .last()
            .expect("a loaded journal has the set-up state")
    }

    /// What the action that reached the current state did (the set-up's events at the start).
    pub(crate) fn last_events(&self) -> &[Event] {
        self.events.last().map(Vec::as_slice).unwrap_or_default()
    }

    pub(crate) fn can_undo(&self) -> bool {
        self.states.len() > 1
    }

    /// Applies an action: accepted, it is appended (flushed) and becomes the current state; refused,
    /// nothing changes and the violation comes back. The outer error is a failed write.
    pub(crate) fn play(
        &mut self,
        action: &Action,
    ) -> anyhow::Result<Result<Vec<Event>, rules_core::Violation>> {
        match FieldsOfFire::apply(self.state(), action) {
            Ok((state, events)) => {
                self.append(&Line::Action {
                    action: action.clone(),
                })?;
                self.states.push(state);
                self.events.push(events.clone());
                Ok(Ok(events))
            }
            Err(v) => Ok(Err(v)),
        }
    }

    /// Takes back the last action by appending an `undo` line (nothing is erased).
    pub(crate) fn undo(&mut self) -> anyhow::Result<()> {
        if !self.can_undo() {
            bail!("nothing to undo in {}", self.path.display());
        }
        self.append(&Line::Undo)?;
        self.states.pop();
        self.events.pop();
        Ok(())
    }

    /// True when the file on disk is no longer what this journal read or wrote (another command, such
    /// as the CLI, appended to it since), so it should be loaded again before the next action.
    pub(crate) fn changed_on_disk(&self) -> bool {
        match fs::metadata(&self.path) {
            Ok(m) => !self.truncated && m.len() != self.complete_len,
            Err(_) => true,
        }
    }

    /// Appends one line and flushes it to disk, first cutting off an incomplete tail. Under the
    /// journal's lock, and only when the file is still what this journal read or wrote: two
    /// commands at once cannot both spend what only one can.
    fn append(&mut self, line: &Line) -> anyhow::Result<()> {
        let _held = crate::table::journal::hold_lock(&self.path)?;
        if self.changed_on_disk() {
            bail!(
                "{} changed since it was read (another `arbiter fof` wrote to it first): nothing \
                 was written; run the command again",
                self.path.display()
            );
        }
        let mut file = OpenOptions::new()
            .append(true)
            .open(&self.path)
            .with_context(|| format!("cannot write {}", self.path.display()))?;
        if self.truncated {
            file.set_len(self.complete_len)?;
            self.truncated = false;
        }
        let mut text = serde_json::to_string(line)?;
        text.push('\n');
        if self.needs_newline {
            text.insert(0, '\n');
            self.needs_newline = false;
        }
        file.write_all(text.as_bytes())?;
        file.sync_data()?;
        self.complete_len += text.len() as u64;
        Ok(())
    }
}

fn standalone_draw(
    seed: u64,
    count: usize,
    deck_path: Option<&Path>,
    out: &Output,
) -> anyhow::Result<ExitCode> {
    let deck = match deck_path {
        Some(p) => Deck::parse(&p.display().to_string(), &read(p)?)?,
        None => Deck::demo()?,
    };
    let numbers = draw_sequence(seed, deck.len(), count);
    if out.json {
        let cards: Vec<_> = numbers
            .iter()
            .enumerate()
            .map(|(i, n)| json!({ "draw": i + 1, "number": n, "card": deck.card(*n) }))
            .collect();
        println!(
            "{}",
            json!({ "seed": seed, "rng": "ChaCha8Rng::seed_from_u64", "deck": deck.name, "deck_size": deck.len(), "cards": cards })
        );
    } else {
        println!(
            "seed {seed}, {} ({} cards):",
            crate::table::files::printable(&deck.name),
            deck.len()
        );
        for (i, n) in numbers.iter().enumerate() {
            match deck.card(*n) {
                Some(c) => println!("{:>3}. {c}", i + 1),
                None => println!("{:>3}. card #{n}", i + 1),
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

struct Output {
    json: bool,
}

/// The legal actions in a line: families (fire, enemy and marker bookkeeping) shown once as patterns.
fn summarise(legal: &[String]) -> String {
    let mut shown: Vec<String> = Vec::new();
    let mut patterns: Vec<&str> = Vec::new();
    for a in legal {
        let pattern = if a.starts_with("fire ") {
            Some("fire MOD green|line|veteran")
        } else if a.starts_with("enemy ") {
            Some("enemy add|remove UNIT")
        } else if a.starts_with("pc-") {
            Some("pc-place|pc-remove MARKER")
        } else if a.starts_with("draw ") {
            Some("draw [--purpose TEXT]")
        } else {
            None
        };
        match pattern {
            Some(p) if !patterns.contains(&p) => patterns.push(p),
            Some(_) => {}
            None if shown.len() < 10 => shown.push(a.clone()),
            None => {}
        }
    }
    let hidden = legal.len() > shown.len() + patterns.len();
    shown.extend(patterns.iter().map(|p| p.to_string()));
    let more = if hidden {
        " (all: arbiter fof actions)"
    } else {
        ""
    };
    format!("{}{more}", shown.join(" | "))
}

impl Output {
    fn report(&self, s: &State, events: &[Event], note: Option<&str>) {
        let prompt = FieldsOfFire::prompt(s);
        let legal: Vec<String> = FieldsOfFire::legal_actions(s)
            .iter()
            .map(|a| a.to_string())
            .collect();
        if self.json {
            let described: Vec<_> = events
                .iter()
                .map(|e| json!({ "event": e, "text": e.describe() }))
                .collect();
            println!(
                "{}",
                json!({ "note": note, "events": described, "turn": s.turn, "step": s.current_step().id, "prompt": prompt, "legal": legal, "game_over": s.game_over })
            );
            return;
        }
        if let Some(n) = note {
            println!("{n}");
        }
        for e in events {
            println!("  {}", e.describe().en);
            if let Event::HqEvent { event, .. } = e {
                println!("    {}", event.zh);
            }
        }
        // The full prompt when a step or a card question is new; otherwise one line on where we are.
        let fresh = note.is_some()
            || events.iter().any(|e| {
                matches!(
                    e,
                    Event::StepEntered { .. } | Event::Awaiting { .. } | Event::GameOver { .. }
                )
            });
        if fresh || s.game_over {
            println!("{}", prompt.text.zh);
            println!("{}", prompt.text.en);
        } else {
            let step = s.current_step();
            let title = crate::table::files::printable(&step.title.en);
            println!("▶ turn {} {} {title}", s.turn, step.id);
        }
        println!("  now: {}", summarise(&legal));
    }

    fn status(&self, s: &State, journal: &Path) {
        let steps: Vec<_> = s
            .sequence
            .steps
            .iter()
            .enumerate()
            .filter(|(_, st)| st.applies(s.mission.mission_type, s.turn))
            .map(|(i, st)| json!({ "id": st.id, "title": st.title, "current": i == s.step, "draws": st.draws }))
            .collect();
        let recent: Vec<_> = s.log.iter().rev().take(8).rev().collect();
        let view = json!({
            "journal": journal.display().to_string(),
            "mission": s.mission.name,
            "mission_type": s.mission.mission_type.name(),
            "seed": s.seed,
            "turn": s.turn,
            "turns": s.mission.turns,
            "time_of_day": s.time_of_day(),
            "limited_visibility": s.limited_visibility(),
            "step": s.current_step().id,
            "activity": s.activity,
            "commands": s.commands,
            "general_initiative": s.general,
            "enemies": s.enemies,
            "pc_markers": s.pc_markers,
            "deck": { "name": s.deck.name, "draw_pile": s.pile.draw.len(), "discards": s.pile.discard.len(), "shuffles": s.pile.shuffles },
            "awaiting": s.awaiting,
            "game_over": s.game_over,
            "sequence": steps,
            "recent_draws": recent,
            "prompt": FieldsOfFire::prompt(s),
        });
        if self.json {
            println!("{view}");
            return;
        }
        let time = s.time_of_day().text();
        println!(
            "{} — {} mission, seed {}, journal {}",
            s.mission.name.en,
            s.mission.mission_type.name(),
            s.seed,
            journal.display()
        );
        println!(
            "turn {}/{} ({}{}), activity {}",
            s.turn,
            s.mission.turns,
            time.en,
            if s.limited_visibility() {
                ", limited visibility"
            } else {
                ""
            },
            s.activity
        );
        for (i, st) in s.sequence.steps.iter().enumerate() {
            if st.applies(s.mission.mission_type, s.turn) {
                let mark = if i == s.step {
                    "▶"
                } else if i < s.step {
                    "✓"
                } else {
                    " "
                };
                println!("  {mark} {:<8} {}", st.id, st.title.en);
            }
        }
        let hqs: Vec<String> = s
            .commands
            .iter()
            .map(|(hq, c)| {
                format!(
                    "{hq} {} (saved {}{})",
                    c.available,
                    c.saved,
                    if c.activated { ", activated" } else { "" }
                )
            })
            .collect();
        println!("commands: {}; general {}", hqs.join(", "), s.general);
        let listed = |names: Vec<&str>| {
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        };
        println!(
            "enemies: {}; PC markers: {}",
            listed(s.enemies.iter().map(String::as_str).collect()),
            listed(s.pc_markers.iter().map(String::as_str).collect())
        );
        println!(
            "deck: {} to draw, {} discarded, shuffle {}",
            s.pile.draw.len(),
            s.pile.discard.len(),
            s.pile.shuffles
        );
        for d in recent {
            println!("  draw {:>3}: #{:<3} {}", d.seq, d.card, d.purpose);
        }
        println!("{}", FieldsOfFire::prompt(s).text.en);
    }
}
