//! The transition system of a family over the sizes `min..=max`: the aggregate of
//! T. Wahl, *Exploiting Replication in Automated Program Verification*, PhD thesis,
//! UT Austin 2007, ch. 11 (`aggregate`), a single size n being the aggregate n..n, so
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
//!
//! `step` builds the step (the instances evaluated, selectors, choices, the next
//! state), `por` the partial-order reduction of the unrolling. The room also holds
//! what every SAT engine and the certificate checker share about it: the cells of a
//! `frame` and their encodings, `symbolic` evaluation into `term`s, the `aggregate` of
//! a range, the unrolling into CNF (`unroll`), lexicographic-leader symmetry breaking
//! on the final frame (`symbreak`) and the per-depth queries (`query`).

pub mod aggregate;
pub mod frame;
mod por;
pub mod query;
mod step;
pub mod symbolic;
pub mod symbreak;
pub mod term;
pub mod unroll;

use por::Footprint;
pub use por::Por;
pub use step::InstanceEval;

use crate::hash::FastMap;
use crate::model::eval::transition_instances;
use crate::model::instance::Instance;
use crate::model::ir::*;
use crate::sat::Lit;
use crate::sat::circuit::{Circuit, FALSE, TRUE};
use aggregate::Agg;
use frame::{Cell, Encoding, Frame};
use std::collections::HashMap;
use symbolic::Symbolic;

/// Constraint group: cell domains and properness of the presence bits (state only).
pub const STATE: usize = 0;
/// Constraint group: one selector per step, choice domains (inputs only).
pub const STEP: usize = 1;
/// Constraint group: a selected transition instance fires.
pub const FIRE: usize = 2;

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
    eq_cur: FastMap<(StateVar, i64), Lit>,
    eq_next: FastMap<(StateVar, i64), Lit>,
}

impl<'m> Transys<'m> {
    /// The system of sizes `min..=max` (a single size: `min == max`).
    pub fn new(model: &'m Model, min: usize, max: usize, enc: Encoding) -> Transys<'m> {
        Self::within(model, min, max, enc, &crate::sat::Stop::default())
            .expect("no stop was asked for")
    }

    /// `new`, given up (`None`) as soon as `stop` says so: the step of a wide aggregate
    /// (a liveness product over sizes 1..20, say) takes seconds to build, longer than a
    /// limit may allow.
    pub fn within(
        model: &'m Model,
        min: usize,
        max: usize,
        enc: Encoding,
        stop: &crate::sat::Stop,
    ) -> Option<Transys<'m>> {
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
            eq_cur: FastMap::default(),
            eq_next: FastMap::default(),
        };
        ts.build_init();
        ts.build_step(stop)?;
        ts.c.route = None;
        let latch: std::collections::HashSet<Lit> =
            ts.latches().into_iter().map(|(x, _)| x).collect();
        ts.inputs = (2..=ts.c.cnf.num_vars)
            .filter(|&v| ts.c.gate(v).is_none() && !latch.contains(&v))
            .collect();
        Some(ts)
    }

    /// Whether this is one size (not a range of them).
    pub fn single(&self) -> bool {
        self.agg.min == self.agg.max
    }

    fn sym(&mut self) -> Symbolic<'_, 'm> {
        Symbolic {
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
        for init in &model.inits {
            let tuples = sym.inst.all_tuples(init.params);
            if sym.instances(init.locals.len(), &init.body, tuples, true, &mut items) {
                break;
            }
        }
        let (init_val, init_err) = sym.combine(&items, true);
        let mut parts = vec![init_val, -init_err];
        let a = sym.agg.expect("Transys::sym always sets the aggregate");
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
        sym.instances(prop.locals.len(), &prop.body, tuples, false, &mut items);
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
        let mut errs = self.instance_errors(first_only, |e| e.err);
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
        let errs = self.instance_errors(first_only, |e| e.int_err);
        self.c.or(&errs)
    }

    /// The error literal `err` picks out of each transition instance's evaluation;
    /// with `first_only`, of the instances whose parameters are 1, 2, ... only.
    fn instance_errors(&self, first_only: bool, err: fn(&InstanceEval) -> Lit) -> Vec<Lit> {
        self.instances
            .iter()
            .zip(&self.evals)
            .filter(|((_, ps), _)| {
                !first_only || ps.iter().enumerate().all(|(i, &p)| p == i as i64 + 1)
            })
            .map(|(_, e)| err(e))
            .collect()
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
