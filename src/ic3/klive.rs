//! IC3 on `ltl` properties by k-liveness (K. Claessen, N. Sörensson, "A liveness
//! checking algorithm that counts", FMCAD 2012) on the counting product
//! (`live::Variant::Klive`): a run completes a *round* when it has left an
//! accepting automaton state and, under weak fairness, served every process since the
//! last round; a fair accepting lasso completes infinitely many, so "no run completes k
//! rounds" (a safety property) proves the `ltl` property. IC3 is asked for k = 1, 2, 4,
//! ... at the widths still open, each run seeded with the lemmas of the last one that
//! are still inductive (Houdini): most of what the proof for k learnt about the model
//! holds for 2k.
//!
//! A counterexample for k (k rounds completed) is no violation, unless two rounds of
//! its shortest run begin in the same state (`live::lasso_in_rounds`): the rounds
//! between them then repeat forever, a lasso, replayed before it is reported. The
//! widths proved at different k share one certificate, about the product with the
//! largest k: each width's lemmas at that width, and "fewer than k_w rounds"
//! (`not (NfRounds >= k_w)`), which makes the smaller product's invariant one of the
//! larger (below k_w rounds the two products step alike).

use super::engine::Ic3Engine;
use super::{Cex, houdini, prove};
use crate::cert::{CertLemma, Certificate};
use crate::engine::{Control, Problem};
use crate::lasso::Lasso;
use crate::live::{self, LOOP_PROP, Product, Variant};
use crate::model::ir::Model;
use crate::proof::finish;
use crate::proof::lemma::{self, Atom, Lemma, PVal, Rel};
use crate::trace::Trace;
use crate::transys::Transys;
use crate::transys::frame::Encoding;
use crate::verdict::{Limit, PropId, PropResult, SizeReport, Stats, Verdict};
use std::sync::Arc;
use std::time::Instant;

/// The largest k tried: beyond it the widths left go to liveness-to-safety.
pub const MAX_ROUNDS: usize = 256;

/// The widths a k-liveness run proved, with the lemmas of their invariant.
struct Proved {
    k: usize,
    widths: Vec<usize>,
    lemmas: Vec<Lemma>,
}

/// A certificate, with the widths its check accepted it at.
type Checked = (Arc<Certificate>, Vec<usize>);

/// What the k-liveness phase answered, and the widths it left open.
pub struct KliveAnswer {
    pub reports: Vec<SizeReport>,
    pub certificate: Option<Arc<Certificate>>,
    pub open: Vec<usize>,
    pub limit: Option<Limit>,
}

/// Maximal runs of consecutive widths.
pub fn runs(widths: &[usize]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for &w in widths {
        match out.last_mut() {
            Some(r) if r.1 + 1 == w => r.1 = w,
            _ => out.push((w, w)),
        }
    }
    out
}

/// The state of a k-liveness run between two values of k.
struct Count<'a> {
    engine: &'a Ic3Engine,
    p: &'a Problem<'a>,
    prop: usize,
    /// The caller's control, and the one with the phase's deadline.
    ctl: &'a Control,
    inner: Control,
    open: Vec<usize>,
    proved: Vec<Proved>,
    lassos: Vec<Lasso>,
    ranges: Vec<(PropId, Trace)>,
    errors: Vec<(usize, String)>,
    carried: Vec<Lemma>,
    limit: Option<Limit>,
    /// The certificate of every width proved so far, checked as soon as a round
    /// proves new widths: a limit that stops a later round leaves these answers.
    checked: Option<Checked>,
}

impl Count<'_> {
    /// IC3 on the counting product with bound k at the open widths; false when a limit
    /// stopped it (or it gave no invariant).
    fn round(&mut self, k: usize) -> Result<bool, String> {
        let prod = Product::build(self.p.model, self.prop, self.p.fair, Variant::Klive(k))?;
        let (lo, hi) = (self.open[0], self.open[self.open.len() - 1]);
        let built = Transys::within(
            &prod.model,
            lo,
            hi,
            Encoding::Binary,
            &self.inner.sat_stop(),
        );
        let Some(mut ts) = built else {
            self.limit = self.ctl.users_limit();
            return Ok(false);
        };
        let sym = self.engine.symmetry && prod.model.is_symmetric() && hi > 1;
        let seeds: Vec<Lemma> = self
            .carried
            .drain(..)
            .map(|mut l| {
                (l.lo, l.hi) = (l.lo.max(lo), l.hi.min(hi));
                l
            })
            .filter(|l| l.lo <= l.hi)
            .collect();
        let t0 = Instant::now();
        let stop = self.inner.sat_stop();
        let Some(seed) = houdini::houdini(&mut ts, seeds, sym, self.engine.solver, &stop)? else {
            self.limit = self.ctl.users_limit();
            return Ok(false);
        };
        let pp = Problem::new(&prod.model, lo, hi, vec![0]);
        let mut opts = self.engine.options(&pp, &self.inner);
        opts.exclude = self.excluded(lo, hi);
        opts.seed = seed;
        let out = prove(&mut ts, &opts)?;
        if self.ctl.progress {
            let what = match (&out.invariant, out.limit) {
                (_, Some(l)) => l.text().to_string(),
                (Some(_), _) => format!(
                    "{} widths with {k} rounds",
                    out.cexs
                        .iter()
                        .filter(|c| c.key == PropId::Unsafe(0))
                        .count()
                ),
                (None, None) => "no answer".to_string(),
            };
            crate::progress::line(format!(
                "k-liveness, k = {k}, {}: {what} (ic3 {:.2}s)",
                crate::cert::sizes_phrase(&self.open),
                t0.elapsed().as_secs_f64()
            ));
        }
        if out.limit.is_some() {
            self.limit = self.ctl.users_limit();
            return Ok(false);
        }
        let counted = self.settle(&pp, &prod, &out.cexs)?;
        let Some(inv) = out.invariant else {
            return Ok(false);
        };
        let widths: Vec<usize> = self
            .open
            .iter()
            .copied()
            .filter(|w| !counted.contains(w))
            .collect();
        let fresh = !widths.is_empty();
        if fresh {
            self.proved.push(Proved {
                k,
                widths,
                lemmas: inv,
            });
        }
        self.open = counted;
        self.open.sort_unstable();
        self.carried = out.lemmas.into_iter().map(|x| x.0).collect();
        if fresh {
            self.check()?;
            if self.inner.users_limit().is_some() {
                self.limit = self.ctl.users_limit();
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Builds and checks the certificate of every width proved so far. It replaces the
    /// last one unless a limit stopped its check short of the widths that one had
    /// (a failed check with no limit is kept, to be reported).
    fn check(&mut self) -> Result<(), String> {
        let (p, prop) = (self.p, self.prop);
        let next = self
            .engine
            .certificate(p, prop, &self.proved, &self.ranges, &self.inner)?;
        let Some(next) = next else { return Ok(()) };
        let kept = self
            .checked
            .as_ref()
            .map(|c| c.1.clone())
            .unwrap_or_default();
        let covers = kept.iter().all(|w| next.1.contains(w));
        if covers || self.inner.users_limit().is_none() {
            self.checked = Some(next);
        }
        Ok(())
    }

    /// What IC3 need not look for in lo..=hi: everything at the widths no longer open,
    /// the range errors already met at the open ones.
    fn excluded(&self, lo: usize, hi: usize) -> Vec<(PropId, usize)> {
        let mut exclude = Vec::new();
        for w in lo..=hi {
            if !self.open.contains(&w) {
                exclude.push((PropId::Unsafe(0), w));
                exclude.push((PropId::Range, w));
                exclude.push((PropId::IntBound, w));
            } else {
                for (key, t) in &self.ranges {
                    if t.size == w {
                        exclude.push((*key, w));
                    }
                }
            }
        }
        exclude
    }

    /// The counterexamples of one round: lassos and range errors recorded, and the
    /// widths with k rounds but no lasso in them (open for a larger k) returned.
    fn settle(&mut self, pp: &Problem, prod: &Product, cexs: &[Cex]) -> Result<Vec<usize>, String> {
        let (model, solver) = (self.p.model, self.engine.solver);
        let mut counted: Vec<usize> = Vec::new();
        for c in cexs {
            // Past the limit no BMC instance is built: the width stays open.
            if self.inner.users_limit().is_some() {
                continue;
            }
            let trace = match finish::shortest(pp, c.key, c.width, c.depth, solver, &self.inner) {
                Ok(t) => t,
                // A limit stopped the search for the run: the width stays open (its
                // answer is then `unknown` with that limit), no internal error.
                Err(_) if self.inner.users_limit().is_some() => continue,
                Err(e) => {
                    self.errors.push((c.width, e));
                    self.open.retain(|&w| w != c.width);
                    continue;
                }
            };
            match c.key {
                PropId::Unsafe(_) => match live::lasso_in_rounds(model, prod, &trace) {
                    Ok(Some(l)) => {
                        self.open.retain(|&w| w != c.width);
                        let l = self.shortest_lasso(l, trace.steps.len())?;
                        self.lassos.push(l);
                    }
                    Ok(None) => counted.push(c.width),
                    Err(e) => {
                        self.open.retain(|&w| w != c.width);
                        self.errors.push((c.width, e));
                    }
                },
                key => match live::decode_trace(model, prod, &trace) {
                    Ok(t) => self.ranges.push((key, t)),
                    Err(e) => self.errors.push((c.width, e)),
                },
            }
        }
        Ok(counted)
    }

    /// A shortest lasso of the width of `l` (one whose automaton run closes on the
    /// cycle, as the liveness-to-safety route reports them): BMC on the
    /// liveness-to-safety product up to one step more than the counting run `l` was
    /// found in (`run` steps: its model steps and stutters up to the second round
    /// start, and the save step, close the loop there); replayed with fairness checked
    /// by the decoding. `l` is kept if a limit stops that search.
    fn shortest_lasso(&self, l: Lasso, run: usize) -> Result<Lasso, String> {
        if self.inner.users_limit().is_some() {
            return Ok(l);
        }
        let prod = Product::new(self.p.model, self.prop, self.p.fair)?;
        let pp = Problem::new(&prod.model, l.size, l.size, vec![LOOP_PROP]);
        let depth = run + 1;
        let key = PropId::Unsafe(LOOP_PROP);
        match finish::shortest(&pp, key, l.size, depth, self.engine.solver, &self.inner) {
            Ok(t) => live::decode_lasso(self.p.model, &prod, &t),
            Err(_) if self.inner.users_limit().is_some() => Ok(l),
            Err(e) => Err(format!("no shorter lasso of size {}: {e}", l.size)),
        }
    }
}

impl Count<'_> {
    /// The report of width `n`: its lasso, or its proof if the certificate was accepted
    /// there, range errors met, internal errors.
    fn report(&self, n: usize, certificate: Option<&Checked>, seconds: f64) -> SizeReport {
        let (model, prop) = (self.p.model, self.prop);
        let proved = self.proved.iter().any(|g| g.widths.contains(&n));
        let mut results = Vec::new();
        let verdict = if let Some(l) = self.lassos.iter().find(|l| l.size == n) {
            Some(Verdict::violated_by_lasso(l.clone()))
        } else if proved {
            Some(Verdict::proved_if_checked("ic3", certificate, n))
        } else {
            None
        };
        if let Some(v) = verdict {
            results.push(PropResult::new(model, n, PropId::Ltl(prop), v));
        }
        for (key, t) in self.ranges.iter().filter(|x| x.1.size == n) {
            results.push(PropResult::new(
                model,
                n,
                *key,
                Verdict::violated(t.clone()),
            ));
        }
        let mut internal: Vec<String> = self
            .errors
            .iter()
            .filter(|e| e.0 == n)
            .map(|e| format!("`{}` (k-liveness): {}", model.ltls[prop].name, e.1))
            .collect();
        if let Some((_, checked)) = certificate
            && proved
            && !checked.contains(&n)
            // A check stopped by the user's limit is `unknown`, not a failure.
            && self.inner.users_limit().is_none()
        {
            internal.push("the k-liveness certificate failed its check".into());
        }
        SizeReport {
            size: n,
            engine: "ic3",
            symmetry: self.engine.symmetry && model.is_symmetric() && self.p.max > 1,
            results,
            seconds,
            shared_time: self.p.max > self.p.min,
            limit: self.limit.or_else(|| self.inner.users_limit()),
            internal_errors: internal,
            stats: Stats {
                lemmas: certificate.map(|c| c.0.lemmas.len()),
                ..Stats::default()
            },
            ..SizeReport::default()
        }
    }
}

impl Ic3Engine {
    /// k-liveness for `ltl` property `prop` at the problem's sizes, k doubling up to
    /// `max_rounds` while no limit (`ctl`, or the phase's own `until`) stops it: the
    /// widths proved (one checked certificate) or refuted by a lasso, range errors met,
    /// and the widths left open (`limit`: the user's limit, if one stopped it).
    pub fn klive(
        &self,
        p: &Problem,
        ctl: &Control,
        prop: usize,
        max_rounds: usize,
        until: Option<Instant>,
    ) -> Result<KliveAnswer, String> {
        let start = Instant::now();
        let deadline = match (ctl.deadline, until) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let mut c = Count {
            engine: self,
            p,
            prop,
            ctl,
            inner: Control {
                deadline,
                ..ctl.clone()
            },
            open: p.sizes(),
            proved: Vec::new(),
            lassos: Vec::new(),
            ranges: Vec::new(),
            errors: Vec::new(),
            carried: Vec::new(),
            limit: None,
            checked: None,
        };
        let mut k = 1;
        while !c.open.is_empty() && k <= max_rounds && c.round(k)? {
            k *= 2;
        }
        let certificate = c.checked.take();
        let seconds = start.elapsed().as_secs_f64();
        let reports = p
            .sizes()
            .into_iter()
            .map(|n| c.report(n, certificate.as_ref(), seconds))
            .collect();
        let lassos = &c.lassos;
        let open = c
            .open
            .iter()
            .copied()
            .filter(|w| !lassos.iter().any(|l| l.size == *w))
            .collect();
        Ok(KliveAnswer {
            reports,
            // Only a certificate accepted at every width it claims leaves the engine
            // (a limit may stop its check part way).
            certificate: certificate.and_then(|(c, accepted)| {
                c.proves
                    .iter()
                    .all(|(_, ws)| ws.iter().all(|w| accepted.contains(w)))
                    .then_some(c)
            }),
            open,
            limit: c.limit,
        })
    }

    /// One certificate for every width proved, about the product with the largest k
    /// (module comment), checked at those widths; with the widths it was accepted at.
    fn certificate(
        &self,
        p: &Problem,
        prop: usize,
        proved: &[Proved],
        ranges: &[(PropId, Trace)],
        ctl: &Control,
    ) -> Result<Option<Checked>, String> {
        let Some(top) = proved.iter().map(|g| g.k).max() else {
            return Ok(None);
        };
        // Past the limit it could not be checked at any width: not built (building the
        // product's transition system alone takes a while on wide aggregates).
        if ctl.sat_stop().now() {
            return Ok(None);
        }
        let prod = Product::build(p.model, prop, p.fair, Variant::Klive(top))?;
        let mut widths: Vec<usize> = proved.iter().flat_map(|g| g.widths.clone()).collect();
        widths.sort_unstable();
        let (lo, hi) = (widths[0], widths[widths.len() - 1]);
        let Some(ts) = Transys::within(&prod.model, lo, hi, Encoding::Binary, &ctl.sat_stop())
        else {
            return Ok(None);
        };
        let rounds = prod.model.vars.len() - 1;
        let lemmas = product_lemmas(proved, &ts, rounds, (lo, hi));
        let pp = Problem {
            min: lo,
            max: hi,
            ..Problem::new(&prod.model, lo, hi, vec![0])
        };
        let claims = claims(&prod.model, &widths, ranges);
        let t0 = Instant::now();
        let (cert, checks) = finish::certify_at(
            &pp,
            "ic3 (k-liveness)",
            lemmas,
            claims,
            &widths,
            self.solver,
            ctl,
        )?;
        if ctl.progress {
            crate::progress::line(format!(
                "k-liveness certificate of {} lemmas (k = {top}) checked at {} in {:.2}s",
                cert.lemmas.len(),
                crate::cert::sizes_phrase(&widths),
                t0.elapsed().as_secs_f64()
            ));
        }
        let accepted: Vec<usize> = checks
            .iter()
            .filter(|c| c.accepted())
            .map(|c| c.size)
            .collect();
        let marked = Arc::new(Certificate {
            liveness: Some((p.model.ltls[prop].name.clone(), p.fair)),
            klive: Some(top),
            ..(*cert).clone()
        });
        Ok(Some((marked, accepted)))
    }
}

/// The certificate's lemmas over the product (`rounds` its round counter, `sizes` its
/// aggregate): every proved group's lemmas, with k rounds not yet reached, at each run
/// of its widths.
fn product_lemmas(
    proved: &[Proved],
    ts: &Transys,
    rounds: usize,
    sizes: (usize, usize),
) -> Vec<CertLemma> {
    let mut lemmas: Vec<CertLemma> = Vec::new();
    for g in proved {
        for (a, b) in runs(&g.widths) {
            let bound = Lemma {
                lo: a,
                hi: b,
                procs: 0,
                atoms: vec![Atom {
                    var: rounds,
                    index: Vec::new(),
                    value: PVal::Const(lemma::encode(Rel::Ge, g.k as i64)),
                }],
                ordered: false,
            };
            for l in g.lemmas.iter().chain(std::iter::once(&bound)) {
                let mut l = l.clone();
                (l.lo, l.hi) = (l.lo.max(a), l.hi.min(b));
                if l.lo <= l.hi {
                    lemmas.push(l.to_cert(ts, sizes));
                }
            }
        }
    }
    CertLemma::dedup(&mut lemmas);
    lemmas
}

/// What the certificate claims of the product: its property at every width proved, and
/// no range error (nor store leaving the int window) where none was found.
fn claims(prod: &Model, widths: &[usize], ranges: &[(PropId, Trace)]) -> Vec<(String, Vec<usize>)> {
    let name = PropId::Unsafe(0).name(prod);
    let without = |key: PropId| -> Vec<usize> {
        widths
            .iter()
            .copied()
            .filter(|w| !ranges.iter().any(|(k, t)| *k == key && t.size == *w))
            .collect()
    };
    let mut claims = vec![
        (name, widths.to_vec()),
        (PropId::Range.name(prod), without(PropId::Range)),
    ];
    if prod.int_window.is_some() {
        claims.push((PropId::IntBound.name(prod), without(PropId::IntBound)));
    }
    claims
}

#[cfg(test)]
mod tests {
    use super::runs;

    #[test]
    fn runs_of_widths() {
        assert_eq!(runs(&[1, 2, 3, 5, 7, 8]), vec![(1, 3), (5, 5), (7, 8)]);
        assert_eq!(runs(&[]), vec![]);
    }
}
