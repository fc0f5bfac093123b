//! The `--json` document of `check` and `live` (`schema::CheckDoc`).

use super::warnings::dead_code;
use super::{Run, kind_name};
use crate::limits::peak_memory;
use crate::model::ir::Model;
use crate::run::AssumedRun;
use crate::schema::{
    AssumingDoc, CheckDoc, IntWindowDoc, PictureRow, ProofDoc, Row, SCHEMA_VERSION, Tool,
};
use crate::trace;
use crate::verdict::{Counterexample, Proof, PropResult, SizeReport, Verdict};

/// The `--json` document.
pub fn json(run: &Run) -> CheckDoc {
    let mut results = Vec::new();
    for r in &run.reports {
        for p in &r.results {
            results.push(row(run.model, r, p));
        }
    }
    let dead = dead_code(run);
    CheckDoc {
        schema: SCHEMA_VERSION,
        tool: Tool::this(),
        model: run.model.source.name.clone(),
        command: std::env::args().collect(),
        engine: run.engine.into(),
        engine_text: run.engine_text.clone(),
        symmetry_use: super::table::symmetry_line(run),
        symmetric: run.model.is_symmetric(),
        symmetry: run.model.symmetry_summary(),
        fair: run.fair,
        sizes: run.sizes.clone(),
        results,
        limit: run.limit.map(|l| l.text().into()),
        seconds: run.seconds,
        peak_memory_bytes: peak_memory(),
        exit_code: Some(crate::run::exit_code(run)),
        summary: Some(super::footer::summary(run).trim().to_string()),
        dead_cells: run.dead_cells.clone(),
        reduced: run.reduced.clone(),
        notes: run.notes.iter().chain(&dead.notes).cloned().collect(),
        warnings: dead.warnings.into_iter().map(|d| d.json).collect(),
        coverage: dead.coverage,
        int_window: int_window_doc(run.model),
        every_n: run
            .every
            .as_ref()
            .map(|e| super::every::every_doc(run.model, e)),
        assuming: run.assumed.as_ref().map(|a| assuming_doc(run, a)),
        certificate: (!run.certificates.is_empty())
            .then(|| run.certificates.iter().map(|c| c.to_text()).collect()),
        bound: run.reports.first().and_then(|r| r.stats.bound),
        mode: if run.per_width {
            "per-width"
        } else if run.aggregate {
            "aggregate"
        } else {
            "one-by-one"
        }
        .into(),
        picture: super::footer::picture_rows(run)
            .into_iter()
            .map(|(size, slots)| PictureRow { size, slots })
            .collect(),
        process_arrays: process_arrays(run.model),
    }
}

/// The arrays indexed by processes and the position of their first `proc` index (the
/// owner of a cell, as `trace::render_run_table` reads it).
fn process_arrays(m: &Model) -> std::collections::BTreeMap<String, usize> {
    m.vars
        .iter()
        .filter_map(|v| {
            v.dims
                .iter()
                .position(|t| *t == crate::model::ir::Ty::Proc)
                .map(|k| (v.name.clone(), k))
        })
        .collect()
}

/// One row of the `--json` document.
pub(super) fn row(m: &Model, r: &SizeReport, p: &PropResult) -> Row {
    let trace = match p.verdict.counterexample() {
        // Every trace was replayed before it was reported; one that no longer replays
        // on the model printed has no document rather than a made-up one.
        Some(Counterexample::Trace(t)) => t.replay(m).ok().map(|s| trace::to_doc(m, t, &s)),
        Some(Counterexample::Lasso(l)) => l.replay(m).ok().map(|s| crate::lasso::to_doc(m, l, &s)),
        None => None,
    };
    let proof = match &p.verdict {
        Verdict::Holds(Proof::Exhaustive) => Some(ProofDoc {
            how: "exhaustive search".into(),
            engine: None,
            lemmas: None,
            induction: None,
        }),
        Verdict::Holds(Proof::Invariant {
            engine,
            certificate,
        }) => Some(ProofDoc {
            how: if certificate.ranking().is_some() {
                "ranking over an inductive invariant, checked".into()
            } else {
                "inductive invariant, checked".into()
            },
            engine: Some(engine.to_string()),
            lemmas: Some(certificate.lemmas.len()),
            induction: Some(certificate.induction()),
        }),
        _ => None,
    };
    let (int_window, within) = match &p.verdict {
        Verdict::WithinInts { lo, hi, within } => {
            (Some((*lo, *hi)), Some(within.json_name().to_string()))
        }
        _ => (None, None),
    };
    let mut stats = r.stats.clone();
    if let Some(k) = p.verdict.bound() {
        stats.bound = Some(k);
    }
    Row {
        size: r.size,
        property: p.name.clone(),
        kind: kind_name(m, p).into(),
        verdict: p.verdict.json_name().into(),
        depth: p.depth(),
        seconds: r.seconds,
        shared_time: r.shared_time,
        answered_depth: r.answered_depth,
        not_run: r.not_run,
        shown_at: r.shown_at.map(|t| (t * 1e4).round() / 1e4),
        trace,
        process: p.verdict.lasso().and_then(|l| l.process),
        fair: p.verdict.lasso().map(|l| l.fair),
        proof,
        int_window,
        within,
        engine: r.engine.into(),
        symmetry: r.symmetry,
        stats,
        internal_errors: r.internal_errors.clone(),
    }
}

/// The int window as JSON: `{"lo", "hi", "given": bool, "free": [names]}` (the
/// variables whose initial values range over it), or `None` without ints.
pub fn int_window_doc(m: &Model) -> Option<IntWindowDoc> {
    let w = m.int_window.as_ref()?;
    Some(IntWindowDoc {
        lo: w.lo,
        hi: w.hi,
        given: w.given,
        widened_from: w.widened_from.map(|(lo, hi)| [lo, hi]),
        free: w.free.iter().map(|&v| m.vars[v].name.clone()).collect(),
    })
}

/// The assumed pass as JSON.
pub(super) fn assuming_doc(run: &Run, a: &AssumedRun) -> AssumingDoc {
    let _ = run;
    let results = match &a.model {
        Some(m) => a
            .reports
            .iter()
            .flat_map(|r| {
                r.results
                    .iter()
                    .map(|p: &PropResult| row(m, r, p))
                    .collect::<Vec<_>>()
            })
            .collect(),
        None => Vec::new(),
    };
    AssumingDoc {
        invariants: a.invariants.clone(),
        results,
        every_n: match (&a.model, &a.every) {
            (Some(m), Some(e)) => Some(super::every::every_doc(m, e)),
            _ => None,
        },
        limit: a.limit.map(|l| l.text().into()),
        refused: a.refused.clone(),
        notes: a.notes.clone(),
        seconds: a.seconds,
    }
}
