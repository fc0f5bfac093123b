//! The largest inductive subset of candidate lemmas (Houdini: C. Flanagan and
//! K. R. M. Leino, *Houdini, an Annotation Assistant for ESC/Java*, FME 2001): drop
//! every candidate an initial state violates, then, while a state satisfying all
//! candidates steps to one violating some, drop those. What remains holds initially and
//! its conjunction is inductive, so it may sit in every IC3 frame. Used to carry the
//! lemmas IC3 learnt at small sizes over to a larger range.

use crate::proof::lemma::Lemma;
use crate::sat::{Lit, SolveResult, SolverKind, Stop};
use crate::transys::{FIRE, STATE, STEP, Transys};

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
    // state of some member is a renaming of one violating the representative (in an
    // ordered family, of every member: `rep_violated`).
    let act: Vec<Lit> = cands
        .iter()
        .map(|l| super::add_guarded(ts, s.as_mut(), l, symmetric))
        .collect();
    let viol: Vec<[Lit; 2]> = cands
        .iter()
        .map(|l| {
            [
                super::rep_violated(ts, l, false),
                super::rep_violated(ts, l, true),
            ]
        })
        .collect();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transys::frame::Encoding;

    #[test]
    fn a_lemma_with_no_atoms_is_false_and_dropped() {
        // `not (True)` holds only where there are no states: a model with initial
        // states refutes it at once, symmetric or not.
        let m = crate::lang::load_str(
            "t.cub",
            "type loc = A | B\narray Pc[proc] : loc\ninit (z) { Pc[z] = A }\n\
             unsafe (z1 z2) { Pc[z1] = B && Pc[z2] = B }\n\
             transition t (i) requires { Pc[i] = A } { Pc[i] := B; }\n",
        )
        .unwrap();
        let mut ts = Transys::new(&m, 1, 3, Encoding::Binary);
        let empty = Lemma {
            lo: 1,
            hi: 3,
            procs: 0,
            atoms: Vec::new(),
            ordered: false,
        };
        for symmetric in [true, false] {
            let kept = houdini(
                &mut ts,
                vec![empty.clone()],
                symmetric,
                SolverKind::default_kind(),
                &Stop::default(),
            )
            .unwrap()
            .unwrap();
            assert!(kept.is_empty(), "{kept:?}");
        }
    }
}
