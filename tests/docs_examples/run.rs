//! Running an example's commands through the built binary, choosing the lines shown,
//! laying out JSON, and normalising what varies from run to run.

use super::markdown::Options;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Whether `program` is on the PATH.
pub fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(program).is_file()))
}

/// The words of a command line: blanks separate, `'...'` and `"..."` quote.
pub fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            (None, c) => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// A directory for one example: links to every entry of the repository root, then of
/// `dir` (which win), so that `families/...` and the example's own files both resolve
/// and the files the commands write stay out of the repository.
fn workdir(dir: Option<&str>, tag: &str) -> std::io::Result<PathBuf> {
    let wd = std::env::temp_dir().join(format!("nfold-docs-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&wd);
    std::fs::create_dir_all(&wd)?;
    let mut sources = vec![root()];
    if let Some(d) = dir {
        sources.push(root().join(d));
    }
    for src in sources {
        for e in std::fs::read_dir(&src)? {
            let e = e?;
            let link = wd.join(e.file_name());
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(e.path(), link)?;
        }
    }
    Ok(wd)
}

/// Run one command line in `wd`, stdout and stderr into one stream in the order they
/// were written (as a terminal shows them). A trailing `> /dev/null` drops stdout.
fn run_one(line: &str, wd: &Path) -> Result<Vec<String>, String> {
    let mut w = words(line);
    let mut drop_stdout = false;
    if w.len() >= 2 && w[w.len() - 2] == ">" && w[w.len() - 1] == "/dev/null" {
        w.truncate(w.len() - 2);
        drop_stdout = true;
    }
    let Some((program, args)) = w.split_first() else {
        return Err("an empty command".into());
    };
    let program = if program == "nfold" {
        PathBuf::from(env!("CARGO_BIN_EXE_nfold"))
    } else {
        PathBuf::from(program)
    };
    let out_path = wd.join(".docs-example-output");
    let file = std::fs::File::create(&out_path).map_err(|e| e.to_string())?;
    let err = file.try_clone().map_err(|e| e.to_string())?;
    let stdout = if drop_stdout {
        Stdio::null()
    } else {
        Stdio::from(file)
    };
    let mut cmd = Command::new(&program);
    // `command` in JSON documents says `nfold`, as typed.
    std::os::unix::process::CommandExt::arg0(&mut cmd, w[0].as_str());
    let status = cmd
        .args(args)
        .current_dir(wd)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::from(err))
        .status()
        .map_err(|e| format!("cannot run `{line}`: {e}"))?;
    let _ = status;
    let text = std::fs::read_to_string(&out_path).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(&out_path);
    Ok(text.lines().map(str::to_string).collect())
}

/// The commands of a block: its `$ ` lines.
pub fn commands(text: &[String]) -> Vec<String> {
    text.iter()
        .filter_map(|l| l.strip_prefix("$ "))
        .map(str::to_string)
        .collect()
}

/// Run the commands of an example and return the block it should have: each `$`
/// line followed by its output, as the options show it.
pub fn regenerate(cmds: &[String], o: &Options, tag: &str) -> Result<Vec<String>, String> {
    let wd = workdir(o.dir.as_deref(), tag).map_err(|e| format!("work directory: {e}"))?;
    let mut block = Vec::new();
    let specs: Vec<&str> = o
        .keep
        .as_deref()
        .map_or(Vec::new(), |k| k.split('|').collect());
    for (i, c) in cmds.iter().enumerate() {
        let mut out = run_one(c, &wd)?;
        out.retain(|l| !is_progress(l));
        if o.json {
            let doc: Value = serde_json::from_str(&out.join("\n"))
                .map_err(|e| format!("`{c}` did not print one JSON document: {e}"))?;
            out = render_json(&cut(doc, &o.cut));
        }
        // One spec serves every command, else one per command.
        let spec = specs
            .get(if specs.len() == 1 { 0 } else { i })
            .map(|k| k.trim());
        if let Some(k) = spec.filter(|k| *k != "all") {
            out = keep(&out, k)?;
        }
        block.push(format!("$ {c}"));
        block.extend(out);
    }
    let _ = std::fs::remove_dir_all(&wd);
    Ok(block)
}

/// A progress line (they depend on timing, and appear only in long runs).
fn is_progress(l: &str) -> bool {
    l.starts_with("nfold: [") || l.starts_with("{\"progress\"")
}

/// The lines `spec` selects, each gap between them shown as one `...` line. `spec`:
/// items separated by `,`, each `N` (line N from 1; negative from the end), `/T/`
/// (every line containing T; `/^T/`: starting with T), or a range `A..B` of line
/// numbers or patterns (B: the first line matching at or after A; empty B: to the
/// end).
pub fn keep(lines: &[String], spec: &str) -> Result<Vec<String>, String> {
    let n = lines.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    let mut chosen = vec![false; n];
    let matches = |pat: &str, l: &str| match pat.strip_prefix('^') {
        Some(p) => l.starts_with(p),
        None => l.contains(pat),
    };
    let find = |item: &str, from: usize| -> Result<Option<usize>, String> {
        let item = item.trim();
        if let Some(p) = item.strip_prefix('/').and_then(|r| r.strip_suffix('/')) {
            return Ok((from..n).find(|&i| matches(p, &lines[i])));
        }
        let k: i64 = item
            .parse()
            .map_err(|_| format!("`{item}` is neither a line number nor /text/"))?;
        let i = if k < 0 { n as i64 + k } else { k - 1 };
        Ok((0..n as i64).contains(&i).then_some(i as usize))
    };
    for item in spec.split(',').map(str::trim) {
        if let Some((a, b)) = item.split_once("..") {
            let Some(s) = find(a, 0)? else {
                return Err(format!("`{a}` selects no line"));
            };
            let e = if b.trim().is_empty() {
                n - 1
            } else {
                find(b, s)?.ok_or_else(|| format!("`{b}` selects no line after `{a}`"))?
            };
            chosen[s..=e].iter_mut().for_each(|c| *c = true);
        } else if let Some(p) = item.strip_prefix('/').and_then(|r| r.strip_suffix('/')) {
            // May select nothing: one keep serves every command of a block.
            for (i, l) in lines.iter().enumerate() {
                chosen[i] |= matches(p, l);
            }
        } else {
            let i = find(item, 0)?.ok_or_else(|| format!("`{item}` selects no line"))?;
            chosen[i] = true;
        }
    }
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if chosen[i] {
            out.push(l.clone());
        } else if out.last().is_none_or(|x| x != "...") || i == 0 {
            out.push("...".into());
        }
    }
    Ok(out)
}

/// `doc` with the arrays at `paths` cut to their first element.
fn cut(mut doc: Value, paths: &[String]) -> Value {
    fn at(v: &mut Value, path: &[&str]) {
        match (path.split_first(), v) {
            (None, Value::Array(a)) => a.truncate(1),
            (Some((&"*", rest)), Value::Array(a)) => a.iter_mut().for_each(|x| at(x, rest)),
            (Some((k, rest)), Value::Object(m)) => {
                if let Some(x) = m.get_mut(*k) {
                    at(x, rest);
                }
            }
            _ => {}
        }
    }
    for p in paths {
        at(&mut doc, &p.split('.').collect::<Vec<_>>());
    }
    doc
}

/// Width a JSON value is written on one line within.
const WIDTH: usize = 88;

/// A JSON document laid out to read: an object or array on one line when it fits in
/// `WIDTH` columns, else one member per line; objects keep their order.
pub fn render_json(v: &Value) -> Vec<String> {
    let mut out = Vec::new();
    layout(v, "", "", "", &mut out);
    out
}

fn layout(v: &Value, indent: &str, prefix: &str, suffix: &str, out: &mut Vec<String>) {
    let flat = serde_json::to_string(v).unwrap_or_default();
    let flat = spaced(&flat);
    let (open, close, items): (&str, &str, Vec<(String, &Value)>) = match v {
        Value::Object(m) if !m.is_empty() => (
            "{",
            "}",
            m.iter()
                .map(|(k, x)| (format!("{}: ", Value::String(k.clone())), x))
                .collect(),
        ),
        Value::Array(a) if !a.is_empty() => {
            ("[", "]", a.iter().map(|x| (String::new(), x)).collect())
        }
        _ => ("", "", Vec::new()),
    };
    if items.is_empty() || indent.len() + prefix.len() + flat.len() + suffix.len() <= WIDTH {
        out.push(format!("{indent}{prefix}{flat}{suffix}"));
        return;
    }
    out.push(format!("{indent}{prefix}{open}"));
    let inner = format!("{indent}  ");
    let last = items.len() - 1;
    for (i, (key, x)) in items.iter().enumerate() {
        layout(x, &inner, key, if i == last { "" } else { "," }, out);
    }
    out.push(format!("{indent}{close}{suffix}"));
}

/// serde_json's compact text with a space after `:` and `,` outside strings.
fn spaced(s: &str) -> String {
    let mut out = String::new();
    let (mut in_str, mut esc) = (false, false);
    for c in s.chars() {
        out.push(c);
        if in_str {
            match (esc, c) {
                (true, _) => esc = false,
                (false, '\\') => esc = true,
                (false, '"') => in_str = false,
                _ => {}
            }
        } else if c == '"' {
            in_str = true;
        } else if c == ':' || c == ',' {
            out.push(' ');
        }
    }
    out
}

/// What varies between runs, replaced in both the block and the fresh output before
/// they are compared (see the module comment of `tests/docs_examples.rs`).
pub fn normalise(lines: &[String], json: bool) -> Vec<String> {
    let text: Vec<String> = if json {
        let body = lines
            .iter()
            .skip_while(|l| l.starts_with("$ "))
            .cloned()
            .collect::<Vec<_>>()
            .join("\n");
        match serde_json::from_str::<Value>(&body) {
            Ok(mut v) => {
                json_varying(&mut v);
                let mut out: Vec<String> = lines
                    .iter()
                    .take_while(|l| l.starts_with("$ "))
                    .cloned()
                    .collect();
                out.extend(render_json(&v));
                out
            }
            Err(_) => lines.to_vec(),
        }
    } else {
        lines.to_vec()
    };
    text.iter()
        .filter(|l| !is_progress(l))
        .map(|l| text_varying(l))
        .collect()
}

/// JSON members whose values vary between runs.
const VARYING_KEYS: &[&str] = &["seconds", "shown_at", "peak_memory_bytes", "version", "git"];

fn json_varying(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if VARYING_KEYS.contains(&k.as_str()) && !x.is_null() {
                    *x = Value::String("<varies>".into());
                } else {
                    json_varying(x);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(json_varying),
        _ => {}
    }
}

/// One line with times and memory figures replaced and runs of blanks made one.
fn text_varying(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() == Some(&"nfold")
        && words
            .get(1)
            .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_digit()))
    {
        return "nfold <version>".into();
    }
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        // An opening parenthesis is kept in front of what follows it ("(0.01s):").
        let (open, w) = match words[i].strip_prefix('(') {
            Some(rest) => ("(", rest),
            None => ("", words[i]),
        };
        let next = words.get(i + 1).copied().unwrap_or("");
        let (num, unit) = split_number(w);
        let tail = |u: &str| u.trim_end_matches([',', ';', ':', ')', '.']).to_string();
        if !num.is_empty() && num.contains('.') && is_time_unit(&tail(unit)) {
            out.push(format!("{open}<time>{}", &unit[tail(unit).len()..]));
        } else if !num.is_empty() && unit.is_empty() && is_time_unit(&tail(next)) {
            out.push(format!("{open}<time>{}", &next[tail(next).len()..]));
            i += 1;
        } else if !num.is_empty() && unit.is_empty() && is_memory_unit(&tail(next)) {
            out.push(format!("{open}<memory>{}", &next[tail(next).len()..]));
            i += 1;
        } else {
            out.push(words[i].to_string());
        }
        i += 1;
    }
    out.join(" ")
}

/// A word's leading number (digits and one `.`, after an optional `(`) and the rest.
fn split_number(w: &str) -> (&str, &str) {
    let w = w.strip_prefix('(').unwrap_or(w);
    let end = w
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_digit() || c == '.'))
        .map_or(w.len(), |(i, _)| i);
    let num = &w[..end];
    if num.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        (num, &w[end..])
    } else {
        ("", w)
    }
}

fn is_time_unit(u: &str) -> bool {
    matches!(u, "s" | "ms" | "sec")
}

fn is_memory_unit(u: &str) -> bool {
    matches!(u, "KiB" | "MiB" | "GiB" | "MB" | "GB")
}

#[test]
fn words_keep_and_normalise() {
    assert_eq!(
        words(r#"berkeley-abc -c "read g.aig; pdr" x"#),
        vec!["berkeley-abc", "-c", "read g.aig; pdr", "x"]
    );
    let lines: Vec<String> = ["a", "size 1", "b", "c", "holds"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(
        keep(&lines, "/^size/..3, -1").unwrap(),
        vec!["...", "size 1", "b", "...", "holds"]
    );
    assert_eq!(keep(&lines, "/nothing/").unwrap(), vec!["..."]);
    assert!(keep(&lines, "/nothing/..").is_err());
    assert_eq!(
        text_varying("holds at sizes 1..5;  0.37s, peak memory 6.1 MiB"),
        "holds at sizes 1..5; <time>, peak memory <memory>"
    );
    assert_eq!(
        text_varying("   2  mutex   VIOLATED   6   11     12.30s"),
        "2 mutex VIOLATED 6 11 <time>"
    );
    assert_eq!(
        text_varying("(0.8 s on the machine; depth 10)"),
        "(<time> on the machine; depth 10)"
    );
    assert_eq!(
        text_varying("by one run (0.01s): its time"),
        "by one run (<time>): its time"
    );
    assert_eq!(
        text_varying("nfold     0.1.0 (git 3384e9dc5614)"),
        "nfold <version>"
    );
    assert_eq!(
        render_json(&serde_json::json!({"a": [1, 2], "b": {"c": "d"}})),
        vec![r#"{"a": [1, 2], "b": {"c": "d"}}"#]
    );
}
