//! The transition system of `transys` as BDDs: its state bits as BDD variables,
//! each transition instance as a guard and the next value of each bit it writes (every
//! other bit keeps its value), and the pre-image of a set of states through an
//! instance by composition: S[x_W := f(x, c)] ∧ guard(x, c), the step's choices c
//! quantified. (A relational product over primed copies of the bits was tried first:
//! the relations of Peterson's lock under fairness, where every step updates every
//! process's fairness flag, took 2.4 million nodes at n = 4 and a second per image;
//! composition with the next-state functions keeps each operation on the set's size.)
//!
//! The guards and functions are read off the template circuit: with instance t
//! selected (its selector true, every other false) the circuit's gates are evaluated
//! into BDDs over the current state and the step inputs that are left (the
//! nondeterministic choices, the auxiliary variables of the at-most-one constraint),
//! under the step constraints (`STEP`) and the selected instance's firing (`FIRE`);
//! inputs no next value reads are quantified from the guard at once. The state
//! constraints (`STATE`) bound every set of states the engine computes (`valid`). So
//! the steps are the template's, bit for bit; nothing is re-derived from the model.
//!
//! Variable order (`tier`, then process slot): the cells of no process first, then per
//! process slot its presence bit and its cells, then the cells the caller puts last
//! (the automaton state and the round's flags: every step updates them as a function
//! of the cells above, which composition and the relational product then meet already
//! decided); the step inputs at the bottom.

use super::Budget;
use crate::model::ir::Ty;
use crate::sat::Lit;
use crate::sat::circuit::{FALSE, TRUE};
use crate::transys::{FIRE, STATE, STEP, StateVar, Transys};
use oxidd::bcdd::{BCDDFunction, BCDDManagerRef};
use oxidd::{BooleanFunction, BooleanFunctionQuant, BooleanOperator, FunctionSubst, ManagerRef};
use oxidd::{Function, Manager, Subst, VarNo};
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
    /// Its primed copy (the next state, for the relational product), when some
    /// instance writes it.
    pub next: Option<VarNo>,
}

/// One transition instance as BDDs.
pub struct Step {
    /// The template instance (index into `Transys::instances`).
    pub t: usize,
    /// It fires: over the current state and its choices.
    pub guard: F,
    /// The written bits (indices into `Sys::bits`) and their next values.
    pub written: Vec<usize>,
    pub next: Vec<F>,
    subst: Subst<F>,
    /// The cube of its choice variables (true: none).
    choices: F,
    /// The relation over (x, x'_W), choices quantified, and the renaming of x_W to
    /// x'_W with the cube of x'_W (`Image::Product`).
    rel: Option<(F, Subst<F>, F)>,
}

/// How a pre-image is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Image {
    /// ∃x'_W, c. guard ∧ ∧_b (x'_b ↔ f_b) ∧ S[x_W := x'_W] (relational product).
    Product,
    /// ∃c. guard ∧ S[x_W := f(x, c)] (vector composition).
    Compose,
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
    /// The instances that are not `special` (see `Sys::new`), and the special ones.
    pub steps: Vec<Step>,
    pub special: Vec<Step>,
    /// Template variable -> BDD variable of the current state.
    var_of: HashMap<u32, VarNo>,
    /// Template variables fixed to a constant in every evaluation (cells left out).
    fixed: HashMap<u32, bool>,
    /// Step inputs met so far -> BDD variable.
    inputs: HashMap<u32, VarNo>,
    /// The BDD variable of every BDD variable number (functions).
    vars: Vec<F>,
    /// How pre-images are computed.
    pub image: Image,
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
    /// the transition instances for which `special` holds are kept apart.
    pub fn new(
        ts: Transys<'m>,
        left_out: &[usize],
        tier: &dyn Fn(usize) -> usize,
        special: &dyn Fn(usize) -> bool,
        nodes: usize,
        budget: &Budget,
    ) -> R<Sys<'m>> {
        let mgr = oxidd::bcdd::new_manager(nodes, (nodes / 16).clamp(1 << 16, 1 << 22), 1);
        let tt = mgr.with_manager_shared(|m| F::t(m));
        let ev = Some(Eval::new(&ts));
        let mut sys = Sys {
            ts,
            mgr,
            ev,
            image: if std::env::var("NFOLD_BDD_COMPOSE").is_ok() {
                Image::Compose
            } else {
                Image::Product
            },
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
        sys.lay_out(left_out, tier);
        sys.valid = sys.build_valid(budget)?;
        for t in 0..sys.ts.instances.len() {
            budget.poll()?;
            let Some(step) = sys.step(t, budget)? else {
                continue;
            };
            if special(t) {
                sys.special.push(step);
            } else {
                sys.steps.push(step);
            }
            let g = sys.steps.last().map(|x| x.guard.clone());
            if let Some(g) = g {
                sys.note_size(&g);
            }
        }
        Ok(sys)
    }

    /// The state bits in the variable order, with their BDD variables.
    fn lay_out(&mut self, left_out: &[usize], tier: &dyn Fn(usize) -> usize) {
        let ts = &self.ts;
        let mut written = vec![false; ts.cur.cells.len()];
        for t in 0..ts.instances.len() {
            for &s in ts.written(t) {
                written[s] = true;
            }
        }
        let primed = self.image == Image::Product;
        let mut order: Vec<(usize, usize, usize, Option<usize>)> = (0..ts.cur.cells.len())
            .map(|s| (tier(s), group_of(ts, s), 1, Some(s)))
            .collect();
        for p in 0..ts.agg.max {
            if ts.agg.absent[p] != FALSE {
                order.push((1, p + 1, 0, None));
            }
        }
        order.sort_by_key(|&(t, g, k, s)| (t, g, k, s.unwrap_or(0)));
        let mut bits = Vec::new();
        let mut fixed = HashMap::new();
        for (_, g, _, s) in order {
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
                        bits.push((l, StateVar::Cell(s), b as u32, primed && written[s]));
                    }
                }
            }
        }
        let count: u32 = bits.iter().map(|b| 1 + b.3 as u32).sum();
        let mut v = self.mgr.with_manager_exclusive(|m| m.add_vars(count)).start;
        for (lit, of, bit, w) in bits {
            self.var_of.insert(lit.unsigned_abs(), v);
            let next = w.then_some(v + 1);
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

    /// Instance t as a guard and next values (`None`: it never fires).
    fn step(&mut self, t: usize, budget: &Budget) -> R<Option<Step>> {
        let fire = self.ts.fire[t];
        let mut guard = self.eval(fire, Some(t))?;
        let groups: Vec<Vec<Lit>> = [STEP, FIRE]
            .iter()
            .flat_map(|&g| self.ts.c.group(g).map(|c| c.to_vec()).collect::<Vec<_>>())
            .collect();
        for cl in groups {
            if !guard.satisfiable() {
                return Ok(None);
            }
            budget.poll()?;
            let c = self.clause(&cl, Some(t))?;
            guard = guard.and(&c)?;
        }
        if !guard.satisfiable() {
            return Ok(None);
        }
        let written = self.written_bits(t);
        let mut next = Vec::with_capacity(written.len());
        for &i in &written {
            budget.poll()?;
            let b = self.bits[i].clone();
            let nx = self.next_lit(&b);
            next.push(self.eval(nx, Some(t))?);
        }
        // The inputs the next values read are the step's choices; the others (the
        // at-most-one constraint's) are quantified from the guard now.
        let input_vars: std::collections::HashSet<VarNo> = self.inputs.values().copied().collect();
        let mut read = std::collections::HashSet::new();
        for f in &next {
            support(f, &mut read);
        }
        let mut drop = self.tt();
        let mut choices = self.tt();
        for &v in &input_vars {
            if read.contains(&v) {
                choices = choices.and(self.var(v))?;
            } else {
                drop = drop.and(self.var(v))?;
            }
        }
        let guard = guard.exists(&drop)?;
        let rel = if self.image == Image::Product {
            let mut r = guard.clone();
            let mut cube = self.tt();
            let (mut from, mut to) = (Vec::new(), Vec::new());
            for (&i, f) in written.iter().zip(&next) {
                budget.poll()?;
                let p = self.bits[i].next.expect("a written bit has a primed copy");
                r = r.and(&self.var(p).equiv(f)?)?;
                cube = cube.and(self.var(p))?;
                from.push(self.bits[i].cur);
                to.push(self.var(p).clone());
            }
            let r = r.exists(&choices)?;
            Some((r, Subst::new(from, to), cube))
        } else {
            None
        };
        let vars: Vec<VarNo> = written.iter().map(|&i| self.bits[i].cur).collect();
        Ok(Some(Step {
            t,
            guard,
            subst: Subst::new(vars, next.clone()),
            written,
            next,
            choices,
            rel,
        }))
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

    /// The states with step `x` into `s`.
    pub fn pre_step(&self, x: &Step, s: &F) -> R<F> {
        if let Some((rel, to_next, cube)) = &x.rel {
            let moved = s.substitute(to_next)?;
            return Ok(rel.apply_exists(BooleanOperator::And, &moved, cube)?);
        }
        let moved = if x.written.is_empty() {
            s.clone()
        } else {
            s.substitute(&x.subst)?
        };
        Ok(if x.choices.valid() {
            x.guard.and(&moved)?
        } else {
            x.guard
                .apply_exists(BooleanOperator::And, &moved, &x.choices)?
        })
    }

    /// The states with a step of `steps` into `s`, within `within`.
    pub fn pre(&mut self, steps: &[Step], s: &F, within: &F, budget: &Budget) -> R<F> {
        let mut out = self.ff();
        for x in steps {
            budget.poll()?;
            let p = self.pre_step(x, s)?;
            out = out.or(&p)?;
            self.note_size(&out);
        }
        Ok(out.and(within)?)
    }

    /// The successor of state `s` (bit values) by step `x` in `target`, if any: the
    /// guard and next values at that one state (functions of the step's choices
    /// alone), then a choice that fires and leads into the target.
    pub fn post_into(&self, x: &Step, s: &[bool], target: &F) -> R<Option<Vec<bool>>> {
        let here = self.state(s)?;
        let g = x.guard.restrict(&here)?;
        if !g.satisfiable() {
            return Ok(None);
        }
        let fs: Vec<F> = x
            .next
            .iter()
            .map(|f| f.restrict(&here))
            .collect::<Result<_, _>>()?;
        let vars: Vec<VarNo> = x.written.iter().map(|&i| self.bits[i].cur).collect();
        let moved = if vars.is_empty() {
            target.clone()
        } else {
            target.substitute(&Subst::new(vars, fs.clone()))?
        };
        let ok = g.and(&moved.restrict(&here)?)?;
        let Some(cube) = ok.pick_cube(|_, _, _| false) else {
            return Ok(None);
        };
        let mut point = self.tt();
        for &v in self.inputs.values() {
            let on = matches!(cube.get(v as usize), Some(oxidd::util::OptBool::True));
            let x = self.var(v);
            point = point.and(&if on { x.clone() } else { x.not()? })?;
        }
        let mut out = s.to_vec();
        for (&i, f) in x.written.iter().zip(&fs) {
            out[i] = f.and(&point)?.satisfiable();
        }
        Ok(Some(out))
    }

    /// Record the node count, and collect garbage once it has doubled since the last
    /// collection (and passed a million nodes: a collection clears the operation
    /// cache).
    pub fn note_size(&mut self, _f: &F) {
        let n = self.mgr.with_manager_shared(|m| m.num_inner_nodes());
        if n > self.peak {
            self.peak = n;
        }
        if n > 2 * self.last_gc.max(1 << 20) {
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
                *out.get_mut(&b.of)
                    .expect("every cell was given its lowest value above") +=
                    (code as i64) << b.bit;
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

/// The variables `f` reads, added to `out`.
pub fn support(f: &F, out: &mut std::collections::HashSet<VarNo>) {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![f.clone()];
    while let Some(g) = stack.pop() {
        let info = g.with_manager_shared(|m, e| {
            let node = m.get_node(e);
            (!node.is_any_terminal()).then(|| (e.node_id(), m.level_to_var(node.level())))
        });
        let Some((id, var)) = info else { continue };
        if !seen.insert(id) {
            continue;
        }
        out.insert(var);
        if let Some((a, b)) = g.cofactors() {
            stack.push(a);
            stack.push(b);
        }
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
            let who = if k < ts.instances.len() {
                k
            } else {
                usize::MAX
            };
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
                    let f = self
                        .known(sys, i.unsigned_abs(), sel)
                        .expect("no input was pending: each is known");
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
