//! Compiled transition instances: the guard (its leading `cell = const` tests apart,
//! for dispatch) and the updates as a list of writes, in update order.

use super::expr::{C, DynCell, cell, compile, dyn_cell};
use super::jump::Jumps;
use super::{Fault, Outcome, Scratch};
use crate::model::instance::Instance;
use crate::model::ir::*;
use std::convert::Infallible;

/// A target cell of a write.
#[derive(Clone, Debug)]
pub enum Target {
    Slot(u32),
    Dyn(DynCell),
}

/// One step of a compiled action, in update order.
#[derive(Clone, Debug)]
pub enum Op {
    /// Store a value, which must lie in `lo..=hi` (for an `int` target, the int
    /// window: leaving it is `int_bound`, not a range error).
    Write {
        target: Target,
        value: C,
        lo: i64,
        hi: i64,
        int: bool,
    },
    /// `X := .` or `A[i] := .`: every value of the type.
    Nondet { target: Target, lo: i64, hi: i64 },
    /// `X := any j. f`: the processes whose condition holds; none disables the step.
    Any { slot: u32, options: Vec<(i64, C)> },
}

/// A compiled transition instance.
#[derive(Clone, Debug)]
pub struct CTrans {
    pub trans: usize,
    pub params: Vec<i64>,
    /// Leading conjuncts of the guard that cannot fail: `(slot, value, equal)` means
    /// `st[slot] == value` (or `!=` when not `equal`); checked first, in order.
    pub pre: Vec<(u32, i64, bool)>,
    /// The rest of the guard.
    pub guard: Jumps,
    pub ops: Vec<Op>,
    /// Whether two updates may write one cell (run-time indices, or a nondeterministic
    /// update beside a write of the same global).
    pub may_conflict: bool,
}

impl CTrans {
    /// Whether its updates are all deterministic writes, so that compiled code (native
    /// or bytecode) stages them itself rather than leaving them to the interpreter.
    pub(super) fn staged(&self) -> bool {
        self.ops.iter().all(|op| matches!(op, Op::Write { .. }))
    }

    /// Whether the guard holds: the leading tests first, then the rest of the guard.
    #[inline]
    pub(super) fn enabled(&self, st: &[i64]) -> Result<bool, Fault> {
        for &(s, v, eq) in &self.pre {
            if (st[s as usize] == v) != eq {
                return Ok(false);
            }
        }
        self.guard.holds(st)
    }

    /// Evaluate the updates on `st` into `sc.writes` (the deterministic ones) and
    /// `sc.nondet` (the values each nondeterministic one may take), in update order;
    /// `Err` is the outcome when one faults, leaves the int window or has no choice.
    #[inline]
    pub(super) fn stage(&self, st: &[i64], sc: &mut Scratch) -> Result<(), Outcome> {
        sc.writes.clear();
        sc.nondet.clear();
        for op in &self.ops {
            match op {
                Op::Write {
                    target,
                    value,
                    lo,
                    hi,
                    int,
                } => {
                    let slot = target.slot(st)?;
                    let v = match value {
                        C::Const(v) => *v,
                        C::Slot(s) => st[*s as usize],
                        c => c.eval(st).map_err(|_| Outcome::Fault)?,
                    };
                    if v < *lo || v > *hi {
                        return Err(if *int {
                            Outcome::IntBound
                        } else {
                            Outcome::Fault
                        });
                    }
                    sc.writes.push((slot, v));
                }
                Op::Nondet { target, lo, hi } => {
                    let slot = target.slot(st)?;
                    sc.nondet.push((slot, (*lo..=*hi).collect()))
                }
                Op::Any { slot, options } => {
                    let mut vals = Vec::new();
                    for (p, c) in options {
                        match c.eval(st) {
                            Err(_) => return Err(Outcome::Fault),
                            Ok(0) => {}
                            Ok(_) => vals.push(*p),
                        }
                    }
                    if vals.is_empty() {
                        return Err(Outcome::Disabled);
                    }
                    sc.nondet.push((*slot as usize, vals));
                }
            }
        }
        Ok(())
    }
}

impl Target {
    /// The slot written in `st` (a run-time index out of range faults).
    #[inline]
    fn slot(&self, st: &[i64]) -> Result<usize, Outcome> {
        match self {
            Target::Slot(s) => Ok(*s as usize),
            Target::Dyn(d) => d.slot(st).map_err(|_| Outcome::Fault),
        }
    }
}

/// Compile transition `t` with its parameters bound to `params`.
pub(super) fn compile_trans(inst: &Instance, t: usize, params: Vec<i64>) -> CTrans {
    let tr = &inst.model.transitions[t];
    let mut env = vec![0; tr.locals.len().max(params.len())];
    env[..params.len()].copy_from_slice(&params);
    let guard = compile(inst, &mut env, &tr.guard);
    let mut ops = Vec::new();
    for u in &tr.updates {
        compile_update(inst, &mut env, u, &mut ops);
    }
    let (pre, guard) = split_prefix(guard);
    let may_conflict = may_conflict(&ops);
    CTrans {
        trans: t,
        params,
        pre,
        guard: Jumps::new(&guard),
        ops,
        may_conflict,
    }
}

/// The writes of one update: one per cell a bound index reaches (`A[j] := ...`), one
/// for `:= .`, one for `:= any`.
fn compile_update(inst: &Instance, env: &mut [i64], u: &Update, ops: &mut Vec<Op>) {
    let l = &inst.vars[u.var];
    match &u.value {
        UpdValue::Term(e) => {
            let Ok(()) = inst.for_each_binding(u, env, |env, _, _| -> Result<(), Infallible> {
                let target = target(inst, env, u);
                let value = compile(inst, env, e);
                ops.push(Op::Write {
                    target,
                    value,
                    lo: l.lo,
                    hi: l.hi,
                    int: inst.model.is_int_var(u.var),
                });
                Ok(())
            });
        }
        UpdValue::Nondet => {
            let target = target(inst, env, u);
            ops.push(Op::Nondet {
                target,
                lo: l.lo,
                hi: l.hi,
            });
        }
        UpdValue::Any { var, cond } => {
            let options = (1..=inst.n as i64)
                .map(|p| {
                    env[*var] = p;
                    (p, compile(inst, env, cond))
                })
                .collect();
            ops.push(Op::Any {
                slot: l.base as u32,
                options,
            });
        }
    }
}

/// The cell an update writes, with its index compiled under `env`.
fn target(inst: &Instance, env: &mut [i64], u: &Update) -> Target {
    let idx: Vec<C> = u
        .index
        .iter()
        .map(|ix| match ix {
            Index::Term(x) => compile(inst, env, x),
            Index::Bind(id) => C::Const(env[*id]),
        })
        .collect();
    match cell(inst, u.var, idx) {
        Ok(Some(s)) => Target::Slot(s),
        // An out-of-range constant index faults when evaluated.
        Ok(None) => Target::Dyn(dyn_cell(
            inst,
            u.var,
            vec![C::Fail; inst.vars[u.var].dims.len()],
        )),
        Err(d) => Target::Dyn(d),
    }
}

/// Whether two writes may hit one cell: a run-time index, or two writes of one slot.
fn may_conflict(ops: &[Op]) -> bool {
    let mut static_slots = Vec::new();
    let mut may_conflict = false;
    for op in ops {
        match op {
            Op::Write {
                target: Target::Slot(s),
                ..
            }
            | Op::Nondet {
                target: Target::Slot(s),
                ..
            }
            | Op::Any { slot: s, .. } => {
                may_conflict |= static_slots.contains(s);
                static_slots.push(*s);
            }
            Op::Write {
                target: Target::Dyn(_),
                ..
            }
            | Op::Nondet {
                target: Target::Dyn(_),
                ..
            } => may_conflict = true,
        }
    }
    may_conflict
}

/// Split the leading conjuncts of the form `cell = const` / `cell <> const` (which
/// cannot fail) off a guard; they can be tested first without changing which range
/// errors evaluation meets.
pub(super) fn split_prefix(guard: C) -> (Vec<(u32, i64, bool)>, C) {
    let atom = |c: &C| match c {
        C::SlotEq(s, v) => Some((*s, *v, true)),
        C::SlotNe(s, v) => Some((*s, *v, false)),
        _ => None,
    };
    if let Some(a) = atom(&guard) {
        return (vec![a], C::Const(1));
    }
    let C::And(parts) = guard else {
        return (Vec::new(), guard);
    };
    let mut parts = parts.into_vec();
    let pre: Vec<_> = parts.iter().map_while(atom).collect();
    let rest = match <[C; 1]>::try_from(parts.split_off(pre.len())) {
        Ok([one]) => one,
        Err(rest) if rest.is_empty() => C::Const(1),
        Err(rest) => C::And(rest.into_boxed_slice()),
    };
    (pre, rest)
}
