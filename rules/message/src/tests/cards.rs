//! One test per function card and per rule of play, on scripted tables.

use super::*;
use crate::catalogue::{Colour, ProbeAnswer, Skill};
use crate::rules::{self, seed};
use crate::view::player_view;

const L: Identity = Identity::Lurker;
const B: Identity = Identity::Bureau;
const N: Identity = Identity::Neutral;

fn colour(s: &State, c: CardId) -> Colour {
    s.cat.deck.cards[c].colour
}

/// A plain card of this colour (a 破译, which no test plays) for sending or for intel.
fn plain(s: &mut State, c: Colour) -> CardId {
    let i = [Kind::Decode, Kind::Burn, Kind::Intercept, Kind::Probe]
        .into_iter()
        .find_map(|k| {
            s.deck.iter().position(|&x| {
                let card = &s.cat.deck.cards[x];
                card.colour == c && card.kind == k && card.method == Method::Secret
            })
        })
        .expect("card of that colour");
    s.deck.remove(i)
}

fn refused(s: &State, seat: Seat, a: Act) -> rules_core::Violation {
    let before = s.clone();
    let v = s
        .apply(&Action { seat, act: a })
        .expect_err("must be refused");
    assert_eq!(
        before.players, s.players,
        "a refused action leaves the state as it was"
    );
    v
}

#[test]
fn setup_deals_three_cards_and_two_characters_and_the_identity_table() {
    let c = cat();
    for n in 3..=9 {
        let s = new_game(n, n as u64);
        assert!(s
            .players
            .iter()
            .all(|p| p.hand.len() == 3 && p.offered.len() == 2));
        assert_eq!(s.deck.len(), 81 - 3 * n);
        let row = c
            .identities
            .iter()
            .find(|r| r.players == n)
            .unwrap()
            .standard;
        let count = |id| s.players.iter().filter(|p| p.identity == id).count();
        assert_eq!(
            (count(L), count(B), count(N)),
            (
                row.lurker as usize,
                row.bureau as usize,
                row.neutral as usize
            )
        );
        let mut offered: Vec<usize> = s.players.iter().flat_map(|p| p.offered.clone()).collect();
        offered.sort();
        offered.dedup();
        assert_eq!(offered.len(), 2 * n, "no character is offered twice");
    }
}

#[test]
fn optional_identity_sets_and_their_absence() {
    let p = Profile {
        identity_set: crate::profile::IdentitySet::Optional,
        ..Profile::default()
    };
    let s = State::from_setup(
        cat(),
        p.clone(),
        &Setup {
            players: 6,
            seed: 1,
            first_player: 0,
        },
    )
    .unwrap();
    assert_eq!(
        s.players.iter().filter(|x| x.identity == N).count(),
        0,
        "6 players optional: 3/3/0"
    );
    let err = State::from_setup(
        cat(),
        p,
        &Setup {
            players: 5,
            seed: 1,
            first_player: 0,
        },
    )
    .unwrap_err();
    assert_eq!(err.rule, rules::profile("identity_set"));
    let err = State::from_setup(
        cat(),
        Profile::default(),
        &Setup {
            players: 10,
            seed: 1,
            first_player: 0,
        },
    )
    .unwrap_err();
    assert_eq!(err.rule, seed(rules::IDENTITIES));
}

#[test]
fn draw_phase_draws_two_and_a_skill_draws_more() {
    let mut s = table(4, &[L, B, N, N]);
    let c = plain(&mut s, Colour::Red);
    s.players[0].hand.push(c);
    s = act(
        &s,
        0,
        Act::Send {
            card: c,
            target: None,
        },
    );
    s = pass_until(s, 0);
    s = act(&s, 0, Act::Accept);
    assert_eq!(s.turn.seat, 1);
    assert_eq!(s.players[1].hand.len(), 2);
    // Seat 2 has a character with extra_draw 1.
    let extra = s
        .cat
        .characters
        .iter()
        .position(|c| c.skills == vec![Skill::ExtraDraw { count: 1 }])
        .unwrap();
    s.players[2].character = Some(extra);
    let c = plain(&mut s, Colour::Blue);
    s.players[1].hand.push(c);
    s = act(
        &s,
        1,
        Act::Send {
            card: c,
            target: None,
        },
    );
    s = pass_until(s, 1);
    s = act(&s, 1, Act::Accept);
    assert_eq!(s.turn.seat, 2);
    assert_eq!(s.players[2].hand.len(), 3);
}

#[test]
fn discard_is_reshuffled_into_the_deck_when_it_runs_out() {
    let mut s = table(3, &[L, B, N]);
    let c = plain(&mut s, Colour::Red);
    s.players[0].hand.push(c);
    let keep: Vec<CardId> = s.deck.drain(..).collect();
    s.deck = keep[..1].to_vec();
    s.discard = keep[1..].to_vec();
    let total = s.deck.len() + s.discard.len();
    s = act(
        &s,
        0,
        Act::Send {
            card: c,
            target: None,
        },
    );
    s = pass_until(s, 0);
    let (s, ev) = act_ev(&s, 0, Act::Accept);
    assert!(
        ev.iter().any(|e| matches!(e, Event::Reshuffled { .. })),
        "{ev:?}"
    );
    assert_eq!(s.players[1].hand.len(), 2);
    assert_eq!(s.deck.len() + s.discard.len(), total - 2);
}

#[test]
fn exactly_one_intelligence_is_sent_per_turn() {
    let mut s = table(4, &[L, B, N, N]);
    let a = plain(&mut s, Colour::Red);
    let b = plain(&mut s, Colour::Blue);
    s.players[0].hand.extend([a, b]);
    assert!(s
        .legal_actions()
        .iter()
        .all(|x| matches!(x.act, Act::Send { .. })));
    s = act(
        &s,
        0,
        Act::Send {
            card: a,
            target: None,
        },
    );
    assert!(!s
        .legal_actions()
        .iter()
        .any(|x| matches!(x.act, Act::Send { .. })));
    let v = refused(
        &s,
        0,
        Act::Send {
            card: b,
            target: None,
        },
    );
    assert_eq!(v.rule, seed(rules::FLOW));
}

#[test]
fn a_player_who_cannot_send_loses_and_discards_everything() {
    let mut s = table(4, &[L, B, N, N]);
    let x = plain(&mut s, Colour::Red);
    s.players[0].hand.push(x);
    s = act(
        &s,
        0,
        Act::Send {
            card: x,
            target: None,
        },
    );
    s = pass_until(s, 0);
    let b = plain(&mut s, Colour::Blue);
    s.players[1].intel.push(b);
    let y = plain(&mut s, Colour::Red);
    s.players[2].hand.push(y);
    s.deck.clear(); // nothing to draw: player 2 starts a turn with an empty hand
    let (s, ev) = act_ev(&s, 0, Act::Accept);
    assert!(ev.contains(&Event::Lost { seat: 1 }), "{ev:?}");
    assert_eq!(s.players[1].status, Status::Lost);
    assert!(s.players[1].intel.is_empty());
    // Discarded, then reshuffled into the empty deck and drawn by player 3.
    assert!(s.discard.contains(&b) || s.players[2].hand.contains(&b));
    assert_eq!(s.turn.seat, 2, "the turn passes on");
}

#[test]
fn three_black_kills_reveals_the_identity_and_discards_all_cards() {
    let mut s = table(4, &[L, B, N, N]);
    for _ in 0..2 {
        let k = plain(&mut s, Colour::Black);
        s.players[1].intel.push(k);
    }
    let r = plain(&mut s, Colour::Red);
    s.players[1].hand.push(r);
    let k = plain(&mut s, Colour::Black);
    s.players[0].hand.push(k);
    s = act(
        &s,
        0,
        Act::Send {
            card: k,
            target: None,
        },
    );
    let (s, ev) = act_ev(&s, 1, Act::Accept);
    assert!(
        ev.contains(&Event::Died {
            seat: 1,
            identity: B
        }),
        "{ev:?}"
    );
    assert_eq!(s.players[1].status, Status::Dead);
    assert!(s.players[1].hand.is_empty() && s.players[1].intel.is_empty());
    assert_eq!(
        player_view(&s, 0).players[1].identity,
        Some(B),
        "revealed on death"
    );
    assert_eq!(s.discard.len(), 4);
}

#[test]
fn death_skill_triggers_on_death_not_on_losing() {
    let mut s = table(4, &[L, B, N, N]);
    let gift = s
        .cat
        .characters
        .iter()
        .position(|c| c.skills == vec![Skill::DeathDraw { count: 2 }])
        .unwrap();
    s.players[1].character = Some(gift);
    for _ in 0..2 {
        let k = plain(&mut s, Colour::Black);
        s.players[1].intel.push(k);
    }
    let k = plain(&mut s, Colour::Black);
    s.players[0].hand.push(k);
    s = act(
        &s,
        0,
        Act::Send {
            card: k,
            target: None,
        },
    );
    let (s, ev) = act_ev(&s, 1, Act::Accept);
    assert!(ev.contains(&Event::Drew { seat: 0, count: 2 }), "{ev:?}");
    assert_eq!(s.players[0].hand.len(), 2);
}

#[test]
fn three_red_wins_for_the_whole_lurker_team() {
    let mut s = table(5, &[L, B, L, B, N]);
    for _ in 0..2 {
        let r = plain(&mut s, Colour::Red);
        s.players[2].intel.push(r);
    }
    s.players[2].status = Status::Dead; // a dead teammate still wins with the team
    let r = plain(&mut s, Colour::Red);
    let holder = 0;
    s.players[holder].hand.push(r);
    let mut s2 = s.clone();
    s2.players[2].status = Status::Alive;
    let s2 = act(
        &s2,
        0,
        Act::Send {
            card: r,
            target: None,
        },
    );
    let s2 = pass_until(s2, 2);
    let (s2, _) = act_ev(&s2, 2, Act::Accept);
    match &s2.outcome {
        Some(Outcome::Win { winners, rule, .. }) => {
            assert_eq!(winners, &vec![0, 2]);
            assert_eq!(rule, &seed(rules::VICTORY));
        }
        o => panic!("{o:?}"),
    }
    assert_eq!(s2.phase, Phase::Over);
}

#[test]
fn three_red_in_front_of_a_bureau_player_wins_nothing() {
    let mut s = table(4, &[L, B, N, N]);
    for _ in 0..2 {
        let r = plain(&mut s, Colour::Red);
        s.players[1].intel.push(r);
    }
    let r = plain(&mut s, Colour::Red);
    s.players[0].hand.push(r);
    s = act(
        &s,
        0,
        Act::Send {
            card: r,
            target: None,
        },
    );
    let s = act(&s, 1, Act::Accept);
    assert!(s.outcome.is_none());
    assert_eq!(s.count(1, Colour::Red), 3);
}

#[test]
fn a_neutral_wins_alone_by_their_secret_mission() {
    let mut s = table(4, &[L, B, N, N]);
    let m = s
        .cat
        .characters
        .iter()
        .position(|c| matches!(c.mission, crate::catalogue::Mission::Total { count: 4 }))
        .unwrap();
    s.players[2].character = Some(m);
    s.players[3].character = Some(m);
    for c in [Colour::Red, Colour::Blue, Colour::Red] {
        let x = plain(&mut s, c);
        s.players[2].intel.push(x);
    }
    let x = plain(&mut s, Colour::Blue);
    s.players[0].hand.push(x);
    s = act(
        &s,
        0,
        Act::Send {
            card: x,
            target: None,
        },
    );
    s = pass_until(s, 2);
    let s = act(&s, 2, Act::Accept);
    match &s.outcome {
        Some(Outcome::Win { winners, .. }) => {
            assert_eq!(winners, &vec![2], "only that neutral wins")
        }
        o => panic!("{o:?}"),
    }
}

fn dying_winner(death_before_win: bool) -> State {
    let mut s = table(4, &[L, B, N, N]);
    s.profile.death_before_win = death_before_win;
    let m = s
        .cat
        .characters
        .iter()
        .position(|c| matches!(c.mission, crate::catalogue::Mission::Total { count: 4 }))
        .unwrap();
    s.players[1].identity = N;
    s.players[1].character = Some(m);
    for c in [Colour::Black, Colour::Black, Colour::Red] {
        let x = plain(&mut s, c);
        s.players[1].intel.push(x);
    }
    let k = plain(&mut s, Colour::Black);
    s.players[0].hand.push(k);
    let s = act(
        &s,
        0,
        Act::Send {
            card: k,
            target: None,
        },
    );
    act(&s, 1, Act::Accept)
}

#[test]
fn profile_death_before_win_a_dying_player_does_not_win() {
    let s = dying_winner(true);
    assert_eq!(s.players[1].status, Status::Dead);
    assert!(s.outcome.is_none(), "{:?}", s.outcome);
}

#[test]
fn profile_death_before_win_false_lets_the_victory_stand() {
    let s = dying_winner(false);
    assert!(
        matches!(&s.outcome, Some(Outcome::Win { winners, .. }) if winners == &vec![1]),
        "{:?}",
        s.outcome
    );
}

#[test]
fn lock_is_used_in_your_own_turn_on_another_player() {
    let mut s = table(4, &[L, B, N, N]);
    let lock = give(&mut s, 0, Kind::Lock);
    let x = plain(&mut s, Colour::Red);
    s.players[0].hand.push(x);
    let v = refused(
        &s,
        0,
        Act::Play {
            card: lock,
            target: Some(0),
            target_card: None,
        },
    );
    assert_eq!(v.rule, rules::card(Kind::Lock));
    let s = play(&s, 0, lock, Some(2));
    assert_eq!(s.turn.locked, vec![2]);
    assert_eq!(s.phase, Phase::Play);
    assert!(s.discard.contains(&lock));
}

#[test]
fn a_locked_player_cannot_refuse() {
    let mut s = table(4, &[L, B, N, N]);
    let lock = give(&mut s, 0, Kind::Lock);
    let x = plain(&mut s, Colour::Red);
    s.players[0].hand.push(x);
    s = play(&s, 0, lock, Some(1));
    s = act(
        &s,
        0,
        Act::Send {
            card: x,
            target: None,
        },
    );
    assert_eq!(s.actor(), Some(1));
    let v = refused(&s, 1, Act::Pass);
    assert_eq!(v.rule, rules::card(Kind::Lock));
    let (_, ev) = act_ev(&s, 1, Act::Accept);
    assert!(ev.iter().any(|e| matches!(e, Event::Received { seat: 1, forced: Some(r), .. } if *r == rules::card(Kind::Lock))));
}

#[test]
fn lock_immune_character_cannot_be_locked() {
    let mut s = table(4, &[L, B, N, N]);
    let imm = s
        .cat
        .characters
        .iter()
        .position(|c| c.skills == vec![Skill::LockImmune])
        .unwrap();
    s.players[2].character = Some(imm);
    let lock = give(&mut s, 0, Kind::Lock);
    refused(
        &s,
        0,
        Act::Play {
            card: lock,
            target: Some(2),
            target_card: None,
        },
    );
}

#[test]
fn lure_played_by_the_sender_skips_that_player() {
    let mut s = table(4, &[L, B, N, N]);
    let lure = give(&mut s, 0, Kind::Lure);
    let x = plain(&mut s, Colour::Red);
    s.players[0].hand.push(x);
    let v = refused(
        &s,
        0,
        Act::Play {
            card: lure,
            target: Some(0),
            target_card: None,
        },
    );
    assert_eq!(v.rule, rules::card(Kind::Lure));
    s = play(&s, 0, lure, Some(1));
    let (s, ev) = act_ev(
        &s,
        0,
        Act::Send {
            card: x,
            target: None,
        },
    );
    assert!(ev.contains(&Event::Skipped { seat: 1 }));
    assert_eq!(s.actor(), Some(2));
}

#[test]
fn intercept_losers_cards_are_discarded() {
    let mut s = table(5, &[L, B, L, B, N]);
    let i1 = give(&mut s, 1, Kind::Intercept);
    let i3 = give(&mut s, 3, Kind::Intercept);
    let x = plain(&mut s, Colour::Blue);
    s.players[0].hand.push(x);
    s = act(
        &s,
        0,
        Act::Send {
            card: x,
            target: None,
        },
    );
    assert_eq!(s.actor(), Some(1), "the player it reached is asked first");
    s = play(&s, 1, i1, None);
    assert_eq!(s.actor(), Some(3));
    let (s, ev) = act_ev(
        &s,
        3,
        Act::Play {
            card: i3,
            target: None,
            target_card: None,
        },
    );
    assert!(ev.contains(&Event::Intercepted { seat: 3 }));
    assert!(ev.contains(&Event::Fizzled {
        kind: Kind::Intercept,
        seat: 1
    }));
    assert_eq!(s.players[3].intel, vec![x]);
    assert!(s.discard.contains(&i1) && s.discard.contains(&i3));
    assert_eq!(s.turn.seat, 1, "the turn is over");
}

#[test]
fn decode_shows_the_card_to_that_player_only() {
    let mut s = table(4, &[L, B, N, N]);
    let d = give(&mut s, 1, Kind::Decode);
    let x = plain(&mut s, Colour::Black);
    s.players[0].hand.push(x);
    s = act(
        &s,
        0,
        Act::Send {
            card: x,
            target: None,
        },
    );
    assert_eq!(player_view(&s, 1).transit.unwrap().card, None);
    s = play(&s, 1, d, None);
    assert_eq!(s.phase, Phase::Decide);
    assert_eq!(player_view(&s, 1).transit.unwrap().card, Some(x));
    assert_eq!(player_view(&s, 2).transit.unwrap().card, None);
    assert_eq!(
        player_view(&s, 0).transit.unwrap().card,
        Some(x),
        "the sender knows what they sent"
    );
    s = act(&s, 1, Act::Pass);
    assert_eq!(s.actor(), Some(2));
}

#[test]
fn return_reverses_and_is_refused_to_the_sender() {
    let mut s = table(5, &[L, B, L, B, N]);
    let r = give(&mut s, 2, Kind::Return);
    let x = plain(&mut s, Colour::Red);
    s.players[0].hand.push(x);
    s = act(
        &s,
        0,
        Act::Send {
            card: x,
            target: None,
        },
    );
    s = pass_until(s, 2);
    assert_eq!(s.phase, Phase::Decide);
    let (s, ev) = act_ev(
        &s,
        2,
        Act::Play {
            card: r,
            target: None,
            target_card: None,
        },
    );
    assert!(ev.contains(&Event::Reversed { seat: 2 }));
    assert_eq!(s.actor(), Some(1), "back towards the sender");
}

#[test]
fn probe_answers_by_identity_and_is_set_aside() {
    for (id, answer) in [
        (L, ProbeAnswer::Draw),
        (B, ProbeAnswer::Discard),
        (N, ProbeAnswer::Say),
    ] {
        let mut s = table(4, &[L, id, N, N]);
        let i = s
            .deck
            .iter()
            .position(|&c| {
                s.cat.deck.cards[c].probe.is_some_and(|p| {
                    p.lurker == ProbeAnswer::Draw
                        && p.bureau == ProbeAnswer::Discard
                        && p.neutral == ProbeAnswer::Say
                })
            })
            .unwrap();
        let probe = s.deck.remove(i);
        s.players[0].hand.push(probe);
        let x = plain(&mut s, Colour::Red);
        s.players[0].hand.push(x);
        let y = plain(&mut s, Colour::Blue);
        s.players[1].hand.push(y);
        let (mut s, ev) = act_ev(
            &s,
            0,
            Act::Play {
                card: probe,
                target: Some(1),
                target_card: None,
            },
        );
        assert!(ev.contains(&Event::Probed { seat: 1, answer }), "{ev:?}");
        match answer {
            ProbeAnswer::Draw => assert_eq!(s.players[1].hand.len(), 2),
            ProbeAnswer::Discard => {
                assert_eq!(s.phase, Phase::ProbeDiscard { seat: 1 });
                s = act(&s, 1, Act::Discard { card: y });
                assert!(s.players[1].hand.is_empty() && s.discard.contains(&y));
                assert_eq!(s.phase, Phase::Play);
            }
            ProbeAnswer::Say => assert_eq!(s.players[1].hand.len(), 1),
        }
        assert_eq!(s.set_aside, vec![probe], "试探 is set aside, not discarded");
        assert!(!s.discard.contains(&probe));
    }
}

#[test]
fn expose_cancels_a_function_card() {
    let mut s = table(4, &[L, B, N, N]);
    let lock = give(&mut s, 0, Kind::Lock);
    let e = give(&mut s, 2, Kind::Expose);
    let x = plain(&mut s, Colour::Red);
    s.players[0].hand.push(x);
    s = play(&s, 0, lock, Some(1));
    assert_eq!(s.actor(), Some(2), "only a player who can answer is asked");
    let (s, ev) = act_ev(
        &s,
        2,
        Act::Play {
            card: e,
            target: None,
            target_card: None,
        },
    );
    assert!(
        ev.contains(&Event::Cancelled {
            kind: Kind::Lock,
            seat: 0
        }),
        "{ev:?}"
    );
    assert!(s.turn.locked.is_empty());
    assert!(s.discard.contains(&lock) && s.discard.contains(&e));
}

#[test]
fn expose_answers_another_expose_last_in_first_out() {
    let mut s = table(4, &[L, B, N, N]);
    let lock = give(&mut s, 0, Kind::Lock);
    let e2 = give(&mut s, 2, Kind::Expose);
    let e0 = give(&mut s, 0, Kind::Expose);
    let x = plain(&mut s, Colour::Red);
    s.players[0].hand.push(x);
    s = play(&s, 0, lock, Some(1));
    s = play(&s, 2, e2, None);
    assert_eq!(s.actor(), Some(0));
    let (s, ev) = act_ev(
        &s,
        0,
        Act::Play {
            card: e0,
            target: None,
            target_card: None,
        },
    );
    assert!(
        ev.contains(&Event::Cancelled {
            kind: Kind::Expose,
            seat: 2
        }),
        "{ev:?}"
    );
    assert_eq!(s.turn.locked, vec![1], "the lock stands");
}

#[test]
fn expose_is_only_an_answer() {
    let mut s = table(4, &[L, B, N, N]);
    let e = give(&mut s, 0, Kind::Expose);
    let v = refused(
        &s,
        0,
        Act::Play {
            card: e,
            target: None,
            target_card: None,
        },
    );
    assert_eq!(v.rule, rules::card(Kind::Expose));
}

#[test]
fn burn_discards_a_black_intelligence_only() {
    let mut s = table(4, &[L, B, N, N]);
    let burn = give(&mut s, 0, Kind::Burn);
    let k = plain(&mut s, Colour::Black);
    let r = plain(&mut s, Colour::Red);
    s.players[2].intel.extend([k, r]);
    let v = refused(
        &s,
        0,
        Act::Play {
            card: burn,
            target: Some(2),
            target_card: Some(r),
        },
    );
    assert_eq!(v.rule, rules::card(Kind::Burn));
    let (s, ev) = act_ev(
        &s,
        0,
        Act::Play {
            card: burn,
            target: Some(2),
            target_card: Some(k),
        },
    );
    assert!(ev.contains(&Event::Burned { seat: 2, card: k }));
    assert_eq!(s.players[2].intel, vec![r]);
    assert!(s.discard.contains(&k));
}

#[test]
fn swap_replaces_a_returned_intelligence_which_travels_as_text() {
    let mut s = table(4, &[L, B, N, N]);
    let sw = give(&mut s, 0, Kind::Swap);
    let x = plain(&mut s, Colour::Black);
    let y = plain(&mut s, Colour::Red);
    s.players[0].hand.extend([x, y]);
    s = act(
        &s,
        0,
        Act::Send {
            card: x,
            target: None,
        },
    );
    s = pass_until(s, 0);
    assert_eq!(s.transit.as_ref().unwrap().holder, 0);
    let v = refused(&s, 0, Act::Pass);
    assert_eq!(v.rule, seed(rules::BACK_TO_SENDER));
    let (s, ev) = act_ev(
        &s,
        0,
        Act::Play {
            card: sw,
            target: None,
            target_card: Some(y),
        },
    );
    assert!(ev.contains(&Event::Swapped { seat: 0 }));
    let t = s.transit.as_ref().unwrap();
    assert_eq!(
        (t.card, t.method, t.face_up, t.holder),
        (y, Method::Text, true, 1)
    );
    assert!(s.discard.contains(&x) && s.discard.contains(&sw));
    assert_eq!(colour(&s, y), Colour::Red);
}

#[test]
fn direct_goes_to_one_living_player() {
    let mut s = table(4, &[L, B, N, N]);
    let d = take(&mut s, Kind::Lock, Some(Method::Direct));
    s.players[0].hand.push(d);
    s.players[3].status = Status::Dead;
    let v = refused(
        &s,
        0,
        Act::Send {
            card: d,
            target: Some(3),
        },
    );
    assert_eq!(v.rule, seed(rules::DIRECT));
    refused(
        &s,
        0,
        Act::Send {
            card: d,
            target: None,
        },
    );
    let s = act(
        &s,
        0,
        Act::Send {
            card: d,
            target: Some(2),
        },
    );
    assert_eq!(s.actor(), Some(2));
}

#[test]
fn dead_players_are_passed_over() {
    let mut s = table(4, &[L, B, N, N]);
    s.players[1].status = Status::Dead;
    let x = plain(&mut s, Colour::Red);
    s.players[0].hand.push(x);
    let s = act(
        &s,
        0,
        Act::Send {
            card: x,
            target: None,
        },
    );
    assert_eq!(s.actor(), Some(2));
}

#[test]
fn not_your_turn_is_refused_and_names_the_rule() {
    let s = table(4, &[L, B, N, N]);
    let v = refused(&s, 2, Act::Pass);
    assert_eq!(v.rule, seed(rules::FLOW));
}

#[test]
fn profile_max_turns_ends_the_game_as_a_draw() {
    let p = Profile {
        max_turns: 3,
        ..Profile::default()
    };
    let s = State::from_setup(
        cat(),
        p,
        &Setup {
            players: 5,
            seed: 9,
            first_player: 0,
        },
    )
    .unwrap();
    let played = crate::selfplay::random_game(s, 50_000);
    match &played.state.outcome {
        Some(Outcome::Draw { rule, .. }) => assert_eq!(rule, &rules::profile("max_turns")),
        Some(Outcome::Win { .. }) => assert!(played.state.turns_played < 3),
        None => panic!("not over"),
    }
    assert!(played.state.turns_played <= 3);
}

#[test]
fn too_few_characters_for_the_table_is_refused() {
    let mut c = (*cat()).clone();
    c.characters.truncate(10);
    let err = State::from_setup(
        Arc::new(c),
        Profile::default(),
        &Setup {
            players: 6,
            seed: 1,
            first_player: 0,
        },
    )
    .unwrap_err();
    assert_eq!(err.rule, seed(rules::CHARACTERS));
}

#[test]
fn characters_are_chosen_from_the_two_offered_then_the_first_player_draws() {
    let mut s = new_game(4, 3);
    assert_eq!(s.phase, Phase::Choose { seat: 0 });
    assert!(s
        .apply(&Action {
            seat: 0,
            act: Act::Choose { index: 2 }
        })
        .is_err());
    for seat in 0..4 {
        let offered = s.players[seat].offered.clone();
        s = act(&s, seat, Act::Choose { index: 1 });
        assert_eq!(s.players[seat].character, Some(offered[1]));
    }
    assert_eq!(s.phase, Phase::Play);
    assert_eq!(s.players[0].hand.len(), 5, "3 dealt + 2 drawn");
}

#[test]
fn prompt_names_the_actor_in_both_languages() {
    use rules_core::Game;
    let s = table(4, &[L, B, N, N]);
    let p = crate::Message::prompt(&s);
    assert_eq!(p.actor.as_deref(), Some("1"));
    assert!(
        p.text.zh.contains("出牌阶段") && p.text.en.contains("play phase"),
        "{p:?}"
    );
}

#[test]
fn hidden_characters_are_face_down_to_others() {
    let mut s = table(4, &[L, B, N, N]);
    let hidden = s.cat.characters.iter().position(|c| c.hidden).unwrap();
    s.players[1].character = Some(hidden);
    assert_eq!(player_view(&s, 0).players[1].character, None);
    assert_eq!(player_view(&s, 1).players[1].character, Some(hidden));
    s.players[1].revealed = true;
    assert_eq!(player_view(&s, 0).players[1].character, Some(hidden));
}
