//! The steps every proof engine ends with, so that their answers can be trusted
//! whatever the engine: a counterexample (property, size, length) becomes a shortest
//! trace by BMC at that size, replayed on the interpreter; an invariant becomes a
//! certificate, checked by `proof::check` at every size it is claimed for.

use crate::bmc::driver::{self, BmcOptions};
use crate::cert::{CertLemma, Certificate, Evidence, text_hash};
use crate::engine::{Control, Problem};
use crate::proof::check::{self, SizeCheck};
use crate::sat::{SolverKind, Stop};
use crate::trace::Trace;
use crate::transys::frame::Encoding;
use crate::transys::query::SymBreak;
use crate::verdict::{Limit, Proof, PropId, PropResult, SizeReport, Stats, Verdict};
use std::collections::HashMap;
use std::sync::Arc;

/// The keys of a problem: its `unsafe` properties, range errors, and `int_bound` when
/// the model has ints.
pub fn keys(p: &Problem) -> Vec<PropId> {
    let mut keys: Vec<PropId> = p.props.iter().map(|&u| PropId::Unsafe(u)).collect();
    keys.push(PropId::Range);
    if p.model.int_window.is_some() {
        keys.push(PropId::IntBound);
    }
    keys
}

/// A shortest counterexample of `key` at size `n`, by BMC up to `depth` steps (a proof
/// engine found one of that length, so one exists), replayed.
pub fn shortest(
    p: &Problem,
    key: PropId,
    n: usize,
    depth: usize,
    solver: SolverKind,
    ctl: &Control,
) -> Result<Trace, String> {
    let opts = BmcOptions {
        depth,
        symbreak: SymBreak::WitnessLex,
        solver,
        encoding: Encoding::Binary,
        props: Some(match key {
            PropId::Unsafe(u) => vec![u],
            _ => p.props.clone(),
        }),
        deadline: ctl.deadline,
        stop: ctl.stop.clone(),
        max_memory: ctl.max_memory,
        memory: ctl.memory.clone(),
        progress: false,
        por: Default::default(),
        whole_aggregate: false,
    };
    let r = driver::check_size(p.model, n, &opts)?;
    let want = key;
    r.report
        .results
        .into_iter()
        .find(|x| x.prop == want)
        .and_then(|x| x.verdict.into_trace())
        .ok_or_else(|| {
            format!(
                "BMC found no counterexample within {depth} steps at size {n}, where the proof engine found one{}",
                r.report
                    .limit
                    .map(|l| format!(" ({})", l.text()))
                    .unwrap_or_default()
            )
        })
}

/// A certificate of `lemmas` (inductive) claiming each property at the sizes given,
/// checked at `sizes` only (sizes of the problem's range the claims leave out).
pub fn certify_at(
    p: &Problem,
    engine: &str,
    lemmas: Vec<CertLemma>,
    claims: Vec<(String, Vec<usize>)>,
    sizes: &[usize],
    solver: SolverKind,
    ctl: &Control,
) -> Result<(Arc<Certificate>, Vec<SizeCheck>), String> {
    certify_diagrams(p, engine, lemmas, Vec::new(), claims, sizes, solver, ctl)
}

/// `certify_at` for lemmas that are decision diagrams over `nodes` (the BDD engine's;
/// none for clauses).
#[allow(clippy::too_many_arguments)]
pub fn certify_diagrams(
    p: &Problem,
    engine: &str,
    lemmas: Vec<CertLemma>,
    nodes: Vec<crate::cert::BddNode>,
    claims: Vec<(String, Vec<usize>)>,
    sizes: &[usize],
    solver: SolverKind,
    ctl: &Control,
) -> Result<(Arc<Certificate>, Vec<SizeCheck>), String> {
    let cert = certificate(p, engine, Evidence::of_diagrams(nodes), lemmas, claims);
    let checks = check::check(p.model, &cert, sizes, solver, &ctl.sat_stop())?;
    Ok((Arc::new(cert), checks))
}

/// A certificate of `lemmas` (by `evidence`) claiming each property at the sizes given,
/// checked at every size of the problem.
pub fn certify(
    p: &Problem,
    engine: &str,
    evidence: Evidence,
    lemmas: Vec<CertLemma>,
    claims: Vec<(String, Vec<usize>)>,
    solver: SolverKind,
    ctl: &Control,
) -> Result<(Arc<Certificate>, Vec<SizeCheck>), String> {
    let cert = certificate(p, engine, evidence, lemmas, claims);
    check_at_every_size(p, cert, solver, ctl)
}

/// `cert` checked by `proof::check` at every size of the problem.
fn check_at_every_size(
    p: &Problem,
    cert: Certificate,
    solver: SolverKind,
    ctl: &Control,
) -> Result<(Arc<Certificate>, Vec<SizeCheck>), String> {
    let checks = check::check(p.model, &cert, &p.sizes(), solver, &ctl.sat_stop())?;
    Ok((Arc::new(cert), checks))
}

/// The certificate of `lemmas` (by `evidence`) claiming `claims` about the problem's
/// model and sizes.
fn certificate(
    p: &Problem,
    engine: &str,
    evidence: Evidence,
    lemmas: Vec<CertLemma>,
    claims: Vec<(String, Vec<usize>)>,
) -> Certificate {
    Certificate {
        model: p.model.source.name.clone(),
        hash: text_hash(&p.model.source.text),
        sizes: (p.min, p.max),
        engine: engine.to_string(),
        evidence,
        proves: claims,
        lemmas,
        ints: p.model.int_window.as_ref().map(|w| (w.lo, w.hi)),
        assume: p.model.assumed.clone(),
        abstraction: p.model.abs_ints.is_some(),
        ..Certificate::default()
    }
}

/// What a proof engine found, to be turned into verdicts.
#[derive(Clone, Debug, Default)]
pub struct Findings {
    /// Counterexamples known by (property, size, an upper bound on their length).
    pub cexs: Vec<(PropId, usize, usize)>,
    /// Counterexamples already shortest and replayed (a BMC pass).
    pub traces: Vec<(PropId, Trace)>,
    /// The lemmas of an invariant proving every other (property, size), its
    /// induction depth, and whether the induction is over simple paths.
    pub invariant: Option<(Vec<CertLemma>, usize, bool)>,
    /// The depth up to which no other violation exists, when no invariant was found.
    pub bounded: Option<usize>,
    pub limit: Option<crate::verdict::Limit>,
    /// Whether symmetric orbits or symmetry breaking were used.
    pub symmetry: bool,
    /// Frames or induction depth, and invariant size, for the report.
    pub proof_depth: Option<usize>,
    /// How the invariant was found, for the certificate's `engine` line when it is not
    /// the engine's name.
    pub how: Option<&'static str>,
    /// A certificate of the invariant already checked by `certify` (the counter view
    /// checks its own before it keeps it): `conclude` uses its checks when it is the
    /// very certificate it would write, and checks its own otherwise.
    pub checked: Option<(Arc<Certificate>, Vec<SizeCheck>)>,
}

/// What a proof engine's `Engine::check` does once it has its findings: refuse a model
/// it cannot read, conclude (`conclude`), hand every size's report on, and say how the
/// run ended (the sizes are one aggregate run). `search` gives the findings.
pub fn check_with(
    p: &Problem,
    ctl: &Control,
    engine: &'static str,
    solver: SolverKind,
    search: impl FnOnce() -> Result<Findings, String>,
    report: &mut dyn FnMut(crate::verdict::SizeReport),
) -> Result<crate::engine::Outcome, String> {
    let start = std::time::Instant::now();
    let f = search()?;
    let (reports, certificate) =
        conclude(p, ctl, engine, solver, f, start.elapsed().as_secs_f64())?;
    let limit = reports.iter().find_map(|r| r.limit);
    for r in reports {
        report(r);
    }
    Ok(crate::engine::Outcome {
        limit,
        certificate,
        aggregate: p.max > p.min,
        ..Default::default()
    })
}

/// Turn findings into one report per size: counterexamples made shortest and
/// replayed, the invariant certified (every `holds` is a checked one), the rest
/// bounded or unknown. Returns the reports and the certificate.
pub fn conclude(
    p: &Problem,
    ctl: &Control,
    engine: &'static str,
    solver: SolverKind,
    mut f: Findings,
    seconds: f64,
) -> Result<(Vec<SizeReport>, Option<Arc<Certificate>>), String> {
    let keys = keys(p);
    // A limit reached while counterexamples are made shortest or the certificate is
    // checked leaves those answers unknown (not an internal error): the run's limit.
    let mut d = Decided {
        verdicts: HashMap::new(),
        errors: HashMap::new(),
        limit: f.limit,
        stop: ctl.sat_stop(),
    };
    for (k, t) in std::mem::take(&mut f.traces) {
        d.verdicts.insert((k, t.size), Verdict::violated(t));
    }
    shorten_cexs(p, ctl, solver, &f.cexs, &mut d);
    let lemmas_count = f.invariant.as_ref().map(|(l, _, _)| l.len());
    let certificate = certify_invariant(p, ctl, engine, solver, &keys, &mut f, &mut d)?;
    let reports = size_reports(p, engine, &f, seconds, &keys, lemmas_count, d);
    Ok((reports, certificate))
}

/// What `conclude` has decided so far: the verdicts by (key, size), the errors met at
/// each size, and the run's limit, with the stop that limit comes from.
struct Decided {
    verdicts: HashMap<(PropId, usize), Verdict>,
    errors: HashMap<usize, Vec<String>>,
    limit: Option<Limit>,
    stop: Stop,
}

/// The limit `stop` was reached by.
fn reached(stop: &Stop) -> Option<Limit> {
    Some(Limit::of(stop))
}

/// Every counterexample not yet decided made shortest and replayed (unknown once the
/// run's limit is reached).
fn shorten_cexs(
    p: &Problem,
    ctl: &Control,
    solver: SolverKind,
    cexs: &[(PropId, usize, usize)],
    d: &mut Decided,
) {
    // Properties first: range errors at a size whose properties are all violated are
    // decided only up to the deepest violation, as every engine does (BMC then finds
    // none deeper, and the size gets no range-error row).
    let mut cexs = cexs.to_vec();
    cexs.sort_by_key(|c| !matches!(c.0, PropId::Unsafe(_)));
    for &(k, n, depth) in &cexs {
        if d.verdicts.contains_key(&(k, n)) {
            continue;
        }
        let verdicts = &d.verdicts;
        let all_violated = || {
            p.props.iter().all(|&u| {
                verdicts
                    .get(&(PropId::Unsafe(u), n))
                    .is_some_and(|v| v.trace().is_some())
            })
        };
        if d.stop.now() {
            d.limit = d.limit.or(reached(&d.stop));
            d.verdicts.insert((k, n), Verdict::Unknown);
            continue;
        }
        if ctl.progress {
            crate::progress::line(format!(
                "the counterexample of {} at size {n} made shortest: BMC up to depth {depth}",
                k.name(p.model)
            ));
        }
        let v = match shortest(p, k, n, depth, solver, ctl) {
            Ok(t) => Verdict::violated(t),
            Err(_) if d.stop.now() => {
                d.limit = d.limit.or(reached(&d.stop));
                Verdict::Unknown
            }
            Err(_) if !matches!(k, PropId::Unsafe(_)) && !p.props.is_empty() && all_violated() => {
                Verdict::Unknown
            }
            Err(e) => {
                d.errors
                    .entry(n)
                    .or_default()
                    .push(format!("{}: {e}", k.name(p.model)));
                Verdict::Unknown
            }
        };
        d.verdicts.insert((k, n), v);
    }
}

/// The findings' invariant, if any, certified for every (key, size) not yet decided and
/// checked at every size (unless `certify` already checked this very certificate);
/// where the check accepts it, those keys hold. Returns the certificate.
fn certify_invariant(
    p: &Problem,
    ctl: &Control,
    engine: &'static str,
    solver: SolverKind,
    keys: &[PropId],
    f: &mut Findings,
    d: &mut Decided,
) -> Result<Option<Arc<Certificate>>, String> {
    let Some((lemmas, induction, simple_path)) = f.invariant.take() else {
        return Ok(None);
    };
    let claims: Vec<(String, Vec<usize>)> = keys
        .iter()
        .map(|&k| {
            let sizes = p
                .sizes()
                .into_iter()
                .filter(|&n| !d.verdicts.contains_key(&(k, n)))
                .collect();
            (k.name(p.model), sizes)
        })
        .collect();
    let t0 = std::time::Instant::now();
    let how = f.how.unwrap_or(engine);
    let evidence = Evidence::Induction {
        k: induction,
        simple_path,
    };
    let mine = self::certificate(p, how, evidence, lemmas, claims);
    let (cert, checks, before) = match f.checked.take() {
        Some((c, checks)) if *c == mine => (c, checks, true),
        _ => {
            let (c, checks) = check_at_every_size(p, mine, solver, ctl)?;
            (c, checks, false)
        }
    };
    if ctl.progress {
        crate::progress::line(if before {
            format!(
                "certificate of {} lemmas checked at sizes {}..{} before it was kept",
                cert.lemmas.len(),
                p.min,
                p.max
            )
        } else {
            format!(
                "certificate of {} lemmas checked at sizes {}..{} in {:.2}s",
                cert.lemmas.len(),
                p.min,
                p.max,
                t0.elapsed().as_secs_f64()
            )
        });
    }
    for c in &checks {
        for (i, &k) in keys.iter().enumerate() {
            if d.verdicts.contains_key(&(k, c.size)) || !cert.proves[i].1.contains(&c.size) {
                continue;
            }
            let v = if c.accepted() {
                Verdict::Holds(Proof::Invariant {
                    engine,
                    certificate: cert.clone(),
                })
            } else {
                Verdict::Unknown
            };
            d.verdicts.insert((k, c.size), v);
        }
        if !c.unchecked.is_empty() {
            d.limit = d.limit.or(reached(&d.stop));
        }
        for e in &c.failures {
            d.errors
                .entry(c.size)
                .or_default()
                .push(format!("the certificate failed its check: {e}"));
        }
    }
    Ok(Some(cert))
}

/// One report per size from what was decided: every other key bounded or unknown.
fn size_reports(
    p: &Problem,
    engine: &'static str,
    f: &Findings,
    seconds: f64,
    keys: &[PropId],
    lemmas_count: Option<usize>,
    mut d: Decided,
) -> Vec<SizeReport> {
    let mut reports = Vec::new();
    for n in p.sizes() {
        let mut results = Vec::new();
        for &k in keys {
            let v = d.verdicts.remove(&(k, n)).unwrap_or(match f.bounded {
                Some(b) => Verdict::NoViolationUpTo(b),
                None => Verdict::Unknown,
            });
            // Range errors (and `int_bound`) get a row only when one is found, as with
            // every engine.
            if !matches!(k, PropId::Unsafe(_)) && v.trace().is_none() {
                continue;
            }
            results.push(PropResult::new(p.model, n, k, v));
        }
        reports.push(SizeReport {
            size: n,
            engine,
            symmetry: f.symmetry,
            results,
            seconds,
            shared_time: p.max > p.min,
            limit: d.limit,
            internal_errors: d.errors.remove(&n).unwrap_or_default(),
            stats: Stats {
                proof_depth: f.proof_depth,
                lemmas: lemmas_count,
                bound: f.bounded,
                ..Stats::default()
            },
            ..SizeReport::default()
        });
    }
    reports
}
