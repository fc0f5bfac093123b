//! The second phase of the parallel fair-cycle search (`par`): the stored quotient
//! product (`par_graph`) decomposed into its maximal strongly connected components by
//! Tarjan's algorithm (R. Tarjan, "Depth-first search and linear graph algorithms",
//! SIAM J. Computing 1972; iterative, over the stored edges, without expanding a state
//! again), each component tested as it completes with the test of the sequential SCC
//! search (`scc`, whose module comment has the theorem): an accepting node, an edge
//! inside, and under fairness a served process in every orbit of the group H generated
//! by the edges' permutations.
//!
//! The theorem wants the permutations of a tree spanning the component from a root to
//! be the identity, which the sequential search gets from its own depth-first tree. The
//! stored graph's edges carry g_e relative to the representatives, so the component is
//! *re-based* first: a breadth-first search inside it from its first node b gives each
//! node v a permutation σ_v (σ_b = id, σ_v = σ_u ∘ g_e along the tree edge e = u → v),
//! i.e. the real base state s'_v = σ_v(s_v); then every edge e = u → v becomes
//! g'_e = σ_u ∘ g_e ∘ σ_v⁻¹ (the identity on tree edges), its process σ_u(p_e), and
//! the processes disabled at v become σ_v(D(v)). This is the same product seen from
//! other real states of the same orbits, so the test is the sequential search's test
//! on a complete maximal component, where it is exact both ways.

use super::par_graph::Graph;
use super::scc::{orbits_served, union};
use crate::explicit::par::prefetch::prefetch;
use crate::explicit::par::prof;
use std::collections::{HashMap, VecDeque};

/// `num` of a node whose component is complete; its `low` is then its component.
const DONE: u32 = u32::MAX;

/// A node on the depth-first call stack: its next edge, its edge count, where its
/// edges start.
struct Frame {
    v: u32,
    k: u32,
    edges: u32,
    arena: usize,
    at: usize,
}

/// The decomposition's state: depth-first numbers, low links, Tarjan's stack.
pub(super) struct Tarjan<'g> {
    g: &'g Graph,
    /// Per node its depth-first number and low link, side by side (one cache line).
    nl: Vec<[u32; 2]>,
    stack: Vec<u32>,
    components: u32,
    all: u64,
    /// Components tested as candidates (an accepting node and an edge inside).
    pub(super) candidates: u64,
    /// Profile figures (`prof`): CPU seconds in the tests, the largest component.
    pub(super) test_cpu: f64,
    pub(super) largest: usize,
}

impl<'g> Tarjan<'g> {
    pub(super) fn new(g: &'g Graph) -> Self {
        let n = g.n;
        Tarjan {
            g,
            nl: vec![[0, 0]; g.ids],
            stack: Vec::new(),
            components: 0,
            all: if n >= 64 { u64::MAX } else { (1 << n) - 1 },
            candidates: 0,
            test_cpu: 0.0,
            largest: 0,
        }
    }

    /// Bytes of the decomposition's arrays.
    pub(super) fn bytes(&self) -> usize {
        self.nl.capacity() * 8 + self.stack.capacity() * 4
    }

    /// Components completed.
    pub(super) fn components(&self) -> u32 {
        self.components
    }

    /// Whether node v lies in the complete component `c`.
    pub(super) fn in_component(&self, v: u32, c: u32) -> bool {
        self.nl[v as usize][0] == DONE && self.nl[v as usize][1] == c
    }

    /// Decompose, testing each component as it completes; the first violating one as
    /// (its first node, its number), or `None` when none violates. `stopped` is asked
    /// now and then whether to give up (then `Err`).
    pub(super) fn run(
        &mut self,
        stopped: &mut dyn FnMut() -> bool,
    ) -> Result<Option<(u32, u32)>, ()> {
        let g = self.g;
        // (node, next edge, edges, its arena, the offset of its first edge)
        let mut call: Vec<Frame> = Vec::new();
        let mut counter: u32 = 0;
        let mut ticks = 0u64;
        for (_, _, root) in g.records() {
            if self.nl[root as usize][0] != 0 {
                continue;
            }
            counter += 1;
            self.enter(root, counter, &mut call);
            while let Some(f) = call.last_mut() {
                ticks += 1;
                if ticks.is_multiple_of(1 << 16) && stopped() {
                    return Err(());
                }
                let v = f.v;
                if f.k < f.edges {
                    let a = &g.arenas[f.arena];
                    let t = a[f.at + f.k as usize * g.ew];
                    f.k += 1;
                    if f.k < f.edges {
                        // The next edge's target, if new, is entered soon: fetch its
                        // record (its index entry was asked for when v was entered).
                        let u = a[f.at + f.k as usize * g.ew];
                        if self.nl[u as usize][0] == 0 {
                            let (ut, uoff) = g.record_place(u);
                            prefetch(&g.arenas[ut][uoff]);
                        }
                    }
                    let nt = self.nl[t as usize][0];
                    if nt == 0 {
                        counter += 1;
                        self.enter(t, counter, &mut call);
                    } else if nt != DONE && nt < self.nl[v as usize][1] {
                        self.nl[v as usize][1] = nt;
                    }
                    continue;
                }
                call.pop();
                let lv = self.nl[v as usize][1];
                if let Some(u) = call.last()
                    && lv < self.nl[u.v as usize][1]
                {
                    self.nl[u.v as usize][1] = lv;
                }
                if lv == self.nl[v as usize][0] {
                    let at = self
                        .stack
                        .iter()
                        .rposition(|&x| x == v)
                        .expect("a component's root is on the Tarjan stack");
                    let members = self.stack.split_off(at);
                    let c = self.components;
                    self.components += 1;
                    for &m in &members {
                        self.nl[m as usize][0] = DONE;
                        self.nl[m as usize][1] = c;
                    }
                    self.largest = self.largest.max(members.len());
                    let t0 = if members.len() > 1 && prof::on() {
                        prof::thread_cpu()
                    } else {
                        0.0
                    };
                    let bad = self.violates(&members, c);
                    if t0 > 0.0 {
                        self.test_cpu += prof::thread_cpu() - t0;
                    }
                    if bad {
                        return Ok(Some((members[0], c)));
                    }
                }
            }
        }
        Ok(None)
    }

    fn enter(&mut self, v: u32, number: u32, call: &mut Vec<Frame>) {
        self.nl[v as usize][0] = number;
        self.nl[v as usize][1] = number;
        self.stack.push(v);
        let g = self.g;
        let (t, off) = g.record_place(v);
        let edges = g.edge_count(v) as u32;
        // The targets' numbers and records are read soon: ask for them all at once.
        let a = &g.arenas[t];
        for k in 0..edges as usize {
            let u = a[off + g.hw + k * g.ew] as usize;
            prefetch(&self.nl[u]);
            g.prefetch_record(u as u32);
        }
        call.push(Frame {
            v,
            k: 0,
            edges,
            arena: t,
            at: off + self.g.hw,
        });
    }

    /// The test of component `c` (its nodes `members`, first the one entered first).
    fn violates(&mut self, members: &[u32], c: u32) -> bool {
        let g = self.g;
        if !members.iter().any(|&v| g.accepting(v)) {
            return false;
        }
        let inner = |v: u32| (0..g.edge_count(v)).map(move |k| (k, g.target(v, k)));
        let has_edge = members
            .iter()
            .any(|&v| inner(v).any(|(_, t)| self.in_component(t, c)));
        if !has_edge {
            return false;
        }
        self.candidates += 1;
        if !g.fair {
            return true;
        }
        if !g.perms {
            let mut served = 0u64;
            for &v in members {
                served |= g.disabled(v);
                for (k, t) in inner(v) {
                    if self.in_component(t, c) {
                        served |= bit(g.edge(v, k)[1] as u8);
                    }
                }
            }
            return served & self.all == self.all;
        }
        self.orbits_test(members, c)
    }

    /// The fairness test under symmetry, on the re-based component (module comment).
    fn orbits_test(&self, members: &[u32], c: u32) -> bool {
        let g = self.g;
        let n = g.n;
        // σ of each node reached, n bytes each (1-based images).
        let mut sigma: Vec<u8> = Vec::with_capacity(members.len() * n);
        let mut at: HashMap<u32, usize> = HashMap::with_capacity(members.len());
        let mut parts: Vec<u8> = (0..n as u8).collect();
        let mut served = 0u64;
        let (mut ge, mut inv_v, mut gp) = (vec![0u8; n], vec![0u8; n], vec![0u8; n]);
        sigma.extend(1..=n as u8);
        at.insert(members[0], 0);
        let mut queue = VecDeque::from([members[0]]);
        while let Some(u) = queue.pop_front() {
            let su = at[&u];
            let dis = g.disabled(u);
            for i in 0..n {
                if dis >> i & 1 == 1 {
                    served |= 1 << (sigma[su * n + i] - 1);
                }
            }
            for k in 0..g.edge_count(u) {
                let e = g.edge(u, k);
                let v = e[0];
                if !self.in_component(v, c) {
                    continue;
                }
                let bytes = |i: usize| (e[1 + i / 4] >> (8 * (i % 4))) as u8;
                let p = bytes(0);
                if p > 0 {
                    served |= 1 << (sigma[su * n + p as usize - 1] - 1);
                }
                for (i, x) in ge.iter_mut().enumerate() {
                    *x = bytes(1 + i);
                }
                if let Some(&sv) = at.get(&v) {
                    // g' = σ_u ∘ g_e ∘ σ_v⁻¹ joins i and g'(i).
                    for i in 0..n {
                        inv_v[sigma[sv * n + i] as usize - 1] = i as u8 + 1;
                    }
                    for i in 0..n {
                        let a = inv_v[i] as usize - 1;
                        let b = ge[a] as usize - 1;
                        gp[i] = sigma[su * n + b];
                        if gp[i] as usize - 1 != i {
                            union(&mut parts, i, gp[i] as usize - 1);
                        }
                    }
                } else {
                    // A tree edge: σ_v = σ_u ∘ g_e, and g' = id.
                    let sv = sigma.len() / n;
                    for i in 0..n {
                        let img = sigma[su * n + ge[i] as usize - 1];
                        sigma.push(img);
                    }
                    at.insert(v, sv);
                    queue.push_back(v);
                }
            }
        }
        served &= self.all;
        served == self.all || orbits_served(&mut parts, served)
    }
}

fn bit(p: u8) -> u64 {
    if p == 0 { 0 } else { 1 << (p - 1) }
}
