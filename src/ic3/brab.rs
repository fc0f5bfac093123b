//! Candidate lemmas guessed from the states reached at small sizes, as Cubicle's BRAB
//! does (S. Conchon, A. Goel, S. Krstić, A. Mebsout and F. Zaïdi, *Invariants for
//! Finite Instances and Beyond*, FMCAD 2013): the small conjunctions of atoms over at
//! most two processes (and the globals) that no reached state shows, for any choice
//! of those processes, become candidate clauses `forall distinct x1 x2. not C`.
//!
//! Candidates are guesses: the states are those of a bounded breadth-first search
//! (`reach::Reached`, cut at `reach::MAX_STATES`), and a clause true in every reached
//! state of sizes 1..3 need be neither true at larger sizes nor inductive. The caller
//! keeps only the largest inductive subset (`houdini`), and nothing is claimed before
//! `proof::check` accepted the invariant at every size up to the cutoff.
//!
//! Each candidate is minimal: every cube with one atom fewer is shown by some reached
//! state, so the candidates are the strongest clauses of their size the states allow.

use super::reach::Reached;
use crate::hash::FastSet;
use crate::model::ir::Ty;
use crate::proof::lemma::{Cube, Lemma};
use crate::transys::{StateVar, Transys};

/// Candidates over at most this many processes.
const MAX_PROCS: usize = 2;

/// A choice of processes and the places of the positions' cells read through it.
type Read = (Vec<i64>, Option<Vec<usize>>);

/// A process-valued cell that points outside the chosen processes: equal to no atom's
/// value.
const OTHER: i64 = i64::MIN / 4;

/// The candidate clauses of the states reached on `ts` (an aggregate 1..m), over at
/// most `MAX_PROCS` processes and `max_atoms` atoms, fewest atoms first; once more than
/// `cap` are found no larger cubes are tried. Empty when the states cannot be had.
pub fn candidates(ts: &Transys, max_atoms: usize, cap: usize) -> Vec<Lemma> {
    let Some(r) = Reached::new(ts) else {
        return Vec::new();
    };
    let model = ts.inst.model;
    let ordered = !model.is_symmetric();
    let mut out: Vec<Lemma> = Vec::new();
    for k in 0..=MAX_PROCS.min(ts.agg.max) {
        // The cells of processes 1..k and the globals.
        let positions = positions(ts, k);
        let views = views(ts, &r, &positions, k, ordered);
        if views.is_empty() {
            continue;
        }
        let words = views.len().div_ceil(64);
        let atoms = atoms(ts, &positions, &views, k);
        let start = out.len();
        let mut unseen: Vec<Vec<usize>> = Vec::new();
        for size in 1..=max_atoms {
            if out.len() > cap {
                break;
            }
            let mut chosen = Vec::with_capacity(size);
            let all = vec![!0u64; words];
            cubes(&atoms, size, 0, &all, &mut chosen, &mut |c| {
                // Minimal: no smaller unseen cube inside (each of those is a subset).
                if unseen
                    .iter()
                    .any(|u| u.len() < c.len() && u.iter().all(|a| c.contains(a)))
                {
                    return;
                }
                unseen.push(c.to_vec());
            });
            for c in unseen.iter().filter(|c| c.len() == size) {
                let mut cube: Cube = c
                    .iter()
                    .map(|&a| (StateVar::Cell(positions[atoms[a].0]), atoms[a].1))
                    .collect();
                cube.sort_unstable();
                let l = Lemma::from_cube(ts, &cube, true);
                // A cube that misses one of the k processes is one of fewer processes.
                if l.procs == k && !out[start..].contains(&l) {
                    out.push(l);
                }
            }
        }
    }
    out
}

/// The candidates of `cands` that no state reached on `ts` (its widths searched breadth
/// first, `reach::MAX_STATES` in all) shows, for any member of their orbits. Houdini
/// keeps a set that holds initially and is inductive, so true in every reachable
/// state: a candidate a reached state violates is never kept, and dropping it first
/// leaves Houdini's answer as it was while sparing its passes the counterexamples
/// (each pass asks every candidate alive again). For candidates guessed at smaller
/// sizes than Houdini's, `ts` holds the largest size alone, so that its states are
/// not crowded out by the smaller sizes'. All the candidates when the states cannot
/// be had.
pub fn unshown(ts: &Transys, cands: Vec<Lemma>) -> Vec<Lemma> {
    let Some(mut r) = Reached::new(ts) else {
        return cands;
    };
    let depth = r.depth.iter().copied().max().unwrap_or(0);
    cands
        .into_iter()
        .filter(|l| l.orbit(ts).iter().all(|c| r.within(c, depth).is_none()))
        .collect()
}

/// The positions of the cells of processes 1..k and of the globals, among the slots.
fn positions(ts: &Transys, k: usize) -> Vec<usize> {
    let model = ts.inst.model;
    (0..ts.inst.slots.len())
        .filter(|&s| {
            let slot = &ts.inst.slots[s];
            let var = &model.vars[slot.var];
            slot.index
                .iter()
                .zip(&var.dims)
                .all(|(&i, &d)| d != Ty::Proc || (1..=k as i64).contains(&i))
        })
        .collect()
}

/// The distinct views of the reached states: their positions' values read through each
/// choice of k processes (increasing choices in an `ordered` family), a process-valued
/// cell as the chosen process it points to (`OTHER` for none).
fn views(ts: &Transys, r: &Reached, positions: &[usize], k: usize, ordered: bool) -> Vec<Vec<i64>> {
    let model = ts.inst.model;
    // Per width, each choice of processes with the places of the positions'
    // cells in the state vectors (`None`: a cell missing at that width).
    let mut reads: Vec<Vec<Read>> = vec![Vec::new(); ts.agg.max + 1];
    for (w, at_w) in reads.iter_mut().enumerate().skip(k.max(1)) {
        let mut tuple = Vec::with_capacity(k);
        each_tuple(k, w, ordered, &mut tuple, &mut |t| {
            at_w.push((t.to_vec(), places(ts, r, positions, t)));
        });
    }
    let proc_valued: Vec<bool> = positions
        .iter()
        .map(|&s| model.vars[ts.inst.slots[s].var].ty == Ty::Proc)
        .collect();
    let mut views: FastSet<Vec<i64>> = FastSet::default();
    // One buffer for every view; a copy only for the views not seen yet.
    let mut v: Vec<i64> = Vec::with_capacity(positions.len());
    for (i, vals) in r.values.iter().enumerate() {
        for (t, at) in &reads[r.width[i]] {
            let Some(at) = at else { continue };
            v.clear();
            v.extend(at.iter().zip(&proc_valued).map(|(&j, &pv)| {
                let x = vals[j];
                if pv && x >= 1 {
                    t.iter()
                        .position(|&p| p == x)
                        .map_or(OTHER, |q| q as i64 + 1)
                } else {
                    x
                }
            }));
            if !views.contains(&v) {
                views.insert(v.clone());
            }
        }
    }
    views.into_iter().collect()
}

/// The atoms (position, value) over k processes, each with the views showing it as bits.
fn atoms(
    ts: &Transys,
    positions: &[usize],
    views: &[Vec<i64>],
    k: usize,
) -> Vec<(usize, i64, Vec<u64>)> {
    let model = ts.inst.model;
    let words = views.len().div_ceil(64);
    let mut atoms: Vec<(usize, i64, Vec<u64>)> = Vec::new();
    for (p, &s) in positions.iter().enumerate() {
        let slot = &ts.inst.slots[s];
        let proc_valued = model.vars[slot.var].ty == Ty::Proc;
        for x in slot.lo..=slot.hi {
            if proc_valued && x > k as i64 {
                continue;
            }
            let mut bits = vec![0u64; words];
            for (j, v) in views.iter().enumerate() {
                if v[p] == x {
                    bits[j / 64] |= 1 << (j % 64);
                }
            }
            atoms.push((p, x, bits));
        }
    }
    atoms
}

/// The places in the state vectors of the positions' cells read through the processes
/// `t` (process j + 1 of the positions is process t[j]); `None` when a cell is missing.
fn places(ts: &Transys, r: &Reached, positions: &[usize], t: &[i64]) -> Option<Vec<usize>> {
    let model = ts.inst.model;
    let mut index = Vec::new();
    positions
        .iter()
        .map(|&s| {
            let slot = &ts.inst.slots[s];
            let var = &model.vars[slot.var];
            index.clear();
            for (&x, &d) in slot.index.iter().zip(&var.dims) {
                index.push(if d == Ty::Proc { t[x as usize - 1] } else { x });
            }
            r.position(StateVar::Cell(ts.inst.slot_of(slot.var, &index)?))
        })
        .collect()
}

/// Every choice of `k` distinct processes of 1..`w` (increasing ones when `ordered`).
fn each_tuple(k: usize, w: usize, ordered: bool, cur: &mut Vec<i64>, f: &mut dyn FnMut(&[i64])) {
    if cur.len() == k {
        f(cur);
        return;
    }
    for p in 1..=w as i64 {
        let ok = if ordered {
            cur.last().is_none_or(|&q| p > q)
        } else {
            !cur.contains(&p)
        };
        if ok {
            cur.push(p);
            each_tuple(k, w, ordered, cur, f);
            cur.pop();
        }
    }
}

/// Every cube of `size` atoms at distinct positions (in the order of `atoms`, from
/// `from`) that no view shows, each given to `f` as atom numbers; `acc` is the views
/// showing the atoms chosen so far. A cube no view shows is not extended.
fn cubes(
    atoms: &[(usize, i64, Vec<u64>)],
    size: usize,
    from: usize,
    acc: &[u64],
    chosen: &mut Vec<usize>,
    f: &mut dyn FnMut(&[usize]),
) {
    for a in from..atoms.len() {
        if chosen.last().is_some_and(|&b| atoms[b].0 >= atoms[a].0) {
            continue;
        }
        let next: Vec<u64> = acc.iter().zip(&atoms[a].2).map(|(x, y)| x & y).collect();
        let empty = next.iter().all(|&x| x == 0);
        chosen.push(a);
        if chosen.len() == size {
            if empty {
                f(chosen);
            }
        } else if !empty {
            cubes(atoms, size, a + 1, &next, chosen, f);
        }
        chosen.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transys::frame::Encoding;

    #[test]
    fn a_mutex_gives_its_exclusion_and_no_clause_a_state_shows() {
        let m = crate::lang::load_str(
            "t.cub",
            "type loc = Idle | Crit\nvar Free : bool\narray Pc[proc] : loc\n\
             init (z) { Pc[z] = Idle && Free = True }\n\
             unsafe (z1 z2) { Pc[z1] = Crit && Pc[z2] = Crit }\n\
             transition enter (i) requires { Pc[i] = Idle && Free = True } { Pc[i] := Crit; Free := False; }\n\
             transition leave (i) requires { Pc[i] = Crit } { Pc[i] := Idle; Free := True; }\n",
        )
        .unwrap();
        let ts = Transys::new(&m, 1, 3, Encoding::Binary);
        let cands = candidates(&ts, 3, 1000);
        let text: Vec<String> = cands.iter().map(|l| l.render(&ts, (1, 3))).collect();
        // Derived by hand: a critical process means Free = False, and two are never
        // critical; nothing else is unseen with at most two atoms.
        assert!(
            text.iter()
                .any(|t| t.contains("Pc[i] = Crit && Pc[j] = Crit")),
            "{text:?}"
        );
        assert!(
            text.iter()
                .any(|t| t.contains("Free = True") && t.contains("Pc[i] = Crit")),
            "{text:?}"
        );
        let r = Reached::new(&ts).unwrap();
        for l in &cands {
            for c in l.orbit(&ts) {
                assert!(
                    r.values
                        .iter()
                        .enumerate()
                        .all(|(i, _)| { !c.iter().all(|&(v, x)| r.value(i, v) == Some(x)) }),
                    "a reached state shows {c:?}"
                );
            }
        }
    }
}
