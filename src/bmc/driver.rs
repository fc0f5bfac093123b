//! The bounded model checking loop at one size: for depth k = 0, 1, ..., K the
//! unrolling grows by one frame (the solver keeps what it learnt), and every property
//! not yet violated is asked for a bad frame k. The first satisfiable depth gives a
//! shortest counterexample, which is decoded, completed by the reference interpreter
//! (the witness processes, the range error's site) and replayed before it is
//! reported. Properties never violated are "no violation up to depth K".
//!
//! Three things keep the depths cheap (measured in benches/sat_compare.sh):
//! - the unrolling keeps one order of commuting steps and puts idle steps last
//!   (`transys::Por`), so a run shorter than the depth is not met once per placement of
//!   its idle steps;
//! - an answered depth k becomes a clause "no reachable frame k is bad" (over every
//!   tuple, whatever the symmetry breaking asked), the property assumed in the earlier
//!   frames as in ABC's `bmc`;
//! - the aggregate is asked width by width under the width's literal.

use crate::model::eval::{self, Fire, Miss, Step};
use crate::model::instance::Instance;
use crate::model::ir::Model;
use crate::sat::circuit::{FALSE, TRUE};
use crate::sat::{Backend, Lit, SolveResult, SolverKind, Stop};
use crate::trace::{RangeSite, Trace, Violation};
use crate::transys::Por;
use crate::transys::frame::Encoding;
use crate::transys::query::{Queries, SymBreak, Target};
use crate::transys::unroll::{Size, Unroller};
use crate::verdict::{Limit, PropId, PropResult, SizeReport, Stats, Verdict};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// How to run bounded model checking.
#[derive(Clone, Debug)]
pub struct BmcOptions {
    /// The largest depth K.
    pub depth: usize,
    /// Symmetry breaking on the final frame (applied to fully symmetric families only).
    pub symbreak: SymBreak,
    pub solver: SolverKind,
    pub encoding: Encoding,
    /// Which `unsafe` properties; all when `None`.
    pub props: Option<Vec<usize>>,
    pub deadline: Option<Instant>,
    pub stop: Option<Arc<AtomicBool>>,
    /// Stop when the process's resident memory exceeds this many bytes.
    pub max_memory: Option<usize>,
    /// Raised when it did (`limits::memory_guard`): a solve in progress gives up.
    pub memory: Option<Arc<AtomicBool>>,
    /// Progress lines on stderr (depth, clauses, time) once a run takes over a second.
    pub progress: bool,
    /// Partial-order reduction of the unrolling.
    pub por: Por,
    /// Keep a range of sizes in one aggregate formula even when its encoding has a
    /// case per width (`check_aggregate`).
    pub whole_aggregate: bool,
}

impl Default for BmcOptions {
    fn default() -> Self {
        BmcOptions {
            depth: 20,
            symbreak: SymBreak::WitnessLex,
            solver: SolverKind::default_kind(),
            encoding: Encoding::Binary,
            props: None,
            deadline: None,
            stop: None,
            max_memory: None,
            memory: None,
            progress: false,
            por: Por::default(),
            whole_aggregate: false,
        }
    }
}

/// The outcome at one size, with the formula sizes per frame.
#[derive(Clone, Debug)]
pub struct BmcResult {
    pub report: SizeReport,
    /// Variables and clauses after each frame.
    pub sizes: Vec<Size>,
    /// Time spent inside the solver.
    pub solve_seconds: f64,
}

/// The outcome of one run over several sizes (the aggregate): a report per size.
#[derive(Clone, Debug)]
pub struct BmcRun {
    pub reports: Vec<SizeReport>,
    /// Formula sizes per frame (of the largest width's formula when split).
    pub sizes: Vec<Size>,
    pub solve_seconds: f64,
    /// The widths were checked one by one, each on its own formula, because the
    /// aggregate's encoding has cases per width.
    pub split: bool,
}

/// Check the instance of size `n` up to depth `opts.depth`.
pub fn check_size(model: &Model, n: usize, opts: &BmcOptions) -> Result<BmcResult, String> {
    let u = Unroller::new(model, n, opts.encoding);
    let mut run = run(model, u, opts)?;
    Ok(BmcResult {
        report: run.reports.remove(0),
        sizes: run.sizes,
        solve_seconds: run.solve_seconds,
    })
}

/// Check every size in `min..=max` in one run: over the aggregate family, each width
/// asked under its width literal at every depth; or, when the aggregate's encoding has
/// a case per width (`N` in a formula, ranges over `N`) and `opts.whole_aggregate` is
/// off, width by width on formulas of their own. Such cases keep what the solver learns
/// at one width from serving the others, while every query still propagates the whole
/// formula: there the aggregate measured 0.51-0.90 times the speed of one formula per
/// width (Peterson, ticket lock, odd-even sort, token ring; benches/aggregate_compare.sh),
/// and 1.3-3.1 times faster where no case depends on the width (German, MESI, mutex).
pub fn check_aggregate(
    model: &Model,
    min: usize,
    max: usize,
    opts: &BmcOptions,
) -> Result<BmcRun, String> {
    let u = Unroller::aggregate(model, min, max, opts.encoding);
    if !split_wanted(&u.ts, opts) {
        return run(model, u, opts);
    }
    drop(u);
    check_widths(model, min, max, opts)
}

/// Whether `check_aggregate` checks the range width by width.
pub fn splits_by_width(model: &Model, min: usize, max: usize, opts: &BmcOptions) -> bool {
    split_wanted(
        &crate::transys::Transys::new(model, min, max, opts.encoding),
        opts,
    )
}

/// A range whose encoding has a case per width, unless one formula was asked for.
fn split_wanted(ts: &crate::transys::Transys, opts: &BmcOptions) -> bool {
    !opts.whole_aggregate && !ts.single() && ts.agg.has_width_cases()
}

/// Every width of `min..=max` on a formula of its own, smallest first.
fn check_widths(
    model: &Model,
    min: usize,
    max: usize,
    opts: &BmcOptions,
) -> Result<BmcRun, String> {
    let mut out = BmcRun {
        reports: Vec::new(),
        sizes: Vec::new(),
        solve_seconds: 0.0,
        split: true,
    };
    for n in min..=max {
        // Once a limit stopped a width, the larger ones are not built (building a
        // width's formula alone can take seconds): they are unknown, with that limit.
        if let Some(limit) = out.reports.iter().find_map(|r| r.limit) {
            out.reports.push(not_run(model, n, opts, limit));
            continue;
        }
        let r = run(model, Unroller::new(model, n, opts.encoding), opts)?;
        out.reports.extend(r.reports);
        out.sizes = r.sizes;
        out.solve_seconds += r.solve_seconds;
    }
    Ok(out)
}

/// The report of width `n` of a run stopped by `limit` before its formula was built:
/// every property unknown, nothing answered.
fn not_run(model: &Model, n: usize, opts: &BmcOptions, limit: Limit) -> SizeReport {
    let props = crate::model::ir::all_or(opts.props.as_deref(), model);
    SizeReport {
        size: n,
        symmetry: opts.symbreak != SymBreak::Off && model.is_symmetric() && n > 1,
        results: props
            .iter()
            .map(|&p| PropResult::new(model, n, PropId::Unsafe(p), Verdict::Unknown))
            .collect(),
        limit: Some(limit),
        engine: "sat",
        stats: Stats {
            bound: Some(opts.depth),
            ..Stats::default()
        },
        ..SizeReport::default()
    }
}

/// One run of the depth loop on an unrolling (one size, or the aggregate of a range
/// asked width by width): setup, the depths, and one report per width.
fn run(model: &Model, u: Unroller, opts: &BmcOptions) -> Result<BmcRun, String> {
    let start = Instant::now();
    let mut b = Bmc::new(model, u, opts)?;
    let answered = b.depths(start);
    Ok(b.reports(answered, start))
}

/// The state of a BMC run: the unrolling and its solver, the properties asked, the
/// counterexamples found per (property, width), and why it stopped early, if it did.
struct Bmc<'a> {
    model: &'a Model,
    opts: &'a BmcOptions,
    u: Unroller<'a>,
    solver: Box<dyn Backend>,
    queries: Queries,
    /// Whether symmetry breaking is applied.
    use_sym: bool,
    props: Vec<usize>,
    keys: Vec<PropId>,
    widths: Vec<usize>,
    stop: Stop,
    found: HashMap<(PropId, usize), Trace>,
    internal_errors: Vec<String>,
    limit: Option<Limit>,
    solve_seconds: f64,
}

/// The depth loop stops: a limit or an internal error, recorded in `Bmc`.
struct Halt;

impl<'a> Bmc<'a> {
    fn new(model: &'a Model, mut u: Unroller<'a>, opts: &'a BmcOptions) -> Result<Bmc<'a>, String> {
        u.reduce_interleavings(opts.por);
        let solver = opts.solver.create()?;
        let widths: Vec<usize> = (u.agg.min..=u.agg.max).collect();
        let use_sym = opts.symbreak != SymBreak::Off && model.is_symmetric() && u.inst.n > 1;
        let queries = Queries::new(if use_sym {
            opts.symbreak
        } else {
            SymBreak::Off
        });
        let props = crate::model::ir::all_or(opts.props.as_deref(), model);
        let stop = Stop {
            deadline: opts.deadline,
            flag: opts.stop.clone(),
            memory: opts.memory.clone(),
        };
        let mut keys: Vec<PropId> = props
            .iter()
            .map(|&p| PropId::Unsafe(p))
            .chain([PropId::Range])
            .collect();
        if model.int_window.is_some() {
            keys.push(PropId::IntBound);
        }
        Ok(Bmc {
            model,
            opts,
            u,
            solver,
            queries,
            use_sym,
            props,
            keys,
            widths,
            stop,
            found: HashMap::new(),
            internal_errors: Vec::new(),
            limit: None,
            solve_seconds: 0.0,
        })
    }

    /// Depths 0..=K, each frame added once; the last depth whose queries were all
    /// answered.
    fn depths(&mut self, start: Instant) -> Option<usize> {
        let mut answered: Option<usize> = None;
        let mut last_k = 0;
        let mut last_progress = Instant::now();
        // A line every few seconds while one depth's queries run long.
        let heartbeat = crate::progress::Heartbeat::start(self.opts.progress, "bmc");
        for k in 0..=self.opts.depth {
            let depth_start = Instant::now();
            heartbeat.set(format!("depth {k} of {}", self.opts.depth));
            if k > 0 {
                answered = Some(k - 1);
            }
            last_k = k;
            if self
                .opts
                .max_memory
                .is_some_and(|m| crate::limits::recent_memory().is_some_and(|r| r > m))
            {
                self.limit = Some(Limit::Memory);
                break;
            }
            if k > 0 {
                self.u.add_step();
            }
            if self.widths.iter().all(|&w| self.open_at(w, k).is_empty()) {
                break;
            }
            // Each width on its own, under the assumption of its width literal: unit
            // propagation then fixes every width-dependent case of the aggregate, and
            // what the solver learns at one width stays for the others.
            let widths = self.widths.clone();
            if widths
                .iter()
                .rev()
                .try_for_each(|&w| self.query_width(w, k))
                .is_err()
            {
                break;
            }
            self.assert_answered(k);
            let depth_secs = depth_start.elapsed().as_secs_f64();
            if self.opts.progress
                && (depth_secs >= 0.2 || last_progress.elapsed().as_secs_f64() >= 1.0)
            {
                last_progress = Instant::now();
                let s = self.u.size();
                crate::progress::line(format!(
                    "bmc depth {k} of {} done in {depth_secs:.2}s, {} variables, {} clauses, {:.1}s in all",
                    self.opts.depth,
                    s.vars,
                    s.clauses,
                    start.elapsed().as_secs_f64()
                ));
            }
        }
        heartbeat.finish();
        if self.finished() {
            answered = Some(last_k);
        }
        answered
    }

    /// No limit and no internal error stopped the loop.
    fn finished(&self) -> bool {
        self.limit.is_none() && self.internal_errors.is_empty()
    }

    /// At depth k, the properties still open at width `w`. Range errors of a width
    /// whose properties are all violated, the last at depth D < k, are decided up to D
    /// only (as the explicit engine does).
    fn open_at(&self, w: usize, k: usize) -> Vec<PropId> {
        let found = &self.found;
        let props = &self.props;
        let finished = !props.is_empty()
            && props
                .iter()
                .all(|&p| found.contains_key(&(PropId::Unsafe(p), w)))
            && props
                .iter()
                .filter_map(|&p| found.get(&(PropId::Unsafe(p), w)))
                .map(|t| t.depth())
                .max()
                .unwrap_or(0)
                < k;
        self.keys
            .iter()
            .copied()
            .filter(|&key| {
                !(found.contains_key(&(key, w)) || (!matches!(key, PropId::Unsafe(_)) && finished))
            })
            .collect()
    }

    fn target_of(&self, key: PropId) -> Target {
        match key {
            PropId::Unsafe(p) => Target::Unsafe(p),
            PropId::IntBound => Target::IntBound,
            _ => Target::Range(self.props.clone()),
        }
    }

    /// Solve under `a` (and the width literal, unless it is true), timing the solver.
    fn solve(&mut self, mut a: Vec<Lit>, width_lit: Lit) -> SolveResult {
        if width_lit != TRUE {
            a.push(width_lit);
        }
        let t0 = Instant::now();
        let r = self.solver.solve(&self.u.c.cnf, &a, &self.stop);
        self.solve_seconds += t0.elapsed().as_secs_f64();
        r
    }

    /// The limit that stopped a solve.
    fn stopped(&mut self) -> Halt {
        self.limit = Some(Limit::of(&self.stop));
        Halt
    }

    /// Depth k at width `w`: one combined query for every open property first (most
    /// depths have no violation at all), split by property only when it is
    /// satisfiable; each violation found is decoded, replayed and recorded.
    fn query_width(&mut self, w: usize, k: usize) -> Result<(), Halt> {
        let open = self.open_at(w, k);
        if open.is_empty() {
            return Ok(());
        }
        let width_lit = self.u.agg.width[w - 1];
        if width_lit == FALSE {
            return Ok(());
        }
        if open.len() > 1 {
            let any = Target::Any(open.iter().map(|&key| self.target_of(key)).collect());
            let Some(a) = self.queries.assumptions(&mut self.u, &any, k) else {
                return Ok(());
            };
            match self.solve(a, width_lit) {
                SolveResult::Unsat => return Ok(()),
                SolveResult::Unknown => return Err(self.stopped()),
                SolveResult::Sat => {}
            }
        }
        for key in open {
            let target = self.target_of(key);
            let Some(a) = self.queries.assumptions(&mut self.u, &target, k) else {
                continue;
            };
            match self.solve(a, width_lit) {
                SolveResult::Unsat => {}
                SolveResult::Unknown => return Err(self.stopped()),
                SolveResult::Sat => self.record(key, w, k)?,
            }
        }
        Ok(())
    }

    /// The model of a satisfiable query for `key` at width `w` and depth k, decoded
    /// and replayed into a trace and recorded; an internal error when it fails.
    fn record(&mut self, key: PropId, w: usize, k: usize) -> Result<(), Halt> {
        match decode(self.model, &self.u, self.solver.as_ref(), k, key) {
            Ok(t) if t.size == w => {
                self.found.insert((key, w), t);
                Ok(())
            }
            Ok(t) => {
                self.internal_errors.push(format!(
                    "depth {k}: a query at width {w} decoded a run of width {}",
                    t.size
                ));
                Err(Halt)
            }
            Err(e) => {
                let name = key.name(self.model);
                self.internal_errors.push(format!("{name}, depth {k}: {e}"));
                Err(Halt)
            }
        }
    }

    /// Depth k is answered: no reachable frame k violates a property at a width where
    /// it was not found (with symmetry breaking, no permutation of such a state does
    /// either). Said for every tuple as a clause, it holds in every later unrolling
    /// too, where frame k is an intermediate frame.
    fn assert_answered(&mut self, k: usize) {
        let u = &mut self.u;
        for &p in &self.props {
            let bad_at: Vec<Lit> = self
                .widths
                .iter()
                .filter(|&&w| self.found.contains_key(&(PropId::Unsafe(p), w)))
                .map(|&w| u.agg.width[w - 1])
                .collect();
            if bad_at.len() == self.widths.len() {
                continue;
            }
            let (b, e) = u.bad(p, k);
            let mut cl = vec![-u.init_ok, -b, e];
            cl.extend(bad_at);
            u.c.clause(&cl);
        }
    }

    /// One report per width: each property violated (with its trace), or without a
    /// violation up to the depth (unknown when the loop stopped early).
    fn reports(mut self, answered: Option<usize>, start: Instant) -> BmcRun {
        let finished = self.finished();
        let s = self.u.size();
        let seconds = start.elapsed().as_secs_f64();
        let mut reports = Vec::new();
        for &w in &self.widths {
            let mut results = Vec::new();
            for &p in &self.props {
                let verdict = match self.found.remove(&(PropId::Unsafe(p), w)) {
                    Some(t) => Verdict::violated(t),
                    None if finished => Verdict::NoViolationUpTo(self.opts.depth),
                    None => Verdict::Unknown,
                };
                results.push(PropResult::new(self.model, w, PropId::Unsafe(p), verdict));
            }
            for (key, name) in [
                (PropId::Range, "range_error"),
                (PropId::IntBound, "int_bound"),
            ] {
                if let Some(t) = self.found.remove(&(key, w)) {
                    results.push(PropResult {
                        size: w,
                        prop: key,
                        name: name.into(),
                        verdict: Verdict::violated(t),
                    });
                }
            }
            reports.push(SizeReport {
                size: w,
                symmetry: self.use_sym,
                results,
                seconds,
                shared_time: self.widths.len() > 1,
                limit: self.limit,
                internal_errors: self.internal_errors.clone(),
                answered_depth: answered,
                engine: "sat",
                stats: Stats {
                    bound: Some(self.opts.depth),
                    variables: Some(s.vars),
                    clauses: Some(s.clauses),
                    ..Stats::default()
                },
                ..SizeReport::default()
            });
        }
        BmcRun {
            reports,
            sizes: self.u.sizes.clone(),
            solve_seconds: self.solve_seconds,
            split: false,
        }
    }
}

/// Turn a model of depth k into a trace at the model's width (the size itself outside
/// the aggregate), projecting the aggregate's cells onto that instance, and replay it.
fn decode(
    model: &Model,
    u: &Unroller,
    solver: &dyn Backend,
    k: usize,
    prop: PropId,
) -> Result<Trace, String> {
    let val = |l: Lit| solver.value(l);
    let w = u.width(&val);
    let inst = Instance::new(model, w);
    let map: Vec<usize> = inst
        .slots
        .iter()
        .map(|s| u.inst.slot_of(s.var, &s.index))
        .collect::<Option<Vec<_>>>()
        .ok_or("a cell of the instance is missing from the unrolling")?;
    let states: Vec<Vec<i64>> = (0..=k)
        .map(|j| {
            let full = u.frames[j].state(&u.inst, &val);
            map.iter().map(|&s| full[s]).collect()
        })
        .collect();
    let mut steps = Vec::new();
    for j in 0..k {
        let Some(idx) = u.fired(j, &val) else {
            continue;
        };
        let (t, params) = &u.instances[idx];
        if params.iter().any(|&p| p < 1 || p as usize > w) {
            return Err("a fired transition has a parameter outside the width".into());
        }
        // The choices are those of the interpreter's successor that is the next state.
        let choices = eval::step_choices(&inst, &states[j], *t, params, &states[j + 1]).map_err(
            |m| match m {
                Miss::NotASuccessor => "a decoded step is not a successor on the interpreter",
                Miss::Disabled => "a decoded step is not enabled on the interpreter",
            },
        )?;
        steps.push(Step {
            trans: *t,
            params: params.clone(),
            choices,
        });
    }
    let last = &states[k];
    let violation = match prop {
        PropId::Unsafe(p) => match eval::violation(&inst, last, &model.unsafes[p]) {
            Ok(Some(tuple)) => Violation::Unsafe { prop: p, tuple },
            Ok(None) => return Err("the decoded final state does not violate the property".into()),
            Err(e) => return Err(format!("the decoded final state meets a range error: {e}")),
        },
        PropId::IntBound => int_violation(&inst, last)?,
        _ => range_violation(model, &inst, &states[0], last)?,
    };
    let trace = Trace {
        size: w,
        init: states[0].clone(),
        steps,
        violation,
    };
    let replayed = trace.replay(model)?;
    if replayed.last() != Some(last) {
        return Err("the replayed run ends in another state than the decoded one".into());
    }
    if trace.depth() != k {
        return Err(format!(
            "the decoded run has {} steps, fewer than the first satisfiable depth {k}",
            trace.depth()
        ));
    }
    Ok(trace)
}

/// Where the interpreter meets the range error in the last state (or in init).
fn range_violation(
    model: &Model,
    inst: &crate::model::instance::Instance,
    first: &[i64],
    last: &[i64],
) -> Result<Violation, String> {
    if let Err(e) = eval::satisfies_init(inst, first) {
        return Ok(Violation::Range {
            site: RangeSite::Init,
            message: e.message,
        });
    }
    for (t, params) in eval::transition_instances(inst) {
        if let Fire::Error(e) = eval::fire(inst, last, t, &params)
            && !e.is_int_bound()
        {
            return Ok(Violation::Range {
                site: RangeSite::Transition { trans: t, params },
                message: e.message,
            });
        }
    }
    for (p, u) in model.unsafes.iter().enumerate() {
        if let Err(e) = eval::violation(inst, last, u) {
            return Ok(Violation::Range {
                site: RangeSite::Property(p),
                message: e.message,
            });
        }
    }
    Err("the interpreter meets no range error in the decoded state".into())
}

/// The first transition instance that leaves the int window in the last state.
fn int_violation(inst: &Instance, last: &[i64]) -> Result<Violation, String> {
    for (t, params) in eval::transition_instances(inst) {
        if let Fire::Error(e) = eval::fire(inst, last, t, &params)
            && e.is_int_bound()
        {
            return Ok(Violation::IntBound {
                trans: t,
                params,
                message: e.message,
            });
        }
    }
    Err("the interpreter does not leave the int window in the decoded state".into())
}
