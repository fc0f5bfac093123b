//! The part of a set of candidate lemmas that the properties need: a subset that holds
//! initially, excludes the bad states and is closed under the unsat cores of its
//! members' consecution queries, grown from the core of the bad states' own query
//! (A. Ivrii, A. Gurfinkel and A. Belov, *Small Inductive Safe Invariants*, FMCAD
//! 2014), with Houdini's drops (C. Flanagan and K. R. M. Leino, FME 2001) made lazily:
//! a candidate is asked about only once a core needs it, and dropped when a state
//! satisfying every candidate alive steps out of it (or an initial state violates it);
//! the queries whose cores used a dropped candidate are asked again. A query assumes
//! only the candidates taken and those the states of its models violate, grown until
//! it is refuted or a model's state satisfies them all (as a CEGAR loop over the
//! assumptions): the solver then propagates a few hundred activation literals, not
//! thousands, and the cores, drawn from fewer candidates, are smaller (Ricart-Agrawala:
//! 62 needed, not 276, in a quarter of the time).
//!
//! On the order abstraction of Ricart-Agrawala and the bakery, Houdini asks each of
//! about 2,000 candidates twice, and keeps nearly all, where the properties need a few
//! hundred; the independent checker, which checks every lemma it is given at every
//! size up to the cutoff, then checks only those. Nothing rests on the subset beyond
//! the queries on this aggregate: the checker decides.

use super::{add_guarded_clauses, new_solver, orbit_clauses, rep_violated};
use crate::proof::lemma::Lemma;
use crate::sat::circuit::FALSE;
use crate::sat::{Backend, Lit, SolveResult, SolverKind, Stop};
use crate::transys::{FIRE, STATE, STEP, Transys};

/// What `cone` found.
pub enum Cone {
    /// The members needed: they hold initially, exclude the bad states and are
    /// inductive together on the aggregate.
    Needed(Vec<Lemma>),
    /// A state satisfying every candidate inductive so far is bad: the candidates
    /// cannot prove the properties on this aggregate.
    Allowed,
    /// A limit stopped a query.
    Stopped,
}

/// The part of `lemmas` (their orbits with `symmetric`) that the bad states `bad` of
/// `ts`'s aggregate need (`Cone`).
pub fn cone(
    ts: &mut Transys,
    lemmas: &[Lemma],
    bad: Lit,
    symmetric: bool,
    solver: SolverKind,
    stop: &Stop,
) -> Result<Cone, String> {
    let mut s = new_solver(ts, solver, &[STATE, STEP, FIRE])?;
    // Initial states are asked of a solver of their own: in the one of the steps,
    // their models' phases would lead the consecution queries' cores astray (the bakery
    // without atomic reads: 757 candidates needed, not 532, and 4 times the time).
    let mut first = new_solver(ts, solver, &[STATE])?;
    let clauses: Vec<Vec<Vec<Lit>>> = lemmas
        .iter()
        .map(|l| orbit_clauses(ts, l, symmetric))
        .collect();
    let acts: Vec<Lit> = clauses
        .iter()
        .map(|cl| add_guarded_clauses(ts, &mut *s, cl))
        .collect();
    let now: Vec<Lit> = lemmas.iter().map(|l| rep_violated(ts, l, false)).collect();
    let next: Vec<Lit> = lemmas.iter().map(|l| rep_violated(ts, l, true)).collect();
    let n = lemmas.len();
    let mut c = Closure {
        acts,
        clauses,
        asked: Vec::new(),
        alive: vec![true; n],
        inside: vec![false; n],
        cores: vec![None; n + 1],
    };
    // Target n is the bad states; i < n lemma i's violation after a step.
    let mut todo = vec![n];
    while let Some(t) = todo.pop() {
        if t < n && !c.alive[t] {
            continue;
        }
        if t < n && !c.initially(ts, &mut *first, now[t], stop) {
            match stop.now() {
                true => return Ok(Cone::Stopped),
                false => c.drop(&[t], &mut todo),
            }
            continue;
        }
        let target = if t < n { next[t] } else { bad };
        if target == FALSE {
            // Unsatisfiable with no candidate: no solve, so no core to ask the solver
            // for (CaDiCaL aborts when asked outside an unsatisfiable state).
            c.cores[t] = Some(Vec::new());
            continue;
        }
        match c.query(ts, &mut *s, target, stop) {
            SolveResult::Unknown => return Ok(Cone::Stopped),
            SolveResult::Sat if t == n => return Ok(Cone::Allowed),
            SolveResult::Sat => {
                let out: Vec<usize> = (0..n)
                    .filter(|&j| j == t || (c.alive[j] && s.value(next[j])))
                    .collect();
                c.drop(&out, &mut todo);
            }
            SolveResult::Unsat => c.take(t, &*s, &mut todo),
        }
    }
    let kept = (0..n).filter(|&i| c.alive[i] && c.inside[i]);
    Ok(Cone::Needed(kept.map(|i| lemmas[i].clone()).collect()))
}

/// The candidates alive and those taken (`inside`), every candidate's activation
/// literal and clauses, the candidates the last query assumed, and the core of each
/// query answered (by target; the last is the bad states').
struct Closure {
    acts: Vec<Lit>,
    clauses: Vec<Vec<Vec<Lit>>>,
    asked: Vec<usize>,
    alive: Vec<bool>,
    inside: Vec<bool>,
    cores: Vec<Option<Vec<usize>>>,
}

impl Closure {
    /// Whether no initial state violates the candidate (`violated`: its
    /// representative's violation now); false too when a limit stopped the solver.
    fn initially(&self, ts: &Transys, s: &mut dyn Backend, violated: Lit, stop: &Stop) -> bool {
        violated == FALSE || s.solve(&ts.c.cnf, &[violated, ts.init], stop) == SolveResult::Unsat
    }

    /// `target` assuming the candidates taken, and of the others those the states of
    /// the models found so far violate, added until a model's state satisfies every
    /// candidate alive (`Sat`: a state of them all steps to the target) or none is
    /// found (`Unsat`, the core among those assumed, `asked`). Each solve so assumes
    /// the few hundred candidates a refutation may use, not the thousands alive (the
    /// order abstraction of Ricart-Agrawala: 2,009 alive, 276 taken; 9 ms a query
    /// with all of them assumed).
    fn query(
        &mut self,
        ts: &Transys,
        s: &mut dyn Backend,
        target: Lit,
        stop: &Stop,
    ) -> SolveResult {
        let n = self.acts.len();
        let taken = (0..n).filter(|&i| self.alive[i] && self.inside[i]);
        self.asked = taken.collect();
        let mut using: Vec<bool> = (0..n).map(|i| self.alive[i] && self.inside[i]).collect();
        loop {
            let mut a: Vec<Lit> = self.asked.iter().map(|&i| self.acts[i]).collect();
            a.push(target);
            let r = s.solve(&ts.c.cnf, &a, stop);
            if r != SolveResult::Sat {
                return r;
            }
            let violated = |cl: &Vec<Vec<Lit>>| cl.iter().any(|c| c.iter().all(|&l| !s.value(l)));
            let more: Vec<usize> = (0..n)
                .filter(|&j| self.alive[j] && !using[j] && violated(&self.clauses[j]))
                .collect();
            if more.is_empty() {
                return r;
            }
            for &j in &more {
                using[j] = true;
            }
            self.asked.extend(more);
        }
    }

    /// Target `t` refuted: its core (the activations of those the refutation used,
    /// among those the query assumed) recorded, and the candidates in it not taken yet
    /// taken and asked about.
    fn take(&mut self, t: usize, s: &dyn Backend, todo: &mut Vec<usize>) {
        let core: Vec<usize> = self
            .asked
            .iter()
            .copied()
            .filter(|&i| s.failed(self.acts[i]) != Some(false))
            .collect();
        for &i in &core {
            if !self.inside[i] {
                self.inside[i] = true;
                todo.push(i);
            }
        }
        self.cores[t] = Some(core);
    }

    /// Drop the candidates `out`; the targets whose cores used one are asked again.
    fn drop(&mut self, out: &[usize], todo: &mut Vec<usize>) {
        for &i in out {
            self.alive[i] = false;
            self.inside[i] = false;
        }
        for t in 0..self.cores.len() {
            let hit = self.cores[t]
                .as_ref()
                .is_some_and(|c| c.iter().any(|i| out.contains(i)));
            if hit {
                self.cores[t] = None;
                todo.push(t);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::lemma::{Atom, PVal};
    use crate::transys::frame::Encoding;

    /// `not (Pc[x1] = v)`, or with two processes `not (Pc[x1] = v && Pc[x2] = v)`.
    fn not_at(m: &crate::model::ir::Model, v: i64, procs: usize) -> Lemma {
        let var = m.var_by_name("Pc").unwrap();
        let atoms = (0..procs)
            .map(|p| Atom {
                var,
                index: vec![PVal::Proc(p)],
                value: PVal::Const(v),
            })
            .collect();
        Lemma {
            lo: 1,
            hi: 3,
            procs,
            atoms,
            ordered: false,
        }
    }

    #[test]
    fn only_the_needed_part_is_kept_and_a_drop_shows_a_bad_state() {
        // C is never reached; B is, so `not Pc[x1] = B` and the pair are not inductive.
        let m = crate::lang::load_str(
            "t.cub",
            "type loc = A | B | C\narray Pc[proc] : loc\ninit (z) { Pc[z] = A }\n\
             unsafe (z) { Pc[z] = C }\nunsafe (z) { Pc[z] = B }\n\
             transition t (i) requires { Pc[i] = A } { Pc[i] := B; }\n\
             transition u (i) requires { Pc[i] = B } { Pc[i] := A; }\n",
        )
        .unwrap();
        let cands = vec![not_at(&m, 1, 2), not_at(&m, 1, 1), not_at(&m, 2, 1)];
        let kind = SolverKind::default_kind();
        let stop = Stop::default();
        let mut ts = Transys::new(&m, 1, 3, Encoding::Binary);
        let (b, e) = ts.bad(0);
        let bad = ts.c.and2(b, -e);
        match cone(&mut ts, &cands, bad, true, kind, &stop).unwrap() {
            Cone::Needed(part) => assert_eq!(part, vec![cands[2].clone()]),
            _ => panic!("C is excluded by `not Pc[x1] = C` alone"),
        }
        let (b, e) = ts.bad(1);
        let bad = ts.c.and2(b, -e);
        let found = cone(&mut ts, &cands, bad, true, kind, &stop).unwrap();
        assert!(matches!(found, Cone::Allowed), "B is reached");
        // No bad state at all: nothing is needed, and the solver is not asked for the
        // core of a query it never answered (CaDiCaL aborted there).
        match cone(&mut ts, &cands, FALSE, true, kind, &stop).unwrap() {
            Cone::Needed(part) => assert!(part.is_empty()),
            _ => panic!("no bad state needs no candidate"),
        }
    }
}
