//! The cone of influence of what is asked (Clarke, Grumberg, Peled, *Model Checking*,
//! ch. 16): the least set of cells closed under "a cell in the cone is written by an
//! update that reads c" and containing what the properties read. On the model's
//! transitions, with the interpreter's rules for what changes a run:
//! - a transition matters when it writes a cell of the cone, when its enabledness is
//!   observed (`ltl`, fairness, deadlocks), or when it can meet a range error (an
//!   error is reported, and a failing instance does not fire); the cells its guard
//!   reads then join the cone;
//! - an update that can fail (`safe`), or an `any` that can find no candidate, stays
//!   with everything it reads and the cell it writes;
//! - an `init` conjunct that reads a cell of the cone brings the cells it reads (the
//!   initial values of the cone must be those of the model); when some `init` conjunct
//!   can fail, every cell `init` reads stays.
//!
//! What is left out is never read by anything that stays, so every run of the model is
//! a run of the reduced model on the cells that stay, step for step, and every run of
//! the reduced model is such a projection (`lift`).

use super::safe::Ranges;
use super::{Asked, Dropped, conjuncts, reads};
use crate::model::ir::*;

/// The cone, and the transitions that leave it unchanged and can go.
pub struct Cone {
    /// Per variable: in the cone.
    pub cells: Vec<bool>,
    /// Transitions (not dropped before) with no effect on the cone.
    pub idle: Vec<usize>,
}

pub fn cone(m: &Model, asked: &Asked, sizes: &[usize], dropped: &[(usize, Dropped)]) -> Cone {
    let nv = m.vars.len();
    let ranges: Vec<Ranges> = sizes.iter().map(|&n| Ranges::new(m, n)).collect();
    let fails_upd = |t: &Transition, u: &Update| ranges.iter().any(|r| r.update_may_fail(t, u));
    let fails = |locals: &[Local], e: &Expr| ranges.iter().any(|r| r.may_fail(locals, e));
    let live: Vec<usize> = (0..m.transitions.len())
        .filter(|t| !dropped.iter().any(|d| d.0 == *t))
        .collect();
    // What each transition needs to keep whatever happens: its guard when it can
    // fail or its enabledness is observed, and every update that can fail.
    let mut must = vec![false; m.transitions.len()];
    let mut cells = vec![false; nv];
    for &p in &asked.props {
        reads(&m.unsafes[p].body, &mut cells);
    }
    for &l in &asked.ltls {
        for a in m.ltls[l].body.atoms() {
            reads(a, &mut cells);
        }
    }
    for &t in &live {
        let tr = &m.transitions[t];
        if asked.enabledness() || fails(&tr.locals, &tr.guard) {
            must[t] = true;
        }
        for u in &tr.updates {
            if fails_upd(tr, u) || conflicts(tr, u) {
                must[t] = true;
                cells[u.var] = true;
            }
        }
    }
    let init_fails = m.inits.iter().any(|i| fails(&i.locals, &i.body));
    if init_fails {
        for i in &m.inits {
            reads(&i.body, &mut cells);
        }
    }
    loop {
        let before = cells.clone();
        for &t in &live {
            let tr = &m.transitions[t];
            let matters = must[t] || tr.updates.iter().any(|u| cells[u.var]);
            if !matters {
                continue;
            }
            reads(&tr.guard, &mut cells);
            let writing: Vec<&Update> = tr.updates.iter().filter(|u| cells[u.var]).collect();
            for u in writing {
                update_reads(u, &mut cells);
            }
        }
        for i in &m.inits {
            for c in conjuncts(&i.body) {
                let mut r = vec![false; nv];
                reads(c, &mut r);
                if r.iter().zip(&cells).any(|(a, b)| *a && *b) {
                    for (x, y) in cells.iter_mut().zip(&r) {
                        *x |= *y;
                    }
                }
            }
        }
        if cells == before {
            break;
        }
    }
    let idle = live
        .into_iter()
        .filter(|&t| !must[t] && !m.transitions[t].updates.iter().any(|u| cells[u.var]))
        .collect();
    Cone { cells, idle }
}

/// What an update reads: its indices, its value or its `any` condition.
fn update_reads(u: &Update, cells: &mut [bool]) {
    for ix in &u.index {
        if let Index::Term(e) = ix {
            reads(e, cells);
        }
    }
    match &u.value {
        UpdValue::Term(e) | UpdValue::Any { cond: e, .. } => reads(e, cells),
        UpdValue::Nondet => {}
    }
}

/// Whether update `u` may write a cell another update of the transition also writes
/// (a range error, "conflicting updates"): two updates of one variable, unless both
/// write one cell each at indices that are distinct parameters in some position.
fn conflicts(t: &Transition, u: &Update) -> bool {
    let bound = |x: &Update| x.index.iter().any(|i| matches!(i, Index::Bind(_)));
    t.updates
        .iter()
        .filter(|x| x.var == u.var && !std::ptr::eq(*x, u))
        .any(|x| {
            bound(x)
                || bound(u)
                || !x.index.iter().zip(&u.index).any(|(a, b)| match (a, b) {
                    (Index::Term(Expr::Local(p)), Index::Term(Expr::Local(q))) => {
                        p != q && *p < t.params && *q < t.params
                    }
                    _ => false,
                })
        })
}
