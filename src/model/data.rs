//! Abstract types (Cubicle's `type data`, declared without constructors). Each becomes
//! an enumeration of d values `d1 .. dD`, and this module chooses d.
//!
//! **Data independence.** The checker already guarantees that a value of an abstract
//! type is never written as a constant, never ordered and never added: it can only be
//! copied, compared with `=` / `<>` and chosen by `X := .`. Two further properties are
//! decided here from the text:
//! - *symmetric* (scalarset, as in Murphi: C. N. Ip and D. L. Dill, *Better
//!   Verification Through Symmetry*, FMSD 1996): no array is indexed by the type. Then
//!   every permutation of the values maps runs to runs and bad states to bad states,
//!   and the explicit engine may keep one state per orbit under those permutations.
//! - *independent*: besides, no transition compares two values of the type or
//!   quantifies over it, `init` compares them only by equalities in positive position
//!   (`MemData = AuxData`, which any renaming keeps), every `unsafe` property reads a
//!   bounded number m of data cells (per parameter tuple: `A[z1]`, `A[z2]` and `X` are
//!   three; a cell read for a quantified process is unbounded) and no `ltl` property
//!   reads data. Then any map h of the values onto fewer values sends a run to a run
//!   (guards and `case` conditions never look at data, so h commutes with every step and
//!   `X := .` chooses h(v)), and a bad state to a bad state as long as h is one-to-one on
//!   the m cells the property reads. So the verdicts are the same for every d ≥ m; nfold
//!   uses d = m + 1 (one value more than needed, as the brief of the feature states).
//! - Otherwise (the transitions compare data, say) the number of values matters: the
//!   default is `DEFAULT_VALUES` and the report says that the verdicts hold for that
//!   number only. `--data-values D` sets d for every abstract type.

use super::ir::*;
use crate::source::{Diagnostic, Span};

/// The number of values of an abstract type that is not data independent.
pub const DEFAULT_VALUES: usize = 3;

/// The largest number of values of an abstract type.
pub const MAX_VALUES: usize = 64;

/// How the number of values was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// `--data-values D`.
    Given,
    /// Data independent: one more than the data cells a property reads.
    Independent,
    /// `DEFAULT_VALUES`, because the model is not data independent.
    Default,
}

/// What makes a model depend on the values of an abstract type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dependence {
    pub what: String,
    pub span: Span,
}

/// An abstract type with its chosen number of values.
#[derive(Clone, Debug)]
pub struct DataType {
    pub name: String,
    /// The enumeration that holds its values `d1 .. dD`.
    pub enum_id: usize,
    pub span: Span,
    /// d, the number of values.
    pub values: usize,
    pub origin: Origin,
    /// `Ok(m)` when the model is data independent with properties reading at most m
    /// data cells (m + 1 values decide every verdict); otherwise why not.
    pub independent: Result<usize, Dependence>,
    /// No array is indexed by the type: permuting its values is a symmetry.
    pub symmetric: bool,
}

impl DataType {
    /// `d1..d3`, or `d1` for a single value.
    pub fn values_text(&self) -> String {
        if self.values == 1 {
            "d1".to_string()
        } else {
            format!("d1..d{}", self.values)
        }
    }

    /// One line for reports: the values, how they were chosen, and whether they are
    /// interchangeable.
    pub fn summary(&self, m: &Model) -> String {
        let count = |k: usize| {
            if k == 1 {
                "1 value".to_string()
            } else {
                format!("{k} values")
            }
        };
        let reads = |k: usize| match k {
            0 => "no property reads data".to_string(),
            1 => "the properties read at most 1 data cell".to_string(),
            k => format!("the properties read at most {k} data cells"),
        };
        let mut out = format!("{} {}", count(self.values), self.values_text());
        match (&self.origin, &self.independent) {
            (Origin::Independent, Ok(k)) => out.push_str(&format!(
                " (data independent and {}, so {} give the verdicts for any number of values)",
                reads(*k),
                count(k + 1)
            )),
            (Origin::Given, Ok(k)) if self.values > *k => out.push_str(&format!(
                " (--data-values; data independent and {}, so {} would give the verdicts for any number of values)",
                reads(*k),
                count(k + 1)
            )),
            (Origin::Given, Ok(k)) => out.push_str(&format!(
                " (--data-values); verdicts are for {} only: this data-independent model needs {} to decide every number of values",
                count(self.values),
                count(k + 1)
            )),
            (origin, Err(d)) => out.push_str(&format!(
                " ({}); verdicts are for {} only: the model {} at {}",
                if *origin == Origin::Given {
                    "--data-values"
                } else {
                    "default"
                },
                count(self.values),
                d.what,
                m.source.file_line(d.span.lo)
            )),
            (Origin::Default, Ok(_)) => {}
        }
        if self.symmetric && self.values > 1 {
            out.push_str("; the values are interchangeable (symmetry)");
        }
        out
    }
}

/// Choose the number of values of the abstract type held by enumeration `e` (its
/// declaration `name` at `span`), fill in its values and record it in the model.
/// Returns the warning that reports the choice.
pub fn settle(
    model: &mut Model,
    e: usize,
    name: &str,
    span: Span,
    given: Option<usize>,
) -> Diagnostic {
    let symmetric = index_dependence(model, e);
    let independent = match &symmetric {
        Err(d) => Err(d.clone()),
        Ok(()) => independence(model, Ty::Enum(e)),
    };
    let (values, origin) = match (given, &independent) {
        (Some(d), _) => (d.clamp(1, MAX_VALUES), Origin::Given),
        (None, Ok(k)) => ((k + 1).min(MAX_VALUES), Origin::Independent),
        (None, Err(_)) => (DEFAULT_VALUES, Origin::Default),
    };
    model.enums[e].ctors = (1..=values).map(|k| format!("d{k}")).collect();
    let dt = DataType {
        name: name.to_string(),
        enum_id: e,
        span,
        values,
        origin,
        independent,
        symmetric: symmetric.is_ok(),
    };
    let w = Diagnostic::warning(
        span,
        format!("abstract type `{name}`: {}", dt.summary(model)),
    );
    let w = match dt.origin {
        Origin::Given => w,
        _ => w.with_note("help: set the number of values with --data-values D"),
    };
    model.data_types.push(dt);
    w
}

/// The type of an IR term.
fn ty_of(m: &Model, locals: &[Local], e: &Expr) -> Ty {
    match e {
        Expr::Const(_, t) | Expr::Ite(_, _, _, t) => *t,
        Expr::Size | Expr::Arith(..) => Ty::Int,
        Expr::Local(id) => locals[*id].ty,
        Expr::Read(v, _) => m.vars[*v].ty,
        Expr::Cmp(..)
        | Expr::Not(_)
        | Expr::And(_)
        | Expr::Or(_)
        | Expr::Imp(..)
        | Expr::Iff(..)
        | Expr::Quant(_) => Ty::Bool,
    }
}

/// No array may be indexed by the type (its cells would move under a permutation).
fn index_dependence(m: &Model, e: usize) -> Result<(), Dependence> {
    match m.vars.iter().find(|v| v.dims.contains(&Ty::Enum(e))) {
        Some(v) => Err(Dependence {
            what: format!("indexes the array `{}` by `{}`", v.name, m.enums[e].name),
            span: v.span,
        }),
        None => Ok(()),
    }
}

/// The first construct of `e` that looks at values of `data`: a comparison (in `init`
/// only a positive equality, `pol` being the polarity, is allowed) or a quantifier
/// over the type.
fn compares(
    m: &Model,
    locals: &[Local],
    e: &Expr,
    data: Ty,
    init: bool,
    pol: Option<bool>,
) -> Option<String> {
    let name = || m.type_name(data);
    let r = |x: &Expr, p: Option<bool>| compares(m, locals, x, data, init, p);
    match e {
        Expr::Const(..) | Expr::Size | Expr::Local(_) => None,
        Expr::Read(_, idx) => idx.iter().find_map(|x| r(x, None)),
        Expr::Arith(_, a, b) => r(a, None).or_else(|| r(b, None)),
        Expr::Cmp(op, a, b) => {
            if ty_of(m, locals, a) == data {
                let kept = (*op == CmpOp::Eq && pol == Some(true))
                    || (*op == CmpOp::Ne && pol == Some(false));
                if !init || !kept {
                    return Some(format!("compares values of `{}`", name()));
                }
            }
            r(a, None).or_else(|| r(b, None))
        }
        Expr::Not(a) => r(a, pol.map(|p| !p)),
        Expr::And(xs) | Expr::Or(xs) => xs.iter().find_map(|x| r(x, pol)),
        Expr::Imp(a, b) => r(a, pol.map(|p| !p)).or_else(|| r(b, pol)),
        Expr::Iff(a, b) => r(a, None).or_else(|| r(b, None)),
        Expr::Ite(c, a, b, _) => r(c, None).or_else(|| r(a, pol)).or_else(|| r(b, pol)),
        Expr::Quant(q) => {
            if q.dom == Domain::Type(data) {
                return Some(format!("quantifies over `{}`", name()));
            }
            let ex = q.except().iter().find_map(|x| r(x, None));
            ex.or_else(|| r(&q.body, pol))
        }
    }
}

/// Collect the distinct cells of type `data` that `e` reads, with indices over the
/// first `params` locals (the property's parameters) and closed terms only.
fn data_reads(
    m: &Model,
    locals: &[Local],
    params: usize,
    e: &Expr,
    data: Ty,
    out: &mut Vec<Expr>,
) -> Result<(), String> {
    let rec = |x: &Expr, out: &mut Vec<Expr>| data_reads(m, locals, params, x, data, out);
    match e {
        Expr::Const(..) | Expr::Size => Ok(()),
        Expr::Local(id) => {
            if locals[*id].ty == data {
                Err(format!("binds a value of `{}`", m.type_name(data)))
            } else {
                Ok(())
            }
        }
        Expr::Read(v, idx) => {
            if m.vars[*v].ty == data {
                if idx.iter().any(|x| mentions_bound(x, params)) {
                    return Err(format!(
                        "reads `{}` for a quantified process in a property",
                        m.vars[*v].name
                    ));
                }
                if !out.contains(e) {
                    out.push(e.clone());
                }
            }
            idx.iter().try_for_each(|x| rec(x, out))
        }
        Expr::Quant(q) if q.dom == Domain::Type(data) => Err(format!(
            "quantifies over `{}` in a property",
            m.type_name(data)
        )),
        _ => e.try_for_each_child(|x| rec(x, out)),
    }
}

/// Whether `e` mentions a local other than the first `params` (a bound variable).
fn mentions_bound(e: &Expr, params: usize) -> bool {
    let r = |x: &Expr| mentions_bound(x, params);
    match e {
        Expr::Local(id) => *id >= params,
        Expr::Quant(_) => true,
        _ => e.any_child(r),
    }
}

fn ltl_reads_data(m: &Model, locals: &[Local], f: &Ltl, data: Ty) -> bool {
    f.atoms().into_iter().any(|e| {
        let mut out = Vec::new();
        data_reads(m, locals, usize::MAX, e, data, &mut out).is_err() || !out.is_empty()
    })
}

/// `Ok(m)`: the model is data independent in `data` and its properties read at most m
/// cells of the type; otherwise the first construct that prevents it.
fn independence(m: &Model, data: Ty) -> Result<usize, Dependence> {
    let dep = |what: String, span: Span| Err(Dependence { what, span });
    for t in &m.transitions {
        let mut found = compares(m, &t.locals, &t.guard, data, false, Some(true));
        for u in &t.updates {
            for ix in &u.index {
                if let Index::Term(x) = ix {
                    found = found.or_else(|| compares(m, &t.locals, x, data, false, None));
                }
            }
            found = found.or_else(|| match &u.value {
                UpdValue::Term(x) => compares(m, &t.locals, x, data, false, None),
                UpdValue::Nondet => None,
                UpdValue::Any { cond, .. } => compares(m, &t.locals, cond, data, false, None),
            });
        }
        if let Some(what) = found {
            return dep(format!("{what} in transition `{}`", t.name), t.span);
        }
    }
    for i in &m.inits {
        if let Some(what) = compares(m, &i.locals, &i.body, data, true, Some(true)) {
            return dep(format!("{what} in `init` (other than an equality)"), i.span);
        }
    }
    let mut most = 0;
    for u in &m.unsafes {
        let mut cells = Vec::new();
        if let Err(what) = data_reads(m, &u.locals, u.params, &u.body, data, &mut cells) {
            return dep(format!("{what} (`{}`)", u.name), u.span);
        }
        most = most.max(cells.len());
    }
    for l in &m.ltls {
        if ltl_reads_data(m, &l.locals, &l.body, data) {
            return dep(
                format!("reads data in the ltl property `{}`", l.name),
                l.span,
            );
        }
    }
    Ok(most)
}
