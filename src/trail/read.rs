//! Reading a trail from JSON: which of the accepted documents a file is, which of its
//! counterexamples to take (`Pick`), and errors that point at the file's line and column.

use super::{Kind, Pick, TraceDoc, Trail};
use crate::schema::{CheckDoc, TrailDoc};
use serde_json::Value;

/// `file:line:col: error: msg` for a JSON error.
fn json_error(file: &str, e: &serde_json::Error) -> String {
    let text = e.to_string();
    let msg = match text.rfind(" at line ") {
        Some(k) => &text[..k],
        None => &text[..],
    };
    let msg = if e.is_eof() {
        "unexpected end of the file (the JSON document is incomplete)"
    } else {
        msg
    };
    format!("{file}:{}:{}: error: {msg}", e.line(), e.column())
}

fn size_of(file: &str, n: i64) -> Result<usize, String> {
    if (1..=64).contains(&n) {
        Ok(n as usize)
    } else {
        Err(format!(
            "{file}: error: the recorded size {n} is not a size (a whole number from 1 to 64)"
        ))
    }
}

fn kind_of(file: &str, t: &TraceDoc) -> Result<Kind, String> {
    match t.kind.as_deref() {
        // An `invariant` block is checked like an `unsafe` one (the model tells them
        // apart by the property's name).
        Some("unsafe" | "invariant") => Ok(Kind::Unsafe),
        Some("deadlock") => Ok(Kind::Deadlock),
        Some("range_error") => Ok(Kind::Range),
        Some("int_bound") => Ok(Kind::IntBound),
        Some("lasso") => Ok(Kind::Lasso),
        Some("run") => Ok(Kind::Run),
        None if t.loop_start.is_some() => Ok(Kind::Lasso),
        None if t.violation.is_none() => Ok(Kind::Run),
        Some(k) => Err(format!(
            "{file}: error: unknown trace kind `{k}` (expected unsafe, invariant, deadlock, range_error, int_bound, lasso or run)"
        )),
        None => Err(format!(
            "{file}: error: the trace does not say what it ends in (no \"kind\")"
        )),
    }
}

/// Read a trail from the text of `file`. Errors are rendered messages (`file:line:col:
/// error: ...` for malformed JSON).
pub fn parse(file: &str, text: &str, pick: &Pick) -> Result<Trail, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| json_error(file, &e))?;
    let Some(obj) = v.as_object() else {
        return Err(format!(
            "{file}:1:1: error: expected a JSON object: a saved trail, a trace, or the output of `nfold check --json` or `nfold live --json`"
        ));
    };
    if obj.contains_key("results") {
        return from_check_doc(file, text, pick);
    }
    if obj.contains_key("trace") {
        let f: TrailDoc = serde_json::from_str(text).map_err(|e| json_error(file, &e))?;
        let size = size_of(file, f.size)?;
        if let Some(s) = pick.size
            && s != size
        {
            return Err(format!(
                "{file}: error: the trail is at size {size}, not {s} (leave --size out)"
            ));
        }
        return Ok(Trail {
            file: file.to_string(),
            model: f.model,
            size,
            data_values: f.data_values,
            int_range: f.int_range,
            kind: kind_of(file, &f.trace)?,
            trace: f.trace,
            row_property: None,
            row_process: None,
        });
    }
    if obj.contains_key("init") && obj.contains_key("steps") {
        let t: TraceDoc = serde_json::from_str(text).map_err(|e| json_error(file, &e))?;
        let Some(size) = pick.size else {
            return Err(format!(
                "{file}: error: a bare trace does not record its size: give it with --size N"
            ));
        };
        return Ok(Trail {
            file: file.to_string(),
            model: None,
            size,
            data_values: None,
            int_range: None,
            kind: kind_of(file, &t)?,
            trace: t,
            row_property: None,
            row_process: None,
        });
    }
    Err(format!(
        "{file}:1:1: error: not a trail: expected {{\"model\", \"size\", \"trace\"}}, a trace {{\"init\", \"steps\", ...}}, or the output of `nfold check --json` or `nfold live --json`"
    ))
}

/// The one counterexample of a `check --json` or `live --json` document that `pick`
/// chooses.
fn from_check_doc(file: &str, text: &str, pick: &Pick) -> Result<Trail, String> {
    let doc: CheckDoc = serde_json::from_str(text).map_err(|e| json_error(file, &e))?;
    let mut found = Vec::new();
    for r in doc.results {
        if let Some(t) = r.trace {
            found.push((r.size as i64, Some(r.property.clone()), r.process, t));
        }
    }
    let total = found.len();
    let listing: Vec<String> = found
        .iter()
        .map(|(n, p, _, _)| format!("size {n} `{}`", p.as_deref().unwrap_or("?")))
        .collect();
    found.retain(|(n, p, _, _)| {
        pick.size.is_none_or(|s| s as i64 == *n)
            && pick
                .property
                .as_ref()
                .is_none_or(|q| p.as_deref() == Some(q.as_str()))
    });
    if found.len() != 1 {
        let why = if total == 0 {
            "the document holds no counterexample (every result has \"trace\": null)".to_string()
        } else if found.is_empty() {
            format!(
                "no counterexample of the document fits --size/--property (it has: {})",
                listing.join(", ")
            )
        } else {
            format!(
                "the document holds {} counterexamples ({}): choose one with --size and --property",
                found.len(),
                listing.join(", ")
            )
        };
        return Err(format!("{file}: error: {why}"));
    }
    let (n, property, process, t) = found.pop().expect("exactly one counterexample is left");
    Ok(Trail {
        file: file.to_string(),
        model: Some(doc.model),
        size: size_of(file, n)?,
        data_values: None,
        int_range: None,
        kind: kind_of(file, &t)?,
        trace: t,
        row_property: property,
        row_process: process,
    })
}

/// Read a trail from a file (`parse` on its contents).
pub fn read(path: &str, pick: &Pick) -> Result<Trail, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: error: cannot read: {e}"))?;
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let before = &e.as_bytes()[..at];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let col = at
                - before
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |k| k + 1)
                + 1;
            return Err(format!(
                "{path}:{line}:{col}: error: not UTF-8 text (a trail is JSON)"
            ));
        }
    };
    parse(path, &text, pick)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_errors_carry_line_and_column() {
        let e = parse(
            "t.json",
            "{\n  \"size\": 2,\n  \"trace\": [1,\n",
            &Pick::default(),
        )
        .unwrap_err();
        assert!(e.starts_with("t.json:4:"), "{e}");
        let e = parse("t.json", "{\"size\": 2, \"trace\": 3}", &Pick::default()).unwrap_err();
        assert!(e.starts_with("t.json:1:"), "{e}");
        assert!(e.contains("invalid type"), "{e}");
        let e = parse("t.json", "[1]", &Pick::default()).unwrap_err();
        assert!(
            e.starts_with("t.json:1:1: error: expected a JSON object"),
            "{e}"
        );
    }
}
