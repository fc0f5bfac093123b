//! The extra process id: Cubicle's Flash models declare `var Home : proc` and say
//! `init (p) { Home <> p && ... }`. With `Home` one of the n processes that `init` has
//! no solution at any size, so the model would be checked vacuously. Cubicle's solver
//! treats process ids as integers (and its enumerative engine keeps one id beyond the
//! n processes), so its authors meant `Home` to be an id that is not one of the
//! replicated processes.
//!
//! nfold reads such a model (and only such a model: one in which `init` declares a
//! `proc` global or constant different from every process) with one **extra process
//! id**, the value `0`:
//! - every `proc`-typed variable, constant and array cell may hold it (its values are
//!   `0..=n` instead of `1..=n`), so an unconstrained `proc` cell starts with any of
//!   n + 1 values and `X := .` chooses among them;
//! - it is not a process: transition parameters, quantifiers, `any`, `unsafe` and `ltl`
//!   parameters range over 1..n only, and `proc`-indexed arrays have no cell for it
//!   (indexing one with it is a range error, like `A[#3]` at size 2);
//! - process permutations fix it, so symmetry reduction stays sound (the canonical
//!   form already leaves values outside 1..n unchanged).
//!
//! Since the reading only applies to models whose `init` is unsatisfiable at every
//! size under the plain reading, it never changes the verdicts of a model that had
//! any behaviour at all.

use super::ir::{CmpOp, Domain, Expr, Init, Model, Ty, VarKind};
use crate::source::{Diagnostic, Span};

/// The value of the extra process id.
pub const EXTRA_ID: i64 = 0;

/// Why the extra-id reading applies: the `proc` globals `init` declares different from
/// every process, with the place of the first such conjunct.
#[derive(Clone, Debug)]
pub struct ExtraProc {
    pub vars: Vec<String>,
    pub span: Span,
}

impl ExtraProc {
    /// `` `Home` `` or `` `A`, `B` ``.
    pub fn names(&self) -> String {
        self.vars
            .iter()
            .map(|v| format!("`{v}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Decide whether the reading applies and record it, with a warning.
pub fn settle(model: &mut Model) {
    let mut vars: Vec<String> = Vec::new();
    let mut first: Option<Span> = None;
    for init in &model.inits {
        let mut conj = Vec::new();
        flatten(&init.body, &mut conj);
        for c in conj {
            if let Some(v) = distinct_from_all(model, init, c)
                && !vars.contains(&model.vars[v].name)
            {
                vars.push(model.vars[v].name.clone());
                first.get_or_insert(init.span);
            }
        }
    }
    let Some(span) = first else { return };
    let x = ExtraProc { vars, span };
    model.warnings.push(Diagnostic::warning(
        span,
        format!(
            "{} is declared different from every process by `init`, which has no solution among the n processes: read as Cubicle does, with one extra process id, 0, that is not a process (no transition instance, quantifier or array cell for it); every `proc` variable and cell may hold it (docs/cubicle.md)",
            x.names()
        ),
    ));
    model.extra_proc = Some(x);
}

fn flatten<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match e {
        Expr::And(xs) => xs.iter().for_each(|x| flatten(x, out)),
        _ => out.push(e),
    }
}

/// `X <> p` (or `p <> X`, `not (X = p)`) for a `proc` global or constant X and a
/// parameter p of the init block, or `forall p. X <> p` over every process: X.
fn distinct_from_all(m: &Model, init: &Init, e: &Expr) -> Option<usize> {
    let (bound, body) = match e {
        Expr::Quant(q) if q.forall && q.dom == Domain::all_procs() => (Some(q.var), &*q.body),
        _ => (None, e),
    };
    let (a, b) = match body {
        Expr::Cmp(CmpOp::Ne, a, b) => (a.as_ref(), b.as_ref()),
        Expr::Not(x) => match x.as_ref() {
            Expr::Cmp(CmpOp::Eq, a, b) => (a.as_ref(), b.as_ref()),
            _ => return None,
        },
        _ => return None,
    };
    let is_all = |l: usize| match bound {
        Some(q) => l == q,
        None => l < init.params && init.locals[l].ty == Ty::Proc,
    };
    let global = |v: usize| {
        let var = &m.vars[v];
        var.ty == Ty::Proc && var.dims.is_empty() && var.kind != VarKind::Array
    };
    match (a, b) {
        (Expr::Read(v, ix), Expr::Local(l)) | (Expr::Local(l), Expr::Read(v, ix))
            if ix.is_empty() && global(*v) && is_all(*l) =>
        {
            Some(*v)
        }
        _ => None,
    }
}
