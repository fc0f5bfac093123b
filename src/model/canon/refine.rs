//! Individualisation-refinement (as in graph canonisation: colour refinement, then
//! individualising the members of the first non-singleton cell one by one; B. D.
//! McKay, A. Piperno, "Practical graph isomorphism, II", J. Symb. Comput. 2014) for the
//! states whose processes cannot simply be sorted: process-valued cells indexed by
//! processes, or arrays over two process indices. The least image over the leaves is
//! the representative. Buffers are kept per thread, so that canonicalising allocates
//! only the colourings it branches on.

use super::Symmetry;
use crate::model::instance::State;

impl Symmetry {
    /// The least image of `st` over the leaves of the search below `colours`, with the
    /// permutation that gives it.
    pub(super) fn least_image(&self, st: &[i64], colours: Vec<u32>) -> (State, Vec<i64>) {
        let mut best: Option<(State, Vec<i64>)> = None;
        let mut buf = vec![0; st.len()];
        SCRATCH.with_borrow_mut(|scratch| self.search(st, colours, &mut best, &mut buf, scratch));
        best.expect("every search reaches a leaf")
    }

    /// Individualisation-refinement below the colouring `col` (its own copy, one per
    /// level of the search), keeping the least image in `best`.
    fn search(
        &self,
        st: &[i64],
        mut col: Vec<u32>,
        best: &mut Option<(State, Vec<i64>)>,
        buf: &mut [i64],
        scratch: &mut Scratch,
    ) {
        let n = self.n;
        self.refine(st, &mut col, scratch);
        // First (lowest-coloured) cell with more than one member.
        let counts = &mut scratch.counts;
        counts.clear();
        counts.resize(n, 0);
        for &c in &col {
            counts[c as usize] += 1;
        }
        let Some(c) = (0..n as u32).find(|&c| counts[c as usize] > 1) else {
            scratch.pi.clear();
            scratch.pi.extend(col.iter().map(|&c| c as i64 + 1));
            self.apply(&scratch.pi, st, buf);
            if best.as_ref().is_none_or(|(b, _)| buf[..] < b[..]) {
                *best = Some((buf.to_vec(), scratch.pi.clone()));
            }
            return;
        };
        let members: Vec<usize> = (0..n).filter(|&p| col[p] == c).collect();
        if self.interchangeable(st, &members, buf, &mut scratch.pi) {
            // Every order of the cell gives the same image: take the order of ids.
            for x in col.iter_mut().filter(|x| **x > c) {
                *x += members.len() as u32 - 1;
            }
            for (k, &p) in members.iter().enumerate() {
                col[p] = c + k as u32;
            }
            self.search(st, col, best, buf, scratch);
            return;
        }
        for &v in &members {
            let mut next = col.clone();
            for p in 0..n {
                if col[p] > c || (col[p] == c && p != v) {
                    next[p] += 1;
                }
            }
            self.search(st, next, best, buf, scratch);
        }
    }

    /// Whether swapping the first member with each other one leaves the state unchanged
    /// (then the whole symmetric group of the cell does).
    fn interchangeable(
        &self,
        st: &[i64],
        members: &[usize],
        buf: &mut [i64],
        pi: &mut Vec<i64>,
    ) -> bool {
        pi.clear();
        pi.extend(1..=self.n as i64);
        let a = members[0];
        for &b in &members[1..] {
            pi.swap(a, b);
            self.apply(pi, st, buf);
            pi.swap(a, b);
            if buf != st {
                return false;
            }
        }
        true
    }

    /// Refine an ordered colouring until stable. Colours are dense ranks; the new colour
    /// orders by (old colour, signature), so refinement only splits cells.
    fn refine(&self, st: &[i64], col: &mut [u32], scratch: &mut Scratch) {
        let n = self.n;
        let Scratch {
            sig,
            multiset,
            order,
            newcol,
            pointed,
            ..
        } = scratch;
        sig.clear();
        sig.resize(n, 0);
        newcol.clear();
        newcol.resize(n, 0);
        if pointed.len() < n {
            pointed.resize_with(n, Vec::new);
        }
        let mut distinct = count_distinct(col, order);
        loop {
            if distinct == n {
                return;
            }
            let val = |v: i64, me: usize, proc_valued: bool| -> u64 {
                if !proc_valued || v < 1 || v as usize > n {
                    v as u64
                } else if v as usize - 1 == me {
                    u64::MAX
                } else {
                    (1u64 << 40) + col[v as usize - 1] as u64
                }
            };
            for p in 0..n {
                let mut h = mix(0x51ED, col[p] as u64);
                for &s in &self.own[p] {
                    h = mix(h, val(st[s], p, self.moves[s].proc_valued));
                }
                for (k, &g) in self.pointers.iter().enumerate() {
                    if st[g] as usize == p + 1 {
                        h = mix(h, 0xA000 + k as u64);
                    }
                }
                for (k, pa) in self.pairs.iter().enumerate() {
                    multiset.clear();
                    for q in 0..n {
                        if q == p {
                            continue;
                        }
                        let out = val(st[pa.slot[p * n + q]], p, pa.proc_valued);
                        let inn = val(st[pa.slot[q * n + p]], p, pa.proc_valued);
                        multiset.push(mix(mix(mix(k as u64, col[q] as u64), out), inn));
                    }
                    multiset.sort_unstable();
                    h = mix(h, val(st[pa.slot[p * n + p]], p, pa.proc_valued));
                    for &x in multiset.iter() {
                        h = mix(h, x);
                    }
                }
                sig[p] = h;
            }
            if !self.sortable {
                self.mix_pointed(st, col, sig, pointed);
            }
            order.clear();
            order.extend(0..n);
            order.sort_by_key(|&p| (col[p], sig[p]));
            let mut rank = 0u32;
            for k in 0..n {
                if k > 0 {
                    let (a, b) = (order[k - 1], order[k]);
                    if (col[a], sig[a]) != (col[b], sig[b]) {
                        rank += 1;
                    }
                }
                newcol[order[k]] = rank;
            }
            let d = rank as usize + 1;
            col.copy_from_slice(newcol);
            if d == distinct {
                return;
            }
            distinct = d;
        }
    }

    /// Each process's signature mixed with the cells pointing at it from other
    /// processes' own cells, gathered in one pass over the cells (the multiset of
    /// (colour of q, cell) per target p).
    #[inline]
    fn mix_pointed(&self, st: &[i64], col: &[u32], sig: &mut [u64], pointed: &mut [Vec<u64>]) {
        let n = self.n;
        for b in pointed.iter_mut() {
            b.clear();
        }
        for (q, (own, &cq)) in self.own.iter().zip(col.iter()).enumerate() {
            for (k, &s) in own.iter().enumerate() {
                let v = st[s];
                if self.moves[s].proc_valued && v >= 1 && v as usize <= n {
                    let p = v as usize - 1;
                    if p != q {
                        pointed[p].push(mix(cq as u64, k as u64));
                    }
                }
            }
        }
        for (sp, b) in sig.iter_mut().zip(pointed.iter_mut()) {
            b.sort_unstable();
            for &x in b.iter() {
                *sp = mix(*sp, x);
            }
        }
    }
}

thread_local! {
    /// One search scratch per thread: the explicit engines canonicalise on several
    /// threads, and `canonical_procs` never re-enters itself.
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// Buffers of the individualisation-refinement search, reused across its levels and
/// across states so that canonicalising allocates only the colourings it branches on.
#[derive(Default)]
struct Scratch {
    sig: Vec<u64>,
    multiset: Vec<u64>,
    order: Vec<usize>,
    newcol: Vec<u32>,
    counts: Vec<u32>,
    pi: Vec<i64>,
    /// Per process, the (colour, cell) marks of the other processes' cells pointing at it.
    pointed: Vec<Vec<u64>>,
}

fn mix(h: u64, v: u64) -> u64 {
    (h ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29)
}

fn count_distinct(col: &[u32], scratch: &mut Vec<usize>) -> usize {
    scratch.clear();
    scratch.extend(col.iter().map(|&c| c as usize));
    scratch.sort_unstable();
    scratch.dedup();
    scratch.len()
}
