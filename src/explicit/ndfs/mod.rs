//! LTL properties by explicit search, on the fly over the product of an instance with
//! the Büchi automaton of the negated property (the one `ltl` builds), with
//! process-level weak fairness and symmetry reduction. Two searches:
//!
//! - **Nested depth-first search** (`search`; Courcoubetis, Vardi, Wolper, Yannakakis
//!   1992), without fairness: two bits and a stack mark per stored product state.
//!   Under symmetry the table keys are canonical representatives (under the
//!   permutations fixing the property's process, all of them for a property without a
//!   parameter) while the stacks are real paths; a cycle that closes at a state
//!   symmetric to its start is unfolded by its permutation (`unfold`; proof of
//!   Theorem 2 of D. Bošnački, *A Light-weight Algorithm for Model Checking with Symmetry Reduction and Weak Fairness*, SPIN 2003). Exact with and without symmetry.
//! - **Fair SCC search** (`scc`; J.-M. Couvreur, *On-the-fly verification of linear temporal logic*, FM 1999) on the annotated quotient structure of
//!   Emerson and Sistla (1995/1997) and SMC (A. P. Sistla, V. Gyuris, E. A. Emerson, *SMC: a symmetry-based model checker for verification of safety and liveness properties*, TOSEM 2000): each edge
//!   carries the permutation between its real target and the target's representative,
//!   and a component holds a weakly fair accepting cycle exactly when every orbit of
//!   the group its cycles generate contains a served process; `scc`'s module comment
//!   has the argument. Exact with and without symmetry; `unfold_scc` turns a found
//!   component into a real lasso.
//!
//! In the product a deadlocked state repeats forever (a stutter step that belongs to no
//! process and disables every process). Weak fairness is the condition
//! `lasso::Lasso::replay` checks: no process is enabled at every state of the cycle
//! without executing on it (the process of a step is its transition's first
//! parameter).
//!
//! **Which search answers** (`check`, `NdfsSearch::Auto`): under fairness the SCC
//! search, reduced by symmetry where it identifies states (`symmetry_reduces`);
//! without fairness the nested search, reduced likewise. (The light-weight fair nested
//! search of D. Bošnački, *A Light-weight Algorithm for Model Checking with Symmetry Reduction and Weak Fairness*, SPIN 2003, Fig. 4, which may miss a fair cycle under
//! symmetry, and the budgeted complete search that ran before it, are gone: the SCC
//! search is exact and faster than either, see docs/benchmarks.md.)
//!
//! Every lasso is rebuilt as interpreter steps and replayed by `lasso::Lasso::replay`
//! before it is returned, then shortened (`shorten`, `fair_cycle`) when asked
//! (`report`).
//!
//! This module owns the options, the results and the choice of search; `expand` the
//! successors shared by both searches; `report` the limits and the assembly of
//! results.

mod expand;
mod par;
mod par_explore;
mod par_graph;
mod par_scc;
mod report;
mod scc;
mod search;
mod unfold;
mod unfold_scc;
mod walk;

use crate::lasso::Lasso;
use crate::ltl::LtlProperty;
use crate::model::canon::Symmetry;
use crate::model::compiled::Compiled;
use crate::model::dead::Dead;
use crate::model::instance::Instance;
use crate::model::ir::Model;
use crate::trace::Trace;
use crate::verdict::Limit;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Which search to run (`NdfsOptions::search`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NdfsSearch {
    /// The fair SCC search under fairness, the nested search without (see the module
    /// comment).
    #[default]
    Auto,
    /// The nested depth-first search (without fairness only; under fairness the SCC
    /// search runs).
    Ndfs,
    /// The fair SCC search, with or without fairness.
    Scc,
}

/// How to search.
#[derive(Clone, Debug, Default)]
pub struct NdfsOptions {
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
    /// Which search answers.
    pub search: NdfsSearch,
    /// Threads: with 2 or more (and `search` left `Auto`), the parallel search
    /// (`par`) answers; 0 or 1, the sequential ones.
    pub threads: usize,
    /// Walk states up to their dead cells (`model::dead::analyse_live`).
    pub dead_cells: bool,
}

/// Which search gave an answer. Every one is exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Nested depth-first search without symmetry reduction.
    Full,
    /// Nested depth-first search reduced by symmetry.
    Symmetry,
    /// The fair SCC search without symmetry reduction.
    Scc,
    /// The fair SCC search on the annotated quotient by symmetry.
    SymmetryScc,
    /// The parallel search (stored product, then its components) without symmetry.
    ParScc,
    /// The parallel search on the annotated quotient by symmetry.
    SymmetryParScc,
}

impl Algorithm {
    /// The short name used in the table and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Full => "full",
            Algorithm::Symmetry => "symmetry",
            Algorithm::Scc => "scc",
            Algorithm::SymmetryScc => "symmetry+scc",
            Algorithm::ParScc => "parallel-scc",
            Algorithm::SymmetryParScc => "symmetry+parallel-scc",
        }
    }
}

/// Product nodes the lasso shortening may visit: as many as the search stored, but at
/// least the first and at most the second (so that shortening costs about as much as
/// the search did, and little when the violation was found at once).
const SHORTEN_BUDGET: (usize, usize) = (10_000, 1_000_000);

/// The answer for one property, size and process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NdfsVerdict {
    /// Every reachable (fair) cycle was ruled out.
    Holds,
    /// A lasso was found and replayed.
    Violated,
    /// A limit was hit, a range error stopped the search, or a lasso failed to replay.
    Unknown,
}

impl NdfsVerdict {
    /// The JSON spelling: `holds`, `violated` or `unknown`.
    pub fn json_name(self) -> &'static str {
        match self {
            NdfsVerdict::Holds => "holds",
            NdfsVerdict::Violated => "violated",
            NdfsVerdict::Unknown => "unknown",
        }
    }
}

/// Measurements of one search.
#[derive(Clone, Debug, Default)]
pub struct NdfsStats {
    /// Product states (canonical system state, automaton state) stored.
    pub states: usize,
    /// Nodes entered by the first search (the only one of the SCC search).
    pub nodes: u64,
    /// Nodes entered by the nested searches.
    pub nested_nodes: u64,
    /// Successors generated (product transitions, deadlock stutters included).
    pub transitions: u64,
    /// Deepest stack (first and nested search together).
    pub max_depth: usize,
    pub seconds: f64,
    /// Bytes held by the table and the stacks at their largest.
    pub bytes: usize,
}

/// The outcome for one property at one size and process.
#[derive(Clone, Debug)]
pub struct NdfsResult {
    pub size: usize,
    /// The `ltl` property (index into `model.ltls`).
    pub prop: usize,
    pub process: Option<i64>,
    /// Whether symmetry reduction was applied.
    pub symmetry: bool,
    /// The search that answered.
    pub algorithm: Algorithm,
    pub fair: bool,
    pub verdict: NdfsVerdict,
    pub lasso: Option<Lasso>,
    /// A range error met while searching (the search stops there).
    pub range: Option<Trace>,
    pub stats: NdfsStats,
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

/// The symmetry a search reduces by, when `use_sym`: process permutations, fixing
/// process 1 for a property of a process.
fn symmetry_of(inst: &Instance, use_sym: bool, process: Option<i64>) -> Option<Symmetry> {
    use_sym.then(|| {
        let s = Symmetry::new(inst);
        if process.is_some() {
            s.fixing_first()
        } else {
            s
        }
    })
}

/// Weak fairness is tracked in 64-bit masks of processes.
pub const MAX_FAIR_PROCESSES: usize = 64;

/// Check `ltl` property `p` at size `n` for `process` (see `processes_to_check`).
///
/// Which search answers (`opts.search`, see the module comment): under fairness, or
/// when asked for, the fair SCC search; otherwise the nested depth-first search. Both
/// reduce by symmetry when asked and it identifies states (`symmetry_reduces`), and
/// both are exact.
pub fn check(
    model: &Model,
    n: usize,
    p: &LtlProperty,
    process: Option<i64>,
    opts: &NdfsOptions,
) -> NdfsResult {
    let use_sym = opts.symmetry && symmetry_reduces(model, n, process);
    let a = Ask {
        model,
        n,
        p,
        process,
        opts,
        use_sym,
    };
    if opts.fair && n > MAX_FAIR_PROCESSES {
        let mut r = a.finish(
            Algorithm::Scc,
            false,
            NdfsStats::default(),
            report::Found::Nothing,
            Instant::now(),
        );
        r.verdict = NdfsVerdict::Unknown;
        r.internal_errors.push(format!(
            "weak fairness is tracked for at most {MAX_FAIR_PROCESSES} processes"
        ));
        return r;
    }
    if opts.threads >= 2
        && opts.search == NdfsSearch::Auto
        && let Some(r) = par::search(a, opts.threads)
    {
        return r;
    }
    if opts.fair || opts.search == NdfsSearch::Scc {
        scc::search(a)
    } else {
        search::search(a)
    }
}

/// One search's question: property `p` at size `n` for `process` under `opts`,
/// reduced by symmetry when `use_sym` (the three searches take it whole).
#[derive(Clone, Copy)]
pub(super) struct Ask<'a> {
    pub model: &'a Model,
    pub n: usize,
    pub p: &'a LtlProperty,
    pub process: Option<i64>,
    pub opts: &'a NdfsOptions,
    pub use_sym: bool,
}

impl<'a> Ask<'a> {
    /// What a search of this size starts from: the instance, its compiled
    /// transitions, whether symmetry reduces it (when asked, the family being fully
    /// symmetric and of more than one process), and its dead cells (when asked).
    fn setup(&self) -> (Instance<'a>, Compiled, bool, Option<Dead>) {
        let inst = Instance::new(self.model, self.n);
        let compiled = Compiled::for_search(&inst);
        let use_sym = self.use_sym && self.model.is_symmetric() && self.n > 1;
        let dead = expand::dead_for(&inst, self.opts.dead_cells);
        (inst, compiled, use_sym, dead)
    }

    /// The result of the search that ended with `found` (`report::finish`), reduced by
    /// symmetry when `symmetry`.
    fn finish(
        &self,
        algorithm: Algorithm,
        symmetry: bool,
        stats: NdfsStats,
        found: report::Found,
        start: Instant,
    ) -> NdfsResult {
        let (m, p, n, q, o) = (self.model, self.p, self.n, self.process, self.opts);
        report::finish(m, p, n, q, o, algorithm, symmetry, stats, found, start)
    }
}
