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

/// Why a search stopped before an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    MaxStates,
    Timeout,
    Memory,
    Interrupted,
}

impl Limit {
    pub fn text(self) -> &'static str {
        match self {
            Limit::MaxStates => "state limit (--max-states) reached",
            Limit::Timeout => "time limit (--timeout) reached",
            Limit::Memory => "memory limit (--max-memory) reached",
            Limit::Interrupted => "interrupted",
        }
    }
}

/// Everything an engine reports for one size, for rendering.
#[derive(Clone, Debug)]
pub struct SizeReport {
    pub size: usize,
    /// Whether symmetry reduction (explicit) or symmetry breaking (SAT) was applied.
    pub symmetry: bool,
    pub results: Vec<PropResult>,
    pub seconds: f64,
    pub limit: Option<Limit>,
    /// Every reachable state was explored (explicit engine only).
    pub complete: bool,
    /// Counterexamples that failed to replay (an engine bug; verdicts are then unknown).
    pub internal_errors: Vec<String>,
    /// Explicit engine: states stored, successors generated, initial states.
    pub states: Option<usize>,
    pub transitions: Option<u64>,
    pub initial_states: Option<usize>,
    /// The depth up to which every requested property was answered (explicit: every
    /// state of a smaller depth expanded; SAT: every query up to it solved).
    pub answered_depth: Option<usize>,
    /// SAT engine: depth bound, and variables and clauses of the deepest formula.
    pub bound: Option<usize>,
    pub vars: Option<i32>,
    pub clauses: Option<usize>,
}
