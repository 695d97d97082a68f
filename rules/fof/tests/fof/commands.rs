//! 3.3 command phase: activation, initiative, experience modifiers, save and spend limits. Physical-deck
//! mode lets each test choose the printed numbers by answering for the card "in hand".

use crate::{act, act_str, edited_mission, go_to, mission_of_type, start};
use fof::state::{CommandKind, Event};
use fof::{Action, Answer, Deck, Mission};
use rules_core::{Game, RuleRef};

const ALL_DAY: &str = "time_of_day = [\"day\", \"day\", \"day\", \"day\", \"day\", \"day\"]";
const TRACK: &str = "time_of_day = [\"dawn\", \"day\", \"day\", \"day\", \"dusk\", \"night\"]";

fn physical(mission: Mission) -> fof::State {
    start(mission, Deck::physical(50), 5)
}

fn answer(s: &fof::State, n: u8) -> (fof::State, Vec<Event>) {
    act(s, Action::Answer(Answer::Number(n)))
}

#[test]
fn rule_3_3_save_limits_green_2_line_4_veteran_6_general_never_saved() {
    let s = physical(edited_mission(TRACK, ALL_DAY));
    let s = act_str(&s, "activate co").0;
    let (s, _) = act(&s, Action::Next); // 3.3.1 B: CO draws
    assert_eq!(s.log.last().unwrap().purpose, "3.3.1 B: CO HQ activation");
    let (s, ev) = answer(&s, 9);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Commands { hq, gained: 9, .. } if hq == "co")));
    let s = act_str(&s, "activate 1plt").0;
    let s = act_str(&s, "activate 2plt").0;
    assert_eq!(
        s.commands["co"].available, 7,
        "each activation costs 1 CO command"
    );
    let s = act(&s, Action::Next).0; // 3.3.1 C: 1plt then 2plt draw
    let s = answer(&s, 9).0; // veteran: 9 + 1
    let s = answer(&s, 9).0; // green: 9 - 1
    assert_eq!(s.commands["1plt"].available, 10);
    assert_eq!(s.commands["2plt"].available, 8);
    let s = go_to(s, "3.3.2 D");
    assert_eq!(
        s.commands["xo"].available, 1,
        "3.3.2 C: staff not activated get 1"
    );
    let s = answer(&s, 5).0;
    assert_eq!(s.general, 5);
    let (s, ev) = act(&s, Action::Next);
    assert_eq!(s.commands["co"].saved, 4, "line keeps 4");
    assert_eq!(s.commands["1plt"].saved, 6, "veteran keeps 6");
    assert_eq!(s.commands["2plt"].saved, 2, "green keeps 2");
    assert_eq!(s.commands["xo"].saved, 1);
    assert_eq!(s.general, 0);
    assert!(ev.contains(&Event::Saved {
        hq: "general".into(),
        kept: 0,
        lost: 5
    }));
}

#[test]
fn rule_3_3_saved_commands_return_next_turn() {
    let s = physical(edited_mission(TRACK, ALL_DAY));
    let s = go_to(s, "3.3.2 A");
    let s = answer(&s, 3).0; // CO initiative 3 (line)
    let s = go_to(s, "3.3.2 D");
    let s = answer(&s, 0).0;
    let s = go_to(s, "3.8");
    assert_eq!(s.commands["co"].saved, 3);
    let s = act(&s, Action::Next).0; // turn 2, 3.1: HQ check
    let s = act(&s, Action::Answer(Answer::No)).0;
    let s = go_to(s, "3.3.1 A");
    assert_eq!(s.commands["co"].available, 3);
}

#[test]
fn rule_3_3_1_activated_floor_1_initiative_floor_0() {
    let s = physical(edited_mission(TRACK, ALL_DAY));
    let s = act_str(&s, "activate co").0;
    let s = act(&s, Action::Next).0;
    let s = answer(&s, 3).0;
    let s = act_str(&s, "activate 2plt").0; // green
    let s = act(&s, Action::Next).0;
    let (s, ev) = answer(&s, 0);
    assert!(ev.contains(&Event::Commands {
        hq: "2plt".into(),
        kind: CommandKind::Activated,
        printed: 0,
        modifier: -1,
        gained: 1,
        available: 1
    }));
    let s = go_to(s, "3.3.2 B");
    // 1plt (veteran) was not activated: initiative; printed 0 + 1.
    let (_, ev) = answer(&s, 0);
    assert!(ev.contains(&Event::Commands {
        hq: "1plt".into(),
        kind: CommandKind::Initiative,
        printed: 0,
        modifier: 1,
        gained: 1,
        available: 1
    }));

    // A green platoon on initiative with 0 printed gets 0, not 1.
    let m = edited_mission("experience = \"veteran\"", "experience = \"green\"");
    let s = go_to(physical(m), "3.3.2 B");
    let (_, ev) = answer(&s, 0);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Commands { hq, gained: 0, .. } if hq == "1plt")),
        "{ev:?}"
    );
}

#[test]
fn rule_3_3_limited_visibility_spend_cap_is_4() {
    let s = physical(Mission::demo().unwrap()); // turn 1 is dawn: limited visibility
    assert!(s.limited_visibility());
    let s = act_str(&s, "activate co").0;
    let s = act(&s, Action::Next).0;
    let s = answer(&s, 9).0;
    let err = fof::FieldsOfFire::apply(&s, &"spend co 5".parse().unwrap()).unwrap_err();
    assert_eq!(
        err.rule,
        RuleRef::profile("fof.limited_visibility_spend_cap")
    );
    let s = act_str(&s, "spend co 4").0;
    let err = fof::FieldsOfFire::apply(&s, &"spend co 1".parse().unwrap()).unwrap_err();
    assert_eq!(
        err.rule,
        RuleRef::profile("fof.limited_visibility_spend_cap")
    );
    assert!(!fof::FieldsOfFire::legal_actions(&s)
        .iter()
        .any(|a| matches!(a, Action::Spend { hq, .. } if hq == "co")));
    // In daylight the same spend is fine.
    let s = physical(edited_mission(TRACK, ALL_DAY));
    let s = act_str(&s, "activate co").0;
    let s = act(&s, Action::Next).0;
    let s = answer(&s, 9).0;
    act_str(&s, "spend co 5");
}

#[test]
fn rule_3_3_2_d_general_initiative_halved_on_patrol() {
    let s = go_to(physical(mission_of_type("patrol")), "3.3.2 D");
    let (s, ev) = answer(&s, 7);
    assert!(
        ev.iter().any(
            |e| matches!(e, Event::Commands { hq, printed: 7, gained: 3, .. } if hq == "general")
        ),
        "{ev:?}"
    );
    assert_eq!(s.general, 3);
    let s = go_to(physical(mission_of_type("offensive")), "3.3.2 D");
    assert_eq!(answer(&s, 7).0.general, 7);
}

#[test]
fn rule_3_3_1_b_co_cannot_activate_unless_activated() {
    let s = go_to(physical(Mission::demo().unwrap()), "3.3.1 B");
    let err = fof::FieldsOfFire::apply(&s, &"activate 1plt".parse().unwrap()).unwrap_err();
    assert_eq!(err.rule, RuleRef::rulebook("3.3.1 B"));
    assert!(s.log.is_empty(), "no CO draw when not activated");
}

#[test]
fn digital_deck_command_points_match_the_drawn_card() {
    let s = fof::State::from_setup(fof::Setup {
        mission: Mission::demo().unwrap(),
        deck: Deck::demo().unwrap(),
        sequence: fof::Sequence::standard().unwrap(),
        seed: 99,
    })
    .unwrap()
    .0;
    let s = act_str(&s, "activate co").0;
    let (s, ev) = act(&s, Action::Next);
    let drawn = s.log.last().unwrap().card;
    let card = s.deck.card(drawn).unwrap().clone();
    assert!(
        ev.contains(&Event::Commands {
            hq: "co".into(),
            kind: CommandKind::Activated,
            printed: card.command,
            modifier: 0,
            gained: card.command.max(1),
            available: card.command.max(1),
        }),
        "{ev:?}"
    );
}

#[test]
fn profile_limited_visibility_caps_saving_at_4() {
    // Turn 1 of the demo mission is dawn (limited visibility): even a veteran keeps at most 4.
    let s = physical(Mission::demo().unwrap());
    let s = act_str(&s, "activate co").0;
    let s = act(&s, Action::Next).0;
    let s = answer(&s, 9).0;
    let s = act_str(&s, "activate 1plt").0;
    let s = act(&s, Action::Next).0;
    let s = answer(&s, 9).0; // 1plt veteran: 10
    let s = go_to(s, "3.3.2 D");
    let s = answer(&s, 0).0;
    let s = act(&s, Action::Next).0;
    assert_eq!(s.commands["1plt"].saved, 4);
    // With the option off the veteran keeps 6.
    let m = edited_mission(
        "limited_visibility_caps_saving = true",
        "limited_visibility_caps_saving = false",
    );
    let s = physical(m);
    let s = act_str(&s, "activate co").0;
    let s = act(&s, Action::Next).0;
    let s = answer(&s, 9).0;
    let s = act_str(&s, "activate 1plt").0;
    let s = act(&s, Action::Next).0;
    let s = answer(&s, 9).0;
    let s = go_to(s, "3.3.2 D");
    let s = answer(&s, 0).0;
    let s = act(&s, Action::Next).0;
    assert_eq!(s.commands["1plt"].saved, 6);
}
