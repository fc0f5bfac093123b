//! The candidates the properties need (`ic3::cone`, after Ivrii, Gurfinkel and Belov,
//! *Small Inductive Safe Invariants*, FMCAD 2014), given to the checker before Houdini
//! filters them all: on the order abstraction of Ricart-Agrawala Houdini asked about
//! 2,009 candidates twice and kept 2,002, and the checker checked each at every size
//! up to the cutoff, where the properties need 276. When the candidates allow a bad
//! state, the lemmas of IC3's run at the small sizes (which the IC3 tries below begin
//! with anyway) join them and the cone is asked again: IC3's lemmas close the gap the
//! guesses leave, and the cone keeps the few of either that the properties need.
//! When the part does not prove the properties (a bad state still allowed, or the
//! checker does not accept the part, closed on Houdini's aggregate only), Houdini
//! filters the candidates all, as before.

use super::*;
use crate::ic3::cone::{Cone, cone};

/// The part of the candidates `lemmas` that excludes every bad state the checker asks
/// about (the properties `props` with their range errors, and `int_bound` with ints in
/// the fragment) and is inductive on its own, on the aggregate 1..`upto` (`Cone`).
fn needed(
    model: &Model,
    props: &[usize],
    lemmas: &[Lemma],
    upto: usize,
    solver: SolverKind,
    ctl: &Control,
) -> Result<Cone, String> {
    let frag = cutoff::fragment(model).map_err(|o| o.text(model))?;
    let mut ts = Transys::new(model, 1, upto, Encoding::Binary);
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
    let found = cone(&mut ts, lemmas, bad, true, solver, &ctl.sat_stop())?;
    if ctl.progress {
        crate::progress::line(format!(
            "every n: {} (unsat cores at sizes 1..{upto}, {:.2}s)",
            match &found {
                Cone::Needed(part) => format!(
                    "the properties need {} of the {} candidate clauses",
                    part.len(),
                    lemmas.len()
                ),
                Cone::Allowed => format!("{} candidate clauses allow a bad state", lemmas.len()),
                Cone::Stopped => "the part the properties need was stopped by a limit".into(),
            },
            t.elapsed().as_secs_f64()
        ));
    }
    Ok(found)
}

/// The candidates `g` with the lemmas of IC3's run at the small sizes (`None` when it
/// did not converge, or reaches as far as `g.upto`), claimed on 1..`g.upto` as the
/// candidates are: the lemmas of 1..2 that are not inductive at 3 are dropped by the
/// cone, as Houdini would drop them from IC3's seeds.
fn with_small_run(
    model: &Model,
    props: &[usize],
    g: &Guessed,
    solver: SolverKind,
    ctl: &Control,
) -> Result<Option<Vec<Lemma>>, String> {
    let ic3 = Ic3Engine::new(solver, true);
    let p = Problem::new(model, 1, g.upto, props.to_vec());
    let Some((inv, seed)) = ic3.small_invariant(&p, ctl)? else {
        return Ok(None);
    };
    if seed >= g.upto {
        return Ok(None);
    }
    let mut all = g.lemmas.clone();
    for l in without_standins(model, inv) {
        let l = Lemma {
            lo: 1,
            hi: g.upto,
            ..l
        };
        if l.procs < g.upto && !all.contains(&l) {
            all.push(l);
        }
    }
    Ok(Some(all))
}

/// The checker's answer on the part of the candidates `g` the properties need
/// (`needed`; with IC3's lemmas of the small sizes when the candidates allow a bad
/// state, `with_small_run`), when it accepts it; `None` otherwise (the whole set is
/// tried then).
pub(super) fn proved_by_part(
    model: &Model,
    props: &[usize],
    g: &Guessed,
    solver: SolverKind,
    ctl: &Control,
) -> Result<Option<Attempt>, String> {
    let mut engine = format!(
        "candidates from the states reached at sizes 1..{BRAB_SIZES}, the part the properties need"
    );
    let part = match needed(model, props, &g.lemmas, g.upto, solver, ctl)? {
        Cone::Needed(part) => part,
        Cone::Stopped => return Ok(None),
        Cone::Allowed => {
            let Some(all) = with_small_run(model, props, g, solver, ctl)? else {
                return Ok(None);
            };
            let Cone::Needed(part) = needed(model, props, &all, g.upto, solver, ctl)? else {
                return Ok(None);
            };
            engine.push_str(" with IC3's lemmas at the small sizes");
            part
        }
    };
    let t = Instant::now();
    let n = part.len();
    let tried = attempt(model, props, part, engine, false, solver, ctl)?;
    if ctl.progress {
        guesses_progress(&tried, n, g.upto, t);
    }
    Ok(matches!(tried, Attempt::Proved(_)).then_some(tried))
}
