//! The cycle of a lasso through a weakly fair accepting component, on the unreduced
//! instance, shared by the sequential SCC search (`unfold_scc`) and the parallel one
//! (`par_lasso`). The component is given by a membership test on product nodes
//! (canonical state, automaton state); the walk visits the real set R of the theorem in
//! `scc` (the lifts of the component's edges, strongly connected, holding the start).
//! Greedily, a breadth-first search from the current node finds the nearest thing still
//! missing — an accepting node, a step of a process not yet served, a state disabling
//! one — and the walk goes there; when nothing is missing, a last breadth-first search
//! returns to the start. Every node met is in R, which is strongly connected, so each
//! search succeeds; at most n + 2 of them run. The walk serves every process and passes
//! an accepting node, so the lasso is weakly fair and accepting (`Lasso::replay`
//! checks both).

use super::expand::{Expander, STUTTER, Succ};
use super::report::Run;
use crate::explicit::steps::step_for;
use crate::lasso::Lasso;
use crate::model::eval::Step;
use crate::model::instance::{State, last_state};
use crate::verdict::Limit;
use std::collections::{HashMap, VecDeque};

/// A real product node: packed state and automaton state.
pub(super) type Node = (Vec<u64>, u64);

/// Why no cycle was built.
pub(super) enum Unfold {
    Limit(Limit),
    Error(String),
}

impl From<String> for Unfold {
    fn from(e: String) -> Self {
        Unfold::Error(e)
    }
}

/// A real successor inside the component: the node, its via and executing process.
struct Next {
    node: Node,
    via: u64,
    process: u64,
}

/// The walk through one component: `member(state, q)` tells whether the product node
/// of table state `state` (canonical, or real without symmetry) and automaton state `q`
/// belongs to it.
pub(super) struct Walk<'w, 'a, M: FnMut(&[u64], u64) -> bool> {
    pub(super) x: &'w mut Expander<'a>,
    pub(super) run: &'w Run<'a>,
    pub(super) fair: bool,
    /// Every process (bit p - 1).
    pub(super) all: u64,
    pub(super) member: M,
}

impl<M: FnMut(&[u64], u64) -> bool> Walk<'_, '_, M> {
    /// The lasso whose stem is `stem` (real states and steps, ending at the real node
    /// `start`, inside the component) and whose cycle walks the component from `start`.
    pub(super) fn lasso(
        &mut self,
        stem: (Vec<State>, Vec<Step>),
        start: Node,
    ) -> Result<Lasso, Unfold> {
        let (stem_states, stem_steps) = stem;
        let need = if self.fair { self.all } else { 0 };
        let mut served = self.disabled(&start)? & need;
        let mut accepting = self.x.accepting(start.1 as usize);
        let mut walk: Vec<Node> = vec![start.clone()];
        let mut vias: Vec<u64> = Vec::new();
        loop {
            let done = accepting && served == need;
            let cur = walk
                .last()
                .expect("the walk starts at its start node")
                .clone();
            if done && cur == start && !vias.is_empty() {
                break;
            }
            let (nodes, steps) = self.bfs(&cur, &start, served, need, accepting, done)?;
            for (node, (via, p)) in nodes.into_iter().zip(steps) {
                if p > 0 {
                    served |= (1 << (p - 1)) & need;
                }
                served |= self.disabled(&node)? & need;
                accepting |= self.x.accepting(node.1 as usize);
                walk.push(node);
                vias.push(via);
            }
        }
        let mut steps = stem_steps;
        let loop_start = steps.len();
        if vias.contains(&STUTTER) {
            // Only stutters leave a deadlock: the lasso ends in it.
            if vias.iter().any(|&v| v != STUTTER) {
                return Err("a cycle mixes stutters and steps".to_string().into());
            }
        } else {
            let mut st = last_state(&stem_states).clone();
            for (node, &via) in walk[1..].iter().zip(&vias) {
                let (k, c) = ((via >> 32) as usize, (via & 0xFFFF_FFFF) as usize);
                let (step, mut next) = step_for(self.x.inst, self.x.compiled, &st, k, c)?;
                self.x.settle(&mut next);
                if next != self.unpack(&node.0) {
                    return Err("a step of the cycle leads elsewhere".to_string().into());
                }
                steps.push(step);
                st = next;
            }
        }
        Ok(Lasso {
            size: self.x.n,
            prop: self.x.prop,
            process: self.x.process,
            init: stem_states[0].clone(),
            steps,
            loop_start,
            fair: self.fair,
        })
    }

    fn unpack(&self, words: &[u64]) -> State {
        let mut st = vec![0; self.x.inst.slots.len()];
        self.x.inst.unpack(words, &mut st);
        st
    }

    /// The successors of a real node that stay in the component, and the processes
    /// disabled at its state.
    fn inside(&mut self, node: &Node) -> Result<(Vec<Next>, u64), Unfold> {
        let st = self.unpack(&node.0);
        let mut key = Vec::new();
        self.x.canonical(&st, &mut key, None);
        // Each successor with its table state (canonical, or real without symmetry).
        let mut succ: Vec<(Next, Vec<u64>)> = Vec::new();
        let enabled = self
            .x
            .expand(&node.0, &key, node.1 as usize, false, &mut |s: &Succ| {
                let next = Next {
                    node: (s.words.to_vec(), s.q as u64),
                    via: s.via,
                    process: s.process,
                };
                let state = if s.key.is_empty() { s.words } else { s.key };
                succ.push((next, state.to_vec()));
            })
            .map_err(|_| Unfold::Error("a range error inside a found component".into()))?;
        let mut out = Vec::new();
        for (next, state) in succ {
            if (self.member)(&state, next.node.1) {
                out.push(next);
            }
        }
        Ok((out, self.all & !enabled))
    }

    fn disabled(&mut self, node: &Node) -> Result<u64, Unfold> {
        Ok(self.inside(node)?.1)
    }

    /// Breadth-first search from `cur` inside the component for the nearest node or
    /// step that adds to the walk: (`done`) a step back to `start`; else an accepting
    /// node when none was passed, or a step of a process in `need` not yet `served`,
    /// or a node disabling one. Returns the nodes after `cur` and the (via, process) of
    /// the steps to them.
    #[allow(clippy::type_complexity)]
    fn bfs(
        &mut self,
        cur: &Node,
        start: &Node,
        served: u64,
        need: u64,
        accepting: bool,
        done: bool,
    ) -> Result<(Vec<Node>, Vec<(u64, u64)>), Unfold> {
        let missing = need & !served;
        let mut nodes: Vec<Node> = vec![cur.clone()];
        let mut parent: Vec<(usize, u64, u64)> = vec![(usize::MAX, 0, 0)];
        let mut index: HashMap<Node, usize> = HashMap::from([(cur.clone(), 0)]);
        let mut queue = VecDeque::from([0usize]);
        let path_to = |nodes: &[Node], parent: &[(usize, u64, u64)], mut i: usize| {
            let mut out = Vec::new();
            while i != 0 {
                out.push((nodes[i].clone(), (parent[i].1, parent[i].2)));
                i = parent[i].0;
            }
            out.reverse();
            out.into_iter().unzip()
        };
        while let Some(i) = queue.pop_front() {
            if i % 1024 == 1023 {
                if let Some(l) = self.run.interrupted() {
                    return Err(Unfold::Limit(l));
                }
                let bytes = nodes.len() * (8 * (self.x.w + 1) + 64);
                if self.run.over_memory(bytes) {
                    return Err(Unfold::Limit(Limit::Memory));
                }
            }
            let node = nodes[i].clone();
            let (succ, disabled) = self.inside(&node)?;
            if i != 0
                && !done
                && ((!accepting && self.x.accepting(node.1 as usize)) || disabled & missing != 0)
            {
                return Ok(path_to(&nodes, &parent, i));
            }
            for s in succ {
                let goal = if done {
                    s.node == *start
                } else {
                    s.process > 0 && missing >> (s.process - 1) & 1 == 1
                };
                if goal || !index.contains_key(&s.node) {
                    let j = nodes.len();
                    index.entry(s.node.clone()).or_insert(j);
                    nodes.push(s.node);
                    parent.push((i, s.via, s.process));
                    if goal {
                        return Ok(path_to(&nodes, &parent, j));
                    }
                    queue.push_back(j);
                }
            }
        }
        Err("the component's lift is not strongly connected"
            .to_string()
            .into())
    }
}
