//! Concrete cubes and the widths they hold at: the interval their presence atoms allow,
//! the processes they mention, and `restrict`, which narrows a cube to the widths at
//! which its orbit is sound.

use super::Cube;
use crate::model::ir::Ty;
use crate::transys::{StateVar, Transys};

/// The width interval a cube's presence atoms allow, within the system's sizes.
pub fn interval(ts: &Transys, cube: &Cube) -> (usize, usize) {
    let (mut lo, mut hi) = (ts.agg.min, ts.agg.max);
    for &(v, val) in cube {
        if let StateVar::Absent(p) = v {
            // Slot p+1 absent: width <= p; present: width >= p+1.
            if val != 0 {
                hi = hi.min(p);
            } else {
                lo = lo.max(p + 1);
            }
        }
    }
    (lo, hi)
}

/// Whether cell `slot` exists at width `w`: its process indices are present and its
/// range indices lie in their range at `w`.
pub fn cell_exists(ts: &Transys, slot: usize, w: usize) -> bool {
    let s = &ts.inst.slots[slot];
    let dims = &ts.inst.model.vars[s.var].dims;
    s.index.iter().zip(dims).all(|(&i, &d)| match d {
        Ty::Proc => i >= 1 && i as usize <= w,
        Ty::Range(r) => {
            let (lo, hi) = ts.agg.ranges_at[r][w - 1];
            lo <= i && i <= hi
        }
        _ => true,
    })
}

/// The processes a cube mentions: the process indices of its cells and the values of
/// its `proc`-typed cells (but the extra process id, no process), sorted.
pub fn processes(ts: &Transys, cube: &Cube) -> Vec<i64> {
    let mut ps = Vec::new();
    for &(v, val) in cube {
        if let StateVar::Cell(s) = v {
            let slot = &ts.inst.slots[s];
            let var = &ts.inst.model.vars[slot.var];
            for (&i, &d) in slot.index.iter().zip(&var.dims) {
                if d == Ty::Proc {
                    ps.push(i);
                }
            }
            // The extra process id (0, `model::extra`) is no process: a constant.
            if var.ty == Ty::Proc && val >= 1 {
                ps.push(val);
            }
        }
    }
    ps.sort_unstable();
    ps.dedup();
    ps
}

/// The cube with its width interval narrowed to the widest one around `w0` (a width
/// the cube's states have) at which every cell it mentions exists and every process
/// it mentions is present: a weaker lemma (it blocks fewer states), always valid
/// when the cube's is, and one whose orbit is sound.
pub fn restrict(ts: &Transys, cube: &Cube, w0: usize) -> Cube {
    let (lo, hi) = interval(ts, cube);
    let need = processes(ts, cube).last().copied().unwrap_or(0).max(0) as usize;
    let ok = |w: usize| {
        w >= need
            && cube.iter().all(|&(v, _)| match v {
                StateVar::Cell(s) => cell_exists(ts, s, w),
                StateVar::Absent(_) => true,
            })
    };
    let (mut a, mut b) = (w0, w0);
    while a > lo && ok(a - 1) {
        a -= 1;
    }
    while b < hi && ok(b + 1) {
        b += 1;
    }
    with_interval(ts, cube, a, b)
}

/// The cube's cell atoms with presence atoms for exactly the widths `lo..=hi`.
pub fn with_interval(ts: &Transys, cube: &Cube, lo: usize, hi: usize) -> Cube {
    let mut out: Cube = cube
        .iter()
        .copied()
        .filter(|(v, _)| matches!(v, StateVar::Cell(_)))
        .collect();
    // Properness: absent slots form a suffix, so one presence bit per bound.
    if lo > ts.agg.min && ts.agg.absent[lo - 1] != crate::sat::circuit::FALSE {
        out.push((StateVar::Absent(lo - 1), 0));
    }
    if hi < ts.agg.max {
        out.push((StateVar::Absent(hi), 1));
    }
    out.sort_unstable();
    out
}
