//! Hidden zones at a real table. The engine deals hands and libraries from its own seed, but the
//! physical cards were shuffled by hand, so when the camera sees a card come out of a hand the
//! engine's idea of that hand may not hold it. Hands and libraries are secret to the companion too,
//! so any instance of the same catalogue card is as good as another: the seen card is swapped into
//! the hand from the library (a hand card takes its place). Nothing public changes — zone sizes,
//! the battlefield, graveyards and the stack stay as they were. docs/duel.md, "At the table".

use crate::state::{CardId, Seat, State};

impl State {
    /// An instance of catalogue card `def` in `seat`'s hand, swapped in from the library if needed;
    /// `None` when neither zone holds one (the seen card is not in that player's deck).
    pub fn reveal_in_hand(&mut self, seat: Seat, def: usize) -> Option<CardId> {
        let is_def = |cards: &[crate::state::CardInstance], c: CardId| cards[c as usize].def == def;
        if let Some(&c) = self.players[seat]
            .hand
            .iter()
            .find(|&&c| is_def(&self.cards, c))
        {
            return Some(c);
        }
        let p = &mut self.players[seat];
        let at = p.library.iter().position(|&c| is_def(&self.cards, c))?;
        let found = p.library[at];
        // The hand card given back: the last one (never a card of `def`, checked above).
        let back = p.hand.pop()?;
        p.library[at] = back;
        p.hand.push(found);
        Some(found)
    }

    /// Any card of `seat`'s hand to go face down (暗置), preferring one that is not a unit, since a
    /// face-down territory could be any card; `None` with an empty hand.
    pub fn any_hand_card(&self, seat: Seat) -> Option<CardId> {
        let hand = &self.players[seat].hand;
        hand.iter()
            .rev()
            .find(|&&c| self.def(c).kind != crate::Kind::Unit)
            .or_else(|| hand.last())
            .copied()
    }
}
