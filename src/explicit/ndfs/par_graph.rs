//! The first phase of the parallel fair-cycle search (`par`): the quotient product
//! explored breadth-first on a team of threads and stored as a graph. The visited set is
//! cut into `PARTS` partitions by the top bits of each key's hash, each behind a lock
//! (the scheme of the parallel safety search, `reach::parts`, here with locks because
//! any thread may insert into any partition); each BFS level's frontier is shared out
//! in chunks, and every thread appends the nodes it expands, with their out-edges, to an
//! arena of its own. (Level-synchronous parallel BFS as in Stern and Dill,
//! "Parallelizing the Murphi verifier", CAV 1997; the graph is then decomposed into
//! strongly connected components, `par_scc`.)
//!
//! The search walks canonical states: a node (canonical state, automaton state) is
//! expanded at its representative itself, so an edge u → v taken by a step of process
//! p to a real t with π_t(t) = rep(t) = v carries g_e = π_t⁻¹ (g_e(s_v) = t in the
//! terms of `scc`, with s_v = v). Its process and g_e are stored only under fairness,
//! g_e only under symmetry; each node keeps the processes disabled at its state.
//!
//! An arena record of node u: `[u, parent, edges << 1 | accepting, (fair:) disabled
//! low, disabled high]`, then per edge `[target, (fair:) process byte then g_e(1..n)
//! as bytes, packed four to a word]`. The parent (the node that discovered u, `NONE`
//! for an initial node) lets `par_lasso` rebuild a stem.

use super::LiveOptions;
use super::expand::{Expander, KeyLayout};
use crate::explicit::store::{FlagTable, hash_words};
use crate::verdict::Limit;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Barrier, Mutex, RwLock};
use std::time::Instant;

/// Partitions of the visited set (a power of two).
pub(super) const PARTS: usize = 64;
const PART_BITS: u32 = PARTS.trailing_zeros();
/// Frontier nodes a thread takes at a time.
const CHUNK: usize = 64;
/// The parent of an initial node.
pub(super) const NONE: u32 = u32::MAX;
/// Node numbers stay below this (they are stored in 32 bits).
const MAX_NODES: u64 = (u32::MAX - 2) as u64;

/// The partition of a key's hash.
pub(super) fn part_of(hash: u64) -> usize {
    (hash >> (64 - PART_BITS)) as usize
}

/// The stored quotient product.
pub(super) struct Graph {
    pub(super) layout: KeyLayout,
    pub(super) n: usize,
    pub(super) fair: bool,
    /// Edges carry g_e (under symmetry and fairness).
    pub(super) perms: bool,
    /// Key -> node number + 1, per partition.
    pub(super) parts: Vec<FlagTable>,
    /// Each thread's records.
    pub(super) arenas: Vec<Vec<u32>>,
    /// Node -> thread << 56 | offset of its record (`build_index`).
    pub(super) index: Vec<u64>,
    /// Words of a record's header and of an edge.
    pub(super) hw: usize,
    pub(super) ew: usize,
    pub(super) nodes: usize,
    pub(super) edges: u64,
    pub(super) levels: usize,
    /// Bytes held at the end of the exploration (tables, arenas, index).
    pub(super) bytes: usize,
}

impl Graph {
    /// The record of node v: its arena and the header's offset.
    #[inline]
    pub(super) fn record(&self, v: u32) -> (&[u32], usize) {
        let i = self.index[v as usize];
        (
            &self.arenas[(i >> 56) as usize],
            (i & ((1 << 56) - 1)) as usize,
        )
    }

    /// Out-edges of node v.
    #[inline]
    pub(super) fn edge_count(&self, v: u32) -> usize {
        let (a, off) = self.record(v);
        (a[off + 2] >> 1) as usize
    }

    /// The target of the k-th out-edge of v.
    #[inline]
    pub(super) fn target(&self, v: u32, k: usize) -> u32 {
        let (a, off) = self.record(v);
        a[off + self.hw + k * self.ew]
    }

    /// The k-th out-edge of v as its words (target first).
    pub(super) fn edge(&self, v: u32, k: usize) -> &[u32] {
        let (a, off) = self.record(v);
        let at = off + self.hw + k * self.ew;
        &a[at..at + self.ew]
    }

    pub(super) fn accepting(&self, v: u32) -> bool {
        let (a, off) = self.record(v);
        a[off + 2] & 1 == 1
    }

    pub(super) fn parent(&self, v: u32) -> u32 {
        let (a, off) = self.record(v);
        a[off + 1]
    }

    /// Processes disabled at v's state (bit p - 1), under fairness.
    pub(super) fn disabled(&self, v: u32) -> u64 {
        let (a, off) = self.record(v);
        a[off + 3] as u64 | (a[off + 4] as u64) << 32
    }

    /// The node number of a key, if stored.
    pub(super) fn lookup(&self, key: &[u64]) -> Option<u32> {
        let h = hash_words(key);
        self.parts[part_of(h)]
            .get(key, h)
            .map(|f| (f[0] - 1) as u32)
    }

    /// Number every record: node -> (thread, offset).
    fn build_index(&mut self) {
        let mut index = vec![0u64; self.nodes];
        for (t, a) in self.arenas.iter().enumerate() {
            let mut off = 0;
            while off < a.len() {
                index[a[off] as usize] = (t as u64) << 56 | off as u64;
                off += self.hw + (a[off + 2] >> 1) as usize * self.ew;
            }
        }
        self.index = index;
    }
}

/// Why the exploration stopped early.
pub(super) enum Stopped {
    /// A range error or a store leaving the int window: the sequential search answers
    /// instead (its answer depends on which it meets first, a lasso or the error).
    Fault,
    /// A limit, with the nodes stored and the bytes held when it was hit.
    Limit(Limit, usize, usize),
}

/// What the threads share.
struct Shared<'g> {
    layout: KeyLayout,
    parts: &'g [Mutex<FlagTable>],
    frontier: RwLock<Vec<u64>>,
    cursor: AtomicUsize,
    next: Mutex<Vec<Vec<u64>>>,
    count: AtomicU64,
    edges: AtomicU64,
    /// 0 running, 1 fault, 2 limit.
    halt: AtomicU8,
    /// Another level follows (set by the leader between the barriers).
    more: AtomicBool,
    limit: Mutex<Option<Limit>>,
    barrier: Barrier,
    /// Bytes of the threads' arenas (they only grow).
    arena_bytes: AtomicUsize,
    /// Bytes of this level's new frontier records, not yet handed over (reset by the
    /// leader when it makes them the next frontier).
    next_bytes: AtomicUsize,
    /// Words of a frontier record: `[node, parent, state (w), q]`.
    fw: usize,
    w: usize,
    fair: bool,
    perms: bool,
    all: u64,
}

const FAULT: u8 = 1;
const LIMIT: u8 = 2;

impl Shared<'_> {
    fn stop(&self, l: Limit) {
        self.limit.lock().unwrap().get_or_insert(l);
        self.halt.store(LIMIT, Ordering::Relaxed);
    }

    /// The node number of a key, inserted (and numbered) when new: (node, new).
    fn insert(&self, key: &[u64]) -> (u64, bool) {
        let h = hash_words(key);
        let mut t = self.parts[part_of(h)].lock().unwrap();
        let pos = t.slot(key, h);
        let f = t.flags_mut(pos);
        if f[0] != 0 {
            return (f[0] - 1, false);
        }
        let id = self.count.fetch_add(1, Ordering::Relaxed);
        f[0] = id + 1;
        (id, true)
    }

    /// Expand one frontier record into `arena`, queueing new nodes on `next`.
    fn expand(
        &self,
        x: &mut Expander,
        rec: &[u64],
        key: &mut [u64],
        arena: &mut Vec<u32>,
        next: &mut Vec<u64>,
    ) -> bool {
        let (id, parent) = (rec[0], rec[1]);
        let words = &rec[2..2 + self.w];
        let q = rec[2 + self.w] as usize;
        let hdr = arena.len();
        arena.extend_from_slice(&[id as u32, parent as u32, 0]);
        if self.fair {
            arena.extend_from_slice(&[0, 0]);
        }
        let mut edges = 0u32;
        let mut over = false;
        let sym_key: &[u64] = if x.sym.is_some() { words } else { &[] };
        let r = x.expand(words, sym_key, q, self.perms, &mut |s| {
            let state = if s.key.is_empty() { s.words } else { s.key };
            self.layout.fill(state, s.q as u64, key);
            let (t, new) = self.insert(key);
            if t >= MAX_NODES {
                over = true;
            }
            if new {
                next.extend_from_slice(&[t, id]);
                next.extend_from_slice(&state[..self.w]);
                next.push(s.q as u64);
            }
            arena.push(t as u32);
            if self.fair {
                // At most 64 processes under fairness (`MAX_FAIR_PROCESSES`).
                let mut buf = [0u8; 68];
                buf[0] = s.process as u8;
                let mut len = 1;
                if self.perms {
                    // g_e = π_t⁻¹: g_e(π_t(i)) = i.
                    for (i, &img) in s.perm.iter().enumerate() {
                        buf[img as usize] = i as u8 + 1;
                    }
                    len += s.perm.len();
                }
                for c in buf[..len].chunks(4) {
                    let mut word = 0u32;
                    for (b, &v) in c.iter().enumerate() {
                        word |= (v as u32) << (8 * b);
                    }
                    arena.push(word);
                }
            }
            edges += 1;
        });
        match r {
            Err(_) => {
                self.halt.store(FAULT, Ordering::Relaxed);
                false
            }
            Ok(enabled) => {
                let acc = x.accepting(q) as u32;
                arena[hdr + 2] = edges << 1 | acc;
                if self.fair {
                    let dis = self.all & !enabled;
                    arena[hdr + 3] = dis as u32;
                    arena[hdr + 4] = (dis >> 32) as u32;
                }
                self.edges.fetch_add(edges as u64, Ordering::Relaxed);
                if over {
                    self.stop(Limit::Memory);
                }
                !over
            }
        }
    }

    /// One thread's share of the search: every level, chunks of the frontier until it
    /// is exhausted, then the level's new nodes handed over; the leader of each barrier
    /// makes the next frontier and checks the limits.
    fn work(&self, x: &mut Expander, watch: &Watch) -> Vec<u32> {
        let mut arena: Vec<u32> = Vec::new();
        let mut key = vec![0u64; self.layout.len()];
        loop {
            let mut next = Vec::new();
            {
                let frontier = self.frontier.read().unwrap();
                let len = frontier.len() / self.fw;
                'level: loop {
                    let from = self.cursor.fetch_add(CHUNK, Ordering::Relaxed);
                    if from >= len || self.halt.load(Ordering::Relaxed) != 0 {
                        break;
                    }
                    let before = (arena.capacity(), next.capacity());
                    for i in from..(from + CHUNK).min(len) {
                        let rec = &frontier[i * self.fw..(i + 1) * self.fw];
                        if !self.expand(x, rec, &mut key, &mut arena, &mut next) {
                            break 'level;
                        }
                    }
                    self.arena_bytes
                        .fetch_add(4 * (arena.capacity() - before.0), Ordering::Relaxed);
                    self.next_bytes
                        .fetch_add(8 * (next.capacity() - before.1), Ordering::Relaxed);
                    if let Some(l) = watch.limit(self.count.load(Ordering::Relaxed), self) {
                        self.stop(l);
                        break;
                    }
                }
            }
            self.next.lock().unwrap().push(next);
            if self.barrier.wait().is_leader() {
                let pieces = std::mem::take(&mut *self.next.lock().unwrap());
                let mut frontier = self.frontier.write().unwrap();
                frontier.clear();
                frontier.shrink_to(pieces.iter().map(Vec::len).sum());
                for p in pieces {
                    frontier.extend_from_slice(&p);
                }
                self.cursor.store(0, Ordering::Relaxed);
                self.next_bytes.store(0, Ordering::Relaxed);
                watch.progress(self, frontier.len() / self.fw, frontier.capacity() * 8);
                // Decided here, between the barriers, so that every thread reads the
                // same answer (a fast thread may halt the next level before a slow one
                // looks at `halt`).
                let more = self.halt.load(Ordering::Relaxed) == 0 && !frontier.is_empty();
                self.more.store(more, Ordering::Relaxed);
            }
            self.barrier.wait();
            if !self.more.load(Ordering::Relaxed) {
                return arena;
            }
        }
    }

    /// Bytes of the visited set's tables.
    fn table_bytes(&self) -> usize {
        self.parts
            .iter()
            .map(|p| p.lock().unwrap().memory_bytes())
            .sum()
    }

    /// Bytes held now: tables, arenas, this level's new records, and `frontier`.
    fn bytes(&self, frontier: usize) -> usize {
        self.table_bytes()
            + frontier
            + self.arena_bytes.load(Ordering::Relaxed)
            + self.next_bytes.load(Ordering::Relaxed)
    }
}

/// The limits and progress lines of the exploration.
struct Watch<'o> {
    opts: &'o LiveOptions,
    n: usize,
    start: Instant,
    last: Mutex<Instant>,
    levels: AtomicUsize,
    /// Bytes of the tables and the frontier at the last level's end (the arenas and
    /// the new records are counted as they grow).
    base: AtomicUsize,
}

impl Watch<'_> {
    fn limit(&self, states: u64, s: &Shared) -> Option<Limit> {
        let o = self.opts;
        if o.max_states.is_some_and(|m| states as usize >= m) {
            return Some(Limit::MaxStates);
        }
        if o.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Limit::Timeout);
        }
        if o.stop.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Some(Limit::Interrupted);
        }
        let bytes = self.base.load(Ordering::Relaxed)
            + s.arena_bytes.load(Ordering::Relaxed)
            + s.next_bytes.load(Ordering::Relaxed);
        if o.max_memory.is_some_and(|m| bytes > m) {
            return Some(Limit::Memory);
        }
        None
    }

    /// At a level's end (the leader; `frontier` records in `frontier_bytes`):
    /// measure, check the memory limit, print progress.
    fn progress(&self, s: &Shared, frontier: usize, frontier_bytes: usize) {
        let levels = self.levels.fetch_add(1, Ordering::Relaxed) + 1;
        let base = s.table_bytes() + frontier_bytes;
        self.base.store(base, Ordering::Relaxed);
        let bytes = s.bytes(frontier_bytes);
        if self.opts.max_memory.is_some_and(|m| bytes > m) {
            s.stop(Limit::Memory);
        }
        let mut last = self.last.lock().unwrap();
        if self.opts.progress && last.elapsed().as_secs_f64() >= 1.0 {
            *last = Instant::now();
            let t = self.start.elapsed().as_secs_f64();
            let states = s.count.load(Ordering::Relaxed);
            crate::progress::line(format!(
                "size {}: parallel SCC search, exploring: {states} states, level {levels}, \
                 frontier {frontier}, {:.0} states/s, {:.1} MiB, {t:.1}s",
                self.n,
                states as f64 / t.max(1e-9),
                bytes as f64 / (1 << 20) as f64,
            ));
        }
    }
}

/// How to explore: the initial nodes as frontier records `[node, NONE, state, q]`, made
/// by the caller with `seed`.
pub(super) struct Seeds {
    parts: Vec<Mutex<FlagTable>>,
    frontier: Vec<u64>,
    count: u64,
    layout: KeyLayout,
    w: usize,
}

impl Seeds {
    pub(super) fn new(layout: KeyLayout, w: usize) -> Seeds {
        Seeds {
            parts: (0..PARTS)
                .map(|_| Mutex::new(FlagTable::new(layout.len(), 1)))
                .collect(),
            frontier: Vec::new(),
            count: 0,
            layout,
            w,
        }
    }

    /// Initial nodes stored.
    pub(super) fn len(&self) -> usize {
        self.count as usize
    }

    /// Bytes held by the initial nodes (tables and frontier).
    pub(super) fn bytes(&mut self) -> usize {
        let tables: usize = self
            .parts
            .iter_mut()
            .map(|p| p.get_mut().unwrap().memory_bytes())
            .sum();
        tables + self.frontier.capacity() * 8
    }

    /// Add the initial node (table state `state`, automaton state `q`) unless stored.
    pub(super) fn seed(&mut self, state: &[u64], q: u64) {
        let mut key = vec![0; self.layout.len()];
        self.layout.fill(state, q, &mut key);
        let h = hash_words(&key);
        let t = self.parts[part_of(h)].get_mut().unwrap();
        let pos = t.slot(&key, h);
        let f = t.flags_mut(pos);
        if f[0] == 0 {
            f[0] = self.count + 1;
            self.frontier.extend_from_slice(&[self.count, NONE as u64]);
            self.frontier.extend_from_slice(&state[..self.w]);
            self.frontier.push(q);
            self.count += 1;
        }
    }
}

/// Explore from `seeds` on `threads` threads, each with the expander `make_x` builds.
pub(super) fn explore<'a>(
    seeds: Seeds,
    threads: usize,
    fair: bool,
    n: usize,
    opts: &LiveOptions,
    start: Instant,
    make_x: &(dyn Fn() -> Expander<'a> + Sync),
) -> Result<Graph, Stopped> {
    let x0 = make_x();
    let (w, perms) = (seeds.w, fair && x0.sym.is_some());
    drop(x0);
    let s = Shared {
        layout: seeds.layout,
        parts: &seeds.parts,
        frontier: RwLock::new(seeds.frontier),
        cursor: AtomicUsize::new(0),
        next: Mutex::new(Vec::new()),
        count: AtomicU64::new(seeds.count),
        edges: AtomicU64::new(0),
        halt: AtomicU8::new(0),
        more: AtomicBool::new(true),
        limit: Mutex::new(None),
        barrier: Barrier::new(threads),
        arena_bytes: AtomicUsize::new(0),
        next_bytes: AtomicUsize::new(0),
        fw: w + 3,
        w,
        fair,
        perms,
        all: if n >= 64 { u64::MAX } else { (1 << n) - 1 },
    };
    let watch = Watch {
        opts,
        n,
        start,
        last: Mutex::new(Instant::now()),
        levels: AtomicUsize::new(0),
        base: AtomicUsize::new(0),
    };
    let arenas: Vec<Vec<u32>> = std::thread::scope(|sc| {
        let hs: Vec<_> = (0..threads)
            .map(|_| {
                sc.spawn(|| {
                    let mut x = make_x();
                    s.work(&mut x, &watch)
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    match s.halt.load(Ordering::Relaxed) {
        FAULT => return Err(Stopped::Fault),
        LIMIT => {
            let l = s.limit.lock().unwrap().unwrap();
            return Err(Stopped::Limit(
                l,
                s.count.load(Ordering::Relaxed) as usize,
                s.bytes(s.frontier.read().unwrap().capacity() * 8),
            ));
        }
        _ => {}
    }
    let hw = if fair { 5 } else { 3 };
    let ew = 1 + if fair {
        (1 + if perms { n } else { 0 }).div_ceil(4)
    } else {
        0
    };
    let nodes = s.count.load(Ordering::Relaxed) as usize;
    let edges = s.edges.load(Ordering::Relaxed);
    let levels = watch.levels.load(Ordering::Relaxed);
    drop(s);
    let parts: Vec<FlagTable> = seeds
        .parts
        .into_iter()
        .map(|p| p.into_inner().unwrap())
        .collect();
    let mut g = Graph {
        layout: seeds.layout,
        n,
        fair,
        perms,
        parts,
        arenas,
        index: Vec::new(),
        hw,
        ew,
        nodes,
        edges,
        levels,
        bytes: 0,
    };
    g.build_index();
    g.bytes = g.parts.iter().map(FlagTable::memory_bytes).sum::<usize>()
        + g.arenas.iter().map(|a| a.capacity() * 4).sum::<usize>()
        + g.index.capacity() * 8;
    Ok(g)
}
