//! IC3 as an engine of the command line: one run over the aggregate of the sizes,
//! counterexamples made shortest by BMC, the invariant certified (`engine::finish`).

use super::{Ic3Options, prove};
use crate::bmc::frame::Encoding;
use crate::bmc::transys::Transys;
use crate::engine::finish::{self, Findings};
use crate::engine::{Control, Engine, Outcome, Problem};
use crate::sat::SolverKind;
use crate::verdict::SizeReport;
use std::time::Instant;

/// IC3 with its settings.
#[derive(Clone, Debug)]
pub struct Ic3Engine {
    pub solver: SolverKind,
    /// Symmetric lemma orbits (fully symmetric families only).
    pub symmetry: bool,
}

impl Ic3Engine {
    /// Run IC3 on the problem, every (property, size) of `skip` already answered.
    pub fn findings(
        &self,
        p: &Problem,
        ctl: &Control,
        skip: &[(Option<usize>, usize)],
    ) -> Result<Findings, String> {
        let mut ts = Transys::new(p.model, p.min, p.max, Encoding::Binary);
        let opts = Ic3Options {
            solver: self.solver,
            props: p.props.clone(),
            symmetry: self.symmetry,
            ctg: true,
            stop: ctl.sat_stop(),
            max_memory: ctl.max_memory,
            progress: ctl.progress,
            exclude: skip.to_vec(),
            max_frames: None,
        };
        let out = prove(&mut ts, &opts)?;
        let sym = self.symmetry && p.model.is_symmetric() && p.max > 1;
        Ok(Findings {
            cexs: out.cexs.iter().map(|c| (c.key, c.width, c.depth)).collect(),
            invariant: out.invariant.map(|inv| {
                (
                    inv.iter().map(|l| l.to_cert(&ts, (p.min, p.max))).collect(),
                    1,
                    false,
                )
            }),
            limit: out.limit,
            symmetry: sym,
            proof_depth: Some(out.stats.frames),
            ..Findings::default()
        })
    }
}

impl Engine for Ic3Engine {
    fn name(&self) -> &'static str {
        "ic3"
    }

    fn describe(&self, p: &Problem) -> String {
        format!(
            "IC3 / property-directed reachability ({}{}){}; invariants checked independently",
            self.solver.name(),
            if self.symmetry && p.model.is_symmetric() {
                ", symmetric lemma orbits"
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
        let f = self.findings(p, ctl, &[])?;
        let limit = f.limit;
        let (reports, certificate) =
            finish::conclude(p, ctl, "ic3", self.solver, f, start.elapsed().as_secs_f64())?;
        for r in reports {
            report(r);
        }
        Ok(Outcome {
            limit,
            certificate,
            aggregate: p.max > p.min,
            notes: Vec::new(),
        })
    }
}
