//! The counter view of a fully symmetric family (issue 26): at one width n, a state is
//! described up to process renaming by its globals and by how many processes are in
//! each *local-state class*, so the family becomes a system of counters, one per class
//! (T. Wahl, *Exploiting Replication in Automated Program Verification*, PhD thesis,
//! UT Austin 2007, ch. 6 "generic representatives" and ch. 7 "counting less"; the
//! counter abstraction of A. Pnueli, J. Xu and L. Zuck, *Liveness with (0,1,∞)-counter
//! abstraction*, CAV 2002, here exact since every count runs over 0..n).
//!
//! - A class is a tuple of values of the *relevant* process-indexed arrays: those a
//!   guard or a property reads, closed under the arrays their updates read (a private
//!   cell nothing else reads does not multiply the classes); a cell dead in a class
//!   (`model::dead`) is left out of it.
//! - A transition of one process moves one unit from its class to another; a guard
//!   `forall_other j. P(j)` becomes a count test over the classes where P fails.
//! - Place invariants (linear equalities between counters and the integer globals that
//!   every transition keeps, `linear`) eliminate counters; each is a readable lemma
//!   `#{x : P(x)} = E` of the certificate. A global that such an equality ties to
//!   the counts *counts processes* (`CounterView::counters`); IC3 uses the view only
//!   for families that have one (`ic3::counter_view`).
//!
//! The counter model is built as IR, printed and read back through the front end (as
//! `live::Product` does); it is an exact abstraction of the width-n instance, but nothing
//! trusts that: its invariant is translated back into counting lemmas over the model's
//! own cells and checked by `proof::check` on the per-process instance.

mod build;
pub mod cyclic;
mod emit;
pub mod linear;

pub use build::CounterView;
pub use emit::build;

use crate::model::ir::*;

/// The fragment the counter view covers, decided from the model: the reason when a
/// model is outside it.
pub fn fragment(m: &Model) -> Result<(), String> {
    if !m.is_symmetric() {
        return Err("the family is not fully symmetric".into());
    }
    if m.int_window.is_some() || !m.data_types.is_empty() || m.extra_proc.is_some() {
        return Err("the model has int, abstract types or an extra process id".into());
    }
    if m.number_procs.is_some() {
        return Err("the model fixes its size".into());
    }
    for v in &m.vars {
        let local = v.dims == [Ty::Proc];
        if v.ty == Ty::Proc || (!local && v.dims.contains(&Ty::Proc)) {
            return Err(format!(
                "`{}` holds or is indexed by several processes",
                v.name
            ));
        }
        if v.kind == VarKind::Array && !local {
            return Err(format!(
                "`{}` is an array not indexed by one process",
                v.name
            ));
        }
    }
    if !m.vars.iter().any(|v| v.dims == [Ty::Proc]) {
        return Err("the family has no process cells to count".into());
    }
    if m.transitions.iter().any(|t| t.params != 1) {
        return Err("a transition does not have exactly one process parameter".into());
    }
    if m.inits.len() > 1 || m.inits.iter().any(|i| i.params > 1) {
        return Err("init has several blocks or parameters".into());
    }
    if m.unsafes.iter().any(|u| u.params > 4) {
        return Err("a property names more than 4 processes".into());
    }
    Ok(())
}

/// The values of type `t` at width n.
pub(crate) fn domain(m: &Model, t: Ty, n: usize) -> Option<Vec<i64>> {
    match t {
        Ty::Bool => Some(vec![0, 1]),
        Ty::Enum(e) => Some((0..m.enums[e].ctors.len() as i64).collect()),
        Ty::Range(r) => {
            let (lo, hi) = (m.ranges[r].lo.eval(n as i64), m.ranges[r].hi.eval(n as i64));
            (hi - lo < 4096).then(|| (lo..=hi).collect())
        }
        _ => None,
    }
}

/// The variables `e` reads.
pub(crate) fn reads(e: &Expr, out: &mut Vec<VarId>) {
    if let Expr::Read(v, _) = e {
        out.push(*v);
    }
    e.for_each_child(|x| reads(x, out));
}

/// The process-indexed arrays that matter: read by a guard or a property, closed under
/// the arrays read by their updates (and the updates of the globals that matter).
pub(crate) fn relevant(m: &Model) -> Vec<bool> {
    let mut want = vec![false; m.vars.len()];
    let mut seed = Vec::new();
    m.transitions
        .iter()
        .for_each(|t| reads(&t.guard, &mut seed));
    m.unsafes.iter().for_each(|u| reads(&u.body, &mut seed));
    for v in seed {
        want[v] = true;
    }
    for (v, var) in m.vars.iter().enumerate() {
        if var.dims.is_empty() {
            want[v] = true;
        }
    }
    loop {
        let mut grew = false;
        for t in &m.transitions {
            for u in &t.updates {
                if !want[u.var] {
                    continue;
                }
                let mut r = Vec::new();
                if let UpdValue::Term(e) | UpdValue::Any { cond: e, .. } = &u.value {
                    reads(e, &mut r);
                }
                for ix in &u.index {
                    if let Index::Term(e) = ix {
                        reads(e, &mut r);
                    }
                }
                for x in r {
                    grew |= !want[x];
                    want[x] = true;
                }
            }
        }
        if !grew {
            return want;
        }
    }
}

/// Evaluate a closed expression (no reads, no locals): `None` when it is not closed.
pub(crate) fn fold(e: &Expr, n: usize) -> Option<i64> {
    let b = |x: bool| Some(x as i64);
    match e {
        Expr::Const(v, _) => Some(*v),
        Expr::Size => Some(n as i64),
        Expr::Arith(op, x, y) => {
            let (x, y) = (fold(x, n)?, fold(y, n)?);
            Some(match op {
                ArithOp::Add => x + y,
                ArithOp::Sub => x - y,
                ArithOp::Mul => x * y,
            })
        }
        Expr::Cmp(op, x, y) => b(op.apply(fold(x, n)?, fold(y, n)?)),
        Expr::Not(x) => b(fold(x, n)? == 0),
        Expr::And(xs) => {
            let mut open = false;
            for x in xs {
                match fold(x, n) {
                    Some(0) => return Some(0),
                    Some(_) => {}
                    None => open = true,
                }
            }
            if open { None } else { Some(1) }
        }
        Expr::Or(xs) => {
            let mut open = false;
            for x in xs {
                match fold(x, n) {
                    Some(0) => {}
                    Some(_) => return Some(1),
                    None => open = true,
                }
            }
            if open { None } else { Some(0) }
        }
        Expr::Imp(x, y) => match fold(x, n) {
            Some(0) => Some(1),
            Some(_) => fold(y, n).map(|v| (v != 0) as i64),
            None => match fold(y, n) {
                Some(v) if v != 0 => Some(1),
                _ => None,
            },
        },
        Expr::Iff(x, y) => b((fold(x, n)? != 0) == (fold(y, n)? != 0)),
        Expr::Ite(c, x, y, _) => {
            if fold(c, n)? != 0 {
                fold(x, n)
            } else {
                fold(y, n)
            }
        }
        Expr::Read(..) | Expr::Local(_) | Expr::Quant(_) => None,
    }
}

/// `&&` (`and`) or `||` of `xs` simplified: the unit (true for `&&`) dropped, the zero
/// deciding, one operand left standing alone.
fn junction(xs: Vec<Expr>, n: usize, and: bool) -> Expr {
    let (unit, zero) = if and { (1, 0) } else { (0, 1) };
    let xs: Vec<Expr> = xs
        .into_iter()
        .map(|x| simplify(x, n))
        .filter(|x| fold(x, n) != Some(unit))
        .collect();
    if xs.iter().any(|x| fold(x, n) == Some(zero)) {
        Expr::Const(zero, Ty::Bool)
    } else if xs.len() == 1 {
        xs.into_iter().next().unwrap_or(Expr::tt())
    } else if xs.is_empty() {
        Expr::Const(unit, Ty::Bool)
    } else if and {
        Expr::And(xs)
    } else {
        Expr::Or(xs)
    }
}

/// Simplify: closed subterms become constants, `&&`/`||` lose constant operands.
pub(crate) fn simplify(e: Expr, n: usize) -> Expr {
    if let Some(v) = fold(&e, n) {
        let ty = match &e {
            Expr::Cmp(..) | Expr::Not(_) | Expr::And(_) | Expr::Or(_) => Ty::Bool,
            Expr::Imp(..) | Expr::Iff(..) => Ty::Bool,
            Expr::Const(_, t) | Expr::Ite(_, _, _, t) => *t,
            _ => Ty::Int,
        };
        return Expr::Const(v, ty);
    }
    match e {
        Expr::And(xs) => junction(xs, n, true),
        Expr::Or(xs) => junction(xs, n, false),
        Expr::Not(x) => Expr::Not(Box::new(simplify(*x, n))),
        Expr::Ite(c, x, y, t) => {
            let c = simplify(*c, n);
            match fold(&c, n) {
                Some(0) => simplify(*y, n),
                Some(_) => simplify(*x, n),
                None => Expr::Ite(
                    Box::new(c),
                    Box::new(simplify(*x, n)),
                    Box::new(simplify(*y, n)),
                    t,
                ),
            }
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(path: &str, n: usize) -> CounterView {
        let m = crate::lang::load_file(path).unwrap();
        build(&m, n).unwrap()
    }

    #[test]
    fn the_private_digit_does_not_multiply_the_classes() {
        // rw_counter: Idle, Reading, Writing (D is read only by its own update).
        let v = view("benches/models/rw_counter.cub", 4);
        eprintln!("{}", v.model.source.text);
        eprintln!("{:?}", v.equalities);
        assert_eq!(v.classes, 3);
        assert!(
            v.equalities
                .contains(&"#{x : Pc[x] = Reading} <> Cnt".to_string())
        );
    }

    #[test]
    fn dead_tickets_do_not_multiply_the_classes() {
        // Idle and Crit (ticket dead there), Wait with each ticket 0..N.
        let v = view("families/ticket_lock.cub", 3);
        eprintln!("{}", v.model.source.text);
        assert_eq!(v.classes, 1 + 4 + 1);
    }

    #[test]
    fn the_globals_that_count_processes() {
        // By hand from the models: Cnt moves with every entry to and exit from Reading,
        // Arrived with every arrival, Free against every entry to In; the mutex's Sem is
        // a flag (bool, no count), readers_writers has no globals.
        for (p, n, want) in [
            ("benches/models/rw_counter.cub", 3, vec!["Cnt"]),
            ("benches/models/barrier.cub", 1, vec!["Arrived"]),
            ("benches/models/semaphore_k2.cub", 2, vec!["Free"]),
            ("families/mutex.cub", 3, vec![]),
            ("families/readers_writers.cub", 3, vec![]),
        ] {
            assert_eq!(view(p, n).counters, want, "{p}");
        }
    }

    #[test]
    fn barrier_and_semaphore() {
        for (p, n) in [
            ("benches/models/barrier.cub", 4),
            ("benches/models/semaphore_k2.cub", 4),
        ] {
            let v = view(p, n);
            eprintln!("{}\n{:?}", v.model.source.text, v.equalities);
        }
    }
}
