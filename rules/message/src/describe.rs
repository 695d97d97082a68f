//! Sentences for events and prompts, in Chinese and English, with the rule each applies.
//! Seats are shown 1-based, as players count round the table.

use crate::catalogue::{Kind, Method, ProbeAnswer};
use crate::rules::{self, seed};
use crate::state::{Event, Outcome, Phase, State};
use rules_core::{Prompt, RuleRef, Text};

fn p(s: usize) -> String {
    format!("{}", s + 1)
}

fn method_rule(m: Method) -> RuleRef {
    seed(match m {
        Method::Secret => rules::SECRET,
        Method::Direct => rules::DIRECT,
        Method::Text => rules::TEXT,
    })
}

/// What happened, and the rule it follows (when one applies).
pub fn describe(s: &State, e: &Event) -> (Text, Option<RuleRef>) {
    let t = |zh: String, en: String| Text::new(zh, en);
    match e {
        Event::CharacterChosen { seat, .. } => (
            t(
                format!("玩家{}选定角色", p(*seat)),
                format!("player {} chose a character", p(*seat)),
            ),
            Some(seed(rules::CHARACTERS)),
        ),
        Event::TurnStarted { seat, number } => (
            t(
                format!("第{number}回合：玩家{}", p(*seat)),
                format!("turn {number}: player {}", p(*seat)),
            ),
            Some(seed(rules::FLOW)),
        ),
        Event::Drew { seat, count } => (
            t(
                format!("玩家{}抽{count}张牌", p(*seat)),
                format!("player {} draws {count}", p(*seat)),
            ),
            Some(seed(rules::DRAW)),
        ),
        Event::Reshuffled { count } => (
            t(
                format!("牌库抽完，弃牌堆{count}张洗混成新牌库"),
                format!("deck empty: {count} discards shuffled into a new deck"),
            ),
            Some(seed(rules::DRAW)),
        ),
        Event::Played { seat, kind, target } => {
            let to = target
                .map(|x| format!("（对玩家{}）", p(x)))
                .unwrap_or_default();
            let to_en = target
                .map(|x| format!(" on player {}", p(x)))
                .unwrap_or_default();
            (
                t(
                    format!("玩家{}使用【{}】{to}", p(*seat), kind.zh()),
                    format!("player {} plays {}{to_en}", p(*seat), kind.en()),
                ),
                Some(rules::card(*kind)),
            )
        }
        Event::Sent {
            seat,
            method,
            target,
        } => {
            let to = target
                .map(|x| format!("给玩家{}", p(x)))
                .unwrap_or_default();
            let to_en = target
                .map(|x| format!(" to player {}", p(x)))
                .unwrap_or_default();
            (
                t(
                    format!("玩家{}以{}传出情报{to}", p(*seat), method.zh()),
                    format!(
                        "player {} sends an intelligence by {}{to_en}",
                        p(*seat),
                        method.zh()
                    ),
                ),
                Some(method_rule(*method)),
            )
        }
        Event::Arrived { seat } => (
            t(
                format!("情报传到玩家{}", p(*seat)),
                format!("the intelligence reaches player {}", p(*seat)),
            ),
            s.transit.as_ref().map(|x| method_rule(x.method)),
        ),
        Event::Skipped { seat } => (
            t(
                format!("玩家{}被调虎离山，不参与本次传递", p(*seat)),
                format!("player {} is lured away and skipped", p(*seat)),
            ),
            Some(rules::card(Kind::Lure)),
        ),
        Event::Refused { seat } => (
            t(
                format!("玩家{}不接收", p(*seat)),
                format!("player {} does not take it", p(*seat)),
            ),
            None,
        ),
        Event::Reversed { seat } => (
            t(
                format!("玩家{}退回：情报反方向传递", p(*seat)),
                format!(
                    "player {} returns it: it now travels the other way",
                    p(*seat)
                ),
            ),
            Some(rules::card(Kind::Return)),
        ),
        Event::Looked { seat } => (
            t(
                format!("玩家{}检视了情报", p(*seat)),
                format!("player {} looks at the intelligence", p(*seat)),
            ),
            Some(rules::card(Kind::Decode)),
        ),
        Event::Cancelled { kind, seat } => (
            t(
                format!("玩家{}的【{}】被识破，无效", p(*seat), kind.zh()),
                format!(
                    "player {}'s {} is seen through and has no effect",
                    p(*seat),
                    kind.en()
                ),
            ),
            Some(rules::card(Kind::Expose)),
        ),
        Event::Fizzled { kind, seat } => (
            t(
                format!("玩家{}的【{}】没有效果，弃置", p(*seat), kind.zh()),
                format!(
                    "player {}'s {} has nothing left to act on and is discarded",
                    p(*seat),
                    kind.en()
                ),
            ),
            Some(if *kind == Kind::Intercept {
                seed(rules::INTERCEPT_LAST)
            } else {
                rules::card(*kind)
            }),
        ),
        Event::Locked { seat } => (
            t(
                format!("玩家{}被锁定", p(*seat)),
                format!("player {} is locked", p(*seat)),
            ),
            Some(rules::card(Kind::Lock)),
        ),
        Event::Lured { seat } => (
            t(
                format!("玩家{}被调虎离山", p(*seat)),
                format!("player {} is lured away", p(*seat)),
            ),
            Some(rules::card(Kind::Lure)),
        ),
        Event::Intercepted { seat } => (
            t(
                format!("玩家{}截获情报（最后使用的截获优先）", p(*seat)),
                format!("player {} intercepts (the last 截获 played wins)", p(*seat)),
            ),
            Some(seed(rules::INTERCEPT_LAST)),
        ),
        Event::Received { seat, card, forced } => {
            let c = &s.cat.deck.cards[*card];
            (
                t(
                    format!(
                        "玩家{}获得{}情报（{}）",
                        p(*seat),
                        c.colour.zh(),
                        c.kind.zh()
                    ),
                    format!(
                        "player {} receives a {:?} intelligence ({})",
                        p(*seat),
                        c.colour,
                        c.kind.en()
                    ),
                ),
                forced.clone(),
            )
        }
        Event::Burned { seat, .. } => (
            t(
                format!("烧毁玩家{}面前的一张黑情报", p(*seat)),
                format!("a black intelligence of player {} is burned", p(*seat)),
            ),
            Some(rules::card(Kind::Burn)),
        ),
        Event::Probed { seat, answer } => {
            let (zh, en) = match answer {
                ProbeAnswer::Draw => ("抽一张牌", "draws a card"),
                ProbeAnswer::Discard => ("弃一张牌", "discards a card"),
                ProbeAnswer::Say => ("按牌面回答", "says the printed line"),
            };
            (
                t(
                    format!("玩家{}被试探：{zh}", p(*seat)),
                    format!("player {} is probed and {en}", p(*seat)),
                ),
                Some(rules::card(Kind::Probe)),
            )
        }
        Event::Discarded { seat, .. } => (
            t(
                format!("玩家{}弃一张牌", p(*seat)),
                format!("player {} discards a card", p(*seat)),
            ),
            Some(rules::card(Kind::Probe)),
        ),
        Event::Swapped { seat } => (
            t(
                format!("玩家{}掉包：新情报以文本传出", p(*seat)),
                format!(
                    "player {} swaps it: the new intelligence travels as 文本",
                    p(*seat)
                ),
            ),
            Some(rules::card(Kind::Swap)),
        ),
        Event::Died { seat, identity } => (
            t(
                format!(
                    "玩家{}获得三张假情报，死亡，身份是{}",
                    p(*seat),
                    identity.zh()
                ),
                format!(
                    "player {} has three black and dies; identity: {:?}",
                    p(*seat),
                    identity
                ),
            ),
            Some(seed(rules::DEATH)),
        ),
        Event::Lost { seat } => (
            t(
                format!("玩家{}无法传出情报，输掉游戏", p(*seat)),
                format!("player {} cannot send an intelligence and loses", p(*seat)),
            ),
            Some(seed(rules::LOSING)),
        ),
        Event::GameOver { outcome } => match outcome {
            Outcome::Win {
                winners,
                text,
                rule,
            } => {
                let w: Vec<String> = winners.iter().map(|&x| p(x)).collect();
                (
                    t(
                        format!("游戏结束，胜者：玩家{}（{}）", w.join("、"), text.zh),
                        format!("game over, winners: players {} ({})", w.join(", "), text.en),
                    ),
                    Some(rule.clone()),
                )
            }
            Outcome::Draw { text, rule } => (text.clone(), Some(rule.clone())),
        },
    }
}

pub fn prompt(s: &State) -> Prompt {
    let actor = s.actor();
    let who = actor.map(p).unwrap_or_default();
    let text = match &s.phase {
        Phase::Over => match &s.outcome {
            Some(o) => describe(s, &crate::state::Event::GameOver { outcome: o.clone() }).0,
            None => Text::new("游戏结束", "game over"),
        },
        Phase::Choose { .. } => Text::new(
            format!("玩家{who}：从两张角牌中挑选一张"),
            format!("player {who}: choose one of your character cards"),
        ),
        Phase::Play => Text::new(
            format!("玩家{who}：出牌阶段，可使用功能牌，然后必须传出一张情报"),
            format!(
                "player {who}: play phase — use function cards, then send exactly one intelligence"
            ),
        ),
        Phase::Round { .. } => Text::new(
            format!("玩家{who}：是否响应（截获、调虎离山、识破）？"),
            format!("player {who}: respond (截获, 调虎离山, 识破) or pass?"),
        ),
        Phase::Decide => {
            let back = s.transit.as_ref().is_some_and(|t| t.holder == t.sender);
            if back {
                Text::new(
                    format!("玩家{who}：情报回到你面前，必须接收（可掉包）"),
                    format!("player {who}: your intelligence came back: accept it (or 掉包)"),
                )
            } else if s.is_locked(actor.unwrap_or(0)) {
                Text::new(
                    format!("玩家{who}：你被锁定，必须接收"),
                    format!("player {who}: you are locked and must accept"),
                )
            } else {
                Text::new(
                    format!("玩家{who}：接收情报，还是传下去（可退回、破译）？"),
                    format!(
                        "player {who}: accept the intelligence or pass it on (退回, 破译 allowed)?"
                    ),
                )
            }
        }
        Phase::ProbeDiscard { .. } => Text::new(
            format!("玩家{who}：按试探弃一张牌"),
            format!("player {who}: discard a card, as the 试探 requires"),
        ),
    };
    Prompt {
        actor: actor.map(p),
        text,
    }
}
