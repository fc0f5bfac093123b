//! Initial states: every valuation satisfying all `init` blocks. Enumerated by
//! backtracking over the slots in layout order with a three-valued evaluation of the
//! init formulas on partial states, so constrained cells are fixed early and
//! unconstrained ones take every value of their type.
//!
//! Two things keep unconstrained cells cheap. Each formula (an `init` block for one
//! tuple of processes) is re-evaluated only when a cell it may read gets its value
//! (the cells it may read are found statically: a read with constant indices reads one
//! cell, any other every cell of its variable). And when every formula still undecided
//! at a cell reads only that cell and later ones, the ways to complete the valuation
//! from there do not depend on the cells before it: they are enumerated once, kept
//! (up to `MEMO_VALUES` values), and replayed after every other prefix. So a row fixed
//! by `init` that comes after many unconstrained cells (a parity row after the
//! elements of an odd-even sort) is solved once, not once per valuation of the cells
//! before it. The order of the states is unchanged.

use super::eval::{EvalError, domain_values, index_error};
use super::instance::{Instance, State};
use super::ir::*;
use std::collections::HashMap;
use std::rc::Rc;

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
        Expr::And(xs) => junction(0, xs.iter().map(|x| peval(inst, st, known, env, x)))?,
        Expr::Or(xs) => junction(1, xs.iter().map(|x| peval(inst, st, known, env, x)))?,
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
        Expr::Quant(q) => return pquant(inst, st, known, env, q),
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
fn pquant(inst: &Instance, st: &[i64], known: &[bool], env: &mut [i64], q: &Quant) -> Partial {
    let vals = match &q.dom {
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
        Domain::Type(_) => domain_values(inst, st, env, &q.dom)?,
    };
    let stop = if q.forall { 0 } else { 1 };
    junction(
        stop,
        vals.into_iter().map(|v| {
            env[q.var] = v;
            peval(inst, st, known, env, &q.body)
        }),
    )
}

/// `&&` (stop = 0) or `||` (stop = 1) over partially known operands, evaluated in
/// turn: decided by the first known deciding value met before any unknown one (an
/// error met before any unknown value is the error).
fn junction(stop: i64, operands: impl Iterator<Item = Partial>) -> Partial {
    let mut unknown = false;
    for x in operands {
        match x {
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
    /// The slots it may read (bit s of word s / 64).
    reads: Vec<u64>,
    /// The first of them (the number of slots when none).
    first_read: usize,
}

impl<'a> Constraint<'a> {
    fn new(inst: &Instance, env: Vec<i64>, params: usize, body: &'a Expr) -> Self {
        let mut known: Vec<Option<i64>> = vec![None; env.len()];
        for (k, v) in env.iter().enumerate().take(params) {
            known[k] = Some(*v);
        }
        let mut reads = vec![0u64; inst.slots.len().div_ceil(64)];
        mark_reads(inst, body, &mut known, &mut reads);
        let first_read = (0..inst.slots.len())
            .find(|&s| reads[s / 64] >> (s % 64) & 1 == 1)
            .unwrap_or(inst.slots.len());
        Constraint {
            env,
            body,
            reads,
            first_read,
        }
    }

    fn may_read(&self, slot: usize) -> bool {
        self.reads[slot / 64] >> (slot % 64) & 1 == 1
    }
}

/// The value of an expression known without a state: constants, `N`, and locals bound
/// to a known value (`known[id]`), through arithmetic.
fn static_value(inst: &Instance, e: &Expr, known: &[Option<i64>]) -> Option<i64> {
    match e {
        Expr::Const(v, _) => Some(*v),
        Expr::Size => Some(inst.n as i64),
        Expr::Local(id) => known.get(*id).copied().flatten(),
        Expr::Arith(op, a, b) => {
            let (a, b) = (static_value(inst, a, known)?, static_value(inst, b, known)?);
            match op {
                ArithOp::Add => a.checked_add(b),
                ArithOp::Sub => a.checked_sub(b),
                ArithOp::Mul => a.checked_mul(b),
            }
        }
        _ => None,
    }
}

/// Mark in `out` every slot that evaluating `e` may read, with the locals known so far
/// (`known`; quantified variables are unknown inside their quantifier).
fn mark_reads(inst: &Instance, e: &Expr, known: &mut Vec<Option<i64>>, out: &mut [u64]) {
    match e {
        Expr::Read(var, idx) => {
            for x in idx {
                mark_reads(inst, x, known, out);
            }
            let ix: Option<Vec<i64>> = idx.iter().map(|x| static_value(inst, x, known)).collect();
            let mut mark = |s: usize| out[s / 64] |= 1 << (s % 64);
            match ix {
                // Out of range: an error, not a read.
                Some(ix) => {
                    if let Some(s) = inst.slot_of(*var, &ix) {
                        mark(s);
                    }
                }
                None => {
                    let l = &inst.vars[*var];
                    (l.base..l.base + l.cells).for_each(mark);
                }
            }
        }
        Expr::Quant(q) => {
            for x in q.except() {
                mark_reads(inst, x, known, out);
            }
            if known.len() <= q.var {
                known.resize(q.var + 1, None);
            }
            let saved = known[q.var].take();
            mark_reads(inst, &q.body, known, out);
            known[q.var] = saved;
        }
        _ => e.for_each_child(|x| mark_reads(inst, x, known, out)),
    }
}

/// Kept completions of one cached suffix, as `slots - start` values each, at most this
/// many values in all (beyond that the suffix is searched every time).
const MEMO_VALUES: usize = 1 << 16;

/// The completions of the slots from `start` on, recorded while the search first
/// enumerates them.
struct Recording {
    start: usize,
    suffixes: Vec<i64>,
}

/// A cached suffix: the completions, or `None` when there were too many to keep.
type Memo = Option<Rc<[i64]>>;

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
    // One constraint per conjunct: a cell's value is then judged by the conjuncts that
    // read it, not by the whole formula (Flash's `init` has some forty, over every cell).
    let mut cons = Vec::new();
    for init in &inst.model.inits {
        for tuple in inst.all_tuples(init.params) {
            let mut env = vec![0; init.locals.len().max(tuple.len())];
            env[..tuple.len()].copy_from_slice(&tuple);
            for conjunct in conjuncts(&init.body) {
                cons.push(Constraint::new(inst, env.clone(), tuple.len(), conjunct));
            }
        }
    }
    let mut st: State = inst.slots.iter().map(|s| s.lo).collect();
    let mut known = vec![false; st.len()];
    let mut pending = Vec::new();
    let mut doubtful = 0;
    for (k, c) in cons.iter_mut().enumerate() {
        match peval(inst, &st, &known, &mut c.env, c.body) {
            Ok(Some(0)) => return Ok(()),
            Ok(Some(_)) => {}
            Ok(None) => pending.push(k),
            Err(_) => doubtful += 1,
        }
    }
    if !free_prefix_completes(inst, &mut cons, &mut st, &mut known, &pending) {
        return Ok(());
    }
    let mut search = Search {
        inst,
        cons: &mut cons,
        st: &mut st,
        known: &mut known,
        memo: shuffle.is_none(),
        shuffle,
        f,
        cache: HashMap::new(),
        recording: None,
        doubtful,
    };
    search.rec(0, &pending).map(|_| ())
}

/// The conjuncts of `e`, nested conjunctions flattened, in the order written.
fn conjuncts(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::And(xs) => xs.iter().flat_map(conjuncts).collect(),
        _ => vec![e],
    }
}

/// False when no initial state exists because the search from the first cell an
/// undecided formula may read has no completion. The cells before it are free: every
/// valuation of them leads to the same search from there (the same undecided
/// formulas, which read none of them), so one search with the free cells at their
/// lowest values decides it, instead of one per valuation of the free cells (2^20
/// of them for a generated model of issue 28 whose `init` is unsatisfiable from size
/// 2 on, `V3 = z` for every z, with the unconstrained arrays laid out first). A range
/// error met here is left to the search proper, which meets it first too.
fn free_prefix_completes(
    inst: &Instance,
    cons: &mut [Constraint],
    st: &mut State,
    known: &mut Vec<bool>,
    pending: &[usize],
) -> bool {
    let Some(first) = pending.iter().map(|&k| cons[k].first_read).min() else {
        return true;
    };
    if first == 0 || first >= st.len() {
        return true;
    }
    let mut found = false;
    let r = Search {
        inst,
        cons,
        st,
        known,
        memo: true,
        shuffle: None,
        f: &mut |_| {
            found = true;
            false
        },
        cache: HashMap::new(),
        recording: None,
        doubtful: 0,
    }
    .rec(first, pending);
    // An error returns without clearing the cells it had assigned.
    for (v, s) in st.iter_mut().zip(&inst.slots) {
        *v = s.lo;
    }
    known.fill(false);
    found || r.is_err()
}

/// The backtracking search over the slots, with what it carries from cell to cell.
struct Search<'s, 'm, 'c, 'g, 'f> {
    inst: &'s Instance<'m>,
    cons: &'s mut [Constraint<'c>],
    st: &'s mut State,
    known: &'s mut Vec<bool>,
    shuffle: Option<Shuffle<'g>>,
    f: &'f mut dyn FnMut(&[i64]) -> bool,
    /// Whether suffixes are cached (not with a shuffle, whose order varies per visit).
    memo: bool,
    /// Completions of the slots from a point on, per (slot, undecided formulas).
    cache: HashMap<(usize, Vec<usize>), Memo>,
    recording: Option<Recording>,
    /// Formulas dropped on the way here because their partial evaluation failed: a
    /// failure counts only where the interpreter's own order reaches it (an earlier
    /// formula may be false first), so every valuation below is judged by it.
    doubtful: usize,
}

impl Search<'_, '_, '_, '_, '_> {
    /// A complete valuation: recorded (when a suffix is being recorded) and passed to
    /// `f`; false when `f` asked to stop.
    fn emit(&mut self) -> bool {
        if let Some(r) = &mut self.recording {
            r.suffixes.extend_from_slice(&self.st[r.start..]);
            if r.suffixes.len() > MEMO_VALUES {
                self.recording = None;
            }
        }
        (self.f)(self.st)
    }

    /// Returns Ok(false) when `f` asked to stop.
    fn rec(&mut self, slot: usize, pending: &[usize]) -> Result<bool, InitError> {
        if slot == self.st.len() {
            if self.doubtful > 0 {
                return match super::eval::satisfies_init(self.inst, self.st) {
                    Err(error) => Err(InitError {
                        state: self.st.clone(),
                        error,
                    }),
                    Ok(true) => Ok(self.emit()),
                    Ok(false) => Ok(true),
                };
            }
            return Ok(self.emit());
        }
        if !self.memo
            || self.doubtful > 0
            || pending.iter().any(|&k| self.cons[k].first_read < slot)
        {
            return self.assign(slot, pending);
        }
        // The completions from here on do not depend on the slots before.
        let key = (slot, pending.to_vec());
        match self.cache.get(&key) {
            Some(Some(suffixes)) => {
                let suffixes = Rc::clone(suffixes);
                for s in suffixes.chunks(self.st.len() - slot) {
                    self.st[slot..].copy_from_slice(s);
                    if !self.emit() {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Some(None) => self.assign(slot, pending),
            None if self.recording.is_none() => {
                self.recording = Some(Recording {
                    start: slot,
                    suffixes: Vec::new(),
                });
                let r = self.assign(slot, pending);
                let recorded = self.recording.take();
                if let Ok(true) = r {
                    let memo = recorded.map(|r| Rc::from(r.suffixes));
                    self.cache.insert(key, memo);
                }
                r
            }
            None => self.assign(slot, pending),
        }
    }

    /// Try every value of `slot`, re-evaluating the undecided formulas that may read it.
    fn assign(&mut self, slot: usize, pending: &[usize]) -> Result<bool, InitError> {
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
            let mut dropped = 0;
            for &k in pending {
                let c = &mut self.cons[k];
                if !c.may_read(slot) {
                    next.push(k);
                    continue;
                }
                match peval(self.inst, self.st, self.known, &mut c.env, c.body) {
                    Ok(Some(0)) => continue 'values,
                    Ok(Some(_)) => {}
                    Ok(None) => next.push(k),
                    // Judged at each valuation below, in the interpreter's order.
                    Err(_) => dropped += 1,
                }
            }
            let pend = next.clone();
            self.doubtful += dropped;
            let r = self.rec(slot + 1, &pend);
            self.doubtful -= dropped;
            if !r? {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::load_str;
    use crate::model::eval::satisfies_init;
    use crate::model::instance::odometer;

    /// Every valuation of the cells, in lexicographic order, kept when `init` holds
    /// (the reference interpreter); `Err` at the first where it meets a range error.
    fn brute_force(inst: &Instance) -> Result<Vec<State>, State> {
        let ranges: Vec<(i64, i64)> = inst.slots.iter().map(|s| (s.lo, s.hi)).collect();
        let mut cur: Vec<i64> = ranges.iter().map(|r| r.0).collect();
        let mut out = Vec::new();
        loop {
            match satisfies_init(inst, &cur) {
                Ok(true) => out.push(cur.clone()),
                Ok(false) => {}
                Err(_) => return Err(cur),
            }
            if !odometer(&mut cur, &ranges) {
                return Ok(out);
            }
        }
    }

    /// The enumeration (with its per-cell re-evaluation and cached suffixes) gives the
    /// states of a brute-force enumeration, in the same order, and stops when asked:
    /// a parity row fixed after unconstrained elements (the odd-even sort's), a row
    /// fixed and never read, reads through a cell (`A[B[i]]`), quantifiers, process
    /// pairs, a constraint on an early cell only, and unconstrained cells after
    /// constrained ones.
    #[test]
    fn enumeration_matches_brute_force() {
        let models = [
            "type pos = 1 .. 2\narray E[proc, pos] : 0 .. 1\narray Odd[proc] : bool\n\
             var Phase : bool\n\
             init (j) { (j = 1 => Odd[j]) && (j < N => (Odd[j + 1] <-> not Odd[j])) && \
             Phase = False }\nunsafe u () { Phase = True }",
            "array E[proc] : 0 .. 2\narray Pad[proc] : bool\n\
             init (j) { Pad[j] = True }\nunsafe u () { E[1] = 3 }",
            "array A[proc] : 0 .. 2\narray B[proc] : proc\nvar X : 0 .. 3\n\
             init (i) { A[B[i]] <> 1 && X <> A[i] }\nunsafe u () { X = 9 }",
            "array A[proc] : 0 .. 2\nvar X : 0 .. 2\n\
             init () { forall i. A[i] <= X }\nunsafe u () { X = 9 }",
            "array A[proc] : 0 .. 1\narray C[proc] : 0 .. 2\n\
             init (i j) { A[i] = A[j] || C[i] = 2 }\nunsafe u () { A[1] = 9 }",
            "var X : 0 .. 2\narray A[proc] : 0 .. 1\ninit () { X = 1 }\nunsafe u () { X = 9 }",
            "array A[proc] : 0 .. 1\nvar X : 0 .. 2\ninit (i) { X = A[i] + 1 }\n\
             unsafe u () { X = 9 }",
            // Free cells first, then formulas unsatisfiable from size 2 on.
            "array F[proc, proc] : bool\narray B[proc] : 0 .. 1\nvar X : proc\n\
             init (z) { B[z] = 0 && X = z }\nunsafe u () { X = 9 }",
            // Free cells first, then a satisfiable suffix.
            "array F[proc] : 0 .. 2\narray B[proc] : 0 .. 1\nvar X : proc\n\
             init (z) { B[z] = 0 && X <> z }\nunsafe u () { X = 9 }",
        ];
        for text in models {
            let m = load_str("t.cub", text).unwrap_or_else(|e| panic!("{}", e.render()));
            for n in 1..=3 {
                let inst = Instance::new(&m, n);
                let want = brute_force(&inst).expect("no range error");
                let got = initial_states(&inst).expect("no range error");
                assert_eq!(got, want, "{text}\nn={n}");
                // Stopping after k states gives the first k.
                for k in [1, 2, (want.len() / 2).max(1)] {
                    let mut first = Vec::new();
                    let _ = for_each_initial(&inst, &mut |s| {
                        first.push(s.to_vec());
                        first.len() < k
                    });
                    assert_eq!(first, want[..k.min(want.len())], "{text}\nn={n} k={k}");
                }
            }
        }
    }

    /// A range error in `init` is still reported.
    #[test]
    fn range_errors_in_init_are_reported() {
        let m = load_str(
            "t.cub",
            "array A[proc] : 0 .. 3\narray B[proc] : 0 .. 1\n\
             init (i) { B[i] = 0 && A[A[i]] = 0 }\nunsafe u () { B[1] = 1 }",
        )
        .unwrap();
        let inst = Instance::new(&m, 2);
        assert!(brute_force(&inst).is_err());
        assert!(initial_states(&inst).is_err());
    }
}
