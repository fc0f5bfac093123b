//! CaDiCaL (built from source by the `cadical` crate): incremental, with assumptions,
//! failed assumptions and a terminate callback for deadlines and Ctrl-C.

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
        }
    }
}

impl Backend for CadicalBackend {
    fn name(&self) -> &'static str {
        "cadical"
    }

    fn solve(&mut self, cnf: &Cnf, assumptions: &[Lit], stop: &Stop) -> SolveResult {
        for c in cnf.clauses_from(self.consumed) {
            self.solver.add_clause(c.iter().copied());
        }
        self.consumed = cnf.lits.len();
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
        self.solver.add_clause(clause.iter().copied());
    }

    fn value(&self, lit: Lit) -> bool {
        self.solver.value(lit).unwrap_or(false)
    }

    fn failed(&self, lit: Lit) -> Option<bool> {
        Some(self.solver.failed(lit))
    }
}
