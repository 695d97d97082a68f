//! The game state and how a raw set-up becomes one.

use crate::board::{Cell, Geometry, FRONT_ROW};
use crate::catalogue::{CardDef, CardKind, Catalogue, Faction, Side};
use crate::profile::Profile;
use crate::steps::Step;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A card, by its position in the catalogue (each printed card exists once).
pub type CardId = u16;
/// A seat at the table, 0-based, in the order of `Setup::players`.
pub type PlayerId = usize;

/// What is known before the game: who plays which faction, and how the decks are ordered.
#[derive(Clone, Debug)]
pub struct Setup {
    pub catalogue: Arc<Catalogue>,
    pub profile: Profile,
    /// Factions by seat. Two players: one Allied and one Axis faction, Allied seat first in round 1.
    /// Four players: all four; round 1 follows seat order, which must alternate sides.
    pub players: Vec<Faction>,
    pub seed: u64,
    /// Per seat, card ids to put on top of the deck in this order (the rest are shuffled below them):
    /// scenarios and the demo use this to know the hands.
    pub stacked_decks: Vec<Vec<String>>,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("Blitz is played by 2 or 4 players, not {0}")]
    PlayerCount(usize),
    #[error("faction {0:?} is taken twice")]
    DuplicateFaction(Faction),
    #[error("two players must be one Allied and one Axis faction")]
    SidesTwoPlayer,
    #[error("in four-player games the seat order must alternate Allied and Axis (游戏准备: 两名同一阵营的玩家不能连续行动)")]
    SidesFourPlayer,
    #[error("the catalogue has {have} front-line cards; {need} are needed")]
    FrontLineCards { have: usize, need: usize },
    #[error("seat {seat}: card {card:?} is not in the {faction:?} deck of the catalogue")]
    StackedCard {
        seat: usize,
        card: String,
        faction: Faction,
    },
    #[error("stacked decks given for {given} seats, but there are {seats}")]
    StackedSeats { given: usize, seats: usize },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub faction: Faction,
    /// Top of the deck is the last element.
    pub deck: Vec<CardId>,
    pub hand: Vec<CardId>,
    pub discard: Vec<CardId>,
    pub mulligans_used: u8,
    /// Finished the current step (passed, or drew in the draw step).
    pub done: bool,
    pub voted_stalemate: bool,
    /// Skill 空投补给 shown this round: all units count as supplied.
    pub rally: bool,
}

impl Player {
    pub fn side(&self) -> Side {
        self.faction.side()
    }
}

/// A card on the board and its per-round marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub card: CardId,
    pub owner: Option<PlayerId>,
    pub cell: Cell,
    pub tapped: bool,
    pub deployed_round: u16,
    pub moved_this_step: bool,
}

/// What one cell holds: at most one unit-or-resource, plus a facility or a front-line card beneath.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellStack {
    pub occupant: Option<CardId>,
    pub under: Option<CardId>,
}

/// A kill in the attack step leaves the attacking player a choice: advance one attacker or hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingAdvance {
    pub player: PlayerId,
    pub attackers: Vec<CardId>,
    pub cell: Cell,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Winner {
    Side(Side),
    Draw,
}

/// How and why the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub winner: Winner,
    /// "胜利条件 1" … or "游戏结束条件 N" followed by the territory count.
    pub rule: String,
    pub detail: String,
}

#[derive(Clone, Debug)]
pub struct State {
    pub catalogue: Arc<Catalogue>,
    pub profile: Profile,
    pub geometry: Geometry,
    pub players: Vec<Player>,
    pub round: u16,
    /// This round's acting order.
    pub order: Vec<PlayerId>,
    pub step: Step,
    /// Index into `order` of the player to act.
    pub turn: usize,
    pub cells: Vec<CellStack>,
    /// Every card now on the board, by card id (`None` when not on the board).
    pub placed: Vec<Option<Placed>>,
    pub pending_advance: Option<PendingAdvance>,
    /// Units that reached 纵深第4格 (they leave the board; the side wins at settlement).
    pub broke_through: Vec<(PlayerId, CardId)>,
    pub outcome: Option<Outcome>,
    pub rng: ChaCha8Rng,
}

impl State {
    /// Deals the opening hands and lays the front line. The only way to make a `State`.
    pub fn from_setup(setup: Setup) -> Result<State, SetupError> {
        let Setup {
            catalogue,
            profile,
            players: factions,
            seed,
            stacked_decks,
        } = setup;
        let width: i8 = match factions.len() {
            2 => 4,
            4 => 5,
            n => return Err(SetupError::PlayerCount(n)),
        };
        for (i, f) in factions.iter().enumerate() {
            if factions[..i].contains(f) {
                return Err(SetupError::DuplicateFaction(*f));
            }
        }
        if factions.len() == 2 && factions[0].side() == factions[1].side() {
            return Err(SetupError::SidesTwoPlayer);
        }
        if factions.len() == 4 && factions.windows(2).any(|w| w[0].side() == w[1].side()) {
            return Err(SetupError::SidesFourPlayer);
        }
        if !stacked_decks.is_empty() && stacked_decks.len() != factions.len() {
            return Err(SetupError::StackedSeats {
                given: stacked_decks.len(),
                seats: factions.len(),
            });
        }
        let fronts: Vec<CardId> = catalogue
            .cards
            .iter()
            .enumerate()
            .filter(|(_, c)| matches!(c.kind, CardKind::Frontline))
            .map(|(i, _)| i as CardId)
            .take(width as usize)
            .collect();
        if fronts.len() < width as usize {
            return Err(SetupError::FrontLineCards {
                have: fronts.len(),
                need: width as usize,
            });
        }

        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut players = Vec::new();
        for (seat, &faction) in factions.iter().enumerate() {
            let mut rest: Vec<CardId> = catalogue
                .faction_cards(faction)
                .map(|(i, _)| i as CardId)
                .collect();
            let mut top = Vec::new();
            for id in stacked_decks.get(seat).into_iter().flatten() {
                let pos = catalogue
                    .index_of(id)
                    .and_then(|i| rest.iter().position(|&c| c as usize == i))
                    .ok_or_else(|| SetupError::StackedCard {
                        seat,
                        card: id.clone(),
                        faction,
                    })?;
                top.push(rest.remove(pos));
            }
            rest.shuffle(&mut rng);
            // The deck's top is its last element: the stacked cards go on top, first one last.
            let mut deck = rest;
            deck.extend(top.into_iter().rev());
            let hand_size = profile.opening_hand.min(deck.len());
            let hand = deck.split_off(deck.len() - hand_size);
            let mut hand: Vec<CardId> = hand;
            hand.reverse();
            players.push(Player {
                faction,
                deck,
                hand,
                discard: Vec::new(),
                mulligans_used: 0,
                done: false,
                voted_stalemate: false,
                rally: false,
            });
        }

        let geometry = Geometry { width };
        let mut state = State {
            catalogue: catalogue.clone(),
            profile,
            geometry,
            order: (0..players.len()).collect(),
            players,
            round: 1,
            step: Step::Mulligan,
            turn: 0,
            cells: vec![CellStack::default(); geometry.len()],
            placed: vec![None; catalogue.cards.len()],
            pending_advance: None,
            broke_through: Vec::new(),
            outcome: None,
            rng,
        };
        // Allied seat first in round 1 (开始游戏: 盟军玩家先开始).
        if state.players[0].side() != Side::Allied {
            state.order.rotate_left(1);
        }
        for (col, &card) in fronts.iter().enumerate() {
            let cell = Cell::new(col as i8, FRONT_ROW);
            state.put(card, None, cell, true);
        }
        Ok(state)
    }

    pub fn def(&self, card: CardId) -> &CardDef {
        &self.catalogue.cards[card as usize]
    }

    pub fn card_name(&self, card: CardId) -> String {
        let d = self.def(card);
        format!("{} {}", d.name_zh, d.name_en)
    }

    pub fn id_of(&self, card: CardId) -> &str {
        &self.def(card).id
    }

    pub fn card_by_id(&self, id: &str) -> Option<CardId> {
        self.catalogue.index_of(id).map(|i| i as CardId)
    }

    pub fn stack(&self, cell: Cell) -> CellStack {
        if self.geometry.contains(cell) {
            self.cells[self.geometry.index(cell)]
        } else {
            CellStack::default()
        }
    }

    pub fn placed(&self, card: CardId) -> Option<&Placed> {
        self.placed.get(card as usize).and_then(|p| p.as_ref())
    }

    /// The player to act now, if the game is not over.
    pub fn actor(&self) -> Option<PlayerId> {
        if self.outcome.is_some() {
            return None;
        }
        if let Some(p) = &self.pending_advance {
            return Some(p.player);
        }
        self.order.get(self.turn).copied()
    }

    pub fn side_of(&self, player: PlayerId) -> Side {
        self.players[player].side()
    }

    /// The side a card on the board fights for (front-line cards: none).
    pub fn card_side(&self, card: CardId) -> Option<Side> {
        self.def(card).faction.map(Faction::side)
    }

    pub(crate) fn put(&mut self, card: CardId, owner: Option<PlayerId>, cell: Cell, under: bool) {
        let idx = self.geometry.index(cell);
        if under {
            self.cells[idx].under = Some(card);
        } else {
            self.cells[idx].occupant = Some(card);
        }
        self.placed[card as usize] = Some(Placed {
            card,
            owner,
            cell,
            tapped: false,
            deployed_round: self.round,
            moved_this_step: false,
        });
    }

    /// Takes a card off the board (its owner then puts it somewhere).
    pub(crate) fn lift(&mut self, card: CardId) -> Option<Placed> {
        let placed = self.placed[card as usize].take()?;
        let idx = self.geometry.index(placed.cell);
        let stack = &mut self.cells[idx];
        if stack.occupant == Some(card) {
            stack.occupant = None;
        } else if stack.under == Some(card) {
            stack.under = None;
        }
        Some(placed)
    }

    /// Every card id the game holds, wherever it is: for conservation checks.
    pub fn card_count(&self) -> usize {
        let held: usize = self
            .players
            .iter()
            .map(|p| p.deck.len() + p.hand.len() + p.discard.len())
            .sum();
        held + self.placed.iter().flatten().count() + self.broke_through.len()
    }

    pub fn units_on_board(&self, side: Side) -> impl Iterator<Item = &Placed> + '_ {
        self.placed.iter().flatten().filter(move |p| {
            matches!(self.def(p.card).kind, CardKind::Unit { .. })
                && self.card_side(p.card) == Some(side)
        })
    }
}
