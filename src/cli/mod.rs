//! The command line: `nfold check`, `nfold live`, `nfold info`, `nfold cnf`. Parses arguments
//! (clap), runs the engines over the requested sizes, renders text or JSON, and maps
//! outcomes to exit codes: 0 no violation, 1 a violation found, 2 usage or input error,
//! 3 a limit was hit (or an internal check failed) before an answer.

mod live;
mod render;

use crate::bmc::driver::{self as bmc, BmcOptions};
use crate::bmc::frame::Encoding;
use crate::bmc::query::SymBreak;
use crate::explicit::reach::{self, ReachOptions};
use crate::lang;
use crate::model::ir::Model;
use crate::sat::SolverKind;
use crate::verdict::{Limit, SizeReport, Verdict};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Exit codes.
pub const EXIT_OK: i32 = 0;
pub const EXIT_VIOLATION: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
pub const EXIT_LIMIT: i32 = 3;

#[derive(Parser, Debug)]
#[command(
    name = "nfold",
    version,
    about = "Model checker for parameterized concurrent protocols (families of n processes)",
    after_help = "Exit codes: 0 no violation, 1 violation found, 2 usage or input error, \
                  3 limit hit before an answer."
)]
struct Cli {
    #[command(subcommand)]
    cmd: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check the `unsafe` properties of a family for one size or a range of sizes.
    Check(CheckArgs),
    /// Check the `ltl` properties (liveness) of a family by nested depth-first search,
    /// optionally under weak fairness.
    Live(live::LiveArgs),
    /// Describe a family: types, variables, transitions, properties, symmetry, state size.
    Info(InfoArgs),
    /// Write the SAT engine's formula for one size and depth as DIMACS CNF.
    Cnf(CnfArgs),
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Engine {
    /// Exhaustive breadth-first search with symmetry reduction.
    Explicit,
    /// SAT-based bounded model checking up to --depth.
    Sat,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum SolverArg {
    Cadical,
    Varisat,
    Splr,
}

impl SolverArg {
    fn kind(self) -> SolverKind {
        match self {
            SolverArg::Cadical => SolverKind::Cadical,
            SolverArg::Varisat => SolverKind::Varisat,
            SolverArg::Splr => SolverKind::Splr,
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum SymBreakArg {
    /// Witness processes fixed to 1..m, lex-leader for the transpositions that fix them.
    WitnessLex,
    /// Lex-leader for every adjacent transposition.
    Lex,
    Off,
}

impl SymBreakArg {
    fn mode(self) -> SymBreak {
        match self {
            SymBreakArg::WitnessLex => SymBreak::WitnessLex,
            SymBreakArg::Lex => SymBreak::LexLeader,
            SymBreakArg::Off => SymBreak::Off,
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum EncodingArg {
    /// ⌈log2 d⌉ bits per cell.
    Binary,
    /// One literal per value of a cell.
    Onehot,
}

impl EncodingArg {
    fn encoding(self) -> Encoding {
        match self {
            EncodingArg::Binary => Encoding::Binary,
            EncodingArg::Onehot => Encoding::OneHot,
        }
    }
}

#[derive(Args, Debug)]
struct CnfArgs {
    /// The model file (.cub).
    file: String,
    /// The instance size.
    #[arg(long, value_name = "N", value_parser = parse_size)]
    size: usize,
    /// The depth of the unrolling.
    #[arg(long, value_name = "K")]
    depth: usize,
    /// The property asked for (default: any `unsafe` property or a range error).
    #[arg(long, value_name = "NAME")]
    property: Option<String>,
    /// No symmetry breaking.
    #[arg(long)]
    no_symmetry: bool,
    /// Which symmetry breaking (fully symmetric families only).
    #[arg(long, value_enum, default_value_t = SymBreakArg::WitnessLex)]
    symmetry_breaking: SymBreakArg,
    /// How cells are encoded.
    #[arg(long, value_enum, default_value_t = EncodingArg::Binary)]
    encoding: EncodingArg,
    /// Write to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<String>,
    /// Also solve the written formula once with a built-in solver (fresh, not
    /// incremental; the query as unit clauses) and print the answer and the solving time
    /// on stderr.
    #[arg(long, value_enum, value_name = "SOLVER")]
    solve: Option<SolverArg>,
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// The model file (.cub).
    file: String,
    /// Range of sizes to check, e.g. `1..5` (default: 1..4, or the size fixed by
    /// `number_procs`).
    #[arg(long, value_name = "A..B", value_parser = parse_sizes, conflicts_with = "size")]
    sizes: Option<(usize, usize)>,
    /// A single size.
    #[arg(long, value_name = "N", value_parser = parse_size)]
    size: Option<usize>,
    /// The engine (default: explicit; sat when --depth is given).
    #[arg(long, value_enum)]
    engine: Option<Engine>,
    /// SAT engine: look for violations up to this depth (default 20).
    #[arg(long, value_name = "K")]
    depth: Option<usize>,
    /// SAT engine: the solver (default: cadical when built in).
    #[arg(long, value_enum)]
    solver: Option<SolverArg>,
    /// SAT engine: how cells are encoded.
    #[arg(long, value_enum, default_value_t = EncodingArg::Binary)]
    encoding: EncodingArg,
    /// SAT engine: check each size of a range separately.
    #[arg(long)]
    one_by_one: bool,
    /// SAT engine: which symmetry breaking (fully symmetric families only;
    /// --no-symmetry means off).
    #[arg(long, value_enum, default_value_t = SymBreakArg::WitnessLex)]
    symmetry_breaking: SymBreakArg,
    /// Do not reduce by symmetry even when the family is fully symmetric.
    #[arg(long)]
    no_symmetry: bool,
    /// Also report reachable deadlocks (states with no enabled transition).
    #[arg(long)]
    deadlock: bool,
    /// Check only this `unsafe` property (repeatable).
    #[arg(long = "property", value_name = "NAME")]
    properties: Vec<String>,
    /// Stop a size after storing this many states.
    #[arg(long, value_name = "M")]
    max_states: Option<usize>,
    /// The number of values of every abstract type (`type data`; default: chosen from
    /// the model, see `nfold info`).
    #[arg(long, value_name = "D", value_parser = parse_data_values)]
    data_values: Option<usize>,
    #[command(flatten)]
    run: RunArgs,
}

/// Limits and output flags shared by `check` and `live`.
#[derive(Args, Debug)]
pub(crate) struct RunArgs {
    /// Stop the whole run after this many seconds.
    #[arg(long, value_name = "S")]
    timeout: Option<f64>,
    /// Stop when the search's tables need more than this (e.g. `8G`, `512M`; default:
    /// 3/4 of physical memory).
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
    max_memory: Option<usize>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
    /// Progress lines on stderr (default: when stderr is a terminal).
    #[arg(long, conflicts_with = "quiet")]
    progress: bool,
    /// No progress lines.
    #[arg(long)]
    quiet: bool,
}

impl RunArgs {
    /// When `--timeout` runs out, counted from `start`.
    fn deadline(&self, start: Instant) -> Option<Instant> {
        self.timeout
            .map(|s| start + Duration::from_secs_f64(s.clamp(0.0, 1e9)))
    }

    /// `--max-memory`, or 3/4 of physical memory.
    fn memory_cap(&self) -> Option<usize> {
        self.max_memory
            .or_else(|| crate::limits::physical_memory().map(|m| m / 4 * 3))
    }

    fn progress_on(&self) -> bool {
        self.progress || (!self.quiet && std::io::stderr().is_terminal())
    }
}

/// A flag set by Ctrl-C, so that a run stops cleanly and reports what it answered.
fn ctrl_c_flag() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    // A second handler cannot be installed in one process (tests call this twice).
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    stop
}

#[derive(Args, Debug)]
struct InfoArgs {
    /// The model file (.cub).
    file: String,
    /// Also describe the instance of this size (state bits, cells, transition instances).
    #[arg(long, value_name = "N", value_parser = parse_size)]
    size: Option<usize>,
    /// The number of values of every abstract type (`type data`; default: chosen from
    /// the model).
    #[arg(long, value_name = "D", value_parser = parse_data_values)]
    data_values: Option<usize>,
}

/// `--data-values D`: 1 to `model::data::MAX_VALUES`.
pub(crate) fn parse_data_values(s: &str) -> Result<usize, String> {
    let max = crate::model::data::MAX_VALUES;
    match s.trim().parse::<usize>() {
        Ok(d) if (1..=max).contains(&d) => Ok(d),
        _ => Err(format!(
            "`{s}` is not a number of data values (a whole number from 1 to {max})"
        )),
    }
}

fn parse_size(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=64).contains(&n) => Ok(n),
        Ok(_) => Err("a size is a whole number from 1 to 64".into()),
        Err(_) => Err(format!("`{s}` is not a size (a whole number from 1 to 64)")),
    }
}

fn parse_sizes(s: &str) -> Result<(usize, usize), String> {
    let Some((a, b)) = s.split_once("..") else {
        let n = parse_size(s)?;
        return Ok((n, n));
    };
    let (a, b) = (parse_size(a)?, parse_size(b)?);
    if b < a {
        return Err(format!("the size range {a}..{b} is empty"));
    }
    Ok((a, b))
}

fn parse_bytes(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let (num, mult) = match t.chars().last() {
        Some('k' | 'K') => (&t[..t.len() - 1], 1usize << 10),
        Some('m' | 'M') => (&t[..t.len() - 1], 1 << 20),
        Some('g' | 'G') => (&t[..t.len() - 1], 1 << 30),
        _ => (t, 1),
    };
    let v: f64 = num
        .parse()
        .map_err(|_| format!("`{s}` is not a size in bytes (e.g. 8G, 512M)"))?;
    if v.is_nan() || v <= 0.0 {
        return Err("the memory limit must be positive".into());
    }
    Ok((v * mult as f64) as usize)
}

/// Run the command line; returns the exit code.
pub fn main_with_args(args: Vec<String>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            return match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    print!("{e}");
                    EXIT_OK
                }
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    eprint!("{e}");
                    EXIT_USAGE
                }
                _ => {
                    // clap lists missing arguments on the lines after the first; keep
                    // them (but not its tips and usage) so the one line stays complete.
                    let text = e.to_string();
                    let mut lines = text.lines();
                    let first = lines.next().unwrap_or("usage error");
                    let mut msg = first.strip_prefix("error: ").unwrap_or(first).to_string();
                    if msg.ends_with(':') {
                        let items: Vec<&str> =
                            lines.map(str::trim).take_while(|l| !l.is_empty()).collect();
                        msg.push(' ');
                        msg.push_str(&items.join(", "));
                    }
                    eprintln!("nfold: error: {msg} (see `nfold --help`)");
                    EXIT_USAGE
                }
            };
        }
    };
    match cli.cmd {
        Command::Check(a) => check(a),
        Command::Live(a) => live::live(a),
        Command::Info(a) => info(a),
        Command::Cnf(a) => cnf(a),
    }
}

fn load(path: &str, data_values: Option<usize>) -> Result<Model, i32> {
    match lang::load_file_with(path, &lang::LoadOptions { data_values }) {
        Ok(m) => {
            for w in &m.warnings {
                eprint!("{}", w.render(&m.source));
            }
            Ok(m)
        }
        Err(e) => {
            eprint!("{}", e.render());
            Err(EXIT_USAGE)
        }
    }
}

/// The SAT engine refuses a model it cannot encode yet, with a located error.
fn sat_supported(model: &Model) -> Result<(), i32> {
    match model.sat_unsupported() {
        None => Ok(()),
        Some(d) => {
            eprint!("{}", d.render(&model.source));
            Err(EXIT_USAGE)
        }
    }
}

/// The sizes to check, honouring `number_procs`.
fn sizes_for(
    model: &Model,
    sizes: Option<(usize, usize)>,
    size: Option<usize>,
) -> Result<Vec<usize>, String> {
    let requested = size.map(|n| (n, n)).or(sizes);
    match (model.number_procs, requested) {
        (Some((k, _)), Some((a, b))) if !(a == k && b == k) => Err(format!(
            "this family fixes the size to {k} (`number_procs {k}`); use --size {k} or leave the size out"
        )),
        (Some((k, _)), _) => Ok(vec![k]),
        (None, Some((a, b))) => Ok((a..=b).collect()),
        (None, None) => Ok((1..=4).collect()),
    }
}

/// Everything the renderer needs about a run.
pub(crate) struct Run<'a> {
    pub model: &'a Model,
    /// `explicit` or `sat`.
    pub engine: &'static str,
    /// One line describing the engine and its settings.
    pub engine_text: String,
    pub symmetry_requested: bool,
    pub sizes: Vec<usize>,
    pub reports: Vec<SizeReport>,
    pub limit: Option<Limit>,
    pub seconds: f64,
    /// The SAT engine checked the size range as one aggregate.
    pub aggregate: bool,
}

fn usage(msg: &str) -> i32 {
    eprintln!("nfold: error: {msg}");
    EXIT_USAGE
}

fn check(a: CheckArgs) -> i32 {
    let engine = a.engine.unwrap_or(if a.depth.is_some() {
        Engine::Sat
    } else {
        Engine::Explicit
    });
    if engine == Engine::Explicit {
        if a.depth.is_some()
            || a.solver.is_some()
            || a.one_by_one
            || a.encoding != EncodingArg::Binary
        {
            return usage(
                "--depth, --solver, --encoding and --one-by-one belong to the SAT engine (--engine sat)",
            );
        }
    } else {
        if a.deadlock {
            return usage(
                "--deadlock is supported by the explicit engine only (--engine explicit)",
            );
        }
        if a.max_states.is_some() {
            return usage(
                "--max-states limits the explicit engine; the SAT engine is bounded by --depth",
            );
        }
    }
    let model = match load(&a.file, a.data_values) {
        Ok(m) => m,
        Err(code) => return code,
    };
    if engine == Engine::Sat
        && let Err(code) = sat_supported(&model)
    {
        return code;
    }
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
                    "no `unsafe` property named `{p}` (the model has: {})",
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                ));
            }
        }
    }
    let props = if props.is_empty() { None } else { Some(props) };
    let stop = ctrl_c_flag();
    let start = Instant::now();
    let deadline = a.run.deadline(start);
    let progress = a.run.progress_on();
    let explicit_opts = ReachOptions {
        symmetry: !a.no_symmetry,
        deadlock: a.deadlock,
        props: props.clone(),
        max_states: a.max_states,
        max_memory: a.run.memory_cap(),
        deadline,
        stop: Some(stop.clone()),
        progress,
    };
    let solver = a
        .solver
        .map(|s| s.kind())
        .unwrap_or_else(SolverKind::default_kind);
    let bmc_opts = BmcOptions {
        depth: a.depth.unwrap_or(20),
        symbreak: if a.no_symmetry {
            SymBreak::Off
        } else {
            a.symmetry_breaking.mode()
        },
        solver,
        encoding: a.encoding.encoding(),
        props,
        deadline,
        stop: Some(stop),
        max_memory: a.run.memory_cap(),
        progress,
    };
    let aggregate = engine == Engine::Sat && sizes.len() > 1 && !a.one_by_one;
    let engine_text = match engine {
        Engine::Explicit => "explicit breadth-first search (exhaustive)".to_string(),
        Engine::Sat => format!(
            "SAT bounded model checking up to depth {} ({}, {} encoding{})",
            bmc_opts.depth,
            solver.name(),
            match bmc_opts.encoding {
                Encoding::Binary => "binary",
                Encoding::OneHot => "one-hot",
            },
            if aggregate {
                format!(
                    ", sizes {}..{} in one aggregate run",
                    sizes[0],
                    sizes[sizes.len() - 1]
                )
            } else if sizes.len() > 1 {
                ", each size separately".to_string()
            } else {
                String::new()
            }
        ),
    };
    let mut run = Run {
        model: &model,
        engine: match engine {
            Engine::Explicit => "explicit",
            Engine::Sat => "sat",
        },
        engine_text,
        symmetry_requested: !a.no_symmetry,
        sizes: sizes.clone(),
        reports: Vec::new(),
        limit: None,
        seconds: 0.0,
        aggregate,
    };
    if !a.run.json {
        print!("{}", render::header(&run));
    }
    if aggregate {
        let (lo, hi) = (sizes[0], sizes[sizes.len() - 1]);
        let r = match bmc::check_aggregate(&model, lo, hi, &bmc_opts) {
            Ok(r) => r,
            Err(e) => return usage(&e),
        };
        if let Some(e) = r.reports.first().and_then(|x| x.internal_errors.first()) {
            eprintln!("nfold: internal error: a counterexample failed to replay: {e}");
        }
        for rep in r.reports {
            if !a.run.json {
                print!("{}", render::rows(&rep));
            }
            run.limit = run.limit.or(rep.limit);
            run.reports.push(rep);
        }
    }
    for &n in sizes.iter().filter(|_| !aggregate) {
        let r: SizeReport = match engine {
            Engine::Explicit => reach::check_size(&model, n, &explicit_opts).into(),
            Engine::Sat => match bmc::check_size(&model, n, &bmc_opts) {
                Ok(r) => r.report,
                Err(e) => return usage(&e),
            },
        };
        for e in &r.internal_errors {
            eprintln!("nfold: internal error: a counterexample failed to replay: {e}");
        }
        if !a.run.json {
            print!("{}", render::rows(&r));
        }
        let limit = r.limit;
        run.reports.push(r);
        if limit.is_some() {
            run.limit = limit;
            break;
        }
    }
    run.seconds = start.elapsed().as_secs_f64();
    if a.run.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&render::json(&run)).unwrap_or_default()
        );
    } else {
        print!("{}", render::footer(&run));
    }
    exit_code(&run)
}

fn exit_code(run: &Run) -> i32 {
    let verdicts = run
        .reports
        .iter()
        .flat_map(|r| r.results.iter().map(|p| p.verdict));
    let mut any_unknown = run.limit.is_some();
    for v in verdicts {
        match v {
            Verdict::Violated => return EXIT_VIOLATION,
            Verdict::Unknown => any_unknown = true,
            _ => {}
        }
    }
    if any_unknown || run.reports.iter().any(|r| !r.internal_errors.is_empty()) {
        EXIT_LIMIT
    } else {
        EXIT_OK
    }
}

fn cnf(a: CnfArgs) -> i32 {
    let model = match load(&a.file, None) {
        Ok(m) => m,
        Err(code) => return code,
    };
    if let Err(code) = sat_supported(&model) {
        return code;
    }
    if let Err(e) = sizes_for(&model, None, Some(a.size)) {
        return usage(&e);
    }
    let prop = match &a.property {
        None => None,
        Some(p) => match model.unsafes.iter().position(|u| &u.name == p) {
            Some(k) => Some(k),
            None => return usage(&format!("no `unsafe` property named `{p}`")),
        },
    };
    let mode = if a.no_symmetry {
        SymBreak::Off
    } else {
        a.symmetry_breaking.mode()
    };
    let (cnf, units, comments) =
        crate::bmc::cnf::query(&model, a.size, a.depth, prop, mode, a.encoding.encoding());
    let result = match &a.output {
        Some(path) => std::fs::File::create(path)
            .and_then(|mut f| crate::sat::dimacs::write(&mut f, &cnf, &units, &comments)),
        None => crate::sat::dimacs::write(&mut std::io::stdout(), &cnf, &units, &comments),
    };
    if let Err(e) = result {
        return usage(&format!("cannot write the CNF: {e}"));
    }
    let Some(kind) = a.solve else {
        return EXIT_OK;
    };
    let mut solver = match kind.kind().create() {
        Ok(s) => s,
        Err(e) => return usage(&e),
    };
    // Solve exactly the written formula: the query as unit clauses, as in the file.
    let mut whole = cnf.clone();
    for &u in &units {
        whole.add_clause(&[u]);
    }
    let t0 = Instant::now();
    let r = solver.solve(&whole, &[], &crate::sat::Stop::default());
    eprintln!(
        "s {} ({}, {:.3}s solving, {} variables, {} clauses)",
        match r {
            crate::sat::SolveResult::Sat => "SATISFIABLE",
            crate::sat::SolveResult::Unsat => "UNSATISFIABLE",
            crate::sat::SolveResult::Unknown => "UNKNOWN",
        },
        solver.name(),
        t0.elapsed().as_secs_f64(),
        whole.num_vars,
        whole.num_clauses
    );
    EXIT_OK
}

fn info(a: InfoArgs) -> i32 {
    let model = match load(&a.file, a.data_values) {
        Ok(m) => m,
        Err(code) => return code,
    };
    print!("{}", render::info(&model, a.size));
    EXIT_OK
}
