//! The explicit-state engine: breadth-first reachability for safety (`reach`) and
//! nested depth-first search for LTL under weak fairness (`ndfs`), both with symmetry
//! reduction by canonical representatives, over hash tables of packed states (`store`);
//! their parallel forms share one kit (`par`: partitioned store, barrier, profile,
//! prefetch).

pub mod engine;
mod fair_cycle;
pub mod ndfs;
mod par;
pub mod product;
pub mod reach;
pub mod shorten;
pub mod steps;
pub mod store;
pub mod vacuity;
