//! Read-only walks over the IR: every subexpression of an expression, and the state
//! formulas at the leaves of an LTL formula. One walk each, for the analyses that only
//! look (`rank`, the int window's literals, data independence); `Expr::rewrite` is the
//! one that rebuilds.

use super::ir::{Domain, Expr, Ltl};

impl Expr {
    /// Call `f` on this expression and, depth first, on its subexpressions below every
    /// node where `f` returned true (the process exceptions of a quantifier included).
    pub fn walk(&self, f: &mut dyn FnMut(&Expr) -> bool) {
        if !f(self) {
            return;
        }
        match self {
            Expr::Const(..) | Expr::Size | Expr::Local(_) => {}
            Expr::Read(_, xs) | Expr::And(xs) | Expr::Or(xs) => xs.iter().for_each(|x| x.walk(f)),
            Expr::Arith(_, a, b) | Expr::Cmp(_, a, b) | Expr::Imp(a, b) | Expr::Iff(a, b) => {
                a.walk(f);
                b.walk(f);
            }
            Expr::Not(a) => a.walk(f),
            Expr::Ite(a, b, c, _) => {
                a.walk(f);
                b.walk(f);
                c.walk(f);
            }
            Expr::Quant { dom, body, .. } => {
                if let Domain::Procs { except } = dom {
                    except.iter().for_each(|x| x.walk(f));
                }
                body.walk(f);
            }
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
