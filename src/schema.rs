//! The JSON documents nfold writes and reads, as plain serde types: one definition for
//! the writer (`cli`, `trace`, `lasso`) and the readers (`trail`, the tests, scripts).
//! Every document opens with `schema` (this file's `SCHEMA_VERSION`) and `tool` (name,
//! version and git commit of the binary that wrote it), so that a verdict can be
//! reproduced. `docs/cli.md` describes the fields; `docs/schema.json` is the JSON Schema
//! generated from these types (`nfold schema`; `tests/schema.rs` keeps it in step).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The version of the documents' shape; raised whenever a field changes meaning or
/// disappears.
pub const SCHEMA_VERSION: u32 = 3;

/// A cell's value in a trace: a number for the numeric types (`proc`, ranges, `int`),
/// the value's name otherwise (`True`, an enumeration's constructor). Version 2 wrote
/// every value as a string; both read back (`text`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum CellValue {
    Int(i64),
    Name(String),
}

impl CellValue {
    /// The value printed as the interpreter names it (`2`, `True`, `Idle`).
    pub fn of(text: String) -> CellValue {
        match text.parse::<i64>() {
            Ok(k) => CellValue::Int(k),
            Err(_) => CellValue::Name(text),
        }
    }

    /// How the interpreter names it.
    pub fn text(&self) -> String {
        match self {
            CellValue::Int(k) => k.to_string(),
            CellValue::Name(s) => s.clone(),
        }
    }
}

/// The tool that wrote a document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Tool {
    pub name: String,
    pub version: String,
    /// The git commit the binary was built from (`unknown` outside a git checkout).
    pub git: String,
}

impl Tool {
    /// This binary.
    pub fn this() -> Tool {
        Tool {
            name: "nfold".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            git: option_env!("NFOLD_GIT_COMMIT").unwrap_or("unknown").into(),
        }
    }
}

/// One step of a run: the transition instance, the nondeterministic choices it made,
/// and the cells it changed with their new values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StepDoc {
    pub transition: String,
    pub params: Vec<i64>,
    /// The executing process: the first parameter.
    #[serde(default)]
    pub process: Option<i64>,
    #[serde(default)]
    pub choices: Vec<i64>,
    /// The cells the step changed, with their new values (absent: not compared).
    #[serde(default)]
    pub changes: Option<BTreeMap<String, CellValue>>,
    /// In a lasso: the step belongs to the cycle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_cycle: Option<bool>,
}

/// Where a range error (or a store leaving the int window) happened.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SiteDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transition: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Vec<i64>>,
    #[serde(rename = "unsafe", default, skip_serializing_if = "Option::is_none")]
    pub unsafe_prop: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ltl: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process: Option<i64>,
}

/// A counterexample or run: a finite trace (`kind`: `unsafe`, `invariant`, `deadlock`,
/// `range_error`, `int_bound`), a lasso (`lasso`: `loop_start`, `deadlock`, `fair`), or
/// a run without a violation (`run`, from `nfold simulate`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TraceDoc {
    #[serde(default)]
    pub kind: Option<String>,
    /// The initial state: cell name to value.
    pub init: BTreeMap<String, CellValue>,
    pub steps: Vec<StepDoc>,
    /// What is violated, in words (null for a run).
    #[serde(default)]
    pub violation: Option<String>,
    /// The witness processes of an `unsafe` property.
    #[serde(default)]
    pub processes: Option<Vec<i64>>,
    /// The `unsafe` or `ltl` property's name.
    #[serde(default)]
    pub property: Option<String>,
    /// Where a range error happened.
    #[serde(default)]
    pub site: Option<SiteDoc>,
    /// A lasso's process (for a property of a process).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process: Option<i64>,
    /// A lasso: the state where its cycle starts (state 0 is the initial state).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loop_start: Option<usize>,
    /// A lasso ending in a deadlocked state that repeats forever.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadlock: Option<bool>,
    /// A lasso found (and checked) under weak fairness.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fair: Option<bool>,
}

impl TraceDoc {
    /// A trace of no steps from an empty state (a placeholder to build documents on).
    pub fn empty() -> TraceDoc {
        TraceDoc {
            kind: None,
            init: BTreeMap::new(),
            steps: Vec::new(),
            violation: None,
            processes: None,
            property: None,
            site: None,
            process: None,
            loop_start: None,
            deadlock: None,
            fair: None,
        }
    }
}

/// A standalone counterexample (`--trace-out`, `nfold simulate --json`), read back by
/// `nfold replay`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TrailDoc {
    #[serde(default)]
    pub schema: Option<u32>,
    #[serde(default)]
    pub tool: Option<Tool>,
    #[serde(default)]
    pub model: Option<String>,
    pub size: i64,
    /// The number of values of each abstract type it was recorded with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_values: Option<BTreeMap<String, usize>>,
    /// The int window it was recorded with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub int_range: Option<(i64, i64)>,
    pub trace: TraceDoc,
}

/// An engine's figures for one size: each engine fills the ones it has, and reports
/// show exactly those.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Stats {
    /// States stored (explicit searches; product states for `ltl` properties).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub states: Option<usize>,
    /// Successors generated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transitions: Option<u64>,
    /// Initial states.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial_states: Option<usize>,
    /// Every reachable state was explored (a search may stop early once every property
    /// is violated).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub complete: Option<bool>,
    /// Bounded search: the depth bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<usize>,
    /// SAT: variables and clauses of the deepest formula.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variables: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clauses: Option<usize>,
    /// Proofs: the frame or induction depth at which the proof closed, and the number
    /// of lemmas of the invariant.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof_depth: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lemmas: Option<usize>,
    /// Liveness by nested search: which search answered (e.g. `full`, `symmetry`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
    /// Liveness: the deepest stack of the search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_depth: Option<usize>,
    /// A search that may miss states (hash compaction, bitstate): an upper estimate of
    /// the probability that it missed one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub omission_probability: Option<f64>,
    /// Explicit searches: bytes their tables and stacks held at their largest, for
    /// `auto`'s prediction of the next size (not written).
    #[serde(skip)]
    pub bytes: Option<usize>,
    /// Explicit safety search with `--store tree`: bytes the store held at the end, its
    /// roots and every node table (divided by `states`: the store's bytes per state).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub store_bytes: Option<usize>,
    /// Explicit searches: the `int` variables replaced by their rank among the values
    /// of the state (`model::ints::ranked`), which makes the instance finite and the answers
    /// exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ints_ranked: Option<Vec<String>>,
}

impl Stats {
    /// The figure for a table's count column: states stored, else clauses, else the
    /// lemmas of an invariant (when `proved`).
    pub fn count(&self, proved: bool) -> Option<u64> {
        self.states
            .map(|s| s as u64)
            .or(self.clauses.map(|c| c as u64))
            .or(self.lemmas.filter(|_| proved).map(|l| l as u64))
    }
}

/// How a `holds` was proved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ProofDoc {
    /// `exhaustive search`, `inductive invariant, checked` or (the `rank` engine's
    /// proofs of response properties) `ranking over an inductive invariant, checked`.
    pub how: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lemmas: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub induction: Option<usize>,
}

/// One answer: a property at a size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Row {
    pub size: usize,
    pub property: String,
    /// `unsafe`, `invariant`, `ltl`, `range_error`, `int_bound` or `deadlock`.
    pub kind: String,
    /// `holds`, `violated`, `no_violation_up_to`, `incomplete`, `vacuous`, `unknown` or
    /// `within_int_window`.
    pub verdict: String,
    /// The length of the counterexample.
    #[serde(default)]
    pub depth: Option<usize>,
    /// The time of the run that answered this size: its own, or (with `shared_time`)
    /// that of one run answering several sizes together.
    pub seconds: f64,
    /// `seconds` is shared: one run (an aggregate) answered this size together with
    /// others, and every row of those sizes carries that run's time.
    #[serde(default)]
    pub shared_time: bool,
    /// The depth up to which every requested property was answered.
    #[serde(default)]
    pub answered_depth: Option<usize>,
    /// No engine ran this size: a limit came first (the verdict is `unknown`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub not_run: bool,
    /// Seconds from the run's start until this row was printed in the text: rows are
    /// printed as each is decided, in the table's order (absent: a row no text showed,
    /// such as a narrower int window's before it was widened).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown_at: Option<f64>,
    /// The counterexample: a trace, or for `ltl` a lasso.
    #[serde(default)]
    pub trace: Option<TraceDoc>,
    /// An `ltl` counterexample's process.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process: Option<i64>,
    /// An `ltl` counterexample was found under weak fairness.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fair: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<ProofDoc>,
    /// `within_int_window`: the window, and the answer within it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub int_window: Option<(i64, i64)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<String>,
    /// The engine that answered this size.
    pub engine: String,
    /// Whether the engine's use of symmetry was applied at this size.
    pub symmetry: bool,
    #[serde(flatten)]
    pub stats: Stats,
    #[serde(default)]
    pub internal_errors: Vec<String>,
}

/// A warning about the model's text after exhaustive searches: a transition that never
/// fired (`never_fired`), a property conjunct never true (`never_true`), a property no
/// state satisfies (`unsatisfiable`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WarningDoc {
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transition: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub property: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub property_kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conjunct: Option<String>,
    pub line: usize,
    pub sizes: Vec<usize>,
}

/// What the exhaustive searches saw of one transition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TransitionCoverage {
    pub transition: String,
    pub line: usize,
    pub instances_at: Vec<usize>,
    pub fired_at: Vec<usize>,
}

/// One conjunct of a property and the sizes where it was true in a reachable state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ConjunctCoverage {
    pub conjunct: String,
    pub line: usize,
    pub true_at: Vec<usize>,
}

/// What the exhaustive searches saw of one property.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PropertyCoverage {
    pub property: String,
    pub kind: String,
    pub line: usize,
    pub satisfiable_at: Vec<usize>,
    pub unsatisfiable_at: Vec<usize>,
    pub examined_at: Vec<usize>,
    pub conjuncts: Vec<ConjunctCoverage>,
}

/// Coverage of the model's text by the exhaustive searches of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CoverageDoc {
    pub exhaustive_sizes: Vec<usize>,
    pub transitions: Vec<TransitionCoverage>,
    pub properties: Vec<PropertyCoverage>,
}

/// The int window a model is checked over.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct IntWindowDoc {
    pub lo: i64,
    pub hi: i64,
    /// Set by `--int-range` (else derived from the model).
    pub given: bool,
    /// The window derived from the model's literals, when some size left it and was
    /// run again in this wider one (`--int-max` caps the widening).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub widened_from: Option<[i64; 2]>,
    /// The variables whose initial values range over it.
    pub free: Vec<String>,
}

/// The answer for every size n: over all the properties (`verdict`; the proof's
/// fields when one invariant proves them all) and per property (`properties`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EveryDoc {
    /// `holds` (every property holds for every n), `violated` (a property fails at
    /// some size) or `not_proved`.
    pub verdict: String,
    /// The `invariant`s assumed (the model restricted to the states satisfying them);
    /// empty for the model as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assuming: Vec<String>,
    /// Each property's answer for every n.
    #[serde(default)]
    pub properties: Vec<EveryPropDoc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cutoff: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked_sizes: Option<Vec<usize>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lemmas: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub how: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_states_at_every_size: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificate: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub seconds: f64,
}

/// One property's answer for every size n.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EveryPropDoc {
    pub property: String,
    /// `unsafe` or `invariant`.
    pub kind: String,
    /// `holds`, `violated` or `not_proved`.
    pub verdict: String,
    /// `violated`: the sizes where it fails.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub violated_sizes: Vec<usize>,
    /// `holds`: the cutoff, the sizes checked (1..cutoff), the clauses of the
    /// quantified invariant and how they were found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cutoff: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lemmas: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub how: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_states_at_every_size: Option<bool>,
    /// Why not proved (or where violated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The `invariant`s assumed, as in `EveryDoc::assuming`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assuming: Vec<String>,
    pub seconds: f64,
}

/// The `unsafe` properties answered again on the model restricted to the states
/// satisfying every `invariant` (Cubicle's reading: an initial state violating one is
/// dropped, a step into one is not taken).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AssumingDoc {
    /// The invariants assumed.
    pub invariants: Vec<String>,
    /// One row per size and `unsafe` property, as `CheckDoc::results`, of the
    /// restricted model (traces are runs of it).
    pub results: Vec<Row>,
    /// The answer for every n of the restricted model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub every_n: Option<EveryDoc>,
    /// The limit that stopped the pass, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<String>,
    /// When the pass could not be made: why (then `results` is empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// What the reader must know about the restricted model (e.g. that it is read
    /// with the extra process id).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    pub seconds: f64,
}

/// `nfold check --json` and `nfold live --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CheckDoc {
    pub schema: u32,
    pub tool: Tool,
    pub model: String,
    /// The command line that wrote the document (the program, then its arguments), so
    /// that the run can be repeated.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    /// The engine's name (`explicit`, `sat`, `ic3`, `kind`, `auto`) and its settings.
    pub engine: String,
    pub engine_text: String,
    /// How the run used symmetry: the text header's `symmetry` line, word for word
    /// (the model's symmetry, and which reductions were on and off).
    pub symmetry_use: String,
    pub symmetric: bool,
    /// The symmetry analysis in words.
    pub symmetry: String,
    /// For a run with `ltl` properties: whether only weakly fair runs count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fair: Option<bool>,
    pub sizes: Vec<usize>,
    pub results: Vec<Row>,
    /// The limit that stopped the run, in words.
    #[serde(default)]
    pub limit: Option<String>,
    pub seconds: f64,
    #[serde(default)]
    pub peak_memory_bytes: Option<usize>,
    /// The exit code the run ends with (docs/cli.md, "Exit codes").
    #[serde(default)]
    pub exit_code: Option<i32>,
    /// The text output's last line without its time and memory: the sizes by kind of
    /// answer (and the answer for every n).
    #[serde(default)]
    pub summary: Option<String>,
    /// The arrays whose dead cells the explicit search stores as one value.
    #[serde(default)]
    pub dead_cells: Vec<String>,
    /// What the reduction left out of the model before the engines ran (the header's
    /// `reduced` line): cells read by nothing asked, constants, equivalent cells,
    /// transitions that cannot fire or have no effect; empty when nothing was
    /// reduced (or with --no-reduce). Counts of states and clauses are of the reduced
    /// model; traces and certificates are the model's own.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reduced: String,
    #[serde(default)]
    pub notes: Vec<String>,
    #[serde(default)]
    pub warnings: Vec<WarningDoc>,
    #[serde(default)]
    pub coverage: Option<CoverageDoc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub int_window: Option<IntWindowDoc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub every_n: Option<EveryDoc>,
    /// The `unsafe` properties answered assuming the `invariant`s (when some
    /// `invariant` is not proved).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assuming: Option<AssumingDoc>,
    /// The checked certificate of the sizes proved by an invariant, as text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificate: Option<String>,
    /// The depth bound of a bounded run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<usize>,
    /// `aggregate` (one run over the sizes), `per-width` (width by width in one run) or
    /// `one-by-one`.
    pub mode: String,
    /// The sizes with a violation as rows of the aggregate of the largest size (T. Wahl's
    /// thesis §11.6): per slot `$` (absent), `-` (present), or for a violation of an `ltl`
    /// property the process's cells in the lasso's initial state.
    #[serde(default)]
    pub picture: Vec<PictureRow>,
    /// The arrays indexed by processes, each with the position of its first `proc`
    /// index: the process that owns a cell (`A[2]` belongs to process 2), as the text
    /// report's tables by process (`--trace-format table`) and the HTML report group them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub process_arrays: BTreeMap<String, usize>,
}

/// One row of the `$` picture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PictureRow {
    pub size: usize,
    pub slots: Vec<String>,
}

/// An error under `--json`: what went wrong, as the text output says it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorDoc {
    pub schema: u32,
    pub tool: Tool,
    pub error: String,
}

/// `nfold simulate --json`: the run as a trail (replayable), with how it was drawn and
/// how it ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SimulateDoc {
    pub schema: u32,
    pub tool: Tool,
    pub model: String,
    pub size: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_values: Option<BTreeMap<String, usize>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub int_range: Option<(i64, i64)>,
    /// The run (null without an initial state).
    pub trace: Option<TraceDoc>,
    pub seed: u64,
    pub max_steps: usize,
    /// Steps taken.
    pub steps: usize,
    /// `steps`, `deadlock`, `unsafe`, `invariant`, `range_error`, `int_bound` or
    /// `no_initial_state`.
    pub end: String,
    /// The number of initial states the first one was drawn from uniformly, when known.
    pub initial_states: Option<u64>,
}

/// Where a replayed trail stopped matching the model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MismatchDoc {
    /// `init`, `step` or `end`.
    pub at: String,
    pub step: Option<usize>,
    pub transition: Option<String>,
    pub reason: String,
    pub text: String,
}

/// `nfold replay --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ReplayDoc {
    pub schema: u32,
    pub tool: Tool,
    pub model: String,
    pub trail: String,
    pub recorded_model: Option<String>,
    pub size: usize,
    /// What the trail records: `unsafe`, `invariant`, `deadlock`, `range_error`,
    /// `int_bound`, `lasso` or `run`.
    pub kind: String,
    pub matches: bool,
    pub steps: usize,
    pub steps_replayed: usize,
    pub mismatch: Option<MismatchDoc>,
    /// The replayed run on the model (null when not even its initial state matched).
    pub trace: Option<TraceDoc>,
}

/// One size of a certificate's check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SizeCheckDoc {
    pub size: usize,
    /// The properties certified at this size (`range_error` for range errors).
    pub certified: Vec<String>,
    /// Every condition that failed (empty: checked).
    pub failures: Vec<String>,
    /// Which check decided the size, for a certificate with decision-diagram lemmas
    /// (`bdd`: BDDs over the checker's encoding; `sat`: SAT over it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked_by: Option<String>,
}

/// The check of one certificate (`nfold certify --json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CertifyDoc {
    pub schema: u32,
    pub tool: Tool,
    pub model: String,
    /// The certificate file.
    pub certificate: String,
    pub lemmas: usize,
    /// How the invariant was found.
    pub engine: String,
    /// Induction over runs of pairwise distinct states only.
    #[serde(default)]
    pub simple_path: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub induction: Option<usize>,
    /// `liveness NAME [fair] [counting K | ranks]`: the certificate is of the liveness
    /// product of `ltl` property NAME, rebuilt from the model to be checked (`ranks`: a
    /// ranking proof of NAME on the model itself).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub liveness: Option<String>,
    /// A claim at every size: the cutoff computed, or why the claim is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub every_n: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cutoff: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// `assume NAMES`: the certificate is of the model restricted to the states
    /// satisfying those `invariant`s, rebuilt from the model to be checked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assuming: Vec<String>,
    /// `abstraction ints`: the certificate is of the model's over-approximation over the
    /// classes of its ints, rebuilt from the model to be checked.
    #[serde(default)]
    pub abstraction: bool,
    /// `abstraction order` (with `abstraction`): the over-approximation is the one over
    /// the order of the ints instead of their classes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub order: bool,
    /// The certificate is about the model reduced to what was asked (its `reduced`
    /// line: sizes, properties, fairness, deadlocks); the reduction is checked on the
    /// model before the lemmas are checked on the reduced model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduced: Option<String>,
    pub results: Vec<SizeCheckDoc>,
    pub accepted: bool,
    pub seconds: f64,
    /// The other certificates of the same file, when it holds several.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more: Vec<CertifyDoc>,
}

/// The JSON Schema (draft 2020-12) of every document nfold writes, by command: what
/// `nfold schema` prints and `docs/schema.json` holds.
pub fn all_schemas() -> serde_json::Value {
    serde_json::json!({
        "schema_version": SCHEMA_VERSION,
        "check": schemars::schema_for!(CheckDoc),
        "live": schemars::schema_for!(CheckDoc),
        "trail": schemars::schema_for!(TrailDoc),
        "simulate": schemars::schema_for!(SimulateDoc),
        "replay": schemars::schema_for!(ReplayDoc),
        "certify": schemars::schema_for!(CertifyDoc),
        "error": schemars::schema_for!(ErrorDoc),
    })
}
