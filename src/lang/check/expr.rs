//! Terms and formulas: names, array reads, predicate calls (expanded where they are
//! used), quantifiers and operators, with the typing rules that decide which mixes of
//! process ids and integers are allowed and which of them break symmetry.

use super::{Binding, Checker, R, Scope, err, real_error};
use crate::lang::ast::{self, BinOp, ExprKind, Ident, QuantDom};
use crate::model::ir::*;
use crate::source::{Diagnostic, Span};

impl Checker<'_> {
    pub(super) fn formula(&mut self, sc: &mut Scope, e: &ast::Expr) -> R<Expr> {
        let (x, t) = self.expr(sc, e)?;
        if t != Ty::Bool {
            return Err(Diagnostic::error(
                e.span,
                format!(
                    "expected a formula, found a term of type `{}`",
                    self.ty_name(t)
                ),
            )
            .with_note("help: compare it with something, e.g. `A[i] = Idle`"));
        }
        Ok(x)
    }

    /// Check that a term of type `have` may index a dimension of type `dim`.
    pub(super) fn index_compat(&mut self, dim: Ty, have: Ty, var: &str, span: Span) -> R<()> {
        match (dim, have) {
            (Ty::Proc, Ty::Proc) => Ok(()),
            (Ty::Proc, Ty::Range(_) | Ty::Int) => {
                self.asym(
                    format!("an integer term used as a process index of `{var}`"),
                    span,
                );
                Ok(())
            }
            (Ty::Range(_), Ty::Range(_) | Ty::Int) => Ok(()),
            (Ty::Range(_), Ty::Proc) => {
                self.asym(
                    format!("a process id used to index the range-indexed array `{var}`"),
                    span,
                );
                Ok(())
            }
            (Ty::Enum(a), Ty::Enum(b)) if a == b => Ok(()),
            (Ty::Bool, Ty::Bool) => Ok(()),
            _ => err(
                span,
                format!(
                    "`{}` is indexed by `{}`, but this index has type `{}`",
                    var,
                    self.ty_name(dim),
                    self.ty_name(have)
                ),
            ),
        }
    }

    /// Check that a value of type `have` may be stored in a variable of type `target`.
    pub(super) fn store_compat(&mut self, target: Ty, have: Ty, var: &str, span: Span) -> R<()> {
        if target == have {
            return Ok(());
        }
        if target.is_intlike() && have.is_intlike() {
            if target == Ty::Proc || have == Ty::Proc {
                self.asym(
                    format!("a process id converted to or from an integer in an update of `{var}`"),
                    span,
                );
            }
            return Ok(());
        }
        err(
            span,
            format!(
                "cannot store a value of type `{}` in `{}` of type `{}`",
                self.ty_name(have),
                var,
                self.ty_name(target)
            ),
        )
    }

    /// A literal stored in a cell of a range type must lie in the range at some size:
    /// outside the constant bounds it could only ever be a range error, so it is
    /// reported here, where it was written, not at run time under the warnings it
    /// causes.
    pub(super) fn literal_fits(&self, target: Ty, x: &Expr, var: &str, span: Span) -> R<()> {
        let (Ty::Range(r), Some(k)) = (target, x.int_literal()) else {
            return Ok(());
        };
        if self.int_type.is_some_and(|(int, _)| int == r) {
            // `int`: its window is fixed after the whole model is read, from its literals.
            return Ok(());
        }
        let range = &self.ranges[r];
        let below = !range.lo.uses_size() && k < range.lo.eval(0);
        let above = !range.hi.uses_size() && k > range.hi.eval(0);
        if !below && !above {
            return Ok(());
        }
        Err(Diagnostic::error(
            span,
            format!(
                "`{k}` is outside the type `{}` of `{var}`: storing it would be a range error at every size",
                range.name
            ),
        )
        .with_note(format!(
            "help: store a value of `{}`, or widen the declared range",
            range.name
        )))
    }

    fn cmp_compat(&mut self, op: CmpOp, l: Ty, r: Ty, span: Span) -> R<()> {
        let eq = matches!(op, CmpOp::Eq | CmpOp::Ne);
        match (l, r) {
            (Ty::Bool, Ty::Bool) if eq => Ok(()),
            (Ty::Enum(a), Ty::Enum(b)) if a == b && eq => Ok(()),
            (Ty::Enum(_), Ty::Enum(_)) if eq => err(
                span,
                format!(
                    "cannot compare values of types `{}` and `{}`",
                    self.ty_name(l),
                    self.ty_name(r)
                ),
            ),
            (Ty::Enum(_), Ty::Enum(_)) | (Ty::Bool, Ty::Bool) => err(
                span,
                format!(
                    "`{}` compares integers; values of type `{}` compare only with `=` and `<>`",
                    op.text(),
                    self.ty_name(l)
                ),
            ),
            (a, b) if a.is_intlike() && b.is_intlike() => {
                if !eq && a == Ty::Proc && b == Ty::Proc {
                    self.asym_order(span);
                } else if !eq && (a == Ty::Proc || b == Ty::Proc) {
                    self.asym(
                        "an order comparison of a process id with an integer term",
                        span,
                    );
                } else if eq && ((a == Ty::Proc) != (b == Ty::Proc)) {
                    self.asym("a process id compared with an integer term", span);
                }
                Ok(())
            }
            _ => err(
                span,
                format!(
                    "cannot compare a value of type `{}` with one of type `{}`",
                    self.ty_name(l),
                    self.ty_name(r)
                ),
            ),
        }
    }

    fn intlike(&mut self, t: Ty, span: Span, what: &str) -> R<()> {
        if !t.is_intlike() {
            return err(
                span,
                format!(
                    "{what} needs integers, found a value of type `{}`",
                    self.ty_name(t)
                ),
            );
        }
        if t == Ty::Proc {
            self.asym("arithmetic on a process id", span);
        }
        Ok(())
    }

    /// Check a term or formula: its IR and its type.
    pub(super) fn expr(&mut self, sc: &mut Scope, e: &ast::Expr) -> R<(Expr, Ty)> {
        match &e.kind {
            ExprKind::Int(v) => Ok((Expr::Const(*v, Ty::Int), Ty::Int)),
            ExprKind::ProcConst(k) => self.proc_const(*k, e.span),
            ExprKind::Size => Ok((Expr::Size, Ty::Int)),
            ExprKind::Real(r) => Err(real_error(e.span, Some(format!("`{r}` is a real number")))),
            ExprKind::True => Ok((Expr::Const(1, Ty::Bool), Ty::Bool)),
            ExprKind::False => Ok((Expr::Const(0, Ty::Bool), Ty::Bool)),
            ExprKind::Lower(name) => self.lower(sc, name, e.span),
            ExprKind::Upper(name) => self.upper(name, e.span),
            ExprKind::Index(name, idx) => self.read(sc, name, idx, e.span),
            ExprKind::Call(name, args) => self.call(sc, name, args, e.span),
            ExprKind::Neg(a) => {
                let (x, t) = self.expr(sc, a)?;
                self.intlike(t, a.span, "`-`")?;
                Ok((
                    Expr::Arith(ArithOp::Sub, Box::new(Expr::Const(0, Ty::Int)), Box::new(x)),
                    Ty::Int,
                ))
            }
            ExprKind::Not(a) => Ok((Expr::Not(Box::new(self.formula(sc, a)?)), Ty::Bool)),
            ExprKind::Bin(op, l, r) => self.binary(sc, *op, l, r, e.span),
            ExprKind::Ite(c, t, f) => self.ite(sc, c, t, f, e.span),
            ExprKind::Let(x, v, body) => {
                let (xv, xt) = self.expr(sc, v)?;
                sc.names.push((x.name.clone(), Binding::Subst(xv, xt)));
                let r = self.expr(sc, body);
                sc.names.pop();
                r
            }
            ExprKind::Quant(q) => match &q.dom {
                QuantDom::ProcExcept(names) if self.binds_excepted(sc, &q.var, names) => {
                    let inner = self.bind_excepted(q, names, e.span);
                    self.expr(sc, &inner)
                }
                dom => {
                    let (dom, ty) = self.domain(sc, dom)?;
                    let id = sc.fresh(&q.var.name, ty);
                    sc.names.push((q.var.name.clone(), Binding::Local(id)));
                    let b = self.formula(sc, &q.body);
                    sc.names.pop();
                    Ok((Expr::quant(q.forall, id, dom, b?), Ty::Bool))
                }
            },
            ExprKind::Temporal(..) => err(
                e.span,
                "temporal operators are allowed only inside `ltl` blocks",
            ),
        }
    }

    /// The process constant `#k` (within `number_procs`, if given), or `#0`, the extra
    /// process id (`model::extra`), which every permutation of the processes fixes, so
    /// it keeps the model symmetric (checked once the model is known).
    fn proc_const(&mut self, k: i64, span: Span) -> R<(Expr, Ty)> {
        if k == 0 {
            self.extra_id_uses.push(span);
            return Ok((Expr::Const(0, Ty::Proc), Ty::Proc));
        }
        if k < 1 {
            return err(span, "process constants start at `#1`");
        }
        if let Some((np, _)) = self.number_procs
            && k as usize > np
        {
            return err(span, format!("`#{k}` exceeds `number_procs {np}`"));
        }
        self.asym(format!("the process constant `#{k}`"), span);
        Ok((Expr::Const(k, Ty::Proc), Ty::Proc))
    }

    /// A lower-case name: a parameter, a quantified or `let` variable, or (when reading
    /// certificates) a value `dK` of the model's one abstract type.
    fn lower(&mut self, sc: &Scope, name: &str, span: Span) -> R<(Expr, Ty)> {
        match sc.lookup(name) {
            Some(Binding::Local(id)) => Ok((Expr::Local(*id), sc.locals[*id].ty)),
            Some(Binding::Subst(x, t)) => Ok((x.clone(), *t)),
            None if self.preds.contains_key(name) => err(
                span,
                format!("predicate `{name}` needs its arguments: `{name}(...)`"),
            ),
            None if self.data_names
                && self.abstracts.len() == 1
                && name.len() > 1
                && name.starts_with('d')
                && name[1..].parse::<usize>().is_ok_and(|k| k >= 1) =>
            {
                let k: usize = name[1..].parse().unwrap_or(1);
                if self.data_used.is_none_or(|(m, _)| k > m) {
                    self.data_used = Some((k, span));
                }
                let en = self.abstracts[0].0;
                Ok((Expr::Const(k as i64 - 1, Ty::Enum(en)), Ty::Enum(en)))
            }
            None => {
                let near = crate::source::closest(
                    name,
                    sc.names
                        .iter()
                        .map(|(n, _)| n.as_str())
                        .chain(self.preds.keys().map(String::as_str)),
                );
                let d = Diagnostic::error(span, format!("unknown name `{name}`"));
                Err(match near {
                    Some(n) => d.with_note(format!("help: did you mean `{n}`?")),
                    None => d.with_note("help: lower-case names are parameters, quantified variables, `let` names or predicates"),
                })
            }
        }
    }

    /// An upper-case name: a variable or constant without index, `True`/`False`, or a
    /// constructor.
    fn upper(&self, name: &str, span: Span) -> R<(Expr, Ty)> {
        if let Some(&v) = self.var_names.get(name) {
            let var = &self.vars[v];
            if !var.dims.is_empty() {
                return err(
                    span,
                    format!(
                        "`{name}` is an array with {}; write `{name}[...]`",
                        super::indices(var.dims.len())
                    ),
                );
            }
            return Ok((Expr::Read(v, Vec::new()), var.ty));
        }
        if name == "True" || name == "False" {
            let b = (name == "True") as i64;
            return Ok((Expr::Const(b, Ty::Bool), Ty::Bool));
        }
        if let Some(&(en, k)) = self.ctors.get(name) {
            return Ok((Expr::Const(k as i64, Ty::Enum(en)), Ty::Enum(en)));
        }
        let near = crate::source::closest(
            name,
            self.var_names
                .keys()
                .chain(self.ctors.keys())
                .map(String::as_str)
                .chain(["True", "False"]),
        );
        let d = Diagnostic::error(span, format!("unknown name `{name}`"));
        Err(match near {
            Some(n) => d.with_note(format!("help: did you mean `{n}`?")),
            None => d,
        })
    }

    /// A read of an array cell `A[i, ..]`.
    fn read(
        &mut self,
        sc: &mut Scope,
        name: &Ident,
        idx: &[ast::Expr],
        span: Span,
    ) -> R<(Expr, Ty)> {
        let Some(&v) = self.var_names.get(&name.name) else {
            return err(name.span, format!("unknown array `{}`", name.name));
        };
        let (dims, ty) = (self.vars[v].dims.clone(), self.vars[v].ty);
        if dims.len() != idx.len() {
            return err(
                span,
                format!(
                    "`{}` has {}, but {} given",
                    name.name,
                    super::indices(dims.len()),
                    idx.len()
                ),
            );
        }
        let mut xs = Vec::new();
        for (d, ix) in dims.iter().zip(idx) {
            let (x, t) = self.expr(sc, ix)?;
            self.index_compat(*d, t, &name.name, ix.span)?;
            xs.push(x);
        }
        Ok((Expr::Read(v, xs), ty))
    }

    /// `if c then t else f`: both branches of one type, or integer-like (typed `int`).
    fn ite(
        &mut self,
        sc: &mut Scope,
        c: &ast::Expr,
        t: &ast::Expr,
        f: &ast::Expr,
        span: Span,
    ) -> R<(Expr, Ty)> {
        let c = self.formula(sc, c)?;
        let (a, ta) = self.expr(sc, t)?;
        let (b, tb) = self.expr(sc, f)?;
        let ty = if ta == tb {
            ta
        } else if ta.is_intlike() && tb.is_intlike() {
            if ta == Ty::Proc || tb == Ty::Proc {
                self.asym("`if then else` mixing process ids and integers", span);
            }
            Ty::Int
        } else {
            return err(
                span,
                format!(
                    "the branches of `if then else` have types `{}` and `{}`",
                    self.ty_name(ta),
                    self.ty_name(tb)
                ),
            );
        };
        Ok((Expr::Ite(Box::new(c), Box::new(a), Box::new(b), ty), ty))
    }

    /// Whether `forall x <> y1, .., yk. f` binds the excepted names too: none of them
    /// is bound here (nor a predicate), and they are distinct from `x` and each other.
    fn binds_excepted(&self, sc: &Scope, var: &Ident, names: &[Ident]) -> bool {
        names.iter().enumerate().all(|(k, n)| {
            n.name != var.name
                && !names[..k].iter().any(|m| m.name == n.name)
                && sc.lookup(&n.name).is_none()
                && !self.preds.contains_key(&n.name)
        })
    }

    /// Cubicle's `forall x <> y. f` with `y` not bound: it binds `y` too, and the
    /// variables are pairwise distinct: `forall y. forall x <> y. f`. Warns once per
    /// position that it is read so.
    fn bind_excepted(&mut self, q: &ast::Quant, names: &[Ident], span: Span) -> ast::Expr {
        let (forall, var) = (q.forall, &q.var);
        let mut inner = ast::Expr {
            kind: ExprKind::Quant(q.clone()),
            span,
        };
        for (k, n) in names.iter().enumerate().rev() {
            let dom = if k == 0 {
                QuantDom::Proc
            } else {
                QuantDom::ProcExcept(names[..k].to_vec())
            };
            inner = ast::Expr::quant(forall, n.clone(), dom, inner, span);
        }
        if !self.notes.iter().any(|w| w.span == names[0].span) {
            let bound: Vec<String> = std::iter::once(&var.name)
                .chain(names.iter().map(|n| &n.name))
                .map(|n| format!("`{n}`"))
                .collect();
            self.notes.push(
                Diagnostic::warning(
                    names[0].span,
                    format!(
                        "`{}` is not bound here, so this quantifier binds {} (pairwise distinct processes), as Cubicle reads it",
                        names[0].name,
                        bound.join(", ")
                    ),
                )
                .with_note("note: with the name bound (a parameter or an outer variable), `forall x <> y. f` quantifies over x only, the processes other than y"),
            );
        }
        inner
    }

    fn domain(&mut self, sc: &mut Scope, d: &QuantDom) -> R<(Domain, Ty)> {
        Ok(match d {
            QuantDom::Proc => (Domain::all_procs(), Ty::Proc),
            QuantDom::Other => (
                Domain::Procs {
                    except: sc.params.iter().map(|&p| Expr::Local(p)).collect(),
                },
                Ty::Proc,
            ),
            QuantDom::ProcExcept(names) => {
                let mut except = Vec::new();
                for n in names {
                    let e = ast::Expr {
                        kind: ExprKind::Lower(n.name.clone()),
                        span: n.span,
                    };
                    let (x, t) = self.expr(sc, &e)?;
                    if t != Ty::Proc {
                        return err(
                            n.span,
                            format!(
                                "`{}` is not a process (it has type `{}`)",
                                n.name,
                                self.ty_name(t)
                            ),
                        );
                    }
                    except.push(x);
                }
                (Domain::Procs { except }, Ty::Proc)
            }
            QuantDom::Type(t) => {
                let ty = self.resolve_type(t)?;
                if self.is_int(ty) {
                    let at = t.span();
                    return Err(Diagnostic::error(at, "quantifiers over `int` are not supported")
                        .with_note("help: quantify over a range instead, e.g. `forall x : 0 .. 7. ...`"));
                }
                match ty {
                    Ty::Proc => (Domain::all_procs(), Ty::Proc),
                    _ => (Domain::Type(ty), ty),
                }
            }
        })
    }

    fn binary(
        &mut self,
        sc: &mut Scope,
        op: BinOp,
        l: &ast::Expr,
        r: &ast::Expr,
        span: Span,
    ) -> R<(Expr, Ty)> {
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul => {
                let (a, ta) = self.expr(sc, l)?;
                let (b, tb) = self.expr(sc, r)?;
                let sym = match op {
                    BinOp::Add => "`+`",
                    BinOp::Sub => "`-`",
                    _ => "`*`",
                };
                self.intlike(ta, l.span, sym)?;
                self.intlike(tb, r.span, sym)?;
                let aop = match op {
                    BinOp::Add => ArithOp::Add,
                    BinOp::Sub => ArithOp::Sub,
                    _ => ArithOp::Mul,
                };
                Ok((Expr::Arith(aop, Box::new(a), Box::new(b)), Ty::Int))
            }
            BinOp::Cmp(c) => {
                let (a, ta) = self.expr(sc, l)?;
                let (b, tb) = self.expr(sc, r)?;
                self.cmp_compat(c, ta, tb, span)?;
                Ok((Expr::Cmp(c, Box::new(a), Box::new(b)), Ty::Bool))
            }
            BinOp::And | BinOp::Or => {
                let a = self.formula(sc, l)?;
                let b = self.formula(sc, r)?;
                let mut xs = Vec::new();
                for x in [a, b] {
                    match (op, x) {
                        (BinOp::And, Expr::And(v)) | (BinOp::Or, Expr::Or(v)) => xs.extend(v),
                        (_, x) => xs.push(x),
                    }
                }
                Ok((
                    if op == BinOp::And {
                        Expr::And(xs)
                    } else {
                        Expr::Or(xs)
                    },
                    Ty::Bool,
                ))
            }
            BinOp::Imp | BinOp::Iff => {
                let a = Box::new(self.formula(sc, l)?);
                let b = Box::new(self.formula(sc, r)?);
                Ok((
                    if op == BinOp::Imp {
                        Expr::Imp(a, b)
                    } else {
                        Expr::Iff(a, b)
                    },
                    Ty::Bool,
                ))
            }
            BinOp::Until | BinOp::Release | BinOp::WeakUntil => err(
                span,
                "temporal operators are allowed only inside `ltl` blocks",
            ),
        }
    }

    fn call(
        &mut self,
        sc: &mut Scope,
        name: &Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> R<(Expr, Ty)> {
        let Some(&(params, body, pspan)) = self.preds.get(&name.name) else {
            return err(name.span, format!("unknown predicate `{}`", name.name));
        };
        if params.len() != args.len() {
            return err(
                span,
                format!(
                    "predicate `{}` takes {} argument(s), but {} given",
                    name.name,
                    params.len(),
                    args.len()
                ),
            );
        }
        if self.pred_stack.contains(&name.name) {
            return err(
                span,
                format!("predicate `{}` is used inside itself", name.name),
            );
        }
        let mut binds = Vec::new();
        for (p, a) in params.iter().zip(args) {
            let (x, t) = self.expr(sc, a)?;
            binds.push((p.name.clone(), Binding::Subst(x, t)));
        }
        let saved = std::mem::replace(&mut sc.names, binds);
        self.pred_stack.push(name.name.clone());
        let r = self.expr(sc, body);
        self.pred_stack.pop();
        sc.names = saved;
        let _ = pspan;
        r.map_err(|d| {
            let at = self.src.file_line(span.lo);
            d.with_note(format!("note: in predicate `{}` used at {}", name.name, at))
        })
    }
}
