//! The game journal every table session keeps: one JSON object per line, appended and synced to
//! disk before a step is shown as committed, so a crash, a kill or a closed window loses nothing.
//! The first line is the game's header (its set-up).
//!
//! On resume a last line cut off mid-write is dropped with a warning naming file:line (the file is
//! repaired by writing a new one and renaming it over the old); a bad line anywhere else is an
//! error naming file:line, never skipped. One process at a time: a lock beside the journal
//! (`FILE.lock`, released by the system when the process ends, even killed) refuses a second.
//! A journal that is a symbolic link is refused.

use super::files::{refuse_link, write_atomic};
use anyhow::{bail, Context};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

pub struct Journal {
    path: PathBuf,
    file: File,
    /// Held (locked) for as long as the journal is open.
    _lock: File,
}

/// What a journal held when it was reopened.
pub struct Resumed<H, E> {
    pub header: H,
    pub entries: Vec<E>,
    /// Set when a cut-off last line was dropped.
    pub warning: Option<String>,
}

/// Where the lock beside the journal `path` lies (`FILE.lock`).
fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// A test's journal and its lock removed (they would pile up in the temporary folder).
#[cfg(test)]
pub fn remove_with_lock(path: &Path) {
    let _ = std::fs::remove_file(path);
    let _ = std::fs::remove_file(lock_path(path));
}

/// The lock file beside `path` (`FILE.lock`), opened (created when missing, never a link).
fn lock_file(path: &Path) -> anyhow::Result<(File, PathBuf)> {
    let lock_path = lock_path(path);
    refuse_link(&lock_path)?;
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .with_context(|| format!("cannot open the lock {}", lock_path.display()))?;
    Ok((file, lock_path))
}

/// Waits for the lock beside `path` and holds it until the returned file is dropped: for a
/// journal that several short-lived writers share (the Fields of Fire CLI and panel), each write
/// checked and made under it.
pub fn hold_lock(path: &Path) -> anyhow::Result<File> {
    let (file, lock_path) = lock_file(path)?;
    file.lock()
        .with_context(|| format!("cannot lock {}", lock_path.display()))?;
    Ok(file)
}

/// Takes the journal's lock, or says which journal another process has open.
fn lock(path: &Path) -> anyhow::Result<File> {
    let (file, lock_path) = lock_file(path)?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => bail!(
            "{} is open in another arbiter (its lock {} is held): close that one first",
            path.display(),
            lock_path.display()
        ),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(e).with_context(|| format!("cannot lock {}", lock_path.display()))
        }
    }
}

/// Refuses a journal whose header (`file:1`) names another game or journal format than this
/// session's: `found` and `want` are (game, format), `name` the game as the player calls it.
pub fn expect_game(
    path: &Path,
    found: (&str, u32),
    want: (&str, u32),
    name: &str,
) -> anyhow::Result<()> {
    if found.0 != want.0 {
        bail!(
            "{}:1: a {} journal, not a {name} one",
            path.display(),
            found.0
        );
    }
    if found.1 != want.1 {
        bail!(
            "{}:1: journal format {} (this arbiter reads {})",
            path.display(),
            found.1,
            want.1
        );
    }
    Ok(())
}

impl Journal {
    /// Starts a new journal with its header; refuses to overwrite an existing game (or a link).
    /// The journal appears whole or not at all: the header is written and synced under a
    /// temporary name, then linked into place (a link never replaces what is there).
    pub fn create<H: Serialize>(path: &Path, header: &H) -> anyhow::Result<Journal> {
        let shown = path.display();
        let lock = lock(path)?;
        let mut line = serde_json::to_string(header)?;
        line.push('\n');
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = path.with_file_name(format!(".{name}.{}.new", std::process::id()));
        let written = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .and_then(|mut f| f.write_all(line.as_bytes()).and_then(|()| f.sync_all()));
        let placed = written.and_then(|()| std::fs::hard_link(&tmp, path));
        let _ = std::fs::remove_file(&tmp);
        placed.with_context(|| {
            format!("cannot create the journal {shown} (does a game already exist there?)")
        })?;
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .with_context(|| format!("cannot append to {shown}"))?;
        Ok(Journal {
            path: path.to_path_buf(),
            file,
            _lock: lock,
        })
    }

    /// Reopens a journal to continue the game it holds.
    pub fn resume<H: DeserializeOwned, E: DeserializeOwned>(
        path: &Path,
    ) -> anyhow::Result<(Journal, Resumed<H, E>)> {
        let shown = path.display().to_string();
        refuse_link(path)?;
        let lock = lock(path)?;
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read the journal {shown}"))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let line = 1 + e.as_bytes()[..e.utf8_error().valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            anyhow::anyhow!("{shown}:{line}: not UTF-8 text: not a journal")
        })?;
        let mut lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l))
            .filter(|(_, l)| !l.trim().is_empty())
            .collect();
        let mut warning = None;
        let mut repair = !text.is_empty() && !text.ends_with('\n');
        // Only the very last line may be cut off by a crash; anywhere else is corruption. A last
        // line that is whole but lost its newline is kept.
        if let Some(&(n, last)) = lines.last() {
            let whole = serde_json::from_str::<serde_json::Value>(last).is_ok();
            if !whole && lines.len() > 1 {
                warning = Some(format!("{shown}:{n}: the last entry was cut off mid-write and is dropped; the game resumes from the entry before it"));
                lines.pop();
                repair = true;
            }
        }
        let Some(&(n, head)) = lines.first() else {
            bail!("{shown}: the journal is empty")
        };
        let header: H = serde_json::from_str(head)
            .with_context(|| format!("{shown}:{n}: not this game's journal header"))?;
        let entries = lines[1..]
            .iter()
            .map(|&(n, l)| {
                serde_json::from_str(l)
                    .with_context(|| format!("{shown}:{n}: unreadable journal entry"))
            })
            .collect::<anyhow::Result<Vec<E>>>()?;
        // Repair so the next append starts on a fresh line, never truncating in place.
        if repair {
            let kept: String = lines.iter().map(|&(_, l)| format!("{l}\n")).collect();
            write_atomic(path, kept.as_bytes())
                .with_context(|| format!("cannot repair {shown}"))?;
        }
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .with_context(|| format!("cannot append to {shown}"))?;
        Ok((
            Journal {
                path: path.to_path_buf(),
                file,
                _lock: lock,
            },
            Resumed {
                header,
                entries,
                warning,
            },
        ))
    }

    /// Appends one entry and forces it to disk; only then is the step committed.
    pub fn append<E: Serialize>(&mut self, entry: &E) -> anyhow::Result<()> {
        let mut line = serde_json::to_string(entry)?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
            .with_context(|| format!("cannot write to the journal {}", self.path.display()))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// A stable fingerprint of a data file's text (FNV-1a), for a journal header to name the catalogue
/// a game was played with: a changed file cannot replay the game.
pub fn fingerprint(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
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
        drop(j);
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

    #[test]
    fn a_whole_last_line_without_its_newline_is_kept() {
        let path = temp("no-newline");
        std::fs::write(&path, "{\"game\":\"blitz\"}\n{\"action\":\"keep\"}").unwrap();
        let (mut j, r) = Journal::resume::<Head, Entry>(&path).unwrap();
        assert_eq!(r.entries.len(), 1);
        assert!(r.warning.is_none());
        j.append(&Entry {
            action: "draw".into(),
        })
        .unwrap();
        drop(j);
        let (_, r) = Journal::resume::<Head, Entry>(&path).unwrap();
        assert_eq!(r.entries.len(), 2);
    }

    #[test]
    fn a_second_writer_is_refused_while_the_first_has_it_open() {
        let path = temp("two");
        let first = Journal::create(
            &path,
            &Head {
                game: "duel".into(),
            },
        )
        .unwrap();
        let err = Journal::resume::<Head, Entry>(&path).err().unwrap();
        assert!(format!("{err:#}").contains("another arbiter"), "{err:#}");
        drop(first);
        assert!(
            Journal::resume::<Head, Entry>(&path).is_ok(),
            "free once closed"
        );
    }

    #[test]
    fn another_games_journal_is_refused_at_its_header() {
        #[derive(Deserialize, Debug)]
        #[allow(dead_code)]
        struct Other {
            seats: Vec<String>,
        }
        let path = temp("wrong-game");
        std::fs::write(&path, "{\"game\":\"blitz\"}\n").unwrap();
        let err = Journal::resume::<Other, Entry>(&path).err().unwrap();
        assert!(
            format!("{err:#}").contains(":1: not this game's journal header"),
            "{err:#}"
        );
    }

    #[test]
    fn binary_junk_is_refused_naming_the_line() {
        let path = temp("junk");
        std::fs::write(&path, b"{\"game\":\"blitz\"}\n\xff\xfe\n").unwrap();
        let err = Journal::resume::<Head, Entry>(&path).err().unwrap();
        assert!(format!("{err:#}").contains(":2: not UTF-8"), "{err:#}");
    }

    #[cfg(unix)]
    #[test]
    fn a_journal_that_is_a_link_is_refused() {
        let path = temp("link");
        let target = temp("link-target");
        std::fs::write(&target, "{\"game\":\"blitz\"}\n").unwrap();
        std::os::unix::fs::symlink(&target, &path).unwrap();
        assert!(Journal::resume::<Head, Entry>(&path).is_err());
        assert!(Journal::create(&path, &Head { game: "x".into() }).is_err());
        assert_eq!(
            std::fs::read_to_string(&target).unwrap(),
            "{\"game\":\"blitz\"}\n"
        );
    }
}
