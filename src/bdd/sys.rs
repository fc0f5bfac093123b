//! The transition system of `bmc::transys` as BDDs: its state bits as BDD variables
//! (a primed copy beside every bit some transition instance writes), each transition
//! instance as a relation over the current state and the primed copies of the bits it
//! writes (its frame condition: every other bit keeps its value), instances that write
//! the same bits clustered into one relation, and the pre- and post-images of a set of
//! states through them (the relational product: conjunction and quantification in one
//! pass of the BDD package).
//!
//! The relations are read off the template circuit: with instance t selected (its
//! selector true, every other false) the circuit's gates are evaluated into BDDs over
//! the current state and the step inputs that are left (the nondeterministic choices,
//! the auxiliary variables of the at-most-one constraint), which are then quantified
//! away under the step constraints (`STEP`) and the selected instance's firing
//! (`FIRE`). The state constraints (`STATE`) bound every set of states the engine
//! computes (`valid`). So the relations are the template's, bit for bit; nothing is
//! re-derived from the model.
//!
//! Variable order: the cells of no process first (the automaton state, the globals),
//! then per process slot its presence bit and its cells, each bit followed by its
//! primed copy; the step inputs last (they are quantified within each relation).

use super::Budget;
use crate::bmc::transys::{FIRE, STATE, STEP, StateVar, Transys};
use crate::model::ir::Ty;
use crate::sat::Lit;
use crate::sat::circuit::{FALSE, TRUE};
use oxidd::bcdd::{BCDDFunction, BCDDManagerRef};
use oxidd::{BooleanFunction, BooleanFunctionQuant, BooleanOperator, FunctionSubst, ManagerRef};
use oxidd::{Manager, Subst, VarNo};
use std::collections::HashMap;

/// A BDD.
pub type F = BCDDFunction;

/// Where a BDD operation failed: out of node memory, or a limit.
pub type R<T> = Result<T, Stop>;

/// Why the engine stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The node table is full.
    Memory,
    /// The deadline or an interrupt.
    Limit,
}

impl From<oxidd::error::OutOfMemory> for Stop {
    fn from(_: oxidd::error::OutOfMemory) -> Stop {
        Stop::Memory
    }
}

/// One state bit: the template variable, the state variable it belongs to, its
/// position in the cell's binary code, and its BDD variables.
#[derive(Clone, Debug)]
pub struct Bit {
    pub lit: Lit,
    pub of: StateVar,
    pub bit: u32,
    pub cur: VarNo,
    pub next: Option<VarNo>,
}

/// A clustered relation: instances that write the same bits.
pub struct Cluster {
    /// Indices into `Sys::instances` (template instances).
    pub members: Vec<usize>,
    /// Per member, its relation over (x, x'_W).
    pub rels: Vec<F>,
    /// Their disjunction.
    pub rel: F,
    /// x_W -> x'_W and back.
    to_next: Subst<F>,
    to_cur: Subst<F>,
    /// The cubes of x'_W and of x_W.
    next_cube: F,
    cur_cube: F,
}

/// The BDD transition system, see the module comment.
pub struct Sys<'m> {
    pub ts: Transys<'m>,
    pub mgr: BCDDManagerRef,
    /// The evaluator of template literals (taken while it runs).
    ev: Option<Eval>,
    pub bits: Vec<Bit>,
    /// The valid states: the state constraints. (A cell that does not exist at the
    /// state's width is left free: `init` puts it at its lowest value, but a
    /// whole-array update of the aggregate may write it, and no step reads it, so the
    /// sets the engine computes do not depend on it.)
    pub valid: F,
    /// The clusters of the steps that are not `special` (see `Sys::new`), and of the
    /// special ones.
    pub steps: Vec<Cluster>,
    pub special: Vec<Cluster>,
    /// Template variable -> BDD variable of the current state.
    var_of: HashMap<u32, VarNo>,
    /// Template variables fixed to a constant in every evaluation (cells left out).
    fixed: HashMap<u32, bool>,
    /// Step inputs met so far -> BDD variable.
    inputs: HashMap<u32, VarNo>,
    /// The BDD variable of every BDD variable number (functions).
    vars: Vec<F>,
    /// Largest node count seen.
    pub peak: usize,
    last_gc: usize,
}

/// The process slot a cell belongs to (0: none), for the variable order.
fn group_of(ts: &Transys, s: usize) -> usize {
    let slot = &ts.inst.slots[s];
    let dims = &ts.inst.model.vars[slot.var].dims;
    slot.index
        .iter()
        .zip(dims)
        .find(|(_, d)| **d == Ty::Proc)
        .map_or(0, |(&i, _)| i.max(0) as usize)
}

impl<'m> Sys<'m> {
    /// The system of `ts`, with every cell of `left_out` read as its lowest value and
    /// never written (k-liveness's round counter, which the engine does not track);
    /// the transition instances for which `special` holds are clustered apart.
    pub fn new(
        ts: Transys<'m>,
        left_out: &[usize],
        special: &dyn Fn(usize) -> bool,
        nodes: usize,
        budget: &Budget,
    ) -> R<Sys<'m>> {
        let mgr = oxidd::bcdd::new_manager(nodes, (nodes / 4).clamp(1 << 16, 1 << 24), 1);
        let tt = mgr.with_manager_shared(|m| F::t(m));
        let ev = Some(Eval::new(&ts));
        let mut sys = Sys {
            ts,
            mgr,
            ev,
            bits: Vec::new(),
            valid: tt,
            steps: Vec::new(),
            special: Vec::new(),
            var_of: HashMap::new(),
            fixed: HashMap::new(),
            inputs: HashMap::new(),
            vars: Vec::new(),
            peak: 0,
            last_gc: 0,
        };
        sys.lay_out(left_out);
        sys.valid = sys.build_valid(budget)?;
        let n = sys.ts.instances.len();
        let mut by_writes: HashMap<(bool, Vec<usize>), Vec<usize>> = HashMap::new();
        let mut keys = Vec::new();
        for t in 0..n {
            let w = sys.written_bits(t);
            let key = (special(t), w);
            if !by_writes.contains_key(&key) {
                keys.push(key.clone());
            }
            by_writes.entry(key).or_default().push(t);
        }
        for key in keys {
            budget.poll()?;
            let members = by_writes.remove(&key).unwrap();
            let c = sys.cluster(members, key.1, budget)?;
            if key.0 {
                sys.special.push(c);
            } else {
                sys.steps.push(c);
            }
        }
        Ok(sys)
    }

    /// The state bits in the variable order, with their BDD variables.
    fn lay_out(&mut self, left_out: &[usize]) {
        let ts = &self.ts;
        let mut written = vec![false; ts.cur.cells.len()];
        for t in 0..ts.instances.len() {
            for &s in ts.written(t) {
                written[s] = true;
            }
        }
        let mut order: Vec<(usize, usize, Option<usize>)> = (0..ts.cur.cells.len())
            .map(|s| (group_of(ts, s), 1, Some(s)))
            .collect();
        for p in 0..ts.agg.max {
            if ts.agg.absent[p] != FALSE {
                order.push((p + 1, 0, None));
            }
        }
        order.sort_by_key(|&(g, k, s)| (g, k, s.unwrap_or(0)));
        let mut bits = Vec::new();
        let mut fixed = HashMap::new();
        for (g, _, s) in order {
            match s {
                None => {
                    let a = ts.agg.absent[g - 1];
                    bits.push((a, StateVar::Absent(g - 1), 0, false));
                }
                Some(s) => {
                    for (b, &l) in ts.cur.cells[s].lits().iter().enumerate() {
                        if l == FALSE || l == TRUE {
                            continue;
                        }
                        if left_out.contains(&s) {
                            fixed.insert(l.unsigned_abs(), l < 0);
                            continue;
                        }
                        bits.push((l, StateVar::Cell(s), b as u32, written[s]));
                    }
                }
            }
        }
        let count: u32 = bits.iter().map(|b| 1 + b.3 as u32).sum();
        let first = self.mgr.with_manager_exclusive(|m| m.add_vars(count)).start;
        let mut v = first;
        for (lit, of, bit, w) in bits {
            let next = w.then_some(v + 1);
            self.var_of.insert(lit.unsigned_abs(), v);
            self.bits.push(Bit {
                lit,
                of,
                bit,
                cur: v,
                next,
            });
            v += 1 + w as u32;
        }
        self.fixed = fixed;
        self.extend_vars();
    }

    /// `vars[i]`: the BDD of variable i, for every variable the manager has.
    fn extend_vars(&mut self) {
        let have = self.vars.len() as u32;
        let total = self.mgr.with_manager_shared(|m| m.num_vars());
        for v in have..total {
            let f = self
                .mgr
                .with_manager_shared(|m| F::var(m, v))
                .expect("a variable node fits");
            self.vars.push(f);
        }
    }

    pub fn tt(&self) -> F {
        self.mgr.with_manager_shared(|m| F::t(m))
    }

    pub fn ff(&self) -> F {
        self.mgr.with_manager_shared(|m| F::f(m))
    }

    pub fn var(&self, v: VarNo) -> &F {
        &self.vars[v as usize]
    }

    /// The bits of the cells instance t may write.
    fn written_bits(&self, t: usize) -> Vec<usize> {
        let ws = self.ts.written(t);
        (0..self.bits.len())
            .filter(|&i| matches!(self.bits[i].of, StateVar::Cell(s) if ws.contains(&s)))
            .collect()
    }

    /// The valid states (see the field).
    fn build_valid(&mut self, budget: &Budget) -> R<F> {
        let mut v = self.tt();
        let clauses: Vec<Vec<Lit>> = self.ts.c.group(STATE).map(|c| c.to_vec()).collect();
        for cl in clauses {
            let c = self.clause(&cl, None)?;
            v = v.and(&c)?;
        }
        budget.poll()?;
        Ok(v)
    }

    /// A template literal as a BDD over the current state (and step inputs), with
    /// instance `sel` selected (`None`: no selector may be read).
    pub fn eval(&mut self, l: Lit, sel: Option<usize>) -> R<F> {
        let mut ev = self.ev.take().expect("one evaluation at a time");
        let r = ev.run(self, l, sel);
        self.ev = Some(ev);
        r
    }

    fn clause(&mut self, cl: &[Lit], sel: Option<usize>) -> R<F> {
        let mut c = self.ff();
        for &l in cl {
            let x = self.eval(l, sel)?;
            if x.valid() {
                return Ok(x);
            }
            c = c.or(&x)?;
        }
        Ok(c)
    }

    /// The BDD variable of a step input, made on first use (at the bottom).
    fn input_var(&mut self, v: u32) -> VarNo {
        if let Some(&x) = self.inputs.get(&v) {
            return x;
        }
        let x = self.mgr.with_manager_exclusive(|m| m.add_vars(1)).start;
        self.inputs.insert(v, x);
        self.extend_vars();
        x
    }

    /// The relation of one instance: it fires, the step and firing constraints hold,
    /// and each written bit's primed copy is its next value; the step inputs
    /// quantified.
    fn relation(&mut self, t: usize, written: &[usize]) -> R<F> {
        let fire = self.ts.fire[t];
        let mut r = self.eval(fire, Some(t))?;
        let groups: Vec<Vec<Lit>> = [STEP, FIRE]
            .iter()
            .flat_map(|&g| self.ts.c.group(g).map(|c| c.to_vec()).collect::<Vec<_>>())
            .collect();
        for cl in groups {
            if r.satisfiable() {
                let c = self.clause(&cl, Some(t))?;
                r = r.and(&c)?;
            }
        }
        for &i in written {
            if !r.satisfiable() {
                break;
            }
            let b = self.bits[i].clone();
            let nx = self.next_lit(&b);
            let f = self.eval(nx, Some(t))?;
            let p = self.var(b.next.expect("a written bit has a primed copy")).clone();
            r = r.and(&p.equiv(&f)?)?;
        }
        let inputs: Vec<VarNo> = self.inputs.values().copied().collect();
        let mut cube = self.tt();
        for v in inputs {
            cube = cube.and(self.var(v))?;
        }
        Ok(r.exists(&cube)?)
    }

    /// The template literal of a bit's next value.
    fn next_lit(&self, b: &Bit) -> Lit {
        match b.of {
            StateVar::Cell(s) => {
                let l = self.ts.next[s].lits()[b.bit as usize];
                if b.lit < 0 { -l } else { l }
            }
            StateVar::Absent(_) => b.lit,
        }
    }

    fn cluster(
        &mut self,
        members: Vec<usize>,
        written: Vec<usize>,
        budget: &Budget,
    ) -> R<Cluster> {
        let mut rels = Vec::new();
        let mut rel = self.ff();
        for &t in &members {
            budget.poll()?;
            let r = self.relation(t, &written)?;
            rel = rel.or(&r)?;
            rels.push(r);
        }
        let cur: Vec<VarNo> = written.iter().map(|&i| self.bits[i].cur).collect();
        let next: Vec<VarNo> = written.iter().map(|&i| self.bits[i].next.unwrap()).collect();
        let fs = |vs: &[VarNo]| -> Vec<F> { vs.iter().map(|&v| self.var(v).clone()).collect() };
        let mut next_cube = self.tt();
        for &v in &next {
            next_cube = next_cube.and(self.var(v))?;
        }
        let mut cur_cube = self.tt();
        for &v in &cur {
            cur_cube = cur_cube.and(self.var(v))?;
        }
        Ok(Cluster {
            members,
            rels,
            rel,
            to_next: Subst::new(cur.clone(), fs(&next)),
            to_cur: Subst::new(next, fs(&cur)),
            next_cube,
            cur_cube,
        })
    }

    /// The states with a step of relation `rel` (of cluster `c`) into `s`.
    pub fn pre_rel(&self, c: &Cluster, rel: &F, s: &F) -> R<F> {
        let moved = s.substitute(&c.to_next)?;
        Ok(rel.apply_exists(BooleanOperator::And, &moved, &c.next_cube)?)
    }

    /// The states a step of relation `rel` (of cluster `c`) leads to from `s`.
    pub fn post_rel(&self, c: &Cluster, rel: &F, s: &F) -> R<F> {
        let img = rel.apply_exists(BooleanOperator::And, s, &c.cur_cube)?;
        Ok(img.substitute(&c.to_cur)?)
    }

    /// The states with a step of one of `clusters` into `s`, within `within`.
    pub fn pre(&mut self, clusters: &[Cluster], s: &F, within: &F, budget: &Budget) -> R<F> {
        let mut out = self.ff();
        for c in clusters {
            budget.poll()?;
            let p = self.pre_rel(c, &c.rel, s)?;
            out = out.or(&p)?;
            self.note_size(&out);
        }
        Ok(out.and(within)?)
    }

    /// Record the node count, and collect garbage once it has doubled since the last
    /// collection.
    pub fn note_size(&mut self, _f: &F) {
        let n = self.mgr.with_manager_shared(|m| m.num_inner_nodes());
        if n > self.peak {
            self.peak = n;
        }
        if n > 2 * self.last_gc.max(1 << 16) {
            self.mgr.with_manager_shared(|m| m.gc());
            self.last_gc = self.mgr.with_manager_shared(|m| m.num_inner_nodes());
        }
    }

    /// The width literal of width w as a BDD.
    pub fn width(&mut self, w: usize) -> R<F> {
        let l = self.ts.agg.width[w - 1];
        self.eval(l, None)
    }

    /// One state of `s` (a satisfying assignment of every current-state bit), as
    /// bit values in the order of `bits`, or none.
    pub fn pick(&self, s: &F) -> Option<Vec<bool>> {
        let cube = s.pick_cube(|_, _, _| false)?;
        Some(
            self.bits
                .iter()
                .map(|b| matches!(cube.get(b.cur as usize), Some(oxidd::util::OptBool::True)))
                .collect(),
        )
    }

    /// The single state with these bit values, as a BDD over the current state.
    pub fn state(&self, values: &[bool]) -> R<F> {
        let mut f = self.tt();
        for (b, &v) in self.bits.iter().zip(values).rev() {
            let x = self.var(b.cur);
            f = if v { x.and(&f)? } else { x.not()?.and(&f)? };
        }
        Ok(f)
    }

    /// The value of every state variable (`Transys::state_vars` order is not needed:
    /// by state variable) of a state given by its bit values; cells left out read 0
    /// bits.
    pub fn values(&self, values: &[bool]) -> HashMap<StateVar, i64> {
        let mut out: HashMap<StateVar, i64> = HashMap::new();
        for s in 0..self.ts.cur.cells.len() {
            out.insert(StateVar::Cell(s), self.ts.inst.slots[s].lo);
        }
        for (b, &v) in self.bits.iter().zip(values) {
            let code = if b.lit < 0 { !v } else { v };
            if let StateVar::Cell(_) = b.of {
                *out.get_mut(&b.of).unwrap() += (code as i64) << b.bit;
            } else {
                out.insert(b.of, code as i64);
            }
        }
        out
    }

    /// The number of nodes of the manager now.
    pub fn nodes(&self) -> usize {
        self.mgr.with_manager_shared(|m| m.num_inner_nodes())
    }
}

/// The evaluation of template literals into BDDs: the gates that read no selector
/// once for all instances, the others once per selected instance.
pub struct Eval {
    /// Per template variable: whether its cone reads a selector.
    dep: Vec<bool>,
    /// Per selector variable: its instance (the idle selector: usize::MAX).
    sel_of: HashMap<u32, usize>,
    shared: HashMap<u32, F>,
    local: HashMap<u32, F>,
    selected: Option<usize>,
}

impl Eval {
    pub fn new(ts: &Transys) -> Eval {
        let n = ts.c.cnf.num_vars as usize + 1;
        let mut sel_of = HashMap::new();
        for (k, &s) in ts.sel.iter().enumerate() {
            let who = if k < ts.instances.len() { k } else { usize::MAX };
            sel_of.insert(s.unsigned_abs(), who);
        }
        let mut e = Eval {
            dep: Vec::with_capacity(n),
            sel_of,
            shared: HashMap::new(),
            local: HashMap::new(),
            selected: None,
        };
        e.extend(ts);
        e
    }

    /// `dep` for every variable of the template (which grows as literals are asked
    /// for); a gate's inputs are numbered below it.
    fn extend(&mut self, ts: &Transys) {
        let n = ts.c.cnf.num_vars as usize + 1;
        for v in self.dep.len()..n {
            let d = self.sel_of.contains_key(&(v as u32))
                || ts
                    .c
                    .gate(v as Lit)
                    .is_some_and(|ins| ins.iter().any(|i| self.dep[i.unsigned_abs() as usize]));
            self.dep.push(d);
        }
    }

    fn select(&mut self, t: usize) {
        if self.selected != Some(t) {
            self.local.clear();
            self.selected = Some(t);
        }
    }

    fn known(&self, sys: &Sys, v: u32, sel: Option<usize>) -> Option<F> {
        if v == TRUE as u32 {
            return Some(sys.tt());
        }
        if let Some(&b) = sys.fixed.get(&v) {
            // The variable's value that makes its cell's bit 0 (the lowest value).
            return Some(if b { sys.tt() } else { sys.ff() });
        }
        if let Some(&who) = self.sel_of.get(&v) {
            let on = sel.is_some_and(|t| t == who);
            return Some(if on { sys.tt() } else { sys.ff() });
        }
        if let Some(&x) = sys.var_of.get(&v) {
            return Some(sys.var(x).clone());
        }
        let memo = if self.dep[v as usize] {
            &self.local
        } else {
            &self.shared
        };
        memo.get(&v).cloned()
    }

    fn run(&mut self, sys: &mut Sys, l: Lit, sel: Option<usize>) -> R<F> {
        self.extend(&sys.ts);
        if let Some(t) = sel {
            self.select(t);
        } else if self.selected.is_some() {
            self.local.clear();
            self.selected = None;
        }
        let root = l.unsigned_abs();
        let mut stack = vec![root];
        while let Some(&v) = stack.last() {
            if self.known(sys, v, sel).is_some() {
                stack.pop();
                continue;
            }
            let Some(ins) = sys.ts.c.gate(v as Lit) else {
                // A step input.
                let x = sys.input_var(v);
                let f = sys.var(x).clone();
                self.shared.insert(v, f);
                stack.pop();
                continue;
            };
            let ins: Vec<Lit> = ins.to_vec();
            // Short cut: an input already known false.
            let mut pending = Vec::new();
            let mut zero = false;
            for &i in &ins {
                match self.known(sys, i.unsigned_abs(), sel) {
                    Some(f) => {
                        let f = if i < 0 { f.not()? } else { f };
                        if !f.satisfiable() {
                            zero = true;
                            break;
                        }
                    }
                    None => pending.push(i.unsigned_abs()),
                }
            }
            let value = if zero {
                Some(sys.ff())
            } else if pending.is_empty() {
                let mut acc = sys.tt();
                for &i in &ins {
                    let f = self.known(sys, i.unsigned_abs(), sel).unwrap();
                    let f = if i < 0 { f.not()? } else { f };
                    acc = acc.and(&f)?;
                    if !acc.satisfiable() {
                        break;
                    }
                }
                Some(acc)
            } else {
                stack.extend(pending);
                None
            };
            if let Some(f) = value {
                if self.dep[v as usize] {
                    self.local.insert(v, f);
                } else {
                    self.shared.insert(v, f);
                }
                stack.pop();
            }
        }
        let f = self.known(sys, root, sel).expect("evaluated");
        Ok(if l < 0 { f.not()? } else { f })
    }
}
