//! The one prefetch of the explicit engine: a hint to the memory system that a cache
//! line will be read soon. The searches ask for a hash table's entry some lookups ahead
//! (`store`: the tables' `prefetch`, used by the safety search's insert phase and the
//! fair-cycle searches), and the parallel fair-cycle search's decomposition for the
//! records and numbers of a node's targets before it enters them (`ndfs::par_scc`,
//! `ndfs::par_graph`). A no-op off x86-64.

/// Ask the memory system for the cache line holding `x`.
#[inline(always)]
pub(in crate::explicit) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` wants the `sse` target feature, which is in the baseline of
    // every x86-64 target; the instruction is a hint that reads and writes nothing and
    // cannot fault, and the pointer comes from a live reference.
    unsafe {
        std::arch::x86_64::_mm_prefetch(x as *const T as *const i8, std::arch::x86_64::_MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}
