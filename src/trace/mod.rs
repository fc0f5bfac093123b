//! Counterexamples: an initial state, the steps fired and what goes wrong at the end.
//! Every trace any engine reports is replayed here on the reference interpreter of the
//! unreduced instance before it is printed; rendering to text and JSON lives here too.
//!
//! This module owns the trace and its replay; `text` renders it as lines, `table` as a
//! processes × steps chart, `json` as documents and saved trails.

mod json;
mod table;
mod text;

use crate::model::eval::{self, Fire, Step};
use crate::model::instance::{Instance, State, last_state};
use crate::model::ir::Model;

pub use json::{
    cells_doc, cells_text, run_doc, save, site_doc, steps_doc, to_doc, trail_doc, write_json,
};
pub use table::{render_run_table, render_table};
pub use text::{
    cells, changes, changes_text, choices_text, render_run_text, render_text, state_summary,
    step_label, violation_text,
};

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
        let last = last_state(&states);
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
        let last = last_state(&states);
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
