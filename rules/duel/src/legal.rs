//! Every candidate action, filtered by `check`: the legal actions. Paying actions are listed once,
//! with the engine choosing the territories (`pay: None`); see [`Action::payment`] for the choices.

use crate::action::Action;
use crate::catalogue::{Kind, TargetSpec};
use crate::check::check;
use crate::keyword::Keyword;
use crate::state::{CardId, Pending, Phase, StackKind, State, Target, SLOTS};

pub fn legal_actions(s: &State) -> Vec<Action> {
    candidates(s)
        .into_iter()
        .filter(|a| check(s, a).is_ok())
        .collect()
}

fn candidates(s: &State) -> Vec<Action> {
    let Some(seat) = s.actor() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    match &s.pending {
        Some(Pending::Stargaze { cards, .. }) => {
            for perm in permutations(cards) {
                for split in 0..=perm.len() {
                    out.push(Action::Arrange {
                        top: perm[..split].to_vec(),
                        bottom: perm[split..].to_vec(),
                    });
                }
            }
            return out;
        }
        Some(Pending::Breakthrough { min, max, .. }) => {
            return (*min..=*max)
                .map(|to_unit| Action::AssignBreakthrough { to_unit })
                .collect()
        }
        Some(Pending::Discard { seat }) => {
            return s.players[*seat]
                .hand
                .iter()
                .map(|&card| Action::Discard { card })
                .collect()
        }
        None => {}
    }
    let p = &s.players[seat];
    if s.phase == Phase::Mulligan {
        out.push(Action::Keep);
        let mut hand = p.hand.clone();
        hand.sort_unstable();
        for mask in 1u32..(1 << hand.len().min(16)) {
            let cards = hand
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, c)| *c)
                .collect();
            out.push(Action::Mulligan { cards });
        }
        return out;
    }
    out.push(Action::Pass);
    let units: Vec<CardId> = s
        .players
        .iter()
        .flat_map(|p| p.slots.iter().flatten().map(|u| u.card))
        .collect();
    for &card in &p.hand {
        out.push(Action::PlayTerritory {
            card,
            face_up: true,
        });
        out.push(Action::PlayTerritory {
            card,
            face_up: false,
        });
        let d = s.def(card);
        let slots: Vec<Option<usize>> = if d.kind == Kind::Unit {
            (0..SLOTS).map(Some).collect()
        } else {
            vec![None]
        };
        let mut targets: Vec<Option<Target>> = Vec::new();
        match d.target {
            TargetSpec::None => targets.push(None),
            TargetSpec::StackCard => {
                targets.extend(s.stack.iter().filter_map(|i| match i.kind {
                    StackKind::Card { card, .. } => Some(Some(Target::StackCard(card))),
                    _ => None,
                }));
            }
            spec => {
                targets.extend(units.iter().map(|&u| Some(Target::Unit(u))));
                if spec == TargetSpec::UnitOrPlayer {
                    targets.extend([Some(Target::Player(0)), Some(Target::Player(1))]);
                }
            }
        }
        let expeditions: &[bool] = if d.has(|k| matches!(k, Keyword::Expedition { .. })) {
            &[false, true]
        } else {
            &[false]
        };
        for &slot in &slots {
            for &target in &targets {
                for &expedition in expeditions {
                    out.push(Action::PlayCard {
                        card,
                        slot,
                        target,
                        expedition,
                        pay: None,
                    });
                }
            }
        }
    }
    for t in &p.territories {
        out.push(Action::ActivateTerritory {
            territory: t.card,
            pay: None,
        });
    }
    for u in p.slots.iter().flatten() {
        out.push(Action::Attack { unit: u.card });
        for to in 0..SLOTS {
            out.push(Action::Shift { unit: u.card, to });
        }
        for &target in &units {
            out.push(Action::Shoot {
                unit: u.card,
                target,
            });
        }
        for e in &p.entities {
            out.push(Action::Equip {
                equipment: e.card,
                unit: u.card,
                pay: None,
            });
        }
    }
    out
}

fn permutations(items: &[CardId]) -> Vec<Vec<CardId>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut tail in permutations(&rest) {
            tail.insert(0, first);
            out.push(tail);
        }
    }
    out
}
