//! Cubicle ints with arithmetic for every n, checked over their window: the claim
//! needs `int_bound` proved at every size up to the cutoff (no run leaves the window),
//! and the window must not cut initial values short. Hand-made models; verdicts and
//! cutoffs derived in the comments.

use crate::common;

use common::{assert_order_certificate, json_run, nfold, scratch_dir, write_file};

const HEAD: &str = "type s = Idle | Crit\narray P[proc] : s\n";

/// A semaphore: `enter` takes it when positive, `leave` gives it back. S is 1 minus
/// the number of processes in Crit, so never two in Crit and S stays in 0..1, inside
/// the window -2..3 (literals 0 and 1, widened by 2).
const SEM: &str = "var S : int\ninit (x) { S = 1 && P[x] = Idle }\n\
    unsafe (x y) { P[x] = Crit && P[y] = Crit }\n\
    transition enter (x) requires { P[x] = Idle && 0 < S } { S := S - 1; P[x] := Crit; }\n\
    transition leave (x) requires { P[x] = Crit } { S := S + 1; P[x] := Idle; }\n";

/// A counter of the processes in Crit, with no bound: at size n it reaches n, so
/// every window is left at some size, and no claim for every n may be made.
const COUNT: &str = "var C : int\ninit (x) { C = 0 && P[x] = Idle }\n\
    unsafe (x) { P[x] = Crit && C = 0 }\n\
    transition enter (x) requires { P[x] = Idle } { C := C + 1; P[x] := Crit; }\n\
    transition leave (x) requires { P[x] = Crit && 0 < C } { C := C - 1; P[x] := Idle; }\n";

/// A lock `L` and a per-process count of entries, at most 2 each (`K[x] < 2`): K in
/// 0..2 inside the window -2..4. Without the bound (`open`) K grows without end.
fn per_process(open: bool) -> String {
    format!(
        "array K[proc] : int\nvar L : bool\ninit (x) {{ K[x] = 0 && P[x] = Idle && L = False }}\n\
         unsafe (x y) {{ P[x] = Crit && P[y] = Crit }}\n\
         transition enter (x) requires {{ P[x] = Idle && L = False{} }} {{ K[x] := K[x] + 1; P[x] := Crit; L := True; }}\n\
         transition leave (x) requires {{ P[x] = Crit }} {{ P[x] := Idle; L := False; }}\n\
         unsafe big (x) {{ K[x] = 2 && K[x] < 0 }}\n",
        if open { "" } else { " && K[x] < 2" }
    )
}

fn file(tag: &str, body: &str) -> String {
    let d = scratch_dir("window-ints");
    write_file(&d, &format!("{tag}.cub"), &format!("{HEAD}{body}"))
}

#[test]
fn bounded_ints_are_proved_for_every_n_with_int_bound_claimed() {
    // The property involves two processes and any invariant for it needs a clause on
    // two (S = 0 with two in Crit satisfies every one-process clause); a step
    // involves one: cutoff 2 + 1 = 3 (the int is a global: int_bound adds no process).
    let f = file("sem", SEM);
    let cert = format!("{f}.cert");
    let (code, v) = json_run(&["check", &f, "--every-n", "--certificate", &cert]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["every_n"]["verdict"], "holds", "{v}");
    assert_eq!(v["every_n"]["cutoff"], 3, "{v}");
    let text = std::fs::read_to_string(&cert).unwrap();
    assert!(text.contains("proves int_bound at 1..3"), "{text}");
    let (code, out, err) = nfold(&["certify", &f, &cert]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("the properties hold at every size"), "{out}");
    // Without the int_bound claim the window could be left at a larger size: refused.
    let tampered: String = text
        .lines()
        .filter(|l| !l.starts_with("proves int_bound"))
        .map(|l| format!("{l}\n"))
        .collect();
    let bad = format!("{f}.tampered");
    std::fs::write(&bad, tampered).unwrap();
    let (code, out, err) = nfold(&["certify", &f, &bad]);
    assert_ne!(code, 0, "{out}{err}");
    assert!(
        format!("{out}{err}").contains("does not claim `int_bound`"),
        "{out}{err}"
    );
}

#[test]
fn per_process_ints_add_the_written_process_to_the_cutoff() {
    // Two-process property, two-process clause (never two in Crit) + a one-process
    // step = 3; int_bound on K[j] involves the step's process and j: 1 + 1 = 2.
    let (code, v) = json_run(&["check", &file("perproc", &per_process(false)), "--every-n"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["every_n"]["verdict"], "holds", "{v}");
    assert_eq!(v["every_n"]["cutoff"], 3, "{v}");
}

#[test]
fn ints_that_grow_with_n_or_without_end_are_never_claimed() {
    let f = file("count", COUNT);
    let (code, v) = json_run(&["check", &f, "--every-n", "--sizes", "1..3"]);
    assert_ne!(v["every_n"]["verdict"], "holds", "{v}");
    assert_ne!(code, 0, "{v}");
    // `open`'s K leaves every window, so no claim may rest on one; but both properties
    // hold at every size (the lock L keeps one process in Crit; `big` cannot hold),
    // and K is only compared with literals and stepped: the order of the ints proves
    // them (docs/every-n.md, the order abstraction), without `int_bound`.
    let f = file("open", &per_process(true));
    let cert = format!("{f}.cert");
    let (code, v) = json_run(&[
        "check",
        &f,
        "--every-n",
        "--sizes",
        "1..3",
        "--certificate",
        &cert,
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["every_n"]["verdict"], "holds", "{v}");
    assert_order_certificate(&f, &cert);
}

#[test]
fn initial_values_the_window_would_cut_are_refused_by_name() {
    // `init` leaves T free: over the window it would start in -2..3 only (T only
    // counts down to 0 here, and the property holds at every size). Not in this
    // fragment, named; the claim is made over the classes of the ints instead
    // (`model::ints::abstracted`: S and T compared with 0 and 1 only).
    let f = file(
        "free",
        &format!(
            "var T : int\n{SEM}transition tick (x) requires {{ 0 < T && P[x] = Idle }} {{ T := T - 1; }}\n"
        ),
    );
    let m = nfold::lang::load_file(&f).unwrap();
    let why = nfold::proof::cutoff::fragment(&m).unwrap_err().text(&m);
    assert!(
        why.contains("`init` does not fix the int `T` to a literal"),
        "{why}"
    );
    let (_, out, _) = nfold(&["check", &f, "--every-n", "--no-reduce"]);
    assert!(out.contains("holds for every n"), "{out}");
    assert!(out.contains("over an abstraction"), "{out}");
    // T is read by nothing asked but its own guard: reduced to what is asked, the model
    // has no int left, and the claim is made without the abstraction.
    let (_, out, _) = nfold(&["check", &f, "--every-n"]);
    assert!(out.contains("reduced   T: read by nothing asked"), "{out}");
    assert!(out.contains("holds for every n"), "{out}");
    // `T := .` would choose within the window only (T, read by no guard, leaves the
    // property holding at every size).
    let f = file(
        "nondet",
        &format!(
            "var T : int\n{}transition reset (x) requires {{ P[x] = Idle }} {{ T := .; }}\n",
            SEM.replace("S = 1 &&", "S = 1 && T = 0 &&")
        ),
    );
    let m = nfold::lang::load_file(&f).unwrap();
    let why = nfold::proof::cutoff::fragment(&m).unwrap_err().text(&m);
    assert!(why.contains("`T := .` in `reset`"), "{why}");
    // Over the classes, `T := .` is any class: proved there.
    let (_, out, _) = nfold(&["check", &f, "--every-n", "--no-reduce"]);
    assert!(out.contains("over an abstraction"), "{out}");
    // T is read by no property, and `T := .` cannot fail: reduced to what is asked, T
    // goes, and the claim needs no abstraction.
    let (_, out, _) = nfold(&["check", &f, "--every-n"]);
    assert!(out.contains("reduced   T: read by nothing asked"), "{out}");
    assert!(out.contains("holds for every n"), "{out}");
    assert!(!out.contains("over an abstraction"), "{out}");
}
