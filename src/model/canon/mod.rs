//! The permutation action on states and canonical representatives of orbits.
//!
//! A permutation π of process ids acts on a state by moving every cell indexed by
//! processes (rows and columns of `[proc, proc]` arrays alike) and renaming every
//! process-valued cell. The representative of a state is the least image (in slot
//! order) over the permutations that order processes by an equivariant colouring:
//! - without process-valued cells or multi-process arrays, the colouring is the sort
//!   of the per-process blocks and ties are identical blocks, so sorting is exact;
//! - otherwise colour refinement (local values, which cells point at a process, rows
//!   and columns) splits processes, and remaining ties are individualised one by one
//!   (a tie whose members can be swapped without changing the state is broken in any
//!   order, as all orders give the same image).
//!
//! Both give a true canonical form: two states have the same representative exactly
//! when they lie in the same orbit, so the symmetric state count is the orbit count.
//!
//! **Data values.** The values of an abstract type whose values are interchangeable
//! (`model::data`: no constants, no order, no arithmetic, no array indexed by it) can
//! be permuted too; data and process permutations commute. With data groups the
//! representative is the least, over the relabellings σ that map the u values present
//! in the state onto 0..u-1 (all u! of them), of the process representative of σ(s):
//! for s' = τ(π(s)) the relabellings of s' are those of s composed with τ⁻¹, so the
//! candidates, and their least one, are the same; it stays a true canonical form.
//! Without process permutations the least relabelling is the one that numbers values
//! in order of first appearance in slot order, computed directly. A state with more
//! than `MAX_RELABELLINGS` relabellings gets a cheaper representative that is still a
//! member of its orbit chosen by a function of the state (sound, possibly less
//! reduction).

mod delta;
mod refine;

pub use delta::{Delta, DeltaBuf};

use super::instance::{Instance, State};
use super::ir::Ty;

/// How one slot moves under a permutation: `target = base + sum (pi(v) - 1) * stride`
/// over its process index positions `(stride, v)`.
#[derive(Clone, Debug)]
struct SlotMove {
    base: usize,
    procs: Vec<(usize, i64)>,
    proc_valued: bool,
}

/// A `SlotMove` with at most one process index, inline: `proc` is that index (0 for
/// none), so applying a permutation reads no second array.
#[derive(Clone, Copy, Debug)]
struct FlatMove {
    base: u32,
    stride: u32,
    proc: u32,
    proc_valued: bool,
}

impl FlatMove {
    fn of(m: &SlotMove) -> Option<FlatMove> {
        let (stride, proc) = match m.procs[..] {
            [] => (0, 0),
            [(stride, v)] if v >= 1 => (stride, u32::try_from(v).ok()?),
            _ => return None,
        };
        Some(FlatMove {
            base: u32::try_from(m.base).ok()?,
            stride: u32::try_from(stride).ok()?,
            proc,
            proc_valued: m.proc_valued,
        })
    }
}

/// Buffers reused across `Symmetry::canonical_into` calls.
#[derive(Default)]
pub struct CanonBuf {
    /// Per process: its sort key (`SortKey`, or 0) and its 0-based id.
    order: Vec<(u64, usize)>,
    pi: Vec<i64>,
    relabelled: Vec<i64>,
    candidate: Vec<i64>,
}

/// The cells holding values of one abstract type with interchangeable values.
#[derive(Clone, Debug)]
struct DataGroup {
    slots: Vec<usize>,
    /// Number of values (they are 0..values-1).
    values: usize,
}

/// Precomputed permutation structure of an instance.
#[derive(Clone, Debug)]
pub struct Symmetry {
    n: usize,
    moves: Vec<SlotMove>,
    /// Cells with exactly one process index: `own[p][k]` is the k-th cell of process p+1.
    own: Vec<Vec<usize>>,
    /// Cells with no process index holding a process id.
    pointers: Vec<usize>,
    /// `[proc, proc]` arrays (exactly two process indices): the slot of (p, q), 0-based.
    pairs: Vec<PairArray>,
    /// Whether sorting processes by (own block, pointers at it) is exact: no
    /// process-valued cell indexed by a process and no multi-process arrays.
    sortable: bool,
    /// Only permutations that fix process 1 are used (the stabiliser of process 1, for
    /// properties stated about process 1).
    fix_first: bool,
    /// Whether processes are permuted at all (off for a family that is not fully
    /// symmetric but has interchangeable data values).
    procs: bool,
    /// Abstract types whose values are permuted as well.
    data: Vec<DataGroup>,
    /// A process's sort key packed into one word, when it fits.
    key: Option<SortKey>,
    /// `moves` inline, when no cell has two process indices.
    flat: Option<Vec<FlatMove>>,
}

/// A process's sort key (its own cells in order, then whether each pointer points at
/// it) packed into one word, most significant first, each cell as its offset from the
/// lowest value of its type: words compare as the keys do, so sorting compares words.
#[derive(Clone, Debug)]
struct SortKey {
    /// Per own cell (`own[p][k]`): the lowest value and the bits it takes.
    cells: Vec<(i64, u32)>,
}

impl SortKey {
    /// The layout for these own cells and pointers, if the key fits in a word.
    fn new(inst: &Instance, own: &[Vec<usize>], pointers: usize) -> Option<SortKey> {
        let first = own.first()?;
        let cells: Vec<(i64, u32)> = first
            .iter()
            .map(|&s| {
                let sl = &inst.slots[s];
                let span = (sl.hi - sl.lo).max(0) as u64;
                (sl.lo, 64 - span.leading_zeros())
            })
            .collect();
        let bits: u32 = cells.iter().map(|c| c.1).sum::<u32>() + pointers as u32;
        let same_layout = own.iter().all(|o| {
            o.len() == cells.len()
                && o.iter()
                    .zip(&cells)
                    .all(|(&s, &(lo, _))| inst.slots[s].lo == lo)
        });
        (bits <= 64 && same_layout).then_some(SortKey { cells })
    }

    /// Process p's key in `st` (0-based p), or `None` if a cell is out of its range.
    #[inline]
    fn of(&self, st: &[i64], own: &[usize], pointers: &[usize], p: usize) -> Option<u64> {
        let mut key = 0u64;
        for (&s, &(lo, bits)) in own.iter().zip(&self.cells) {
            let v = st[s].wrapping_sub(lo) as u64;
            if bits < 64 && v >> bits != 0 {
                return None;
            }
            key = if bits == 64 { v } else { (key << bits) | v };
        }
        for &g in pointers {
            key = (key << 1) | (st[g] == p as i64 + 1) as u64;
        }
        Some(key)
    }
}

#[derive(Clone, Debug)]
struct PairArray {
    /// slot[p * n + q] for the cells with the other indices fixed.
    slot: Vec<usize>,
    proc_valued: bool,
}

impl Symmetry {
    pub fn new(inst: &Instance) -> Symmetry {
        let n = inst.n;
        let model = inst.model;
        let mut moves = Vec::with_capacity(inst.slots.len());
        let mut own = vec![Vec::new(); n];
        let mut pointers = Vec::new();
        let mut pairs = Vec::new();
        let mut sortable = true;
        for (vid, var) in model.vars.iter().enumerate() {
            let l = &inst.vars[vid];
            let proc_dims: Vec<usize> = (0..var.dims.len())
                .filter(|&d| var.dims[d] == Ty::Proc)
                .collect();
            let proc_valued = var.ty == Ty::Proc;
            if (proc_valued && !proc_dims.is_empty()) || proc_dims.len() > 1 {
                sortable = false;
            }
            // Group the cells of a two-process array by their other indices.
            let mut pair_groups: Vec<(Vec<i64>, PairArray)> = Vec::new();
            for c in 0..l.cells {
                let slot = l.base + c;
                let index = &inst.slots[slot].index;
                let mut base = l.base;
                let mut procs = Vec::new();
                for (d, &i) in index.iter().enumerate() {
                    let off = (i - l.dims[d].0) as usize * l.strides[d];
                    if var.dims[d] == Ty::Proc {
                        procs.push((l.strides[d], i));
                    } else {
                        base += off;
                    }
                }
                moves.push(SlotMove {
                    base,
                    procs,
                    proc_valued,
                });
                match proc_dims.len() {
                    0 if proc_valued => pointers.push(slot),
                    1 => own[(index[proc_dims[0]] - 1) as usize].push(slot),
                    2 => {
                        let rest: Vec<i64> = index
                            .iter()
                            .enumerate()
                            .filter(|(d, _)| !proc_dims.contains(d))
                            .map(|(_, &i)| i)
                            .collect();
                        let (p, q) = (index[proc_dims[0]] - 1, index[proc_dims[1]] - 1);
                        let g = match pair_groups.iter().position(|(r, _)| *r == rest) {
                            Some(g) => g,
                            None => {
                                pair_groups.push((
                                    rest,
                                    PairArray {
                                        slot: vec![0; n * n],
                                        proc_valued,
                                    },
                                ));
                                pair_groups.len() - 1
                            }
                        };
                        pair_groups[g].1.slot[p as usize * n + q as usize] = slot;
                    }
                    _ => {}
                }
            }
            pairs.extend(pair_groups.into_iter().map(|(_, p)| p));
        }
        let key = SortKey::new(inst, &own, pointers.len());
        let flat = moves.iter().map(FlatMove::of).collect();
        Symmetry {
            n,
            moves,
            own,
            pointers,
            pairs,
            sortable,
            fix_first: false,
            procs: true,
            data: Vec::new(),
            key,
            flat,
        }
    }

    /// The symmetry the breadth-first search reduces by, when `requested`: process
    /// permutations for a fully symmetric family with more than one process, and
    /// permutations of the values of every abstract type whose values are
    /// interchangeable. `None` when there is neither.
    pub fn for_search(inst: &Instance, requested: bool) -> Option<Symmetry> {
        let procs = requested && inst.inst_symmetric();
        let data = requested && inst.model.has_data_symmetry();
        if !procs && !data {
            return None;
        }
        let mut s = Symmetry::new(inst);
        s.procs = procs;
        if data {
            s = s.with_data(inst);
        }
        Some(s)
    }

    /// The same action, also permuting the values of every abstract type whose values
    /// are interchangeable (and number at least two).
    pub fn with_data(mut self, inst: &Instance) -> Symmetry {
        let model = inst.model;
        self.data.clear();
        for d in model
            .data_types
            .iter()
            .filter(|d| d.symmetric && d.values > 1)
        {
            let slots: Vec<usize> = (0..inst.slots.len())
                .filter(|&s| model.vars[inst.slots[s].var].ty == Ty::Enum(d.enum_id))
                .collect();
            if !slots.is_empty() {
                self.data.push(DataGroup {
                    slots,
                    values: d.values,
                });
            }
        }
        self
    }

    /// Whether process ids are permuted.
    pub fn permutes_processes(&self) -> bool {
        self.procs && self.n > 1
    }

    /// Whether data values are permuted.
    pub fn permutes_data(&self) -> bool {
        !self.data.is_empty()
    }

    /// Rename data values: `maps[g][v]` is the new value of value v of the g-th permuted
    /// abstract type (in the order of `model.data_types`, those with interchangeable
    /// values).
    pub fn relabel_data(&self, maps: &[Vec<i64>], st: &[i64], out: &mut [i64]) {
        out.copy_from_slice(st);
        for (g, map) in self.data.iter().zip(maps) {
            for &s in &g.slots {
                out[s] = map[st[s] as usize];
            }
        }
    }

    /// The same action, restricted to the permutations that fix process 1: states are
    /// identified only when some permutation fixing process 1 maps one to the other.
    pub fn fixing_first(mut self) -> Symmetry {
        self.fix_first = true;
        self
    }

    /// Whether only permutations fixing process 1 are used.
    pub fn fixes_first(&self) -> bool {
        self.fix_first
    }

    /// The image of a state under π, where `pi[p - 1]` is the new id of process p.
    pub fn apply(&self, pi: &[i64], st: &[i64], out: &mut [i64]) {
        if let Some(flat) = &self.flat {
            let n = self.n as i64;
            for (a, m) in flat.iter().enumerate() {
                let t = if m.proc == 0 {
                    m.base as usize
                } else {
                    m.base as usize + (pi[m.proc as usize - 1] - 1) as usize * m.stride as usize
                };
                let v = st[a];
                out[t] = if m.proc_valued && v >= 1 && v <= n {
                    pi[(v - 1) as usize]
                } else {
                    v
                };
            }
            return;
        }
        for (a, m) in self.moves.iter().enumerate() {
            let mut t = m.base;
            for &(stride, v) in &m.procs {
                t += (pi[(v - 1) as usize] - 1) as usize * stride;
            }
            let v = st[a];
            out[t] = if m.proc_valued && v >= 1 && v as usize <= self.n {
                pi[(v - 1) as usize]
            } else {
                v
            };
        }
    }

    /// The canonical representative of a state's orbit and the process permutation
    /// that maps the state to it (after the data values are relabelled, when they are
    /// permuted too).
    pub fn canonical(&self, st: &[i64]) -> (State, Vec<i64>) {
        if self.data.is_empty() {
            return self.canonical_procs(st);
        }
        if !self.permutes_processes() {
            let mut out = st.to_vec();
            self.first_appearance(st, &mut out);
            return (out, (1..=self.n as i64).collect());
        }
        if self.relabellings(st) > MAX_RELABELLINGS {
            return self.cheap_representative(st);
        }
        let mut best: Option<(State, Vec<i64>)> = None;
        let mut relabelled = st.to_vec();
        self.for_each_relabelling(st, &mut relabelled, &mut |r: &[i64]| {
            let (c, pi) = self.canonical_procs(r);
            if best.as_ref().is_none_or(|(b, _)| c < *b) {
                best = Some((c, pi));
            }
        });
        best.expect("the identity relabelling is always visited")
    }

    /// The number of relabellings `for_each_relabelling` tries on `st` (saturating).
    fn relabellings(&self, st: &[i64]) -> usize {
        let mut total = 1usize;
        let mut seen = Vec::new();
        for g in &self.data {
            seen.clear();
            seen.resize(g.values, false);
            let mut u = 0usize;
            for &s in &g.slots {
                let v = st[s] as usize;
                if !seen[v] {
                    seen[v] = true;
                    u += 1;
                    total = total.saturating_mul(u);
                }
            }
        }
        total
    }

    /// A representative for states with too many data values to try every
    /// relabelling: number the values by first appearance, take the process
    /// representative, number the values again. A member of the orbit chosen by a
    /// function of the state, so reducing by it stays sound, but two states of one orbit
    /// may get different ones (less reduction, never a wrong verdict).
    fn cheap_representative(&self, st: &[i64]) -> (State, Vec<i64>) {
        let mut a = st.to_vec();
        self.first_appearance(st, &mut a);
        let (b, pi) = self.canonical_procs(&a);
        let mut c = b.clone();
        self.first_appearance(&b, &mut c);
        (c, pi)
    }

    /// Number the values of every data group in order of first appearance (slot order):
    /// the least state over all relabellings.
    fn first_appearance(&self, st: &[i64], out: &mut [i64]) {
        out.copy_from_slice(st);
        let mut map = Vec::new();
        for g in &self.data {
            map.clear();
            map.resize(g.values, -1i64);
            let mut next = 0;
            for &s in &g.slots {
                let v = st[s] as usize;
                if map[v] < 0 {
                    map[v] = next;
                    next += 1;
                }
                out[s] = map[v];
            }
        }
    }

    /// Call `f` on every relabelling of `st` that maps the values present in each data
    /// group onto 0..u-1 (u! per group, every combination across groups), built in
    /// `buf`.
    fn for_each_relabelling(&self, st: &[i64], buf: &mut [i64], f: &mut dyn FnMut(&[i64])) {
        // Per group: the values present, and the current permutation of 0..u-1.
        let mut present: Vec<Vec<i64>> = Vec::with_capacity(self.data.len());
        for g in &self.data {
            let mut seen = vec![false; g.values];
            let mut vals = Vec::new();
            for &s in &g.slots {
                let v = st[s] as usize;
                if !seen[v] {
                    seen[v] = true;
                    vals.push(v as i64);
                }
            }
            present.push(vals);
        }
        let mut perms: Vec<Vec<i64>> = present
            .iter()
            .map(|p| (0..p.len() as i64).collect())
            .collect();
        let mut map: Vec<Vec<i64>> = self.data.iter().map(|g| vec![0; g.values]).collect();
        buf.copy_from_slice(st);
        loop {
            for (k, g) in self.data.iter().enumerate() {
                for (i, &v) in present[k].iter().enumerate() {
                    map[k][v as usize] = perms[k][i];
                }
                for &s in &g.slots {
                    buf[s] = map[k][st[s] as usize];
                }
            }
            f(buf);
            // Next combination: the last group's permutation fastest.
            let mut k = perms.len();
            loop {
                if k == 0 {
                    return;
                }
                k -= 1;
                if next_permutation(&mut perms[k]) {
                    break;
                }
                // It wrapped around to the identity; advance the group before it.
            }
        }
    }

    /// The canonical representative under process permutations alone.
    fn canonical_procs(&self, st: &[i64]) -> (State, Vec<i64>) {
        let n = self.n;
        if n <= 1 || !self.procs {
            return (st.to_vec(), (1..=n as i64).collect());
        }
        if self.sortable {
            let mut out = vec![0; st.len()];
            let mut pi = vec![0i64; n];
            let mut order = Vec::new();
            self.sort_canonical(st, &mut order, &mut pi, &mut out);
            return (out, pi);
        }
        // Process 1 alone in the first colour class keeps it fixed through refinement
        // and individualisation.
        let colours: Vec<u32> = (0..n).map(|p| u32::from(self.fix_first && p > 0)).collect();
        self.least_image(st, colours)
    }

    /// Only the representative.
    pub fn canonical_state(&self, st: &[i64]) -> State {
        self.canonical(st).0
    }

    /// The representative written into `out`, reusing `buf` between calls.
    pub fn canonical_into(&self, st: &[i64], out: &mut [i64], buf: &mut CanonBuf) {
        if !self.data.is_empty() {
            if !self.permutes_processes() {
                self.first_appearance(st, out);
            } else if self.sortable && self.relabellings(st) <= MAX_RELABELLINGS {
                let mut relabelled = std::mem::take(&mut buf.relabelled);
                let mut cand = std::mem::take(&mut buf.candidate);
                relabelled.resize(st.len(), 0);
                cand.resize(st.len(), 0);
                let mut first = true;
                self.for_each_relabelling(st, &mut relabelled, &mut |r: &[i64]| {
                    self.sort_canonical(r, &mut buf.order, &mut buf.pi, &mut cand);
                    if first || cand[..] < out[..] {
                        out.copy_from_slice(&cand);
                        first = false;
                    }
                });
                buf.relabelled = relabelled;
                buf.candidate = cand;
            } else {
                out.copy_from_slice(&self.canonical(st).0);
            }
        } else if self.permutes_processes() && self.sortable {
            self.sort_canonical(st, &mut buf.order, &mut buf.pi, out);
        } else {
            out.copy_from_slice(&self.canonical(st).0);
        }
    }

    /// The representative written into `out` and a process permutation mapping `st` to
    /// it into `pi` (`pi[p - 1]` is the new id of process p), reusing `buf`; as
    /// `canonical`, without allocating on the sorting path.
    pub fn canonical_perm_into(
        &self,
        st: &[i64],
        out: &mut [i64],
        pi: &mut Vec<i64>,
        buf: &mut CanonBuf,
    ) {
        if self.data.is_empty() && self.permutes_processes() && self.sortable {
            self.sort_canonical(st, &mut buf.order, pi, out);
        } else {
            let (c, p) = self.canonical(st);
            out.copy_from_slice(&c);
            pi.clear();
            pi.extend_from_slice(&p);
        }
    }

    /// On the sorting path (process permutations only, no process-valued cell indexed by
    /// a process, no multi-process array): a class per process, equal exactly when two
    /// processes have the same sort key (own cells, pointers at them), i.e. when
    /// swapping them leaves `st` unchanged. Classes are numbered 0.. in key order.
    /// `None` off that path.
    pub fn sort_classes(&self, st: &[i64]) -> Option<Vec<usize>> {
        if !self.sortable || self.fix_first || !self.procs || !self.data.is_empty() {
            return None;
        }
        let cmp = |a: usize, b: usize| {
            self.own[a]
                .iter()
                .map(|&s| st[s])
                .cmp(self.own[b].iter().map(|&s| st[s]))
                .then_with(|| {
                    let flags =
                        |p: usize| self.pointers.iter().map(move |&g| st[g] == p as i64 + 1);
                    flags(a).cmp(flags(b))
                })
        };
        let mut order: Vec<usize> = (0..self.n).collect();
        order.sort_by(|&a, &b| cmp(a, b));
        let mut class = vec![0usize; self.n];
        for w in 1..self.n {
            let (a, b) = (order[w - 1], order[w]);
            class[b] = class[a] + usize::from(cmp(a, b).is_ne());
        }
        Some(class)
    }

    /// On the sorting path: whether every process has the same sort key in a
    /// canonical representative `c` (then its orbit is `c` alone). Keys are sorted in
    /// `c`, so the first and the last process decide. `None` off that path.
    pub fn canonical_is_fixed(&self, c: &[i64]) -> Option<bool> {
        if !self.sortable || self.fix_first || !self.procs || !self.data.is_empty() {
            return None;
        }
        let (a, b) = (0, self.n - 1);
        let own = self.own[a]
            .iter()
            .map(|&s| c[s])
            .eq(self.own[b].iter().map(|&s| c[s]));
        let flags = |p: usize| self.pointers.iter().map(move |&g| c[g] == p as i64 + 1);
        Some(own && flags(a).eq(flags(b)))
    }

    /// Sort processes by their own cells, then by which pointer cells (process-valued
    /// cells not indexed by processes) point at them. Processes with equal keys have
    /// equal blocks and no pointer at them, so they are interchangeable: exact.
    fn sort_canonical(
        &self,
        st: &[i64],
        order: &mut Vec<(u64, usize)>,
        pi: &mut Vec<i64>,
        out: &mut [i64],
    ) {
        let n = self.n;
        let first = usize::from(self.fix_first);
        order.clear();
        let mut keyed = self.key.is_some();
        if let Some(k) = &self.key {
            for p in 0..n {
                match k.of(st, &self.own[p], &self.pointers, p) {
                    Some(key) => order.push((key, p)),
                    None => {
                        keyed = false;
                        break;
                    }
                }
            }
        }
        if keyed {
            // Ties are identical blocks (the sortable case), so any order of them gives
            // the same image.
            order[first..].sort_unstable();
        } else {
            order.clear();
            order.extend((0..n).map(|p| (0, p)));
            order[first..].sort_unstable_by(|&(_, a), &(_, b)| {
                let (ka, kb) = (&self.own[a], &self.own[b]);
                ka.iter()
                    .map(|&s| st[s])
                    .cmp(kb.iter().map(|&s| st[s]))
                    .then_with(|| {
                        let flags =
                            |p: usize| self.pointers.iter().map(move |&g| st[g] == p as i64 + 1);
                        flags(a).cmp(flags(b))
                    })
            });
        }
        pi.clear();
        pi.resize(n, 0);
        let mut identity = true;
        for (rank, &(_, p)) in order.iter().enumerate() {
            pi[p] = rank as i64 + 1;
            identity &= rank == p;
        }
        if identity {
            out.copy_from_slice(st);
        } else {
            self.apply(pi, st, out);
        }
    }
}

/// Beyond this many relabellings of a state's data values (6! = 720: six values of one
/// abstract type present at once, or e.g. 4! * 3! over two types), the representative is
/// no longer the exact orbit minimum (`Symmetry::cheap_representative`).
pub const MAX_RELABELLINGS: usize = 720;

/// Advance to the next permutation in lexicographic order; false (and back to the
/// first, ascending one) after the last.
pub(crate) fn next_permutation(p: &mut [i64]) -> bool {
    let n = p.len();
    if n < 2 {
        return false;
    }
    let mut i = n - 1;
    while i > 0 && p[i - 1] >= p[i] {
        i -= 1;
    }
    if i == 0 {
        p.reverse();
        return false;
    }
    let mut j = n - 1;
    while p[j] <= p[i - 1] {
        j -= 1;
    }
    p.swap(i - 1, j);
    p[i..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::{LoadOptions, load_str_with};
    use crate::model::ir::Model;

    #[test]
    fn permutations_in_lexicographic_order() {
        let mut p = vec![0, 1, 2];
        let mut all = vec![p.clone()];
        while next_permutation(&mut p) {
            all.push(p.clone());
        }
        assert_eq!(
            all,
            vec![
                vec![0, 1, 2],
                vec![0, 2, 1],
                vec![1, 0, 2],
                vec![1, 2, 0],
                vec![2, 0, 1],
                vec![2, 1, 0]
            ]
        );
        assert_eq!(p, vec![0, 1, 2], "back to the first after the last");
        assert!(!next_permutation(&mut [7]));
    }

    /// The model `text` with `values` values of every abstract type.
    fn with_data(text: &str, values: usize) -> Model {
        let opts = LoadOptions {
            data_values: Some(values),
            ..Default::default()
        };
        load_str_with("t.cub", text, &opts).expect("the test model loads")
    }

    /// Seven values of one type in one state: 7! relabellings is too many, so the
    /// cheaper representative is used; for states whose values are all distinct it is
    /// still one per orbit here (values numbered 0..6 in slot order, blocks sorted).
    #[test]
    fn many_values_take_the_cheap_representative() {
        let m = with_data(
            "type data\nvar X : data\narray D[proc] : data\ninit () { true }\nunsafe () { X = X }",
            7,
        );
        let inst = Instance::new(&m, 6);
        let sym = Symmetry::for_search(&inst, true).unwrap();
        let a = vec![6, 5, 4, 3, 2, 1, 0];
        let b = vec![3, 0, 6, 1, 5, 2, 4];
        assert!(sym.relabellings(&a) > MAX_RELABELLINGS);
        assert_eq!(sym.canonical_state(&a), vec![0, 1, 2, 3, 4, 5, 6]);
        assert_eq!(sym.canonical_state(&b), vec![0, 1, 2, 3, 4, 5, 6]);
        let mut out = vec![0; 7];
        sym.canonical_into(&b, &mut out, &mut CanonBuf::default());
        assert_eq!(out, vec![0, 1, 2, 3, 4, 5, 6]);
        // Fewer values present: the exact path. X = D[1] = D[2] and D[3..6] distinct
        // from them and from each other: X's value first (0), the others' blocks sorted.
        let c = vec![4, 4, 6, 4, 2, 1, 0];
        assert_eq!(sym.relabellings(&c), 120);
        assert_eq!(sym.canonical_state(&c), vec![0, 0, 0, 1, 2, 3, 4]);
        // Without process permutations: values numbered by first appearance.
        let m2 = with_data(
            "type data\nvar X : data\narray D[proc] : data\ninit () { true }\n\
             transition t (i) requires { i = #1 } { X := D[i]; }",
            4,
        );
        let inst = Instance::new(&m2, 3);
        let sym = Symmetry::for_search(&inst, true).unwrap();
        assert!(!sym.permutes_processes() && sym.permutes_data());
        assert_eq!(sym.canonical_state(&[3, 1, 3, 0]), vec![0, 1, 0, 2]);
        assert!(Symmetry::for_search(&inst, false).is_none());
    }
}
