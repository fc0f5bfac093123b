//! Formulas and terms, loosest first: `let` and quantifiers, `=>`/`<=>`, `||`, `&&`,
//! the temporal binary operators, `if then else`, negation, comparisons, sums,
//! products, unary minus and the primaries; and type expressions (`bool`, a name,
//! `lo .. hi`), which quantifiers and declarations share.

use super::{P, PRes, bin, fail, fail_msg, int_lit, kw, lower, mk, sym};
use crate::lang::ast::*;
use crate::lang::lexer::{Kw, Sym, Tok};
use crate::model::ir::CmpOp;
use nom::{Err, combinator::cut, multi::separated_list1};

/// A formula or term (the loosest level: `let`, quantifiers, `=>`/`<=>`).
pub fn expr(i: P<'_>) -> PRes<'_, Expr> {
    imp(i)
}

fn imp(i: P<'_>) -> PRes<'_, Expr> {
    let (i, l) = disj(i)?;
    let op = match i.tok() {
        Tok::Sym(Sym::Imp) => BinOp::Imp,
        Tok::Sym(Sym::Iff) => BinOp::Iff,
        _ => return Ok((i, l)),
    };
    let (i, r) = cut(imp)(i.next())?;
    Ok((i, bin(op, l, r)))
}

/// A left-associative chain `x op x op ...` of what `operand` parses, `op_of` reading
/// the operator (if any) off the token after an operand.
fn chain<'a>(
    i: P<'a>,
    operand: fn(P<'a>) -> PRes<'a, Expr>,
    op_of: fn(&Tok) -> Option<BinOp>,
) -> PRes<'a, Expr> {
    let (mut i, mut l) = operand(i)?;
    while let Some(op) = op_of(i.tok()) {
        let (j, r) = cut(operand)(i.next())?;
        l = bin(op, l, r);
        i = j;
    }
    Ok((i, l))
}

fn disj(i: P<'_>) -> PRes<'_, Expr> {
    chain(i, conj, |t| (*t == Tok::Sym(Sym::Or)).then_some(BinOp::Or))
}

fn conj(i: P<'_>) -> PRes<'_, Expr> {
    chain(i, until, |t| {
        (*t == Tok::Sym(Sym::And)).then_some(BinOp::And)
    })
}

fn until(i: P<'_>) -> PRes<'_, Expr> {
    let (i, l) = ite(i)?;
    if !i.ltl {
        return Ok((i, l));
    }
    let op = match i.tok() {
        Tok::Upper(s) if s == "U" => BinOp::Until,
        Tok::Upper(s) if s == "R" => BinOp::Release,
        Tok::Upper(s) if s == "W" => BinOp::WeakUntil,
        _ => return Ok((i, l)),
    };
    let (i, r) = cut(until)(i.next())?;
    Ok((i, bin(op, l, r)))
}

fn ite(i: P<'_>) -> PRes<'_, Expr> {
    if *i.tok() != Tok::Kw(Kw::If) {
        return neg(i);
    }
    let start = i.span();
    let (i, c) = cut(expr)(i.next())?;
    let (i, _) = cut(kw(Kw::Then))(i)?;
    let (i, t) = cut(expr)(i)?;
    let (i, _) = cut(kw(Kw::Else))(i)?;
    let (i, e) = cut(ite)(i)?;
    let span = start.to(e.span);
    Ok((
        i,
        mk(ExprKind::Ite(Box::new(c), Box::new(t), Box::new(e)), span),
    ))
}

fn neg(i: P<'_>) -> PRes<'_, Expr> {
    let start = i.span();
    if *i.tok() == Tok::Kw(Kw::Not) {
        let (j, e) = cut(neg)(i.next())?;
        let span = start.to(e.span);
        return Ok((j, mk(ExprKind::Not(Box::new(e)), span)));
    }
    if i.ltl {
        let op = match i.tok() {
            Tok::Upper(s) if s == "G" => Some(TempOp::Globally),
            Tok::Upper(s) if s == "F" => Some(TempOp::Finally),
            Tok::Upper(s) if s == "X" => Some(TempOp::Next),
            _ => None,
        };
        // `X[i]` or `F = A` name variables or constructors: an operator is followed by
        // the start of a formula.
        let operand = || {
            let next = i.next();
            starts_term(next.tok()) || *next.tok() == Tok::Kw(Kw::If)
        };
        if let Some(op) = op.filter(|_| operand()) {
            let (j, e) = cut(neg)(i.next())?;
            let span = start.to(e.span);
            return Ok((j, mk(ExprKind::Temporal(op, Box::new(e)), span)));
        }
    }
    cmp(i)
}

fn cmp(i: P<'_>) -> PRes<'_, Expr> {
    let (i, l) = sum(i)?;
    let op = match i.tok() {
        Tok::Sym(Sym::Eq) => BinOp::Cmp(CmpOp::Eq),
        Tok::Sym(Sym::Ne) => BinOp::Cmp(CmpOp::Ne),
        Tok::Sym(Sym::Lt) => BinOp::Cmp(CmpOp::Lt),
        Tok::Sym(Sym::Le) => BinOp::Cmp(CmpOp::Le),
        Tok::Sym(Sym::Gt) => BinOp::Cmp(CmpOp::Gt),
        Tok::Sym(Sym::Ge) => BinOp::Cmp(CmpOp::Ge),
        _ => return Ok((i, l)),
    };
    let (i, r) = cut(sum)(i.next())?;
    if matches!(
        i.tok(),
        Tok::Sym(Sym::Eq | Sym::Ne | Sym::Lt | Sym::Le | Sym::Gt | Sym::Ge)
    ) {
        return fail_msg(
            i,
            "comparisons do not chain".to_string(),
            Some("help: write `a = b && b = c`".to_string()),
        );
    }
    Ok((i, bin(op, l, r)))
}

pub(super) fn sum(i: P<'_>) -> PRes<'_, Expr> {
    chain(i, prod, |t| match t {
        Tok::Sym(Sym::Plus) => Some(BinOp::Add),
        Tok::Sym(Sym::Minus) => Some(BinOp::Sub),
        _ => None,
    })
}

fn prod(i: P<'_>) -> PRes<'_, Expr> {
    chain(i, unary, |t| {
        (*t == Tok::Sym(Sym::Star)).then_some(BinOp::Mul)
    })
}

fn unary(i: P<'_>) -> PRes<'_, Expr> {
    if *i.tok() == Tok::Sym(Sym::Minus) {
        let start = i.span();
        let (j, e) = cut(unary)(i.next())?;
        let span = start.to(e.span);
        return Ok((j, mk(ExprKind::Neg(Box::new(e)), span)));
    }
    primary(i)
}

pub(super) fn args(i: P<'_>) -> PRes<'_, Vec<Expr>> {
    separated_list1(sym(Sym::Comma), expr)(i)
}

/// Whether a token can begin a term or formula.
fn starts_term(t: &Tok) -> bool {
    matches!(
        t,
        Tok::Upper(_)
            | Tok::Lower(_)
            | Tok::Int(_)
            | Tok::Real(_)
            | Tok::Sym(Sym::LParen | Sym::Hash)
            | Tok::Kw(Kw::True | Kw::False | Kw::Not | Kw::Size | Kw::Forall | Kw::Exists)
    )
}

fn primary(i: P<'_>) -> PRes<'_, Expr> {
    let start = i.span();
    match i.tok().clone() {
        Tok::Int(v) => Ok((i.next(), mk(ExprKind::Int(v), start))),
        Tok::Real(r) => Ok((i.next(), mk(ExprKind::Real(r), start))),
        Tok::Sym(Sym::Hash) => {
            let (j, (k, sp)) = cut(int_lit)(i.next())?;
            Ok((j, mk(ExprKind::ProcConst(k), start.to(sp))))
        }
        Tok::Kw(Kw::Size) => Ok((i.next(), mk(ExprKind::Size, start))),
        Tok::Kw(Kw::True) => Ok((i.next(), mk(ExprKind::True, start))),
        Tok::Kw(Kw::False) => Ok((i.next(), mk(ExprKind::False, start))),
        Tok::Upper(name) => {
            let id = Ident {
                name: name.clone(),
                span: start,
            };
            let j = i.next();
            if !i.ltl && matches!(name.as_str(), "G" | "F" | "X") && starts_term(j.tok()) {
                return fail_msg(
                    i,
                    format!("temporal operator `{name}` outside an `ltl` block"),
                    Some("help: temporal operators are allowed only inside `ltl` blocks".into()),
                );
            }
            if *j.tok() == Tok::Sym(Sym::LBrack) {
                let (k, ix) = cut(args)(j.next())?;
                let (k, end) = cut(sym(Sym::RBrack))(k)?;
                Ok((k, mk(ExprKind::Index(id, ix), start.to(end))))
            } else {
                Ok((j, mk(ExprKind::Upper(name), start)))
            }
        }
        Tok::Lower(name) => {
            let id = Ident {
                name: name.clone(),
                span: start,
            };
            let j = i.next();
            if *j.tok() == Tok::Sym(Sym::LParen) {
                let (k, a) = cut(args)(j.next())?;
                let (k, end) = cut(sym(Sym::RParen))(k)?;
                Ok((k, mk(ExprKind::Call(id, a), start.to(end))))
            } else {
                Ok((j, mk(ExprKind::Lower(name), start)))
            }
        }
        Tok::Sym(Sym::LParen) => {
            let (j, e) = cut(expr)(i.next())?;
            let (j, end) = cut(sym(Sym::RParen))(j)?;
            Ok((
                j,
                Expr {
                    kind: e.kind,
                    span: start.to(end),
                },
            ))
        }
        Tok::Kw(Kw::Forall | Kw::Exists | Kw::ForallOther | Kw::ExistsOther) => quant(i),
        Tok::Kw(Kw::Let) => {
            let (j, x) = cut(lower)(i.next())?;
            let (j, _) = cut(sym(Sym::Eq))(j)?;
            let (j, v) = cut(expr)(j)?;
            let (j, _) = cut(kw(Kw::In))(j)?;
            let (j, body) = cut(expr)(j)?;
            let span = start.to(body.span);
            Ok((j, mk(ExprKind::Let(x, Box::new(v), Box::new(body)), span)))
        }
        Tok::Kw(Kw::Case) => fail_msg(
            i,
            "`case` can only be the whole right-hand side of an update".to_string(),
            None,
        ),
        // SPIN's temporal operators, written where a formula starts.
        Tok::Sym(Sym::LBrack) if *i.next().tok() == Tok::Sym(Sym::RBrack) => fail_msg(
            i,
            "`[]` (SPIN's always) is not an operator here".to_string(),
            Some("help: write `G f` for \"always f\" in an `ltl` property".to_string()),
        ),
        Tok::Sym(Sym::Ne) => fail_msg(
            i,
            "`<>` (SPIN's eventually) is not an operator here; as a comparison it needs a left side".to_string(),
            Some("help: write `F f` for \"eventually f\" in an `ltl` property".to_string()),
        ),
        _ => fail(i, "a term or formula"),
    }
}

/// `forall x. f`, `forall x y. f`, `forall x <> y. f`, `forall x : t. f`,
/// `forall_other j. f` and the `exists` forms; the body extends as far right as possible.
fn quant(i: P<'_>) -> PRes<'_, Expr> {
    let start = i.span();
    let (forall, other) = match i.tok() {
        Tok::Kw(Kw::Forall) => (true, false),
        Tok::Kw(Kw::Exists) => (false, false),
        Tok::Kw(Kw::ForallOther) => (true, true),
        _ => (false, true),
    };
    let i = i.next();
    let (mut i, first) = cut(lower)(i)?;
    let mut vars = vec![first];
    while let Tok::Lower(_) = i.tok() {
        let (j, v) = lower(i)?;
        vars.push(v);
        i = j;
    }
    let mut dom = if other {
        QuantDom::Other
    } else {
        QuantDom::Proc
    };
    if !other && *i.tok() == Tok::Sym(Sym::Ne) {
        let (j, ex) = cut(separated_list1(sym(Sym::Comma), lower))(i.next())?;
        dom = QuantDom::ProcExcept(ex);
        i = j;
    } else if !other && *i.tok() == Tok::Sym(Sym::Colon) {
        let (j, t) = cut(type_expr)(i.next())?;
        dom = QuantDom::Type(t);
        i = j;
    }
    let (i, _) = cut(sym(Sym::Dot))(i)?;
    let (i, body) = cut(expr)(i)?;
    let span = start.to(body.span);
    let mut e = body;
    for v in vars.into_iter().rev() {
        e = Expr::quant(forall, v, dom.clone(), e, span);
    }
    Ok((i, e))
}

pub(super) fn type_expr(i: P<'_>) -> PRes<'_, TypeExpr> {
    if let Tok::Lower(_) = i.tok() {
        let (j, id) = lower(i)?;
        return Ok((j, TypeExpr::Named(id)));
    }
    let start = i;
    let (j, lo) = sum(i).map_err(|e| match e {
        Err::Error(mut p) => {
            p.expected = vec!["a type (`bool`, `proc`, a type name or `lo .. hi`)".into()];
            Err::Error(p)
        }
        e => e,
    })?;
    let (j, _) = cut(sym(Sym::DotDot))(j)?;
    let (j, hi) = cut(sum)(j)?;
    Ok((
        j,
        TypeExpr::Range(Box::new(lo), Box::new(hi), start.span_to(j)),
    ))
}
