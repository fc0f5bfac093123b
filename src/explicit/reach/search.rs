//! The breadth-first search of one size, block-synchronous on a team of threads: the
//! queue is cut into blocks of consecutive states of one BFS level (up to `BLOCK`), each
//! thread a contiguous share of the block (a source). A block goes through four
//! phases, with the team's barrier (`par::team::Team`) between them:
//! 1. expand: each source fires every transition on its states and sends each
//!    successor to the owner of the partition of the visited set its hash selects
//!    (`expand::expand`; the partitions, the barrier and the profile are the kit's,
//!    `par`);
//! 2. insert: each thread inserts what was sent to its partitions, source by source in
//!    order, so the first copy of a state stored is the sequential search's first
//!    (`outbox::insert`), and checks the properties on the new states;
//! 3. number: each source numbers its new states in the order it generated them
//!    (`outbox::number`), the leader's straight into its records, the others' into
//!    their outboxes' buffers;
//! 4. the leader alone appends those buffers in source order (a copy of the block's
//!    new states), which is the sequential numbering, takes in what was found, and
//!    prepares the next block.
//!
//! So the states stored, their numbers, their parents and every violation reported are
//! the same at every thread count, and BFS order keeps every counterexample a shortest
//! one. Blocks of fewer than `PARALLEL_FROM` states (small levels) are run by the
//! leader alone, and with one thread every block is: it needs none of the phases'
//! messages and inserts each successor as it comes (`Alone`), in the same order.
//! `NFOLD_SEARCH_PROFILE=1` prints where the time goes (`par::prof`). (The level-synchronous
//! scheme of distributed BFS, e.g. Stern and Dill, "Parallelizing the Murphi verifier",
//! CAV 1997, with ranks making the outcome independent of timing.)

use super::ReachOptions;
use super::expand::{self, Ahead, Block, Ctx, Dest, Finder, From, Tally, Work};
use super::outbox::{self, BIG_CHOICE, Outbox, Sink};
use super::parts::{Part, PartFind, Store, Stores, omission};
use crate::explicit::par::parts::{PARTS, Parts, part_of};
use crate::explicit::par::{prof, team};
use crate::model::init::for_each_initial;
use crate::model::instance::State;
use crate::verdict::Limit;
use std::collections::{HashMap, VecDeque};
use std::sync::RwLock;
use std::sync::atomic::Ordering;
use std::time::Instant;

pub(super) use super::expand::{Found, Kind};

pub(super) const NO_PARENT: u32 = u32::MAX;
/// States per block (at most; a block never crosses a level).
const BLOCK: usize = 4096;
/// Blocks of fewer states are expanded by one thread alone.
const PARALLEL_FROM: usize = 64;

/// The phases of a block (`par::prof`).
#[derive(Clone, Copy)]
enum Phase {
    /// Firing the transitions of the thread's share of the block (parallel).
    Expand,
    /// Inserting into the thread's partitions (parallel).
    Insert,
    /// Numbering the new states of the thread's share (parallel).
    Number,
    /// The leader alone: preparing the block, taking in its results.
    Serial,
}

impl prof::Phase for Phase {
    const NAMES: &'static [&'static str] = &["expand", "insert", "number", "serial"];
    const SERIAL: Option<usize> = Some(Phase::Serial as usize);
    fn index(self) -> usize {
        self as usize
    }
}

/// What the threads of a search synchronize on.
type Team = team::Team<Phase>;

/// A search: what the threads share, and the records the merge keeps.
pub(super) struct Search<'a> {
    pub ctx: Ctx<'a>,
    pub parts: Parts<Part>,
    outs: Vec<RwLock<Outbox>>,
    block: RwLock<Block>,
    pub rec: Records,
    threads: usize,
}

/// The numbered states and what was found, kept by the leading thread.
pub(super) struct Records {
    /// States stored so far; states are numbered in BFS order.
    pub count: usize,
    pub parent: Vec<u32>,
    /// `transition instance << 8 | choice` that produced each state (0 for roots).
    via: Vec<u32>,
    big_choice: HashMap<u32, u32>,
    /// Real packed states waiting to be expanded, in number order.
    fifo: VecDeque<u64>,
    /// Real packed initial states; roots are the states numbered 0..roots.
    pub roots: Vec<u64>,
    pub unsafe_found: Vec<Option<Found>>,
    pub range_found: Option<Found>,
    /// The shallowest store leaving the int window.
    pub int_found: Option<Found>,
    pub deadlock_found: Option<Found>,
    /// An increment ranking cannot follow exactly: the search stops (`model::ints::ranked`).
    pub rank_error: Option<String>,
    pub transitions: u64,
    /// Per compiled transition instance: whether it fired (or met a range error) in an
    /// expanded state.
    pub fired: Vec<bool>,
    /// The number of the first state stored in the current block.
    block_first: usize,
}

/// How the loop over the queue ended.
pub(super) struct Explored {
    pub limit: Option<Limit>,
    /// The deepest BFS level reached.
    pub depth: usize,
    /// Every state stored was expanded (every reachable one, with the exact store).
    pub complete: bool,
    pub initial_states: usize,
    /// The probability that a state was missed (hash compaction, bitstate).
    pub omission: f64,
}

impl Records {
    fn new(props: usize, trans: usize) -> Records {
        Records {
            count: 0,
            parent: Vec::new(),
            via: Vec::new(),
            big_choice: HashMap::new(),
            fifo: VecDeque::new(),
            roots: Vec::new(),
            unsafe_found: vec![None; props],
            range_found: None,
            int_found: None,
            deadlock_found: None,
            rank_error: None,
            transitions: 0,
            fired: vec![false; trans],
            block_first: 0,
        }
    }

    /// Number a new state.
    fn number(&mut self, parent: u32, k: u32, c: u32) -> usize {
        let idx = self.count;
        self.count += 1;
        self.parent.push(parent);
        if c >= BIG_CHOICE {
            self.big_choice.insert(idx as u32, c);
        }
        self.via.push((k << 8) | c.min(BIG_CHOICE));
        idx
    }

    pub fn range(&mut self, f: Found) {
        if self.range_found.as_ref().is_none_or(|r| f.depth < r.depth) {
            self.range_found = Some(f);
        }
    }

    fn int_bound(&mut self, f: Found) {
        if self.int_found.as_ref().is_none_or(|r| f.depth < r.depth) {
            self.int_found = Some(f);
        }
    }

    /// The transition instance and choice that produced state `i`.
    pub fn step_of(&self, i: usize) -> (usize, usize) {
        let v = self.via[i];
        let c = v & 0xFF;
        let c = if c == BIG_CHOICE {
            self.big_choice[&(i as u32)]
        } else {
            c
        };
        ((v >> 8) as usize, c as usize)
    }

    /// Done when every requested property is violated, the last one at depth D, and
    /// range errors are decided up to D (`reach::all_done`).
    fn all_done(&self, ctx: &Ctx, depth: usize) -> bool {
        let depth_of = |f: &Option<Found>| f.as_ref().map(|f| f.depth);
        let unsafes = self.unsafe_found.iter().map(depth_of);
        let deadlock = ctx.deadlock.then(|| depth_of(&self.deadlock_found));
        let ints = ctx.inst.model.int_window.is_some();
        let int = ints.then(|| depth_of(&self.int_found));
        let last = super::deepest(unsafes, deadlock);
        super::all_done(last, depth, depth_of(&self.range_found), int)
    }

    /// Take in the range errors and deadlocks a source met expanding a block's states
    /// (depth d), in BFS order: the first one wins unless one is known shallower.
    fn take_tally(&mut self, t: &mut Tally) {
        self.transitions += t.transitions;
        for (f, g) in self.fired.iter_mut().zip(&t.fired) {
            *f |= *g;
        }
        if let Some(r) = t.range.take() {
            self.range(r);
        }
        if let Some(r) = t.int.take() {
            self.int_bound(r);
        }
        if self.deadlock_found.is_none() {
            self.deadlock_found = t.deadlock.take();
        }
        if self.rank_error.is_none() {
            self.rank_error = t.rank.take();
        }
    }

    /// Take in what the sources of a block found and numbered: append the new states
    /// numbered by the helping threads (source 0's are in already, `Sink`), in source
    /// order, which is the sequential order; then the violations, first in BFS order.
    fn take_in(&mut self, ctx: &Ctx, parts: &Parts<Part>, outs: &[RwLock<Outbox>], blk: &Block) {
        let parts = parts.read_all();
        let mut outs: Vec<_> = outs[..blk.sources()]
            .iter()
            .map(|o| o.write().unwrap())
            .collect();
        // The number of each source's first new state.
        let mut base = vec![self.block_first; outs.len()];
        for (s, o) in outs.iter_mut().enumerate().skip(1) {
            base[s] = self.count;
            let f = &o.fresh;
            self.parent.extend_from_slice(&f.parent);
            self.via.extend_from_slice(&f.via);
            self.fifo.extend(&f.words);
            for &(j, c) in &f.big {
                self.big_choice.insert((self.count + j as usize) as u32, c);
            }
            self.count += f.parent.len();
        }
        for o in outs.iter_mut() {
            self.take_tally(&mut o.tally);
        }
        // Violations met on the new states (depth d + 1): the first in BFS order.
        let node = |(s, seq): (usize, usize)| {
            base[s] + outs[s].new_at[seq].load(Ordering::Relaxed) as usize
        };
        let mut first_unsafe: Vec<Option<(usize, usize)>> = vec![None; ctx.props.len()];
        let mut first_range: Option<(usize, usize)> = None;
        for part in &parts {
            for f in &part.finds {
                match *f {
                    PartFind::Unsafe { k, at, tuple } => {
                        let idx = node(at);
                        if first_unsafe[k].is_none_or(|(j, _)| idx < j) {
                            first_unsafe[k] = Some((idx, tuple));
                        }
                    }
                    PartFind::Range { at, prop } => {
                        let idx = node(at);
                        if first_range.is_none_or(|(j, _)| idx < j) {
                            first_range = Some((idx, prop));
                        }
                    }
                }
            }
        }
        let depth = blk.depth + 1;
        for (k, f) in first_unsafe.into_iter().enumerate() {
            if let (None, Some((node, tuple))) = (&self.unsafe_found[k], f) {
                self.unsafe_found[k] = Some(Found {
                    depth,
                    node,
                    kind: Kind::Unsafe {
                        prop: ctx.props[k],
                        tuple,
                    },
                });
            }
        }
        if let Some((node, prop)) = first_range {
            self.range(Found {
                depth,
                node,
                kind: Kind::RangeProp { prop },
            });
        }
    }
}

/// The leader numbers its own source's new states straight into the records.
impl Sink for Records {
    #[inline]
    fn push(&mut self, parent: u32, k: u32, c: u32, words: &[u64]) -> usize {
        let idx = self.number(parent, k, c);
        for &x in words {
            self.fifo.push_back(x);
        }
        idx - self.block_first
    }
}

/// The findings on a new state, numbered `idx` at `depth`, straight into the records
/// (the first one in BFS order, as states are numbered).
struct AtNode<'r> {
    rec: &'r mut Records,
    props: &'r [usize],
    idx: usize,
    depth: usize,
}

impl Finder for AtNode<'_> {
    fn unsafe_known(&self, k: usize) -> bool {
        self.rec.unsafe_found[k].is_some()
    }

    fn range_known(&self) -> bool {
        self.rec.range_found.is_some()
    }

    fn unsafe_hit(&mut self, k: usize, tuple: usize) {
        self.rec.unsafe_found[k] = Some(Found {
            depth: self.depth,
            node: self.idx,
            kind: Kind::Unsafe {
                prop: self.props[k],
                tuple,
            },
        });
    }

    fn range_hit(&mut self, prop: usize) {
        self.rec.range(Found {
            depth: self.depth,
            node: self.idx,
            kind: Kind::RangeProp { prop },
        });
    }
}

/// A thread alone: each successor inserted straight into its partition, in the order
/// generated (a few successors later, `Ahead`), numbered when new and its properties
/// checked at once. The order is the one the phases give (one source, every partition
/// its own), so the states, their numbers and what is found are the same, without the
/// outbox of the whole block, the second pass over it, or the copies of the new states.
struct Alone<'r> {
    rec: &'r mut Records,
    parts: Vec<&'r mut Part>,
    tally: &'r mut Tally,
    ahead: Ahead,
    /// The depth of the new states.
    depth: usize,
    /// A new state unpacked.
    st: State,
}

impl Alone<'_> {
    /// Insert the oldest successor of the ring, if any; number it and check the
    /// properties on it when new. False when the ring was empty.
    #[inline]
    fn insert_oldest(&mut self, ctx: &Ctx) -> bool {
        let Some((q, real, key, sig)) = self.ahead.take() else {
            return false;
        };
        if !self.parts[part_of(q.hash)].store.insert(key, q.hash, sig) {
            return true;
        }
        let idx = self.rec.number(q.parent, q.k, q.c);
        // Word by word: `extend` from a slice costs more for a few words.
        for &x in real {
            self.rec.fifo.push_back(x);
        }
        ctx.inst.unpack(real, &mut self.st);
        let (rec, props, depth) = (&mut *self.rec, &ctx.props, self.depth);
        expand::eval_props(
            ctx,
            &self.st,
            &mut AtNode {
                rec,
                props,
                idx,
                depth,
            },
        );
        true
    }
}

impl Dest for Alone<'_> {
    fn begin(&mut self, _: &Block) {
        self.tally.clear();
    }

    #[inline]
    fn send(&mut self, ctx: &Ctx, from: &From, words: &[u64], hashed: (&[u64], u64, u64)) {
        self.tally.transitions += 1;
        if self.ahead.full() {
            self.insert_oldest(ctx);
        }
        let (_, hash, sig) = hashed;
        self.parts[part_of(hash)].store.prefetch(hash, sig);
        self.ahead.put(from, words, hashed);
    }

    fn tally(&mut self) -> &mut Tally {
        self.tally
    }

    fn end(&mut self, ctx: &Ctx) {
        while self.insert_oldest(ctx) {}
    }
}

impl<'a> Search<'a> {
    /// An empty search on `threads` threads (at least one).
    pub fn new(ctx: Ctx<'a>, threads: usize) -> Search<'a> {
        let threads = threads.max(1);
        let (inst, trans) = (ctx.inst, ctx.compiled.trans.len());
        Search {
            parts: {
                let mut stores = Stores::new(ctx.kind, inst);
                Parts::new(|| Part::new(stores.make(), ctx.props.len()))
            },
            outs: (0..threads)
                .map(|_| RwLock::new(Outbox::new(threads, trans)))
                .collect(),
            block: RwLock::new(Block::default()),
            rec: Records::new(ctx.props.len(), trans),
            threads,
            ctx,
        }
    }

    /// Store the initial states: how many there are, and the limit that cut their
    /// enumeration short (nothing after it may claim completeness).
    fn initial_states(&mut self, opts: &ReachOptions) -> (usize, Option<Limit>) {
        let (ctx, parts, rec) = (&self.ctx, &mut self.parts, &mut self.rec);
        let inst = ctx.inst;
        let mut work = Work::new(inst);
        let mut words = vec![0u64; inst.words];
        let mut init_count = 0usize;
        let mut init_cut = None;
        let init_res = for_each_initial(inst, &mut |st| {
            init_count += 1;
            inst.pack(st, &mut words);
            let (key, hash, sig) = ctx.hashes(st, &words, &mut work.keys);
            let part = parts.get_mut(part_of(hash));
            if part.store.insert(key, hash, sig) {
                let idx = rec.number(NO_PARENT, 0, 0);
                rec.fifo.extend(&words);
                rec.roots.extend(&words);
                let (props, depth) = (&ctx.props, 0);
                expand::eval_props(
                    ctx,
                    st,
                    &mut AtNode {
                        rec,
                        props,
                        idx,
                        depth,
                    },
                );
            }
            // Initial states can be many (cells `init` leaves free): limits apply here too.
            if init_count.is_multiple_of(1024) {
                if opts.deadline.is_some_and(|d| Instant::now() >= d) {
                    init_cut = Some(Limit::Timeout);
                } else if opts
                    .stop
                    .as_ref()
                    .is_some_and(|f| f.load(Ordering::Relaxed))
                {
                    init_cut = Some(Limit::Interrupted);
                }
            }
            opts.max_states.is_none_or(|m| rec.count < m) && init_cut.is_none()
        });
        if let Err(e) = init_res {
            rec.range(Found {
                depth: 0,
                node: usize::MAX,
                kind: Kind::RangeInit { state: e.state },
            });
        }
        (init_count, init_cut)
    }

    /// Bytes held by the visited set, the parent records, the queue and the buffers.
    pub fn bytes(&self) -> usize {
        bytes(&self.parts, &self.outs, &self.rec)
    }

    /// Bytes held by the visited set alone (every partition; a tree store's node tables
    /// once).
    pub fn store_bytes(&self) -> usize {
        self.parts.sum(|p| p.store.memory_bytes())
    }

    /// Call `f` on every stored key (exact and tree stores), partition by partition,
    /// until it returns false.
    pub fn for_each_key(&self, mut f: impl FnMut(&[u64]) -> bool) {
        let mut go = true;
        let mut key = vec![0; self.ctx.inst.words];
        for p in 0..PARTS {
            match &self.parts.read(p).store {
                Store::Exact(t) => t.for_each(|k| {
                    go = f(k);
                    go
                }),
                Store::Tree { roots, nodes, .. } => {
                    let nodes = nodes.lock().unwrap();
                    roots.for_each(|r| {
                        nodes.expand(r[0], &mut key);
                        go = f(&key);
                        go
                    });
                }
                _ => {}
            }
            if !go {
                return;
            }
        }
    }

    /// The states stored per partition.
    fn stored(&self) -> Vec<usize> {
        (0..PARTS).map(|p| self.parts.read(p).store.len()).collect()
    }

    /// Store the initial states, then expand states in BFS order, block by block,
    /// until every state is expanded, every property is decided, or a limit of `opts`
    /// is reached.
    pub fn explore(&mut self, opts: &ReachOptions, start: Instant) -> Explored {
        let (init_count, init_cut) = self.initial_states(opts);
        let mut limit = init_cut;
        if opts.max_states.is_some_and(|m| self.rec.count >= m) && init_count > self.rec.count {
            limit = Some(Limit::MaxStates);
        }
        let team = Team::new(self.threads, "search", "blocks");
        let mut cursor = 0usize;
        let mut depth = 0usize;
        let mut level_end = self.rec.count;
        let mut last_progress = Instant::now();
        let threads = self.threads;
        let Search {
            ctx,
            parts,
            outs,
            block,
            rec,
            ..
        } = self;
        let (ctx, parts, outs, block) = (&*ctx, &*parts, &*outs, &*block);
        std::thread::scope(|scope| {
            let mut spawned = false;
            let mut work = Work::new(ctx.inst);
            while limit.is_none() && rec.rank_error.is_none() && !rec.all_done(ctx, depth) {
                if cursor >= rec.count {
                    break;
                }
                if cursor == level_end {
                    depth += 1;
                    level_end = rec.count;
                    if rec.all_done(ctx, depth) {
                        break;
                    }
                }
                let room = opts
                    .max_states
                    .map_or(BLOCK, |m| m.saturating_sub(rec.count).clamp(1, BLOCK));
                let end = level_end.min(cursor + room);
                let parallel = threads > 1 && end - cursor >= PARALLEL_FROM;
                if parallel && !spawned {
                    spawned = true;
                    let team = &team;
                    for t in 1..threads {
                        scope.spawn(move || worker(t, ctx, parts, outs, block, team));
                    }
                }
                let sources = if parallel { threads } else { 1 };
                let shared = Shared {
                    ctx,
                    parts,
                    outs,
                    block,
                    team: &team,
                };
                let span = Span {
                    from: cursor,
                    to: end,
                    depth,
                    sources,
                };
                shared.run_block(rec, span, &mut work);
                cursor = end;
                limit = block_limit(opts, parts, outs, rec, cursor);
                if opts.progress && last_progress.elapsed().as_secs_f64() >= 1.0 {
                    last_progress = Instant::now();
                    let t = start.elapsed().as_secs_f64();
                    crate::progress::line(format!(
                        "size {}: depth {depth}, {} states, {} expanded, {:.0} states/s",
                        ctx.inst.n,
                        rec.count,
                        cursor,
                        rec.count as f64 / t
                    ));
                }
            }
            if spawned {
                team.quit();
                team.meet(0);
            }
        });
        team.prof.report(self.ctx.inst.n);
        Explored {
            complete: limit.is_none() && self.rec.rank_error.is_none() && cursor >= self.rec.count,
            limit,
            depth,
            initial_states: init_count,
            omission: omission(self.ctx.kind, &self.stored()),
        }
    }
}

/// The states `from..to` of a block, all at `depth`, expanded by `sources` threads.
#[derive(Clone, Copy)]
struct Span {
    from: usize,
    to: usize,
    depth: usize,
    sources: usize,
}

/// What the leading thread shares with the team during a search.
struct Shared<'s, 'a> {
    ctx: &'s Ctx<'a>,
    parts: &'s Parts<Part>,
    outs: &'s [RwLock<Outbox>],
    block: &'s RwLock<Block>,
    team: &'s Team,
}

impl Shared<'_, '_> {
    /// Expand the states of `span` on its sources (the other threads wait at the team's
    /// barrier), insert their successors and number the new ones; the leader alone
    /// inserts each successor as it comes (`Alone`).
    fn run_block(&self, rec: &mut Records, span: Span, work: &mut Work) {
        let prof = &self.team.prof;
        prof.time(0, Phase::Serial, || self.prepare(rec, span));
        if span.sources > 1 {
            self.run_phases(rec, span.sources, work);
        } else {
            prof.time(0, Phase::Expand, || self.run_alone(rec, span.depth, work));
        }
        prof.end_round(span.sources, span.to - span.from);
    }

    /// Move the states of `span` from the queue into the block the threads share.
    fn prepare(&self, rec: &mut Records, span: Span) {
        let Span {
            from,
            to,
            depth,
            sources,
        } = span;
        let mut blk = self.block.write().unwrap();
        let w = self.ctx.inst.words;
        let n = to - from;
        blk.base = from;
        blk.depth = depth;
        blk.words.clear();
        blk.words.extend(rec.fifo.drain(..n * w));
        blk.cuts.clear();
        blk.cuts.extend((0..=sources).map(|t| n * t / sources));
        blk.unsafe_known.clear();
        blk.unsafe_known
            .extend(rec.unsafe_found.iter().map(|f| f.is_some()));
        blk.range_known = rec.range_found.is_some();
    }

    /// The leader alone expands the block (of states at `depth`) into the store.
    fn run_alone(&self, rec: &mut Records, depth: usize, work: &mut Work) {
        let blk = self.block.read().unwrap();
        let mut out = self.outs[0].write().unwrap();
        let mut guards = self.parts.owned(0, 1);
        let mut alone = Alone {
            rec: &mut *rec,
            parts: guards.iter_mut().map(|g| &mut **g).collect(),
            tally: &mut out.tally,
            ahead: Ahead::new(self.ctx),
            depth: depth + 1,
            st: vec![0; self.ctx.inst.slots.len()],
        };
        expand::expand(self.ctx, &blk, 0, &mut alone, work);
        rec.take_tally(&mut out.tally);
    }

    /// The four phases of a block on `sources` threads.
    fn run_phases(&self, rec: &mut Records, sources: usize, work: &mut Work) {
        let (team, prof) = (self.team, &self.team.prof);
        let (ctx, parts, outs, block) = (self.ctx, self.parts, self.outs, self.block);
        team.meet(0);
        prof.time(0, Phase::Expand, || source(0, ctx, outs, block, work));
        team.meet(0);
        prof.time(0, Phase::Insert, || {
            owner(0, sources, ctx, parts, outs, block)
        });
        team.meet(0);
        rec.block_first = rec.count;
        prof.time(0, Phase::Number, || {
            let guards = parts.read_all();
            let refs: Vec<&Part> = guards.iter().map(|g| &**g).collect();
            let out = outs[0].read().unwrap();
            outbox::number(&out, &refs, self.ctx.inst.words, rec);
        });
        team.meet(0);
        prof.time(0, Phase::Serial, || {
            rec.take_in(ctx, parts, outs, &block.read().unwrap())
        });
    }
}

/// Bytes held by the visited set, the parent records, the queue and the buffers.
/// The limit of `opts` reached once the states before `cursor` are expanded, if any
/// (the last of them checked when several are).
fn block_limit(
    opts: &ReachOptions,
    parts: &Parts<Part>,
    outs: &[RwLock<Outbox>],
    rec: &Records,
    cursor: usize,
) -> Option<Limit> {
    let states = opts.max_states.is_some_and(|m| rec.count >= m) && cursor < rec.count;
    opts.polled_limit(|| bytes(parts, outs, rec))
        .or(states.then_some(Limit::MaxStates))
}

fn bytes(parts: &Parts<Part>, outs: &[RwLock<Outbox>], rec: &Records) -> usize {
    let stores = parts.sum(|p| p.store.memory_bytes());
    let buffers: usize = outs.iter().map(|o| o.read().unwrap().memory_bytes()).sum();
    stores
        + buffers
        + rec.parent.capacity() * 4
        + rec.via.capacity() * 4
        + rec.fifo.capacity() * 8
        + rec.roots.capacity() * 8
}

/// The expansion phase of source `t`.
fn source(t: usize, ctx: &Ctx, outs: &[RwLock<Outbox>], block: &RwLock<Block>, work: &mut Work) {
    let blk = block.read().unwrap();
    let mut out = outs[t].write().unwrap();
    expand::expand(ctx, &blk, t, &mut *out, work);
}

/// The insert phase of owner `t` of `threads`: partitions t, t + threads, ...
fn owner(
    t: usize,
    threads: usize,
    ctx: &Ctx,
    parts: &Parts<Part>,
    outs: &[RwLock<Outbox>],
    block: &RwLock<Block>,
) {
    let blk = block.read().unwrap();
    let guards: Vec<_> = outs[..blk.sources()]
        .iter()
        .map(|o| o.read().unwrap())
        .collect();
    let refs: Vec<&Outbox> = guards.iter().map(|g| &**g).collect();
    let mut mine = parts.owned(t, threads);
    let mut mine: Vec<&mut Part> = mine.iter_mut().map(|g| &mut **g).collect();
    outbox::insert(ctx, &blk, t, threads, &mut mine, &refs);
}

/// A helping thread: at each block, expand its share, then insert into its partitions,
/// until the team quits.
fn worker(
    t: usize,
    ctx: &Ctx,
    parts: &Parts<Part>,
    outs: &[RwLock<Outbox>],
    block: &RwLock<Block>,
    team: &Team,
) {
    let mut work = Work::new(ctx.inst);
    let threads = outs.len();
    let prof = &team.prof;
    loop {
        team.meet(t);
        if team.quitting() {
            return;
        }
        prof.time(t, Phase::Expand, || source(t, ctx, outs, block, &mut work));
        team.meet(t);
        prof.time(t, Phase::Insert, || {
            owner(t, threads, ctx, parts, outs, block)
        });
        team.meet(t);
        prof.time(t, Phase::Number, || {
            let guards = parts.read_all();
            let refs: Vec<&Part> = guards.iter().map(|g| &**g).collect();
            let mut out = outs[t].write().unwrap();
            let out = &mut *out;
            out.fresh.clear();
            let mut fresh = std::mem::take(&mut out.fresh);
            outbox::number(out, &refs, ctx.inst.words, &mut fresh);
            out.fresh = fresh;
        });
        team.meet(t);
    }
}
