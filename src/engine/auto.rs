//! `auto`, the default engine for a range of sizes: a short bounded pass over the
//! aggregate finds the shallow violations with shortest traces at every size in one
//! run, then IC3 over the aggregate answers every other (property, size): a
//! violation (made shortest by BMC) or a proof (a certificate checked independently).
//! When IC3 meets a limit, the bounded pass still answers "none up to its depth".

use super::finish::{self, Findings};
use super::{Control, Engine, Outcome, Problem};
use crate::bmc::driver::{self, BmcOptions};
use crate::bmc::frame::Encoding;
use crate::bmc::query::SymBreak;
use crate::ic3::engine::Ic3Engine;
use crate::sat::SolverKind;
use crate::verdict::{PropId, SizeReport, Verdict};
use std::time::{Duration, Instant};

/// The bounded pass's depth and time budget.
#[derive(Clone, Debug)]
pub struct AutoEngine {
    pub solver: SolverKind,
    pub symmetry: bool,
    /// Depth of the bounded pass.
    pub bmc_depth: usize,
    /// Time the bounded pass may take before IC3 takes over.
    pub bmc_seconds: f64,
}

impl Engine for AutoEngine {
    fn name(&self) -> &'static str {
        "auto"
    }

    fn describe(&self, p: &Problem) -> String {
        format!(
            "auto: BMC up to depth {} (at most {:.1}s) for shallow violations, then IC3 for the rest ({}{}){}; invariants checked independently",
            self.bmc_depth,
            self.bmc_seconds,
            self.solver.name(),
            if self.symmetry && p.model.is_symmetric() {
                ", symmetry"
            } else {
                ""
            },
            if p.max > p.min {
                format!(", sizes {}..{} in one aggregate run", p.min, p.max)
            } else {
                String::new()
            }
        )
    }

    fn check(
        &self,
        p: &Problem,
        ctl: &Control,
        report: &mut dyn FnMut(SizeReport),
    ) -> Result<Outcome, String> {
        let start = Instant::now();
        let budget = start + Duration::from_secs_f64(self.bmc_seconds);
        let opts = BmcOptions {
            depth: self.bmc_depth,
            symbreak: if self.symmetry {
                SymBreak::WitnessLex
            } else {
                SymBreak::Off
            },
            solver: self.solver,
            encoding: Encoding::Binary,
            props: Some(p.props.clone()),
            deadline: Some(ctl.deadline.map_or(budget, |d| d.min(budget))),
            stop: ctl.stop.clone(),
            max_memory: ctl.max_memory,
            progress: ctl.progress,
        };
        let run = driver::check_aggregate(p.model, p.min, p.max, &opts)?;
        let mut traces = Vec::new();
        let mut answered = None;
        for r in run.reports {
            answered = r.answered_depth.or(answered);
            for x in r.results {
                let key = x.prop;
                if let Verdict::Violated(t) = x.verdict {
                    traces.push((key, *t));
                }
            }
        }
        if ctl
            .stop
            .as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
        {
            return finish_with(p, ctl, self, traces, answered, None, start, report);
        }
        let skip: Vec<(PropId, usize)> = traces.iter().map(|(k, t)| (*k, t.size)).collect();
        let ic3 = Ic3Engine {
            solver: self.solver,
            symmetry: self.symmetry,
        };
        let f = ic3.findings(p, ctl, &skip)?;
        finish_with(p, ctl, self, traces, answered, Some(f), start, report)
    }
}

#[allow(clippy::too_many_arguments)]
fn finish_with(
    p: &Problem,
    ctl: &Control,
    e: &AutoEngine,
    traces: Vec<(PropId, crate::trace::Trace)>,
    answered: Option<usize>,
    ic3: Option<Findings>,
    start: Instant,
    report: &mut dyn FnMut(SizeReport),
) -> Result<Outcome, String> {
    let mut f = ic3.unwrap_or(Findings {
        limit: Some(crate::verdict::Limit::Interrupted),
        ..Findings::default()
    });
    let bmc_found = traces.len();
    f.traces = traces;
    f.bounded = answered;
    let limit = f.limit;
    let (reports, certificate) =
        finish::conclude(p, ctl, "ic3", e.solver, f, start.elapsed().as_secs_f64())?;
    for r in reports {
        report(r);
    }
    let mut notes = Vec::new();
    if bmc_found > 0 {
        notes.push(format!(
            "{bmc_found} violation(s) found by the bounded pass (depth up to {})",
            answered
                .map(|d| d.to_string())
                .unwrap_or_else(|| "0".into())
        ));
    }
    Ok(Outcome {
        limit,
        certificate,
        aggregate: p.max > p.min,
        notes,
    })
}
