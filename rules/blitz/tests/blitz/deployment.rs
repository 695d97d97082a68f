//! 部署阶段的规则 1–8 and the draw step: for each rule a legal case and an illegal case.

use crate::table::Table;
use blitz::catalogue::Faction;
use blitz::steps::Step;
use blitz::Event;

const US: &[&str] = &[
    "us-u01", "us-u02", "us-u03", "us-u05", "us-r01", "us-r02", "us-f01", "us-s01",
];
const SS: &[&str] = &[
    "ss-u01", "ss-u02", "ss-u03", "ss-u05", "ss-r01", "ss-r02", "ss-f01", "ss-s01",
];

fn at_deploy() -> Table {
    at_deploy_with(US, SS)
}

fn at_deploy_with(us: &[&str], ss: &[&str]) -> Table {
    let mut t = Table::two(us, ss);
    t.pass_to(Step::DeployMove);
    t
}

const US_MORE: &[&str] = &[
    "us-u01", "us-u02", "us-u06", "us-u08", "us-r01", "us-f02", "us-f01", "us-s01",
];
const SS_MORE: &[&str] = &[
    "ss-u01", "ss-u02", "ss-u03", "ss-u05", "ss-r01", "ss-f02", "ss-f01", "ss-s01",
];

#[test]
fn rule_1_moves_one_cell_orthogonally() {
    let mut t = at_deploy();
    t.script("deploy us-u01 B2\ndeploy ss-u01 C6");
    t.next_round_deploy();
    // Round 2: SS acts first (order rotation).
    t.ok("move ss-u01 C5");
    t.refused("move us-u01 B4", "部署阶段规则 1");
    t.refused("move us-u01 C3", "容易忽视的游戏规则 部署阶段 3");
    t.ok("move us-u01 B3");
    assert_eq!(t.cell_of("us-u01").as_deref(), Some("B3"));
}

#[test]
fn rule_1_a_card_moves_once_per_step_and_not_when_just_deployed() {
    let mut t = at_deploy();
    t.script("deploy us-u01 B2\ndeploy ss-u01 C6");
    t.refused("move us-u01 B3", "blitz.deploy_then_move");
    t.next_round_deploy();
    t.ok("done"); // SS
    t.ok("move us-u01 B3");
    t.refused("move us-u01 B4", "部署阶段规则 1");
}

#[test]
fn rule_1_fast_units_may_move_two_cells_card_text() {
    let mut t = at_deploy();
    t.script("deploy us-u05 B1\ndeploy ss-u01 C6");
    t.next_round_deploy();
    t.ok("done");
    t.ok("move us-u05 B3");
    assert_eq!(t.cell_of("us-u05").as_deref(), Some("B3"));
}

#[test]
fn rule_2_deploys_only_on_your_own_side() {
    let mut t = at_deploy();
    t.refused("deploy us-u01 B4", "部署阶段规则 2");
    t.refused("deploy us-u01 B5", "部署阶段规则 2");
    t.ok("deploy us-u01 B3");
    t.refused("deploy ss-u01 B3", "部署阶段规则 2");
    t.ok("deploy ss-u01 B5");
}

#[test]
fn rule_3_nothing_enters_a_cell_holding_a_unit() {
    let mut t = at_deploy();
    t.script("deploy us-u01 B2\ndeploy ss-u01 C6");
    t.refused("deploy us-u02 B2", "部署阶段规则 3");
    t.ok("deploy us-u02 C2");
    t.ok("done");
    t.next_round_deploy();
    t.ok("done");
    t.refused("move us-u01 C2", "部署阶段规则 3");
    t.ok("move us-u01 A2");
}

#[test]
fn rule_3_units_stack_on_front_line_cards_but_not_on_resources() {
    let mut t = at_deploy();
    t.script("deploy us-u01 B3\ndeploy ss-u01 C6\ndeploy us-r01 A3\ndone");
    t.next_round_deploy();
    t.ok("done");
    t.refused("move us-u01 A3", "容易忽视的游戏规则 部署阶段 5");
    t.ok("move us-u01 B4");
    let front = t.state.stack(blitz::Cell::parse("B4").unwrap());
    assert!(front.under.is_some() && front.occupant == Some(t.card("us-u01")));
}

/// Lets SS pass so that the US player acts next.
fn us_next(t: &mut Table) {
    if t.faction_to_act() == Faction::Ss {
        t.ok("done");
    }
}

/// Walks the Allied fast scout to enemy depth 3 (B7) by round 4; round 5's deploy step is next.
fn scout_at_depth_three() -> Table {
    let mut t = at_deploy();
    t.script("deploy us-u05 B2\ndeploy ss-u02 D7");
    for to in ["B4", "B6", "B7"] {
        t.next_round_deploy();
        us_next(&mut t);
        t.ok(&format!("move us-u05 {to}"));
    }
    t.next_round_deploy();
    us_next(&mut t);
    t
}

#[test]
fn rule_4_a_unit_at_enemy_depth_three_must_break_through() {
    let mut t = scout_at_depth_three();
    t.refused("done", "部署阶段规则 4");
    let events = t.ok("move us-u05 B8");
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::BrokeThrough { .. })));
    assert_eq!(t.cell_of("us-u05"), None);
}

#[test]
fn rule_4_card_text_exempts_a_unit_that_holds_ground() {
    // The sappers (holds_ground) may stay at depth 3.
    let mut t = at_deploy_with(US_MORE, SS_MORE);
    t.script("deploy us-u06 A2\ndeploy ss-u02 D7");
    for to in ["A3", "A4", "A5", "A6", "A7"] {
        t.next_round_deploy();
        us_next(&mut t);
        t.ok(&format!("move us-u06 {to}"));
    }
    t.next_round_deploy();
    us_next(&mut t);
    t.ok("done");
}

#[test]
fn rule_5_resources_never_move_to_enemy_depth_four() {
    let mut t = at_deploy();
    t.script("deploy us-r02 A2\ndeploy ss-u02 D7\ndeploy us-u02 D2");
    for to in ["A3", "A4", "A5", "A6", "A7"] {
        t.next_round_deploy();
        us_next(&mut t);
        t.ok(&format!("move us-r02 {to}"));
    }
    t.next_round_deploy();
    us_next(&mut t);
    t.refused("move us-r02 A8", "部署阶段规则 5");
    t.ok("move us-r02 B7");
}

#[test]
fn rule_6_a_resource_next_to_an_enemy_unit_is_discarded_at_end_of_deployment() {
    let mut t = at_deploy();
    // SS rifles on the front line at B4 touch the US depot at B3; the US dump at D2 is far away.
    t.script("deploy us-r01 B3\ndeploy ss-u01 B5\ndeploy us-r02 D2\ndone\ndone");
    t.next_round_deploy();
    t.script("move ss-u01 B4\ndone\ndone");
    assert_eq!(t.state.step, Step::Facility);
    assert!(
        t.cell_of("us-r01").is_some(),
        "removal waits for the end of the deployment phase"
    );
    let events = t.script_events("done\ndone");
    assert!(t.in_discard("us-r01"));
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Discarded { rule, .. } if rule == "部署阶段规则 6")));
    assert_eq!(t.cell_of("us-r02").as_deref(), Some("D2"));
}

#[test]
fn rule_7_players_act_in_turn_one_card_at_a_time() {
    let mut t = at_deploy();
    t.refused_as(Faction::Ss, "deploy ss-u01 B5", "部署阶段规则 7");
    t.ok_as(Faction::Us, "deploy us-u01 B2");
    t.refused_as(Faction::Us, "deploy us-u02 C2", "部署阶段规则 7");
    t.ok_as(Faction::Ss, "deploy ss-u01 B5");
}

#[test]
fn rule_8_an_engineer_removes_the_enemy_facility_beside_it() {
    let mut t = at_deploy();
    // SS lays a mine at C5 (round 1); the US engineers reach C4 in round 2, a rifle reaches A4.
    t.script("deploy us-u03 C3\ndeploy ss-u02 D7\ndeploy us-u01 A3\ndone\ndone");
    t.pass_to(Step::Facility);
    t.script("done\nplace ss-f01 C5\ndone");
    t.next_round_deploy();
    t.script("done\nmove us-u03 C4\ndone");
    t.pass_to(Step::Skill);
    assert!(
        t.in_discard("ss-f01"),
        "engineer at C4 removes the mine at C5 (部署阶段规则 8)"
    );
}

#[test]
fn rule_8_a_unit_without_engineering_leaves_the_facility() {
    let mut t = at_deploy_with(US_MORE, SS_MORE);
    t.script("deploy us-u01 C3\ndeploy ss-u02 D7\ndone\ndone");
    t.pass_to(Step::Facility);
    t.script("done\nplace ss-f02 C5\ndone");
    t.next_round_deploy();
    t.script("done\nmove us-u01 C4\ndone");
    t.pass_to(Step::Skill);
    assert_eq!(t.cell_of("ss-f02").as_deref(), Some("C5"));
}

#[test]
fn draw_step_respects_the_hand_limit_of_eight() {
    let mut t = Table::two(US, SS);
    t.pass_to(Step::Draw);
    t.refused("draw", "部署阶段 a. 摸牌步骤");
    t.ok("discard-draw us-s01");
    assert_eq!(t.state.players[0].hand.len(), 8);
    assert!(t.in_discard("us-s01"));
    t.ok("skip-draw");
}

#[test]
fn draw_step_below_the_limit_must_draw() {
    let mut t = at_deploy();
    t.script("deploy us-u01 B2\ndeploy ss-u01 C6");
    t.pass_to(Step::Draw);
    // Round 2: SS first, with 7 cards.
    t.refused("skip-draw", "部署阶段 a. 摸牌步骤");
    t.ok("draw");
    assert_eq!(t.state.players[1].hand.len(), 8);
}

#[test]
fn mulligan_only_once() {
    let mut t = Table::two(US, SS);
    t.ok("mulligan");
    assert_eq!(t.state.players[0].hand.len(), 8);
    assert_eq!(
        t.faction_to_act(),
        Faction::Ss,
        "after the one mulligan the turn passes"
    );
    t.ok("keep");
    assert_eq!(t.state.step, Step::Draw);
}

#[test]
fn a_second_mulligan_is_refused_under_the_mulligan_rule_not_the_turn_order() {
    let mut t = Table::two(US, SS);
    t.ok("mulligan");
    // The US player has no turn left in this step, but what forbids this is the one mulligan.
    t.refused_as(Faction::Us, "mulligan", "blitz.mulligans");
    // Anything else out of turn is still refused by the turn order.
    t.refused_as(Faction::Us, "keep", "部署阶段规则 7");
}

#[test]
fn facilities_never_move() {
    let mut t = at_deploy();
    t.script("deploy us-u01 B2\ndeploy ss-u01 C6\ndone\ndone\nplace us-f01 A2\ndone\ndone");
    t.next_round_deploy();
    t.ok("done");
    t.refused("move us-f01 A1", "设施牌");
}

#[test]
fn enemy_mines_destroy_units_that_enter_and_own_mines_do_not() {
    let mut t = at_deploy_with(US_MORE, SS_MORE);
    t.script("deploy us-u01 B3\ndeploy ss-u01 D6\ndeploy us-u08 C2\ndone\ndone");
    t.pass_to(Step::Facility);
    t.script("place us-f01 C3\nplace ss-f01 B5\ndone\ndone");
    t.next_round_deploy();
    // SS first in round 2.
    t.ok("done");
    let events = t.ok("move us-u01 B4");
    assert!(
        events.is_empty()
            || !events
                .iter()
                .any(|e| matches!(e, Event::MineExploded { .. }))
    );
    t.ok("move us-u08 C3"); // own mine: harmless
    assert_eq!(t.cell_of("us-u08").as_deref(), Some("C3"));
    t.next_round_deploy();
    us_next(&mut t);
    let events = t.ok("move us-u01 B5");
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::MineExploded { .. })));
    assert!(t.in_discard("us-u01") && t.in_discard("ss-f01"));
}

#[test]
fn anti_tank_obstacles_stop_vehicles_of_both_sides() {
    let mut t = at_deploy_with(US_MORE, SS_MORE);
    t.script("deploy us-u02 B2\ndeploy ss-u01 D6\ndeploy us-u01 C2\ndone\ndone");
    t.pass_to(Step::Facility);
    t.script("place us-f02 B3\ndone\ndone");
    t.next_round_deploy();
    t.ok("done");
    t.refused("move us-u02 B3", "us-f02");
    t.ok("move us-u01 C3");
}

trait ScriptEvents {
    fn script_events(&mut self, lines: &str) -> Vec<Event>;
}

impl ScriptEvents for Table {
    fn script_events(&mut self, lines: &str) -> Vec<Event> {
        lines
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .flat_map(|l| self.ok(l))
            .collect()
    }
}
