//! Range atoms: "cell ≥ v" and "cell ≤ v" on an ordered cell, folded into the value of
//! an atom of a `Cube` (`encode`, `decode`), and what they imply.

use super::Cube;
use crate::model::ir::Ty;
use crate::sat::Lit;
use crate::transys::{StateVar, Transys};

/// The relation of an atom to its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rel {
    Eq,
    /// cell ≥ v
    Ge,
    /// cell ≤ v
    Le,
}

/// Range atoms keep their relation in the bits of their value above this one; a plain
/// value (an equality) stays as it is, so every cube without range atoms reads as before.
const TAG: i64 = 1 << 40;

/// The value of an atom in a `Cube` with relation `rel` to `v` (|v| < 2^40).
pub fn encode(rel: Rel, v: i64) -> i64 {
    let t = match rel {
        Rel::Eq => 0,
        Rel::Ge => 1,
        Rel::Le => 2,
    };
    v + t * 4 * TAG
}

/// The relation and value an atom's value in a `Cube` stands for.
pub fn decode(x: i64) -> (Rel, i64) {
    let t = (x + 2 * TAG).div_euclid(4 * TAG);
    let v = x - t * 4 * TAG;
    match t {
        1 => (Rel::Ge, v),
        2 => (Rel::Le, v),
        _ => (Rel::Eq, x),
    }
}

/// Whether a cell of value `actual` satisfies the atom value `x` (`encode`).
pub fn satisfies(actual: i64, x: i64) -> bool {
    match decode(x) {
        (Rel::Eq, v) => actual == v,
        (Rel::Ge, v) => actual >= v,
        (Rel::Le, v) => actual <= v,
    }
}

/// Whether every value satisfying atom value `a` satisfies atom value `b` (same cell).
pub fn atom_implies(a: i64, b: i64) -> bool {
    match (decode(a), decode(b)) {
        ((Rel::Eq, v), _) => satisfies(v, b),
        ((Rel::Ge, v), (Rel::Ge, w)) => v >= w,
        ((Rel::Le, v), (Rel::Le, w)) => v <= w,
        _ => false,
    }
}

/// Whether every state of cube `a` lies in cube `b`: each atom of `b` is implied by an
/// atom of `a` on the same variable.
pub fn cube_within(a: &Cube, b: &Cube) -> bool {
    b.iter().all(|&(v, y)| {
        a.iter()
            .any(|&(u, x)| u == v && (x == y || atom_implies(x, y)))
    })
}

/// Whether a cell of the model may carry range atoms: its values are ordered and not
/// process ids (which symmetry renames).
pub fn ordered(ts: &Transys, v: StateVar) -> bool {
    match v {
        StateVar::Cell(s) => matches!(
            ts.inst.model.vars[ts.inst.slots[s].var].ty,
            Ty::Range(_) | Ty::Int
        ),
        StateVar::Absent(_) => false,
    }
}

/// The literal of an atom of a cube on x (`next`: on x').
pub fn atom_lit(ts: &mut Transys, v: StateVar, x: i64, next: bool) -> Lit {
    let (rel, _) = decode(x);
    if rel == Rel::Eq {
        return ts.eq(v, x, next);
    }
    let (lo, size) = ts.domain(v);
    let lits: Vec<Lit> = (lo..lo + size as i64)
        .filter(|&w| satisfies(w, x))
        .map(|w| ts.eq(v, w, next))
        .collect();
    ts.c.or(&lits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::lemma::tests::atom;
    use crate::proof::lemma::{Atom, Lemma, PVal, restrict};

    #[test]
    fn range_atoms_encode_decode_and_imply() {
        for v in [-5i64, -1, 0, 1, 3, 1000] {
            for rel in [Rel::Eq, Rel::Ge, Rel::Le] {
                assert_eq!(decode(encode(rel, v)), (rel, v));
            }
        }
        // A plain value is an equality.
        assert_eq!(decode(7), (Rel::Eq, 7));
        assert!(satisfies(3, encode(Rel::Ge, 2)) && !satisfies(1, encode(Rel::Ge, 2)));
        assert!(satisfies(-2, encode(Rel::Le, -1)) && !satisfies(0, encode(Rel::Le, -1)));
        assert!(atom_implies(3, encode(Rel::Ge, 2)));
        assert!(atom_implies(encode(Rel::Ge, 3), encode(Rel::Ge, 2)));
        assert!(!atom_implies(encode(Rel::Ge, 2), encode(Rel::Ge, 3)));
        assert!(!atom_implies(encode(Rel::Ge, 2), 2));
        assert!(atom_implies(encode(Rel::Le, 1), encode(Rel::Le, 4)));
        assert!(!atom_implies(encode(Rel::Le, 1), encode(Rel::Ge, 0)));
        let (a, b) = (StateVar::Cell(0), StateVar::Cell(1));
        // {a = 3, b = 1} lies in {a >= 2}, not in {a >= 2, b = 0}.
        assert!(cube_within(
            &vec![(a, 3), (b, 1)],
            &vec![(a, encode(Rel::Ge, 2))]
        ));
        assert!(!cube_within(
            &vec![(a, 3), (b, 1)],
            &vec![(a, encode(Rel::Ge, 2)), (b, 0)]
        ));
        // A range lemma subsumes the value lemma it covers, not the converse.
        let ge = |v| Atom {
            var: 0,
            index: vec![PVal::Proc(0)],
            value: PVal::Const(encode(Rel::Ge, v)),
        };
        let l = |atoms| Lemma {
            lo: 1,
            hi: 4,
            procs: 1,
            atoms,
            ordered: false,
        };
        assert!(l(vec![ge(2)]).subsumes(&l(vec![atom(0, 0, 3)])));
        assert!(!l(vec![atom(0, 0, 3)]).subsumes(&l(vec![ge(2)])));
        assert!(l(vec![ge(2)]).subsumes(&l(vec![ge(3), atom(1, 0, 1)])));
    }

    #[test]
    fn range_atoms_render_and_have_literals() {
        use crate::transys::frame::Encoding;
        let text = "type loc = Idle | Crit\narray Pc[proc] : loc\narray Lev[proc] : 0 .. 3\n\
                    init (z) { Pc[z] = Idle && Lev[z] = 0 }\n\
                    unsafe (z1 z2) { Pc[z1] = Crit && Pc[z2] = Crit }\n\
                    transition up (i) requires { Lev[i] < 3 } { Lev[i] := Lev[i] + 1; }\n";
        let m = crate::lang::load_str("t.cub", text).unwrap();
        let mut ts = Transys::new(&m, 1, 3, Encoding::Binary);
        let lev = ts.inst.slot_of(1, &[1]).unwrap();
        let pc = ts.inst.slot_of(0, &[1]).unwrap();
        assert!(ordered(&ts, StateVar::Cell(lev)) && !ordered(&ts, StateVar::Cell(pc)));
        let cube: Cube = vec![
            (StateVar::Cell(pc), 1),
            (StateVar::Cell(lev), encode(Rel::Ge, 2)),
        ];
        let cube = restrict(&ts, &cube, 3);
        let l = Lemma::from_cube(&ts, &cube, true);
        assert_eq!(
            l.render(&ts, (1, 3)),
            "forall distinct i. not (Pc[i] = Crit && Lev[i] >= 2)"
        );
        let le = Lemma {
            atoms: vec![Atom {
                var: 1,
                index: vec![PVal::Proc(0)],
                value: PVal::Const(encode(Rel::Le, 1)),
            }],
            ..l.clone()
        };
        assert_eq!(
            le.render(&ts, (1, 3)),
            "forall distinct i. not (Lev[i] <= 1)"
        );
        // The literal of `Lev[1] >= 2` is true exactly for the values 2 and 3.
        let ge = atom_lit(&mut ts, StateVar::Cell(lev), encode(Rel::Ge, 2), false);
        let eqs: Vec<Lit> = (0..4)
            .map(|v| ts.eq(StateVar::Cell(lev), v, false))
            .collect();
        let mut s = crate::sat::SolverKind::default_kind()
            .create_plain()
            .unwrap();
        for c in ts.c.group(crate::transys::STATE) {
            s.add_clause(c);
        }
        let stop = crate::sat::Stop::default();
        for (v, &e) in eqs.iter().enumerate() {
            for want in [ge, -ge] {
                let r = s.solve(&ts.c.cnf, &[e, want], &stop);
                let expect = (want == ge) == (v >= 2);
                assert_eq!(r == crate::sat::SolveResult::Sat, expect, "value {v}");
            }
        }
        // Lazy orbits find an instance through the range atom.
        let value = |v: StateVar| if v == StateVar::Cell(lev) { 3 } else { 0 };
        let ge_only = Lemma {
            atoms: vec![Atom {
                var: 1,
                index: vec![PVal::Proc(0)],
                value: PVal::Const(encode(Rel::Ge, 2)),
            }],
            ..l
        };
        assert!(ge_only.matching(&ts, 3, &value, &stop).unwrap().is_some());
        let value = |_: StateVar| 1;
        assert!(ge_only.matching(&ts, 3, &value, &stop).unwrap().is_none());
    }
}
