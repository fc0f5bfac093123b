//! The seeded pseudorandom generator of random runs (`simulate`) and of randomized unit
//! tests: one generator, so that a seed means the same sequence everywhere.

/// SplitMix64 (G. L. Steele, D. Lea and C. H. Flood, *Fast splittable pseudorandom
/// number generators*, OOPSLA 2014): a tiny, fast generator with a 64-bit state whose
/// every seed (0 included) gives a good sequence.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The generator seeded with `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when n is 0), by rejection, so exactly uniform.
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let n = n as u64;
        // The largest multiple of n that fits: values at or above it are redrawn.
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.next_u64();
            if x < zone {
                return (x % n) as usize;
            }
        }
    }

    /// Shuffle in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, xs: &mut [T]) {
        for k in (1..xs.len()).rev() {
            let j = self.below(k + 1);
            xs.swap(k, j);
        }
    }
}
