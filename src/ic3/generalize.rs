//! Lemma generalization: drop atoms of a cube while its negation stays relatively
//! inductive (MIC), meeting a counterexample to generalization first by trying to
//! block it one level down (Z. Hassan, A. R. Bradley and F. Somenzi, *Better
//! Generalization in IC3*, FMCAD 2013), otherwise joining the cube with it.

use super::{Found, Pdr, RelInd, Stopped};
use crate::proof::lemma::{self, Cube, Rel};
use crate::transys::StateVar;

/// Counterexamples to generalization tried per atom, and their nesting depth.
const MAX_CTGS: usize = 3;
const MAX_CTG_DEPTH: usize = 1;

impl Pdr<'_, '_> {
    /// A subcube of `cube` whose negation is inductive relative to frame `level - 1`.
    pub(super) fn generalize(
        &mut self,
        cube: Cube,
        level: usize,
        width: usize,
        depth: usize,
    ) -> Result<Cube, Stopped> {
        let mut cube = cube;
        // Whole processes first: a lemma over fewer processes has a smaller orbit and
        // usually says more (one atom at a time, MIC keeps the counting lemmas that
        // the frames of the moment need, over 4 or 5 processes).
        if self.sym {
            cube = self.drop_processes(cube, level, width, depth)?;
        }
        // Presence atoms first: a lemma that holds at every width is worth more.
        let mut order = cube.clone();
        order.sort_by_key(|(v, _)| !matches!(v, crate::transys::StateVar::Absent(_)));
        for a in order {
            if cube.len() <= 1 {
                break;
            }
            if !cube.contains(&a) {
                continue;
            }
            let cand: Cube = cube.iter().copied().filter(|x| *x != a).collect();
            // Dropping a presence atom widens the widths; narrow them back to where
            // every cell and process of the cube exists, the form that is checked.
            let cand = self.canon(cand);
            let cand = lemma::restrict(self.ts, &cand, width);
            if cand.len() >= cube.len() && cand.iter().all(|x| cube.contains(x)) {
                continue;
            }
            if let Some(c) = self.down(cand, level, width, depth)? {
                cube = c;
            }
        }
        if self.opts.range_atoms {
            cube = self.widen(cube, level, width)?;
        }
        Ok(cube)
    }

    /// Drop every atom of one process at once, while the cube stays relatively
    /// inductive: fewer processes, smaller orbits.
    fn drop_processes(
        &mut self,
        mut cube: Cube,
        level: usize,
        width: usize,
        depth: usize,
    ) -> Result<Cube, Stopped> {
        let mut tried = 0;
        loop {
            let ps = lemma::processes(self.ts, &cube);
            if tried >= ps.len() || ps.len() <= 1 {
                return Ok(cube);
            }
            let p = ps[ps.len() - 1 - tried];
            let cand: Cube = cube
                .iter()
                .copied()
                .filter(|a| !lemma::processes(self.ts, &vec![*a]).contains(&p))
                .collect();
            let cand = self.canon(cand);
            let cand = lemma::restrict(self.ts, &cand, width);
            match self.down(cand, level, width, depth)? {
                Some(c) => {
                    cube = c;
                    tried = 0;
                }
                None => tried += 1,
            }
        }
    }

    /// Widen the equalities on ordered cells that generalization kept into range atoms
    /// (`cell >= v` or `cell <= v`, as far from the value as the lemma stays relatively
    /// inductive and clear of the initial states): one range lemma stands for the
    /// lemmas of every value it covers.
    fn widen(&mut self, mut cube: Cube, level: usize, width: usize) -> Result<Cube, Stopped> {
        let vars: Vec<StateVar> = cube
            .iter()
            .filter(|&&(v, x)| lemma::ordered(self.ts, v) && lemma::decode(x).0 == Rel::Eq)
            .map(|a| a.0)
            .collect();
        for v in vars {
            let Some(&(_, val)) = cube.iter().find(|a| a.0 == v) else {
                continue;
            };
            let (lo, size) = self.ts.domain(v);
            let hi = lo + size as i64 - 1;
            for (rel, step) in [(Rel::Ge, -1i64), (Rel::Le, 1)] {
                let mut best = None;
                let mut t = val;
                // `>= hi` and `<= lo` are the equality itself.
                if (rel == Rel::Ge && t == hi) || (rel == Rel::Le && t == lo) {
                    t += step;
                }
                // `>= lo` and `<= hi` hold everywhere: dropping the atom, tried already.
                while (rel == Rel::Ge && t > lo) || (rel == Rel::Le && t < hi) {
                    let cand: Cube = cube
                        .iter()
                        .map(|&(u, x)| {
                            if u == v {
                                (u, lemma::encode(rel, t))
                            } else {
                                (u, x)
                            }
                        })
                        .collect();
                    let cand = lemma::restrict(self.ts, &cand, width);
                    if self.init_intersects(&cand)? {
                        break;
                    }
                    match self.relind(&cand, level, true)? {
                        RelInd::Holds(_) => best = Some(cand),
                        RelInd::Pred(_) => break,
                    }
                    t += step;
                }
                if let Some(c) = best {
                    cube = c;
                    break;
                }
            }
        }
        Ok(cube)
    }

    /// The largest subcube of `cube` that is relatively inductive at `level`, if any.
    fn down(
        &mut self,
        mut cube: Cube,
        level: usize,
        width: usize,
        depth: usize,
    ) -> Result<Option<Cube>, Stopped> {
        let mut ctgs = 0;
        loop {
            if cube.is_empty() || self.init_intersects(&cube)? {
                return Ok(None);
            }
            // A reached state in the cube: relative induction fails without asking,
            // and the state before the cube on its path is a predecessor to join
            // with (reached, so no counterexample to generalization to block).
            if let Some(pred) = self.reached_pred(&cube, level) {
                match pred.and_then(|f| self.join(&cube, &f, width)) {
                    Some(joined) => {
                        cube = joined;
                        continue;
                    }
                    None => return Ok(None),
                }
            }
            match self.relind(&cube, level, true)? {
                RelInd::Holds(core) => {
                    let c = if core.len() < cube.len() && !self.init_intersects(&core)? {
                        core
                    } else {
                        cube
                    };
                    return Ok(Some(c));
                }
                RelInd::Pred(f) => {
                    let t = self.full_cube(&f);
                    if self.opts.ctg
                        && depth < MAX_CTG_DEPTH
                        && ctgs < MAX_CTGS
                        && level > 1
                        && !f.initial
                        && !self.init_intersects(&t)?
                        && !self.reached_within(&t, level - 1)
                        && let RelInd::Holds(core) = self.relind(&t, level - 1, true)?
                    {
                        ctgs += 1;
                        self.stats.ctgs += 1;
                        let core = if core.len() < t.len() && !self.init_intersects(&core)? {
                            core
                        } else {
                            t
                        };
                        let core = self.canon(core);
                        let mut j = level - 1;
                        while j < self.top {
                            match self.relind(&core, j + 1, true)? {
                                RelInd::Holds(_) => j += 1,
                                RelInd::Pred(_) => break,
                            }
                        }
                        let g = self.generalize(core, j, f.width, depth + 1)?;
                        self.add_lemma(g, j);
                        continue;
                    }
                    ctgs = 0;
                    match self.join(&cube, &f, width) {
                        Some(joined) => cube = joined,
                        None => return Ok(None),
                    }
                }
            }
        }
    }

    /// Join: keep the atoms of the cube that the predecessor satisfies (narrowed back
    /// to clean widths); `None` when that leaves the cube as it was.
    fn join(&mut self, cube: &Cube, f: &Found, width: usize) -> Option<Cube> {
        let t = self.full_cube(f);
        let mut joined = cube.clone();
        joined.retain(|a| t.iter().any(|b| b.0 == a.0 && lemma::satisfies(b.1, a.1)));
        let joined = self.canon(joined);
        let joined = lemma::restrict(self.ts, &joined, width);
        (joined != *cube).then_some(joined)
    }
}
