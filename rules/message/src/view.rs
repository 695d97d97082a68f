//! What one seat may see: its own hand and identity, everything face up, and no more.

use crate::catalogue::{Kind, Method};
use crate::state::*;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatView {
    pub status: Status,
    /// Known only for yourself and for revealed (dead) players.
    pub identity: Option<Identity>,
    /// Face-down (潜伏) characters are hidden from others until revealed.
    pub character: Option<usize>,
    pub hand_count: usize,
    /// Your own hand; `None` for others.
    pub hand: Option<Vec<CardId>>,
    /// Received intelligence lies face up.
    pub intel: Vec<CardId>,
    pub locked: bool,
    pub lured: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TransitView {
    pub sender: Seat,
    pub method: Method,
    pub holder: Seat,
    pub dir: Dir,
    /// The card, only when face up (文本) or when this seat has looked at it.
    pub card: Option<CardId>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UseView {
    pub seat: Seat,
    pub kind: Kind,
    /// Hidden for a 试探 (played face down) unless you played it or are its target.
    pub card: Option<CardId>,
    pub target: Option<Seat>,
    /// A burned intelligence is face up; a 掉包 replacement is hidden from others until it travels.
    pub target_card: Option<CardId>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    pub seat: Seat,
    pub offered: Vec<usize>,
    pub players: Vec<SeatView>,
    pub deck_count: usize,
    pub discard: Vec<CardId>,
    pub set_aside_count: usize,
    pub turn_seat: Seat,
    pub turn_number: u32,
    pub transit: Option<TransitView>,
    pub stack: Vec<UseView>,
    pub actor: Option<Seat>,
    pub outcome: Option<Outcome>,
}

pub fn player_view(s: &State, seat: Seat) -> View {
    let players = s
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let me = i == seat;
            let open_char = p
                .character
                .filter(|&c| me || p.revealed || !s.cat.characters[c].hidden);
            SeatView {
                status: p.status,
                identity: (me || p.revealed).then_some(p.identity),
                character: open_char,
                hand_count: p.hand.len(),
                hand: me.then(|| p.hand.clone()),
                intel: p.intel.clone(),
                locked: s.is_locked(i),
                lured: s.is_lured(i),
            }
        })
        .collect();
    let transit = s.transit.as_ref().map(|t| TransitView {
        sender: t.sender,
        method: t.method,
        holder: t.holder,
        dir: t.dir,
        card: (t.face_up || t.seen.get(seat).copied().unwrap_or(false)).then_some(t.card),
    });
    let stack = s
        .stack
        .iter()
        .map(|u| {
            let party = u.seat == seat || u.target == Some(seat);
            UseView {
                seat: u.seat,
                kind: u.kind,
                card: (u.kind != Kind::Probe || party).then_some(u.card),
                target: u.target,
                target_card: u
                    .target_card
                    .filter(|_| u.kind != Kind::Swap || u.seat == seat),
            }
        })
        .collect();
    View {
        seat,
        offered: s
            .players
            .get(seat)
            .map(|p| p.offered.clone())
            .unwrap_or_default(),
        players,
        deck_count: s.deck.len(),
        discard: s.discard.clone(),
        set_aside_count: s.set_aside.len(),
        turn_seat: s.turn.seat,
        turn_number: s.turn.number,
        transit,
        stack,
        actor: s.actor(),
        outcome: s.outcome.clone(),
    }
}
