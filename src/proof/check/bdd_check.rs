//! The same obligations as the SAT check of one size (initiation, consecution one lemma
//! at a time, the claims), decided by binary decision diagrams (R. E. Bryant,
//! *Graph-Based Algorithms for Boolean Function Manipulation*, IEEE ToC 1986) built
//! from the checker's own encoding: the transition system of the model with the lemmas
//! at that size, one-hot cells, as the SAT check unrolls it. Its template circuit's
//! gates are evaluated with BDD operations, one transition instance selected at a time
//! (the other selectors false), and a step's successor is the composition of a lemma's
//! diagram with the next-state gates of the selected instance. Nothing comes from the
//! BDD engine (the `bdd` module, a floor above): not its variables, its translation of
//! the template, nor its image computation. Under the rule of docs/internals.md ("The
//! trust base") the two share the template circuit (`transys`), as the SAT check does;
//! evaluating it into BDDs is the engine's representation (its bits, its order, its
//! budget), so it is written here again. The variable order is read off the
//! certificate's diagrams (a cell a node decides comes above the cells of its
//! children), which only changes the cost, never the answer.
//!
//! It decides `induction 1` certificates whose lemmas at the size are diagrams or
//! formulas of the model; counting lemmas, `no range error`, `no int_bound`,
//! k-induction and `simple path` stay the SAT check's. It gives up (and the caller asks
//! SAT) when the node table fills.

use super::diagram::unbuilt_below;
use super::{NOT_CHECKED, SizeCheck};
use crate::cert::{BddRef, Certificate};
use crate::model::ir::{Model, Ty};
use crate::sat::circuit::{FALSE, TRUE};
use crate::sat::{Lit, Stop};
use crate::transys::frame::{Cell, Encoding};
use crate::transys::{FIRE, STATE, STEP, Transys};
use oxidd::bcdd::{BCDDFunction, BCDDManagerRef};
use oxidd::{BooleanFunction, FunctionSubst, Manager, ManagerRef, Subst, VarNo};
use std::collections::HashMap;

type F = BCDDFunction;

/// Capacity of the check's node table: past it the size goes to the SAT check.
const NODES: usize = 1 << 23;

/// Why the BDD check did not decide a size.
enum GaveUp {
    /// The node table is full: the SAT check decides the size instead.
    Memory,
    /// The limit: the size is not checked.
    Limit,
}

impl From<oxidd::error::OutOfMemory> for GaveUp {
    fn from(_: oxidd::error::OutOfMemory) -> GaveUp {
        GaveUp::Memory
    }
}

type R<T> = Result<T, GaveUp>;

/// Whether the BDD check decides a size whose lemmas are `lemmas` (certificate
/// indices): an `induction 1` certificate without `simple path`, with a diagram among
/// its lemmas at the size and no lemma of the kinds it leaves to SAT.
pub(super) fn applies(
    cert: &Certificate,
    lemmas: &[usize],
    counting: &dyn Fn(usize) -> bool,
) -> bool {
    cert.induction() == 1
        && !cert.simple_path()
        && lemmas.iter().any(|&i| cert.lemmas[i].bdd.is_some())
        && lemmas.iter().all(|&i| {
            let l = &cert.lemmas[i];
            l.bdd.is_some() || (!l.no_range && !l.no_int_bound && !counting(i))
        })
}

/// The check of size `n` by BDDs: `None` when the node table filled up (ask SAT).
/// `m` is the model with the lemmas (lemma i is its property `base + i`), `lemmas` the
/// certificate indices of the lemmas claimed at `n`.
pub(super) fn check_size(
    m: &Model,
    base: usize,
    cert: &Certificate,
    n: usize,
    claims: &[String],
    lemmas: &[usize],
    stop: &Stop,
) -> Option<SizeCheck> {
    let mut c = Check::new(m, n, cert, stop);
    let mut failures = Vec::new();
    let r = c.run(base, claims, lemmas, &mut failures);
    let unchecked = match r {
        Ok(()) => Vec::new(),
        Err(GaveUp::Memory) => return None,
        Err(GaveUp::Limit) => vec![format!("size {n}: {NOT_CHECKED}")],
    };
    Some(SizeCheck {
        size: n,
        certified: if failures.is_empty() && unchecked.is_empty() {
            claims.to_vec()
        } else {
            Vec::new()
        },
        failures,
        unchecked,
        by: super::Checker::Bdd,
    })
}

/// One size's check: the one-hot transition system and its gates as BDDs.
struct Check<'a> {
    ts: Transys<'a>,
    cert: &'a Certificate,
    stop: &'a Stop,
    mgr: BCDDManagerRef,
    /// Template variable of a state literal -> BDD variable.
    state: HashMap<u32, VarNo>,
    /// Template variable of a step input -> BDD variable (made on first use).
    inputs: HashMap<u32, VarNo>,
    /// Selector variable -> its instance (the idle step: `usize::MAX`).
    sel_of: HashMap<u32, usize>,
    /// Per template variable: 1 its cone reads no selector, 2 it does, 0 not known.
    dep: Vec<u8>,
    /// Gates that read no selector, once for every selection.
    shared: HashMap<u32, F>,
    /// Gates under the current selection.
    local: HashMap<u32, F>,
    selected: Option<usize>,
    /// Cell name -> slot.
    slots: HashMap<String, usize>,
    /// The diagram nodes built so far.
    nodes: HashMap<usize, F>,
}

impl<'a> Check<'a> {
    fn new(m: &'a Model, n: usize, cert: &'a Certificate, stop: &'a Stop) -> Check<'a> {
        let ts = Transys::new(m, n, n, Encoding::OneHot);
        let mgr = oxidd::bcdd::new_manager(NODES, 1 << 20, 1);
        let mut sel_of = HashMap::new();
        for (k, &s) in ts.sel.iter().enumerate() {
            let who = if k < ts.instances.len() {
                k
            } else {
                usize::MAX
            };
            sel_of.insert(s.unsigned_abs(), who);
        }
        let slots = (0..ts.inst.slots.len())
            .map(|s| (ts.inst.cell_name(s), s))
            .collect();
        let mut c = Check {
            ts,
            cert,
            stop,
            mgr,
            state: HashMap::new(),
            inputs: HashMap::new(),
            sel_of,
            dep: Vec::new(),
            shared: HashMap::new(),
            local: HashMap::new(),
            selected: None,
            slots,
            nodes: HashMap::new(),
        };
        c.lay_out();
        c
    }

    /// The BDD variables of the state: cells in the order the certificate's diagrams
    /// imply (Kahn's topological order of "a node of this cell has a child of that
    /// one", ties by process and slot), each cell's one-hot literals together.
    fn lay_out(&mut self) {
        let ts = &self.ts;
        let cells = ts.cur.cells.len();
        let key = |s: usize| {
            let slot = &ts.inst.slots[s];
            let dims = &ts.inst.model.vars[slot.var].dims;
            let proc = slot
                .index
                .iter()
                .zip(dims)
                .find(|(_, d)| **d == Ty::Proc)
                .map_or(0, |(&i, _)| i.max(0) as usize);
            (proc, s)
        };
        let mut below: Vec<Vec<usize>> = vec![Vec::new(); cells];
        let mut above = vec![0usize; cells];
        let slot_of = |name: &str| self.slots.get(name).copied();
        let mut edges = std::collections::HashSet::new();
        for node in self.cert.nodes() {
            let Some(a) = slot_of(&node.cell) else {
                continue;
            };
            for child in [node.then, node.else_].into_iter().filter_map(BddRef::node) {
                let Some(b) = self
                    .cert
                    .nodes()
                    .get(child - 1)
                    .and_then(|c| slot_of(&c.cell))
                else {
                    continue;
                };
                if a != b && edges.insert((a, b)) {
                    below[a].push(b);
                    above[b] += 1;
                }
            }
        }
        let mut ready: std::collections::BTreeSet<((usize, usize), usize)> = (0..cells)
            .filter(|&s| above[s] == 0)
            .map(|s| (key(s), s))
            .collect();
        let mut order = Vec::with_capacity(cells);
        while let Some(first) = ready.pop_first() {
            let s = first.1;
            order.push(s);
            for &b in &below[s] {
                above[b] -= 1;
                if above[b] == 0 {
                    ready.insert((key(b), b));
                }
            }
        }
        // A cycle (diagrams that disagree on the order): the rest by the default key.
        let mut rest: Vec<usize> = (0..cells).filter(|s| !order.contains(s)).collect();
        rest.sort_by_key(|&s| key(s));
        order.extend(rest);
        let mut lits: Vec<Lit> = order
            .iter()
            .flat_map(|&s| ts.cur.cells[s].lits().to_vec())
            .collect();
        lits.extend(ts.agg.absent.iter().copied());
        lits.retain(|&l| l != TRUE && l != FALSE);
        let count = lits.len() as u32;
        let start = self.mgr.with_manager_exclusive(|m| m.add_vars(count)).start;
        for (k, l) in lits.iter().enumerate() {
            self.state.insert(l.unsigned_abs(), start + k as u32);
        }
    }

    fn tt(&self) -> F {
        self.mgr.with_manager_shared(|m| F::t(m))
    }

    fn ff(&self) -> F {
        self.mgr.with_manager_shared(|m| F::f(m))
    }

    fn var(&self, v: VarNo) -> R<F> {
        Ok(self.mgr.with_manager_shared(|m| F::var(m, v))?)
    }

    fn poll(&self) -> R<()> {
        if self.stop.now() {
            return Err(GaveUp::Limit);
        }
        Ok(())
    }

    /// Whether the cone of template variable v reads a selector (its gate inputs are
    /// numbered below it, so they are known once it is asked).
    fn depends(&mut self, v: u32) -> bool {
        let n = self.ts.c.cnf.num_vars as usize + 1;
        for x in self.dep.len()..n {
            let d = self.sel_of.contains_key(&(x as u32))
                || self.ts.c.gate(x as Lit).is_some_and(|ins| {
                    ins.iter().any(|i| self.dep[i.unsigned_abs() as usize] == 2)
                });
            self.dep.push(if d { 2 } else { 1 });
        }
        self.dep[v as usize] == 2
    }

    /// The value of template variable v if known without evaluating a gate.
    fn known(&mut self, v: u32) -> R<Option<F>> {
        if v == TRUE as u32 {
            return Ok(Some(self.tt()));
        }
        if let Some(&who) = self.sel_of.get(&v) {
            let on = self.selected == Some(who);
            return Ok(Some(if on { self.tt() } else { self.ff() }));
        }
        if let Some(&x) = self.state.get(&v) {
            return Ok(Some(self.var(x)?));
        }
        let memo = if self.depends(v) {
            &self.local
        } else {
            &self.shared
        };
        Ok(memo.get(&v).cloned())
    }

    /// Template literal `l` as a BDD over the state and the step inputs, with the
    /// current selection.
    fn eval(&mut self, l: Lit) -> R<F> {
        let root = l.unsigned_abs();
        let mut stack = vec![root];
        while let Some(&v) = stack.last() {
            if self.known(v)?.is_some() {
                stack.pop();
                continue;
            }
            let Some(ins) = self.ts.c.gate(v as Lit).map(|i| i.to_vec()) else {
                // A step input: a choice, or an auxiliary variable of a constraint.
                let x = self.mgr.with_manager_exclusive(|m| m.add_vars(1)).start;
                self.inputs.insert(v, x);
                let f = self.var(x)?;
                self.shared.insert(v, f);
                stack.pop();
                continue;
            };
            // An input known false decides the AND gate: the gates of the instances
            // not selected are never built.
            let mut pending = Vec::new();
            let mut zero = false;
            for &i in &ins {
                match self.known(i.unsigned_abs())? {
                    Some(f) => {
                        let false_here = if i < 0 { f.valid() } else { !f.satisfiable() };
                        if false_here {
                            zero = true;
                            break;
                        }
                    }
                    None => pending.push(i.unsigned_abs()),
                }
            }
            if !zero && !pending.is_empty() {
                stack.extend(pending);
                continue;
            }
            let mut acc = self.tt();
            if zero {
                acc = self.ff();
            } else {
                for &i in &ins {
                    let f = self.known(i.unsigned_abs())?.expect("evaluated");
                    let f = if i < 0 { f.not()? } else { f };
                    acc = acc.and(&f)?;
                    if !acc.satisfiable() {
                        break;
                    }
                }
            }
            if self.depends(v) {
                self.local.insert(v, acc);
            } else {
                self.shared.insert(v, acc);
            }
            stack.pop();
        }
        let f = self.known(root)?.expect("evaluated");
        Ok(if l < 0 { f.not()? } else { f })
    }

    fn select(&mut self, t: Option<usize>) {
        if self.selected != t {
            self.local.clear();
            self.selected = t;
        }
    }

    /// A clause of the template as a BDD.
    fn clause(&mut self, cl: &[Lit]) -> R<F> {
        let mut c = self.ff();
        for &l in cl {
            let x = self.eval(l)?;
            c = c.or(&x)?;
        }
        Ok(c)
    }

    /// The states of the encoding: one value per cell (exactly one of a one-hot cell's
    /// literals, which the template says with an at-most-one constraint whose
    /// auxiliary variables are left out here), and the state constraints on the state
    /// alone.
    fn valid(&mut self) -> R<F> {
        let mut v = self.tt();
        let cells: Vec<Cell> = self.ts.cur.cells.clone();
        for cell in &cells {
            let Cell::OneHot(hots) = cell else {
                unreachable!("the check's cells are one-hot")
            };
            let (mut none, mut one) = (self.tt(), self.ff());
            for &h in hots.iter().rev() {
                if h == FALSE {
                    continue;
                }
                let x = self.eval(h)?;
                one = x.ite(&none, &one)?;
                none = x.not()?.and(&none)?;
            }
            v = v.and(&one)?;
        }
        let clauses: Vec<Vec<Lit>> = self.ts.c.group(STATE).map(|c| c.to_vec()).collect();
        for cl in clauses {
            let on_state = cl.iter().all(|l| {
                let a = l.unsigned_abs();
                self.state.contains_key(&a) || self.ts.c.gate(*l).is_some() || a == TRUE as u32
            });
            if on_state {
                let c = self.clause(&cl)?;
                v = v.and(&c)?;
            }
        }
        Ok(v)
    }

    /// Diagram `r` as a BDD over the state (`Err(text)`: it names a cell the instance
    /// lacks).
    fn diagram(&mut self, r: BddRef) -> R<Result<F, String>> {
        let get = |nodes: &HashMap<usize, F>, r: BddRef, c: &Check| -> R<F> {
            Ok(match r {
                BddRef::Const(true) => c.tt(),
                BddRef::Const(false) => c.ff(),
                BddRef::Node { id, neg } => {
                    let f = nodes[&id].clone();
                    if neg { f.not()? } else { f }
                }
            })
        };
        let Some(root) = r.node() else {
            return Ok(Ok(get(&self.nodes, r, self)?));
        };
        let nodes = self.cert.nodes();
        for id in unbuilt_below(nodes, root, |id| self.nodes.contains_key(&id)) {
            let n = self.cert.nodes()[id - 1].clone();
            let Some(&s) = self.slots.get(&n.cell) else {
                return Ok(Err(format!(
                    "node {id} reads cell `{}`, which the instance of size {} lacks",
                    n.cell, self.ts.inst.n
                )));
            };
            // "Bit b of (value - lo) is 1": the one-hot literals of the values with
            // that bit.
            let lo = self.ts.inst.slots[s].lo;
            let hots = self.ts.cur.cells[s].lits().to_vec();
            let mut atom = self.ff();
            for (k, &h) in hots.iter().enumerate() {
                if (lo + k as i64 - n.lo) >> n.bit & 1 == 1 {
                    let x = self.eval(h)?;
                    atom = atom.or(&x)?;
                }
            }
            let t = get(&self.nodes, n.then, self)?;
            let e = get(&self.nodes, n.else_, self)?;
            let f = atom.ite(&t, &e)?;
            self.nodes.insert(id, f);
        }
        Ok(Ok(get(&self.nodes, r, self)?))
    }

    /// Each lemma's violation (where it holds) over the state.
    fn violations(
        &mut self,
        base: usize,
        lemmas: &[usize],
        failures: &mut Vec<String>,
    ) -> R<Vec<F>> {
        self.select(None);
        let mut out = Vec::new();
        for &i in lemmas {
            self.poll()?;
            let f = match self.cert.lemmas[i].bdd {
                Some(r) => match self.diagram(r)? {
                    Ok(f) => f,
                    Err(e) => {
                        failures.push(e);
                        self.ff()
                    }
                },
                None => {
                    let (b, e) = self.ts.bad(base + i);
                    let b = self.eval(b)?;
                    let e = self.eval(e)?;
                    b.and(&e.not()?)?
                }
            };
            out.push(f);
        }
        Ok(out)
    }

    fn run(
        &mut self,
        base: usize,
        claims: &[String],
        lemmas: &[usize],
        failures: &mut Vec<String>,
    ) -> R<()> {
        let text = |i: usize| format!(" (lemma `{}`)", self.cert.lemmas[i].text());
        let valid = self.valid()?;
        let viol = self.violations(base, lemmas, failures)?;
        let mut bad = self.ff();
        for v in &viol {
            bad = bad.or(v)?;
        }
        let inv = valid.and(&bad.not()?)?;
        // Initiation, and the range error of init where range errors are claimed.
        let (init, init_err) = (self.ts.init, self.ts.init_err);
        let init = self.eval(init)?.and(&valid)?;
        if let Some(j) = first(&viol, &init)? {
            failures.push(format!(
                "an initial state violates the invariant{}",
                text(lemmas[j])
            ));
        }
        if claims.iter().any(|c| c == "range_error") {
            let err = self.eval(init_err)?.and(&valid)?;
            if err.satisfiable() {
                failures.push("evaluating init meets a range error".into());
            }
        }
        // Consecution: per instance, the states of Inv where it fires, then per lemma
        // whether its diagram composed with the instance's next values meets them.
        if let Some((j, t)) = self.consecution(&inv, &viol, &bad)? {
            let (tr, ps) = &self.ts.instances[t];
            failures.push(format!(
                "the invariant is not inductive: a step from it leaves it{} (by `{}` of {:?})",
                text(lemmas[j]),
                self.ts.inst.model.transitions[*tr].name,
                ps
            ));
        }
        self.select(None);
        let all_props: Vec<usize> = (0..base).collect();
        for c in claims {
            self.poll()?;
            let b = if c == "range_error" {
                let r = self.ts.range(&all_props, false);
                self.eval(r)?
            } else if c == "int_bound" {
                let r = self.ts.int_bound(false);
                self.eval(r)?
            } else {
                let Some(p) = self.ts.inst.model.unsafes[..base]
                    .iter()
                    .position(|x| &x.name == c)
                else {
                    failures.push(format!(
                        "the certificate claims `{c}`, which the model lacks"
                    ));
                    continue;
                };
                let (b, e) = self.ts.bad(p);
                let b = self.eval(b)?;
                let e = self.eval(e)?;
                b.and(&e.not()?)?
            };
            if inv.and(&b)?.satisfiable() {
                failures.push(format!("a state of the invariant violates `{c}`"));
            }
        }
        Ok(())
    }

    /// A (lemma, instance) with a step from Inv into the lemma's violation.
    fn consecution(&mut self, inv: &F, viol: &[F], bad: &F) -> R<Option<(usize, usize)>> {
        for t in 0..self.ts.instances.len() {
            self.poll()?;
            self.select(Some(t));
            let fire = self.ts.fire[t];
            let mut from = self.eval(fire)?.and(inv)?;
            let groups: Vec<Vec<Lit>> = [STEP, FIRE]
                .iter()
                .flat_map(|&g| self.ts.c.group(g).map(|c| c.to_vec()).collect::<Vec<_>>())
                .collect();
            for cl in groups {
                if !from.satisfiable() {
                    break;
                }
                let c = self.clause(&cl)?;
                from = from.and(&c)?;
            }
            if !from.satisfiable() {
                continue;
            }
            // The next value of every state literal; the ones that keep their value
            // are left out of the substitution.
            let (mut vars, mut next) = (Vec::new(), Vec::new());
            for (s, cell) in self.ts.next.clone().iter().enumerate() {
                for (k, &nx) in cell.lits().iter().enumerate() {
                    let cur = self.ts.cur.cells[s].lits()[k];
                    let Some(&x) = self.state.get(&cur.unsigned_abs()) else {
                        continue;
                    };
                    let f = self.eval(nx)?;
                    let f = if cur < 0 { f.not()? } else { f };
                    if f != self.var(x)? {
                        vars.push(x);
                        next.push(f);
                    }
                }
            }
            let subst = Subst::new(vars.clone(), next);
            // All lemmas at once first: the instance is done when no step by it from
            // Inv reaches their union (one composition, not one per lemma: Peterson
            // n = 3 under fairness, 14 s -> 6 s of CPU); otherwise one lemma at a
            // time names one.
            let any = if vars.is_empty() {
                bad.clone()
            } else {
                bad.substitute(&subst)?
            };
            if !from.and(&any)?.satisfiable() {
                continue;
            }
            for (j, v) in viol.iter().enumerate() {
                self.poll()?;
                let moved = if vars.is_empty() {
                    v.clone()
                } else {
                    v.substitute(&subst)?
                };
                if from.and(&moved)?.satisfiable() {
                    return Ok(Some((j, t)));
                }
            }
        }
        Ok(None)
    }
}

/// The first of `viol` that meets `s`.
fn first(viol: &[F], s: &F) -> R<Option<usize>> {
    for (j, v) in viol.iter().enumerate() {
        if s.and(v)?.satisfiable() {
            return Ok(Some(j));
        }
    }
    Ok(None)
}
