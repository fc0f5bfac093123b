//! The fast evaluator of the explicit engine. Every transition instance (transition
//! with its parameter values) and every property instance is specialised once per size:
//! parameters and quantified variables become constants (quantifiers are unrolled in
//! ascending order), cells with constant indices become slot numbers, and constant
//! subterms fold. Evaluation order and short-circuiting are those of the reference
//! interpreter, so both meet exactly the same range errors; the engines ask the
//! reference interpreter for the message, and tests compare the two on random states.

use super::eval::transition_instances;
use super::instance::Instance;
use super::ir::*;

/// A range error (details come from the reference interpreter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault;

type Ev = Result<i64, Fault>;

/// A specialised expression over an unpacked state.
#[derive(Clone, Debug)]
pub enum C {
    Const(i64),
    Slot(u32),
    SlotEq(u32, i64),
    SlotNe(u32, i64),
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
fn cell(inst: &Instance, var: VarId, idx: Vec<C>) -> Result<Option<u32>, DynCell> {
    if idx.iter().all(|c| c.as_const().is_some()) {
        let ix: Vec<i64> = idx.iter().map(|c| c.as_const().unwrap()).collect();
        return Ok(inst.slot_of(var, &ix).map(|s| s as u32));
    }
    Err(dyn_cell(inst, var, idx))
}

fn dyn_cell(inst: &Instance, var: VarId, idx: Vec<C>) -> DynCell {
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
    #[inline]
    fn slot(&self, st: &[i64]) -> Result<usize, Fault> {
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
pub fn compile(inst: &Instance, env: &mut Vec<i64>, e: &Expr) -> C {
    match e {
        Expr::Const(v, _) => C::Const(*v),
        Expr::Size => C::Const(inst.n as i64),
        Expr::Local(id) => C::Const(env[*id]),
        Expr::Read(var, idx) => {
            let cs: Vec<C> = idx.iter().map(|x| compile(inst, env, x)).collect();
            match cell(inst, *var, cs) {
                Ok(Some(s)) => C::Slot(s),
                Ok(None) => C::Fail,
                Err(d) => C::Dyn(Box::new(d)),
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
            C::Arith(*op, Box::new(a), Box::new(b))
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
        Expr::Quant {
            forall,
            var,
            dom,
            body,
        } => {
            let mut parts = Vec::new();
            match dom {
                Domain::Procs { except } => {
                    let ex: Vec<C> = except.iter().map(|x| compile(inst, env, x)).collect();
                    for p in 1..=inst.n as i64 {
                        env[*var] = p;
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
                                .map(|c| {
                                    C::Cmp(CmpOp::Eq, Box::new(c.clone()), Box::new(C::Const(p)))
                                })
                                .collect();
                            let hit = junction(hit, false);
                            parts.push(if *forall {
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
                        env[*var] = v;
                        parts.push(compile(inst, env, body));
                    }
                }
            }
            junction(parts, *forall)
        }
    }
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
        1 if !out[0].is_pure_const() && is_bool_valued(&out[0]) => out.pop().unwrap(),
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
        C::Slot(_) | C::Dyn(_) | C::Arith(..) | C::Ite(_) | C::Const(_)
    )
}

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
    pub guard: C,
    pub ops: Vec<Op>,
    /// Whether two updates may write one cell (run-time indices, or a nondeterministic
    /// update beside a write of the same global).
    pub may_conflict: bool,
}

/// A compiled `unsafe` property: its body for every tuple of distinct processes.
#[derive(Clone, Debug)]
pub struct CProp {
    pub tuples: Vec<(Vec<i64>, C)>,
}

impl CProp {
    /// Index of the first tuple whose body holds.
    #[inline]
    pub fn check(&self, st: &[i64]) -> Result<Option<usize>, Fault> {
        for (k, (_, c)) in self.tuples.iter().enumerate() {
            if c.eval(st)? != 0 {
                return Ok(Some(k));
            }
        }
        Ok(None)
    }
}

/// All transition and property instances of a family at one size.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub trans: Vec<CTrans>,
    pub props: Vec<CProp>,
    dispatch: Dispatch,
}

/// Which transition instances can be enabled in a state, found without evaluating
/// them: most instances test `cell = const` first, so they are filed under one such
/// test (the rarest among all instances) and looked up by the cell's value.
#[derive(Clone, Debug, Default)]
struct Dispatch {
    /// Instances with no `cell = const` test.
    always: Vec<u32>,
    /// Per dispatch cell: `(slot, lowest value, offset of its first value's entry in
    /// `starts`, number of values)`.
    cells: Vec<(u32, i64, u32, u32)>,
    /// The instances filed under value v of a cell are
    /// `items[starts[off + v]..starts[off + v + 1]]`.
    starts: Vec<u32>,
    items: Vec<u32>,
}

impl Dispatch {
    fn new(inst: &Instance, trans: &[CTrans]) -> Dispatch {
        let mut count: std::collections::HashMap<(u32, i64), usize> = Default::default();
        for t in trans {
            for &(s, v, eq) in &t.pre {
                if eq {
                    *count.entry((s, v)).or_default() += 1;
                }
            }
        }
        let mut always = Vec::new();
        // slot -> lists per value
        let mut groups: Vec<(u32, i64, Vec<Vec<u32>>)> = Vec::new();
        for (k, t) in trans.iter().enumerate() {
            let key = t
                .pre
                .iter()
                .filter(|p| p.2)
                .min_by_key(|p| (count[&(p.0, p.1)], p.0))
                .map(|p| (p.0, p.1));
            let Some((slot, v)) = key else {
                always.push(k as u32);
                continue;
            };
            let sl = &inst.slots[slot as usize];
            if v < sl.lo || v > sl.hi {
                // It tests the cell for a value the cell cannot hold: never enabled.
                continue;
            }
            let g = match groups.iter().position(|g| g.0 == slot) {
                Some(g) => g,
                None => {
                    let size = (sl.hi - sl.lo + 1).max(0) as usize;
                    groups.push((slot, sl.lo, vec![Vec::new(); size]));
                    groups.len() - 1
                }
            };
            let (_, lo, lists) = &mut groups[g];
            lists[(v - *lo) as usize].push(k as u32);
        }
        let mut d = Dispatch {
            always,
            ..Default::default()
        };
        for (slot, lo, lists) in groups {
            d.cells
                .push((slot, lo, d.starts.len() as u32, lists.len() as u32));
            for l in &lists {
                d.starts.push(d.items.len() as u32);
                d.items.extend_from_slice(l);
            }
        }
        d.starts.push(d.items.len() as u32);
        d
    }
}

/// Receives `(choice index, successor state, cells written)` from `Compiled::fire`.
pub type SuccessorFn<'a> = dyn FnMut(usize, &[i64], &[(usize, i64)]) + 'a;

/// What firing a compiled transition instance did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Disabled,
    /// It produced this many successors.
    Enabled(usize),
    /// A range error.
    Fault,
    /// A store leaving the int window (`int_bound`).
    IntBound,
}

/// Reusable buffers for `Compiled::fire`.
#[derive(Default)]
pub struct Scratch {
    /// Deterministic writes, then one entry per nondeterministic update.
    writes: Vec<(usize, i64)>,
    nondet: Vec<(usize, Vec<i64>)>,
    choice: Vec<usize>,
    saved: Vec<i64>,
}

impl Compiled {
    pub fn new(inst: &Instance) -> Compiled {
        let mut trans = Vec::new();
        for (t, params) in transition_instances(inst) {
            trans.push(compile_trans(inst, t, params));
        }
        let props = inst
            .model
            .unsafes
            .iter()
            .map(|u| CProp {
                tuples: inst
                    .distinct_tuples(u.params)
                    .into_iter()
                    .map(|tuple| {
                        let mut env = vec![0; u.locals.len().max(tuple.len())];
                        env[..tuple.len()].copy_from_slice(&tuple);
                        let c = compile(inst, &mut env, &u.body);
                        (tuple, c)
                    })
                    .collect(),
            })
            .collect();
        let dispatch = Dispatch::new(inst, &trans);
        Compiled {
            trans,
            props,
            dispatch,
        }
    }

    /// The transition instances that may be enabled in `st`, in a fixed order for a
    /// given state (all others fail one of their `cell = const` tests).
    pub fn candidates(&self, st: &[i64], out: &mut Vec<u32>) {
        let d = &self.dispatch;
        out.clear();
        out.extend_from_slice(&d.always);
        for &(slot, lo, off, size) in &d.cells {
            let v = st[slot as usize].wrapping_sub(lo) as u64;
            if v < size as u64 {
                let k = off as usize + v as usize;
                for &t in &d.items[d.starts[k] as usize..d.starts[k + 1] as usize] {
                    out.push(t);
                }
            }
        }
    }

    /// Fire transition instance `k` on `st`. For every successor, in the reference
    /// order, `f(choice_index, successor, writes)` is called, where `writes` lists the
    /// cells that differ from `st` (possibly with unchanged values). The successor is
    /// built in place in `st`, which is restored before returning.
    pub fn fire(&self, k: usize, st: &mut [i64], sc: &mut Scratch, f: &mut SuccessorFn) -> Outcome {
        let t = &self.trans[k];
        for &(s, v, eq) in &t.pre {
            if (st[s as usize] == v) != eq {
                return Outcome::Disabled;
            }
        }
        match t.guard.eval(st) {
            Err(Fault) => return Outcome::Fault,
            Ok(0) => return Outcome::Disabled,
            Ok(_) => {}
        }
        sc.writes.clear();
        sc.nondet.clear();
        for op in &t.ops {
            match op {
                Op::Write {
                    target,
                    value,
                    lo,
                    hi,
                    int,
                } => {
                    let slot = match target {
                        Target::Slot(s) => *s as usize,
                        Target::Dyn(d) => match d.slot(st) {
                            Ok(s) => s,
                            Err(_) => return Outcome::Fault,
                        },
                    };
                    let v = match value.eval(st) {
                        Ok(v) => v,
                        Err(_) => return Outcome::Fault,
                    };
                    if v < *lo || v > *hi {
                        return if *int {
                            Outcome::IntBound
                        } else {
                            Outcome::Fault
                        };
                    }
                    sc.writes.push((slot, v));
                }
                Op::Nondet { target, lo, hi } => {
                    let slot = match target {
                        Target::Slot(s) => *s as usize,
                        Target::Dyn(d) => match d.slot(st) {
                            Ok(s) => s,
                            Err(_) => return Outcome::Fault,
                        },
                    };
                    sc.nondet.push((slot, (*lo..=*hi).collect()))
                }
                Op::Any { slot, options } => {
                    let mut vals = Vec::new();
                    for (p, c) in options {
                        match c.eval(st) {
                            Err(_) => return Outcome::Fault,
                            Ok(0) => {}
                            Ok(_) => vals.push(*p),
                        }
                    }
                    if vals.is_empty() {
                        return Outcome::Disabled;
                    }
                    sc.nondet.push((*slot as usize, vals));
                }
            }
        }
        let det = sc.writes.len();
        for (slot, options) in &sc.nondet {
            sc.writes.push((*slot, options[0]));
        }
        if t.may_conflict {
            let w = &sc.writes;
            if (1..w.len()).any(|i| w[..i].iter().any(|x| x.0 == w[i].0)) {
                return Outcome::Fault;
            }
        }
        sc.saved.clear();
        sc.saved.extend(sc.writes.iter().map(|&(s, _)| st[s]));
        for &(s, v) in &sc.writes[..det] {
            st[s] = v;
        }
        sc.choice.clear();
        sc.choice.resize(sc.nondet.len(), 0);
        let mut count = 0;
        loop {
            for (k, (slot, options)) in sc.nondet.iter().enumerate() {
                let v = options[sc.choice[k]];
                st[*slot] = v;
                sc.writes[det + k].1 = v;
            }
            f(count, st, &sc.writes);
            count += 1;
            let mut k = sc.nondet.len();
            let more = loop {
                if k == 0 {
                    break false;
                }
                k -= 1;
                sc.choice[k] += 1;
                if sc.choice[k] < sc.nondet[k].1.len() {
                    break true;
                }
                sc.choice[k] = 0;
            };
            if !more {
                break;
            }
        }
        for (&(s, _), &old) in sc.writes.iter().zip(&sc.saved) {
            st[s] = old;
        }
        Outcome::Enabled(count)
    }
}

fn compile_trans(inst: &Instance, t: usize, params: Vec<i64>) -> CTrans {
    let tr = &inst.model.transitions[t];
    let mut env = vec![0; tr.locals.len().max(params.len())];
    env[..params.len()].copy_from_slice(&params);
    let guard = compile(inst, &mut env, &tr.guard);
    let mut ops = Vec::new();
    for u in &tr.updates {
        let l = &inst.vars[u.var];
        match &u.value {
            UpdValue::Term(e) => {
                let binders = u.binders(inst.model);
                let ranges: Vec<(i64, i64)> = binders.iter().map(|b| inst.domain(b.1)).collect();
                if ranges.iter().any(|(lo, hi)| hi < lo) {
                    continue;
                }
                let mut cur: Vec<i64> = ranges.iter().map(|r| r.0).collect();
                loop {
                    for (b, v) in binders.iter().zip(&cur) {
                        env[b.0] = *v;
                    }
                    let idx: Vec<C> = u
                        .index
                        .iter()
                        .map(|ix| match ix {
                            Index::Term(x) => compile(inst, &mut env, x),
                            Index::Bind(id) => C::Const(env[*id]),
                        })
                        .collect();
                    let target = match cell(inst, u.var, idx) {
                        Ok(Some(s)) => Target::Slot(s),
                        // An out-of-range constant index faults when evaluated.
                        Ok(None) => Target::Dyn(dyn_cell(inst, u.var, vec![C::Fail; l.dims.len()])),
                        Err(d) => Target::Dyn(d),
                    };
                    let value = compile(inst, &mut env, e);
                    ops.push(Op::Write {
                        target,
                        value,
                        lo: l.lo,
                        hi: l.hi,
                        int: inst.model.is_int_var(u.var),
                    });
                    if !super::instance::odometer(&mut cur, &ranges) {
                        break;
                    }
                }
            }
            UpdValue::Nondet => {
                let idx: Vec<C> = u
                    .index
                    .iter()
                    .map(|ix| match ix {
                        Index::Term(x) => compile(inst, &mut env, x),
                        Index::Bind(id) => C::Const(env[*id]),
                    })
                    .collect();
                let target = match cell(inst, u.var, idx) {
                    Ok(Some(s)) => Target::Slot(s),
                    Ok(None) => Target::Dyn(dyn_cell(inst, u.var, vec![C::Fail; l.dims.len()])),
                    Err(d) => Target::Dyn(d),
                };
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
                        (p, compile(inst, &mut env, cond))
                    })
                    .collect();
                ops.push(Op::Any {
                    slot: l.base as u32,
                    options,
                });
            }
        }
    }
    let (pre, guard) = split_prefix(guard);
    let mut static_slots = Vec::new();
    let mut may_conflict = false;
    for op in &ops {
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
    CTrans {
        trans: t,
        params,
        pre,
        guard,
        ops,
        may_conflict,
    }
}

/// Split the leading conjuncts of the form `cell = const` / `cell <> const` (which
/// cannot fail) off a guard; they can be tested first without changing which range
/// errors evaluation meets.
fn split_prefix(guard: C) -> (Vec<(u32, i64, bool)>, C) {
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
    let k = parts.iter().take_while(|c| atom(c).is_some()).count();
    let pre = parts[..k].iter().map(|c| atom(c).unwrap()).collect();
    let rest: Vec<C> = parts.drain(k..).collect();
    let rest = match rest.len() {
        0 => C::Const(1),
        1 => rest.into_iter().next().unwrap(),
        _ => C::And(rest.into_boxed_slice()),
    };
    (pre, rest)
}
