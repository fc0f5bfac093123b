//! `nfold live --engine rank`: ranking proofs (`rank::prove_size`) of the `ltl`
//! response properties, size by size, each certificate checked before `holds
//! (proved)`. It proves, never refutes: a size it cannot rank is `unknown`, with why.

use crate::cert::Certificate;
use crate::engine::Report;
use crate::engine::{Control, Engine, LtlAnswer, Outcome, Presentation, Problem};
use crate::model::ir::Model;
use crate::sat::SolverKind;
use crate::verdict::{PropId, PropResult, SizeReport, Stats, Verdict};
use std::sync::Arc;
use std::time::Instant;

/// The ranking engine.
pub struct RankEngine {
    pub solver: SolverKind,
}

/// What the ranking search gave for one property: the certificates of the sizes it
/// proved and, per size it did not, why.
pub struct Ranked {
    pub proved: Vec<(usize, Arc<Certificate>, f64)>,
    pub failed: Vec<(usize, String)>,
}

/// Whether ranking proofs apply to the `ltl` properties `ltls` of the model: there is
/// one, each is a response property, and the model has no `int` and no extra process
/// id.
pub fn applies(model: &Model, ltls: &[usize]) -> bool {
    !ltls.is_empty()
        && model.extra_proc.is_none()
        && model.int_window.is_none()
        && ltls
            .iter()
            .all(|&k| crate::live::response::of(model, &model.ltls[k].name).is_ok())
}

/// Why the rank engine does not try property `name` of the model, if it does not: it
/// reads no `int` nor the extra process id, and only a response property has a ranking
/// proof.
fn refused(model: &Model, name: &str) -> Option<String> {
    if model.int_window.is_some() || model.extra_proc.is_some() {
        return Some(
            "the rank engine does not read models with `int` or the extra process id".into(),
        );
    }
    crate::live::response::of(model, name).err()
}

impl RankEngine {
    /// Every `ltl` property of `p` proved at every size (auto's step 2 for `ltl`): the reports,
    /// handed to `report`, and the outcome; `None`, with nothing reported, when some
    /// (property, size) is not (an error of the search included: the other engines
    /// answer).
    pub fn prove_all(
        &self,
        p: &Problem,
        ctl: &Control,
        report: Report,
    ) -> Result<Option<Outcome>, String> {
        let mut all: Vec<SizeReport> = Vec::new();
        let mut certificates = Vec::new();
        for &k in &p.ltls {
            let one = Problem {
                props: Vec::new(),
                ltls: vec![k],
                ..p.clone()
            };
            let r = match self.rank(&one, ctl, k, true) {
                Ok(r) => r,
                Err(e) => {
                    if ctl.progress {
                        crate::progress::line(format!("rank: {e}"));
                    }
                    return Ok(None);
                }
            };
            if let Some((n, why)) = r.failed.first() {
                if ctl.progress {
                    crate::progress::line(format!(
                        "rank: `{}` not ranked at size {n} ({why}): the other phases answer",
                        p.model.ltls[k].name
                    ));
                }
                return Ok(None);
            }
            let reports: Vec<SizeReport> = p
                .sizes()
                .into_iter()
                .filter_map(|n| Self::report(&one, k, &r, n))
                .collect();
            if reports.len() != p.sizes().len() {
                return Ok(None);
            }
            all = crate::live::merge(all, reports);
            certificates.extend(r.proved.into_iter().map(|x| x.1));
        }
        for r in all {
            report(r);
        }
        Ok(Some(Outcome {
            certificate: certificates.first().cloned(),
            certificates,
            notes: vec![format!(
                "{} answered by ranking proofs (rank), each certificate checked",
                crate::cert::sizes_phrase(&p.sizes())
            )],
            ..Outcome::default()
        }))
    }

    /// Rank property k at the problem's sizes, from the smallest; with `stop_early`,
    /// the sizes after the first one not ranked are not tried (left to other engines).
    pub fn rank(
        &self,
        p: &Problem,
        ctl: &Control,
        k: usize,
        stop_early: bool,
    ) -> Result<Ranked, String> {
        let name = p.model.ltls[k].name.clone();
        let mut out = Ranked {
            proved: Vec::new(),
            failed: Vec::new(),
        };
        if let Some(why) = refused(p.model, &name) {
            out.failed.push((p.min, why));
            return Ok(out);
        }
        // A probe first: the smallest sizes with more than one process (a ranking
        // that fails there would fail above), on their own small invariant.
        let lo = p.min.max(2).min(p.max);
        let hi = (lo + 1).min(p.max);
        if stop_early && hi < p.max {
            let small = Problem {
                min: lo,
                max: hi,
                ..p.clone()
            };
            let probe = self.rank(&small, ctl, k, true)?;
            if !probe.failed.is_empty() {
                return Ok(probe);
            }
        }
        let Some((lemmas, held)) = self.invariant(p, ctl)? else {
            out.failed.push((
                p.min,
                "no invariant of the model (a limit stopped IC3)".into(),
            ));
            return Ok(out);
        };
        // The sizes are independent: on the machine's cores, the largest first (the
        // slowest); under `stop_early` a failure leaves the sizes not started.
        let one = |n: usize| -> Result<(Result<Certificate, String>, f64), String> {
            let t = Instant::now();
            if !held.contains(&n) {
                return Ok((
                    Err("a safety property of the model is violated at this size".into()),
                    0.0,
                ));
            }
            let stop = ctl.sat_stop();
            let r = if stop.now() {
                Err("not tried (limit)".to_string())
            } else {
                super::prove_size(p.model, &name, n, p.fair, &lemmas, self.solver, &stop)?
            };
            if ctl.progress {
                crate::progress::line(match &r {
                    Ok(c) => format!(
                        "rank: `{name}` size {n}: proved ({} phases, {:.2}s)",
                        c.ranking().map_or(0, |r| r.phases.len()),
                        t.elapsed().as_secs_f64()
                    ),
                    Err(e) => format!("rank: `{name}` size {n}: {e}"),
                });
            }
            Ok((r, t.elapsed().as_secs_f64()))
        };
        let sizes = p.sizes();
        let results = crate::cores::largest_first(&sizes, &one, &|r| {
            stop_early && !matches!(r, Ok((Ok(_), _)))
        });
        for (n, r) in sizes.into_iter().zip(results) {
            let Some(r) = r else { continue };
            let (r, secs) = r?;
            match r {
                Ok(c) => out.proved.push((n, Arc::new(c), secs)),
                Err(e) => out.failed.push((n, e)),
            }
        }
        Ok(out)
    }

    /// The model's invariant at the problem's sizes (`rank::invariant`), said when
    /// progress is shown.
    fn invariant(&self, p: &Problem, ctl: &Control) -> Result<Option<super::Invariant>, String> {
        let t = Instant::now();
        let inv = super::invariant(p.model, p.min, p.max, self.solver, ctl)?;
        if ctl.progress {
            crate::progress::line(format!(
                "rank: the invariant at sizes {}..{}: {} ({:.2}s)",
                p.min,
                p.max,
                match &inv {
                    Some((l, _)) => format!("{} lemmas", l.len()),
                    None => "none (a limit)".into(),
                },
                t.elapsed().as_secs_f64()
            ));
        }
        Ok(inv)
    }

    /// The report of size n of property k.
    pub fn report(p: &Problem, k: usize, r: &Ranked, n: usize) -> Option<SizeReport> {
        let (_, c, secs) = r.proved.iter().find(|x| x.0 == n)?;
        let ranking = c.ranking()?;
        Some(SizeReport {
            size: n,
            engine: "rank",
            symmetry: p.model.is_symmetric(),
            results: vec![PropResult::new(
                p.model,
                n,
                PropId::Ltl(k),
                Verdict::proved_if_checked("rank", Some(&(c.clone(), vec![n])), n),
            )],
            seconds: *secs,
            stats: Stats {
                lemmas: Some(c.lemmas.len() + ranking.phases.len()),
                ..Stats::default()
            },
            ..SizeReport::default()
        })
    }
}

impl Engine for RankEngine {
    fn name(&self) -> &'static str {
        "rank"
    }

    fn presentation(&self, _p: &Problem) -> Presentation {
        Presentation {
            size_by_size: true,
            ..Presentation::new(
                "the property checked for process 1 (fully symmetric families)",
                "lemmas+phases",
            )
        }
    }

    fn describe(&self, _p: &Problem) -> String {
        format!(
            "ranking proofs of response properties per size (phases of the property's process, weights of the others, over an IC3 invariant); certificates checked independently ({})",
            self.solver.name()
        )
    }

    fn answers(&self) -> crate::engine::Answers {
        crate::engine::Answers::LTL
    }

    fn check_ltl(&self, p: &Problem, ctl: &Control, k: usize) -> Result<LtlAnswer, String> {
        let r = self.rank(p, ctl, k, false)?;
        let name = &p.model.ltls[k].name;
        let mut reports: Vec<SizeReport> = p
            .sizes()
            .into_iter()
            .filter_map(|n| Self::report(p, k, &r, n))
            .collect();
        crate::live::fill_unknown(&mut reports, p.model, k);
        let notes = r
            .failed
            .iter()
            .map(|(n, e)| format!("rank: `{name}` size {n} not proved: {e}"))
            .collect();
        let certs: Vec<Arc<Certificate>> = r.proved.iter().map(|x| x.1.clone()).collect();
        Ok((
            reports,
            Outcome {
                certificate: certs.first().cloned(),
                certificates: certs,
                notes,
                // A size left unproved by the limit is left by the limit.
                limit: ctl.users_limit(),
                ..Outcome::default()
            },
        ))
    }
}
