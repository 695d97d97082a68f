//! Engine tests: the harness builds tables by moving real card instances between zones, so the
//! conservation of cards holds in every scenario too.

mod catalogue_deck;
mod keywords;
mod payment;
mod props;
mod stack_turns;

use crate::state::{CardId, Phase, Seat, State, Territory, Unit};
use crate::{from_setup, Action, Catalogue, Event, Profile, Setup};
use rules_core::Game;
use std::sync::Arc;

pub fn demo() -> Arc<Catalogue> {
    Arc::new(Catalogue::demo())
}

/// Cards from the seed's worked examples (named as the rulebook names them; stats as it states them,
/// 东州步兵's own stats are not given there: 2/2 here).
pub const SEED_EXAMPLES: &str = r#"
[[card]]
id = "x-land"
name = "群领土"
en = "Qun Territory"
faction = "qun"
kind = "territory"
basic = true
support = "qun"

[[card]]
id = "x-wland"
name = "魏领土"
en = "Wei Territory"
faction = "wei"
kind = "territory"
basic = true
support = "wei"

[[card]]
id = "dongzhou"
name = "东州步兵"
en = "Dongzhou Infantry"
faction = "qun"
kind = "unit"
cost = 2
need = 1
attack = 2
health = 2

[[card]]
id = "lengjian"
name = "冷箭"
en = "Cold Arrow"
faction = "wei"
kind = "trick"
cost = 1
need = 1
timing = "instant"
target = "unit"
effect = ["damage 2"]

[[card]]
id = "fenxun"
name = "奋迅"
en = "Surge"
faction = "qun"
kind = "trick"
cost = 1
need = 1
timing = "instant"
target = "own-unit"
effect = ["buff +3 prevent 3"]

[[card]]
id = "fangzhen"
name = "魏方阵兵团"
en = "Wei Phalanx Corps"
faction = "wei"
kind = "unit"
cost = 3
need = 1
attack = 3
health = 4
keywords = ["坚韧 2"]

[[card]]
id = "pozhu77"
name = "破竹骁骑"
en = "Breakthrough Rider 7/7"
faction = "qun"
kind = "unit"
cost = 6
need = 1
attack = 7
health = 7
keywords = ["破竹"]
"#;

pub fn seed_examples() -> Arc<Catalogue> {
    Arc::new(Catalogue::parse("seed-examples", SEED_EXAMPLES).expect("fixture catalogue"))
}

/// A game whose decks are `a`/`b` (each card once), 7 `filler`, four of every catalogue card and 30 more
/// `filler`, unshuffled (so the opening hand is `a`/`b` then filler); both
/// players keep; seat 0 is active in its 行动阶段 with priority.
pub fn table_with(cat: Arc<Catalogue>, a: &[&str], b: &[&str], filler: &str) -> State {
    let ids = |keys: &[&str]| -> Vec<usize> {
        let filler = cat.find(filler).expect("filler");
        let mut v: Vec<usize> = keys
            .iter()
            .map(|k| cat.find(k).unwrap_or_else(|| panic!("no card {k}")))
            .collect();
        v.extend(std::iter::repeat_n(filler, 7));
        // Four of every catalogue card, so scenarios can take what they need from the library.
        v.extend((0..cat.cards.len()).flat_map(|i| std::iter::repeat_n(i, 4)));
        v.extend(std::iter::repeat_n(filler, 30));
        v
    };
    let setup = Setup {
        names: ["A".into(), "B".into()],
        decks: [ids(a), ids(b)],
        seed: 1,
        first: Some(0),
        shuffle: false,
    };
    let s = from_setup(cat.clone(), Profile::default(), &setup).expect("setup");
    let s = act(&s, Action::Keep).0;
    let mut s = act(&s, Action::Keep).0;
    s.phase = Phase::Action;
    s.priority = 0;
    s
}

pub fn table(a: &[&str], b: &[&str]) -> State {
    table_with(demo(), a, b, "neu-16")
}

/// An instance of `key` owned by `seat` still in its library (else hand); taken out of that zone.
pub fn take(s: &mut State, seat: Seat, key: &str) -> CardId {
    let def = s
        .catalogue
        .find(key)
        .unwrap_or_else(|| panic!("no card {key}"));
    let p = &mut s.players[seat];
    for zone in [&mut p.library, &mut p.hand] {
        if let Some(pos) = zone.iter().position(|&c| s.cards[c as usize].def == def) {
            return zone.remove(pos);
        }
    }
    panic!("seat {seat} has no {key} left in library or hand")
}

/// Puts a ready (not 整备) unit into `slot`.
pub fn unit(s: &mut State, seat: Seat, key: &str, slot: usize) -> CardId {
    let c = take(s, seat, key);
    let mut u = Unit::new(c);
    u.fresh = false;
    s.players[seat].slots[slot] = Some(u);
    c
}

pub fn hand(s: &mut State, seat: Seat, key: &str) -> CardId {
    let c = take(s, seat, key);
    s.players[seat].hand.push(c);
    c
}

pub fn lands(s: &mut State, seat: Seat, key: &str, n: usize) {
    for _ in 0..n {
        let c = take(s, seat, key);
        s.players[seat].territories.push(Territory {
            card: c,
            face_up: true,
            tapped: false,
        });
    }
}

/// Moves a card of `key` to the top of `seat`'s library.
pub fn on_top(s: &mut State, seat: Seat, key: &str) -> CardId {
    let c = take(s, seat, key);
    s.players[seat].library.insert(0, c);
    c
}

#[track_caller]
pub fn act(s: &State, a: Action) -> (State, Vec<Event>) {
    match crate::Duel::apply(s, &a) {
        Ok(x) => x,
        Err(v) => panic!("{a:?} refused: {v}"),
    }
}

#[track_caller]
pub fn refused(s: &State, a: Action) -> rules_core::Violation {
    match crate::Duel::apply(s, &a) {
        Ok(_) => panic!("{a:?} was accepted"),
        Err(v) => v,
    }
}

/// Both players pass once each (resolving the top of the stack, or ending the step).
#[track_caller]
pub fn both_pass(s: &State) -> (State, Vec<Event>) {
    let (s, mut ev) = act(s, Action::Pass);
    let (s, ev2) = act(&s, Action::Pass);
    ev.extend(ev2);
    (s, ev)
}

pub fn play(card: CardId, slot: Option<usize>, target: Option<crate::Target>) -> Action {
    Action::PlayCard {
        card,
        slot,
        target,
        expedition: false,
        pay: None,
    }
}

pub fn rule_of(v: &rules_core::Violation) -> String {
    v.rule.to_string()
}
