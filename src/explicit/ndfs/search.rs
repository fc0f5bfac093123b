//! The nested depth-first search (Courcoubetis, Vardi, Wolper, Yannakakis 1992) without
//! fairness: the stacks of records, the table of visited product states with their
//! visit bits, the loop, and one run turned into a `NdfsResult` (the module comment of
//! `ndfs` says when this search answers).
//!
//! Under symmetry the table keys are canonical representatives while the stacks hold
//! real states, so the nested search may close its cycle at a state symmetric to its
//! seed; `unfold::build_lasso` unfolds that fragment by its permutation
//! (D. Bošnački, *A Light-weight Algorithm for Model Checking with Symmetry Reduction and Weak Fairness*, SPIN 2003, proof of Theorem 2). Without fairness this finds a
//! cycle exactly when one exists. The nested search also stops when it meets a node on
//! the first search's stack (SPIN's early detection).

use super::expand::{Expander, Fault, KeyLayout, ROOT, each_initial};
use super::report::{Found, Run};
use super::unfold::{build_lasso, range_trace};
use super::{Algorithm, Ask, NdfsResult, NdfsStats};
use crate::explicit::store::{FlagTable, hash_words};
use crate::trace::RangeSite;
use crate::verdict::Limit;
use std::time::Instant;

/// Visit bits of a product state: first search, nested search, on the first search's
/// stack.
const BLUE: u64 = 1;
const RED: u64 = 2;
const CYAN: u64 = 4;

struct Frame {
    /// Offset of the node's record in the arena.
    rec: usize,
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
    /// A cycle: the stack frame where it starts and the record that closes it.
    Cycle {
        closing: Vec<u64>,
        start: usize,
    },
    /// A range error at the node on top of the stack (or at its successor `next`:
    /// real state and via).
    Range {
        next: Option<Vec<u64>>,
        site: RangeSite,
    },
    Limit(Limit),
}

impl Stop {
    /// The stop of a fault met while expanding.
    fn of_fault(x: &Expander, f: Fault) -> Stop {
        let (next, site) = x.fault_site(f);
        Stop::Range { next, site }
    }
}

/// Record layout on the stacks: `[real state (w) | key state (kw) | q | via]`, where the
/// key state is the canonical form (absent without symmetry), q the automaton state and
/// via how the node was reached.
pub(super) struct Ndfs<'a> {
    pub(super) x: Expander<'a>,
    layout: KeyLayout,
    pub(super) kw: usize,
    pub(super) rw: usize,
    table: FlagTable,
    pub(super) arena: Vec<u64>,
    stack: Vec<Frame>,
    /// The nested search's seed key.
    seed: Option<Vec<u64>>,
    stats: NdfsStats,
    key: Vec<u64>,
    buf_words: Vec<u64>,
    buf_key: Vec<u64>,
    run: Run<'a>,
}

impl Ndfs<'_> {
    fn q(&self, rec: usize) -> u64 {
        self.arena[rec + self.x.w + self.kw]
    }

    /// The table key of a record into `self.key`.
    fn load_key(&mut self, rec: usize) {
        let src = if self.kw > 0 { rec + self.x.w } else { rec };
        let q = self.q(rec);
        self.layout.fill(&self.arena[src..], q, &mut self.key);
    }

    /// The table position of the key in `self.key` (inserted when absent).
    fn slot(&mut self) -> usize {
        let h = hash_words(&self.key);
        self.table.slot(&self.key, h)
    }

    fn bits(&mut self, pos: usize) -> u64 {
        self.table.flags_mut(pos)[0]
    }

    fn set(&mut self, pos: usize, b: u64, on: bool) {
        let v = &mut self.table.flags_mut(pos)[0];
        if on {
            *v |= b;
        } else {
            *v &= !b;
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

    /// The stack's records, bottom first.
    pub(super) fn stack_records(&self) -> Vec<&[u64]> {
        self.stack
            .iter()
            .map(|f| &self.arena[f.rec..f.rec + self.rw])
            .collect()
    }

    /// Generate the successors of the node at `rec` onto the arena.
    fn expand(&mut self, rec: usize) -> Result<(), Stop> {
        let (w, kw) = (self.x.w, self.kw);
        let q = self.q(rec) as usize;
        let mut words = std::mem::take(&mut self.buf_words);
        let mut key = std::mem::take(&mut self.buf_key);
        words.clear();
        words.extend_from_slice(&self.arena[rec..rec + w]);
        key.clear();
        key.extend_from_slice(&self.arena[rec + w..rec + w + kw]);
        let first = self.arena.len();
        let arena = &mut self.arena;
        let r = self.x.expand(&words, &key, q, false, &mut |s| {
            arena.extend_from_slice(s.words);
            arena.extend_from_slice(s.key);
            arena.push(s.q as u64);
            arena.push(s.via);
        });
        self.buf_words = words;
        self.buf_key = key;
        if let Err(f) = r {
            self.arena.truncate(first);
            return Err(Stop::of_fault(&self.x, f));
        }
        // The successors are looked up soon: fetch their table entries now.
        let mut r = first;
        while r < self.arena.len() {
            self.load_key(r);
            self.table.prefetch(hash_words(&self.key));
            r += self.rw;
        }
        self.stats.transitions += ((self.arena.len() - first) / self.rw) as u64;
        Ok(())
    }

    /// Enter the node at `rec` (first or nested search), whose table position is
    /// `pos`, and push its frame.
    fn push(&mut self, rec: usize, red: bool, pos: usize) -> Result<(), Stop> {
        if red {
            self.set(pos, RED, true);
            self.stats.nested_nodes += 1;
        } else {
            self.set(pos, BLUE | CYAN, true);
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
        self.stack
            .last_mut()
            .expect("the frame pushed above is on top")
            .end = self.arena.len();
        self.stats.max_depth = self.stats.max_depth.max(self.stack.len());
        Ok(())
    }

    fn bytes(&self) -> usize {
        self.table.memory_bytes()
            + self.arena.capacity() * 8
            + self.stack.capacity() * std::mem::size_of::<Frame>()
    }

    /// The successor record `r` of a nested-search frame: a cycle when it closes at the
    /// seed or at a node on the first search's stack, else entered when not yet
    /// visited by a nested search.
    fn red_successor(&mut self, r: usize) -> Result<(), Stop> {
        self.load_key(r);
        let pos = self.slot();
        let seed_hit = self.seed.as_ref().is_some_and(|k| k[..] == self.key[..]);
        if seed_hit || self.bits(pos) & CYAN != 0 {
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
                    if self.key == key {
                        found = Some(i);
                    }
                }
                found.expect("a node marked on the stack is on the stack")
            };
            let closing = self.arena[r..r + self.rw].to_vec();
            return Err(Stop::Cycle { closing, start });
        }
        if self.bits(pos) & RED == 0 {
            self.push(r, true, pos)?;
        }
        Ok(())
    }

    /// Leave the frame on top: a nested search's frame is dropped (ending the nested
    /// search when it was its last); a first-search frame of an accepting node becomes
    /// the seed of a nested search.
    fn leave(&mut self) {
        let f = self
            .stack
            .pop()
            .expect("leave is only called with a frame on the stack");
        if f.red {
            self.arena.truncate(f.start);
            if self.stack.last().is_none_or(|t| !t.red) {
                // The nested search is over; its seed's first-search visit ends too.
                self.seed = None;
                let pos = self.frame_pos(f.rec, f.pos, f.generation);
                self.set(pos, CYAN, false);
            }
            return;
        }
        let pos = self.frame_pos(f.rec, f.pos, f.generation);
        if self.x.accepting(self.q(f.rec) as usize) {
            self.load_key(f.rec);
            self.seed = Some(self.key.clone());
            self.set(pos, RED, true);
            self.stats.nested_nodes += 1;
            let generation = self.table.generation();
            self.stack.push(Frame {
                next: f.start,
                red: true,
                pos,
                generation,
                ..f
            });
            return;
        }
        self.arena.truncate(f.start);
        self.set(pos, CYAN, false);
    }

    /// The nested depth-first search from the root record at `root`.
    fn dfs(&mut self, root: usize, pos: usize) -> Result<(), Stop> {
        self.push(root, false, pos)?;
        loop {
            // Limits and progress now and then (entering a node, trying a successor or
            // leaving a node each count), so that a search that only backtracks checks
            // them too.
            if self.run.due() {
                let bytes = self.bytes();
                self.stats.bytes = self.stats.bytes.max(bytes);
                let nodes = self.stats.nodes + self.stats.nested_nodes;
                self.run
                    .check(self.table.len(), nodes, self.stack.len(), bytes)
                    .map_err(Stop::Limit)?;
            }
            let Some(top) = self.stack.last_mut() else {
                break;
            };
            if top.next < top.end {
                let r = top.next;
                top.next += self.rw;
                if top.red {
                    self.red_successor(r)?;
                } else {
                    self.load_key(r);
                    let pos = self.slot();
                    if self.bits(pos) & BLUE == 0 {
                        self.push(r, false, pos)?;
                    }
                }
                continue;
            }
            self.leave();
        }
        Ok(())
    }

    /// Search from the initial nodes of one initial state (packed `words`, cells `st`):
    /// with every initial automaton state whose label it satisfies, unless visited.
    fn search_initial(&mut self, words: &[u64], st: &[i64]) -> Result<(), Found> {
        if self.run.due() {
            let bytes = self.bytes();
            let nodes = self.stats.nodes + self.stats.nested_nodes;
            self.run
                .check(self.table.len(), nodes, 0, bytes)
                .map_err(Found::Limit)?;
        }
        let Ok(mask) = self.x.atom_mask(st) else {
            return Err(Found::InitAtoms(st.to_vec()));
        };
        let mut key = std::mem::take(&mut self.buf_key);
        self.x.canonical(st, &mut key, None);
        for i in 0..self.x.buchi.initial.len() {
            let q = self.x.buchi.initial[i];
            if !self.x.label_ok(q, mask) {
                continue;
            }
            self.arena.clear();
            self.arena.extend_from_slice(words);
            self.arena.extend_from_slice(&key[..self.kw]);
            self.arena.push(q as u64);
            self.arena.push(ROOT);
            self.load_key(0);
            let pos = self.slot();
            if self.bits(pos) & BLUE != 0 {
                continue;
            }
            if let Err(stop) = self.dfs(0, pos) {
                return Err(self.found(stop));
            }
        }
        self.buf_key = key;
        Ok(())
    }

    /// What a stop means: a lasso, a trace to a range error, or a limit.
    fn found(&self, stop: Stop) -> Found {
        match stop {
            Stop::Limit(l) => Found::Limit(l),
            Stop::Range { next, site } => Found::Range(range_trace(
                &self.x,
                self.rw,
                self.kw,
                &self.stack_records(),
                next,
                site,
            )),
            Stop::Cycle { closing, start } => {
                let mut recs = self.stack_records();
                recs.push(&closing);
                Found::Lasso(build_lasso(&self.x, self.kw, &recs, start, false))
            }
        }
    }
}

/// One nested depth-first search, reduced by symmetry when `use_sym` (the family being
/// fully symmetric), without fairness.
pub(super) fn search(a: Ask) -> NdfsResult {
    let (n, p, process, opts) = (a.n, a.p, a.process, a.opts);
    let start = Instant::now();
    let (inst, compiled, use_sym, dead) = a.setup();
    let x = Expander::new(
        &inst,
        &compiled,
        p,
        process,
        super::symmetry_of(&inst, use_sym, process),
        dead.clone(),
    );
    let layout = KeyLayout::new(&inst, p.buchi.states.len());
    let (w, kw) = (x.w, if use_sym { x.w } else { 0 });
    let mut s = Ndfs {
        x,
        layout,
        kw,
        rw: w + kw + 2,
        table: FlagTable::new(layout.len(), 1),
        arena: Vec::new(),
        stack: Vec::new(),
        seed: None,
        stats: NdfsStats::default(),
        key: vec![0; layout.len()],
        buf_words: Vec::new(),
        buf_key: Vec::new(),
        run: Run::new(opts, n, if use_sym { "reduced" } else { "complete" }, start),
    };
    let found = each_initial(&inst, dead.as_ref(), &mut |words, st| {
        s.search_initial(words, st)
    });
    s.stats.bytes = s.stats.bytes.max(s.bytes());
    s.stats.states = s.table.len();
    let algorithm = if use_sym {
        Algorithm::Symmetry
    } else {
        Algorithm::Full
    };
    a.finish(algorithm, use_sym, s.stats.clone(), found, start)
}
