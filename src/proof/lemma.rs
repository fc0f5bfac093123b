//! Lemmas of inductive invariants, at the level of values: a *cube* is a conjunction
//! of atoms "state variable = value" over a transition system's cells and presence
//! bits, and a lemma says that no reachable state satisfies it (the clause ¬cube).
//!
//! For a fully symmetric family a lemma is kept *abstractly*, over process variables
//! x1..xk: "no state of width lo..hi has pairwise distinct present processes x1..xk
//! with these atoms" (the process indices of cells and the process values of
//! `proc`-typed cells become variables; IC3PO's symmetric clauses). Its *orbit* is
//! every injective renaming of the variables into the slots, the concrete clauses it
//! stands for. Orbits are sound when every cell a lemma mentions exists at every width
//! of its interval (`restrict`): the reachable states of one width are closed under
//! the permutations of that width's processes, and a lemma that talks about a cell
//! missing at some width would say something about unobserved values there.

use super::cert::CertLemma;
use crate::bmc::transys::{StateVar, Transys};
use crate::model::ir::{Ty, VarId};

/// A conjunction of atoms "state variable = value", sorted by variable.
pub type Cube = Vec<(StateVar, i64)>;

/// A value in an abstract atom: a constant or process variable number i (x_{i+1}).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PVal {
    Const(i64),
    Proc(usize),
}

/// An atom `var[index] = value` with process variables in indices and values.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Atom {
    pub var: VarId,
    pub index: Vec<PVal>,
    pub value: PVal,
}

/// No state whose width lies in `lo..=hi` has pairwise distinct (present) processes
/// x1..x`procs` satisfying every atom.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lemma {
    pub lo: usize,
    pub hi: usize,
    pub procs: usize,
    pub atoms: Vec<Atom>,
}

/// The width interval a cube's presence atoms allow, within the system's sizes.
pub fn interval(ts: &Transys, cube: &Cube) -> (usize, usize) {
    let (mut lo, mut hi) = (ts.agg.min, ts.agg.max);
    for &(v, val) in cube {
        if let StateVar::Absent(p) = v {
            // Slot p+1 absent: width <= p; present: width >= p+1.
            if val != 0 {
                hi = hi.min(p);
            } else {
                lo = lo.max(p + 1);
            }
        }
    }
    (lo, hi)
}

/// Whether cell `slot` exists at width `w`: its process indices are present and its
/// range indices lie in their range at `w`.
pub fn cell_exists(ts: &Transys, slot: usize, w: usize) -> bool {
    let s = &ts.inst.slots[slot];
    let dims = &ts.inst.model.vars[s.var].dims;
    s.index.iter().zip(dims).all(|(&i, &d)| match d {
        Ty::Proc => i >= 1 && i as usize <= w,
        Ty::Range(r) => {
            let (lo, hi) = ts.agg.ranges_at[r][w - 1];
            lo <= i && i <= hi
        }
        _ => true,
    })
}

/// The processes a cube mentions: the process indices of its cells and the values of
/// its `proc`-typed cells, sorted.
pub fn processes(ts: &Transys, cube: &Cube) -> Vec<i64> {
    let mut ps = Vec::new();
    for &(v, val) in cube {
        if let StateVar::Cell(s) = v {
            let slot = &ts.inst.slots[s];
            let var = &ts.inst.model.vars[slot.var];
            for (&i, &d) in slot.index.iter().zip(&var.dims) {
                if d == Ty::Proc {
                    ps.push(i);
                }
            }
            if var.ty == Ty::Proc {
                ps.push(val);
            }
        }
    }
    ps.sort_unstable();
    ps.dedup();
    ps
}

/// The cube with its width interval narrowed to the widest one around `w0` (a width
/// the cube's states have) at which every cell it mentions exists and every process
/// it mentions is present: a weaker lemma (it blocks fewer states), always valid
/// when the cube's is, and one whose orbit is sound.
pub fn restrict(ts: &Transys, cube: &Cube, w0: usize) -> Cube {
    let (lo, hi) = interval(ts, cube);
    let need = processes(ts, cube).last().copied().unwrap_or(0).max(0) as usize;
    let ok = |w: usize| {
        w >= need
            && cube.iter().all(|&(v, _)| match v {
                StateVar::Cell(s) => cell_exists(ts, s, w),
                StateVar::Absent(_) => true,
            })
    };
    let (mut a, mut b) = (w0, w0);
    while a > lo && ok(a - 1) {
        a -= 1;
    }
    while b < hi && ok(b + 1) {
        b += 1;
    }
    with_interval(ts, cube, a, b)
}

/// The cube's cell atoms with presence atoms for exactly the widths `lo..=hi`.
pub fn with_interval(ts: &Transys, cube: &Cube, lo: usize, hi: usize) -> Cube {
    let mut out: Cube = cube
        .iter()
        .copied()
        .filter(|(v, _)| matches!(v, StateVar::Cell(_)))
        .collect();
    // Properness: absent slots form a suffix, so one presence bit per bound.
    if lo > ts.agg.min && ts.agg.absent[lo - 1] != crate::sat::circuit::FALSE {
        out.push((StateVar::Absent(lo - 1), 0));
    }
    if hi < ts.agg.max {
        out.push((StateVar::Absent(hi), 1));
    }
    out.sort_unstable();
    out
}

impl Lemma {
    /// The lemma a concrete cube stands for: with `symmetric`, its processes become
    /// variables (in the order they are first mentioned); otherwise it is kept as is.
    /// The cube should be `restrict`ed.
    pub fn from_cube(ts: &Transys, cube: &Cube, symmetric: bool) -> Lemma {
        let (lo, hi) = interval(ts, cube);
        let mut procs: Vec<i64> = Vec::new();
        let pval = |p: i64, procs: &mut Vec<i64>| {
            if !symmetric {
                return PVal::Const(p);
            }
            match procs.iter().position(|&q| q == p) {
                Some(i) => PVal::Proc(i),
                None => {
                    procs.push(p);
                    PVal::Proc(procs.len() - 1)
                }
            }
        };
        let mut atoms = Vec::new();
        for &(v, val) in cube {
            let StateVar::Cell(s) = v else { continue };
            let slot = &ts.inst.slots[s];
            let var = &ts.inst.model.vars[slot.var];
            let index = slot
                .index
                .iter()
                .zip(&var.dims)
                .map(|(&i, &d)| {
                    if d == Ty::Proc {
                        pval(i, &mut procs)
                    } else {
                        PVal::Const(i)
                    }
                })
                .collect();
            let value = if var.ty == Ty::Proc {
                pval(val, &mut procs)
            } else {
                PVal::Const(val)
            };
            atoms.push(Atom {
                var: slot.var,
                index,
                value,
            });
        }
        Lemma {
            lo,
            hi,
            procs: procs.len(),
            atoms,
        }
    }

    /// The concrete cube for one assignment of processes to the variables (`None` when
    /// the assignment leaves the lemma's widths or the system's cells).
    pub fn instance(&self, ts: &Transys, procs: &[i64]) -> Option<Cube> {
        let need = procs.iter().copied().max().unwrap_or(0).max(0) as usize;
        let lo = self.lo.max(need);
        if lo > self.hi {
            return None;
        }
        let val = |p: PVal| match p {
            PVal::Const(c) => c,
            PVal::Proc(i) => procs[i],
        };
        let mut cube = Cube::new();
        for a in &self.atoms {
            let index: Vec<i64> = a.index.iter().map(|&p| val(p)).collect();
            let s = ts.inst.slot_of(a.var, &index)?;
            cube.push((StateVar::Cell(s), val(a.value)));
        }
        cube.sort_unstable();
        Some(with_interval(ts, &cube, lo, self.hi))
    }

    /// Every concrete cube of the orbit in the system (injective assignments of slots
    /// 1..=max to the variables).
    pub fn orbit(&self, ts: &Transys) -> Vec<Cube> {
        let mut out = Vec::new();
        let mut cur = Vec::with_capacity(self.procs);
        self.each_assignment(ts.agg.max.min(self.hi), &mut cur, &mut |ps| {
            if let Some(c) = self.instance(ts, ps) {
                out.push(c);
            }
        });
        out
    }

    /// The number of injective assignments of `n` processes to the variables.
    pub fn orbit_size(&self, n: usize) -> usize {
        (0..self.procs).fold(1usize, |acc, i| acc.saturating_mul(n.saturating_sub(i)))
    }

    fn each_assignment(&self, n: usize, cur: &mut Vec<i64>, f: &mut dyn FnMut(&[i64])) {
        if cur.len() == self.procs {
            f(cur);
            return;
        }
        for p in 1..=n as i64 {
            if !cur.contains(&p) {
                cur.push(p);
                self.each_assignment(n, cur, f);
                cur.pop();
            }
        }
    }

    /// An instance of the lemma that a state satisfies, if any. `value` gives the
    /// value of a state variable, `width` the state's width.
    pub fn matching(
        &self,
        ts: &Transys,
        width: usize,
        value: &dyn Fn(StateVar) -> i64,
    ) -> Option<Cube> {
        if width < self.lo || width > self.hi {
            return None;
        }
        let mut cur = Vec::with_capacity(self.procs);
        let mut found = None;
        self.search(ts, width, value, &mut cur, &mut found);
        found
    }

    fn search(
        &self,
        ts: &Transys,
        width: usize,
        value: &dyn Fn(StateVar) -> i64,
        cur: &mut Vec<i64>,
        found: &mut Option<Cube>,
    ) {
        // Atoms whose variables are all assigned must hold.
        let k = cur.len();
        let assigned = |p: &PVal| match p {
            PVal::Const(_) => true,
            PVal::Proc(i) => *i < k,
        };
        for a in &self.atoms {
            if a.index.iter().all(assigned) && assigned(&a.value) {
                let v = |p: PVal| match p {
                    PVal::Const(c) => c,
                    PVal::Proc(i) => cur[i],
                };
                let index: Vec<i64> = a.index.iter().map(|&p| v(p)).collect();
                let Some(s) = ts.inst.slot_of(a.var, &index) else {
                    return;
                };
                if !cell_exists(ts, s, width) || value(StateVar::Cell(s)) != v(a.value) {
                    return;
                }
            }
        }
        if k == self.procs {
            *found = self.instance(ts, cur);
            return;
        }
        for p in 1..=width as i64 {
            if found.is_some() {
                return;
            }
            if !cur.contains(&p) {
                cur.push(p);
                self.search(ts, width, value, cur, found);
                cur.pop();
            }
        }
    }

    /// The lemma as a formula over the model's own variables, the form certificates
    /// are written in: `forall distinct i j. not (A[i] = Crit && A[j] = Crit)`, with
    /// the sizes it is claimed for when they are not all of `all`.
    pub fn render(&self, ts: &Transys, all: (usize, usize)) -> String {
        self.to_cert(ts, all).text()
    }

    /// The lemma as a certificate lemma (see `render`).
    pub fn to_cert(&self, ts: &Transys, all: (usize, usize)) -> CertLemma {
        let model = ts.inst.model;
        let names = ["i", "j", "k", "l", "m"];
        let pname = |i: usize| {
            names
                .get(i)
                .map(|s| s.to_string())
                .unwrap_or_else(|| format!("x{}", i + 1))
        };
        let show = |p: PVal, ty: Ty| match p {
            PVal::Proc(i) => pname(i),
            PVal::Const(c) if ty == Ty::Proc => format!("#{c}"),
            PVal::Const(c) => match ty {
                Ty::Bool => if c != 0 { "True" } else { "False" }.to_string(),
                Ty::Enum(e) => model.enums[e].ctors[c as usize].clone(),
                _ => c.to_string(),
            },
        };
        let atoms: Vec<String> = self
            .atoms
            .iter()
            .map(|a| {
                let var = &model.vars[a.var];
                let cell = if a.index.is_empty() {
                    var.name.clone()
                } else {
                    let ix: Vec<String> = a
                        .index
                        .iter()
                        .zip(&var.dims)
                        .map(|(&p, &d)| show(p, d))
                        .collect();
                    format!("{}[{}]", var.name, ix.join(", "))
                };
                format!("{cell} = {}", show(a.value, var.ty))
            })
            .collect();
        let body = if atoms.is_empty() {
            "True".to_string()
        } else {
            atoms.join(" && ")
        };
        // Below `procs` processes the lemma says nothing (no distinct tuple exists).
        let lo = if self.procs > 0 && self.lo <= self.procs {
            all.0
        } else {
            self.lo
        };
        CertLemma {
            sizes: ((lo, self.hi) != all).then_some((lo, self.hi)),
            vars: (0..self.procs).map(pname).collect(),
            body,
            no_range: false,
        }
    }
}
