//! `auto` for `ltl` properties (the default of `nfold live`), in the phases of the
//! safety `auto` (`portfolio::auto`) and under its explicit-search policy
//! (`portfolio::growth`):
//! 1. the explicit search (nested depth-first search, or the fair SCC search under
//!    `--fair`: `explicit::ndfs`), size by size from the smallest, while a size is
//!    answered within its time budget and the next one is not predicted to exceed it,
//!    `--max-states` or the memory budget (small instances are answered in
//!    milliseconds this way);
//! 2. for the sizes left, when every property is a response property `G (A => F B)`,
//!    ranking proofs (`rank`), tried at the smallest of them first: the run ends here
//!    when they prove every (property, size), each certificate checked; otherwise, per
//!    property, a bounded lasso search on their aggregate (BMC
//!    on the liveness-to-safety product, `live::Product`; A. Biere, C. Artho,
//!    V. Schuppan, FMICS 2002): the shallow violations at every size at once, each lasso
//!    replayed with fairness checked;
//! 3. the BDD fixpoint (`bdd`, Emerson and Lei's on the k-liveness product) on the
//!    aggregate of the sizes still open, within a short budget and a memory budget:
//!    when the relations are small it answers every width at once (the sorting
//!    networks); then IC3 on the sizes still open (k-liveness, K. Claessen and
//!    N. Sörensson, FMCAD 2012, then liveness-to-safety: `ic3::klive`), each proof's
//!    certificate checked independently before `holds (proved)`;
//! 4. the explicit search again, without a time budget, for the (property, size) IC3
//!    left open when its budget ran out: the user's limits still apply, and a size
//!    predicted to exceed the state or memory budget is not started.
//!
//! A (property, size) no phase answered is reported, never dropped: with the bounded
//! search's "none up to K" where it ran, `unknown` otherwise, and the limit or the
//! predicted cost that left it open.

use super::auto::{AutoEngine, Phase};
use super::beside::Beside;
use super::growth::Growth;
use super::ltl_open::{Open, close_notes, stopped_at, unknown_rows};
use crate::bdd::BddEngine;
use crate::bmc::engine::BmcEngine;
use crate::cert::Certificate;
use crate::cert::sizes_phrase;
use crate::engine::{Control, Engine, Outcome, Problem};
use crate::explicit::engine::{ExplicitEngine, liveness_size, prepare};
use crate::ic3::engine::Ic3Engine;
use crate::ic3::klive::runs;
use crate::ltl::LtlProperty;
use crate::rank::engine::RankEngine;
use crate::verdict::{Kind, Limit, PropId, SizeReport, Verdict};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

/// The memory the BDD phase may take above what the process holds when it starts.
const BDD_MEMORY: usize = 2 << 30;

/// The sizes one phase of the SAT route proved and refuted.
#[derive(Default)]
struct Tally {
    proved: Vec<usize>,
    lassos: Vec<usize>,
}

impl Tally {
    /// " (proved at 2, 4, lassos at 1, 3)", or " (no answer)".
    fn text(&self) -> String {
        let part = |what: &str, v: &[usize]| {
            (!v.is_empty()).then(|| format!("{what} at {}", crate::cert::sizes_text(v)))
        };
        let parts: Vec<String> = [part("proved", &self.proved), part("lassos", &self.lassos)]
            .into_iter()
            .flatten()
            .collect();
        if parts.is_empty() {
            " (no answer)".into()
        } else {
            format!(" ({})", parts.join(", "))
        }
    }
}

/// The sizes the SAT route (phases 2 and 3) took, with what it found.
#[derive(Default)]
struct Route {
    /// Per size, the reports of the rows it answered (each report names its engine).
    answered: BTreeMap<usize, Vec<SizeReport>>,
    /// Per size, the `ltl` properties (indices into `model.ltls`) it left open, each
    /// with the depth up to which the bounded search found no lasso.
    open: BTreeMap<usize, Open>,
    /// Lassos found by the bounded search.
    lassos: Vec<usize>,
    /// What the BDD fixpoint and IC3 answered.
    bdd: Tally,
    ic3: Tally,
    /// The deepest bound the bounded search reached.
    depth: Option<usize>,
    /// The checked certificates of IC3's proofs.
    certificates: Vec<Arc<Certificate>>,
    /// The user's limit, if one stopped the route.
    limit: Option<Limit>,
}

/// Whether a verdict answers its (property, size).
fn answers(v: &Verdict) -> bool {
    matches!(v.kind(), Kind::Holds | Kind::Violated | Kind::Vacuous)
}

impl AutoEngine {
    /// The `ltl` properties of the problem (`range_known`: another search at these
    /// sizes answers range errors, so that their rows are left to it).
    pub(super) fn live(
        &self,
        p: &Problem,
        ctl: &Control,
        range_known: bool,
        report: &mut dyn FnMut(SizeReport),
    ) -> Result<Outcome, String> {
        let props = prepare(p.model, &p.ltls)?;
        let mut notes = Vec::new();
        let mut growth = Growth::default();
        // 1. Explicit, while it is cheap.
        let mut first_open = p.min;
        if self.budgets.live_explicit > 0.0 {
            let mut found = Vec::new();
            let phase = {
                let mut search = |n: usize, deadline: Option<Instant>| {
                    self.ndfs(p, ctl, n, deadline, &props, range_known, &mut found)
                };
                self.explicit(
                    &p.sizes(),
                    ctl,
                    Some(self.budgets.live_explicit),
                    &mut growth,
                    &mut search,
                    report,
                )
            };
            notes.append(&mut found);
            if let Some(l) = phase.users {
                // The size the limit stopped was reported as it stood; the larger ones
                // are open.
                let from = p.min + phase.done.len() + 1;
                return Ok(stopped_at(p, from, l, notes, report));
            }
            if let Some(&last) = phase.done.last() {
                first_open = last + 1;
                notes.push(format!(
                    "{} answered by exhaustive explicit search",
                    sizes_phrase(&phase.done)
                ));
            }
        }
        if first_open > p.max {
            return Ok(Outcome {
                notes,
                ..Outcome::default()
            });
        }
        let rest = Problem {
            min: first_open,
            ..p.clone()
        };
        // 2. Ranking proofs of the sizes left.
        if let Some(out) = self.ranked_rest(p, first_open, ctl, &mut notes, report)? {
            return Ok(out);
        }
        // The user's limit may have stopped them: the sizes left are open, and no
        // later phase starts (building its product would outlast the limit).
        if let Some(l) = ctl.users_limit() {
            return Ok(stopped_at(p, first_open, l, notes, report));
        }
        // On a second core the explicit search of the same sizes runs beside the SAT
        // route from its start; phase 4 takes its answers where they are ready.
        let g = growth.clone();
        std::thread::scope(|scope| {
            let beside = Beside::start(scope, ctl, &rest.sizes(), self.race, |sizes, bctl| {
                let ahead = self.ahead(&rest, bctl, sizes, &props, range_known, g);
                let all = ahead.done.len() == sizes.len();
                (ahead, all)
            });
            self.after_explicit(
                &rest,
                ctl,
                range_known,
                &props,
                notes,
                growth,
                beside,
                report,
            )
        })
    }

    /// Step 2: ranking proofs of the sizes from `first_open` on, when every property is
    /// a response property they rank at every one of them (`None` otherwise, nothing
    /// reported). They run from the smallest size, as IC3 generalises from there
    /// (Peterson under fairness: 1..10 ranked in 7 s, 6..10 alone not within 30 s); the
    /// sizes answered already are not reported twice.
    fn ranked_rest(
        &self,
        p: &Problem,
        first_open: usize,
        ctl: &Control,
        notes: &mut Vec<String>,
        report: &mut dyn FnMut(SizeReport),
    ) -> Result<Option<Outcome>, String> {
        if !crate::rank::engine::applies(p.model, &p.ltls) {
            return Ok(None);
        }
        let eng = RankEngine {
            solver: self.solver,
        };
        let rctl = ctl.within(self.budgets.rank);
        let mut late = |r: SizeReport| {
            if r.size >= first_open {
                report(r)
            }
        };
        let Some(mut out) = eng.prove_all(p, &rctl, &mut late)? else {
            return Ok(None);
        };
        let rest: Vec<usize> = (first_open..=p.max).collect();
        notes.push(format!(
            "{} answered by ranking proofs (rank), each certificate checked",
            sizes_phrase(&rest)
        ));
        out.notes = std::mem::take(notes);
        Ok(Some(out))
    }

    /// The explicit search of `sizes` without a time budget, for the sizes the SAT
    /// route will leave open: each size's report with its notes, in order.
    fn ahead(
        &self,
        rest: &Problem,
        ctl: &Control,
        sizes: &[usize],
        props: &[LtlProperty],
        range_known: bool,
        mut growth: Growth,
    ) -> Ahead {
        let mut out = Ahead::default();
        let mut notes = Vec::new();
        let phase = {
            let mut search = |n: usize, deadline: Option<Instant>| {
                let r = self.ndfs(rest, ctl, n, deadline, props, range_known, &mut notes);
                out.notes.insert(n, std::mem::take(&mut notes));
                r
            };
            let mut found = Vec::new();
            let phase = self.explicit(sizes, ctl, None, &mut growth, &mut search, &mut |r| {
                found.push(r)
            });
            out.reports = found;
            phase
        };
        out.done = phase.done;
        out
    }

    /// Phases 2 to 4 on the sizes of `rest`, the first left to the explicit search.
    #[allow(clippy::too_many_arguments)]
    fn after_explicit(
        &self,
        rest: &Problem,
        ctl: &Control,
        range_known: bool,
        props: &[LtlProperty],
        mut notes: Vec<String>,
        mut growth: Growth,
        beside: Option<Beside<'_, Ahead>>,
        report: &mut dyn FnMut(SizeReport),
    ) -> Result<Outcome, String> {
        let p = rest;
        // The SAT route does not read the extra process id: explicit search goes on.
        let mut route = if p.model.extra_proc.is_some() {
            notes.push(
                "the SAT route does not read the extra process id: the sizes left go to the explicit search".into(),
            );
            let mut r = Route::default();
            for n in rest.sizes() {
                r.open
                    .insert(n, p.ltls.iter().map(|&k| (k, None)).collect());
            }
            r
        } else {
            // First answer wins: the search beside the route stops it once it has
            // answered every size (`portfolio::beside`).
            let actl = beside
                .as_ref()
                .map_or_else(|| ctl.clone(), |b| b.racing(ctl));
            let began = Instant::now();
            let mut route = self.sat_route(rest, &actl, range_known, &mut notes)?;
            let raced = route.limit.is_some()
                && ctl.users_limit().is_none()
                && beside.as_ref().is_some_and(|b| b.complete());
            route.limit = route.limit.and(ctl.users_limit());
            if raced {
                notes.push(format!(
                    "the SAT route stopped after {:.1}s, when the explicit search beside it had answered every size",
                    began.elapsed().as_secs_f64()
                ));
            }
            route
        };
        let mut ahead = beside
            .map(|b| b.finish(ctl, route.open.is_empty()))
            .unwrap_or_default();
        // 4. Explicit again for what is left, every size reported in order.
        let left = self.close(
            rest,
            ctl,
            range_known,
            props,
            &mut route,
            &mut growth,
            &mut notes,
            &mut ahead,
            report,
        );
        Ok(Outcome {
            limit: route.limit.or(left),
            certificates: std::mem::take(&mut route.certificates),
            aggregate: rest.max > rest.min,
            notes,
            ..Outcome::default()
        })
    }

    /// Phases 2 and 3 on the sizes of `rest`, property by property.
    fn sat_route(
        &self,
        rest: &Problem,
        ctl: &Control,
        range_known: bool,
        notes: &mut Vec<String>,
    ) -> Result<Route, String> {
        let mut route = Route::default();
        for &k in &rest.ltls {
            let one = Problem {
                props: Vec::new(),
                ltls: vec![k],
                ..rest.clone()
            };
            let mut open: Open = Vec::new();
            if route.limit.is_none() {
                self.lassos(&one, ctl, range_known, &mut route, &mut open)?;
                route.limit = ctl.users_limit();
            } else {
                open = one.sizes().into_iter().map(|n| (n, None)).collect();
            }
            let to_bdd: Vec<usize> = open.iter().map(|x| x.0).collect();
            let bdd_runs = route.limit.is_none() && !open.is_empty() && self.bdd_reads(&one);
            if bdd_runs {
                self.bdds(&one, ctl, range_known, &mut route, &mut open)?;
                route.limit = ctl.users_limit();
            }
            let before: Vec<usize> = open.iter().map(|x| x.0).collect();
            if route.limit.is_none() && !open.is_empty() {
                self.proofs(&one, ctl, range_known, &mut route, &mut open)?;
                route.limit = ctl.users_limit();
            }
            let name = &rest.model.ltls[k].name;
            let after: Vec<usize> = open.iter().map(|x| x.0).collect();
            notes.push(format!(
                "`{name}`: {} went to the SAT route on their aggregate: bounded lasso search to depth {}{}{}{}",
                sizes_phrase(&one.sizes()),
                route.depth.map_or("0".into(), |d| d.to_string()),
                if route.lassos.is_empty() {
                    String::new()
                } else {
                    format!(" (lassos at {})", crate::cert::sizes_text(&route.lassos))
                },
                if bdd_runs {
                    format!(
                        ", then the BDD fixpoint on {} (at most {:.0}s){}",
                        sizes_phrase(&to_bdd),
                        self.budgets.live_bdd,
                        route.bdd.text()
                    )
                } else {
                    String::new()
                },
                if before.is_empty() {
                    String::new()
                } else {
                    format!(
                        ", then IC3 (k-liveness, then liveness-to-safety) on {}{}",
                        sizes_phrase(&before),
                        route.ic3.text()
                    )
                }
            ));
            if !after.is_empty() && route.limit.is_none() {
                notes.push(format!(
                    "`{name}`: IC3 did not finish within {:.0}s at {}",
                    self.budgets.live_ic3,
                    sizes_phrase(&after)
                ));
            }
            for (n, d) in open {
                route.open.entry(n).or_default().push((k, d));
            }
            route.lassos.clear();
            route.bdd = Tally::default();
            route.ic3 = Tally::default();
        }
        Ok(route)
    }

    /// Phase 2: the bounded lasso search on the aggregate of `one`'s sizes (one `ltl`
    /// property); `open` gets the sizes without a lasso, with the depth searched.
    fn lassos(
        &self,
        one: &Problem,
        ctl: &Control,
        range_known: bool,
        route: &mut Route,
        open: &mut Open,
    ) -> Result<(), String> {
        let bmc = BmcEngine {
            opts: self.bmc_options(),
            one_by_one: false,
        };
        if ctl.progress {
            crate::progress::line(format!(
                "auto: bounded lasso search on {} (depth {}, at most {:.1}s)",
                sizes_phrase(&one.sizes()),
                self.budgets.bmc_depth,
                self.budgets.lasso
            ));
        }
        let mut reports = Vec::new();
        bmc.check(one, &ctl.within(self.budgets.lasso), &mut |r| {
            reports.push(r)
        })?;
        let k = one.ltls[0];
        for r in reports {
            let row = r.results.iter().find(|x| x.prop == PropId::Ltl(k));
            let depth = match row.map(|x| x.verdict.kind()) {
                Some(Kind::NoViolationUpTo(d)) => Some(d),
                _ => None,
            };
            route.depth = route.depth.max(depth);
            let n = r.size;
            if row.is_some_and(|x| answers(&x.verdict)) {
                route.lassos.push(n);
            } else {
                open.push((n, depth));
            }
            keep(route, r, k, range_known);
        }
        Ok(())
    }

    /// Whether the BDD phase runs on `one`: it has a budget, and the BDD engine reads
    /// the model (no `int`, no extra process id).
    fn bdd_reads(&self, one: &Problem) -> bool {
        self.budgets.live_bdd > 0.0
            && one.model.int_window.is_none()
            && one.model.extra_proc.is_none()
    }

    /// Phase 3a: the BDD fixpoint (`--engine bdd`) on the sizes of `open`, within its
    /// budget and a memory budget of its own (`BDD_MEMORY` above what the process holds,
    /// or the user's, if less): it decides every width of an aggregate at once when the
    /// model's relations are small (the sorting networks), and gives up soon when not.
    fn bdds(
        &self,
        one: &Problem,
        ctl: &Control,
        range_known: bool,
        route: &mut Route,
        open: &mut Open,
    ) -> Result<(), String> {
        let bdd = BddEngine {
            solver: self.solver,
            nodes: crate::bdd::NODES,
        };
        let mut inner = ctl.within(self.budgets.live_bdd);
        let own = crate::limits::current_memory().map(|m| m + BDD_MEMORY);
        inner.max_memory = match (ctl.max_memory, own) {
            (Some(u), Some(o)) => Some(u.min(o)),
            (u, o) => u.or(o),
        };
        let mut tally = std::mem::take(&mut route.bdd);
        self.settle(
            &bdd,
            "the BDD fixpoint",
            one,
            &inner,
            range_known,
            route,
            open,
            &mut tally,
        )?;
        route.bdd = tally;
        Ok(())
    }

    /// Phase 3b: IC3 on the sizes of `open` (k-liveness, then liveness-to-safety).
    fn proofs(
        &self,
        one: &Problem,
        ctl: &Control,
        range_known: bool,
        route: &mut Route,
        open: &mut Open,
    ) -> Result<(), String> {
        let ic3 = Ic3Engine::new(self.solver, self.symmetry);
        // Its budget is CPU time, as the safety route's IC3 (`Control::within_cpu`).
        let inner = ctl.within_cpu(self.budgets.live_ic3);
        let mut tally = std::mem::take(&mut route.ic3);
        let what = "IC3 (k-liveness, then liveness-to-safety)";
        self.settle(
            &ic3,
            what,
            one,
            &inner,
            range_known,
            route,
            open,
            &mut tally,
        )?;
        route.ic3 = tally;
        Ok(())
    }

    /// `engine` (named `what`) on the sizes of `open` (for `one`'s `ltl` property),
    /// each run of consecutive sizes one aggregate, within `inner`; `open` keeps the
    /// sizes it did not answer, `tally` gets those it proved and refuted.
    #[allow(clippy::too_many_arguments)]
    fn settle(
        &self,
        engine: &dyn Engine,
        what: &str,
        one: &Problem,
        inner: &Control,
        range_known: bool,
        route: &mut Route,
        open: &mut Open,
        tally: &mut Tally,
    ) -> Result<(), String> {
        let sizes: Vec<usize> = open.iter().map(|x| x.0).collect();
        if inner.progress {
            let secs = inner.deadline.map_or(0.0, |d| {
                d.saturating_duration_since(Instant::now()).as_secs_f64()
            });
            crate::progress::line(format!(
                "auto: {what} on {} (at most {secs:.0}s)",
                sizes_phrase(&sizes),
            ));
        }
        let k = one.ltls[0];
        for (a, b) in runs(&sizes) {
            if inner.sat_stop().now() {
                break;
            }
            let part = Problem {
                min: a,
                max: b,
                ..one.clone()
            };
            let mut reports = Vec::new();
            let o = engine.check(&part, inner, &mut |r| reports.push(r))?;
            route.certificates.extend(o.certificates);
            for r in reports {
                let n = r.size;
                let row = r.results.iter().find(|x| x.prop == PropId::Ltl(k));
                match row.map(|x| x.verdict.kind()) {
                    Some(Kind::Holds) => tally.proved.push(n),
                    Some(Kind::Violated) => tally.lassos.push(n),
                    _ => {}
                }
                if row.is_some_and(|x| answers(&x.verdict)) {
                    open.retain(|x| x.0 != n);
                }
                keep(route, r, k, range_known);
            }
        }
        Ok(())
    }

    /// Phase 4 and the report of every size of `rest` in order: the rows the SAT route
    /// answered, the explicit search (without a time budget) for the properties it left
    /// open, and `unknown` rows for what no phase answered. Returns the user's limit if
    /// one stopped the explicit search.
    #[allow(clippy::too_many_arguments)]
    fn close(
        &self,
        rest: &Problem,
        ctl: &Control,
        range_known: bool,
        props: &[LtlProperty],
        route: &mut Route,
        growth: &mut Growth,
        notes: &mut Vec<String>,
        ahead: &mut Ahead,
        report: &mut dyn FnMut(SizeReport),
    ) -> Option<Limit> {
        // Why the sizes from some size on are left open: a limit, or a predicted cost.
        let mut stopped: Option<(usize, Option<Limit>, String)> = route
            .limit
            .map(|l| (rest.min, Some(l), l.text().to_string()));
        let mut searched = Vec::new();
        let mut beside = false;
        let mut left: Vec<(usize, String, Open)> = Vec::new();
        for n in rest.sizes() {
            for r in route.answered.remove(&n).unwrap_or_default() {
                report(r);
            }
            let Some(open) = route.open.remove(&n) else {
                continue;
            };
            if stopped.is_none() {
                let which: Vec<LtlProperty> = props
                    .iter()
                    .filter(|q| open.iter().any(|x| x.0 == q.prop))
                    .cloned()
                    .collect();
                if let Some(r) = ahead.take(n, &which) {
                    notes.extend(ahead.notes.remove(&n).unwrap_or_default());
                    report(r);
                    searched.push(n);
                    beside = true;
                    continue;
                }
                let mut found = Vec::new();
                let phase: Phase = {
                    let mut search = |n: usize, deadline: Option<Instant>| {
                        self.ndfs(rest, ctl, n, deadline, &which, range_known, &mut found)
                    };
                    self.explicit(&[n], ctl, None, growth, &mut search, report)
                };
                notes.append(&mut found);
                if phase.done.contains(&n) {
                    searched.push(n);
                    continue;
                }
                if let Some(l) = phase.users {
                    // The size was reported as the search left it.
                    stopped = Some((n + 1, Some(l), l.text().to_string()));
                    left.push((n, l.text().to_string(), open));
                    continue;
                }
                if let Some((_, why)) = phase.refused {
                    stopped = Some((
                        n,
                        None,
                        format!("explicit search not started: {}", why.text()),
                    ));
                }
            }
            let Some((_, limit, why)) = &stopped else {
                continue;
            };
            report(unknown_rows(rest, n, &open, *limit));
            left.push((n, why.clone(), open));
        }
        notes.extend(close_notes(rest.model, &searched, beside, &left));
        stopped.and_then(|s| s.1).filter(|_| route.limit.is_none())
    }

    /// One size's `ltl` search by the explicit engine, for `explicit`: the properties
    /// `props`, under `deadline`; its notes added to `notes`.
    #[allow(clippy::too_many_arguments)]
    fn ndfs(
        &self,
        p: &Problem,
        ctl: &Control,
        n: usize,
        deadline: Option<Instant>,
        props: &[LtlProperty],
        range_known: bool,
        notes: &mut Vec<String>,
    ) -> SizeReport {
        let engine = ExplicitEngine {
            symmetry: self.symmetry,
            dead_cells: self.dead_cells,
            shorten: self.shorten,
            max_states: self.max_states,
            ..ExplicitEngine::default()
        };
        let mut opts = engine.live_options(p, ctl);
        opts.deadline = deadline;
        liveness_size(p.model, n, props, &opts, range_known, notes)
    }
}

/// What the explicit search run beside the SAT route answered (`AutoEngine::ahead`).
#[derive(Default)]
struct Ahead {
    /// The sizes it answered, in order.
    done: Vec<usize>,
    /// Its reports, the answered sizes' and the one it stopped at.
    reports: Vec<SizeReport>,
    /// Its notes, per size.
    notes: BTreeMap<usize, Vec<String>>,
}

impl Ahead {
    /// The report of size `n` if the search answered it, with the rows of the `ltl`
    /// properties `which` (those the SAT route left open) and the others kept.
    fn take(&mut self, n: usize, which: &[LtlProperty]) -> Option<SizeReport> {
        if !self.done.contains(&n) {
            return None;
        }
        let i = self.reports.iter().position(|r| r.size == n)?;
        let mut r = self.reports.swap_remove(i);
        r.results.retain(|x| match x.prop {
            PropId::Ltl(k) => which.iter().any(|q| q.prop == k),
            _ => true,
        });
        Some(r)
    }
}

/// The rows of a SAT-route report that answer something (its `ltl` property `k`
/// answered; a range error met, unless `range_known`), kept for the size's report; its
/// own budget's limit dropped (the user's is the route's).
fn keep(route: &mut Route, mut r: SizeReport, k: usize, range_known: bool) {
    r.results.retain(|x| match x.prop {
        PropId::Ltl(j) => j == k && answers(&x.verdict),
        PropId::Range | PropId::IntBound => !range_known && x.verdict.trace().is_some(),
        _ => false,
    });
    r.limit = None;
    if !r.results.is_empty() || !r.internal_errors.is_empty() {
        route.answered.entry(r.size).or_default().push(r);
    }
}
