//! Cubicle's `int`, checked over a window: the default window, leaving it (`int_bound`)
//! and the `within ints` verdicts it brings, free initial values, arithmetic and order
//! comparisons, the aggregate of several sizes, every engine against the explicit one,
//! liveness, certificates, the every-n refusal and the errors. Every expected verdict,
//! depth and state count below is derived by hand from the model next to it.

use crate::common;
use common::{assert_order_certificate, json_run, nfold, rows, scratch_dir, write_file};
use nfold::schema::Row;
use serde_json::Value;

/// A counter that stops at 2. Literals 0, 1 (in `X + 1`), 2, 3: the default window is
/// -2..5, and no step leaves it. Reachable: X = 0, 1, 2 (3 states at every size); `big`
/// (X = 3) holds.
const COUNTER: &str = "var X : int\ninit () { X = 0 }\nunsafe big () { X = 3 }\n\
                       transition inc () requires { X < 2 } { X := X + 1; }\n";

/// A counter without a stop. Literals 0, 1: window -2..3. X = 0, 1, 2, 3 are reached
/// (4 states), and from X = 3 `inc` would store 4: `int_bound` at depth 3. `neg` holds on
/// the runs within the window, which is all that can be said.
const LEAVE: &str = "var X : int\ninit () { X = 0 }\nunsafe neg () { X < 0 }\n\
                     transition inc () { X := X + 1; }\n";

/// `t + k`, `t + C`, `k * C`, `t - t`, `<=`, `>`, `>=`, `<`. C is a constant chosen in
/// 1..2 by `init`. Literals 0, 1, 2, 4, 3, 5: window -2..7.
/// C = 1: A = 0..4 step 1, B = 3 once A > 0: (0,0), (1..4, 0), (1..4, 3): 9 states.
/// C = 2: A = 0, 2, 4, B = 6 once A > 0: (0,0), (2,0), (4,0), (2,6), (4,6): 5 states.
/// 14 states, none leaves the window (A ≤ 4, B ≤ 6). `gap4` (B - A ≥ 4): C = 2, add then
/// mul, depth 2. `gap5`: the largest B - A is 6 - 2 = 4, holds. `neg` holds.
const ARITH: &str = "var A : int\nvar B : int\nconst C : int\n\
                     init () { A = 0 && B = 0 && C >= 1 && C <= 2 }\n\
                     unsafe gap4 () { B - A >= 4 }\n\
                     unsafe gap5 () { B - A >= 5 }\n\
                     unsafe neg () { A < 0 }\n\
                     transition add () requires { A + C <= 4 } { A := A + C; }\n\
                     transition mul () requires { A > 0 && B = 0 } { B := 3 * C; }\n";

/// X left free by `init`. Literals -1 (unary minus on 1), 0, 1: window -3..3, so 7
/// initial states, all the reachable ones (`dec` only moves down to 0). `low` (X = -1) is
/// violated in an initial state (depth 0); `never` holds.
const FREE: &str = "var X : int\ninit () { true }\nunsafe low () { X = -1 }\n\
                    unsafe never () { X > X + 1 }\n\
                    transition dec () requires { X > 0 } { X := X - 1; }\n";

/// Processes entering and leaving, counted in `Cnt` (an `int`). Literals 0, 1: window
/// -2..3. At size n, with symmetry reduction, a state is the number k of processes in
/// `Crit` (Cnt = k): k = 0..min(n, 3), so 2, 3, 4, 4, 4 states at sizes 1..5; at sizes
/// ≥ 4 the fourth `enter` would store 4: `int_bound` at depth 3. `wrong` holds (at sizes
/// ≥ 4 only within the window).
const COUNT: &str = "type loc = Idle | Crit\nvar Cnt : int\narray Pc[proc] : loc\n\
                     init (p) { Pc[p] = Idle && Cnt = 0 }\n\
                     unsafe wrong (p) { Pc[p] = Crit && Cnt = 0 }\n\
                     transition enter (i) requires { Pc[i] = Idle } { Pc[i] := Crit; Cnt := Cnt + 1; }\n\
                     transition leave (i) requires { Pc[i] = Crit } { Pc[i] := Idle; Cnt := Cnt - 1; }\n\
                     ltl pos { G (Cnt >= 0) }\n";

/// The row of size `n` and property `p`.
fn row<'a>(rs: &'a [Row], n: u64, p: &str) -> Option<&'a Row> {
    rs.iter().find(|r| r.size as u64 == n && r.property == p)
}

#[test]
fn window_not_left_gives_exact_verdicts() {
    let d = scratch_dir("ints-counter");
    let f = write_file(&d, "counter.cub", COUNTER);
    let (code, v) = json_run(&[
        "check",
        &f,
        "--sizes",
        "1..3",
        "--engine",
        "explicit",
        "--no-rank-ints",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["int_window"]["lo"], -2);
    assert_eq!(v["int_window"]["hi"], 5);
    assert_eq!(v["int_window"]["given"], false);
    let rs = rows(&v);
    for n in 1..=3 {
        let r = row(&rs, n, "big").unwrap();
        assert_eq!(
            (r.verdict.as_str(), r.stats.states),
            ("holds", Some(3)),
            "{r:?}"
        );
        assert!(row(&rs, n, "int_bound").is_none());
    }
    // An IC3 proof that int_bound is unreachable makes the verdict exact, and the
    // certificate claims it.
    let cert = d.join("c.txt");
    let (code, out, _) = nfold(&[
        "check",
        &f,
        "--sizes",
        "1..3",
        "--engine",
        "ic3",
        "--certificate",
        cert.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("holds (proved)"), "{out}");
    assert!(!out.contains("within"), "{out}");
    let c = std::fs::read_to_string(&cert).unwrap();
    assert!(c.contains("ints -2..5"), "{c}");
    assert!(c.contains("proves int_bound at 1..3"), "{c}");
    let (code, out, _) = nfold(&["certify", &f, cert.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    // The same certificate says nothing about another window.
    let (code, out, _) = nfold(&["certify", &f, cert.to_str().unwrap(), "--int-range", "0..9"]);
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("the certificate is about ints -2..5"), "{out}");
    // A window the counter still fits in: exact again; one it does not fit in: left.
    let (code, out, _) = nfold(&["check", &f, "--sizes", "1", "--int-range", "0..2"]);
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = nfold(&["check", &f, "--sizes", "1", "--int-range", "0..1"]);
    assert_eq!(code, 4, "{out}");
    assert!(out.contains("within ints 0..1"), "{out}");
    assert!(out.contains("storing 2 in `X`"), "{out}");
}

#[test]
fn window_left_is_int_bound_and_never_plain_holds() {
    let d = scratch_dir("ints-leave");
    let f = write_file(&d, "leave.cub", LEAVE);
    for engine in ["explicit", "sat", "ic3", "kind", "auto"] {
        let (code, v) = json_run(&[
            "check",
            &f,
            "--sizes",
            "1..2",
            "--engine",
            engine,
            "--int-max",
            "3",
            "--no-rank-ints",
        ]);
        assert_eq!(code, 4, "{engine}: {v}");
        let rs = rows(&v);
        for n in 1..=2 {
            let ib = row(&rs, n, "int_bound").unwrap();
            assert_eq!(
                (ib.verdict.as_str(), ib.depth),
                ("violated", Some(3)),
                "{engine} {ib:?}"
            );
            let neg = row(&rs, n, "neg").unwrap();
            assert_eq!(neg.verdict, "within_int_window", "{engine} {neg:?}");
            let want = if engine == "sat" {
                "no_violation_up_to"
            } else {
                "holds"
            };
            assert_eq!(neg.within.as_deref(), Some(want), "{engine} {neg:?}");
        }
        let r = v["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["property"] == "neg")
            .unwrap();
        assert_eq!(r["int_window"], serde_json::json!([-2, 3]));
    }
    let (code, out, _) = nfold(&[
        "check",
        &f,
        "--sizes",
        "1",
        "--engine",
        "explicit",
        "--int-max",
        "3",
        "--no-rank-ints",
    ]);
    assert_eq!(code, 4);
    assert!(out.contains("within ints -2..3"), "{out}");
    assert!(!out.contains(" holds "), "{out}");
    assert!(
        out.contains("leaving the int window: storing 4 in `X` (int, checked over -2..3)"),
        "{out}"
    );
    // 4 states: X = 0..3.
    let (_, v) = json_run(&[
        "check",
        &f,
        "--sizes",
        "1",
        "--engine",
        "explicit",
        "--int-max",
        "3",
        "--no-rank-ints",
    ]);
    assert_eq!(row(&rows(&v), 1, "neg").unwrap().stats.states, Some(4));
    // A wider window moves the step that leaves it: storing 6 at depth 5.
    let (code, v) = json_run(&["check", &f, "--sizes", "1", "--int-range", "-1..5"]);
    assert_eq!(code, 4);
    assert_eq!(row(&rows(&v), 1, "int_bound").unwrap().depth, Some(5));
    assert_eq!(v["int_window"]["given"], true);
    // The trace is saved and replays.
    let t = d.join("t.json");
    nfold(&[
        "check",
        &f,
        "--sizes",
        "1",
        "--no-rank-ints",
        "--trace-out",
        t.to_str().unwrap(),
    ]);
    let (code, out, _) = nfold(&["replay", &f, t.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("int_bound"), "{out}");
}

#[test]
fn arithmetic_and_comparisons() {
    let d = scratch_dir("ints-arith");
    let f = write_file(&d, "arith.cub", ARITH);
    let (code, v) = json_run(&["check", &f, "--sizes", "1..2", "--engine", "explicit"]);
    assert_eq!(code, 1);
    assert_eq!(v["int_window"]["lo"], -2);
    assert_eq!(v["int_window"]["hi"], 7);
    let rs = rows(&v);
    for n in 1..=2 {
        assert_eq!(row(&rs, n, "gap4").unwrap().depth, Some(2));
        assert_eq!(row(&rs, n, "gap4").unwrap().verdict, "violated");
        assert_eq!(row(&rs, n, "gap5").unwrap().verdict, "holds");
        assert_eq!(row(&rs, n, "neg").unwrap().verdict, "holds");
        assert_eq!(row(&rs, n, "neg").unwrap().stats.states, Some(14));
        assert!(row(&rs, n, "int_bound").is_none());
    }
    // The violating run: C = 2, add, mul.
    let (_, out, _) = nfold(&[
        "check",
        &f,
        "--sizes",
        "1",
        "--engine",
        "explicit",
        "--int-max",
        "3",
        "--no-rank-ints",
    ]);
    assert!(out.contains("C=2"), "{out}");
    assert!(out.contains("B=6"), "{out}");
}

#[test]
fn free_initial_values_range_over_the_window() {
    let d = scratch_dir("ints-free");
    let f = write_file(&d, "free.cub", FREE);
    let (code, v) = json_run(&[
        "check",
        &f,
        "--sizes",
        "1",
        "--engine",
        "explicit",
        "--int-max",
        "3",
        "--no-rank-ints",
    ]);
    assert_eq!(code, 1);
    assert_eq!(v["int_window"]["lo"], -3);
    assert_eq!(v["int_window"]["hi"], 3);
    assert_eq!(v["int_window"]["free"], serde_json::json!(["X"]));
    let rs = rows(&v);
    assert_eq!(row(&rs, 1, "low").unwrap().depth, Some(0));
    assert_eq!(row(&rs, 1, "never").unwrap().verdict, "holds");
    assert_eq!(row(&rs, 1, "never").unwrap().stats.states, Some(7));
    let (_, out, err) = nfold(&["check", &f, "--sizes", "1"]);
    assert!(
        out.contains("initial values free over the window: X"),
        "{out}"
    );
    assert!(err.contains("warning: int: checked over -3..3"), "{err}");
    // `info` counts the initial states.
    let (_, out, _) = nfold(&["info", &f, "--size", "1"]);
    assert!(out.contains("int = -3..3"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.contains("initial states") && l.trim_end().ends_with(" 7")),
        "{out}"
    );
}

#[test]
fn the_aggregate_leaves_the_window_only_at_large_sizes() {
    let d = scratch_dir("ints-count");
    let f = write_file(&d, "count.cub", COUNT);
    let states = [2, 3, 4, 4, 4];
    let (code, v) = json_run(&[
        "check",
        &f,
        "--sizes",
        "1..5",
        "--engine",
        "explicit",
        "--int-max",
        "3",
        "--no-rank-ints",
    ]);
    assert_eq!(code, 4);
    let rs = rows(&v);
    for n in 1..=5u64 {
        let w = row(&rs, n, "wrong").unwrap();
        assert_eq!(w.stats.states, Some(states[n as usize - 1]), "{w:?}");
        if n <= 3 {
            assert_eq!(w.verdict, "holds");
            assert!(row(&rs, n, "int_bound").is_none());
        } else {
            assert_eq!(
                (w.verdict.as_str(), w.within.as_deref()),
                ("within_int_window", Some("holds"))
            );
            assert_eq!(row(&rs, n, "int_bound").unwrap().depth, Some(3));
        }
    }
    // The SAT engines on the aggregate 1..5: the same split.
    for engine in ["sat", "ic3", "kind"] {
        let (code, v) = json_run(&[
            "check",
            &f,
            "--sizes",
            "1..5",
            "--engine",
            engine,
            "--int-max",
            "3",
        ]);
        assert_eq!(code, 4, "{engine}");
        let rs = rows(&v);
        for n in 1..=5u64 {
            let w = row(&rs, n, "wrong").unwrap();
            if n <= 3 {
                assert_ne!(w.verdict, "within_int_window", "{engine} {w:?}");
                assert!(row(&rs, n, "int_bound").is_none(), "{engine} {n}");
            } else {
                assert_eq!(w.verdict, "within_int_window", "{engine} {w:?}");
                assert_eq!(row(&rs, n, "int_bound").unwrap().depth, Some(3), "{engine}");
            }
        }
        if engine == "ic3" {
            assert_eq!(row(&rs, 2, "wrong").unwrap().verdict, "holds");
        }
    }
}

/// Explicit search and BMC agree on every model: the same violations at the same
/// depths, and `int_bound` at the same sizes.
#[test]
fn explicit_and_sat_agree() {
    let d = scratch_dir("ints-agree");
    for (name, text) in [
        ("counter", COUNTER),
        ("leave", LEAVE),
        ("arith", ARITH),
        ("free", FREE),
        ("count", COUNT),
    ] {
        let f = write_file(&d, &format!("{name}.cub"), text);
        let (_, e) = json_run(&[
            "check",
            &f,
            "--sizes",
            "1..4",
            "--engine",
            "explicit",
            "--int-max",
            "3",
            "--no-rank-ints",
        ]);
        let (_, s) = json_run(&[
            "check",
            &f,
            "--sizes",
            "1..4",
            "--engine",
            "sat",
            "--whole-aggregate",
            "--int-max",
            "3",
        ]);
        let key = |v: &Value| {
            let mut r: Vec<(usize, String, bool, bool, Option<usize>)> = rows(v)
                .into_iter()
                .map(|r| {
                    let (violated, within) =
                        (r.verdict == "violated", r.verdict == "within_int_window");
                    (r.size, r.property, violated, within, r.depth)
                })
                .collect();
            r.sort();
            r
        };
        assert_eq!(key(&e), key(&s), "{name}");
    }
}

#[test]
fn liveness_stops_where_the_window_is_left() {
    let d = scratch_dir("ints-live");
    let f = write_file(&d, "count.cub", COUNT);
    let (code, out, _) = nfold(&["live", &f, "--sizes", "1..4", "--int-max", "3"]);
    assert_eq!(code, 4, "{out}");
    assert!(out.contains("ints      checked over -2..3"), "{out}");
    assert!(
        out.contains(
            "pos: holds at sizes 1..3; no violation found (incomplete: not a proof) at size 4"
        ),
        "{out}"
    );
    let (code, v) = json_run(&["live", &f, "--sizes", "4", "--int-max", "3"]);
    assert_eq!(code, 4);
    assert_eq!(v["int_window"]["hi"], 3);
    let rows = v["results"].as_array().unwrap();
    let left = rows.iter().find(|r| r["kind"] == "int_bound").unwrap();
    assert_eq!(left["trace"]["kind"], "int_bound");
    let pos = rows.iter().find(|r| r["kind"] == "ltl").unwrap();
    assert_eq!(pos["verdict"], "incomplete");
    let (code, _, _) = nfold(&["live", &f, "--sizes", "1..3", "--fair"]);
    assert_eq!(code, 0);
}

#[test]
fn every_n_over_the_window() {
    // COUNTER stays in 0..2, inside its window: proved for every n, with `int_bound`
    // claimed. No process is involved anywhere (no parameters), so the cutoff is 1.
    let d = scratch_dir("ints-every");
    let f = write_file(&d, "counter.cub", COUNTER);
    let (code, v) = json_run(&["check", &f, "--every-n"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["every_n"]["verdict"], "holds", "{v}");
    assert_eq!(v["every_n"]["cutoff"], 1, "{v}");
    let cert = v["every_n"]["certificate"].as_str().unwrap();
    assert!(cert.contains("proves int_bound at 1"), "{cert}");
    // LEAVE leaves every window, so no claim may rest on one. X only counts up from
    // 0, so `neg` (X < 0) holds at every size: the claim may come from the order of
    // the ints alone (docs/every-n.md, the order abstraction), never with `int_bound`.
    let f = write_file(&d, "leave.cub", LEAVE);
    let cert = format!("{f}.cert");
    let (code, v) = json_run(&["check", &f, "--every-n", "--certificate", &cert]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["every_n"]["verdict"], "holds", "{v}");
    let out = assert_order_certificate(&f, &cert);
    assert!(out.contains("over the order of its ints"), "{out}");
}

#[test]
fn int_errors() {
    let d = scratch_dir("ints-errors");
    let f = write_file(&d, "counter.cub", COUNTER);
    for bad in ["5..1", "a..3", "0..100000000"] {
        let (code, _, err) = nfold(&["check", &f, "--int-range", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("--int-range"), "{err}");
    }
    let g = write_file(
        &d,
        "indexed.cub",
        "array A[int] : bool\ninit () { true }\nunsafe () { A[0] }\n",
    );
    let (code, _, err) = nfold(&["info", &g]);
    assert_eq!(code, 2);
    assert!(
        err.contains("indexed by `int`, which is not supported"),
        "{err}"
    );
    let h = write_file(
        &d,
        "quant.cub",
        "var X : int\ninit () { true }\nunsafe () { forall y : int. X = y }\n",
    );
    let (code, _, err) = nfold(&["info", &h]);
    assert_eq!(code, 2);
    assert!(
        err.contains("quantifiers over `int` are not supported"),
        "{err}"
    );
}

/// By default a window derived from the literals widens where a run leaves it. COUNT
/// at sizes 1..5: at sizes 4 and 5 the fourth `enter` leaves -2..3 (above); in -2..6
/// every count k = 0..n fits, so every size is exact: `wrong` holds with n + 1 states
/// (k processes in `Crit`, symmetry reduced), and no `int_bound` row is left. Only
/// the upper side was crossed, so the lower bound stays -2.
#[test]
fn the_window_widens_where_a_run_leaves_it() {
    let d = scratch_dir("ints-widen");
    let f = write_file(&d, "count.cub", COUNT);
    let (code, v) = json_run(&["check", &f, "--sizes", "1..5", "--engine", "explicit"]);
    assert_eq!(code, 0, "{v:#}");
    let rs = rows(&v);
    for n in 1..=5u64 {
        let w = row(&rs, n, "wrong").unwrap();
        assert_eq!(
            (w.verdict.as_str(), w.stats.states),
            ("holds", Some(n as usize + 1)),
            "{w:?}"
        );
        assert!(row(&rs, n, "int_bound").is_none(), "{n}");
    }
    assert_eq!(v["int_window"]["lo"], -2, "{v:#}");
    assert_eq!(v["int_window"]["hi"], 6, "{v:#}");
    assert_eq!(v["int_window"]["given"], false);
    assert_eq!(v["int_window"]["widened_from"], serde_json::json!([-2, 3]));
    let (_, out, _) = nfold(&["check", &f, "--sizes", "1..5", "--engine", "explicit"]);
    assert!(
        out.contains("int window widened to -2..6 at sizes 4..5 (a run left -2..3):"),
        "{out}"
    );
    // Liveness too: `pos` (Cnt never negative) holds at size 4 in the wider window.
    let (code, v) = json_run(&["live", &f, "--sizes", "4"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["results"][0]["verdict"], "holds", "{v:#}");
    // A window given by --int-range is never widened.
    let (code, v) = json_run(&["check", &f, "--sizes", "4", "--int-range", "-2..3"]);
    assert_eq!(code, 4, "{v:#}");
    assert_eq!(v["int_window"]["hi"], 3);
}

/// A counter without a stop (LEAVE) leaves every window: widened on the upper side up
/// to the cap, X = 0..64 are reached (65 states) and the 65th `inc` stores 65
/// (`int_bound` at depth 64); the answer stays `within ints -2..64`, and a note names
/// the cell that grows. With --int-max 10 the window stops at -2..10 (the doublings
/// 3, 6, 10).
#[test]
fn a_value_that_grows_without_bound_is_named() {
    let d = scratch_dir("ints-unbounded");
    let f = write_file(&d, "leave.cub", LEAVE);
    let (code, v) = json_run(&[
        "check",
        &f,
        "--sizes",
        "1",
        "--engine",
        "explicit",
        "--no-rank-ints",
    ]);
    assert_eq!(code, 4, "{v:#}");
    let rs = rows(&v);
    let ib = row(&rs, 1, "int_bound").unwrap();
    assert_eq!((ib.verdict.as_str(), ib.depth), ("violated", Some(64)));
    let neg = row(&rs, 1, "neg").unwrap();
    assert_eq!(
        (neg.verdict.as_str(), neg.stats.states),
        ("within_int_window", Some(65))
    );
    let (_, out, _) = nfold(&[
        "check",
        &f,
        "--sizes",
        "1",
        "--engine",
        "explicit",
        "--no-rank-ints",
    ]);
    assert!(
        out.contains(
            "size 1: `X` reaches 65, past the widest int window -2..64 (--int-max 64): unbounded?"
        ),
        "{out}"
    );
    let (_, v) = json_run(&[
        "check",
        &f,
        "--sizes",
        "1",
        "--engine",
        "explicit",
        "--int-max",
        "10",
        "--no-rank-ints",
    ]);
    assert_eq!(v["int_window"]["hi"], 10, "{v:#}");
    assert_eq!(row(&rows(&v), 1, "int_bound").unwrap().depth, Some(10));
}

/// IC3 with --certificate on COUNT at 1..5: sizes 1..3 are proved in -2..3 and sizes
/// 4..5 in the widened -2..6, one certificate each (each names its window); `certify`
/// reads the model in the window each certificate names and accepts both, and rejects
/// the wider one when --int-range fixes another window.
#[test]
fn certificates_of_a_widened_window_are_checked_in_it() {
    let d = scratch_dir("ints-widen-cert");
    let f = write_file(&d, "count.cub", COUNT);
    let cert = d.join("count.cert");
    let cert = cert.to_str().unwrap();
    let (code, out, err) = nfold(&[
        "check",
        &f,
        "--sizes",
        "1..5",
        "--engine",
        "ic3",
        "--certificate",
        cert,
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let text = std::fs::read_to_string(cert).unwrap();
    assert!(
        text.contains("ints -2..3") && text.contains("ints -2..6"),
        "{text}"
    );
    let (code, out, err) = nfold(&["certify", &f, cert]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("2 of 2 certificates accepted"), "{out}");
    let (code, out, _) = nfold(&["certify", &f, cert, "--int-range", "-2..3"]);
    assert_ne!(code, 0, "{out}");
}
