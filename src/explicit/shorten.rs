//! Shorter lassos. The nested DFS reports the lasso its stacks hold: the stem is a
//! depth-first path, often far longer than needed, and under fairness the cycle winds
//! through the N+1 Choueka copies. Once a lasso is known, this module looks for a
//! shorter one by breadth-first search in the product of the unreduced instance
//! (reference interpreter) with the property's Büchi automaton:
//! - the automaton states that the found lasso's word can be in at each position are
//!   worked out on the small product of the lasso with the automaton;
//! - without fairness: an accepting product node on the found cycle is chosen, and the
//!   result is a shortest stem to it followed by a shortest cycle through it;
//! - with fairness: a shortest weakly fair cycle through an accepting node of the
//!   found cycle's strongly connected component, and a shortest stem to it
//!   (`fair_cycle`); failing that, the found cycle is kept and only the stem replaced
//!   by a shortest path to the cycle's first product node;
//! - a deadlock cycle (the stutter of a state with no successor) is kept and the stem
//!   replaced by a shortest path to that state with an automaton state from which the
//!   stutter is accepted;
//! - last, the same infinite run is written shorter where it repeats itself (a stem
//!   that ends the way the cycle does, a cycle that goes round twice).
//!
//! The searches stop at a node budget, the deadline or Ctrl-C; a result is kept only
//! when it is shorter and replays (fairness included), and the caller replays it again
//! like any lasso and keeps the original when anything fails.

use super::fair_cycle::{Graph, fair_lasso};
use super::product::{Letters, Limits, Node};
use crate::lasso::Lasso;
use crate::ltl::LtlProperty;
use crate::ltl::buchi::Buchi;
use crate::model::eval::{self, Step};
use crate::model::init::for_each_initial;
use crate::model::instance::{Instance, State};
use crate::model::ir::Model;
use crate::trace::replay_steps;
use std::collections::HashSet;

/// How many initial states or sources are handled between two polls of the limits.
const POLL: usize = 1024;

/// Breadth-first searches over the product of the unreduced instance with the automaton.
struct Bfs<'a> {
    inst: &'a Instance<'a>,
    buchi: &'a Buchi,
    limits: &'a Limits,
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
            if k.is_multiple_of(POLL) && self.limits.interrupted("a shortest path", k) {
                return None;
            }
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
    let (len, word, next) = lasso_word(&mut letters, lasso, states)?;
    let (good, viable) = product_of_lasso(&p.buchi, &word, &next);
    let nq = p.buchi.states.len();
    let bfs = Bfs {
        inst: &inst,
        buchi: &p.buchi,
        limits,
    };
    let inits = initial_nodes(&inst, p, &mut letters, limits)?;
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
        let cycle_nodes = accepting_on_cycle(lasso.loop_start..len, nq, &good, states);
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
            let targets = accepting_on_cycle(lasso.loop_start..len, nq, &good, states);
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

/// The found lasso's word over its `len` distinct positions (its states, the last one
/// left out unless it is a deadlock's), and each position's successor position:
/// (len, word, next). `None` when an atom cannot be evaluated on a state.
fn lasso_word(
    letters: &mut Letters,
    lasso: &Lasso,
    states: &[State],
) -> Option<(usize, Vec<u64>, Vec<usize>)> {
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
    Some((len, word, next))
}

/// The initial product nodes, or `None` past the limits. A family whose `init` leaves
/// cells free has many initial states (millions at n = 8 for Peterson's lock): they
/// count against the budget, and the limits are polled while they are listed.
fn initial_nodes(
    inst: &Instance,
    p: &LtlProperty,
    letters: &mut Letters,
    limits: &Limits,
) -> Option<Vec<Node>> {
    let mut inits: Vec<Node> = Vec::new();
    let mut listed = 0usize;
    let mut over = false;
    for_each_initial(inst, &mut |st| {
        if let Some(mask) = letters.of(st) {
            for &q in &p.buchi.initial {
                if p.buchi.states[q].matches(mask) {
                    inits.push((st.to_vec(), q));
                }
            }
        }
        listed += 1;
        over = listed.is_multiple_of(POLL) && limits.exceeded("initial states", inits.len());
        !over
    })
    .ok()?;
    if over {
        return None;
    }
    Some(inits)
}

/// The accepting product nodes (state, automaton state) at the cycle's positions
/// `cycle` that `good` marks (the lasso's product, `nq` automaton states a position).
fn accepting_on_cycle(
    cycle: std::ops::Range<usize>,
    nq: usize,
    good: &[bool],
    states: &[State],
) -> Vec<Node> {
    cycle
        .flat_map(|i| (0..nq).map(move |q| (i, q)))
        .filter(|&(i, q)| good[i * nq + q])
        .map(|(i, q)| (states[i].clone(), q))
        .collect()
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
