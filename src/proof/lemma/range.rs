//! Range atoms: "cell ≥ v" and "cell ≤ v" on an ordered cell, folded into the value of
//! an atom of a `Cube` (`encode`, `decode`), and what they imply.

use super::Cube;
use crate::bmc::transys::{StateVar, Transys};
use crate::model::ir::Ty;
use crate::sat::Lit;

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
