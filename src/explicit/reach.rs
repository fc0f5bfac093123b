//! Breadth-first reachability for `unsafe` properties, range errors and deadlocks, at
//! one size. With symmetry the visited set keeps canonical representatives while the
//! search walks real states, so every parent chain is a real run; traces are rebuilt by
//! re-firing the recorded transitions from the real initial state and replayed on the
//! reference interpreter before they are returned. BFS order makes every reported
//! counterexample a shortest one.

use super::steps::step_for;
use super::store::{VisitedSet, hash_words};
use crate::model::canon::{CanonBuf, Symmetry};
use crate::model::compiled::{Compiled, Outcome, Scratch};
use crate::model::dead::Dead;
use crate::model::eval::{self, Fire};
use crate::model::init::for_each_initial;
use crate::model::instance::{Instance, State};
use crate::model::ir::Model;
use crate::trace::{RangeSite, Trace, Violation};
pub use crate::verdict::Limit;
use crate::verdict::{Coverage, Proof, PropId, PropResult, SizeReport, Verdict};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How to search.
#[derive(Clone, Debug, Default)]
pub struct ReachOptions {
    /// Reduce by symmetry: process permutations when the family is fully symmetric,
    /// permutations of interchangeable data values (abstract types) when there are any.
    pub symmetry: bool,
    /// Report deadlocks as violations.
    pub deadlock: bool,
    /// Store states up to their dead cells (`model::dead`): cells no transition or
    /// property can read before they are written again.
    pub dead_cells: bool,
    /// Which `unsafe` properties (indices into `model.unsafes`); all when `None`.
    pub props: Option<Vec<usize>>,
    /// Stop after storing this many states.
    pub max_states: Option<usize>,
    /// Stop when the visited set and its bookkeeping exceed this many bytes.
    pub max_memory: Option<usize>,
    pub deadline: Option<Instant>,
    /// Set from outside (Ctrl-C) to stop the search.
    pub stop: Option<Arc<AtomicBool>>,
    /// Print progress lines on stderr for searches over a second.
    pub progress: bool,
    /// After an exhaustive search, also find the conjuncts of the properties that are
    /// never true (`ReachResult::coverage`), within a budget of a few times the search.
    pub coverage: bool,
}

/// Measurements of one search.
#[derive(Clone, Debug, Default)]
pub struct ReachStats {
    /// States stored (canonical representatives under symmetry).
    pub states: usize,
    /// Successors generated.
    pub transitions: u64,
    /// Deepest BFS level reached.
    pub depth: usize,
    pub seconds: f64,
    /// Bytes held by the visited set and parent records at the end.
    pub bytes: usize,
    pub initial_states: usize,
}

/// The outcome at one size.
#[derive(Clone, Debug)]
pub struct ReachResult {
    pub size: usize,
    /// Whether symmetry reduction was applied.
    pub symmetry: bool,
    /// The arrays whose dead cells were normalized (`model::dead`), described.
    pub dead_cells: Vec<String>,
    pub results: Vec<PropResult>,
    pub stats: ReachStats,
    pub limit: Option<Limit>,
    /// Every reachable state was explored.
    pub complete: bool,
    /// Traces that failed to replay (an engine bug; the verdict is then unknown).
    pub internal_errors: Vec<String>,
    /// Which transitions fired and which property conjuncts were ever true.
    pub coverage: Coverage,
}

#[derive(Clone, Debug)]
enum Kind {
    Unsafe { prop: usize, tuple: usize },
    Deadlock,
    RangeTrans { ctrans: usize },
    RangeProp { prop: usize },
    RangeInit { state: State },
    IntBound { ctrans: usize },
}

#[derive(Clone, Debug)]
struct Found {
    depth: usize,
    /// The store index of the last state (none for an init error).
    node: usize,
    kind: Kind,
}

const NO_PARENT: u32 = u32::MAX;
/// Choice indices from this value on are kept in `Search::big_choice`.
const BIG_CHOICE: u32 = 255;
/// Successors gathered before their hash-table lookups are made.
const BATCH: usize = 256;

struct Search<'a> {
    inst: &'a Instance<'a>,
    sym: Option<Symmetry>,
    dead: Option<Dead>,
    visited: VisitedSet,
    /// States stored so far; states are numbered in insertion (= BFS) order.
    count: usize,
    parent: Vec<u32>,
    /// `transition instance << 8 | choice` that produced each state (0 for roots).
    via: Vec<u32>,
    big_choice: HashMap<u32, u32>,
    /// Real packed states waiting to be expanded, in number order.
    fifo: VecDeque<u64>,
    /// Real packed initial states; roots are the states numbered 0..roots.
    roots: Vec<u64>,
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
    props: Vec<usize>,
    unsafe_found: Vec<Option<Found>>,
    range_found: Option<Found>,
    /// The shallowest store leaving the int window.
    int_found: Option<Found>,
    transitions: u64,
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

    fn range(&mut self, f: Found) {
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
    fn step_of(&self, i: usize) -> (usize, usize) {
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
    fn bytes(&self) -> usize {
        self.visited.memory_bytes()
            + self.parent.capacity() * 4
            + self.via.capacity() * 4
            + self.fifo.capacity() * 8
            + self.roots.capacity() * 8
    }
}

/// Peak resident memory of this process so far (Linux), in bytes.
pub fn peak_memory() -> Option<usize> {
    crate::limits::peak_memory()
}

/// Explore the instance of size `n` breadth-first.
pub fn check_size(model: &Model, n: usize, opts: &ReachOptions) -> ReachResult {
    let start = Instant::now();
    let inst = Instance::new(model, n);
    let compiled = Compiled::new(&inst);
    // Process permutations for a fully symmetric family, and permutations of the values
    // of abstract types whose values are interchangeable.
    let sym = Symmetry::for_search(&inst, opts.symmetry);
    let use_sym = sym.is_some();
    let dead_arrays = if opts.dead_cells {
        crate::model::dead::analyse(model)
    } else {
        Vec::new()
    };
    let dead = Dead::for_instance(&inst, &dead_arrays);
    let props: Vec<usize> = opts
        .props
        .clone()
        .unwrap_or_else(|| (0..model.unsafes.len()).collect());
    let mut s = Search {
        inst: &inst,
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
    };
    let mut deadlock_found: Option<Found> = None;
    let mut limit = None;
    let mut init_count = 0usize;
    let mut init_cut = None;
    let init_res = for_each_initial(&inst, &mut |st| {
        init_count += 1;
        s.visit_initial(&compiled, st);
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
        opts.max_states.is_none_or(|m| s.count < m) && init_cut.is_none()
    });
    // Initial states not all enumerated: nothing after this may claim completeness.
    if init_cut.is_some() {
        limit = init_cut;
    }
    if let Err(e) = init_res {
        s.range(Found {
            depth: 0,
            node: usize::MAX,
            kind: Kind::RangeInit { state: e.state },
        });
    }
    let mut scratch = Scratch::default();
    let mut candidates = Vec::new();
    // Per compiled transition instance: whether it fired (or met a range error) in an
    // expanded state.
    let mut fired = vec![false; compiled.trans.len()];
    let mut st: State = vec![0; inst.slots.len()];
    let mut cursor = 0usize;
    let mut depth = 0usize;
    let mut level_end = s.count;
    let mut last_progress = Instant::now();
    let tracked = !s.props.is_empty() || opts.deadlock;
    // Done when every requested property is violated, the last one at depth D, and
    // range errors are decided up to D: one was found at most this deep, or every state
    // of depth <= D has been expanded (the SAT engine decides them as far); `int_bound`
    // likewise, in a model with ints.
    let ints = model.int_window.is_some();
    let all_done = |s: &Search, dl: &Option<Found>, depth: usize| {
        if !tracked
            || !s.unsafe_found.iter().all(|f| f.is_some())
            || (opts.deadlock && dl.is_none())
        {
            return false;
        }
        let last = s
            .unsafe_found
            .iter()
            .chain(std::iter::once(dl))
            .flatten()
            .map(|f| f.depth)
            .max()
            .unwrap_or(0);
        let decided = |f: &Option<Found>| f.as_ref().is_some_and(|r| r.depth <= depth);
        depth > last || (decided(&s.range_found) && (!ints || decided(&s.int_found)))
    };
    if opts.max_states.is_some_and(|m| s.count >= m) && init_count > s.count {
        limit = Some(Limit::MaxStates);
    }
    while limit.is_none() && !all_done(&s, &deadlock_found, depth) {
        if cursor == level_end || s.batch.len() >= BATCH {
            s.flush(&compiled, depth + 1);
        }
        if cursor >= s.count {
            break;
        }
        if cursor == level_end {
            depth += 1;
            level_end = s.count;
            if all_done(&s, &deadlock_found, depth) {
                break;
            }
        }
        for w in s.cur.iter_mut() {
            *w = s.fifo.pop_front().unwrap_or(0);
        }
        inst.unpack(&s.cur, &mut st);
        let mut enabled = 0usize;
        let parent = cursor as u32;
        compiled.candidates(&st, &mut candidates);
        for &k in &candidates {
            let k = k as usize;
            let out = compiled.fire(k, &mut st, &mut scratch, &mut |c, next, writes| {
                s.transitions += 1;
                s.gather(next, writes, parent, (k, c));
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
                    s.range(Found {
                        depth,
                        node: cursor,
                        kind: Kind::RangeTrans { ctrans: k },
                    })
                }
                Outcome::IntBound => {
                    // Not reported as dead: leaving the window is reported instead.
                    fired[k] = true;
                    s.int_bound(Found {
                        depth,
                        node: cursor,
                        kind: Kind::IntBound { ctrans: k },
                    })
                }
            }
        }
        if enabled == 0 && opts.deadlock && deadlock_found.is_none() {
            deadlock_found = Some(Found {
                depth,
                node: cursor,
                kind: Kind::Deadlock,
            });
        }
        cursor += 1;
        if opts.max_states.is_some_and(|m| s.count >= m) && cursor < s.count {
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
            if opts.max_memory.is_some_and(|m| s.bytes() > m) {
                limit = Some(Limit::Memory);
            }
            if opts.progress && last_progress.elapsed().as_secs_f64() >= 1.0 {
                last_progress = Instant::now();
                let t = start.elapsed().as_secs_f64();
                crate::progress::line(format!(
                    "size {n}: depth {depth}, {} states, {} expanded, {:.0} states/s",
                    s.count,
                    cursor,
                    s.count as f64 / t
                ));
            }
        }
    }
    s.flush(&compiled, depth + 1);
    let complete = limit.is_none() && cursor >= s.count;
    let mut coverage = Coverage {
        exhaustive: complete,
        instances: vec![false; model.transitions.len()],
        fired: vec![false; model.transitions.len()],
        ..Coverage::default()
    };
    for (k, ct) in compiled.trans.iter().enumerate() {
        coverage.instances[ct.trans] = true;
        coverage.fired[ct.trans] |= fired[k];
    }
    if complete && opts.coverage {
        let holding: Vec<usize> = s
            .props
            .iter()
            .zip(&s.unsafe_found)
            .filter(|(_, f)| f.is_none())
            .map(|(&u, _)| u)
            .collect();
        let search = start.elapsed().as_secs_f64();
        match conjunct_pass(&inst, &s, &holding, search, opts) {
            Ok(c) => coverage.conjuncts = c,
            Err(why) => coverage.skipped = Some(why),
        }
        // One SAT query per property; a second at most, or the run's own limits.
        let budget = Instant::now() + std::time::Duration::from_secs(1);
        let stop = crate::sat::Stop {
            deadline: Some(opts.deadline.map_or(budget, |d| d.min(budget))),
            flag: opts.stop.clone(),
        };
        coverage.satisfiable = super::vacuity::satisfiable_anywhere(model, n, &holding, &stop)
            .into_iter()
            .filter_map(|(u, a)| a.map(|a| (u, a)))
            .collect();
    }
    let stats = ReachStats {
        states: s.count,
        transitions: s.transitions,
        depth,
        seconds: start.elapsed().as_secs_f64(),
        bytes: s.bytes(),
        initial_states: init_count,
    };
    // Build the results, with replayed traces.
    let mut results = Vec::new();
    let mut internal_errors = Vec::new();
    let mut push = |prop: PropId, name: String, found: Option<&Found>, decided: bool| {
        let verdict = match found {
            Some(f) => match build_trace(model, &inst, &compiled, &s, f) {
                Ok(t) => Verdict::violated(t),
                Err(e) => {
                    internal_errors.push(format!("size {n}, {name}: {e}"));
                    Verdict::Unknown
                }
            },
            // No initial state: nothing was checked.
            None if decided && init_count == 0 => Verdict::Vacuous,
            None if decided => Verdict::Holds(Proof::Exhaustive),
            None => Verdict::Unknown,
        };
        results.push(PropResult {
            size: n,
            prop,
            name,
            verdict,
        });
    };
    for (k, &u) in s.props.iter().enumerate() {
        push(
            PropId::Unsafe(u),
            model.unsafes[u].name.clone(),
            s.unsafe_found[k].as_ref(),
            complete,
        );
    }
    if opts.deadlock {
        push(
            PropId::Deadlock,
            "deadlock".into(),
            deadlock_found.as_ref(),
            complete,
        );
    }
    // When every property was violated, the last at depth D, range errors are decided
    // up to D: one found deeper (evaluating a property on a new state) is not reported.
    let decided_to = (tracked
        && s.unsafe_found.iter().all(|f| f.is_some())
        && (!opts.deadlock || deadlock_found.is_some()))
    .then(|| {
        s.unsafe_found
            .iter()
            .chain(std::iter::once(&deadlock_found))
            .flatten()
            .map(|f| f.depth)
            .max()
            .unwrap_or(0)
    });
    if let Some(r) = s
        .range_found
        .as_ref()
        .filter(|r| decided_to.is_none_or(|d| r.depth <= d))
    {
        push(PropId::Range, "range_error".into(), Some(r), true);
    }
    if let Some(r) = s
        .int_found
        .as_ref()
        .filter(|r| decided_to.is_none_or(|d| r.depth <= d))
    {
        push(PropId::IntBound, "int_bound".into(), Some(r), true);
    }
    ReachResult {
        size: n,
        symmetry: use_sym,
        dead_cells: dead_arrays.iter().map(|a| a.describe(model)).collect(),
        results,
        stats,
        limit,
        complete,
        internal_errors,
        coverage,
    }
}

/// How many times the search's time the pass over the stored states may take.
const CONJUNCT_BUDGET: f64 = 4.0;
/// ... but never less than this many seconds (tiny searches time poorly).
const CONJUNCT_MIN_SECONDS: f64 = 0.2;

/// For each property of `props` with two conjuncts or more (and tuples at this size),
/// per conjunct as written: whether it is true for some tuple of pairwise distinct
/// processes in some reachable state. Called after an exhaustive search, on the stored
/// states. Under symmetry reduction those are canonical representatives, one per
/// orbit, and that is enough: the family and its properties are fully symmetric (the
/// symmetry analysis covers properties too, and holds for every subformula, a
/// conjunct included), so a conjunct true for processes z in a reachable state s is
/// true for π(z) in π(s), and π(z) is pairwise distinct when z is; every orbit of
/// reachable states has its representative stored, and representatives are reachable
/// since reachable states are closed under π. The same holds for permutations of
/// interchangeable data values. Errors: why the pass was skipped (too costly: more
/// than `CONJUNCT_BUDGET` times `search_seconds`, judged on its first states; or a
/// limit of the run).
fn conjunct_pass(
    inst: &Instance,
    s: &Search,
    props: &[usize],
    search_seconds: f64,
    opts: &ReachOptions,
) -> Result<Vec<(usize, Vec<bool>)>, String> {
    let model = inst.model;
    // Per (property, conjunct): its compiled form for every tuple.
    let mut out: Vec<(usize, Vec<bool>)> = Vec::new();
    let mut todo: Vec<(usize, usize, Vec<crate::model::compiled::C>)> = Vec::new();
    for &u in props {
        let p = &model.unsafes[u];
        let tuples = inst.distinct_tuples(p.params);
        if p.conjuncts.len() < 2 || tuples.is_empty() {
            continue;
        }
        for (c, conj) in p.conjuncts.iter().enumerate() {
            let cs = tuples
                .iter()
                .map(|t| {
                    let mut env = vec![0; p.locals.len().max(t.len())];
                    env[..t.len()].copy_from_slice(t);
                    crate::model::compiled::compile(inst, &mut env, &conj.expr)
                })
                .collect();
            todo.push((out.len(), c, cs));
        }
        out.push((u, vec![false; p.conjuncts.len()]));
    }
    if todo.is_empty() {
        return Ok(out);
    }
    let start = Instant::now();
    let budget = (CONJUNCT_BUDGET * search_seconds).max(CONJUNCT_MIN_SECONDS);
    let mut st: State = vec![0; inst.slots.len()];
    let mut done = 0usize;
    let mut skipped = None;
    s.visited.for_each(|key| {
        inst.unpack(key, &mut st);
        // A conjunct once seen true is not evaluated again; a range error counts as
        // possibly true (the conjunct alone may read what the body's earlier
        // conjuncts guard), so only conjuncts certainly false everywhere are reported.
        todo.retain(|(p, c, cs)| {
            let hit = cs.iter().any(|x| !matches!(x.eval(&st), Ok(0)));
            if hit {
                out[*p].1[*c] = true;
            }
            !hit
        });
        done += 1;
        if todo.is_empty() {
            return false;
        }
        if done.is_multiple_of(1024) {
            let t = start.elapsed().as_secs_f64();
            // The estimate assumes the conjuncts left stay false (the costly case).
            let estimate = t * s.count as f64 / done as f64;
            if estimate > budget {
                skipped = Some(format!(
                    "it would take about {estimate:.1}s, more than {CONJUNCT_BUDGET} times the search ({search_seconds:.1}s)"
                ));
                return false;
            }
            if opts.deadline.is_some_and(|d| Instant::now() >= d)
                || opts
                    .stop
                    .as_ref()
                    .is_some_and(|f| f.load(Ordering::Relaxed))
            {
                skipped = Some("the run was stopped (time limit or interrupt)".into());
                return false;
            }
        }
        true
    });
    match skipped {
        Some(why) => Err(why),
        None => Ok(out),
    }
}

/// Rebuild the real run to a found state and replay it on the reference interpreter.
fn build_trace(
    model: &Model,
    inst: &Instance,
    compiled: &Compiled,
    s: &Search,
    f: &Found,
) -> Result<Trace, String> {
    if let Kind::RangeInit { state } = &f.kind {
        let message = match eval::satisfies_init(inst, state) {
            Err(e) => e.message,
            Ok(_) => return Err("init error did not reproduce".into()),
        };
        let t = Trace {
            size: inst.n,
            init: state.clone(),
            steps: Vec::new(),
            violation: Violation::Range {
                site: RangeSite::Init,
                message,
            },
        };
        t.replay(model)?;
        return Ok(t);
    }
    let mut path = vec![f.node];
    while s.parent[*path.last().unwrap()] != NO_PARENT {
        path.push(s.parent[*path.last().unwrap()] as usize);
    }
    path.reverse();
    let root = path[0];
    let mut st: State = vec![0; inst.slots.len()];
    inst.unpack(
        &s.roots[root * inst.words..(root + 1) * inst.words],
        &mut st,
    );
    let init = st.clone();
    let mut steps = Vec::new();
    for &node in &path[1..] {
        let (k, c) = s.step_of(node);
        let (step, next) = step_for(inst, compiled, &st, k, c)?;
        steps.push(step);
        st = next;
    }
    let violation = match &f.kind {
        Kind::Unsafe { prop, tuple } => Violation::Unsafe {
            prop: *prop,
            tuple: compiled.props[*prop].tuples[*tuple].0.clone(),
        },
        Kind::Deadlock => Violation::Deadlock,
        Kind::RangeTrans { ctrans } => {
            let ct = &compiled.trans[*ctrans];
            match eval::fire(inst, &st, ct.trans, &ct.params) {
                Fire::Error(e) if !e.is_int_bound() => Violation::Range {
                    site: RangeSite::Transition {
                        trans: ct.trans,
                        params: ct.params.clone(),
                    },
                    message: e.message,
                },
                _ => return Err("the reference interpreter meets no range error".into()),
            }
        }
        Kind::RangeProp { prop } => match eval::violation(inst, &st, &model.unsafes[*prop]) {
            Err(e) => Violation::Range {
                site: RangeSite::Property(*prop),
                message: e.message,
            },
            Ok(_) => return Err("the reference interpreter meets no range error".into()),
        },
        Kind::RangeInit { .. } => return Err("an init error has no run".into()),
        Kind::IntBound { ctrans } => {
            let ct = &compiled.trans[*ctrans];
            match eval::fire(inst, &st, ct.trans, &ct.params) {
                Fire::Error(e) if e.is_int_bound() => Violation::IntBound {
                    trans: ct.trans,
                    params: ct.params.clone(),
                    message: e.message,
                },
                _ => return Err("the reference interpreter does not leave the int window".into()),
            }
        }
    };
    let t = Trace {
        size: inst.n,
        init,
        steps,
        violation,
    };
    t.replay(model)?;
    Ok(t)
}

impl From<ReachResult> for SizeReport {
    fn from(r: ReachResult) -> SizeReport {
        SizeReport {
            size: r.size,
            symmetry: r.symmetry,
            results: r.results,
            seconds: r.stats.seconds,
            limit: r.limit,
            internal_errors: r.internal_errors,
            engine: "explicit",
            stats: crate::verdict::Stats {
                states: Some(r.stats.states),
                transitions: Some(r.stats.transitions),
                initial_states: Some(r.stats.initial_states),
                complete: Some(r.complete),
                ..Default::default()
            },
            // Every state of depth <= the level being expanded was discovered and checked.
            answered_depth: Some(r.stats.depth),
            coverage: Some(r.coverage),
        }
    }
}
