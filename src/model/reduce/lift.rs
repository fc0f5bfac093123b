//! Runs of the reduced model lifted to runs of the model: the cells that remain are
//! copied, constants and equivalent cells take their values, and the cells sliced away
//! start from a solution of their own `init` conjuncts and follow the model's steps
//! (each step of the reduced run is fired on the model, and the successor whose
//! remaining cells agree is taken). A cycle is repeated until the model's state at its
//! start comes back. The lifted run is then replayed on the model's interpreter by the
//! caller, like every counterexample.

use super::Plan;
use crate::model::eval::{self, Fire, Step};
use crate::model::init::for_each_initial;
use crate::model::instance::{Instance, State};
use crate::model::ir::*;

/// The longest lifted cycle, in repetitions of the reduced model's cycle.
const MAX_REPEATS: usize = 1 << 16;

/// Lifting at one size: the model, its reduced form (as read back), the plan.
pub struct Lift<'a> {
    plan: &'a Plan,
    full: Instance<'a>,
    small: Instance<'a>,
    /// (slot of the reduced model, slot of the model) for every cell that remains.
    pairs: Vec<(usize, usize)>,
}

impl<'a> Lift<'a> {
    pub fn new(model: &'a Model, reduced: &'a Model, plan: &'a Plan, n: usize) -> Lift<'a> {
        let full = Instance::new(model, n);
        let small = Instance::new(reduced, n);
        let mut pairs = Vec::new();
        for (v, k) in plan.kept.iter().enumerate() {
            if let Some(w) = *k {
                let (a, b) = (&full.vars[v], &small.vars[w]);
                for c in 0..a.cells.min(b.cells) {
                    pairs.push((b.base + c, a.base + c));
                }
            }
        }
        Lift {
            plan,
            full,
            small,
            pairs,
        }
    }

    /// The reduced model's view of a state of the model.
    pub fn project(&self, s: &[i64]) -> State {
        let mut out = vec![0; self.small.slots.len()];
        for &(r, f) in &self.pairs {
            out[r] = s[f];
        }
        out
    }

    /// A state of the model whose remaining cells are `s`: constants and equivalent
    /// cells as they must be, the sliced cells from a solution of their `init`
    /// conjuncts (`None` when those have none at this size).
    pub fn initial(&self, s: &[i64]) -> Option<State> {
        let mut out = vec![0; self.full.slots.len()];
        for &(r, f) in &self.pairs {
            out[f] = s[r];
        }
        let n = self.full.n;
        for c in &self.plan.constants {
            let vals = &c.values.iter().find(|x| x.0 == n)?.1;
            let l = &self.full.vars[c.var];
            out[l.base..l.base + l.cells].copy_from_slice(vals);
        }
        self.fill_sliced(&mut out)?;
        // Merged cells last, in the order they were merged (a pair's X may itself be
        // a cell merged later into another).
        for g in self.plan.merged.iter().rev() {
            let (x, y) = (&self.full.vars[g.into], &self.full.vars[g.var]);
            for c in 0..y.cells {
                let v = out[x.base + c];
                out[y.base + c] = if g.negated { 1 - v } else { v };
            }
        }
        Some(out)
    }

    /// Give the sliced cells the values of the first solution of the `init`
    /// conjuncts that read only them.
    fn fill_sliced(&self, out: &mut [i64]) -> Option<()> {
        let sliced = &self.plan.sliced;
        if sliced.is_empty() {
            return Some(());
        }
        let m = &self.plan.before;
        let sub = super::consts::inits_of(m, sliced);
        let inst = Instance::new(&sub, self.full.n);
        let mut first = None;
        let _ = for_each_initial(&inst, &mut |s| {
            first = Some(s.to_vec());
            false
        });
        let first = first?;
        for (k, &v) in sliced.iter().enumerate() {
            let (a, b) = (&inst.vars[k], &self.full.vars[v]);
            out[b.base..b.base + b.cells].copy_from_slice(&first[a.base..a.base + a.cells]);
        }
        Some(())
    }

    /// The model's step that does what `step` does on the reduced model from the
    /// model's state `s` (whose projection is `small`), with its successor.
    fn step(&self, s: &[i64], small: &[i64], step: &Step) -> Result<(Step, State), String> {
        let want = match eval::apply(&self.small, small, step) {
            Ok(Some(next)) => next,
            _ => return Err("a step of the reduced run does not fire on the reduced model".into()),
        };
        match eval::fire(&self.full, s, step.trans, &step.params) {
            Fire::Enabled(succ) => succ
                .into_iter()
                .find(|(_, next)| self.project(next) == want)
                .map(|(choices, next)| {
                    (
                        Step {
                            trans: step.trans,
                            params: step.params.clone(),
                            choices,
                        },
                        next,
                    )
                })
                .ok_or_else(|| "no step of the model agrees with the reduced run".to_string()),
            Fire::Disabled => Err("a step of the reduced run is disabled in the model".into()),
            Fire::Error(e) => Err(format!("a step of the reduced run fails in the model: {e}")),
        }
    }

    /// The run of the model from `init` (a state of the model) along `steps` of the
    /// reduced model, and its states.
    pub fn run(&self, init: &[i64], steps: &[Step]) -> Result<(Vec<Step>, Vec<State>), String> {
        let mut s = init.to_vec();
        let mut out = Vec::with_capacity(steps.len());
        let mut states = vec![s.clone()];
        for st in steps {
            let (step, next) = self.step(&s, &self.project(&s), st)?;
            out.push(step);
            s = next;
            states.push(s.clone());
        }
        Ok((out, states))
    }

    /// A trace of the reduced model (its initial state and steps) as the model's.
    pub fn trace(&self, init: &[i64], steps: &[Step]) -> Result<(State, Vec<Step>), String> {
        let start = self
            .initial(init)
            .ok_or("the cells the reduction left out have no initial value at this size")?;
        let (steps, _) = self.run(&start, steps)?;
        Ok((start, steps))
    }

    /// A lasso of the reduced model (initial state, steps, start of the cycle) as the
    /// model's: the cycle repeated until the model's state at its start comes back.
    pub fn lasso(
        &self,
        init: &[i64],
        steps: &[Step],
        loop_start: usize,
    ) -> Result<(State, Vec<Step>, usize), String> {
        let start = self
            .initial(init)
            .ok_or("the cells the reduction left out have no initial value at this size")?;
        let (mut out, states) = self.run(&start, &steps[..loop_start])?;
        if loop_start == steps.len() {
            return Ok((start, out, loop_start));
        }
        let cycle = &steps[loop_start..];
        let mut at = states[states.len() - 1].clone();
        let mut starts: Vec<State> = Vec::new();
        for _ in 0..MAX_REPEATS {
            if let Some(k) = starts.iter().position(|s| *s == at) {
                return Ok((start, out, loop_start + k * cycle.len()));
            }
            starts.push(at.clone());
            let (more, states) = self.run(&at, cycle)?;
            out.extend(more);
            at = states[states.len() - 1].clone();
        }
        Err(format!(
            "the cycle does not come back on the model within {MAX_REPEATS} repetitions"
        ))
    }
}
