//! Ranking proofs of response properties `G (A => F B)` under weak fairness, one size
//! at a time (`cert::Ranking`; the rule of Z. Manna and A. Pnueli for response under
//! justice, with helpful transitions; its automatic search after the *invisible
//! ranking* of Y. Fang, N. Piterman, A. Pnueli and L. Zuck, VMCAI 2004, which reads
//! helpful assertions and rankings off the local states of the processes):
//! 1. an inductive invariant Inv of the model, by one IC3 run on the aggregate of
//!    the sizes (`invariant`: the `unsafe` properties and range errors);
//! 2. the *phases*: the local states of the property's process i (its cells
//!    `X[i]`) reached from A without B, each a node of an abstract graph whose edges
//!    are the steps between them (SAT on one step from Inv); the graph must be
//!    acyclic, and its order is the phases' order;
//! 3. each phase is *helpful* (under fairness: i is enabled in all of it and its own
//!    steps leave it) or *ranked*: the steps that stay in it move the other
//!    processes' local states along an acyclic graph, whose heights are their
//!    weights; a phase that is neither is split by an atom of i's guards
//!    (`Victim[Lev[i]] <> i`), one way only;
//! 4. the certificate is checked by `proof::check` (`rank`) before it is returned.
//!
//! The search shares with that check the model, the language and the transition
//! system (`Unroller`, `fair_step`), no more: it reads its invariant and formulas
//! from its own text and asks the same one-step questions with its own queries, and
//! `proof::check` is only asked for its verdict (docs/internals.md, "The trust base").
//!
//! It proves, never refutes: a size it cannot rank is left to the other engines.

pub mod engine;
mod reading;

use crate::cert::{CertLemma, Certificate, Evidence, RankPhase, Ranking, text_hash};
use crate::engine::{Control, Problem};
use crate::ic3::engine::Ic3Engine;
use crate::lang::print::expr_text;
use crate::live::response::{self, Response};
use crate::model::ir::{Expr, Local, Model, Ty};
use crate::sat::{Backend, Lit, SolveResult, SolverKind, Stop};
use crate::transys::StateVar;
use crate::transys::frame::Encoding;
use crate::transys::unroll::Unroller;
use reading::{augmented, guard_atoms};
use std::collections::{BTreeMap, HashMap};

/// At most this many local states of the property's process.
const MAX_PHASES: usize = 400;

/// An invariant's lemmas (over an aggregate) and the sizes it holds at.
pub type Invariant = (Vec<CertLemma>, Vec<usize>);

/// The invariant the rankings of sizes `min..=max` stand on: one IC3 run on their
/// aggregate (`ic3::engine`, seeded by the smallest sizes; the model's `unsafe`
/// properties and range errors), as certificate lemmas, and the sizes it holds at
/// (those where no property is violated); `None` when a limit stopped IC3.
pub fn invariant(
    model: &Model,
    min: usize,
    max: usize,
    solver: SolverKind,
    ctl: &Control,
) -> Result<Option<Invariant>, String> {
    let p = Problem::new(model, min, max, (0..model.unsafes.len()).collect());
    let quiet = Control {
        progress: false,
        ..ctl.clone()
    };
    let eng = Ic3Engine::new(solver, true);
    let (ts, out) = eng.run(&p, &quiet, &[])?;
    let Some(inv) = out.invariant else {
        return Ok(None);
    };
    let sizes = (min..=max)
        .filter(|&n| !out.cexs.iter().any(|c| c.width == n))
        .collect();
    Ok(Some((
        inv.iter().map(|l| l.to_cert(&ts, (min, max))).collect(),
        sizes,
    )))
}

/// A ranking proof of `name` at size n over the invariant `lemmas` (claimed at n),
/// checked, or why none was found (`Ok(Err)`).
pub fn prove_size(
    model: &Model,
    name: &str,
    n: usize,
    fair: bool,
    lemmas: &[CertLemma],
    solver: SolverKind,
    stop: &Stop,
) -> Result<Result<Certificate, String>, String> {
    let resp = match response::of(model, name) {
        Ok(r) => r,
        Err(e) => return Ok(Err(e)),
    };
    let mut cert = Certificate {
        model: model.source.name.clone(),
        hash: text_hash(&model.source.text),
        sizes: (n, n),
        engine: "rank".into(),
        proves: vec![(name.to_string(), vec![n])],
        lemmas: lemmas
            .iter()
            .filter(|l| l.at(n))
            .map(|l| CertLemma {
                sizes: None,
                ..l.clone()
            })
            .collect(),
        ints: model.int_window.as_ref().map(|w| (w.lo, w.hi)),
        liveness: Some((name.to_string(), fair)),
        ..Certificate::default()
    };
    let atoms = guard_atoms(model, &resp.var);
    let m = augmented(model, &resp, &cert.lemmas, &atoms)?;
    let mut s = Search::new(model, &m, &resp, atoms, n, fair, solver, stop)?;
    // A limit or too many local states ends the search without a ranking.
    let ranking = match s.run() {
        Ok(Ok(r)) => r,
        Ok(Err(e)) | Err(e) => return Ok(Err(e)),
    };
    cert.evidence = Evidence::Ranking(ranking);
    let checked = crate::proof::check::check(model, &cert, &[n], solver, stop)?;
    match checked.first() {
        Some(c) if c.accepted() => Ok(Ok(cert)),
        Some(c) => Ok(Err(format!(
            "the ranking found was not accepted by the check: {}",
            c.failures
                .iter()
                .chain(&c.unchecked)
                .cloned()
                .collect::<Vec<_>>()
                .join("; ")
        ))),
        None => Ok(Err("the ranking was not checked".into())),
    }
}

/// One component of a process's local state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Cell {
    /// Its cell of an array indexed by one process (not process-valued).
    Own(usize),
    /// Whether a process-valued global points to it (1) or not (0): who holds a
    /// token, whom the home node serves.
    Points(usize),
}

/// The local state of a process: its cells, and the process-valued globals that may
/// point to it.
fn local_cells(model: &Model) -> Vec<Cell> {
    let own = (0..model.vars.len()).filter(|&v| {
        let x = &model.vars[v];
        x.dims == [Ty::Proc] && x.ty != Ty::Proc
    });
    let points = (0..model.vars.len()).filter(|&v| {
        let x = &model.vars[v];
        x.dims.is_empty() && x.ty == Ty::Proc
    });
    own.map(Cell::Own).chain(points.map(Cell::Points)).collect()
}

/// A local state: one value per local cell.
type Val = Vec<i64>;

/// The local states of the process, and the steps between them by index.
type LocalSteps = (Vec<Val>, BTreeMap<usize, Vec<usize>>);

/// A phase under construction: a local state of i, perhaps with an atom's polarity.
#[derive(Clone, Debug)]
struct Phase {
    val: Val,
    atom: Option<(usize, bool)>,
    helpful: bool,
    weights: Vec<(u64, Val)>,
}

struct Search<'a> {
    model: &'a Model,
    n: usize,
    p: i64,
    fair: bool,
    var: String,
    other: String,
    locals: Vec<Cell>,
    atoms: Vec<String>,
    u: Unroller<'a>,
    s: Box<dyn Backend>,
    stop: &'a Stop,
    b: [Lit; 2],
    a0: Lit,
    en_p: Lit,
    by_p: Lit,
    /// Per atom, its literal at frames 0 and 1.
    atom_lits: Vec<[Lit; 2]>,
    /// (process, frame, cell, value) -> literal.
    eqs: HashMap<(i64, usize, Cell, i64), Lit>,
}

impl<'a> Search<'a> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        model: &'a Model,
        m: &'a Model,
        resp: &Response,
        atoms: Vec<String>,
        n: usize,
        fair: bool,
        solver: SolverKind,
        stop: &'a Stop,
    ) -> Result<Search<'a>, String> {
        let var = resp.var.clone();
        let other = ["j", "k", "l", "m", "x", "y"]
            .into_iter()
            .find(|o| *o != var)
            .expect("six names: one differs from the variable")
            .to_string();
        let mut u = Unroller::new(m, n, Encoding::Binary);
        u.add_step();
        let base = model.unsafes.len();
        let extra = m.unsafes.len() - atoms.len() - 2;
        // Inv at frame 0: the lemmas' blocks lie between the model's and A's.
        let all: Vec<usize> = (0..base).collect();
        let lemmas: Vec<(usize, bool)> = (base..extra).map(|p| (p, false)).collect();
        let any = u.some_violated(0, &lemmas, &all);
        u.c.assert(-any);
        let p = 1;
        let a0 = u.holds(extra, 0, &[p]);
        let b = [u.holds(extra + 1, 0, &[p]), u.holds(extra + 1, 1, &[p])];
        let atom_lits: Vec<[Lit; 2]> = (0..atoms.len())
            .map(|k| {
                [
                    u.holds(extra + 2 + k, 0, &[p]),
                    u.holds(extra + 2 + k, 1, &[p]),
                ]
            })
            .collect();
        let (en_p, by_p) = u.fair_step(0, p);
        let s = solver.create_plain()?;
        Ok(Search {
            model,
            n,
            p,
            fair,
            var,
            other,
            locals: local_cells(model),
            atoms,
            u,
            s,
            stop,
            b,
            a0,
            en_p,
            by_p,
            atom_lits,
            eqs: HashMap::new(),
        })
    }

    fn eq(&mut self, q: i64, f: usize, v: Cell, val: i64) -> Lit {
        if let Some(&l) = self.eqs.get(&(q, f, v, val)) {
            return l;
        }
        let slots = &self.u.inst.slots;
        let l = match v {
            Cell::Own(a) => {
                let slot = slots
                    .iter()
                    .position(|s| s.var == a && s.index == [q])
                    .expect("a cell of the process");
                let t = self.u.ts.eq(StateVar::Cell(slot), val, false);
                self.u.lit(f, t)
            }
            Cell::Points(g) => {
                let slot = slots
                    .iter()
                    .position(|s| s.var == g && s.index.is_empty())
                    .expect("a process-valued global");
                let t = self.u.ts.eq(StateVar::Cell(slot), q, false);
                let at = self.u.lit(f, t);
                if val == 1 { at } else { -at }
            }
        };
        self.eqs.insert((q, f, v, val), l);
        l
    }

    fn domain(&self, v: Cell) -> (i64, i64) {
        let Cell::Own(a) = v else {
            return (0, 1);
        };
        let s = self
            .u
            .inst
            .slots
            .iter()
            .find(|s| s.var == a && s.index == [self.p])
            .expect("a cell of the process");
        (s.lo, s.hi)
    }

    fn val_lit(&mut self, q: i64, f: usize, val: &Val) -> Lit {
        let ls: Vec<Lit> = self
            .locals
            .clone()
            .iter()
            .zip(val)
            .map(|(&v, &x)| self.eq(q, f, v, x))
            .collect();
        self.u.c.and(&ls)
    }

    /// The local state of process q at frame f in the last model.
    fn val_of(&mut self, q: i64, f: usize) -> Val {
        let mut out = Vec::new();
        for v in self.locals.clone() {
            let (lo, hi) = self.domain(v);
            let x = (lo..=hi)
                .find(|&x| {
                    let l = self.eq(q, f, v, x);
                    self.s.value(l)
                })
                .unwrap_or(lo);
            out.push(x);
        }
        out
    }

    fn sat(&mut self, a: &[Lit]) -> Result<bool, String> {
        match self.s.solve(&self.u.c.cnf, a, self.stop) {
            SolveResult::Sat => Ok(true),
            SolveResult::Unsat => Ok(false),
            SolveResult::Unknown => Err("stopped by a limit".into()),
        }
    }

    fn phase_lit(&mut self, ph: &Phase, f: usize) -> Lit {
        let v = self.val_lit(self.p, f, &ph.val.clone());
        match ph.atom {
            Some((k, pol)) => {
                let a = self.atom_lits[k][f];
                self.u.c.and2(v, if pol { a } else { -a })
            }
            None => v,
        }
    }

    /// Every local state of i (frame `f`) with `cond` (an assumption list), by
    /// enumeration with blocking literals.
    fn enumerate(&mut self, cond: &[Lit], q: i64, f: usize) -> Result<Vec<Val>, String> {
        let mut out: Vec<Val> = Vec::new();
        loop {
            let mut a = cond.to_vec();
            for v in out.clone() {
                let l = self.val_lit(q, f, &v);
                a.push(-l);
            }
            if !self.sat(&a)? {
                return Ok(out);
            }
            let v = self.val_of(q, f);
            if out.contains(&v) || out.len() >= MAX_PHASES {
                return Err("too many local states".into());
            }
            out.push(v);
        }
    }

    fn run(&mut self) -> Result<Result<Ranking, String>, String> {
        let (seen, edges) = match self.local_states()? {
            Ok(x) => x,
            Err(e) => return Ok(Err(e)),
        };
        // The order: a phase after every phase it steps to (nearest the goal first).
        let Some(order) = topo(seen.len(), &edges) else {
            return Ok(Err(
                "the local states of the process form a cycle of steps without the response".into(),
            ));
        };
        // 3. Each phase: helpful, ranked, or split by an atom.
        let mut phases: Vec<Phase> = Vec::new();
        for k in order {
            let v = seen[k].clone();
            let whole = Phase {
                val: v.clone(),
                atom: None,
                helpful: false,
                weights: Vec::new(),
            };
            if let Some(ph) = self.classify(whole)? {
                phases.push(ph);
                continue;
            }
            let Some((lo, hi)) = self.split(&v)? else {
                return Ok(Err(format!(
                    "the local state {} of the process is neither helpful nor ranked",
                    self.val_text(&v, &self.var.clone())
                )));
            };
            phases.push(lo);
            phases.push(hi);
        }
        let var = self.var.clone();
        let other = self.other.clone();
        let phases = self.rank_phases(&phases, &var, &other);
        Ok(Ok(Ranking { var, other, phases }))
    }

    /// Step 2: the local states of i from A without B, and the steps between them (by
    /// their index in the first); `Ok(Err(_))` when they are too many.
    fn local_states(&mut self) -> Result<Result<LocalSteps, String>, String> {
        let p = self.p;
        let (a0, b0, b1) = (self.a0, self.b[0], self.b[1]);
        let mut todo = self.enumerate(&[a0, -b0], p, 0)?;
        let mut seen: Vec<Val> = Vec::new();
        let mut edges: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        let mut pairs: Vec<(Val, Val)> = Vec::new();
        while let Some(v) = todo.pop() {
            if seen.contains(&v) {
                continue;
            }
            seen.push(v.clone());
            if seen.len() > MAX_PHASES {
                return Ok(Err("too many local states of the process".into()));
            }
            let here = self.val_lit(p, 0, &v);
            let same = self.val_lit(p, 1, &v);
            for w in self.enumerate(&[here, -b0, -b1, -same], p, 1)? {
                pairs.push((v.clone(), w.clone()));
                todo.push(w);
            }
        }
        for (v, w) in &pairs {
            let (a, b) = (
                seen.iter()
                    .position(|x| x == v)
                    .expect("every listed state was visited"),
                seen.iter()
                    .position(|x| x == w)
                    .expect("every listed state was visited"),
            );
            edges.entry(a).or_default().push(b);
        }
        Ok(Ok((seen, edges)))
    }

    /// The phase of local state `v` split by the first atom whose halves do not step
    /// into each other both ways and are each helpful or ranked: the lower half
    /// (nearest the goal) first. `None` when no atom splits it.
    fn split(&mut self, v: &Val) -> Result<Option<(Phase, Phase)>, String> {
        let (b0, b1) = (self.b[0], self.b[1]);
        for at in 0..self.atoms.len() {
            let half = |pol| Phase {
                val: v.clone(),
                atom: Some((at, pol)),
                helpful: false,
                weights: Vec::new(),
            };
            let (t, f) = (half(true), half(false));
            let (t0, t1, f0, f1) = (
                self.phase_lit(&t, 0),
                self.phase_lit(&t, 1),
                self.phase_lit(&f, 0),
                self.phase_lit(&f, 1),
            );
            let t_to_f = self.sat(&[t0, -b0, f1, -b1])?;
            let f_to_t = self.sat(&[f0, -b0, t1, -b1])?;
            if t_to_f && f_to_t {
                continue;
            }
            let (lo, hi) = if t_to_f { (f, t) } else { (t, f) };
            let (Some(lo), Some(hi)) = (self.classify(lo)?, self.classify(hi)?) else {
                continue;
            };
            return Ok(Some((lo, hi)));
        }
        Ok(None)
    }

    /// The phases as the ranking states them: each local state as a formula over `var`
    /// (with its atom's polarity), its weights over `other`.
    fn rank_phases(&self, phases: &[Phase], var: &str, other: &str) -> Vec<RankPhase> {
        phases
            .iter()
            .map(|ph| RankPhase {
                helpful: ph.helpful,
                formula: {
                    let mut f = self.val_text(&ph.val, var);
                    if let Some((k, pol)) = ph.atom {
                        let a = &self.atoms[k];
                        f = if pol {
                            format!("{f} && ({a})")
                        } else {
                            format!("{f} && not ({a})")
                        };
                    }
                    f
                },
                weights: ph
                    .weights
                    .iter()
                    .map(|(w, v)| (*w, self.val_text(v, other)))
                    .collect(),
            })
            .collect()
    }

    /// The phase as helpful or ranked, or `None`.
    fn classify(&mut self, mut ph: Phase) -> Result<Option<Phase>, String> {
        let (b0, b1) = (self.b[0], self.b[1]);
        let x0 = self.phase_lit(&ph, 0);
        let x1 = self.phase_lit(&ph, 1);
        if !self.sat(&[x0, -b0])? {
            return Ok(None);
        }
        if self.fair {
            let (en, by) = (self.en_p, self.by_p);
            if !self.sat(&[x0, -b0, -en])? && !self.sat(&[x0, -b0, x1, -b1, by])? {
                ph.helpful = true;
                return Ok(Some(ph));
            }
        }
        // Ranked: the steps staying in the phase move other processes' local states
        // along an acyclic graph, and none leaves every other process as it was.
        let all_others: Vec<i64> = (1..=self.n as i64).filter(|&j| j != self.p).collect();
        let Some(&first) = all_others.first() else {
            return Ok(None);
        };
        // In a fully symmetric family one other process stands for all.
        let others = if self.model.is_symmetric() {
            vec![first]
        } else {
            all_others.clone()
        };
        let mut unchanged = Vec::new();
        for &j in &all_others {
            for v in self.locals.clone() {
                let (lo, hi) = self.domain(v);
                for x in lo..=hi {
                    let a = self.eq(j, 0, v, x);
                    let b = self.eq(j, 1, v, x);
                    let same = self.u.c.iff(a, b);
                    unchanged.push(same);
                }
            }
        }
        let still = self.u.c.and(&unchanged);
        if self.sat(&[x0, -b0, x1, -b1, still])? {
            return Ok(None);
        }
        let mut nodes: Vec<Val> = Vec::new();
        let mut edges: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for j in others {
            let mut blocked: Vec<Lit> = Vec::new();
            loop {
                let mut a = vec![x0, -b0, x1, -b1];
                a.extend(&blocked);
                if !self.sat(&a)? {
                    break;
                }
                let (v, w) = (self.val_of(j, 0), self.val_of(j, 1));
                let mut idx = |x: &Val| match nodes.iter().position(|y| y == x) {
                    Some(i) => i,
                    None => {
                        nodes.push(x.clone());
                        nodes.len() - 1
                    }
                };
                let (iv, iw) = (idx(&v), idx(&w));
                if iv != iw {
                    edges.entry(iv).or_default().push(iw);
                }
                if nodes.len() > MAX_PHASES {
                    return Ok(None);
                }
                let lv = self.val_lit(j, 0, &v);
                let lw = self.val_lit(j, 1, &w);
                let pair = self.u.c.and2(lv, lw);
                blocked.push(-pair);
            }
        }
        let Some(order) = topo(nodes.len(), &edges) else {
            return Ok(None);
        };
        // Heights: the longest path down from each node.
        let mut h = vec![0u64; nodes.len()];
        for &k in &order {
            h[k] = edges
                .get(&k)
                .map_or(0, |ws| ws.iter().map(|&w| h[w] + 1).max().unwrap_or(0));
        }
        let mut weights: Vec<(u64, Val)> = (0..nodes.len())
            .filter(|&k| h[k] > 0)
            .map(|k| (h[k], nodes[k].clone()))
            .collect();
        weights.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        ph.weights = weights;
        Ok(Some(ph))
    }

    /// A local state as a formula over process `name`.
    fn val_text(&self, val: &Val, name: &str) -> String {
        if self.locals.is_empty() {
            return "True".into();
        }
        let locals = [Local {
            name: name.to_string(),
            ty: Ty::Proc,
        }];
        self.locals
            .iter()
            .zip(val)
            .map(|(&v, &x)| {
                use crate::model::ir::CmpOp;
                let e = match v {
                    Cell::Own(a) => Expr::Cmp(
                        CmpOp::Eq,
                        Box::new(Expr::Read(a, vec![Expr::Local(0)])),
                        Box::new(Expr::Const(x, self.model.vars[a].ty)),
                    ),
                    Cell::Points(g) => Expr::Cmp(
                        if x == 1 { CmpOp::Eq } else { CmpOp::Ne },
                        Box::new(Expr::Read(g, Vec::new())),
                        Box::new(Expr::Local(0)),
                    ),
                };
                expr_text(self.model, &locals, &e)
            })
            .collect::<Vec<_>>()
            .join(" && ")
    }
}

/// A topological order of the nodes, successors first; `None` on a cycle.
fn topo(n: usize, edges: &BTreeMap<usize, Vec<usize>>) -> Option<Vec<usize>> {
    // 0: new, 1: on the stack, 2: done.
    let mut mark = vec![0u8; n];
    let mut out = Vec::new();
    fn visit(
        k: usize,
        edges: &BTreeMap<usize, Vec<usize>>,
        mark: &mut [u8],
        out: &mut Vec<usize>,
    ) -> bool {
        match mark[k] {
            1 => return false,
            2 => return true,
            _ => {}
        }
        mark[k] = 1;
        for &w in edges.get(&k).map(Vec::as_slice).unwrap_or(&[]) {
            if w != k && !visit(w, edges, mark, out) {
                return false;
            }
        }
        mark[k] = 2;
        out.push(k);
        true
    }
    for k in 0..n {
        if !visit(k, edges, &mut mark, &mut out) {
            return None;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topological_order_successors_first_and_cycles_refused() {
        let edges: BTreeMap<usize, Vec<usize>> = [(0, vec![1, 2]), (1, vec![2]), (3, vec![3])]
            .into_iter()
            .collect();
        // A self-loop is no cycle between phases.
        let order = topo(4, &edges).unwrap();
        let pos = |k: usize| order.iter().position(|&x| x == k).unwrap();
        assert!(pos(2) < pos(1) && pos(1) < pos(0));
        let cyclic: BTreeMap<usize, Vec<usize>> = [(0, vec![1]), (1, vec![2]), (2, vec![0])]
            .into_iter()
            .collect();
        assert!(topo(3, &cyclic).is_none());
    }

    /// The atoms of i's guards: Peterson's `may_pass` gives its disjunction and both
    /// disjuncts; atoms over another parameter of the transition are left out.
    #[test]
    fn guard_atoms_over_the_first_process_alone() {
        let m = crate::lang::load_file("families/peterson.cub").unwrap();
        let atoms = guard_atoms(&m, "i");
        assert!(
            atoms.iter().any(|a| a == "(Victim[Lev[i]] <> i)"),
            "{atoms:?}"
        );
        // A quantifier binds its own process: an atom over i still.
        assert!(
            atoms.iter().any(|a| a.starts_with("(forall j <> i.")),
            "{atoms:?}"
        );
        let two = crate::lang::load_str(
            "t.cub",
            "type l = A | B\narray P[proc] : l\ninit (z) { P[z] = A }\n\
             transition t (i j) requires { P[i] = A && P[j] = B } { P[i] := B; }\n",
        )
        .unwrap();
        assert_eq!(guard_atoms(&two, "i"), vec!["(P[i] = A)".to_string()]);
    }
}
