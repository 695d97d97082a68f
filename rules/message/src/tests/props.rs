//! Property tests: legal actions are exactly the accepted ones, cards are conserved, and a player's
//! view never shows a hidden identity, another hand or a face-down card.

use super::*;
use crate::view::player_view;
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn conserved(s: &State) -> bool {
    let mut all = s.all_cards();
    all.sort_unstable();
    all == (0..s.cat.deck.cards.len()).collect::<Vec<_>>()
}

/// Any action at all, most of them nonsense, from a seeded generator.
fn junk(rng: &mut ChaCha8Rng, s: &State) -> Action {
    let n = s.n() + 1;
    let card = rng.random_range(0..s.cat.deck.cards.len());
    let seat = rng.random_range(0..n);
    let target = if rng.random_bool(0.5) {
        Some(rng.random_range(0..n))
    } else {
        None
    };
    let tc = if rng.random_bool(0.3) {
        Some(rng.random_range(0..81))
    } else {
        None
    };
    let act = match rng.random_range(0..6) {
        0 => Act::Choose {
            index: rng.random_range(0..3),
        },
        1 => Act::Play {
            card,
            target,
            target_card: tc,
        },
        2 => Act::Send { card, target },
        3 => Act::Pass,
        4 => Act::Accept,
        _ => Act::Discard { card },
    };
    Action { seat, act }
}

/// The hidden information of `s` from `seat`'s side, redealt: other unrevealed identities permuted,
/// other hands and hidden cards swapped with deck cards. The view must not change.
fn redeal_hidden(s: &State, seat: Seat, rng: &mut ChaCha8Rng) -> State {
    let mut t = s.clone();
    let others: Vec<Seat> = (0..t.n())
        .filter(|&i| i != seat && !t.players[i].revealed)
        .collect();
    let mut ids: Vec<Identity> = others.iter().map(|&i| t.players[i].identity).collect();
    ids.shuffle(rng);
    for (k, &i) in others.iter().enumerate() {
        t.players[i].identity = ids[k];
    }
    t.deck.shuffle(rng);
    for &i in &others {
        for h in 0..t.players[i].hand.len() {
            if let Some(d) = t.deck.pop() {
                let old = std::mem::replace(&mut t.players[i].hand[h], d);
                t.deck.insert(0, old);
            }
        }
    }
    if let Some(tr) = &mut t.transit {
        if !tr.face_up && !tr.seen[seat] {
            if let Some(d) = t.deck.pop() {
                t.deck.insert(0, std::mem::replace(&mut tr.card, d));
            }
        }
    }
    t
}

fn check_view(s: &State, seat: Seat) {
    let v = player_view(s, seat);
    for (i, p) in v.players.iter().enumerate() {
        if i != seat {
            assert!(p.hand.is_none(), "another hand shown");
            if !s.players[i].revealed {
                assert!(
                    p.identity.is_none(),
                    "hidden identity of seat {i} shown to {seat}"
                );
            }
        }
    }
    if let (Some(tv), Some(t)) = (&v.transit, &s.transit) {
        if !t.face_up && !t.seen[seat] {
            assert!(tv.card.is_none(), "face-down intelligence shown");
        }
    }
}

fn walk(players: usize, seed: u64, steps: usize) {
    let mut s = new_game(players, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..steps {
        assert!(conserved(&s), "cards not conserved");
        for seat in 0..s.n() {
            check_view(&s, seat);
            let t = redeal_hidden(&s, seat, &mut rng);
            assert_eq!(
                player_view(&t, seat),
                player_view(&s, seat),
                "the view depends on hidden cards or identities"
            );
        }
        let legal = s.legal_actions();
        if s.outcome.is_some() {
            assert!(legal.is_empty());
            return;
        }
        assert!(!legal.is_empty(), "stuck in {:?}", s.phase);
        let candidates: Vec<_> = (0..20).map(|_| junk(&mut rng, &s)).collect();
        rules_core::conformance::check_state::<crate::Message>(
            &s,
            &candidates,
            rules_core::conformance::listed,
        )
        .unwrap_or_else(|e| panic!("{e} in {:?}", s.phase));
        s = s.apply(&legal[rng.random_range(0..legal.len())]).unwrap().0;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn legal_actions_are_exactly_the_accepted_ones_cards_conserved_views_hide_secrets(players in 3usize..=9, seed in any::<u64>()) {
        walk(players, seed, 400);
    }
}
