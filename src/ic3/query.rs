//! The SAT queries of IC3: a frame's solver (adding lazily the orbit members a model
//! violates), whether a cube meets the initial states, relative induction, and lifting
//! a state found to the atoms that force it.

use super::{Found, Pdr, RelInd, Stopped, TEMP_ORBIT, blocking_clause};
use crate::proof::lemma::{self, Cube, Lemma};
use crate::sat::{Lit, SolveResult};
use crate::transys::StateVar;

impl Pdr<'_, '_> {
    /// Solve with solver i; for frames, lazily add every orbit instance a model
    /// violates until none does.
    pub(super) fn solve(&mut self, i: usize, assumptions: &[Lit]) -> Result<SolveResult, Stopped> {
        loop {
            self.stats.sat_calls += 1;
            let r = self.solvers[i].solve(&self.ts.c.cnf, assumptions, &self.opts.stop);
            match r {
                SolveResult::Unknown => {
                    return Err(self.stopped());
                }
                SolveResult::Unsat => return Ok(r),
                SolveResult::Sat if i == 0 => return Ok(r),
                SolveResult::Sat => {}
            }
            if !self
                .entries
                .iter()
                .any(|e| e.alive && e.lazy && e.level >= i)
            {
                return Ok(r);
            }
            let (values, width) = {
                let s = &self.solvers[i];
                (
                    self.ts.values(&|l| s.value(l)),
                    self.ts.width(&|l| s.value(l)),
                )
            };
            // Lemmas read cells only, and cells come first among the state variables.
            let value = |v: StateVar| match v {
                StateVar::Cell(s) => values[s],
                StateVar::Absent(_) => 0,
            };
            let mut added = false;
            let mut stopped = false;
            for e in self
                .entries
                .iter()
                .filter(|e| e.alive && e.lazy && e.level >= i)
            {
                match e.lemma.matching(self.ts, width, &value, &self.opts.stop) {
                    Ok(Some(c)) => {
                        let cl = blocking_clause(self.ts, &c);
                        self.solvers[i].add_clause(&cl);
                        added = true;
                    }
                    Ok(None) => {}
                    Err(_) => {
                        stopped = true;
                        break;
                    }
                }
            }
            if stopped {
                return Err(self.stopped());
            }
            if !added {
                return Ok(r);
            }
        }
    }

    /// The state (and inputs) of solver i's model.
    pub(super) fn found(&self, i: usize) -> Found {
        let s = &self.solvers[i];
        let val = |l: Lit| s.value(l);
        Found {
            values: self.ts.values(&val),
            width: self.ts.width(&val),
            inputs: self
                .ts
                .inputs
                .iter()
                .map(|&v| if val(v) { v } else { -v })
                .collect(),
            initial: val(self.ts.init),
        }
    }

    /// The state as a cube: every cell that exists at its width, and the presence bits.
    pub(super) fn full_cube(&self, f: &Found) -> Cube {
        self.svars
            .iter()
            .zip(&f.values)
            .filter(|(v, _)| match v {
                StateVar::Cell(s) => lemma::cell_exists(self.ts, *s, f.width),
                StateVar::Absent(_) => true,
            })
            .map(|(&v, &x)| (v, x))
            .collect()
    }

    pub(super) fn atoms(&mut self, cube: &Cube, next: bool) -> Vec<Lit> {
        cube.iter()
            .map(|&(v, x)| lemma::atom_lit(self.ts, v, x, next))
            .collect()
    }

    /// Does the cube contain an initial state?
    pub(super) fn init_intersects(&mut self, cube: &Cube) -> Result<bool, Stopped> {
        // Most cubes have an atom no initial state satisfies; each atom is asked once.
        for &atom in cube {
            let possible = match self.init_atoms.get(&atom) {
                Some(&b) => b,
                None => {
                    let a = [
                        lemma::atom_lit(self.ts, atom.0, atom.1, false),
                        self.ts.init,
                    ];
                    let b = self.init_sat(&a)?;
                    self.init_atoms.insert(atom, b);
                    b
                }
            };
            if !possible {
                return Ok(false);
            }
        }
        let mut a = self.atoms(cube, false);
        a.push(self.ts.init);
        self.init_sat(&a)
    }

    pub(super) fn init_sat(&mut self, assumptions: &[Lit]) -> Result<bool, Stopped> {
        self.stats.sat_calls += 1;
        self.stats.init_calls += 1;
        match self
            .init_solver
            .solve(&self.ts.c.cnf, assumptions, &self.opts.stop)
        {
            SolveResult::Sat => Ok(true),
            SolveResult::Unsat => Ok(false),
            SolveResult::Unknown => Err(self.stopped()),
        }
    }

    /// Relative induction of ¬cube at `level`: F_{level-1} ∧ ¬cube ∧ T ∧ cube'
    /// unsatisfiable (`temp`: add ¬cube for the query; without it the clause must be in
    /// the frame already, as in propagation). With symmetry the hypothesis is the
    /// whole orbit of ¬cube: frames and steps are symmetric, so if no state of the frame
    /// outside the orbit steps into the cube, the orbit is inductive relative to the
    /// frame. The cube must be `restrict`ed (its orbit is what is added). The core
    /// keeps the presence atoms, so that it stays restricted.
    pub(super) fn relind(
        &mut self,
        cube: &Cube,
        level: usize,
        temp: bool,
    ) -> Result<RelInd, Stopped> {
        let f = level - 1;
        let next = self.atoms(cube, true);
        let mut a = next.clone();
        if f == 0 {
            a.push(self.ts.init);
        }
        let mut act = None;
        if temp && f > 0 {
            let x = self.ts.c.var();
            // A large orbit costs more clauses than its stronger hypothesis saves;
            // ¬cube alone is a weaker hypothesis, so the check stays sound.
            let lemma = Lemma::from_cube(self.ts, cube, self.sym);
            // In an ordered family an orbit is a guess, not a symmetry: no hypothesis.
            let members = if self.sym
                && self.ts.inst.model.is_symmetric()
                && lemma.orbit_size(self.ts.agg.max.min(lemma.hi)) <= TEMP_ORBIT
            {
                lemma.orbit(self.ts)
            } else {
                vec![cube.clone()]
            };
            for m in &members {
                let mut cl: Vec<Lit> = self.atoms(m, false).iter().map(|&l| -l).collect();
                cl.push(-x);
                self.solvers[f].add_clause(&cl);
            }
            a.push(x);
            act = Some(x);
        }
        let r = self.solve(f, &a);
        let out = match r {
            Err(s) => Err(s),
            Ok(SolveResult::Sat) => Ok(RelInd::Pred(self.found(f))),
            Ok(_) => {
                let s = &self.solvers[f];
                let core: Cube = cube
                    .iter()
                    .zip(&next)
                    .filter(|((v, _), l)| {
                        matches!(v, StateVar::Absent(_)) || s.failed(**l).unwrap_or(true)
                    })
                    .map(|(x, _)| *x)
                    .collect();
                Ok(RelInd::Holds(if core.is_empty() {
                    cube.clone()
                } else {
                    core
                }))
            }
        };
        if let Some(x) = act {
            self.solvers[f].add_clause(&[-x]);
        }
        out
    }

    /// A bad state's cube, reduced to atoms that force it to be bad.
    pub(super) fn lift_bad(&mut self, f: &Found) -> Result<Cube, Stopped> {
        let full = self.full_cube(f);
        let mut a = self.atoms(&full, false);
        a.push(-self.bad);
        self.reduce(full, a)
    }

    /// A predecessor's cube, reduced to atoms that (with its inputs) force the step into
    /// `target`.
    pub(super) fn lift_pred(&mut self, f: &Found, target: &Cube) -> Result<Cube, Stopped> {
        let full = self.full_cube(f);
        let x = self.ts.c.var();
        let mut cl: Vec<Lit> = self.atoms(target, true).iter().map(|&l| -l).collect();
        cl.push(-x);
        self.lift.add_clause(&cl);
        let mut a = self.atoms(&full, false);
        a.push(x);
        a.extend_from_slice(&f.inputs);
        let r = self.reduce(full, a);
        self.lift.add_clause(&[-x]);
        r
    }

    /// Solve with the lifting solver under `a` (the cube's atoms first); on unsat keep
    /// the atoms in the core, and every presence atom (an obligation keeps its width).
    pub(super) fn reduce(&mut self, full: Cube, a: Vec<Lit>) -> Result<Cube, Stopped> {
        self.stats.sat_calls += 1;
        match self.lift.solve(&self.ts.c.cnf, &a, &self.opts.stop) {
            SolveResult::Unknown => Err(self.stopped()),
            SolveResult::Sat => Ok(full),
            SolveResult::Unsat => Ok(full
                .iter()
                .zip(&a)
                .filter(|((v, _), l)| {
                    matches!(v, StateVar::Absent(_)) || self.lift.failed(**l).unwrap_or(true)
                })
                .map(|(x, _)| *x)
                .collect()),
        }
    }

    /// Is the cube already excluded by frame `level`?
    pub(super) fn blocked(&mut self, cube: &Cube, level: usize) -> Result<bool, Stopped> {
        let a = self.atoms(cube, false);
        Ok(self.solve(level, &a)? == SolveResult::Unsat)
    }
}
