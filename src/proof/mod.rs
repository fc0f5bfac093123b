//! Proofs: lemmas of inductive invariants with their symmetric orbits (`lemma`),
//! certificates in readable text (`cert`) and their independent check (`check`),
//! counting lemmas (`count`), and the cutoff argument that extends a check at sizes
//! 1..c to every size (`cutoff`; for ranking proofs of response properties,
//! `live_cutoff`).

pub mod check;
pub mod count;
pub mod cutoff;
pub mod finish;
mod fragment;
pub mod lemma;
pub mod live_cutoff;
pub mod reduced;
pub mod standin;
