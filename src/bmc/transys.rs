//! The transition system of a family over the sizes `min..=max`: the aggregate of
//! dissertation ch. 11 (`aggregate`), a single size n being the aggregate n..n, so
//! every SAT engine has one code path. It is one *template* circuit over
//! - the current state x: every cell of the instance (`cur`) and the presence bits,
//! - the step inputs: one selector per transition instance plus idle, and the
//!   nondeterministic choices of `X := .` and `X := any j. f`,
//!
//! defining the next state x' (`next`) as gates, `init(x)` and its range error as
//! literals, and on demand `bad_p(x)` per `unsafe` property and the range-error
//! literal. A selected instance changes the state only when it can *fire* (its
//! processes present, guard true without range error, an `any` candidate chosen,
//! choices of their type), so x' is a total function of (x, i): an idle or unfireable
//! selection keeps the state. Constraint clauses sit in groups, loaded by each engine
//! as it needs: `STATE` (cell domains, properness of the presence bits), `STEP`
//! (exactly one selector, choice domains: inputs only) and `FIRE` (a selected instance
//! fires; redundant for the reachable states, kept for propagation, and left out of
//! the solver that lifts predecessors, which needs the function alone).
//!
//! BMC instantiates the template once per frame (`unroll`); IC3 and k-induction load
//! it into their solvers.

use super::aggregate::Agg;
use super::frame::{Cell, Encoding, Frame};
use super::symbolic::Sym;
use super::term::Term;
use crate::model::eval::transition_instances;
use crate::model::instance::Instance;
use crate::model::ir::*;
use crate::sat::Lit;
use crate::sat::circuit::{Circuit, FALSE, TRUE};
use std::collections::HashMap;
use std::convert::Infallible;

/// Constraint group: cell domains and properness of the presence bits (state only).
pub const STATE: usize = 0;
/// Constraint group: one selector per step, choice domains (inputs only).
pub const STEP: usize = 1;
/// Constraint group: a selected transition instance fires.
pub const FIRE: usize = 2;

/// A step input for a nondeterministic update: the variable and the update's rank
/// among the transition's nondeterministic updates of it (two `A[i] := .; A[j] := .`
/// choose independently; only one instance fires per step, so instances share them).
type ChoiceKey = (VarId, usize);

/// What a write stores.
#[derive(Clone, Debug)]
enum Value {
    Term(Term),
    /// The step's nondeterministic input for this update.
    Choice(ChoiceKey),
}

/// A transition instance evaluated on the current state.
#[derive(Clone, Debug)]
pub struct InstanceEval {
    /// In the aggregate: the instance's processes are present.
    pub present: Lit,
    /// Given `present`: guard true, no range error, and every `any` has a candidate.
    pub enabled: Lit,
    /// Evaluating the instance meets a range error (its processes present).
    pub err: Lit,
    /// Evaluating the instance first meets a store leaving the int window (its
    /// processes present): `int_bound`, not a range error.
    pub int_err: Lit,
    /// Writes in update order: possible target cells with conditions, and the value.
    writes: Vec<(Vec<(usize, Lit)>, Value)>,
    /// For each `X := any j. f`: its choice and, per candidate j, whether f holds.
    anys: Vec<(ChoiceKey, Vec<(i64, Lit)>)>,
}

/// Partial-order reduction of the unrolling: which reorderings of a run's steps are
/// left out (`Transys::commuting_pairs`). Every run keeps a reordering of the same
/// length and final state, so queries about the final frame of runs from an initial
/// state (bounded model checking) keep their answers and their shortest depths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Por {
    /// Every interleaving, idle steps anywhere.
    Off,
    /// Idle steps only at the end of a run (a run shorter than the depth has one
    /// placement instead of one per choice of idle positions).
    #[default]
    Idle,
    /// Also commuting instances in one fixed order between adjacent steps (falls back
    /// to `Idle` beyond `MAX_PAIRS` pairs per step).
    Full,
}

/// At most this many commuting pairs are ordered per step (two binary clauses' worth
/// of memory each, per step); beyond it only idle steps are ordered.
const MAX_PAIRS: usize = 100_000;

/// The cells (slots) an instance reads and may write, sorted.
#[derive(Clone, Debug, Default)]
struct Footprint {
    reads: Vec<usize>,
    writes: Vec<usize>,
}

/// One state variable of the system at the value level: a cell (by slot) or the
/// presence bit of a process slot (`absent`, true for `$`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StateVar {
    Cell(usize),
    Absent(usize),
}

/// The transition system, see the module comment.
pub struct Transys<'m> {
    pub inst: Instance<'m>,
    pub agg: Agg,
    pub enc: Encoding,
    /// The template circuit (gates recorded, constraints in groups).
    pub c: Circuit,
    /// x: every cell of the instance.
    pub cur: Frame,
    /// x': the next value of every cell.
    pub next: Vec<Cell>,
    /// `(transition, parameters)` of every instance.
    pub instances: Vec<(usize, Vec<i64>)>,
    /// One selector per instance, then the idle selector.
    pub sel: Vec<Lit>,
    /// Per instance: selected and able to fire (the step is that instance).
    pub fire: Vec<Lit>,
    /// Every instance evaluated on x.
    pub evals: Vec<InstanceEval>,
    /// x satisfies `init` without range error (and, in the aggregate, the cells that do
    /// not exist at the width hold their lowest value).
    pub init: Lit,
    /// Evaluating `init` on x meets a range error.
    pub init_err: Lit,
    /// The step inputs: every variable that is neither a state variable nor a gate.
    pub inputs: Vec<Lit>,
    /// Per instance: the cells (slots) its firing reads and those it may write.
    footprints: Vec<Footprint>,
    bad: HashMap<usize, (Lit, Lit)>,
    eq_cur: HashMap<(StateVar, i64), Lit>,
    eq_next: HashMap<(StateVar, i64), Lit>,
}

impl<'m> Transys<'m> {
    /// The system of sizes `min..=max` (a single size: `min == max`).
    pub fn new(model: &'m Model, min: usize, max: usize, enc: Encoding) -> Transys<'m> {
        let mut c = Circuit::template(3);
        c.route = Some(STATE);
        let agg = Agg::new(&mut c, model, min, max);
        let inst = Instance::aggregate(model, min, max);
        let cur = Frame::fresh(&mut c, &inst, enc);
        c.route = None;
        let instances = transition_instances(&inst);
        let mut ts = Transys {
            inst,
            agg,
            enc,
            c,
            cur,
            next: Vec::new(),
            instances,
            sel: Vec::new(),
            fire: Vec::new(),
            evals: Vec::new(),
            init: TRUE,
            init_err: FALSE,
            inputs: Vec::new(),
            bad: HashMap::new(),
            footprints: Vec::new(),
            eq_cur: HashMap::new(),
            eq_next: HashMap::new(),
        };
        ts.build_init();
        ts.build_step();
        ts.c.route = None;
        let latch: std::collections::HashSet<Lit> =
            ts.latches().into_iter().map(|(x, _)| x).collect();
        ts.inputs = (2..=ts.c.cnf.num_vars)
            .filter(|&v| ts.c.gate(v).is_none() && !latch.contains(&v))
            .collect();
        ts
    }

    /// Whether this is one size (not a range of them).
    pub fn single(&self) -> bool {
        self.agg.min == self.agg.max
    }

    fn sym(&mut self) -> Sym<'_, 'm> {
        Sym {
            inst: &self.inst,
            c: &mut self.c,
            frame: &mut self.cur,
            agg: Some(&self.agg),
            floor: 0,
        }
    }

    /// `init`: every block, for every parameter tuple (repetitions allowed) of present
    /// processes, in order: a conjunction. In the aggregate, the cells that do not exist
    /// at the width, never observed, start at their lowest value so that the solver does
    /// not range over them. The cells that exist hold values of their type at the width
    /// (process ids at most the width, ranges at the width) in every state: a state
    /// constraint, since every step keeps it (storing a value outside its type is a
    /// range error), so that no engine ever meets a state whose width its values deny.
    fn build_init(&mut self) {
        let model = self.inst.model;
        let mut sym = self.sym();
        let mut items = Vec::new();
        'all: for init in &model.inits {
            for tuple in sym.inst.all_tuples(init.params) {
                let (pres, mut env) = sym.bind(init.locals.len(), &tuple);
                if pres == FALSE {
                    continue;
                }
                let (v, e) = sym.formula(&mut env, &init.body);
                items.push((-pres, v, e));
                if pres == TRUE && e == FALSE && v == FALSE {
                    break 'all;
                }
            }
        }
        let (init_val, init_err) = sym.combine(&items, true);
        let mut parts = vec![init_val, -init_err];
        let a = sym.agg.unwrap();
        for (s, slot) in sym.inst.slots.iter().enumerate() {
            let var = &model.vars[slot.var];
            let t = sym.frame.term(sym.c, sym.inst, s);
            let exists: Vec<Lit> = slot
                .index
                .iter()
                .zip(&var.dims)
                .map(|(&i, &d)| a.index_exists(sym.c, d, i, 0))
                .collect();
            let exists = sym.c.and(&exists);
            if exists != TRUE {
                let lowest = t.cond(sym.c, slot.lo);
                parts.push(sym.c.or2(exists, lowest));
            }
            // Given that the cell exists, its process indices are present.
            let floor = slot
                .index
                .iter()
                .zip(&var.dims)
                .filter(|(_, d)| **d == Ty::Proc)
                .map(|(&i, _)| i as usize)
                .max()
                .unwrap_or(0);
            let Some(out) = a.outside_at_width(sym.c, var.ty, &t, floor) else {
                continue;
            };
            sym.c.route = Some(STATE);
            sym.c.clause(&[-exists, -out]);
            sym.c.route = None;
        }
        self.init = self.c.and(&parts);
        self.init_err = init_err;
    }

    /// The step: selectors, choices, which instance fires, and the next state.
    fn build_step(&mut self) {
        let n = self.instances.len();
        let mut evals = Vec::with_capacity(n);
        for (t, params) in self.instances.clone() {
            let model = self.inst.model;
            evals.push(self.eval_instance(&model.transitions[t], &params));
        }
        self.c.route = Some(STEP);
        let sel: Vec<Lit> = (0..=n).map(|_| self.c.var()).collect();
        self.c.clause(&sel);
        self.c.at_most_one(&sel);
        // Nondeterministic inputs: one per choice key that some instance uses.
        let mut choices: HashMap<ChoiceKey, Term> = HashMap::new();
        for ev in &evals {
            for (_, v) in &ev.writes {
                if let Value::Choice(key) = v
                    && !choices.contains_key(key)
                {
                    let var = &key.0;
                    let l = &self.inst.vars[*var];
                    let size = (l.hi - l.lo + 1) as usize;
                    let cell = Cell::fresh(&mut self.c, self.enc, size);
                    let t = cell.decode(&mut self.c, l.lo, size);
                    choices.insert(*key, t);
                }
            }
        }
        self.c.route = Some(FIRE);
        let mut fire = Vec::with_capacity(n);
        for (t, ev) in evals.iter().enumerate() {
            let mut ok = vec![ev.present, ev.enabled];
            // In the aggregate a chosen value must be of its type at the width.
            let floor = self.instances[t].1.iter().copied().max().unwrap_or(0) as usize;
            for (_, v) in &ev.writes {
                if let Value::Choice(key) = v {
                    let ty = self.inst.model.vars[key.0].ty;
                    if let Some(out) =
                        self.agg
                            .outside_at_width(&mut self.c, ty, &choices[key], floor)
                    {
                        ok.push(-out);
                    }
                }
            }
            for (key, options) in &ev.anys {
                let choice = &choices[key];
                let good: Vec<Lit> = options
                    .iter()
                    .map(|&(j, f)| {
                        let is_j = choice.cond(&mut self.c, j);
                        self.c.and2(is_j, f)
                    })
                    .collect();
                ok.push(self.c.or(&good));
            }
            let fireable = self.c.and(&ok);
            self.c.imply(sel[t], fireable);
            fire.push(self.c.and2(sel[t], fireable));
        }
        self.c.route = None;
        // Writers per cell, and what each instance reads and writes.
        let nslots = self.inst.slots.len();
        let mut writers: Vec<Vec<(Lit, Term)>> = vec![Vec::new(); nslots];
        let mut roots: Vec<Vec<Lit>> = vec![Vec::new(); n];
        let mut written: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (t, ev) in evals.iter().enumerate() {
            roots[t].push(fire[t]);
            for (targets, v) in &ev.writes {
                let value = match v {
                    Value::Term(x) => x.clone(),
                    Value::Choice(key) => choices[key].clone(),
                };
                for &(s, cond) in targets {
                    if cond == TRUE && value == self.cur.term(&mut self.c, &self.inst, s) {
                        continue; // writes the cell's own value
                    }
                    let w = self.c.and2(fire[t], cond);
                    if w != FALSE {
                        roots[t].push(w);
                        value.lits(&mut roots[t]);
                        written[t].push(s);
                        writers[s].push((w, value.clone()));
                    }
                }
            }
        }
        self.footprints = self.footprints_of(&roots, written);
        let mut next = Vec::with_capacity(nslots);
        for (s, ws) in writers.into_iter().enumerate() {
            let cur = self.cur.cells[s].clone();
            if ws.is_empty() {
                next.push(cur);
                continue;
            }
            let slot = &self.inst.slots[s];
            let (lo, size) = (slot.lo, (slot.hi - slot.lo + 1) as usize);
            let conds: Vec<Lit> = ws.iter().map(|w| w.0).collect();
            let keep = -self.c.or(&conds);
            // Each literal of the new cell: the written value's under its condition,
            // else the old one's.
            let cell = match cur {
                Cell::Binary(cur_bits) => {
                    let vals: Vec<Vec<Lit>> = ws
                        .iter()
                        .map(|(_, t)| t.to_bits(&mut self.c, lo, cur_bits.len()))
                        .collect();
                    Cell::Binary(
                        (0..cur_bits.len())
                            .map(|b| {
                                let mut parts = vec![self.c.and2(keep, cur_bits[b])];
                                for ((w, _), v) in ws.iter().zip(&vals) {
                                    parts.push(self.c.and2(*w, v[b]));
                                }
                                self.c.or(&parts)
                            })
                            .collect(),
                    )
                }
                Cell::OneHot(cur_hots) => Cell::OneHot(
                    (0..size)
                        .map(|k| {
                            let mut parts = vec![self.c.and2(keep, cur_hots[k])];
                            for (w, t) in &ws {
                                let is_v = t.cond(&mut self.c, lo + k as i64);
                                parts.push(self.c.and2(*w, is_v));
                            }
                            self.c.or(&parts)
                        })
                        .collect(),
                ),
            };
            next.push(cell);
        }
        self.evals = evals;
        self.sel = sel;
        self.fire = fire;
        self.next = next;
    }

    /// The footprint of each instance: the cells in the cone of `roots[t]` (its firing
    /// condition, write conditions and written values) and the cells it writes.
    fn footprints_of(&self, roots: &[Vec<Lit>], written: Vec<Vec<usize>>) -> Vec<Footprint> {
        let mut slot_of: HashMap<usize, usize> = HashMap::new();
        for (s, cell) in self.cur.cells.iter().enumerate() {
            for &l in cell.lits() {
                slot_of.insert(l.unsigned_abs() as usize, s);
            }
        }
        let mut seen = vec![usize::MAX; self.c.cnf.num_vars as usize + 1];
        roots
            .iter()
            .zip(written)
            .enumerate()
            .map(|(t, (rs, mut writes))| {
                let mut reads = Vec::new();
                let mut stack: Vec<usize> = rs.iter().map(|l| l.unsigned_abs() as usize).collect();
                while let Some(v) = stack.pop() {
                    if seen[v] == t {
                        continue;
                    }
                    seen[v] = t;
                    match self.c.gate(v as Lit) {
                        Some(ins) => stack.extend(ins.iter().map(|l| l.unsigned_abs() as usize)),
                        None => reads.extend(slot_of.get(&v).copied()),
                    }
                }
                reads.sort_unstable();
                reads.dedup();
                writes.sort_unstable();
                writes.dedup();
                Footprint { reads, writes }
            })
            .collect()
    }

    /// Pairs `(a, b)` of step selectors (indices into `sel`, the idle selector last)
    /// whose order between adjacent steps `por` fixes: with `Por::Full` every `a > b`
    /// whose instances commute: neither writes a cell the other reads or
    /// writes, so from any state "a then b" and "b then a" are both possible or both not,
    /// and end in the same state. The idle step commutes with every instance. Forbidding
    /// "a then b" for every such pair keeps, of each run, its lexicographically least
    /// reordering (same length, same final state): the partial-order reduction of
    /// bounded model checking (the runs' Foata/lexicographic normal form).
    pub fn commuting_pairs(&self, por: Por) -> Vec<(usize, usize)> {
        let disjoint = |x: &[usize], y: &[usize]| {
            let (mut i, mut j) = (0, 0);
            while i < x.len() && j < y.len() {
                match x[i].cmp(&y[j]) {
                    std::cmp::Ordering::Less => i += 1,
                    std::cmp::Ordering::Greater => j += 1,
                    std::cmp::Ordering::Equal => return false,
                }
            }
            true
        };
        let f = &self.footprints;
        let n = f.len();
        let mut pairs = Vec::new();
        if por == Por::Off {
            return pairs;
        }
        if por == Por::Full {
            'all: for a in 0..n {
                for b in 0..a {
                    if self.fire[a] != FALSE
                        && self.fire[b] != FALSE
                        && disjoint(&f[a].writes, &f[b].writes)
                        && disjoint(&f[a].writes, &f[b].reads)
                        && disjoint(&f[b].writes, &f[a].reads)
                    {
                        pairs.push((a, b));
                        if pairs.len() > MAX_PAIRS {
                            pairs.clear();
                            break 'all;
                        }
                    }
                }
            }
        }
        pairs.extend((0..n).map(|b| (n, b)));
        pairs
    }

    fn eval_instance(&mut self, tr: &Transition, params: &[i64]) -> InstanceEval {
        let n = self.inst.n as i64;
        let mut sym = self.sym();
        // In the aggregate, the instance exists when its parameters are present.
        let (pres, mut env) = sym.bind(tr.locals.len(), params);
        if pres == FALSE {
            return InstanceEval {
                present: FALSE,
                enabled: FALSE,
                err: FALSE,
                int_err: FALSE,
                writes: Vec::new(),
                anys: Vec::new(),
            };
        }
        // Evaluated as if present; `pres` conditions the result at the end.
        let (g, ge) = sym.formula(&mut env, &tr.guard);
        let mut reached = sym.c.and2(g, -ge);
        let mut errs = vec![ge];
        let mut int_errs = Vec::new();
        let mut writes = Vec::new();
        let mut anys = Vec::new();
        let mut ranks: HashMap<VarId, usize> = HashMap::new();
        for u in &tr.updates {
            if reached == FALSE {
                break;
            }
            let mut key = || {
                let r = ranks.entry(u.var).or_insert(0);
                *r += 1;
                (u.var, *r - 1)
            };
            let layout = &sym.inst.vars[u.var];
            let (lo, hi) = (layout.lo, layout.hi);
            match &u.value {
                UpdValue::Term(e) => {
                    let inst = sym.inst;
                    let Ok(()) = inst.for_each_binding(u, &mut env, |env, binders, cur| {
                        // A bound index ranges over the cells existing at the width.
                        let bind_ok = {
                            let a = sym.agg.unwrap();
                            let ok: Vec<Lit> = binders
                                .iter()
                                .zip(cur)
                                .map(|(b, &v)| a.index_exists(sym.c, b.1, v, sym.floor))
                                .collect();
                            sym.c.and(&ok)
                        };
                        if bind_ok == FALSE {
                            return Ok::<(), Infallible>(());
                        }
                        let idx: Vec<Expr> = u
                            .index
                            .iter()
                            .map(|ix| match ix {
                                Index::Term(x) => x.clone(),
                                Index::Bind(id) => Expr::Const(env[*id], Ty::Int),
                            })
                            .collect();
                        let (targets, ie) = sym.cells(env, u.var, &idx);
                        let (val, ve) = sym.term(env, e);
                        let ty = sym.inst.model.vars[u.var].ty;
                        let oob = sym.outside_type(ty, &val, lo, hi);
                        // The index is evaluated first, then the value, then the store;
                        // a store leaving the int window is `int_bound`.
                        let e_here = sym.c.or(&[ie, ve, oob]);
                        let e_here = sym.c.and2(bind_ok, e_here);
                        reached_err(
                            sym.c,
                            &mut errs,
                            &mut int_errs,
                            reached,
                            bind_ok,
                            [ie, ve, oob],
                            sym.inst.model.is_int_ty(ty),
                        );
                        reached = sym.c.and2(reached, -e_here);
                        // Writing a cell that does not exist at the width is harmless:
                        // it is never read without a range error.
                        writes.push((targets, Value::Term(val)));
                        Ok(())
                    });
                }
                UpdValue::Nondet => {
                    // `X := .` or `A[i] := .`: the cell's index is evaluated first.
                    let idx: Vec<Expr> = u
                        .index
                        .iter()
                        .filter_map(|ix| match ix {
                            Index::Term(x) => Some(x.clone()),
                            Index::Bind(_) => None,
                        })
                        .collect();
                    let (targets, ie) = sym.cells(&mut env, u.var, &idx);
                    errs.push(sym.c.and2(reached, ie));
                    reached = sym.c.and2(reached, -ie);
                    writes.push((targets, Value::Choice(key())));
                }
                UpdValue::Any { var, cond } => {
                    // The interpreter evaluates the condition for every process in order.
                    let mut options = Vec::new();
                    let mut pending = TRUE;
                    let mut any_errs = Vec::new();
                    for j in 1..=n {
                        let present = sym.agg.unwrap().present_above(j, sym.floor);
                        env[*var] = j;
                        let saved = sym.floor;
                        sym.floor = sym.floor.max(j as usize);
                        let (v, e) = sym.formula(&mut env, cond);
                        sym.floor = saved;
                        any_errs.push(sym.c.and(&[pending, present, e]));
                        let go_on = sym.c.or2(-present, -e);
                        pending = sym.c.and2(pending, go_on);
                        options.push((j, sym.c.and2(present, v)));
                    }
                    let any_err = sym.c.or(&any_errs);
                    let opts: Vec<Lit> = options.iter().map(|o| o.1).collect();
                    let exists = sym.c.or(&opts);
                    errs.push(sym.c.and2(reached, any_err));
                    reached = sym.c.and(&[reached, -any_err, exists]);
                    let k = key();
                    writes.push((vec![(layout.base, TRUE)], Value::Choice(k)));
                    anys.push((k, options));
                }
            }
        }
        let err = sym.c.or(&errs);
        let int_err = sym.c.or(&int_errs);
        // `errs[0]` is the guard's error; later ones are already conditioned on reaching.
        InstanceEval {
            present: pres,
            enabled: reached,
            err: sym.c.and2(pres, err),
            int_err: sym.c.and2(pres, int_err),
            writes,
            anys,
        }
    }

    /// `unsafe` property `u` on x: (bad, range error while evaluating it). The
    /// interpreter tries the tuples of distinct present processes in order.
    pub fn bad(&mut self, u: usize) -> (Lit, Lit) {
        if let Some(&r) = self.bad.get(&u) {
            return r;
        }
        let model = self.inst.model;
        let prop = &model.unsafes[u];
        let tuples = self.inst.distinct_tuples(prop.params);
        let mut sym = self.sym();
        let mut items = Vec::new();
        for tuple in tuples {
            let (pres, mut env) = sym.bind(prop.locals.len(), &tuple);
            if pres == FALSE {
                continue;
            }
            let (v, e) = sym.formula(&mut env, &prop.body);
            items.push((-pres, v, e));
            if pres == TRUE && e == FALSE && v == TRUE {
                break;
            }
        }
        let r = sym.combine(&items, false);
        self.bad.insert(u, r);
        r
    }

    /// Property `u` on x for one tuple of processes: (holds, range error).
    pub fn bad_tuple(&mut self, u: usize, tuple: &[i64]) -> (Lit, Lit) {
        let model = self.inst.model;
        let prop = &model.unsafes[u];
        let mut sym = self.sym();
        let (pres, mut env) = sym.bind(prop.locals.len(), tuple);
        let (v, e) = sym.formula(&mut env, &prop.body);
        (sym.c.and2(pres, v), sym.c.and2(pres, e))
    }

    /// A range error on x: evaluating a transition instance or one of the properties
    /// `props`. With `first_only`, only the instances whose parameters are 1, 2, ...
    /// and the first tuple of each property (equivalent for a fully symmetric family:
    /// any range error can be permuted into one of these).
    pub fn range(&mut self, props: &[usize], first_only: bool) -> Lit {
        let mut errs: Vec<Lit> = self
            .instances
            .iter()
            .zip(&self.evals)
            .filter(|((_, ps), _)| {
                !first_only || ps.iter().enumerate().all(|(i, &p)| p == i as i64 + 1)
            })
            .map(|(_, e)| e.err)
            .collect();
        for &u in props {
            if first_only {
                let m = self.inst.model.unsafes[u].params as i64;
                if m as usize <= self.inst.n {
                    let t: Vec<i64> = (1..=m).collect();
                    errs.push(self.bad_tuple(u, &t).1);
                }
            } else {
                errs.push(self.bad(u).1);
            }
        }
        self.c.or(&errs)
    }

    /// A store leaving the int window on x (`int_bound`): trying a transition instance
    /// meets one before any range error. With `first_only`, only the instances whose
    /// parameters are 1, 2, ... (see `range`). FALSE for a model without ints.
    pub fn int_bound(&mut self, first_only: bool) -> Lit {
        let errs: Vec<Lit> = self
            .instances
            .iter()
            .zip(&self.evals)
            .filter(|((_, ps), _)| {
                !first_only || ps.iter().enumerate().all(|(i, &p)| p == i as i64 + 1)
            })
            .map(|(_, e)| e.int_err)
            .collect();
        self.c.or(&errs)
    }

    /// The state variables at the value level: every cell, then the presence bits
    /// that are not constant.
    pub fn state_vars(&self) -> Vec<StateVar> {
        let mut v: Vec<StateVar> = (0..self.cur.cells.len()).map(StateVar::Cell).collect();
        v.extend(
            (0..self.agg.max)
                .filter(|&p| self.agg.absent[p] != FALSE)
                .map(StateVar::Absent),
        );
        v
    }

    /// The lowest value and number of values of a state variable.
    pub fn domain(&self, v: StateVar) -> (i64, usize) {
        match v {
            StateVar::Cell(s) => {
                let sl = &self.inst.slots[s];
                (sl.lo, (sl.hi - sl.lo + 1).max(0) as usize)
            }
            StateVar::Absent(_) => (0, 2),
        }
    }

    /// The literal "state variable `v` has value `val`" on x (`next`: on x').
    pub fn eq(&mut self, v: StateVar, val: i64, next: bool) -> Lit {
        let cache = if next { &self.eq_next } else { &self.eq_cur };
        if let Some(&l) = cache.get(&(v, val)) {
            return l;
        }
        let l = match v {
            StateVar::Absent(p) => {
                let a = self.agg.absent[p];
                if val != 0 { a } else { -a }
            }
            StateVar::Cell(s) => {
                let sl = &self.inst.slots[s];
                let size = (sl.hi - sl.lo + 1).max(0) as usize;
                let cell = if next {
                    self.next[s].clone()
                } else {
                    self.cur.cells[s].clone()
                };
                let t = cell.decode(&mut self.c, sl.lo, size);
                t.cond(&mut self.c, val)
            }
        };
        let cache = if next {
            &mut self.eq_next
        } else {
            &mut self.eq_cur
        };
        cache.insert((v, val), l);
        l
    }

    /// The value of every state variable under a model of x.
    pub fn values(&self, model: &dyn Fn(Lit) -> bool) -> Vec<i64> {
        self.state_vars()
            .into_iter()
            .map(|v| match v {
                StateVar::Cell(s) => self.cur.cells[s].value(self.inst.slots[s].lo, model),
                StateVar::Absent(p) => model(self.agg.absent[p]) as i64,
            })
            .collect()
    }

    /// The width of a model's state.
    pub fn width(&self, model: &dyn Fn(Lit) -> bool) -> usize {
        (1..=self.agg.max)
            .find(|&w| model(self.agg.width[w - 1]))
            .unwrap_or(self.agg.max)
    }

    /// Every variable of x, with the literal of its next value (presence bits keep
    /// theirs): the latches of the system.
    pub fn latches(&self) -> Vec<(Lit, Lit)> {
        let mut out = Vec::new();
        for (c, n) in self.cur.cells.iter().zip(&self.next) {
            for (&a, &b) in c.lits().iter().zip(n.lits()) {
                if a != FALSE && a != TRUE {
                    out.push((a, b));
                }
            }
        }
        for &a in &self.agg.absent {
            if a != FALSE {
                out.push((a, a));
            }
        }
        out
    }
}

/// Record the error of one store reached under `reached` (with its bound index cell
/// existing, `bind_ok`): the index's error `ie`, the value's `ve`, then the store out
/// of the type `oob`, first one met counting. For an `int` target (`int`) the store's
/// error is `int_bound` (into `int_errs`), otherwise every one is a range error.
fn reached_err(
    c: &mut Circuit,
    errs: &mut Vec<Lit>,
    int_errs: &mut Vec<Lit>,
    reached: Lit,
    bind_ok: Lit,
    [ie, ve, oob]: [Lit; 3],
    int: bool,
) {
    if int {
        let at = c.and2(reached, bind_ok);
        let range = c.or2(ie, ve);
        errs.push(c.and2(at, range));
        let store = c.and(&[-ie, -ve, oob]);
        int_errs.push(c.and2(at, store));
    } else {
        let any = c.or(&[ie, ve, oob]);
        let here = c.and2(bind_ok, any);
        errs.push(c.and2(reached, here));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The semaphore mutex at size 2, pairs derived by hand: `req(i)` touches only
    /// `A[i]`, so it commutes with every instance of the other process; `enter` and
    /// `exit` both read and write `Sem`, so no two of them commute.
    #[test]
    fn commuting_pairs_of_the_semaphore_mutex() {
        let text = "type state = Idle | Want | Crit\n\
            var Sem : bool\n\
            array A[proc] : state\n\
            init (z) { A[z] = Idle && Sem = False }\n\
            unsafe (z1 z2) { A[z1] = Crit && A[z2] = Crit }\n\
            transition req (i) requires { A[i] = Idle } { A[i] := Want; }\n\
            transition enter (i) requires { A[i] = Want && Sem = False } { A[i] := Crit; Sem := True; }\n\
            transition exit (i) requires { A[i] = Crit } { A[i] := Idle; Sem := False; }\n";
        let m = crate::lang::load_str("mutex.cub", text).unwrap();
        let ts = Transys::new(&m, 2, 2, Encoding::Binary);
        let name = |k: usize| -> String {
            match ts.instances.get(k) {
                Some((t, ps)) => format!("{}({})", m.transitions[*t].name, ps[0]),
                None => "idle".into(),
            }
        };
        let mut full: Vec<(String, String)> = ts
            .commuting_pairs(Por::Full)
            .into_iter()
            .map(|(a, b)| {
                let (x, y) = (name(a), name(b));
                if x < y { (x, y) } else { (y, x) }
            })
            .filter(|(x, y)| x != "idle" && y != "idle")
            .collect();
        full.sort();
        let want = [
            ("enter(1)", "req(2)"),
            ("enter(2)", "req(1)"),
            ("exit(1)", "req(2)"),
            ("exit(2)", "req(1)"),
            ("req(1)", "req(2)"),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(full, want);
        // The idle step goes after every instance, in both reduced modes.
        let idle = ts.instances.len();
        for por in [Por::Idle, Por::Full] {
            let pairs = ts.commuting_pairs(por);
            assert!((0..idle).all(|b| pairs.contains(&(idle, b))));
        }
        assert_eq!(ts.commuting_pairs(Por::Idle).len(), idle);
        assert!(ts.commuting_pairs(Por::Off).is_empty());
    }
}
