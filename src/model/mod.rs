//! The model layer: the typed IR of a family (`ir`) and, per size n, an instance with
//! its state layout, the reference interpreter, initial states, successors and the
//! permutation action with canonical representatives.

pub mod canon;
pub mod compiled;
pub mod data;
pub mod eval;
pub mod extra;
pub mod init;
pub mod instance;
pub mod ir;
