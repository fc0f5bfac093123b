//! The unrolling of an instance into CNF: frame 0 constrained by `init`, and per step
//! a one-hot choice among the transition instances and an idle step (so that depth k
//! covers every run of length at most k). A chosen instance must be enabled without
//! range error; its updates are written into the next frame, every other cell keeps
//! its value. Bad-state literals for `unsafe` properties and for range errors are built
//! per frame on demand.

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

/// What a write stores.
#[derive(Clone, Debug)]
enum Value {
    Term(Term),
    /// The step's nondeterministic input for this global variable.
    Choice(VarId),
}

/// A transition instance evaluated on one frame.
#[derive(Clone, Debug)]
pub struct InstanceEval {
    /// In the aggregate: the instance's processes are present.
    pub present: Lit,
    /// Given `present`: guard true, no range error, and every `any` has a candidate.
    pub enabled: Lit,
    /// Evaluating the instance on this frame meets a range error.
    pub err: Lit,
    /// Writes in update order: possible target cells with conditions, and the value.
    writes: Vec<(Vec<(usize, Lit)>, Value)>,
    /// For each `X := any j. f`: X and, per candidate j, whether f holds.
    anys: Vec<(VarId, Vec<(i64, Lit)>)>,
}

/// The literals of one step (frame k to frame k+1).
#[derive(Clone, Debug)]
pub struct StepVars {
    /// One selector per transition instance, then the idle selector.
    pub sel: Vec<Lit>,
}

/// Formula sizes, for reports.
#[derive(Clone, Copy, Debug, Default)]
pub struct Size {
    pub vars: i32,
    pub clauses: usize,
}

/// An instance unrolled to some depth.
pub struct Unroller<'m> {
    pub inst: Instance<'m>,
    pub c: Circuit,
    pub enc: Encoding,
    pub frames: Vec<Frame>,
    pub steps: Vec<StepVars>,
    /// `(transition, parameters)` of every instance.
    pub instances: Vec<(usize, Vec<i64>)>,
    /// Frame 0 satisfies `init` (evaluated without error).
    pub init_ok: Lit,
    /// Evaluating `init` on frame 0 meets a range error.
    pub init_err: Lit,
    evals: Vec<Option<Vec<InstanceEval>>>,
    bad: HashMap<(usize, usize), (Lit, Lit)>,
    /// Formula size after each frame was added.
    pub sizes: Vec<Size>,
    /// The aggregate context (sizes min..=max as one system), if any.
    pub agg: Option<Agg>,
}

impl<'m> Unroller<'m> {
    /// Frame 0 of the instance of size `n`, constrained by `init` (or by an init range
    /// error, which `range_query(0)` reports).
    pub fn new(model: &'m Model, n: usize, enc: Encoding) -> Unroller<'m> {
        Unroller::build(Instance::new(model, n), Circuit::new(), None, enc)
    }

    /// Frame 0 of the aggregate of sizes `min..=max`.
    pub fn aggregate(model: &'m Model, min: usize, max: usize, enc: Encoding) -> Unroller<'m> {
        let mut c = Circuit::new();
        let agg = Agg::new(&mut c, model, min, max);
        Unroller::build(Instance::aggregate(model, min, max), c, Some(agg), enc)
    }

    fn build(inst: Instance<'m>, mut c: Circuit, agg: Option<Agg>, enc: Encoding) -> Unroller<'m> {
        let model = inst.model;
        let mut f0 = Frame::fresh(&mut c, &inst, enc);
        // init: every block, for every parameter tuple (repetitions allowed) of present
        // processes, in order: a conjunction.
        let init_val;
        let init_err;
        {
            let mut sym = Sym {
                inst: &inst,
                c: &mut c,
                frame: &mut f0,
                agg: agg.as_ref(),
                floor: 0,
            };
            let mut items = Vec::new();
            'all: for init in &model.inits {
                for tuple in inst.all_tuples(init.params) {
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
            (init_val, init_err) = sym.combine(&items, true);
            // In the aggregate, the cells that exist at the width hold values of their
            // type at the width (process ids at most the width, ranges at the width);
            // the others, never observed, start at their lowest value so the solver
            // does not range over them.
            if let Some(a) = sym.agg {
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
                        sym.c.clause(&[exists, lowest]);
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
                    let exists: Vec<Lit> = slot
                        .index
                        .iter()
                        .zip(&var.dims)
                        .map(|(&i, &d)| a.index_exists(sym.c, d, i, 0))
                        .collect();
                    let exists = sym.c.and(&exists);
                    sym.c.clause(&[-exists, -out]);
                }
            }
        }
        let init_ok = c.and2(init_val, -init_err);
        c.clause(&[init_ok, init_err]);
        let instances = transition_instances(&inst);
        let mut u = Unroller {
            inst,
            c,
            enc,
            frames: vec![f0],
            steps: Vec::new(),
            instances,
            init_ok,
            init_err,
            evals: vec![None],
            bad: HashMap::new(),
            sizes: Vec::new(),
            agg,
        };
        u.sizes.push(u.size());
        u
    }

    pub fn size(&self) -> Size {
        Size {
            vars: self.c.cnf.num_vars,
            clauses: self.c.cnf.num_clauses,
        }
    }

    /// The deepest frame.
    pub fn depth(&self) -> usize {
        self.frames.len() - 1
    }

    fn sym(&mut self, k: usize) -> Sym<'_, 'm> {
        Sym {
            inst: &self.inst,
            c: &mut self.c,
            frame: &mut self.frames[k],
            agg: self.agg.as_ref(),
            floor: 0,
        }
    }

    /// The width of a model's state (the size itself outside the aggregate).
    pub fn width(&self, model: &dyn Fn(Lit) -> bool) -> usize {
        match &self.agg {
            Some(a) => (1..=a.max)
                .find(|&w| model(a.width[w - 1]))
                .unwrap_or(a.max),
            None => self.inst.n,
        }
    }

    /// Every transition instance evaluated on frame k (cached).
    pub fn evals(&mut self, k: usize) -> &[InstanceEval] {
        if self.evals[k].is_none() {
            let model = self.inst.model;
            let instances = self.instances.clone();
            let mut out = Vec::with_capacity(instances.len());
            for (t, params) in &instances {
                out.push(self.eval_instance(k, &model.transitions[*t], params));
            }
            self.evals[k] = Some(out);
        }
        self.evals[k].as_ref().unwrap()
    }

    fn eval_instance(&mut self, k: usize, tr: &Transition, params: &[i64]) -> InstanceEval {
        let n = self.inst.n as i64;
        let mut sym = self.sym(k);
        // In the aggregate, the instance exists when its parameters are present.
        let (pres, mut env) = sym.bind(tr.locals.len(), params);
        if pres == FALSE {
            return InstanceEval {
                present: FALSE,
                enabled: FALSE,
                err: FALSE,
                writes: Vec::new(),
                anys: Vec::new(),
            };
        }
        // Evaluated as if present; `pres` conditions the result at the end.
        let (g, ge) = sym.formula(&mut env, &tr.guard);
        let mut reached = sym.c.and2(g, -ge);
        let mut errs = vec![ge];
        let mut writes = Vec::new();
        let mut anys = Vec::new();
        for u in &tr.updates {
            if reached == FALSE {
                break;
            }
            let layout = &sym.inst.vars[u.var];
            let (lo, hi) = (layout.lo, layout.hi);
            match &u.value {
                UpdValue::Term(e) => {
                    let binders = u.binders(sym.inst.model);
                    let ranges: Vec<(i64, i64)> =
                        binders.iter().map(|b| sym.inst.domain(b.1)).collect();
                    if ranges.iter().any(|(a, b)| b < a) {
                        continue;
                    }
                    let mut cur: Vec<i64> = ranges.iter().map(|r| r.0).collect();
                    loop {
                        for (b, v) in binders.iter().zip(&cur) {
                            env[b.0] = *v;
                        }
                        // A bound index ranges over the cells existing at the width.
                        let bind_ok = match sym.agg {
                            Some(a) => {
                                let ok: Vec<Lit> = binders
                                    .iter()
                                    .zip(&cur)
                                    .map(|(b, &v)| a.index_exists(sym.c, b.1, v, sym.floor))
                                    .collect();
                                sym.c.and(&ok)
                            }
                            None => TRUE,
                        };
                        if bind_ok == FALSE {
                            if !crate::model::instance::odometer(&mut cur, &ranges) {
                                break;
                            }
                            continue;
                        }
                        let idx: Vec<Expr> = u
                            .index
                            .iter()
                            .map(|ix| match ix {
                                Index::Term(x) => x.clone(),
                                Index::Bind(id) => Expr::Const(env[*id], Ty::Int),
                            })
                            .collect();
                        let (targets, ie) = sym.cells(&mut env, u.var, &idx);
                        let (val, ve) = sym.term(&mut env, e);
                        let ty = sym.inst.model.vars[u.var].ty;
                        let oob = sym.outside_type(ty, &val, lo, hi);
                        // The index is evaluated first; either failing is an error.
                        let e_here = sym.c.or(&[ie, ve, oob]);
                        let e_here = sym.c.and2(bind_ok, e_here);
                        errs.push(sym.c.and2(reached, e_here));
                        reached = sym.c.and2(reached, -e_here);
                        // Writing a cell that does not exist at the width is harmless:
                        // it is never read without a range error.
                        writes.push((targets, Value::Term(val)));
                        if !crate::model::instance::odometer(&mut cur, &ranges) {
                            break;
                        }
                    }
                }
                UpdValue::Nondet => {
                    writes.push((vec![(layout.base, TRUE)], Value::Choice(u.var)));
                }
                UpdValue::Any { var, cond } => {
                    // The interpreter evaluates the condition for every process in order.
                    let mut options = Vec::new();
                    let mut pending = TRUE;
                    let mut any_errs = Vec::new();
                    for j in 1..=n {
                        let present = sym
                            .agg
                            .map(|a| a.present_above(j, sym.floor))
                            .unwrap_or(TRUE);
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
                    writes.push((vec![(layout.base, TRUE)], Value::Choice(u.var)));
                    anys.push((u.var, options));
                }
            }
        }
        let err = sym.c.or(&errs);
        // `errs[0]` is the guard's error; later ones are already conditioned on reaching.
        InstanceEval {
            present: pres,
            enabled: reached,
            err: sym.c.and2(pres, err),
            writes,
            anys,
        }
    }

    /// Add frame k+1 (k = current depth) and the step from frame k to it.
    pub fn add_step(&mut self) {
        let k = self.depth();
        self.evals(k);
        let evals = self.evals[k].take().unwrap();
        let ninst = evals.len();
        let sel: Vec<Lit> = (0..=ninst).map(|_| self.c.var()).collect();
        self.c.clause(&sel);
        self.c.at_most_one(&sel);
        for (t, ev) in evals.iter().enumerate() {
            self.c.imply(sel[t], ev.present);
            self.c.imply(sel[t], ev.enabled);
        }
        // Nondeterministic inputs: one per global that some instance chooses.
        let mut choices: HashMap<VarId, Term> = HashMap::new();
        for ev in &evals {
            for (_, v) in &ev.writes {
                if let Value::Choice(var) = v
                    && !choices.contains_key(var)
                {
                    let l = &self.inst.vars[*var];
                    let size = (l.hi - l.lo + 1) as usize;
                    let cell = Cell::fresh(&mut self.c, self.enc, size);
                    let t = cell.decode(&mut self.c, l.lo, size);
                    choices.insert(*var, t);
                }
            }
        }
        // In the aggregate a chosen value must be of its type at the width.
        if let Some(a) = &self.agg {
            for (t, ev) in evals.iter().enumerate() {
                let floor = self.instances[t].1.iter().copied().max().unwrap_or(0) as usize;
                for (_, v) in &ev.writes {
                    if let Value::Choice(var) = v {
                        let ty = self.inst.model.vars[*var].ty;
                        if let Some(out) = a.outside_at_width(&mut self.c, ty, &choices[var], floor)
                        {
                            self.c.imply(sel[t], -out);
                        }
                    }
                }
            }
        }
        for (t, ev) in evals.iter().enumerate() {
            for (var, options) in &ev.anys {
                let choice = &choices[var];
                let ok: Vec<Lit> = options
                    .iter()
                    .map(|&(j, f)| {
                        let is_j = choice.cond(&mut self.c, j);
                        self.c.and2(is_j, f)
                    })
                    .collect();
                let ok = self.c.or(&ok);
                self.c.imply(sel[t], ok);
            }
        }
        // Writers per cell.
        let nslots = self.inst.slots.len();
        let mut writers: Vec<Vec<(Lit, Term)>> = vec![Vec::new(); nslots];
        for (t, ev) in evals.iter().enumerate() {
            for (targets, v) in &ev.writes {
                let value = match v {
                    Value::Term(x) => x.clone(),
                    Value::Choice(var) => choices[var].clone(),
                };
                for &(s, cond) in targets {
                    if cond == TRUE && value == self.frames[k].term(&mut self.c, &self.inst, s) {
                        continue; // writes the cell's own value
                    }
                    let w = self.c.and2(sel[t], cond);
                    if w != FALSE {
                        writers[s].push((w, value.clone()));
                    }
                }
            }
        }
        let mut cells = Vec::with_capacity(nslots);
        for (s, ws) in writers.into_iter().enumerate() {
            let cur = self.frames[k].cells[s].clone();
            if ws.is_empty() {
                cells.push(cur);
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
            cells.push(cell);
        }
        self.evals[k] = Some(evals);
        self.frames.push(Frame::new(cells));
        self.evals.push(None);
        self.steps.push(StepVars { sel });
        self.sizes.push(self.size());
    }

    /// `unsafe` property `u` at frame k: (bad, range error while evaluating it). The
    /// interpreter tries the tuples of distinct processes in order.
    pub fn bad(&mut self, u: usize, k: usize) -> (Lit, Lit) {
        if let Some(&r) = self.bad.get(&(u, k)) {
            return r;
        }
        let model = self.inst.model;
        let prop = &model.unsafes[u];
        let tuples = self.inst.distinct_tuples(prop.params);
        let mut sym = self.sym(k);
        // The interpreter tries the tuples in order: a disjunction over the tuples of
        // present processes.
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
        self.bad.insert((u, k), r);
        r
    }

    /// Property `u` at frame k for one tuple of processes: (holds, range error).
    pub fn bad_tuple(&mut self, u: usize, k: usize, tuple: &[i64]) -> (Lit, Lit) {
        let model = self.inst.model;
        let prop = &model.unsafes[u];
        let mut sym = self.sym(k);
        let (pres, mut env) = sym.bind(prop.locals.len(), tuple);
        let (v, e) = sym.formula(&mut env, &prop.body);
        (sym.c.and2(pres, v), sym.c.and2(pres, e))
    }

    /// A literal for "frame k is reached from an initial state and violates `u`".
    pub fn unsafe_query(&mut self, u: usize, k: usize) -> Lit {
        let (b, e) = self.bad(u, k);
        self.c.and(&[self.init_ok, b, -e])
    }

    /// A literal for "a range error is met at frame k": evaluating a transition instance
    /// or one of the properties `props` on a reachable frame k, or (k = 0) `init`.
    pub fn range_query(&mut self, k: usize, props: &[usize]) -> Lit {
        self.range_query_where(k, props, false)
    }

    /// `range_query` with `first_only`: only the transition instances whose parameters
    /// are 1, 2, ... and only the first tuple of each property. For a fully symmetric
    /// family this is equivalent at every depth: any range error can be permuted into
    /// one of these.
    pub fn range_query_where(&mut self, k: usize, props: &[usize], first_only: bool) -> Lit {
        let keep: Vec<bool> = self
            .instances
            .iter()
            .map(|(_, ps)| !first_only || ps.iter().enumerate().all(|(i, &p)| p == i as i64 + 1))
            .collect();
        let mut errs: Vec<Lit> = self
            .evals(k)
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(e, _)| e.err)
            .collect();
        for &u in props {
            if first_only {
                let m = self.inst.model.unsafes[u].params as i64;
                if m as usize <= self.inst.n {
                    let t: Vec<i64> = (1..=m).collect();
                    errs.push(self.bad_tuple(u, k, &t).1);
                }
            } else {
                errs.push(self.bad(u, k).1);
            }
        }
        let at_k = self.c.or(&errs);
        let reached = self.c.and2(self.init_ok, at_k);
        if k == 0 {
            self.c.or2(reached, self.init_err)
        } else {
            reached
        }
    }

    /// The instance fired at step k under a model (`None`: idle).
    pub fn fired(&self, k: usize, model: &dyn Fn(Lit) -> bool) -> Option<usize> {
        let sel = &self.steps[k].sel;
        sel[..sel.len() - 1].iter().position(|&l| model(l))
    }
}
