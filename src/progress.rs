//! Progress on stderr for engines whose single steps can run long (one SAT query of a
//! deep BMC frame, one IC3 frame): a background thread prints what the engine said
//! it is doing every few seconds, until the engine finishes.

use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Seconds between heartbeat lines.
const EVERY: f64 = 5.0;

struct Shared {
    what: String,
    since: Instant,
    done: bool,
}

type Beat = (Arc<(Mutex<Shared>, Condvar)>, std::thread::JoinHandle<()>);

/// A thread that calls `tick` every `period` (with whether the wait timed out) until
/// it is dropped: the heartbeat's and the watch's.
struct Ticker {
    inner: Option<Beat>,
}

impl Ticker {
    fn start(period: Duration, mut tick: impl FnMut(&Shared, bool) + Send + 'static) -> Ticker {
        let shared = Arc::new((
            Mutex::new(Shared {
                what: String::new(),
                since: Instant::now(),
                done: false,
            }),
            Condvar::new(),
        ));
        let s = shared.clone();
        let handle = std::thread::spawn(move || {
            let (lock, cv) = &*s;
            let Ok(mut g) = lock.lock() else { return };
            loop {
                // Checked before waiting too: a ticker dropped before this thread
                // first waits has already notified, and must not cost a full period.
                if g.done {
                    return;
                }
                let Ok((ng, t)) = cv.wait_timeout(g, period) else {
                    return;
                };
                g = ng;
                if g.done {
                    return;
                }
                tick(&g, t.timed_out());
            }
        });
        Ticker {
            inner: Some((shared, handle)),
        }
    }

    fn off() -> Ticker {
        Ticker { inner: None }
    }
}

impl Drop for Ticker {
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

/// A heartbeat thread (inactive when progress is off).
pub struct Heartbeat {
    ticker: Ticker,
}

impl Heartbeat {
    /// Start printing `nfold: ENGINE: <what> for Xs, Ys in all` every few seconds.
    pub fn start(on: bool, engine: &'static str) -> Heartbeat {
        if !on {
            return Heartbeat {
                ticker: Ticker::off(),
            };
        }
        let begin = Instant::now();
        let ticker = Ticker::start(Duration::from_secs_f64(EVERY), move |g, timed_out| {
            if timed_out && g.since.elapsed().as_secs_f64() >= EVERY {
                crate::progress::line(format!(
                    "{engine}: {} for {:.0}s, {:.0}s in all",
                    g.what,
                    g.since.elapsed().as_secs_f64(),
                    begin.elapsed().as_secs_f64()
                ));
            }
        });
        Heartbeat { ticker }
    }

    /// What the engine is doing now.
    pub fn set(&self, what: String) {
        if let Some((s, _)) = &self.ticker.inner
            && let Ok(mut g) = s.0.lock()
        {
            g.what = what;
            g.since = Instant::now();
        }
    }

    /// Stop the thread (also when dropped).
    pub fn finish(self) {}
}

/// How progress lines are shown: chosen once by the command line. Unset (a library
/// user, a test), lines go to stderr as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `nfold: [  3.2s  118 MiB] <text>`.
    Text,
    /// One JSON object per line: `{"progress": text, "seconds": s, "memory_bytes": b}`.
    Json,
}

/// How often progress lines are let through: every line on a terminal; into a pipe or
/// a file (a log, a CI job, an agent reading the output) nothing during a short run
/// and then one line every few seconds, so that a long run is not silent and a log is
/// not flooded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pace {
    /// Seconds from the start of the run during which no line is printed.
    pub quiet_for: f64,
    /// Seconds at least between two lines printed.
    pub min_gap: f64,
}

impl Pace {
    /// Every line (stderr is a terminal, or `--progress`).
    pub const EVERY_LINE: Pace = Pace {
        quiet_for: 0.0,
        min_gap: 0.0,
    };
    /// stderr is a pipe or a file: from 5 s on, a line at most every 10 s.
    pub const PIPED: Pace = Pace {
        quiet_for: 5.0,
        min_gap: 10.0,
    };
}

struct Sink {
    format: Format,
    start: Instant,
    pace: Pace,
    /// When the last line was printed (seconds from `start`).
    last: Mutex<Option<f64>>,
    /// The last line an engine offered (printed or not), and when.
    offered: Mutex<Option<(f64, String)>>,
}

impl Sink {
    fn new(format: Format, pace: Pace) -> Sink {
        Sink {
            format,
            start: Instant::now(),
            pace,
            last: Mutex::new(None),
            offered: Mutex::new(None),
        }
    }

    fn emit(&self, seconds: f64, text: &str) {
        let memory = crate::limits::current_memory();
        match self.format {
            Format::Text => eprintln!(
                "nfold: [{seconds:6.1}s{}] {text}",
                memory
                    .map(|b| format!(" {:5.0} MiB", b as f64 / (1u64 << 20) as f64))
                    .unwrap_or_default()
            ),
            Format::Json => eprintln!(
                "{}",
                serde_json::json!({"progress": text, "seconds": seconds, "memory_bytes": memory})
            ),
        }
    }
}

static SINK: OnceLock<Sink> = OnceLock::new();

/// Choose how progress lines are shown, counting time from now (the first call wins).
pub fn configure(format: Format) {
    configure_paced(format, Pace::EVERY_LINE);
}

/// `configure`, with how often lines are let through.
pub fn configure_paced(format: Format, pace: Pace) {
    let _ = SINK.set(Sink::new(format, pace));
}

/// Whether a line at `seconds` passes `pace` after the last one printed (`last`).
fn due(pace: Pace, seconds: f64, last: Option<f64>) -> bool {
    seconds >= pace.quiet_for && last.is_none_or(|l| seconds - l >= pace.min_gap)
}

/// One progress line from an engine, with the time since the run started and the
/// process's memory. Engines decide when to report (their `progress` settings); this
/// decides how it looks.
pub fn line(text: impl AsRef<str>) {
    let text = text.as_ref();
    let sink = SINK.get_or_init(|| Sink::new(Format::Text, Pace::EVERY_LINE));
    let seconds = sink.start.elapsed().as_secs_f64();
    if let Ok(mut offered) = sink.offered.lock() {
        *offered = Some((seconds, text.to_string()));
    }
    if let Ok(mut last) = sink.last.lock() {
        if !due(sink.pace, seconds, *last) {
            return;
        }
        *last = Some(seconds);
    }
    sink.emit(seconds, text);
}

/// Seconds without a line after which the watch says the run goes on: no engine step
/// (one BDD operation, one SAT call, a certificate check) keeps a run silent longer.
const SILENCE: f64 = 15.0;

/// `SILENCE`, or the seconds in `NFOLD_SILENCE` (for tests of the watch).
fn silence() -> f64 {
    std::env::var("NFOLD_SILENCE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(SILENCE)
}

/// A thread that keeps a long run from going silent (stopped when dropped).
pub struct Watch {
    _ticker: Ticker,
}

/// Start the watch (inactive when progress is off): after `SILENCE` seconds without a
/// line, and then every `SILENCE` seconds, it prints the last thing an engine said and
/// how long ago.
pub fn watch(on: bool) -> Watch {
    let Some(sink) = SINK.get().filter(|_| on) else {
        return Watch {
            _ticker: Ticker::off(),
        };
    };
    let quiet = silence();
    let poll = Duration::from_secs_f64(quiet.clamp(0.05, 1.0));
    let ticker = Ticker::start(poll, move |_, _| {
        if let Some(text) = silence_line(sink, quiet) {
            sink.emit(sink.start.elapsed().as_secs_f64(), &text);
        }
    });
    Watch { _ticker: ticker }
}

/// The line to print now, if the run has been silent for `quiet` seconds and past
/// the pace's quiet start (the printed time is then recorded).
fn silence_line(sink: &Sink, quiet: f64) -> Option<String> {
    let now = sink.start.elapsed().as_secs_f64();
    let offered = sink.offered.lock().ok()?.clone();
    let mut last = sink.last.lock().ok()?;
    let quiet_since = last
        .unwrap_or(0.0)
        .max(offered.as_ref().map_or(0.0, |o| o.0));
    if now - quiet_since < quiet.max(sink.pace.min_gap) || now < sink.pace.quiet_for {
        return None;
    }
    *last = Some(now);
    // The watch's own line counts as printed, not as an engine's word.
    Some(match offered {
        Some((t, text)) => format!(
            "still working; the last step reported ({:.0}s ago): {text}",
            now - t
        ),
        None => "still working (no step reported yet)".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_silent_stretch_is_broken_by_the_watch() {
        let mut sink = Sink::new(Format::Text, Pace::PIPED);
        sink.start = Instant::now() - Duration::from_secs(40);
        *sink.offered.lock().unwrap() = Some((30.0, "bdd: L_33".into()));
        // 10 s since the last word: not yet.
        assert_eq!(silence_line(&sink, SILENCE), None);
        *sink.offered.lock().unwrap() = Some((20.0, "bdd: L_33".into()));
        let l = silence_line(&sink, SILENCE).unwrap();
        assert!(l.contains("(20s ago): bdd: L_33"), "{l}");
        // Then not again before another silent stretch.
        assert_eq!(silence_line(&sink, SILENCE), None);
    }

    #[test]
    fn piped_lines_wait_then_thin_out() {
        assert!(due(Pace::EVERY_LINE, 0.0, Some(0.0)));
        assert!(!due(Pace::PIPED, 1.0, None));
        assert!(due(Pace::PIPED, 5.0, None));
        assert!(!due(Pace::PIPED, 9.0, Some(5.0)));
        assert!(due(Pace::PIPED, 15.0, Some(5.0)));
    }
}
