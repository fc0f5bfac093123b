//! Liveness (`nfold live`): starvation-freedom verdicts of the shipped families with and
//! without weak fairness and symmetry, pinned per size (confirmed independently by
//! SPIN's `pan -a [-f]` on hand translations, see benches/live_pml.py, and by the SCC
//! oracle below); the nested depth-first search and the fair SCC search, with and
//! without symmetry, against an SCC-based check of fair accepting cycles on the
//! unreduced product (tests/common/fair_scc.rs) on every family; lassos in JSON rebuilt
//! and replayed; deadlock stutters, range errors, limits and usage errors.

use crate::common;

use common::fair_scc::{self, Oracle};
use common::{family, json_run, lasso_from_json, nfold, scratch_dir, write_file};
use nfold::explicit::ndfs::{self, NdfsOptions, NdfsSearch, NdfsVerdict};
use nfold::ltl::LtlProperty;
use nfold::model::ir::Model;
use serde_json::Value;

fn load(name: &str) -> Model {
    common::load(&family(name))
}

fn max_size() -> usize {
    if cfg!(debug_assertions) { 4 } else { 5 }
}

/// The expected verdict of `starvation_free` at size n: whether it is violated.
fn expected_violated(family: &str, fair: bool, n: usize) -> bool {
    match (family, fair) {
        // A waiting process can be overtaken forever, fair or not.
        ("mutex", _) | ("token_mutex", _) => n >= 2,
        // A holder that wants again keeps the token: starvation even under fairness.
        ("token_ring", _) => n >= 2,
        // Two processes: the filter lock is Peterson's algorithm, which lets no process
        // wait forever even unfairly (the other blocks). From three on, two processes
        // can overtake an unscheduled one forever; weak fairness rules that out.
        ("peterson", false) => n >= 3,
        ("peterson", true) => false,
        ("ticket_lock", _) => false,
        _ => panic!("no expectation for {family}"),
    }
}

const FAMILIES: [&str; 5] = [
    "mutex",
    "token_mutex",
    "token_ring",
    "peterson",
    "ticket_lock",
];

/// Verdicts through the CLI for sizes 1..max, fair and unfair, with and without
/// symmetry: every answer is exact (`holds` or a replayed lasso), the search column
/// names the search that answered, the exit code is 1 or 0.
#[test]
fn starvation_freedom_verdicts_of_the_families() {
    let top = max_size();
    for fam in FAMILIES {
        for fair in [false, true] {
            for sym in [true, false] {
                let sizes = format!("1..{top}");
                // The explicit engine: its searches are what the rows are checked for
                // (auto may hand a size that is slow on a loaded machine to the SAT
                // route, `tests/live_auto.rs`).
                let mut args = vec!["live", "--quiet", "--engine", "explicit"];
                let path = format!("families/{fam}.cub");
                args.push(&path);
                args.extend(["--sizes", &sizes]);
                if fair {
                    args.push("--fair");
                }
                if !sym {
                    args.push("--no-symmetry");
                }
                let (code, v) = json_run(&args);
                let mut any_violated = false;
                for n in 1..=top {
                    let rows: Vec<&Value> = v["results"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter(|r| r["size"].as_u64() == Some(n as u64))
                        .collect();
                    assert!(!rows.is_empty(), "{fam} n={n}: no result");
                    let violated = rows.iter().any(|r| r["verdict"] == "violated");
                    let want = expected_violated(fam, fair, n);
                    assert_eq!(
                        violated, want,
                        "{fam} fair={fair} sym={sym} n={n}: {rows:?}"
                    );
                    any_violated |= violated;
                    for r in &rows {
                        if r["verdict"] == "violated" {
                            let t = &r["trace"];
                            assert_eq!(t["kind"], "lasso");
                            replay_json(&load(fam), n, t);
                        } else {
                            assert_eq!(r["verdict"], "holds", "{fam} n={n}");
                        }
                        // Symmetry identifies states from n = 3 on (fixing process 1).
                        let reduced = sym && n >= 3 && load(fam).is_symmetric();
                        let search = match (fair, reduced) {
                            (false, false) => "full",
                            (false, true) => "symmetry",
                            (true, false) => "scc",
                            (true, true) => "symmetry+scc",
                        };
                        assert_eq!(r["search"], search, "{fam} n={n}");
                        assert_eq!(r["symmetry"], reduced, "{fam} n={n}");
                    }
                }
                assert_eq!(
                    code,
                    if any_violated { 1 } else { 0 },
                    "{fam} fair={fair} sym={sym}"
                );
            }
        }
    }
}

/// Rebuild a lasso from its JSON form and replay it (init, steps, closing of the
/// cycle, violation of the property, fairness).
fn replay_json(model: &Model, size: usize, t: &Value) {
    let lasso = lasso_from_json(model, size, t);
    for (k, s) in t["steps"].as_array().unwrap().iter().enumerate() {
        assert_eq!(s["in_cycle"].as_bool().unwrap(), k >= lasso.loop_start);
    }
    assert_eq!(lasso.is_deadlock(), t["deadlock"].as_bool().unwrap());
    if let Err(e) = lasso.replay(model) {
        panic!("the printed lasso does not replay: {e}\n{t}");
    }
}

/// Both searches, with and without symmetry, against the SCC oracle on the unreduced
/// product, fair and unfair, for every process of every family with an `ltl` property:
/// the same verdict every time, and every lasso replays (else `internal_errors`).
#[test]
fn the_searches_agree_with_the_scc_oracle_on_the_families() {
    let top = if cfg!(debug_assertions) { 3 } else { 4 };
    let mut compared = 0;
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/families")).unwrap() {
        let path = entry.unwrap().path();
        let m = nfold::lang::load_file(path.to_str().unwrap()).unwrap();
        for prop in 0..m.ltls.len() {
            let p = LtlProperty::new(&m, prop).unwrap();
            for n in 1..=top {
                let procs: Vec<Option<i64>> = if m.ltls[prop].params == 0 {
                    vec![None]
                } else {
                    (1..=n as i64).map(Some).collect()
                };
                for process in procs {
                    for fair in [false, true] {
                        let oracle = fair_scc::check(&m, n, &p, process, fair, 300_000);
                        if oracle == Oracle::TooBig {
                            continue;
                        }
                        for (symmetry, search) in [
                            (false, NdfsSearch::Auto),
                            (true, NdfsSearch::Auto),
                            (false, NdfsSearch::Scc),
                            (true, NdfsSearch::Scc),
                        ] {
                            if symmetry && (process.unwrap_or(1) != 1 || !m.is_symmetric()) {
                                continue;
                            }
                            let opts = NdfsOptions {
                                symmetry,
                                fair,
                                search,
                                ..Default::default()
                            };
                            let r = ndfs::check(&m, n, &p, process, &opts);
                            let what = format!(
                                "{} `{}` n={n} process={process:?} fair={fair} sym={symmetry} \
                                 search={search:?}",
                                path.display(),
                                m.ltls[prop].name
                            );
                            assert!(
                                r.internal_errors.is_empty(),
                                "{what}: {:?}",
                                r.internal_errors
                            );
                            match (oracle, r.verdict) {
                                (Oracle::Cycle, NdfsVerdict::Violated)
                                | (Oracle::NoCycle, NdfsVerdict::Holds) => {}
                                (Oracle::RangeError, _) if r.range.is_some() => {}
                                (Oracle::RangeError, NdfsVerdict::Violated) => {}
                                _ => panic!("{what}: oracle {oracle:?}, ndfs {:?}", r.verdict),
                            }
                            compared += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(compared > 50, "only {compared} comparisons");
}

fn write_model(name: &str, text: &str) -> String {
    write_file(&scratch_dir("live"), name, text)
}

/// A deadlock repeats forever: a run into a deadlocked state violates `G F` of
/// something false there, and the lasso says so.
#[test]
fn deadlocks_stutter() {
    let path = write_model(
        "stuck.cub",
        "type s = A | B\narray X[proc] : s\ninit (z) { X[z] = A }\n\
         transition go (i) requires { X[i] = A } { X[i] := B; }\n\
         ltl back (i) { G F X[i] = A }\n",
    );
    let (code, v) = json_run(&["live", &path, "--size", "2", "--fair", "--no-symmetry"]);
    assert_eq!(code, 1);
    let t = &v["results"][0]["trace"];
    assert_eq!(t["deadlock"], true);
    assert_eq!(t["steps"].as_array().unwrap().len(), 2);
    let m = nfold::lang::load_file(&path).unwrap();
    replay_json(&m, 2, t);
    let (code, out, _) = nfold(&["live", &path, "--size", "2"]);
    assert_eq!(code, 1);
    assert!(out.contains("is a deadlock and repeats forever"), "{out}");
}

/// A range error met by the search stops it with a replayed trace to the error.
#[test]
fn range_errors_stop_the_search() {
    let path = write_model(
        "range.cub",
        "type s = A | B\narray X[proc] : s\ninit (z) { X[z] = A }\n\
         transition go (i) requires { X[i] = A } { X[i] := B; }\n\
         transition back (i) requires { X[i] = B } { X[i] := A; }\n\
         ltl bad (i) { G F X[i - 1] = A }\n",
    );
    let explicit = ["live", &path, "--size", "2", "--engine", "explicit"];
    let (code, out, _) = nfold(&explicit);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("range error"), "{out}");
    let (_, v) = json_run(&explicit);
    let rows = v["results"].as_array().unwrap();
    let ltl = rows.iter().find(|r| r["kind"] == "ltl").unwrap();
    assert_eq!(ltl["verdict"], "unknown");
    let range = rows.iter().find(|r| r["kind"] == "range_error").unwrap();
    assert_eq!(range["verdict"], "violated");
    assert_eq!(range["trace"]["kind"], "range_error");
    // auto hands the size the search left open to the SAT route, which checks every
    // instantiation at once: the range error (i = 1 reads X[0]) and a replayed lasso
    // for i = 2 (process 1 stays at B while process 2 toggles).
    let (code, v) = json_run(&["live", &path, "--size", "2"]);
    assert_eq!(code, 1);
    let rows = v["results"].as_array().unwrap();
    let range = rows.iter().find(|r| r["kind"] == "range_error").unwrap();
    assert_eq!(range["verdict"], "violated");
    let ltl = rows.iter().find(|r| r["kind"] == "ltl").unwrap();
    assert_ne!(ltl["verdict"], "holds");
    if ltl["verdict"] == "violated" {
        replay_json(&nfold::lang::load_file(&path).unwrap(), 2, &ltl["trace"]);
    }
}

#[test]
fn limits_and_usage_errors() {
    let (code, out, _) = nfold(&[
        "live",
        "families/peterson.cub",
        "--size",
        "4",
        "--fair",
        "--no-symmetry",
        "--max-states",
        "100",
    ]);
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("stopped: state limit"), "{out}");
    assert!(!out.contains("holds"), "{out}");
    let (code, _, err) = nfold(&["live", "families/mutex.cub", "--property", "nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("no property named `nope`"), "{err}");
    let (code, _, err) = nfold(&["live", "families/german.cub"]);
    assert_eq!(code, 2);
    assert!(err.contains("states no `ltl` property"), "{err}");
    let (code, _, err) = nfold(&["live", "families/mutex.cub", "--sizes", "3..2"]);
    assert_eq!(code, 2);
    assert!(err.lines().count() == 1, "{err}");
}

/// The text output: the table, the marked cycle with executing processes, and a proof
/// under fairness with symmetry.
#[test]
fn text_output() {
    let (code, out, _) = nfold(&["live", "families/mutex.cub", "--size", "3", "--fair"]);
    assert_eq!(code, 1);
    assert!(out.contains("VIOLATED"), "{out}");
    assert!(out.contains("---- cycle starts at state"), "{out}");
    assert!(
        out.contains("replayed on the interpreter, fairness checked"),
        "{out}"
    );
    assert!(out.contains("  p2 "), "{out}");
    let (code, out, _) = nfold(&["live", "families/peterson.cub", "--size", "3", "--fair"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.lines()
            .any(|l| l.trim_start().starts_with("3  starvation_free") && l.contains(" holds ")),
        "{out}"
    );
    assert!(
        out.contains("starvation_free (weak fairness): holds at size 3"),
        "{out}"
    );
    let (code, out, _) = nfold(&[
        "live",
        "families/peterson.cub",
        "--size",
        "4",
        "--fair",
        "--no-symmetry",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("holds"), "{out}");
}

/// Lassos are shortened after the search: a shortest stem to the cycle (all modes) and,
/// without fairness, a shortest cycle; both replay. The semaphore mutex at n = 2 has a
/// shortest violating lasso of 4 steps (process 1 asks once, process 2 cycles through
/// ask, enter, exit); `--no-shorten` prints the search's own lasso.
#[test]
fn lassos_are_shortened() {
    let lasso_len = |args: &[&str]| -> (usize, usize) {
        let (code, v) = json_run(args);
        assert_eq!(code, 1, "{v}");
        let l = &v["results"][0]["trace"];
        let steps = l["steps"].as_array().unwrap().len();
        (steps, steps - l["loop_start"].as_u64().unwrap() as usize)
    };
    assert_eq!(
        lasso_len(&["live", "families/mutex.cub", "--size", "2"]),
        (4, 3)
    );
    let long = lasso_len(&[
        "live",
        "families/token_ring.cub",
        "--size",
        "3",
        "--no-shorten",
    ]);
    let short = lasso_len(&["live", "families/token_ring.cub", "--size", "3"]);
    assert!(short.0 < long.0, "{short:?} vs {long:?}");
    // Under fairness a shortest fair cycle and a shortest stem to it: 5 steps, 3 in the
    // cycle (processes 1 and 3 ask; then 2 asks, enters and leaves forever, while 1 and
    // 3 wait, disabled whenever 2 holds the semaphore).
    let long = lasso_len(&[
        "live",
        "families/mutex.cub",
        "--size",
        "3",
        "--fair",
        "--no-shorten",
    ]);
    let short = lasso_len(&["live", "families/mutex.cub", "--size", "3", "--fair"]);
    assert_eq!(short, (5, 3));
    assert!(long.0 >= short.0 && long.1 >= short.1, "{long:?}");
}
