//! Symbolic values for the SAT encoding. A `Term` is a list of alternatives
//! `(value, condition)`, sorted by value, whose conditions are pairwise exclusive and,
//! wherever the term is meaningful (no range error), exhaustive. Equality, order,
//! arithmetic and case splits work alternative by alternative, so the same code serves
//! binary and one-hot state encodings and any finite domain.

use crate::model::ir::{ArithOp, CmpOp};
use crate::sat::Lit;
use crate::sat::circuit::{Circuit, FALSE, TRUE};

/// A symbolic value: `(value, condition)` alternatives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term(pub Vec<(i64, Lit)>);

impl Term {
    pub fn constant(v: i64) -> Term {
        Term(vec![(v, TRUE)])
    }

    /// A formula as a 0/1 term.
    pub fn boolean(l: Lit) -> Term {
        match l {
            TRUE => Term::constant(1),
            FALSE => Term::constant(0),
            _ => Term(vec![(0, -l), (1, l)]),
        }
    }

    pub fn as_const(&self) -> Option<i64> {
        match self.0.as_slice() {
            [(v, TRUE)] => Some(*v),
            _ => None,
        }
    }

    /// The condition under which the term has value `v`.
    pub fn cond(&self, v: i64) -> Lit {
        match self.0.binary_search_by_key(&v, |a| a.0) {
            Ok(k) => self.0[k].1,
            Err(_) => FALSE,
        }
    }

    /// Non-zero (a formula's truth).
    pub fn truth(&self, c: &mut Circuit) -> Lit {
        if let Some(v) = self.as_const() {
            return if v != 0 { TRUE } else { FALSE };
        }
        if self.0.len() == 2 && self.0[0].0 == 0 && self.0[0].1 == -self.0[1].1 {
            return self.0[1].1;
        }
        let nz: Vec<Lit> = self.0.iter().filter(|a| a.0 != 0).map(|a| a.1).collect();
        c.or(&nz)
    }

    /// The condition that the value lies outside `lo..=hi`.
    pub fn outside(&self, c: &mut Circuit, lo: i64, hi: i64) -> Lit {
        let out: Vec<Lit> = self
            .0
            .iter()
            .filter(|a| a.0 < lo || a.0 > hi)
            .map(|a| a.1)
            .collect();
        c.or(&out)
    }
}

/// A term from alternatives whose values may repeat (their conditions are joined).
pub fn collect(c: &mut Circuit, mut alts: Vec<(i64, Lit)>) -> Term {
    alts.retain(|a| a.1 != FALSE);
    alts.sort_by_key(|a| a.0);
    let mut out: Vec<(i64, Lit)> = Vec::with_capacity(alts.len());
    let mut k = 0;
    while k < alts.len() {
        let v = alts[k].0;
        let mut j = k;
        while j < alts.len() && alts[j].0 == v {
            j += 1;
        }
        let conds: Vec<Lit> = alts[k..j].iter().map(|a| a.1).collect();
        let cond = if conds.len() == 1 {
            conds[0]
        } else {
            c.or(&conds)
        };
        if cond != FALSE {
            out.push((v, cond));
        }
        k = j;
    }
    Term(out)
}

/// `a = b`.
pub fn eq(c: &mut Circuit, a: &Term, b: &Term) -> Lit {
    if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
        return if x == y { TRUE } else { FALSE };
    }
    if let Some(x) = a.as_const() {
        return b.cond(x);
    }
    if let Some(y) = b.as_const() {
        return a.cond(y);
    }
    let mut hits = Vec::new();
    for &(v, ca) in &a.0 {
        let cb = b.cond(v);
        if cb != FALSE {
            hits.push(c.and2(ca, cb));
        }
    }
    c.or(&hits)
}

/// `a op b` for a comparison.
pub fn cmp(c: &mut Circuit, op: CmpOp, a: &Term, b: &Term) -> Lit {
    match op {
        CmpOp::Eq => return eq(c, a, b),
        CmpOp::Ne => return -eq(c, a, b),
        _ => {}
    }
    let mut hits = Vec::new();
    for &(va, ca) in &a.0 {
        for &(vb, cb) in &b.0 {
            if op.apply(va, vb) {
                hits.push(c.and2(ca, cb));
            }
        }
    }
    c.or(&hits)
}

/// `a op b` for arithmetic, and the condition of an overflow.
pub fn arith(c: &mut Circuit, op: ArithOp, a: &Term, b: &Term) -> (Term, Lit) {
    let mut alts = Vec::new();
    let mut overflow = Vec::new();
    for &(va, ca) in &a.0 {
        for &(vb, cb) in &b.0 {
            let cond = c.and2(ca, cb);
            let r = match op {
                ArithOp::Add => va.checked_add(vb),
                ArithOp::Sub => va.checked_sub(vb),
                ArithOp::Mul => va.checked_mul(vb),
            };
            match r {
                Some(v) => alts.push((v, cond)),
                None => overflow.push(cond),
            }
        }
    }
    let t = collect(c, alts);
    (t, c.or(&overflow))
}

/// `if cond then a else b`.
pub fn ite(c: &mut Circuit, cond: Lit, a: &Term, b: &Term) -> Term {
    if cond == TRUE || a == b {
        return a.clone();
    }
    if cond == FALSE {
        return b.clone();
    }
    let mut alts = Vec::with_capacity(a.0.len() + b.0.len());
    for &(v, ca) in &a.0 {
        alts.push((v, c.and2(cond, ca)));
    }
    for &(v, cb) in &b.0 {
        alts.push((v, c.and2(-cond, cb)));
    }
    collect(c, alts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn term_operations() {
        let mut c = Circuit::new();
        let x = c.var();
        let t = Term(vec![(1, -x), (2, x)]);
        assert_eq!(eq(&mut c, &t, &Term::constant(2)), x);
        assert_eq!(eq(&mut c, &t, &Term::constant(3)), FALSE);
        assert_eq!(cmp(&mut c, CmpOp::Lt, &t, &Term::constant(3)), TRUE);
        let (s, o) = arith(&mut c, ArithOp::Add, &t, &Term::constant(1));
        assert_eq!(s, Term(vec![(2, -x), (3, x)]));
        assert_eq!(o, FALSE);
        assert_eq!(t.outside(&mut c, 1, 1), x);
        let b = Term::boolean(x);
        assert_eq!(b.truth(&mut c), x);
        assert_eq!(
            ite(&mut c, x, &Term::constant(5), &Term::constant(5)),
            Term::constant(5)
        );
    }
}
