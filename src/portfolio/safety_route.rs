//! The safety route's phases on the aggregate (`portfolio::route::safety`), for the
//! walk (`portfolio::walk`): the bounded pass, whose violations are shortest at every
//! size at once, then IC3 on what it did not refute, every (property, size)
//! concluded by `proof::finish` (a violation replayed, a proof only with its
//! invariant's certificate checked); and the notes of the safety route's last phase.

use super::auto::AutoEngine;
use super::growth::Refusal;
use super::ledger::{Book, answers};
use super::walk::{Bounded, Walk};
use crate::bmc::driver::{self, BmcOptions};
use crate::engine::{Control, Problem};
use crate::ic3::engine::Ic3Engine;
use crate::proof::finish::{self, Findings};
use crate::verdict::{Limit, PropId};
use std::time::Instant;

impl AutoEngine {
    /// The bounded pass on the aggregate `rest`, within its budget.
    pub(super) fn bounded(
        &self,
        rest: &Problem,
        actl: &Control,
        ctl: &Control,
    ) -> Result<Bounded, String> {
        let began = Instant::now();
        // Its budget is CPU time, as IC3's: under load it is not cut short.
        let inner = actl.within_cpu(self.budgets.bmc);
        let opts = BmcOptions {
            props: Some(rest.props.clone()),
            deadline: inner.deadline,
            stop: inner.stop.clone(),
            max_memory: ctl.max_memory,
            memory: ctl.memory.clone(),
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
    /// (`proof::finish`). A size left unanswered stays open for the explicit search,
    /// with the bounded pass's depth noted, unless the user's limit was reached.
    pub(super) fn conclude(
        &self,
        w: &Walk,
        from: Option<usize>,
        b: Bounded,
        actl: &Control,
        ctl: &Control,
        l: &mut Book,
    ) -> Result<(), String> {
        let rest = l.open_range(w.p);
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
        let seconds = b.began.elapsed().as_secs_f64();
        let ic3_limited = f.limit.is_some();
        // Making counterexamples shortest and checking the invariant has a budget of
        // its own: a deep BMC query must not hold the route past its phases.
        let concl = actl.within_cpu(self.budgets.conclude);
        let (reports, certificate) =
            finish::conclude(&rest, &concl, "ic3", self.solver, f, seconds)?;
        let concl_limited = concl.users_limit().is_some();
        // What is left open goes on to the explicit search again unless the user's
        // limit was reached: IC3 or the conclusion stopped by their budgets, the race
        // (the search beside them answered every size: `actl`'s stop, not the user's),
        // or no IC3 at all (`from` None: its phase skipped, or the race or a budget
        // ended the walk before it). Settling those pairs as the bounded pass left them
        // ended the run with `none up to K` on sizes the search beside had answered.
        let raced = actl.users_limit().is_some();
        let own_budget = (ic3_limited || concl_limited || raced || from.is_none())
            && ctl.users_limit().is_none();
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

    /// The notes of the safety route's last phase: why IC3 left sizes open (`left`:
    /// some were open when it ended; else the search beside it answered them first),
    /// which the explicit search answered (`beside`: the one run beside IC3), and the
    /// sizes not searched because of their predicted cost.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn again_notes(
        &self,
        raced: Option<f64>,
        searched: &[usize],
        open: &[usize],
        left: bool,
        beside: bool,
        refused: Option<(usize, Refusal)>,
    ) -> Vec<String> {
        if open.is_empty() {
            return Vec::new();
        }
        let why = match raced {
            Some(s) => format!(
                "IC3 stopped after {s:.1}s, when the explicit search beside it had answered every size"
            ),
            None if left => format!("IC3 did not finish within {:.0}s", self.budgets.ic3),
            None => "IC3 answered the other sizes".to_string(),
        };
        let how = if beside {
            " (run beside IC3 from its start)"
        } else {
            ""
        };
        let short = searched.len() < open.len() && refused.is_none();
        let which = if searched.is_empty() {
            "no size".to_string()
        } else {
            crate::cert::sizes_phrase(searched)
        };
        let mut notes = vec![format!(
            "{why}: {which} answered by explicit search{how}{}",
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
