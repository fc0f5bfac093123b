//! Linear temporal logic for the engines: formulas in negation normal form over
//! numbered atoms (`formula`), their translation into state-labelled Büchi automata
//! (`buchi`), and a direct evaluator on lasso words that serves as the oracle for the
//! automata and as the independent check of counterexamples.
//!
//! To check `ψ`, an engine builds the automaton of `¬ψ` ([`for_negation`]), searches
//! its product with the system for an accepting lasso, and confirms any lasso found
//! with `!eval_lasso(ψ, word, loop_start)`.
//!
//! The automaton comes from the GPVW tableau (R. Gerth, D. Peled, M. Vardi and
//! P. Wolper, *Simple On-the-fly Automatic Verification of Linear Temporal Logic*, PSTV
//! 1995), degeneralized with a counter and then pruned and merged; `buchi` documents
//! the exact steps. GPVW is chosen for being simple enough to trust, with automata
//! small enough for the properties engines actually check.

pub mod buchi;
pub mod formula;
#[cfg(test)]
mod testutil;

pub use buchi::{BState, Buchi, translate};
pub use formula::{Formula, eval_lasso, from_ir, negation_of_ir};

use crate::model::ir::{Expr, Ltl, Model};

/// Letters are `u64` masks, one bit per atom.
pub const MAX_ATOMS: usize = 64;

/// What an engine needs to check `psi`: the Büchi automaton of `¬psi`, the atoms
/// (atom k is `atoms[k]`, to be evaluated on each state into bit k of its letter) and
/// the NNF of `psi` itself, for confirming a counterexample lasso with
/// `!eval_lasso(&nnf, word, loop_start)`.
///
/// Fails if `psi` has more than [`MAX_ATOMS`] distinct atoms.
pub fn for_negation(psi: &Ltl) -> Result<(Buchi, Vec<Expr>, Formula), String> {
    let mut atoms = Vec::new();
    let pos = from_ir(psi, &mut atoms);
    let neg = negation_of_ir(psi, &mut atoms);
    if atoms.len() > MAX_ATOMS {
        return Err(format!(
            "the LTL formula has {} distinct atomic propositions; at most {MAX_ATOMS} are supported",
            atoms.len()
        ));
    }
    Ok((translate(&neg), atoms, pos))
}

/// An `ltl` property prepared for checking: the Büchi automaton of its negation over
/// its atoms.
#[derive(Clone, Debug)]
pub struct LtlProperty {
    pub prop: usize,
    pub buchi: Buchi,
    pub atoms: Vec<Expr>,
    /// The property itself in negation normal form.
    pub psi: Formula,
}

impl LtlProperty {
    /// Translate property `prop` of the model.
    pub fn new(model: &Model, prop: usize) -> Result<LtlProperty, String> {
        let (buchi, atoms, psi) = for_negation(&model.ltls[prop].body)?;
        Ok(LtlProperty {
            prop,
            buchi,
            atoms,
            psi,
        })
    }
}

/// The processes to check a property for at size n: none for a property without a
/// parameter, process 1 for a fully symmetric family (the others follow by symmetry),
/// every process otherwise.
pub fn processes_to_check(model: &Model, prop: usize, n: usize) -> Vec<Option<i64>> {
    if model.ltls[prop].params == 0 {
        vec![None]
    } else if model.is_symmetric() {
        vec![Some(1)]
    } else {
        (1..=n as i64).map(Some).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::testutil::{Rng, ir_atom, naive_eval, random_lasso, random_ltl, remap};
    use super::*;

    #[test]
    fn too_many_atoms() {
        let mut l = Ltl::Atom(ir_atom(0));
        for k in 1..65 {
            l = Ltl::And(Box::new(l), Box::new(Ltl::Atom(ir_atom(k))));
        }
        let err = for_negation(&l).unwrap_err();
        assert!(err.contains("65"), "{err}");
        // Exactly 64 is fine.
        let Ltl::And(l64, _) = l else { unreachable!() };
        let (aut, atoms, _) = for_negation(&l64).unwrap();
        assert_eq!(atoms.len(), 64);
        assert!(aut.accepts_lasso(&[0], 0));
        assert!(!aut.accepts_lasso(&[u64::MAX], 0));
    }

    /// The automaton of ¬ψ accepts exactly the lassos on which ψ is false, for random
    /// ψ over three atoms (every operator of the IR) and random lassos, with ψ's truth
    /// taken both from `eval_lasso` and from the naive IR evaluator.
    #[test]
    fn random_automata_against_evaluator() {
        const FORMULAS: usize = 2000;
        const WORDS: usize = 40;
        let mut rng = Rng::new(0x17_1234_abcd);
        let mut max_states = 0;
        for _ in 0..FORMULAS {
            let l = random_ltl(&mut rng, 4, 3);
            let (aut, atoms, psi) = for_negation(&l).unwrap();
            max_states = max_states.max(aut.len());
            for _ in 0..WORDS {
                let (word, lp) = random_lasso(&mut rng, 5, 3);
                let letters = remap(&word, &atoms);
                let holds = eval_lasso(&psi, &letters, lp);
                assert_eq!(holds, naive_eval(&l, &word, lp, 0), "evaluators on {l:?}");
                assert_eq!(
                    aut.accepts_lasso(&letters, lp),
                    !holds,
                    "automaton of not {psi} on {letters:?} loop {lp}\n{}",
                    aut.describe(&[])
                );
            }
        }
        assert!(max_states > 1);
    }
}
