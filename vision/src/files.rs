//! Rewriting a player's files so that a crash, a kill or a planted link never costs what was there:
//! the new contents go to a new file beside the old one, are synced, then renamed over it.

use crate::VisionError;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Whether `path` is a symbolic link (a write must never land where a link points).
pub fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// Replaces `path` with `bytes`: the old contents stay whole until the new ones are on disk. A
/// path that is a symbolic link is refused.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), VisionError> {
    if is_link(path) {
        return Err(VisionError::Data {
            path: path.to_path_buf(),
            reason: "a symbolic link: refusing to write through it".into(),
        });
    }
    let tmp = temp_beside(path);
    let write = || -> std::io::Result<()> {
        // create_new never follows a link planted at the temporary name.
        let mut f = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()
    };
    write().map_err(|e| {
        std::fs::remove_file(&tmp).ok();
        VisionError::io(&tmp, e)
    })?;
    std::fs::rename(&tmp, path).map_err(|e| {
        std::fs::remove_file(&tmp).ok();
        VisionError::io(path, e)
    })?;
    sync_parent(path);
    Ok(())
}

fn temp_beside(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// Makes a rename durable (best effort: not every platform can open a directory).
fn sync_parent(path: &Path) {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if let Ok(dir) = std::fs::File::open(parent) {
        let _ = dir.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("vision-files-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_rewrite_replaces_the_whole_file_and_leaves_no_temporary() {
        let d = dir("rewrite");
        let p = d.join("refs.json");
        std::fs::write(&p, "old").unwrap();
        write_atomic(&p, b"new contents").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new contents");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_link_is_refused_and_its_target_untouched() {
        let d = dir("link");
        let target = d.join("precious.txt");
        std::fs::write(&target, "keep me").unwrap();
        let link = d.join("seats.json");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let err = write_atomic(&link, b"overwritten").unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
        let _ = std::fs::remove_dir_all(&d);
    }
}
