//! Shorter lassos. The nested DFS reports the lasso its stacks hold: the stem is a
//! depth-first path, often far longer than needed. Once a lasso is known, this module
//! looks for a shorter one by breadth-first search in the product of the unreduced
//! instance (reference interpreter) with the property's Büchi automaton:
//! - the automaton states that the found lasso's word can be in at each position are
//!   worked out on the small product of the lasso with the automaton;
//! - without fairness: an accepting product node on the found cycle is chosen, and the
//!   result is a shortest stem to it followed by a shortest cycle through it;
//! - with fairness the cycle must stay weakly fair, so it is kept and only the stem is
//!   replaced by a shortest path to the cycle's first product node;
//! - a deadlock cycle (the stutter of a state with no successor) is kept and the stem
//!   replaced by a shortest path to that state with an automaton state from which the
//!   stutter is accepted;
//! - last, the same infinite run is written shorter where it repeats itself (a stem
//!   that ends the way the cycle does, a cycle that goes round twice).
//!
//! The searches stop at a node budget, the deadline or Ctrl-C; the caller replays the result
//! on the interpreter like any lasso and keeps the original when anything fails.

use super::ndfs::LtlProperty;
use crate::lasso::Lasso;
use crate::ltl::buchi::Buchi;
use crate::model::eval::{self, Step};
use crate::model::init::for_each_initial;
use crate::model::instance::{Instance, State};
use crate::model::ir::Model;
use crate::trace::replay_steps;
use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// A node of the product: a system state and an automaton state.
type Node = (State, usize);

/// Letters (atom bit masks) of states, evaluated by the interpreter.
struct Letters<'a> {
    inst: &'a Instance<'a>,
    p: &'a LtlProperty,
    env: Vec<i64>,
    process: Option<i64>,
}

impl Letters<'_> {
    fn of(&mut self, st: &[i64]) -> Option<u64> {
        let mut mask = 0u64;
        for (k, a) in self.p.atoms.iter().enumerate() {
            if let Some(pr) = self.process {
                self.env[0] = pr;
            }
            match eval::eval(self.inst, st, &mut self.env, a) {
                Ok(0) => {}
                Ok(_) => mask |= 1 << k,
                Err(_) => return None,
            }
        }
        Some(mask)
    }
}

/// Breadth-first searches over the product of the unreduced instance with the automaton.
struct Bfs<'a> {
    inst: &'a Instance<'a>,
    buchi: &'a Buchi,
    limits: &'a Limits,
}

/// When to give up looking for a shorter lasso.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Product nodes one breadth-first search may store (the search for a shortest fair
    /// cycle may do four times as much work in all, see `fair_lasso`).
    pub budget: usize,
    pub deadline: Option<Instant>,
    /// Set from outside (Ctrl-C).
    pub stop: Option<Arc<AtomicBool>>,
    /// Print a progress line on stderr about every second, headed by this label (e.g.
    /// `size 3`).
    pub progress: Option<String>,
    /// When the last progress line was printed (kept by the searches; start with the
    /// default).
    pub last_progress: Cell<Option<Instant>>,
}

impl Limits {
    /// Limits with a node budget, a deadline, an interrupt flag and progress lines.
    pub fn new(
        budget: usize,
        deadline: Option<Instant>,
        stop: Option<Arc<AtomicBool>>,
        progress: Option<String>,
    ) -> Limits {
        Limits {
            budget,
            deadline,
            stop,
            progress,
            last_progress: Cell::new(None),
        }
    }

    /// Whether a search that has stored `nodes` nodes (doing `what`) must stop: over
    /// the budget, or `interrupted`.
    fn exceeded(&self, what: &str, nodes: usize) -> bool {
        nodes > self.budget || self.interrupted(what, nodes)
    }

    /// Whether the deadline has passed or Ctrl-C was pressed; prints a progress line
    /// (`what`, `count` nodes so far) when one is due.
    fn interrupted(&self, what: &str, count: usize) -> bool {
        if self
            .stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            return true;
        }
        if self.deadline.is_none() && self.progress.is_none() {
            return false;
        }
        let now = Instant::now();
        if let Some(label) = &self.progress {
            match self.last_progress.get() {
                None => self.last_progress.set(Some(now)),
                Some(t) if now.duration_since(t).as_secs_f64() >= 1.0 => {
                    self.last_progress.set(Some(now));
                    eprintln!("nfold: {label}: shortening the lasso: {what}, {count} nodes");
                }
                _ => {}
            }
        }
        self.deadline.is_some_and(|d| now > d)
    }
}

impl Bfs<'_> {
    /// Shortest path (at least one step when `nonempty`) from one of `sources` to a node
    /// satisfying `is_target`: the source index, the steps, and the node reached.
    fn path(
        &self,
        letters: &mut Letters,
        sources: &[Node],
        nonempty: bool,
        is_target: &dyn Fn(&Node) -> bool,
    ) -> Option<(usize, Vec<Step>, Node)> {
        // parent[k] = (index of the parent, step), None for a source; the sources come
        // first, and root_source[k] is the index in `sources` of root node k.
        let mut nodes: Vec<Node> = Vec::new();
        let mut parent: Vec<Option<(usize, Step)>> = Vec::new();
        let mut root_source: Vec<usize> = Vec::new();
        let mut seen: HashSet<Node> = HashSet::new();
        for (k, s) in sources.iter().enumerate() {
            if !nonempty && is_target(s) {
                return Some((k, Vec::new(), s.clone()));
            }
            if seen.insert(s.clone()) {
                nodes.push(s.clone());
                parent.push(None);
                root_source.push(k);
            }
        }
        let mut head = 0;
        while head < nodes.len() {
            if self.limits.exceeded("a shortest path", nodes.len()) {
                return None;
            }
            let (st, q) = nodes[head].clone();
            let (succ, _) = eval::successors(self.inst, &st);
            for (step, next) in succ {
                let mask = letters.of(&next)?;
                for &q2 in &self.buchi.states[q].succ {
                    if !self.buchi.states[q2].matches(mask) {
                        continue;
                    }
                    let node = (next.clone(), q2);
                    if is_target(&node) {
                        let found = node;
                        let mut steps = vec![step];
                        let mut k = head;
                        while let Some((pk, s)) = &parent[k] {
                            steps.push(s.clone());
                            k = *pk;
                        }
                        steps.reverse();
                        return Some((root_source[k], steps, found));
                    }
                    if seen.insert(node.clone()) {
                        nodes.push(node);
                        parent.push(Some((head, step.clone())));
                    }
                }
            }
            head += 1;
        }
        None
    }
}

/// On the found lasso's word, for each position i and automaton state q: whether
/// (i, q) is *good* (reachable from an initial node, accepting, and on a cycle of the
/// lasso's product with the automaton) and whether it is *viable* (reachable and
/// reaching a good node, so that some accepting run passes through it). Positions are
/// the lasso's states without the closing repetition; `next[i]` is the position after i.
fn product_of_lasso(buchi: &Buchi, word: &[u64], next: &[usize]) -> (Vec<bool>, Vec<bool>) {
    let nq = buchi.states.len();
    let total = word.len() * nq;
    let succ: Vec<Vec<usize>> = (0..total)
        .map(|v| {
            let (i, q) = (v / nq, v % nq);
            let j = next[i];
            buchi.states[q]
                .succ
                .iter()
                .filter(|&&q2| buchi.states[q2].matches(word[j]))
                .map(|&q2| j * nq + q2)
                .collect()
        })
        .collect();
    let mut pred: Vec<Vec<usize>> = vec![Vec::new(); total];
    for (v, out) in succ.iter().enumerate() {
        for &w in out {
            pred[w].push(v);
        }
    }
    let closure = |from: &mut dyn Iterator<Item = usize>, edges: &[Vec<usize>]| {
        let mut seen = vec![false; total];
        let mut stack: Vec<usize> = from.collect();
        while let Some(v) = stack.pop() {
            if !std::mem::replace(&mut seen[v], true) {
                stack.extend(edges[v].iter().copied());
            }
        }
        seen
    };
    let reach = closure(
        &mut buchi
            .initial
            .iter()
            .copied()
            .filter(|&q| buchi.states[q].matches(word[0])),
        &succ,
    );
    let good: Vec<bool> = (0..total)
        .map(|v| {
            reach[v]
                && buchi.states[v % nq].accepting
                && closure(&mut succ[v].iter().copied(), &succ)[v]
        })
        .collect();
    let back = closure(&mut (0..total).filter(|&v| good[v]), &pred);
    let viable = (0..total).map(|v| reach[v] && back[v]).collect();
    (good, viable)
}

/// A lasso for the same property, size and process, at most as long as `lasso` and
/// with a shortest stem to its cycle (and, without fairness, a shortest cycle through
/// an accepting node of the found one); `None` when nothing shorter was found within
/// the limits. `states` are the states of `lasso` as its replay gave them; the result
/// still has to be replayed.
pub fn shorten(
    model: &Model,
    p: &LtlProperty,
    lasso: &Lasso,
    states: &[State],
    limits: &Limits,
) -> Option<Lasso> {
    let inst = Instance::new(model, lasso.size);
    let l = &model.ltls[p.prop];
    let mut letters = Letters {
        inst: &inst,
        p,
        env: vec![0; l.locals.len().max(1)],
        process: lasso.process,
    };
    let len = if lasso.is_deadlock() {
        states.len()
    } else {
        states.len() - 1
    };
    let word: Vec<u64> = states[..len]
        .iter()
        .map(|s| letters.of(s))
        .collect::<Option<_>>()?;
    let next: Vec<usize> = (0..len)
        .map(|i| {
            if i + 1 < len {
                i + 1
            } else {
                lasso.loop_start.min(len - 1)
            }
        })
        .collect();
    let (good, viable) = product_of_lasso(&p.buchi, &word, &next);
    let nq = p.buchi.states.len();
    let bfs = Bfs {
        inst: &inst,
        buchi: &p.buchi,
        limits,
    };
    let mut inits: Vec<Node> = Vec::new();
    for_each_initial(&inst, &mut |st| {
        if let Some(mask) = letters.of(st) {
            for &q in &p.buchi.initial {
                if p.buchi.states[q].matches(mask) {
                    inits.push((st.to_vec(), q));
                }
            }
        }
        true
    })
    .ok()?;
    let stem_to = |letters: &mut Letters, i: usize, qs: &[bool]| {
        let target = &states[i];
        bfs.path(letters, &inits, false, &|(s, q): &Node| {
            s == target && qs[*q]
        })
    };
    // A new lasso from (initial node, stem, cycle), kept when it replays (fairness
    // included) and is shorter than the found one.
    let make = |(init, stem, cycle): (State, Vec<Step>, Vec<Step>)| -> Option<Lasso> {
        let l = rotated(
            &inst,
            Lasso {
                init,
                loop_start: stem.len(),
                steps: [stem, cycle].concat(),
                ..lasso.clone()
            },
        );
        (l.steps.len() < lasso.steps.len() && l.replay(model).is_ok()).then_some(l)
    };
    if lasso.fair && !lasso.is_deadlock() {
        // A shortest fair cycle through an accepting node of the found cycle's component.
        let cycle_nodes: Vec<Node> = (lasso.loop_start..len)
            .flat_map(|i| (0..nq).map(move |q| (i, q)))
            .filter(|&(i, q)| good[i * nq + q])
            .map(|(i, q)| (states[i].clone(), q))
            .collect();
        let mut g = Graph::new(&inst, p, lasso.process, l.locals.len().max(1));
        let cycle_len = lasso.steps.len() - lasso.loop_start;
        if let Some(short) = fair_lasso(&mut g, &inits, &cycle_nodes, cycle_len, limits)
            .and_then(|(k, stem, cycle)| make((inits[k].0.clone(), stem, cycle)))
        {
            return Some(short);
        }
    }
    // The new lasso as (initial node, stem, cycle).
    let found = (|| -> Option<(usize, Vec<Step>, Vec<Step>)> {
        if lasso.fair || lasso.is_deadlock() {
            // Keep the cycle; a shortest stem to its first state in a viable automaton state.
            let ls = lasso.loop_start.min(len - 1);
            let (k, stem, _) = stem_to(&mut letters, ls, &viable[ls * nq..(ls + 1) * nq])?;
            Some((k, stem, lasso.steps[lasso.loop_start..].to_vec()))
        } else {
            // The accepting node of the found cycle nearest to an initial state: a shortest
            // stem to it, then a shortest cycle through it.
            let targets: Vec<Node> = (lasso.loop_start..len)
                .flat_map(|i| (0..nq).map(move |q| (i, q)))
                .filter(|&(i, q)| good[i * nq + q])
                .map(|(i, q)| (states[i].clone(), q))
                .collect();
            let (k, stem, node) =
                bfs.path(&mut letters, &inits, false, &|n| targets.contains(n))?;
            let (_, cycle, _) =
                bfs.path(&mut letters, std::slice::from_ref(&node), true, &|n| {
                    *n == node
                })?;
            Some((k, stem, cycle))
        }
    })();
    found
        .and_then(|(k, stem, cycle)| make((inits[k].0.clone(), stem, cycle)))
        // The found lasso itself may still be written shorter.
        .or_else(|| {
            make((
                lasso.init.clone(),
                lasso.steps[..lasso.loop_start].to_vec(),
                lasso.steps[lasso.loop_start..].to_vec(),
            ))
        })
}

/// The same infinite run, written shorter: the cycle entered one state earlier as long
/// as the state before the cycle equals the cycle's last state (and, under fairness,
/// the step into the cycle is the cycle's last step, so that the cycle's steps stay the
/// same), and a cycle that repeats a shorter one cut to one period.
fn rotated(inst: &Instance, mut l: Lasso) -> Lasso {
    let Ok(states) = replay_steps(inst, &l.init, &l.steps) else {
        return l;
    };
    let mut end = l.steps.len();
    while !l.is_deadlock()
        && l.loop_start > 0
        && states[l.loop_start - 1] == states[end - 1]
        && (!l.fair || l.steps[l.loop_start - 1] == l.steps[end - 1])
    {
        l.steps.pop();
        end -= 1;
        l.loop_start -= 1;
    }
    // A cycle that goes round a shorter cycle several times (the fairness copies make
    // the search find such): once round is the same infinite run. The same steps may
    // lead elsewhere from another state, so the state after one round must be the
    // cycle's first.
    let ls = l.loop_start;
    let cycle = l.steps[ls..].to_vec();
    if let Some(d) = (1..cycle.len())
        .filter(|&d| cycle.len().is_multiple_of(d))
        .find(|&d| {
            states[ls + d] == states[ls] && (d..cycle.len()).all(|j| cycle[j] == cycle[j - d])
        })
    {
        l.steps.truncate(l.loop_start + d);
    }
    l
}

/// The product of the unreduced instance with the automaton, built on demand with the
/// reference interpreter: system states and product nodes are numbered as they are met,
/// and each is expanded once.
struct Graph<'a> {
    inst: &'a Instance<'a>,
    buchi: &'a Buchi,
    letters: Letters<'a>,
    sys: Vec<State>,
    sys_index: HashMap<State, u32>,
    letter: Vec<u64>,
    /// Per system state once expanded: its successors (system state, executing process,
    /// 0 for none) in the interpreter's order, and the processes disabled in it (bit
    /// p - 1: no step of p is enabled).
    sys_succ: Vec<Option<(Vec<(u32, u32)>, u64)>>,
    nodes: Vec<(u32, u32)>,
    node_index: HashMap<(u32, u32), u32>,
    /// Per node once expanded: its successors (node, index of the system step).
    node_succ: Vec<Option<Vec<(u32, u32)>>>,
}

impl<'a> Graph<'a> {
    fn new(inst: &'a Instance<'a>, p: &'a LtlProperty, process: Option<i64>, nenv: usize) -> Self {
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
        if self.sys_succ[s as usize].is_none() {
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
            self.sys_succ[s as usize] = Some((out, full_mask(self.inst.n) & !enabled));
        }
        Some(self.sys_succ[s as usize].as_ref().unwrap().1)
    }

    /// The successors of node `v` (expanding it).
    fn succ(&mut self, v: u32) -> Option<Vec<(u32, u32)>> {
        if let Some(out) = &self.node_succ[v as usize] {
            return Some(out.clone());
        }
        let (s, q) = self.nodes[v as usize];
        self.disabled(s)?;
        let sys_succ = self.sys_succ[s as usize].as_ref().unwrap().0.clone();
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
        self.sys_succ[s as usize].as_ref().unwrap().0[k as usize].1
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

/// A shortest weakly fair cycle through node `a` of at most `max_len` steps, as (node,
/// step index) pairs from `a`: breadth-first over (node, the processes served so far),
/// where a process is served by executing a step of the cycle or by being disabled at
/// one of its states; the first return to `a` with every process served is a shortest
/// such cycle. An entry whose served set is contained in that of an entry met before at
/// the same node is dropped: whatever completes it completes the earlier one in as many
/// steps. `Err` when the work runs out.
fn fair_cycle(
    g: &mut Graph,
    a: u32,
    max_len: usize,
    work: &mut Work,
) -> Result<Option<Vec<(u32, u32)>>, ()> {
    let full = full_mask(g.inst.n);
    let start = g.disabled(g.nodes[a as usize].0).ok_or(())?;
    // (node, served, parent entry, step index from the parent, depth)
    let mut entries: Vec<(u32, u64, u32, u32, u32)> = vec![(a, start, u32::MAX, 0, 0)];
    let mut served_at: HashMap<u32, Vec<u64>> = HashMap::from([(a, vec![start])]);
    let mut head = 0;
    while head < entries.len() {
        let (v, served, _, _, depth) = entries[head];
        if depth as usize + 1 > max_len {
            break;
        }
        if !work.tick("a shortest fair cycle") || g.too_big(work.limits) {
            return Err(());
        }
        for (w, k) in g.succ(v).ok_or(())? {
            let p = g.process(v, k);
            let mut m = served | g.disabled(g.nodes[w as usize].0).ok_or(())?;
            if p > 0 {
                m |= 1 << (p - 1);
            }
            if w == a && m == full {
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
            if known.iter().all(|&x| x & m != m) {
                known.retain(|&x| x & m != x);
                known.push(m);
                entries.push((w, m, head as u32, k, depth + 1));
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
        let Some((seg, _)) = path_to(g, at, inside, work, &mut |_, _, _, w| Some(w == a))?
        else {
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
    Some((0..order.len()).filter(|&j| back[j]).map(|j| order[j]).collect())
}

/// Under weak fairness: a shortest weakly fair cycle through an accepting node of the
/// strongly connected components of the found cycle's accepting nodes (or, when a
/// component is too large to build within the limits, through those nodes alone), and a
/// shortest stem to one of the shortest cycles found. `cycle_nodes` are the found
/// cycle's accepting product nodes (state, automaton state); `max_len` the found
/// cycle's length. Returns (index of the initial node in `inits`, stem, cycle).
fn fair_lasso(
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
    // At most `SAMPLE` of them, evenly spread along the cycle, are the first candidates.
    let sample: Vec<u32> = if on_cycle.len() <= SAMPLE {
        on_cycle.clone()
    } else {
        (0..SAMPLE)
            .map(|i| on_cycle[i * on_cycle.len() / SAMPLE])
            .collect()
    };
    // The component of the first (within half the work).
    let mut half = Work {
        limits,
        done: 0,
        cap: work.cap / 2,
    };
    let comp = component(g, sample[0], &mut half);
    work.done = half.done;
    let inside: Option<HashSet<u32>> = comp.as_ref().map(|c| c.iter().copied().collect());
    let mut best = max_len;
    let mut shortest: Vec<Vec<(u32, u32)>> = Vec::new();
    let keep = |c: Vec<(u32, u32)>, best: &mut usize, shortest: &mut Vec<Vec<(u32, u32)>>| {
        if c.len() < *best {
            shortest.clear();
            *best = c.len();
        }
        if c.len() == *best {
            shortest.push(c);
        }
    };
    // A first bound, cheaply: a greedily built fair cycle through each candidate.
    for &a in &sample {
        if inside.as_ref().is_some_and(|c| !c.contains(&a)) {
            continue;
        }
        match greedy_fair_cycle(g, a, inside.as_ref(), &mut work) {
            Ok(Some(c)) => keep(c, &mut best, &mut shortest),
            Ok(None) => {}
            Err(()) => break,
        }
    }
    // Shortest fair cycles through the candidates, in rounds with a doubling bound on
    // the length, so that no candidate is searched far beyond the shortest cycle of
    // another. Ties are all kept (the stem goes to the nearest).
    let mut bound = 8;
    let mut out_of_work = false;
    'rounds: loop {
        bound = bound.min(best);
        let mut found = false;
        for &a in &sample {
            match fair_cycle(g, a, bound.min(best), &mut work) {
                Ok(Some(c)) => {
                    found = true;
                    keep(c, &mut best, &mut shortest);
                }
                Ok(None) => {}
                Err(()) => {
                    out_of_work = true;
                    break 'rounds;
                }
            }
        }
        if found || bound >= best {
            break;
        }
        bound *= 2;
    }
    // Then every other accepting node of the component, for a strictly shorter cycle.
    let mut seen: HashSet<u32> = sample.iter().copied().collect();
    if let (Some(comp), false) = (comp, out_of_work) {
        for v in comp {
            if best <= 1 {
                break;
            }
            if !g.accepting(v) || !seen.insert(v) {
                continue;
            }
            match fair_cycle(g, v, best - 1, &mut work) {
                Ok(Some(c)) => keep(c, &mut best, &mut shortest),
                Ok(None) => {}
                Err(()) => break,
            }
        }
    }
    if shortest.is_empty() {
        return None;
    }
    // A shortest stem to any node of those cycles; the cycle is entered there.
    let mut targets: HashMap<u32, (usize, usize)> = HashMap::new();
    for (c, cycle) in shortest.iter().enumerate() {
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
    let mut work = Work {
        limits,
        done: 0,
        cap: limits.budget.max(MIN_GRAPH),
    };
    let mut head = 0;
    let hit = loop {
        if head >= order.len() {
            return None;
        }
        let v = order[head].0;
        if targets.contains_key(&v) {
            break head;
        }
        if !work.tick("a shortest stem") {
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
    let (c, i) = targets[&order[hit].0];
    let cycle = &shortest[c];
    let rotated: Vec<(u32, u32)> = cycle[i..].iter().chain(&cycle[..i]).copied().collect();
    Some((root[e], g.steps(&stem), g.steps(&rotated)))
}
