//! splr, used one-shot: every call solves the whole formula with the assumptions added
//! as unit clauses; the deadline becomes splr's own timeout.

use super::{Backend, Cnf, Lit, SolveResult, Stop, model_from, model_value};
use splr::{Certificate, Config, SolveIF};
use std::time::Instant;

pub struct SplrBackend {
    model: Vec<bool>,
    /// Clauses added beside the shared CNF; every solve includes them.
    own: Vec<Vec<Lit>>,
}

impl SplrBackend {
    pub fn new() -> SplrBackend {
        SplrBackend {
            model: Vec::new(),
            own: Vec::new(),
        }
    }
}

impl Backend for SplrBackend {
    fn name(&self) -> &'static str {
        "splr"
    }

    fn solve(&mut self, cnf: &Cnf, assumptions: &[Lit], stop: &Stop) -> SolveResult {
        if stop.now() {
            return SolveResult::Unknown;
        }
        let mut clauses: Vec<Vec<i32>> = cnf.clauses_from(0).map(|c| c.to_vec()).collect();
        clauses.extend(self.own.iter().cloned());
        clauses.extend(assumptions.iter().map(|&a| vec![a]));
        // splr wants every variable to occur; a tautology per unused one is harmless.
        let mut used = vec![false; cnf.num_vars as usize + 1];
        for &l in cnf.lits.iter().chain(self.own.iter().flatten()) {
            used[l.unsigned_abs() as usize] = true;
        }
        for (v, u) in used.iter().enumerate().skip(1) {
            if !u {
                clauses.push(vec![v as i32, -(v as i32)]);
            }
        }
        let mut config = Config {
            quiet_mode: true,
            ..Config::default()
        };
        if let Some(d) = stop.deadline {
            config.c_timeout = d
                .saturating_duration_since(Instant::now())
                .as_secs_f64()
                .max(0.01);
        }
        let mut solver = match splr::Solver::try_from((config, clauses.as_slice())) {
            Ok(s) => s,
            Err(Ok(Certificate::UNSAT)) => return SolveResult::Unsat,
            Err(_) => return SolveResult::Unknown,
        };
        match solver.solve() {
            Ok(Certificate::SAT(m)) => {
                self.model = model_from(m.into_iter(), cnf.num_vars);
                SolveResult::Sat
            }
            Ok(Certificate::UNSAT) => SolveResult::Unsat,
            Err(_) => SolveResult::Unknown,
        }
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.own.push(clause.to_vec());
    }

    fn value(&self, l: Lit) -> bool {
        model_value(&self.model, l)
    }

    fn failed(&self, _l: Lit) -> Option<bool> {
        None
    }
}
