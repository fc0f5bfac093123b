//! The frames and the main loop of IC3: blocking the bad states of the top frame
//! through proof obligations, propagating lemmas, adding lemmas with their orbits,
//! and minimizing the invariant found.

use super::{
    Cex, EAGER_ORBIT, Entry, INF, Obligation, Pdr, RelInd, Stopped, add_guarded, blocking_clause,
    new_solver, rep_violated,
};
use crate::proof::lemma::{self, Cube, Lemma};
use crate::sat::circuit::FALSE;
use crate::sat::{Lit, SolveResult};
use crate::transys::{FIRE, STATE, STEP};
use crate::verdict::{Limit, PropId};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

impl Pdr<'_, '_> {
    pub(super) fn run(&mut self) -> Result<Option<Vec<Lemma>>, Stopped> {
        self.rebuild_bad();
        // Depth 0: initial bad states.
        loop {
            if self.bad == FALSE {
                return Ok(Some(Vec::new()));
            }
            let a = vec![self.ts.init, self.bad];
            match self.solve(0, &a)? {
                SolveResult::Sat => {
                    let f = self.found(0);
                    let key = self.key_of(0);
                    self.record(key, f.width, 0);
                }
                _ => break,
            }
        }
        self.push_frame()?;
        let mut k = 1;
        loop {
            self.top = k;
            // Block every bad state of frame k.
            loop {
                if self.bad == FALSE {
                    return Ok(Some(Vec::new()));
                }
                self.check_limits()?;
                let a = vec![self.bad];
                if self.solve(k, &a)? != SolveResult::Sat {
                    break;
                }
                let f = self.found(k);
                let key = self.key_of(k);
                let cube = self.lift_bad(&f)?;
                if let Some(depth) = self.block(cube, f.width, k)? {
                    self.record(key, f.width, depth);
                }
            }
            self.push_frame()?;
            if let Some(inv) = self.propagate(k)? {
                return Ok(Some(inv));
            }
            k += 1;
            self.stats.frames = k;
            self.progress(k);
            if self.opts.max_frames.is_some_and(|m| k > m) {
                return Ok(None);
            }
        }
    }

    /// Push every lemma of levels 1..=k up a level where it stays relatively inductive;
    /// a level left empty makes the lemmas above it an inductive invariant (minimized
    /// and simplified).
    pub(super) fn propagate(&mut self, k: usize) -> Result<Option<Vec<Lemma>>, Stopped> {
        for i in 1..=k {
            let ids: Vec<usize> = (0..self.entries.len())
                .filter(|&x| self.entries[x].alive && self.entries[x].level == i)
                .collect();
            let mut left = 0;
            for id in ids {
                // Hundreds of lemmas at a dozen levels, each a SAT call too quick for
                // the solver to poll the limit: the pass ran for seconds past
                // `--timeout` (`live --fair --engine ic3` on Peterson with a split
                // transition overran it by 4 s).
                self.check_limits()?;
                let rep = self.entries[id].rep.clone();
                // A lemma false in a state reached within i + 1 steps stays here.
                if self.reached_within(&rep, i + 1) {
                    left += 1;
                    continue;
                }
                match self.relind(&rep, i + 1, false)? {
                    RelInd::Holds(_) => self.raise(id, i + 1),
                    RelInd::Pred(_) => left += 1,
                }
            }
            if left == 0 {
                self.stats.frames = k + 1;
                let inv: Vec<Lemma> = self
                    .entries
                    .iter()
                    .filter(|x| x.alive && x.level > i)
                    .map(|x| x.lemma.clone())
                    .collect();
                let inv = lemma::simplify(self.minimize(inv)?);
                return Ok(Some(inv));
            }
        }
        Ok(None)
    }

    pub(super) fn check_limits(&mut self) -> Result<(), Stopped> {
        if self.opts.stop.now() {
            return Err(self.stopped());
        }
        if self
            .opts
            .max_memory
            .is_some_and(|m| crate::limits::recent_memory().is_some_and(|r| r > m))
        {
            self.limit = Some(Limit::Memory);
            return Err(Stopped);
        }
        Ok(())
    }

    /// The search stops for the caller's deadline or interrupt; the limit says which.
    pub(super) fn stopped(&mut self) -> Stopped {
        self.limit = Some(Limit::of(&self.opts.stop));
        Stopped
    }

    pub(super) fn progress(&mut self, k: usize) {
        if self.opts.progress && self.last_progress.elapsed().as_secs_f64() >= 2.0 {
            self.last_progress = Instant::now();
            crate::progress::line(format!(
                "ic3 frame {k}, {} lemmas, {} obligations, {} SAT calls, {:.1}s",
                self.entries.iter().filter(|x| x.alive).count(),
                self.stats.obligations,
                self.stats.sat_calls,
                self.start.elapsed().as_secs_f64()
            ));
        }
    }

    /// The bad literal: every open property at every width not excluded.
    pub(super) fn rebuild_bad(&mut self) {
        let mut parts = Vec::new();
        self.bad_keys.clear();
        let widths: Vec<usize> = (self.ts.agg.min..=self.ts.agg.max).collect();
        for &key in &self.keys.clone() {
            let ex = self.excluded.get(&key).cloned().unwrap_or_default();
            if widths.iter().all(|w| ex.contains(w)) {
                continue;
            }
            let b = match key {
                PropId::Unsafe(p) => {
                    let (b, e) = self.ts.bad(p);
                    self.ts.c.and2(b, -e)
                }
                PropId::IntBound => self.ts.int_bound(false),
                _ => self.ts.range(&self.opts.props, false),
            };
            let blocked: Vec<Lit> = ex.iter().map(|&w| self.ts.agg.width[w - 1]).collect();
            let any = self.ts.c.or(&blocked);
            let l = self.ts.c.and2(b, -any);
            self.bad_keys.push((key, l));
            parts.push(l);
        }
        self.bad = self.ts.c.or(&parts);
    }

    pub(super) fn key_of(&self, solver: usize) -> PropId {
        let s = &self.solvers[solver];
        self.bad_keys
            .iter()
            .find(|(_, l)| s.value(*l))
            .map(|x| x.0)
            .unwrap_or(PropId::Range)
    }

    pub(super) fn record(&mut self, key: PropId, width: usize, depth: usize) {
        self.cexs.push(Cex { key, width, depth });
        self.excluded.entry(key).or_default().push(width);
        self.rebuild_bad();
    }

    pub(super) fn push_frame(&mut self) -> Result<(), Stopped> {
        let mut s =
            new_solver(self.ts, self.opts.solver, &[STATE, STEP, FIRE]).map_err(|_| Stopped)?;
        // Lemmas known inductive belong to every frame.
        for id in 0..self.entries.len() {
            let e = &self.entries[id];
            if !(e.alive && e.level == INF) {
                continue;
            }
            for m in &self.members(id) {
                s.add_clause(&blocking_clause(self.ts, m));
            }
        }
        self.solvers.push(s);
        Ok(())
    }

    /// Block a bad cube at frame k through proof obligations; `Some(depth)` when it
    /// is reachable (a counterexample of that length).
    pub(super) fn block(
        &mut self,
        cube: Cube,
        width: usize,
        k: usize,
    ) -> Result<Option<usize>, Stopped> {
        let mut obs = vec![Obligation {
            cube,
            width,
            level: k,
            depth: 0,
        }];
        let mut heap = BinaryHeap::new();
        heap.push(Reverse((k, 0usize, 0usize)));
        while let Some(Reverse((level, _, id))) = heap.pop() {
            self.check_limits()?;
            self.stats.obligations += 1;
            self.progress(k);
            let (cube, w, depth) = {
                let o = &obs[id];
                (o.cube.clone(), o.width, o.depth)
            };
            if self.init_intersects(&cube)? {
                return Ok(Some(depth));
            }
            if self.blocked(&cube, level)? {
                if level < k {
                    obs[id].level = level + 1;
                    heap.push(Reverse((level + 1, depth, id)));
                }
                continue;
            }
            match self.relind(&cube, level, true)? {
                RelInd::Holds(core) => {
                    let core = if core.len() < cube.len() && self.init_intersects(&core)? {
                        cube.clone()
                    } else {
                        core
                    };
                    let core = self.canon(core);
                    let g = self.generalize(core, level, w, 0)?;
                    let mut lvl = level;
                    while lvl < k && !self.reached_within(&g, lvl + 1) {
                        match self.relind(&g, lvl + 1, true)? {
                            RelInd::Holds(_) => lvl += 1,
                            RelInd::Pred(_) => break,
                        }
                    }
                    self.add_lemma(g, lvl);
                    if lvl < k {
                        obs[id].level = lvl + 1;
                        heap.push(Reverse((lvl + 1, depth, id)));
                    }
                }
                RelInd::Pred(f) => {
                    if level == 1 || f.initial {
                        return Ok(Some(depth + 1));
                    }
                    let t = self.lift_pred(&f, &cube)?;
                    obs.push(Obligation {
                        cube: t,
                        width: f.width,
                        level: level - 1,
                        depth: depth + 1,
                    });
                    heap.push(Reverse((level - 1, depth + 1, obs.len() - 1)));
                    heap.push(Reverse((level, depth, id)));
                }
            }
        }
        Ok(None)
    }

    /// A subset of an inductive invariant that is still inductive and still excludes
    /// the bad states: the lemmas the bad states' exclusion needs, closed under the
    /// lemmas each needed lemma's consecution needs (unsat cores over one literal per
    /// lemma, with the whole invariant assumed). Cores are not minimal, but the result
    /// is an invariant by construction: every kept lemma follows in one step from kept
    /// lemmas, and the kept ones exclude the bad states.
    pub(super) fn minimize(&mut self, inv: Vec<Lemma>) -> Result<Vec<Lemma>, Stopped> {
        if inv.len() < 2 {
            return Ok(inv);
        }
        let mut s =
            new_solver(self.ts, self.opts.solver, &[STATE, STEP, FIRE]).map_err(|_| Stopped)?;
        let sym = self.sym;
        let cur: Vec<Lit> = inv
            .iter()
            .map(|l| add_guarded(self.ts, s.as_mut(), l, sym))
            .collect();
        // Inv and the steps are symmetric: the next state's violation is asked of
        // each representative only.
        let nxt_bad: Vec<Lit> = inv.iter().map(|l| rep_violated(self.ts, l, true)).collect();
        let mut need = vec![false; inv.len()];
        let mut work: Vec<Option<usize>> = vec![None];
        while let Some(w) = work.pop() {
            self.check_limits()?;
            let mut a = cur.clone();
            a.push(match w {
                None => self.bad,
                Some(m) => nxt_bad[m],
            });
            self.stats.sat_calls += 1;
            match s.solve(&self.ts.c.cnf, &a, &self.opts.stop) {
                SolveResult::Unsat => {}
                // Not an invariant after all, or stopped: keep everything.
                _ => return Ok(inv),
            }
            for (j, &c) in cur.iter().enumerate() {
                if !need[j] && s.failed(c).unwrap_or(true) {
                    need[j] = true;
                    work.push(Some(j));
                }
            }
        }
        Ok(inv
            .into_iter()
            .zip(need)
            .filter(|x| x.1)
            .map(|x| x.0)
            .collect())
    }

    /// With symmetry, the member of the cube's orbit on processes 1..k: what is
    /// generalized, so that widths down to k stay open to it.
    pub(super) fn canon(&self, cube: Cube) -> Cube {
        if !self.sym {
            return cube;
        }
        Lemma::from_cube(self.ts, &cube, true)
            .representative(self.ts)
            .unwrap_or(cube)
    }

    /// Add ¬cube (with its orbit) to frames 1..=level.
    pub(super) fn add_lemma(&mut self, cube: Cube, level: usize) {
        let lemma = Lemma::from_cube(self.ts, &cube, self.sym);
        let lazy = self.sym && lemma.orbit_size(self.ts.agg.max.min(lemma.hi)) > EAGER_ORBIT;
        let members = if self.sym && !lazy {
            lemma.orbit(self.ts)
        } else {
            vec![cube.clone()]
        };
        // Older lemmas at this level or below that a member implies are dropped.
        for e in self
            .entries
            .iter_mut()
            .filter(|e| e.alive && e.level <= level)
        {
            if members.iter().any(|m| lemma::cube_within(&e.rep, m)) {
                e.alive = false;
            }
        }
        let top = level.min(self.solvers.len() - 1);
        for m in &members {
            let cl = blocking_clause(self.ts, m);
            for i in 1..=top {
                self.solvers[i].add_clause(&cl);
            }
        }
        self.entries.push(Entry {
            lemma,
            rep: cube,
            level,
            alive: true,
            lazy,
        });
    }

    /// Move lemma `id` up to `level` (its orbit: the new frame's solver gets it).
    pub(super) fn raise(&mut self, id: usize, level: usize) {
        let from = self.entries[id].level;
        for m in &self.members(id) {
            let cl = blocking_clause(self.ts, m);
            for i in from + 1..=level {
                self.solvers[i].add_clause(&cl);
            }
        }
        self.entries[id].level = level;
    }

    /// The cubes a frame blocks for entry `id`: its orbit, or its representative alone
    /// without symmetry or when the orbit is added lazily.
    pub(super) fn members(&self, id: usize) -> Vec<Cube> {
        let e = &self.entries[id];
        if self.sym && !e.lazy {
            e.lemma.orbit(self.ts)
        } else {
            vec![e.rep.clone()]
        }
    }
}
