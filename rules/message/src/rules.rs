//! Names of the rulebook sections and profile options that rulings cite.

use crate::catalogue::Kind;
use rules_core::RuleRef;

pub fn seed(section: &str) -> RuleRef {
    RuleRef::rulebook(format!("风声规则 {section}"))
}

pub fn profile(option: &str) -> RuleRef {
    RuleRef::profile(format!("message.{option}"))
}

/// A function card's own text (the seed's 功能牌 entry, or the assumed entry of RULES-NOTES.md).
pub fn card(kind: Kind) -> RuleRef {
    match kind {
        Kind::Lock | Kind::Lure | Kind::Intercept | Kind::Return | Kind::Decode => {
            seed(&format!("功能牌·{}", kind.zh()))
        }
        _ => RuleRef::Card(format!("{} (assumed card, RULES-NOTES 风声)", kind.zh())),
    }
}

pub const FLOW: &str = "游戏流程";
pub const PLAY_PHASE: &str = "出牌阶段 1（每回合必须且只能传出一张情报）";
pub const DRAW: &str = "抽牌阶段";
pub const SECRET: &str = "情报传递·密电";
pub const DIRECT: &str = "情报传递·直达";
pub const TEXT: &str = "情报传递·文本";
pub const BACK_TO_SENDER: &str = "情报传递（回到传出者面前时，该玩家必须接收）";
pub const DEATH: &str = "死亡";
pub const LOSING: &str = "输掉游戏";
pub const VICTORY: &str = "胜利条件";
pub const END: &str = "结束游戏";
pub const CHARACTERS: &str = "角色挑选";
pub const IDENTITIES: &str = "身份决定";
pub const LOCK_OVER_LURE: &str = "功能牌·调虎离山（锁定高于调虎离山）";
pub const INTERCEPT_LAST: &str = "功能牌·截获（后发先至）";
pub const RETURN_LOCKED: &str = "功能牌·退回（若你被先锁定了，则退回不能发挥作用）";
pub const RETURN_OWN: &str = "功能牌·退回（若该情报是你传出的，你不能使用）";
