//! IC3 as an engine of the command line: one run over the aggregate of the sizes,
//! counterexamples made shortest by BMC, the invariant certified (`engine::finish`).

use super::{Cex, Ic3Options, Ic3Outcome, houdini, prove};
use crate::bmc::driver::{self, BmcOptions};
use crate::bmc::frame::Encoding;
use crate::bmc::query::SymBreak;
use crate::bmc::transys::Transys;
use crate::engine::finish::{self, Findings};
use crate::engine::{Control, Engine, Outcome, Problem};
use crate::proof::lemma::Lemma;
use crate::sat::SolverKind;
use crate::verdict::{SizeReport, Verdict};
use std::time::Instant;

/// IC3 with its settings.
#[derive(Clone, Debug)]
pub struct Ic3Engine {
    pub solver: SolverKind,
    /// Symmetric lemma orbits (fully symmetric families only).
    pub symmetry: bool,
}

/// The smallest sizes, up to the most processes a transition or property names (at
/// least 2, at most 3), are proved first, to seed a larger range with their lemmas.
fn seed_size(m: &crate::model::ir::Model) -> usize {
    let most = m
        .transitions
        .iter()
        .map(|t| t.params)
        .chain(m.unsafes.iter().map(|u| u.params))
        .max()
        .unwrap_or(0);
    most.clamp(2, 3)
}

impl Ic3Engine {
    /// Lemmas for a range beyond `seed_size`: IC3's invariant at the small sizes, its
    /// lemmas claimed up to the largest size, filtered to an inductive subset of the
    /// full system (`houdini`). Symmetric lemmas rarely depend on the size.
    ///
    /// Also returns the depth of the deepest violation met at the small sizes, if any.
    fn seed(
        &self,
        p: &Problem,
        ctl: &Control,
        ts: &mut Transys,
    ) -> Result<(Vec<Lemma>, Option<usize>), String> {
        let seed = seed_size(p.model);
        if p.max <= seed {
            return Ok((Vec::new(), None));
        }
        // From size 1 whatever the problem's sizes: the smallest system is the cheapest
        // to prove, and its lemmas are filtered for the problem's sizes below.
        let lo = 1;
        let t0 = std::time::Instant::now();
        let mut small = Transys::new(p.model, lo, seed, Encoding::Binary);
        let out = prove(
            &mut small,
            &Ic3Options {
                solver: self.solver,
                props: p.props.clone(),
                symmetry: self.symmetry,
                ctg: true,
                stop: ctl.sat_stop(),
                max_memory: ctl.max_memory,
                progress: ctl.progress,
                exclude: Vec::new(),
                max_frames: None,
                seed: Vec::new(),
                range_atoms: true,
            },
        )?;
        let bug_depth = out.cexs.iter().map(|c| c.depth).max();
        let Some(inv) = out.invariant else {
            return Ok((Vec::new(), bug_depth));
        };
        let widened: Vec<Lemma> = inv
            .into_iter()
            .map(|mut l| {
                if l.hi == seed {
                    l.hi = p.max;
                }
                l.lo = l.lo.max(p.min);
                l
            })
            .filter(|l| l.lo <= l.hi)
            .collect();
        let sym = self.symmetry && p.model.is_symmetric() && p.max > 1;
        let (found, t1) = (widened.len(), std::time::Instant::now());
        let kept =
            houdini::houdini(ts, widened, sym, self.solver, &ctl.sat_stop())?.unwrap_or_default();
        if ctl.progress {
            eprintln!(
                "nfold: ic3 at sizes {lo}..{seed}: {found} lemmas in {:.2}s; {} of them inductive at sizes {}..{} ({:.2}s)",
                t1.duration_since(t0).as_secs_f64(),
                kept.len(),
                p.min,
                p.max,
                t1.elapsed().as_secs_f64()
            );
        }
        Ok((kept, bug_depth))
    }

    /// The violations at every size of the problem up to `depth`, by BMC on the
    /// aggregate (each shortest for its property and size): a bug of the small sizes
    /// usually recurs at the larger ones at about the same depth, where BMC finds it at
    /// every size at once, while IC3 would meet it size by size.
    fn bmc_up_to(&self, p: &Problem, ctl: &Control, depth: usize) -> Result<Vec<Cex>, String> {
        let opts = BmcOptions {
            depth,
            symbreak: if self.symmetry {
                SymBreak::WitnessLex
            } else {
                SymBreak::Off
            },
            solver: self.solver,
            props: Some(p.props.clone()),
            deadline: ctl.deadline,
            stop: ctl.stop.clone(),
            max_memory: ctl.max_memory,
            ..BmcOptions::default()
        };
        let run = driver::check_aggregate(p.model, p.min, p.max, &opts)?;
        let mut out = Vec::new();
        for r in &run.reports {
            for x in &r.results {
                if let Verdict::Violated(t) = &x.verdict {
                    out.push(Cex {
                        key: x.prop,
                        width: r.size,
                        depth: t.depth(),
                    });
                }
            }
        }
        Ok(out)
    }

    /// IC3 on the aggregate of the problem's sizes, seeded with the lemmas of the
    /// smallest sizes; every (property, size) of `skip` already answered. Returns the
    /// transition system the lemmas are over, and IC3's outcome.
    pub fn run<'m>(
        &self,
        p: &Problem<'m>,
        ctl: &Control,
        skip: &[(super::PropKey, usize)],
    ) -> Result<(Transys<'m>, Ic3Outcome), String> {
        let mut ts = Transys::new(p.model, p.min, p.max, Encoding::Binary);
        let (seed, bug_depth) = self.seed(p, ctl, &mut ts)?;
        let mut found = match bug_depth {
            Some(d) => self.bmc_up_to(p, ctl, d)?,
            None => Vec::new(),
        };
        found.retain(|c| !skip.contains(&(c.key, c.width)));
        if let (true, Some(d)) = (ctl.progress, bug_depth) {
            eprintln!(
                "nfold: bmc to depth {d} at sizes {}..{}: {} violations",
                p.min,
                p.max,
                found.len()
            );
        }
        let mut exclude = skip.to_vec();
        exclude.extend(found.iter().map(|c| (c.key, c.width)));
        let opts = Ic3Options {
            solver: self.solver,
            props: p.props.clone(),
            symmetry: self.symmetry,
            ctg: true,
            stop: ctl.sat_stop(),
            max_memory: ctl.max_memory,
            progress: ctl.progress,
            exclude,
            max_frames: None,
            seed,
            range_atoms: true,
        };
        let mut out = prove(&mut ts, &opts)?;
        out.cexs.extend(found);
        Ok((ts, out))
    }

    /// Run IC3 on the problem, every (property, size) of `skip` already answered.
    pub fn findings(
        &self,
        p: &Problem,
        ctl: &Control,
        skip: &[(super::PropKey, usize)],
    ) -> Result<Findings, String> {
        let (ts, out) = self.run(p, ctl, skip)?;
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
        if let Some(e) = crate::model::extra::unsupported(p.model, "IC3") {
            return Err(e);
        }
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
            ..Outcome::default()
        })
    }
}
