//! Ints compared with each other (tickets, clocks: `Num[x] < Num[j]`, `Ticket[x] :=
//! Max`, `Max := Max + 1`), read over their *order*: a finite over-approximation of
//! the model whose proofs for every n are proofs of the model (docs/every-n.md, "Ints
//! compared with each other: the order abstraction").
//!
//! Each int cell keeps its class among the model's literals (as in
//! `model::ints::abstracted`), and each pair of int cells that the model compares, or
//! whose comparison a copy or a step needs, gets a cell of relation `<`, `=` or `>`
//! (the array `Ord_A_B[i.., j..]` says how `A[i..]` compares with `B[j..]`). Only the
//! patterns of equal indices that are compared get an array (`Pair`): where the model
//! compares `C[s,z]` with `Clock[z]` only, `Ord_C_Clock_011[i,j]` relates `C[i,j]` with
//! `Clock[j]`, not every cell of C with every cell of Clock. Guards,
//! `init` and properties only compare ints, so they read exactly on the relations. A
//! copy moves relations; a step `X + k` (k ≥ 1 a literal, or a constant the guard
//! says is positive) is exact when X was at least the other cell (the result is then
//! above it) and from the top class; otherwise the abstract step stores the value
//! `lost` (`Ord_lost`, `Oint_lost`). Properties `order_lost_*` say that no reachable
//! state holds `lost`; proved with the model's own, they make the abstract model
//! simulate the model step for step (predicate abstraction with the order predicates:
//! Graf and Saïdi, CAV 1997; indexed predicates: Lahiri and Bryant, VMCAI 2004).
//!
//! When that fails (a step from below, Cubicle's `sense_barrier`), the relations can
//! keep the difference of two cells while it is at most K (`order::diff`, `abstraction
//! order diff K`): a step from at most K below then lands exactly.
//!
//! The abstract model is printed and read back (`lang::read_back`), so the checker and
//! `nfold certify` (a certificate saying `abstraction order`) check its own text.

use super::abstracted::landing;
use super::literal::LitVal;
use crate::model::ir::*;
use std::cmp::Ordering;

/// What the abstract model is: the ints read over their order, and the properties
/// that say no relation or class is ever lost (set on the model, kept by read-back).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrdInts {
    pub vars: Vec<String>,
    pub pairs: Vec<String>,
    /// The `order_lost_*` properties: claimed with the model's own by every proof.
    pub lost: Vec<String>,
    /// The ints `init` leaves free that are written before they are read, each with
    /// the literal it is taken to start at (`Num_buffer from 0`).
    pub free: Vec<String>,
    /// The width K of the differences kept exactly (`abstraction order diff K`); 0:
    /// the relations are the order `<`, `=`, `>` only.
    pub diff: i64,
}

impl OrdInts {
    /// One phrase for reports.
    pub fn summary(&self) -> String {
        let q = |v: &[String]| {
            v.iter()
                .map(|x| format!("`{x}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let relations = match self.pairs.is_empty() {
            true => String::new(),
            false => format!("relations {}; ", q(&self.pairs)),
        };
        let free = if self.free.is_empty() {
            String::new()
        } else {
            format!(
                "; free initially but written before read, so taken as {}",
                q(&self.free)
            )
        };
        let steps = match self.diff {
            0 => "steps exact only from the largest".to_string(),
            k => format!(
                "differences up to {k} kept exactly, steps exact only from at most {k} below"
            ),
        };
        format!(
            "the ints {} read over their order ({relations}{steps}, proved{free})",
            q(&self.vars),
        )
    }
}

/// How much a step adds: a literal k ≥ 1, or a constant the guard says is positive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Amount {
    K(i64),
    C(VarId),
}

/// A leaf of a stored int value.
#[derive(Clone, Debug, PartialEq)]
enum Leaf {
    Lit(i64),
    Cell(VarId, Vec<Expr>),
    Inc(VarId, Vec<Expr>, Amount),
}

/// A stored value: `case` conditions over leaves.
#[derive(Clone, Debug)]
enum Tree {
    Ite(Expr, Box<Tree>, Box<Tree>),
    Leaf(Leaf),
}

/// A relation array: the cells `A[ā]`, `B[b̄]` whose indices ā b̄ are equal where the
/// pattern says so (and maybe elsewhere too). `pat` gives the block of each position
/// of ā then b̄, numbered by first occurrence; the array has one dimension per block.
/// Oriented so that (a, b, pat) is the smaller of the two ways round.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, std::cmp::Ord)]
struct Pair {
    a: VarId,
    b: VarId,
    pat: Vec<usize>,
}

impl Pair {
    fn blocks(&self) -> usize {
        self.pat.iter().max().map_or(0, |&b| b + 1)
    }
}

/// The pattern of a list of index terms: the block of each term, the same block
/// exactly for the same term (so equal in every state and valuation), and one term per
/// block.
fn pattern(terms: &[Expr]) -> (Vec<usize>, Vec<Expr>) {
    let mut reps: Vec<Expr> = Vec::new();
    let pat = terms
        .iter()
        .map(|t| match reps.iter().position(|r| r == t) {
            Some(b) => b,
            None => {
                reps.push(t.clone());
                reps.len() - 1
            }
        })
        .collect();
    (pat, reps)
}

/// The relation array of the cells `a` and `b`, whether it reads them turned round,
/// and its index terms; `None` for one cell with itself (always `=`).
fn pair_of(a: (VarId, &[Expr]), b: (VarId, &[Expr])) -> Option<(Pair, bool, Vec<Expr>)> {
    if a.0 == b.0 && a.1 == b.1 {
        return None;
    }
    let way = |x: (VarId, &[Expr]), y: (VarId, &[Expr])| {
        let (pat, reps) = pattern(&[x.1, y.1].concat());
        (
            Pair {
                a: x.0,
                b: y.0,
                pat,
            },
            reps,
        )
    };
    let ((p, r), (q, s)) = (way(a, b), way(b, a));
    Some(if p <= q { (p, false, r) } else { (q, true, s) })
}

/// The analysis of the model's ints, then the builder of the abstract model.
struct Ord<'m> {
    m: &'m Model,
    /// Tracked int variables (globals and arrays over processes).
    ints: Vec<VarId>,
    /// Int constants used only as positive step amounts and compared with literals.
    amounts: Vec<VarId>,
    values: Vec<LitVal>,
    /// The ints `init` leaves free, written before they are read (`free`), and the
    /// literal each is taken to start at.
    assumed: Vec<(VarId, i64)>,
    /// The relation arrays (`Pair`), and each one's variable (set in build).
    pairs: Vec<Pair>,
    rel_var: Vec<VarId>,
    /// The relation values: the order (width 0) or bounded differences.
    rels: Rels,
    rel_ty: Ty,
    int_ty: Ty,
}

fn err<T>(s: String) -> Result<T, String> {
    Err(s)
}

impl<'m> Ord<'m> {
    fn is_int(&self, v: VarId) -> bool {
        self.m.is_int_var(v)
    }

    /// An int literal, as the loader writes it in an int context.
    fn lit(&self, e: &Expr) -> Option<i64> {
        e.int_literal().or(match e {
            Expr::Const(k, t) if self.m.is_int_ty(*t) => Some(*k),
            _ => None,
        })
    }

    /// Whether `e` is an int term (a read of an int variable, a literal in an int
    /// comparison, or arithmetic).
    fn int_term(&self, e: &Expr) -> bool {
        match e {
            Expr::Read(v, _) => self.is_int(*v),
            Expr::Arith(..) => true,
            Expr::Const(_, t) => *t == Ty::Int || self.m.is_int_ty(*t),
            Expr::Ite(_, _, _, t) => self.m.is_int_ty(*t) || *t == Ty::Int,
            _ => false,
        }
    }

    /// The step `C + k` / `C + K` / `k + C` in a stored value.
    fn inc(&self, e: &Expr) -> Option<(VarId, Vec<Expr>, Amount)> {
        let Expr::Arith(ArithOp::Add, a, b) = e else {
            return None;
        };
        let cell = |x: &Expr| match x {
            Expr::Read(v, ix) if self.ints.contains(v) => Some((*v, ix.clone())),
            _ => None,
        };
        let amount = |x: &Expr| match x {
            Expr::Read(c, ix) if ix.is_empty() && self.amounts.contains(c) => Some(Amount::C(*c)),
            _ => self.lit(x).filter(|&k| k >= 1).map(Amount::K),
        };
        if let (Some((v, ix)), Some(k)) = (cell(a), amount(b)) {
            return Some((v, ix, k));
        }
        if let (Some(k), Some((v, ix))) = (amount(a), cell(b)) {
            return Some((v, ix, k));
        }
        None
    }

    /// The tree of a stored int value, or why it is not one of copies, literals and
    /// steps.
    fn tree(&self, e: &Expr) -> Result<Tree, String> {
        if let Some(k) = self.lit(e) {
            return Ok(Tree::Leaf(Leaf::Lit(k)));
        }
        if let Some((v, ix, k)) = self.inc(e) {
            return Ok(Tree::Leaf(Leaf::Inc(v, ix, k)));
        }
        match e {
            Expr::Read(v, ix) if self.ints.contains(v) => {
                Ok(Tree::Leaf(Leaf::Cell(*v, ix.clone())))
            }
            Expr::Ite(c, a, b, _) => Ok(Tree::Ite(
                (**c).clone(),
                Box::new(self.tree(a)?),
                Box::new(self.tree(b)?),
            )),
            _ => err(
                "a stored int value other than a literal, a copy or a step `X + k` (k ≥ 1)".into(),
            ),
        }
    }
}

/// Whether the guard says, at its top, that the constant `c` is positive.
fn positive(m: &Model, g: &Expr, c: VarId) -> bool {
    let is_c = |x: &Expr| matches!(x, Expr::Read(v, ix) if *v == c && ix.is_empty());
    let lit = |x: &Expr, k: i64| {
        x.int_literal() == Some(k) || matches!(x, Expr::Const(v, t) if *v == k && m.is_int_ty(*t))
    };
    let mut found = false;
    let mut look = |e: &Expr| {
        if let Expr::Cmp(op, a, b) = e {
            found |= match op {
                CmpOp::Lt => lit(a, 0) && is_c(b),
                CmpOp::Gt => is_c(a) && lit(b, 0),
                CmpOp::Le => lit(a, 1) && is_c(b),
                CmpOp::Ge => is_c(a) && lit(b, 1),
                _ => false,
            };
        }
    };
    match g {
        Expr::And(xs) => xs.iter().for_each(&mut look),
        e => look(e),
    }
    found
}

/// The classes of the literals `lits` (sorted, distinct): each literal and each
/// nonempty open interval between and beyond them.
fn classes(lits: &[i64]) -> Vec<LitVal> {
    let mut out = Vec::new();
    let mut prev: Option<i64> = None;
    for &l in lits {
        if prev.is_none_or(|p| l - p >= 2) {
            out.push(LitVal::Between(prev, Some(l)));
        }
        out.push(LitVal::Lit(l));
        prev = Some(l);
    }
    out.push(LitVal::Between(prev, None));
    out
}

/// How a class compares with a literal of the model (an interval holds none).
fn class_vs(v: LitVal, l: i64) -> Ordering {
    match v {
        LitVal::Lit(k) => k.cmp(&l),
        LitVal::Between(_, Some(b)) if b <= l => Ordering::Less,
        _ => Ordering::Greater,
    }
}

/// The set partitions of 0..k, as the block of each position.
fn partitions(k: usize) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    for _ in 0..k {
        let mut next = Vec::new();
        for p in out {
            let blocks = p.iter().max().map_or(0, |&b| b + 1);
            for b in 0..=blocks {
                let mut q = p.clone();
                q.push(b);
                next.push(q);
            }
        }
        out = next;
    }
    out
}

/// Replaces locals by terms.
struct Subst<'a>(&'a [(LocalId, Expr)]);

impl Rewrite for Subst<'_> {
    type Error = std::convert::Infallible;
    fn local(&self, id: LocalId) -> Result<Expr, Self::Error> {
        Ok(self
            .0
            .iter()
            .find(|(l, _)| *l == id)
            .map_or(Expr::Local(id), |(_, e)| e.clone()))
    }
}

fn subst(e: &Expr, s: &[(LocalId, Expr)]) -> Expr {
    match e.rewrite(&Subst(s)) {
        Ok(x) => x,
        Err(never) => match never {},
    }
}

/// A tree with locals replaced.
fn subst_tree(t: &Tree, s: &[(LocalId, Expr)]) -> Tree {
    let all = |ix: &[Expr]| ix.iter().map(|x| subst(x, s)).collect::<Vec<_>>();
    match t {
        Tree::Ite(c, a, b) => Tree::Ite(
            subst(c, s),
            Box::new(subst_tree(a, s)),
            Box::new(subst_tree(b, s)),
        ),
        Tree::Leaf(Leaf::Lit(k)) => Tree::Leaf(Leaf::Lit(*k)),
        Tree::Leaf(Leaf::Cell(v, ix)) => Tree::Leaf(Leaf::Cell(*v, all(ix))),
        Tree::Leaf(Leaf::Inc(v, ix, a)) => Tree::Leaf(Leaf::Inc(*v, all(ix), *a)),
    }
}

mod analyse;
mod build;
mod diff;
mod free;

pub use build::{diff_width, ordered, ordered_diff};
use diff::Rels;

#[cfg(test)]
mod tests;
