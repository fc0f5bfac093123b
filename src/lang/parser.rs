//! Syntax analysis: tokens to the syntax tree, written with nom combinators over the
//! token slice. Errors keep the furthest position reached and the set of things that
//! were expected there, so messages read "expected `:=`, found `=`".

use super::ast::*;
use super::lexer::{Kw, Sym, Tok, Token, nearest_keyword};
use crate::source::{Diagnostic, Span};
use nom::{
    Err, IResult, InputLength,
    branch::alt,
    combinator::{cut, map, opt},
    error::{ErrorKind, ParseError},
    multi::{many0, separated_list1},
    sequence::preceded,
};

/// Parser input: the remaining tokens, and whether we are inside an `ltl` block
/// (where `G F X U R W` are temporal operators).
#[derive(Clone, Copy, Debug)]
pub struct P<'a> {
    toks: &'a [Token],
    ltl: bool,
}

impl InputLength for P<'_> {
    fn input_len(&self) -> usize {
        self.toks.len()
    }
}

impl<'a> P<'a> {
    fn tok(&self) -> &'a Tok {
        &self.toks[0].tok
    }
    fn span(&self) -> Span {
        self.toks[0].span
    }
    fn next(self) -> P<'a> {
        P {
            toks: &self.toks[1..],
            ltl: self.ltl,
        }
    }
    /// Span from the current token to the end of the last consumed one (`after`).
    fn span_to(&self, after: P<'a>) -> Span {
        let n = self.toks.len() - after.toks.len();
        if n == 0 {
            return Span::new(self.span().lo, self.span().lo);
        }
        self.span().to(self.toks[n - 1].span)
    }
}

/// The error: how many tokens were left where it happened, what would have been
/// accepted there, and an optional message that replaces "expected ...".
#[derive(Clone, Debug)]
pub struct PErr {
    rem: usize,
    expected: Vec<String>,
    message: Option<(String, Option<String>)>,
}

impl<'a> ParseError<P<'a>> for PErr {
    fn from_error_kind(input: P<'a>, _kind: ErrorKind) -> Self {
        PErr {
            rem: input.toks.len(),
            expected: Vec::new(),
            message: None,
        }
    }
    fn append(_input: P<'a>, _kind: ErrorKind, other: Self) -> Self {
        other
    }
    fn or(self, other: Self) -> Self {
        if self.message.is_some() && self.rem <= other.rem {
            return self;
        }
        if other.message.is_some() && other.rem <= self.rem {
            return other;
        }
        match self.rem.cmp(&other.rem) {
            std::cmp::Ordering::Less => self,
            std::cmp::Ordering::Greater => other,
            std::cmp::Ordering::Equal => {
                let mut e = self;
                for x in other.expected {
                    if !e.expected.contains(&x) {
                        e.expected.push(x);
                    }
                }
                e
            }
        }
    }
}

type PRes<'a, O> = IResult<P<'a>, O, PErr>;

fn fail<'a, O>(i: P<'a>, what: &str) -> PRes<'a, O> {
    Err(Err::Error(PErr {
        rem: i.toks.len(),
        expected: vec![what.to_string()],
        message: None,
    }))
}

/// A committed error listing what would have been accepted.
fn fail_cut<'a, O>(i: P<'a>, expected: &[&str]) -> PRes<'a, O> {
    Err(Err::Failure(PErr {
        rem: i.toks.len(),
        expected: expected.iter().map(|s| s.to_string()).collect(),
        message: None,
    }))
}

/// A committed error with its own message (and optional help line).
fn fail_msg<'a, O>(i: P<'a>, msg: String, help: Option<String>) -> PRes<'a, O> {
    Err(Err::Failure(PErr {
        rem: i.toks.len(),
        expected: Vec::new(),
        message: Some((msg, help)),
    }))
}

fn sym<'a>(s: Sym) -> impl Fn(P<'a>) -> PRes<'a, Span> {
    move |i: P<'a>| {
        if *i.tok() == Tok::Sym(s) {
            Ok((i.next(), i.span()))
        } else {
            fail(i, &format!("`{}`", s.text()))
        }
    }
}

fn kw<'a>(k: Kw) -> impl Fn(P<'a>) -> PRes<'a, Span> {
    move |i: P<'a>| {
        if *i.tok() == Tok::Kw(k) {
            Ok((i.next(), i.span()))
        } else {
            fail(i, &format!("`{}`", k.text()))
        }
    }
}

fn lower(i: P<'_>) -> PRes<'_, Ident> {
    match i.tok() {
        Tok::Lower(s) => Ok((
            i.next(),
            Ident {
                name: s.clone(),
                span: i.span(),
            },
        )),
        _ => fail(i, "a lower-case name"),
    }
}

fn upper(i: P<'_>) -> PRes<'_, Ident> {
    match i.tok() {
        Tok::Upper(s) => Ok((
            i.next(),
            Ident {
                name: s.clone(),
                span: i.span(),
            },
        )),
        _ => fail(i, "a capitalised name"),
    }
}

fn any_name(i: P<'_>) -> PRes<'_, Ident> {
    alt((lower, upper))(i)
}

fn int_lit(i: P<'_>) -> PRes<'_, (i64, Span)> {
    match i.tok() {
        Tok::Int(v) => Ok((i.next(), (*v, i.span()))),
        _ => fail(i, "an integer"),
    }
}

fn mk(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

fn bin(op: BinOp, l: Expr, r: Expr) -> Expr {
    let span = l.span.to(r.span);
    mk(ExprKind::Bin(op, Box::new(l), Box::new(r)), span)
}

// ---------------------------------------------------------------- expressions

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

fn disj(i: P<'_>) -> PRes<'_, Expr> {
    let (mut i, mut l) = conj(i)?;
    while *i.tok() == Tok::Sym(Sym::Or) {
        let (j, r) = cut(conj)(i.next())?;
        l = bin(BinOp::Or, l, r);
        i = j;
    }
    Ok((i, l))
}

fn conj(i: P<'_>) -> PRes<'_, Expr> {
    let (mut i, mut l) = until(i)?;
    while *i.tok() == Tok::Sym(Sym::And) {
        let (j, r) = cut(until)(i.next())?;
        l = bin(BinOp::And, l, r);
        i = j;
    }
    Ok((i, l))
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
        Tok::Sym(Sym::Eq) => BinOp::Eq,
        Tok::Sym(Sym::Ne) => BinOp::Ne,
        Tok::Sym(Sym::Lt) => BinOp::Lt,
        Tok::Sym(Sym::Le) => BinOp::Le,
        Tok::Sym(Sym::Gt) => BinOp::Gt,
        Tok::Sym(Sym::Ge) => BinOp::Ge,
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

fn sum(i: P<'_>) -> PRes<'_, Expr> {
    let (mut i, mut l) = prod(i)?;
    loop {
        let op = match i.tok() {
            Tok::Sym(Sym::Plus) => BinOp::Add,
            Tok::Sym(Sym::Minus) => BinOp::Sub,
            _ => return Ok((i, l)),
        };
        let (j, r) = cut(prod)(i.next())?;
        l = bin(op, l, r);
        i = j;
    }
}

fn prod(i: P<'_>) -> PRes<'_, Expr> {
    let (mut i, mut l) = unary(i)?;
    while *i.tok() == Tok::Sym(Sym::Star) {
        let (j, r) = cut(unary)(i.next())?;
        l = bin(BinOp::Mul, l, r);
        i = j;
    }
    Ok((i, l))
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

fn args(i: P<'_>) -> PRes<'_, Vec<Expr>> {
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
        e = mk(
            ExprKind::Quant {
                forall,
                var: v,
                dom: dom.clone(),
                body: Box::new(e),
            },
            span,
        );
    }
    Ok((i, e))
}

// ---------------------------------------------------------------- declarations

fn type_expr(i: P<'_>) -> PRes<'_, TypeExpr> {
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

fn decl(i: P<'_>) -> PRes<'_, Decl> {
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
            q = mk(
                ExprKind::Quant {
                    forall: true,
                    var: v,
                    dom: QuantDom::Other,
                    body: Box::new(q),
                },
                span,
            );
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

fn item(i: P<'_>) -> PRes<'_, Item> {
    alt((
        init_item,
        unsafe_item,
        transition_item,
        predicate_item,
        ltl_item,
    ))(i)
}

fn file(i: P<'_>) -> PRes<'_, File> {
    let (i, np) = opt(preceded(kw(Kw::NumberProcs), cut(int_lit)))(i)?;
    let (i, decls) = many0(decl)(i)?;
    let (i, items) = many0(item)(i)?;
    if *i.tok() != Tok::Eof {
        if let Tok::Kw(k @ (Kw::Type | Kw::Var | Kw::Const | Kw::Array)) = i.tok() {
            return fail_msg(
                i,
                format!(
                    "declaration `{}` after the first init, transition or property",
                    k.text()
                ),
                Some(
                    "help: declarations (type, var, const, array) come first in a file".to_string(),
                ),
            );
        }
        if *i.tok() == Tok::Kw(Kw::NumberProcs) {
            return fail_msg(
                i,
                "`number_procs` must be the first thing in the file".to_string(),
                None,
            );
        }
        return fail_cut(
            i,
            &[
                "a declaration or an item (`init`, `transition`, `unsafe`, `predicate`, `ltl`, `invariant`)",
            ],
        );
    }
    Ok((
        i,
        File {
            number_procs: np,
            decls,
            items,
        },
    ))
}

/// Words of Cubicle's that nfold does not take, with what to say about them.
fn foreign_word(word: &str) -> Option<(&'static str, &'static str)> {
    match word {
        "candidate" => Some((
            "a `candidate` block is written `candidate (z1 ... zm) { f }`",
            "help: candidate invariants are hints for Cubicle's proof search; nfold ignores them",
        )),
        _ => None,
    }
}

fn to_diag(toks: &[Token], e: PErr) -> Diagnostic {
    let idx = toks.len().saturating_sub(e.rem).min(toks.len() - 1);
    let at = &toks[idx];
    if let Some((msg, help)) = e.message {
        let d = Diagnostic::error(at.span, msg);
        return match help {
            Some(h) => d.with_note(h),
            None => d,
        };
    }
    let word = |t: &Token| match &t.tok {
        Tok::Lower(s) | Tok::Upper(s) => Some(s.clone()),
        _ => None,
    };
    if let Some((msg, help)) = word(at).as_deref().and_then(foreign_word) {
        return Diagnostic::error(at.span, msg).with_note(help);
    }
    // A misspelt keyword: the word where parsing stopped, or the word just before it
    // (`exsts j. ...` stops at `j`).
    let mut hint =
        word(at).and_then(|w| nearest_keyword(&w).map(|k| format!("help: did you mean `{k}`?")));
    if hint.is_none() && idx > 0 {
        let lower = match &toks[idx - 1].tok {
            Tok::Lower(w) => Some(w.clone()),
            _ => None,
        };
        hint = lower.and_then(|w| {
            nearest_keyword(&w).map(|k| format!("help: did you mean `{k}` instead of `{w}`?"))
        });
    }
    let expected = match e.expected.len() {
        0 => "something else".to_string(),
        1 => e.expected[0].clone(),
        n => format!(
            "{} or {}",
            e.expected[..n - 1].join(", "),
            e.expected[n - 1]
        ),
    };
    let d = Diagnostic::error(
        at.span,
        format!("expected {}, found {}", expected, at.tok.describe()),
    );
    match hint {
        Some(h) => d.with_note(h),
        None => d,
    }
}

/// Parse a token stream (ending in `Tok::Eof`) into a file.
pub fn parse_tokens(toks: &[Token]) -> Result<File, Diagnostic> {
    let input = P { toks, ltl: false };
    match file(input) {
        Ok((_, f)) => Ok(f),
        Err(Err::Error(e)) | Err(Err::Failure(e)) => Err(to_diag(toks, e)),
        Err(Err::Incomplete(_)) => Err(Diagnostic::error(
            toks.last().unwrap().span,
            "unexpected end of file",
        )),
    }
}

/// Parse one expression (used by tests and by the command line).
pub fn parse_expr_tokens(toks: &[Token], ltl: bool) -> Result<Expr, Diagnostic> {
    let input = P { toks, ltl };
    match expr(input) {
        Ok((rest, e)) if *rest.tok() == Tok::Eof => Ok(e),
        Ok((rest, _)) => Err(Diagnostic::error(
            rest.span(),
            format!("expected end of formula, found {}", rest.tok().describe()),
        )),
        Err(Err::Error(e)) | Err(Err::Failure(e)) => Err(to_diag(toks, e)),
        Err(Err::Incomplete(_)) => Err(Diagnostic::error(
            toks.last().unwrap().span,
            "unexpected end of formula",
        )),
    }
}
