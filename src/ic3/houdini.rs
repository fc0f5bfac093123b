//! The largest inductive subset of candidate lemmas (Houdini: C. Flanagan and
//! K. R. M. Leino, *Houdini, an Annotation Assistant for ESC/Java*, FME 2001): drop
//! every candidate an initial state violates, then, while a state satisfying all
//! candidates steps to one violating some, drop those. What remains holds initially and
//! its conjunction is inductive, so it may sit in every IC3 frame. Used to carry the
//! lemmas IC3 learnt at small sizes over to a larger range.

use crate::proof::lemma::Lemma;
use crate::sat::circuit::FALSE;
use crate::sat::{Backend, Lit, SolveResult, SolverKind, Stop};
use crate::transys::{FIRE, STATE, STEP, Transys};

/// Candidates whose orbits are larger than this are dropped at once. Orbits are
/// clauses of this solver only; Peterson's ladder keeps its 4-process lemmas up to
/// size 12 with this bound (1..12: 9.3 s with 2,000, 7.6 s with 30,000).
const MAX_ORBIT: usize = 30_000;

/// The largest subset of `cands` (symmetric: their orbits) that holds initially and
/// is inductive; `None` when a limit stopped the search.
///
/// Each pass over the candidates alive at its start asks one query per candidate in a
/// solver of its own where those candidates are clauses, not guarded by activation
/// literals: the solver propagates them once, at the root, instead of deciding
/// thousands of assumptions again for every query (the bakery over the order of its
/// tickets: 1,469 candidates, all inductive on the aggregate 1..4). A candidate dropped
/// during a pass stays a clause of that pass's solver: a violation found is still a
/// violation with fewer candidates assumed, and the pass that drops nothing, whose
/// solver holds exactly the candidates kept, shows their conjunction inductive.
/// (Going on in a solver with activation literals after the first drop of a pass, so
/// that every pass sees exactly the candidates alive, was 4 times slower on the bakery
/// with a write buffer: 2,018 candidates, 1,786 kept on 1..3.)
pub fn houdini(
    ts: &mut Transys,
    cands: Vec<Lemma>,
    symmetric: bool,
    solver: SolverKind,
    stop: &Stop,
) -> Result<Option<Vec<Lemma>>, String> {
    let known = vec![false; cands.len()];
    houdini_known(ts, cands, &known, symmetric, solver, stop)
}

/// `houdini`, where the candidates marked in `known` (by position) are known to hold
/// initially and to be inductive together on `ts`'s aggregate, on their own (Houdini
/// kept them there, with their orbits). The largest inductive subset of all the
/// candidates contains every inductive subset, so it contains those: they are clauses
/// of every pass's solver and never asked, and only the others are (IC3 seeded with
/// the candidates Houdini kept on 1..3 and its own lemmas of 1..2: 1,854 seeds on the
/// bakery with a write buffer, 1,783 of them known). When the orbit bound drops a known
/// candidate the others are no longer known to be inductive, and every candidate is
/// asked.
pub fn houdini_known(
    ts: &mut Transys,
    cands: Vec<Lemma>,
    known: &[bool],
    symmetric: bool,
    solver: SolverKind,
    stop: &Stop,
) -> Result<Option<Vec<Lemma>>, String> {
    let n = ts.agg.max;
    let fits = |l: &Lemma| !symmetric || l.orbit_size(n.min(l.hi)) <= MAX_ORBIT;
    let whole = symmetric && cands.iter().zip(known).all(|(l, &k)| !k || fits(l));
    let (cands, known): (Vec<Lemma>, Vec<bool>) = cands
        .into_iter()
        .zip(known.iter().copied().chain(std::iter::repeat(false)))
        .filter(|(l, _)| fits(l))
        .map(|(l, k)| (l, k && whole))
        .unzip();
    // Each candidate's orbit (or the candidate itself) as clauses; its violation,
    // initially and after a step, asked of the representative alone: init and the
    // steps are symmetric, so a violating state of some member is a renaming of one
    // violating the representative (in an ordered family, of every member:
    // `rep_violated`).
    let clauses: Vec<Vec<Vec<Lit>>> = cands
        .iter()
        .map(|l| super::orbit_clauses(ts, l, symmetric))
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
    let mut h = Houdini {
        clauses,
        viol,
        alive: vec![true; cands.len()],
        known,
        solver,
    };
    if !h.initially(ts, stop)? {
        return Ok(None);
    }
    loop {
        match h.pass(ts, stop)? {
            None => return Ok(None),
            Some(false) => break,
            Some(true) => {}
        }
    }
    Ok(Some(
        cands
            .into_iter()
            .zip(h.alive)
            .filter(|x| x.1)
            .map(|x| x.0)
            .collect(),
    ))
}

/// Whether the lemmas `lemmas` (their orbits with `symmetric`) exclude every state of
/// `ts`'s aggregate where one of `bads` holds: `Ok(None)` when they do (one query, no
/// step), else, asked on the same solver, whether they exclude each of `bads` (`None`
/// for a query a limit stopped; a stopped first query counts as excluded). A state
/// they allow where a property fails is allowed by them at its size, so no checker
/// accepts them as a proof of that property at any cutoff.
pub fn excluded_each(
    ts: &mut Transys,
    lemmas: &[Lemma],
    bads: &[Lit],
    symmetric: bool,
    solver: SolverKind,
    stop: &Stop,
) -> Result<Option<Vec<Option<bool>>>, String> {
    let any = ts.c.or(bads);
    let mut s = solver.create_plain()?;
    for c in ts.c.group(STATE) {
        s.add_clause(c);
    }
    for l in lemmas {
        for c in super::orbit_clauses(ts, l, symmetric) {
            s.add_clause(&c);
        }
    }
    let mut ask = |bad: Lit| match s.solve(&ts.c.cnf, &[bad], stop) {
        SolveResult::Unknown => None,
        SolveResult::Unsat => Some(true),
        SolveResult::Sat => Some(false),
    };
    if ask(any) != Some(false) {
        return Ok(None);
    }
    Ok(Some(bads.iter().map(|&b| ask(b)).collect()))
}

/// Houdini's state: the candidates' clauses and violations, and which are alive.
struct Houdini {
    clauses: Vec<Vec<Vec<Lit>>>,
    viol: Vec<[Lit; 2]>,
    alive: Vec<bool>,
    /// Never asked, never dropped (`houdini_known`).
    known: Vec<bool>,
    solver: SolverKind,
}

impl Houdini {
    /// A solver with the system's state, step and firing clauses.
    fn base(&self, ts: &Transys) -> Result<Box<dyn Backend>, String> {
        let mut s = self.solver.create_plain()?;
        for g in [STATE, STEP, FIRE] {
            for c in ts.c.group(g) {
                s.add_clause(c);
            }
        }
        Ok(s)
    }

    /// Drop the candidates an initial state violates (no candidate is assumed); false
    /// when a limit stopped the solver.
    fn initially(&mut self, ts: &mut Transys, stop: &Stop) -> Result<bool, String> {
        let mut s = self.base(ts)?;
        for i in 0..self.viol.len() {
            if self.viol[i][0] == FALSE || self.known[i] {
                continue;
            }
            match s.solve(&ts.c.cnf, &[self.viol[i][0], ts.init], stop) {
                SolveResult::Unknown => return Ok(false),
                SolveResult::Unsat => {}
                SolveResult::Sat => self.alive[i] = false,
            }
        }
        Ok(true)
    }

    /// One pass under steps: whether it dropped a candidate, `None` when a limit
    /// stopped the solver.
    fn pass(&mut self, ts: &mut Transys, stop: &Stop) -> Result<Option<bool>, String> {
        let mut s = self.base(ts)?;
        for (cl, _) in self.clauses.iter().zip(&self.alive).filter(|x| *x.1) {
            for c in cl {
                s.add_clause(c);
            }
        }
        let mut dropped = false;
        for i in 0..self.viol.len() {
            if !self.alive[i] || self.known[i] || self.viol[i][1] == FALSE {
                continue;
            }
            match s.solve(&ts.c.cnf, &[self.viol[i][1]], stop) {
                SolveResult::Unknown => return Ok(None),
                SolveResult::Unsat => {}
                SolveResult::Sat => {
                    for j in 0..self.alive.len() {
                        if self.alive[j] && !self.known[j] && s.value(self.viol[j][1]) {
                            self.alive[j] = false;
                        }
                    }
                    self.alive[i] = false;
                    dropped = true;
                }
            }
        }
        Ok(Some(dropped))
    }
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
