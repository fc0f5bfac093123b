//! The lines before the table (model, symmetry, ints, dead cells, fairness, engine) and
//! the table's rows: one per size and property.

use super::{Run, ints_line, label, ranked_ints_line};
use crate::model::ir::Model;
use crate::verdict::{Proof, SizeReport, Verdict};

/// The header's `symmetry` line (also the JSON's `symmetry_use` and the HTML report's,
/// so that the three say the same).
pub(super) fn symmetry_line(run: &Run) -> String {
    let m = run.model;
    let what = run.presentation.symmetry;
    // Some engines also permute interchangeable data values (abstract types).
    let data = run
        .presentation
        .data_symmetry
        .filter(|_| m.has_data_symmetry());
    // An engine that uses no symmetry says so in its own words (`none (why)`).
    if let Some(why) = what.strip_prefix("none") {
        let base = if m.is_symmetric() {
            "fully symmetric".to_string()
        } else {
            m.symmetry_summary()
        };
        return format!("{base}; not used{why}");
    }
    match (m.is_symmetric(), run.symmetry_requested) {
        (true, true) if data.is_some() => {
            "fully symmetric; reduction on (processes and data values)".into()
        }
        (false, true) if data.is_some() => format!(
            "{}; reduction on for data values only{}",
            m.symmetry_summary(),
            data.unwrap_or_default()
        ),
        (true, true) => format!("fully symmetric; {what} on{}", ltl_symmetry(run, true)),
        // IC3's lemmas stand for their orbits under the order-preserving renamings
        // (the other reductions need full symmetry).
        (false, true) if m.has_lemma_orbits() && run.presentation.lemma_orbits.is_some() => {
            format!(
                "{}; order-preserving lemma orbits (IC3, checked by Houdini) on{}{}",
                m.symmetry_summary(),
                run.presentation.lemma_orbits.unwrap_or_default(),
                ltl_symmetry(run, false)
            )
        }
        // The explicit search's adaptive reduction (--partial-symmetry).
        (false, true) if what.starts_with("partial symmetry") => format!(
            "{}; {what} on (states annotated with the symmetry the reachable states allow, exact)",
            m.symmetry_summary()
        ),
        (true, false) => format!(
            "fully symmetric; {what} off (--no-symmetry){}",
            ltl_symmetry(run, false)
        ),
        (false, _) => format!(
            "{}; {what} off{}",
            m.symmetry_summary(),
            ltl_symmetry(run, false)
        ),
    }
}

/// For `ltl` properties: which processes a property of a process is checked for, and
/// under which permutations the search is reduced (`ltl::processes_to_check`).
pub(super) fn ltl_symmetry(run: &Run, reduced: bool) -> String {
    let m = run.model;
    let of_process = run.ltls.iter().any(|&k| m.ltls[k].params > 0);
    let without = run.ltls.iter().any(|&k| m.ltls[k].params == 0);
    if !m.is_symmetric() {
        return if of_process {
            "; a property of process i is checked for every i".into()
        } else {
            String::new()
        };
    }
    if !reduced {
        return if of_process {
            "; a property of process i is checked for i = 1".into()
        } else {
            String::new()
        };
    }
    let mut groups = Vec::new();
    if of_process {
        groups.push(
            "for a property of process i, the permutations fixing process 1: it is checked \
             for i = 1 and holds for every i by symmetry",
        );
    }
    if without {
        groups.push("for a property without a process parameter, all permutations");
    }
    if groups.is_empty() {
        String::new()
    } else {
        format!(" ({})", groups.join("; "))
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

/// What the reduction left out of the model, if anything.
fn reduced_line(run: &Run) -> String {
    if run.reduced.is_empty() {
        return String::new();
    }
    format!("reduced   {} (--no-reduce)\n", run.reduced)
}

/// For a run with `ltl` properties: which runs count.
fn fairness_line(run: &Run) -> String {
    match run.fair {
        None => String::new(),
        Some(true) => "fairness  weak, per process: every process that stays enabled eventually executes (--fair)\n".into(),
        Some(false) => "fairness  none: every infinite run counts (--fair for weak fairness)\n".into(),
    }
}

/// The lines before the table.
pub fn header(run: &Run) -> String {
    let size_col = run.presentation.count;
    let tool = crate::schema::Tool::this();
    format!(
        "nfold     {} ({})\nmodel     {}\nsymmetry  {}\n{}{}{}{}{}engine    {}\n\n{}",
        tool.version,
        if tool.git == "unknown" {
            "git commit unknown".to_string()
        } else {
            format!("git {}", tool.git)
        },
        run.model.source.name,
        symmetry_line(run),
        ints_line(run.model),
        ranked_ints_line(run),
        dead_line(run),
        reduced_line(run),
        fairness_line(run),
        engine_block(&run.engine_text),
        row(&["size", "property", "verdict", "depth", size_col, "time"]),
    )
}

/// Width of the header's text before a line is broken.
const HEADER_WIDTH: usize = 92;

/// The engine's description as an indented block: one line per phase (its parts
/// joined by `; ` or `, then ` outside parentheses), each wrapped at the header's
/// width. A short description stays on one line.
fn engine_block(text: &str) -> String {
    const INDENT: &str = "            ";
    if text.len() + 10 <= HEADER_WIDTH {
        return text.to_string();
    }
    let mut parts: Vec<String> = Vec::new();
    let (mut depth, mut cur) = (0i32, String::new());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        depth += match c {
            '(' => 1,
            ')' => -1,
            _ => 0,
        };
        let cut = if depth > 0 {
            None
        } else if rest.starts_with("; ") {
            Some((";", 2))
        } else if rest.starts_with(", then ") {
            Some((",", 2))
        } else {
            None
        };
        match cut {
            Some((keep, skip)) => {
                cur.push_str(keep);
                parts.push(std::mem::take(&mut cur));
                rest = &rest[skip..];
            }
            None => {
                cur.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    parts.push(cur);
    let mut lines: Vec<String> = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let first = if i == 0 { 10 } else { INDENT.len() };
        let mut line = String::new();
        for word in part.split(' ') {
            let room = HEADER_WIDTH
                - if lines.len() == i && line.is_empty() {
                    first
                } else {
                    INDENT.len() + 2
                };
            if !line.is_empty() && line.len() + 1 + word.len() > room {
                lines.push(std::mem::take(&mut line));
                line.push_str("  ");
            }
            if !line.is_empty() && !line.ends_with("  ") {
                line.push(' ');
            }
            line.push_str(word);
        }
        lines.push(line);
    }
    lines.join(&format!("\n{INDENT}"))
}

/// What the time column says where a run answered several sizes together: the run's
/// time on the first of their rows, this on the others.
pub const SAME_RUN: &str = "same run";

/// Whether `r` shares its time with `prev`, the report printed just above it: both
/// carry the time of the one run that answered them together.
pub fn same_run(prev: Option<&SizeReport>, r: &SizeReport) -> bool {
    r.shared_time && prev.is_some_and(|p| p.shared_time && p.seconds == r.seconds)
}

/// The sizes whose reports share one run's time, in runs of consecutive reports with
/// that time, with the time.
pub fn shared_groups(reports: &[SizeReport]) -> Vec<(Vec<usize>, f64)> {
    let mut out: Vec<(Vec<usize>, f64)> = Vec::new();
    let mut prev: Option<&SizeReport> = None;
    for r in reports {
        if same_run(prev, r) {
            if let Some(g) = out.last_mut() {
                g.0.push(r.size);
            }
        } else if r.shared_time {
            out.push((vec![r.size], r.seconds));
        }
        prev = Some(r);
    }
    out
}

/// The table rows of one size; `prev` is the report printed just above (a time shared
/// with it is not repeated).
pub fn rows(m: &Model, r: &SizeReport, prev: Option<&SizeReport>) -> String {
    let mut out = String::new();
    let proved = r
        .results
        .iter()
        .any(|p| matches!(p.verdict, Verdict::Holds(Proof::Invariant { .. })));
    let count = r
        .stats
        .count(proved)
        .map(|c| c.to_string())
        .unwrap_or_else(|| "-".into());
    let mut time_shown = same_run(prev, r);
    let mut time = || {
        let t = if time_shown && r.shared_time {
            SAME_RUN.to_string()
        } else {
            format!("{:.2}s", r.seconds)
        };
        time_shown = true;
        t
    };
    for p in &r.results {
        let depth = p
            .depth()
            .map(|d| d.to_string())
            .unwrap_or_else(|| "-".into());
        out.push_str(&row(&[
            &r.size.to_string(),
            &label(m, p),
            &p.verdict.text(),
            &depth,
            &count,
            &time(),
        ]));
    }
    if r.results.is_empty() {
        out.push_str(&row(&[
            &r.size.to_string(),
            "(no property)",
            "-",
            "-",
            &count,
            &time(),
        ]));
    }
    out
}

/// The table's columns: width, right-aligned, and the separator printed before each.
const COLUMNS: [(usize, bool, &str); 6] = [
    (4, true, ""),
    (20, false, "  "),
    (14, false, " "),
    (6, true, " "),
    (12, true, " "),
    (9, true, " "),
];

/// One table row. A cell wider than its column (a long property name, `within ints
/// -2..64`) borrows the padding of the cells to its right, so the row still ends where
/// the others do as long as they have room: rows are printed as sizes are answered, so
/// the widths cannot be fitted to the longest cell beforehand.
fn row(cells: &[&str; 6]) -> String {
    let mut out = String::new();
    let mut debt = 0usize;
    for (cell, &(width, right, sep)) in cells.iter().zip(COLUMNS.iter()) {
        out.push_str(sep);
        let len = cell.chars().count();
        let room = width.saturating_sub(len);
        let taken = room.min(debt);
        debt = debt - taken + len.saturating_sub(width);
        let pad = " ".repeat(room - taken);
        if right {
            out.push_str(&pad);
            out.push_str(cell);
        } else {
            out.push_str(cell);
            out.push_str(&pad);
        }
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::row;

    #[test]
    fn a_long_verdict_borrows_the_padding_to_its_right() {
        let short = row(&["1", "unsafe1", "holds", "-", "4", "0.00s"]);
        let long = row(&["1", "unsafe1", "within ints -2..64", "-", "4", "0.00s"]);
        assert_eq!(short.len(), long.len());
        assert!(long.contains("within ints -2..64 "));
        // No room left: the row grows, but every cell is still separated.
        let huge = row(&["1", &"p".repeat(40), &"v".repeat(40), "123", "45", "0.00s"]);
        assert!(huge.contains(" 123 45 0.00s"));
    }
}
