//! A search run beside another on a second core (issue 28, the parallel portfolio of
//! `auto`): the explicit search of the sizes the aggregate run (BMC, IC3) is about to
//! work on starts at once on its own thread instead of after the aggregate run's time
//! budget. Its answers are used only for the sizes the aggregate run leaves open for
//! its own budget, so the verdicts, depths and certificates are those of the
//! sequential order, only sooner; when the aggregate run answers every size, the
//! search beside it is stopped and its work dropped.

use crate::engine::Control;
use crate::verdict::Limit;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::Duration;

/// A search running on its own thread, with the flag that stops it.
pub(super) struct Beside<'scope, T> {
    /// `None` once joined.
    handle: Option<ScopedJoinHandle<'scope, T>>,
    stop: Arc<AtomicBool>,
}

/// A search whose result is not asked for (an error ended the run beside it) is
/// stopped, so that the scope it runs in is not kept waiting for it.
impl<T> Drop for Beside<'_, T> {
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

impl<'scope, T: Send + 'scope> Beside<'scope, T> {
    /// Start `search` on `sizes` on a thread of `scope` when `ctl` allows two or more
    /// cores (`None` otherwise, or when there is nothing to search). The search gets
    /// the user's limits, its own stop flag, and the cores but one.
    pub fn start<'env, F>(
        scope: &'scope Scope<'scope, 'env>,
        ctl: &Control,
        sizes: &[usize],
        search: F,
    ) -> Option<Self>
    where
        F: FnOnce(&[usize], &Control) -> T + Send + 'scope,
    {
        let cores = cores(ctl);
        if cores < 2 || sizes.is_empty() {
            return None;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let own = Control {
            stop: Some(stop.clone()),
            threads: cores - 1,
            ..ctl.clone()
        };
        let sizes = sizes.to_vec();
        let handle = scope.spawn(move || search(&sizes, &own));
        Some(Beside {
            handle: Some(handle),
            stop,
        })
    }

    /// The search's result: stopped first when `stop`, else waited for (it stops on
    /// the user's deadline by itself; an interrupt of the user's is passed on to it).
    pub fn finish(mut self, ctl: &Control, stop: bool) -> T {
        if stop {
            self.stop.store(true, Ordering::Relaxed);
        }
        let handle = self.handle.take().expect("joined once");
        while !handle.is_finished() {
            if ctl.users_limit() == Some(Limit::Interrupted) {
                self.stop.store(true, Ordering::Relaxed);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        match handle.join() {
            Ok(t) => t,
            Err(e) => std::panic::resume_unwind(e),
        }
    }
}
