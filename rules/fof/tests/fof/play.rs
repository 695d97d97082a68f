//! HQ events, enemy activity, potential contact, fire, the draw log and the deck options.

use crate::{act, act_str, demo, edited_mission, go_to, start};
use fof::card::{ContactResult, HitEffect};
use fof::state::{Event, Side};
use fof::{Action, Answer, Deck, Mission};
use rules_core::{Game, RuleRef};

fn physical() -> fof::State {
    start(Mission::demo().unwrap(), Deck::physical(50), 5)
}

#[test]
fn rule_3_1_hq_icon_second_draw_r_number_on_event_table() {
    let s = go_to(physical(), "3.8");
    let s = act(&s, Action::Next).0; // turn 2, 3.1
    assert_eq!(s.current_step().id, "3.1");
    let (s, ev) = act(&s, Action::Answer(Answer::Yes));
    assert!(
        matches!(ev.last(), Some(Event::Awaiting { .. })),
        "second card drawn"
    );
    assert_eq!(s.log.last().unwrap().purpose, "3.1: friendly HQ event R#");
    let (s, ev) = act(&s, Action::Answer(Answer::Number(8)));
    let expected = s.mission.friendly_hq_events[7].clone();
    assert!(ev.contains(&Event::HqEvent {
        side: Side::Friendly,
        r: 8,
        event: expected
    }));
    assert!(s.awaiting.is_none());
}

#[test]
fn rule_3_1_no_hq_icon_no_second_draw() {
    let s = act(&go_to(physical(), "3.8"), Action::Next).0;
    let draws = s.log.len();
    let (s, ev) = act(&s, Action::Answer(Answer::No));
    assert_eq!(s.log.len(), draws);
    assert!(ev.contains(&Event::NoHqEvent {
        side: Side::Friendly
    }));
}

#[test]
fn rule_3_4_1_digital_hq_event_uses_second_cards_r() {
    // Find a seed whose turn-2 3.4.1 check card shows the HQ icon.
    for seed in 0..200 {
        let s = go_to(act(&go_to(demo(seed), "3.8"), Action::Next).0, "3.3.2 D");
        let (s, ev) = act(&s, Action::Next); // into 3.4.1
        let Some(Event::HqEvent {
            side: Side::Enemy,
            r,
            event,
        }) = ev
            .iter()
            .find(|e| matches!(e, Event::HqEvent { .. }))
            .cloned()
        else {
            continue;
        };
        let n = s.log.len();
        let check = s.deck.card(s.log[n - 2].card).unwrap();
        let second = s.deck.card(s.log[n - 1].card).unwrap();
        assert!(check.hq_radio);
        assert_eq!(r, second.r);
        assert_eq!(event, s.mission.enemy_hq_events[usize::from(r) - 1]);
        return;
    }
    panic!("no seed in 0..200 gave an enemy HQ event");
}

#[test]
fn rule_3_4_2_enemy_checks_in_random_order_one_card_each() {
    let s = go_to(demo(1), "3.3.2 D");
    let (s, ev) = act(&s, Action::Next);
    assert_eq!(s.current_step().id, "3.4.2");
    let order = ev
        .iter()
        .find_map(|e| match e {
            Event::EnemyOrder { units } => Some(units.clone()),
            _ => None,
        })
        .expect("order event");
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(sorted, vec!["E1", "E2"]);
    let checks: Vec<&Event> = ev
        .iter()
        .filter(|e| matches!(e, Event::EnemyCheck { .. }))
        .collect();
    assert_eq!(checks.len(), 2);
    assert!(s
        .log
        .last()
        .unwrap()
        .purpose
        .starts_with("3.4.2: activity check for enemy"));
    // Across seeds both orders occur.
    let firsts: std::collections::BTreeSet<String> = (0..20)
        .map(|seed| {
            let (_, ev) = act(&go_to(demo(seed), "3.3.2 D"), Action::Next);
            ev.iter()
                .find_map(|e| match e {
                    Event::EnemyOrder { units } => Some(units[0].clone()),
                    _ => None,
                })
                .unwrap()
        })
        .collect();
    assert_eq!(firsts.len(), 2);
}

#[test]
fn rule_3_7_2_pc_markers_in_alphabetical_order_draws_by_activity() {
    let s = go_to(physical(), "3.7.2"); // activity light: A 1 draw, B 2 draws
    let s = act_str(&s, "pc B").0;
    let err = fof::FieldsOfFire::apply(&s, &Action::Next).unwrap_err();
    assert!(
        err.to_string().contains("3.7.2"),
        "must read the card first: {err}"
    );
    let s = act(&s, Action::Answer(Answer::Contact(ContactResult::None))).0;
    let (s, ev) = act(&s, Action::Answer(Answer::Contact(ContactResult::None)));
    assert!(ev.contains(&Event::PcResolved {
        marker: "B".into(),
        contact: None,
        automatic: false
    }));
    let err = fof::FieldsOfFire::apply(&s, &"pc A".parse().unwrap()).unwrap_err();
    assert!(err.to_string().contains("alphabetical"), "{err}");
    let (s, ev) = act_str(&s, "pc C"); // C at light: 1 draw
    assert!(matches!(ev.last(), Some(Event::Awaiting { .. })));
    let (s, ev) = act(&s, Action::Answer(Answer::Contact(ContactResult::Squad)));
    assert!(ev.contains(&Event::PcResolved {
        marker: "C".into(),
        contact: Some(ContactResult::Squad),
        automatic: false
    }));
    assert!(!s.pc_markers.contains("C"), "a contact replaces the marker");
}

#[test]
fn rule_3_7_2_pc_contact_stops_the_markers_other_draws() {
    let s = go_to(physical(), "3.7.2");
    let s = act_str(&s, "pc B").0; // 2 draws at light
    let before = s.log.len();
    let s = act(&s, Action::Answer(Answer::Contact(ContactResult::Sniper))).0;
    assert_eq!(s.log.len(), before, "no second draw after contact");
    assert!(s.awaiting.is_none());
}

#[test]
fn rule_3_7_2_automatic_contact_needs_no_draw() {
    let s = go_to(physical(), "3.7.1 A");
    let s = act_str(&s, "activity heavy").0;
    let s = act(&s, Action::Next).0;
    let before = s.log.len();
    let (s, ev) = act_str(&s, "pc B");
    assert_eq!(s.log.len(), before);
    assert!(ev.contains(&Event::PcResolved {
        marker: "B".into(),
        contact: None,
        automatic: true
    }));
}

#[test]
fn rule_3_7_4_fire_then_hit_effect_by_experience() {
    let s = go_to(physical(), "3.7.4");
    let s = act_str(&s, "fire +2 green").0;
    assert_eq!(s.log.last().unwrap().purpose, "3.7.4: effective fire at +2");
    let s = act(&s, Action::Answer(Answer::Yes)).0;
    let (_, ev) = act(&s, Action::Answer(Answer::Hit(HitEffect::Panicked)));
    assert!(ev.contains(&Event::HitResolved {
        experience: fof::card::Experience::Green,
        effect: HitEffect::Panicked
    }));
    // Digital: effective exactly when the modifier reaches the card's threshold.
    for seed in 0..30 {
        let s = go_to(demo(seed), "3.7.4");
        let (s2, ev) = act_str(&s, "fire +1 veteran");
        let card = s2.deck.card(s2.log[s.log.len()].card).unwrap();
        let effective = 1 >= card.effective_fire;
        assert!(ev.contains(&Event::FireResolved {
            modifier: 1,
            effective
        }));
        if effective {
            let hit = s2
                .deck
                .card(s2.log.last().unwrap().card)
                .unwrap()
                .hit
                .veteran;
            assert!(ev.contains(&Event::HitResolved {
                experience: fof::card::Experience::Veteran,
                effect: hit
            }));
        }
    }
}

#[test]
fn profile_reshuffle_when_empty_off_refuses_the_51st_draw_and_reshuffles_at_clean_up() {
    let m = edited_mission(
        "reshuffle_when_empty = true",
        "reshuffle_when_empty = false",
    );
    let mut s = go_to(start(m, Deck::demo().unwrap(), 4), "3.7.4");
    while !s.pile.draw.is_empty() {
        s = act_str(&s, "draw test").0;
    }
    let err = fof::FieldsOfFire::apply(&s, &"draw test".parse().unwrap()).unwrap_err();
    assert_eq!(err.rule, RuleRef::profile("fof.reshuffle_when_empty"));
    let s = act(&s, Action::Next).0; // 3.8
    let (s, ev) = act(&s, Action::Next);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Reshuffled { cards: 50, .. })));
    assert_eq!(s.pile.draw.len() + s.pile.discard.len(), 50);
}

#[test]
fn profile_reshuffle_when_empty_on_reshuffles_mid_step() {
    let mut s = go_to(demo(4), "3.7.4");
    let mut reshuffled = false;
    for _ in 0..60 {
        let (next, ev) = act_str(&s, "draw test");
        reshuffled |= ev.iter().any(|e| matches!(e, Event::Reshuffled { .. }));
        s = next;
    }
    assert!(reshuffled);
    assert_eq!(s.pile.draw.len() + s.pile.discard.len(), 50);
}

#[test]
fn every_draw_is_logged_with_its_purpose() {
    let mut s = demo(8);
    while s.turn < 3 {
        s = act(&s, Action::Next).0;
    }
    assert!(!s.log.is_empty());
    for (i, d) in s.log.iter().enumerate() {
        assert_eq!(d.seq as usize, i + 1);
        assert!(d.purpose.starts_with(&format!("{}: ", d.step)), "{d:?}");
    }
    assert!(s
        .log
        .iter()
        .any(|d| d.purpose == "3.3.2 D: general initiative"));
}

#[test]
fn physical_mode_accepts_only_an_answer_while_a_card_is_read() {
    let s = go_to(physical(), "3.3.2 A"); // CO initiative draw awaits
    assert!(s.awaiting.is_some());
    let legal = fof::FieldsOfFire::legal_actions(&s);
    assert_eq!(legal.len(), 10, "0..=9");
    assert!(legal
        .iter()
        .all(|a| matches!(a, Action::Answer(Answer::Number(_)))));
    assert!(fof::FieldsOfFire::apply(&s, &Action::Answer(Answer::Yes)).is_err());
    let p = fof::FieldsOfFire::prompt(&s);
    assert!(p.text.en.contains("initiative number"), "{}", p.text.en);
}
