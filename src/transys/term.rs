//! Symbolic values for the SAT encoding. A `Term` is one of
//! - `Alts`: explicit alternatives `(value, condition)`, sorted by value, conditions
//!   pairwise exclusive and (wherever the term is meaningful) exhaustive;
//! - `Bits`: `lo + n` where n is a binary number (least significant bit first) known
//!   to be below `size` — how a binary-encoded cell reads, so comparisons and range
//!   checks cost O(log size) and adding a constant only moves `lo`;
//! - `Mux`: one of several terms under exclusive conditions (a dynamic array read, an
//!   `if then else`), kept lazy so that comparing it with a constant costs one
//!   condition per alternative.
//!
//! Operations pick the cheapest form; `flatten` turns any term into alternatives.

use crate::model::ir::{ArithOp, CmpOp};
use crate::sat::Lit;
use crate::sat::circuit::{Circuit, FALSE, TRUE};

/// A symbolic value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    Alts(Vec<(i64, Lit)>),
    Bits {
        lo: i64,
        bits: Vec<Lit>,
        size: usize,
    },
    Mux(Vec<(Lit, Term)>),
}

impl Term {
    pub fn constant(v: i64) -> Term {
        Term::Alts(vec![(v, TRUE)])
    }

    /// A formula as a 0/1 term.
    pub fn boolean(l: Lit) -> Term {
        match l {
            TRUE => Term::constant(1),
            FALSE => Term::constant(0),
            _ => Term::Alts(vec![(0, -l), (1, l)]),
        }
    }

    pub fn as_const(&self) -> Option<i64> {
        match self {
            Term::Alts(a) if a.len() == 1 && a[0].1 == TRUE => Some(a[0].0),
            Term::Bits { lo, size: 1, .. } => Some(*lo),
            _ => None,
        }
    }

    /// Every literal the term's value depends on.
    pub fn lits(&self, out: &mut Vec<Lit>) {
        match self {
            Term::Alts(a) => out.extend(a.iter().map(|x| x.1)),
            Term::Bits { bits, .. } => out.extend_from_slice(bits),
            Term::Mux(m) => {
                for (c, t) in m {
                    out.push(*c);
                    t.lits(out);
                }
            }
        }
    }

    /// The values the term may take, sorted.
    pub fn values(&self) -> Vec<i64> {
        let mut v = match self {
            Term::Alts(a) => a.iter().map(|x| x.0).collect(),
            Term::Bits { lo, size, .. } => (*lo..*lo + *size as i64).collect(),
            Term::Mux(m) => m.iter().flat_map(|(_, t)| t.values()).collect::<Vec<_>>(),
        };
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The condition under which the term has value `v`.
    pub fn cond(&self, c: &mut Circuit, v: i64) -> Lit {
        match self {
            Term::Alts(a) => match a.binary_search_by_key(&v, |x| x.0) {
                Ok(k) => a[k].1,
                Err(_) => FALSE,
            },
            Term::Bits { lo, bits, size } => {
                let k = v - lo;
                if k < 0 || k >= *size as i64 {
                    return FALSE;
                }
                let lits: Vec<Lit> = bits
                    .iter()
                    .enumerate()
                    .map(|(b, &l)| if k >> b & 1 == 1 { l } else { -l })
                    .collect();
                c.and(&lits)
            }
            Term::Mux(m) => mux_cond(c, m, |c, t| t.cond(c, v)),
        }
    }

    /// The condition that the value is at least `v`.
    pub fn ge(&self, c: &mut Circuit, v: i64) -> Lit {
        match self {
            Term::Alts(a) => {
                let hi: Vec<Lit> = a.iter().filter(|x| x.0 >= v).map(|x| x.1).collect();
                c.or(&hi)
            }
            Term::Bits { lo, bits, size } => {
                let k = v - lo;
                if k <= 0 {
                    TRUE
                } else if k >= *size as i64 {
                    FALSE
                } else {
                    bits_ge_const(c, bits, k as u64)
                }
            }
            Term::Mux(m) => mux_cond(c, m, |c, t| t.ge(c, v)),
        }
    }

    /// Non-zero (a formula's truth).
    pub fn truth(&self, c: &mut Circuit) -> Lit {
        match self.as_const() {
            Some(v) => {
                if v != 0 {
                    TRUE
                } else {
                    FALSE
                }
            }
            None => -self.cond(c, 0),
        }
    }

    /// The condition that the value lies outside `lo..=hi`.
    pub fn outside(&self, c: &mut Circuit, lo: i64, hi: i64) -> Lit {
        let below = -self.ge(c, lo);
        let above = self.ge(c, hi.saturating_add(1));
        c.or2(below, above)
    }

    /// Explicit alternatives.
    pub fn flatten(&self, c: &mut Circuit) -> Vec<(i64, Lit)> {
        match self {
            Term::Alts(a) => a.clone(),
            Term::Bits { lo, size, .. } => {
                let mut out = Vec::with_capacity(*size);
                for v in *lo..*lo + *size as i64 {
                    let l = self.cond(c, v);
                    if l != FALSE {
                        out.push((v, l));
                    }
                }
                out
            }
            Term::Mux(m) => {
                let mut alts = Vec::new();
                for (sel, t) in m {
                    for (v, cv) in t.flatten(c) {
                        alts.push((v, c.and2(*sel, cv)));
                    }
                }
                match collect(c, alts) {
                    Term::Alts(a) => a,
                    _ => unreachable!(),
                }
            }
        }
    }

    /// The term plus a constant.
    pub fn shift(&self, k: i64) -> Option<Term> {
        Some(match self {
            Term::Alts(a) => Term::Alts(
                a.iter()
                    .map(|&(v, l)| v.checked_add(k).map(|w| (w, l)))
                    .collect::<Option<Vec<_>>>()?,
            ),
            Term::Bits { lo, bits, size } => Term::Bits {
                lo: lo.checked_add(k)?,
                bits: bits.clone(),
                size: *size,
            },
            Term::Mux(m) => Term::Mux(
                m.iter()
                    .map(|(s, t)| t.shift(k).map(|t| (*s, t)))
                    .collect::<Option<Vec<_>>>()?,
            ),
        })
    }

    /// The binary digits of `value - lo` for a cell of `width` bits whose domain the
    /// term's (meaningful) values lie in.
    pub fn to_bits(&self, c: &mut Circuit, lo: i64, width: usize) -> Vec<Lit> {
        if let Term::Bits { lo: l, bits, .. } = self
            && *l == lo
            && bits.len() == width
        {
            return bits.clone();
        }
        let alts = self.flatten(c);
        (0..width)
            .map(|b| {
                let on: Vec<Lit> = alts
                    .iter()
                    .filter(|(v, _)| *v >= lo && (v - lo) >> b & 1 == 1)
                    .map(|a| a.1)
                    .collect();
                c.or(&on)
            })
            .collect()
    }
}

/// A condition `cond` of a `Mux`'s terms, lifted to the `Mux`: some selected term meets
/// it.
fn mux_cond(c: &mut Circuit, m: &[(Lit, Term)], cond: impl Fn(&mut Circuit, &Term) -> Lit) -> Lit {
    let parts: Vec<Lit> = m
        .iter()
        .map(|(sel, t)| {
            let x = cond(c, t);
            c.and2(*sel, x)
        })
        .collect();
    c.or(&parts)
}

/// `bits >= k` for a constant k with 0 < k < 2^width (most significant bit first).
fn bits_ge_const(c: &mut Circuit, bits: &[Lit], k: u64) -> Lit {
    // From the least significant bit up: r = "bits[..=i] >= k[..=i]".
    let mut r = TRUE;
    for (i, &b) in bits.iter().enumerate() {
        r = if k >> i & 1 == 1 {
            c.and2(b, r)
        } else {
            c.or2(b, r)
        };
    }
    if (k >> bits.len()) > 0 { FALSE } else { r }
}

/// `a < b` for two binary numbers of equal width.
fn bits_lt(c: &mut Circuit, a: &[Lit], b: &[Lit]) -> Lit {
    // From the least significant bit up: r = "a[..=i] < b[..=i]".
    let mut r = FALSE;
    for (&x, &y) in a.iter().zip(b) {
        let less = c.and2(-x, y);
        let same = c.iff(x, y);
        let keep = c.and2(same, r);
        r = c.or2(less, keep);
    }
    r
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
    Term::Alts(out)
}

/// `a = b`.
pub fn eq(c: &mut Circuit, a: &Term, b: &Term) -> Lit {
    if let Some(x) = a.as_const() {
        return b.cond(c, x);
    }
    if let Some(y) = b.as_const() {
        return a.cond(c, y);
    }
    if let (
        Term::Bits {
            lo: la,
            bits: ba,
            size: sa,
        },
        Term::Bits {
            lo: lb, bits: bb, ..
        },
    ) = (a, b)
        && la == lb
        && ba.len() == bb.len()
    {
        let _ = sa;
        let same: Vec<Lit> = ba.iter().zip(bb).map(|(&x, &y)| c.iff(x, y)).collect();
        return c.and(&same);
    }
    let (va, vb) = (a.values(), b.values());
    let common: Vec<i64> = va
        .into_iter()
        .filter(|v| vb.binary_search(v).is_ok())
        .collect();
    let hits: Vec<Lit> = common
        .into_iter()
        .map(|v| {
            let x = a.cond(c, v);
            let y = b.cond(c, v);
            c.and2(x, y)
        })
        .collect();
    c.or(&hits)
}

/// `a < b`.
fn lt(c: &mut Circuit, a: &Term, b: &Term) -> Lit {
    if let Some(x) = a.as_const() {
        return b.ge(c, x.saturating_add(1));
    }
    if let Some(y) = b.as_const() {
        return -a.ge(c, y);
    }
    if let (
        Term::Bits {
            lo: la, bits: ba, ..
        },
        Term::Bits {
            lo: lb, bits: bb, ..
        },
    ) = (a, b)
        && la == lb
        && ba.len() == bb.len()
    {
        return bits_lt(c, ba, bb);
    }
    // Over the smaller side's values: a = v and b > v.
    let hits: Vec<Lit> = a
        .values()
        .into_iter()
        .map(|v| {
            let x = a.cond(c, v);
            let y = b.ge(c, v.saturating_add(1));
            c.and2(x, y)
        })
        .collect();
    c.or(&hits)
}

/// `a op b` for a comparison.
pub fn cmp(c: &mut Circuit, op: CmpOp, a: &Term, b: &Term) -> Lit {
    match op {
        CmpOp::Eq => eq(c, a, b),
        CmpOp::Ne => -eq(c, a, b),
        CmpOp::Lt => lt(c, a, b),
        CmpOp::Gt => lt(c, b, a),
        CmpOp::Le => -lt(c, b, a),
        CmpOp::Ge => -lt(c, a, b),
    }
}

/// `a op b` for arithmetic, and the condition of an overflow.
pub fn arith(c: &mut Circuit, op: ArithOp, a: &Term, b: &Term) -> (Term, Lit) {
    match (op, a.as_const(), b.as_const()) {
        (ArithOp::Add, _, Some(k)) => {
            if let Some(t) = a.shift(k) {
                return (t, FALSE);
            }
        }
        (ArithOp::Add, Some(k), _) => {
            if let Some(t) = b.shift(k) {
                return (t, FALSE);
            }
        }
        (ArithOp::Sub, _, Some(k)) if k != i64::MIN => {
            if let Some(t) = a.shift(-k) {
                return (t, FALSE);
            }
        }
        _ => {}
    }
    let (fa, fb) = (a.flatten(c), b.flatten(c));
    let mut alts = Vec::new();
    let mut overflow = Vec::new();
    for &(va, ca) in &fa {
        for &(vb, cb) in &fb {
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
pub fn ite(cond: Lit, a: &Term, b: &Term) -> Term {
    if cond == TRUE || a == b {
        return a.clone();
    }
    if cond == FALSE {
        return b.clone();
    }
    Term::Mux(vec![(cond, a.clone()), (-cond, b.clone())])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Evaluate a literal under an assignment of the circuit's variables.
    fn truth_of(c: &Circuit, assign: &[(Lit, bool)], l: Lit) -> bool {
        // Propagate the gate definitions by brute force: solve with the assignment.
        let mut s = crate::sat::SolverKind::Varisat.create().unwrap();
        let mut a: Vec<Lit> = assign
            .iter()
            .map(|&(v, b)| if b { v } else { -v })
            .collect();
        a.push(l);
        s.solve(&c.cnf, &a, &crate::sat::Stop::default()) == crate::sat::SolveResult::Sat
    }

    #[test]
    fn bits_comparisons_and_shifts() {
        for size in [3usize, 5, 8] {
            let mut c = Circuit::new();
            let w = (usize::BITS - (size - 1).leading_zeros()) as usize;
            let xa: Vec<Lit> = (0..w).map(|_| c.var()).collect();
            let xb: Vec<Lit> = (0..w).map(|_| c.var()).collect();
            let a = Term::Bits {
                lo: 2,
                bits: xa.clone(),
                size,
            };
            let b = Term::Bits {
                lo: 2,
                bits: xb.clone(),
                size,
            };
            let ops = [
                CmpOp::Eq,
                CmpOp::Ne,
                CmpOp::Lt,
                CmpOp::Le,
                CmpOp::Gt,
                CmpOp::Ge,
            ];
            let rel: Vec<(CmpOp, Lit)> = ops
                .iter()
                .map(|&op| (op, cmp(&mut c, op, &a, &b)))
                .collect();
            let ge: Vec<(i64, Lit)> = (0..=size as i64 + 3)
                .map(|k| (k, a.ge(&mut c, k)))
                .collect();
            let shifted = eq(&mut c, &a.shift(1).unwrap(), &Term::constant(5));
            for va in 0..size as i64 {
                for vb in 0..size as i64 {
                    let mut assign = Vec::new();
                    for (bit, &x) in xa.iter().enumerate() {
                        assign.push((x, va >> bit & 1 == 1));
                    }
                    for (bit, &x) in xb.iter().enumerate() {
                        assign.push((x, vb >> bit & 1 == 1));
                    }
                    for &(op, l) in &rel {
                        assert_eq!(
                            truth_of(&c, &assign, l),
                            op.apply(va + 2, vb + 2),
                            "{} {op:?} {}",
                            va + 2,
                            vb + 2
                        );
                    }
                    for &(k, l) in &ge {
                        assert_eq!(truth_of(&c, &assign, l), va + 2 >= k, "{} >= {k}", va + 2);
                    }
                    assert_eq!(truth_of(&c, &assign, shifted), va + 3 == 5);
                }
            }
        }
    }

    #[test]
    fn alts_and_mux() {
        let mut c = Circuit::new();
        let x = c.var();
        let t = Term::Alts(vec![(1, -x), (2, x)]);
        assert_eq!(eq(&mut c, &t, &Term::constant(2)), x);
        assert_eq!(eq(&mut c, &t, &Term::constant(3)), FALSE);
        assert_eq!(cmp(&mut c, CmpOp::Lt, &t, &Term::constant(3)), TRUE);
        let (s, o) = arith(&mut c, ArithOp::Add, &t, &Term::constant(1));
        assert_eq!(s, Term::Alts(vec![(2, -x), (3, x)]));
        assert_eq!(o, FALSE);
        assert_eq!(t.outside(&mut c, 1, 1), x);
        assert_eq!(Term::boolean(x).truth(&mut c), x);
        let m = ite(x, &Term::constant(5), &Term::constant(7));
        assert_eq!(m.cond(&mut c, 5), x);
        assert_eq!(m.flatten(&mut c), vec![(5, x), (7, -x)]);
    }
}
