//! `nfold live`: LTL properties by nested depth-first search, for one size or a range,
//! rendered as a table, lassos and a summary (or one JSON document).

use super::traces::{TraceArgs, TraceFormat, render_lasso, render_trace};
use super::{EXIT_LIMIT, EXIT_NOT_PROVED, EXIT_OK, EXIT_VIOLATION, RunArgs, load};
use super::{ctrl_c_flag, parse_data_values, sizes_for, usage};
use super::{parse_size, parse_sizes};
use crate::explicit::ndfs::{self, LiveOptions, LiveResult, LiveVerdict};
use crate::explicit::reach::peak_memory;
use crate::lasso;
use crate::ltl::{self, LtlProperty};
use crate::model::ir::Model;
use crate::trace;
use crate::verdict::Limit;
use clap::Args;
use serde_json::{Value, json};
use std::time::Instant;

#[derive(Args, Debug)]
#[command(
    after_help = "Which search answers: under --fair the fair SCC search (Couvreur's \
                  algorithm on the annotated quotient by symmetry: each edge carries the \
                  permutation to its target's representative, and a component holds a \
                  weakly fair cycle exactly when every orbit of the permutations its \
                  cycles generate contains a process that executes or is disabled in it); \
                  without --fair the nested depth-first search. Both reduce by symmetry on \
                  a fully symmetric family where it identifies states (n >= 3 for a \
                  property of a process, n >= 2 otherwise; not with --no-symmetry), and \
                  both are exact: `holds` is a proof for that size, and every lasso is \
                  replayed on the interpreter of the unreduced instance (fairness \
                  checked) before it is printed.\n\n\
                  Exit codes: 0 every answer proved (holds), 1 violation or range error \
                  found, 2 usage or input error, 3 a limit hit (or a lasso failed to replay) \
                  before an answer, 4 no violation found but some answer is not a proof \
                  (a store left the int window: `int_bound`)."
)]
pub(crate) struct LiveArgs {
    /// The model file (.cub).
    file: String,
    /// Range of sizes to check, e.g. `1..5` (default: 1..4, or the size fixed by
    /// `number_procs`).
    #[arg(long, value_name = "A..B", value_parser = parse_sizes, conflicts_with = "size")]
    sizes: Option<(usize, usize)>,
    /// A single size.
    #[arg(long, value_name = "N", value_parser = parse_size)]
    size: Option<usize>,
    /// Check only this `ltl` property (repeatable; default: all).
    #[arg(long = "property", value_name = "NAME")]
    properties: Vec<String>,
    /// Only weakly fair runs count: every process that stays enabled eventually executes.
    #[arg(long)]
    fair: bool,
    /// Do not reduce by symmetry even when the family is fully symmetric.
    #[arg(long)]
    no_symmetry: bool,
    /// Stop a search after storing this many product states.
    #[arg(long, value_name = "M")]
    max_states: Option<usize>,
    /// Print lassos as the search found them, without looking for a shorter one.
    #[arg(long)]
    no_shorten: bool,
    /// The number of values of every abstract type (`type data`; default: chosen from
    /// the model, see `nfold info`).
    #[arg(long, value_name = "D", value_parser = parse_data_values)]
    data_values: Option<usize>,
    /// The window over which `int` is checked (default: derived from the model).
    #[arg(long, value_name = "LO..HI", value_parser = super::parse_int_range, allow_hyphen_values = true)]
    int_range: Option<(i64, i64)>,
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    traces: TraceArgs,
}

/// The search stopped at a store leaving the int window (`int_bound`), not at a
/// range error: no answer, but no error of the model either.
fn left_window(r: &LiveResult) -> bool {
    r.range
        .as_ref()
        .is_some_and(|t| t.violation.kind_name() == "int_bound")
}

/// The search stopped at a range error.
fn range_error(r: &LiveResult) -> bool {
    r.range.is_some() && !left_window(r)
}

fn verdict_text(r: &LiveResult) -> &'static str {
    if left_window(r) {
        return "int_bound";
    }
    if r.range.is_some() {
        return "range error";
    }
    match r.verdict {
        LiveVerdict::Holds => "holds",
        LiveVerdict::Violated => "VIOLATED",
        LiveVerdict::Unknown => "unknown",
    }
}

fn process_text(p: Option<i64>) -> String {
    p.map(|p| p.to_string()).unwrap_or_else(|| "-".into())
}

/// The search column: which algorithm answered.
fn search_text(r: &LiveResult) -> String {
    r.algorithm.name().to_string()
}

fn row(model: &Model, r: &LiveResult) -> String {
    format!(
        "{:>4}  {:<20} {:>7}  {:<14} {:<12} {:>11} {:>12} {:>8} {:>8.2}s\n",
        r.size,
        model.ltls[r.prop].name,
        process_text(r.process),
        search_text(r),
        verdict_text(r),
        r.stats.states,
        r.stats.transitions,
        r.stats.max_depth,
        r.stats.seconds
    )
}

/// Run `nfold live`; returns the exit code.
pub(crate) fn live(a: LiveArgs) -> i32 {
    let model = match load(&a.file, a.data_values, a.int_range) {
        Ok(m) => m,
        Err(code) => return code,
    };
    if model.ltls.is_empty() {
        return usage("the model states no `ltl` property (`nfold check` checks `unsafe` ones)");
    }
    let sizes = match sizes_for(&model, a.sizes, a.size) {
        Ok(s) => s,
        Err(e) => return usage(&e),
    };
    let mut props = Vec::new();
    for p in &a.properties {
        match model.ltls.iter().position(|l| &l.name == p) {
            Some(k) => props.push(k),
            None => {
                let names: Vec<&str> = model.ltls.iter().map(|l| l.name.as_str()).collect();
                return usage(&format!(
                    "no `ltl` property named `{p}` (the model has: {})",
                    names.join(", ")
                ));
            }
        }
    }
    if props.is_empty() {
        props = (0..model.ltls.len()).collect();
    }
    let mut prepared = Vec::new();
    for &k in &props {
        match LtlProperty::new(&model, k) {
            Ok(p) => prepared.push(p),
            Err(e) => return usage(&format!("ltl property `{}`: {e}", model.ltls[k].name)),
        }
    }
    let stop = ctrl_c_flag();
    let start = Instant::now();
    let opts = LiveOptions {
        symmetry: !a.no_symmetry,
        fair: a.fair,
        max_states: a.max_states,
        max_memory: a.run.memory_cap(),
        deadline: a.run.deadline(start),
        stop: Some(stop),
        progress: a.run.progress_on(),
        shorten: !a.no_shorten,
        search: ndfs::LiveSearch::Auto,
    };
    let sym_on = !a.no_symmetry && model.is_symmetric();
    if !a.run.json {
        print!("{}", header(&model, &prepared, &opts, sym_on));
    }
    let mut results: Vec<LiveResult> = Vec::new();
    let mut limit: Option<Limit> = None;
    'sizes: for &n in &sizes {
        for p in &prepared {
            for process in ltl::processes_to_check(&model, p.prop, n) {
                let r = ndfs::check(&model, n, p, process, &opts);
                for e in &r.internal_errors {
                    eprintln!("nfold: internal error: a counterexample failed to replay: {e}");
                }
                if !a.run.json {
                    print!("{}", row(&model, &r));
                }
                let l = r.limit;
                // Under symmetry the other processes follow; otherwise one violating
                // process answers the property at this size.
                let stop_here = r.verdict == LiveVerdict::Violated || r.range.is_some();
                results.push(r);
                if l.is_some() {
                    limit = l;
                    break 'sizes;
                }
                if stop_here {
                    break;
                }
            }
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    if a.run.json {
        let doc = json_doc(&model, &results, &opts, sym_on, &sizes, limit, seconds);
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        print!(
            "{}",
            footer(
                &model,
                &prepared,
                &results,
                &opts,
                &sizes,
                limit,
                seconds,
                a.traces.trace_format
            )
        );
    }
    if let Some(path) = &a.traces.trace_out
        && let Err(code) = save_first(&model, &results, path)
    {
        return code;
    }
    exit_code(&results, limit.is_some())
}

/// 1 when anything is violated (or met a range error); else 3 when a limit stopped the
/// run or an answer is unknown; else 4 when the search left the int window
/// (`int_bound`); else 0.
fn exit_code(results: &[LiveResult], limited: bool) -> i32 {
    if results
        .iter()
        .any(|r| r.verdict == LiveVerdict::Violated || range_error(r))
    {
        EXIT_VIOLATION
    } else if limited
        || results.iter().any(|r| {
            (r.verdict == LiveVerdict::Unknown && !left_window(r)) || !r.internal_errors.is_empty()
        })
    {
        EXIT_LIMIT
    } else if results.iter().any(left_window) {
        EXIT_NOT_PROVED
    } else {
        EXIT_OK
    }
}

/// The header's symmetry line: whether the family is symmetric, whether the search is
/// reduced and under which permutations, and for which processes a property is checked
/// (only properties of a process `ltl name (i)` have one to name).
fn symmetry_text(model: &Model, props: &[LtlProperty], opts: &LiveOptions, sym_on: bool) -> String {
    let of_process = props.iter().any(|p| model.ltls[p.prop].params > 0);
    let without = props.iter().any(|p| model.ltls[p.prop].params == 0);
    let mut groups = Vec::new();
    if of_process {
        groups.push(
            "for a property of process i, the permutations fixing process 1: it is checked \
             for i = 1 and holds for every i by symmetry",
        );
    }
    if without {
        groups.push("for a property without a process parameter, all permutations");
    }
    if sym_on {
        let mut s = format!(
            "fully symmetric; reduction on where it identifies states ({})",
            groups.join("; ")
        );
        if opts.fair {
            s.push_str(
                "; with fairness on the annotated quotient, each edge labelled with its \
                 permutation (exact)",
            );
        }
        s
    } else if model.is_symmetric() {
        format!(
            "fully symmetric; reduction off (--no-symmetry){}",
            if of_process {
                "; a property of process i is checked for i = 1"
            } else {
                ""
            }
        )
    } else {
        format!(
            "{}; reduction off{}",
            model.symmetry_summary(),
            if of_process {
                "; a property of process i is checked for every i"
            } else {
                ""
            }
        )
    }
}

fn header(model: &Model, props: &[LtlProperty], opts: &LiveOptions, sym_on: bool) -> String {
    let autos: Vec<String> = props
        .iter()
        .map(|p| {
            format!(
                "¬{}: {} states",
                model.ltls[p.prop].name,
                p.buchi.states.len()
            )
        })
        .collect();
    let symmetry = symmetry_text(model, props, opts, sym_on);
    format!(
        "model     {}\nsymmetry  {}\n{}engine    {} on the product with the Büchi automaton ({}){}\n\n{:>4}  {:<20} {:>7}  {:<14} {:<12} {:>11} {:>12} {:>8} {:>9}\n",
        model.source.name,
        symmetry,
        super::render::ints_line(model),
        if opts.fair {
            "fair SCC search"
        } else {
            "nested depth-first search"
        },
        autos.join(", "),
        if opts.fair {
            "; weak fairness per process"
        } else {
            "; no fairness"
        },
        "size",
        "property",
        "process",
        "search",
        "verdict",
        "states",
        "transitions",
        "depth",
        "time"
    )
}

/// `--trace-out FILE`: save the first counterexample (a lasso, or the trace to a range
/// error), in the order the results were found, and say so on stderr.
fn save_first(model: &Model, results: &[LiveResult], path: &str) -> Result<(), i32> {
    for r in results {
        let saved = match (&r.lasso, &r.range) {
            (Some(l), _) => lasso::save(model, l, path),
            (None, Some(t)) => trace::save(model, t, path),
            (None, None) => continue,
        };
        return match saved {
            Ok(()) => {
                eprintln!(
                    "nfold: counterexample for {} at size {} saved to {path} (`nfold replay` re-runs it)",
                    lasso::property_text(model, r.prop, r.process),
                    r.size
                );
                Ok(())
            }
            Err(e) => Err(usage(&e)),
        };
    }
    eprintln!("nfold: no counterexample found: {path} not written");
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn footer(
    model: &Model,
    props: &[LtlProperty],
    results: &[LiveResult],
    opts: &LiveOptions,
    sizes: &[usize],
    limit: Option<Limit>,
    seconds: f64,
    format: TraceFormat,
) -> String {
    let mut out = String::new();
    for r in results {
        if let Some(l) = &r.lasso {
            let states = l.replay(model).unwrap_or_default();
            out.push_str(&format!(
                "\nsize {}: {} violated by a {}lasso of {} steps, cycle of {} (replayed on the interpreter{}):\n",
                r.size,
                lasso::property_text(model, r.prop, r.process),
                if opts.fair { "weakly fair " } else { "" },
                l.steps.len(),
                if l.is_deadlock() {
                    "a deadlock".to_string()
                } else {
                    format!("{} steps", l.steps.len() - l.loop_start)
                },
                if opts.fair {
                    ", fairness checked"
                } else {
                    ""
                }
            ));
            if !states.is_empty() {
                out.push_str(&render_lasso(model, l, &states, format));
            }
        }
        if let Some(t) = &r.range {
            let states = t.replay(model).unwrap_or_default();
            out.push_str(&format!(
                "\nsize {}: the search stopped at {}, reached by a run of {} steps (replayed on the interpreter):\n",
                r.size,
                if left_window(r) {
                    "a store leaving the int window (int_bound: no answer for this size)"
                } else {
                    "a range error"
                },
                t.depth()
            ));
            if states.len() == t.steps.len() + 1 {
                out.push_str(&render_trace(model, t, &states, format));
            }
        }
    }
    if let Some(l) = limit {
        let at = results.last().map(|r| r.size).unwrap_or(0);
        out.push_str(&format!("\nstopped: {} at size {at}\n", l.text()));
        let skipped: Vec<String> = sizes
            .iter()
            .filter(|&&n| n > at)
            .map(|n| n.to_string())
            .collect();
        if !skipped.is_empty() {
            out.push_str(&format!("not run: sizes {}\n", skipped.join(", ")));
        }
    }
    out.push('\n');
    for p in props {
        let name = &model.ltls[p.prop].name;
        let of = |v: LiveVerdict| -> Vec<String> {
            let mut ns: Vec<usize> = results
                .iter()
                .filter(|r| r.prop == p.prop && r.verdict == v && r.range.is_none())
                .map(|r| r.size)
                .collect();
            ns.dedup();
            ns.iter().map(|n| n.to_string()).collect()
        };
        let violated = of(LiveVerdict::Violated);
        let mut parts = Vec::new();
        if !violated.is_empty() {
            parts.push(format!("violated at {}", sizes_words(&violated)));
        }
        let holds: Vec<String> = sizes
            .iter()
            .filter(|&&n| {
                let rs: Vec<&LiveResult> = results
                    .iter()
                    .filter(|r| r.prop == p.prop && r.size == n)
                    .collect();
                !rs.is_empty()
                    && rs
                        .iter()
                        .all(|r| r.verdict == LiveVerdict::Holds && r.range.is_none())
            })
            .map(|n| n.to_string())
            .collect();
        if !holds.is_empty() {
            parts.push(format!("holds at {}", sizes_words(&holds)));
        }
        for (what, pick) in [
            ("range error", range_error as fn(&LiveResult) -> bool),
            ("int window left (int_bound)", left_window),
        ] {
            let mut ranged: Vec<usize> = results
                .iter()
                .filter(|r| r.prop == p.prop && pick(r))
                .map(|r| r.size)
                .collect();
            ranged.dedup();
            if !ranged.is_empty() {
                let ns: Vec<String> = ranged.iter().map(|n| n.to_string()).collect();
                parts.push(format!("{what} at {}", sizes_words(&ns)));
            }
        }
        let unknown = of(LiveVerdict::Unknown);
        if !unknown.is_empty() {
            parts.push(format!("unknown at {}", sizes_words(&unknown)));
        }
        out.push_str(&format!(
            "{name}{}: {}\n",
            if opts.fair { " (weak fairness)" } else { "" },
            if parts.is_empty() {
                "no answer".to_string()
            } else {
                parts.join("; ")
            }
        ));
    }
    out.push_str(&format!(
        "{:.2}s{}\n",
        seconds,
        peak_memory()
            .map(|b| format!(", peak memory {:.1} MiB", b as f64 / (1 << 20) as f64))
            .unwrap_or_default()
    ));
    out
}

fn json_doc(
    model: &Model,
    results: &[LiveResult],
    opts: &LiveOptions,
    sym_on: bool,
    sizes: &[usize],
    limit: Option<Limit>,
    seconds: f64,
) -> Value {
    let rows: Vec<Value> = results
        .iter()
        .map(|r| {
            let lasso = r.lasso.as_ref().map(|l| {
                let states = l.replay(model).unwrap_or_default();
                lasso::to_json(model, l, &states)
            });
            let as_json = |t: &crate::trace::Trace| {
                let states = t.replay(model).unwrap_or_default();
                trace::to_json(model, t, &states)
            };
            let range = r.range.as_ref().filter(|_| range_error(r)).map(as_json);
            let int_bound = r.range.as_ref().filter(|_| left_window(r)).map(as_json);
            json!({
                "size": r.size,
                "property": model.ltls[r.prop].name,
                "process": r.process,
                "verdict": if r.range.is_some() { "unknown" } else { r.verdict.json_name() },
                "fair": r.fair,
                "symmetry_reduction": r.symmetry,
                "algorithm": r.algorithm.name(),
                "states": r.stats.states,
                "nodes": r.stats.nodes,
                "nested_nodes": r.stats.nested_nodes,
                "transitions": r.stats.transitions,
                "max_depth": r.stats.max_depth,
                "seconds": r.stats.seconds,
                "bytes": r.stats.bytes,
                "limit": r.limit.map(|l| l.text()),
                "trace": lasso,
                "range_error": range,
                "int_bound": int_bound,
            })
        })
        .collect();
    json!({
        "model": model.source.name,
        "engine": "ndfs",
        "fair": opts.fair,
        "symmetric": model.is_symmetric(),
        "symmetry": model.symmetry_summary(),
        "symmetry_reduction": sym_on,
        "results": rows,
        "int_window": super::render::int_window_json(model),
        "limit": limit.map(|l| l.text()),
        "sizes": sizes,
        "seconds": seconds,
        "peak_memory_bytes": peak_memory(),
    })
}

/// `size 4` for one size, `sizes 2, 3` for several.
fn sizes_words(ns: &[String]) -> String {
    if ns.len() == 1 {
        format!("size {}", ns[0])
    } else {
        format!("sizes {}", ns.join(", "))
    }
}
