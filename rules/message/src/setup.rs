//! Setting up a game: characters, identities and cards, from the seeded RNG.

use crate::catalogue::Catalogue;
use crate::profile::{IdentitySet, Profile};
use crate::rules::{self, seed};
use crate::state::*;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rules_core::Violation;
use std::sync::Arc;

/// What a table sets before a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub players: usize,
    /// Seed of every shuffle (characters, identities, deck, reshuffles).
    pub seed: u64,
    pub first_player: Seat,
}

impl State {
    /// Deals characters, identities and cards. Refuses a player count the identity table lacks, an
    /// identity set the table does not print for that count, or too few character cards.
    pub fn from_setup(
        cat: Arc<Catalogue>,
        profile: Profile,
        setup: &Setup,
    ) -> Result<State, Violation> {
        let n = setup.players;
        let row = cat
            .identities
            .iter()
            .find(|r| r.players == n)
            .ok_or_else(|| {
                Violation::new(
                    seed(rules::IDENTITIES),
                    format!("身份表没有 {n} 人的配置"),
                    format!("the identity table has no row for {n} players"),
                )
            })?;
        let counts = match profile.identity_set {
            IdentitySet::Standard => row.standard,
            IdentitySet::Optional => row.optional.ok_or_else(|| {
                Violation::new(
                    rules::profile("identity_set"),
                    format!("{n} 人没有可选的身份配置"),
                    format!("the seed prints no optional identity set for {n} players"),
                )
            })?,
        };
        let offered = profile.characters_offered as usize;
        if cat.characters.len() < n * offered {
            return Err(Violation::new(
                seed(rules::CHARACTERS),
                format!("角牌不足：{n} 人各发 {offered} 张需要 {} 张", n * offered),
                format!("not enough character cards: {} needed to offer {offered} to each of {n} players", n * offered),
            ));
        }
        if setup.first_player >= n {
            return Err(Violation::new(
                seed(rules::FLOW),
                "起始玩家不存在",
                "the first player is not at the table",
            ));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
        let mut chars: Vec<usize> = (0..cat.characters.len()).collect();
        chars.shuffle(&mut rng);
        let mut ids = Vec::new();
        for (id, k) in [
            (Identity::Lurker, counts.lurker),
            (Identity::Bureau, counts.bureau),
            (Identity::Neutral, counts.neutral),
        ] {
            ids.extend(std::iter::repeat_n(id, k as usize));
        }
        ids.shuffle(&mut rng);
        let mut deck: Vec<CardId> = (0..cat.deck.cards.len()).collect();
        deck.shuffle(&mut rng);
        let mut players: Vec<Player> = (0..n)
            .map(|i| Player {
                identity: ids[i],
                offered: chars[i * offered..(i + 1) * offered].to_vec(),
                character: None,
                hand: Vec::new(),
                intel: Vec::new(),
                status: Status::Alive,
                revealed: false,
            })
            .collect();
        for k in 0..n {
            let p = &mut players[(setup.first_player + k) % n];
            for _ in 0..profile.start_hand {
                if let Some(c) = deck.pop() {
                    p.hand.push(c);
                }
            }
        }
        Ok(State {
            cat,
            profile,
            seed: setup.seed,
            rng,
            players,
            deck,
            discard: Vec::new(),
            set_aside: Vec::new(),
            turn: Turn {
                seat: setup.first_player,
                number: 0,
                locked: Vec::new(),
                lured: Vec::new(),
                sent: false,
            },
            transit: None,
            stack: Vec::new(),
            phase: Phase::Choose {
                seat: setup.first_player,
            },
            outcome: None,
            turns_played: 0,
            pending_discard: None,
            moving: false,
        })
    }
}
