//! Integration tests through the command line on the shipped families: verdicts per
//! size, exact state counts with and without symmetry (derived independently by
//! `tests/oracle/count_states.py`, a hand translation, and by closed forms in the
//! family headers), shortest depths, symmetry on/off agreement, JSON output whose
//! traces replay, exit codes, limits and bad input. Larger sizes run only in release.

use crate::common;
use common::{VERDICTS, family, init_from_json, json_run, nfold, rows, steps_from_json};
use nfold::model::instance::Instance;
use nfold::trace::{Trace, Violation};
use serde_json::Value;
use std::process::Command;

/// Largest size the slow parts go to: more in release builds.
fn max_size() -> usize {
    if cfg!(debug_assertions) { 4 } else { 5 }
}

#[test]
fn every_family_gives_the_verdicts_its_header_promises() {
    let top = format!("1..{}", max_size());
    for sym in [true, false] {
        for (fam, prop, fails) in VERDICTS {
            let f = family(fam);
            let mut args = vec!["check", &f[..], "--sizes", &top[..]];
            if !sym {
                args.push("--no-symmetry");
            }
            let (code, v) = json_run(&args);
            let mut any = false;
            for r in rows(&v).into_iter().filter(|r| r.property == *prop) {
                let (n, p) = (r.size, &r.property);
                match fails {
                    Some((from, d)) if n as u64 >= *from => {
                        assert_eq!(r.verdict, "violated", "{fam} {p} n={n}");
                        let depth = r.depth.map(|d| d as u64);
                        assert_eq!(depth, Some(*d), "{fam} {p} n={n} shortest depth");
                        any = true;
                    }
                    _ => assert_eq!(r.verdict, "holds", "{fam} {p} n={n}"),
                }
            }
            assert_eq!(code, if any { 1 } else { 0 }, "{fam} exit code");
        }
    }
}

/// (family, n, states, orbits) from tests/oracle/counts.txt and the family headers.
pub(crate) const COUNTS: &[(&str, u64, u64, u64)] = &[
    ("mutex", 1, 3, 3),
    ("mutex", 2, 8, 5),
    ("mutex", 3, 20, 7),
    ("mutex", 4, 48, 9),
    ("mutex", 5, 112, 11),
    ("token_mutex", 2, 12, 6),
    ("token_mutex", 3, 36, 9),
    ("token_mutex", 4, 96, 12),
    ("token_mutex", 5, 240, 15),
    ("mesi", 1, 3, 3),
    ("mesi", 2, 8, 5),
    ("mesi", 3, 14, 6),
    ("mesi", 4, 24, 7),
    ("mesi", 5, 42, 8),
    ("peterson", 1, 2, 2),
    ("peterson", 2, 20, 10),
    ("peterson", 3, 336, 63),
    ("peterson", 4, 9168, 470),
    ("peterson", 5, 386_800, 4321),
    ("german", 1, 73, 73),
    ("german", 2, 1506, 753),
    ("german", 3, 28_647, 5115),
    ("german", 4, 566_892, 28_514),
    ("grant_mutex", 2, 12, 7),
    ("grant_mutex", 3, 98, 22),
    ("grant_mutex", 4, 1960, 110),
    ("grant_mutex", 5, 99_042, 1023),
];

#[test]
fn exact_state_counts_with_and_without_symmetry() {
    for &(fam, n, states, orbits) in COUNTS {
        if n as usize > max_size() || (cfg!(debug_assertions) && states > 100_000) {
            continue;
        }
        let f = family(fam);
        let size = n.to_string();
        let explicit = ["check", &f, "--size", &size, "--engine", "explicit"];
        let (_, v) = json_run(&[&explicit[..], &["--no-symmetry"]].concat());
        let stored = |v: &Value| rows(v)[0].stats.states.map(|s| s as u64);
        assert_eq!(stored(&v), Some(states), "{fam} n={n} without symmetry");
        let (_, v) = json_run(&explicit);
        assert_eq!(stored(&v), Some(orbits), "{fam} n={n} with symmetry");
        assert_eq!(v["results"][0]["symmetry"], Value::Bool(n > 1));
    }
    // The asymmetric token ring: n * 3 * 2^(n-1) states, symmetry never applied.
    for n in 1..=max_size() as u64 {
        let (_, v) = json_run(&[
            "check",
            "families/token_ring.cub",
            "--size",
            &n.to_string(),
            "--engine",
            "explicit",
        ]);
        let stored = rows(&v)[0].stats.states.map(|s| s as u64);
        assert_eq!(stored, Some(n * 3 * (1 << (n - 1))));
        assert_eq!(v["symmetric"], Value::Bool(false));
        assert_eq!(v["results"][0]["symmetry"], Value::Bool(false));
    }
}

/// `--compile interp`, `bytecode`, `jit` and `auto` give the same report (times, memory and
/// the command line aside) on a family that holds and one that fails with a trace.
#[test]
fn every_compile_mode_gives_the_same_report() {
    for (fam, size) in [("peterson", "4"), ("german", "3"), ("mutex_bug", "3")] {
        let f = family(fam);
        let run = |how: &str| {
            let args = ["check", &f, "--size", size, "--engine", "explicit"];
            let (code, mut v) = json_run(&[&args[..], &["--compile", how]].concat());
            common::without_keys(
                &mut v,
                &[
                    "seconds",
                    "shown_at",
                    "peak_memory_bytes",
                    "command",
                    "shared_time",
                ],
            );
            (code, v)
        };
        let interp = run("interp");
        assert_eq!(run("bytecode"), interp, "{fam}: bytecode");
        assert_eq!(run("jit"), interp, "{fam}: jit");
        assert_eq!(run("auto"), interp, "{fam}: auto");
    }
}

#[test]
fn deadlocks_and_their_shortest_depths() {
    let (code, v) = json_run(&[
        "check",
        "families/grant_mutex.cub",
        "--sizes",
        "1..4",
        "--deadlock",
    ]);
    assert_eq!(code, 1);
    for r in rows(&v) {
        if r.property == "deadlock" {
            if r.size == 1 {
                assert_eq!(r.verdict, "holds");
            } else {
                assert_eq!((r.verdict.as_str(), r.depth), ("violated", Some(r.size)));
            }
        }
    }
    let (_, v) = json_run(&[
        "check",
        "families/german.cub",
        "--sizes",
        "1..2",
        "--deadlock",
        "--no-symmetry",
    ]);
    let dl: Vec<_> = rows(&v)
        .into_iter()
        .filter(|r| r.property == "deadlock")
        .collect();
    assert_eq!((dl[0].verdict.as_str(), dl[0].depth), ("violated", Some(4)));
    assert_eq!(dl[1].verdict, "holds");
}

/// Rebuild a trace from its JSON form and replay it on the interpreter.
pub(crate) fn replay_json(model: &nfold::model::ir::Model, size: usize, prop: &str, t: &Value) {
    let inst = Instance::new(model, size);
    let init = init_from_json(&inst, t);
    let steps = steps_from_json(model, t);
    let violation = match t["kind"].as_str().unwrap() {
        "unsafe" => Violation::Unsafe {
            prop: model.unsafes.iter().position(|u| u.name == prop).unwrap(),
            tuple: t["processes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_i64().unwrap())
                .collect(),
        },
        "deadlock" => Violation::Deadlock,
        k => panic!("unexpected kind {k}"),
    };
    let trace = Trace {
        size,
        init,
        steps,
        violation,
    };
    let states = trace.replay(model).expect("printed trace replays");
    // The printed changes are exactly the differences between replayed states.
    for (k, s) in t["steps"].as_array().unwrap().iter().enumerate() {
        let ch = nfold::trace::changes(&inst, &states[k], &states[k + 1]);
        let printed = s["changes"].as_object().unwrap();
        assert_eq!(ch.len(), printed.len());
        for (c, v) in ch {
            assert_eq!(common::value_text(&printed[&c]), v);
        }
    }
}

#[test]
fn printed_traces_replay_and_json_has_the_documented_schema() {
    for (fam, extra) in [
        ("mutex_bug", vec![]),
        ("mutex_bug", vec!["--no-symmetry"]),
        ("german_bug", vec![]),
        ("german_bug", vec!["--no-symmetry"]),
        ("grant_mutex", vec!["--deadlock"]),
    ] {
        let f = family(fam);
        let mut args = vec!["check", &f[..], "--sizes", "1..4"];
        args.extend(extra.iter().copied());
        let (_, v) = json_run(&args);
        let model = nfold::lang::load_file(&f).unwrap();
        assert_eq!(v["model"], Value::String(f.clone()));
        assert!(v["symmetric"].is_boolean());
        assert_eq!(
            v["engine"],
            if extra.contains(&"--deadlock") {
                "explicit"
            } else {
                "auto"
            }
        );
        let mut traces = 0;
        for r in v["results"].as_array().unwrap() {
            for key in ["size", "property", "verdict", "depth", "trace"] {
                assert!(r.get(key).is_some(), "missing {key}");
            }
            // A loaded machine may hand a size to IC3, whose rows count lemmas.
            if r["engine"] == "explicit" {
                assert!(r["states"].is_u64(), "missing states");
            }
            if r["verdict"] == "violated" {
                let t = &r["trace"];
                assert_eq!(
                    t["steps"].as_array().unwrap().len() as u64,
                    r["depth"].as_u64().unwrap()
                );
                replay_json(
                    &model,
                    r["size"].as_u64().unwrap() as usize,
                    r["property"].as_str().unwrap(),
                    t,
                );
                traces += 1;
            } else {
                assert!(r["trace"].is_null());
            }
        }
        assert!(traces >= 2, "{fam}");
    }
}

#[test]
fn text_output_has_table_and_traces() {
    let (code, out, _) = nfold(&["check", "families/mutex_bug.cub", "--sizes", "1..3"]);
    assert_eq!(code, 1);
    assert!(out.contains("size  property"));
    assert!(out.contains("   2  mutex                VIOLATED            6"));
    assert!(
        out.contains("size 2: `mutex` violated at depth 6 (trace replayed on the interpreter):")
    );
    assert!(out.contains("      1  req(1)     A[1]=Want"));
    assert!(out.contains("=> bad state: `mutex` with z1=1, z2=2"));
    assert!(!out.contains("holds for"));
    assert!(out.contains("violations at sizes 2..3"));
    let (code, out, _) = nfold(&["check", "families/token_ring.cub", "--size", "3"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("not fully symmetric: arithmetic on a process id at families/token_ring.cub:")
    );
}

#[test]
fn limits_end_the_run_cleanly_with_exit_code_3() {
    let (code, out, _) = nfold(&[
        "check",
        "families/peterson.cub",
        "--sizes",
        "1..5",
        "--max-states",
        "100",
    ]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains("stopped: state limit (--max-states) reached at size 4"),
        "{out}"
    );
    // Sizes 1..3 answered, size 4 stopped, size 5 not run: 4 and 5 are left open.
    assert!(out.contains("; unanswered: mutex: 4..5\n"), "{out}");
    assert!(out.contains("not run: size 5"), "{out}");
    assert!(out.contains("   4  mutex                unknown"), "{out}");
    let (code, v) = json_run(&[
        "check",
        "families/german.cub",
        "--sizes",
        "1..4",
        "--timeout",
        "0",
    ]);
    assert_eq!(code, 3);
    assert_eq!(v["limit"], "time limit (--timeout) reached");
    assert!(rows(&v).iter().all(|r| r.verdict != "holds" || r.size < 4));
    // A violation found before the limit is still reported (exit code 1).
    let (code, _, _) = nfold(&[
        "check",
        "families/mutex_bug.cub",
        "--sizes",
        "2..5",
        "--max-states",
        "40",
    ]);
    assert_eq!(code, 1);
    let (code, _, _) = nfold(&[
        "check",
        "families/peterson.cub",
        "--size",
        "4",
        "--max-memory",
        "1K",
    ]);
    assert_eq!(code, 3);
}

#[test]
fn property_selection_and_number_procs() {
    let (_, v) = json_run(&[
        "check",
        "families/mesi.cub",
        "--size",
        "2",
        "--property",
        "exclusive_alone",
    ]);
    let r = rows(&v);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].property, "exclusive_alone");
    let (code, _, err) = nfold(&["check", "families/mesi.cub", "--property", "nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("no property named `nope`"), "{err}");

    let dir = common::scratch_dir("cli");
    let p = dir.join("fixed.cub");
    std::fs::write(&p, "number_procs 3\narray A[proc] : bool\ninit (z) { A[z] = False }\n\
                        unsafe (z) { A[z] = True }\ntransition t (i) requires { i = #2 } { A[i] := True; }\n").unwrap();
    let f = p.to_str().unwrap();
    let (code, v) = json_run(&["check", f]);
    assert_eq!(code, 1);
    assert_eq!(rows(&v)[0].size, 3);
    assert_eq!(rows(&v)[0].depth, Some(1));
    let (code, _, err) = nfold(&["check", f, "--sizes", "1..4"]);
    assert_eq!(code, 2);
    assert!(err.contains("fixes the size to 3"));
}

#[test]
fn info_describes_the_family() {
    let (code, out, _) = nfold(&["info", "families/peterson.cub", "--size", "3"]);
    assert_eq!(code, 0);
    assert!(out.contains("symmetry  fully symmetric"));
    assert!(out.contains("array Victim[1 .. N - 1] : proc"));
    assert!(out.contains("climb(i)"));
    assert!(out.contains("unsafe mutex (z1 z2)"));
    assert!(out.contains("ltl    starvation_free (i)"));
    assert!(out.contains("transition inst.   18"));
    let (_, out, _) = nfold(&["info", "families/token_ring.cub"]);
    assert!(
        out.contains("not fully symmetric: arithmetic on a process id at families/token_ring.cub:")
    );
}

#[test]
fn usage_and_input_errors_exit_2_with_one_line_or_a_located_message() {
    for args in [
        vec!["check", "families/mutex.cub", "--sizes", "5..3"],
        vec!["check", "families/mutex.cub", "--sizez", "1..3"],
        vec!["check", "families/mutex.cub", "--size", "0"],
        vec!["check", "families/mutex.cub", "--size", "x"],
        vec!["check", "families/mutex.cub", "--engine", "magic"],
        vec!["frobnicate"],
        vec!["live"],
        vec!["live", "families/mutex.cub", "--fiar"],
        vec!["cnf", "families/mutex.cub"],
    ] {
        let (code, out, err) = nfold(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("nfold: error: "), "{err}");
    }
    let (code, _, err) = nfold(&["check", "families/mutex.cub", "--sizes", "5..3"]);
    assert_eq!(code, 2);
    assert!(err.contains("empty"), "{err}");
    // Missing arguments are named on the one line.
    let (_, _, err) = nfold(&["cnf", "families/mutex.cub"]);
    assert!(err.contains("--size <N>, --depth <K>"), "{err}");
    let (_, _, err) = nfold(&["live"]);
    assert!(err.contains("provided: <FILE>"), "{err}");
    // The likeliest near miss first: `chek` is one letter from `check`.
    let (_, _, err) = nfold(&["chek", "families/mutex.cub"]);
    assert!(err.contains("did you mean `check`"), "{err}");
    let (_, _, err) = nfold(&["live", "families/mutex.cub", "--fiar"]);
    assert!(err.contains("did you mean `--fair`"), "{err}");
    let (code, _, err) = nfold(&["check", "no/such/file.cub"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read file"));
    let dir = common::scratch_dir("cli-bad");
    let p = dir.join("bad.cub");
    std::fs::write(
        &p,
        "type s = A | B\narray X[proc] : s\ninit (z) { X[z] := A }\n",
    )
    .unwrap();
    let (code, out, err) = nfold(&["check", p.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("bad.cub:3:17: error: expected"), "{err}");
    assert!(err.contains("  3 | init (z) { X[z] := A }"), "{err}");
    assert!(err.contains("^"), "{err}");
    let (code, out, _) = nfold(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Exit codes"));
}

#[test]
fn oddeven_bug_fails_at_odd_sizes_with_the_explicit_engine() {
    let top = format!("1..{}", max_size());
    let (code, v) = json_run(&["check", "families/oddeven_sort_bug.cub", "--sizes", &top]);
    assert_eq!(code, 1);
    for r in rows(&v) {
        let n = r.size;
        if n % 2 == 1 {
            assert_eq!(
                (r.verdict.as_str(), r.depth),
                ("violated", Some(3 * n)),
                "size {n}"
            );
        } else {
            assert_eq!(r.verdict, "holds", "size {n}");
        }
    }
}

/// A signal sent to a running `nfold check` stops it cleanly: the summary, the
/// `stopped:` line, exit code 3.
fn signal_ends_the_run_cleanly(signal: i32) {
    use std::process::Stdio;
    let child = Command::new(env!("CARGO_BIN_EXE_nfold"))
        .args([
            "check",
            "families/german.cub",
            "--sizes",
            "4..6",
            "--no-symmetry",
            "--engine",
            "explicit",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: sending a signal to our own child process.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
    let out = child.wait_with_output().unwrap();
    let (o, e) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(3), "signal {signal}: {o}\n{e}");
    assert!(o.contains("stopped: interrupted at size"), "{o}");
    assert!(o.contains("every run of up to"), "{o}");
    assert!(!e.contains("panicked"), "{e}");
}

#[test]
fn ctrl_c_ends_the_run_cleanly() {
    signal_ends_the_run_cleanly(libc::SIGINT);
}

/// SIGTERM is what `timeout`, `docker stop`, Slurm and CI runners send.
#[test]
fn sigterm_ends_the_run_cleanly() {
    signal_ends_the_run_cleanly(libc::SIGTERM);
}

#[test]
fn sat_limits_report_how_far_each_size_was_answered() {
    let (code, v) = json_run(&[
        "check",
        "families/ticket_lock.cub",
        "--sizes",
        "1..4",
        "--depth",
        "40",
        "--timeout",
        "1",
    ]);
    assert_eq!(code, 3);
    assert_eq!(v["limit"], "time limit (--timeout) reached");
    // The ticket lock's ranges depend on N, so the sizes are checked width by width:
    // the small ones may be answered to depth 40 before the limit, the last is not.
    let results = v["results"].as_array().unwrap();
    for r in results {
        if r["verdict"] == "unknown" {
            // Not answered at all (null) when the limit came before its depth 0.
            assert!(r["answered_depth"].as_u64().is_none_or(|d| d < 40));
        } else {
            assert_eq!(r["verdict"], "no_violation_up_to", "{r}");
            assert_eq!(r["answered_depth"], 40);
        }
    }
    assert_eq!(results.last().unwrap()["verdict"], "unknown");
    let (code, out, _) = nfold(&[
        "check",
        "families/mutex.cub",
        "--size",
        "3",
        "--depth",
        "10",
        "--max-memory",
        "1K",
    ]);
    assert_eq!(code, 3);
    assert!(out.contains("memory limit (--max-memory) reached"), "{out}");
    assert!(!out.contains("holds"));
}

/// Constructs of Cubicle's examples through the command line: repeated transition
/// names in traces (text and JSON, rebuilt and replayed by name) and in `info`;
/// abstract types with `--data-values`; the SAT engine refusing `A[i] := .`; a model
/// whose `init` excludes every process from a process-valued global.
#[test]
fn cubicle_constructs_through_the_command_line() {
    let dir = common::scratch_dir("cli-cub");
    let write = |name: &str, text: &str| common::write_file(&dir, name, text);
    // Three transitions named `t`: X = 0 -> 1 -> 2 -> 3, one each.
    let rep = write(
        "rep.cub",
        "var X : 0 .. 3\ninit () { X = 0 }\n\
         transition t () requires { X = 0 } { X := 1; }\n\
         transition t () requires { X = 1 } { X := 2; }\n\
         transition t () requires { X = 2 } { X := 3; }\n\
         unsafe () { X = 3 }\n",
    );
    let (code, out, err) = nfold(&["check", &rep, "--size", "1"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains(
            "rep.cub:4:12: warning: transition names used more than once: `t` (lines 3, 4, 5)"
        ),
        "{err}"
    );
    assert_eq!(err.matches("warning").count(), 1, "{err}");
    for step in ["t()", "t#2()", "t#3()"] {
        assert!(out.contains(&format!("  {step}")), "{step} in\n{out}");
    }
    let (_, v) = json_run(&["check", &rep, "--size", "1"]);
    let r = &v["results"][0];
    assert_eq!(r["depth"], 3);
    let names: Vec<&str> = r["trace"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["transition"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["t", "t#2", "t#3"]);
    let model = nfold::lang::load_file(&rep).unwrap();
    replay_json(&model, 1, "unsafe1", &r["trace"]);
    // --property still selects by property name.
    let (code, _, _) = nfold(&["check", &rep, "--size", "1", "--property", "unsafe1"]);
    assert_eq!(code, 1);
    let (code, out, _) = nfold(&["info", &rep]);
    assert_eq!(code, 0);
    assert!(out.contains("  t()"), "{out}");
    assert!(out.contains("  t#2()"), "{out}");
    assert!(out.contains("line 4\n"), "{out}");
    assert!(out.contains("line 5\n"), "{out}");

    // An abstract type: 3 values by default (the property reads D[z] and Mem).
    let data = write(
        "data.cub",
        "type data\narray C[proc] : bool\narray D[proc] : data\nvar Mem : data\n\
         init (z) { C[z] = False }\n\
         transition fetch (i) requires { C[i] = False } { C[i] := True; D[i] := Mem; }\n\
         transition write () { Mem := .; }\n\
         transition touch (i) requires { i = #1 } { C[i] := C[i]; }\n\
         unsafe (z) { C[z] = True && D[z] <> Mem }\n\
         ltl back (i) { G F C[i] = False }\n",
    );
    let (code, out, err) = nfold(&["info", &data]);
    assert_eq!(code, 0);
    assert!(
        out.contains("  data (abstract): 3 values d1..d3 (data independent"),
        "{out}"
    );
    assert!(
        err.contains("data.cub:1:6: warning: abstract type `data`: 3 values"),
        "{err}"
    );
    let (code, out, _) = nfold(&["info", &data, "--data-values", "4"]);
    assert_eq!(code, 0);
    assert!(out.contains("4 values d1..d4 (--data-values"), "{out}");
    let (code, v) = json_run(&["check", &data, "--size", "2", "--data-values", "2"]);
    assert_eq!(code, 1);
    let r = &v["results"][0];
    assert_eq!(r["verdict"], "violated");
    assert_eq!(r["depth"], 2);
    // Not fully symmetric (`#1`), but the data values are reduced.
    assert_eq!(v["symmetric"], false);
    assert_eq!(r["symmetry"], true);
    let init = r["trace"]["init"].as_object().unwrap();
    assert!(init["Mem"] == "d1" || init["Mem"] == "d2", "{init:?}");
    let (_, out, _) = nfold(&["check", &data, "--size", "1", "--engine", "explicit"]);
    assert!(
        out.contains("symmetry  not fully symmetric: the process constant `#1` at ")
            && out.contains("; reduction on for data values only\n"),
        "{out}"
    );
    let (_, out, _) = nfold(&[
        "check",
        &data,
        "--size",
        "1",
        "--no-symmetry",
        "--engine",
        "explicit",
    ]);
    assert!(out.contains("; reduction off\n"), "{out}");
    let (code, _, err) = nfold(&["check", &data, "--data-values", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a number of data values"), "{err}");
    let (code, _, err) = nfold(&["live", &data, "--size", "1", "--data-values", "2"]);
    assert!(code == 0 || code == 1, "{err}");

    // `A[i] := .`: every engine takes it; two steps make two cells 2.
    let arr = write(
        "arr.cub",
        "array A[proc] : 0 .. 2\ninit (z) { A[z] = 0 }\n\
         transition r (i)\n{ A[i] := .; }\nunsafe (z1 z2) { A[z1] = 2 && A[z2] = 2 }\n",
    );
    for engine in ["explicit", "sat", "ic3", "kind", "auto"] {
        let (code, v) = json_run(&["check", &arr, "--sizes", "1..3", "--engine", engine]);
        assert_eq!(code, 1, "{engine}");
        let got: Vec<(usize, String, Option<usize>)> = rows(&v)
            .into_iter()
            .map(|r| (r.size, r.verdict, r.depth))
            .collect();
        assert_eq!(got[0].0, 1);
        assert_ne!(got[0].1, "violated", "{engine}");
        assert_eq!(
            got[1..],
            [
                (2, "violated".into(), Some(2)),
                (3, "violated".into(), Some(2))
            ],
            "{engine}"
        );
    }
    let (code, out, _) = nfold(&["cnf", &arr, "--size", "2", "--depth", "2"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("c nfold cnf"), "{out}");

    // Flash's `init (p) { Home <> p && ... }`: Home is the extra process id 0, not one
    // of the processes, so there is one initial state (not none) and a violation at 2.
    let home = write(
        "home.cub",
        "type s = I | E\nvar Home : proc\narray A[proc] : s\n\
         init (p) { Home <> p && A[p] = I }\n\
         transition go (i) requires { A[i] = I } { A[i] := E; }\n\
         unsafe (z1 z2) { A[z1] = E && A[z2] = E }\n",
    );
    let (code, out, err) = nfold(&["info", &home, "--size", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("initial states     1\n"), "{out}");
    assert!(err.contains("one extra process id, 0"), "{err}");
    let (code, out, _) = nfold(&["check", &home, "--sizes", "1..2", "--engine", "explicit"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("violations at sizes 2") || out.contains("violation at size 2"),
        "{out}"
    );
}

/// `--store hash-compact` and `--store bitstate` may miss states: a size with no
/// violation is `incomplete` (text `none found*` with the probability of a miss in a
/// note, exit 4), never `holds`; a violation they meet is still a replayed trace. With
/// few states and a large table no two states collide, so the counts are the exact
/// search's (pinned in `exact_state_counts_with_and_without_symmetry`).
#[test]
fn lossy_stores_never_say_holds() {
    let sizes = ["--sizes", "1..4", "--engine", "explicit"];
    let (code, exact) = json_run(&[&["check", "families/peterson.cub"][..], &sizes].concat());
    assert_eq!(code, 0);
    for store in ["hash-compact", "bitstate:1M"] {
        let args = [
            &["check", "families/peterson.cub"][..],
            &sizes,
            &["--store", store],
        ]
        .concat();
        let (code, v) = json_run(&args);
        assert_eq!(code, 4, "{store}");
        for (r, e) in v["results"]
            .as_array()
            .unwrap()
            .iter()
            .zip(exact["results"].as_array().unwrap())
        {
            assert_eq!(r["verdict"], "incomplete", "{store}");
            assert!(
                r["states"].as_u64().is_some() && r["states"] == e["states"],
                "{store}"
            );
            let p = r["omission_probability"].as_f64().unwrap();
            assert!((0.0..1e-6).contains(&p), "{store}: {p}");
        }
        assert!(
            v["engine_text"]
                .as_str()
                .unwrap()
                .contains("may miss states")
        );
        let (code, out, _) = nfold(&args);
        assert_eq!(code, 4);
        assert!(!out.contains("holds"), "{out}");
        assert!(out.contains("none found*"), "{out}");
        assert!(
            out.contains("probability that it missed a reachable state"),
            "{out}"
        );
        let (code, out, _) = nfold(&[
            "check",
            "families/mutex_bug.cub",
            "--size",
            "2",
            "--store",
            store,
        ]);
        assert_eq!(code, 1, "{out}");
        assert!(out.contains("VIOLATED"), "{out}");
    }
    // The stores belong to the explicit engine.
    let (code, _, err) = nfold(&[
        "check",
        "families/mutex.cub",
        "--engine",
        "sat",
        "--store",
        "bitstate",
    ]);
    assert_eq!(code, 2, "{err}");
}

/// An engine chosen by the user that explicit search would beat by far gets an early
/// note on stderr (a probe of at most a quarter second), and its own verdicts unchanged:
/// SAT still answers `none up to 6` where explicit search would say `holds`.
#[test]
fn a_chosen_engine_far_off_auto_gets_a_note_and_keeps_its_verdicts() {
    let run = |args: &[&str]| {
        let (_, out, err) = nfold(args);
        (out, err)
    };
    let f = family("mutex");
    let note = "note: explicit search answers sizes 1..4 in ";
    let (out, err) = run(&[
        "check", &f, "--sizes", "1..4", "--engine", "sat", "--depth", "6",
    ]);
    assert!(err.contains(note), "{err}");
    assert!(err.contains("running sat as asked"), "{err}");
    assert_eq!(out.matches("none up to 6").count(), 4, "{out}");
    // Chosen by `--depth`, not by `--engine`: the note says so.
    let (_, err) = run(&["check", &f, "--sizes", "1..4", "--depth", "6"]);
    assert!(
        err.contains("running sat, which a flag of its own chose"),
        "{err}"
    );
    assert!(!out.contains("holds"), "{out}");
    for quiet in [
        &["--engine", "sat", "--depth", "6", "--json"][..],
        &["--engine", "sat", "--depth", "6", "--quiet"],
        &["--engine", "explicit"],
        &[],
    ] {
        let mut args = vec!["check", &f[..], "--sizes", "1..4"];
        args.extend_from_slice(quiet);
        let (_, err) = run(&args);
        assert!(!err.contains("note: explicit search"), "{args:?}: {err}");
    }
    // German 1..8 is beyond a quarter second of explicit search: IC3 runs without a note.
    let (out, err) = run(&[
        "check",
        &family("german"),
        "--sizes",
        "1..8",
        "--engine",
        "ic3",
    ]);
    assert!(!err.contains("note: explicit search"), "{err}");
    assert!(out.contains("holds at sizes 1..8"), "{out}");
}

/// `nfold check` on a model whose properties are all `ltl` says where they are
/// answered, with the exit code of bad usage (as `nfold live` on a model without one).
#[test]
fn check_on_ltl_only_models_points_to_live() {
    let (code, _, err) = nfold(&["check", "families/oddeven_sort_live.cub", "--sizes", "1..2"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("`eventually_sorted`") && err.contains("nfold live"),
        "{err}"
    );
    let (code, out, err) = nfold(&[
        "check",
        "families/oddeven_sort_live.cub",
        "--sizes",
        "1..2",
        "--ltl",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("holds at sizes 1..2"), "{out}");
}

/// `--every-n` not reached: the last line says so beside the sizes, exit 4.
#[test]
fn every_n_not_reached_ends_on_not_proved() {
    let (code, out, _) = nfold(&[
        "check",
        "families/ticket_lock.cub",
        "--every-n",
        "--sizes",
        "1..3",
    ]);
    assert_eq!(code, 4, "{out}");
    let last = out
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    assert!(last.contains("every n: not proved"), "{last}");
}

/// `nfold cnf --solve` exits as a SAT solver: 10 satisfiable (mutex_bug violates its
/// property within 6 steps at size 2), 20 unsatisfiable (mutex holds).
#[test]
fn cnf_solve_exits_as_sat_solvers_do() {
    let dir = crate::common::fresh_dir("cnf_solve");
    let out = dir.join("m.cnf");
    let o = out.to_str().unwrap();
    for (file, want) in [("families/mutex_bug.cub", 10), ("families/mutex.cub", 20)] {
        let (code, _, err) = nfold(&[
            "cnf", file, "--size", "2", "--depth", "6", "-o", o, "--solve", "cadical",
        ]);
        assert_eq!(code, want, "{file}: {err}");
    }
}

/// Every command that runs a check ends its `--help` with the exit codes.
#[test]
fn check_help_lists_the_exit_codes() {
    for cmd in ["check", "live"] {
        let (code, out, _) = nfold(&[cmd, "--help"]);
        assert_eq!(code, 0);
        assert!(out.contains("Exit codes: 0"), "{cmd}: {out}");
    }
}

/// A counterexample is printed once: later sizes that fail by the same steps (or the
/// same lasso) are one line after it. German's bug takes 8 steps with two caches at
/// every size from 2 (the family header's trace); mutex's starvation without fairness
/// is process 2 taking the semaphore for ever while process 1 waits, at every size
/// from 2.
#[test]
fn repeated_counterexamples_are_one_line() {
    let (code, out, _) = nfold(&["check", "families/german_bug.cub", "--sizes", "1..5"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        out.matches("(trace replayed on the interpreter)").count(),
        1,
        "{out}"
    );
    assert!(
        out.contains(
            "sizes 3..5: `coherence` violated at depth 8 by the same steps as size 2 (replayed at each)"
        ),
        "{out}"
    );
    assert!(
        out.contains("violations at sizes 2..5; holds at size 1"),
        "{out}"
    );
    let (code, out, _) = nfold(&["live", "families/mutex.cub", "--sizes", "1..4"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(out.matches("violated by a lasso").count(), 1, "{out}");
    assert!(
        out.contains("sizes 3..4: `starvation_free` for i=1 violated by the same lasso as size 2 (replayed at each)"),
        "{out}"
    );
}

/// An `invariant` written as the property that should hold (TLA+'s sense) fails in
/// the initial state; the help line shows the negated block.
#[test]
fn an_invariant_in_the_sense_of_tla_gets_the_negated_form() {
    let dir = crate::common::fresh_dir("cli-tla-invariant");
    let p = dir.join("inv.cub");
    std::fs::write(
        &p,
        "type loc = Idle | Crit\narray Pc[proc] : loc\narray Flag[proc] : 0 .. 4\n\
         init (i) { Pc[i] = Idle && Flag[i] = 0 }\n\
         invariant flagok (p) { Pc[p] = Crit => Flag[p] = 4 }\n\
         transition go (i) requires { Pc[i] = Idle } { Pc[i] := Crit; Flag[i] := 4 }\n",
    )
    .unwrap();
    let (code, out, _) = nfold(&["check", p.to_str().unwrap(), "--sizes", "1..2"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("help: invariant `flagok` is violated in an initial state")
            && out.contains("`invariant flagok (p) { Pc[p] = Crit && not (Flag[p] = 4) }`"),
        "{out}"
    );
}

/// A step that runs long (here a deep BMC query, with the silence shortened to 0.2 s
/// by `NFOLD_SILENCE`) is not a silent stretch: the watch repeats the last step
/// reported.
#[test]
fn a_long_step_is_never_silent() {
    let out = Command::new(env!("CARGO_BIN_EXE_nfold"))
        .args([
            "check",
            "families/german.cub",
            "--size",
            "10",
            "--no-symmetry",
            "--engine",
            "sat",
            "--depth",
            "40",
            "--timeout",
            "4",
            "--progress",
        ])
        .env("NFOLD_SILENCE", "0.2")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    // The first stretch (building the formulas) or one between two depths.
    assert!(err.contains("] still working"), "{err}");
}

/// The probe note before an engine the user chose is given for `ltl` properties too
/// (mutex's starvation is answered by the nested search in microseconds), and
/// `--depth` with the explicit engine says what bounds that search instead.
#[test]
fn the_probe_speaks_for_ltl_engines_and_depth_is_explained() {
    for engine in ["bdd", "rank", "sat", "ic3"] {
        let (_, _, err) = nfold(&[
            "live",
            "families/mutex.cub",
            "--sizes",
            "1..3",
            "--engine",
            engine,
        ]);
        assert!(
            err.contains("note: explicit search answers sizes 1..3 in")
                && err.contains(&format!("running {engine} as asked")),
            "{engine}: {err}"
        );
    }
    let (code, _, err) = nfold(&[
        "check",
        "families/mutex.cub",
        "--engine",
        "explicit",
        "--depth",
        "5",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("the explicit search has no depth bound")
            && err.contains("--max-states or --timeout"),
        "{err}"
    );
}

/// Trace values in JSON are numbers for numeric types (German's `CurPtr : proc`) and
/// names otherwise; a trail written by schema version 2 (every value a string) still
/// replays.
#[test]
fn trace_values_are_numbers_and_old_trails_replay() {
    let dir = crate::common::fresh_dir("cli-json-values");
    let (code, v) = json_run(&["check", "families/german_bug.cub", "--size", "2"]);
    assert_eq!(code, 1);
    let row = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["verdict"] == "violated")
        .unwrap();
    let init = &row["trace"]["init"];
    assert!(init["CurPtr"].is_i64(), "{init}");
    assert_eq!(init["Cache[1]"], "I");
    let mut old = v.clone();
    old["schema"] = Value::from(2);
    let as_strings = |m: &mut Value| {
        for (_, x) in m.as_object_mut().unwrap() {
            if x.is_i64() {
                *x = Value::from(x.to_string());
            }
        }
    };
    for r in old["results"].as_array_mut().unwrap() {
        if r["trace"].is_object() {
            as_strings(&mut r["trace"]["init"]);
            for s in r["trace"]["steps"].as_array_mut().unwrap() {
                as_strings(&mut s["changes"]);
            }
        }
    }
    let path = dir.join("old.json");
    std::fs::write(&path, old.to_string()).unwrap();
    let (code, out, err) = nfold(&["replay", "families/german_bug.cub", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("replayed: all 8 steps match"), "{out}");
}

/// The JSON document carries the exit code and the text's last line.
#[test]
fn json_carries_the_exit_code_and_the_summary() {
    let args = ["check", "families/german_bug.cub", "--sizes", "1..3"];
    let (code, v) = json_run(&args);
    let (text_code, out, _) = nfold(&args);
    assert_eq!(v["exit_code"], code);
    assert_eq!(code, text_code);
    let last = out.lines().rev().find(|l| !l.trim().is_empty()).unwrap();
    let summary = v["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("violations at sizes 2..3") && last.starts_with(summary),
        "{summary}\n{last}"
    );
}

/// `check --ltl` answers each size by two routes (safety and `ltl`): the summary lists
/// each size once by kind, every property gets its line, and a note both routes give
/// is printed once. The tutorial's test-and-set lock: `mutex` holds, its `ltl`
/// properties fail at size 2 (docs/tutorial.md, section 5).
#[test]
fn a_run_of_two_routes_summarises_each_size_once() {
    let (code, out, err) = nfold(&[
        "check",
        "docs/examples/tutorial/tas.cub",
        "--ltl",
        "--sizes",
        "1..2",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let last = out.lines().rev().find(|l| !l.trim().is_empty()).unwrap();
    assert!(
        last.starts_with("violation at size 2; holds at size 1; "),
        "{last}"
    );
    assert!(out.contains("\nmutex: holds at sizes 1..2\n"), "{out}");
    assert!(
        out.contains("\nleaves: violated at size 2; holds at size 1\n"),
        "{out}"
    );
    let note = "note: sizes 1..2 answered by exhaustive explicit search";
    assert_eq!(
        out.matches(note).count() + err.matches(note).count(),
        1,
        "{out}"
    );
    let (_, out, _) = nfold(&[
        "live",
        "docs/examples/tutorial/tas.cub",
        "--deadlock",
        "--sizes",
        "1..2",
    ]);
    assert!(
        out.contains("\ndeadlock-free: holds at sizes 1..2\n"),
        "{out}"
    );
}

/// An engine that uses no symmetry says so once, without "on" or "off", and without
/// the sentence on process 1 that belongs to the searches that reduce by symmetry.
#[test]
fn an_engine_without_symmetry_says_not_used() {
    let (_, out, _) = nfold(&[
        "live",
        "families/mutex.cub",
        "--sizes",
        "1..2",
        "--engine",
        "bdd",
    ]);
    assert!(
        out.contains(
            "symmetry  fully symmetric; not used (the BDD engine does not use symmetry)\n"
        ),
        "{out}"
    );
    assert!(!out.contains("checked for i = 1"), "{out}");
}

/// `--trace-format table` shapes text only: with `--json` it is refused, not ignored;
/// `--engine` help names every flag that chooses an engine.
#[test]
fn json_with_a_table_trace_format_is_refused() {
    let (code, _, err) = nfold(&[
        "check",
        "families/mutex_bug.cub",
        "--json",
        "--trace-format",
        "table",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--trace-format table shapes the text output"),
        "{err}"
    );
    let (_, help, _) = nfold(&["check", "--help"]);
    let words = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("--whole-aggregate, --encoding or --por"),
        "{help}"
    );
}
