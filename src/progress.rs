//! Progress on stderr for engines whose single steps can run long (one SAT query of a
//! deep BMC frame, one IC3 frame): a background thread prints what the engine said
//! it is doing every few seconds, until the engine finishes.

use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Seconds between heartbeat lines.
const EVERY: f64 = 5.0;

struct Shared {
    what: String,
    since: Instant,
    done: bool,
}

type Beat = (Arc<(Mutex<Shared>, Condvar)>, std::thread::JoinHandle<()>);

/// A heartbeat thread (inactive when progress is off).
pub struct Heartbeat {
    inner: Option<Beat>,
}

impl Heartbeat {
    /// Start printing `nfold: ENGINE: <what> for Xs, Ys in all` every few seconds.
    pub fn start(on: bool, engine: &'static str) -> Heartbeat {
        if !on {
            return Heartbeat { inner: None };
        }
        let shared = Arc::new((
            Mutex::new(Shared {
                what: String::new(),
                since: Instant::now(),
                done: false,
            }),
            Condvar::new(),
        ));
        let s = shared.clone();
        let begin = Instant::now();
        let handle = std::thread::spawn(move || {
            let (lock, cv) = &*s;
            let Ok(mut g) = lock.lock() else { return };
            loop {
                let Ok((ng, t)) = cv.wait_timeout(g, Duration::from_secs_f64(EVERY)) else {
                    return;
                };
                g = ng;
                if g.done {
                    return;
                }
                if t.timed_out() && g.since.elapsed().as_secs_f64() >= EVERY {
                    eprintln!(
                        "nfold: {engine}: {} for {:.0}s, {:.0}s in all",
                        g.what,
                        g.since.elapsed().as_secs_f64(),
                        begin.elapsed().as_secs_f64()
                    );
                }
            }
        });
        Heartbeat {
            inner: Some((shared, handle)),
        }
    }

    /// What the engine is doing now.
    pub fn set(&self, what: String) {
        if let Some((s, _)) = &self.inner
            && let Ok(mut g) = s.0.lock()
        {
            g.what = what;
            g.since = Instant::now();
        }
    }

    /// Stop the thread (also when dropped).
    pub fn finish(self) {}
}

impl Drop for Heartbeat {
    fn drop(&mut self) {
        if let Some((s, h)) = self.inner.take() {
            if let Ok(mut g) = s.0.lock() {
                g.done = true;
            }
            s.1.notify_all();
            let _ = h.join();
        }
    }
}
