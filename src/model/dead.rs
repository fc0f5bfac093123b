//! Dead cells: a static analysis finding the cells of a process-indexed array whose
//! value cannot matter while the same process's control cell holds certain values,
//! and the normalization that sets them to one value (classic dead-variable
//! reduction, as in SPIN's dead variable elimination, here per process cell).
//!
//! A cell `X[p]` is *dead* while `C[p]` (a `bool` or enumeration array over `proc`)
//! holds a value of the dead set D when:
//! - **no read sees it**: every read of `X` anywhere in the transitions is `X[p]` for
//!   a process parameter `p` of a transition whose guard has a top-level conjunct
//!   `C[p] = c` with c outside D, written before every conjunct reading `X[p]`
//!   (evaluation is left to right and stops early, so the read happens only when the
//!   pin holds); no `unsafe` or `invariant` property reads `X` at all;
//! - **no revival without a write**: a transition that may set `C[p]` to a value
//!   outside D either pins `C[p]` outside D in its guard or assigns `X[p]` itself;
//!   stores into `C` at other indices only store values of D.
//!
//! Then two states that differ only in dead cells are bisimilar: the same transitions
//! are enabled, with the same effect on every cell that is live afterwards, and every
//! safety property and deadlock agrees on them. An explicit search may store states
//! up to this equivalence (`Dead::normalize` before hashing) and stay exhaustive; it
//! walks real states, so its traces are real runs.
//!
//! For `ltl` properties (`analyse_live`) an array read by an atom of any `ltl` property
//! is never dead, so the atoms, like the guards and hence the enabled processes, agree
//! on states that differ only in dead cells: the bisimulation keeps the product with
//! the Büchi automaton and weak fairness (which speaks of enabled and executing
//! processes only). The fair-cycle searches walk the normalized system and turn a
//! lasso found there into a real one (`explicit::ndfs::unfold::realize`).

use super::instance::Instance;
use super::ir::*;

/// One array whose cells are dead while their control cell holds a value of `dead`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadArray {
    pub var: VarId,
    pub control: VarId,
    /// Per value of the control's type (bool: 0/1; enumeration: ordinal): dead or not.
    pub dead: Vec<bool>,
}

impl DeadArray {
    /// "`Ticket` while `Pc` is `Idle` or `Crit`", for reports.
    pub fn describe(&self, m: &Model) -> String {
        let c = &m.vars[self.control];
        let vals: Vec<String> = (0..self.dead.len())
            .filter(|&v| self.dead[v])
            .map(|v| match c.ty {
                Ty::Enum(e) => m.enums[e].ctors[v].clone(),
                _ => if v == 1 { "true" } else { "false" }.to_string(),
            })
            .collect();
        format!(
            "`{}` while `{}` is {}",
            m.vars[self.var].name,
            c.name,
            vals.join(" or ")
        )
    }
}

/// Every array of `m` with dead cells, each with the largest dead set found for its
/// first suitable control array.
pub fn analyse(m: &Model) -> Vec<DeadArray> {
    analyse_except(m, &[])
}

/// `analyse` for the `ltl` searches: arrays read by an atom of an `ltl` property of `m`
/// are left out.
pub fn analyse_live(m: &Model) -> Vec<DeadArray> {
    let atoms: Vec<&Expr> = m.ltls.iter().flat_map(|l| l.body.atoms()).collect();
    analyse_except(m, &atoms)
}

/// `analyse`, leaving out every array that one of `extra` reads.
fn analyse_except(m: &Model, extra: &[&Expr]) -> Vec<DeadArray> {
    let proc_arrays = |f: &dyn Fn(&Var) -> bool| -> Vec<VarId> {
        (0..m.vars.len())
            .filter(|&v| {
                let x = &m.vars[v];
                x.kind == VarKind::Array && x.dims == [Ty::Proc] && f(x)
            })
            .collect()
    };
    let controls = proc_arrays(&|x| matches!(x.ty, Ty::Bool | Ty::Enum(_)));
    let mut out = Vec::new();
    for x in proc_arrays(&|_| true) {
        if m.unsafes.iter().any(|u| reads(&u.body, x)) || extra.iter().any(|e| reads(e, x)) {
            continue;
        }
        for &c in controls.iter().filter(|&&c| c != x) {
            let values = match m.vars[c].ty {
                Ty::Enum(e) => m.enums[e].ctors.len(),
                _ => 2,
            };
            let held = held_values(m, c, values);
            if let Some(mut dead) = dead_set(m, x, c, values) {
                // Values the control never holds need no normalization (and would
                // only make the report puzzling).
                for (d, h) in dead.iter_mut().zip(&held) {
                    *d &= *h;
                }
                if !dead.iter().any(|&d| d) {
                    continue;
                }
                out.push(DeadArray {
                    var: x,
                    control: c,
                    dead,
                });
                break;
            }
        }
    }
    out
}

/// The largest dead set of `x` under control `c`, or `None` when a read of `x` is not
/// of the pinned shape.
fn dead_set(m: &Model, x: VarId, c: VarId, values: usize) -> Option<Vec<bool>> {
    let mut dead = vec![true; values];
    // Reads: each must be X[p] after a pin C[p] = v; v is then live.
    for t in &m.transitions {
        let conj = conjuncts(&t.guard);
        let other_reads = t.updates.iter().any(|u| {
            u.index.iter().any(|ix| match ix {
                Index::Term(e) => reads_other_than_params(e, x, t.params),
                Index::Bind(_) => false,
            }) || match &u.value {
                UpdValue::Term(e) => reads_other_than_params(e, x, t.params),
                UpdValue::Any { cond, .. } => reads(cond, x),
                UpdValue::Nondet => false,
            }
        });
        if other_reads || conj.iter().any(|e| reads_other_than_params(e, x, t.params)) {
            return None;
        }
        for p in 0..t.params {
            let read_at = |e: &Expr| reads_at(e, x, p);
            let in_updates = t.updates.iter().any(|u| {
                u.index
                    .iter()
                    .any(|ix| matches!(ix, Index::Term(e) if read_at(e)))
                    || matches!(&u.value, UpdValue::Term(e) if read_at(e))
            });
            let first_read = conj.iter().position(|e| read_at(e));
            if first_read.is_none() && !in_updates {
                continue;
            }
            let limit = first_read.unwrap_or(conj.len());
            match conj[..limit].iter().find_map(|e| pin(e, c, p)) {
                Some(v) if (v as usize) < values => dead[v as usize] = false,
                _ => return None,
            }
        }
    }
    // Revivals: shrink the dead set until every store into C that may leave it writes X.
    loop {
        let before = dead.clone();
        for t in &m.transitions {
            let conj = conjuncts(&t.guard);
            for u in t.updates.iter().filter(|u| u.var == c) {
                let stored = stored_values(&u.value, values);
                if stored.iter().all(|&v| dead[v]) {
                    continue;
                }
                let p = match u.index.as_slice() {
                    [Index::Term(Expr::Local(p))] if *p < t.params => *p,
                    _ => {
                        dead.iter_mut().for_each(|d| *d = false);
                        continue;
                    }
                };
                let writes_x = t.updates.iter().any(|w| {
                    w.var == x
                        && matches!(w.index.as_slice(), [Index::Term(Expr::Local(q))] if *q == p)
                });
                if writes_x {
                    continue;
                }
                match conj.iter().find_map(|e| pin(e, c, p)) {
                    Some(v) if (v as usize) < values => dead[v as usize] = false,
                    _ => dead.iter_mut().for_each(|d| *d = false),
                }
            }
        }
        if dead == before {
            return Some(dead);
        }
    }
}

/// The values a cell of `c` may ever hold: those `init` may give it and those an
/// update may store.
fn held_values(m: &Model, c: VarId, values: usize) -> Vec<bool> {
    let mut held = vec![false; values];
    for init in &m.inits {
        let pinned =
            (0..init.params).find_map(|p| conjuncts(&init.body).iter().find_map(|e| pin(e, c, p)));
        match pinned {
            Some(v) if (v as usize) < values && v >= 0 => held[v as usize] = true,
            _ => held.iter_mut().for_each(|h| *h = true),
        }
    }
    if m.inits.is_empty() {
        held.iter_mut().for_each(|h| *h = true);
    }
    for t in &m.transitions {
        for u in t.updates.iter().filter(|u| u.var == c) {
            for v in stored_values(&u.value, values) {
                held[v] = true;
            }
        }
    }
    held
}

/// The values an update may store into a cell of a type with `values` values.
fn stored_values(v: &UpdValue, values: usize) -> Vec<usize> {
    fn leaves(e: &Expr, values: usize, out: &mut Vec<usize>) {
        match e {
            Expr::Const(v, _) if (*v as usize) < values && *v >= 0 => out.push(*v as usize),
            Expr::Ite(_, a, b, _) => {
                leaves(a, values, out);
                leaves(b, values, out);
            }
            _ => out.extend(0..values),
        }
    }
    let mut out = Vec::new();
    match v {
        UpdValue::Term(e) => leaves(e, values, &mut out),
        _ => out.extend(0..values),
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The top-level conjuncts of a guard, in order.
fn conjuncts(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::And(v) => v.iter().flat_map(conjuncts).collect(),
        _ => vec![e],
    }
}

/// `C[p] = v` (either side), `C[p]` or `not C[p]` for a bool array: the value v.
fn pin(e: &Expr, c: VarId, p: LocalId) -> Option<i64> {
    let is_cell = |e: &Expr| matches!(e, Expr::Read(v, ix) if *v == c && matches!(ix.as_slice(), [Expr::Local(q)] if *q == p));
    match e {
        Expr::Cmp(CmpOp::Eq, a, b) => match (&**a, &**b) {
            (a, Expr::Const(v, _)) if is_cell(a) => Some(*v),
            (Expr::Const(v, _), b) if is_cell(b) => Some(*v),
            _ => None,
        },
        Expr::Not(a) if is_cell(a) => Some(0),
        e if is_cell(e) => Some(1),
        _ => None,
    }
}

/// Calls `f` on every read `X[index]` in `e`, with its index terms.
fn each_read(e: &Expr, x: VarId, f: &mut dyn FnMut(&[Expr])) {
    if let Expr::Read(v, ix) = e
        && *v == x
    {
        f(ix);
    }
    e.for_each_child(|a| each_read(a, x, f));
}

fn reads(e: &Expr, x: VarId) -> bool {
    let mut any = false;
    each_read(e, x, &mut |_| any = true);
    any
}

/// Whether `e` reads `X[p]`.
fn reads_at(e: &Expr, x: VarId, p: LocalId) -> bool {
    let mut any = false;
    each_read(e, x, &mut |ix| {
        any |= matches!(ix, [Expr::Local(q)] if *q == p)
    });
    any
}

/// Whether `e` reads a cell of `X` at an index other than a process parameter.
fn reads_other_than_params(e: &Expr, x: VarId, params: usize) -> bool {
    let mut any = false;
    each_read(e, x, &mut |ix| {
        any |= !matches!(ix, [Expr::Local(q)] if *q < params)
    });
    any
}

/// The dead-cell normalization of one instance: per array, the slots of `X[i]` and
/// `C[i]` for every process i.
#[derive(Clone, Debug)]
pub struct Dead {
    /// (slot of X[i], slot of C[i], dead set, filler value).
    cells: Vec<(usize, usize, Vec<bool>, i64)>,
}

impl Dead {
    /// The normalization for `inst`, or `None` when no array has dead cells.
    pub fn for_instance(inst: &Instance, arrays: &[DeadArray]) -> Option<Dead> {
        let mut cells = Vec::new();
        for a in arrays {
            for i in 1..=inst.n as i64 {
                if let (Some(xs), Some(cs)) =
                    (inst.slot_of(a.var, &[i]), inst.slot_of(a.control, &[i]))
                {
                    let filler = inst.slots[xs].lo;
                    cells.push((xs, cs, a.dead.clone(), filler));
                }
            }
        }
        (!cells.is_empty()).then_some(Dead { cells })
    }

    /// Call `f(slot, filler)` for every dead cell of `st` not holding its filler value
    /// (what `normalize` would change).
    pub fn each_fix(&self, st: &[i64], mut f: impl FnMut(usize, i64)) {
        for (xs, cs, dead, filler) in &self.cells {
            if st[*xs] != *filler && dead.get(st[*cs] as usize).copied().unwrap_or(false) {
                f(*xs, *filler);
            }
        }
    }

    /// Set every dead cell of `st` to its filler value.
    pub fn normalize(&self, st: &mut [i64]) {
        for (xs, cs, dead, filler) in &self.cells {
            if dead.get(st[*cs] as usize).copied().unwrap_or(false) {
                st[*xs] = *filler;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(src: &str) -> Model {
        crate::lang::load_str("t.cub", src).expect("model")
    }

    /// The ticket lock as shipped (its edits below must each change the text).
    const TICKET: &str = include_str!("../../families/ticket_lock.cub");

    /// The arrays the analysis finds dead in `src`, described.
    fn dead(src: &str) -> Vec<String> {
        let m = model(src);
        analyse(&m).iter().map(|d| d.describe(&m)).collect()
    }

    /// The ticket lock with `from` replaced by `to`.
    fn edited(from: &str, to: &str) -> String {
        let text = TICKET.replace(from, to);
        assert_ne!(text, TICKET, "`{from}` is in the ticket lock");
        text
    }

    #[test]
    fn a_ticket_is_dead_outside_the_wait() {
        assert_eq!(dead(TICKET), ["`Ticket` while `Pc` is Idle or Crit"]);
    }

    #[test]
    fn a_revival_without_a_write_keeps_its_sources_live() {
        // `sneak` waits from Idle without taking a ticket: Idle cells are read later,
        // and so are Crit cells, which `leave` takes to Idle without a write.
        let sneak = "transition sneak (i) requires { Pc[i] = Idle } { Pc[i] := Wait; }\n";
        assert!(dead(&format!("{TICKET}{sneak}")).is_empty());
        // Leaving with a fresh ticket keeps Crit dead.
        let fresh = edited("Pc[i] := Idle;", "Pc[i] := Idle; Ticket[i] := Next;");
        assert_eq!(
            dead(&format!("{fresh}{sneak}")),
            ["`Ticket` while `Pc` is Crit"]
        );
    }

    #[test]
    fn other_reads_keep_the_cells_live() {
        for (from, to) in [
            // A read before the pin.
            (
                "Pc[i] = Wait && Ticket[i] = Serving",
                "Ticket[i] = Serving && Pc[i] = Wait",
            ),
            // A property reading the array.
            ("Pc[z2] = Crit }", "Pc[z2] = Crit && Ticket[z1] = 0 }"),
            // Reads at other processes.
            (
                "Pc[i] = Wait && Ticket[i] = Serving",
                "Pc[i] = Wait && forall_other j. Ticket[j] <> Serving",
            ),
        ] {
            assert!(dead(&edited(from, to)).is_empty(), "{to}");
        }
    }
}
