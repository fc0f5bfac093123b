//! The HTML report of a run (`nfold check|live --report FILE.html`): one self-contained
//! page, no network (inline CSS, no script, no external reference), drawn from the run's
//! JSON document (`schema::CheckDoc`) alone, so that the page cannot say anything the
//! `--json` document does not. It stands on a floor of its own between the engines and
//! `cli` (docs/internals.md): it reads the document's types and nothing of the engines.
//!
//! The page holds the run's settings, the size × property map of verdicts (`map`), the
//! `$` picture of the failing sizes as rows of the aggregate (T. Wahl, Exploiting
//! Replication in Automated Program Verification, PhD thesis, UT Austin 2007, §11.6),
//! every counterexample and lasso as a step table by process with the changed cells
//! marked (`steps`), the lemmas of the proofs (`proof`), and the notes and warnings.
//! Every verdict is written in words as well as in colour, so the page reads the same
//! printed in black and white or without its style sheet. Every name from the model
//! (properties, transitions, cells, values) goes through `esc`.

mod map;
mod proof;
mod steps;

use crate::schema::{CheckDoc, WarningDoc};
use std::fmt::Write;

/// The style sheet, inlined into every page.
const STYLE: &str = include_str!("style.css");

/// The report page of a run, as one HTML document.
pub fn page(doc: &CheckDoc) -> String {
    let mut out = String::new();
    let title = format!("nfold {}: {}", command_name(doc), doc.model);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n",
        esc(&title)
    );
    let _ = writeln!(
        out,
        "<header><h1>{}</h1>\n<p class=\"summary\" id=\"summary\">{}</p></header>",
        esc(&title),
        esc(&map::summary(doc))
    );
    out.push_str("<main>\n");
    out.push_str(&settings(doc));
    out.push_str(&map::map(doc));
    out.push_str(&map::picture(doc));
    out.push_str(&steps::counterexamples(doc));
    out.push_str(&proof::lemmas(doc));
    out.push_str(&notes(doc));
    out.push_str(&map::details(doc));
    out.push_str("</main>\n");
    let _ = writeln!(
        out,
        "<footer>Written by {} {} (git {}) from its JSON document (schema {}).</footer>",
        esc(&doc.tool.name),
        esc(&doc.tool.version),
        esc(&doc.tool.git),
        doc.schema
    );
    out.push_str("</body>\n</html>\n");
    out
}

/// `check` or `live`, from the command line when the document has it.
fn command_name(doc: &CheckDoc) -> &str {
    match doc.command.get(1).map(String::as_str) {
        Some(c @ ("check" | "live")) => c,
        _ => "report",
    }
}

/// The HTML list `<tag class="class">` of `items`, each item's inner HTML made by
/// `item`.
fn list<T>(out: &mut String, tag: &str, class: &str, items: &[T], item: impl Fn(&T) -> String) {
    let _ = writeln!(out, "<{tag} class=\"{class}\">");
    for x in items {
        let _ = writeln!(out, "<li>{}</li>", item(x));
    }
    let _ = writeln!(out, "</{tag}>");
}

/// Text made safe for HTML content and quoted attribute values: every name in the page
/// comes from the model, which is user input.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Sizes as text: `1..3`, `2, 4, 6`, `size 1`.
pub(crate) fn sizes_text(sizes: &[usize]) -> String {
    let mut s = sizes.to_vec();
    s.sort_unstable();
    s.dedup();
    match s.as_slice() {
        [] => "no size".into(),
        [one] => format!("size {one}"),
        [first, .., last] if last - first + 1 == s.len() => format!("sizes {first}..{last}"),
        _ => format!(
            "sizes {}",
            s.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The settings of the run, as a two-column table.
fn settings(doc: &CheckDoc) -> String {
    let mut rows: Vec<(&str, String)> = vec![
        ("model", esc(&doc.model)),
        (
            "tool",
            format!(
                "{} {} (git <code>{}</code>)",
                esc(&doc.tool.name),
                esc(&doc.tool.version),
                esc(&doc.tool.git)
            ),
        ),
    ];
    if !doc.command.is_empty() {
        rows.push((
            "command",
            format!("<code>{}</code>", esc(&shell_words(&doc.command))),
        ));
    }
    // The engine's text usually opens with its name (`auto: ...`): not twice.
    let engine_text = doc
        .engine_text
        .strip_prefix(&format!("{}:", doc.engine))
        .unwrap_or(&doc.engine_text)
        .trim_start();
    rows.push((
        "engine",
        format!("<b>{}</b>: {}", esc(&doc.engine), esc(engine_text)),
    ));
    rows.push((
        "sizes",
        format!("{} ({})", esc(&sizes_text(&doc.sizes)), esc(&doc.mode)),
    ));
    rows.push((
        "symmetry",
        // The text header's own words (an older document without them: the analysis).
        if doc.symmetry_use.is_empty() {
            esc(&doc.symmetry)
        } else {
            esc(&doc.symmetry_use)
        },
    ));
    if let Some(fair) = doc.fair {
        rows.push((
            "fairness",
            if fair {
                "weak, per process: only runs in which every process that stays enabled \
                 eventually executes count (--fair)"
                    .into()
            } else {
                "none: every run counts".into()
            },
        ));
    }
    if let Some(k) = doc.bound {
        rows.push(("depth bound", k.to_string()));
    }
    if let Some(w) = &doc.int_window {
        let mut t = format!(
            "{}..{} ({})",
            w.lo,
            w.hi,
            if w.given {
                "given by --int-range"
            } else {
                "derived from the model"
            }
        );
        if !w.free.is_empty() {
            let _ = write!(t, "; initial values free over it: {}", w.free.join(", "));
        }
        rows.push(("int window", esc(&t)));
    }
    if !doc.dead_cells.is_empty() {
        rows.push(("dead cells", esc(&doc.dead_cells.join("; "))));
    }
    rows.push((
        "limit",
        match &doc.limit {
            Some(l) => format!("<span class=\"w-stop\">stopped: {}</span>", esc(l)),
            None => "none reached".into(),
        },
    ));
    rows.push(("time", format!("{:.2} s", doc.seconds)));
    if let Some(b) = doc.peak_memory_bytes {
        rows.push((
            "peak memory",
            format!("{:.1} MiB", b as f64 / (1024.0 * 1024.0)),
        ));
    }
    let mut out =
        String::from("<section id=\"settings\">\n<h2>Settings</h2>\n<table class=\"settings\">\n");
    for (k, v) in rows {
        let _ = writeln!(out, "<tr><th scope=\"row\">{k}</th><td>{v}</td></tr>");
    }
    out.push_str("</table>\n</section>\n");
    out
}

/// A command line as a shell would read it back (single quotes where needed), the
/// binary's path cut to its name.
fn shell_words(args: &[String]) -> String {
    args.iter()
        .enumerate()
        .map(|(i, a)| {
            let a = if i == 0 {
                a.rsplit('/').next().unwrap_or(a)
            } else {
                a.as_str()
            };
            let plain = !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
            if plain {
                a.to_string()
            } else {
                format!("'{}'", a.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The notes, the dead-code warnings and the internal errors of the run.
fn notes(doc: &CheckDoc) -> String {
    let errors: Vec<String> = doc
        .results
        .iter()
        .flat_map(|r| {
            r.internal_errors
                .iter()
                .map(move |e| format!("size {}, {}: {e}", r.size, r.property))
        })
        .collect();
    if doc.notes.is_empty() && doc.warnings.is_empty() && errors.is_empty() {
        return String::new();
    }
    let mut out = String::from("<section id=\"notes\">\n<h2>Notes and warnings</h2>\n");
    if !errors.is_empty() {
        out.push_str(
            "<p class=\"w-error\"><b>Internal errors</b> (an engine bug: the verdicts concerned are <code>unknown</code>):</p>\n",
        );
        list(&mut out, "ul", "errors", &errors, |e| esc(e));
    }
    if !doc.warnings.is_empty() {
        list(&mut out, "ul", "warnings", &doc.warnings, |w| {
            format!("<b>warning:</b> {}", esc(&warning_text(w)))
        });
    }
    if !doc.notes.is_empty() {
        list(&mut out, "ul", "notes", &doc.notes, |n| {
            format!("<b>note:</b> {}", esc(n))
        });
    }
    out.push_str("</section>\n");
    out
}

/// A dead-code warning in words.
fn warning_text(w: &WarningDoc) -> String {
    let at = sizes_text(&w.sizes);
    let prop = w.property.as_deref().unwrap_or("?");
    let pkind = w.property_kind.as_deref().unwrap_or("property");
    match w.kind.as_str() {
        "never_fired" => format!(
            "transition `{}` (line {}) never fired at {at}",
            w.transition.as_deref().unwrap_or("?"),
            w.line
        ),
        "unsatisfiable" => format!(
            "{pkind} `{prop}` (line {}): no state satisfies its formula at {at}",
            w.line
        ),
        "never_true" => format!(
            "conjunct `{}` of {pkind} `{prop}` (line {}) is true in no reachable state at {at}",
            w.conjunct.as_deref().unwrap_or("?"),
            w.line
        ),
        other => format!("{other} (line {}) at {at}", w.line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_every_markup_character() {
        assert_eq!(
            esc("<a href=\"x\">O'Neil & co</a>"),
            "&lt;a href=&quot;x&quot;&gt;O&#39;Neil &amp; co&lt;/a&gt;"
        );
    }

    #[test]
    fn sizes_read_as_ranges_or_lists() {
        assert_eq!(sizes_text(&[3, 1, 2]), "sizes 1..3");
        assert_eq!(sizes_text(&[2, 4]), "sizes 2, 4");
        assert_eq!(sizes_text(&[5]), "size 5");
        assert_eq!(sizes_text(&[]), "no size");
    }

    #[test]
    fn command_lines_quote_what_a_shell_would_split() {
        let args: Vec<String> = [
            "/x/target/release/nfold",
            "check",
            "a b.cub",
            "--sizes",
            "1..3",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(shell_words(&args), "nfold check 'a b.cub' --sizes 1..3");
    }
}
