//! Stack, priority, timing and the turn: one test per rule, named after it.

use super::*;
use crate::state::{Pending, StackKind};
use crate::Target;

#[test]
fn priority_active_player_first_when_a_phase_begins() {
    let s = table(&[], &[]);
    let (s, ev) = both_pass(&s);
    assert_eq!(s.phase, Phase::Combat);
    assert_eq!(s.priority, 0);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::PhaseBegan {
            phase: Phase::Combat,
            ..
        }
    )));
}

#[test]
fn priority_passing_gives_it_to_the_next_player() {
    let s = table(&[], &[]);
    let (s, _) = act(&s, Action::Pass);
    assert_eq!((s.priority, s.passes, s.phase), (1, 1, Phase::Action));
}

#[test]
fn priority_all_passing_on_an_empty_stack_ends_the_step() {
    let s = table(&[], &[]);
    let (s, _) = both_pass(&s);
    assert_eq!(s.phase, Phase::Combat);
}

#[test]
fn stack_resolves_last_in_first_out_one_item_per_round_of_passes() {
    let mut s = table(&[], &[]);
    lands(&mut s, 0, "neu-15", 4);
    lands(&mut s, 1, "neu-15", 4);
    let a = hand(&mut s, 0, "neu-10");
    let b = hand(&mut s, 1, "neu-10");
    let (s, _) = act(&s, play(a, None, None));
    let (s, _) = act(&s, Action::Pass);
    let (s, _) = act(&s, play(b, None, None));
    assert_eq!(s.stack.len(), 2);
    let hand_a = s.players[0].hand.len();
    let hand_b = s.players[1].hand.len();
    let (s, _) = both_pass(&s);
    assert_eq!(s.stack.len(), 1, "only the top resolves");
    assert_eq!(
        s.players[1].hand.len(),
        hand_b + 1,
        "B's card, played last, resolved first"
    );
    assert_eq!(s.players[0].hand.len(), hand_a);
    let (s, _) = both_pass(&s);
    assert!(s.stack.is_empty());
    assert_eq!(s.players[0].hand.len(), hand_a + 1);
    assert_eq!(
        s.phase,
        Phase::Action,
        "the step goes on after the stack empties"
    );
}

#[test]
fn priority_goes_to_the_active_player_after_each_resolution() {
    let mut s = table(&[], &[]);
    lands(&mut s, 0, "neu-15", 2);
    let a = hand(&mut s, 0, "neu-10");
    let (s, _) = act(&s, play(a, None, None));
    assert_eq!(s.priority, 0, "the player who played keeps priority");
    let (s, _) = act(&s, Action::Pass);
    assert_eq!(s.priority, 1);
    let (s, _) = act(&s, Action::Pass);
    assert_eq!((s.priority, s.passes), (0, 0));
}

#[test]
fn priority_an_action_between_passes_restarts_the_run() {
    let mut s = table(&[], &[]);
    lands(&mut s, 1, "neu-15", 2);
    let b = hand(&mut s, 1, "neu-10");
    let (s, _) = act(&s, Action::Pass);
    let (s, _) = act(&s, play(b, None, None));
    assert_eq!(s.passes, 0);
    let (s, _) = act(&s, Action::Pass);
    assert_eq!(
        s.stack.len(),
        1,
        "one pass after the action is not everyone passing"
    );
}

#[test]
fn timing_normal_cards_need_your_action_phase_and_an_empty_stack() {
    let mut s = table(&[], &[]);
    lands(&mut s, 0, "wei-land", 3);
    lands(&mut s, 1, "wei-land", 3);
    let unit_a = hand(&mut s, 0, "wei-01");
    let unit_b = hand(&mut s, 1, "wei-01");
    let quick = hand(&mut s, 0, "neu-10");
    let (s1, _) = act(&s, play(quick, None, None));
    let v = refused(&s1, play(unit_a, Some(0), None));
    assert!(rule_of(&v).contains("使用时机"), "{v}");
    let (s2, _) = act(&s, Action::Pass);
    let v = refused(&s2, play(unit_b, Some(0), None));
    assert!(rule_of(&v).contains("使用时机"), "{v}");
}

#[test]
fn instant_tricks_answer_on_the_opponents_turn() {
    let mut s = table(&[], &[]);
    lands(&mut s, 1, "wei-land", 3);
    let target = unit(&mut s, 0, "wei-01", 2);
    let arrow = hand(&mut s, 1, "wei-11");
    let (s, _) = act(&s, Action::Pass);
    let (s, _) = act(&s, play(arrow, None, Some(Target::Unit(target))));
    let (s, ev) = both_pass(&s);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Died { card } if *card == target)));
    assert!(s.players[0].graveyard.contains(&target));
}

#[test]
fn cancel_answers_a_card_being_played_which_goes_to_the_graveyard() {
    let mut s = table(&[], &[]);
    lands(&mut s, 0, "wei-land", 2);
    lands(&mut s, 1, "wei-land", 2);
    let u = hand(&mut s, 0, "wei-01");
    let veto = hand(&mut s, 1, "wei-09");
    let (s, _) = act(&s, play(u, Some(1), None));
    let own = refused(&s, play(veto, None, Some(Target::StackCard(u))));
    assert!(
        rule_of(&own).contains("手牌"),
        "A holds priority, and the card is B's: {own}"
    );
    let (s, _) = act(&s, Action::Pass);
    let (s, _) = act(&s, play(veto, None, Some(Target::StackCard(u))));
    let (s, ev) = both_pass(&s);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Cancelled { card } if *card == u)));
    assert!(s.stack.is_empty(), "the cancelled unit left the stack");
    assert!(s.players[0].slots[1].is_none());
    assert!(s.players[0].graveyard.contains(&u));
}

#[test]
fn cancel_cannot_target_your_own_card_or_an_ability() {
    let mut s = table(&[], &[]);
    lands(&mut s, 0, "wei-land", 4);
    let quick = hand(&mut s, 0, "neu-10");
    let veto = hand(&mut s, 0, "wei-09");
    let (s, _) = act(&s, play(quick, None, None));
    let v = refused(&s, play(veto, None, Some(Target::StackCard(quick))));
    assert!(rule_of(&v).contains("取消"), "{v}");
}

#[test]
fn seed_example_fenxun_answers_lengjian_and_prevents_its_damage() {
    // Seed 「堆疊結算」 example: B plays 冷箭 at A's 东州步兵; A answers with 奋迅; 奋迅 resolves first.
    let mut s = table_with(
        seed_examples(),
        &["dongzhou", "fenxun"],
        &["lengjian", "x-wland", "x-wland"],
        "x-land",
    );
    lands(&mut s, 0, "x-land", 2);
    lands(&mut s, 1, "x-wland", 2);
    let dz = unit(&mut s, 0, "dongzhou", 2);
    let fenxun = hand(&mut s, 0, "fenxun");
    let lengjian = hand(&mut s, 1, "lengjian");
    let (s, _) = act(&s, Action::Pass);
    let (s, _) = act(&s, play(lengjian, None, Some(Target::Unit(dz))));
    let (s, _) = act(&s, Action::Pass);
    let (s, _) = act(&s, play(fenxun, None, Some(Target::Unit(dz))));
    assert_eq!(s.stack.len(), 2);
    let (s, _) = both_pass(&s);
    assert_eq!(s.attack_of(dz), 5, "奋迅 resolved first: +3 武力");
    let (s, ev) = both_pass(&s);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Prevented { card, amount: 2 } if *card == dz)));
    assert_eq!(
        s.unit(dz).map(|u| u.damage),
        Some(0),
        "东州步兵 took no damage"
    );
    assert!(s.stack.is_empty());
}

#[test]
fn seed_example_pozhu_7_7_against_the_phalanx_3_4_preventing_2() {
    for (to_unit, dies, player_damage) in [(4u8, false, 3u8), (6, true, 1)] {
        let mut s = table_with(seed_examples(), &["pozhu77"], &["fangzhen"], "x-land");
        let rider = unit(&mut s, 0, "pozhu77", 3);
        let phalanx = unit(&mut s, 1, "fangzhen", 3);
        s.phase = Phase::Combat;
        let (s, _) = act(&s, Action::Attack { unit: rider });
        let (s, _) = both_pass(&s);
        assert_eq!(
            s.pending,
            Some(Pending::Breakthrough {
                seat: 0,
                attacker: rider,
                defender: phalanx,
                min: 4,
                max: 7
            }),
            "at least 4 to the phalanx"
        );
        let v = refused(&s, Action::AssignBreakthrough { to_unit: 3 });
        assert!(rule_of(&v).contains("破竹"));
        let life = s.players[1].life;
        let (s, _) = act(&s, Action::AssignBreakthrough { to_unit });
        assert_eq!(s.players[1].life, life - player_damage as i32);
        assert_eq!(
            s.find_unit(phalanx).is_none(),
            dies,
            "assigning {to_unit}: 2 of it prevented"
        );
        assert_eq!(
            s.unit(rider).map(|u| u.damage),
            Some(3),
            "the phalanx strikes back for 3"
        );
    }
}

#[test]
fn first_player_skips_the_first_draw_by_profile_option() {
    let cat = demo();
    let deck = vec![cat.find("neu-16").unwrap(); 20];
    for (skip, drawn) in [(true, 7), (false, 8)] {
        let profile = Profile {
            first_player_skips_draw: skip,
            ..Profile::default()
        };
        let setup = Setup {
            names: ["A".into(), "B".into()],
            decks: [deck.clone(), deck.clone()],
            seed: 3,
            first: Some(1),
            shuffle: true,
        };
        let s = from_setup(cat.clone(), profile, &setup).unwrap();
        assert_eq!(
            s.actor(),
            Some(1),
            "the first player decides on the mulligan first"
        );
        let s = act(&act(&s, Action::Keep).0, Action::Keep).0;
        assert_eq!((s.turn, s.active, s.phase), (1, 1, Phase::Draw));
        assert_eq!(s.players[1].hand.len(), drawn);
    }
}

#[test]
fn mulligan_redraws_as_many_then_one_fewer_each_time() {
    let cat = demo();
    let deck = vec![cat.find("neu-16").unwrap(); 30];
    let setup = Setup {
        names: ["A".into(), "B".into()],
        decks: [deck.clone(), deck],
        seed: 9,
        first: Some(0),
        shuffle: true,
    };
    let s = from_setup(cat, Profile::default(), &setup).unwrap();
    let mut h = s.players[0].hand.clone();
    h.sort();
    let (s, _) = act(
        &s,
        Action::Mulligan {
            cards: h[..3].to_vec(),
        },
    );
    assert_eq!(s.players[0].hand.len(), 7);
    assert!(s.players[0].library.ends_with(&h[..3]), "put on the bottom");
    let mut h = s.players[0].hand.clone();
    h.sort();
    let (s, _) = act(
        &s,
        Action::Mulligan {
            cards: h[..3].to_vec(),
        },
    );
    assert_eq!(s.players[0].hand.len(), 6, "second time: one fewer");
    let unsorted = vec![h[4], h[3]];
    assert!(rule_of(&refused(&s, Action::Mulligan { cards: unsorted })).contains("调度"));
    assert!(rule_of(&refused(&s, Action::Pass)).contains("调度"));
}

#[test]
fn territory_one_per_turn_face_up_territories_or_any_card_face_down() {
    let mut s = table(&[], &[]);
    let land = hand(&mut s, 0, "neu-16");
    let v = refused(
        &s,
        Action::PlayTerritory {
            card: land,
            face_up: true,
        },
    );
    assert!(
        rule_of(&v).contains("领土"),
        "a unit cannot go face up: {v}"
    );
    let (s2, _) = act(
        &s,
        Action::PlayTerritory {
            card: land,
            face_up: false,
        },
    );
    assert_eq!(s2.players[0].territories.len(), 1);
    assert_eq!(
        s2.support(0, crate::Faction::Wei),
        0,
        "暗置 gives no support"
    );
    let other = s2.players[0].hand[0];
    let v = refused(
        &s2,
        Action::PlayTerritory {
            card: other,
            face_up: false,
        },
    );
    assert!(v.reason.en.contains("one territory per turn"), "{v}");
}

#[test]
fn support_must_reach_the_requirement_and_cost_taps_territories() {
    let mut s = table(&[], &[]);
    lands(&mut s, 0, "shu-land", 4);
    let heavy = hand(&mut s, 0, "wei-04");
    let v = refused(&s, play(heavy, Some(0), None));
    assert!(rule_of(&v).contains("势力支持"), "{v}");
    let mut s2 = s.clone();
    lands(&mut s2, 0, "wei-land", 2);
    let (s3, _) = act(&s2, play(heavy, Some(0), None));
    assert_eq!(
        s3.untapped_territories(0),
        2,
        "cost 4 tapped four territories"
    );
    let mut poor = table(&[], &[]);
    lands(&mut poor, 0, "wei-land", 2);
    let heavy = hand(&mut poor, 0, "wei-04");
    let v = refused(&poor, play(heavy, Some(0), None));
    assert!(rule_of(&v).contains("费用"), "{v}");
}

#[test]
fn zhengbei_a_new_unit_cannot_attack_until_your_next_reset() {
    let mut s = table(&[], &[]);
    lands(&mut s, 0, "wei-land", 2);
    let u = hand(&mut s, 0, "wei-01");
    let (s, _) = act(&s, play(u, Some(0), None));
    let (s, _) = both_pass(&s);
    assert!(s.unit(u).is_some_and(|u| u.fresh));
    let (s, _) = both_pass(&s);
    assert_eq!(s.phase, Phase::Combat);
    let v = refused(&s, Action::Attack { unit: u });
    assert!(rule_of(&v).contains("整备"), "{v}");
}

#[test]
fn combat_an_empty_opposite_zhendi_lets_the_damage_through_to_the_player() {
    let mut s = table(&[], &[]);
    let u = unit(&mut s, 0, "wei-17", 4);
    s.phase = Phase::Combat;
    let (s, _) = act(&s, Action::Attack { unit: u });
    assert!(s.unit(u).unwrap().tapped);
    let (s, ev) = both_pass(&s);
    assert_eq!(s.players[1].life, 27);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::PlayerDamaged { seat: 1, amount: 3 })));
    let v = refused(&s, Action::Attack { unit: u });
    assert!(rule_of(&v).contains("横置"), "{v}");
}

#[test]
fn combat_units_in_opposite_zhendi_deal_their_attack_to_each_other() {
    let mut s = table(&[], &[]);
    let a = unit(&mut s, 0, "wei-17", 1);
    let b = unit(&mut s, 1, "wei-02", 1);
    s.phase = Phase::Combat;
    let (s, _) = act(&s, Action::Attack { unit: a });
    let (s, _) = both_pass(&s);
    assert!(s.find_unit(a).is_none(), "3 back kills the 3/2");
    assert_eq!(s.unit(b).map(|u| u.damage), Some(1), "3 against 坚韧 2");
    assert_eq!(s.players[1].life, 30);
}

#[test]
fn hand_limit_discard_at_the_end_of_your_turn() {
    let mut s = table(&[], &[]);
    for _ in 0..3 {
        hand(&mut s, 0, "neu-16");
    }
    assert_eq!(s.players[0].hand.len(), 10);
    let (s, _) = both_pass(&s);
    let (s, _) = both_pass(&s);
    let (s, _) = both_pass(&s);
    assert_eq!(s.pending, Some(Pending::Discard { seat: 0 }));
    let mut s = s;
    for _ in 0..3 {
        let c = s.players[0].hand[0];
        s = act(&s, Action::Discard { card: c }).0;
    }
    assert_eq!(s.players[0].hand.len(), 7);
    assert_eq!(
        (s.active, s.turn),
        (1, 2),
        "the turn passed after discarding"
    );
}

#[test]
fn losing_drawing_from_an_empty_library() {
    let mut s = table(&[], &[]);
    s.players[1].library.clear();
    let (s, _) = both_pass(&s);
    let (s, _) = both_pass(&s);
    let (s, ev) = both_pass(&s);
    assert_eq!(s.outcome, Some(crate::Outcome::Winner(0)));
    assert!(ev.iter().any(|e| matches!(e, Event::GameOver { .. })));
    assert!(crate::Duel::legal_actions(&s).is_empty());
}

#[test]
fn losing_at_zero_life() {
    let mut s = table(&[], &[]);
    s.players[1].life = 3;
    let u = unit(&mut s, 0, "wei-17", 0);
    s.phase = Phase::Combat;
    let (s, _) = act(&s, Action::Attack { unit: u });
    let (s, _) = both_pass(&s);
    assert_eq!(s.outcome, Some(crate::Outcome::Winner(0)));
    assert!(crate::Duel::prompt(&s).text.en.contains("A wins"));
}

#[test]
fn triggers_go_on_the_stack_and_can_be_answered() {
    let mut s = table(&[], &[]);
    lands(&mut s, 0, "wei-land", 2);
    lands(&mut s, 1, "wei-land", 3);
    let overseer = hand(&mut s, 0, "wei-16");
    let (s, _) = act(&s, play(overseer, Some(0), None));
    let (s, _) = both_pass(&s);
    assert!(matches!(
        s.stack.last().map(|i| &i.kind),
        Some(StackKind::OnEnter { .. })
    ));
    assert_eq!(s.players[1].life, 30);
    let (s, ev) = both_pass(&s);
    assert_eq!(s.players[1].life, 29);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::LifeLost { seat: 1, amount: 1 })));
}

#[test]
fn player_view_hides_the_opponents_hand_and_face_down_territories() {
    let mut s = table(&[], &[]);
    let c = hand(&mut s, 1, "wei-01");
    s.players[1].hand.retain(|x| *x != c);
    s.players[1].territories.push(Territory {
        card: c,
        face_up: false,
        tapped: false,
    });
    let v = crate::player_view(&s, 0);
    assert!(v.sides[0].hand.is_some());
    assert!(v.sides[1].hand.is_none());
    assert_eq!(v.sides[1].territories[0].0, "暗置");
    let v1 = crate::player_view(&s, 1);
    assert_eq!(v1.sides[1].territories[0].0, "虎卫新兵");
}
