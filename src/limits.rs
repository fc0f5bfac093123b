//! Reading the process's memory use and the machine's, for the memory guard and the
//! reports (Linux `/proc`; `None` elsewhere), and the CPU time a thread has had, for
//! the budgets of phases (`engine::Control::within_cpu`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

fn status_kb(field: &str) -> Option<usize> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with(field))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Peak resident memory of this process so far, in bytes.
pub fn peak_memory() -> Option<usize> {
    status_kb("VmHWM:")
}

/// Resident memory of this process now, in bytes.
pub fn current_memory() -> Option<usize> {
    status_kb("VmRSS:")
}

/// How long `recent_memory` keeps a reading: reading `/proc/self/status` costs tens of
/// microseconds (the kernel formats the whole file), and the engines that poll their
/// memory between BDD operations or SAT calls asked for it thousands of times a second
/// (30 % of the BDD engine's time on small models, measured with `perf`).
const READING_KEPT: std::time::Duration = std::time::Duration::from_millis(10);

/// Resident memory of this process, read at most every `READING_KEPT` (a shared
/// reading): for the limits polled in engines' inner loops.
pub fn recent_memory() -> Option<usize> {
    use std::sync::Mutex;
    use std::time::Instant;
    static LAST: Mutex<Option<(Instant, Option<usize>)>> = Mutex::new(None);
    let now = Instant::now();
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    match *last {
        Some((at, m)) if now.duration_since(at) < READING_KEPT => m,
        _ => {
            let m = current_memory();
            *last = Some((now, m));
            m
        }
    }
}

/// Physical memory of the machine, in bytes.
pub fn physical_memory() -> Option<usize> {
    let s = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = s.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Memory the machine can give to new allocations without swapping (`MemAvailable`),
/// in bytes.
pub fn available_memory() -> Option<usize> {
    let s = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = s.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The CPU-time clock of the calling thread (POSIX `pthread_getcpuclockid`).
pub fn thread_cpu_clock() -> Option<libc::clockid_t> {
    let mut id: libc::clockid_t = 0;
    // SAFETY: `pthread_self` is the calling thread, alive during the call, and `id` is
    // a valid place for the result.
    let rc = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut id) };
    (rc == 0).then_some(id)
}

/// The seconds of CPU time on `clock` (a thread's clock: `None` once the thread has
/// ended).
pub fn cpu_seconds(clock: libc::clockid_t) -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid place for the result; an invalid clock is an error code.
    let rc = unsafe { libc::clock_gettime(clock, &mut ts) };
    (rc == 0).then_some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
}

/// How often the memory guard reads the process's resident memory.
const GUARD_PERIOD: std::time::Duration = std::time::Duration::from_millis(50);

/// A flag raised once this process's resident memory passes `cap` bytes: a thread of
/// its own reads it every `GUARD_PERIOD` while anyone else holds the flag. Engines
/// whose memory lives in a SAT solver or a proof search cannot count their own bytes
/// the way the explicit searches count their tables; they poll this flag beside their
/// deadline, so `--max-memory` stops them too, before the kernel's OOM killer would.
pub fn memory_guard(cap: usize) -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let raised = flag.clone();
    std::thread::spawn(move || {
        while Arc::strong_count(&raised) > 1 && !raised.load(Ordering::Relaxed) {
            if current_memory().is_some_and(|m| m > cap) {
                raised.store(true, Ordering::Relaxed);
            }
            std::thread::sleep(GUARD_PERIOD);
        }
    });
    flag
}
