//! varisat: incremental with assumptions and failed cores. It cannot be interrupted
//! while solving, so deadlines are only checked before each call.

use super::{Backend, Cnf, Lit, SolveResult, Stop, model_from, model_value};
use varisat::ExtendFormula;

pub struct VarisatBackend {
    solver: varisat::Solver<'static>,
    consumed: usize,
    model: Vec<bool>,
    core: Vec<Lit>,
}

impl VarisatBackend {
    pub fn new() -> VarisatBackend {
        VarisatBackend {
            solver: varisat::Solver::new(),
            consumed: 0,
            model: Vec::new(),
            core: Vec::new(),
        }
    }
}

fn lit(l: Lit) -> varisat::Lit {
    varisat::Lit::from_dimacs(l as isize)
}

impl Backend for VarisatBackend {
    fn name(&self) -> &'static str {
        "varisat"
    }

    fn solve(&mut self, cnf: &Cnf, assumptions: &[Lit], stop: &Stop) -> SolveResult {
        let mut buf = Vec::new();
        for c in cnf.clauses_from(self.consumed) {
            buf.clear();
            buf.extend(c.iter().map(|&l| lit(l)));
            self.solver.add_clause(&buf);
        }
        self.consumed = cnf.lits.len();
        // Variables in no clause are missing from varisat's model; they read as false.
        if stop.now() {
            return SolveResult::Unknown;
        }
        let a: Vec<varisat::Lit> = assumptions.iter().map(|&l| lit(l)).collect();
        self.solver.assume(&a);
        match self.solver.solve() {
            Ok(true) => {
                let m = self.solver.model().unwrap_or_default();
                self.model = model_from(m.iter().map(|l| l.to_dimacs() as Lit), cnf.num_vars);
                SolveResult::Sat
            }
            Ok(false) => {
                self.core = self
                    .solver
                    .failed_core()
                    .map(|c| c.iter().map(|l| l.to_dimacs() as Lit).collect())
                    .unwrap_or_default();
                SolveResult::Unsat
            }
            Err(_) => SolveResult::Unknown,
        }
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        let c: Vec<varisat::Lit> = clause.iter().map(|&l| lit(l)).collect();
        self.solver.add_clause(&c);
    }

    fn value(&self, l: Lit) -> bool {
        model_value(&self.model, l)
    }

    fn failed(&self, l: Lit) -> Option<bool> {
        Some(self.core.contains(&l))
    }
}
