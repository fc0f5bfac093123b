//! Liveness for every n: a response property `G (A => F B)` of a process, under weak
//! fairness or not, proved at every size by one ranking (`rank`: phases of process i,
//! weights of the others; after invisible ranking, Y. Fang, N. Piterman, A. Pnueli and
//! L. Zuck, VMCAI 2004) over the quantified invariant that the safety argument for
//! every n finds for the model's `unsafe` properties (`portfolio::every`), checked at
//! every size up to the cutoff of `proof::live_cutoff` by `proof::check::check_every`.
//!
//! The ranking is found at one small size (3 first) and claimed at every size; when
//! the check rejects it at a larger size, a ranking of that size is tried instead.
//! Nothing is claimed from sizes alone: only the checked certificate makes the answer.

use super::every::{EveryN, prove_every};
use crate::cert::Certificate;
use crate::engine::Control;
use crate::live::response;
use crate::model::ir::Model;
use crate::proof::check::check_every;
use crate::proof::cutoff;
use crate::sat::SolverKind;
use std::sync::Arc;
use std::time::Instant;

/// The first size a ranking is sought at, and how many other sizes are tried.
const FIRST_SIZE: usize = 3;
const TRIES: usize = 3;

/// Prove `ltl` property `ltl` of `model` at every size by a ranking (`fair`: under
/// weak fairness), or say why not.
pub fn prove_live(
    model: &Model,
    ltl: usize,
    fair: bool,
    solver: SolverKind,
    ctl: &Control,
) -> Result<EveryN, String> {
    let start = Instant::now();
    let not = |reason: String| EveryN::NotReached {
        reason,
        seconds: start.elapsed().as_secs_f64(),
        violated: Vec::new(),
    };
    let name = model.ltls[ltl].name.clone();
    let frag = match cutoff::fragment(model) {
        Ok(f) => f,
        Err(o) => {
            return Ok(not(format!(
                "outside the fragment of the cutoff argument: {}",
                o.text(model)
            )));
        }
    };
    if let Err(e) = response::of(model, &name) {
        return Ok(not(format!("no ranking proof for it: {e}")));
    }
    let (lemmas, inv_cutoff) = match invariant(model, solver, ctl)? {
        Ok(x) => x,
        Err(why) => return Ok(not(why)),
    };
    let stop = ctl.sat_stop();
    let mut n0 = FIRST_SIZE;
    let mut last = String::new();
    for _ in 0..TRIES {
        if stop.now() {
            return Ok(not("a limit stopped the search".into()));
        }
        let found = crate::rank::prove_size(model, &name, n0, fair, &lemmas, solver, &stop)?;
        let cert = match found {
            Ok(c) => c,
            Err(why) => {
                let sep = if last.is_empty() { "" } else { "; then " };
                last = format!("{last}{sep}no ranking at size {n0}: {why}");
                break;
            }
        };
        let cert = claimed_everywhere(cert, &name, inv_cutoff, model, &frag);
        let ch = check_every(model, &cert, solver, &stop)?;
        if ch.accepted() {
            return Ok(EveryN::Proved {
                cutoff: ch.cutoff,
                certificate: Arc::new(cert),
                init_everywhere: cutoff::init_everywhere(model),
                seconds: start.elapsed().as_secs_f64(),
            });
        }
        if let Some(r) = ch.refused {
            return Ok(not(r));
        }
        let Some(bad) = ch.sizes.iter().find(|s| !s.accepted()) else {
            break;
        };
        let why = bad.failures.iter().chain(&bad.unchecked).next();
        last = format!(
            "the ranking found at size {n0} fails at size {}: {}",
            bad.size,
            why.map_or("", |s| s.as_str())
        );
        if !bad.unchecked.is_empty() || bad.size <= n0 {
            break;
        }
        n0 = bad.size;
    }
    Ok(not(last))
}

/// The invariant the rankings stand on, claimed at every size: the lemmas that prove
/// the model's `unsafe` properties for every n (none when it has none), and their
/// cutoff; or why there is none (`Ok(Err)`).
type Invariant = (Vec<crate::cert::CertLemma>, usize);
fn invariant(
    model: &Model,
    solver: SolverKind,
    ctl: &Control,
) -> Result<Result<Invariant, String>, String> {
    let props: Vec<usize> = (0..model.unsafes.len()).collect();
    if props.is_empty() {
        return Ok(Ok((Vec::new(), 1)));
    }
    Ok(match prove_every(model, &props, solver, true, ctl)? {
        EveryN::Proved {
            certificate,
            cutoff,
            ..
        } => Ok((certificate.lemmas.clone(), cutoff)),
        EveryN::NotReached { reason, .. } => Err(format!(
            "no invariant of the model for every n, from its `unsafe` properties: {reason}"
        )),
        EveryN::OnlySize { .. } => Err("the model fixes its size (`number_procs`)".into()),
    })
}

/// The ranking certificate of one size claimed at every size 1..c, c the larger of
/// the invariant's cutoff and the ranking's (`proof::live_cutoff`; the checker
/// computes both again from the text).
fn claimed_everywhere(
    mut cert: Certificate,
    name: &str,
    inv_cutoff: usize,
    model: &Model,
    frag: &cutoff::Fragment,
) -> Certificate {
    let live = crate::proof::check::rank::every_cutoff(model, &cert, frag)
        .map(|l| l.cutoff)
        .unwrap_or(1);
    let c = inv_cutoff.max(live);
    cert.sizes = (1, c);
    cert.every = Some(c);
    cert.proves = vec![(name.to_string(), (1..=c).collect())];
    cert
}
