//! Making the draws a step needs and reading the cards: from the deck file in digital mode, or by
//! asking the player (`answer …`) in physical-deck mode.

use crate::action::Answer;
use crate::card::{ActionCard, ActionIcon, ContactResult};
use crate::mission::PcDraws;
use crate::profile::{HqTrigger, Rounding};
use crate::sequence::MissionType;
use crate::state::{CardField, CommandKind, DrawRecord, Event, Job, JobKind, Side, State};
use rules_core::{RuleRef, Text, Violation};

/// What a job must learn from its card before it can be resolved.
fn field_needed(kind: &JobKind) -> Option<CardField> {
    match kind {
        JobKind::HqCheck(_) => Some(CardField::HqTrigger),
        JobKind::HqEvent(_) => Some(CardField::R),
        JobKind::Command {
            kind: CommandKind::Activated,
            ..
        } => Some(CardField::Command),
        JobKind::Command {
            kind: CommandKind::Initiative,
            ..
        }
        | JobKind::GeneralInitiative => Some(CardField::Initiative),
        JobKind::Pc { .. } => Some(CardField::Contact),
        JobKind::Fire { modifier, .. } => Some(CardField::FireEffective {
            modifier: *modifier,
        }),
        JobKind::Hit { experience } => Some(CardField::Hit {
            experience: *experience,
        }),
        // The player reads these cards against the tables on the table; Arbiter only draws them.
        JobKind::EnemyCheck { .. } | JobKind::Plain { .. } => None,
    }
}

fn read(s: &State, card: &ActionCard, field: &CardField) -> Answer {
    let yes_no = |b: bool| if b { Answer::Yes } else { Answer::No };
    match field {
        CardField::HqTrigger => yes_no(match s.mission.profile.hq_event_trigger {
            HqTrigger::RadioIcon => card.hq_radio,
            HqTrigger::HqEventIcon => card.icons.contains(&ActionIcon::HqEvent),
        }),
        CardField::R => Answer::Number(card.r),
        CardField::Command => Answer::Number(card.command),
        CardField::Initiative => Answer::Number(card.initiative),
        CardField::FireEffective { modifier } => yes_no(*modifier >= card.effective_fire),
        CardField::Hit { experience } => Answer::Hit(card.hit.for_experience(*experience)),
        CardField::Contact => Answer::Contact(card.contact),
    }
}

/// The question put to the player holding a physical card, and the answers that fit it.
pub fn question(s: &State, field: &CardField) -> Text {
    match field {
        CardField::HqTrigger => match s.mission.profile.hq_event_trigger {
            HqTrigger::RadioIcon => Text::new("这张牌有HQ无线电符号吗？(answer yes/no)", "Does this card show the HQ radio icon? (answer yes/no)"),
            HqTrigger::HqEventIcon => Text::new("这张牌有HQ事件符号吗？(answer yes/no)", "Does this card show the HQ event icon? (answer yes/no)"),
        },
        CardField::R => Text::new("这张牌底部的R#是多少？(answer 1-10)", "What is the R# at the bottom of this card? (answer 1-10)"),
        CardField::Command => Text::new("钢盔上的启动指令数是多少？(answer 0-9)", "What is the activated-command number on the helmet? (answer 0-9)"),
        CardField::Initiative => Text::new("钢盔右下的主动指令数是多少？(answer 0-9)", "What is the initiative number at the helmet's lower right? (answer 0-9)"),
        CardField::FireEffective { modifier } => Text::new(
            format!("净战斗修正 {modifier:+} 时火力有效吗？(answer yes/no)"),
            format!("Is fire effective at net combat modifier {modifier:+}? (answer yes/no)"),
        ),
        CardField::Hit { experience } => Text::new(
            format!("{}目标的命中效果是什么？(answer no_effect/pinned/panicked/casualty/killed)", experience.name()),
            format!("What is the hit effect for a {} target? (answer no_effect/pinned/panicked/casualty/killed)", experience.name()),
        ),
        CardField::Contact => Text::new(
            "这张牌的潜在接触结果是什么？(answer none/sniper/team/squad/platoon/vehicle)",
            "What is this card's potential-contact result? (answer none/sniper/team/squad/platoon/vehicle)",
        ),
    }
}

pub fn answers_for(field: &CardField) -> Vec<Answer> {
    match field {
        CardField::HqTrigger | CardField::FireEffective { .. } => vec![Answer::Yes, Answer::No],
        CardField::R => (1..=10).map(Answer::Number).collect(),
        CardField::Command | CardField::Initiative => (0..=9).map(Answer::Number).collect(),
        CardField::Hit { .. } => crate::card::HitEffect::ALL
            .into_iter()
            .map(Answer::Hit)
            .collect(),
        CardField::Contact => ContactResult::ALL
            .into_iter()
            .map(Answer::Contact)
            .collect(),
    }
}

fn purpose(s: &State, kind: &JobKind) -> String {
    let what = match kind {
        JobKind::HqCheck(Side::Friendly) => "friendly higher HQ event check".to_string(),
        JobKind::HqCheck(Side::Enemy) => "enemy higher HQ event check".to_string(),
        JobKind::HqEvent(Side::Friendly) => "friendly HQ event R#".to_string(),
        JobKind::HqEvent(Side::Enemy) => "enemy HQ event R#".to_string(),
        JobKind::Command {
            hq,
            kind: CommandKind::Activated,
        } => format!("{} activation", s.hq_label(hq)),
        JobKind::Command {
            hq,
            kind: CommandKind::Initiative,
        } => format!("{} initiative", s.hq_label(hq)),
        JobKind::GeneralInitiative => "general initiative".to_string(),
        JobKind::EnemyCheck { unit, index, of } => {
            format!("activity check for enemy {unit} ({index} of {of})")
        }
        JobKind::Pc { marker, draw, of } => format!("PC marker {marker} draw {draw} of {of}"),
        JobKind::Fire { modifier, .. } => format!("effective fire at {modifier:+}"),
        JobKind::Hit { experience } => format!("hit effect on {} target", experience.name()),
        JobKind::Plain { purpose } => purpose.clone(),
    };
    format!("{}: {what}", s.current_step().id)
}

/// Draws the top card (reshuffling first if the profile says so), logging its purpose.
pub fn draw(s: &mut State, purpose: String, events: &mut Vec<Event>) -> Result<u16, Violation> {
    if s.pile.draw.is_empty() {
        if !s.mission.profile.reshuffle_when_empty {
            return Err(Violation::new(
                RuleRef::profile("fof.reshuffle_when_empty"),
                "抽牌堆已空：本规则设置下在3.8清理阶段才重洗弃牌。",
                "The draw pile is empty: with this profile the discards are reshuffled only at 3.8 clean-up.",
            ));
        }
        let cards = s.pile.discard.len();
        s.pile.reshuffle();
        events.push(Event::Reshuffled {
            shuffle: s.pile.shuffles,
            cards,
        });
    }
    let card = s.pile.draw().ok_or_else(|| {
        Violation::new(
            RuleRef::profile("fof.reshuffle_when_empty"),
            "牌堆中没有牌。",
            "There are no cards in the deck.",
        )
    })?;
    let record = DrawRecord {
        seq: s.log.len() as u32 + 1,
        turn: s.turn,
        step: s.current_step().id.clone(),
        card,
        purpose,
    };
    s.log.push(record.clone());
    events.push(Event::Drew {
        record,
        card: s.deck.card(card).cloned(),
    });
    Ok(card)
}

/// Works through the job queue until it is empty or a physical card must be read by the player.
pub fn run(s: &mut State, events: &mut Vec<Event>) -> Result<(), Violation> {
    while let Some(job) = s.jobs.front().cloned() {
        let card = match job.card {
            Some(c) => c,
            None => {
                let c = draw(s, purpose(s, &job.kind), events)?;
                s.jobs[0].card = Some(c);
                c
            }
        };
        let value = match field_needed(&job.kind) {
            None => None,
            Some(field) => match s.deck.card(card) {
                Some(known) => Some(read(s, known, &field)),
                None => {
                    events.push(Event::Awaiting {
                        card,
                        question: question(s, &field),
                    });
                    s.awaiting = Some(field);
                    return Ok(());
                }
            },
        };
        s.jobs.pop_front();
        resolve(s, job.kind, card, value, events);
    }
    Ok(())
}

/// Takes the player's reading of the awaited card and carries on.
pub fn answer(
    s: &mut State,
    a: &crate::action::Answer,
    events: &mut Vec<Event>,
) -> Result<(), Violation> {
    let field = s.awaiting.clone().ok_or_else(|| {
        Violation::new(
            RuleRef::rulebook(s.current_step().id.clone()),
            "现在没有需要读出的牌。",
            "No drawn card is waiting to be read.",
        )
    })?;
    if !answers_for(&field).contains(a) {
        return Err(Violation::new(
            RuleRef::rulebook(s.current_step().id.clone()),
            format!("`{a}` 不是这个问题的答案：{}", question(s, &field).zh),
            format!("`{a}` does not answer: {}", question(s, &field).en),
        ));
    }
    let Some(job) = s.jobs.pop_front() else {
        return Err(Violation::new(
            RuleRef::rulebook(s.current_step().id.clone()),
            "没有待处理的抽牌。",
            "No draw is pending.",
        ));
    };
    s.awaiting = None;
    resolve(s, job.kind, job.card.unwrap_or(0), Some(a.clone()), events);
    run(s, events)
}

fn number(v: &Option<Answer>) -> u8 {
    match v {
        Some(Answer::Number(n)) => *n,
        _ => 0,
    }
}

fn resolve(
    s: &mut State,
    kind: JobKind,
    card: u16,
    value: Option<Answer>,
    events: &mut Vec<Event>,
) {
    match kind {
        JobKind::HqCheck(side) => {
            if value == Some(Answer::Yes) {
                s.jobs.push_front(Job {
                    kind: JobKind::HqEvent(side),
                    card: None,
                });
            } else {
                events.push(Event::NoHqEvent { side });
            }
        }
        JobKind::HqEvent(side) => {
            let r = number(&value).clamp(1, 10);
            let table = match side {
                Side::Friendly => &s.mission.friendly_hq_events,
                Side::Enemy => &s.mission.enemy_hq_events,
            };
            let event = table[usize::from(r - 1)].clone();
            events.push(Event::HqEvent { side, r, event });
        }
        JobKind::Command { hq, kind } => {
            let printed = number(&value);
            let experience = s.mission.hq(&hq).map(|h| h.experience);
            let modifier = experience
                .map(|e| s.mission.profile.experience_modifier.get(e))
                .unwrap_or(0);
            // Seed 3.3.1 note: activated by a superior, at least 1; on initiative, at least 0.
            let floor = if kind == CommandKind::Activated { 1 } else { 0 };
            let gained = (i16::from(printed) + i16::from(modifier)).max(floor) as u8;
            let entry = s.commands.entry(hq.clone()).or_default();
            entry.available = entry.available.saturating_add(gained);
            let available = entry.available;
            events.push(Event::Commands {
                hq,
                kind,
                printed,
                modifier,
                gained,
                available,
            });
        }
        JobKind::GeneralInitiative => {
            let printed = number(&value);
            let gained = if s.mission.mission_type == MissionType::Patrol {
                match s.mission.profile.patrol_initiative_rounding {
                    Rounding::Down => printed / 2,
                    Rounding::Up => printed.div_ceil(2),
                }
            } else {
                printed
            };
            s.general = s.general.saturating_add(gained);
            events.push(Event::Commands {
                hq: "general".into(),
                kind: CommandKind::Initiative,
                printed,
                modifier: 0,
                gained,
                available: s.general,
            });
        }
        JobKind::EnemyCheck { unit, .. } => events.push(Event::EnemyCheck { unit, card }),
        JobKind::Pc { marker, draw, of } => {
            let contact = match value {
                Some(Answer::Contact(c)) => c,
                _ => ContactResult::None,
            };
            if contact != ContactResult::None {
                // Contact: the marker is replaced by what the card reveals; its other draws are moot.
                s.jobs
                    .retain(|j| !matches!(&j.kind, JobKind::Pc { marker: m, .. } if *m == marker));
                s.pc_markers.remove(&marker);
                events.push(Event::PcResolved {
                    marker,
                    contact: Some(contact),
                    automatic: false,
                });
            } else if draw == of {
                events.push(Event::PcResolved {
                    marker,
                    contact: None,
                    automatic: false,
                });
            }
        }
        JobKind::Fire {
            modifier,
            experience,
        } => {
            let effective = value == Some(Answer::Yes);
            events.push(Event::FireResolved {
                modifier,
                effective,
            });
            if effective {
                s.jobs.push_front(Job {
                    kind: JobKind::Hit { experience },
                    card: None,
                });
            }
        }
        JobKind::Hit { experience } => {
            if let Some(Answer::Hit(effect)) = value {
                events.push(Event::HitResolved { experience, effect });
            }
        }
        JobKind::Plain { .. } => {}
    }
}

/// Queues the PC draws for one marker at the current activity level (3.7.2 / PC draw chart).
pub fn queue_pc(s: &mut State, marker: &str, events: &mut Vec<Event>) {
    let draws = s
        .mission
        .pc_chart
        .get(marker)
        .and_then(|row| row.get(&s.activity))
        .copied()
        .unwrap_or(PcDraws::Count(0));
    match draws {
        PcDraws::Auto => {
            s.pc_markers.remove(marker);
            events.push(Event::PcResolved {
                marker: marker.to_string(),
                contact: None,
                automatic: true,
            });
        }
        PcDraws::Count(0) => events.push(Event::PcResolved {
            marker: marker.to_string(),
            contact: None,
            automatic: false,
        }),
        PcDraws::Count(n) => {
            for i in 1..=n {
                s.jobs.push_back(Job {
                    kind: JobKind::Pc {
                        marker: marker.to_string(),
                        draw: i,
                        of: n,
                    },
                    card: None,
                });
            }
        }
    }
}
