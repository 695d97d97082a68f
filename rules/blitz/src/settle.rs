//! 结算阶段: the victory conditions and the game-end conditions, as data checked in order.

use crate::action::Event;
use crate::board::{territory_of, ROWS};
use crate::catalogue::{CardKind, Side};
use crate::profile::AnnihilationScope;
use crate::state::{Outcome, PlayerId, State, Winner};
use crate::steps::Step;

/// The game-end conditions of the seed (游戏结束条件 1–3; 4 is a victory condition holding).
/// A game-end condition: its rule and a test that says why it holds.
type EndCondition = (&'static str, fn(&State) -> Option<String>);

const END_CONDITIONS: [EndCondition; 3] = [
    ("游戏结束条件 1", no_cards_in_hand),
    ("游戏结束条件 2", cannot_act),
    ("游戏结束条件 3", stalemate_agreed),
];

impl State {
    pub(crate) fn settle(&mut self, ev: &mut Vec<Event>) {
        if let Some(outcome) = self.victory().or_else(|| self.game_end()) {
            self.step = Step::Over;
            self.outcome = Some(outcome.clone());
            ev.push(Event::GameOver(outcome));
        }
    }

    /// 胜利条件 3 (breakthrough) and 1 (annihilation); both sides at once is a draw.
    fn victory(&self) -> Option<Outcome> {
        let broke = |side: Side| {
            self.broke_through
                .iter()
                .any(|&(p, _)| self.side_of(p) == side)
        };
        let wins = |f: &dyn Fn(Side) -> bool| -> Option<Winner> {
            match (f(Side::Allied), f(Side::Axis)) {
                (true, true) => Some(Winner::Draw),
                (true, false) => Some(Winner::Side(Side::Allied)),
                (false, true) => Some(Winner::Side(Side::Axis)),
                (false, false) => None,
            }
        };
        if let Some(winner) = wins(&broke) {
            return Some(Outcome {
                winner,
                rule: "胜利条件 3".into(),
                detail: "突破至敌人阵地纵深第4格 / broke through to enemy depth 4".into(),
            });
        }
        if self.round >= self.profile.annihilation_from_round {
            let wiped = |side: Side| !self.has_units(side.enemy());
            if let Some(winner) = wins(&wiped) {
                return Some(Outcome {
                    winner,
                    rule: "胜利条件 1".into(),
                    detail: format!(
                        "消灭了敌人所有的部队牌 / every enemy unit destroyed (profile option blitz.annihilation_scope = {:?})",
                        self.profile.annihilation_scope
                    ),
                });
            }
        }
        None
    }

    fn has_units(&self, side: Side) -> bool {
        if self.units_on_board(side).next().is_some() {
            return true;
        }
        match self.profile.annihilation_scope {
            AnnihilationScope::Board => false,
            AnnihilationScope::All => self
                .players
                .iter()
                .filter(|p| p.side() == side)
                .any(|p| p.hand.iter().chain(&p.deck).any(|&c| self.is_unit_card(c))),
        }
    }

    fn is_unit_card(&self, card: u16) -> bool {
        matches!(self.def(card).kind, CardKind::Unit { .. })
    }

    /// A game-end condition holds: the side holding more enemy territory wins (胜利条件 2).
    fn game_end(&self) -> Option<Outcome> {
        let (rule, why) = END_CONDITIONS
            .iter()
            .find_map(|(rule, f)| f(self).map(|why| (*rule, why)))?;
        let (allied, axis) = (
            self.territory_held(Side::Allied),
            self.territory_held(Side::Axis),
        );
        let winner = match allied.cmp(&axis) {
            std::cmp::Ordering::Greater => Winner::Side(Side::Allied),
            std::cmp::Ordering::Less => Winner::Side(Side::Axis),
            std::cmp::Ordering::Equal => Winner::Draw,
        };
        Some(Outcome {
            winner,
            rule: format!("{rule} → 胜利条件 2"),
            detail: format!("{why}; enemy territory held by units: Allied {allied}, Axis {axis}"),
        })
    }

    /// Cells of the enemy's territory held by `side`'s units (resources and facilities do not count).
    pub fn territory_held(&self, side: Side) -> usize {
        self.units_on_board(side)
            .filter(|p| territory_of(p.cell.row) == Some(side.enemy()) && p.cell.row < ROWS)
            .count()
    }

    fn seat_name(&self, p: PlayerId) -> String {
        let f = self.players[p].faction;
        format!("{} {}", f.name_zh(), f.name_en())
    }
}

fn no_cards_in_hand(s: &State) -> Option<String> {
    let p = (0..s.players.len()).find(|&p| s.players[p].hand.is_empty())?;
    Some(format!(
        "{} 已经没有手牌 / has no cards in hand",
        s.seat_name(p)
    ))
}

/// No unit on the board and none left in hand or deck: the player can never attack or occupy again.
fn cannot_act(s: &State) -> Option<String> {
    let p = (0..s.players.len()).find(|&p| {
        let pl = &s.players[p];
        let on_board = s
            .placed
            .iter()
            .flatten()
            .any(|c| c.owner == Some(p) && s.is_unit_card(c.card));
        !on_board && !pl.hand.iter().chain(&pl.deck).any(|&c| s.is_unit_card(c))
    })?;
    Some(format!(
        "{} 已经无法再做任何行动 / can make no further action",
        s.seat_name(p)
    ))
}

fn stalemate_agreed(s: &State) -> Option<String> {
    s.players
        .iter()
        .all(|p| p.voted_stalemate)
        .then(|| "双方同意已无希望取胜 / all players agreed the stalemate is hopeless".to_string())
}
