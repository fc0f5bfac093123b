//! The reference interpreter: the ground-truth semantics of a family at one size.
//! It evaluates the IR directly on an unpacked state, favouring obviousness over
//! speed; the fast evaluator of the explicit engine (`compiled`) and every engine's
//! counterexamples are checked against it.

use super::instance::{Instance, State};
use super::ir::*;
use std::fmt;

/// A range error (or arithmetic overflow) met while evaluating, or a store that
/// leaves the int window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError {
    pub message: String,
    pub kind: ErrorKind,
}

/// What kind of evaluation error: reported as `range_error` or as `int_bound`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A value or index out of range, arithmetic overflow, conflicting writes.
    Range,
    /// Storing a value outside the int window in an `int` variable or cell.
    IntBound,
}

impl EvalError {
    /// A range error with this message.
    pub fn range(message: impl Into<String>) -> EvalError {
        EvalError {
            message: message.into(),
            kind: ErrorKind::Range,
        }
    }

    /// Whether the error is a store leaving the int window (`int_bound`).
    pub fn is_int_bound(&self) -> bool {
        self.kind == ErrorKind::IntBound
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

fn range_err<T>(msg: String) -> Result<T, EvalError> {
    Err(EvalError::range(msg))
}

/// One step of a run: a transition instance and the values its nondeterministic
/// updates (`X := .`, `X := any j. f`) chose, in update order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    pub trans: usize,
    pub params: Vec<i64>,
    pub choices: Vec<i64>,
}

/// What trying one transition instance on a state gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fire {
    Disabled,
    /// Each successor with the nondeterministic choices that lead to it.
    Enabled(Vec<(Vec<i64>, State)>),
    Error(EvalError),
}

fn index_text(inst: &Instance, var: VarId, ix: &[i64]) -> String {
    let v = &inst.model.vars[var];
    if ix.is_empty() {
        return v.name.clone();
    }
    let parts: Vec<String> = ix.iter().map(|i| i.to_string()).collect();
    format!("{}[{}]", v.name, parts.join(","))
}

/// Explain why an index tuple is out of range.
pub fn index_error(inst: &Instance, var: VarId, ix: &[i64]) -> EvalError {
    let v = &inst.model.vars[var];
    let l = &inst.vars[var];
    for (k, &i) in ix.iter().enumerate() {
        let (lo, size) = l.dims[k];
        if i < lo || i >= lo + size as i64 {
            return EvalError::range(format!(
                "index out of range: `{}` does not exist ({} is outside {} = {}..{})",
                index_text(inst, var, ix),
                i,
                inst.model.type_name(v.dims[k]),
                lo,
                lo + size as i64 - 1
            ));
        }
    }
    EvalError::range(format!(
        "index out of range: `{}`",
        index_text(inst, var, ix)
    ))
}

/// Explain a store of a value outside a variable's type: an `int_bound` error for an
/// `int` variable (the type is the int window), a range error otherwise.
pub fn store_error(inst: &Instance, var: VarId, ix: &[i64], v: i64) -> EvalError {
    let (lo, hi) = (inst.vars[var].lo, inst.vars[var].hi);
    if inst.model.is_int_var(var) {
        return EvalError {
            message: format!(
                "leaving the int window: storing {} in `{}` (int, checked over {}..{})",
                v,
                index_text(inst, var, ix),
                lo,
                hi
            ),
            kind: ErrorKind::IntBound,
        };
    }
    EvalError::range(format!(
        "value out of range: storing {} in `{}` of type {} = {}..{}",
        v,
        index_text(inst, var, ix),
        inst.model.type_name(inst.model.vars[var].ty),
        lo,
        hi
    ))
}

/// The values a quantifier ranges over, in ascending order.
pub fn domain_values(
    inst: &Instance,
    st: &[i64],
    env: &mut [i64],
    dom: &Domain,
) -> Result<Vec<i64>, EvalError> {
    match dom {
        Domain::Procs { except } => {
            let mut ex = Vec::with_capacity(except.len());
            for e in except {
                ex.push(eval(inst, st, env, e)?);
            }
            Ok((1..=inst.n as i64).filter(|p| !ex.contains(p)).collect())
        }
        Domain::Type(t) => {
            let (lo, hi) = inst.domain(*t);
            Ok((lo..=hi).collect())
        }
    }
}

/// Evaluate a term or formula (formulas give 0 or 1) on a state.
pub fn eval(inst: &Instance, st: &[i64], env: &mut [i64], e: &Expr) -> Result<i64, EvalError> {
    Ok(match e {
        Expr::Const(v, _) => *v,
        Expr::Size => inst.n as i64,
        Expr::Local(id) => env[*id],
        Expr::Read(var, idx) => {
            let mut ix = Vec::with_capacity(idx.len());
            for x in idx {
                ix.push(eval(inst, st, env, x)?);
            }
            match inst.slot_of(*var, &ix) {
                Some(s) => st[s],
                None => return Err(index_error(inst, *var, &ix)),
            }
        }
        Expr::Arith(op, a, b) => {
            let (a, b) = (eval(inst, st, env, a)?, eval(inst, st, env, b)?);
            let r = match op {
                ArithOp::Add => a.checked_add(b),
                ArithOp::Sub => a.checked_sub(b),
                ArithOp::Mul => a.checked_mul(b),
            };
            match r {
                Some(v) => v,
                None => return range_err("arithmetic overflow".to_string()),
            }
        }
        Expr::Cmp(op, a, b) => {
            let a = eval(inst, st, env, a)?;
            let b = eval(inst, st, env, b)?;
            op.apply(a, b) as i64
        }
        Expr::Not(a) => (eval(inst, st, env, a)? == 0) as i64,
        Expr::And(xs) => {
            for x in xs {
                if eval(inst, st, env, x)? == 0 {
                    return Ok(0);
                }
            }
            1
        }
        Expr::Or(xs) => {
            for x in xs {
                if eval(inst, st, env, x)? != 0 {
                    return Ok(1);
                }
            }
            0
        }
        Expr::Imp(a, b) => {
            if eval(inst, st, env, a)? == 0 {
                1
            } else {
                (eval(inst, st, env, b)? != 0) as i64
            }
        }
        Expr::Iff(a, b) => {
            let a = eval(inst, st, env, a)? != 0;
            let b = eval(inst, st, env, b)? != 0;
            (a == b) as i64
        }
        Expr::Ite(c, a, b, _) => {
            if eval(inst, st, env, c)? != 0 {
                eval(inst, st, env, a)?
            } else {
                eval(inst, st, env, b)?
            }
        }
        Expr::Quant(q) => {
            for v in domain_values(inst, st, env, &q.dom)? {
                env[q.var] = v;
                let r = eval(inst, st, env, &q.body)? != 0;
                if r != q.forall {
                    return Ok(r as i64);
                }
            }
            q.forall as i64
        }
    })
}

fn env_with(locals: usize, params: &[i64]) -> Vec<i64> {
    let mut env = vec![0; locals.max(params.len())];
    env[..params.len()].copy_from_slice(params);
    env
}

/// Try transition `t` with the given (pairwise distinct) parameters on a state.
/// Why a step between two states is not one of the interpreter's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Miss {
    /// The transition is not enabled in the first state.
    Disabled,
    /// It is, but no successor is the second state.
    NotASuccessor,
}

/// The nondeterministic choices by which transition `t` with `params` leads from `from`
/// to `to` on the interpreter (the evidence a replayed step carries).
pub fn step_choices(
    inst: &Instance,
    from: &[i64],
    t: usize,
    params: &[i64],
    to: &[i64],
) -> Result<Vec<i64>, Miss> {
    match fire(inst, from, t, params) {
        Fire::Enabled(succ) => succ
            .into_iter()
            .find(|(_, next)| next.as_slice() == to)
            .map(|(c, _)| c)
            .ok_or(Miss::NotASuccessor),
        _ => Err(Miss::Disabled),
    }
}

pub fn fire(inst: &Instance, st: &[i64], t: usize, params: &[i64]) -> Fire {
    match fire_inner(inst, st, t, params) {
        Ok(f) => f,
        Err(e) => Fire::Error(e),
    }
}

fn fire_inner(inst: &Instance, st: &[i64], t: usize, params: &[i64]) -> Result<Fire, EvalError> {
    let tr = &inst.model.transitions[t];
    let mut env = env_with(tr.locals.len(), params);
    if eval(inst, st, &mut env, &tr.guard)? == 0 {
        return Ok(Fire::Disabled);
    }
    let mut writes: Vec<(usize, i64)> = Vec::new();
    let mut nondet: Vec<(usize, Vec<i64>)> = Vec::new();
    for u in &tr.updates {
        match &u.value {
            UpdValue::Term(e) => {
                // Every combination of values of the bound index positions.
                inst.for_each_binding(u, &mut env, |env, _, _| {
                    let mut ix = Vec::with_capacity(u.index.len());
                    for x in &u.index {
                        ix.push(match x {
                            Index::Term(e) => eval(inst, st, env, e)?,
                            Index::Bind(id) => env[*id],
                        });
                    }
                    let Some(slot) = inst.slot_of(u.var, &ix) else {
                        return Err(index_error(inst, u.var, &ix));
                    };
                    let v = eval(inst, st, env, e)?;
                    let s = &inst.slots[slot];
                    if v < s.lo || v > s.hi {
                        return Err(store_error(inst, u.var, &ix, v));
                    }
                    writes.push((slot, v));
                    Ok(())
                })?;
            }
            UpdValue::Nondet => {
                // `X := .` or `A[i] := .`: the cell's index is evaluated in update order.
                let mut ix = Vec::with_capacity(u.index.len());
                for x in &u.index {
                    if let Index::Term(e) = x {
                        ix.push(eval(inst, st, &mut env, e)?);
                    }
                }
                let Some(slot) = inst.slot_of(u.var, &ix) else {
                    return Err(index_error(inst, u.var, &ix));
                };
                let s = &inst.slots[slot];
                nondet.push((slot, (s.lo..=s.hi).collect()));
            }
            UpdValue::Any { var, cond } => {
                let mut vals = Vec::new();
                for j in 1..=inst.n as i64 {
                    env[*var] = j;
                    if eval(inst, st, &mut env, cond)? != 0 {
                        vals.push(j);
                    }
                }
                if vals.is_empty() {
                    return Ok(Fire::Disabled);
                }
                nondet.push((inst.vars[u.var].base, vals));
            }
        }
    }
    let mut seen: Vec<usize> = writes
        .iter()
        .map(|w| w.0)
        .chain(nondet.iter().map(|n| n.0))
        .collect();
    seen.sort_unstable();
    if let Some(w) = seen.windows(2).find(|w| w[0] == w[1]) {
        return range_err(format!(
            "conflicting updates: `{}` is written twice",
            inst.cell_name(w[0])
        ));
    }
    let mut base = st.to_vec();
    for &(s, v) in &writes {
        base[s] = v;
    }
    Ok(Fire::Enabled(choices(&base, &nondet)))
}

/// The successors from `base` (the state with the step's writes), one per combination
/// of the options of the `nondet` cells, the last cell's option varying fastest: the
/// values chosen and the state. None when a cell has no option (`X := .` on a type
/// empty at this size, `0 .. N - 2` at n = 1).
fn choices(base: &[i64], nondet: &[(usize, Vec<i64>)]) -> Vec<(Vec<i64>, State)> {
    let mut out = Vec::new();
    if nondet.iter().any(|(_, options)| options.is_empty()) {
        return out;
    }
    let mut choice = vec![0usize; nondet.len()];
    loop {
        let mut next = base.to_vec();
        let mut vals = Vec::with_capacity(nondet.len());
        for (k, (slot, options)) in nondet.iter().enumerate() {
            next[*slot] = options[choice[k]];
            vals.push(options[choice[k]]);
        }
        out.push((vals, next));
        let mut k = nondet.len();
        loop {
            if k == 0 {
                return out;
            }
            k -= 1;
            choice[k] += 1;
            if choice[k] < nondet[k].1.len() {
                break;
            }
            choice[k] = 0;
        }
    }
}

/// Apply one step; `Ok(None)` when the transition is disabled or the choices are not
/// among its options.
pub fn apply(inst: &Instance, st: &[i64], step: &Step) -> Result<Option<State>, EvalError> {
    match fire(inst, st, step.trans, &step.params) {
        Fire::Disabled => Ok(None),
        Fire::Error(e) => Err(e),
        Fire::Enabled(succ) => Ok(succ
            .into_iter()
            .find(|(c, _)| *c == step.choices)
            .map(|(_, s)| s)),
    }
}

/// Every transition instance (transition, parameters) of the instance, in order.
pub fn transition_instances(inst: &Instance) -> Vec<(usize, Vec<i64>)> {
    let mut out = Vec::new();
    for (t, tr) in inst.model.transitions.iter().enumerate() {
        for ps in inst.distinct_tuples(tr.params) {
            out.push((t, ps));
        }
    }
    out
}

/// Successors with their steps, and the range errors met (step without choices).
pub type Successors = (Vec<(Step, State)>, Vec<(Step, EvalError)>);

/// All successors of a state in the canonical order (transitions in source order,
/// parameters lexicographic, choices lexicographic), and the range errors met on the way
/// (an erroneous transition instance contributes no successor).
pub fn successors(inst: &Instance, st: &[i64]) -> Successors {
    let mut out = Vec::new();
    let mut errs = Vec::new();
    for (t, ps) in transition_instances(inst) {
        match fire(inst, st, t, &ps) {
            Fire::Disabled => {}
            Fire::Error(e) => errs.push((
                Step {
                    trans: t,
                    params: ps,
                    choices: Vec::new(),
                },
                e,
            )),
            Fire::Enabled(v) => {
                for (choices, s) in v {
                    out.push((
                        Step {
                            trans: t,
                            params: ps.clone(),
                            choices,
                        },
                        s,
                    ));
                }
            }
        }
    }
    (out, errs)
}

/// Whether no transition instance can fire in `st`: every instance is disabled or
/// meets a range error (an instance that meets one does not fire, so a state whose
/// only candidates err is a deadlock as well as the place of a range error).
pub fn is_deadlock(inst: &Instance, st: &[i64]) -> bool {
    successors(inst, st).0.is_empty()
}

/// The first tuple of pairwise distinct processes (lexicographic) for which the
/// property's body holds, if any.
pub fn violation(inst: &Instance, st: &[i64], u: &Unsafe) -> Result<Option<Vec<i64>>, EvalError> {
    for tuple in inst.distinct_tuples(u.params) {
        let mut env = env_with(u.locals.len(), &tuple);
        if eval(inst, st, &mut env, &u.body)? != 0 {
            return Ok(Some(tuple));
        }
    }
    Ok(None)
}

/// Whether a state satisfies every `init` (for all parameter tuples, repetitions allowed).
pub fn satisfies_init(inst: &Instance, st: &[i64]) -> Result<bool, EvalError> {
    if st.len() != inst.slots.len()
        || st
            .iter()
            .zip(&inst.slots)
            .any(|(v, s)| *v < s.lo || *v > s.hi)
    {
        return Ok(false);
    }
    for init in &inst.model.inits {
        for tuple in inst.all_tuples(init.params) {
            let mut env = env_with(init.locals.len(), &tuple);
            if eval(inst, st, &mut env, &init.body)? == 0 {
                return Ok(false);
            }
        }
    }
    Ok(true)
}
