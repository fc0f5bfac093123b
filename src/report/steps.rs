//! Counterexamples and lassos as step tables: one row per state (the initial state, then
//! the state after each step, with the step's process, transition, parameters and
//! choices), one column per cell, the cells a step changed marked (a highlight and a
//! `*`, so the mark survives without colour), and a lasso's cycle marked in a column of
//! its own. The cells' values at every step are the document's initial state updated
//! by each step's `changes`.

use super::esc;
use crate::schema::{CheckDoc, Row, TraceDoc};
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Every counterexample of the run, one section each (the first of each property
/// unfolded).
pub(super) fn counterexamples(doc: &CheckDoc) -> String {
    let traced: Vec<(usize, &Row, &TraceDoc)> = doc
        .results
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.trace.as_ref().map(|t| (i, r, t)))
        .collect();
    if traced.is_empty() {
        return String::new();
    }
    // The legend's example is a value this model's first trace changes.
    let example = traced
        .iter()
        .flat_map(|(_, _, t)| &t.steps)
        .find_map(|s| s.changes.as_ref()?.values().next().map(|v| v.text()))
        .unwrap_or_else(|| "v".to_string());
    let mut out = format!(
        "<section id=\"counterexamples\">\n<h2>Counterexamples</h2>\n\
         <p class=\"legend\">Each row is a state: the initial state, then the state after each step (its process, \
         transition and parameters). A highlighted value with a star (<mark>{}</mark><sup class=\"mk\">*</sup>) is one the step changed. \
         Every trace was replayed on nfold's interpreter before it was reported.</p>\n",
        esc(&example)
    );
    let mut seen: Vec<&str> = Vec::new();
    for (i, r, t) in traced {
        let first = !seen.contains(&r.property.as_str());
        seen.push(&r.property);
        out.push_str(&section(doc, i, r, t, first));
    }
    out.push_str("</section>\n");
    out
}

/// The heading of a counterexample, in the words of the text report.
fn heading(r: &Row, t: &TraceDoc) -> String {
    let n = r.size;
    let d = t.steps.len();
    let prop = t.property.as_deref().unwrap_or(&r.property);
    if t.kind.as_deref() == Some("lasso") {
        let who = t.process.map(|p| format!(" for i={p}")).unwrap_or_default();
        let fair = if t.fair == Some(true) {
            "weakly fair "
        } else {
            ""
        };
        let cycle = cycle_steps(t).count();
        let tail = if t.deadlock == Some(true) {
            ", ending in a deadlocked state that repeats forever".to_string()
        } else {
            format!(", cycle of {cycle} steps")
        };
        return format!("size {n}: `{prop}`{who} violated by a {fair}lasso of {d} steps{tail}");
    }
    match t.kind.as_deref() {
        Some("deadlock") => format!("size {n}: deadlock after {d} steps"),
        Some("range_error") => format!("size {n}: range error at depth {d}"),
        Some("int_bound") => format!("size {n}: step {d} leaves the int window"),
        _ => format!("size {n}: `{prop}` violated at depth {d}"),
    }
}

/// The steps of a lasso's cycle.
fn cycle_steps(t: &TraceDoc) -> impl Iterator<Item = usize> + '_ {
    (0..t.steps.len()).filter(|&k| in_cycle(t, k))
}

/// Step k (0-based) belongs to the cycle: as the step says, else by the loop's start.
fn in_cycle(t: &TraceDoc, k: usize) -> bool {
    match (t.steps[k].in_cycle, t.loop_start) {
        (Some(c), _) => c,
        (None, Some(l)) => k >= l,
        (None, None) => false,
    }
}

/// One counterexample: heading, what it violates, and the step table.
fn section(doc: &CheckDoc, i: usize, r: &Row, t: &TraceDoc, open: bool) -> String {
    let lasso = t.kind.as_deref() == Some("lasso");
    let mut out = String::new();
    let _ = write!(
        out,
        "<section class=\"cex\" id=\"cex-{i}\" data-size=\"{}\" data-property=\"{}\" data-kind=\"{}\" data-steps=\"{}\"",
        r.size,
        esc(&r.property),
        esc(t.kind.as_deref().unwrap_or("")),
        t.steps.len()
    );
    if let Some(l) = t.loop_start {
        let _ = write!(out, " data-loop-start=\"{l}\"");
    }
    if let Some(p) = t.process {
        let _ = write!(out, " data-process=\"{p}\"");
    }
    let _ = writeln!(
        out,
        ">\n<details{}>\n<summary><h3>{}</h3></summary>",
        if open { " open" } else { "" },
        esc(&heading(r, t))
    );
    if let Some(v) = &t.violation {
        let _ = writeln!(out, "<p class=\"violation\">⇒ {}</p>", esc(v));
    }
    if let Some(ps) = &t.processes {
        let ps: Vec<String> = ps.iter().map(|p| p.to_string()).collect();
        let _ = writeln!(
            out,
            "<p>The property's processes in the last state: {}.</p>",
            ps.join(", ")
        );
    }
    if let Some(s) = &t.site {
        let mut at = Vec::new();
        if s.init == Some(true) {
            at.push("the initial state".to_string());
        }
        if let Some(tr) = &s.transition {
            let ps: Vec<String> = s.params.iter().flatten().map(|p| p.to_string()).collect();
            at.push(format!("transition {tr}({})", ps.join(", ")));
        }
        if let Some(u) = &s.unsafe_prop {
            at.push(format!("property `{u}`"));
        }
        if let Some(l) = &s.ltl {
            at.push(format!("`ltl` property `{l}`"));
        }
        if let Some(p) = s.process {
            at.push(format!("process {p}"));
        }
        if !at.is_empty() {
            let _ = writeln!(out, "<p>Where: {}.</p>", esc(&at.join(", ")));
        }
    }
    out.push_str(&table(t, lasso, &doc.process_arrays));
    out.push_str("</details>\n</section>\n");
    out
}

/// A cell's name split for ordering: the variable, then its indices, numbers by value
/// (`A[2]` before `A[10]`).
fn order(a: &str, b: &str) -> Ordering {
    fn key(s: &str) -> (&str, Vec<(u8, i64, &str)>) {
        let (base, ix) = split(s);
        let ix = ix
            .iter()
            .map(|x| match x.parse::<i64>() {
                Ok(v) => (0, v, ""),
                Err(_) => (1, 0, *x),
            })
            .collect();
        (base, ix)
    }
    key(a).cmp(&key(b))
}

/// The variable a cell belongs to and its indices (`G[1,2]`: `G`, [`1`, `2`]; `X`: `X`,
/// []).
fn split(cell: &str) -> (&str, Vec<&str>) {
    match cell.split_once('[') {
        Some((b, r)) => (
            b,
            r.trim_end_matches(']').split(',').map(str::trim).collect(),
        ),
        None => (cell, Vec::new()),
    }
}

/// The process that owns a cell (its array's first `proc` index, from the document's
/// `process_arrays`) and the cell's name in that process's columns (`A` for `A[2]`,
/// `G[_,3]` for `G[2,3]`, as the text report's tables by process name them).
fn owner(cell: &str, arrays: &BTreeMap<String, usize>) -> Option<(i64, String)> {
    let (base, ix) = split(cell);
    let k = *arrays.get(base)?;
    let p = ix.get(k)?.parse::<i64>().ok()?;
    if ix.len() == 1 {
        return Some((p, base.to_string()));
    }
    let rest: Vec<&str> = ix
        .iter()
        .enumerate()
        .map(|(j, x)| if j == k { "_" } else { *x })
        .collect();
    Some((p, format!("{base}[{}]", rest.join(","))))
}

/// A column group of the step table: the cells of no process (`None`) or of one
/// process, each as (cell, name shown in the column head).
type Group<'a> = (Option<i64>, Vec<(&'a str, String)>);

/// The column groups: the cells of no process first, then each process's cells.
fn groups<'a>(cells: &[&'a str], arrays: &BTreeMap<String, usize>) -> Vec<Group<'a>> {
    let mut global: Vec<(&str, String)> = Vec::new();
    let mut by_proc: BTreeMap<i64, Vec<(&str, String)>> = BTreeMap::new();
    for c in cells {
        match owner(c, arrays) {
            Some((p, name)) => by_proc.entry(p).or_default().push((c, name)),
            None => global.push((c, c.to_string())),
        }
    }
    let mut out: Vec<Group> = Vec::new();
    if !global.is_empty() {
        out.push((None, global));
    }
    out.extend(by_proc.into_iter().map(|(p, v)| (Some(p), v)));
    out
}

/// The step table of a trace or lasso: one column group per process (its cells), one
/// for the cells of no process.
fn table(t: &TraceDoc, lasso: bool, arrays: &BTreeMap<String, usize>) -> String {
    let mut cells: Vec<&str> = t.init.keys().map(String::as_str).collect();
    for s in &t.steps {
        for c in s.changes.iter().flat_map(|m| m.keys()) {
            if !cells.contains(&c.as_str()) {
                cells.push(c);
            }
        }
    }
    cells.sort_by(|a, b| order(a, b));
    let groups = groups(&cells, arrays);
    let cells: Vec<&str> = groups
        .iter()
        .flat_map(|(_, v)| v.iter().map(|c| c.0))
        .collect();
    let mut out = String::from("<div class=\"scroll\"><table class=\"steps\">\n<thead><tr>");
    out.push_str(
        "<th rowspan=\"2\" scope=\"col\">state</th><th rowspan=\"2\" scope=\"col\">process</th><th rowspan=\"2\" scope=\"col\">step</th>",
    );
    if lasso {
        out.push_str("<th rowspan=\"2\" scope=\"col\">cycle</th>");
    }
    for (p, v) in &groups {
        let _ = write!(
            out,
            "<th colspan=\"{}\" scope=\"colgroup\"{}>{}</th>",
            v.len(),
            if p.is_some() { " class=\"proc\"" } else { "" },
            match p {
                Some(p) => format!("process {p}"),
                None if groups.len() == 1 => "cells".to_string(),
                None => "globals".to_string(),
            }
        );
    }
    out.push_str("</tr>\n<tr>");
    for (_, v) in &groups {
        for (_, name) in v {
            let _ = write!(out, "<th scope=\"col\">{}</th>", esc(name));
        }
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    out.push_str(&rows(t, lasso, &cells));
    out.push_str("</tbody>\n</table></div>\n");
    out
}

/// The rows of the step table: the initial state, each step, and how a lasso closes.
fn rows(t: &TraceDoc, lasso: bool, cells: &[&str]) -> String {
    let mut out = String::new();
    let mut state: Option<BTreeMap<&str, String>> =
        Some(t.init.iter().map(|(k, v)| (k.as_str(), v.text())).collect());
    let loop_start = t.loop_start.filter(|_| lasso);
    // The initial state.
    let start0 = loop_start == Some(0);
    let _ = write!(
        out,
        "<tr class=\"state init{}\" data-state=\"0\"><td>0</td><td></td><td>(initial)</td>",
        if start0 { " loop-start" } else { "" }
    );
    if lasso {
        let _ = write!(
            out,
            "<td>{}</td>",
            if start0 { "cycle starts here" } else { "" }
        );
    }
    out.push_str(&cells_html(cells, state.as_ref(), None));
    out.push_str("</tr>\n");
    for (k, s) in t.steps.iter().enumerate() {
        let n = k + 1;
        let changed = s.changes.as_ref();
        state = match (state, changed) {
            (Some(mut st), Some(ch)) => {
                for (c, v) in ch {
                    st.insert(c.as_str(), v.text());
                }
                Some(st)
            }
            _ => None,
        };
        let cyc = lasso && in_cycle(t, k);
        let start = loop_start == Some(n);
        let mut class = String::from("state");
        if cyc {
            class.push_str(" in-cycle");
        }
        if start {
            class.push_str(" loop-start");
        }
        let params: Vec<String> = s.params.iter().map(|p| p.to_string()).collect();
        let mut label = format!("{}({})", s.transition, params.join(", "));
        if !s.choices.is_empty() {
            let ch: Vec<String> = s.choices.iter().map(|p| p.to_string()).collect();
            let _ = write!(label, " choosing {}", ch.join(", "));
        }
        let _ = write!(
            out,
            "<tr class=\"{class}\" data-state=\"{n}\"><td>{n}</td><td>{}</td><td class=\"label\">{}</td>",
            s.process.map(|p| format!("p{p}")).unwrap_or_default(),
            esc(&label)
        );
        if lasso {
            let _ = write!(
                out,
                "<td>{}</td>",
                match (cyc, start) {
                    (true, true) => "cycle (starts here)",
                    (true, false) => "cycle",
                    (false, true) => "cycle starts here",
                    _ => "",
                }
            );
        }
        out.push_str(&cells_html(cells, state.as_ref(), changed));
        out.push_str("</tr>\n");
    }
    let width = 3 + usize::from(lasso) + cells.len();
    if let Some(l) = loop_start {
        let text = if t.deadlock == Some(true) {
            format!("state {l} is deadlocked: it repeats forever")
        } else {
            format!(
                "back to state {l}: the cycle of {} steps repeats forever",
                cycle_steps(t).count()
            )
        };
        let _ = writeln!(
            out,
            "<tr class=\"back\"><td colspan=\"{width}\">↻ {}</td></tr>",
            esc(&text)
        );
    }
    if state.is_none() {
        let _ = writeln!(
            out,
            "<tr class=\"back\"><td colspan=\"{width}\">? a step's changes were not recorded: the cells after it are unknown</td></tr>"
        );
    }
    out
}

/// The cells of one state, those in `changed` marked.
fn cells_html(
    cells: &[&str],
    state: Option<&BTreeMap<&str, String>>,
    changed: Option<&BTreeMap<String, crate::schema::CellValue>>,
) -> String {
    let mut out = String::new();
    for c in cells {
        let value = state.and_then(|s| s.get(c));
        let mark = changed.is_some_and(|m| m.contains_key(*c));
        match (value, mark) {
            (Some(v), true) => {
                let _ = write!(
                    out,
                    "<td class=\"chg\" data-cell=\"{}\"><mark>{}</mark><sup class=\"mk\">*</sup></td>",
                    esc(c),
                    esc(v)
                );
            }
            (Some(v), false) => {
                let _ = write!(out, "<td data-cell=\"{}\">{}</td>", esc(c), esc(v));
            }
            (None, _) => {
                let _ = write!(out, "<td class=\"unk\" data-cell=\"{}\">?</td>", esc(c));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_order_by_variable_then_index_value() {
        let mut v = vec!["A[10]", "A[2]", "B", "A[1,3]", "A[1,2]", "Ab"];
        v.sort_by(|a, b| order(a, b));
        assert_eq!(v, ["A[1,2]", "A[1,3]", "A[2]", "A[10]", "Ab", "B"]);
    }
}
