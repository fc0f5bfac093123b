//! States of the small widths reached by the compiled transitions (`model::compiled`,
//! in the interpreter's order), breadth first, as value vectors of the transition
//! system's state variables: a cube that holds in a state reached in d ≥ 1 steps is
//! not inductive relative to any frame F_k with k ≥ d - 1 (F_k contains every state
//! reached within k steps, and the path to the state enters the cube, or the cube's
//! orbit, from outside it), so IC3 need not ask the SAT solver. Generalization (MIC)
//! tries to drop atoms mostly in vain, and propagation tries to push lemmas that only hold near the initial states;
//! with the reached states both failures are told without a SAT call, and the state
//! before the cube on the path is the predecessor that generalization joins with.
//! The same use of forward states to guide the backward search as Cubicle's BRAB
//! (S. Conchon, A. Goel, S. Krstić, A. Mebsout and F. Zaïdi, *Invariants for Finite
//! Instances and Beyond*, FMCAD 2013), here only as a shortcut: the states never
//! make a lemma hold, every lemma is still proved relatively inductive by SAT.
//!
//! The vectors are checked against the circuit before use (`Pdr::reached_agrees`):
//! some initial states satisfy `init`, and some steps are steps of the system. Not
//! used with the order-preserving orbits of an ordered family: those are guesses, so
//! the frames need not contain every reached state.

use crate::hash::FastMap;
use crate::model::compiled::{Compiled, Scratch};
use crate::model::init::for_each_initial;
use crate::model::instance::{Instance, State};
use crate::proof::lemma::{self, Cube};
use crate::transys::{StateVar, Transys};

/// At most this many states, over every width (German at sizes 1..2: 1,500).
pub(super) const MAX_STATES: usize = 20_000;

/// A state found: its values, width, depth and parent (an index).
type Visit = (Vec<i64>, usize, usize, usize);

/// Reached states in order of depth, with their breadth-first parents.
pub(super) struct Reached {
    /// Values of the state variables (`Transys::state_vars` order).
    pub values: Vec<Vec<i64>>,
    pub width: Vec<usize>,
    pub depth: Vec<usize>,
    /// The parent's index; `usize::MAX` for an initial state.
    pub parent: Vec<usize>,
    /// `upto[d]`: the states of depth ≤ d come first, this many.
    upto: Vec<usize>,
    /// Position of each state variable in a vector.
    pos: FastMap<StateVar, usize>,
    /// Per atom, the states satisfying it (a bit per state).
    bits: FastMap<(StateVar, i64), Vec<u64>>,
}

impl Reached {
    /// The states reached at the widths of `ts` (each width's instance searched
    /// breadth first; the search stops at `MAX_STATES` in all, which keeps the
    /// depths exact); `None` when the interpreter meets an error or there is no state.
    pub(super) fn new(ts: &Transys) -> Option<Reached> {
        let svars = ts.state_vars();
        let model = ts.inst.model;
        // (values, width, depth, parent), parents as global indices before sorting.
        let mut found: Vec<Visit> = Vec::new();
        for w in ts.agg.min.max(1)..=ts.agg.max {
            let inst = Instance::new(model, w);
            if !inst.has_states() {
                continue;
            }
            let base = found.len();
            let mut seen: FastMap<State, usize> = FastMap::default();
            let mut order: Vec<State> = Vec::new();
            let mut meta: Vec<(usize, usize)> = Vec::new();
            let room = MAX_STATES.saturating_sub(base);
            for_each_initial(&inst, &mut |s| {
                if seen.len() >= room {
                    return false;
                }
                if !seen.contains_key(s) {
                    seen.insert(s.to_vec(), order.len());
                    order.push(s.to_vec());
                    meta.push((0, usize::MAX));
                }
                true
            })
            .ok()?;
            let compiled = Compiled::new(&inst);
            let (mut scratch, mut cur, mut succ) = (Scratch::default(), Vec::new(), Vec::new());
            let mut i = 0;
            while i < order.len() && order.len() < room {
                cur.clone_from(&order[i]);
                succ.clear();
                compiled.each_successor(&mut cur, &mut scratch, &mut |s| succ.push(s.to_vec()));
                for s in succ.drain(..) {
                    if order.len() >= room {
                        break;
                    }
                    if !seen.contains_key(&s) {
                        seen.insert(s.clone(), order.len());
                        order.push(s);
                        meta.push((meta[i].0 + 1, base + i));
                    }
                }
                i += 1;
            }
            for (s, (d, p)) in order.iter().zip(meta) {
                found.push((Self::vector(ts, &svars, &inst, s, w), w, d, p));
            }
        }
        if found.is_empty() {
            return None;
        }
        // Sort by depth (stable), renumbering the parents.
        let mut idx: Vec<usize> = (0..found.len()).collect();
        idx.sort_by_key(|&i| found[i].2);
        let mut new_of = vec![0; found.len()];
        for (n, &i) in idx.iter().enumerate() {
            new_of[i] = n;
        }
        let max_depth = found.iter().map(|x| x.2).max().unwrap_or(0);
        let mut upto = vec![0; max_depth + 1];
        for x in &found {
            upto[x.2] += 1;
        }
        for d in 1..upto.len() {
            upto[d] += upto[d - 1];
        }
        let mut r = Reached {
            values: Vec::with_capacity(found.len()),
            width: Vec::with_capacity(found.len()),
            depth: Vec::with_capacity(found.len()),
            parent: Vec::with_capacity(found.len()),
            upto,
            pos: svars.iter().enumerate().map(|(i, &v)| (v, i)).collect(),
            bits: FastMap::default(),
        };
        let mut found: Vec<Option<Visit>> = found.into_iter().map(Some).collect();
        for &i in &idx {
            let (v, w, d, p) = found[i].take()?;
            r.values.push(v);
            r.width.push(w);
            r.depth.push(d);
            r.parent.push(if p == usize::MAX { p } else { new_of[p] });
        }
        Some(r)
    }

    /// A state of the instance of width `w` as values of the system's state variables:
    /// a cell that does not exist at the width holds its lowest value, the slots
    /// beyond the width are absent.
    fn vector(ts: &Transys, svars: &[StateVar], inst: &Instance, s: &[i64], w: usize) -> Vec<i64> {
        svars
            .iter()
            .map(|&v| match v {
                StateVar::Cell(c) => {
                    let slot = &ts.inst.slots[c];
                    inst.slot_of(slot.var, &slot.index)
                        .map_or(slot.lo, |j| s[j])
                }
                StateVar::Absent(p) => (p + 1 > w) as i64,
            })
            .collect()
    }

    /// The value of state variable `v` in state `i`.
    #[cfg(test)]
    pub(super) fn value(&self, i: usize, v: StateVar) -> Option<i64> {
        Some(self.values.get(i)?[*self.pos.get(&v)?])
    }

    /// Where state variable `v` sits in the value vectors.
    pub(super) fn position(&self, v: StateVar) -> Option<usize> {
        self.pos.get(&v).copied()
    }

    /// The atom's states, as bits.
    fn atom_bits(&mut self, atom: (StateVar, i64)) -> Option<&Vec<u64>> {
        if !self.bits.contains_key(&atom) {
            let &at = self.pos.get(&atom.0)?;
            let mut b = vec![0u64; self.values.len().div_ceil(64)];
            for (i, v) in self.values.iter().enumerate() {
                if lemma::satisfies(v[at], atom.1) {
                    b[i / 64] |= 1 << (i % 64);
                }
            }
            self.bits.insert(atom, b);
        }
        self.bits.get(&atom)
    }

    /// A state of depth 1..=`depth` in the cube, if any (the first found).
    pub(super) fn within(&mut self, cube: &Cube, depth: usize) -> Option<usize> {
        let first = self.upto[0];
        let end = self.upto[depth.min(self.upto.len() - 1)];
        if first >= end {
            return None;
        }
        for &atom in cube {
            self.atom_bits(atom)?;
        }
        let bits: Vec<&Vec<u64>> = cube.iter().filter_map(|a| self.bits.get(a)).collect();
        // Word by word from the first state of depth 1, ending at the first state in
        // every atom: most cubes meet one early, or an atom rules out whole words.
        for w in first / 64..end.div_ceil(64) {
            let mut word = bits.iter().fold(!0u64, |acc, b| acc & b[w]);
            if w == first / 64 {
                word &= !0u64 << (first % 64);
            }
            if word != 0 {
                let i = w * 64 + word.trailing_zeros() as usize;
                return (i < end).then_some(i);
            }
        }
        None
    }

    /// The last state outside the cube on the breadth-first path to state `i` (which
    /// is in the cube), if the path starts outside it.
    pub(super) fn entry(&self, cube: &Cube, i: usize) -> Option<usize> {
        let mut cur = i;
        loop {
            let p = self.parent[cur];
            if p == usize::MAX {
                return None;
            }
            let inside = cube.iter().all(|&(v, x)| {
                self.pos
                    .get(&v)
                    .is_some_and(|&at| lemma::satisfies(self.values[p][at], x))
            });
            if !inside {
                return Some(p);
            }
            cur = p;
        }
    }
}

/// Run this many SAT calls before the states are computed: a run that converges at
/// once does not pay for them.
const AFTER_CALLS: usize = 300;

impl super::Pdr<'_, '_> {
    /// The reached states, computed (and checked against the circuit) once the run
    /// has made `AFTER_CALLS` SAT calls; `None` before, or when they cannot be had.
    fn reached(&mut self) -> Option<&mut Reached> {
        // Frames hold every reached state only when orbits are symmetries: with the
        // order-preserving orbits of an ordered family (guesses) they need not.
        if self.sym && !self.ts.inst.model.is_symmetric() {
            return None;
        }
        if self.reached.is_none() && self.stats.sat_calls >= AFTER_CALLS {
            let r = Reached::new(self.ts).filter(|r| self.reached_agrees(r));
            self.reached = Some(r);
        }
        self.reached.as_mut()?.as_mut()
    }

    /// Whether the first initial states satisfy `init` in the circuit and the first
    /// steps are steps of it (the lift solver: the next-state function alone).
    fn reached_agrees(&mut self, r: &Reached) -> bool {
        let svars = self.svars.clone();
        let atoms = |ts: &mut Transys, i: usize, next: bool| -> Vec<crate::sat::Lit> {
            svars
                .iter()
                .zip(&r.values[i])
                .map(|(&v, &x)| lemma::atom_lit(ts, v, x, next))
                .collect()
        };
        let inits: Vec<usize> = (0..r.values.len())
            .filter(|&i| r.depth[i] == 0)
            .take(4)
            .collect();
        let steps: Vec<usize> = (0..r.values.len())
            .filter(|&i| r.depth[i] > 0)
            .take(8)
            .collect();
        for i in inits {
            let mut a = atoms(self.ts, i, false);
            a.push(self.ts.init);
            if !matches!(self.init_sat(&a), Ok(true)) {
                return false;
            }
        }
        for i in steps {
            let mut a = atoms(self.ts, r.parent[i], false);
            a.extend(atoms(self.ts, i, true));
            self.stats.sat_calls += 1;
            if self.lift.solve(&self.ts.c.cnf, &a, &self.opts.stop) != crate::sat::SolveResult::Sat
            {
                return false;
            }
        }
        true
    }

    /// Whether a state reached in 1..=`depth` steps lies in the cube: then ¬cube is
    /// not inductive relative to F_{depth-1} (nor to any F_k, k < depth).
    pub(super) fn reached_within(&mut self, cube: &Cube, depth: usize) -> bool {
        self.reached()
            .is_some_and(|r| r.within(cube, depth).is_some())
    }

    /// When a state reached in 1..=`level` steps lies in the cube (so relative
    /// induction at `level` fails): `Some` of the state before the cube on its path
    /// (a predecessor of the cube outside it), or `Some(None)` when the path starts
    /// inside the cube.
    pub(super) fn reached_pred(
        &mut self,
        cube: &Cube,
        level: usize,
    ) -> Option<Option<super::Found>> {
        let r = self.reached()?;
        let i = r.within(cube, level)?;
        Some(r.entry(cube, i).map(|p| super::Found {
            values: r.values[p].clone(),
            width: r.width[p],
            inputs: Vec::new(),
            initial: r.depth[p] == 0,
        }))
    }
}
