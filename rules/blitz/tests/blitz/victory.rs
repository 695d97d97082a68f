//! 胜利条件 1–3, 游戏结束条件 1–4, four-player set-up and order.

use crate::table::Table;
use blitz::catalogue::{Catalogue, Faction, Side};
use blitz::steps::Step;
use blitz::{Profile, Setup, SetupError, State, Winner};
use std::sync::Arc;

const US: &[&str] = &[
    "us-u02", "us-r01", "us-u05", "us-u01", "us-u03", "us-u04", "us-u06", "us-u07",
];
const SS: &[&str] = &[
    "ss-u01", "ss-r01", "ss-u02", "ss-u03", "ss-u04", "ss-u05", "ss-u06", "ss-u07",
];

fn winner(t: &Table) -> Option<(Winner, String)> {
    t.state
        .outcome
        .as_ref()
        .map(|o| (o.winner.clone(), o.rule.clone()))
}

/// Round 1: the US tank (B3, depot A3) destroys the SS rifles, the only SS unit on the board.
fn rifles_destroyed_in_round_one() -> Table {
    let mut t = Table::two(US, SS);
    t.pass_to(Step::DeployMove);
    t.script("deploy us-u02 B3\ndeploy ss-u01 B5\ndeploy us-r01 A3\ndone\ndone");
    t.pass_to(Step::Attack);
    t.script("attack us-u02 ss-u01\nhold\ndone\ndone");
    t
}

#[test]
fn victory_1_annihilation_counts_from_round_two() {
    let mut t = rifles_destroyed_in_round_one();
    assert_eq!(
        t.state.round, 2,
        "no victory in round 1 (profile option blitz.annihilation_from_round)"
    );
    assert_eq!(winner(&t), None);
    // Round 2: SS deploys no unit, so at the settlement every SS unit on the board is gone.
    t.pass_to(Step::Over);
    assert_eq!(
        winner(&t),
        Some((Winner::Side(Side::Allied), "胜利条件 1".into()))
    );
}

#[test]
fn victory_1_not_while_an_enemy_unit_stands() {
    let mut t = rifles_destroyed_in_round_one();
    t.pass_to(Step::DeployMove);
    t.ok("deploy ss-u02 C6");
    t.pass_to(Step::Draw);
    assert_eq!(t.state.round, 3);
    assert_eq!(winner(&t), None);
}

#[test]
fn victory_1_scope_all_counts_units_in_hand_and_deck() {
    let mut t = Table::with(
        &[Faction::Us, Faction::Ss],
        &[US, SS],
        Profile {
            annihilation_scope: blitz::profile::AnnihilationScope::All,
            ..Profile::default()
        },
    );
    t.pass_to(Step::DeployMove);
    t.script("deploy us-u02 B3\ndeploy ss-u01 B5\ndeploy us-r01 A3\ndone\ndone");
    t.pass_to(Step::Attack);
    t.script("attack us-u02 ss-u01\nhold\ndone\ndone");
    t.pass_to(Step::Draw);
    t.pass_to(Step::Draw);
    assert_eq!(winner(&t), None, "SS still holds units in hand");
}

#[test]
fn victory_3_breakthrough_wins_at_settlement() {
    let mut t = Table::two(US, SS);
    t.pass_to(Step::DeployMove);
    t.script("deploy us-u05 B2\ndeploy ss-u02 D7");
    for to in ["B4", "B6", "B8"] {
        t.next_round_deploy();
        if t.faction_to_act() == Faction::Ss {
            t.ok("done");
        }
        t.ok(&format!("move us-u05 {to}"));
    }
    assert_eq!(winner(&t), None, "checked in the settlement phase");
    t.pass_to(Step::Over);
    assert_eq!(
        winner(&t),
        Some((Winner::Side(Side::Allied), "胜利条件 3".into()))
    );
}

/// Round 2 ends with the US rifles on the front line and the tank in SS territory (B5).
fn us_holds_one_enemy_cell() -> Table {
    let mut t = Table::two(US, SS);
    t.pass_to(Step::DeployMove);
    t.script("deploy us-u02 B3\ndeploy ss-u02 D7\ndeploy us-r01 A3\ndone\ndone");
    t.next_round_deploy();
    t.script("done\nmove us-u02 B4");
    t.next_round_deploy();
    t.script("move us-u02 B5\ndone\ndone");
    t
}

#[test]
fn end_condition_3_stalemate_then_victory_2_by_territory() {
    let mut t = us_holds_one_enemy_cell();
    t.ok("stalemate");
    t.refused("stalemate", "游戏结束条件 3");
    t.pass_to(Step::Attack);
    if t.faction_to_act() == Faction::Us {
        t.ok("done");
    }
    t.ok("stalemate");
    t.pass_to(Step::Over);
    let o = t.state.outcome.clone().unwrap();
    assert_eq!(o.winner, Winner::Side(Side::Allied));
    assert!(
        o.rule.contains("游戏结束条件 3") && o.rule.contains("胜利条件 2"),
        "{o:?}"
    );
    assert_eq!(t.state.territory_held(Side::Allied), 1);
}

#[test]
fn end_condition_3_needs_every_player() {
    let mut t = us_holds_one_enemy_cell();
    t.ok("stalemate");
    t.pass_to(Step::Draw);
    assert_eq!(winner(&t), None);
}

#[test]
fn victory_2_equal_territory_is_a_draw() {
    let mut t = Table::two(US, SS);
    t.pass_to(Step::DeployMove);
    t.script("stalemate\ndeploy us-u02 B3\nstalemate\ndeploy ss-u02 D7\ndone\ndone");
    t.pass_to(Step::Over);
    let o = t.state.outcome.clone().unwrap();
    assert_eq!(o.winner, Winner::Draw, "{o:?}");
}

#[test]
fn end_condition_1_a_player_with_no_cards_in_hand() {
    let mut t = Table::two(US, SS);
    t.pass_to(Step::DeployMove);
    // US lays all eight cards over the round; its hand is empty at settlement.
    t.script(
        "deploy us-u02 A1\ndone\ndeploy us-r01 A2\ndeploy us-u05 A3\ndeploy us-u01 B1\ndeploy us-u03 B2
         deploy us-u04 B3\ndeploy us-u06 C1\ndeploy us-u07 C2",
    );
    assert!(t.state.players[0].hand.is_empty());
    assert_eq!(winner(&t), None, "checked at settlement");
    t.pass_to(Step::Over);
    let o = t.state.outcome.clone().unwrap();
    assert!(o.rule.contains("游戏结束条件 1"), "{o:?}");
    assert_eq!(o.winner, Winner::Draw, "nobody holds enemy territory");
}

#[test]
fn end_condition_1_not_while_every_player_holds_cards() {
    let mut t = Table::two(US, SS);
    t.pass_to(Step::DeployMove);
    t.script("deploy us-u02 A1\ndeploy ss-u01 B5");
    t.pass_to(Step::Draw);
    assert_eq!(winner(&t), None);
}

/// A catalogue where SS has a single unit card: once it dies, SS can never act again.
fn one_unit_catalogue() -> Arc<Catalogue> {
    let mut text = crate::table::CATALOGUE.to_string();
    for n in 2..=8 {
        let unit = format!("id = \"ss-u0{n}\"");
        let start = text.find(&unit).unwrap();
        let block_start = text[..start].rfind("[[card]]").unwrap();
        let block_end = text[start..]
            .find("[[card]]")
            .map(|i| start + i)
            .unwrap_or(text.len());
        text.replace_range(block_start..block_end, "");
    }
    Arc::new(Catalogue::from_toml("one-unit.toml", &text).unwrap())
}

#[test]
fn end_condition_2_a_player_who_can_make_no_action() {
    let setup = Setup {
        catalogue: one_unit_catalogue(),
        profile: Profile::default(),
        players: vec![Faction::Us, Faction::Ss],
        seed: 3,
        stacked_decks: vec![
            US.iter().map(|s| s.to_string()).collect(),
            vec!["ss-u01".into()],
        ],
    };
    let mut t = Table {
        state: State::from_setup(setup).unwrap(),
    };
    t.pass_to(Step::DeployMove);
    t.script("deploy us-u02 B3\ndeploy ss-u01 B5\ndeploy us-r01 A3\ndone\ndone");
    t.pass_to(Step::Attack);
    t.script("attack us-u02 ss-u01\nadvance us-u02\ndone\ndone");
    let o = t.state.outcome.clone().expect("the game ends in round 1");
    assert!(o.rule.contains("游戏结束条件 2"), "{o:?}");
    assert_eq!(
        o.winner,
        Winner::Side(Side::Allied),
        "the tank advanced into B5"
    );
}

#[test]
fn end_condition_2_not_while_units_remain_in_hand() {
    let t = rifles_destroyed_in_round_one();
    assert_eq!(winner(&t), None);
}

#[test]
fn four_players_order_rotates_each_round() {
    let mut t = Table::four([&["us-u01"], &["ss-u01"], &["uk-u01"], &["wh-u01"]]);
    let names = |t: &Table| {
        t.state
            .order
            .iter()
            .map(|&p| t.state.players[p].faction)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(&t),
        [Faction::Us, Faction::Ss, Faction::Uk, Faction::Wh]
    );
    assert_eq!(t.state.geometry.width, 5);
    t.pass_to(Step::DeployMove);
    t.script("deploy us-u01 A3\ndeploy ss-u01 A5\ndeploy uk-u01 E3\ndeploy wh-u01 E5");
    t.pass_to(Step::Draw);
    assert_eq!(
        names(&t),
        [Faction::Ss, Faction::Uk, Faction::Wh, Faction::Us]
    );
    t.pass_to(Step::DeployMove);
    t.pass_to(Step::Draw);
    assert_eq!(
        names(&t),
        [Faction::Uk, Faction::Wh, Faction::Us, Faction::Ss]
    );
}

#[test]
fn four_players_teammates_share_a_side() {
    let mut t = Table::four([&["us-u01"], &["ss-u01"], &["uk-r01", "uk-u02"], &["wh-u01"]]);
    t.pass_to(Step::DeployMove);
    t.refused("deploy us-u01 A5", "部署阶段规则 2");
    t.script("deploy us-u01 A3\ndeploy ss-u01 A5\ndeploy uk-r01 E3");
}

#[test]
fn setup_same_side_players_may_not_sit_together() {
    let setup = |players: Vec<Faction>| Setup {
        catalogue: crate::table::catalogue(),
        profile: Profile::default(),
        players,
        seed: 0,
        stacked_decks: vec![],
    };
    use Faction::*;
    assert!(matches!(
        State::from_setup(setup(vec![Us, Uk, Ss, Wh])),
        Err(SetupError::SidesFourPlayer)
    ));
    assert!(matches!(
        State::from_setup(setup(vec![Us, Uk])),
        Err(SetupError::SidesTwoPlayer)
    ));
    assert!(matches!(
        State::from_setup(setup(vec![Us, Ss, Uk])),
        Err(SetupError::PlayerCount(3))
    ));
    assert!(matches!(
        State::from_setup(setup(vec![Us, Us])),
        Err(SetupError::DuplicateFaction(Us))
    ));
    assert!(State::from_setup(setup(vec![Ss, Us])).is_ok());
}

#[test]
fn allied_player_starts_round_one_even_from_the_second_seat() {
    let t = Table::with(&[Faction::Ss, Faction::Us], &[SS, US], Profile::default());
    assert_eq!(t.faction_to_act(), Faction::Us);
}

#[test]
fn end_condition_4_a_victory_condition_ends_the_game_at_once() {
    let mut t = rifles_destroyed_in_round_one();
    t.pass_to(Step::Over);
    assert_eq!(
        t.state.round, 2,
        "the game ends in the settlement of round 2, not later"
    );
    assert!(blitz::legal_actions(&t.state).is_empty());
    t.refused("done", "游戏结束");
}
