//! The GPVW tableau (R. Gerth, D. Peled, M. Vardi and P. Wolper, *Simple On-the-fly
//! Automatic Verification of Linear Temporal Logic*, PSTV 1995) giving a generalized Büchi
//! automaton with one acceptance set per `U`, and its degeneralization with a counter
//! (steps 2 and 3 of the parent module's comment).

use super::{BState, Buchi};
use crate::ltl::formula::Formula;
use std::collections::{BTreeSet, HashMap, VecDeque};

/// Id of the pseudo-node "before the start" in incoming sets: a node whose incoming
/// set holds it is initial.
const INIT: usize = usize::MAX;

type Set = BTreeSet<usize>;

/// A node being expanded.
struct Pending {
    incoming: Set,
    new: Set,
    old: Set,
    next: Set,
}

/// A fully expanded node.
struct Node {
    incoming: Set,
    old: Set,
}

/// The tableau construction. Formulas are interned so that node sets are sets of ids.
pub(super) struct Tableau {
    forms: Vec<Formula>,
    ids: HashMap<Formula, usize>,
    /// `neg[i]` is the id of the NNF negation of formula `i`: formulas are interned
    /// together with their negation, so the contradiction test is a lookup.
    neg: Vec<usize>,
    nodes: Vec<Node>,
    by_key: HashMap<(Set, Set), usize>,
}

/// A generalized Büchi automaton: the tableau nodes, with one acceptance set per `U`.
pub(super) struct Gba {
    labels: Vec<(u64, u64)>,
    succ: Vec<Vec<usize>>,
    initial: Vec<usize>,
    acc: Vec<Vec<bool>>,
}

impl Tableau {
    fn id(&mut self, f: &Formula) -> usize {
        if let Some(&i) = self.ids.get(f) {
            return i;
        }
        let i = self.forms.len();
        let nf = f.negate();
        self.forms.push(f.clone());
        self.ids.insert(f.clone(), i);
        // NNF negation is an involution, so the pair is closed.
        self.forms.push(nf.clone());
        self.ids.insert(nf, i + 1);
        self.neg.push(i + 1);
        self.neg.push(i);
        i
    }

    pub(super) fn run(f: &Formula) -> Gba {
        let mut t = Tableau {
            forms: Vec::new(),
            ids: HashMap::new(),
            neg: Vec::new(),
            nodes: Vec::new(),
            by_key: HashMap::new(),
        };
        let root = t.id(f);
        let mut stack = vec![Pending {
            incoming: Set::from([INIT]),
            new: Set::from([root]),
            old: Set::new(),
            next: Set::new(),
        }];
        while let Some(q) = stack.pop() {
            t.expand(q, &mut stack);
        }
        t.gba()
    }

    /// One expansion step of `q`: either finish it or apply the rule for one formula
    /// of its New set, pushing the resulting nodes.
    fn expand(&mut self, mut q: Pending, stack: &mut Vec<Pending>) {
        let Some(eta) = q.new.pop_first() else {
            self.finish(q, stack);
            return;
        };
        if q.old.contains(&eta) {
            stack.push(q);
            return;
        }
        let form = self.forms[eta].clone();
        match form {
            // Holds everywhere; not recorded so that it does not split nodes.
            Formula::True => {
                stack.push(q);
                return;
            }
            Formula::False => return,
            _ => {}
        }
        if q.old.contains(&self.neg[eta]) {
            return;
        }
        q.old.insert(eta);
        match form {
            Formula::True | Formula::False => unreachable!(),
            Formula::Atom(_) | Formula::NotAtom(_) => stack.push(q),
            Formula::And(x, y) => {
                let (x, y) = (self.id(&x), self.id(&y));
                self.add_new(&mut q, x);
                self.add_new(&mut q, y);
                stack.push(q);
            }
            Formula::Next(x) => {
                let x = self.id(&x);
                q.next.insert(x);
                stack.push(q);
            }
            // Each splits into two nodes: (first New, first Next) and (second New).
            // x ∨ y: {x} | {y}
            // x U y: {x}, Next {x U y} | {y}
            // x R y: {y}, Next {x R y} | {x, y}
            Formula::Or(x, y) | Formula::Until(x, y) | Formula::Release(x, y) => {
                let (x, y) = (self.id(&x), self.id(&y));
                let (new1, next1, new2): (Vec<usize>, Option<usize>, Vec<usize>) =
                    match self.forms[eta] {
                        Formula::Or(..) => (vec![x], None, vec![y]),
                        Formula::Until(..) => (vec![x], Some(eta), vec![y]),
                        _ => (vec![y], Some(eta), vec![x, y]),
                    };
                let mut q2 = Pending {
                    incoming: q.incoming.clone(),
                    new: q.new.clone(),
                    old: q.old.clone(),
                    next: q.next.clone(),
                };
                for g in new1 {
                    self.add_new(&mut q, g);
                }
                q.next.extend(next1);
                for g in new2 {
                    self.add_new(&mut q2, g);
                }
                stack.push(q);
                stack.push(q2);
            }
        }
    }

    fn add_new(&self, q: &mut Pending, g: usize) {
        if !q.old.contains(&g) {
            q.new.insert(g);
        }
    }

    /// A fully expanded node: merge it into the node with the same Old and Next, or
    /// make it a new node and start expanding its successor.
    fn finish(&mut self, q: Pending, stack: &mut Vec<Pending>) {
        let key = (q.old, q.next);
        if let Some(&k) = self.by_key.get(&key) {
            self.nodes[k].incoming.extend(q.incoming);
            return;
        }
        let id = self.nodes.len();
        stack.push(Pending {
            incoming: Set::from([id]),
            new: key.1.clone(),
            old: Set::new(),
            next: Set::new(),
        });
        self.nodes.push(Node {
            incoming: q.incoming,
            old: key.0.clone(),
        });
        self.by_key.insert(key, id);
    }

    fn gba(&self) -> Gba {
        let n = self.nodes.len();
        let mut succ = vec![Vec::new(); n];
        let mut initial = Vec::new();
        for (j, node) in self.nodes.iter().enumerate() {
            for &i in &node.incoming {
                if i == INIT {
                    initial.push(j);
                } else {
                    succ[i].push(j);
                }
            }
        }
        let labels = self
            .nodes
            .iter()
            .map(|node| {
                let (mut pos, mut neg) = (0u64, 0u64);
                for &g in &node.old {
                    match self.forms[g] {
                        Formula::Atom(k) => pos |= bit(k),
                        Formula::NotAtom(k) => neg |= bit(k),
                        _ => {}
                    }
                }
                (pos, neg)
            })
            .collect();
        let mut acc: Vec<Vec<bool>> = Vec::new();
        for (u, form) in self.forms.iter().enumerate() {
            let Formula::Until(_, y) = form else { continue };
            if **y == Formula::True {
                continue;
            }
            let y = self.ids.get(&**y).copied();
            let set: Vec<bool> = self
                .nodes
                .iter()
                .map(|node| !node.old.contains(&u) || y.is_some_and(|y| node.old.contains(&y)))
                .collect();
            if set.iter().all(|&b| b) || acc.contains(&set) {
                continue;
            }
            acc.push(set);
        }
        Gba {
            labels,
            succ,
            initial,
            acc,
        }
    }
}

fn bit(k: usize) -> u64 {
    assert!(k < 64, "atom index {k} does not fit a 64-bit letter");
    1 << k
}

/// Plain Büchi automaton of a generalized one, by the counter construction (see the
/// module comment); only reachable counter states are built.
pub(super) fn degeneralize(g: &Gba) -> Buchi {
    let k = g.acc.len();
    if k == 0 {
        return Buchi {
            states: (0..g.labels.len())
                .map(|q| BState {
                    pos: g.labels[q].0,
                    neg: g.labels[q].1,
                    accepting: true,
                    succ: g.succ[q].clone(),
                })
                .collect(),
            initial: g.initial.clone(),
        };
    }
    let mut ids: HashMap<(usize, usize), usize> = HashMap::new();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut queue = VecDeque::new();
    let mut intern =
        |p: (usize, usize), pairs: &mut Vec<(usize, usize)>, queue: &mut VecDeque<usize>| {
            *ids.entry(p).or_insert_with(|| {
                pairs.push(p);
                queue.push_back(pairs.len() - 1);
                pairs.len() - 1
            })
        };
    let initial: Vec<usize> = g
        .initial
        .iter()
        .map(|&q| intern((q, 0), &mut pairs, &mut queue))
        .collect();
    let mut succ: Vec<Vec<usize>> = Vec::new();
    while let Some(s) = queue.pop_front() {
        let (q, j) = pairs[s];
        let j2 = if g.acc[j][q] { (j + 1) % k } else { j };
        let out: Vec<usize> = g.succ[q]
            .iter()
            .map(|&r| intern((r, j2), &mut pairs, &mut queue))
            .collect();
        if succ.len() <= s {
            succ.resize(s + 1, Vec::new());
        }
        succ[s] = out;
    }
    let states = pairs
        .iter()
        .zip(succ)
        .map(|(&(q, j), out)| BState {
            pos: g.labels[q].0,
            neg: g.labels[q].1,
            accepting: j == k - 1 && g.acc[j][q],
            succ: out,
        })
        .collect();
    Buchi { states, initial }
}
