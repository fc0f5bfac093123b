//! Name resolution and type checking: syntax tree to the typed IR of `model::ir`.
//! Predicates and `let` are expanded where they are used. Along the way the checker
//! records every construct that makes the family not fully symmetric (LANGUAGE.md
//! "Symmetry"), with its position.

use super::LoadOptions;
use super::ast::{self, BinOp, ExprKind, Ident, QuantDom, TempOp, TypeExpr};
use crate::model::data;
use crate::model::ir::*;
use crate::source::{Diagnostic, Source, Span};
use std::collections::HashMap;

/// What a lower-case name stands for in a scope.
#[derive(Clone, Debug)]
enum Binding {
    Local(LocalId),
    /// `let` names and predicate parameters stand for an already checked term.
    Subst(Expr, Ty),
}

/// The names visible inside one transition, property or init.
struct Scope {
    locals: Vec<Local>,
    names: Vec<(String, Binding)>,
    /// Parameters of the enclosing item (what `forall_other` excludes).
    params: Vec<LocalId>,
}

impl Scope {
    fn new() -> Scope {
        Scope {
            locals: Vec::new(),
            names: Vec::new(),
            params: Vec::new(),
        }
    }
    fn lookup(&self, name: &str) -> Option<&Binding> {
        self.names
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, b)| b)
    }
    fn fresh(&mut self, name: &str, ty: Ty) -> LocalId {
        self.locals.push(Local {
            name: name.to_string(),
            ty,
        });
        self.locals.len() - 1
    }
    /// Declare the item's parameters (process ids); duplicates are an error.
    fn params(&mut self, ps: &[Ident]) -> Result<(), Diagnostic> {
        for (k, p) in ps.iter().enumerate() {
            if ps[..k].iter().any(|q| q.name == p.name) {
                return Err(Diagnostic::error(
                    p.span,
                    format!("parameter `{}` is declared twice", p.name),
                ));
            }
            let id = self.fresh(&p.name, Ty::Proc);
            self.names.push((p.name.clone(), Binding::Local(id)));
            self.params.push(id);
        }
        Ok(())
    }
}

struct Checker<'a> {
    src: &'a Source,
    enums: Vec<EnumType>,
    ranges: Vec<RangeType>,
    vars: Vec<Var>,
    types: HashMap<String, Ty>,
    ctors: HashMap<String, (usize, usize)>,
    var_names: HashMap<String, VarId>,
    preds: HashMap<String, (&'a [Ident], &'a ast::Expr, Span)>,
    pred_stack: Vec<String>,
    number_procs: Option<(usize, Span)>,
    breaks: Vec<SymmetryBreak>,
    /// Abstract types: (enumeration holding their values, declaration).
    abstracts: Vec<(usize, Ident)>,
    /// `LoadOptions::data_value_names`.
    data_names: bool,
    /// The largest data value named `dK` and where.
    data_used: Option<(usize, Span)>,
    /// Warnings about readings taken from Cubicle (one per source position).
    notes: Vec<Diagnostic>,
    /// The range type `int` (its bounds set once the whole model is known) and its
    /// first use.
    int_type: Option<(usize, Span)>,
}

type R<T> = Result<T, Diagnostic>;

fn err<T>(span: Span, msg: impl Into<String>) -> R<T> {
    Err(Diagnostic::error(span, msg))
}

/// The error for Cubicle's timed models: `real` types and real literals.
fn real_error(span: Span, what: Option<String>) -> Diagnostic {
    let msg = match what {
        Some(w) => format!("timed models (`real`) are not supported: {w}"),
        None => "timed models (`real`) are not supported".to_string(),
    };
    Diagnostic::error(span, msg)
        .with_note("note: nfold checks untimed, finite-state families; clocks and real numbers have no finite counterpart")
}

/// A declaration whose type mentions `real` is an error naming the declaration.
fn real_decl(name: &Ident, tys: &[TypeExpr]) -> R<()> {
    for t in tys {
        if let TypeExpr::Named(id) = t
            && id.name == "real"
        {
            return Err(real_error(
                id.span,
                Some(format!("`{}` is declared with type `real`", name.name)),
            ));
        }
    }
    Ok(())
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

/// Check a parsed file into a model.
pub fn check(file: &ast::File, source: Source, opts: &LoadOptions) -> Result<Model, Diagnostic> {
    let mut c = Checker {
        src: &source,
        enums: Vec::new(),
        ranges: Vec::new(),
        vars: Vec::new(),
        types: HashMap::new(),
        ctors: HashMap::new(),
        var_names: HashMap::new(),
        preds: HashMap::new(),
        pred_stack: Vec::new(),
        number_procs: None,
        breaks: Vec::new(),
        abstracts: Vec::new(),
        notes: Vec::new(),
        int_type: None,
        data_names: opts.data_value_names,
        data_used: None,
    };
    if let Some((k, span)) = file.number_procs {
        if !(1..=64).contains(&k) {
            return err(
                span,
                format!("`number_procs {k}`: the size must be 1 to 64"),
            );
        }
        c.number_procs = Some((k as usize, span));
        c.asym("`number_procs` fixes the size (and allows `#k`)", span);
    }
    for d in &file.decls {
        c.decl(d)?;
    }
    for it in &file.items {
        if let ast::Item::Predicate {
            name,
            params,
            body,
            span,
        } = it
        {
            if c.preds.contains_key(&name.name) {
                return err(
                    name.span,
                    format!("predicate `{}` is defined twice", name.name),
                );
            }
            for (k, p) in params.iter().enumerate() {
                if params[..k].iter().any(|q| q.name == p.name) {
                    return err(p.span, format!("parameter `{}` is declared twice", p.name));
                }
            }
            c.preds
                .insert(name.name.clone(), (params.as_slice(), body, *span));
        }
    }
    let mut transitions: Vec<Transition> = Vec::new();
    let mut inits = Vec::new();
    let mut unsafes: Vec<Unsafe> = Vec::new();
    let mut ltls: Vec<LtlProp> = Vec::new();
    let mut unnamed = 0;
    let mut unnamed_inv = 0;
    let mut warnings = Vec::new();
    let mut repeated: Vec<(Ident, Span)> = Vec::new();
    for it in &file.items {
        match it {
            ast::Item::Init { params, body, span } => inits.push(c.init(params, body, *span)?),
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
                        unnamed_inv += 1;
                        format!("invariant{unnamed_inv}")
                    }
                    None => {
                        unnamed += 1;
                        format!("unsafe{unnamed}")
                    }
                };
                if unsafes.iter().any(|u| u.name == nm) {
                    return err(*span, format!("a property named `{nm}` is already defined"));
                }
                unsafes.push(c.unsafe_prop(nm, kind, params, body, *span)?);
            }
            ast::Item::Transition {
                name,
                params,
                requires,
                updates,
                span,
            } => {
                let mut t = c.transition(name, params, requires.as_ref(), updates, *span)?;
                // Cubicle reads a repeated name as another transition: the k-th one is
                // shown as `name#k`.
                let same = transitions
                    .iter()
                    .filter(|t| t.name.split('#').next() == Some(name.name.as_str()))
                    .count();
                if same > 0 {
                    t.name = format!("{}#{}", name.name, same + 1);
                    repeated.push((name.clone(), *span));
                }
                transitions.push(t);
            }
            ast::Item::Ltl {
                name,
                params,
                body,
                span,
            } => {
                if ltls.iter().any(|l| l.name == name.name) {
                    return err(
                        name.span,
                        format!("an ltl property named `{}` is already defined", name.name),
                    );
                }
                ltls.push(c.ltl_prop(name, params, body, *span)?);
            }
        }
    }
    if inits.is_empty() {
        let end = source.text.len();
        return Err(Diagnostic::error(Span::new(end, end), "the model has no `init`")
            .with_note("help: add `init (z) { ... }`; write `init () { true }` to leave every variable unconstrained"));
    }
    if let Some((first, _)) = repeated.first() {
        let mut names: Vec<String> = Vec::new();
        for (id, _) in &repeated {
            let lines: Vec<String> = transitions
                .iter()
                .filter(|t| t.name.split('#').next() == Some(id.name.as_str()))
                .map(|t| source.line_col(t.span.lo).0.to_string())
                .collect();
            let entry = format!("`{}` (lines {})", id.name, lines.join(", "));
            if !names.contains(&entry) {
                names.push(entry);
            }
        }
        warnings.push(
            Diagnostic::warning(
                first.span,
                format!(
                    "transition names used more than once: {}",
                    names.join(", ")
                ),
            )
            .with_note(
                "note: each definition is a separate transition (as in Cubicle); the second of a name is shown as `name#2`, the third as `name#3`, ...",
            ),
        );
    }
    if unsafes.is_empty() && ltls.is_empty() {
        warnings.push(Diagnostic::warning(
            Span::new(0, 0),
            "the model states no property (`unsafe`, `invariant` or `ltl`)",
        ));
    }
    warnings.append(&mut c.notes);
    let abstracts = std::mem::take(&mut c.abstracts);
    let data_used = c.data_used;
    let int_type = c.int_type;
    let mut model = Model {
        number_procs: c.number_procs,
        enums: c.enums,
        ranges: c.ranges,
        vars: c.vars,
        transitions,
        inits,
        unsafes,
        ltls,
        symmetry_breaks: c.breaks,
        data_types: Vec::new(),
        extra_proc: None,
        int_window: None,
        warnings,
        source,
    };
    for (e, name) in abstracts {
        let w = data::settle(&mut model, e, &name.name, name.span, opts.data_values);
        model.warnings.push(w);
        if let Some((k, span)) = data_used
            && k > model.enums[e].ctors.len()
        {
            return Err(Diagnostic::error(
                span,
                format!(
                    "`d{k}` is not a value of `{}` (d1..d{})",
                    name.name,
                    model.enums[e].ctors.len()
                ),
            ));
        }
    }
    if let Some((r, span)) = int_type {
        let w = settle_ints(&mut model, r, span, opts.int_range)?;
        model.warnings.push(w);
    }
    Ok(model)
}

/// An integer literal as written: `k`, or `-k` (read as `0 - k`).
fn int_literal(e: &Expr) -> Option<i64> {
    match e {
        Expr::Const(v, Ty::Int) => Some(*v),
        Expr::Arith(ArithOp::Sub, a, b) => match (&**a, &**b) {
            (Expr::Const(0, Ty::Int), Expr::Const(v, Ty::Int)) => v.checked_neg(),
            _ => None,
        },
        _ => None,
    }
}

/// Every integer literal of an expression.
fn literals(e: &Expr, out: &mut Vec<i64>) {
    if let Some(v) = int_literal(e) {
        out.push(v);
        return;
    }
    match e {
        Expr::Const(..) | Expr::Size | Expr::Local(_) => {}
        Expr::Read(_, xs) | Expr::And(xs) | Expr::Or(xs) => {
            xs.iter().for_each(|x| literals(x, out))
        }
        Expr::Arith(_, a, b) | Expr::Cmp(_, a, b) | Expr::Imp(a, b) | Expr::Iff(a, b) => {
            literals(a, out);
            literals(b, out);
        }
        Expr::Not(a) => literals(a, out),
        Expr::Ite(a, b, c, _) => {
            literals(a, out);
            literals(b, out);
            literals(c, out);
        }
        Expr::Quant { dom, body, .. } => {
            if let Domain::Procs { except } = dom {
                except.iter().for_each(|x| literals(x, out));
            }
            literals(body, out);
        }
    }
}

fn ltl_literals(l: &Ltl, out: &mut Vec<i64>) {
    match l {
        Ltl::Atom(e) => literals(e, out),
        Ltl::Not(a) | Ltl::Next(a) | Ltl::Globally(a) | Ltl::Finally(a) => ltl_literals(a, out),
        Ltl::And(a, b)
        | Ltl::Or(a, b)
        | Ltl::Imp(a, b)
        | Ltl::Iff(a, b)
        | Ltl::Until(a, b)
        | Ltl::Release(a, b)
        | Ltl::WeakUntil(a, b) => {
            ltl_literals(a, out);
            ltl_literals(b, out);
        }
    }
}

/// The least and greatest integer literal of the model's transitions, `init`,
/// `unsafe` and `ltl` blocks.
fn literal_bounds(m: &Model) -> Option<(i64, i64)> {
    let mut lits = Vec::new();
    for t in &m.transitions {
        literals(&t.guard, &mut lits);
        for u in &t.updates {
            for ix in &u.index {
                if let Index::Term(x) = ix {
                    literals(x, &mut lits);
                }
            }
            match &u.value {
                UpdValue::Term(x) | UpdValue::Any { cond: x, .. } => literals(x, &mut lits),
                UpdValue::Nondet => {}
            }
        }
    }
    for i in &m.inits {
        literals(&i.body, &mut lits);
    }
    for u in &m.unsafes {
        literals(&u.body, &mut lits);
    }
    for l in &m.ltls {
        ltl_literals(&l.body, &mut lits);
    }
    Some((*lits.iter().min()?, *lits.iter().max()?))
}

/// Whether an `init` block fixes every cell of `var` to a literal: one of its
/// top-level conjuncts is `V[z1, .., zk] = lit` with z1..zk distinct parameters of the
/// block (which range over every process, so every cell is meant).
fn init_fixes(init: &Init, var: VarId) -> bool {
    fn conjuncts<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
        match e {
            Expr::And(xs) => xs.iter().for_each(|x| conjuncts(x, out)),
            _ => out.push(e),
        }
    }
    let mut cs = Vec::new();
    conjuncts(&init.body, &mut cs);
    cs.into_iter().any(|c| {
        let Expr::Cmp(CmpOp::Eq, a, b) = c else {
            return false;
        };
        let cell = match (&**a, &**b) {
            (Expr::Read(v, ix), x) | (x, Expr::Read(v, ix))
                if *v == var && int_literal(x).is_some() =>
            {
                ix
            }
            _ => return false,
        };
        let mut ids: Vec<usize> = Vec::new();
        for x in cell {
            match x {
                Expr::Local(id) if *id < init.params && !ids.contains(id) => ids.push(*id),
                _ => return false,
            }
        }
        true
    })
}

/// Fix the window of `int` (the range type `r`, first used at `span`): given by
/// `--int-range`, or derived from the model's literals. Returns the warning that
/// reports it.
fn settle_ints(
    model: &mut Model,
    r: usize,
    span: Span,
    given: Option<(i64, i64)>,
) -> Result<Diagnostic, Diagnostic> {
    let lits = literal_bounds(model);
    let (lo, hi) = given.unwrap_or_else(|| IntWindow::default_for(lits));
    if hi < lo || hi.saturating_sub(lo) >= MAX_INT_VALUES {
        return Err(Diagnostic::error(
            span,
            format!(
                "the int window {lo}..{hi} is {}",
                if hi < lo { "empty" } else { "too large" }
            ),
        )
        .with_note(format!(
            "help: give --int-range LO..HI with at most {MAX_INT_VALUES} values"
        )));
    }
    model.ranges[r].lo = SizeExpr::Lit(lo);
    model.ranges[r].hi = SizeExpr::Lit(hi);
    let ty = Ty::Range(r);
    let free: Vec<VarId> = (0..model.vars.len())
        .filter(|&v| model.vars[v].ty == ty && !model.inits.iter().any(|i| init_fixes(i, v)))
        .collect();
    let w = IntWindow {
        range: r,
        lo,
        hi,
        given: given.is_some(),
        literals: lits,
        free,
        span,
    };
    let mut d = Diagnostic::warning(span, format!("int: {}", w.summary(model)));
    if given.is_none() {
        d = d.with_note("help: set the window with --int-range LO..HI");
    } else if let Some((a, b)) = lits.filter(|&(a, b)| a < lo || b > hi) {
        d = d.with_note(format!(
            "note: the model's literals {a}..{b} reach outside the window; values outside it are never reached"
        ));
    }
    model.int_window = Some(w);
    Ok(d)
}

impl<'a> Checker<'a> {
    fn asym(&mut self, what: impl Into<String>, span: Span) {
        self.breaks.push(SymmetryBreak {
            what: what.into(),
            span,
        });
    }

    fn ty_name(&self, t: Ty) -> String {
        type_name(&self.enums, &self.ranges, t)
    }

    // ------------------------------------------------------------ declarations

    fn size_expr(&self, e: &ast::Expr) -> R<SizeExpr> {
        Ok(match &e.kind {
            ExprKind::Int(v) => SizeExpr::Lit(*v),
            ExprKind::Size => SizeExpr::Size,
            ExprKind::Neg(a) => SizeExpr::Neg(Box::new(self.size_expr(a)?)),
            ExprKind::Bin(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), a, b) => {
                let (a, b) = (Box::new(self.size_expr(a)?), Box::new(self.size_expr(b)?));
                match op {
                    BinOp::Add => SizeExpr::Add(a, b),
                    BinOp::Sub => SizeExpr::Sub(a, b),
                    _ => SizeExpr::Mul(a, b),
                }
            }
            _ => {
                return err(
                    e.span,
                    "a range bound must be an integer expression over literals and `N`",
                );
            }
        })
    }

    fn new_range(&mut self, name: String, lo: &ast::Expr, hi: &ast::Expr, span: Span) -> R<Ty> {
        let lo = self.size_expr(lo)?;
        let hi = self.size_expr(hi)?;
        if !lo.uses_size() && !hi.uses_size() && hi.eval(0) < lo.eval(0) {
            return err(span, format!("the range `{name}` is empty"));
        }
        self.ranges.push(RangeType { name, lo, hi, span });
        Ok(Ty::Range(self.ranges.len() - 1))
    }

    fn resolve_type(&mut self, t: &TypeExpr) -> R<Ty> {
        match t {
            TypeExpr::Named(id) => match id.name.as_str() {
                "bool" => Ok(Ty::Bool),
                "proc" => Ok(Ty::Proc),
                "real" => Err(real_error(id.span, None)),
                "int" => Ok(Ty::Range(self.int_range(id.span))),
                other => match self.types.get(other) {
                    Some(t) => Ok(*t),
                    None => err(id.span, format!("unknown type `{other}`")),
                },
            },
            TypeExpr::Range(lo, hi, span) => {
                let name = self
                    .src
                    .snippet(*span)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                self.new_range(name, lo, hi, *span)
            }
        }
    }

    /// The range type `int` (created at its first use; its bounds are the window,
    /// fixed once the whole model is known).
    fn int_range(&mut self, span: Span) -> usize {
        if let Some((r, _)) = self.int_type {
            return r;
        }
        self.ranges.push(RangeType {
            name: "int".into(),
            lo: SizeExpr::Lit(0),
            hi: SizeExpr::Lit(0),
            span,
        });
        let r = self.ranges.len() - 1;
        self.int_type = Some((r, span));
        r
    }

    /// Whether `t` is the type `int`.
    fn is_int(&self, t: Ty) -> bool {
        matches!((t, self.int_type), (Ty::Range(r), Some((i, _))) if r == i)
    }

    fn check_new_type_name(&self, name: &Ident) -> R<()> {
        if matches!(name.name.as_str(), "bool" | "proc" | "int" | "real")
            || self.types.contains_key(&name.name)
        {
            return err(
                name.span,
                format!("type `{}` is already defined", name.name),
            );
        }
        Ok(())
    }

    fn check_new_upper(&self, name: &Ident) -> R<()> {
        if self.var_names.contains_key(&name.name)
            || self.ctors.contains_key(&name.name)
            || name.name == "True"
            || name.name == "False"
        {
            return err(name.span, format!("`{}` is already defined", name.name));
        }
        Ok(())
    }

    fn decl(&mut self, d: &ast::Decl) -> R<()> {
        match d {
            ast::Decl::Enum { name, ctors } => {
                self.check_new_type_name(name)?;
                let id = self.enums.len();
                for (k, c) in ctors.iter().enumerate() {
                    self.check_new_upper(c)?;
                    self.ctors.insert(c.name.clone(), (id, k));
                }
                self.enums.push(EnumType {
                    name: name.name.clone(),
                    ctors: ctors.iter().map(|c| c.name.clone()).collect(),
                });
                self.types.insert(name.name.clone(), Ty::Enum(id));
            }
            ast::Decl::Range { name, lo, hi } => {
                self.check_new_type_name(name)?;
                let t = self.new_range(name.name.clone(), lo, hi, name.span.to(hi.span))?;
                self.types.insert(name.name.clone(), t);
            }
            ast::Decl::Abstract { name } => {
                // Its values d1..dD are fixed once the whole model is known.
                self.check_new_type_name(name)?;
                let id = self.enums.len();
                self.enums.push(EnumType {
                    name: name.name.clone(),
                    ctors: Vec::new(),
                });
                self.types.insert(name.name.clone(), Ty::Enum(id));
                self.abstracts.push((id, name.clone()));
            }
            ast::Decl::Var { name, ty } | ast::Decl::Const { name, ty } => {
                self.check_new_upper(name)?;
                real_decl(name, std::slice::from_ref(ty))?;
                let t = self.resolve_type(ty)?;
                let kind = if matches!(d, ast::Decl::Var { .. }) {
                    VarKind::Global
                } else {
                    VarKind::Const
                };
                self.var_names.insert(name.name.clone(), self.vars.len());
                self.vars.push(Var {
                    name: name.name.clone(),
                    kind,
                    dims: Vec::new(),
                    ty: t,
                    span: name.span,
                });
            }
            ast::Decl::Array { name, index, elem } => {
                self.check_new_upper(name)?;
                real_decl(name, index)?;
                real_decl(name, std::slice::from_ref(elem))?;
                let mut dims = Vec::new();
                for ix in index {
                    let t = self.resolve_type(ix)?;
                    if self.is_int(t) {
                        let at = ix.span();
                        return Err(Diagnostic::error(
                            at,
                            format!(
                                "the array `{}` is indexed by `int`, which is not supported",
                                name.name
                            ),
                        )
                        .with_note("help: index it by a range instead, e.g. `0 .. 7`"));
                    }
                    dims.push(t);
                }
                let t = self.resolve_type(elem)?;
                self.var_names.insert(name.name.clone(), self.vars.len());
                self.vars.push(Var {
                    name: name.name.clone(),
                    kind: VarKind::Array,
                    dims,
                    ty: t,
                    span: name.span,
                });
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------ expressions

    fn formula(&mut self, sc: &mut Scope, e: &ast::Expr) -> R<Expr> {
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
    fn index_compat(&mut self, dim: Ty, have: Ty, var: &str, span: Span) -> R<()> {
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
    fn store_compat(&mut self, target: Ty, have: Ty, var: &str, span: Span) -> R<()> {
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
                if !eq && (a == Ty::Proc || b == Ty::Proc) {
                    self.asym("an order comparison on process ids", span);
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

    fn expr(&mut self, sc: &mut Scope, e: &ast::Expr) -> R<(Expr, Ty)> {
        match &e.kind {
            ExprKind::Int(v) => Ok((Expr::Const(*v, Ty::Int), Ty::Int)),
            ExprKind::ProcConst(k) => {
                if *k < 1 {
                    return err(e.span, "process constants start at `#1`");
                }
                if let Some((np, _)) = self.number_procs
                    && *k as usize > np {
                        return err(
                            e.span,
                            format!("`#{k}` exceeds `number_procs {np}`"),
                        );
                    }
                self.asym(format!("the process constant `#{k}`"), e.span);
                Ok((Expr::Const(*k, Ty::Proc), Ty::Proc))
            }
            ExprKind::Size => Ok((Expr::Size, Ty::Int)),
            ExprKind::Real(r) => Err(real_error(
                e.span,
                Some(format!("`{r}` is a real number")),
            )),
            ExprKind::True => Ok((Expr::Const(1, Ty::Bool), Ty::Bool)),
            ExprKind::False => Ok((Expr::Const(0, Ty::Bool), Ty::Bool)),
            ExprKind::Lower(name) => match sc.lookup(name) {
                Some(Binding::Local(id)) => Ok((Expr::Local(*id), sc.locals[*id].ty)),
                Some(Binding::Subst(x, t)) => Ok((x.clone(), *t)),
                None if self.preds.contains_key(name) => err(
                    e.span,
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
                        self.data_used = Some((k, e.span));
                    }
                    let en = self.abstracts[0].0;
                    Ok((Expr::Const(k as i64 - 1, Ty::Enum(en)), Ty::Enum(en)))
                }
                None => Err(Diagnostic::error(e.span, format!("unknown name `{name}`"))
                    .with_note("help: lower-case names are parameters, quantified variables, `let` names or predicates")),
            },
            ExprKind::Upper(name) => {
                if let Some(&v) = self.var_names.get(name) {
                    let var = &self.vars[v];
                    if !var.dims.is_empty() {
                        return err(
                            e.span,
                            format!(
                                "`{name}` is an array with {} index(es); write `{name}[...]`",
                                var.dims.len()
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
                err(e.span, format!("unknown name `{name}`"))
            }
            ExprKind::Index(name, idx) => {
                let Some(&v) = self.var_names.get(&name.name) else {
                    return err(name.span, format!("unknown array `{}`", name.name));
                };
                let (dims, ty) = (self.vars[v].dims.clone(), self.vars[v].ty);
                if dims.len() != idx.len() {
                    return err(
                        e.span,
                        format!(
                            "`{}` has {} index(es), but {} given",
                            name.name,
                            dims.len(),
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
            ExprKind::Ite(c, t, f) => {
                let c = self.formula(sc, c)?;
                let (a, ta) = self.expr(sc, t)?;
                let (b, tb) = self.expr(sc, f)?;
                let ty = if ta == tb {
                    ta
                } else if ta.is_intlike() && tb.is_intlike() {
                    if ta == Ty::Proc || tb == Ty::Proc {
                        self.asym("`if then else` mixing process ids and integers", e.span);
                    }
                    Ty::Int
                } else {
                    return err(
                        e.span,
                        format!(
                            "the branches of `if then else` have types `{}` and `{}`",
                            self.ty_name(ta),
                            self.ty_name(tb)
                        ),
                    );
                };
                Ok((Expr::Ite(Box::new(c), Box::new(a), Box::new(b), ty), ty))
            }
            ExprKind::Let(x, v, body) => {
                let (xv, xt) = self.expr(sc, v)?;
                sc.names.push((x.name.clone(), Binding::Subst(xv, xt)));
                let r = self.expr(sc, body);
                sc.names.pop();
                r
            }
            ExprKind::Quant {
                forall,
                var,
                dom: QuantDom::ProcExcept(names),
                body,
            } if names.iter().enumerate().all(|(k, n)| {
                n.name != var.name
                    && !names[..k].iter().any(|m| m.name == n.name)
                    && sc.lookup(&n.name).is_none()
                    && !self.preds.contains_key(&n.name)
            }) =>
            {
                // Cubicle's `forall x <> y. f` with `y` not bound: it binds `y` too,
                // and the variables are pairwise distinct: `forall y. forall x <> y. f`.
                let mut inner = ast::Expr {
                    kind: ExprKind::Quant {
                        forall: *forall,
                        var: var.clone(),
                        dom: QuantDom::ProcExcept(names.clone()),
                        body: body.clone(),
                    },
                    span: e.span,
                };
                for (k, n) in names.iter().enumerate().rev() {
                    let dom = if k == 0 {
                        QuantDom::Proc
                    } else {
                        QuantDom::ProcExcept(names[..k].to_vec())
                    };
                    inner = ast::Expr {
                        kind: ExprKind::Quant {
                            forall: *forall,
                            var: n.clone(),
                            dom,
                            body: Box::new(inner),
                        },
                        span: e.span,
                    };
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
                self.expr(sc, &inner)
            }
            ExprKind::Quant {
                forall,
                var,
                dom,
                body,
            } => {
                let (dom, ty) = self.domain(sc, dom)?;
                let id = sc.fresh(&var.name, ty);
                sc.names.push((var.name.clone(), Binding::Local(id)));
                let b = self.formula(sc, body);
                sc.names.pop();
                Ok((
                    Expr::Quant {
                        forall: *forall,
                        var: id,
                        dom,
                        body: Box::new(b?),
                    },
                    Ty::Bool,
                ))
            }
            ExprKind::Temporal(..) => err(
                e.span,
                "temporal operators are allowed only inside `ltl` blocks",
            ),
        }
    }

    fn domain(&mut self, sc: &mut Scope, d: &QuantDom) -> R<(Domain, Ty)> {
        Ok(match d {
            QuantDom::Proc => (Domain::Procs { except: Vec::new() }, Ty::Proc),
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
                    Ty::Proc => (Domain::Procs { except: Vec::new() }, Ty::Proc),
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
        let cmp = |op| match op {
            BinOp::Eq => Some(CmpOp::Eq),
            BinOp::Ne => Some(CmpOp::Ne),
            BinOp::Lt => Some(CmpOp::Lt),
            BinOp::Le => Some(CmpOp::Le),
            BinOp::Gt => Some(CmpOp::Gt),
            BinOp::Ge => Some(CmpOp::Ge),
            _ => None,
        };
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
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let c = cmp(op).unwrap();
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

    // ------------------------------------------------------------ items

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
                        "`{}` has {} index(es), but {} given",
                        var.name,
                        var.dims.len(),
                        lhs.index.len()
                    )
                },
            );
        }
        let mark = sc.names.len();
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
        let value = match rhs {
            ast::Rhs::Expr(e) => {
                if let Some((n, sp)) = fresh.first() {
                    return Err(Diagnostic::error(
                        *sp,
                        format!("unknown name `{n}` in the index of an update"),
                    )
                    .with_note(format!(
                        "help: to update every cell, bind `{n}` with a case: `{}[{n}] := case | ... | _ : t`",
                        var.name
                    )));
                }
                let (x, t) = self.expr(sc, e)?;
                self.store_compat(var.ty, t, &var.name, e.span)?;
                UpdValue::Term(x)
            }
            ast::Rhs::Case {
                branches,
                default,
                span: cspan,
            } => {
                let Some(default) = default else {
                    return Err(Diagnostic::error(
                        *cspan,
                        "a `case` without a `_` branch is not supported: where no branch applies, Cubicle's engines disagree (its backward search leaves the cell any value, its forward search takes the last branch)",
                    )
                    .with_note(format!(
                        "help: say what such a cell gets with a default branch, e.g. `| _ : {}` to keep it",
                        if lhs.index.is_empty() {
                            var.name.clone()
                        } else {
                            self.src
                                .snippet(lhs.var.span.to(lhs.index.last().unwrap().span))
                                .to_string()
                                + "]"
                        }
                    )));
                };
                let (mut acc, t) = self.expr(sc, default)?;
                let mut acc_ty = t;
                self.store_compat(var.ty, t, &var.name, default.span)?;
                let mut checked = Vec::new();
                for (c, t) in branches {
                    let c = self.formula(sc, c)?;
                    let (x, tx) = self.expr(sc, t)?;
                    self.store_compat(var.ty, tx, &var.name, t.span)?;
                    checked.push((c, x, tx));
                }
                // Typed as the `if then else` chain it is, so that printing it as one
                // gives back the same IR.
                for (c, x, tx) in checked.into_iter().rev() {
                    acc_ty = if tx == acc_ty { tx } else { Ty::Int };
                    acc = Expr::Ite(Box::new(c), Box::new(x), Box::new(acc), acc_ty);
                }
                UpdValue::Term(acc)
            }
            ast::Rhs::Nondet(_) => {
                if let Some((n, at)) = fresh.first() {
                    return Err(Diagnostic::error(
                        *at,
                        format!("unknown name `{n}` in the index of an update"),
                    )
                    .with_note(format!(
                        "help: `:= .` chooses the value of one cell, e.g. `{}[i] := .` with `i` a parameter",
                        var.name
                    )));
                }
                UpdValue::Nondet
            }
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
        };
        sc.names.truncate(mark);
        Ok(Update {
            var: v,
            index,
            value,
            span,
        })
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

fn has_temporal(e: &ast::Expr) -> bool {
    match &e.kind {
        ExprKind::Temporal(..) => true,
        ExprKind::Bin(BinOp::Until | BinOp::Release | BinOp::WeakUntil, ..) => true,
        ExprKind::Bin(_, l, r) => has_temporal(l) || has_temporal(r),
        ExprKind::Not(a) | ExprKind::Neg(a) => has_temporal(a),
        ExprKind::Ite(a, b, c) => has_temporal(a) || has_temporal(b) || has_temporal(c),
        ExprKind::Let(_, a, b) => has_temporal(a) || has_temporal(b),
        ExprKind::Quant { body, .. } => has_temporal(body),
        ExprKind::Index(_, xs) | ExprKind::Call(_, xs) => xs.iter().any(has_temporal),
        _ => false,
    }
}
