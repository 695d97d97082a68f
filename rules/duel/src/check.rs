//! Whether an action is allowed now, with the rule that forbids it. `legal_actions` is this filter
//! applied to every candidate, so the two cannot disagree.

use crate::action::Action;
use crate::catalogue::{Kind, TargetSpec, Timing};
use crate::keyword::Keyword;
use crate::rules::{refuse, Source};
use crate::state::{CardId, Pending, Phase, Seat, StackKind, State, Target, SLOTS};
use rules_core::Violation;

type Check = Result<(), Violation>;

pub fn check(s: &State, action: &Action) -> Check {
    check_action(s, action)?;
    match action.payment() {
        Some(pay) => crate::pay::check_payment(s, action, pay),
        None => Ok(()),
    }
}

fn check_action(s: &State, action: &Action) -> Check {
    if let Some(o) = s.outcome {
        return Err(refuse(
            "胜负",
            format!("对局已结束：{o:?}"),
            format!("the game is over: {o:?}"),
        ));
    }
    let Some(seat) = s.actor() else {
        return Err(refuse("优先权", "没有玩家可以行动", "no player can act"));
    };
    if let Some(p) = &s.pending {
        return check_pending(s, p, action);
    }
    if s.phase == Phase::Mulligan {
        return check_mulligan(s, seat, action);
    }
    match action {
        Action::Pass => Ok(()),
        Action::PlayTerritory { card, face_up } => check_territory(s, seat, *card, *face_up),
        Action::PlayCard {
            card,
            slot,
            target,
            expedition,
            ..
        } => check_play(s, seat, *card, *slot, *target, *expedition),
        Action::ActivateTerritory { territory, .. } => check_territory_ability(s, seat, *territory),
        Action::Shoot { unit, target } => check_shoot(s, seat, *unit, *target),
        Action::Shift { unit, to } => check_shift(s, seat, *unit, *to),
        Action::Equip {
            equipment, unit, ..
        } => check_equip(s, seat, *equipment, *unit),
        Action::Attack { unit } => check_attack(s, seat, *unit),
        _ => Err(refuse(
            "优先权",
            "现在不能这样做",
            "that is not something you can do now",
        )),
    }
}

fn check_pending(s: &State, p: &Pending, action: &Action) -> Check {
    match (p, action) {
        (Pending::Stargaze { cards, .. }, Action::Arrange { top, bottom }) => {
            let mut all: Vec<CardId> = top.iter().chain(bottom).copied().collect();
            all.sort_unstable();
            let mut want = cards.clone();
            want.sort_unstable();
            if all == want {
                Ok(())
            } else {
                Err(refuse(
                    "词条 观星",
                    "须把查看的每张牌各放一次",
                    "place each looked-at card exactly once",
                ))
            }
        }
        (Pending::Breakthrough { min, max, .. }, Action::AssignBreakthrough { to_unit }) => {
            if (*min..=*max).contains(to_unit) {
                Ok(())
            } else {
                Err(refuse(
                    "词条 破竹",
                    format!("须对相对单位分配 {min} 到 {max} 点"),
                    format!("assign between {min} and {max} to the opposite unit"),
                ))
            }
        }
        (Pending::Discard { seat }, Action::Discard { card }) => {
            if s.players[*seat].hand.contains(card) {
                Ok(())
            } else {
                Err(refuse(
                    "手牌上限",
                    "只能弃掉手牌",
                    "discard a card from your hand",
                ))
            }
        }
        _ => Err(refuse(
            "优先权",
            "须先完成当前的选择",
            "finish the pending choice first",
        )),
    }
}

fn check_mulligan(s: &State, seat: Seat, action: &Action) -> Check {
    match action {
        Action::Keep => Ok(()),
        Action::Mulligan { cards } => {
            let sorted = cards.windows(2).all(|w| w[0] < w[1]);
            if cards.is_empty()
                || !sorted
                || !cards.iter().all(|c| s.players[seat].hand.contains(c))
            {
                return Err(refuse(
                    "调度",
                    "调度须选择手牌中的一张或多张（按编号排列）",
                    "a mulligan names one or more cards from your hand, in ascending id order",
                ));
            }
            Ok(())
        }
        _ => Err(refuse(
            "调度",
            "对局开始前只能保留或调度",
            "before the first turn you may only keep or mulligan",
        )),
    }
}

fn in_hand(s: &State, seat: Seat, card: CardId) -> Check {
    if s.players[seat].hand.contains(&card) {
        Ok(())
    } else {
        Err(refuse(
            "手牌",
            "这张牌不在你的手中",
            "that card is not in your hand",
        ))
    }
}

fn normal(s: &State, seat: Seat, what: &str) -> Check {
    if s.normal_timing(seat) {
        Ok(())
    } else {
        Err(refuse(
            "使用时机 {通常}",
            format!("{what}只能在你的行动阶段、堆叠为空时进行"),
            format!("{what}: only in your action phase with an empty stack"),
        ))
    }
}

fn check_territory(s: &State, seat: Seat, card: CardId, face_up: bool) -> Check {
    in_hand(s, seat, card)?;
    normal(s, seat, "打出领土")?;
    if s.players[seat].played_territory {
        return Err(refuse(
            "领土",
            "每回合只能打出一张领土",
            "one territory per turn",
        ));
    }
    if face_up && s.def(card).kind != Kind::Territory {
        return Err(refuse(
            "领土",
            "只有领土牌可以明置；其他牌只能暗置",
            "only territory cards go face up; others only face down (暗置)",
        ));
    }
    Ok(())
}

fn check_play(
    s: &State,
    seat: Seat,
    card: CardId,
    slot: Option<usize>,
    target: Option<Target>,
    expedition: bool,
) -> Check {
    in_hand(s, seat, card)?;
    let d = s.def(card);
    if d.kind == Kind::Territory {
        return Err(refuse(
            "领土",
            "领土牌以「打出领土」使用",
            "territory cards are played as territories",
        ));
    }
    // Slot first: 族群 timing depends on it.
    match (d.kind, slot) {
        (Kind::Unit, Some(i))
            if i < SLOTS && (s.players[seat].slots[i].is_some() || s.slot_claimed(seat, i)) =>
        {
            return Err(refuse(
                "陣地",
                "一个陣地上最多只能存在一个单位",
                "a 陣地 holds at most one unit",
            ));
        }
        (Kind::Unit, Some(i)) if i < SLOTS => {}
        (Kind::Unit, _) => {
            return Err(refuse(
                "陣地",
                "单位须打到你的一个陣地（0-4）",
                "a unit needs one of your 陣地 (0-4)",
            ))
        }
        (_, Some(_)) => {
            return Err(refuse(
                "陣地",
                "只有单位进入陣地",
                "only units go into a 陣地",
            ))
        }
        _ => {}
    }
    let instant = (d.kind == Kind::Trick && d.timing == Timing::Instant)
        || d.has(|k| matches!(k, Keyword::Ambush))
        || slot.is_some_and(|i| s.swarm_allows(seat, card, i));
    let timing_ok = s.normal_timing(seat) || (instant && s.priority == seat);
    if !timing_ok {
        return Err(refuse(
            "使用时机",
            format!("{} 不能在此时机打出", d.name),
            format!("{} cannot be played at this timing", d.en),
        ));
    }
    let (need, cost) = if expedition {
        match d.keywords.iter().find_map(|k| match k {
            Keyword::Expedition { need, cost } => Some((*need, *cost)),
            _ => None,
        }) {
            Some(x) => x,
            None => {
                return Err(refuse(
                    "词条 远征",
                    format!("{} 没有远征", d.name),
                    format!("{} has no 远征", d.en),
                ))
            }
        }
    } else {
        (d.need, d.cost)
    };
    let support = s.support(seat, d.faction);
    if support < need {
        return Err(refuse(
            "资源 势力支持",
            format!("{}势力支持度 {support} 小于需求 {need}", d.faction.zh()),
            format!(
                "{} support {support} is below the requirement {need}",
                d.faction.zh()
            ),
        ));
    }
    let free = s.untapped_territories(seat);
    if free < cost as usize {
        return Err(refuse(
            "资源 费用",
            format!("费用 {cost} 需要横置 {cost} 张领土，只有 {free} 张未横置"),
            format!("cost {cost} needs {cost} untapped territories, you have {free}"),
        ));
    }
    check_target(s, seat, card, d.target, target)
}

fn check_target(
    s: &State,
    seat: Seat,
    card: CardId,
    spec: TargetSpec,
    target: Option<Target>,
) -> Check {
    let src = Source {
        card,
        controller: seat,
    };
    let unit_ok = |u: CardId, side: Option<bool>| -> Check {
        let (owner, _) = s.find_unit(u).ok_or_else(|| {
            refuse(
                "目标",
                "目标单位不在战场上",
                "the target unit is not on the battlefield",
            )
        })?;
        if let Some(own) = side {
            if (owner == seat) != own {
                return Err(refuse(
                    "目标",
                    if own {
                        "须指定你的单位"
                    } else {
                        "须指定敌方单位"
                    },
                    if own {
                        "target a unit of yours"
                    } else {
                        "target an enemy unit"
                    },
                ));
            }
        }
        s.can_target_unit(u, src)
    };
    match (spec, target) {
        (TargetSpec::None, None) => Ok(()),
        (TargetSpec::AnyUnit | TargetSpec::UnitOrPlayer, Some(Target::Unit(u))) => unit_ok(u, None),
        (TargetSpec::EnemyUnit, Some(Target::Unit(u))) => unit_ok(u, Some(false)),
        (TargetSpec::OwnUnit, Some(Target::Unit(u))) => unit_ok(u, Some(true)),
        (TargetSpec::UnitOrPlayer, Some(Target::Player(p))) if p < 2 => Ok(()),
        (TargetSpec::StackCard, Some(Target::StackCard(c))) => {
            let hit = s.stack.iter().any(|i| {
                i.controller != seat && matches!(i.kind, StackKind::Card { card, .. } if card == c)
            });
            if hit {
                Ok(())
            } else {
                Err(refuse(
                    "词条 取消",
                    "只能取消对手正在打出的牌",
                    "取消 answers only a card the opponent is playing",
                ))
            }
        }
        _ => Err(refuse(
            "目标",
            format!("这张牌的目标须是 {spec:?}"),
            format!("this card's target must be {spec:?}"),
        )),
    }
}

fn own_unit(s: &State, seat: Seat, unit: CardId) -> Result<usize, Violation> {
    match s.find_unit(unit) {
        Some((owner, slot)) if owner == seat => Ok(slot),
        _ => Err(refuse(
            "陣地",
            "须是你陣地上的单位",
            "it must be a unit in one of your 陣地",
        )),
    }
}

fn ready(s: &State, unit: CardId) -> Check {
    match s.unit(unit) {
        Some(u) if s.ready(u) => Ok(()),
        _ => Err(refuse(
            "整备",
            "整备状态的单位不能发起战斗、转移或横置启动能力（神速除外）",
            "a unit in 整备 cannot attack, shift or tap for an ability (unless 神速)",
        )),
    }
}

fn untapped(s: &State, unit: CardId) -> Check {
    match s.unit(unit) {
        Some(u) if !u.tapped => Ok(()),
        _ => Err(refuse("横置", "该单位已横置", "that unit is tapped")),
    }
}

fn check_territory_ability(s: &State, seat: Seat, territory: CardId) -> Check {
    normal(s, seat, "启动领土能力")?;
    let t = s.players[seat]
        .territories
        .iter()
        .find(|t| t.card == territory)
        .ok_or_else(|| refuse("领土", "须是你的领土", "it must be a territory of yours"))?;
    let ability = s
        .def(territory)
        .ability
        .as_ref()
        .filter(|_| t.face_up)
        .ok_or_else(|| {
            refuse(
                "领土",
                "这块领土没有可启动的能力（暗置领土只能支付费用）",
                "this territory has no ability (face-down territories only pay costs)",
            )
        })?;
    if t.tapped {
        return Err(refuse("横置", "这块领土已横置", "that territory is tapped"));
    }
    let cost = ability.cost as usize + s.turmoil_against(seat) as usize;
    if s.untapped_territories(seat) - 1 < cost {
        return Err(refuse(
            "词条 动荡",
            format!("需要另外横置 {cost} 张领土（含动荡）"),
            format!("needs {cost} more untapped territories (动荡 included)"),
        ));
    }
    Ok(())
}

fn check_shoot(s: &State, seat: Seat, unit: CardId, target: CardId) -> Check {
    normal(s, seat, "射击")?;
    let slot = own_unit(s, seat, unit)?;
    if !s.def(unit).has(|k| matches!(k, Keyword::Shoot(_))) {
        return Err(refuse(
            "词条 射击",
            "该单位没有射击",
            "that unit has no 射击",
        ));
    }
    untapped(s, unit)?;
    ready(s, unit)?;
    match s.find_unit(target) {
        Some((o, t)) if o != seat && t.abs_diff(slot) == 1 => s.can_target_unit(
            target,
            Source {
                card: unit,
                controller: seat,
            },
        ),
        _ => Err(refuse(
            "词条 射击",
            "射击只能指定斜对的敌方单位",
            "射击 hits only a diagonally opposite enemy unit",
        )),
    }
}

fn check_shift(s: &State, seat: Seat, unit: CardId, to: usize) -> Check {
    normal(s, seat, "转移")?;
    let slot = own_unit(s, seat, unit)?;
    if !s.def(unit).has(|k| matches!(k, Keyword::Shift)) {
        return Err(refuse(
            "词条 转移",
            "该单位没有转移",
            "that unit has no 转移",
        ));
    }
    ready(s, unit)?;
    if s.unit(unit).is_some_and(|u| u.shifted) {
        return Err(refuse(
            "词条 转移",
            "每回合只能转移一次",
            "转移 once a turn",
        ));
    }
    if to >= SLOTS || to.abs_diff(slot) != 1 || s.players[seat].slots[to].is_some() {
        return Err(refuse(
            "词条 转移",
            "只能移动到相邻的空陣地",
            "only to an adjacent empty 陣地",
        ));
    }
    Ok(())
}

fn check_equip(s: &State, seat: Seat, equipment: CardId, unit: CardId) -> Check {
    normal(s, seat, "佩带")?;
    let e = s.players[seat]
        .entities
        .iter()
        .find(|e| e.card == equipment)
        .ok_or_else(|| {
            refuse(
                "词条 佩带",
                "须是你战场上的战器",
                "it must be equipment of yours on the battlefield",
            )
        })?;
    let Some(cost) = s.def(equipment).keywords.iter().find_map(|k| match k {
        Keyword::Equip(x) => Some(*x),
        _ => None,
    }) else {
        return Err(refuse(
            "词条 佩带",
            "这张牌没有佩带",
            "that card has no 佩带",
        ));
    };
    if e.attached.is_some() {
        return Err(refuse(
            "词条 佩带",
            "该战器正被使用，使用者离开战场后才能再佩带",
            "in use: it can be moved only after its user leaves the battlefield",
        ));
    }
    own_unit(s, seat, unit)?;
    if s.untapped_territories(seat) < cost as usize {
        return Err(refuse(
            "资源 费用",
            format!("佩带需要横置 {cost} 张领土"),
            format!("佩带 needs {cost} untapped territories"),
        ));
    }
    Ok(())
}

fn check_attack(s: &State, seat: Seat, unit: CardId) -> Check {
    if !(s.active == seat && s.phase == Phase::Combat && s.stack.is_empty() && s.priority == seat) {
        return Err(refuse(
            "战斗",
            "只能在你的战斗阶段、堆叠为空时发起攻击",
            "attack only in your combat phase with an empty stack",
        ));
    }
    own_unit(s, seat, unit)?;
    untapped(s, unit)?;
    ready(s, unit)
}
