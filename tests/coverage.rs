//! `invariant` blocks checked as claims (every engine), and the warnings about dead code
//! after exhaustive searches (transitions that never fired, conjuncts never true), on
//! small models whose verdicts and dead parts are derived by hand in their comments.

use crate::common;
use common::{json_run, nfold, rows};
use serde_json::Value;

/// A lock with one process in `Crit` at most. By induction over the steps, `Lock` is
/// true exactly when one process is in `Crit`: initially no process is and `Lock` is
/// false; `acquire` needs `Lock` false (so nobody in `Crit`) and makes one process
/// `Crit` with `Lock` true; `release` takes the only `Crit` process out and clears
/// `Lock`. Hence:
/// - `steal` and `unlock` need a `Crit` process with `Lock` false: never enabled;
///   `steal` has instances from size 2 on (two parameters), `unlock` from size 1;
/// - `Flag` is never assigned after `init`, so the conjunct `Flag = True` of `flagged`
///   is never true (its other conjuncts are: a process in `Crit` with another in `Want`
///   is reachable from size 2);
/// - both conjuncts of `mutex` are true in reachable states from size 2 (one process in
///   `Crit`), so `mutex` gets no warning although it holds.
const LOCK: &str = "\
type loc = Idle | Want | Crit
var Lock : bool
var Flag : bool
array Pc[proc] : loc

init (p) { Pc[p] = Idle && Lock = False && Flag = False }
unsafe mutex (p q) { Pc[p] = Crit && Pc[q] = Crit }
unsafe flagged (p q) { Pc[p] = Crit && Pc[q] = Want && Flag = True }

transition request (i) requires { Pc[i] = Idle } { Pc[i] := Want; }
transition acquire (i) requires { Pc[i] = Want && Lock = False } { Pc[i] := Crit; Lock := True; }
transition release (i) requires { Pc[i] = Crit } { Pc[i] := Idle; Lock := False; }
transition steal (i j) requires { Pc[i] = Want && Pc[j] = Crit && Lock = False } { Pc[i] := Crit; }
transition unlock (i) requires { Pc[i] = Crit && Lock = False } { Lock := True; }
";

/// The same lock with two claims in `invariant` blocks. `lockheld` (a process in
/// `Crit` while `Lock` is false) is unreachable by the invariant above. The unnamed
/// one, `invariant1` (a process in `Want` while `Lock` is true), needs one process in
/// `Crit` (2 steps: request, acquire) and another in `Want` (1 step): violated from
/// size 2 at depth 3; at size 1 the only process cannot be in `Want` and `Crit` at
/// once, so it holds.
const CLAIMS: &str = "\
type loc = Idle | Want | Crit
var Lock : bool
array Pc[proc] : loc

init (p) { Pc[p] = Idle && Lock = False }
unsafe mutex (p q) { Pc[p] = Crit && Pc[q] = Crit }
invariant lockheld (p) { Pc[p] = Crit && Lock = False }
invariant (p) { Pc[p] = Want && Lock = True }

transition request (i) requires { Pc[i] = Idle } { Pc[i] := Want; }
transition acquire (i) requires { Pc[i] = Want && Lock = False } { Pc[i] := Crit; Lock := True; }
transition release (i) requires { Pc[i] = Crit } { Pc[i] := Idle; Lock := False; }
";

/// Writes `text` to a fresh file of the temporary directory and returns its path.
fn model_file(name: &str, text: &str) -> String {
    common::write_file(&common::scratch_dir("coverage"), name, text)
}

fn sizes(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

/// The `(kind, name, sizes)` of every warning of a `--json` document: the name is the
/// transition's, else the conjunct's.
fn warnings(v: &Value) -> Vec<(String, String, Vec<u64>)> {
    warnings_named(v, "conjunct")
}

/// The `(kind, transition or property, sizes)` of every warning.
fn warnings_of(v: &Value) -> Vec<(String, String, Vec<u64>)> {
    warnings_named(v, "property")
}

/// The `(kind, name, sizes)` of every warning, the name the transition's, else the
/// field `other` (a never-true conjunct's warning carries its property and conjunct).
fn warnings_named(v: &Value, other: &str) -> Vec<(String, String, Vec<u64>)> {
    v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            let name = w["transition"]
                .as_str()
                .or(w[other].as_str())
                .unwrap()
                .to_string();
            (
                w["kind"].as_str().unwrap().to_string(),
                name,
                sizes(&w["sizes"]),
            )
        })
        .collect()
}

#[test]
fn dead_transitions_and_conjuncts_after_an_exhaustive_search() {
    let f = model_file("lock.cub", LOCK);
    for engine in ["explicit", "auto"] {
        for sym in [true, false] {
            let mut args = vec!["check", &f[..], "--sizes", "1..3", "--engine", engine];
            if !sym {
                args.push("--no-symmetry");
            }
            let (code, v) = json_run(&args);
            assert_eq!(code, 0, "{engine} {sym}");
            assert!(
                rows(&v).iter().all(|r| r.verdict == "holds"),
                "{:?}",
                rows(&v)
            );
            assert_eq!(
                warnings(&v),
                vec![
                    ("never_fired".into(), "steal".into(), vec![2, 3]),
                    ("never_fired".into(), "unlock".into(), vec![1, 2, 3]),
                    ("never_true".into(), "Flag = True".into(), vec![2, 3]),
                ],
                "{engine} symmetry {sym}"
            );
            let w = &v["warnings"][0];
            assert_eq!(w["line"], 13);
            assert_eq!(v["warnings"][2]["property"], "flagged");
            assert_eq!(v["warnings"][2]["property_kind"], "unsafe");
            assert_eq!(v["warnings"][2]["line"], 8);
            // The coverage: every transition with the sizes it fired at, every
            // property of two conjuncts or more with each conjunct's sizes.
            let c = &v["coverage"];
            assert_eq!(sizes(&c["exhaustive_sizes"]), vec![1, 2, 3]);
            let fired: Vec<(String, Vec<u64>)> = c["transitions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| {
                    (
                        t["transition"].as_str().unwrap().into(),
                        sizes(&t["fired_at"]),
                    )
                })
                .collect();
            assert_eq!(
                fired,
                vec![
                    ("request".into(), vec![1, 2, 3]),
                    ("acquire".into(), vec![1, 2, 3]),
                    ("release".into(), vec![1, 2, 3]),
                    ("steal".into(), vec![]),
                    ("unlock".into(), vec![]),
                ]
            );
            let props = c["properties"].as_array().unwrap();
            assert_eq!(props.len(), 2);
            // Some state (not a reachable one) has Flag = True: satisfiable.
            assert_eq!(sizes(&props[1]["satisfiable_at"]), vec![2, 3]);
            assert_eq!(props[1]["property"], "flagged");
            assert_eq!(sizes(&props[1]["examined_at"]), vec![2, 3]);
            let true_at: Vec<Vec<u64>> = props[1]["conjuncts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| sizes(&c["true_at"]))
                .collect();
            assert_eq!(true_at, vec![vec![2, 3], vec![2, 3], vec![]]);
        }
    }
    // The text: one line per item, with the source lines.
    let (code, out, _) = nfold(&["check", &f, "--sizes", "1..3", "--engine", "explicit"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("warning")).collect();
    assert_eq!(
        lines,
        vec![
            "warning: transition `steal` (line 13) never fired: not enabled in any reachable state (sizes 2..3)",
            "warning: transition `unlock` (line 14) never fired: not enabled in any reachable state (sizes 1..3)",
            "warning: `flagged` (line 8): the conjunct `Flag = True` is never true in a reachable state (sizes 2..3): the property holds vacuously",
        ]
    );
}

#[test]
fn no_dead_code_warnings_without_an_exhaustive_search() {
    let f = model_file("lock_partial.cub", LOCK);
    // BMC and IC3 search no state space: nothing is claimed about dead code.
    for engine in ["sat", "ic3", "kind"] {
        let (code, v) = json_run(&["check", &f, "--sizes", "1..3", "--engine", engine]);
        assert!(code == 0 || code == 4, "{engine}: {code}");
        assert!(v["warnings"].as_array().unwrap().is_empty(), "{engine}");
        assert!(v["coverage"].is_null(), "{engine}");
    }
    // A search stopped by --max-states is not exhaustive.
    let (code, v) = json_run(&[
        "check",
        &f,
        "--sizes",
        "3",
        "--engine",
        "explicit",
        "--max-states",
        "2",
    ]);
    assert_ne!(code, 0);
    assert!(v["warnings"].as_array().unwrap().is_empty());
    assert!(v["coverage"].is_null());
    let (_, out, _) = nfold(&[
        "check",
        &f,
        "--sizes",
        "3",
        "--engine",
        "explicit",
        "--max-states",
        "2",
    ]);
    assert!(!out.contains("never fired"), "{out}");
    // The shipped families have no dead code.
    for fam in ["mutex", "german", "mesi", "peterson", "token_ring"] {
        let (_, v) = json_run(&[
            "check",
            &format!("families/{fam}.cub"),
            "--sizes",
            "1..3",
            "--engine",
            "explicit",
        ]);
        assert!(v["warnings"].as_array().unwrap().is_empty(), "{fam}");
    }
}

#[test]
fn a_formula_no_state_satisfies_is_reported_once() {
    // `typo` names process p twice: no state at all has p both in `Crit` and in
    // `Want`, so it holds at every size whatever the model does. One warning for the
    // property (its conjuncts are each reachable, so none is reported apart).
    // `flagged` can be true in some state (Flag = True, not reachable): its conjunct is
    // reported as before.
    let text = LOCK.replace(
        "unsafe mutex (p q)",
        "unsafe typo (p q) { Pc[p] = Crit && Pc[p] = Want }\nunsafe mutex (p q)",
    );
    let f = model_file("lock_typo.cub", &text);
    let (code, v) = json_run(&["check", &f, "--sizes", "1..3", "--engine", "explicit"]);
    assert_eq!(code, 0);
    let w = warnings_of(&v);
    assert_eq!(
        w,
        vec![
            ("never_fired".into(), "steal".into(), vec![2, 3]),
            ("never_fired".into(), "unlock".into(), vec![1, 2, 3]),
            ("unsatisfiable".into(), "typo".into(), vec![2, 3]),
            ("never_true".into(), "flagged".into(), vec![2, 3]),
        ]
    );
    let typo = &v["coverage"]["properties"][0];
    assert_eq!(typo["property"], "typo");
    assert_eq!(sizes(&typo["unsatisfiable_at"]), vec![2, 3]);
    assert!(sizes(&typo["satisfiable_at"]).is_empty());
    let (_, out, _) = nfold(&["check", &f, "--sizes", "1..3", "--engine", "explicit"]);
    assert!(
        out.contains(
            "warning: `typo` (line 7): no state at all satisfies its formula (sizes 2..3), reachable or not: the property holds vacuously"
        ),
        "{out}"
    );
}

#[test]
fn a_violated_property_gets_no_conjunct_warning() {
    // `Flag` is set by `mark`; `marked` is violated at size 2, so none of its
    // conjuncts is reported, and `mark` fired.
    let text = LOCK
        .replace(
            "unsafe flagged (p q) { Pc[p] = Crit && Pc[q] = Want && Flag = True }",
            "unsafe marked (p q) { Pc[p] = Crit && Pc[q] = Want && Flag = True }",
        )
        .replace(
            "transition unlock",
            "transition mark (i) requires { Pc[i] = Crit } { Flag := True; }\ntransition unlock",
        );
    let f = model_file("lock_marked.cub", &text);
    let (code, v) = json_run(&["check", &f, "--sizes", "1..3", "--engine", "explicit"]);
    assert_eq!(code, 1);
    let r = rows(&v);
    assert!(r.iter().any(|x| (
        x.size,
        x.property.as_str(),
        x.kind.as_str(),
        x.verdict.as_str(),
        x.depth
    ) == (2, "marked", "unsafe", "violated", Some(4))));
    assert_eq!(
        warnings(&v),
        vec![
            ("never_fired".into(), "steal".into(), vec![2, 3]),
            ("never_fired".into(), "unlock".into(), vec![1, 2, 3]),
        ]
    );
}

#[test]
fn invariants_are_checked_by_every_engine() {
    let f = model_file("claims.cub", CLAIMS);
    for engine in ["explicit", "sat", "ic3", "kind", "auto"] {
        let (code, v) = json_run(&["check", &f, "--sizes", "1..3", "--engine", engine]);
        assert_eq!(code, 1, "{engine}: a broken invariant is a violation");
        let r = rows(&v);
        let holds = if engine == "sat" {
            "no_violation_up_to"
        } else {
            "holds"
        };
        for n in 1..=3usize {
            let row = |p: &str| {
                r.iter()
                    .find(|x| x.size == n && x.property == p)
                    .unwrap()
                    .clone()
            };
            assert_eq!(row("mutex").kind, "unsafe");
            assert_eq!(row("lockheld").kind, "invariant", "{engine} n={n}");
            assert!(
                row("lockheld").verdict.starts_with(holds),
                "{engine} {:?}",
                row("lockheld")
            );
            let inv = row("invariant1");
            assert_eq!(inv.kind, "invariant");
            if n == 1 {
                assert!(inv.verdict.starts_with(holds), "{engine} {inv:?}");
            } else {
                assert_eq!(
                    (inv.verdict.as_str(), inv.depth),
                    ("violated", Some(3)),
                    "{engine} n={n}"
                );
            }
        }
        // The trace is the invariant's, of kind "invariant", and replays.
        let t = v["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["size"] == 2 && x["property"] == "invariant1")
            .unwrap()["trace"]
            .clone();
        assert_eq!(t["kind"], "invariant", "{engine}");
        assert_eq!(t["steps"].as_array().unwrap().len(), 3);
        assert!(
            t["violation"]
                .as_str()
                .unwrap()
                .starts_with("invariant `invariant1` broken"),
            "{t}"
        );
    }
    // The text names the invariant and ends the trace with the broken claim; the
    // trace saved with --trace-out replays.
    let trail = model_file("claims_trail.json", "");
    let (code, out, _) = nfold(&[
        "check",
        &f,
        "--sizes",
        "2",
        "--engine",
        "explicit",
        "--trace-out",
        &trail,
    ]);
    assert_eq!(code, 1);
    assert!(out.contains("invariant lockheld   holds"), "{out}");
    assert!(out.contains("invariant1           VIOLATED"), "{out}");
    assert!(out.contains("size 2: `invariant1` violated at depth 3 (trace replayed"));
    assert!(out.contains(
        "=> invariant `invariant1` broken: this state has its formula (claimed unreachable) with p="
    ));
    let (code, out, err) = nfold(&["replay", &f, &trail]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("ending in: invariant `invariant1` broken"),
        "{out}"
    );
    assert!(
        out.contains("replayed: all 3 steps match the model"),
        "{out}"
    );
    let (_, v) = json_run(&["replay", &f, &trail]);
    assert_eq!(v["kind"], "invariant");
    assert_eq!(v["matches"], true);
    // A random run that breaks the invariant ends as `invariant` (exit code 1).
    let (code, v) = json_run(&[
        "simulate",
        &f,
        "--size",
        "2",
        "--steps",
        "100",
        "--seed",
        "1",
        "--property",
        "invariant1",
    ]);
    assert_eq!((code, v["end"].as_str()), (1, Some("invariant")));
    // --property selects an invariant by name.
    let (code, v) = json_run(&["check", &f, "--sizes", "1..3", "--property", "lockheld"]);
    assert_eq!(code, 0);
    assert!(
        rows(&v)
            .iter()
            .all(|r| r.property == "lockheld" && r.verdict == "holds")
    );
}

#[test]
fn a_correct_invariant_is_proved() {
    // Without the broken claim, every engine that proves proves the invariant.
    let text = CLAIMS.replace("invariant (p) { Pc[p] = Want && Lock = True }\n", "");
    let f = model_file("claims_ok.cub", &text);
    for engine in ["ic3", "kind"] {
        let (code, v) = json_run(&["check", &f, "--sizes", "1..4", "--engine", engine]);
        assert_eq!(code, 0, "{engine}");
        for r in rows(&v) {
            assert_eq!(r.verdict, "holds", "{engine} {r:?}");
        }
        let proved = v["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x["property"] == "lockheld")
            .all(|x| {
                x["proof"]["how"]
                    .as_str()
                    .is_some_and(|h| h.contains("invariant"))
            });
        assert!(proved, "{engine}: {v}");
    }
    // And for every n, when the sizes are left to the tool.
    let (code, out, _) = nfold(&["check", &f]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("every n: holds for every n"), "{out}");
}
