//! `nfold simulate`: one random run of an instance on the reference interpreter,
//! printed like a counterexample (or as a JSON trail).

use super::traces::{TraceArgs, render_run, render_trace};
use super::{EXIT_LIMIT, EXIT_OK, EXIT_VIOLATION, load, parse_data_values, parse_size};
use super::{sizes_for, usage};
use crate::model::ir::Model;
use crate::schema::{SimulateDoc, Tool, TraceDoc};
use crate::simulate::{self, End, InitialDraw, SimOptions, Simulation};
use crate::trace;
use clap::Args;

pub(crate) const AFTER_HELP: &str = "\
The run starts in a random initial state (uniformly among them when there are at most \
10000), and at each step fires a uniformly random enabled transition instance, with \
uniformly random values for `X := .` and `any`. It stops after --steps steps, in a \
state violating an `unsafe` property, at a range error (a transition instance or \
property meeting one in the current state) or in a deadlock. The same seed gives the \
same run.

Exit codes: 0 the run took its steps or ended in a deadlock (or there is no initial \
state); 1 it reached a state violating an `unsafe` property or a range error (or a \
deadlock, with --deadlock); 2 usage or input error; 3 internal error (the run failed to \
replay).";

#[derive(Args, Debug)]
pub(crate) struct SimulateArgs {
    /// The model file (.cub).
    file: String,
    /// The instance size (required unless the model fixes it with `number_procs`).
    #[arg(long, value_name = "N", value_parser = parse_size)]
    size: Option<usize>,
    /// Stop after this many steps.
    #[arg(long, value_name = "K", default_value_t = 50)]
    steps: usize,
    /// Seed of the random choices (default: from the clock; printed either way, so the
    /// run can be repeated).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Check only this `unsafe` property along the run (repeatable; default: all).
    #[arg(long = "property", value_name = "NAME")]
    properties: Vec<String>,
    /// A deadlock ends the run as a violation (exit code 1).
    #[arg(long)]
    deadlock: bool,
    /// The number of values of every abstract type (`type data`; default: chosen from
    /// the model, see `nfold info`).
    #[arg(long, value_name = "D", value_parser = parse_data_values)]
    data_values: Option<usize>,
    /// The window over which `int` is checked (default: derived from the model).
    #[arg(long, value_name = "LO..HI", value_parser = super::parse_int_range, allow_hyphen_values = true)]
    int_range: Option<(i64, i64)>,
    /// Print the run as one JSON document (a trail: `nfold replay` reads it).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    traces: TraceArgs,
}

fn end_name(e: &End) -> &'static str {
    match e {
        End::Steps => "steps",
        End::Deadlock => "deadlock",
        End::Unsafe => "unsafe",
        End::Range => "range_error",
        End::IntBound => "int_bound",
        End::NoInitialState => "no_initial_state",
    }
}

/// The run as a trace-shaped document (none without an initial state).
fn run_doc(model: &crate::model::ir::Model, sim: &Simulation) -> Option<TraceDoc> {
    match sim.trace() {
        _ if sim.states.is_empty() => None,
        Some(t) => Some(trace::to_doc(model, &t, &sim.states)),
        None => Some(trace::run_doc(model, sim.size, &sim.steps, &sim.states)),
    }
}

/// Run `nfold simulate`; returns the exit code.
pub(crate) fn simulate(a: SimulateArgs) -> i32 {
    let model = match load(&a.file, a.data_values, a.int_range) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let n = match (model.number_procs, a.size) {
        (None, None) => return usage("give the instance size with --size N"),
        _ => match sizes_for(&model, None, a.size) {
            Ok(s) => s[0],
            Err(e) => return usage(&e),
        },
    };
    let props = match property_indices(&model, &a.properties) {
        Ok(p) => p,
        Err(e) => return usage(&e),
    };
    let seed = a.seed.unwrap_or_else(simulate::time_seed);
    let opts = SimOptions {
        steps: a.steps,
        seed,
        props: if props.is_empty() { None } else { Some(props) },
    };
    let sim = simulate::simulate(&model, n, &opts);
    // Built on the interpreter, the run is real; replaying it again guards the code
    // that assembled it.
    let trace = sim.trace();
    if let Some(t) = &trace
        && let Err(e) = t.replay(&model)
    {
        eprintln!("nfold: internal error: the simulated run failed to replay: {e}");
        return EXIT_LIMIT;
    }
    let violated = match sim.end {
        End::Unsafe | End::Range => true,
        End::Deadlock => a.deadlock,
        // Leaving the int window is where the check stops, not an error of the model.
        End::Steps | End::NoInitialState | End::IntBound => false,
    };
    let doc = || sim_doc(&model, n, &sim, &a, seed);
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&doc()).unwrap_or_default()
        );
    } else {
        print!("{}", text(&model, &sim, &a));
    }
    if let Some(path) = &a.traces.trace_out {
        if sim.states.is_empty() {
            eprintln!("nfold: no run (no initial state): {path} not written");
        } else {
            let saved = match &trace {
                Some(t) => trace::save(&model, t, path),
                None => trace::write_json(std::path::Path::new(path), &doc()),
            };
            match saved {
                Ok(()) => eprintln!("nfold: run saved to {path} (`nfold replay` re-runs it)"),
                Err(e) => return usage(&e),
            }
        }
    }
    if violated { EXIT_VIOLATION } else { EXIT_OK }
}

/// The indices of the `unsafe` properties `names`; `Err` names one the model lacks.
fn property_indices(model: &Model, names: &[String]) -> Result<Vec<usize>, String> {
    let mut props = Vec::new();
    for p in names {
        match model.unsafe_by_name(p) {
            Some(k) => props.push(k),
            None => {
                let names: Vec<&str> = model.unsafes.iter().map(|u| u.name.as_str()).collect();
                return Err(format!(
                    "no `unsafe` or `invariant` property named `{p}` (the model has: {})",
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                ));
            }
        }
    }
    Ok(props)
}

/// The JSON document of the run `sim` at size `n`, drawn from `seed`.
fn sim_doc(model: &Model, n: usize, sim: &Simulation, a: &SimulateArgs, seed: u64) -> SimulateDoc {
    let t = trace::trail_doc(model, n, TraceDoc::empty());
    SimulateDoc {
        schema: t.schema.unwrap_or_default(),
        tool: Tool::this(),
        model: model.source.name.clone(),
        size: t.size,
        data_values: t.data_values,
        int_range: t.int_range,
        trace: run_doc(model, sim),
        seed,
        max_steps: a.steps,
        steps: sim.steps.len(),
        // A broken `invariant` block ends the run as `invariant`.
        end: match &sim.violation {
            Some(trace::Violation::Unsafe { prop, .. }) => {
                model.unsafes[*prop].kind.keyword().to_string()
            }
            _ => end_name(&sim.end).to_string(),
        },
        initial_states: match &sim.initial {
            Some(InitialDraw::Uniform(k)) => Some(*k as u64),
            _ => None,
        },
    }
}

fn text(model: &crate::model::ir::Model, sim: &Simulation, a: &SimulateArgs) -> String {
    let mut out = format!(
        "model     {}\nsize      {}\nseed      {} (the same seed repeats this run: --seed {})\n",
        model.source.name, sim.size, sim.seed, sim.seed
    );
    match &sim.initial {
        Some(InitialDraw::Uniform(k)) => out.push_str(&format!(
            "initial   drawn uniformly among {k} initial state{}\n",
            if *k == 1 { "" } else { "s" }
        )),
        Some(InitialDraw::Search) => out.push_str(&format!(
            "initial   drawn by a randomised search (more than {} initial states)\n",
            simulate::UNIFORM_INITIAL
        )),
        None => {}
    }
    out.push('\n');
    if sim.states.is_empty() {
        out.push_str(&format!(
            "no initial state at size {} (the init formula is unsatisfiable there): nothing to simulate\n",
            sim.size
        ));
        return out;
    }
    let f = a.traces.trace_format;
    match sim.trace() {
        Some(t) => {
            out.push_str(&render_trace(model, &t, &sim.states, f));
            out.push_str(&match sim.end {
                End::Deadlock if !a.deadlock => format!(
                    "\nthe run ends in a deadlock after {} steps\n",
                    sim.steps.len()
                ),
                End::Deadlock => format!(
                    "\nVIOLATION: the run reaches a deadlock after {} steps (--deadlock)\n",
                    sim.steps.len()
                ),
                End::Range => format!(
                    "\nVIOLATION: the run meets a range error after {} steps\n",
                    sim.steps.len()
                ),
                End::IntBound => format!(
                    "\nthe run stops after {} steps: the next step would leave the int window (int_bound)\n",
                    sim.steps.len()
                ),
                _ => format!(
                    "\nVIOLATION: the run reaches a bad state after {} steps\n",
                    sim.steps.len()
                ),
            });
        }
        None => {
            out.push_str(&render_run(model, sim.size, &sim.steps, &sim.states, f));
            out.push_str(&format!(
                "    => stopped after {} steps (--steps {}); no property violated on the way\n",
                sim.steps.len(),
                a.steps
            ));
        }
    }
    out
}
