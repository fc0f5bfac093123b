//! The floors of the source tree (docs/internals.md, "Layers"): every import between
//! top-level modules of `src/` must point down (or sideways within one floor), and no
//! set of modules may import each other in a circle. Test code (`#[cfg(test)]` items)
//! is left out: a unit test may load a model from text whatever its floor.
//!
//! `cargo test --release --test layers -- --nocapture` prints every module → module
//! import with the floors it joins.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The floors, bottom first. A module may import modules of its own floor or below.
const FLOORS: &[&[&str]] = &[
    &["source", "sat", "limits", "progress", "schema", "cores"],
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
