//! Trace output options shared by the commands that print counterexamples
//! (`--trace-format text|table`, `--trace-out FILE`) and the rendering they select.

use crate::lasso::{self, Lasso};
use crate::model::instance::State;
use crate::model::ir::Model;
use crate::trace::{self, Trace};
use crate::verdict::Counterexample;
use clap::{Args, ValueEnum};

/// How a trace is printed.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum TraceFormat {
    /// One line per step: the transition and the cells it changed.
    #[default]
    Text,
    /// A table of processes × steps: one column per process (its transitions and the
    /// cells it owns) and one for the other cells, one row per step.
    Table,
}

/// `--trace-format` and `--trace-out`.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct TraceArgs {
    /// How traces are printed: `text` (a line per step) or `table` (processes × steps).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = TraceFormat::Text)]
    pub trace_format: TraceFormat,
    /// Save the first counterexample (for `simulate`, the run) as a standalone JSON
    /// trail in FILE (`nfold replay MODEL FILE` re-runs it on the model, `nfold dot
    /// --trace FILE` draws it).
    #[arg(long, value_name = "FILE")]
    pub trace_out: Option<String>,
}

/// A trace (its replayed states given) in the chosen format.
pub(crate) fn render_trace(model: &Model, t: &Trace, states: &[State], f: TraceFormat) -> String {
    match f {
        TraceFormat::Text => trace::render_text(model, t, states),
        TraceFormat::Table => trace::render_table(model, t, states),
    }
}

/// A lasso (its replayed states given) in the chosen format.
pub(crate) fn render_lasso(model: &Model, l: &Lasso, states: &[State], f: TraceFormat) -> String {
    match f {
        TraceFormat::Text => lasso::render_text(model, l, states),
        TraceFormat::Table => lasso::render_table(model, l, states),
    }
}

/// A run's steps without its ending, in the chosen format.
pub(crate) fn render_run(
    model: &Model,
    size: usize,
    steps: &[crate::model::eval::Step],
    states: &[State],
    f: TraceFormat,
) -> String {
    match f {
        TraceFormat::Text => trace::render_run_text(model, size, steps, states),
        TraceFormat::Table => trace::render_run_table(model, size, steps, states, &[]),
    }
}

/// `--trace-out FILE` for a command that found these counterexamples (size, property
/// name, counterexample), in the order they are reported: saves the first (`trace::save`
/// or `lasso::save`) and says so on stderr, or says that none was found (the file is
/// then left alone).
pub(crate) fn save_first<'a>(
    model: &Model,
    found: impl IntoIterator<Item = (usize, &'a str, &'a Counterexample)>,
    path: &str,
) -> Result<(), String> {
    match found.into_iter().next() {
        Some((size, name, c)) => {
            let what = match c {
                Counterexample::Trace(t) => {
                    trace::save(model, t, path)?;
                    format!("`{name}`")
                }
                Counterexample::Lasso(l) => {
                    lasso::save(model, l, path)?;
                    lasso::property_text(model, l.prop, l.process)
                }
            };
            eprintln!(
                "nfold: counterexample for {what} at size {size} saved to {path} (`nfold replay` re-runs it)"
            );
        }
        None => eprintln!("nfold: no counterexample found: {path} not written"),
    }
    Ok(())
}
