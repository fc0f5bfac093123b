//! Compiled expressions: an expression specialised to constant parameters and
//! quantified values, with constant subterms folded and cells of constant index turned
//! into slot numbers, evaluated on an unpacked state.

use super::Fault;
use crate::model::instance::Instance;
use crate::model::ir::*;

type Ev = Result<i64, Fault>;

/// A specialised expression over an unpacked state.
#[derive(Clone, Debug)]
pub enum C {
    Const(i64),
    Slot(u32),
    SlotEq(u32, i64),
    SlotNe(u32, i64),
    /// Fused comparisons of a slot with a constant and of two slots (the commonest
    /// guards: one node instead of three).
    CmpSC(CmpOp, u32, i64),
    CmpSS(CmpOp, u32, u32),
    /// `st[slot] + k` (an overflow is a range error, as in `Arith`): the commonest
    /// update of a counter.
    SlotAdd(u32, i64),
    /// A cell of a one-dimensional array indexed by a slot: `st[base + st[slot] - lo]`,
    /// a range error unless `st[slot] - lo < size`.
    Dyn1 {
        base: u32,
        slot: u32,
        lo: i64,
        size: u32,
    },
    /// A cell whose index is computed at run time.
    Dyn(Box<DynCell>),
    Arith(ArithOp, Box<C>, Box<C>),
    Cmp(CmpOp, Box<C>, Box<C>),
    Not(Box<C>),
    And(Box<[C]>),
    Or(Box<[C]>),
    Imp(Box<C>, Box<C>),
    Iff(Box<C>, Box<C>),
    Ite(Box<(C, C, C)>),
    /// A range error known at compile time, raised if evaluation reaches it.
    Fail,
}

/// The cell of `var` at compiled indices: `Ok(Some(slot))` when they are constant and
/// in range, `Ok(None)` when constant and out of range, otherwise a run-time cell.
pub(super) fn cell(inst: &Instance, var: VarId, idx: Vec<C>) -> Result<Option<u32>, DynCell> {
    if let Some(ix) = idx.iter().map(C::as_const).collect::<Option<Vec<i64>>>() {
        return Ok(inst.slot_of(var, &ix).map(|s| s as u32));
    }
    Err(dyn_cell(inst, var, idx))
}

pub(super) fn dyn_cell(inst: &Instance, var: VarId, idx: Vec<C>) -> DynCell {
    let l = &inst.vars[var];
    DynCell {
        base: l.base,
        idx: idx
            .into_iter()
            .zip(&l.dims)
            .zip(&l.strides)
            .map(|((c, &(lo, size)), &stride)| (c, lo, size, stride))
            .collect(),
    }
}

/// A run-time index computation: `base + sum (idx_k - lo_k) * stride_k`.
#[derive(Clone, Debug)]
pub struct DynCell {
    pub base: usize,
    /// Per position: the index term, its lowest value, number of values and stride.
    pub idx: Vec<(C, i64, usize, usize)>,
}

impl DynCell {
    /// The node reading this cell: `Dyn1` for one index read from a slot.
    fn fused(self) -> C {
        if let [(C::Slot(slot), lo, size, 1)] = self.idx[..]
            && let (Ok(base), Ok(size)) = (u32::try_from(self.base), u32::try_from(size))
        {
            return C::Dyn1 {
                base,
                slot,
                lo,
                size,
            };
        }
        C::Dyn(Box::new(self))
    }

    #[inline]
    pub(super) fn slot(&self, st: &[i64]) -> Result<usize, Fault> {
        if let [(C::Slot(slot), lo, size, 1)] = self.idx[..] {
            let off = st[slot as usize].wrapping_sub(lo);
            if off < 0 || off as usize >= size {
                return Err(Fault);
            }
            return Ok(self.base + off as usize);
        }
        let mut s = self.base;
        for (c, lo, size, stride) in &self.idx {
            let v = c.eval(st)?;
            let off = v.wrapping_sub(*lo);
            if off < 0 || off as usize >= *size {
                return Err(Fault);
            }
            s += off as usize * stride;
        }
        Ok(s)
    }
}

impl C {
    /// Evaluate on an unpacked state.
    #[inline]
    pub fn eval(&self, st: &[i64]) -> Ev {
        Ok(match self {
            C::Const(v) => *v,
            C::Slot(s) => st[*s as usize],
            C::SlotEq(s, v) => (st[*s as usize] == *v) as i64,
            C::SlotNe(s, v) => (st[*s as usize] != *v) as i64,
            C::CmpSC(op, a, v) => op.apply(st[*a as usize], *v) as i64,
            C::CmpSS(op, a, b) => op.apply(st[*a as usize], st[*b as usize]) as i64,
            C::SlotAdd(s, k) => st[*s as usize].checked_add(*k).ok_or(Fault)?,
            C::Dyn1 {
                base,
                slot,
                lo,
                size,
            } => {
                let off = st[*slot as usize].wrapping_sub(*lo);
                if off < 0 || off >= *size as i64 {
                    return Err(Fault);
                }
                st[*base as usize + off as usize]
            }
            C::Dyn(d) => st[d.slot(st)?],
            C::Arith(op, a, b) => {
                let (a, b) = (a.eval(st)?, b.eval(st)?);
                match op {
                    ArithOp::Add => a.checked_add(b),
                    ArithOp::Sub => a.checked_sub(b),
                    ArithOp::Mul => a.checked_mul(b),
                }
                .ok_or(Fault)?
            }
            C::Cmp(op, a, b) => {
                let a = a.eval(st)?;
                op.apply(a, b.eval(st)?) as i64
            }
            C::Not(a) => (a.eval(st)? == 0) as i64,
            C::And(xs) => {
                for x in xs.iter() {
                    if x.eval(st)? == 0 {
                        return Ok(0);
                    }
                }
                1
            }
            C::Or(xs) => {
                for x in xs.iter() {
                    if x.eval(st)? != 0 {
                        return Ok(1);
                    }
                }
                0
            }
            C::Imp(a, b) => {
                if a.eval(st)? == 0 {
                    1
                } else {
                    (b.eval(st)? != 0) as i64
                }
            }
            C::Iff(a, b) => {
                let a = a.eval(st)? != 0;
                (a == (b.eval(st)? != 0)) as i64
            }
            C::Ite(x) => {
                if x.0.eval(st)? != 0 {
                    x.1.eval(st)?
                } else {
                    x.2.eval(st)?
                }
            }
            C::Fail => return Err(Fault),
        })
    }

    /// Mark in `reads` (one flag per slot) every slot evaluation may read, a cell of
    /// run-time index as every cell its index can reach: two states that agree on the
    /// marked slots give the same result, range errors included.
    pub fn mark_reads(&self, reads: &mut [bool]) {
        let mut range = |from: usize, len: usize| {
            for r in reads.iter_mut().skip(from).take(len) {
                *r = true;
            }
        };
        match self {
            C::Const(_) | C::Fail => {}
            C::Slot(s) | C::SlotEq(s, _) | C::SlotNe(s, _) | C::CmpSC(_, s, _) => {
                range(*s as usize, 1)
            }
            C::SlotAdd(s, _) => range(*s as usize, 1),
            C::CmpSS(_, a, b) => {
                range(*a as usize, 1);
                range(*b as usize, 1);
            }
            C::Dyn1 {
                base, slot, size, ..
            } => {
                range(*slot as usize, 1);
                range(*base as usize, *size as usize);
            }
            C::Dyn(d) => {
                let span: usize = d
                    .idx
                    .iter()
                    .map(|(_, _, size, stride)| size.saturating_sub(1) * stride)
                    .sum();
                range(d.base, span + 1);
                for (c, ..) in &d.idx {
                    c.mark_reads(reads);
                }
            }
            C::Arith(_, a, b) | C::Cmp(_, a, b) | C::Imp(a, b) | C::Iff(a, b) => {
                a.mark_reads(reads);
                b.mark_reads(reads);
            }
            C::Not(a) => a.mark_reads(reads),
            C::And(xs) | C::Or(xs) => xs.iter().for_each(|x| x.mark_reads(reads)),
            C::Ite(x) => {
                x.0.mark_reads(reads);
                x.1.mark_reads(reads);
                x.2.mark_reads(reads);
            }
        }
    }

    fn as_const(&self) -> Option<i64> {
        match self {
            C::Const(v) => Some(*v),
            _ => None,
        }
    }

    /// Whether evaluation can neither fail nor depend on the state (safe to drop).
    fn is_pure_const(&self) -> bool {
        matches!(self, C::Const(_))
    }
}

/// Specialise an expression; `env` holds the values of the locals in scope.
pub fn compile(inst: &Instance, env: &mut [i64], e: &Expr) -> C {
    match e {
        Expr::Const(v, _) => C::Const(*v),
        Expr::Size => C::Const(inst.n as i64),
        Expr::Local(id) => C::Const(env[*id]),
        Expr::Read(var, idx) => {
            let cs: Vec<C> = idx.iter().map(|x| compile(inst, env, x)).collect();
            match cell(inst, *var, cs) {
                Ok(Some(s)) => C::Slot(s),
                Ok(None) => C::Fail,
                Err(d) => d.fused(),
            }
        }
        Expr::Arith(op, a, b) => {
            let (a, b) = (compile(inst, env, a), compile(inst, env, b));
            if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
                let r = match op {
                    ArithOp::Add => x.checked_add(y),
                    ArithOp::Sub => x.checked_sub(y),
                    ArithOp::Mul => x.checked_mul(y),
                };
                return r.map(C::Const).unwrap_or(C::Fail);
            }
            match (op, &a, &b) {
                (ArithOp::Add, C::Slot(s), C::Const(k))
                | (ArithOp::Add, C::Const(k), C::Slot(s)) => C::SlotAdd(*s, *k),
                (ArithOp::Sub, C::Slot(s), C::Const(k)) if *k != i64::MIN => C::SlotAdd(*s, -k),
                _ => C::Arith(*op, Box::new(a), Box::new(b)),
            }
        }
        Expr::Cmp(op, a, b) => {
            let (a, b) = (compile(inst, env, a), compile(inst, env, b));
            match (&a, &b, op) {
                (C::Const(x), C::Const(y), _) => C::Const(op.apply(*x, *y) as i64),
                (C::Slot(s), C::Const(v), CmpOp::Eq) | (C::Const(v), C::Slot(s), CmpOp::Eq) => {
                    C::SlotEq(*s, *v)
                }
                (C::Slot(s), C::Const(v), CmpOp::Ne) | (C::Const(v), C::Slot(s), CmpOp::Ne) => {
                    C::SlotNe(*s, *v)
                }
                (C::Slot(s), C::Const(v), _) => C::CmpSC(*op, *s, *v),
                (C::Const(v), C::Slot(s), _) => C::CmpSC(op.flip(), *s, *v),
                (C::Slot(x), C::Slot(y), _) => C::CmpSS(*op, *x, *y),
                _ => C::Cmp(*op, Box::new(a), Box::new(b)),
            }
        }
        Expr::Not(a) => match compile(inst, env, a) {
            C::Const(v) => C::Const((v == 0) as i64),
            C::SlotEq(s, v) => C::SlotNe(s, v),
            C::SlotNe(s, v) => C::SlotEq(s, v),
            c => C::Not(Box::new(c)),
        },
        Expr::And(xs) => junction(xs.iter().map(|x| compile(inst, env, x)).collect(), true),
        Expr::Or(xs) => junction(xs.iter().map(|x| compile(inst, env, x)).collect(), false),
        Expr::Imp(a, b) => {
            let a = compile(inst, env, a);
            match a.as_const() {
                Some(0) => C::Const(1),
                Some(_) => truth(compile(inst, env, b)),
                None => C::Imp(Box::new(a), Box::new(compile(inst, env, b))),
            }
        }
        Expr::Iff(a, b) => {
            let (a, b) = (compile(inst, env, a), compile(inst, env, b));
            match (a.as_const(), b.as_const()) {
                (Some(x), Some(y)) => C::Const(((x != 0) == (y != 0)) as i64),
                _ => C::Iff(Box::new(a), Box::new(b)),
            }
        }
        Expr::Ite(c, a, b, _) => {
            let c = compile(inst, env, c);
            match c.as_const() {
                Some(0) => compile(inst, env, b),
                Some(_) => compile(inst, env, a),
                None => C::Ite(Box::new((c, compile(inst, env, a), compile(inst, env, b)))),
            }
        }
        Expr::Quant(q) => compile_quant(inst, env, q),
    }
}

/// A quantifier unrolled in ascending order of the bound value; a process excepted by a
/// run-time value is excluded by a test on that value.
fn compile_quant(inst: &Instance, env: &mut [i64], q: &Quant) -> C {
    let (forall, var, body) = (q.forall, q.var, &*q.body);
    let mut parts = Vec::new();
    match &q.dom {
        Domain::Procs { except } => {
            let ex: Vec<C> = except.iter().map(|x| compile(inst, env, x)).collect();
            for p in 1..=inst.n as i64 {
                env[var] = p;
                let b = compile(inst, env, body);
                if ex.iter().all(|c| c.as_const().is_some()) {
                    if ex.iter().any(|c| c.as_const() == Some(p)) {
                        continue;
                    }
                    parts.push(b);
                } else {
                    // p is excluded when it equals a (run-time) excepted value.
                    let hit: Vec<C> = ex
                        .iter()
                        .map(|c| C::Cmp(CmpOp::Eq, Box::new(c.clone()), Box::new(C::Const(p))))
                        .collect();
                    let hit = junction(hit, false);
                    parts.push(if forall {
                        junction(vec![hit, b], false)
                    } else {
                        junction(vec![C::Not(Box::new(hit)), b], true)
                    });
                }
            }
        }
        Domain::Type(t) => {
            let (lo, hi) = inst.domain(*t);
            for v in lo..=hi {
                env[var] = v;
                parts.push(compile(inst, env, body));
            }
        }
    }
    junction(parts, forall)
}

/// A formula's truth value as 0/1 (`b` in `a => b` must give 0/1 like the interpreter).
fn truth(c: C) -> C {
    match c {
        C::Const(v) => C::Const((v != 0) as i64),
        c => c,
    }
}

/// `&&` (and_ = true) or `||` of already compiled operands, folding constants while
/// keeping everything evaluated before a deciding constant.
fn junction(xs: Vec<C>, and_: bool) -> C {
    let (unit, zero) = if and_ { (1, 0) } else { (0, 1) };
    let mut out = Vec::with_capacity(xs.len());
    for x in xs {
        match x.as_const() {
            Some(v) if (v != 0) as i64 == unit => continue,
            Some(_) => {
                if out.is_empty() {
                    return C::Const(zero);
                }
                out.push(C::Const(zero));
                break;
            }
            None => {}
        }
        match (x, and_) {
            (C::And(inner), true) => out.extend(inner.into_vec()),
            (C::Or(inner), false) => out.extend(inner.into_vec()),
            (x, _) => out.push(x),
        }
    }
    match out.len() {
        0 => C::Const(unit),
        1 if !out[0].is_pure_const() && is_bool_valued(&out[0]) => {
            out.pop().expect("the arm matched one element")
        }
        _ => {
            if and_ {
                C::And(out.into_boxed_slice())
            } else {
                C::Or(out.into_boxed_slice())
            }
        }
    }
}

/// Whether a compiled formula is known to yield exactly 0 or 1.
fn is_bool_valued(c: &C) -> bool {
    !matches!(
        c,
        C::Slot(_)
            | C::SlotAdd(..)
            | C::Dyn(_)
            | C::Dyn1 { .. }
            | C::Arith(..)
            | C::Ite(_)
            | C::Const(_)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Changing a slot `mark_reads` leaves unmarked changes no result (nor range
    /// error), on every state of a small grid over six slots.
    #[test]
    fn unmarked_slots_do_not_change_the_result() {
        let dyn1 = C::Dyn1 {
            base: 4,
            slot: 3,
            lo: 0,
            size: 2,
        };
        // A two-dimensional cell at 2 + i * 2 + j, i from slot 0, j from slot 1.
        let dyn2 = C::Dyn(Box::new(DynCell {
            base: 2,
            idx: vec![(C::Slot(0), 0, 2, 2), (C::Slot(1), 0, 2, 1)],
        }));
        let cases = [
            C::SlotEq(1, 2),
            C::Cmp(CmpOp::Lt, Box::new(dyn1.clone()), Box::new(C::Slot(0))),
            C::And(Box::new([C::SlotNe(0, 1), dyn2.clone()])),
            C::Or(Box::new([C::CmpSS(CmpOp::Le, 1, 2), C::SlotAdd(5, 1)])),
            C::Ite(Box::new((dyn2, dyn1, C::Const(1)))),
        ];
        for c in &cases {
            let mut reads = [false; 6];
            c.mark_reads(&mut reads);
            for code in 0..3u64.pow(6) {
                let mut st = [0i64; 6];
                let mut x = code;
                for v in st.iter_mut() {
                    *v = (x % 3) as i64;
                    x /= 3;
                }
                let here = c.eval(&st);
                for s in (0..6).filter(|&s| !reads[s]) {
                    let mut other = st;
                    other[s] = (st[s] + 1) % 3;
                    assert_eq!(c.eval(&other), here, "{c:?} on {st:?}, slot {s}");
                }
            }
        }
    }
}
