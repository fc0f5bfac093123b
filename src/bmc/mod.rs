//! Bounded model checking: the instance's transition relation unrolled into CNF
//! (`encode`, over `frame`s of cells and `symbolic` evaluation into `term`s),
//! lexicographic-leader symmetry breaking on the final frame (`symbreak`), and the
//! depth loop that finds shortest counterexamples (`driver`).

pub mod aggregate;
pub mod cnf;
pub mod driver;
pub mod encode;
pub mod frame;
pub mod query;
pub mod symbolic;
pub mod symbreak;
pub mod term;
