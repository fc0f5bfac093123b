//! nfold: a model checker for parameterized concurrent protocols written as families of
//! n replicated processes with shared variables (Cubicle-style guarded transitions).

pub mod cli;
pub mod explicit;
pub mod lang;
pub mod model;
pub mod trace;
pub mod verdict;
