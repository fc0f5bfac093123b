//! Turning the explicit engine's compact step records (transition instance, choice
//! index) back into interpreter steps: the compiled evaluator fires the step, and the
//! reference interpreter must produce the same successor and names the choices made.

use crate::model::compiled::{Compiled, Scratch};
use crate::model::eval::{self, Miss, Step};
use crate::model::instance::{Instance, State};

/// Fire compiled transition instance `k` with choice index `choice` on `st`, and
/// return the step as the reference interpreter names it with the successor state.
pub fn step_for(
    inst: &Instance,
    compiled: &Compiled,
    st: &[i64],
    k: usize,
    choice: usize,
) -> Result<(Step, State), String> {
    let ct = &compiled.trans[k];
    let mut next = None;
    let mut cur = st.to_vec();
    compiled.fire(k, &mut cur, &mut Scratch::default(), &mut |i, succ, _| {
        if i == choice {
            next = Some(succ.to_vec());
        }
    });
    let next = next.ok_or("a recorded step does not fire")?;
    let choices =
        eval::step_choices(inst, st, ct.trans, &ct.params, &next).map_err(|m| match m {
            Miss::NotASuccessor => {
                "the reference interpreter does not produce a recorded successor"
            }
            Miss::Disabled => "the reference interpreter disagrees on a recorded step",
        })?;
    Ok((
        Step {
            trans: ct.trans,
            params: ct.params.clone(),
            choices,
        },
        next,
    ))
}

/// The reference interpreter's step of transition `trans` with `params` from `st` to
/// `target`, if there is one.
pub fn step_to(
    inst: &Instance,
    st: &[i64],
    trans: usize,
    params: &[i64],
    target: &[i64],
) -> Option<Step> {
    let choices = eval::step_choices(inst, st, trans, params, target).ok()?;
    Some(Step {
        trans,
        params: params.to_vec(),
        choices,
    })
}
