//! `nfold check` and `nfold live`: the properties of a family for a range of sizes,
//! by the engine chosen (or `auto`), through the engine contract (`engine`) and one
//! renderer (`render`). `check` answers the `unsafe` and `invariant` properties (and the
//! `ltl` ones with `--ltl` or by name with `--property`); `live` answers the `ltl`
//! properties only.

use super::render;
use super::traces::TraceFormat;
use super::{
    CompileArg, EncodingArg, LoadArgs, PorArg, RunArgs, SolverArg, SymBreakArg, ctrl_c_flag, usage,
};
use super::{lookup_property, parse_size, parse_sizes, sizes_for};
use crate::engine::{Control, Engine, Problem};
use crate::explicit::reach::StoreKind;
use crate::ic3::engine::ToSafety;
use crate::model::ir::Model;
use crate::portfolio::registry::{self, Entry};
use crate::run::{self, Run};
use crate::sat::SolverKind;
use crate::verdict::PropId;
use clap::{Args, ValueEnum};
use std::time::Instant;

/// `--engine NAME`: an engine of the registry, each with its line of `--help`.
fn engine_parser() -> impl clap::builder::TypedValueParser<Value = &'static Entry> {
    let names = registry::ENGINES
        .iter()
        .map(|e| clap::builder::PossibleValue::new(e.name).help((e.help)()));
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(names).map(|name: String| {
        registry::by_name(&name).expect("the parser admits only the registry's names")
    })
}

/// How `ltl` properties are reduced to safety for the proof engines.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ReductionArg {
    /// k-liveness for k = 1, 2, 4, ... up to 256, then liveness-to-safety for the
    /// sizes left open.
    Both,
    /// Liveness-to-safety only.
    L2s,
    /// k-liveness only.
    Klive,
}

impl ReductionArg {
    fn to_safety(self) -> ToSafety {
        match self {
            ReductionArg::Both => ToSafety::Both,
            ReductionArg::L2s => ToSafety::L2s,
            ReductionArg::Klive => ToSafety::Klive,
        }
    }
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
    /// The engine (default: auto; explicit with --deadlock, --max-states, --store or
    /// --distributed; sat with --depth, --one-by-one, --whole-aggregate, --encoding or
    /// --por).
    #[arg(long, value_name = "ENGINE", value_parser = engine_parser())]
    engine: Option<&'static Entry>,
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
    /// explicit: on a family that is not fully symmetric (process ids compared by
    /// order, a process singled out), search states annotated with the symmetry they
    /// may still use, with subsumption (adaptive symmetry reduction, docs/engines.md);
    /// same verdicts and shortest traces as without it.
    #[arg(long, conflicts_with = "no_symmetry")]
    partial_symmetry: bool,
    /// explicit, auto: store every state as it is, without setting dead cells (cells
    /// no transition or property reads before writing them again, see `nfold info`)
    /// to one value.
    #[arg(long)]
    no_dead_cells: bool,
    /// explicit: also report reachable deadlocks (states with no enabled transition).
    #[arg(long)]
    deadlock: bool,
    /// How far an int window derived from the model may widen on its own: the sizes
    /// where a run leaves it are run again in a window twice as wide, up to -M..M
    /// (not with --int-range, which fixes the window).
    #[arg(long, value_name = "M", default_value_t = crate::run::INT_MAX, value_parser = clap::value_parser!(i64).range(1..=32768))]
    int_max: i64,
    /// explicit, auto: keep the int window even when the model's ints can be ranked
    /// (values only compared, copied and incremented from the largest: see
    /// docs/language.md section 4.6), which makes each size finite and exact.
    #[arg(long)]
    no_rank_ints: bool,
    /// explicit: how guards and updates run: interpreted, then compiled to native code
    /// once a search has expanded 16,384 states (auto, the default: small searches do
    /// not pay the 10-30 ms compile); compiled from the first state (jit); both need
    /// the `jit` build feature, otherwise interp; assembled into a register bytecode
    /// (bytecode); or interpreted (interp, the reference every trace is replayed on).
    /// The same states, answers and traces every way (see docs/engines.md).
    #[arg(long, value_enum, value_name = "HOW", default_value_t = CompileArg::Auto)]
    compile: CompileArg,
    /// Check only this property (`unsafe`, `invariant` or `ltl`; repeatable).
    #[arg(long = "property", value_name = "NAME")]
    properties: Vec<String>,
    /// explicit: stop a size after storing this many states; auto: hand a size to the
    /// SAT route (BMC, IC3) once it stores this many states, or when the growth of the
    /// sizes before it predicts it would.
    #[arg(long, value_name = "M")]
    max_states: Option<usize>,
    /// explicit, auto: threads for the explicit safety search (default: one per core);
    /// the states, counts and answers are the same at every count. auto with 2 or more:
    /// the explicit search of the sizes left to BMC and IC3 runs beside them from their
    /// start (its answers used for the sizes IC3 leaves open). `ltl` properties with
    /// explicit: 2 or more run the parallel SCC search (default: the sequential ones),
    /// same answers; a violation is reported once the whole product is stored.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
    /// explicit: how states are stored: exact; tree (lossless, the same states and
    /// answers as exact: each state's words interned pairwise into shared node tables,
    /// LTSmin's tree compression, usually fewer bytes a state and more time); or, for
    /// bug hunting on instances whose states do not fit, hash-compact (a 64-bit
    /// signature each) or bitstate[:BYTES] (3 bits each in a bit array, 512M unless
    /// given), which may miss states: "no violation" is then `none found*` with the
    /// probability of a miss, not `holds`.
    #[arg(long, value_name = "STORE", value_parser = parse_store, default_value = "exact")]
    store: StoreKind,
    /// auto, ic3: also try to prove the properties for every size n, by a quantified
    /// invariant checked up to a cutoff (the default when neither --sizes nor --size
    /// is given); `ltl` response properties only when asked, by a ranking proof over
    /// that invariant.
    #[arg(long)]
    every_n: bool,
    /// ic3, kind, auto: write the checked certificate of the sizes proved to FILE (auto
    /// then skips its explicit pass, so that sizes are proved by invariants).
    #[arg(long, value_name = "FILE")]
    certificate: Option<String>,
    /// Also check the `ltl` properties (liveness; `nfold live` checks only those).
    #[arg(long)]
    ltl: bool,
    /// `ltl` properties: only weakly fair runs count (every process that stays enabled
    /// eventually executes; a step's process is its transition's first parameter).
    #[arg(long)]
    fair: bool,
    /// ic3 on `ltl` properties: how they are reduced to safety (k-liveness,
    /// liveness-to-safety, or both, the default: k-liveness then liveness-to-safety;
    /// see docs/engines.md). A flag of `--engine ic3` only.
    #[arg(long, value_name = "R")]
    reduction: Option<ReductionArg>,
    /// Hand the engines the model as written: no reduction to what is asked (cells
    /// nothing asked reads, constants, equivalent cells, transitions that cannot fire;
    /// see `nfold reduce` and docs/engines.md).
    #[arg(long)]
    no_reduce: bool,
    /// explicit `ltl` search: print lassos as the search found them, without looking
    /// for a shorter one.
    #[arg(long)]
    no_shorten: bool,
    #[command(flatten)]
    dist: super::distributed::DistArgs,
    #[command(flatten)]
    load: LoadArgs,
    #[command(flatten)]
    traces: super::traces::TraceArgs,
    #[command(flatten)]
    run: RunArgs,
}

/// Which properties a command answers by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `nfold check`: `unsafe` and `invariant` properties (`ltl` ones on request).
    Check,
    /// `nfold live`: `ltl` properties.
    Live,
}

/// `--store`: `exact`, `tree`, `hash-compact`, `bitstate` or `bitstate:BYTES`.
fn parse_store(s: &str) -> Result<StoreKind, String> {
    match s.split_once(':') {
        None if s == "exact" => Ok(StoreKind::Exact),
        None if s == "tree" => Ok(StoreKind::Tree),
        None if s == "hash-compact" => Ok(StoreKind::HashCompact),
        None if s == "bitstate" => Ok(StoreKind::bitstate_of_bytes(512 << 20)),
        Some(("bitstate", size)) => super::parse_bytes(size).map(StoreKind::bitstate_of_bytes),
        _ => Err(format!(
            "`{s}` is not a store (exact, tree, hash-compact, bitstate or bitstate:BYTES)"
        )),
    }
}

/// The engine the flags choose, once every flag given fits it.
fn engine_for(
    a: &CheckArgs,
    solver: SolverKind,
) -> Result<(&'static Entry, Box<dyn Engine>), String> {
    let flags = registry::Flags {
        solver,
        solver_given: a.solver.is_some(),
        symmetry: !a.no_symmetry,
        dead_cells: !a.no_dead_cells,
        deadlock: a.deadlock,
        max_states: a.max_states,
        store: a.store,
        shorten: !a.no_shorten,
        threads: a.threads,
        rank_ints: !a.no_rank_ints,
        partial_symmetry: a.partial_symmetry,
        cluster: a.dist.cluster()?,
        depth: a.depth,
        encoding: a.encoding.encoding(),
        por: a.por.por(),
        whole_aggregate: a.whole_aggregate,
        one_by_one: a.one_by_one,
        symbreak: a.symmetry_breaking.mode(),
        to_safety: a.reduction.map(ReductionArg::to_safety),
        certificate: a.certificate.is_some(),
    };
    let chosen = registry::choose(a.engine, &flags)?;
    let e = run::with_reduction(chosen.build(&flags), &settings(a, solver));
    Ok((chosen, e))
}

pub(crate) fn check(mut a: CheckArgs, mode: Mode) -> i32 {
    if a.run.json && a.traces.trace_format == TraceFormat::Table {
        return usage(
            "--trace-format table shapes the text output; under --json traces are JSON (drop one of them)",
        );
    }
    crate::model::compiled::set_backend(a.compile.backend());
    // A process other than 0 of a distributed search runs the same command silently.
    if a.dist.silent() {
        if let Err(e) = super::distributed::silence_stdout() {
            return usage(&e);
        }
        a.run.report = None;
        a.traces.trace_out = None;
    }
    let solver = a.solver.map_or_else(SolverKind::default_kind, |s| s.kind());
    let (chosen, engine) = match engine_for(&a, solver) {
        Ok(e) => e,
        Err(e) => return usage(&e),
    };
    let model = match a.load.load(&a.file) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let settings = settings(&a, solver);
    let problem = match problem(&model, &a, mode) {
        Ok(p) => p,
        Err(e) => return usage(&e),
    };
    if let Err(e) = run::admit(engine.as_ref(), &problem, &settings).and_then(|()| writable(&a)) {
        return usage(&e);
    }
    let format = if a.run.json {
        crate::progress::Format::Json
    } else {
        crate::progress::Format::Text
    };
    crate::progress::configure_paced(format, a.run.progress_pace());
    // No engine step keeps a long run silent (docs/cli.md, "Progress").
    let _watch = crate::progress::watch(a.run.progress_on());
    let ctl = Control {
        deadline: a.run.deadline(Instant::now()),
        stop: Some(ctrl_c_flag()),
        max_memory: a.run.memory_cap(),
        memory: a.run.memory_cap().map(crate::limits::memory_guard),
        progress: a.run.progress_on(),
        threads: a.threads.map_or(0, |t| t as usize),
    };
    let wide = std::cell::OnceCell::new();
    let mut run = Run::new(&model, engine.as_ref(), &problem, &settings);
    if let Some(note) = probe_note(&a, chosen, &problem, &ctl) {
        eprintln!("{note}");
    }
    let json = a.run.json;
    if !json {
        print!("{}", render::header(&run));
    }
    let mut show = |e: run::Event| show(e, json);
    let done = run::execute(
        &mut run,
        engine.as_ref(),
        &problem,
        &ctl,
        &settings,
        &wide,
        &mut show,
    );
    if let Err(e) = done.and_then(|()| write_files(&mut run, &a)) {
        return usage(&e);
    }
    if json {
        let doc = serde_json::to_string_pretty(&render::json(&run));
        println!("{}", doc.unwrap_or_default());
    } else {
        print!("{}", render::footer(&run, a.traces.trace_format));
    }
    run::exit_code(&run)
}

/// Prints what the pipeline shows as it goes: the table's rows (not under `--json`) and
/// internal errors (always, on stderr).
fn show(e: run::Event, json: bool) {
    match e {
        run::Event::Rows {
            model,
            report,
            prev,
        } => {
            for e in &report.internal_errors {
                eprintln!("nfold: internal error: {e}");
            }
            if !json {
                print!("{}", render::rows(model, report, prev));
            }
        }
        run::Event::Text(t) if !json => print!("{t}"),
        run::Event::Text(_) => {}
    }
}

/// The pipeline's settings from the flags.
fn settings(a: &CheckArgs, solver: SolverKind) -> run::Settings {
    run::Settings {
        solver,
        symmetry: !a.no_symmetry,
        reduce: !a.no_reduce,
        deadlock: a.deadlock,
        rank_ints: !a.no_rank_ints,
        every_requested: a.every_n,
        sizes_given: a.sizes.is_some() || a.size.is_some(),
        int_max: a.int_max,
    }
}

/// The problem asked: the properties (`properties`) at the sizes given or implied.
fn problem<'m>(model: &'m Model, a: &CheckArgs, mode: Mode) -> Result<Problem<'m>, String> {
    let (props, ltls) = properties(model, a, mode)?;
    let sizes = sizes_for(model, a.sizes, a.size)?;
    Ok(Problem {
        ltls,
        fair: a.fair,
        ..Problem::new(model, sizes[0], sizes[sizes.len() - 1], props)
    })
}

/// A report that cannot be written is said before the run, not after it.
fn writable(a: &CheckArgs) -> Result<(), String> {
    match &a.run.report {
        Some(path) => std::fs::File::create(path)
            .map(|_| ())
            .map_err(|e| format!("cannot write the report to {path}: {e}")),
        None => Ok(()),
    }
}

/// The files the flags ask for: the certificate (`--certificate`), the first
/// counterexample (`--trace-out`) and the HTML report (`--report`), each with a note.
fn write_files(run: &mut Run, a: &CheckArgs) -> Result<(), String> {
    if let Some(path) = &a.certificate {
        let written = run.certificates_to_write();
        if written.is_empty() {
            run.notes.push(format!(
                "no certificate written to {path}: no size was proved by an invariant"
            ));
        } else {
            let text: String = written.iter().map(|c| c.to_text()).collect();
            std::fs::write(path, text)
                .map_err(|e| format!("cannot write the certificate to {path}: {e}"))?;
            let (what, them) = match written.len() {
                1 => ("certificate".to_string(), "it"),
                k => (format!("{k} certificates"), "them"),
            };
            run.notes.push(format!(
                "{what} written to {path} (check {them} with `nfold certify`)"
            ));
        }
    }
    if let Some(path) = &a.traces.trace_out {
        let found = run.reports.iter().flat_map(|r| {
            r.results.iter().filter_map(move |p| {
                p.verdict
                    .counterexample()
                    .map(|c| (r.size, p.name.as_str(), c))
            })
        });
        super::traces::save_first(run.model, found, path)?;
    }
    if let Some(path) = &a.run.report {
        let page = crate::report::page(&render::json(run));
        std::fs::write(path, page)
            .map_err(|e| format!("cannot write the report to {path}: {e}"))?;
        run.notes.push(format!(
            "report written to {path} (one HTML page, no network)"
        ));
    }
    Ok(())
}

/// The `unsafe`/`invariant` and the `ltl` properties to answer (indices into
/// `model.unsafes` and `model.ltls`): those named by `--property`, else by the mode
/// (`check`: every `unsafe` and `invariant`, and every `ltl` with `--ltl`; `live`:
/// every `ltl`).
fn properties(
    model: &Model,
    a: &CheckArgs,
    mode: Mode,
) -> Result<(Vec<usize>, Vec<usize>), String> {
    let (mut props, mut ltls) = (Vec::new(), Vec::new());
    for name in &a.properties {
        match lookup_property(model, name)? {
            PropId::Unsafe(u) if mode == Mode::Live => {
                return Err(format!(
                    "`{name}` is an `{}` property: `nfold check` answers it, `nfold live` answers `ltl` properties",
                    model.unsafes[u].kind.keyword()
                ));
            }
            PropId::Unsafe(u) if !props.contains(&u) => props.push(u),
            PropId::Ltl(k) if !ltls.contains(&k) => ltls.push(k),
            _ => {}
        }
    }
    if !a.properties.is_empty() {
        return Ok((props, ltls));
    }
    let all_ltl: Vec<usize> = (0..model.ltls.len()).collect();
    match mode {
        Mode::Live if model.ltls.is_empty() => {
            Err("the model states no `ltl` property (`nfold check` checks `unsafe` ones)".into())
        }
        Mode::Live => Ok((Vec::new(), all_ltl)),
        Mode::Check
            if model.unsafes.is_empty() && !model.ltls.is_empty() && !a.ltl && !a.deadlock =>
        {
            let names: Vec<String> = model.ltls.iter().map(|l| format!("`{}`", l.name)).collect();
            Err(format!(
                "the model states no `unsafe` property or `invariant` (`nfold check` checks those); its `ltl` properties {} are checked by `nfold live` (or `nfold check --ltl`)",
                names.join(", ")
            ))
        }
        Mode::Check => {
            let props: Vec<usize> = (0..model.unsafes.len()).collect();
            let ltls = if a.ltl { all_ltl } else { Vec::new() };
            Ok((props, ltls))
        }
    }
}

/// The note that explicit search would answer the whole range at once, for a SAT engine
/// the user chose (by `--engine` or by one of its flags): a short probe, at most
/// `probe::PROBE_SECONDS` before the engine starts, whose answers are not reported. Not
/// under `--json` or `--quiet`, nor with `--certificate` (only proofs write one).
fn probe_note(a: &CheckArgs, chosen: &Entry, p: &Problem, ctl: &Control) -> Option<String> {
    use crate::portfolio::probe;
    if !chosen.probed {
        return None;
    }
    let name = chosen.name;
    if a.run.json || a.run.quiet || a.certificate.is_some() {
        return None;
    }
    let (symmetry, dead_cells) = (!a.no_symmetry, !a.no_dead_cells);
    probe::explicit_finishes(p, ctl, symmetry, dead_cells, probe::PROBE_SECONDS)
        .map(|f| f.note(name, a.engine.is_some()))
}
