//! What the panel shows: the prompt (who acts, in Chinese and English) and a player's view that hides
//! the opponent's hand, both libraries and the opponent's face-down territories.

use crate::state::{Outcome, Pending, Phase, Seat, StackKind, State, Target};
use rules_core::{Prompt, Text};
use serde::Serialize;

pub fn prompt(s: &State) -> Prompt {
    let Some(seat) = s.actor() else {
        let text = match s.outcome {
            Some(Outcome::Winner(w)) => Text::new(
                format!("对局结束：{} 获胜", s.players[w].name),
                format!("game over: {} wins", s.players[w].name),
            ),
            _ => Text::new("对局结束：平局", "game over: a draw"),
        };
        return Prompt { actor: None, text };
    };
    let name = s.players[seat].name.clone();
    let text = match &s.pending {
        Some(Pending::Stargaze { cards, .. }) => Text::new(
            format!("{name}：观星，安排牌库顶 {} 张牌", cards.len()),
            format!("{name}: 观星, arrange the top {} cards", cards.len()),
        ),
        Some(Pending::Breakthrough { min, max, .. }) => Text::new(
            format!("{name}：破竹，分配 {min}-{max} 点伤害给相对单位，其余给防御玩家"),
            format!(
                "{name}: 破竹, assign {min}-{max} to the opposite unit, the rest to the player"
            ),
        ),
        Some(Pending::Discard { .. }) => Text::new(
            format!("{name}：弃牌至 {} 张", s.profile.hand_limit),
            format!("{name}: discard down to {}", s.profile.hand_limit),
        ),
        None if s.phase == Phase::Mulligan => Text::new(
            format!("{name}：保留手牌或调度"),
            format!("{name}: keep or mulligan"),
        ),
        None => Text::new(
            format!(
                "{name} 持有优先权（第 {} 回合，{}，堆叠 {} 项）",
                s.turn,
                s.phase.zh(),
                s.stack.len()
            ),
            format!(
                "{name} holds priority (turn {}, {}, stack {})",
                s.turn,
                s.phase.en(),
                s.stack.len()
            ),
        ),
    };
    Prompt {
        actor: Some(name),
        text,
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct UnitView {
    pub slot: usize,
    pub name: String,
    pub attack: u8,
    pub health: i16,
    pub damage: u8,
    pub tapped: bool,
    pub fresh: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct SideView {
    pub name: String,
    pub life: i32,
    pub library: usize,
    pub hand_count: usize,
    /// Only for the viewer's own side.
    pub hand: Option<Vec<String>>,
    pub graveyard: Vec<String>,
    pub units: Vec<UnitView>,
    /// Face-down territories of the opponent show as "暗置".
    pub territories: Vec<(String, bool)>,
    pub entities: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct PlayerView {
    pub viewer: Seat,
    pub turn: u32,
    pub active: Seat,
    pub phase: String,
    pub priority: Seat,
    pub stack: Vec<String>,
    pub sides: Vec<SideView>,
    /// The pending choice; 观星's cards are named only to the player looking at them.
    pub choice: Option<String>,
    pub prompt: Prompt,
}

pub fn player_view(s: &State, viewer: Seat) -> PlayerView {
    let name = |c| s.def(c).name.clone();
    let sides = (0..2)
        .map(|seat| {
            let p = &s.players[seat];
            SideView {
                name: p.name.clone(),
                life: p.life,
                library: p.library.len(),
                hand_count: p.hand.len(),
                hand: (seat == viewer).then(|| p.hand.iter().map(|&c| name(c)).collect()),
                graveyard: p.graveyard.iter().map(|&c| name(c)).collect(),
                units: p
                    .slots
                    .iter()
                    .enumerate()
                    .filter_map(|(slot, u)| {
                        u.as_ref().map(|u| UnitView {
                            slot,
                            name: name(u.card),
                            attack: s.attack_of(u.card),
                            health: s.health_of(u.card),
                            damage: u.damage,
                            tapped: u.tapped,
                            fresh: u.fresh,
                        })
                    })
                    .collect(),
                territories: p
                    .territories
                    .iter()
                    .map(|t| {
                        (
                            if t.face_up || seat == viewer {
                                name(t.card)
                            } else {
                                "暗置".to_string()
                            },
                            t.tapped,
                        )
                    })
                    .collect(),
                entities: p.entities.iter().map(|e| name(e.card)).collect(),
            }
        })
        .collect();
    let stack = s
        .stack
        .iter()
        .map(|i| describe(s, &i.kind, i.target))
        .collect();
    let choice = s.pending.as_ref().map(|p| match p {
        Pending::Stargaze { seat, cards } if *seat == viewer => {
            format!(
                "观星: {}",
                cards
                    .iter()
                    .map(|&c| name(c))
                    .collect::<Vec<_>>()
                    .join("、")
            )
        }
        Pending::Stargaze { seat, cards } => {
            format!("{} 观星 {} 张", s.players[*seat].name, cards.len())
        }
        Pending::Breakthrough { min, max, .. } => format!("破竹 {min}-{max}"),
        Pending::Discard { seat } => format!("{} 弃牌", s.players[*seat].name),
    });
    PlayerView {
        choice,
        viewer,
        turn: s.turn,
        active: s.active,
        phase: s.phase.zh().to_string(),
        priority: s.priority,
        stack,
        sides,
        prompt: prompt(s),
    }
}

/// One line per stack item, for the panel and the CLI log.
pub fn describe(s: &State, kind: &StackKind, target: Option<Target>) -> String {
    let n = |c| s.def(c).name.clone();
    let t = match target {
        Some(Target::Unit(u)) | Some(Target::StackCard(u)) => format!(" → {}", n(u)),
        Some(Target::Player(p)) => format!(" → {}", s.players[p].name),
        None => String::new(),
    };
    let what = match kind {
        StackKind::Card { card, .. } => n(*card),
        StackKind::Shoot { unit, amount } => format!("{} 射击 {amount}", n(*unit)),
        StackKind::TerritoryAbility { territory } => format!("{} 能力", n(*territory)),
        StackKind::Equip { equipment, .. } => format!("{} 佩带", n(*equipment)),
        StackKind::Attack { unit } => format!("{} 攻击", n(*unit)),
        StackKind::Intercept { source, amount, .. } => format!("{} 迎击 {amount}", n(*source)),
        StackKind::Assault { unit, amount } => format!("{} 突击 {amount}", n(*unit)),
        StackKind::Combo { unit } => format!("{} 连击", n(*unit)),
        StackKind::OnEnter { card } => format!("{} 进场效果", n(*card)),
        StackKind::Stargaze { card, amount } => format!("{} 观星 {amount}", n(*card)),
        StackKind::ExpeditionExile { unit } => format!("{} 远征放逐", n(*unit)),
    };
    format!("{what}{t}")
}

/// An action in words, with card names (for logs and the panel); 陣地 are numbered 1–5 as printed.
pub fn describe_action(s: &State, a: &crate::Action) -> String {
    use crate::Action as A;
    let n = |c: crate::CardId| {
        s.cards
            .get(c as usize)
            .map_or_else(|| format!("#{c}"), |_| s.def(c).name.clone())
    };
    let target = |t: &Option<Target>| match t {
        Some(Target::Unit(u)) | Some(Target::StackCard(u)) => format!(" → {}", n(*u)),
        Some(Target::Player(p)) => {
            format!(" → {}", s.players.get(*p).map_or("?", |p| p.name.as_str()))
        }
        None => String::new(),
    };
    // A face-down territory is said as such: its card is secret.
    let land = |c: crate::CardId| {
        let down = s
            .players
            .iter()
            .flat_map(|p| &p.territories)
            .any(|t| t.card == c && !t.face_up);
        if down {
            "暗置领土".to_string()
        } else {
            n(c)
        }
    };
    let paid = |pay: &Option<Vec<crate::CardId>>| match pay {
        Some(list) if !list.is_empty() => format!(
            "，横置 {}",
            list.iter().map(|&c| land(c)).collect::<Vec<_>>().join("、")
        ),
        _ => String::new(),
    };
    match a {
        A::Keep => "保留手牌 keep".into(),
        A::Mulligan { cards } => format!(
            "调度 mulligan {}",
            cards.iter().map(|&c| n(c)).collect::<Vec<_>>().join("、")
        ),
        A::Pass => "让出优先权 pass".into(),
        A::PlayTerritory { card, face_up } => format!(
            "{} {}",
            if *face_up {
                "明置领土"
            } else {
                "暗置领土"
            },
            n(*card)
        ),
        A::PlayCard {
            card,
            slot,
            target: t,
            expedition,
            pay,
        } => format!(
            "打出 {}{}{}{}{}",
            n(*card),
            slot.map_or(String::new(), |i| format!(" 于陣地 {}", i + 1)),
            target(t),
            if *expedition { "（远征）" } else { "" },
            paid(pay)
        ),
        A::ActivateTerritory { territory, pay } => {
            format!("启动 {}{}", n(*territory), paid(pay))
        }
        A::Shoot { unit, target: t } => format!("{} 射击 {}", n(*unit), n(*t)),
        A::Shift { unit, to } => format!("{} 转移到陣地 {}", n(*unit), to + 1),
        A::Equip {
            equipment,
            unit,
            pay,
        } => format!("{} 佩带给 {}{}", n(*equipment), n(*unit), paid(pay)),
        A::Attack { unit } => format!("{} 攻击", n(*unit)),
        A::Arrange { top, bottom } => format!("观星：顶 {} 张，底 {} 张", top.len(), bottom.len()),
        A::AssignBreakthrough { to_unit } => format!("破竹：{to_unit} 点给相对单位"),
        A::Discard { card } => format!("弃掉 {}", n(*card)),
    }
}

/// An event in words, with card names.
pub fn describe_event(s: &State, e: &crate::Event) -> String {
    use crate::Event as E;
    let n = |c: crate::CardId| {
        s.cards
            .get(c as usize)
            .map_or_else(|| format!("#{c}"), |_| s.def(c).name.clone())
    };
    let p = |seat: Seat| {
        s.players
            .get(seat)
            .map_or("?".to_string(), |p| p.name.clone())
    };
    match e {
        E::Drew { seat, .. } => format!("{} 摸了一张牌", p(*seat)),
        E::Entered { card, slot, .. } => format!(
            "{} 进入战场{}",
            n(*card),
            slot.map_or(String::new(), |i| format!("（陣地 {}）", i + 1))
        ),
        E::UnitDamaged { card, amount } => format!("{} 受到 {amount} 点伤害", n(*card)),
        E::Prevented { card, amount } => format!("{} 防止了 {amount} 点伤害", n(*card)),
        E::PlayerDamaged { seat, amount } => format!("{} 受到 {amount} 点伤害", p(*seat)),
        E::LifeLost { seat, amount } => format!("{} 失去 {amount} 点体力", p(*seat)),
        E::LifeGained { seat, amount } => format!("{} 回复 {amount} 点体力", p(*seat)),
        E::Died { card } => format!("{} 死去", n(*card)),
        E::Cancelled { card } => format!("{} 被取消", n(*card)),
        E::Exiled { card } => format!("{} 被放逐", n(*card)),
        E::Kept { seat } => format!("{} 保留手牌", p(*seat)),
        E::Passed { seat } => format!("{} 让过", p(*seat)),
        E::PhaseBegan { seat, turn, phase } => {
            format!("第 {turn} 回合 {}：{}", phase.zh(), p(*seat))
        }
        // A face-down territory's card stays secret in the log.
        E::TerritoryPlayed {
            seat,
            card,
            face_up: true,
        } => format!("{} 明置领土 {}", p(*seat), n(*card)),
        E::TerritoryPlayed { seat, .. } => format!("{} 暗置一张领土", p(*seat)),
        E::Played {
            seat,
            card,
            cost_paid,
        } => format!("{} 打出 {}，支付 {cost_paid}", p(*seat), n(*card)),
        E::Resolved { controller } => format!("堆叠顶结算（{}）", p(*controller)),
        E::Fizzled { controller } => format!("堆叠顶失效（{}）", p(*controller)),
        E::Attacked { unit, slot } => format!("{} 自陣地 {} 发起攻击", n(*unit), slot + 1),
        E::Destroyed { card } => format!("{} 被摧毁", n(*card)),
        E::Untapped { card } => format!("{} 重置", n(*card)),
        E::Discarded { seat, card } => format!("{} 弃掉 {}", p(*seat), n(*card)),
        other => format!("{other:?}"),
    }
}
