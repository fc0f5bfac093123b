//! Declarations (`type`, `var`, `const`, `array`) and the items of a file: `init`,
//! `unsafe`/`invariant`, `predicate`, `ltl` and `transition` (with Cubicle's older
//! transition syntax).

use super::expr::{args, expr, sum, type_expr};
use super::{P, PRes, any_name, bin, fail_cut, fail_msg, kw, lower, sym, upper};
use crate::lang::ast::*;
use crate::lang::lexer::{Kw, Sym, Tok};
use crate::source::Span;
use nom::{
    branch::alt,
    combinator::{cut, map, opt},
    multi::separated_list1,
    sequence::preceded,
};

// ---------------------------------------------------------------- declarations

fn type_decl(i: P<'_>) -> PRes<'_, Decl> {
    let (i, _) = kw(Kw::Type)(i)?;
    let (i, name) = cut(lower)(i)?;
    if *i.tok() != Tok::Sym(Sym::Eq) {
        return Ok((i, Decl::Abstract { name }));
    }
    let i = i.next();
    if matches!(i.tok(), Tok::Sym(Sym::Bar) | Tok::Upper(_)) {
        let (i, _) = opt(sym(Sym::Bar))(i)?;
        let (i, ctors) = cut(separated_list1(sym(Sym::Bar), upper))(i)?;
        Ok((i, Decl::Enum { name, ctors }))
    } else {
        let (i, lo) = cut(sum)(i)?;
        let (i, _) = cut(sym(Sym::DotDot))(i)?;
        let (i, hi) = cut(sum)(i)?;
        Ok((i, Decl::Range { name, lo, hi }))
    }
}

fn var_decl(i: P<'_>) -> PRes<'_, Decl> {
    let (i, is_const) = alt((map(kw(Kw::Var), |_| false), map(kw(Kw::Const), |_| true)))(i)?;
    let (i, name) = cut(upper)(i)?;
    let (i, _) = cut(sym(Sym::Colon))(i)?;
    let (i, ty) = cut(type_expr)(i)?;
    Ok((
        i,
        if is_const {
            Decl::Const { name, ty }
        } else {
            Decl::Var { name, ty }
        },
    ))
}

fn array_decl(i: P<'_>) -> PRes<'_, Decl> {
    let (i, _) = kw(Kw::Array)(i)?;
    let (i, name) = cut(upper)(i)?;
    let (i, _) = cut(sym(Sym::LBrack))(i)?;
    let (i, index) = cut(separated_list1(sym(Sym::Comma), type_expr))(i)?;
    let (i, _) = cut(sym(Sym::RBrack))(i)?;
    let (i, _) = cut(sym(Sym::Colon))(i)?;
    let (i, elem) = cut(type_expr)(i)?;
    Ok((i, Decl::Array { name, index, elem }))
}

pub(super) fn decl(i: P<'_>) -> PRes<'_, Decl> {
    alt((type_decl, var_decl, array_decl))(i)
}

// ---------------------------------------------------------------- items

/// `(i j)` or `(i, j)`; empty allowed.
fn params(i: P<'_>) -> PRes<'_, Vec<Ident>> {
    let (mut i, _) = sym(Sym::LParen)(i)?;
    let mut out = Vec::new();
    loop {
        match i.tok() {
            Tok::Sym(Sym::RParen) => return Ok((i.next(), out)),
            Tok::Sym(Sym::Comma) if !out.is_empty() => {
                let (j, p) = cut(lower)(i.next())?;
                out.push(p);
                i = j;
            }
            Tok::Lower(_) => {
                let (j, p) = lower(i)?;
                out.push(p);
                i = j;
            }
            _ => return fail_cut(i, &["a parameter name", "`)`"]),
        }
    }
}

fn braced<'a, O>(f: impl FnMut(P<'a>) -> PRes<'a, O>) -> impl FnMut(P<'a>) -> PRes<'a, (O, Span)> {
    let mut f = f;
    move |i: P<'a>| {
        let (i, _) = sym(Sym::LBrace)(i)?;
        let (i, o) = cut(&mut f)(i)?;
        let (i, end) = cut(sym(Sym::RBrace))(i)?;
        Ok((i, (o, end)))
    }
}

fn formula_block(i: P<'_>) -> PRes<'_, (Expr, Span)> {
    braced(expr)(i)
}

fn init_item(i: P<'_>) -> PRes<'_, Item> {
    let start = i.span();
    let (i, _) = kw(Kw::Init)(i)?;
    let (i, ps) = cut(opt(params))(i)?;
    let (i, (body, end)) = cut(formula_block)(i)?;
    Ok((
        i,
        Item::Init {
            params: ps.unwrap_or_default(),
            body,
            span: start.to(end),
        },
    ))
}

/// `unsafe [name] (params) { f }` and `invariant [name] (params) { f }` have one form:
/// both describe states claimed unreachable.
fn unsafe_item(i: P<'_>) -> PRes<'_, Item> {
    let start = i.span();
    let (i, is_inv) = alt((
        map(kw(Kw::Unsafe), |_| false),
        map(kw(Kw::Invariant), |_| true),
    ))(i)?;
    let (i, name) = opt(lower)(i)?;
    let (i, ps) = cut(opt(params))(i)?;
    let (i, (body, end)) = cut(formula_block)(i)?;
    let (params, span) = (ps.unwrap_or_default(), start.to(end));
    Ok((
        i,
        if is_inv {
            Item::Invariant {
                name,
                params,
                body,
                span,
            }
        } else {
            Item::Unsafe {
                name,
                params,
                body,
                span,
            }
        },
    ))
}

fn predicate_item(i: P<'_>) -> PRes<'_, Item> {
    let start = i.span();
    let (i, _) = kw(Kw::Predicate)(i)?;
    let (i, name) = cut(lower)(i)?;
    let (i, ps) = cut(params)(i)?;
    let (i, (body, end)) = cut(formula_block)(i)?;
    Ok((
        i,
        Item::Predicate {
            name,
            params: ps,
            body,
            span: start.to(end),
        },
    ))
}

fn ltl_item(i: P<'_>) -> PRes<'_, Item> {
    let start = i.span();
    let (i, _) = kw(Kw::Ltl)(i)?;
    let (i, name) = cut(lower)(i)?;
    let (i, ps) = cut(opt(params))(i)?;
    let (i, _) = cut(sym(Sym::LBrace))(i)?;
    let (j, body) = cut(expr)(P { ltl: true, ..i })?;
    let j = P { ltl: false, ..j };
    let (j, end) = cut(sym(Sym::RBrace))(j)?;
    Ok((
        j,
        Item::Ltl {
            name,
            params: ps.unwrap_or_default(),
            body,
            span: start.to(end),
        },
    ))
}

fn rhs(i: P<'_>) -> PRes<'_, Rhs> {
    let start = i.span();
    match i.tok() {
        Tok::Sym(Sym::Dot | Sym::Question) => Ok((i.next(), Rhs::Nondet(start))),
        Tok::Kw(Kw::Any) => {
            let (j, x) = cut(lower)(i.next())?;
            let (j, _) = cut(sym(Sym::Dot))(j)?;
            let (j, f) = cut(expr)(j)?;
            Ok((j, Rhs::Any(x, Box::new(f))))
        }
        Tok::Kw(Kw::Case) => {
            let (j, (branches, default)) = case_branches(i.next())?;
            let span = i.span_to(j);
            Ok((
                j,
                Rhs::Case {
                    branches,
                    default,
                    span,
                },
            ))
        }
        _ => map(expr, Rhs::Expr)(i),
    }
}

/// The branches of a `case`, from its first `|`: `| f : t ... | _ : t`.
type Branches = (Vec<(Expr, Expr)>, Option<Expr>);
fn case_branches(i: P<'_>) -> PRes<'_, Branches> {
    let mut j = i;
    let mut branches = Vec::new();
    let mut default = None;
    loop {
        if *j.tok() != Tok::Sym(Sym::Bar) {
            if branches.is_empty() && default.is_none() {
                return fail_cut(j, &["`|`"]);
            }
            break;
        }
        if default.is_some() {
            return fail_msg(
                j,
                "the `_` branch must be the last branch of a `case`".to_string(),
                None,
            );
        }
        let k = j.next();
        if *k.tok() == Tok::Sym(Sym::Underscore) {
            let (k, _) = cut(sym(Sym::Colon))(k.next())?;
            let (k, t) = cut(expr)(k)?;
            default = Some(t);
            j = k;
        } else {
            let (k, c) = cut(expr)(k)?;
            let (k, _) = cut(sym(Sym::Colon))(k)?;
            let (k, t) = cut(expr)(k)?;
            branches.push((c, t));
            j = k;
        }
    }
    Ok((j, (branches, default)))
}

fn updates(i: P<'_>) -> PRes<'_, Vec<UpdateItem>> {
    let mut out = Vec::new();
    let mut i = i;
    loop {
        match i.tok() {
            Tok::Sym(Sym::RBrace) => return Ok((i, out)),
            Tok::Kw(Kw::Let) => {
                let (j, x) = cut(lower)(i.next())?;
                let (j, _) = cut(sym(Sym::Eq))(j)?;
                let (j, v) = cut(expr)(j)?;
                let (j, _) = cut(kw(Kw::In))(j)?;
                out.push(UpdateItem::Let(x, v));
                i = j;
            }
            Tok::Upper(_) => {
                let start = i;
                let (j, var) = upper(i)?;
                let (j, index) = if *j.tok() == Tok::Sym(Sym::LBrack) {
                    let (k, ix) = cut(args)(j.next())?;
                    let (k, _) = cut(sym(Sym::RBrack))(k)?;
                    (k, ix)
                } else {
                    (j, Vec::new())
                };
                if *j.tok() == Tok::Sym(Sym::Eq) {
                    return fail_msg(
                        j,
                        "expected `:=` in an update, found `=`".to_string(),
                        Some("help: updates are written `X := t`".to_string()),
                    );
                }
                let (j, _) = cut(sym(Sym::Assign))(j)?;
                let (j, r) = cut(rhs)(j)?;
                let span = start.span_to(j);
                out.push(UpdateItem::Assign {
                    lhs: Lhs { var, index },
                    rhs: r,
                    span,
                });
                i = j;
                match i.tok() {
                    Tok::Sym(Sym::Semi) => i = i.next(),
                    Tok::Sym(Sym::RBrace) => {}
                    _ => return fail_cut(i, &["`;`", "`}`"]),
                }
            }
            _ => return fail_cut(i, &["an update `X := t`", "`}`"]),
        }
    }
}

fn transition_item(i: P<'_>) -> PRes<'_, Item> {
    let first = i;
    let start = i.span();
    let (i, _) = kw(Kw::Transition)(i)?;
    let (i, name) = cut(any_name)(i)?;
    let (i, ps) = cut(params)(i)?;
    let (i, requires) = opt(preceded(kw(Kw::Requires), cut(formula_block)))(i)?;
    if requires.is_none() && is_word(i, "require") {
        return old_transition(first, name, ps, i.next());
    }
    let (i, (ups, end)) = cut(braced(updates))(i)?;
    Ok((
        i,
        Item::Transition {
            name,
            params: ps,
            requires: requires.map(|(e, _)| e),
            updates: ups,
            span: start.to(end),
        },
    ))
}

fn is_word(i: P<'_>, w: &str) -> bool {
    matches!(i.tok(), Tok::Lower(s) if s == w)
}

/// Cubicle's old transition syntax, from after `require`: `require { f }`, then any
/// `uguard (j) { g }`, an optional `assign { X := t; ... }` and array updates
/// `A[j] := {| c : t | ... | _ : t }`. Read as `requires { (f) && forall_other j. (g) }`
/// with one update block `{ X := t; ...; A[j] := case | c : t | ... | _ : t }`
/// (`mod.rs` warns that the file uses it).
fn old_transition<'a>(start: P<'a>, name: Ident, ps: Vec<Ident>, i: P<'a>) -> PRes<'a, Item> {
    let (mut i, (mut guard, _)) = cut(formula_block)(i)?;
    while is_word(i, "uguard") {
        let (j, vs) = cut(params)(i.next())?;
        let (j, (g, _)) = cut(formula_block)(j)?;
        let span = i.span_to(j);
        let mut q = g;
        for v in vs.into_iter().rev() {
            q = Expr::quant(true, v, QuantDom::Other, q, span);
        }
        guard = bin(BinOp::And, guard, q);
        i = j;
    }
    let mut ups = Vec::new();
    if *i.tok() == Tok::Sym(Sym::LBrace) {
        let (j, (u, _)) = cut(braced(updates))(i)?;
        ups.extend(u);
        i = j;
    }
    if is_word(i, "assign") {
        let (j, (u, _)) = cut(braced(updates))(i.next())?;
        ups.extend(u);
        i = j;
    }
    while let Tok::Upper(_) = i.tok() {
        let s = i;
        let (j, var) = upper(i)?;
        let (j, _) = cut(sym(Sym::LBrack))(j)?;
        let (j, index) = cut(args)(j)?;
        let (j, _) = cut(sym(Sym::RBrack))(j)?;
        let (j, _) = cut(sym(Sym::Assign))(j)?;
        let c = j;
        let (j, _) = cut(sym(Sym::LBrace))(j)?;
        let (j, (branches, default)) = cut(case_branches)(j)?;
        let (j, _) = cut(sym(Sym::RBrace))(j)?;
        ups.push(UpdateItem::Assign {
            lhs: Lhs { var, index },
            rhs: Rhs::Case {
                branches,
                default,
                span: c.span_to(j),
            },
            span: s.span_to(j),
        });
        i = j;
    }
    Ok((
        i,
        Item::Transition {
            name,
            params: ps,
            requires: Some(guard),
            updates: ups,
            span: start.span_to(i),
        },
    ))
}

pub(super) fn item(i: P<'_>) -> PRes<'_, Item> {
    alt((
        init_item,
        unsafe_item,
        transition_item,
        predicate_item,
        ltl_item,
    ))(i)
}
