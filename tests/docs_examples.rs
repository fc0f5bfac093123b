//! The command outputs shown in `README.md` and `docs/*.md` are real: every block after
//! a marker `<!-- example: OPTIONS -->` holds commands (`$ nfold ...` lines), each
//! followed by its output, and this test runs each command through the built binary
//! and compares. A block after `<!-- file: PATH -->` is the whole file PATH (the models
//! the tutorial asks you to save are in `docs/examples/`), and after
//! `<!-- file: PATH; excerpt -->` its lines appear in PATH in order.
//!
//! Options of an example marker, separated by `;` (`markdown::Options`): `slow` (this
//! test skips it, the script reruns it), `dir=PATH` (the commands run in a scratch
//! directory holding links to the repository's entries and to PATH's, so that files they
//! write stay out of the repository), `keep=...` (which output lines are shown, each
//! gap as one `...` line: `run::keep`; `keep=A | B` gives each command its own), `json` and `cut=...` (one JSON document, laid
//! out by `run::render_json`, arrays at the paths cut to their first element),
//! `requires=PROGRAM` (skipped without PROGRAM on the PATH). A command ending in
//! `> /dev/null` shows only its stderr. stdout and stderr are shown in one stream.
//!
//! **What is normalised** before comparing, in the block and in the fresh output alike
//! (`run::normalise`), and nothing else:
//! - a decimal number followed by `s`, ` s`, `ms` or ` sec` (a time) becomes `<time>`;
//! - a number followed by ` KiB`, ` MiB`, ` GiB`, ` MB` or ` GB` becomes `<memory>`;
//! - runs of blanks become one blank and leading and trailing blanks go (time columns
//!   change width);
//! - the version line of a report (`nfold 0.1.0 (git ...)`) becomes `nfold <version>`;
//! - progress lines (`nfold: [...`, or `{"progress"...` under `--json`) are dropped;
//! - in JSON, the values of the members `seconds`, `peak_memory_bytes`, `version` and
//!   `git` (the tool's version and commit) are replaced.
//!
//! So verdicts, depths, state and lemma counts, traces, notes and warnings must match
//! exactly. `scripts/docs_examples.sh` regenerates every block from real runs
//! (`NFOLD_DOCS_REGENERATE=1`, slow examples included with `NFOLD_DOCS_SLOW=1`).

#[path = "docs_examples/markdown.rs"]
mod markdown;
#[path = "docs_examples/run.rs"]
mod run;

use markdown::{Block, Kind};

/// Check (or, with `NFOLD_DOCS_REGENERATE=1`, rewrite) the marked blocks of one page.
fn check_page(rel: &str) {
    let path = run::root().join(rel);
    let page = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let blocks = markdown::blocks(&page).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(!blocks.is_empty(), "{rel} has no marked block");
    let regenerate = std::env::var_os("NFOLD_DOCS_REGENERATE").is_some();
    let slow = regenerate || std::env::var_os("NFOLD_DOCS_SLOW").is_some();
    let mut failures = Vec::new();
    let mut rewrites: Vec<(&Block, Vec<String>)> = Vec::new();
    for (k, b) in blocks.iter().enumerate() {
        let here = format!("{rel}:{}", b.line);
        let expected = match &b.kind {
            Kind::File { path, excerpt } => {
                let file = std::fs::read_to_string(run::root().join(path))
                    .unwrap_or_else(|e| panic!("{here}: {path}: {e}"));
                let lines: Vec<String> = file.lines().map(str::to_string).collect();
                if *excerpt {
                    if !is_subsequence(&b.text, &lines) {
                        failures.push(format!(
                            "{here}: the block's lines are not in {path}, in order"
                        ));
                    }
                    continue;
                }
                lines
            }
            Kind::Example(o) => {
                if o.slow && !slow {
                    continue;
                }
                if let Some(p) = &o.requires
                    && !run::on_path(p)
                {
                    eprintln!("{here}: skipped: {p} is not installed");
                    continue;
                }
                let cmds = run::commands(&b.text);
                if cmds.is_empty() {
                    failures.push(format!("{here}: an example without a `$ ` command line"));
                    continue;
                }
                let tag = format!("{}-{k}", rel.replace(['/', '.'], "-"));
                match run::regenerate(&cmds, o, &tag) {
                    Ok(lines) => {
                        let json = o.json;
                        if run::normalise(&lines, json) == run::normalise(&b.text, json) {
                            continue;
                        }
                        lines
                    }
                    Err(e) => {
                        failures.push(format!("{here}: {e}"));
                        continue;
                    }
                }
            }
        };
        if expected == b.text {
            continue;
        }
        if regenerate {
            rewrites.push((b, expected));
        } else {
            failures.push(format!(
                "{here}: the block differs from a fresh run (scripts/docs_examples.sh rewrites it)\n--- in the page\n{}\n--- now\n{}",
                b.text.join("\n"),
                expected.join("\n")
            ));
        }
    }
    if !rewrites.is_empty() {
        std::fs::write(&path, markdown::rewrite(&page, &rewrites))
            .unwrap_or_else(|e| panic!("{rel}: {e}"));
        eprintln!("{rel}: {} block(s) rewritten", rewrites.len());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Whether `part` appears in `whole` in order (not necessarily contiguous).
fn is_subsequence(part: &[String], whole: &[String]) -> bool {
    let mut it = whole.iter();
    part.iter().all(|p| it.any(|w| w == p))
}

#[test]
fn readme() {
    check_page("README.md");
}

#[test]
fn tutorial() {
    check_page("docs/tutorial.md");
}

#[test]
fn cli() {
    check_page("docs/cli.md");
}

#[test]
fn engines() {
    check_page("docs/engines.md");
}

#[test]
fn every_n() {
    check_page("docs/every-n.md");
}
