//! Counterexamples: an initial state, the steps fired and what goes wrong at the end.
//! Every trace any engine reports is replayed here on the reference interpreter of the
//! unreduced instance before it is printed; rendering to text and JSON lives here too.

use crate::model::eval::{self, Fire, Step};
use crate::model::instance::{Instance, State};
use crate::model::ir::{Model, PropKind};
use serde_json::{Value, json};

/// Where a range error happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RangeSite {
    /// Evaluating `init` on the first state (which is then not an initial state).
    Init,
    /// Trying this transition instance on the last state.
    Transition { trans: usize, params: Vec<i64> },
    /// Evaluating this `unsafe` property on the last state.
    Property(usize),
    /// Evaluating an atom of this `ltl` property (for this process) on the last state.
    Ltl { prop: usize, process: Option<i64> },
}

/// What the last state of a trace violates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// The property's body holds for these pairwise distinct processes.
    Unsafe { prop: usize, tuple: Vec<i64> },
    /// No transition instance is enabled.
    Deadlock,
    /// A value or index out of range.
    Range { site: RangeSite, message: String },
}

/// A finite counterexample at one size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub size: usize,
    pub init: State,
    pub steps: Vec<Step>,
    pub violation: Violation,
}

impl Trace {
    /// Number of steps.
    pub fn depth(&self) -> usize {
        self.steps.len()
    }

    /// Replay on the reference interpreter of the unreduced instance: the first state
    /// must be initial, every step enabled with the recorded choices, and the last
    /// state must show the violation. Returns every state of the run.
    pub fn replay(&self, model: &Model) -> Result<Vec<State>, String> {
        let inst = Instance::new(model, self.size);
        let init_ok = eval::satisfies_init(&inst, &self.init);
        match (&self.violation, init_ok) {
            (
                Violation::Range {
                    site: RangeSite::Init,
                    ..
                },
                Err(_),
            ) => {
                return if self.steps.is_empty() {
                    Ok(vec![self.init.clone()])
                } else {
                    Err("an init range error has no steps".into())
                };
            }
            (
                Violation::Range {
                    site: RangeSite::Init,
                    ..
                },
                Ok(_),
            ) => {
                return Err("evaluating init on the first state raises no range error".into());
            }
            (_, Ok(true)) => {}
            (_, Ok(false)) => return Err("the first state is not an initial state".into()),
            (_, Err(e)) => return Err(format!("evaluating init on the first state: {e}")),
        }
        let states = replay_steps(&inst, &self.init, &self.steps)?;
        let last = states.last().unwrap();
        match &self.violation {
            Violation::Unsafe { prop, tuple } => {
                let u = &model.unsafes[*prop];
                let mut sorted = tuple.clone();
                sorted.sort_unstable();
                sorted.dedup();
                if tuple.len() != u.params
                    || sorted.len() != tuple.len()
                    || tuple.iter().any(|&p| p < 1 || p as usize > self.size)
                {
                    return Err("the witness is not a tuple of distinct processes".into());
                }
                let mut env = vec![0; u.locals.len().max(tuple.len())];
                env[..tuple.len()].copy_from_slice(tuple);
                match eval::eval(&inst, last, &mut env, &u.body) {
                    Ok(v) if v != 0 => {}
                    Ok(_) => return Err(format!("`{}` does not hold in the last state", u.name)),
                    Err(e) => return Err(format!("evaluating `{}`: {e}", u.name)),
                }
            }
            Violation::Deadlock => {
                if !eval::is_deadlock(&inst, last) {
                    return Err("the last state is not a deadlock".into());
                }
            }
            Violation::Range { site, .. } => match site {
                RangeSite::Init => return Err("an init range error has no run".into()),
                RangeSite::Transition { trans, params } => {
                    if !matches!(eval::fire(&inst, last, *trans, params), Fire::Error(_)) {
                        return Err("the transition raises no range error in the last state".into());
                    }
                }
                RangeSite::Property(p) => {
                    if eval::violation(&inst, last, &model.unsafes[*p]).is_ok() {
                        return Err("the property raises no range error in the last state".into());
                    }
                }
                RangeSite::Ltl { prop, process } => {
                    if ltl_atoms_error(&inst, last, *prop, *process).is_none() {
                        return Err("the property raises no range error in the last state".into());
                    }
                }
            },
        }
        Ok(states)
    }
}

/// The first range error met evaluating the atoms of `ltl` property `prop` (for
/// `process`) on a state, if any.
pub fn ltl_atoms_error(
    inst: &Instance,
    st: &[i64],
    prop: usize,
    process: Option<i64>,
) -> Option<eval::EvalError> {
    let l = &inst.model.ltls[prop];
    let mut atoms = Vec::new();
    crate::ltl::formula::from_ir(&l.body, &mut atoms);
    let mut env = vec![0i64; l.locals.len().max(1)];
    atoms.iter().find_map(|a| {
        if let Some(p) = process {
            env[0] = p;
        }
        eval::eval(inst, st, &mut env, a).err()
    })
}

/// The states that `steps` pass through from `init` on the interpreter of `inst`
/// (`init` first), or which step is not enabled or faults.
pub fn replay_steps(inst: &Instance, init: &[i64], steps: &[Step]) -> Result<Vec<State>, String> {
    let mut states = vec![init.to_vec()];
    for (k, step) in steps.iter().enumerate() {
        let last = states.last().unwrap();
        match eval::apply(inst, last, step) {
            Ok(Some(next)) => states.push(next),
            Ok(None) => {
                return Err(format!(
                    "step {} ({}) is not enabled with these choices",
                    k + 1,
                    step_label(inst.model, step)
                ));
            }
            Err(e) => return Err(format!("step {}: {}", k + 1, e)),
        }
    }
    Ok(states)
}

/// `name(p1,p2)`, with nondeterministic choices as `[X:=v]`.
pub fn step_label(model: &Model, step: &Step) -> String {
    let t = &model.transitions[step.trans];
    let ps: Vec<String> = step.params.iter().map(|p| p.to_string()).collect();
    format!("{}({})", t.name, ps.join(","))
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
                    "invariant `{}` claimed unreachable: its formula holds in this state",
                    u.name
                ),
                (PropKind::Invariant, false) => format!(
                    "invariant `{}` claimed unreachable: its formula holds with {}",
                    u.name,
                    names.join(", ")
                ),
            }
        }
        Violation::Deadlock => "deadlock reached: no transition is enabled".to_string(),
        Violation::Range { site, message } => match site {
            RangeSite::Init => format!("range error evaluating init: {message}"),
            RangeSite::Transition { trans, params } => format!(
                "range error in {}: {}",
                step_label(
                    model,
                    &Step {
                        trans: *trans,
                        params: params.clone(),
                        choices: Vec::new()
                    }
                ),
                message
            ),
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

/// Cell names and values as a JSON object.
pub fn cells_json(pairs: Vec<(String, String)>) -> Value {
    Value::Object(
        pairs
            .into_iter()
            .map(|(c, v)| (c, Value::String(v)))
            .collect(),
    )
}

/// One step from `before` to `after` as JSON: `{"transition", "params", "process",
/// "choices", "changes"}`.
pub fn step_json(
    model: &Model,
    inst: &Instance,
    step: &Step,
    before: &[i64],
    after: &[i64],
) -> Value {
    json!({
        "transition": model.transitions[step.trans].name,
        "params": step.params,
        "process": step.params.first(),
        "choices": step.choices,
        "changes": cells_json(changes(inst, before, after)),
    })
}

/// The trace as indented text lines: the initial state, each step with the cells it
/// changed, and the violation.
pub fn render_text(model: &Model, trace: &Trace, states: &[State]) -> String {
    let inst = Instance::new(model, trace.size);
    let mut out = String::new();
    let init = state_summary(&inst, &trace.init);
    let labels: Vec<String> = trace.steps.iter().map(|s| step_label(model, s)).collect();
    let width = labels.iter().map(|l| l.len()).max().unwrap_or(0).max(9);
    out.push_str(&format!(
        "    {:>3}  {:<width$}  {}\n",
        0, "(initial)", init
    ));
    for (k, label) in labels.iter().enumerate() {
        let ch = changes_text(&inst, &states[k], &states[k + 1]);
        out.push_str(&format!("    {:>3}  {:<width$}  {}\n", k + 1, label, ch));
    }
    out.push_str(&format!(
        "    => {}\n",
        violation_text(model, &trace.violation)
    ));
    out
}

/// The trace as JSON: `{"init": {cell: value}, "steps": [{"transition", "params",
/// "process", "choices", "changes"}], "violation": text, "kind": "unsafe" | "invariant" |
/// "deadlock" | "range_error", "processes": the property's witness (or null)}`.
pub fn to_json(model: &Model, trace: &Trace, states: &[State]) -> Value {
    let inst = Instance::new(model, trace.size);
    let steps: Vec<Value> = trace
        .steps
        .iter()
        .enumerate()
        .map(|(k, s)| step_json(model, &inst, s, &states[k], &states[k + 1]))
        .collect();
    let (kind, processes) = match &trace.violation {
        Violation::Unsafe { prop, tuple } => {
            (model.unsafes[*prop].kind.keyword(), Some(tuple.clone()))
        }
        Violation::Deadlock => ("deadlock", None),
        Violation::Range { .. } => ("range_error", None),
    };
    json!({
        "init": cells_json(cells(&inst, &trace.init)),
        "steps": steps,
        "violation": violation_text(model, &trace.violation),
        "kind": kind,
        "processes": processes,
    })
}
