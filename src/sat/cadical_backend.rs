//! CaDiCaL (built from source by the `cadical` crate): incremental, with assumptions,
//! failed assumptions and a terminate callback for deadlines and Ctrl-C.
//!
//! The solver sees its own dense numbering of the variables it was given (`local`),
//! not the shared `Cnf` numbering: engines with one solver per frame (IC3) allocate
//! activation variables in the shared numbering, one per query, and CaDiCaL would
//! otherwise create every variable up to the largest index it meets, so each solver
//! carried the other solvers' activation variables as free variables and decided all
//! of them on every satisfiable call (IC3 on German at sizes 1..2: 5,447 calls, a
//! quarter of the time in deciding and backtracking such variables).

use super::{Backend, Cnf, Lit, SolveResult, Stop};

/// CaDiCaL's terminate callback, reading the current `Stop`.
#[derive(Default)]
struct Terminate {
    stop: Stop,
}

impl cadical::Callbacks for Terminate {
    fn terminate(&mut self) -> bool {
        self.stop.now()
    }
}

pub struct CadicalBackend {
    solver: cadical::Solver<Terminate>,
    /// Literals of `Cnf::lits` already handed over.
    consumed: usize,
    /// Shared variable -> the solver's variable (0: not given to it yet).
    local: Vec<i32>,
    /// The solver's variables so far.
    used: i32,
}

impl CadicalBackend {
    pub fn new() -> CadicalBackend {
        CadicalBackend::with(cadical::Solver::new())
    }

    /// Without preprocessing and inprocessing (CaDiCaL's `plain` configuration): for
    /// many small queries under assumptions, where variable elimination costs more than
    /// it saves.
    pub fn plain() -> CadicalBackend {
        CadicalBackend::with(cadical::Solver::with_config("plain").unwrap_or_default())
    }

    fn with(mut solver: cadical::Solver<Terminate>) -> CadicalBackend {
        solver.set_callbacks(Some(Terminate::default()));
        CadicalBackend {
            solver,
            consumed: 0,
            local: Vec::new(),
            used: 0,
        }
    }

    /// The solver's literal for a shared one, numbering its variable on first sight.
    fn numbered(&mut self, lit: Lit) -> Lit {
        let v = lit.unsigned_abs() as usize;
        if v >= self.local.len() {
            self.local.resize(v + 1, 0);
        }
        if self.local[v] == 0 {
            self.used += 1;
            self.local[v] = self.used;
        }
        let l = self.local[v];
        if lit < 0 { -l } else { l }
    }

    /// The solver's literal for a shared one it was given, if any.
    fn known(&self, lit: Lit) -> Option<Lit> {
        match self.local.get(lit.unsigned_abs() as usize) {
            Some(&l) if l != 0 => Some(if lit < 0 { -l } else { l }),
            _ => None,
        }
    }
}

impl Backend for CadicalBackend {
    fn name(&self) -> &'static str {
        "cadical"
    }

    fn solve(&mut self, cnf: &Cnf, assumptions: &[Lit], stop: &Stop) -> SolveResult {
        // CaDiCaL asks its terminator only every so many steps, counted across solves
        // (up to a thousand after its phase checks): a solve begun after the limit
        // could run seconds before it asks.
        if stop.now() {
            return SolveResult::Unknown;
        }
        let mut buf = Vec::new();
        for c in cnf.clauses_from(self.consumed) {
            buf.clear();
            buf.extend(c.iter().map(|&l| self.numbered(l)));
            self.solver.add_clause(buf.iter().copied());
        }
        self.consumed = cnf.lits.len();
        let assumptions: Vec<Lit> = assumptions.iter().map(|&l| self.numbered(l)).collect();
        if let Some(t) = self.solver.get_callbacks() {
            t.stop = stop.clone();
        }
        match self.solver.solve_with(assumptions.iter().copied()) {
            Some(true) => SolveResult::Sat,
            Some(false) => SolveResult::Unsat,
            None => SolveResult::Unknown,
        }
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        let c: Vec<Lit> = clause.iter().map(|&l| self.numbered(l)).collect();
        self.solver.add_clause(c);
    }

    fn value(&self, lit: Lit) -> bool {
        // A variable in none of the solver's clauses is free: false, as CaDiCaL answers
        // for a variable it does not know.
        self.known(lit)
            .map(|l| self.solver.value(l).unwrap_or(false))
            .unwrap_or(false)
    }

    fn failed(&self, lit: Lit) -> Option<bool> {
        // Every assumption was numbered when it was passed.
        Some(self.known(lit).is_some_and(|l| self.solver.failed(l)))
    }
}
