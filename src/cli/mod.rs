//! The command line: `nfold check`, `nfold live`, `nfold info`, `nfold cnf`,
//! `nfold aiger`, `nfold certify`, `nfold simulate`, `nfold replay`, `nfold dot`.
//! Parses arguments (clap), runs the engines over the requested sizes, renders text
//! or JSON, and maps outcomes to exit codes (`verdict::exit_code`): 0
//! every answer a proof, 1 a violation found, 2 usage or input error, 3 a limit was hit
//! (or an internal check failed) before an answer, 4 no violation found but some answer
//! is not a proof (bounded, incomplete or vacuous).

mod aiger;
mod certify;
mod check;
mod distributed;
mod dot;
mod reduce;
mod render;
mod replay;
mod simulate;
mod traces;

use crate::lang;
use crate::model::ir::Model;
use crate::sat::SolverKind;
use crate::transys::Por;
use crate::transys::frame::Encoding;
use crate::transys::query::SymBreak;
use crate::verdict::PropId;
pub use crate::verdict::{EXIT_LIMIT, EXIT_NOT_PROVED, EXIT_OK, EXIT_USAGE, EXIT_VIOLATION};
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[derive(Parser, Debug)]
#[command(
    name = "nfold",
    version,
    about = "Model checker for parameterized concurrent protocols (families of n processes)",
    after_help = "Exit codes: 0 every answer proved (holds), 1 violation found, 2 usage or input \
                  error, 3 limit hit (or internal check failed) before an answer, 4 no violation \
                  found but some answer is not a proof (bounded, incomplete or vacuous)."
)]
struct Cli {
    #[command(subcommand)]
    cmd: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check the properties of a family (`unsafe` and `invariant`; `ltl` too with
    /// --ltl) for one size or a range of sizes.
    #[command(after_help = CHECK_AFTER_HELP)]
    Check(check::CheckArgs),
    /// Check the `ltl` properties (liveness) of a family, optionally under weak
    /// fairness: `nfold check` restricted to `ltl` properties.
    #[command(after_help = LIVE_AFTER_HELP)]
    Live(check::CheckArgs),
    /// Describe a family: types, variables, transitions, properties, symmetry, state size.
    Info(InfoArgs),
    /// Write the SAT engine's formula for one size and depth as DIMACS CNF.
    Cnf(CnfArgs),
    /// Write the transition system of one size, or of a range of sizes as one system,
    /// as binary AIGER 1.9 for ABC and other model checkers (one bad output per
    /// property and one for range errors; time k is depth k).
    Aiger(aiger::AigerArgs),
    /// Check a saved certificate (an invariant written by `check --certificate`) on a
    /// model, independently of the engine that found it.
    Certify(certify::CertifyArgs),
    /// Print one random run of an instance (random initial state, random enabled
    /// transition instance at each step), like `spin -p` or TLC's simulation mode.
    #[command(after_help = simulate::AFTER_HELP)]
    Simulate(simulate::SimulateArgs),
    /// Re-run a saved counterexample (a trail) on a model step by step and say where it
    /// stops matching.
    #[command(after_help = replay::AFTER_HELP)]
    Replay(replay::ReplayArgs),
    /// Write the reachable state graph of an instance (or its quotient by symmetry) in
    /// Graphviz DOT.
    #[command(after_help = dot::AFTER_HELP)]
    Dot(dot::DotArgs),
    /// Print the model as the engines get it, reduced to what is asked (cells
    /// nothing asked reads, constants, equivalent cells, transitions that cannot fire),
    /// as `.cub` text the loader reads back.
    Reduce(reduce::ReduceArgs),
    /// Print the JSON Schema of every document nfold writes with --json (also in
    /// docs/schema.json).
    Schema,
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

/// `--compile`: how the explicit engine runs guards and updates.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum CompileArg {
    /// The interpreter first, native code once a search has expanded 16,384 states.
    Auto,
    /// Native code from the first state, compiled once per search (Cranelift).
    Jit,
    /// A register bytecode with superinstructions, assembled once per size.
    Bytecode,
    /// The interpreter (the reference).
    Interp,
}

impl CompileArg {
    fn backend(self) -> crate::model::compiled::Backend {
        use crate::model::compiled::Backend;
        match self {
            CompileArg::Auto => Backend::Auto,
            CompileArg::Jit => Backend::Jit,
            CompileArg::Bytecode => Backend::Bytecode,
            CompileArg::Interp => Backend::Interp,
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum PorArg {
    /// Idle steps only at the end of a run.
    Idle,
    /// Commuting transition instances in one fixed order between adjacent steps, idle
    /// steps only at the end of a run.
    Full,
    /// Every interleaving, idle steps anywhere.
    Off,
}

impl PorArg {
    fn por(self) -> Por {
        match self {
            PorArg::Idle => Por::Idle,
            PorArg::Full => Por::Full,
            PorArg::Off => Por::Off,
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
    /// Write the query of the model as written, not reduced to what is asked (by
    /// default cells nothing asked reads, constants, equivalent cells and transitions
    /// that cannot fire are left out, as for `nfold check`; a comment says so).
    #[arg(long)]
    no_reduce: bool,
    /// Which symmetry breaking (fully symmetric families only).
    #[arg(long, value_enum, default_value_t = SymBreakArg::WitnessLex)]
    symmetry_breaking: SymBreakArg,
    /// How cells are encoded.
    #[arg(long, value_enum, default_value_t = EncodingArg::Binary)]
    encoding: EncodingArg,
    /// Partial-order reduction of the unrolling (as `check --por`).
    #[arg(long, value_enum, default_value_t = PorArg::Idle)]
    por: PorArg,
    /// Write to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<String>,
    /// Also solve the written formula once with a built-in solver (fresh, not
    /// incremental; the query as unit clauses) and print the answer and the solving time
    /// on stderr; the exit code is then a SAT solver's: 10 satisfiable, 20 unsatisfiable.
    #[arg(long, value_enum, value_name = "SOLVER")]
    solve: Option<SolverArg>,
}

/// What `nfold live --help` adds.
const CHECK_AFTER_HELP: &str = "Exit codes: 0 every answer proved (holds), 1 violation, deadlock or \
range error found, 2 usage or input error, 3 a limit (--timeout, --max-states, --max-memory, \
Ctrl-C, SIGTERM) hit before an answer, or an internal check failed, 4 no violation found but \
some answer is not a proof (none up to K, vacuous, int window left, --every-n not reached). \
docs/cli.md has the full table.";

const LIVE_AFTER_HELP: &str = "Which search answers (explicit engine, and auto, which runs it per size): \
under --fair the fair SCC search (Couvreur's algorithm on the annotated quotient by \
symmetry: each edge carries the permutation to its target's representative, and a \
component holds a weakly fair cycle exactly when every orbit of the permutations its \
cycles generate contains a process that executes or is disabled in it); without --fair \
the nested depth-first search. Both reduce by symmetry on a fully symmetric family where \
it identifies states (n >= 3 for a property of a process, n >= 2 otherwise; not with \
--no-symmetry), and both are exact: `holds` is a proof for that size, and every lasso is \
replayed on the interpreter of the unreduced instance (fairness checked) before it is \
printed.\n\n\
Exit codes: 0 every answer proved (holds), 1 violation or range error found, 2 usage or \
input error, 3 a limit hit (or a lasso failed to replay) before an answer, 4 no violation \
found but some answer is not a proof (vacuous, int window left, or a bounded answer of \
another engine).";

/// The flags that decide how a model file is read: shared by every command that loads
/// one.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct LoadArgs {
    /// The number of values of every abstract type (`type data`; default: chosen from
    /// the model, see `nfold info`).
    #[arg(long, value_name = "D", value_parser = parse_data_values)]
    pub data_values: Option<usize>,
    /// The window over which `int` is checked (default: the model's integer literals
    /// and 0, widened by 2).
    #[arg(long, value_name = "LO..HI", value_parser = parse_int_range, allow_hyphen_values = true)]
    pub int_range: Option<(i64, i64)>,
}

impl LoadArgs {
    /// Read, check and return the model at `path`, its warnings printed; on an error,
    /// the diagnostic printed and the exit code.
    pub fn load(&self, path: &str) -> Result<Model, i32> {
        load(path, self.data_values, self.int_range)
    }
}

/// The property named `name`: an `unsafe`/`invariant` or an `ltl` property of the
/// model, or an error listing the names it has.
pub(crate) fn lookup_property(model: &Model, name: &str) -> Result<PropId, String> {
    if let Some(k) = model.unsafe_by_name(name) {
        return Ok(PropId::Unsafe(k));
    }
    if let Some(k) = model.ltl_by_name(name) {
        return Ok(PropId::Ltl(k));
    }
    let names: Vec<&str> = model
        .unsafes
        .iter()
        .map(|u| u.name.as_str())
        .chain(model.ltls.iter().map(|l| l.name.as_str()))
        .collect();
    Err(format!(
        "no property named `{name}` (the model has: {})",
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        }
    ))
}

/// Limits and output flags shared by `check` and `live`.
#[derive(Args, Debug)]
pub(crate) struct RunArgs {
    /// Stop the whole run after this long: seconds, or with a unit (`90`, `90s`,
    /// `1.5m`, `2h`, `500ms`); the answers so far are reported.
    #[arg(long, value_name = "S", value_parser = parse_duration)]
    timeout: Option<f64>,
    /// Stop when an explicit search's tables, or any other engine's whole process, need
    /// more than this (e.g. `8G`, `512M`; default: 3/4 of physical memory).
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
    max_memory: Option<usize>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
    /// Also write the run as one self-contained HTML page to FILE (no network, no
    /// script): the verdicts by size and property, the `$` picture, every
    /// counterexample as a step table, the proofs' lemmas, the settings.
    #[arg(long, value_name = "FILE")]
    report: Option<String>,
    /// Every progress line on stderr (default: when stderr is a terminal; into a pipe or
    /// a file, from 5 s on one line every 10 s).
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

    /// Whether engines report progress: unless `--quiet`, always; into a pipe or a
    /// file the lines are paced (`progress::Pace::PIPED`) so that a long run still
    /// shows it is alive (issue 29: an IC3 run was silent for 8 minutes when piped).
    fn progress_on(&self) -> bool {
        !self.quiet
    }

    /// How often progress lines are printed: every one on a terminal or with
    /// `--progress`, else paced.
    fn progress_pace(&self) -> crate::progress::Pace {
        if self.progress || std::io::stderr().is_terminal() {
            crate::progress::Pace::EVERY_LINE
        } else {
            crate::progress::Pace::PIPED
        }
    }
}

/// A flag set by Ctrl-C, SIGTERM or SIGHUP (what `timeout`, `docker stop`, Slurm and CI
/// runners send), so that a run stops cleanly and reports what it answered.
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
    /// The window over which `int` is checked (default: the model's integer literals
    /// and 0, widened by 2).
    #[arg(long, value_name = "LO..HI", value_parser = parse_int_range, allow_hyphen_values = true)]
    int_range: Option<(i64, i64)>,
}

/// `--int-range LO..HI`: a non-empty window of at most `MAX_INT_VALUES` integers
/// (bounds may be negative, e.g. `-3..10`).
pub(crate) fn parse_int_range(s: &str) -> Result<(i64, i64), String> {
    let bad = || format!("`{s}` is not an int window (write LO..HI, e.g. `-2..10`)");
    let (a, b) = s.trim().split_once("..").ok_or_else(bad)?;
    let lo: i64 = a.trim().parse().map_err(|_| bad())?;
    let hi: i64 = b.trim().parse().map_err(|_| bad())?;
    let max = crate::model::ints::MAX_INT_VALUES;
    if hi < lo {
        return Err(format!("the int window {lo}..{hi} is empty"));
    }
    if hi.saturating_sub(lo) >= max {
        return Err(format!(
            "the int window {lo}..{hi} is too large (at most {max} values)"
        ));
    }
    Ok((lo, hi))
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
    if let Some((a, b)) = s.split_once("..")
        && (a.trim().is_empty() || b.trim().is_empty())
    {
        return Err(format!(
            "`{s}` is not a size range: write A..B with both ends (e.g. `1..5`; one size: `--size N`)"
        ));
    }
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

/// A duration in seconds: a number, optionally followed by `ms`, `s`, `m` or `h`.
fn parse_duration(s: &str) -> Result<f64, String> {
    let t = s.trim();
    let (num, mult) = if let Some(n) = t.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else if let Some(n) = t.strip_suffix('h') {
        (n, 3600.0)
    } else {
        (t, 1.0)
    };
    match num.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v * mult),
        _ => Err(format!(
            "`{s}` is not a duration (seconds, or with a unit: `90`, `90s`, `1.5m`, `2h`, `500ms`)"
        )),
    }
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

/// Whether errors are also written as a JSON document on stdout (`--json` was given).
static JSON_ERRORS: AtomicBool = AtomicBool::new(false);

/// Run the command line; returns the exit code.
pub fn main_with_args(args: Vec<String>) -> i32 {
    JSON_ERRORS.store(args.iter().any(|a| a == "--json"), Ordering::Relaxed);
    let cli = match Cli::try_parse_from(&args) {
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
                _ => usage(&clap_error(&e, &args)),
            };
        }
    };
    match cli.cmd {
        Command::Check(a) => check::check(a, check::Mode::Check),
        Command::Certify(a) => certify::certify(a),
        Command::Live(a) => check::check(a, check::Mode::Live),
        Command::Info(a) => info(a),
        Command::Cnf(a) => cnf(a),
        Command::Aiger(a) => aiger::aiger(a),
        Command::Simulate(a) => simulate::simulate(a),
        Command::Replay(a) => replay::replay(a),
        Command::Dot(a) => dot::dot(a),
        Command::Reduce(a) => reduce::reduce(a),
        Command::Schema => {
            println!(
                "{}",
                serde_json::to_string_pretty(&crate::schema::all_schemas()).unwrap_or_default()
            );
            EXIT_OK
        }
    }
}

fn load(
    path: &str,
    data_values: Option<usize>,
    int_range: Option<(i64, i64)>,
) -> Result<Model, i32> {
    let opts = lang::LoadOptions {
        data_values,
        int_range,
        data_value_names: false,
    };
    match lang::load_file_with(path, &opts) {
        Ok(m) => {
            for w in &m.warnings {
                eprint!("{}", w.render(&m.source));
            }
            Ok(m)
        }
        Err(e) => {
            let text = e.render();
            eprint!("{text}");
            json_error(text.trim_end());
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

/// A command-line error from clap, on one line: what is wrong, the near miss clap
/// suggests (`did you mean --sizes?`), the allowed values of a flag, and where help is.
fn clap_error(e: &clap::Error, args: &[String]) -> String {
    use clap::error::{ContextKind, ContextValue};
    let text = e.to_string();
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("usage error");
    let mut msg = first.strip_prefix("error: ").unwrap_or(first).to_string();
    // clap lists missing arguments on the lines after the first.
    if msg.ends_with(':') {
        let items: Vec<&str> = lines.map(str::trim).take_while(|l| !l.is_empty()).collect();
        msg.push(' ');
        msg.push_str(&items.join(", "));
    }
    let strings = |v: &ContextValue| match v {
        ContextValue::String(s) => vec![s.clone()],
        ContextValue::Strings(v) => v.clone(),
        _ => Vec::new(),
    };
    for kind in [ContextKind::SuggestedArg, ContextKind::SuggestedSubcommand] {
        if let Some(v) = e.get(kind) {
            // clap lists its suggestions from the least to the most likely.
            let s: Vec<String> = strings(v).into_iter().rev().collect();
            if !s.is_empty() {
                msg.push_str(&format!("; did you mean `{}`?", s.join("` or `")));
            }
        }
    }
    if let Some(v) = e.get(ContextKind::ValidValue) {
        let s = strings(v);
        if !s.is_empty() {
            msg.push_str(&format!("; the allowed values: {}", s.join(", ")));
        }
    }
    let sub = args
        .get(1)
        .filter(|a| Cli::command().find_subcommand(a.as_str()).is_some());
    match sub {
        Some(s) => msg.push_str(&format!(" (see `nfold {s} --help`)")),
        None => msg.push_str(" (see `nfold --help`)"),
    }
    msg
}

/// A usage or input error: said on stderr, and under `--json` also as a JSON document
/// (`schema::ErrorDoc`) on stdout, so that a tool reading the output always gets JSON.
pub(crate) fn usage(msg: &str) -> i32 {
    eprintln!("nfold: error: {msg}");
    json_error(msg);
    EXIT_USAGE
}

/// Under `--json`: the error as a JSON document on stdout.
fn json_error(msg: &str) {
    if JSON_ERRORS.load(Ordering::Relaxed) {
        let doc = crate::schema::ErrorDoc {
            schema: crate::schema::SCHEMA_VERSION,
            tool: crate::schema::Tool::this(),
            error: msg.to_string(),
        };
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    }
}

fn cnf(a: CnfArgs) -> i32 {
    let model = match load(&a.file, None, None) {
        Ok(m) => m,
        Err(code) => return code,
    };
    if let Err(e) = sizes_for(&model, None, Some(a.size)) {
        return usage(&e);
    }
    let prop = match &a.property {
        None => None,
        Some(p) => match model.unsafe_by_name(p) {
            Some(k) => Some(k),
            None => {
                return usage(&format!("no `unsafe` or `invariant` property named `{p}`"));
            }
        },
    };
    let mode = if a.no_symmetry {
        SymBreak::Off
    } else {
        a.symmetry_breaking.mode()
    };
    let asked = crate::model::reduce::Asked {
        props: prop.map_or_else(|| (0..model.unsafes.len()).collect(), |p| vec![p]),
        ..Default::default()
    };
    let reduction = if a.no_reduce {
        None
    } else {
        crate::portfolio::reduced::reduce_model(&model, &asked, (a.size, a.size))
            .ok()
            .flatten()
    };
    let system = match &reduction {
        Some(r) => format!(
            "the model reduced to what is asked ({}; --no-reduce for the model as written)",
            r.plan.summary(&model)
        ),
        None => "the model as written".to_string(),
    };
    let (cnf, units, mut comments) = crate::bmc::cnf::query(
        reduction.as_ref().map_or(&model, |r| &r.model),
        a.size,
        a.depth,
        prop,
        mode,
        a.encoding.encoding(),
        a.por.por(),
    );
    comments.insert(
        1.min(comments.len()),
        format!("the transition system of {system}"),
    );
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
    // As SAT solvers exit, so that a script reads the answer without parsing.
    match r {
        crate::sat::SolveResult::Sat => 10,
        crate::sat::SolveResult::Unsat => 20,
        crate::sat::SolveResult::Unknown => EXIT_LIMIT,
    }
}

fn info(a: InfoArgs) -> i32 {
    let model = match load(&a.file, a.data_values, a.int_range) {
        Ok(m) => m,
        Err(code) => return code,
    };
    print!("{}", render::info(&model, a.size));
    EXIT_OK
}

#[cfg(test)]
mod tests {
    use super::parse_int_range;

    #[test]
    fn int_range_flag() {
        assert_eq!(parse_int_range("0..7"), Ok((0, 7)));
        assert_eq!(parse_int_range("-3..-1"), Ok((-3, -1)));
        assert_eq!(parse_int_range(" 2..2 "), Ok((2, 2)));
        assert!(parse_int_range("3..1").unwrap_err().contains("empty"));
        assert!(
            parse_int_range("0..70000")
                .unwrap_err()
                .contains("too large")
        );
        assert!(parse_int_range("0-7").is_err());
    }

    #[test]
    fn durations_and_size_ranges() {
        use super::{parse_duration, parse_sizes};
        assert_eq!(parse_duration("90"), Ok(90.0));
        assert_eq!(parse_duration("90s"), Ok(90.0));
        assert_eq!(parse_duration("1.5m"), Ok(90.0));
        assert_eq!(parse_duration("2h"), Ok(7200.0));
        assert_eq!(parse_duration("500ms"), Ok(0.5));
        assert!(parse_duration("1d").is_err());
        assert!(parse_duration("-3").is_err());
        assert_eq!(parse_sizes("2..4"), Ok((2, 4)));
        assert!(parse_sizes("3..").unwrap_err().contains("both ends"));
        assert!(parse_int_range("a..b").is_err());
    }
}
