//! Saved counterexamples ("trails", as SPIN calls them): reading a trace or lasso saved
//! as JSON, and replaying it step by step on the reference interpreter of a model that
//! may have changed since, saying where it stops matching and why.
//!
//! Accepted files: a standalone trail (`trace::save`, `lasso::save`, `nfold simulate
//! --json`: `{"model", "size", "trace"}`), the whole output of `nfold check --json` or
//! `nfold live --json` (one of its counterexamples, chosen by size and property), or a
//! bare trace object (`{"init", "steps", ...}`, the size given separately).

use crate::lasso::Lasso;
use crate::model::eval::{self, Fire, Step};
use crate::model::instance::{Instance, State};
use crate::model::ir::Model;
use crate::schema::{CheckDoc, TrailDoc};
use crate::trace::{self, RangeSite, Trace, Violation};
use serde_json::Value;
use std::collections::BTreeMap;

pub use crate::schema::{SiteDoc, StepDoc, TraceDoc};

/// What the trace ends in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Unsafe,
    Deadlock,
    Range,
    /// A store leaving the int window.
    IntBound,
    Lasso,
    /// A run without a violation (a simulation stopped after its steps).
    Run,
}

/// A trail read from a file.
#[derive(Clone, Debug)]
pub struct Trail {
    /// The file it was read from.
    pub file: String,
    /// The model it was recorded on, as named in the file.
    pub model: Option<String>,
    pub size: usize,
    /// The number of values of each abstract type it was recorded with.
    pub data_values: Option<BTreeMap<String, usize>>,
    /// The int window it was recorded with.
    pub int_range: Option<(i64, i64)>,
    pub kind: Kind,
    pub trace: TraceDoc,
    /// The property of the result row it came from (whole `check`/`live` documents).
    pub row_property: Option<String>,
    pub row_process: Option<i64>,
}

impl Trail {
    /// One line saying what the trail records.
    pub fn summary(&self) -> String {
        let steps = self.trace.steps.len();
        let ending = match (&self.trace.violation, self.kind) {
            (_, Kind::Run) => "no violation (a run that stops there)".to_string(),
            (Some(v), _) => v.clone(),
            (None, _) => "a violation".to_string(),
        };
        format!(
            "{} step{}, ending in: {}",
            steps,
            if steps == 1 { "" } else { "s" },
            ending
        )
    }
}

/// Which counterexample of a `check`/`live` document to take, and the size of a bare
/// trace.
#[derive(Clone, Debug, Default)]
pub struct Pick {
    pub size: Option<usize>,
    pub property: Option<String>,
}

/// `file:line:col: error: msg` for a JSON error.
fn json_error(file: &str, e: &serde_json::Error) -> String {
    let text = e.to_string();
    let msg = match text.rfind(" at line ") {
        Some(k) => &text[..k],
        None => &text[..],
    };
    let msg = if e.is_eof() {
        "unexpected end of the file (the JSON document is incomplete)"
    } else {
        msg
    };
    format!("{file}:{}:{}: error: {msg}", e.line(), e.column())
}

fn size_of(file: &str, n: i64) -> Result<usize, String> {
    if (1..=64).contains(&n) {
        Ok(n as usize)
    } else {
        Err(format!(
            "{file}: error: the recorded size {n} is not a size (a whole number from 1 to 64)"
        ))
    }
}

fn kind_of(file: &str, t: &TraceDoc) -> Result<Kind, String> {
    match t.kind.as_deref() {
        // An `invariant` block is checked like an `unsafe` one (the model tells them
        // apart by the property's name).
        Some("unsafe" | "invariant") => Ok(Kind::Unsafe),
        Some("deadlock") => Ok(Kind::Deadlock),
        Some("range_error") => Ok(Kind::Range),
        Some("int_bound") => Ok(Kind::IntBound),
        Some("lasso") => Ok(Kind::Lasso),
        Some("run") => Ok(Kind::Run),
        None if t.loop_start.is_some() => Ok(Kind::Lasso),
        None if t.violation.is_none() => Ok(Kind::Run),
        Some(k) => Err(format!(
            "{file}: error: unknown trace kind `{k}` (expected unsafe, invariant, deadlock, range_error, int_bound, lasso or run)"
        )),
        None => Err(format!(
            "{file}: error: the trace does not say what it ends in (no \"kind\")"
        )),
    }
}

/// Read a trail from the text of `file`. Errors are rendered messages (`file:line:col:
/// error: ...` for malformed JSON).
pub fn parse(file: &str, text: &str, pick: &Pick) -> Result<Trail, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| json_error(file, &e))?;
    let Some(obj) = v.as_object() else {
        return Err(format!(
            "{file}:1:1: error: expected a JSON object: a saved trail, a trace, or the output of `nfold check --json` or `nfold live --json`"
        ));
    };
    if obj.contains_key("results") {
        let doc: CheckDoc = serde_json::from_str(text).map_err(|e| json_error(file, &e))?;
        let mut found = Vec::new();
        for r in doc.results {
            if let Some(t) = r.trace {
                found.push((r.size as i64, Some(r.property.clone()), r.process, t));
            }
        }
        let total = found.len();
        let listing: Vec<String> = found
            .iter()
            .map(|(n, p, _, _)| format!("size {n} `{}`", p.as_deref().unwrap_or("?")))
            .collect();
        found.retain(|(n, p, _, _)| {
            pick.size.is_none_or(|s| s as i64 == *n)
                && pick
                    .property
                    .as_ref()
                    .is_none_or(|q| p.as_deref() == Some(q.as_str()))
        });
        if found.len() != 1 {
            let why = if total == 0 {
                "the document holds no counterexample (every result has \"trace\": null)"
                    .to_string()
            } else if found.is_empty() {
                format!(
                    "no counterexample of the document fits --size/--property (it has: {})",
                    listing.join(", ")
                )
            } else {
                format!(
                    "the document holds {} counterexamples ({}): choose one with --size and --property",
                    found.len(),
                    listing.join(", ")
                )
            };
            return Err(format!("{file}: error: {why}"));
        }
        let (n, property, process, t) = found.pop().unwrap();
        return Ok(Trail {
            file: file.to_string(),
            model: Some(doc.model),
            size: size_of(file, n)?,
            data_values: None,
            int_range: None,
            kind: kind_of(file, &t)?,
            trace: t,
            row_property: property,
            row_process: process,
        });
    }
    if obj.contains_key("trace") {
        let f: TrailDoc = serde_json::from_str(text).map_err(|e| json_error(file, &e))?;
        let size = size_of(file, f.size)?;
        if let Some(s) = pick.size
            && s != size
        {
            return Err(format!(
                "{file}: error: the trail is at size {size}, not {s} (leave --size out)"
            ));
        }
        return Ok(Trail {
            file: file.to_string(),
            model: f.model,
            size,
            data_values: f.data_values,
            int_range: f.int_range,
            kind: kind_of(file, &f.trace)?,
            trace: f.trace,
            row_property: None,
            row_process: None,
        });
    }
    if obj.contains_key("init") && obj.contains_key("steps") {
        let t: TraceDoc = serde_json::from_str(text).map_err(|e| json_error(file, &e))?;
        let Some(size) = pick.size else {
            return Err(format!(
                "{file}: error: a bare trace does not record its size: give it with --size N"
            ));
        };
        return Ok(Trail {
            file: file.to_string(),
            model: None,
            size,
            data_values: None,
            int_range: None,
            kind: kind_of(file, &t)?,
            trace: t,
            row_property: None,
            row_process: None,
        });
    }
    Err(format!(
        "{file}:1:1: error: not a trail: expected {{\"model\", \"size\", \"trace\"}}, a trace {{\"init\", \"steps\", ...}}, or the output of `nfold check --json` or `nfold live --json`"
    ))
}

/// Read a trail from a file (`parse` on its contents).
pub fn read(path: &str, pick: &Pick) -> Result<Trail, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: error: cannot read: {e}"))?;
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let before = &e.as_bytes()[..at];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let col = at
                - before
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |k| k + 1)
                + 1;
            return Err(format!(
                "{path}:{line}:{col}: error: not UTF-8 text (a trail is JSON)"
            ));
        }
    };
    parse(path, &text, pick)
}

/// Where a replay stopped matching.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// The recorded initial state.
    Init,
    /// Step k (from 1).
    Step(usize),
    /// The end of the trail: what the last state should show.
    End,
}

/// Why a trail does not replay on the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub place: Place,
    /// The recorded step, `name(params)`, for `Place::Step`.
    pub label: Option<String>,
    pub reason: String,
}

impl Mismatch {
    /// `step 3, test(1): not enabled ...`
    pub fn text(&self, steps: usize) -> String {
        match &self.place {
            Place::Init => format!("the initial state: {}", self.reason),
            Place::Step(k) => format!(
                "step {k}, {}: {}",
                self.label.as_deref().unwrap_or("?"),
                self.reason
            ),
            Place::End => format!("the end of the trail (after step {steps}): {}", self.reason),
        }
    }
}

/// What a trail that replays ends in.
#[derive(Clone, Debug)]
pub enum Ending {
    Run,
    Trace(Trace),
    Lasso(Lasso),
}

/// The outcome of a replay: the steps that matched, with the states they pass through
/// (the initial state first; empty when the initial state does not match), and either
/// the recorded ending, shown again on the model, or where and why it stopped matching.
#[derive(Clone, Debug)]
pub struct Replay {
    pub size: usize,
    pub steps: Vec<Step>,
    pub states: Vec<State>,
    pub outcome: Result<Ending, Mismatch>,
}

fn recorded_label(s: &StepDoc) -> String {
    let ps: Vec<String> = s.params.iter().map(|p| p.to_string()).collect();
    format!("{}({})", s.transition, ps.join(","))
}

fn list_some(items: &[String], max: usize) -> String {
    let mut out = items[..items.len().min(max)].join(", ");
    if items.len() > max {
        out.push_str(&format!(" and {} more", items.len() - max));
    }
    out
}

/// The recorded initial state as a state of the instance.
fn initial_state(inst: &Instance, rec: &BTreeMap<String, String>) -> Result<State, String> {
    let names: Vec<String> = (0..inst.slots.len()).map(|s| inst.cell_name(s)).collect();
    let missing: Vec<String> = names
        .iter()
        .filter(|c| !rec.contains_key(*c))
        .map(|c| format!("`{c}`"))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "the model has cell{} {} that the trail does not record",
            if missing.len() == 1 { "" } else { "s" },
            list_some(&missing, 4)
        ));
    }
    let extra: Vec<String> = rec
        .keys()
        .filter(|c| !names.contains(c))
        .map(|c| format!("`{c}`"))
        .collect();
    if !extra.is_empty() {
        return Err(format!(
            "the trail records cell{} {} that the model does not have",
            if extra.len() == 1 { "" } else { "s" },
            list_some(&extra, 4)
        ));
    }
    let mut st = Vec::with_capacity(names.len());
    for (s, c) in names.iter().enumerate() {
        let want = &rec[c];
        let (lo, hi) = (inst.slots[s].lo, inst.slots[s].hi);
        let found = if hi.saturating_sub(lo) <= 1 << 16 {
            (lo..=hi).find(|&v| inst.slot_value_name(s, v) == *want)
        } else {
            want.parse::<i64>().ok().filter(|v| (lo..=hi).contains(v))
        };
        match found {
            Some(v) => st.push(v),
            None => {
                let ty = inst.model.type_name(inst.model.vars[inst.slots[s].var].ty);
                return Err(format!(
                    "`{c}={want}`: {want} is not a value of `{c}` (type {ty})"
                ));
            }
        }
    }
    Ok(st)
}

/// How the changes a step made differ from the recorded ones, if they do.
fn changes_differ(
    inst: &Instance,
    before: &[i64],
    after: &[i64],
    rec: &BTreeMap<String, String>,
) -> Option<String> {
    let now: BTreeMap<String, String> = trace::changes(inst, before, after).into_iter().collect();
    if now == *rec {
        return None;
    }
    let mut cells: Vec<&String> = now.keys().chain(rec.keys()).collect();
    cells.sort();
    cells.dedup();
    let diffs: Vec<String> = cells
        .into_iter()
        .filter(|c| now.get(*c) != rec.get(*c))
        .map(|c| {
            let show = |v: Option<&String>| v.cloned().unwrap_or_else(|| "unchanged".into());
            format!(
                "`{c}` is now {}, recorded {}",
                show(now.get(c)),
                show(rec.get(c))
            )
        })
        .collect();
    Some(format!(
        "the state after the step differs from the recorded one: {}",
        list_some(&diffs, 4)
    ))
}

/// Try one recorded step on `st`: the step and the next state, or why it does not fit.
fn replay_step(
    inst: &Instance,
    st: &[i64],
    rs: &StepDoc,
    k: usize,
) -> Result<(Step, State), String> {
    let model = inst.model;
    let n = inst.n as i64;
    let Some(t) = model.transition_by_name(&rs.transition) else {
        let names: Vec<String> = model
            .transitions
            .iter()
            .map(|t| format!("`{}`", t.name))
            .collect();
        return Err(format!(
            "the model has no transition `{}` (it has: {})",
            rs.transition,
            list_some(&names, 8)
        ));
    };
    let tr = &model.transitions[t];
    if rs.params.len() != tr.params {
        return Err(format!(
            "`{}` takes {} parameter{}, the trail gives {}",
            tr.name,
            tr.params,
            if tr.params == 1 { "" } else { "s" },
            rs.params.len()
        ));
    }
    if let Some(p) = rs.params.iter().find(|&&p| p < 1 || p > n) {
        return Err(format!(
            "parameter {p} is not a process id at size {n} (1..{n})"
        ));
    }
    let mut sorted = rs.params.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != rs.params.len() {
        return Err("its parameters are not pairwise distinct".into());
    }
    let step = Step {
        trans: t,
        params: rs.params.clone(),
        choices: rs.choices.clone(),
    };
    let succ = match eval::fire(inst, st, t, &rs.params) {
        Fire::Disabled => {
            let mut env = vec![0; tr.locals.len().max(rs.params.len())];
            env[..rs.params.len()].copy_from_slice(&rs.params);
            let guard = eval::eval(inst, st, &mut env, &tr.guard);
            return Err(if matches!(guard, Ok(v) if v != 0) {
                format!(
                    "not enabled in state {}: its guard holds but an `any` update finds no process",
                    k - 1
                )
            } else {
                format!("not enabled in state {}: its guard is false", k - 1)
            });
        }
        Fire::Error(e) => {
            return Err(format!("meets a range error in state {}: {e}", k - 1));
        }
        Fire::Enabled(succ) => succ,
    };
    let Some((_, next)) = succ.iter().find(|(c, _)| *c == rs.choices) else {
        let options: Vec<String> = succ
            .iter()
            .map(|(c, _)| trace::choices_text(inst, t, c))
            .collect();
        let nondet = tr
            .updates
            .iter()
            .filter(|u| !matches!(u.value, crate::model::ir::UpdValue::Term(_)))
            .count();
        return Err(if rs.choices.len() != nondet {
            format!(
                "the trail records {} nondeterministic choice{}, the transition makes {}",
                rs.choices.len(),
                if rs.choices.len() == 1 { "" } else { "s" },
                nondet
            )
        } else {
            format!(
                "its nondeterministic updates cannot choose {} now (possible: {})",
                trace::choices_text(inst, t, &rs.choices),
                list_some(&options, 6)
            )
        });
    };
    if let Some(rec) = &rs.changes
        && let Some(why) = changes_differ(inst, st, next, rec)
    {
        return Err(why);
    }
    Ok((step, next.clone()))
}

/// `z1=1, z2=2` for an `unsafe` property's parameters.
fn tuple_text(model: &Model, prop: usize, tuple: &[i64]) -> String {
    let u = &model.unsafes[prop];
    let parts: Vec<String> = u.locals[..u.params]
        .iter()
        .zip(tuple)
        .map(|(l, p)| format!("{}={p}", l.name))
        .collect();
    parts.join(", ")
}

/// The name between the first pair of backquotes of a recorded violation text.
fn quoted_name(text: &str) -> Option<String> {
    let a = text.find('`')?;
    let b = text[a + 1..].find('`')?;
    Some(text[a + 1..a + 1 + b].to_string())
}

/// The property a recorded trace names: its own field, the result row's, or the name
/// quoted in its violation text.
fn property_name(trail: &Trail) -> Option<String> {
    trail
        .trace
        .property
        .clone()
        .or_else(|| {
            trail
                .row_property
                .clone()
                .filter(|p| p != "range_error" && p != "deadlock" && p != "int_bound")
        })
        .or_else(|| trail.trace.violation.as_deref().and_then(quoted_name))
}

/// Check what the last state shows against the recorded ending.
fn ending(
    model: &Model,
    inst: &Instance,
    trail: &Trail,
    steps: &[Step],
    states: &[State],
) -> Result<Ending, String> {
    let last = states.last().unwrap();
    let make = |violation: Violation| Trace {
        size: inst.n,
        init: states[0].clone(),
        steps: steps.to_vec(),
        violation,
    };
    match trail.kind {
        Kind::Run => Ok(Ending::Run),
        Kind::Unsafe => {
            let name = property_name(trail).ok_or(
                "the trail does not name the `unsafe` or `invariant` property it violates",
            )?;
            let prop = model
                .unsafes
                .iter()
                .position(|u| u.name == name)
                .ok_or_else(|| {
                    format!("the model has no `unsafe` or `invariant` property `{name}`")
                })?;
            let u = &model.unsafes[prop];
            let found = eval::violation(inst, last, u)
                .map_err(|e| format!("evaluating `{name}` in the last state: {e}"))?;
            let tuple = match (&trail.trace.processes, found) {
                (Some(t), found) => {
                    if t.len() != u.params {
                        return Err(format!(
                            "`{name}` has {} parameter{}, the trail names {} process{}",
                            u.params,
                            if u.params == 1 { "" } else { "s" },
                            t.len(),
                            if t.len() == 1 { "" } else { "es" }
                        ));
                    }
                    let t = t.clone();
                    let probe = make(Violation::Unsafe {
                        prop,
                        tuple: t.clone(),
                    });
                    if probe.replay(model).is_err() {
                        let shown = if t.iter().all(|&p| p >= 1 && p as usize <= inst.n) {
                            tuple_text(model, prop, &t)
                        } else {
                            format!("{t:?}")
                        };
                        return Err(match found {
                            Some(other) => format!(
                                "`{name}` no longer holds for {shown} in the last state (it holds for {})",
                                tuple_text(model, prop, &other)
                            ),
                            None => format!(
                                "`{name}` no longer holds in the last state (for {shown} nor any other processes)"
                            ),
                        });
                    }
                    t
                }
                (None, Some(t)) => t,
                (None, None) => {
                    return Err(format!("`{name}` no longer holds in the last state"));
                }
            };
            let t = make(Violation::Unsafe { prop, tuple });
            t.replay(model)?;
            Ok(Ending::Trace(t))
        }
        Kind::Deadlock => {
            let (succ, errs) = eval::successors(inst, last);
            if let Some((s, _)) = succ.first() {
                return Err(format!(
                    "the last state is no longer a deadlock: {} is enabled",
                    trace::step_label(model, s)
                ));
            }
            if let Some((s, e)) = errs.first() {
                return Err(format!(
                    "the last state is no longer a deadlock: {} meets a range error ({e})",
                    trace::step_label(model, s)
                ));
            }
            let t = make(Violation::Deadlock);
            t.replay(model)?;
            Ok(Ending::Trace(t))
        }
        Kind::Range => {
            let site = range_site(model, inst, trail, last, steps.is_empty())?;
            let t = make(site);
            t.replay(model)
                .map_err(|e| format!("the recorded range error does not happen: {e}"))?;
            Ok(Ending::Trace(t))
        }
        Kind::IntBound => {
            let v = int_site(model, inst, trail, last)?;
            let t = make(v);
            t.replay(model)
                .map_err(|e| format!("the recorded int_bound does not happen: {e}"))?;
            Ok(Ending::Trace(t))
        }
        Kind::Lasso => {
            let name = property_name(trail)
                .ok_or("the trail does not name the `ltl` property it violates")?;
            let prop = model
                .ltls
                .iter()
                .position(|l| l.name == name)
                .ok_or_else(|| format!("the model has no `ltl` property `{name}`"))?;
            let loop_start = trail
                .trace
                .loop_start
                .ok_or("the lasso does not say where its cycle starts (no \"loop_start\")")?;
            if loop_start > steps.len() {
                return Err(format!(
                    "the cycle starts at state {loop_start}, after the last state"
                ));
            }
            let l = Lasso {
                size: inst.n,
                prop,
                process: trail.trace.process.or(trail.row_process),
                init: states[0].clone(),
                steps: steps.to_vec(),
                loop_start,
                fair: trail.trace.fair.unwrap_or(false),
            };
            l.replay(model)?;
            Ok(Ending::Lasso(l))
        }
    }
}

/// The store leaving the int window a trail records: at its recorded transition
/// instance, or (for files without one) the first met in the last state.
fn int_site(
    model: &Model,
    inst: &Instance,
    trail: &Trail,
    last: &[i64],
) -> Result<Violation, String> {
    let site = match trail
        .trace
        .site
        .as_ref()
        .and_then(|s| s.transition.as_ref())
    {
        Some(name) => {
            let trans = model
                .transition_by_name(name)
                .ok_or_else(|| format!("the model has no transition `{name}`"))?;
            let params = trail
                .trace
                .site
                .as_ref()
                .and_then(|s| s.params.clone())
                .unwrap_or_default();
            if params.len() != model.transitions[trans].params
                || params.iter().any(|&p| p < 1 || p as usize > inst.n)
            {
                return Err(format!(
                    "the recorded int_bound's instance {name}{params:?} does not fit the model"
                ));
            }
            Some((trans, params))
        }
        None => None,
    };
    let candidates = match site {
        Some(s) => vec![s],
        None => eval::transition_instances(inst),
    };
    for (trans, params) in candidates {
        if let Fire::Error(e) = eval::fire(inst, last, trans, &params)
            && e.is_int_bound()
        {
            return Ok(Violation::IntBound {
                trans,
                params,
                message: e.message,
            });
        }
    }
    Err("the last state no longer leaves the int window".into())
}

/// The range error a trail records: at its recorded site, or (for files without one)
/// the first met in the last state.
fn range_site(
    model: &Model,
    inst: &Instance,
    trail: &Trail,
    last: &[i64],
    no_steps: bool,
) -> Result<Violation, String> {
    let message = |site: RangeSite| -> Result<Violation, String> {
        let msg = match &site {
            RangeSite::Init => match eval::satisfies_init(inst, last) {
                Err(e) => e.message,
                Ok(_) => return Err("evaluating init raises no range error any more".into()),
            },
            RangeSite::Transition { trans, params } => {
                match eval::fire(inst, last, *trans, params) {
                    Fire::Error(e) => e.message,
                    _ => {
                        return Err(format!(
                            "{} meets no range error in the last state any more",
                            trace::step_label(
                                model,
                                &Step {
                                    trans: *trans,
                                    params: params.clone(),
                                    choices: Vec::new()
                                }
                            )
                        ));
                    }
                }
            }
            RangeSite::Property(p) => match eval::violation(inst, last, &model.unsafes[*p]) {
                Err(e) => e.message,
                Ok(_) => {
                    return Err(format!(
                        "evaluating `{}` meets no range error in the last state any more",
                        model.unsafes[*p].name
                    ));
                }
            },
            RangeSite::Ltl { prop, process } => {
                match trace::ltl_atoms_error(inst, last, *prop, *process) {
                    Some(e) => e.message,
                    None => {
                        return Err(format!(
                            "evaluating `{}` meets no range error in the last state any more",
                            model.ltls[*prop].name
                        ));
                    }
                }
            }
        };
        Ok(Violation::Range { site, message: msg })
    };
    if let Some(s) = &trail.trace.site {
        if s.init == Some(true) {
            return message(RangeSite::Init);
        }
        if let Some(name) = &s.transition {
            let trans = model
                .transition_by_name(name)
                .ok_or_else(|| format!("the model has no transition `{name}`"))?;
            let params = s.params.clone().unwrap_or_default();
            if params.len() != model.transitions[trans].params
                || params.iter().any(|&p| p < 1 || p as usize > inst.n)
            {
                return Err(format!(
                    "the recorded range error's instance {name}{params:?} does not fit the model"
                ));
            }
            return message(RangeSite::Transition { trans, params });
        }
        if let Some(name) = &s.unsafe_prop {
            let p = model
                .unsafes
                .iter()
                .position(|u| &u.name == name)
                .ok_or_else(|| {
                    format!("the model has no `unsafe` or `invariant` property `{name}`")
                })?;
            return message(RangeSite::Property(p));
        }
        if let Some(name) = &s.ltl {
            let prop = model
                .ltls
                .iter()
                .position(|l| &l.name == name)
                .ok_or_else(|| format!("the model has no `ltl` property `{name}`"))?;
            return message(RangeSite::Ltl {
                prop,
                process: s.process,
            });
        }
    }
    // No recorded site: the first range error the last state meets.
    if no_steps && eval::satisfies_init(inst, last).is_err() {
        return message(RangeSite::Init);
    }
    if let Some((s, _)) = eval::successors(inst, last).1.into_iter().next() {
        return message(RangeSite::Transition {
            trans: s.trans,
            params: s.params,
        });
    }
    for p in 0..model.unsafes.len() {
        if eval::violation(inst, last, &model.unsafes[p]).is_err() {
            return message(RangeSite::Property(p));
        }
    }
    Err("the last state meets no range error any more".into())
}

/// Replay a trail on the reference interpreter of `model` at the trail's size, step by
/// step, comparing every state with the recorded one.
pub fn replay(model: &Model, trail: &Trail) -> Replay {
    let n = trail.size;
    let mut out = Replay {
        size: n,
        steps: Vec::new(),
        states: Vec::new(),
        outcome: Ok(Ending::Run),
    };
    let fail = |place: Place, label: Option<String>, reason: String| Mismatch {
        place,
        label,
        reason,
    };
    if let Some((k, _)) = model.number_procs
        && k != n
    {
        out.outcome = Err(fail(
            Place::Init,
            None,
            format!(
                "the model fixes the size to {k} (`number_procs {k}`), the trail is at size {n}"
            ),
        ));
        return out;
    }
    let inst = Instance::new(model, n);
    let init = match initial_state(&inst, &trail.trace.init) {
        Ok(s) => s,
        Err(why) => {
            out.outcome = Err(fail(Place::Init, None, why));
            return out;
        }
    };
    let init_range = trail.kind == Kind::Range && trail.trace.steps.is_empty();
    match eval::satisfies_init(&inst, &init) {
        Ok(true) => {}
        Ok(false) => {
            out.outcome = Err(fail(
                Place::Init,
                None,
                "the recorded initial state is not an initial state of the model (`init` is false there)"
                    .into(),
            ));
            return out;
        }
        Err(_) if init_range => {}
        Err(e) => {
            out.outcome = Err(fail(
                Place::Init,
                None,
                format!("evaluating `init` on the recorded initial state meets a range error: {e}"),
            ));
            return out;
        }
    }
    out.states.push(init);
    for (k, rs) in trail.trace.steps.iter().enumerate() {
        let st = out.states.last().unwrap();
        match replay_step(&inst, st, rs, k + 1) {
            Ok((step, next)) => {
                out.steps.push(step);
                out.states.push(next);
            }
            Err(why) => {
                out.outcome = Err(fail(Place::Step(k + 1), Some(recorded_label(rs)), why));
                return out;
            }
        }
    }
    out.outcome = ending(model, &inst, trail, &out.steps, &out.states)
        .map_err(|why| fail(Place::End, None, why));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_errors_carry_line_and_column() {
        let e = parse(
            "t.json",
            "{\n  \"size\": 2,\n  \"trace\": [1,\n",
            &Pick::default(),
        )
        .unwrap_err();
        assert!(e.starts_with("t.json:4:"), "{e}");
        let e = parse("t.json", "{\"size\": 2, \"trace\": 3}", &Pick::default()).unwrap_err();
        assert!(e.starts_with("t.json:1:"), "{e}");
        assert!(e.contains("invalid type"), "{e}");
        let e = parse("t.json", "[1]", &Pick::default()).unwrap_err();
        assert!(
            e.starts_with("t.json:1:1: error: expected a JSON object"),
            "{e}"
        );
    }

    #[test]
    fn quoted_names() {
        assert_eq!(
            quoted_name("bad state: `mutex` with z1=1, z2=2").as_deref(),
            Some("mutex")
        );
        assert_eq!(quoted_name("no quotes"), None);
    }
}
