//! The hand-off of a BMC query to an outside SAT solver (docs/scaling.md): `nfold cnf`
//! writes the unrolling as DIMACS, a locally installed solver (CaDiCaL, kissat or
//! MiniSat, whichever is on the PATH; .ci/run installs Debian's `cadical`) solves it,
//! and its answer agrees with nfold's own search: satisfiable at the shortest depth of
//! a violation (the family headers' depth, `common::VERDICTS`, which the explicit
//! search also finds), unsatisfiable one step below it and on a family that holds.
//! Skipped with a note when no solver is installed.

use crate::common::{VERDICTS, family, json_run, nfold, rows};
use std::process::Command;

/// The first outside solver found: its name.
fn solver() -> Option<&'static str> {
    ["cadical", "kissat", "minisat"].into_iter().find(|s| {
        Command::new("sh")
            .args(["-c", &format!("command -v {s}")])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// The outside solver's answer on `nfold cnf FAMILY --size n --depth k`: true for
/// satisfiable (exit code 10 by the SAT competition's convention), false for
/// unsatisfiable (20).
fn outside(solver: &str, fam: &str, n: u64, k: u64) -> bool {
    let dir = crate::common::fresh_dir(&format!("handoff-{fam}-{n}-{k}"));
    let cnf = dir.join("query.cnf");
    let cnf = cnf.to_str().unwrap();
    let (code, _, err) = nfold(&[
        "cnf",
        &family(fam),
        "--size",
        &n.to_string(),
        "--depth",
        &k.to_string(),
        "-o",
        cnf,
    ]);
    assert_eq!(code, 0, "{err}");
    let out = Command::new(solver)
        .arg(cnf)
        .output()
        .expect("run the solver");
    match out.status.code() {
        Some(10) => true,
        Some(20) => false,
        c => panic!(
            "{solver} answered neither SAT nor UNSAT ({c:?}):\n{}",
            String::from_utf8_lossy(&out.stdout)
        ),
    }
}

#[test]
fn an_outside_sat_solver_agrees_with_nfold_on_the_dimacs_query() {
    let Some(s) = solver() else {
        eprintln!(
            "note: no cadical, kissat or minisat installed: the DIMACS hand-off is not tested"
        );
        return;
    };
    for fam in ["german_bug", "mutex_bug"] {
        let (n, depth) = VERDICTS
            .iter()
            .find(|v| v.0 == fam)
            .and_then(|v| v.2)
            .unwrap();
        let (_, v) = json_run(&[
            "check",
            &family(fam),
            "--size",
            &n.to_string(),
            "--engine",
            "explicit",
        ]);
        assert_eq!(rows(&v)[0].depth, Some(depth as usize), "{fam}");
        assert!(outside(s, fam, n, depth), "{s}: {fam} at depth {depth}");
        assert!(
            !outside(s, fam, n, depth - 1),
            "{s}: {fam} below depth {depth}"
        );
    }
    // A family that holds: no violation at any depth, so none at this one.
    assert!(!outside(s, "german", 2, 8), "{s}: german");
}
