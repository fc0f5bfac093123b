//! The model layer: the typed IR of a family (`ir`) and, per size n, an instance with
//! its state layout, the reference interpreter, initial states, successors and the
//! permutation action with canonical representatives, the dead cells an explicit
//! search may normalize (`dead`), and the seeded generator of random runs (`rng`).

pub mod assume;
pub mod canon;
pub mod compiled;
pub mod data;
pub mod dead;
pub mod eval;
pub mod extra;
pub mod init;
pub mod instance;
pub mod ints;
pub mod ir;
pub mod reduce;
pub mod rng;
pub mod walk;
