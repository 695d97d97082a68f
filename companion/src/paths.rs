//! Files that ship with arbiter (models, scenarios), found from any working directory, and where a
//! player's own data (enrolled prints) lives.

use std::path::{Path, PathBuf};

/// Folders above the executable searched for shipped files: a build tree's `target/<profile>`
/// lies two below the workspace.
const LEVELS_ABOVE_EXE: usize = 3;

/// A shipped file named relative to the source tree (`models/identify/card_embed.tflite`): as
/// given when it exists from here; else beside the executable or up to three folders above it;
/// else in `share/arbiter` beside an installed binary's `bin`; else in the source tree this
/// binary was built from. When none has it, the path as given (so the error names it).
pub fn shipped(path: &Path) -> PathBuf {
    if path.is_absolute() || path.exists() {
        return path.to_path_buf();
    }
    candidates(path)
        .into_iter()
        .find(|p| p.exists())
        .unwrap_or_else(|| path.to_path_buf())
}

fn candidates(path: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    {
        for above in dir.ancestors().take(LEVELS_ABOVE_EXE + 1) {
            out.push(above.join(path));
        }
        if let Some(prefix) = dir.parent() {
            out.push(prefix.join("share").join("arbiter").join(path));
        }
    }
    out.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path));
    out
}

/// Where a player's own data lives: `$XDG_DATA_HOME/arbiter`, else `~/.local/share/arbiter`, else
/// the working directory.
pub fn user_data(name: &str) -> PathBuf {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".local").join("share"))
        });
    match base {
        Some(b) => b.join("arbiter").join(name),
        None => PathBuf::from(name),
    }
}

/// A new game journal in the player's data folder (`games/`), named by the game and the time it
/// began.
pub fn new_journal(game: &str) -> anyhow::Result<PathBuf> {
    use anyhow::Context;
    let dir = user_data("games");
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("cannot create the journal folder {}", dir.display()))?;
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    Ok(dir.join(format!("{game}-{secs}.jsonl")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shipped_model_is_found_from_another_directory() {
        let rel = Path::new("models/identify/card_embed.tflite");
        let found = shipped(rel);
        assert!(found.exists(), "{}", found.display());
        let missing = Path::new("models/no-such-file.tflite");
        assert_eq!(shipped(missing), missing);
    }
}
