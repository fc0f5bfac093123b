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
use crate::bmc::driver::BmcOptions;
use crate::engine::{Control, Problem, Report};
use crate::explicit::reach::{self, ReachOptions};
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

/// Whether a search that left a pair open met a range error (or a store leaving the
/// int window) on its way: its trace is in the report.
fn stopped_at_range_error(r: &SizeReport) -> bool {
    r.results
        .iter()
        .any(|x| matches!(x.prop, PropId::Range | PropId::IntBound) && x.verdict.trace().is_some())
}

/// The note of a size whose ints ranking cannot follow.
const NOT_RANKED: &str = "ints not ranked, as an increment does not start from the largest int of its class (`--engine explicit` names it): searched over the int window instead";

/// The sizes whose ints ranking could not follow, read from their notes.
pub(super) fn not_ranked(notes: &[String]) -> Vec<usize> {
    let size = |s: &String| {
        s.strip_suffix(NOT_RANKED)?
            .strip_prefix("size ")?
            .strip_suffix(": ")?
            .parse()
            .ok()
    };
    notes.iter().filter_map(size).collect()
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
    /// if given, reporting every size answered; stops at the first that is not (but,
    /// within a budget, for one stopped at a range error, reported as it stands), and
    /// before the first whose predicted cost (`growth`, fed with every size answered)
    /// exceeds the budget, `--max-states` or the memory budget.
    pub(super) fn explicit(
        &self,
        sizes: &[usize],
        ctl: &Control,
        budget: Option<f64>,
        growth: &mut Growth,
        search: &mut Search,
        report: Report,
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
            if open && budget.is_some() && r.limit.is_none() && stopped_at_range_error(&r) {
                // The `ltl` searches answer nothing past a range error. Met within the
                // size's budget, it says nothing of the next size's cost, and tells the
                // phases after that this size has one (the BDD fixpoint answers nothing
                // there): its rows are handed on, its pairs stay open, and the next size
                // is searched. (The searches without a budget, beside the aggregate
                // phases and after them, stop there: the next size may take long.)
                report(r);
                continue;
            }
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

    /// The safety search of one size, for `explicit`. Where the ints cannot be ranked
    /// at this size (an increment not from the largest), the size is searched over the
    /// int window instead, as `--no-rank-ints` does, within `deadline` or else its own
    /// budget (`budgets.window`): the answer `--engine explicit --no-rank-ints` gives
    /// (said in `notes`).
    pub(super) fn reach(
        &self,
        p: &Problem,
        ctl: &Control,
        n: usize,
        deadline: Option<Instant>,
        notes: &mut Vec<String>,
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
        if r.rank_error.is_none() {
            return r.into();
        }
        let budget = Instant::now() + Duration::from_secs_f64(self.budgets.window);
        let window = ReachOptions {
            rank_ints: false,
            deadline: Some(deadline.unwrap_or(budget)),
            ..opts
        };
        // `--engine explicit` names the increment; one line serves every size.
        notes.push(format!("size {n}: {NOT_RANKED}"));
        let mut r: SizeReport = reach::check_size(p.model, n, &window).into();
        if deadline.is_none() && r.limit == Some(Limit::Timeout) && ctl.users_limit().is_none() {
            // This search's own budget stopped it, not the user's limit: the size stays
            // open for the phases after.
            r.limit = None;
            for x in &mut r.results {
                if x.verdict.kind() != Kind::Violated {
                    x.verdict = crate::verdict::Verdict::Unknown;
                }
            }
        }
        r
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
