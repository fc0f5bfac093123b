//! The typed, size-independent intermediate representation of a family: what the
//! checker produces and what every engine consumes. Values of every type are `i64`:
//! `bool` is 0/1, an enumeration value is its constructor's ordinal, a process id is
//! 1..n and a range value is itself.

use crate::source::{Diagnostic, Source, Span};

/// The type of a term. `Int` is the type of literals, `N` and arithmetic results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Bool,
    Enum(usize),
    Range(usize),
    Proc,
    Int,
}

impl Ty {
    /// Process ids, range values and integers compare as integers.
    pub fn is_intlike(self) -> bool {
        matches!(self, Ty::Proc | Ty::Range(_) | Ty::Int)
    }
}

/// `type t = A | B | C`
#[derive(Clone, Debug)]
pub struct EnumType {
    pub name: String,
    pub ctors: Vec<String>,
}

/// An integer expression over literals and `N`, for range bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SizeExpr {
    Lit(i64),
    Size,
    Neg(Box<SizeExpr>),
    Add(Box<SizeExpr>, Box<SizeExpr>),
    Sub(Box<SizeExpr>, Box<SizeExpr>),
    Mul(Box<SizeExpr>, Box<SizeExpr>),
}

impl SizeExpr {
    /// The value at size `n` (saturating, so absurd bounds stay finite).
    pub fn eval(&self, n: i64) -> i64 {
        match self {
            SizeExpr::Lit(v) => *v,
            SizeExpr::Size => n,
            SizeExpr::Neg(a) => a.eval(n).saturating_neg(),
            SizeExpr::Add(a, b) => a.eval(n).saturating_add(b.eval(n)),
            SizeExpr::Sub(a, b) => a.eval(n).saturating_sub(b.eval(n)),
            SizeExpr::Mul(a, b) => a.eval(n).saturating_mul(b.eval(n)),
        }
    }
    /// Whether the bound mentions `N`.
    pub fn uses_size(&self) -> bool {
        match self {
            SizeExpr::Lit(_) => false,
            SizeExpr::Size => true,
            SizeExpr::Neg(a) => a.uses_size(),
            SizeExpr::Add(a, b) | SizeExpr::Sub(a, b) | SizeExpr::Mul(a, b) => {
                a.uses_size() || b.uses_size()
            }
        }
    }
}

/// `type level = lo .. hi` (or a range written in place, named by its text).
#[derive(Clone, Debug)]
pub struct RangeType {
    pub name: String,
    pub lo: SizeExpr,
    pub hi: SizeExpr,
    pub span: Span,
}

/// What kind of state variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarKind {
    /// `var X : t`
    Global,
    /// `const X : t` — arbitrary initial value, never assigned.
    Const,
    /// `array A[...] : t`
    Array,
}

/// A state variable: a global, a constant or an array with one cell per index tuple.
#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub kind: VarKind,
    /// Index types (empty for globals and constants).
    pub dims: Vec<Ty>,
    pub ty: Ty,
    pub span: Span,
}

/// A local name of a transition, property or init: parameters first, then the
/// names bound by quantifiers, `case` rows and `any`.
#[derive(Clone, Debug)]
pub struct Local {
    pub name: String,
    pub ty: Ty,
}

pub type LocalId = usize;
pub type VarId = usize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    pub fn apply(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }
    /// The operator with its sides swapped: `a op b` iff `b op.flip() a`.
    pub fn flip(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            o => o,
        }
    }
    pub fn text(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Ne => "<>",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

/// What a quantified variable ranges over.
#[derive(Clone, Debug, PartialEq)]
pub enum Domain {
    /// The processes of the instance other than the values of `except`.
    Procs { except: Vec<Expr> },
    /// Every value of a range, enumeration or `bool` type.
    Type(Ty),
}

impl Domain {
    /// Every process of the instance.
    pub fn all_procs() -> Domain {
        Domain::Procs { except: Vec::new() }
    }
}

/// A typed term or formula. Evaluation is left to right and `&&`, `||`, `=>`,
/// `if then else` and quantifiers (in ascending order of the bound value) stop early.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Const(i64, Ty),
    /// `N`
    Size,
    Local(LocalId),
    /// A global (no indices) or an array cell.
    Read(VarId, Vec<Expr>),
    Arith(ArithOp, Box<Expr>, Box<Expr>),
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Imp(Box<Expr>, Box<Expr>),
    Iff(Box<Expr>, Box<Expr>),
    Ite(Box<Expr>, Box<Expr>, Box<Expr>, Ty),
    Quant(Quant),
}

/// `forall var in dom. body`, or `exists` when `forall` is false.
#[derive(Clone, Debug, PartialEq)]
pub struct Quant {
    pub forall: bool,
    /// The bound local.
    pub var: LocalId,
    pub dom: Domain,
    pub body: Box<Expr>,
}

impl Quant {
    /// Whether the bound local ranges over processes (all, or all but some).
    pub fn over_procs(&self) -> bool {
        matches!(self.dom, Domain::Procs { .. } | Domain::Type(Ty::Proc))
    }

    /// The processes the quantifier excepts (none over a type).
    pub fn except(&self) -> &[Expr] {
        match &self.dom {
            Domain::Procs { except } => except,
            Domain::Type(_) => &[],
        }
    }
}

impl Expr {
    pub fn tt() -> Expr {
        Expr::Const(1, Ty::Bool)
    }

    /// `forall var in dom. body` (`exists` when `forall` is false).
    pub fn quant(forall: bool, var: LocalId, dom: Domain, body: Expr) -> Expr {
        Expr::Quant(Quant {
            forall,
            var,
            dom,
            body: Box::new(body),
        })
    }

    /// An integer literal as written: `k`, or `-k` (read as `0 - k`).
    pub fn int_literal(&self) -> Option<i64> {
        match self {
            Expr::Const(v, Ty::Int) => Some(*v),
            Expr::Arith(ArithOp::Sub, a, b) => match (&**a, &**b) {
                (Expr::Const(0, Ty::Int), Expr::Const(v, Ty::Int)) => v.checked_neg(),
                _ => None,
            },
            _ => None,
        }
    }

    /// The quantifier over `dom` after a rewrite of its exceptions. `forall j <> a`
    /// names processes by local names only: an exception that the rewrite turned into a
    /// term (a process the domain cannot name) moves into the body, tested first, as the
    /// quantifier would skip it. Shared by every rewrite that substitutes terms for
    /// locals (the liveness product, assumed invariants).
    pub fn quant_excepting(forall: bool, var: LocalId, dom: Domain, body: Expr) -> Expr {
        let mut body = body;
        let dom = match dom {
            Domain::Procs { except } => {
                let (names, terms): (Vec<Expr>, Vec<Expr>) = except
                    .into_iter()
                    .partition(|x| matches!(x, Expr::Local(_)));
                if !terms.is_empty() {
                    let eq = |x| Expr::Cmp(CmpOp::Eq, Box::new(Expr::Local(var)), Box::new(x));
                    let skip = match <[Expr; 1]>::try_from(terms) {
                        Ok([one]) => eq(one),
                        Err(terms) => Expr::Or(terms.into_iter().map(eq).collect()),
                    };
                    body = if forall {
                        Expr::Or(vec![skip, body])
                    } else {
                        Expr::And(vec![Expr::Not(Box::new(skip)), body])
                    };
                }
                Domain::Procs { except: names }
            }
            d => d,
        };
        Expr::quant(forall, var, dom, body)
    }
}

/// The `unsafe` properties asked (`props`), or every one of `model`'s when `None`.
pub fn all_or(props: Option<&[usize]>, model: &Model) -> Vec<usize> {
    props.map_or_else(|| (0..model.unsafes.len()).collect(), <[usize]>::to_vec)
}

/// What a rewrite (`Expr::rewrite`) puts in place of locals and cell reads; the rest
/// of the expression is rebuilt around them. Every rewrite that substitutes terms for
/// locals (the liveness product, assumed invariants) is one of these, so that the
/// structure, and the quantifiers whose exceptions become terms, are handled once.
pub trait Rewrite {
    /// Why a rewrite fails (`std::convert::Infallible` for one that cannot).
    type Error;
    /// The term for an occurrence of local `id`, free or bound: by default the local.
    fn local(&self, id: LocalId) -> Result<Expr, Self::Error> {
        Ok(Expr::Local(id))
    }
    /// The local a quantifier binding `var` binds after the rewrite (the body's
    /// occurrences of `var` go through `local`, which must agree): by default `var`.
    fn bound(&self, var: LocalId) -> LocalId {
        var
    }
    /// The term for cell `v[ix]`, its indices already rewritten: by default the read.
    fn read(&self, v: VarId, ix: Vec<Expr>) -> Result<Expr, Self::Error> {
        Ok(Expr::Read(v, ix))
    }
    /// The term for the comparison `a op b`, its operands not rewritten yet, when the
    /// rewrite reads comparisons its own way; by default `None`: the operands are
    /// rewritten.
    fn compare(&self, _op: CmpOp, _a: &Expr, _b: &Expr) -> Option<Result<Expr, Self::Error>> {
        None
    }
}

impl Expr {
    /// The expression with `r` applied to its locals and reads, bottom-up (a
    /// quantifier's body before its exceptions); a quantifier is rebuilt by
    /// `Expr::quant_excepting`. Stops at the first error.
    pub fn rewrite<R: Rewrite + ?Sized>(&self, r: &R) -> Result<Expr, R::Error> {
        let one = |x: &Expr| -> Result<Box<Expr>, R::Error> { Ok(Box::new(x.rewrite(r)?)) };
        let all = |xs: &[Expr]| -> Result<Vec<Expr>, R::Error> {
            xs.iter().map(|x| x.rewrite(r)).collect()
        };
        Ok(match self {
            Expr::Const(..) | Expr::Size => self.clone(),
            Expr::Local(id) => r.local(*id)?,
            Expr::Read(v, ix) => r.read(*v, all(ix)?)?,
            Expr::Arith(op, a, b) => Expr::Arith(*op, one(a)?, one(b)?),
            Expr::Cmp(op, a, b) => match r.compare(*op, a, b) {
                Some(e) => e?,
                None => Expr::Cmp(*op, one(a)?, one(b)?),
            },
            Expr::Not(a) => Expr::Not(one(a)?),
            Expr::And(xs) => Expr::And(all(xs)?),
            Expr::Or(xs) => Expr::Or(all(xs)?),
            Expr::Imp(a, b) => Expr::Imp(one(a)?, one(b)?),
            Expr::Iff(a, b) => Expr::Iff(one(a)?, one(b)?),
            Expr::Ite(c, a, b, ty) => Expr::Ite(one(c)?, one(a)?, one(b)?, *ty),
            Expr::Quant(q) => {
                let body = q.body.rewrite(r)?;
                let dom = match &q.dom {
                    Domain::Type(t) => Domain::Type(*t),
                    Domain::Procs { except } => Domain::Procs {
                        except: all(except)?,
                    },
                };
                Expr::quant_excepting(q.forall, r.bound(q.var), dom, body)
            }
        })
    }
}

/// One index position of an update target.
#[derive(Clone, Debug, PartialEq)]
pub enum Index {
    /// A term evaluated on the old state.
    Term(Expr),
    /// A fresh name bound to every value of the dimension (`A[j] := case ...`).
    Bind(LocalId),
}

/// What an update stores.
#[derive(Clone, Debug, PartialEq)]
pub enum UpdValue {
    Term(Expr),
    /// `X := .` or `A[i] := .` — every value of the target cell's type.
    Nondet,
    /// `X := any j. f` — every process j satisfying f; disabled when there is none.
    Any {
        var: LocalId,
        cond: Expr,
    },
}

/// One assignment of a transition's action; all read the old state.
#[derive(Clone, Debug)]
pub struct Update {
    pub var: VarId,
    pub index: Vec<Index>,
    pub value: UpdValue,
    pub span: Span,
}

impl Update {
    /// The bound index positions of the target (`A[j] := ...`), in index order: each
    /// binder with the type of its dimension.
    pub fn binders(&self, model: &Model) -> Vec<(LocalId, Ty)> {
        self.index
            .iter()
            .zip(&model.vars[self.var].dims)
            .filter_map(|(ix, &t)| match ix {
                Index::Bind(id) => Some((*id, t)),
                Index::Term(_) => None,
            })
            .collect()
    }
}

/// `transition name (params) requires { guard } { updates }`
#[derive(Clone, Debug)]
pub struct Transition {
    pub name: String,
    /// The first `params` locals are the (pairwise distinct) process parameters.
    pub params: usize,
    pub locals: Vec<Local>,
    pub guard: Expr,
    pub updates: Vec<Update>,
    pub span: Span,
}

/// Which block a safety property comes from. Both are checked the same way, by every
/// engine; only reports tell them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PropKind {
    /// `unsafe [name] (params) { f }`
    Unsafe,
    /// `invariant [name] (params) { f }`: Cubicle assumes these; nfold checks them like
    /// `unsafe` blocks (f describes states claimed unreachable), and also answers the
    /// `unsafe` blocks assuming them (`model::assume`) when one is not proved.
    Invariant,
}

impl PropKind {
    /// The keyword, which is also the JSON spelling (`"kind"`).
    pub fn keyword(self) -> &'static str {
        match self {
            PropKind::Unsafe => "unsafe",
            PropKind::Invariant => "invariant",
        }
    }
}

/// One top-level conjunct of a property's body as written (`&&` flattened through
/// parentheses, before predicates are expanded), for reports about the source.
#[derive(Clone, Debug)]
pub struct Conjunct {
    pub expr: Expr,
    pub span: Span,
}

/// `unsafe name (params) { body }` or `invariant name (params) { body }`: bad when
/// body holds for pairwise distinct params.
#[derive(Clone, Debug)]
pub struct Unsafe {
    pub name: String,
    pub kind: PropKind,
    pub params: usize,
    pub locals: Vec<Local>,
    pub body: Expr,
    /// The body's conjuncts as written; `body` is their conjunction (one conjunct: the
    /// body itself).
    pub conjuncts: Vec<Conjunct>,
    pub span: Span,
}

impl Unsafe {
    /// How the property is shown in reports: its name for an `unsafe` block,
    /// `invariant NAME` for an invariant (an unnamed one is already called
    /// `invariant1`, `invariant2`, ..., and so is shown as it is).
    pub fn label(&self) -> String {
        match self.kind {
            PropKind::Invariant if !self.name.starts_with("invariant") => {
                format!("invariant {}", self.name)
            }
            _ => self.name.clone(),
        }
    }

    /// `` `NAME` `` for an `unsafe` block, `` invariant `NAME` `` for an invariant.
    pub fn quoted(&self) -> String {
        match self.kind {
            PropKind::Unsafe => format!("`{}`", self.name),
            PropKind::Invariant => format!("invariant `{}`", self.name),
        }
    }
}

/// `init (params) { body }`: body holds for all (not necessarily distinct) params.
#[derive(Clone, Debug)]
pub struct Init {
    pub params: usize,
    pub locals: Vec<Local>,
    pub body: Expr,
    pub span: Span,
}

/// An LTL formula; atoms are state formulas over the parameter and the globals.
#[derive(Clone, Debug, PartialEq)]
pub enum Ltl {
    Atom(Expr),
    Not(Box<Ltl>),
    And(Box<Ltl>, Box<Ltl>),
    Or(Box<Ltl>, Box<Ltl>),
    Imp(Box<Ltl>, Box<Ltl>),
    Iff(Box<Ltl>, Box<Ltl>),
    Next(Box<Ltl>),
    Globally(Box<Ltl>),
    Finally(Box<Ltl>),
    Until(Box<Ltl>, Box<Ltl>),
    Release(Box<Ltl>, Box<Ltl>),
    WeakUntil(Box<Ltl>, Box<Ltl>),
}

/// `ltl name (i) { psi }`
#[derive(Clone, Debug)]
pub struct LtlProp {
    pub name: String,
    pub params: usize,
    pub locals: Vec<Local>,
    pub body: Ltl,
    pub span: Span,
}

/// Name of a type given the declared enumerations and ranges.
pub fn type_name(enums: &[EnumType], ranges: &[RangeType], t: Ty) -> String {
    match t {
        Ty::Bool => "bool".into(),
        Ty::Proc => "proc".into(),
        Ty::Int => "int".into(),
        Ty::Enum(e) => enums[e].name.clone(),
        Ty::Range(r) => ranges[r].name.clone(),
    }
}

/// A construct that makes the family not fully symmetric.
#[derive(Clone, Debug)]
pub struct SymmetryBreak {
    pub what: String,
    pub span: Span,
    /// An order comparison between two process ids (`i < j`, `P[i] <= j`): the family
    /// stays invariant under the order-preserving renamings (`Model::is_ordered`).
    pub order: bool,
}

/// A checked family.
#[derive(Clone, Debug)]
pub struct Model {
    pub source: Source,
    /// `number_procs k`: the family is the single size k.
    pub number_procs: Option<(usize, Span)>,
    pub enums: Vec<EnumType>,
    pub ranges: Vec<RangeType>,
    pub vars: Vec<Var>,
    pub transitions: Vec<Transition>,
    pub inits: Vec<Init>,
    pub unsafes: Vec<Unsafe>,
    pub ltls: Vec<LtlProp>,
    /// Empty when the family is fully symmetric; otherwise every construct that breaks it.
    pub symmetry_breaks: Vec<SymmetryBreak>,
    /// The abstract types (`type data`), each an enumeration of d values d1..dD.
    pub data_types: Vec<super::data::DataType>,
    /// Set when `init` declares a `proc` global different from every process: `proc`
    /// values then include one extra id that is not a process (`model::extra`).
    pub extra_proc: Option<super::extra::ExtraProc>,
    /// Cubicle's `int`, checked over a window (a range type named `int`), when the
    /// model declares an `int` variable, constant or array.
    pub int_window: Option<super::ints::IntWindow>,
    /// Set when the model's ints are literal-valued and read exactly as a finite
    /// enumeration (`model::ints::literal`); `int_window` is then `None`.
    pub lit_ints: Option<super::ints::literal::LitInts>,
    /// Set on the over-approximation of a model whose ints step (`model::ints::abstracted`):
    /// it proves, never refutes, the model's properties.
    pub abs_ints: Option<super::ints::abstracted::AbsInts>,
    /// Set on the over-approximation over the order of the ints (`model::ints::order`).
    pub ord_ints: Option<super::ints::order::OrdInts>,
    /// The `invariant`s this model assumes (`model::assume`: the model as written
    /// restricted to the states satisfying them); empty for the model as written.
    pub assumed: Vec<String>,
    pub warnings: Vec<Diagnostic>,
}

impl Model {
    /// Fully symmetric: process ids are only compared for equality, copied and used as
    /// indices of `proc`-indexed arrays.
    pub fn is_symmetric(&self) -> bool {
        self.symmetry_breaks.is_empty()
    }

    /// Ordered-symmetric: not fully symmetric, but only because process ids are
    /// compared by order with each other (no arithmetic on them, no `#k`, no mix with
    /// integers, no `number_procs`). Such a family is invariant under the
    /// order-preserving renamings: restricting a state to a subset of its processes
    /// and renumbering them in order keeps every comparison (`proof::cutoff`).
    pub fn is_ordered(&self) -> bool {
        !self.symmetry_breaks.is_empty() && self.symmetry_breaks.iter().all(|b| b.order)
    }

    /// Fully symmetric or ordered-symmetric: lemmas may stand for orbits (of every
    /// renaming, or of the order-preserving ones; `proof::lemma`).
    pub fn has_lemma_orbits(&self) -> bool {
        self.is_symmetric() || (self.is_ordered() && self.extra_proc.is_none())
    }

    /// The first construct that breaks even the order-preserving symmetry.
    pub fn first_unordered_break(&self) -> Option<&SymmetryBreak> {
        self.symmetry_breaks.iter().find(|b| !b.order)
    }

    /// A one-line verdict on symmetry with the first construct that breaks it.
    pub fn symmetry_summary(&self) -> String {
        match self.symmetry_breaks.first() {
            None => "fully symmetric".to_string(),
            Some(b) if self.is_ordered() => format!(
                "ordered symmetric (process ids compared by order only, first at {}): invariant under order-preserving renamings",
                self.source.file_line(b.span.lo)
            ),
            Some(_) => {
                let b = self
                    .first_unordered_break()
                    .unwrap_or(&self.symmetry_breaks[0]);
                format!(
                    "not fully symmetric: {} at {}",
                    b.what,
                    self.source.file_line(b.span.lo)
                )
            }
        }
    }

    /// Name of a type, as written in the source.
    /// The lowest value a `proc`-typed cell can hold: 1, or the extra id 0 when the
    /// extra-id reading applies (`model::extra`).
    pub fn proc_value_lo(&self) -> i64 {
        if self.extra_proc.is_some() {
            super::extra::EXTRA_ID
        } else {
            1
        }
    }

    pub fn type_name(&self, t: Ty) -> String {
        type_name(&self.enums, &self.ranges, t)
    }

    pub fn var_by_name(&self, name: &str) -> Option<VarId> {
        self.vars.iter().position(|v| v.name == name)
    }

    pub fn transition_by_name(&self, name: &str) -> Option<usize> {
        self.transitions.iter().position(|t| t.name == name)
    }

    /// The `unsafe` or `invariant` property of that name (index into `unsafes`).
    pub fn unsafe_by_name(&self, name: &str) -> Option<usize> {
        self.unsafes.iter().position(|u| u.name == name)
    }

    /// The `ltl` property of that name (index into `ltls`).
    pub fn ltl_by_name(&self, name: &str) -> Option<usize> {
        self.ltls.iter().position(|l| l.name == name)
    }

    /// The abstract type whose values the enumeration `e` holds, if any.
    pub fn data_type(&self, e: usize) -> Option<&super::data::DataType> {
        self.data_types.iter().find(|d| d.enum_id == e)
    }

    /// The first `int` cell `e` reads, if any.
    pub fn first_int_read(&self, e: &Expr) -> Option<VarId> {
        let mut found = None;
        e.walk(&mut |x| {
            if let Expr::Read(v, _) = x
                && found.is_none()
                && self.is_int_var(*v)
            {
                found = Some(*v);
            }
            found.is_none()
        });
        found
    }

    /// Whether variable `v` holds an `int` (its type is the int window).
    pub fn is_int_var(&self, v: VarId) -> bool {
        self.is_int_ty(self.vars[v].ty)
    }

    /// Whether `t` is the type `int` (the int window).
    pub fn is_int_ty(&self, t: Ty) -> bool {
        matches!((t, &self.int_window), (Ty::Range(r), Some(w)) if r == w.range)
    }

    /// Whether some abstract type has interchangeable values (two or more of them), so
    /// that states can be reduced by permuting them.
    pub fn has_data_symmetry(&self) -> bool {
        self.data_types.iter().any(|d| d.symmetric && d.values > 1)
    }
}

#[cfg(test)]
mod rewrite_tests {
    use super::*;

    /// Local 0 becomes the process constant #2; local 1 stays; reads of variable 1
    /// fail.
    struct Fix;

    impl Rewrite for Fix {
        type Error = String;
        fn local(&self, id: LocalId) -> Result<Expr, String> {
            Ok(if id == 0 {
                Expr::Const(2, Ty::Proc)
            } else {
                Expr::Local(id)
            })
        }
        fn read(&self, v: VarId, ix: Vec<Expr>) -> Result<Expr, String> {
            if v == 1 {
                Err("read of 1".into())
            } else {
                Ok(Expr::Read(v, ix))
            }
        }
    }

    fn eq(a: Expr, b: Expr) -> Expr {
        Expr::Cmp(CmpOp::Eq, Box::new(a), Box::new(b))
    }

    #[test]
    fn a_rewritten_exception_moves_into_the_body() {
        // forall j <> i. A[j] = i, with i := #2: forall j. j = #2 || A[j] = #2 (written
        // out from the definition of `forall j <> t` for a term t).
        let e = Expr::quant(
            true,
            1,
            Domain::Procs {
                except: vec![Expr::Local(0)],
            },
            eq(Expr::Read(0, vec![Expr::Local(1)]), Expr::Local(0)),
        );
        let two = || Expr::Const(2, Ty::Proc);
        let want = Expr::quant(
            true,
            1,
            Domain::all_procs(),
            Expr::Or(vec![
                eq(Expr::Local(1), two()),
                eq(Expr::Read(0, vec![Expr::Local(1)]), two()),
            ]),
        );
        assert_eq!(e.rewrite(&Fix), Ok(want));
        // A failing read anywhere fails the whole rewrite.
        let bad = Expr::And(vec![Expr::tt(), Expr::Not(Box::new(Expr::Read(1, vec![])))]);
        assert_eq!(bad.rewrite(&Fix), Err("read of 1".to_string()));
    }
}
