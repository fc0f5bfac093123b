//! Simplification of a Büchi automaton, without changing its language (step 4 of the
//! parent module's comment): pruning unreachable states and states with no accepting
//! cycle ahead, merging equal states, removing dominated ones.

use super::{BState, Buchi};
use std::collections::HashMap;

impl Buchi {
    /// States reachable from `from` in one or more steps.
    fn reach_from(&self, from: &[usize]) -> Vec<bool> {
        let mut seen = vec![false; self.len()];
        let mut stack: Vec<usize> = from
            .iter()
            .flat_map(|&q| &self.states[q].succ)
            .copied()
            .collect();
        while let Some(q) = stack.pop() {
            if !std::mem::replace(&mut seen[q], true) {
                stack.extend(&self.states[q].succ);
            }
        }
        seen
    }

    /// The automaton restricted to the states with `keep`, renumbered in order.
    fn restrict(&self, keep: &[bool]) -> Buchi {
        let mut map = vec![usize::MAX; self.len()];
        let mut n = 0;
        for q in 0..self.len() {
            if keep[q] {
                map[q] = n;
                n += 1;
            }
        }
        let states = (0..self.len())
            .filter(|&q| keep[q])
            .map(|q| {
                let s = &self.states[q];
                BState {
                    succ: s
                        .succ
                        .iter()
                        .filter(|&&r| keep[r])
                        .map(|&r| map[r])
                        .collect(),
                    ..s.clone()
                }
            })
            .collect();
        let initial = self
            .initial
            .iter()
            .filter(|&&q| keep[q])
            .map(|&q| map[q])
            .collect();
        Buchi { states, initial }
    }

    /// Remove unreachable states and states with no accepting cycle ahead; merge
    /// indistinguishable states; repeat until stable.
    pub(super) fn simplified(mut self) -> Buchi {
        for s in &mut self.states {
            s.succ.sort_unstable();
            s.succ.dedup();
        }
        self.initial.sort_unstable();
        self.initial.dedup();
        loop {
            let before = self.len();
            // Reachable from the initial states.
            let mut keep = self.reach_from(&self.initial);
            for &q in &self.initial {
                keep[q] = true;
            }
            self = self.restrict(&keep);
            // Able to reach an accepting state that lies on a cycle.
            let n = self.len();
            let mut pred = vec![Vec::new(); n];
            for (q, s) in self.states.iter().enumerate() {
                for &r in &s.succ {
                    pred[r].push(q);
                }
            }
            let mut useful = vec![false; n];
            let mut stack: Vec<usize> = (0..n)
                .filter(|&q| self.states[q].accepting && self.reach_from(&[q])[q])
                .collect();
            while let Some(q) = stack.pop() {
                if !std::mem::replace(&mut useful[q], true) {
                    stack.extend(&pred[q]);
                }
            }
            self = self.restrict(&useful);
            self = self.merge_equal();
            self = self.remove_dominated();
            if self.len() == before {
                return self;
            }
        }
    }

    /// Merge states with the same label, acceptance and successors, to a fixpoint.
    fn merge_equal(mut self) -> Buchi {
        loop {
            let mut rep: HashMap<BState, usize> = HashMap::new();
            let mut map = Vec::with_capacity(self.len());
            let mut states = Vec::new();
            for s in &self.states {
                let m = *rep.entry(s.clone()).or_insert_with(|| {
                    states.push(s.clone());
                    states.len() - 1
                });
                map.push(m);
            }
            if states.len() == self.len() {
                return self;
            }
            for s in &mut states {
                s.succ = s.succ.iter().map(|&r| map[r]).collect();
                s.succ.sort_unstable();
                s.succ.dedup();
            }
            let mut initial: Vec<usize> = self.initial.iter().map(|&q| map[q]).collect();
            initial.sort_unstable();
            initial.dedup();
            self = Buchi { states, initial };
        }
    }

    /// Remove, one at a time, a state `p` dominated by another state `q`: every letter
    /// matching `p` matches `q`, `p` accepting implies `q` accepting, `succ(p) ⊆
    /// succ(q)`, every predecessor of `p` also has `q` as a successor, and `p` initial
    /// implies `q` initial. Replacing `p` by `q` in any run then gives a run of the
    /// smaller automaton (the edges needed all exist, including `q → q` when `p` has a
    /// self-loop), so the language is unchanged. One at a time because two states may
    /// dominate each other.
    fn remove_dominated(mut self) -> Buchi {
        let n = self.len();
        let mut alive = vec![true; n];
        let mut pred = vec![Vec::new(); n];
        for (r, s) in self.states.iter().enumerate() {
            for &t in &s.succ {
                pred[t].push(r);
            }
        }
        let init: Vec<bool> = (0..n).map(|q| self.initial.contains(&q)).collect();
        loop {
            let mut changed = false;
            for p in 0..n {
                if !alive[p] {
                    continue;
                }
                // q must follow every predecessor of p, or be initial if p has none.
                let candidates: Vec<usize> = match pred[p].first() {
                    Some(&r) => self.states[r].succ.clone(),
                    None => (0..n).filter(|&q| alive[q] && init[q]).collect(),
                };
                let sp = &self.states[p];
                let dominator = candidates.into_iter().find(|&q| {
                    let sq = &self.states[q];
                    q != p
                        && sq.pos & !sp.pos == 0
                        && sq.neg & !sp.neg == 0
                        && (!sp.accepting || sq.accepting)
                        && (!init[p] || init[q])
                        && sp.succ.iter().all(|t| sq.succ.binary_search(t).is_ok())
                        && pred[p]
                            .iter()
                            .all(|&r| self.states[r].succ.binary_search(&q).is_ok())
                });
                if dominator.is_some() {
                    alive[p] = false;
                    changed = true;
                    for r in std::mem::take(&mut pred[p]) {
                        self.states[r].succ.retain(|&t| t != p);
                    }
                    for t in std::mem::take(&mut self.states[p].succ) {
                        pred[t].retain(|&r| r != p);
                    }
                }
            }
            if !changed {
                return self.restrict(&alive);
            }
        }
    }
}
