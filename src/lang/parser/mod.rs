//! Syntax analysis: tokens to the syntax tree, written with nom combinators over the
//! token slice. Errors keep the furthest position reached and the set of things that
//! were expected there, so messages read "expected `:=`, found `=`".
//!
//! This module holds the input type, the error type and the token-level combinators;
//! `expr` parses formulas and terms (one function per precedence level), `items` the
//! declarations and the items of a file (`init`, `unsafe`, `transition`, ...).

mod expr;
mod items;

pub use expr::expr;
use items::{decl, item};

use super::ast::*;
use super::lexer::{Kw, Sym, Tok, Token, nearest_keyword};
use crate::source::{Diagnostic, Source, Span};
use nom::{
    Err, IResult, InputLength,
    branch::alt,
    combinator::{cut, opt},
    error::{ErrorKind, ParseError},
    multi::many0,
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

/// The token `t`, its span; the error expects `text` quoted.
fn token<'a>(t: Tok, text: &'static str) -> impl Fn(P<'a>) -> PRes<'a, Span> {
    move |i: P<'a>| {
        if *i.tok() == t {
            Ok((i.next(), i.span()))
        } else {
            fail(i, &format!("`{text}`"))
        }
    }
}

fn sym<'a>(s: Sym) -> impl Fn(P<'a>) -> PRes<'a, Span> {
    token(Tok::Sym(s), s.text())
}

fn kw<'a>(k: Kw) -> impl Fn(P<'a>) -> PRes<'a, Span> {
    token(Tok::Kw(k), k.text())
}

/// The name token at `i`, taken.
fn ident<'a>(i: P<'a>, name: &str) -> (P<'a>, Ident) {
    let id = Ident {
        name: name.to_string(),
        span: i.span(),
    };
    (i.next(), id)
}

fn lower(i: P<'_>) -> PRes<'_, Ident> {
    match i.tok() {
        Tok::Lower(s) => Ok(ident(i, s)),
        _ => fail(i, "a lower-case name"),
    }
}

fn upper(i: P<'_>) -> PRes<'_, Ident> {
    match i.tok() {
        Tok::Upper(s) => Ok(ident(i, s)),
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

/// The help line for what users of other languages, or of older nfold, write where
/// the parser stopped at `toks[idx]` expecting `expected`.
fn habit_hint(
    toks: &[Token],
    idx: usize,
    expected: &[String],
    src: Option<&Source>,
) -> Option<String> {
    let at = &toks[idx].tok;
    let wants = |what: &str| expected.iter().any(|x| x.starts_with(what));
    match at {
        Tok::Lower(w) if wants("a capitalised name") => {
            let mut up = w.clone();
            up[..1].make_ascii_uppercase();
            return Some(format!(
                "help: variables, constants and constructors start with a capital letter: write `{up}`"
            ));
        }
        Tok::Kw(Kw::If) if wants("a term") => {
            return Some(
                "help: an `if` inside a term or formula is parenthesised: `(if c then a else b)`"
                    .to_string(),
            );
        }
        _ => {}
    }
    // A block left open: parsing stops at the next item's keyword, or at the end.
    let item_start = matches!(
        at,
        Tok::Eof
            | Tok::Kw(
                Kw::Transition | Kw::Init | Kw::Unsafe | Kw::Invariant | Kw::Ltl | Kw::Predicate
            )
    );
    if item_start && expected.iter().any(|x| x.contains("`}`")) {
        let mut open = Vec::new();
        for t in &toks[..idx] {
            match t.tok {
                Tok::Sym(Sym::LBrace) => open.push(t.span),
                Tok::Sym(Sym::RBrace) => {
                    open.pop();
                }
                _ => {}
            }
        }
        if let (Some(span), Some(src)) = (open.last(), src) {
            let (l, c) = src.line_col(span.lo);
            return Some(format!(
                "help: the block opened by `{{` at line {l}, column {c} is not closed: add `}}` before this"
            ));
        }
    }
    None
}

fn to_diag(toks: &[Token], e: PErr, src: Option<&Source>) -> Diagnostic {
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
    let mut hint = habit_hint(toks, idx, &e.expected, src).or_else(|| {
        word(at).and_then(|w| nearest_keyword(&w).map(|k| format!("help: did you mean `{k}`?")))
    });
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

/// Parse a token stream (ending in `Tok::Eof`) of `src` into a file.
pub fn parse_tokens(toks: &[Token], src: &Source) -> Result<File, Diagnostic> {
    let input = P { toks, ltl: false };
    match file(input) {
        Ok((_, f)) => Ok(f),
        Err(Err::Error(e)) | Err(Err::Failure(e)) => Err(to_diag(toks, e, Some(src))),
        Err(Err::Incomplete(_)) => Err(Diagnostic::error(
            toks.last()
                .expect("the lexer ends every token stream with `Eof`")
                .span,
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
        Err(Err::Error(e)) | Err(Err::Failure(e)) => Err(to_diag(toks, e, None)),
        Err(Err::Incomplete(_)) => Err(Diagnostic::error(
            toks.last()
                .expect("the lexer ends every token stream with `Eof`")
                .span,
            "unexpected end of formula",
        )),
    }
}
