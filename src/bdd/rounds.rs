//! The fixpoint on the k-liveness product (`live::Variant::Klive`): its flags record,
//! since the last count, whether an accepting automaton state was left and (under
//! weak fairness) which processes were served; the count step ends a *round*. A run
//! violates the property exactly when it completes infinitely many rounds, so the
//! generalised Büchi condition of Emerson and Lei (acceptance, and one justice
//! condition per process slot) becomes the single condition "a count step", and
//!
//! - L_0 = the valid states, L_{k+1} = E[non-count steps U (a count step into L_k)]
//!   (the states from which some run completes k + 1 rounds), each within L_k;
//! - L_∞ = νZ. E[non-count U (count into Z)] is the set of states with a run of
//!   infinitely many rounds (E. A. Emerson, C.-L. Lei, "Efficient model checking in
//!   fragments of the propositional mu-calculus", LICS 1986: one ν over one µ for a
//!   single Büchi condition).
//!
//! Width w holds when its initial states leave L_k for some k (the smallest is K_w:
//! "no run from an initial state completes K_w rounds", the k-liveness certificate
//! of `export`), and fails when they meet L_∞ (the sequence stopped shrinking). The
//! sets are over the aggregate, so one sequence answers every width at once.

use super::Budget;
use super::sys::{F, R, Sys};
use oxidd::BooleanFunction;

/// What the sequence answered.
pub struct Rounds {
    /// L_0, L_1, ...: the last is L_∞ when `converged`.
    pub sets: Vec<F>,
    pub converged: bool,
    /// Per width still asked about: K_w, the first k with Init_w ∩ L_k empty.
    pub proved: Vec<(usize, usize)>,
    /// Widths whose initial states meet L_∞.
    pub failing: Vec<usize>,
    /// Images computed.
    pub images: usize,
}

/// The states from which a run of non-count steps reaches `target`, within `within`
/// (a least fixpoint, frontier by frontier); with the frontiers when `rings`.
pub fn reach_back(
    sys: &mut Sys,
    target: &F,
    within: &F,
    budget: &Budget,
    images: &mut usize,
    rings: Option<&mut Vec<F>>,
) -> R<F> {
    let (all, found) = backward(sys, target, within, budget, |sys, s| {
        let p = pre_step(sys, s, within, budget);
        *images += 1;
        p
    })?;
    if let Some(r) = rings {
        *r = found;
    }
    Ok(all)
}

/// Backward reachability through every step (counts included) within `within`, with
/// its frontiers (ring i: the states i steps away and no fewer).
pub fn reach_all_back(sys: &mut Sys, target: &F, within: &F, budget: &Budget) -> R<(F, Vec<F>)> {
    backward(sys, target, within, budget, |sys, s| {
        let a = pre_step(sys, s, within, budget)?;
        let b = pre_count(sys, s, within, budget)?;
        Ok(a.or(&b)?)
    })
}

/// The states reaching `target` within `within`, frontier by frontier, `pre` giving
/// the predecessors of a frontier; with the frontiers (ring i: the states i steps
/// away and no fewer).
fn backward(
    sys: &mut Sys,
    target: &F,
    within: &F,
    budget: &Budget,
    mut pre: impl FnMut(&mut Sys, &F) -> R<F>,
) -> R<(F, Vec<F>)> {
    let mut all = target.and(within)?;
    let mut frontier = all.clone();
    let mut rings = Vec::new();
    while frontier.satisfiable() {
        rings.push(frontier.clone());
        budget.poll()?;
        let new = pre(sys, &frontier)?.and(&all.not()?)?;
        all = all.or(&new)?;
        frontier = new;
        sys.note_size(&all);
    }
    Ok((all, rings))
}

/// The states with a step other than a count into `s`, within `within`.
fn pre_step(sys: &mut Sys, s: &F, within: &F, budget: &Budget) -> R<F> {
    let steps = std::mem::take(&mut sys.steps);
    let p = sys.pre(&steps, s, within, budget);
    sys.steps = steps;
    p
}

/// The states with a count step into `s`, within `within`.
pub fn pre_count(sys: &mut Sys, s: &F, within: &F, budget: &Budget) -> R<F> {
    let special = std::mem::take(&mut sys.special);
    let p = sys.pre(&special, s, within, budget);
    sys.special = special;
    p
}

/// The sequence L_0 ⊇ L_1 ⊇ ... until every width of `widths` (with its initial
/// states) is proved or the sequence converges; `progress` is told each step.
pub fn run(
    sys: &mut Sys,
    widths: &[(usize, F)],
    budget: &Budget,
    progress: &mut dyn FnMut(usize, &F, usize, usize),
) -> R<Rounds> {
    let mut sets = vec![sys.valid.clone()];
    let mut open: Vec<(usize, F)> = widths.to_vec();
    let mut proved = Vec::new();
    let mut images = 0;
    // Widths without initial states are not asked about (the caller says vacuous).
    open.retain(|(_, i)| i.satisfiable());
    loop {
        let k = sets.len() - 1;
        let last = sets[k].clone();
        let counted = pre_count(sys, &last, &last, budget)?;
        images += 1;
        let next = reach_back(sys, &counted, &last, budget, &mut images, None)?;
        let mut still = Vec::new();
        for (w, init) in open {
            if init.and(&next)?.satisfiable() {
                still.push((w, init));
            } else {
                proved.push((w, k + 1));
            }
        }
        open = still;
        let same = next == last;
        progress(k + 1, &next, open.len(), images);
        if !same {
            sets.push(next);
        }
        if open.is_empty() || same {
            return Ok(Rounds {
                converged: same,
                failing: if same {
                    open.iter().map(|(w, _)| *w).collect()
                } else {
                    Vec::new()
                },
                sets,
                proved,
                images,
            });
        }
    }
}
