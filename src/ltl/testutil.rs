//! Test support for the LTL module: a seeded PRNG, random IR formulas and lasso words,
//! and a naive evaluator working straight on the IR, independent of the NNF
//! translation and of `eval_lasso`'s fixpoint computation.

use crate::model::ir::{Expr, Ltl, Ty};
use crate::model::rng::SplitMix64;

/// The generator of `model::rng`, drawing `0..n` by plain modulo, one draw per call
/// whatever `n` (as these tests' sequences were made; the bias is irrelevant here).
pub struct Rng(SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64::new(seed))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A stand-in IR atom: the global variable `k`, read as a boolean.
pub fn ir_atom(k: usize) -> Expr {
    Expr::Read(k, vec![])
}

/// Truth of a stand-in atom on a letter whose bit k is the value of `Read(k)`.
pub fn eval_ir_atom(e: &Expr, letter: u64) -> bool {
    match e {
        Expr::Read(k, idx) if idx.is_empty() => letter >> k & 1 == 1,
        Expr::Not(x) => !eval_ir_atom(x, letter),
        Expr::Const(v, Ty::Bool) => *v != 0,
        other => panic!("not a test atom: {other:?}"),
    }
}

/// A random IR formula of depth at most `depth` over `Read(0..natoms)`, using every
/// operator; atoms are sometimes negated inside the expression or constant.
pub fn random_ltl(rng: &mut Rng, depth: usize, natoms: usize) -> Ltl {
    if depth == 0 || rng.below(5) == 0 {
        let k = rng.below(natoms);
        return Ltl::Atom(match rng.below(12) {
            0 => Expr::Not(Box::new(ir_atom(k))),
            1 => Expr::Const(rng.below(2) as i64, Ty::Bool),
            _ => ir_atom(k),
        });
    }
    let op = rng.below(12);
    let mut sub = || Box::new(random_ltl(rng, depth - 1, natoms));
    match op {
        0 => Ltl::Not(sub()),
        1 => Ltl::And(sub(), sub()),
        2 => Ltl::Or(sub(), sub()),
        3 => Ltl::Imp(sub(), sub()),
        4 => Ltl::Iff(sub(), sub()),
        5 => Ltl::Next(sub()),
        6 => Ltl::Globally(sub()),
        7 => Ltl::Finally(sub()),
        8 => Ltl::Until(sub(), sub()),
        9 => Ltl::Release(sub(), sub()),
        10 => Ltl::WeakUntil(sub(), sub()),
        _ => Ltl::Not(sub()),
    }
}

/// A random lasso word: length 1..=max_len, letters over `natoms` bits, loop start
/// anywhere.
pub fn random_lasso(rng: &mut Rng, max_len: usize, natoms: usize) -> (Vec<u64>, usize) {
    let len = 1 + rng.below(max_len);
    let word = (0..len)
        .map(|_| rng.next_u64() & ((1 << natoms) - 1))
        .collect();
    (word, rng.below(len))
}

/// Letters over IR atoms (bit k = `Read(k)`) turned into letters over the numbered
/// atoms of a formula (bit i = `atoms[i]`).
pub fn remap(word: &[u64], atoms: &[Expr]) -> Vec<u64> {
    word.iter()
        .map(|&w| {
            atoms
                .iter()
                .enumerate()
                .fold(0u64, |acc, (i, e)| acc | (eval_ir_atom(e, w) as u64) << i)
        })
        .collect()
}

/// Truth of `l` at position `i` of the lasso, straight from the definitions. From
/// any position at most `word.len()` distinct positions are reachable, so scanning
/// `word.len()` steps forward sees every future position.
pub fn naive_eval(l: &Ltl, word: &[u64], loop_start: usize, i: usize) -> bool {
    let n = word.len();
    let succ = |p: usize| if p + 1 < n { p + 1 } else { loop_start };
    let ev = |x: &Ltl, p: usize| naive_eval(x, word, loop_start, p);
    // The positions i, succ(i), ... (n of them, covering all reachable ones).
    let future = || {
        let mut p = i;
        (0..n).map(move |_| {
            let here = p;
            p = succ(p);
            here
        })
    };
    match l {
        Ltl::Atom(e) => eval_ir_atom(e, word[i]),
        Ltl::Not(x) => !ev(x, i),
        Ltl::And(x, y) => ev(x, i) && ev(y, i),
        Ltl::Or(x, y) => ev(x, i) || ev(y, i),
        Ltl::Imp(x, y) => !ev(x, i) || ev(y, i),
        Ltl::Iff(x, y) => ev(x, i) == ev(y, i),
        Ltl::Next(x) => ev(x, succ(i)),
        Ltl::Globally(x) => future().all(|p| ev(x, p)),
        Ltl::Finally(x) => future().any(|p| ev(x, p)),
        // Some y, with x everywhere before it; the weak until also counts x forever
        // (a cycle of x without y).
        Ltl::Until(x, y) | Ltl::WeakUntil(x, y) => {
            for p in future() {
                if ev(y, p) {
                    return true;
                }
                if !ev(x, p) {
                    return false;
                }
            }
            matches!(l, Ltl::WeakUntil(..))
        }
        // y holds up to and including the first x; forever if there is no x.
        Ltl::Release(x, y) => {
            for p in future() {
                if !ev(y, p) {
                    return false;
                }
                if ev(x, p) {
                    return true;
                }
            }
            true
        }
    }
}

/// Short constructors for hand-written formulas in tests.
pub mod build {
    use crate::ltl::formula::Formula;

    pub fn a(k: usize) -> Formula {
        Formula::Atom(k)
    }
    pub fn na(k: usize) -> Formula {
        Formula::NotAtom(k)
    }
    pub fn and(x: Formula, y: Formula) -> Formula {
        Formula::And(Box::new(x), Box::new(y))
    }
    pub fn or(x: Formula, y: Formula) -> Formula {
        Formula::Or(Box::new(x), Box::new(y))
    }
    pub fn u(x: Formula, y: Formula) -> Formula {
        Formula::Until(Box::new(x), Box::new(y))
    }
    pub fn r(x: Formula, y: Formula) -> Formula {
        Formula::Release(Box::new(x), Box::new(y))
    }
    pub fn f(x: Formula) -> Formula {
        u(Formula::True, x)
    }
    pub fn g(x: Formula) -> Formula {
        r(Formula::False, x)
    }
    pub fn x(y: Formula) -> Formula {
        Formula::Next(Box::new(y))
    }
}
