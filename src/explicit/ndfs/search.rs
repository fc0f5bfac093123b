//! The nested depth-first search itself: the stacks of records, the table of visited
//! product states with their visit bits, successors with the Choueka copy counter, and
//! one run of the search turned into a `LiveResult` (the module comment of `ndfs` says
//! which algorithm it follows).

use super::SHORTEN_BUDGET;
use super::unfold::{build_lasso, range_trace};
use super::{Algorithm, LiveOptions, LiveResult, LiveStats, LiveVerdict};
use crate::explicit::store::{FlagTable, hash_words};
use crate::ltl::LtlProperty;
use crate::ltl::buchi::Buchi;
use crate::model::canon::{CanonBuf, Symmetry};
use crate::model::compiled::{C, Compiled, Outcome, Scratch, compile};
use crate::model::eval;
use crate::model::init::for_each_initial;
use crate::model::instance::{Instance, State};
use crate::model::ir::Model;
use crate::trace::{RangeSite, Trace, Violation};
use crate::verdict::Limit;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Record layout of a node on the stacks: `[real state (w) | key state (kw) | meta |
/// via]`, where the key state is the canonical form (absent without symmetry), meta is
/// `automaton state | copy << 32` and via is how the node was reached.
const ROOT: u64 = u64::MAX;
pub(super) const EPSILON: u64 = u64::MAX - 1;
pub(super) const STUTTER: u64 = u64::MAX - 2;

pub(super) struct Frame {
    /// Offset of the node's record in the arena.
    pub(super) rec: usize,
    /// Its successors' records: `arena[start..end]`, the next one to visit at `next`.
    start: usize,
    end: usize,
    next: usize,
    /// Part of a nested search.
    red: bool,
    /// The node's table position, valid while the table's generation is `generation`.
    pos: usize,
    generation: u64,
}

/// Why a search stopped before its end.
enum Stop {
    /// A cycle: the stack frames and the record of the node that closes it.
    Cycle {
        closing: Vec<u64>,
        start: usize,
    },
    /// A range error at the node on top of the stack (or at its successor `next`).
    Range {
        next: Option<Vec<u64>>,
        site: RangeSite,
    },
    Limit(Limit),
    /// The complete search's work budget (`LiveOptions::complete_budget`) ran out.
    Budget,
}

pub(super) struct Search<'a> {
    pub(super) inst: &'a Instance<'a>,
    pub(super) compiled: &'a Compiled,
    buchi: &'a Buchi,
    pub(super) sym: Option<Symmetry>,
    canon_buf: CanonBuf,
    atoms: Vec<C>,
    pub(super) prop: usize,
    pub(super) process: Option<i64>,
    pub(super) fair: bool,
    early: bool,
    pub(super) n: usize,
    ncopies: usize,
    pub(super) w: usize,
    pub(super) kw: usize,
    pub(super) rw: usize,
    table: FlagTable,
    /// Where the automaton state goes in the last word of a key, when the packed state
    /// leaves room for it there (keys are then one word shorter).
    q_shift: Option<u32>,
    pub(super) arena: Vec<u64>,
    pub(super) stack: Vec<Frame>,
    /// The nested search's seed: its key and copy.
    seed: Option<(Vec<u64>, usize)>,
    stats: LiveStats,
    key: Vec<u64>,
    st: State,
    canon: State,
    buf_words: Vec<u64>,
    buf_key: Vec<u64>,
    buf_next: Vec<u64>,
    buf_next_key: Vec<u64>,
    scratch: Scratch,
    candidates: Vec<u32>,
    opts: &'a LiveOptions,
    start: Instant,
    last_progress: Instant,
    /// Iterations of the search loop, for checking limits now and then.
    ticks: u64,
    /// `complete` or `reduced`, for progress lines.
    phase: &'static str,
    /// Stop (`Stop::Budget`) after generating this many successors.
    work_budget: Option<u64>,
}

impl Search<'_> {
    fn meta(&self, rec: usize) -> (usize, usize) {
        let m = self.arena[rec + self.w + self.kw];
        ((m & 0xFFFF_FFFF) as usize, (m >> 32) as usize)
    }

    /// The table key of a record: canonical state and automaton state, into `self.key`.
    fn load_key(&mut self, rec: usize) {
        let (w, kw) = (self.w, self.kw);
        let src = if kw > 0 { rec + w } else { rec };
        self.key[..w].copy_from_slice(&self.arena[src..src + w]);
        let q = self.arena[rec + w + kw] & 0xFFFF_FFFF;
        match self.q_shift {
            Some(sh) => self.key[w - 1] |= q << sh,
            None => self.key[w] = q,
        }
    }

    /// The table position of the key in `self.key` (inserted when absent).
    fn slot(&mut self) -> usize {
        let h = hash_words(&self.key);
        self.table.slot(&self.key, h)
    }

    /// Flag `b` at a table position.
    fn bit(&mut self, pos: usize, b: usize) -> bool {
        self.table.flags_mut(pos)[b / 64] >> (b % 64) & 1 == 1
    }

    /// Set or clear flag `b` at a table position.
    fn set_bit(&mut self, pos: usize, b: usize, on: bool) {
        let v = self.table.flags_mut(pos);
        if on {
            v[b / 64] |= 1 << (b % 64);
        } else {
            v[b / 64] &= !(1 << (b % 64));
        }
    }

    /// The current table position of a frame's node (looked up again after the table
    /// grew).
    fn frame_pos(&mut self, rec: usize, pos: usize, generation: u64) -> usize {
        if generation == self.table.generation() {
            pos
        } else {
            self.load_key(rec);
            self.slot()
        }
    }

    fn blue(&self, c: usize) -> usize {
        c
    }
    fn red(&self, c: usize) -> usize {
        self.ncopies + c
    }
    fn cyan(&self, c: usize) -> usize {
        2 * self.ncopies + c
    }

    fn accepting(&self, rec: usize) -> bool {
        let (q, c) = self.meta(rec);
        self.buchi.states[q].accepting && c == 0
    }

    /// The atoms that hold in a state, as a bit mask.
    fn atom_mask(&self, st: &[i64]) -> Result<u64, ()> {
        let mut m = 0u64;
        for (k, a) in self.atoms.iter().enumerate() {
            match a.eval(st) {
                Ok(0) => {}
                Ok(_) => m |= 1 << k,
                Err(_) => return Err(()),
            }
        }
        Ok(m)
    }

    fn label_ok(&self, q: usize, mask: u64) -> bool {
        let s = &self.buchi.states[q];
        mask & s.pos == s.pos && mask & s.neg == 0
    }

    /// Append a record: real state `words`, canonical key of `st` (under symmetry),
    /// automaton state, copy and via.
    fn push_record(&mut self, words: &[u64], key: Option<&[u64]>, q: usize, c: u64, via: u64) {
        self.arena.extend_from_slice(words);
        if self.kw > 0 {
            self.arena
                .extend_from_slice(key.expect("a key under symmetry"));
        }
        self.arena.push(q as u64 | c << 32);
        self.arena.push(via);
    }

    /// The canonical packed form of `st` into `self.words` (under symmetry).
    fn canonical_words(&mut self, st: &[i64], out: &mut Vec<u64>) {
        if let Some(sym) = &self.sym {
            sym.canonical_into(st, &mut self.canon, &mut self.canon_buf);
            out.resize(self.w, 0);
            self.inst.pack(&self.canon, out);
        }
    }

    /// The copy after a real step of process `p` (0: no process) from a state whose
    /// enabled processes are `enabled` (bit p-1).
    fn next_copy(&self, c: usize, p: usize, enabled: u64) -> usize {
        if !self.fair || c == 0 {
            c
        } else if p == c || (c == self.n && enabled >> (self.n - 1) & 1 == 0) {
            (c + 1) % self.ncopies
        } else {
            c
        }
    }

    /// Generate the successors of the node at `rec` onto the arena.
    fn expand(&mut self, rec: usize) -> Result<(), Stop> {
        let (w, kw) = (self.w, self.kw);
        let (q, c) = self.meta(rec);
        let mut words = std::mem::take(&mut self.buf_words);
        let mut key = std::mem::take(&mut self.buf_key);
        words.clear();
        words.extend_from_slice(&self.arena[rec..rec + w]);
        key.clear();
        key.extend_from_slice(&self.arena[rec + w..rec + w + kw]);
        let r = self.expand_from(&words, &key, q, c);
        self.buf_words = words;
        self.buf_key = key;
        r
    }

    fn expand_from(&mut self, words: &[u64], key: &[u64], q: usize, c: usize) -> Result<(), Stop> {
        let (w, kw) = (self.w, self.kw);
        if self.fair && c == 0 && self.buchi.states[q].accepting {
            self.push_record(words, Some(key), q, 1, EPSILON);
            self.stats.transitions += 1;
            return Ok(());
        }
        let mut st = std::mem::take(&mut self.st);
        self.inst.unpack(words, &mut st);
        let first = self.arena.len();
        let mut enabled_procs = 0u64;
        let mut any = false;
        let mut fault = None;
        let mut candidates = std::mem::take(&mut self.candidates);
        self.compiled.candidates(&st, &mut candidates);
        let mut scratch = std::mem::take(&mut self.scratch);
        let mut next_words = std::mem::take(&mut self.buf_next);
        next_words.resize(w, 0);
        let mut next_key = std::mem::take(&mut self.buf_next_key);
        let mut atom_fault: Option<Vec<u64>> = None;
        let compiled = self.compiled;
        for &k in &candidates {
            let k = k as usize;
            let p = compiled.trans[k].params.first().copied().unwrap_or(0) as u64;
            let out = compiled.fire(k, &mut st, &mut scratch, &mut |choice, next, writes| {
                if atom_fault.is_some() {
                    return;
                }
                next_words.copy_from_slice(words);
                for &(slot, v) in writes {
                    self.inst.patch(&mut next_words, slot, v);
                }
                let mask = match self.atom_mask(next) {
                    Ok(m) => m,
                    Err(()) => {
                        let mut r = next_words.clone();
                        r.push((k as u64) << 32 | choice as u64);
                        atom_fault = Some(r);
                        return;
                    }
                };
                self.canonical_words(next, &mut next_key);
                let via = (k as u64) << 32 | choice as u64;
                for i in 0..self.buchi.states[q].succ.len() {
                    let q2 = self.buchi.states[q].succ[i];
                    if self.label_ok(q2, mask) {
                        // The copy is fixed below, once every process's enabledness
                        // is known; until then the field holds the step's process.
                        self.push_record(&next_words, Some(&next_key), q2, p, via);
                    }
                }
            });
            match out {
                Outcome::Disabled => {}
                Outcome::Enabled(0) => {}
                Outcome::Enabled(_) => {
                    any = true;
                    if p > 0 {
                        enabled_procs |= 1 << (p - 1);
                    }
                }
                // A store leaving the int window stops the search like a range error.
                Outcome::Fault | Outcome::IntBound => {
                    fault = Some(k);
                    break;
                }
            }
            if atom_fault.is_some() {
                break;
            }
        }
        self.scratch = scratch;
        self.candidates = candidates;
        self.buf_next = next_words;
        self.buf_next_key = next_key;
        if let Some(r) = atom_fault {
            self.st = st;
            self.arena.truncate(first);
            let mut next = r[..w].to_vec();
            next.push(r[w]);
            return Err(Stop::Range {
                next: Some(next),
                site: RangeSite::Ltl {
                    prop: self.prop,
                    process: self.process,
                },
            });
        }
        if let Some(k) = fault {
            self.st = st;
            self.arena.truncate(first);
            let ct = &self.compiled.trans[k];
            return Err(Stop::Range {
                next: None,
                site: RangeSite::Transition {
                    trans: ct.trans,
                    params: ct.params.clone(),
                },
            });
        }
        if !any {
            // A deadlock repeats forever: a stutter step that belongs to no process.
            let mask = match self.atom_mask(&st) {
                Ok(m) => m,
                Err(()) => unreachable!("atoms were evaluated on this state when it was reached"),
            };
            for i in 0..self.buchi.states[q].succ.len() {
                let q2 = self.buchi.states[q].succ[i];
                if self.label_ok(q2, mask) {
                    self.push_record(words, Some(key), q2, 0, STUTTER);
                }
            }
        }
        self.st = st;
        // Fix the copies of the real steps.
        let mut r = first;
        while r < self.arena.len() {
            let m = self.arena[r + w + kw];
            let p = (m >> 32) as usize;
            let c2 = self.next_copy(c, p, enabled_procs);
            self.arena[r + w + kw] = (m & 0xFFFF_FFFF) | (c2 as u64) << 32;
            // The successors are looked up soon: fetch their table entries now.
            self.load_key(r);
            self.table.prefetch(hash_words(&self.key));
            r += self.rw;
        }
        // ε move past a disabled process (never from copy N, see the module comment).
        if self.fair && c >= 1 && c < self.n && enabled_procs >> (c - 1) & 1 == 0 {
            self.push_record(words, Some(key), q, (c + 1) as u64, EPSILON);
        }
        self.stats.transitions += ((self.arena.len() - first) / self.rw) as u64;
        Ok(())
    }

    /// Enter the node at `rec` (first or nested search), whose table position is
    /// `pos`, and push its frame.
    fn push(&mut self, rec: usize, red: bool, pos: usize) -> Result<(), Stop> {
        let (_, c) = self.meta(rec);
        if red {
            self.set_bit(pos, self.red(c), true);
            self.stats.nested_nodes += 1;
        } else {
            self.set_bit(pos, self.blue(c), true);
            self.set_bit(pos, self.cyan(c), true);
            self.stats.nodes += 1;
        }
        // The frame goes on the stack first, so that a range error met while expanding
        // finds its node on top.
        let start = self.arena.len();
        let generation = self.table.generation();
        self.stack.push(Frame {
            rec,
            start,
            end: start,
            next: start,
            red,
            pos,
            generation,
        });
        self.expand(rec)?;
        self.stack.last_mut().unwrap().end = self.arena.len();
        self.stats.max_depth = self.stats.max_depth.max(self.stack.len());
        Ok(())
    }

    fn bytes(&self) -> usize {
        self.table.memory_bytes()
            + self.arena.capacity() * 8
            + self.stack.capacity() * std::mem::size_of::<Frame>()
    }

    fn check_limits(&mut self) -> Result<(), Stop> {
        let o = self.opts;
        self.stats.bytes = self.stats.bytes.max(self.bytes());
        if o.max_states.is_some_and(|m| self.table.len() >= m) {
            return Err(Stop::Limit(Limit::MaxStates));
        }
        if self
            .work_budget
            .is_some_and(|b| self.stats.transitions >= b)
        {
            return Err(Stop::Budget);
        }
        if o.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Stop::Limit(Limit::Timeout));
        }
        if o.stop.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Err(Stop::Limit(Limit::Interrupted));
        }
        if o.max_memory.is_some_and(|m| self.bytes() > m) {
            return Err(Stop::Limit(Limit::Memory));
        }
        if o.progress && self.last_progress.elapsed().as_secs_f64() >= 1.0 {
            self.last_progress = Instant::now();
            let t = self.start.elapsed().as_secs_f64();
            eprintln!(
                "nfold: size {}: {} search: {} states, {} nodes, depth {} (max {}), {:.0} states/s, {:.1}s",
                self.n,
                self.phase,
                self.table.len(),
                self.stats.nodes + self.stats.nested_nodes,
                self.stack.len(),
                self.stats.max_depth,
                self.table.len() as f64 / t.max(1e-9),
                t
            );
        }
        Ok(())
    }

    /// The nested depth-first search from the root record at `root`.
    fn dfs(&mut self, root: usize, pos: usize) -> Result<(), Stop> {
        self.push(root, false, pos)?;
        loop {
            // Limits and progress every 4096 steps of the loop (entering a node, trying
            // a successor or leaving a node), so that a search that only backtracks
            // checks them too.
            self.ticks += 1;
            if self.ticks.is_multiple_of(4096) {
                self.check_limits()?;
            }
            let Some(top) = self.stack.last_mut() else {
                break;
            };
            if top.next < top.end {
                let r = top.next;
                top.next += self.rw;
                let red = top.red;
                self.load_key(r);
                let (_, c) = self.meta(r);
                let pos = self.slot();
                if !red {
                    if !self.bit(pos, self.blue(c)) {
                        self.push(r, false, pos)?;
                    }
                    continue;
                }
                let seed_hit = self
                    .seed
                    .as_ref()
                    .is_some_and(|(k, sc)| *sc == c && k[..] == self.key[..]);
                if seed_hit || (self.early && self.bit(pos, self.cyan(c))) {
                    let start = if seed_hit {
                        self.stack.iter().position(|f| f.red).unwrap_or(0)
                    } else {
                        let key = self.key.clone();
                        let blue: Vec<usize> = self
                            .stack
                            .iter()
                            .take_while(|f| !f.red)
                            .map(|f| f.rec)
                            .collect();
                        let mut found = None;
                        for (i, rec) in blue.into_iter().enumerate() {
                            self.load_key(rec);
                            if self.key == key && self.meta(rec).1 == c {
                                found = Some(i);
                            }
                        }
                        found.expect("a node marked on the stack is on the stack")
                    };
                    let closing = self.arena[r..r + self.rw].to_vec();
                    return Err(Stop::Cycle { closing, start });
                }
                if !self.bit(pos, self.red(c)) {
                    self.push(r, true, pos)?;
                }
                continue;
            }
            let f = self.stack.pop().unwrap();
            let c = self.meta(f.rec).1;
            if f.red {
                self.arena.truncate(f.start);
                if self.stack.last().is_none_or(|t| !t.red) {
                    // The nested search is over; its seed's first-search visit ends too.
                    self.seed = None;
                    let pos = self.frame_pos(f.rec, f.pos, f.generation);
                    self.set_bit(pos, self.cyan(c), false);
                }
                continue;
            }
            let pos = self.frame_pos(f.rec, f.pos, f.generation);
            if self.accepting(f.rec) {
                self.load_key(f.rec);
                self.seed = Some((self.key.clone(), c));
                self.set_bit(pos, self.red(c), true);
                self.stats.nested_nodes += 1;
                let generation = self.table.generation();
                self.stack.push(Frame {
                    next: f.start,
                    red: true,
                    pos,
                    generation,
                    ..f
                });
                continue;
            }
            self.arena.truncate(f.start);
            self.set_bit(pos, self.cyan(c), false);
        }
        Ok(())
    }
}

/// One nested depth-first search, reduced by symmetry when `use_sym` (the family being
/// fully symmetric); `phase` names it in progress lines.
#[allow(clippy::too_many_arguments)]
pub(super) fn search(
    model: &Model,
    n: usize,
    p: &LtlProperty,
    process: Option<i64>,
    opts: &LiveOptions,
    use_sym: bool,
    phase: &'static str,
    work_budget: Option<u64>,
) -> (LiveResult, bool) {
    let start = Instant::now();
    let mut budget_hit = false;
    let inst = Instance::new(model, n);
    let compiled = Compiled::new(&inst);
    let use_sym = use_sym && model.is_symmetric() && n > 1;
    let sym = use_sym.then(|| {
        let s = Symmetry::new(&inst);
        if process.is_some() {
            s.fixing_first()
        } else {
            s
        }
    });
    let l = &model.ltls[p.prop];
    let atoms: Vec<C> = p
        .atoms
        .iter()
        .map(|a| {
            let mut env = vec![0i64; l.locals.len().max(1)];
            if let Some(pr) = process {
                env[0] = pr;
            }
            compile(&inst, &mut env, a)
        })
        .collect();
    let w = inst.words.max(1);
    let kw = if use_sym { w } else { 0 };
    let ncopies = if opts.fair { n + 1 } else { 1 };
    let q_bits = (usize::BITS
        - p.buchi
            .states
            .len()
            .max(2)
            .saturating_sub(1)
            .leading_zeros()) as usize;
    let used_top = inst
        .slots
        .iter()
        .filter(|sl| sl.bits > 0 && sl.word + 1 == w)
        .map(|sl| (sl.shift + sl.bits) as usize)
        .max()
        .unwrap_or(0);
    let q_shift = (inst.words > 0 && used_top + q_bits <= 64).then_some((64 - q_bits) as u32);
    let klen = if q_shift.is_some() { w } else { w + 1 };
    let mut s = Search {
        inst: &inst,
        compiled: &compiled,
        buchi: &p.buchi,
        sym,
        canon_buf: CanonBuf::default(),
        atoms,
        prop: p.prop,
        process,
        fair: opts.fair,
        early: !(opts.fair && use_sym),
        n,
        ncopies,
        w,
        kw,
        rw: w + kw + 2,
        table: FlagTable::new(klen, (3 * ncopies).div_ceil(64)),
        q_shift,
        arena: Vec::new(),
        stack: Vec::new(),
        seed: None,
        stats: LiveStats::default(),
        key: vec![0; klen],
        st: vec![0; inst.slots.len()],
        canon: vec![0; inst.slots.len()],
        buf_words: Vec::new(),
        buf_key: Vec::new(),
        buf_next: Vec::new(),
        buf_next_key: Vec::new(),
        scratch: Scratch::default(),
        candidates: Vec::new(),
        opts,
        start,
        last_progress: Instant::now(),
        ticks: 0,
        phase,
        work_budget,
    };
    // Initial nodes: every initial state with every initial automaton state whose
    // label it satisfies.
    let mut inits: Vec<u64> = Vec::new();
    let init_res = for_each_initial(&inst, &mut |st| {
        let mut words = vec![0u64; w];
        inst.pack(st, &mut words);
        inits.extend_from_slice(&words);
        true
    });
    let mut outcome: Result<(), Stop> = Ok(());
    let mut range_init: Option<State> = None;
    if let Err(e) = init_res {
        range_init = Some(e.state);
    }
    let mut init_atom_error: Option<State> = None;
    for words in inits.chunks(w) {
        if range_init.is_some() {
            break;
        }
        let mut st = vec![0; inst.slots.len()];
        inst.unpack(words, &mut st);
        let mask = match s.atom_mask(&st) {
            Ok(m) => m,
            Err(()) => {
                init_atom_error = Some(st);
                break;
            }
        };
        let mut key = Vec::new();
        s.canonical_words(&st, &mut key);
        for i in 0..p.buchi.initial.len() {
            let q = p.buchi.initial[i];
            if !s.label_ok(q, mask) {
                continue;
            }
            s.arena.clear();
            s.push_record(words, Some(&key), q, 0, ROOT);
            s.load_key(0);
            let pos = s.slot();
            if s.bit(pos, s.blue(0)) {
                continue;
            }
            outcome = s.dfs(0, pos);
            if outcome.is_err() {
                break;
            }
        }
        if outcome.is_err() {
            break;
        }
    }
    s.stats.bytes = s.stats.bytes.max(s.bytes());
    s.stats.states = s.table.len();
    let mut result = LiveResult {
        size: n,
        prop: p.prop,
        process,
        symmetry: use_sym,
        algorithm: match (use_sym, opts.fair) {
            (false, _) => Algorithm::Full,
            (true, false) => Algorithm::Symmetry,
            (true, true) => Algorithm::SymmetryFair,
        },
        attempt: None,
        fair: opts.fair,
        verdict: LiveVerdict::Unknown,
        lasso: None,
        range: None,
        stats: s.stats.clone(),
        limit: None,
        internal_errors: Vec::new(),
    };
    if let Some(state) = range_init.or(init_atom_error.clone()) {
        let site = if init_atom_error.is_some() {
            RangeSite::Ltl {
                prop: p.prop,
                process,
            }
        } else {
            RangeSite::Init
        };
        let message = match &site {
            RangeSite::Init => eval::satisfies_init(&inst, &state).err().map(|e| e.message),
            _ => crate::trace::ltl_atoms_error(&inst, &state, p.prop, process).map(|e| e.message),
        };
        let t = Trace {
            size: n,
            init: state,
            steps: Vec::new(),
            violation: Violation::Range {
                site,
                message: message.unwrap_or_default(),
            },
        };
        match t.replay(model) {
            Ok(_) => result.range = Some(t),
            Err(e) => result.internal_errors.push(e),
        }
    }
    match outcome {
        Ok(()) if result.range.is_none() && result.internal_errors.is_empty() => {
            result.verdict = if opts.fair && use_sym {
                LiveVerdict::NoFairViolationFound
            } else {
                LiveVerdict::Holds
            };
        }
        Ok(()) => {}
        Err(Stop::Limit(l)) => result.limit = Some(l),
        Err(Stop::Budget) => budget_hit = true,
        Err(Stop::Range { next, site }) => match range_trace(&s, next, site) {
            Ok(t) => result.range = Some(t),
            Err(e) => result.internal_errors.push(e),
        },
        Err(Stop::Cycle { closing, start }) => match build_lasso(&s, &closing, start) {
            Ok(lasso) => match lasso.replay(model) {
                Ok(states) => {
                    result.verdict = LiveVerdict::Violated;
                    // A shorter lasso by breadth-first search, kept only if it replays.
                    let limits = crate::explicit::product::Limits::new(
                        result
                            .stats
                            .states
                            .clamp(SHORTEN_BUDGET.0, SHORTEN_BUDGET.1),
                        opts.deadline,
                        opts.stop.clone(),
                        opts.progress.then(|| format!("size {n}")),
                    );
                    let short = opts
                        .shorten
                        .then(|| {
                            crate::explicit::shorten::shorten(model, p, &lasso, &states, &limits)
                        })
                        .flatten()
                        .filter(|l| l.replay(model).is_ok());
                    result.lasso = Some(short.unwrap_or(lasso));
                }
                Err(e) => result
                    .internal_errors
                    .push(format!("the lasso does not replay: {e}")),
            },
            Err(e) => result.internal_errors.push(e),
        },
    }
    result.stats.seconds = start.elapsed().as_secs_f64();
    (result, budget_hit)
}
