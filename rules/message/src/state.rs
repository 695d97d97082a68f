//! The state of one game of 风声, and the actions and events that change it.

use crate::catalogue::{Catalogue, Kind, Method};
use crate::profile::Profile;
use rand_chacha::ChaCha8Rng;
use rules_core::{RuleRef, Text};
use serde::Serialize;
use std::collections::VecDeque;
use std::sync::Arc;

/// Seats are numbered in passing order: seat i passes to seat i+1 (its right, seed 情报传递).
pub type Seat = usize;
/// Index of a physical card in `Catalogue.deck.cards`. Opaque to players: views hide hidden ids.
pub type CardId = usize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Identity {
    /// 潜伏战线
    Lurker,
    /// 军情局
    Bureau,
    /// 打酱油的
    Neutral,
}

impl Identity {
    pub fn zh(self) -> &'static str {
        match self {
            Identity::Lurker => "潜伏战线",
            Identity::Bureau => "军情局",
            Identity::Neutral => "打酱油的",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Status {
    Alive,
    /// 死亡 (3 black); identity revealed.
    Dead,
    /// 输掉游戏 (could not send).
    Lost,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Dir {
    Right,
    Left,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Player {
    pub identity: Identity,
    /// Character cards dealt to choose from (indices into `Catalogue.characters`).
    pub offered: Vec<usize>,
    pub character: Option<usize>,
    pub hand: Vec<CardId>,
    /// Received intelligence, face up in front of the player.
    pub intel: Vec<CardId>,
    pub status: Status,
    pub revealed: bool,
}

/// The intelligence travelling this turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Transit {
    pub card: CardId,
    pub sender: Seat,
    pub method: Method,
    pub dir: Dir,
    pub holder: Seat,
    /// 文本 travels face up.
    pub face_up: bool,
    /// Who has looked at it (破译, or the sender).
    pub seen: Vec<bool>,
}

/// A function card on the response stack (resolved last in, first out).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Use {
    pub seat: Seat,
    pub card: CardId,
    pub kind: Kind,
    pub target: Option<Seat>,
    pub target_card: Option<CardId>,
    /// For 识破: the stack index of the card it cancels.
    pub on: Option<usize>,
    pub cancelled: bool,
}

/// Which moment a response round belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Ctx {
    /// A card played in the sender's play phase.
    Play,
    /// The intelligence has reached a player who has not decided yet.
    Arrival,
    /// The player it reached played 退回 / 破译 / 掉包.
    Decision,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Phase {
    Choose {
        seat: Seat,
    },
    Play,
    /// Players in `queue` (passing order) may respond; a play restarts the round.
    Round {
        ctx: Ctx,
        queue: VecDeque<Seat>,
    },
    /// The holder of the intelligence decides.
    Decide,
    /// A probed player discards a card of their choice.
    ProbeDiscard {
        seat: Seat,
    },
    Over,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Turn {
    pub seat: Seat,
    pub number: u32,
    /// Players locked this turn, in the order locked.
    pub locked: Vec<Seat>,
    pub lured: Vec<Seat>,
    pub sent: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Outcome {
    Win {
        winners: Vec<Seat>,
        text: Text,
        rule: RuleRef,
    },
    Draw {
        text: Text,
        rule: RuleRef,
    },
}

#[derive(Clone, Debug)]
pub struct State {
    pub cat: Arc<Catalogue>,
    pub profile: Profile,
    /// The seed of the shuffles, recorded so a game can be replayed.
    pub seed: u64,
    pub(crate) rng: ChaCha8Rng,
    pub players: Vec<Player>,
    /// Top of the deck is the end of the vector.
    pub deck: Vec<CardId>,
    pub discard: Vec<CardId>,
    /// Used 试探 cards (not discarded, RULES-NOTES).
    pub set_aside: Vec<CardId>,
    pub turn: Turn,
    pub transit: Option<Transit>,
    pub stack: Vec<Use>,
    pub phase: Phase,
    pub outcome: Option<Outcome>,
    pub turns_played: u32,
    pub(crate) pending_discard: Option<Seat>,
    /// The intelligence must move on from its holder once the round settles (退回, 掉包).
    pub(crate) moving: bool,
}

/// An action by one seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Action {
    pub seat: Seat,
    pub act: Act,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Act {
    /// Keep offered character `index` (角色挑选).
    Choose { index: usize },
    /// Use a function card. `target` is a player, `target_card` an intelligence (烧毁) or a
    /// replacement from hand (掉包).
    Play {
        card: CardId,
        target: Option<Seat>,
        target_card: Option<CardId>,
    },
    /// Send a card as this turn's intelligence; `target` for 直达.
    Send { card: CardId, target: Option<Seat> },
    /// No response in a round; or, when deciding, refuse (pass it on / send a 直达 back).
    Pass,
    /// Take the intelligence.
    Accept,
    /// Discard a card in answer to 试探.
    Discard { card: CardId },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Event {
    CharacterChosen {
        seat: Seat,
        character: usize,
    },
    TurnStarted {
        seat: Seat,
        number: u32,
    },
    Drew {
        seat: Seat,
        count: usize,
    },
    Reshuffled {
        count: usize,
    },
    Played {
        seat: Seat,
        kind: Kind,
        target: Option<Seat>,
    },
    Sent {
        seat: Seat,
        method: Method,
        target: Option<Seat>,
    },
    Arrived {
        seat: Seat,
    },
    Skipped {
        seat: Seat,
    },
    Refused {
        seat: Seat,
    },
    Reversed {
        seat: Seat,
    },
    Looked {
        seat: Seat,
    },
    Cancelled {
        kind: Kind,
        seat: Seat,
    },
    Fizzled {
        kind: Kind,
        seat: Seat,
    },
    Locked {
        seat: Seat,
    },
    Lured {
        seat: Seat,
    },
    Intercepted {
        seat: Seat,
    },
    Received {
        seat: Seat,
        card: CardId,
        forced: Option<RuleRef>,
    },
    Burned {
        seat: Seat,
        card: CardId,
    },
    Probed {
        seat: Seat,
        answer: crate::catalogue::ProbeAnswer,
    },
    Discarded {
        seat: Seat,
        card: CardId,
    },
    Swapped {
        seat: Seat,
    },
    Died {
        seat: Seat,
        identity: Identity,
    },
    Lost {
        seat: Seat,
    },
    GameOver {
        outcome: Outcome,
    },
}

impl State {
    pub fn n(&self) -> usize {
        self.players.len()
    }
    pub fn alive(&self, s: Seat) -> bool {
        self.players
            .get(s)
            .is_some_and(|p| p.status == Status::Alive)
    }
    pub fn kind_of(&self, c: CardId) -> Kind {
        self.cat.deck.cards[c].kind
    }
    pub fn is_locked(&self, s: Seat) -> bool {
        self.turn.locked.contains(&s)
    }
    pub fn is_lured(&self, s: Seat) -> bool {
        self.turn.lured.contains(&s)
    }
    /// Who must act now; `None` when the game is over.
    pub fn actor(&self) -> Option<Seat> {
        match &self.phase {
            Phase::Choose { seat } | Phase::ProbeDiscard { seat } => Some(*seat),
            Phase::Play => Some(self.turn.seat),
            Phase::Round { queue, .. } => queue.front().copied(),
            Phase::Decide => self.transit.as_ref().map(|t| t.holder),
            Phase::Over => None,
        }
    }
    /// Every card in the game, wherever it lies (for conservation checks).
    pub fn all_cards(&self) -> Vec<CardId> {
        let mut v: Vec<CardId> = self.deck.clone();
        v.extend(&self.discard);
        v.extend(&self.set_aside);
        for p in &self.players {
            v.extend(&p.hand);
            v.extend(&p.intel);
        }
        if let Some(t) = &self.transit {
            v.push(t.card);
        }
        for u in &self.stack {
            v.push(u.card);
            if u.kind == Kind::Swap {
                v.extend(u.target_card);
            }
        }
        v
    }
}
