//! Nested depth-first search (C. Courcoubetis, M. Vardi, P. Wolper and M. Yannakakis,
//! *Memory-Efficient Algorithms for the Verification of Temporal Properties*, FMSD 1992)
//! for LTL
//! properties, on the fly over the product of an instance with the Büchi automaton of
//! the negated property, with process-level weak fairness and symmetry reduction.
//!
//! - **Product.** A node is (system state, automaton state); the automaton's labels
//!   read the state a node holds. A deadlocked state repeats forever (a stutter step
//!   that belongs to no process).
//! - **Weak fairness** (`fair`) follows Choueka's flag construction (Y. Choueka,
//!   *Theories of Automata on ω-Tapes: a Simplified Approach*, JCSS 1974) as in SPIN's
//!   `-f` (G. J. Holzmann, *The SPIN Model Checker*, 2003, ch. 8) and in D. Bošnački,
//!   *A Light-weight Algorithm for Model Checking with Symmetry Reduction and Weak
//!   Fairness*, SPIN 2003 (Fig. 4): a node also carries a copy counter
//!   C in 0..=N. From an accepting node in copy 0 the only move is ε₀ to copy 1; in copy
//!   i ≥ 1 a step of process i moves to copy i+1 (copy N wraps to 0), and when process
//!   i is disabled an ε move does the same. The nested search looks for a return to an
//!   accepting node of copy 0, so every reported cycle lets every process execute or be
//!   disabled somewhere. One change to Fig. 4: copy N returns to copy 0 only with a real
//!   step (a step of process N, or any step from a state where N is disabled), never by
//!   an ε move, so a cycle always contains a step of the system (Fig. 4 could close a
//!   cycle of ε moves alone where every process is disabled, which is no run when the
//!   automaton cannot stay put). Copies are not stored as states: each stored product
//!   state has 2·(N+1) visit bits (first and nested search per copy), plus N+1 bits
//!   marking the first search's stack.
//! - **Symmetry.** The table keys are canonical representatives under the permutations
//!   that fix the property's process (all of them for a property without a parameter);
//!   the search walks real states, so the stacks are real paths. The nested search may
//!   then end at a state symmetric to where its cycle started; unfolding that fragment
//!   by its permutation (Bošnački, Theorem 2's proof) gives a real cycle. Without fairness the
//!   reduced search finds a cycle exactly when one exists; with fairness it may miss
//!   one (the copy counter names real processes while the table identifies permuted
//!   states), so that mode never reports `holds`.
//! - **Early detection.** The nested search also stops when it meets a node on the first
//!   search's stack, as SPIN does; not with fairness and symmetry together, where the
//!   stack's path names different processes than the symmetric node's.
//!
//! - **Which search answers** (`check`): the full (unreduced) search where symmetry
//!   identifies no two states (`symmetry_reduces`) or is off; the reduced one without
//!   fairness (exact); under fairness the full search first, within a budget of
//!   generated transitions (`COMPLETE_BUDGET`), and the reduced, incomplete one only
//!   past it, whose "found nothing" is `LiveVerdict::NoFairViolationFound`.
//!
//! Every lasso is rebuilt as interpreter steps and replayed by `lasso::Lasso::replay`
//! before it is returned, then shortened (`shorten`, `fair_cycle`) when asked.
//!
//! This module owns the options, the results and the choice of search; `search` holds
//! the search itself and `unfold` turns its stacks into lassos and traces.

mod search;
mod unfold;

use crate::lasso::Lasso;
use crate::ltl::LtlProperty;
use crate::model::ir::Model;
use crate::trace::Trace;
use crate::verdict::Limit;
use search::search;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// How to search.
#[derive(Clone, Debug, Default)]
pub struct LiveOptions {
    /// Reduce by symmetry (only honoured when the family is fully symmetric).
    pub symmetry: bool,
    /// Only weakly fair cycles count.
    pub fair: bool,
    /// Stop after storing this many product states.
    pub max_states: Option<usize>,
    /// Stop when the tables and stacks exceed this many bytes.
    pub max_memory: Option<usize>,
    pub deadline: Option<Instant>,
    /// Set from outside (Ctrl-C) to stop the search.
    pub stop: Option<Arc<AtomicBool>>,
    /// Print progress lines on stderr for searches over a second.
    pub progress: bool,
    /// Look for a shorter lasso once one is found (see `shorten`).
    pub shorten: bool,
    /// With fairness and symmetry: how many successors (product transitions, ε moves
    /// included) the complete search (no reduction) may generate before the reduced,
    /// incomplete one takes over (`None`: `COMPLETE_BUDGET`; `Some(0)`: go straight to
    /// the reduced search).
    pub complete_budget: Option<u64>,
}

/// Successors the complete search may generate, under fairness on a symmetric family,
/// before the reduced search (which may miss a fair cycle) takes over. Work, not stored
/// states, is counted because the time per stored state grows with n (N+1 Choueka copies
/// per state). See docs/cli.md (`nfold live`, "Which search answers") for the
/// measurements behind the value.
pub const COMPLETE_BUDGET: u64 = 16_000_000;

/// Which search gave an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// No symmetry reduction: complete, fair or not.
    Full,
    /// Symmetry reduction without fairness: exact.
    Symmetry,
    /// Symmetry reduction with fairness (Bošnački, SPIN 2003, Fig. 4): a
    /// reported cycle is real, but a fair cycle may be missed.
    SymmetryFair,
}

impl Algorithm {
    /// The short name used in the table and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Full => "full",
            Algorithm::Symmetry => "symmetry",
            Algorithm::SymmetryFair => "symmetry+fair",
        }
    }

    /// Whether "found nothing" from this search is a proof.
    pub fn complete(self) -> bool {
        self != Algorithm::SymmetryFair
    }
}

/// A complete search that stopped before an answer, after which the reduced search
/// answered.
#[derive(Clone, Debug)]
pub struct Attempt {
    /// Product states it stored.
    pub states: usize,
    /// Successors it generated (ε moves included).
    pub transitions: u64,
    pub seconds: f64,
    /// What stopped it.
    pub stopped: AttemptStop,
}

/// What stopped the complete search that ran first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttemptStop {
    /// Its budget of generated successors.
    Budget(u64),
    /// `--max-states` or `--max-memory` (the reduced search may fit where it did not).
    Limit(Limit),
}

impl AttemptStop {
    /// What stopped it, in words (JSON `complete_attempt.stopped`).
    pub fn text(self) -> String {
        match self {
            AttemptStop::Budget(b) => format!("its budget of {b} transitions"),
            AttemptStop::Limit(l) => l.text().to_string(),
        }
    }
}

/// Product nodes the lasso shortening may visit: as many as the search stored, but at
/// least the first and at most the second (so that shortening costs about as much as
/// the search did, and little when the violation was found at once).
const SHORTEN_BUDGET: (usize, usize) = (10_000, 1_000_000);

/// The answer for one property, size and process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiveVerdict {
    /// Every reachable (fair) cycle was ruled out.
    Holds,
    /// A lasso was found and replayed.
    Violated,
    /// Weak fairness with symmetry found no fair cycle; that search is incomplete.
    NoFairViolationFound,
    /// A limit was hit, a range error stopped the search, or a lasso failed to replay.
    Unknown,
}

impl LiveVerdict {
    /// The JSON spelling: `holds`, `violated`, `incomplete` (the incomplete search found
    /// nothing: not a proof) or `unknown`.
    pub fn json_name(self) -> &'static str {
        match self {
            LiveVerdict::Holds => "holds",
            LiveVerdict::Violated => "violated",
            LiveVerdict::NoFairViolationFound => "incomplete",
            LiveVerdict::Unknown => "unknown",
        }
    }
}

/// Measurements of one search.
#[derive(Clone, Debug, Default)]
pub struct LiveStats {
    /// Product states (canonical system state, automaton state) stored.
    pub states: usize,
    /// Nodes (product state, copy) entered by the first search.
    pub nodes: u64,
    /// Nodes entered by the nested searches.
    pub nested_nodes: u64,
    /// Successors generated (including ε moves).
    pub transitions: u64,
    /// Deepest stack (first and nested search together).
    pub max_depth: usize,
    pub seconds: f64,
    /// Bytes held by the table and the stacks at their largest.
    pub bytes: usize,
}

/// The outcome for one property at one size and process.
#[derive(Clone, Debug)]
pub struct LiveResult {
    pub size: usize,
    /// The `ltl` property (index into `model.ltls`).
    pub prop: usize,
    pub process: Option<i64>,
    /// Whether symmetry reduction was applied.
    pub symmetry: bool,
    /// The search that answered.
    pub algorithm: Algorithm,
    /// The complete search tried first and given up, when the reduced search answered.
    pub attempt: Option<Attempt>,
    pub fair: bool,
    pub verdict: LiveVerdict,
    pub lasso: Option<Lasso>,
    /// A range error met while searching (the search stops there).
    pub range: Option<Trace>,
    pub stats: LiveStats,
    pub limit: Option<Limit>,
    /// Lassos or traces that failed to replay (an engine bug; the verdict is unknown).
    pub internal_errors: Vec<String>,
}

/// Whether symmetry reduction can identify any two states at size n: the family is
/// fully symmetric and the group is not trivial. A property of process 1 is checked
/// under the permutations that fix process 1, which at n = 2 is the identity alone.
pub fn symmetry_reduces(model: &Model, n: usize, process: Option<i64>) -> bool {
    let movable = if process.is_some() { n - 1 } else { n };
    model.is_symmetric() && movable >= 2
}

/// Check `ltl` property `p` at size `n` for `process` (see `processes_to_check`).
///
/// Which search answers: without symmetry reduction (asked for, or where it would
/// reduce nothing, see `symmetry_reduces`) the complete one; with symmetry and without
/// fairness the reduced one, which is exact; with symmetry and fairness first the
/// complete one, generating at most `complete_budget` successors, and only when that
/// runs out (or `--max-states` or the memory limit stops it) the reduced one, which may
/// miss a fair cycle.
pub fn check(
    model: &Model,
    n: usize,
    p: &LtlProperty,
    process: Option<i64>,
    opts: &LiveOptions,
) -> LiveResult {
    let run = |use_sym: bool, phase: &'static str, budget: Option<u64>| {
        search(model, n, p, process, opts, use_sym, phase, budget)
    };
    if !(opts.symmetry && symmetry_reduces(model, n, process)) {
        return run(false, "complete", None).0;
    }
    let budget = opts.complete_budget.unwrap_or(COMPLETE_BUDGET);
    if !opts.fair || budget == 0 {
        return run(true, "reduced", None).0;
    }
    let (first, budget_hit) = run(false, "complete", Some(budget));
    let stopped = match first.limit {
        _ if budget_hit => AttemptStop::Budget(budget),
        Some(l @ (Limit::MaxStates | Limit::Memory)) => AttemptStop::Limit(l),
        _ => return first,
    };
    if opts.progress {
        eprintln!(
            "nfold: size {n}: the complete search stopped at {} ({} states); the reduced \
             search (symmetry with fairness, incomplete) takes over",
            stopped.text(),
            first.stats.states
        );
    }
    let mut r = run(true, "reduced", None).0;
    r.attempt = Some(Attempt {
        states: first.stats.states,
        transitions: first.stats.transitions,
        seconds: first.stats.seconds,
        stopped,
    });
    r.stats.seconds += first.stats.seconds;
    r
}
