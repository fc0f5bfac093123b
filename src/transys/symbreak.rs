//! Lexicographic-leader symmetry breaking on the final frame (D. Tang, S. Malik,
//! A. Gupta and C. N. Ip, *Symmetry Reduction in SAT-Based Model Checking*, CAV 2005;
//! T. Wahl, *Exploiting Replication in Automated Program Verification*, PhD thesis,
//! UT Austin 2007, §5.6): for each adjacent transposition π = (p p+1), the frame's
//! literal vector x must satisfy x ≤lex π(x). π moves cells indexed by processes (rows
//! and columns alike) and renames process-valued cells. The least member of every orbit
//! satisfies all these constraints, so for a symmetric system and property they remove
//! no bad state's orbit: a violation is found iff one exists.

use super::frame::Cell;
use super::term::{self, Term};
use super::unroll::Unroller;
use crate::model::ir::Ty;
use crate::sat::Lit;

/// The slot a cell moves to under the transposition of processes p and p + 1.
fn swapped_slot(u: &Unroller, slot: usize, p: i64) -> usize {
    let s = &u.inst.slots[slot];
    let dims = &u.inst.model.vars[s.var].dims;
    let index: Vec<i64> = s
        .index
        .iter()
        .zip(dims)
        .map(|(&i, &t)| match (t, i) {
            (Ty::Proc, i) if i == p => p + 1,
            (Ty::Proc, i) if i == p + 1 => p,
            _ => i,
        })
        .collect();
    u.inst.slot_of(s.var, &index).unwrap_or(slot)
}

/// Add the lex-leader constraints for frame k, active under the returned literal.
pub fn lex_leader(u: &mut Unroller, k: usize) -> Lit {
    lex_leader_from(u, k, 1)
}

/// Lex-leader constraints for the transpositions (p p+1) with p >= first (those fix
/// the processes below `first`).
pub fn lex_leader_from(u: &mut Unroller, k: usize, first: i64) -> Lit {
    let act = u.c.var();
    let n = u.inst.n as i64;
    let nslots = u.inst.slots.len();
    for p in first..n {
        // `eq` is forced true while every earlier position is equal (one direction
        // suffices: setting it true elsewhere only removes models, and the lex-least
        // member of an orbit keeps it exact).
        let mut eq = act;
        // The presence bits come first in the order, absent (`$`) above every present
        // local state: the least member of an orbit keeps absent slots last and stays
        // proper (Wahl's thesis, §11.5, Theorem 46).
        {
            let a = &u.agg;
            let (x, y) = (a.absent[p as usize - 1], a.absent[p as usize]);
            if x != y {
                u.c.clause(&[-eq, -x, y]);
                let next = u.c.var();
                u.c.clause(&[-eq, y, next]);
                u.c.clause(&[-eq, -x, next]);
                eq = next;
            }
        }
        for b in 0..nslots {
            let a = swapped_slot(u, b, p);
            let proc_valued = u.inst.model.vars[u.inst.slots[b].var].ty == Ty::Proc;
            let x = u.frames[k].cells[b].lex_lits();
            let y = if proc_valued {
                let t = u.frames[k].term(&mut u.c, &u.inst, a);
                let renamed: Vec<(i64, Lit)> = t
                    .flatten(&mut u.c)
                    .into_iter()
                    .map(|(v, c)| {
                        (
                            if v == p {
                                p + 1
                            } else if v == p + 1 {
                                p
                            } else {
                                v
                            },
                            c,
                        )
                    })
                    .collect();
                let renamed: Term = term::collect(&mut u.c, renamed);
                let s = &u.inst.slots[b];
                let size = (s.hi - s.lo + 1) as usize;
                Cell::from_term(&mut u.c, u.ts.enc, &renamed, s.lo, size).lex_lits()
            } else {
                u.frames[k].cells[a].lex_lits()
            };
            for (&xj, &yj) in x.iter().zip(&y) {
                if xj == yj {
                    continue;
                }
                // While all earlier positions are equal, x_j <= y_j ...
                u.c.clause(&[-eq, -xj, yj]);
                // ... and if equal here too, the prefix stays equal.
                let next = u.c.var();
                u.c.clause(&[-eq, yj, next]);
                u.c.clause(&[-eq, -xj, next]);
                eq = next;
            }
        }
    }
    act
}
