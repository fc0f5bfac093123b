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

use super::frame::Encoding;
use super::query::{Queries, SymBreak, Target};
use super::transys::Por;
use super::unroll::{Size, Unroller};
use crate::model::eval::{self, Fire, Step};
use crate::model::instance::Instance;
use crate::model::ir::Model;
use crate::sat::circuit::{FALSE, TRUE};
use crate::sat::{Backend, Lit, SolveResult, SolverKind, Stop};
use crate::trace::{RangeSite, Trace, Violation};
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
        &super::transys::Transys::new(model, min, max, opts.encoding),
        opts,
    )
}

/// A range whose encoding has a case per width, unless one formula was asked for.
fn split_wanted(ts: &super::transys::Transys, opts: &BmcOptions) -> bool {
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
        let r = run(model, Unroller::new(model, n, opts.encoding), opts)?;
        out.reports.extend(r.reports);
        out.sizes = r.sizes;
        out.solve_seconds += r.solve_seconds;
    }
    Ok(out)
}

/// Which property a query is about: `Unsafe(u)`, `Range` for range errors,
/// `IntBound` for stores leaving the int window.
type PropKey = PropId;

fn run(model: &Model, mut u: Unroller, opts: &BmcOptions) -> Result<BmcRun, String> {
    let start = Instant::now();
    u.reduce_interleavings(opts.por);
    let mut solver = opts.solver.create()?;
    let widths: Vec<usize> = (u.agg.min..=u.agg.max).collect();
    let use_sym = opts.symbreak != SymBreak::Off && model.is_symmetric() && u.inst.n > 1;
    let mut queries = Queries::new(if use_sym {
        opts.symbreak
    } else {
        SymBreak::Off
    });
    let props: Vec<usize> = opts
        .props
        .clone()
        .unwrap_or_else(|| (0..model.unsafes.len()).collect());
    let stop = Stop {
        deadline: opts.deadline,
        flag: opts.stop.clone(),
    };
    let mut keys: Vec<PropKey> = props
        .iter()
        .map(|&p| PropId::Unsafe(p))
        .chain([PropId::Range])
        .collect();
    if model.int_window.is_some() {
        keys.push(PropId::IntBound);
    }
    let mut found: HashMap<(PropKey, usize), Trace> = HashMap::new();
    let mut internal_errors = Vec::new();
    let mut limit = None;
    let mut solve_seconds = 0.0;
    let mut last_progress = Instant::now();
    let target_of = |key: PropKey| match key {
        PropId::Unsafe(p) => Target::Unsafe(p),
        PropId::IntBound => Target::IntBound,
        _ => Target::Range(props.clone()),
    };
    let solve = |solver: &mut Box<dyn Backend>, u: &Unroller, a: &[Lit], secs: &mut f64| {
        let t0 = Instant::now();
        let r = solver.solve(&u.c.cnf, a, &stop);
        *secs += t0.elapsed().as_secs_f64();
        r
    };
    // The last depth whose queries were all answered.
    let mut answered: Option<usize> = None;
    let mut last_k = 0;
    // A line every few seconds while one depth's queries run long.
    let heartbeat = crate::progress::Heartbeat::start(opts.progress, "bmc");
    'depth: for k in 0..=opts.depth {
        let depth_start = Instant::now();
        heartbeat.set(format!("depth {k} of {}", opts.depth));
        if k > 0 {
            answered = Some(k - 1);
        }
        last_k = k;
        if opts
            .max_memory
            .is_some_and(|m| crate::limits::current_memory().is_some_and(|r| r > m))
        {
            limit = Some(Limit::Memory);
            break;
        }
        if k > 0 {
            u.add_step();
        }
        // Per width, the properties still open there. Range errors of a width whose
        // properties are all violated, the last at depth D < k, are decided up to D only
        // (as the explicit engine does).
        let open_at = |found: &HashMap<(PropKey, usize), Trace>, w: usize| -> Vec<PropKey> {
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
            keys.iter()
                .copied()
                .filter(|&key| {
                    !(found.contains_key(&(key, w))
                        || (!matches!(key, PropId::Unsafe(_)) && finished))
                })
                .collect()
        };
        if widths.iter().all(|&w| open_at(&found, w).is_empty()) {
            break;
        }
        // Each width on its own, under the assumption of its width literal: unit
        // propagation then fixes every width-dependent case of the aggregate, and what
        // the solver learns at one width stays for the others. Per width one combined
        // query first (most depths have no violation at all), split by property only
        // when it is satisfiable.
        for &w in widths.iter().rev() {
            let open = open_at(&found, w);
            if open.is_empty() {
                continue;
            }
            let width_lit = u.agg.width[w - 1];
            let with_width = |mut a: Vec<Lit>| {
                if width_lit != TRUE {
                    a.push(width_lit);
                }
                a
            };
            if width_lit == FALSE {
                continue;
            }
            if open.len() > 1 {
                let any = Target::Any(open.iter().map(|&key| target_of(key)).collect());
                let Some(a) = queries.assumptions(&mut u, &any, k) else {
                    continue;
                };
                match solve(&mut solver, &u, &with_width(a), &mut solve_seconds) {
                    SolveResult::Unsat => continue,
                    SolveResult::Unknown => {
                        limit = Some(stopped(&opts.stop));
                        break 'depth;
                    }
                    SolveResult::Sat => {}
                }
            }
            for key in open {
                let Some(a) = queries.assumptions(&mut u, &target_of(key), k) else {
                    continue;
                };
                match solve(&mut solver, &u, &with_width(a), &mut solve_seconds) {
                    SolveResult::Unsat => {}
                    SolveResult::Unknown => {
                        limit = Some(stopped(&opts.stop));
                        break 'depth;
                    }
                    SolveResult::Sat => match decode(model, &u, solver.as_ref(), k, key) {
                        Ok(t) if t.size == w => {
                            found.insert((key, w), t);
                        }
                        Ok(t) => {
                            internal_errors.push(format!(
                                "depth {k}: a query at width {w} decoded a run of width {}",
                                t.size
                            ));
                            break 'depth;
                        }
                        Err(e) => {
                            let name = key.name(model);
                            internal_errors.push(format!("{name}, depth {k}: {e}"));
                            break 'depth;
                        }
                    },
                }
            }
        }
        // Depth k is answered: no reachable frame k violates a property at a width
        // where it was not found (with symmetry breaking, no permutation of such a
        // state does either). Said for every tuple as a clause, it holds in every
        // later unrolling too, where frame k is an intermediate frame.
        {
            for &p in &props {
                let bad_at: Vec<Lit> = widths
                    .iter()
                    .filter(|&&w| found.contains_key(&(PropId::Unsafe(p), w)))
                    .map(|&w| u.agg.width[w - 1])
                    .collect();
                if bad_at.len() == widths.len() {
                    continue;
                }
                let (b, e) = u.bad(p, k);
                let mut cl = vec![-u.init_ok, -b, e];
                cl.extend(bad_at);
                u.c.clause(&cl);
            }
        }
        let depth_secs = depth_start.elapsed().as_secs_f64();
        if opts.progress && (depth_secs >= 0.2 || last_progress.elapsed().as_secs_f64() >= 1.0) {
            last_progress = Instant::now();
            let s = u.size();
            eprintln!(
                "nfold: bmc depth {k} of {} done in {depth_secs:.2}s, {} variables, {} clauses, {:.1}s in all",
                opts.depth,
                s.vars,
                s.clauses,
                start.elapsed().as_secs_f64()
            );
        }
    }
    heartbeat.finish();
    let finished = limit.is_none() && internal_errors.is_empty();
    if finished {
        answered = Some(last_k);
    }
    let s = u.size();
    let seconds = start.elapsed().as_secs_f64();
    let mut reports = Vec::new();
    for &w in &widths {
        let mut results = Vec::new();
        for &p in &props {
            let verdict = match found.remove(&(PropId::Unsafe(p), w)) {
                Some(t) => Verdict::violated(t),
                None if finished => Verdict::NoViolationUpTo(opts.depth),
                None => Verdict::Unknown,
            };
            results.push(PropResult {
                size: w,
                prop: PropId::Unsafe(p),
                name: model.unsafes[p].name.clone(),
                verdict,
            });
        }
        for (key, name) in [
            (PropId::Range, "range_error"),
            (PropId::IntBound, "int_bound"),
        ] {
            if let Some(t) = found.remove(&(key, w)) {
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
            symmetry: use_sym,
            results,
            seconds,
            limit,
            internal_errors: internal_errors.clone(),
            answered_depth: answered,
            engine: "sat",
            stats: Stats {
                bound: Some(opts.depth),
                variables: Some(s.vars),
                clauses: Some(s.clauses),
                ..Stats::default()
            },
            ..SizeReport::default()
        });
    }
    Ok(BmcRun {
        reports,
        sizes: u.sizes.clone(),
        solve_seconds,
        split: false,
    })
}

/// Which limit stopped a solve.
fn stopped(flag: &Option<Arc<AtomicBool>>) -> Limit {
    if flag
        .as_ref()
        .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
    {
        Limit::Interrupted
    } else {
        Limit::Timeout
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
        let choices = match eval::fire(&inst, &states[j], *t, params) {
            Fire::Enabled(succ) => succ
                .into_iter()
                .find(|(_, next)| *next == states[j + 1])
                .map(|(c, _)| c)
                .ok_or("a decoded step is not a successor on the interpreter")?,
            _ => return Err("a decoded step is not enabled on the interpreter".into()),
        };
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
