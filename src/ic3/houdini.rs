//! The largest inductive subset of candidate lemmas (Houdini: Flanagan and Leino,
//! FME 2001): drop every candidate an initial state violates, then, while a state
//! satisfying all candidates steps to one violating some, drop those. What remains
//! holds initially and its conjunction is inductive, so it may sit in every IC3
//! frame. Used to carry the lemmas IC3 learnt at small sizes over to a larger range.

use crate::bmc::transys::{FIRE, STATE, STEP, Transys};
use crate::proof::lemma::{self, Lemma};
use crate::sat::{Lit, SolveResult, SolverKind, Stop};

/// Candidates whose orbits are larger than this are dropped at once.
const MAX_ORBIT: usize = 2000;

/// The literal "x (or x', `next`) satisfies the lemma" (every member of its orbit).
fn holds(ts: &mut Transys, l: &Lemma, next: bool) -> Lit {
    let mut parts = Vec::new();
    for cube in l.orbit(ts) {
        let cl: Vec<Lit> = cube
            .iter()
            .map(|&(v, x)| -lemma::atom_lit(ts, v, x, next))
            .collect();
        parts.push(ts.c.or(&cl));
    }
    ts.c.and(&parts)
}

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
    let one = |ts: &mut Transys, l: &Lemma, next: bool| {
        if symmetric {
            holds(ts, l, next)
        } else {
            let cube = l.representative(ts).unwrap_or_default();
            let cl: Vec<Lit> = cube
                .iter()
                .map(|&(v, x)| -lemma::atom_lit(ts, v, x, next))
                .collect();
            ts.c.or(&cl)
        }
    };
    let cur: Vec<Lit> = cands.iter().map(|l| one(ts, l, false)).collect();
    let nxt: Vec<Lit> = cands.iter().map(|l| one(ts, l, true)).collect();
    let mut s = solver.create_plain()?;
    for g in [STATE, STEP, FIRE] {
        for c in ts.c.group(g) {
            s.add_clause(c);
        }
    }
    let mut alive = vec![true; cands.len()];
    // Initially, then under steps; one candidate per query (many easy queries cost far
    // less than one over the disjunction), until a whole pass drops nothing.
    for step in [false, true] {
        loop {
            let mut dropped = false;
            for i in 0..cands.len() {
                if !alive[i] {
                    continue;
                }
                let watch = if step { &nxt } else { &cur };
                let mut a = vec![-watch[i]];
                if step {
                    a.extend((0..cands.len()).filter(|&j| alive[j]).map(|j| cur[j]));
                } else {
                    a.push(ts.init);
                }
                match s.solve(&ts.c.cnf, &a, stop) {
                    SolveResult::Unknown => return Ok(None),
                    SolveResult::Unsat => {}
                    SolveResult::Sat => {
                        for j in 0..cands.len() {
                            if alive[j] && !s.value(watch[j]) {
                                alive[j] = false;
                            }
                        }
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
