//! What the searches share around their loops: limits and progress lines (`Run`), and
//! the assembly of one search's outcome into a `NdfsResult` (`finish`): the trace to a
//! range error met in `init` or in an atom of an initial state, the lasso replayed on
//! the interpreter and shortened when asked.

use super::{Algorithm, NdfsOptions, NdfsResult, NdfsStats, NdfsVerdict, SHORTEN_BUDGET};
use crate::lasso::Lasso;
use crate::ltl::LtlProperty;
use crate::model::eval;
use crate::model::instance::{Instance, State};
use crate::model::ir::Model;
use crate::trace::{RangeSite, Trace, Violation};
use crate::verdict::Limit;
use std::sync::atomic::Ordering;
use std::time::Instant;

pub(super) use super::expand::Found;

/// The longest time between two checks of the limits.
const DUE_EVERY: std::time::Duration = std::time::Duration::from_millis(50);

/// Limits and progress lines of a running search.
pub(super) struct Run<'a> {
    opts: &'a NdfsOptions,
    n: usize,
    /// The search's name in progress lines.
    phase: &'static str,
    start: Instant,
    last_progress: Instant,
    /// Iterations of the search loop, for checking limits now and then.
    ticks: u64,
    /// When the limits were last due.
    last_due: Instant,
}

impl<'a> Run<'a> {
    pub(super) fn new(
        opts: &'a NdfsOptions,
        n: usize,
        phase: &'static str,
        start: Instant,
    ) -> Self {
        Run {
            opts,
            n,
            phase,
            start,
            last_progress: Instant::now(),
            ticks: 0,
            last_due: Instant::now(),
        }
    }

    /// Count one step of a search loop; true when the limits are due: every 4096
    /// steps, and every 50 ms where steps are slow (the initial states of a large size
    /// canonicalised one by one: MCS lock at n = 7 took 1 s for 4096).
    pub(super) fn due(&mut self) -> bool {
        self.ticks += 1;
        if self.ticks.is_multiple_of(4096)
            || (self.ticks.is_multiple_of(16) && self.last_due.elapsed() >= DUE_EVERY)
        {
            self.last_due = Instant::now();
            return true;
        }
        false
    }

    /// Check the limits (and print a progress line when one is due): `states` stored,
    /// `nodes` entered, the stack's `depth`, `bytes` held.
    pub(super) fn check(
        &mut self,
        states: usize,
        nodes: u64,
        depth: usize,
        bytes: usize,
    ) -> Result<(), Limit> {
        let o = self.opts;
        if o.max_states.is_some_and(|m| states >= m) {
            return Err(Limit::MaxStates);
        }
        if o.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Limit::Timeout);
        }
        if o.stop.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Err(Limit::Interrupted);
        }
        if o.max_memory.is_some_and(|m| bytes > m) {
            return Err(Limit::Memory);
        }
        if o.progress && self.last_progress.elapsed().as_secs_f64() >= 1.0 {
            self.last_progress = Instant::now();
            let t = self.start.elapsed().as_secs_f64();
            crate::progress::line(format!(
                "size {}: {} search: {states} states, {nodes} nodes, depth {depth}, \
                 {:.0} states/s, tables {:.1} MiB",
                self.n,
                self.phase,
                states as f64 / t.max(1e-9),
                bytes as f64 / (1 << 20) as f64,
            ));
        }
        Ok(())
    }

    /// Whether `bytes` exceed the memory limit.
    pub(super) fn over_memory(&self, bytes: usize) -> bool {
        self.opts.max_memory.is_some_and(|m| bytes > m)
    }

    /// Deadline or Ctrl-C (for work after the search, such as unfolding a lasso).
    pub(super) fn interrupted(&self) -> Option<Limit> {
        let o = self.opts;
        if o.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Limit::Timeout);
        }
        if o.stop.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Some(Limit::Interrupted);
        }
        None
    }
}

/// The trace to a range error met in `init` (or, `atoms`, in an atom of the property
/// on the initial state `state`).
fn init_error(
    model: &Model,
    p: &LtlProperty,
    n: usize,
    process: Option<i64>,
    state: State,
    atoms: bool,
) -> Result<Trace, String> {
    let inst = Instance::new(model, n);
    let (site, message) = if atoms {
        let m = crate::trace::ltl_atoms_error(&inst, &state, p.prop, process).map(|e| e.message);
        (
            RangeSite::Ltl {
                prop: p.prop,
                process,
            },
            m,
        )
    } else {
        let m = eval::satisfies_init(&inst, &state).err().map(|e| e.message);
        (RangeSite::Init, m)
    };
    let t = Trace {
        size: n,
        init: state,
        steps: Vec::new(),
        violation: Violation::Range {
            site,
            message: message.unwrap_or_default(),
        },
    };
    t.replay(model)?;
    Ok(t)
}

/// A lasso found by a search: replayed on the interpreter (an error otherwise), then
/// shortened by breadth-first search when asked (the shorter one kept only if it
/// replays too).
fn checked_lasso(
    model: &Model,
    p: &LtlProperty,
    opts: &NdfsOptions,
    states_stored: usize,
    lasso: Lasso,
) -> Result<Lasso, String> {
    let states = lasso
        .replay(model)
        .map_err(|e| format!("the lasso does not replay: {e}"))?;
    if !opts.shorten {
        return Ok(lasso);
    }
    let limits = crate::explicit::product::Limits::new(
        states_stored.clamp(SHORTEN_BUDGET.0, SHORTEN_BUDGET.1),
        opts.deadline,
        opts.stop.clone(),
        opts.progress.then(|| format!("size {}", lasso.size)),
    );
    let short = crate::explicit::shorten::shorten(model, p, &lasso, &states, &limits)
        .filter(|l| l.replay(model).is_ok());
    Ok(short.unwrap_or(lasso))
}

/// A lasso of the system the search walked (dead cells settled, `opts.dead_cells`) as
/// a lasso of the instance.
fn realized(model: &Model, n: usize, opts: &NdfsOptions, l: Lasso) -> Result<Lasso, String> {
    let inst = Instance::new(model, n);
    match super::expand::dead_for(&inst, opts.dead_cells) {
        Some(d) => super::unfold::realize(&inst, &d, l),
        None => Ok(l),
    }
}

/// An initial state of the instance for a settled initial state of the search.
fn realized_init(model: &Model, n: usize, opts: &NdfsOptions, st: State) -> Result<State, String> {
    let inst = Instance::new(model, n);
    match super::expand::dead_for(&inst, opts.dead_cells) {
        Some(d) if !st.is_empty() => super::unfold::realize_init(&inst, &d, &st),
        _ => Ok(st),
    }
}

/// The result of one search that ended with `found`.
#[allow(clippy::too_many_arguments)]
pub(super) fn finish(
    model: &Model,
    p: &LtlProperty,
    n: usize,
    process: Option<i64>,
    opts: &NdfsOptions,
    algorithm: Algorithm,
    symmetry: bool,
    stats: NdfsStats,
    found: Found,
    start: Instant,
) -> NdfsResult {
    let mut result = NdfsResult {
        size: n,
        prop: p.prop,
        process,
        symmetry,
        algorithm,
        fair: opts.fair,
        verdict: NdfsVerdict::Unknown,
        lasso: None,
        range: None,
        stats,
        limit: None,
        internal_errors: Vec::new(),
    };
    let range = |r: Result<Trace, String>, result: &mut NdfsResult| match r {
        Ok(t) => result.range = Some(t),
        Err(e) => result.internal_errors.push(e),
    };
    match found {
        Found::Nothing => result.verdict = NdfsVerdict::Holds,
        Found::Init(st) => range(init_error(model, p, n, process, st, false), &mut result),
        Found::InitAtoms(st) => {
            let t = realized_init(model, n, opts, st)
                .and_then(|st| init_error(model, p, n, process, st, true));
            range(t, &mut result)
        }
        Found::Range(r) => range(r, &mut result),
        Found::Limit(l) => result.limit = Some(l),
        Found::Lasso(Err(e)) => result.internal_errors.push(e),
        Found::Lasso(Ok(l)) => match realized(model, n, opts, l)
            .and_then(|l| checked_lasso(model, p, opts, result.stats.states, l))
        {
            Ok(l) => {
                result.verdict = NdfsVerdict::Violated;
                result.lasso = Some(l);
            }
            Err(e) => result.internal_errors.push(e),
        },
    }
    result.stats.seconds = start.elapsed().as_secs_f64();
    result
}
