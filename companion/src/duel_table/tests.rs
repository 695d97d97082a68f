//! The Duel table: reading → keys → snapshot, the adapter's readings of table changes, the stack
//! and priority view, and the panel (egui_kittest).

use super::adapter::TableGame;
use super::feed::{sightings, snapshot, SideSnapshot, TableSnapshot};
use super::panel::DuelTableApp;
use super::session::TableSession;
use crate::live::confirm::Confirm;
use crate::live::tracker::{Tracker, TrackerConfig};
use duel::state::Territory;
use duel::{CardId, Phase, Seat};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use vision::games::duel::{DuelTableView, SlotSeen, TerritorySeen};

fn game() -> TableGame {
    TableGame::demo(1).expect("demo game")
}

/// Moves an instance of `key` from `seat`'s library or hand into its territories.
fn give_land(g: &mut TableGame, seat: Seat, key: &str, face_up: bool) -> CardId {
    let s = &mut g.state;
    let def = s.catalogue.find(key).unwrap();
    let c = s.reveal_in_hand(seat, def).expect("in the deck");
    s.players[seat].hand.retain(|&x| x != c);
    s.players[seat].territories.push(Territory {
        card: c,
        face_up,
        tapped: false,
    });
    c
}

fn near(territories: &[(&str, bool)], slots: &[(usize, &str, bool)]) -> TableSnapshot {
    let mut side = SideSnapshot::default();
    for (id, tapped) in territories {
        let card = (*id != "back").then(|| id.to_string());
        side.territories.push((card, *tapped));
    }
    for (slot, id, tapped) in slots {
        side.slots[*slot] = Some((id.to_string(), *tapped));
    }
    TableSnapshot {
        near: side,
        far: SideSnapshot::default(),
    }
}

#[test]
fn table_territory_appearing_is_a_territory_play_face_up_or_down() {
    let mut g = game();
    g.sync(&near(&[("wei-land", false)], &[]));
    let t = &g.state.players[0].territories;
    assert_eq!(t.len(), 1);
    assert!(t[0].face_up);
    assert_eq!(g.state.def(t[0].card).id, "wei-land");
    // Next turn of the near player: a card back appears beside it.
    let mut g2 = game();
    g2.sync(&near(&[("back", false)], &[]));
    assert!(!g2.state.players[0].territories[0].face_up);
}

#[test]
fn table_unit_appearing_is_played_paid_with_the_territories_seen_tapped() {
    let mut g = game();
    g.auto_pass = true;
    g.sync(&near(&[("wei-land", false)], &[]));
    g.sync(&near(&[("wei-land", true)], &[(2, "wei-01", false)]));
    assert!(g.flags.is_empty(), "{:?}", g.flags);
    let unit = g.state.players[0].slots[2].as_ref().expect("in 陣地 3");
    assert_eq!(g.state.def(unit.card).id, "wei-01");
    assert!(g.state.players[0].territories[0].tapped);
    assert!(
        g.log.iter().any(|l| l.contains("横置 魏领土")),
        "{:?}",
        g.log
    );
}

#[test]
fn table_unit_with_a_payment_choice_asks_which_territories_pay() {
    let mut g = game();
    let lands: Vec<CardId> = (0..3)
        .map(|_| give_land(&mut g, 0, "wei-land", true))
        .collect();
    let table = |slots: &[(usize, &str, bool)]| near(&[("wei-land", false); 3], slots);
    g.sync(&table(&[(0, "wei-03", false)]));
    let w = g
        .waiting
        .clone()
        .expect("the panel must ask: 3 territories could pay 2");
    assert_eq!((w.cost, w.options.len()), (2, 3));
    assert!(g.state.stack.is_empty(), "nothing played before it is paid");
    assert!(g.pay_waiting(vec![lands[0], lands[2]]));
    let tapped: Vec<bool> = g.state.players[0]
        .territories
        .iter()
        .map(|t| t.tapped)
        .collect();
    assert_eq!(tapped, [true, false, true]);
    assert_eq!(g.state.stack.len(), 1, "the unit is on the stack");
}

#[test]
fn table_waiting_play_is_paid_by_the_territories_tapped_next() {
    let mut g = game();
    for _ in 0..3 {
        give_land(&mut g, 0, "wei-land", true);
    }
    g.sync(&near(&[("wei-land", false); 3], &[(0, "wei-03", false)]));
    assert!(g.waiting.is_some());
    g.sync(&near(
        &[("wei-land", true), ("wei-land", true), ("wei-land", false)],
        &[(0, "wei-03", false)],
    ));
    assert!(g.waiting.is_none());
    assert_eq!(g.state.stack.len(), 1);
    let tapped = g.state.players[0]
        .territories
        .iter()
        .filter(|t| t.tapped)
        .count();
    assert_eq!(tapped, 2);
}

#[test]
fn table_waiting_play_is_withdrawn_when_the_unit_is_taken_back() {
    let mut g = game();
    for _ in 0..3 {
        give_land(&mut g, 0, "wei-land", true);
    }
    g.sync(&near(&[("wei-land", false); 3], &[(0, "wei-03", false)]));
    assert!(g.waiting.is_some());
    g.sync(&near(&[("wei-land", false); 3], &[]));
    assert!(g.waiting.is_none());
    assert!(g.state.stack.is_empty() && g.state.players[0].slots[0].is_none());
}

#[test]
fn table_refused_play_is_flagged_with_its_rule_once_and_never_applied() {
    let mut g = game();
    let before = g.state.players.clone();
    for _ in 0..3 {
        g.sync(&near(&[], &[(1, "wei-01", false)]));
    }
    assert_eq!(g.flags.len(), 1, "{:?}", g.flags);
    // No territory: the first check to fail is 资源 (势力支持 before 费用).
    assert!(g.flags[0].rule.contains("资源"), "{:?}", g.flags[0]);
    assert_eq!(g.state.players[0].slots, before[0].slots);
}

/// A unit played and turned sideways the turn it entered (passes made by the engine): refused
/// under 整备, the unit cannot attack yet; the refusal names the rule.
fn attacked_the_turn_it_entered() -> TableGame {
    let mut g = game();
    g.auto_pass = true;
    g.sync(&near(&[("wei-land", false)], &[]));
    g.sync(&near(&[("wei-land", true)], &[(2, "wei-01", false)]));
    g.sync(&near(&[("wei-land", true)], &[(2, "wei-01", true)]));
    assert!(
        g.flags.iter().any(|f| f.rule.contains("整备")),
        "{:?}",
        g.flags
    );
    g
}

#[test]
fn table_unit_turned_sideways_is_an_attack_declaration() {
    let mut g = attacked_the_turn_it_entered();
    let unit = g.state.players[0].slots[2].clone().unwrap();
    assert!(!unit.tapped, "refused: not applied");
    assert_eq!(
        g.state.phase,
        Phase::Action,
        "no implied passes for a refused attack"
    );
    // A turn later it may: both sides pass to the near player's next turn.
    g.state.players[0].slots[2].as_mut().unwrap().fresh = false;
    g.auto_pass = false;
    g.sync(&near(&[("wei-land", true)], &[(2, "wei-01", true)]));
    assert_eq!(g.state.phase, Phase::Combat);
    assert!(g.state.players[0].slots[2].as_ref().unwrap().tapped);
    assert_eq!(g.stack_lines().len(), 1);
    assert!(g.stack_lines()[0].contains("攻击"), "{:?}", g.stack_lines());
}

#[test]
fn table_untap_step_is_awaited_not_read_as_an_attack() {
    let mut g = game();
    g.auto_pass = true;
    g.sync(&near(&[("wei-land", false)], &[]));
    g.sync(&near(&[("wei-land", true)], &[(2, "wei-01", false)]));
    // Far's turn goes by (implied passes when far plays a territory), then near's turn begins.
    let far_land = TableSnapshot {
        near: near(&[("wei-land", true)], &[(2, "wei-01", false)]).near,
        far: SideSnapshot {
            territories: vec![(Some("qun-land".into()), false)],
            ..SideSnapshot::default()
        },
    };
    g.sync(&far_land);
    assert_eq!(g.state.active, 1);
    for _ in 0..8 {
        if g.state.active == 0 && g.state.phase == Phase::Action {
            break;
        }
        g.pass();
    }
    assert_eq!(g.state.active, 0);
    assert!(
        !g.state.players[0].territories[0].tapped,
        "重置 untapped it"
    );
    // The table still shows the territory sideways: awaited, not a payment.
    g.sync(&far_land);
    assert!(g
        .untap_pending
        .contains(&g.state.players[0].territories[0].card));
    assert!(!g.state.players[0].slots[2].as_ref().unwrap().tapped);
}

#[test]
fn table_stack_is_shown_top_first_and_priority_passes() {
    let mut g = game();
    g.sync(&near(&[("wei-land", false)], &[]));
    g.sync(&near(&[("wei-land", true)], &[(2, "wei-01", false)]));
    assert_eq!(g.stack_lines().len(), 1);
    assert!(g.stack_lines()[0].contains("虎卫新兵"));
    let first = g.priority_holder().unwrap();
    assert!(g.pass());
    let second = g.priority_holder().unwrap();
    assert_ne!(first, second, "a pass hands priority over");
    assert!(g.pass());
    assert!(g.stack_lines().is_empty(), "both passed: the top resolved");
    assert!(g.state.players[0].slots[2].is_some());
}

#[test]
fn table_ambush_unit_appearing_while_a_play_is_on_the_stack_is_a_response() {
    let mut g = game();
    give_land(&mut g, 0, "wei-land", true);
    for _ in 0..2 {
        give_land(&mut g, 1, "qun-land", true);
    }
    let mut table = near(&[("wei-land", true)], &[(2, "wei-01", false)]);
    g.sync(&table);
    assert_eq!(g.state.stack.len(), 1);
    table.far.territories = vec![(Some("qun-land".into()), true); 2];
    table.far.slots[0] = Some(("qun-05".into(), false));
    g.sync(&table);
    assert!(g.flags.is_empty(), "{:?}", g.flags);
    assert_eq!(
        g.state.stack.len(),
        2,
        "on the stack above the near player's unit"
    );
    assert!(
        g.stack_lines()[0].contains("夺命刺客"),
        "{:?}",
        g.stack_lines()
    );
    assert!(g.stack_lines()[1].contains("虎卫新兵"));
}

#[test]
fn table_unit_killed_in_the_engine_but_still_on_the_table_is_not_played_again() {
    let mut g = game();
    g.auto_pass = true;
    give_land(&mut g, 0, "wei-land", true);
    give_land(&mut g, 1, "qun-land", true);
    let wei = g
        .state
        .reveal_in_hand(0, g.state.catalogue.find("wei-01").unwrap())
        .unwrap();
    let qun = g
        .state
        .reveal_in_hand(1, g.state.catalogue.find("qun-02").unwrap())
        .unwrap();
    for (seat, card) in [(0, wei), (1, qun)] {
        g.state.players[seat].hand.retain(|&c| c != card);
        let mut u = duel::state::Unit::new(card);
        u.fresh = false;
        g.state.players[seat].slots[2] = Some(u);
    }
    let mut table = near(&[("wei-land", false)], &[(2, "wei-01", true)]);
    table.far.territories = vec![(Some("qun-land".into()), false)];
    table.far.slots[2] = Some(("qun-02".into(), false));
    g.sync(&table);
    assert!(
        g.state.players[1].slots[2].is_none(),
        "2 damage kills 黄巾信徒 (1/2)"
    );
    let hand = g.state.players[1].hand.len();
    g.sync(&table);
    assert!(g.state.players[1].slots[2].is_none(), "not played again");
    assert_eq!(g.state.players[1].hand.len(), hand);
    assert!(g.notes.iter().any(|n| n.contains("移出")), "{:?}", g.notes);
    table.far.slots[2] = None;
    g.sync(&table);
    assert!(g.remove_pending.is_empty());
}

fn slot(card: &str, tapped: bool) -> Option<SlotSeen> {
    Some(SlotSeen {
        card: Some(card.into()),
        tapped,
        covered: false,
        confidence: 0.9,
        center: [0.0, 0.0],
    })
}

fn land_seen(card: Option<&str>, x_mm: f64, tapped: bool) -> TerritorySeen {
    TerritorySeen {
        card: card.map(str::to_string),
        face_down: card.is_none(),
        tapped,
        covered: false,
        confidence: 0.9,
        center: [0.0, 0.0],
        x_mm,
    }
}

#[test]
fn table_reading_reaches_the_adapter_through_the_tracker() {
    let mut view = DuelTableView {
        calibrated: true,
        ..DuelTableView::default()
    };
    view.near.slots[4] = slot("wei-01", true);
    view.near.territories = vec![
        land_seen(Some("wei-land"), 50.0, false),
        land_seen(None, 150.0, true),
        land_seen(Some("wei-land"), 250.0, true),
    ];
    view.far.slots[0] = slot("qun-02", false);
    let mut tracker = Tracker::new(TrackerConfig::default());
    for i in 0..4 {
        tracker.update(&sightings(&view, i));
    }
    let snap = snapshot(tracker.committed());
    assert_eq!(snap.near.slots[4], Some(("wei-01".into(), true)));
    assert_eq!(snap.far.slots[0], Some(("qun-02".into(), false)));
    assert_eq!(
        snap.near.territories,
        vec![
            (Some("wei-land".into()), false),
            (None, true),
            (Some("wei-land".into()), true)
        ]
    );
    // Without the mat nothing is placed: the frame commits nothing (cards do not "vanish").
    let lost = sightings(&DuelTableView::default(), 9);
    assert!(lost.occluded);
}

fn harness(app: DuelTableApp) -> Harness<'static, DuelTableApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1920.0, 1080.0))
        .build_ui_state(|ui, app: &mut DuelTableApp| app.show(ui), app);
    h.run();
    assert!(!h.state().font_missing, "fonts-noto-cjk is installed");
    h
}

#[test]
fn table_panel_keeps_a_refusal_on_screen_with_its_rule() {
    let g = attacked_the_turn_it_entered();
    let mut h = harness(DuelTableApp::new(TableSession::new(g), None));
    for _ in 0..5 {
        h.run();
    }
    // In the prompt bar (the latest refusal) and in the list of refusals, with its rule.
    let shown = h.query_all_by_label_contains("[整备").count();
    assert!(
        shown >= 2,
        "the refusal with its rule, in the prompt and the list: {shown}"
    );
    assert!(h.query_by_label_contains("拒绝 Refused").is_some());
}

#[test]
fn table_panel_shows_the_stack_and_the_pass_button_hands_priority_over() {
    let mut g = game();
    g.sync(&near(&[("wei-land", false)], &[]));
    g.sync(&near(&[("wei-land", true)], &[(2, "wei-01", false)]));
    let holder = g.priority_holder().unwrap();
    let mut h = harness(DuelTableApp::new(TableSession::new(g), None));
    let top = h.query_by_label_contains("顶 top: 虎卫新兵");
    assert!(top.is_some(), "the stack's top item is shown");
    assert!(h
        .query_by_label_contains(&format!("优先权 Priority: {holder}"))
        .is_some());
    h.get_by_label("让过 Pass").click();
    h.run();
    let now = h.state().session.game.priority_holder().unwrap();
    assert_ne!(now, holder);
    h.get_by_label("让过 Pass").click();
    h.run();
    assert!(h.state().session.game.state.stack.is_empty());
    assert!(h.query_by_label_contains("顶 top:").is_none());
}

#[test]
fn table_panel_pays_a_waiting_play_with_the_ticked_territories() {
    let mut g = game();
    for _ in 0..3 {
        give_land(&mut g, 0, "wei-land", true);
    }
    g.sync(&near(&[("wei-land", false); 3], &[(0, "wei-03", false)]));
    assert!(g.waiting.is_some());
    let mut h = harness(DuelTableApp::new(TableSession::new(g), None));
    let boxes: Vec<_> = h.get_all_by_label("魏领土").collect();
    assert_eq!(boxes.len(), 3, "one checkbox per territory that could pay");
    boxes[0].click();
    h.run();
    h.get_all_by_label("魏领土").nth(1).unwrap().click();
    h.run();
    h.get_by_label("支付 Pay").click();
    h.run();
    let g = &h.state().session.game;
    assert!(g.waiting.is_none(), "{:?}", g.flags);
    assert_eq!(g.state.stack.len(), 1);
}

/// A feed that only remembers the players' answer.
struct AnswerFeed(std::sync::Arc<std::sync::Mutex<Option<[f64; 2]>>>);

impl crate::panel::feed::Feed for AnswerFeed {
    fn poll(&mut self) -> crate::panel::feed::FeedStatus {
        crate::panel::feed::FeedStatus::Ended
    }
    fn describe(&self) -> String {
        "answers".into()
    }
    fn set_allied_towards(&mut self, towards: [f64; 2]) {
        *self.0.lock().unwrap() = Some(towards);
    }
}

/// A frame with a unit in the near side's 陣地 3, the 陣地 laid from the units (no mat) and the
/// near side not known.
fn unit_frame(index: u64) -> crate::panel::feed::FeedFrame {
    let mut view = DuelTableView {
        calibrated: true,
        ..DuelTableView::default()
    };
    view.near.slots[2] = Some(SlotSeen {
        card: Some("wei-01".into()),
        tapped: false,
        covered: false,
        confidence: 0.9,
        center: [640.0, 400.0],
    });
    crate::panel::feed::FeedFrame {
        image: None,
        sightings: sightings(&view, index),
        overlays: Vec::new(),
        presses: Vec::new(),
        allied_side_unknown: true,
    }
}

#[test]
fn table_panel_asks_which_side_is_near_and_commits_nothing_until_answered() {
    let mut session = TableSession::new(game());
    session.wait_for_near_side = true;
    for i in 0..8 {
        session.process(unit_frame(i));
    }
    assert!(
        session.tracker.committed().is_empty(),
        "a guessed near side commits nothing"
    );
    let answer = std::sync::Arc::new(std::sync::Mutex::new(None));
    let feed = Box::new(AnswerFeed(answer.clone()));
    let mut h = harness(DuelTableApp::new(session, Some(feed)));
    assert!(h.query_by_label_contains("近方玩家在画面哪一边").is_some());
    h.get_by_label("左 Left").click();
    h.run();
    assert_eq!(*answer.lock().unwrap(), Some([-1.0, 0.0]));
    assert!(h.query_by_label_contains("近方玩家在画面哪一边").is_none());
    let session = &mut h.state_mut().session;
    for i in 8..16 {
        session.process(unit_frame(i));
    }
    assert!(
        !session.tracker.committed().is_empty(),
        "answered, the unit is committed"
    );
}

/// While a play waits for its payment the table is read again every frame; a frame that moves
/// nothing is not journalled (and synced), and the payment still waits.
#[test]
fn table_waiting_payment_journals_only_frames_that_change_the_game() {
    let dir = std::env::temp_dir().join(format!("arbiter-duel-wait-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.jsonl");
    let mut session =
        TableSession::start(&super::session::Header::demo(1, false), Some(&path)).unwrap();
    let mut g = game();
    for _ in 0..3 {
        give_land(&mut g, 0, "wei-land", true);
    }
    session.game = g;
    let mut view = DuelTableView {
        calibrated: true,
        ..DuelTableView::default()
    };
    view.near.territories = (0..3)
        .map(|i| land_seen(Some("wei-land"), 50.0 + 100.0 * i as f64, false))
        .collect();
    view.near.slots[0] = slot("wei-03", false);
    let frame = |i| crate::panel::feed::FeedFrame {
        image: None,
        sightings: sightings(&view, i),
        overlays: Vec::new(),
        presses: Vec::new(),
        allied_side_unknown: false,
    };
    for i in 0..30 {
        session.process(frame(i));
    }
    assert!(session.game.waiting.is_some(), "{:?}", session.game.flags);
    let lines = std::fs::read_to_string(&path).unwrap().lines().count();
    assert!(lines <= 4, "{lines} journal lines for one table change");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A frame with a Wei territory in the near side's strip, face up.
fn land_frame(index: u64) -> crate::panel::feed::FeedFrame {
    let mut view = DuelTableView {
        calibrated: true,
        ..DuelTableView::default()
    };
    view.near.territories = vec![land_seen(Some("wei-land"), 50.0, false)];
    crate::panel::feed::FeedFrame {
        image: None,
        sightings: sightings(&view, index),
        overlays: Vec::new(),
        presses: Vec::new(),
        allied_side_unknown: false,
    }
}

/// Confirming every change: the territory the camera saw waits with what it understood; "not this"
/// leaves the game as it was, OK (Enter) plays it; after round 1 the panel asks whether to go on.
#[test]
fn table_panel_confirms_what_the_camera_saw_before_the_game_takes_it() {
    let mut session = TableSession::new(game());
    session.confirm = Confirm::Every;
    for i in 0..8 {
        session.process(land_frame(i));
    }
    let held = session.held.as_ref().expect("held for the players");
    assert!(
        held.understood
            .iter()
            .any(|l| l.contains("明置领土 魏领土")),
        "{:?}",
        held.understood
    );
    assert!(session.game.state.players[0].territories.is_empty());
    let mut h = harness(DuelTableApp::new(session, None));
    assert!(h.query_by_label_contains("看到 Seen").is_some());
    h.get_by_label("不采纳 Not this").click();
    h.run();
    assert!(h.state().session.held.is_none());
    assert!(h.state().session.game.state.players[0]
        .territories
        .is_empty());
    // The card taken up and laid again: the camera sees the table change, held again, then OK.
    let session = &mut h.state_mut().session;
    for i in 8..20 {
        session.process(crate::panel::feed::FeedFrame {
            sightings: sightings(
                &DuelTableView {
                    calibrated: true,
                    ..DuelTableView::default()
                },
                i,
            ),
            ..land_frame(i)
        });
    }
    for i in 20..30 {
        session.process(land_frame(i));
    }
    assert!(h.state().session.held.is_some());
    h.key_press(egui::Key::Enter);
    h.run();
    let session = &h.state().session;
    assert!(session.held.is_none());
    assert_eq!(session.game.state.players[0].territories.len(), 1);
    // Stable: the same table is taken without asking.
    let mut stable = TableSession::new(game());
    for i in 0..8 {
        stable.process(land_frame(i));
    }
    assert!(stable.held.is_none());
    assert_eq!(stable.game.state.players[0].territories.len(), 1);
}

#[test]
fn table_panel_asks_after_round_one_whether_to_go_on_confirming() {
    let mut session = TableSession::new(game());
    session.confirm = Confirm::FirstRound;
    session.game.state.turn = 3;
    let mut h = harness(DuelTableApp::new(session, None));
    h.get_by_label("稳定后自动提交 Commit once stable").click();
    h.run();
    assert_eq!(h.state().session.confirm, Confirm::Stable);
    assert!(h
        .query_by_label("稳定后自动提交 Commit once stable")
        .is_none());
}

/// A journalled demo game (in a fresh folder named after `name`) confirming every change, with
/// the near side's Wei territory seen and held: (folder, journal, session).
fn journalled_land_held(name: &str) -> (std::path::PathBuf, std::path::PathBuf, TableSession) {
    let dir = std::env::temp_dir().join(format!("arbiter-duel-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.jsonl");
    let mut session =
        TableSession::start(&super::session::Header::demo(1, false), Some(&path)).unwrap();
    session.set_confirm(Confirm::Every);
    for i in 0..8 {
        session.process(land_frame(i));
    }
    (dir, path, session)
}

/// The policy the players chose is journalled: a resumed game keeps it; a held table is not in
/// the journal until OK.
#[test]
fn table_confirmation_policy_is_journalled_and_resumed() {
    let (dir, path, mut session) = journalled_land_held("confirm");
    assert!(session.held.is_some());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("Confirm"), "{text}");
    assert!(
        !text.contains("Table"),
        "a held table is journalled: {text}"
    );
    session.confirm_held();
    drop(session);
    let (resumed, _, _) = TableSession::resume(&path).unwrap();
    assert_eq!(resumed.confirm, Confirm::Every);
    assert_eq!(resumed.game.state.players[0].territories.len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The game's position in words: the states of two sessions hold two copies of the catalogue.
fn position(g: &TableGame) -> String {
    let s = &g.state;
    format!(
        "{:?}",
        (
            (&s.cards, &s.players, s.turn, s.active, s.phase, s.priority),
            (s.passes, &s.stack, &s.exile, &s.pending, &s.outcome),
            (&g.waiting, &g.flags.len()),
        )
    )
}

/// The journal's lines.
fn journal_lines(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().map(str::to_string).collect()
}

/// The scripted demo table (seed 3), rendered and read by the Duel scanner: each frame's
/// sightings, as `duel table --source synthetic:3` reads them.
fn scripted_sightings() -> Vec<crate::live::tracker::FrameSightings> {
    let spec = crate::table::source::SourceSpec::Synthetic(Some(3));
    let mut feed = super::run::open_source(&spec, None, &duel::Catalogue::demo(), None)
        .expect("the scripted table");
    let mut out = Vec::new();
    loop {
        match crate::panel::feed::Feed::poll(&mut feed) {
            crate::panel::feed::FeedStatus::Frame(f) => out.push(f.sightings),
            crate::panel::feed::FeedStatus::Lost(why) => panic!("{why}"),
            crate::panel::feed::FeedStatus::Ended => return out,
        }
    }
}

/// A session fed `frames` after the last table its journal holds.
fn play_on(session: &mut TableSession, frames: &[crate::live::tracker::FrameSightings]) {
    let after = session.last_frame;
    for f in frames
        .iter()
        .filter(|f| after.is_none_or(|last| f.index > last))
    {
        session.process(crate::panel::feed::FeedFrame {
            image: None,
            sightings: f.clone(),
            overlays: Vec::new(),
            presses: Vec::new(),
            allied_side_unknown: false,
        });
    }
}

/// The first `keep` lines of `lines` as the journal at `path`, resumed and played on.
fn resume_cut(
    lines: &[String],
    keep: usize,
    path: &std::path::Path,
    frames: &[crate::live::tracker::FrameSightings],
) -> TableSession {
    std::fs::write(path, lines[..keep].join("\n") + "\n").unwrap();
    let (mut resumed, _, _) = TableSession::resume(path).unwrap();
    play_on(&mut resumed, frames);
    resumed
}

/// The scripted game killed after any journal line and resumed, then killed again after any line
/// the resumed run wrote and resumed again, ends as the uninterrupted game, log line for line: each
/// resumed session reads the frames after its journal's last table as the killed one would have.
/// (A fresh tracker committed the table again a few frames later, card by card as each steadied;
/// a kill just then left a table without its territories, and the next play lost its taps.)
#[test]
fn table_killed_after_any_journal_lines_twice_ends_as_the_uninterrupted_game() {
    let dir = std::env::temp_dir().join(format!("arbiter-duel-cut-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let frames = scripted_sightings();
    let header = super::session::Header::demo(1, true);
    let whole = dir.join("whole.jsonl");
    let mut want = TableSession::start(&header, Some(&whole)).unwrap();
    play_on(&mut want, &frames);
    assert!(
        want.game.log.iter().any(|l| l.contains("攻击")),
        "the scripted game reaches its attack: {:?}",
        want.game.log
    );
    let lines = journal_lines(&whole);
    for first in 1..=lines.len() {
        let once = dir.join("once.jsonl");
        let resumed = resume_cut(&lines, first, &once, &frames);
        let case = format!("cut after line {first}");
        assert_eq!(resumed.game.log, want.game.log, "{case}");
        assert_eq!(position(&resumed.game), position(&want.game), "{case}");
        drop(resumed);
        let again = journal_lines(&once);
        for second in first + 1..=again.len() {
            let twice = resume_cut(&again, second, &dir.join("twice.jsonl"), &frames);
            let case = format!("{case}, then after line {second}");
            assert_eq!(twice.game.log, want.game.log, "{case}");
            assert_eq!(position(&twice.game), position(&want.game), "{case}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The camera reads a face-down territory as a face-up Wei territory: the players correct it in
/// the held table, the game takes the corrected table, the same misreading later changes nothing,
/// and a resumed game keeps the correction.
#[test]
fn table_correction_is_taken_kept_for_later_frames_and_resumed() {
    use super::correct::{Correction, Place};
    use vision::types::DuelSide;
    let (dir, path, mut session) = journalled_land_held("correct");
    session.correct_held(Correction {
        side: DuelSide::Near,
        place: Place::Territory(0),
        seen: Some("wei-land".into()),
        card: None,
    });
    let held = session
        .held
        .as_ref()
        .expect("the corrected table is held for OK");
    assert!(
        held.understood.iter().any(|l| l.contains("face down")),
        "{:?}",
        held.understood
    );
    session.confirm_held();
    let face_down = |s: &TableSession| {
        let t = &s.game.state.players[0].territories;
        (t.len(), t.iter().filter(|t| !t.face_up).count())
    };
    assert_eq!(face_down(&session), (1, 1));
    // The card taken up and laid again, misread the same way: nothing to ask, nothing changes.
    let empty = |i| crate::panel::feed::FeedFrame {
        sightings: sightings(
            &DuelTableView {
                calibrated: true,
                ..DuelTableView::default()
            },
            i,
        ),
        ..land_frame(i)
    };
    for i in 8..20 {
        session.process(empty(i));
    }
    for i in 20..30 {
        session.process(land_frame(i));
    }
    assert!(session.held.is_none(), "{:?}", session.held);
    assert_eq!(face_down(&session), (1, 1));
    let before = position(&session.game);
    drop(session);
    let (mut resumed, _, _) = TableSession::resume(&path).unwrap();
    assert_eq!(resumed.corrections.len(), 1);
    assert_eq!(position(&resumed.game), before);
    for i in 30..40 {
        resumed.process(land_frame(i));
    }
    assert!(resumed.held.is_none(), "{:?}", resumed.held);
    assert_eq!(face_down(&resumed), (1, 1));
    let _ = std::fs::remove_dir_all(&dir);
}

/// "更正 Correct…" lists the held table's new card with the catalogue to pick from; picking the
/// face-down entry holds the corrected table.
#[test]
fn table_panel_correct_lists_the_new_card_and_takes_the_players_pick() {
    let mut session = TableSession::new(game());
    session.confirm = Confirm::Every;
    for i in 0..8 {
        session.process(land_frame(i));
    }
    let mut h = harness(DuelTableApp::new(session, None));
    h.get_by_label("更正 Correct…").click();
    h.run();
    assert!(h
        .query_by_label_contains("近方 near · 领土 territory 1")
        .is_some());
    h.get_by_label("近方 near · 领土 territory 1").click();
    h.run();
    h.get_by_label("暗置 face down").click();
    h.run();
    let session = &h.state().session;
    assert_eq!(session.corrections.len(), 1);
    let held = session.held.as_ref().expect("still held for OK");
    assert!(
        held.understood.iter().any(|l| l.contains("face down")),
        "{:?}",
        held.understood
    );
}
