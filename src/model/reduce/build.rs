//! The reduced model as IR: the variables of the cone in their order, the updates of
//! cells that remain, the `init` conjuncts over them; every transition, property and
//! `init` block in its place (a dropped transition keeps its name with guard `False`
//! and no updates; a property nothing asks is `False`), so that numbers agree.

use super::{conjuncts, reads};
use crate::model::ir::*;

/// Transition `t` can no longer fire.
pub fn disable(m: &mut Model, t: usize) {
    let tr = &mut m.transitions[t];
    tr.guard = Expr::Const(0, Ty::Bool);
    tr.updates.clear();
}

/// `m` restricted to the variables `keep`, renumbered in order; with the new number of
/// every variable that remains.
pub fn restrict(m: &Model, keep: &[bool]) -> (Model, Vec<Option<VarId>>) {
    let mut kept = vec![None; m.vars.len()];
    let mut next = 0;
    for v in 0..m.vars.len() {
        if keep[v] {
            kept[v] = Some(next);
            next += 1;
        }
    }
    let re = Renumber(&kept);
    let renumber = |e: &Expr| e.rewrite(&re).unwrap_or_else(|n| match n {});
    let reads_gone = |e: &Expr| {
        let mut r = vec![false; m.vars.len()];
        reads(e, &mut r);
        r.iter().zip(keep).any(|(a, k)| *a && !k)
    };
    let mut out = m.clone();
    out.vars = (0..m.vars.len())
        .filter(|&v| keep[v])
        .map(|v| m.vars[v].clone())
        .collect();
    for t in &mut out.transitions {
        t.updates.retain(|u| keep[u.var]);
        if reads_gone(&t.guard) {
            // Only a transition the cone left out reads a variable that is gone, and
            // it has been disabled (`disable`); anything else is a bug of the cone.
            t.guard = Expr::Const(0, Ty::Bool);
            t.updates.clear();
        }
        t.guard = renumber(&t.guard);
        for u in &mut t.updates {
            u.var = kept[u.var].unwrap_or(u.var);
            for ix in &mut u.index {
                if let Index::Term(e) = ix {
                    *e = renumber(e);
                }
            }
            match &mut u.value {
                UpdValue::Term(e) | UpdValue::Any { cond: e, .. } => *e = renumber(e),
                UpdValue::Nondet => {}
            }
        }
    }
    for u in &mut out.unsafes {
        if reads_gone(&u.body) {
            u.body = Expr::Const(0, Ty::Bool);
            u.conjuncts.retain(|_| false);
        }
        u.body = renumber(&u.body);
        for c in &mut u.conjuncts {
            c.expr = renumber(&c.expr);
        }
    }
    for l in &mut out.ltls {
        if l.body.atoms().into_iter().any(reads_gone) {
            l.body = Ltl::Atom(Expr::Const(1, Ty::Bool));
        }
        l.body = super::map_atoms(&l.body, &mut |e| renumber(e));
    }
    for i in &mut out.inits {
        let cs: Vec<Expr> = conjuncts(&i.body)
            .into_iter()
            .filter(|c| !reads_gone(c))
            .map(renumber)
            .collect();
        i.body = super::and(cs);
    }
    if let Some(w) = &mut out.int_window {
        w.free = w.free.iter().filter_map(|&v| kept[v]).collect();
    }
    if let Some(l) = &mut out.lit_ints {
        l.vars = l.vars.iter().filter_map(|&v| kept[v]).collect();
    }
    (out, kept)
}

/// Reads of variable v become reads of `kept[v]`.
struct Renumber<'a>(&'a [Option<VarId>]);

impl Rewrite for Renumber<'_> {
    type Error = std::convert::Infallible;
    fn read(&self, v: VarId, ix: Vec<Expr>) -> Result<Expr, Self::Error> {
        Ok(Expr::Read(self.0[v].unwrap_or(v), ix))
    }
}
