//! Rendering of runs and models for the terminal (text) and for tools (`--json`): the
//! header and table (`table`), the footer (`footer`), the JSON document (`json`), the
//! dead-code warnings (`warnings`) and `nfold info` (`info`). Nothing here names an
//! engine: each presents itself (`engine::Presentation`).

mod every;
mod footer;
mod info;
mod json;
mod table;
mod warnings;

pub use footer::footer;
pub use info::info;
pub use json::json;
pub use table::{header, rows};

use crate::cert::Certificate;
use crate::engine::Presentation;
use crate::model::ir::Model;
use crate::portfolio::every::EveryAnswers;
use crate::verdict::{Kind, Limit, PropId, PropResult, SizeReport};
pub(crate) use every::AssumedRun;
use std::sync::Arc;

/// Everything the renderer needs about a run.
pub(crate) struct Run<'a> {
    pub model: &'a Model,
    /// The engine's JSON name.
    pub engine: &'static str,
    /// One line describing the engine and its settings.
    pub engine_text: String,
    /// How the engine presents itself.
    pub presentation: Presentation,
    pub symmetry_requested: bool,
    /// The arrays whose dead cells the explicit search normalizes, described.
    pub dead_cells: Vec<String>,
    pub sizes: Vec<usize>,
    pub reports: Vec<SizeReport>,
    pub limit: Option<Limit>,
    pub seconds: f64,
    /// The sizes were answered as one aggregate.
    pub aggregate: bool,
    /// The aggregate run checked its widths one by one (`bmc::driver::check_aggregate`).
    pub per_width: bool,
    pub notes: Vec<String>,
    /// The checked certificates of the sizes proved: the `unsafe` properties' and one
    /// per `ltl` property (of its liveness product).
    pub certificates: Vec<Arc<Certificate>>,
    pub trace_format: super::traces::TraceFormat,
    /// The answers for every size, per property, when asked for (or tried by default).
    pub every: Option<EveryAnswers>,
    /// The `unsafe` properties answered again assuming the `invariant`s, when some
    /// `invariant` is not proved.
    pub assumed: Option<AssumedRun>,
    /// `--every-n` was given (an answer short of it is then not what was asked).
    pub every_requested: bool,
    /// For a run with `ltl` properties: whether only weakly fair runs count.
    pub fair: Option<bool>,
    /// The `ltl` properties of the run.
    pub ltls: Vec<usize>,
    /// Whether the ints are ranked, and why not (`model::ints::ranked`), for the header; empty
    /// for a model without ints.
    pub ints_ranked: String,
    /// What the reduction left out (`model::reduce::Plan::summary`); empty when
    /// nothing.
    pub reduced: String,
}

/// How a row names its property: `invariant NAME` for an invariant (`Unsafe::label`);
/// the absence of deadlocks as `deadlock-free` (so that `holds` reads as no deadlock);
/// the engine's name otherwise.
pub(super) fn label(m: &Model, p: &PropResult) -> String {
    match p.prop {
        PropId::Unsafe(u) => m.unsafes[u].label(),
        PropId::Deadlock => "deadlock-free".into(),
        _ => p.name.clone(),
    }
}

/// The JSON `"kind"` of a row: `unsafe`, `invariant`, `range_error` or `deadlock`.
pub(super) fn kind_name(m: &Model, p: &PropResult) -> &'static str {
    match p.prop {
        PropId::Unsafe(u) => m.unsafes[u].kind.keyword(),
        PropId::Range => "range_error",
        PropId::Deadlock => "deadlock",
        PropId::IntBound => "int_bound",
        PropId::Ltl(_) => "ltl",
    }
}

/// `ints      ...`: the int window, how it was chosen and which initial values are
/// free over it (empty for a model without ints).
/// The run's exit code (docs/cli.md, "Exit codes").
pub fn exit_code(run: &Run) -> i32 {
    let failed = run.limit.is_some() || run.reports.iter().any(|r| !r.internal_errors.is_empty());
    let code = crate::verdict::exit_code(
        run.reports
            .iter()
            .flat_map(|r| r.results.iter().map(|p| &p.verdict)),
        failed,
    );
    debug_assert_ne!(code, crate::verdict::EXIT_USAGE);
    // `--every-n` asked for a proof at every size: short of it, not what was asked.
    let short = run.every_requested && !run.every.as_ref().is_some_and(|e| e.all_proved());
    if code == crate::verdict::EXIT_OK && short {
        crate::verdict::EXIT_NOT_PROVED
    } else {
        code
    }
}

pub fn ints_line(m: &Model) -> String {
    match &m.int_window {
        Some(w) => format!("ints      {}\n", w.summary(m)),
        None => String::new(),
    }
}

/// `ints      ...`: whether the ints are replaced by their rank (empty when the model
/// has none that could be).
pub fn ranked_ints_line(run: &Run) -> String {
    if run.ints_ranked.is_empty() {
        String::new()
    } else {
        format!("ints      {}\n", run.ints_ranked)
    }
}

/// A violation of the model: any violated row but `int_bound` (leaving the int window
/// is where the check stops, not an error of the model).
pub(crate) fn real_violation(p: &crate::verdict::PropResult) -> bool {
    p.verdict.kind() == Kind::Violated && p.prop != PropId::IntBound
}
