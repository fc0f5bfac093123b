//! An independent check of LTL properties for the nested depth-first search: the
//! reachable product of an instance (built with the reference interpreter) with the Büchi
//! automaton of the negated property, split into strongly connected components
//! (Tarjan). A reachable component holds an accepting cycle that is weakly fair exactly
//! when it has an edge, an accepting node, and (under fairness) every process either
//! is disabled at one of its states or executes on one of its edges: the cycle through
//! every edge of such a component is fair, and if some process is enabled at all its
//! states and never executes inside it, no cycle inside it is fair. Also, by brute
//! force (breadth-first search from every node of a fair component), the lengths of
//! shortest fair accepting lassos, to pin shortened lassos.

use nfold::ltl::LtlProperty;
use nfold::model::eval;
use nfold::model::init::initial_states;
use nfold::model::instance::{Instance, State};
use nfold::model::ir::Model;
use std::collections::HashMap;

/// What the oracle found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Oracle {
    /// A reachable accepting (fair) cycle exists.
    Cycle,
    NoCycle,
    /// A reachable state raises a range error (in a transition or an atom).
    RangeError,
    /// More product nodes than the cap.
    TooBig,
}

/// The reachable product of an instance with the automaton, built with the reference
/// interpreter, split into strongly connected components.
pub struct Product {
    pub n: usize,
    /// Each node's system state and automaton state.
    pub nodes: Vec<(State, usize)>,
    /// Each node's successors: (node, executing process; 0 for a deadlock's stutter).
    pub edges: Vec<Vec<(usize, i64)>>,
    pub accepting: Vec<bool>,
    /// `enabled[v][p]`: process p (1-based) is enabled at node v's system state.
    pub enabled: Vec<Vec<bool>>,
    /// Each node's component (Tarjan).
    pub comp: Vec<usize>,
    /// The nodes built from initial states.
    pub initial: Vec<usize>,
}

/// Search the product for a reachable accepting cycle (weakly fair when `fair`).
pub fn check(
    model: &Model,
    n: usize,
    p: &LtlProperty,
    process: Option<i64>,
    fair: bool,
    cap: usize,
) -> Oracle {
    match product(model, n, p, process, cap) {
        Err(o) => o,
        Ok(g) => {
            if fair_components(&g, fair).is_empty() {
                Oracle::NoCycle
            } else {
                Oracle::Cycle
            }
        }
    }
}

/// The components that hold a reachable accepting cycle, weakly fair when `fair`: with
/// an edge inside, an accepting node, and (under fairness) every process disabled at
/// one of its states or executing on one of its edges.
pub fn fair_components(g: &Product, fair: bool) -> Vec<usize> {
    let n = g.n;
    let ncomp = g.comp.iter().copied().max().map_or(0, |c| c + 1);
    let mut has_edge = vec![false; ncomp];
    let mut accepting = vec![false; ncomp];
    let mut served = vec![vec![false; n + 1]; ncomp];
    for v in 0..g.nodes.len() {
        let c = g.comp[v];
        accepting[c] |= g.accepting[v];
        for (pr, &on) in g.enabled[v].iter().enumerate().skip(1) {
            if !on {
                served[c][pr] = true;
            }
        }
        for &(w, pr) in &g.edges[v] {
            if g.comp[w] == c {
                has_edge[c] = true;
                if pr > 0 {
                    served[c][pr as usize] = true;
                }
            }
        }
    }
    (0..ncomp)
        .filter(|&c| has_edge[c] && accepting[c] && (!fair || served[c][1..].iter().all(|&x| x)))
        .collect()
}

/// Lengths of shortest weakly fair accepting lassos, by brute force over the product.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LassoLengths {
    /// A shortest fair cycle through an accepting node, over every component.
    pub cycle: usize,
    /// A shortest stem (from an initial node) to a node on a cycle of that length.
    pub stem: usize,
    /// A shortest stem plus cycle over all lassos (the cycle need not be shortest).
    pub total: usize,
}

/// Shortest weakly fair accepting lassos (steps of processes only: no deadlock
/// stutter). For every node x of a fair component, c(x) is the length of a shortest
/// closed walk from x back to x that passes an accepting node and on which every
/// process executes or is disabled at some state (the definition of `Lasso::replay`:
/// no process enabled throughout and never executing), found by breadth-first search
/// over (node, processes executed, processes disabled somewhere, accepting passed);
/// d(x) is the breadth-first distance of x from the initial nodes. Then cycle = min c,
/// stem = min d over the x with c(x) = cycle, total = min d + c. `None` without a fair
/// component.
pub fn shortest_lassos(g: &Product) -> Option<LassoLengths> {
    use std::collections::{HashSet, VecDeque};
    let n = g.n;
    let all: u64 = if n >= 64 { u64::MAX } else { (1 << n) - 1 };
    let disabled = |v: usize| -> u64 {
        (1..=n)
            .filter(|&p| !g.enabled[v][p])
            .fold(0, |m, p| m | 1 << (p - 1))
    };
    let mut dist = vec![usize::MAX; g.nodes.len()];
    let mut queue: VecDeque<usize> = VecDeque::new();
    for &v in &g.initial {
        if dist[v] == usize::MAX {
            dist[v] = 0;
            queue.push_back(v);
        }
    }
    while let Some(v) = queue.pop_front() {
        for &(w, pr) in &g.edges[v] {
            if pr > 0 && dist[w] == usize::MAX {
                dist[w] = dist[v] + 1;
                queue.push_back(w);
            }
        }
    }
    let fair: HashSet<usize> = fair_components(g, true).into_iter().collect();
    let mut lens: Vec<(usize, usize)> = Vec::new(); // (c(x), d(x))
    for x in (0..g.nodes.len()).filter(|&x| fair.contains(&g.comp[x])) {
        let c = g.comp[x];
        let start = (x, 0u64, disabled(x), g.accepting[x]);
        let mut seen = HashSet::from([start]);
        let mut queue = VecDeque::from([(start, 0usize)]);
        let mut found = None;
        'bfs: while let Some(((v, e, d, acc), len)) = queue.pop_front() {
            for &(w, pr) in &g.edges[v] {
                if pr == 0 || g.comp[w] != c {
                    continue;
                }
                let next = (w, e | 1 << (pr - 1), d | disabled(w), acc || g.accepting[w]);
                if w == x && next.3 && (next.1 | next.2) == all {
                    found = Some(len + 1);
                    break 'bfs;
                }
                if seen.insert(next) {
                    queue.push_back((next, len + 1));
                }
            }
        }
        if let Some(l) = found {
            lens.push((l, dist[x]));
        }
    }
    let cycle = lens.iter().map(|&(c, _)| c).min()?;
    Some(LassoLengths {
        cycle,
        stem: lens
            .iter()
            .filter(|&&(c, _)| c == cycle)
            .map(|&(_, d)| d)
            .min()?,
        total: lens.iter().map(|&(c, d)| c + d).min()?,
    })
}

/// Build the reachable product (at most `cap` nodes).
pub fn product(
    model: &Model,
    n: usize,
    p: &LtlProperty,
    process: Option<i64>,
    cap: usize,
) -> Result<Product, Oracle> {
    let inst = Instance::new(model, n);
    let l = &model.ltls[p.prop];
    let Ok(inits) = initial_states(&inst) else {
        return Err(Oracle::RangeError);
    };
    let mut env = vec![0i64; l.locals.len().max(1)];
    let mut mask_of = |st: &State| -> Option<u64> {
        let mut m = 0;
        for (k, a) in p.atoms.iter().enumerate() {
            if let Some(pr) = process {
                env[0] = pr;
            }
            match eval::eval(&inst, st, &mut env, a) {
                Ok(0) => {}
                Ok(_) => m |= 1 << k,
                Err(_) => return None,
            }
        }
        Some(m)
    };
    let label = |q: usize, m: u64| {
        let s = &p.buchi.states[q];
        m & s.pos == s.pos && m & s.neg == 0
    };
    // The system graph, expanded only where the product reaches (as the nested search
    // does): successors with their executing process (0: a deadlock's stutter), the
    // enabled processes, and the atoms of every state met.
    struct Sys {
        succ: Vec<(usize, i64)>,
        enabled: Vec<bool>,
    }
    let mut sys_index: HashMap<State, usize> = HashMap::new();
    let mut sys_states: Vec<State> = Vec::new();
    let mut masks: Vec<u64> = Vec::new();
    let mut expanded: Vec<Option<Sys>> = Vec::new();
    let mut intern = |st: State,
                      sys_states: &mut Vec<State>,
                      masks: &mut Vec<u64>,
                      expanded: &mut Vec<Option<Sys>>|
     -> Option<usize> {
        if let Some(&i) = sys_index.get(&st) {
            return Some(i);
        }
        let m = mask_of(&st)?;
        sys_index.insert(st.clone(), sys_states.len());
        sys_states.push(st);
        masks.push(m);
        expanded.push(None);
        Some(sys_states.len() - 1)
    };
    let mut index: HashMap<(usize, usize), usize> = HashMap::new();
    let mut nodes: Vec<(usize, usize)> = Vec::new();
    let mut edges: Vec<Vec<(usize, i64)>> = Vec::new();
    let mut stack = Vec::new();
    let mut stack_roots = Vec::new();
    for st in inits {
        let Some(s) = intern(st, &mut sys_states, &mut masks, &mut expanded) else {
            return Err(Oracle::RangeError);
        };
        for &q in &p.buchi.initial {
            if label(q, masks[s]) && !index.contains_key(&(s, q)) {
                index.insert((s, q), nodes.len());
                nodes.push((s, q));
                stack.push(nodes.len() - 1);
                stack_roots.push(nodes.len() - 1);
            }
        }
    }
    while let Some(v) = stack.pop() {
        if nodes.len() > cap {
            return Err(Oracle::TooBig);
        }
        let (s, q) = nodes[v];
        if expanded[s].is_none() {
            let (succ, errs) = eval::successors(&inst, &sys_states[s]);
            if !errs.is_empty() {
                return Err(Oracle::RangeError);
            }
            let mut en = vec![false; n + 1];
            let mut out = Vec::new();
            for (step, s2) in succ {
                let pr = step.params.first().copied().unwrap_or(0);
                if pr > 0 {
                    en[pr as usize] = true;
                }
                let Some(j) = intern(s2, &mut sys_states, &mut masks, &mut expanded) else {
                    return Err(Oracle::RangeError);
                };
                out.push((j, pr));
            }
            if out.is_empty() {
                out.push((s, 0)); // a deadlock repeats forever
            }
            expanded[s] = Some(Sys {
                succ: out,
                enabled: en,
            });
        }
        let mut out = Vec::new();
        let sys = expanded[s].as_ref().unwrap();
        for &(s2, pr) in &sys.succ {
            for &q2 in &p.buchi.states[q].succ {
                if !label(q2, masks[s2]) {
                    continue;
                }
                let w = match index.get(&(s2, q2)) {
                    Some(&w) => w,
                    None => {
                        let w = nodes.len();
                        index.insert((s2, q2), w);
                        nodes.push((s2, q2));
                        stack.push(w);
                        w
                    }
                };
                out.push((w, pr));
            }
        }
        if edges.len() <= v {
            edges.resize(v + 1, Vec::new());
        }
        edges[v] = out;
    }
    edges.resize(nodes.len(), Vec::new());
    let comp = tarjan(&edges);
    let initial = stack_roots;
    Ok(Product {
        n,
        accepting: nodes
            .iter()
            .map(|&(_, q)| p.buchi.states[q].accepting)
            .collect(),
        enabled: nodes
            .iter()
            .map(|&(s, _)| expanded[s].as_ref().unwrap().enabled.clone())
            .collect(),
        nodes: nodes
            .iter()
            .map(|&(s, q)| (sys_states[s].clone(), q))
            .collect(),
        edges,
        comp,
        initial,
    })
}

/// Strongly connected components (iterative Tarjan): the component of each node,
/// numbered from 0 in the order they close. Edges are (target, label); the labels are
/// not read.
pub fn tarjan<T>(edges: &[Vec<(usize, T)>]) -> Vec<usize> {
    let n = edges.len();
    const NONE: usize = usize::MAX;
    let mut index = vec![NONE; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut comp = vec![NONE; n];
    let mut next_index = 0;
    let mut next_comp = 0;
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut k)) = call.last_mut() {
            if *k < edges[v].len() {
                let w = edges[v][*k].0;
                *k += 1;
                if index[w] == NONE {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    loop {
                        let w = stack.pop().unwrap();
                        on_stack[w] = false;
                        comp[w] = next_comp;
                        if w == v {
                            break;
                        }
                    }
                    next_comp += 1;
                }
            }
        }
    }
    comp
}
