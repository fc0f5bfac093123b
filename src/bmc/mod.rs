//! Bounded model checking over the shared transition system (`crate::transys`): the
//! depth loop that finds shortest counterexamples (`driver`) and its engine (`engine`),
//! one query written as DIMACS (`cnf`), and the transition system written as AIGER for
//! other model checkers (`aiger`).

pub mod aiger;
pub mod cnf;
pub mod driver;
pub mod engine;
