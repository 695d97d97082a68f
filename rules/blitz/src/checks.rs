//! Whether an action is allowed now, with the rule it breaks when not. `apply` and `legal_actions`
//! both go through `check`, so the two cannot disagree.

use crate::action::{Action, SkillTarget};
use crate::board::{breakthrough_row, enemy_depth, territory_of, Cell};
use crate::catalogue::{CardKind, FacilityEffect, Keyword, Side, SkillEffect};
use crate::profile::CombineAttacks;
use crate::state::{CardId, PlayerId, State};
use crate::steps::Step;
use rules_core::{RuleRef, Violation};

pub(crate) fn rule(r: &str, zh: impl Into<String>, en: impl Into<String>) -> Violation {
    Violation::new(RuleRef::rulebook(r), zh, en)
}

fn profile(opt: &str, zh: impl Into<String>, en: impl Into<String>) -> Violation {
    Violation::new(RuleRef::profile(opt), zh, en)
}

/// A card's name that is only written out when a refusal is actually formatted (checks run on every
/// candidate action, so the accepted path must not allocate).
#[derive(Clone, Copy)]
struct Name<'a>(&'a State, CardId);

impl std::fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let d = self.0.def(self.1);
        write!(f, "{} {}", d.name_zh, d.name_en)
    }
}

/// What entering a cell does to the card that enters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    Plain,
    /// An enemy mine lies there: the unit is destroyed with it (or clears it, with 扫雷).
    Mine {
        mine: CardId,
        cleared: bool,
    },
    /// 纵深第4格: the unit breaks through and leaves the board.
    Breakthrough,
}

pub(crate) fn keywords(state: &State, card: CardId) -> &[Keyword] {
    match &state.def(card).kind {
        CardKind::Unit { keywords, .. } => keywords,
        _ => &[],
    }
}

pub(crate) fn has(state: &State, card: CardId, k: Keyword) -> bool {
    keywords(state, card).contains(&k)
}

fn is_unit(state: &State, card: CardId) -> bool {
    matches!(state.def(card).kind, CardKind::Unit { .. })
}

fn is_vehicle(state: &State, card: CardId) -> bool {
    matches!(&state.def(card).kind, CardKind::Unit { kind, .. } if kind.is_vehicle())
}

/// Whether `card` (a unit or resource of `side`) may enter `cell`, and what happens if it does.
pub(crate) fn check_enter(
    state: &State,
    card: CardId,
    side: Side,
    cell: Cell,
) -> Result<Entry, Violation> {
    let name = || state.card_name(card);
    if !state.geometry.contains(cell) {
        let past_edge =
            cell.row == breakthrough_row(side) && (0..state.geometry.width).contains(&cell.col);
        if past_edge && is_unit(state, card) {
            return Ok(Entry::Breakthrough);
        }
        if past_edge {
            return Err(rule(
                "部署阶段规则 5",
                format!("资源牌不能移动至敌人阵地纵深第四格：{}", name()),
                format!("resource cards may not move to enemy depth 4: {}", name()),
            ));
        }
        return Err(rule(
            "游戏准备 5",
            format!("{cell} 不在版图内"),
            format!("{cell} is off the board"),
        ));
    }
    let stack = state.stack(cell);
    if let Some(occ) = stack.occupant {
        return Err(if is_unit(state, occ) {
            rule(
                "部署阶段规则 3",
                format!("{cell} 已经有部队（{}）", state.card_name(occ)),
                format!("{cell} already holds a unit ({})", state.card_name(occ)),
            )
        } else {
            rule(
                "容易忽视的游戏规则 部署阶段 5",
                format!("{cell} 已经有牌（{}），不能堆叠", state.card_name(occ)),
                format!(
                    "{cell} already holds {}; only facilities and front-line cards stack",
                    state.card_name(occ)
                ),
            )
        });
    }
    if let Some(under) = stack.under {
        if let CardKind::Facility { effect, .. } = state.def(under).kind {
            let enemy = state.card_side(under) != Some(side);
            match effect {
                FacilityEffect::AntiTank if is_vehicle(state, card) => {
                    return Err(Violation::new(
                        RuleRef::Card(state.id_of(under).to_string()),
                        format!("车辆部队不能进入反坦克障碍所在位置 {cell}"),
                        format!(
                            "no vehicle may enter the anti-tank obstacle at {cell}: {}",
                            name()
                        ),
                    ))
                }
                FacilityEffect::Mine if enemy && is_unit(state, card) => {
                    return Ok(Entry::Mine {
                        mine: under,
                        cleared: has(state, card, Keyword::MineClearer),
                    })
                }
                _ => {}
            }
        }
    }
    Ok(Entry::Plain)
}

fn not_your_turn(state: &State, player: PlayerId) -> Violation {
    let f = state.players[player].faction;
    rule(
        "部署阶段规则 7",
        format!("还没轮到{}行动", f.name_zh()),
        format!(
            "it is not {}'s turn ({})",
            f.name_en(),
            state.step.info().name.en
        ),
    )
}

/// Like [`check`], for an action seen at the table by a known player (who may be acting out of turn).
pub fn check_as(state: &State, player: PlayerId, action: &Action) -> Result<(), Violation> {
    match state.actor() {
        Some(actor) if actor != player => {
            Err(never_allowed(state, player, action)
                .unwrap_or_else(|| not_your_turn(state, player)))
        }
        _ => check(state, action),
    }
}

/// The rule that forbids `action` to `player` whoever's turn it is, if one does: a refusal cites
/// it rather than the turn order (a second mulligan is refused by the mulligan rule even though the
/// player who took it has no turn left in that step).
fn never_allowed(state: &State, player: PlayerId, action: &Action) -> Option<Violation> {
    match action {
        Action::Mulligan => mulligans_spent(state, player),
        Action::UseSkill { card, .. } => skill_already_used(state, player, *card),
        _ => None,
    }
}

/// blitz.mulligans: `player` has thrown back the opening hand as often as the profile allows.
fn mulligans_spent(state: &State, player: PlayerId) -> Option<Violation> {
    (state.players[player].mulligans_used >= state.profile.mulligans).then(|| {
        profile(
            "blitz.mulligans",
            "每位玩家只有重新摸取一次的机会",
            "each player may throw back the opening hand only once",
        )
    })
}

/// 技能牌: a skill card is used once per game and then lies in its owner's discard pile.
fn skill_already_used(state: &State, player: PlayerId, card: CardId) -> Option<Violation> {
    let used = matches!(state.def(card).kind, CardKind::Skill { .. })
        && state.players[player].discard.contains(&card);
    used.then(|| {
        rule(
            "技能牌",
            format!(
                "{} 已经使用过：技能牌每局游戏只能使用一次",
                state.card_name(card)
            ),
            format!(
                "{} was already used: a skill card is used once per game",
                state.card_name(card)
            ),
        )
    })
}

fn wrong_step(state: &State, zh: &str, en: &str) -> Violation {
    let info = state.step.info();
    rule(
        "游戏阶段",
        format!("现在是{}，不能{zh}", info.name.zh),
        format!("it is the {}: no {en} now", info.name.en),
    )
}

fn in_hand(state: &State, player: PlayerId, card: CardId) -> Result<(), Violation> {
    if state.players[player].hand.contains(&card) {
        Ok(())
    } else {
        Err(rule(
            "手牌",
            format!("{} 不在手牌中", state.card_name(card)),
            format!("{} is not in this player's hand", state.card_name(card)),
        ))
    }
}

/// The cells a friendly resource supplies.
fn supplies(state: &State, resource: CardId, cell: Cell, side: Side, target: Cell) -> bool {
    match &state.def(resource).kind {
        CardKind::Resource {
            supply_range: Some(p),
            ..
        } => p.iter().any(|&(a, f)| cell.offset(side, a, f) == target),
        CardKind::Resource {
            supply_range: None, ..
        } => {
            target != cell
                && (target.col - cell.col).abs() <= 1
                && (target.row - cell.row).abs() <= 1
        }
        _ => false,
    }
}

/// 资源级别: a unit attacks only inside the supply range of a friendly resource of enough level.
pub(crate) fn is_supplied(state: &State, unit: CardId) -> bool {
    let Some(p) = state.placed(unit) else {
        return false;
    };
    let CardKind::Unit {
        supply, keywords, ..
    } = &state.def(unit).kind
    else {
        return false;
    };
    if *supply == 0 || keywords.contains(&Keyword::SelfSupplied) {
        return true;
    }
    if p.owner.is_some_and(|o| state.players[o].rally) {
        return true;
    }
    let side = state.card_side(unit);
    state.placed.iter().flatten().any(|r| {
        matches!(state.def(r.card).kind, CardKind::Resource { level, .. } if level >= *supply)
            && state.card_side(r.card) == side
            && side.is_some_and(|s| supplies(state, r.card, r.cell, s, p.cell))
    })
}

pub(crate) fn in_range(state: &State, unit: CardId, target: Cell) -> bool {
    let (Some(p), CardKind::Unit { range, .. }) = (state.placed(unit), &state.def(unit).kind)
    else {
        return false;
    };
    let Some(side) = state.card_side(unit) else {
        return false;
    };
    range
        .iter()
        .any(|&(a, f)| p.cell.offset(side, a, f) == target)
}

/// A card's defence where it stands: a unit on its own side's bunker gets the bonus.
pub(crate) fn defence_at(state: &State, card: CardId) -> u8 {
    let base = match state.def(card).kind {
        CardKind::Unit { defence, .. }
        | CardKind::Resource { defence, .. }
        | CardKind::Facility { defence, .. } => defence,
        _ => 0,
    };
    let bonus = state
        .placed(card)
        .filter(|_| is_unit(state, card))
        .and_then(|p| state.stack(p.cell).under)
        .filter(|&u| state.card_side(u) == state.card_side(card))
        .map(|u| match state.def(u).kind {
            CardKind::Facility {
                effect: FacilityEffect::Bunker { bonus },
                ..
            } => bonus,
            _ => 0,
        })
        .unwrap_or(0);
    base.saturating_add(bonus)
}

pub(crate) fn attack_power(state: &State, attackers: &[CardId]) -> u8 {
    let values = attackers.iter().map(|&a| match state.def(a).kind {
        CardKind::Unit { attack, .. } => attack,
        _ => 0,
    });
    match state.profile.combine_attacks {
        CombineAttacks::Sum => values.fold(0u8, |s, v| s.saturating_add(v)),
        CombineAttacks::Highest => values.max().unwrap_or(0),
    }
}

/// Units of `player` at enemy depth 3 that must still advance this step (部署阶段规则 4).
pub(crate) fn must_advance(state: &State, player: PlayerId) -> Option<CardId> {
    let side = state.side_of(player);
    state
        .placed
        .iter()
        .flatten()
        .filter(|p| p.owner == Some(player) && is_unit(state, p.card) && !p.moved_this_step)
        .filter(|p| enemy_depth(side, p.cell) == 3 && !has(state, p.card, Keyword::HoldsGround))
        .map(|p| p.card)
        .next()
}

/// The rule an action breaks now, if any.
pub fn check(state: &State, action: &Action) -> Result<(), Violation> {
    let Some(player) = state.actor() else {
        return Err(rule("游戏结束", "游戏已经结束", "the game is over"));
    };
    if let Some(pending) = &state.pending_advance {
        return match action {
            Action::Hold => Ok(()),
            Action::Advance(card) if pending.attackers.contains(card) => {
                let side = state.side_of(player);
                check_enter(state, *card, side, pending.cell).map(|_| ())
            }
            Action::Advance(card) => Err(rule(
                "攻防阶段规则 7",
                format!(
                    "只有攻击部队可以进入阵亡敌军的位置，{} 没有参与攻击",
                    state.card_name(*card)
                ),
                format!(
                    "only an attacker may advance into the cell; {} did not attack",
                    state.card_name(*card)
                ),
            )),
            _ => Err(rule(
                "攻防阶段规则 7",
                "先决定是否进入被消灭敌军的位置（advance / hold）",
                "first choose whether an attacker advances into the cell (advance / hold)",
            )),
        };
    }
    let step = state.step;
    let me = &state.players[player];
    let side = me.side();
    match action {
        Action::Keep | Action::Mulligan if step != Step::Mulligan => {
            Err(wrong_step(state, "重新摸牌", "mulligan"))
        }
        Action::Keep => Ok(()),
        Action::Mulligan => mulligans_spent(state, player).map_or(Ok(()), Err),
        Action::Draw | Action::SkipDraw | Action::DiscardAndDraw(_) if step != Step::Draw => {
            Err(wrong_step(state, "摸牌", "drawing"))
        }
        Action::Draw if me.deck.is_empty() => Err(rule(
            "部署阶段 a. 摸牌步骤",
            "牌库已空",
            "the deck is empty",
        )),
        Action::Draw if me.hand.len() >= state.profile.hand_limit => Err(rule(
            "部署阶段 a. 摸牌步骤",
            format!("手牌已有{}张：放弃摸牌或弃掉一张再摸", me.hand.len()),
            format!(
                "the hand already holds {}: skip the draw or discard one and draw",
                me.hand.len()
            ),
        )),
        Action::Draw => Ok(()),
        Action::SkipDraw if !me.deck.is_empty() && me.hand.len() < state.profile.hand_limit => {
            Err(rule(
                "部署阶段 a. 摸牌步骤",
                "手牌未满8张，必须摸牌",
                "the hand is below the limit: draw a card",
            ))
        }
        Action::SkipDraw => Ok(()),
        Action::DiscardAndDraw(card) => {
            in_hand(state, player, *card)?;
            if me.deck.is_empty() {
                Err(rule(
                    "部署阶段 a. 摸牌步骤",
                    "牌库已空",
                    "the deck is empty",
                ))
            } else if me.hand.len() < state.profile.hand_limit {
                Err(rule(
                    "部署阶段 a. 摸牌步骤",
                    "手牌未满，不必弃牌",
                    "the hand is below the limit: just draw",
                ))
            } else {
                Ok(())
            }
        }
        Action::Deploy { card, cell } => {
            if step != Step::DeployMove {
                return Err(wrong_step(state, "部署", "deploying"));
            }
            in_hand(state, player, *card)?;
            if !matches!(
                state.def(*card).kind,
                CardKind::Unit { .. } | CardKind::Resource { .. }
            ) {
                return Err(rule(
                    "部署阶段 b. 部署移动步骤",
                    "只能部署部队牌和资源牌（设施在设施步骤，技能在技能牌步骤）",
                    "only units and resources are deployed here (facilities in the facility step, skills in the skill step)",
                ));
            }
            if territory_of(cell.row) != Some(side) {
                return Err(rule(
                    "部署阶段规则 2",
                    format!("只能部署在己方阵地一侧，{cell} 不是"),
                    format!("cards are deployed only in your own territory; {cell} is not"),
                ));
            }
            check_enter(state, *card, side, *cell).map(|_| ())
        }
        Action::Move { card, to } => {
            if step != Step::DeployMove {
                return Err(wrong_step(state, "移动", "moving"));
            }
            check_move(state, player, *card, *to)
        }
        Action::PlaceFacility { card, cell } => {
            if step != Step::Facility {
                return Err(wrong_step(state, "放置设施", "placing facilities"));
            }
            in_hand(state, player, *card)?;
            if !matches!(state.def(*card).kind, CardKind::Facility { .. }) {
                return Err(rule(
                    "部署阶段 c. 设施步骤",
                    "设施步骤只能放置设施牌",
                    "only facility cards are placed in the facility step",
                ));
            }
            if !state.geometry.contains(*cell) {
                return Err(rule(
                    "游戏准备 5",
                    format!("{cell} 不在版图内"),
                    format!("{cell} is off the board"),
                ));
            }
            if state.profile.facilities_own_side && territory_of(cell.row) != Some(side) {
                return Err(profile(
                    "blitz.facilities_own_side",
                    format!("设施只能放置在己方阵地，{cell} 不是"),
                    format!("facilities go in your own territory; {cell} is not"),
                ));
            }
            let stack = state.stack(*cell);
            if stack.occupant.is_some_and(|o| is_unit(state, o)) {
                return Err(rule(
                    "部署阶段规则 3",
                    format!("{cell} 已经有部队"),
                    format!("{cell} already holds a unit"),
                ));
            }
            if stack.under.is_some() {
                return Err(rule(
                    "容易忽视的游戏规则 部署阶段 5",
                    format!("{cell} 已经有设施或前线牌"),
                    format!("{cell} already holds a facility or front-line card"),
                ));
            }
            Ok(())
        }
        Action::UseSkill { card, target } => {
            if step != Step::Skill {
                return Err(wrong_step(state, "使用技能牌", "skills"));
            }
            if let Some(v) = skill_already_used(state, player, *card) {
                return Err(v);
            }
            in_hand(state, player, *card)?;
            check_skill(state, side, *card, target)
        }
        Action::Attack { attackers, target } => {
            if step != Step::Attack {
                return Err(wrong_step(state, "攻击", "attacks"));
            }
            check_attack(state, player, attackers, *target)
        }
        Action::Advance(_) | Action::Hold => Err(rule(
            "攻防阶段规则 7",
            "没有被消灭的敌军位置可进入",
            "no enemy was just destroyed: nothing to advance into",
        )),
        Action::Done => {
            if step == Step::Mulligan || step == Step::Draw {
                return Err(rule(
                    "部署阶段 a. 摸牌步骤",
                    "这一步每位玩家必须做出选择",
                    "each player must choose in this step (draw / skip-draw / keep / mulligan)",
                ));
            }
            if step == Step::DeployMove {
                if let Some(unit) = must_advance(state, player) {
                    return Err(rule(
                        "部署阶段规则 4",
                        format!(
                            "{} 处于敌人阵地纵深第三格，必须移动至第四格",
                            state.card_name(unit)
                        ),
                        format!(
                            "{} is at enemy depth 3 and must move on to depth 4",
                            state.card_name(unit)
                        ),
                    ));
                }
            }
            Ok(())
        }
        Action::Stalemate if me.voted_stalemate => Err(rule(
            "游戏结束条件 3",
            "本回合已经表态",
            "this player has already agreed to end the stalemate this round",
        )),
        Action::Stalemate if step == Step::Mulligan => {
            Err(wrong_step(state, "宣告僵局", "stalemate votes"))
        }
        Action::Stalemate => Ok(()),
    }
}

fn check_move(state: &State, player: PlayerId, card: CardId, to: Cell) -> Result<(), Violation> {
    let name = Name(state, card);
    let Some(p) = state.placed(card) else {
        return Err(rule(
            "部署阶段规则 1",
            format!("{name} 不在战场上"),
            format!("{name} is not on the board"),
        ));
    };
    if p.owner != Some(player) {
        return Err(rule(
            "部署阶段规则 1",
            format!("{name} 不是你的牌"),
            format!("{name} is not this player's card"),
        ));
    }
    match state.def(card).kind {
        CardKind::Unit { .. } | CardKind::Resource { .. } => {}
        _ => {
            return Err(rule(
                "设施牌",
                format!("设施牌一旦进入阵地就不能再移动位置：{name}"),
                format!("facilities never move once placed: {name}"),
            ))
        }
    }
    if p.moved_this_step {
        return Err(rule(
            "部署阶段规则 1",
            format!("{name} 本步骤已经移动过"),
            format!("{name} has already moved this step"),
        ));
    }
    if p.deployed_round == state.round && !state.profile.deploy_then_move {
        return Err(profile(
            "blitz.deploy_then_move",
            format!("{name} 本回合刚部署，不能再移动"),
            format!("{name} was deployed this round and may not also move"),
        ));
    }
    let (dc, dr) = (to.col - p.cell.col, to.row - p.cell.row);
    if dc != 0 && dr != 0 {
        return Err(rule(
            "容易忽视的游戏规则 部署阶段 3",
            format!("只能横向或竖向移动，不能斜向移动：{} → {to}", p.cell),
            format!(
                "units move orthogonally, never diagonally: {} → {to}",
                p.cell
            ),
        ));
    }
    let dist = dc.abs() + dr.abs();
    let reach = if has(state, card, Keyword::Fast) {
        2
    } else {
        1
    };
    if dist == 0 || dist > reach {
        return Err(rule(
            "部署阶段规则 1",
            format!("只能移动一格：{} → {to}", p.cell),
            format!("a card moves one cell: {} → {to}", p.cell),
        ));
    }
    let side = state.side_of(player);
    if dist == 2 {
        let mid = Cell::new(p.cell.col + dc / 2, p.cell.row + dr / 2);
        if check_enter(state, card, side, mid)? != Entry::Plain {
            return Err(Violation::new(
                RuleRef::Card(state.id_of(card).to_string()),
                format!("机动移动途经 {mid} 必须畅通"),
                format!("a fast move must pass through a clear cell; {mid} is not"),
            ));
        }
    }
    check_enter(state, card, side, to).map(|_| ())
}

fn check_skill(
    state: &State,
    side: Side,
    card: CardId,
    target: &SkillTarget,
) -> Result<(), Violation> {
    let CardKind::Skill { effect } = state.def(card).kind else {
        return Err(rule(
            "技能牌",
            "这不是技能牌",
            "only skill cards are used in the skill step",
        ));
    };
    let card_rule =
        |zh: &str, en: &str| Violation::new(RuleRef::Card(state.id_of(card).to_string()), zh, en);
    let enemy_card =
        |t: CardId| state.placed(t).is_some() && state.card_side(t) == Some(side.enemy());
    match (effect, target) {
        (SkillEffect::Strike { .. }, SkillTarget::Card(t)) if enemy_card(*t) => Ok(()),
        (SkillEffect::Strike { .. }, _) => Err(card_rule(
            "目标必须是战场上的一张敌方牌",
            "the target must be an enemy card on the board",
        )),
        (SkillEffect::Barrage { .. }, SkillTarget::Cell(c)) if state.geometry.contains(*c) => {
            Ok(())
        }
        (SkillEffect::Barrage { .. }, _) => Err(card_rule(
            "目标必须是版图上的一格",
            "the target must be a cell on the board",
        )),
        (SkillEffect::Sabotage, SkillTarget::Card(t))
            if enemy_card(*t)
                && matches!(
                    state.def(*t).kind,
                    CardKind::Resource { .. } | CardKind::Facility { .. }
                ) =>
        {
            Ok(())
        }
        (SkillEffect::Sabotage, _) => Err(card_rule(
            "目标必须是敌方资源牌或设施牌",
            "the target must be an enemy resource or facility",
        )),
        (SkillEffect::Rally, SkillTarget::None) => Ok(()),
        (SkillEffect::Rally, _) => Err(card_rule("此技能没有目标", "this skill takes no target")),
    }
}

fn check_attack(
    state: &State,
    player: PlayerId,
    attackers: &[CardId],
    target: CardId,
) -> Result<(), Violation> {
    if attackers.is_empty() {
        return Err(rule(
            "攻防阶段规则 1",
            "至少需要一支攻击部队",
            "an attack needs at least one unit",
        ));
    }
    let tname = Name(state, target);
    let Some(t) = state.placed(target) else {
        return Err(rule(
            "攻防阶段",
            format!("{tname} 不在战场上"),
            format!("{tname} is not on the board"),
        ));
    };
    let side = state.side_of(player);
    if state.card_side(target) != Some(side.enemy()) {
        return Err(rule(
            "攻防阶段",
            format!("{tname} 不是敌军"),
            format!("{tname} is not an enemy card"),
        ));
    }
    for (i, &a) in attackers.iter().enumerate() {
        let name = Name(state, a);
        if attackers[..i].contains(&a) {
            return Err(rule(
                "攻防阶段规则 2",
                format!("{name} 重复"),
                format!("{name} is listed twice"),
            ));
        }
        let Some(p) = state.placed(a) else {
            return Err(rule(
                "攻防阶段规则 1",
                format!("{name} 不在战场上"),
                format!("{name} is not on the board"),
            ));
        };
        if p.owner != Some(player) || !is_unit(state, a) {
            return Err(rule(
                "攻防阶段规则 1",
                format!("{name} 不是你的部队"),
                format!("{name} is not one of this player's units"),
            ));
        }
        if p.tapped {
            return Err(rule(
                "攻防阶段规则 2",
                format!("{name} 本回合已经攻击过（横置）"),
                format!("{name} has already attacked this round (tapped)"),
            ));
        }
        if !in_range(state, a, t.cell) {
            return Err(rule(
                "攻防阶段规则 5",
                format!("{tname}（{}）不在 {name} 的攻击范围内", t.cell),
                format!("{tname} at {} is out of {name}'s attack range", t.cell),
            ));
        }
        if !is_supplied(state, a) {
            return Err(rule(
                "攻防阶段规则 4",
                format!("{name} 不在足够级别资源牌的供给范围内"),
                format!(
                    "{name} is not within the supply range of a friendly resource of its level"
                ),
            ));
        }
    }
    Ok(())
}
