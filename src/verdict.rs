//! Engine-neutral results: one verdict per (size, property), with its bound and trace.

use crate::trace::Trace;

/// The answer for one property at one size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Proved by exhaustive search.
    Holds,
    /// A counterexample was found (and replayed).
    Violated,
    /// No violation up to the given depth (bounded search only).
    NoViolationUpTo(usize),
    /// A limit was hit before an answer.
    Unknown,
}

impl Verdict {
    /// The JSON spelling: `holds`, `violated` or `unknown` (bounded answers are
    /// `unknown` with a `bound`).
    pub fn json_name(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Violated => "violated",
            Verdict::NoViolationUpTo(_) | Verdict::Unknown => "unknown",
        }
    }
}

/// The pseudo-properties beside the model's `unsafe` ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PropId {
    Unsafe(usize),
    /// Values or indices out of range.
    Range,
    /// A reachable state with no enabled transition (`--deadlock`).
    Deadlock,
}

/// One row of a report.
#[derive(Clone, Debug)]
pub struct PropResult {
    pub size: usize,
    pub prop: PropId,
    pub name: String,
    pub verdict: Verdict,
    /// Length of the (shortest) counterexample.
    pub depth: Option<usize>,
    pub trace: Option<Trace>,
}
