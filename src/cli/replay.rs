//! `nfold replay MODEL FILE`: re-run a saved counterexample (a trail) on a model, step
//! by step on the reference interpreter, and say where it stops matching if the model
//! changed.

use super::traces::{TraceFormat, render_lasso, render_run, render_trace};
use super::{EXIT_OK, EXIT_USAGE, EXIT_VIOLATION, load, parse_data_values, parse_size};
use crate::lasso;
use crate::model::ir::Model;
use crate::schema::{MismatchDoc, ReplayDoc, SCHEMA_VERSION, Tool};
use crate::trace;
use crate::trail::{self, Ending, Pick, Place, Replay, Trail};
use clap::Args;

pub(crate) const AFTER_HELP: &str = "\
FILE is a trail saved by --trace-out (check, live, simulate), the output of `nfold \
simulate --json`, the whole output of `nfold check --json` or `nfold live --json` (one \
of its counterexamples, chosen with --size and --property when it has several), or a \
bare trace object (with --size). Each step must name a transition of the model with \
process ids of the size, be enabled in the state reached so far, allow the recorded \
choices of its nondeterministic updates, and change exactly the recorded cells to the \
recorded values; the last state must still show the recorded violation (for a lasso: \
the cycle closes, the run violates the `ltl` property, and it is weakly fair when \
recorded so).

Exit codes: 0 the trail replays and ends in the recorded violation (for a simulated run \
without violation: every step replays); 1 the trail no longer matches the model (the \
output says at which step and why); 2 usage or input error (unreadable or malformed \
model or trail).";

#[derive(Args, Debug)]
pub(crate) struct ReplayArgs {
    /// The model file (.cub) to replay on.
    model: String,
    /// The trail (JSON).
    file: String,
    /// For a `check`/`live` document: take the counterexample at this size; for a bare
    /// trace: its size.
    #[arg(long, value_name = "N", value_parser = parse_size)]
    size: Option<usize>,
    /// For a `check`/`live` document: take the counterexample of this property.
    #[arg(long, value_name = "NAME")]
    property: Option<String>,
    /// The number of values of every abstract type (default: as recorded in the trail,
    /// else chosen from the model).
    #[arg(long, value_name = "D", value_parser = parse_data_values)]
    data_values: Option<usize>,
    /// The window over which `int` is checked (default: derived from the model, or as recorded in the trail).
    #[arg(long, value_name = "LO..HI", value_parser = super::parse_int_range, allow_hyphen_values = true)]
    int_range: Option<(i64, i64)>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
    /// How the replayed run is printed: `text` (a line per step) or `table` (processes ×
    /// steps).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = TraceFormat::Text)]
    trace_format: TraceFormat,
}

/// The number of values recorded for the abstract types, when they all agree.
pub(crate) fn recorded_data_values(t: &Trail) -> Option<usize> {
    let m = t.data_values.as_ref()?;
    let first = *m.values().next()?;
    m.values().all(|&d| d == first).then_some(first)
}

/// Read a trail and load the model it is replayed on (with the trail's number of data
/// values and int window unless given); errors are printed and give the exit code.
pub(crate) fn load_with_trail(
    model_path: &str,
    trail_path: &str,
    pick: &Pick,
    data_values: Option<usize>,
    int_range: Option<(i64, i64)>,
) -> Result<(Model, Trail), i32> {
    if trail_path.ends_with(".cub") && !model_path.ends_with(".cub") {
        return Err(super::usage(&format!(
            "the arguments look swapped: the model comes first, then the trail \
             (`nfold replay {trail_path} {model_path}`)"
        )));
    }
    // A model (or any text) given where the trail goes: say so, not where JSON failed.
    let json_like = std::fs::read(trail_path)
        .map(|b| {
            matches!(
                b.iter().find(|c| !c.is_ascii_whitespace()),
                Some(b'{' | b'[')
            )
        })
        .unwrap_or(true);
    if !json_like {
        let what = if trail_path.ends_with(".cub") {
            "is a model file (.cub)"
        } else {
            "is not a JSON document"
        };
        return Err(super::usage(&format!(
            "the trail `{trail_path}` {what}: `nfold replay MODEL TRAIL` takes as TRAIL the JSON written by --trace-out or --json"
        )));
    }
    let t = match trail::read(trail_path, pick) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return Err(EXIT_USAGE);
        }
    };
    let model = load(
        model_path,
        data_values.or_else(|| recorded_data_values(&t)),
        int_range.or(t.int_range),
    )?;
    Ok((model, t))
}

/// Run `nfold replay`; returns the exit code.
pub(crate) fn replay(a: ReplayArgs) -> i32 {
    let pick = Pick {
        size: a.size,
        property: a.property.clone(),
    };
    let (model, t) = match load_with_trail(&a.model, &a.file, &pick, a.data_values, a.int_range) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let r = trail::replay(&model, &t);
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json_doc(&model, &t, &r)).unwrap_or_default()
        );
    } else {
        print!("{}", text(&model, &t, &r, a.trace_format));
    }
    if r.outcome.is_ok() {
        EXIT_OK
    } else {
        EXIT_VIOLATION
    }
}

fn text(model: &Model, t: &Trail, r: &Replay, f: TraceFormat) -> String {
    let mut out = format!(
        "model     {}\ntrail     {}{}, size {}: {}\n\n",
        model.source.name,
        t.file,
        t.model
            .as_ref()
            .map(|m| format!(" (recorded on {m})"))
            .unwrap_or_default(),
        t.size,
        t.summary()
    );
    let steps = t.trace.steps.len();
    match &r.outcome {
        Ok(Ending::Trace(tr)) => {
            out.push_str(&render_trace(model, tr, &r.states, f));
            out.push_str(&format!(
                "\nreplayed: all {steps} steps match the model and the last state shows the recorded violation\n"
            ));
        }
        Ok(Ending::Lasso(l)) => {
            out.push_str(&render_lasso(model, l, &r.states, f));
            out.push_str(&format!(
                "\nreplayed: all {steps} steps match the model, the cycle closes and the run violates {}{}\n",
                lasso::property_text(model, l.prop, l.process),
                if l.fair { " under weak fairness" } else { "" }
            ));
        }
        Ok(Ending::Run) => {
            out.push_str(&render_run(model, r.size, &r.steps, &r.states, f));
            out.push_str(&format!(
                "\nreplayed: all {steps} steps match the model (the trail records no violation)\n"
            ));
        }
        Err(m) => {
            if !r.states.is_empty() {
                out.push_str(&render_run(model, r.size, &r.steps, &r.states, f));
                out.push('\n');
            }
            out.push_str(&format!(
                "the trail no longer matches the model at {}\n",
                m.text(steps)
            ));
            if m.place != Place::Init {
                out.push_str(&format!(
                    "({} of {} steps replayed)\n",
                    r.steps.len(),
                    steps
                ));
            }
        }
    }
    out
}

fn json_doc(model: &Model, t: &Trail, r: &Replay) -> ReplayDoc {
    let steps = t.trace.steps.len();
    let trace = match &r.outcome {
        Ok(Ending::Trace(tr)) => Some(trace::to_doc(model, tr, &r.states)),
        Ok(Ending::Lasso(l)) => Some(lasso::to_doc(model, l, &r.states)),
        _ if r.states.is_empty() => None,
        _ => Some(trace::run_doc(model, r.size, &r.steps, &r.states)),
    };
    let mismatch = r.outcome.as_ref().err().map(|m| MismatchDoc {
        at: match m.place {
            Place::Init => "init",
            Place::Step(_) => "step",
            Place::End => "end",
        }
        .into(),
        step: match m.place {
            Place::Step(k) => Some(k),
            _ => None,
        },
        transition: m.label.clone(),
        reason: m.reason.clone(),
        text: m.text(steps),
    });
    ReplayDoc {
        schema: SCHEMA_VERSION,
        tool: Tool::this(),
        model: model.source.name.clone(),
        trail: t.file.clone(),
        recorded_model: t.model.clone(),
        size: t.size,
        kind: match t.kind {
            trail::Kind::Unsafe if t.trace.kind.as_deref() == Some("invariant") => "invariant",
            trail::Kind::Unsafe => "unsafe",
            trail::Kind::Deadlock => "deadlock",
            trail::Kind::Range => "range_error",
            trail::Kind::IntBound => "int_bound",
            trail::Kind::Lasso => "lasso",
            trail::Kind::Run => "run",
        }
        .into(),
        matches: r.outcome.is_ok(),
        steps,
        steps_replayed: r.steps.len(),
        mismatch,
        trace,
    }
}
