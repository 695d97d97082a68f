//! The Fields of Fire egui panel (`arbiter fof panel`): the drawn card large, the sequence as a
//! checklist, next/draw/undo, the draw log and command points per HQ.
//!
//! Every action goes through the CLI's journal (`fof_cli::Journal`: append-only, flushed), so closing
//! the window loses nothing and `arbiter fof status` sees the same game. Shape (egui_demo_app's
//! wrap_app): one struct per area with `fn ui` returning `Command`s, applied once per frame; the
//! journal (runtime) is kept apart from what the player is typing (drafts).

pub(crate) mod card;
mod sequence;
mod side;

#[cfg(test)]
mod tests;

use crate::fof_cli::Journal;
use egui::{Color32, RichText};
use fof::card::Experience;
use fof::Action;
use rules_core::Game;
use std::time::Duration;

/// What the player asked for this frame.
#[must_use]
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Play(Action),
    /// A typed action in the CLI's words (`spend co 2`, `enemy add E3`).
    Typed(String),
    Undo,
}

/// What the player is typing or choosing, kept between frames.
pub struct Drafts {
    pub purpose: String,
    pub typed: String,
    pub fire_modifier: i8,
    pub fire_experience: Experience,
}

impl Default for Drafts {
    fn default() -> Self {
        Drafts {
            purpose: String::new(),
            typed: String::new(),
            fire_modifier: 0,
            fire_experience: Experience::Line,
        }
    }
}

/// The outcome of the last command, shown under the card.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// What the last accepted action did, in (zh, en) lines.
    pub events: Vec<(String, String)>,
    /// A refusal (with the rule it applies) or a failed write.
    pub error: Option<String>,
}

pub struct FofApp {
    pub journal: Journal,
    pub drafts: Drafts,
    pub outcome: Outcome,
    fonts_installed: bool,
    pub font_missing: bool,
    pub style: crate::panel::style::TableStyle,
}

impl FofApp {
    pub fn new(journal: Journal) -> FofApp {
        let outcome = Outcome {
            events: described(journal.last_events()),
            error: journal.warning.clone(),
        };
        FofApp {
            journal,
            drafts: Drafts::default(),
            outcome,
            fonts_installed: false,
            font_missing: false,
            style: Default::default(),
        }
    }

    /// Reads the journal again when another command (the CLI in a terminal) wrote to it since.
    fn follow_disk(&mut self) {
        if !self.journal.changed_on_disk() {
            return;
        }
        match Journal::load(self.journal.path()) {
            Ok(j) => {
                let mut events = vec![(
                    "日志已被其他命令更新，已重新读取".into(),
                    "the journal was changed by another command: reloaded".into(),
                )];
                events.extend(described(j.last_events()));
                self.outcome = Outcome {
                    events,
                    error: j.warning.clone(),
                };
                self.journal = j;
            }
            Err(e) => self.outcome.error = Some(format!("{e:#}")),
        }
    }

    pub fn apply(&mut self, command: Command) {
        self.follow_disk();
        let action = match command {
            Command::Undo => {
                self.outcome = match self.journal.undo() {
                    Ok(()) => {
                        // Say it was undone, then what the action now last did.
                        let mut events = vec![("已撤销上一步".into(), "undone".into())];
                        events.extend(described(self.journal.last_events()));
                        Outcome {
                            events,
                            error: None,
                        }
                    }
                    Err(e) => Outcome {
                        events: Vec::new(),
                        error: Some(format!("{e:#}")),
                    },
                };
                return;
            }
            Command::Play(a) => a,
            Command::Typed(text) => match text.parse::<Action>() {
                Ok(a) => a,
                Err(e) => {
                    self.outcome.error = Some(e);
                    return;
                }
            },
        };
        self.outcome = match self.journal.play(&action) {
            Ok(Ok(events)) => Outcome {
                events: described(&events),
                error: None,
            },
            Ok(Err(v)) => Outcome {
                events: Vec::new(),
                error: Some(format!("refused `{action}`: {v}")),
            },
            Err(e) => Outcome {
                events: Vec::new(),
                error: Some(format!("cannot write the journal: {e:#}")),
            },
        };
    }

    /// Draws everything and applies the commands (apart from eframe so tests can drive it).
    pub fn show(&mut self, ui: &mut egui::Ui) {
        self.style.apply(ui.ctx());
        // Fonts take effect from the next frame: install the CJK face and draw from then on.
        if !self.fonts_installed {
            self.fonts_installed = true;
            self.font_missing = crate::panel::install_cjk_font(ui.ctx()).is_none();
            ui.ctx().request_repaint();
            return;
        }
        self.follow_disk();
        // Look at the file now and then, so moves made with the CLI meanwhile show up.
        ui.ctx().request_repaint_after(Duration::from_secs(1));
        let mut commands = Vec::new();
        let state = self.journal.state();
        let legal = fof::FieldsOfFire::legal_actions(state);
        let style = &mut self.style;
        egui::Panel::top("fof-prompt").show(ui, |ui| {
            style.control(ui);
            commands.extend(top_ui(
                ui,
                state,
                &legal,
                &mut self.drafts,
                self.journal.can_undo(),
                self.font_missing,
            ));
        });
        egui::Panel::bottom("fof-log")
            .resizable(true)
            .min_size(self.style.body_px * 1.5 * 6.0 + 40.0)
            .show(ui, |ui| sequence::log_ui(ui, state));
        egui::Panel::left("fof-sequence")
            .default_size(self.style.body_px * 20.0)
            .show(ui, |ui| sequence::checklist_ui(ui, state));
        egui::Panel::right("fof-side")
            .default_size(self.style.body_px * 21.0)
            .show(ui, |ui| {
                commands.extend(side::SidePanel.ui(ui, state, &legal, &mut self.drafts))
            });
        egui::CentralPanel::default_margins().show(ui, |ui| {
            commands.extend(card::CardPanel.ui(ui, state, &legal, &self.outcome));
        });
        for c in commands {
            self.apply(c);
        }
    }
}

/// Events in both languages; a draw in short, as the card is shown large and in the log.
fn described(events: &[fof::Event]) -> Vec<(String, String)> {
    events
        .iter()
        .map(|e| match e {
            fof::Event::Drew { record: d, .. } => (
                format!("抽牌{}：第{}号牌（{}）", d.seq, d.card, d.purpose),
                format!("draw {}: card #{} ({})", d.seq, d.card, d.purpose),
            ),
            _ => {
                let t = e.describe();
                (t.zh, t.en)
            }
        })
        .collect()
}

/// Where we are, the prompt, and the three main buttons.
fn top_ui(
    ui: &mut egui::Ui,
    s: &fof::State,
    legal: &[Action],
    drafts: &mut Drafts,
    can_undo: bool,
    font_missing: bool,
) -> Vec<Command> {
    let mut out = Vec::new();
    let time = s.time_of_day().text();
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(format!("{} / {}", s.mission.name.zh, s.mission.name.en)).strong());
        ui.label(format!(
            "第{}/{}回合 turn {}/{} · {} {}{} · 活动 activity {} · {} 任务 mission",
            s.turn,
            s.mission.turns,
            s.turn,
            s.mission.turns,
            time.zh,
            time.en,
            if s.limited_visibility() {
                " · 能见度受限 limited visibility"
            } else {
                ""
            },
            s.activity,
            s.mission.mission_type.name(),
        ));
    });
    if font_missing {
        ui.colored_label(
            Color32::from_rgb(240, 170, 60),
            "No CJK font found (install fonts-noto-cjk): Chinese text shows as boxes",
        );
    }
    let prompt = fof::FieldsOfFire::prompt(s);
    ui.label(crate::panel::style::prompt(&prompt.text.zh).strong());
    ui.label(crate::panel::style::prompt(&prompt.text.en));
    ui.add_space(4.0);
    // Keys for a player whose eyes are on the map: N next, D draw, U undo (not while typing).
    let keys = if ui.ctx().egui_wants_keyboard_input() {
        [false; 3]
    } else {
        ui.input_mut(|i| {
            [egui::Key::N, egui::Key::D, egui::Key::U]
                .map(|k| i.consume_key(egui::Modifiers::NONE, k))
        })
    };
    let allowed = |a: &Action| {
        legal
            .iter()
            .any(|l| std::mem::discriminant(l) == std::mem::discriminant(a))
    };
    ui.horizontal(|ui| {
        let big = |t: &str| RichText::new(t).heading();
        let next_ok = allowed(&Action::Next);
        let next = ui
            .add_enabled(next_ok, egui::Button::new(big("下一步 Next")))
            .on_hover_text("key N");
        if next.clicked() || (keys[0] && next_ok) {
            out.push(Command::Play(Action::Next));
        }
        let draw_ok = allowed(&Action::Draw {
            purpose: String::new(),
        });
        let draw = ui
            .add_enabled(draw_ok, egui::Button::new(big("抽牌 Draw")))
            .on_hover_text("key D");
        if draw.clicked() || (keys[1] && draw_ok) {
            let purpose = match drafts.purpose.trim() {
                "" => "free draw".to_string(),
                p => p.to_string(),
            };
            drafts.purpose.clear();
            out.push(Command::Play(Action::Draw { purpose }));
        }
        let label = ui.label("用途 purpose:");
        ui.add(
            egui::TextEdit::singleline(&mut drafts.purpose)
                .hint_text("rally check for squad 1/1")
                .desired_width(260.0),
        )
        .labelled_by(label.id);
        ui.add_space(20.0);
        let undo = ui
            .add_enabled(can_undo, egui::Button::new(big("撤销 Undo")))
            .on_hover_text("key U");
        if undo.clicked() || (keys[2] && can_undo) {
            out.push(Command::Undo);
        }
    });
    ui.add_space(2.0);
    out
}

/// Opens the window on a journal's game. Returns when it is closed.
pub fn run(mut app: FofApp) -> anyhow::Result<()> {
    app.style
        .remember_in(crate::paths::user_data(crate::panel::style::SAVED_FILE));
    let title = format!(
        "Arbiter · Fields of Fire · {}",
        app.journal.path().display()
    );
    crate::panel::open_window(&title, app)
}

impl eframe::App for FofApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}
