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

    /// The orbit's member whose processes are 1..k in the order the atoms mention them
    /// (the cube itself without variables).
    pub fn representative(&self, ts: &Transys) -> Option<Cube> {
        let ps: Vec<i64> = (1..=self.procs as i64).collect();
        self.instance(ts, &ps)
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
        // The atoms whose last variable was just assigned (or that have none, at the
        // start) must hold; the others were checked at a shallower level or wait.
        let k = cur.len();
        let last = |a: &Atom| {
            a.index
                .iter()
                .chain([&a.value])
                .filter_map(|p| match p {
                    PVal::Proc(i) => Some(i + 1),
                    PVal::Const(_) => None,
                })
                .max()
                .unwrap_or(0)
        };
        let mut index = [0i64; 8];
        for a in self.atoms.iter().filter(|a| last(a) == k) {
            let v = |p: PVal| match p {
                PVal::Const(c) => c,
                PVal::Proc(i) => cur[i],
            };
            {
                let n = a.index.len();
                let mut heap = Vec::new();
                let ix: &mut [i64] = if n <= index.len() {
                    &mut index[..n]
                } else {
                    heap.resize(n, 0);
                    &mut heap
                };
                for (d, &p) in ix.iter_mut().zip(&a.index) {
                    *d = v(p);
                }
                let Some(s) = ts.inst.slot_of(a.var, ix) else {
                    return;
                };
                // Process indices are at most the width here; ranges may not exist.
                let ranged = ts.inst.model.vars[a.var]
                    .dims
                    .iter()
                    .any(|d| matches!(d, Ty::Range(_)));
                if (ranged && !cell_exists(ts, s, width)) || value(StateVar::Cell(s)) != v(a.value)
                {
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
            no_int_bound: false,
        }
    }
}

impl Lemma {
    /// The widths at which the lemma says something: below `procs` processes there is
    /// no tuple of distinct ones.
    fn effective(&self) -> (usize, usize) {
        (self.lo.max(self.procs), self.hi)
    }

    /// The atoms with the process variables renamed by `perm` (variable i becomes
    /// `perm[i]`), sorted.
    fn renamed(&self, perm: &[usize]) -> Vec<Atom> {
        let r = |p: PVal| match p {
            PVal::Proc(i) => PVal::Proc(perm[i]),
            c => c,
        };
        let mut atoms: Vec<Atom> = self
            .atoms
            .iter()
            .map(|a| Atom {
                var: a.var,
                index: a.index.iter().map(|&p| r(p)).collect(),
                value: r(a.value),
            })
            .collect();
        atoms.sort();
        atoms
    }

    /// The atoms under the renaming of the variables that sorts least (for up to five
    /// variables; beyond, the atoms as they are): equal for two lemmas iff they say
    /// the same of their widths.
    pub fn canonical_atoms(&self) -> Vec<Atom> {
        if self.procs > 5 {
            let mut a = self.atoms.clone();
            a.sort();
            return a;
        }
        let mut best: Option<Vec<Atom>> = None;
        let mut perm: Vec<usize> = (0..self.procs).collect();
        loop {
            let a = self.renamed(&perm);
            if best.as_ref().is_none_or(|b| a < *b) {
                best = Some(a);
            }
            if !next_permutation(&mut perm) {
                break;
            }
        }
        best.unwrap_or_default()
    }

    /// Whether this lemma implies `other` at every width `other` claims: its atoms,
    /// under some injective renaming into `other`'s variables, are among `other`'s.
    pub fn subsumes(&self, other: &Lemma) -> bool {
        let (a, b) = (self.effective(), other.effective());
        if self.procs > other.procs
            || a.0 > b.0
            || a.1 < b.1
            || self.atoms.len() > other.atoms.len()
        {
            return false;
        }
        let mut map = Vec::with_capacity(self.procs);
        self.embeds(other, &mut map)
    }

    fn embeds(&self, other: &Lemma, map: &mut Vec<usize>) -> bool {
        if map.len() == self.procs {
            return self.renamed(map).iter().all(|x| other.atoms.contains(x));
        }
        for q in 0..other.procs {
            if !map.contains(&q) {
                map.push(q);
                if self.embeds(other, map) {
                    return true;
                }
                map.pop();
            }
        }
        false
    }
}

/// The next permutation in lexicographic order (false after the last).
fn next_permutation(p: &mut [usize]) -> bool {
    let Some(i) = (1..p.len()).rev().find(|&i| p[i - 1] < p[i]) else {
        return false;
    };
    let j = (i..p.len()).rev().find(|&j| p[j] > p[i - 1]).unwrap_or(i);
    p.swap(i - 1, j);
    p[i..].reverse();
    true
}

/// An equivalent, smaller conjunction of lemmas: lemmas saying the same of adjacent
/// or overlapping widths are merged, and lemmas another one implies are dropped.
pub fn simplify(lemmas: Vec<Lemma>) -> Vec<Lemma> {
    let mut by_atoms: Vec<(Vec<Atom>, Lemma)> = Vec::new();
    for l in lemmas {
        let key = l.canonical_atoms();
        let (lo, hi) = l.effective();
        if let Some((_, m)) = by_atoms.iter_mut().find(|(k, m)| {
            let (a, b) = m.effective();
            *k == key && m.procs == l.procs && lo <= b + 1 && a <= hi + 1
        }) {
            m.lo = m.effective().0.min(lo);
            m.hi = m.hi.max(hi);
            continue;
        }
        by_atoms.push((key, l));
    }
    let all: Vec<Lemma> = by_atoms.into_iter().map(|x| x.1).collect();
    let mut keep = vec![true; all.len()];
    for i in 0..all.len() {
        for j in 0..all.len() {
            if i != j && keep[j] && keep[i] && all[j].subsumes(&all[i]) {
                // Of two equal lemmas keep the first.
                if all[i].subsumes(&all[j]) && i < j {
                    continue;
                }
                keep[i] = false;
            }
        }
    }
    all.into_iter()
        .zip(keep)
        .filter(|x| x.1)
        .map(|x| x.0)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atom(var: usize, i: usize, v: i64) -> Atom {
        Atom {
            var,
            index: vec![PVal::Proc(i)],
            value: PVal::Const(v),
        }
    }

    #[test]
    fn simplify_merges_and_subsumes() {
        // not (A[i] = 2 && A[j] = 2) at 2..5 and at 6..9: one lemma at 2..9.
        let l = |lo, hi, atoms: Vec<Atom>, procs| Lemma {
            lo,
            hi,
            procs,
            atoms,
        };
        let a = l(2, 5, vec![atom(0, 0, 2), atom(0, 1, 2)], 2);
        let b = l(6, 9, vec![atom(0, 1, 2), atom(0, 0, 2)], 2);
        // not (A[i] = 2 && A[j] = 2 && B[i] = 1) at 3..9: implied by the merged one.
        let c = l(3, 9, vec![atom(0, 0, 2), atom(1, 0, 1), atom(0, 1, 2)], 2);
        // not (A[i] = 2 && B[j] = 1) at 1..9: not implied.
        let d = l(1, 9, vec![atom(0, 0, 2), atom(1, 1, 1)], 2);
        let s = simplify(vec![a, b, c, d.clone()]);
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].lo, s[0].hi), (2, 9));
        assert_eq!(s[1], d);
        let mut p = vec![0, 1, 2];
        let mut n = 1;
        while next_permutation(&mut p) {
            n += 1;
        }
        assert_eq!(n, 6);
    }
}
