//! Constants: cells that no step changes and `init` fixes. A variable is *frozen* when
//! every update of it (in a transition that can still fire) stores the cell's own
//! value; the `init` conjuncts that read frozen variables only, grouped by the
//! variables they share, are solved at each size on their own (`init`'s backtracking
//! search, up to two solutions). A group with exactly one solution fixes its cells in
//! every initial state, hence in every reachable one: its reads are replaced by their
//! values. Such `init` conjuncts must be unable to fail (a range error in `init` is
//! reported), and every read must be replaceable: a uniform value anywhere, a table
//! over the index (only in a family that is not symmetric, where comparing a process
//! with a literal breaks nothing) only where the index is within the array.

use super::safe::Ranges;
use super::{Constant, Dropped, conjuncts, reads, rewrite_all, writes};
use crate::model::init::for_each_initial;
use crate::model::instance::Instance;
use crate::model::ints::classes::VarClasses;
use crate::model::ir::*;

/// The constants of `m` at `sizes`, not yet substituted.
pub fn find(m: &Model, sizes: &[usize], dropped: &[(usize, Dropped)]) -> Vec<Constant> {
    let nv = m.vars.len();
    // A variable `init` declares different from every process holds the extra id,
    // which only a model with that declaration can name: it stays.
    let extra = |v: VarId| {
        m.extra_proc
            .as_ref()
            .is_some_and(|x| x.vars.contains(&m.vars[v].name))
    };
    let frozen: Vec<bool> = (0..nv)
        .map(|v| !extra(v) && is_frozen(m, dropped, v))
        .collect();
    // Frozen variables still read somewhere (one that nothing reads is the cone's).
    let mut read = vec![false; nv];
    each_expr(m, &mut |e| reads(e, &mut read));
    let mut groups = VarClasses::new(nv);
    let mut own: Vec<Vec<(usize, usize)>> = vec![Vec::new(); nv];
    for (k, i) in m.inits.iter().enumerate() {
        for (c, x) in conjuncts(&i.body).into_iter().enumerate() {
            let mut r = vec![false; nv];
            reads(x, &mut r);
            let vs: Vec<VarId> = (0..nv).filter(|&v| r[v]).collect();
            if vs.is_empty() || !vs.iter().all(|&v| frozen[v]) {
                continue;
            }
            for w in &vs[1..] {
                groups.union(vs[0], *w);
            }
            own[vs[0]].push((k, c));
        }
    }
    let mut members: Vec<Vec<VarId>> = vec![Vec::new(); nv];
    for v in (0..nv).filter(|&v| frozen[v] && read[v]) {
        members[groups.find(v)].push(v);
    }
    let mut out = Vec::new();
    for (root, m_root) in members.iter().enumerate() {
        if m_root.is_empty() {
            continue;
        }
        let group: Vec<VarId> = (0..nv)
            .filter(|&v| frozen[v] && groups.find(v) == root)
            .collect();
        let items: Vec<(usize, usize)> = group.iter().flat_map(|&v| own[v].clone()).collect();
        let Some(values) = solve(m, &group, &items, sizes) else {
            continue;
        };
        for (k, &v) in group.iter().enumerate() {
            if !read[v] {
                continue;
            }
            let c = Constant {
                var: v,
                values: values
                    .iter()
                    .map(|(n, vals)| (*n, vals[k].clone()))
                    .collect(),
            };
            // A literal stored must be the value it already has everywhere.
            let lits = stored(m, dropped, v);
            let keeps = lits.is_empty() || lits.iter().all(|&k| c.uniform() == Some(k));
            if keeps && replaceable(m, &c, sizes, &frozen) {
                out.push(c);
            }
        }
    }
    out
}

/// No update of a transition that can fire changes variable `v` but to a literal:
/// each stores the cell's own value (`X := X`, `A[i] := A[i]`) or a literal (a cell
/// that constants determine, once they are in: the literal must then be the cell's
/// only value, `stored`), and none is an `any`.
fn is_frozen(m: &Model, dropped: &[(usize, Dropped)], v: VarId) -> bool {
    writes(m, dropped, v).all(|(_, u)| match &u.value {
        UpdValue::Term(Expr::Read(w, ix)) if *w == v => {
            ix.len() == u.index.len()
                && ix
                    .iter()
                    .zip(&u.index)
                    .all(|(a, b)| matches!(b, Index::Term(e) if e == a))
        }
        UpdValue::Term(Expr::Const(..)) => true,
        _ => false,
    })
}

/// The literals stored into variable `v` by transitions that can fire.
fn stored(m: &Model, dropped: &[(usize, Dropped)], v: VarId) -> Vec<i64> {
    writes(m, dropped, v)
        .filter_map(|(_, u)| match &u.value {
            UpdValue::Term(Expr::Const(k, _)) => Some(*k),
            _ => None,
        })
        .collect()
}

/// The only solution at each size of the `init` conjuncts `items` (init block, conjunct)
/// over the variables `group`: per size, per variable, its cells in layout order.
/// `None` when some size has none or several, or a conjunct may fail.
fn solve(
    m: &Model,
    group: &[VarId],
    items: &[(usize, usize)],
    sizes: &[usize],
) -> Option<Vec<(usize, Vec<Vec<i64>>)>> {
    let sub = sub_model(m, group, items);
    let mut out = Vec::new();
    for &n in sizes {
        let ranges = Ranges::new(&sub, n);
        if sub
            .inits
            .iter()
            .any(|i| ranges.may_fail(&i.locals, &i.body))
        {
            return None;
        }
        let inst = Instance::new(&sub, n);
        let mut found: Vec<Vec<i64>> = Vec::new();
        let r = for_each_initial(&inst, &mut |s| {
            found.push(s.to_vec());
            found.len() < 2
        });
        if r.is_err() || found.len() != 1 {
            return None;
        }
        let s = &found[0];
        let per_var = (0..group.len())
            .map(|k| {
                let l = &inst.vars[k];
                s[l.base..l.base + l.cells].to_vec()
            })
            .collect();
        out.push((n, per_var));
    }
    Some(out)
}

/// The model of the variables `group` alone (in that order), with the `init` conjuncts
/// `items` and nothing else.
fn sub_model(m: &Model, group: &[VarId], items: &[(usize, usize)]) -> Model {
    let mut sub = m.clone();
    sub.vars = group.iter().map(|&v| m.vars[v].clone()).collect();
    sub.transitions.clear();
    sub.unsafes.clear();
    sub.ltls.clear();
    let renumber = |e: &Expr| -> Expr {
        e.rewrite(&Renumber(group))
            .unwrap_or_else(|never: std::convert::Infallible| match never {})
    };
    sub.inits = m
        .inits
        .iter()
        .enumerate()
        .filter_map(|(k, i)| {
            let cs: Vec<Expr> = conjuncts(&i.body)
                .into_iter()
                .enumerate()
                .filter(|(c, _)| items.contains(&(k, *c)))
                .map(|(_, x)| renumber(x))
                .collect();
            (!cs.is_empty()).then(|| Init {
                body: Expr::And(cs),
                ..i.clone()
            })
        })
        .collect();
    sub
}

/// The model of the variables `vars` alone (variable k is `vars[k]`), with no
/// transitions or properties, whose `init` is the conjuncts of `m`'s that read only
/// them: the initial values they can take on their own.
pub(super) fn inits_of(m: &Model, vars: &[VarId]) -> Model {
    let only = |c: &Expr| {
        let mut r = vec![false; m.vars.len()];
        reads(c, &mut r);
        r.iter().any(|&b| b) && (0..r.len()).all(|v| !r[v] || vars.contains(&v))
    };
    let items: Vec<(usize, usize)> = m
        .inits
        .iter()
        .enumerate()
        .flat_map(|(k, i)| {
            let cs = conjuncts(&i.body).into_iter().enumerate();
            cs.filter(|(_, c)| only(c)).map(move |(c, _)| (k, c))
        })
        .collect();
    sub_model(m, vars, &items)
}

/// Reads of `group[k]` become reads of variable k.
pub(super) struct Renumber<'a>(pub(super) &'a [VarId]);

impl Rewrite for Renumber<'_> {
    type Error = std::convert::Infallible;
    fn read(&self, v: VarId, ix: Vec<Expr>) -> Result<Expr, Self::Error> {
        let k = self.0.iter().position(|&w| w == v).unwrap_or(v);
        Ok(Expr::Read(k, ix))
    }
}

/// Whether every read of the constant can be replaced by its value (the `init`
/// conjuncts over frozen variables only, which go with the constants, aside).
fn replaceable(m: &Model, c: &Constant, sizes: &[usize], frozen: &[bool]) -> bool {
    if c.uniform().is_some() || c.identity(m) {
        return true;
    }
    if m.is_symmetric() || m.is_ordered() {
        return false;
    }
    let dims = &m.vars[c.var].dims;
    let ranges: Vec<Ranges> = sizes.iter().map(|&n| Ranges::new(m, n)).collect();
    let mut ok = true;
    each_item(m, &mut |locals, e, init| {
        let mut r = vec![false; frozen.len()];
        reads(e, &mut r);
        if init && r.iter().zip(frozen).all(|(a, b)| !a || *b) {
            return;
        }
        e.walk(&mut |x| {
            if let Expr::Read(v, ix) = x
                && *v == c.var
            {
                ok &= ix
                    .iter()
                    .zip(dims)
                    .all(|(i, &d)| ranges.iter().all(|r| r.within_type(locals, i, d)));
            }
            true
        });
    });
    ok
}

/// Every expression of the model with the locals it is written over, and whether it
/// is a conjunct of an `init` block.
fn each_item(m: &Model, f: &mut dyn FnMut(&[Local], &Expr, bool)) {
    for t in &m.transitions {
        f(&t.locals, &t.guard, false);
        for u in &t.updates {
            for ix in &u.index {
                if let Index::Term(e) = ix {
                    f(&t.locals, e, false);
                }
            }
            if let UpdValue::Term(e) | UpdValue::Any { cond: e, .. } = &u.value {
                f(&t.locals, e, false);
            }
        }
    }
    for u in &m.unsafes {
        f(&u.locals, &u.body, false);
    }
    for l in &m.ltls {
        for a in l.body.atoms() {
            f(&l.locals, a, false);
        }
    }
    for i in &m.inits {
        for c in conjuncts(&i.body) {
            f(&i.locals, c, true);
        }
    }
}

fn each_expr(m: &Model, f: &mut dyn FnMut(&Expr)) {
    each_item(m, &mut |_, e, _| f(e));
}

/// Replace the reads of constant `c` by its values; the `init` conjuncts that read no
/// other variable are dropped (they are what fixed it).
pub fn substitute(m: &mut Model, c: &Constant, sizes: &[usize]) {
    let v = c.var;
    for i in &mut m.inits {
        let kept: Vec<Expr> = conjuncts(&i.body)
            .into_iter()
            .filter(|x| {
                let mut r = vec![false; m.vars.len()];
                reads(x, &mut r);
                !(r[v] && r.iter().enumerate().all(|(w, &b)| !b || w == v))
            })
            .cloned()
            .collect();
        i.body = super::and(kept);
    }
    let before = m.clone();
    let var = m.vars[v].clone();
    let value = |ix: &[Expr]| value_expr(&before, &var, c, ix, sizes);
    let mut f = |e: &Expr| {
        e.rewrite(&Replace {
            var: v,
            value: &value,
        })
        .unwrap_or_else(|n| match n {})
    };
    rewrite_all(m, &mut f);
}

/// The value of `var[ix]`: the uniform value, else a table over the index (and over
/// `N` when the tables of the sizes differ).
fn value_expr(m: &Model, var: &Var, c: &Constant, ix: &[Expr], sizes: &[usize]) -> Expr {
    if let Some(u) = c.uniform() {
        return Expr::Const(u, var.ty);
    }
    if c.identity(m) {
        return ix[0].clone();
    }
    let tables: Vec<Expr> = c
        .values
        .iter()
        .map(|(n, vals)| table(m, var, vals, ix, *n))
        .collect();
    if tables.windows(2).all(|w| w[0] == w[1]) {
        return tables[0].clone();
    }
    let mut out = tables[tables.len() - 1].clone();
    for (k, t) in tables.iter().enumerate().rev().skip(1) {
        let at_n = Expr::Cmp(
            CmpOp::Eq,
            Box::new(Expr::Size),
            Box::new(Expr::Const(sizes[k] as i64, Ty::Int)),
        );
        out = Expr::Ite(Box::new(at_n), Box::new(t.clone()), Box::new(out), var.ty);
    }
    out
}

fn var_id(m: &Model, var: &Var) -> VarId {
    m.var_by_name(&var.name).unwrap_or(0)
}

/// `if ix = i1 then v1 else if ... else v_last` over the cells of `var` at size n.
fn table(m: &Model, var: &Var, vals: &[i64], ix: &[Expr], n: usize) -> Expr {
    let tuples = index_tuples(m, var_id(m, var), n);
    let mut out = Expr::Const(vals[vals.len() - 1], var.ty);
    for (k, t) in tuples.iter().enumerate().rev().skip(1) {
        let cond: Vec<Expr> = ix
            .iter()
            .zip(t)
            .zip(&var.dims)
            .map(|((e, &i), &d)| {
                Expr::Cmp(CmpOp::Eq, Box::new(e.clone()), Box::new(Expr::Const(i, d)))
            })
            .collect();
        let cond = if cond.len() == 1 {
            cond.into_iter().next().unwrap_or_else(Expr::tt)
        } else {
            Expr::And(cond)
        };
        out = Expr::Ite(
            Box::new(cond),
            Box::new(Expr::Const(vals[k], var.ty)),
            Box::new(out),
            var.ty,
        );
    }
    out
}

/// The index tuples of variable `v`'s cells at size n, in layout order (last index
/// fastest).
fn index_tuples(m: &Model, v: VarId, n: usize) -> Vec<Vec<i64>> {
    let inst = Instance::new(m, n);
    let mut out = vec![Vec::new()];
    for &(lo, size) in &inst.vars[v].dims {
        out = out
            .into_iter()
            .flat_map(|t: Vec<i64>| {
                (lo..lo + size as i64).map(move |i| {
                    let mut t = t.clone();
                    t.push(i);
                    t
                })
            })
            .collect();
    }
    out
}

/// Replaces the reads of `var` by `value(indices)`.
struct Replace<'a> {
    var: VarId,
    value: &'a dyn Fn(&[Expr]) -> Expr,
}

impl Rewrite for Replace<'_> {
    type Error = std::convert::Infallible;
    fn read(&self, v: VarId, ix: Vec<Expr>) -> Result<Expr, Self::Error> {
        Ok(if v == self.var {
            (self.value)(&ix)
        } else {
            Expr::Read(v, ix)
        })
    }
}
