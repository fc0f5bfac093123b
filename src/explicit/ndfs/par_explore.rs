//! The first phase of the parallel fair-cycle search (`par`): the quotient product
//! explored breadth-first on a team of threads and stored as a graph (`par_graph`).
//! Each BFS level's frontier is shared out in chunks; a thread expands a chunk's nodes,
//! appending each recorded node with its stored out-edges to an arena of its own and
//! collecting every successor's key, then looks the chunk's successors up together:
//! sorted by partition, each partition locked once per chunk, its entries prefetched
//! before they are probed (one lock and overlapped cache misses per partition instead
//! of a lock and a miss per edge). New nodes take their numbers from blocks each thread
//! draws from a shared counter. The partitions, the team's barrier and the profile are
//! the kit's (`par`). (Level-synchronous parallel BFS as in Stern and Dill,
//! "Parallelizing the Murphi verifier", CAV 1997; the graph is then decomposed into
//! strongly connected components, `par_scc`.)
//!
//! The search walks canonical states: a node (canonical state, automaton state) is
//! expanded at its representative itself, so an edge u → v taken by a step of process
//! p to a real t with π_t(t) = rep(t) = v carries g_e = π_t⁻¹ (g_e(s_v) = t in the
//! terms of `scc`, with s_v = v). Its process and g_e are stored only under fairness,
//! g_e only under symmetry; each recorded node keeps the processes disabled at its
//! state.

use super::NdfsOptions;
use super::expand::{Expander, KeyLayout};
use super::par_graph::{Graph, MAX_NODES, NONE, flag, flag_id};
use crate::explicit::par::parts::{PARTS, Parts, by_part, part_of};
use crate::explicit::par::{prof, team};
use crate::explicit::store::{FlagTable, hash_words};
use crate::verdict::Limit;
use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, RwLock};
use std::time::Instant;

/// Frontier nodes a thread takes at a time (their successors are looked up together).
const CHUNK: usize = 128;
/// Node numbers a thread takes from the shared counter at a time.
const ID_BLOCK: u64 = 1024;
/// The arena position of an edge that is not stored.
const UNSTORED: usize = usize::MAX;

/// Why the exploration stopped early.
pub(super) enum Stopped {
    /// A range error or a store leaving the int window: the sequential search answers
    /// instead (its answer depends on which it meets first, a lasso or the error).
    Fault,
    /// A limit, with the nodes stored and the bytes held when it was hit.
    Limit(Limit, usize, usize),
}

/// The phases of a level (`par::prof`).
#[derive(Clone, Copy)]
enum Phase {
    /// Expanding a chunk of the frontier (parallel).
    Expand,
    /// Looking its successors up (parallel).
    Lookup,
    /// The leader alone: making the next frontier.
    Serial,
}

impl prof::Phase for Phase {
    const NAMES: &'static [&'static str] = &["expand", "lookup", "serial"];
    const SERIAL: Option<usize> = Some(Phase::Serial as usize);
    fn index(self) -> usize {
        self as usize
    }
}

/// What the threads share.
struct Shared<'g> {
    layout: KeyLayout,
    parts: &'g Parts<FlagTable>,
    /// The class of each automaton state (`par_graph::cycle_classes`).
    class: &'g [u32],
    /// Records `[node, key]`.
    frontier: RwLock<Vec<u64>>,
    cursor: AtomicUsize,
    next: Mutex<Vec<Vec<u64>>>,
    /// Node numbers handed out.
    ids: AtomicU64,
    /// Nodes stored.
    count: AtomicU64,
    edges: AtomicU64,
    stored_edges: AtomicU64,
    /// 0 running, 1 fault, 2 limit.
    halt: AtomicU8,
    limit: Mutex<Option<Limit>>,
    /// The threads' barrier and profile; told to quit by the leader between the
    /// barriers of the last level.
    team: team::Team<Phase>,
    threads: usize,
    /// Bytes of the threads' arenas (they only grow).
    arena_bytes: AtomicUsize,
    /// Bytes of this level's new frontier records, not yet handed over (reset by the
    /// leader when it makes them the next frontier).
    next_bytes: AtomicUsize,
    /// Words of a key and of a frontier record.
    kl: usize,
    fw: usize,
    fair: bool,
    perms: bool,
    all: u64,
}

const FAULT: u8 = 1;
const LIMIT: u8 = 2;

/// One thread's buffers.
struct Worker<'x, 'a> {
    x: &'x mut Expander<'a>,
    arena: Vec<u32>,
    /// This level's new frontier records.
    next: Vec<u64>,
    /// The chunk's successors: keys (`kl` words each), hashes, the node each was
    /// reached from, the arena position of its edge's target (`UNSTORED`).
    keys: Vec<u64>,
    hashes: Vec<u64>,
    from: Vec<u32>,
    slots: Vec<usize>,
    order: Vec<u32>,
    state: Vec<u64>,
    /// The thread's block of node numbers: next, end.
    ids: (u64, u64),
    edges: u64,
    stored: u64,
}

impl Shared<'_> {
    fn stop(&self, l: Limit) {
        self.limit.lock().unwrap().get_or_insert(l);
        self.halt.store(LIMIT, Ordering::Relaxed);
    }

    /// Expand the frontier node `rec`: its record and stored edges (targets left for
    /// `resolve`) onto the arena, its successors onto the chunk's lists.
    fn expand(&self, wk: &mut Worker, rec: &[u64]) -> bool {
        let id = rec[0];
        let Worker {
            x,
            arena,
            keys,
            hashes,
            from,
            slots,
            state,
            ..
        } = wk;
        let q = self.layout.split_into(&rec[1..], state) as usize;
        let class = self.class[q];
        let hdr = arena.len();
        if class != NONE {
            arena.extend_from_slice(&[id as u32, 0]);
            if self.fair {
                arena.extend_from_slice(&[0, 0]);
            }
        }
        let (mut edges, mut stored) = (0u32, 0u32);
        let kl = self.kl;
        let sym_key: &[u64] = if x.sym.is_some() { state } else { &[] };
        let r = x.expand(state, sym_key, q, self.perms, &mut |s| {
            let st = if s.key.is_empty() { s.words } else { s.key };
            let at = keys.len();
            keys.resize(at + kl, 0);
            self.layout.fill(st, s.q as u64, &mut keys[at..]);
            hashes.push(hash_words(&keys[at..]));
            from.push(id as u32);
            edges += 1;
            if class == NONE || self.class[s.q] != class {
                slots.push(UNSTORED);
                return;
            }
            stored += 1;
            slots.push(arena.len());
            arena.push(0);
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
        });
        let Ok(enabled) = r else {
            self.halt.store(FAULT, Ordering::Relaxed);
            return false;
        };
        if class != NONE {
            arena[hdr + 1] = stored << 1 | x.accepting(q) as u32;
            if self.fair {
                let dis = self.all & !enabled;
                arena[hdr + 2] = dis as u32;
                arena[hdr + 3] = (dis >> 32) as u32;
            }
        }
        wk.edges += edges as u64;
        wk.stored += stored as u64;
        true
    }

    /// Look the chunk's successors up (inserting and numbering the new ones, queued on
    /// the next frontier), partition by partition, and write the stored edges' targets.
    /// False when the node numbers run out.
    fn resolve(&self, wk: &mut Worker) -> bool {
        let kl = self.kl;
        let starts = by_part(&wk.hashes, &mut wk.order);
        let mut new = 0u64;
        let mut over = false;
        for p in 0..PARTS {
            let mine = &wk.order[starts[p]..starts[p + 1]];
            if mine.is_empty() {
                continue;
            }
            let mut t = self.parts.write(p);
            for &i in mine {
                t.prefetch(wk.hashes[i as usize]);
            }
            for &i in mine {
                let i = i as usize;
                let key = &wk.keys[i * kl..(i + 1) * kl];
                let pos = t.slot(key, wk.hashes[i]);
                let f = t.flags_mut(pos);
                let id = if f[0] == 0 {
                    if wk.ids.0 == wk.ids.1 {
                        let b = self.ids.fetch_add(ID_BLOCK, Ordering::Relaxed);
                        wk.ids = (b, b + ID_BLOCK);
                    }
                    let id = wk.ids.0;
                    wk.ids.0 += 1;
                    over |= id >= MAX_NODES;
                    f[0] = flag(id.min(MAX_NODES), wk.from[i]);
                    wk.next.push(id);
                    wk.next.extend_from_slice(key);
                    new += 1;
                    id
                } else {
                    flag_id(f[0]) as u64
                };
                if wk.slots[i] != UNSTORED {
                    wk.arena[wk.slots[i]] = id as u32;
                }
            }
        }
        self.count.fetch_add(new, Ordering::Relaxed);
        wk.keys.clear();
        wk.hashes.clear();
        wk.from.clear();
        wk.slots.clear();
        if over {
            self.stop(Limit::Memory);
        }
        !over
    }

    /// Thread `t`'s share of the search: every level, chunks of the frontier until it
    /// is exhausted, then the level's new nodes handed over; the leader of each barrier
    /// makes the next frontier and checks the limits.
    fn work(&self, t: usize, x: &mut Expander, watch: &Watch) -> Vec<u32> {
        let mut wk = Worker {
            x,
            arena: Vec::new(),
            next: Vec::new(),
            keys: Vec::new(),
            hashes: Vec::new(),
            from: Vec::new(),
            slots: Vec::new(),
            order: Vec::new(),
            state: Vec::new(),
            ids: (0, 0),
            edges: 0,
            stored: 0,
        };
        let (team, prof) = (&self.team, &self.team.prof);
        let mut expanded = 0u64;
        loop {
            self.level(t, &mut wk, watch, &mut expanded);
            self.next.lock().unwrap().push(std::mem::take(&mut wk.next));
            if team.meet(t) {
                let states = prof.time(t, Phase::Serial, || self.next_frontier(watch));
                prof.end_round(self.threads, states);
            }
            team.meet(t);
            if team.quitting() {
                self.edges.fetch_add(wk.edges, Ordering::Relaxed);
                self.stored_edges.fetch_add(wk.stored, Ordering::Relaxed);
                prof::line(|| {
                    format!(
                        "explore thread {t}: {expanded} nodes expanded, arena {:.1} MiB",
                        wk.arena.capacity() as f64 * 4.0 / (1 << 20) as f64
                    )
                });
                return wk.arena;
            }
        }
    }

    /// Thread `t`'s part of a level: chunks of the frontier, each expanded then looked
    /// up, until the frontier is exhausted or the search halts.
    fn level(&self, t: usize, wk: &mut Worker, watch: &Watch, expanded: &mut u64) {
        let prof = &self.team.prof;
        let frontier = self.frontier.read().unwrap();
        let len = frontier.len() / self.fw;
        loop {
            let from = self.cursor.fetch_add(CHUNK, Ordering::Relaxed);
            if from >= len || self.halt.load(Ordering::Relaxed) != 0 {
                return;
            }
            let before = (wk.arena.capacity(), wk.next.capacity());
            let chunk = from..(from + CHUNK).min(len);
            *expanded += chunk.len() as u64;
            let expand = |wk: &mut Worker| {
                chunk
                    .into_iter()
                    .all(|i| self.expand(wk, &frontier[i * self.fw..(i + 1) * self.fw]))
            };
            if !prof.time(t, Phase::Expand, || expand(wk))
                || !prof.time(t, Phase::Lookup, || self.resolve(wk))
            {
                return;
            }
            self.arena_bytes
                .fetch_add(4 * (wk.arena.capacity() - before.0), Ordering::Relaxed);
            self.next_bytes
                .fetch_add(8 * (wk.next.capacity() - before.1), Ordering::Relaxed);
            if let Some(l) = watch.limit(self.count.load(Ordering::Relaxed), self) {
                self.stop(l);
                return;
            }
        }
    }

    /// The leader, between the barriers: the level's new nodes made the next frontier,
    /// the limits checked, the team told to quit when no level follows. The number of
    /// nodes of the level just explored.
    fn next_frontier(&self, watch: &Watch) -> usize {
        let pieces = std::mem::take(&mut *self.next.lock().unwrap());
        let mut frontier = self.frontier.write().unwrap();
        let explored = frontier.len() / self.fw;
        frontier.clear();
        frontier.shrink_to(pieces.iter().map(Vec::len).sum());
        for p in pieces {
            frontier.extend_from_slice(&p);
        }
        self.cursor.store(0, Ordering::Relaxed);
        self.next_bytes.store(0, Ordering::Relaxed);
        watch.progress(self, frontier.len() / self.fw, frontier.capacity() * 8);
        // Decided here, between the barriers, so that every thread reads the same
        // answer (a fast thread may halt the next level before a slow one looks at
        // `halt`).
        if self.halt.load(Ordering::Relaxed) != 0 || frontier.is_empty() {
            self.team.quit();
        }
        explored
    }

    /// Bytes of the visited set's tables.
    fn table_bytes(&self) -> usize {
        self.parts.sum(FlagTable::memory_bytes)
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
    opts: &'o NdfsOptions,
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
                 frontier {frontier}, {:.0} states/s, tables {:.1} MiB",
                self.n,
                states as f64 / t.max(1e-9),
                bytes as f64 / (1 << 20) as f64,
            ));
        }
    }
}

/// How to explore: the initial nodes as frontier records `[node, key]`, made by the
/// caller with `seed`.
pub(super) struct Seeds {
    parts: Parts<FlagTable>,
    frontier: Vec<u64>,
    count: u64,
    layout: KeyLayout,
}

impl Seeds {
    pub(super) fn new(layout: KeyLayout) -> Seeds {
        Seeds {
            parts: Parts::new(|| FlagTable::new(layout.len(), 1)),
            frontier: Vec::new(),
            count: 0,
            layout,
        }
    }

    /// Initial nodes stored.
    pub(super) fn len(&self) -> usize {
        self.count as usize
    }

    /// Bytes held by the initial nodes (tables and frontier).
    pub(super) fn bytes(&mut self) -> usize {
        self.parts.sum_mut(FlagTable::memory_bytes) + self.frontier.capacity() * 8
    }

    /// Add the initial node (table state `state`, automaton state `q`) unless stored.
    pub(super) fn seed(&mut self, state: &[u64], q: u64) {
        let mut key = vec![0; self.layout.len()];
        self.layout.fill(state, q, &mut key);
        let h = hash_words(&key);
        let t = self.parts.get_mut(part_of(h));
        let pos = t.slot(&key, h);
        let f = t.flags_mut(pos);
        if f[0] == 0 {
            f[0] = flag(self.count, NONE);
            self.frontier.push(self.count);
            self.frontier.extend_from_slice(&key);
            self.count += 1;
        }
    }
}

/// Explore from `seeds` on `threads` threads, each with the expander `make_x` builds,
/// storing the edges between nodes of one automaton class (`class`, from
/// `par_graph::cycle_classes`).
#[allow(clippy::too_many_arguments)]
pub(super) fn explore<'a>(
    seeds: Seeds,
    class: &[u32],
    threads: usize,
    fair: bool,
    n: usize,
    opts: &NdfsOptions,
    start: Instant,
    make_x: &(dyn Fn() -> Expander<'a> + Sync),
) -> Result<Graph, Stopped> {
    let x0 = make_x();
    let perms = fair && x0.sym.is_some();
    drop(x0);
    let kl = seeds.layout.len();
    let s = Shared {
        layout: seeds.layout,
        parts: &seeds.parts,
        class,
        frontier: RwLock::new(seeds.frontier),
        cursor: AtomicUsize::new(0),
        next: Mutex::new(Vec::new()),
        ids: AtomicU64::new(seeds.count),
        count: AtomicU64::new(seeds.count),
        edges: AtomicU64::new(0),
        stored_edges: AtomicU64::new(0),
        halt: AtomicU8::new(0),
        limit: Mutex::new(None),
        team: team::Team::new(threads, "parallel SCC search", "levels"),
        threads,
        arena_bytes: AtomicUsize::new(0),
        next_bytes: AtomicUsize::new(0),
        kl,
        fw: 1 + kl,
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
        let (s, watch) = (&s, &watch);
        let hs: Vec<_> = (0..threads)
            .map(|t| {
                sc.spawn(move || {
                    let mut x = make_x();
                    s.work(t, &mut x, watch)
                })
            })
            .collect();
        hs.into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    s.team.prof.report(n);
    match s.halt.load(Ordering::Relaxed) {
        FAULT => return Err(Stopped::Fault),
        LIMIT => {
            let l = s
                .limit
                .lock()
                .unwrap()
                .expect("halt is LIMIT only once stop() recorded the limit");
            return Err(Stopped::Limit(
                l,
                s.count.load(Ordering::Relaxed) as usize,
                s.bytes(s.frontier.read().unwrap().capacity() * 8),
            ));
        }
        _ => {}
    }
    let counts = (
        s.ids.load(Ordering::Relaxed) as usize,
        s.count.load(Ordering::Relaxed) as usize,
        s.edges.load(Ordering::Relaxed),
        s.stored_edges.load(Ordering::Relaxed),
        watch.levels.load(Ordering::Relaxed),
    );
    drop(s);
    let parts = seeds.parts.into_inner();
    Ok(Graph::new(
        seeds.layout,
        n,
        fair,
        perms,
        parts,
        arenas,
        counts,
    ))
}
