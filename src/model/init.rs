//! Initial states: every valuation satisfying all `init` blocks. Enumerated by
//! backtracking over the slots in layout order with a three-valued evaluation of the
//! init formulas on partial states, so constrained cells are fixed early and
//! unconstrained ones take every value of their type.

use super::eval::{EvalError, domain_values, index_error};
use super::instance::{Instance, State};
use super::ir::*;

/// A range error met while evaluating `init` on a (completed) valuation.
#[derive(Clone, Debug)]
pub struct InitError {
    pub state: State,
    pub error: EvalError,
}

/// A value on a partial state: `None` when it is not known yet.
type Partial = Result<Option<i64>, EvalError>;

/// Evaluate on a partial state: `Ok(None)` when the value depends on unassigned cells.
/// An error reached only after an unknown value is reported as unknown, since full
/// evaluation might stop before reaching it.
fn peval(inst: &Instance, st: &[i64], known: &[bool], env: &mut [i64], e: &Expr) -> Partial {
    Ok(match e {
        Expr::Const(v, _) => Some(*v),
        Expr::Size => Some(inst.n as i64),
        Expr::Local(id) => Some(env[*id]),
        Expr::Read(var, idx) => return pread(inst, st, known, env, *var, idx),
        Expr::Arith(op, a, b) => {
            let (a, b) = (
                peval(inst, st, known, env, a)?,
                peval(inst, st, known, env, b)?,
            );
            match (a, b) {
                (Some(a), Some(b)) => {
                    let r = match op {
                        ArithOp::Add => a.checked_add(b),
                        ArithOp::Sub => a.checked_sub(b),
                        ArithOp::Mul => a.checked_mul(b),
                    };
                    match r {
                        Some(v) => Some(v),
                        None => {
                            return Err(EvalError::range("arithmetic overflow"));
                        }
                    }
                }
                _ => None,
            }
        }
        Expr::Cmp(op, a, b) => {
            let (a, b) = (
                peval(inst, st, known, env, a)?,
                peval(inst, st, known, env, b)?,
            );
            match (a, b) {
                (Some(a), Some(b)) => Some(op.apply(a, b) as i64),
                _ => None,
            }
        }
        Expr::Not(a) => peval(inst, st, known, env, a)?.map(|v| (v == 0) as i64),
        Expr::And(xs) => junction(inst, st, known, env, xs, 0)?,
        Expr::Or(xs) => junction(inst, st, known, env, xs, 1)?,
        Expr::Imp(a, b) => match peval(inst, st, known, env, a)? {
            Some(0) => Some(1),
            Some(_) => peval(inst, st, known, env, b)?.map(|v| (v != 0) as i64),
            None => match peval(inst, st, known, env, b) {
                Ok(Some(v)) if v != 0 => Some(1),
                _ => None,
            },
        },
        Expr::Iff(a, b) => {
            let (a, b) = (
                peval(inst, st, known, env, a)?,
                peval(inst, st, known, env, b)?,
            );
            match (a, b) {
                (Some(a), Some(b)) => Some(((a != 0) == (b != 0)) as i64),
                _ => None,
            }
        }
        Expr::Ite(c, a, b, _) => match peval(inst, st, known, env, c)? {
            Some(0) => peval(inst, st, known, env, b)?,
            Some(_) => peval(inst, st, known, env, a)?,
            None => {
                let a = peval(inst, st, known, env, a).ok().flatten();
                let b = peval(inst, st, known, env, b).ok().flatten();
                match (a, b) {
                    (Some(x), Some(y)) if x == y => Some(x),
                    _ => None,
                }
            }
        },
        Expr::Quant {
            forall,
            var,
            dom,
            body,
        } => return pquant(inst, st, known, env, *forall, *var, dom, body),
    })
}

/// A read `var[idx]` on a partial state: unknown when an index or the cell is.
fn pread(
    inst: &Instance,
    st: &[i64],
    known: &[bool],
    env: &mut [i64],
    var: VarId,
    idx: &[Expr],
) -> Partial {
    let mut ix = Vec::with_capacity(idx.len());
    let mut unknown = false;
    for x in idx {
        match peval(inst, st, known, env, x)? {
            Some(v) => ix.push(v),
            None => unknown = true,
        }
    }
    if unknown {
        return Ok(None);
    }
    match inst.slot_of(var, &ix) {
        Some(s) if known[s] => Ok(Some(st[s])),
        Some(_) => Ok(None),
        None => Err(index_error(inst, var, &ix)),
    }
}

/// A quantifier on a partial state, its values in ascending order: decided by the
/// first known deciding value met before any unknown one.
#[allow(clippy::too_many_arguments)]
fn pquant(
    inst: &Instance,
    st: &[i64],
    known: &[bool],
    env: &mut [i64],
    forall: bool,
    var: LocalId,
    dom: &Domain,
    body: &Expr,
) -> Partial {
    let vals = match dom {
        Domain::Procs { except } => {
            let mut ex = Vec::new();
            for x in except {
                match peval(inst, st, known, env, x)? {
                    Some(v) => ex.push(v),
                    None => return Ok(None),
                }
            }
            (1..=inst.n as i64).filter(|p| !ex.contains(p)).collect()
        }
        Domain::Type(_) => domain_values(inst, st, env, dom)?,
    };
    let stop = if forall { 0 } else { 1 };
    let mut unknown = false;
    for v in vals {
        env[var] = v;
        match peval(inst, st, known, env, body) {
            Err(e) if !unknown => return Err(e),
            Err(_) | Ok(None) => unknown = true,
            Ok(Some(r)) if (r != 0) as i64 == stop => return Ok(Some(stop)),
            Ok(Some(_)) => {}
        }
    }
    Ok(if unknown { None } else { Some(1 - stop) })
}

/// `&&` (stop = 0) or `||` (stop = 1) over partially known operands.
fn junction(
    inst: &Instance,
    st: &[i64],
    known: &[bool],
    env: &mut [i64],
    xs: &[Expr],
    stop: i64,
) -> Partial {
    let mut unknown = false;
    for x in xs {
        match peval(inst, st, known, env, x) {
            Err(e) if !unknown => return Err(e),
            Err(_) | Ok(None) => unknown = true,
            Ok(Some(v)) if (v != 0) as i64 == stop => return Ok(Some(stop)),
            Ok(Some(_)) => {}
        }
    }
    Ok(if unknown { None } else { Some(1 - stop) })
}

struct Constraint<'a> {
    env: Vec<i64>,
    body: &'a Expr,
}

/// Call `f` on every initial state, in lexicographic order of slot values, until it
/// returns false. A range error in `init` ends the enumeration with that valuation.
pub fn for_each_initial(
    inst: &Instance,
    f: &mut dyn FnMut(&[i64]) -> bool,
) -> Result<(), InitError> {
    for_each_initial_ordered(inst, None, f)
}

/// As `for_each_initial`, but the values of each cell are tried in the order `shuffle`
/// leaves them in (it is given `lo..=hi` of the cell, in ascending order, each time the
/// search reaches the cell): with a random shuffle, the first initial state found is a
/// random one (the search still backtracks, so it finds one whenever one exists).
pub fn for_each_initial_shuffled(
    inst: &Instance,
    shuffle: &mut dyn FnMut(&mut [i64]),
    f: &mut dyn FnMut(&[i64]) -> bool,
) -> Result<(), InitError> {
    for_each_initial_ordered(inst, Some(shuffle), f)
}

/// Reorders the values of a cell in place.
type Shuffle<'g> = &'g mut dyn FnMut(&mut [i64]);

fn for_each_initial_ordered(
    inst: &Instance,
    shuffle: Option<Shuffle>,
    f: &mut dyn FnMut(&[i64]) -> bool,
) -> Result<(), InitError> {
    if !inst.has_states() {
        return Ok(());
    }
    let mut cons = Vec::new();
    for init in &inst.model.inits {
        for tuple in inst.all_tuples(init.params) {
            let mut env = vec![0; init.locals.len().max(tuple.len())];
            env[..tuple.len()].copy_from_slice(&tuple);
            cons.push(Constraint {
                env,
                body: &init.body,
            });
        }
    }
    let mut st: State = inst.slots.iter().map(|s| s.lo).collect();
    let mut known = vec![false; st.len()];
    let mut pending = Vec::new();
    for (k, c) in cons.iter_mut().enumerate() {
        match peval(inst, &st, &known, &mut c.env, c.body) {
            Ok(Some(0)) => return Ok(()),
            Ok(Some(_)) => {}
            Ok(None) => pending.push(k),
            Err(error) => return Err(InitError { state: st, error }),
        }
    }
    let mut search = Search {
        inst,
        cons: &mut cons,
        st: &mut st,
        known: &mut known,
        shuffle,
        f,
    };
    search.rec(0, &pending).map(|_| ())
}

/// The backtracking search over the slots, with what it carries from cell to cell.
struct Search<'s, 'm, 'c, 'g, 'f> {
    inst: &'s Instance<'m>,
    cons: &'s mut [Constraint<'c>],
    st: &'s mut State,
    known: &'s mut Vec<bool>,
    shuffle: Option<Shuffle<'g>>,
    f: &'f mut dyn FnMut(&[i64]) -> bool,
}

impl Search<'_, '_, '_, '_, '_> {
    /// Returns Ok(false) when `f` asked to stop.
    fn rec(&mut self, slot: usize, pending: &[usize]) -> Result<bool, InitError> {
        if slot == self.st.len() {
            return Ok((self.f)(self.st));
        }
        let (lo, hi) = (self.inst.slots[slot].lo, self.inst.slots[slot].hi);
        self.known[slot] = true;
        let mut next = Vec::with_capacity(pending.len());
        // Ascending values, or the shuffled ones.
        let shuffled: Option<Vec<i64>> = self.shuffle.as_mut().map(|sh| {
            let mut vals: Vec<i64> = (lo..=hi).collect();
            sh(&mut vals);
            vals
        });
        let mut values: Box<dyn Iterator<Item = i64>> = match shuffled {
            Some(v) => Box::new(v.into_iter()),
            None => Box::new(lo..=hi),
        };
        'values: for v in &mut values {
            self.st[slot] = v;
            next.clear();
            for &k in pending {
                let c = &mut self.cons[k];
                match peval(self.inst, self.st, self.known, &mut c.env, c.body) {
                    Ok(Some(0)) => continue 'values,
                    Ok(Some(_)) => {}
                    Ok(None) => next.push(k),
                    Err(error) => {
                        for (v, s) in self.st.iter_mut().zip(&self.inst.slots).skip(slot + 1) {
                            *v = s.lo;
                        }
                        return Err(InitError {
                            state: self.st.clone(),
                            error,
                        });
                    }
                }
            }
            let pend = next.clone();
            if !self.rec(slot + 1, &pend)? {
                self.known[slot] = false;
                return Ok(false);
            }
        }
        self.known[slot] = false;
        Ok(true)
    }
}

/// All initial states (for small instances and tests).
pub fn initial_states(inst: &Instance) -> Result<Vec<State>, InitError> {
    let mut out = Vec::new();
    for_each_initial(inst, &mut |s| {
        out.push(s.to_vec());
        true
    })?;
    Ok(out)
}
