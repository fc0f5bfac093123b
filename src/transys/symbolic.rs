//! Symbolic evaluation of IR expressions over a frame: the SAT counterpart of the
//! reference interpreter. Every expression gives its value and an error literal that is
//! true exactly when the interpreter would meet a range error evaluating it (same
//! left-to-right order, same short-circuits), so the encoding and the interpreter agree
//! on which runs fail and where. Locals are constants: parameters are fixed per
//! transition instance and quantifiers are unrolled.

use super::aggregate::Agg;
use super::frame::Frame;
use super::term::{self, Term};
use crate::model::instance::Instance;
use crate::model::ir::*;
use crate::sat::Lit;
use crate::sat::circuit::{Circuit, FALSE, TRUE};

/// An evaluator over one frame.
pub struct Symbolic<'x, 'm> {
    pub inst: &'x Instance<'m>,
    pub c: &'x mut Circuit,
    pub frame: &'x mut Frame,
    /// The aggregate context, when evaluating over the aggregate family.
    pub agg: Option<&'x Agg>,
    /// In the aggregate: the evaluation only matters when slots 1..=floor are present
    /// (a transition's or tuple's parameters, a quantifier's instance), so those slots
    /// count as present and smaller widths as impossible.
    pub floor: usize,
}

impl Symbolic<'_, '_> {
    /// Binds the parameters `tuple` (the first of `locals` locals) for an evaluation:
    /// `floor` becomes the largest of them, and the result is whether the tuple's
    /// processes are present (TRUE outside the aggregate) and the environment.
    pub fn bind(&mut self, locals: usize, tuple: &[i64]) -> (Lit, Vec<i64>) {
        let pres = match self.agg {
            Some(a) => a.all_present(tuple),
            None => TRUE,
        };
        self.floor = tuple.iter().copied().max().unwrap_or(0) as usize;
        let mut env = vec![0; locals.max(tuple.len())];
        env[..tuple.len()].copy_from_slice(tuple);
        (pres, env)
    }

    /// The instances of `body` (an item with `locals` locals) at `tuples`, in order, as
    /// operands `(skip, value, error)` of a conjunction (`and_`) or disjunction, pushed
    /// on `items`; a tuple of absent processes is skipped. True when an instance of
    /// present processes decided the junction (a constant, without error), the ones
    /// after it never being evaluated.
    pub fn instances(
        &mut self,
        locals: usize,
        body: &Expr,
        tuples: Vec<Vec<i64>>,
        and_: bool,
        items: &mut Vec<(Lit, Lit, Lit)>,
    ) -> bool {
        for tuple in tuples {
            let (pres, mut env) = self.bind(locals, &tuple);
            if pres == FALSE {
                continue;
            }
            let (v, e) = self.formula(&mut env, body);
            items.push((-pres, v, e));
            if pres == TRUE && e == FALSE && v == if and_ { FALSE } else { TRUE } {
                return true;
            }
        }
        false
    }

    /// A formula's truth and error literals.
    pub fn formula(&mut self, env: &mut [i64], e: &Expr) -> (Lit, Lit) {
        match e {
            Expr::And(xs) => self.junction(env, xs.iter(), true),
            Expr::Or(xs) => self.junction(env, xs.iter(), false),
            Expr::Not(a) => {
                let (v, err) = self.formula(env, a);
                (-v, err)
            }
            Expr::Imp(a, b) => {
                let (va, ea) = self.formula(env, a);
                if va == FALSE && ea == FALSE {
                    return (TRUE, FALSE);
                }
                let (vb, eb) = self.formula(env, b);
                let reach_b = self.c.and(&[-ea, va]);
                let late = self.c_and(reach_b, eb);
                let err = self.c.or2(ea, late);
                (self.c.or2(-va, vb), err)
            }
            Expr::Iff(a, b) => {
                let (va, ea) = self.formula(env, a);
                let (vb, eb) = self.formula(env, b);
                (self.c.iff(va, vb), self.c.or2(ea, eb))
            }
            Expr::Cmp(op, a, b) => {
                let (ta, ea) = self.term(env, a);
                let (tb, eb) = self.term(env, b);
                (term::cmp(self.c, *op, &ta, &tb), self.c.or2(ea, eb))
            }
            Expr::Quant(q) => self.quant(env, q),
            _ => {
                let (t, err) = self.term(env, e);
                (t.truth(self.c), err)
            }
        }
    }

    fn c_and(&mut self, a: Lit, b: Lit) -> Lit {
        self.c.and2(a, b)
    }

    /// `&&` (and_ = true) or `||` evaluated left to right, stopping early.
    fn junction<'e>(
        &mut self,
        env: &mut [i64],
        xs: impl Iterator<Item = &'e Expr>,
        and_: bool,
    ) -> (Lit, Lit) {
        let mut items = Vec::new();
        for x in xs {
            let (v, e) = self.formula(env, x);
            items.push((FALSE, v, e));
            // A constant deciding operand: the ones after it are never evaluated.
            if e == FALSE && v == if and_ { FALSE } else { TRUE } {
                break;
            }
        }
        self.combine(&items, and_)
    }

    /// Combine operands `(skip, value, error)` of a conjunction (`and_`) or
    /// disjunction evaluated in order; an operand whose `skip` holds is left out (an
    /// excluded quantifier instance). The value is only meaningful without error, so it
    /// is one n-ary gate; the error follows the evaluation order: operand k fails when it
    /// is reached (every earlier one skipped or neither failing nor deciding) and fails.
    pub fn combine(&mut self, items: &[(Lit, Lit, Lit)], and_: bool) -> (Lit, Lit) {
        // Operands sharing a skip literal are joined first (in the aggregate many
        // share one presence condition).
        let mut groups: Vec<(Lit, Vec<Lit>)> = Vec::new();
        for &(skip, v, _) in items {
            match groups.iter_mut().find(|g| g.0 == skip) {
                Some(g) => g.1.push(v),
                None => groups.push((skip, vec![v])),
            }
        }
        let vals: Vec<Lit> = groups
            .into_iter()
            .map(|(skip, vs)| {
                if and_ {
                    let all = self.c.and(&vs);
                    self.c.or2(skip, all)
                } else {
                    let any = self.c.or(&vs);
                    self.c.and2(-skip, any)
                }
            })
            .collect();
        let val = if and_ {
            self.c.and(&vals)
        } else {
            self.c.or(&vals)
        };
        let Some(last) = items.iter().rposition(|x| x.2 != FALSE) else {
            return (val, FALSE);
        };
        let mut reach = TRUE;
        let mut errs = Vec::new();
        for &(skip, v, e) in &items[..=last] {
            errs.push(self.c.and(&[reach, -skip, e]));
            let deciding = if and_ { -v } else { v };
            let cont = self.c.and2(-e, -deciding);
            let go_on = self.c.or2(skip, cont);
            reach = self.c.and2(reach, go_on);
            if reach == FALSE {
                break;
            }
        }
        (val, self.c.or(&errs))
    }

    fn quant(&mut self, env: &mut [i64], q: &Quant) -> (Lit, Lit) {
        let (forall, var, body) = (q.forall, q.var, &*q.body);
        match &q.dom {
            Domain::Type(t) => {
                let (lo, hi) = self.inst.domain(*t);
                // In the aggregate, a range's values depend on the width.
                let bodies: Vec<(i64, &Expr, Lit)> = (lo..=hi)
                    .map(|v| {
                        let absent = match self.agg {
                            Some(a) => -a.index_exists(self.c, *t, v, self.floor),
                            None => FALSE,
                        };
                        (v, body, absent)
                    })
                    .collect();
                self.unrolled(env, var, &bodies, &[], forall, false)
            }
            Domain::Procs { except } => {
                let mut ex = Vec::new();
                let mut ex_err = Vec::new();
                for x in except {
                    let (t, e) = self.term(env, x);
                    ex.push(t);
                    ex_err.push(e);
                }
                let floor = self.floor;
                let bodies: Vec<(i64, &Expr, Lit)> = (1..=self.inst.n as i64)
                    .map(|p| {
                        (
                            p,
                            body,
                            self.agg
                                .map(|a| -a.present_above(p, floor))
                                .unwrap_or(FALSE),
                        )
                    })
                    .collect();
                let (v, e) = self.unrolled(env, var, &bodies, &ex, forall, true);
                let pre = self.c.or(&ex_err);
                (v, self.c.or2(pre, e))
            }
        }
    }

    /// A quantifier as a junction over its instances; instance p is skipped when it
    /// equals one of the (possibly symbolic) excepted values or when its literal
    /// `absent` holds (an absent process, a range value missing at the width).
    fn unrolled(
        &mut self,
        env: &mut [i64],
        var: LocalId,
        bodies: &[(i64, &Expr, Lit)],
        except: &[Term],
        forall: bool,
        procs: bool,
    ) -> (Lit, Lit) {
        let mut items = Vec::new();
        for &(p, body, absent) in bodies {
            let mut hits: Vec<Lit> = except.iter().map(|t| t.cond(self.c, p)).collect();
            hits.push(absent);
            let skip = self.c.or(&hits);
            if skip == TRUE {
                continue;
            }
            env[var] = p;
            // The body matters only when p is present (else the instance is skipped).
            let saved = self.floor;
            if procs {
                self.floor = self.floor.max(p as usize);
            }
            let (v, e) = self.formula(env, body);
            self.floor = saved;
            items.push((skip, v, e));
            if skip == FALSE && e == FALSE && v == if forall { FALSE } else { TRUE } {
                break;
            }
        }
        self.combine(&items, forall)
    }

    /// The cells an indexed access may denote, with their conditions, and the error of
    /// evaluating the indices or of an index out of range.
    pub fn cells(&mut self, env: &mut [i64], var: VarId, idx: &[Expr]) -> (Vec<(usize, Lit)>, Lit) {
        let mut terms = Vec::with_capacity(idx.len());
        let mut errs = Vec::new();
        for x in idx {
            let (t, e) = self.term(env, x);
            terms.push(t);
            errs.push(e);
        }
        let mut combos: Vec<(Vec<i64>, Lit)> = vec![(Vec::new(), TRUE)];
        for t in &terms {
            let alts = t.flatten(self.c);
            let mut next = Vec::with_capacity(combos.len() * alts.len());
            for (vals, cond) in &combos {
                for &(v, cv) in &alts {
                    let c2 = self.c.and2(*cond, cv);
                    if c2 != FALSE {
                        let mut vs = vals.clone();
                        vs.push(v);
                        next.push((vs, c2));
                    }
                }
            }
            combos = next;
        }
        let mut out = Vec::new();
        for (vals, cond) in combos {
            match self.inst.slot_of(var, &vals) {
                Some(s) => {
                    // In the aggregate the cell must exist at the state's width.
                    let exists = match self.agg {
                        Some(a) => {
                            let dims = &self.inst.model.vars[var].dims;
                            let ok: Vec<Lit> = vals
                                .iter()
                                .zip(dims)
                                .map(|(&v, &t)| a.index_exists(self.c, t, v, self.floor))
                                .collect();
                            self.c.and(&ok)
                        }
                        None => TRUE,
                    };
                    // A missing cell is an error; the cell stays a candidate (its value
                    // or write only matters without error).
                    let missing = self.c.and2(cond, -exists);
                    errs.push(missing);
                    out.push((s, cond));
                }
                None => errs.push(cond),
            }
        }
        (out, self.c.or(&errs))
    }

    /// The condition that a value of type `ty` is out of range: outside `lo..=hi`, or
    /// in the aggregate outside the type's values at the state's width.
    pub fn outside_type(&mut self, ty: Ty, t: &Term, lo: i64, hi: i64) -> Lit {
        if let Some(a) = self.agg
            && let Some(l) = a.outside_at_width(self.c, ty, t, self.floor)
        {
            return l;
        }
        t.outside(self.c, lo, hi)
    }

    /// A term's value and error literals.
    pub fn term(&mut self, env: &mut [i64], e: &Expr) -> (Term, Lit) {
        match e {
            Expr::Const(v, _) => (Term::constant(*v), FALSE),
            Expr::Size => match self.agg {
                Some(a) => (a.width_term(self.floor), FALSE),
                None => (Term::constant(self.inst.n as i64), FALSE),
            },
            Expr::Local(id) => (Term::constant(env[*id]), FALSE),
            Expr::Read(var, idx) => {
                let (cells, err) = self.cells(env, *var, idx);
                // One candidate cell: its value (meaningful only without error).
                if let [(s, _)] = cells.as_slice() {
                    return (self.frame.term(self.c, self.inst, *s), err);
                }
                let alts: Vec<(Lit, Term)> = cells
                    .into_iter()
                    .map(|(s, cond)| (cond, self.frame.term(self.c, self.inst, s)))
                    .collect();
                (Term::Mux(alts), err)
            }
            Expr::Arith(op, a, b) => {
                let (ta, ea) = self.term(env, a);
                let (tb, eb) = self.term(env, b);
                let (t, overflow) = term::arith(self.c, *op, &ta, &tb);
                (t, self.c.or(&[ea, eb, overflow]))
            }
            Expr::Ite(cond, a, b, _) => {
                let (vc, ec) = self.formula(env, cond);
                let (ta, ea) = self.term(env, a);
                let (tb, eb) = self.term(env, b);
                let t = term::ite(vc, &ta, &tb);
                let then_err = self.c.and(&[-ec, vc, ea]);
                let else_err = self.c.and(&[-ec, -vc, eb]);
                (t, self.c.or(&[ec, then_err, else_err]))
            }
            _ => {
                let (v, err) = self.formula(env, e);
                (Term::boolean(v), err)
            }
        }
    }
}
