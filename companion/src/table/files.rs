//! A player's files safe from crashes, kills and planted links (the rewrite itself is
//! [`vision::files::write_atomic`]), and data-file text safe for a terminal.

use anyhow::{bail, Context};
use std::path::Path;

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
