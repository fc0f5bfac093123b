//! The partitioned store of the parallel searches: a visited set cut into `PARTS`
//! partitions by the top bits of each key's hash (`part_of`), each partition behind a
//! lock of its own and alone on its cache lines (two threads locking neighbouring
//! partitions would otherwise contend for one line). The number is fixed, so that
//! every thread count stores the same states in the same tables. What a partition holds
//! is the search's own: the safety search's stores and the new states of its block
//! (`reach::parts`), the fair-cycle exploration's flag tables (`ndfs::par_graph`).
//!
//! The work is divided in one of two ways: by owners, where during a phase partition
//! `p` belongs to thread `owner_of(p, owners)` alone and sits at `place_of(p, owners)`
//! among the partitions that thread holds (`Parts::owned`; the safety search), or by
//! batches of lookups sorted by partition (`by_part`), each partition locked once per
//! batch (the fair-cycle exploration). The distributed search's workers share no
//! memory: each stores the keys `peer_of` gives it.

use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

/// The number of partitions (a power of two).
pub(in crate::explicit) const PARTS: usize = 64;
/// The bits of a hash that choose its partition.
pub(in crate::explicit) const PART_BITS: u32 = PARTS.trailing_zeros();

/// The partition of a key's hash: its top `PART_BITS` bits (the tables index by the
/// low ones).
#[inline]
pub(in crate::explicit) fn part_of(hash: u64) -> usize {
    (hash >> (64 - PART_BITS)) as usize
}

/// The thread that owns partition `p` during a phase shared out among `owners`.
#[inline]
pub(in crate::explicit) fn owner_of(p: usize, owners: usize) -> usize {
    p % owners
}

/// The place of partition `p` among those its owner holds (`Parts::owned`).
#[inline]
pub(in crate::explicit) fn place_of(p: usize, owners: usize) -> usize {
    p / owners
}

/// The worker of `peers` that stores a key of hash `hash` in the distributed search:
/// from bits 40 and up, away from the low bits its table indexes by.
#[cfg_attr(not(feature = "distributed"), allow(dead_code))]
#[inline]
pub(in crate::explicit) fn peer_of(hash: u64, peers: usize) -> usize {
    ((hash >> 40) % peers as u64) as usize
}

/// Order the indices of `hashes` by partition (in index order within one) into
/// `order`; the start of each partition's run in it, the last entry its length.
pub(in crate::explicit) fn by_part(hashes: &[u64], order: &mut Vec<u32>) -> [usize; PARTS + 1] {
    let mut starts = [0usize; PARTS + 1];
    for &h in hashes {
        starts[part_of(h) + 1] += 1;
    }
    for p in 0..PARTS {
        starts[p + 1] += starts[p];
    }
    let mut fill = starts;
    order.resize(hashes.len(), 0);
    for (i, &h) in hashes.iter().enumerate() {
        let p = part_of(h);
        order[fill[p]] = i as u32;
        fill[p] += 1;
    }
    starts
}

/// A partition, alone on its cache lines.
#[repr(align(128))]
struct Cell<T>(RwLock<T>);

/// The `PARTS` partitions of a store.
pub(in crate::explicit) struct Parts<T> {
    cells: Vec<Cell<T>>,
}

impl<T> Parts<T> {
    /// Every partition as `make` makes it.
    pub fn new(mut make: impl FnMut() -> T) -> Parts<T> {
        Parts {
            cells: (0..PARTS).map(|_| Cell(RwLock::new(make()))).collect(),
        }
    }

    /// Partition `p`, to read.
    #[inline]
    pub fn read(&self, p: usize) -> RwLockReadGuard<'_, T> {
        self.cells[p].0.read().unwrap()
    }

    /// Partition `p`, to change.
    #[inline]
    pub fn write(&self, p: usize) -> RwLockWriteGuard<'_, T> {
        self.cells[p].0.write().unwrap()
    }

    /// Partition `p`, while no thread shares the store.
    #[inline]
    pub fn get_mut(&mut self, p: usize) -> &mut T {
        self.cells[p].0.get_mut().unwrap()
    }

    /// Every partition, to read, in order.
    pub fn read_all(&self) -> Vec<RwLockReadGuard<'_, T>> {
        (0..PARTS).map(|p| self.read(p)).collect()
    }

    /// The partitions owner `t` of `owners` holds, to change: `p` at `place_of(p,
    /// owners)`.
    pub fn owned(&self, t: usize, owners: usize) -> Vec<RwLockWriteGuard<'_, T>> {
        (t..PARTS).step_by(owners).map(|p| self.write(p)).collect()
    }

    /// The sum of `f` over the partitions (read one at a time).
    pub fn sum(&self, f: impl Fn(&T) -> usize) -> usize {
        (0..PARTS).map(|p| f(&self.read(p))).sum()
    }

    /// The sum of `f` over the partitions, while no thread shares the store.
    pub fn sum_mut(&mut self, f: impl Fn(&T) -> usize) -> usize {
        self.cells
            .iter_mut()
            .map(|c| f(c.0.get_mut().unwrap()))
            .sum()
    }

    /// The partitions, in order.
    pub fn into_inner(self) -> Vec<T> {
        self.cells
            .into_iter()
            .map(|c| c.0.into_inner().unwrap())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_of_hashes() {
        assert_eq!(part_of(u64::MAX), PARTS - 1);
        assert_eq!(part_of(0), 0);
        for owners in 1..=5 {
            let mut seen = vec![Vec::new(); owners];
            for p in 0..PARTS {
                seen[owner_of(p, owners)].push(p);
            }
            for (t, mine) in seen.iter().enumerate() {
                let expect: Vec<usize> = (t..PARTS).step_by(owners).collect();
                assert_eq!(mine, &expect);
                for (i, &p) in mine.iter().enumerate() {
                    assert_eq!(place_of(p, owners), i);
                }
            }
        }
    }

    #[test]
    fn sorted_by_partition_in_index_order() {
        let h = |p: u64, low: u64| p << (64 - PART_BITS) | low;
        let hashes = [h(3, 1), h(0, 2), h(3, 0), h(63, 5), h(0, 9)];
        let mut order = Vec::new();
        let starts = by_part(&hashes, &mut order);
        assert_eq!(order, vec![1, 4, 0, 2, 3]);
        assert_eq!((starts[0], starts[1], starts[3], starts[4]), (0, 2, 2, 4));
        assert_eq!((starts[63], starts[64]), (4, 5));
    }

    #[test]
    fn owners_hold_their_partitions() {
        let parts = Parts::new(|| 0usize);
        for (p, mut g) in parts.owned(1, 3).into_iter().enumerate() {
            *g = 1 + 3 * p;
        }
        assert_eq!(parts.read(1).clone(), 1);
        assert_eq!(parts.read(4).clone(), 4);
        assert_eq!(parts.read(2).clone(), 0);
        assert_eq!(parts.sum(|&x| x), (1..PARTS).step_by(3).sum::<usize>());
        assert_eq!(parts.into_inner().len(), PARTS);
    }
}
