//! `nfold check`: safety (`unsafe` properties and range errors) for a range of sizes,
//! by the engine chosen (or `auto`), through the engine contract (`engine`).

use super::render;
use super::{EncodingArg, PorArg, RunArgs, SolverArg, SymBreakArg, ctrl_c_flag, load, usage};
use super::{parse_data_values, parse_size, parse_sizes, sizes_for};
use crate::bmc::driver::BmcOptions;
use crate::bmc::engine::BmcEngine;
use crate::bmc::query::SymBreak;
use crate::cert::{Certificate, sizes_phrase};
use crate::engine::{self, Control, Engine, Problem};
use crate::explicit::engine::ExplicitEngine;
use crate::explicit::reach::StoreKind;
use crate::ic3::engine::Ic3Engine;
use crate::kind::KindEngine;
use crate::model::ir::Model;
use crate::portfolio::auto::AutoEngine;
use crate::portfolio::every::EveryN;
use crate::sat::SolverKind;
use crate::verdict::{self, EXIT_USAGE, Kind, Limit, SizeReport};
use clap::{Args, ValueEnum};
use std::sync::Arc;
use std::time::Instant;

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EngineArg {
    /// Explicit search per size while quick, then a short BMC pass for shallow
    /// violations and IC3 on the aggregate of the sizes left:
    /// every size proved or refuted.
    Auto,
    /// Exhaustive breadth-first search with symmetry reduction, one size at a time.
    Explicit,
    /// SAT-based bounded model checking up to --depth (no proofs).
    Sat,
    /// IC3 / property-directed reachability on the aggregate (proofs, checked).
    Ic3,
    /// k-induction on the aggregate, strengthened by IC3's lemmas (proofs, checked).
    Kind,
}

#[derive(Args, Debug)]
pub(crate) struct CheckArgs {
    /// The model file (.cub).
    file: String,
    /// Range of sizes to check, e.g. `1..5` (default: 1..4, or the size fixed by
    /// `number_procs`).
    #[arg(long, value_name = "A..B", value_parser = parse_sizes, conflicts_with = "size")]
    sizes: Option<(usize, usize)>,
    /// A single size.
    #[arg(long, value_name = "N", value_parser = parse_size)]
    size: Option<usize>,
    /// The engine (default: auto; explicit with --deadlock or --max-states, sat with
    /// --depth, --one-by-one or --encoding).
    #[arg(long, value_enum)]
    engine: Option<EngineArg>,
    /// sat: look for violations up to this depth (default 20); kind: the largest
    /// induction depth; auto: the depth of the bounded pass (default 10).
    #[arg(long, value_name = "K")]
    depth: Option<usize>,
    /// SAT engines: the solver (default: cadical when built in).
    #[arg(long, value_enum)]
    solver: Option<SolverArg>,
    /// sat: how cells are encoded.
    #[arg(long, value_enum, default_value_t = EncodingArg::Binary)]
    encoding: EncodingArg,
    /// sat: check each size of a range separately.
    #[arg(long)]
    one_by_one: bool,
    /// sat: keep a range of sizes in one aggregate formula even when its encoding has a
    /// case per width (`N` in a formula, a range over `N`); by default such a range is
    /// checked width by width, measured faster (see docs/engines.md).
    #[arg(long, conflicts_with = "one_by_one")]
    whole_aggregate: bool,
    /// sat: partial-order reduction of the unrolling: idle steps only at the end of a
    /// run (idle), also commuting transition instances in one fixed order between
    /// adjacent steps (full: wins on counting arguments such as the ticket lock, costs up
    /// to 2x on easy queries), or every interleaving (off). Verdicts and shortest depths
    /// are the same in every mode (see docs/engines.md).
    #[arg(long, value_enum, default_value_t = PorArg::Idle)]
    por: PorArg,
    /// sat: which symmetry breaking (fully symmetric families only; --no-symmetry means
    /// off).
    #[arg(long, value_enum, default_value_t = SymBreakArg::WitnessLex)]
    symmetry_breaking: SymBreakArg,
    /// No symmetry: no reduction (explicit), no symmetry breaking (sat), no lemma
    /// orbits (ic3, kind).
    #[arg(long)]
    no_symmetry: bool,
    /// explicit, auto: store every state as it is, without setting dead cells (cells
    /// no transition or property reads before writing them again, see `nfold info`)
    /// to one value.
    #[arg(long)]
    no_dead_cells: bool,
    /// explicit: also report reachable deadlocks (states with no enabled transition).
    #[arg(long)]
    deadlock: bool,
    /// Check only this `unsafe` or `invariant` property (repeatable).
    #[arg(long = "property", value_name = "NAME")]
    properties: Vec<String>,
    /// explicit: stop a size after storing this many states.
    #[arg(long, value_name = "M")]
    max_states: Option<usize>,
    /// explicit, auto: threads for the explicit search (default: one per core); the
    /// states, counts and answers are the same at every count.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
    /// explicit: how states are stored: exact; or, for bug hunting on instances whose
    /// states do not fit, hash-compact (a 64-bit signature each) or bitstate[:BYTES]
    /// (3 bits each in a bit array, 512M unless given), which may miss states: "no
    /// violation" is then `none found*` with the probability of a miss, not `holds`.
    #[arg(long, value_name = "STORE", value_parser = parse_store, default_value = "exact")]
    store: StoreKind,
    /// auto, ic3: also try to prove the properties for every size n, by a quantified
    /// invariant checked up to a cutoff (the default when neither --sizes nor --size
    /// is given).
    #[arg(long)]
    every_n: bool,
    /// ic3, kind, auto: write the checked certificate of the sizes proved to FILE (auto
    /// then skips its explicit pass, so that sizes are proved by invariants).
    #[arg(long, value_name = "FILE")]
    certificate: Option<String>,
    /// The number of values of every abstract type (`type data`; default: chosen from
    /// the model, see `nfold info`).
    #[arg(long, value_name = "D", value_parser = parse_data_values)]
    data_values: Option<usize>,
    /// The window over which `int` is checked (default: derived from the model).
    #[arg(long, value_name = "LO..HI", value_parser = super::parse_int_range, allow_hyphen_values = true)]
    int_range: Option<(i64, i64)>,
    #[command(flatten)]
    traces: super::traces::TraceArgs,
    #[command(flatten)]
    run: RunArgs,
}

/// Everything the renderer needs about a run.
pub(crate) struct Run<'a> {
    pub model: &'a Model,
    /// The engine's JSON name.
    pub engine: &'static str,
    /// One line describing the engine and its settings.
    pub engine_text: String,
    /// How the engine presents itself.
    pub presentation: crate::engine::Presentation,
    pub symmetry_requested: bool,
    /// The arrays whose dead cells the explicit search normalizes, described.
    pub dead_cells: Vec<String>,
    pub sizes: Vec<usize>,
    pub reports: Vec<SizeReport>,
    pub limit: Option<Limit>,
    pub seconds: f64,
    /// The sizes were answered as one aggregate.
    pub aggregate: bool,
    /// The aggregate run checked its widths one by one (`bmc::driver::check_aggregate`).
    pub per_width: bool,
    pub notes: Vec<String>,
    pub certificate: Option<Arc<Certificate>>,
    pub trace_format: super::traces::TraceFormat,
    /// The answer for every size, when it was asked for (or tried by default).
    pub every: Option<EveryN>,
    /// `--every-n` was given (an answer short of it is then not what was asked).
    pub every_requested: bool,
}

/// `--store`: `exact`, `hash-compact`, `bitstate` or `bitstate:BYTES`.
fn parse_store(s: &str) -> Result<StoreKind, String> {
    match s.split_once(':') {
        None if s == "exact" => Ok(StoreKind::Exact),
        None if s == "hash-compact" => Ok(StoreKind::HashCompact),
        None if s == "bitstate" => Ok(StoreKind::bitstate_of_bytes(512 << 20)),
        Some(("bitstate", size)) => super::parse_bytes(size).map(StoreKind::bitstate_of_bytes),
        _ => Err(format!(
            "`{s}` is not a store (exact, hash-compact, bitstate or bitstate:BYTES)"
        )),
    }
}

fn engine_for(a: &CheckArgs, solver: SolverKind) -> Result<(EngineArg, Box<dyn Engine>), String> {
    // The default is auto; flags that belong to one engine choose it.
    let lossy = !a.store.exact();
    let engine = a
        .engine
        .unwrap_or(if a.deadlock || a.max_states.is_some() || lossy {
            EngineArg::Explicit
        } else if a.depth.is_some()
            || a.one_by_one
            || a.whole_aggregate
            || a.encoding != EncodingArg::Binary
            || a.por != PorArg::Idle
        {
            EngineArg::Sat
        } else {
            EngineArg::Auto
        });
    let sat_only = a.one_by_one
        || a.whole_aggregate
        || a.encoding != EncodingArg::Binary
        || a.por != PorArg::Idle;
    if engine != EngineArg::Sat && sat_only {
        return Err(
            "--encoding, --one-by-one, --whole-aggregate and --por belong to the SAT engine (--engine sat)".into(),
        );
    }
    if engine != EngineArg::Explicit && lossy {
        return Err(
            "--store hash-compact and bitstate belong to the explicit engine (--engine explicit)"
                .into(),
        );
    }
    if engine != EngineArg::Explicit && (a.deadlock || a.max_states.is_some()) {
        return Err(
            "--deadlock and --max-states belong to the explicit engine (--engine explicit)".into(),
        );
    }
    if engine == EngineArg::Explicit && (a.depth.is_some() || a.solver.is_some()) {
        return Err("--depth and --solver belong to the SAT engines (sat, ic3, kind, auto)".into());
    }
    if a.certificate.is_some() && matches!(engine, EngineArg::Explicit | EngineArg::Sat) {
        return Err(
            "--certificate needs a proof engine (--engine ic3, kind or auto); an exhaustive search has no invariant to write".into(),
        );
    }
    let symmetry = !a.no_symmetry;
    let e: Box<dyn Engine> = match engine {
        EngineArg::Explicit => Box::new(ExplicitEngine {
            symmetry,
            dead_cells: !a.no_dead_cells,
            deadlock: a.deadlock,
            max_states: a.max_states,
            store: a.store,
        }),
        EngineArg::Sat => Box::new(BmcEngine {
            opts: BmcOptions {
                depth: a.depth.unwrap_or(20),
                symbreak: if a.no_symmetry {
                    SymBreak::Off
                } else {
                    a.symmetry_breaking.mode()
                },
                solver,
                encoding: a.encoding.encoding(),
                por: a.por.por(),
                whole_aggregate: a.whole_aggregate,
                ..BmcOptions::default()
            },
            one_by_one: a.one_by_one,
        }),
        EngineArg::Ic3 => Box::new(Ic3Engine { solver, symmetry }),
        EngineArg::Kind => Box::new(KindEngine {
            solver,
            symmetry,
            max_depth: a.depth.unwrap_or(20),
            strengthen: true,
        }),
        EngineArg::Auto => Box::new(AutoEngine {
            solver,
            symmetry,
            dead_cells: !a.no_dead_cells,
            // A certificate asks for invariants: no explicit pass first.
            explicit_seconds: if a.certificate.is_some() { 0.0 } else { 0.2 },
            bmc_depth: a.depth.unwrap_or(10),
            bmc_seconds: 1.0,
            ic3_seconds: 20.0,
        }),
    };
    Ok((engine, e))
}

pub(crate) fn check(a: CheckArgs) -> i32 {
    let solver = a
        .solver
        .map(|s| s.kind())
        .unwrap_or_else(SolverKind::default_kind);
    let (_, engine) = match engine_for(&a, solver) {
        Ok(e) => e,
        Err(e) => return usage(&e),
    };
    let model = match load(&a.file, a.data_values, a.int_range) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let proof_engine = engine.every_n();
    if a.every_n && !proof_engine {
        return usage("--every-n needs --engine auto or ic3");
    }
    let try_every = a.every_n
        || (proof_engine && a.sizes.is_none() && a.size.is_none() && model.number_procs.is_none());
    let sizes = match sizes_for(&model, a.sizes, a.size) {
        Ok(s) => s,
        Err(e) => return usage(&e),
    };
    let mut props = Vec::new();
    for p in &a.properties {
        match model.unsafes.iter().position(|u| &u.name == p) {
            Some(k) => props.push(k),
            None => {
                let names: Vec<&str> = model.unsafes.iter().map(|u| u.name.as_str()).collect();
                return usage(&format!(
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
    if props.is_empty() {
        props = (0..model.unsafes.len()).collect();
    }
    let problem = Problem::new(&model, sizes[0], sizes[sizes.len() - 1], props);
    let start = Instant::now();
    let ctl = Control {
        deadline: a.run.deadline(start),
        stop: Some(ctrl_c_flag()),
        max_memory: a.run.memory_cap(),
        progress: a.run.progress_on(),
        threads: a.threads.map_or(0, |t| t as usize),
    };
    let mut run = Run {
        model: &model,
        engine: engine.name(),
        engine_text: engine.describe(&problem),
        presentation: engine.presentation(),
        symmetry_requested: !a.no_symmetry,
        dead_cells: if !engine.presentation().dead_cells {
            Vec::new()
        } else {
            crate::model::dead::analyse(&model)
                .iter()
                .map(|d| d.describe(&model))
                .collect()
        },
        sizes: sizes.clone(),
        reports: Vec::new(),
        limit: None,
        seconds: 0.0,
        aggregate: false,
        per_width: false,
        notes: Vec::new(),
        certificate: None,
        trace_format: a.traces.trace_format,
        every: None,
        every_requested: a.every_n,
    };
    if !a.run.json {
        print!("{}", render::header(&run));
    }
    let json = a.run.json;
    let mut reports = Vec::new();
    let outcome = engine::run(engine.as_ref(), &problem, &ctl, &mut |r| {
        for e in &r.internal_errors {
            eprintln!("nfold: internal error: {e}");
        }
        if !json {
            print!("{}", render::rows(&model, &r));
        }
        reports.push(r);
    });
    let outcome = match outcome {
        Ok(o) => o,
        Err(e) => return usage(&e),
    };
    run.reports = reports;
    run.limit = outcome.limit.or(run.reports.iter().find_map(|r| r.limit));
    run.aggregate = outcome.aggregate;
    run.per_width = outcome.per_width;
    run.notes = outcome.notes;
    run.certificate = outcome.certificate;
    if try_every {
        // Tried by default, it gets a budget; asked for, only the run's limits.
        let mut ectl = ctl.clone();
        if !a.every_n {
            let budget = Instant::now() + std::time::Duration::from_secs_f64(EVERY_BUDGET);
            ectl.deadline = Some(ectl.deadline.map_or(budget, |d| d.min(budget)));
        }
        run.every = match every_n(&run, &problem, solver, !a.no_symmetry, &ectl) {
            Ok(EveryN::NotReached { seconds, .. })
                if ectl.sat_stop().now() && !ctl.sat_stop().now() =>
            {
                Some(EveryN::NotReached {
                    reason: format!(
                        "the {EVERY_BUDGET:.0} s an attempt gets without --every-n ran out (--every-n goes on until --timeout)"
                    ),
                    seconds,
                })
            }
            Ok(e) => Some(e),
            Err(e) => return usage(&e),
        };
    }
    let every_cert = match &run.every {
        Some(EveryN::Proved { certificate, .. }) => Some(certificate.clone()),
        _ => None,
    };
    if let (Some(path), Some(cert)) = (
        &a.certificate,
        every_cert.as_ref().or(run.certificate.as_ref()),
    ) {
        if let Err(e) = std::fs::write(path, cert.to_text()) {
            return usage(&format!("cannot write the certificate to {path}: {e}"));
        }
        run.notes.push(format!(
            "certificate written to {path} (check it with `nfold certify`)"
        ));
    } else if let Some(path) = &a.certificate {
        run.notes.push(format!(
            "no certificate written to {path}: no size was proved by an invariant"
        ));
    }
    if let Some(path) = &a.traces.trace_out {
        let found = run.reports.iter().flat_map(|r| {
            r.results
                .iter()
                .filter_map(move |p| p.trace().map(|t| (r.size, p.name.as_str(), t)))
        });
        if let Err(e) = super::traces::save_first_trace(&model, found, path) {
            return usage(&e);
        }
    }
    run.seconds = start.elapsed().as_secs_f64();
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&render::json(&run)).unwrap_or_default()
        );
    } else {
        print!("{}", render::footer(&run));
    }
    exit_code(&run)
}

/// Seconds for the attempt at every n that `check` makes without `--every-n`.
const EVERY_BUDGET: f64 = 10.0;

/// The answer for every size, after the sizes of the run: tried only when they hold.
fn every_n(
    run: &Run,
    p: &Problem,
    solver: SolverKind,
    symmetry: bool,
    ctl: &Control,
) -> Result<EveryN, String> {
    let not = |reason: String| EveryN::NotReached {
        reason,
        seconds: 0.0,
    };
    let violated: Vec<usize> = run
        .reports
        .iter()
        .filter(|r| r.results.iter().any(|x| x.verdict.kind() == Kind::Violated))
        .map(|r| r.size)
        .collect();
    if !violated.is_empty() {
        return Ok(not(format!("violated at {}", sizes_phrase(&violated))));
    }
    if run.limit.is_some() {
        return Ok(not("the run stopped at a limit".into()));
    }
    if let Some(r) = run
        .reports
        .iter()
        .find(|r| r.results.iter().any(|x| x.verdict.kind() != Kind::Holds))
    {
        return Ok(not(format!(
            "size {} is not proved (every size checked must hold first)",
            r.size
        )));
    }
    crate::portfolio::every::prove_every(p.model, &p.props, solver, symmetry, ctl)
}

fn exit_code(run: &Run) -> i32 {
    let failed = run.limit.is_some() || run.reports.iter().any(|r| !r.internal_errors.is_empty());
    let code = verdict::exit_code(
        run.reports
            .iter()
            .flat_map(|r| r.results.iter().map(|p| &p.verdict)),
        failed,
    );
    debug_assert_ne!(code, EXIT_USAGE);
    // `--every-n` asked for a proof at every size: short of it, not what was asked.
    let short = run.every_requested && !matches!(run.every, Some(EveryN::Proved { .. }));
    if code == verdict::EXIT_OK && short {
        verdict::EXIT_NOT_PROVED
    } else {
        code
    }
}
