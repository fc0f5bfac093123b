//! LTL formulas in negation normal form over numbered atoms: translation from the IR
//! (`from_ir`, `negation_of_ir`), the simplifier (smart constructors and `simplify`),
//! the direct evaluator on lasso words (`eval_lasso`) and printing.
//!
//! Atoms are numbered because the engine evaluates each distinct atomic state formula
//! once per state into one bit of a `u64`; a letter of a word is such a mask.

use std::fmt;

use crate::model::ir::{Expr, Ltl, Ty};

/// An LTL formula in negation normal form: negation occurs only on atoms. `F a` is
/// `True U a` and `G a` is `False R a`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Formula {
    True,
    False,
    /// Atom k holds: bit k of the letter is set.
    Atom(usize),
    /// Atom k does not hold.
    NotAtom(usize),
    And(Box<Formula>, Box<Formula>),
    Or(Box<Formula>, Box<Formula>),
    Next(Box<Formula>),
    Until(Box<Formula>, Box<Formula>),
    Release(Box<Formula>, Box<Formula>),
}

/// NNF of `l` (atoms are appended to `atoms`, deduplicated by `==`; atom k of the
/// result is `atoms[k]`). No simplification beyond reading boolean constants as
/// `True`/`False` and `not e` as the negated atom `e`, so that `p` and `not p` share
/// one bit and the tableau sees them as contradictory.
pub fn from_ir(l: &Ltl, atoms: &mut Vec<Expr>) -> Formula {
    nnf(l, false, atoms)
}

/// NNF of `¬l`, with atoms numbered as in [`from_ir`].
pub fn negation_of_ir(l: &Ltl, atoms: &mut Vec<Expr>) -> Formula {
    nnf(l, true, atoms)
}

fn atom(e: &Expr, negated: bool, atoms: &mut Vec<Expr>) -> Formula {
    match e {
        Expr::Const(v, Ty::Bool) => {
            if (*v != 0) != negated {
                Formula::True
            } else {
                Formula::False
            }
        }
        Expr::Not(inner) => atom(inner, !negated, atoms),
        _ => {
            let k = match atoms.iter().position(|a| a == e) {
                Some(k) => k,
                None => {
                    atoms.push(e.clone());
                    atoms.len() - 1
                }
            };
            if negated {
                Formula::NotAtom(k)
            } else {
                Formula::Atom(k)
            }
        }
    }
}

/// NNF of `l` if `!neg`, of `¬l` if `neg`. Infinite words: `¬X a = X ¬a`.
fn nnf(l: &Ltl, neg: bool, atoms: &mut Vec<Expr>) -> Formula {
    use Formula as F;
    let b = Box::new;
    match l {
        Ltl::Atom(e) => atom(e, neg, atoms),
        Ltl::Not(a) => nnf(a, !neg, atoms),
        Ltl::And(x, y) | Ltl::Or(x, y) => {
            let (p, q) = (nnf(x, neg, atoms), nnf(y, neg, atoms));
            if matches!(l, Ltl::And(..)) != neg {
                F::And(b(p), b(q))
            } else {
                F::Or(b(p), b(q))
            }
        }
        // x → y = ¬x ∨ y; ¬(x → y) = x ∧ ¬y
        Ltl::Imp(x, y) => {
            let p = nnf(x, !neg, atoms);
            let q = nnf(y, neg, atoms);
            if neg {
                F::And(b(p), b(q))
            } else {
                F::Or(b(p), b(q))
            }
        }
        // x ↔ y = (x ∧ y) ∨ (¬x ∧ ¬y); ¬(x ↔ y) = (x ∧ ¬y) ∨ (¬x ∧ y)
        Ltl::Iff(x, y) => {
            let px = nnf(x, false, atoms);
            let nx = nnf(x, true, atoms);
            let py = nnf(y, neg, atoms);
            let ny = nnf(y, !neg, atoms);
            F::Or(b(F::And(b(px), b(py))), b(F::And(b(nx), b(ny))))
        }
        Ltl::Next(x) => F::Next(b(nnf(x, neg, atoms))),
        // G x = False R x; ¬G x = True U ¬x
        Ltl::Globally(x) => {
            let p = nnf(x, neg, atoms);
            if neg {
                F::Until(b(F::True), b(p))
            } else {
                F::Release(b(F::False), b(p))
            }
        }
        // F x = True U x; ¬F x = False R ¬x
        Ltl::Finally(x) => {
            let p = nnf(x, neg, atoms);
            if neg {
                F::Release(b(F::False), b(p))
            } else {
                F::Until(b(F::True), b(p))
            }
        }
        // ¬(x U y) = ¬x R ¬y and dually
        Ltl::Until(x, y) | Ltl::Release(x, y) => {
            let (p, q) = (nnf(x, neg, atoms), nnf(y, neg, atoms));
            if matches!(l, Ltl::Until(..)) != neg {
                F::Until(b(p), b(q))
            } else {
                F::Release(b(p), b(q))
            }
        }
        // x W y = y R (x ∨ y); ¬(x W y) = ¬y U (¬x ∧ ¬y)
        Ltl::WeakUntil(x, y) => {
            let p = nnf(x, neg, atoms);
            let q = nnf(y, neg, atoms);
            if neg {
                F::Until(b(q.clone()), b(F::And(b(p), b(q))))
            } else {
                F::Release(b(q.clone()), b(F::Or(b(p), b(q))))
            }
        }
    }
}

impl Formula {
    /// `F a`, as `True U a` (simplified).
    pub fn eventually(a: Formula) -> Formula {
        Formula::until(Formula::True, a)
    }

    /// `G a`, as `False R a` (simplified).
    pub fn always(a: Formula) -> Formula {
        Formula::release(Formula::False, a)
    }

    /// Whether this is `F a` for some `a`.
    pub fn is_eventually(&self) -> bool {
        matches!(self, Formula::Until(a, _) if **a == Formula::True)
    }

    /// Whether this is `G a` for some `a`.
    pub fn is_always(&self) -> bool {
        matches!(self, Formula::Release(a, _) if **a == Formula::False)
    }

    /// The NNF of the negation (dualising every operator).
    pub fn negate(&self) -> Formula {
        use Formula as F;
        let b = |f: &Formula| Box::new(f.negate());
        match self {
            F::True => F::False,
            F::False => F::True,
            F::Atom(k) => F::NotAtom(*k),
            F::NotAtom(k) => F::Atom(*k),
            F::And(x, y) => F::Or(b(x), b(y)),
            F::Or(x, y) => F::And(b(x), b(y)),
            F::Next(x) => F::Next(b(x)),
            F::Until(x, y) => F::Release(b(x), b(y)),
            F::Release(x, y) => F::Until(b(x), b(y)),
        }
    }

    /// An equivalent, usually smaller formula: rebuilt bottom-up with the simplifying
    /// constructors [`Formula::and`], [`Formula::or`], [`Formula::next`],
    /// [`Formula::until`] and [`Formula::release`]. Idempotent.
    pub fn simplify(&self) -> Formula {
        use Formula as F;
        match self {
            F::True | F::False | F::Atom(_) | F::NotAtom(_) => self.clone(),
            F::And(x, y) => F::and(x.simplify(), y.simplify()),
            F::Or(x, y) => F::or(x.simplify(), y.simplify()),
            F::Next(x) => F::next(x.simplify()),
            F::Until(x, y) => F::until(x.simplify(), y.simplify()),
            F::Release(x, y) => F::release(x.simplify(), y.simplify()),
        }
    }

    /// `a ∧ b`, simplified, assuming `a` and `b` are simplified. Conjunctions are kept
    /// flat and sorted so that equal sets of conjuncts give equal formulas (the tableau
    /// merges nodes by formula equality).
    pub fn and(a: Formula, b: Formula) -> Formula {
        Formula::junction(true, a, b)
    }

    /// `a ∨ b`, simplified like [`Formula::and`].
    pub fn or(a: Formula, b: Formula) -> Formula {
        Formula::junction(false, a, b)
    }

    /// `a ∧ b` if `conj`, else `a ∨ b`. Written once for both via duality: `unit` is the
    /// neutral constant and `zero` the absorbing one.
    fn junction(conj: bool, a: Formula, b: Formula) -> Formula {
        let (unit, zero) = if conj {
            (Formula::True, Formula::False)
        } else {
            (Formula::False, Formula::True)
        };
        let mut parts = Vec::new();
        Formula::flatten(conj, a, &mut parts);
        Formula::flatten(conj, b, &mut parts);
        if parts.contains(&zero) {
            return zero;
        }
        parts.retain(|p| *p != unit);
        parts.sort();
        parts.dedup();
        // p ∧ ¬p = False, p ∨ ¬p = True
        if parts
            .iter()
            .any(|p| parts.binary_search(&p.negate()).is_ok())
        {
            return zero;
        }
        // Absorption: p ∧ (p ∨ q) = p, p ∨ (p ∧ q) = p.
        let absorbed: Vec<bool> = parts
            .iter()
            .map(|p| {
                let mut inner = Vec::new();
                Formula::flatten(!conj, p.clone(), &mut inner);
                inner.len() > 1 && inner.iter().any(|q| parts.binary_search(q).is_ok())
            })
            .collect();
        let mut kept = parts
            .into_iter()
            .zip(absorbed)
            .filter(|(_, gone)| !gone)
            .map(|(p, _)| p);
        let Some(first) = kept.next() else {
            return unit;
        };
        // Right-nested in sorted order.
        let rest: Vec<Formula> = kept.collect();
        let mut all = vec![first];
        all.extend(rest);
        let mut acc = all.pop().expect("nonempty");
        while let Some(p) = all.pop() {
            acc = if conj {
                Formula::And(Box::new(p), Box::new(acc))
            } else {
                Formula::Or(Box::new(p), Box::new(acc))
            };
        }
        acc
    }

    fn flatten(conj: bool, f: Formula, out: &mut Vec<Formula>) {
        match f {
            Formula::And(x, y) if conj => {
                Formula::flatten(conj, *x, out);
                Formula::flatten(conj, *y, out);
            }
            Formula::Or(x, y) if !conj => {
                Formula::flatten(conj, *x, out);
                Formula::flatten(conj, *y, out);
            }
            other => out.push(other),
        }
    }

    /// `X a`, simplified: `X True = True`, `X False = False`.
    pub fn next(a: Formula) -> Formula {
        match a {
            Formula::True | Formula::False => a,
            _ => Formula::Next(Box::new(a)),
        }
    }

    /// `a U b`, simplified, assuming `a` and `b` are simplified.
    pub fn until(a: Formula, b: Formula) -> Formula {
        use Formula as F;
        match (&a, &b) {
            (_, F::True) | (_, F::False) => return b,
            (F::False, _) => return b,
            _ if a == b => return b,
            // a U (a U c) = a U c (covers F F c = F c)
            (_, F::Until(a2, _)) if **a2 == a => return b,
            _ => {}
        }
        if a == F::True {
            match &b {
                // F (x U y) = F y
                F::Until(_, y) => return F::eventually((**y).clone()),
                // F G F x = G F x
                F::Release(f, gf) if **f == F::False && gf.is_eventually() => return b,
                _ => {}
            }
        }
        F::Until(Box::new(a), Box::new(b))
    }

    /// `a R b`, simplified, assuming `a` and `b` are simplified (the dual of
    /// [`Formula::until`]).
    pub fn release(a: Formula, b: Formula) -> Formula {
        use Formula as F;
        match (&a, &b) {
            (_, F::True) | (_, F::False) => return b,
            (F::True, _) => return b,
            _ if a == b => return b,
            // a R (a R c) = a R c (covers G G c = G c)
            (_, F::Release(a2, _)) if **a2 == a => return b,
            _ => {}
        }
        if a == F::False {
            match &b {
                // G (x R y) = G y
                F::Release(_, y) => return F::always((**y).clone()),
                // G F G x = F G x
                F::Until(t, fg) if **t == F::True && fg.is_always() => return b,
                _ => {}
            }
        }
        F::Release(Box::new(a), Box::new(b))
    }

    /// Number of operators and leaves.
    pub fn size(&self) -> usize {
        use Formula as F;
        match self {
            F::True | F::False | F::Atom(_) | F::NotAtom(_) => 1,
            F::Next(x) => 1 + x.size(),
            F::And(x, y) | F::Or(x, y) | F::Until(x, y) | F::Release(x, y) => {
                1 + x.size() + y.size()
            }
        }
    }

    /// Readable text with `G`, `F`, `X`, `U`, `R`; atom k is printed as
    /// `atom_names[k]`, or `p<k>` if there is no such name.
    pub fn display(&self, atom_names: &[String]) -> String {
        use Formula as F;
        let r = |x: &Formula| x.display(atom_names);
        let name = |k: usize| {
            atom_names
                .get(k)
                .cloned()
                .unwrap_or_else(|| format!("p{k}"))
        };
        match self {
            F::True => "true".into(),
            F::False => "false".into(),
            F::Atom(k) => name(*k),
            F::NotAtom(k) => format!("!{}", name(*k)),
            F::And(x, y) => format!("({} && {})", r(x), r(y)),
            F::Or(x, y) => format!("({} || {})", r(x), r(y)),
            F::Next(x) => format!("X {}", r(x)),
            F::Until(x, y) if **x == F::True => format!("F {}", r(y)),
            F::Release(x, y) if **x == F::False => format!("G {}", r(y)),
            F::Until(x, y) => format!("({} U {})", r(x), r(y)),
            F::Release(x, y) => format!("({} R {})", r(x), r(y)),
        }
    }
}

impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display(&[]))
    }
}

/// Truth of `f` at position 0 of the infinite word
/// `word[0..loop_start] (word[loop_start..])^ω`; letter bit k is atom k.
///
/// Every position of the infinite word is one of the `word.len()` positions of the
/// lasso (position `len - 1` is followed by `loop_start`), so each subformula gets a
/// truth vector over those positions. `U` is the least and `R` the greatest solution
/// of its one-step unfolding over that graph, found by iterating to a fixpoint.
///
/// # Panics
/// If `word` is empty or `loop_start >= word.len()`.
pub fn eval_lasso(f: &Formula, word: &[u64], loop_start: usize) -> bool {
    assert!(
        loop_start < word.len(),
        "lasso needs loop_start < len (got {loop_start}, {})",
        word.len()
    );
    truth(f, word, loop_start)[0]
}

/// Truth vector of `f` over the lasso positions.
fn truth(f: &Formula, word: &[u64], loop_start: usize) -> Vec<bool> {
    use Formula as F;
    let n = word.len();
    let succ = |i: usize| if i + 1 < n { i + 1 } else { loop_start };
    match f {
        F::True => vec![true; n],
        F::False => vec![false; n],
        F::Atom(k) => word.iter().map(|w| w >> k & 1 == 1).collect(),
        F::NotAtom(k) => word.iter().map(|w| w >> k & 1 == 0).collect(),
        F::And(x, y) | F::Or(x, y) => {
            let (a, b) = (truth(x, word, loop_start), truth(y, word, loop_start));
            let conj = matches!(f, F::And(..));
            (0..n)
                .map(|i| if conj { a[i] && b[i] } else { a[i] || b[i] })
                .collect()
        }
        F::Next(x) => {
            let a = truth(x, word, loop_start);
            (0..n).map(|i| a[succ(i)]).collect()
        }
        F::Until(x, y) | F::Release(x, y) => {
            let (a, b) = (truth(x, word, loop_start), truth(y, word, loop_start));
            let until = matches!(f, F::Until(..));
            // U: least fixpoint of v = b ∨ (a ∧ X v), from all false.
            // R: greatest fixpoint of v = b ∧ (a ∨ X v), from all true.
            let mut v = vec![!until; n];
            loop {
                let mut changed = false;
                for i in (0..n).rev() {
                    let next = v[succ(i)];
                    let new = if until {
                        b[i] || (a[i] && next)
                    } else {
                        b[i] && (a[i] || next)
                    };
                    if new != v[i] {
                        v[i] = new;
                        changed = true;
                    }
                }
                if !changed {
                    return v;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ltl::testutil::{Rng, ir_atom, naive_eval, random_lasso, random_ltl, remap};

    use crate::ltl::testutil::build::*;

    #[test]
    fn nnf_of_ir() {
        let mut atoms = Vec::new();
        let p = Ltl::Atom(ir_atom(0));
        let q = Ltl::Atom(ir_atom(1));
        let b = |x: &Ltl| Box::new(x.clone());
        // ¬G(p → F q) = F(p ∧ G ¬q)
        let l = Ltl::Globally(Box::new(Ltl::Imp(b(&p), Box::new(Ltl::Finally(b(&q))))));
        let neg = negation_of_ir(&l, &mut atoms);
        assert_eq!(atoms, vec![ir_atom(0), ir_atom(1)]);
        assert_eq!(neg, f(Formula::And(Box::new(a(0)), Box::new(g(na(1))))));
        let pos = from_ir(&l, &mut atoms);
        assert_eq!(atoms.len(), 2, "atoms are shared between the two calls");
        assert_eq!(pos, g(Formula::Or(Box::new(na(0)), Box::new(f(a(1))))));
        assert_eq!(pos.negate(), neg);
        // p W q = q R (p ∨ q); ¬X p = X ¬p
        let w = Ltl::WeakUntil(b(&p), b(&q));
        assert_eq!(
            from_ir(&w, &mut atoms),
            r(a(1), Formula::Or(Box::new(a(0)), Box::new(a(1))))
        );
        let nx = Ltl::Not(Box::new(Ltl::Next(b(&p))));
        assert_eq!(from_ir(&nx, &mut atoms), Formula::Next(Box::new(na(0))));
        // Boolean constants fold; `not e` is the negated atom e.
        let t = Ltl::Atom(Expr::tt());
        assert_eq!(from_ir(&t, &mut atoms), Formula::True);
        assert_eq!(negation_of_ir(&t, &mut atoms), Formula::False);
        let np = Ltl::Atom(Expr::Not(Box::new(ir_atom(0))));
        assert_eq!(from_ir(&np, &mut atoms), na(0));
        assert_eq!(atoms.len(), 2);
    }

    #[test]
    fn simplifier_rules() {
        use Formula as F;
        let s = |x: Formula| x.simplify();
        let and = |x: Formula, y: Formula| F::And(Box::new(x), Box::new(y));
        let or = |x: Formula, y: Formula| F::Or(Box::new(x), Box::new(y));
        assert_eq!(s(and(a(0), F::True)), a(0));
        assert_eq!(s(and(a(0), F::False)), F::False);
        assert_eq!(s(or(a(0), F::True)), F::True);
        assert_eq!(s(or(a(0), F::False)), a(0));
        assert_eq!(s(and(a(0), na(0))), F::False);
        assert_eq!(s(or(a(0), na(0))), F::True);
        assert_eq!(s(and(a(0), a(0))), a(0));
        assert_eq!(s(and(a(1), a(0))), s(and(a(0), a(1))));
        assert_eq!(s(and(a(0), or(a(0), a(1)))), a(0));
        assert_eq!(s(or(a(0), and(a(1), a(0)))), a(0));
        assert_eq!(s(f(a(0))), f(a(0)));
        assert_eq!(s(g(a(0))), g(a(0)));
        assert_eq!(s(u(a(0), F::False)), F::False);
        assert_eq!(s(u(a(0), F::True)), F::True);
        assert_eq!(s(r(a(0), F::True)), F::True);
        assert_eq!(s(r(a(0), F::False)), F::False);
        assert_eq!(s(F::Next(Box::new(F::True))), F::True);
        assert_eq!(s(F::Next(Box::new(F::False))), F::False);
        assert_eq!(s(u(a(0), u(a(0), a(1)))), u(a(0), a(1)));
        assert_eq!(s(f(f(a(0)))), f(a(0)));
        assert_eq!(s(g(g(a(0)))), g(a(0)));
        assert_eq!(s(f(g(f(a(0))))), g(f(a(0))));
        assert_eq!(s(g(f(g(a(0))))), f(g(a(0))));
        assert_eq!(s(f(u(a(0), a(1)))), f(a(1)));
        assert_eq!(s(u(a(0), a(0))), a(0));
        assert_eq!(s(and(g(a(0)), f(na(0)))), F::False);
    }

    #[test]
    fn display_uses_names() {
        let names = vec!["req".to_string(), "ack".to_string()];
        let fm = g(Formula::Or(Box::new(na(0)), Box::new(f(a(1)))));
        assert_eq!(fm.display(&names), "G (!req || F ack)");
        assert_eq!(
            u(a(0), Formula::Next(Box::new(a(2)))).to_string(),
            "(p0 U X p2)"
        );
    }

    #[test]
    fn eval_hand_cases() {
        // a = bit 0, b = bit 1
        let (ab, a_, b_, none) = (3u64, 1u64, 2u64, 0u64);
        assert!(eval_lasso(&g(a(0)), &[a_, ab], 0));
        assert!(!eval_lasso(&g(a(0)), &[a_, ab, b_], 1));
        assert!(eval_lasso(&f(a(1)), &[a_, a_, b_], 2));
        assert!(eval_lasso(&f(a(1)), &[b_, a_], 1));
        assert!(!eval_lasso(&f(a(1)), &[a_, none], 0));
        assert!(eval_lasso(&u(a(0), a(1)), &[a_, a_, b_], 2));
        assert!(!eval_lasso(&u(a(0), a(1)), &[a_, none, b_], 2));
        assert!(
            !eval_lasso(&u(a(0), a(1)), &[a_], 0),
            "U needs b eventually"
        );
        assert!(eval_lasso(&r(a(0), a(1)), &[b_], 0), "R holds if b forever");
        assert!(eval_lasso(&r(a(0), a(1)), &[b_, ab, none], 2));
        assert!(!eval_lasso(&r(a(0), a(1)), &[b_, b_, none], 2));
        let x = Formula::Next(Box::new(a(0)));
        assert!(eval_lasso(&x, &[none, a_], 1));
        assert!(!eval_lasso(&x, &[a_, none], 1));
        assert!(eval_lasso(&x, &[a_], 0), "the loop wraps around");
        let gf = g(f(a(0)));
        assert!(eval_lasso(&gf, &[none, none, a_, none], 1));
        assert!(!eval_lasso(&gf, &[a_, a_, none], 2));
        let fg = f(g(a(0)));
        assert!(eval_lasso(&fg, &[none, none, a_], 2));
        assert!(!eval_lasso(&fg, &[a_, a_, none, a_], 1));
    }

    /// The evaluator against an independent evaluation straight on the IR, and the
    /// simplifier against the evaluator.
    #[test]
    fn random_eval_and_simplify() {
        let mut rng = Rng::new(0x5eed_1234);
        let mut words = 0;
        for _ in 0..3000 {
            let l = random_ltl(&mut rng, 4, 3);
            let mut atoms = Vec::new();
            let nnf = from_ir(&l, &mut atoms);
            let neg = negation_of_ir(&l, &mut atoms);
            let simp = nnf.simplify();
            assert_eq!(simp.simplify(), simp, "simplify not idempotent on {nnf}");
            // Atom k of the formula must be bit k of the letter: the naive evaluator
            // reads IR atoms directly, so remap its letters.
            for _ in 0..40 {
                let (word, lp) = random_lasso(&mut rng, 5, 3);
                words += 1;
                let expect = naive_eval(&l, &word, lp, 0);
                let mapped = remap(&word, &atoms);
                let got = eval_lasso(&nnf, &mapped, lp);
                assert_eq!(got, expect, "eval {nnf} vs IR {l:?} on {word:?} loop {lp}");
                assert_eq!(
                    eval_lasso(&simp, &mapped, lp),
                    got,
                    "simplified {simp} vs {nnf} on {mapped:?} loop {lp}"
                );
                assert_eq!(eval_lasso(&neg, &mapped, lp), !got, "negation {neg}");
            }
        }
        assert_eq!(words, 3000 * 40);
    }
}
