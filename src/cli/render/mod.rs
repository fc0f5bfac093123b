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

use crate::model::ir::Model;
pub(crate) use crate::run::{Run, real_violation};
use crate::verdict::{PropId, PropResult};

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
