//! The visited set of the explicit engine: an open-addressing hash table holding the
//! packed states themselves (keys inline, linear probing), so a lookup costs one cache
//! miss. The all-zero key marks an empty entry; the all-zero state is kept aside.
//! States are numbered by the engine (insertion order), not here: the table moves
//! entries when it grows, and nothing needs a state back from its number.

/// A set of packed states of a fixed number of words.
pub struct VisitedSet {
    words: usize,
    table: Vec<u64>,
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

/// Word-wise equality, inlined (a `memcmp` call costs more for one or two words).
#[inline(always)]
fn same(a: &[u64], b: &[u64]) -> bool {
    let mut d = 0;
    for (x, y) in a.iter().zip(b) {
        d |= x ^ y;
    }
    d == 0
}

/// A zeroed table of `len` words. Large tables ask the kernel for transparent huge
/// pages: random probes into hundreds of megabytes otherwise miss the TLB on nearly
/// every lookup.
fn zeroed_table(len: usize) -> Vec<u64> {
    let v = vec![0u64; len];
    #[cfg(target_os = "linux")]
    if len * 8 >= 4 << 20 {
        // madvise wants an aligned start; advise the 2 MiB-aligned interior.
        const HUGE: usize = 2 << 20;
        let start = v.as_ptr() as usize;
        let lo = start.next_multiple_of(HUGE);
        let hi = (start + len * 8) / HUGE * HUGE;
        if hi > lo {
            // SAFETY: [lo, hi) lies inside memory owned by `v`; MADV_HUGEPAGE only
            // changes how the kernel backs it. Failure is harmless and ignored.
            unsafe {
                libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_HUGEPAGE);
            }
        }
    }
    v
}

impl VisitedSet {
    /// An empty set for states of `words` 64-bit words.
    pub fn new(words: usize) -> VisitedSet {
        let cap = 1 << 12;
        let words = words.max(1);
        VisitedSet {
            words,
            table: zeroed_table(cap * words),
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
        let p = self.table[pos * self.words..].as_ptr();
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is a hint; `p` points into the table.
        #[allow(unused_unsafe)]
        unsafe {
            std::arch::x86_64::_mm_prefetch(p as *const i8, std::arch::x86_64::_MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = p;
    }

    /// `insert` with the key's `hash_words` already computed.
    #[inline]
    pub fn insert_hashed(&mut self, key: &[u64], hash: u64) -> bool {
        debug_assert_eq!(key.len(), self.words);
        if key.iter().all(|&w| w == 0) {
            let new = !self.has_zero;
            self.has_zero = true;
            self.len += new as usize;
            return new;
        }
        if (self.len + 1) * 10 > self.cap * 7 {
            self.grow();
        }
        let w = self.words;
        let mask = self.cap - 1;
        let mut pos = (hash as usize) & mask;
        loop {
            let e = &mut self.table[pos * w..pos * w + w];
            if same(e, key) {
                return false;
            }
            if e.iter().all(|&x| x == 0) {
                e.copy_from_slice(key);
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
        let mask = cap - 1;
        let mut table = zeroed_table(cap * w);
        for e in self.table.chunks_exact(w) {
            if e.iter().all(|&x| x == 0) {
                continue;
            }
            let mut pos = (hash_words(e) as usize) & mask;
            while table[pos * w..pos * w + w].iter().any(|&x| x != 0) {
                pos = (pos + 1) & mask;
            }
            table[pos * w..pos * w + w].copy_from_slice(e);
        }
        self.table = table;
        self.cap = cap;
    }

    /// Bytes held by the table.
    pub fn memory_bytes(&self) -> usize {
        self.table.len() * 8
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
}
