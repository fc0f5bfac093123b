//! The stored quotient product of the parallel fair-cycle search (`par`), written by
//! its breadth-first exploration (`par_explore`) and read by its decomposition
//! (`par_scc`) and its lasso.
//!
//! The visited set is the kit's partitioned store (`par::parts`) of flag tables, each
//! partition behind a lock; a key's flag word holds its node number + 1 (low 32 bits) and
//! the number of the node that discovered it (high 32 bits, `NONE` for an initial
//! node), so the stem of a lasso follows these parents without a word per node
//! elsewhere.
//!
//! **Only the edges a fair accepting cycle may use are stored.** A cycle of the product
//! projects to a closed walk of the Büchi automaton, so a product component holding an
//! accepting cycle lies within one strongly connected component of the automaton that
//! has a cycle and an accepting state (`cycle_classes`; the automaton's SCCs are the
//! coarse first cut of the product's, as in the SCC-based emptiness checks of
//! Couvreur, FM 1999, and of the "weak/terminal automaton" strength reductions of
//! Bloem, Ravi, Somenzi, CAV 1999, here only as a filter). A node whose automaton
//! state lies in such a class keeps a record with its out-edges to nodes of the same
//! class; every other node keeps only its table entry. The product components among
//! the recorded nodes, over the stored edges, are exactly the components of the whole
//! product that can hold an accepting cycle (a component lies in one automaton
//! component, so it is either wholly recorded with all its inner edges, or has no
//! accepting cycle), so the decomposition and its test see what they saw on the whole
//! graph, on a fraction of it.
//!
//! A record of node u: `[u, edges << 1 | accepting, (fair:) disabled low, disabled
//! high]`, then per edge `[target, (fair:) process byte then g_e(1..n) as bytes, packed
//! four to a word]` (g_e as in `par_explore`'s module comment).

use super::expand::KeyLayout;
use crate::explicit::par::parts::part_of;
use crate::explicit::par::prefetch::prefetch;
use crate::explicit::store::{FlagTable, hash_words};
use crate::ltl::buchi::Buchi;
use std::collections::HashMap;

/// The parent of an initial node; the class of an automaton state on no accepting
/// cycle.
pub(super) const NONE: u32 = u32::MAX;
/// Node numbers stay below this (they are stored in 32 bits).
pub(super) const MAX_NODES: u64 = (u32::MAX - 2) as u64;
/// The index entry of a node without a record.
const NO_RECORD: u64 = u64::MAX;

/// The flag word of node `id` discovered by `parent`.
pub(super) fn flag(id: u64, parent: u32) -> u64 {
    (id + 1) | (parent as u64) << 32
}

/// The node number of a flag word.
pub(super) fn flag_id(f: u64) -> u32 {
    (f as u32) - 1
}

fn flag_parent(f: u64) -> u32 {
    (f >> 32) as u32
}

/// The classes of the automaton's states (module comment): `class[q]` is the least
/// state of q's strongly connected component when that component has a cycle and an
/// accepting state, `NONE` otherwise.
pub(super) fn cycle_classes(b: &Buchi) -> Vec<u32> {
    let k = b.states.len();
    let words = k.div_ceil(64).max(1);
    // reach[p]: the states reached from p in one step or more.
    let mut reach = vec![0u64; k * words];
    for p in 0..k {
        let mut stack: Vec<usize> = b.states[p].succ.clone();
        while let Some(q) = stack.pop() {
            let (at, bit) = (p * words + q / 64, 1u64 << (q % 64));
            if reach[at] & bit == 0 {
                reach[at] |= bit;
                stack.extend(&b.states[q].succ);
            }
        }
    }
    let r = |p: usize, q: usize| reach[p * words + q / 64] >> (q % 64) & 1 == 1;
    (0..k)
        .map(|q| {
            if !r(q, q) {
                return NONE;
            }
            let mut class = (0..k).filter(|&p| r(q, p) && r(p, q));
            let least = class.clone().next().unwrap_or(q);
            if class.any(|p| b.states[p].accepting) {
                least as u32
            } else {
                NONE
            }
        })
        .collect()
}

/// The stored quotient product.
pub(super) struct Graph {
    pub(super) layout: KeyLayout,
    pub(super) n: usize,
    pub(super) fair: bool,
    /// Edges carry g_e (under symmetry and fairness).
    pub(super) perms: bool,
    /// Key -> `flag(node, parent)`, per partition (`par::parts::part_of`).
    pub(super) parts: Vec<FlagTable>,
    /// Each thread's records.
    pub(super) arenas: Vec<Vec<u32>>,
    /// Node -> thread << 56 | offset of its record, or `NO_RECORD`.
    index: Vec<u64>,
    /// Words of a record's header and of an edge.
    pub(super) hw: usize,
    pub(super) ew: usize,
    /// Node numbers handed out (the threads take them in blocks, so a few go unused).
    pub(super) ids: usize,
    /// Nodes stored.
    pub(super) nodes: usize,
    /// Edges met (stored or not).
    pub(super) edges: u64,
    /// Edges stored.
    pub(super) stored_edges: u64,
    pub(super) levels: usize,
    /// Bytes held at the end of the exploration (tables, arenas, index).
    pub(super) bytes: usize,
}

impl Graph {
    /// Assemble the graph and index its records.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        layout: KeyLayout,
        n: usize,
        fair: bool,
        perms: bool,
        parts: Vec<FlagTable>,
        arenas: Vec<Vec<u32>>,
        counts: (usize, usize, u64, u64, usize),
    ) -> Graph {
        let (ids, nodes, edges, stored_edges, levels) = counts;
        let hw = if fair { 4 } else { 2 };
        let ew = 1 + if fair {
            (1 + if perms { n } else { 0 }).div_ceil(4)
        } else {
            0
        };
        let mut g = Graph {
            layout,
            n,
            fair,
            perms,
            parts,
            arenas,
            index: Vec::new(),
            hw,
            ew,
            ids,
            nodes,
            edges,
            stored_edges,
            levels,
            bytes: 0,
        };
        let mut index = vec![NO_RECORD; ids];
        for (t, off, v) in g.records() {
            index[v as usize] = (t as u64) << 56 | off as u64;
        }
        g.index = index;
        g.bytes = g.parts.iter().map(FlagTable::memory_bytes).sum::<usize>()
            + g.arenas.iter().map(|a| a.capacity() * 4).sum::<usize>()
            + g.index.capacity() * 8;
        g
    }

    /// Every record as (thread, offset, node), in the order of the arenas.
    pub(super) fn records(&self) -> impl Iterator<Item = (usize, usize, u32)> + '_ {
        self.arenas.iter().enumerate().flat_map(move |(t, a)| {
            let mut off = 0;
            std::iter::from_fn(move || {
                (off < a.len()).then(|| {
                    let at = off;
                    off += self.hw + (a[off + 1] >> 1) as usize * self.ew;
                    (t, at, a[at])
                })
            })
        })
    }

    /// The record of node v: its arena and the header's offset (`None`: no record).
    #[inline]
    pub(super) fn record(&self, v: u32) -> Option<(&[u32], usize)> {
        let i = self.index[v as usize];
        (i != NO_RECORD).then(|| {
            (
                &self.arenas[(i >> 56) as usize][..],
                (i & ((1 << 56) - 1)) as usize,
            )
        })
    }

    /// Where the record of a recorded node v is: its thread and offset.
    #[inline]
    pub(super) fn record_place(&self, v: u32) -> (usize, usize) {
        let i = self.index[v as usize];
        debug_assert_ne!(i, NO_RECORD);
        ((i >> 56) as usize, (i & ((1 << 56) - 1)) as usize)
    }

    /// Ask the memory system for v's index entry (before `record_place`).
    #[inline]
    pub(super) fn prefetch_record(&self, v: u32) {
        prefetch(&self.index[v as usize]);
    }

    /// The record of a recorded node v.
    #[inline]
    fn rec(&self, v: u32) -> (&[u32], usize) {
        self.record(v).expect("a recorded node")
    }

    /// Stored out-edges of a recorded node v.
    #[inline]
    pub(super) fn edge_count(&self, v: u32) -> usize {
        let (a, off) = self.rec(v);
        (a[off + 1] >> 1) as usize
    }

    /// The target of the k-th stored out-edge of v.
    #[inline]
    pub(super) fn target(&self, v: u32, k: usize) -> u32 {
        let (a, off) = self.rec(v);
        a[off + self.hw + k * self.ew]
    }

    /// The k-th stored out-edge of v as its words (target first).
    pub(super) fn edge(&self, v: u32, k: usize) -> &[u32] {
        let (a, off) = self.rec(v);
        let at = off + self.hw + k * self.ew;
        &a[at..at + self.ew]
    }

    pub(super) fn accepting(&self, v: u32) -> bool {
        let (a, off) = self.rec(v);
        a[off + 1] & 1 == 1
    }

    /// Processes disabled at v's state (bit p - 1), under fairness.
    pub(super) fn disabled(&self, v: u32) -> u64 {
        let (a, off) = self.rec(v);
        a[off + 2] as u64 | (a[off + 3] as u64) << 32
    }

    /// The node number of a key, if stored.
    pub(super) fn lookup(&self, key: &[u64]) -> Option<u32> {
        let h = hash_words(key);
        self.parts[part_of(h)].get(key, h).map(|f| flag_id(f[0]))
    }

    /// The path of nodes from an initial node to v along the discovering parents, with
    /// each node's key (two passes over the tables; run once, for a lasso).
    pub(super) fn path_to(&self, v: u32) -> Vec<(u32, Vec<u64>)> {
        let mut parent = vec![NONE; self.ids];
        for t in &self.parts {
            t.for_each(|_, f| parent[flag_id(f[0]) as usize] = flag_parent(f[0]));
        }
        let mut path = vec![v];
        while let Some(&u) = path.last()
            && parent[u as usize] != NONE
        {
            path.push(parent[u as usize]);
        }
        drop(parent);
        path.reverse();
        let mut keys: HashMap<u32, Vec<u64>> = path.iter().map(|&u| (u, Vec::new())).collect();
        for t in &self.parts {
            t.for_each(|key, f| {
                if let Some(k) = keys.get_mut(&flag_id(f[0])) {
                    *k = key.to_vec();
                }
            });
        }
        path.into_iter()
            .map(|u| (u, keys.remove(&u).unwrap_or_default()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ltl::buchi::BState;

    fn state(accepting: bool, succ: &[usize]) -> BState {
        BState {
            pos: 0,
            neg: 0,
            accepting,
            succ: succ.to_vec(),
        }
    }

    #[test]
    fn classes_are_the_cyclic_accepting_components() {
        // 0 -> 0, 1; 1 -> 1 accepting; 2 -> 3 -> 2 without acceptance; 4 accepting
        // without a cycle; 5 <-> 6 with 6 accepting.
        let b = Buchi {
            states: vec![
                state(false, &[0, 1]),
                state(true, &[1, 2, 4, 5]),
                state(false, &[3]),
                state(false, &[2]),
                state(true, &[]),
                state(false, &[6]),
                state(true, &[5]),
            ],
            initial: vec![0],
        };
        assert_eq!(
            cycle_classes(&b),
            vec![NONE, 1, NONE, NONE, NONE, 5, 5],
            "only components with a cycle and an accepting state"
        );
    }

    #[test]
    fn flags_hold_the_node_and_its_parent() {
        let f = flag(41, 7);
        assert_eq!((flag_id(f), flag_parent(f)), (41, 7));
        let f = flag(MAX_NODES - 1, NONE);
        assert_eq!((flag_id(f) as u64, flag_parent(f)), (MAX_NODES - 1, NONE));
    }
}
