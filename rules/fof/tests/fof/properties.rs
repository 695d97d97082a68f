//! Every action legal_actions offers is accepted; actions it does not offer are refused; replaying a
//! prefix of the actions (undo) and redoing gives the same state.

use crate::{demo, start};
use fof::card::{ContactResult, Experience, HitEffect};
use fof::{Action, Answer, Deck, FieldsOfFire, Mission, State};
use proptest::prelude::*;
use rules_core::Game;

fn any_action() -> impl Strategy<Value = Action> {
    let hq = prop::sample::select(vec!["co", "1plt", "2plt", "xo", "general", "bn"]);
    let marker = prop::sample::select(vec!["A", "B", "C", "D"]);
    let unit = prop::sample::select(vec!["E1", "E2", "E3"]);
    let level = prop::sample::select(vec!["none", "light", "moderate", "heavy", "extreme"]);
    let exp = prop::sample::select(Experience::ALL.to_vec());
    let answer = prop_oneof![
        Just(Answer::Yes),
        Just(Answer::No),
        (0u8..12).prop_map(Answer::Number),
        prop::sample::select(HitEffect::ALL.to_vec()).prop_map(Answer::Hit),
        prop::sample::select(ContactResult::ALL.to_vec()).prop_map(Answer::Contact),
    ];
    prop_oneof![
        Just(Action::Next),
        Just(Action::Draw {
            purpose: "free draw".into()
        }),
        answer.prop_map(Action::Answer),
        hq.clone().prop_map(|h| Action::Activate { hq: h.into() }),
        (hq, 0u8..12).prop_map(|(h, p)| Action::Spend {
            hq: h.into(),
            points: p
        }),
        level.prop_map(|l| Action::SetActivity { level: l.into() }),
        marker
            .clone()
            .prop_map(|m| Action::CheckPc { marker: m.into() }),
        marker
            .clone()
            .prop_map(|m| Action::PlacePc { marker: m.into() }),
        marker.prop_map(|m| Action::RemovePc { marker: m.into() }),
        (-12i8..12, exp).prop_map(|(modifier, experience)| Action::Fire {
            modifier,
            experience
        }),
        unit.clone()
            .prop_map(|u| Action::AddEnemy { unit: u.into() }),
        unit.prop_map(|u| Action::RemoveEnemy { unit: u.into() }),
    ]
}

/// Free-text actions (any purpose, any new enemy name) are offered once, as a representative.
fn offered(s: &State, legal: &[Action], a: &Action) -> bool {
    match a {
        Action::AddEnemy { unit } => {
            !s.enemies.contains(unit) && legal.iter().any(|l| matches!(l, Action::AddEnemy { .. }))
        }
        _ => legal.contains(a),
    }
}

fn state_for(physical: bool, seed: u64) -> State {
    if physical {
        start(Mission::demo().unwrap(), Deck::physical(50), seed)
    } else {
        demo(seed)
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn legal_actions_are_accepted_and_others_refused(
        physical in any::<bool>(),
        seed in 0u64..1000,
        picks in prop::collection::vec(
            (any::<prop::sample::Index>(), any_action(), any::<bool>(), prop::bool::weighted(0.6)),
            1..300,
        ),
    ) {
        let mut s = state_for(physical, seed);
        // `next` is favoured so that walks reach the later steps and turns, not just the first one.
        for (index, random, use_random, prefer_next) in picks {
            let legal = FieldsOfFire::legal_actions(&s);
            if legal.is_empty() {
                prop_assert!(s.game_over);
                break;
            }
            let checked = rules_core::conformance::check_state::<FieldsOfFire>(&s, std::slice::from_ref(&random), |legal, a| offered(&s, legal, a));
            prop_assert!(checked.is_ok(), "{} at {} (awaiting {:?})", checked.err().unwrap_or_default(), s.current_step().id, s.awaiting);
            let result = FieldsOfFire::apply(&s, &random);
            let chosen = if use_random && result.is_ok() {
                random
            } else if prefer_next && legal.contains(&Action::Next) {
                Action::Next
            } else {
                index.get(&legal).clone()
            };
            s = FieldsOfFire::apply(&s, &chosen).unwrap().0;
        }
    }

    #[test]
    fn undo_then_redo_gives_the_same_state(
        seed in 0u64..1000,
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..80),
    ) {
        let mut s = demo(seed);
        let mut done = Vec::new();
        let mut states = vec![s.clone()];
        for index in picks {
            let legal = FieldsOfFire::legal_actions(&s);
            if legal.is_empty() { break; }
            let a = index.get(&legal).clone();
            s = FieldsOfFire::apply(&s, &a).unwrap().0;
            done.push(a);
            states.push(s.clone());
        }
        // Undo = replay all but the last action from the start; redo = apply it again.
        let mut replay = demo(seed);
        for a in &done[..done.len() - 1] {
            replay = FieldsOfFire::apply(&replay, a).unwrap().0;
        }
        prop_assert_eq!(&replay, &states[done.len() - 1]);
        let redone = FieldsOfFire::apply(&replay, done.last().unwrap()).unwrap().0;
        prop_assert_eq!(&redone, &s);
    }
}

#[test]
fn same_seed_same_game() {
    let play = |seed| {
        let mut s = demo(seed);
        while !s.game_over {
            s = FieldsOfFire::apply(&s, &Action::Next).unwrap().0;
        }
        s.log.iter().map(|d| d.card).collect::<Vec<u16>>()
    };
    assert_eq!(play(21), play(21));
    assert_ne!(play(21), play(22));
}

#[test]
fn every_legal_action_reads_back_from_its_words() {
    // The CLI's `act` parses what `actions` prints: the two must agree.
    for physical in [false, true] {
        let mut s = state_for(physical, 17);
        for i in 0..400 {
            let legal = FieldsOfFire::legal_actions(&s);
            if legal.is_empty() {
                break;
            }
            for a in &legal {
                let words = a.to_string();
                assert_eq!(words.parse::<Action>().as_ref(), Ok(a), "{words}");
            }
            s = FieldsOfFire::apply(&s, &legal[(i * 7) % legal.len()])
                .unwrap()
                .0;
        }
    }
}
