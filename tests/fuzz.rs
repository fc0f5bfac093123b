//! Bad input never panics. Mutated and truncated versions of every family and random
//! byte strings go through the front end: each either loads or gives an error located
//! inside the text (`file:line:col: error:` with a caret); mutants that still load are
//! run briefly through the engines (breadth-first, SAT, nested depth-first for `ltl`),
//! which must not panic either. A sample also goes
//! through the command line: exit code 0-3, never a panic or a backtrace.
//!
//! `NFOLD_FUZZ` sets the number of mutants per family (default 1000 in release builds,
//! 40 in debug).

use crate::common;
use common::Rng;
use nfold::bmc::driver::{BmcOptions, check_size as bmc};
use nfold::explicit::ndfs::{self, NdfsOptions};
use nfold::explicit::reach::{ReachOptions, check_size as explicit};
use nfold::ltl::{self, LtlProperty};
use std::time::{Duration, Instant};

const PIECES: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ";",
    ":",
    ":=",
    ".",
    "..",
    "|",
    "_",
    "=",
    "<>",
    "<",
    "+",
    "-",
    "*",
    "&&",
    "||",
    "=>",
    "not ",
    "forall ",
    "exists_other j. ",
    "case ",
    "any ",
    "N",
    "#1",
    "#0",
    "0",
    "99999",
    "proc",
    "int",
    "bool",
    "type t",
    "var X : ",
    "array A[proc] : ",
    "init ",
    "transition t (i)",
    "unsafe ",
    "ltl ",
    "G ",
    "F ",
    "(*",
    "*)",
    "//",
    "\n",
    " ",
    "é",
    "\u{0}",
    "True",
    "x",
    "i",
    "A[i]",
    "let x = 1 in ",
    "if ",
    " then ",
    " else ",
    "requires { ",
    "number_procs 2\n",
];

fn mutate(src: &str, rng: &mut Rng) -> String {
    let mut s: Vec<char> = src.chars().collect();
    for _ in 0..1 + rng.below(3) {
        if s.is_empty() {
            break;
        }
        let at = rng.below(s.len());
        match rng.below(6) {
            0 => {
                let len = 1 + rng.below(12);
                s.drain(at..(at + len).min(s.len()));
            }
            1 => s.truncate(at),
            2 => {
                let piece: Vec<char> = PIECES[rng.below(PIECES.len())].chars().collect();
                s.splice(at..at, piece);
            }
            3 => {
                let len = 1 + rng.below(20);
                let chunk: Vec<char> = s[at..(at + len).min(s.len())].to_vec();
                let to = rng.below(s.len());
                s.splice(to..to, chunk);
            }
            4 => s[at] = (b' ' + (rng.below(95) as u8)) as char,
            _ => {
                // Swap two words.
                let text: String = s.iter().collect();
                let words: Vec<&str> = text.split_whitespace().collect();
                if words.len() > 2 {
                    let (a, b) = (rng.below(words.len()), rng.below(words.len()));
                    let mut w: Vec<String> = words.iter().map(|x| x.to_string()).collect();
                    w.swap(a, b);
                    s = w.join(" ").chars().collect();
                }
            }
        }
    }
    s.into_iter().collect()
}

fn families() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/families")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "cub") {
            out.push((
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            ));
        }
    }
    out.sort();
    out
}

/// Load a text; an error must be located inside it. A model that loads is run briefly.
fn exercise(text: &str) -> bool {
    match nfold::lang::load_str("fuzz.cub", text) {
        Err(e) => {
            let r = e.render();
            let (l, c) = e.source.line_col(e.diagnostic.span.lo);
            assert!(r.starts_with(&format!("fuzz.cub:{l}:{c}: error: ")), "{r}");
            assert!(r.contains('^'));
            assert!(
                l >= 1 && l <= text.lines().count().max(1) + 1,
                "line {l} outside:\n{text}"
            );
            false
        }
        Ok(m) => {
            let deadline = Some(Instant::now() + Duration::from_millis(300));
            for n in 1..=2 {
                let r = explicit(
                    &m,
                    n,
                    &ReachOptions {
                        symmetry: true,
                        max_states: Some(2000),
                        deadline,
                        ..Default::default()
                    },
                );
                assert!(
                    r.internal_errors.is_empty(),
                    "{:?}\n{text}",
                    r.internal_errors
                );
                if let Ok(r) = bmc(
                    &m,
                    n,
                    &BmcOptions {
                        depth: 2,
                        deadline,
                        ..Default::default()
                    },
                ) {
                    assert!(
                        r.report.internal_errors.is_empty(),
                        "{:?}\n{text}",
                        r.report.internal_errors
                    );
                }
                for prop in 0..m.ltls.len() {
                    let Ok(p) = LtlProperty::new(&m, prop) else {
                        continue;
                    };
                    for fair in [false, true] {
                        let r = ndfs::check(
                            &m,
                            n,
                            &p,
                            ltl::processes_to_check(&m, prop, n)[0],
                            &NdfsOptions {
                                symmetry: true,
                                fair,
                                max_states: Some(2000),
                                deadline,
                                ..Default::default()
                            },
                        );
                        assert!(
                            r.internal_errors.is_empty(),
                            "{:?}\n{text}",
                            r.internal_errors
                        );
                    }
                }
            }
            true
        }
    }
}

#[test]
fn mutated_families_never_panic() {
    let per: usize = std::env::var("NFOLD_FUZZ")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 40 } else { 1000 });
    let mut rng = Rng(0xF0F0_1234_5678_9ABC);
    let mut loaded = 0;
    let mut total = 0;
    for (name, src) in families() {
        for _ in 0..per {
            let text = mutate(&src, &mut rng);
            total += 1;
            let ok = std::panic::catch_unwind(|| exercise(&text));
            match ok {
                Ok(l) => loaded += l as usize,
                Err(_) => panic!("panic on a mutant of {name}:\n{text}"),
            }
        }
    }
    // Some mutants still load and reach the engines; most are rejected.
    eprintln!("fuzz: {loaded} of {total} mutants loaded and ran through both engines");
    assert!(loaded > 0 && loaded < total, "{loaded} of {total} loaded");
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(0xDEAD_BEEF_CAFE_F00D);
    for k in 0..2000 {
        let len = rng.below(200);
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                if k % 2 == 0 {
                    rng.below(256) as u8
                } else {
                    b"AZaz09()[]{}:=.;| \n#_<>-+*&"[rng.below(27)]
                }
            })
            .collect();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let r = std::panic::catch_unwind(|| exercise(&text));
        assert!(r.is_ok(), "panic on bytes {bytes:?}");
    }
}

#[test]
fn cli_on_mutants_exits_cleanly() {
    let dir = common::scratch_dir("fuzz");
    let mut rng = Rng(0x1234_5678);
    let fams = families();
    for k in 0..60 {
        let (_, src) = &fams[k % fams.len()];
        let text = mutate(src, &mut rng);
        let p = dir.join(format!("m{k}.cub"));
        std::fs::write(&p, &text).unwrap();
        for args in [
            vec!["check", "--size", "2", "--max-states", "5000"],
            vec!["check", "--size", "2", "--depth", "3"],
            vec![
                "check",
                "--sizes",
                "1..2",
                "--engine",
                "auto",
                "--timeout",
                "2",
            ],
            vec!["info", "--size", "2"],
            vec!["live", "--size", "2", "--fair", "--max-states", "5000"],
        ] {
            let mut a: Vec<&str> = args.clone();
            let ps = p.to_str().unwrap();
            a.insert(1, ps);
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_nfold"))
                .args(&a)
                .env("RUST_BACKTRACE", "1")
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            let code = out.status.code().unwrap_or(-1);
            assert!(
                (0..=4).contains(&code),
                "exit {code} for {a:?}:\n{err}\n{text}"
            );
            assert!(
                !err.contains("panicked") && !err.contains("stack backtrace"),
                "{err}\n{text}"
            );
            if code == 2 && args[0] != "info" {
                assert!(err.contains(": error: "), "{err}");
            }
        }
    }
}
