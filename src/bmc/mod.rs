//! The SAT side of nfold: the transition system of a family as a template circuit
//! (`transys`, over `frame`s of cells and `symbolic` evaluation into `term`s, one size
//! or the `aggregate` of a range), its unrolling into CNF (`unroll`),
//! lexicographic-leader symmetry breaking on the final frame (`symbreak`), and the
//! bounded-model-checking depth loop that finds shortest counterexamples (`driver`), and
//! the transition system written as AIGER for other model checkers (`aiger`).

pub mod aggregate;
pub mod aiger;
pub mod cnf;
pub mod driver;
pub mod engine;
pub mod frame;
pub mod query;
pub mod symbolic;
pub mod symbreak;
pub mod term;
pub mod transys;
pub mod unroll;
