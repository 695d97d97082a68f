//! Runs the built `arbiter` binary as a user would.

use std::path::PathBuf;
use std::process::Command;

pub fn arbiter() -> Command {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let exe = root
        .join("target")
        .join(if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        })
        .join("arbiter");
    let mut cmd = Command::new(exe);
    cmd.current_dir(root);
    cmd
}

#[test]
fn help_lists_the_games() {
    let out = arbiter()
        .arg("--help")
        .output()
        .expect("run arbiter (build it first: cargo build -p arbiter)");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("blitz"), "{text}");
}
