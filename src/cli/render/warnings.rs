//! What the exhaustive searches of a run say about dead code: transitions that never
//! fired, property conjuncts never true, formulas no state satisfies.

use super::Run;
use crate::cert::sizes_phrase;
use crate::model::ir::{Model, Unsafe};
use crate::schema::{
    ConjunctCoverage, CoverageDoc, PropertyCoverage, TransitionCoverage, WarningDoc,
};
use crate::verdict::{Coverage, Kind, PropId};

/// One warning about dead code: its text line and its JSON object.
pub(super) struct DeadCode {
    pub(super) text: String,
    pub(super) json: WarningDoc,
}

/// What the exhaustive searches of a run said about the model's text.
pub(super) struct DeadCodeReport {
    /// One per transition that never fired, then one per conjunct never true.
    pub(super) warnings: Vec<DeadCode>,
    /// Sizes where the conjuncts were not examined, and why.
    pub(super) notes: Vec<String>,
    /// The JSON `"coverage"` object (none when no size was searched exhaustively).
    pub(super) coverage: Option<CoverageDoc>,
}

/// A conjunct as written, on one line (its whitespace runs collapsed).
pub(super) fn conjunct_text(m: &Model, c: &crate::model::ir::Conjunct) -> String {
    let words: Vec<&str> = m.source.snippet(c.span).split_whitespace().collect();
    words.join(" ")
}

/// What the exhaustive searches of a run (explicit engine, alone or in `auto`) say
/// about dead code: transitions that never fired, and conjuncts of properties that hold
/// that were never true, each with its source line; a note for every size where the
/// conjuncts were not examined; and the whole coverage for `--json`. A transition is
/// reported when it has instances at some size searched exhaustively and fired at no
/// size searched (so a transition of three processes is not reported for sizes 1..2,
/// where it has no instance); a conjunct, when it was examined at some size, was true
/// at none, and its property is violated at none. Sizes searched only in part, or by
/// the SAT engines, say nothing (a transition may fire beyond what was seen).
pub(super) fn dead_code(run: &Run) -> DeadCodeReport {
    let m = run.model;
    let mut out = Vec::new();
    // Sizes without a state say nothing: nothing fired because nothing was reachable.
    let covered: Vec<(usize, &Coverage)> = run
        .reports
        .iter()
        .filter(|r| r.stats.states.is_some_and(|s| s > 0))
        .filter_map(|r| r.coverage.as_ref().map(|c| (r.size, c)))
        .collect();
    let exhaustive: Vec<usize> = covered
        .iter()
        .filter(|(_, c)| c.exhaustive)
        .map(|(n, _)| *n)
        .collect();
    let trans_json = transitions(m, &covered, &mut out);
    let props_json = (0..m.unsafes.len())
        .filter_map(|u| property(run, u, &covered, &mut out))
        .collect();
    let notes = run
        .reports
        .iter()
        .filter_map(|r| {
            let why = r.coverage.as_ref()?.skipped.as_ref()?;
            Some(format!(
                "size {}: the properties' conjuncts were not examined for ones never true: {why}",
                r.size
            ))
        })
        .collect();
    let coverage = (!exhaustive.is_empty()).then_some(CoverageDoc {
        exhaustive_sizes: exhaustive,
        transitions: trans_json,
        properties: props_json,
    });
    DeadCodeReport {
        warnings: out,
        notes,
        coverage,
    }
}

/// Every transition's coverage, and a warning for each that has instances at some size
/// searched exhaustively and fired at none.
fn transitions(
    m: &Model,
    covered: &[(usize, &Coverage)],
    out: &mut Vec<DeadCode>,
) -> Vec<TransitionCoverage> {
    let mut trans_json = Vec::new();
    for (t, tr) in m.transitions.iter().enumerate() {
        let sizes: Vec<usize> = covered
            .iter()
            .filter(|(_, c)| c.exhaustive && c.instances[t])
            .map(|(n, _)| *n)
            .collect();
        let fired_at: Vec<usize> = covered
            .iter()
            .filter(|(_, c)| c.exhaustive && c.fired[t])
            .map(|(n, _)| *n)
            .collect();
        let line = m.source.line_col(tr.span.lo).0;
        trans_json.push(TransitionCoverage {
            transition: tr.name.clone(),
            line,
            instances_at: sizes.clone(),
            fired_at,
        });
        if sizes.is_empty() || covered.iter().any(|(_, c)| c.fired[t]) {
            continue;
        }
        out.push(DeadCode {
            text: format!(
                "warning: transition `{}` (line {line}) never fired: not enabled in any reachable state ({})",
                tr.name,
                sizes_phrase(&sizes)
            ),
            json: WarningDoc {
                kind: "never_fired".into(),
                transition: Some(tr.name.clone()),
                property: None,
                property_kind: None,
                conjunct: None,
                line,
                sizes,
            },
        });
    }
    trans_json
}

/// The coverage of `unsafe` property `u` (none when no size examined it), and the
/// warnings for a property that holds: a formula no state satisfies, or conjuncts
/// never true in a reachable state.
fn property(
    run: &Run,
    u: usize,
    covered: &[(usize, &Coverage)],
    out: &mut Vec<DeadCode>,
) -> Option<PropertyCoverage> {
    let m = run.model;
    let prop = &m.unsafes[u];
    let violated = run.reports.iter().any(|r| {
        r.results
            .iter()
            .any(|p| p.prop == PropId::Unsafe(u) && p.verdict.kind() == Kind::Violated)
    });
    let Examined {
        sizes,
        true_at,
        sat_at,
        unsat_at,
    } = examined(u, prop.conjuncts.len(), covered);
    if sizes.is_empty() && sat_at.is_empty() && unsat_at.is_empty() {
        return None;
    }
    let at = m.source.line_col(prop.span.lo).0;
    let conj_json: Vec<ConjunctCoverage> = if sizes.is_empty() {
        Vec::new()
    } else {
        prop.conjuncts
            .iter()
            .zip(&true_at)
            .map(|(c, at)| ConjunctCoverage {
                conjunct: conjunct_text(m, c),
                line: m.source.line_col(c.span.lo).0,
                true_at: at.clone(),
            })
            .collect()
    };
    let doc = PropertyCoverage {
        property: prop.name.clone(),
        kind: prop.kind.keyword().into(),
        line: at,
        satisfiable_at: sat_at.clone(),
        unsatisfiable_at: unsat_at.clone(),
        examined_at: sizes.clone(),
        conjuncts: conj_json,
    };
    if violated {
        return Some(doc);
    }
    // A formula no state satisfies at all, at every size where that was decided:
    // one warning, which says more than its conjuncts would.
    if sat_at.is_empty() && !unsat_at.is_empty() {
        out.push(DeadCode {
            text: format!(
                "warning: {} (line {at}): no state at all satisfies its formula ({}), reachable or not: the property holds vacuously",
                prop.quoted(),
                sizes_phrase(&unsat_at)
            ),
            json: WarningDoc {
                kind: "unsatisfiable".into(),
                transition: None,
                property: Some(prop.name.clone()),
                property_kind: Some(prop.kind.keyword().into()),
                conjunct: None,
                line: at,
                sizes: unsat_at,
            },
        });
        return Some(doc);
    }
    if sizes.is_empty() {
        return Some(doc);
    }
    never_true(m, prop, at, &true_at, &sizes, out);
    Some(doc)
}

/// Where the exhaustive searches examined `unsafe` property `u`.
struct Examined {
    /// The sizes where its conjuncts were examined.
    sizes: Vec<usize>,
    /// For each conjunct, the sizes where it was true in some reachable state.
    true_at: Vec<Vec<usize>>,
    /// The sizes where its formula was found satisfiable.
    sat_at: Vec<usize>,
    /// The sizes where its formula was found unsatisfiable.
    unsat_at: Vec<usize>,
}

/// Gathers what the sizes in `covered` saw of property `u`, which has `conjuncts` conjuncts.
fn examined(u: usize, conjuncts: usize, covered: &[(usize, &Coverage)]) -> Examined {
    let mut sizes = Vec::new();
    let mut true_at = vec![Vec::new(); conjuncts];
    let (mut sat_at, mut unsat_at) = (Vec::new(), Vec::new());
    for (n, c) in covered {
        for (_, flags) in c.conjuncts.iter().filter(|(p, _)| *p == u) {
            sizes.push(*n);
            for (at, &f) in true_at.iter_mut().zip(flags) {
                if f {
                    at.push(*n);
                }
            }
        }
        for &(_, sat) in c.satisfiable.iter().filter(|(p, _)| *p == u) {
            if sat {
                sat_at.push(*n);
            } else {
                unsat_at.push(*n);
            }
        }
    }
    Examined {
        sizes,
        true_at,
        sat_at,
        unsat_at,
    }
}

/// A warning for each conjunct of `prop` (written at line `at`) never true at `sizes`.
fn never_true(
    m: &Model,
    prop: &Unsafe,
    at: usize,
    true_at: &[Vec<usize>],
    sizes: &[usize],
    out: &mut Vec<DeadCode>,
) {
    for (conj, _) in prop
        .conjuncts
        .iter()
        .zip(true_at)
        .filter(|(_, at)| at.is_empty())
    {
        let line = m.source.line_col(conj.span.lo).0;
        let text = conjunct_text(m, conj);
        let elsewhere = if line == at {
            String::new()
        } else {
            format!(" at line {line}")
        };
        out.push(DeadCode {
            text: format!(
                "warning: {} (line {at}): the conjunct `{text}`{elsewhere} is never true in a reachable state ({}): the property holds vacuously",
                prop.quoted(),
                sizes_phrase(sizes)
            ),
            json: WarningDoc {
                kind: "never_true".into(),
                transition: None,
                property: Some(prop.name.clone()),
                property_kind: Some(prop.kind.keyword().into()),
                conjunct: Some(text),
                line,
                sizes: sizes.to_vec(),
            },
        });
    }
}
