//! The AIGER export of an `ltl` property (`nfold aiger --live`): the product of the
//! model with the Büchi automaton of the negated property (`live::Product`, its plain
//! variant `Variant::Justice`: the automaton state `NfQ` beside the model's cells, no
//! loop bookkeeping), with one **justice property** (AIGER 1.9's J section; A. Biere,
//! K. Heljanko, S. Wieringa, "AIGER 1.9 and beyond", FMV report 11/2, 2011): a trace is
//! a witness when each of its literals holds infinitely often. The property is
//! violated exactly when the model has a (weakly fair, with `fair`) run whose Büchi
//! automaton run is accepting.
//!
//! The literals, each conjoined with `valid` (every constraint held so far: an
//! infinite trace on which a literal holds infinitely often is a run of the system,
//! every step constrained, since `invalid` never falls once set):
//!
//! - `accepting`: the automaton state of the current state is accepting, and the step
//!   leaving it is a step of the product (some transition instance fires; the deadlock
//!   stutter is one). The idle step of the transition system keeps the state and moves
//!   no automaton, so a trace that idles forever is no witness: idle steps only repeat
//!   states of a product run between its real steps.
//! - with `fair`, `fair[p]` per process slot p (weak fairness per process, the
//!   nested search's and the liveness-to-safety product's definition): the slot is
//!   absent (`$`, in the aggregate), or the step is a transition instance whose first
//!   parameter is p, or no product transition instance of p is enabled in the current
//!   state. The product's guard adds "the automaton can move" to the model's guard,
//!   the same for every instance, and it holds on every state a product step leaves:
//!   on the states of a witness "no instance of p enabled" is the model's.
//!
//! Fairness is written as literals of the one justice property, not as the F
//! section: with a single justice property the two mean the same (a fairness
//! constraint applies to every justice property), and neither section is read by ABC
//! (its AIGER readers refuse a file with J or F), whose liveness commands instead read
//! outputs by name: `for_abc` writes every justice literal as an ordinary output
//! `assume_fair_*` (ABC's `l2s`: a counterexample is a loop on which every
//! `assume_fair` output holds and not every `assert_fair` output does) and one
//! constant-false output `assert_fair_never`, so that ABC's loop condition is exactly
//! the justice property.

use super::{Aig, build_with};
use crate::live::{LOOP_PROP, Product, Variant};
use crate::model::ir::Model;
use crate::sat::Lit;
use crate::transys::Transys;
use crate::transys::frame::Encoding;

/// The justice export of `model`'s `ltl` property `prop` at sizes `min..=max` (one
/// size: `min == max`); `reset_values` as in `aiger::build`. The bad outputs are
/// `range_error` (a range error of the model met on a reached state of the product)
/// and, for a model with `int`, `int_bound`.
pub fn build(
    model: &Model,
    prop: usize,
    fair: bool,
    (min, max): (usize, usize),
    reset_values: bool,
) -> Result<Aig, String> {
    let product = Product::build(model, prop, fair, Variant::Justice)?;
    let mut ts = Transys::new(&product.model, min, max, Encoding::Binary);
    let lits = justice_lits(&mut ts, fair);
    let name = model.ltls[prop].name.clone();
    let mut aig = build_with(&mut ts, &[], reset_values, Some((name.clone(), lits)));
    aig.comments.push(format!(
        "justice property j0 `{name}`: a witness is a run of the model{} violating it; its literals:",
        if fair { " fair to every process" } else { "" }
    ));
    for (k, (what, _)) in aig.justice[0].lits.iter().enumerate() {
        let text = if what == "accepting" {
            "the Büchi automaton of the negated property leaves an accepting state (a step of the model or a deadlock's stutter, not the idle step)".to_string()
        } else {
            format!(
                "{what}: the process slot is absent, or executes the step, or has no enabled transition instance"
            )
        };
        aig.comments.push(format!("  literal {k}: {text}"));
    }
    Ok(aig)
}

/// The justice literals on the template: acceptance, then with `fair` one per process
/// slot (see the module comment).
fn justice_lits(ts: &mut Transys, fair: bool) -> Vec<(String, Lit)> {
    let (acc, acc_err) = ts.bad(LOOP_PROP);
    let fire = ts.fire.clone();
    let real = ts.c.or(&fire);
    let accepting = ts.c.and(&[acc, -acc_err, real]);
    let mut lits = vec![("accepting".to_string(), accepting)];
    if !fair {
        return lits;
    }
    for p in 0..ts.agg.max {
        let mine: Vec<usize> = (0..ts.instances.len())
            .filter(|&k| ts.instances[k].1.first() == Some(&(p as i64 + 1)))
            .collect();
        let executes: Vec<Lit> = mine.iter().map(|&k| ts.fire[k]).collect();
        let executes = ts.c.or(&executes);
        let mut disabled = Vec::with_capacity(mine.len());
        for &k in &mine {
            let e = &ts.evals[k];
            let (present, enabled) = (e.present, e.enabled);
            disabled.push(-ts.c.and2(present, enabled));
        }
        let disabled = ts.c.and(&disabled);
        let absent = ts.agg.absent[p];
        let served = ts.c.or(&[absent, executes, disabled]);
        lits.push((format!("fair[{}]", p + 1), served));
    }
    lits
}

/// The same circuit for ABC's liveness commands (`l2s`, which read outputs by name):
/// every justice literal an ordinary output `assume_fair_NAME`, one constant-false
/// output `assert_fair_never`, and every bad output b an output `assert_safety_no_B`
/// with literal ¬b (ABC asserts these hold); no B or J section. After `l2s`, output 0
/// of ABC's miter is the safety part (a range error), output 1 the lasso.
pub fn for_abc(mut aig: Aig) -> Aig {
    let mut outputs = Vec::new();
    for j in std::mem::take(&mut aig.justice) {
        for (what, lit) in j.lits {
            let what: String = what
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            outputs.push((format!("assume_fair_{}", what.trim_end_matches('_')), lit));
        }
    }
    outputs.push(("assert_fair_never".to_string(), 0));
    for (name, lit) in std::mem::take(&mut aig.bad) {
        outputs.push((format!("assert_safety_no_{name}"), lit ^ 1));
    }
    aig.outputs = outputs;
    aig.comments.push(
        "for ABC: the justice literals are outputs assume_fair_*, the bad outputs assert_safety_no_*; run `read FILE; l2s; pdr` (output 1 of the l2s miter: a lasso; output 0: a range error)"
            .to_string(),
    );
    aig
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_justice_property_with_a_literal_per_slot_under_fairness() {
        let m = crate::lang::load_str(
            "m.cub",
            "type s = I | W | C\narray A[proc] : s\ninit (z) { A[z] = I }\n\
             transition req (i) requires { A[i] = I } { A[i] := W; }\n\
             transition enter (i) requires { A[i] = W } { A[i] := C; }\n\
             transition exit (i) requires { A[i] = C } { A[i] := I; }\n\
             ltl served (i) { G (A[i] = W => F A[i] = C) }\n",
        )
        .unwrap();
        for (sizes, fair, lits) in [((2, 2), false, 1), ((2, 2), true, 3), ((1, 3), true, 4)] {
            let aig = build(&m, 0, fair, sizes, true).unwrap();
            assert_eq!(aig.justice.len(), 1);
            assert_eq!(aig.justice[0].name, "served");
            assert_eq!(aig.justice[0].lits.len(), lits);
            let names: Vec<&str> = aig.bad.iter().map(|b| b.0.as_str()).collect();
            assert_eq!(names, ["range_error"]);
            let mut out = Vec::new();
            aig.write(&mut out).unwrap();
            let head = out.split(|&c| c == b'\n').next().unwrap();
            let n: Vec<usize> = String::from_utf8_lossy(&head[4..])
                .split(' ')
                .map(|x| x.parse().unwrap())
                .collect();
            // O = 0, B = 1, C = 0, J = 1, F = 0.
            assert_eq!((n[3], n[5], n[6], n[7], n[8]), (0, 1, 0, 1, 0));
            let abc = for_abc(aig.clone());
            assert!(abc.justice.is_empty() && abc.bad.is_empty());
            assert_eq!(abc.outputs.len(), lits + 2);
            assert_eq!(abc.outputs[lits], ("assert_fair_never".to_string(), 0));
            assert_eq!(abc.outputs[lits + 1].1, aig.bad[0].1 ^ 1);
        }
    }
}
