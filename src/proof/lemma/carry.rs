//! Restating a lemma at the next size for a family whose ranges depend on N: each
//! constant of such a range moves with one of the range's bounds (`Anchor`).

use super::{Lemma, PVal, decode, encode};
use crate::model::ir::{Model, Ty};

/// Which bound of a range a constant moves with when a lemma is restated at the next
/// size (`Lemma::carried`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Nearer,
    Upper,
    Lower,
}

impl Lemma {
    /// The lemma of width `w` restated at width `w + 1` (interval `w + 1..=w + 1`),
    /// for a family whose ranges have bounds depending on N: every constant of such a
    /// range (a value or an array index) moves with one of its range's bounds, the
    /// nearer one or, with `Anchor::Upper` or `Anchor::Lower`, always that one.
    /// `None` when a constant would leave its range. A guess to be filtered (Houdini):
    /// Peterson's "two processes past the last level" is stated about `N - 1`, and
    /// restated one level up it holds at the next size.
    pub fn carried(&self, model: &Model, w: usize, anchor: Anchor) -> Option<Lemma> {
        let (a, b) = (w as i64, w as i64 + 1);
        let shift = |r: usize, v: i64| -> Option<i64> {
            let t = &model.ranges[r];
            let (lo0, hi0, lo1, hi1) = (t.lo.eval(a), t.hi.eval(a), t.lo.eval(b), t.hi.eval(b));
            let upper = match anchor {
                Anchor::Upper => true,
                Anchor::Lower => false,
                Anchor::Nearer => hi0 - v < v - lo0,
            };
            let x = if upper { v + hi1 - hi0 } else { v + lo1 - lo0 };
            (lo1..=hi1).contains(&x).then_some(x)
        };
        let mut out = self.clone();
        out.lo = w + 1;
        out.hi = w + 1;
        for atom in &mut out.atoms {
            let var = &model.vars[atom.var];
            for (p, d) in atom.index.iter_mut().zip(&var.dims) {
                if let (PVal::Const(c), Ty::Range(r)) = (*p, *d) {
                    *p = PVal::Const(shift(r, c)?);
                }
            }
            if let (PVal::Const(x), Ty::Range(r)) = (atom.value, var.ty) {
                let (rel, v) = decode(x);
                atom.value = PVal::Const(encode(rel, shift(r, v)?));
            }
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::lemma::tests::atom;
    use crate::proof::lemma::{Atom, Rel};

    #[test]
    fn carried_lemmas_move_constants_with_their_bound() {
        let m = crate::lang::load_str(
            "t.cub",
            "type loc = A | B\narray Pc[proc] : loc\narray Lev[proc] : 0 .. N - 1\n\
             array V[1 .. N - 1] : proc\nvar K : 0 .. 5\n\
             init (z) { Pc[z] = A && Lev[z] = 0 }\nunsafe (z) { Pc[z] = B }\n\
             transition t (i) requires { Pc[i] = A } { Pc[i] := B; }\n",
        )
        .unwrap();
        let var = |n: &str| m.var_by_name(n).unwrap();
        // At size 5: Lev[x1] = 4 (the top), Lev[x2] >= 1 (near the bottom),
        // V[4] = x2 (top index), K = 4 (a range not depending on N).
        let l = Lemma {
            lo: 5,
            hi: 5,
            procs: 2,
            atoms: vec![
                atom(var("Lev"), 0, 4),
                atom(var("Lev"), 1, encode(Rel::Ge, 1)),
                Atom {
                    var: var("V"),
                    index: vec![PVal::Const(4)],
                    value: PVal::Proc(1),
                },
                Atom {
                    var: var("K"),
                    index: vec![],
                    value: PVal::Const(4),
                },
            ],
            ordered: false,
        };
        let values = |l: &Lemma| -> Vec<(Vec<PVal>, PVal)> {
            l.atoms.iter().map(|a| (a.index.clone(), a.value)).collect()
        };
        let near = l.carried(&m, 5, Anchor::Nearer).unwrap();
        assert_eq!((near.lo, near.hi), (6, 6));
        assert_eq!(
            values(&near),
            vec![
                (vec![PVal::Proc(0)], PVal::Const(5)),
                (vec![PVal::Proc(1)], PVal::Const(encode(Rel::Ge, 1))),
                (vec![PVal::Const(5)], PVal::Proc(1)),
                (vec![], PVal::Const(4)),
            ]
        );
        let up = l.carried(&m, 5, Anchor::Upper).unwrap();
        assert_eq!(up.atoms[1].value, PVal::Const(encode(Rel::Ge, 2)));
        assert_eq!(up.atoms[3].value, PVal::Const(4));
        let low = l.carried(&m, 5, Anchor::Lower).unwrap();
        assert_eq!(values(&low)[..3], values(&l)[..3]);
        // A constant outside its range at the next size gives no lemma (V has no
        // index 0).
        let mut bad = l.clone();
        bad.atoms[2].index = vec![PVal::Const(0)];
        assert!(bad.carried(&m, 5, Anchor::Lower).is_none());
    }
}
