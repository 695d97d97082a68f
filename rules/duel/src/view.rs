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

/// A card's names, Chinese and English; an id the game does not hold is said as `#id`.
fn names(s: &State, c: crate::CardId) -> (String, String) {
    match s.cards.get(c as usize) {
        Some(_) => {
            let def = s.def(c);
            let en = if def.en.is_empty() {
                &def.name
            } else {
                &def.en
            };
            (def.name.clone(), en.clone())
        }
        None => (format!("#{c}"), format!("#{c}")),
    }
}

fn seat_name(s: &State, seat: Seat) -> String {
    s.players
        .get(seat)
        .map_or("?".to_string(), |p| p.name.clone())
}

fn target_names(s: &State, target: &Option<Target>) -> (String, String) {
    match target {
        Some(Target::Unit(u)) | Some(Target::StackCard(u)) => {
            let (zh, en) = names(s, *u);
            (format!(" → {zh}"), format!(" → {en}"))
        }
        Some(Target::Player(p)) => {
            let who = format!(" → {}", seat_name(s, *p));
            (who.clone(), who)
        }
        None => (String::new(), String::new()),
    }
}

/// One line per stack item, for the panel and the CLI log, in both languages.
pub fn describe(s: &State, kind: &StackKind, target: Option<Target>) -> String {
    let n = |c| names(s, c);
    let (tz, te) = target_names(s, &target);
    let said = |c, zh: &str, en: &str| {
        let (cz, ce) = n(c);
        (format!("{cz} {zh}"), format!("{ce} {en}"))
    };
    let (zh, en) = match kind {
        StackKind::Card { card, .. } => n(*card),
        StackKind::Shoot { unit, amount } => said(
            *unit,
            &format!("射击 {amount}"),
            &format!("shoots {amount}"),
        ),
        StackKind::TerritoryAbility { territory } => said(*territory, "能力", "ability"),
        StackKind::Equip { equipment, .. } => said(*equipment, "佩带", "equips"),
        StackKind::Attack { unit } => said(*unit, "攻击", "attacks"),
        StackKind::Intercept { source, amount, .. } => said(
            *source,
            &format!("迎击 {amount}"),
            &format!("intercepts {amount}"),
        ),
        StackKind::Assault { unit, amount } => said(
            *unit,
            &format!("突击 {amount}"),
            &format!("assault {amount}"),
        ),
        StackKind::Combo { unit } => said(*unit, "连击", "combo"),
        StackKind::OnEnter { card } => said(*card, "进场效果", "on entering"),
        StackKind::Stargaze { card, amount } => said(
            *card,
            &format!("观星 {amount}"),
            &format!("stargaze {amount}"),
        ),
        StackKind::ExpeditionExile { unit } => {
            said(*unit, "远征放逐", "exiled after its expedition")
        }
    };
    Text::new(format!("{zh}{tz}"), format!("{en}{te}")).to_string()
}

/// An action in words, with card names, in both languages (for logs and the panel); 陣地 are
/// numbered 1–5 as printed.
pub fn describe_action(s: &State, a: &crate::Action) -> String {
    use crate::Action as A;
    let n = |c: crate::CardId| names(s, c);
    // A face-down territory is said as such: its card is secret.
    let land = |c: crate::CardId| {
        let down = s
            .players
            .iter()
            .flat_map(|p| &p.territories)
            .any(|t| t.card == c && !t.face_up);
        if down {
            ("暗置领土".to_string(), "a face-down territory".to_string())
        } else {
            n(c)
        }
    };
    let paid = |pay: &Option<Vec<crate::CardId>>| match pay {
        Some(list) if !list.is_empty() => {
            let (zh, en): (Vec<String>, Vec<String>) = list.iter().map(|&c| land(c)).unzip();
            (
                format!("，横置 {}", zh.join("、")),
                format!(", tapping {}", en.join(", ")),
            )
        }
        _ => (String::new(), String::new()),
    };
    let list = |cards: &[crate::CardId]| -> (String, String) {
        let (zh, en): (Vec<String>, Vec<String>) = cards.iter().map(|&c| n(c)).unzip();
        (zh.join("、"), en.join(", "))
    };
    let text = match a {
        A::Keep => Text::new("保留手牌", "keep the hand"),
        A::Mulligan { cards } => {
            let (zh, en) = list(cards);
            Text::new(format!("调度 {zh}"), format!("mulligan {en}"))
        }
        A::Pass => Text::new("让出优先权", "pass priority"),
        A::PlayTerritory { card, face_up } => {
            let (zh, en) = n(*card);
            if *face_up {
                Text::new(format!("明置领土 {zh}"), format!("territory {en}, face up"))
            } else {
                Text::new(
                    format!("暗置领土 {zh}"),
                    format!("territory {en}, face down"),
                )
            }
        }
        A::PlayCard {
            card,
            slot,
            target: t,
            expedition,
            pay,
        } => {
            let (cz, ce) = n(*card);
            let (tz, te) = target_names(s, t);
            let (pz, pe) = paid(pay);
            Text::new(
                format!(
                    "打出 {cz}{}{tz}{}{pz}",
                    slot.map_or(String::new(), |i| format!(" 于陣地 {}", i + 1)),
                    if *expedition { "（远征）" } else { "" },
                ),
                format!(
                    "play {ce}{}{te}{}{pe}",
                    slot.map_or(String::new(), |i| format!(" in 陣地 {}", i + 1)),
                    if *expedition { " (expedition)" } else { "" },
                ),
            )
        }
        A::ActivateTerritory { territory, pay } => {
            let (cz, ce) = n(*territory);
            let (pz, pe) = paid(pay);
            Text::new(format!("启动 {cz}{pz}"), format!("activate {ce}{pe}"))
        }
        A::Shoot { unit, target: t } => {
            let ((uz, ue), (tz, te)) = (n(*unit), n(*t));
            Text::new(format!("{uz} 射击 {tz}"), format!("{ue} shoots {te}"))
        }
        A::Shift { unit, to } => {
            let (uz, ue) = n(*unit);
            Text::new(
                format!("{uz} 转移到陣地 {}", to + 1),
                format!("{ue} moves to 陣地 {}", to + 1),
            )
        }
        A::Equip {
            equipment,
            unit,
            pay,
        } => {
            let ((ez, ee), (uz, ue)) = (n(*equipment), n(*unit));
            let (pz, pe) = paid(pay);
            Text::new(
                format!("{ez} 佩带给 {uz}{pz}"),
                format!("equip {ee} to {ue}{pe}"),
            )
        }
        A::Attack { unit } => {
            let (uz, ue) = n(*unit);
            Text::new(format!("{uz} 攻击"), format!("{ue} attacks"))
        }
        A::Arrange { top, bottom } => Text::new(
            format!("观星：顶 {} 张，底 {} 张", top.len(), bottom.len()),
            format!(
                "stargaze: {} on top, {} at the bottom",
                top.len(),
                bottom.len()
            ),
        ),
        A::AssignBreakthrough { to_unit } => Text::new(
            format!("破竹：{to_unit} 点给相对单位"),
            format!("破竹: {to_unit} to the opposite unit"),
        ),
        A::Discard { card } => {
            let (cz, ce) = n(*card);
            Text::new(format!("弃掉 {cz}"), format!("discard {ce}"))
        }
    };
    text.to_string()
}

/// An event in words, with card names, in both languages.
pub fn describe_event(s: &State, e: &crate::Event) -> String {
    use crate::Event as E;
    let n = |c: crate::CardId| names(s, c);
    let p = |seat: Seat| seat_name(s, seat);
    // "<card> <zh>" / "<card> <en>"
    let card = |c: crate::CardId, zh: String, en: String| {
        let (cz, ce) = n(c);
        Text::new(format!("{cz} {zh}"), format!("{ce} {en}"))
    };
    let seat = |who: Seat, zh: String, en: String| {
        let who = p(who);
        Text::new(format!("{who} {zh}"), format!("{who} {en}"))
    };
    let text = match e {
        E::Drew { seat: who, .. } => seat(*who, "摸了一张牌".into(), "draws a card".into()),
        E::Mulliganed {
            seat: who,
            put_back,
            drew,
        } => seat(
            *who,
            format!("调度：放回 {put_back} 张，摸 {drew} 张"),
            format!("mulligans: {put_back} back, {drew} drawn"),
        ),
        E::Entered { card: c, slot, .. } => card(
            *c,
            format!(
                "进入战场{}",
                slot.map_or(String::new(), |i| format!("（陣地 {}）", i + 1))
            ),
            format!(
                "enters the battlefield{}",
                slot.map_or(String::new(), |i| format!(" (陣地 {})", i + 1))
            ),
        ),
        E::Moved { card: c, from, to } => card(
            *c,
            format!("自陣地 {} 转移到陣地 {}", from + 1, to + 1),
            format!("moves from 陣地 {} to 陣地 {}", from + 1, to + 1),
        ),
        E::UnitDamaged { card: c, amount } => card(
            *c,
            format!("受到 {amount} 点伤害"),
            format!("takes {amount} damage"),
        ),
        E::Prevented { card: c, amount } => card(
            *c,
            format!("防止了 {amount} 点伤害"),
            format!("prevents {amount} damage"),
        ),
        E::Healed { card: c, amount } => card(
            *c,
            format!("回复 {amount} 点体力"),
            format!("heals {amount}"),
        ),
        E::PlayerDamaged { seat: who, amount } => seat(
            *who,
            format!("受到 {amount} 点伤害"),
            format!("takes {amount} damage"),
        ),
        E::LifeLost { seat: who, amount } => seat(
            *who,
            format!("失去 {amount} 点体力"),
            format!("loses {amount} life"),
        ),
        E::LifeGained { seat: who, amount } => seat(
            *who,
            format!("回复 {amount} 点体力"),
            format!("gains {amount} life"),
        ),
        E::Died { card: c } => card(*c, "死去".into(), "dies".into()),
        E::Cancelled { card: c } => card(*c, "被取消".into(), "is cancelled".into()),
        E::Exiled { card: c } => card(*c, "被放逐".into(), "is exiled".into()),
        E::Kept { seat: who } => seat(*who, "保留手牌".into(), "keeps the hand".into()),
        E::Passed { seat: who } => seat(*who, "让过".into(), "passes".into()),
        E::PhaseBegan {
            seat: who,
            turn,
            phase,
        } => Text::new(
            format!("第 {turn} 回合 {}：{}", phase.zh(), p(*who)),
            format!("turn {turn}, {}: {}", phase.en(), p(*who)),
        ),
        // A face-down territory's card stays secret in the log.
        E::TerritoryPlayed {
            seat: who,
            card: c,
            face_up: true,
        } => {
            let (cz, ce) = n(*c);
            seat(
                *who,
                format!("明置领土 {cz}"),
                format!("plays the territory {ce} face up"),
            )
        }
        E::TerritoryPlayed { seat: who, .. } => seat(
            *who,
            "暗置一张领土".into(),
            "plays a territory face down".into(),
        ),
        E::Played {
            seat: who,
            card: c,
            cost_paid,
        } => {
            let (cz, ce) = n(*c);
            seat(
                *who,
                format!("打出 {cz}，支付 {cost_paid}"),
                format!("plays {ce}, paying {cost_paid}"),
            )
        }
        E::AbilityActivated { seat: who, source } => {
            let (cz, ce) = n(*source);
            seat(
                *who,
                format!("启动 {cz} 的能力"),
                format!("activates {ce}'s ability"),
            )
        }
        E::Resolved { controller } => Text::new(
            format!("堆叠顶结算（{}）", p(*controller)),
            format!("the top of the stack resolves ({})", p(*controller)),
        ),
        E::Fizzled { controller } => Text::new(
            format!("堆叠顶失效（{}）", p(*controller)),
            format!(
                "the top of the stack fizzles: its target is gone ({})",
                p(*controller)
            ),
        ),
        E::Attacked { unit, slot } => card(
            *unit,
            format!("自陣地 {} 发起攻击", slot + 1),
            format!("attacks from 陣地 {}", slot + 1),
        ),
        E::Destroyed { card: c } => card(*c, "被摧毁".into(), "is destroyed".into()),
        E::Untapped { card: c } => card(*c, "重置".into(), "untaps".into()),
        E::Equipped { equipment, unit } => {
            let ((ez, ee), (uz, ue)) = (n(*equipment), n(*unit));
            Text::new(
                format!("{ez} 佩带于 {uz}"),
                format!("{ee} is equipped to {ue}"),
            )
        }
        E::Judged {
            seat: who,
            card: c,
            cost,
            passed,
        } => {
            let (cz, ce) = c.map_or(("无牌".into(), "no card".into()), n);
            let (rz, re) = if *passed {
                ("成功", "passed")
            } else {
                ("失败", "failed")
            };
            seat(
                *who,
                format!("判定：{cz}（费用 {cost}）{rz}"),
                format!("judgement: {ce} (cost {cost}) {re}"),
            )
        }
        E::Contested {
            seat: who,
            mine,
            theirs,
            won,
        } => {
            let v = |x: &Option<u8>| x.map_or("—".to_string(), |v| v.to_string());
            let (rz, re) = if *won {
                ("胜", "won")
            } else {
                ("负", "lost")
            };
            seat(
                *who,
                format!("拼点 {} 对 {}：{rz}", v(mine), v(theirs)),
                format!("contest {} against {}: {re}", v(mine), v(theirs)),
            )
        }
        E::Arranged {
            seat: who,
            top,
            bottom,
        } => seat(
            *who,
            format!("观星：顶 {top} 张，底 {bottom} 张"),
            format!("stargazes: {top} on top, {bottom} at the bottom"),
        ),
        E::Discarded { seat: who, card: c } => {
            let (cz, ce) = n(*c);
            seat(*who, format!("弃掉 {cz}"), format!("discards {ce}"))
        }
        E::GameOver {
            outcome: Outcome::Winner(w),
        } => Text::new(
            format!("对局结束：{} 获胜", p(*w)),
            format!("game over: {} wins", p(*w)),
        ),
        E::GameOver {
            outcome: Outcome::Draw,
        } => Text::new("对局结束：平局", "game over: a draw"),
    };
    text.to_string()
}
