//! A lasso from the fixpoint, for a width whose initial states meet L_∞ (the states
//! with a run of infinitely many rounds), after E. M. Clarke, O. Grumberg,
//! K. L. McMillan, X. Zhao, "Efficient generation of counterexamples and witnesses in
//! symbolic model checking", DAC 1995: walk down the onion rings of
//! E[non-count U (count into L_∞)] to a count step, and again from the state reached,
//! until a state reached right after a count repeats (the walk's choices are the same
//! from the same state, so this is often soon); past a number of counts, ask after
//! each count whether the state reached lies on a cycle through a count step within
//! L_∞, and if so close the cycle there (onion rings again), else go on from it (each
//! such state lies in a later strongly connected component, so this ends).
//!
//! The run is written as a run of the k-liveness product at that width (K the number
//! of its counts) and handed to `live::lasso_in_rounds`, which finds the repeated round
//! start, turns the run into a lasso of the model and replays it on the interpreter of
//! the unreduced instance, fairness checked: nothing here is trusted.

use super::Budget;
use super::rounds::{pre_count, reach_all_back, reach_back};
use super::sys::{F, R, Stop, Sys};
use crate::lasso::Lasso;
use crate::live::{self, Product, Variant};
use crate::model::eval::{self, Miss, Step};
use crate::model::instance::Instance;
use crate::model::ir::Model;
use crate::trace::{Trace, Violation};
use crate::transys::StateVar;
use oxidd::BooleanFunction;

/// A run of the product: states (bit values) and the instance of each step.
struct Run {
    states: Vec<Vec<bool>>,
    steps: Vec<usize>,
}

impl Run {
    /// The state it ends in: a run holds at least its initial state.
    fn last(&self) -> &[bool] {
        self.states
            .last()
            .expect("a run holds at least its initial state")
    }
}

/// How many count steps the walk takes looking for a repeated state before it asks,
/// after each count, for a cycle through the state reached (a backward fixpoint).
const EXPLICIT_SEGMENTS: usize = 64;

/// How many count steps the walk may take before giving up (it ends within the
/// number of strongly connected components; this bounds a runaway).
const MAX_SEGMENTS: usize = 10_000;

/// One step from state `s` into `target`: through a count step (`count`) or any other.
fn step_into(sys: &mut Sys, s: &[bool], target: &F, count: bool) -> R<Option<(usize, Vec<bool>)>> {
    let steps = if count { &sys.special } else { &sys.steps };
    for x in steps {
        if let Some(next) = sys.post_into(x, s, target)? {
            return Ok(Some((x.t, next)));
        }
    }
    Ok(None)
}

/// Walk from the last state of `run` down `rings` (frontiers of a backward search,
/// ring 0 the target) to ring 0; `count_too`: the rings were built through count steps
/// as well.
fn walk_down(sys: &mut Sys, run: &mut Run, rings: &[F], count_too: bool) -> R<()> {
    let here = sys.state(run.last())?;
    let Some(mut i) =
        (0..rings.len()).find(|&i| here.and(&rings[i]).is_ok_and(|x| x.satisfiable()))
    else {
        return Err(Stop::Limit);
    };
    while i > 0 {
        let s = run.last().to_vec();
        let mut next = step_into(sys, &s, &rings[i - 1], false)?;
        if next.is_none() && count_too {
            next = step_into(sys, &s, &rings[i - 1], true)?;
        }
        let (t, n) = next.ok_or(Stop::Limit)?;
        run.steps.push(t);
        run.states.push(n);
        i -= 1;
    }
    Ok(())
}

/// A run from an initial state of `init` (within `fair`, the states with a run of
/// infinitely many rounds) whose last state repeats a state reached right after a
/// count, with a count step in between. `None` if the walk ran out of segments.
fn lasso_run(sys: &mut Sys, init: &F, fair: &F, budget: &Budget) -> R<Option<Run>> {
    let start = sys.pick(&init.and(fair)?).ok_or(Stop::Limit)?;
    let mut run = Run {
        states: vec![start],
        steps: Vec::new(),
    };
    let counted = pre_count(sys, fair, fair, budget)?;
    let mut rings = Vec::new();
    let mut images = 0;
    reach_back(sys, &counted, fair, budget, &mut images, Some(&mut rings))?;
    let mut after_count = std::collections::HashSet::new();
    for segment in 0..MAX_SEGMENTS {
        budget.poll()?;
        walk_down(sys, &mut run, &rings, false)?;
        let s = run.last().to_vec();
        let (t, n) = step_into(sys, &s, fair, true)?.ok_or(Stop::Limit)?;
        run.steps.push(t);
        run.states.push(n.clone());
        // The walk picks the same way from the same state: it often comes back to a
        // state it reached right after a count, which closes a cycle with no
        // fixpoint to compute. Only then are the cycles through n computed.
        if !after_count.insert(n.clone()) {
            return Ok(Some(run));
        }
        if segment < EXPLICIT_SEGMENTS {
            continue;
        }
        // Does n lie on a cycle through a count step within the fair states?
        let here = sys.state(&n)?;
        let (back, back_rings) = reach_all_back(sys, &here, fair, budget)?;
        let into_back = pre_count(sys, &back, fair, budget)?;
        let (to_count, to_rings) = reach_all_back(sys, &into_back, fair, budget)?;
        if !here.and(&to_count)?.satisfiable() {
            continue;
        }
        walk_down(sys, &mut run, &to_rings, true)?;
        let s = run.last().to_vec();
        let (t, m) = step_into(sys, &s, &back, true)?.ok_or(Stop::Limit)?;
        run.steps.push(t);
        run.states.push(m);
        walk_down(sys, &mut run, &back_rings, true)?;
        return Ok(Some(run));
    }
    Ok(None)
}

/// The run as a trace of the k-liveness product at width `w`, K its number of counts.
fn product_trace(
    sys: &Sys,
    model: &Model,
    prop: usize,
    fair: bool,
    w: usize,
    run: &Run,
    is_count: &dyn Fn(usize) -> bool,
) -> Result<(Product, Trace), String> {
    let k = run.steps.iter().filter(|&&t| is_count(t)).count().max(1);
    let prod = Product::build(model, prop, fair, Variant::Klive(k))?;
    let pinst = Instance::new(&prod.model, w);
    let agg = &sys.ts.inst;
    let rounds_var = prod.model.vars.len() - 1;
    let mut counted = 0i64;
    let mut states = Vec::new();
    for (j, bits) in run.states.iter().enumerate() {
        if j > 0 && is_count(run.steps[j - 1]) {
            counted += 1;
        }
        let vals = sys.values(bits);
        let st: Vec<i64> = pinst
            .slots
            .iter()
            .map(|sl| {
                if sl.var == rounds_var {
                    return Ok(counted);
                }
                agg.slot_of(sl.var, &sl.index)
                    .map(|s| vals[&StateVar::Cell(s)])
                    .ok_or_else(|| "a cell of the width is not in the aggregate".to_string())
            })
            .collect::<Result<_, String>>()?;
        states.push(st);
    }
    let mut steps = Vec::new();
    for (j, &t) in run.steps.iter().enumerate() {
        let (trans, params) = sys.ts.instances[t].clone();
        let choices = eval::step_choices(&pinst, &states[j], trans, &params, &states[j + 1])
            .map_err(|m| match m {
                Miss::NotASuccessor => "a step of the BDD run is no step of the product",
                Miss::Disabled => "a step of the BDD run is not enabled in the product",
            })?;
        steps.push(Step {
            trans,
            params,
            choices,
        });
    }
    let trace = Trace {
        size: w,
        init: states[0].clone(),
        steps,
        violation: Violation::Unsafe {
            prop: 0,
            tuple: Vec::new(),
        },
    };
    Ok((prod, trace))
}

/// A replayed lasso at width `w` from the fair states `fair` (L_∞), or why not.
#[allow(clippy::too_many_arguments)]
pub fn lasso(
    sys: &mut Sys,
    model: &Model,
    prop: usize,
    fair_runs: bool,
    w: usize,
    init: &F,
    fair: &F,
    budget: &Budget,
) -> R<Result<Lasso, String>> {
    let Some(run) = lasso_run(sys, init, fair, budget)? else {
        return Ok(Err("the walk found no cycle".into()));
    };
    let count_of: Vec<usize> = sys.special.iter().map(|x| x.t).collect();
    let is_count = |t: usize| count_of.contains(&t);
    let (prod, trace) = match product_trace(sys, model, prop, fair_runs, w, &run, &is_count) {
        Ok(x) => x,
        Err(e) => return Ok(Err(e)),
    };
    Ok(match live::lasso_in_rounds(model, &prod, &trace) {
        Ok(Some(l)) => Ok(l),
        Ok(None) => Err("the run repeats no round start".into()),
        Err(e) => Err(e),
    })
}
