//! Canonical keys of successors computed from their parent's, on the sorting path of
//! `Symmetry` (process permutations only, every process's sort key in one word).
//!
//! A successor differs from its parent only in the cells its transition wrote, so
//! only the sort keys of the processes owning those cells are computed again (all of
//! them when a pointer cell was written: its flags sit in two processes' keys), and the
//! image is packed as it is built, without an unpacked image and a second pass. The
//! words are exactly `Instance::pack` of `Symmetry::canonical_into`'s representative
//! (the unit test below compares them), so the store and the state counts do not see
//! the difference. This is the incremental half of the per-state work LTSmin and SPIN
//! avoid by keeping states in compiled form; here it removes most of the symmetric
//! search's canonicalisation cost.

use super::Symmetry;
use crate::model::instance::{Field, Instance};

/// What a cell is to the sort keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// In no process's key.
    Other,
    /// One of process p's own cells (0-based p).
    Own(u32),
    /// A process-valued cell not indexed by processes: the flag at this bit of every
    /// key says whether it points at that process.
    Pointer(u32),
}

/// One own cell of the process ranked r: its bits in the key (above the flags) and
/// where it goes in the packed image.
#[derive(Clone, Copy, Debug)]
struct RankCell {
    /// The cell's offset in the key, flags included.
    off: u32,
    mask: u64,
    word: u32,
    shift: u32,
}

/// A cell indexed by no process, and where it sits in the packed image.
#[derive(Clone, Copy, Debug)]
struct Shared {
    slot: u32,
    proc_valued: bool,
    field: Field,
}

/// What successors' keys are computed with, built once per search when the sorting
/// path with packed keys applies.
#[derive(Clone, Debug)]
pub struct Delta {
    roles: Vec<Role>,
    /// Per rank r (0-based), the own cells of the process ranked r, `cells` each.
    ranks: Vec<RankCell>,
    cells: usize,
    shared: Vec<Shared>,
}

/// One thread's buffers: the parent's keys and image, and the successor's order.
#[derive(Default)]
pub struct DeltaBuf {
    /// The parent's (key, process) pairs in canonical order, when every key fitted.
    parent: Vec<(u64, usize)>,
    parent_ok: bool,
    /// Per process: its place in `parent`.
    place: Vec<usize>,
    /// The own cells of the parent's image, packed (the shared cells zero).
    base: Vec<u64>,
    order: Vec<(u64, usize)>,
    /// The permutation with 0 first: `pi[p]` is the rank of process p (1-based), and
    /// `pi[0] = 0`.
    pi: Vec<i64>,
}

impl Symmetry {
    /// What successors' keys are computed with, when they can be computed from their
    /// parent's: process permutations alone, on the sorting path, with keys in a word.
    pub fn delta(&self, inst: &Instance) -> Option<Delta> {
        let applies = self.permutes_processes()
            && self.data.is_empty()
            && self.sortable
            && !self.own[0].is_empty();
        let key = self.key.as_ref().filter(|_| applies)?;
        let mut roles = vec![Role::Other; inst.slots.len()];
        for (p, own) in self.own.iter().enumerate() {
            for &s in own {
                roles[s] = Role::Own(p as u32);
            }
        }
        let np = self.pointers.len() as u32;
        for (i, &g) in self.pointers.iter().enumerate() {
            roles[g] = Role::Pointer(np - 1 - i as u32);
        }
        // `SortKey::of` shifts each cell in after the ones before it, then the flags.
        let mut offs = vec![0u32; key.cells.len()];
        let mut off = np;
        for (k, &(_, bits)) in key.cells.iter().enumerate().rev() {
            offs[k] = off;
            off += bits;
        }
        let mut ranks = Vec::new();
        for own in &self.own {
            for (k, &s) in own.iter().enumerate() {
                let f = inst.field(s);
                ranks.push(RankCell {
                    off: offs[k],
                    mask: f.mask(),
                    word: f.word(),
                    shift: f.shift(),
                });
            }
        }
        let shared = (0..inst.slots.len())
            .filter(|&s| !matches!(roles[s], Role::Own(_)))
            .map(|s| Shared {
                slot: s as u32,
                proc_valued: matches!(roles[s], Role::Pointer(_)),
                field: inst.field(s),
            })
            .collect();
        Some(Delta {
            roles,
            ranks,
            cells: key.cells.len(),
            shared,
        })
    }

    /// Remember the keys of the parent `st` (before its successors are given to
    /// `successor_key`).
    pub fn parent_keys(&self, d: &Delta, st: &[i64], words: usize, buf: &mut DeltaBuf) {
        let key = self
            .key
            .as_ref()
            .expect("delta applies only with packed keys");
        buf.parent.clear();
        buf.parent_ok = true;
        for p in 0..self.n {
            match key.of(st, &self.own[p], &self.pointers, p) {
                Some(k) => buf.parent.push((k, p)),
                None => {
                    buf.parent_ok = false;
                    return;
                }
            }
        }
        buf.parent[usize::from(self.fix_first)..].sort_unstable();
        buf.place.resize(self.n, 0);
        for (r, &(_, p)) in buf.parent.iter().enumerate() {
            buf.place[p] = r;
        }
        buf.base.clear();
        buf.base.resize(words, 0);
        for (&(k, _), cells) in buf.parent.iter().zip(d.ranks.chunks_exact(d.cells)) {
            put_rank(&mut buf.base, k, cells);
        }
    }

    /// The packed canonical key of `next`, a successor of the parent given to
    /// `parent_keys` that differs from it in the cells of `writes`, into `out`; false
    /// (and `out` unspecified) when a key does not fit, and the caller must take the
    /// general path.
    pub fn successor_key(
        &self,
        d: &Delta,
        (next, writes): (&[i64], &[(usize, i64)]),
        buf: &mut DeltaBuf,
        out: &mut [u64],
    ) -> bool {
        if !buf.parent_ok {
            return false;
        }
        let key = self
            .key
            .as_ref()
            .expect("delta applies only with packed keys");
        let DeltaBuf {
            parent,
            place,
            base,
            order,
            pi,
            ..
        } = buf;
        order.clear();
        order.extend_from_slice(parent);
        let mut last = u32::MAX;
        for &(s, _) in writes {
            match d.roles[s] {
                Role::Other => {}
                // A transition usually writes several cells of one process: its key
                // once.
                Role::Own(p) if p != last => {
                    last = p;
                    let p = p as usize;
                    match key.of(next, &self.own[p], &self.pointers, p) {
                        Some(k) => order[place[p]].0 = k,
                        None => return false,
                    }
                }
                Role::Own(_) => {}
                Role::Pointer(bit) => {
                    for (k, p) in order.iter_mut() {
                        let flag = u64::from(next[s] == *p as i64 + 1);
                        *k = (*k & !(1 << bit)) | (flag << bit);
                    }
                }
            }
        }
        let first = usize::from(self.fix_first);
        insertion_sort(&mut order[first..]);
        pi.clear();
        pi.resize(self.n + 1, 0);
        for (rank, &(_, p)) in order.iter().enumerate() {
            pi[p + 1] = rank as i64 + 1;
        }
        out.copy_from_slice(base);
        let ranks = d.ranks.chunks_exact(d.cells);
        for ((&(k, _), &(was, _)), cells) in order.iter().zip(parent.iter()).zip(ranks) {
            if k != was {
                clear_rank(out, cells);
                put_rank(out, k, cells);
            }
        }
        self.put_shared(d, pi, next, out);
        true
    }

    /// The shared cells of `st` into the image under π (their bits zero in `out`),
    /// process ids renamed.
    fn put_shared(&self, d: &Delta, pi: &[i64], st: &[i64], out: &mut [u64]) {
        let n = self.n as i64;
        for g in &d.shared {
            let v = st[g.slot as usize];
            let v = if g.proc_valued && v >= 1 && v <= n {
                pi[v as usize]
            } else {
                v
            };
            g.field.put(out, v);
        }
    }
}

/// Sort by key alone: ties are identical blocks with the same flags, so any order of
/// them gives the same image (as in `sort_canonical`). The parent's order with a few
/// keys changed is nearly sorted, which this takes in about n steps.
#[inline]
fn insertion_sort(order: &mut [(u64, usize)]) {
    for i in 1..order.len() {
        let x = order[i];
        let mut j = i;
        while j > 0 && order[j - 1].0 > x.0 {
            order[j] = order[j - 1];
            j -= 1;
        }
        order[j] = x;
    }
}

/// The own cells of the process ranked r, from its key, into packed words where their
/// bits are zero.
#[inline]
fn put_rank(out: &mut [u64], key: u64, cells: &[RankCell]) {
    for c in cells {
        // A cell of one value has mask 0 and may sit at offset 64.
        out[c.word as usize] |= (key.wrapping_shr(c.off) & c.mask) << c.shift;
    }
}

/// Zero the bits of the own cells of one rank.
#[inline]
fn clear_rank(out: &mut [u64], cells: &[RankCell]) {
    for c in cells {
        out[c.word as usize] &= !(c.mask << c.shift);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::load_str;
    use crate::model::canon::CanonBuf;

    /// A small generator of pseudo-random numbers (xorshift), for the test alone.
    fn next(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// Random states and random writes to them: the key built from the parent's keys
    /// is the packed general representative, word for word, with and without process 1
    /// fixed, for writes to own cells, pointers and shared cells.
    #[test]
    fn successor_keys_are_the_packed_representatives() {
        let m = load_str(
            "t.cub",
            "type st = I | T | C\nvar Ptr : proc\nvar Tog : bool\nvar Other : proc\n\
             array S[proc] : st\narray F[proc] : bool\n\
             init (z) { S[z] = I && F[z] = False }\nunsafe (a b) { S[a] = C && S[b] = C }",
        )
        .expect("the test model loads");
        let inst = Instance::new(&m, 5);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for fix in [false, true] {
            let mut sym = Symmetry::new(&inst);
            if fix {
                sym = sym.fixing_first();
            }
            let d = sym.delta(&inst).expect("the sorting path applies");
            let mut buf = DeltaBuf::default();
            let mut cbuf = CanonBuf::default();
            let random_value = |s: usize, seed: &mut u64| {
                let sl = &inst.slots[s];
                sl.lo + (next(seed) % (sl.hi - sl.lo + 1) as u64) as i64
            };
            for _ in 0..2000 {
                let parent: Vec<i64> = (0..inst.slots.len())
                    .map(|s| random_value(s, &mut seed))
                    .collect();
                sym.parent_keys(&d, &parent, inst.words, &mut buf);
                let mut child = parent.clone();
                let mut writes = Vec::new();
                for _ in 0..1 + next(&mut seed) % 3 {
                    let s = (next(&mut seed) % inst.slots.len() as u64) as usize;
                    let v = random_value(s, &mut seed);
                    child[s] = v;
                    writes.push((s, v));
                }
                let mut got = vec![0; inst.words];
                assert!(sym.successor_key(&d, (&child, &writes), &mut buf, &mut got));
                let mut canon = vec![0; inst.slots.len()];
                sym.canonical_into(&child, &mut canon, &mut cbuf);
                let mut want = vec![0; inst.words];
                inst.pack(&canon, &mut want);
                assert_eq!(got, want, "parent {parent:?}, writes {writes:?}");
            }
        }
    }
}
