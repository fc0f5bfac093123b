//! Every n for models whose ints keep them outside the fragment of the cutoff
//! argument: the proof is made over an over-approximation of the ints (their classes
//! among the literals, `model::ints::abstracted`; their order, `model::ints::order`;
//! their differences up to the largest step), chosen here, each proof on it a proof
//! for the model (never a refutation); and each property's answer in the order asked.

use super::*;

/// The over-approximation of `model` over the classes of its ints (`model::ints::abstracted`),
/// when the ints' steps are all that keeps `model` out of the fragment of the cutoff
/// argument: a proof on it is a proof for the model (never a refutation).
pub fn abstraction(model: &Model) -> Option<Model> {
    if model.int_window.is_none() || cutoff::fragment(model).is_ok() {
        return None;
    }
    abstracted_any(model)
        .ok()
        .filter(|a| cutoff::fragment(a).is_ok())
}

/// The model over the classes of its ints (`model::ints::abstracted`), read back
/// (`lang::read_back`): what a certificate saying `abstraction ints` is about.
pub fn abstracted(model: &Model) -> Result<Model, String> {
    crate::lang::read_back(
        &crate::model::ints::abstracted::abstracted(model)?,
        "the model over the classes of its ints",
    )
}

/// The over-approximation of `model`'s ints: over their classes when they are only
/// compared with literals, otherwise over their order (`model::ints::order`, a
/// certificate saying `abstraction order`), read back.
pub fn abstracted_any(model: &Model) -> Result<Model, String> {
    abstracted(model).or_else(|e| {
        crate::lang::read_back(
            &crate::model::ints::order::ordered(model)
                .map_err(|o| format!("{e}; nor over their order: {o}"))?,
            "the model over the order of its ints",
        )
    })
}

/// Whether the every-n argument applies to `model`: it lies in the fragment of the
/// cutoff argument, or its ints' over-approximation does (`abstraction`).
pub fn in_reach(model: &Model) -> bool {
    cutoff::fragment(model).is_ok() || abstraction(model).is_some()
}

/// Prove each property of `props` at every size: all of them together first (one
/// invariant for all), then, when that fails, each on its own, so that a property
/// that holds for every n is told apart from one that does not. The answers come in
/// the order of `props`.
pub fn prove_each(
    model: &Model,
    props: &[usize],
    solver: SolverKind,
    symmetry: bool,
    ctl: &Control,
) -> Result<Vec<PropEvery>, String> {
    let first = prove_each_as_is(model, props, solver, symmetry, ctl, false)?;
    if first.iter().all(|p| p.answer.holds()) || !symmetry || ctl.sat_stop().now() {
        return Ok(first);
    }
    // Ints in the fragment over their window that grow past it (tickets): the
    // properties not proved are tried again over the order of the ints.
    let Some(abs) = order_fallback(model) else {
        return Ok(first);
    };
    retry_unproved(props, first, |todo| {
        prove_ordered_any(model, &abs, todo, solver, ctl)
    })
}

/// `prove_each` for the attempt before the sizes (`--every-n` gives it a long budget):
/// when the ints can also be argued over their order (`order_fallback`), the argument
/// over the window gets `every_first` seconds of CPU time before the order is tried. A window some run leaves cannot prove anything, and IC3 may take
/// long to find that run (Cubicle's `sense_barrier`: more than 100 s, where the
/// sizes show it at once). Also whether that budget cut the argument over the window
/// short while some property is not proved, or a property was found violated: those
/// answers are then not final.
pub fn prove_each_first(
    model: &Model,
    props: &[usize],
    solver: SolverKind,
    symmetry: bool,
    ctl: &Control,
) -> Result<(Vec<PropEvery>, bool), String> {
    let abs = order_fallback(model).filter(|_| symmetry && !props.is_empty());
    let Some(abs) = abs else {
        let answers = prove_each_as_is(model, props, solver, symmetry, ctl, true)?;
        let refuted = answers.iter().any(|p| super::refuted(&p.answer));
        return Ok((answers, refuted));
    };
    let wctl = ctl.within_cpu(crate::portfolio::budgets::SHIPPED.every_first);
    let first = prove_each_as_is(model, props, solver, symmetry, &wctl, true)?;
    let cut = wctl.sat_stop().now() && !ctl.sat_stop().now();
    if first.iter().all(|p| p.answer.holds()) || ctl.sat_stop().now() {
        return Ok((first, false));
    }
    // A property violated by a run of the model: the sizes show that run, and the
    // others are then argued on the model reduced to them, after the sizes (Cubicle's
    // `bakery_lamport_bogus`: its `invariant1` over the order of `Max` alone, 3
    // clauses, where with the violated property the order of every ticket is kept).
    if first.iter().any(|p| super::refuted(&p.answer)) {
        return Ok((first, true));
    }
    let answers = retry_unproved(props, first, |todo| {
        prove_ordered_any(model, &abs, todo, solver, ctl)
    })?;
    let open = !answers.iter().all(|p| p.answer.holds());
    Ok((answers, cut && open))
}

/// `prove_each` once a run is known to leave the int window (the sizes showed one):
/// the window cannot give the proof (`int_bound` fails), so the properties go to the
/// order of the ints at once (`order_fallback`), when it applies.
pub fn prove_each_past_window(
    model: &Model,
    props: &[usize],
    solver: SolverKind,
    symmetry: bool,
    ctl: &Control,
) -> Result<Vec<PropEvery>, String> {
    match order_fallback(model) {
        Some(abs) if symmetry && !props.is_empty() => {
            prove_ordered_any(model, &abs, props, solver, ctl)
        }
        _ => prove_each(model, props, solver, symmetry, ctl),
    }
}

/// The answers `first` to `props`, with the properties not proved tried again by
/// `again` (in order) and each answer it proves put in place (`merge`).
fn retry_unproved(
    props: &[usize],
    first: Vec<PropEvery>,
    again: impl FnOnce(&[usize]) -> Result<Vec<PropEvery>, String>,
) -> Result<Vec<PropEvery>, String> {
    let todo: Vec<usize> = props
        .iter()
        .zip(&first)
        .filter(|(_, a)| !a.answer.holds())
        .map(|(&p, _)| p)
        .collect();
    let again = again(&todo)?;
    Ok(merge(first, again))
}

/// The answers `first`, each one not proved replaced by the next of `again` (the
/// answers of a second try at the ones not proved, in order) when that one is.
fn merge(first: Vec<PropEvery>, again: Vec<PropEvery>) -> Vec<PropEvery> {
    let mut again = again.into_iter();
    first
        .into_iter()
        .map(|a| {
            if a.answer.holds() {
                return a;
            }
            match again.next() {
                Some(b) if b.answer.holds() => b,
                _ => a,
            }
        })
        .collect()
}

/// `prove_ordered` on `abs`, the over-approximation of `model` over the order of its
/// ints; the properties it does not prove are tried again over the differences of the
/// ints (`diff_abstraction`). So a model proved over the order keeps that proof.
fn prove_ordered_any(
    model: &Model,
    abs: &Model,
    props: &[usize],
    solver: SolverKind,
    ctl: &Control,
) -> Result<Vec<PropEvery>, String> {
    let first = prove_ordered(abs, props, solver, ctl)?;
    if first.iter().all(|p| p.answer.holds()) || ctl.sat_stop().now() {
        return Ok(first);
    }
    let Some(diff) = diff_abstraction(model) else {
        return Ok(first);
    };
    retry_unproved(props, first, |todo| prove_ordered(&diff, todo, solver, ctl))
}

/// The over-approximation of `model` over the order of its ints with their differences
/// kept up to its largest step (`model::ints::order::ordered_diff`), read back, when
/// every step adds a literal and it is in the fragment.
pub fn diff_abstraction(model: &Model) -> Option<Model> {
    use crate::model::ints::order::{diff_width, ordered_diff};
    let k = diff_width(model).ok()?;
    let m = ordered_diff(model, k).ok()?;
    crate::lang::read_back(&m, "the model over the differences of its ints")
        .ok()
        .filter(|a| cutoff::fragment(a).is_ok())
}

/// The over-approximation over the order of the ints of a model whose ints are in the
/// fragment over their window (`model::ints::order`), when it is in the fragment.
pub fn order_fallback(model: &Model) -> Option<Model> {
    if model.int_window.is_none() || cutoff::fragment(model).is_err() {
        return None;
    }
    let m = crate::model::ints::order::ordered(model).ok()?;
    crate::lang::read_back(&m, "the model over the order of its ints")
        .ok()
        .filter(|a| cutoff::fragment(a).is_ok())
}

/// `prove_each` on the model as it is (or its over-approximation when it is outside
/// the fragment only by its ints).
///
/// With `first` (the attempt before the sizes), a violation found for the properties
/// together ends it: the sizes show the run, and tell the properties apart.
fn prove_each_as_is(
    model: &Model,
    props: &[usize],
    solver: SolverKind,
    symmetry: bool,
    ctl: &Control,
    first: bool,
) -> Result<Vec<PropEvery>, String> {
    let start = Instant::now();
    if props.is_empty() {
        return Ok(Vec::new());
    }
    // Ints that step: the argument is made on their over-approximation (which keeps
    // the properties in order).
    if symmetry && let Some(abs) = abstraction(model) {
        if abs.ord_ints.is_some() {
            return prove_ordered_any(model, &abs, props, solver, ctl);
        }
        return prove_each_as_is(&abs, props, solver, symmetry, ctl, first);
    }
    let mut guessed = if ic3_known(model, props, solver) {
        None
    } else {
        guesses(model, symmetry, ctl)?
    };
    let together = prove_with(model, props, solver, symmetry, ctl, &mut guessed)?;
    let window_left =
        matches!(&together, EveryN::NotReached { reason, .. } if reason.starts_with(WINDOW_LEFT));
    let single = props.len() == 1
        || refused(model, symmetry).is_some()
        || window_left
        || (first && super::refuted(&together));
    if matches!(together, EveryN::Proved { .. }) || single {
        return Ok(EveryAnswers::same(props, together).props);
    }
    let alone = Alone {
        model,
        with: &[],
        solver,
        symmetry,
        ctl,
        start,
    };
    alone.each(props, &mut guessed)
}

/// How the properties not proved together are tried: each with the properties `with`
/// (the abstraction's own), on `model`.
struct Alone<'a> {
    model: &'a Model,
    with: &'a [usize],
    solver: SolverKind,
    symmetry: bool,
    ctl: &'a Control,
    start: Instant,
}

impl Alone<'_> {
    fn with(&self, props: &[usize]) -> Vec<usize> {
        props.iter().chain(self.with).copied().collect()
    }

    /// Each of `props` on its own (`prove_with`), but first the part of them that the
    /// candidates `guessed` prove together (`proved_part`), which then need no try of
    /// their own.
    fn each(
        &self,
        props: &[usize],
        guessed: &mut Option<Guessed>,
    ) -> Result<Vec<PropEvery>, String> {
        let (model, solver, ctl) = (self.model, self.solver, self.ctl);
        let part = proved_part(model, &self.with(props), guessed, solver, ctl)?
            .filter(|(ps, _)| self.with.iter().all(|l| ps.contains(l)));
        let mut out = Vec::new();
        for &p in props {
            let answer = match &part {
                Some((ps, answer)) if ps.contains(&p) => answer.clone(),
                _ if ctl.sat_stop().now() => EveryN::NotReached {
                    reason: "a limit stopped the search".into(),
                    seconds: self.start.elapsed().as_secs_f64(),
                    violated: Vec::new(),
                },
                _ => prove_with(model, &self.with(&[p]), solver, self.symmetry, ctl, guessed)?,
            };
            out.push(PropEvery {
                prop: PropId::Unsafe(p),
                answer,
            });
        }
        Ok(out)
    }
}

/// `prove_each` on the over-approximation over the order of the ints: every
/// `order_lost_*` property is proved with the properties asked (without them the
/// abstract model need not simulate the model), all together, then each asked
/// property with them.
fn prove_ordered(
    abs: &Model,
    props: &[usize],
    solver: SolverKind,
    ctl: &Control,
) -> Result<Vec<PropEvery>, String> {
    let start = Instant::now();
    let lost: Vec<usize> = abs
        .ord_ints
        .iter()
        .flat_map(|o| o.lost.iter())
        .filter_map(|n| abs.unsafe_by_name(n))
        .collect();
    let with = |ps: &[usize]| -> Vec<usize> { ps.iter().chain(&lost).copied().collect() };
    let mut guessed = guesses(abs, true, ctl)?;
    let together = prove_with(abs, &with(props), solver, true, ctl, &mut guessed)?;
    if matches!(together, EveryN::Proved { .. }) || props.len() == 1 {
        return Ok(EveryAnswers::same(props, together).props);
    }
    let alone = Alone {
        model: abs,
        with: &lost,
        solver,
        symmetry: true,
        ctl,
        start,
    };
    alone.each(props, &mut guessed)
}
