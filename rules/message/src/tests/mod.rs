//! Engine tests. Scripted tables are built by `table()`: seats hold exactly the cards a test needs.

mod cards;
mod catalogue;
mod chain;
mod games;
mod props;
mod tally;

use crate::catalogue::{Catalogue, Kind, Method};
use crate::profile::Profile;
use crate::setup::Setup;
use crate::state::*;
use std::sync::Arc;

pub fn cat() -> Arc<Catalogue> {
    Arc::new(Catalogue::shipped().expect("shipped catalogue loads"))
}

pub fn new_game(players: usize, seed: u64) -> State {
    State::from_setup(
        cat(),
        Profile::default(),
        &Setup {
            players,
            seed,
            first_player: 0,
        },
    )
    .expect("setup")
}

/// Plays the character choices (first offered card each).
pub fn chosen(mut s: State) -> State {
    while let Phase::Choose { seat } = s.phase {
        s = s
            .apply(&Action {
                seat,
                act: Act::Choose { index: 0 },
            })
            .expect("choose")
            .0;
    }
    s
}

/// A card of this kind (and method, if given) not yet placed: takes it out of the deck.
pub fn take(s: &mut State, kind: Kind, method: Option<Method>) -> CardId {
    let i = s
        .deck
        .iter()
        .position(|&c| {
            let card = &s.cat.deck.cards[c];
            card.kind == kind && method.is_none_or(|m| card.method == m)
        })
        .expect("card of that kind left in the deck");
    s.deck.remove(i)
}

/// A started game at `n` seats in seat 0's play phase, every hand emptied back into the deck,
/// characters without skills (none chosen), identities as given.
pub fn table(n: usize, ids: &[Identity]) -> State {
    let mut s = chosen(new_game(n, 7));
    for p in &mut s.players {
        let cards: Vec<CardId> = p.hand.drain(..).chain(p.intel.drain(..)).collect();
        s.deck.extend(cards);
        p.character = None;
    }
    s.deck.append(&mut s.discard);
    for (i, id) in ids.iter().enumerate() {
        s.players[i].identity = *id;
    }
    s.turn = Turn {
        seat: 0,
        number: 1,
        locked: vec![],
        lured: vec![],
        sent: false,
    };
    s.phase = Phase::Play;
    s
}

pub fn give(s: &mut State, seat: Seat, kind: Kind) -> CardId {
    let c = take(s, kind, None);
    s.players[seat].hand.push(c);
    c
}

/// Players asked in a round who could only pass, pass (as a table does without a word).
pub fn auto(mut s: State, ev: &mut Vec<Event>) -> State {
    while matches!(s.phase, Phase::Round { .. }) {
        let legal = s.legal_actions();
        match legal.as_slice() {
            [only] if only.act == Act::Pass => {
                let (n, e) = s.apply(only).expect("pass");
                ev.extend(e);
                s = n;
            }
            _ => break,
        }
    }
    s
}

pub fn act_ev(s: &State, seat: Seat, act: Act) -> (State, Vec<Event>) {
    let s = auto(s.clone(), &mut Vec::new());
    match s.apply(&Action {
        seat,
        act: act.clone(),
    }) {
        Ok((n, mut ev)) => {
            let n = auto(n, &mut ev);
            (n, ev)
        }
        Err(v) => panic!(
            "{seat}:{act:?} refused: {v}; phase {:?} actor {:?}",
            s.phase,
            s.actor()
        ),
    }
}

pub fn act(s: &State, seat: Seat, act: Act) -> State {
    act_ev(s, seat, act).0
}

pub fn play(s: &State, seat: Seat, card: CardId, target: Option<Seat>) -> State {
    act(
        s,
        seat,
        Act::Play {
            card,
            target,
            target_card: None,
        },
    )
}

/// Everyone prompted passes until `seat` must act (or the turn ends).
pub fn pass_until(mut s: State, seat: Seat) -> State {
    for _ in 0..200 {
        match s.actor() {
            Some(a) if a == seat => return s,
            Some(a) if matches!(s.phase, Phase::Round { .. } | Phase::Decide) => {
                s = act(&s, a, Act::Pass)
            }
            _ => return s,
        }
    }
    panic!("stuck")
}
