//! A fast hasher for the maps of the symbolic engines (structural hashing of gates,
//! atoms of the transition system, reached states, candidate views): keys there are
//! short runs of small integers, built by nfold itself, so the standard SipHash's
//! resistance to chosen keys buys nothing and its cost showed in profiles (3-4 % of
//! an every-n attempt on the Flash models). A multiply-and-rotate fold per word, the
//! scheme of rustc's FxHash, written here.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A hash map keyed by nfold's own small keys.
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<Fold>>;
/// A hash set of nfold's own small keys.
pub type FastSet<K> = HashSet<K, BuildHasherDefault<Fold>>;

/// The hasher: each word folded in by a rotate, xor and multiply by an odd constant
/// with well-spread bits (the golden ratio's).
#[derive(Clone, Copy, Default)]
pub struct Fold(u64);

const SEED: u64 = 0x9e37_79b9_7f4a_7c15;

impl Fold {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(SEED);
    }
}

impl Hasher for Fold {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().unwrap_or([0; 8])));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_i64(&mut self, i: i64) {
        self.add(i as u64);
    }
    #[inline]
    fn write_i32(&mut self, i: i32) {
        self.add(i as u32 as u64);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        // The high bits are the best mixed; hashbrown reads the top 7 for its tags.
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_hash_equal_and_near_keys_spread() {
        let mut m: FastMap<Vec<i64>, usize> = FastMap::default();
        for i in 0..1000i64 {
            m.insert(vec![i, i + 1, -i], i as usize);
        }
        for i in 0..1000i64 {
            assert_eq!(m.get(&vec![i, i + 1, -i]), Some(&(i as usize)));
        }
        // Keys differing in one small value land in different buckets mostly.
        let hash = |k: &[i64]| {
            let mut h = Fold::default();
            for &x in k {
                h.write_i64(x);
            }
            h.finish() >> 57
        };
        let tags: FastSet<u64> = (0..64).map(|i| hash(&[1, i])).collect();
        assert!(tags.len() > 32, "{} tags", tags.len());
    }
}
