//! The explicit searches as an engine of the command line, one size at a time:
//! breadth-first search for safety (`reach`), nested depth-first search and the fair
//! SCC search for `ltl` properties (`ndfs`), stopping at the first limit.

use super::ndfs::{self, NdfsOptions, NdfsResult, NdfsSearch, NdfsVerdict};
use super::reach::{self, ReachOptions, StoreKind};
use crate::engine::{Checked, Report};
use crate::engine::{Control, Engine, Outcome, Presentation, Problem};
use crate::ltl::{self, LtlProperty};
use crate::model::ir::Model;
use crate::verdict::{Limit, Proof, PropId, PropResult, SizeReport, Stats, Verdict};

/// Explicit search with its settings (limits and interrupt come from the `Control`).
#[derive(Clone, Debug, Default)]
pub struct ExplicitEngine {
    /// Reduce by symmetry (honoured for fully symmetric families only).
    pub symmetry: bool,
    /// Store states up to their dead cells (`model::dead`).
    pub dead_cells: bool,
    /// Report reachable deadlocks.
    pub deadlock: bool,
    pub max_states: Option<usize>,
    /// How states are stored (`StoreKind::Exact` unless hunting bugs).
    pub store: StoreKind,
    /// `ltl` properties: look for a shorter lasso once one is found.
    pub shorten: bool,
    /// `ltl` properties: with 2 or more, the parallel SCC search on this many threads
    /// (`ndfs::par`); 0 or 1, the sequential searches. Not `Control::threads`, whose
    /// default (0, one per core) is the safety search's: the parallel `ltl` search runs
    /// only when asked for (`--threads T`), see docs/engines.md.
    pub live_threads: usize,
    /// Rank the ints of a model that qualifies (`model::ints::ranked`).
    pub rank_ints: bool,
    /// Partial symmetry (`reach::partial`) on families that are not fully
    /// symmetric.
    pub partial_symmetry: bool,
    /// The safety search distributed over timely dataflow workers (`reach::dist`),
    /// threads of this process or processes on several machines.
    pub distributed: Option<reach::dist::Cluster>,
}

impl ExplicitEngine {
    /// The `ltl` search settings for a problem under a control.
    pub fn live_options(&self, p: &Problem, ctl: &Control) -> NdfsOptions {
        NdfsOptions {
            symmetry: self.symmetry,
            fair: p.fair,
            max_states: self.max_states,
            max_memory: ctl.max_memory,
            deadline: ctl.deadline,
            stop: ctl.stop.clone(),
            progress: ctl.progress,
            shorten: self.shorten,
            search: NdfsSearch::Auto,
            threads: self.live_threads,
            dead_cells: self.dead_cells,
        }
    }
}

/// The `ltl` properties of a problem prepared for checking (their automata), or why
/// one cannot be.
pub fn prepare(model: &Model, ltls: &[usize]) -> Result<Vec<LtlProperty>, String> {
    ltls.iter()
        .map(|&k| {
            LtlProperty::new(model, k)
                .map_err(|e| format!("ltl property `{}`: {e}", model.ltls[k].name))
        })
        .collect()
}

/// The `ltl` properties at size n by explicit search (`ndfs::check`: nested DFS, or the
/// fair SCC search under fairness; both exact): one row per property (for a property
/// of a process, every process to check, see `ltl::processes_to_check`, the first
/// violating one answering), and the notes a reader needs. A range error met by the
/// search is a
/// `range_error` row with its trace unless `range_known` (another search at this size
/// answers range errors); the property's answer is then unknown. A store leaving the
/// int window stops the search too: an `int_bound` row, and the property is answered
/// `incomplete` (no violation met before the search stopped).
pub fn liveness_size(
    model: &Model,
    n: usize,
    props: &[LtlProperty],
    opts: &NdfsOptions,
    range_known: bool,
    notes: &mut Vec<String>,
) -> SizeReport {
    let mut report = SizeReport {
        size: n,
        engine: "explicit",
        stats: Stats {
            states: Some(0),
            transitions: Some(0),
            max_depth: Some(0),
            ..Stats::default()
        },
        ..SizeReport::default()
    };
    let mut searches: Vec<String> = Vec::new();
    for p in props {
        let mut verdict = Verdict::Holds(Proof::Exhaustive);
        for process in ltl::processes_to_check(model, p.prop, n) {
            let r = ndfs::check(model, n, p, process, opts);
            add_stats(&mut report, &r, &mut searches);
            let search_text = |what: &str| {
                format!(
                    "size {n}: `{}`{}: {what}",
                    model.ltls[p.prop].name,
                    process
                        .map(|i| format!(" for process {i}"))
                        .unwrap_or_default()
                )
            };
            if let Some(t) = r.range {
                let left = t.violation.kind_name() == "int_bound";
                let (id, v) = if left {
                    (PropId::IntBound, Verdict::Incomplete)
                } else {
                    (PropId::Range, Verdict::Unknown)
                };
                notes.push(search_text(if left {
                    "the search stopped at a store leaving the int window (int_bound): no violation met before it, not a proof"
                } else {
                    "the search stopped at a range error: no answer"
                }));
                if !range_known && !report.results.iter().any(|x| x.prop == id) {
                    report.results.push(PropResult {
                        size: n,
                        prop: id,
                        name: id.name(model),
                        verdict: Verdict::violated(t),
                    });
                }
                verdict = v;
                break;
            }
            match r.verdict {
                NdfsVerdict::Violated => {
                    verdict = match r.lasso {
                        Some(l) => Verdict::violated_by_lasso(l),
                        None => Verdict::Unknown,
                    };
                    break;
                }
                NdfsVerdict::Holds => {}
                NdfsVerdict::Unknown => verdict = Verdict::Unknown,
            }
            if r.limit.is_some() {
                verdict = Verdict::Unknown;
                break;
            }
        }
        report.results.push(PropResult {
            size: n,
            prop: PropId::Ltl(p.prop),
            name: model.ltls[p.prop].name.clone(),
            verdict,
        });
        if report.limit.is_some() {
            break;
        }
    }
    searches.dedup();
    report.stats.search = Some(searches.join(","));
    report.stats.complete = Some(report.limit.is_none());
    report
}

/// Adds one nested search's figures to a size's report.
fn add_stats(report: &mut SizeReport, r: &NdfsResult, searches: &mut Vec<String>) {
    let s = &mut report.stats;
    *s.states.get_or_insert(0) += r.stats.states;
    *s.transitions.get_or_insert(0) += r.stats.transitions;
    s.max_depth = s.max_depth.max(Some(r.stats.max_depth));
    s.bytes = s.bytes.max(Some(r.stats.bytes));
    report.seconds += r.stats.seconds;
    report.symmetry |= r.symmetry;
    report.limit = report.limit.or(r.limit);
    for e in &r.internal_errors {
        report
            .internal_errors
            .push(format!("a lasso failed to replay: {e}"));
    }
    searches.push(r.algorithm.name().to_string());
}

impl Engine for ExplicitEngine {
    fn name(&self) -> &'static str {
        "explicit"
    }

    fn presentation(&self, p: &Problem) -> Presentation {
        // The partial-symmetry search stores states as they are (no dead cells).
        let partial = self.partial_symmetry
            && self.symmetry
            && self.distributed.is_none()
            && crate::explicit::reach::partial::applies_to_model(p.model, self.store);
        Presentation {
            symmetry: if partial {
                "partial symmetry reduction"
            } else {
                "reduction"
            },
            data_symmetry: Some(""),
            count: "states",
            size_by_size: true,
            dead_cells: self.dead_cells && !partial,
            ranks_ints: true,
            lemma_orbits: None,
        }
    }

    fn answers(&self) -> crate::engine::Answers {
        crate::engine::Answers::BOTH
    }

    fn describe(&self, p: &Problem) -> String {
        let mut parts = Vec::new();
        if !p.props.is_empty() || p.ltls.is_empty() || self.deadlock {
            parts.push(match self.store {
                StoreKind::Exact => "explicit breadth-first search (exhaustive)".to_string(),
                StoreKind::Tree => {
                    "explicit breadth-first search (exhaustive, tree-compressed store)".to_string()
                }
                StoreKind::HashCompact => {
                    "explicit breadth-first search (partial: hash compaction, may miss states)"
                        .to_string()
                }
                StoreKind::Bitstate { log_bits } => format!(
                    "explicit breadth-first search (partial: bitstate, 2^{log_bits} bits, may miss states)"
                ),
            });
        }
        if !p.ltls.is_empty() {
            parts.push(live_text(p, self.live_threads));
        }
        if let Some(c) = &self.distributed {
            parts.push(format!(
                "distributed on timely dataflow: {} process(es) x {} worker(s)",
                c.processes, c.workers
            ));
        }
        parts.join("; ")
    }

    fn check(&self, p: &Problem, ctl: &Control, report: Report) -> Checked {
        let opts = ReachOptions {
            symmetry: self.symmetry,
            dead_cells: self.dead_cells,
            deadlock: self.deadlock,
            props: Some(p.props.clone()),
            max_states: self.max_states,
            max_memory: ctl.max_memory,
            deadline: ctl.deadline,
            stop: ctl.stop.clone(),
            progress: ctl.progress,
            coverage: true,
            threads: ctl.threads,
            store: self.store,
            rank_ints: self.rank_ints,
            partial_symmetry: self.partial_symmetry,
        };
        let safety = !p.props.is_empty() || p.ltls.is_empty() || self.deadlock;
        let live = prepare(p.model, &p.ltls)?;
        if self.distributed.is_some() && !live.is_empty() {
            return Err("--distributed checks `unsafe` and `invariant` properties only".into());
        }
        let live_opts = self.live_options(p, ctl);
        let mut notes = Vec::new();
        let stopped = |limit: Option<Limit>, notes: &mut Vec<String>| Outcome {
            limit,
            notes: std::mem::take(notes),
            ..Outcome::default()
        };
        for n in p.sizes() {
            if safety {
                let r = match &self.distributed {
                    Some(c) => reach::dist::check_size(p.model, n, &opts, c)?,
                    None => reach::check_size(p.model, n, &opts),
                };
                if let Some(e) = r.rank_error {
                    return Err(e);
                }
                let r: SizeReport = r.into();
                let limit = r.limit;
                if let Some(note) = omission_note(self.store, &r) {
                    notes.push(note);
                }
                if let (Some(b), Some(s)) = (r.stats.store_bytes, r.stats.states) {
                    notes.push(format!(
                        "size {n}: the tree store holds {s} states in {:.1} MiB (roots and node tables; states of at most 64 bits as they are), {:.1} bytes a state",
                        b as f64 / (1 << 20) as f64,
                        b as f64 / s.max(1) as f64
                    ));
                }
                report(r);
                if limit.is_some() {
                    return Ok(stopped(limit, &mut notes));
                }
            }
            if !live.is_empty() {
                let r = liveness_size(p.model, n, &live, &live_opts, safety, &mut notes);
                let limit = r.limit;
                report(r);
                if limit.is_some() {
                    return Ok(stopped(limit, &mut notes));
                }
            }
        }
        Ok(stopped(None, &mut notes))
    }
}

/// The `ltl` search's part of an engine line: the search (the parallel one on
/// `threads` ≥ 2), the automata and the fairness.
pub fn live_text(p: &Problem, threads: usize) -> String {
    let autos: Vec<String> = p
        .ltls
        .iter()
        .map(|&k| {
            let states = LtlProperty::new(p.model, k)
                .map(|l| l.buchi.states.len())
                .unwrap_or(0);
            let plural = if states == 1 { "" } else { "s" };
            format!("¬{}: {states} state{plural}", p.model.ltls[k].name)
        })
        .collect();
    format!(
        "{} on the product with the Büchi automaton ({}){}",
        if threads >= 2 {
            format!(
                "parallel SCC search on {threads} threads (whole product stored, then its components)"
            )
        } else if p.fair {
            "fair SCC search".to_string()
        } else {
            "nested depth-first search".to_string()
        },
        autos.join(", "),
        if p.fair {
            "; weak fairness per process (exact with symmetry: the annotated quotient)"
        } else {
            "; no fairness"
        }
    )
}

/// The note under a size answered `none found*` by a store that may miss states: how
/// the states were stored and the probability that one was missed (`reach::StoreKind`).
fn omission_note(store: StoreKind, r: &SizeReport) -> Option<String> {
    let p = r.stats.omission_probability?;
    if !r
        .results
        .iter()
        .any(|x| x.verdict.kind() == crate::verdict::Kind::Incomplete)
    {
        return None;
    }
    let how = match store {
        StoreKind::Exact | StoreKind::Tree => return None,
        StoreKind::HashCompact => "hash compaction (64-bit signatures)".to_string(),
        StoreKind::Bitstate { log_bits } => format!(
            "bitstate hashing (2^{log_bits} bits, {} bits a state)",
            crate::explicit::store::BitArray::PROBES
        ),
    };
    Some(format!(
        "* size {}: no violation found by a partial search of {} states by {how}; the probability that it missed a reachable state is at most about {p:.1e} (see docs/engines.md): not a proof",
        r.size,
        r.stats.states.unwrap_or(0),
    ))
}
