//! auto's route as data: its phases in the order they run, each with where it runs and
//! the budget it gets (`budgets`). The header's engine line (`AutoEngine::describe`),
//! the help of `--engine auto` and, through its example, docs/cli.md's description of
//! the route are all made from these lists, so that they cannot drift apart.

use super::budgets::Budgets;

/// Where a phase runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Size by size from the smallest, while each size is answered within the budget.
    EachSize,
    /// On the aggregate of the sizes the phases before left.
    Aggregate,
    /// On the sizes still open, without a budget of its own (the user's limits apply).
    Open,
}

/// What a phase runs (`portfolio::walk` runs each over the open pairs of the ledger).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Safety, ints ranked (`model::ints::ranked`): every size by the exhaustive
    /// explicit search, where the ranked instance is finite.
    RankedInts,
    /// The explicit search of safety, or of `ltl` properties (nested depth-first
    /// search, or the fair SCC search).
    Explicit,
    /// Safety: BMC on the aggregate, its violations shortest at every size at once.
    Bounded,
    /// Safety: IC3 on the aggregate, from the small sizes that hold.
    Ic3,
    /// `ltl`: ranking proofs of every response property at every size, or nothing.
    Rank,
    /// `ltl`: the bounded lasso search on the aggregate.
    Lassos,
    /// `ltl`: the BDD fixpoint on runs of open sizes.
    Bdd,
    /// `ltl`: IC3 by k-liveness, then liveness-to-safety, on runs of open sizes.
    LiveIc3,
    /// The explicit search again, for the pairs the phases before left open for their
    /// own budgets (beside them from their start on a second core).
    Again,
}

/// One phase of the route.
#[derive(Clone, Debug, PartialEq)]
pub struct Phase {
    pub step: Step,
    /// What runs, in the header's words.
    pub what: String,
    pub scope: Scope,
    /// Seconds (`None`: only the user's limits); a phase with 0 s is skipped.
    pub budget: Option<f64>,
    /// The budget counts the CPU time of the phase's thread, not the wall clock
    /// (`engine::Control::within_cpu`).
    pub cpu: bool,
    /// The phase can answer a size where a range error is reachable. The BDD fixpoint
    /// cannot (such a width is `unknown` there), so the route gives it only the sizes
    /// where no phase before met one: on models whose every size meets one, its budget
    /// went to nothing, before IC3 proved the property in under a second. Nor can the
    /// `ltl` route's explicit search again (it stops at the error): the last bounded
    /// search then has no budget there (`ranged_budget`).
    pub past_range_errors: bool,
    /// The budget at the sizes where a range error was met (`None`: only the user's
    /// limits). The `ltl` searches of the explicit engine answer nothing past a range
    /// error, so the last phase, the explicit search again, cannot take over there what
    /// a budget left open; the last bounded search (its depth ends it) runs there to its
    /// depth instead, as `--engine sat` does (`peterson_reordered`: its lasso of 19
    /// steps at size 4 was past the 20 s of CPU the deeper search had).
    pub ranged_budget: Option<f64>,
    /// At the sizes where a range error was met, the phase runs beside the phase before
    /// it (IC3) from that one's start, on a second core, rather than after it
    /// (`portfolio::ranged`): the deeper lasso search, which runs to its depth there,
    /// where the explicit search beside the SAT route answers nothing. On one core it
    /// runs after it. `CHAIN_RANGED` (tests/live_auto.rs) at 1..4: IC3 proves size 1 in
    /// 0.04 s alone but spent its 20 s on the aggregate, before the search found the
    /// lassos at 2..4 in 2.6 s.
    pub ranged_beside: bool,
    /// The bounded searches' depth (`None` for the other phases).
    pub depth: Option<usize>,
}

impl Phase {
    /// Whether the phase runs at all: at some sizes it has time.
    pub fn runs(&self) -> bool {
        self.budget != Some(0.0) || self.ranged_budget != Some(0.0)
    }

    /// The phase's budget at a size where a range error was met (`ranged`) or not.
    pub fn budget_at(&self, ranged: bool) -> Option<f64> {
        if ranged {
            self.ranged_budget
        } else {
            self.budget
        }
    }
}

fn phase(step: Step, what: impl Into<String>, scope: Scope, budget: Option<f64>) -> Phase {
    Phase {
        step,
        what: what.into(),
        scope,
        budget,
        // Every budget on the aggregate counts the CPU time of the phase's thread.
        cpu: scope == Scope::Aggregate,
        past_range_errors: true,
        ranged_budget: budget,
        ranged_beside: false,
        depth: None,
    }
}

/// The safety route: explicit while quick (every size, without a budget, when the
/// model's ints are `ranked`), then the bounded pass and IC3 on the aggregate of the
/// sizes left, then explicit for what IC3 left open.
pub fn safety(b: &Budgets, ranked: bool) -> Vec<Phase> {
    let first = if ranked {
        phase(
            Step::RankedInts,
            "exhaustive explicit search",
            Scope::EachSize,
            None,
        )
    } else {
        phase(
            Step::Explicit,
            "explicit search",
            Scope::EachSize,
            Some(b.explicit),
        )
    };
    vec![
        first,
        phase(
            Step::Bounded,
            format!("BMC up to depth {}", b.bmc_depth),
            Scope::Aggregate,
            Some(b.bmc),
        ),
        phase(Step::Ic3, "IC3", Scope::Aggregate, Some(b.ic3)),
        phase(Step::Again, "explicit again", Scope::Open, None),
    ]
}

/// The `ltl` route (`portfolio::ltl_route`), the explicit phase named by `search`:
/// ranking proofs first when every property is a response property they can rank
/// (`ranks`; the run ends there when they prove every pair); after IC3, the bounded
/// lasso search again, deeper, unless `--depth` already reached its depth.
pub fn ltl(b: &Budgets, search: &str, ranks: bool) -> Vec<Phase> {
    let mut out = vec![phase(
        Step::Explicit,
        format!("{search} per size"),
        Scope::EachSize,
        Some(b.live_explicit),
    )];
    if ranks {
        let what = "ranking proofs of the response properties, over an IC3 invariant";
        out.push(phase(Step::Rank, what, Scope::Aggregate, Some(b.rank)));
    }
    out.push(lassos(b.bmc_depth, b.lasso));
    let bdd = "a BDD fixpoint where no range error was met";
    out.push(Phase {
        past_range_errors: false,
        ..phase(Step::Bdd, bdd, Scope::Aggregate, Some(b.live_bdd))
    });
    let deep = b.deep_depth > b.bmc_depth;
    out.push(phase(
        Step::LiveIc3,
        "IC3 by k-liveness, then liveness-to-safety",
        Scope::Aggregate,
        Some(b.live_ic3),
    ));
    // Deeper lassos last: on a property that holds this search only spends its budget,
    // so it comes after the proofs, and only for the pairs they left.
    out.push(lassos(b.deep_depth, if deep { b.deep_lasso } else { 0.0 }));
    let again = Phase {
        past_range_errors: false,
        ..phase(Step::Again, "explicit again", Scope::Open, None)
    };
    // Past a range error the explicit search again proves nothing and finds only the
    // lassos it meets before the error: the last bounded search that runs (the deeper
    // one, or the first when `--depth` reaches past it) is the last phase there.
    let last = out
        .iter()
        .rposition(|p| p.depth.is_some() && p.budget != Some(0.0))
        .filter(|_| !again.past_range_errors);
    if let Some(i) = last {
        out[i].ranged_budget = None;
    }
    // The deeper search, when it is that last one and IC3 runs before it, runs there
    // beside IC3 from its start; the first search, whose lassos it finds as well, is
    // then not run there.
    let ic3 = out.iter().position(|p| p.step == Step::LiveIc3 && p.runs());
    if let (Some(i), Some(c)) = (last, ic3)
        && i == c + 1
    {
        out[i].ranged_beside = true;
        if let Some(first) = out[..c].iter_mut().find(|p| p.step == Step::Lassos) {
            first.ranged_budget = Some(0.0);
        }
    }
    out.push(again);
    out
}

/// The bounded lasso search up to `depth`, within `budget` seconds of CPU.
fn lassos(depth: usize, budget: f64) -> Phase {
    Phase {
        depth: Some(depth),
        ..phase(
            Step::Lassos,
            format!("a bounded lasso search up to depth {depth}"),
            Scope::Aggregate,
            Some(budget),
        )
    }
}

/// `5s` or `0.2s`: whole seconds without a decimal.
fn seconds(s: f64) -> String {
    if s >= 10.0 {
        format!("{s:.0}s")
    } else {
        format!("{s:.1}s")
    }
}

/// The route in one sentence: `explicit search while a size takes under 0.2s, then for
/// the sizes left BMC up to depth 10 (at most 1.0s CPU) and IC3 on their aggregate (at most
/// 20s, then explicit again)`. Phases with a budget of 0 s are left out.
pub fn text(phases: &[Phase]) -> String {
    let live: Vec<&Phase> = phases.iter().filter(|p| p.runs()).collect();
    let at_most = |p: &Phase| {
        let cpu = if p.cpu { " CPU" } else { "" };
        let met = "where a range error was met";
        let beside = if p.ranged_beside {
            " and there beside the phase before from its start"
        } else {
            ""
        };
        match (p.budget, p.ranged_budget) {
            (b, r) if b == r => b.map(|b| format!("at most {}{cpu}", seconds(b))),
            (Some(0.0), Some(r)) => Some(format!("only {met}, at most {}{cpu}", seconds(r))),
            (Some(b), Some(0.0)) => Some(format!("at most {}{cpu}, not {met}", seconds(b))),
            (Some(b), None) => Some(format!(
                "at most {}{cpu}, to its depth {met}{beside}",
                seconds(b)
            )),
            (Some(b), Some(r)) => {
                Some(format!("at most {}{cpu}, {} {met}", seconds(b), seconds(r)))
            }
            (None, _) => None,
        }
    };
    let mut parts: Vec<String> = Vec::new();
    let mut aggregate: Vec<&Phase> = Vec::new();
    let mut open = None;
    // Phases before the first one per size stand on their own ("first ..."); the
    // aggregate phases after it are said together, for "the sizes left".
    let has_each = live.iter().any(|p| p.scope == Scope::EachSize);
    let mut after_each = false;
    for p in live {
        match p.scope {
            Scope::EachSize => {
                after_each = true;
                let b = p.budget.map_or(String::new(), |b| {
                    format!(" while a size takes under {}", seconds(b))
                });
                parts.push(format!("{}{b}", p.what));
            }
            Scope::Aggregate if has_each && !after_each => {
                let b = at_most(p).unwrap_or_default();
                parts.push(format!("first {} ({b})", p.what));
            }
            Scope::Aggregate => aggregate.push(p),
            Scope::Open => open = Some(format!("then {}", p.what)),
        }
    }
    if let Some((last, before)) = aggregate.split_last() {
        let head: Vec<String> = before
            .iter()
            .map(|p| match at_most(p) {
                Some(a) => format!("{} ({a})", p.what),
                None => p.what.clone(),
            })
            .collect();
        let (lead, whose) = if after_each {
            ("then for the sizes left ", "their")
        } else {
            ("", "the")
        };
        let paren: Vec<String> = at_most(last).into_iter().chain(open).collect();
        let paren = if paren.is_empty() {
            String::new()
        } else {
            format!(" ({})", paren.join(", "))
        };
        let and = if head.is_empty() { "" } else { " and " };
        parts.push(format!(
            "{lead}{}{and}{} on {whose} aggregate{paren}",
            head.join(", "),
            last.what
        ));
    } else if let Some(o) = open {
        parts.push(o);
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::portfolio::budgets::SHIPPED;

    #[test]
    fn the_shipped_safety_route_in_one_sentence() {
        assert_eq!(
            text(&safety(&SHIPPED, false)),
            "explicit search while a size takes under 0.2s, then for the sizes left BMC up to depth 10 (at most 1.0s CPU) and IC3 on their aggregate (at most 20s CPU, then explicit again)"
        );
    }

    #[test]
    fn a_phase_without_time_is_not_said() {
        let b = Budgets {
            explicit: 0.0,
            ..SHIPPED
        };
        assert_eq!(
            text(&safety(&b, false)),
            "BMC up to depth 10 (at most 1.0s CPU) and IC3 on the aggregate (at most 20s CPU, then explicit again)"
        );
    }

    #[test]
    fn a_depth_at_or_past_the_deeper_search_leaves_it_out() {
        // --depth 20 already searches as deep as the second lasso search would.
        let b = Budgets {
            bmc_depth: 20,
            ..SHIPPED
        };
        let t = ltl(&b, "search", false);
        let lassos: Vec<Option<f64>> = t
            .iter()
            .filter(|p| p.step == Step::Lassos)
            .map(|p| p.budget)
            .collect();
        assert_eq!(lassos, [Some(2.0), Some(0.0)]);
        assert!(!text(&t).contains("depth 20 on"), "{}", text(&t));
    }

    #[test]
    fn the_ltl_route_names_every_phase_in_order() {
        let t = text(&ltl(&SHIPPED, "nested depth-first search", true));
        assert_eq!(
            t,
            "nested depth-first search per size while a size takes under 0.2s, then for the sizes left ranking proofs of the response properties, over an IC3 invariant (at most 30s CPU), a bounded lasso search up to depth 10 (at most 2.0s CPU, not where a range error was met), a BDD fixpoint where no range error was met (at most 10s CPU), IC3 by k-liveness, then liveness-to-safety (at most 20s CPU) and a bounded lasso search up to depth 20 on their aggregate (at most 20s CPU, to its depth where a range error was met and there beside the phase before from its start, then explicit again)"
        );
    }

    /// The budgets at a size where a range error was met, lasso searches in order.
    fn ranged_lassos(b: &Budgets) -> Vec<(Option<f64>, Option<f64>)> {
        ltl(b, "search", false)
            .iter()
            .filter(|p| p.step == Step::Lassos)
            .map(|p| (p.budget, p.ranged_budget))
            .collect()
    }

    #[test]
    fn past_a_range_error_the_last_lasso_search_has_no_budget() {
        // Shipped: depth 10 (2 s; not there: the deeper search beside IC3 covers it),
        // depth 20 after IC3 (20 s; to its depth there, beside IC3).
        assert_eq!(
            ranged_lassos(&SHIPPED),
            [(Some(2.0), Some(0.0)), (Some(20.0), None)]
        );
        let beside: Vec<bool> = ltl(&SHIPPED, "search", false)
            .iter()
            .map(|p| p.ranged_beside)
            .collect();
        assert_eq!(beside, [false, false, false, false, true, false]);
        // --depth 20: the first search is the last.
        let b = Budgets {
            bmc_depth: 20,
            ..SHIPPED
        };
        assert_eq!(
            ranged_lassos(&b),
            [(Some(2.0), None), (Some(0.0), Some(0.0))]
        );
        assert!(ltl(&b, "search", false).iter().all(|p| !p.ranged_beside));
        // Without IC3 the deeper search runs after the BDD fixpoint, as before.
        let b = Budgets {
            live_ic3: 0.0,
            ..SHIPPED
        };
        assert_eq!(
            ranged_lassos(&b),
            [(Some(2.0), Some(2.0)), (Some(20.0), None)]
        );
        assert!(ltl(&b, "search", false).iter().all(|p| !p.ranged_beside));
        let explicit_again = ltl(&SHIPPED, "search", false).pop().unwrap();
        assert!(!explicit_again.past_range_errors);
    }
}
