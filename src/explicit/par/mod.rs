//! The parallel-search kit: what the level-synchronous searches of the explicit engine
//! share. Each of them expands a level of the breadth-first order (or a block of one)
//! on a team of workers, sends every successor to the part of the visited set its hash
//! selects, and meets the others before the next level (Stern and Dill, "Parallelizing
//! the Murphi verifier", CAV 1997).
//!
//! - `parts`: the partitioned store (`Parts`, `part_of`, owners of partitions, lookups
//!   sorted by partition, the distributed search's `peer_of`);
//! - `barrier`: the spin-then-sleep barrier of a team of threads;
//! - `team`: a team's barrier, profile and end-of-rounds flag;
//! - `prof`: the one profile of a parallel search (`NFOLD_SEARCH_PROFILE`);
//! - `prefetch`: the one prefetch of a cache line.
//!
//! Used by the safety search (`reach::search`, `reach::expand`: parts by owners,
//! team, profile, prefetch through the tables of `store`), the fair-cycle search's
//! exploration and decomposition (`ndfs::par_explore`, `ndfs::par_graph`,
//! `ndfs::par_scc`: parts by sorted lookups, team, profile, prefetch) and the
//! distributed search (`reach::dist`: `peer_of` and the profile; its workers share no
//! memory, so it has neither shared partitions nor a barrier of threads: a round of
//! its dataflow is its barrier).

pub(in crate::explicit) mod barrier;
pub(in crate::explicit) mod parts;
pub(in crate::explicit) mod prefetch;
pub(in crate::explicit) mod prof;
pub(in crate::explicit) mod team;
