//! The unrolling of a transition system (`transys`) into one CNF for bounded model
//! checking: frame 0 is free (fresh variables under the state constraints; `init` is
//! part of each query, as the literal `init_ok`), and step k instantiates the
//! template's step constraints and next-state gates over frame k, giving frame k+1.
//! Literals are instantiated on demand, cone by cone, with structural hashing in the
//! unrolled circuit, so a frame holds only what its constraints and queries use.

use super::aggregate::Agg;
use super::frame::{Cell, Encoding, Frame};
use super::{FIRE, Por, STATE, STEP, Transys};
use crate::model::instance::Instance;
use crate::model::ir::Model;
use crate::sat::Lit;
use crate::sat::circuit::{Circuit, TRUE};
use std::collections::HashMap;

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

/// A transition system unrolled to some depth.
pub struct Unroller<'m> {
    pub ts: Transys<'m>,
    /// The instance laid out by the transition system (the aggregate's for a range).
    pub inst: Instance<'m>,
    /// The unrolled circuit.
    pub c: Circuit,
    /// Per frame: template variable -> unrolled literal (0: not instantiated yet).
    maps: Vec<Vec<Lit>>,
    pub frames: Vec<Frame>,
    pub steps: Vec<StepVars>,
    /// `(transition, parameters)` of every instance.
    pub instances: Vec<(usize, Vec<i64>)>,
    /// Frame 0 satisfies `init` (evaluated without error).
    pub init_ok: Lit,
    /// Evaluating `init` on frame 0 meets a range error.
    pub init_err: Lit,
    /// The presence bits and width literals (the same in every frame).
    pub agg: Agg,
    bad: HashMap<(usize, usize), (Lit, Lit)>,
    /// Formula size after each frame was added.
    pub sizes: Vec<Size>,
    /// Commuting pairs of step selectors whose order is fixed between adjacent steps
    /// (`Transys::commuting_pairs`); empty: every interleaving is kept.
    commuting: Vec<(usize, usize)>,
}

/// Instantiate template literal `l` into `out` under `map`: gates by their inputs,
/// any other unmapped variable (a step input) as a fresh variable.
fn instantiate(tpl: &Circuit, out: &mut Circuit, map: &mut Vec<Lit>, l: Lit) -> Lit {
    let v = l.unsigned_abs() as usize;
    if map.len() <= tpl.cnf.num_vars as usize {
        map.resize(tpl.cnf.num_vars as usize + 1, 0);
    }
    if map[v] == 0 {
        let mut stack = vec![v];
        let mut ins = Vec::new();
        while let Some(&x) = stack.last() {
            if map[x] != 0 {
                stack.pop();
                continue;
            }
            match tpl.gate(x as Lit) {
                None => {
                    map[x] = out.var();
                    stack.pop();
                }
                Some(inputs) => {
                    let before = stack.len();
                    for &i in inputs {
                        if map[i.unsigned_abs() as usize] == 0 {
                            stack.push(i.unsigned_abs() as usize);
                        }
                    }
                    if stack.len() == before {
                        ins.clear();
                        ins.extend(inputs.iter().map(|&i| {
                            let m = map[i.unsigned_abs() as usize];
                            if i < 0 { -m } else { m }
                        }));
                        map[x] = out.and(&ins);
                        stack.pop();
                    }
                }
            }
        }
    }
    if l < 0 { -map[v] } else { map[v] }
}

impl<'m> Unroller<'m> {
    /// Frame 0 of the instance of size `n`.
    pub fn new(model: &'m Model, n: usize, enc: Encoding) -> Unroller<'m> {
        Unroller::from_transys(Transys::new(model, n, n, enc))
    }

    /// Frame 0 of the aggregate of sizes `min..=max`.
    pub fn aggregate(model: &'m Model, min: usize, max: usize, enc: Encoding) -> Unroller<'m> {
        Unroller::from_transys(Transys::new(model, min, max, enc))
    }

    /// Frame 0 of a transition system: fresh state variables under the state
    /// constraints.
    pub fn from_transys(ts: Transys<'m>) -> Unroller<'m> {
        let mut c = Circuit::new();
        let mut map = vec![0; ts.c.cnf.num_vars as usize + 1];
        map[TRUE as usize] = TRUE;
        for (x, _) in ts.latches() {
            map[x.unsigned_abs() as usize] = c.var();
        }
        let mut u = Unroller {
            inst: ts.inst.clone(),
            instances: ts.instances.clone(),
            agg: ts.agg.clone(),
            ts,
            c,
            maps: vec![map],
            frames: Vec::new(),
            steps: Vec::new(),
            init_ok: TRUE,
            init_err: TRUE,
            bad: HashMap::new(),
            sizes: Vec::new(),
            commuting: Vec::new(),
        };
        let cons: Vec<Vec<Lit>> = u.ts.c.group(STATE).map(|c| c.to_vec()).collect();
        for cl in cons {
            let lits: Vec<Lit> = cl.iter().map(|&l| u.lit(0, l)).collect();
            u.c.clause(&lits);
        }
        let frame = u.frame(0);
        u.frames.push(frame);
        u.init_ok = u.lit(0, u.ts.init);
        u.init_err = u.lit(0, u.ts.init_err);
        // Presence never changes: frame 0's literals serve every frame.
        let absent: Vec<Lit> = u.ts.agg.absent.clone();
        u.agg.absent = absent.iter().map(|&a| u.lit(0, a)).collect();
        let width: Vec<Lit> = u.ts.agg.width.clone();
        u.agg.width = width.iter().map(|&w| u.lit(0, w)).collect();
        u.sizes.push(u.size());
        u
    }

    /// Keep only the lexicographically least reordering of each run (for steps added
    /// from now on): sound for queries about the final frame of runs from an initial
    /// state, since reordering commuting steps keeps the length and the final state.
    /// Not for queries about intermediate frames (k-induction's step case).
    pub fn reduce_interleavings(&mut self, por: Por) {
        self.commuting = self.ts.commuting_pairs(por);
    }

    /// Template literal `l` at frame k.
    pub fn lit(&mut self, k: usize, l: Lit) -> Lit {
        instantiate(&self.ts.c, &mut self.c, &mut self.maps[k], l)
    }

    fn frame(&mut self, k: usize) -> Frame {
        let cells: Vec<Cell> = self.ts.cur.cells.clone();
        Frame::new(
            cells
                .iter()
                .map(|cell| match cell {
                    Cell::Binary(b) => Cell::Binary(b.iter().map(|&l| self.lit(k, l)).collect()),
                    Cell::OneHot(h) => Cell::OneHot(h.iter().map(|&l| self.lit(k, l)).collect()),
                })
                .collect(),
        )
    }

    pub fn size(&self) -> Size {
        Size {
            vars: self.c.cnf.num_vars,
            clauses: self.c.cnf.num_clauses,
        }
    }

    /// Step k fires a transition instance (it is no idle step). Stutter-free runs
    /// reach the same states as runs with idle steps, so an induction over them is
    /// sound, and without the stutter a state need not repeat (k-induction's step case,
    /// `proof::check` of an `induction k` certificate).
    pub fn forbid_idle(&mut self, k: usize) {
        let l = self.idle(k);
        self.c.assert(-l);
    }

    /// "Step k is idle".
    pub fn idle(&mut self, k: usize) -> Lit {
        let idle = *self.ts.sel.last().expect("the idle selector");
        self.lit(k, idle)
    }

    /// "Frames i and j hold different states": some literal of some cell differs.
    pub fn differ(&mut self, i: usize, j: usize) -> Lit {
        let (a, b) = (self.frames[i].cells.clone(), self.frames[j].cells.clone());
        let mut diff = Vec::new();
        for (ca, cb) in a.iter().zip(&b) {
            for (&x, &y) in ca.lits().iter().zip(cb.lits()) {
                let same = self.c.iff(x, y);
                diff.push(-same);
            }
        }
        self.c.or(&diff)
    }

    /// The deepest frame.
    pub fn depth(&self) -> usize {
        self.frames.len() - 1
    }

    /// The width of a model's state (the size itself for one size).
    pub fn width(&self, model: &dyn Fn(Lit) -> bool) -> usize {
        (1..=self.agg.max)
            .find(|&w| model(self.agg.width[w - 1]))
            .unwrap_or(self.agg.max)
    }

    /// Add frame k+1 (k = current depth) and the step from frame k to it.
    pub fn add_step(&mut self) {
        let k = self.depth();
        // Under the FIRE constraints a selected instance fires, so "fires" is its
        // selector: the writes are conditioned on the selector alone, as few gates as
        // an encoding without the functional next state would need.
        for t in 0..self.ts.fire.len() {
            let (f, s) = (self.ts.fire[t], self.ts.sel[t]);
            if f != s && self.ts.c.gate(f).is_some() {
                let s = self.lit(k, s);
                self.maps[k][f as usize] = s;
            }
        }
        for g in [STEP, FIRE] {
            let cons: Vec<Vec<Lit>> = self.ts.c.group(g).map(|c| c.to_vec()).collect();
            for cl in cons {
                let lits: Vec<Lit> = cl.iter().map(|&l| self.lit(k, l)).collect();
                self.c.clause(&lits);
            }
        }
        let sel: Vec<Lit> = self
            .ts
            .sel
            .clone()
            .iter()
            .map(|&s| self.lit(k, s))
            .collect();
        let mut next = vec![0; self.ts.c.cnf.num_vars as usize + 1];
        next[TRUE as usize] = TRUE;
        for (x, nx) in self.ts.latches() {
            let l = self.lit(k, nx);
            let v = x.unsigned_abs() as usize;
            next[v] = if x < 0 { -l } else { l };
        }
        self.maps.push(next);
        let frame = self.frame(k + 1);
        self.frames.push(frame);
        if let Some(prev) = self.steps.last() {
            for &(a, b) in &self.commuting {
                self.c.clause(&[-prev.sel[a], -sel[b]]);
            }
        }
        self.steps.push(StepVars { sel });
        self.sizes.push(self.size());
    }

    /// `unsafe` property `u` at frame k: (bad, range error while evaluating it).
    pub fn bad(&mut self, u: usize, k: usize) -> (Lit, Lit) {
        if let Some(&r) = self.bad.get(&(u, k)) {
            return r;
        }
        let (b, e) = self.ts.bad(u);
        let r = (self.lit(k, b), self.lit(k, e));
        self.bad.insert((u, k), r);
        r
    }

    /// Property `u` at frame k for one tuple of processes: (holds, range error).
    pub fn bad_tuple(&mut self, u: usize, k: usize, tuple: &[i64]) -> (Lit, Lit) {
        let (b, e) = self.ts.bad_tuple(u, tuple);
        (self.lit(k, b), self.lit(k, e))
    }

    /// "Property `u` holds at frame k for one tuple of processes": its formula is true
    /// and its evaluation meets no range error (a formula that meets one does not hold).
    pub fn holds(&mut self, u: usize, k: usize, tuple: &[i64]) -> Lit {
        let (b, e) = self.bad_tuple(u, k, tuple);
        self.c.and2(b, -e)
    }

    /// "Some lemma is violated at frame k": each lemma a property (its formula holds
    /// for some tuple, without range error), or (`true`) "no range error" (of the
    /// transition instances and the properties `range_props`).
    pub fn some_violated(
        &mut self,
        k: usize,
        lemmas: &[(usize, bool)],
        range_props: &[usize],
    ) -> Lit {
        let mut viol = Vec::new();
        for &(prop, range) in lemmas {
            if range {
                let r = self.ts.range(range_props, false);
                viol.push(self.lit(k, r));
            } else {
                let (b, e) = self.bad(prop, k);
                viol.push(self.c.and2(b, -e));
            }
        }
        self.c.or(&viol)
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

    /// `range_query` with `first_only` (see `Transys::range`).
    pub fn range_query_where(&mut self, k: usize, props: &[usize], first_only: bool) -> Lit {
        let r = self.ts.range(props, first_only);
        let at_k = self.lit(k, r);
        let reached = self.c.and2(self.init_ok, at_k);
        if k == 0 {
            self.c.or2(reached, self.init_err)
        } else {
            reached
        }
    }

    /// A literal for "a store leaving the int window is met at frame k" (trying a
    /// transition instance on a reachable frame k; see `Transys::int_bound`).
    pub fn int_query(&mut self, k: usize, first_only: bool) -> Lit {
        let r = self.ts.int_bound(first_only);
        if r == crate::sat::circuit::FALSE {
            return r;
        }
        let at_k = self.lit(k, r);
        self.c.and2(self.init_ok, at_k)
    }

    /// Step k, for an argument about weakly fair runs (`proof::check::rank`, `rank`;
    /// shared by both as the meaning of a fair step, docs/internals.md "The trust base"):
    /// it idles only where no instance is enabled at frame k (a deadlocked state
    /// repeats, as runs are infinite); and the literals "process p is enabled at frame
    /// k" (an instance whose first parameter is p is present and enabled) and "step k
    /// is one of p's instances".
    pub fn fair_step(&mut self, k: usize, p: i64) -> (Lit, Lit) {
        let mut all = Vec::new();
        let mut en_p = Vec::new();
        let mut by_p = Vec::new();
        for x in 0..self.instances.len() {
            let (pr, en) = (self.ts.evals[x].present, self.ts.evals[x].enabled);
            let pr = self.lit(k, pr);
            let en = self.lit(k, en);
            let e = self.c.and2(pr, en);
            all.push(e);
            if self.instances[x].1.first() == Some(&p) {
                en_p.push(e);
                by_p.push(self.steps[k].sel[x]);
            }
        }
        let some = self.c.or(&all);
        let idle = self.idle(k);
        self.c.clause(&[-idle, -some]);
        (self.c.or(&en_p), self.c.or(&by_p))
    }

    /// The instance fired at step k under a model (`None`: idle).
    pub fn fired(&self, k: usize, model: &dyn Fn(Lit) -> bool) -> Option<usize> {
        let sel = &self.steps[k].sel;
        sel[..sel.len() - 1].iter().position(|&l| model(l))
    }
}
