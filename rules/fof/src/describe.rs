//! Events in words (both languages) for the CLI and the panel.

use crate::state::{CommandKind, Event, Side};
use rules_core::Text;

fn side(s: Side) -> (&'static str, &'static str) {
    match s {
        Side::Friendly => ("我方", "friendly"),
        Side::Enemy => ("敌方", "enemy"),
    }
}

impl Event {
    pub fn describe(&self) -> Text {
        match self {
            Event::StepEntered { turn, step, title } => Text::new(
                format!("— 第{turn}回合 {step} {} —", title.zh),
                format!("— turn {turn}, {step} {} —", title.en),
            ),
            Event::StepSkipped { step, reason, .. } => Text::new(
                format!("跳过 {step}（{}）", reason.zh),
                format!("skip {step} ({})", reason.en),
            ),
            Event::Drew { record, card } => {
                let face = match card {
                    Some(c) => c.to_string(),
                    None => format!("take card #{} from your deck and read it", record.card),
                };
                Text::new(
                    format!(
                        "抽牌{}（{}）：第{}号牌 {face}",
                        record.seq, record.purpose, record.card
                    ),
                    format!("draw {} ({}): {face}", record.seq, record.purpose),
                )
            }
            Event::Reshuffled { shuffle, cards } => Text::new(
                format!("牌堆用完：重洗 {cards} 张弃牌（第{shuffle}次洗牌）"),
                format!("deck ran out: {cards} discards reshuffled (shuffle {shuffle})"),
            ),
            Event::HqEvent { side: s, r, event } => {
                let (zh, en) = side(*s);
                Text::new(
                    format!("{zh}高级指挥部事件 R{r}：{}", event.zh),
                    format!("{en} higher HQ event R{r}: {}", event.en),
                )
            }
            Event::NoHqEvent { side: s } => {
                let (zh, en) = side(*s);
                Text::new(
                    format!("无HQ符号：无{zh}高级指挥部事件"),
                    format!("no HQ icon: no {en} higher HQ event"),
                )
            }
            Event::Commands {
                hq,
                kind,
                printed,
                modifier,
                gained,
                available,
            } => {
                let k = match kind {
                    CommandKind::Activated => ("启动", "activated"),
                    CommandKind::Initiative => ("主动", "initiative"),
                };
                Text::new(
                    format!("{hq} {}指令：牌面 {printed} 修正 {modifier:+} → +{gained}，现有 {available}", k.0),
                    format!("{hq} {} commands: printed {printed}, modifier {modifier:+} → +{gained}, now {available}", k.1),
                )
            }
            Event::Activated { hq, by } => {
                let by = by.clone().unwrap_or_default();
                Text::new(format!("{by} 启动 {hq}"), format!("{hq} activated by {by}"))
            }
            Event::Spent { hq, points, left } => Text::new(
                format!("{hq} 使用 {points} 个指令，剩 {left}"),
                format!("{hq} spends {points}, {left} left"),
            ),
            Event::Saved { hq, kept, lost } => Text::new(
                format!("{hq} 保留 {kept} 个指令，失去 {lost}"),
                format!("{hq} keeps {kept} command(s), loses {lost}"),
            ),
            Event::EnemyOrder { units } => Text::new(
                format!("敌方行动检测次序：{}", units.join(", ")),
                format!("enemy activity check order: {}", units.join(", ")),
            ),
            Event::EnemyCheck { unit, card } => Text::new(
                format!("敌方 {unit}：用第{card}号牌查行动检测等级表（9.4）"),
                format!("enemy {unit}: read card #{card} on the activity check table (9.4)"),
            ),
            Event::PcPlaced { markers } => Text::new(
                format!("放置PC标记：{}", markers.join(", ")),
                format!("PC markers placed: {}", markers.join(", ")),
            ),
            Event::PcResolved {
                marker,
                contact,
                automatic,
            } => match (contact, automatic) {
                (_, true) => Text::new(
                    format!("PC {marker}：自动接敌，按任务指南放置敌军"),
                    format!("PC {marker}: automatic contact, place enemy per the mission"),
                ),
                (Some(c), _) => Text::new(
                    format!("PC {marker}：接敌——{}", c.zh()),
                    format!("PC {marker}: contact: {}", c.name()),
                ),
                (None, _) => Text::new(
                    format!("PC {marker}：无接敌"),
                    format!("PC {marker}: no contact"),
                ),
            },
            Event::FireResolved {
                modifier,
                effective,
            } => Text::new(
                format!(
                    "净修正 {modifier:+} 的火力{}",
                    if *effective { "有效" } else { "无效" }
                ),
                format!(
                    "fire at {modifier:+}: {}",
                    if *effective {
                        "effective"
                    } else {
                        "not effective"
                    }
                ),
            ),
            Event::HitResolved { experience, effect } => Text::new(
                format!("{}目标：{}", experience.name(), effect.zh()),
                format!("{} target: {}", experience.name(), effect.name()),
            ),
            Event::ActivitySet { level } => Text::new(
                format!("活动等级：{level}"),
                format!("activity level: {level}"),
            ),
            Event::EnemyAdded { unit } => Text::new(
                format!("敌方单位 {unit} 上图"),
                format!("enemy {unit} on the map"),
            ),
            Event::EnemyRemoved { unit } => Text::new(
                format!("敌方单位 {unit} 离图"),
                format!("enemy {unit} off the map"),
            ),
            Event::PcRemoved { marker } => Text::new(
                format!("移除PC标记 {marker}"),
                format!("PC marker {marker} removed"),
            ),
            Event::Awaiting { card, question } => Text::new(
                format!("第{card}号牌：{}", question.zh),
                format!("card #{card}: {}", question.en),
            ),
            Event::TurnAdvanced { turn, time } => Text::new(
                format!("回合标记推进到第{turn}回合（{}）", time.text().zh),
                format!("turn marker to turn {turn} ({})", time.text().en),
            ),
            Event::GameOver { objectives } => Text::new(
                format!("任务结束。目标：{}", objectives.zh),
                format!("mission over. Objectives: {}", objectives.en),
            ),
        }
    }
}
