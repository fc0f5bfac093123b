//! `auto`, the default engine: the fastest complete answer, by measurement on the
//! shipped families (docs/engines.md):
//! 1. the explicit search, size by size from the smallest, while each size takes
//!    less than a small time budget (small instances are answered exhaustively in
//!    milliseconds, counting protocols such as the ticket lock only this way);
//! 2. for the sizes left, one run over their aggregate: a short bounded pass finds the
//!    shallow violations with shortest traces at every size at once, then IC3 answers
//!    every other (property, size): a violation (made shortest by BMC) or a proof (a
//!    certificate checked independently), within a time budget;
//! 3. if IC3 ran out of its budget, the explicit search again, without a budget, for
//!    the sizes it left open (the user's limits still apply; under them the bounded
//!    pass's "none up to its depth" stands).
//!
//! `ltl` properties go through the same phases with the liveness engines
//! (`portfolio::ltl_route`), and both decide when a size still goes to the explicit search
//! by one policy (`portfolio::growth`).

use super::beside::Beside;
use super::budgets::Budgets;
use super::growth::{Budget, Cost, Growth, Refusal, memory_budget};
use super::route;
use crate::bmc::driver::{self, BmcOptions};
use crate::engine::{Control, Engine, Outcome, Presentation, Problem};
use crate::explicit::reach::{self, ReachOptions};
use crate::ic3::engine::Ic3Engine;
use crate::proof::finish::{self, Findings};
use crate::sat::SolverKind;
use crate::transys::frame::Encoding;
use crate::transys::query::SymBreak;
use crate::verdict::{Kind, Limit, PropId, SizeReport};
use std::time::{Duration, Instant};

/// The default engine: its phases' budgets and the settings it hands them.
#[derive(Clone, Debug)]
pub struct AutoEngine {
    pub solver: SolverKind,
    pub symmetry: bool,
    /// Explicit phase: store states up to their dead cells (`model::dead`).
    pub dead_cells: bool,
    /// `ltl` properties: look for a shorter lasso once one is found.
    pub shorten: bool,
    /// How long each phase may take (`portfolio::budgets`; 0 s: the phase is
    /// skipped), and the depth of the bounded pass.
    pub budgets: Budgets,
    /// The states one size may store in the explicit phases (`--max-states`): a size
    /// that needs more, or is predicted to, is left to the other phases.
    pub max_states: Option<usize>,
    /// Rank the ints of a model that qualifies (`model::ints::ranked`): its sizes then all go to
    /// the explicit search, which is finite and exact on the ranked model while the SAT
    /// engines would check the int window only.
    pub rank_ints: bool,
    /// On two or more cores, the first complete answer wins (`portfolio::beside`): the
    /// aggregate run is stopped once the explicit search beside it has answered every
    /// size. Off when a certificate is asked for, so that IC3 keeps its budget.
    pub race: bool,
}

impl AutoEngine {
    /// The engine users get by default: the shipped budgets (`budgets::SHIPPED`), dead
    /// cells normalised, lassos shortened, ints ranked where they qualify, and the
    /// explicit search racing the aggregate run on two or more cores.
    pub fn shipped(solver: SolverKind, symmetry: bool) -> Self {
        AutoEngine {
            solver,
            symmetry,
            dead_cells: true,
            shorten: true,
            budgets: super::budgets::SHIPPED,
            max_states: None,
            rank_ints: true,
            race: true,
        }
    }
}

/// The user's limit that stopped an explicit search (`Some`), or `None` when only the
/// phase's own budget did: a size's own time budget (`budget`) or state budget
/// (`--max-states` while later phases may still answer it) is not the user's.
fn users_limit(r: &SizeReport, ctl: &Control, budget: Option<f64>) -> Option<Limit> {
    r.limit.filter(|l| {
        budget.is_none()
            || ctl
                .stop
                .as_ref()
                .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
            || ctl.deadline.is_some_and(|d| Instant::now() >= d)
            || *l == Limit::Memory
    })
}

/// One explicit search of one size, under the deadline it is given.
pub(super) type Search<'s> = dyn FnMut(usize, Option<Instant>) -> SizeReport + 's;

/// What an explicit phase did.
#[derive(Debug, Default)]
pub(super) struct Phase {
    /// The sizes answered (and reported), in order.
    pub done: Vec<usize>,
    /// The user's limit, if one stopped the phase (that size was reported as it stands).
    pub users: Option<Limit>,
    /// The size the phase stopped before without searching it, and why.
    pub refused: Option<(usize, Refusal)>,
}

impl AutoEngine {
    /// Explicit searches (`search`) of `sizes` in order, each within `budget` seconds
    /// if given, reporting every size answered; stops at the first that is not, and
    /// before the first whose predicted cost (`growth`, fed with every size answered)
    /// exceeds the budget, `--max-states` or the memory budget.
    pub(super) fn explicit(
        &self,
        sizes: &[usize],
        ctl: &Control,
        budget: Option<f64>,
        growth: &mut Growth,
        search: &mut Search,
        report: &mut dyn FnMut(SizeReport),
    ) -> Phase {
        let mut phase = Phase::default();
        let limits = Budget {
            seconds: budget,
            states: self.max_states,
            bytes: memory_budget(ctl.max_memory),
        };
        for &n in sizes {
            if let Some(why) = growth.refuse(n, &limits) {
                phase.refused = Some((n, why));
                break;
            }
            let began = Instant::now();
            let own = budget.map(|b| began + Duration::from_secs_f64(b));
            let deadline = match (ctl.deadline, own) {
                (Some(d), Some(o)) => Some(d.min(o)),
                (d, o) => d.or(o),
            };
            let r = search(n, deadline);
            let open =
                r.limit.is_some() || r.results.iter().any(|x| x.verdict.kind() == Kind::Unknown);
            let users = users_limit(&r, ctl, budget);
            if open && users.is_none() {
                break;
            }
            // Only a search that explored every state measures the size's cost (one
            // that stopped at a violation may have seen a sliver of it).
            let exhaustive = r.stats.complete != Some(false)
                && !r.results.iter().any(|x| {
                    matches!(x.prop, PropId::Ltl(_)) && x.verdict.kind() == Kind::Violated
                });
            let cost = Cost {
                size: n,
                seconds: began.elapsed().as_secs_f64(),
                states: r.stats.states.unwrap_or(0),
                bytes: r.stats.bytes.unwrap_or(0),
            };
            report(r);
            if open {
                phase.users = users;
                return phase;
            }
            phase.done.push(n);
            if exhaustive {
                growth.record(cost);
            }
        }
        phase
    }

    /// The safety search of one size, for `explicit`.
    fn reach(&self, p: &Problem, ctl: &Control, n: usize, deadline: Option<Instant>) -> SizeReport {
        let opts = ReachOptions {
            symmetry: self.symmetry,
            dead_cells: self.dead_cells,
            deadlock: false,
            props: Some(p.props.clone()),
            max_states: self.max_states,
            max_memory: ctl.max_memory,
            deadline,
            stop: ctl.stop.clone(),
            progress: ctl.progress,
            coverage: true,
            threads: ctl.threads,
            store: reach::StoreKind::Exact,
            rank_ints: self.rank_ints,
            partial_symmetry: false,
        };
        let r = reach::check_size(p.model, n, &opts);
        let mut report: SizeReport = r.clone().into();
        if let Some(e) = r.rank_error {
            report.internal_errors.push(e);
        }
        report
    }
}

impl AutoEngine {
    /// The bounded pass's settings: its depth, solver, symmetry breaking (limits and
    /// properties are the caller's).
    pub(super) fn bmc_options(&self) -> BmcOptions {
        BmcOptions {
            depth: self.budgets.bmc_depth,
            symbreak: if self.symmetry {
                SymBreak::WitnessLex
            } else {
                SymBreak::Off
            },
            solver: self.solver,
            encoding: Encoding::Binary,
            ..BmcOptions::default()
        }
    }
}

impl Engine for AutoEngine {
    fn name(&self) -> &'static str {
        "auto"
    }

    fn presentation(&self, _p: &Problem) -> Presentation {
        Presentation {
            symmetry: "reduction (explicit) and symmetric lemma orbits (IC3)",
            data_symmetry: Some(" (explicit search)"),
            count: "states/lemmas",
            size_by_size: false,
            dead_cells: self.dead_cells,
            ranks_ints: true,
            lemma_orbits: Some(", reduction (explicit) off"),
        }
    }

    fn every_n(&self) -> bool {
        true
    }

    fn describe(&self, p: &Problem) -> String {
        let sym = if self.symmetry && p.model.is_symmetric() {
            ", symmetry"
        } else {
            ""
        };
        let search = crate::explicit::engine::live_text(p, 1);
        // Phase 0 (`portfolio::ltl_route`) when every property is a response one.
        let ranks = crate::rank::engine::applies(p.model, &p.ltls);
        let live = format!(
            "{} ({}{sym}); lassos replayed, invariants checked independently",
            route::text(&route::ltl(&self.budgets, &search, ranks)),
            self.solver.name()
        );
        if p.props.is_empty() && !p.ltls.is_empty() {
            return format!("auto: {live}");
        }
        let live = if p.ltls.is_empty() {
            String::new()
        } else {
            format!("; then for `ltl` properties, {live}")
        };
        if self.rank_ints && crate::model::ints::ranked::applies(p.model).is_some() {
            return format!(
                "auto: ints ranked, every size by exhaustive explicit search (sizes it cannot finish: BMC up to depth {} and IC3 over the int window) ({}{sym})",
                self.budgets.bmc_depth,
                self.solver.name(),
            ) + &live;
        }
        format!(
            "auto: {} ({}{sym}); invariants checked independently",
            route::text(&route::safety(&self.budgets)),
            self.solver.name(),
        ) + &live
    }

    fn answers(&self) -> crate::engine::Answers {
        crate::engine::Answers::BOTH
    }

    fn check(
        &self,
        p: &Problem,
        ctl: &Control,
        report: &mut dyn FnMut(SizeReport),
    ) -> Result<Outcome, String> {
        let safety = !p.props.is_empty() || p.ltls.is_empty();
        let mut outcome = if safety {
            let only = Problem {
                ltls: Vec::new(),
                ..p.clone()
            };
            self.safety(&only, ctl, report)?
        } else {
            Outcome::default()
        };
        if p.ltls.is_empty() || outcome.limit.is_some() {
            return Ok(outcome);
        }
        let live = self.live(p, ctl, safety, report)?;
        outcome.certificates.extend(outcome.certificate.clone());
        outcome.certificates.extend(live.certificates);
        outcome.limit = live.limit;
        outcome.aggregate |= live.aggregate;
        outcome.notes.extend(live.notes);
        Ok(outcome)
    }
}

impl AutoEngine {
    /// The `unsafe` properties (and range errors) of the problem.
    fn safety(
        &self,
        p: &Problem,
        ctl: &Control,
        report: &mut dyn FnMut(SizeReport),
    ) -> Result<Outcome, String> {
        let mut notes = Vec::new();
        let mut growth = Growth::default();
        let mut search = |n: usize, deadline: Option<Instant>| self.reach(p, ctl, n, deadline);
        // 0. Ranked ints: the sizes to the explicit search, with no budget of their own
        // (the ranked instance is finite); sizes it could not answer take the usual
        // route below.
        let mut first_open = p.min;
        let mut ranked = false;
        if self.rank_ints
            && let Some(r) = crate::model::ints::ranked::applies(p.model)
        {
            ranked = true;
            let Phase { done, users, .. } =
                self.explicit(&p.sizes(), ctl, None, &mut growth, &mut search, report);
            notes.push(format!(
                "ints ranked ({}): {} answered by exhaustive explicit search, where the ranked instance is finite (the SAT engines would check the int window only)",
                r.names(p.model).join(", "),
                if done.is_empty() {
                    "no size".to_string()
                } else {
                    crate::cert::sizes_phrase(&done)
                }
            ));
            if users.is_some() {
                return Ok(Outcome {
                    limit: users,
                    notes,
                    ..Outcome::default()
                });
            }
            if let Some(&last) = done.last() {
                first_open = last + 1;
            }
        }
        // 1. Explicit, while it is quick.
        let mut small_violated = false;
        if self.budgets.explicit > 0.0 && !ranked {
            let mut seen = |r: SizeReport| {
                small_violated |= r.results.iter().any(|x| x.verdict.kind() == Kind::Violated);
                report(r)
            };
            let Phase { done, users, .. } = self.explicit(
                &p.sizes(),
                ctl,
                Some(self.budgets.explicit),
                &mut growth,
                &mut search,
                &mut seen,
            );
            if users.is_some() {
                return Ok(Outcome {
                    limit: users,
                    notes,
                    ..Outcome::default()
                });
            }
            if let Some(&last) = done.last() {
                first_open = last + 1;
                notes.push(format!(
                    "{} answered by exhaustive explicit search",
                    crate::cert::sizes_phrase(&done)
                ));
            }
        }
        if first_open > p.max {
            return Ok(Outcome {
                notes,
                ..Outcome::default()
            });
        }
        // 2. The rest as one aggregate: bounded pass, then IC3; on a second core the
        // explicit search of the same sizes runs beside them from the start.
        let rest = Problem {
            min: first_open,
            ..p.clone()
        };
        let mut g = growth.clone();
        std::thread::scope(|scope| {
            let beside = Beside::start(scope, ctl, &rest.sizes(), self.race, move |sizes, bctl| {
                let mut out = Vec::new();
                let mut search = |n: usize, d: Option<Instant>| self.reach(p, bctl, n, d);
                let phase =
                    self.explicit(sizes, bctl, None, &mut g, &mut search, &mut |r| out.push(r));
                let all = phase.done.len() == sizes.len();
                ((phase, out), all)
            });
            // IC3 generalises from the small sizes: where they hold, it runs from
            // them (MCS lock: 1..10 in 1.2 s, 7..10 alone in 6.6 s) and reports the
            // sizes left.
            let from = if small_violated { first_open } else { p.min };
            self.aggregate(&rest, from, ctl, Carried { notes, growth }, beside, report)
        })
    }

    /// Phase 2 and 3 of the safety search: the bounded pass and IC3 on the aggregate
    /// `rest`, then the explicit search of the sizes IC3 left open for its own budget:
    /// the one that ran `beside` if there is one, else one started now. IC3 runs from
    /// size `from` (below `rest.min` when the small sizes hold, to generalise from them).
    fn aggregate(
        &self,
        rest: &Problem,
        from: usize,
        ctl: &Control,
        mut carried: Carried,
        beside: Option<Beside<'_, (Phase, Vec<SizeReport>)>>,
        report: &mut dyn FnMut(SizeReport),
    ) -> Result<Outcome, String> {
        let start = Instant::now();
        // The aggregate run's limits: the user's, and the search beside it when racing.
        let actl = beside
            .as_ref()
            .map_or_else(|| ctl.clone(), |b| b.racing(ctl));
        let run = self.bounded_and_ic3(rest, from, ctl, &actl, start)?;
        carried.notes.push(format!(
            "{} went to one aggregate run: bounded pass to depth {}{}, then IC3",
            crate::cert::sizes_phrase(&rest.sizes()),
            run.depth
                .map(|d| d.to_string())
                .unwrap_or_else(|| "0".into()),
            if run.bmc_found > 0 {
                format!(" ({} violation(s) found by it)", run.bmc_found)
            } else {
                String::new()
            }
        ));
        // Sizes IC3 left open because of its own budget go back to the explicit search.
        let own_budget = run.limit.is_some()
            && !run.interrupted
            && ctl.deadline.is_none_or(|d| Instant::now() < d);
        let mut left = Vec::new();
        for r in run.reports {
            let answered = r.results.iter().all(|x| {
                matches!(
                    x.verdict.kind(),
                    Kind::Holds | Kind::Violated | Kind::Vacuous
                )
            });
            if own_budget && !answered {
                left.push(r);
            } else {
                report(r);
            }
        }
        let mut limit = run.limit;
        if !left.is_empty() {
            let won = limit == Some(Limit::Interrupted)
                && ctl.users_limit().is_none()
                && beside.as_ref().is_some_and(|b| b.complete());
            let why = if won {
                format!(
                    "IC3 stopped after {:.1}s, when the explicit search beside it had answered every size",
                    start.elapsed().as_secs_f64()
                )
            } else {
                format!("IC3 did not finish within {:.0}s", self.budgets.ic3)
            };
            let beside = beside.map(|b| b.finish(ctl, false));
            let leftover = Leftover { left, why };
            limit = self.explicit_again(rest, ctl, leftover, beside, &mut carried, report);
        } else if let Some(b) = beside {
            b.finish(ctl, true);
        }
        Ok(Outcome {
            limit,
            certificate: run.certificate,
            aggregate: rest.max > rest.min,
            notes: carried.notes,
            ..Outcome::default()
        })
    }

    /// The bounded pass on the aggregate `rest` (its budget), then IC3 from size `from`
    /// on what it did not refute, under `actl` (the user's limits, and the race), each
    /// (property, size) concluded (`proof::finish`).
    fn bounded_and_ic3(
        &self,
        rest: &Problem,
        from: usize,
        ctl: &Control,
        actl: &Control,
        start: Instant,
    ) -> Result<AggregateRun, String> {
        let budget = start + Duration::from_secs_f64(self.budgets.bmc);
        let opts = BmcOptions {
            props: Some(rest.props.clone()),
            deadline: Some(ctl.deadline.map_or(budget, |d| d.min(budget))),
            stop: actl.stop.clone(),
            max_memory: ctl.max_memory,
            progress: ctl.progress,
            por: Default::default(),
            whole_aggregate: false,
            ..self.bmc_options()
        };
        let run = driver::check_aggregate(rest.model, rest.min, rest.max, &opts)?;
        let mut traces = Vec::new();
        let mut depth = None;
        for r in run.reports {
            depth = r.answered_depth.or(depth);
            for x in r.results {
                let key = x.prop;
                if let Some(t) = x.verdict.into_trace() {
                    traces.push((key, t));
                }
            }
        }
        let bmc_found = traces.len();
        let interrupted = ctl
            .stop
            .as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed));
        let mut f = if interrupted {
            Findings {
                limit: Some(crate::verdict::Limit::Interrupted),
                ..Findings::default()
            }
        } else {
            let skip: Vec<(PropId, usize)> = traces.iter().map(|(k, t)| (*k, t.size)).collect();
            let ic3 = Ic3Engine::new(self.solver, self.symmetry);
            // The race changes only the stop flag: the deadline is the user's.
            // Its budget is CPU time: under load it is not cut short.
            let inner = actl.within_cpu(self.budgets.ic3);
            let wide = Problem {
                min: from.min(rest.min),
                ..rest.clone()
            };
            ic3.findings(&wide, &inner, &skip)?
        };
        f.traces = traces;
        f.bounded = depth;
        let limit = f.limit;
        let seconds = start.elapsed().as_secs_f64();
        let (reports, certificate) = finish::conclude(rest, ctl, "ic3", self.solver, f, seconds)?;
        Ok(AggregateRun {
            reports,
            certificate,
            limit,
            depth,
            bmc_found,
            interrupted,
        })
    }

    /// Phase 3: the sizes IC3 left open, answered by the search that ran `beside` it
    /// (its phase and reports) or by one started now. Returns the user's limit if one
    /// stopped it.
    fn explicit_again(
        &self,
        p: &Problem,
        ctl: &Control,
        Leftover { left, why }: Leftover,
        beside: Option<(Phase, Vec<SizeReport>)>,
        carried: &mut Carried,
        report: &mut dyn FnMut(SizeReport),
    ) -> Option<Limit> {
        let open: Vec<usize> = left.iter().map(|r| r.size).collect();
        let (phase, how) = match beside {
            Some((phase, found)) => {
                // The sizes IC3 answered are reported as IC3 answered them; the others
                // as the search beside it did, or as IC3 left them where that search
                // stopped before them.
                let mut found: Vec<SizeReport> = found
                    .into_iter()
                    .filter(|r| open.contains(&r.size))
                    .collect();
                for r in left {
                    if !found.iter().any(|f| f.size == r.size) {
                        found.push(r);
                    }
                }
                found.sort_by_key(|r| r.size);
                found.into_iter().for_each(&mut *report);
                let done = phase.done.into_iter().filter(|n| open.contains(n));
                let phase = Phase {
                    done: done.collect(),
                    ..phase
                };
                (phase, " (run beside IC3 from its start)")
            }
            None => {
                let mut search =
                    |n: usize, deadline: Option<Instant>| self.reach(p, ctl, n, deadline);
                let growth = &mut carried.growth;
                let phase = self.explicit(&open, ctl, None, growth, &mut search, report);
                (phase, "")
            }
        };
        carried.notes.push(format!(
            "{why}: {} answered by explicit search{how}{}",
            crate::cert::sizes_phrase(&phase.done),
            if phase.done.len() < open.len() && phase.refused.is_none() {
                " before the limit"
            } else {
                ""
            }
        ));
        carried.notes.extend(refusal_note(&phase, &open));
        phase.users
    }
}

/// What the phases before the aggregate hand on: the notes so far and the growth of
/// the sizes the explicit phase answered.
struct Carried {
    notes: Vec<String>,
    growth: Growth,
}

/// What IC3 left open for its own budget: the reports of those sizes, and why it
/// stopped (for the note).
struct Leftover {
    left: Vec<SizeReport>,
    why: String,
}

/// The aggregate run of the bounded pass and IC3.
struct AggregateRun {
    reports: Vec<SizeReport>,
    certificate: Option<std::sync::Arc<crate::cert::Certificate>>,
    limit: Option<Limit>,
    /// The depth the bounded pass reached.
    depth: Option<usize>,
    /// The violations the bounded pass found.
    bmc_found: usize,
    /// Ctrl-C stopped the run before IC3.
    interrupted: bool,
}

/// The note for the sizes a phase without a time budget did not search because their
/// predicted cost exceeds a budget (left open, not answered).
fn refusal_note(phase: &Phase, sizes: &[usize]) -> Option<String> {
    let (n, why) = phase.refused?;
    let left: Vec<usize> = sizes.iter().copied().filter(|&m| m >= n).collect();
    Some(format!(
        "{} not searched: size {n} is {} (left open)",
        crate::cert::sizes_phrase(&left),
        why.text()
    ))
}
