//! The bounded model checking loop at one size: for depth k = 0, 1, ..., K the
//! unrolling grows by one frame (the solver keeps what it learnt), and every property
//! not yet violated is asked for a bad frame k. The first satisfiable depth gives a
//! shortest counterexample, which is decoded, completed by the reference interpreter
//! (the witness processes, the range error's site) and replayed before it is
//! reported. Properties never violated are "no violation up to depth K".

use super::encode::{Size, Unroller};
use super::frame::Encoding;
use super::query::{Queries, SymBreak, Target};
use crate::model::eval::{self, Fire, Step};
use crate::model::ir::{Model, UpdValue};
use crate::sat::{Backend, Lit, SolveResult, SolverKind, Stop};
use crate::trace::{RangeSite, Trace, Violation};
use crate::verdict::{Limit, PropId, PropResult, SizeReport, Verdict};
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
    /// Progress lines on stderr (depth, clauses, time) once a run takes over a second.
    pub progress: bool,
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
            progress: false,
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

/// Check the instance of size `n` up to depth `opts.depth`.
pub fn check_size(model: &Model, n: usize, opts: &BmcOptions) -> Result<BmcResult, String> {
    let start = Instant::now();
    let mut solver = opts.solver.create()?;
    let mut u = Unroller::new(model, n, opts.encoding);
    let use_sym = opts.symbreak != SymBreak::Off && model.is_symmetric() && n > 1;
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
    let mut found: Vec<Option<Trace>> = vec![None; props.len()];
    let mut range: Option<Trace> = None;
    let mut internal_errors = Vec::new();
    let mut limit = None;
    let mut solve_seconds = 0.0;
    let mut last_progress = Instant::now();
    let mut reached = 0;
    let solve = |solver: &mut Box<dyn Backend>, u: &Unroller, a: &[Lit], secs: &mut f64| {
        let t0 = Instant::now();
        let r = solver.solve(&u.c.cnf, a, &stop);
        *secs += t0.elapsed().as_secs_f64();
        r
    };
    'depth: for k in 0..=opts.depth {
        if k > 0 {
            u.add_step();
        }
        let mut open: Vec<Target> = Vec::new();
        for (i, &p) in props.iter().enumerate() {
            if found[i].is_none() {
                open.push(Target::Unsafe(p));
            }
        }
        if range.is_none() {
            open.push(Target::Range(props.clone()));
        }
        // One combined query first: most depths have no violation at all.
        if open.len() > 1 {
            let Some(a) = queries.assumptions(&mut u, &Target::Any(open.clone()), k) else {
                reached = k;
                continue;
            };
            match solve(&mut solver, &u, &a, &mut solve_seconds) {
                SolveResult::Unsat => {
                    reached = k;
                    continue;
                }
                SolveResult::Unknown => {
                    limit = Some(stopped(&opts.stop));
                    break 'depth;
                }
                SolveResult::Sat => {}
            }
        }
        for target in open {
            let Some(a) = queries.assumptions(&mut u, &target, k) else {
                continue;
            };
            match solve(&mut solver, &u, &a, &mut solve_seconds) {
                SolveResult::Unsat => {}
                SolveResult::Unknown => {
                    limit = Some(stopped(&opts.stop));
                    break 'depth;
                }
                SolveResult::Sat => {
                    let prop = match &target {
                        Target::Unsafe(p) => Some(*p),
                        _ => None,
                    };
                    match decode(model, &u, solver.as_ref(), k, prop) {
                        Ok(t) => match prop {
                            Some(p) => found[props.iter().position(|&x| x == p).unwrap()] = Some(t),
                            None => range = Some(t),
                        },
                        Err(e) => {
                            let name = prop
                                .map(|p| model.unsafes[p].name.as_str())
                                .unwrap_or("range_error");
                            internal_errors.push(format!("size {n}, {name}, depth {k}: {e}"));
                            break 'depth;
                        }
                    }
                }
            }
        }
        reached = k;
        if opts.progress
            && start.elapsed().as_secs_f64() > 1.0
            && last_progress.elapsed().as_secs_f64() >= 1.0
        {
            last_progress = Instant::now();
            let s = u.size();
            eprintln!(
                "nfold: size {n}: depth {k} of {}, {} variables, {} clauses, {:.1}s",
                opts.depth,
                s.vars,
                s.clauses,
                start.elapsed().as_secs_f64()
            );
        }
        if found.iter().all(|f| f.is_some()) {
            break;
        }
    }
    let _ = reached;
    let finished = limit.is_none() && internal_errors.is_empty();
    let mut results = Vec::new();
    for (i, &p) in props.iter().enumerate() {
        let (verdict, depth) = match &found[i] {
            Some(t) => (Verdict::Violated, Some(t.depth())),
            None if finished => (Verdict::NoViolationUpTo(opts.depth), None),
            None => (Verdict::Unknown, None),
        };
        results.push(PropResult {
            size: n,
            prop: PropId::Unsafe(p),
            name: model.unsafes[p].name.clone(),
            verdict,
            depth,
            trace: found[i].take(),
        });
    }
    if let Some(t) = range {
        results.push(PropResult {
            size: n,
            prop: PropId::Range,
            name: "range_error".into(),
            verdict: Verdict::Violated,
            depth: Some(t.depth()),
            trace: Some(t),
        });
    }
    let s = u.size();
    Ok(BmcResult {
        report: SizeReport {
            size: n,
            symmetry: use_sym,
            results,
            seconds: start.elapsed().as_secs_f64(),
            limit,
            complete: false,
            internal_errors,
            states: None,
            transitions: None,
            initial_states: None,
            bound: Some(opts.depth),
            vars: Some(s.vars),
            clauses: Some(s.clauses),
        },
        sizes: u.sizes.clone(),
        solve_seconds,
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

/// Turn a model of depth k into a trace, and replay it.
fn decode(
    model: &Model,
    u: &Unroller,
    solver: &dyn Backend,
    k: usize,
    prop: Option<usize>,
) -> Result<Trace, String> {
    let val = |l: Lit| solver.value(l);
    let inst = &u.inst;
    let states: Vec<Vec<i64>> = (0..=k).map(|j| u.frames[j].state(inst, &val)).collect();
    let mut steps = Vec::new();
    for j in 0..k {
        let Some(idx) = u.fired(j, &val) else {
            continue;
        };
        let (t, params) = &u.instances[idx];
        let choices = model.transitions[*t]
            .updates
            .iter()
            .filter(|up| !matches!(up.value, UpdValue::Term(_)))
            .map(|up| states[j + 1][inst.vars[up.var].base])
            .collect();
        steps.push(Step {
            trans: *t,
            params: params.clone(),
            choices,
        });
    }
    let last = &states[k];
    let violation = match prop {
        Some(p) => match eval::violation(inst, last, &model.unsafes[p]) {
            Ok(Some(tuple)) => Violation::Unsafe { prop: p, tuple },
            Ok(None) => return Err("the decoded final state does not violate the property".into()),
            Err(e) => return Err(format!("the decoded final state meets a range error: {e}")),
        },
        None => range_violation(model, inst, &states[0], last)?,
    };
    let trace = Trace {
        size: inst.n,
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
        if let Fire::Error(e) = eval::fire(inst, last, t, &params) {
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
