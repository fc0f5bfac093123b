//! The cutoff argument for ranking proofs of response properties `G (A => F B)` under
//! weak fairness (`cert::Ranking`) at every size: which rankings it covers and the
//! cutoff c up to which the ranking must be checked so that it is a proof at every n.
//! The argument and its proof are written out in docs/every-n.md ("Liveness for every
//! n"); it follows the safety argument of `proof::cutoff` (restricting a state to a set
//! S of its processes), and for the obligations that say "some step is possible" it
//! uses the counting argument of Ehrenfeucht–Fraïssé games on processes coloured by
//! their local states, the small-model idea behind invisible ranking (Y. Fang, N.
//! Piterman, A. Pnueli and L. Zuck, *Liveness with Invisible Ranking*, VMCAI 2004).
//!
//! The ranking's obligations at a size (`proof::check::rank`), for process i:
//! - coverage: Inv ∧ A(i) ∧ ¬B(i) lies in a phase;
//! - progress: a step from phase k (its first phase) reaches B, an earlier phase, or
//!   stays in phase k keeping its promise (helpful: the step is not i's; ranked: some
//!   other process's weight falls and none rises);
//! - stalls: a ranked phase has no deadlocked state (its stutter keeps no promise), and
//!   in a helpful one process i is enabled.
//!
//! A violation of the first two is existential-universal once every phase, A and B
//! are (their process quantifiers unnested) and the weights quantifier-free: it
//! restricts to the processes it names, as a safety violation does. A stall says "no
//! instance is enabled", universal over the instances: when no guard has a universal
//! quantifier over processes it is universal too and restricts the same way;
//! otherwise the model must keep one colour per process (each process's cells, no
//! array indexed by two processes, no array of processes), and a stalled state
//! shrinks to one with at most q processes of each colour besides i and the targets
//! of the process-valued globals, q the quantifier rank of the stall's formula.

use super::cutoff::{Fragment, Pol, domain_size, witnesses};
use crate::model::ir::{Expr, Model, Transition, Ty, UpdValue};

/// Above this cutoff the check is not attempted (every size 1..c is one SAT check of
/// one step per obligation, growing with the square of the size).
pub const MAX_CUTOFF: usize = 24;

/// The formulas of a ranking, read as expressions of the model: the request A and the
/// response B (over i), each phase (over i) with whether it is helpful, and every
/// weight formula (over i and another process).
pub struct RankFormulas<'a> {
    pub a: &'a Expr,
    pub b: &'a Expr,
    pub phases: Vec<(&'a Expr, bool)>,
    pub weights: Vec<&'a Expr>,
}

/// The cutoff of a ranking, and how its stall obligations were bounded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveCutoff {
    pub cutoff: usize,
    /// The local states a process can have, when the stalls needed the colour count.
    pub colours: Option<usize>,
}

/// The quantifier rank of `e` over processes.
fn rank(e: &Expr) -> usize {
    let mut most = 0;
    e.for_each_child(|x| most = most.max(rank(x)));
    match e {
        Expr::Quant(q) if q.over_procs() => 1 + most,
        _ => most,
    }
}

/// The number of local states of one process (the values of its cells), when every
/// process-indexed array has one process index and holds no process.
fn colours(m: &Model) -> Result<usize, String> {
    let mut l: usize = 1;
    for v in &m.vars {
        let procs = v.dims.iter().filter(|d| **d == Ty::Proc).count();
        if procs == 0 {
            continue;
        }
        if procs > 1 {
            return Err(format!("`{}` is indexed by two processes", v.name));
        }
        if v.ty == Ty::Proc {
            return Err(format!("`{}` holds processes", v.name));
        }
        let cells: usize = v
            .dims
            .iter()
            .filter(|d| **d != Ty::Proc)
            .map(|d| domain_size(m, *d))
            .product();
        let per = domain_size(m, v.ty).saturating_pow(cells.min(64) as u32);
        l = l.saturating_mul(per);
    }
    Ok(l)
}

/// Why the ranking argument does not apply to the model at all (beyond the safety
/// fragment `frag`), if it does not.
fn refused(m: &Model, frag: &Fragment) -> Option<String> {
    if m.is_ordered() {
        return Some(
            "an ordered family (the liveness argument is for fully symmetric ones)".into(),
        );
    }
    if frag.standin || m.extra_proc.is_some() {
        return Some("stand-in arrays or an extra process id".into());
    }
    if frag.ints || m.int_window.is_some() {
        return Some("a model with ints".into());
    }
    let any = |t: &Transition| {
        t.updates
            .iter()
            .any(|u| matches!(u.value, UpdValue::Any { .. }))
    };
    m.transitions.iter().find(|t| any(t)).map(|t| {
        format!(
            "`any` in `{}` (it adds a condition to being enabled)",
            t.name
        )
    })
}

/// The cutoff of the ranking `f` of model `m` (read with the ranking's formulas), in
/// the safety fragment `frag`; or why the argument does not cover it.
pub fn live_cutoff(m: &Model, f: &RankFormulas, frag: &Fragment) -> Result<LiveCutoff, String> {
    if let Some(r) = refused(m, frag) {
        return Err(r);
    }
    let w = |e: &Expr, pol: Pol, what: &str| {
        witnesses(m, e, pol, false).map_err(|e| format!("{what}: {e}"))
    };
    for wt in &f.weights {
        if witnesses(m, wt, Pol::Both, true).is_err() {
            return Err("a weight formula quantifies over processes".into());
        }
    }
    let a = w(f.a, Pol::Pos, "the request")?;
    let nb = w(f.b, Pol::Neg, "the response")?;
    let mut pos = Vec::new();
    let mut neg = Vec::new();
    for (k, (p, _)) in f.phases.iter().enumerate() {
        let what = format!("phase {}", k + 1);
        // A phase is read in both polarities; its quantifiers must not nest.
        w(p, Pol::Both, &what)?;
        pos.push(w(p, Pol::Pos, &what)?);
        neg.push(w(p, Pol::Neg, &what)?);
    }
    let mut most = 1 + a + nb + neg.iter().sum::<usize>();
    let mut stall_rank = 0;
    for (k, (_, helpful)) in f.phases.iter().enumerate() {
        let before: usize = neg[..k].iter().sum();
        let pre = pos[k] + before + nb;
        let post = nb + before + neg[k] + usize::from(!helpful);
        most = most.max(1 + frag.step + pre + post);
        // Stalls: i disabled (helpful: the instances whose first parameter is i), or
        // a deadlock (ranked: every instance).
        let fixed = usize::from(*helpful);
        let ts: Vec<&Transition> = m.transitions.iter().filter(|t| t.params >= fixed).collect();
        if ts
            .iter()
            .all(|t| witnesses(m, &t.guard, Pol::Neg, true).is_ok())
        {
            most = most.max(1 + pre);
        } else {
            let guards = ts.iter().map(|t| t.params - fixed + rank(&t.guard));
            let phases = f.phases[..=k].iter().map(|(p, _)| rank(p));
            stall_rank = stall_rank
                .max(guards.max().unwrap_or(0))
                .max(phases.max().unwrap_or(0))
                .max(rank(f.b));
        }
    }
    let mut out = LiveCutoff {
        cutoff: frag.pointers + most,
        colours: None,
    };
    if stall_rank > 0 {
        let l = colours(m).map_err(|e| {
            format!("a guard with a universal quantifier over processes, and {e}: no bound for the sizes where no step is possible")
        })?;
        let ef = (1 + frag.pointers).saturating_add(stall_rank.saturating_mul(l));
        out.cutoff = out.cutoff.max(ef);
        out.colours = Some(l);
    }
    if out.cutoff > MAX_CUTOFF {
        return Err(format!(
            "the cutoff would be {}{}, above {MAX_CUTOFF}",
            out.cutoff,
            out.colours
                .map(|l| format!(" ({l} local states of a process, {stall_rank} of each)"))
                .unwrap_or_default()
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(text: &str) -> Model {
        crate::lang::load_str("t.cub", text).expect("a model")
    }

    #[test]
    fn rank_counts_nested_process_quantifiers_only() {
        let m = model(
            "type s = A | B\narray X[proc] : s\ninit (i) { X[i] = A }\nunsafe (i) { X[i] = B && forall_other j. (X[j] = A || exists k. X[k] = B) }\n",
        );
        assert_eq!(rank(&m.unsafes[0].body), 2);
    }

    #[test]
    fn colours_multiply_the_domains_of_a_process_cells() {
        let m = model(
            "type s = A | B | C\narray X[proc] : s\narray Y[proc] : bool\nvar T : proc\ninit (i) { X[i] = A }\nunsafe (i) { X[i] = B }\n",
        );
        assert_eq!(colours(&m), Ok(6));
        let two = model(
            "array G[proc, proc] : bool\ninit (i j) { G[i, j] = False }\nunsafe (i j) { G[i, j] = True }\n",
        );
        assert!(colours(&two).is_err());
    }
}
