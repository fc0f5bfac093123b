//! The SAT engine against the explicit engine on every shipped family and on models
//! with range errors: same verdict within the bound and same shortest depth, with and
//! without lex-leader symmetry breaking, with each partial-order reduction of the
//! unrolling, in both cell encodings and with every backend;
//! and the DIMACS written by `nfold cnf` has the engine's satisfiability.

use crate::common;
use common::families;
use nfold::bmc::driver::{BmcOptions, check_size as bmc};
use nfold::explicit::reach::{ReachOptions, check_size as explicit};
use nfold::model::ir::Model;
use nfold::sat::{Cnf, SolveResult, SolverKind, Stop};
use nfold::transys::Por;
use nfold::transys::frame::Encoding;
use nfold::transys::query::SymBreak;
use nfold::verdict::{Kind as Verdict, PropId};
use std::collections::HashMap;

fn max_size() -> usize {
    if cfg!(debug_assertions) { 3 } else { 4 }
}

/// Explicit verdicts: property -> shortest depth (None: holds). Range errors included.
fn explicit_depths(m: &Model, n: usize) -> HashMap<PropId, Option<usize>> {
    let r = explicit(m, n, &ReachOptions::default());
    assert!(r.internal_errors.is_empty());
    let mut out: HashMap<PropId, Option<usize>> =
        r.results.iter().map(|p| (p.prop, p.depth())).collect();
    out.entry(PropId::Range).or_insert(None);
    out
}

/// Check that the SAT answers up to `depth` agree with the explicit ones.
fn agree(name: &str, m: &Model, n: usize, depth: usize, opts: &BmcOptions) {
    let want = explicit_depths(m, n);
    let r = bmc(
        m,
        n,
        &BmcOptions {
            depth,
            ..opts.clone()
        },
    )
    .unwrap();
    assert!(
        r.report.internal_errors.is_empty(),
        "{name} n={n}: {:?}",
        r.report.internal_errors
    );
    assert!(r.report.limit.is_none());
    let mut seen_range = false;
    for p in &r.report.results {
        let expect = want[&p.prop];
        match (expect, p.verdict.kind()) {
            (Some(d), Verdict::Violated) if d <= depth => {
                assert_eq!(
                    p.depth(),
                    Some(d),
                    "{name} n={n} {}: shortest depth",
                    p.name
                )
            }
            (Some(d), Verdict::NoViolationUpTo(k)) => {
                assert!(d > k, "{name} n={n} {}: missed depth {d}", p.name)
            }
            (None, Verdict::NoViolationUpTo(k)) => assert_eq!(k, depth),
            (e, v) => panic!("{name} n={n} {}: explicit {e:?}, sat {v:?}", p.name),
        }
        seen_range |= p.prop == PropId::Range;
    }
    // A range error within the bound must have been found.
    if let Some(d) = want[&PropId::Range] {
        assert!(
            seen_range || d > depth,
            "{name} n={n}: range error at depth {d} missed"
        );
    }
}

#[test]
fn sat_agrees_with_explicit_on_every_family() {
    for (name, m) in families() {
        for n in 1..=max_size() {
            for symbreak in [SymBreak::WitnessLex, SymBreak::LexLeader, SymBreak::Off] {
                let opts = BmcOptions {
                    symbreak,
                    ..Default::default()
                };
                agree(&name, &m, n, 9, &opts);
            }
            // The partial-order reductions keep verdicts and shortest depths.
            for por in [Por::Full, Por::Off] {
                let opts = BmcOptions {
                    por,
                    ..Default::default()
                };
                agree(&name, &m, n, 9, &opts);
            }
        }
    }
}

#[test]
fn encodings_and_backends_agree() {
    let mut kinds = vec![SolverKind::Varisat, SolverKind::Splr];
    if cfg!(feature = "cadical") {
        kinds.push(SolverKind::Cadical);
    }
    for (name, m) in families() {
        if ![
            "mutex_bug",
            "german_bug",
            "token_mutex",
            "grant_mutex",
            "token_ring",
        ]
        .contains(&name.as_str())
        {
            continue;
        }
        for enc in [Encoding::Binary, Encoding::OneHot] {
            for &solver in &kinds {
                let opts = BmcOptions {
                    encoding: enc,
                    solver,
                    ..Default::default()
                };
                agree(&name, &m, 3, 8, &opts);
            }
        }
    }
}

const RANGE_MODEL: &str = "
type s = Idle | Busy
array A[proc] : 0 .. 2
array S[proc] : s
var T : proc
var R : 0 .. 3
init (z) { A[z] = 0 && S[z] = Idle && R = 0 }
unsafe two_busy (z1 z2) { S[z1] = Busy && S[z2] = Busy }
transition inc (i) requires { S[i] = Idle } { A[i] := A[i] + 1; }
transition busy (i) requires { A[i] = 2 } { S[i] := Busy; T := any j. S[j] = Idle; }
transition hop (i) requires { i < N && A[i + 1] = 1 } { R := .; }
transition reset (i) requires { S[i] = Busy } { S[i] := Idle; A[i] := 0; }
";

#[test]
fn range_errors_nondeterminism_and_asymmetry_agree() {
    let m = nfold::lang::load_str("range.cub", RANGE_MODEL).unwrap();
    assert!(!m.is_symmetric());
    for n in 1..=3 {
        let want = explicit_depths(&m, n);
        assert_eq!(
            want[&PropId::Range],
            Some(2),
            "a third inc overflows A from depth 2"
        );
        for por in [Por::Idle, Por::Full, Por::Off] {
            let opts = BmcOptions {
                por,
                ..Default::default()
            };
            agree("range", &m, n, 6, &opts);
        }
        agree(
            "range",
            &m,
            n,
            6,
            &BmcOptions {
                encoding: Encoding::OneHot,
                ..Default::default()
            },
        );
    }
}

/// Parse DIMACS (as written by `nfold cnf`) back into clauses and unit assumptions.
fn parse_dimacs(text: &str) -> Cnf {
    let mut cnf = Cnf::default();
    for line in text.lines() {
        if line.starts_with('c') || line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("p cnf ") {
            cnf.num_vars = rest.split_whitespace().next().unwrap().parse().unwrap();
            continue;
        }
        let lits: Vec<i32> = line
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        cnf.add_clause(&lits[..lits.len() - 1]);
    }
    cnf
}

#[test]
fn cnf_output_has_the_engines_satisfiability() {
    let bin = env!("CARGO_BIN_EXE_nfold");
    for (fam, depth_sat) in [("mutex_bug", 6), ("german_bug", 8)] {
        for depth in [depth_sat - 1, depth_sat] {
            let out = std::process::Command::new(bin)
                .args([
                    "cnf",
                    &format!("families/{fam}.cub"),
                    "--size",
                    "3",
                    "--depth",
                    &depth.to_string(),
                ])
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .output()
                .unwrap();
            assert!(out.status.success());
            let text = String::from_utf8(out.stdout).unwrap();
            assert!(text.starts_with("c nfold cnf: families/"));
            assert!(text.contains("frame 0 "));
            let cnf = parse_dimacs(&text);
            let mut s = SolverKind::Varisat.create().unwrap();
            let r = s.solve(&cnf, &[], &Stop::default());
            let want = if depth == depth_sat {
                SolveResult::Sat
            } else {
                SolveResult::Unsat
            };
            assert_eq!(r, want, "{fam} depth {depth}");
            // Debian's cadical, when installed, agrees.
            if let Ok(o) = std::process::Command::new("cadical")
                .arg("-q")
                .arg("-n")
                .stdin(std::process::Stdio::piped())
                .spawn()
                .and_then(|mut c| {
                    use std::io::Write;
                    c.stdin.take().unwrap().write_all(text.as_bytes())?;
                    c.wait_with_output()
                })
            {
                let code = o.status.code();
                assert_eq!(
                    code,
                    Some(if want == SolveResult::Sat { 10 } else { 20 }),
                    "cadical binary on {fam} depth {depth}"
                );
            }
        }
    }
}
