//! Ints that step, compared only with literals and started free, proved for every n
//! over their classes (`model::ints::abstracted`): an over-approximation, so it may prove and
//! never refutes. Hand-made models; verdicts derived in the comments.

use crate::common;

use common::{json_run, nfold, scratch_dir, write_file};

const HEAD: &str = "type loc = A | B\nvar C : int\narray P[proc] : loc\n";

/// A lock taken while a count C, started anywhere above 0, stays positive; the count
/// steps up and down (after Cubicle's `jml.cub`). Mutual exclusion holds by the lock
/// alone; C is compared with 0 only: classes (-inf,0), 0, (0,+inf).
const LOCK: &str = "var L : bool\ninit (x) { P[x] = A && L = False && 0 < C }\n\
    unsafe (x y) { P[x] = B && P[y] = B }\n\
    transition take (x) requires { P[x] = A && L = False && 0 < C } { L := True; P[x] := B; }\n\
    transition more (x) requires { P[x] = A && 0 < C } { C := C + 1; }\n\
    transition less (x) requires { P[x] = B && 0 < C } { C := C - 1; }\n\
    transition give (x) requires { P[x] = B } { L := False; P[x] := A; }\n";

fn file(tag: &str, body: &str) -> String {
    let d = scratch_dir("absint");
    write_file(&d, &format!("{tag}.cub"), &format!("{HEAD}{body}"))
}

#[test]
fn a_free_count_is_proved_over_its_classes_and_certified() {
    let f = file("lock", LOCK);
    let cert = format!("{f}.cert");
    let (code, v) = json_run(&["check", &f, "--certificate", &cert]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["every_n"]["verdict"], "holds", "{v}");
    let how = v["every_n"]["how"].as_str().unwrap_or_default().to_string();
    assert!(how.contains("over an abstraction"), "{how}");
    assert!(how.contains("(-inf,0), 0, (0,+inf)"), "{how}");
    // The sizes follow from it: every row holds, none is `within ints`.
    for p in v["results"].as_array().unwrap() {
        assert_eq!(p["verdict"], "holds", "{p}");
    }
    let text = std::fs::read_to_string(&cert).unwrap();
    assert!(text.contains("abstraction ints"), "{text}");
    let (code, out, err) = nfold(&["certify", &f, &cert]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("over the classes of its ints"), "{out}");
    // Without the line the lemmas name classes the model has not: not accepted.
    let plain: String = text
        .lines()
        .filter(|l| *l != "abstraction ints")
        .map(|l| format!("{l}\n"))
        .collect();
    let bad = format!("{f}.plain");
    std::fs::write(&bad, plain).unwrap();
    let (code, out, err) = nfold(&["certify", &f, &bad]);
    assert_ne!(code, 0, "{out}{err}");
}

#[test]
fn a_real_violation_is_found_and_never_proved() {
    // C starts at any value above 5 and steps down by 2 while positive: from 7 it
    // reaches 1 (7, 5, 3, 1): violated at every size, depth 3.
    let f = file(
        "odd",
        "init (x) { P[x] = A && 5 < C }\nunsafe () { C = 1 }\n\
         transition dec (x) requires { P[x] = A && 0 < C } { C := C - 2; }\n",
    );
    let (code, v) = json_run(&["check", &f, "--sizes", "1..3", "--every-n"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["every_n"]["verdict"], "violated", "{v}");
    assert_eq!(v["results"].as_array().unwrap().len(), 3, "{v}");
    for p in v["results"].as_array().unwrap() {
        assert_eq!(p["verdict"], "violated", "{p}");
        assert_eq!(p["depth"], 3, "{p}");
    }
}

#[test]
fn a_spurious_run_over_the_classes_leaves_the_claim_unproved() {
    // C starts at 6 (the only integer in 5 < C < 7) and steps down by 2 while
    // positive: 6, 4, 2, 0, never 1, so the property holds. Over the classes, 4 is in
    // (1,5), and (1,5) - 2 meets 1: the abstraction cannot prove it, and must not say
    // it is violated.
    let f = file(
        "even",
        "init (x) { P[x] = A && 5 < C && C < 7 }\nunsafe () { C = 1 }\n\
         transition dec (x) requires { P[x] = A && 0 < C } { C := C - 2; }\n",
    );
    let (code, v) = json_run(&["check", &f, "--sizes", "1..3", "--every-n"]);
    assert_eq!(v["every_n"]["verdict"], "not_proved", "{v}");
    let why = v["every_n"]["reason"].as_str().unwrap_or_default();
    assert!(why.contains("may be no run of the model"), "{why}");
    assert_ne!(code, 1, "{v}");
}

#[test]
fn steps_on_every_process_cell_are_not_abstracted() {
    // `K[j] := K[j] + 1` for every j: one copy per cell's choice is not made; the
    // model stays outside the argument, and the reason names the ints.
    let f = file(
        "all",
        "array K[proc] : int\ninit (x) { P[x] = A && 0 < C && 0 < K[x] }\nunsafe (x) { P[x] = B && K[x] = 0 }\n\
         transition t (x) requires { P[x] = A && 0 < C } { K[j] := case | _ : K[j] + 1; }\n",
    );
    let (_, v) = json_run(&["check", &f, "--sizes", "1..2", "--every-n"]);
    assert_eq!(v["every_n"]["verdict"], "not_proved", "{v}");
    let why = v["every_n"]["reason"].as_str().unwrap_or_default();
    assert!(why.contains("outside the fragment"), "{why}");
}
