//! Read-only questions about a state: stats with their modifiers, support, timing, who may be targeted.

use crate::catalogue::{CardDef, Kind};
use crate::keyword::{Boost, Faction, Keyword};
use crate::state::{CardId, Phase, Seat, State, Unit};
use rules_core::{RuleRef, Violation};

pub fn rule(name: &str) -> RuleRef {
    RuleRef::rulebook(name)
}

pub fn refuse(rule_name: &str, zh: impl Into<String>, en: impl Into<String>) -> Violation {
    Violation::new(rule(rule_name), zh, en)
}

/// What deals damage or targets: a card and who controls it (last known if it left play).
#[derive(Clone, Copy, Debug)]
pub struct Source {
    pub card: CardId,
    pub controller: Seat,
}

impl State {
    /// 势力支持度: face-up territories of that faction, tapped or not.
    pub fn support(&self, seat: Seat, faction: Faction) -> u8 {
        self.players[seat]
            .territories
            .iter()
            .filter(|t| t.face_up && self.def(t.card).support == Some(faction))
            .count() as u8
    }

    pub fn untapped_territories(&self, seat: Seat) -> usize {
        self.players[seat]
            .territories
            .iter()
            .filter(|t| !t.tapped)
            .count()
    }

    /// {通常}: your 行动阶段, empty stack, you hold priority, nothing pending.
    pub fn normal_timing(&self, seat: Seat) -> bool {
        self.active == seat
            && self.phase == Phase::Action
            && self.stack.is_empty()
            && self.pending.is_none()
            && self.priority == seat
    }

    /// 逆境: you control fewer territories than an opponent.
    pub fn in_adversity(&self, seat: Seat) -> bool {
        self.players[seat].territories.len() < self.players[State::other(seat)].territories.len()
    }

    /// 盛世: three or more neutral non-territory entities on the battlefield (both sides).
    pub fn prosperity(&self) -> bool {
        let mut n = 0;
        for p in &self.players {
            n += p
                .slots
                .iter()
                .flatten()
                .filter(|u| self.def(u.card).faction == Faction::Neutral)
                .count();
            n += p
                .entities
                .iter()
                .filter(|e| self.def(e.card).faction == Faction::Neutral)
                .count();
        }
        n >= 3
    }

    /// 外交{f}: you control a non-territory entity of faction f.
    pub fn diplomacy(&self, seat: Seat, f: Faction) -> bool {
        let p = &self.players[seat];
        p.slots
            .iter()
            .flatten()
            .any(|u| self.def(u.card).faction == f)
            || p.entities.iter().any(|e| self.def(e.card).faction == f)
    }

    /// Whether a 逆境/盛世/外交 keyword's condition holds for `seat`.
    pub fn condition_holds(&self, seat: Seat, k: &Keyword) -> Option<bool> {
        match k {
            Keyword::Adversity(_) => Some(self.in_adversity(seat)),
            Keyword::Prosperity(_) => Some(self.prosperity()),
            Keyword::Diplomacy(f, _) => Some(self.diplomacy(seat, *f)),
            _ => None,
        }
    }

    fn static_boost(&self, unit: &Unit, seat: Seat) -> Boost {
        let mut b = Boost::default();
        for k in &self.def(unit.card).keywords {
            if let (
                Some(true),
                Keyword::Adversity(x) | Keyword::Prosperity(x) | Keyword::Diplomacy(_, x),
            ) = (self.condition_holds(seat, k), k)
            {
                b.attack += x.attack;
                b.health += x.health;
            }
        }
        for e in &self.players[seat].entities {
            if e.attached == Some(unit.card) {
                b.attack += self.def(e.card).boost.attack;
                b.health += self.def(e.card).boost.health;
            }
        }
        b
    }

    /// Current 武力 (never below 0).
    pub fn attack_of(&self, card: CardId) -> u8 {
        let Some((seat, slot)) = self.find_unit(card) else {
            return 0;
        };
        let Some(u) = &self.players[seat].slots[slot] else {
            return 0;
        };
        let v = self.def(card).attack as i16 + u.turn_attack + self.static_boost(u, seat).attack;
        v.clamp(0, 255) as u8
    }

    /// Current 体力 (printed plus boosts; damage is counted apart).
    pub fn health_of(&self, card: CardId) -> i16 {
        let Some((seat, slot)) = self.find_unit(card) else {
            return 0;
        };
        let Some(u) = &self.players[seat].slots[slot] else {
            return 0;
        };
        self.def(card).health as i16 + self.static_boost(u, seat).health
    }

    /// Unit may attack, shift or use a {横置} ability: not 整备, or 神速.
    pub fn ready(&self, u: &Unit) -> bool {
        !u.fresh || self.def(u.card).has(|k| matches!(k, Keyword::Haste))
    }

    /// 抵抗: every word of one 抵抗 matches the source (faction, kind or subtype).
    pub fn resists(&self, victim: CardId, src: Source) -> bool {
        let sdef = self.def(src.card);
        self.def(victim).keywords.iter().any(|k| match k {
            Keyword::Resist(words) => words.iter().all(|w| source_matches(sdef, w)),
            _ => false,
        })
    }

    /// A unit can be the target of `src`: not 洞察 against the opponent, not 抵抗 to it.
    pub fn can_target_unit(&self, victim: CardId, src: Source) -> Result<(), Violation> {
        let Some((seat, _)) = self.find_unit(victim) else {
            return Err(refuse(
                "陣地",
                "目标单位不在战场上",
                "the target unit is not on the battlefield",
            ));
        };
        let vdef = self.def(victim);
        if seat != src.controller && vdef.has(|k| matches!(k, Keyword::Insight)) {
            return Err(refuse(
                "词条 洞察",
                format!("{} 具有洞察，不能成为对手的牌或能力的目标", vdef.name),
                format!(
                    "{} has 洞察 (insight): the opponent cannot target it",
                    vdef.en
                ),
            ));
        }
        if self.resists(victim, src) {
            return Err(refuse(
                "词条 抵抗",
                format!("{} 抵抗 {}", vdef.name, self.def(src.card).name),
                format!("{} resists {}", vdef.en, self.def(src.card).en),
            ));
        }
        Ok(())
    }

    /// 动荡 sources an opponent of `seat` controls (each adds {1}).
    pub fn turmoil_against(&self, seat: Seat) -> u8 {
        let p = &self.players[State::other(seat)];
        let count = |c: CardId| {
            self.def(c)
                .keywords
                .iter()
                .filter(|k| matches!(k, Keyword::Turmoil))
                .count()
        };
        (p.slots
            .iter()
            .flatten()
            .map(|u| count(u.card))
            .sum::<usize>()
            + p.entities.iter().map(|e| count(e.card)).sum::<usize>()) as u8
    }

    /// A unit card on the stack already heading for this 陣地 of `seat`.
    pub fn slot_claimed(&self, seat: Seat, slot: usize) -> bool {
        self.stack.iter().any(|i| i.controller == seat && matches!(i.kind, crate::state::StackKind::Card { slot: Some(s), .. } if s == slot))
    }

    /// 族群: may this unit card go into `slot` as if it had 伏击?
    pub fn swarm_allows(&self, seat: Seat, card: CardId, slot: usize) -> bool {
        let d = self.def(card);
        if d.kind != Kind::Unit {
            return false;
        }
        let swarm = |c: &CardDef| c.has(|k| matches!(k, Keyword::Swarm));
        let neighbours = [slot.checked_sub(1), Some(slot + 1)];
        neighbours
            .into_iter()
            .flatten()
            .filter_map(|i| self.players[seat].slots.get(i).and_then(|u| u.as_ref()))
            .any(|u| {
                let n = self.def(u.card);
                let shared = n.subtypes.iter().any(|s| d.subtypes.contains(s));
                shared && (swarm(n) || swarm(d))
            })
    }
}

fn source_matches(d: &CardDef, word: &str) -> bool {
    Faction::parse(word).is_some_and(|f| f == d.faction)
        || word == d.kind.zh()
        || d.subtypes.iter().any(|s| s == word)
}
