//! The 24 keywords of the seed's glossary (「陣面對決名詞解釋」) as engine abilities.
//!
//! A card gets its keywords from the catalogue as short strings ("坚韧 2", "抵抗 黄巾 单位",
//! "外交 蜀 +1/+1"); `Keyword::parse` turns them into this enum and refuses anything else.

use serde::{Deserialize, Serialize};

/// 勢力. Neutral (中立) is strictly "no faction" (seed), kept as a value so cards can say so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Faction {
    Wei,
    Shu,
    Wu,
    Qun,
    Neutral,
}

impl Faction {
    pub const FOUR: [Faction; 4] = [Faction::Wei, Faction::Shu, Faction::Wu, Faction::Qun];

    pub fn zh(self) -> &'static str {
        match self {
            Faction::Wei => "魏",
            Faction::Shu => "蜀",
            Faction::Wu => "吴",
            Faction::Qun => "群",
            Faction::Neutral => "中立",
        }
    }

    /// Accepts the catalogue key ("wei") and the printed character, simplified or traditional.
    pub fn parse(s: &str) -> Option<Faction> {
        Some(match s {
            "wei" | "魏" => Faction::Wei,
            "shu" | "蜀" => Faction::Shu,
            "wu" | "吴" | "吳" => Faction::Wu,
            "qun" | "群" => Faction::Qun,
            "neutral" | "中立" => Faction::Neutral,
            _ => return None,
        })
    }
}

/// A static change to 武力/体力 (attack/health).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Boost {
    pub attack: i16,
    pub health: i16,
}

impl Boost {
    /// "+2/+0", "-1/+1".
    pub fn parse(s: &str) -> Option<Boost> {
        let (a, h) = s.split_once('/')?;
        Some(Boost {
            attack: a.trim_start_matches('+').parse().ok()?,
            health: h.trim_start_matches('+').parse().ok()?,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Keyword {
    /// 抵抗 <category…>: not targeted or damaged by sources matching every token (faction, subtype or kind).
    Resist(Vec<String>),
    /// 洞察: not a legal target of the opponent's cards or abilities.
    Insight,
    /// 动荡: opponents pay {1} more to activate territory abilities; several add up.
    Turmoil,
    /// 伏击: may be played at any {瞬发} timing.
    Ambush,
    /// 观星 X: on resolving / entering, look at the top X and put any on top, the rest at the bottom.
    Stargaze(u8),
    /// 坚韧 X: prevent X of each damage this unit would take (each instance of the keyword apart).
    Tough(u8),
    /// 连击: the first time each turn this unit deals combat damage, untap it (triggered).
    Combo,
    /// 逆境: while you control fewer territories than an opponent. Units: the boost; tricks: the bonus.
    Adversity(Boost),
    /// 判定 N: on resolving, judge; the card's effect happens only if the judged card costs N or more.
    Judge(u8),
    /// 佩带 {X}: equipment; pay X at your 行动 {通常} timing to attach it to a unit of yours.
    Equip(u8),
    /// 破竹: when attacking an occupied 陣地, damage beyond lethal may go to the defending player.
    Breakthrough,
    /// 拼点: on resolving, contest with the opponent; the effect happens only if you win.
    Contest,
    /// 取消: the card cancels a card being played by the opponent (target: a card on the stack).
    Cancel,
    /// 射击 X: {通常}{横置}: X damage to a diagonally opposite unit.
    Shoot(u8),
    /// 神速: not affected by 整备.
    Haste,
    /// 盛世: while three or more neutral non-territory entities are on the battlefield.
    Prosperity(Boost),
    /// 突击 X: whenever this unit moves, if untapped, it deals X damage to the opposite unit.
    Assault(u8),
    /// 外交 {faction}: while you control a non-territory entity of that faction.
    Diplomacy(Faction, Boost),
    /// 迎击 X: whenever a unit enters the opposite 陣地, this deals X damage to it.
    Intercept(u8),
    /// 远征 |need| {cost}: alternative cost; a unit that entered this way is exiled (triggered).
    Expedition { need: u8, cost: u8 },
    /// 斩获: damage this unit deals to players gains you that much life.
    Spoils,
    /// 致命: any damage this deals to a unit destroys it.
    Deadly,
    /// 转移: once a turn at your {通常} timing, move to an adjacent empty 陣地 (not while 整备).
    Shift,
    /// 族群: same-subtype units may be played next to each other as if they had 伏击.
    Swarm,
}

/// The glossary's 24 names in the engine's spelling (simplified), in the seed's order.
pub const GLOSSARY: [&str; 24] = [
    "抵抗", "洞察", "动荡", "伏击", "观星", "坚韧", "连击", "逆境", "判定", "佩带", "破竹", "拼点",
    "取消", "射击", "神速", "盛世", "突击", "外交", "迎击", "远征", "斩获", "致命", "转移", "族群",
];

/// Traditional spellings as printed in the seed, mapped to the engine's spelling.
fn canonical(name: &str) -> &str {
    match name {
        "動蕩" | "動盪" | "动荡" => "动荡",
        "伏擊" => "伏击",
        "觀星" => "观星",
        "堅韌" => "坚韧",
        "連擊" => "连击",
        "佩帶" => "佩带",
        "拼點" => "拼点",
        "射擊" => "射击",
        "突擊" => "突击",
        "迎擊" => "迎击",
        "遠征" => "远征",
        "斬獲" => "斩获",
        "轉移" => "转移",
        other => other,
    }
}

impl Keyword {
    pub fn name_zh(&self) -> &'static str {
        match self {
            Keyword::Resist(_) => "抵抗",
            Keyword::Insight => "洞察",
            Keyword::Turmoil => "动荡",
            Keyword::Ambush => "伏击",
            Keyword::Stargaze(_) => "观星",
            Keyword::Tough(_) => "坚韧",
            Keyword::Combo => "连击",
            Keyword::Adversity(_) => "逆境",
            Keyword::Judge(_) => "判定",
            Keyword::Equip(_) => "佩带",
            Keyword::Breakthrough => "破竹",
            Keyword::Contest => "拼点",
            Keyword::Cancel => "取消",
            Keyword::Shoot(_) => "射击",
            Keyword::Haste => "神速",
            Keyword::Prosperity(_) => "盛世",
            Keyword::Assault(_) => "突击",
            Keyword::Diplomacy(..) => "外交",
            Keyword::Intercept(_) => "迎击",
            Keyword::Expedition { .. } => "远征",
            Keyword::Spoils => "斩获",
            Keyword::Deadly => "致命",
            Keyword::Shift => "转移",
            Keyword::Swarm => "族群",
        }
    }

    /// Parses "坚韧 2", "外交 蜀 +1/+1", "远征 1 2", "逆境" (a bare condition is a zero boost).
    pub fn parse(text: &str) -> Result<Keyword, String> {
        let mut words = text.split_whitespace();
        let Some(head) = words.next() else {
            return Err("empty keyword".into());
        };
        let args: Vec<&str> = words.collect();
        let num = |i: usize| -> Result<u8, String> {
            let s = args
                .get(i)
                .ok_or_else(|| format!("`{head}` needs a number"))?;
            s.parse::<u8>()
                .map_err(|_| format!("`{head}`: `{s}` is not a number 0-255"))
        };
        let boost = |i: usize| -> Result<Boost, String> {
            match args.get(i) {
                None => Ok(Boost::default()),
                Some(s) => Boost::parse(s)
                    .ok_or_else(|| format!("`{head}`: `{s}` is not a boost like +1/+0")),
            }
        };
        let arity = |n: usize| -> Result<(), String> {
            if args.len() > n {
                Err(format!(
                    "`{head}` takes {n} argument(s), got {}",
                    args.len()
                ))
            } else {
                Ok(())
            }
        };
        let kw = match canonical(head) {
            "抵抗" => {
                if args.is_empty() {
                    return Err("`抵抗` needs a category (faction, subtype or kind)".into());
                }
                Keyword::Resist(args.iter().map(|s| s.to_string()).collect())
            }
            "洞察" => Keyword::Insight,
            "动荡" => Keyword::Turmoil,
            "伏击" => Keyword::Ambush,
            "观星" => Keyword::Stargaze(num(0)?),
            "坚韧" => Keyword::Tough(num(0)?),
            "连击" => Keyword::Combo,
            "逆境" => {
                arity(1)?;
                Keyword::Adversity(boost(0)?)
            }
            "判定" => Keyword::Judge(num(0)?),
            "佩带" => Keyword::Equip(num(0)?),
            "破竹" => Keyword::Breakthrough,
            "拼点" => Keyword::Contest,
            "取消" => Keyword::Cancel,
            "射击" => Keyword::Shoot(num(0)?),
            "神速" => Keyword::Haste,
            "盛世" => {
                arity(1)?;
                Keyword::Prosperity(boost(0)?)
            }
            "突击" => Keyword::Assault(num(0)?),
            "外交" => {
                arity(2)?;
                let f = args
                    .first()
                    .and_then(|s| Faction::parse(s))
                    .filter(|f| *f != Faction::Neutral)
                    .ok_or("`外交` needs a faction: 魏, 蜀, 吴 or 群")?;
                Keyword::Diplomacy(f, boost(1)?)
            }
            "迎击" => Keyword::Intercept(num(0)?),
            "远征" => Keyword::Expedition {
                need: num(0)?,
                cost: num(1)?,
            },
            "斩获" => Keyword::Spoils,
            "致命" => Keyword::Deadly,
            "转移" => Keyword::Shift,
            "族群" => Keyword::Swarm,
            other => {
                return Err(format!(
                    "unknown keyword `{other}` (the glossary has: {})",
                    GLOSSARY.join(" ")
                ))
            }
        };
        // Keywords with a fixed number of arguments must not carry stray words.
        let expected = match &kw {
            Keyword::Resist(_)
            | Keyword::Adversity(_)
            | Keyword::Prosperity(_)
            | Keyword::Diplomacy(..) => None,
            Keyword::Expedition { .. } => Some(2),
            Keyword::Stargaze(_)
            | Keyword::Tough(_)
            | Keyword::Judge(_)
            | Keyword::Equip(_)
            | Keyword::Shoot(_)
            | Keyword::Assault(_)
            | Keyword::Intercept(_) => Some(1),
            _ => Some(0),
        };
        if let Some(n) = expected {
            arity(n)?;
        }
        Ok(kw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_glossary_name_parses() {
        let samples = [
            "抵抗 黄巾 单位",
            "洞察",
            "動蕩",
            "伏擊",
            "观星 2",
            "堅韌 2",
            "连击",
            "逆境 +2/+0",
            "判定 3",
            "佩带 2",
            "破竹",
            "拼點",
            "取消",
            "射击 1",
            "神速",
            "盛世 +1/+1",
            "突击 2",
            "外交 蜀 +1/+1",
            "迎击 1",
            "远征 1 2",
            "斩获",
            "致命",
            "转移",
            "族群",
        ];
        let names: Vec<&str> = samples
            .iter()
            .map(|s| {
                Keyword::parse(s)
                    .unwrap_or_else(|e| panic!("{s}: {e}"))
                    .name_zh()
            })
            .collect();
        assert_eq!(names, GLOSSARY.to_vec());
    }

    #[test]
    fn bad_keywords_are_refused_with_a_reason() {
        assert!(Keyword::parse("飞行")
            .unwrap_err()
            .contains("unknown keyword"));
        assert!(Keyword::parse("坚韧")
            .unwrap_err()
            .contains("needs a number"));
        assert!(Keyword::parse("坚韧 two").is_err());
        assert!(Keyword::parse("神速 1").unwrap_err().contains("takes 0"));
        assert!(Keyword::parse("外交 中立").is_err());
        assert!(Keyword::parse("逆境 +2").is_err());
    }
}
