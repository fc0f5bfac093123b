//! Properties whose formula no state satisfies at all, reachable or not: the formula
//! contradicts itself at that size (`Pc[p] = Crit && Pc[p] = Idle`, a process name
//! written twice where two were meant, a value outside a cell's type), so the
//! property holds whatever the model does. One SAT query per property on a frame of
//! free state variables under the state constraints (every cell within its type), the
//! same frame the proof checker uses for arbitrary states.

use crate::model::ir::Model;
use crate::sat::{SolveResult, SolverKind, Stop};
use crate::transys::frame::Encoding;
use crate::transys::unroll::Unroller;

/// For each property of `props` that has a tuple of pairwise distinct processes at size
/// `n`: `Some(true)` when some state of the instance (any values of the cells' types)
/// has the formula true or meets a range error evaluating it for some tuple,
/// `Some(false)` when none does, `None` when undecided (a limit, or no solver).
pub fn satisfiable_anywhere(
    model: &Model,
    n: usize,
    props: &[usize],
    stop: &Stop,
) -> Vec<(usize, Option<bool>)> {
    let props: Vec<usize> = props
        .iter()
        .copied()
        .filter(|&u| model.unsafes[u].params <= n)
        .collect();
    if props.is_empty() {
        return Vec::new();
    }
    let Ok(mut solver) = SolverKind::default_kind().create_plain() else {
        return props.iter().map(|&u| (u, None)).collect();
    };
    let mut u = Unroller::new(model, n, Encoding::OneHot);
    props
        .iter()
        .map(|&p| {
            let (b, e) = u.bad(p, 0);
            let either = u.c.or(&[b, e]);
            let answer = match solver.solve(&u.c.cnf, &[either], stop) {
                SolveResult::Sat => Some(true),
                SolveResult::Unsat => Some(false),
                SolveResult::Unknown => None,
            };
            (p, answer)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::load_str;

    #[test]
    fn contradictions_are_found_and_satisfiable_formulas_kept() {
        let m = load_str(
            "t.cub",
            "type loc = Idle | Want | Crit
             var X : 0 .. 3
             array Pc[proc] : loc
             init (p) { Pc[p] = Idle && X = 0 }
             unsafe same (p) { Pc[p] = Crit && Pc[p] = Idle }
             unsafe fine (p q) { Pc[p] = Crit && Pc[q] = Crit }
             unsafe distinct (p q) { Pc[p] = Crit && p = q }
             unsafe big { X + 1 > 4 }
             unsafe two (p q) { Pc[p] = Crit && Pc[q] = Want && X = 2 }
             transition t (i) requires { Pc[i] = Idle } { Pc[i] := Want; }",
        )
        .unwrap();
        let stop = Stop::default();
        let got = satisfiable_anywhere(&m, 2, &[0, 1, 2, 3, 4], &stop);
        assert_eq!(
            got,
            vec![
                (0, Some(false)),
                (1, Some(true)),
                (2, Some(false)),
                (3, Some(false)),
                (4, Some(true)),
            ]
        );
        // At size 1 the properties of two processes have no tuple: not asked.
        let got = satisfiable_anywhere(&m, 1, &[0, 1, 4], &stop);
        assert_eq!(got, vec![(0, Some(false))]);
    }
}
