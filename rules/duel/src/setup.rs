//! Raw setup (two decks, names, a seed) becomes a state only through `from_setup`.

use crate::catalogue::Catalogue;
use crate::profile::Profile;
use crate::state::{CardId, CardInstance, Phase, Player, Seat, State};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct Setup {
    pub names: [String; 2],
    /// Each main deck as catalogue indices, one per copy (see `deck::parse_deck`).
    pub decks: [Vec<usize>; 2],
    /// Seeds the shuffle and, when `first` is None, the choice of first player.
    pub seed: u64,
    pub first: Option<Seat>,
    /// Keep the decks in the given order (index 0 on top): scenario tests and the table's own shuffle.
    pub shuffle: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("player {seat}: the deck has {have} cards, fewer than the opening hand of {need}")]
    DeckTooSmall {
        seat: Seat,
        have: usize,
        need: usize,
    },
    #[error("player {seat}: card index {index} is not in the catalogue")]
    UnknownCard { seat: Seat, index: usize },
    #[error("first player must be 0 or 1, got {0}")]
    BadFirst(Seat),
    #[error("more than 65535 cards in one game")]
    TooManyCards,
}

pub fn from_setup(
    catalogue: Arc<Catalogue>,
    profile: Profile,
    setup: &Setup,
) -> Result<State, SetupError> {
    let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
    let mut cards = Vec::new();
    let mut libraries: [Vec<CardId>; 2] = [Vec::new(), Vec::new()];
    for (seat, library) in libraries.iter_mut().enumerate() {
        let deck = &setup.decks[seat];
        if deck.len() < profile.start_hand {
            return Err(SetupError::DeckTooSmall {
                seat,
                have: deck.len(),
                need: profile.start_hand,
            });
        }
        for &def in deck {
            if def >= catalogue.cards.len() {
                return Err(SetupError::UnknownCard { seat, index: def });
            }
            let id = CardId::try_from(cards.len()).map_err(|_| SetupError::TooManyCards)?;
            cards.push(CardInstance { def, owner: seat });
            library.push(id);
        }
        if setup.shuffle {
            library.shuffle(&mut rng);
        }
    }
    let first = match setup.first {
        Some(f) if f < 2 => f,
        Some(f) => return Err(SetupError::BadFirst(f)),
        None => rng.random_range(0..2),
    };
    let (life, hand_size) = (profile.start_life, profile.start_hand);
    let make = |seat: usize, library: Vec<CardId>| Player {
        name: setup.names[seat].clone(),
        life,
        hand: library[..hand_size].to_vec(),
        library: library[hand_size..].to_vec(),
        graveyard: Vec::new(),
        slots: Default::default(),
        territories: Vec::new(),
        entities: Vec::new(),
        played_territory: false,
        mulligans: 0,
        kept: false,
        drew_from_empty: false,
    };
    let [l0, l1] = libraries;
    Ok(State {
        catalogue,
        profile,
        cards,
        players: [make(0, l0), make(1, l1)],
        turn: 0,
        first,
        active: first,
        phase: Phase::Mulligan,
        priority: first,
        passes: 0,
        stack: Vec::new(),
        exile: Vec::new(),
        last_known: Vec::new(),
        pending: None,
        triggers: Vec::new(),
        outcome: None,
        seed: setup.seed,
    })
}
