//! Where a parallel search's time goes, for tuning: set `NFOLD_SEARCH_PROFILE=1` (the
//! fair-cycle search's former `NFOLD_LIVE_PROFILE=1` does the same) and each parallel
//! search prints, on standard error, every thread's CPU time per phase of its rounds
//! (the safety search's blocks, the fair-cycle exploration's levels, the distributed
//! search's levels) and its wall time waiting at the ends of rounds, and, where a
//! leader closes each round (`end_round`), the critical path: per round, the slowest
//! thread of each parallel phase plus the leader's serial work. CPU time of each thread
//! (not wall time) so that the figures do not depend on the load of a shared machine:
//! the critical path is the time the search would take on as many idle cores as
//! threads, and the CPU time of a one-thread run divided by it bounds the speed-up.
//! The other figures of a search (counts, bytes, a serial phase after the rounds) are
//! lines of their own (`line`). Off, it costs one branch per phase.

use super::barrier::Barrier;
use std::marker::PhantomData;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The variable that turns the profile on, and its former name for the fair-cycle
/// search.
const VARS: [&str; 2] = ["NFOLD_SEARCH_PROFILE", "NFOLD_LIVE_PROFILE"];
/// The most phases a round has.
const MAX_PHASES: usize = 4;

/// Whether profiling is on (read once).
pub(in crate::explicit) fn on() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| VARS.iter().any(|v| std::env::var_os(v).is_some()))
}

/// CPU seconds used by the calling thread so far.
pub(in crate::explicit) fn thread_cpu() -> f64 {
    crate::limits::cpu_seconds(libc::CLOCK_THREAD_CPUTIME_ID).unwrap_or(0.0)
}

/// The CPU time of the calling thread, in nanoseconds.
fn cpu_ns() -> u64 {
    (thread_cpu() * 1e9) as u64
}

/// Print one profile line when profiling is on.
pub(in crate::explicit) fn line(s: impl FnOnce() -> String) {
    if on() {
        eprintln!("[profile] {}", s());
    }
}

/// The phases of a search's rounds.
pub(in crate::explicit) trait Phase: Copy {
    /// Each phase's name, by `index` (at most `MAX_PHASES`).
    const NAMES: &'static [&'static str];
    /// The leader's work alone, if a round has some.
    const SERIAL: Option<usize>;
    fn index(self) -> usize;
}

/// One thread's figures.
#[derive(Default)]
struct Slot {
    /// CPU nanoseconds per phase in the current round.
    round: [AtomicU64; MAX_PHASES],
    /// CPU nanoseconds per phase in all.
    total: [AtomicU64; MAX_PHASES],
    /// Wall nanoseconds waiting at the ends of rounds.
    wait: AtomicU64,
}

/// The profile of one search on a team of threads (inert unless `on`).
pub(in crate::explicit) struct Prof<P: Phase> {
    on: bool,
    /// What searched, and what its rounds are called ("search", "blocks").
    what: &'static str,
    rounds: &'static str,
    slots: Vec<Slot>,
    /// Leader only: the critical path, and the rounds and states by how many threads
    /// expanded them.
    critical: AtomicU64,
    /// Per phase: the slowest thread's time beyond the mean of the round's threads.
    imbalance: [AtomicU64; MAX_PHASES],
    counts: [AtomicU64; 2],
    states: [AtomicU64; 2],
    phase: PhantomData<P>,
}

impl<P: Phase> Prof<P> {
    pub fn new(threads: usize, what: &'static str, rounds: &'static str) -> Prof<P> {
        debug_assert!(P::NAMES.len() <= MAX_PHASES);
        Prof {
            on: on(),
            what,
            rounds,
            slots: (0..threads).map(|_| Slot::default()).collect(),
            critical: AtomicU64::new(0),
            imbalance: Default::default(),
            counts: Default::default(),
            states: Default::default(),
            phase: PhantomData,
        }
    }

    /// Run `f` as thread `t`'s work in phase `p`.
    #[inline]
    pub fn time<R>(&self, t: usize, p: P, f: impl FnOnce() -> R) -> R {
        if !self.on {
            return f();
        }
        let a = cpu_ns();
        let r = f();
        let d = cpu_ns().saturating_sub(a);
        let s = &self.slots[t];
        s.round[p.index()].fetch_add(d, Ordering::Relaxed);
        s.total[p.index()].fetch_add(d, Ordering::Relaxed);
        r
    }

    /// Thread `t` waits at `barrier`; true for the round's leader (`Barrier::wait`).
    #[inline]
    pub fn wait(&self, t: usize, barrier: &Barrier) -> bool {
        self.waiting(t, || barrier.wait())
    }

    /// Thread `t` waits for the other threads by `f` (a barrier, the end of a round).
    #[inline]
    pub fn waiting<R>(&self, t: usize, f: impl FnOnce() -> R) -> R {
        if !self.on {
            return f();
        }
        let a = Instant::now();
        let r = f();
        let d = a.elapsed().as_nanos() as u64;
        self.slots[t].wait.fetch_add(d, Ordering::Relaxed);
        r
    }

    /// The leader, once every thread is done with a round of `states` states expanded
    /// by `sources` threads (the first `sources` slots), before any starts the next:
    /// add its critical path, start the next round's figures.
    pub fn end_round(&self, sources: usize, states: usize) {
        if !self.on {
            return;
        }
        let mut path = 0;
        for p in 0..P::NAMES.len() {
            let times = self.slots[..sources]
                .iter()
                .map(|s| s.round[p].load(Ordering::Relaxed));
            let max = times.clone().max().unwrap_or(0);
            let mean = times.sum::<u64>() / sources as u64;
            path += max;
            if P::SERIAL != Some(p) {
                self.imbalance[p].fetch_add(max - mean, Ordering::Relaxed);
            }
        }
        for s in &self.slots {
            s.round.iter().for_each(|x| x.store(0, Ordering::Relaxed));
        }
        self.critical.fetch_add(path, Ordering::Relaxed);
        let i = (sources > 1) as usize;
        self.counts[i].fetch_add(1, Ordering::Relaxed);
        self.states[i].fetch_add(states as u64, Ordering::Relaxed);
    }

    /// Print the figures of size `size` (when on).
    pub fn report(&self, size: usize) {
        if self.on {
            eprintln!("{}", self.text(size));
        }
    }

    fn text(&self, size: usize) -> String {
        let s = |ns: u64| ns as f64 / 1e9;
        let ld = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let rounds = ld(&self.counts[0]) + ld(&self.counts[1]);
        let mut text = format!(
            "{} profile, size {size}, {} thread(s) (CPU time of each thread; waits in wall time)\n",
            self.what,
            self.slots.len(),
        );
        if rounds > 0 {
            text.push_str(&format!(
                "  {} on several threads: {} ({} states); alone: {} ({} states)\n",
                self.rounds,
                ld(&self.counts[1]),
                ld(&self.states[1]),
                ld(&self.counts[0]),
                ld(&self.states[0]),
            ));
        }
        let (mut all, mut serial) = (0, 0);
        for (t, slot) in self.slots.iter().enumerate() {
            text.push_str(&format!("  thread {t}:"));
            for (p, name) in P::NAMES.iter().enumerate() {
                let v = ld(&slot.total[p]);
                all += v;
                if P::SERIAL == Some(p) {
                    serial += v;
                }
                text.push_str(&format!(" {name} {:.3} s,", s(v)));
            }
            text.push_str(&format!(" waited {:.3} s\n", s(ld(&slot.wait))));
        }
        if rounds == 0 {
            text.push_str(&format!("  CPU in all {:.3} s", s(all)));
            return text;
        }
        text.push_str("  slowest thread beyond the mean, per phase:");
        for (p, name) in P::NAMES.iter().enumerate() {
            if P::SERIAL != Some(p) {
                text.push_str(&format!(" {name} {:.3} s", s(ld(&self.imbalance[p]))));
            }
        }
        let crit = ld(&self.critical).max(1);
        text.push_str(&format!(
            "\n  CPU in all {:.3} s; critical path {:.3} s (serial {:.3} s, {:.1} %); \
             CPU / critical path {:.2}x",
            s(all),
            s(crit),
            s(serial),
            100.0 * serial as f64 / crit as f64,
            all as f64 / crit as f64
        ));
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy)]
    enum Two {
        Work,
        Lead,
    }

    impl Phase for Two {
        const NAMES: &'static [&'static str] = &["work", "lead"];
        const SERIAL: Option<usize> = Some(1);
        fn index(self) -> usize {
            self as usize
        }
    }

    /// The critical path of a round is the slowest thread of each phase, summed.
    #[test]
    fn critical_path_sums_the_slowest() {
        let mut p: Prof<Two> = Prof::new(2, "test", "rounds");
        p.on = true;
        p.slots[0].round[Two::Work.index()].store(3, Ordering::Relaxed);
        p.slots[1].round[Two::Work.index()].store(5, Ordering::Relaxed);
        p.slots[1].round[Two::Lead.index()].store(2, Ordering::Relaxed);
        p.end_round(2, 10);
        assert_eq!(p.critical.load(Ordering::Relaxed), 7);
        assert_eq!(p.imbalance[0].load(Ordering::Relaxed), 1);
        assert_eq!(p.slots[1].round[0].load(Ordering::Relaxed), 0);
        let text = p.text(3);
        assert!(
            text.contains("rounds on several threads: 1 (10 states)"),
            "{text}"
        );
        assert!(text.contains("critical path 0.000 s"), "{text}");
    }
}
