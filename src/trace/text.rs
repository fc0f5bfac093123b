//! Traces as text: step labels, cells as `name=value`, state summaries, the violation
//! line, and a run as indented lines (the default output of `check` and `simulate`).

use super::{RangeSite, Trace, Violation};
use crate::model::eval::Step;
use crate::model::instance::{Instance, State};
use crate::model::ir::{Model, PropKind};

/// `name(p1,p2)`, with nondeterministic choices as `[X:=v]`.
pub fn step_label(model: &Model, step: &Step) -> String {
    let t = &model.transitions[step.trans];
    let ps: Vec<String> = step.params.iter().map(|p| p.to_string()).collect();
    format!("{}({})", t.name, ps.join(","))
}

/// The values a step's nondeterministic updates chose, as `X:=v` in update order
/// (`A:=v` for `A[i] := .`, a process id for `any`).
pub fn choices_text(inst: &Instance, trans: usize, choices: &[i64]) -> String {
    use crate::model::ir::UpdValue;
    let model = inst.model;
    let nondet = model.transitions[trans]
        .updates
        .iter()
        .filter(|u| !matches!(u.value, UpdValue::Term(_)));
    let parts: Vec<String> = nondet
        .zip(choices)
        .map(|(u, &c)| {
            let v = &model.vars[u.var];
            let value = match u.value {
                UpdValue::Any { .. } => c.to_string(),
                _ => inst.value_name(v.ty, c),
            };
            format!("{}:={value}", v.name)
        })
        .collect();
    parts.join(" ")
}

/// The cells that differ between two states, as `name=value`.
pub fn changes(inst: &Instance, a: &[i64], b: &[i64]) -> Vec<(String, String)> {
    (0..a.len())
        .filter(|&s| a[s] != b[s])
        .map(|s| (inst.cell_name(s), inst.slot_value_name(s, b[s])))
        .collect()
}

/// Every cell of a state, as `name=value`.
pub fn cells(inst: &Instance, st: &[i64]) -> Vec<(String, String)> {
    (0..st.len())
        .map(|s| (inst.cell_name(s), inst.slot_value_name(s, st[s])))
        .collect()
}

/// One line saying what the last state violates.
pub fn violation_text(model: &Model, v: &Violation) -> String {
    match v {
        Violation::Unsafe { prop, tuple } => {
            let u = &model.unsafes[*prop];
            let names: Vec<String> = u.locals[..u.params]
                .iter()
                .zip(tuple)
                .map(|(l, p)| format!("{}={}", l.name, p))
                .collect();
            match (u.kind, names.is_empty()) {
                (PropKind::Unsafe, true) => format!("bad state: `{}`", u.name),
                (PropKind::Unsafe, false) => {
                    format!("bad state: `{}` with {}", u.name, names.join(", "))
                }
                (PropKind::Invariant, true) => format!(
                    "invariant `{}` broken: this state has its formula (claimed unreachable)",
                    u.name
                ),
                (PropKind::Invariant, false) => format!(
                    "invariant `{}` broken: this state has its formula (claimed unreachable) with {}",
                    u.name,
                    names.join(", ")
                ),
            }
        }
        Violation::Deadlock => "deadlock reached: no transition is enabled".to_string(),
        Violation::Range { site, message } => match site {
            RangeSite::Init => format!("range error evaluating init: {message}"),
            RangeSite::Transition { trans, params } => {
                format!(
                    "range error in {}: {message}",
                    instance_label(model, *trans, params)
                )
            }
            RangeSite::Property(p) => {
                format!(
                    "range error evaluating {}: {}",
                    model.unsafes[*p].quoted(),
                    message
                )
            }
            RangeSite::Ltl { prop, .. } => {
                format!(
                    "range error evaluating `{}`: {}",
                    model.ltls[*prop].name, message
                )
            }
        },
        Violation::IntBound {
            trans,
            params,
            message,
        } => format!(
            "int_bound in {}: {message}",
            instance_label(model, *trans, params)
        ),
    }
}

/// A state in short form: globals as `X=v`, arrays whose cells are all equal as
/// `A[*]=v`, other arrays cell by cell.
pub fn state_summary(inst: &Instance, st: &[i64]) -> String {
    let mut parts = Vec::new();
    for (vid, l) in inst.vars.iter().enumerate() {
        let cells = l.base..l.base + l.cells;
        if inst.model.vars[vid].dims.is_empty() || l.cells == 0 {
            parts.extend(
                cells.map(|s| format!("{}={}", inst.cell_name(s), inst.slot_value_name(s, st[s]))),
            );
        } else if cells.clone().all(|s| st[s] == st[l.base]) {
            parts.push(format!(
                "{}[*]={}",
                inst.model.vars[vid].name,
                inst.slot_value_name(l.base, st[l.base])
            ));
        } else {
            parts.extend(
                cells.map(|s| format!("{}={}", inst.cell_name(s), inst.slot_value_name(s, st[s]))),
            );
        }
    }
    parts.join(" ")
}

/// The cells changed from `a` to `b` as `X=v ...`, or `(no change)`.
pub fn changes_text(inst: &Instance, a: &[i64], b: &[i64]) -> String {
    let ch: Vec<String> = changes(inst, a, b)
        .into_iter()
        .map(|(c, v)| format!("{c}={v}"))
        .collect();
    if ch.is_empty() {
        "(no change)".to_string()
    } else {
        ch.join(" ")
    }
}

/// The lines of a run without its ending: the initial state, then each step with the
/// cells it changed (`states[k]` is the state after step k, `states[0]` the initial
/// state).
pub fn render_run_text(model: &Model, size: usize, steps: &[Step], states: &[State]) -> String {
    let inst = Instance::new(model, size);
    let mut out = String::new();
    let labels: Vec<String> = steps.iter().map(|s| step_label(model, s)).collect();
    let width = labels.iter().map(|l| l.len()).max().unwrap_or(0).max(9);
    out.push_str(&format!(
        "    {:>3}  {:<width$}  {}\n",
        0,
        "(initial)",
        state_summary(&inst, &states[0])
    ));
    for (k, label) in labels.iter().enumerate() {
        let ch = changes_text(&inst, &states[k], &states[k + 1]);
        out.push_str(&format!("    {:>3}  {:<width$}  {}\n", k + 1, label, ch));
    }
    out
}

/// The trace as indented text lines: the initial state, each step with the cells it
/// changed, and the violation.
pub fn render_text(model: &Model, trace: &Trace, states: &[State]) -> String {
    let mut out = render_run_text(model, trace.size, &trace.steps, states);
    out.push_str(&format!(
        "    => {}\n",
        violation_text(model, &trace.violation)
    ));
    out
}

/// `t(1, 2)`: transition `trans` with `params`, as a step's label without choices.
fn instance_label(model: &Model, trans: usize, params: &[i64]) -> String {
    let step = Step {
        trans,
        params: params.to_vec(),
        choices: Vec::new(),
    };
    step_label(model, &step)
}
