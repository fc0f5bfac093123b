//! Ints replaced by their rank (`model::ints::ranked`): the ranked explicit search of a
//! ticket family against counts derived by hand, a violated ranked model whose trace is
//! replayed with its concrete (unranked) values, a model that does not qualify (the
//! note names the construct and the window stays), and an increment that is not from
//! the maximum (the search stops with an error).

use crate::common;
use common::{json_run, nfold, rows, scratch_dir, write_file};
use nfold::explicit::reach::{ReachOptions, ReachResult, check_size};
use nfold::lang::{LoadOptions, load_str_with};
use nfold::verdict::{Kind, PropId};

/// A ticket lock: `take` hands out the global `M` and increments it, `enter` lets in
/// the holder of the smallest ticket among the waiting. Literals 0 and 1, so the cap
/// is 1: values 0 and 1 stay, larger ones are renumbered 2, 3, ... by order.
///
/// Size 1, states (P, T, M) after ranking: (I,0,1) -take-> (W,1,2) -enter-> (C,1,2)
/// -leave-> (I,0,2) -take-> (W,2,3) -enter-> (C,2,3) -leave-> (I,0,3), which ranks to
/// (I,0,2), already seen: 6 states.
///
/// Size 2, without symmetry reduction. M is always the largest value; a waiting or
/// critical process holds a ticket, distinct from the other's, and only the holder of
/// the smaller one can be in C. Ticket 1 is the very first one taken (M = 1 only
/// initially), and while its holder is not idle the other cannot have completed a
/// round. So: M = 1, both idle: 1 state. Both idle, M > 1 (ranks to 2): 1. One idle,
/// the other x (2 choices) in W or C (2) with ticket 1 (M = 2) or with a ticket above
/// 1 (ranks 2, M = 3) (2): 8. Both busy, the smaller ticket x (2 choices) in W or C (2),
/// the other in W, tickets (1, 2) with M = 3, or (2, 3) with M = 4 (2): 8. Total 18.
/// With symmetry reduction the choices of x count once: 1 + 1 + 4 + 4 = 10.
pub(crate) const TICKET: &str = "type loc = I | W | C\narray P[proc] : loc\narray T[proc] : int\nvar M : int\n\
    init (x) { P[x] = I && T[x] = 0 && M = 1 }\n\
    unsafe mutex (x y) { P[x] = C && P[y] = C }\n\
    transition take (x) requires { P[x] = I } { P[x] := W; T[x] := M; M := M + 1; }\n\
    transition enter (x) requires { P[x] = W && forall_other j. (T[j] = 0 || T[x] < T[j]) } { P[x] := C; }\n\
    transition leave (x) requires { P[x] = C } { P[x] := I; T[x] := 0; }\n";

/// The ticket lock with the ticket read and the increment in two steps (`read`, then
/// `take`), entries allowed on equal tickets (`<=`), and `bump` raising `M` at any
/// time. `late` asks for both in C with a ticket above 1. Two processes can read the
/// same M: bump (M = 2), read 1 and 2 (T = 2, 2), take 1 and 2 (M = 3, 4), enter 1 and
/// 2: violated at depth 7, ending with M = 4 and T = 2, 2. Nothing shorter: a ticket
/// above 1 needs `bump` or a whole round (4 steps) first, then two reads, two takes and
/// two entries. Size 1: one process cannot violate a property of two (holds).
const BOGUS: &str = "type loc = I | R | W | C\narray P[proc] : loc\narray T[proc] : int\nvar M : int\n\
    init (x) { P[x] = I && T[x] = 0 && M = 1 }\n\
    unsafe late (x y) { P[x] = C && P[y] = C && T[x] > 1 }\n\
    transition bump () { M := M + 1; }\n\
    transition read (x) requires { P[x] = I } { P[x] := R; T[x] := M; }\n\
    transition take (x) requires { P[x] = R } { P[x] := W; M := M + 1; }\n\
    transition enter (x) requires { P[x] = W && forall_other j. (T[j] = 0 || T[x] <= T[j]) } { P[x] := C; }\n\
    transition leave (x) requires { P[x] = C } { P[x] := I; T[x] := 0; }\n";

/// The ranked search of `src` at size n, without dead cells (so the counts are the
/// reachable ranked states), with or without symmetry reduction.
fn ranked(src: &str, n: usize, symmetry: bool) -> ReachResult {
    let m = common::model(src);
    let r = check_size(
        &m,
        n,
        &ReachOptions {
            symmetry,
            rank_ints: true,
            ..Default::default()
        },
    );
    assert!(r.internal_errors.is_empty(), "{:?}", r.internal_errors);
    assert!(r.rank_error.is_none(), "{:?}", r.rank_error);
    r
}

#[test]
fn the_ticket_lock_is_finite_when_ranked_with_the_counts_derived_by_hand() {
    for (n, symmetry, states) in [(1, false, 6), (2, false, 18), (2, true, 10)] {
        let r = ranked(TICKET, n, symmetry);
        assert!(r.complete, "size {n}");
        assert_eq!(r.stats.states, states, "size {n}, symmetry {symmetry}");
        assert_eq!(r.ranked, ["T", "M"]);
        let v = &r.results[0];
        assert_eq!(v.prop, PropId::Unsafe(0));
        assert_eq!(v.verdict.kind(), Kind::Holds, "size {n}");
    }
    // Without ranking the window -2..3 is left (M grows at every `take`).
    let m = common::model(TICKET);
    let r = check_size(&m, 1, &ReachOptions::default());
    assert!(
        r.results
            .iter()
            .any(|p| p.prop == PropId::IntBound && p.verdict.kind() == Kind::Violated)
    );
}

#[test]
fn the_command_line_answers_ranked_models_plainly() {
    let dir = scratch_dir("rank_cli");
    let f = write_file(&dir, "ticket.cub", TICKET);
    for engine in ["explicit", "auto"] {
        let (code, v) = json_run(&["check", &f, "--sizes", "1..2", "--engine", engine]);
        assert_eq!(code, 0, "{engine}: {v}");
        for r in rows(&v) {
            assert_eq!(r.verdict, "holds", "{engine} {r:?}");
        }
        let (_, out, _) = nfold(&["check", &f, "--sizes", "1..2", "--engine", engine]);
        assert!(out.contains("ints      ints ranked: T, M"), "{out}");
        assert!(!out.contains("within"), "{out}");
    }
    // Asked to keep the window, the answers are those within it.
    let (_, out, _) = nfold(&[
        "check",
        &f,
        "--sizes",
        "1",
        "--engine",
        "explicit",
        "--no-rank-ints",
        "--int-max",
        "3",
    ]);
    assert!(out.contains("ints not ranked (--no-rank-ints)"), "{out}");
    assert!(out.contains("within ints"), "{out}");
}

#[test]
fn a_violated_ranked_model_prints_its_concrete_run() {
    let r = ranked(BOGUS, 2, false);
    let late = &r.results[0];
    assert_eq!(late.verdict.kind(), Kind::Violated);
    assert_eq!(late.verdict.depth(), Some(7));
    let trace = late.verdict.trace().unwrap();
    // Replayed on the unranked model in a window holding the concrete values: the run
    // ends with M = 4 (three increments), T = 2, 2, which the ranked states (M ranked
    // 3) do not show.
    let wide = load_str_with(
        "t.cub",
        BOGUS,
        &LoadOptions {
            int_range: Some((-2, 10)),
            ..Default::default()
        },
    )
    .unwrap();
    let states = trace.replay(&wide).unwrap();
    let last = states.last().unwrap();
    // Slots: P[1], P[2], T[1], T[2], M.
    assert_eq!(&last[2..], &[2, 2, 4]);
    // On the command line, size 1 holds and size 2 prints the run with M = 4.
    let dir = scratch_dir("rank_bogus");
    let f = write_file(&dir, "bogus.cub", BOGUS);
    let (code, out, _) = nfold(&["check", &f, "--sizes", "1..2", "--engine", "explicit"]);
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("M=4"), "{out}");
    let (_, v) = json_run(&["check", &f, "--sizes", "1..2", "--engine", "explicit"]);
    let rs = rows(&v);
    let at = |n: usize| {
        rs.iter()
            .find(|r| r.size == n && r.property == "late")
            .unwrap()
    };
    assert_eq!(at(1).verdict, "holds");
    assert_eq!((at(2).verdict.as_str(), at(2).depth), ("violated", Some(7)));
}

#[test]
fn a_model_outside_the_fragment_is_named_and_keeps_the_window() {
    let dir = scratch_dir("rank_not");
    // `T[x] + M` adds two int cells: not an increment by a literal.
    let src = TICKET.replace("T[x] := M;", "T[x] := T[x] + M;");
    let f = write_file(&dir, "sum.cub", &src);
    let (_, out, _) = nfold(&[
        "check",
        &f,
        "--sizes",
        "1",
        "--engine",
        "explicit",
        "--int-max",
        "3",
    ]);
    assert!(
        out.contains("ints not ranked: arithmetic (`+`) on the int `T`")
            && out.contains("transition `take`"),
        "{out}"
    );
    assert!(out.contains("within ints"), "{out}");
}

#[test]
fn an_increment_not_from_the_maximum_stops_with_an_error() {
    // Each process counts its own rounds: at size 2, once one counter is 1, the other
    // process increments 0, not the largest value, above the cap 0. Size 1 has a single
    // counter, always the largest: 0, 1 ranked 1 (2 states).
    let src = "array T[proc] : int\ninit (x) { T[x] = 0 }\nunsafe neg (x) { T[x] < 0 }\n\
               transition round (x) { T[x] := T[x] + 1; }\n";
    let r = ranked(src, 1, false);
    assert_eq!(r.stats.states, 2);
    assert_eq!(r.results[0].verdict.kind(), Kind::Holds);
    let m = common::model(src);
    let r = check_size(
        &m,
        2,
        &ReachOptions {
            rank_ints: true,
            ..Default::default()
        },
    );
    let e = r.rank_error.expect("the search must stop");
    assert!(
        e.contains("transition `round`") && e.contains("not the largest"),
        "{e}"
    );
    assert!(r.results.iter().all(|p| p.verdict.kind() != Kind::Holds));
    let dir = scratch_dir("rank_err");
    let f = write_file(&dir, "rounds.cub", src);
    let (code, _, err) = nfold(&["check", &f, "--sizes", "2", "--engine", "explicit"]);
    assert_ne!(code, 0);
    assert!(err.contains("ints cannot be ranked at size 2"), "{err}");
}

/// Where ranking cannot follow at a size, the default searches that size over the int
/// window, and answers what `--engine explicit --no-rank-ints` answers. The counters
/// of `rounds` grow without bound, one process at a time: size 1 is finite when ranked
/// (holds); at sizes 2 and 3 `neg` holds within every window and a run leaves the
/// widest one, -2..64: after 64 increments of one counter, the next stores 65 (the
/// depth counts the 64 steps within the window).
#[test]
fn the_default_searches_the_window_where_ranking_cannot_follow() {
    let src = "array T[proc] : int\ninit (x) { T[x] = 0 }\nunsafe neg (x) { T[x] < 0 }\n\
               transition round (x) { T[x] := T[x] + 1; }\n";
    let dir = scratch_dir("rank_window");
    let f = write_file(&dir, "rounds.cub", src);
    let (_, auto) = json_run(&["check", &f, "--sizes", "1..3"]);
    let (_, explicit) = json_run(&[
        "check",
        &f,
        "--sizes",
        "2..3",
        "--engine",
        "explicit",
        "--no-rank-ints",
    ]);
    let auto = rows(&auto);
    let (one, rest): (Vec<_>, Vec<_>) = auto.iter().partition(|r| r.size == 1);
    assert_eq!(one.len(), 1, "{auto:?}");
    assert_eq!(one[0].verdict, "holds");
    let explicit = rows(&explicit);
    let pick = |r: &nfold::schema::Row| (r.size, r.kind.clone(), r.verdict.clone(), r.depth);
    let mut a: Vec<_> = rest.iter().map(|r| pick(r)).collect();
    let mut e: Vec<_> = explicit.iter().map(pick).collect();
    a.sort();
    e.sort();
    assert_eq!(a, e);
    for n in [2, 3] {
        assert!(
            e.contains(&(n, "unsafe".into(), "within_int_window".into(), None)),
            "{e:?}"
        );
        assert!(
            e.contains(&(n, "int_bound".into(), "violated".into(), Some(64))),
            "{e:?}"
        );
    }
    let (_, out, _) = nfold(&["check", &f, "--sizes", "1..3"]);
    assert!(
        out.contains("note: sizes 2..3: ints not ranked")
            && out.contains("searched over the int window instead"),
        "{out}"
    );
}

/// The ranked search against the search over a wide window, on mutants of the two
/// ticket models (order flipped, `<` and `<=` swapped, a disjunct dropped, the reset or
/// the increment dropped): a violation found either way must be found the other way at
/// the same depth (BFS finds shortest runs, and a run of at most 8 steps stays within
/// -2..12), and a property the ranked search says holds must not be violated in the
/// window.
#[test]
fn ranked_and_windowed_searches_agree_on_mutants() {
    let mutants: Vec<String> = vec![
        TICKET.to_string(),
        TICKET.replace("T[x] < T[j]", "T[x] <= T[j]"),
        TICKET.replace("T[x] < T[j]", "T[j] < T[x]"),
        TICKET.replace("T[j] = 0 || ", ""),
        TICKET.replace(" T[x] := 0;", ""),
        BOGUS.to_string(),
        BOGUS.replace("T[x] <= T[j]", "T[x] < T[j]"),
        BOGUS.replace("T[x] > 1", "T[x] >= 1"),
        BOGUS.replace(" M := M + 1;", ""),
        BOGUS.replace(" T[x] := 0;", ""),
    ];
    let mut violated = 0;
    for (i, src) in mutants.iter().enumerate() {
        let wide = load_str_with(
            "t.cub",
            src,
            &LoadOptions {
                int_range: Some((-2, 12)),
                ..Default::default()
            },
        )
        .unwrap();
        for n in 1..=2 {
            let r = ranked(src, n, false);
            let w = check_size(&wide, n, &ReachOptions::default());
            let (rv, wv) = (&r.results[0], &w.results[0]);
            assert_eq!(
                rv.verdict.kind() == Kind::Violated,
                wv.verdict.kind() == Kind::Violated,
                "mutant {i}, size {n}: {src}"
            );
            assert_eq!(
                rv.verdict.depth(),
                wv.verdict.depth(),
                "mutant {i}, size {n}"
            );
            violated += (rv.verdict.kind() == Kind::Violated) as usize;
        }
    }
    // The mutants are not all alike: some are violated, most hold.
    assert!(violated >= 2, "{violated}");
}
