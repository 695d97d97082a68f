//! The transmission-chain ruling: each precedence rule of the seed, as the table would enter it.

use super::*;
use crate::chain::{parse_response, rule_chain, ChainRequest, Ruling};
use crate::rules::{self, seed};

fn ruling(
    players: usize,
    sender: Seat,
    method: Method,
    target: Option<Seat>,
    responses: &[&str],
) -> Ruling {
    let responses = responses
        .iter()
        .map(|r| parse_response(r).expect("response parses"))
        .collect();
    rule_chain(
        cat(),
        &ChainRequest {
            players,
            sender,
            method,
            target,
            responses,
        },
    )
    .expect("ruling")
}

fn said(r: &Ruling, needle: &str) -> bool {
    r.steps
        .iter()
        .any(|s| s.text.zh.contains(needle) || s.text.en.contains(needle))
}

#[test]
fn seed_example_six_players_intercepting_ends_with_e() {
    // abcdef = seats 1..6. a sends; b refuses; on the way to c, d intercepts, then f, then b, then e.
    let r = ruling(
        6,
        0,
        Method::Secret,
        None,
        &["2:拒绝", "4:截获", "6:截获", "2:截获", "5:截获"],
    );
    assert_eq!(r.receiver, 4, "{r:#?}");
    assert_eq!(r.because, Some(seed(rules::INTERCEPT_LAST)));
    assert!(r.refused.is_empty() && r.unused.is_empty(), "{r:#?}");
}

#[test]
fn intercept_last_played_wins_whatever_the_seats() {
    let r = ruling(5, 0, Method::Text, None, &["2:截获", "4:截获"]);
    assert_eq!(r.receiver, 3);
    let r = ruling(5, 0, Method::Text, None, &["4:截获", "2:截获"]);
    assert_eq!(r.receiver, 1);
}

#[test]
fn intercept_only_in_another_players_turn() {
    let r = ruling(4, 0, Method::Secret, None, &["1:截获"]);
    assert_eq!(r.refused.len(), 1, "{r:#?}");
    assert_eq!(r.refused[0].1.rule, rules::card(Kind::Intercept));
    assert_eq!(r.receiver, 0, "nobody takes it: back to the sender");
}

#[test]
fn secret_intelligence_back_at_its_sender_must_be_accepted() {
    let r = ruling(5, 2, Method::Secret, None, &[]);
    assert_eq!(r.receiver, 2);
    assert_eq!(r.because, Some(seed(rules::BACK_TO_SENDER)));
}

#[test]
fn text_passes_to_the_right_until_someone_accepts() {
    let r = ruling(5, 3, Method::Text, None, &["1:接收"]);
    assert_eq!(r.receiver, 0);
    assert_eq!(r.because, None, "a free choice");
    assert!(
        said(&r, "情报传到玩家5") && said(&r, "情报传到玩家1"),
        "{r:#?}"
    );
}

#[test]
fn lock_forces_the_locked_player_to_accept() {
    let r = ruling(5, 0, Method::Secret, None, &["1:锁定:3"]);
    assert_eq!(r.receiver, 2);
    assert_eq!(r.because, Some(rules::card(Kind::Lock)));
}

#[test]
fn first_locked_player_in_passing_order_accepts() {
    // Locked in the order 4 then 3, but the intelligence reaches 3 first.
    let r = ruling(6, 0, Method::Secret, None, &["1:锁定:4", "1:锁定:3"]);
    assert_eq!(r.receiver, 2);
}

#[test]
fn lock_beats_lure_on_the_same_player() {
    let r = ruling(5, 0, Method::Secret, None, &["1:调虎离山:3", "1:锁定:3"]);
    assert_eq!(r.receiver, 2, "{r:#?}");
}

#[test]
fn lure_cannot_name_a_locked_player() {
    let r = ruling(5, 0, Method::Secret, None, &["1:锁定:3", "4:调虎离山:3"]);
    assert_eq!(r.refused.len(), 1, "{r:#?}");
    assert_eq!(r.refused[0].1.rule, seed(rules::LOCK_OVER_LURE));
    assert_eq!(r.receiver, 2);
}

#[test]
fn lure_cannot_name_the_sender() {
    let r = ruling(5, 0, Method::Secret, None, &["3:调虎离山:1"]);
    assert_eq!(r.refused.len(), 1, "{r:#?}");
    assert_eq!(r.receiver, 0);
}

#[test]
fn lure_skips_the_player_and_works_in_another_players_turn() {
    let r = ruling(5, 0, Method::Secret, None, &["3:调虎离山:4", "4:接收"]);
    assert_ne!(r.receiver, 3, "player 4 was lured away: {r:#?}");
    assert!(said(&r, "玩家4被调虎离山，不参与"), "{r:#?}");
    assert_eq!(r.unused, vec![1]);
    assert_eq!(r.receiver, 0);
}

#[test]
fn lure_can_name_oneself() {
    let r = ruling(4, 0, Method::Text, None, &["2:调虎离山:2"]);
    assert!(r.refused.is_empty(), "{r:#?}");
    assert!(said(&r, "玩家2被调虎离山，不参与"));
}

#[test]
fn direct_with_its_target_lured_comes_back_to_the_sender() {
    // Seed: a直达情报b，并对b调虎离山，即情报归a自己所有.
    let r = ruling(5, 0, Method::Direct, Some(1), &["1:调虎离山:2"]);
    assert_eq!(r.receiver, 0, "{r:#?}");
    assert_eq!(r.because, Some(seed(rules::BACK_TO_SENDER)));
}

#[test]
fn direct_refused_goes_back_to_the_sender() {
    let r = ruling(5, 0, Method::Direct, Some(3), &["4:拒绝"]);
    assert_eq!(r.receiver, 0);
    assert!(
        !said(&r, "情报传到玩家2"),
        "a 直达 passes nobody else: {r:#?}"
    );
}

#[test]
fn direct_accepted_by_its_target() {
    let r = ruling(5, 0, Method::Direct, Some(3), &["4:接收"]);
    assert_eq!(r.receiver, 3);
}

#[test]
fn intercept_beats_lock() {
    let r = ruling(5, 0, Method::Secret, None, &["1:锁定:2", "4:截获"]);
    assert_eq!(r.receiver, 3, "{r:#?}");
}

#[test]
fn return_reverses_the_direction() {
    let r = ruling(5, 0, Method::Secret, None, &["3:退回", "2:接收"]);
    assert_eq!(r.receiver, 1, "{r:#?}");
    assert!(said(&r, "退回"));
    // Reversed from 3, refused by 2: it reaches the sender, who must accept.
    let r = ruling(5, 0, Method::Secret, None, &["3:退回"]);
    assert_eq!(r.receiver, 0);
}

#[test]
fn return_has_no_effect_when_locked() {
    let r = ruling(5, 0, Method::Secret, None, &["1:锁定:3", "3:退回"]);
    assert_eq!(r.refused.len(), 1, "{r:#?}");
    assert_eq!(r.refused[0].1.rule, seed(rules::RETURN_LOCKED));
    assert_eq!(r.receiver, 2);
}

#[test]
fn return_not_on_your_own_intelligence() {
    let r = ruling(4, 0, Method::Secret, None, &["1:退回"]);
    assert_eq!(r.refused.len(), 1, "{r:#?}");
    assert_eq!(r.refused[0].1.rule, seed(rules::RETURN_OWN));
    assert_eq!(r.receiver, 0);
}

#[test]
fn expose_cancels_an_intercept() {
    let r = ruling(5, 0, Method::Secret, None, &["4:截获", "5:识破"]);
    assert_eq!(r.receiver, 0, "{r:#?}");
    assert!(said(&r, "被识破"));
}

#[test]
fn expose_answers_another_expose() {
    let r = ruling(5, 0, Method::Secret, None, &["4:截获", "5:识破", "4:识破"]);
    assert_eq!(r.receiver, 3, "{r:#?}");
}

#[test]
fn decode_looks_before_deciding_and_changes_no_route() {
    let r = ruling(4, 0, Method::Secret, None, &["2:破译", "2:接收"]);
    assert_eq!(r.receiver, 1);
    assert!(said(&r, "检视"), "{r:#?}");
}

#[test]
fn swap_sends_a_new_intelligence_as_text() {
    let r = ruling(4, 0, Method::Secret, None, &["1:掉包", "2:接收"]);
    assert_eq!(r.receiver, 1, "{r:#?}");
    assert!(said(&r, "掉包"));
}

#[test]
fn chain_requests_are_checked() {
    assert!(parse_response("x:截获").is_err());
    assert!(parse_response("3:飞刀").is_err());
    assert!(parse_response("0:截获").is_err());
    assert_eq!(parse_response("3:intercept").unwrap().seat, 2);
    let bad = ChainRequest {
        players: 2,
        sender: 0,
        method: Method::Secret,
        target: None,
        responses: vec![],
    };
    assert!(rule_chain(cat(), &bad).is_err());
    let bad = ChainRequest {
        players: 4,
        sender: 7,
        method: Method::Secret,
        target: None,
        responses: vec![],
    };
    assert!(rule_chain(cat(), &bad).is_err());
}
