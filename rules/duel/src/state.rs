//! The game state: zones of each player, the shared stack, whose turn and who holds priority.

use crate::catalogue::{CardDef, Catalogue};
use crate::profile::Profile;
use serde::Serialize;
use std::sync::Arc;

pub type Seat = usize;
/// One physical card in this game (index into `State::cards`).
pub type CardId = u16;

pub const SLOTS: usize = 5;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CardInstance {
    /// Index into the catalogue.
    pub def: usize,
    pub owner: Seat,
}

/// A unit standing in a 陣地.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unit {
    pub card: CardId,
    pub tapped: bool,
    /// 整备: entered since its controller's last 重置.
    pub fresh: bool,
    pub damage: u8,
    /// Marked by 致命 damage: destroyed at the next check.
    pub doomed: bool,
    pub turn_attack: i16,
    pub turn_prevent: u8,
    /// 连击 fires on the first combat damage each turn.
    pub dealt_combat_damage: bool,
    /// 转移 is once a turn.
    pub shifted: bool,
}

impl Unit {
    pub fn new(card: CardId) -> Unit {
        Unit {
            card,
            tapped: false,
            fresh: true,
            damage: 0,
            doomed: false,
            turn_attack: 0,
            turn_prevent: 0,
            dealt_combat_damage: false,
            shifted: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Territory {
    pub card: CardId,
    /// 明置 (true) or 暗置 (false).
    pub face_up: bool,
    pub tapped: bool,
}

/// 陣略 and 战器 on the battlefield outside the 陣地.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entity {
    pub card: CardId,
    /// Equipment: the unit using it.
    pub attached: Option<CardId>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Player {
    pub name: String,
    pub life: i32,
    /// Index 0 is the top.
    pub library: Vec<CardId>,
    pub hand: Vec<CardId>,
    pub graveyard: Vec<CardId>,
    pub slots: [Option<Unit>; SLOTS],
    pub territories: Vec<Territory>,
    pub entities: Vec<Entity>,
    pub played_territory: bool,
    pub mulligans: u8,
    pub kept: bool,
    pub drew_from_empty: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Target {
    Unit(CardId),
    Player(Seat),
    /// A card on the stack, by its card id.
    StackCard(CardId),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum StackKind {
    /// A card being played. `slot` for units; `expedition` when 远征 was paid.
    Card {
        card: CardId,
        slot: Option<usize>,
        expedition: bool,
    },
    /// 射击 X from a unit.
    Shoot { unit: CardId, amount: u8 },
    /// A territory's activated ability.
    TerritoryAbility { territory: CardId },
    /// 佩带: attach the equipment.
    Equip { equipment: CardId, unit: CardId },
    /// A combat procedure: resolves as the attack's damage (see docs/duel.md, "combat").
    Attack { unit: CardId },
    /// 迎击 X: `source` deals X to `victim`, which entered the opposite 陣地.
    Intercept {
        source: CardId,
        victim: CardId,
        amount: u8,
    },
    /// 突击 X after a move; `untapped` is the last known state if it left.
    Assault { unit: CardId, amount: u8 },
    /// 连击: untap.
    Combo { unit: CardId },
    /// An entity's on-enter steps.
    OnEnter { card: CardId },
    /// 观星 X from an entity entering.
    Stargaze { card: CardId, amount: u8 },
    /// 远征: exile the unit that entered for its expedition cost.
    ExpeditionExile { unit: CardId },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StackItem {
    pub controller: Seat,
    pub kind: StackKind,
    pub target: Option<Target>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Phase {
    /// 调度 before turn 1.
    Mulligan,
    /// 摸牌阶段 (重置 runs automatically before it).
    Draw,
    /// 行动阶段
    Action,
    /// 战斗阶段
    Combat,
    /// 结束阶段 (end step with priority; the discard step follows)
    End,
}

impl Phase {
    pub fn zh(self) -> &'static str {
        match self {
            Phase::Mulligan => "调度",
            Phase::Draw => "摸牌阶段",
            Phase::Action => "行动阶段",
            Phase::Combat => "战斗阶段",
            Phase::End => "结束阶段",
        }
    }
    pub fn en(self) -> &'static str {
        match self {
            Phase::Mulligan => "mulligan",
            Phase::Draw => "draw phase",
            Phase::Action => "action phase",
            Phase::Combat => "combat phase",
            Phase::End => "end phase",
        }
    }
}

/// A choice a player must make before anything else happens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Pending {
    /// 观星: the top cards of `seat`'s library to arrange.
    Stargaze { seat: Seat, cards: Vec<CardId> },
    /// 破竹: how much of the attacker's damage goes to the opposite unit (at least `min`).
    Breakthrough {
        seat: Seat,
        attacker: CardId,
        defender: CardId,
        min: u8,
        max: u8,
    },
    /// 弃牌步骤: the active player discards down to the hand limit.
    Discard { seat: Seat },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Outcome {
    Winner(Seat),
    /// Both players lost at the same moment.
    Draw,
}

#[derive(Clone, Debug)]
pub struct State {
    pub catalogue: Arc<Catalogue>,
    pub profile: Profile,
    pub cards: Vec<CardInstance>,
    pub players: [Player; 2],
    pub turn: u32,
    pub first: Seat,
    pub active: Seat,
    pub phase: Phase,
    pub priority: Seat,
    /// Players who passed in a row since the last action.
    pub passes: u8,
    pub stack: Vec<StackItem>,
    /// 放逐区, shared by both players.
    pub exile: Vec<CardId>,
    /// Last known (controller, slot, tapped) of units that left the battlefield (突击 needs it).
    pub last_known: Vec<(CardId, Seat, usize, bool)>,
    pub pending: Option<Pending>,
    /// Triggers waiting to go on the stack (active player's first, so the opponent's resolve first).
    pub triggers: Vec<StackItem>,
    pub outcome: Option<Outcome>,
    pub seed: u64,
}

/// The same game position: every field alike, the catalogue the very same one (states of one game
/// share it).
impl PartialEq for State {
    fn eq(&self, o: &State) -> bool {
        Arc::ptr_eq(&self.catalogue, &o.catalogue)
            && self.profile == o.profile
            && self.cards == o.cards
            && self.players == o.players
            && (self.turn, self.first, self.active, self.phase)
                == (o.turn, o.first, o.active, o.phase)
            && (self.priority, self.passes) == (o.priority, o.passes)
            && self.stack == o.stack
            && self.exile == o.exile
            && self.last_known == o.last_known
            && self.pending == o.pending
            && self.triggers == o.triggers
            && self.outcome == o.outcome
            && self.seed == o.seed
    }
}

impl State {
    pub fn def(&self, card: CardId) -> &CardDef {
        self.catalogue.get(self.cards[card as usize].def)
    }
    pub fn owner(&self, card: CardId) -> Seat {
        self.cards[card as usize].owner
    }
    pub fn other(seat: Seat) -> Seat {
        1 - seat
    }
    /// Where a unit stands: (controller, slot).
    pub fn find_unit(&self, card: CardId) -> Option<(Seat, usize)> {
        (0..2).find_map(|s| {
            self.players[s]
                .slots
                .iter()
                .position(|u| u.as_ref().is_some_and(|u| u.card == card))
                .map(|i| (s, i))
        })
    }
    pub fn unit(&self, card: CardId) -> Option<&Unit> {
        self.find_unit(card)
            .and_then(|(s, i)| self.players[s].slots[i].as_ref())
    }
    pub fn unit_mut(&mut self, card: CardId) -> Option<&mut Unit> {
        let (s, i) = self.find_unit(card)?;
        self.players[s].slots[i].as_mut()
    }
    /// The player whose decision the game waits on.
    pub fn actor(&self) -> Option<Seat> {
        if self.outcome.is_some() {
            return None;
        }
        if let Some(p) = &self.pending {
            return Some(match p {
                Pending::Stargaze { seat, .. }
                | Pending::Breakthrough { seat, .. }
                | Pending::Discard { seat } => *seat,
            });
        }
        if self.phase == Phase::Mulligan {
            let order = [self.first, State::other(self.first)];
            return order.into_iter().find(|&s| !self.players[s].kept);
        }
        Some(self.priority)
    }
    /// Every card id in every zone, for the conservation check.
    pub fn all_card_ids(&self) -> Vec<CardId> {
        let mut v = Vec::new();
        for p in &self.players {
            v.extend(&p.library);
            v.extend(&p.hand);
            v.extend(&p.graveyard);
            v.extend(p.slots.iter().flatten().map(|u| u.card));
            v.extend(p.territories.iter().map(|t| t.card));
            v.extend(p.entities.iter().map(|e| e.card));
        }
        v.extend(&self.exile);
        for item in &self.stack {
            if let StackKind::Card { card, .. } = item.kind {
                v.push(card);
            }
        }
        v
    }
}
