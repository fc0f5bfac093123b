//! The stores of the explicit engine. The visited set: an open-addressing hash table
//! holding the packed states themselves (keys inline, linear probing), so a lookup costs
//! one cache miss. The all-zero key marks an empty entry; the all-zero state is kept
//! aside. States are numbered by the engine (insertion order), not here: the table moves
//! entries when it grows, and nothing needs a state back from its number. For bug
//! hunting on instances whose states do not fit, the same table holds 64-bit signatures
//! instead (hash compaction: Wolper and Leroy, "Reliable hashing without collision
//! detection", CAV 1993), or a bit array holds a few bits per state (bitstate hashing:
//! Holzmann, "On limits and possibilities of automated protocol analysis", 1987).
//! The flag table serves the nested depth-first search. Lossless and smaller than the
//! exact table on states of several words: tree compression (`tree`).

pub mod tree;

use super::par::prefetch::prefetch;

/// A set of packed states of a fixed number of words.
pub struct VisitedSet {
    words: usize,
    table: Table,
    cap: usize,
    len: usize,
    has_zero: bool,
}

/// Hash of a packed state.
#[inline]
pub fn hash_words(key: &[u64]) -> u64 {
    let mut h: u64 = 0x243F_6A88_85A3_08D3;
    for &w in key {
        h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 32;
    }
    h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^ (h >> 29)
}

/// `dst.copy_from_slice(src)`, inlined for the one or two words most packed states
/// take: there a call to `memcpy` costs more than the copy.
#[inline(always)]
pub fn copy_words(dst: &mut [u64], src: &[u64]) {
    match (dst, src) {
        ([d], [s]) => *d = *s,
        ([d0, d1], [s0, s1]) => {
            *d0 = *s0;
            *d1 = *s1;
        }
        (dst, src) => dst.copy_from_slice(src),
    }
}

/// `v.extend_from_slice(src)`, inlined for one or two words as `copy_words`.
#[inline(always)]
pub fn extend_words(v: &mut Vec<u64>, src: &[u64]) {
    match src {
        [] => {}
        [a] => v.push(*a),
        [a, b] => {
            v.push(*a);
            v.push(*b);
        }
        _ => v.extend_from_slice(src),
    }
}

/// Word-wise equality, inlined (a `memcmp` call costs more for one or two words).
#[inline(always)]
fn same(a: &[u64], b: &[u64]) -> bool {
    let mut d = 0;
    for (x, y) in a.iter().zip(b) {
        d |= x ^ y;
    }
    d == 0
}

/// A zeroed table of words. Large tables are backed by transparent huge pages:
/// random probes into hundreds of megabytes otherwise miss the TLB on nearly every
/// lookup, and even the prefetch of an entry then waits for a page walk. The kernel
/// backs only 2 MiB-aligned ranges with huge pages, so on Linux a large table is a
/// mapping of its own that starts at such an address (mapped a little longer, then
/// trimmed to whole huge pages). Not through the allocator: `calloc` from its heap
/// zeroes, so makes resident, every byte of a padded buffer.
pub(crate) struct Table {
    backing: Backing,
    len: usize,
}

enum Backing {
    Heap(Vec<u64>),
    /// An anonymous mapping of `bytes` bytes (zero until written), owned by the table.
    #[cfg(target_os = "linux")]
    Mapped {
        ptr: std::ptr::NonNull<u64>,
        bytes: usize,
    },
}

// SAFETY: a `Mapped` table owns its mapping exclusively, as a `Vec` owns its buffer.
unsafe impl Send for Table {}
// SAFETY: shared access only reads through `&[u64]`.
unsafe impl Sync for Table {}

/// The size and alignment of a transparent huge page.
#[cfg(target_os = "linux")]
const HUGE: usize = 2 << 20;

impl Table {
    pub(crate) fn zeroed(len: usize) -> Table {
        #[cfg(target_os = "linux")]
        // From one whole huge page: a smaller table would be rounded up to one, and
        // a huge page is resident as a whole, so up to half of it would be waste.
        if len * 8 >= HUGE
            && let Some(t) = Table::mapped(len)
        {
            return t;
        }
        Table {
            backing: Backing::Heap(vec![0; len]),
            len,
        }
    }

    /// `len` zero words in whole huge pages from a 2 MiB boundary, or `None` if the
    /// kernel refuses the mapping.
    #[cfg(target_os = "linux")]
    fn mapped(len: usize) -> Option<Table> {
        let bytes = (len * 8).next_multiple_of(HUGE);
        let total = bytes + HUGE;
        // SAFETY: a fresh private anonymous mapping; nothing else refers to it. The
        // head before the boundary and the tail after `bytes` are unmapped at once, so
        // exactly [lo, lo + bytes) stays, owned by the table until `drop`.
        unsafe {
            let at = libc::mmap(
                std::ptr::null_mut(),
                total,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if at == libc::MAP_FAILED {
                return None;
            }
            let start = at as usize;
            let lo = start.next_multiple_of(HUGE);
            if lo > start {
                libc::munmap(at, lo - start);
            }
            let end = lo + bytes;
            if start + total > end {
                libc::munmap(end as *mut libc::c_void, start + total - end);
            }
            // Failure only leaves small pages: harmless, ignored.
            libc::madvise(lo as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
            Some(Table {
                backing: Backing::Mapped {
                    ptr: std::ptr::NonNull::new(lo as *mut u64)?,
                    bytes,
                },
                len,
            })
        }
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if let Backing::Mapped { ptr, bytes } = self.backing {
            // SAFETY: the mapping made in `mapped`, unmapped once.
            unsafe {
                libc::munmap(ptr.as_ptr() as *mut libc::c_void, bytes);
            }
        }
    }
}

impl std::ops::Deref for Table {
    type Target = [u64];
    #[inline(always)]
    fn deref(&self) -> &[u64] {
        match &self.backing {
            Backing::Heap(v) => &v[..self.len],
            // SAFETY: the mapping holds `bytes >= 8 * len` readable, zero-initialised
            // bytes, owned by the table.
            #[cfg(target_os = "linux")]
            Backing::Mapped { ptr, .. } => unsafe {
                std::slice::from_raw_parts(ptr.as_ptr(), self.len)
            },
        }
    }
}

impl std::ops::DerefMut for Table {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [u64] {
        match &mut self.backing {
            Backing::Heap(v) => &mut v[..self.len],
            // SAFETY: as in `deref`; `&mut self` makes the access exclusive.
            #[cfg(target_os = "linux")]
            Backing::Mapped { ptr, .. } => unsafe {
                std::slice::from_raw_parts_mut(ptr.as_ptr(), self.len)
            },
        }
    }
}

impl VisitedSet {
    /// An empty set for states of `words` 64-bit words.
    pub fn new(words: usize) -> VisitedSet {
        VisitedSet::with_capacity(words, 1 << 12)
    }

    /// An empty set for states of `words` words with room for `cap` entries at first
    /// (a power of two; it grows past 70 % full).
    pub fn with_capacity(words: usize, cap: usize) -> VisitedSet {
        let cap = cap.next_power_of_two().max(8);
        let words = words.max(1);
        VisitedSet {
            words,
            table: Table::zeroed(cap * words),
            cap,
            len: 0,
            has_zero: false,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Insert a packed state; true when it was not present.
    #[inline]
    pub fn insert(&mut self, key: &[u64]) -> bool {
        self.insert_hashed(key, hash_words(key))
    }

    /// Ask the memory system for the entry a hash maps to (for a later insert).
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        let pos = (hash as usize) & (self.cap - 1);
        prefetch(&self.table[pos * self.words]);
    }

    /// `insert` with the key's `hash_words` already computed. Inlined where it is
    /// called for one-word keys (a search's hot path: a call's prologue costs as much
    /// as the probe).
    #[inline(always)]
    pub fn insert_hashed(&mut self, key: &[u64], hash: u64) -> bool {
        debug_assert_eq!(key.len(), self.words);
        if let [one] = key {
            return self.insert_word(*one, hash);
        }
        self.insert_words(key, hash)
    }

    /// The all-zero key, kept aside (zero marks an empty entry): true when new.
    #[inline(always)]
    fn insert_zero(&mut self) -> bool {
        let new = !self.has_zero;
        self.has_zero = true;
        self.len += new as usize;
        new
    }

    /// Grows the table before an insert would fill it past 70 %.
    #[inline(always)]
    fn make_room(&mut self) {
        if (self.len + 1) * 10 > self.cap * 7 {
            self.grow();
        }
    }

    /// `insert_hashed` of a key of several words.
    fn insert_words(&mut self, key: &[u64], hash: u64) -> bool {
        if key.iter().all(|&w| w == 0) {
            return self.insert_zero();
        }
        self.make_room();
        let w = self.words;
        let mask = self.cap - 1;
        let mut pos = (hash as usize) & mask;
        loop {
            let e = &mut self.table[pos * w..pos * w + w];
            if same(e, key) {
                return false;
            }
            if e.iter().all(|&x| x == 0) {
                copy_words(e, key);
                self.len += 1;
                return true;
            }
            pos = (pos + 1) & mask;
        }
    }

    /// `insert_hashed` of a one-word key (most packed states; hash compaction's
    /// signatures, a tree store's roots): word compares, without slices.
    #[inline(always)]
    fn insert_word(&mut self, key: u64, hash: u64) -> bool {
        if key == 0 {
            return self.insert_zero();
        }
        self.make_room();
        let mask = self.cap - 1;
        let table = &mut self.table[..];
        let mut pos = (hash as usize) & mask;
        loop {
            let e = table[pos];
            if e == key {
                return false;
            }
            if e == 0 {
                table[pos] = key;
                self.len += 1;
                return true;
            }
            pos = (pos + 1) & mask;
        }
    }

    /// Whether a packed state is present.
    pub fn contains(&self, key: &[u64]) -> bool {
        if key.iter().all(|&w| w == 0) {
            return self.has_zero;
        }
        let w = self.words;
        let mask = self.cap - 1;
        let mut pos = (hash_words(key) as usize) & mask;
        loop {
            let e = &self.table[pos * w..pos * w + w];
            if same(e, key) {
                return true;
            }
            if e.iter().all(|&x| x == 0) {
                return false;
            }
            pos = (pos + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let w = self.words;
        let cap = self.cap * 2;
        let mut table = Table::zeroed(cap * w);
        if w == 1 {
            rehash_words(&self.table, &mut table, cap - 1);
        } else {
            rehash(&self.table, &mut table, w, cap - 1);
        }
        self.table = table;
        self.cap = cap;
    }

    /// Bytes held by the table.
    pub fn memory_bytes(&self) -> usize {
        self.table.len() * 8
    }

    /// Call `f` on every packed state of the set (in table order), until it returns
    /// false.
    pub fn for_each(&self, mut f: impl FnMut(&[u64]) -> bool) {
        if self.has_zero && !f(&vec![0; self.words]) {
            return;
        }
        for e in self.table.chunks_exact(self.words) {
            if e.iter().any(|&x| x != 0) && !f(e) {
                return;
            }
        }
    }
}

/// Move the entries of `old`, of `w` words each, into the larger empty table `new`
/// (`mask` its entries minus one).
fn rehash(old: &[u64], new: &mut [u64], w: usize, mask: usize) {
    for e in old.chunks_exact(w) {
        if e.iter().all(|&x| x == 0) {
            continue;
        }
        let mut pos = (hash_words(e) as usize) & mask;
        while new[pos * w..pos * w + w].iter().any(|&x| x != 0) {
            pos = (pos + 1) & mask;
        }
        new[pos * w..pos * w + w].copy_from_slice(e);
    }
}

/// `rehash` of one-word entries, word by word.
fn rehash_words(old: &[u64], new: &mut [u64], mask: usize) {
    for &e in old.iter().filter(|&&e| e != 0) {
        let mut pos = (hash_words(&[e]) as usize) & mask;
        while new[pos] != 0 {
            pos = (pos + 1) & mask;
        }
        new[pos] = e;
    }
}

/// A map from packed keys of a fixed number of words to a few words of flags, for the
/// nested depth-first search (visit bits per product state). Same layout idea as
/// `VisitedSet`: keys and their flags inline, linear probing, the all-zero key aside.
pub struct FlagTable {
    kw: usize,
    vw: usize,
    table: Table,
    cap: usize,
    len: usize,
    /// The flags of the all-zero key, once it is present.
    zero: Option<Vec<u64>>,
    generation: u64,
}

impl FlagTable {
    /// An empty table for keys of `kw` words with `vw` words of flags each.
    pub fn new(kw: usize, vw: usize) -> FlagTable {
        let cap = 1 << 12;
        FlagTable {
            kw: kw.max(1),
            vw: vw.max(1),
            table: Table::zeroed(cap * (kw.max(1) + vw.max(1))),
            cap,
            len: 0,
            zero: None,
            generation: 0,
        }
    }

    /// Keys present.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The flags of a key, if present (`hash` is `hash_words(key)`).
    #[inline]
    pub fn get(&self, key: &[u64], hash: u64) -> Option<&[u64]> {
        if key.iter().all(|&w| w == 0) {
            return self.zero.as_deref();
        }
        let (kw, ew) = (self.kw, self.kw + self.vw);
        let mask = self.cap - 1;
        let mut pos = (hash as usize) & mask;
        loop {
            let e = &self.table[pos * ew..pos * ew + ew];
            if same(&e[..kw], key) {
                return Some(&e[kw..]);
            }
            if e[..kw].iter().all(|&x| x == 0) {
                return None;
            }
            pos = (pos + 1) & mask;
        }
    }

    /// The flags of a key, inserting it with all flags clear when absent.
    #[inline]
    pub fn entry(&mut self, key: &[u64], hash: u64) -> &mut [u64] {
        let pos = self.slot(key, hash);
        self.flags_mut(pos)
    }

    /// The position of a key's entry, inserting it with all flags clear when absent.
    /// Positions stay valid until the table grows (see `generation`).
    #[inline]
    pub fn slot(&mut self, key: &[u64], hash: u64) -> usize {
        debug_assert_eq!(key.len(), self.kw);
        if key.iter().all(|&w| w == 0) {
            if self.zero.is_none() {
                self.len += 1;
                self.zero = Some(vec![0; self.vw]);
            }
            return usize::MAX;
        }
        if (self.len + 1) * 10 > self.cap * 7 {
            self.grow();
        }
        let (kw, ew) = (self.kw, self.kw + self.vw);
        let mask = self.cap - 1;
        let mut pos = (hash as usize) & mask;
        if let [k] = *key {
            // The commonest key, one word: no slices per probe.
            loop {
                let e = &mut self.table[pos * ew];
                if *e == k {
                    return pos;
                }
                if *e == 0 {
                    *e = k;
                    self.len += 1;
                    return pos;
                }
                pos = (pos + 1) & mask;
            }
        }
        loop {
            let e = &self.table[pos * ew..pos * ew + kw];
            if same(e, key) {
                return pos;
            }
            if e.iter().all(|&x| x == 0) {
                self.table[pos * ew..pos * ew + kw].copy_from_slice(key);
                self.len += 1;
                return pos;
            }
            pos = (pos + 1) & mask;
        }
    }

    /// Ask the memory system for the entry a hash maps to (for a later `slot`).
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        let pos = (hash as usize) & (self.cap - 1);
        prefetch(&self.table[pos * (self.kw + self.vw)]);
    }

    /// The flags at a position from `slot`.
    #[inline]
    pub fn flags_mut(&mut self, pos: usize) -> &mut [u64] {
        if pos == usize::MAX {
            return self.zero.as_deref_mut().expect("the zero key is present");
        }
        let (kw, ew) = (self.kw, self.kw + self.vw);
        &mut self.table[pos * ew + kw..pos * ew + ew]
    }

    /// Call `f` on every key present and its flags (in table order).
    pub fn for_each(&self, mut f: impl FnMut(&[u64], &[u64])) {
        if let Some(z) = &self.zero {
            f(&vec![0; self.kw], z);
        }
        let kw = self.kw;
        for e in self.table.chunks_exact(kw + self.vw) {
            if e[..kw].iter().any(|&x| x != 0) {
                f(&e[..kw], &e[kw..]);
            }
        }
    }

    /// Counts the times the table grew (and moved its entries).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    fn grow(&mut self) {
        let (kw, ew) = (self.kw, self.kw + self.vw);
        let cap = self.cap * 2;
        let mask = cap - 1;
        let mut table = Table::zeroed(cap * ew);
        for e in self.table.chunks_exact(ew) {
            if e[..kw].iter().all(|&x| x == 0) {
                continue;
            }
            let mut pos = (hash_words(&e[..kw]) as usize) & mask;
            while table[pos * ew..pos * ew + kw].iter().any(|&x| x != 0) {
                pos = (pos + 1) & mask;
            }
            table[pos * ew..pos * ew + ew].copy_from_slice(e);
        }
        self.table = table;
        self.cap = cap;
        self.generation += 1;
    }

    /// Bytes held by the table.
    pub fn memory_bytes(&self) -> usize {
        self.table.len() * 8
    }
}

/// A second hash of a packed state, unrelated to `hash_words` in construction (a
/// 64x64->128-bit multiply folded per word, as in wyhash, then MurmurHash3's finalizer):
/// the signature stored by hash compaction and the source of bitstate's bit positions.
/// The omission probabilities (`reach::omission`) assume it behaves as a random function
/// independent of `hash_words`.
#[inline]
pub fn sig_hash(key: &[u64]) -> u64 {
    #[inline(always)]
    fn mum(a: u64, b: u64) -> u64 {
        let r = (a as u128) * (b as u128);
        (r as u64) ^ ((r >> 64) as u64)
    }
    let mut h: u64 = 0xA076_1D64_78BD_642F ^ key.len() as u64;
    for &w in key {
        h = mum(h ^ 0xE703_7ED1_A0B4_28DB, w ^ 0x8EBC_6AF0_9C88_C6E3);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^ (h >> 33)
}

/// A bitstate store (Holzmann's supertrace): `2^log_bits` bits, a state present when
/// all of its `PROBES` bits are set. States are never stored, so two states whose bits
/// coincide are taken for one: a search over it may miss states (`reach::omission`).
pub struct BitArray {
    bits: Vec<u64>,
    mask: u64,
    len: usize,
}

impl BitArray {
    /// Bits set per state (SPIN's default `-k3`).
    pub const PROBES: u32 = 3;

    /// An empty array of `2^log_bits` bits (at least 64).
    pub fn new(log_bits: u32) -> BitArray {
        let log_bits = log_bits.max(6);
        BitArray {
            // Zeroed lazily by the kernel, and without huge pages: a small search
            // touches a few pages of a large array, not a few megabytes per bit set.
            bits: vec![0; 1 << (log_bits - 6)],
            mask: (1u64 << log_bits) - 1,
            len: 0,
        }
    }

    /// The bit positions of a state from two hashes (double hashing, Kirsch and
    /// Mitzenmacher, "Less hashing, same performance", 2006): `h1 + i * h2`.
    #[inline]
    fn probe(&self, h1: u64, h2: u64, i: u32) -> usize {
        (h1.wrapping_add((i as u64).wrapping_mul(h2 | 1)) & self.mask) as usize
    }

    /// Set the bits of a state; true when one of them was clear (a new state).
    #[inline]
    pub fn insert(&mut self, h1: u64, h2: u64) -> bool {
        let mut new = false;
        for i in 0..Self::PROBES {
            let b = self.probe(h1, h2, i);
            let (w, m) = (b >> 6, 1u64 << (b & 63));
            new |= self.bits[w] & m == 0;
            self.bits[w] |= m;
        }
        self.len += new as usize;
        new
    }

    /// Ask the memory system for the word of a state's first bit.
    #[inline]
    pub fn prefetch(&self, h1: u64, h2: u64) {
        prefetch(&self.bits[self.probe(h1, h2, 0) >> 6]);
    }

    /// States taken as new.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number of bits.
    pub fn bit_count(&self) -> u64 {
        self.mask + 1
    }

    /// Bytes held by the array.
    pub fn memory_bytes(&self) -> usize {
        self.bits.len() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_and_find() {
        let mut s = VisitedSet::new(2);
        for i in 0..200_000u64 {
            assert!(s.insert(&[i, i * 7]));
        }
        for i in 0..200_000u64 {
            assert!(!s.insert(&[i, i * 7]));
            assert!(s.contains(&[i, i * 7]));
        }
        assert!(!s.contains(&[1, 1]));
        assert_eq!(s.len(), 200_000);
        let mut z = VisitedSet::new(1);
        assert!(!z.contains(&[0]));
        assert!(z.insert(&[0]));
        assert!(!z.insert(&[0]));
        assert!(z.contains(&[0]));
        assert_eq!(z.len(), 1);
    }

    #[test]
    fn for_each_visits_every_state_once() {
        let mut s = VisitedSet::new(2);
        // 0..10_000 twice over, the all-zero state included: 10_000 distinct states.
        for i in 0..20_000u64 {
            s.insert(&[i % 10_000, 0]);
        }
        let mut seen = Vec::new();
        s.for_each(|k| {
            seen.push(k[0]);
            true
        });
        seen.sort_unstable();
        assert_eq!(seen, (0..10_000).collect::<Vec<u64>>());
        let mut calls = 0;
        s.for_each(|_| {
            calls += 1;
            calls < 5
        });
        assert_eq!(calls, 5);
    }

    #[test]
    fn flags_stick_to_their_keys() {
        let mut t = FlagTable::new(2, 1);
        for i in 0..100_000u64 {
            let k = [i, i.wrapping_mul(31)];
            t.entry(&k, hash_words(&k))[0] = i + 1;
        }
        assert_eq!(t.len(), 100_000);
        for i in 0..100_000u64 {
            let k = [i, i.wrapping_mul(31)];
            assert_eq!(t.get(&k, hash_words(&k)), Some(&[i + 1][..]));
        }
        let k = [5, 5];
        assert_eq!(t.get(&k, hash_words(&k)), None);
        // The all-zero key was inserted (i = 0) and keeps its flags.
        assert_eq!(t.get(&[0, 0], 0), Some(&[1][..]));
        t.entry(&[0, 0], 0)[0] |= 8;
        assert_eq!(t.get(&[0, 0], 0), Some(&[9][..]));
        assert_eq!(t.len(), 100_000);
    }

    #[test]
    fn bitstate_remembers_what_it_was_given() {
        let mut b = BitArray::new(20);
        for i in 0..1000u64 {
            let k = [i, 7];
            assert!(b.insert(sig_hash(&k), hash_words(&k)), "{i}");
        }
        for i in 0..1000u64 {
            let k = [i, 7];
            assert!(!b.insert(sig_hash(&k), hash_words(&k)));
        }
        // 1000 states in 2^20 bits: a false match is a 1-in-10^8 event.
        assert_eq!(b.len(), 1000);
        assert_eq!(b.bit_count(), 1 << 20);
        assert_eq!(b.memory_bytes(), 1 << 17);
    }

    #[test]
    fn signatures_spread_over_all_bits() {
        // Every output bit flips for about half of the one-bit changes of the input.
        let base = sig_hash(&[12345, 0]);
        let mut flips = [0u32; 64];
        for b in 0..128 {
            let mut k = [12345u64, 0];
            k[b / 64] ^= 1 << (b % 64);
            let d = sig_hash(&k) ^ base;
            for (o, f) in flips.iter_mut().enumerate() {
                *f += ((d >> o) & 1) as u32;
            }
        }
        assert!(flips.iter().all(|&f| (32..=96).contains(&f)), "{flips:?}");
        assert_ne!(sig_hash(&[1, 2]), sig_hash(&[2, 1]));
    }
}
