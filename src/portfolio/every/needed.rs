//! The candidates the properties need (`ic3::cone`, after Ivrii, Gurfinkel and Belov,
//! *Small Inductive Safe Invariants*, FMCAD 2014), given to the checker before Houdini
//! filters them all: on the order abstraction of Ricart-Agrawala Houdini asked about
//! 2,009 candidates twice and kept 2,002, and the checker checked each at every size
//! up to the cutoff, where the properties need 276. When the part does not prove the
//! properties (the candidates allow a bad state, or the checker does not accept the
//! part, closed on Houdini's aggregate only), Houdini filters them all, as before.

use super::*;
use crate::ic3::cone::{Cone, cone};

/// The part of the candidates `g` that excludes every bad state the checker asks about
/// (the properties `props` with their range errors, and `int_bound` with ints in the
/// fragment) and is inductive on its own, on the aggregate 1..`g.upto` Houdini kept
/// them on; `None` when there is none smaller, or a limit stopped the queries.
pub(super) fn needed(
    model: &Model,
    props: &[usize],
    g: &Guessed,
    solver: SolverKind,
    ctl: &Control,
) -> Result<Option<Vec<Lemma>>, String> {
    let frag = cutoff::fragment(model).map_err(|o| o.text(model))?;
    let mut ts = Transys::new(model, 1, g.upto, Encoding::Binary);
    let mut bads: Vec<crate::sat::Lit> = props
        .iter()
        .map(|&u| {
            let (b, e) = ts.bad(u);
            ts.c.and2(b, -e)
        })
        .collect();
    let all: Vec<usize> = (0..model.unsafes.len()).collect();
    bads.push(ts.range(&all, false));
    if frag.ints {
        bads.push(ts.int_bound(false));
    }
    let bad = ts.c.or(&bads);
    let t = Instant::now();
    let Cone::Needed(part) = cone(&mut ts, &g.lemmas, bad, true, solver, &ctl.sat_stop())? else {
        return Ok(None);
    };
    if ctl.progress {
        crate::progress::line(format!(
            "every n: the properties need {} of the {} candidate clauses (unsat cores at sizes 1..{}, {:.2}s)",
            part.len(),
            g.lemmas.len(),
            g.upto,
            t.elapsed().as_secs_f64()
        ));
    }
    Ok(Some(part))
}

/// The checker's answer on the part of the candidates `g` the properties need
/// (`needed`), when it accepts it; `None` otherwise (the whole set is tried then).
pub(super) fn proved_by_part(
    model: &Model,
    props: &[usize],
    g: &Guessed,
    solver: SolverKind,
    ctl: &Control,
) -> Result<Option<Attempt>, String> {
    let engine = format!(
        "candidates from the states reached at sizes 1..{BRAB_SIZES}, the part the properties need"
    );
    let Some(part) = needed(model, props, g, solver, ctl)? else {
        return Ok(None);
    };
    let t = Instant::now();
    let n = part.len();
    let tried = attempt(model, props, part, engine, false, solver, ctl)?;
    if ctl.progress {
        guesses_progress(&tried, n, g.upto, t);
    }
    Ok(matches!(tried, Attempt::Proved(_)).then_some(tried))
}
