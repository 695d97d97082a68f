//! One test (or more) per glossary keyword, named 词条_<keyword>.

use super::*;
use crate::state::{Pending, StackKind};
use crate::Target;

fn combat(s: &mut State) {
    s.phase = Phase::Combat;
    s.priority = s.active;
}

#[test]
fn keyword_resist_prevents_damage_and_targeting_by_that_category() {
    let mut s = table(&[], &[]);
    let brute = unit(&mut s, 0, "qun-01", 2);
    let chief = unit(&mut s, 1, "qun-09", 2);
    combat(&mut s);
    let (s, _) = act(&s, Action::Attack { unit: brute });
    let (s, ev) = both_pass(&s);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Prevented { card, amount: 2 } if *card == chief)),
        "抵抗 黄巾 单位"
    );
    assert_eq!(s.unit(chief).unwrap().damage, 0);
    // 抵抗 锦囊: a trick may not target it.
    let mut s = table(&[], &[]);
    lands(&mut s, 0, "wei-land", 3);
    let brawler = unit(&mut s, 1, "qun-17", 0);
    let volley = hand(&mut s, 0, "wei-11");
    let v = refused(&s, play(volley, None, Some(Target::Unit(brawler))));
    assert!(rule_of(&v).contains("抵抗"), "{v}");
}

#[test]
fn keyword_insight_blocks_the_opponents_targets_not_your_own() {
    let mut s = table(&[], &[]);
    lands(&mut s, 0, "wei-land", 3);
    lands(&mut s, 0, "shu-land", 1);
    let guard = unit(&mut s, 1, "shu-15", 0);
    let volley = hand(&mut s, 0, "wei-11");
    let v = refused(&s, play(volley, None, Some(Target::Unit(guard))));
    assert!(rule_of(&v).contains("洞察"), "{v}");
    let own = unit(&mut s, 0, "shu-15", 4);
    let arms = hand(&mut s, 0, "shu-08");
    act(&s, play(arms, None, Some(Target::Unit(own))));
}

#[test]
fn keyword_turmoil_raises_the_opponents_territory_ability_cost_and_stacks() {
    let mut s = table(&[], &[]);
    lands(&mut s, 0, "wei-land", 3);
    let land = s.players[0].territories[0].card;
    let act_land = Action::ActivateTerritory {
        territory: land,
        pay: None,
    };
    act(&s, act_land.clone());
    unit(&mut s, 1, "qun-08", 0);
    let v = refused(&s, act_land.clone());
    assert!(rule_of(&v).contains("动荡"), "{v}");
    lands(&mut s, 0, "wei-land", 1);
    let (s2, _) = act(&s, act_land.clone());
    assert_eq!(
        s2.untapped_territories(0),
        0,
        "tapped itself plus 2 + 1 for 动荡"
    );
    unit(&mut s, 1, "qun-08", 1);
    assert!(
        rule_of(&refused(&s, act_land)).contains("动荡"),
        "two 动荡 add up"
    );
}

#[test]
fn keyword_ambush_plays_a_unit_at_instant_timing() {
    let mut s = table(&[], &[]);
    lands(&mut s, 1, "wu-land", 3);
    let ambusher = hand(&mut s, 1, "wu-03");
    let plain = hand(&mut s, 1, "wu-02");
    let (s, _) = act(&s, Action::Pass);
    assert_eq!(s.priority, 1);
    let v = refused(&s, play(plain, Some(0), None));
    assert!(rule_of(&v).contains("使用时机"), "{v}");
    let (s, _) = act(&s, play(ambusher, Some(0), None));
    let (s, _) = both_pass(&s);
    assert!(s.players[1].slots[0]
        .as_ref()
        .is_some_and(|u| u.card == ambusher));
}

#[test]
fn keyword_stargaze_arranges_the_top_cards() {
    let mut s = table(&[], &[]);
    lands(&mut s, 0, "shu-land", 1);
    let night = hand(&mut s, 0, "shu-10");
    let c = on_top(&mut s, 0, "wei-01");
    let b = on_top(&mut s, 0, "wei-02");
    let a = on_top(&mut s, 0, "wei-03");
    let drawn = on_top(&mut s, 0, "wei-05");
    let (s, _) = act(&s, play(night, None, None));
    let (s, _) = both_pass(&s);
    assert!(
        s.players[0].hand.contains(&drawn),
        "draws first, then 观星 3"
    );
    assert_eq!(
        s.pending,
        Some(Pending::Stargaze {
            seat: 0,
            cards: vec![a, b, c]
        })
    );
    assert_eq!(
        crate::Duel::legal_actions(&s).len(),
        24,
        "3! orders × 4 splits"
    );
    let v = refused(
        &s,
        Action::Arrange {
            top: vec![a],
            bottom: vec![],
        },
    );
    assert!(rule_of(&v).contains("观星"));
    let (s, _) = act(
        &s,
        Action::Arrange {
            top: vec![c, a],
            bottom: vec![b],
        },
    );
    let lib = &s.players[0].library;
    assert_eq!(&lib[..2], &[c, a]);
    assert_eq!(lib.last(), Some(&b));
}

#[test]
fn keyword_tough_prevents_x_of_each_damage_separately() {
    let mut s = table(&[], &[]);
    lands(&mut s, 1, "wei-land", 4);
    lands(&mut s, 1, "wei-14", 2);
    let wall = unit(&mut s, 0, "wei-02", 0);
    let v1 = hand(&mut s, 1, "wei-11");
    let v2 = hand(&mut s, 1, "wei-11");
    let (s, _) = act(&s, Action::Pass);
    let (s, _) = act(&s, play(v1, None, Some(Target::Unit(wall))));
    let (s, _) = act(&s, play(v2, None, Some(Target::Unit(wall))));
    let (s, _) = both_pass(&s);
    let (s, _) = both_pass(&s);
    assert_eq!(s.unit(wall).unwrap().damage, 2, "3 - 2 twice");
}

#[test]
fn keyword_combo_untaps_after_the_first_combat_damage_each_turn() {
    let mut s = table(&[], &[]);
    let ranger = unit(&mut s, 0, "shu-05", 2);
    combat(&mut s);
    let (s, _) = act(&s, Action::Attack { unit: ranger });
    let (s, _) = both_pass(&s);
    assert!(matches!(
        s.stack.last().map(|i| &i.kind),
        Some(StackKind::Combo { .. })
    ));
    let (s, _) = both_pass(&s);
    assert!(!s.unit(ranger).unwrap().tapped, "连击 untapped it");
    let (s, _) = act(&s, Action::Attack { unit: ranger });
    let (s, _) = both_pass(&s);
    assert_eq!(s.players[1].life, 24);
    assert!(s.stack.is_empty(), "连击 fires once a turn");
    assert!(s.unit(ranger).unwrap().tapped);
}

#[test]
fn keyword_adversity_boosts_while_you_have_fewer_territories() {
    let mut s = table(&[], &[]);
    let warrior = unit(&mut s, 0, "shu-03", 0);
    assert_eq!(s.attack_of(warrior), 2);
    lands(&mut s, 1, "wei-land", 1);
    assert_eq!(s.attack_of(warrior), 4);
    lands(&mut s, 0, "shu-land", 1);
    assert_eq!(s.attack_of(warrior), 2, "equal is not fewer");
}

#[test]
fn keyword_adversity_bonus_on_a_trick_checks_on_resolution() {
    let mut s = table(&[], &[]);
    lands(&mut s, 0, "shu-land", 2);
    lands(&mut s, 1, "wei-land", 3);
    let u = unit(&mut s, 0, "shu-15", 0);
    s.players[0].slots[0].as_mut().unwrap().damage = 3;
    let river = hand(&mut s, 0, "shu-13");
    let (s, _) = act(&s, play(river, None, Some(Target::Unit(u))));
    let (s, _) = both_pass(&s);
    assert_eq!(s.unit(u).unwrap().damage, 0, "逆境: healed 3");
    assert_eq!(s.attack_of(u), 4);
}

#[test]
fn keyword_judge_acts_on_the_judged_cards_cost_and_puts_it_at_the_bottom() {
    for (top, passes) in [("wei-04", true), ("wei-land", false)] {
        let mut s = table(&[], &[]);
        lands(&mut s, 0, "wu-land", 1);
        let div = hand(&mut s, 0, "wu-10");
        let judged = on_top(&mut s, 0, top);
        let before = s.players[0].hand.len();
        let (s, _) = act(&s, play(div, None, None));
        let (s, ev) = both_pass(&s);
        assert!(ev
            .iter()
            .any(|e| matches!(e, Event::Judged { passed, .. } if *passed == passes)));
        assert_eq!(
            s.players[0].library.last(),
            Some(&judged),
            "the judged card went to the bottom"
        );
        assert_eq!(
            s.players[0].hand.len(),
            before - 1 + if passes { 2 } else { 0 }
        );
    }
}

#[test]
fn keyword_equip_attaches_once_until_its_user_leaves() {
    let mut s = table(&[], &[]);
    lands(&mut s, 0, "wei-land", 4);
    let a = unit(&mut s, 0, "wei-01", 0);
    let b = unit(&mut s, 0, "wei-17", 1);
    let sword = take(&mut s, 0, "neu-07");
    s.players[0].entities.push(crate::state::Entity {
        card: sword,
        attached: None,
    });
    let (s, _) = act(
        &s,
        Action::Equip {
            equipment: sword,
            unit: a,
            pay: None,
        },
    );
    let (mut s, _) = both_pass(&s);
    assert_eq!(s.attack_of(a), 4);
    assert!(rule_of(&refused(
        &s,
        Action::Equip {
            equipment: sword,
            unit: b,
            pay: None,
        }
    ))
    .contains("佩带"));
    s.players[0].slots[0].as_mut().unwrap().damage = 9;
    // The next action's checks kill the damaged user; the sword stays, free again.
    let (mut s, _) = act(&s, Action::Pass);
    assert!(s.find_unit(a).is_none());
    assert_eq!(s.players[0].entities[0].attached, None);
    s.priority = 0;
    s.passes = 0;
    let (s, _) = act(
        &s,
        Action::Equip {
            equipment: sword,
            unit: b,
            pay: None,
        },
    );
    let (s, _) = both_pass(&s);
    assert_eq!(s.attack_of(b), 5);
}

#[test]
fn keyword_breakthrough_with_deadly_needs_only_one_and_empty_means_all_to_the_player() {
    let mut s = table(&[], &[]);
    let heavy = unit(&mut s, 0, "wei-04", 1);
    combat(&mut s);
    let (s, _) = act(&s, Action::Attack { unit: heavy });
    let (s, _) = both_pass(&s);
    assert_eq!(
        s.players[1].life, 26,
        "no unit opposite: all 4 to the player"
    );
    let mut s = table(&[], &[]);
    let heavy = unit(&mut s, 0, "wei-04", 1);
    unit(&mut s, 1, "neu-04", 1);
    s.players[1].slots[1].as_mut().unwrap().damage = 2;
    combat(&mut s);
    let (s, _) = act(&s, Action::Attack { unit: heavy });
    let (s, _) = both_pass(&s);
    assert!(
        matches!(
            s.pending,
            Some(Pending::Breakthrough { min: 3, max: 4, .. })
        ),
        "lethal counts damage already marked"
    );
}

#[test]
fn keyword_contest_higher_printed_cost_wins_and_ties_win_nothing() {
    for (mine, theirs, wins) in [
        ("wei-04", "neu-16", true),
        ("neu-16", "neu-16", false),
        ("wei-land", "wei-01", false),
    ] {
        let mut s = table(&[], &[]);
        lands(&mut s, 0, "qun-land", 1);
        let wager = hand(&mut s, 0, "qun-10");
        let m = on_top(&mut s, 0, mine);
        let t = on_top(&mut s, 1, theirs);
        let before = s.players[0].hand.len();
        let (s, _) = act(&s, play(wager, None, None));
        let (s, ev) = both_pass(&s);
        assert!(
            ev.iter()
                .any(|e| matches!(e, Event::Contested { won, .. } if *won == wins)),
            "{mine} vs {theirs}"
        );
        assert_eq!(
            s.players[0].hand.len(),
            before - 1 + if wins { 2 } else { 0 }
        );
        assert_eq!(s.players[0].library.last(), Some(&m));
        assert_eq!(s.players[1].library.last(), Some(&t));
    }
}

#[test]
fn keyword_cancel_answers_cards_not_abilities() {
    // Cancelling a card: stack_turns::cancel_*. Here: an ability on the stack is not a card being played.
    let mut s = table(&[], &[]);
    lands(&mut s, 1, "neu-15", 3);
    let archer = unit(&mut s, 0, "wu-02", 2);
    let victim = unit(&mut s, 1, "wei-17", 3);
    let stay = hand(&mut s, 1, "neu-11");
    let (s, _) = act(
        &s,
        Action::Shoot {
            unit: archer,
            target: victim,
        },
    );
    let (s, _) = act(&s, Action::Pass);
    let v = refused(&s, play(stay, None, Some(Target::StackCard(archer))));
    assert!(rule_of(&v).contains("取消"), "{v}");
    let cat = Catalogue::demo();
    let cancels: Vec<_> = cat
        .cards
        .iter()
        .filter(|c| c.has(|k| matches!(k, crate::Keyword::Cancel)))
        .collect();
    assert!(cancels.len() >= 2);
    assert!(cancels
        .iter()
        .all(|c| c.target == crate::catalogue::TargetSpec::StackCard));
}

#[test]
fn keyword_shoot_hits_a_diagonal_unit_only_and_taps() {
    let mut s = table(&[], &[]);
    let archer = unit(&mut s, 0, "wu-02", 2);
    let straight = unit(&mut s, 1, "wei-01", 2);
    let diag = unit(&mut s, 1, "wei-17", 3);
    let v = refused(
        &s,
        Action::Shoot {
            unit: archer,
            target: straight,
        },
    );
    assert!(rule_of(&v).contains("射击"), "{v}");
    let (s, _) = act(
        &s,
        Action::Shoot {
            unit: archer,
            target: diag,
        },
    );
    assert!(s.unit(archer).unwrap().tapped);
    let (s, _) = both_pass(&s);
    assert!(s.find_unit(diag).is_none(), "2 damage kills the 3/2");
    let mut fresh = table(&[], &[]);
    let a = unit(&mut fresh, 0, "wu-02", 2);
    let t = unit(&mut fresh, 1, "wei-01", 1);
    fresh.players[0].slots[2].as_mut().unwrap().fresh = true;
    assert!(rule_of(&refused(&fresh, Action::Shoot { unit: a, target: t })).contains("整备"));
}

#[test]
fn keyword_haste_attacks_the_turn_it_enters() {
    let mut s = table(&[], &[]);
    lands(&mut s, 0, "wei-land", 2);
    let scout = hand(&mut s, 0, "wei-03");
    let (s, _) = act(&s, play(scout, Some(4), None));
    let (s, _) = both_pass(&s);
    assert!(s.unit(scout).unwrap().fresh);
    let (s, _) = both_pass(&s);
    let (s, _) = act(&s, Action::Attack { unit: scout });
    let (s, _) = both_pass(&s);
    assert_eq!(s.players[1].life, 28);
}

#[test]
fn keyword_prosperity_needs_three_neutral_non_territory_entities() {
    let mut s = table(&[], &[]);
    let musician = unit(&mut s, 0, "neu-01", 0);
    unit(&mut s, 0, "neu-16", 1);
    lands(&mut s, 0, "neu-15", 3);
    assert_eq!(
        (s.attack_of(musician), s.health_of(musician)),
        (1, 2),
        "territories do not count"
    );
    unit(&mut s, 1, "neu-16", 4);
    assert_eq!(
        (s.attack_of(musician), s.health_of(musician)),
        (2, 3),
        "either side's entities count"
    );
}

#[test]
fn keyword_assault_on_moving_untapped_and_not_when_tapped() {
    for tapped in [false, true] {
        let mut s = table(&[], &[]);
        let captain = unit(&mut s, 0, "wei-06", 1);
        let victim = unit(&mut s, 1, "neu-16", 2);
        s.players[0].slots[1].as_mut().unwrap().tapped = tapped;
        let (s, _) = act(
            &s,
            Action::Shift {
                unit: captain,
                to: 2,
            },
        );
        assert_eq!(
            !s.stack.is_empty(),
            !tapped,
            "突击 triggers only for an untapped unit"
        );
        let (s, _) = both_pass(&s);
        assert_eq!(
            s.find_unit(victim).is_none(),
            !tapped,
            "突击 1 kills the 1/1 opposite"
        );
    }
    let mut s = table(&[], &[]);
    let sword = unit(&mut s, 0, "neu-06", 1);
    let golem = unit(&mut s, 1, "neu-04", 2);
    let (s, _) = act(&s, Action::Shift { unit: sword, to: 2 });
    assert!(matches!(
        s.stack.last().map(|i| &i.kind),
        Some(StackKind::Assault { amount: 2, .. })
    ));
    let (s, _) = both_pass(&s);
    assert_eq!(s.unit(golem).unwrap().damage, 1, "突击 2 against 坚韧 1");
}

#[test]
fn keyword_assault_checks_untapped_when_it_resolves() {
    let mut s = table(&[], &[]);
    lands(&mut s, 0, "wei-land", 1);
    let sword = unit(&mut s, 0, "neu-06", 1);
    let victim = unit(&mut s, 1, "neu-16", 2);
    let (mut s, _) = act(&s, Action::Shift { unit: sword, to: 2 });
    // Tapped in response (stand-in for any tapping effect) before 突击 resolves.
    s.players[0].slots[2].as_mut().unwrap().tapped = true;
    let (s, _) = both_pass(&s);
    assert!(s.find_unit(victim).is_some());
}

#[test]
fn keyword_diplomacy_boost_and_trick_bonus() {
    let mut s = table(&[], &[]);
    let envoy = unit(&mut s, 0, "wu-07", 0);
    assert_eq!(s.attack_of(envoy), 2);
    unit(&mut s, 0, "shu-01", 3);
    assert_eq!((s.attack_of(envoy), s.health_of(envoy)), (3, 3));
    unit(&mut s, 1, "shu-01", 4);
    let mut t = table(&[], &[]);
    lands(&mut t, 0, "shu-land", 2);
    let letter = hand(&mut t, 0, "shu-12");
    let (t1, _) = act(&t, play(letter, None, None));
    let (t1, _) = both_pass(&t1);
    assert_eq!(t1.players[0].life, 30, "no 吴 entity: no bonus");
    unit(&mut t, 0, "wu-08", 0);
    let (t2, _) = act(&t, play(letter, None, None));
    let (t2, _) = both_pass(&t2);
    assert_eq!(t2.players[0].life, 33, "外交{{吴}}: gain 3");
}

#[test]
fn keyword_intercept_hits_a_unit_entering_the_opposite_zhendi() {
    let mut s = table(&[], &[]);
    lands(&mut s, 0, "wei-land", 2);
    let sentry = unit(&mut s, 1, "wu-04", 3);
    let recruit = hand(&mut s, 0, "wei-01");
    let (s, _) = act(&s, play(recruit, Some(3), None));
    let (s, _) = both_pass(&s);
    assert!(
        matches!(s.stack.last().map(|i| &i.kind), Some(StackKind::Intercept { source, amount: 2, .. }) if *source == sentry)
    );
    let (s, _) = both_pass(&s);
    assert!(s.find_unit(recruit).is_none(), "迎击 2 kills the 2/2");
}

#[test]
fn keyword_expedition_alternative_cost_then_exiled_after_its_enter_effect() {
    let mut s = table(&[], &[]);
    lands(&mut s, 0, "qun-land", 1);
    let merc = hand(&mut s, 0, "qun-07");
    let victim = unit(&mut s, 1, "wei-01", 0);
    let normal = refused(&s, play(merc, Some(0), None));
    assert!(
        rule_of(&normal).contains("势力支持") || rule_of(&normal).contains("费用"),
        "{normal}"
    );
    let (s, _) = act(
        &s,
        Action::PlayCard {
            card: merc,
            slot: Some(0),
            target: None,
            expedition: true,
            pay: None,
        },
    );
    assert_eq!(s.untapped_territories(0), 0);
    let (mut s, _) = both_pass(&s);
    assert_eq!(s.stack.len(), 2, "on-enter and exile triggers");
    while !s.stack.is_empty() {
        s = both_pass(&s).0;
    }
    assert!(s.exile.contains(&merc));
    assert!(s.find_unit(victim).is_none(), "its 2 damage still happened");
}

#[test]
fn keyword_spoils_gains_the_damage_dealt_to_players() {
    let mut s = table(&[], &[]);
    let captain = unit(&mut s, 0, "shu-07", 0);
    s.players[0].life = 20;
    combat(&mut s);
    let (s, _) = act(&s, Action::Attack { unit: captain });
    let (s, ev) = both_pass(&s);
    assert_eq!((s.players[0].life, s.players[1].life), (23, 27));
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::LifeGained { seat: 0, amount: 3 })));
}

#[test]
fn keyword_deadly_any_damage_destroys() {
    let mut s = table(&[], &[]);
    let dart = unit(&mut s, 0, "wu-05", 1);
    let golem = unit(&mut s, 1, "neu-04", 2);
    let (s, _) = act(
        &s,
        Action::Shoot {
            unit: dart,
            target: golem,
        },
    );
    let (s, _) = both_pass(&s);
    assert!(
        s.find_unit(golem).is_some(),
        "坚韧 1 prevented all of 射击 1: no damage dealt, so 致命 does nothing"
    );
    let mut s = table(&[], &[]);
    let dart = unit(&mut s, 0, "wu-05", 1);
    let colonel = unit(&mut s, 1, "wei-13", 0);
    let (s, _) = act(
        &s,
        Action::Shoot {
            unit: dart,
            target: colonel,
        },
    );
    let (s, _) = both_pass(&s);
    assert!(s.find_unit(colonel).is_none(), "1 damage destroys a 3/3");
}

#[test]
fn keyword_shift_once_a_turn_to_an_adjacent_empty_zhendi() {
    let mut s = table(&[], &[]);
    let skiff = unit(&mut s, 0, "wu-08", 2);
    unit(&mut s, 0, "wei-01", 3);
    assert!(rule_of(&refused(&s, Action::Shift { unit: skiff, to: 3 })).contains("转移"));
    assert!(rule_of(&refused(&s, Action::Shift { unit: skiff, to: 0 })).contains("转移"));
    let (s, _) = act(&s, Action::Shift { unit: skiff, to: 1 });
    assert_eq!(s.find_unit(skiff), Some((0, 1)));
    assert!(refused(&s, Action::Shift { unit: skiff, to: 0 })
        .reason
        .en
        .contains("once a turn"));
}

#[test]
fn keyword_swarm_plays_next_to_a_shared_subtype_as_if_ambush() {
    let mut s = table(&[], &[]);
    lands(&mut s, 1, "qun-land", 2);
    unit(&mut s, 1, "qun-01", 2);
    let zealot = hand(&mut s, 1, "qun-02");
    let (s, _) = act(&s, Action::Pass);
    let far = refused(&s, play(zealot, Some(0), None));
    assert!(rule_of(&far).contains("使用时机"), "not adjacent: {far}");
    let (s, _) = act(&s, play(zealot, Some(3), None));
    let (s, _) = both_pass(&s);
    assert!(s.find_unit(zealot).is_some());
}

#[test]
fn keyword_stargaze_cards_are_shown_only_to_the_player_looking() {
    let mut s = table(&[], &[]);
    lands(&mut s, 0, "shu-land", 1);
    let night = hand(&mut s, 0, "shu-10");
    on_top(&mut s, 0, "wei-04");
    let (s, _) = act(&s, play(night, None, None));
    let (s, _) = both_pass(&s);
    let mine = crate::player_view(&s, 0).choice.unwrap();
    let theirs = crate::player_view(&s, 1).choice.unwrap();
    assert!(
        mine.contains("破阵重骑") || mine.contains("观星:"),
        "{mine}"
    );
    assert!(
        !theirs.contains("破阵重骑") && theirs.contains("观星 3 张"),
        "{theirs}"
    );
}

#[test]
fn profile_turn_prevention_pool_is_spent_each_damage_is_not() {
    use crate::profile::TurnPrevention;
    for (mode, damage) in [(TurnPrevention::Pool, 2u8), (TurnPrevention::EachDamage, 0)] {
        let mut s = table(&[], &[]);
        s.profile.turn_prevention = mode;
        lands(&mut s, 0, "shu-land", 1);
        lands(&mut s, 1, "wei-land", 4);
        lands(&mut s, 1, "wei-14", 2);
        let golem = unit(&mut s, 0, "neu-04", 1);
        s.players[0].slots[1].as_mut().unwrap().turn_prevent = 2;
        let v1 = hand(&mut s, 1, "wei-11");
        let v2 = hand(&mut s, 1, "wei-11");
        let (s, _) = act(&s, Action::Pass);
        let (s, _) = act(&s, play(v1, None, Some(Target::Unit(golem))));
        let (s, _) = act(&s, play(v2, None, Some(Target::Unit(golem))));
        let (s, _) = both_pass(&s);
        let (s, _) = both_pass(&s);
        // 3 and 3 against a shield of 2 and 坚韧 1: pool → 0 then 2; each_damage → 0 and 0.
        assert_eq!(s.unit(golem).unwrap().damage, damage, "{mode:?}");
    }
}

#[test]
fn keyword_swarm_card_itself_may_go_next_to_a_shared_subtype() {
    let mut s = table(&[], &[]);
    lands(&mut s, 1, "wu-land", 3);
    unit(&mut s, 1, "wu-02", 1);
    let drillmaster = hand(&mut s, 1, "wu-14");
    let plain = hand(&mut s, 1, "wu-02");
    let (s, _) = act(&s, Action::Pass);
    let v = refused(&s, play(plain, Some(2), None));
    assert!(rule_of(&v).contains("使用时机"), "neither has 族群: {v}");
    let (s, _) = act(&s, play(drillmaster, Some(2), None));
    let (s, _) = both_pass(&s);
    assert_eq!(s.find_unit(drillmaster), Some((1, 2)));
}

/// Cards carrying a keyword twice, to check that each instance works apart (glossary: 坚韧, 迎击).
const TWICE: &str = r#"
[[card]]
id = "tough-twice"
name = "双坚韧测试兵"
en = "Twice-Tough Test Unit"
faction = "qun"
kind = "unit"
cost = 1
attack = 1
health = 9
keywords = ["坚韧 1", "坚韧 2"]

[[card]]
id = "intercept-twice"
name = "双迎击测试兵"
en = "Twice-Intercept Test Unit"
faction = "qun"
kind = "unit"
cost = 1
attack = 1
health = 9
keywords = ["迎击 1", "迎击 2"]
"#;

fn twice_catalogue() -> std::sync::Arc<Catalogue> {
    let text = format!("{}{TWICE}", super::SEED_EXAMPLES);
    std::sync::Arc::new(Catalogue::parse("twice", &text).expect("fixture"))
}

#[test]
fn keyword_tough_several_instances_each_prevent() {
    let mut s = table_with(twice_catalogue(), &[], &[], "x-land");
    let rider = unit(&mut s, 0, "pozhu77", 0);
    let tough = unit(&mut s, 1, "tough-twice", 0);
    s.phase = Phase::Combat;
    let (s, _) = act(&s, Action::Attack { unit: rider });
    let (s, _) = both_pass(&s);
    // 7 武力 against 9 remaining health: no 破竹 choice; 7 - 1 - 2 = 4 marked.
    assert_eq!(s.unit(tough).unwrap().damage, 4);
}

#[test]
fn keyword_intercept_several_instances_trigger_separately() {
    let mut s = table_with(twice_catalogue(), &[], &[], "x-land");
    unit(&mut s, 1, "intercept-twice", 2);
    let dz = hand(&mut s, 0, "pozhu77");
    lands(&mut s, 0, "x-land", 6);
    let (s, _) = act(&s, play(dz, Some(2), None));
    let (mut s, _) = both_pass(&s);
    assert_eq!(s.stack.len(), 2, "two 迎击 triggers");
    while !s.stack.is_empty() {
        s = both_pass(&s).0;
    }
    assert_eq!(s.unit(dz).unwrap().damage, 3);
}
