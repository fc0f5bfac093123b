//! Lexical analysis: source text to tokens with byte spans. Skips `(* nested *)` and
//! `// line` comments; reports unknown characters and operators from other languages
//! (`!=`, `==`, `&`) with a hint at what to write instead.

use crate::source::{Diagnostic, Span, escape_char};
use nom::{
    IResult,
    branch::alt,
    bytes::complete::{tag, take_while},
    character::complete::{char, digit1, satisfy},
    combinator::{map, recognize, value},
    sequence::{pair, tuple},
};

/// Reserved words of the language (docs/language.md, §2 "Lexical structure").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kw {
    Type,
    Init,
    Transition,
    Invariant,
    Requires,
    Array,
    Var,
    Const,
    Unsafe,
    Case,
    ForallOther,
    ExistsOther,
    Forall,
    Exists,
    Predicate,
    If,
    Then,
    Else,
    Not,
    True,
    False,
    NumberProcs,
    Let,
    In,
    Ltl,
    Any,
    /// `N`, the size of the instance.
    Size,
}

const KEYWORDS: &[(&str, Kw)] = &[
    ("type", Kw::Type),
    ("init", Kw::Init),
    ("transition", Kw::Transition),
    ("invariant", Kw::Invariant),
    ("requires", Kw::Requires),
    ("array", Kw::Array),
    ("var", Kw::Var),
    ("const", Kw::Const),
    ("unsafe", Kw::Unsafe),
    ("case", Kw::Case),
    ("forall_other", Kw::ForallOther),
    ("exists_other", Kw::ExistsOther),
    ("forall", Kw::Forall),
    ("exists", Kw::Exists),
    ("predicate", Kw::Predicate),
    ("if", Kw::If),
    ("then", Kw::Then),
    ("else", Kw::Else),
    ("not", Kw::Not),
    ("true", Kw::True),
    ("false", Kw::False),
    ("number_procs", Kw::NumberProcs),
    ("let", Kw::Let),
    ("in", Kw::In),
    ("ltl", Kw::Ltl),
    ("any", Kw::Any),
    ("N", Kw::Size),
];

impl Kw {
    pub fn text(self) -> &'static str {
        KEYWORDS
            .iter()
            .find(|(_, k)| *k == self)
            .expect("every keyword is in KEYWORDS")
            .0
    }
}

/// The number of single-character insertions, deletions, substitutions and swaps of
/// neighbours that turn `a` into `b` (optimal string alignment distance).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// The keyword a misspelt word most likely stands for: the nearest lower-case keyword
/// by edit distance, when it is close (one edit for keywords of up to four letters, two
/// for longer ones) and no other keyword is as near.
pub fn nearest_keyword(word: &str) -> Option<&'static str> {
    // `True` and `False` are the constructors of `bool`, not misspelt `true`/`false`.
    if word.len() < 2 || word == "True" || word == "False" {
        return None;
    }
    let mut best: Option<(usize, &'static str)> = None;
    let mut tie = false;
    for (k, _) in KEYWORDS.iter().filter(|(k, _)| *k != "N") {
        let d = edit_distance(word, k);
        let limit = if k.len() <= 4 { 1 } else { 2 };
        if d == 0 || d > limit || d >= word.len() {
            continue;
        }
        match best {
            Some((b, _)) if d > b => {}
            Some((b, _)) if d == b => tie = true,
            _ => {
                best = Some((d, k));
                tie = false;
            }
        }
    }
    best.filter(|_| !tie).map(|(_, k)| k)
}

/// Punctuation and operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sym {
    LParen,
    RParen,
    LBrack,
    RBrack,
    LBrace,
    RBrace,
    Comma,
    Semi,
    Colon,
    Assign,
    Dot,
    DotDot,
    Question,
    Bar,
    Underscore,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Plus,
    Minus,
    Star,
    And,
    Or,
    Imp,
    Iff,
    Hash,
}

impl Sym {
    pub fn text(self) -> &'static str {
        match self {
            Sym::LParen => "(",
            Sym::RParen => ")",
            Sym::LBrack => "[",
            Sym::RBrack => "]",
            Sym::LBrace => "{",
            Sym::RBrace => "}",
            Sym::Comma => ",",
            Sym::Semi => ";",
            Sym::Colon => ":",
            Sym::Assign => ":=",
            Sym::Dot => ".",
            Sym::DotDot => "..",
            Sym::Question => "?",
            Sym::Bar => "|",
            Sym::Underscore => "_",
            Sym::Eq => "=",
            Sym::Ne => "<>",
            Sym::Lt => "<",
            Sym::Le => "<=",
            Sym::Gt => ">",
            Sym::Ge => ">=",
            Sym::Plus => "+",
            Sym::Minus => "-",
            Sym::Star => "*",
            Sym::And => "&&",
            Sym::Or => "||",
            Sym::Imp => "=>",
            Sym::Iff => "<=>",
            Sym::Hash => "#",
        }
    }
}

/// A token kind with its payload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// `[a-z][A-Za-z0-9_]*` that is not a keyword.
    Lower(String),
    /// `[A-Z][A-Za-z0-9_]*` that is not a keyword.
    Upper(String),
    Int(i64),
    /// `1.5`: a real literal of Cubicle's timed models (rejected by the checker).
    Real(String),
    Kw(Kw),
    Sym(Sym),
    Eof,
}

impl Tok {
    /// How the token is named in "found ..." messages.
    pub fn describe(&self) -> String {
        match self {
            Tok::Lower(s) | Tok::Upper(s) => format!("`{s}`"),
            Tok::Int(i) => format!("`{i}`"),
            Tok::Real(r) => format!("`{r}`"),
            Tok::Kw(k) => format!("keyword `{}`", k.text()),
            Tok::Sym(s) => format!("`{}`", s.text()),
            Tok::Eof => "end of file".to_string(),
        }
    }
}

/// A token and where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

fn ident(i: &str) -> IResult<&str, &str> {
    recognize(pair(
        satisfy(|c| c.is_ascii_alphabetic()),
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '_'),
    ))(i)
}

fn symbol(i: &str) -> IResult<&str, Sym> {
    alt((
        alt((
            value(Sym::Iff, tag("<=>")),
            value(Sym::Iff, tag("<->")),
            value(Sym::Ne, tag("<>")),
            value(Sym::Le, tag("<=")),
            value(Sym::Ge, tag(">=")),
            value(Sym::Imp, tag("=>")),
            value(Sym::Imp, tag("->")),
            value(Sym::And, tag("&&")),
            value(Sym::Or, tag("||")),
            value(Sym::Assign, tag(":=")),
            value(Sym::DotDot, tag("..")),
        )),
        alt((
            value(Sym::LParen, char('(')),
            value(Sym::RParen, char(')')),
            value(Sym::LBrack, char('[')),
            value(Sym::RBrack, char(']')),
            value(Sym::LBrace, char('{')),
            value(Sym::RBrace, char('}')),
            value(Sym::Comma, char(',')),
            value(Sym::Semi, char(';')),
            value(Sym::Colon, char(':')),
            value(Sym::Dot, char('.')),
            value(Sym::Question, char('?')),
            value(Sym::Bar, char('|')),
            value(Sym::Underscore, char('_')),
            value(Sym::Eq, char('=')),
            value(Sym::Lt, char('<')),
            value(Sym::Gt, char('>')),
            value(Sym::Plus, char('+')),
            value(Sym::Minus, char('-')),
            value(Sym::Star, char('*')),
            value(Sym::Hash, char('#')),
        )),
    ))(i)
}

enum Raw<'a> {
    Ident(&'a str),
    Real(&'a str),
    Digits(&'a str),
    Sym(Sym),
}

fn raw_token(i: &str) -> IResult<&str, Raw<'_>> {
    alt((
        map(ident, Raw::Ident),
        map(recognize(tuple((digit1, char('.'), digit1))), Raw::Real),
        map(digit1, Raw::Digits),
        map(symbol, Raw::Sym),
    ))(i)
}

/// Operators of other languages that users type by habit, with what to write instead.
const FOREIGN: &[(&str, &str)] = &[
    ("!=", "write `<>` for inequality"),
    ("==", "write `=` for equality"),
    ("&", "write `&&` for conjunction"),
    ("!", "write `not` for negation"),
    ("~", "write `not` for negation"),
    ("/\\", "write `&&` for conjunction"),
    ("\\/", "write `||` for disjunction"),
    (
        "\\A",
        "write `forall j. f` (or `forall_other j. f`) for TLA+'s `\\A j \\in S : f`",
    ),
    (
        "\\E",
        "write `exists j. f` (or `exists_other j. f`) for TLA+'s `\\E j \\in S : f`",
    ),
    (
        "\\in",
        "quantifiers range over `proc` by default: `forall j. f`",
    ),
];

/// Skip white space and comments; an unterminated `(*` is an error at its start.
fn skip_trivia(src: &str, mut pos: usize) -> Result<usize, Diagnostic> {
    let b = src.as_bytes();
    loop {
        while pos < b.len() && b[pos].is_ascii_whitespace() {
            pos += 1;
        }
        if b[pos..].starts_with(b"//") {
            while pos < b.len() && b[pos] != b'\n' {
                pos += 1;
            }
        } else if b[pos..].starts_with(b"(*") {
            let start = pos;
            let mut depth = 0usize;
            loop {
                if pos >= b.len() {
                    return Err(Diagnostic::error(
                        Span::new(start, start + 2),
                        "unterminated comment: `(*` has no matching `*)`",
                    ));
                }
                if b[pos..].starts_with(b"(*") {
                    depth += 1;
                    pos += 2;
                } else if b[pos..].starts_with(b"*)") {
                    depth -= 1;
                    pos += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    pos += 1;
                }
            }
        } else {
            return Ok(pos);
        }
    }
}

/// Split a source text into tokens, ending with `Tok::Eof`.
pub fn lex(src: &str) -> Result<Vec<Token>, Diagnostic> {
    let mut out = Vec::new();
    let mut pos = 0;
    loop {
        pos = skip_trivia(src, pos)?;
        if pos >= src.len() {
            out.push(Token {
                tok: Tok::Eof,
                span: Span::new(pos, pos),
            });
            return Ok(out);
        }
        let rest = &src[pos..];
        if rest.starts_with("*)") {
            return Err(Diagnostic::error(
                Span::new(pos, pos + 2),
                "`*)` closes a comment that was never opened",
            ));
        }
        // `==` would lex as two `=`; every other foreign operator starts with a
        // character no token starts with.
        let foreign = FOREIGN.iter().find(|(op, _)| rest.starts_with(op));
        let raw = match foreign {
            Some(("==", _)) => None,
            _ => raw_token(rest).ok(),
        };
        if let (None, Some((op, hint))) = (&raw, foreign) {
            return Err(Diagnostic::error(
                Span::new(pos, pos + op.len()),
                format!("unknown operator `{op}`"),
            )
            .with_note(format!("help: {hint}")));
        }
        match raw.ok_or(()) {
            Ok((after, raw)) => {
                let len = rest.len() - after.len();
                let span = Span::new(pos, pos + len);
                let tok = match raw {
                    Raw::Ident(s) => {
                        if let Some((_, k)) = KEYWORDS.iter().find(|(w, _)| *w == s) {
                            Tok::Kw(*k)
                        } else if s.as_bytes()[0].is_ascii_uppercase() {
                            Tok::Upper(s.to_string())
                        } else {
                            Tok::Lower(s.to_string())
                        }
                    }
                    Raw::Digits(d) => match d.parse::<i64>() {
                        Ok(v) if v <= (1 << 40) => Tok::Int(v),
                        _ => {
                            return Err(Diagnostic::error(
                                span,
                                format!("integer literal `{d}` is too large (at most 2^40)"),
                            ));
                        }
                    },
                    Raw::Real(r) => Tok::Real(r.to_string()),
                    Raw::Sym(s) => Tok::Sym(s),
                };
                out.push(Token { tok, span });
                pos += len;
            }
            Err(()) => {
                let c = rest
                    .chars()
                    .next()
                    .expect("the end of the text returned above: rest is not empty");
                let d = Diagnostic::error(
                    Span::new(pos, pos + c.len_utf8()),
                    format!("unexpected character `{}`", escape_char(c)),
                );
                return Err(if c.is_control() {
                    d.with_note(
                        "note: control characters do not belong in a model; is this a binary file?",
                    )
                } else {
                    d
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<Tok> {
        lex(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn tokens_and_comments() {
        assert_eq!(
            kinds("A[i] := . (* a (* nested *) c *) // x\n<=> .. <-> ->"),
            vec![
                Tok::Upper("A".into()),
                Tok::Sym(Sym::LBrack),
                Tok::Lower("i".into()),
                Tok::Sym(Sym::RBrack),
                Tok::Sym(Sym::Assign),
                Tok::Sym(Sym::Dot),
                Tok::Sym(Sym::Iff),
                Tok::Sym(Sym::DotDot),
                Tok::Sym(Sym::Iff),
                Tok::Sym(Sym::Imp),
                Tok::Eof
            ]
        );
        assert_eq!(
            kinds("forall_other N #3 True"),
            vec![
                Tok::Kw(Kw::ForallOther),
                Tok::Kw(Kw::Size),
                Tok::Sym(Sym::Hash),
                Tok::Int(3),
                Tok::Upper("True".into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn lexical_errors() {
        let e = lex("x (* open").unwrap_err();
        assert!(e.message.contains("unterminated comment"));
        assert_eq!(e.span.lo, 2);
        let e = lex("A != B").unwrap_err();
        assert!(e.message.contains("`!=`"));
        assert!(e.notes[0].contains("<>"));
        let e = lex("a @ b").unwrap_err();
        assert!(e.message.contains("unexpected character `@`"));
        assert!(lex("x é").is_err());
        assert!(lex("99999999999999999999999").is_err());
    }
}
