//! Where the parallel fair-cycle search spends its time, printed to stderr when the
//! environment variable `NFOLD_LIVE_PROFILE` is set (for benches and tuning; nothing
//! else reads it): thread CPU time per phase, from the kernel's per-thread clock.

use std::sync::OnceLock;

/// Whether profiling is on (read once).
pub(super) fn on() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("NFOLD_LIVE_PROFILE").is_some())
}

/// CPU seconds used by the calling thread so far.
pub(super) fn thread_cpu() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write; the clock id is a constant.
    unsafe {
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts);
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Print one profile line when profiling is on.
pub(super) fn line(s: impl FnOnce() -> String) {
    if on() {
        eprintln!("[live profile] {}", s());
    }
}
