//! Items: `init`, `unsafe` and `invariant` properties, transitions (guard, `let`,
//! updates: terms, `case`, `.` and `any`, array copies) and `ltl` properties.

use super::{Binding, Checker, Items, R, Scope, err};
use crate::lang::ast::{self, BinOp, ExprKind, Ident, TempOp};
use crate::model::ir::*;
use crate::source::{Diagnostic, Span};

/// The names an update's index binds (to update every cell), with their positions.
type Fresh = Vec<(String, Span)>;

impl Checker<'_> {
    /// Check one item of the file into `out` (predicates were recorded before).
    pub(super) fn item(&mut self, it: &ast::Item, out: &mut Items) -> R<()> {
        match it {
            ast::Item::Init { params, body, span } => {
                out.inits.push(self.init(params, body, *span)?)
            }
            ast::Item::Predicate { .. } => {}
            ast::Item::Unsafe {
                name,
                params,
                body,
                span,
            }
            | ast::Item::Invariant {
                name,
                params,
                body,
                span,
            } => {
                // Unnamed ones are numbered per kind (`unsafe1`, `invariant1`); both
                // kinds share one namespace, that of `--property`.
                let kind = match it {
                    ast::Item::Invariant { .. } => PropKind::Invariant,
                    _ => PropKind::Unsafe,
                };
                let nm = match name {
                    Some(n) => n.name.clone(),
                    None if kind == PropKind::Invariant => {
                        out.unnamed_inv += 1;
                        format!("invariant{}", out.unnamed_inv)
                    }
                    None => {
                        out.unnamed += 1;
                        format!("unsafe{}", out.unnamed)
                    }
                };
                if out.unsafes.iter().any(|u| u.name == nm) {
                    return err(*span, format!("a property named `{nm}` is already defined"));
                }
                out.unsafes
                    .push(self.unsafe_prop(nm, kind, params, body, *span)?);
            }
            ast::Item::Transition {
                name,
                params,
                requires,
                updates,
                span,
            } => {
                let mut t = self.transition(name, params, requires.as_ref(), updates, *span)?;
                // Cubicle reads a repeated name as another transition: the k-th one is
                // shown as `name#k`.
                let same = out
                    .transitions
                    .iter()
                    .filter(|t| t.name.split('#').next() == Some(name.name.as_str()))
                    .count();
                if same > 0 {
                    t.name = format!("{}#{}", name.name, same + 1);
                    out.repeated.push((name.clone(), *span));
                }
                out.transitions.push(t);
            }
            ast::Item::Ltl {
                name,
                params,
                body,
                span,
            } => {
                if out.ltls.iter().any(|l| l.name == name.name) {
                    return err(
                        name.span,
                        format!("an ltl property named `{}` is already defined", name.name),
                    );
                }
                out.ltls.push(self.ltl_prop(name, params, body, *span)?);
            }
        }
        Ok(())
    }

    fn init(&mut self, params: &[Ident], body: &ast::Expr, span: Span) -> R<Init> {
        let mut sc = Scope::new();
        sc.params(params)?;
        let body = self.formula(&mut sc, body)?;
        Ok(Init {
            params: params.len(),
            locals: sc.locals,
            body,
            span,
        })
    }

    fn unsafe_prop(
        &mut self,
        name: String,
        kind: PropKind,
        params: &[Ident],
        body: &ast::Expr,
        span: Span,
    ) -> R<Unsafe> {
        let mut sc = Scope::new();
        sc.params(params)?;
        // Each conjunct as written is checked on its own, left to right: the same
        // checks in the same order as for the whole `&&` (which flattens its operands
        // the same way), so the body is unchanged, and each conjunct keeps its span.
        let mut written = Vec::new();
        top_conjuncts(body, &mut written);
        let mut conjuncts = Vec::new();
        for c in written {
            conjuncts.push(Conjunct {
                expr: self.formula(&mut sc, c)?,
                span: c.span,
            });
        }
        let body = if conjuncts.len() == 1 {
            conjuncts[0].expr.clone()
        } else {
            let mut xs = Vec::new();
            for c in &conjuncts {
                match &c.expr {
                    Expr::And(v) => xs.extend(v.iter().cloned()),
                    x => xs.push(x.clone()),
                }
            }
            Expr::And(xs)
        };
        Ok(Unsafe {
            name,
            kind,
            params: params.len(),
            locals: sc.locals,
            body,
            conjuncts,
            span,
        })
    }

    fn transition(
        &mut self,
        name: &Ident,
        params: &[Ident],
        requires: Option<&ast::Expr>,
        items: &[ast::UpdateItem],
        span: Span,
    ) -> R<Transition> {
        let mut sc = Scope::new();
        sc.params(params)?;
        let guard = match requires {
            Some(r) => self.formula(&mut sc, r)?,
            None => Expr::tt(),
        };
        let mut updates: Vec<Update> = Vec::new();
        let base_names = sc.names.len();
        for it in items {
            match it {
                ast::UpdateItem::Let(x, v) => {
                    let (xv, xt) = self.expr(&mut sc, v)?;
                    sc.names.push((x.name.clone(), Binding::Subst(xv, xt)));
                }
                ast::UpdateItem::Assign { lhs, rhs, span } => {
                    let u = self.update(&mut sc, lhs, rhs, *span)?;
                    self.check_single_assignment(&sc, &updates, &u, params.len())?;
                    updates.push(u);
                }
            }
        }
        sc.names.truncate(base_names);
        Ok(Transition {
            name: name.name.clone(),
            params: params.len(),
            locals: sc.locals,
            guard,
            updates,
            span,
        })
    }

    fn update(&mut self, sc: &mut Scope, lhs: &ast::Lhs, rhs: &ast::Rhs, span: Span) -> R<Update> {
        let Some(&v) = self.var_names.get(&lhs.var.name) else {
            return err(lhs.var.span, format!("unknown variable `{}`", lhs.var.name));
        };
        let var = self.vars[v].clone();
        if var.kind == VarKind::Const {
            return err(
                lhs.var.span,
                format!("`{}` is a constant and cannot be assigned", var.name),
            );
        }
        if lhs.index.is_empty() && !var.dims.is_empty() {
            return self.array_copy(sc, &var, v, lhs, rhs, span);
        }
        if var.dims.len() != lhs.index.len() {
            return err(
                lhs.var.span,
                if var.dims.is_empty() {
                    format!("`{}` is not an array", var.name)
                } else {
                    format!(
                        "`{}` has {}, but {} given",
                        var.name,
                        super::indices(var.dims.len()),
                        lhs.index.len()
                    )
                },
            );
        }
        let mark = sc.names.len();
        let (index, fresh) = self.update_index(sc, &var, lhs)?;
        let value = self.update_value(sc, &var, lhs, rhs, &fresh)?;
        sc.names.truncate(mark);
        Ok(Update {
            var: v,
            index,
            value,
            span,
        })
    }

    /// The index of an updated cell: terms, or fresh names that bind every cell (for a
    /// `case`), which are returned with their positions.
    fn update_index(
        &mut self,
        sc: &mut Scope,
        var: &Var,
        lhs: &ast::Lhs,
    ) -> R<(Vec<Index>, Fresh)> {
        let mut index = Vec::new();
        let mut fresh = Vec::new();
        for (d, ix) in var.dims.iter().zip(&lhs.index) {
            if let ExprKind::Lower(n) = &ix.kind
                && sc.lookup(n).is_none()
                && !self.preds.contains_key(n)
            {
                if fresh.iter().any(|(f, _): &(String, Span)| f == n) {
                    return err(ix.span, format!("`{n}` is bound twice in this update"));
                }
                let id = sc.fresh(n, *d);
                sc.names.push((n.clone(), Binding::Local(id)));
                index.push(Index::Bind(id));
                fresh.push((n.clone(), ix.span));
                continue;
            }
            let (x, t) = self.expr(sc, ix)?;
            self.index_compat(*d, t, &var.name, ix.span)?;
            index.push(Index::Term(x));
        }
        Ok((index, fresh))
    }

    /// The value an update stores: a term, a `case`, `.` (any value) or `any j. f`.
    /// Names bound by the index (`fresh`) are allowed under a `case` only.
    fn update_value(
        &mut self,
        sc: &mut Scope,
        var: &Var,
        lhs: &ast::Lhs,
        rhs: &ast::Rhs,
        fresh: &[(String, Span)],
    ) -> R<UpdValue> {
        // A name bound by the index is known under a `case` only.
        if let Some((n, at)) = fresh.first() {
            let help = match rhs {
                ast::Rhs::Expr(_) => Some(format!(
                    "help: to update every cell, bind `{n}` with a case: `{}[{n}] := case | ... | _ : t`",
                    var.name
                )),
                ast::Rhs::Nondet(_) => Some(format!(
                    "help: `:= .` chooses the value of one cell, e.g. `{}[i] := .` with `i` a parameter",
                    var.name
                )),
                ast::Rhs::Case { .. } | ast::Rhs::Any(..) => None,
            };
            if let Some(help) = help {
                let unknown = format!("unknown name `{n}` in the index of an update");
                return Err(Diagnostic::error(*at, unknown).with_note(help));
            }
        }
        Ok(match rhs {
            ast::Rhs::Expr(e) => {
                let (x, t) = self.expr(sc, e)?;
                self.store_compat(var.ty, t, &var.name, e.span)?;
                self.literal_fits(var.ty, &x, &var.name, e.span)?;
                UpdValue::Term(x)
            }
            ast::Rhs::Case {
                branches,
                default,
                span: cspan,
            } => self.case(sc, var, lhs, branches, default.as_ref(), *cspan)?,
            ast::Rhs::Nondet(_) => UpdValue::Nondet,
            ast::Rhs::Any(x, f) => {
                if var.kind != VarKind::Global || var.ty != Ty::Proc {
                    return err(
                        x.span,
                        format!(
                            "`:= any` is supported for global variables of type `proc` only; `{}` is not one",
                            var.name
                        ),
                    );
                }
                let id = sc.fresh(&x.name, Ty::Proc);
                sc.names.push((x.name.clone(), Binding::Local(id)));
                let cond = self.formula(sc, f);
                sc.names.pop();
                UpdValue::Any {
                    var: id,
                    cond: cond?,
                }
            }
        })
    }

    /// `case | c1 : t1 | .. | _ : d`, as the `if then else` chain it means. The default
    /// branch is required.
    fn case(
        &mut self,
        sc: &mut Scope,
        var: &Var,
        lhs: &ast::Lhs,
        branches: &[(ast::Expr, ast::Expr)],
        default: Option<&ast::Expr>,
        cspan: Span,
    ) -> R<UpdValue> {
        let Some(default) = default else {
            return Err(Diagnostic::error(
                cspan,
                "a `case` without a `_` branch is not supported: where no branch applies, Cubicle's engines disagree (its backward search leaves the cell any value, its forward search takes the last branch)",
            )
            .with_note(format!(
                "help: say what such a cell gets with a default branch, e.g. `| _ : {}` to keep it",
                match lhs.index.last() {
                    None => var.name.clone(),
                    Some(i) => self.src.snippet(lhs.var.span.to(i.span)).to_string() + "]",
                }
            )));
        };
        let (mut acc, t) = self.expr(sc, default)?;
        let mut acc_ty = t;
        self.store_compat(var.ty, t, &var.name, default.span)?;
        self.literal_fits(var.ty, &acc, &var.name, default.span)?;
        let mut checked = Vec::new();
        for (c, t) in branches {
            let c = self.formula(sc, c)?;
            let (x, tx) = self.expr(sc, t)?;
            self.store_compat(var.ty, tx, &var.name, t.span)?;
            self.literal_fits(var.ty, &x, &var.name, t.span)?;
            checked.push((c, x, tx));
        }
        // Typed as the `if then else` chain it is, so that printing it as one
        // gives back the same IR.
        for (c, x, tx) in checked.into_iter().rev() {
            acc_ty = if tx == acc_ty { tx } else { Ty::Int };
            acc = Expr::Ite(Box::new(c), Box::new(x), Box::new(acc), acc_ty);
        }
        Ok(UpdValue::Term(acc))
    }
    /// `A := B` copies every cell of the array B (same index and value types) into A.
    fn array_copy(
        &mut self,
        sc: &mut Scope,
        var: &Var,
        v: VarId,
        lhs: &ast::Lhs,
        rhs: &ast::Rhs,
        span: Span,
    ) -> R<Update> {
        let help = format!(
            "help: update cells with `{0}[j] := case | ... | _ : {0}[j]`, or copy an array of the same type with `{0} := B`",
            var.name
        );
        let src = match rhs {
            ast::Rhs::Expr(ast::Expr {
                kind: ExprKind::Upper(name),
                ..
            }) => self.var_names.get(name).copied(),
            _ => None,
        };
        let Some(src) = src.filter(|&s| self.vars[s].dims == var.dims && self.vars[s].ty == var.ty)
        else {
            return Err(Diagnostic::error(
                lhs.var.span,
                format!("`{}` is an array and needs an index here", var.name),
            )
            .with_note(help));
        };
        let mut index = Vec::new();
        let mut read = Vec::new();
        for (k, d) in var.dims.iter().enumerate() {
            let id = sc.fresh(&format!("copy_index_{k}"), *d);
            index.push(Index::Bind(id));
            read.push(Expr::Local(id));
        }
        Ok(Update {
            var: v,
            index,
            value: UpdValue::Term(Expr::Read(src, read)),
            span,
        })
    }

    /// A variable is assigned at most once per transition; several single-cell updates
    /// of one array are allowed when their indices are provably different (distinct
    /// parameters or distinct constants in some position).
    fn check_single_assignment(
        &self,
        sc: &Scope,
        prev: &[Update],
        u: &Update,
        nparams: usize,
    ) -> R<()> {
        let distinct = |a: &Index, b: &Index| match (a, b) {
            (Index::Term(Expr::Local(x)), Index::Term(Expr::Local(y))) => {
                x != y && *x < nparams && *y < nparams
            }
            (Index::Term(Expr::Const(x, _)), Index::Term(Expr::Const(y, _))) => x != y,
            _ => false,
        };
        for p in prev.iter().filter(|p| p.var == u.var) {
            let ok = !p.index.is_empty()
                && p.index.iter().zip(&u.index).any(|(a, b)| distinct(a, b))
                && !p
                    .index
                    .iter()
                    .chain(&u.index)
                    .any(|i| matches!(i, Index::Bind(_)));
            if !ok {
                let _ = sc;
                return Err(Diagnostic::error(
                    u.span,
                    format!(
                        "`{}` is assigned twice in this transition",
                        self.vars[u.var].name
                    ),
                )
                .with_note(format!(
                    "note: the other assignment is at {}",
                    self.src.position(p.span.lo)
                ))
                .with_note("help: combine them into one `case` update"));
            }
        }
        Ok(())
    }

    fn ltl_prop(
        &mut self,
        name: &Ident,
        params: &[Ident],
        body: &ast::Expr,
        span: Span,
    ) -> R<LtlProp> {
        if params.len() > 1 {
            return err(
                params[1].span,
                "an ltl property takes at most one process parameter",
            );
        }
        let mut sc = Scope::new();
        sc.params(params)?;
        let body = self.ltl(&mut sc, body)?;
        Ok(LtlProp {
            name: name.name.clone(),
            params: params.len(),
            locals: sc.locals,
            body,
            span,
        })
    }

    fn ltl(&mut self, sc: &mut Scope, e: &ast::Expr) -> R<Ltl> {
        if !has_temporal(e) {
            return Ok(Ltl::Atom(self.formula(sc, e)?));
        }
        let b = |x: Ltl| Box::new(x);
        Ok(match &e.kind {
            ExprKind::Not(a) => Ltl::Not(b(self.ltl(sc, a)?)),
            ExprKind::Temporal(op, a) => {
                let a = b(self.ltl(sc, a)?);
                match op {
                    TempOp::Globally => Ltl::Globally(a),
                    TempOp::Finally => Ltl::Finally(a),
                    TempOp::Next => Ltl::Next(a),
                }
            }
            ExprKind::Bin(op, l, r) => {
                let (l, r) = (b(self.ltl(sc, l)?), b(self.ltl(sc, r)?));
                match op {
                    BinOp::And => Ltl::And(l, r),
                    BinOp::Or => Ltl::Or(l, r),
                    BinOp::Imp => Ltl::Imp(l, r),
                    BinOp::Iff => Ltl::Iff(l, r),
                    BinOp::Until => Ltl::Until(l, r),
                    BinOp::Release => Ltl::Release(l, r),
                    BinOp::WeakUntil => Ltl::WeakUntil(l, r),
                    _ => return err(e.span, "temporal formulas cannot be compared or added"),
                }
            }
            ExprKind::Ite(c, t, f) => {
                let c = self.ltl(sc, c)?;
                let (t, f) = (self.ltl(sc, t)?, self.ltl(sc, f)?);
                Ltl::Or(
                    b(Ltl::And(b(c.clone()), b(t))),
                    b(Ltl::And(b(Ltl::Not(b(c))), b(f))),
                )
            }
            ExprKind::Let(x, v, body) => {
                let (xv, xt) = self.expr(sc, v)?;
                sc.names.push((x.name.clone(), Binding::Subst(xv, xt)));
                let r = self.ltl(sc, body);
                sc.names.pop();
                r?
            }
            _ => {
                return err(
                    e.span,
                    "temporal operators cannot appear under quantifiers or inside terms",
                );
            }
        })
    }
}

/// The operands of a chain of `&&` (the expression itself when it is no `&&`).
fn top_conjuncts<'e>(e: &'e ast::Expr, out: &mut Vec<&'e ast::Expr>) {
    match &e.kind {
        ExprKind::Bin(BinOp::And, a, b) => {
            top_conjuncts(a, out);
            top_conjuncts(b, out);
        }
        _ => out.push(e),
    }
}

fn has_temporal(e: &ast::Expr) -> bool {
    match &e.kind {
        ExprKind::Temporal(..) => true,
        ExprKind::Bin(BinOp::Until | BinOp::Release | BinOp::WeakUntil, ..) => true,
        ExprKind::Bin(_, l, r) => has_temporal(l) || has_temporal(r),
        ExprKind::Not(a) | ExprKind::Neg(a) => has_temporal(a),
        ExprKind::Ite(a, b, c) => has_temporal(a) || has_temporal(b) || has_temporal(c),
        ExprKind::Let(_, a, b) => has_temporal(a) || has_temporal(b),
        ExprKind::Quant(q) => has_temporal(&q.body),
        ExprKind::Index(_, xs) | ExprKind::Call(_, xs) => xs.iter().any(has_temporal),
        _ => false,
    }
}
