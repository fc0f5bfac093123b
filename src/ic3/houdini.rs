//! The largest inductive subset of candidate lemmas (Houdini: Flanagan and Leino,
//! FME 2001): drop every candidate an initial state violates, then, while a state
//! satisfying all candidates steps to one violating some, drop those. What remains
//! holds initially and its conjunction is inductive, so it may sit in every IC3
//! frame. Used to carry the lemmas IC3 learnt at small sizes over to a larger range.

use crate::bmc::transys::{FIRE, STATE, STEP, Transys};
use crate::proof::lemma::{self, Lemma};
use crate::sat::{Lit, SolveResult, SolverKind, Stop};

/// Candidates whose orbits are larger than this are dropped at once. Orbits are
/// clauses of this solver only; Peterson's ladder keeps its 4-process lemmas up to
/// size 12 with this bound (1..12: 9.3 s with 2,000, 7.6 s with 30,000).
const MAX_ORBIT: usize = 30_000;

/// The largest subset of `cands` (symmetric: their orbits) that holds initially and
/// is inductive; `None` when a limit stopped the search.
pub fn houdini(
    ts: &mut Transys,
    cands: Vec<Lemma>,
    symmetric: bool,
    solver: SolverKind,
    stop: &Stop,
) -> Result<Option<Vec<Lemma>>, String> {
    let n = ts.agg.max;
    let cands: Vec<Lemma> = cands
        .into_iter()
        .filter(|l| !symmetric || l.orbit_size(n.min(l.hi)) <= MAX_ORBIT)
        .collect();
    let mut s = solver.create_plain()?;
    for g in [STATE, STEP, FIRE] {
        for c in ts.c.group(g) {
            s.add_clause(c);
        }
    }
    // Each candidate's orbit (or the candidate itself) as clauses under one activation
    // literal, in this solver only; its violation, initially and after a step, asked
    // of the representative alone: init and the steps are symmetric, so a violating
    // state of some member is a renaming of one violating the representative.
    let mut act = Vec::with_capacity(cands.len());
    let mut viol = Vec::with_capacity(cands.len());
    for l in &cands {
        let a = ts.c.var();
        let members = if symmetric {
            l.orbit(ts)
        } else {
            l.representative(ts).into_iter().collect()
        };
        for m in &members {
            let mut cl: Vec<Lit> = m
                .iter()
                .map(|&(v, x)| -lemma::atom_lit(ts, v, x, false))
                .collect();
            cl.push(-a);
            s.add_clause(&cl);
        }
        act.push(a);
        let rep = l.representative(ts).unwrap_or_default();
        let mut v = [crate::sat::circuit::FALSE; 2];
        for (k, next) in [false, true].into_iter().enumerate() {
            if !rep.is_empty() {
                let lits: Vec<Lit> = rep
                    .iter()
                    .map(|&(var, x)| lemma::atom_lit(ts, var, x, next))
                    .collect();
                v[k] = ts.c.and(&lits);
            }
        }
        viol.push(v);
    }
    let mut alive = vec![true; cands.len()];
    // Initially, then under steps; one candidate per query (many easy queries cost far
    // less than one over the disjunction), until a whole pass drops nothing.
    for step in [false, true] {
        let k = step as usize;
        loop {
            let mut dropped = false;
            for i in 0..cands.len() {
                if !alive[i] || viol[i][k] == crate::sat::circuit::FALSE {
                    continue;
                }
                let mut a = vec![viol[i][k]];
                if step {
                    a.extend((0..cands.len()).filter(|&j| alive[j]).map(|j| act[j]));
                } else {
                    a.push(ts.init);
                }
                match s.solve(&ts.c.cnf, &a, stop) {
                    SolveResult::Unknown => return Ok(None),
                    SolveResult::Unsat => {}
                    SolveResult::Sat => {
                        for j in 0..cands.len() {
                            if alive[j] && s.value(viol[j][k]) {
                                alive[j] = false;
                            }
                        }
                        alive[i] = false;
                        dropped = true;
                    }
                }
            }
            if !dropped || !step {
                break;
            }
        }
    }
    Ok(Some(
        cands
            .into_iter()
            .zip(alive)
            .filter(|x| x.1)
            .map(|x| x.0)
            .collect(),
    ))
}
