//! The marked blocks of a Markdown page: where they are, what their marker asks, and
//! how a page is written back with new block bodies.

/// What a marker asks of the block after it.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// `<!-- example: OPTIONS -->`: the block is commands (`$ ...` lines) and their
    /// output.
    Example(Options),
    /// `<!-- file: PATH -->`: the block is the whole file PATH (relative to the
    /// repository root); `<!-- file: PATH; excerpt -->`: its lines appear in the file, in
    /// order.
    File { path: String, excerpt: bool },
}

/// The options of an `example` marker (separated by `;`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    /// `slow`: the test skips it; `scripts/docs_examples.sh` still reruns it.
    pub slow: bool,
    /// `dir=PATH`: the files of this directory (relative to the repository root) are
    /// beside the repository's own in the directory the commands run in.
    pub dir: Option<String>,
    /// `keep=SEL, SEL...`: the output lines shown (see `run::keep`); by default all.
    /// `keep=SPEC | SPEC...`: one spec per command of the block (`all`: every line).
    pub keep: Option<String>,
    /// `json`: the output is one JSON document, shown as `run::render_json` lays it out.
    pub json: bool,
    /// `cut=PATH, PATH...` (with `json`): arrays shown with their first element only
    /// (`results.*.trace.steps`: `*` is every element of an array).
    pub cut: Vec<String>,
    /// `requires=PROGRAM`: skipped (by the test and the script) when PROGRAM is not on
    /// the PATH.
    pub requires: Option<String>,
}

/// One marked block.
#[derive(Clone, Debug)]
pub struct Block {
    pub kind: Kind,
    /// The marker's line number (1-based), for messages.
    pub line: usize,
    /// The indentation of the fence, removed from the body's lines.
    pub indent: String,
    /// The body's line range in the page (0-based, excluding the fences).
    pub body: std::ops::Range<usize>,
    /// The body, unindented.
    pub text: Vec<String>,
}

fn parse_options(s: &str, line: usize) -> Result<Options, String> {
    let mut o = Options::default();
    for part in s.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, value) = match part.split_once('=') {
            Some((k, v)) => (k.trim(), Some(v.trim().to_string())),
            None => (part, None),
        };
        match (key, value) {
            ("slow", None) => o.slow = true,
            ("json", None) => o.json = true,
            ("dir", Some(v)) => o.dir = Some(v),
            ("keep", Some(v)) => o.keep = Some(v),
            ("requires", Some(v)) => o.requires = Some(v),
            ("cut", Some(v)) => o.cut = v.split(',').map(|c| c.trim().to_string()).collect(),
            _ => return Err(format!("line {line}: unknown example option `{part}`")),
        }
    }
    Ok(o)
}

/// The marker on this line, if it is one.
fn marker(line: &str, number: usize) -> Result<Option<Kind>, String> {
    let t = line.trim();
    let Some(inner) = t.strip_prefix("<!--").and_then(|r| r.strip_suffix("-->")) else {
        return Ok(None);
    };
    let inner = inner.trim();
    if inner == "example" {
        return Ok(Some(Kind::Example(Options::default())));
    }
    if let Some(rest) = inner.strip_prefix("example:") {
        return parse_options(rest, number).map(|o| Some(Kind::Example(o)));
    }
    if let Some(rest) = inner.strip_prefix("file:") {
        let mut parts = rest.split(';').map(str::trim);
        let path = parts.next().unwrap_or_default().to_string();
        let excerpt = match parts.next() {
            None => false,
            Some("excerpt") => true,
            Some(o) => return Err(format!("line {number}: unknown file option `{o}`")),
        };
        return Ok(Some(Kind::File { path, excerpt }));
    }
    Ok(None)
}

/// Every marked block of `page`; a marker must be followed directly by a fenced block.
pub fn blocks(page: &str) -> Result<Vec<Block>, String> {
    let lines: Vec<&str> = page.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(kind) = marker(lines[i], i + 1)? else {
            i += 1;
            continue;
        };
        let fence_line = lines
            .get(i + 1)
            .ok_or_else(|| format!("line {}: a marker at the end of the page", i + 1))?;
        let indent: String = fence_line
            .chars()
            .take_while(|c| c.is_whitespace())
            .collect();
        if !fence_line.trim_start().starts_with("```") {
            return Err(format!(
                "line {}: a marker must be followed by a ``` block",
                i + 1
            ));
        }
        let start = i + 2;
        let end = (start..lines.len())
            .find(|&k| lines[k].trim() == "```")
            .ok_or_else(|| format!("line {}: the block is not closed", i + 1))?;
        let text = lines[start..end]
            .iter()
            .map(|l| l.strip_prefix(indent.as_str()).unwrap_or(l.trim_start()))
            .map(str::to_string)
            .collect();
        out.push(Block {
            kind,
            line: i + 1,
            indent,
            body: start..end,
            text,
        });
        i = end + 1;
    }
    Ok(out)
}

/// `page` with the bodies of some blocks replaced (`(block, new body lines)`), indented
/// as their fences.
pub fn rewrite(page: &str, new: &[(&Block, Vec<String>)]) -> String {
    let lines: Vec<&str> = page.lines().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some((b, body)) = new.iter().find(|(b, _)| b.body.start == i) {
            for l in body {
                if l.is_empty() {
                    out.push('\n');
                } else {
                    out.push_str(&format!("{}{l}\n", b.indent));
                }
            }
            i = b.body.end;
            continue;
        }
        out.push_str(lines[i]);
        out.push('\n');
        i += 1;
    }
    out
}

#[test]
fn markers_and_options_are_read() {
    let page = "a\n<!-- example: slow; dir=docs/examples; keep=1..3, /^holds/ -->\n  ```text\n  $ nfold x\n  out\n  ```\n<!-- file: f.cub; excerpt -->\n```cub\nx\n```\n";
    let b = blocks(page).unwrap();
    assert_eq!(b.len(), 2);
    let Kind::Example(o) = &b[0].kind else {
        panic!("an example")
    };
    assert!(o.slow && !o.json);
    assert_eq!(o.dir.as_deref(), Some("docs/examples"));
    assert_eq!(o.keep.as_deref(), Some("1..3, /^holds/"));
    assert_eq!(b[0].text, vec!["$ nfold x", "out"]);
    assert_eq!(
        b[1].kind,
        Kind::File {
            path: "f.cub".into(),
            excerpt: true
        }
    );
    let again = rewrite(page, &[(&b[0], vec!["$ nfold x".into(), "new".into()])]);
    assert!(again.contains("  $ nfold x\n  new\n  ```"));
    assert!(blocks("<!-- example: fast -->\n```\n```\n").is_err());
}
