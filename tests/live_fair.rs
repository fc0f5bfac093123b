//! `nfold live --fair` on symmetric families, through the command line: which search
//! answers (the complete one wherever symmetry identifies no two states or the full
//! product fits the budget, the reduced incomplete one only past that), how an
//! incomplete answer shows (exit code 4, `none found*`, a summary line saying why, JSON
//! `"verdict": "incomplete"`), and short fair lassos on Dijkstra's mutual exclusion
//! (tests/models/dijkstra.cub), pinned by a brute-force search for shortest fair lassos
//! over the explicit product (tests/common/fair_scc.rs).

mod common;

use common::fair_scc;
use common::{init_from_json, json_run, nfold, steps_from_json};
use nfold::lasso::Lasso;
use nfold::ltl::LtlProperty;
use nfold::model::instance::Instance;
use nfold::model::ir::Model;
use serde_json::Value;

const DIJKSTRA: &str = "tests/models/dijkstra.cub";

fn load(path: &str) -> Model {
    nfold::lang::load_file(&format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The families with an `ltl` property, and Dijkstra's mutex.
fn models() -> Vec<String> {
    let mut out: Vec<String> = [
        "mutex",
        "token_mutex",
        "token_ring",
        "peterson",
        "ticket_lock",
    ]
    .iter()
    .map(|f| format!("families/{f}.cub"))
    .collect();
    out.push(DIJKSTRA.into());
    out
}

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
    assert_eq!(t["kind"], "lasso", "{v}");
    let inst = Instance::new(model, size);
    let lasso = Lasso {
        size,
        prop: 0,
        process: t["process"].as_i64(),
        init: init_from_json(&inst, t),
        steps: steps_from_json(model, t),
        loop_start: t["loop_start"].as_u64().unwrap() as usize,
        fair: t["fair"].as_bool().unwrap(),
    };
    assert!(lasso.fair);
    if let Err(e) = lasso.replay(model) {
        panic!("the printed lasso does not replay: {e}\n{t}");
    }
    (lasso.steps.len(), lasso.steps.len() - lasso.loop_start)
}

/// At n = 2 symmetry fixing process 1 identifies no two states, so `--fair` runs the
/// complete search even when told to skip it (`--complete-budget 0`): the verdict and
/// exit code are exactly those of `--no-symmetry`, never `none found*` or exit code 4.
#[test]
fn at_two_processes_the_fair_answer_is_complete() {
    for path in models() {
        let (code_full, full) =
            json_run(&["live", &path, "--size", "2", "--fair", "--no-symmetry"]);
        assert!(code_full == 0 || code_full == 1, "{path}: {full}");
        for budget in ["16000000", "0"] {
            let (code, v) = json_run(&[
                "live",
                &path,
                "--size",
                "2",
                "--fair",
                "--complete-budget",
                budget,
            ]);
            assert_eq!(code, code_full, "{path} budget {budget}: {v}");
            assert_eq!(verdicts(&v), verdicts(&full), "{path} budget {budget}");
            for r in v["results"].as_array().unwrap() {
                assert_eq!(r["search"], "full", "{path}: {r}");
                assert_eq!(r["complete"], true, "{path}");
                assert_ne!(r["verdict"], "incomplete", "{path}");
            }
        }
    }
    // Pinned: the semaphore mutex and Dijkstra's starve a process at n = 2 even under
    // weak fairness (a waiting process is disabled while the other holds the lock, or
    // loops through L1..L3 while the other keeps K); Peterson's does not.
    for (path, want) in [
        ("families/mutex.cub", 1),
        (DIJKSTRA, 1),
        ("families/peterson.cub", 0),
    ] {
        let (code, out, _) = nfold(&["live", path, "--size", "2", "--fair"]);
        assert_eq!(code, want, "{path}: {out}");
        assert!(!out.contains("incomplete"), "{out}");
    }
}

/// Where the complete search fits its budget (every family up to n = 4 here), `--fair`
/// with symmetry answers with it, exactly as `--no-symmetry`.
#[test]
fn under_the_budget_the_complete_search_answers() {
    for path in models() {
        for n in ["3", "4"] {
            let (code, v) = json_run(&["live", &path, "--size", n, "--fair"]);
            let (code_full, full) =
                json_run(&["live", &path, "--size", n, "--fair", "--no-symmetry"]);
            assert_eq!((code, verdicts(&v)), (code_full, verdicts(&full)), "{path}");
            for r in v["results"].as_array().unwrap() {
                // No `+`: the complete search answered within its budget.
                assert_eq!(r["search"], "full", "{path} n={n}");
            }
        }
    }
}

/// Past the budget the reduced search answers. Finding nothing is then not a proof:
/// `none found*` in the table, a summary line saying the answer is incomplete and why,
/// JSON `"verdict": "incomplete"` with the reason, exit code 4. A violation it finds is
/// real (exit code 1).
#[test]
fn incomplete_answers_say_so() {
    let peterson = "families/peterson.cub";
    let (code, out, _) = nfold(&[
        "live",
        peterson,
        "--size",
        "3",
        "--fair",
        "--complete-budget",
        "1000",
    ]);
    assert_eq!(code, 4, "{out}");
    assert!(out.contains("none found*"), "{out}");
    let row = out.lines().find(|l| l.starts_with("   3  ")).unwrap();
    assert!(!row.contains("holds") && !out.contains("holds at"), "{out}");
    assert!(
        out.contains(
            "starvation_free (weak fairness): no violation found (incomplete: not a proof) at size 3"
        ),
        "{out}"
    );
    let line = out
        .lines()
        .find(|l| l.starts_with("note: size 3: `starvation_free` for process 1: incomplete: "))
        .unwrap_or_else(|| panic!("no incomplete line: {out}"));
    assert!(
        line.contains("the complete search stopped at its budget of 1,000 transitions"),
        "{line}"
    );
    assert!(line.contains("may miss a fair cycle, found none"), "{line}");
    let (code, out, _) = nfold(&[
        "live",
        peterson,
        "--size",
        "3",
        "--fair",
        "--complete-budget",
        "0",
    ]);
    assert_eq!(code, 4, "{out}");
    assert!(
        out.contains("incomplete: the complete search was skipped (--complete-budget 0)"),
        "{out}"
    );
    let (code, v) = json_run(&[
        "live",
        peterson,
        "--size",
        "3",
        "--fair",
        "--complete-budget",
        "1000",
    ]);
    assert_eq!(code, 4);
    let r = &v["results"][0];
    assert_eq!(r["verdict"], "incomplete", "{r}");
    assert_eq!(r["complete"], false);
    // `+`: the complete search ran first and gave up.
    assert_eq!(r["search"], "symmetry+fair+");
    let note = v["notes"].as_array().unwrap()[0].as_str().unwrap();
    assert!(note.contains("its budget of 1,000 transitions"), "{note}");
    assert!(note.contains("may miss a fair cycle"), "{note}");
    // Complete answers stay so in the same run: n = 2 holds, n = 3 is incomplete.
    let (code, v) = json_run(&[
        "live",
        peterson,
        "--sizes",
        "2..3",
        "--fair",
        "--complete-budget",
        "1000",
    ]);
    assert_eq!(code, 4);
    assert_eq!(verdicts(&v), ["holds", "incomplete"]);
    // A violation found by the reduced search is real and replays.
    let (code, v) = json_run(&[
        "live",
        DIJKSTRA,
        "--size",
        "3",
        "--fair",
        "--complete-budget",
        "0",
    ]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["results"][0]["search"], "symmetry+fair");
    replayed_lasso(&load(DIJKSTRA), 3, &v);
}

/// Dijkstra's mutex at n = 3 under weak fairness: the search's own lasso is long (96
/// steps, a 30-step cycle with `--no-shorten`); the printed one has a shortest fair
/// cycle through an accepting node of the product and a shortest stem to such a cycle,
/// both as found by the brute-force oracle over the whole product, with the complete
/// and with the reduced search, and it replays with fairness checked.
#[test]
fn dijkstra_fair_lassos_are_shortest() {
    let m = load(DIJKSTRA);
    let p = LtlProperty::new(&m, 0).unwrap();
    for n in [3usize, 4] {
        let g = fair_scc::product(&m, n, &p, Some(1), 1_000_000).unwrap();
        let best = fair_scc::shortest_lassos(&g).unwrap();
        let size = n.to_string();
        let (code, v) = json_run(&["live", DIJKSTRA, "--size", &size, "--fair", "--no-shorten"]);
        assert_eq!(code, 1);
        let long = replayed_lasso(&m, n, &v);
        for budget in ["16000000", "0"] {
            let (code, v) = json_run(&[
                "live",
                DIJKSTRA,
                "--size",
                &size,
                "--fair",
                "--complete-budget",
                budget,
            ]);
            assert_eq!(code, 1, "{v}");
            let (steps, cycle) = replayed_lasso(&m, n, &v);
            assert_eq!(cycle, best.cycle, "n={n} budget {budget}: oracle {best:?}");
            assert_eq!(
                steps - cycle,
                best.stem,
                "n={n} budget {budget}: oracle {best:?}"
            );
            assert!(steps >= best.total);
            assert!(steps < long.0, "{steps} vs {long:?}");
        }
        if n == 3 {
            // Derived independently by the oracle, pinned so that a change shows.
            assert_eq!((best.cycle, best.stem), (12, 2));
            assert_eq!(long, (96, 30));
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
    let dir = std::env::temp_dir().join(format!("nfold-live-fair-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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
