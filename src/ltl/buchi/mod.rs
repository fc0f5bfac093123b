//! State-labelled Büchi automata and the translation of NNF formulas into them.
//!
//! `translate` runs, in order:
//! 1. the simplifier on the input formula ([`Formula::simplify`]);
//! 2. the GPVW tableau (R. Gerth, D. Peled, M. Vardi and P. Wolper, *Simple On-the-fly
//!    Automatic Verification of Linear Temporal Logic*, PSTV 1995): nodes carry
//!    New/Old/Next sets of subformulas and are expanded by the rules for ∧ ∨ U R X; a
//!    fully expanded node is merged into an existing one with the same Old and the same
//!    Next (the paper's test), otherwise it becomes a state whose successors are
//!    expanded from its Next. A node is dropped during expansion as soon as its Old
//!    would hold `False` or a formula together with its NNF negation (in particular an
//!    atom and its negation). `True` is never recorded in Old, so it does not
//!    distinguish nodes. The label of a state is the set of literals in its Old. The
//!    result is a generalized Büchi automaton with one acceptance set per `U`
//!    subformula `a U b`: the states whose Old lacks `a U b` or holds `b`;
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
//!
//! Steps 2 and 3 are in `gpvw`, step 4 in `simplify`.

mod gpvw;
mod simplify;

use super::formula::Formula;
use gpvw::{Tableau, degeneralize};

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

impl Buchi {
    /// Number of states.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Whether there are no states (the empty language).
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
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
