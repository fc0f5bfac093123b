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
//! by one policy (`portfolio::growth`). Both routes are tables (`portfolio::route`) run
//! by one loop (`portfolio::walk`) over one ledger of open (property, size) pairs
//! (`portfolio::ledger`); this file holds the safety route's phases.

use super::budgets::Budgets;
use super::growth::{Budget, Cost, Growth, Refusal, memory_budget};
use super::ledger::{Ledger, answers};
use super::route::{self, Phase, Step};
use super::walk::{Left, Track, Walk};
use crate::bmc::driver::{self, BmcOptions};
use crate::engine::{Control, Engine, Outcome, Presentation, Problem};
use crate::explicit::reach::{self, ReachOptions};
use crate::ic3::engine::Ic3Engine;
use crate::proof::finish::{self, Findings};
use crate::sat::SolverKind;
use crate::trace::Trace;
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

/// What an explicit search of sizes in order did.
#[derive(Debug, Default)]
pub(super) struct Searched {
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
    ) -> Searched {
        let mut phase = Searched::default();
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
    pub(super) fn reach(
        &self,
        p: &Problem,
        ctl: &Control,
        n: usize,
        deadline: Option<Instant>,
    ) -> SizeReport {
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
            route::text(&route::safety(&self.budgets, false)),
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
            let w = Walk {
                track: Track::Safety,
                p: &only,
                live: Vec::new(),
                range_known: false,
            };
            let ranked = self.rank_ints && crate::model::ints::ranked::applies(p.model).is_some();
            self.walk(&w, &route::safety(&self.budgets, ranked), ctl, report)?
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

/// The bounded pass's violations (shortest, replayed) and the depth it reached, handed
/// to the IC3 phase that concludes them with its own findings.
pub(super) struct Bounded {
    traces: Vec<(PropId, Trace)>,
    depth: Option<usize>,
    began: Instant,
}

impl AutoEngine {
    /// A phase on the aggregate of the open sizes, for all properties at once: the
    /// bounded pass (its findings kept in `stash`), IC3 (from the smallest size when
    /// the sizes answered so far hold, `from_small`), the ranking proofs.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn whole(
        &self,
        w: &Walk,
        ph: &Phase,
        actl: &Control,
        ctl: &Control,
        l: &mut Ledger,
        from_small: bool,
        stash: &mut Option<Bounded>,
    ) -> Result<(), String> {
        let rest = open_range(w.p, l);
        match ph.step {
            Step::Bounded => *stash = Some(self.bounded(&rest, actl, ctl)?),
            Step::Ic3 => {
                let b = stash.take().unwrap_or_else(|| Bounded {
                    traces: Vec::new(),
                    depth: None,
                    began: Instant::now(),
                });
                let from = if from_small { w.p.min } else { rest.min };
                self.conclude(w, Some(from), b, actl, ctl, l)?;
            }
            Step::Rank => self.ranked(w, actl, l)?,
            _ => {}
        }
        Ok(())
    }

    /// The bounded pass on the aggregate `rest`, within its budget.
    fn bounded(&self, rest: &Problem, actl: &Control, ctl: &Control) -> Result<Bounded, String> {
        let began = Instant::now();
        let budget = began + Duration::from_secs_f64(self.budgets.bmc);
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
        let mut b = Bounded {
            traces: Vec::new(),
            depth: None,
            began,
        };
        for r in run.reports {
            b.depth = r.answered_depth.or(b.depth);
            for x in r.results {
                let key = x.prop;
                if let Some(t) = x.verdict.into_trace() {
                    b.traces.push((key, t));
                }
            }
        }
        Ok(b)
    }

    /// IC3 from size `from` (`None`: not run) on what the bounded pass `b` did not
    /// refute, under `actl`, its budget in CPU time; every (property, size) concluded
    /// (`proof::finish`). A size not answered because IC3's own budget ran out stays
    /// open for the explicit search, with the bounded pass's depth noted.
    pub(super) fn conclude(
        &self,
        w: &Walk,
        from: Option<usize>,
        b: Bounded,
        actl: &Control,
        ctl: &Control,
        l: &mut Ledger,
    ) -> Result<(), String> {
        let rest = open_range(w.p, l);
        let found = b.traces.len();
        let interrupted = ctl.users_limit() == Some(Limit::Interrupted);
        let mut f = match from {
            _ if interrupted => Findings {
                limit: Some(Limit::Interrupted),
                ..Findings::default()
            },
            Some(from) => {
                let skip: Vec<(PropId, usize)> =
                    b.traces.iter().map(|(k, t)| (*k, t.size)).collect();
                let ic3 = Ic3Engine::new(self.solver, self.symmetry);
                // The race changes only the stop flag: the deadline is the user's.
                // Its budget is CPU time: under load it is not cut short.
                let inner = actl.within_cpu(self.budgets.ic3);
                let wide = Problem {
                    min: from.min(rest.min),
                    ..rest.clone()
                };
                ic3.findings(&wide, &inner, &skip)?
            }
            None => Findings::default(),
        };
        f.traces = b.traces;
        f.bounded = b.depth;
        let own_budget = f.limit.is_some() && ctl.users_limit().is_none();
        let seconds = b.began.elapsed().as_secs_f64();
        let (reports, certificate) = finish::conclude(&rest, ctl, "ic3", self.solver, f, seconds)?;
        l.notes.push(format!(
            "{} went to one aggregate run: bounded pass to depth {}{}, then IC3",
            crate::cert::sizes_phrase(&rest.sizes()),
            b.depth.map_or_else(|| "0".into(), |d| d.to_string()),
            if found > 0 {
                format!(" ({found} violation(s) found by it)")
            } else {
                String::new()
            }
        ));
        for r in reports {
            if r.results.iter().all(|x| answers(&x.verdict)) {
                l.answer(r);
            } else if own_budget {
                l.bound(&r);
            } else {
                l.settle(r);
            }
        }
        l.certificates.extend(certificate);
        Ok(())
    }

    /// The notes of the safety route's last phase: why IC3 left sizes open, which the
    /// explicit search answered (`beside`: the one run beside IC3), and the sizes not
    /// searched because of their predicted cost.
    pub(super) fn again_notes(
        &self,
        left: &Left,
        searched: &[usize],
        open: &[usize],
        beside: bool,
        refused: Option<(usize, Refusal)>,
    ) -> Vec<String> {
        if open.is_empty() {
            return Vec::new();
        }
        let why = match left.raced {
            Some(s) => format!(
                "IC3 stopped after {s:.1}s, when the explicit search beside it had answered every size"
            ),
            None => format!("IC3 did not finish within {:.0}s", self.budgets.ic3),
        };
        let how = if beside {
            " (run beside IC3 from its start)"
        } else {
            ""
        };
        let short = searched.len() < open.len() && refused.is_none();
        let mut notes = vec![format!(
            "{why}: {} answered by explicit search{how}{}",
            crate::cert::sizes_phrase(searched),
            if short { " before the limit" } else { "" }
        )];
        if let Some((n, why)) = refused {
            let left: Vec<usize> = open.iter().copied().filter(|&m| m >= n).collect();
            notes.push(format!(
                "{} not searched: size {n} is {} (left open)",
                crate::cert::sizes_phrase(&left),
                why.text()
            ));
        }
        notes
    }

    /// The note of the ranked-ints phase: the model's ranked ints and the sizes it
    /// answered.
    pub(super) fn ranked_note(&self, p: &Problem, done: &[usize]) -> String {
        let names = crate::model::ints::ranked::applies(p.model)
            .map(|r| r.names(p.model).join(", "))
            .unwrap_or_default();
        format!(
            "ints ranked ({names}): {} answered by exhaustive explicit search, where the ranked instance is finite (the SAT engines would check the int window only)",
            if done.is_empty() {
                "no size".to_string()
            } else {
                crate::cert::sizes_phrase(done)
            }
        )
    }
}

/// The problem over the sizes still open, from the smallest to the largest.
pub(super) fn open_range<'m>(p: &Problem<'m>, l: &Ledger) -> Problem<'m> {
    let open = l.open_sizes();
    Problem {
        min: open.first().copied().unwrap_or(p.min),
        max: open.last().copied().unwrap_or(p.max),
        ..p.clone()
    }
}
