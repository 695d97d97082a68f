//! The game journal: one JSON object per line, appended and flushed after every committed action, so a
//! crash or a closed window loses nothing. The first line is the game's header (its set-up).
//! A last line cut off mid-write is dropped on resume with a warning that names the file and line.

use anyhow::{bail, Context};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

pub struct Journal {
    path: PathBuf,
    file: File,
}

/// What a journal held when it was reopened.
pub struct Resumed<H, E> {
    pub header: H,
    pub entries: Vec<E>,
    /// Set when a cut-off last line was dropped.
    pub warning: Option<String>,
}

impl Journal {
    /// Starts a new journal with its header; refuses to overwrite an existing game.
    pub fn create<H: Serialize>(path: &Path, header: &H) -> anyhow::Result<Journal> {
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .with_context(|| {
                format!(
                    "cannot create the journal {} (does a game already exist there?)",
                    path.display()
                )
            })?;
        let mut journal = Journal {
            path: path.to_path_buf(),
            file,
        };
        journal.append(header)?;
        Ok(journal)
    }

    /// Reopens a journal to continue the game it holds.
    pub fn resume<H: DeserializeOwned, E: DeserializeOwned>(
        path: &Path,
    ) -> anyhow::Result<(Journal, Resumed<H, E>)> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the journal {shown}"))?;
        let mut lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l))
            .filter(|(_, l)| !l.trim().is_empty())
            .collect();
        let mut warning = None;
        // Only the very last line may be cut off by a crash; anywhere else is corruption.
        if let Some(&(n, last)) = lines.last() {
            let complete =
                text.ends_with('\n') && serde_json::from_str::<serde_json::Value>(last).is_ok();
            if !complete && lines.len() > 1 {
                warning = Some(format!("{shown}:{n}: the last entry was cut off mid-write and is dropped; the game resumes from the entry before it"));
                lines.pop();
            }
        }
        let Some(&(n, head)) = lines.first() else {
            bail!("{shown}: the journal is empty")
        };
        let header: H = serde_json::from_str(head)
            .with_context(|| format!("{shown}:{n}: not a journal header"))?;
        let entries = lines[1..]
            .iter()
            .map(|&(n, l)| {
                serde_json::from_str(l)
                    .with_context(|| format!("{shown}:{n}: unreadable journal entry"))
            })
            .collect::<anyhow::Result<Vec<E>>>()?;
        // Rewrite a cut-off tail so the next append starts on a fresh line.
        if warning.is_some() {
            let kept: String = std::iter::once(head)
                .chain(lines[1..].iter().map(|&(_, l)| l))
                .map(|l| format!("{l}\n"))
                .collect();
            std::fs::write(path, kept).with_context(|| format!("cannot repair {shown}"))?;
        }
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .with_context(|| format!("cannot append to {shown}"))?;
        Ok((
            Journal {
                path: path.to_path_buf(),
                file,
            },
            Resumed {
                header,
                entries,
                warning,
            },
        ))
    }

    /// Appends one entry and forces it to disk.
    pub fn append<E: Serialize>(&mut self, entry: &E) -> anyhow::Result<()> {
        let mut line = serde_json::to_string(entry)?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
            .with_context(|| format!("cannot write to the journal {}", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Head {
        game: String,
    }
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Entry {
        action: String,
    }

    fn temp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("arbiter-journal-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        dir
    }

    #[test]
    fn entries_survive_a_reopen() {
        let path = temp("reopen");
        let mut j = Journal::create(
            &path,
            &Head {
                game: "blitz".into(),
            },
        )
        .unwrap();
        j.append(&Entry {
            action: "keep".into(),
        })
        .unwrap();
        drop(j);
        let (_, r) = Journal::resume::<Head, Entry>(&path).unwrap();
        assert_eq!(r.header.game, "blitz");
        assert_eq!(
            r.entries,
            vec![Entry {
                action: "keep".into()
            }]
        );
        assert!(r.warning.is_none());
        assert!(
            Journal::create(&path, &Head { game: "x".into() }).is_err(),
            "never overwrites a game"
        );
    }

    #[test]
    fn a_cut_off_last_line_is_dropped_with_a_warning_naming_the_line() {
        let path = temp("cut");
        std::fs::write(
            &path,
            "{\"game\":\"blitz\"}\n{\"action\":\"keep\"}\n{\"action\":\"dra",
        )
        .unwrap();
        let (mut j, r) = Journal::resume::<Head, Entry>(&path).unwrap();
        assert_eq!(r.entries.len(), 1);
        assert!(
            r.warning.as_deref().is_some_and(|w| w.contains(":3:")),
            "{:?}",
            r.warning
        );
        j.append(&Entry {
            action: "draw".into(),
        })
        .unwrap();
        let (_, r) = Journal::resume::<Head, Entry>(&path).unwrap();
        assert_eq!(r.entries.len(), 2);
        assert!(r.warning.is_none());
    }

    #[test]
    fn corruption_in_the_middle_is_an_error_naming_the_line() {
        let path = temp("corrupt");
        std::fs::write(
            &path,
            "{\"game\":\"blitz\"}\nnot json\n{\"action\":\"keep\"}\n",
        )
        .unwrap();
        let err = Journal::resume::<Head, Entry>(&path).err().unwrap();
        assert!(format!("{err:#}").contains(":2:"), "{err:#}");
    }
}
