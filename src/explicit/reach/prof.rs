//! Where a search's time goes, for tuning the parallel scheme of `search`: set
//! `NFOLD_SEARCH_PROFILE=1` and each search prints, on standard error, every thread's
//! CPU time per phase of its blocks and its wall time waiting at the team's barriers,
//! and the critical path: per block, the slowest thread of each parallel phase plus
//! the leader's serial work. CPU time of each thread (not wall time) so that the
//! figures do not depend on the load of a shared machine: the critical path is the
//! time the search would take on as many idle cores as threads, and the CPU time of a
//! one-thread run divided by it bounds the speed-up. Off, it costs one branch per
//! phase.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The phases of a block.
#[derive(Clone, Copy)]
pub(super) enum Phase {
    /// Firing the transitions of the thread's share of the block (parallel).
    Expand = 0,
    /// Inserting into the thread's partitions (parallel).
    Insert = 1,
    /// Numbering the new states of the thread's share (parallel).
    Number = 2,
    /// The leader alone: preparing the block, taking in its results.
    Serial = 3,
}
const PHASES: usize = 4;
const NAMES: [&str; PHASES] = ["expand", "insert", "number", "serial"];

/// One thread's figures.
#[derive(Default)]
struct Slot {
    /// CPU nanoseconds per phase in the current block.
    block: [AtomicU64; PHASES],
    /// CPU nanoseconds per phase in all.
    total: [AtomicU64; PHASES],
    /// Wall nanoseconds waiting at the barriers.
    wait: AtomicU64,
}

/// The profile of one search (inert unless `NFOLD_SEARCH_PROFILE` is set).
pub(super) struct Prof {
    on: bool,
    slots: Vec<Slot>,
    /// Leader only: the critical path, and the blocks and states by how many threads
    /// expanded them.
    critical: AtomicU64,
    /// Per phase: the slowest thread's time beyond the mean of the block's threads.
    imbalance: [AtomicU64; PHASES],
    blocks: [AtomicU64; 2],
    states: [AtomicU64; 2],
}

/// The CPU time of the calling thread, in nanoseconds.
fn cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

impl Prof {
    pub fn new(threads: usize) -> Prof {
        Prof {
            on: std::env::var_os("NFOLD_SEARCH_PROFILE").is_some(),
            slots: (0..threads).map(|_| Slot::default()).collect(),
            critical: AtomicU64::new(0),
            imbalance: Default::default(),
            blocks: Default::default(),
            states: Default::default(),
        }
    }

    /// Run `f` as thread `t`'s work in phase `p`.
    #[inline]
    pub fn time<R>(&self, t: usize, p: Phase, f: impl FnOnce() -> R) -> R {
        if !self.on {
            return f();
        }
        let a = cpu_ns();
        let r = f();
        let d = cpu_ns() - a;
        let s = &self.slots[t];
        s.block[p as usize].fetch_add(d, Ordering::Relaxed);
        s.total[p as usize].fetch_add(d, Ordering::Relaxed);
        r
    }

    /// Thread `t` waits at `barrier`.
    #[inline]
    pub fn wait(&self, t: usize, barrier: &super::barrier::Barrier) {
        if !self.on {
            barrier.wait();
            return;
        }
        let a = Instant::now();
        barrier.wait();
        let d = a.elapsed().as_nanos() as u64;
        self.slots[t].wait.fetch_add(d, Ordering::Relaxed);
    }

    /// The leader, once every thread is done with a block of `states` states expanded
    /// by `sources` threads: add its critical path, start the next block's figures.
    pub fn end_block(&self, sources: usize, states: usize) {
        if !self.on {
            return;
        }
        let mut path = 0;
        for p in 0..PHASES {
            let times = self.slots[..sources]
                .iter()
                .map(|s| s.block[p].load(Ordering::Relaxed));
            let max = times.clone().max().unwrap_or(0);
            let mean = times.sum::<u64>() / sources as u64;
            path += max;
            if p != Phase::Serial as usize {
                self.imbalance[p].fetch_add(max - mean, Ordering::Relaxed);
            }
        }
        for s in &self.slots {
            s.block.iter().for_each(|x| x.store(0, Ordering::Relaxed));
        }
        self.critical.fetch_add(path, Ordering::Relaxed);
        let i = (sources > 1) as usize;
        self.blocks[i].fetch_add(1, Ordering::Relaxed);
        self.states[i].fetch_add(states as u64, Ordering::Relaxed);
    }

    /// Print the figures (when on).
    pub fn report(&self, size: usize) {
        if !self.on {
            return;
        }
        let s = |ns: u64| ns as f64 / 1e9;
        let ld = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let mut text = format!(
            "search profile, size {size}, {} thread(s) (CPU time of each thread; waits in wall time)\n  \
             blocks on several threads: {} ({} states); steps alone: {} ({} states)\n",
            self.slots.len(),
            ld(&self.blocks[1]),
            ld(&self.states[1]),
            ld(&self.blocks[0]),
            ld(&self.states[0]),
        );
        let mut all = 0;
        let mut serial = 0;
        for (t, slot) in self.slots.iter().enumerate() {
            text.push_str(&format!("  thread {t}:"));
            for (p, name) in NAMES.iter().enumerate() {
                let v = ld(&slot.total[p]);
                all += v;
                if p == Phase::Serial as usize {
                    serial += v;
                }
                text.push_str(&format!(" {name} {:.3} s,", s(v)));
            }
            text.push_str(&format!(" waited {:.3} s\n", s(ld(&slot.wait))));
        }
        let crit = ld(&self.critical).max(1);
        text.push_str("  slowest thread beyond the mean, per phase:");
        for (name, x) in NAMES.iter().zip(&self.imbalance[..Phase::Serial as usize]) {
            text.push_str(&format!(" {name} {:.3} s", s(ld(x))));
        }
        text.push('\n');
        text.push_str(&format!(
            "  CPU in all {:.3} s; critical path {:.3} s (serial {:.3} s, {:.1} %); \
             CPU / critical path {:.2}x",
            s(all),
            s(crit),
            s(serial),
            100.0 * serial as f64 / crit as f64,
            all as f64 / crit as f64
        ));
        eprintln!("{text}");
    }
}
