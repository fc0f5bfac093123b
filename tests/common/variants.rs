//! Rewrites of a model that keep its meaning (the metamorphic tests of the reduction,
//! tests/variants.rs, and benches/variants.rs): each is built on the IR, printed with
//! `lang::print::model_text` and read back, so that it is a model of the language
//! written the way a user might have written it:
//! 1. an unread per-process counter, stepped by every step of its process;
//! 2. an unread global scratch memory, written (any value) by every step, through a
//!    cursor that moves on;
//! 3. an always-true constant row, added to every guard;
//! 4. each process's id stored in a row fixed by `init` and compared in every guard of
//!    its process (families that are not symmetric only);
//! 5. a duplicate of a cell the properties read, kept equal to it by `init` and every
//!    step, read by the properties in its place;
//! 6. every name renamed and the declarations reordered;
//! 7. a transition split into two with disjoint guards and the same effect;
//! 8. the conjuncts of every guard in the opposite order (but a guard with arithmetic,
//!    where a conjunct may protect the next from a range error), and the transitions too.

use nfold::model::ir::*;
use nfold::source::Span;

/// The names of the variants, in order.
pub const NAMES: [&str; 8] = [
    "counter",
    "scratch",
    "const_row",
    "stored_id",
    "duplicate",
    "renamed",
    "split",
    "reordered",
];

/// Variant k (1-based, as in the module comment) of `m` as text, or `None` when it
/// does not apply to `m`.
pub fn variant(m: &Model, k: usize) -> Option<String> {
    let mut v = m.clone();
    let ok = match k {
        1 => counter(&mut v),
        2 => scratch(&mut v),
        3 => const_row(&mut v),
        4 => stored_id(&mut v),
        5 => duplicate(&mut v),
        6 => renamed(&mut v),
        7 => split(&mut v),
        8 => reordered(&mut v),
        _ => false,
    };
    ok.then(|| nfold::lang::print::model_text(&v))
}

fn span() -> Span {
    Span::new(0, 0)
}

fn fresh(m: &Model, base: &str) -> String {
    let mut n = base.to_string();
    while m.var_by_name(&n).is_some()
        || m.enums.iter().any(|e| e.name == n || e.ctors.contains(&n))
        || m.ranges.iter().any(|r| r.name == n)
        || m.transitions.iter().any(|t| t.name == n)
        || m.unsafes.iter().any(|u| u.name == n)
    {
        n.push('x');
    }
    n
}

fn add_var(m: &mut Model, base: &str, dims: Vec<Ty>, ty: Ty) -> VarId {
    let name = fresh(m, base);
    m.vars.push(Var {
        name,
        kind: VarKind::Array,
        dims: dims.clone(),
        ty,
        span: span(),
    });
    let v = m.vars.len() - 1;
    if dims.is_empty() {
        m.vars[v].kind = VarKind::Global;
    }
    v
}

fn add_range(m: &mut Model, base: &str, lo: i64, hi: i64) -> Ty {
    let name = fresh(m, base);
    m.ranges.push(RangeType {
        name,
        lo: SizeExpr::Lit(lo),
        hi: SizeExpr::Lit(hi),
        span: span(),
    });
    Ty::Range(m.ranges.len() - 1)
}

fn add_init(m: &mut Model, params: usize, body: Expr) {
    let locals = (0..params)
        .map(|k| Local {
            name: format!("nfz{k}"),
            ty: Ty::Proc,
        })
        .collect();
    m.inits.push(Init {
        params,
        locals,
        body,
        span: span(),
    });
}

fn eq(a: Expr, b: Expr) -> Expr {
    Expr::Cmp(CmpOp::Eq, Box::new(a), Box::new(b))
}

fn lit(v: i64) -> Expr {
    Expr::Const(v, Ty::Int)
}

fn update(var: VarId, index: Vec<Expr>, value: UpdValue) -> Update {
    Update {
        var,
        index: index.into_iter().map(Index::Term).collect(),
        value,
        span: span(),
    }
}

/// `if x = hi then lo else x + 1`.
fn step(x: Expr, lo: i64, hi: i64) -> Expr {
    Expr::Ite(
        Box::new(eq(x.clone(), lit(hi))),
        Box::new(lit(lo)),
        Box::new(Expr::Arith(ArithOp::Add, Box::new(x), Box::new(lit(1)))),
        Ty::Int,
    )
}

fn counter(m: &mut Model) -> bool {
    if !m.transitions.iter().any(|t| t.params > 0) {
        return false;
    }
    let digit = add_range(m, "nfdigit", 0, 7);
    let k = add_var(m, "NfK", vec![Ty::Proc], digit);
    for t in m.transitions.iter_mut().filter(|t| t.params > 0) {
        let cell = Expr::Read(k, vec![Expr::Local(0)]);
        t.updates.push(update(
            k,
            vec![Expr::Local(0)],
            UpdValue::Term(step(cell, 0, 7)),
        ));
    }
    add_init(m, 1, eq(Expr::Read(k, vec![Expr::Local(0)]), lit(0)));
    true
}

fn scratch(m: &mut Model) -> bool {
    let addr = add_range(m, "nfaddr", 1, 4);
    let mem = add_var(m, "NfMem", vec![addr], Ty::Bool);
    let ptr = add_var(m, "NfPtr", vec![], addr);
    for t in &mut m.transitions {
        let p = Expr::Read(ptr, vec![]);
        t.updates
            .push(update(mem, vec![p.clone()], UpdValue::Nondet));
        t.updates
            .push(update(ptr, vec![], UpdValue::Term(step(p, 1, 4))));
    }
    add_init(m, 0, eq(Expr::Read(ptr, vec![]), lit(1)));
    true
}

/// Prefix every guard with `c` (a formula over the transition's first parameter when
/// it has one, as `row`, else `global`).
fn guard_all(m: &mut Model, row: &dyn Fn() -> Expr, global: &dyn Fn() -> Expr) {
    for t in &mut m.transitions {
        let c = if t.params > 0 { row() } else { global() };
        let g = std::mem::replace(&mut t.guard, Expr::tt());
        t.guard = Expr::And(vec![c, g]);
    }
}

fn const_row(m: &mut Model) -> bool {
    let ok = add_var(m, "NfOk", vec![Ty::Proc], Ty::Bool);
    let on = add_var(m, "NfOn", vec![], Ty::Bool);
    let t = Expr::Const(1, Ty::Bool);
    add_init(m, 1, eq(Expr::Read(ok, vec![Expr::Local(0)]), t.clone()));
    add_init(m, 0, eq(Expr::Read(on, vec![]), t.clone()));
    guard_all(
        m,
        &|| eq(Expr::Read(ok, vec![Expr::Local(0)]), t.clone()),
        &|| eq(Expr::Read(on, vec![]), t.clone()),
    );
    true
}

fn stored_id(m: &mut Model) -> bool {
    if m.is_symmetric() || !m.transitions.iter().any(|t| t.params > 0) {
        return false;
    }
    let id = add_var(m, "NfId", vec![Ty::Proc], Ty::Proc);
    add_init(
        m,
        1,
        eq(Expr::Read(id, vec![Expr::Local(0)]), Expr::Local(0)),
    );
    for t in m.transitions.iter_mut().filter(|t| t.params > 0) {
        let c = eq(Expr::Read(id, vec![Expr::Local(0)]), Expr::Local(0));
        let g = std::mem::replace(&mut t.guard, Expr::tt());
        t.guard = Expr::And(vec![c, g]);
    }
    true
}

/// The variables a formula reads.
fn reads_of(e: &Expr, out: &mut Vec<VarId>) {
    e.walk(&mut |x| {
        if let Expr::Read(v, _) = x
            && !out.contains(v)
        {
            out.push(*v);
        }
        true
    });
}

fn duplicate(m: &mut Model) -> bool {
    let mut read = Vec::new();
    for u in &m.unsafes {
        reads_of(&u.body, &mut read);
    }
    for l in &m.ltls {
        for a in l.body.atoms() {
            reads_of(a, &mut read);
        }
    }
    let extra: Vec<String> = m.extra_proc.iter().flat_map(|x| x.vars.clone()).collect();
    let Some(x) = read.into_iter().find(|&x| {
        let v = &m.vars[x];
        v.kind != VarKind::Const
            && !extra.contains(&v.name)
            && v.dims.iter().all(|&d| d == Ty::Proc)
            && m.transitions.iter().all(|t| {
                t.updates
                    .iter()
                    .all(|u| u.var != x || matches!(u.value, UpdValue::Term(_)))
            })
    }) else {
        return false;
    };
    let (dims, ty, name) = (m.vars[x].dims.clone(), m.vars[x].ty, m.vars[x].name.clone());
    let d = add_var(m, &format!("{name}Copy"), dims.clone(), ty);
    for t in &mut m.transitions {
        let copies: Vec<Update> = t
            .updates
            .iter()
            .filter(|u| u.var == x)
            .map(|u| Update {
                var: d,
                ..u.clone()
            })
            .collect();
        t.updates.extend(copies);
    }
    let ix: Vec<Expr> = (0..dims.len()).map(Expr::Local).collect();
    add_init(
        m,
        dims.len(),
        eq(Expr::Read(d, ix.clone()), Expr::Read(x, ix)),
    );
    let as_d = |e: &Expr| -> Expr { e.rewrite(&Swap(x, d)).unwrap_or_else(|n| match n {}) };
    for u in &mut m.unsafes {
        u.body = as_d(&u.body);
    }
    for l in &mut m.ltls {
        l.body = map_ltl(&l.body, &as_d);
    }
    true
}

fn map_ltl(l: &Ltl, f: &dyn Fn(&Expr) -> Expr) -> Ltl {
    let b = |a: &Ltl| Box::new(map_ltl(a, f));
    match l {
        Ltl::Atom(e) => Ltl::Atom(f(e)),
        Ltl::Not(a) => Ltl::Not(b(a)),
        Ltl::Next(a) => Ltl::Next(b(a)),
        Ltl::Globally(a) => Ltl::Globally(b(a)),
        Ltl::Finally(a) => Ltl::Finally(b(a)),
        Ltl::And(a, c) => Ltl::And(b(a), b(c)),
        Ltl::Or(a, c) => Ltl::Or(b(a), b(c)),
        Ltl::Imp(a, c) => Ltl::Imp(b(a), b(c)),
        Ltl::Iff(a, c) => Ltl::Iff(b(a), b(c)),
        Ltl::Until(a, c) => Ltl::Until(b(a), b(c)),
        Ltl::Release(a, c) => Ltl::Release(b(a), b(c)),
        Ltl::WeakUntil(a, c) => Ltl::WeakUntil(b(a), b(c)),
    }
}

/// Reads of variable .0 become reads of .1.
struct Swap(VarId, VarId);

impl Rewrite for Swap {
    type Error = std::convert::Infallible;
    fn local(&self, id: LocalId) -> Result<Expr, Self::Error> {
        Ok(Expr::Local(id))
    }
    fn bound(&self, var: LocalId) -> LocalId {
        var
    }
    fn read(&self, v: VarId, ix: Vec<Expr>) -> Result<Expr, Self::Error> {
        Ok(Expr::Read(if v == self.0 { self.1 } else { v }, ix))
    }
}

/// Reads of variable v become reads of `order[v]`.
struct Renumber<'a>(&'a [VarId]);

impl Rewrite for Renumber<'_> {
    type Error = std::convert::Infallible;
    fn local(&self, id: LocalId) -> Result<Expr, Self::Error> {
        Ok(Expr::Local(id))
    }
    fn bound(&self, var: LocalId) -> LocalId {
        var
    }
    fn read(&self, v: VarId, ix: Vec<Expr>) -> Result<Expr, Self::Error> {
        Ok(Expr::Read(self.0[v], ix))
    }
}

fn renamed(m: &mut Model) -> bool {
    // Variables reversed (declared in the opposite order) and renamed.
    let n = m.vars.len();
    let to: Vec<VarId> = (0..n).map(|v| n - 1 - v).collect();
    let old = m.vars.clone();
    for (v, var) in old.iter().enumerate() {
        m.vars[to[v]] = Var {
            name: format!("Nv{v}"),
            ..var.clone()
        };
    }
    let re = |e: &Expr| -> Expr { e.rewrite(&Renumber(&to)).unwrap_or_else(|n| match n {}) };
    for t in &mut m.transitions {
        t.guard = re(&t.guard);
        for u in &mut t.updates {
            u.var = to[u.var];
            for ix in &mut u.index {
                if let Index::Term(e) = ix {
                    *e = re(e);
                }
            }
            if let UpdValue::Term(e) | UpdValue::Any { cond: e, .. } = &mut u.value {
                *e = re(e);
            }
        }
    }
    for u in &mut m.unsafes {
        u.body = re(&u.body);
    }
    for l in &mut m.ltls {
        l.body = map_ltl(&l.body, &re);
    }
    for i in &mut m.inits {
        i.body = re(&i.body);
    }
    if let Some(x) = &mut m.extra_proc {
        x.vars = x
            .vars
            .iter()
            .map(|name| {
                let v = old.iter().position(|o| &o.name == name).unwrap_or(0);
                format!("Nv{v}")
            })
            .collect();
    }
    for (k, t) in m.transitions.iter_mut().enumerate() {
        t.name = format!("nft{k}");
    }
    for (k, u) in m.unsafes.iter_mut().enumerate() {
        u.name = format!("nfp{k}");
    }
    for (k, l) in m.ltls.iter_mut().enumerate() {
        l.name = format!("nfl{k}");
    }
    true
}

fn split(m: &mut Model) -> bool {
    // The first transition of a process, split on the first process-indexed `bool`
    // or enumeration cell of that process (its first value or not).
    let Some(t) = m.transitions.iter().position(|t| t.params > 0) else {
        return false;
    };
    let Some(v) = m.vars.iter().position(|v| {
        v.dims == [Ty::Proc] && matches!(v.ty, Ty::Bool | Ty::Enum(_)) && v.kind != VarKind::Const
    }) else {
        return false;
    };
    let c = eq(
        Expr::Read(v, vec![Expr::Local(0)]),
        Expr::Const(0, m.vars[v].ty),
    );
    let mut b = m.transitions[t].clone();
    let g = m.transitions[t].guard.clone();
    m.transitions[t].guard = Expr::And(vec![g.clone(), c.clone()]);
    b.guard = Expr::And(vec![g, Expr::Not(Box::new(c))]);
    b.name = fresh(m, &format!("{}_else", b.name));
    m.transitions.insert(t + 1, b);
    true
}

/// The top-level conjuncts of `e` (nested `And`s flattened), in order.
fn conjuncts(e: &Expr, out: &mut Vec<Expr>) {
    match e {
        Expr::And(cs) => cs.iter().for_each(|c| conjuncts(c, out)),
        _ => out.push(e.clone()),
    }
}

fn reordered(m: &mut Model) -> bool {
    let mut changed = m.transitions.len() > 1;
    let m0 = m.clone();
    for t in &mut m.transitions {
        let mut cs = Vec::new();
        conjuncts(&t.guard, &mut cs);
        // A conjunct may protect the next from a range error (`j < N && X[j + 1]`):
        // a guard with index or process arithmetic keeps its order.
        let text = nfold::lang::print::expr_text(&m0, &t.locals, &t.guard);
        if cs.len() < 2 || text.contains(" + ") || text.contains(" - ") {
            continue;
        }
        changed = true;
        cs.reverse();
        t.guard = Expr::And(cs);
    }
    m.transitions.reverse();
    changed
}
