//! A player's files safe from crashes, kills and planted links (the rewrite itself is
//! [`vision::files::write_atomic`]), data-file text safe for a terminal, and a data file's text
//! with where it came from (kept whole in a journal).

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One data file's text and where it came from (its path, or the shipped file's name), so a game
/// set up from it can be journalled whole and resumed with the file moved or gone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataText {
    pub origin: String,
    pub text: String,
}

impl DataText {
    pub fn shipped(origin: &str, text: &str) -> DataText {
        DataText {
            origin: format!("{origin} (shipped)"),
            text: text.to_string(),
        }
    }

    pub fn read(path: &Path) -> anyhow::Result<DataText> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        Ok(DataText {
            origin: path.display().to_string(),
            text,
        })
    }

    /// The file at `path` when given, else the shipped text.
    pub fn given_or(path: Option<&Path>, shipped: DataText) -> anyhow::Result<DataText> {
        path.map_or(Ok(shipped), DataText::read)
    }
}

/// Refuses a path that is a symbolic link: a write must never land where a link points.
pub fn refuse_link(path: &Path) -> anyhow::Result<()> {
    if vision::files::is_link(path) {
        bail!(
            "{} is a symbolic link: refusing to write through it",
            path.display()
        );
    }
    Ok(())
}

/// Replaces `path` with `bytes`: the old contents stay whole until the new ones are on disk.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    vision::files::write_atomic(path, bytes)
        .with_context(|| format!("cannot rewrite {}", path.display()))
}

/// Writes `items` to `path`, one JSON line each (an evaluation's outcome per scene).
pub fn write_json_lines<T: serde::Serialize>(path: &Path, items: &[T]) -> anyhow::Result<()> {
    refuse_link(path)?;
    let mut text = String::new();
    for item in items {
        text.push_str(&serde_json::to_string(item)?);
        text.push('\n');
    }
    write_atomic(path, text.as_bytes())
}

/// Text from a data file made safe for a terminal: control characters (escape sequences, carriage
/// returns) become U+FFFD, so a crafted name cannot rewrite the screen.
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_never_reach_the_terminal() {
        assert_eq!(printable("ok\u{1b}[2Jgone\r"), "ok\u{FFFD}[2Jgone\u{FFFD}");
        assert_eq!(printable("死亡前线 A-1"), "死亡前线 A-1");
    }
}
