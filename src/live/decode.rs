//! From runs of the liveness product (`product`) back to the model: a run reaching the
//! product's `unsafe` property becomes a lasso (the save step marks the start of the
//! cycle; the save and the deadlock stutters are bookkeeping and are dropped), a run to
//! a range error of the product a trace to the model's range error. Both are replayed on
//! the interpreter of the unreduced instance of the model, the lasso with its
//! fairness checked (`Lasso::replay`); one that does not replay is an error, never a
//! verdict. Also the `$` picture of dissertation §11.6: a lasso's initial state as a
//! row of the aggregate.

use super::product::{Origin, Product};
use crate::lasso::Lasso;
use crate::model::canon::Symmetry;
use crate::model::eval::{self, Fire, Miss, Step};
use crate::model::instance::{Instance, State, last_state};
use crate::model::ir::{Model, Ty};
use crate::trace::{RangeSite, Trace, Violation, ltl_atoms_error};

/// A product run taken apart: the model's states and steps, where the cycle starts
/// (the model's steps before the save), and the property's process.
#[derive(Clone, Debug)]
pub struct Decoded {
    pub size: usize,
    pub states: Vec<State>,
    pub steps: Vec<Step>,
    pub loop_start: Option<usize>,
    pub process: Option<i64>,
    /// k-liveness: where each round begins (the start, and after each count), as (the
    /// model's steps before it, the automaton state).
    pub rounds: Vec<(usize, i64)>,
}

/// Take a product trace apart (after replaying it on the product's interpreter).
fn split(model: &Model, prod: &Product, t: &Trace) -> Result<Decoded, String> {
    let pstates = t
        .replay(&prod.model)
        .map_err(|e| format!("the product's run does not replay on the product: {e}"))?;
    let w = t.size;
    let inst = Instance::new(model, w);
    let pinst = Instance::new(&prod.model, w);
    let map: Vec<usize> = inst
        .slots
        .iter()
        .map(|s| pinst.slot_of(s.var, &s.index))
        .collect::<Option<Vec<_>>>()
        .ok_or("a cell of the model is missing from the product")?;
    let project = |st: &State| -> State { map.iter().map(|&s| st[s]).collect() };
    let process = match prod.proc_var {
        Some(v) => {
            let s = pinst
                .slot_of(v, &[])
                .ok_or("the product has no process cell")?;
            Some(pstates[0][s])
        }
        None => None,
    };
    let q = pinst
        .slot_of(prod.q_var, &[])
        .ok_or("the product has no automaton cell")?;
    let mut states = vec![project(&pstates[0])];
    let mut steps = Vec::new();
    let mut loop_start = None;
    let mut rounds = vec![(0, pstates[0][q])];
    for (k, step) in t.steps.iter().enumerate() {
        match prod.origin.get(step.trans) {
            Some(Origin::Step(tr)) => {
                let (from, to) = (last_state(&states).clone(), project(&pstates[k + 1]));
                let choices = eval::step_choices(&inst, &from, *tr, &step.params, &to).map_err(
                    |m| match m {
                        Miss::NotASuccessor => "a product step is no step of the model",
                        Miss::Disabled => "a product step is not enabled in the model",
                    },
                )?;
                steps.push(Step {
                    trans: *tr,
                    params: step.params.clone(),
                    choices,
                });
                states.push(to);
            }
            Some(Origin::Save) => loop_start = Some(steps.len()),
            Some(Origin::Stutter) => {}
            Some(Origin::Count) => rounds.push((steps.len(), pstates[k + 1][q])),
            None => return Err("a step of no product transition".into()),
        }
    }
    Ok(Decoded {
        size: w,
        states,
        steps,
        loop_start,
        process,
        rounds,
    })
}

/// The lasso of a product run reaching the product's property, replayed on the model
/// with fairness checked. On a fully symmetric model the processes are renamed so that
/// the property's process is 1 (the representative `nfold live` reports).
pub fn decode_lasso(model: &Model, prod: &Product, t: &Trace) -> Result<Lasso, String> {
    let d = split(model, prod, t)?;
    let loop_start = d
        .loop_start
        .ok_or("the product's run never saves a state")?;
    lasso_of(model, prod, d, loop_start)
}

/// The lasso in a run of the k-liveness product, if two of its rounds begin in the same
/// state of the model and the automaton: the rounds between them are complete (an
/// accepting state left, every process served), so repeating them forever is a
/// (weakly fair) accepting run. The shortest runs that count k rounds usually repeat
/// one round, so a counterexample to k-liveness at a small k is often a lasso.
pub fn lasso_in_rounds(model: &Model, prod: &Product, t: &Trace) -> Result<Option<Lasso>, String> {
    let mut d = split(model, prod, t)?;
    let mut found = None;
    'outer: for (j, &(bj, qj)) in d.rounds.iter().enumerate() {
        for &(bi, qi) in &d.rounds[..j] {
            if qi == qj && d.states[bi] == d.states[bj] {
                found = Some((bi, bj));
                break 'outer;
            }
        }
    }
    let Some((bi, bj)) = found else {
        return Ok(None);
    };
    d.steps.truncate(bj);
    d.states.truncate(bj + 1);
    lasso_of(model, prod, d, bi).map(Some)
}

/// The run of `d` as a lasso whose cycle begins at state `loop_start`: normalised,
/// renamed to process 1 on a symmetric model, replayed with fairness checked.
fn lasso_of(
    model: &Model,
    prod: &Product,
    mut d: Decoded,
    loop_start: usize,
) -> Result<Lasso, String> {
    let loop_start = normalize(&mut d.states, &mut d.steps, loop_start);
    let mut lasso = Lasso {
        size: d.size,
        prop: prod.prop,
        process: d.process,
        init: d.states[0].clone(),
        steps: d.steps,
        loop_start,
        fair: prod.fair,
    };
    if let Some(p) = d.process
        && p != 1
        && model.is_symmetric()
        && p >= 1
        && p as usize <= d.size
    {
        lasso = renamed(model, &lasso, &d.states, p)?;
    }
    lasso
        .replay(model)
        .map_err(|e| format!("the decoded lasso does not replay on the model: {e}"))?;
    Ok(lasso)
}

/// The shortest lasso spelling the same infinite run: the product closes its loop
/// where the automaton state repeats too, which may be later than the model's states
/// and steps do. The cycle is moved back while the step into its start is also its
/// last step, then cut to its shortest period. Returns the new start of the cycle.
fn normalize(states: &mut Vec<State>, steps: &mut Vec<Step>, mut k: usize) -> usize {
    if k >= steps.len() {
        return k;
    }
    while k > 0 {
        let m = steps.len();
        if steps[k - 1] != steps[m - 1] || states[k - 1] != states[m - 1] {
            break;
        }
        k -= 1;
        steps.pop();
        states.pop();
    }
    let c = steps.len() - k;
    if let Some(d) = (1..c).find(|&d| {
        c.is_multiple_of(d)
            && (k..k + c - d).all(|i| steps[i] == steps[i + d] && states[i] == states[i + d])
    }) {
        steps.truncate(k + d);
        states.truncate(k + d + 1);
    }
    k
}

/// The lasso with processes 1 and `p` swapped (a symmetric model: still a run).
fn renamed(model: &Model, lasso: &Lasso, states: &[State], p: i64) -> Result<Lasso, String> {
    let inst = Instance::new(model, lasso.size);
    let sym = Symmetry::new(&inst);
    let pi: Vec<i64> = (1..=lasso.size as i64)
        .map(|q| match q {
            1 => p,
            q if q == p => 1,
            q => q,
        })
        .collect();
    let image = |st: &State| {
        let mut out = st.clone();
        sym.apply(&pi, st, &mut out);
        out
    };
    let states: Vec<State> = states.iter().map(image).collect();
    let mut steps = Vec::new();
    for (k, s) in lasso.steps.iter().enumerate() {
        let params: Vec<i64> = s.params.iter().map(|&q| pi[(q - 1) as usize]).collect();
        let choices = eval::step_choices(&inst, &states[k], s.trans, &params, &states[k + 1])
            .map_err(|m| match m {
                Miss::NotASuccessor => "a renamed step is no step of the model",
                Miss::Disabled => "a renamed step is not enabled",
            })?;
        steps.push(Step {
            trans: s.trans,
            params,
            choices,
        });
    }
    Ok(Lasso {
        init: states[0].clone(),
        steps,
        process: Some(1),
        ..lasso.clone()
    })
}

/// The model's trace of a product run to a range error or a store leaving the int
/// window, replayed on the model: the model meets the error in the state where the
/// product does (the product evaluates the model's guards, updates and atoms).
pub fn decode_trace(model: &Model, prod: &Product, t: &Trace) -> Result<Trace, String> {
    let inst_w = |w| Instance::new(model, w);
    let d = split(model, prod, t)?;
    let inst = inst_w(d.size);
    let last = last_state(&d.states);
    let violation = match &t.violation {
        Violation::Range {
            site: RangeSite::Init,
            message,
        } => Violation::Range {
            site: RangeSite::Init,
            message: message.clone(),
        },
        Violation::IntBound { trans, params, .. } => {
            let Some(Origin::Step(tr)) = prod.origin.get(*trans) else {
                return Err("the product leaves the int window outside the model".into());
            };
            match eval::fire(&inst, last, *tr, params) {
                Fire::Error(e) if e.is_int_bound() => Violation::IntBound {
                    trans: *tr,
                    params: params.clone(),
                    message: e.message,
                },
                _ => return Err("the model does not leave the int window there".into()),
            }
        }
        Violation::Range { site, .. } => {
            let first = match site {
                RangeSite::Transition { trans, params } => match prod.origin.get(*trans) {
                    Some(Origin::Step(tr)) => Some((*tr, params.clone())),
                    _ => None,
                },
                _ => None,
            };
            model_range_error(model, &inst, last, first, prod.prop, d.process)
                .ok_or("the model meets no range error where the product does")?
        }
        _ => return Err("not a range error or int_bound trace".into()),
    };
    let trace = Trace {
        size: d.size,
        init: d.states[0].clone(),
        steps: d.steps,
        violation,
    };
    trace
        .replay(model)
        .map_err(|e| format!("the decoded trace does not replay on the model: {e}"))?;
    Ok(trace)
}

/// Where the model meets a range error in `st`: the instance `first` if it errs there,
/// else the first erring transition instance, else an atom of the `ltl` property.
fn model_range_error(
    model: &Model,
    inst: &Instance,
    st: &[i64],
    first: Option<(usize, Vec<i64>)>,
    prop: usize,
    process: Option<i64>,
) -> Option<Violation> {
    let range = |t: usize, params: &[i64]| match eval::fire(inst, st, t, params) {
        Fire::Error(e) if !e.is_int_bound() => Some(Violation::Range {
            site: RangeSite::Transition {
                trans: t,
                params: params.to_vec(),
            },
            message: e.message,
        }),
        _ => None,
    };
    if let Some(v) = first.and_then(|(t, ps)| range(t, &ps)) {
        return Some(v);
    }
    let _ = model;
    eval::transition_instances(inst)
        .into_iter()
        .find_map(|(t, ps)| range(t, &ps))
        .or_else(|| {
            ltl_atoms_error(inst, st, prop, process).map(|e| Violation::Range {
                site: RangeSite::Ltl { prop, process },
                message: e.message,
            })
        })
}

/// The `$` picture of dissertation §11.6 for one lasso: its initial state as a row of
/// the aggregate of `slots` process slots, one entry per slot: the values of that
/// process's cells (per array whose first index is `proc` and no other is, in
/// declaration order: the cell's value, or the values of its row written together when
/// each is one character, else separated by commas; arrays joined by `/`), or `$` for
/// a slot absent at the lasso's width.
pub fn picture(model: &Model, lasso: &Lasso, slots: usize) -> Vec<String> {
    let inst = Instance::new(model, lasso.size);
    (1..=slots as i64)
        .map(|p| {
            if p as usize > lasso.size {
                return "$".to_string();
            }
            let mut parts = Vec::new();
            for (id, v) in model.vars.iter().enumerate() {
                if v.dims.first() != Some(&Ty::Proc) || v.dims[1..].contains(&Ty::Proc) {
                    continue;
                }
                let vals: Vec<String> = (0..inst.slots.len())
                    .filter(|&s| inst.slots[s].var == id && inst.slots[s].index[0] == p)
                    .map(|s| inst.slot_value_name(s, lasso.init[s]))
                    .collect();
                let short = vals.iter().all(|x| x.chars().count() == 1);
                parts.push(vals.join(if short { "" } else { "," }));
            }
            if parts.is_empty() {
                "-".to_string()
            } else {
                parts.join("/")
            }
        })
        .collect()
}
