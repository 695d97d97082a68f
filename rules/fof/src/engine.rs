//! `apply`: the rules for each action, and what entering and leaving each kind of step does.

use crate::action::Action;
use crate::deck::{Deck, DrawPile};
use crate::jobs;
use crate::mission::{HqRole, Mission};
use crate::sequence::{MissionType, Sequence, StepKind};
use crate::state::{CommandKind, Event, HqCommands, Job, JobKind, Side, State};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rules_core::{RuleRef, Violation};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

/// Everything a game starts from. The seed fixes every shuffle and every random order.
#[derive(Clone, Debug)]
pub struct Setup {
    pub mission: Mission,
    pub deck: Deck,
    pub sequence: Sequence,
    pub seed: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("the mission's sequence has no step for a {0} mission")]
    NoSteps(&'static str),
    #[error("the deck is empty")]
    EmptyDeck,
}

fn illegal(rule: &str, zh: impl Into<String>, en: impl Into<String>) -> Violation {
    Violation::new(RuleRef::rulebook(rule), zh, en)
}

impl State {
    /// Sets the mission up (3.x set-up: enemy units and, on offensive and patrol missions, PC markers)
    /// and enters the first step of turn 1.
    pub fn from_setup(setup: Setup) -> Result<(State, Vec<Event>), SetupError> {
        if setup.deck.is_empty() {
            return Err(SetupError::EmptyDeck);
        }
        let mt = setup.mission.mission_type;
        let first = setup
            .sequence
            .steps
            .iter()
            .position(|s| s.applies(mt, 1))
            .ok_or(SetupError::NoSteps(mt.name()))?;
        let commands: BTreeMap<String, HqCommands> = setup
            .mission
            .hqs
            .iter()
            .map(|h| (h.id.clone(), HqCommands::default()))
            .collect();
        let mut events = Vec::new();
        let pc_markers: BTreeSet<String> = if mt == MissionType::Defensive {
            BTreeSet::new() // placed in 3.2.2 on turn 1
        } else {
            setup.mission.pc_markers.iter().cloned().collect()
        };
        if !pc_markers.is_empty() {
            events.push(Event::PcPlaced {
                markers: pc_markers.iter().cloned().collect(),
            });
        }
        let mut s = State {
            pile: DrawPile::new(setup.seed, setup.deck.len()),
            seed: setup.seed,
            turn: 1,
            step: first,
            activity: setup.mission.start_activity.clone(),
            enemies: setup.mission.enemy_units.clone(),
            pc_markers,
            pc_last: None,
            commands,
            general: 0,
            jobs: VecDeque::new(),
            awaiting: None,
            log: Vec::new(),
            game_over: false,
            mission: Arc::new(setup.mission),
            deck: Arc::new(setup.deck),
            sequence: Arc::new(setup.sequence),
        };
        // Entering the first step may draw; with a non-empty deck that cannot fail.
        if enter_step(&mut s, &mut events).is_err() {
            return Err(SetupError::EmptyDeck);
        }
        Ok((s, events))
    }
}

pub fn apply(state: &State, action: &Action) -> Result<(State, Vec<Event>), Violation> {
    if state.game_over {
        return Err(illegal("3.8", "任务已结束。", "The mission is over."));
    }
    let mut s = state.clone();
    let mut events = Vec::new();
    let step_id = s.current_step().id.clone();
    if s.awaiting.is_some() && !matches!(action, Action::Answer(_)) {
        return Err(illegal(
            &step_id,
            "先读出抽到的牌（answer …）。",
            "Read out the drawn card first (answer …).",
        ));
    }
    let kind = s.current_step().kind;
    match action {
        Action::Answer(a) => jobs::answer(&mut s, a, &mut events)?,
        Action::Next => {
            leave_step(&mut s, &mut events);
            if !s.game_over {
                advance(&mut s, &mut events)?;
            }
        }
        Action::Draw { purpose } => {
            if purpose.trim().is_empty() {
                return Err(illegal(
                    &step_id,
                    "抽牌要写明用途。",
                    "A draw needs a purpose.",
                ));
            }
            s.jobs.push_back(Job {
                kind: JobKind::Plain {
                    purpose: purpose.clone(),
                },
                card: None,
            });
            jobs::run(&mut s, &mut events)?;
        }
        Action::Activate { hq } => activate(&mut s, kind, hq, &mut events)?,
        Action::Spend { hq, points } => spend(&mut s, kind, hq, *points, &mut events)?,
        Action::SetActivity { level } => {
            if kind != StepKind::UpdateFireMissions {
                return Err(illegal(
                    "3.7.1 A",
                    "活动等级在3.7.1 A调整。",
                    "The activity level is set in 3.7.1 A.",
                ));
            }
            if !s.mission.activity_levels.contains(level) {
                return Err(illegal(
                    "3.7.1 A",
                    format!("任务没有活动等级 {level}"),
                    format!("The mission has no activity level `{level}`"),
                ));
            }
            s.activity = level.clone();
            events.push(Event::ActivitySet {
                level: level.clone(),
            });
        }
        Action::CheckPc { marker } => {
            if kind != StepKind::PotentialContact {
                return Err(illegal(
                    "3.7.2",
                    "PC标记在3.7.2处理。",
                    "PC markers are resolved in 3.7.2.",
                ));
            }
            if !s.pc_markers.contains(marker) {
                return Err(illegal(
                    "3.7.2",
                    format!("地图上没有PC标记 {marker}"),
                    format!("No PC marker `{marker}` is on the map"),
                ));
            }
            if s.pc_last.as_ref().is_some_and(|last| marker <= last) {
                return Err(illegal(
                    "3.7.2 (RULES-NOTES: alphabetical order)",
                    format!(
                        "PC标记按字母顺序处理：{marker} 应在 {} 之前。",
                        s.pc_last.clone().unwrap_or_default()
                    ),
                    format!(
                        "PC markers are resolved in alphabetical order: {marker} comes before {}.",
                        s.pc_last.clone().unwrap_or_default()
                    ),
                ));
            }
            s.pc_last = Some(marker.clone());
            jobs::queue_pc(&mut s, marker, &mut events);
            jobs::run(&mut s, &mut events)?;
        }
        Action::Fire {
            modifier,
            experience,
        } => {
            if !matches!(kind, StepKind::CombatEffects | StepKind::Vehicles) {
                return Err(illegal(
                    "3.7.4",
                    "火力效果在3.6车辆阶段或3.7.4战斗效果中判定。",
                    "Fire is resolved in 3.6 (vehicles) or 3.7.4 (combat effects).",
                ));
            }
            if !(-10..=10).contains(modifier) {
                return Err(illegal(
                    "3.7.4",
                    "净战斗修正应在 -10..=10。",
                    "The net combat modifier must be within -10..=10.",
                ));
            }
            s.jobs.push_back(Job {
                kind: JobKind::Fire {
                    modifier: *modifier,
                    experience: *experience,
                },
                card: None,
            });
            jobs::run(&mut s, &mut events)?;
        }
        Action::AddEnemy { unit } => {
            if unit.trim().is_empty() || s.enemies.contains(unit) {
                return Err(illegal(
                    "3.4.2",
                    format!("敌方单位 {unit} 已在地图上"),
                    format!("Enemy unit `{unit}` is already on the map"),
                ));
            }
            s.enemies.push(unit.clone());
            events.push(Event::EnemyAdded { unit: unit.clone() });
        }
        Action::RemoveEnemy { unit } => {
            let before = s.enemies.len();
            s.enemies.retain(|u| u != unit);
            if s.enemies.len() == before {
                return Err(illegal(
                    "3.4.2",
                    format!("地图上没有敌方单位 {unit}"),
                    format!("No enemy unit `{unit}` is on the map"),
                ));
            }
            events.push(Event::EnemyRemoved { unit: unit.clone() });
        }
        Action::PlacePc { marker } => {
            if !s.mission.pc_chart.contains_key(marker) || s.pc_markers.contains(marker) {
                return Err(illegal(
                    "3.7.2",
                    format!("PC标记 {marker} 不在潜在接触抓牌表中或已在地图上"),
                    format!(
                        "PC marker `{marker}` is not on the PC draw chart or is already placed"
                    ),
                ));
            }
            s.pc_markers.insert(marker.clone());
            events.push(Event::PcPlaced {
                markers: vec![marker.clone()],
            });
        }
        Action::RemovePc { marker } => {
            if !s.pc_markers.remove(marker) {
                return Err(illegal(
                    "3.7.2",
                    format!("地图上没有PC标记 {marker}"),
                    format!("No PC marker `{marker}` is on the map"),
                ));
            }
            events.push(Event::PcRemoved {
                marker: marker.clone(),
            });
        }
    }
    Ok((s, events))
}

fn activate(
    s: &mut State,
    kind: StepKind,
    hq: &str,
    events: &mut Vec<Event>,
) -> Result<(), Violation> {
    let co = s.company_id().to_string();
    let role = s.hq_role(hq);
    let already = s.commands.get(hq).is_some_and(|c| c.activated);
    match kind {
        StepKind::BattalionActivation => {
            if hq != co {
                return Err(illegal(
                    "3.3.1 A",
                    "营指只启动连指。",
                    "Battalion activates only the company HQ.",
                ));
            }
        }
        StepKind::CoActivation => {
            if !matches!(role, Some(HqRole::Platoon | HqRole::Staff)) {
                return Err(illegal(
                    "3.3.1 B",
                    format!("{hq} 不是排指或连参谋"),
                    format!("`{hq}` is not a platoon or staff HQ"),
                ));
            }
            if !s.commands.get(&co).is_some_and(|c| c.activated) {
                return Err(illegal(
                    "3.3.1 B",
                    "连指未被启动，不能启动下级（见3.3.2）。",
                    "The CO was not activated, so it cannot activate subordinates (see 3.3.2).",
                ));
            }
            let cost = s.mission.profile.activation_cost;
            if cost > 0 {
                spend(s, kind, &co, cost, events).map_err(|v| {
                    Violation::new(
                        RuleRef::profile("fof.activation_cost"),
                        format!("启动下级需 {cost} 个连指指令：{}", v.reason.zh),
                        format!("Activating costs {cost} CO command(s): {}", v.reason.en),
                    )
                })?;
            }
        }
        _ => {
            return Err(illegal(
                "3.3.1",
                "启动只在3.3.1 A/B进行。",
                "HQs are activated only in 3.3.1 A and B.",
            ));
        }
    }
    if already {
        return Err(illegal(
            "3.3.1",
            format!("{hq} 已被启动"),
            format!("`{hq}` is already activated"),
        ));
    }
    if let Some(c) = s.commands.get_mut(hq) {
        c.activated = true;
    }
    events.push(Event::Activated {
        hq: hq.to_string(),
        by: Some(if kind == StepKind::BattalionActivation {
            "battalion".into()
        } else {
            co
        }),
    });
    Ok(())
}

fn spend(
    s: &mut State,
    kind: StepKind,
    hq: &str,
    points: u8,
    events: &mut Vec<Event>,
) -> Result<(), Violation> {
    if !kind.is_command() {
        return Err(illegal(
            "3.3",
            "指令在我方下达指令阶段（3.3）使用。",
            "Commands are spent in the friendly command phase (3.3).",
        ));
    }
    if points == 0 {
        return Err(illegal(
            "3.3",
            "至少使用1个指令。",
            "Spend at least 1 command.",
        ));
    }
    let limited = s.limited_visibility();
    let cap = s.mission.profile.limited_visibility_spend_cap;
    let left = if hq == "general" {
        if points > s.general {
            return Err(illegal(
                "3.3.2 D",
                format!("一般主动指令只有 {}", s.general),
                format!("Only {} general initiative left", s.general),
            ));
        }
        s.general -= points;
        s.general
    } else {
        let Some(c) = s.commands.get_mut(hq) else {
            return Err(illegal(
                "3.3",
                format!("任务中没有指挥部 {hq}"),
                format!("The mission has no HQ `{hq}`"),
            ));
        };
        if points > c.available {
            return Err(illegal(
                "3.3",
                format!("{hq} 只有 {} 个指令", c.available),
                format!("`{hq}` has only {} command(s)", c.available),
            ));
        }
        if limited && c.spent + points > cap {
            return Err(Violation::new(
                RuleRef::profile("fof.limited_visibility_spend_cap"),
                format!("夜间/能见度受限时每个指挥部每回合最多使用 {cap} 个指令（已用 {}）", c.spent),
                format!("At night or in limited visibility an HQ spends at most {cap} commands a turn ({} spent)", c.spent),
            ));
        }
        c.available -= points;
        c.spent += points;
        c.available
    };
    events.push(Event::Spent {
        hq: hq.to_string(),
        points,
        left,
    });
    Ok(())
}

/// What ending a step does: the command phase ends with saving, the clean-up with the turn marker.
fn leave_step(s: &mut State, events: &mut Vec<Event>) {
    match s.current_step().kind {
        StepKind::GeneralInitiative => {
            let profile = s.mission.profile.clone();
            let limited = s.limited_visibility();
            for hq in s.mission.hqs.clone() {
                let c = s.commands.entry(hq.id.clone()).or_default();
                let mut limit = profile.save_limit.get(hq.experience);
                if limited && profile.limited_visibility_caps_saving {
                    limit = limit.min(profile.limited_visibility_spend_cap);
                }
                let kept = c.available.min(limit);
                let lost = c.available - kept;
                c.saved = kept;
                c.available = 0;
                if kept > 0 || lost > 0 {
                    events.push(Event::Saved {
                        hq: hq.id.clone(),
                        kept,
                        lost,
                    });
                }
            }
            if s.general > 0 {
                events.push(Event::Saved {
                    hq: "general".into(),
                    kept: 0,
                    lost: s.general,
                });
                s.general = 0;
            }
        }
        StepKind::CleanUp => {
            if !s.mission.profile.reshuffle_when_empty && !s.pile.discard.is_empty() {
                let cards = s.pile.discard.len();
                s.pile.reshuffle();
                events.push(Event::Reshuffled {
                    shuffle: s.pile.shuffles,
                    cards,
                });
            }
            if s.turn >= s.mission.turns {
                s.game_over = true;
                events.push(Event::GameOver {
                    objectives: s.mission.objectives.clone(),
                });
            } else {
                s.turn += 1;
                events.push(Event::TurnAdvanced {
                    turn: s.turn,
                    time: s.time_of_day(),
                });
            }
        }
        _ => {}
    }
}

/// Moves to the next step that applies to this mission type and turn, noting the ones skipped.
fn advance(s: &mut State, events: &mut Vec<Event>) -> Result<(), Violation> {
    let mt = s.mission.mission_type;
    let n = s.sequence.steps.len();
    let mut i = if s.current_step().kind == StepKind::CleanUp {
        0
    } else {
        s.step + 1
    };
    loop {
        if i >= n {
            i = 0; // clean-up is last (checked on load), so this only guards odd sequences
        }
        let step = &s.sequence.steps[i];
        if step.applies(mt, s.turn) {
            break;
        }
        if step.missions.contains(&mt) {
            events.push(Event::StepSkipped {
                turn: s.turn,
                step: step.id.clone(),
                reason: rules_core::Text::new(
                    format!("从第{}回合开始", step.from_turn),
                    format!("from turn {}", step.from_turn),
                ),
            });
        }
        i += 1;
    }
    s.step = i;
    enter_step(s, events)
}

/// What entering a step does: queue its draws and run them.
fn enter_step(s: &mut State, events: &mut Vec<Event>) -> Result<(), Violation> {
    let step = s.current_step().clone();
    events.push(Event::StepEntered {
        turn: s.turn,
        step: step.id.clone(),
        title: step.title.clone(),
    });
    let co = s.company_id().to_string();
    let push = |s: &mut State, kind: JobKind| s.jobs.push_back(Job { kind, card: None });
    match step.kind {
        StepKind::FriendlyHqEvents => push(s, JobKind::HqCheck(Side::Friendly)),
        StepKind::EnemyHqEvents => push(s, JobKind::HqCheck(Side::Enemy)),
        StepKind::EnemyActivity => {
            if s.turn == 1 && s.mission.mission_type == MissionType::Defensive {
                let markers: Vec<String> = s.mission.pc_markers.clone();
                s.pc_markers.extend(markers.iter().cloned());
                if !markers.is_empty() {
                    events.push(Event::PcPlaced { markers });
                }
            }
            // Random order from the game's seed (seed 3.4.2: "随机判定检测次序").
            let mut order = s.enemies.clone();
            let mut rng = ChaCha8Rng::seed_from_u64(s.seed ^ (u64::from(s.turn) << 32) ^ 0x3a42);
            order.shuffle(&mut rng);
            if !order.is_empty() {
                events.push(Event::EnemyOrder {
                    units: order.clone(),
                });
            }
            let of = order.len();
            for (i, unit) in order.into_iter().enumerate() {
                push(
                    s,
                    JobKind::EnemyCheck {
                        unit,
                        index: i + 1,
                        of,
                    },
                );
            }
        }
        StepKind::BattalionActivation => {
            // The command phase starts: saved commands come back, nobody is activated yet.
            for c in s.commands.values_mut() {
                c.available = std::mem::take(&mut c.saved);
                c.spent = 0;
                c.activated = false;
            }
            s.general = 0;
        }
        StepKind::CoActivation => {
            if s.commands.get(&co).is_some_and(|c| c.activated) {
                push(
                    s,
                    JobKind::Command {
                        hq: co,
                        kind: CommandKind::Activated,
                    },
                );
            }
        }
        StepKind::SubordinateActivation
        | StepKind::PlatoonInitiative
        | StepKind::StaffInitiative => {
            for hq in s.mission.hqs.clone() {
                let activated = s.commands.get(&hq.id).is_some_and(|c| c.activated);
                match (step.kind, hq.role) {
                    (StepKind::SubordinateActivation, HqRole::Platoon | HqRole::Staff)
                        if activated =>
                    {
                        push(
                            s,
                            JobKind::Command {
                                hq: hq.id,
                                kind: CommandKind::Activated,
                            },
                        )
                    }
                    (StepKind::PlatoonInitiative, HqRole::Platoon) if !activated => push(
                        s,
                        JobKind::Command {
                            hq: hq.id,
                            kind: CommandKind::Initiative,
                        },
                    ),
                    (StepKind::StaffInitiative, HqRole::Staff) if !activated => {
                        // Seed 3.3.2 C: each staff HQ not activated gets 1 command, no draw.
                        let c = s.commands.entry(hq.id.clone()).or_default();
                        c.available = c.available.saturating_add(1);
                        let available = c.available;
                        events.push(Event::Commands {
                            hq: hq.id,
                            kind: CommandKind::Initiative,
                            printed: 1,
                            modifier: 0,
                            gained: 1,
                            available,
                        });
                    }
                    _ => {}
                }
            }
        }
        StepKind::CoInitiative => {
            if !s.commands.get(&co).is_some_and(|c| c.activated) {
                push(
                    s,
                    JobKind::Command {
                        hq: co,
                        kind: CommandKind::Initiative,
                    },
                );
            }
        }
        StepKind::GeneralInitiative => push(s, JobKind::GeneralInitiative),
        StepKind::PotentialContact => s.pc_last = None,
        StepKind::CapturesAndRetreats
        | StepKind::Vehicles
        | StepKind::UpdateFireMissions
        | StepKind::PinnedRecover
        | StepKind::CombatEffects
        | StepKind::CleanUp => {}
    }
    jobs::run(s, events)
}
