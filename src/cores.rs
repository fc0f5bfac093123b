//! Independent jobs, one per size, spread over the machine's cores: the largest size
//! first (the slowest, so that the last job to start is a short one), each result in
//! its size's place. Used where sizes are checked or proved one by one (the check of a
//! certificate's sizes, the ranking proofs). And one job waited for only until a limit
//! (`until_stopped`).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long a job may run on past its limit before its caller stops waiting for it.
pub const GRACE: Duration = Duration::from_millis(400);

/// `f` on a thread of its own, waited for while `stopped()` is false and for `GRACE`
/// after; `None` when it had not answered by then, and the thread is left to end on
/// its own. For work whose single steps cannot poll a limit: a BDD operation of a
/// certificate's check, the build of a large aggregate (Peterson's liveness product at
/// widths 1..20: 1.2 s). A panic of `f` is the caller's.
pub fn until_stopped<R: Send + 'static>(
    stopped: &dyn Fn() -> bool,
    f: impl FnOnce() -> R + Send + 'static,
) -> Option<R> {
    let (tx, rx) = mpsc::channel();
    let job = std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    let mut past: Option<Instant> = None;
    loop {
        match rx.recv_timeout(Duration::from_millis(20)) {
            Ok(r) => return Some(r),
            Err(mpsc::RecvTimeoutError::Disconnected) => match job.join() {
                Err(panic) => std::panic::resume_unwind(panic),
                Ok(()) => return None,
            },
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if stopped() && past.get_or_insert_with(Instant::now).elapsed() >= GRACE {
            return None;
        }
    }
}

/// `f` of every size of `sizes`, on the machine's cores, the largest first; the
/// results in the order of `sizes`. Once `enough` holds of a result, the sizes not yet
/// started are skipped (`None`).
pub fn largest_first<R: Send>(
    sizes: &[usize],
    f: &(dyn Fn(usize) -> R + Sync),
    enough: &(dyn Fn(&R) -> bool + Sync),
) -> Vec<Option<R>> {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(sizes[i]));
    let workers = std::thread::available_parallelism()
        .map_or(1, |k| k.get())
        .min(sizes.len())
        .max(1);
    let next = AtomicUsize::new(0);
    let stopped = AtomicBool::new(false);
    let done: Vec<Mutex<Option<R>>> = sizes.iter().map(|_| Mutex::new(None)).collect();
    let work = || {
        while !stopped.load(Ordering::Relaxed) {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(&i) = order.get(k) else { break };
            let r = f(sizes[i]);
            if enough(&r) {
                stopped.store(true, Ordering::Relaxed);
            }
            *done[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
        }
    };
    if workers == 1 {
        work();
    } else {
        std::thread::scope(|sc| {
            for _ in 0..workers {
                sc.spawn(work);
            }
        });
    }
    done.into_iter()
        .map(|d| d.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_size_in_its_place_and_a_stop_skips_the_rest() {
        let sizes = [3, 1, 4, 2];
        let all = largest_first(&sizes, &|n| n * 10, &|_| false);
        assert_eq!(all, vec![Some(30), Some(10), Some(40), Some(20)]);
        // The largest goes first: stopping on it leaves at most the sizes other
        // cores had started.
        let some = largest_first(&sizes, &|n| n, &|&r| r == 4);
        assert_eq!(some[2], Some(4));
        assert!(
            some.iter().flatten().count()
                <= 1 + std::thread::available_parallelism().map_or(1, |k| k.get())
        );
    }
}
