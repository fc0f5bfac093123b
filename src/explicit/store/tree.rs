//! Tree compression of packed states, lossless (Laarman, van de Pol and Weber,
//! "Parallel recursive state compression for free", SPIN 2011: the tree database of
//! LTSmin). The bits of a packed state are cut, between its cells (fields), into two
//! halves of about as many bits, each half again until a part fits in 64 bits: the
//! leaves of a binary tree. Each leaf's value is interned in the table of its position
//! (a value to a 32-bit index, numbered in insertion order), each inner node's pair of
//! child indices (one 64-bit word) likewise, up to the root's pair, which identifies
//! the state and is stored in the visited set instead of the state (`TreeSet`, or a
//! partition's table of roots, the node tables shared by all partitions,
//! `reach::parts`). States that differ in a few cells share the subtrees the change
//! leaves alone, so a new state mostly adds its root and few inner nodes: about 8
//! bytes of root for its `8 W` bytes, plus the inner nodes, which the tables count
//! (`Nodes::memory_bytes`). A state of at most 64 bits is its own root (a single
//! leaf): the store is then the exact one.
//!
//! The cut follows the paper's balanced tree, at cell boundaries rather than at word
//! boundaries: packed words mix many cells and are mostly far from full, so halves
//! of words would not share (a first word of 64 bits against a second of 21). Unlike
//! the paper's tables, whose indices are positions in one fixed-size table, a table
//! here grows: its values sit in insertion order in chunks (index to value, which is
//! also how a root is expanded back into its state, `Nodes::expand`), and an
//! open-addressing table of 32-bit indices finds a value's index. States are not
//! re-interned incrementally from their parents' trees: every insert walks the whole
//! tree (one lookup per position, most of them hits in small tables).

use super::{VisitedSet, hash_words};

/// Keys per chunk of a table's keys (32 KiB chunks: the last one is at most that much
/// unused, and a table never copies its keys when it grows).
const CHUNK_BITS: u32 = 12;
const CHUNK: usize = 1 << CHUNK_BITS;

/// A table of one level: distinct 64-bit keys, numbered in insertion order.
struct Interner {
    /// The keys by index, `CHUNK` a chunk.
    keys: Vec<Box<[u64]>>,
    len: usize,
    /// Open addressing, linear probing: 0 for an empty slot, else the index plus one.
    slots: Vec<u32>,
}

/// The hash of a key of a table (its slot is the low bits).
#[inline(always)]
fn mix(key: u64) -> u64 {
    let h = (key ^ (key >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let h = (h ^ (h >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 32)
}

impl Interner {
    fn new() -> Interner {
        Interner {
            keys: Vec::new(),
            len: 0,
            slots: vec![0; 16],
        }
    }

    #[inline(always)]
    fn key(&self, i: u32) -> u64 {
        let i = i as usize;
        self.keys[i >> CHUNK_BITS][i & (CHUNK - 1)]
    }

    /// The index of `key`, if present.
    #[inline]
    fn find(&self, key: u64) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut pos = mix(key) as usize & mask;
        loop {
            match self.slots[pos] {
                0 => return None,
                s if self.key(s - 1) == key => return Some(s - 1),
                _ => pos = (pos + 1) & mask,
            }
        }
    }

    /// The index of `key`, numbered next when it is new.
    #[inline]
    fn intern(&mut self, key: u64) -> u32 {
        if (self.len + 1) * 10 > self.slots.len() * 7 {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut pos = mix(key) as usize & mask;
        loop {
            match self.slots[pos] {
                0 => break,
                s if self.key(s - 1) == key => return s - 1,
                _ => pos = (pos + 1) & mask,
            }
        }
        let i = self.len;
        assert!(
            i < u32::MAX as usize,
            "a tree-store table is full (2^32 - 1 nodes)"
        );
        if i & (CHUNK - 1) == 0 {
            self.keys.push(vec![0; CHUNK].into_boxed_slice());
        }
        self.keys[i >> CHUNK_BITS][i & (CHUNK - 1)] = key;
        self.len += 1;
        self.slots[pos] = self.len as u32;
        i as u32
    }

    /// Twice the slots, filled again from the keys (which do not move).
    fn grow(&mut self) {
        let cap = self.slots.len() * 2;
        let mask = cap - 1;
        let mut slots = vec![0u32; cap];
        for i in 0..self.len {
            let mut pos = mix(self.key(i as u32)) as usize & mask;
            while slots[pos] != 0 {
                pos = (pos + 1) & mask;
            }
            slots[pos] = i as u32 + 1;
        }
        self.slots = slots;
    }

    fn memory_bytes(&self) -> usize {
        self.keys.len() * CHUNK * 8 + self.slots.len() * 4 + self.keys.capacity() * 8
    }
}

/// A run of bits of a packed state: `bits` bits of word `word` from bit `shift`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub word: usize,
    pub shift: u32,
    pub bits: u32,
}

/// A position of the tree: a leaf (a run of fields, at most 64 bits, read as one
/// value) or a pair of positions. Positions are in post-order: children first, the
/// root last.
#[derive(Clone, Debug)]
enum Pos {
    Leaf(Vec<Field>),
    Pair(usize, usize),
}

/// The node tables of the trees of the states of one layout, one table per position
/// but the root's.
pub struct Nodes {
    words: usize,
    shape: Vec<Pos>,
    /// Per position but the root: distinct values (leaf values, or index pairs).
    tables: Vec<Interner>,
    /// Per position: its index while a root is computed (reused).
    idx: Vec<u32>,
}

/// The two 32-bit indices of a pair, in one word.
#[inline(always)]
fn pair(a: u32, b: u32) -> u64 {
    ((a as u64) << 32) | b as u64
}

/// The mask of the low `bits` bits.
#[inline(always)]
fn low(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

/// Runs `fields` (sorted, at most 64 bits in all) as few as possible: neighbours in
/// one word merged.
fn merged(fields: &[Field]) -> Vec<Field> {
    let mut out: Vec<Field> = Vec::new();
    for &f in fields {
        match out.last_mut() {
            Some(l) if l.word == f.word && l.shift + l.bits == f.shift => l.bits += f.bits,
            _ => out.push(f),
        }
    }
    out
}

/// Appends the positions of the tree over `fields` to `shape` (post-order): one leaf
/// when they fit in 64 bits, else the trees of two halves, cut between fields where
/// the bits are closest to even. Returns the position of its top.
fn build(fields: &[Field], shape: &mut Vec<Pos>) -> usize {
    let total: u32 = fields.iter().map(|f| f.bits).sum();
    if total <= 64 || fields.len() < 2 {
        shape.push(Pos::Leaf(merged(fields)));
        return shape.len() - 1;
    }
    let (mut best, mut acc, mut gap) = (1, 0u32, u32::MAX);
    for (k, f) in fields[..fields.len() - 1].iter().enumerate() {
        acc += f.bits;
        let g = (2 * acc).abs_diff(total);
        if g < gap {
            (best, gap) = (k + 1, g);
        }
    }
    let l = build(&fields[..best], shape);
    let r = build(&fields[best..], shape);
    shape.push(Pos::Pair(l, r));
    shape.len() - 1
}

impl Nodes {
    /// Empty tables for states of `words` words whose bits are `fields` (every bit a
    /// state may set, each in one field; the others always clear).
    pub fn new(words: usize, fields: &[Field]) -> Nodes {
        let mut fields: Vec<Field> = fields.iter().copied().filter(|f| f.bits > 0).collect();
        fields.sort_by_key(|f| (f.word, f.shift));
        assert!(
            fields
                .iter()
                .all(|f| f.bits <= 64 && f.shift + f.bits <= 64)
        );
        let mut shape = Vec::new();
        build(&fields, &mut shape);
        Nodes {
            words,
            tables: (1..shape.len()).map(|_| Interner::new()).collect(),
            idx: vec![0; shape.len()],
            shape,
        }
    }

    /// Empty tables for states of `words` words, every bit of them used.
    pub fn of_words(words: usize) -> Nodes {
        let fields: Vec<Field> = (0..words)
            .map(|word| Field {
                word,
                shift: 0,
                bits: 64,
            })
            .collect();
        Nodes::new(words, &fields)
    }

    /// The value of position `p` of `key` given its children's indices in `idx`.
    #[inline(always)]
    fn value(&self, p: usize, key: &[u64]) -> u64 {
        match &self.shape[p] {
            Pos::Leaf(fs) => {
                let (mut v, mut at) = (0u64, 0u32);
                for f in fs {
                    v |= ((key[f.word] >> f.shift) & low(f.bits)) << at;
                    at += f.bits;
                }
                v
            }
            &Pos::Pair(l, r) => pair(self.idx[l], self.idx[r]),
        }
    }

    /// The root of a packed state, its subtrees interned: two states have one root iff
    /// they are equal. A state of at most 64 bits is its own root.
    #[inline]
    pub fn root(&mut self, key: &[u64]) -> u64 {
        debug_assert_eq!(key.len(), self.words);
        let top = self.shape.len() - 1;
        for p in 0..top {
            let v = self.value(p, key);
            self.idx[p] = self.tables[p].intern(v);
        }
        self.value(top, key)
    }

    /// The root of a packed state if every subtree of it is present (otherwise no state
    /// stored has it), without interning anything.
    pub fn find_root(&mut self, key: &[u64]) -> Option<u64> {
        let top = self.shape.len() - 1;
        for p in 0..top {
            let v = self.value(p, key);
            self.idx[p] = self.tables[p].find(v)?;
        }
        Some(self.value(top, key))
    }

    /// The packed state of a root from `root`, into `out` (`words` words).
    pub fn expand(&self, root: u64, out: &mut [u64]) {
        debug_assert_eq!(out.len(), self.words);
        out.iter_mut().for_each(|w| *w = 0);
        let mut vals = vec![0u64; self.shape.len()];
        let top = self.shape.len() - 1;
        vals[top] = root;
        for p in (0..=top).rev() {
            match &self.shape[p] {
                Pos::Leaf(fs) => {
                    let mut at = 0u32;
                    for f in fs {
                        out[f.word] |= ((vals[p] >> at) & low(f.bits)) << f.shift;
                        at += f.bits;
                    }
                }
                &Pos::Pair(l, r) => {
                    vals[l] = self.tables[l].key((vals[p] >> 32) as u32);
                    vals[r] = self.tables[r].key(vals[p] as u32);
                }
            }
        }
    }

    /// Whether the trees have more than one position: states of at most 64 bits are
    /// their own roots, and the exact table of one word stores them as well.
    pub fn compresses(&self) -> bool {
        self.shape.len() > 1
    }

    /// The nodes interned, over all tables.
    pub fn len(&self) -> usize {
        self.tables.iter().map(|t| t.len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes held by every table: keys and slots.
    pub fn memory_bytes(&self) -> usize {
        self.tables
            .iter()
            .map(Interner::memory_bytes)
            .sum::<usize>()
    }
}

/// A set of packed states of a fixed number of words, tree-compressed: the node tables
/// and the set of roots.
pub struct TreeSet {
    nodes: Nodes,
    roots: VisitedSet,
}

impl TreeSet {
    /// An empty set for states of `words` words, every bit of them used.
    pub fn new(words: usize) -> TreeSet {
        TreeSet::with_nodes(Nodes::of_words(words))
    }

    /// An empty set over the (empty) tables `nodes`.
    pub fn with_nodes(nodes: Nodes) -> TreeSet {
        TreeSet {
            nodes,
            roots: VisitedSet::new(1),
        }
    }

    /// Insert a packed state; true when it was not present.
    #[inline]
    pub fn insert(&mut self, key: &[u64]) -> bool {
        let r = self.nodes.root(key);
        self.roots.insert_hashed(&[r], hash_words(&[r]))
    }

    /// Whether a packed state is present.
    pub fn contains(&mut self, key: &[u64]) -> bool {
        self.nodes
            .find_root(key)
            .is_some_and(|r| self.roots.contains(&[r]))
    }

    pub fn len(&self) -> usize {
        self.roots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }

    /// Bytes held by the roots and every node table.
    pub fn memory_bytes(&self) -> usize {
        self.roots.memory_bytes() + self.nodes.memory_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// A xorshift generator: the tests' states, reproducibly.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// `n` states of `w` words, each word from a few values (as packed states are), or
    /// any value when `wide`.
    fn states(rng: &mut Rng, n: usize, w: usize, wide: bool) -> Vec<Vec<u64>> {
        (0..n)
            .map(|_| {
                (0..w)
                    .map(|_| if wide { rng.next() } else { rng.next() % 5 })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn random_states_twice_count_exactly() {
        let mut rng = Rng(0x1234_5678_9ABC_DEF1);
        for w in 1..=9 {
            for wide in [false, true] {
                let all = states(&mut rng, 20_000, w, wide);
                let distinct: HashSet<&Vec<u64>> = all.iter().collect();
                let mut t = TreeSet::new(w);
                for s in &all {
                    let had = t.contains(s);
                    assert_eq!(t.insert(s), !had);
                }
                assert_eq!(t.len(), distinct.len(), "w {w} wide {wide}");
                for s in &all {
                    assert!(!t.insert(s));
                    assert!(t.contains(s));
                }
                assert_eq!(t.len(), distinct.len());
                let mut out = vec![0; w];
                for s in &distinct {
                    let r = t.nodes.find_root(s).unwrap();
                    t.nodes.expand(r, &mut out);
                    assert_eq!(&out, *s);
                }
            }
        }
    }

    #[test]
    fn insert_reports_new_exactly() {
        let mut rng = Rng(77);
        for w in [2, 3, 5, 8] {
            let all = states(&mut rng, 30_000, w, false);
            let mut seen = HashSet::new();
            let mut t = TreeSet::new(w);
            for s in &all {
                assert_eq!(t.insert(s), seen.insert(s.clone()), "w {w}");
            }
            assert_eq!(t.len(), seen.len());
        }
    }

    #[test]
    fn colliding_slots_and_shared_subtrees() {
        // Keys that differ only above the bits a small table indexes by, the all-zero
        // state, and states that share every word but one.
        let mut t = TreeSet::new(4);
        let mut n = 0;
        for i in 0..3000u64 {
            for s in [[i << 40, 0, 0, 0], [0, 0, 0, i << 40], [0, i, i, 0]] {
                n += t.insert(&s) as usize;
            }
        }
        // [0, 0, 0, 0] three times (i = 0), 1 + 3 * 2999 others.
        assert_eq!(n, 1 + 3 * 2999);
        assert_eq!(t.len(), n);
        assert!(t.contains(&[0, 0, 0, 0]));
        assert!(!t.contains(&[0, 0, 1 << 40, 0]));
        assert!(!t.contains(&[1, 2, 3, 4]));
        // Swapped halves are different states with the same inner nodes.
        assert!(t.insert(&[0, 0, 5, 5]));
        assert!(t.insert(&[5, 5, 0, 0]));
        assert!(!t.insert(&[5, 5, 0, 0]));
    }

    #[test]
    fn table_of_one_key_per_hash_slot_grows_exactly() {
        let mut t = Interner::new();
        for i in 0..100_000u64 {
            assert_eq!(t.intern(i * 0x1_0000_0001), i as u32);
        }
        for i in 0..100_000u64 {
            assert_eq!(t.find(i * 0x1_0000_0001), Some(i as u32));
            assert_eq!(t.intern(i * 0x1_0000_0001), i as u32);
        }
        assert_eq!(t.find(3), None);
        assert_eq!(t.len, 100_000);
    }

    /// Fields of 9 bits filling 63 bits of word 0, of 12 bits filling 60 of word 1,
    /// of 5 bits filling 15 of word 2, listed out of order.
    fn layout() -> Vec<Field> {
        let mut f: Vec<Field> = (0..7)
            .map(|i| (0, 9 * i, 9))
            .chain((0..5).map(|i| (1, 12 * i, 12)))
            .chain((0..3).map(|i| (2, 5 * i, 5)))
            .map(|(word, shift, bits)| Field { word, shift, bits })
            .collect();
        f.reverse();
        f
    }

    #[test]
    fn trees_cut_between_fields_are_lossless() {
        let fields = layout();
        let nodes = Nodes::new(3, &fields);
        // 138 bits: halves of 69 (63 + 6: not between fields) and so on, every leaf
        // at most 64 bits.
        assert!(nodes.shape.len() >= 3);
        for p in &nodes.shape {
            if let Pos::Leaf(fs) = p {
                assert!(fs.iter().map(|f| f.bits).sum::<u32>() <= 64);
            }
        }
        let mut t = TreeSet::with_nodes(nodes);
        let mut rng = Rng(99);
        let mut seen = HashSet::new();
        for _ in 0..50_000 {
            let mut s = vec![0u64; 3];
            for f in &fields {
                // Few values per field, as cells have.
                s[f.word] |= (rng.next() % 3) << f.shift;
            }
            assert_eq!(t.insert(&s), seen.insert(s.clone()));
        }
        assert_eq!(t.len(), seen.len());
        let mut out = vec![0; 3];
        for s in &seen {
            assert!(t.contains(s));
            let r = t.nodes.find_root(s).unwrap();
            t.nodes.expand(r, &mut out);
            assert_eq!(&out, s);
        }
    }

    #[test]
    fn one_word_states_are_their_own_roots() {
        let mut n = Nodes::new(
            1,
            &[Field {
                word: 0,
                shift: 0,
                bits: 40,
            }],
        );
        assert_eq!(n.root(&[12345]), 12345);
        assert!(n.is_empty());
        let mut out = [0];
        n.expand(12345, &mut out);
        assert_eq!(out, [12345]);
    }

    #[test]
    fn shared_subtrees_cost_less_than_states() {
        // Every combination of 4 values in each of 8 words (as a product of processes
        // is): 4^8 roots, but only 16 pairs per pair of words and 256 per quarter.
        let mut t = TreeSet::new(8);
        for i in 0..1u64 << 16 {
            let s: Vec<u64> = (0..8).map(|k| 1000 + ((i >> (2 * k)) & 3)).collect();
            assert!(t.insert(&s));
        }
        assert_eq!(t.nodes.len(), 8 * 4 + 4 * 16 + 2 * 256);
        let per = t.memory_bytes() as f64 / t.len() as f64;
        // The exact table: 64 bytes a state at least.
        assert!(per < 32.0, "{per} bytes a state");
    }
}
