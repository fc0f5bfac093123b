//! What the ranking search reads of the model: the atoms of the guards over the
//! property's process, and the model with the invariant's lemmas, A, B and those atoms
//! as `unsafe` blocks, read by the search itself (docs/internals.md, "The trust base").

use super::Response;
use crate::cert::{CertLemma, count};
use crate::lang::{self, print::expr_text};
use crate::model::ir::{Expr, Model};
use std::collections::HashSet;

/// Atoms of the guards of the transitions (their first process), over that process
/// alone, as text over `var`.
pub(super) fn guard_atoms(model: &Model, var: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for t in model.transitions.iter().filter(|t| t.params >= 1) {
        if t.locals.iter().skip(1).any(|l| l.name == var) {
            continue;
        }
        let mut locals = t.locals.clone();
        locals[0].name = var.to_string();
        let mut found = Vec::new();
        atoms_of(&t.guard, &mut found);
        for e in found {
            // The locals read and not bound within the atom (bound ones have their own
            // ids, after the parameters).
            let (mut read, mut bound) = (HashSet::new(), HashSet::new());
            e.walk(&mut |x| {
                match x {
                    Expr::Local(l) => {
                        read.insert(*l);
                    }
                    Expr::Quant(q) => {
                        bound.insert(q.var);
                    }
                    _ => {}
                }
                true
            });
            let free: Vec<&usize> = read.difference(&bound).collect();
            if free == [&0] {
                let text = expr_text(model, &locals, e);
                if !out.contains(&text) {
                    out.push(text);
                }
            }
        }
    }
    out
}

fn atoms_of<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match e {
        Expr::And(xs) => xs.iter().for_each(|x| atoms_of(x, out)),
        Expr::Or(xs) => {
            out.push(e);
            xs.iter().for_each(|x| atoms_of(x, out));
        }
        Expr::Not(x) => atoms_of(x, out),
        Expr::Cmp(..) | Expr::Quant(_) => out.push(e),
        _ => {}
    }
}

/// The model read with the invariant's lemmas, A, B and the atoms as `unsafe` blocks,
/// in that order; kept alive beside the search that borrows it. The search's own
/// reading of its text, not the checker's (docs/internals.md, "The trust base"): were
/// the two to read a lemma apart, the check would reject the ranking instead of both
/// agreeing on the misreading. Inv is the conjunction of the lemmas that are formulas
/// of the model (an IC3 invariant has no other kind, `proof::lemma`); leaving one out
/// weakens Inv, which can cost a ranking, never pass a wrong one.
pub(super) fn augmented(
    model: &Model,
    resp: &Response,
    lemmas: &[CertLemma],
    atoms: &[String],
) -> Result<Model, String> {
    let pre = lang::unused_prefix(model, "nfold_rank_");
    let mut text = String::new();
    let formulas = lemmas.iter().filter(|l| {
        !l.no_range
            && !l.no_int_bound
            && l.bdd.is_none()
            && matches!(count::parse(&l.body), Ok(None))
    });
    for (k, l) in formulas.enumerate() {
        // An ordered lemma speaks of its processes in increasing order only.
        let order: String = (l.vars.windows(2))
            .filter(|_| l.ordered)
            .map(|w| format!("{} < {} && ", w[0], w[1]))
            .collect();
        let vars = l.vars.join(" ");
        text.push_str(&format!(
            "unsafe {pre}inv{k} ({vars}) {{ {order}({}) }}\n",
            l.body
        ));
    }
    text.push_str(&format!("unsafe {pre}a ({}) {{ {} }}\n", resp.var, resp.a));
    text.push_str(&format!("unsafe {pre}b ({}) {{ {} }}\n", resp.var, resp.b));
    for (k, a) in atoms.iter().enumerate() {
        text.push_str(&format!("unsafe {pre}at{k} ({}) {{ {a} }}\n", resp.var));
    }
    lang::with_unsafes(model, &text).map_err(|e| {
        format!(
            "the invariant or the property does not read as formulas of the model: {}",
            e.diagnostic.message
        )
    })
}
