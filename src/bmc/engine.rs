//! Bounded model checking as an engine of the command line: the sizes in one run over
//! the aggregate, or one by one. `ltl` properties are searched as the `unsafe`
//! property of their liveness product (`live::Product`): bounded lasso search on the
//! aggregate, every width at once, each lasso shortest in steps for its width
//! (product depth minus the save step) and replayed with fairness checked.

use super::driver::{self, BmcOptions};
use crate::engine::{Checked, LtlChecked, Report};
use crate::engine::{Control, Engine, Outcome, Presentation, Problem};
use crate::live::{self, LOOP_PROP, Product};
use crate::transys::frame::Encoding;

/// BMC with its settings (limits and interrupt come from the `Control`).
#[derive(Clone, Debug)]
pub struct BmcEngine {
    pub opts: BmcOptions,
    /// Each size separately instead of one aggregate run.
    pub one_by_one: bool,
}

impl BmcEngine {
    fn options(&self, p: &Problem, ctl: &Control) -> BmcOptions {
        BmcOptions {
            props: Some(p.props.clone()),
            deadline: ctl.deadline,
            stop: ctl.stop.clone(),
            max_memory: ctl.max_memory,
            memory: ctl.memory.clone(),
            progress: ctl.progress,
            ..self.opts.clone()
        }
    }
}

impl Engine for BmcEngine {
    fn name(&self) -> &'static str {
        "sat"
    }

    fn presentation(&self, _p: &Problem) -> Presentation {
        Presentation::new("lex-leader symmetry breaking", "clauses")
    }

    fn describe(&self, p: &Problem) -> String {
        format!(
            "SAT bounded model checking up to depth {} ({}, {} encoding{})",
            self.opts.depth,
            self.opts.solver.name(),
            match self.opts.encoding {
                Encoding::Binary => "binary",
                Encoding::OneHot => "one-hot",
            },
            if p.max > p.min && !self.one_by_one {
                if driver::splits_by_width(p.model, p.min, p.max, &self.opts) {
                    format!(
                        ", sizes {}..{} in one run, width by width (the encoding depends on N)",
                        p.min, p.max
                    )
                } else {
                    p.aggregate_text()
                }
            } else if p.max > p.min {
                ", each size separately".to_string()
            } else {
                String::new()
            }
        )
    }

    fn answers(&self) -> crate::engine::Answers {
        crate::engine::Answers::BOTH
    }

    /// Bounded lasso search for `ltl` property `k`: BMC on its product one step deeper
    /// than the depth (the save step), so that every lasso of at most `depth` steps is
    /// covered.
    fn check_ltl(&self, p: &Problem, ctl: &Control, k: usize) -> LtlChecked {
        let prod = Product::new(p.model, k, p.fair)?;
        let pp = Problem::new(&prod.model, p.min, p.max, vec![LOOP_PROP]);
        let deeper = BmcEngine {
            opts: BmcOptions {
                depth: self.opts.depth + 1,
                ..self.opts.clone()
            },
            one_by_one: self.one_by_one,
        };
        let mut reports = Vec::new();
        let out = deeper.check_safety(&pp, ctl, &mut |r| reports.push(r))?;
        let reports = reports
            .into_iter()
            .map(|r| live::translate(p.model, &prod, r))
            .collect();
        Ok((reports, out))
    }

    /// BMC of the problem's `unsafe` properties (and range errors).
    fn check_safety(&self, p: &Problem, ctl: &Control, report: Report) -> Checked {
        let opts = self.options(p, ctl);
        if p.max > p.min && !self.one_by_one {
            // The build of a large aggregate polls no limit: waited for until it.
            let (m, lo, hi, o) = (p.model.clone(), p.min, p.max, opts.clone());
            let job = move || driver::check_aggregate(&m, lo, hi, &o);
            let Some(r) = crate::cores::until_stopped(&|| ctl.users_limit().is_some(), job) else {
                return Ok(Outcome {
                    limit: ctl.users_limit(),
                    aggregate: true,
                    ..Outcome::default()
                });
            };
            let r = r?;
            let limit = r.reports.iter().find_map(|x| x.limit);
            for rep in r.reports {
                report(rep);
            }
            let notes = if r.split {
                vec![format!(
                    "sizes {}..{} were checked width by width, each on its own formula: the aggregate's encoding has a case per width (`N` in a formula or a range over `N`), where one formula measured slower; --whole-aggregate keeps one formula",
                    p.min, p.max
                )]
            } else {
                Vec::new()
            };
            return Ok(Outcome {
                limit,
                aggregate: true,
                per_width: r.split,
                notes,
                ..Outcome::default()
            });
        }
        for n in p.sizes() {
            let r = driver::check_size(p.model, n, &opts)?.report;
            let limit = r.limit;
            report(r);
            if limit.is_some() {
                return Ok(Outcome {
                    limit,
                    ..Outcome::default()
                });
            }
        }
        Ok(Outcome::default())
    }
}
