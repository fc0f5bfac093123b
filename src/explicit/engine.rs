//! The explicit breadth-first search as an engine of the command line: one exhaustive
//! search per size, stopping at the first limit.

use super::reach::{self, ReachOptions};
use crate::engine::{Control, Engine, Outcome, Presentation, Problem};
use crate::verdict::SizeReport;

/// Explicit search with its settings (limits and interrupt come from the `Control`).
#[derive(Clone, Debug, Default)]
pub struct ExplicitEngine {
    /// Reduce by symmetry (honoured for fully symmetric families only).
    pub symmetry: bool,
    /// Store states up to their dead cells (`model::dead`).
    pub dead_cells: bool,
    /// Report reachable deadlocks.
    pub deadlock: bool,
    pub max_states: Option<usize>,
}

impl Engine for ExplicitEngine {
    fn name(&self) -> &'static str {
        "explicit"
    }

    fn presentation(&self) -> Presentation {
        Presentation {
            symmetry: "reduction",
            data_symmetry: Some(""),
            count: "states",
            size_by_size: true,
            dead_cells: self.dead_cells,
        }
    }

    fn describe(&self, _p: &Problem) -> String {
        "explicit breadth-first search (exhaustive)".to_string()
    }

    fn check(
        &self,
        p: &Problem,
        ctl: &Control,
        report: &mut dyn FnMut(SizeReport),
    ) -> Result<Outcome, String> {
        let opts = ReachOptions {
            symmetry: self.symmetry,
            dead_cells: self.dead_cells,
            deadlock: self.deadlock,
            props: Some(p.props.clone()),
            max_states: self.max_states,
            max_memory: ctl.max_memory,
            deadline: ctl.deadline,
            stop: ctl.stop.clone(),
            progress: ctl.progress,
            coverage: true,
        };
        for n in p.sizes() {
            let r: SizeReport = reach::check_size(p.model, n, &opts).into();
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
