//! Property tests over random legal play with the two demo decks.

use super::*;
use crate::selfplay::{demo_start, random_game};
use crate::state::Outcome;
use crate::Target;
use proptest::prelude::*;

fn after(seed: u64, steps: usize) -> State {
    random_game(demo_start(seed), seed ^ 0x5eed, steps, false)
        .expect("random legal play")
        .state
}

fn any_action() -> impl Strategy<Value = Action> {
    let id = 0u16..110;
    let pay = prop::option::of(prop::collection::vec(id.clone(), 0..4));
    let slot = prop::option::of(0usize..6);
    let target = prop::option::of(prop_oneof![
        id.clone().prop_map(Target::Unit),
        (0usize..3).prop_map(Target::Player),
        id.clone().prop_map(Target::StackCard),
    ]);
    prop_oneof![
        Just(Action::Pass),
        Just(Action::Keep),
        prop::collection::vec(id.clone(), 0..4).prop_map(|cards| Action::Mulligan { cards }),
        (id.clone(), any::<bool>())
            .prop_map(|(card, face_up)| Action::PlayTerritory { card, face_up }),
        (id.clone(), slot, target, any::<bool>(), pay.clone()).prop_map(
            |(card, slot, target, expedition, pay)| Action::PlayCard {
                card,
                slot,
                target,
                expedition,
                pay,
            }
        ),
        (id.clone(), pay.clone())
            .prop_map(|(territory, pay)| Action::ActivateTerritory { territory, pay }),
        (id.clone(), id.clone()).prop_map(|(unit, target)| Action::Shoot { unit, target }),
        (id.clone(), 0usize..6).prop_map(|(unit, to)| Action::Shift { unit, to }),
        (id.clone(), id.clone(), pay).prop_map(|(equipment, unit, pay)| Action::Equip {
            equipment,
            unit,
            pay
        }),
        id.clone().prop_map(|unit| Action::Attack { unit }),
        (
            prop::collection::vec(id.clone(), 0..3),
            prop::collection::vec(id.clone(), 0..3)
        )
            .prop_map(|(top, bottom)| Action::Arrange { top, bottom }),
        (0u8..10).prop_map(|to_unit| Action::AssignBreakthrough { to_unit }),
        id.prop_map(|card| Action::Discard { card }),
    ]
}

/// Targets the interesting states: a random action among the legal ones mutated a little.
fn near_legal(s: &State, pick: usize, bump: u16) -> Option<Action> {
    let legal = crate::Duel::legal_actions(s);
    let a = legal.get(pick % legal.len().max(1))?.clone();
    Some(match a {
        Action::PlayCard {
            card,
            slot,
            target,
            expedition,
            ..
        } if bump < 2 => Action::PlayCard {
            card,
            slot: slot.map(|x| (x + bump as usize) % 6),
            target,
            expedition: expedition ^ (bump % 2 == 1),
            pay: None,
        },
        // A chosen payment: one of the ways to pay, or one territory too many or too few.
        a @ (Action::PlayCard { .. } | Action::ActivateTerritory { .. } | Action::Equip { .. }) => {
            let choices = s.payment_choices(&a, 8);
            let mut pay = choices
                .get(pick % choices.len().max(1))
                .cloned()
                .unwrap_or_default();
            match bump {
                2 => {}
                _ => {
                    if pay.pop().is_none() {
                        pay.push(pick as u16 % 110);
                    }
                }
            }
            a.paid_with(pay)
        }
        Action::Attack { unit } => Action::Attack {
            unit: unit.wrapping_add(bump),
        },
        Action::Shoot { unit, target } => Action::Shoot {
            unit,
            target: target.wrapping_add(bump),
        },
        Action::Shift { unit, to } => Action::Shift {
            unit,
            to: (to + bump as usize) % 6,
        },
        other => other,
    })
}

/// Legal as `Action::payment` defines it: listed with `pay: None`, or a listed action paid with one
/// of its payment choices (in any order).
fn listed(s: &State, legal: &[Action], a: &Action) -> bool {
    match a.payment() {
        None => legal.contains(a),
        Some(pay) => {
            let mut pay = pay.to_vec();
            pay.sort_unstable();
            legal.contains(&a.without_payment()) && s.payment_choices(a, usize::MAX).contains(&pay)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn property_legal_actions_are_accepted_and_nothing_else(seed in 0u64..1000, steps in 0usize..400, action in any_action(), pick in 0usize..64, bump in 0u16..4) {
        let s = after(seed, steps);
        let candidates: Vec<Action> = std::iter::once(action).chain(near_legal(&s, pick, bump)).collect();
        let checked = rules_core::conformance::check_state::<crate::Duel>(&s, &candidates, |legal, a| listed(&s, legal, a));
        prop_assert!(checked.is_ok(), "{}", checked.err().unwrap_or_default());
    }
}

/// Runs a random game step by step, calling `check` on every transition.
fn walk(seed: u64, mut check: impl FnMut(&State, &State, &[Event])) -> State {
    let mut s = demo_start(seed);
    let mut rng_seed = seed;
    for _ in 0..20_000 {
        if s.outcome.is_some() {
            break;
        }
        rng_seed = rng_seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let record = random_game(s.clone(), rng_seed, 1, true).expect("legal play");
        let (_, events) = record.log.into_iter().next().expect("one action");
        check(&s, &record.state, &events);
        s = record.state;
    }
    assert!(s.outcome.is_some(), "seed {seed}: the walked game ended");
    s
}

#[test]
fn property_no_card_is_created_or_lost() {
    for seed in 0..6 {
        walk(seed, |_, after, _| {
            let mut ids = after.all_card_ids();
            ids.sort_unstable();
            let want: Vec<CardId> = (0..after.cards.len() as CardId).collect();
            assert_eq!(ids, want, "seed {seed}: every card in exactly one zone");
        });
    }
}

#[test]
fn property_life_changes_only_through_damage_loss_or_gain() {
    for seed in 10..16 {
        walk(seed, |before, after, events| {
            for seat in 0..2 {
                let mut expected = before.players[seat].life;
                for e in events {
                    match e {
                        Event::PlayerDamaged { seat: s, amount }
                        | Event::LifeLost { seat: s, amount }
                            if *s == seat =>
                        {
                            expected -= *amount as i32
                        }
                        Event::LifeGained { seat: s, amount } if *s == seat => {
                            expected += *amount as i32
                        }
                        _ => {}
                    }
                }
                assert_eq!(
                    after.players[seat].life, expected,
                    "seed {seed} seat {seat}: {events:?}"
                );
            }
        });
    }
}

#[test]
fn property_random_games_between_random_legal_players_end_with_a_winner() {
    let mut turns = Vec::new();
    for seed in 100..124 {
        let record = random_game(demo_start(seed), seed, 20_000, false).expect("legal play");
        assert!(
            matches!(record.outcome, Some(Outcome::Winner(_))),
            "seed {seed}: {:?} after {} actions",
            record.outcome,
            record.actions
        );
        turns.push(record.state.turn);
    }
    // Bound: a library of 52 runs out within ~2 × 45 turns even if nobody ever attacks.
    assert!(turns.iter().all(|t| *t <= 2 * 52 + 2), "{turns:?}");
}

#[test]
fn same_seed_same_game() {
    let a = random_game(demo_start(7), 7, 3000, true).unwrap();
    let b = random_game(demo_start(7), 7, 3000, true).unwrap();
    assert_eq!(a.actions, b.actions);
    assert_eq!(
        a.log.iter().map(|x| &x.0).collect::<Vec<_>>(),
        b.log.iter().map(|x| &x.0).collect::<Vec<_>>()
    );
}

#[test]
#[ignore = "diagnostic: prints game lengths"]
fn print_game_lengths() {
    for seed in 100..110 {
        let r = random_game(demo_start(seed), seed, 20_000, true).unwrap();
        let attacks = r
            .log
            .iter()
            .filter(|x| matches!(x.0, Action::Attack { .. }))
            .count();
        let plays = r
            .log
            .iter()
            .filter(|x| matches!(x.0, Action::PlayCard { .. }))
            .count();
        let lives: Vec<i32> = r.state.players.iter().map(|p| p.life).collect();
        let libs: Vec<usize> = r.state.players.iter().map(|p| p.library.len()).collect();
        println!("seed {seed}: {:?} actions {} turn {} attacks {attacks} plays {plays} life {lives:?} library {libs:?}", r.outcome, r.actions, r.state.turn);
    }
}

#[test]
fn property_every_legal_action_is_accepted_along_whole_games() {
    for seed in 30..33 {
        walk(seed, |before, _, _| {
            for a in crate::Duel::legal_actions(before) {
                if let Err(v) = crate::Duel::apply(before, &a) {
                    panic!("seed {seed}: legal {a:?} refused: {v}");
                }
                // Every way to pay is accepted too, and taps exactly the chosen territories.
                for pay in before.payment_choices(&a, 6) {
                    let paid = a.paid_with(pay.clone());
                    let (after, _) = crate::Duel::apply(before, &paid)
                        .unwrap_or_else(|v| panic!("seed {seed}: {paid:?} refused: {v}"));
                    let seat = before.actor().unwrap();
                    for t in &after.players[seat].territories {
                        let was = before.players[seat]
                            .territories
                            .iter()
                            .find(|b| b.card == t.card);
                        if pay.contains(&t.card) {
                            assert!(t.tapped, "seed {seed}: chosen territory tapped");
                        } else if let Some(b) = was {
                            let activated = matches!(&a, Action::ActivateTerritory { territory, .. } if *territory == t.card);
                            assert!(
                                activated || t.tapped == b.tapped,
                                "seed {seed}: only the chosen territories tap"
                            );
                        }
                    }
                }
            }
        });
    }
}
