//! The visited set of the explicit engine: packed states in a chunked arena (no
//! reallocation copies as it grows) and an open-addressing table of 64-bit entries,
//! each a hash tag (high 32 bits) and the state's index + 1 (low 32 bits).

const CHUNK_STATES: usize = 1 << 16;

/// A set of packed states, each numbered by insertion order.
pub struct StateStore {
    words: usize,
    chunks: Vec<Vec<u64>>,
    table: Vec<u64>,
    len: usize,
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

impl StateStore {
    /// An empty store for states of `words` 64-bit words.
    pub fn new(words: usize) -> StateStore {
        StateStore {
            words: words.max(1),
            chunks: Vec::new(),
            table: vec![0; 1 << 12],
            len: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The packed state number `i`.
    #[inline]
    pub fn get(&self, i: usize) -> &[u64] {
        let c = &self.chunks[i / CHUNK_STATES];
        let o = (i % CHUNK_STATES) * self.words;
        &c[o..o + self.words]
    }

    /// Insert a packed state: its number, and whether it is new.
    #[inline]
    pub fn insert(&mut self, key: &[u64]) -> (usize, bool) {
        debug_assert_eq!(key.len(), self.words);
        if (self.len + 1) * 10 > self.table.len() * 7 {
            self.grow();
        }
        let h = hash_words(key);
        let tag = h >> 32;
        let mask = self.table.len() - 1;
        let mut pos = (h as usize) & mask;
        loop {
            let e = self.table[pos];
            if e == 0 {
                let idx = self.len;
                self.push(key);
                self.table[pos] = (tag << 32) | (idx as u64 + 1);
                return (idx, true);
            }
            if e >> 32 == tag {
                let idx = (e & 0xFFFF_FFFF) as usize - 1;
                if self.get(idx) == key {
                    return (idx, false);
                }
            }
            pos = (pos + 1) & mask;
        }
    }

    /// Whether a packed state is present.
    pub fn contains(&self, key: &[u64]) -> bool {
        let h = hash_words(key);
        let tag = h >> 32;
        let mask = self.table.len() - 1;
        let mut pos = (h as usize) & mask;
        loop {
            let e = self.table[pos];
            if e == 0 {
                return false;
            }
            if e >> 32 == tag && self.get((e & 0xFFFF_FFFF) as usize - 1) == key {
                return true;
            }
            pos = (pos + 1) & mask;
        }
    }

    fn push(&mut self, key: &[u64]) {
        if self.len.is_multiple_of(CHUNK_STATES) {
            self.chunks
                .push(Vec::with_capacity(CHUNK_STATES * self.words));
        }
        self.chunks.last_mut().unwrap().extend_from_slice(key);
        self.len += 1;
    }

    fn grow(&mut self) {
        let cap = self.table.len() * 2;
        let mut table = vec![0u64; cap];
        let mask = cap - 1;
        for i in 0..self.len {
            let h = hash_words(self.get(i));
            let mut pos = (h as usize) & mask;
            while table[pos] != 0 {
                pos = (pos + 1) & mask;
            }
            table[pos] = ((h >> 32) << 32) | (i as u64 + 1);
        }
        self.table = table;
    }

    /// Bytes held by the arena and the table.
    pub fn memory_bytes(&self) -> usize {
        self.chunks.len() * CHUNK_STATES * self.words * 8 + self.table.len() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_and_find() {
        let mut s = StateStore::new(2);
        for i in 0..200_000u64 {
            assert_eq!(s.insert(&[i, i * 7]), (i as usize, true));
        }
        for i in 0..200_000u64 {
            assert_eq!(s.insert(&[i, i * 7]), (i as usize, false));
            assert!(s.contains(&[i, i * 7]));
        }
        assert!(!s.contains(&[1, 1]));
        assert_eq!(s.len(), 200_000);
        assert_eq!(s.get(123_456), &[123_456, 123_456 * 7]);
    }
}
