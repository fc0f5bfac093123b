//! Saved counterexamples ("trails", as SPIN calls them): reading a trace or lasso saved
//! as JSON, and replaying it step by step on the reference interpreter of a model that
//! may have changed since, saying where it stops matching and why.
//!
//! Accepted files: a standalone trail (`trace::save`, `lasso::save`, `nfold simulate
//! --json`: `{"model", "size", "trace"}`), the whole output of `nfold check --json` or
//! `nfold live --json` (one of its counterexamples, chosen by size and property), or a
//! bare trace object (`{"init", "steps", ...}`, the size given separately).
//!
//! This module owns the trail itself; `read` turns a file into one, `replay` walks its
//! steps and `ending` checks what its last state shows.

mod ending;
mod read;
mod replay;

use std::collections::BTreeMap;

pub use crate::schema::{SiteDoc, StepDoc, TraceDoc};
pub use ending::Ending;
pub use read::{parse, read};
pub use replay::{Mismatch, Place, Replay, replay};

/// What the trace ends in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Unsafe,
    Deadlock,
    Range,
    /// A store leaving the int window.
    IntBound,
    Lasso,
    /// A run without a violation (a simulation stopped after its steps).
    Run,
}

/// A trail read from a file.
#[derive(Clone, Debug)]
pub struct Trail {
    /// The file it was read from.
    pub file: String,
    /// The model it was recorded on, as named in the file.
    pub model: Option<String>,
    pub size: usize,
    /// The number of values of each abstract type it was recorded with.
    pub data_values: Option<BTreeMap<String, usize>>,
    /// The int window it was recorded with.
    pub int_range: Option<(i64, i64)>,
    pub kind: Kind,
    pub trace: TraceDoc,
    /// The property of the result row it came from (whole `check`/`live` documents).
    pub row_property: Option<String>,
    pub row_process: Option<i64>,
}

impl Trail {
    /// One line saying what the trail records.
    pub fn summary(&self) -> String {
        let steps = self.trace.steps.len();
        let ending = match (&self.trace.violation, self.kind) {
            (_, Kind::Run) => "no violation (a run that stops there)".to_string(),
            (Some(v), _) => v.clone(),
            (None, _) => "a violation".to_string(),
        };
        format!(
            "{} step{}, ending in: {}",
            steps,
            if steps == 1 { "" } else { "s" },
            ending
        )
    }
}

/// Which counterexample of a `check`/`live` document to take, and the size of a bare
/// trace.
#[derive(Clone, Debug, Default)]
pub struct Pick {
    pub size: Option<usize>,
    pub property: Option<String>,
}
