//! The players overrule the engine: a change they made at the table stands although a rule forbids it
//! (a house ruling, or card text the catalogue does not know). Only the rules are set aside; what is
//! physically impossible (a card not in that hand, a cell already holding a card) is still refused, so
//! no card is created or lost.

use crate::action::{Action, Event};
use crate::checks::rule;
use crate::state::{PlayerId, State};
use rules_core::Violation;

/// Carries out a table action for `seat` without the rules' checks. The turn moves on only if it was
/// that player's turn.
pub fn overrule(
    state: &State,
    seat: PlayerId,
    action: &Action,
) -> Result<(State, Vec<Event>), Violation> {
    let impossible = |zh: &str, en: &str| Err(rule("裁定", zh, en));
    let Some(player) = state.players.get(seat) else {
        return impossible("没有这名玩家", "no such player");
    };
    let free =
        |cell: crate::Cell| state.geometry.contains(cell) && state.stack(cell).occupant.is_none();
    match action {
        Action::Deploy { card, cell } if player.hand.contains(card) && free(*cell) => {}
        Action::PlaceFacility { card, cell }
            if player.hand.contains(card)
                && state.geometry.contains(*cell)
                && state.stack(*cell).under.is_none() => {}
        Action::Move { card, to }
            if state.placed(*card).is_some_and(|p| p.owner == Some(seat)) && free(*to) => {}
        Action::Attack { attackers, target }
            if !attackers.is_empty()
                && state.placed(*target).is_some()
                && attackers
                    .iter()
                    .all(|a| state.placed(*a).is_some_and(|p| p.owner == Some(seat))) => {}
        _ => {
            return impossible(
                "这个改变在桌面上不可能",
                "that change is impossible on the table (card not there, or the cell is taken)",
            )
        }
    }
    if state.outcome.is_some() {
        return impossible("游戏已经结束", "the game is over");
    }
    let mut s = state.clone();
    let mut ev = Vec::new();
    let keeps_turn = s.execute_unchecked(seat, action, &mut ev);
    if !keeps_turn && state.actor() == Some(seat) {
        s.pass_turn(&mut ev);
    }
    Ok((s, ev))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::{Catalogue, Faction};
    use crate::{apply, Profile, Setup};
    use std::sync::Arc;

    fn at_deploy() -> State {
        let mut s = State::from_setup(Setup {
            catalogue: Arc::new(Catalogue::demo()),
            profile: Profile::default(),
            players: vec![Faction::Us, Faction::Ss],
            seed: 4,
            stacked_decks: vec![vec!["us-u01".into()], vec!["ss-u04".into()]],
        })
        .unwrap();
        for a in [
            Action::Keep,
            Action::Keep,
            Action::SkipDraw,
            Action::SkipDraw,
        ] {
            s = apply(&s, &a).unwrap().0;
        }
        s
    }

    #[test]
    fn a_forbidden_deployment_stands_when_overruled_and_no_card_is_lost() {
        let s = at_deploy();
        let card = s.card_by_id("us-u01").unwrap();
        let deploy = Action::Deploy {
            card,
            cell: crate::Cell::parse("B5").unwrap(),
        };
        assert!(apply(&s, &deploy).is_err(), "部署阶段规则 2 forbids it");
        let (next, _) = overrule(&s, 0, &deploy).unwrap();
        assert_eq!(next.placed(card).unwrap().cell.to_string(), "B5");
        assert_eq!(next.card_count(), s.card_count());
        assert_eq!(
            next.actor(),
            Some(1),
            "it was US's turn, so the turn moves on"
        );
    }

    #[test]
    fn the_impossible_is_still_refused() {
        let s = at_deploy();
        let enemy_card = s.card_by_id("ss-u04").unwrap();
        let deploy = Action::Deploy {
            card: enemy_card,
            cell: crate::Cell::parse("B2").unwrap(),
        };
        assert!(overrule(&s, 0, &deploy).is_err(), "not in the US hand");
    }
}
