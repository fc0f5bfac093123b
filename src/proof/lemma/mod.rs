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
//! This module owns lemmas and their orbits; `cube` holds the widths a concrete cube
//! lives at (`restrict`), `range` the range atoms, `subsume` the comparison of lemmas
//! (canonical atoms, subsumption) and `simplify`, `matching` the search for an orbit
//! member a state satisfies, `carry` the restating of a lemma at the next size, and
//! `render` the lemma as a formula of a certificate.

mod carry;
mod cube;
mod matching;
mod range;
mod render;
mod subsume;

pub use carry::Anchor;
pub use cube::{cell_exists, interval, processes, restrict, with_interval};
pub use matching::Interrupted;
pub use range::{Rel, atom_implies, atom_lit, cube_within, decode, encode, ordered, satisfies};
pub use subsume::simplify;

use crate::model::ir::{Ty, VarId};
use crate::transys::{StateVar, Transys};

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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::Stop;

    /// An atom `var[x_{i+1}] = v`.
    pub(super) fn atom(var: usize, i: usize, v: i64) -> Atom {
        Atom {
            var,
            index: vec![PVal::Proc(i)],
            value: PVal::Const(v),
        }
    }

    #[test]
    fn ordered_lemmas_keep_the_order_of_their_processes() {
        use crate::transys::frame::Encoding;
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
        // Whether a member matches the state where cell `a` holds 2 and cell `b` 1 (the
        // others 0). A state with the higher process critical matches no member; with
        // the lower one, it does.
        let matched = |a: i64, b: i64| {
            let value = |v: StateVar| match v {
                _ if v == cell(a) => 2,
                _ if v == cell(b) => 1,
                _ => 0,
            };
            let m = l.matching(&ts, 4, &value, &Stop::default());
            m.expect("no limit").is_some()
        };
        assert!(!matched(3, 1));
        assert!(matched(1, 3));
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
}
