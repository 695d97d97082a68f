//! Hidden hands at a real table: the engine does not know which cards a player holds until one is laid
//! down. `reveal` swaps the card shown into the hand, in place of an unknown one, so the shuffled deck of
//! the engine can stand for the physical deck without inventing or losing a card.

use crate::checks::rule;
use crate::state::{CardId, PlayerId, State};
use rules_core::Violation;

/// Makes `card` one of `player`'s hand cards if it is still in their deck (a card they could be
/// holding); a card already in hand is left as it is. Anything else is refused: the card is on the
/// board, discarded, or not of this player's deck.
pub fn reveal(state: &State, player: PlayerId, card: CardId) -> Result<State, Violation> {
    let p = state
        .players
        .get(player)
        .ok_or_else(|| rule("游戏准备", "没有这名玩家", "no such player"))?;
    if p.hand.contains(&card) {
        return Ok(state.clone());
    }
    let Some(in_deck) = p.deck.iter().position(|&c| c == card) else {
        return Err(rule(
            "游戏准备 3",
            format!("{} 不可能在这名玩家手中", state.card_name(card)),
            format!(
                "{} cannot be in this player's hand (not in their deck)",
                state.card_name(card)
            ),
        ));
    };
    if p.hand.is_empty() {
        return Err(rule(
            "手牌",
            "这名玩家没有手牌",
            "this player holds no cards",
        ));
    }
    let mut next = state.clone();
    let p = &mut next.players[player];
    // Swap with the hand card drawn last: which unknown card it was does not matter.
    let last = p.hand.len() - 1;
    std::mem::swap(&mut p.hand[last], &mut p.deck[in_deck]);
    Ok(next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::{Catalogue, Faction};
    use crate::{Profile, Setup};
    use std::sync::Arc;

    fn game() -> State {
        State::from_setup(Setup {
            catalogue: Arc::new(Catalogue::demo()),
            profile: Profile::default(),
            players: vec![Faction::Us, Faction::Ss],
            seed: 9,
            stacked_decks: vec![],
        })
        .unwrap()
    }

    #[test]
    fn a_deck_card_is_swapped_into_the_hand_and_nothing_is_lost() {
        let s = game();
        let card = s.players[0].deck[0];
        let next = reveal(&s, 0, card).unwrap();
        assert!(next.players[0].hand.contains(&card));
        assert_eq!(next.players[0].hand.len(), 8);
        assert_eq!(next.card_count(), s.card_count());
    }

    #[test]
    fn an_enemy_card_cannot_be_revealed() {
        let s = game();
        let enemy = s.players[1].deck[0];
        assert!(reveal(&s, 0, enemy).is_err());
    }
}
