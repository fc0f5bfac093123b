//! Literal-valued ints (`model::ints::literal`, docs/language.md 4.7, docs/every-n.md):
//! a hand-made mutex whose `int` flags only take literals is proved for every n with
//! the cutoff derived by hand, its certificate is accepted by `nfold certify`, a mutant
//! is refuted and never proved, and a model with arithmetic keeps the window, named (proved for every n over the
//! classes of its ints, `model::ints::abstracted`).

use crate::common;

use common::{fresh_dir, nfold, write_file};

/// A mutex: `try` raises F[i] to 1, `enter` needs every other F below 2 and sets its
/// own to 2, `leave` puts it back to 0. A process is critical only with F = 2 (enter
/// is the only way in and sets it; leave resets both), and enter needs every other
/// F < 2, so two critical processes are impossible: `unsafe1` holds at every size.
/// `Noise` is free initially (any integer) and only compared with 0: its values are
/// the intervals (-inf,0) and (3,+inf) besides the literals 0..3 (stored 3).
const MUTEX: &str = "type loc = Idle | Want | Crit
array A[proc] : loc
array F[proc] : int
var Noise : int
init (x) { A[x] = Idle && F[x] = 0 }
unsafe (z1 z2) { A[z1] = Crit && A[z2] = Crit }
transition try (i) requires { A[i] = Idle } { A[i] := Want; F[i] := 1; }
transition enter (i) requires { A[i] = Want && forall_other j. F[j] < 2 } { A[i] := Crit; F[i] := 2; }
transition leave (i) requires { A[i] = Crit } { A[i] := Idle; F[i] := 0; }
transition stir (i) requires { Noise < 0 } { Noise := 3; }
";

#[test]
fn a_literal_valued_int_mutex_holds_for_every_n_and_certifies() {
    let d = fresh_dir("litints-mutex");
    let m = write_file(&d, "m.cub", MUTEX);
    let cert = d.join("m.cert");
    let cert = cert.to_str().unwrap();
    let (code, out, err) = nfold(&["check", &m, "--every-n", "--certificate", cert]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("holds for every n"), "{out}");
    assert!(
        err.contains("read exactly as the finite values (-inf,0), 0, 1, 2, 3, (3,+inf)"),
        "{err}"
    );
    // The cutoff by hand: no process-valued cell (g = 0), every transition involves one
    // process (`forall_other` needs no witness: step = 1), `unsafe1` two (bad = 2); the
    // clauses mention at most k processes, so c = 0 + max(k + 1, 2).
    let text = std::fs::read_to_string(cert).unwrap();
    let k = text
        .lines()
        .filter_map(|l| l.strip_prefix("lemma forall distinct "))
        .map(|l| l.split('.').next().unwrap().split_whitespace().count())
        .max()
        .unwrap();
    let c = (k + 1).max(2);
    assert!(text.contains(&format!("every n cutoff {c}\n")), "{text}");
    // Values are written as integers, never as the enumeration's names of intervals.
    assert!(!text.contains("inf"), "{text}");
    let (code, out, err) = nfold(&["certify", &m, cert]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("hold at every size"), "{out}");
}

#[test]
fn a_mutant_is_refuted_with_int_values_in_its_trace_and_never_proved() {
    let d = fresh_dir("litints-mutant");
    // `<=` lets a second process enter while the first is critical (F = 2): two
    // processes try, both enter; violated at size 2 in 4 steps.
    let m = write_file(&d, "mut.cub", &MUTEX.replace("F[j] < 2", "F[j] <= 2"));
    let (code, out, err) = nfold(&["check", &m, "--every-n"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(!out.contains("holds for every n"), "{out}");
    assert!(out.contains("does not hold for every n"), "{out}");
    assert!(out.contains("F[1]=2"), "the trace prints the ints: {out}");
}

#[test]
fn arithmetic_keeps_the_window_and_is_named_outside_the_fragment() {
    let d = fresh_dir("litints-arith");
    let m = write_file(
        &d,
        "arith.cub",
        &MUTEX.replace("F[i] := 1;", "F[i] := F[i] + 1;"),
    );
    let (code, out, err) = nfold(&["check", &m, "--every-n", "--no-reduce"]);
    assert!(
        err.contains("not read as a finite enumeration: arithmetic on the int `F`"),
        "{err}"
    );
    // For every n it is argued over the classes of the ints (`model::ints::abstracted`): F
    // only steps from 0 (try needs Idle, where F is 0), so the mutex is proved.
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("over an abstraction"), "{out}");
    // Reduced to what is asked, `Noise` (read by nothing asked) goes, and F, read over
    // its window, is proved for every n without the abstraction.
    let (code, out, err) = nfold(&["check", &m, "--every-n"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("reduced   Noise: read by nothing asked"),
        "{out}"
    );
    assert!(out.contains("holds for every n"), "{out}");
    // `--int-range` asks for the window: the exact reading is off.
    let m = write_file(&d, "m.cub", MUTEX);
    let (code, out, _) = nfold(&[
        "check",
        &m,
        "--every-n",
        "--int-range",
        "-2..5",
        "--no-reduce",
    ]);
    assert_eq!(code, 4, "{out}");
    assert!(out.contains("holds Cubicle ints"), "{out}");
    // Reduced to what is asked, the free `Noise` goes: F alone, fixed by `init`, is
    // read over the window and proved for every n.
    let (code, out, _) = nfold(&["check", &m, "--every-n", "--int-range", "-2..5"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("holds for every n"), "{out}");
}
