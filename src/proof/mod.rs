//! Proofs: lemmas of inductive invariants with their symmetric orbits (`lemma`),
//! certificates in readable text (`cert`) and their independent check (`check`).

pub mod cert;
pub mod check;
pub mod lemma;
