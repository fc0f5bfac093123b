//! The end of a replayed trail: whether the last state still shows the recorded
//! violation (an `unsafe` property for the recorded processes, a deadlock, a range error
//! or int-window store at its recorded site, a lasso for its `ltl` property).

use super::{Kind, Trail};
use crate::lasso::Lasso;
use crate::model::eval::{self, Fire, Step};
use crate::model::instance::{Instance, State, last_state};
use crate::model::ir::Model;
use crate::trace::{self, RangeSite, Trace, Violation};

/// What a trail that replays ends in.
#[derive(Clone, Debug)]
pub enum Ending {
    Run,
    Trace(Trace),
    Lasso(Lasso),
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
pub(super) fn ending(
    model: &Model,
    inst: &Instance,
    trail: &Trail,
    steps: &[Step],
    states: &[State],
) -> Result<Ending, String> {
    let last = last_state(states);
    let make = |violation: Violation| Trace {
        size: inst.n,
        init: states[0].clone(),
        steps: steps.to_vec(),
        violation,
    };
    match trail.kind {
        Kind::Run => Ok(Ending::Run),
        Kind::Unsafe => unsafe_ending(model, inst, trail, last, &make),
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
        Kind::Lasso => lasso_ending(model, inst, trail, steps, states),
    }
}

/// The ending of an `unsafe` trail: the property it names, violated in the last state
/// for the recorded processes (or, when it records none, for any).
fn unsafe_ending(
    model: &Model,
    inst: &Instance,
    trail: &Trail,
    last: &[i64],
    make: &dyn Fn(Violation) -> Trace,
) -> Result<Ending, String> {
    let name = property_name(trail)
        .ok_or("the trail does not name the `unsafe` or `invariant` property it violates")?;
    let prop = model
        .unsafe_by_name(&name)
        .ok_or_else(|| format!("the model has no `unsafe` or `invariant` property `{name}`"))?;
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

/// The ending of a lasso trail: its cycle, replayed for the `ltl` property it names.
fn lasso_ending(
    model: &Model,
    inst: &Instance,
    trail: &Trail,
    steps: &[Step],
    states: &[State],
) -> Result<Ending, String> {
    let name =
        property_name(trail).ok_or("the trail does not name the `ltl` property it violates")?;
    let prop = model
        .ltl_by_name(&name)
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
    let message = |site: RangeSite| range_message(model, inst, last, site);
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

/// The range error the last state meets at `site`, or why it meets none any more.
fn range_message(
    model: &Model,
    inst: &Instance,
    last: &[i64],
    site: RangeSite,
) -> Result<Violation, String> {
    let msg = match &site {
        RangeSite::Init => match eval::satisfies_init(inst, last) {
            Err(e) => e.message,
            Ok(_) => return Err("evaluating init raises no range error any more".into()),
        },
        RangeSite::Transition { trans, params } => match eval::fire(inst, last, *trans, params) {
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
        },
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_names() {
        assert_eq!(
            quoted_name("bad state: `mutex` with z1=1, z2=2").as_deref(),
            Some("mutex")
        );
        assert_eq!(quoted_name("no quotes"), None);
    }
}
