//! The breadth-first search of one size: the visited set, parent records, the FIFO of
//! states to expand, and the first violation of each kind (shallowest, then first in BFS
//! order). See `reach` for the method.

use super::ReachOptions;
use crate::explicit::store::{VisitedSet, hash_words};
use crate::model::canon::{CanonBuf, Symmetry};
use crate::model::compiled::{Compiled, Outcome, Scratch};
use crate::model::dead::Dead;
use crate::model::init::for_each_initial;
use crate::model::instance::{Instance, State};
use crate::verdict::Limit;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::Ordering;
use std::time::Instant;

#[derive(Clone, Debug)]
pub(super) enum Kind {
    Unsafe { prop: usize, tuple: usize },
    Deadlock,
    RangeTrans { ctrans: usize },
    RangeProp { prop: usize },
    RangeInit { state: State },
    IntBound { ctrans: usize },
}

#[derive(Clone, Debug)]
pub(super) struct Found {
    pub depth: usize,
    /// The store index of the last state (none for an init error).
    pub node: usize,
    pub kind: Kind,
}

pub(super) const NO_PARENT: u32 = u32::MAX;
/// Choice indices from this value on are kept in `Search::big_choice`.
const BIG_CHOICE: u32 = 255;
/// Successors gathered before their hash-table lookups are made.
const BATCH: usize = 256;

pub(super) struct Search<'a> {
    pub inst: &'a Instance<'a>,
    sym: Option<Symmetry>,
    dead: Option<Dead>,
    pub visited: VisitedSet,
    /// States stored so far; states are numbered in insertion (= BFS) order.
    pub count: usize,
    pub parent: Vec<u32>,
    /// `transition instance << 8 | choice` that produced each state (0 for roots).
    via: Vec<u32>,
    big_choice: HashMap<u32, u32>,
    /// Real packed states waiting to be expanded, in number order.
    fifo: VecDeque<u64>,
    /// Real packed initial states; roots are the states numbered 0..roots.
    pub roots: Vec<u64>,
    /// The real packed state being expanded.
    cur: Vec<u64>,
    words: Vec<u64>,
    key: Vec<u64>,
    canon: State,
    canon_buf: CanonBuf,
    /// Successors of recently expanded states, gathered so that their hash-table
    /// entries are fetched from memory together: real packed states, keys (canonical
    /// under symmetry), and (hash, parent, transition instance, choice).
    batch_words: Vec<u64>,
    batch_keys: Vec<u64>,
    batch: Vec<(u64, u32, u32, u32)>,
    tmp: State,
    /// A copy of a state being normalized for its key.
    tmp_key: State,
    pub props: Vec<usize>,
    pub unsafe_found: Vec<Option<Found>>,
    pub range_found: Option<Found>,
    /// The shallowest store leaving the int window.
    pub int_found: Option<Found>,
    pub transitions: u64,
}

impl Search<'_> {
    /// Pack a successor of the state being expanded (patching the packed parent with
    /// `writes`, the cells that differ), compute its key and hash, prefetch its table
    /// entry and queue it for `flush`.
    fn gather(&mut self, st: &[i64], writes: &[(usize, i64)], parent: u32, via: (usize, usize)) {
        for (w, c) in self.words.iter_mut().zip(&self.cur) {
            *w = *c;
        }
        for &(slot, v) in writes {
            self.inst.patch(&mut self.words, slot, v);
        }
        for &w in &self.words {
            self.batch_words.push(w);
        }
        let hash = if self.keyed() {
            self.key_of(st);
            for &w in &self.key {
                self.batch_keys.push(w);
            }
            hash_words(&self.key)
        } else {
            hash_words(&self.words)
        };
        self.visited.prefetch(hash);
        self.batch.push((hash, parent, via.0 as u32, via.1 as u32));
    }

    /// Insert the gathered successors in order (all at BFS depth `depth`).
    fn flush(&mut self, compiled: &Compiled, depth: usize) {
        let w = self.inst.words;
        let batch = std::mem::take(&mut self.batch);
        for (i, &(hash, parent, k, c)) in batch.iter().enumerate() {
            let words = &self.batch_words[i * w..(i + 1) * w];
            let key = if self.keyed() {
                &self.batch_keys[i * w..(i + 1) * w]
            } else {
                words
            };
            if !self.visited.insert_hashed(key, hash) {
                continue;
            }
            for (d, x) in self.words.iter_mut().zip(words) {
                *d = *x;
            }
            let mut st = std::mem::take(&mut self.tmp);
            self.inst.unpack(&self.words, &mut st);
            self.record(compiled, &st, parent, (k as usize, c as usize), depth);
            self.tmp = st;
        }
        self.batch = batch;
        self.batch.clear();
        self.batch_words.clear();
        self.batch_keys.clear();
    }

    /// Whether states are stored under a key other than their packed form.
    fn keyed(&self) -> bool {
        self.sym.is_some() || self.dead.is_some()
    }

    /// The stored key of `st` into `self.key`: its dead cells normalized, then its
    /// canonical representative under symmetry.
    fn key_of(&mut self, st: &[i64]) {
        let src: &[i64] = match &self.dead {
            Some(d) => {
                self.tmp_key.clear();
                self.tmp_key.extend_from_slice(st);
                d.normalize(&mut self.tmp_key);
                &self.tmp_key
            }
            None => st,
        };
        match &self.sym {
            Some(sym) => {
                sym.canonical_into(src, &mut self.canon, &mut self.canon_buf);
                self.inst.pack(&self.canon, &mut self.key);
            }
            None => self.inst.pack(src, &mut self.key),
        }
    }

    /// Record an initial state (packed from scratch).
    fn visit_initial(&mut self, compiled: &Compiled, st: &[i64]) {
        self.inst.pack(st, &mut self.words);
        let new = if self.keyed() {
            self.key_of(st);
            self.visited.insert(&self.key)
        } else {
            self.visited.insert(&self.words)
        };
        if new {
            self.record(compiled, st, NO_PARENT, (0, 0), 0);
        }
    }

    /// Number a new state (its real packed form is in `self.words`), queue it and
    /// check the properties on it.
    fn record(
        &mut self,
        compiled: &Compiled,
        st: &[i64],
        parent: u32,
        via: (usize, usize),
        depth: usize,
    ) {
        let idx = self.count;
        self.count += 1;
        self.parent.push(parent);
        let choice = via.1 as u32;
        if choice >= BIG_CHOICE {
            self.big_choice.insert(idx as u32, choice);
        }
        self.via
            .push(((via.0 as u32) << 8) | choice.min(BIG_CHOICE));
        for &w in &self.words {
            self.fifo.push_back(w);
        }
        if parent == NO_PARENT {
            self.roots.extend(self.words.iter().copied());
        }
        for k in 0..self.props.len() {
            // A violated property is still evaluated while no range error is known:
            // evaluating it may meet one in another state.
            if self.unsafe_found[k].is_some() && self.range_found.is_some() {
                continue;
            }
            let u = self.props[k];
            match compiled.props[u].check(st) {
                Ok(None) => {}
                Ok(Some(_)) if self.unsafe_found[k].is_some() => {}
                Ok(Some(t)) => {
                    self.unsafe_found[k] = Some(Found {
                        depth,
                        node: idx,
                        kind: Kind::Unsafe { prop: u, tuple: t },
                    })
                }
                Err(_) => self.range(Found {
                    depth,
                    node: idx,
                    kind: Kind::RangeProp { prop: u },
                }),
            }
        }
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

    /// Bytes held by the visited set, the parent records and the frontier.
    pub fn bytes(&self) -> usize {
        self.visited.memory_bytes()
            + self.parent.capacity() * 4
            + self.via.capacity() * 4
            + self.fifo.capacity() * 8
            + self.roots.capacity() * 8
    }
}

/// How the loop over the queue ended.
pub(super) struct Explored {
    pub limit: Option<Limit>,
    /// The deepest BFS level reached.
    pub depth: usize,
    /// Every reachable state was explored.
    pub complete: bool,
    pub deadlock_found: Option<Found>,
    /// Per compiled transition instance: whether it fired (or met a range error) in an
    /// expanded state.
    pub fired: Vec<bool>,
    pub initial_states: usize,
}

impl<'a> Search<'a> {
    /// An empty search of `inst`, storing states under symmetry `sym` and dead cells
    /// `dead`, for the `unsafe` properties `props`.
    pub fn new(
        inst: &'a Instance<'a>,
        sym: Option<Symmetry>,
        dead: Option<Dead>,
        props: Vec<usize>,
    ) -> Search<'a> {
        Search {
            inst,
            sym,
            dead,
            visited: VisitedSet::new(inst.words),
            count: 0,
            parent: Vec::new(),
            via: Vec::new(),
            big_choice: HashMap::new(),
            fifo: VecDeque::new(),
            roots: Vec::new(),
            cur: vec![0; inst.words],
            words: vec![0; inst.words],
            key: vec![0; inst.words],
            canon: vec![0; inst.slots.len()],
            canon_buf: CanonBuf::default(),
            batch_words: Vec::new(),
            batch_keys: Vec::new(),
            batch: Vec::new(),
            tmp: vec![0; inst.slots.len()],
            tmp_key: Vec::new(),
            unsafe_found: vec![None; props.len()],
            props,
            range_found: None,
            int_found: None,
            transitions: 0,
        }
    }

    /// Store the initial states: how many there are, and the limit that cut their
    /// enumeration short (nothing after it may claim completeness).
    fn initial_states(
        &mut self,
        compiled: &Compiled,
        opts: &ReachOptions,
    ) -> (usize, Option<Limit>) {
        let mut init_count = 0usize;
        let mut init_cut = None;
        let init_res = for_each_initial(self.inst, &mut |st| {
            init_count += 1;
            self.visit_initial(compiled, st);
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
            opts.max_states.is_none_or(|m| self.count < m) && init_cut.is_none()
        });
        if let Err(e) = init_res {
            self.range(Found {
                depth: 0,
                node: usize::MAX,
                kind: Kind::RangeInit { state: e.state },
            });
        }
        (init_count, init_cut)
    }

    /// Done when every requested property is violated, the last one at depth D, and
    /// range errors are decided up to D: one was found at most this deep, or every state
    /// of depth <= D has been expanded (the SAT engine decides them as far); `int_bound`
    /// likewise, in a model with ints.
    fn all_done(&self, opts: &ReachOptions, dl: &Option<Found>, depth: usize) -> bool {
        let tracked = !self.props.is_empty() || opts.deadlock;
        if !tracked
            || !self.unsafe_found.iter().all(|f| f.is_some())
            || (opts.deadlock && dl.is_none())
        {
            return false;
        }
        let last = self
            .unsafe_found
            .iter()
            .chain(std::iter::once(dl))
            .flatten()
            .map(|f| f.depth)
            .max()
            .unwrap_or(0);
        let decided = |f: &Option<Found>| f.as_ref().is_some_and(|r| r.depth <= depth);
        let ints = self.inst.model.int_window.is_some();
        depth > last || (decided(&self.range_found) && (!ints || decided(&self.int_found)))
    }

    /// Store the initial states, then expand states in BFS order until every state is
    /// expanded, every property is decided, or a limit of `opts` is reached.
    pub fn explore(
        &mut self,
        compiled: &Compiled,
        opts: &ReachOptions,
        start: Instant,
    ) -> Explored {
        let inst = self.inst;
        let n = inst.n;
        let (init_count, init_cut) = self.initial_states(compiled, opts);
        let mut limit = init_cut;
        let mut deadlock_found: Option<Found> = None;
        let mut w = Work::default();
        let mut fired = vec![false; compiled.trans.len()];
        let mut st: State = vec![0; inst.slots.len()];
        let mut cursor = 0usize;
        let mut depth = 0usize;
        let mut level_end = self.count;
        let mut last_progress = Instant::now();
        if opts.max_states.is_some_and(|m| self.count >= m) && init_count > self.count {
            limit = Some(Limit::MaxStates);
        }
        while limit.is_none() && !self.all_done(opts, &deadlock_found, depth) {
            if cursor == level_end || self.batch.len() >= BATCH {
                self.flush(compiled, depth + 1);
            }
            if cursor >= self.count {
                break;
            }
            if cursor == level_end {
                depth += 1;
                level_end = self.count;
                if self.all_done(opts, &deadlock_found, depth) {
                    break;
                }
            }
            for w in self.cur.iter_mut() {
                *w = self.fifo.pop_front().unwrap_or(0);
            }
            inst.unpack(&self.cur, &mut st);
            let enabled = self.expand(compiled, cursor, depth, &mut st, &mut w, &mut fired);
            if enabled == 0 && opts.deadlock && deadlock_found.is_none() {
                deadlock_found = Some(Found {
                    depth,
                    node: cursor,
                    kind: Kind::Deadlock,
                });
            }
            cursor += 1;
            if opts.max_states.is_some_and(|m| self.count >= m) && cursor < self.count {
                limit = Some(Limit::MaxStates);
            }
            if cursor.is_multiple_of(256) {
                if opts.deadline.is_some_and(|d| Instant::now() >= d) {
                    limit = Some(Limit::Timeout);
                }
                if opts
                    .stop
                    .as_ref()
                    .is_some_and(|f| f.load(Ordering::Relaxed))
                {
                    limit = Some(Limit::Interrupted);
                }
                if opts.max_memory.is_some_and(|m| self.bytes() > m) {
                    limit = Some(Limit::Memory);
                }
                if opts.progress && last_progress.elapsed().as_secs_f64() >= 1.0 {
                    last_progress = Instant::now();
                    let t = start.elapsed().as_secs_f64();
                    eprintln!(
                        "nfold: size {n}: depth {depth}, {} states, {} expanded, {:.0} states/s",
                        self.count,
                        cursor,
                        self.count as f64 / t
                    );
                }
            }
        }
        self.flush(compiled, depth + 1);
        Explored {
            complete: limit.is_none() && cursor >= self.count,
            limit,
            depth,
            deadlock_found,
            fired,
            initial_states: init_count,
        }
    }

    /// Fire every transition instance on `st`, the state numbered `cursor` at depth
    /// `depth`, gathering its successors; the number of successors.
    fn expand(
        &mut self,
        compiled: &Compiled,
        cursor: usize,
        depth: usize,
        st: &mut State,
        w: &mut Work,
        fired: &mut [bool],
    ) -> usize {
        let mut enabled = 0usize;
        let parent = cursor as u32;
        compiled.candidates(st, &mut w.candidates);
        for &k in &w.candidates {
            let k = k as usize;
            let out = compiled.fire(k, st, &mut w.scratch, &mut |c, next, writes| {
                self.transitions += 1;
                self.gather(next, writes, parent, (k, c));
            });
            match out {
                Outcome::Disabled => {}
                Outcome::Enabled(c) => {
                    enabled += c;
                    fired[k] |= c > 0;
                }
                Outcome::Fault => {
                    // Not reported as dead: the range error is reported instead.
                    fired[k] = true;
                    self.range(Found {
                        depth,
                        node: cursor,
                        kind: Kind::RangeTrans { ctrans: k },
                    })
                }
                Outcome::IntBound => {
                    // Not reported as dead: leaving the window is reported instead.
                    fired[k] = true;
                    self.int_bound(Found {
                        depth,
                        node: cursor,
                        kind: Kind::IntBound { ctrans: k },
                    })
                }
            }
        }
        enabled
    }
}

/// Buffers reused from one expansion to the next.
#[derive(Default)]
struct Work {
    scratch: Scratch,
    candidates: Vec<u32>,
}
