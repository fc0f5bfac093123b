//! The size × property map of verdicts, the one-line summary, the `$` picture of the
//! failing sizes (T. Wahl's thesis, §11.6: see the module `report`) and the table of every row with its figures.
//! A verdict is a word and a colour; the words follow the text report's rule that
//! nothing but a proof reads `holds`, and a row never pairs a violation with `holds`.

use super::{esc, sizes_text};
use crate::schema::{CheckDoc, Row};
use std::fmt::Write;

/// How a row reads in the map: its class (the colour), its verdict in words, and how it
/// was answered.
pub(super) struct Cell {
    pub class: &'static str,
    pub word: String,
    pub how: String,
}

/// The verdict of a row in words. Pseudo-properties say what they are about (`no
/// deadlock`, not `holds`); an answer short of a proof never says `holds`.
pub(super) fn cell(r: &Row) -> Cell {
    let bound = r.stats.bound;
    let (class, word) = match (r.verdict.as_str(), r.kind.as_str()) {
        ("holds", "deadlock") => ("v-holds", "no deadlock".to_string()),
        ("holds", "range_error") => ("v-holds", "no range error".into()),
        ("holds", "int_bound") => ("v-holds", "stays in the int window".into()),
        ("holds", _) => ("v-holds", "holds".into()),
        ("violated", "deadlock") => ("v-violated", "DEADLOCK".into()),
        ("violated", "range_error") => ("v-violated", "RANGE ERROR".into()),
        // Leaving the window is where the check stops, not an error of the model.
        ("violated", "int_bound") => ("v-window", "LEAVES THE INT WINDOW".into()),
        ("violated", _) => ("v-violated", "VIOLATED".into()),
        ("no_violation_up_to", _) => (
            "v-bounded",
            match bound {
                Some(k) => format!("no violation up to depth {k}"),
                None => "no violation up to the bound".into(),
            },
        ),
        ("incomplete", _) => ("v-bounded", "none found (incomplete)".into()),
        ("vacuous", _) => ("v-vacuous", "vacuous: no initial state".into()),
        ("within_int_window", _) => {
            let (lo, hi) = r.int_window.unwrap_or_default();
            let inside = match (r.within.as_deref(), bound) {
                (Some("no_violation_up_to"), Some(k)) => format!("no violation up to depth {k}"),
                _ => "no violation".into(),
            };
            ("v-bounded", format!("{inside} inside ints {lo}..{hi}"))
        }
        ("unknown", _) => ("v-unknown", "unknown".into()),
        (other, _) => ("v-unknown", other.to_string()),
    };
    let how = match (&r.proof, r.verdict.as_str()) {
        (Some(p), _) => match (p.lemmas, &p.engine) {
            (Some(l), Some(e)) if p.how.starts_with("ranking") => {
                format!("proved: ranking over an invariant of {l} lemmas ({e}), checked")
            }
            (Some(l), Some(e)) => format!("proved: invariant of {l} lemmas ({e}), checked"),
            _ => p.how.clone(),
        },
        (None, "violated") => match (&r.trace, r.depth) {
            (Some(t), Some(d)) if t.kind.as_deref() == Some("lasso") => format!(
                "{}lasso of {d} steps",
                if t.fair == Some(true) {
                    "weakly fair "
                } else {
                    ""
                }
            ),
            (_, Some(d)) => format!("at depth {d}"),
            _ => String::new(),
        },
        (None, "within_int_window" | "no_violation_up_to" | "incomplete") => "not a proof".into(),
        _ => String::new(),
    };
    Cell { class, word, how }
}

/// The properties of the run, in the order of their first row: (name, kind).
fn properties(doc: &CheckDoc) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for r in &doc.results {
        let key = (r.property.clone(), r.kind.clone());
        if !out.contains(&key) {
            out.push(key);
        }
    }
    out
}

/// The sizes of the run: those asked for and those answered.
fn sizes(doc: &CheckDoc) -> Vec<usize> {
    let mut s: Vec<usize> = doc
        .sizes
        .iter()
        .copied()
        .chain(doc.results.iter().map(|r| r.size))
        .collect();
    s.sort_unstable();
    s.dedup();
    s
}

/// One line: where the properties are violated, where they hold, what is short of
/// either, and the answer for every n.
pub(super) fn summary(doc: &CheckDoc) -> String {
    // Per size, the row that says least in favour of the model.
    let rank = |c: &str| match c {
        "v-violated" => 0,
        "v-unknown" => 1,
        "v-window" | "v-bounded" => 2,
        "v-vacuous" => 3,
        _ => 4,
    };
    let mut groups: [Vec<usize>; 6] = Default::default();
    for n in sizes(doc) {
        let worst = doc
            .results
            .iter()
            .filter(|r| r.size == n)
            .map(|r| rank(cell(r).class))
            .min()
            .unwrap_or(5);
        groups[worst].push(n);
    }
    let words = [
        "violations at",
        "unknown at",
        "not proved (bounded or incomplete) at",
        "vacuous (no initial state) at",
        "every property holds at",
        "not answered at",
    ];
    let mut parts: Vec<String> = groups
        .iter()
        .zip(words)
        .filter(|(g, _)| !g.is_empty())
        .map(|(g, w)| format!("{w} {}", sizes_text(g)))
        .collect();
    if let Some(e) = &doc.every_n {
        parts.push(match (e.verdict.as_str(), e.cutoff, &e.reason) {
            ("holds", Some(c), _) => format!("for every n: holds (cutoff {c})"),
            ("violated", _, Some(r)) => format!("for every n: {}", violated_text(r)),
            (_, _, Some(r)) => format!("for every n: not proved ({r})"),
            (v, _, _) => format!("for every n: {v}"),
        });
    }
    if let Some(l) = &doc.limit {
        parts.push(format!("stopped: {l}"));
    }
    parts.join("; ")
}

/// The every-n answer for a violation: `VIOLATED at sizes 2..3` from the reason
/// `violated at sizes 2..3`.
fn violated_text(reason: &str) -> String {
    match reason.strip_prefix("violated ") {
        Some(at) => format!("VIOLATED {at}"),
        None => format!("VIOLATED ({reason})"),
    }
}

/// The map: one row per size, one column per property, every cell a verdict in words.
pub(super) fn map(doc: &CheckDoc) -> String {
    let props = properties(doc);
    let mut out = String::from(
        "<section id=\"verdicts\">\n<h2>Verdicts by size and property</h2>\n\
         <table id=\"map\" class=\"map\">\n<thead><tr><th scope=\"col\">size</th>",
    );
    for (name, kind) in &props {
        let _ = write!(
            out,
            "<th scope=\"col\" data-property=\"{}\">{}<br><span class=\"kind\">{}</span></th>",
            esc(name),
            esc(name),
            esc(kind)
        );
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for n in sizes(doc) {
        let _ = write!(out, "<tr data-size=\"{n}\"><th scope=\"row\">{n}</th>");
        for (name, kind) in &props {
            let found = doc
                .results
                .iter()
                .enumerate()
                .find(|(_, r)| r.size == n && &r.property == name && &r.kind == kind);
            let Some((i, r)) = found else {
                let _ = write!(
                    out,
                    "<td class=\"v-none\" data-size=\"{n}\" data-property=\"{}\" data-verdict=\"none\"><span class=\"word\">not answered</span></td>",
                    esc(name)
                );
                continue;
            };
            let c = cell(r);
            let _ = write!(
                out,
                "<td class=\"{}\" data-size=\"{n}\" data-property=\"{}\" data-verdict=\"{}\"><span class=\"word\">{}</span>",
                c.class,
                esc(name),
                esc(&r.verdict),
                esc(&c.word)
            );
            if !c.how.is_empty() {
                let _ = write!(out, "<span class=\"how\">{}</span>", esc(&c.how));
            }
            if r.trace.is_some() {
                let _ = write!(out, "<a class=\"to-steps\" href=\"#cex-{i}\">steps</a>");
            }
            let _ = write!(out, "<span class=\"fig\">{}</span></td>", esc(&figures(r)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
    out.push_str(
        "<p class=\"legend\">Legend: <span class=\"v-holds\">holds</span> proved (by exhaustive search or a checked invariant); \
         <span class=\"v-violated\">VIOLATED</span> a replayed counterexample; \
         <span class=\"v-bounded\">no violation up to …, inside ints …, none found</span> not a proof; \
         <span class=\"v-window\">LEAVES THE INT WINDOW</span> a run leaves the int window (the check stops there); \
         <span class=\"v-vacuous\">vacuous</span> no initial state; \
         <span class=\"v-unknown\">unknown</span> not answered.</p>\n",
    );
    if let Some(e) = &doc.every_n {
        let text = match (e.verdict.as_str(), e.cutoff, &e.reason) {
            ("holds", Some(c), _) => format!(
                "For every n: holds, by an invariant of {} lemmas ({}) checked up to the cutoff {c}",
                e.lemmas.unwrap_or(0),
                e.how.as_deref().unwrap_or("?")
            ),
            ("violated", _, Some(r)) => format!("For every n: {}", violated_text(r)),
            (_, _, Some(r)) => format!("For every n: not proved: {r}"),
            (v, _, _) => format!("For every n: {v}"),
        };
        let class = match e.verdict.as_str() {
            "holds" => "v-holds",
            "violated" => "v-violated",
            _ => "v-bounded",
        };
        let _ = writeln!(
            out,
            "<p id=\"every-n\" class=\"{class}\">{} ({:.2} s)</p>",
            esc(&text),
            e.seconds
        );
    }
    out.push_str("</section>\n");
    out
}

/// A row's figures: engine, the count the engine gave, time.
fn figures(r: &Row) -> String {
    let mut parts = vec![r.engine.clone()];
    if let Some(s) = r.stats.states {
        parts.push(format!("{s} states"));
    } else if let Some(l) = r.stats.lemmas {
        parts.push(format!("{l} lemmas"));
    } else if let Some(c) = r.stats.clauses {
        parts.push(format!("{c} clauses"));
    }
    parts.push(format!(
        "{:.2} s{}",
        r.seconds,
        if r.shared_time {
            " (one run for several sizes)"
        } else {
            ""
        }
    ));
    parts.join(" · ")
}

/// The `$` picture: the sizes with a violation as rows of the aggregate of the largest
/// size, `$` in the slots absent at that size.
pub(super) fn picture(doc: &CheckDoc) -> String {
    if doc.picture.is_empty() {
        return String::new();
    }
    let slots = doc.picture.iter().map(|r| r.slots.len()).max().unwrap_or(0);
    let cells = doc
        .picture
        .iter()
        .flat_map(|r| &r.slots)
        .any(|s| s != "$" && s != "-");
    let mut out = format!(
        "<section id=\"picture-section\">\n<h2>The failing sizes as states of the aggregate</h2>\n\
         <p>Each size with a violation is a row of the aggregate of {slots} slots (the instance with the most processes, where a smaller size leaves slots absent): \
         <code>$</code> marks a slot absent at that size, {}.</p>\n\
         <table id=\"picture\" class=\"picture\">\n<thead><tr><th scope=\"col\">size</th>",
        if cells {
            "a present slot shows its process's cells in the initial state of the lasso"
        } else {
            "<code>-</code> a present one"
        }
    );
    for k in 1..=slots {
        let _ = write!(out, "<th scope=\"col\">{k}</th>");
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for r in &doc.picture {
        let _ = write!(
            out,
            "<tr data-size=\"{}\"><th scope=\"row\">{}</th>",
            r.size, r.size
        );
        for s in &r.slots {
            let class = if s == "$" { "slot absent" } else { "slot" };
            let _ = write!(out, "<td class=\"{class}\">{}</td>", esc(s));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</section>\n");
    out
}

/// Every row with all its figures, and the transitions' coverage, folded.
pub(super) fn details(doc: &CheckDoc) -> String {
    let mut out = String::from(
        "<section id=\"rows\">\n<h2>Every row</h2>\n<details>\n<summary>the rows of the JSON document with their figures</summary>\n\
         <table class=\"rows\">\n<thead><tr><th>size</th><th>property</th><th>kind</th><th>verdict</th><th>depth</th>\
         <th>engine</th><th>symmetry</th><th>states</th><th>transitions</th><th>lemmas</th><th>answered depth</th><th>time</th></tr></thead>\n<tbody>\n",
    );
    let opt = |x: Option<String>| x.unwrap_or_else(|| "-".into());
    for r in &doc.results {
        let c = cell(r);
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"{}\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.3} s{}</td></tr>",
            r.size,
            esc(&r.property),
            esc(&r.kind),
            c.class,
            esc(&c.word),
            opt(r.depth.map(|d| d.to_string())),
            esc(&r.engine),
            if r.symmetry { "used" } else { "not used" },
            opt(r.stats.states.map(|d| d.to_string())),
            opt(r.stats.transitions.map(|d| d.to_string())),
            opt(r.stats.lemmas.map(|d| d.to_string())),
            opt(r.answered_depth.map(|d| d.to_string())),
            r.seconds,
            if r.shared_time { " (shared)" } else { "" }
        );
    }
    out.push_str("</tbody>\n</table>\n</details>\n");
    if let Some(cov) = &doc.coverage {
        let _ = write!(
            out,
            "<details>\n<summary>transitions fired in the exhaustive searches ({})</summary>\n\
             <table class=\"rows\">\n<thead><tr><th>transition</th><th>line</th><th>has instances at</th><th>fired at</th></tr></thead>\n<tbody>\n",
            esc(&sizes_text(&cov.exhaustive_sizes))
        );
        for t in &cov.transitions {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&t.transition),
                t.line,
                esc(&sizes_text(&t.instances_at)),
                esc(&sizes_text(&t.fired_at))
            );
        }
        out.push_str("</tbody>\n</table>\n</details>\n");
    }
    out.push_str("</section>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A document of one row per (size, property, kind, verdict), from JSON.
    fn doc(rows: &[(usize, &str, &str, &str)], every: Option<&str>) -> CheckDoc {
        let results: Vec<serde_json::Value> = rows
            .iter()
            .map(|(n, p, k, v)| {
                serde_json::json!({"size": n, "property": p, "kind": k, "verdict": v,
                    "seconds": 0.0, "engine": "explicit", "symmetry": true})
            })
            .collect();
        let mut d = serde_json::json!({"schema": 2,
            "tool": {"name": "nfold", "version": "0", "git": "x"}, "model": "m.cub",
            "engine": "explicit", "engine_text": "", "symmetry_use": "", "symmetric": true,
            "symmetry": "", "sizes": [1, 2], "results": results, "seconds": 0.0,
            "mode": "one-by-one"});
        if let Some(r) = every {
            d["every_n"] = serde_json::json!({"verdict": "violated", "reason": r, "seconds": 0.0});
        }
        serde_json::from_value(d).unwrap()
    }

    #[test]
    fn pseudo_properties_never_read_holds() {
        let d = doc(
            &[
                (1, "deadlock", "deadlock", "holds"),
                (2, "deadlock", "deadlock", "violated"),
                (1, "int_bound", "int_bound", "violated"),
            ],
            None,
        );
        let words: Vec<String> = d.results.iter().map(|r| cell(r).word).collect();
        assert_eq!(words, ["no deadlock", "DEADLOCK", "LEAVES THE INT WINDOW"]);
    }

    #[test]
    fn a_violation_is_never_called_not_proved() {
        let d = doc(
            &[(1, "p", "unsafe", "holds"), (2, "p", "unsafe", "violated")],
            Some("violated at size 2"),
        );
        let s = summary(&d);
        assert_eq!(
            s,
            "violations at size 2; every property holds at size 1; for every n: VIOLATED at size 2"
        );
        assert!(map(&d).contains("class=\"v-violated\">For every n: VIOLATED at size 2"));
    }
}
