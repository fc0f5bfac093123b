//! Breadth-first reachability for `unsafe` properties, range errors and deadlocks, at
//! one size. With symmetry the visited set keeps canonical representatives while the
//! search walks real states, so every parent chain is a real run; traces are rebuilt by
//! re-firing the recorded transitions from the real initial state and replayed on the
//! reference interpreter before they are returned. BFS order makes every reported
//! counterexample a shortest one.

mod conjuncts;
pub mod dist;
mod expand;
mod outbox;
pub mod partial;
mod parts;
mod report;
mod search;

pub(in crate::explicit) use expand::Kind as FoundKind;
pub(in crate::explicit) use report::{SearchEnd, trace_from_steps};

pub use parts::StoreKind;

use crate::model::compiled::Compiled;
use crate::model::dead::DeadArray;
use crate::model::instance::Instance;
use crate::model::ir::Model;
pub use crate::verdict::Limit;
use crate::verdict::{Coverage, PropResult, SizeReport};
use expand::Ctx;
use search::Search;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How to search.
#[derive(Clone, Debug, Default)]
pub struct ReachOptions {
    /// Reduce by symmetry: process permutations when the family is fully symmetric,
    /// permutations of interchangeable data values (abstract types) when there are any.
    pub symmetry: bool,
    /// Report deadlocks as violations.
    pub deadlock: bool,
    /// Store states up to their dead cells (`model::dead`): cells no transition or
    /// property can read before they are written again.
    pub dead_cells: bool,
    /// Which `unsafe` properties (indices into `model.unsafes`); all when `None`.
    pub props: Option<Vec<usize>>,
    /// Stop after storing this many states.
    pub max_states: Option<usize>,
    /// Stop when the visited set and its bookkeeping exceed this many bytes.
    pub max_memory: Option<usize>,
    pub deadline: Option<Instant>,
    /// Set from outside (Ctrl-C) to stop the search.
    pub stop: Option<Arc<AtomicBool>>,
    /// Print progress lines on stderr for searches over a second.
    pub progress: bool,
    /// After an exhaustive search, also find the conjuncts of the properties that are
    /// never true (`ReachResult::coverage`), within a budget of a few times the search.
    pub coverage: bool,
    /// Threads searching (0: one per core). The states stored, their numbers and every
    /// answer are the same at every count.
    pub threads: usize,
    /// How states are stored: exactly, or (bug hunting) by hash compaction or bitstate,
    /// which may miss states: "no violation" is then `incomplete`.
    pub store: StoreKind,
    /// Rank the ints when the model qualifies (`model::ints::ranked`): the search is then
    /// finite and exact, and its counterexamples are replayed on the unranked instance.
    pub rank_ints: bool,
    /// On a family that is not fully symmetric, search states annotated with the
    /// symmetry they may still use (`reach::partial`: adaptive symmetry reduction)
    /// instead of no reduction; needs `symmetry`.
    pub partial_symmetry: bool,
}

impl ReachOptions {
    /// The `unsafe` properties to check (`props`; every one when `None`).
    pub fn props_of(&self, model: &Model) -> Vec<usize> {
        crate::model::ir::all_or(self.props.as_deref(), model)
    }

    /// The arrays of `model` whose dead cells are normalized (`model::dead`): none
    /// unless `dead_cells`.
    pub fn dead_arrays(&self, model: &Model) -> Vec<DeadArray> {
        if self.dead_cells {
            crate::model::dead::analyse(model)
        } else {
            Vec::new()
        }
    }

    /// The limit of time, interruption or memory (`bytes` held) reached now, if any:
    /// the last of them when several are (memory, then an interruption, then time).
    pub fn polled_limit(&self, bytes: impl FnOnce() -> usize) -> Option<Limit> {
        if self.max_memory.is_some_and(|m| bytes() > m) {
            Some(Limit::Memory)
        } else if self
            .stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            Some(Limit::Interrupted)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Limit::Timeout)
        } else {
            None
        }
    }

    /// The threads to search on: `threads`, or one per core.
    pub fn thread_count(&self) -> usize {
        match self.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t,
        }
    }
}

/// Measurements of one search.
#[derive(Clone, Debug, Default)]
pub struct ReachStats {
    /// States stored (canonical representatives under symmetry).
    pub states: usize,
    /// Successors generated.
    pub transitions: u64,
    /// Deepest BFS level reached.
    pub depth: usize,
    pub seconds: f64,
    /// Bytes held by the visited set and parent records at the end.
    pub bytes: usize,
    /// Bytes held by a compressed (tree) store alone, its node tables included.
    pub store_bytes: Option<usize>,
    pub initial_states: usize,
}

/// The outcome at one size.
#[derive(Clone, Debug)]
pub struct ReachResult {
    pub size: usize,
    /// Whether symmetry reduction was applied.
    pub symmetry: bool,
    /// The arrays whose dead cells were normalized (`model::dead`), described.
    pub dead_cells: Vec<String>,
    pub results: Vec<PropResult>,
    pub stats: ReachStats,
    pub limit: Option<Limit>,
    /// Every reachable state was explored.
    pub complete: bool,
    /// Traces that failed to replay (an engine bug; the verdict is then unknown).
    pub internal_errors: Vec<String>,
    /// The int variables ranked (`model::ints::ranked`); empty when none was.
    pub ranked: Vec<String>,
    /// An increment the ranking could not follow exactly: the search stopped there and
    /// its answers are `unknown`.
    pub rank_error: Option<String>,
    /// Which transitions fired and which property conjuncts were ever true.
    pub coverage: Coverage,
    /// Hash compaction, bitstate: an upper estimate of the probability that the search
    /// missed a reachable state (`None` for the exact store).
    pub omission: Option<f64>,
}

/// The depth of the deepest violation once a breadth-first search has found every one
/// it tracks: one of each property (`unsafes`: the depth of each one's, if found) and,
/// when deadlocks are asked for (`deadlock` is `Some`), a deadlock. `None` while one is
/// missing, or when it tracks none.
pub(super) fn deepest(
    unsafes: impl Iterator<Item = Option<usize>> + Clone,
    deadlock: Option<Option<usize>>,
) -> Option<usize> {
    let tracked = unsafes.clone().next().is_some() || deadlock.is_some();
    let all = unsafes.clone().all(|f| f.is_some()) && deadlock.is_none_or(|d| d.is_some());
    (tracked && all).then(|| unsafes.chain(deadlock).flatten().max().unwrap_or(0))
}

/// Whether a breadth-first search may stop once every state of depth <= `depth` is
/// expanded: every tracked violation is found, the deepest at `last` (`deepest`), and
/// range errors are decided up to it: one was found no deeper (`range`: the depth of
/// the shallowest found), or every state that deep was expanded (the SAT engine decides
/// them as far); in a model with ints (`int` is then `Some`), stores leaving the int
/// window likewise.
pub(super) fn all_done(
    last: Option<usize>,
    depth: usize,
    range: Option<usize>,
    int: Option<Option<usize>>,
) -> bool {
    let Some(last) = last else {
        return false;
    };
    let decided = |d: Option<usize>| d.is_some_and(|d| d <= depth);
    depth > last || (decided(range) && int.is_none_or(decided))
}

/// Peak resident memory of this process so far (Linux), in bytes.
pub fn peak_memory() -> Option<usize> {
    crate::limits::peak_memory()
}

/// Explore the instance of size `n` breadth-first.
pub fn check_size(model: &Model, n: usize, opts: &ReachOptions) -> ReachResult {
    if partial::applies(model, n, opts)
        && let Some(r) = partial::check_size(model, n, opts)
    {
        return r;
    }
    let start = Instant::now();
    // Ranked ints: the search runs on the model whose int window holds every ranked
    // state; counterexamples are rebuilt on the unranked one (`report::results`).
    let ranking = if opts.rank_ints {
        crate::model::ints::ranked::applies(model)
    } else {
        None
    };
    let ranked_model = ranking.as_ref().map(|r| r.model_for(model, n));
    let inst = Instance::new(ranked_model.as_ref().unwrap_or(model), n);
    let compiled = Compiled::for_search(&inst);
    let dead_arrays = opts.dead_arrays(model);
    let rank = ranking
        .as_ref()
        .map(|r| crate::model::ints::ranked::RankInst::new(r, &inst));
    let ctx = Ctx::new(model, (&inst, &compiled), opts, &dead_arrays, rank);
    let use_sym = ctx.sym.is_some();
    let mut s = Search::new(ctx, opts.thread_count());
    let e = s.explore(opts, start);
    let coverage = report::coverage(&inst, &compiled, &s, &e, opts, start);
    let stats = ReachStats {
        states: s.rec.count,
        transitions: s.rec.transitions,
        depth: e.depth,
        seconds: start.elapsed().as_secs_f64(),
        bytes: s.bytes(),
        store_bytes: (opts.store == StoreKind::Tree).then(|| s.store_bytes()),
        initial_states: e.initial_states,
    };
    let concrete = ranking.as_ref().map(|r| (model, r));
    let (results, internal_errors) = report::results(&inst, &compiled, &s, &e, opts, concrete);
    ReachResult {
        size: n,
        symmetry: use_sym,
        dead_cells: dead_arrays.iter().map(|a| a.describe(model)).collect(),
        results,
        stats,
        limit: e.limit,
        complete: e.complete && opts.store.exact(),
        internal_errors,
        ranked: ranking.map(|r| r.names(model)).unwrap_or_default(),
        rank_error: s.rec.rank_error.clone(),
        coverage,
        omission: (!opts.store.exact()).then_some(e.omission),
    }
}

impl From<ReachResult> for SizeReport {
    fn from(r: ReachResult) -> SizeReport {
        SizeReport {
            size: r.size,
            symmetry: r.symmetry,
            results: r.results,
            seconds: r.stats.seconds,
            shared_time: false,
            limit: r.limit,
            internal_errors: r.internal_errors,
            engine: "explicit",
            stats: crate::verdict::Stats {
                states: Some(r.stats.states),
                transitions: Some(r.stats.transitions),
                initial_states: Some(r.stats.initial_states),
                complete: Some(r.complete),
                omission_probability: r.omission,
                bytes: Some(r.stats.bytes),
                store_bytes: r.stats.store_bytes,
                ints_ranked: (!r.ranked.is_empty()).then_some(r.ranked),
                ..Default::default()
            },
            // Every state of depth <= the level being expanded was discovered and checked.
            answered_depth: Some(r.stats.depth),
            coverage: Some(r.coverage),
            not_run: false,
            shown_at: None,
        }
    }
}
