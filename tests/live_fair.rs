//! `nfold live --fair`: the fair SCC search on the quotient by symmetry against the
//! same search on the unreduced product on every model with an `ltl` property; two
//! hand-made models whose fair components exist, or not, only through the orbits of
//! their own permutations (tests/models/pass_any.cub, bounce.cub), against the SCC
//! oracle on the unreduced product (tests/common/fair_scc.rs); exact answers through
//! the command line; and short fair lassos on Dijkstra's mutual exclusion
//! (tests/models/dijkstra.cub), pinned by a brute-force search for shortest fair lassos
//! over the explicit product.

use crate::common;

use common::fair_scc;
use common::{json_run, lasso_from_json, load, nfold};
use nfold::explicit::ndfs::{self, NdfsOptions};
use nfold::ltl::LtlProperty;
use nfold::model::ir::Model;
use serde_json::Value;

const DIJKSTRA: &str = "tests/models/dijkstra.cub";

/// The verdicts of a `live --json` document, row by row.
fn verdicts(v: &Value) -> Vec<String> {
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["verdict"].as_str().unwrap().to_string())
        .collect()
}

/// The lasso of the first row, rebuilt from JSON and replayed (fairness included):
/// (steps, steps in the cycle).
fn replayed_lasso(model: &Model, size: usize, v: &Value) -> (usize, usize) {
    let t = &v["results"][0]["trace"];
    let lasso = lasso_from_json(model, size, t);
    assert!(lasso.fair);
    if let Err(e) = lasso.replay(model) {
        panic!("the printed lasso does not replay: {e}\n{t}");
    }
    (lasso.steps.len(), lasso.steps.len() - lasso.loop_start)
}

/// Every `.cub` file with an `ltl` property in families/ and tests/models/.
fn ltl_models() -> Vec<(String, Model)> {
    let mut out = Vec::new();
    for dir in ["families", "tests/models"] {
        let full = format!("{}/{dir}", env!("CARGO_MANIFEST_DIR"));
        let mut paths: Vec<_> = std::fs::read_dir(&full)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "cub"))
            .collect();
        paths.sort();
        for p in paths {
            let m = nfold::lang::load_file(p.to_str().unwrap()).unwrap();
            if !m.ltls.is_empty() {
                out.push((p.display().to_string(), m));
            }
        }
    }
    out
}

/// The fair SCC search on the quotient by symmetry against the same search on the
/// unreduced product (where that stores at most 1.5 M product states), on every model
/// with an `ltl` property at sizes 1..5: the same verdict every time, each lasso
/// replayed on the interpreter with fairness checked, and never more states stored
/// with the reduction.
#[test]
fn the_reduced_fair_search_agrees_with_the_unreduced_one() {
    let mut compared = 0;
    let mut reduced_runs = 0;
    for (path, m) in ltl_models() {
        for prop in 0..m.ltls.len() {
            let p = LtlProperty::new(&m, prop).unwrap();
            for n in 1..=5 {
                for process in nfold::ltl::processes_to_check(&m, prop, n) {
                    let full = ndfs::check(
                        &m,
                        n,
                        &p,
                        process,
                        &NdfsOptions {
                            fair: true,
                            max_states: Some(1_500_000),
                            ..Default::default()
                        },
                    );
                    if full.limit.is_some() {
                        continue;
                    }
                    let reduced = ndfs::check(
                        &m,
                        n,
                        &p,
                        process,
                        &NdfsOptions {
                            fair: true,
                            symmetry: true,
                            shorten: true,
                            ..Default::default()
                        },
                    );
                    let what = format!("{path} `{}` n={n} {process:?}", m.ltls[prop].name);
                    for r in [&full, &reduced] {
                        assert!(
                            r.internal_errors.is_empty(),
                            "{what}: {:?}",
                            r.internal_errors
                        );
                        assert!(r.limit.is_none(), "{what}");
                        if let Some(l) = &r.lasso {
                            assert!(l.fair, "{what}");
                            if let Err(e) = l.replay(&m) {
                                panic!("{what}: the lasso does not replay: {e}");
                            }
                        }
                    }
                    assert_eq!(reduced.verdict, full.verdict, "{what}");
                    assert_eq!(
                        (reduced.range.is_some(), full.range.is_some()),
                        (false, false),
                        "{what}"
                    );
                    assert!(reduced.stats.states <= full.stats.states, "{what}");
                    reduced_runs += reduced.symmetry as usize;
                    compared += 1;
                }
            }
        }
    }
    assert!(
        compared >= 40 && reduced_runs >= 20,
        "{compared} {reduced_runs}"
    );
}

/// The two hand-made models whose components need the permutations (tests/models,
/// verdicts derived in their headers): a token passed to anyone is a weakly fair
/// cycle only through the group its edges generate (violated at every n); a token
/// bounced between two players leaves the other processes' orbits unserved (holds from
/// n = 3 on, vacuously at n = 1). With and without symmetry, for the property without
/// a parameter (all permutations) and for process 1 (those fixing it).
#[test]
fn components_are_fair_by_the_orbits_of_their_own_permutations() {
    for (file, violated_at) in [("pass_any", &[1, 2, 3, 4, 5][..]), ("bounce", &[2][..])] {
        let path = format!("tests/models/{file}.cub");
        let m = load(&path);
        for sym in [true, false] {
            for prop in ["ends", "ends_for"] {
                let mut args = vec!["live", &path, "--sizes", "1..5", "--fair"];
                args.extend(["--property", prop]);
                if !sym {
                    args.push("--no-symmetry");
                }
                let (code, v) = json_run(&args);
                assert_eq!(code, 1, "{file} {prop} sym={sym}: {v}");
                for r in v["results"].as_array().unwrap() {
                    let n = r["size"].as_u64().unwrap() as usize;
                    // bounce has no initial state at n = 1 (Tok <> Prev): vacuous.
                    let want = if violated_at.contains(&n) {
                        "violated"
                    } else if file == "bounce" && n == 1 {
                        "vacuous"
                    } else {
                        "holds"
                    };
                    assert_eq!(r["verdict"], want, "{file} {prop} sym={sym} n={n}: {r}");
                    if want == "violated" {
                        let lasso = lasso_from_json(&m, n, &r["trace"]);
                        if let Err(e) = lasso.replay(&m) {
                            panic!("{file} n={n}: {e}");
                        }
                    }
                    let reduced = sym && n >= if prop == "ends" { 2 } else { 3 };
                    assert_eq!(r["symmetry"], reduced, "{file} {prop} n={n}");
                }
            }
        }
        // The SCC oracle on the unreduced product agrees.
        let p = LtlProperty::new(&m, 0).unwrap();
        for n in 1..=5 {
            let want = if violated_at.contains(&n) {
                fair_scc::Oracle::Cycle
            } else {
                fair_scc::Oracle::NoCycle
            };
            assert_eq!(
                fair_scc::check(&m, n, &p, None, true, 100_000),
                want,
                "{file} n={n}"
            );
        }
    }
}

/// Under fairness every answer is exact now: Peterson's filter lock holds at 1..6
/// (its header: starvation freedom holds under weak fairness for every n), with no
/// `none found*`, no `incomplete` in JSON, exit code 0; the reduced search answers
/// from n = 3 on.
#[test]
fn fair_answers_are_exact() {
    let (code, out, _) = nfold(&["live", "families/peterson.cub", "--sizes", "1..6", "--fair"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("starvation_free (weak fairness): holds at sizes 1..6"),
        "{out}"
    );
    assert!(
        !out.contains("none found") && !out.contains("incomplete"),
        "{out}"
    );
    let (code, v) = json_run(&[
        "live",
        "families/ticket_lock.cub",
        "--sizes",
        "1..6",
        "--fair",
        "--engine",
        "explicit",
    ]);
    assert_eq!(code, 0);
    assert_eq!(verdicts(&v), ["holds"; 6]);
    for r in v["results"].as_array().unwrap() {
        let n = r["size"].as_u64().unwrap();
        let search = if n >= 3 { "symmetry+scc" } else { "scc" };
        assert_eq!(r["search"], search, "{r}");
        assert!(r.get("incomplete").is_none(), "{r}");
    }
}

/// Dijkstra's mutex at n = 3 and 4 under weak fairness: the search's own lasso
/// (`--no-shorten`) is long; the printed one has a shortest fair cycle through an
/// accepting node of the product and a shortest stem to such a cycle, both as found by
/// the brute-force oracle over the whole product, with and without the reduction by
/// symmetry, and it replays with fairness checked.
#[test]
fn dijkstra_fair_lassos_are_shortest() {
    let m = load(DIJKSTRA);
    let p = LtlProperty::new(&m, 0).unwrap();
    for n in [3usize, 4] {
        let g = fair_scc::product(&m, n, &p, Some(1), 1_000_000).unwrap();
        let best = fair_scc::shortest_lassos(&g).unwrap();
        let size = n.to_string();
        let (code, v) = json_run(&[
            "live",
            DIJKSTRA,
            "--size",
            &size,
            "--fair",
            "--no-shorten",
            "--engine",
            "explicit",
        ]);
        assert_eq!(code, 1);
        let long = replayed_lasso(&m, n, &v);
        for sym in [true, false] {
            let mut args = vec![
                "live", DIJKSTRA, "--size", &size, "--fair", "--engine", "explicit",
            ];
            if !sym {
                args.push("--no-symmetry");
            }
            let (code, v) = json_run(&args);
            assert_eq!(code, 1, "{v}");
            let (steps, cycle) = replayed_lasso(&m, n, &v);
            assert_eq!(cycle, best.cycle, "n={n} sym={sym}: oracle {best:?}");
            assert_eq!(steps - cycle, best.stem, "n={n} sym={sym}: oracle {best:?}");
            assert!(steps >= best.total);
            assert!(steps < long.0, "{steps} vs {long:?}");
        }
        if n == 3 {
            // Derived independently by the oracle, pinned so that a change shows.
            assert_eq!((best.cycle, best.stem), (12, 2));
        }
    }
    // The text says so.
    let (code, out, _) = nfold(&["live", DIJKSTRA, "--size", "3", "--fair"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("violated by a weakly fair lasso of 14 steps, cycle of 12 steps (replayed on the interpreter, fairness checked)"),
        "{out}"
    );
}

/// The header names process 1 only for properties of a process.
#[test]
fn header_names_processes_only_for_properties_of_a_process() {
    let dir = common::scratch_dir("live-fair");
    let path = dir.join("busy.cub");
    let text =
        std::fs::read_to_string(format!("{}/families/mutex.cub", env!("CARGO_MANIFEST_DIR")))
            .unwrap();
    std::fs::write(&path, format!("{text}\nltl busy {{ G F Sem = True }}\n")).unwrap();
    let path = path.to_str().unwrap();
    let symmetry_line = |args: &[&str]| -> String {
        let (_, out, _) = nfold(args);
        out.lines()
            .find(|l| l.starts_with("symmetry"))
            .unwrap()
            .to_string()
    };
    for extra in [&[][..], &["--no-symmetry"][..], &["--fair"][..]] {
        let mut args = vec!["live", path, "--size", "3", "--property", "busy"];
        args.extend_from_slice(extra);
        let line = symmetry_line(&args);
        assert!(!line.contains("process 1"), "{line}");
        assert!(!line.contains("i = 1"), "{line}");
    }
    let line = symmetry_line(&["live", path, "--size", "3"]);
    assert!(line.contains("checked for i = 1"), "{line}");
    assert!(
        line.contains("without a process parameter, all permutations"),
        "{line}"
    );
    let line = symmetry_line(&["live", "families/mutex.cub", "--size", "3"]);
    assert!(line.contains("checked for i = 1"), "{line}");
    assert!(!line.contains("without a process parameter"), "{line}");
}
