//! Oracles shared by the integration tests.

pub mod fair_scc;
