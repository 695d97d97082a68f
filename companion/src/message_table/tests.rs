//! The table session (sightings → tracker → tally → announcements) and the panel through
//! egui_kittest.

use super::panel::MessageTableApp;
use super::session::{Change, Correction, TableSession, UndoRefused};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use message::tally::Announcement;
use message::{Catalogue, Colour, Identity, Profile};
use std::sync::Arc;
use vision::games::message::{SeatCard, SeatRegion, SeatRegions};

/// Four seats side by side, 100 px wide each.
fn regions() -> SeatRegions {
    SeatRegions {
        image_size: [400, 100],
        seats: (0..4)
            .map(|i| {
                let x = i as f32 * 100.0;
                SeatRegion {
                    polygon: vec![[x, 0.0], [x + 100.0, 0.0], [x + 100.0, 100.0], [x, 100.0]],
                    seat_card: None,
                }
            })
            .collect(),
    }
}

/// A card read at `x` (seat = x / 100), named or only coloured.
fn card(x: f32, colour: Colour, named: bool) -> SeatCard {
    let r = regions();
    let center = [x, 50.0];
    SeatCard {
        seat: r.seat_of(center),
        face: named.then(|| format!("lock-{colour:?}").to_lowercase()),
        colour: Some(colour),
        pixel_colour: Some((colour, 0.9)),
        center,
        corners: [
            [x - 8.0, 40.0],
            [x + 8.0, 40.0],
            [x + 8.0, 60.0],
            [x - 8.0, 60.0],
        ],
        covered: false,
        confidence: if named { 0.9 } else { 0.0 },
    }
}

fn run(session: &mut TableSession, cards: &[SeatCard], frames: u64) -> Vec<Change> {
    (0..frames)
        .flat_map(|i| session.see(session.frames + i, cards.to_vec(), false))
        .collect()
}

fn announcements(changes: &[Change]) -> Vec<Announcement> {
    changes
        .iter()
        .filter_map(|c| match c {
            Change::Announce(s) => Some(s.announcement.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn message_table_tally_counts_each_seat_after_stable_frames() {
    let mut s = TableSession::new(regions(), Profile::default());
    // Two black 锁定 copies in seat 2 (same face: both count), one red in seat 1 only by colour.
    let cards = [
        card(20.0, Colour::Red, false),
        card(120.0, Colour::Black, true),
        card(150.0, Colour::Black, true),
    ];
    let early = run(&mut s, &cards, 2);
    assert!(early.is_empty(), "not stable yet: {early:?}");
    let changes = run(&mut s, &cards, 1);
    assert_eq!(s.tallies[0].red, 1);
    assert_eq!(s.tallies[1].black, 2, "copies of one face are two cards");
    assert_eq!(changes.len(), 2, "{changes:?}");
    // A hand over the table (a covered card with no card beside it) commits nothing.
    let mut hand = card(320.0, Colour::Blue, true);
    hand.covered = true;
    let more = [cards.to_vec(), vec![card(250.0, Colour::Blue, true), hand]].concat();
    assert!(run(&mut s, &more, 5).is_empty());
    assert_eq!(s.tallies[2].blue, 0);
}

#[test]
fn message_table_death_announced_at_three_black_once() {
    let mut s = TableSession::new(regions(), Profile::default());
    let two = [
        card(110.0, Colour::Black, true),
        card(140.0, Colour::Black, true),
    ];
    assert!(announcements(&run(&mut s, &two, 4)).is_empty());
    let three = [two.to_vec(), vec![card(170.0, Colour::Black, false)]].concat();
    let said = announcements(&run(&mut s, &three, 4));
    assert_eq!(said, vec![Announcement::Death { seat: 1 }]);
    assert!(
        announcements(&run(&mut s, &three, 4)).is_empty(),
        "said once"
    );
    assert!(s.said[0].text.zh.contains("死亡"), "{:?}", s.said[0]);
    assert!(s.said[0].rule.to_string().contains("死亡"));
}

#[test]
fn message_table_possible_victory_at_three_red_or_blue_asks_for_identity() {
    let mut s = TableSession::new(regions(), Profile::default());
    let cards = [
        card(10.0, Colour::Red, true),
        card(40.0, Colour::Red, true),
        card(70.0, Colour::Red, false),
        card(310.0, Colour::Blue, true),
        card(340.0, Colour::Blue, true),
        card(370.0, Colour::Blue, true),
    ];
    let said = announcements(&run(&mut s, &cards, 3));
    assert_eq!(
        said,
        vec![
            Announcement::PossibleVictory {
                seat: 0,
                identity: Identity::Lurker
            },
            Announcement::PossibleVictory {
                seat: 3,
                identity: Identity::Bureau
            },
        ]
    );
    assert!(s.said[0].text.zh.contains("请亮出身份"), "{:?}", s.said[0]);
}

#[test]
fn message_table_profile_death_before_win_silences_a_dying_winner() {
    // Seat 1 reaches three black and three red in the same commit.
    let cards: Vec<SeatCard> = [0.0, 12.0, 24.0]
        .iter()
        .map(|x| card(5.0 + x, Colour::Black, true))
        .chain(
            [50.0, 62.0, 74.0]
                .iter()
                .map(|x| card(*x, Colour::Red, true)),
        )
        .collect();
    let mut on = TableSession::new(
        regions(),
        Profile {
            death_before_win: true,
            ..Profile::default()
        },
    );
    assert_eq!(
        announcements(&run(&mut on, &cards, 3)),
        vec![Announcement::Death { seat: 0 }]
    );
    let mut off = TableSession::new(
        regions(),
        Profile {
            death_before_win: false,
            ..Profile::default()
        },
    );
    let said = announcements(&run(&mut off, &cards, 3));
    assert_eq!(
        said,
        vec![
            Announcement::PossibleVictory {
                seat: 0,
                identity: Identity::Lurker
            },
            Announcement::Death { seat: 0 },
        ],
        "message.death_before_win = false: the victory is asked first"
    );
}

fn harness(app: MessageTableApp) -> Harness<'static, MessageTableApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1920.0, 1080.0))
        .build_ui_state(|ui, app: &mut MessageTableApp| app.show(ui), app);
    h.run();
    assert!(
        !h.state().log.iter().any(|l| l.contains("CJK")),
        "fonts-noto-cjk is installed by scripts/setup.sh"
    );
    h
}

fn app() -> MessageTableApp {
    let cat = Arc::new(Catalogue::shipped().expect("shipped"));
    MessageTableApp::new(
        TableSession::new(regions(), Profile::default()),
        None,
        cat,
        None,
    )
}

#[test]
fn message_table_panel_rules_an_entered_chain_and_shows_a_death() {
    let mut app = app();
    let black = [
        card(210.0, Colour::Black, true),
        card(240.0, Colour::Black, true),
        card(270.0, Colour::Black, true),
    ];
    for i in 0..3 {
        app.session.see(i, black.to_vec(), false);
    }
    let mut h = harness(app);
    // In the announcements and, as the latest, in large type on top.
    assert_eq!(h.query_all_by_label_contains("玩家3有3张假情报").count(), 2);
    // The seed's example on four seats: 1 sends 密电, 2 intercepts, 4 intercepts last: 4 receives.
    for r in ["2:截获", "4:截获"] {
        h.get_by_role(egui::accesskit::Role::TextInput).click();
        h.run();
        h.get_by_role(egui::accesskit::Role::TextInput).type_text(r);
        h.run();
        h.get_by_label("添加 Add").click();
        h.run();
    }
    assert_eq!(h.state().chain.responses, vec!["2:截获", "4:截获"]);
    h.get_by_label("裁定 Rule").click();
    h.run();
    let ruling = h.state().chain.ruling.clone().expect("ruled").expect("ok");
    assert_eq!(ruling.receiver, 3);
    h.get_by_label_contains("→ 玩家4获得情报");
    assert!(
        h.query_all_by_label_contains("后发先至").count() >= 1,
        "the rule is cited"
    );
}

/// Clicks at a point of the camera image (image pixels), through the view's scale.
fn click_image(h: &Harness<'static, MessageTableApp>, p: [f32; 2], size: [f32; 2]) {
    let rect = h.get_by_label("摄像头画面 camera view").rect();
    let pos = rect.min
        + egui::vec2(
            p[0] * rect.width() / size[0],
            p[1] * rect.height() / size[1],
        );
    h.event(egui::Event::PointerMoved(pos));
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::default(),
        });
    }
}

#[test]
fn message_table_panel_seat_regions_are_clicked_once_and_saved() {
    let dir = std::env::temp_dir().join(format!("msg-panel-seats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("seats.json");
    let cat = Arc::new(Catalogue::shipped().expect("shipped"));
    let session = TableSession::new(SeatRegions::default(), Profile::default());
    let mut app = MessageTableApp::new(session, None, cat, Some(path.clone()));
    let size = [300.0, 100.0];
    app.set_image([300, 100], vec![90; 300 * 100 * 3]);
    let mut h = harness(app);
    h.get_by_label("设定座位区域 Set seat regions").click();
    h.run();
    assert_eq!(h.state().editing, Some(0));
    for seat in 0..3 {
        let x = seat as f32 * 100.0;
        for p in [
            [x + 5.0, 5.0],
            [x + 95.0, 5.0],
            [x + 95.0, 95.0],
            [x + 5.0, 95.0],
        ] {
            click_image(&h, p, size);
            h.run();
        }
        let label = if seat == 2 {
            "完成 Done"
        } else {
            "下一位 Next seat"
        };
        h.get_by_label(label).click();
        h.run();
    }
    assert_eq!(h.state().editing, None);
    let saved = SeatRegions::load(&path).expect("saved once, read back");
    assert_eq!(saved.seats.len(), 3);
    assert_eq!(saved.image_size, [300, 100]);
    assert_eq!(saved.seat_of([150.0, 50.0]), Some(1));
    assert_eq!(saved.seat_of([250.0, 50.0]), Some(2));
    assert_eq!(h.state().session.regions, saved);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn message_table_a_fanned_row_is_not_a_hand_but_an_unreadable_card_is_reported() {
    // Two cards side by side, the first partly under the second: cards cover cards by design.
    let mut under = card(120.0, Colour::Red, true);
    under.covered = true;
    let row = [under, card(130.0, Colour::Blue, true)];
    assert!(!vision::games::message::hand_over_table(&row));
    // A card with neither a name nor a colour: said once, in its seat.
    let mut blank = card(320.0, Colour::Black, false);
    blank.colour = None;
    blank.pixel_colour = None;
    let mut s = TableSession::new(regions(), Profile::default());
    let changes = run(&mut s, &[blank], 6);
    let unreadable: Vec<&Change> = changes
        .iter()
        .filter(|c| matches!(c, Change::Unreadable { .. }))
        .collect();
    assert_eq!(unreadable, vec![&Change::Unreadable { seat: 3 }]);
    assert_eq!(s.tallies[3], message::tally::SeatTally::default());
}

/// A patterned table (checks, bricks) gives covered outlines with neither a name nor a colour: they
/// do not stop the count as a hand would; a named card partly hidden with nothing beside it does.
#[test]
fn message_table_a_blank_covered_outline_is_not_a_hand() {
    let mut square = card(250.0, Colour::Black, false);
    square.colour = None;
    square.pixel_colour = None;
    square.covered = true;
    let red = card(120.0, Colour::Red, true);
    assert!(!vision::games::message::hand_over_table(&[
        square.clone(),
        red.clone()
    ]));
    let mut s = TableSession::new(regions(), Profile::default());
    run(&mut s, &[square, red.clone()], 6);
    assert_eq!(s.tallies[1].red, 1, "counted through the table's pattern");
    let mut under_hand = card(320.0, Colour::Black, true);
    under_hand.covered = true;
    assert!(vision::games::message::hand_over_table(&[red, under_hand]));
}

#[test]
fn message_table_correction_adds_a_black_card_and_death_is_announced() {
    // 风声规则 死亡: the camera sees two black in seat 2; the third lies fanned under another card.
    let mut s = TableSession::new(regions(), Profile::default());
    let two = [
        card(110.0, Colour::Black, true),
        card(140.0, Colour::Black, true),
    ];
    assert!(announcements(&run(&mut s, &two, 4)).is_empty());
    let changes = s.correct(1, Colour::Black, 1);
    assert_eq!(
        announcements(&changes),
        vec![Announcement::Death { seat: 1 }]
    );
    assert_eq!(s.camera[1].black, 2, "the camera's own count is kept");
    assert_eq!(s.tallies[1].black, 3);
    assert!(s.is_dead(1));
    // Below zero is refused: seat 1 has no blue.
    assert!(s.correct(0, Colour::Blue, -1).is_empty());
    assert_eq!(s.corrections[0], Correction::default());
}

#[test]
fn message_table_correction_survives_further_camera_frames() {
    let mut s = TableSession::new(regions(), Profile::default());
    let cards = [
        card(310.0, Colour::Red, true),
        card(340.0, Colour::Red, true),
    ];
    run(&mut s, &cards, 3);
    // The camera read a blue card as red: one red less, one blue more.
    s.correct(3, Colour::Red, -1);
    s.correct(3, Colour::Blue, 1);
    let later = run(&mut s, &cards, 10);
    assert!(
        !later.iter().any(|c| matches!(c, Change::Tally { .. })),
        "{later:?}"
    );
    assert_eq!((s.tallies[3].red, s.tallies[3].blue), (1, 1));
    // A third red the camera sees later adds to the corrected count: 2 red, not 3 (no victory).
    let three = [cards.to_vec(), vec![card(370.0, Colour::Red, true)]].concat();
    assert!(announcements(&run(&mut s, &three, 4)).is_empty());
    assert_eq!((s.camera[3].red, s.tallies[3].red), (3, 2));
    // Cleared: the camera's count again, and the victory it now shows is asked.
    let said = announcements(&s.clear_correction(3));
    assert_eq!(
        said,
        vec![Announcement::PossibleVictory {
            seat: 3,
            identity: Identity::Lurker
        }]
    );
    assert_eq!(s.tallies[3], s.camera[3]);
}

#[test]
fn message_table_death_dead_seat_stays_dead_when_its_cards_leave_the_table() {
    let mut s = TableSession::new(regions(), Profile::default());
    let three = [
        card(110.0, Colour::Black, true),
        card(140.0, Colour::Black, true),
        card(170.0, Colour::Black, true),
    ];
    run(&mut s, &three, 4);
    assert!(s.is_dead(1));
    // 手牌和情报放入弃牌堆: the cards go; the seat stays dead, said once.
    let gone = run(&mut s, &[], 8);
    assert_eq!(s.tallies[1].black, 0);
    assert!(s.is_dead(1));
    assert_eq!(s.dead[1].map(|t| t.black), Some(3));
    assert!(announcements(&gone).is_empty());
    // A dead seat's later cards are not announced (three red in front of it: no victory asked).
    let red = [
        card(110.0, Colour::Red, true),
        card(140.0, Colour::Red, true),
        card(170.0, Colour::Red, true),
    ];
    assert!(announcements(&run(&mut s, &red, 4)).is_empty());
    assert_eq!(s.said.len(), 1);
}

#[test]
fn message_table_death_undo_needs_the_tally_below_three_black() {
    let mut s = TableSession::new(regions(), Profile::default());
    let three = [
        card(210.0, Colour::Black, true),
        card(240.0, Colour::Black, true),
        card(270.0, Colour::Black, false),
    ];
    run(&mut s, &three, 4);
    assert!(s.is_dead(2));
    assert_eq!(
        s.undo_death(2),
        Err(UndoRefused::StillThreeBlack { seat: 2, black: 3 }),
        "it would die again at once"
    );
    assert_eq!(s.undo_death(0), Err(UndoRefused::NotDead { seat: 0 }));
    // One of the three was misread as black.
    s.correct(2, Colour::Black, -1);
    assert!(s.is_dead(2), "a correction alone does not raise the dead");
    let changes = s.undo_death(2).expect("undone");
    assert_eq!(changes, vec![Change::DeathUndone { seat: 2 }]);
    assert!(!s.is_dead(2));
    assert!(s.said.is_empty(), "the mistaken death is taken back");
    // A real third black later: announced again.
    let four = [three.to_vec(), vec![card(290.0, Colour::Black, true)]].concat();
    assert_eq!(
        announcements(&run(&mut s, &four, 4)),
        vec![Announcement::Death { seat: 2 }]
    );
}

#[test]
fn message_table_panel_corrects_a_seat_and_undoes_a_death() {
    let mut app = app();
    let two = [
        card(10.0, Colour::Black, true),
        card(40.0, Colour::Black, true),
    ];
    for i in 0..3 {
        app.session.see(i, two.to_vec(), false);
    }
    let mut h = harness(app);
    assert!(h.query_by_label_contains("死亡 dead").is_none());
    h.get_by_label("玩家1 黑 +1").click();
    h.run();
    assert_eq!(h.state().session.tallies[0].black, 3);
    h.get_by_label_contains("死亡 dead");
    assert!(h.query_all_by_label_contains("玩家1有3张假情报").count() >= 1);
    h.get_by_label_contains("已修正 corrected 红+0蓝+0黑+1");
    h.get_by_label_contains("摄像头 camera 红0蓝0黑2");
    // More frames: the correction stays.
    for i in 3..8 {
        h.state_mut().session.see(i, two.to_vec(), false);
    }
    h.run();
    assert_eq!(h.state().session.tallies[0].black, 3);
    // Undo is refused while three black show, then allowed once corrected back.
    h.get_by_label("撤销玩家1死亡 undo seat 1 death").click();
    h.run();
    assert!(h.state().session.is_dead(0));
    assert!(h
        .state()
        .log
        .last()
        .is_some_and(|l| l.contains("仍有3张黑情报")));
    h.get_by_label("清除玩家1修正 clear seat 1 correction")
        .click();
    h.run();
    assert_eq!(h.state().session.corrections[0], Correction::default());
    h.get_by_label("撤销玩家1死亡 undo seat 1 death").click();
    h.run();
    assert!(!h.state().session.is_dead(0));
    assert!(h.query_by_label_contains("死亡 dead").is_none());
    assert!(h.query_by_label_contains("已修正 corrected").is_none());
}

/// Confirming every count: the third black card waits with the seat's count before and after; "not
/// this" keeps the count (and does not offer it again while the table stays so), OK (Enter) takes
/// it and the death is announced.
#[test]
fn message_table_confirms_the_cameras_count_before_taking_it() {
    use crate::live::confirm::Confirm;
    let mut s = TableSession::new(regions(), Profile::default());
    let two = [
        card(110.0, Colour::Black, true),
        card(140.0, Colour::Black, true),
    ];
    run(&mut s, &two, 4);
    assert_eq!(s.tallies[1].black, 2);
    s.set_confirm(Confirm::Every);
    let three = [two.to_vec(), vec![card(170.0, Colour::Black, true)]].concat();
    assert!(run(&mut s, &three, 4).is_empty(), "nothing taken before OK");
    let held = s.held.as_ref().expect("held");
    assert_eq!(
        held.understood,
        vec!["座位 2：红0 蓝0 黑2 → 红0 蓝0 黑3 / seat 2: 0 red, 0 blue, 2 black → 0 red, 0 blue, 3 black"]
    );
    let cat = Arc::new(Catalogue::shipped().expect("shipped"));
    let mut h = harness(MessageTableApp::new(s, None, cat, None));
    assert!(h.query_by_label_contains("看到 Seen").is_some());
    h.get_by_label("不采纳 Not this").click();
    h.run();
    let s = &mut h.state_mut().session;
    assert!(run(s, &three, 4).is_empty());
    assert!(
        s.held.is_none(),
        "not offered again while the table stays so"
    );
    assert_eq!(s.tallies[1].black, 2);
    // The card taken up and laid again: offered again, then OK.
    run(s, &two, 8);
    run(s, &three, 4);
    assert!(s.held.is_some());
    h.key_press(egui::Key::Enter);
    h.run();
    let app = h.state();
    assert_eq!(app.session.tallies[1].black, 3);
    assert!(app.session.said.iter().any(|x| x.text.zh.contains("死亡")));
    assert!(app.log.iter().any(|l| l.contains("死亡")), "{:?}", app.log);
}

/// First round: after as many counts as seats the panel asks whether to go on confirming.
#[test]
fn message_table_asks_after_the_first_round_whether_to_go_on_confirming() {
    use crate::live::confirm::Confirm;
    let mut s = TableSession::new(regions(), Profile::default());
    for x in [10.0, 110.0, 210.0, 310.0] {
        run(&mut s, &[card(x, Colour::Red, true)], 4);
    }
    s.set_confirm(Confirm::FirstRound);
    assert_eq!(s.round(), 2);
    let cat = Arc::new(Catalogue::shipped().expect("shipped"));
    let mut h = harness(MessageTableApp::new(s, None, cat, None));
    h.get_by_label("继续确认 Keep confirming").click();
    h.run();
    assert_eq!(h.state().session.confirm, Confirm::Every);
    assert!(h.query_by_label("继续确认 Keep confirming").is_none());
}

/// A frame in which the camera saw a hand commits nothing: the cards it hides are not taken off
/// the table, however long it stays. Without the hand seen, the same frames take them off.
#[test]
fn message_table_a_hand_seen_over_the_table_commits_nothing() {
    let cards = [
        card(50.0, Colour::Black, true),
        card(150.0, Colour::Red, true),
    ];
    let under_a_hand = [card(50.0, Colour::Black, true)];
    let counted = |session: &TableSession| {
        session
            .camera
            .iter()
            .map(|t| usize::from(t.red + t.blue + t.black))
            .sum::<usize>()
    };
    let mut held = TableSession::new(regions(), Profile::default());
    let mut taken = TableSession::new(regions(), Profile::default());
    for session in [&mut held, &mut taken] {
        run(session, &cards, 8);
        assert_eq!(counted(session), 2);
    }
    for i in 0..12 {
        held.see(held.frames + i, under_a_hand.to_vec(), true);
        taken.see(taken.frames + i, under_a_hand.to_vec(), false);
    }
    assert!(held.last_hand);
    assert_eq!(counted(&held), 2, "a card under the hand was taken off");
    assert_eq!(
        counted(&taken),
        1,
        "a card gone with no hand in view stays on"
    );
}

/// The camera's hand watch sees the hand the synthetic game draws over a 风声 table (skin where the
/// table changed), and no hand before it comes.
#[test]
fn message_table_the_hand_watch_sees_a_hand_over_a_synthetic_table() {
    let cat = Catalogue::shipped().expect("shipped");
    let mut game = super::feed::SyntheticGame::new(&cat, 7, Some("k,r,u")).expect("game");
    game.size = (640, 360);
    let laid = game.frames();
    game.hand_from = Some(laid - 4);
    let mut watch = vision::hands::HandWatch::default();
    let seen: Vec<bool> = (0..laid)
        .map(|i| {
            let frame = game.frame(i).expect("frame");
            watch.hand_in_view(&frame.image).expect("hand watch")
        })
        .collect();
    let (before, after) = seen.split_at((laid - 4) as usize);
    assert!(
        before.iter().all(|h| !h),
        "a hand seen before it came: {seen:?}"
    );
    assert!(
        after.iter().filter(|h| **h).count() >= 3,
        "the hand over the table not seen: {seen:?}"
    );
}
