//! Counterexamples: an initial state, the steps fired and what goes wrong at the end.
//! Every trace any engine reports is replayed here on the reference interpreter of the
//! unreduced instance before it is printed; rendering to text and JSON lives here too.

use crate::model::eval::{self, Fire, Step};
use crate::model::instance::{Instance, State};
use crate::model::ir::{Model, PropKind, Ty};
use crate::schema::{SCHEMA_VERSION, SiteDoc, StepDoc, Tool, TraceDoc, TrailDoc};
use std::collections::BTreeMap;
use std::path::Path;

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
    /// Trying this transition instance on the last state stores a value outside the
    /// int window (`int_bound`).
    IntBound {
        trans: usize,
        params: Vec<i64>,
        message: String,
    },
}

impl Violation {
    /// The pseudo-property or kind it reports: `unsafe`, `deadlock`, `range_error` or
    /// `int_bound`.
    /// The JSON kind of the violation (`unsafe` for invariant blocks too: the model
    /// knows which, see `Unsafe::kind`).
    pub fn kind_name(&self) -> &'static str {
        match self {
            Violation::Unsafe { .. } => "unsafe",
            Violation::Deadlock => "deadlock",
            Violation::Range { .. } => "range_error",
            Violation::IntBound { .. } => "int_bound",
        }
    }
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
                    match eval::fire(&inst, last, *trans, params) {
                        Fire::Error(e) if !e.is_int_bound() => {}
                        Fire::Error(_) => {
                            return Err("the transition leaves the int window (int_bound), not a range error, in the last state".into());
                        }
                        _ => {
                            return Err(
                                "the transition raises no range error in the last state".into()
                            );
                        }
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
            Violation::IntBound { trans, params, .. } => {
                match eval::fire(&inst, last, *trans, params) {
                    Fire::Error(e) if e.is_int_bound() => {}
                    _ => {
                        return Err(
                            "the transition does not leave the int window in the last state".into(),
                        );
                    }
                }
            }
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
        Violation::IntBound {
            trans,
            params,
            message,
        } => format!(
            "int_bound in {}: {}",
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
pub fn cells_doc(pairs: Vec<(String, String)>) -> BTreeMap<String, String> {
    pairs.into_iter().collect()
}

/// One step from `before` to `after` as JSON: `{"transition", "params", "process",
/// "choices", "changes"}`.
pub fn step_doc(
    model: &Model,
    inst: &Instance,
    step: &Step,
    before: &[i64],
    after: &[i64],
) -> StepDoc {
    StepDoc {
        transition: model.transitions[step.trans].name.clone(),
        params: step.params.clone(),
        process: step.params.first().copied(),
        choices: step.choices.clone(),
        changes: Some(cells_doc(changes(inst, before, after))),
        in_cycle: None,
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

/// The trace as JSON (`schema::TraceDoc`): `{"init": {cell: value}, "steps":
/// [{"transition", "params", "process", "choices", "changes"}], "violation": text,
/// "kind": "unsafe" | "invariant" | "deadlock" | "range_error" | "int_bound",
/// "processes": the property's witness (or null), "property", "site"}`.
pub fn to_doc(model: &Model, trace: &Trace, states: &[State]) -> TraceDoc {
    let inst = Instance::new(model, trace.size);
    let steps = trace
        .steps
        .iter()
        .enumerate()
        .map(|(k, s)| step_doc(model, &inst, s, &states[k], &states[k + 1]))
        .collect();
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
        process: None,
        loop_start: None,
        deadlock: None,
        fair: None,
    }
}

/// A run that ends without a violation (a simulation stopped after its steps), in the
/// shape of a trace: `kind` `run`, no violation, property or site.
pub fn run_doc(model: &Model, size: usize, steps: &[Step], states: &[State]) -> TraceDoc {
    let inst = Instance::new(model, size);
    let steps = steps
        .iter()
        .enumerate()
        .map(|(k, s)| step_doc(model, &inst, s, &states[k], &states[k + 1]))
        .collect();
    TraceDoc {
        kind: Some("run".into()),
        init: cells_doc(cells(&inst, &states[0])),
        steps,
        violation: None,
        processes: None,
        property: None,
        site: None,
        process: None,
        loop_start: None,
        deadlock: None,
        fair: None,
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

/// The process whose column a cell is drawn in, with the index position that names it:
/// the first `proc` index of an array cell; `None` for globals and arrays not indexed
/// by processes.
fn cell_owner(inst: &Instance, slot: usize) -> Option<(i64, usize)> {
    let s = &inst.slots[slot];
    let dims = &inst.model.vars[s.var].dims;
    dims.iter()
        .position(|t| *t == Ty::Proc)
        .map(|k| (s.index[k], k))
}

/// How a cell is named in its process's column: without the owning index (`A` for
/// `A[2]` in the column of process 2, `G[_,3]` for `G[2,3]`).
fn owned_cell_name(inst: &Instance, slot: usize, pos: usize) -> String {
    let s = &inst.slots[slot];
    let v = &inst.model.vars[s.var];
    if s.index.len() == 1 {
        return v.name.clone();
    }
    let ix: Vec<String> = s
        .index
        .iter()
        .zip(&v.dims)
        .enumerate()
        .map(|(k, (&i, &t))| {
            if k == pos {
                "_".to_string()
            } else {
                inst.value_name(t, i)
            }
        })
        .collect();
    format!("{}[{}]", v.name, ix.join(","))
}

/// A run as a table of processes × steps, like a message-sequence chart: one column per
/// process (`p1 .. pn`) and one for the cells no process owns (`globals`), one row per
/// step. Row 0 is the initial state, each process's cells in its column; then each step
/// writes its transition in the column of the executing process (its first parameter;
/// the globals column for a transition without parameters) followed by the cells that
/// process owns which changed, and every other changed cell in its owner's column. A
/// cell is owned by the process of its first `proc` index and written without that
/// index. `marks` are lines printed before the row of step k (k ≥ 1), e.g. where a
/// lasso's cycle starts.
pub fn render_run_table(
    model: &Model,
    size: usize,
    steps: &[Step],
    states: &[State],
    marks: &[(usize, String)],
) -> String {
    let inst = Instance::new(model, size);
    let n = size;
    let globals: Vec<usize> = (0..inst.slots.len())
        .filter(|&s| cell_owner(&inst, s).is_none())
        .collect();
    let has_globals = !globals.is_empty() || steps.iter().any(|s| s.params.is_empty());
    let cols = n + usize::from(has_globals);
    let mut rows: Vec<Vec<Vec<String>>> = Vec::with_capacity(steps.len() + 1);
    // Row 0: the initial state.
    let mut row0 = vec![Vec::new(); cols];
    for (s, &v) in states[0].iter().enumerate() {
        if let Some((p, pos)) = cell_owner(&inst, s) {
            row0[p as usize - 1].push(format!(
                "{}={}",
                owned_cell_name(&inst, s, pos),
                inst.slot_value_name(s, v)
            ));
        }
    }
    if has_globals {
        row0[n] = global_summary(&inst, &globals, &states[0]);
    }
    rows.push(row0);
    for (k, step) in steps.iter().enumerate() {
        let mut row = vec![Vec::new(); cols];
        let col = match step.params.first() {
            Some(&p) if p >= 1 && p as usize <= n => p as usize - 1,
            _ => n.min(cols - 1),
        };
        row[col].push(step_label(model, step));
        let (a, b) = (&states[k], &states[k + 1]);
        for s in (0..a.len()).filter(|&s| a[s] != b[s]) {
            let v = inst.slot_value_name(s, b[s]);
            match cell_owner(&inst, s) {
                Some((p, pos)) => {
                    row[p as usize - 1].push(format!("{}={v}", owned_cell_name(&inst, s, pos)))
                }
                None => row[n].push(format!("{}={v}", inst.cell_name(s))),
            }
        }
        rows.push(row);
    }
    let mut header: Vec<String> = (1..=n).map(|p| format!("p{p}")).collect();
    if has_globals {
        header.push("globals".to_string());
    }
    let texts: Vec<Vec<String>> = rows
        .iter()
        .map(|r| r.iter().map(|c| c.join(" ")).collect())
        .collect();
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            texts
                .iter()
                .map(|r| r[c].chars().count())
                .chain(std::iter::once(header[c].chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |first: String, cells: &[String]| -> String {
        let mut l = format!("    {first:>4}");
        for (c, text) in cells.iter().enumerate() {
            l.push_str("  ");
            l.push_str(text);
            l.extend(std::iter::repeat_n(
                ' ',
                widths[c].saturating_sub(text.chars().count()),
            ));
        }
        let mut l = l.trim_end().to_string();
        l.push('\n');
        l
    };
    let mut out = line("step".to_string(), &header);
    for (k, r) in texts.iter().enumerate() {
        for (_, m) in marks.iter().filter(|(at, _)| *at == k && k > 0) {
            out.push_str(&format!("    {m}\n"));
        }
        out.push_str(&line(k.to_string(), r));
    }
    out
}

/// The global cells of a state in short form: `X=v`, an array whose cells are all
/// equal as `A[*]=v`, other arrays cell by cell.
fn global_summary(inst: &Instance, globals: &[usize], st: &[i64]) -> Vec<String> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < globals.len() {
        let s = globals[k];
        let var = inst.slots[s].var;
        let mut e = k;
        while e < globals.len() && inst.slots[globals[e]].var == var {
            e += 1;
        }
        let group = &globals[k..e];
        if !inst.model.vars[var].dims.is_empty()
            && group.len() == inst.vars[var].cells
            && group.iter().all(|&g| st[g] == st[s])
        {
            out.push(format!(
                "{}[*]={}",
                inst.model.vars[var].name,
                inst.slot_value_name(s, st[s])
            ));
        } else {
            out.extend(
                group
                    .iter()
                    .map(|&g| format!("{}={}", inst.cell_name(g), inst.slot_value_name(g, st[g]))),
            );
        }
        k = e;
    }
    out
}

/// The trace as a table of processes × steps (`render_run_table`), followed by the
/// violation.
pub fn render_table(model: &Model, trace: &Trace, states: &[State]) -> String {
    let mut out = render_run_table(model, trace.size, &trace.steps, states, &[]);
    out.push_str(&format!(
        "    => {}\n",
        violation_text(model, &trace.violation)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODEL: &str = "\
type state = Idle | Want | Crit
var Sem : bool
array A[proc] : state
array G[proc, proc] : bool
init (z w) { A[z] = Idle && Sem = False && G[z,w] = False }
unsafe mutex (z1 z2) { A[z1] = Crit && A[z2] = Crit }
transition req (i) requires { A[i] = Idle } { A[i] := Want; }
transition grant (i j) requires { A[j] = Want } { G[j,i] := True; A[j] := Crit; }
transition lock () requires { Sem = False } { Sem := True; }
";

    fn step(model: &Model, name: &str, params: &[i64]) -> Step {
        Step {
            trans: model.transition_by_name(name).unwrap(),
            params: params.to_vec(),
            choices: Vec::new(),
        }
    }

    #[test]
    fn table_puts_each_step_in_its_process_column() {
        let model = crate::lang::load_str("t.cub", MODEL).unwrap();
        let inst = Instance::new(&model, 2);
        // Slots: Sem, A[1], A[2], G[1,1], G[1,2], G[2,1], G[2,2]; all Idle / False.
        let init = vec![0; 7];
        let steps = vec![
            step(&model, "req", &[1]),
            step(&model, "grant", &[2, 1]),
            step(&model, "lock", &[]),
            step(&model, "req", &[2]),
            step(&model, "grant", &[1, 2]),
        ];
        let states = replay_steps(&inst, &init, &steps).unwrap();
        let t = Trace {
            size: 2,
            init,
            steps,
            violation: Violation::Unsafe {
                prop: 0,
                tuple: vec![1, 2],
            },
        };
        assert_eq!(t.replay(&model).unwrap(), states);
        // Written by hand: p2's grant(2,1) changes p1's cells, so they appear in p1's
        // column; lock() has no parameter and goes to the globals column.
        let expected =
            "    step  p1                                p2                                globals
       0  A=Idle G[_,1]=False G[_,2]=False  A=Idle G[_,1]=False G[_,2]=False  Sem=False
       1  req(1) A=Want
       2  A=Crit G[_,2]=True                grant(2,1)
       3                                                                      lock() Sem=True
       4                                    req(2) A=Want
       5  grant(1,2)                        A=Crit G[_,1]=True
    => bad state: `mutex` with z1=1, z2=2
";
        assert_eq!(render_table(&model, &t, &states), expected);
    }

    #[test]
    fn table_marks_where_a_lasso_cycle_starts() {
        let model = crate::lang::load_str("t.cub", MODEL).unwrap();
        let inst = Instance::new(&model, 1);
        let steps = vec![step(&model, "req", &[1])];
        let states = replay_steps(&inst, &[0, 0, 0], &steps).unwrap();
        let marks = [(1, "---- here".to_string())];
        let expected = "    step  p1                   globals
       0  A=Idle G[_,1]=False  Sem=False
    ---- here
       1  req(1) A=Want
";
        assert_eq!(
            render_run_table(&model, 1, &steps, &states, &marks),
            expected
        );
    }
}
