//! State-labelled Büchi automata and the translation of NNF formulas into them.
//!
//! `translate` runs, in order:
//! 1. the simplifier on the input formula ([`Formula::simplify`]);
//! 2. the GPVW tableau (Gerth, Peled, Vardi, Wolper 1995, "Simple on-the-fly automatic
//!    verification of linear temporal logic"): nodes carry New/Old/Next sets of
//!    subformulas and are expanded by the rules for ∧ ∨ U R X; a fully expanded node is
//!    merged into an existing one with the same Old and the same Next (the paper's
//!    test), otherwise it becomes a state whose successors are expanded from its Next.
//!    A node is dropped during expansion as soon as its Old would hold `False` or a
//!    formula together with its NNF negation (in particular an atom and its negation).
//!    `True` is never recorded in Old, so it does not distinguish nodes. The label of
//!    a state is the set of literals in its Old. The result is a generalized Büchi
//!    automaton with one acceptance set per `U` subformula `a U b`: the states whose
//!    Old lacks `a U b` or holds `b`;
//! 3. degeneralization with a counter: states `(q, j)` where `j` is the acceptance set
//!    awaited next; the counter advances (mod k) when `q` is in set `j`, and the
//!    accepting states are `(q, k-1)` with `q` in set `k-1`. Sets holding every state
//!    are dropped first and duplicate sets counted once; with no set left every state
//!    is accepting. Only the counter states reachable from the initial ones are built;
//! 4. automaton simplification, repeated until nothing changes: removal of states
//!    unreachable from the initial states, removal of states from which no accepting
//!    cycle is reachable (they are on no accepting run), and merging of states with the
//!    same label, the same acceptance and the same successor set (they accept the same
//!    suffixes), then removal of dominated states: a state `p` goes when another state
//!    `q` has a weaker label, is accepting if `p` is, is initial if `p` is, has every
//!    successor of `p`, and is a successor of every predecessor of `p` (any run through
//!    `p` then has a twin through `q`, so the language is unchanged).
//!
//! GPVW is used because it is simple, well documented, works directly on NNF and gives
//! small automata for the usual properties; the formulas the engine checks are small,
//! so the lack of the later refinements (LTL2BA-style alternating automata, simulation
//! reduction) is not felt.

use std::collections::{BTreeSet, HashMap, VecDeque};

use super::formula::Formula;

/// A Büchi automaton whose states (not transitions) carry the letter constraint.
///
/// A run on a word `w0 w1 w2 ...` is `q0 q1 q2 ...` with `q0` initial, `w_i` matching
/// the label of `q_i` and `q_{i+1}` in `succ(q_i)`; it is accepting when infinitely
/// many `q_i` are accepting. In a product with a system, `(s0, q)` is initial for
/// initial `q` with `s0` matching `q`'s label, and `(s, q)` steps to `(s', q')` for
/// `s → s'` and `q'` in `succ(q)` with `s'` matching `q'`'s label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buchi {
    pub states: Vec<BState>,
    pub initial: Vec<usize>,
}

/// One state: the letter read here must have every bit of `pos` and no bit of `neg`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BState {
    pub pos: u64,
    pub neg: u64,
    pub accepting: bool,
    /// Sorted, without duplicates.
    pub succ: Vec<usize>,
}

impl BState {
    /// Whether `letter` satisfies this state's label.
    pub fn matches(&self, letter: u64) -> bool {
        letter & self.pos == self.pos && letter & self.neg == 0
    }
}

/// The Büchi automaton of `f` (see the module comment for the construction).
///
/// # Panics
/// If `f` has an atom index of 64 or more (labels are `u64` masks).
pub fn translate(f: &Formula) -> Buchi {
    let f = f.simplify();
    degeneralize(&Tableau::run(&f)).simplified()
}

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
struct Tableau {
    forms: Vec<Formula>,
    ids: HashMap<Formula, usize>,
    /// `neg[i]` is the id of the NNF negation of formula `i`: formulas are interned
    /// together with their negation, so the contradiction test is a lookup.
    neg: Vec<usize>,
    nodes: Vec<Node>,
    by_key: HashMap<(Set, Set), usize>,
}

/// A generalized Büchi automaton: the tableau nodes, with one acceptance set per `U`.
struct Gba {
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

    fn run(f: &Formula) -> Gba {
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
fn degeneralize(g: &Gba) -> Buchi {
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

impl Buchi {
    /// Number of states.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Whether there are no states (the empty language).
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

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
    fn simplified(mut self) -> Buchi {
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

    /// Whether the automaton accepts `word[0..loop_start] (word[loop_start..])^ω`:
    /// some product state (automaton state, lasso position) reachable from an initial
    /// one is accepting and lies on a cycle of the product.
    ///
    /// # Panics
    /// If `word` is empty or `loop_start >= word.len()`.
    pub fn accepts_lasso(&self, word: &[u64], loop_start: usize) -> bool {
        let n = word.len();
        assert!(loop_start < n, "lasso needs loop_start < len");
        let ok = |q: usize, i: usize| self.states[q].matches(word[i]);
        let next_pos = |i: usize| if i + 1 < n { i + 1 } else { loop_start };
        let succs = |(q, i): (usize, usize)| {
            let j = next_pos(i);
            self.states[q]
                .succ
                .iter()
                .filter(move |&&r| ok(r, j))
                .map(move |&r| (r, j))
        };
        // Product states reachable in one or more steps from `from`.
        let reach = |from: Vec<(usize, usize)>| {
            let mut seen = vec![false; self.len() * n];
            let mut stack: Vec<(usize, usize)> = from.into_iter().flat_map(succs).collect();
            while let Some(p) = stack.pop() {
                if !std::mem::replace(&mut seen[p.0 * n + p.1], true) {
                    stack.extend(succs(p));
                }
            }
            seen
        };
        let starts: Vec<(usize, usize)> = self
            .initial
            .iter()
            .filter(|&&q| ok(q, 0))
            .map(|&q| (q, 0))
            .collect();
        let mut reachable = reach(starts.clone());
        for &(q, i) in &starts {
            reachable[q * n + i] = true;
        }
        (0..self.len() * n).any(|p| {
            let (q, i) = (p / n, p % n);
            reachable[p] && self.states[q].accepting && reach(vec![(q, i)])[p]
        })
    }

    /// Human-readable listing: one line per state with its label, whether it is
    /// initial or accepting, and its successors. Atom k is `atom_names[k]` or `p<k>`.
    pub fn describe(&self, atom_names: &[String]) -> String {
        let name = |k: usize| {
            atom_names
                .get(k)
                .cloned()
                .unwrap_or_else(|| format!("p{k}"))
        };
        let mut out = format!("{} states, initial {:?}\n", self.len(), self.initial);
        for (q, s) in self.states.iter().enumerate() {
            let mut lits: Vec<String> = Vec::new();
            for k in 0..64 {
                if s.pos >> k & 1 == 1 {
                    lits.push(name(k));
                }
                if s.neg >> k & 1 == 1 {
                    lits.push(format!("!{}", name(k)));
                }
            }
            let label = if lits.is_empty() {
                "true".to_string()
            } else {
                lits.join(" && ")
            };
            out += &format!(
                "  q{q}{}{} [{label}] -> {:?}\n",
                if self.initial.contains(&q) {
                    " init"
                } else {
                    ""
                },
                if s.accepting { " acc" } else { "" },
                s.succ
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::ltl::testutil::build::*;

    // Letters over a = bit 0, b = bit 1.
    const N: u64 = 0;
    const A: u64 = 1;
    const B: u64 = 2;
    const AB: u64 = 3;

    /// The automaton of `fm` agrees with the evaluator on every listed lasso and on
    /// `expected`; its size is at most `max_states`.
    fn check(fm: &Formula, max_states: usize, cases: &[(&[u64], usize, bool)]) -> Buchi {
        let aut = translate(fm);
        assert!(
            aut.len() <= max_states,
            "{fm}: {} states, expected at most {max_states}\n{}",
            aut.len(),
            aut.describe(&[])
        );
        for &(word, lp, expected) in cases {
            assert_eq!(
                eval_lasso(fm, word, lp),
                expected,
                "eval {fm} on {word:?} loop {lp}"
            );
            assert_eq!(
                aut.accepts_lasso(word, lp),
                expected,
                "automaton of {fm} on {word:?} loop {lp}\n{}",
                aut.describe(&[])
            );
        }
        aut
    }

    use super::super::formula::eval_lasso;

    #[test]
    fn globally() {
        let aut = check(
            &g(a(0)),
            1,
            &[
                (&[A], 0, true),
                (&[AB, A], 1, true),
                (&[A, A, N], 1, false),
                (&[N, A], 1, false),
            ],
        );
        assert_eq!(aut.len(), 1);
    }

    #[test]
    fn finally() {
        check(
            &f(a(0)),
            3,
            &[
                (&[N, N, A], 2, true),
                (&[A], 0, true),
                (&[N, B], 0, false),
                (&[B, N, A, N], 3, true),
            ],
        );
    }

    #[test]
    fn until_and_release() {
        check(
            &u(a(0), a(1)),
            3,
            &[
                (&[A, A, B], 2, true),
                (&[B], 0, true),
                (&[A], 0, false),
                (&[A, N, B], 2, false),
                (&[AB, N], 1, true),
            ],
        );
        check(
            &r(a(0), a(1)),
            3,
            &[
                (&[B], 0, true),
                (&[B, AB, N], 2, true),
                (&[B, B, N], 2, false),
                (&[A], 0, false),
                (&[AB, N], 1, true),
            ],
        );
    }

    #[test]
    fn next() {
        check(
            &x(a(0)),
            3,
            &[
                (&[N, A], 1, true),
                (&[A, N], 1, false),
                (&[A], 0, true),
                (&[N], 0, false),
            ],
        );
    }

    #[test]
    fn infinitely_often_and_eventually_always() {
        check(
            &g(f(a(0))),
            2,
            &[
                (&[N, N, A, N], 1, true),
                (&[A, A, N], 2, false),
                (&[A], 0, true),
                (&[N], 0, false),
            ],
        );
        check(
            &f(g(a(0))),
            2,
            &[
                (&[N, N, A], 2, true),
                (&[A, A, N, A], 1, false),
                (&[N, A, N], 1, false),
                (&[N, A], 1, true),
            ],
        );
    }

    #[test]
    fn response_and_its_negation() {
        // G(a → F b) and ¬G(a → F b) = F(a ∧ G ¬b)
        let resp = g(or(na(0), f(a(1))));
        let viol = f(and(a(0), g(na(1))));
        assert_eq!(resp.negate(), viol);
        let cases: &[(&[u64], usize, bool)] = &[
            (&[N], 0, true),
            (&[A, B], 0, true),
            (&[A, N, N], 1, false),
            (&[A, N, B], 1, true),
            (&[AB], 0, true),
            (&[N, A, N, N], 2, false),
        ];
        check(&resp, 4, cases);
        let neg: Vec<(&[u64], usize, bool)> = cases.iter().map(|&(w, l, e)| (w, l, !e)).collect();
        check(&viol, 3, &neg);
    }

    #[test]
    fn constants_and_contradictions() {
        let t = translate(&Formula::True);
        assert_eq!(t.len(), 1);
        assert!(t.accepts_lasso(&[N], 0));
        let e = translate(&Formula::False);
        assert!(e.is_empty());
        assert!(!e.accepts_lasso(&[A, B], 0));
        // Unsatisfiable: G a ∧ F ¬a, a ∧ X G ¬a ∧ G a.
        assert!(translate(&and(g(a(0)), f(na(0)))).is_empty());
        assert!(translate(&and(a(0), and(x(g(na(0))), g(a(0))))).is_empty());
        // G F a ∧ F G ¬a has no accepting cycle.
        assert!(translate(&and(g(f(a(0))), f(g(na(0))))).is_empty());
    }

    #[test]
    fn generalized_acceptance() {
        // Two U subformulas: G F a ∧ G F b needs both infinitely often.
        let fm = and(g(f(a(0))), g(f(a(1))));
        let aut = check(
            &fm,
            8,
            &[
                (&[A, B], 0, true),
                (&[AB], 0, true),
                (&[B, A, A], 1, false),
                (&[B, A], 1, false),
                (&[N, A, N, B], 0, true),
            ],
        );
        assert!(aut.states.iter().any(|s| s.accepting));
    }

    #[test]
    fn describe_lists_states() {
        let aut = translate(&f(a(0)));
        let d = aut.describe(&["req".to_string()]);
        assert!(d.contains("req"), "{d}");
        assert!(d.contains("acc"), "{d}");
        assert!(d.contains("init"), "{d}");
    }
}
