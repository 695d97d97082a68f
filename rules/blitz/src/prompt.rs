//! What the panel says next: whose move it is and what they may do, in Chinese and English.

use crate::state::{State, Winner};
use crate::steps::Step;
use rules_core::{Prompt, Text};

pub fn prompt(state: &State) -> Prompt {
    if let Some(outcome) = &state.outcome {
        let who = match &outcome.winner {
            Winner::Side(crate::catalogue::Side::Allied) => ("盟军获胜", "the Allies win"),
            Winner::Side(crate::catalogue::Side::Axis) => ("德军获胜", "the Axis wins"),
            Winner::Draw => ("平局", "a draw"),
        };
        return Prompt {
            actor: None,
            text: Text::new(
                format!(
                    "游戏结束：{}（{}）。{}",
                    who.0, outcome.rule, outcome.detail
                ),
                format!(
                    "Game over: {} ({}). {}",
                    who.1, outcome.rule, outcome.detail
                ),
            ),
        };
    }
    let player = state.actor().unwrap_or(0);
    let faction = state.players[player].faction;
    let info = state.step.info();
    let head_zh = format!(
        "第{}回合 · {} · {} · {}",
        state.round,
        info.phase.zh,
        info.name.zh,
        faction.name_zh()
    );
    let head_en = format!(
        "Round {} · {} · {} · {}",
        state.round,
        info.phase.en,
        info.name.en,
        faction.name_en()
    );
    let (zh, en) = if state.pending_advance.is_some() {
        (
            "敌军部队阵亡：选择一支攻击部队进入该位置，或原地不动".to_string(),
            "The enemy unit is destroyed: advance one attacker into its cell, or hold".to_string(),
        )
    } else {
        let hand = state.players[player].hand.len();
        match state.step {
            Step::Mulligan => (
                format!("保留手牌，或弃掉全部{hand}张重新洗牌摸取（仅一次）"),
                format!("Keep your {hand} cards, or throw them back, reshuffle and draw again (once)"),
            ),
            Step::Draw if hand >= state.profile.hand_limit => (
                format!("手牌已有{hand}张：放弃摸牌，或弃掉一张再摸"),
                format!("Your hand holds {hand}: skip the draw, or discard one and draw"),
            ),
            Step::Draw => ("摸一张牌".to_string(), "Draw a card".to_string()),
            Step::DeployMove => match crate::checks::must_advance(state, player) {
                Some(unit) => (
                    format!("{} 必须突破至纵深第4格（部署阶段规则 4）", state.card_name(unit)),
                    format!("{} must advance to depth 4 (部署阶段规则 4)", state.card_name(unit)),
                ),
                None => (
                    "部署一张部队或资源牌到己方阵地，或移动一张牌一格；完成后结束".to_string(),
                    "Deploy a unit or resource on your side, or move one card one cell; done when finished".to_string(),
                ),
            },
            Step::Facility => (
                "放置一张设施牌，或结束".to_string(),
                "Place a facility, or done".to_string(),
            ),
            Step::Skill => (
                "使用一张技能牌（每局一次），或结束".to_string(),
                "Show a skill card (once per game), or done".to_string(),
            ),
            Step::Attack => (
                "用一支或多支部队攻击一个范围内的敌军，或结束".to_string(),
                "Attack one enemy in range with one or more units, or done".to_string(),
            ),
            Step::Over => (String::new(), String::new()),
        }
    };
    Prompt {
        actor: Some(format!("{} {}", faction.name_zh(), faction.name_en())),
        text: Text::new(format!("{head_zh}：{zh}"), format!("{head_en}: {en}")),
    }
}
