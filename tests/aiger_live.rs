//! `nfold aiger --live`: the product of a model with the Büchi automaton of a negated
//! `ltl` property, with its justice property (src/bmc/aiger/justice.rs), through the
//! command line.
//!
//! - A hand-derived model (`TOGGLE`: each process toggles a bit) pins the justice
//!   section: its header, names and literal counts, and its meaning, decided by an
//!   explicit justice checker written here on the parsed file (states: latch vectors
//!   from the reset values, every input vector, successors enumerated by SAT; a
//!   witness: a reachable strongly connected component with an inner step making each
//!   justice literal true), independent of nfold's engines and of ABC. The verdicts are
//!   derived by hand below.
//! - The form for ABC (`--abc`) is the same graph with the justice literals as named
//!   outputs.
//! - Where Debian's `berkeley-abc` is installed (the test prints a note and passes
//!   otherwise): ABC's `read FILE; l2s; pdr` on the `--abc` file gives nfold's explicit
//!   verdict (`nfold live --engine explicit --json`, complete) for every family with an
//!   `ltl` property, every such property, with and without `--fair`, at sizes 1..3 one
//!   by one and on the aggregate 1..3 — except where ABC's `pdr` is too slow for the
//!   test (`ABC_MAX_SIZE`: the MCS lock beyond size 1 takes it 6 s to over 20 s, the
//!   ticket lock at size 2 about 7 s and beyond size 2 over 20 s, Peterson's lock at
//!   size 3 14 s to over 20 s; measured on a shared 2-core machine).

// The reader's simulator is used by tests/aiger.rs, not here.
#[allow(dead_code)]
use crate::aig_reader;
use crate::common;

use aig_reader::{Aig, parse, sat_lit};
use common::abc::{abc, abc_available};
use common::fair_scc::tarjan;
use common::{json_run, nfold, scratch_dir};
use nfold::sat::{Backend, Cnf, Lit, SolveResult, SolverKind, Stop};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

/// Each process toggles its bit; no deadlock. By hand:
/// - `never_on` (G A[i] = False) is violated at every size, fair or not: go(1),
///   back(1) is a lasso on which A[1] is True (at size ≥ 2 the other processes can
///   toggle too, so the lasso can be made fair);
/// - `eventually_on` (F A[i] = True) holds at size 1 (the only run toggles process 1);
///   at size ≥ 2 it is violated without fairness (process 2 toggles forever, process 1
///   never moves) and holds under weak fairness (process 1's `go` stays enabled while
///   A[1] = False, so a fair run executes it).
const TOGGLE: &str = "array A[proc] : bool
init (z) { A[z] = False }
transition go (i) requires { A[i] = False } { A[i] := True; }
transition back (i) requires { A[i] = True } { A[i] := False; }
ltl never_on (i) { G A[i] = False }
ltl eventually_on (i) { F A[i] = True }
";

/// `nfold aiger FILE SIZES --live --property P [--fair] [--abc]`, parsed.
fn export(file: &str, sizes: (usize, usize), prop: &str, fair: bool, abc: bool, out: &Path) -> Aig {
    let spec = if sizes.0 == sizes.1 {
        format!("{}", sizes.0)
    } else {
        format!("{}..{}", sizes.0, sizes.1)
    };
    let flag = if sizes.0 == sizes.1 {
        "--size"
    } else {
        "--sizes"
    };
    let mut args = vec![
        "aiger",
        file,
        flag,
        &spec,
        "--live",
        "--property",
        prop,
        "-o",
        out.to_str().unwrap(),
    ];
    if fair {
        args.push("--fair");
    }
    if abc {
        args.push("--abc");
    }
    let (code, _, err) = nfold(&args);
    assert_eq!(code, 0, "{args:?}: {err}");
    let bytes = std::fs::read(out).unwrap();
    parse(&bytes).unwrap_or_else(|e| panic!("{args:?}: unreadable AIGER: {e}"))
}

/// Whether justice property 0 of `aig` has a witness (see the module comment).
fn justice_witness(aig: &Aig) -> bool {
    let mut cnf = Cnf::default();
    let vars = aig.to_cnf(&mut cnf);
    let mut solver: Box<dyn Backend> = SolverKind::default_kind().create().unwrap();
    let stop = Stop::default();
    let nl = aig.latches.len();
    let cur: Vec<Lit> = (0..nl).map(|k| vars[aig.latch_var(k) as usize]).collect();
    let next: Vec<Lit> = (0..nl).map(|k| sat_lit(&vars, aig.latches[k].0)).collect();
    let just: Vec<Lit> = aig.justice_lits[0]
        .iter()
        .map(|&l| sat_lit(&vars, l))
        .collect();
    let units = |bits: &[bool], lits: &[Lit]| -> Vec<Lit> {
        bits.iter()
            .zip(lits)
            .map(|(&b, &l)| if b { l } else { -l })
            .collect()
    };
    let reset: Vec<bool> = aig.latches.iter().map(|&(_, r)| r == 1).collect();
    let mut states = vec![reset.clone()];
    let mut index: HashMap<Vec<bool>, usize> = HashMap::from([(reset, 0)]);
    // Per state: (successor, per justice literal: some step to it makes it true).
    let mut edges: Vec<Vec<(usize, Vec<bool>)>> = Vec::new();
    let mut s = 0;
    while s < states.len() {
        assert!(
            states.len() < 20_000,
            "the justice checker is for small circuits"
        );
        let base = units(&states[s], &cur);
        let act = cnf.new_var();
        let mut out = Vec::new();
        loop {
            let mut a = base.clone();
            a.push(act);
            match solver.solve(&cnf, &a, &stop) {
                SolveResult::Sat => {}
                SolveResult::Unsat => break,
                SolveResult::Unknown => panic!("solver gave up"),
            }
            let t: Vec<bool> = next.iter().map(|&l| solver.value(l)).collect();
            let mut step = base.clone();
            step.extend(units(&t, &next));
            let holds: Vec<bool> = just
                .iter()
                .map(|&j| {
                    let mut a = step.clone();
                    a.push(j);
                    solver.solve(&cnf, &a, &stop) == SolveResult::Sat
                })
                .collect();
            let mut block = vec![-act];
            block.extend(units(&t, &next).into_iter().map(|l| -l));
            cnf.add_clause(&block);
            let k = *index.entry(t.clone()).or_insert_with(|| {
                states.push(t);
                states.len() - 1
            });
            out.push((k, holds));
        }
        cnf.add_clause(&[-act]);
        edges.push(out);
        s += 1;
    }
    let comp = tarjan(&edges);
    let mut members = vec![Vec::new(); states.len()];
    for (v, &k) in comp.iter().enumerate() {
        members[k].push(v);
    }
    members.iter().any(|m| {
        let mut seen = vec![false; just.len()];
        let mut any = false;
        for &c in m {
            for (t, holds) in &edges[c] {
                if comp[*t] == comp[c] {
                    any = true;
                    seen.iter_mut().zip(holds).for_each(|(s, &h)| *s |= h);
                }
            }
        }
        any && seen.iter().all(|&x| x)
    })
}

/// The `--abc` file is the J file with the justice literals as outputs
/// `assume_fair_*`, a constant-false `assert_fair_never`, and every bad output b as
/// `assert_safety_no_B` with literal ¬b.
fn check_abc_form(j: &Aig, a: &Aig, ctx: &str) {
    assert_eq!(
        (&j.latches, &j.ands, j.num_inputs),
        (&a.latches, &a.ands, a.num_inputs),
        "{ctx}"
    );
    assert!(
        a.bad.is_empty() && a.justice == 0 && a.fairness == 0,
        "{ctx}"
    );
    let mut want: Vec<(String, u32)> = Vec::new();
    let lits = &j.justice_lits[0];
    want.push(("assume_fair_accepting".into(), lits[0]));
    for (p, &l) in lits[1..].iter().enumerate() {
        want.push((format!("assume_fair_fair_{}", p + 1), l));
    }
    want.push(("assert_fair_never".into(), 0));
    for (k, &b) in j.bad.iter().enumerate() {
        want.push((format!("assert_safety_no_{}", j.bad_names[&k]), b ^ 1));
    }
    let got: Vec<(String, u32)> = (0..a.outputs.len())
        .map(|k| (a.output_names[&k].clone(), a.outputs[k]))
        .collect();
    assert_eq!(got, want, "{ctx}");
}

#[test]
fn the_justice_section_of_a_hand_derived_model() {
    let dir = scratch_dir("aiger-live-hand");
    let model = dir.join("toggle.cub");
    std::fs::write(&model, TOGGLE).unwrap();
    let model = model.to_str().unwrap();
    // (property, sizes, fair, violated): the hand derivation of `TOGGLE`.
    let cases = [
        ("never_on", (1, 1), false, true),
        ("never_on", (2, 2), false, true),
        ("never_on", (1, 1), true, true),
        ("never_on", (2, 2), true, true),
        ("eventually_on", (1, 1), false, false),
        ("eventually_on", (1, 1), true, false),
        ("eventually_on", (2, 2), false, true),
        ("eventually_on", (2, 2), true, false),
        ("eventually_on", (1, 2), false, true),
        ("eventually_on", (1, 2), true, false),
    ];
    for (prop, sizes, fair, violated) in cases {
        let ctx = format!("{prop} at {sizes:?} fair={fair}");
        let file = dir.join("j.aig");
        let aig = export(model, sizes, prop, fair, false, &file);
        // One justice property named after the ltl property: acceptance, then one
        // literal per process slot under fairness; range_error the one bad output.
        assert_eq!((aig.justice, aig.fairness), (1, 0), "{ctx}");
        assert_eq!(aig.justice_names[&0], prop, "{ctx}");
        let want = 1 + if fair { sizes.1 } else { 0 };
        assert_eq!(aig.justice_lits[0].len(), want, "{ctx}");
        assert!(
            aig.outputs.is_empty() && aig.constraints.is_empty(),
            "{ctx}"
        );
        assert_eq!(aig.bad.len(), 1, "{ctx}");
        assert_eq!(aig.bad_names[&0], "range_error", "{ctx}");
        assert_eq!(justice_witness(&aig), violated, "{ctx}");
        let abc = export(model, sizes, prop, fair, true, &dir.join("a.aig"));
        check_abc_form(&aig, &abc, &ctx);
    }
    // The old liveness-to-safety export is still there, with its one bad output.
    let file = dir.join("l2s.aig");
    let (code, _, err) = nfold(&[
        "aiger",
        model,
        "--size",
        "2",
        "--live",
        "--l2s",
        "--property",
        "never_on",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let l2s = parse(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!((l2s.justice, l2s.bad.len()), (0, 2));
    assert_eq!(l2s.bad_names[&0], "never_on");
    // --abc and --l2s exclude each other; both need --live.
    for args in [
        vec!["aiger", model, "--size", "1", "--live", "--abc", "--l2s"],
        vec!["aiger", model, "--size", "1", "--abc"],
    ] {
        let (code, _, err) = nfold(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------
// ABC.
// ---------------------------------------------------------------------------------

/// The largest size at which ABC's `pdr` is asked (see the module comment); 3 for the
/// other families.
const ABC_MAX_SIZE: &[(&str, usize)] = &[("mcs_lock", 1), ("ticket_lock", 1), ("peterson", 2)];

/// ABC's time limit per run (seconds of its own clock). The longest run asked,
/// token_rounds at 1..3 under fairness, takes 4.9 s of CPU (2026-11-30); at 20 s it ran
/// out of time on a machine with a load of 12, so the limit leaves room for load.
const ABC_SECONDS: u32 = 60;

/// ABC's verdict on an `--abc` file: Some(true) a lasso (output 1 of the `l2s` miter
/// asserted), Some(false) proved; panics on a range error (output 0) or no answer.
fn abc_says(file: &Path, ctx: &str) -> bool {
    let f = file.to_str().unwrap();
    let text = abc(
        &format!("read {f}; l2s; pdr -T {ABC_SECONDS}"),
        ABC_SECONDS as f64 + 5.0,
    )
    .unwrap_or_else(|| panic!("{ctx}: ABC ran out of time"));
    let lasso = text.contains("Output 1 of miter") && text.contains("was asserted");
    let proved = text.contains("Property proved");
    assert!(
        !text.contains("Output 0 of miter"),
        "{ctx}: ABC finds a range error\n{text}"
    );
    assert!(lasso != proved, "{ctx}: ABC undecided\n{text}");
    lasso
}

/// nfold's explicit verdict per size 1..=max: violated or not.
fn nfold_says(family: &str, prop: &str, fair: bool, max: usize) -> Vec<bool> {
    let sizes = format!("1..{max}");
    let mut args = vec![
        "live",
        family,
        "--sizes",
        &sizes,
        "--property",
        prop,
        "--engine",
        "explicit",
    ];
    if fair {
        args.push("--fair");
    }
    let (_, doc) = json_run(&args);
    let rows = common::rows(&doc);
    (1..=max)
        .map(|n| {
            let r = rows
                .iter()
                .find(|r| r.size == n && r.property == prop)
                .unwrap_or_else(|| panic!("{family} {prop} size {n}: no row\n{doc:#}"));
            match r.verdict.as_str() {
                "violated" => true,
                "holds" => false,
                v => panic!("{family} {prop} size {n} fair={fair}: explicit says {v}"),
            }
        })
        .collect()
}

#[test]
fn abc_agrees_with_the_explicit_engine_on_the_justice_export() {
    if !abc_available() {
        eprintln!("note: `berkeley-abc` is not installed; skipping the comparison with ABC");
        return;
    }
    let dir = scratch_dir("aiger-live-abc");
    // (family, property, fair, sizes, nfold says violated)
    let mut jobs = Vec::new();
    for (name, m) in common::families() {
        let max = ABC_MAX_SIZE
            .iter()
            .find(|(f, _)| *f == name)
            .map_or(3, |x| x.1);
        let family = format!("families/{name}.cub");
        for l in &m.ltls {
            for fair in [false, true] {
                let v = nfold_says(&family, &l.name, fair, max);
                for n in 1..=max {
                    jobs.push((family.clone(), l.name.clone(), fair, (n, n), v[n - 1]));
                }
                if max > 1 {
                    let any = v.iter().any(|&x| x);
                    jobs.push((family.clone(), l.name.clone(), fair, (1, max), any));
                }
            }
        }
    }
    assert!(jobs.len() >= 60, "{} jobs", jobs.len());
    let count = jobs.len();
    let jobs = Mutex::new(jobs);
    let report = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for t in 0..2 {
            let (jobs, report, dir) = (&jobs, &report, &dir);
            s.spawn(move || {
                let mut k = 0;
                loop {
                    let Some((family, prop, fair, sizes, want)) = jobs.lock().unwrap().pop() else {
                        break;
                    };
                    let ctx = format!("{family} `{prop}` at {sizes:?} fair={fair}");
                    let file = dir.join(format!("t{t}-{k}.aig"));
                    k += 1;
                    let t0 = Instant::now();
                    export(&family, sizes, &prop, fair, true, &file);
                    let got = abc_says(&file, &ctx);
                    assert_eq!(got, want, "{ctx}: ABC says violated={got}, nfold {want}");
                    report.lock().unwrap().push(format!(
                        "{ctx}: {} [{:.2}s]",
                        if want { "violated" } else { "holds" },
                        t0.elapsed().as_secs_f64()
                    ));
                }
            });
        }
    });
    let mut report = report.into_inner().unwrap();
    report.sort();
    for l in &report {
        eprintln!("{l} (ABC agrees)");
    }
    assert_eq!(report.len(), count);
    let _ = std::fs::remove_dir_all(&dir);
}
