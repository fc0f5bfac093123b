//! Equivalent cells: a variable Y kept equal to an earlier variable X of the same
//! shape (or to its negation, for `bool` cells), shown by induction on the text:
//! - every initial state has Y = X: the `init` conjuncts that read only X and Y are
//!   solved at each size (every solution must have Y = X; the initial states are
//!   among them);
//! - every transition that can fire writes Y exactly where it writes X, with the same
//!   term once Y is read as X (for a negation, the negated term or the other literal),
//!   and writes neither otherwise.
//!
//! So Y = X in every reachable state, and Y is read as X (Mishchenko, Case, Brayton and
//! Jang's `scorr` finds such pairs by simulation and proves them by induction; here
//! the candidates come from the text, and the induction is the text's).

use super::{Dropped, Merge, rewrite_all, writes};
use crate::model::init::for_each_initial;
use crate::model::instance::Instance;
use crate::model::ir::*;

/// The most initial states of the pair's `init` conjuncts looked at before giving up.
const MAX_SOLUTIONS: usize = 1 << 12;

/// Equivalent pairs of `m` at `sizes`: each Y (a later variable) with its X.
pub fn find(m: &Model, sizes: &[usize], dropped: &[(usize, Dropped)]) -> Vec<Merge> {
    let mut out: Vec<Merge> = Vec::new();
    for y in 0..m.vars.len() {
        for x in 0..y {
            if out.iter().any(|g| g.var == x || g.var == y || g.into == y) {
                continue;
            }
            let (vx, vy) = (&m.vars[x], &m.vars[y]);
            if vx.dims != vy.dims || vx.kind == VarKind::Const || vy.kind == VarKind::Const {
                continue;
            }
            let negs: &[bool] = match (vx.ty, vy.ty) {
                (Ty::Bool, Ty::Bool) => &[false, true],
                (a, b) if a == b => &[false],
                _ => continue,
            };
            for &negated in negs {
                let g = Merge {
                    var: y,
                    into: x,
                    negated,
                };
                if steps_agree(m, dropped, &g) && inits_agree(m, &g, sizes) {
                    out.push(g);
                    break;
                }
            }
        }
    }
    out
}

/// Reads of Y become reads of X (negated for a negation); the locals of `map` renamed.
struct AsX<'a> {
    g: &'a Merge,
    map: &'a [(LocalId, LocalId)],
}

impl Rewrite for AsX<'_> {
    type Error = std::convert::Infallible;
    fn local(&self, id: LocalId) -> Result<Expr, Self::Error> {
        Ok(Expr::Local(self.bound(id)))
    }
    fn bound(&self, var: LocalId) -> LocalId {
        self.map.iter().find(|p| p.0 == var).map_or(var, |p| p.1)
    }
    fn read(&self, v: VarId, ix: Vec<Expr>) -> Result<Expr, Self::Error> {
        Ok(if v == self.g.var {
            let r = Expr::Read(self.g.into, ix);
            if self.g.negated {
                Expr::Not(Box::new(r))
            } else {
                r
            }
        } else {
            Expr::Read(v, ix)
        })
    }
}

fn as_x(e: &Expr, g: &Merge, map: &[(LocalId, LocalId)]) -> Expr {
    e.rewrite(&AsX { g, map })
        .unwrap_or_else(|n: std::convert::Infallible| match n {})
}

/// Every transition writes Y where and as it writes X.
fn steps_agree(m: &Model, dropped: &[(usize, Dropped)], g: &Merge) -> bool {
    let mut wx: Vec<Vec<&Update>> = vec![Vec::new(); m.transitions.len()];
    let mut wy = wx.clone();
    for (t, u) in writes(m, dropped, g.into) {
        wx[t].push(u);
    }
    for (t, u) in writes(m, dropped, g.var) {
        wy[t].push(u);
    }
    wx.iter()
        .zip(&wy)
        .all(|(ux, uy)| ux.len() == uy.len() && ux.iter().zip(uy).all(|(a, b)| same(a, b, g)))
}

/// Update `uy` of Y writes the cell that `ux` writes of X, with the value of X's.
fn same(ux: &Update, uy: &Update, g: &Merge) -> bool {
    let mut map = Vec::new();
    for (a, b) in ux.index.iter().zip(&uy.index) {
        match (a, b) {
            (Index::Bind(p), Index::Bind(q)) => map.push((*q, *p)),
            (Index::Term(_), Index::Term(_)) => {}
            _ => return false,
        }
    }
    let none: &[(LocalId, LocalId)] = &[];
    for (a, b) in ux.index.iter().zip(&uy.index) {
        if let (Index::Term(a), Index::Term(b)) = (a, b)
            && as_x(a, g, none) != as_x(b, g, &map)
        {
            return false;
        }
    }
    let (UpdValue::Term(a), UpdValue::Term(b)) = (&ux.value, &uy.value) else {
        return false;
    };
    let (a, b) = (as_x(a, g, none), as_x(b, g, &map));
    if !g.negated {
        return a == b;
    }
    match (&a, &b) {
        (Expr::Const(p, Ty::Bool), Expr::Const(q, Ty::Bool)) => p != q,
        (Expr::Not(p), q) | (q, Expr::Not(p)) => **p == *q,
        _ => false,
    }
}

/// Every solution of the `init` conjuncts that read only X and Y has Y = X (or its
/// negation), at each size.
fn inits_agree(m: &Model, g: &Merge, sizes: &[usize]) -> bool {
    let sub = super::consts::inits_of(m, &[g.into, g.var]);
    sizes.iter().all(|&n| {
        let inst = Instance::new(&sub, n);
        let (lx, ly) = (&inst.vars[0], &inst.vars[1]);
        let mut ok = true;
        let mut seen = 0;
        let r = for_each_initial(&inst, &mut |s| {
            seen += 1;
            ok &= (0..lx.cells).all(|c| {
                let (a, b) = (s[lx.base + c], s[ly.base + c]);
                if g.negated { a != b } else { a == b }
            });
            ok && seen < MAX_SOLUTIONS
        });
        r.is_ok() && ok && seen < MAX_SOLUTIONS
    })
}

/// Read Y as X everywhere and drop Y's updates.
pub fn substitute(m: &mut Model, g: &Merge) {
    for t in &mut m.transitions {
        t.updates.retain(|u| u.var != g.var);
    }
    let mut f = |e: &Expr| as_x(e, g, &[]);
    rewrite_all(m, &mut f);
}
