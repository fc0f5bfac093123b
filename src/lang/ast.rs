//! The syntax tree as written, with spans; no names resolved, no types.

use crate::model::ir::CmpOp;
use crate::source::Span;

/// A name and where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A whole `.cub` file.
#[derive(Clone, Debug, Default)]
pub struct File {
    pub number_procs: Option<(i64, Span)>,
    pub decls: Vec<Decl>,
    pub items: Vec<Item>,
}

/// A type as written in a declaration.
#[derive(Clone, Debug)]
pub enum TypeExpr {
    /// `bool`, `proc`, a declared type, or an unsupported one (`int`, `real`).
    Named(Ident),
    /// `lo .. hi` written in place.
    Range(Box<Expr>, Box<Expr>, Span),
}

impl TypeExpr {
    pub fn span(&self) -> Span {
        match self {
            TypeExpr::Named(i) => i.span,
            TypeExpr::Range(_, _, s) => *s,
        }
    }
}

/// A declaration (types and variables come before the other items).
#[derive(Clone, Debug)]
pub enum Decl {
    /// `type t = A | B`
    Enum { name: Ident, ctors: Vec<Ident> },
    /// `type t = lo .. hi`
    Range { name: Ident, lo: Expr, hi: Expr },
    /// `type t` (Cubicle's abstract type; rejected by the checker)
    Abstract { name: Ident },
    /// `var X : t`
    Var { name: Ident, ty: TypeExpr },
    /// `const X : t`
    Const { name: Ident, ty: TypeExpr },
    /// `array A[t1, t2] : t`
    Array {
        name: Ident,
        index: Vec<TypeExpr>,
        elem: TypeExpr,
    },
}

/// Items after the declarations.
#[derive(Clone, Debug)]
pub enum Item {
    Init {
        params: Vec<Ident>,
        body: Expr,
        span: Span,
    },
    /// `invariant [name] (params) { body }`: like `unsafe`, the body describes states
    /// the author claims are unreachable.
    Invariant {
        name: Option<Ident>,
        params: Vec<Ident>,
        body: Expr,
        span: Span,
    },
    Unsafe {
        name: Option<Ident>,
        params: Vec<Ident>,
        body: Expr,
        span: Span,
    },
    Transition {
        name: Ident,
        params: Vec<Ident>,
        requires: Option<Expr>,
        updates: Vec<UpdateItem>,
        span: Span,
    },
    Predicate {
        name: Ident,
        params: Vec<Ident>,
        body: Expr,
        span: Span,
    },
    Ltl {
        name: Ident,
        params: Vec<Ident>,
        body: Expr,
        span: Span,
    },
}

/// One entry of a transition's action block.
#[derive(Clone, Debug)]
pub enum UpdateItem {
    /// `let x = t in` — scopes over the rest of the block.
    Let(Ident, Expr),
    /// `lhs := rhs`
    Assign { lhs: Lhs, rhs: Rhs, span: Span },
}

/// The left-hand side of an update: a global or an array cell (or row, with fresh names).
#[derive(Clone, Debug)]
pub struct Lhs {
    pub var: Ident,
    pub index: Vec<Expr>,
}

/// The right-hand side of an update.
#[derive(Clone, Debug)]
pub enum Rhs {
    Expr(Expr),
    /// `case | f : t | ... | _ : t`; `default` is `None` when the `_` branch is missing.
    Case {
        branches: Vec<(Expr, Expr)>,
        default: Option<Expr>,
        span: Span,
    },
    /// `.` or `?`
    Nondet(Span),
    /// `any j. f`
    Any(Ident, Box<Expr>),
}

/// Binary operators of formulas and terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// `=`, `<>`, `<`, `<=`, `>`, `>=`: the model's comparisons.
    Cmp(CmpOp),
    And,
    Or,
    Imp,
    Iff,
    /// Temporal `U`, `R`, `W` (ltl blocks only).
    Until,
    Release,
    WeakUntil,
}

/// Temporal prefix operators (ltl blocks only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TempOp {
    Globally,
    Finally,
    Next,
}

/// What a quantified variable ranges over.
#[derive(Clone, Debug)]
pub enum QuantDom {
    /// All processes.
    Proc,
    /// Processes other than the named ones (`forall x <> y.`).
    ProcExcept(Vec<Ident>),
    /// Processes other than the parameters of the enclosing transition or property.
    Other,
    /// A range or enumeration type (`forall x : level.`).
    Type(TypeExpr),
}

/// An expression: terms and formulas share one grammar; the checker types them.
#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    /// `1.5`: a real literal (timed models; rejected by the checker).
    Real(String),
    /// `#k`
    ProcConst(i64),
    /// `N`
    Size,
    True,
    False,
    /// A lower-case name: a process variable, a let-bound name or a predicate parameter.
    Lower(String),
    /// A capitalised name: a global, a constant or a constructor.
    Upper(String),
    /// `A[t, ...]`
    Index(Ident, Vec<Expr>),
    /// `pred(args)`
    Call(Ident, Vec<Expr>),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
    Let(Ident, Box<Expr>, Box<Expr>),
    Quant(Quant),
    Temporal(TempOp, Box<Expr>),
}

/// `forall var dom. body`, or `exists` when `forall` is false.
#[derive(Clone, Debug)]
pub struct Quant {
    pub forall: bool,
    pub var: Ident,
    pub dom: QuantDom,
    pub body: Box<Expr>,
}

impl Expr {
    /// The quantifier `forall var dom. body` (`exists` when `forall` is false) at `span`.
    pub fn quant(forall: bool, var: Ident, dom: QuantDom, body: Expr, span: Span) -> Expr {
        let q = Quant {
            forall,
            var,
            dom,
            body: Box::new(body),
        };
        Expr {
            kind: ExprKind::Quant(q),
            span,
        }
    }
}
