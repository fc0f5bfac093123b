//! Oracles and helpers shared by the integration tests.

// Each test crate that includes this module uses only part of it.
#![allow(dead_code)]

pub mod fair_scc;

use std::process::Command;

/// Runs the `nfold` binary from the crate root: exit code, stdout, stderr. Fails the
/// test if anything panicked or a backtrace hint reached the user.
pub fn nfold(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nfold"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run nfold");
    let (o, e) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(
        !e.contains("panicked") && !e.contains("RUST_BACKTRACE"),
        "panic:\n{e}"
    );
    (out.status.code().unwrap_or(-1), o, e)
}
