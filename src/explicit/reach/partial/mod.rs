//! Partial symmetry: breadth-first reachability at one size for a family that is not
//! fully symmetric (process ids compared by order, `#k` constants, ...), over states
//! annotated with how much symmetry they may use. This is the adaptive symmetry
//! reduction of T. Wahl (*Exploiting Replication in Automated Program Verification*,
//! PhD thesis, UT Austin 2007, ch. 10; also Wahl, "Adaptive symmetry reduction", CAV
//! 2007) with two annotations, the coarsest partition (every permutation) and the
//! finest (the state alone), and subsumption.
//!
//! A node is a real state `s` and an annotation. A *coarse* node stands for every
//! image π(s) of `s` under process permutations (its *members*, `orbit::members`), a
//! *fine* node for `s` alone. The invariant that makes the search exact: every member
//! of a node at depth d is reachable in at most d steps, by a transition from a member
//! of the node's parent. It holds because
//! - a transition whose text is symmetric (`Classes`: no symmetry break inside it) is
//!   fired on `s` alone: for every π, π(e_k(s)) = e_π(k)(π(s)), so the successor of a
//!   coarse node is coarse (Wahl's symmetric edges, partition unchanged);
//! - every other transition is fired on every member (Wahl's *unwind*, with the
//!   finest edge partition), and its successors are pooled per expanded node: a
//!   successor whose whole orbit lies in the pool becomes a coarse node (the pool *is*
//!   reachable, so the orbit is), the others fine nodes (Wahl's meet with the finest
//!   partition). This orbit-completion test is this implementation's addition: it
//!   recovers full symmetry wherever the asymmetric transitions happen to reach a whole
//!   orbit at once (e.g. every process may take a step guarded by `i < j` from a state
//!   where all flags are down).
//!
//! Completeness: every successor of every member of a node is generated (symmetric
//! ones as the image of a successor of `s`), so every reachable state is a member of a
//! stored node. Subsumption (Wahl's Def. 31 for these two annotations): a fine node
//! whose state is a member of a stored coarse node is not stored, and nothing is
//! stored twice. Shortest counterexamples: a state at distance d is a member of a node
//! of depth at most d, and every member of a node of depth d is at distance at most d,
//! so the first violation met in BFS order is at the unreduced search's depth.
//! Properties are checked on every member (on `s` alone when the property's text is
//! symmetric), and so are deadlocks and range errors of asymmetric transitions.
//!
//! Traces: from the violating member back to the root, each step finds a member of
//! the parent and a transition instance leading to the current state (it exists by
//! the invariant), then the run is fired forward from a real initial state and
//! replayed on the reference interpreter (`trace`). Counts: the nodes stored; with the
//! coarse annotation alone (a fully symmetric family) they would be the orbits.

mod classes;
pub mod orbit;
mod report;

use super::{ReachOptions, ReachResult, ReachStats, StoreKind};
use crate::explicit::store::VisitedSet;
use crate::model::canon::{CanonBuf, Symmetry};
use crate::model::compiled::{Compiled, Outcome, Scratch};
use crate::model::init::for_each_initial;
use crate::model::instance::{Instance, State};
use crate::model::ir::Model;
use crate::verdict::Limit;
pub use classes::Classes;
use std::time::Instant;

/// Whether `check_size` searches this model at size `n` (else the plain search runs):
/// requested, process symmetry on, more than one process, the family not fully
/// symmetric (then the plain reduction is exact and cheaper), and none of what this
/// search leaves out (abstract data values, an int window, a store other than the
/// exact one).
pub fn applies(model: &Model, n: usize, opts: &ReachOptions) -> bool {
    opts.partial_symmetry && opts.symmetry && n > 1 && applies_to_model(model, opts.store)
}

/// Whether the model is one the partial-symmetry search takes (when requested):
/// not fully symmetric, no abstract data values, no int window, the exact store.
pub fn applies_to_model(model: &Model, store: StoreKind) -> bool {
    !model.is_symmetric()
        && !model.has_data_symmetry()
        && model.int_window.is_none()
        && store.exact()
}

/// What a violation was met on.
#[derive(Clone, Debug)]
pub(super) enum Kind {
    Unsafe { prop: usize, tuple: usize },
    Deadlock,
    RangeTrans { ctrans: usize },
    RangeProp { prop: usize },
}

/// A violation: the node, the member of it where it happens, the node's depth.
#[derive(Clone, Debug)]
pub(super) struct Found {
    pub depth: usize,
    pub node: usize,
    pub member: State,
    pub kind: Kind,
}

/// The nodes, the visited set, and what was found.
pub(super) struct Search<'a> {
    pub inst: &'a Instance<'a>,
    pub compiled: &'a Compiled,
    pub sym: Symmetry,
    pub classes: Classes,
    pub props: Vec<usize>,
    pub deadlock: bool,
    /// Per node: its parent (`u32::MAX` for a root) and whether it is coarse.
    pub parent: Vec<u32>,
    pub coarse: Vec<bool>,
    /// Per node: its real state, packed.
    pub reals: Vec<u64>,
    /// Keys `[0, canonical packed]` of coarse nodes and `[1, packed]` of fine ones.
    visited: VisitedSet,
    pub unsafe_found: Vec<Option<Found>>,
    pub range_found: Option<Found>,
    pub deadlock_found: Option<Found>,
    pub transitions: u64,
    /// Per compiled transition instance: whether it fired (or met a range error).
    pub fired: Vec<bool>,
    /// A state off the sorting path at more than `orbit::MAX_GENERIC` processes.
    pub declined: bool,
    key: Vec<u64>,
    canon: State,
    buf: CanonBuf,
    /// `complete_orbits`' records, reused.
    records: Vec<u64>,
}

/// How the loop ended.
pub(super) struct Explored {
    pub limit: Option<Limit>,
    pub depth: usize,
    pub complete: bool,
    pub initial_states: usize,
}

impl<'a> Search<'a> {
    fn new(
        inst: &'a Instance<'a>,
        compiled: &'a Compiled,
        props: Vec<usize>,
        deadlock: bool,
    ) -> Self {
        let np = props.len();
        Search {
            inst,
            compiled,
            sym: Symmetry::new(inst),
            classes: Classes::new(inst.model, compiled),
            props,
            deadlock,
            parent: Vec::new(),
            coarse: Vec::new(),
            reals: Vec::new(),
            visited: VisitedSet::new(inst.words + 1),
            unsafe_found: vec![None; np],
            range_found: None,
            deadlock_found: None,
            transitions: 0,
            fired: vec![false; compiled.trans.len()],
            declined: false,
            key: vec![0; inst.words + 1],
            canon: vec![0; inst.slots.len()],
            buf: CanonBuf::default(),
            records: Vec::new(),
        }
    }

    /// The real state of node `i`.
    pub fn real(&self, i: usize) -> State {
        let w = self.inst.words;
        let mut st = vec![0; self.inst.slots.len()];
        self.inst.unpack(&self.reals[i * w..(i + 1) * w], &mut st);
        st
    }

    /// The members of node `i`: its orbit when coarse, its state alone when fine.
    pub fn members(&mut self, i: usize) -> Vec<State> {
        let st = self.real(i);
        if !self.coarse[i] {
            return vec![st];
        }
        match orbit::members(&self.sym, self.inst.n, &st) {
            Some(m) => m,
            None => {
                self.declined = true;
                vec![st]
            }
        }
    }

    /// Store a node unless a stored one subsumes it; its number when stored. `canon`
    /// is the packed canonical representative of `st`.
    fn store(&mut self, st: &[i64], canon: &[u64], coarse: bool, parent: u32) -> Option<usize> {
        let w = self.inst.words;
        self.key[0] = 0;
        self.key[1..=w].copy_from_slice(canon);
        if coarse {
            if !self.visited.insert(&self.key) {
                return None;
            }
        } else {
            if self.visited.contains(&self.key) {
                return None;
            }
            self.key[0] = 1;
            self.inst.pack(st, &mut self.key[1..=w]);
            if !self.visited.insert(&self.key) {
                return None;
            }
        }
        let i = self.parent.len();
        self.parent.push(parent);
        self.coarse.push(coarse);
        let at = self.reals.len();
        self.reals.resize(at + w, 0);
        self.inst.pack(st, &mut self.reals[at..at + w]);
        Some(i)
    }

    /// Check the properties on a new node (on every member unless they are symmetric).
    fn check_props(&mut self, i: usize, depth: usize) {
        let done = |s: &Self| s.unsafe_found.iter().all(|f| f.is_some()) && s.range_found.is_some();
        if self.props.is_empty() || done(self) {
            return;
        }
        let members = if self.coarse[i] && !self.classes.props_symmetric {
            self.members(i)
        } else {
            vec![self.real(i)]
        };
        for m in &members {
            for k in 0..self.props.len() {
                let u = self.props[k];
                if self.unsafe_found[k].is_some() && self.range_found.is_some() {
                    continue;
                }
                match self.compiled.check_prop(u, m) {
                    Ok(None) => {}
                    Ok(Some(_)) if self.unsafe_found[k].is_some() => {}
                    Ok(Some(t)) => {
                        self.unsafe_found[k] = Some(Found {
                            depth,
                            node: i,
                            member: m.clone(),
                            kind: Kind::Unsafe { prop: u, tuple: t },
                        })
                    }
                    Err(_) => self.range(Found {
                        depth,
                        node: i,
                        member: m.clone(),
                        kind: Kind::RangeProp { prop: u },
                    }),
                }
            }
        }
    }

    fn range(&mut self, f: Found) {
        if self.range_found.as_ref().is_none_or(|r| f.depth < r.depth) {
            self.range_found = Some(f);
        }
    }

    /// The initial states as roots: an orbit wholly initial is one coarse root.
    fn roots(&mut self, opts: &ReachOptions) -> Result<(usize, Option<Limit>), ()> {
        let mut init: Vec<i64> = Vec::new();
        let mut count = 0usize;
        let mut cut = None;
        let res = for_each_initial(self.inst, &mut |st| {
            init.extend_from_slice(st);
            count += 1;
            if count.is_multiple_of(1024) && opts.deadline.is_some_and(|d| Instant::now() >= d) {
                cut = Some(Limit::Timeout);
            }
            cut.is_none()
        });
        if res.is_err() {
            return Err(());
        }
        for j in self.complete_orbits(&init, u32::MAX) {
            self.check_props(j, 0);
        }
        Ok((count, cut))
    }

    /// Store a pool of reachable states (`pool`: states one after the other,
    /// duplicates allowed) as nodes with parent `parent`: the states whose whole orbit
    /// is in the pool as one coarse node per orbit, the others as fine nodes, in the
    /// order of their canonical representatives. The new nodes' numbers.
    fn complete_orbits(&mut self, pool: &[i64], parent: u32) -> Vec<usize> {
        let (w, slots) = (self.inst.words, self.inst.slots.len());
        let count = pool.len() / slots.max(1);
        // Records [canonical packed | real packed], sorted: an orbit's states are
        // adjacent, duplicates too.
        let rec = 2 * w;
        self.records.clear();
        self.records.resize(count * rec, 0);
        for j in 0..count {
            let st = &pool[j * slots..(j + 1) * slots];
            self.sym.canonical_into(st, &mut self.canon, &mut self.buf);
            let r = &mut self.records[j * rec..(j + 1) * rec];
            self.inst.pack(&self.canon, &mut r[..w]);
            self.inst.pack(st, &mut r[w..]);
        }
        let records = std::mem::take(&mut self.records);
        let at = |j: usize| &records[j * rec..(j + 1) * rec];
        let mut order: Vec<usize> = (0..count).collect();
        order.sort_unstable_by(|&a, &b| at(a).cmp(at(b)));
        order.dedup_by(|a, b| at(*a) == at(*b));
        let mut new = Vec::new();
        let mut st = vec![0; slots];
        let mut g = 0;
        while g < order.len() {
            let canon = &at(order[g])[..w];
            let mut end = g + 1;
            while end < order.len() && &at(order[end])[..w] == canon {
                end += 1;
            }
            self.inst.unpack(canon, &mut st);
            // One state: whole when its orbit is itself (cheap on the sorting path).
            let whole = match (end - g, self.sym.canonical_is_fixed(&st)) {
                (1, Some(fixed)) => fixed,
                (len, _) => orbit::size(&self.sym, self.inst.n, &st) == Some(len),
            };
            for (k, &j) in order[g..end].iter().enumerate() {
                if whole && k > 0 {
                    break;
                }
                self.inst.unpack(&at(j)[w..], &mut st);
                if let Some(i) = self.store(&st, canon, whole, parent) {
                    new.push(i);
                }
            }
            g = end;
        }
        self.records = records;
        new
    }

    /// Expand node `i` at `depth`; new nodes are appended.
    fn expand(&mut self, i: usize, depth: usize, sc: &mut Scratch, cand: &mut Vec<u32>) {
        let coarse = self.coarse[i];
        let members = self.members(i);
        let compiled = self.compiled;
        let slots = self.inst.slots.len();
        let mut direct: Vec<i64> = Vec::new();
        let mut pool: Vec<i64> = Vec::new();
        let mut sym_enabled = 0usize;
        let mut cur = vec![0; slots];
        for (mi, u) in members.iter().enumerate() {
            let mut enabled = 0usize;
            cur.copy_from_slice(u);
            compiled.candidates(u, cand);
            for &k in cand.iter() {
                let k = k as usize;
                let symmetric = self.classes.trans_symmetric[compiled.trans[k].trans];
                // Symmetric transitions of a coarse node fire on its state alone.
                if coarse && symmetric && mi > 0 {
                    continue;
                }
                let to_direct = coarse && symmetric;
                let out = compiled.fire(k, &mut cur, sc, &mut |_, next, _| {
                    if to_direct {
                        direct.extend_from_slice(next);
                    } else {
                        pool.extend_from_slice(next);
                    }
                });
                match out {
                    Outcome::Disabled => {}
                    Outcome::Enabled(c) => {
                        self.transitions += c as u64;
                        enabled += c;
                        self.fired[k] |= c > 0;
                        if to_direct {
                            sym_enabled += c;
                        }
                    }
                    Outcome::Fault | Outcome::IntBound => {
                        self.fired[k] = true;
                        self.range(Found {
                            depth,
                            node: i,
                            member: u.clone(),
                            kind: Kind::RangeTrans { ctrans: k },
                        });
                    }
                }
            }
            if coarse && mi > 0 {
                enabled += sym_enabled;
            }
            if enabled == 0 && self.deadlock && self.deadlock_found.is_none() {
                self.deadlock_found = Some(Found {
                    depth,
                    node: i,
                    member: u.clone(),
                    kind: Kind::Deadlock,
                });
            }
        }
        let parent = i as u32;
        let w = self.inst.words;
        let mut canon = vec![0u64; w];
        for st in direct.chunks_exact(slots.max(1)) {
            self.sym.canonical_into(st, &mut self.canon, &mut self.buf);
            self.inst.pack(&self.canon, &mut canon);
            if let Some(j) = self.store(st, &canon, true, parent) {
                self.check_props(j, depth + 1);
            }
        }
        for j in self.complete_orbits(&pool, parent) {
            self.check_props(j, depth + 1);
        }
    }

    /// As the plain search's (`reach::all_done`; no ints here).
    fn all_done(&self, depth: usize) -> bool {
        let depth_of = |f: &Option<Found>| f.as_ref().map(|f| f.depth);
        let unsafes = self.unsafe_found.iter().map(depth_of);
        let deadlock = self.deadlock.then(|| depth_of(&self.deadlock_found));
        let last = super::deepest(unsafes, deadlock);
        super::all_done(last, depth, depth_of(&self.range_found), None)
    }

    /// Bytes held by the visited set and the node records.
    fn bytes(&self) -> usize {
        self.visited.memory_bytes()
            + self.reals.capacity() * 8
            + self.parent.capacity() * 4
            + self.coarse.capacity()
    }

    fn explore(&mut self, opts: &ReachOptions, start: Instant) -> Result<Explored, ()> {
        let (initial_states, mut limit) = self.roots(opts)?;
        let mut sc = Scratch::default();
        let mut cand = Vec::new();
        let mut cursor = 0usize;
        let mut depth = 0usize;
        let mut level_end = self.parent.len();
        let mut last_progress = Instant::now();
        while limit.is_none() && !self.declined && !self.all_done(depth) {
            if cursor >= self.parent.len() {
                break;
            }
            if cursor == level_end {
                depth += 1;
                level_end = self.parent.len();
                if self.all_done(depth) {
                    break;
                }
            }
            self.expand(cursor, depth, &mut sc, &mut cand);
            cursor += 1;
            if opts.max_states.is_some_and(|m| self.parent.len() >= m) && cursor < self.parent.len()
            {
                limit = Some(Limit::MaxStates);
            }
            if cursor.is_multiple_of(256) {
                if let Some(l) = opts.polled_limit(|| self.bytes()) {
                    limit = Some(l);
                }
                if opts.progress && last_progress.elapsed().as_secs_f64() >= 1.0 {
                    last_progress = Instant::now();
                    crate::progress::line(format!(
                        "size {}: depth {depth}, {} states (partial symmetry), {} expanded",
                        self.inst.n,
                        self.parent.len(),
                        cursor,
                    ));
                }
            }
        }
        let _ = start;
        if self.declined {
            return Err(());
        }
        Ok(Explored {
            complete: limit.is_none() && cursor >= self.parent.len(),
            limit,
            depth,
            initial_states,
        })
    }
}

/// The search at size `n`, or `None` when it declines (an init range error, a state
/// it cannot enumerate the orbit of): the caller then runs the plain search.
pub fn check_size(model: &Model, n: usize, opts: &ReachOptions) -> Option<ReachResult> {
    let start = Instant::now();
    let inst = Instance::new(model, n);
    let compiled = Compiled::for_search(&inst);
    let props = opts.props_of(model);
    let mut s = Search::new(&inst, &compiled, props, opts.deadlock);
    let e = s.explore(opts, start).ok()?;
    let coverage = report::coverage(&s, &e);
    let stats = ReachStats {
        states: s.parent.len(),
        transitions: s.transitions,
        depth: e.depth,
        seconds: start.elapsed().as_secs_f64(),
        bytes: s.bytes(),
        store_bytes: None,
        initial_states: e.initial_states,
    };
    let (results, internal_errors) = report::results(&mut s, &e, opts);
    Some(ReachResult {
        size: n,
        symmetry: true,
        dead_cells: Vec::new(),
        results,
        stats,
        limit: e.limit,
        complete: e.complete,
        internal_errors,
        ranked: Vec::new(),
        rank_error: None,
        coverage,
        omission: None,
    })
}

#[cfg(test)]
mod tests;
