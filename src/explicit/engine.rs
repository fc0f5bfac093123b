//! The explicit breadth-first search as an engine of the command line: one exhaustive
//! search per size, stopping at the first limit.

use super::reach::{self, ReachOptions, StoreKind};
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
    /// How states are stored (`StoreKind::Exact` unless hunting bugs).
    pub store: StoreKind,
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
            threads: ctl.threads,
            store: self.store,
        };
        let mut notes = Vec::new();
        for n in p.sizes() {
            let r: SizeReport = reach::check_size(p.model, n, &opts).into();
            let limit = r.limit;
            if let Some(note) = omission_note(self.store, &r) {
                notes.push(note);
            }
            report(r);
            if limit.is_some() {
                return Ok(Outcome {
                    limit,
                    notes,
                    ..Outcome::default()
                });
            }
        }
        Ok(Outcome {
            notes,
            ..Outcome::default()
        })
    }
}

/// The note under a size answered `none found*` by a store that may miss states: how
/// the states were stored and the probability that one was missed (`reach::StoreKind`).
fn omission_note(store: StoreKind, r: &SizeReport) -> Option<String> {
    let p = r.stats.omission_probability?;
    if !r
        .results
        .iter()
        .any(|x| x.verdict.kind() == crate::verdict::Kind::Incomplete)
    {
        return None;
    }
    let how = match store {
        StoreKind::Exact => return None,
        StoreKind::HashCompact => "hash compaction (64-bit signatures)".to_string(),
        StoreKind::Bitstate { log_bits } => format!(
            "bitstate hashing (2^{log_bits} bits, {} bits a state)",
            crate::explicit::store::BitArray::PROBES
        ),
    };
    Some(format!(
        "* size {}: no violation found by a partial search of {} states by {how}; the probability that it missed a reachable state is at most about {p:.1e} (see docs/engines.md): not a proof",
        r.size,
        r.stats.states.unwrap_or(0),
    ))
}
