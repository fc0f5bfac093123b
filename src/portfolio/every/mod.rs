//! "Every n": a quantified invariant from the symmetric IC3 proof at small sizes,
//! checked at the sizes 1..c of the cutoff argument (`proof::cutoff`), as IC3PO (A. Goel
//! and K. A. Sakallah, *On Symmetry and Quantification: A New Approach to Verify
//! Distributed Protocols*, NFM 2021) does with symmetric clauses, but checked soundly
//! at every size up to the cutoff.
//!
//! For an ordered-symmetric family the clauses keep the order of their processes
//! (`forall i < j. not C`) and IC3's orbits are the increasing maps (`proof::lemma`).
//!
//! First, candidate clauses guessed from the states reached at sizes 1..2 (`ic3::brab`,
//! after Cubicle's BRAB): the part of them the properties need on the aggregate 1..3
//! (`ic3::cone`: unsat cores, Houdini's drops made lazily) is given to the checker;
//! when it does not accept, all of them are filtered by Houdini on 1..3 and given to
//! the checker (filtered by Houdini on 1..c first only when they are not inductive at
//! some size up to their cutoff c); when it accepts, IC3 is not run, otherwise the
//! inductive candidates seed IC3's first try.
//!
//! IC3 runs on the aggregate 1..n0 (n0 = 3, then 4, 5 when the lemmas of the
//! previous try do not generalise); its lemmas that hold at the largest size and
//! mention fewer than n0 processes become universal clauses `forall distinct x1..xk.
//! not C`, claimed at every size. The cutoff c follows from the model and those
//! clauses; Houdini keeps the largest subset inductive on the aggregate 1..c, and the
//! independent checker (`proof::check::check_every`) decides: init ⇒ Inv, Inv ∧ T ⇒
//! Inv′ and Inv ⇒ ¬bad at every size 1..c, the model in the fragment, c computed again.
//!
//! Each property gets its own answer (`prove_each`): all together first, then one by
//! one when one invariant for all is not found, so that a property violated at some
//! size, or not proved, leaves the others' answers standing.

mod needed;
mod over_ints;
mod part;
use needed::proved_by_part;
use part::{falls_short, proved_part};

pub use over_ints::{
    abstracted, abstracted_any, abstraction, diff_abstraction, in_reach, order_fallback,
    prove_each, prove_each_first, prove_each_past_window,
};

use super::reduced::Reduction;
use crate::cert::{CertLemma, Certificate, text_hash};
use crate::engine::{Control, Problem};
use crate::ic3::engine::Ic3Engine;
use crate::ic3::houdini::houdini;
use crate::model::ir::Model;
use crate::proof::check::check_every;
use crate::proof::cutoff;
use crate::proof::lemma::{Lemma, PVal};
use crate::sat::SolverKind;
use crate::transys::Transys;
use crate::transys::frame::Encoding;
use crate::verdict::PropId;
use std::sync::Arc;
use std::time::Instant;

/// The largest aggregate IC3 is asked to prove for the lemmas.
const MAX_N0: usize = 5;

/// Candidate clauses (`ic3::brab`) come from the states reached at sizes 1..this, with
/// at most `BRAB_ATOMS` atoms, no larger cubes once more than `BRAB_CAP` are found.
const BRAB_SIZES: usize = 2;
const BRAB_ATOMS: usize = 3;
const BRAB_CAP: usize = 2000;

/// The aggregate 1..this on which Houdini filters the candidates; the checker is asked
/// about what it keeps at the sizes 1..c of their cutoff, and Houdini runs on the
/// aggregate 1..c only when the checker finds them not inductive at one of those sizes
/// (the bakery over the order of its tickets: 1,469 candidates inductive on 1..3 and
/// on 1..4, 16 s of Houdini on 1..4 saved).
const PREFILTER: usize = 3;

/// How the reason begins when IC3 found a run leaving the int window: every property
/// then fails the same way (each proof claims `int_bound`), so none is tried alone.
const WINDOW_LEFT: &str = "a run leaves the int window at size";

/// The answer for every size.
#[derive(Clone, Debug)]
pub enum EveryN {
    /// A quantified invariant, checked at sizes 1..cutoff.
    Proved {
        cutoff: usize,
        certificate: Arc<Certificate>,
        /// Whether every size has an initial state (otherwise the claim is vacuous
        /// at the sizes without one).
        init_everywhere: bool,
        seconds: f64,
    },
    /// The model fixes the size (`number_procs`) and the property holds at that size
    /// (proved or searched exhaustively): every size the model admits is answered.
    OnlySize { size: usize, seconds: f64 },
    /// No claim for every size, and why; `violated`: the sizes where the property was
    /// found violated (the answer for every n is then no, not merely unknown).
    NotReached {
        reason: String,
        seconds: f64,
        violated: Vec<usize>,
    },
}

impl EveryN {
    pub fn seconds(&self) -> f64 {
        match self {
            EveryN::Proved { seconds, .. }
            | EveryN::OnlySize { seconds, .. }
            | EveryN::NotReached { seconds, .. } => *seconds,
        }
    }

    /// Whether the answer is yes: at every size, or at the only size the model admits.
    pub fn holds(&self) -> bool {
        matches!(self, EveryN::Proved { .. } | EveryN::OnlySize { .. })
    }
}

/// One property's answer for every size.
#[derive(Clone, Debug)]
pub struct PropEvery {
    /// The property: an `unsafe` or `invariant` (`PropId::Unsafe`), or an `ltl`
    /// response property (`PropId::Ltl`, proved by a ranking, `portfolio::every_live`).
    pub prop: PropId,
    pub answer: EveryN,
}

/// The answers for every size, one per property, and the invariants they assume (empty:
/// the model as written; otherwise the model restricted to the states satisfying those
/// `invariant`s, `model::assume`).
#[derive(Clone, Debug, Default)]
pub struct EveryAnswers {
    pub props: Vec<PropEvery>,
    pub assuming: Vec<String>,
    pub seconds: f64,
}

impl EveryAnswers {
    /// Every property holds for every n.
    pub fn all_proved(&self) -> bool {
        !self.props.is_empty() && self.props.iter().all(|p| p.answer.holds())
    }

    /// The distinct certificates of the properties proved, in order.
    pub fn certificates(&self) -> Vec<Arc<Certificate>> {
        let mut out: Vec<Arc<Certificate>> = Vec::new();
        for p in &self.props {
            if let EveryN::Proved { certificate, .. } = &p.answer
                && !out.iter().any(|c| Arc::ptr_eq(c, certificate))
            {
                out.push(certificate.clone());
            }
        }
        out
    }

    /// The same answer for every property of `props`.
    pub fn same(props: &[usize], answer: EveryN) -> EveryAnswers {
        EveryAnswers {
            seconds: answer.seconds(),
            props: props
                .iter()
                .map(|&u| PropEvery {
                    prop: PropId::Unsafe(u),
                    answer: answer.clone(),
                })
                .collect(),
            assuming: Vec::new(),
        }
    }
}

/// The reduction of `model` to the properties `props` (`portfolio::reduced`), when it
/// leaves something out and depends on no size (its constants are uniform): the
/// argument for every n is then made on the reduced model, and its proofs carried
/// over by `lift`.
pub fn reduction(model: &Model, props: &[usize]) -> Option<Reduction> {
    let asked = crate::model::reduce::Asked {
        props: props.to_vec(),
        ..Default::default()
    };
    super::reduced::reduce_model(model, &asked, (1, 3))
        .ok()
        .flatten()
        .filter(|r| {
            r.plan
                .constants
                .iter()
                .all(|c| c.uniform().is_some() || c.identity(model))
        })
}

/// Answers for every n on the reduced model made the model's: the reduction shown to
/// hold at every size by the text (`carried`), each proof's certificate marked with
/// its `reduced` line; `None` when it is not (the caller then argues on the model as
/// written).
pub fn lift(
    model: &Model,
    r: &Reduction,
    answers: Vec<PropEvery>,
    solver: SolverKind,
    ctl: &Control,
) -> Result<Option<Vec<PropEvery>>, String> {
    let mut done: Vec<(Arc<Certificate>, Arc<Certificate>, usize)> = Vec::new();
    let mut out = Vec::new();
    for p in answers {
        let answer = match p.answer {
            EveryN::Proved {
                certificate,
                seconds,
                ..
            } => {
                let found = done
                    .iter()
                    .find(|d| Arc::ptr_eq(&d.0, &certificate))
                    .cloned();
                let (cert, cutoff) = match found {
                    Some((_, c, k)) => (c, k),
                    None => {
                        let Some((c, cutoff)) = carried(model, r, &certificate, solver, ctl)?
                        else {
                            return Ok(None);
                        };
                        let c = Arc::new(c);
                        done.push((certificate.clone(), c.clone(), cutoff));
                        (c, cutoff)
                    }
                };
                EveryN::Proved {
                    cutoff,
                    certificate: cert,
                    init_everywhere: cutoff::init_everywhere(model),
                    seconds,
                }
            }
            a => a,
        };
        out.push(PropEvery {
            prop: p.prop,
            answer,
        });
    }
    Ok(Some(out))
}

/// The certificate of the reduced model (checked for every n on it) marked for the
/// model, once the reduction is shown, by the text, to hold at every size
/// (`proof::reduced::verify`); with its cutoff. `None` when it is not.
fn carried(
    model: &Model,
    r: &Reduction,
    cert: &Certificate,
    solver: SolverKind,
    ctl: &Control,
) -> Result<Option<(Certificate, usize)>, String> {
    let holds =
        crate::proof::reduced::verify(model, &r.plan, &r.asked, None, solver, &ctl.sat_stop());
    if holds.is_err() {
        return Ok(None);
    }
    let c = r.mark(model, cert);
    let cutoff = c.every.unwrap_or(c.sizes.1);
    Ok(Some((c, cutoff)))
}

/// Why no property of the model can be proved for every n, before any search.
fn refused(model: &Model, symmetry: bool) -> Option<String> {
    if let Err(o) = cutoff::fragment(model) {
        return Some(format!(
            "outside the fragment of the cutoff argument: {}",
            o.text(model)
        ));
    }
    (!symmetry).then(|| "needs symmetric lemma orbits (--no-symmetry was given)".into())
}

/// Try to prove the properties `props` at every size, with one invariant.
pub fn prove_every(
    model: &Model,
    props: &[usize],
    solver: SolverKind,
    symmetry: bool,
    ctl: &Control,
) -> Result<EveryN, String> {
    let mut guessed = if ic3_known(model, props, solver) {
        None
    } else {
        guesses(model, symmetry, ctl)?
    };
    prove_with(model, props, solver, symmetry, ctl, &mut guessed)
}

/// Whether IC3's run at the small sizes on these properties was made already in this
/// process (by auto, for the sizes it left): seeded with its lemmas IC3 at 1..3 mostly
/// converges at once, so the candidates from the reached states would cost more than
/// they save.
fn ic3_known(model: &Model, props: &[usize], solver: SolverKind) -> bool {
    let ic3 = Ic3Engine::new(solver, true);
    ic3.has_small_run(&Problem::new(model, 1, 3, props.to_vec()))
}

/// Candidate clauses from the reached states (`guesses`), filtered by Houdini once the
/// part the properties need (`needed`) did not prove them.
#[derive(Clone, Debug)]
struct Guessed {
    lemmas: Vec<Lemma>,
    /// Houdini kept them (or keeps them, `filtered`) on the aggregate 1..this: their
    /// cutoff, or `PREFILTER` below it (the checker is then asked first, and Houdini on
    /// 1..c only when the invariant is not inductive at some size up to the cutoff).
    upto: usize,
    /// When the checker found them inductive up to their cutoff but not proving every
    /// property asked: the properties they do prove (`Attempt::Rejected::holding`).
    holding: Vec<usize>,
    /// Whether Houdini has filtered them: before, they are the candidates not shown
    /// violated at size `upto` (`brab::unshown`), and only the part the properties
    /// need is asked about (`needed::proved_by_part`).
    filtered: bool,
}

/// The candidate clauses of the states reached at sizes 1..`BRAB_SIZES` (`ic3::brab`)
/// that no state reached at size `upto` violates, claimed on the aggregate
/// 1..`PREFILTER` (on 1..c of their cutoff when that is smaller), not yet filtered by
/// Houdini (`filter`). `None` outside the fragment or when there is none.
fn guesses(model: &Model, symmetry: bool, ctl: &Control) -> Result<Option<Guessed>, String> {
    if refused(model, symmetry).is_some() || !model.has_lemma_orbits() {
        return Ok(None);
    }
    let frag = cutoff::fragment(model).map_err(|o| o.text(model))?;
    let t = Instant::now();
    let few = Transys::new(model, 1, BRAB_SIZES, Encoding::Binary);
    let cands = without_standins(
        model,
        crate::ic3::brab::candidates(&few, BRAB_ATOMS, BRAB_CAP),
    );
    if cands.is_empty() {
        return Ok(None);
    }
    let found = cands.len();
    let procs: Vec<usize> = cands.iter().map(|l| l.procs).collect();
    // Houdini at the small sizes only: what it would keep on 1..c is inductive on
    // 1..3 too, so within what it keeps on 1..3, and the small aggregate drops most
    // candidates at a fraction of the cost. The checker decides on 1..c (`prove_with`).
    let upto = cutoff::cutoff(&frag, &procs).min(PREFILTER);
    let mut narrowed: Vec<Lemma> = cands
        .into_iter()
        .map(|l| Lemma {
            lo: 1,
            hi: upto,
            ..l
        })
        .collect();
    // The candidates a state reached at Houdini's largest size shows would be dropped
    // by its passes; dropped here, they cost no pass (`brab::unshown`).
    if upto > BRAB_SIZES {
        let top = Transys::new(model, upto, upto, Encoding::Binary);
        narrowed = crate::ic3::brab::unshown(&top, narrowed);
    }
    if ctl.progress {
        crate::progress::line(format!(
            "every n: {found} candidate clauses from the states reached at sizes 1..{BRAB_SIZES}, {} not shown at size {upto} ({:.2}s)",
            narrowed.len(),
            t.elapsed().as_secs_f64()
        ));
    }
    Ok(Some(Guessed {
        lemmas: narrowed,
        upto,
        holding: Vec::new(),
        filtered: false,
    }))
}

/// Houdini on the candidates `g` (not filtered yet) on the aggregate 1..`g.upto`:
/// what it keeps holds initially and is inductive there, whatever the properties.
/// False when a limit stopped it.
fn filter(
    model: &Model,
    g: &mut Guessed,
    solver: SolverKind,
    ctl: &Control,
) -> Result<bool, String> {
    let t = Instant::now();
    let mut ts = Transys::new(model, 1, g.upto, Encoding::Binary);
    let cands = std::mem::take(&mut g.lemmas);
    let Some(kept) = houdini(&mut ts, cands, true, solver, &ctl.sat_stop())? else {
        return Ok(false);
    };
    if ctl.progress {
        crate::progress::line(format!(
            "every n: {} candidate clauses inductive at sizes 1..{} ({:.2}s)",
            kept.len(),
            g.upto,
            t.elapsed().as_secs_f64()
        ));
    }
    g.lemmas = kept;
    g.filtered = true;
    Ok(true)
}

/// `prove_every` with the inductive candidates `guessed` (`guesses`): tried first on
/// their own, then as seeds of IC3's first try.
fn prove_with(
    model: &Model,
    props: &[usize],
    solver: SolverKind,
    symmetry: bool,
    ctl: &Control,
    guessed: &mut Option<Guessed>,
) -> Result<EveryN, String> {
    let start = Instant::now();
    let not = |reason: String| EveryN::NotReached {
        violated: Vec::new(),
        reason,
        seconds: start.elapsed().as_secs_f64(),
    };
    if let Some(r) = refused(model, symmetry) {
        return Ok(not(r));
    }
    let mut last = String::new();
    // Candidates from the reached states first: when their inductive part proves the
    // properties, IC3 is not needed; otherwise that part seeds IC3's first try.
    let mut seeds: Vec<Lemma> = Vec::new();
    // The seeds are inductive together on the aggregate 1..this (Houdini kept them).
    let mut seeds_upto = 0;
    if let Some(g) = guessed.as_mut() {
        match tried_guesses(model, props, g, solver, ctl)? {
            (Attempt::Proved(cert), _) => return Ok(proved(model, cert, start)),
            (Attempt::Stopped, _) => return Ok(not("a limit stopped the search".into())),
            (Attempt::Rejected { reason, .. } | Attempt::Short { reason }, kept) => {
                last = reason;
                seeds = kept;
                seeds_upto = g.upto;
            }
        }
    }
    // A violation at the smallest sizes ends every try below: said at once (the
    // tries would first look for it at every size by BMC).
    let first = Problem::new(model, 1, 3, props.to_vec());
    if let Some((c, seed)) = Ic3Engine::new(solver, true).small_bug(&first, ctl)? {
        return Ok(not(refutation(model, &c, seed)));
    }
    for n0 in 3..=MAX_N0 {
        let ic3 = Ic3Engine::new(solver, true);
        let small = Problem::new(model, 1, n0, props.to_vec());
        // Only the first try: when its invariant does not generalise, the later ones
        // run as without candidates (IC3 would converge at once on the same seeds).
        let extra: Vec<Lemma> = seeds
            .drain(..)
            .map(|l| Lemma { lo: 1, hi: n0, ..l })
            .collect();
        let (_, out) = ic3.run_seeded(&small, ctl, &[], &extra, seeds_upto >= n0)?;
        // A property's own violation first: a run leaving the window says less.
        let own = out.cexs.iter().find(|c| matches!(c.key, PropId::Unsafe(_)));
        if let Some(c) = own.or(out.cexs.first()) {
            return Ok(not(refutation(model, c, n0)));
        }
        let Some(inv) = out.invariant else {
            return Ok(not(format!(
                "IC3 at sizes 1..{n0} stopped ({})",
                out.limit.map(|l| l.text()).unwrap_or_default()
            )));
        };
        if ctl.sat_stop().now() {
            return Ok(not("a limit stopped the search".into()));
        }
        // Clauses that mention every process of the instance do not generalise.
        let general: Vec<Lemma> = inv
            .into_iter()
            .filter(|l| l.hi == n0 && l.procs < n0)
            .collect();
        let engine = format!("ic3 at sizes 1..{n0}, generalised");
        let t = Instant::now();
        let tried = attempt(model, props, general, engine, true, solver, ctl)?;
        if ctl.progress {
            generalised_progress(&tried, n0, t);
        }
        match tried {
            Attempt::Proved(cert) => return Ok(proved(model, cert, start)),
            Attempt::Stopped => return Ok(not("a limit stopped the search".into())),
            Attempt::Rejected { reason, .. } | Attempt::Short { reason } => last = reason,
        }
    }
    Ok(not(format!(
        "the clauses of IC3's proofs at sizes up to {MAX_N0} that generalise do not prove the properties at every size up to the cutoff ({last})"
    )))
}

/// The candidates from the reached states given to the checker: first as Houdini
/// kept them on the small aggregate (`Guessed::upto`); when the checker finds them not
/// inductive at some size up to their cutoff, filtered by Houdini on 1..c and given
/// again. With what it gave, the clauses that seed IC3 (inductive on 1..3 at least).
fn tried_guesses(
    model: &Model,
    props: &[usize],
    g: &mut Guessed,
    solver: SolverKind,
    ctl: &Control,
) -> Result<(Attempt, Vec<Lemma>), String> {
    let engine =
        format!("candidates from the states reached at sizes 1..{BRAB_SIZES}, filtered by Houdini");
    if !g.filtered {
        if let Some(proved) = proved_by_part(model, props, g, solver, ctl)? {
            return Ok((proved, Vec::new()));
        }
        if !filter(model, g, solver, ctl)? {
            return Ok((Attempt::Stopped, Vec::new()));
        }
    }
    let t = Instant::now();
    if let Some((short, excluded)) = falls_short(model, props, g, solver, ctl)? {
        if ctl.progress {
            guesses_progress(&short, g.lemmas.len(), g.upto, t);
        }
        g.holding = excluded;
        return Ok((short, g.lemmas.clone()));
    }
    let first = attempt(
        model,
        props,
        g.lemmas.clone(),
        engine.clone(),
        false,
        solver,
        ctl,
    )?;
    if ctl.progress {
        guesses_progress(&first, g.lemmas.len(), g.upto, t);
    }
    let c = match &first {
        Attempt::Rejected {
            inductive: false,
            cert,
            ..
        } => cert.sizes.1,
        Attempt::Rejected { cert, .. } => {
            // Inductive up to the cutoff: what Houdini on 1..c would keep.
            g.upto = cert.sizes.1;
            0
        }
        _ => 0,
    };
    if c <= g.upto {
        if let Attempt::Rejected { holding, .. } = &first {
            g.holding = holding.clone();
        }
        return Ok((first, g.lemmas.clone()));
    }
    let t = Instant::now();
    let second = attempt(model, props, g.lemmas.clone(), engine, true, solver, ctl)?;
    let kept = match &second {
        Attempt::Rejected { kept, .. } => kept.clone(),
        _ => Vec::new(),
    };
    // Later tries (each property on its own) start from what Houdini kept on 1..c.
    if let Attempt::Rejected { cert, holding, .. } = &second {
        g.lemmas = kept.clone();
        g.upto = cert.sizes.1;
        g.holding = holding.clone();
    }
    if ctl.progress {
        let c = match &second {
            Attempt::Proved(cert) | Attempt::Rejected { cert, .. } => cert.sizes.1,
            Attempt::Stopped | Attempt::Short { .. } => g.upto,
        };
        let n = match &second {
            Attempt::Stopped | Attempt::Short { .. } => g.lemmas.len(),
            _ => kept.len(),
        };
        guesses_progress(&second, n, c, t);
    }
    Ok((second, kept))
}

/// The progress line of a try of `n` candidate clauses Houdini kept on 1..`upto`.
fn guesses_progress(tried: &Attempt, n: usize, upto: usize, t: Instant) {
    crate::progress::line(format!(
        "every n: {n} candidate clauses inductive at sizes 1..{upto} {} ({:.2}s)",
        match tried {
            Attempt::Proved(_) => "prove the properties at every size up to the cutoff",
            Attempt::Rejected {
                inductive: true, ..
            } => "are inductive up to the cutoff but do not prove the properties",
            Attempt::Rejected { reason, .. } | Attempt::Short { reason } => {
                return crate::progress::line(format!(
                    "every n: {n} candidate clauses inductive at sizes 1..{upto} do not prove the properties: {} ({:.2}s)",
                    reason.chars().take(300).collect::<String>(),
                    t.elapsed().as_secs_f64()
                ));
            }
            Attempt::Stopped => "were stopped by a limit",
        },
        t.elapsed().as_secs_f64()
    ));
}

/// Whether the answer `a` says a property was violated on the model itself (not over
/// an abstraction of its ints, nor by a run leaving the int window): IC3 found the run
/// at a size (`refutation`), so no argument for every n can prove it.
pub fn refuted(a: &EveryN) -> bool {
    matches!(a, EveryN::NotReached { reason, .. }
        if reason.contains(" violated at size ") && reason.contains(FOUND_BY_IC3))
}

/// The `unsafe` property that IC3's refutation `a` (`refuted`) names: the one its
/// counterexample violates, when several were argued together.
pub fn refuted_prop(model: &Model, a: &EveryN) -> Option<usize> {
    let EveryN::NotReached { reason, .. } = a else {
        return None;
    };
    if !refuted(a) {
        return None;
    }
    (0..model.unsafes.len()).find(|&u| reason.starts_with(&refuted_opening(model, u)))
}

/// How the reason of a refutation of `unsafe` property `u` opens (`refutation`, read
/// back by `refuted_prop`).
fn refuted_opening(model: &Model, u: usize) -> String {
    format!("`{}` violated at size ", model.unsafes[u].name)
}

/// How a refutation by IC3 (`refutation`) ends.
const FOUND_BY_IC3: &str = "(found by IC3 on the aggregate";

/// Why IC3's counterexample `c` on the aggregate 1..`n0` leaves every n unproved. It
/// is not replayed here: the answer is "not proved", never "violated".
fn refutation(model: &Model, c: &crate::ic3::Cex, n0: usize) -> String {
    let what = match c.key {
        crate::verdict::PropId::Unsafe(u) => format!("`{}`", model.unsafes[u].name),
        crate::verdict::PropId::IntBound => {
            return format!(
                "{WINDOW_LEFT} {} (found by IC3 on the aggregate 1..{n0}): the argument holds for runs within it only",
                c.width
            );
        }
        _ => "a property".into(),
    };
    if model.ord_ints.is_some() {
        return format!(
            "{what} violated over the order of the ints at size {} (found by IC3 on the aggregate 1..{n0}; the order over-approximates the ints, so this may be no run of the model)",
            c.width
        );
    }
    match &model.abs_ints {
        Some(_) => format!(
            "{what} violated over the classes of the ints at size {} (found by IC3 on the aggregate 1..{n0}; the classes over-approximate the ints, so this may be no run of the model)",
            c.width
        ),
        None => {
            let opening = match c.key {
                crate::verdict::PropId::Unsafe(u) => refuted_opening(model, u),
                _ => format!("{what} violated at size "),
            };
            format!("{opening}{} {FOUND_BY_IC3} 1..{n0})", c.width)
        }
    }
}

/// The progress line of a try of IC3's clauses at sizes 1..`n0`, generalised.
fn generalised_progress(tried: &Attempt, n0: usize, t: Instant) {
    if let Attempt::Proved(cert) | Attempt::Rejected { cert, .. } = tried {
        crate::progress::line(format!(
            "every n: {} clauses from IC3 at sizes 1..{n0}, cutoff {}, {} at sizes 1..{} ({:.2}s)",
            cert.lemmas.len(),
            cert.sizes.1,
            if matches!(tried, Attempt::Proved(_)) {
                "checked"
            } else {
                "rejected"
            },
            cert.sizes.1,
            t.elapsed().as_secs_f64()
        ));
    }
}

/// What one set of candidate clauses gave.
enum Attempt {
    /// The checker accepted the invariant (the certificate, with its cutoff).
    Proved(Box<Certificate>),
    /// It did not, and why; `inductive`: the invariant held initially and was
    /// inductive at every size checked (only claimed properties failed); `kept`: the
    /// clauses given to the checker; `holding`: when inductive, the properties asked
    /// that the checker certified at every size it checked.
    Rejected {
        reason: String,
        cert: Box<Certificate>,
        inductive: bool,
        kept: Vec<Lemma>,
        holding: Vec<usize>,
    },
    /// Not given to the checker: the clauses allow a bad state at sizes they were
    /// filtered on (`falls_short`).
    Short {
        reason: String,
    },
    Stopped,
}

/// Claim the clauses `general` at every size: the cutoff from their processes,
/// Houdini's largest subset inductive on the aggregate 1..c (with `filter`; without,
/// the clauses are Houdini's already), then the independent checker at every size up
/// to the cutoff of what is kept.
fn attempt(
    model: &Model,
    props: &[usize],
    general: Vec<Lemma>,
    engine: String,
    filter: bool,
    solver: SolverKind,
    ctl: &Control,
) -> Result<Attempt, String> {
    let frag = &cutoff::fragment(model).map_err(|o| o.text(model))?;
    let engine = match &model.abs_ints {
        Some(a) => format!("{engine}, over an abstraction: {}", a.summary()),
        None => match &model.ord_ints {
            Some(o) => format!("{engine}, over an abstraction: {}", o.summary()),
            None => engine,
        },
    };
    let general = without_standins(model, general);
    let procs: Vec<usize> = general.iter().map(|l| l.procs).collect();
    let c = cutoff::cutoff(frag, &procs);
    let mut ts = Transys::new(model, 1, c, Encoding::Binary);
    let widened: Vec<Lemma> = general
        .into_iter()
        .map(|l| Lemma { lo: 1, hi: c, ..l })
        .collect();
    let kept = if filter {
        let Some(kept) = houdini(&mut ts, widened, true, solver, &ctl.sat_stop())? else {
            return Ok(Attempt::Stopped);
        };
        kept
    } else {
        widened
    };
    let cert = claimed(model, frag, props, engine, &kept, &ts);
    let check = check_every(model, &cert, solver, &ctl.sat_stop())?;
    if check.accepted() {
        return Ok(Attempt::Proved(Box::new(Certificate {
            every: Some(check.cutoff),
            ..cert
        })));
    }
    let inductive = check.refused.is_none() && check.sizes.iter().all(|s| s.only_claims_failed());
    // Every size was checked in full (`inductive`): what did not fail is certified.
    let certified = |p: &usize| {
        let name = model.unsafes[*p].name.as_str();
        check
            .sizes
            .iter()
            .all(|s| !s.failed_claims().contains(&name))
    };
    let holding: Vec<usize> = match inductive {
        true => props.iter().copied().filter(certified).collect(),
        false => Vec::new(),
    };
    let reason = match (&check.refused, check.sizes.iter().find(|s| !s.accepted())) {
        (Some(r), _) => r.clone(),
        (None, Some(s)) => format!(
            "at size {}: {}",
            s.size,
            [&s.failures[..], &s.unchecked[..]].concat().join("; ")
        ),
        (None, None) => "rejected".into(),
    };
    Ok(Attempt::Rejected {
        reason,
        cert: Box::new(cert),
        inductive,
        kept,
        holding,
    })
}

/// The certificate that claims `props` (with range errors, and the int window in the
/// fragment of ints) at every size, by the clauses `kept` over `ts`, with the cutoff
/// of their processes.
fn claimed(
    model: &Model,
    frag: &cutoff::Fragment,
    props: &[usize],
    engine: String,
    kept: &[Lemma],
    ts: &Transys,
) -> Certificate {
    let lemmas: Vec<CertLemma> = kept
        .iter()
        .map(|l| CertLemma {
            sizes: None,
            ..l.to_cert(ts, (l.lo, l.hi))
        })
        .collect();
    let kept_procs: Vec<usize> = kept.iter().map(|l| l.procs).collect();
    let c = cutoff::cutoff(frag, &kept_procs);
    let sizes: Vec<usize> = (1..=c).collect();
    let mut proves: Vec<(String, Vec<usize>)> = props
        .iter()
        .map(|&p| (model.unsafes[p].name.clone(), sizes.clone()))
        .collect();
    proves.push(("range_error".into(), sizes.clone()));
    if frag.ints {
        proves.push(("int_bound".into(), sizes.clone()));
    }
    Certificate {
        model: model.source.name.clone(),
        hash: text_hash(&model.source.text),
        sizes: (1, c),
        engine,
        proves,
        lemmas,
        every: Some(c),
        // Ints are in the fragment only checked over their window (`int_bound`).
        ints: model.int_window.as_ref().map(|w| (w.lo, w.hi)),
        assume: model.assumed.clone(),
        abstraction: model.abs_ints.is_some() || model.ord_ints.is_some(),
        order: model.ord_ints.is_some(),
        order_diff: model.ord_ints.as_ref().map_or(0, |o| o.diff),
        ..Certificate::default()
    }
}

/// The clauses that read a stand-in array (an array of processes indexed by
/// processes, `proof::standin`) only as the cutoff argument carries: `P[x] = y` with y
/// the extra id or a variable of the lemma named nowhere else (`standin::lemma_reads`,
/// which the checker applies to the written lemma). The others are dropped before
/// Houdini and the checker (which refuses them too).
fn without_standins(model: &Model, lemmas: Vec<Lemma>) -> Vec<Lemma> {
    let arrays = crate::proof::standin::arrays(model);
    if arrays.is_empty() {
        return lemmas;
    }
    let carried = |l: &Lemma| {
        let uses = |p: PVal| {
            l.atoms
                .iter()
                .flat_map(|a| a.index.iter().chain([&a.value]))
                .filter(|&&q| q == p)
                .count()
        };
        l.atoms.iter().all(|a| {
            !arrays.contains(&a.var) || matches!(a.value, PVal::Const(_)) || uses(a.value) == 1
        })
    };
    lemmas.into_iter().filter(|l| carried(l)).collect()
}

/// The answer for a certificate the checker accepted.
fn proved(model: &Model, cert: Box<Certificate>, start: Instant) -> EveryN {
    EveryN::Proved {
        cutoff: cert.every.unwrap_or(cert.sizes.1),
        certificate: Arc::new(*cert),
        init_everywhere: cutoff::init_everywhere(model),
        seconds: start.elapsed().as_secs_f64(),
    }
}
