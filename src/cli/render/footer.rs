//! Everything after the table: counterexamples (traces and lassos), the aggregate's
//! picture of the failing sizes, the certificate, notes, limits, the answer for every
//! n, one line per `ltl` property and the summary.

use super::info::type_text;
use super::warnings::{DeadCode, dead_code};
use super::{Run, label, real_violation};
use crate::cert::{sizes_phrase, sizes_text};
use crate::cli::traces::TraceFormat;
use crate::limits::peak_memory;
use crate::model::instance::Instance;
use crate::trace;
use crate::verdict::{Kind, Proof, PropId, Verdict};

/// Traces, limits and the summary after the table.
pub fn footer(run: &Run, format: TraceFormat) -> String {
    let mut out = String::new();
    let dead = dead_code(run);
    out.push_str(&opening_warnings(run, &dead.warnings));
    out.push_str(&counterexamples(run, format));
    let ltl_violated = run
        .reports
        .iter()
        .any(|r| r.results.iter().any(|p| p.verdict.lasso().is_some()));
    if run.aggregate || (ltl_violated && run.sizes.len() > 1) {
        out.push_str(&picture(run));
    }
    out.push_str(&certificate_lines(run));
    for n in run.notes.iter().chain(&dead.notes) {
        out.push_str(&format!("note: {n}\n"));
    }
    if let Some(e) = &run.every {
        out.push_str(&super::every::every_lines(run.model, &run.sizes, e));
    }
    if let Some(a) = &run.assumed {
        out.push_str(&super::every::assumed_text(run, a));
    }
    if let Some(l) = run.limit {
        out.push_str(&limit_lines(run, l));
    }
    out.push_str(&ltl_lines(run));
    out.push_str(&format!(
        "\n{}; {:.2}s{}\n",
        summary(run),
        run.seconds,
        peak_memory()
            .map(|b| format!(", peak memory {:.1} MiB", b as f64 / (1 << 20) as f64))
            .unwrap_or_default()
    ));
    out
}

/// The warnings before the counterexamples: dead code, incomplete searches, shared
/// times and vacuous sizes.
fn opening_warnings(run: &Run, dead: &[DeadCode]) -> String {
    let mut out = String::new();
    if !dead.is_empty() {
        out.push('\n');
        for d in dead {
            out.push_str(&d.text);
            out.push('\n');
        }
    }
    if run.reports.iter().any(|r| {
        r.results
            .iter()
            .any(|p| p.verdict.kind() == Kind::Incomplete)
    }) {
        out.push_str(
            "\n* none found: the search that answered may miss a violation; not a proof (see the notes)\n",
        );
    }
    for (sizes, seconds) in super::table::shared_groups(&run.reports) {
        out.push_str(&if sizes.len() > 1 {
            format!(
                "\ntime: {} were answered together by one run ({seconds:.2}s): its time is on the first of their rows, `{}` on the others\n",
                sizes_phrase(&sizes),
                super::table::SAME_RUN
            )
        } else {
            format!(
                "\ntime: the time of {} includes a run shared with other sizes\n",
                sizes_phrase(&sizes)
            )
        });
    }
    let vacuous: Vec<usize> = run
        .reports
        .iter()
        .filter(|r| r.results.iter().any(|p| p.verdict.kind() == Kind::Vacuous))
        .map(|r| r.size)
        .collect();
    // A size without states at all (a type empty there) is told apart from one whose
    // init formula is unsatisfiable.
    let mut unsat = Vec::new();
    for &n in &vacuous {
        let inst = Instance::new(run.model, n);
        match inst.empty_typed_var() {
            Some(v) => {
                let var = &run.model.vars[v];
                out.push_str(&format!(
                    "\nwarning: no state at size {n}: the type `{}` of `{}` is empty at that size: nothing was checked, the answer is vacuous\n",
                    type_text(run.model, var.ty),
                    var.name
                ));
            }
            None => unsat.push(n),
        }
    }
    if !unsat.is_empty() {
        out.push_str(&format!(
            "\nwarning: no initial state at {} (the init formula is unsatisfiable there): nothing was checked, the answer is vacuous\n",
            sizes_phrase(&unsat)
        ));
    }
    out
}

/// One line per certificate that proves a row (ranking proofs: one per property).
fn certificate_lines(run: &Run) -> String {
    let mut out = String::new();
    // The sizes where a certificate proves a row.
    let proved_by = |c: &std::sync::Arc<crate::cert::Certificate>| -> Vec<usize> {
        run.reports
            .iter()
            .filter(|r| {
                r.results.iter().any(|p| {
                    matches!(&p.verdict, Verdict::Holds(Proof::Invariant { certificate, .. })
                        if std::sync::Arc::ptr_eq(certificate, c))
                })
            })
            .map(|r| r.size)
            .collect()
    };
    // Ranking proofs come one per size: one line per property for all of them.
    let mut ranked: Vec<(String, Vec<usize>)> = Vec::new();
    for c in run.certificates.iter().filter(|c| c.ranking().is_some()) {
        let name = c.liveness.as_ref().map_or(String::new(), |l| l.0.clone());
        let sizes = proved_by(c);
        match ranked.iter_mut().find(|r| r.0 == name) {
            Some(r) => r.1.extend(sizes),
            None => ranked.push((name, sizes)),
        }
    }
    for (name, mut sizes) in ranked.into_iter().filter(|r| !r.1.is_empty()) {
        sizes.sort_unstable();
        out.push_str(&format!(
            "\n`{name}`: proved at {} by ranking proofs (rank: per size, phases of the property's process ordered towards the response, the other processes' weights falling within a phase, over an inductive invariant of the model), checked at every size on its own instance\n",
            sizes_phrase(&sizes)
        ));
    }
    for c in run.certificates.iter().filter(|c| c.ranking().is_none()) {
        let proved = proved_by(c);
        if !proved.is_empty() {
            out.push_str(&format!(
                "\n{}proved at {} by an inductive invariant of {}{} ({}{}), checked at every size on its own instance\n",
                match &c.liveness {
                    Some((name, _)) => format!("`{name}`: "),
                    None => String::new(),
                },
                sizes_phrase(&proved),
                if c.lemmas.len() == 1 {
                    "1 lemma".to_string()
                } else {
                    format!("{} lemmas", c.lemmas.len())
                },
                match (&c.liveness, c.klive) {
                    (Some(_), Some(k)) => format!(" of its k-liveness product (k = {k})"),
                    (Some(_), None) => " of its liveness-to-safety product".to_string(),
                    _ => String::new(),
                },
                c.engine,
                if c.induction() > 1 {
                    format!(", {}-inductive", c.induction())
                } else {
                    String::new()
                }
            ));
        }
    }
    out
}

/// Where the run stopped on limit `l`, which sizes it answered and which it never ran.
fn limit_lines(run: &Run, l: crate::verdict::Limit) -> String {
    let mut out = String::new();
    // The pairs left `unknown`, read from every row: a size may have several reports
    // (the default's phases hand on a range error's row apart from the property's).
    let left = unanswered(
        run.reports
            .iter()
            .flat_map(|r| &r.results)
            .filter(|p| p.verdict.kind() == Kind::Unknown)
            .map(|p| (p.name.as_str(), p.size)),
    );
    let first_limited = run.reports.iter().find(|r| r.limit.is_some());
    let at = if let (true, Some(r)) = (run.per_width, first_limited) {
        format!("at size {} (sizes checked width by width)", r.size)
    } else if run.aggregate || !run.presentation.size_by_size && run.sizes.len() > 1 {
        "in the run over all sizes".to_string()
    } else {
        format!(
            "at size {}",
            run.reports
                .iter()
                .rev()
                .find(|r| !r.not_run)
                .map(|r| r.size)
                .unwrap_or(0)
        )
    };
    out.push_str(&format!(
        "\nstopped: {} {at}; unanswered: {left}\n",
        l.text()
    ));
    if l == crate::verdict::Limit::Memory {
        // The explicit searches count what they store; the summary's peak is the
        // process's.
        out.push_str(
            "note: --max-memory bounds what an explicit search stores (its tables and stacks) and, for the other engines, the whole process's resident memory; the peak memory below is the process's (the program, buffers and allocator slack too) and can be above the limit\n",
        );
    }
    for r in run.reports.iter().filter(|r| r.limit.is_some()) {
        if let Some(d) = r.answered_depth {
            out.push_str(&format!(
                "size {}: every run of up to {d} steps was examined before the limit\n",
                r.size
            ));
        }
    }
    let skipped: Vec<usize> = run
        .sizes
        .iter()
        .copied()
        .filter(|n| !run.reports.iter().any(|r| r.size == *n && !r.not_run))
        .collect();
    if !skipped.is_empty() {
        out.push_str(&format!(
            "not run: {} (their rows are `unknown`)\n",
            sizes_phrase(&skipped)
        ));
    }
    out
}

/// The (property, size) pairs `rows` as `P: 3..6; Q: 1, 4..6`: each property once, in
/// the order it first comes, its sizes sorted and merged (`none` when there is none).
fn unanswered<'a>(rows: impl Iterator<Item = (&'a str, usize)>) -> String {
    let mut props: Vec<(&str, Vec<usize>)> = Vec::new();
    for (name, n) in rows {
        match props.iter_mut().find(|(p, _)| *p == name) {
            Some((_, sizes)) => sizes.push(n),
            None => props.push((name, vec![n])),
        }
    }
    if props.is_empty() {
        return "none".into();
    }
    let parts: Vec<String> = props
        .into_iter()
        .map(|(name, mut sizes)| {
            sizes.sort_unstable();
            sizes.dedup();
            format!("{name}: {}", sizes_text(&sizes))
        })
        .collect();
    parts.join("; ")
}

/// A lasso after the table: what it violates, its length, and its steps.
fn lasso_text(run: &Run, l: &crate::lasso::Lasso, format: TraceFormat) -> String {
    let states = l.replay(run.model).unwrap_or_default();
    let mut out = format!(
        "\nsize {}: {} violated by a {}lasso of {}, cycle of {} (replayed on the interpreter{}):\n",
        l.size,
        crate::lasso::property_text(run.model, l.prop, l.process),
        if l.fair { "weakly fair " } else { "" },
        steps(l.steps.len()),
        if l.is_deadlock() {
            "a deadlock".to_string()
        } else {
            steps(l.steps.len() - l.loop_start)
        },
        if l.fair { ", fairness checked" } else { "" }
    );
    if !states.is_empty() {
        out.push_str(&crate::cli::traces::render_lasso(
            run.model, l, &states, format,
        ));
    }
    out
}

/// One line per `ltl` property: its answers by size, violations first (the fairness
/// named), so that a run over several properties reads per property.
pub(super) fn ltl_lines(run: &Run) -> String {
    let mut out = String::new();
    // With an `ltl` property in the run, every property asked gets its line (the
    // safety ones and `deadlock-free` beside the `ltl` ones).
    let mut props: Vec<(PropId, String)> = Vec::new();
    for r in &run.reports {
        for p in &r.results {
            if !props.iter().any(|(q, _)| *q == p.prop) {
                props.push((p.prop, label(run.model, p)));
            }
        }
    }
    if !props.iter().any(|(q, _)| matches!(q, PropId::Ltl(_))) {
        return out;
    }
    out.push('\n');
    for (id, name) in props {
        let rows: Vec<(usize, &Verdict)> = run
            .reports
            .iter()
            .flat_map(|r| r.results.iter().map(move |p| (r.size, p)))
            .filter(|(_, p)| p.prop == id)
            .map(|(n, p)| (n, &p.verdict))
            .collect();
        let at = |f: &dyn Fn(Kind) -> bool| -> Vec<usize> {
            rows.iter()
                .filter(|(_, v)| f(v.kind()))
                .map(|(n, _)| *n)
                .collect()
        };
        let mut parts = Vec::new();
        for (what, sizes) in [
            ("violated", at(&|k| k == Kind::Violated)),
            ("holds", at(&|k| k == Kind::Holds)),
            (
                "no violation up to the bound",
                at(&|k| matches!(k, Kind::NoViolationUpTo(_))),
            ),
            (
                "no violation found (incomplete: not a proof)",
                at(&|k| k == Kind::Incomplete),
            ),
            ("vacuous", at(&|k| k == Kind::Vacuous)),
            ("unknown", at(&|k| k == Kind::Unknown)),
        ] {
            if !sizes.is_empty() {
                parts.push(format!("{what} at {}", sizes_phrase(&sizes)));
            }
        }
        out.push_str(&format!(
            "{name}{}: {}\n",
            if run.fair == Some(true) && matches!(id, PropId::Ltl(_)) {
                " (weak fairness)"
            } else {
                ""
            },
            parts.join("; ")
        ));
    }
    out
}

/// The depth every bounded row reached, from the rows (not a report's statistics: a
/// phase that ran no bounded search leaves those at 0): `10`, or `10 or more`.
fn bounded_depth<'a>(rows: impl Iterator<Item = &'a crate::verdict::PropResult>) -> String {
    let depths: Vec<usize> = rows
        .filter_map(|p| match p.verdict.kind() {
            Kind::NoViolationUpTo(k) => Some(k),
            _ => None,
        })
        .collect();
    match (depths.iter().min(), depths.iter().max()) {
        (Some(lo), Some(hi)) if lo < hi => format!("{lo} or more"),
        (Some(lo), _) => lo.to_string(),
        _ => "0".into(),
    }
}

/// The last line: the sizes by kind of answer, violations first.
pub(super) fn summary(run: &Run) -> String {
    // Every answer of each size: a size may have several reports (the safety and the
    // `ltl` routes of `check --ltl`), and is listed once per kind.
    let mut by_size: std::collections::BTreeMap<usize, Vec<&crate::verdict::PropResult>> =
        Default::default();
    for r in &run.reports {
        by_size.entry(r.size).or_default().extend(&r.results);
    }
    let sizes_with = |f: &dyn Fn(&[&crate::verdict::PropResult]) -> bool| -> Vec<usize> {
        by_size
            .iter()
            .filter(|(_, ps)| f(ps))
            .map(|(&n, _)| n)
            .collect()
    };
    let sizes_where = |f: &dyn Fn(Kind) -> bool| -> Vec<usize> {
        sizes_with(&|ps| ps.iter().any(|p| f(p.verdict.kind())))
    };
    let violated = sizes_with(&|ps| ps.iter().any(|p| real_violation(p)));
    let mut parts = Vec::new();
    if !violated.is_empty() {
        parts.push(if violated.len() == 1 {
            format!("violation at size {}", violated[0])
        } else {
            format!("violations at sizes {}", sizes_text(&violated))
        });
    }
    // Sizes where every answer is a proof.
    let proved =
        sizes_with(&|ps| !ps.is_empty() && ps.iter().all(|p| p.verdict.kind() == Kind::Holds));
    if !proved.is_empty() {
        parts.push(format!("holds at {}", sizes_phrase(&proved)));
    }
    let bounded = sizes_where(&|k| matches!(k, Kind::NoViolationUpTo(_)));
    if !bounded.is_empty() {
        let k = bounded_depth(by_size.values().flatten().copied());
        parts.push(format!(
            "no violation up to depth {k} at {} (bounded: not a proof)",
            sizes_phrase(&bounded)
        ));
    }
    let within = sizes_where(&|k| matches!(k, Kind::WithinInts(_)));
    if !within.is_empty() {
        let w = run
            .model
            .int_window
            .as_ref()
            .map(|w| w.text())
            .unwrap_or_default();
        parts.push(format!(
            "no violation within ints {w} at {}, where some run leaves the window (int_bound: not a proof)",
            sizes_phrase(&within)
        ));
    }
    let incomplete = sizes_where(&|k| k == Kind::Incomplete);
    if !incomplete.is_empty() {
        parts.push(format!(
            "no violation found at {} (incomplete: not a proof)",
            sizes_phrase(&incomplete)
        ));
    }
    let vacuous = sizes_where(&|k| k == Kind::Vacuous);
    if !vacuous.is_empty() {
        parts.push(format!("vacuous at {}", sizes_phrase(&vacuous)));
    }
    let unknown = sizes_where(&|k| k == Kind::Unknown);
    if !unknown.is_empty() {
        parts.push(format!("unknown at {}", sizes_phrase(&unknown)));
    }
    if let Some(p) = run
        .every
        .as_ref()
        .and_then(|e| super::every::summary_part(run.model, e))
    {
        parts.push(p);
    }
    if let Some(p) = run.assumed.as_ref().and_then(|a| {
        let m = a.model.as_ref()?;
        super::every::summary_part(m, a.every.as_ref()?)
    }) {
        parts.push(p);
    }
    if parts.is_empty() {
        "no property checked".to_string()
    } else {
        parts.join("; ")
    }
}

/// The failing sizes as rows of the aggregate: `-` a present process, `$` an absent one
/// (T. Wahl, *Exploiting Replication in Automated Program Verification*, PhD thesis,
/// UT Austin 2007, §11.6).
pub(super) fn picture(run: &Run) -> String {
    let rows = picture_rows(run);
    if rows.is_empty() {
        return String::new();
    }
    let max = run.sizes.iter().copied().max().unwrap_or(0);
    let width = rows
        .iter()
        .flat_map(|(_, cells)| cells.iter().map(|c| c.chars().count()))
        .max()
        .unwrap_or(1);
    let lassos = rows
        .iter()
        .any(|(_, c)| c.iter().any(|x| x != "-" && x != "$"));
    let mut out = format!(
        "\nsizes with a violation, as states of the aggregate of {max} slots ({}, $ absent):\n",
        if lassos {
            "a present slot shows its process's cells in the initial state of the lasso"
        } else {
            "- present"
        }
    );
    for (w, cells) in rows {
        let cells: Vec<String> = cells.iter().map(|c| format!("{c:>width$}")).collect();
        out.push_str(&format!("    {}    size {w}\n", cells.join("  ")));
    }
    out
}

/// The picture's rows: for each size with a violation, one entry per slot of the
/// aggregate: `$` for an absent slot; for a violation of an `ltl` property, the process's
/// cells in the lasso's initial state (T. Wahl's thesis §11.6 draws the initial states
/// that violate `AF sorted` so); else `-`.
pub(super) fn picture_rows(run: &Run) -> Vec<(usize, Vec<String>)> {
    let max = run.sizes.iter().copied().max().unwrap_or(0);
    let mut rows: Vec<(usize, Vec<String>)> = Vec::new();
    for r in &run.reports {
        let Some(p) = r.results.iter().find(|p| real_violation(p)) else {
            continue;
        };
        if rows.iter().any(|(w, _)| *w == r.size) {
            continue;
        }
        let cells = match p.verdict.lasso() {
            Some(l) => crate::live::picture(run.model, l, max),
            None => (1..=max)
                .map(|q| if q <= r.size { "-" } else { "$" }.to_string())
                .collect(),
        };
        rows.push((r.size, cells));
    }
    rows.sort_by_key(|(w, _)| *w);
    rows
}

/// Each counterexample once, in size order: a later size whose trace (or lasso) takes
/// the same steps to the same violation refers to the first, and those references
/// are one line per first size and property (`sizes 4..8: ... by the same steps as
/// size 3`). A property violated in an initial state gets a hint about the sense of
/// `unsafe` and `invariant` blocks.
fn counterexamples(run: &Run, format: TraceFormat) -> String {
    let mut out = String::new();
    let mut traces: Vec<(&trace::Trace, usize)> = Vec::new();
    let mut lassos: Vec<(&crate::lasso::Lasso, usize)> = Vec::new();
    // (first size, the reference without its sizes, the sizes that refer to it)
    let mut same: Vec<(usize, String, Vec<usize>)> = Vec::new();
    let mut refer = |first: usize, what: String, size: usize| match same
        .iter_mut()
        .find(|(f, w, _)| *f == first && *w == what)
    {
        Some((.., sizes)) => sizes.push(size),
        None => same.push((first, what, vec![size])),
    };
    let mut at_start = Vec::new();
    for r in &run.reports {
        for p in &r.results {
            if let Some(l) = p.verdict.lasso() {
                let twin = lassos.iter().find(|(k, _)| {
                    (k.prop, k.process, &k.steps, k.loop_start, k.fair)
                        == (l.prop, l.process, &l.steps, l.loop_start, l.fair)
                });
                match twin {
                    Some(&(_, first)) => refer(
                        first,
                        format!(
                            "{} violated by the same {}lasso as size {first}",
                            crate::lasso::property_text(run.model, l.prop, l.process),
                            if l.fair { "weakly fair " } else { "" },
                        ),
                        r.size,
                    ),
                    None => {
                        out.push_str(&lasso_text(run, l, format));
                        lassos.push((l, r.size));
                    }
                }
                continue;
            }
            let Some(t) = p.trace() else { continue };
            if let Some(&(_, first)) = traces
                .iter()
                .find(|(s, _)| s.steps == t.steps && s.violation == t.violation)
            {
                let what = if p.prop == PropId::IntBound {
                    format!(
                        "a run leaves the int window after {} steps by the same steps as size {first} (int_bound",
                        t.depth()
                    )
                } else {
                    format!(
                        "`{}` violated at depth {} by the same steps as size {first}",
                        label(run.model, p),
                        t.depth()
                    )
                };
                refer(first, what, r.size);
                continue;
            }
            out.push_str(&trace_text(run, r.size, p, t, format));
            if t.depth() == 0
                && let PropId::Unsafe(k) = p.prop
                && !at_start.contains(&k)
            {
                at_start.push(k);
            }
            traces.push((t, r.size));
        }
    }
    for (_, what, sizes) in same {
        let at = if sizes.len() == 1 {
            format!("replayed at size {}", sizes[0])
        } else {
            "replayed at each".to_string()
        };
        let close = if what.ends_with("(int_bound") {
            "; "
        } else {
            " ("
        };
        out.push_str(&format!("\n{}: {what}{close}{at})\n", sizes_phrase(&sizes)));
    }
    for k in at_start {
        out.push_str(&initial_state_hint(run.model, k));
    }
    out
}

/// The trace of property row `p` at `size`, replayed, with its heading.
fn trace_text(
    run: &Run,
    size: usize,
    p: &crate::verdict::PropResult,
    t: &trace::Trace,
    format: TraceFormat,
) -> String {
    let mut out = if p.prop == PropId::IntBound {
        format!(
            "\nsize {size}: a run leaves the int window {} after {} steps (int_bound; the other answers at size {size} speak of the runs within it; trace replayed on the interpreter):\n",
            run.model
                .int_window
                .as_ref()
                .map(|w| w.text())
                .unwrap_or_default(),
            t.depth(),
        )
    } else {
        format!(
            "\nsize {size}: `{}` violated at depth {} (trace replayed on the interpreter):\n",
            label(run.model, p),
            t.depth()
        )
    };
    let states = t.replay(run.model).unwrap_or_default();
    if states.len() == t.steps.len() + 1 {
        out.push_str(&crate::cli::traces::render_trace(
            run.model, t, &states, format,
        ));
    }
    out
}

/// For a property that an initial state violates: `unsafe` and `invariant` blocks
/// describe the bad states (as Cubicle's do), and a formula written as the property
/// that should hold (TLA+'s or SPIN's habit) is violated at once.
fn initial_state_hint(m: &crate::model::ir::Model, k: usize) -> String {
    use crate::lang::print::expr_text;
    use crate::model::ir::Expr;
    let u = &m.unsafes[k];
    let text = |e: &Expr| crate::lang::print::unparenthesised(expr_text(m, &u.locals, e));
    let negated = match &u.body {
        Expr::Imp(a, b) => format!("{} && not ({})", text(a), text(b)),
        body => format!("not ({})", text(body)),
    };
    let params: Vec<&str> = u.locals[..u.params]
        .iter()
        .map(|l| l.name.as_str())
        .collect();
    // Unnamed blocks are numbered (`unsafe1`): the number is not written.
    let numbered = u
        .name
        .strip_prefix(u.kind.keyword())
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    let name = if numbered {
        String::new()
    } else {
        format!("{} ", u.name)
    };
    format!(
        "\nhelp: {} is violated in an initial state: its formula describes the states claimed unreachable (the bad states), as in Cubicle; if it states what should hold, write its negation: `{} {name}({}) {{ {negated} }}`\n",
        u.quoted(),
        u.kind.keyword(),
        params.join(" ")
    )
}

/// `1 step`, `3 steps`.
fn steps(k: usize) -> String {
    if k == 1 {
        "1 step".to_string()
    } else {
        format!("{k} steps")
    }
}

#[cfg(test)]
mod tests {
    use super::unanswered;

    #[test]
    fn unanswered_pairs_are_merged_per_property_and_sorted() {
        // The rows of a default run stopped by --timeout: a size's rows come in several
        // reports, out of order and repeated.
        let rows = [
            ("P", 3),
            ("Q", 6),
            ("P", 1),
            ("P", 2),
            ("P", 3),
            ("Q", 1),
            ("P", 6),
            ("P", 5),
            ("Q", 4),
            ("Q", 5),
        ];
        assert_eq!(unanswered(rows.into_iter()), "P: 1..3, 5..6; Q: 1, 4..6");
    }

    #[test]
    fn no_unanswered_pair_says_none() {
        assert_eq!(unanswered(std::iter::empty()), "none");
        assert_eq!(unanswered([("P", 4)].into_iter()), "P: 4");
    }
}
