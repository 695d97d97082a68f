//! The round's structure as data (游戏阶段): phases, their steps in order, and how players take turns.

use rules_core::Text;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Step {
    /// Before round 1: each player keeps the opening hand or throws it back once (游戏准备 4).
    Mulligan,
    /// 部署阶段 a. 摸牌步骤
    Draw,
    /// 部署阶段 b. 部署移动步骤
    DeployMove,
    /// 部署阶段 c. 设施步骤
    Facility,
    /// 攻防阶段 a. 技能牌步骤
    Skill,
    /// 攻防阶段 b. 攻击行动步骤
    Attack,
    /// The game is over.
    Over,
}

/// How the players act within a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turns {
    /// Each player acts exactly once, in order.
    OncePerPlayer,
    /// Players alternate one card at a time until each has passed (部署阶段规则 7, 容易忽视 2).
    AlternateUntilAllPass,
}

pub struct StepInfo {
    pub step: Step,
    pub phase: Text,
    pub name: Text,
    pub turns: Turns,
}

/// The steps of a round, in order; settlement (结算阶段) follows the last one.
pub const ROUND: [Step; 5] = [
    Step::Draw,
    Step::DeployMove,
    Step::Facility,
    Step::Skill,
    Step::Attack,
];

impl Step {
    pub fn info(self) -> StepInfo {
        let (phase, name, turns) = match self {
            Step::Mulligan => (
                ("游戏准备", "Set-up"),
                ("手牌 · 重新摸牌", "Opening hand: keep or mulligan"),
                Turns::OncePerPlayer,
            ),
            Step::Draw => (
                ("部署阶段", "Deployment phase"),
                ("摸牌步骤", "Draw step"),
                Turns::OncePerPlayer,
            ),
            Step::DeployMove => (
                ("部署阶段", "Deployment phase"),
                ("部署移动步骤", "Deploy and move step"),
                Turns::AlternateUntilAllPass,
            ),
            Step::Facility => (
                ("部署阶段", "Deployment phase"),
                ("设施步骤", "Facility step"),
                Turns::AlternateUntilAllPass,
            ),
            Step::Skill => (
                ("攻防阶段", "Combat phase"),
                ("技能牌步骤", "Skill step"),
                Turns::AlternateUntilAllPass,
            ),
            Step::Attack => (
                ("攻防阶段", "Combat phase"),
                ("攻击行动步骤", "Attack step"),
                Turns::AlternateUntilAllPass,
            ),
            Step::Over => (
                ("游戏结束", "Game over"),
                ("游戏结束", "Game over"),
                Turns::OncePerPlayer,
            ),
        };
        StepInfo {
            step: self,
            phase: Text::new(phase.0, phase.1),
            name: Text::new(name.0, name.1),
            turns,
        }
    }

    /// The step after this one in the round, or `None` when settlement comes next.
    pub fn next_in_round(self) -> Option<Step> {
        match self {
            Step::Mulligan => Some(Step::Draw),
            _ => {
                let i = ROUND.iter().position(|&s| s == self)?;
                ROUND.get(i + 1).copied()
            }
        }
    }
}
