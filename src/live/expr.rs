//! Small builders of IR expressions for the liveness products (`product`): the
//! connectives, reads and quantifiers they are written with, substitution of an item's
//! locals, and the scope of locals of one product item.

use crate::lang;
use crate::model::ir::*;
use crate::source::Span;

/// A prefix that no name of the model starts with (compared in lower case).
pub(super) fn fresh_prefix(m: &Model) -> String {
    let text = lang::print::model_text(m).to_lowercase();
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    let mut p = "nf".to_string();
    while words.iter().any(|w| w.starts_with(&p)) {
        p.push('x');
    }
    p
}

pub(super) fn span() -> Span {
    Span::new(0, 0)
}

pub(super) fn and(xs: Vec<Expr>) -> Expr {
    match <[Expr; 1]>::try_from(xs) {
        Ok([x]) => x,
        Err(xs) if xs.is_empty() => Expr::tt(),
        Err(xs) => Expr::And(xs),
    }
}

pub(super) fn or(xs: Vec<Expr>) -> Expr {
    match <[Expr; 1]>::try_from(xs) {
        Ok([x]) => x,
        Err(xs) if xs.is_empty() => Expr::Const(0, Ty::Bool),
        Err(xs) => Expr::Or(xs),
    }
}

pub(super) fn eq(a: Expr, b: Expr) -> Expr {
    Expr::Cmp(CmpOp::Eq, Box::new(a), Box::new(b))
}

pub(super) fn not(a: Expr) -> Expr {
    Expr::Not(Box::new(a))
}

pub(super) fn read(v: VarId) -> Expr {
    Expr::Read(v, Vec::new())
}

/// `exists v. body`, `v` ranging over every process.
pub(super) fn exists_proc(v: LocalId, body: Expr) -> Expr {
    Expr::quant(false, v, Domain::all_procs(), body)
}

/// `forall v. body`, `v` ranging over every process.
pub(super) fn forall_proc(v: LocalId, body: Expr) -> Expr {
    Expr::quant(true, v, Domain::all_procs(), body)
}

/// Replace every `Local(id)` by `map[id]`; a quantifier's variable must map to a local.
pub(super) fn subst(e: &Expr, map: &[Expr]) -> Expr {
    let Ok(e) = e.rewrite(&Subst(map));
    e
}

/// The rewrite of `subst`.
struct Subst<'a>(&'a [Expr]);

impl Rewrite for Subst<'_> {
    type Error = std::convert::Infallible;

    fn local(&self, id: LocalId) -> Result<Expr, Self::Error> {
        Ok(self.0[id].clone())
    }

    fn bound(&self, var: LocalId) -> LocalId {
        let Expr::Local(v) = self.0[var] else {
            unreachable!("a quantified variable maps to a local")
        };
        v
    }
}

/// The locals of one item of the product, with fresh names.
pub(super) struct Scope<'a> {
    pub(super) locals: Vec<Local>,
    pub(super) prefix: &'a str,
}

impl Scope<'_> {
    pub(super) fn fresh(&mut self, ty: Ty) -> LocalId {
        let id = self.locals.len();
        self.locals.push(Local {
            name: format!("{}{id}", self.prefix),
            ty,
        });
        id
    }

    /// A map for an expression of another item with locals `src`: the first ones as
    /// given by `fixed`, every other one a fresh local of this scope.
    pub(super) fn import(&mut self, src: &[Local], fixed: &[Expr]) -> Vec<Expr> {
        src.iter()
            .enumerate()
            .map(|(k, l)| match fixed.get(k) {
                Some(e) => e.clone(),
                None => Expr::Local(self.fresh(l.ty)),
            })
            .collect()
    }
}
