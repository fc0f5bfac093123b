//! The user's staples through the command line: `nfold simulate` (random runs, their
//! seeds and endings), `nfold replay` (saved trails on the model they came from and on
//! changed models, with the step and reason where they stop matching), `nfold dot`
//! (state graphs whose node and edge sets are derived by hand, rendered by Graphviz
//! when it is installed), `--trace-out` / `--trace-format table` on `live`.

use crate::common;
use common::{fresh_dir, init_from_json, json_run, load, nfold, steps_from_json, write_file};
use nfold::model::eval;
use nfold::model::instance::Instance;
use nfold::trace::{Trace, Violation, replay_steps};
use serde_json::Value;
use std::collections::BTreeSet;

fn family_text(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/families/{name}.cub",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// A model with a range error (`Count` overflows on the third start), `X := .` and two
/// initial states (`Pick` is free).
const RANGE_MODEL: &str = "\
type state = Idle | Busy
var Count : 0..2
var Pick : state
array A[proc] : state

init (z) { A[z] = Idle && Count = 0 }

unsafe two_busy (z1 z2) { A[z1] = Busy && A[z2] = Busy }

transition start (i)
requires { A[i] = Idle }
{ A[i] := Busy; Count := Count + 1; Pick := .; }

transition stop (i)
requires { A[i] = Busy }
{ A[i] := Idle; }
";

/// Check a `simulate --json` document independently of nfold's own replay: rebuild the
/// run from its JSON on the interpreter, check each printed change, and check that the
/// ending it claims holds in the last state (and nowhere before for violations).
fn check_simulation(model: &nfold::model::ir::Model, doc: &Value, code: i32) -> String {
    let n = doc["size"].as_u64().unwrap() as usize;
    let inst = Instance::new(model, n);
    let t = &doc["trace"];
    let init = init_from_json(&inst, t);
    assert_eq!(eval::satisfies_init(&inst, &init), Ok(true));
    let steps = steps_from_json(model, t);
    assert_eq!(steps.len() as u64, doc["steps"].as_u64().unwrap());
    let states = replay_steps(&inst, &init, &steps).expect("the simulated run replays");
    let end = doc["end"].as_str().unwrap().to_string();
    let bad = |st: &[i64]| {
        model
            .unsafes
            .iter()
            .any(|u| eval::violation(&inst, st, u) != Ok(None))
    };
    let ranged = |st: &[i64]| !eval::successors(&inst, st).1.is_empty();
    for st in &states[..states.len() - 1] {
        assert!(!bad(st) && !ranged(st), "the run went on past a violation");
    }
    let last = states.last().unwrap();
    match end.as_str() {
        "steps" => {
            assert_eq!(steps.len() as u64, doc["max_steps"].as_u64().unwrap());
            assert_eq!(t["kind"], "run");
            assert_eq!(code, 0);
        }
        "unsafe" => {
            assert_eq!(t["kind"], "unsafe");
            let prop = model
                .unsafes
                .iter()
                .position(|u| u.name == t["property"].as_str().unwrap())
                .unwrap();
            let tuple = common::ints(&t["processes"]);
            let tr = Trace {
                size: n,
                init: init.clone(),
                steps: steps.clone(),
                violation: Violation::Unsafe { prop, tuple },
            };
            tr.replay(model).expect("the bad state is bad");
            assert_eq!(code, 1);
        }
        "deadlock" => {
            let (succ, errs) = eval::successors(&inst, last);
            assert!(succ.is_empty() && errs.is_empty(), "not a deadlock");
            assert_eq!(t["kind"], "deadlock");
        }
        "range_error" => {
            assert!(
                ranged(last) || bad(last),
                "no range error in the last state"
            );
            assert_eq!(t["kind"], "range_error");
            assert_eq!(code, 1);
        }
        e => panic!("unexpected end {e}"),
    }
    end
}

#[test]
fn simulate_runs_are_real_and_end_as_they_say() {
    let dir = fresh_dir("commands-simulate");
    let range = write_file(&dir, "range.cub", RANGE_MODEL);
    let cases: &[(&str, &str, &[&str])] = &[
        ("families/mutex_bug.cub", "2", &["unsafe", "steps"]),
        ("families/mutex.cub", "3", &["steps"]),
        ("families/grant_mutex.cub", "2", &["deadlock", "steps"]),
        (&range, "3", &["range_error", "unsafe"]),
    ];
    for (file, n, allowed) in cases {
        let model = load(file);
        let mut ends = BTreeSet::new();
        for seed in 0..40 {
            let s = seed.to_string();
            let (code, doc) =
                json_run(&["simulate", file, "--size", n, "--seed", &s, "--steps", "12"]);
            assert_eq!(doc["seed"].as_u64(), Some(seed));
            let end = check_simulation(&model, &doc, code);
            assert!(allowed.contains(&end.as_str()), "{file}: ended in {end}");
            ends.insert(end);
        }
        // Over 40 seeds every ending the family can reach within 12 steps shows up.
        assert_eq!(ends.len(), allowed.len(), "{file}: {ends:?}");
    }
}

#[test]
fn simulate_same_seed_same_run_and_exit_codes() {
    let a = nfold(&[
        "simulate",
        "families/mutex_bug.cub",
        "--size",
        "3",
        "--seed",
        "77",
    ]);
    let b = nfold(&[
        "simulate",
        "families/mutex_bug.cub",
        "--size",
        "3",
        "--seed",
        "77",
    ]);
    assert_eq!(a, b);
    assert!(a.1.contains("seed      77 (the same seed repeats this run: --seed 77)"));
    // Without --seed the seed is printed, and giving it back repeats the run.
    let (_, out, _) = nfold(&[
        "simulate",
        "families/mutex.cub",
        "--size",
        "3",
        "--steps",
        "20",
    ]);
    let seed = out
        .lines()
        .find_map(|l| l.strip_prefix("seed      "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap()
        .to_string();
    let (_, again, _) = nfold(&[
        "simulate",
        "families/mutex.cub",
        "--size",
        "3",
        "--steps",
        "20",
        "--seed",
        &seed,
    ]);
    assert_eq!(out, again);
    // mutex never deadlocks nor violates: exactly --steps steps, exit 0.
    let (code, out, _) = nfold(&[
        "simulate",
        "families/mutex.cub",
        "--size",
        "2",
        "--seed",
        "1",
        "--steps",
        "7",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("      7  "), "{out}");
    assert!(
        out.contains("=> stopped after 7 steps (--steps 7)"),
        "{out}"
    );
    // --steps 0: the initial state only.
    let (code, doc) = json_run(&[
        "simulate",
        "families/mutex.cub",
        "--size",
        "2",
        "--steps",
        "0",
        "--seed",
        "3",
    ]);
    assert_eq!((code, doc["steps"].as_u64()), (0, Some(0)));
    // A deadlock is a violation only with --deadlock.
    let mut seeds_to_deadlock = Vec::new();
    for seed in 0..40u64 {
        let s = seed.to_string();
        let (code, doc) = json_run(&[
            "simulate",
            "families/grant_mutex.cub",
            "--size",
            "2",
            "--seed",
            &s,
        ]);
        if doc["end"] == "deadlock" {
            assert_eq!(code, 0);
            seeds_to_deadlock.push(s);
        }
    }
    assert!(!seeds_to_deadlock.is_empty());
    let s = &seeds_to_deadlock[0];
    let (code, out, _) = nfold(&[
        "simulate",
        "families/grant_mutex.cub",
        "--size",
        "2",
        "--seed",
        s,
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("=> deadlock reached: no transition is enabled"),
        "{out}"
    );
    assert!(out.contains("the run ends in a deadlock"), "{out}");
    let (code, out, _) = nfold(&[
        "simulate",
        "families/grant_mutex.cub",
        "--size",
        "2",
        "--seed",
        s,
        "--deadlock",
    ]);
    assert_eq!(code, 1);
    assert!(
        out.contains("VIOLATION: the run reaches a deadlock"),
        "{out}"
    );
}

#[test]
fn simulate_draws_initial_states_and_choices_uniformly() {
    let dir = fresh_dir("commands-uniform");
    let range = write_file(&dir, "range.cub", RANGE_MODEL);
    // Two initial states (Pick = Idle or Busy): 400 runs of no steps, each about half.
    let mut busy = 0;
    for seed in 0..400 {
        let (_, doc) = json_run(&[
            "simulate",
            &range,
            "--size",
            "1",
            "--steps",
            "0",
            "--seed",
            &seed.to_string(),
        ]);
        assert_eq!(doc["initial_states"].as_u64(), Some(2));
        if doc["trace"]["init"]["Pick"] == "Busy" {
            busy += 1;
        }
    }
    assert!((160..=240).contains(&busy), "{busy} of 400");
    // Pick := . after the first start(1): both values, about half each.
    let mut busy = 0;
    for seed in 0..400 {
        let (_, doc) = json_run(&[
            "simulate",
            &range,
            "--size",
            "1",
            "--steps",
            "1",
            "--seed",
            &seed.to_string(),
        ]);
        assert_eq!(doc["trace"]["steps"][0]["transition"], "start");
        if doc["trace"]["steps"][0]["choices"][0] == 1 {
            busy += 1;
        }
    }
    assert!((160..=240).contains(&busy), "{busy} of 400");
    // More than 10000 initial states: a randomised search, still a real initial state.
    let many = write_file(
        &dir,
        "many.cub",
        "array B[proc] : 0..9\ninit () { True }\ntransition t (i) requires { B[i] < 9 } { B[i] := B[i] + 1; }\n",
    );
    let (code, out, _) = nfold(&[
        "simulate", &many, "--size", "5", "--steps", "3", "--seed", "5",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("drawn by a randomised search (more than 10000 initial states)"),
        "{out}"
    );
    let (_, doc) = json_run(&[
        "simulate", &many, "--size", "5", "--steps", "3", "--seed", "5",
    ]);
    check_simulation(&load(&many), &doc, 0);
    // No initial state at all.
    let none = write_file(
        &dir,
        "none.cub",
        "type s = A | B\narray X[proc] : s\ninit (z) { X[z] = A && X[z] = B }\ntransition t (i) { X[i] := A; }\n",
    );
    let (code, out, _) = nfold(&["simulate", &none, "--size", "2"]);
    assert_eq!(code, 0);
    assert!(out.contains("no initial state at size 2"), "{out}");
}

#[test]
fn simulate_usage_errors() {
    let (code, _, err) = nfold(&["simulate", "families/mutex.cub"]);
    assert_eq!(code, 2);
    assert!(err.contains("--size"), "{err}");
    let (code, _, err) = nfold(&[
        "simulate",
        "families/mutex.cub",
        "--size",
        "2",
        "--property",
        "nope",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no `unsafe` or `invariant` property named `nope`"),
        "{err}"
    );
    let (code, _, _) = nfold(&[
        "simulate",
        "families/mutex.cub",
        "--size",
        "2",
        "--seed",
        "x",
    ]);
    assert_eq!(code, 2);
    let (code, _, err) = nfold(&["simulate", "no/such.cub", "--size", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("no/such.cub"), "{err}");
    let (code, _, _) = nfold(&[
        "simulate",
        "families/mutex.cub",
        "--size",
        "2",
        "--trace-format",
        "wide",
    ]);
    assert_eq!(code, 2);
}

/// A trail of mutex_bug at size 2, written by hand: both processes request, test the
/// free semaphore and enter. Also the output of `check --json` for sizes 1..3.
fn mutex_bug_trail(dir: &std::path::Path) -> (String, String) {
    let (code, out, _) = nfold(&[
        "check",
        "families/mutex_bug.cub",
        "--sizes",
        "1..3",
        "--json",
    ]);
    assert_eq!(code, 1);
    let doc = write_file(dir, "check.json", &out);
    let trail = r#"{
  "model": "families/mutex_bug.cub",
  "size": 2,
  "trace": {
    "kind": "unsafe",
    "property": "mutex",
    "processes": [1, 2],
    "violation": "bad state: `mutex` with z1=1, z2=2",
    "init": {"Sem": "False", "A[1]": "Idle", "A[2]": "Idle"},
    "steps": [
      {"transition": "req", "params": [1], "choices": [], "changes": {"A[1]": "Want"}},
      {"transition": "req", "params": [2], "choices": [], "changes": {"A[2]": "Want"}},
      {"transition": "test", "params": [1], "choices": [], "changes": {"A[1]": "Ready"}},
      {"transition": "test", "params": [2], "choices": [], "changes": {"A[2]": "Ready"}},
      {"transition": "enter", "params": [1], "choices": [], "changes": {"A[1]": "Crit", "Sem": "True"}},
      {"transition": "enter", "params": [2], "choices": [], "changes": {"A[2]": "Crit"}}
    ]
  }
}
"#;
    (doc, write_file(dir, "bug2.json", trail))
}

#[test]
fn replay_on_the_same_model_and_on_changed_models() {
    let dir = fresh_dir("commands-replay");
    let (doc, trail) = mutex_bug_trail(&dir);
    let (code, out, _) = nfold(&["replay", "families/mutex_bug.cub", &trail]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            "replayed: all 6 steps match the model and the last state shows the recorded violation"
        ),
        "{out}"
    );
    // Each change of the model is caught at the step (and for the reason) derived by hand.
    let bug = family_text("mutex_bug");
    let variants: &[(&str, &str, &str, &str)] = &[
        // enter checks the semaphore: the second enter is disabled (Sem=True).
        (
            "requires { A[i] = Ready }",
            "requires { A[i] = Ready && Sem = False }",
            "step 6, enter(2): not enabled in state 5: its guard is false: `Sem = False` does not hold (Sem = True) with i = 2",
            "5 of 6 steps",
        ),
        // test renamed.
        (
            "transition test (i)",
            "transition check (i)",
            "step 3, test(1): the model has no transition `test` (it has: `req`, `check`, `enter`, `exit`)",
            "2 of 6 steps",
        ),
        // test also takes the semaphore: the state after step 3 differs.
        (
            "{ A[i] := Ready; }",
            "{ A[i] := Ready; Sem := True; }",
            "step 3, test(1): the state after the step differs from the recorded one: `Sem` is now True, recorded unchanged",
            "2 of 6 steps",
        ),
        // test takes two parameters now.
        (
            "transition test (i)\nrequires { A[i] = Want && Sem = False }",
            "transition test (i j)\nrequires { A[i] = Want && Sem = False && A[j] <> Crit }",
            "step 3, test(1): `test` takes 2 parameters, the trail gives 1",
            "2 of 6 steps",
        ),
        // The property now also needs the semaphore free: no longer violated at the end.
        (
            "{ A[z1] = Crit && A[z2] = Crit }",
            "{ A[z1] = Crit && A[z2] = Crit && Sem = False }",
            "the end of the trail (after step 6): `mutex` no longer holds in the last state (for z1=1, z2=2 nor any other processes)",
            "6 of 6 steps",
        ),
        // The property renamed.
        (
            "unsafe mutex",
            "unsafe exclusion",
            "the end of the trail (after step 6): the model has no `unsafe` or `invariant` property `mutex`",
            "6 of 6 steps",
        ),
        // A new variable: the recorded initial state lacks it.
        (
            "var Sem : bool",
            "var Sem : bool\nvar Extra : bool",
            "the initial state: the model has cell `Extra` that the trail does not record",
            "",
        ),
        // The initial state changed.
        (
            "init (z) { A[z] = Idle && Sem = False }",
            "init (z) { A[z] = Idle && Sem = True }",
            "the initial state: the recorded initial state is not an initial state of the model (`init` is false there)",
            "",
        ),
        // A constructor renamed.
        (
            "Idle",
            "Rest",
            "the initial state: `A[1]=Idle`: Idle is not a value of `A[1]` (type state)",
            "",
        ),
    ];
    for (k, (from, to, why, replayed)) in variants.iter().enumerate() {
        assert!(bug.contains(from), "variant {k}");
        let m = write_file(&dir, &format!("v{k}.cub"), &bug.replace(from, to));
        let (code, out, err) = nfold(&["replay", &m, &trail]);
        assert_eq!(code, 1, "variant {k}: {out}{err}");
        assert!(
            out.contains(&format!("the trail no longer matches the model at {why}\n")),
            "variant {k}: {out}"
        );
        assert!(out.contains(replayed), "variant {k}: {out}");
        // The JSON form says the same.
        let (code, v) = json_run(&["replay", &m, &trail]);
        assert_eq!(code, 1);
        assert_eq!(v["matches"], false);
        assert_eq!(v["mismatch"]["text"], *why, "variant {k}");
    }
    let (code, v) = json_run(&["replay", "families/mutex_bug.cub", &trail]);
    assert_eq!(
        (code, &v["matches"], &v["steps_replayed"]),
        (0, &Value::Bool(true), &Value::from(6))
    );
    // A parameter out of range at this size: edit the file.
    let text = std::fs::read_to_string(&trail).unwrap();
    let mut t: Value = serde_json::from_str(&text).unwrap();
    t["trace"]["steps"][1]["params"] = serde_json::json!([5]);
    let bad = write_file(&dir, "param.json", &t.to_string());
    let (code, out, _) = nfold(&["replay", "families/mutex_bug.cub", &bad]);
    assert_eq!(code, 1);
    assert!(
        out.contains("at step 2, req(5): parameter 5 is not a process id at size 2 (1..2)"),
        "{out}"
    );
    // The whole check document: two counterexamples, so a size must be chosen.
    let (code, _, err) = nfold(&["replay", "families/mutex_bug.cub", &doc]);
    assert_eq!(code, 2);
    assert!(
        err.contains("holds 2 counterexamples (size 2 `mutex`, size 3 `mutex`)"),
        "{err}"
    );
    let (code, out, _) = nfold(&["replay", "families/mutex_bug.cub", &doc, "--size", "3"]);
    assert_eq!(code, 0, "{out}");
    let (code, _, err) = nfold(&["replay", "families/mutex_bug.cub", &doc, "--size", "1"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no counterexample of the document fits"),
        "{err}"
    );
    // A bare trace needs its size.
    let bare = write_file(&dir, "bare.json", &t["trace"].to_string());
    let (code, _, err) = nfold(&["replay", "families/mutex_bug.cub", &bare]);
    assert_eq!(code, 2);
    assert!(err.contains("give it with --size N"), "{err}");
    let (code, out, _) = nfold(&["replay", "families/mutex_bug.cub", &bare, "--size", "2"]);
    assert_eq!(code, 1, "{out}"); // the edited parameter
}

#[test]
fn replay_input_errors_are_located() {
    let dir = fresh_dir("commands-replay-input");
    let (_, trail) = mutex_bug_trail(&dir);
    let text = std::fs::read_to_string(&trail).unwrap();
    // Truncated: the error is at the end of the file.
    let cut = write_file(&dir, "cut.json", &text[..text.len() / 2]);
    let (code, _, err) = nfold(&["replay", "families/mutex_bug.cub", &cut]);
    assert_eq!(code, 2);
    let lines = text[..text.len() / 2].lines().count();
    assert!(err.starts_with(&format!("{cut}:{lines}:")), "{err}");
    assert!(err.contains("error: unexpected end of the file"), "{err}");
    // A wrong type, located at its line.
    let wrong = write_file(
        &dir,
        "wrong.json",
        "{\n  \"size\": 2,\n  \"trace\": {\"init\": {}, \"steps\": [{\"transition\": 3, \"params\": []}]}\n}\n",
    );
    let (code, _, err) = nfold(&["replay", "families/mutex_bug.cub", &wrong]);
    assert_eq!(code, 2);
    assert!(err.starts_with(&format!("{wrong}:3:")), "{err}");
    assert!(
        err.contains("invalid type: integer `3`, expected a string"),
        "{err}"
    );
    for (name, text, msg) in [
        ("array.json", "[]", ":1:1: error: expected a JSON object"),
        ("other.json", "{\"a\": 1}", ":1:1: error: not a trail"),
        (
            "size.json",
            "{\"size\": 0, \"trace\": {\"kind\": \"run\", \"init\": {}, \"steps\": []}}",
            "error: the recorded size 0 is not a size",
        ),
        (
            "kind.json",
            "{\"size\": 2, \"trace\": {\"kind\": \"odd\", \"init\": {}, \"steps\": []}}",
            "error: unknown trace kind `odd`",
        ),
    ] {
        let p = write_file(&dir, name, text);
        let (code, _, err) = nfold(&["replay", "families/mutex_bug.cub", &p]);
        assert_eq!(code, 2, "{name}");
        assert!(err.contains(msg), "{name}: {err}");
    }
    let bin = dir.join("bin.json");
    std::fs::write(&bin, b"{\n \"size\": \xff}").unwrap();
    let (code, _, err) = nfold(&["replay", "families/mutex_bug.cub", bin.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains(":2:10: error: not UTF-8 text"), "{err}");
    let (code, _, err) = nfold(&["replay", "families/mutex_bug.cub", "no/such.json"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("no/such.json: error: cannot read"), "{err}");
    let (code, _, _) = nfold(&["replay", "families/nope.cub", &trail]);
    assert_eq!(code, 2);
}

#[test]
fn trails_of_every_kind_replay() {
    let dir = fresh_dir("commands-kinds");
    // Deadlock (check --deadlock), its trail saved from the document.
    let (code, v) = json_run(&[
        "check",
        "families/grant_mutex.cub",
        "--size",
        "2",
        "--deadlock",
    ]);
    assert_eq!(code, 1);
    let doc = write_file(&dir, "dl.json", &v.to_string());
    let (code, out, _) = nfold(&[
        "replay",
        "families/grant_mutex.cub",
        &doc,
        "--property",
        "deadlock",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("=> deadlock reached"), "{out}");
    // The deadlock gone: an idle process may always give up waiting.
    let changed = family_text("grant_mutex")
        + "\ntransition give_up (i)\nrequires { A[i] = Want }\n{ A[i] := Idle; }\n";
    let m = write_file(&dir, "giveup.cub", &changed);
    let (code, out, _) = nfold(&["replay", &m, &doc, "--property", "deadlock"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("the last state is no longer a deadlock: give_up(1) is enabled"),
        "{out}"
    );
    // Range error (simulate --trace-out), and the range made wide enough.
    let range = write_file(&dir, "range.cub", RANGE_MODEL);
    let mut found = None;
    for seed in 0..40 {
        let t = dir.join(format!("r{seed}.json"));
        let (code, _, _) = nfold(&[
            "simulate",
            &range,
            "--size",
            "3",
            "--seed",
            &seed.to_string(),
            "--trace-out",
            t.to_str().unwrap(),
        ]);
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&t).unwrap()).unwrap();
        if v["trace"]["kind"] == "range_error" {
            assert_eq!(code, 1);
            found = Some(t);
            break;
        }
    }
    let t = found.expect("a run to a range error");
    let t = t.to_str().unwrap();
    let (code, out, _) = nfold(&["replay", &range, t]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("=> range error in start("), "{out}");
    let wide = write_file(&dir, "wide.cub", &RANGE_MODEL.replace("0..2", "0..3"));
    let (code, out, _) = nfold(&["replay", &wide, t]);
    assert_eq!(code, 1);
    assert!(
        out.contains("meets no range error in the last state any more"),
        "{out}"
    );
    // `Pick := .` made deterministic: the first step (a start) records a choice.
    let det = write_file(
        &dir,
        "det.cub",
        &RANGE_MODEL.replace("Pick := .;", "Pick := Idle;"),
    );
    let (code, out, _) = nfold(&["replay", &det, t]);
    assert_eq!(code, 1);
    assert!(
        out.contains(": the trail records 1 nondeterministic choice, the transition makes 0\n"),
        "{out}"
    );
    assert!(out.contains("at step 1, start("), "{out}");
    // A simulated run without violation (kind run).
    let run = dir.join("run.json");
    let (code, _, _) = nfold(&[
        "simulate",
        "families/mutex.cub",
        "--size",
        "3",
        "--steps",
        "9",
        "--seed",
        "2",
        "--trace-out",
        run.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let (code, out, _) = nfold(&["replay", "families/mutex.cub", run.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(
        out.contains("replayed: all 9 steps match the model (the trail records no violation)"),
        "{out}"
    );
    // simulate --json is a trail too.
    let (_, out, _) = nfold(&[
        "simulate",
        "families/mutex_bug.cub",
        "--size",
        "2",
        "--seed",
        "4",
        "--json",
        "--steps",
        "30",
    ]);
    let sim = write_file(&dir, "sim.json", &out);
    let (code, out, _) = nfold(&["replay", "families/mutex_bug.cub", &sim]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn lassos_from_live_replay_and_print_as_tables() {
    let dir = fresh_dir("commands-lasso");
    let out_file = dir.join("lasso.json");
    let (code, out, err) = nfold(&[
        "live",
        "families/mutex.cub",
        "--size",
        "3",
        "--fair",
        "--trace-out",
        out_file.to_str().unwrap(),
        "--trace-format",
        "table",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("saved to"), "{err}");
    // The table: a header with a column per process, the cycle marked.
    assert!(out.contains("    step  p1"), "{out}");
    assert!(out.contains("globals"), "{out}");
    assert!(out.contains("    ---- cycle starts at state"), "{out}");
    let f = out_file.to_str().unwrap();
    let (code, out, _) = nfold(&["replay", "families/mutex.cub", f]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            "the cycle closes and the run violates `starvation_free` for i=1 under weak fairness"
        ),
        "{out}"
    );
    // The whole live document works as well.
    let (_, live_out, _) = nfold(&["live", "families/mutex.cub", "--size", "2", "--json"]);
    let doc = write_file(&dir, "live.json", &live_out);
    let (code, out, _) = nfold(&[
        "replay",
        "families/mutex.cub",
        &doc,
        "--trace-format",
        "table",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("---- back to state"), "{out}");
    // Starvation made impossible: the waiting process is served first.
    let fixed = family_text("mutex").replace(
        "requires { A[i] = Want && Sem = False }",
        "requires { A[i] = Want && Sem = False && forall_other j. A[j] <> Want }",
    );
    let m = write_file(&dir, "fixed.cub", &fixed);
    let (code, out, _) = nfold(&["replay", &m, f]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("not enabled"), "{out}");
    // No counterexample: nothing written.
    let none = dir.join("none.json");
    let (code, _, err) = nfold(&[
        "live",
        "families/peterson.cub",
        "--size",
        "2",
        "--trace-out",
        none.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(err.contains("no counterexample found"), "{err}");
    assert!(!none.exists());
}

/// Nodes (id -> label) and edges (from label, edge label, to label) of a DOT document
/// written by `nfold dot`, with the attributes of each node line.
struct Dot {
    nodes: Vec<(String, String, String)>,
    edges: Vec<(String, String, String, String)>,
}

fn label_of(attrs: &str) -> String {
    let start = attrs.find("label=\"").unwrap() + 7;
    let end = start + attrs[start..].find('"').unwrap();
    attrs[start..end].to_string()
}

fn parse_dot(text: &str) -> Dot {
    let mut nodes = Vec::new();
    let mut edges = Vec::new();
    for l in text.lines() {
        let Some(l) = l.strip_prefix("  s") else {
            continue;
        };
        let (head, attrs) = l.split_once(" [").unwrap();
        if let Some((a, b)) = head.split_once(" -> s") {
            edges.push((
                a.to_string(),
                b.to_string(),
                label_of(attrs),
                attrs.to_string(),
            ));
        } else {
            nodes.push((head.to_string(), label_of(attrs), attrs.to_string()));
        }
    }
    let name = |id: &str| nodes.iter().find(|n| n.0 == id).unwrap().1.clone();
    let edges = edges
        .iter()
        .map(|(a, b, l, attrs)| (name(a), l.clone(), name(b), attrs.clone()))
        .collect();
    Dot { nodes, edges }
}

fn edge_set(d: &Dot) -> BTreeSet<(String, String, String)> {
    d.edges
        .iter()
        .map(|(a, l, b, _)| (a.clone(), l.clone(), b.clone()))
        .collect()
}

fn triples(hand: &[(&str, &str, &str)]) -> BTreeSet<(String, String, String)> {
    hand.iter()
        .map(|(a, l, b)| {
            let st = |s: &str| {
                // "IW" -> "Sem=False A=[Idle,Want]"; Sem is True exactly when some
                // process is critical.
                let names: Vec<&str> = s
                    .chars()
                    .map(|c| match c {
                        'I' => "Idle",
                        'W' => "Want",
                        _ => "Crit",
                    })
                    .collect();
                format!(
                    "Sem={} A=[{}]",
                    if s.contains('C') { "True" } else { "False" },
                    names.join(",")
                )
            };
            (st(a), l.to_string(), st(b))
        })
        .collect()
}

#[test]
fn dot_graphs_match_hand_counts() {
    // mutex at n = 2: states 2^n + n·2^(n−1) = 8; each Idle process can request, each
    // Want process can enter while nobody is critical, the critical one can exit.
    let (code, out, err) = nfold(&["dot", "families/mutex.cub", "--size", "2"]);
    assert_eq!(code, 0, "{err}");
    let d = parse_dot(&out);
    assert_eq!(d.nodes.len(), 8);
    let hand = triples(&[
        ("II", "req(1)", "WI"),
        ("II", "req(2)", "IW"),
        ("WI", "req(2)", "WW"),
        ("WI", "enter(1)", "CI"),
        ("IW", "req(1)", "WW"),
        ("IW", "enter(2)", "IC"),
        ("WW", "enter(1)", "CW"),
        ("WW", "enter(2)", "WC"),
        ("CI", "exit(1)", "II"),
        ("CI", "req(2)", "CW"),
        ("IC", "exit(2)", "II"),
        ("IC", "req(1)", "WC"),
        ("CW", "exit(1)", "IW"),
        ("WC", "exit(2)", "WI"),
    ]);
    assert_eq!(d.edges.len(), 14);
    assert_eq!(edge_set(&d), hand);
    let initial: Vec<&String> = d
        .nodes
        .iter()
        .filter(|n| n.2.contains("peripheries=2"))
        .map(|n| &n.1)
        .collect();
    assert_eq!(initial, ["Sem=False A=[Idle,Idle]"]);
    assert!(d.nodes.iter().all(|n| !n.2.contains("fillcolor=red")));
    assert!(
        err.contains("8 states, 14 edges, 1 initial, 0 violating"),
        "{err}"
    );
    // With symmetry: 2n+1 = 5 orbits, each drawn as its least member (Idle < Want <
    // Crit, sorted); edges from the representatives, one per enabled instance.
    let (code, out, _) = nfold(&["dot", "families/mutex.cub", "--size", "2", "--symmetry"]);
    assert_eq!(code, 0);
    let d = parse_dot(&out);
    assert_eq!(d.nodes.len(), 5);
    let hand = triples(&[
        ("II", "req(1)", "IW"),
        ("II", "req(2)", "IW"),
        ("IW", "req(1)", "WW"),
        ("IW", "enter(2)", "IC"),
        ("WW", "enter(1)", "WC"),
        ("WW", "enter(2)", "WC"),
        ("IC", "req(1)", "WC"),
        ("IC", "exit(2)", "II"),
        ("WC", "exit(2)", "IW"),
    ]);
    assert_eq!(d.edges.len(), 9);
    assert_eq!(edge_set(&d), hand);
    // n = 3: 20 states; edges: 3 from each of the 8 states nobody is critical in, and
    // 1 + (number of idle others) from each of the 12 with one critical: 24 + 24 = 48.
    // With symmetry: 7 orbits, 3+3+3+3 edges from the four critical-free ones and
    // 3+2+1 from the three with one critical process: 18.
    for (sym, nodes, edges) in [(false, 20, 48), (true, 7, 18)] {
        let mut args = vec!["dot", "families/mutex.cub", "--size", "3"];
        if sym {
            args.push("--symmetry");
        }
        let (code, out, _) = nfold(&args);
        assert_eq!(code, 0);
        let d = parse_dot(&out);
        assert_eq!(
            (d.nodes.len(), d.edges.len()),
            (nodes, edges),
            "symmetry {sym}"
        );
    }
}

#[test]
fn dot_marks_bad_states_range_errors_deadlocks_and_trails() {
    let dir = fresh_dir("commands-dot");
    // mutex_bug: exactly one state has both processes critical.
    let (code, out, _) = nfold(&["dot", "families/mutex_bug.cub", "--size", "2"]);
    assert_eq!(code, 0);
    let d = parse_dot(&out);
    let red: Vec<&String> = d
        .nodes
        .iter()
        .filter(|n| n.2.contains("fillcolor=red"))
        .map(|n| &n.1)
        .collect();
    assert_eq!(red, ["Sem=True A=[Crit,Crit]"]);
    // The shortest trace highlighted: its 7 states and 6 steps in blue, numbered.
    let (_, trail) = mutex_bug_trail(&dir);
    let file = dir.join("g.dot");
    let (code, _, err) = nfold(&[
        "dot",
        "families/mutex_bug.cub",
        "--trace",
        &trail,
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let d = parse_dot(&std::fs::read_to_string(&file).unwrap());
    assert_eq!(
        d.nodes
            .iter()
            .filter(|n| n.2.contains("color=blue"))
            .count(),
        7
    );
    let blue: Vec<String> = d
        .edges
        .iter()
        .filter(|e| e.3.contains("color=blue"))
        .map(|e| e.1.clone())
        .collect();
    assert_eq!(
        blue.iter().collect::<BTreeSet<_>>(),
        [
            "req(1)\\n#1",
            "req(2)\\n#2",
            "test(1)\\n#3",
            "test(2)\\n#4",
            "enter(1)\\n#5",
            "enter(2)\\n#6"
        ]
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .iter()
        .collect::<BTreeSet<_>>()
    );
    // A trail that does not replay on the model is refused.
    let fixed = write_file(
        &dir,
        "fixed.cub",
        &family_text("mutex_bug").replace(
            "requires { A[i] = Ready }",
            "requires { A[i] = Ready && Sem = False }",
        ),
    );
    let (code, _, err) = nfold(&["dot", &fixed, "--trace", &trail]);
    assert_eq!(code, 2);
    assert!(
        err.contains("does not replay on this model: at step 6, enter(2)"),
        "{err}"
    );
    // grant_mutex at n = 2 deadlocks once both processes want (one state).
    let (_, out, _) = nfold(&["dot", "families/grant_mutex.cub", "--size", "2"]);
    let d = parse_dot(&out);
    let oct: Vec<&String> = d
        .nodes
        .iter()
        .filter(|n| n.2.contains("octagon"))
        .map(|n| &n.1)
        .collect();
    assert_eq!(oct, ["A=[Want,Want] Grant=[[False,False],[False,False]]"]);
    // Range errors: at n = 1 the third start overflows Count, in the two states with
    // Count = 2 and process 1 idle; `Pick := .` choices are named on the edges.
    let range = write_file(&dir, "range.cub", RANGE_MODEL);
    let (_, out, _) = nfold(&["dot", &range, "--size", "1"]);
    let d = parse_dot(&out);
    let orange: BTreeSet<&String> = d
        .nodes
        .iter()
        .filter(|n| n.2.contains("color=orange"))
        .map(|n| &n.1)
        .collect();
    assert_eq!(
        orange,
        [
            "Count=2 Pick=Idle A=[Idle]".to_string(),
            "Count=2 Pick=Busy A=[Idle]".to_string()
        ]
        .iter()
        .collect()
    );
    assert!(d.edges.iter().any(|e| e.1 == "start(1) [Pick:=Busy]"));
    // Two initial states (Pick free), 10 states: Count 0..2 × Pick × (A idle or busy,
    // busy only when Count ≥ 1) = 2 + 4 + 4.
    assert_eq!(
        d.nodes
            .iter()
            .filter(|n| n.2.contains("peripheries=2"))
            .count(),
        2
    );
    assert_eq!(d.nodes.len(), 10);
}

#[test]
fn dot_refusals() {
    let dir = fresh_dir("commands-dot-refuse");
    let out = dir.join("big.dot");
    let (code, _, err) = nfold(&[
        "dot",
        "families/german.cub",
        "--size",
        "3",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 3);
    assert!(
        err.contains("more than 2000 reachable states; not drawing it"),
        "{err}"
    );
    assert!(!out.exists());
    let (code, _, _) = nfold(&[
        "dot",
        "families/mutex.cub",
        "--size",
        "3",
        "--max-states",
        "19",
    ]);
    assert_eq!(code, 3);
    let (code, _, _) = nfold(&[
        "dot",
        "families/mutex.cub",
        "--size",
        "3",
        "--max-states",
        "20",
    ]);
    assert_eq!(code, 0);
    let (code, _, err) = nfold(&[
        "dot",
        "families/token_ring.cub",
        "--size",
        "2",
        "--symmetry",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("not fully symmetric"), "{err}");
    let (code, _, err) = nfold(&["dot", "families/mutex.cub"]);
    assert_eq!(code, 2);
    assert!(err.contains("--size"), "{err}");
}

#[test]
fn dot_output_renders_with_graphviz() {
    let have_dot = std::process::Command::new("dot")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_dot {
        println!("note: Graphviz `dot` is not installed; skipping the rendering check");
        return;
    }
    let dir = fresh_dir("commands-graphviz");
    let (_, trail) = mutex_bug_trail(&dir);
    let range = write_file(&dir, "range.cub", RANGE_MODEL);
    for args in [
        vec!["dot", "families/mutex.cub", "--size", "3"],
        vec!["dot", "families/mutex.cub", "--size", "3", "--symmetry"],
        vec!["dot", "families/mutex_bug.cub", "--trace", &trail],
        vec!["dot", "families/grant_mutex.cub", "--size", "2"],
        vec!["dot", &range, "--size", "2"],
    ] {
        let (code, text, _) = nfold(&args);
        assert_eq!(code, 0);
        let mut child = std::process::Command::new("dot")
            .arg("-Tsvg")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stderr.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("<svg"));
    }
}

/// Replace one random leaf of a JSON value (a number, string or boolean), or drop a
/// random key of an object.
fn mutate_json(v: &mut Value, rng: &mut common::Rng) {
    let mut leaves = 0usize;
    fn count(v: &Value, n: &mut usize) {
        *n += 1;
        match v {
            Value::Array(a) => a.iter().for_each(|x| count(x, n)),
            Value::Object(o) => o.values().for_each(|x| count(x, n)),
            _ => {}
        }
    }
    count(v, &mut leaves);
    let target = rng.below(leaves);
    fn walk(v: &mut Value, k: &mut usize, target: usize, rng: &mut common::Rng) -> bool {
        if *k == target {
            let numbers = [-1i64, 0, 1, 2, 3, 5, 64, 65, i64::MAX, i64::MIN];
            let words = [
                "", "Crit", "Idle", "req", "enter", "mutex", "lasso", "run", "A[1]", "Sem", "X",
            ];
            *v = match rng.below(6) {
                0 => Value::from(*rng.pick(&numbers)),
                1 => Value::from(*rng.pick(&words)),
                2 => Value::Null,
                3 => Value::Bool(rng.chance(50)),
                4 => serde_json::json!([rng.range(-2, 4), rng.range(-2, 4)]),
                _ => serde_json::json!({}),
            };
            return true;
        }
        *k += 1;
        match v {
            Value::Array(a) => {
                for x in a.iter_mut() {
                    if walk(x, k, target, rng) {
                        return true;
                    }
                }
            }
            Value::Object(o) => {
                if rng.chance(3) && !o.is_empty() {
                    let key = o.keys().nth(rng.below(o.len())).unwrap().clone();
                    o.remove(&key);
                    return true;
                }
                for x in o.values_mut() {
                    if walk(x, k, target, rng) {
                        return true;
                    }
                }
            }
            _ => {}
        }
        false
    }
    let mut k = 0;
    walk(v, &mut k, target, rng);
}

#[test]
fn trail_mutants_never_panic() {
    let dir = fresh_dir("commands-mutants");
    let (doc, bug) = mutex_bug_trail(&dir);
    let lasso = dir.join("lasso.json");
    let (code, _, _) = nfold(&[
        "live",
        "families/mutex.cub",
        "--size",
        "3",
        "--fair",
        "--trace-out",
        lasso.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    let range = write_file(&dir, "range.cub", RANGE_MODEL);
    let rt = dir.join("range.json");
    nfold(&[
        "simulate",
        &range,
        "--size",
        "3",
        "--seed",
        "0",
        "--trace-out",
        rt.to_str().unwrap(),
    ]);
    let sources = [
        ("families/mutex_bug.cub".to_string(), bug),
        (
            "families/mutex.cub".to_string(),
            lasso.to_str().unwrap().to_string(),
        ),
        ("families/mutex_bug.cub".to_string(), doc),
        (range.clone(), rt.to_str().unwrap().to_string()),
    ];
    let mut rng = common::Rng::new(20260101);
    let count = if cfg!(debug_assertions) { 200 } else { 1500 };
    let (mut parsed, mut matched) = (0, 0);
    for (k, (model_path, trail_path)) in sources.iter().cycle().take(count).enumerate() {
        let model = load(model_path);
        let text = std::fs::read_to_string(trail_path).unwrap();
        let mutant = if rng.chance(40) {
            // Bytes: cut, delete, duplicate or insert.
            let mut b = text.clone().into_bytes();
            let at = rng.below(b.len());
            match rng.below(4) {
                0 => b.truncate(at),
                1 => {
                    let end = (at + rng.below(20)).min(b.len());
                    b.drain(at..end);
                }
                2 => {
                    let end = (at + rng.below(20)).min(b.len());
                    let piece = b[at..end].to_vec();
                    b.splice(at..at, piece);
                }
                _ => b.insert(at, *rng.pick(b"{}[],:\"0123456789-e.x\\")),
            }
            String::from_utf8_lossy(&b).into_owned()
        } else {
            let mut v: Value = serde_json::from_str(&text).unwrap();
            for _ in 0..=rng.below(3) {
                mutate_json(&mut v, &mut rng);
            }
            v.to_string()
        };
        let pick = nfold::trail::Pick {
            size: if rng.chance(30) {
                Some(rng.range(1, 4) as usize)
            } else {
                None
            },
            property: None,
        };
        // Some through the command line (replay and dot), for exit codes.
        if k % 25 == 0 {
            let f = write_file(&dir, "mutant.json", &mutant);
            let (code, _, _) = nfold(&["replay", model_path, &f]);
            assert!((0..=2).contains(&code), "replay exit {code}");
            let (code, _, _) = nfold(&["dot", model_path, "--trace", &f, "--max-states", "100"]);
            assert!((0..=3).contains(&code), "dot exit {code}");
        }
        let Ok(t) = nfold::trail::parse("m.json", &mutant, &pick) else {
            continue;
        };
        parsed += 1;
        let r = nfold::trail::replay(&model, &t);
        if r.outcome.is_ok() {
            matched += 1;
        }
        if !r.states.is_empty() {
            assert_eq!(r.states.len(), r.steps.len() + 1);
        }
    }
    // Some mutants still parse (most changes break the structure or the types), and
    // some of those (a changed leaf that does not matter, such as the recorded
    // violation text) still replay.
    assert!(parsed > count / 20, "{parsed} of {count} parsed");
    assert!(matched > 0, "none replayed");
}

/// A model given where the trail goes is named as such, not as bad JSON at 1:1.
#[test]
fn replay_of_a_model_as_trail_says_so() {
    let dir = fresh_dir("commands-replay-model-as-trail");
    let copy = dir.join("other.cub");
    std::fs::copy("families/mutex.cub", &copy).unwrap();
    let (code, _, err) = nfold(&["replay", "families/mutex_bug.cub", copy.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("is a model file (.cub)") && err.contains("--trace-out or --json"),
        "{err}"
    );
}

/// `nfold info` keeps its figures in one column and gives every property its line.
#[test]
fn info_aligns_figures_and_gives_property_lines() {
    let (code, out, _) = nfold(&["info", "families/mutex.cub", "--size", "3"]);
    assert_eq!(code, 0);
    // mutex.cub: `unsafe mutex (z1 z2)` on line 21, `ltl starvation_free (i)` on 41.
    assert!(
        out.contains("  unsafe mutex (z1 z2)           line 21\n"),
        "{out}"
    );
    assert!(
        out.contains("  ltl    starvation_free (i)     line 41\n"),
        "{out}"
    );
    let col = |prefix: &str| {
        let l = out.lines().find(|l| l.starts_with(prefix)).unwrap();
        l.find(|c: char| c.is_ascii_digit()).unwrap()
    };
    assert_eq!(col("  bad `mutex`"), col("  per step"));
    assert!(out.contains("(1 word of 64 bits)"), "{out}");
}
