//! The Blitz adapter and session: table events become actions, illegal ones become questions, and the
//! journal brings a killed game back.

use super::blitz::{Header, Session, Source};
use super::tracker::{CardPlace, TableEvent};
use blitz::catalogue::{Catalogue, Faction};
use blitz::steps::Step;
use blitz::{Action, Profile};
use std::sync::Arc;

fn header(hidden: bool) -> Header {
    Header {
        game: "blitz".into(),
        players: vec![Faction::Us, Faction::Ss],
        seed: 5,
        profile: Profile::default(),
        stacked_decks: vec![],
        hidden_hands: hidden,
        catalogue: None,
    }
}

fn placed(card: &str, cell: (i8, i8)) -> TableEvent {
    TableEvent::Placed {
        card: card.into(),
        place: CardPlace {
            cell,
            tapped: false,
        },
    }
}

/// A game with a journal in a temp file, at round 1's deploy step.
fn journalled_at_deploy(name: &str) -> (Session, std::path::PathBuf, Arc<Catalogue>) {
    let path = std::env::temp_dir().join(format!("arbiter-{name}-{}.jsonl", std::process::id()));
    crate::table::journal::remove_with_lock(&path);
    let catalogue = Arc::new(Catalogue::demo());
    let mut s = Session::new(header(true), catalogue.clone(), Some(&path)).unwrap();
    open_to_deploy(&mut s);
    (s, path, catalogue)
}

fn open_to_deploy(s: &mut Session) {
    for a in [
        Action::Keep,
        Action::Keep,
        Action::SkipDraw,
        Action::SkipDraw,
    ] {
        let seat = s.state.actor().unwrap();
        assert!(s.submit(seat, a, Source::Panel));
    }
    assert_eq!(s.state.step, Step::DeployMove);
}

fn session_at_deploy() -> Session {
    let mut s = Session::new(header(true), Arc::new(Catalogue::demo()), None).unwrap();
    open_to_deploy(&mut s);
    s
}

#[test]
fn issue_4_a_card_laid_on_your_side_is_a_deployment_from_the_hidden_hand() {
    let mut s = session_at_deploy();
    s.on_table_event(&placed("us-u01", (1, 2)));
    let sherman = s.state.card_by_id("us-u01").unwrap();
    assert_eq!(
        s.state
            .placed(sherman)
            .map(|p| p.cell.to_string())
            .as_deref(),
        Some("B3")
    );
    assert!(s.questions.is_empty());
}

#[test]
fn issue_4_an_illegal_change_is_flagged_with_its_rule_and_asked_about() {
    let mut s = session_at_deploy();
    s.on_table_event(&placed("us-u01", (1, 4)));
    let last = s.rulings.last().unwrap();
    assert!(!last.accepted);
    assert_eq!(last.rule.as_deref(), Some("部署阶段规则 2"));
    assert_eq!(s.questions.len(), 1);
    assert!(
        s.state
            .placed(s.state.card_by_id("us-u01").unwrap())
            .is_none(),
        "never silently applied"
    );
}

#[test]
fn issue_4_out_of_turn_is_flagged() {
    let mut s = session_at_deploy();
    s.on_table_event(&placed("ss-u04", (1, 5)));
    assert_eq!(
        s.rulings.last().unwrap().rule.as_deref(),
        Some("部署阶段规则 7")
    );
}

#[test]
fn issue_4_a_joint_attack_from_two_taps_and_the_target_taken_off() {
    let mut s = Session::new(header(true), Arc::new(Catalogue::demo()), None).unwrap();
    let script = "keep keep skip-draw skip-draw";
    for a in script.split(' ') {
        let seat = s.state.actor().unwrap();
        let act = Action::parse(&s.state, a).unwrap();
        assert!(s.submit(seat, act, Source::Panel));
    }
    for (card, cell) in [
        ("us-u01", (1, 2)),
        ("ss-u04", (1, 5)),
        ("us-r01", (0, 2)),
        ("ss-r01", (2, 6)),
        ("us-u19", (1, 1)),
    ] {
        s.on_table_event(&placed(card, cell));
    }
    assert!(s.questions.is_empty(), "{:?}", s.questions);
    // Pass to round 2's attack step through the panel; SS moves the Panzer to B5 on the table.
    let done = |s: &mut Session| {
        let seat = s.state.actor().unwrap();
        let action = if s.state.step == Step::Draw {
            Action::Draw
        } else {
            Action::Done
        };
        assert!(s.submit(seat, action, Source::Panel));
    };
    while s.state.round < 2 || s.state.step != Step::DeployMove {
        done(&mut s);
    }
    s.on_table_event(&TableEvent::Moved {
        card: "ss-u04".into(),
        from: (1, 5),
        to: (1, 4),
    });
    while s.state.step != Step::Attack {
        done(&mut s);
    }
    done(&mut s); // SS passes
    s.on_table_event(&TableEvent::Tapped {
        card: "us-u01".into(),
    });
    s.on_table_event(&TableEvent::Tapped {
        card: "us-u19".into(),
    });
    assert_eq!(s.declaring.len(), 2);
    s.on_table_event(&TableEvent::Removed {
        card: "ss-u04".into(),
        from: (1, 4),
    });
    let attack = s
        .rulings
        .iter()
        .rev()
        .find(|r| r.action.starts_with("attack"))
        .expect("an attack");
    assert!(
        attack.accepted && attack.text.contains("(9) vs."),
        "{attack:?}"
    );
    assert!(s.state.pending_advance.is_some());
    s.on_table_event(&TableEvent::Moved {
        card: "us-u01".into(),
        from: (1, 2),
        to: (1, 4),
    });
    assert_eq!(
        s.state
            .placed(s.state.card_by_id("us-u01").unwrap())
            .unwrap()
            .cell
            .to_string(),
        "B5"
    );
}

#[test]
fn issue_4_undo_takes_back_the_last_action() {
    let mut s = session_at_deploy();
    s.on_table_event(&placed("us-u01", (1, 2)));
    assert!(s.undo());
    assert!(s
        .state
        .placed(s.state.card_by_id("us-u01").unwrap())
        .is_none());
    assert_eq!(s.state.step, Step::DeployMove);
}

#[test]
fn issue_4_a_killed_game_resumes_with_every_committed_action() {
    let (mut s, path, catalogue) = journalled_at_deploy("resume");
    s.on_table_event(&placed("us-u01", (1, 2)));
    s.on_table_event(&placed("ss-u04", (1, 5)));
    s.on_table_event(&placed("us-r01", (0, 2)));
    s.undo();
    s.on_table_event(&placed("us-r02", (0, 2)));
    let before = s.state.placed.clone();
    let turn = s.state.actor();
    drop(s); // the process dies here: nothing but the journal survives
    let (resumed, warning) = Session::resume(&path, catalogue).unwrap();
    assert!(warning.is_none());
    assert_eq!(resumed.state.placed, before);
    assert_eq!(resumed.state.actor(), turn);
    crate::table::journal::remove_with_lock(&path);
}

#[test]
fn issue_4_an_overruled_change_is_journalled_and_resumed() {
    let (mut s, path, catalogue) = journalled_at_deploy("overrule");
    s.on_table_event(&placed("us-u01", (1, 4)));
    assert_eq!(s.questions.len(), 1);
    s.overrule_question(0);
    let before = s.state.placed.clone();
    drop(s);
    let (resumed, _) = Session::resume(&path, catalogue).unwrap();
    assert_eq!(resumed.state.placed, before);
    crate::table::journal::remove_with_lock(&path);
}

#[test]
fn a_journal_whose_set_up_cannot_be_dealt_names_its_file_and_line() {
    let five = Header {
        players: vec![
            Faction::Us,
            Faction::Ss,
            Faction::Uk,
            Faction::Wh,
            Faction::Us,
        ],
        ..header(true)
    };
    let unknown_card = Header {
        stacked_decks: vec![vec!["no-such-card".into()], vec![]],
        ..header(true)
    };
    let none = Header {
        players: vec![],
        ..header(true)
    };
    for (name, bad) in [("five", five), ("unknown", unknown_card), ("none", none)] {
        let path = std::env::temp_dir().join(format!(
            "arbiter-bad-setup-{name}-{}.jsonl",
            std::process::id()
        ));
        let line = serde_json::to_string(&bad).unwrap();
        std::fs::write(&path, format!("{line}\n")).unwrap();
        let err = match Session::resume(&path, Arc::new(Catalogue::demo())) {
            Ok(_) => panic!("{name}: a set-up the engine refuses was resumed"),
            Err(e) => format!("{e:#}"),
        };
        assert!(
            err.contains(&format!("{}:1:", path.display())),
            "{name}: {err}"
        );
        crate::table::journal::remove_with_lock(&path);
    }
}
