//! The explicit-state engine: breadth-first reachability with symmetry reduction by
//! canonical representatives (`reach`) over a visited set of packed states (`store`).

pub mod reach;
pub mod store;
