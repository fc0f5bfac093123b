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

use super::auto::AutoEngine;
use super::ledger::{Book, answers};
use super::route::{self, Phase, Step};
use super::walk::{Track, Walk};
use crate::bdd::BddEngine;
use crate::bmc::driver::BmcOptions;
use crate::bmc::engine::BmcEngine;
use crate::cert::sizes_phrase;
use crate::engine::{Checked, Report};
use crate::engine::{Control, Engine, Problem};
use crate::explicit::engine::{ExplicitEngine, liveness_size, prepare};
use crate::ic3::engine::Ic3Engine;
use crate::ic3::klive::runs;
use crate::ltl::LtlProperty;
use crate::rank::engine::RankEngine;
use crate::verdict::{Kind, PropId, SizeReport};
use std::time::Instant;

/// The memory the BDD phase may take above what the process holds when it starts.
const BDD_MEMORY: usize = 2 << 30;

/// The sizes one phase of the SAT route ran on, proved and refuted.
#[derive(Default)]
pub(super) struct Tally {
    pub sizes: Vec<usize>,
    pub proved: Vec<usize>,
    pub lassos: Vec<usize>,
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

/// What the SAT route did for one property, for its note.
#[derive(Default)]
struct Trail {
    /// The first bounded lasso search ran, and the deepest bound it reached.
    searched: bool,
    depth: Option<usize>,
    lassos: Tally,
    bdd: Option<Tally>,
    /// The sizes the BDD fixpoint was not given: a range error was met there.
    bdd_ranged: Vec<usize>,
    ic3: Option<Tally>,
    /// The second, deeper bounded lasso search after IC3: its depth reached and what
    /// it found (`None`: it did not run).
    deeper: Option<(Option<usize>, Tally)>,
    /// That search where it ran beside IC3 (`Phase::ranged_beside`): its depth reached
    /// and what it found.
    beside: Option<(Option<usize>, Tally)>,
}

impl AutoEngine {
    /// The `ltl` properties of the problem (`range_known`: another search at these
    /// sizes answers range errors, so that their rows are left to it).
    pub(super) fn live(
        &self,
        p: &Problem,
        ctl: &Control,
        range_known: bool,
        report: Report,
    ) -> Checked {
        let w = Walk {
            track: Track::Ltl,
            p,
            live: prepare(p.model, &p.ltls)?,
            range_known,
        };
        let search = crate::explicit::engine::live_text(p, 1);
        let ranks = crate::rank::engine::applies(p.model, &p.ltls);
        self.walk(&w, &route::ltl(&self.budgets, &search, ranks), ctl, report)
    }

    /// Ranking proofs of every (property, size) open, or nothing: when every property
    /// is a response property they rank at every size. They run from the smallest size,
    /// as IC3 generalises from there (Peterson under fairness: 1..10 ranked in 7 s,
    /// 6..10 alone not within 30 s); the sizes answered already keep their answers.
    pub(super) fn ranked(&self, w: &Walk, actl: &Control, l: &mut Book) -> Result<(), String> {
        let eng = RankEngine {
            solver: self.solver,
        };
        let rctl = actl.within_cpu(self.budgets.rank);
        let mut reports = Vec::new();
        let open = l.open_sizes();
        if eng
            .prove_all(w.p, &rctl, &mut |r| reports.push(r))?
            .is_none()
        {
            return Ok(());
        }
        for r in reports {
            l.answer(r);
        }
        if l.done() {
            l.notes.push(format!(
                "{} answered by ranking proofs (rank), each certificate checked",
                sizes_phrase(&open)
            ));
        }
        Ok(())
    }

    /// The phases that go property by property (`block`: the bounded lasso search,
    /// the BDD fixpoint, IC3), for one property after another, each on the sizes where
    /// its property is still open.
    pub(super) fn by_property(
        &self,
        w: &Walk,
        block: &[&Phase],
        actl: &Control,
        l: &mut Book,
    ) -> Result<(), String> {
        // The SAT route does not read the extra process id: explicit search goes on.
        if w.p.model.extra_proc.is_some() {
            l.notes.push(
                "the SAT route does not read the extra process id: the sizes left go to the explicit search".into(),
            );
            return Ok(());
        }
        for &k in &w.p.ltls {
            let sizes = l.open_sizes_of(PropId::Ltl(k));
            if sizes.is_empty() {
                continue;
            }
            let mut trail = Trail::default();
            for (j, ph) in block.iter().enumerate() {
                if actl.users_limit().is_some() {
                    break;
                }
                let open = l.open_sizes_of(PropId::Ltl(k));
                if open.is_empty() {
                    break;
                }
                let one = Problem {
                    props: Vec::new(),
                    ltls: vec![k],
                    ..l.open_range(w.p)
                };
                match ph.step {
                    // The first bounded lasso search, before the proofs, or the deeper
                    // one after them, on the sizes where it has time.
                    Step::Lassos if trail.searched => {
                        // Not the sizes it searched beside IC3 (`Phase::ranged_beside`).
                        let at: Vec<usize> = open
                            .iter()
                            .copied()
                            .filter(|&n| ph.budget_at(l.ranged(n)) != Some(0.0))
                            .filter(|n| {
                                trail.beside.as_ref().is_none_or(|b| !b.1.sizes.contains(n))
                            })
                            .collect();
                        if at.is_empty() {
                            continue;
                        }
                        let mut t = Tally {
                            sizes: at.clone(),
                            ..Tally::default()
                        };
                        let d = self.lassos(w, &one, &at, ph, actl, l, &mut t)?;
                        trail.deeper = Some((d, t));
                    }
                    Step::Lassos => {
                        trail.searched = true;
                        let t = &mut trail.lassos;
                        trail.depth = self.lassos(w, &one, &open, ph, actl, l, t)?;
                    }
                    Step::Bdd if self.bdd_reads(&one) => {
                        let (go, ranged): (Vec<usize>, Vec<usize>) = open
                            .iter()
                            .partition(|&&n| ph.past_range_errors || !l.ranged(n));
                        trail.bdd_ranged = ranged;
                        if !go.is_empty() {
                            trail.bdd = Some(self.bdds(w, &one, &go, actl, l)?);
                        }
                    }
                    Step::LiveIc3 => {
                        // The deeper lasso search beside it where a range error was met.
                        let deep = block.get(j + 1).copied().filter(|d| d.ranged_beside);
                        let at = deep.map_or(Vec::new(), |d| self.beside_at(d, &open, actl, l));
                        if at.is_empty() {
                            let t = self.live_ic3(
                                w,
                                &one,
                                &open,
                                &actl.within_cpu(self.budgets.live_ic3),
                                l,
                            )?;
                            trail.ic3 = Some(t);
                        } else if let Some(d) = deep {
                            let (t, b) = self.ic3_beside(w, &one, d, &at, actl, l)?;
                            trail.ic3 = Some(t);
                            trail.beside = Some(b);
                        }
                    }
                    _ => {}
                }
            }
            let after = l.open_sizes_of(PropId::Ltl(k));
            let limited = actl.users_limit().is_some();
            l.notes
                .extend(self.trail_notes(w, k, &sizes, &after, &trail, limited));
        }
        Ok(())
    }

    /// The notes of one property's SAT route: what each phase ran on and found, and
    /// the sizes IC3 left open within its budget.
    fn trail_notes(
        &self,
        w: &Walk,
        k: usize,
        sizes: &[usize],
        after: &[usize],
        t: &Trail,
        limited: bool,
    ) -> Vec<String> {
        let name = &w.p.model.ltls[k].name;
        let bdd = t.bdd.as_ref().map_or(String::new(), |b| {
            format!(
                ", then the BDD fixpoint on {} (at most {:.0}s){}",
                sizes_phrase(&b.sizes),
                self.budgets.live_bdd,
                b.text()
            )
        });
        let bdd = if t.bdd_ranged.is_empty() {
            bdd
        } else {
            format!(
                "{bdd}, not the BDD fixpoint at {} (a range error met there: it answers nothing)",
                sizes_phrase(&t.bdd_ranged)
            )
        };
        let ic3 = t.ic3.as_ref().map_or(String::new(), |b| {
            format!(
                ", then IC3 (k-liveness, then liveness-to-safety) on {}{}",
                sizes_phrase(&b.sizes),
                b.text()
            )
        });
        let (first, beside, deeper) = lasso_notes(t);
        let lassos = &t.lassos.lassos;
        let mut notes = vec![format!(
            "`{name}`: {} went to the SAT route on their aggregate: {first}{}{bdd}{ic3}{beside}{deeper}",
            sizes_phrase(sizes),
            if lassos.is_empty() {
                String::new()
            } else {
                format!(" (lassos at {})", crate::cert::sizes_text(lassos))
            },
        )];
        if !after.is_empty() && !limited && t.ic3.is_some() {
            notes.push(format!(
                "`{name}`: IC3 did not finish within {:.0}s at {}",
                self.budgets.live_ic3,
                sizes_phrase(after)
            ));
        }
        notes
    }

    /// The bounded lasso search (phase `ph`: its depth and budgets) on the open sizes
    /// of `one`'s `ltl` property: on their aggregate (`one`) when they all have the same
    /// budget, else the sizes where a range error was met (`Phase::ranged_budget`)
    /// apart from the others, after them, each run of consecutive sizes one aggregate.
    /// The deepest bound reached is returned.
    #[allow(clippy::too_many_arguments)]
    fn lassos(
        &self,
        w: &Walk,
        one: &Problem,
        open: &[usize],
        ph: &Phase,
        ctl: &Control,
        l: &mut Book,
        tally: &mut Tally,
    ) -> Result<Option<usize>, String> {
        let budget = Some(ph.budget.unwrap_or(self.budgets.lasso));
        let (ranged, clear): (Vec<usize>, Vec<usize>) = open.iter().partition(|&&n| l.ranged(n));
        if ph.ranged_budget == ph.budget || ranged.is_empty() || clear.is_empty() {
            let b = if clear.is_empty() {
                ph.ranged_budget
            } else {
                budget
            };
            if b == Some(0.0) {
                return Ok(None);
            }
            let whole = Problem {
                min: open[0],
                max: open[open.len() - 1],
                ..one.clone()
            };
            return self.lasso_run(w, &whole, ph, b, ctl, l, tally);
        }
        let mut reached = None;
        for (sizes, b) in [(clear, budget), (ranged, ph.ranged_budget)] {
            if b == Some(0.0) {
                continue;
            }
            for (a, z) in runs(&sizes) {
                if ctl.users_limit().is_some() {
                    return Ok(reached);
                }
                let part = Problem {
                    min: a,
                    max: z,
                    ..one.clone()
                };
                reached = reached.max(self.lasso_run(w, &part, ph, b, ctl, l, tally)?);
            }
        }
        Ok(reached)
    }

    /// The bounded lasso search of phase `ph` (its depth) on the aggregate of `one`'s
    /// sizes (one `ltl` property), within `budget` seconds of CPU (`None`: to its
    /// depth, under the user's limits), the sizes it answered into `tally`; the sizes
    /// without a lasso keep the depth searched, and the deepest is returned.
    #[allow(clippy::too_many_arguments)]
    fn lasso_run(
        &self,
        w: &Walk,
        one: &Problem,
        ph: &Phase,
        budget: Option<f64>,
        ctl: &Control,
        l: &mut Book,
        tally: &mut Tally,
    ) -> Result<Option<usize>, String> {
        let reports = self.lasso_reports(one, ph, budget, ctl)?;
        Ok(lassos_into(w, one.ltls[0], reports, l, tally))
    }

    /// The reports of the bounded lasso search of phase `ph` (its depth) on the
    /// aggregate of `one`'s sizes, within `budget` seconds of CPU of the calling thread
    /// (`None`: to its depth, under the limits of `ctl`).
    pub(super) fn lasso_reports(
        &self,
        one: &Problem,
        ph: &Phase,
        budget: Option<f64>,
        ctl: &Control,
    ) -> Result<Vec<SizeReport>, String> {
        let depth = ph.depth.unwrap_or(self.budgets.bmc_depth);
        let bmc = BmcEngine {
            opts: BmcOptions {
                depth,
                ..self.bmc_options()
            },
            one_by_one: false,
        };
        if ctl.progress {
            let within = budget.map_or("no budget: a range error was met there".into(), |b| {
                format!("at most {b:.1}s CPU")
            });
            crate::progress::line(format!(
                "auto: bounded lasso search on {} (depth {depth}, {within})",
                sizes_phrase(&one.sizes()),
            ));
        }
        let mut reports = Vec::new();
        let inner = budget.map_or_else(|| ctl.clone(), |b| ctl.within_cpu(b));
        bmc.check(one, &inner, &mut |r| reports.push(r))?;
        Ok(reports)
    }

    /// Whether the BDD phase runs on `one`: the BDD engine reads the model (no `int`,
    /// no extra process id).
    fn bdd_reads(&self, one: &Problem) -> bool {
        one.model.int_window.is_none() && one.model.extra_proc.is_none()
    }

    /// The BDD fixpoint (`--engine bdd`) on the sizes `open`, within its budget and a
    /// memory budget of its own (`BDD_MEMORY` above what the process holds, or the
    /// user's, if less): it decides every width of an aggregate at once when the
    /// model's relations are small (the sorting networks), and gives up soon when not.
    fn bdds(
        &self,
        w: &Walk,
        one: &Problem,
        open: &[usize],
        ctl: &Control,
        l: &mut Book,
    ) -> Result<Tally, String> {
        let bdd = BddEngine {
            solver: self.solver,
            nodes: crate::bdd::NODES,
        };
        let mut inner = ctl.within_cpu(self.budgets.live_bdd);
        let own = crate::limits::current_memory().map(|m| m + BDD_MEMORY);
        inner.max_memory = match (ctl.max_memory, own) {
            (Some(u), Some(o)) => Some(u.min(o)),
            (u, o) => u.or(o),
        };
        let what = format!(
            "the BDD fixpoint, at most {:.0}s CPU",
            self.budgets.live_bdd
        );
        self.settle(w, &bdd, &what, one, open, &inner, l)
    }

    /// IC3 (k-liveness, then liveness-to-safety) on the sizes `open` of `one`'s `ltl`
    /// property, within `inner`.
    pub(super) fn live_ic3(
        &self,
        w: &Walk,
        one: &Problem,
        open: &[usize],
        inner: &Control,
        l: &mut Book,
    ) -> Result<Tally, String> {
        let ic3 = Ic3Engine::new(self.solver, self.symmetry);
        let what = format!(
            "IC3 (k-liveness, then liveness-to-safety), at most {:.0}s CPU",
            self.budgets.live_ic3
        );
        self.settle(w, &ic3, &what, one, open, inner, l)
    }

    /// `engine` (named `what`) on the sizes `open` (for `one`'s `ltl` property), each
    /// run of consecutive sizes one aggregate, within `inner`: what it proved and
    /// refuted.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn settle(
        &self,
        w: &Walk,
        engine: &dyn Engine,
        what: &str,
        one: &Problem,
        open: &[usize],
        inner: &Control,
        l: &mut Book,
    ) -> Result<Tally, String> {
        if inner.progress {
            crate::progress::line(format!("auto: {what} on {}", sizes_phrase(open)));
        }
        let k = one.ltls[0];
        let mut tally = Tally {
            sizes: open.to_vec(),
            ..Tally::default()
        };
        for (a, b) in runs(open) {
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
            l.certificates.extend(o.certificates);
            for r in reports {
                let row = r.results.iter().find(|x| x.prop == PropId::Ltl(k));
                match row.map(|x| x.verdict.kind()) {
                    Some(Kind::Holds) => tally.proved.push(r.size),
                    Some(Kind::Violated) => tally.lassos.push(r.size),
                    _ => {}
                }
                l.meets(&r);
                l.answer(kept(r, k, w.range_known));
            }
        }
        Ok(tally)
    }

    /// One size's `ltl` search by the explicit engine: the properties `props`, under
    /// `deadline`; its notes added to `notes`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn ndfs(
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

/// The parts of a property's note that say what the bounded lasso searches did: the
/// first (its depth), the deeper one beside IC3 (`Phase::ranged_beside`), and the
/// deeper one after IC3.
fn lasso_notes(t: &Trail) -> (String, String, String) {
    let depth = |d: &Option<usize>| d.map_or("0".into(), |d| d.to_string());
    // The first search does not run where a range error was met, when the deeper one
    // runs beside IC3 there.
    let first = match (t.depth, &t.beside) {
        (None, Some(_)) => "no first bounded lasso search".to_string(),
        (d, _) => format!("bounded lasso search to depth {}", depth(&d)),
    };
    let beside = t.beside.as_ref().map_or(String::new(), |(d, b)| {
        format!(
            ", the bounded lasso search to depth {} beside it from its start on {} (a range error met there){}",
            depth(d),
            sizes_phrase(&b.sizes),
            b.text()
        )
    });
    let deeper = t.deeper.as_ref().map_or(String::new(), |(d, b)| {
        format!(
            ", then the bounded lasso search again on {} to depth {}{}",
            sizes_phrase(&b.sizes),
            depth(d),
            b.text()
        )
    });
    (first, beside, deeper)
}

/// The reports of a bounded lasso search of `ltl` property `k` into the book, the sizes
/// with a lasso into `tally`: the deepest bound reached without one is returned.
pub(super) fn lassos_into(
    w: &Walk,
    k: usize,
    reports: Vec<SizeReport>,
    l: &mut Book,
    tally: &mut Tally,
) -> Option<usize> {
    let mut reached = None;
    for r in reports {
        let row = r.results.iter().find(|x| x.prop == PropId::Ltl(k));
        if let Some(Kind::NoViolationUpTo(d)) = row.map(|x| x.verdict.kind()) {
            reached = reached.max(Some(d));
        }
        if row.is_some_and(|x| answers(&x.verdict)) {
            tally.lassos.push(r.size);
        }
        l.meets(&r);
        l.answer(kept(r, k, w.range_known));
    }
    reached
}

/// The rows of a SAT-route report that answer something (its `ltl` property `k`
/// answered, or bounded; a range error met, unless `range_known`); its own budget's
/// limit dropped (the user's is the route's).
pub(super) fn kept(mut r: SizeReport, k: usize, range_known: bool) -> SizeReport {
    r.results.retain(|x| match x.prop {
        PropId::Ltl(j) => j == k,
        PropId::Range | PropId::IntBound => !range_known && x.verdict.trace().is_some(),
        _ => false,
    });
    r.limit = None;
    r
}
