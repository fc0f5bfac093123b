//! The barrier a team of threads meets at between the phases of a level-synchronous
//! search (four times a block of the safety search, twice a level of the fair-cycle
//! search's exploration): a thread arriving early spins, then yields its core, for up
//! to `SPIN` before it sleeps. A sleeping thread is woken through the kernel, and on a
//! virtual machine an idle virtual CPU is woken through the hypervisor: hundreds of
//! microseconds a time, at thousands of barriers a search (`std::sync::Barrier` sleeps
//! at once). The phases between barriers take
//! milliseconds and the threads finish them within a fraction of that, so a short
//! spin catches nearly every release; a thread left waiting longer (a loaded
//! machine) sleeps and gives its core away. (The spin-then-block wait of OpenMP
//! runtimes, `GOMP_SPINCOUNT`.)

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// How long a thread spins before it sleeps.
const SPIN: Duration = Duration::from_millis(1);

/// A reusable barrier for `n` threads.
pub(in crate::explicit) struct Barrier {
    n: usize,
    arrived: AtomicUsize,
    /// Counts the releases; a waiter leaves when it moves.
    generation: AtomicUsize,
    sleepers: AtomicUsize,
    lock: Mutex<()>,
    wake: Condvar,
}

impl Barrier {
    pub fn new(n: usize) -> Barrier {
        Barrier {
            n,
            arrived: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
            sleepers: AtomicUsize::new(0),
            lock: Mutex::new(()),
            wake: Condvar::new(),
        }
    }

    /// Wait until all `n` threads have called `wait`. Everything a thread wrote before
    /// it is seen by every thread after it. True for exactly one thread of each round,
    /// the last to arrive (the leader, as `std::sync::BarrierWaitResult::is_leader`).
    pub fn wait(&self) -> bool {
        let g = self.generation.load(Ordering::SeqCst);
        if self.arrived.fetch_add(1, Ordering::AcqRel) + 1 == self.n {
            self.arrived.store(0, Ordering::Relaxed);
            self.generation.store(g.wrapping_add(1), Ordering::SeqCst);
            // A sleeper counted itself before it looked at the generation (both
            // sequentially consistent): either it sees the new one, or this sees it.
            if self.sleepers.load(Ordering::SeqCst) > 0 {
                let _l = self.lock.lock().unwrap();
                self.wake.notify_all();
            }
            return true;
        }
        for _ in 0..64 {
            if self.generation.load(Ordering::Acquire) != g {
                return false;
            }
            std::hint::spin_loop();
        }
        // Then yield: on an idle core this returns at once, on a loaded one the core
        // goes to whoever is waiting for it (perhaps the thread this one waits for).
        let start = Instant::now();
        while start.elapsed() < SPIN {
            std::thread::yield_now();
            if self.generation.load(Ordering::Acquire) != g {
                return false;
            }
        }
        let mut l = self.lock.lock().unwrap();
        self.sleepers.fetch_add(1, Ordering::SeqCst);
        while self.generation.load(Ordering::SeqCst) == g {
            l = self.wake.wait(l).unwrap();
        }
        self.sleepers.fetch_sub(1, Ordering::SeqCst);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every thread sees every other's writes of a round after the barrier, through
    /// rounds where some threads spin and others sleep.
    #[test]
    fn rounds_are_separated() {
        let n = 3;
        let b = Barrier::new(n);
        let seen: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
        let leaders = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for t in 0..n {
                let (b, seen, leaders) = (&b, &seen, &leaders);
                s.spawn(move || {
                    for round in 1..=200 {
                        if round % 50 == t {
                            // Late past the spin: the others sleep.
                            std::thread::sleep(SPIN * 3);
                        }
                        seen[t].store(round, Ordering::Relaxed);
                        if b.wait() {
                            leaders.fetch_add(1, Ordering::Relaxed);
                        }
                        for x in seen {
                            assert!(x.load(Ordering::Relaxed) >= round);
                        }
                        b.wait();
                    }
                });
            }
        });
        // One leader per round of the first barrier.
        assert_eq!(leaders.load(Ordering::Relaxed), 200);
    }
}
