//! Rendering of runs and models for the terminal (text) and for tools (`--json`).

use super::Run;
use crate::explicit::reach::peak_memory;
use crate::model::eval::transition_instances;
use crate::model::init::for_each_initial;
use crate::model::instance::Instance;
use crate::model::ir::{Model, Ty, VarKind};
use crate::trace;
use crate::verdict::{PropResult, SizeReport, Verdict};
use serde_json::{Value, json};

fn verdict_text(p: &PropResult) -> String {
    match p.verdict {
        Verdict::Holds => "holds".into(),
        Verdict::Violated => "VIOLATED".into(),
        Verdict::NoViolationUpTo(k) => format!("none up to {k}"),
        Verdict::Unknown => "unknown".into(),
    }
}

fn symmetry_line(run: &Run) -> String {
    let m = run.model;
    let what = if run.engine == "sat" {
        "lex-leader symmetry breaking"
    } else {
        "reduction"
    };
    // The explicit engine also permutes interchangeable data values (abstract types).
    let data = run.engine == "explicit" && m.has_data_symmetry();
    match (m.is_symmetric(), run.symmetry_requested) {
        (true, true) if data => "fully symmetric; reduction on (processes and data values)".into(),
        (false, true) if data => format!(
            "{}; reduction on for data values only",
            m.symmetry_summary()
        ),
        (true, true) => format!("fully symmetric; {what} on"),
        (true, false) => format!("fully symmetric; {what} off (--no-symmetry)"),
        (false, _) => format!("{}; {what} off", m.symmetry_summary()),
    }
}

/// The lines before the table.
pub fn header(run: &Run) -> String {
    let size_col = if run.engine == "sat" {
        "clauses"
    } else {
        "states"
    };
    format!(
        "model     {}\nsymmetry  {}\nengine    {}\n\n{:>4}  {:<20} {:<14} {:>6} {:>12} {:>9}\n",
        run.model.source.name,
        symmetry_line(run),
        run.engine_text,
        "size",
        "property",
        "verdict",
        "depth",
        size_col,
        "time"
    )
}

/// The table rows of one size.
pub fn rows(r: &SizeReport) -> String {
    let mut out = String::new();
    let count = r
        .states
        .or(r.clauses)
        .map(|c| c.to_string())
        .unwrap_or_else(|| "-".into());
    for p in &r.results {
        out.push_str(&format!(
            "{:>4}  {:<20} {:<14} {:>6} {:>12} {:>8.2}s\n",
            r.size,
            p.name,
            verdict_text(p),
            p.depth.map(|d| d.to_string()).unwrap_or_else(|| "-".into()),
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

/// Traces, limits and the summary after the table.
pub fn footer(run: &Run) -> String {
    let mut out = String::new();
    for r in &run.reports {
        if r.initial_states == Some(0) && r.complete {
            out.push_str(&format!(
                "\nwarning: size {} has no initial state (the init formula is unsatisfiable)\n",
                r.size
            ));
        }
        for p in &r.results {
            if let Some(t) = &p.trace {
                let states = t.replay(run.model).unwrap_or_default();
                out.push_str(&format!(
                    "\nsize {}: `{}` violated at depth {} (trace replayed on the interpreter):\n",
                    r.size,
                    p.name,
                    t.depth()
                ));
                if states.len() == t.steps.len() + 1 {
                    out.push_str(&trace::render_text(run.model, t, &states));
                }
            }
        }
    }
    if run.aggregate {
        out.push_str(&picture(run));
    }
    if let Some(l) = run.limit {
        let answered: Vec<String> = run
            .reports
            .iter()
            .filter(|r| r.limit.is_none())
            .map(|r| r.size.to_string())
            .collect();
        let at = if run.aggregate {
            "in the aggregate run".to_string()
        } else {
            format!(
                "at size {}",
                run.reports.last().map(|r| r.size).unwrap_or(0)
            )
        };
        out.push_str(&format!(
            "\nstopped: {} {at}; sizes fully answered: {}\n",
            l.text(),
            if answered.is_empty() {
                "none".into()
            } else {
                answered.join(", ")
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
        let skipped: Vec<String> = run
            .sizes
            .iter()
            .filter(|n| !run.reports.iter().any(|r| r.size == **n))
            .map(|n| n.to_string())
            .collect();
        if !skipped.is_empty() {
            out.push_str(&format!("not run: sizes {}\n", skipped.join(", ")));
        }
    }
    let violated: Vec<String> = run
        .reports
        .iter()
        .filter(|r| r.results.iter().any(|p| p.verdict == Verdict::Violated))
        .map(|r| r.size.to_string())
        .collect();
    let none = match (run.limit, run.reports.first().and_then(|r| r.bound)) {
        (Some(_), _) => "no violation found before the limit".to_string(),
        (None, Some(k)) => format!("no violation up to depth {k}"),
        (None, None) => "no violation found".to_string(),
    };
    out.push_str(&format!(
        "\n{}; {:.2}s{}\n",
        if violated.is_empty() {
            none
        } else {
            format!("violations at sizes {}", violated.join(", "))
        },
        run.seconds,
        peak_memory()
            .map(|b| format!(", peak memory {:.1} MiB", b as f64 / (1 << 20) as f64))
            .unwrap_or_default()
    ));
    out
}

/// The failing sizes as rows of the aggregate: `-` a present process, `$` an absent one
/// (dissertation §11.6).
fn picture(run: &Run) -> String {
    let max = run.sizes.iter().copied().max().unwrap_or(0);
    let failing: Vec<usize> = run
        .reports
        .iter()
        .filter(|r| r.results.iter().any(|p| p.verdict == Verdict::Violated))
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
            let tr = p.trace.as_ref().map(|t| {
                let states = t.replay(run.model).unwrap_or_default();
                trace::to_json(run.model, t, &states)
            });
            let mut row = json!({
                "size": r.size,
                "property": p.name,
                "verdict": p.verdict.json_name(),
                "depth": p.depth,
                "states": r.states,
                "seconds": r.seconds,
                "answered_depth": r.answered_depth,
                "trace": tr,
            });
            let o = row.as_object_mut().unwrap();
            if run.engine == "sat" {
                o.insert("bound".into(), json!(r.bound));
                o.insert("bounded".into(), json!(true));
                o.insert("symmetry_breaking".into(), json!(r.symmetry));
                o.insert("variables".into(), json!(r.vars));
                o.insert("clauses".into(), json!(r.clauses));
            } else {
                o.insert("transitions".into(), json!(r.transitions));
                o.insert("symmetry_reduction".into(), json!(r.symmetry));
                o.insert("complete".into(), json!(r.complete));
            }
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
    if run.engine == "sat" {
        let o = doc.as_object_mut().unwrap();
        o.insert(
            "bound".into(),
            json!(run.reports.first().and_then(|r| r.bound)),
        );
        o.insert(
            "mode".into(),
            json!(if run.aggregate {
                "aggregate"
            } else {
                "one-by-one"
            }),
        );
    }
    doc
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
    use crate::bmc::encode::Unroller;
    use crate::bmc::frame::Encoding;
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
            " ".repeat(12usize.saturating_sub(prop.name.len())),
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
    out.push_str("\ntypes\n");
    for (k, e) in m.enums.iter().enumerate() {
        match m.data_type(k) {
            Some(d) => out.push_str(&format!("  {} (abstract): {}\n", e.name, d.summary(m))),
            None => out.push_str(&format!("  {} = {}\n", e.name, e.ctors.join(" | "))),
        }
    }
    for r in &m.ranges {
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
        out.push_str(&format!("  unsafe {} ({})\n", u.name, ps.join(" ")));
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
                Err(e) => format!(" (range error in init: {})", e.error),
                Ok(()) if inits >= 1_000_000 => " or more".to_string(),
                Ok(()) => String::new(),
            }
        ));
    }
    out
}
