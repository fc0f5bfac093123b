//! What one partition of the search's visited set holds (the partitions are the kit's,
//! `par::parts`). A partition is only ever changed by one thread at a time (the owner
//! of the insert phase, `outbox::insert`), so its table needs no atomics, grows on its
//! own, and the layout does not depend on the number of threads. A partition keeps the
//! states it stored during the current block, in the order it stored them, until the
//! merge numbers them (`search`).
//!
//! Besides the exact store, the tree-compressed one (lossless: each partition a table
//! of roots, the node tables shared by all of them behind one lock, `store::tree`),
//! hash compaction and bitstate stores for bug hunting, and the probability that such a
//! search missed a state (`omission`).

use crate::explicit::par::parts::PART_BITS;
use crate::explicit::store::tree::{Field, Nodes};
use crate::explicit::store::{BitArray, VisitedSet, hash_words};
use crate::model::instance::Instance;
use std::sync::{Arc, Mutex};

/// How the visited set remembers states.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StoreKind {
    /// Every state in full: the search is exhaustive.
    #[default]
    Exact,
    /// Every state, tree-compressed (Laarman, van de Pol and Weber 2011; LTSmin's
    /// tree database): its cells cut into a balanced tree whose leaves and pairs are
    /// interned in shared node tables, the state one 64-bit root (a state of at most
    /// 64 bits is stored as it is, by the exact table). Lossless: the same states,
    /// verdicts and traces as `Exact`.
    Tree,
    /// A 64-bit signature per state (Wolper and Leroy 1993; SPIN's `-DHC`): about 11
    /// bytes a state in the table; two states with one signature count as one.
    HashCompact,
    /// `PROBES` bits per state in a bit array of `2^log_bits` bits (Holzmann's
    /// supertrace; SPIN's `-DBITSTATE`).
    Bitstate { log_bits: u32 },
}

impl StoreKind {
    /// The bitstate store taking at most `bytes` bytes (a power of two, at least 64 KiB
    /// in all).
    pub fn bitstate_of_bytes(bytes: usize) -> StoreKind {
        let bits = (bytes.max(1 << 16) as u64).saturating_mul(8);
        StoreKind::Bitstate {
            log_bits: 63 - bits.leading_zeros(),
        }
    }

    /// Whether a search over this store visits every reachable state (the stores
    /// that keep every state, whole or compressed, and so its key).
    pub fn exact(self) -> bool {
        matches!(self, StoreKind::Exact | StoreKind::Tree)
    }

    /// The command line's name.
    pub fn name(self) -> &'static str {
        match self {
            StoreKind::Exact => "exact",
            StoreKind::Tree => "tree",
            StoreKind::HashCompact => "hash-compact",
            StoreKind::Bitstate { .. } => "bitstate",
        }
    }
}

/// The node tables of a tree store, shared by its partitions.
pub(super) type SharedNodes = Arc<Mutex<Nodes>>;

/// One partition's store.
pub(super) enum Store {
    Exact(VisitedSet),
    /// The roots of the states' trees, one word each; the node tables are every
    /// partition's, counted by the first one's `memory_bytes` (`counts_nodes`).
    Tree {
        roots: VisitedSet,
        nodes: SharedNodes,
        counts_nodes: bool,
    },
    /// The signatures, one word each.
    Compact(VisitedSet),
    Bits(BitArray),
}

/// Makes the partitions' stores of one search: for a tree store, every one with the
/// same node tables.
pub(super) struct Stores {
    kind: StoreKind,
    words: usize,
    nodes: Option<SharedNodes>,
    made: usize,
}

impl Stores {
    /// The stores of a search of `inst` (whose layout shapes a tree store's trees).
    pub fn new(kind: StoreKind, inst: &Instance) -> Stores {
        let fields: Vec<Field> = inst
            .slots
            .iter()
            .map(|s| Field {
                word: s.word,
                shift: s.shift,
                bits: s.bits,
            })
            .collect();
        let nodes = Nodes::new(inst.words, &fields);
        Stores {
            kind,
            words: inst.words,
            // States of one word are their own roots: the exact table (with its
            // prefetches) stores them as they are.
            nodes: (kind == StoreKind::Tree && nodes.compresses())
                .then(|| Arc::new(Mutex::new(nodes))),
            made: 0,
        }
    }

    /// The next partition's store.
    pub fn make(&mut self) -> Store {
        self.made += 1;
        match (self.kind, &self.nodes) {
            (StoreKind::Tree, Some(nodes)) => Store::Tree {
                roots: VisitedSet::with_capacity(1, 256),
                nodes: nodes.clone(),
                counts_nodes: self.made == 1,
            },
            (StoreKind::HashCompact, _) => Store::Compact(VisitedSet::with_capacity(1, 256)),
            (StoreKind::Bitstate { log_bits }, _) => {
                Store::Bits(BitArray::new(log_bits.saturating_sub(PART_BITS)))
            }
            _ => Store::Exact(VisitedSet::with_capacity(self.words, 256)),
        }
    }
}

impl Store {
    /// Insert a state by its key (exact), or its signature `sig` (`store::sig_hash` of
    /// the key); `hash` is `hash_words` of the key. True when new. The exact store's
    /// insert is inlined where it is called (the hot path of a search), the others'
    /// go through `insert_any`.
    #[inline(always)]
    pub fn insert(&mut self, key: &[u64], hash: u64, sig: u64) -> bool {
        if let Store::Exact(t) = self {
            return t.insert_hashed(key, hash);
        }
        self.insert_any(key, hash, sig)
    }

    fn insert_any(&mut self, key: &[u64], hash: u64, sig: u64) -> bool {
        match self {
            Store::Exact(t) => t.insert_hashed(key, hash),
            Store::Tree { roots, nodes, .. } => {
                let r = nodes.lock().unwrap().root(key);
                roots.insert_hashed(&[r], hash_words(&[r]))
            }
            Store::Compact(t) => t.insert(&[sig]),
            Store::Bits(b) => b.insert(sig, hash),
        }
    }

    /// Ask the memory system for the entry `insert` will read.
    #[inline]
    pub fn prefetch(&self, hash: u64, sig: u64) {
        match self {
            Store::Exact(t) => t.prefetch(hash),
            // The root is known only once the tree is interned.
            Store::Tree { .. } => {}
            Store::Compact(t) => t.prefetch(hash_words(&[sig])),
            Store::Bits(b) => b.prefetch(sig, hash),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Store::Exact(t) | Store::Compact(t) => t.len(),
            Store::Tree { roots, .. } => roots.len(),
            Store::Bits(b) => b.len(),
        }
    }

    pub fn memory_bytes(&self) -> usize {
        match self {
            Store::Exact(t) | Store::Compact(t) => t.memory_bytes(),
            Store::Tree {
                roots,
                nodes,
                counts_nodes,
            } => {
                roots.memory_bytes()
                    + if *counts_nodes {
                        nodes.lock().unwrap().memory_bytes()
                    } else {
                        0
                    }
            }
            Store::Bits(b) => b.memory_bytes(),
        }
    }
}

/// A new state of the current block as its partition found it: where it came from.
#[derive(Clone, Copy, Debug)]
pub(super) struct NewState {
    pub parent: u32,
    /// The compiled transition instance and choice that produced it.
    pub k: u32,
    pub c: u32,
}

/// A violation met on a new state of the current block, by the successor it was:
/// `at` is its source (thread) and its number among that source's successors.
#[derive(Clone, Copy, Debug)]
pub(super) enum PartFind {
    /// Property k (index into the search's list) with the tuple of processes `tuple`.
    Unsafe {
        k: usize,
        at: (usize, usize),
        tuple: usize,
    },
    /// A range error evaluating property `prop` (index into `model.unsafes`).
    Range { at: (usize, usize), prop: usize },
}

/// One partition: its store, and what it stored during the current block.
pub(super) struct Part {
    pub store: Store,
    /// Real packed states stored this block, in the order stored.
    pub new_words: Vec<u64>,
    pub new: Vec<NewState>,
    /// Per property (index into the search's list): the first new state violating it
    /// this block.
    pub unsafe_first: Vec<Option<usize>>,
    pub finds: Vec<PartFind>,
    /// The first property evaluation this block that met a range error.
    pub range_first: bool,
}

impl Part {
    pub fn new(store: Store, props: usize) -> Part {
        Part {
            store,
            new_words: Vec::new(),
            new: Vec::new(),
            unsafe_first: vec![None; props],
            finds: Vec::new(),
            range_first: false,
        }
    }

    /// Forget the previous block's new states and finds.
    pub fn begin_block(&mut self) {
        self.new_words.clear();
        self.new.clear();
        self.unsafe_first.iter_mut().for_each(|f| *f = None);
        self.finds.clear();
        self.range_first = false;
    }
}

/// An upper estimate of the probability that a search over partitions `parts` missed
/// some reachable state, computed from the states each partition stored (the number
/// reachable is not known; with more of them the probability is higher), hashes taken
/// as independent random functions:
/// - exact: 0;
/// - hash compaction, 64-bit signatures: two states are taken for one only when they
///   fall into one partition and have one signature, so by the union bound over the
///   pairs of a partition, `sum_p n_p (n_p - 1) / 2 / 2^64` (Wolper and Leroy,
///   "Reliable hashing without collision detection", CAV 1993: `n^2 / 2^(b+1)` for
///   `b`-bit signatures);
/// - bitstate, `m` bits per partition and `k` probes: the i-th state stored finds its
///   `k` bits already set with probability `f_i^k`, where `f_i = 1 - (1 - 1/m)^(k i)`
///   is the expected fraction of bits set (Bloom 1970; Holzmann, "An analysis of
///   bitstate hashing", FMSD 1998); by the union bound over the states,
///   `sum_p sum_{i < n_p} f_i^k`, bounded above by the integral of the increasing
///   `f^k` over `[0, n_p]`, taken by a right Riemann sum.
pub(super) fn omission(kind: StoreKind, stored: &[usize]) -> f64 {
    let p: f64 = match kind {
        StoreKind::Exact | StoreKind::Tree => 0.0,
        StoreKind::HashCompact => stored
            .iter()
            .map(|&n| n as f64 * (n as f64 - 1.0).max(0.0) / 2.0 / 2f64.powi(64))
            .sum(),
        StoreKind::Bitstate { log_bits } => {
            let m = 2f64.powi(log_bits.saturating_sub(PART_BITS).max(6) as i32);
            let k = BitArray::PROBES as f64;
            // ln(1 - 1/m), exactly.
            let rate = k * (-1.0 / m).ln_1p();
            stored
                .iter()
                .map(|&n| {
                    const STEPS: usize = 4096;
                    let h = n as f64 / STEPS as f64;
                    (1..=STEPS)
                        .map(|j| (-(rate * j as f64 * h).exp_m1()).powf(k) * h)
                        .sum::<f64>()
                })
                .sum()
        }
    };
    p.min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explicit::par::parts::PARTS;

    #[test]
    fn omission_formulas() {
        assert_eq!(omission(StoreKind::Exact, &[1000; PARTS]), 0.0);
        // One partition of 2^32 states: about 2^63 pairs of 2^-64 each.
        let p = omission(StoreKind::HashCompact, &[1 << 32]);
        assert!((p - 0.5).abs() < 1e-6, "{p}");
        // Cut into 64 partitions, 64 times fewer pairs can meet.
        let q = omission(StoreKind::HashCompact, &[1 << 26; PARTS]);
        assert!((q - 0.5 / 64.0).abs() < 1e-6, "{q}");
        // Bitstate with n << m: sum of (k i / m)^k ~ k^k n^(k+1) / ((k+1) m^k).
        let kind = StoreKind::Bitstate { log_bits: 40 };
        let m = 2f64.powi(34);
        let n: f64 = 1e6;
        let approx = 27.0 * n.powi(4) / (4.0 * m.powi(3));
        let got = omission(kind, &[n as usize]);
        assert!(got >= approx && got < approx * 1.01, "{got} vs {approx}");
        // A full array misses states almost surely.
        assert_eq!(omission(kind, &[1 << 36]), 1.0);
    }

    #[test]
    fn bitstate_sizes() {
        assert_eq!(
            StoreKind::bitstate_of_bytes(512 << 20),
            StoreKind::Bitstate { log_bits: 32 }
        );
        assert_eq!(
            StoreKind::bitstate_of_bytes(1000),
            StoreKind::Bitstate { log_bits: 19 }
        );
    }
}
