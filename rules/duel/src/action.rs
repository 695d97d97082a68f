//! What a player can do, and what happened as a result.

use crate::state::{CardId, Outcome, Phase, Seat, Target};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Action {
    /// 调度: keep this hand.
    Keep,
    /// 调度: put these cards (ascending ids) on the bottom and draw as many (one fewer after the first).
    Mulligan { cards: Vec<CardId> },
    /// Pass priority.
    Pass,
    /// One territory a turn: face up (a territory card) or face down (any card, 暗置).
    PlayTerritory { card: CardId, face_up: bool },
    /// Play a non-territory card from hand, paying its cost (or its 远征 cost).
    PlayCard {
        card: CardId,
        slot: Option<usize>,
        target: Option<Target>,
        expedition: bool,
        /// Which untapped territories pay; `None`: the engine picks (see [`Action::payment`]).
        pay: Option<Vec<CardId>>,
    },
    /// {通常}{横置} a territory and pay its ability cost.
    ActivateTerritory {
        territory: CardId,
        pay: Option<Vec<CardId>>,
    },
    /// 射击: tap the unit, X damage to a diagonally opposite unit.
    Shoot { unit: CardId, target: CardId },
    /// 转移 to an adjacent empty 陣地.
    Shift { unit: CardId, to: usize },
    /// 佩带 {X}: attach an equipment to a unit of yours.
    Equip {
        equipment: CardId,
        unit: CardId,
        pay: Option<Vec<CardId>>,
    },
    /// Tap a unit to attack the opposite 陣地.
    Attack { unit: CardId },
    /// 观星: `top` goes on top in this order (first = top), `bottom` under the library in this order.
    Arrange {
        top: Vec<CardId>,
        bottom: Vec<CardId>,
    },
    /// 破竹: damage assigned to the opposite unit; the rest goes to the defending player.
    AssignBreakthrough { to_unit: u8 },
    /// 弃牌步骤: discard one card.
    Discard { card: CardId },
}

impl Action {
    /// The territories chosen to pay, for the actions that cost something.
    ///
    /// Payment is a choice of *which* untapped territories tap. `legal_actions` lists each paying
    /// action once, with `pay: None` (the engine taps face-down territories first, then those
    /// without abilities, so abilities stay usable); the same action with `pay: Some(list)` is
    /// legal exactly when its `None` form is and the list is one of
    /// [`crate::State::payment_choices`] for it (distinct untapped territories of the payer, as many
    /// as the cost, never the territory being activated). The choices are listed apart because
    /// their number grows as (territories choose cost).
    pub fn payment(&self) -> Option<&[CardId]> {
        match self {
            Action::PlayCard { pay, .. }
            | Action::ActivateTerritory { pay, .. }
            | Action::Equip { pay, .. } => pay.as_deref(),
            _ => None,
        }
    }

    /// The same action with the engine choosing the payment.
    pub fn without_payment(&self) -> Action {
        let mut a = self.clone();
        match &mut a {
            Action::PlayCard { pay, .. }
            | Action::ActivateTerritory { pay, .. }
            | Action::Equip { pay, .. } => *pay = None,
            _ => {}
        }
        a
    }

    /// The same action paid with exactly these territories (no effect on actions without a cost).
    pub fn paid_with(&self, territories: Vec<CardId>) -> Action {
        let mut a = self.clone();
        match &mut a {
            Action::PlayCard { pay, .. }
            | Action::ActivateTerritory { pay, .. }
            | Action::Equip { pay, .. } => *pay = Some(territories),
            _ => {}
        }
        a
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Event {
    Drew {
        seat: Seat,
        card: CardId,
    },
    Mulliganed {
        seat: Seat,
        put_back: usize,
        drew: usize,
    },
    Kept {
        seat: Seat,
    },
    PhaseBegan {
        seat: Seat,
        turn: u32,
        phase: Phase,
    },
    TerritoryPlayed {
        seat: Seat,
        card: CardId,
        face_up: bool,
    },
    Played {
        seat: Seat,
        card: CardId,
        cost_paid: u8,
    },
    AbilityActivated {
        seat: Seat,
        source: CardId,
    },
    Passed {
        seat: Seat,
    },
    Resolved {
        controller: Seat,
    },
    Fizzled {
        controller: Seat,
    },
    Cancelled {
        card: CardId,
    },
    Entered {
        seat: Seat,
        card: CardId,
        slot: Option<usize>,
    },
    Moved {
        card: CardId,
        from: usize,
        to: usize,
    },
    Attacked {
        unit: CardId,
        slot: usize,
    },
    /// Damage that reached a unit (after prevention).
    UnitDamaged {
        card: CardId,
        amount: u8,
    },
    Prevented {
        card: CardId,
        amount: u8,
    },
    PlayerDamaged {
        seat: Seat,
        amount: u8,
    },
    LifeLost {
        seat: Seat,
        amount: u8,
    },
    LifeGained {
        seat: Seat,
        amount: u8,
    },
    Healed {
        card: CardId,
        amount: u8,
    },
    Died {
        card: CardId,
    },
    Destroyed {
        card: CardId,
    },
    Exiled {
        card: CardId,
    },
    Untapped {
        card: CardId,
    },
    Equipped {
        equipment: CardId,
        unit: CardId,
    },
    Judged {
        seat: Seat,
        card: Option<CardId>,
        cost: u8,
        passed: bool,
    },
    Contested {
        seat: Seat,
        mine: Option<u8>,
        theirs: Option<u8>,
        won: bool,
    },
    Arranged {
        seat: Seat,
        top: usize,
        bottom: usize,
    },
    Discarded {
        seat: Seat,
        card: CardId,
    },
    GameOver {
        outcome: Outcome,
    },
}
