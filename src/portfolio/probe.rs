//! A short explicit probe before an engine the user chose: whether the exhaustive
//! explicit search (`auto`'s first phase) would answer every size of the range at once,
//! so that a run of `--engine ic3` or `--engine sat` that explicit search finishes in
//! milliseconds says so before it starts (issue 29: `--engine ic3` took 513 s on a
//! ticket lock the explicit search answers in 0.1 s).
//!
//! The probe searches the sizes in order under one small time budget, and stops before a
//! size whose cost, continued from the growth of the sizes before it
//! (`portfolio::growth`, the policy `auto` follows), would not fit in what is left. Its
//! answers are thrown away: the chosen engine runs as asked and its verdicts are the
//! only ones reported.

use super::growth::{Budget, Cost, Growth};
use crate::engine::{Control, Engine, Problem};
use crate::explicit::engine::ExplicitEngine;
use crate::explicit::reach::{self, ReachOptions};
use crate::verdict::{Kind, SizeReport};
use std::time::{Duration, Instant};

/// The time the probe may take in all (it delays the chosen engine by at most this).
pub const PROBE_SECONDS: f64 = super::budgets::SHIPPED.probe;

/// The states one size of the probe may store (its memory stays small).
const PROBE_STATES: usize = 500_000;

/// What the probe found: every size of the range answered by explicit search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Finished {
    pub min: usize,
    pub max: usize,
    /// The probe's time for the whole range.
    pub seconds: f64,
}

impl Finished {
    /// The note printed before the chosen engine runs; `asked`: by `--engine` (else by
    /// one of its flags, such as `--depth` for sat).
    pub fn note(&self, engine: &str, asked: bool) -> String {
        let sizes = if self.min == self.max {
            format!("size {}", self.min)
        } else {
            format!("sizes {}..{}", self.min, self.max)
        };
        let time = format!("{:.3} s", self.seconds);
        let how = if asked {
            " as asked"
        } else {
            ", which a flag of its own chose (docs/cli.md)"
        };
        format!(
            "note: explicit search answers {sizes} in {time} (measured just now); auto, the \
             default, would use it (--engine auto or --engine explicit); running {engine}{how}"
        )
    }
}

/// Whether the explicit search answers every size of `p` within `budget` seconds: its
/// `unsafe` properties, or its `ltl` properties when it has some (those through the
/// engine contract, with the search's own settings); `None` when it does not, or when
/// it is not predicted to.
pub fn explicit_finishes(
    p: &Problem,
    ctl: &Control,
    symmetry: bool,
    dead_cells: bool,
    budget: f64,
) -> Option<Finished> {
    let start = Instant::now();
    let end = start + Duration::from_secs_f64(budget);
    let deadline = ctl.deadline.map_or(end, |d| d.min(end));
    let answered = if p.ltls.is_empty() {
        let opts = ReachOptions {
            symmetry,
            dead_cells,
            deadlock: false,
            props: Some(p.props.clone()),
            max_states: Some(PROBE_STATES),
            max_memory: ctl.max_memory,
            deadline: Some(deadline),
            stop: ctl.stop.clone(),
            progress: false,
            coverage: false,
            threads: ctl.threads,
            store: reach::StoreKind::Exact,
            rank_ints: false,
            partial_symmetry: false,
        };
        safety_answered(p, &opts, deadline)
    } else {
        let engine = ExplicitEngine {
            symmetry,
            dead_cells,
            max_states: Some(PROBE_STATES),
            live_threads: 1,
            ..Default::default()
        };
        let ctl = Control {
            deadline: Some(deadline),
            progress: false,
            ..ctl.clone()
        };
        ltl_answered(p, &ctl, &engine)
    };
    answered.then(|| Finished {
        min: p.min,
        max: p.max,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The `unsafe` properties of every size answered by the search `opts` before
/// `deadline`, the sizes in order; false as soon as a size is not, or is not
/// predicted to be.
fn safety_answered(p: &Problem, opts: &ReachOptions, deadline: Instant) -> bool {
    let mut growth = Growth::default();
    for n in p.min..=p.max {
        let left = deadline
            .saturating_duration_since(Instant::now())
            .as_secs_f64();
        let limits = Budget {
            seconds: Some(left),
            states: Some(PROBE_STATES),
            bytes: None,
        };
        if left <= 0.0 || growth.refuse(n, &limits).is_some() {
            return false;
        }
        let began = Instant::now();
        let r: SizeReport = reach::check_size(p.model, n, opts).into();
        if r.limit.is_some() || r.results.iter().any(|x| x.verdict.kind() == Kind::Unknown) {
            return false;
        }
        if r.stats.complete != Some(false) {
            growth.record(Cost {
                size: n,
                seconds: began.elapsed().as_secs_f64(),
                states: r.stats.states.unwrap_or(0),
                bytes: 0,
            });
        }
    }
    true
}

/// The `ltl` properties of every size answered by `engine` within `ctl`.
fn ltl_answered(p: &Problem, ctl: &Control, engine: &ExplicitEngine) -> bool {
    let mut answered = true;
    let out = engine.check(p, ctl, &mut |r| {
        answered &=
            r.limit.is_none() && !r.results.iter().any(|x| x.verdict.kind() == Kind::Unknown);
    });
    out.is_ok_and(|o| o.limit.is_none()) && answered
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem_of(src: &str, min: usize, max: usize, run: impl FnOnce(&Problem)) {
        let model = crate::lang::load_str("lock.cub", src).expect("the test model loads");
        let props = (0..model.unsafes.len()).collect();
        run(&Problem::new(&model, min, max, props));
    }

    const LOCK: &str = "type loc = Idle | Want | Crit\nvar Lock : bool\narray Pc[proc] : loc\n\
        init (p) { Pc[p] = Idle && Lock = False }\n\
        unsafe mutex (p q) { Pc[p] = Crit && Pc[q] = Crit }\n\
        transition request (i) requires { Pc[i] = Idle } { Pc[i] := Want; }\n\
        transition acquire (i) requires { Pc[i] = Want && Lock = False } { Pc[i] := Crit; Lock := True; }\n\
        transition release (i) requires { Pc[i] = Crit } { Pc[i] := Idle; Lock := False; }\n";

    #[test]
    fn a_small_lock_is_finished_and_a_zero_budget_finishes_nothing() {
        problem_of(LOCK, 1, 5, |p| {
            let ctl = Control::default();
            let f = explicit_finishes(p, &ctl, true, true, 5.0).expect("answered");
            assert_eq!((f.min, f.max), (1, 5));
            assert!(f.note("ic3", true).contains("sizes 1..5"));
            assert_eq!(explicit_finishes(p, &ctl, true, true, 0.0), None);
        });
    }
}
