//! Every n in the run pipeline: the attempt before the sizes, the answer for every n
//! after them, per property (`portfolio::every`), and the pass that answers the
//! `unsafe` properties assuming the `invariant`s (`model::assume`) when some
//! `invariant` is not proved.

use super::{Event, Run, real_violation};
use crate::cert::sizes_phrase;
use crate::engine::{self, Control, Engine, Problem};
use crate::model::assume;
use crate::model::ir::{Model, PropKind};
use crate::portfolio::every::{EveryAnswers, EveryN, PropEvery};
use crate::sat::SolverKind;
use crate::verdict::{Kind, PropId, SizeReport};
use std::sync::Arc;
use std::time::Instant;

/// The `unsafe` properties answered on the model restricted to the states satisfying
/// every `invariant`.
pub struct AssumedRun {
    /// The restricted model (`model::assume`); `None` when it could not be built.
    pub model: Option<Model>,
    pub invariants: Vec<String>,
    pub reports: Vec<SizeReport>,
    pub limit: Option<crate::verdict::Limit>,
    pub every: Option<EveryAnswers>,
    /// Why the pass was not made.
    pub refused: Option<String>,
    /// What the reader must know about the restricted model.
    pub notes: Vec<String>,
    /// The checked certificates of the sizes it proved (each says `assume`).
    pub certificates: Vec<Arc<crate::cert::Certificate>>,
    pub seconds: f64,
}

/// How the argument for every n is made: the solver, symmetric lemma orbits, the
/// reduction to the properties asked (`portfolio::every::reduction`), the limits.
#[derive(Clone, Copy)]
pub(super) struct EveryOpts<'a> {
    pub solver: SolverKind,
    pub symmetry: bool,
    pub reduce: bool,
    pub ctl: &'a Control,
}

/// The answers for every size of the properties `props` of `model`, after the sizes
/// `reports` (stopped at a limit when `limited`): a property violated at some size is
/// violated for every n; one not proved at every size checked is not tried; the
/// others are proved together, else one by one (`portfolio::every::prove_each`), or
/// take the answer of the attempt before the sizes (`known`).
pub(super) fn answers(
    model: &Model,
    reports: &[SizeReport],
    limited: bool,
    props: &[usize],
    o: EveryOpts,
    known: &[PropEvery],
) -> Result<EveryAnswers, String> {
    let start = Instant::now();
    // The argument is made on the model reduced to the properties (`reduction`).
    let reduced = o
        .reduce
        .then(|| crate::portfolio::every::reduction(model, props))
        .flatten();
    let work = reduced.as_ref().map_or(model, |r| &r.model);
    // Ints that step are argued over their classes (`model::ints::abstracted`), and ints
    // over a window that grow past it over their order (`model::ints::order`), for all
    // runs: the window's `int_bound` and the sizes' answers within it do not bear on it.
    let abstracted = crate::portfolio::every::abstraction(work).is_some()
        || crate::portfolio::every::order_fallback(work).is_some();
    // A violation that is no property's (a range error) stops every claim.
    let other: Vec<usize> = reports
        .iter()
        .filter(|r| {
            r.results.iter().any(|x| {
                real_violation(x)
                    && !matches!(x.prop, PropId::Unsafe(_))
                    && !(abstracted && x.prop == PropId::IntBound)
            })
        })
        .map(|r| r.size)
        .collect();
    // Outside the fragment the sizes cannot make the claim: say why, whatever they gave.
    let outside = crate::proof::cutoff::fragment(work)
        .err()
        .filter(|_| !abstracted)
        .map(|o| {
            format!(
                "outside the fragment of the cutoff argument: {}",
                o.text(work)
            )
        });
    let sizes = SizesSay {
        other,
        outside,
        abstracted,
        limited,
    };
    let mut answers: Vec<Option<EveryN>> = props
        .iter()
        .map(|&u| from_sizes(model, reports, u, &sizes))
        .collect();
    // The properties left (`None`) are tried, unless the attempt before the sizes
    // answered them (`known`).
    for (a, &u) in answers.iter_mut().zip(props) {
        if a.is_none() {
            *a = known
                .iter()
                .find(|k| k.prop == PropId::Unsafe(u))
                .map(|k| k.answer.clone());
        }
    }
    let tried: Vec<usize> = props
        .iter()
        .zip(&answers)
        .filter(|(_, a)| a.is_none())
        .map(|(&u, _)| u)
        .collect();
    // A run leaving the int window at a size: the window cannot prove anything.
    let past_window = reports.iter().any(|r| {
        r.results
            .iter()
            .any(|x| x.prop == PropId::IntBound && x.verdict.kind() == Kind::Violated)
    });
    let mut proved = prove_each(model, &tried, o, past_window)?.into_iter();
    let props = props
        .iter()
        .zip(answers)
        .map(|(&u, a)| PropEvery {
            prop: PropId::Unsafe(u),
            answer: a.unwrap_or_else(|| {
                proved
                    .next()
                    .map(|p| p.answer)
                    .unwrap_or_else(|| not_reached("no answer".into()))
            }),
        })
        .collect();
    Ok(EveryAnswers {
        props,
        assuming: model.assumed.clone(),
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The answers for every size of the `ltl` properties `ltls` (asked by `--every-n`):
/// one violated at some size is violated for every n; the others are proved by a
/// ranking checked up to its cutoff (`portfolio::every_live`), or not.
pub(super) fn ltl_answers(
    model: &Model,
    reports: &[SizeReport],
    ltls: &[usize],
    fair: bool,
    o: EveryOpts,
) -> Result<Vec<PropEvery>, String> {
    let mut out = Vec::new();
    for &l in ltls {
        let violated: Vec<usize> = reports
            .iter()
            .filter(|r| {
                r.results
                    .iter()
                    .any(|x| x.prop == PropId::Ltl(l) && real_violation(x))
            })
            .map(|r| r.size)
            .collect();
        let answer = if !violated.is_empty() {
            EveryN::NotReached {
                reason: format!("violated at {}", sizes_phrase(&violated)),
                seconds: 0.0,
                violated,
            }
        } else if o.ctl.sat_stop().now() {
            not_reached("a limit stopped the search".into())
        } else {
            crate::portfolio::every_live::prove_live(model, l, fair, o.solver, o.ctl)?
        };
        out.push(PropEvery {
            prop: PropId::Ltl(l),
            answer,
        });
    }
    Ok(out)
}

/// A property not answered for every n, and why (no time of its own).
fn not_reached(reason: String) -> EveryN {
    EveryN::NotReached {
        reason,
        seconds: 0.0,
        violated: Vec::new(),
    }
}

/// What the sizes checked say against any claim for every n, whatever the property.
struct SizesSay {
    /// The sizes with a violation that is no property's (a range error).
    other: Vec<usize>,
    /// Why the model is outside the fragment of the cutoff argument.
    outside: Option<String>,
    /// Whether the ints are argued over their classes.
    abstracted: bool,
    /// Whether the sizes stopped at a limit.
    limited: bool,
}

/// The answer for every n of `unsafe` property `u` that the sizes `reports` give
/// without a proof (`None`: a proof is to be tried).
fn from_sizes(model: &Model, reports: &[SizeReport], u: usize, s: &SizesSay) -> Option<EveryN> {
    let rows = || {
        reports.iter().flat_map(move |r| {
            r.results
                .iter()
                .filter(move |x| x.prop == PropId::Unsafe(u))
                .map(move |x| (r.size, x))
        })
    };
    let violated: Vec<usize> = rows()
        .filter(|(_, x)| real_violation(x))
        .map(|(n, _)| n)
        .collect();
    if !violated.is_empty() {
        Some(EveryN::NotReached {
            reason: format!("violated at {}", sizes_phrase(&violated)),
            seconds: 0.0,
            violated,
        })
    } else if let Some(size) = model.number_procs.map(|(k, _)| k).filter(|&k| {
        s.other.is_empty()
            && !s.limited
            && rows().any(|(n, _)| n == k)
            && rows().all(|(n, x)| n != k || x.verdict.kind() == Kind::Holds)
    }) {
        // `number_procs` makes the model one instance: its size is every size.
        Some(EveryN::OnlySize { size, seconds: 0.0 })
    } else if let Some(o) = &s.outside {
        Some(not_reached(o.clone()))
    } else if !s.other.is_empty() {
        Some(not_reached(format!(
            "a range error at {}",
            sizes_phrase(&s.other)
        )))
    } else if s.limited {
        Some(not_reached("the run stopped at a limit".into()))
    } else if s.abstracted {
        None
    } else {
        rows()
            .find(|(_, x)| x.verdict.kind() != Kind::Holds)
            .map(|(n, _)| {
                not_reached(format!(
                    "size {n} is not proved (every size checked must hold first)"
                ))
            })
    }
}

/// `portfolio::every::prove_each` on the model reduced to the properties `props`
/// (`portfolio::every::reduction`), its proofs carried over to the model and checked
/// there; on the model as written when there is nothing to reduce or a proof does not
/// carry over. When a size showed a run leaving the int window (`past_window`), the
/// window cannot give the proof and the order of the ints is tried at once
/// (`portfolio::every::prove_each_past_window`).
fn prove_each(
    model: &Model,
    props: &[usize],
    o: EveryOpts,
    past_window: bool,
) -> Result<Vec<PropEvery>, String> {
    use crate::portfolio::every;
    let (solver, symmetry, ctl) = (o.solver, o.symmetry, o.ctl);
    let prove = |m: &Model| match past_window {
        true => every::prove_each_past_window(m, props, solver, symmetry, ctl),
        false => every::prove_each(m, props, solver, symmetry, ctl),
    };
    if let Some(r) = o.reduce.then(|| every::reduction(model, props)).flatten() {
        let answers = prove(&r.model)?;
        if let Some(lifted) = every::lift(model, &r, answers, solver, ctl)? {
            return Ok(lifted);
        }
    }
    prove(model)
}

/// `portfolio::every::prove_each_first` (the attempt before the sizes) on the model
/// reduced to the properties `props` (as `prove_each`); whether its answers are not
/// final (a budget of its own cut the argument over the int window short).
fn prove_each_first(
    model: &Model,
    props: &[usize],
    o: EveryOpts,
) -> Result<(Vec<PropEvery>, bool), String> {
    use crate::portfolio::every;
    let (solver, symmetry, ctl) = (o.solver, o.symmetry, o.ctl);
    if let Some(r) = o.reduce.then(|| every::reduction(model, props)).flatten() {
        let (answers, cut) = every::prove_each_first(&r.model, props, solver, symmetry, ctl)?;
        if let Some(lifted) = every::lift(model, &r, answers, solver, ctl)? {
            return Ok((lifted, cut));
        }
    }
    every::prove_each_first(model, props, solver, symmetry, ctl)
}

/// Whether `unsafe` property `u` holds for every n (then at every size too, whatever
/// the sizes checked said: within an int window, say).
fn holds_everywhere(run: &Run, u: usize) -> bool {
    run.every.as_ref().is_some_and(|e| {
        e.props
            .iter()
            .any(|p| p.prop == PropId::Unsafe(u) && p.answer.holds())
    })
}

/// Whether an `invariant` among the properties checked is not proved: at a size
/// checked, or for every n when that was tried (one proved for every n is proved).
pub(super) fn invariant_unproved(run: &Run, props: &[usize]) -> bool {
    let m = run.model;
    let invs: Vec<usize> = props
        .iter()
        .copied()
        .filter(|&u| m.unsafes[u].kind == PropKind::Invariant && !holds_everywhere(run, u))
        .collect();
    let at_sizes = run.reports.iter().any(|r| {
        r.results.iter().any(|x| {
            matches!(x.prop, PropId::Unsafe(u) if invs.contains(&u))
                && x.verdict.kind() != Kind::Holds
        })
    });
    let every = run.every.as_ref().is_some_and(|e| {
        e.props
            .iter()
            .any(|p| matches!(p.prop, PropId::Unsafe(u) if invs.contains(&u)) && !p.answer.holds())
    });
    !invs.is_empty() && (at_sizes || every || run.limit.is_some())
}

/// The `unsafe` properties of the run not proved (at a size checked, or for every n
/// when that was tried) answered on the model restricted to the states satisfying
/// every `invariant`, at the sizes of `p`, and for every n when `every`. A property
/// proved without the assumption (at every size checked, or for every n) holds with it
/// (the restricted runs are runs of the model), so it is not answered again.
pub(super) fn assumed_pass(
    engine: &dyn Engine,
    run: &Run,
    p: &Problem,
    every: Option<EveryOpts>,
    ctl: &Control,
) -> Result<Option<AssumedRun>, String> {
    let model = p.model;
    let unproved = |u: usize| {
        if holds_everywhere(run, u) {
            return false;
        }
        run.reports.iter().any(|r| {
            r.results
                .iter()
                .any(|x| x.prop == PropId::Unsafe(u) && x.verdict.kind() != Kind::Holds)
        }) || run.limit.is_some()
            || run.every.as_ref().is_some_and(|e| {
                e.props
                    .iter()
                    .any(|q| q.prop == PropId::Unsafe(u) && !q.answer.holds())
            })
    };
    let unsafes: Vec<usize> = p
        .props
        .iter()
        .copied()
        .filter(|&u| model.unsafes[u].kind == PropKind::Unsafe && unproved(u))
        .collect();
    let invs = assume::invariants(model);
    if unsafes.is_empty() || invs.is_empty() {
        return Ok(None);
    }
    let start = Instant::now();
    let names = assume::names(model, &invs);
    let amodel = match assumed_model(model, &invs) {
        Ok(m) => m,
        Err(e) => {
            return Ok(Some(AssumedRun {
                model: None,
                invariants: names,
                reports: Vec::new(),
                limit: None,
                every: None,
                refused: Some(e),
                notes: Vec::new(),
                certificates: Vec::new(),
                seconds: 0.0,
            }));
        }
    };
    // With no process left to be a `proc` global that `init` now declares different
    // from every process, the restricted model gets the extra process id.
    let mut notes = Vec::new();
    if let (Some(x), None) = (&amodel.extra_proc, &model.extra_proc) {
        notes.push(format!(
            "assuming the invariants, `init` declares {} different from every process: the restricted model is read with the extra process id 0, as Cubicle reads it (docs/language.md), not as having no initial state",
            x.names()
        ));
    }
    let problem = Problem::new(&amodel, p.min, p.max, unsafes.clone());
    let mut reports = Vec::new();
    let outcome = engine::run(engine, &problem, ctl, &mut |r| reports.push(r))?;
    let limit = outcome.limit.or(reports.iter().find_map(|r| r.limit));
    let every = match every {
        Some(o) => Some(answers(
            &amodel,
            &reports,
            limit.is_some(),
            &unsafes,
            o,
            &[],
        )?),
        None => None,
    };
    Ok(Some(AssumedRun {
        model: Some(amodel),
        invariants: names,
        reports,
        limit,
        every,
        refused: None,
        notes,
        certificates: if outcome.certificates.is_empty() {
            outcome.certificate.into_iter().collect()
        } else {
            outcome.certificates
        },
        seconds: start.elapsed().as_secs_f64(),
    }))
}

/// The model restricted by the `invariant`s `invs` (`model::assume`), printed and read
/// back (`lang::read_back`).
pub fn assumed_model(model: &Model, invs: &[usize]) -> Result<Model, String> {
    crate::lang::read_back(
        &assume::assume(model, invs)?,
        "the model assuming its invariants",
    )
}

/// The sizes' rows that a proof for every n answers: a property proved for every n
/// holds at each size, so its rows short of a proof there (bounded, incomplete, or
/// within an int window some run leaves) become `holds` by that invariant, and a
/// size's `int_bound` row goes once every property of the size holds (leaving the
/// window then bears on no answer: the proof is over the unbounded ints). Rows
/// `vacuous`, `unknown` or violated are kept. Returns the sizes changed.
pub(super) fn lift_sizes(run: &mut Run) -> Vec<usize> {
    use crate::verdict::{Proof, Verdict};
    let Some(every) = &run.every else {
        return Vec::new();
    };
    let proved = |prop: PropId| {
        every.props.iter().find_map(|p| match &p.answer {
            EveryN::Proved { certificate, .. } if p.prop == prop => Some(certificate.clone()),
            _ => None,
        })
    };
    let mut changed = Vec::new();
    for r in &mut run.reports {
        let mut lifted = false;
        for x in &mut r.results {
            let short = matches!(
                x.verdict.kind(),
                Kind::WithinInts(_) | Kind::NoViolationUpTo(_) | Kind::Incomplete
            );
            if let Some(certificate) = proved(x.prop).filter(|_| short) {
                x.verdict = Verdict::Holds(Proof::Invariant {
                    engine: "every-n",
                    certificate,
                });
                lifted = true;
            }
        }
        let all_hold = r
            .results
            .iter()
            .all(|x| x.prop == PropId::IntBound || x.verdict.kind() == Kind::Holds);
        if lifted && all_hold {
            r.results.retain(|x| x.prop != PropId::IntBound);
        }
        if lifted {
            // Decided now, by the invariant for every n printed below the table.
            r.shown_at = Some(run.started.elapsed().as_secs_f64());
            changed.push(r.size);
        }
    }
    changed
}

/// The run takes the rows and answers of an attempt before the sizes that proved every
/// property (`First::Proved`): the rows are printed (unless `json`) and a note says
/// where they come from.
pub(super) fn take_first(
    run: &mut Run,
    every: EveryAnswers,
    mut reports: Vec<SizeReport>,
    show: &mut dyn FnMut(Event),
) {
    for r in &mut reports {
        r.shown_at = Some(run.started.elapsed().as_secs_f64());
    }
    let mut prev = None;
    for r in &reports {
        show(Event::Rows {
            model: run.model,
            report: r,
            prev,
        });
        prev = Some(r);
    }
    let cutoff = every
        .props
        .iter()
        .filter_map(|p| match &p.answer {
            EveryN::Proved { cutoff, .. } => Some(*cutoff),
            _ => None,
        })
        .max()
        .unwrap_or(1);
    run.notes.push(format!(
        "{} answered by the invariant for every n (below): checked at {} and carried to every size by the cutoff argument; no size was searched on its own",
        sizes_phrase(&run.sizes),
        sizes_phrase(&(1..=cutoff).collect::<Vec<_>>())
    ));
    run.reports = reports;
    run.every = Some(every);
}

/// `prove_each_first`, and when IC3 refutes the properties argued together, the others
/// again without the one its run violates, until none is refuted: so a property shown
/// for every n needs no search of the sizes (`First::Partial`), where a violated one
/// beside it used to send every property to the sizes (Cubicle's `flash_test`: its
/// `invariant1` is violated initially, its `unsafe1` holds for every n). Whether the
/// answers are not final (a budget cut the argument over the int window short).
fn apart_from_refuted(
    model: &Model,
    props: &[usize],
    o: EveryOpts,
) -> Result<(Vec<PropEvery>, bool), String> {
    use crate::portfolio::every::{refuted, refuted_prop};
    // A refutation cuts the attempt short too (`prove_each_first`), but leaves the
    // answers final: the sizes show its run. Only a budget's cut is kept.
    let budget_cut =
        |(a, cut): (Vec<PropEvery>, bool)| (cut && !a.iter().any(|x| refuted(&x.answer)), a);
    let (mut cut, mut answers) = budget_cut(prove_each_first(model, props, o)?);
    loop {
        // The properties argued with a refuted one, and that one.
        let refuted_with: Vec<usize> = answers
            .iter()
            .filter_map(|a| match (a.prop, refuted_prop(model, &a.answer)) {
                (PropId::Unsafe(u), Some(r)) if r != u => Some(u),
                _ => None,
            })
            .collect();
        if refuted_with.is_empty() || refuted_with.len() == props.len() || o.ctl.sat_stop().now() {
            break;
        }
        let (c, again) = budget_cut(prove_each_first(model, &refuted_with, o)?);
        cut = c;
        for a in again {
            if let Some(slot) = answers.iter_mut().find(|x| x.prop == a.prop) {
                *slot = a;
            }
        }
    }
    Ok((answers, cut))
}

/// The properties the attempt before the sizes proved when it did not prove all
/// (`First::Partial`): the sizes need not search them, their rows come from the
/// invariant. None on a model with an int window, which the sizes may widen (the
/// proof is about the model as read).
pub(super) struct Shown<'a> {
    model: &'a Model,
    proved: Vec<(usize, Arc<crate::cert::Certificate>)>,
    cutoff: usize,
}

impl<'a> Shown<'a> {
    pub fn of(model: &'a Model, known: &[PropEvery]) -> Self {
        let mut cutoff = 1;
        let known = if model.int_window.is_none() {
            known
        } else {
            &[]
        };
        let proved = known
            .iter()
            .filter_map(|k| match (k.prop, &k.answer) {
                (
                    PropId::Unsafe(u),
                    EveryN::Proved {
                        certificate,
                        cutoff: c,
                        ..
                    },
                ) => {
                    cutoff = cutoff.max(*c);
                    Some((u, certificate.clone()))
                }
                _ => None,
            })
            .collect();
        Shown {
            model,
            proved,
            cutoff,
        }
    }

    /// The note saying where the rows of the proved properties at `sizes` come from.
    pub fn note(&self, sizes: &[usize]) -> Option<String> {
        let names: Vec<String> = (self.proved.iter())
            .map(|(u, _)| format!("`{}`", self.model.unsafes[*u].name))
            .collect();
        (!names.is_empty()).then(|| {
            format!(
                "{} at {}: answered by the invariant for every n (below), checked at {} and carried to every size by the cutoff argument; the sizes were searched for the other properties only",
                names.join(", "),
                sizes_phrase(sizes),
                sizes_phrase(&(1..=self.cutoff).collect::<Vec<_>>())
            )
        })
    }

    /// The properties of `props` left for the sizes.
    pub fn open(&self, props: &[usize]) -> Vec<usize> {
        let shown = |u: &usize| self.proved.iter().any(|(p, _)| p == u);
        props.iter().copied().filter(|u| !shown(u)).collect()
    }

    /// The rows of the proved properties put into a size's report, in the order of
    /// the properties: `holds` by the invariant, or `vacuous` without an initial state.
    pub fn fill(&self, r: &mut SizeReport) {
        if self.proved.is_empty() {
            return;
        }
        let init = engine::has_initial_state(self.model, r.size);
        for (u, cert) in &self.proved {
            let at = r
                .results
                .iter()
                .position(|x| !matches!(x.prop, PropId::Unsafe(v) if v < *u))
                .unwrap_or(r.results.len());
            let row = every_n_row(self.model, r.size, *u, cert, init);
            r.results.insert(at, row);
        }
    }
}

/// The row of `unsafe` property `u` at size `n` that an invariant for every n gives:
/// `holds` by it, or `vacuous` where the size has no initial state (`init`).
fn every_n_row(
    model: &Model,
    n: usize,
    u: usize,
    certificate: &Arc<crate::cert::Certificate>,
    init: bool,
) -> crate::verdict::PropResult {
    use crate::verdict::{Proof, PropResult, Verdict};
    let verdict = if init {
        Verdict::Holds(Proof::Invariant {
            engine: "every-n",
            certificate: certificate.clone(),
        })
    } else {
        Verdict::Vacuous
    };
    PropResult {
        size: n,
        prop: PropId::Unsafe(u),
        name: model.unsafes[u].name.clone(),
        verdict,
    }
}

/// What the attempt at every n before the sizes gave (`proved_first`).
pub(super) enum First {
    /// Every property proved: the answers, and the rows of the sizes they imply.
    Proved(EveryAnswers, Vec<SizeReport>),
    /// The attempt ended within its budget without proving all: its answers, reused
    /// after the sizes for the properties the sizes leave to be tried.
    Partial(Vec<PropEvery>),
    /// Not tried, or stopped by its budget.
    None,
}

/// "Every n" before the sizes (`check --every-n`, or `check` trying it by default):
/// when one attempt within `ctl` proves every property of `props` for every n, the
/// rows of `sizes` follow from that invariant and no size is searched on its own:
/// each row is `holds` by the invariant checked at sizes 1..c and carried to every
/// size by the cutoff argument, or `vacuous` at a size without an initial state.
pub(super) fn proved_first(
    model: &Model,
    props: &[usize],
    sizes: &[usize],
    o: EveryOpts,
) -> Result<First, String> {
    let (symmetry, ctl) = (o.symmetry, o.ctl);
    let reduced = o
        .reduce
        .then(|| crate::portfolio::every::reduction(model, props))
        .flatten();
    let work = reduced.as_ref().map_or(model, |r| &r.model);
    if props.is_empty() || model.number_procs.is_some() || !crate::portfolio::every::in_reach(work)
    {
        return Ok(First::None);
    }
    let start = Instant::now();
    let (answers, cut) = apart_from_refuted(model, props, o)?;
    let mut certs = Vec::new();
    for p in &answers {
        match &p.answer {
            EveryN::Proved { certificate, .. } => certs.push(certificate.clone()),
            _ if ctl.sat_stop().now() || cut => return Ok(First::None),
            _ => return Ok(First::Partial(answers)),
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let reports = sizes
        .iter()
        .map(|&n| {
            let init = engine::has_initial_state(model, n);
            SizeReport {
                size: n,
                engine: "every-n",
                symmetry,
                results: props
                    .iter()
                    .zip(&certs)
                    .map(|(&u, c)| every_n_row(model, n, u, c, init))
                    .collect(),
                seconds,
                shared_time: true,
                ..SizeReport::default()
            }
        })
        .collect();
    Ok(First::Proved(
        EveryAnswers {
            props: answers,
            assuming: model.assumed.clone(),
            seconds,
        },
        reports,
    ))
}
