//! The documentation links only to the repository: every relative link in `README.md`,
//! `docs/*.md` and `editors/README.md` points at a file or directory that exists in the
//! repository, never above its root, and a link to a heading of a Markdown file
//! (`file.md#anchor`, or `#anchor` in the same file) names a heading that file has
//! (GitHub's anchor of the heading text). Nothing in those files refers to the sibling
//! directory `../shared`, which is not part of the repository.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The documentation files, relative to the repository root.
fn doc_files() -> Vec<PathBuf> {
    let mut files = vec![
        PathBuf::from("README.md"),
        PathBuf::from("editors/README.md"),
    ];
    let docs = root().join("docs");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&docs)
        .expect("the repository has a docs/ directory")
        .map(|e| e.expect("readable docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| Path::new("docs").join(p.file_name().unwrap()))
        .collect();
    pages.sort();
    files.extend(pages);
    files
}

fn read(rel: &Path) -> String {
    std::fs::read_to_string(root().join(rel))
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", rel.display()))
}

/// The lines outside fenced code blocks, with inline code spans blanked out, each with
/// its line number.
fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fence: Option<&str> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        let marker = if t.starts_with("```") {
            Some("```")
        } else if t.starts_with("~~~") {
            Some("~~~")
        } else {
            None
        };
        match (fence, marker) {
            (None, Some(m)) => {
                fence = Some(m);
                continue;
            }
            (Some(f), Some(m)) if f == m => {
                fence = None;
                continue;
            }
            (Some(_), _) => continue,
            (None, None) => {}
        }
        out.push((i + 1, strip_code_spans(line)));
    }
    out
}

/// `a `code` b` -> `a  b`: link syntax inside code spans is not a link.
fn strip_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        let ticks = rest[start..].chars().take_while(|&c| c == '`').count();
        let delim = &rest[start..start + ticks];
        out.push_str(&rest[..start]);
        let after = &rest[start + ticks..];
        match after.find(delim) {
            Some(end) => rest = &after[end + ticks..],
            None => {
                out.push_str(&rest[start..]);
                return out;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The targets of inline links `[text](target "title")` and reference definitions
/// `[label]: target`, with their line numbers.
fn link_targets(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in prose_lines(text) {
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            // The target runs to the matching `)`, allowing balanced parentheses.
            let mut depth = 0usize;
            let mut end = None;
            for (i, c) in after.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' if depth == 0 => {
                        end = Some(i);
                        break;
                    }
                    ')' => depth -= 1,
                    _ => {}
                }
            }
            let Some(end) = end else { break };
            out.push((n, clean_target(&after[..end])));
            rest = &after[end + 1..];
        }
        let t = line.trim_start();
        if t.starts_with('[')
            && let Some(close) = t.find("]:")
            && !t[1..close].contains('[')
        {
            out.push((n, clean_target(&t[close + 2..])));
        }
    }
    out
}

/// `<path> "title"` -> `path`.
fn clean_target(raw: &str) -> String {
    let t = raw.trim();
    let t = if let Some(inner) = t.strip_prefix('<') {
        inner.split('>').next().unwrap_or("")
    } else {
        t.split_whitespace().next().unwrap_or("")
    };
    t.to_string()
}

fn is_external(target: &str) -> bool {
    target.contains("://") || target.starts_with("mailto:")
}

/// GitHub's anchor for a heading: the text without Markdown markup, lower-cased,
/// punctuation other than `-` and `_` dropped, spaces turned into `-`.
fn slug(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    // Links in headings: keep their text.
    while let Some(open) = rest.find('[') {
        text.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find("](") {
            Some(mid) => {
                text.push_str(&after[..mid]);
                let tail = &after[mid + 2..];
                rest = tail.find(')').map_or("", |c| &tail[c + 1..]);
            }
            None => {
                text.push('[');
                rest = after;
            }
        }
    }
    text.push_str(rest);
    text.to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's ATX headings (duplicates numbered as GitHub does).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut fence = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = !fence;
            continue;
        }
        if fence {
            continue;
        }
        let hashes = t.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !t[hashes..].starts_with(' ') {
            continue;
        }
        let heading = t[hashes..].trim().trim_end_matches('#').trim();
        let base = slug(heading);
        let mut anchor = base.clone();
        let mut k = 0;
        while seen.contains(&anchor) {
            k += 1;
            anchor = format!("{base}-{k}");
        }
        seen.insert(anchor);
    }
    seen
}

/// `dir/../x` resolved lexically; `None` when it climbs above the repository root.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(p) => out.push(p),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

/// Every problem with the links of one file: (line, message).
fn check_file(rel: &Path) -> Vec<(usize, String)> {
    let text = read(rel);
    let dir = rel.parent().unwrap_or(Path::new(""));
    let mut problems = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.contains("../shared") {
            problems.push((
                n + 1,
                "refers to ../shared, which is outside the repository".to_string(),
            ));
        }
    }
    for (n, target) in link_targets(&text) {
        if target.is_empty() {
            problems.push((n, "empty link target".into()));
            continue;
        }
        if is_external(&target) {
            continue;
        }
        let (path, anchor) = match target.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (target.as_str(), None),
        };
        let resolved = if path.is_empty() {
            Some(rel.to_path_buf())
        } else {
            normalize(&dir.join(path))
        };
        let Some(resolved) = resolved else {
            problems.push((n, format!("`{target}` points outside the repository")));
            continue;
        };
        let full = root().join(&resolved);
        if !full.exists() {
            problems.push((
                n,
                format!(
                    "`{target}` points at {}, which does not exist in the repository",
                    resolved.display()
                ),
            ));
            continue;
        }
        if let Some(a) = anchor
            && resolved.extension().is_some_and(|x| x == "md")
            && !anchors(&read(&resolved)).contains(a)
        {
            problems.push((
                n,
                format!("`{target}`: {} has no heading #{a}", resolved.display()),
            ));
        }
    }
    problems
}

#[test]
fn documentation_links_resolve_inside_the_repository() {
    let files = doc_files();
    assert!(
        files.len() >= 3 && files.iter().any(|f| f.ends_with("language.md")),
        "finding the documentation went wrong: {files:?}"
    );
    let mut all = Vec::new();
    let mut links = 0;
    for f in &files {
        links += link_targets(&read(f)).len();
        for (n, msg) in check_file(f) {
            all.push(format!("{}:{n}: {msg}", f.display()));
        }
    }
    assert!(
        links >= 20,
        "only {links} links found: the link reader is broken"
    );
    assert!(
        all.is_empty(),
        "broken documentation links:\n{}",
        all.join("\n")
    );
}

#[test]
fn the_link_checker_catches_bad_links() {
    let text = "see [a](missing.md) and [b](../shared/DESIGN.md), `[c](in-code.md)`,\n\
                [d](https://example.org/x) and [e](docs/cli.md#exit-codes \"title\")\n\
                ```\n[f](in-fence.md)\n```\n[g]: <engines.md#verdicts>\n";
    let targets: Vec<String> = link_targets(text).into_iter().map(|t| t.1).collect();
    assert_eq!(
        targets,
        [
            "missing.md",
            "../shared/DESIGN.md",
            "https://example.org/x",
            "docs/cli.md#exit-codes",
            "engines.md#verdicts"
        ]
    );
    assert_eq!(
        normalize(Path::new("docs/../README.md")),
        Some("README.md".into())
    );
    assert_eq!(normalize(Path::new("../shared/DESIGN.md")), None);
    assert_eq!(slug("6. Initial states: `init`"), "6-initial-states-init");
    assert_eq!(slug("Cubicle's corpus"), "cubicles-corpus");
    assert_eq!(
        slug("What is checked before `holds (proved)`"),
        "what-is-checked-before-holds-proved"
    );
    assert_eq!(slug("[nfold live](x.md) and more"), "nfold-live-and-more");
    let a = anchors("# T\n## Exit codes\n```\n# not a heading\n```\n## Exit codes\n");
    assert!(a.contains("exit-codes") && a.contains("exit-codes-1") && !a.contains("not-a-heading"));
}
