//! The part of several properties that one set of candidate clauses proves
//! (`proved_part`): found by the checker (the claims that did not fail) or, when the
//! candidates allow a bad state of some property, by one query per property
//! (`falls_short`); proved together by one certificate, so that a file of hundreds
//! of properties does not need one try each.

use super::*;

/// The part of `props` that the candidates `guessed` prove on their own, when their
/// try on all of `props` found them inductive but some claims failed: those
/// properties, and the answer of the checker on a certificate that claims only them.
/// A file of hundreds of properties (candidate invariants written as `unsafe`) so
/// gets most of them from one invariant instead of one try each.
pub(super) fn proved_part(
    model: &Model,
    props: &[usize],
    guessed: &Option<Guessed>,
    solver: SolverKind,
    ctl: &Control,
) -> Result<Option<(Vec<usize>, EveryN)>, String> {
    let Some(g) = guessed else {
        return Ok(None);
    };
    let part: Vec<usize> = props
        .iter()
        .copied()
        .filter(|p| g.holding.contains(p))
        .collect();
    if part.is_empty() || part.len() == props.len() {
        return Ok(None);
    }
    let start = Instant::now();
    let engine =
        format!("candidates from the states reached at sizes 1..{BRAB_SIZES}, filtered by Houdini");
    // Houdini on 1..c first: on `falls_short`'s path the candidates were only filtered
    // on the small aggregate.
    let tried = attempt(model, &part, g.lemmas.clone(), engine, true, solver, ctl)?;
    if ctl.progress {
        guesses_progress(&tried, g.lemmas.len(), g.upto, start);
    }
    Ok(match tried {
        Attempt::Proved(cert) => Some((part, proved(model, cert, start))),
        _ => None,
    })
}

/// `Attempt::Short` when the candidates `g` allow a state where one of `props` fails at
/// the sizes Houdini kept them on (`houdini::excluded_each`): the checker would refuse
/// them at any cutoff, and Houdini on a larger aggregate only keeps fewer, so neither
/// is asked (on the bakery with a write buffer, 1,783 candidates checked at sizes 1..4
/// were 15% of the time); they seed IC3 as they are. With it, when several properties
/// were asked, those whose bad states the candidates do exclude: the ones
/// `proved_part` gives the checker together. `None` when they exclude every such state
/// (the checker decides), or when a limit stopped the query.
pub(super) fn falls_short(
    model: &Model,
    props: &[usize],
    g: &Guessed,
    solver: SolverKind,
    ctl: &Control,
) -> Result<Option<(Attempt, Vec<usize>)>, String> {
    let mut ts = Transys::new(model, 1, g.upto, Encoding::Binary);
    let bads: Vec<crate::sat::Lit> = props.iter().map(|&u| ts.bad(u).0).collect();
    let stop = ctl.sat_stop();
    let Some(each) =
        crate::ic3::houdini::excluded_each(&mut ts, &g.lemmas, &bads, true, solver, &stop)?
    else {
        return Ok(None);
    };
    let excluded: Vec<usize> = props
        .iter()
        .zip(each)
        .filter(|(_, e)| props.len() > 1 && *e == Some(true))
        .map(|(&p, _)| p)
        .collect();
    let short = Attempt::Short {
        reason: format!(
            "they allow a state where a property fails at sizes 1..{}",
            g.upto
        ),
    };
    Ok(Some((short, excluded)))
}
