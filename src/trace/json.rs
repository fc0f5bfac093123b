//! Traces as JSON (`schema::TraceDoc`, `schema::TrailDoc`): the documents `--json`
//! prints, and standalone trail files that `nfold replay` reads back.

use super::{RangeSite, Trace, Violation, cells, changes, violation_text};
use crate::model::eval::Step;
use crate::model::instance::{Instance, State};
use crate::model::ir::Model;
use crate::schema::{CellValue, SCHEMA_VERSION, SiteDoc, StepDoc, Tool, TraceDoc, TrailDoc};
use std::collections::BTreeMap;
use std::path::Path;

/// Cell names and values as a JSON object (numbers as numbers).
pub fn cells_doc(pairs: Vec<(String, String)>) -> BTreeMap<String, CellValue> {
    pairs
        .into_iter()
        .map(|(c, v)| (c, CellValue::of(v)))
        .collect()
}

/// A recorded object of cells as the interpreter's names of their values.
pub fn cells_text(doc: &BTreeMap<String, CellValue>) -> BTreeMap<String, String> {
    doc.iter().map(|(c, v)| (c.clone(), v.text())).collect()
}

/// The steps of a run as JSON, step k from `states[k]` to `states[k + 1]`.
pub fn steps_doc(model: &Model, inst: &Instance, steps: &[Step], states: &[State]) -> Vec<StepDoc> {
    steps
        .iter()
        .enumerate()
        .map(|(k, s)| step_doc(model, inst, s, &states[k], &states[k + 1]))
        .collect()
}

/// One step from `before` to `after` as JSON: `{"transition", "params", "process",
/// "choices", "changes"}`.
fn step_doc(model: &Model, inst: &Instance, step: &Step, before: &[i64], after: &[i64]) -> StepDoc {
    StepDoc {
        transition: model.transitions[step.trans].name.clone(),
        params: step.params.clone(),
        process: step.params.first().copied(),
        choices: step.choices.clone(),
        changes: Some(cells_doc(changes(inst, before, after))),
        in_cycle: None,
    }
}

/// The trace as JSON (`schema::TraceDoc`): `{"init": {cell: value}, "steps":
/// [{"transition", "params", "process", "choices", "changes"}], "violation": text,
/// "kind": "unsafe" | "invariant" | "deadlock" | "range_error" | "int_bound",
/// "processes": the property's witness (or null), "property", "site"}`.
pub fn to_doc(model: &Model, trace: &Trace, states: &[State]) -> TraceDoc {
    let inst = Instance::new(model, trace.size);
    let steps = steps_doc(model, &inst, &trace.steps, states);
    let kind = match &trace.violation {
        Violation::Unsafe { prop, .. } => model.unsafes[*prop].kind.keyword(),
        v => v.kind_name(),
    };
    let processes = match &trace.violation {
        Violation::Unsafe { tuple, .. } => Some(tuple.clone()),
        _ => None,
    };
    let property = match &trace.violation {
        Violation::Unsafe { prop, .. }
        | Violation::Range {
            site: RangeSite::Property(prop),
            ..
        } => Some(model.unsafes[*prop].name.clone()),
        Violation::Range {
            site: RangeSite::Ltl { prop, .. },
            ..
        } => Some(model.ltls[*prop].name.clone()),
        _ => None,
    };
    let site = match &trace.violation {
        Violation::Range { site, .. } => Some(site_doc(model, site)),
        Violation::IntBound { trans, params, .. } => Some(site_doc(
            model,
            &RangeSite::Transition {
                trans: *trans,
                params: params.clone(),
            },
        )),
        _ => None,
    };
    TraceDoc {
        kind: Some(kind.to_string()),
        init: cells_doc(cells(&inst, &trace.init)),
        steps,
        violation: Some(violation_text(model, &trace.violation)),
        processes,
        property,
        site,
        ..TraceDoc::empty()
    }
}

/// A run that ends without a violation (a simulation stopped after its steps), in the
/// shape of a trace: `kind` `run`, no violation, property or site.
pub fn run_doc(model: &Model, size: usize, steps: &[Step], states: &[State]) -> TraceDoc {
    let inst = Instance::new(model, size);
    let steps = steps_doc(model, &inst, steps, states);
    TraceDoc {
        kind: Some("run".into()),
        init: cells_doc(cells(&inst, &states[0])),
        steps,
        ..TraceDoc::empty()
    }
}

/// Where a range error happened, as JSON: `{"init": true}`, `{"transition", "params"}`,
/// `{"unsafe": name}` or `{"ltl": name, "process"}`.
pub fn site_doc(model: &Model, site: &RangeSite) -> SiteDoc {
    match site {
        RangeSite::Init => SiteDoc {
            init: Some(true),
            ..SiteDoc::default()
        },
        RangeSite::Transition { trans, params } => SiteDoc {
            transition: Some(model.transitions[*trans].name.clone()),
            params: Some(params.clone()),
            ..SiteDoc::default()
        },
        RangeSite::Property(p) => SiteDoc {
            unsafe_prop: Some(model.unsafes[*p].name.clone()),
            ..SiteDoc::default()
        },
        RangeSite::Ltl { prop, process } => SiteDoc {
            ltl: Some(model.ltls[*prop].name.clone()),
            process: *process,
            ..SiteDoc::default()
        },
    }
}

/// A counterexample as a standalone document (`schema::TrailDoc`): the model's file
/// name, the size, the number of values of each abstract type (only for models with
/// abstract types), the int window (only for models with ints), and the trace or lasso.
/// `nfold replay` reads it back.
pub fn trail_doc(model: &Model, size: usize, trace: TraceDoc) -> TrailDoc {
    TrailDoc {
        schema: Some(SCHEMA_VERSION),
        tool: Some(Tool::this()),
        model: Some(model.source.name.clone()),
        size: size as i64,
        data_values: (!model.data_types.is_empty()).then(|| {
            model
                .data_types
                .iter()
                .map(|d| (d.name.clone(), d.values))
                .collect()
        }),
        int_range: model.int_window.as_ref().map(|w| (w.lo, w.hi)),
        trace,
    }
}

/// Write a JSON document to a file (pretty, with a final newline).
pub fn write_json(path: &Path, doc: &impl serde::Serialize) -> Result<(), String> {
    let mut text = serde_json::to_string_pretty(doc).map_err(|e| e.to_string())?;
    text.push('\n');
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Save one trace as a standalone JSON file (`trail_json`): the trace is replayed on the
/// reference interpreter first, and a trace that does not replay is not written.
/// `nfold replay MODEL FILE` re-runs the file on a (possibly changed) model.
pub fn save(model: &Model, trace: &Trace, path: impl AsRef<Path>) -> Result<(), String> {
    let states = trace
        .replay(model)
        .map_err(|e| format!("the trace does not replay, not saved: {e}"))?;
    let doc = trail_doc(model, trace.size, to_doc(model, trace, &states));
    write_json(path.as_ref(), &doc)
}
