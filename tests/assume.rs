//! Per-property answers for every n, and Cubicle's `invariant`s assumed
//! (`model::assume`): checked as claims, and the `unsafe` properties not proved without
//! them answered again on the states satisfying them. Hand-made models; every verdict,
//! depth and count below is derived by hand in the comments, not read off the tool.

use crate::common;

use common::{json_run, nfold, scratch_dir, write_file};
use serde_json::Value;

fn temp_file(tag: &str, text: &str) -> String {
    let d = scratch_dir(&format!("assume-{tag}"));
    write_file(&d, &format!("{tag}.cub"), text)
}

/// A request/enter/leave protocol with no lock at all.
const BASE: &str = "type s = Idle | Want | Crit\narray S[proc] : s\nvar Err : bool\n\
    init (i) { S[i] = Idle && Err = False }\n\
    unsafe mutex (i j) { S[i] = Crit && S[j] = Crit }\n\
    unsafe err () { Err = True }\n\
    transition req (i) requires { S[i] = Idle } { S[i] := Want; }\n\
    transition enter (i) requires { S[i] = Want } { S[i] := Crit; }\n\
    transition leave (i) requires { S[i] = Crit } { S[i] := Idle; }\n\
    transition oops (i) requires { S[i] = Crit && S[i] = Idle } { Err := True; }\n";

/// The rows of `doc` (`results`, or the assumed pass's) for `prop`: (size, verdict,
/// depth).
fn rows(results: &Value, prop: &str) -> Vec<(u64, String, Option<u64>)> {
    results
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["property"] == prop)
        .map(|r| {
            (
                r["size"].as_u64().unwrap(),
                r["verdict"].as_str().unwrap().to_string(),
                r["depth"].as_u64(),
            )
        })
        .collect()
}

fn every_of<'a>(every: &'a Value, prop: &str) -> &'a Value {
    every["properties"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["property"] == prop)
        .unwrap_or_else(|| panic!("no every-n answer for {prop}: {every}"))
}

#[test]
fn an_invariant_refuted_as_a_claim_and_assumed_for_the_unsafe_properties() {
    // The claim "at most one process out of Idle" is false from size 2: req(1),
    // req(2), depth 2. Without it, mutex fails from size 2: req(1) enter(1) req(2)
    // enter(2), depth 4 (two processes each need req and enter). Assuming it, at most
    // one process is ever out of Idle, so never two in Crit: mutex holds at every
    // size. `err` is never set (`oops` needs Crit and Idle at once): it holds for
    // every n without the assumption, so the assumed pass does not answer it again.
    let text = format!("{BASE}invariant one_out (i j) {{ S[i] <> Idle && S[j] <> Idle }}\n");
    let f = temp_file("oneout", &text);
    let (code, v) = json_run(&["check", &f, "--every-n"]);
    assert_eq!(code, 1, "violations at sizes checked: exit 1");
    let held = |d| (1, "holds".to_string(), d);
    let bad = |n, d| (n, "violated".to_string(), Some(d));
    assert_eq!(
        rows(&v["results"], "one_out"),
        vec![held(None), bad(2, 2), bad(3, 2), bad(4, 2)]
    );
    assert_eq!(
        rows(&v["results"], "mutex"),
        vec![held(None), bad(2, 4), bad(3, 4), bad(4, 4)]
    );
    // Per property for every n: the violated ones are violated, `err` holds.
    let e = &v["every_n"];
    assert_eq!(e["verdict"], "violated");
    assert_eq!(every_of(e, "one_out")["verdict"], "violated");
    assert_eq!(
        every_of(e, "one_out")["violated_sizes"],
        serde_json::json!([2, 3, 4])
    );
    assert_eq!(every_of(e, "mutex")["verdict"], "violated");
    assert_eq!(every_of(e, "err")["verdict"], "holds");
    // Assuming the invariant: mutex at each size and for every n.
    let a = &v["assuming"];
    assert_eq!(a["invariants"], serde_json::json!(["one_out"]));
    assert!(rows(&a["results"], "err").is_empty());
    let m = rows(&a["results"], "mutex");
    assert_eq!(m.len(), 4);
    assert!(m.iter().all(|(_, v, _)| v == "holds"), "{m:?}");
    let ae = every_of(&a["every_n"], "mutex");
    assert_eq!(ae["verdict"], "holds", "{}", a["every_n"]);
    assert_eq!(ae["assuming"], serde_json::json!(["one_out"]));
    // The text says so, and never "holds" of a violated property.
    let (_, out, _) = nfold(&["check", &f, "--every-n"]);
    assert!(
        out.contains("  mutex: holds for every n, assuming one_out ("),
        "{out}"
    );
    assert!(
        out.contains(
            "  invariant one_out: VIOLATED at sizes 2..4, so it does not hold for every n"
        ),
        "{out}"
    );
    assert!(
        out.contains("  mutex: VIOLATED at sizes 2..4, so it does not hold for every n"),
        "{out}"
    );
    assert!(out.contains("  err: holds for every n ("), "{out}");
}

#[test]
fn the_states_assumed_are_those_satisfying_the_invariant() {
    // Without symmetry reduction the explicit search stores every state: assuming at
    // most one process out of Idle, the reachable states at size n are all-Idle and one
    // process in Want or Crit: 1 + 2n (3, 5, 7 at sizes 1..3).
    let text = format!("{BASE}invariant one_out (i j) {{ S[i] <> Idle && S[j] <> Idle }}\n");
    let f = temp_file("count", &text);
    let (_, v) = json_run(&[
        "check",
        &f,
        "--engine",
        "explicit",
        "--no-symmetry",
        "--sizes",
        "1..3",
    ]);
    let states: Vec<u64> = v["assuming"]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["property"] == "mutex")
        .map(|r| r["states"].as_u64().unwrap())
        .collect();
    assert_eq!(states, vec![3, 5, 7]);
}

#[test]
fn an_unsafe_property_that_fails_even_under_the_invariant() {
    // The claim "never two processes in Want" is false from size 2 (req, req: depth
    // 2). Assuming it, mutex still fails from size 2: req(1) enter(1) req(2) enter(2)
    // never has two in Want, depth 4; at size 1 it holds. The trace is a run of the
    // restricted model, so of the model too: exit 1 either way.
    let text = format!("{BASE}invariant two_want (i j) {{ S[i] = Want && S[j] = Want }}\n");
    let f = temp_file("twowant", &text);
    let (code, v) = json_run(&["check", &f, "--every-n"]);
    assert_eq!(code, 1);
    let a = &v["assuming"];
    let m = rows(&a["results"], "mutex");
    let want: Vec<(u64, String, Option<u64>)> = vec![
        (1, "holds".into(), None),
        (2, "violated".into(), Some(4)),
        (3, "violated".into(), Some(4)),
        (4, "violated".into(), Some(4)),
    ];
    assert_eq!(m, want);
    let ae = every_of(&a["every_n"], "mutex");
    assert_eq!(ae["verdict"], "violated");
    let (_, out, _) = nfold(&["check", &f, "--every-n"]);
    assert!(
        out.contains("mutex: VIOLATED at sizes 2..4 (assuming two_want), so it does not hold"),
        "{out}"
    );
    assert!(!out.contains("holds for every n, assuming"), "{out}");
}

#[test]
fn certify_checks_the_assumed_problem() {
    let text = format!("{BASE}invariant one_out (i j) {{ S[i] <> Idle && S[j] <> Idle }}\n");
    let f = temp_file("cert", &text);
    let cert = f.replace(".cub", ".cert");
    let (_, out, _) = nfold(&["check", &f, "--every-n", "--certificate", &cert]);
    let written = std::fs::read_to_string(&cert).unwrap_or_else(|_| panic!("{out}"));
    assert!(written.contains("\nassume one_out\n"), "{written}");
    let (code, out, err) = nfold(&["certify", &f, &cert]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("assuming one_out"), "{out}");
    // Without the `assume` line the claims are about the model as written, where
    // mutex fails: rejected.
    let tampered = written.replace("assume one_out\n", "");
    std::fs::write(&cert, tampered).unwrap();
    let (code, out, _) = nfold(&["certify", &f, &cert]);
    assert_eq!(code, 1, "{out}");
    // An unknown invariant is a usage error.
    std::fs::write(
        &cert,
        written.replace("assume one_out", "assume nothing_here"),
    )
    .unwrap();
    let (code, _, err) = nfold(&["certify", &f, &cert]);
    assert_eq!(code, 2);
    assert!(err.contains("no `invariant` named `nothing_here`"), "{err}");
}

#[test]
fn a_nondeterministic_update_read_by_an_invariant_is_refused_by_name() {
    let text = "type s = Idle | Crit\narray S[proc] : s\nvar G : bool\n\
        init (i) { S[i] = Idle && G = False }\n\
        invariant (i) { G = True && S[i] = Crit }\n\
        unsafe (i j) { S[i] = Crit && S[j] = Crit }\n\
        transition go (i) requires { S[i] = Idle } { S[i] := Crit; G := .; }\n";
    let f = temp_file("nondet", text);
    let (_, v) = json_run(&["check", &f, "--sizes", "1..2"]);
    let r = v["assuming"]["refused"].as_str().unwrap();
    assert!(
        r.contains("`G` of transition `go` chooses a value nondeterministically"),
        "{r}"
    );
}

#[test]
fn each_property_gets_its_own_answer_for_every_n() {
    // `five` holds at sizes 1..4 and fails from size 5 (five processes in B), so one
    // invariant for both properties is not found; `never` (no process is ever in C:
    // no transition writes C) holds at every size. Tried one by one, `never` is
    // proved for every n and `five` is not (IC3 finds its violation at size 5).
    let f = temp_file(
        "each",
        "type st = A | B | C\narray S[proc] : st\ninit (z) { S[z] = A }\n\
         unsafe five (z1 z2 z3 z4 z5) { S[z1] = B && S[z2] = B && S[z3] = B && S[z4] = B && S[z5] = B }\n\
         unsafe never (z) { S[z] = C }\n\
         transition go (i) requires { S[i] = A } { S[i] := B; }\n",
    );
    let (code, v) = json_run(&["check", &f, "--every-n"]);
    assert_eq!(code, 4, "not every property proved for every n: exit 4");
    let e = &v["every_n"];
    assert_eq!(e["verdict"], "not_proved");
    assert_eq!(every_of(e, "never")["verdict"], "holds");
    let five = every_of(e, "five");
    assert_eq!(five["verdict"], "not_proved");
    assert!(
        five["reason"]
            .as_str()
            .unwrap()
            .contains("`five` violated at size 5"),
        "{five}"
    );
    assert!(v.get("assuming").is_none(), "no invariant, no assumed pass");
    let (_, out, _) = nfold(&["check", &f, "--every-n"]);
    assert!(out.contains("  never: holds for every n ("), "{out}");
    assert!(out.contains("  five: not proved: "), "{out}");
    assert!(out.contains("; `never` holds for every n;"), "{out}");
}

#[test]
fn assuming_no_process_is_home_reads_home_as_the_extra_id() {
    // `Home` is one of the processes as written, so the claim "no process is Home"
    // is broken at depth 0, and `bad` fails at size 1 by t(1) (Home = 1), depth 1.
    // Assuming the claim, `init` says Home differs from every process: read, as
    // Cubicle does, with Home the extra id 0, which no process equals: `bad` holds.
    let f = temp_file(
        "home",
        "var Home : proc\narray S[proc] : bool\ninit (p) { S[p] = False }\n\
         invariant (z) { z = Home }\n\
         unsafe bad (i) { S[i] = True && i = Home }\n\
         transition t (i) requires { S[i] = False } { S[i] := True; }\n",
    );
    let (code, v) = json_run(&["check", &f, "--sizes", "1..2"]);
    assert_eq!(code, 1);
    assert_eq!(
        rows(&v["results"], "bad"),
        vec![
            (1, "violated".into(), Some(1)),
            (2, "violated".into(), Some(1))
        ]
    );
    let a = &v["assuming"];
    assert_eq!(
        rows(&a["results"], "bad"),
        vec![(1, "holds".into(), None), (2, "holds".into(), None)]
    );
    assert!(
        a["notes"][0]
            .as_str()
            .unwrap()
            .contains("extra process id 0"),
        "{a}"
    );
}

/// A model with Cubicle's `int` reads back assuming its invariant (the int window is
/// the loader's setting, not a type the text declares). `Cnt` counts up to 3 from 0;
/// the invariant `Cnt = 2` is reached after two steps, so it is refuted as a claim,
/// and `unsafe three (Cnt = 3)` is violated at depth 3. Assumed, no step into
/// `Cnt = 2` is taken, so the reachable states are `Cnt` = 0, 1 at every size (2
/// states), and `three` holds there.
#[test]
fn an_int_model_is_answered_assuming_its_invariant() {
    let text = "var Cnt : int\ninit () { Cnt = 0 }\n\
        transition inc () requires { Cnt < 3 } { Cnt := Cnt + 1; }\n\
        invariant two () { Cnt = 2 }\n\
        unsafe three () { Cnt = 3 }\n";
    let f = temp_file("int", text);
    let (_, v) = json_run(&["check", &f, "--engine", "explicit", "--sizes", "1..2"]);
    let violated = |d| {
        vec![
            (1, "violated".to_string(), Some(d)),
            (2, "violated".into(), Some(d)),
        ]
    };
    assert_eq!(rows(&v["results"], "two"), violated(2), "{v:#}");
    assert_eq!(rows(&v["results"], "three"), violated(3), "{v:#}");
    let assumed = &v["assuming"];
    assert!(assumed["refused"].is_null(), "{v:#}");
    let three: Vec<(String, u64)> = assumed["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["property"] == "three")
        .map(|r| {
            (
                r["verdict"].as_str().unwrap().into(),
                r["states"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        three,
        vec![("holds".into(), 2), ("holds".into(), 2)],
        "{v:#}"
    );
}
