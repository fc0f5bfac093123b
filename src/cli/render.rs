//! Rendering of runs and models for the terminal (text) and for tools (`--json`).

use super::check::Run;
use crate::cert::{sizes_phrase, sizes_text};
use crate::explicit::reach::peak_memory;
use crate::model::eval::transition_instances;
use crate::model::init::for_each_initial;
use crate::model::instance::Instance;
use crate::model::ir::{Model, Ty, VarKind};
use crate::portfolio::every::EveryN;
use crate::trace;
use crate::verdict::{Kind, Proof, PropId, PropResult, SizeReport, Verdict};
use serde_json::{Value, json};

fn symmetry_line(run: &Run) -> String {
    let m = run.model;
    let what = match run.engine {
        "sat" => "lex-leader symmetry breaking",
        "ic3" | "kind" => "symmetric lemma orbits",
        "auto" => "reduction (explicit) and symmetric lemma orbits (IC3)",
        _ => "reduction",
    };
    // The explicit engine also permutes interchangeable data values (abstract types).
    let data = matches!(run.engine, "explicit" | "auto") && m.has_data_symmetry();
    match (m.is_symmetric(), run.symmetry_requested) {
        (true, true) if data => "fully symmetric; reduction on (processes and data values)".into(),
        (false, true) if data => format!(
            "{}; reduction on for data values only{}",
            m.symmetry_summary(),
            if run.engine == "auto" {
                " (explicit search)"
            } else {
                ""
            }
        ),
        (true, true) => format!("fully symmetric; {what} on"),
        (true, false) => format!("fully symmetric; {what} off (--no-symmetry)"),
        (false, _) => format!("{}; {what} off", m.symmetry_summary()),
    }
}

/// The dead cells the explicit search stores as one value, if any.
fn dead_line(run: &Run) -> String {
    if run.dead_cells.is_empty() {
        return String::new();
    }
    format!(
        "reduction dead cells of {} (explicit search; --no-dead-cells)\n",
        run.dead_cells.join(", ")
    )
}

/// The lines before the table.
pub fn header(run: &Run) -> String {
    let size_col = match run.engine {
        "sat" => "clauses",
        "explicit" => "states",
        "auto" => "states/lemmas",
        _ => "lemmas",
    };
    format!(
        "model     {}\nsymmetry  {}\n{}{}engine    {}\n\n{:>4}  {:<20} {:<14} {:>6} {:>12} {:>9}\n",
        run.model.source.name,
        symmetry_line(run),
        ints_line(run.model),
        dead_line(run),
        run.engine_text,
        "size",
        "property",
        "verdict",
        "depth",
        size_col,
        "time"
    )
}

/// How a row names its property: `invariant NAME` for an invariant (`Unsafe::label`),
/// the engine's name otherwise.
fn label(m: &Model, p: &PropResult) -> String {
    match p.prop {
        PropId::Unsafe(u) => m.unsafes[u].label(),
        _ => p.name.clone(),
    }
}

/// The JSON `"kind"` of a row: `unsafe`, `invariant`, `range_error` or `deadlock`.
fn kind_name(m: &Model, p: &PropResult) -> &'static str {
    match p.prop {
        PropId::Unsafe(u) => m.unsafes[u].kind.keyword(),
        PropId::Range => "range_error",
        PropId::Deadlock => "deadlock",
        PropId::IntBound => "int_bound",
    }
}

/// `ints      ...`: the int window, how it was chosen and which initial values are
/// free over it (empty for a model without ints).
pub fn ints_line(m: &Model) -> String {
    match &m.int_window {
        Some(w) => format!("ints      {}\n", w.summary(m)),
        None => String::new(),
    }
}

/// The table rows of one size.
pub fn rows(m: &Model, r: &SizeReport) -> String {
    let mut out = String::new();
    let proved = r
        .results
        .iter()
        .any(|p| matches!(p.verdict, Verdict::Holds(Proof::Invariant { .. })));
    let count = r
        .states
        .or(r.clauses)
        .or(r.lemmas.filter(|_| proved))
        .map(|c| c.to_string())
        .unwrap_or_else(|| "-".into());
    for p in &r.results {
        out.push_str(&format!(
            "{:>4}  {:<20} {:<14} {:>6} {:>12} {:>8.2}s\n",
            r.size,
            label(m, p),
            p.verdict.text(),
            p.depth()
                .map(|d| d.to_string())
                .unwrap_or_else(|| "-".into()),
            count,
            r.seconds
        ));
    }
    if r.results.is_empty() {
        out.push_str(&format!(
            "{:>4}  {:<20} {:<14} {:>6} {:>12} {:>8.2}s\n",
            r.size, "(no property)", "-", "-", count, r.seconds
        ));
    }
    out
}

/// One warning about dead code: its text line and its JSON object.
struct DeadCode {
    text: String,
    json: Value,
}

/// What the exhaustive searches of a run said about the model's text.
struct DeadCodeReport {
    /// One per transition that never fired, then one per conjunct never true.
    warnings: Vec<DeadCode>,
    /// Sizes where the conjuncts were not examined, and why.
    notes: Vec<String>,
    /// The JSON `"coverage"` object (null when no size was searched exhaustively).
    coverage: Value,
}

/// A conjunct as written, on one line (its whitespace runs collapsed).
fn conjunct_text(m: &Model, c: &crate::model::ir::Conjunct) -> String {
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
fn dead_code(run: &Run) -> DeadCodeReport {
    let m = run.model;
    let mut out = Vec::new();
    let mut notes = Vec::new();
    // Sizes without a state say nothing: nothing fired because nothing was reachable.
    let covered: Vec<(usize, &crate::verdict::Coverage)> = run
        .reports
        .iter()
        .filter(|r| r.states.is_some_and(|s| s > 0))
        .filter_map(|r| r.coverage.as_ref().map(|c| (r.size, c)))
        .collect();
    let exhaustive: Vec<usize> = covered
        .iter()
        .filter(|(_, c)| c.exhaustive)
        .map(|(n, _)| *n)
        .collect();
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
        trans_json.push(json!({
            "transition": tr.name,
            "line": line,
            "instances_at": sizes,
            "fired_at": fired_at,
        }));
        if sizes.is_empty() || covered.iter().any(|(_, c)| c.fired[t]) {
            continue;
        }
        out.push(DeadCode {
            text: format!(
                "warning: transition `{}` (line {line}) never fired: not enabled in any reachable state ({})",
                tr.name,
                sizes_phrase(&sizes)
            ),
            json: json!({
                "kind": "never_fired",
                "transition": tr.name,
                "line": line,
                "sizes": sizes,
            }),
        });
    }
    let mut props_json = Vec::new();
    for (u, prop) in m.unsafes.iter().enumerate() {
        let violated = run.reports.iter().any(|r| {
            r.results
                .iter()
                .any(|p| p.prop == PropId::Unsafe(u) && p.verdict.kind() == Kind::Violated)
        });
        let mut sizes = Vec::new();
        let mut true_at = vec![Vec::new(); prop.conjuncts.len()];
        let (mut sat_at, mut unsat_at) = (Vec::new(), Vec::new());
        for (n, c) in &covered {
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
        if sizes.is_empty() && sat_at.is_empty() && unsat_at.is_empty() {
            continue;
        }
        let at = m.source.line_col(prop.span.lo).0;
        let conj_json: Vec<Value> = if sizes.is_empty() {
            Vec::new()
        } else {
            prop.conjuncts
                .iter()
                .zip(&true_at)
                .map(|(c, at)| {
                    json!({
                        "conjunct": conjunct_text(m, c),
                        "line": m.source.line_col(c.span.lo).0,
                        "true_at": at,
                    })
                })
                .collect()
        };
        props_json.push(json!({
            "property": prop.name,
            "kind": prop.kind.keyword(),
            "line": at,
            "satisfiable_at": sat_at,
            "unsatisfiable_at": unsat_at,
            "examined_at": sizes,
            "conjuncts": conj_json,
        }));
        if violated {
            continue;
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
                json: json!({
                    "kind": "unsatisfiable",
                    "property": prop.name,
                    "property_kind": prop.kind.keyword(),
                    "line": at,
                    "sizes": unsat_at,
                }),
            });
            continue;
        }
        for (conj, _) in prop
            .conjuncts
            .iter()
            .zip(&true_at)
            .filter(|(_, at)| at.is_empty())
        {
            if sizes.is_empty() {
                break;
            }
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
                    sizes_phrase(&sizes)
                ),
                json: json!({
                    "kind": "never_true",
                    "property": prop.name,
                    "property_kind": prop.kind.keyword(),
                    "conjunct": text,
                    "line": line,
                    "sizes": sizes,
                }),
            });
        }
    }
    for r in &run.reports {
        if let Some(why) = r.coverage.as_ref().and_then(|c| c.skipped.as_ref()) {
            notes.push(format!(
                "size {}: the properties' conjuncts were not examined for ones never true: {why}",
                r.size
            ));
        }
    }
    let coverage = if exhaustive.is_empty() {
        Value::Null
    } else {
        json!({
            "exhaustive_sizes": exhaustive,
            "transitions": trans_json,
            "properties": props_json,
        })
    };
    DeadCodeReport {
        warnings: out,
        notes,
        coverage,
    }
}

/// Traces, limits and the summary after the table.
pub fn footer(run: &Run) -> String {
    let mut out = String::new();
    let dead = dead_code(run);
    if !dead.warnings.is_empty() {
        out.push('\n');
        for d in &dead.warnings {
            out.push_str(&d.text);
            out.push('\n');
        }
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
    // Each trace once: a later size whose trace takes the same steps to the same
    // violation refers to the first.
    let mut shown: Vec<(&trace::Trace, usize)> = Vec::new();
    for r in &run.reports {
        for p in &r.results {
            let Some(t) = p.trace() else { continue };
            if let Some((_, first)) = shown
                .iter()
                .find(|(s, _)| s.steps == t.steps && s.violation == t.violation)
            {
                if p.prop == PropId::IntBound {
                    out.push_str(&format!(
                        "\nsize {}: a run leaves the int window after {} steps by the same steps as size {first} (int_bound; replayed at size {})\n",
                        r.size,
                        t.depth(),
                        r.size
                    ));
                    continue;
                }
                out.push_str(&format!(
                    "\nsize {}: `{}` violated at depth {} by the same steps as size {first} (replayed at size {})\n",
                    r.size,
                    label(run.model, p),
                    t.depth(),
                    r.size
                ));
                continue;
            }
            let states = t.replay(run.model).unwrap_or_default();
            if p.prop == PropId::IntBound {
                out.push_str(&format!(
                    "\nsize {}: a run leaves the int window {} after {} steps (int_bound; the other answers at size {} speak of the runs within it; trace replayed on the interpreter):\n",
                    r.size,
                    run.model
                        .int_window
                        .as_ref()
                        .map(|w| w.text())
                        .unwrap_or_default(),
                    t.depth(),
                    r.size
                ));
            } else {
                out.push_str(&format!(
                    "\nsize {}: `{}` violated at depth {} (trace replayed on the interpreter):\n",
                    r.size,
                    label(run.model, p),
                    t.depth()
                ));
            }
            if states.len() == t.steps.len() + 1 {
                out.push_str(&super::traces::render_trace(
                    run.model,
                    t,
                    &states,
                    run.trace_format,
                ));
            }
            shown.push((t, r.size));
        }
    }
    if run.aggregate {
        out.push_str(&picture(run));
    }
    if let Some(c) = &run.certificate {
        let proved: Vec<usize> = run
            .reports
            .iter()
            .filter(|r| {
                r.results
                    .iter()
                    .any(|p| matches!(p.verdict, Verdict::Holds(Proof::Invariant { .. })))
            })
            .map(|r| r.size)
            .collect();
        if !proved.is_empty() {
            out.push_str(&format!(
                "\nproved at {} by an inductive invariant of {} ({}{}), checked at every size on its own instance\n",
                sizes_phrase(&proved),
                if c.lemmas.len() == 1 {
                    "1 lemma".to_string()
                } else {
                    format!("{} lemmas", c.lemmas.len())
                },
                c.engine,
                if c.induction > 1 {
                    format!(", {}-inductive", c.induction)
                } else {
                    String::new()
                }
            ));
        }
    }
    for n in run.notes.iter().chain(&dead.notes) {
        out.push_str(&format!("note: {n}\n"));
    }
    if let Some(e) = &run.every {
        out.push_str(&every_line(run, e));
    }
    if let Some(l) = run.limit {
        // A size is answered when none of its verdicts is unknown.
        let answered: Vec<usize> = run
            .reports
            .iter()
            .filter(|r| r.results.iter().all(|p| p.verdict.kind() != Kind::Unknown))
            .map(|r| r.size)
            .collect();
        let first_limited = run.reports.iter().find(|r| r.limit.is_some());
        let at = if let (true, Some(r)) = (run.per_width, first_limited) {
            format!("at size {} (sizes checked width by width)", r.size)
        } else if run.aggregate || run.engine != "explicit" && run.sizes.len() > 1 {
            "in the run over all sizes".to_string()
        } else {
            format!(
                "at size {}",
                run.reports.last().map(|r| r.size).unwrap_or(0)
            )
        };
        out.push_str(&format!(
            "\nstopped: {} {at}; sizes answered: {}\n",
            l.text(),
            if answered.is_empty() {
                "none".into()
            } else {
                sizes_text(&answered)
            }
        ));
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
            .filter(|n| !run.reports.iter().any(|r| r.size == *n))
            .collect();
        if !skipped.is_empty() {
            out.push_str(&format!("not run: {}\n", sizes_phrase(&skipped)));
        }
    }
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

/// The answer for every size, in words.
fn every_line(run: &Run, e: &EveryN) -> String {
    match e {
        EveryN::Proved {
            cutoff,
            certificate,
            init_everywhere,
            seconds,
        } => format!(
            "\nevery n: holds for every n (a quantified invariant of {} clause{} from {}, checked at sizes 1..{cutoff}, the cutoff{}; {seconds:.2}s)\n",
            certificate.lemmas.len(),
            if certificate.lemmas.len() == 1 {
                ""
            } else {
                "s"
            },
            certificate.engine,
            if *init_everywhere {
                ""
            } else {
                "; vacuous at any size without an initial state"
            }
        ),
        EveryN::NotReached { reason, .. } => format!(
            "\nevery n: not proved: {reason}; the verdicts above are for {} only\n",
            sizes_phrase(&run.sizes)
        ),
    }
}

/// The last line: the sizes by kind of answer, violations first.
fn summary(run: &Run) -> String {
    let sizes_where = |f: &dyn Fn(Kind) -> bool| -> Vec<usize> {
        run.reports
            .iter()
            .filter(|r| r.results.iter().any(|p| f(p.verdict.kind())))
            .map(|r| r.size)
            .collect()
    };
    let violated: Vec<usize> = run
        .reports
        .iter()
        .filter(|r| r.results.iter().any(real_violation))
        .map(|r| r.size)
        .collect();
    let mut parts = Vec::new();
    if !violated.is_empty() {
        let list: Vec<String> = violated.iter().map(|n| n.to_string()).collect();
        parts.push(if list.len() == 1 {
            format!("violation at size {}", list[0])
        } else {
            format!("violations at sizes {}", list.join(", "))
        });
    }
    // Sizes where every answer is a proof.
    let proved: Vec<usize> = run
        .reports
        .iter()
        .filter(|r| {
            !r.results.is_empty() && r.results.iter().all(|p| p.verdict.kind() == Kind::Holds)
        })
        .map(|r| r.size)
        .collect();
    if !proved.is_empty() {
        parts.push(format!("holds at {}", sizes_phrase(&proved)));
    }
    let bounded = sizes_where(&|k| matches!(k, Kind::NoViolationUpTo(_)));
    if !bounded.is_empty() {
        let k = run.reports.iter().find_map(|r| r.bound).unwrap_or(0);
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
    if let Some(EveryN::Proved { .. }) = &run.every {
        parts.push("holds for every n".into());
    }
    if parts.is_empty() {
        "no property checked".to_string()
    } else {
        parts.join("; ")
    }
}

/// A violation of the model: any violated row but `int_bound` (leaving the int window
/// is where the check stops, not an error of the model).
fn real_violation(p: &crate::verdict::PropResult) -> bool {
    p.verdict.kind() == Kind::Violated && p.prop != PropId::IntBound
}

/// The failing sizes as rows of the aggregate: `-` a present process, `$` an absent one
/// (T. Wahl, *Exploiting Replication in Automated Program Verification*, PhD thesis,
/// UT Austin 2007, §11.6).
fn picture(run: &Run) -> String {
    let max = run.sizes.iter().copied().max().unwrap_or(0);
    let failing: Vec<usize> = run
        .reports
        .iter()
        .filter(|r| r.results.iter().any(real_violation))
        .map(|r| r.size)
        .collect();
    if failing.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "\nsizes with a violation, as states of the aggregate of {max} slots (- present, $ absent):\n"
    );
    for w in failing {
        let cells: Vec<&str> = (1..=max).map(|p| if p <= w { "-" } else { "$" }).collect();
        out.push_str(&format!("    {}    size {w}\n", cells.join("  ")));
    }
    out
}

/// The `--json` document.
pub fn json(run: &Run) -> Value {
    let mut results = Vec::new();
    for r in &run.reports {
        for p in &r.results {
            let tr = p.trace().map(|t| {
                let states = t.replay(run.model).unwrap_or_default();
                trace::to_json(run.model, t, &states)
            });
            let mut row = json!({
                "size": r.size,
                "property": p.name,
                "kind": kind_name(run.model, p),
                "verdict": p.verdict.json_name(),
                "depth": p.depth(),
                "states": r.states,
                "seconds": r.seconds,
                "answered_depth": r.answered_depth,
                "trace": tr,
            });
            let o = row.as_object_mut().unwrap();
            match &p.verdict {
                Verdict::Holds(Proof::Exhaustive) => {
                    o.insert("proof".into(), json!({"how": "exhaustive search"}));
                }
                Verdict::Holds(Proof::Invariant {
                    engine,
                    certificate,
                }) => {
                    o.insert(
                        "proof".into(),
                        json!({
                            "how": "inductive invariant, checked",
                            "engine": engine,
                            "lemmas": certificate.lemmas.len(),
                            "induction": certificate.induction,
                        }),
                    );
                }
                Verdict::NoViolationUpTo(k) => {
                    o.insert("bound".into(), json!(k));
                }
                Verdict::WithinInts { lo, hi, within } => {
                    o.insert("int_window".into(), json!([lo, hi]));
                    o.insert("within".into(), json!(within.json_name()));
                    if let Some(k) = within.bound() {
                        o.insert("bound".into(), json!(k));
                    }
                }
                _ => {}
            }
            o.insert("engine".into(), json!(r.engine));
            match r.engine {
                "sat" => {
                    o.insert("bound".into(), json!(r.bound));
                    o.insert("bounded".into(), json!(true));
                    o.insert("symmetry_breaking".into(), json!(r.symmetry));
                    o.insert("variables".into(), json!(r.vars));
                    o.insert("clauses".into(), json!(r.clauses));
                }
                "explicit" => {
                    o.insert("transitions".into(), json!(r.transitions));
                    o.insert("symmetry_reduction".into(), json!(r.symmetry));
                    o.insert("complete".into(), json!(r.complete));
                }
                _ => {
                    o.insert("symmetric_lemmas".into(), json!(r.symmetry));
                    o.insert("proof_depth".into(), json!(r.proof_depth));
                    o.insert("lemmas".into(), json!(r.lemmas));
                }
            }
            o.insert("internal_errors".into(), json!(r.internal_errors));
            results.push(row);
        }
    }
    let mut doc = json!({
        "model": run.model.source.name,
        "engine": run.engine,
        "symmetric": run.model.is_symmetric(),
        "symmetry": run.model.symmetry_summary(),
        "results": results,
        "limit": run.limit.map(|l| l.text()),
        "sizes": run.sizes,
        "seconds": run.seconds,
        "peak_memory_bytes": peak_memory(),
    });
    let o = doc.as_object_mut().unwrap();
    o.insert("dead_cells".into(), json!(run.dead_cells));
    let dead = dead_code(run);
    let notes: Vec<&String> = run.notes.iter().chain(&dead.notes).collect();
    o.insert("notes".into(), json!(notes));
    let warnings: Vec<&Value> = dead.warnings.iter().map(|d| &d.json).collect();
    o.insert("warnings".into(), json!(warnings));
    o.insert("coverage".into(), dead.coverage);
    if let Some(w) = int_window_json(run.model) {
        o.insert("int_window".into(), w);
    }
    if let Some(e) = &run.every {
        o.insert(
            "every_n".into(),
            match e {
                EveryN::Proved {
                    cutoff,
                    certificate,
                    init_everywhere,
                    seconds,
                } => json!({
                    "verdict": "holds",
                    "cutoff": cutoff,
                    "checked_sizes": (1..=*cutoff).collect::<Vec<_>>(),
                    "lemmas": certificate.lemmas.len(),
                    "how": certificate.engine,
                    "initial_states_at_every_size": init_everywhere,
                    "certificate": certificate.to_text(),
                    "seconds": seconds,
                }),
                EveryN::NotReached { reason, seconds } => json!({
                    "verdict": "not_proved",
                    "reason": reason,
                    "seconds": seconds,
                }),
            },
        );
    }
    if let Some(c) = &run.certificate {
        o.insert("certificate".into(), json!(c.to_text()));
    }
    if run.engine == "sat" {
        o.insert(
            "bound".into(),
            json!(run.reports.first().and_then(|r| r.bound)),
        );
        o.insert(
            "mode".into(),
            json!(if run.per_width {
                "per-width"
            } else if run.aggregate {
                "aggregate"
            } else {
                "one-by-one"
            }),
        );
    }
    doc
}

/// The int window as JSON: `{"lo", "hi", "given": bool, "free": [names]}` (the
/// variables whose initial values range over it), or `None` without ints.
pub fn int_window_json(m: &Model) -> Option<Value> {
    let w = m.int_window.as_ref()?;
    let free: Vec<&str> = w.free.iter().map(|&v| m.vars[v].name.as_str()).collect();
    Some(json!({
        "lo": w.lo,
        "hi": w.hi,
        "given": w.given,
        "free": free,
    }))
}

fn type_text(m: &Model, t: Ty) -> String {
    match t {
        Ty::Range(r) => {
            let rg = &m.ranges[r];
            let snippet = m.source.snippet(rg.span).trim().to_string();
            if snippet.contains("..") && !snippet.contains('=') {
                snippet
            } else {
                rg.name.clone()
            }
        }
        _ => m.type_name(t),
    }
}

/// Sizes of the SAT encoding at size n (binary cells): frame 0, one step of the
/// transition relation, and each bad-state check.
fn sat_sizes(m: &Model, n: usize) -> String {
    use crate::bmc::frame::Encoding;
    use crate::bmc::unroll::Unroller;
    let mut u = Unroller::new(m, n, Encoding::Binary);
    u.add_step();
    let s1 = u.size();
    u.add_step();
    let s2 = u.size();
    let mut out = format!(
        "\nSAT encoding at size {n} (binary cells)\n  frame 0 + init     {} variables, {} clauses\n  per step           {} variables, {} clauses\n",
        u.sizes[0].vars,
        u.sizes[0].clauses,
        s2.vars - s1.vars,
        s2.clauses - s1.clauses
    );
    for (p, prop) in m.unsafes.iter().enumerate() {
        let before = u.size();
        u.unsafe_query(p, 2);
        let after = u.size();
        out.push_str(&format!(
            "  bad `{}`{}{} variables, {} clauses (all {} tuples)\n",
            prop.name,
            // At least one space, however long the name.
            " ".repeat(12usize.saturating_sub(prop.name.len()).max(1)),
            after.vars - before.vars,
            after.clauses - before.clauses,
            u.inst.distinct_tuples(prop.params).len()
        ));
    }
    let before = u.size();
    let props: Vec<usize> = (0..m.unsafes.len()).collect();
    u.range_query(2, &props);
    let after = u.size();
    out.push_str(&format!(
        "  range errors       {} variables, {} clauses\n",
        after.vars - before.vars,
        after.clauses - before.clauses
    ));
    if m.int_window.is_some() {
        let before = u.size();
        u.int_query(2, false);
        let after = u.size();
        out.push_str(&format!(
            "  int_bound          {} variables, {} clauses\n",
            after.vars - before.vars,
            after.clauses - before.clauses
        ));
    }
    out
}

/// `nfold info`.
pub fn info(m: &Model, size: Option<usize>) -> String {
    let mut out = format!(
        "model     {}\nsymmetry  {}\n",
        m.source.name,
        m.symmetry_summary()
    );
    for b in m.symmetry_breaks.iter().skip(1) {
        out.push_str(&format!(
            "          also: {} at {}\n",
            b.what,
            m.source.file_line(b.span.lo)
        ));
    }
    if let Some((k, _)) = m.number_procs {
        out.push_str(&format!("size      fixed to {k} (number_procs)\n"));
    }
    if let Some(x) = &m.extra_proc {
        out.push_str(&format!(
            "proc      processes 1..n and the extra id 0 ({} at {}, different from every process): not a process, fixed by permutations\n",
            x.names(),
            m.source.file_line(x.span.lo)
        ));
    }
    out.push_str(&ints_line(m));
    for d in crate::model::dead::analyse(m) {
        out.push_str(&format!(
            "dead      {}: never read before written again; the explicit search stores one value there\n",
            d.describe(m)
        ));
    }
    out.push_str("\ntypes\n");
    for (k, e) in m.enums.iter().enumerate() {
        match m.data_type(k) {
            Some(d) => out.push_str(&format!("  {} (abstract): {}\n", e.name, d.summary(m))),
            None => out.push_str(&format!("  {} = {}\n", e.name, e.ctors.join(" | "))),
        }
    }
    for (k, r) in m.ranges.iter().enumerate() {
        if m.int_window.as_ref().is_some_and(|w| w.range == k) {
            let w = m.int_window.as_ref().unwrap();
            out.push_str(&format!(
                "  int = {} (the window; leaving it is `int_bound`)\n",
                w.text()
            ));
            continue;
        }
        if !r.name.contains("..") {
            out.push_str(&format!(
                "  {} = {}\n",
                r.name,
                m.source
                    .snippet(r.span)
                    .split('=')
                    .nth(1)
                    .unwrap_or("")
                    .trim()
            ));
        }
    }
    out.push_str("\nvariables\n");
    for v in &m.vars {
        let kind = match v.kind {
            VarKind::Global => "var",
            VarKind::Const => "const",
            VarKind::Array => "array",
        };
        let dims = if v.dims.is_empty() {
            String::new()
        } else {
            let d: Vec<String> = v.dims.iter().map(|&t| type_text(m, t)).collect();
            format!("[{}]", d.join(", "))
        };
        out.push_str(&format!(
            "  {kind:<5} {}{} : {}\n",
            v.name,
            dims,
            type_text(m, v.ty)
        ));
    }
    out.push_str("\ntransitions\n");
    for t in &m.transitions {
        let ps: Vec<&str> = t.locals[..t.params]
            .iter()
            .map(|l| l.name.as_str())
            .collect();
        let sig = format!("{}({})", t.name, ps.join(" "));
        let line = m.source.line_col(t.span.lo).0;
        out.push_str(&format!("  {sig:<30} line {line}\n"));
    }
    out.push_str("\nproperties\n");
    for u in &m.unsafes {
        let ps: Vec<&str> = u.locals[..u.params]
            .iter()
            .map(|l| l.name.as_str())
            .collect();
        // `unsafe` and `invariant` aligned with `ltl`.
        out.push_str(&format!(
            "  {:<6} {} ({})\n",
            u.kind.keyword(),
            u.name,
            ps.join(" ")
        ));
    }
    for l in &m.ltls {
        let ps: Vec<&str> = l.locals[..l.params]
            .iter()
            .map(|l| l.name.as_str())
            .collect();
        out.push_str(&format!("  ltl    {} ({})\n", l.name, ps.join(" ")));
    }
    if let Some(n) = size {
        out.push_str(&sat_sizes(m, n));
        let inst = Instance::new(m, n);
        let mut inits = 0usize;
        let capped = for_each_initial(&inst, &mut |_| {
            inits += 1;
            inits < 1_000_000
        });
        out.push_str(&format!(
            "\nsize {n}\n  cells              {}\n  state bits         {} ({} word(s) of 64 bits)\n  transition inst.   {}\n  initial states     {}{}\n",
            inst.slots.len(),
            inst.bits,
            inst.words,
            transition_instances(&inst).len(),
            inits,
            match capped {
                _ if inst.empty_typed_var().is_some() => {
                    let var = &m.vars[inst.empty_typed_var().unwrap_or_default()];
                    format!(
                        " (the type `{}` of `{}` is empty at this size)",
                        type_text(m, var.ty),
                        var.name
                    )
                }
                Err(e) => format!(" (range error in init: {})", e.error),
                Ok(()) if inits >= 1_000_000 => " or more".to_string(),
                Ok(()) => String::new(),
            }
        ));
    }
    out
}
