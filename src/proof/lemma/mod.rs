//! Lemmas of inductive invariants, at the level of values: a *cube* is a conjunction
//! of atoms "state variable = value" over a transition system's cells and presence
//! bits, and a lemma says that no reachable state satisfies it (the clause ¬cube).
//!
//! For a fully symmetric family a lemma is kept *abstractly*, over process variables
//! x1..xk: "no state of width lo..hi has pairwise distinct present processes x1..xk
//! with these atoms" (the process indices of cells and the process values of
//! `proc`-typed cells become variables; the symmetric clauses of IC3PO: A. Goel and
//! K. A. Sakallah, *On Symmetry and Quantification: A New Approach to Verify
//! Distributed Protocols*, NFM 2021). Its *orbit* is every injective renaming of the
//! variables into the slots, the concrete clauses it stands for. Orbits are sound when
//! every cell a lemma mentions exists at every width of its interval (`restrict`): the
//! reachable states of one width are closed under the permutations of that width's
//! processes, and a lemma that talks about a cell missing at some width would say
//! something about unobserved values there. A model with the extra process id
//! (`model::extra`, Flash's `Home`) is symmetric among its processes, and every
//! permutation fixes the extra id 0: in a lemma it is a constant (`PVal::Const(0)`,
//! written `#0`), never a variable.
//!
//! For an *ordered-symmetric* family (process ids compared by `<`, `Model::is_ordered`)
//! a lemma is *ordered*: its variables carry the order of the processes they came
//! from, x1 < x2 < ... < xk, and its orbit is the increasing assignments only (the
//! clause `forall i < j. not C(i, j)`). At one size the only order-preserving
//! bijection is the identity, so such an orbit is a *guess* (a generalisation, as the
//! quantified clause for every n is), not a consequence of the proof: IC3 uses it to
//! learn faster, and every invariant built from ordered lemmas is filtered by Houdini
//! over every member of every orbit (`ic3::prove`) and checked by `proof::check`
//! before anything is claimed.
//!
//! An atom on an ordered cell (a range type or `int`) may also be a *range atom*
//! "cell ≥ v" or "cell ≤ v" (`Rel`), found by IC3's generalization: one range lemma
//! stands for a product of value cases (Peterson's "process i has passed level L" is
//! `Lev[i] >= L + 1`). In a `Cube` the relation is folded into the atom's value
//! (`encode`, `decode`); an atom's literal is `atom_lit`, never `Transys::eq` directly.

//!
//! `range` holds the range atoms, `subsume` the comparison of lemmas (canonical
//! atoms, subsumption) and `simplify`.

mod range;
mod subsume;

pub use range::{Rel, atom_implies, atom_lit, cube_within, decode, encode, ordered, satisfies};
pub use subsume::simplify;

use crate::bmc::transys::{StateVar, Transys};
use crate::cert::CertLemma;
use crate::model::ir::{Model, Ty, VarId};
use crate::sat::Stop;

/// A conjunction of atoms "state variable = value" (or a range atom, `encode`), sorted
/// by variable.
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
    /// The variables are in increasing order of processes (x1 < x2 < ...), and the
    /// orbit is the increasing assignments only (an ordered-symmetric family).
    pub ordered: bool,
}

/// `Lemma::matching` gave up: the caller's limit (`sat::Stop`) was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted;

/// How many assignments `Lemma::matching` tries between two polls of its limit (one
/// clock read per thousand assignments costs nothing measurable; a search of millions
/// of assignments stops within a millisecond of the deadline).
const POLL: u64 = 1024;

/// The state of one `Lemma::matching` search.
struct Match<'a> {
    ts: &'a Transys<'a>,
    width: usize,
    value: &'a dyn Fn(StateVar) -> i64,
    stop: &'a Stop,
    cur: Vec<i64>,
    found: Option<Cube>,
    nodes: u64,
    stopped: bool,
}

/// Which bound of a range a constant moves with when a lemma is restated at the next
/// size (`Lemma::carried`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Nearer,
    Upper,
    Lower,
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
/// its `proc`-typed cells (but the extra process id, no process), sorted.
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
            // The extra process id (0, `model::extra`) is no process: a constant.
            if var.ty == Ty::Proc && val >= 1 {
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
        let model = ts.inst.model;
        // An ordered-symmetric family: the variables follow the processes' order.
        let ordered = symmetric && !model.is_symmetric() && model.has_lemma_orbits();
        let mut procs: Vec<i64> = if ordered {
            processes(ts, cube)
        } else {
            Vec::new()
        };
        let pval = |p: i64, procs: &mut Vec<i64>| {
            // The extra process id is fixed by every permutation: a constant (`#0`).
            if !symmetric || p < 1 {
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
            let var = &model.vars[slot.var];
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
            // Over fewer than two processes the order says nothing.
            ordered: ordered && procs.len() > 1,
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

    /// The members of the orbit as lemmas of their own (without variables); a lemma
    /// without orbit (no variables, or kept concrete) is itself.
    pub fn members_as_lemmas(&self, ts: &Transys) -> Vec<Lemma> {
        if self.procs == 0 {
            return vec![self.clone()];
        }
        self.orbit(ts)
            .iter()
            .map(|c| Lemma::from_cube(ts, c, false))
            .collect()
    }

    /// The lemma of width `w` restated at width `w + 1` (interval `w + 1..=w + 1`),
    /// for a family whose ranges have bounds depending on N: every constant of such a
    /// range (a value or an array index) moves with one of its range's bounds, the
    /// nearer one or, with `Anchor::Upper` or `Anchor::Lower`, always that one.
    /// `None` when a constant would leave its range. A guess to be filtered (Houdini):
    /// Peterson's "two processes past the last level" is stated about `N - 1`, and
    /// restated one level up it holds at the next size.
    pub fn carried(&self, model: &Model, w: usize, anchor: Anchor) -> Option<Lemma> {
        let (a, b) = (w as i64, w as i64 + 1);
        let shift = |r: usize, v: i64| -> Option<i64> {
            let t = &model.ranges[r];
            let (lo0, hi0, lo1, hi1) = (t.lo.eval(a), t.hi.eval(a), t.lo.eval(b), t.hi.eval(b));
            let upper = match anchor {
                Anchor::Upper => true,
                Anchor::Lower => false,
                Anchor::Nearer => hi0 - v < v - lo0,
            };
            let x = if upper { v + hi1 - hi0 } else { v + lo1 - lo0 };
            (lo1..=hi1).contains(&x).then_some(x)
        };
        let mut out = self.clone();
        out.lo = w + 1;
        out.hi = w + 1;
        for atom in &mut out.atoms {
            let var = &model.vars[atom.var];
            for (p, d) in atom.index.iter_mut().zip(&var.dims) {
                if let (PVal::Const(c), Ty::Range(r)) = (*p, *d) {
                    *p = PVal::Const(shift(r, c)?);
                }
            }
            if let (PVal::Const(x), Ty::Range(r)) = (atom.value, var.ty) {
                let (rel, v) = decode(x);
                atom.value = PVal::Const(encode(rel, shift(r, v)?));
            }
        }
        Some(out)
    }

    /// The number of injective assignments of `n` processes to the variables
    /// (increasing ones for an ordered lemma).
    pub fn orbit_size(&self, n: usize) -> usize {
        let all = (0..self.procs).fold(1usize, |acc, i| acc.saturating_mul(n.saturating_sub(i)));
        if !self.ordered {
            return all;
        }
        // n choose k = n (n-1) ... (n-k+1) / k!, computed without overflow.
        let mut c = 1usize;
        for i in 0..self.procs {
            if n < self.procs {
                return 0;
            }
            c = c.saturating_mul(n - i) / (i + 1);
        }
        c
    }

    /// Whether process `p` may be the next variable's value after `cur`: distinct, and
    /// above the last one for an ordered lemma.
    fn next_ok(&self, cur: &[i64], p: i64) -> bool {
        if self.ordered {
            cur.last().is_none_or(|&q| p > q)
        } else {
            !cur.contains(&p)
        }
    }

    fn each_assignment(&self, n: usize, cur: &mut Vec<i64>, f: &mut dyn FnMut(&[i64])) {
        if cur.len() == self.procs {
            f(cur);
            return;
        }
        for p in 1..=n as i64 {
            if self.next_ok(cur, p) {
                cur.push(p);
                self.each_assignment(n, cur, f);
                cur.pop();
            }
        }
    }

    /// An instance of the lemma that a state satisfies, if any. `value` gives the
    /// value of a state variable, `width` the state's width. The search tries up to
    /// width!/(width - procs)! assignments, so it polls `stop` as it goes (every
    /// `POLL` assignments) and gives up with `Interrupted` once the limit is reached.
    pub fn matching(
        &self,
        ts: &Transys,
        width: usize,
        value: &dyn Fn(StateVar) -> i64,
        stop: &Stop,
    ) -> Result<Option<Cube>, Interrupted> {
        if width < self.lo || width > self.hi {
            return Ok(None);
        }
        let mut m = Match {
            ts,
            width,
            value,
            stop,
            cur: Vec::with_capacity(self.procs),
            found: None,
            nodes: 0,
            stopped: false,
        };
        self.search(&mut m);
        if m.stopped {
            return Err(Interrupted);
        }
        Ok(m.found)
    }

    fn search(&self, m: &mut Match) {
        m.nodes += 1;
        if m.nodes.is_multiple_of(POLL) && m.stop.now() {
            m.stopped = true;
            return;
        }
        // The atoms whose last variable was just assigned (or that have none, at the
        // start) must hold; the others were checked at a shallower level or wait.
        let k = m.cur.len();
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
        let ts = m.ts;
        let mut index = [0i64; 8];
        for a in self.atoms.iter().filter(|a| last(a) == k) {
            let v = |p: PVal| match p {
                PVal::Const(c) => c,
                PVal::Proc(i) => m.cur[i],
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
                if (ranged && !cell_exists(ts, s, m.width))
                    || !satisfies((m.value)(StateVar::Cell(s)), v(a.value))
                {
                    return;
                }
            }
        }
        if k == self.procs {
            m.found = self.instance(ts, &m.cur);
            return;
        }
        for p in 1..=m.width as i64 {
            if m.found.is_some() || m.stopped {
                return;
            }
            if self.next_ok(&m.cur, p) {
                m.cur.push(p);
                self.search(m);
                m.cur.pop();
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
                let (op, value) = match a.value {
                    PVal::Const(c) => match decode(c) {
                        (Rel::Eq, v) => ("=", PVal::Const(v)),
                        (Rel::Ge, v) => (">=", PVal::Const(v)),
                        (Rel::Le, v) => ("<=", PVal::Const(v)),
                    },
                    p => ("=", p),
                };
                format!("{cell} {op} {}", show(value, var.ty))
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
            ordered: self.ordered,
            bdd: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::subsume::next_permutation;
    use super::*;
    use crate::sat::Lit;

    fn atom(var: usize, i: usize, v: i64) -> Atom {
        Atom {
            var,
            index: vec![PVal::Proc(i)],
            value: PVal::Const(v),
        }
    }

    #[test]
    fn carried_lemmas_move_constants_with_their_bound() {
        let m = crate::lang::load_str(
            "t.cub",
            "type loc = A | B\narray Pc[proc] : loc\narray Lev[proc] : 0 .. N - 1\n\
             array V[1 .. N - 1] : proc\nvar K : 0 .. 5\n\
             init (z) { Pc[z] = A && Lev[z] = 0 }\nunsafe (z) { Pc[z] = B }\n\
             transition t (i) requires { Pc[i] = A } { Pc[i] := B; }\n",
        )
        .unwrap();
        let var = |n: &str| m.var_by_name(n).unwrap();
        // At size 5: Lev[x1] = 4 (the top), Lev[x2] >= 1 (near the bottom),
        // V[4] = x2 (top index), K = 4 (a range not depending on N).
        let l = Lemma {
            lo: 5,
            hi: 5,
            procs: 2,
            atoms: vec![
                atom(var("Lev"), 0, 4),
                atom(var("Lev"), 1, encode(Rel::Ge, 1)),
                Atom {
                    var: var("V"),
                    index: vec![PVal::Const(4)],
                    value: PVal::Proc(1),
                },
                Atom {
                    var: var("K"),
                    index: vec![],
                    value: PVal::Const(4),
                },
            ],
            ordered: false,
        };
        let values = |l: &Lemma| -> Vec<(Vec<PVal>, PVal)> {
            l.atoms.iter().map(|a| (a.index.clone(), a.value)).collect()
        };
        let near = l.carried(&m, 5, Anchor::Nearer).unwrap();
        assert_eq!((near.lo, near.hi), (6, 6));
        assert_eq!(
            values(&near),
            vec![
                (vec![PVal::Proc(0)], PVal::Const(5)),
                (vec![PVal::Proc(1)], PVal::Const(encode(Rel::Ge, 1))),
                (vec![PVal::Const(5)], PVal::Proc(1)),
                (vec![], PVal::Const(4)),
            ]
        );
        let up = l.carried(&m, 5, Anchor::Upper).unwrap();
        assert_eq!(up.atoms[1].value, PVal::Const(encode(Rel::Ge, 2)));
        assert_eq!(up.atoms[3].value, PVal::Const(4));
        let low = l.carried(&m, 5, Anchor::Lower).unwrap();
        assert_eq!(values(&low)[..3], values(&l)[..3]);
        // A constant outside its range at the next size gives no lemma (V has no
        // index 0).
        let mut bad = l.clone();
        bad.atoms[2].index = vec![PVal::Const(0)];
        assert!(bad.carried(&m, 5, Anchor::Lower).is_none());
    }

    #[test]
    fn range_atoms_encode_decode_and_imply() {
        for v in [-5i64, -1, 0, 1, 3, 1000] {
            for rel in [Rel::Eq, Rel::Ge, Rel::Le] {
                assert_eq!(decode(encode(rel, v)), (rel, v));
            }
        }
        // A plain value is an equality.
        assert_eq!(decode(7), (Rel::Eq, 7));
        assert!(satisfies(3, encode(Rel::Ge, 2)) && !satisfies(1, encode(Rel::Ge, 2)));
        assert!(satisfies(-2, encode(Rel::Le, -1)) && !satisfies(0, encode(Rel::Le, -1)));
        assert!(atom_implies(3, encode(Rel::Ge, 2)));
        assert!(atom_implies(encode(Rel::Ge, 3), encode(Rel::Ge, 2)));
        assert!(!atom_implies(encode(Rel::Ge, 2), encode(Rel::Ge, 3)));
        assert!(!atom_implies(encode(Rel::Ge, 2), 2));
        assert!(atom_implies(encode(Rel::Le, 1), encode(Rel::Le, 4)));
        assert!(!atom_implies(encode(Rel::Le, 1), encode(Rel::Ge, 0)));
        let (a, b) = (StateVar::Cell(0), StateVar::Cell(1));
        // {a = 3, b = 1} lies in {a >= 2}, not in {a >= 2, b = 0}.
        assert!(cube_within(
            &vec![(a, 3), (b, 1)],
            &vec![(a, encode(Rel::Ge, 2))]
        ));
        assert!(!cube_within(
            &vec![(a, 3), (b, 1)],
            &vec![(a, encode(Rel::Ge, 2)), (b, 0)]
        ));
        // A range lemma subsumes the value lemma it covers, not the converse.
        let ge = |v| Atom {
            var: 0,
            index: vec![PVal::Proc(0)],
            value: PVal::Const(encode(Rel::Ge, v)),
        };
        let l = |atoms| Lemma {
            lo: 1,
            hi: 4,
            procs: 1,
            atoms,
            ordered: false,
        };
        assert!(l(vec![ge(2)]).subsumes(&l(vec![atom(0, 0, 3)])));
        assert!(!l(vec![atom(0, 0, 3)]).subsumes(&l(vec![ge(2)])));
        assert!(l(vec![ge(2)]).subsumes(&l(vec![ge(3), atom(1, 0, 1)])));
    }

    #[test]
    fn matching_stops_at_the_limit() {
        use crate::bmc::frame::Encoding;
        let text = "type loc = Idle | Crit\narray Pc[proc] : loc\n\
                    init (z) { Pc[z] = Idle }\n\
                    unsafe (z1 z2) { Pc[z1] = Crit && Pc[z2] = Crit }\n\
                    transition go (i) { Pc[i] := Crit; }\n";
        let m = crate::lang::load_str("t.cub", text).unwrap();
        let ts = Transys::new(&m, 10, 10, Encoding::Binary);
        // Six processes, the last of them in Crit: in a state where none is, every
        // assignment of the first five is tried (10·9·8·7·6 of them) before the last
        // atom rules it out.
        let l = Lemma {
            lo: 10,
            hi: 10,
            procs: 6,
            atoms: (0..6).map(|i| atom(0, i, (i == 5) as i64)).collect(),
            ordered: false,
        };
        let idle = |_: StateVar| 0;
        let free = Stop::default();
        assert_eq!(l.matching(&ts, 10, &idle, &free), Ok(None));
        let past = Stop {
            deadline: Some(std::time::Instant::now()),
            flag: None,
        };
        assert_eq!(l.matching(&ts, 10, &idle, &past), Err(Interrupted));
        // A state that matches at once is found before the first poll.
        let all = |_: StateVar| 1;
        let ones = Lemma {
            atoms: (0..6).map(|i| atom(0, i, 1)).collect(),
            ..l
        };
        assert!(ones.matching(&ts, 10, &all, &past).unwrap().is_some());
    }

    #[test]
    fn range_atoms_render_and_have_literals() {
        use crate::bmc::frame::Encoding;
        let text = "type loc = Idle | Crit\narray Pc[proc] : loc\narray Lev[proc] : 0 .. 3\n\
                    init (z) { Pc[z] = Idle && Lev[z] = 0 }\n\
                    unsafe (z1 z2) { Pc[z1] = Crit && Pc[z2] = Crit }\n\
                    transition up (i) requires { Lev[i] < 3 } { Lev[i] := Lev[i] + 1; }\n";
        let m = crate::lang::load_str("t.cub", text).unwrap();
        let mut ts = Transys::new(&m, 1, 3, Encoding::Binary);
        let lev = ts.inst.slot_of(1, &[1]).unwrap();
        let pc = ts.inst.slot_of(0, &[1]).unwrap();
        assert!(ordered(&ts, StateVar::Cell(lev)) && !ordered(&ts, StateVar::Cell(pc)));
        let cube: Cube = vec![
            (StateVar::Cell(pc), 1),
            (StateVar::Cell(lev), encode(Rel::Ge, 2)),
        ];
        let cube = restrict(&ts, &cube, 3);
        let l = Lemma::from_cube(&ts, &cube, true);
        assert_eq!(
            l.render(&ts, (1, 3)),
            "forall distinct i. not (Pc[i] = Crit && Lev[i] >= 2)"
        );
        let le = Lemma {
            atoms: vec![Atom {
                var: 1,
                index: vec![PVal::Proc(0)],
                value: PVal::Const(encode(Rel::Le, 1)),
            }],
            ..l.clone()
        };
        assert_eq!(
            le.render(&ts, (1, 3)),
            "forall distinct i. not (Lev[i] <= 1)"
        );
        // The literal of `Lev[1] >= 2` is true exactly for the values 2 and 3.
        let ge = atom_lit(&mut ts, StateVar::Cell(lev), encode(Rel::Ge, 2), false);
        let eqs: Vec<Lit> = (0..4)
            .map(|v| ts.eq(StateVar::Cell(lev), v, false))
            .collect();
        let mut s = crate::sat::SolverKind::default_kind()
            .create_plain()
            .unwrap();
        for c in ts.c.group(crate::bmc::transys::STATE) {
            s.add_clause(c);
        }
        let stop = crate::sat::Stop::default();
        for (v, &e) in eqs.iter().enumerate() {
            for want in [ge, -ge] {
                let r = s.solve(&ts.c.cnf, &[e, want], &stop);
                let expect = (want == ge) == (v >= 2);
                assert_eq!(r == crate::sat::SolveResult::Sat, expect, "value {v}");
            }
        }
        // Lazy orbits find an instance through the range atom.
        let value = |v: StateVar| if v == StateVar::Cell(lev) { 3 } else { 0 };
        let ge_only = Lemma {
            atoms: vec![Atom {
                var: 1,
                index: vec![PVal::Proc(0)],
                value: PVal::Const(encode(Rel::Ge, 2)),
            }],
            ..l
        };
        assert!(ge_only.matching(&ts, 3, &value, &stop).unwrap().is_some());
        let value = |_: StateVar| 1;
        assert!(ge_only.matching(&ts, 3, &value, &stop).unwrap().is_none());
    }

    #[test]
    fn ordered_lemmas_keep_the_order_of_their_processes() {
        use crate::bmc::frame::Encoding;
        let m = crate::lang::load_str(
            "t.cub",
            "type loc = I | T | C\narray A[proc] : loc\ninit (z) { A[z] = I }\n\
             unsafe (z1 z2) { A[z1] = C && A[z2] = C }\n\
             transition t (i) requires { A[i] = I && forall_other j. (i < j || A[j] = I) } { A[i] := T; }\n",
        )
        .unwrap();
        assert!(m.is_ordered());
        let ts = Transys::new(&m, 1, 4, Encoding::Binary);
        let cell = |p: i64| StateVar::Cell(ts.inst.slot_of(0, &[p]).unwrap());
        // A[4] = T and A[2] = C: the variables follow the processes' order (x1 = 2,
        // x2 = 4), whatever order the atoms come in.
        let cube = restrict(&ts, &vec![(cell(4), 1), (cell(2), 2)], 4);
        let l = Lemma::from_cube(&ts, &cube, true);
        assert!(l.ordered && l.procs == 2);
        assert_eq!(
            l.render(&ts, (4, 4)),
            "forall i < j. not (A[i] = C && A[j] = T)"
        );
        // Its orbit: the increasing pairs of 1..4, C(4, 2) = 6 of them, each with the
        // lower process critical.
        assert_eq!(l.orbit_size(4), 6);
        let orbit = l.orbit(&ts);
        assert_eq!(orbit.len(), 6);
        for (a, b) in [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)] {
            let mut want = vec![(cell(a), 2), (cell(b), 1)];
            want.sort_unstable();
            let cells = |c: &Cube| -> Cube {
                c.iter()
                    .copied()
                    .filter(|(v, _)| matches!(v, StateVar::Cell(_)))
                    .collect()
            };
            assert!(orbit.iter().any(|c| cells(c) == want), "({a}, {b})");
        }
        // A state with the higher process critical matches no member; with the lower
        // one, it does.
        let value = |v: StateVar| {
            if v == cell(3) {
                2
            } else if v == cell(1) {
                1
            } else {
                0
            }
        };
        assert!(
            l.matching(&ts, 4, &value, &Stop::default())
                .unwrap()
                .is_none()
        );
        let value = |v: StateVar| {
            if v == cell(1) {
                2
            } else if v == cell(3) {
                1
            } else {
                0
            }
        };
        assert!(
            l.matching(&ts, 4, &value, &Stop::default())
                .unwrap()
                .is_some()
        );
        // Without the order (a symmetric lemma) the same atoms subsume the ordered
        // lemma; the ordered one does not subsume the symmetric one.
        let sym = Lemma {
            ordered: false,
            ..l.clone()
        };
        assert!(sym.subsumes(&l) && !l.subsumes(&sym) && l.subsumes(&l));
        // The reversed ordered lemma (higher process critical) says something else.
        let rev = Lemma {
            atoms: l
                .atoms
                .iter()
                .map(|a| Atom {
                    index: vec![match a.index[0] {
                        PVal::Proc(i) => PVal::Proc(1 - i),
                        c => c,
                    }],
                    ..a.clone()
                })
                .collect(),
            ..l.clone()
        };
        assert!(!rev.subsumes(&l) && !l.subsumes(&rev));
        assert_eq!(simplify(vec![l.clone(), rev.clone()]).len(), 2);
        // Each member of the orbit as a lemma of its own.
        let members = l.members_as_lemmas(&ts);
        assert_eq!(members.len(), 6);
        assert!(members.iter().all(|x| x.procs == 0 && !x.ordered));
    }

    #[test]
    fn simplify_merges_and_subsumes() {
        // not (A[i] = 2 && A[j] = 2) at 2..5 and at 6..9: one lemma at 2..9.
        let l = |lo, hi, atoms: Vec<Atom>, procs| Lemma {
            lo,
            hi,
            procs,
            atoms,
            ordered: false,
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
