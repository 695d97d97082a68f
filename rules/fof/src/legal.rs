//! `legal_actions` and `prompt`. Candidates are proposed from the state and kept only when `apply`
//! accepts them, so the list can never disagree with the rules.

use crate::action::Action;
use crate::card::Experience;
use crate::engine::apply;
use crate::jobs;
use crate::sequence::StepKind;
use crate::state::State;
use rules_core::{Prompt, Text};

pub fn candidates(s: &State) -> Vec<Action> {
    if s.game_over {
        return Vec::new();
    }
    if let Some(field) = &s.awaiting {
        return jobs::answers_for(field)
            .into_iter()
            .map(Action::Answer)
            .collect();
    }
    let mut out = vec![
        Action::Next,
        Action::Draw {
            purpose: "free draw".into(),
        },
    ];
    let kind = s.current_step().kind;
    for hq in &s.mission.hqs {
        out.push(Action::Activate { hq: hq.id.clone() });
    }
    if kind.is_command() {
        let pools = s
            .commands
            .iter()
            .map(|(hq, c)| (hq.clone(), c.available))
            .chain(std::iter::once(("general".to_string(), s.general)));
        for (hq, available) in pools {
            for points in 1..=available {
                out.push(Action::Spend {
                    hq: hq.clone(),
                    points,
                });
            }
        }
    }
    if kind == StepKind::UpdateFireMissions {
        for level in &s.mission.activity_levels {
            out.push(Action::SetActivity {
                level: level.clone(),
            });
        }
    }
    for m in &s.pc_markers {
        out.push(Action::CheckPc { marker: m.clone() });
        out.push(Action::RemovePc { marker: m.clone() });
    }
    for m in s.mission.pc_chart.keys() {
        out.push(Action::PlacePc { marker: m.clone() });
    }
    if matches!(kind, StepKind::CombatEffects | StepKind::Vehicles) {
        for modifier in -10..=10 {
            for experience in Experience::ALL {
                out.push(Action::Fire {
                    modifier,
                    experience,
                });
            }
        }
    }
    for u in &s.enemies {
        out.push(Action::RemoveEnemy { unit: u.clone() });
    }
    let fresh = (1..)
        .map(|i| format!("E{i}"))
        .find(|u| !s.enemies.contains(u));
    if let Some(unit) = fresh {
        out.push(Action::AddEnemy { unit });
    }
    out
}

pub fn legal_actions(s: &State) -> Vec<Action> {
    candidates(s)
        .into_iter()
        .filter(|a| apply(s, a).is_ok())
        .collect()
}

pub fn prompt(s: &State) -> Prompt {
    if s.game_over {
        return Prompt {
            actor: None,
            text: Text::new(
                format!("任务结束。检查任务目标：{}", s.mission.objectives.zh),
                format!(
                    "The mission is over. Check the objectives: {}",
                    s.mission.objectives.en
                ),
            ),
        };
    }
    let step = s.current_step();
    let time = s.time_of_day().text();
    let head_zh = format!(
        "第{}回合（{}）{} {}",
        s.turn, time.zh, step.id, step.title.zh
    );
    let head_en = format!(
        "Turn {} ({}) {} {}",
        s.turn, time.en, step.id, step.title.en
    );
    let text = match (&s.awaiting, s.jobs.front().and_then(|j| j.card)) {
        (Some(field), Some(card)) => {
            let q = jobs::question(s, field);
            Text::new(
                format!("{head_zh}：抽到第{card}号牌。{}", q.zh),
                format!("{head_en}: card #{card} drawn. {}", q.en),
            )
        }
        _ => Text::new(
            format!("{head_zh}：{}（完成后 next）", step.prompt.zh),
            format!("{head_en}: {} (then next)", step.prompt.en),
        ),
    };
    Prompt {
        actor: Some("player".into()),
        text,
    }
}
