//! Which actions are legal now, and why the others are not. `legal_actions` is the candidates that
//! pass `check`, so the two cannot disagree.

use crate::catalogue::{Colour, Kind, Method, Skill, Window};
use crate::rules::{self, seed};
use crate::state::{Act, Action, Ctx, Phase, Seat, State, Status};
use rules_core::Violation;

fn no(rule: rules_core::RuleRef, zh: &str, en: &str) -> Result<(), Violation> {
    Err(Violation::new(rule, zh, en))
}

impl State {
    pub(crate) fn has_skill(&self, s: Seat, f: impl Fn(&Skill) -> bool) -> bool {
        self.players[s]
            .character
            .is_some_and(|c| self.cat.characters[c].skills.iter().any(f))
    }

    /// The windows a card may be played in by `seat` right now.
    fn open_windows(&self, seat: Seat) -> Vec<Window> {
        let mut w = Vec::new();
        match &self.phase {
            Phase::Play if seat == self.turn.seat => w.push(Window::OwnPlay),
            Phase::Round { ctx, .. } => {
                if *ctx == Ctx::Arrival && self.transit.is_some() {
                    w.push(Window::Transit);
                }
                if !self.stack.is_empty() {
                    w.push(Window::Response);
                }
            }
            Phase::Decide => {
                if let Some(t) = &self.transit {
                    if t.holder == seat {
                        w.push(if t.sender == seat {
                            Window::Returned
                        } else {
                            Window::Decision
                        });
                    }
                }
            }
            _ => {}
        }
        w
    }

    pub fn check(&self, a: &Action) -> Result<(), Violation> {
        if self.outcome.is_some() || self.phase == Phase::Over {
            return no(seed(rules::END), "游戏已经结束", "the game is over");
        }
        if a.seat >= self.n() {
            return no(seed(rules::FLOW), "没有这个座位", "no such seat");
        }
        if self.actor() != Some(a.seat) {
            return no(
                seed(rules::FLOW),
                "现在不是该玩家行动",
                "it is not this player's turn to act",
            );
        }
        match (&self.phase, &a.act) {
            (Phase::Choose { seat }, Act::Choose { index }) => {
                if *index < self.players[*seat].offered.len() {
                    Ok(())
                } else {
                    no(
                        seed(rules::CHARACTERS),
                        "只能在发给你的角色中挑选",
                        "choose one of the characters dealt to you",
                    )
                }
            }
            (Phase::Play, Act::Send { card, target }) => self.check_send(a.seat, *card, *target),
            (
                _,
                Act::Play {
                    card,
                    target,
                    target_card,
                },
            ) => self.check_play(a.seat, *card, *target, *target_card),
            (Phase::Round { .. }, Act::Pass) => Ok(()),
            (Phase::Decide, Act::Accept) => Ok(()),
            (Phase::Decide, Act::Pass) => {
                let Some(t) = &self.transit else {
                    return no(
                        seed(rules::FLOW),
                        "没有传递中的情报",
                        "no intelligence in transit",
                    );
                };
                if t.holder == t.sender {
                    no(
                        seed(rules::BACK_TO_SENDER),
                        "情报回到传出者面前，必须接收",
                        "the intelligence is back with its sender, who must accept it",
                    )
                } else if self.is_locked(a.seat) {
                    no(
                        rules::card(Kind::Lock),
                        "你被锁定，必须接收本回合的情报",
                        "you are locked: you must accept this turn's intelligence",
                    )
                } else {
                    Ok(())
                }
            }
            (Phase::ProbeDiscard { .. }, Act::Discard { card }) => {
                if self.players[a.seat].hand.contains(card) {
                    Ok(())
                } else {
                    no(
                        rules::card(Kind::Probe),
                        "这张牌不在你手中",
                        "that card is not in your hand",
                    )
                }
            }
            _ => no(
                seed(rules::FLOW),
                "现在不能这样做",
                "that action is not possible at this moment",
            ),
        }
    }

    fn check_send(&self, seat: Seat, card: usize, target: Option<Seat>) -> Result<(), Violation> {
        if !self.players[seat].hand.contains(&card) {
            return no(
                seed(rules::PLAY_PHASE),
                "只能把手牌当作情报传出",
                "only a card in your hand can be sent",
            );
        }
        match (self.cat.deck.cards[card].method, target) {
            (Method::Direct, Some(t)) if t != seat && self.alive(t) => Ok(()),
            (Method::Direct, _) => no(
                seed(rules::DIRECT),
                "直达情报要传给另一位存活的玩家",
                "a 直达 intelligence goes to one other living player",
            ),
            (_, None) => Ok(()),
            (m, Some(_)) => no(
                seed(if m == Method::Secret {
                    rules::SECRET
                } else {
                    rules::TEXT
                }),
                "密电与文本传给右边的玩家，不能指定",
                "密电 and 文本 go to the player on the right; they take no target",
            ),
        }
    }

    pub(crate) fn check_play(
        &self,
        seat: Seat,
        card: usize,
        target: Option<Seat>,
        tc: Option<usize>,
    ) -> Result<(), Violation> {
        if !self.players[seat].hand.contains(&card) {
            return no(
                seed(rules::PLAY_PHASE),
                "这张牌不在你手中",
                "that card is not in your hand",
            );
        }
        let kind = self.kind_of(card);
        let rule = rules::card(kind);
        if kind == Kind::Return && self.transit.as_ref().is_some_and(|t| t.sender == seat) {
            return no(
                seed(rules::RETURN_OWN),
                "情报是你传出的，不能使用退回",
                "you cannot 退回 an intelligence you sent",
            );
        }
        let open = self.open_windows(seat);
        if !open.iter().any(|w| self.cat.deck.playable_in(kind, *w)) {
            return no(
                rule,
                "现在不是这张牌的使用时机",
                "this card cannot be played at this moment",
            );
        }
        let uses_target = matches!(kind, Kind::Lock | Kind::Lure | Kind::Probe | Kind::Burn);
        if uses_target != target.is_some() {
            return no(
                rule,
                "目标不对：这张牌需要（或不需要）指定一位玩家",
                "wrong target: this card does (or does not) name a player",
            );
        }
        if matches!(kind, Kind::Burn | Kind::Swap) != tc.is_some() {
            return no(
                rule,
                "这张牌需要（或不需要）指定一张牌",
                "this card does (or does not) name a card",
            );
        }
        if let Some(t) = target {
            if !self.alive(t) {
                return no(
                    rule,
                    "目标必须是存活的玩家",
                    "the target must be a living player",
                );
            }
        }
        let sender = self.turn.seat;
        match kind {
            Kind::Lock => {
                let t = target.unwrap_or(seat);
                if t == seat {
                    no(
                        rule,
                        "锁定要对自己以外的玩家使用",
                        "锁定 is used on a player other than yourself",
                    )
                } else if self.is_locked(t) {
                    no(rule, "该玩家已被锁定", "that player is already locked")
                } else if self.has_skill(t, |s| *s == Skill::LockImmune) {
                    no(
                        RuleRef::Card("character skill lock_immune".into()),
                        "该角色不能被锁定",
                        "this character cannot be locked",
                    )
                } else {
                    Ok(())
                }
            }
            Kind::Lure => {
                let t = target.unwrap_or(sender);
                if t == sender {
                    no(
                        rule,
                        "不能指定传出情报者",
                        "调虎离山 cannot name the sender",
                    )
                } else if self.is_locked(t) {
                    no(
                        seed(rules::LOCK_OVER_LURE),
                        "不能指定被锁定的玩家",
                        "调虎离山 cannot name a locked player",
                    )
                } else if self.is_lured(t) {
                    no(rule, "该玩家已被调离", "that player is already lured away")
                } else if self.has_skill(t, |s| *s == Skill::LureImmune) {
                    no(
                        RuleRef::Card("character skill lure_immune".into()),
                        "该角色不能被调虎离山",
                        "this character cannot be lured away",
                    )
                } else {
                    Ok(())
                }
            }
            Kind::Intercept => {
                if seat == sender {
                    no(
                        rule,
                        "截获在他人回合使用",
                        "截获 is used in another player's turn",
                    )
                } else {
                    Ok(())
                }
            }
            Kind::Return => {
                if self.is_locked(seat) {
                    no(
                        seed(rules::RETURN_LOCKED),
                        "你被锁定，退回不能发挥作用",
                        "you are locked: 退回 has no effect",
                    )
                } else {
                    Ok(())
                }
            }
            Kind::Decode => match &self.transit {
                Some(t) if t.face_up || t.seen[seat] => no(
                    rule,
                    "你已经能看到这份情报",
                    "you can already see this intelligence",
                ),
                _ => Ok(()),
            },
            Kind::Probe => {
                if target == Some(seat) {
                    no(
                        rule,
                        "试探要对另一位玩家使用",
                        "试探 is played at another player",
                    )
                } else {
                    Ok(())
                }
            }
            Kind::Expose => Ok(()),
            Kind::Burn => {
                let (t, c) = (target.unwrap_or(seat), tc.unwrap_or(card));
                if !self.players[t].intel.contains(&c) {
                    no(
                        rule,
                        "该玩家面前没有这张情报",
                        "that player has no such intelligence in front of them",
                    )
                } else if self.cat.deck.cards[c].colour != Colour::Black {
                    no(
                        rule,
                        "烧毁只能弃置一张黑情报",
                        "烧毁 discards a black intelligence only",
                    )
                } else {
                    Ok(())
                }
            }
            Kind::Swap => {
                let r = tc.unwrap_or(card);
                if r == card || !self.players[seat].hand.contains(&r) {
                    no(
                        rule,
                        "掉包要用另一张手牌替换",
                        "掉包 replaces it with another card from your hand",
                    )
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Every function-card play `seat` could try now (before checking).
    fn play_candidates(&self, seat: Seat) -> Vec<Act> {
        let mut out = Vec::new();
        let hand = &self.players[seat].hand;
        for &card in hand {
            match self.kind_of(card) {
                Kind::Lock | Kind::Lure | Kind::Probe => {
                    for t in 0..self.n() {
                        out.push(Act::Play {
                            card,
                            target: Some(t),
                            target_card: None,
                        });
                    }
                }
                Kind::Burn => {
                    for (t, p) in self.players.iter().enumerate() {
                        for &c in &p.intel {
                            out.push(Act::Play {
                                card,
                                target: Some(t),
                                target_card: Some(c),
                            });
                        }
                    }
                }
                Kind::Swap => {
                    for &r in hand {
                        out.push(Act::Play {
                            card,
                            target: None,
                            target_card: Some(r),
                        });
                    }
                }
                _ => out.push(Act::Play {
                    card,
                    target: None,
                    target_card: None,
                }),
            }
        }
        out
    }

    /// Whether `seat` is asked in the current round. Every living player is asked while a window is
    /// open, whatever their hand, so being asked reveals nothing about the cards a player holds;
    /// only windows of a card kind nobody could hold (none in the catalogue) are skipped.
    pub(crate) fn asked_in_round(&self, seat: Seat) -> bool {
        self.open_windows(seat)
            .iter()
            .any(|w| self.cat.deck.kinds.iter().any(|k| k.windows.contains(w)))
    }

    pub fn legal_actions(&self) -> Vec<Action> {
        let Some(seat) = self.actor() else {
            return Vec::new();
        };
        if self.players[seat].status != Status::Alive && !matches!(self.phase, Phase::Choose { .. })
        {
            return Vec::new();
        }
        let mut acts = Vec::new();
        match &self.phase {
            Phase::Choose { seat } => {
                for index in 0..self.players[*seat].offered.len() {
                    acts.push(Act::Choose { index });
                }
            }
            Phase::ProbeDiscard { seat } => {
                for &card in &self.players[*seat].hand {
                    acts.push(Act::Discard { card });
                }
            }
            Phase::Play => {
                acts = self.play_candidates(seat);
                for &card in &self.players[seat].hand {
                    if self.cat.deck.cards[card].method == Method::Direct {
                        for t in 0..self.n() {
                            acts.push(Act::Send {
                                card,
                                target: Some(t),
                            });
                        }
                    } else {
                        acts.push(Act::Send { card, target: None });
                    }
                }
            }
            Phase::Round { .. } => {
                acts = self.play_candidates(seat);
                acts.push(Act::Pass);
            }
            Phase::Decide => {
                acts = self.play_candidates(seat);
                acts.push(Act::Accept);
                acts.push(Act::Pass);
            }
            Phase::Over => {}
        }
        acts.into_iter()
            .map(|act| Action { seat, act })
            .filter(|a| self.check(a).is_ok())
            .collect()
    }
}

use rules_core::RuleRef;
