//! Choosing which territories pay a cost (资源 费用): what a cost is for an action, the possible
//! choices, and the check of a chosen list.

use crate::action::Action;
use crate::keyword::Keyword;
use crate::rules::refuse;
use crate::state::{CardId, State};
use rules_core::Violation;

/// (cost in territories, the territory that may not pay because it is being activated).
fn cost_of(s: &State, action: &Action) -> Option<(usize, Option<CardId>)> {
    let seat = s.actor()?;
    match action {
        Action::PlayCard {
            card, expedition, ..
        } => {
            let d = s.cards.get(*card as usize).map(|_| s.def(*card))?;
            let cost = if *expedition {
                d.keywords.iter().find_map(|k| match k {
                    Keyword::Expedition { cost, .. } => Some(*cost),
                    _ => None,
                })?
            } else {
                d.cost
            };
            Some((cost as usize, None))
        }
        Action::ActivateTerritory { territory, .. } => {
            let d = s
                .cards
                .get(*territory as usize)
                .map(|_| s.def(*territory))?;
            let cost = d.ability.as_ref()?.cost as usize + s.turmoil_against(seat) as usize;
            Some((cost, Some(*territory)))
        }
        Action::Equip { equipment, .. } => {
            let d = s
                .cards
                .get(*equipment as usize)
                .map(|_| s.def(*equipment))?;
            let cost = d.keywords.iter().find_map(|k| match k {
                Keyword::Equip(x) => Some(*x),
                _ => None,
            })?;
            Some((cost as usize, None))
        }
        _ => None,
    }
}

/// A chosen payment: as many distinct untapped territories of the payer as the cost.
pub fn check_payment(s: &State, action: &Action, pay: &[CardId]) -> Result<(), Violation> {
    let Some(((cost, except), seat)) = cost_of(s, action).zip(s.actor()) else {
        return Err(refuse(
            "资源 费用",
            "这个行动没有可支付的费用",
            "this action has no cost to pay",
        ));
    };
    if pay.len() != cost {
        return Err(refuse(
            "资源 费用",
            format!("费用 {cost} 须横置 {cost} 张领土，选了 {} 张", pay.len()),
            format!(
                "a cost of {cost} taps {cost} territories; {} chosen",
                pay.len()
            ),
        ));
    }
    for (i, card) in pay.iter().enumerate() {
        if pay[..i].contains(card) {
            return Err(refuse(
                "资源 费用",
                "同一张领土只能横置一次",
                "a territory pays only once",
            ));
        }
        if Some(*card) == except {
            return Err(refuse(
                "资源 费用",
                "启动的领土自身不能再支付费用",
                "the territory being activated cannot also pay",
            ));
        }
        match s.players[seat].territories.iter().find(|t| t.card == *card) {
            None => {
                return Err(refuse(
                    "资源 费用",
                    "只能横置你自己的领土支付费用",
                    "only your own territories pay your costs",
                ))
            }
            Some(t) if t.tapped => {
                return Err(refuse(
                    "资源 费用",
                    "已横置的领土不能再支付费用",
                    "a tapped territory cannot pay",
                ))
            }
            Some(_) => {}
        }
    }
    Ok(())
}

impl State {
    /// Every way to pay `action`'s cost (ascending card ids in each list), at most `limit` of them;
    /// empty when the action costs nothing payable. The action itself is not checked.
    pub fn payment_choices(&self, action: &Action, limit: usize) -> Vec<Vec<CardId>> {
        let (Some((cost, except)), Some(seat)) = (cost_of(self, action), self.actor()) else {
            return Vec::new();
        };
        let mut free: Vec<CardId> = self.players[seat]
            .territories
            .iter()
            .filter(|t| !t.tapped && Some(t.card) != except)
            .map(|t| t.card)
            .collect();
        free.sort_unstable();
        let mut out = Vec::new();
        let mut pick = Vec::with_capacity(cost);
        combinations(&free, cost, 0, &mut pick, &mut out, limit);
        out
    }

    /// Whether choosing matters: more untapped territories could pay than the cost needs.
    pub fn payment_is_a_choice(&self, action: &Action) -> bool {
        self.payment_choices(action, 2).len() > 1
    }
}

fn combinations(
    from: &[CardId],
    k: usize,
    start: usize,
    pick: &mut Vec<CardId>,
    out: &mut Vec<Vec<CardId>>,
    limit: usize,
) {
    if out.len() >= limit {
        return;
    }
    if pick.len() == k {
        out.push(pick.clone());
        return;
    }
    for i in start..from.len() {
        pick.push(from[i]);
        combinations(from, k, i + 1, pick, out, limit);
        pick.pop();
        if out.len() >= limit {
            return;
        }
    }
}

impl State {
    /// How many territories `action` taps to pay (the activated territory itself not counted);
    /// `None` for actions without a payable cost.
    pub fn payment_cost(&self, action: &Action) -> Option<usize> {
        cost_of(self, action).map(|c| c.0)
    }
}
