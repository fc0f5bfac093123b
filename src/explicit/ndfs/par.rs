//! The parallel fair-cycle search, run on `--threads T` with T ≥ 2: the quotient
//! product explored breadth-first on T threads and stored as a graph (`par_graph`),
//! decomposed into maximal strongly connected components by Tarjan's algorithm and each
//! tested like the sequential SCC search tests its components (`par_scc`, on the
//! annotated quotient of Emerson and Sistla, TOPLAS 1997, re-based per component).
//! Not an on-the-fly algorithm such as CNDFS (Evangelista, Laarman, Petrucci, van de
//! Pol, "Improved multi-core nested depth-first search", ATVA 2012) or UFSCC (Bloemen,
//! Laarman, van de Pol, "Multi-core on-the-fly SCC decomposition", PPoPP 2016): the
//! expansion of states (firing transitions, canonical forms), which is most of the
//! sequential search's time, runs on every thread; the decomposition, over stored
//! edges, on one. The price: a violation is only reported once the whole product is
//! stored (the sequential search stops at the first), and the edges take memory.
//!
//! The answers are the sequential search's: a maximal component passes the test exactly
//! when a reachable weakly fair accepting cycle lies in it (theorem in `scc`). Where the
//! sequential answer depends on the order of the search — a range error or a store
//! leaving the int window, in an initial state or in a successor, which the sequential
//! search reports only if it meets it before a lasso — `search` returns `None` and the
//! sequential search answers. The lasso is rebuilt on the unreduced instance (this
//! file): a real stem along the BFS parents, matched successor by successor to the
//! stored nodes, then the cycle walked through the component (`walk`).

use super::expand::{Expander, KeyLayout, ROOT, each_initial};
use super::par_explore::{Seeds, Stopped, explore};
use super::par_graph::{Graph, cycle_classes};
use super::par_scc::Tarjan;
use super::report::{Found, Run};
use super::unfold::{deadlock_lasso, real_path};
use super::walk::{Unfold, Walk};
use super::{Algorithm, Ask, NdfsResult, NdfsStats};
use crate::explicit::par::prof;
use crate::model::dead::Dead;
use crate::model::instance::Instance;
use crate::verdict::Limit;
use std::time::Instant;

/// The parallel search on `threads` threads, or `None` where the sequential search
/// must answer (module comment).
pub(super) fn search(a: Ask, threads: usize) -> Option<NdfsResult> {
    let (n, p, process, opts) = (a.n, a.p, a.process, a.opts);
    let start = Instant::now();
    let (inst, compiled, use_sym, dead) = a.setup();
    let make_x = || {
        let sym = super::symmetry_of(&inst, use_sym, process);
        Expander::new(&inst, &compiled, p, process, sym, dead.clone())
    };
    let mut x = make_x();
    let layout = KeyLayout::new(&inst, p.buchi.states.len());
    let mut seeds = Seeds::new(layout);
    let phase = if use_sym {
        "reduced parallel SCC"
    } else {
        "parallel SCC"
    };
    let mut seeding = Run::new(opts, n, phase, start);
    let seeded = seed(&inst, dead.as_ref(), &mut x, &mut seeds, &mut seeding);
    let algorithm = if use_sym {
        Algorithm::SymmetryParScc
    } else {
        Algorithm::ParScc
    };
    let done = |stats: NdfsStats, found: Found| a.finish(algorithm, use_sym, stats, found, start);
    match seeded {
        Found::Nothing => {}
        Found::Limit(l) => {
            let stats = NdfsStats {
                states: seeds.len(),
                bytes: seeds.bytes(),
                ..NdfsStats::default()
            };
            return Some(done(stats, Found::Limit(l)));
        }
        _ => return None,
    }
    let cpu = prof::thread_cpu();
    let wall = Instant::now();
    let class = cycle_classes(x.buchi);
    let g = match explore(seeds, &class, threads, opts.fair, n, opts, start, &make_x) {
        Ok(g) => g,
        Err(Stopped::Fault) => return None,
        Err(Stopped::Limit(l, states, bytes)) => {
            let stats = NdfsStats {
                states,
                bytes,
                ..NdfsStats::default()
            };
            return Some(done(stats, Found::Limit(l)));
        }
    };
    let mut stats = NdfsStats {
        states: g.nodes,
        nodes: g.nodes as u64,
        transitions: g.edges,
        max_depth: g.levels,
        ..NdfsStats::default()
    };
    profile_explore(&g, wall, cpu);
    let cpu = prof::thread_cpu();
    let run = Run::new(opts, n, phase, start);
    let mut tarjan = Tarjan::new(&g);
    let outcome = tarjan.run(&mut || run.interrupted().is_some());
    profile_decompose(&tarjan, cpu);
    stats.bytes = g.bytes + tarjan.bytes();
    if opts.max_memory.is_some_and(|m| stats.bytes > m) {
        return Some(done(stats, Found::Limit(Limit::Memory)));
    }
    let found = match outcome {
        Err(()) => Found::Limit(run.interrupted().unwrap_or(Limit::Timeout)),
        Ok(None) => Found::Nothing,
        Ok(Some((b, c))) => {
            let mut l = Lassos {
                g: &g,
                tarjan: &tarjan,
                x: &mut x,
                inst: &inst,
                run: &run,
                fair: opts.fair,
            };
            l.lasso(b, c)
        }
    };
    Some(done(stats, found))
}

/// The initial product nodes seeded: every initial state (its canonical form under
/// symmetry) with each initial automaton state its labels allow. The limits are polled
/// meanwhile: an instance may have millions of initial states, all rejected by the
/// automaton's initial labels (issue 28's generated model, seed 20261135 at size 4:
/// 3^17).
fn seed(
    inst: &Instance,
    dead: Option<&Dead>,
    x: &mut Expander,
    seeds: &mut Seeds,
    seeding: &mut Run,
) -> Found {
    each_initial(inst, dead, &mut |words, st| {
        if seeding.due() {
            seeding
                .check(seeds.len(), 0, 0, seeds.bytes())
                .map_err(Found::Limit)?;
        }
        let Ok(mask) = x.atom_mask(st) else {
            return Err(Found::InitAtoms(Vec::new()));
        };
        let mut key = Vec::new();
        x.canonical(st, &mut key, None);
        let state = if key.is_empty() { words } else { &key[..] };
        for &q in &x.buchi.initial {
            if x.label_ok(q, mask) {
                seeds.seed(state, q as u64);
            }
        }
        Ok(())
    })
}

/// The exploration's profile line (`par::prof`), from `wall` and the main
/// thread's CPU time `cpu` when it started.
fn profile_explore(g: &Graph, wall: Instant, cpu: f64) {
    prof::line(|| {
        format!(
            "explore: {:.3} s wall, main thread {:.3} s CPU (index), {} nodes, {} edges \
             ({} stored), {} levels; tables {} MiB, arenas {} MiB, index {} MiB",
            wall.elapsed().as_secs_f64(),
            prof::thread_cpu() - cpu,
            g.nodes,
            g.edges,
            g.stored_edges,
            g.levels,
            g.parts.iter().map(|p| p.memory_bytes()).sum::<usize>() >> 20,
            g.arenas.iter().map(|a| a.capacity() * 4).sum::<usize>() >> 20,
            (g.ids * 8) >> 20,
        )
    });
}

/// The decomposition's profile line, from the CPU time `cpu` when it started.
fn profile_decompose(tarjan: &Tarjan, cpu: f64) {
    prof::line(|| {
        format!(
            "decompose: {:.3} s CPU, of which {:.3} s testing components; {} components, \
             {} candidates, largest {} nodes",
            prof::thread_cpu() - cpu,
            tarjan.test_cpu,
            tarjan.components(),
            tarjan.candidates,
            tarjan.largest,
        )
    });
}

/// What the lasso of a found component is built from.
struct Lassos<'l, 'a> {
    g: &'l Graph,
    tarjan: &'l Tarjan<'l>,
    x: &'l mut Expander<'a>,
    inst: &'l Instance<'l>,
    run: &'l Run<'a>,
    fair: bool,
}

impl Lassos<'_, '_> {
    /// The lasso through component `c`, its stem ending at its node `b`.
    fn lasso(&mut self, b: u32, c: u32) -> Found {
        let recs = match self.stem_records(b) {
            Ok(r) => r,
            Err(found) => return found,
        };
        let refs: Vec<&[u64]> = recs.iter().map(|r| &r[..]).collect();
        if let Some(l) = deadlock_lasso(self.x, 0, &refs, self.fair) {
            return Found::Lasso(l);
        }
        let stem = match real_path(self.x, 0, &refs) {
            Ok(s) => s,
            Err(e) => return Found::Lasso(Err(e)),
        };
        let w = self.x.w;
        let last = refs.last().expect("a stem holds at least its first node");
        let start = (last[..w].to_vec(), last[w]);
        let (g, tarjan) = (self.g, self.tarjan);
        let mut key = vec![0; g.layout.len()];
        let n = self.x.n;
        let mut walk = Walk {
            x: self.x,
            run: self.run,
            fair: self.fair,
            all: if n >= 64 { u64::MAX } else { (1 << n) - 1 },
            member: |state: &[u64], q: u64| {
                g.layout.fill(state, q, &mut key);
                g.lookup(&key).is_some_and(|v| tarjan.in_component(v, c))
            },
        };
        match walk.lasso(stem, start) {
            Ok(l) => Found::Lasso(Ok(l)),
            Err(Unfold::Error(e)) => Found::Lasso(Err(e)),
            Err(Unfold::Limit(l)) => Found::Limit(l),
        }
    }

    /// The real path to node `b` as records `[real state | q | via]`: from a real
    /// initial state of the first node along the BFS parents, each step a real
    /// successor whose table state and automaton state are the next node's. `Err`: why
    /// no lasso (`Found::Lasso(Err)`), or the limit hit while listing initial states.
    fn stem_records(&mut self, b: u32) -> Result<Vec<Vec<u64>>, Found> {
        let lost = |e: &str| Found::Lasso(Err(e.to_string()));
        let g = self.g;
        let nodes: Vec<(Vec<u64>, u64)> = g
            .path_to(b)
            .iter()
            .map(|(_, key)| g.layout.split(key))
            .collect();
        let w = self.x.w;
        let (first, q0) = (&nodes[0].0, nodes[0].1);
        let mut init: Option<Vec<u64>> = None;
        let dead = self.x.dead.clone();
        let x = &mut *self.x;
        let run = self.run;
        let mut ticks = 0u64;
        let listed = each_initial(self.inst, dead.as_ref(), &mut |words, st| {
            ticks += 1;
            if ticks.is_multiple_of(4096)
                && let Some(l) = run.interrupted()
            {
                return Err(Found::Limit(l));
            }
            let mut key = Vec::new();
            x.canonical(st, &mut key, None);
            let state = if key.is_empty() { words } else { &key[..] };
            if state[..w] == first[..w] {
                init = Some(words.to_vec());
                return Err(Found::Nothing);
            }
            Ok(())
        });
        if let Found::Limit(l) = listed {
            return Err(Found::Limit(l));
        }
        let init = init.ok_or_else(|| lost("no initial state of the stem's first node"))?;
        let mut recs = vec![[&init[..], &[q0, ROOT]].concat()];
        for (state, q) in &nodes[1..] {
            let cur = recs.last().expect("recs starts with the initial record");
            let (words, cq) = (cur[..w].to_vec(), cur[w] as usize);
            let mut st = vec![0; self.inst.slots.len()];
            self.inst.unpack(&words, &mut st);
            let mut key = Vec::new();
            x.canonical(&st, &mut key, None);
            let mut next: Option<Vec<u64>> = None;
            x.expand(&words, &key, cq, false, &mut |s| {
                let table = if s.key.is_empty() { s.words } else { s.key };
                if next.is_none() && s.q as u64 == *q && table[..w] == state[..w] {
                    next = Some([s.words, &[*q, s.via]].concat());
                }
            })
            .map_err(|_| lost("a range error on the stem"))?;
            recs.push(next.ok_or_else(|| lost("no real step along the stem"))?);
        }
        Ok(recs)
    }
}
