//! Every action the player to act may take now: candidates filtered through `checks::check`.

use crate::action::{Action, SkillTarget};
use crate::board::{breakthrough_row, territory_of, Cell};
use crate::catalogue::{CardKind, Keyword};
use crate::checks::{self, check};
use crate::state::{CardId, State};
use crate::steps::Step;

pub fn legal_actions(state: &State) -> Vec<Action> {
    let Some(player) = state.actor() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if let Some(p) = &state.pending_advance {
        out.push(Action::Hold);
        out.extend(p.attackers.iter().map(|&a| Action::Advance(a)));
        out.retain(|a| check(state, a).is_ok());
        return out;
    }
    let me = &state.players[player];
    let side = me.side();
    let own_cells = || {
        state
            .geometry
            .cells()
            .filter(move |c| territory_of(c.row) == Some(side))
    };
    let hand_of = |pred: fn(&CardKind) -> bool| {
        me.hand
            .iter()
            .copied()
            .filter(move |&c| pred(&state.def(c).kind))
    };
    match state.step {
        Step::Mulligan => out.extend([Action::Keep, Action::Mulligan]),
        Step::Draw => {
            out.extend([Action::Draw, Action::SkipDraw]);
            out.extend(me.hand.iter().map(|&c| Action::DiscardAndDraw(c)));
        }
        Step::DeployMove => {
            for card in hand_of(|k| matches!(k, CardKind::Unit { .. } | CardKind::Resource { .. }))
            {
                out.extend(own_cells().map(|cell| Action::Deploy { card, cell }));
            }
            for p in state
                .placed
                .iter()
                .flatten()
                .filter(|p| p.owner == Some(player))
            {
                out.extend(
                    move_targets(state, p.card, p.cell).map(|to| Action::Move { card: p.card, to }),
                );
            }
        }
        Step::Facility => {
            for card in hand_of(|k| matches!(k, CardKind::Facility { .. })) {
                out.extend(
                    state
                        .geometry
                        .cells()
                        .map(|cell| Action::PlaceFacility { card, cell }),
                );
            }
        }
        Step::Skill => {
            for card in hand_of(|k| matches!(k, CardKind::Skill { .. })) {
                out.push(Action::UseSkill {
                    card,
                    target: SkillTarget::None,
                });
                out.extend(state.placed.iter().flatten().map(|p| Action::UseSkill {
                    card,
                    target: SkillTarget::Card(p.card),
                }));
                out.extend(state.geometry.cells().map(|c| Action::UseSkill {
                    card,
                    target: SkillTarget::Cell(c),
                }));
            }
        }
        Step::Attack => out.extend(attacks(state, player)),
        Step::Over => {}
    }
    out.push(Action::Done);
    out.push(Action::Stalemate);
    out.retain(|a| check(state, a).is_ok());
    out
}

fn move_targets(state: &State, card: CardId, from: Cell) -> impl Iterator<Item = Cell> + '_ {
    let reach = if checks::has(state, card, Keyword::Fast) {
        2
    } else {
        1
    };
    let side = state.card_side(card);
    let width = state.geometry.width;
    (1..=reach).flat_map(move |d| {
        [(0, d), (0, -d), (d, 0), (-d, 0)]
            .into_iter()
            .map(move |(dc, dr)| Cell::new(from.col + dc, from.row + dr))
            .filter(move |c| {
                (0..width).contains(&c.col)
                    && (state.geometry.contains(*c)
                        || side.is_some_and(|s| c.row == breakthrough_row(s)))
            })
    })
}

/// Every joint attack: for each enemy card, each non-empty set of the units able to hit it.
fn attacks(state: &State, player: usize) -> Vec<Action> {
    let side = state.side_of(player);
    let mine: Vec<_> = state
        .placed
        .iter()
        .flatten()
        .filter(|p| {
            p.owner == Some(player)
                && !p.tapped
                && matches!(state.def(p.card).kind, CardKind::Unit { .. })
        })
        .filter(|p| checks::is_supplied(state, p.card))
        .map(|p| p.card)
        .collect();
    let mut out = Vec::new();
    if mine.is_empty() {
        return out;
    }
    for t in state
        .placed
        .iter()
        .flatten()
        .filter(|t| state.card_side(t.card) == Some(side.enemy()))
    {
        let able: Vec<CardId> = mine
            .iter()
            .copied()
            .filter(|&a| checks::in_range(state, a, t.cell))
            .collect();
        // More than 12 units on one target would be 4,095 sets; no board holds that many in range.
        let n = able.len().min(12);
        for mask in 1u32..(1 << n) {
            let attackers = (0..n)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| able[i])
                .collect();
            out.push(Action::Attack {
                attackers,
                target: t.card,
            });
        }
    }
    out
}
