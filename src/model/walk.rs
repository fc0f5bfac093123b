//! Read-only walks over the IR: the direct subexpressions of an expression (fallible
//! or not), every subexpression below it, and the state formulas at the leaves of an
//! LTL formula. The analyses that only look (the int fragments, dead cells, data
//! independence, the cutoff fragment, ...) match the nodes they care about and leave
//! the rest to these; `Expr::rewrite` is the one that rebuilds.

use std::convert::Infallible;

use super::ir::{Expr, Ltl};

impl Expr {
    /// Call `f` on each direct subexpression, left to right (a quantifier's process
    /// exceptions before its body), stopping at the first error. The one place that
    /// knows the shape of every node: an analysis matches the nodes it cares about
    /// and hands the rest to this.
    pub fn try_for_each_child<E>(
        &self,
        mut f: impl FnMut(&Expr) -> Result<(), E>,
    ) -> Result<(), E> {
        match self {
            Expr::Const(..) | Expr::Size | Expr::Local(_) => Ok(()),
            Expr::Read(_, xs) | Expr::And(xs) | Expr::Or(xs) => xs.iter().try_for_each(f),
            Expr::Arith(_, a, b) | Expr::Cmp(_, a, b) | Expr::Imp(a, b) | Expr::Iff(a, b) => {
                f(a)?;
                f(b)
            }
            Expr::Not(a) => f(a),
            Expr::Ite(c, a, b, _) => {
                f(c)?;
                f(a)?;
                f(b)
            }
            Expr::Quant(q) => {
                q.except().iter().try_for_each(&mut f)?;
                f(&q.body)
            }
        }
    }

    /// Call `f` on each direct subexpression, in the order of `try_for_each_child`.
    pub fn for_each_child(&self, mut f: impl FnMut(&Expr)) {
        let _ = self.try_for_each_child(|x| {
            f(x);
            Ok::<(), Infallible>(())
        });
    }

    /// Whether `f` holds of some direct subexpression (tried in the order of
    /// `try_for_each_child`, up to the first that holds).
    pub fn any_child(&self, mut f: impl FnMut(&Expr) -> bool) -> bool {
        self.try_for_each_child(|x| if f(x) { Err(()) } else { Ok(()) })
            .is_err()
    }

    /// Whether `f` holds of every direct subexpression.
    pub fn all_children(&self, mut f: impl FnMut(&Expr) -> bool) -> bool {
        !self.any_child(|x| !f(x))
    }

    /// Call `f` on this expression and, depth first, on its subexpressions below every
    /// node where `f` returned true (the process exceptions of a quantifier included).
    pub fn walk(&self, f: &mut dyn FnMut(&Expr) -> bool) {
        if f(self) {
            self.for_each_child(|x| x.walk(f));
        }
    }
}

impl Ltl {
    /// The state formulas at the leaves of the formula, left to right.
    pub fn atoms(&self) -> Vec<&Expr> {
        let mut out = Vec::new();
        self.push_atoms(&mut out);
        out
    }

    fn push_atoms<'a>(&'a self, out: &mut Vec<&'a Expr>) {
        match self {
            Ltl::Atom(e) => out.push(e),
            Ltl::Not(a) | Ltl::Next(a) | Ltl::Globally(a) | Ltl::Finally(a) => a.push_atoms(out),
            Ltl::And(a, b)
            | Ltl::Or(a, b)
            | Ltl::Imp(a, b)
            | Ltl::Iff(a, b)
            | Ltl::Until(a, b)
            | Ltl::Release(a, b)
            | Ltl::WeakUntil(a, b) => {
                a.push_atoms(out);
                b.push_atoms(out);
            }
        }
    }
}
