//! A search run beside another on a second core (issue 28, the parallel portfolio of
//! `auto`): the explicit search of the sizes the aggregate run (BMC, IC3) is about to
//! work on starts at once on its own thread instead of after the aggregate run's time
//! budget.
//!
//! Two ways to combine them:
//! - **in order** (`race` off, as when a certificate is asked for): the search's
//!   answers are used only for the sizes the aggregate run leaves open for its own
//!   budget, so the verdicts, depths and certificates are those of the sequential
//!   order, only sooner;
//! - **first answer wins** (`race` on, the default): when the search has answered
//!   every size it was given, the aggregate run is stopped and the sizes it had not
//!   answered yet take the search's answers. Both are complete and exact, so the
//!   verdicts and the (shortest) depths are those of the sequential order; what can
//!   depend on timing is only which evidence backs a `holds`, an invariant or an
//!   exhausted state space, and the notes say which.
//!
//! When the aggregate run answers every size, the search beside it is stopped and its
//! work dropped.
//!
//! The search hands each size over as it answers it (a channel, `Beside::poll`), not
//! when it ends: what the run's thread does with an answer (the check of the reduction,
//! `portfolio::reduced`, the rows printed) is then done while there is time, not after
//! the user's limit stopped the search at a larger size.

use crate::engine::Control;
use crate::verdict::Limit;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::Duration;

/// A search running on its own thread, with the flag that stops it; it hands over
/// each size's answer (`U`) as it has it, and its result (`T`) when it ends.
pub(super) struct Beside<'scope, T, U> {
    /// `None` once joined.
    handle: Option<ScopedJoinHandle<'scope, T>>,
    /// The answers handed over so far.
    answers: Receiver<U>,
    stop: Arc<AtomicBool>,
    /// Set once the search has answered every size it was given.
    complete: Arc<AtomicBool>,
    /// First answer wins: the stop flag of the run raced against, set when `complete`
    /// is and on the user's interrupt.
    race: Option<Arc<AtomicBool>>,
}

/// A search whose result is not asked for (an error ended the run beside it) is
/// stopped, so that the scope it runs in is not kept waiting for it.
impl<T, U> Drop for Beside<'_, T, U> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The cores `ctl` lets the engines use (`--threads`; 0: every core).
pub(super) fn cores(ctl: &Control) -> usize {
    match ctl.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        t => t,
    }
}

impl<'scope, T: Send + 'scope, U: Send + 'scope> Beside<'scope, T, U> {
    /// Start `search` on `sizes` on a thread of `scope` when `ctl` allows two or more
    /// cores (`None` otherwise, or when there is nothing to search). The search gets
    /// the user's limits, its own stop flag, and the cores the run beside it leaves
    /// (all but one), at the same priority. It once had every core at a lower
    /// priority (nice 10), so that the run beside it kept its core while both ran and
    /// the search had the machine once that run ended; but beside one other busy job
    /// such a search gets a tenth of a core, and its threads wait for each other at
    /// every block: the MCS lock's `live --fair` 1..8 took 29.6 s instead of 3.6 s
    /// idle (the explicit search at size 8 answering at 11 k states/s instead of 120 k),
    /// readers/writers' 13.6 s instead of 3.0 s. The aggregate phases' budgets count
    /// their own CPU time, so sharing a core no longer costs them answers. It returns
    /// its result and whether it answered every size, and hands each answer over
    /// through the `Sender` it is given as it has it. With `race`, the run beside it
    /// may be stopped by that answer (`racing`).
    pub fn start<'env, F>(
        scope: &'scope Scope<'scope, 'env>,
        ctl: &Control,
        sizes: &[usize],
        race: bool,
        search: F,
    ) -> Option<Self>
    where
        F: FnOnce(&[usize], &Control, &Sender<U>) -> (T, bool) + Send + 'scope,
    {
        let cores = cores(ctl);
        if cores < 2 || sizes.is_empty() {
            return None;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let complete = Arc::new(AtomicBool::new(false));
        let race = race.then(|| Arc::new(AtomicBool::new(false)));
        let own = Control {
            stop: Some(stop.clone()),
            threads: cores - 1,
            ..ctl.clone()
        };
        let sizes = sizes.to_vec();
        let (done, won) = (complete.clone(), race.clone());
        let (hand, answers) = channel();
        let handle = scope.spawn(move || {
            let (t, all) = search(&sizes, &own, &hand);
            if all {
                done.store(true, Ordering::Relaxed);
                if let Some(w) = won {
                    w.store(true, Ordering::Relaxed);
                }
            }
            t
        });
        // The user's interrupt reaches the raced run through its own flag.
        if let (Some(user), Some(r)) = (ctl.stop.clone(), race.clone()) {
            let ended = stop.clone();
            scope.spawn(move || {
                while !ended.load(Ordering::Relaxed) && !r.load(Ordering::Relaxed) {
                    if user.load(Ordering::Relaxed) {
                        r.store(true, Ordering::Relaxed);
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
            });
        }
        Some(Beside {
            handle: Some(handle),
            answers,
            stop,
            complete,
            race,
        })
    }

    /// The limits of the run raced against this search: `ctl`, stopped as well once
    /// this search has answered every size (only when racing).
    pub fn racing(&self, ctl: &Control) -> Control {
        match &self.race {
            Some(r) => Control {
                stop: Some(r.clone()),
                ..ctl.clone()
            },
            None => ctl.clone(),
        }
    }

    /// Whether the search has answered every size it was given.
    pub fn complete(&self) -> bool {
        self.complete.load(Ordering::Relaxed)
    }

    /// The answers handed over since the last call, waiting at most `wait` for the
    /// first.
    pub fn poll(&self, wait: Duration) -> Vec<U> {
        let mut out: Vec<U> = self.answers.recv_timeout(wait).into_iter().collect();
        out.extend(self.answers.try_iter());
        out
    }

    /// The search's result: stopped first when `stop`, else waited for (it stops on
    /// the user's deadline by itself; an interrupt of the user's is passed on to it);
    /// each answer handed to `take` as it comes, which says whether the search may
    /// stop there (nothing is left for it).
    pub fn finish(mut self, ctl: &Control, stop: bool, take: &mut dyn FnMut(U) -> bool) -> T {
        if stop {
            self.stop.store(true, Ordering::Relaxed);
        }
        let handle = self.handle.take().expect("joined once");
        loop {
            if ctl.users_limit() == Some(Limit::Interrupted) {
                self.stop.store(true, Ordering::Relaxed);
            }
            let finished = handle.is_finished();
            for u in self.poll(Duration::from_millis(20)) {
                if take(u) {
                    self.stop.store(true, Ordering::Relaxed);
                }
            }
            if finished {
                break;
            }
        }
        // Ends the watcher of the user's interrupt.
        self.stop.store(true, Ordering::Relaxed);
        match handle.join() {
            Ok(t) => t,
            Err(e) => std::panic::resume_unwind(e),
        }
    }
}
