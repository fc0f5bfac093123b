//! `auto` for `ltl` properties (`portfolio::ltl_route`), through the command line: the
//! explicit search while a size is cheap, then the bounded lasso search and IC3 on the
//! aggregate of the sizes left, explicit again for what IC3 leaves. The verdicts are
//! pinned from the families' hand arguments and compared with the explicit engine's
//! answers at the same sizes; each row names the engine that answered it.

use crate::common;

use common::{json_run, nfold, rows};
use nfold::schema::Row;

/// The `ltl` row of each size, in size order.
fn by_size(rs: &[Row], prop: &str) -> Vec<Row> {
    let mut out: Vec<Row> = rs
        .iter()
        .filter(|r| r.property == prop && r.kind == "ltl")
        .cloned()
        .collect();
    out.sort_by_key(|r| r.size);
    out
}

/// The explicit engine's verdict per size (an independent answer: the nested search).
fn explicit_verdicts(file: &str, sizes: &str, fair: bool, prop: &str) -> Vec<(usize, String)> {
    let mut args = vec!["live", file, "--sizes", sizes, "--engine", "explicit"];
    if fair {
        args.push("--fair");
    }
    let (_, v) = json_run(&args);
    by_size(&rows(&v), prop)
        .into_iter()
        .map(|r| (r.size, r.verdict))
        .collect()
}

/// The buggy odd-even sort (families/oddeven_sort_live_bug.cub): `eventually_sorted` is
/// violated exactly at odd n (its header's argument, confirmed by
/// tests/oracle/oddeven_live.py). With 3000 states a size, the explicit phase answers
/// sizes 1..3 (size 4 stores 4,799 product states); the bounded lasso search on the
/// aggregate 4..5 finds the lasso at 5, and the BDD fixpoint (or, when its 10 s run out
/// on a loaded machine, IC3's k-liveness) proves size 4.
#[test]
fn auto_hands_the_sizes_left_to_the_sat_route() {
    let file = "families/oddeven_sort_live_bug.cub";
    let (code, v) = json_run(&[
        "live",
        file,
        "--sizes",
        "1..5",
        "--engine",
        "auto",
        "--max-states",
        "3000",
    ]);
    assert_eq!(code, 1, "violations exit with 1");
    let rs = by_size(&rows(&v), "eventually_sorted");
    assert_eq!(
        rs.iter().map(|r| r.size).collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5]
    );
    for r in &rs {
        let want = if r.size % 2 == 1 { "violated" } else { "holds" };
        assert_eq!(r.verdict, want, "size {}", r.size);
    }
    let engines: Vec<&str> = rs.iter().map(|r| r.engine.as_str()).collect();
    assert_eq!(engines[..3], ["explicit", "explicit", "explicit"]);
    assert!(engines[3] == "bdd" || engines[3] == "ic3", "{engines:?}");
    // The bounded search finds the lasso of size 5 at depth 3, unless its 2 s of wall
    // clock run out first on a loaded machine: the BDD fixpoint or IC3 then finds it.
    assert!(["sat", "bdd", "ic3"].contains(&engines[4]), "{engines:?}");
    // The proof of size 4 is by a checked invariant; the lasso of size 5 is a lasso.
    assert!(rs[3].proof.is_some(), "{:?}", rs[3]);
    assert_eq!(
        rs[4].trace.as_ref().and_then(|t| t.kind.as_deref()),
        Some("lasso")
    );
    let got: Vec<(usize, String)> = rs.iter().map(|r| (r.size, r.verdict.clone())).collect();
    assert_eq!(
        got,
        explicit_verdicts(file, "1..5", false, "eventually_sorted")
    );
    // The notes say which sizes went where.
    let notes = v["notes"].to_string();
    assert!(
        notes.contains("sizes 1..3 answered by exhaustive explicit search"),
        "{notes}"
    );
    assert!(notes.contains("lassos at 5"), "{notes}");
    assert!(notes.contains("proved at 4"), "{notes}");
}

/// The semaphore mutex under weak fairness (families/mutex.cub): `starvation_free` is
/// violated for n >= 2 (a waiting process is overtaken forever; its header, confirmed by
/// SPIN) and holds at n = 1 (a lone process meets a free semaphore whenever it wants
/// it). `--certificate` skips the explicit phase, so every size goes to the SAT route:
/// fair lassos at 2..4 by the bounded search, the proof at 1 by the BDD fixpoint (or
/// IC3), its certificate accepted again by `nfold certify`.
#[test]
fn auto_under_fairness_on_the_sat_route() {
    let file = "families/mutex.cub";
    let dir = common::scratch_dir("live-auto");
    let cert = dir.join("mutex_fair.cert");
    let cert = cert.to_str().unwrap();
    let (code, v) = json_run(&[
        "live",
        file,
        "--sizes",
        "1..4",
        "--fair",
        "--certificate",
        cert,
    ]);
    assert_eq!(code, 1);
    let rs = by_size(&rows(&v), "starvation_free");
    let got: Vec<(usize, &str, &str)> = rs
        .iter()
        .map(|r| (r.size, r.verdict.as_str(), r.engine.as_str()))
        .collect();
    // The lassos by the bounded search, or (when its 2 s of wall clock run out on a
    // loaded machine) by the BDD fixpoint or IC3's k-liveness: the SAT route either way.
    assert_eq!((got[0].0, got[0].1), (1, "holds"));
    assert!(got[0].2 == "bdd" || got[0].2 == "ic3", "{got:?}");
    for (i, g) in got[1..].iter().enumerate() {
        assert_eq!((g.0, g.1), (i + 2, "violated"));
        assert!(["sat", "bdd", "ic3"].contains(&g.2), "{got:?}");
    }
    assert_eq!(got.len(), 4);
    for r in &rs[1..] {
        assert_eq!(r.fair, Some(true), "a weakly fair lasso: {r:?}");
    }
    let verdicts: Vec<(usize, String)> = rs.iter().map(|r| (r.size, r.verdict.clone())).collect();
    assert_eq!(
        verdicts,
        explicit_verdicts(file, "1..4", true, "starvation_free")
    );
    let (code, out, err) = nfold(&["certify", file, cert]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("accepted"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A size no phase answers before `--timeout` is reported `unknown` (or with the depth
/// the bounded lasso search reached without a lasso), with the limit, never dropped;
/// no size is answered against the hand argument (violated exactly at odd n). Even sizes from 4 on need a proof or over 3000 states of explicit search;
/// the BDD phase proves them all at once, but on 1..16 not within 1.5 s (1..13 alone
/// takes it over 2 s).
#[test]
fn sizes_left_open_by_the_time_limit_are_unknown() {
    let file = "families/oddeven_sort_live_bug.cub";
    let (code, v) = json_run(&[
        "live",
        file,
        "--sizes",
        "1..16",
        "--engine",
        "auto",
        "--max-states",
        "3000",
        "--timeout",
        "1.5",
    ]);
    assert!(code == 1 || code == 3, "exit {code}");
    let limit = v["limit"].as_str().unwrap_or_default();
    assert!(limit.contains("time limit"), "{limit}");
    let rs = by_size(&rows(&v), "eventually_sorted");
    assert_eq!(
        rs.iter().map(|r| r.size).collect::<Vec<_>>(),
        (1..=16).collect::<Vec<_>>()
    );
    for r in &rs {
        let want = if r.size % 2 == 1 { "violated" } else { "holds" };
        let open = ["unknown", "no_violation_up_to"];
        assert!(
            r.verdict == want || open.contains(&r.verdict.as_str()),
            "size {}: {}",
            r.size,
            r.verdict
        );
    }
    assert!(open_verdict(&rs[15].verdict), "{}", rs[15].verdict);
    let notes = v["notes"].to_string();
    assert!(notes.contains("size 16 left open"), "{notes}");
}

fn open_verdict(v: &str) -> bool {
    v == "unknown" || v == "no_violation_up_to"
}

/// `--max-states` belongs to the explicit searches: explicit and auto take it, the SAT
/// engines refuse it.
#[test]
fn max_states_is_refused_by_the_sat_engines() {
    let (code, _, err) = nfold(&[
        "live",
        "families/mutex.cub",
        "--size",
        "2",
        "--engine",
        "ic3",
        "--max-states",
        "10",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--max-states belongs to the explicit searches"),
        "{err}"
    );
}

/// Each (property, size) gets one row, range errors included. The counter `X : 0 .. 1`
/// is bumped once by each process: at size 1 it stays in its type, at every size from
/// 2 the second bump stores 2 (a range error, by reasoning). The explicit phase stops
/// at that error (no answer for `flags`), so sizes 2..3 go to the SAT route, whose
/// bounded lasso search, BDD fixpoint and IC3 each met the error for each property:
/// the default printed three `range_error` rows per size (the summary said
/// `violated at sizes 2, 2, 2..3, 3, 3`).
#[test]
fn a_range_error_gets_one_row_per_size() {
    let dir = common::fresh_dir("live-auto-ranged");
    let f = common::write_file(
        &dir,
        "ranged.cub",
        "var X : 0 .. 1
array F[proc] : bool
init (i) { X = 0 && F[i] = False }
ltl settled (i) { G (F[i] => F F[i]) }
ltl flags (i) { G (F[i] = True => F X = 1) }
transition bump (i)
requires { F[i] = False }
{ X := X + 1; F[i] := True; }
",
    );
    let (code, v) = json_run(&["live", &f, "--sizes", "1..3"]);
    let rs = rows(&v);
    let mut seen = std::collections::BTreeSet::new();
    for r in &rs {
        assert!(
            seen.insert((r.size, r.property.clone())),
            "two rows for `{}` at size {}: {v:#}",
            r.property,
            r.size
        );
    }
    let ranged: Vec<(usize, &str)> = rs
        .iter()
        .filter(|r| r.kind == "range_error")
        .map(|r| (r.size, r.verdict.as_str()))
        .collect();
    assert_eq!(ranged, [(2, "violated"), (3, "violated")], "{v:#}");
    // `settled` holds: a flag once set is never cleared.
    let settled: Vec<String> = by_size(&rs, "settled")
        .into_iter()
        .map(|r| r.verdict)
        .collect();
    assert_eq!(settled, ["holds", "holds", "holds"], "{v:#}");
    assert_eq!(rs.len(), 8, "{v:#}");
    assert_eq!(code, 1, "a range error is a violation: {v:#}");
    let (_, text, _) = nfold(&["live", &f, "--sizes", "1..3"]);
    assert!(
        text.contains("range_error: violated at sizes 2..3\n"),
        "{text}"
    );
}

/// The semaphore mutex with a way in of five steps (Idle, W1..W4, Want), its transitions
/// in another order, and a guard that reads `Slot[0]` before its other conjunct: a range
/// error in the first state at every size, so that the explicit search answers nothing
/// and the route is the SAT one alone.
pub const CHAIN_RANGED: &str = "type loc = Idle | W1 | W2 | W3 | W4 | Want | Crit
var Sem : bool
array A[proc] : loc
array Lev[proc] : 0 .. 1
array Slot[1 .. N] : bool
init (z) { A[z] = Idle && Sem = False && Lev[z] = 0 }
transition exit (i)
requires { A[i] = Crit }
{ A[i] := Idle; Sem := False; }
transition enter (i)
requires { Sem = False && A[i] = Want }
{ A[i] := Crit; Sem := True; }
transition peek (i)
requires { Slot[Lev[i]] = True && A[i] = Idle }
{ Lev[i] := 1; }
transition w4 (i)
requires { A[i] = W4 }
{ A[i] := Want; }
transition w3 (i)
requires { A[i] = W3 }
{ A[i] := W4; }
transition w2 (i)
requires { A[i] = W2 }
{ A[i] := W3; }
transition w1 (i)
requires { A[i] = W1 }
{ A[i] := W2; }
transition req (i)
requires { A[i] = Idle }
{ A[i] := W1; }
ltl starvation_free (i) { G (A[i] = Want => F A[i] = Crit) }
";

/// Issue 44: the default answers what the single engines answer where a range error
/// stops the explicit search. `starvation_free` of `CHAIN_RANGED` holds at size 1 (a
/// lone process at Want can only enter: the semaphore is free) and is violated at size 2
/// by a lasso of 12 steps (5 to bring process 1 to Want, then process 2 around its way
/// in and out, 7 steps, forever); `--engine ic3` says the same, `--engine sat` finds the
/// lasso at 12 steps and nothing at size 1 up to 20, the explicit search stops at the
/// range error. With `--engine auto --depth 20` the first bounded search is the route's last one, so
/// where a range error was met it runs to its depth whatever its budget
/// (`route::Phase::ranged_budget`; `portfolio::the_last_lasso_search_goes_to_its_depth_past_a_range_error`
/// pins the deeper search's); IC3 then proves size 1.
#[test]
fn a_lasso_past_depth_10_behind_a_range_error() {
    let dir = common::fresh_dir("live-auto-chain-ranged");
    let f = common::write_file(&dir, "chain_ranged.cub", CHAIN_RANGED);
    let args = [
        "live", &f, "--sizes", "1..2", "--engine", "auto", "--depth", "20",
    ];
    let (code, v) = json_run(&args);
    let got: Vec<(usize, String, Option<usize>)> = by_size(&rows(&v), "starvation_free")
        .into_iter()
        .map(|r| (r.size, r.verdict, r.depth))
        .collect();
    assert_eq!(
        got,
        [(1, "holds".into(), None), (2, "violated".into(), Some(12))],
        "{v:#}"
    );
    let (_, s) = json_run(&["live", &f, "--sizes", "1..2", "--engine", "sat"]);
    let sat: Vec<(usize, String, Option<usize>)> = by_size(&rows(&s), "starvation_free")
        .into_iter()
        .map(|r| (r.size, r.verdict, r.depth))
        .collect();
    assert_eq!(sat[1], (2, "violated".into(), Some(12)), "{s:#}");
    assert_eq!(sat[0].1, "no_violation_up_to", "{s:#}");
    assert!(
        explicit_verdicts(&f, "1..2", false, "starvation_free")
            .iter()
            .all(|(_, v)| v == "unknown")
    );
    assert_eq!(code, 1, "{v:#}");
}

/// The families' Peterson lock with its transitions in another order and a ghost counter
/// of entries that nothing reads: the family's verdicts (its header: without fairness
/// `starvation_free` holds at 1 and 2, is violated from 3), by the explicit phase, the
/// explicit engine agreeing.
#[test]
fn peterson_reordered_with_a_ghost_counter() {
    let dir = common::fresh_dir("live-auto-peterson-ghost");
    let f = common::write_file(
        &dir,
        "peterson_ghost.cub",
        "type loc = Idle | SetV | Wait | Crit
var Entries : 0 .. 3
array Pc[proc] : loc
array Lev[proc] : 0 .. N - 1
array Victim[1 .. N - 1] : proc
init (z) { Pc[z] = Idle && Lev[z] = 0 && Entries = 0 }
transition exit (i)
requires { Pc[i] = Crit }
{ Pc[i] := Idle; Lev[i] := 0; }
transition enter (i)
requires { Pc[i] = Wait && Lev[i] = N - 1 && (Victim[Lev[i]] <> i || forall_other j. Lev[j] < Lev[i]) }
{ Pc[i] := Crit; Entries := if Entries = 3 then 0 else Entries + 1; }
transition set_victim (i)
requires { Pc[i] = SetV }
{ Victim[Lev[i]] := i; Pc[i] := Wait; }
transition climb (i)
requires { Pc[i] = Wait && Lev[i] < N - 1 && (Victim[Lev[i]] <> i || forall_other j. Lev[j] < Lev[i]) }
{ Lev[i] := Lev[i] + 1; Pc[i] := SetV; }
transition start_alone (i)
requires { Pc[i] = Idle && N = 1 }
{ Pc[i] := Crit; Entries := if Entries = 3 then 0 else Entries + 1; }
transition start (i)
requires { Pc[i] = Idle && N > 1 }
{ Pc[i] := SetV; Lev[i] := 1; }
ltl starvation_free (i) { G (Pc[i] = SetV => F Pc[i] = Crit) }
",
    );
    let (_, v) = json_run(&["live", &f, "--sizes", "1..3"]);
    let got: Vec<(usize, String)> = by_size(&rows(&v), "starvation_free")
        .into_iter()
        .map(|r| (r.size, r.verdict))
        .collect();
    let want: Vec<(usize, String)> = [(1, "holds"), (2, "holds"), (3, "violated")]
        .into_iter()
        .map(|(n, s)| (n, s.to_string()))
        .collect();
    assert_eq!(got, want, "{v:#}");
    assert_eq!(
        explicit_verdicts(&f, "1..3", false, "starvation_free"),
        want
    );
}

/// Issue 44, the default against `--engine sat` where every size meets a range error
/// (`CHAIN_RANGED`, whose explicit search answers nothing): the default answers every
/// pair `sat` answers, with its verdict and depth, and the pair only IC3 proves. From
/// the model: at size 1 a lone process at Want can only enter (the semaphore is free),
/// so `starvation_free` holds; from size 2 process 1 waits at Want forever while another
/// process goes round its way in and out (7 steps), after the 5 steps that bring process
/// 1 to Want: a lasso of 12 steps at size 2, 13 at size 3 (the shortest `sat`, `ic3` and
/// `kind` each report; `portfolio::the_last_lasso_search_goes_to_its_depth_past_a_range_error`).
/// On two cores the deeper lasso search runs beside IC3 there (`portfolio::ranged`, the
/// note says so); on one it runs after IC3, the same rows. Timings are not asserted: the
/// default took 42.6 s of CPU at 1..4 before, against `sat`'s 2.6 s.
#[test]
fn the_default_answers_what_sat_answers_behind_a_range_error() {
    let dir = common::fresh_dir("live-auto-chain-sat");
    let f = common::write_file(&dir, "chain_ranged.cub", CHAIN_RANGED);
    let verdicts = |v: &serde_json::Value| -> Vec<(usize, String, Option<usize>)> {
        by_size(&rows(v), "starvation_free")
            .into_iter()
            .map(|r| (r.size, r.verdict, r.depth))
            .collect()
    };
    let want: Vec<(usize, String, Option<usize>)> = vec![
        (1, "holds".into(), None),
        (2, "violated".into(), Some(12)),
        (3, "violated".into(), Some(13)),
    ];
    let (code, v) = json_run(&["live", &f, "--sizes", "1..3", "--threads", "2"]);
    assert_eq!(verdicts(&v), want, "{v:#}");
    assert_eq!(code, 1, "{v:#}");
    let notes = v["notes"].to_string();
    assert!(notes.contains("beside it from its start"), "{notes}");
    let (_, s) = json_run(&["live", &f, "--sizes", "1..3", "--engine", "sat"]);
    let sat: Vec<(usize, String, Option<usize>)> = verdicts(&s)
        .into_iter()
        .filter(|(_, verdict, _)| verdict == "violated" || verdict == "holds")
        .collect();
    assert_eq!(sat, want[1..], "{s:#}");
    let (_, one) = json_run(&["live", &f, "--sizes", "1..3", "--threads", "1"]);
    assert_eq!(verdicts(&one), want, "{one:#}");
}

/// A size's rows are printed as each is decided: the range error the explicit search
/// meets in the initial state comes out before IC3 has proved the size's `ltl`
/// property (`shown_at`, in the table's order), and the text's table has both rows.
#[test]
fn a_range_error_is_shown_before_the_rest_of_its_size_is_proved() {
    let dir = common::scratch_dir("live_auto_shown");
    // `peek(N)` reads `X[N + 1]`: a range error in the initial state; `done` holds under
    // weak fairness (each `t(i)` stays enabled until it fires), which the explicit
    // search, stopped at the range error, leaves to IC3.
    let file = common::write_file(
        &dir,
        "peek.cub",
        "type s = A | B\narray X[proc] : s\narray Y[proc] : s\n\
         init (z) { X[z] = A && Y[z] = A }\nltl done (i) { F (X[i] = B) }\n\
         transition t (i) requires { X[i] = A } { X[i] := B; }\n\
         transition peek (i) requires { Y[i] = A } { Y[i] := X[i + 1]; }\n",
    );
    let (code, v) = json_run(&["live", &file, "--fair", "--sizes", "3..3"]);
    assert_eq!(code, 1);
    let rs = rows(&v);
    let at = |p: &str| {
        let r = rs.iter().find(|r| r.property == p).unwrap();
        (r.verdict.clone(), r.engine.clone(), r.shown_at.unwrap())
    };
    let (range, range_engine, range_at) = at("range_error");
    let (done, done_engine, done_at) = at("done");
    assert_eq!(
        (range.as_str(), range_engine.as_str()),
        ("violated", "explicit")
    );
    assert_eq!(done, "holds");
    assert_ne!(done_engine, "explicit");
    assert!(range_at < done_at, "{range_at} !< {done_at}");
    let total = v["seconds"].as_f64().unwrap();
    assert!(done_at <= total, "{done_at} > {total}");
    let (_, text, _) = nfold(&["live", &file, "--fair", "--sizes", "3..3"]);
    let table: Vec<&str> = text.lines().filter(|l| l.starts_with("   3  ")).collect();
    assert_eq!(table.len(), 2, "{text}");
    assert!(
        table[0].contains("range_error") && table[1].contains("done"),
        "{text}"
    );
}
