//! The floors of the source tree (docs/internals.md, "Layers"): every import between
//! top-level modules of `src/` must point down (or sideways within one floor), and no
//! set of modules may import each other in a circle. Test code (`#[cfg(test)]` items)
//! is left out: a unit test may load a model from text whatever its floor. And the
//! rule of the trust base (docs/internals.md, "The trust base"): the checker names
//! nothing of a search, a search nothing of the checker but its entry points.
//!
//! `cargo test --release --test all -- layers --nocapture` prints every module → module
//! import with the floors it joins.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The floors, bottom first. A module may import modules of its own floor or below.
const FLOORS: &[&[&str]] = &[
    &[
        "source", "sat", "limits", "progress", "schema", "cores", "hash",
    ],
    &["model"],
    &["transys"],
    &["cert", "lang", "ltl"],
    &["trace", "simulate", "dot"],
    &["verdict", "lasso"],
    &["trail", "live", "counter"],
    &["engine"],
    &["bmc"],
    &["proof"],
    &["explicit"],
    &["ic3", "bdd", "rank"],
    &["kind"],
    &["portfolio"],
    &["run"],
    &["report"],
    &["cli"],
];

fn floor_of(m: &str) -> usize {
    FLOORS
        .iter()
        .position(|f| f.contains(&m))
        .unwrap_or_else(|| {
            panic!("module `{m}` is on no floor: add it to FLOORS and to docs/internals.md")
        })
}

/// The text of a source file without its `#[cfg(test)]` items (a module block or one
/// item), so that only the code that ships is measured.
fn without_tests(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim() != "#[cfg(test)]" {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        // Skip the item that follows: up to the line closing its braces, or one line.
        let mut depth = 0i64;
        let mut opened = false;
        for l in lines.by_ref() {
            depth += l.matches('{').count() as i64 - l.matches('}').count() as i64;
            opened |= l.contains('{');
            if (opened && depth <= 0) || (!opened && l.trim_end().ends_with(';')) {
                break;
            }
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Module → module imports (`crate::m` paths) outside test code.
fn edges() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let m = first.trim_end_matches(".rs").to_string();
        // A `tests.rs` holds a module's unit tests (`#[cfg(test)] mod tests;`): no code
        // that ships.
        if m == "main" || m == "lib" || f.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let text = without_tests(&fs::read_to_string(&f).unwrap());
        let deps = g.entry(m.clone()).or_default();
        for (i, _) in text.match_indices("crate::") {
            let name: String = text[i + 7..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
                .collect();
            if !name.is_empty() && name != m {
                deps.insert(name);
            }
        }
    }
    g
}

#[test]
fn imports_point_down_and_modules_form_no_cycle() {
    let g = edges();
    let mut up = Vec::new();
    for (m, deps) in &g {
        for d in deps {
            let (fm, fd) = (floor_of(m), floor_of(d));
            println!("{m} -> {d}    (floor {fm} -> {fd})");
            if fd > fm {
                up.push(format!("{m} -> {d}"));
            }
        }
    }
    assert!(up.is_empty(), "imports running up the floors: {up:?}");
    // No cycle: with every edge pointing down or sideways, a cycle can only lie within
    // one floor; look for one by depth-first search all the same.
    let mut state: BTreeMap<&str, u8> = BTreeMap::new();
    fn visit<'a>(
        m: &'a str,
        g: &'a BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<&'a str, u8>,
        path: &mut Vec<&'a str>,
    ) {
        match state.get(m) {
            Some(2) => return,
            Some(1) => panic!("module cycle: {} -> {m}", path.join(" -> ")),
            _ => {}
        }
        state.insert(m, 1);
        path.push(m);
        for d in g.get(m).into_iter().flatten() {
            visit(d, g, state, path);
        }
        path.pop();
        state.insert(m, 2);
    }
    for m in g.keys() {
        visit(m, &g, &mut state, &mut Vec::new());
    }
}

#[test]
fn the_floors_name_every_module() {
    for m in edges().keys() {
        floor_of(m);
    }
    let docs = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/internals.md"))
        .unwrap();
    for f in FLOORS {
        for m in *f {
            assert!(
                docs.contains(&format!("`{m}`")),
                "docs/internals.md does not name the module `{m}`"
            );
        }
    }
}

/// The checker (docs/internals.md, "The trust base"): `cert` and these modules of
/// `proof`.
const CHECKER: &[&str] = &[
    "cert",
    "proof::check",
    "proof::count",
    "proof::cutoff",
    "proof::fragment",
    "proof::live_cutoff",
    "proof::reduced",
    "proof::standin",
];

/// What the checker may name besides itself: the layers it shares with the engines.
const SHARED: &[&str] = &[
    "source",
    "sat",
    "cores",
    "model",
    "lang",
    "ltl",
    "live::response",
    "transys",
];

/// The searches: the engines and what only they use.
const SEARCHES: &[&str] = &[
    "bmc",
    "explicit",
    "ic3",
    "bdd",
    "rank",
    "kind",
    "counter",
    "portfolio",
];

/// What a search may name of the checker's `proof` modules: the checks it asks for
/// and their answers, and the arguments they decide by (the cutoff, the reduction).
const ENTRY_POINTS: &[&str] = &[
    "proof::check::check",
    "proof::check::check_every",
    "proof::check::Checker",
    "proof::check::SizeCheck",
    "proof::check::rank::every_cutoff",
    "proof::cutoff",
    "proof::reduced::line",
    "proof::reduced::read_back",
    "proof::reduced::verify",
    "proof::standin::arrays",
];

/// `p` is `base` or lies inside it (whole segments).
fn within(p: &str, base: &str) -> bool {
    p == base || p.starts_with(&format!("{base}::"))
}

/// The module path of a file of `src/` (`proof/check/rank.rs` → `proof::check::rank`).
fn module_of(rel: &Path) -> Vec<String> {
    let mut segs: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if segs.last().is_some_and(|s| s == "mod") {
        segs.pop();
    }
    segs
}

/// The paths a use tree starting at `rest` names under `prefix`: `a::b`,
/// `a::{b, c::{d, self}}`, each item whole (`self` names the prefix).
fn tree(prefix: &str, rest: &str, out: &mut Vec<String>) {
    let mut p = prefix.to_string();
    let mut s = rest;
    loop {
        if let Some(inner) = s.strip_prefix('{') {
            // Each item up to the matching brace, split at the commas outside nested
            // braces.
            let (mut depth, mut start) = (0, 0);
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => return tree(&p, inner[start..i].trim(), out),
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        tree(&p, inner[start..i].trim(), out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            return;
        }
        let seg: String = s
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !seg.is_empty() && seg != "self" {
            p = if p.is_empty() {
                seg.clone()
            } else {
                format!("{p}::{seg}")
            };
        }
        s = &s[seg.len()..];
        match s.strip_prefix("::") {
            Some(after) => s = after,
            None => {
                if !p.is_empty() {
                    out.push(p);
                }
                return;
            }
        }
    }
}

/// Per file of `src/` (outside test code), its module path and the crate paths it
/// names, `super::` resolved.
fn named_paths() -> Vec<(String, Vec<String>)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut out = Vec::new();
    for f in files {
        if f.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let module = module_of(f.strip_prefix(&src).unwrap());
        let text = without_tests(&fs::read_to_string(&f).unwrap());
        let mut paths = Vec::new();
        for (i, _) in text.match_indices("crate::") {
            tree("", &text[i + 7..], &mut paths);
        }
        for (i, _) in text.match_indices("super::") {
            if text[..i].ends_with("super::") {
                continue;
            }
            let mut rest = &text[i..];
            let mut base = module.clone();
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r;
            }
            tree(&base.join("::"), rest, &mut paths);
        }
        out.push((module.join("::"), paths));
    }
    out
}

/// The rule of docs/internals.md, "The trust base": the checker names only the shared
/// layers and itself; a search names of the checker's `proof` modules only their entry
/// points (`cert`, certificates as text, is shared).
#[test]
fn the_checker_shares_no_search_code() {
    let mut broken = Vec::new();
    for (m, paths) in named_paths() {
        let checker = CHECKER.iter().any(|c| within(&m, c));
        let search = SEARCHES.iter().any(|s| within(&m, s));
        for p in paths {
            let shared = SHARED.iter().chain(CHECKER).any(|b| within(&p, b));
            if checker && !shared {
                broken.push(format!("the checker's {m} names {p}"));
            }
            // A path inside one of the checker's `proof` modules, or above one
            // (`crate::proof` itself), unless it is an entry point.
            let private = CHECKER[1..].iter().any(|c| within(&p, c) || within(c, &p));
            if search && private && !ENTRY_POINTS.iter().any(|e| within(&p, e)) {
                broken.push(format!("the search {m} names {p}"));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "the trust base rule is broken: {broken:#?}"
    );
}
