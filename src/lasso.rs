//! Counterexamples to LTL properties: lassos, a stem followed by a cycle that repeats
//! forever (or a deadlocked last state that repeats forever). Every lasso an engine
//! reports is replayed here on the reference interpreter of the unreduced instance:
//! the run must be real, the infinite word it spells must violate the property (checked
//! by a direct LTL evaluator on lasso words, independent of the Büchi automaton the
//! engine used), and under weak fairness every process enabled throughout the cycle must
//! execute on it. Rendering to text and JSON lives here too.

use crate::ltl::formula::{Formula, eval_lasso, from_ir};
use crate::model::eval::{self, Step};
use crate::model::instance::{Instance, State, last_state};
use crate::model::ir::{Expr, Model};
use crate::schema::TraceDoc;
use crate::trace::{
    cells, cells_doc, changes_text, render_run_table, replay_steps, state_summary, step_label,
    steps_doc, trail_doc, write_json,
};
use std::path::Path;

/// An infinite counterexample at one size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lasso {
    pub size: usize,
    /// The `ltl` property (index into `model.ltls`).
    pub prop: usize,
    /// The process the property is instantiated with (none for a property without a
    /// parameter).
    pub process: Option<i64>,
    pub init: State,
    pub steps: Vec<Step>,
    /// The cycle starts at state `loop_start` (state 0 is `init`, state k follows step k)
    /// and its last step returns there. When `loop_start == steps.len()` the last state
    /// is a deadlock and repeats forever (a stutter that belongs to no process).
    pub loop_start: usize,
    /// The cycle was found under weak fairness (and is checked to be weakly fair).
    pub fair: bool,
}

impl Lasso {
    /// Whether the cycle is the stutter of a deadlocked last state.
    pub fn is_deadlock(&self) -> bool {
        self.loop_start == self.steps.len()
    }

    /// Replay on the reference interpreter of the unreduced instance; returns every state
    /// of the run (the last equals the state at `loop_start` unless the run ends in a
    /// deadlock).
    pub fn replay(&self, model: &Model) -> Result<Vec<State>, String> {
        let inst = Instance::new(model, self.size);
        let l = model
            .ltls
            .get(self.prop)
            .ok_or("the lasso names no ltl property")?;
        match (l.params, self.process) {
            (0, None) => {}
            (1, Some(p)) if p >= 1 && p as usize <= self.size => {}
            _ => return Err("the lasso's process does not fit the property".into()),
        }
        match eval::satisfies_init(&inst, &self.init) {
            Ok(true) => {}
            Ok(false) => return Err("the first state is not an initial state".into()),
            Err(e) => return Err(format!("evaluating init on the first state: {e}")),
        }
        if self.loop_start > self.steps.len() {
            return Err("the cycle starts after the last state".into());
        }
        let states = replay_steps(&inst, &self.init, &self.steps)?;
        let last = last_state(&states);
        // The positions of the infinite word: without the closing repetition.
        let positions = if self.is_deadlock() {
            if !eval::is_deadlock(&inst, last) {
                return Err("the run ends in a state that is not a deadlock".into());
            }
            &states[..]
        } else {
            if *last != states[self.loop_start] {
                return Err(format!(
                    "the cycle does not return to state {}",
                    self.loop_start
                ));
            }
            &states[..states.len() - 1]
        };
        let mut atoms: Vec<Expr> = Vec::new();
        let psi: Formula = from_ir(&l.body, &mut atoms);
        let mut env = vec![0i64; l.locals.len().max(1)];
        let mut word = Vec::with_capacity(positions.len());
        for st in positions {
            let mut mask = 0u64;
            for (k, a) in atoms.iter().enumerate() {
                if let Some(p) = self.process {
                    env[0] = p;
                }
                match eval::eval(&inst, st, &mut env, a) {
                    Ok(0) => {}
                    Ok(_) => mask |= 1 << k,
                    Err(e) => return Err(format!("evaluating `{}`: {e}", l.name)),
                }
            }
            word.push(mask);
        }
        if eval_lasso(&psi, &word, self.loop_start) {
            return Err(format!("the run satisfies `{}`", l.name));
        }
        if self.fair
            && let Some(p) = self.unfair_process(&inst, &states)
        {
            return Err(format!(
                "the cycle is not weakly fair: process {p} is enabled throughout and never executes"
            ));
        }
        Ok(states)
    }

    /// A process enabled in every state of the cycle that executes no step of it.
    fn unfair_process(&self, inst: &Instance, states: &[State]) -> Option<i64> {
        let cycle = self.loop_start..self.steps.len().max(self.loop_start + 1);
        let mut always = vec![true; self.size + 1];
        for st in &states[cycle.clone()] {
            let en = enabled_processes(inst, st);
            for (p, a) in always.iter_mut().enumerate() {
                *a &= en[p];
            }
        }
        let executes = |p: i64| {
            self.steps[self.loop_start..]
                .iter()
                .any(|s| s.params.first() == Some(&p))
        };
        (1..=self.size as i64).find(|&p| always[p as usize] && !executes(p))
    }
}

/// `en[p]`: whether process p (1-based; index 0 unused) is enabled in `st`, by the
/// reference interpreter: some transition instance whose first parameter is p can fire.
pub fn enabled_processes(inst: &Instance, st: &[i64]) -> Vec<bool> {
    let mut en = vec![false; inst.n + 1];
    for (step, _) in eval::successors(inst, st).0 {
        if let Some(&p) = step.params.first() {
            en[p as usize] = true;
        }
    }
    en
}

/// `name` or `name for i=p`.
pub fn property_text(model: &Model, prop: usize, process: Option<i64>) -> String {
    let l = &model.ltls[prop];
    match process {
        Some(p) => format!("`{}` for {}={}", l.name, l.locals[0].name, p),
        None => format!("`{}`", l.name),
    }
}

fn process_text(step: &Step) -> String {
    match step.params.first() {
        Some(p) => format!("p{p}"),
        None => "-".into(),
    }
}

/// The lasso as indented text lines: the initial state, each step with its executing
/// process and the cells it changed, the start of the cycle marked, and how it closes.
pub fn render_text(model: &Model, lasso: &Lasso, states: &[State]) -> String {
    let inst = Instance::new(model, lasso.size);
    let mut out = String::new();
    let labels: Vec<String> = lasso.steps.iter().map(|s| step_label(model, s)).collect();
    let width = labels.iter().map(|l| l.len()).max().unwrap_or(0).max(9);
    out.push_str(&format!(
        "    {:>4}  {:<4} {:<width$}  {}\n",
        0,
        "",
        "(initial)",
        state_summary(&inst, &lasso.init)
    ));
    for (k, label) in labels.iter().enumerate() {
        if k == lasso.loop_start {
            out.push_str(&format!(
                "    ---- cycle starts at state {k}: {}\n",
                state_summary(&inst, &states[k])
            ));
        }
        let ch = changes_text(&inst, &states[k], &states[k + 1]);
        out.push_str(&format!(
            "    {:>4}  {:<4} {:<width$}  {}\n",
            k + 1,
            process_text(&lasso.steps[k]),
            label,
            ch
        ));
    }
    out.push_str(&closing_text(model, lasso));
    out
}

/// The lasso as JSON (`schema::TraceDoc` of kind `lasso`): the initial state, the steps
/// (each marked `in_cycle`), `loop_start`, `deadlock`, `property`, `process`, `fair` and
/// the violation in words.
pub fn to_doc(model: &Model, lasso: &Lasso, states: &[State]) -> TraceDoc {
    let inst = Instance::new(model, lasso.size);
    let mut steps = steps_doc(model, &inst, &lasso.steps, states);
    for (k, s) in steps.iter_mut().enumerate() {
        s.in_cycle = Some(k >= lasso.loop_start);
    }
    TraceDoc {
        kind: Some("lasso".into()),
        init: cells_doc(cells(&inst, &lasso.init)),
        steps,
        violation: Some(format!(
            "{} is violated",
            property_text(model, lasso.prop, lasso.process)
        )),
        processes: None,
        property: Some(model.ltls[lasso.prop].name.clone()),
        site: None,
        process: lasso.process,
        loop_start: Some(lasso.loop_start),
        deadlock: Some(lasso.is_deadlock()),
        fair: Some(lasso.fair),
    }
}

/// The lasso as a table of processes × steps (`trace::render_run_table`), with the start
/// of the cycle marked and how it closes.
pub fn render_table(model: &Model, lasso: &Lasso, states: &[State]) -> String {
    let marks = [(
        lasso.loop_start + 1,
        format!("---- cycle starts at state {}", lasso.loop_start),
    )];
    let marks: &[(usize, String)] = if lasso.is_deadlock() { &[] } else { &marks };
    let mut out = render_run_table(model, lasso.size, &lasso.steps, states, marks);
    out.push_str(&closing_text(model, lasso));
    out
}

/// The lines after the last step: how the cycle closes and what is violated.
fn closing_text(model: &Model, lasso: &Lasso) -> String {
    let mut out = if lasso.is_deadlock() {
        format!(
            "    ---- cycle: state {} is a deadlock and repeats forever\n",
            lasso.steps.len()
        )
    } else {
        format!(
            "    ---- back to state {}: the cycle of {} steps repeats forever\n",
            lasso.loop_start,
            lasso.steps.len() - lasso.loop_start
        )
    };
    out.push_str(&format!(
        "    => {} is violated{}\n",
        property_text(model, lasso.prop, lasso.process),
        if lasso.fair {
            " on a weakly fair run (every process enabled throughout the cycle executes on it)"
        } else {
            ""
        }
    ));
    out
}

/// Save one lasso as a standalone JSON file (`trace::trail_json` around `to_json`): the
/// lasso is replayed on the reference interpreter first, and one that does not replay
/// is not written. `nfold replay MODEL FILE` re-runs the file on a (possibly changed)
/// model.
pub fn save(model: &Model, lasso: &Lasso, path: impl AsRef<Path>) -> Result<(), String> {
    let states = lasso
        .replay(model)
        .map_err(|e| format!("the lasso does not replay, not saved: {e}"))?;
    let doc = trail_doc(model, lasso.size, to_doc(model, lasso, &states));
    write_json(path.as_ref(), &doc)
}
