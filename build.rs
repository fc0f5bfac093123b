//! Records the git commit the binary is built from, so that every report can name it
//! (`schema::Tool`): `NFOLD_GIT_COMMIT`, or nothing outside a git checkout.
//!
//! The build is rerun only when the commit may have changed: the checkout's `HEAD` and
//! the one branch it names. Watching paths that do not exist (a worktree's `.git` is a
//! file) or the whole `refs` directory (every branch's commit) rebuilt nfold on every
//! `cargo` command.

use std::path::PathBuf;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let (Some(dir), Some(common)) = (
        git(&["rev-parse", "--absolute-git-dir"]),
        git(&["rev-parse", "--path-format=absolute", "--git-common-dir"]),
    ) else {
        return;
    };
    let head = PathBuf::from(&dir).join("HEAD");
    println!("cargo:rerun-if-changed={}", head.display());
    let branch = std::fs::read_to_string(&head)
        .ok()
        .and_then(|h| h.trim().strip_prefix("ref: ").map(str::to_string));
    if let Some(r) = branch {
        let loose = PathBuf::from(&common).join(&r);
        if loose.exists() {
            println!("cargo:rerun-if-changed={}", loose.display());
        }
        // A branch without a loose ref file lives in packed-refs.
        let packed = PathBuf::from(&common).join("packed-refs");
        if !loose.exists() && packed.exists() {
            println!("cargo:rerun-if-changed={}", packed.display());
        }
    }
    if let Some(c) = git(&["rev-parse", "--short=12", "HEAD"]) {
        println!("cargo:rustc-env=NFOLD_GIT_COMMIT={c}");
    }
}
