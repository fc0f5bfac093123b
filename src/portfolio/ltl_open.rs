//! The (property, size) pairs of `nfold live`'s auto route (`portfolio::ltl_route`)
//! that no phase answered: their `unknown` rows, the run stopped by the user's limit,
//! and the notes saying why each size was left open. No pair is ever dropped.

use crate::cert::sizes_phrase;
use crate::engine::{Outcome, Problem};
use crate::verdict::{Limit, PropId, PropResult, SizeReport, Verdict};

/// The `ltl` properties (indices into `model.ltls`) left open at one size, each with
/// the depth up to which the bounded search found no lasso.
pub(super) type Open = Vec<(usize, Option<usize>)>;

/// The run stopped by the user's limit `l` before size `from`: every property of the
/// sizes from there on is reported `unknown`.
pub(super) fn stopped_at(
    p: &Problem,
    from: usize,
    l: Limit,
    notes: Vec<String>,
    report: &mut dyn FnMut(SizeReport),
) -> Outcome {
    let all: Open = p.ltls.iter().map(|&k| (k, None)).collect();
    for n in from..=p.max {
        report(unknown_rows(p, n, &all, Some(l)));
    }
    Outcome {
        limit: Some(l),
        notes,
        ..Outcome::default()
    }
}

/// The notes of phase 4: the sizes it answered (`beside`: by the search run beside
/// the SAT route), and each size left open, why, with the bounded search's depths.
pub(super) fn close_notes(
    m: &crate::model::ir::Model,
    searched: &[usize],
    beside: bool,
    left: &[(usize, String, Open)],
) -> Vec<String> {
    let mut notes = Vec::new();
    if !searched.is_empty() {
        notes.push(format!(
            "{} answered by explicit search without a time budget{}",
            sizes_phrase(searched),
            if beside {
                " (run beside the SAT route from its start)"
            } else {
                ""
            }
        ));
    }
    for (n, why, open) in left {
        let bounds: Vec<String> = open
            .iter()
            .filter_map(|&(k, d)| {
                let d = d?;
                Some(format!(
                    "no lasso of at most {d} steps for `{}`",
                    m.ltls[k].name
                ))
            })
            .collect();
        notes.push(format!(
            "size {n} left open: {why}{}",
            if bounds.is_empty() {
                String::new()
            } else {
                format!(" (bounded search: {})", bounds.join(", "))
            }
        ));
    }
    notes
}

/// The report of size `n` where no phase answered the `ltl` properties `open`.
pub(super) fn unknown_rows(
    p: &Problem,
    n: usize,
    open: &[(usize, Option<usize>)],
    limit: Option<Limit>,
) -> SizeReport {
    SizeReport {
        size: n,
        engine: "auto",
        results: open
            .iter()
            .map(|&(k, _)| PropResult {
                size: n,
                prop: PropId::Ltl(k),
                name: p.model.ltls[k].name.clone(),
                verdict: Verdict::Unknown,
            })
            .collect(),
        limit,
        ..SizeReport::default()
    }
}
