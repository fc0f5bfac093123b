//! nfold: a model checker for parameterized concurrent protocols written as families of
//! n replicated processes with shared variables (Cubicle-style guarded transitions).

pub mod bdd;
pub mod bmc;
pub mod cert;
pub mod cli;
pub mod cores;
pub mod counter;
pub mod dot;
pub mod engine;
pub mod explicit;
pub mod hash;
pub mod ic3;
pub mod kind;
pub mod lang;
pub mod lasso;
pub mod limits;
pub mod live;
pub mod ltl;
pub mod model;
pub mod portfolio;
pub mod progress;
pub mod proof;
pub mod rank;
pub mod report;
pub mod run;
pub mod sat;
pub mod schema;
pub mod simulate;
pub mod source;
pub mod trace;
pub mod trail;
pub mod transys;
pub mod verdict;
