//! Ruling on one transmission chain at the table: given the sender, the method and what each
//! player played (in order), who receives the intelligence, and why.
//!
//! The ruling is computed by the engine itself: a table is set up where each player holds exactly
//! the cards of the responses, and the responses are played at the first moment each is allowed.
//! Players with no response refuse the intelligence (pass it on); a locked player and the sender
//! must accept.

use crate::catalogue::{Catalogue, Kind, Method, Window};
use crate::describe::describe;
use crate::profile::Profile;
use crate::setup::Setup;
use crate::state::*;
use rules_core::{RuleRef, Text, Violation};
use serde::Serialize;
use std::sync::Arc;

/// What one player did in the chain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Step {
    /// A function card, with its target player for 锁定 / 调虎离山.
    Card { kind: Kind, target: Option<Seat> },
    /// 接收: take the intelligence when it reaches you.
    Accept,
    /// 不接收: pass it on (the default).
    Refuse,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Response {
    pub seat: Seat,
    pub step: Step,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainRequest {
    pub players: usize,
    pub sender: Seat,
    pub method: Method,
    /// For 直达.
    pub target: Option<Seat>,
    pub responses: Vec<Response>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChainStep {
    pub text: Text,
    pub rule: Option<RuleRef>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ruling {
    pub receiver: Seat,
    /// The rule that made the receiver take it, when it was not their free choice.
    pub because: Option<RuleRef>,
    pub steps: Vec<ChainStep>,
    /// Responses refused by the rules (index into the request's responses, and why).
    pub refused: Vec<(usize, Violation)>,
    /// Responses whose moment never came (the intelligence was received first).
    pub unused: Vec<usize>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ChainError {
    #[error("{0}")]
    Request(String),
    #[error("the deck has too few {0} cards for these responses")]
    NotEnoughCards(&'static str),
}

/// Parses `3:截获`, `1:锁定:4`, `2:接收`, `5:拒绝` (seats 1-based, Chinese or English card names).
pub fn parse_response(text: &str) -> Result<Response, ChainError> {
    let parts: Vec<&str> = text.split(':').map(str::trim).collect();
    let bad = || {
        ChainError::Request(format!(
            "`{text}`: write SEAT:CARD or SEAT:CARD:TARGET, e.g. 3:截获 or 1:锁定:4"
        ))
    };
    let seat_of = |s: &str| s.parse::<usize>().ok().filter(|&n| n >= 1).map(|n| n - 1);
    let seat = parts.first().and_then(|s| seat_of(s)).ok_or_else(bad)?;
    let what = parts.get(1).ok_or_else(bad)?;
    let target = match parts.get(2) {
        Some(t) => Some(seat_of(t).ok_or_else(bad)?),
        None => None,
    };
    let step = match what.to_lowercase().as_str() {
        "接收" | "accept" => Step::Accept,
        "拒绝" | "不接收" | "pass" | "refuse" => Step::Refuse,
        other => Step::Card {
            kind: Kind::parse(other).ok_or_else(bad)?,
            target,
        },
    };
    if parts.len() > 3 {
        return Err(bad());
    }
    Ok(Response { seat, step })
}

fn fits(s: &State, r: &Response) -> bool {
    let deck = &s.cat.deck;
    match (&s.phase, &r.step) {
        (Phase::Play, Step::Card { kind, .. }) => deck.playable_in(*kind, Window::OwnPlay),
        (Phase::Round { ctx, .. }, Step::Card { kind, .. }) => {
            (*ctx == Ctx::Arrival
                && s.transit.is_some()
                && deck.playable_in(*kind, Window::Transit))
                || (!s.stack.is_empty() && deck.playable_in(*kind, Window::Response))
        }
        (Phase::Decide, Step::Card { kind, .. }) => {
            deck.playable_in(*kind, Window::Decision) || deck.playable_in(*kind, Window::Returned)
        }
        (Phase::Decide, Step::Accept | Step::Refuse) => true,
        _ => false,
    }
}

fn action_for(s: &State, r: &Response) -> Act {
    match &r.step {
        Step::Accept => Act::Accept,
        Step::Refuse => Act::Pass,
        Step::Card { kind, target } => {
            let hand = &s.players[r.seat].hand;
            let card = hand
                .iter()
                .copied()
                .find(|&c| s.kind_of(c) == *kind)
                .unwrap_or(usize::MAX);
            let target_card = (*kind == Kind::Swap)
                .then(|| hand.iter().copied().find(|&c| c != card))
                .flatten();
            Act::Play {
                card,
                target: *target,
                target_card,
            }
        }
    }
}

pub fn rule_chain(cat: Arc<Catalogue>, req: &ChainRequest) -> Result<Ruling, ChainError> {
    let n = req.players;
    if !(3..=9).contains(&n) {
        return Err(ChainError::Request(format!(
            "风声 is played by 3 to 9 players, not {n}"
        )));
    }
    let in_range = |s: Seat| s < n;
    if !in_range(req.sender)
        || req.target.is_some_and(|t| !in_range(t))
        || req.responses.iter().any(|r| {
            !in_range(r.seat)
                || matches!(r.step, Step::Card { target: Some(t), .. } if !in_range(t))
        })
    {
        return Err(ChainError::Request(format!("seats are numbered 1 to {n}")));
    }
    let mut s = State::from_setup(
        cat,
        Profile::default(),
        &Setup {
            players: n,
            seed: 0,
            first_player: req.sender,
        },
    )
    .map_err(|v| ChainError::Request(v.to_string()))?;
    // A bare table: nobody holds anything but the cards of their responses; nobody can win.
    for p in &mut s.players {
        let cards: Vec<CardId> = p.hand.drain(..).collect();
        s.deck.extend(cards);
        p.identity = Identity::Neutral;
        p.character = None;
    }
    s.turn = Turn {
        seat: req.sender,
        number: 1,
        locked: vec![],
        lured: vec![],
        sent: false,
    };
    s.phase = Phase::Play;
    let take =
        |s: &mut State, pred: &dyn Fn(&crate::catalogue::Card) -> bool, name: &'static str| {
            let i = s
                .deck
                .iter()
                .position(|&c| pred(&s.cat.deck.cards[c]))
                .ok_or(ChainError::NotEnoughCards(name))?;
            Ok::<CardId, ChainError>(s.deck.remove(i))
        };
    // Refusals that do not depend on the moment: the engine would never even ask.
    let mut refused = Vec::new();
    for (i, r) in req.responses.iter().enumerate() {
        if let Some(v) = timeless_refusal(req, r) {
            refused.push((i, v));
        }
    }
    let skip: Vec<usize> = refused.iter().map(|(i, _)| *i).collect();
    for (i, r) in req.responses.iter().enumerate() {
        if skip.contains(&i) {
            continue;
        }
        if let Step::Card { kind, .. } = r.step {
            let c = take(&mut s, &|c| c.kind == kind, kind.zh())?;
            s.players[r.seat].hand.push(c);
            if kind == Kind::Swap {
                // 掉包 needs a card from hand to put in instead.
                let c = take(&mut s, &|c| c.kind == Kind::Decode, "filler")?;
                s.players[r.seat].hand.push(c);
            }
        }
    }
    let intel = take(&mut s, &|c| c.method == req.method, req.method.zh())?;
    s.players[req.sender].hand.push(intel);

    let mut steps = Vec::new();
    let mut next = 0;
    let record =
        |s: &State, evs: &[Event], steps: &mut Vec<ChainStep>| -> Option<(Seat, Option<RuleRef>)> {
            let mut got = None;
            for e in evs {
                if matches!(
                    e,
                    Event::TurnStarted { .. } | Event::Drew { .. } | Event::Reshuffled { .. }
                ) {
                    continue;
                }
                let (mut text, rule) = describe(s, e);
                if let Event::Received { seat, forced, .. } = e {
                    // The ruling does not know the card: say only who takes it.
                    let n = seat + 1;
                    text = Text::new(
                        format!("玩家{n}获得情报"),
                        format!("player {n} receives the intelligence"),
                    );
                    got = Some((*seat, forced.clone()));
                }
                steps.push(ChainStep { text, rule });
            }
            got
        };
    for _ in 0..10_000 {
        let Some(actor) = s.actor() else { break };
        while skip.contains(&next) {
            next += 1;
        }
        let scripted = req.responses.get(next);
        // A scripted card whose player is not being asked: refuse it now if the rules never allow it.
        if let (Some(r), Phase::Round { .. }) = (scripted, &s.phase) {
            if r.seat != actor && fits(&s, r) {
                if let Act::Play {
                    card,
                    target,
                    target_card,
                } = action_for(&s, r)
                {
                    let alive = s.players[r.seat].status == Status::Alive;
                    if let (true, Err(v)) = (alive, s.check_play(r.seat, card, target, target_card))
                    {
                        refused.push((next, v));
                        next += 1;
                        continue;
                    }
                }
            }
        }
        let act = match scripted {
            Some(r) if r.seat == actor && fits(&s, r) => {
                let a = Action {
                    seat: actor,
                    act: action_for(&s, r),
                };
                match s.apply(&a) {
                    Ok((ns, evs)) => {
                        next += 1;
                        let got = record(&ns, &evs, &mut steps);
                        s = ns;
                        if let Some((receiver, because)) = got {
                            return Ok(Ruling {
                                receiver,
                                because,
                                steps,
                                refused,
                                unused: (next..req.responses.len())
                                    .filter(|i| !skip.contains(i))
                                    .collect(),
                            });
                        }
                        continue;
                    }
                    Err(v) => {
                        refused.push((next, v));
                        next += 1;
                        continue;
                    }
                }
            }
            _ => match &s.phase {
                Phase::Play => Act::Send {
                    card: intel,
                    target: req.target,
                },
                Phase::Decide => {
                    let forced = s.transit.as_ref().is_some_and(|t| t.holder == t.sender)
                        || s.is_locked(actor);
                    if forced {
                        Act::Accept
                    } else {
                        Act::Pass
                    }
                }
                _ => Act::Pass,
            },
        };
        let (ns, evs) = s
            .apply(&Action { seat: actor, act })
            .map_err(|v| ChainError::Request(v.to_string()))?;
        let got = record(&ns, &evs, &mut steps);
        s = ns;
        if let Some((receiver, because)) = got {
            return Ok(Ruling {
                receiver,
                because,
                steps,
                refused,
                unused: (next..req.responses.len())
                    .filter(|i| !skip.contains(i))
                    .collect(),
            });
        }
    }
    Err(ChainError::Request(
        "the chain did not end (this is a bug)".into(),
    ))
}

/// Whose card it may be, whatever the moment (the seat is not asked at all otherwise).
fn timeless_refusal(req: &ChainRequest, r: &Response) -> Option<Violation> {
    use crate::rules::{self, seed};
    let Step::Card { kind, target } = r.step else {
        return None;
    };
    let mine = r.seat == req.sender;
    let v = |rule, zh: &str, en: &str| Some(Violation::new(rule, zh, en));
    match kind {
        Kind::Intercept if mine => v(
            rules::card(kind),
            "截获在他人回合使用",
            "截获 is used in another player's turn",
        ),
        Kind::Return if mine => v(
            seed(rules::RETURN_OWN),
            "情报是你传出的，不能使用退回",
            "you cannot 退回 an intelligence you sent",
        ),
        Kind::Lock if !mine => v(
            rules::card(kind),
            "锁定在自己回合中使用",
            "锁定 is used in your own turn",
        ),
        Kind::Swap if !mine => v(
            rules::card(kind),
            "掉包只用于回到自己面前的情报",
            "掉包 is for your own intelligence coming back to you",
        ),
        Kind::Lure if target == Some(req.sender) => v(
            rules::card(kind),
            "不能指定传出情报者",
            "调虎离山 cannot name the sender",
        ),
        Kind::Probe | Kind::Burn => v(
            rules::card(kind),
            "这张牌不影响情报传递",
            "this card takes no part in a transmission",
        ),
        _ => None,
    }
}
