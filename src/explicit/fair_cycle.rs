//! Shortest weakly fair cycles for the lasso shortening (`shorten`). It owns the
//! product of the unreduced instance with the Büchi automaton, built on demand with the
//! reference interpreter (`Graph`), and the searches on it:
//! - the strongly connected component of an accepting node of the found cycle
//!   (forward breadth-first search, then backward reachability inside it);
//! - a shortest weakly fair cycle through an accepting node: breadth-first search over
//!   (node, processes served so far), where a process is served by executing a step
//!   of the cycle or by being disabled at one of its states, with entries dominated by
//!   an earlier one at the same node dropped; a cheap greedy cycle first gives a bound,
//!   then the candidates are searched in rounds with a doubling length bound, then
//!   every other accepting node of the component for a strictly shorter cycle;
//! - a shortest stem (breadth-first from the initial nodes) to any node of the
//!   shortest cycles found, where the cycle is entered.
//!
//! Weak fairness on a cycle is the condition `Lasso::replay` checks: no process is
//! enabled at every state of the cycle without executing on it. Every search counts
//! its work against `Limits` and gives up (the found lasso is then kept).

use super::product::{Letters, Limits, Node};
use crate::ltl::LtlProperty;
use crate::ltl::buchi::Buchi;
use crate::model::eval::{self, Step};
use crate::model::instance::{Instance, State};
use std::collections::{HashMap, HashSet};

/// A system state once expanded: its successors (system state, executing process, 0 for
/// none) in the interpreter's order, and the processes disabled in it (bit p - 1: no
/// step of p is enabled).
type Expanded = (Vec<(u32, u32)>, u64);

/// The product of the unreduced instance with the automaton, built on demand with the
/// reference interpreter: system states and product nodes are numbered as they are met,
/// and each is expanded once.
pub(super) struct Graph<'a> {
    inst: &'a Instance<'a>,
    buchi: &'a Buchi,
    letters: Letters<'a>,
    sys: Vec<State>,
    sys_index: HashMap<State, u32>,
    letter: Vec<u64>,
    /// Per system state, once expanded.
    sys_succ: Vec<Option<Expanded>>,
    nodes: Vec<(u32, u32)>,
    node_index: HashMap<(u32, u32), u32>,
    /// Per node once expanded: its successors (node, index of the system step).
    node_succ: Vec<Option<Vec<(u32, u32)>>>,
}

impl<'a> Graph<'a> {
    pub(super) fn new(
        inst: &'a Instance<'a>,
        p: &'a LtlProperty,
        process: Option<i64>,
        nenv: usize,
    ) -> Self {
        Graph {
            inst,
            buchi: &p.buchi,
            letters: Letters {
                inst,
                p,
                env: vec![0; nenv],
                process,
            },
            sys: Vec::new(),
            sys_index: HashMap::new(),
            letter: Vec::new(),
            sys_succ: Vec::new(),
            nodes: Vec::new(),
            node_index: HashMap::new(),
            node_succ: Vec::new(),
        }
    }

    /// The number of a system state (`None` when an atom cannot be evaluated on it).
    fn sys_id(&mut self, st: &[i64]) -> Option<u32> {
        if let Some(&i) = self.sys_index.get(st) {
            return Some(i);
        }
        let m = self.letters.of(st)?;
        let i = self.sys.len() as u32;
        self.sys_index.insert(st.to_vec(), i);
        self.sys.push(st.to_vec());
        self.letter.push(m);
        self.sys_succ.push(None);
        Some(i)
    }

    fn node(&mut self, s: u32, q: usize) -> u32 {
        let key = (s, q as u32);
        if let Some(&v) = self.node_index.get(&key) {
            return v;
        }
        let v = self.nodes.len() as u32;
        self.node_index.insert(key, v);
        self.nodes.push(key);
        self.node_succ.push(None);
        v
    }

    /// The processes disabled in system state `s` (expanding it).
    fn disabled(&mut self, s: u32) -> Option<u64> {
        if let Some((_, disabled)) = self.sys_succ[s as usize] {
            return Some(disabled);
        }
        let (succ, _) = eval::successors(self.inst, &self.sys[s as usize]);
        let mut enabled = 0u64;
        let mut out = Vec::with_capacity(succ.len());
        for (step, next) in succ {
            let pr = step.params.first().copied().unwrap_or(0).max(0) as u32;
            if pr > 0 {
                enabled |= 1 << (pr - 1);
            }
            out.push((self.sys_id(&next)?, pr));
        }
        let disabled = full_mask(self.inst.n) & !enabled;
        self.sys_succ[s as usize] = Some((out, disabled));
        Some(disabled)
    }

    /// The successors of node `v` (expanding it).
    fn succ(&mut self, v: u32) -> Option<Vec<(u32, u32)>> {
        if let Some(out) = &self.node_succ[v as usize] {
            return Some(out.clone());
        }
        let (s, q) = self.nodes[v as usize];
        self.disabled(s)?;
        let sys_succ = self.sys_succ[s as usize]
            .as_ref()
            .expect("disabled() expanded the state")
            .0
            .clone();
        let mut out = Vec::new();
        for (k, &(s2, _)) in sys_succ.iter().enumerate() {
            let letter = self.letter[s2 as usize];
            for i in 0..self.buchi.states[q as usize].succ.len() {
                let q2 = self.buchi.states[q as usize].succ[i];
                if self.buchi.states[q2].matches(letter) {
                    out.push((self.node(s2, q2), k as u32));
                }
            }
        }
        self.node_succ[v as usize] = Some(out.clone());
        Some(out)
    }

    /// The executing process of step k from node v (v expanded).
    fn process(&self, v: u32, k: u32) -> u32 {
        let s = self.nodes[v as usize].0;
        self.sys_succ[s as usize]
            .as_ref()
            .expect("the caller expanded v")
            .0[k as usize]
            .1
    }

    /// Whether the graph has outgrown the limits (`MIN_GRAPH`).
    fn too_big(&self, limits: &Limits) -> bool {
        self.nodes.len() > limits.budget.max(MIN_GRAPH)
    }

    fn accepting(&self, v: u32) -> bool {
        self.buchi.states[self.nodes[v as usize].1 as usize].accepting
    }

    /// The interpreter's steps along a path given as (node, step index) pairs.
    fn steps(&self, path: &[(u32, u32)]) -> Vec<Step> {
        path.iter()
            .map(|&(v, k)| {
                let s = self.nodes[v as usize].0;
                let (mut succ, _) = eval::successors(self.inst, &self.sys[s as usize]);
                succ.swap_remove(k as usize).0
            })
            .collect()
    }
}

/// Bit p - 1 for every process p of 1..=n.
fn full_mask(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// Units of work (nodes taken from a queue) the fair-cycle search may do per node of
/// the shortening budget: it runs one breadth-first search per candidate node, each
/// mostly over nodes already built, so a unit costs far less than building a node.
const WORK_PER_BUDGET: usize = 16;

/// The least work the fair-cycle search may do (about a second).
const MIN_WORK: usize = 1_000_000;

/// How many of the found cycle's accepting nodes the first rounds start from.
const SAMPLE: usize = 32;

/// Product nodes the fair-cycle search may build: the budget, but at least this many.
const MIN_GRAPH: usize = 100_000;

/// Work done by the fair-cycle search, against the limits.
struct Work<'a> {
    limits: &'a Limits,
    done: usize,
    cap: usize,
}

impl Work<'_> {
    /// Count one unit; false when the search must stop.
    fn tick(&mut self, what: &str) -> bool {
        self.done += 1;
        self.done <= self.cap && !self.limits.interrupted(what, self.done)
    }
}

/// A shortest weakly fair cycle through node `a` that passes an accepting node, of at
/// most `max_len` steps, as (node, step index) pairs from `a`: breadth-first over
/// (node, the processes served so far, whether an accepting node was passed), where a
/// process is served by executing a step of the cycle or by being disabled at one of
/// its states; the first return to `a` with every process served and an accepting node
/// passed is a shortest such cycle. An entry whose served set is contained in that of
/// an entry met before at the same node (and that has passed no accepting node the
/// earlier one had not) is dropped: whatever completes it completes the earlier one in
/// as many steps. Successors outside `inside` (the component of `a`, when known) are
/// skipped: no cycle through `a` leaves its component. `Err` when the work runs out.
fn fair_cycle(
    g: &mut Graph,
    a: u32,
    inside: Option<&HashSet<u32>>,
    max_len: usize,
    work: &mut Work,
) -> Result<Option<Vec<(u32, u32)>>, ()> {
    let full = full_mask(g.inst.n);
    let start = (g.disabled(g.nodes[a as usize].0).ok_or(())?, g.accepting(a));
    // (node, (served, accepting passed), parent entry, step index from the parent, depth)
    type Entry = (u32, (u64, bool), u32, u32, u32);
    let mut entries: Vec<Entry> = vec![(a, start, u32::MAX, 0, 0)];
    let mut served_at: HashMap<u32, Vec<(u64, bool)>> = HashMap::from([(a, vec![start])]);
    // Whether `x` has served at least what `y` has.
    let covers = |x: (u64, bool), y: (u64, bool)| x.0 & y.0 == y.0 && (x.1 || !y.1);
    let mut head = 0;
    while head < entries.len() {
        let (v, (served, acc), _, _, depth) = entries[head];
        if depth as usize + 1 > max_len {
            break;
        }
        if !work.tick("a shortest fair cycle") || g.too_big(work.limits) {
            return Err(());
        }
        for (w, k) in g.succ(v).ok_or(())? {
            if inside.is_some_and(|c| !c.contains(&w)) {
                continue;
            }
            let p = g.process(v, k);
            let mut m = served | g.disabled(g.nodes[w as usize].0).ok_or(())?;
            if p > 0 {
                m |= 1 << (p - 1);
            }
            let next = (m, acc || g.accepting(w));
            if w == a && next == (full, true) {
                let mut path = vec![(v, k)];
                let mut e = head;
                while entries[e].2 != u32::MAX {
                    let (pv, pk) = (entries[entries[e].2 as usize].0, entries[e].3);
                    path.push((pv, pk));
                    e = entries[e].2 as usize;
                }
                path.reverse();
                return Ok(Some(path));
            }
            let known = served_at.entry(w).or_default();
            if !known.iter().any(|&x| covers(x, next)) {
                known.retain(|&x| !covers(next, x));
                known.push(next);
                entries.push((w, next, head as u32, k, depth + 1));
            }
        }
        head += 1;
    }
    Ok(None)
}

/// A shortest path from `from` whose last step (v, k) to w satisfies `target`, as (node,
/// step index) pairs and the node w it ends at, staying inside `inside` when given.
/// `Err` when the work runs out.
type PathEnd = (Vec<(u32, u32)>, u32);
fn path_to(
    g: &mut Graph,
    from: u32,
    inside: Option<&HashSet<u32>>,
    work: &mut Work,
    target: &mut dyn FnMut(&mut Graph, u32, u32, u32) -> Option<bool>,
) -> Result<Option<PathEnd>, ()> {
    let mut order: Vec<(u32, u32, u32)> = vec![(from, u32::MAX, 0)];
    let mut seen: HashSet<u32> = HashSet::from([from]);
    let mut head = 0;
    while head < order.len() {
        if !work.tick("a fair cycle") || g.too_big(work.limits) {
            return Err(());
        }
        let v = order[head].0;
        for (w, k) in g.succ(v).ok_or(())? {
            if inside.is_some_and(|c| !c.contains(&w)) {
                continue;
            }
            if target(g, v, k, w).ok_or(())? {
                let mut path = vec![(v, k)];
                let mut e = head;
                while order[e].1 != u32::MAX {
                    path.push((order[order[e].1 as usize].0, order[e].2));
                    e = order[e].1 as usize;
                }
                path.reverse();
                return Ok(Some((path, w)));
            }
            if seen.insert(w) {
                order.push((w, head as u32, k));
            }
        }
        head += 1;
    }
    Ok(None)
}

/// A weakly fair cycle through `a`, built greedily: from where it has got to, a
/// shortest path to the nearest step that serves a process not served yet (a step of
/// it, or a step into a state where it is disabled), until every process is served;
/// then a shortest path back to `a`. Not always a shortest fair cycle, but found by
/// at most n + 1 plain breadth-first searches. Paths stay inside `inside` (the
/// component of `a`) when given.
fn greedy_fair_cycle(
    g: &mut Graph,
    a: u32,
    inside: Option<&HashSet<u32>>,
    work: &mut Work,
) -> Result<Option<Vec<(u32, u32)>>, ()> {
    let full = full_mask(g.inst.n);
    let mut served = g.disabled(g.nodes[a as usize].0).ok_or(())?;
    let mut cycle: Vec<(u32, u32)> = Vec::new();
    let mut at = a;
    let serves = |g: &mut Graph, v: u32, k: u32, w: u32| -> Option<u64> {
        let p = g.process(v, k);
        let mut m = g.disabled(g.nodes[w as usize].0)?;
        if p > 0 {
            m |= 1 << (p - 1);
        }
        Some(m)
    };
    while served != full {
        let s = served;
        let Some((seg, end)) = path_to(g, at, inside, work, &mut |g, v, k, w| {
            Some(serves(g, v, k, w)? & !s != 0)
        })?
        else {
            return Ok(None);
        };
        for (i, &(v, k)) in seg.iter().enumerate() {
            served |= serves(g, v, k, seg.get(i + 1).map_or(end, |e| e.0)).ok_or(())?;
        }
        cycle.extend(seg);
        at = end;
    }
    if at != a || cycle.is_empty() {
        let Some((seg, _)) = path_to(g, at, inside, work, &mut |_, _, _, w| Some(w == a))? else {
            return Ok(None);
        };
        cycle.extend(seg);
    }
    Ok(Some(cycle))
}

/// The strongly connected component of node `a` in the product: the nodes reachable
/// from `a` that reach `a` back. `None` when the work runs out first.
fn component(g: &mut Graph, a: u32, work: &mut Work) -> Option<Vec<u32>> {
    let mut order = vec![a];
    let mut at: HashMap<u32, usize> = HashMap::from([(a, 0)]);
    let mut pred: Vec<Vec<usize>> = vec![Vec::new()];
    let mut head = 0;
    while head < order.len() {
        // At most half the graph's room, so that the other searches keep some.
        if !work.tick("the component of the cycle")
            || 2 * g.nodes.len() > work.limits.budget.max(MIN_GRAPH)
        {
            return None;
        }
        for (w, _) in g.succ(order[head])? {
            let j = *at.entry(w).or_insert_with(|| {
                order.push(w);
                pred.push(Vec::new());
                order.len() - 1
            });
            pred[j].push(head);
        }
        head += 1;
    }
    let mut back = vec![false; order.len()];
    let mut stack = vec![0];
    while let Some(j) = stack.pop() {
        if !std::mem::replace(&mut back[j], true) {
            stack.extend(pred[j].iter().copied());
        }
    }
    Some(
        (0..order.len())
            .filter(|&j| back[j])
            .map(|j| order[j])
            .collect(),
    )
}

/// Under weak fairness: a shortest weakly fair cycle through an accepting node of the
/// strongly connected components of the found cycle's accepting nodes (or, when a
/// component is too large to build within the limits, through those nodes alone), and a
/// shortest stem to one of the shortest cycles found. `cycle_nodes` are the found
/// cycle's accepting product nodes (state, automaton state); `max_len` the found
/// cycle's length. Returns (index of the initial node in `inits`, stem, cycle).
pub(super) fn fair_lasso(
    g: &mut Graph,
    inits: &[Node],
    cycle_nodes: &[Node],
    max_len: usize,
    limits: &Limits,
) -> Option<(usize, Vec<Step>, Vec<Step>)> {
    let mut work = Work {
        limits,
        done: 0,
        cap: limits.budget.saturating_mul(WORK_PER_BUDGET).max(MIN_WORK),
    };
    let sample = candidates(g, cycle_nodes)?;
    // The component of the first (within half the work).
    let mut half = Work {
        limits,
        done: 0,
        cap: work.cap / 2,
    };
    let comp = component(g, sample[0], &mut half);
    work.done = half.done;
    let inside: Option<HashSet<u32>> = comp.as_ref().map(|c| c.iter().copied().collect());
    let mut shortest = Shortest {
        best: max_len,
        cycles: Vec::new(),
    };
    greedy_bound(g, &sample, inside.as_ref(), &mut shortest, &mut work);
    let out_of_work = in_rounds(g, &sample, inside.as_ref(), &mut shortest, &mut work);
    if let (Some(comp), false) = (comp, out_of_work) {
        rest_of_component(g, &sample, &comp, inside.as_ref(), &mut shortest, &mut work);
    }
    if shortest.cycles.is_empty() {
        return None;
    }
    shortest_stem(
        g,
        inits,
        &shortest,
        inside.as_ref(),
        !out_of_work,
        &mut work,
    )
}

/// The found cycle's accepting nodes the first rounds start from: at most `SAMPLE` of
/// them, evenly spread along the cycle, so that a long cycle costs no more than a short
/// one. `None` when there are none (or an atom cannot be evaluated on one).
fn candidates(g: &mut Graph, cycle_nodes: &[Node]) -> Option<Vec<u32>> {
    let mut on_cycle: Vec<u32> = Vec::new();
    for (st, q) in cycle_nodes {
        let s = g.sys_id(st)?;
        let v = g.node(s, *q);
        if !on_cycle.contains(&v) {
            on_cycle.push(v);
        }
    }
    if on_cycle.is_empty() {
        return None;
    }
    Some(if on_cycle.len() <= SAMPLE {
        on_cycle
    } else {
        (0..SAMPLE)
            .map(|i| on_cycle[i * on_cycle.len() / SAMPLE])
            .collect()
    })
}

/// The shortest fair cycles found so far, all of the shortest length: ties are kept so
/// that the stem can go to the nearest.
struct Shortest {
    best: usize,
    cycles: Vec<Vec<(u32, u32)>>,
}

impl Shortest {
    /// Keep `c` if it is no longer than the best so far (dropping the longer ones).
    fn keep(&mut self, c: Vec<(u32, u32)>) {
        if c.len() < self.best {
            self.cycles.clear();
            self.best = c.len();
        }
        if c.len() == self.best {
            self.cycles.push(c);
        }
    }
}

/// A first bound, cheaply: a greedily built fair cycle through each candidate.
fn greedy_bound(
    g: &mut Graph,
    sample: &[u32],
    inside: Option<&HashSet<u32>>,
    shortest: &mut Shortest,
    work: &mut Work,
) {
    for &a in sample {
        if inside.is_some_and(|c| !c.contains(&a)) {
            continue;
        }
        match greedy_fair_cycle(g, a, inside, work) {
            Ok(Some(c)) => shortest.keep(c),
            Ok(None) => {}
            Err(()) => break,
        }
    }
}

/// Shortest fair cycles through the candidates, in rounds with a doubling bound on the
/// length, so that no candidate is searched far beyond the shortest cycle of another.
/// True when the work ran out.
fn in_rounds(
    g: &mut Graph,
    sample: &[u32],
    inside: Option<&HashSet<u32>>,
    shortest: &mut Shortest,
    work: &mut Work,
) -> bool {
    let mut bound = 8;
    loop {
        bound = bound.min(shortest.best);
        let mut found = false;
        for &a in sample {
            let within = inside.filter(|c| c.contains(&a));
            match fair_cycle(g, a, within, bound.min(shortest.best), work) {
                Ok(Some(c)) => {
                    found = true;
                    shortest.keep(c);
                }
                Ok(None) => {}
                Err(()) => return true,
            }
        }
        if found || bound >= shortest.best {
            return false;
        }
        bound *= 2;
    }
}

/// Every accepting node of the component not among the candidates, for a strictly
/// shorter cycle.
fn rest_of_component(
    g: &mut Graph,
    sample: &[u32],
    comp: &[u32],
    inside: Option<&HashSet<u32>>,
    shortest: &mut Shortest,
    work: &mut Work,
) {
    let mut seen: HashSet<u32> = sample.iter().copied().collect();
    for &v in comp {
        if shortest.best <= 1 {
            break;
        }
        if !g.accepting(v) || !seen.insert(v) {
            continue;
        }
        match fair_cycle(g, v, inside, shortest.best - 1, work) {
            Ok(Some(c)) => shortest.keep(c),
            Ok(None) => {}
            Err(()) => break,
        }
    }
}

/// A shortest stem to a node on a shortest fair cycle: breadth-first from the initial
/// nodes, the first node met that lies on one of the cycles found, or (while the work
/// lasts, when `try_cycles`) through which a fair cycle of the shortest length passes.
/// The cycle is entered there. Returns (index of the initial node in `inits`, stem,
/// cycle).
fn shortest_stem(
    g: &mut Graph,
    inits: &[Node],
    shortest: &Shortest,
    inside: Option<&HashSet<u32>>,
    mut try_cycles: bool,
    work: &mut Work,
) -> Option<(usize, Vec<Step>, Vec<Step>)> {
    let mut targets: HashMap<u32, (usize, usize)> = HashMap::new();
    for (c, cycle) in shortest.cycles.iter().enumerate() {
        for (i, &(v, _)) in cycle.iter().enumerate() {
            targets.entry(v).or_insert((c, i));
        }
    }
    let mut order: Vec<(u32, u32, u32)> = Vec::new(); // (node, parent entry, step index)
    let mut seen: HashSet<u32> = HashSet::new();
    let mut root: Vec<usize> = Vec::new();
    for (k, (st, q)) in inits.iter().enumerate() {
        let s = g.sys_id(st)?;
        let v = g.node(s, *q);
        if seen.insert(v) {
            order.push((v, u32::MAX, 0));
            root.push(k);
        }
    }
    let mut stem_work = Work {
        limits: work.limits,
        done: 0,
        cap: work.limits.budget.max(MIN_GRAPH),
    };
    let mut head = 0;
    let (hit, cycle) = loop {
        if head >= order.len() {
            return None;
        }
        let v = order[head].0;
        if let Some(&(c, i)) = targets.get(&v) {
            let cycle = &shortest.cycles[c];
            break (
                head,
                cycle[i..].iter().chain(&cycle[..i]).copied().collect(),
            );
        }
        if try_cycles && inside.is_none_or(|c| c.contains(&v)) {
            let within = inside.filter(|c| c.contains(&v));
            match fair_cycle(g, v, within, shortest.best, work) {
                Ok(Some(c)) => break (head, c),
                Ok(None) => {}
                Err(()) => try_cycles = false,
            }
        }
        if !stem_work.tick("a shortest stem") {
            return None;
        }
        for (w, k) in g.succ(v)? {
            if seen.insert(w) {
                order.push((w, head as u32, k));
            }
        }
        head += 1;
    };
    let mut stem = Vec::new();
    let mut e = hit;
    while order[e].1 != u32::MAX {
        let parent = order[e].1 as usize;
        stem.push((order[parent].0, order[e].2));
        e = parent;
    }
    stem.reverse();
    Some((root[e], g.steps(&stem), g.steps(&cycle)))
}
