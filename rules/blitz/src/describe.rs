//! Events as sentences for the rulings log ("Panzer IV (5) vs. Sherman (4): Sherman is destroyed").

use crate::action::Event;
use crate::state::{CardId, State, Winner};

/// Describes `event`, which turned `before` into `after` (names come from whichever still knows the card).
pub fn describe(before: &State, after: &State, event: &Event) -> String {
    let name = |c: &CardId| before.card_name(*c);
    let seat = |p: &usize| {
        let f = after.players[*p].faction;
        format!("{} {}", f.name_zh(), f.name_en())
    };
    match event {
        Event::KeptHand(p) => format!("{} 保留手牌 keeps the hand", seat(p)),
        Event::Mulliganed(p) => format!("{} 重新摸牌 mulligans", seat(p)),
        Event::Drew(p) => format!(
            "{} 摸牌 draws ({} in hand)",
            seat(p),
            after.players[*p].hand.len()
        ),
        Event::SkippedDraw(p) => format!("{} 放弃摸牌 skips the draw", seat(p)),
        Event::Discarded { card, rule } => format!("{} → 弃牌堆 discard ({rule})", name(card)),
        Event::Deployed { card, cell } => format!("{} 部署 deployed at {cell}", name(card)),
        Event::Moved { card, from, to } => format!("{} 移动 moves {from} → {to}", name(card)),
        Event::MineExploded { mine, unit } => {
            format!("{} 触雷 hits {}: destroyed", name(unit), name(mine))
        }
        Event::MineCleared { mine, unit } => format!("{} 扫除 clears {}", name(unit), name(mine)),
        Event::BrokeThrough { card } => {
            format!("{} 突破至纵深第4格 breaks through to depth 4", name(card))
        }
        Event::FacilityPlaced { card, cell } => format!("{} 设施 placed at {cell}", name(card)),
        Event::SkillUsed { card } => format!("{} 技能 shown", name(card)),
        Event::Attacked {
            attackers,
            target,
            power,
            defence,
            destroyed,
        } => {
            let by: Vec<String> = attackers.iter().map(name).collect();
            let result = if *destroyed {
                format!("{} is destroyed 阵亡", name(target))
            } else {
                format!("{} holds 攻击失败", name(target))
            };
            format!(
                "{} ({power}) vs. {} ({defence}): {result}",
                by.join(" + "),
                name(target)
            )
        }
        // The attack or the mine already says so.
        Event::Destroyed { .. } => String::new(),
        Event::Advanced { card, to } => format!("{} 进入 advances into {to}", name(card)),
        Event::Passed(p) => format!("{} 结束 done", seat(p)),
        Event::VotedStalemate(p) => {
            format!("{} 同意结束僵局 agrees the stalemate is hopeless", seat(p))
        }
        Event::StepStarted(step) => {
            let info = step.info();
            format!("— {} {} —", info.name.zh, info.name.en)
        }
        Event::RoundStarted { round, order } => {
            let names: Vec<String> = order
                .iter()
                .map(|p| after.players[*p].faction.name_en().to_string())
                .collect();
            format!("=== 第{round}回合 Round {round}: {} ===", names.join(" → "))
        }
        Event::GameOver(o) => {
            let w = match o.winner {
                Winner::Side(crate::catalogue::Side::Allied) => "盟军获胜 Allied victory",
                Winner::Side(crate::catalogue::Side::Axis) => "德军获胜 Axis victory",
                Winner::Draw => "平局 draw",
            };
            format!("游戏结束 GAME OVER: {w} — {} ({})", o.rule, o.detail)
        }
    }
}
