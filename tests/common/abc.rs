//! Berkeley ABC as an independent model checker for the AIGER exports
//! (tests/aiger.rs, tests/aiger_live.rs): whether it is installed, and one run of its
//! command line under a wall-clock limit.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Whether `berkeley-abc` runs on this machine (the tests that need it are skipped
/// otherwise).
pub fn abc_available() -> bool {
    Command::new("berkeley-abc")
        .args(["-c", "quit"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Run ABC's command line: its standard output, or None when it ran out of `limit`
/// (wall-clock seconds; the machine may be shared) and was stopped.
pub fn abc(script: &str, limit: f64) -> Option<String> {
    let mut child = Command::new("berkeley-abc")
        .args(["-c", script])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run berkeley-abc");
    let start = Instant::now();
    while child.try_wait().expect("wait for berkeley-abc").is_none() {
        if start.elapsed().as_secs_f64() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child
        .wait_with_output()
        .expect("read berkeley-abc's output");
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}
