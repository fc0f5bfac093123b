//! Ints that `init` leaves free but that are written before they are read
//! (Cubicle's `Num_buffer` in bakery_lamport_na_wb: a write buffer that `exit` fills
//! and flags, and that only the flagged `num_wb` copies). Such an int may be taken
//! as starting at a literal: no run can tell its initial value (docs/every-n.md,
//! "Free initial ints written before they are read"). This module owns the
//! condition, decided from the text, and the choice of that literal.
//!
//! The condition, for an int X that `init` does not read: a boolean F with X's
//! dimensions (a *flag*) such that
//! - `init` fixes F to `False` at every cell (`F[z] = False` at the top of `init`);
//! - every read `X[e..]` anywhere in a transition has a top-level conjunct
//!   `F[e..] = True` (the same index terms) in that transition's guard, and X is read
//!   by no `init` and no property;
//! - every store into F is the literal `False`, or sits in a transition that stores
//!   into X at the same cells (the same index terms, or bound indices).
//!
//! Then a cell X[ā] whose flag is `False` has not been read since it was last
//! written, or since the start: its value never reaches a guard, a property or
//! another cell, and fixing it initially changes no run's visible behaviour.

use super::*;

impl Ord<'_> {
    /// For the int `v` that `init` leaves free: the literal its initial value is taken
    /// to be, when it is written before it is read (module comment), or why not.
    pub(super) fn written_first(&self, v: VarId) -> Result<i64, String> {
        let m = self.m;
        let name = &m.vars[v].name;
        let free = || format!("`init` does not fix the int `{name}` to a literal");
        if m.vars[v].dims.len() > 1 {
            return err(free());
        }
        let read_by_props = m
            .inits
            .iter()
            .map(|i| &i.body)
            .chain(m.unsafes.iter().map(|u| &u.body));
        if read_by_props
            .into_iter()
            .any(|e| !reads_of(e, v).is_empty())
        {
            return err(format!("{}, and reads it", free()));
        }
        let at = self.stored_lit(v).unwrap_or(0);
        if !reads_anywhere(m, v) {
            return Ok(at);
        }
        let mut why = None;
        for f in 0..m.vars.len() {
            if m.vars[f].ty != Ty::Bool || m.vars[f].dims != m.vars[v].dims {
                continue;
            }
            match self.flags(v, f) {
                Ok(()) => return Ok(at),
                Err(e) => {
                    why.get_or_insert(e);
                }
            }
        }
        err(match why {
            None => format!(
                "{}, and no boolean of its dimensions flags it written",
                free()
            ),
            Some(e) => format!("{}, and it may be read before it is written ({e})", free()),
        })
    }

    /// Whether the boolean `f` is a flag for the int `v` (module comment), or why not.
    fn flags(&self, v: VarId, f: VarId) -> Result<(), String> {
        let m = self.m;
        let (vn, fname) = (&m.vars[v].name, &m.vars[f].name);
        if m.vars[f].kind == VarKind::Const || !m.inits.iter().any(|i| starts_false(&i.body, f)) {
            return err(format!("`init` does not set `{fname}` to False everywhere"));
        }
        for t in &m.transitions {
            let guarded = flag_conjuncts(&t.guard, f);
            let mut reads = reads_of(&t.guard, v);
            for u in &t.updates {
                for ix in &u.index {
                    if let Index::Term(x) = ix {
                        reads.extend(reads_of(x, v));
                    }
                }
                match &u.value {
                    UpdValue::Term(e) => reads.extend(reads_of(e, v)),
                    UpdValue::Any { cond, .. } => reads.extend(reads_of(cond, v)),
                    UpdValue::Nondet => {}
                }
            }
            if let Some(ix) = reads.iter().find(|ix| !guarded.contains(ix)) {
                let at = if ix.is_empty() {
                    String::new()
                } else {
                    "[..]".into()
                };
                return err(format!(
                    "transition `{}` reads `{vn}{at}` without its guard saying `{fname}{at} = True`",
                    t.name
                ));
            }
            for u in t.updates.iter().filter(|u| u.var == f) {
                if !matches!(&u.value, UpdValue::Term(Expr::Const(0, Ty::Bool)))
                    && !writes_same(t, v, &u.index)
                {
                    return err(format!(
                        "transition `{}` may set `{fname}` without storing into `{vn}` there",
                        t.name
                    ));
                }
            }
        }
        Ok(())
    }

    /// The smallest literal a transition stores into `v`, if any.
    fn stored_lit(&self, v: VarId) -> Option<i64> {
        let mut lits = Vec::new();
        for t in &self.m.transitions {
            if let Some((_, tree)) = self.update_of(t, v) {
                tree_lits(&tree, &mut lits);
            }
        }
        lits.into_iter().min()
    }
}

/// Whether some transition reads `v` at all.
fn reads_anywhere(m: &Model, v: VarId) -> bool {
    let mut any = false;
    for t in &m.transitions {
        any |= !reads_of(&t.guard, v).is_empty();
        for u in &t.updates {
            if let UpdValue::Term(e) | UpdValue::Any { cond: e, .. } = &u.value {
                any |= !reads_of(e, v).is_empty();
            }
            for ix in &u.index {
                if let Index::Term(x) = ix {
                    any |= !reads_of(x, v).is_empty();
                }
            }
        }
    }
    any
}

/// The index lists of every read of `v` in `e`.
fn reads_of(e: &Expr, v: VarId) -> Vec<Vec<Expr>> {
    let mut out = Vec::new();
    collect_reads(e, v, &mut out);
    out
}

fn collect_reads(e: &Expr, v: VarId, out: &mut Vec<Vec<Expr>>) {
    if let Expr::Read(w, ix) = e
        && *w == v
    {
        out.push(ix.clone());
    }
    e.for_each_child(|x| collect_reads(x, v, out));
}

/// The index lists of the top-level conjuncts `f[e..] = True` of a guard (index terms
/// that read no int, so that they mean the same at both ends of the argument).
fn flag_conjuncts(g: &Expr, f: VarId) -> Vec<Vec<Expr>> {
    let conj: Vec<&Expr> = match g {
        Expr::And(xs) => xs.iter().collect(),
        e => vec![e],
    };
    conj.into_iter()
        .filter_map(|c| flag_at(c, f, 1))
        .filter(|ix| ix.iter().all(|x| !reads_state(x)))
        .collect()
}

/// `f[e..] = b` (either way round, or `f[e..]` alone for true): the indices.
fn flag_at(c: &Expr, f: VarId, b: i64) -> Option<Vec<Expr>> {
    let cell = |x: &Expr| match x {
        Expr::Read(w, ix) if *w == f => Some(ix.clone()),
        _ => None,
    };
    let is_b = |x: &Expr| matches!(x, Expr::Const(k, Ty::Bool) if *k == b);
    match c {
        Expr::Cmp(CmpOp::Eq, x, y) if is_b(y) => cell(x),
        Expr::Cmp(CmpOp::Eq, x, y) if is_b(x) => cell(y),
        Expr::Read(..) if b == 1 => cell(c),
        Expr::Not(x) if b == 0 => cell(x),
        _ => None,
    }
}

/// Whether an index term reads the state or compares (then it is refused as a flag's
/// index: parameters and constants mean the same in the two states of the argument).
fn reads_state(e: &Expr) -> bool {
    let mut any = matches!(e, Expr::Read(..) | Expr::Cmp(..) | Expr::Arith(..));
    e.for_each_child(|x| any |= reads_state(x));
    any
}

/// Whether a top-level conjunct of an `init` body sets `f` false at every cell: its
/// indices are distinct `init` parameters.
fn starts_false(body: &Expr, f: VarId) -> bool {
    let conj: Vec<&Expr> = match body {
        Expr::And(xs) => xs.iter().collect(),
        e => vec![e],
    };
    conj.into_iter().any(|c| {
        flag_at(c, f, 0).is_some_and(|ix| {
            let ls: Vec<_> = ix
                .iter()
                .filter_map(|x| match x {
                    Expr::Local(l) => Some(*l),
                    _ => None,
                })
                .collect();
            ls.len() == ix.len() && (1..ls.len()).all(|i| !ls[..i].contains(&ls[i]))
        })
    })
}

/// Whether transition `t` stores into `v` at every cell the index list `at` names:
/// the same index terms, or bound indices.
fn writes_same(t: &Transition, v: VarId, at: &[Index]) -> bool {
    t.updates.iter().any(|u| {
        u.var == v
            && u.index.len() == at.len()
            && u.index.iter().zip(at).all(|(a, b)| match (a, b) {
                (Index::Bind(_), _) => true,
                (Index::Term(x), Index::Term(y)) => x == y,
                _ => false,
            })
    })
}

/// The literals at the leaves of a stored value.
fn tree_lits(t: &Tree, out: &mut Vec<i64>) {
    match t {
        Tree::Ite(_, a, b) => {
            tree_lits(a, out);
            tree_lits(b, out);
        }
        Tree::Leaf(Leaf::Lit(k)) => out.push(*k),
        Tree::Leaf(_) => {}
    }
}
