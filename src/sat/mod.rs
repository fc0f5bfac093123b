//! The SAT layer: literals, the clause database (`Cnf`: the exact formula an engine
//! solves, which the DIMACS writer prints and one-shot backends read whole), Tseitin
//! circuits with structural hashing (`circuit`), and the narrow solver trait with its
//! backends: CaDiCaL (feature `cadical`, default), varisat, splr.

#[cfg(feature = "cadical")]
mod cadical_backend;
pub mod circuit;
pub mod dimacs;
mod splr_backend;
mod varisat_backend;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// A DIMACS literal: variable `v >= 1` as `v` or `-v`.
pub type Lit = i32;

/// A growing CNF formula: variables numbered from 1, clauses stored flat, each
/// terminated by 0, in the order they were added.
#[derive(Clone, Debug, Default)]
pub struct Cnf {
    pub num_vars: i32,
    /// Clause literals, each clause followed by a 0.
    pub lits: Vec<Lit>,
    pub num_clauses: usize,
}

impl Cnf {
    pub fn new_var(&mut self) -> Lit {
        self.num_vars += 1;
        self.num_vars
    }

    pub fn add_clause(&mut self, clause: &[Lit]) {
        debug_assert!(clause.iter().all(|&l| l != 0 && l.abs() <= self.num_vars));
        self.lits.extend_from_slice(clause);
        self.lits.push(0);
        self.num_clauses += 1;
    }

    /// The clauses from literal offset `from` on (offsets come from `lits.len()`).
    pub fn clauses_from(&self, from: usize) -> impl Iterator<Item = &[Lit]> {
        self.lits[from..]
            .split(|&l| l == 0)
            .filter(|c| !c.is_empty())
    }
}

/// The answer of one solver call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveResult {
    Sat,
    Unsat,
    /// Interrupted (deadline or stop flag) or failed.
    Unknown,
}

/// When a running solve should give up.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    pub deadline: Option<Instant>,
    pub flag: Option<Arc<AtomicBool>>,
    /// Raised when the process passed the memory limit (`limits::memory_guard`).
    pub memory: Option<Arc<AtomicBool>>,
}

impl Stop {
    /// Whether the solve should give up now: the deadline passed, the flag is set or
    /// the memory limit is passed.
    pub fn now(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.interrupted()
            || self.out_of_memory()
    }

    /// Whether the process passed the memory limit.
    pub fn out_of_memory(&self) -> bool {
        self.memory
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// Whether the flag (an interrupt) is set: a solve given up without it ran out of
    /// time (`verdict::Limit::Interrupted` against `Timeout`).
    pub fn interrupted(&self) -> bool {
        self.flag
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }
}

/// A SAT solver fed from a `Cnf`. Incremental backends keep their state between
/// calls and are given only the clauses added since; one-shot ones solve the whole
/// formula with the assumptions as unit clauses.
pub trait Backend {
    fn name(&self) -> &'static str;
    /// Solve `cnf` (all clauses so far) under the assumptions.
    fn solve(&mut self, cnf: &Cnf, assumptions: &[Lit], stop: &Stop) -> SolveResult;
    /// Add a clause of this solver's own, beside the shared `cnf` (an engine's frame
    /// lemmas, activation clauses). Its variables must be numbered in `cnf`.
    fn add_clause(&mut self, clause: &[Lit]);
    /// A literal's value in the last model.
    fn value(&self, lit: Lit) -> bool;
    /// Whether an assumption took part in the last unsatisfiability proof; `None`
    /// when the backend cannot tell.
    fn failed(&self, lit: Lit) -> Option<bool>;
}

/// The SAT backends by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverKind {
    Cadical,
    Varisat,
    Splr,
}

impl SolverKind {
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Cadical => "cadical",
            SolverKind::Varisat => "varisat",
            SolverKind::Splr => "splr",
        }
    }

    /// CaDiCaL when it was built in, else varisat.
    pub fn default_kind() -> SolverKind {
        if cfg!(feature = "cadical") {
            SolverKind::Cadical
        } else {
            SolverKind::Varisat
        }
    }

    /// A fresh solver tuned for many small incremental queries under assumptions (IC3
    /// frames, certificate checks): CaDiCaL without pre- and inprocessing.
    pub fn create_plain(self) -> Result<Box<dyn Backend>, String> {
        match self {
            #[cfg(feature = "cadical")]
            SolverKind::Cadical => Ok(Box::new(cadical_backend::CadicalBackend::plain())),
            _ => self.create(),
        }
    }

    /// A fresh solver; an error when the backend was not built in.
    pub fn create(self) -> Result<Box<dyn Backend>, String> {
        match self {
            #[cfg(feature = "cadical")]
            SolverKind::Cadical => Ok(Box::new(cadical_backend::CadicalBackend::new())),
            #[cfg(not(feature = "cadical"))]
            SolverKind::Cadical => Err("this nfold was built without CaDiCaL (cargo feature `cadical`); use --solver varisat or splr".into()),
            SolverKind::Varisat => Ok(Box::new(varisat_backend::VarisatBackend::new())),
            SolverKind::Splr => Ok(Box::new(splr_backend::SplrBackend::new())),
        }
    }
}

/// Model values of variables 1..=n from a list of true/false DIMACS literals.
fn model_from(lits: impl Iterator<Item = Lit>, num_vars: i32) -> Vec<bool> {
    let mut m = vec![false; num_vars as usize + 1];
    for l in lits {
        if l > 0 && (l as usize) < m.len() {
            m[l as usize] = true;
        }
    }
    m
}

fn model_value(model: &[bool], lit: Lit) -> bool {
    let v = model
        .get(lit.unsigned_abs() as usize)
        .copied()
        .unwrap_or(false);
    if lit > 0 { v } else { !v }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pigeons(cnf: &mut Cnf, holes: i32) {
        // holes+1 pigeons in `holes` holes: unsatisfiable.
        let p = holes + 1;
        let var = |i: i32, j: i32| i * holes + j + 1;
        cnf.num_vars = p * holes;
        for i in 0..p {
            let c: Vec<Lit> = (0..holes).map(|j| var(i, j)).collect();
            cnf.add_clause(&c);
        }
        for j in 0..holes {
            for a in 0..p {
                for b in a + 1..p {
                    cnf.add_clause(&[-var(a, j), -var(b, j)]);
                }
            }
        }
    }

    #[test]
    fn every_backend_solves_and_answers_assumptions() {
        let mut kinds = vec![SolverKind::Varisat, SolverKind::Splr];
        if cfg!(feature = "cadical") {
            kinds.push(SolverKind::Cadical);
        }
        for k in kinds {
            let mut s = k.create().unwrap();
            let mut cnf = Cnf::default();
            let (a, b) = (cnf.new_var(), cnf.new_var());
            cnf.add_clause(&[a, b]);
            assert_eq!(
                s.solve(&cnf, &[], &Stop::default()),
                SolveResult::Sat,
                "{}",
                k.name()
            );
            assert_eq!(s.solve(&cnf, &[-a], &Stop::default()), SolveResult::Sat);
            assert!(s.value(b) && !s.value(a));
            cnf.add_clause(&[-b]);
            assert_eq!(
                s.solve(&cnf, &[-a], &Stop::default()),
                SolveResult::Unsat,
                "{}",
                k.name()
            );
            if let Some(f) = s.failed(-a) {
                assert!(f);
            }
            assert_eq!(s.solve(&cnf, &[], &Stop::default()), SolveResult::Sat);
            assert!(s.value(a));
            let mut hard = Cnf::default();
            pigeons(&mut hard, 5);
            let mut s = k.create().unwrap();
            assert_eq!(
                s.solve(&hard, &[], &Stop::default()),
                SolveResult::Unsat,
                "{}",
                k.name()
            );
        }
    }

    /// A solve asked once the limit has passed answers `Unknown` at once, also on a
    /// solver that has solved before (CaDiCaL asks its terminator only every so many
    /// steps, counted across solves: a late solve ran seconds past `--timeout`).
    #[test]
    fn a_solve_after_the_deadline_gives_up_at_once() {
        let mut kinds = vec![SolverKind::Varisat, SolverKind::Splr];
        if cfg!(feature = "cadical") {
            kinds.push(SolverKind::Cadical);
        }
        let past = Stop {
            deadline: Some(std::time::Instant::now()),
            ..Stop::default()
        };
        for k in kinds {
            let mut easy = Cnf::default();
            let a = easy.new_var();
            easy.add_clause(&[a]);
            let mut s = k.create().unwrap();
            assert_eq!(s.solve(&easy, &[], &Stop::default()), SolveResult::Sat);
            assert_eq!(
                s.solve(&easy, &[a], &past),
                SolveResult::Unknown,
                "{}",
                k.name()
            );
        }
    }
}
