//! Which expressions can meet a range error, decided from the text and the types
//! alone: a small interval analysis (Cousot and Cousot's intervals, with the
//! refinements of `if`, `&&`, `||`, `=>` and a transition's guard). The reduction may
//! drop an expression only where evaluating it can never fail, since a range error
//! is reported and a failing instance does not fire: a cell whose updates might fail
//! stays in the cone. The analysis is conservative: "cannot fail" is a proof, "may
//! fail" is only a failure to find one.

use crate::model::ir::*;

/// Closed integer intervals, wide enough for sums and products of `i64` bounds.
type Iv = (i128, i128);

/// What is known of atoms (locals and cell reads, compared structurally) on the path
/// to an expression: the facts of the enclosing guard and conditions.
#[derive(Clone, Default)]
struct Facts(Vec<(Expr, Iv)>);

impl Facts {
    fn get(&self, e: &Expr) -> Option<Iv> {
        self.0.iter().rev().find(|(x, _)| x == e).map(|x| x.1)
    }

    fn narrow(&mut self, e: &Expr, iv: Iv) {
        self.0.push((e.clone(), iv));
    }
}

/// The interval analysis of one model at one size, or at every size at once (where
/// the number of processes, and the bounds that depend on it, are unknown).
pub struct Ranges<'m> {
    m: &'m Model,
    /// The size, `None` for every size.
    n: Option<i64>,
    /// The bounds of each range type (`None`: they depend on the unknown size).
    ranges: Vec<Option<(i64, i64)>>,
}

impl<'m> Ranges<'m> {
    pub fn new(m: &'m Model, n: usize) -> Ranges<'m> {
        let ranges = m
            .ranges
            .iter()
            .map(|r| Some((r.lo.eval(n as i64), r.hi.eval(n as i64))))
            .collect();
        Ranges {
            m,
            n: Some(n as i64),
            ranges,
        }
    }

    /// The analysis for every size: what it proves holds at every n.
    pub fn every(m: &'m Model) -> Ranges<'m> {
        let ranges = m
            .ranges
            .iter()
            .map(|r| (!r.lo.uses_size() && !r.hi.uses_size()).then(|| (r.lo.eval(0), r.hi.eval(0))))
            .collect();
        Ranges { m, n: None, ranges }
    }

    /// The values of type `t` (`None`: unbounded, the type of literals and sums, or
    /// bounds that depend on an unknown size).
    fn ty(&self, t: Ty) -> Option<Iv> {
        Some(match t {
            Ty::Bool => (0, 1),
            Ty::Enum(e) => (0, self.m.enums[e].ctors.len() as i128 - 1),
            Ty::Proc => (1, self.n? as i128),
            Ty::Range(r) => {
                let (lo, hi) = self.ranges[r]?;
                (lo as i128, hi as i128)
            }
            Ty::Int => return None,
        })
    }

    /// The values a cell of type `t` holds (a `proc` cell may hold the extra id).
    fn cell(&self, t: Ty) -> Option<Iv> {
        match t {
            Ty::Proc => Some((self.m.proc_value_lo() as i128, self.n? as i128)),
            t => self.ty(t),
        }
    }

    /// Whether `x` is a value of dimension `d` whatever the size: a process bound by
    /// a parameter, a quantifier or an update's index (of type `proc`), or a value of
    /// type `d` by its bounds.
    fn in_dim(&self, locals: &[Local], f: &Facts, x: &Expr, d: Ty) -> bool {
        if let Expr::Local(id) = x
            && locals[*id].ty == d
        {
            return true;
        }
        self.fits(locals, f, x, d, self.ty(d), false)
    }

    /// Whether `e`'s value lies in `iv`, the values of type `t` (of a cell of type `t`
    /// when `cell`: a `proc` cell may hold the extra id). A type whose bounds depend on
    /// the unknown size (`proc`, or a range type with `N` in a bound) has no interval
    /// (`iv` is `None` there as for `int`, which never fails): only a copy of a value
    /// of that type is proved to fit.
    fn fits(
        &self,
        locals: &[Local],
        f: &Facts,
        e: &Expr,
        t: Ty,
        iv: Option<Iv>,
        cell: bool,
    ) -> bool {
        let unknown = match t {
            Ty::Range(r) => self.ranges[r].is_none(),
            Ty::Proc => self.n.is_none(),
            _ => false,
        };
        if !unknown {
            return within(self.bounds(locals, f, e), iv);
        }
        match e {
            Expr::Local(id) => locals[*id].ty == t,
            Expr::Read(v, _) => {
                self.m.vars[*v].ty == t && (cell || t != Ty::Proc || self.m.extra_proc.is_none())
            }
            Expr::Ite(c, a, b, _) => {
                self.fits(locals, &self.assume(locals, f, c, true), a, t, iv, cell)
                    && self.fits(locals, &self.assume(locals, f, c, false), b, t, iv, cell)
            }
            _ => false,
        }
    }

    /// Bounds of `e`'s value, or `None`.
    fn bounds(&self, locals: &[Local], f: &Facts, e: &Expr) -> Option<Iv> {
        if let Some(iv) = f.get(e) {
            return Some(iv);
        }
        match e {
            Expr::Const(v, _) => Some((*v as i128, *v as i128)),
            Expr::Size => self.n.map(|n| (n as i128, n as i128)),
            Expr::Local(id) => self.ty(locals[*id].ty),
            Expr::Read(v, _) => self.cell(self.m.vars[*v].ty),
            Expr::Arith(op, a, b) => {
                let (a, b) = (self.bounds(locals, f, a)?, self.bounds(locals, f, b)?);
                Some(match op {
                    ArithOp::Add => (a.0 + b.0, a.1 + b.1),
                    ArithOp::Sub => (a.0 - b.1, a.1 - b.0),
                    ArithOp::Mul => {
                        let p = [a.0 * b.0, a.0 * b.1, a.1 * b.0, a.1 * b.1];
                        (*p.iter().min()?, *p.iter().max()?)
                    }
                })
            }
            Expr::Ite(c, a, b, _) => {
                let (ft, ff) = (
                    self.assume(locals, f, c, true),
                    self.assume(locals, f, c, false),
                );
                let (a, b) = (self.bounds(locals, &ft, a)?, self.bounds(locals, &ff, b)?);
                Some((a.0.min(b.0), a.1.max(b.1)))
            }
            _ => Some((0, 1)),
        }
    }

    /// `f` and what `c` being `truth` says of its atoms.
    fn assume(&self, locals: &[Local], f: &Facts, c: &Expr, truth: bool) -> Facts {
        let mut out = f.clone();
        self.learn(locals, &mut out, c, truth);
        out
    }

    fn learn(&self, locals: &[Local], f: &mut Facts, c: &Expr, truth: bool) {
        match (c, truth) {
            (Expr::And(xs), true) | (Expr::Or(xs), false) => {
                for x in xs {
                    self.learn(locals, f, x, truth);
                }
            }
            (Expr::Not(a), t) => self.learn(locals, f, a, !t),
            (Expr::Cmp(op, a, b), t) => {
                let op = if t { *op } else { negate(*op) };
                self.learn_cmp(locals, f, op, a, b);
                self.learn_cmp(locals, f, op.flip(), b, a);
            }
            _ => {}
        }
    }

    /// `x op k` with k's bounds known: narrow x (a local or a read).
    fn learn_cmp(&self, locals: &[Local], f: &mut Facts, op: CmpOp, x: &Expr, k: &Expr) {
        if !matches!(x, Expr::Local(_) | Expr::Read(..)) {
            return;
        }
        let (Some(xi), Some(ki)) = (self.bounds(locals, f, x), self.bounds(locals, f, k)) else {
            return;
        };
        let iv = match op {
            CmpOp::Eq => (xi.0.max(ki.0), xi.1.min(ki.1)),
            CmpOp::Lt => (xi.0, xi.1.min(ki.1 - 1)),
            CmpOp::Le => (xi.0, xi.1.min(ki.1)),
            CmpOp::Gt => (xi.0.max(ki.0 + 1), xi.1),
            CmpOp::Ge => (xi.0.max(ki.0), xi.1),
            CmpOp::Ne if ki.0 == ki.1 && ki.0 == xi.0 => (xi.0 + 1, xi.1),
            CmpOp::Ne if ki.0 == ki.1 && ki.0 == xi.1 => (xi.0, xi.1 - 1),
            CmpOp::Ne => return,
        };
        f.narrow(x, iv);
    }

    /// Whether evaluating `e` (in the order and with the short-circuits of the
    /// interpreter) may meet a range error, given facts `f`.
    fn fails(&self, locals: &[Local], f: &Facts, e: &Expr) -> bool {
        match e {
            Expr::Const(..) | Expr::Size | Expr::Local(_) => false,
            Expr::Read(v, ix) => {
                let dims = &self.m.vars[*v].dims;
                ix.iter()
                    .zip(dims)
                    .any(|(x, &d)| self.fails(locals, f, x) || !self.in_dim(locals, f, x, d))
            }
            Expr::Arith(_, a, b) => {
                self.fails(locals, f, a)
                    || self.fails(locals, f, b)
                    || !within(
                        self.bounds(locals, f, e),
                        Some((i64::MIN as i128, i64::MAX as i128)),
                    )
            }
            Expr::Cmp(..) | Expr::Iff(..) | Expr::Not(_) | Expr::Quant(_) => {
                e.any_child(|x| self.fails(locals, f, x))
            }
            Expr::And(xs) | Expr::Or(xs) => {
                let and = matches!(e, Expr::And(_));
                let mut g = f.clone();
                for x in xs {
                    if self.fails(locals, &g, x) {
                        return true;
                    }
                    // The next operand is evaluated only when this one did not decide.
                    self.learn(locals, &mut g, x, and);
                }
                false
            }
            Expr::Imp(a, b) => {
                self.fails(locals, f, a) || self.fails(locals, &self.assume(locals, f, a, true), b)
            }
            Expr::Ite(c, a, b, _) => {
                self.fails(locals, f, c)
                    || self.fails(locals, &self.assume(locals, f, c, true), a)
                    || self.fails(locals, &self.assume(locals, f, c, false), b)
            }
        }
    }

    /// Whether `e` evaluates without failing to a value of type `t`.
    pub fn within_type(&self, locals: &[Local], e: &Expr, t: Ty) -> bool {
        let f = Facts::default();
        !self.fails(locals, &f, e) && self.in_dim(locals, &f, e, t)
    }

    /// Whether evaluating formula `e` of an item with locals `locals` may fail.
    pub fn may_fail(&self, locals: &[Local], e: &Expr) -> bool {
        self.fails(locals, &Facts::default(), e)
    }

    /// Whether update `u` of transition `t` may fail once the guard holds: an index or
    /// the value evaluated out of range, a value outside the cell's type, or (`any`) no
    /// candidate, which disables the instance.
    pub fn update_may_fail(&self, t: &Transition, u: &Update) -> bool {
        let f = self.assume(&t.locals, &Facts::default(), &t.guard, true);
        let dims = &self.m.vars[u.var].dims;
        let index = u.index.iter().zip(dims).any(|(x, &d)| match x {
            Index::Term(x) => self.fails(&t.locals, &f, x) || !self.in_dim(&t.locals, &f, x, d),
            Index::Bind(_) => false,
        });
        let cell = self.cell(self.m.vars[u.var].ty);
        index
            || match &u.value {
                UpdValue::Term(e) => {
                    let ty = self.m.vars[u.var].ty;
                    self.fails(&t.locals, &f, e) || !self.fits(&t.locals, &f, e, ty, cell, true)
                }
                UpdValue::Nondet => false,
                UpdValue::Any { .. } => true,
            }
    }
}

/// The first place of `m` where a range error may occur at some size, as the analysis
/// for every size sees it (`None`: none can, at any size): an `init`, a property, a
/// guard or an update, and where.
pub fn first_range_error(m: &Model) -> Option<(String, crate::source::Span)> {
    let r = Ranges::every(m);
    for i in &m.inits {
        if r.may_fail(&i.locals, &i.body) {
            return Some(("`init`".into(), i.span));
        }
    }
    for u in &m.unsafes {
        if r.may_fail(&u.locals, &u.body) {
            return Some((format!("`{} {}`", u.kind.keyword(), u.name), u.span));
        }
    }
    for t in &m.transitions {
        if r.may_fail(&t.locals, &t.guard) {
            return Some((format!("the guard of `{}`", t.name), t.span));
        }
        if let Some(u) = t.updates.iter().find(|u| r.update_may_fail(t, u)) {
            let what = format!("the update of `{}` in `{}`", m.vars[u.var].name, t.name);
            return Some((what, u.span));
        }
    }
    None
}

fn within(x: Option<Iv>, t: Option<Iv>) -> bool {
    match (x, t) {
        (Some(x), Some(t)) => x.0 > x.1 || (t.0 <= x.0 && x.1 <= t.1),
        (_, None) => true,
        (None, Some(_)) => false,
    }
}

fn negate(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
        CmpOp::Ge => CmpOp::Lt,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::load_str;

    fn model() -> Model {
        load_str(
            "t.cub",
            "type s = A | B\nvar K : 0 .. 7\narray D[proc] : 0 .. 3\narray M[1 .. 6] : s\nvar P : 1 .. 6\n\
             init () { K = 0 }\nunsafe () { K = 9 }\n\
             transition wrap (i) { K := if K = 7 then 0 else K + 1; }\n\
             transition over (i) { K := K + 1; }\n\
             transition guarded (i) requires { D[i] < 3 } { D[i] := D[i] + 1; }\n\
             transition cursor (i) { M[P] := B; P := if P < 6 then P + 1 else 1; }\n\
             transition beyond (i) { M[P + 1] := A; }\n",
        )
        .unwrap()
    }

    fn fails(m: &Model, t: &str) -> Vec<bool> {
        let r = Ranges::new(m, 3);
        let t = &m.transitions[m.transition_by_name(t).unwrap()];
        t.updates.iter().map(|u| r.update_may_fail(t, u)).collect()
    }

    #[test]
    fn at_every_size_processes_index_by_their_type() {
        let m = model();
        let r = Ranges::every(&m);
        let t = &m.transitions[m.transition_by_name("guarded").unwrap()];
        assert!(!r.update_may_fail(t, &t.updates[0]));
        let t = &m.transitions[m.transition_by_name("wrap").unwrap()];
        assert!(!r.update_may_fail(t, &t.updates[0]));
    }

    #[test]
    fn at_every_size_bounds_that_depend_on_n_prove_only_copies() {
        let m = load_str(
            "t.cub",
            "var T : 0 .. N\nvar U : 0 .. N\nvar P : proc\narray A[proc] : bool\n\
             init () { T = 0 }\nunsafe () { T = 9 }\n\
             transition inc (i) { T := T + 1; }\n\
             transition copy (i) { T := U; }\n\
             transition lit (i) { T := 0; }\n\
             transition next (i) { P := i + 1; }\n\
             transition own (i) { P := i; A[3] := True; }\n",
        )
        .unwrap();
        let r = Ranges::every(&m);
        let fails = |t: &str| {
            let t = &m.transitions[m.transition_by_name(t).unwrap()];
            t.updates
                .iter()
                .map(|u| r.update_may_fail(t, u))
                .collect::<Vec<_>>()
        };
        assert_eq!(fails("inc"), [true]);
        // `U` is of another type with the same bounds: not proved.
        assert_eq!(fails("copy"), [true]);
        assert_eq!(fails("lit"), [true]);
        assert_eq!(fails("next"), [true]);
        // `A[3]` fails at sizes 1 and 2.
        assert_eq!(fails("own"), [false, true]);
    }

    #[test]
    fn stores_proved_in_range_by_their_conditions_and_guards() {
        let m = model();
        assert_eq!(fails(&m, "wrap"), [false]);
        assert_eq!(fails(&m, "over"), [true]);
        assert_eq!(fails(&m, "guarded"), [false]);
        assert_eq!(fails(&m, "cursor"), [false, false]);
        assert_eq!(fails(&m, "beyond"), [true]);
    }
}
