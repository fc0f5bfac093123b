//! nfold: a model checker for parameterized concurrent protocols written as families of
//! n replicated processes with shared variables (Cubicle-style guarded transitions).

pub mod lang;
pub mod model;
pub mod explicit;
pub mod trace;
pub mod verdict;
pub mod cli;
