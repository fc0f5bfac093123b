//! `nfold dot`: the reachable state graph of one instance (or its quotient by symmetry)
//! in Graphviz DOT, optionally with a saved trail's path highlighted.

use super::replay::load_with_trail;
use super::{EXIT_LIMIT, EXIT_OK, EXIT_USAGE, EXIT_VIOLATION, load, parse_data_values};
use super::{parse_size, sizes_for, usage};
use crate::dot::{self, Graph, GraphError, Highlight};
use crate::model::canon::Symmetry;
use crate::model::instance::Instance;
use crate::model::ir::Model;
use crate::trail::{self, Ending, Pick, Replay, Trail};
use clap::Args;

pub(crate) const AFTER_HELP: &str = "\
One node per reachable state, labelled with its cells (`Sem=False A=[Idle,Want]`); one \
edge per transition instance (and choice of its nondeterministic updates) from it. \
Initial states have a double outline, states violating an `unsafe` property are filled \
red, states where a range error is met have an orange outline, deadlocks are octagons, \
and the path of --trace is blue. Render with Graphviz, e.g. `dot -Tsvg out.dot -o \
out.svg`.

Exit codes: 0 the graph was written; 1 evaluating `init` meets a range error (no graph); \
2 usage or input error (including a trail that does not replay on the model); 3 more \
reachable states than --max-states (nothing written).";

#[derive(Args, Debug)]
pub(crate) struct DotArgs {
    /// The model file (.cub).
    file: String,
    /// The instance size (required unless the model fixes it or --trace gives it).
    #[arg(long, value_name = "N", value_parser = parse_size)]
    size: Option<usize>,
    /// One node per orbit under symmetry, drawn as its canonical representative
    /// (families that are fully symmetric or have interchangeable data values only).
    #[arg(long)]
    symmetry: bool,
    /// Refuse instances with more reachable states (or orbits) than this.
    #[arg(long, value_name = "M", default_value_t = 2000)]
    max_states: usize,
    /// Highlight the path of a saved trail (see `nfold replay --help` for the files
    /// accepted).
    #[arg(long = "trace", value_name = "FILE")]
    trace: Option<String>,
    /// Write to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<String>,
    /// The number of values of every abstract type (`type data`; default: chosen from
    /// the model).
    #[arg(long, value_name = "D", value_parser = parse_data_values)]
    data_values: Option<usize>,
    /// The window over which `int` is checked (default: derived from the model, or as recorded in the trail).
    #[arg(long, value_name = "LO..HI", value_parser = super::parse_int_range, allow_hyphen_values = true)]
    int_range: Option<(i64, i64)>,
}

/// Run `nfold dot`; returns the exit code.
pub(crate) fn dot(a: DotArgs) -> i32 {
    let (model, trail) = match &a.trace {
        Some(path) => {
            let pick = Pick {
                size: a.size,
                property: None,
            };
            match load_with_trail(&a.file, path, &pick, a.data_values, a.int_range) {
                Ok((m, t)) => (m, Some(t)),
                Err(code) => return code,
            }
        }
        None => match load(&a.file, a.data_values, a.int_range) {
            Ok(m) => (m, None),
            Err(code) => return code,
        },
    };
    let size = a.size.or(trail.as_ref().map(|t| t.size));
    if size.is_none() && model.number_procs.is_none() {
        return usage("give the instance size with --size N");
    }
    let n = match sizes_for(&model, None, size) {
        Ok(s) => s[0],
        Err(e) => return usage(&e),
    };
    if a.symmetry && !model.is_symmetric() && !model.has_data_symmetry() {
        return usage(&format!(
            "--symmetry: the family is {}, so identifying states up to symmetry would not be sound; draw it without --symmetry",
            model.symmetry_summary()
        ));
    }
    let inst = Instance::new(&model, n);
    let sym = if a.symmetry {
        Symmetry::for_search(&inst, true)
    } else {
        None
    };
    let replayed = match &trail {
        None => None,
        Some(t) => match replay_trail(&model, t) {
            Ok(r) => Some(r),
            Err(code) => return code,
        },
    };
    let g = match graph(&inst, sym.as_ref(), a.max_states) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let highlight = replayed.as_ref().map(|r| Highlight {
        name: format!(
            "the trail {}{}",
            trail.as_ref().map(|t| t.file.as_str()).unwrap_or(""),
            match &r.outcome {
                Ok(Ending::Lasso(_)) => " (a lasso)",
                _ => "",
            }
        ),
        states: &r.states,
        steps: &r.steps,
    });
    let text = match dot::to_dot(&inst, &g, sym.as_ref(), highlight.as_ref()) {
        Ok(t) => t,
        Err(e) => return usage(&e),
    };
    let summary = format!(
        "{} {}, {} edges, {} initial, {} violating an `unsafe` property",
        g.states.len(),
        if g.quotient { "orbits" } else { "states" },
        g.edges.len(),
        g.initial.iter().filter(|&&i| i).count(),
        g.bad.iter().filter(|b| !b.is_empty()).count()
    );
    match &a.output {
        Some(path) => {
            if let Err(e) = std::fs::write(path, &text) {
                return usage(&format!("cannot write {path}: {e}"));
            }
            eprintln!("nfold: wrote {path}: {summary}");
        }
        None => {
            print!("{text}");
            eprintln!("nfold: {summary}");
        }
    }
    EXIT_OK
}

/// The trail `t` replayed on `model`; `Err` is the exit code once the error is told.
fn replay_trail(model: &Model, t: &Trail) -> Result<Replay, i32> {
    let r = trail::replay(model, t);
    match &r.outcome {
        Ok(_) => Ok(r),
        Err(m) => {
            eprintln!(
                "nfold: error: the trail {} does not replay on this model: at {} (see `nfold replay`)",
                t.file,
                m.text(t.trace.steps.len())
            );
            Err(EXIT_USAGE)
        }
    }
}

/// The reachable graph of `inst` (quotient by `sym` when given); `Err` is the exit code
/// once the reason it is not drawn is told.
fn graph(inst: &Instance, sym: Option<&Symmetry>, max_states: usize) -> Result<Graph, i32> {
    let (model, n) = (inst.model, inst.n);
    match dot::build(inst, sym, max_states) {
        Ok(g) => Ok(g),
        Err(GraphError::TooMany(m)) => {
            eprintln!(
                "nfold: the instance of size {n} has more than {m} reachable {}; not drawing it (raise --max-states{})",
                if sym.is_some() { "orbits" } else { "states" },
                if sym.is_none() && model.is_symmetric() && n > 1 {
                    ", or draw the quotient with --symmetry"
                } else {
                    ""
                }
            );
            Err(EXIT_LIMIT)
        }
        Err(GraphError::Init(e)) => {
            eprintln!("nfold: evaluating init meets a range error: {e}; no graph");
            Err(EXIT_VIOLATION)
        }
    }
}
