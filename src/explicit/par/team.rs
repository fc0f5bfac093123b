//! A team of threads running a level-synchronous search: the barrier they meet at
//! between phases, the profile of their phases, and the flag that ends their rounds.

use super::barrier::Barrier;
use super::prof::{Phase, Prof};
use std::sync::atomic::{AtomicBool, Ordering};

pub(in crate::explicit) struct Team<P: Phase> {
    barrier: Barrier,
    pub prof: Prof<P>,
    quit: AtomicBool,
}

impl<P: Phase> Team<P> {
    /// A team of `threads` threads; `what` searches, in rounds called `rounds`
    /// (`Prof::new`).
    pub fn new(threads: usize, what: &'static str, rounds: &'static str) -> Team<P> {
        Team {
            barrier: Barrier::new(threads),
            prof: Prof::new(threads, what, rounds),
            quit: AtomicBool::new(false),
        }
    }

    /// Thread `t` waits for every thread of the team; true for one of them, the leader
    /// of this meeting (`Barrier::wait`).
    #[inline]
    pub fn meet(&self, t: usize) -> bool {
        self.prof.wait(t, &self.barrier)
    }

    /// End the rounds: every thread that looks after the next meeting sees it.
    pub fn quit(&self) {
        self.quit.store(true, Ordering::Release);
    }

    pub fn quitting(&self) -> bool {
        self.quit.load(Ordering::Acquire)
    }
}
