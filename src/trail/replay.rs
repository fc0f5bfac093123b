//! Replaying a trail step by step on the reference interpreter: the recorded initial
//! state, each recorded step (transition, parameters, nondeterministic choices, changes),
//! and where and why the model stops matching.

use super::ending::{Ending, ending};
use super::{Kind, StepDoc, Trail};
use crate::lang::print::expr_text;
use crate::model::eval::{self, Fire, Step};
use crate::model::instance::{Instance, State, last_state};
use crate::model::ir::{Expr, Model, Transition};
use crate::trace;
use std::collections::BTreeMap;

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

/// `cell `A`` or `cells `A`, `B` ...`, the first four named.
fn cells_text(cells: &[&String]) -> String {
    let quoted: Vec<String> = cells.iter().map(|c| format!("`{c}`")).collect();
    let s = if quoted.len() == 1 { "" } else { "s" };
    format!("cell{s} {}", list_some(&quoted, 4))
}

/// The recorded initial state as a state of the instance.
fn initial_state(inst: &Instance, rec: &BTreeMap<String, String>) -> Result<State, String> {
    let names: Vec<String> = (0..inst.slots.len()).map(|s| inst.cell_name(s)).collect();
    let missing: Vec<&String> = names.iter().filter(|c| !rec.contains_key(*c)).collect();
    if !missing.is_empty() {
        let cells = cells_text(&missing);
        return Err(format!(
            "the model has {cells} that the trail does not record"
        ));
    }
    let extra: Vec<&String> = rec.keys().filter(|c| !names.contains(c)).collect();
    if !extra.is_empty() {
        let cells = cells_text(&extra);
        return Err(format!(
            "the trail records {cells} that the model does not have"
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

/// The transition a recorded step names, once its parameters fit it at the instance's
/// size.
fn recorded_transition(inst: &Instance, rs: &StepDoc) -> Result<usize, String> {
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
    Ok(t)
}

/// Why none of the successors `succ` of transition `t` is reached by the recorded
/// step's nondeterministic choices.
fn choices_misfit(inst: &Instance, t: usize, rs: &StepDoc, succ: &[(Vec<i64>, State)]) -> String {
    let tr = &inst.model.transitions[t];
    let options: Vec<String> = succ
        .iter()
        .map(|(c, _)| trace::choices_text(inst, t, c))
        .collect();
    let nondet = tr
        .updates
        .iter()
        .filter(|u| !matches!(u.value, crate::model::ir::UpdValue::Term(_)))
        .count();
    if rs.choices.len() != nondet {
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
    }
}

/// Try one recorded step on `st`: the step and the next state, or why it does not fit.
fn replay_step(
    inst: &Instance,
    st: &[i64],
    rs: &StepDoc,
    k: usize,
) -> Result<(Step, State), String> {
    let t = recorded_transition(inst, rs)?;
    let tr = &inst.model.transitions[t];
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
                format!(
                    "not enabled in state {}: its guard is false{}",
                    k - 1,
                    false_conjunct(inst, st, &mut env, tr)
                )
            });
        }
        Fire::Error(e) => {
            return Err(format!("meets a range error in state {}: {e}", k - 1));
        }
        Fire::Enabled(succ) => succ,
    };
    let Some((_, next)) = succ.iter().find(|(c, _)| *c == rs.choices) else {
        return Err(choices_misfit(inst, t, rs, &succ));
    };
    if let Some(rec) = &rs.changes
        && let Some(why) = changes_differ(inst, st, next, &crate::trace::cells_text(rec))
    {
        return Err(why);
    }
    Ok((step, next.clone()))
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
    let init = match initial_state(&inst, &crate::trace::cells_text(&trail.trace.init)) {
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
        let st = last_state(&out.states);
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

/// Which conjunct of `tr`'s guard is false in `st` (with the parameters in `env`), as
/// `: `NSh = 1` does not hold (NSh = 2)`: the first in the order written, with the
/// cells it reads and their values. Empty when no single conjunct is to blame.
fn false_conjunct(inst: &Instance, st: &[i64], env: &mut [i64], tr: &Transition) -> String {
    let m = &inst.model;
    let conjuncts: Vec<&Expr> = match &tr.guard {
        Expr::And(xs) => xs.iter().collect(),
        g => vec![g],
    };
    let Some(c) = conjuncts
        .into_iter()
        .find(|c| matches!(eval::eval(inst, st, env, c), Ok(0)))
    else {
        return String::new();
    };
    let mut reads: Vec<String> = Vec::new();
    // A cell is shown when its index is fixed by the parameters alone.
    let fixed = |e: &Expr| {
        let mut ok = true;
        e.walk(&mut |y| {
            ok &= !matches!(y, Expr::Local(id) if *id >= tr.params);
            ok
        });
        ok
    };
    c.walk(&mut |x| {
        if let Expr::Read(v, ix) = x
            && ix.iter().all(fixed)
            && let Ok(val) = eval::eval(inst, st, env, x)
        {
            let cell = expr_text(m, &tr.locals, x);
            let value = expr_text(m, &[], &Expr::Const(val, m.vars[*v].ty));
            let text = format!("{cell} = {value}");
            if !reads.contains(&text) && reads.len() < 4 {
                reads.push(text);
            }
        }
        true
    });
    let params: Vec<String> = (0..tr.params)
        .map(|p| format!("{} = {}", tr.locals[p].name, env[p]))
        .collect();
    let mut out = format!(
        ": `{}` does not hold",
        crate::lang::print::unparenthesised(expr_text(m, &tr.locals, c))
    );
    if !reads.is_empty() {
        out += &format!(" ({})", reads.join(", "));
    }
    if !params.is_empty() {
        out += &format!(" with {}", params.join(", "));
    }
    out
}
