//! 攻防阶段的规则 1–7, 攻击力/防御力, facilities in combat and skill cards.

use crate::table::Table;
use blitz::catalogue::Faction;
use blitz::profile::CombineAttacks;
use blitz::steps::Step;
use blitz::{Event, Profile};

const US: &[&str] = &[
    "us-u02", "us-u04", "us-u07", "us-r01", "us-r02", "us-u01", "us-s01", "us-s02",
];
const SS: &[&str] = &[
    "ss-u02", "ss-u01", "ss-r01", "ss-f03", "ss-u03", "ss-u05", "ss-s01", "ss-s02",
];

/// Round 2's attack step, SS to act. US: tank B3, artillery B2, depot A3, guards D4. SS: tank on its
/// bunker at B5 (defence 4 + 2), rifles D5, depot C6.
fn fixture_with(profile: Profile) -> Table {
    let mut t = Table::with(&[Faction::Us, Faction::Ss], &[US, SS], profile);
    t.pass_to(Step::DeployMove);
    t.script(
        "deploy us-u02 B3
         deploy ss-u02 B6
         deploy us-r01 A3
         deploy ss-u01 D5
         deploy us-u04 B2
         deploy ss-r01 C6
         deploy us-u07 D3
         done
         done
         done
         place ss-f03 B5
         done",
    );
    t.next_round_deploy();
    t.script("move ss-u02 B5\nmove us-u07 D4\ndone\ndone");
    t.pass_to(Step::Attack);
    assert_eq!(t.faction_to_act(), Faction::Ss);
    t
}

/// The fixture's attack step passed by both, then round 3's skill step with `who` to act.
fn skill_step_of_round_three(who: Faction) -> Table {
    let mut t = fixture();
    t.ok("done");
    t.ok("done");
    t.pass_to(Step::Skill);
    assert_eq!(t.state.round, 3);
    if t.faction_to_act() != who {
        t.ok("done");
    }
    t
}

fn fixture() -> Table {
    fixture_with(Profile::default())
}

fn attacked(events: &[Event]) -> (u8, u8, bool) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Attacked {
                power,
                defence,
                destroyed,
                ..
            } => Some((*power, *defence, *destroyed)),
            _ => None,
        })
        .expect("an attack event")
}

#[test]
fn rule_1_joint_attack_sums_and_taps_the_attackers() {
    let mut t = fixture();
    t.ok("done");
    let events = t.ok("attack us-u02+us-u04 ss-u02");
    assert_eq!(
        attacked(&events),
        (9, 6, true),
        "5 + 4 against 4 + bunker 2"
    );
    let tank = t.state.placed(t.card("us-u02")).copied().unwrap();
    assert!(tank.tapped);
    assert_eq!(tank.cell.to_string(), "B3", "attacks are made in place");
}

#[test]
fn rule_1_attacks_only_in_the_attack_step() {
    let mut t = fixture();
    t.ok("done");
    t.refused("move us-u07 D5", "游戏阶段");
}

#[test]
fn profile_combine_attacks_highest_counts_the_strongest_only() {
    let mut t = fixture_with(Profile {
        combine_attacks: CombineAttacks::Highest,
        ..Profile::default()
    });
    t.ok("done");
    let events = t.ok("attack us-u02+us-u04 ss-u02");
    assert_eq!(attacked(&events), (5, 6, false));
}

#[test]
fn rule_2_a_unit_attacks_once_per_round() {
    let mut t = fixture();
    t.ok("done");
    t.ok("attack us-u02 ss-u02");
    t.refused("attack us-u02 ss-u02", "攻防阶段规则 2");
    t.ok("attack us-u04 ss-u02");
}

#[test]
fn rule_3_tapped_enemies_may_be_attacked_and_equal_attack_fails() {
    let mut t = fixture();
    let events = t.ok("attack ss-u01 us-u07");
    assert_eq!(
        attacked(&events),
        (3, 3, false),
        "攻击力等于防御力时攻击失败"
    );
    assert!(t.state.placed(t.card("ss-u01")).unwrap().tapped);
    let events = t.ok("attack us-u07 ss-u01");
    assert_eq!(attacked(&events), (3, 2, true));
}

#[test]
fn rule_4_only_supplied_units_attack() {
    // SS strikes the US depot in the skill step of round 3.
    let mut t = skill_step_of_round_three(Faction::Ss);
    let events = t.ok("skill ss-s01 us-r01");
    assert!(
        events.iter().any(|e| matches!(e, Event::Destroyed { .. })),
        "strike 5 beats the depot's 2"
    );
    t.pass_to(Step::Attack);
    if t.faction_to_act() == Faction::Ss {
        t.ok("done");
    }
    t.refused("attack us-u02 ss-u02", "攻防阶段规则 4");
    // The guards carry their own supply (card text).
    t.ok("attack us-u07 ss-u01");
}

#[test]
fn a_skill_card_used_once_is_refused_under_the_skill_card_rule() {
    let mut t = skill_step_of_round_three(Faction::Ss);
    t.ok("skill ss-s01 us-r01");
    // Whoever acts now, a second use cites 技能牌 (once per game), not the hand or the turn.
    t.refused_as(Faction::Ss, "skill ss-s01 us-r01", "技能牌");
    t.pass_to(Step::Skill);
    if t.faction_to_act() != Faction::Ss {
        t.ok("done");
    }
    t.refused("skill ss-s01 us-r01", "技能牌");
}

#[test]
fn rule_5_only_targets_in_range() {
    let mut t = fixture();
    t.ok("done");
    t.refused("attack us-u02 ss-u01", "攻防阶段规则 5");
    t.refused("attack us-u04 ss-r01", "攻防阶段规则 5");
    t.ok("attack us-u07 ss-u01");
}

#[test]
fn rule_6_the_dead_go_to_the_discard_pile_at_once() {
    let mut t = fixture();
    t.ok("done");
    t.ok("attack us-u07 ss-u01");
    assert!(t.in_discard("ss-u01"));
    assert_eq!(t.cell_of("ss-u01"), None);
}

#[test]
fn rule_7_an_attacker_may_advance_into_the_cell() {
    let mut t = fixture();
    t.ok("done");
    t.ok("attack us-u02+us-u04 ss-u02");
    t.refused("done", "攻防阶段规则 7");
    t.refused("advance us-u07", "攻防阶段规则 7");
    t.ok("advance us-u02");
    assert_eq!(t.cell_of("us-u02").as_deref(), Some("B5"));
    assert!(t.state.placed(t.card("us-u02")).unwrap().tapped);
}

#[test]
fn rule_7_or_hold_position() {
    let mut t = fixture();
    t.ok("done");
    t.ok("attack us-u07 ss-u01");
    t.ok("hold");
    assert_eq!(t.cell_of("us-u07").as_deref(), Some("D4"));
    assert_eq!(t.state.pending_advance, None);
}

#[test]
fn skill_barrage_hits_the_cell_and_its_neighbours() {
    let mut t = skill_step_of_round_three(Faction::Us);
    // Barrage 3 on C5: hits D5 (rifles, 2) and C6 (depot, 2); the tank on B5 holds (4 + 2).
    t.ok("skill us-s02 C5");
    assert!(t.in_discard("ss-u01") && t.in_discard("ss-r01"));
    assert_eq!(t.cell_of("ss-u02").as_deref(), Some("B5"));
    assert!(
        t.in_discard("us-s02"),
        "a skill card is used once, then discarded"
    );
}

#[test]
fn skill_targets_are_checked_against_the_card_text() {
    let mut t = skill_step_of_round_three(Faction::Us);
    t.refused("skill us-s01 us-u02", "us-s01");
    t.refused("skill us-s01", "us-s01");
    t.ok("skill us-s01 ss-u01");
}

#[test]
fn skill_rally_supplies_every_unit_and_sabotage_removes_a_resource() {
    let uk = [
        "uk-u02", "uk-r01", "uk-s01", "uk-s02", "uk-u01", "uk-u03", "uk-u04", "uk-u05",
    ];
    let wh = [
        "wh-u01", "wh-r01", "wh-s01", "wh-s02", "wh-u02", "wh-u03", "wh-u04", "wh-u05",
    ];
    let mut t = Table::with(&[Faction::Uk, Faction::Wh], &[&uk, &wh], Profile::default());
    t.pass_to(Step::DeployMove);
    t.script("deploy uk-u02 B3\ndeploy wh-u01 B5\ndeploy uk-r01 D2\ndeploy wh-r01 D6\ndone\ndone");
    t.pass_to(Step::Skill);
    t.ok("skill uk-s01 wh-r01"); // sabotage
    assert!(t.in_discard("wh-r01"));
    t.ok("done");
    t.ok("skill uk-s02"); // rally: the tank far from its depot may attack this round
    t.ok("done");
    assert_eq!(t.state.step, Step::Attack);
    t.ok("attack uk-u02 wh-u01");
}

#[test]
fn a_unit_on_its_own_bunker_gets_the_bonus() {
    let mut t = fixture();
    t.ok("done");
    let events = t.ok("attack us-u02 ss-u02");
    assert_eq!(attacked(&events), (5, 6, false));
}

#[test]
fn rule_3_only_enemy_units_may_be_attacked_not_your_own_tapped_ones() {
    let mut t = fixture();
    t.ok("done");
    t.ok("attack us-u02 ss-u02");
    t.refused("attack us-u04 us-u02", "攻防阶段");
}

#[test]
fn rule_6_a_unit_that_survives_stays_on_the_board() {
    let mut t = fixture();
    t.ok("done");
    t.ok("attack us-u02 ss-u02");
    assert!(!t.in_discard("ss-u02"));
    assert_eq!(t.cell_of("ss-u02").as_deref(), Some("B5"));
}
