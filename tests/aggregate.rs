//! The aggregate (all sizes in one SAT run) against one-by-one SAT runs and the
//! explicit engine: same failing sizes and the same shortest depth per size and
//! property, with and without symmetry breaking, on every family and on models whose
//! transitions depend on the size (ranges over N, arithmetic on ids, `#k`).

use crate::common;
use common::{families, json_run, nfold};
use nfold::bmc::driver::{BmcOptions, check_aggregate, check_size};
use nfold::model::ir::Model;
use nfold::transys::query::SymBreak;
use nfold::verdict::{Kind as Verdict, PropId};
use std::collections::HashMap;

fn max_size() -> usize {
    if cfg!(debug_assertions) { 4 } else { 6 }
}

type Answers = HashMap<(usize, PropId), (Verdict, Option<usize>)>;

fn answers(reports: &[nfold::verdict::SizeReport]) -> Answers {
    let mut out = HashMap::new();
    for r in reports {
        assert!(r.internal_errors.is_empty(), "{:?}", r.internal_errors);
        assert!(r.limit.is_none());
        for p in &r.results {
            assert!(p.trace().is_none_or(|t| t.size == r.size));
            out.insert((r.size, p.prop), (p.verdict.kind(), p.depth()));
        }
    }
    out
}

fn compare(name: &str, m: &Model, min: usize, max: usize, depth: usize, symbreak: SymBreak) {
    let opts = BmcOptions {
        depth,
        symbreak,
        // One formula for every width, even where the default would split it.
        whole_aggregate: true,
        ..Default::default()
    };
    let agg = check_aggregate(m, min, max, &opts).unwrap();
    assert!(!agg.split);
    assert_eq!(agg.reports.len(), max - min + 1);
    let got = answers(&agg.reports);
    let singles: Vec<_> = (min..=max)
        .map(|n| check_size(m, n, &opts).unwrap().report)
        .collect();
    let want = answers(&singles);
    for (key, w) in &want {
        assert_eq!(
            got.get(key),
            Some(w),
            "{name} {symbreak:?}: size {} {:?}",
            key.0,
            key.1
        );
    }
    // The aggregate reports no range error the single runs did not.
    for key in got.keys() {
        assert!(want.contains_key(key), "{name}: extra answer {key:?}");
    }
}

#[test]
fn aggregate_agrees_with_one_by_one_on_every_family() {
    for (name, m) in families() {
        for symbreak in [SymBreak::WitnessLex, SymBreak::LexLeader, SymBreak::Off] {
            compare(&name, &m, 1, max_size(), 9, symbreak);
        }
        compare(&name, &m, 2, max_size(), 9, SymBreak::WitnessLex);
    }
}

const SIZE_DEPENDENT: &str = "
type s = Idle | Busy
array A[proc] : 0 .. N
array S[proc] : s
var T : proc
var R : 0 .. N - 1
array V[1 .. N] : bool
init (z) { A[z] = 0 && S[z] = Idle && R = 0 && V[z] = False }
unsafe two_busy (z1 z2) { S[z1] = Busy && S[z2] = Busy }
unsafe full (z) { A[z] = N }
unsafe last_flag () { V[N] = True }
transition inc (i) requires { S[i] = Idle && A[i] < 2 } { A[i] := A[i] + 1; }
transition busy (i) requires { A[i] = 2 } { S[i] := Busy; T := any j. S[j] = Idle; }
transition hop (i) requires { i < N && A[i + 1] = 1 } { R := .; V[i + 1] := True; }
transition bump (i) requires { R = N - 1 && i = T } { A[i] := N; }
transition wrap (i) requires { S[i] = Busy } { T := i + 1; }
transition reset (i) requires { S[i] = Busy } { S[i] := Idle; A[i] := 0; }
";

#[test]
fn size_dependent_transitions_agree() {
    let m = nfold::lang::load_str("sized.cub", SIZE_DEPENDENT).unwrap();
    assert!(!m.is_symmetric());
    compare("sized", &m, 1, max_size(), 7, SymBreak::Off);
    compare("sized", &m, 2, max_size(), 7, SymBreak::Off);
    // And the explicit engine finds the same shortest depths.
    let opts = BmcOptions {
        depth: 7,
        ..Default::default()
    };
    let agg = answers(&check_aggregate(&m, 1, max_size(), &opts).unwrap().reports);
    for n in 1..=max_size() {
        let r = nfold::explicit::reach::check_size(&m, n, &Default::default());
        assert!(r.internal_errors.is_empty());
        for p in &r.results {
            let sat = agg.get(&(n, p.prop)).copied();
            match p.depth() {
                Some(d) if d <= 7 => assert_eq!(
                    sat,
                    Some((Verdict::Violated, Some(d))),
                    "size {n} {:?}",
                    p.prop
                ),
                _ => assert!(
                    matches!(sat, None | Some((Verdict::NoViolationUpTo(7), None))),
                    "size {n} {:?}",
                    p.prop
                ),
            }
        }
    }
}

#[test]
fn oddeven_bug_fails_exactly_at_odd_sizes() {
    let m = nfold::lang::load_file(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/families/oddeven_sort_bug.cub"
    ))
    .unwrap();
    let max = if cfg!(debug_assertions) { 4 } else { 6 };
    let opts = BmcOptions {
        depth: 3 * max,
        ..Default::default()
    };
    let run = check_aggregate(&m, 1, max, &opts).unwrap();
    for r in &run.reports {
        let p = &r.results[0];
        if r.size % 2 == 1 {
            assert_eq!(
                (p.verdict.kind(), p.depth()),
                (Verdict::Violated, Some(3 * r.size)),
                "size {}",
                r.size
            );
            let t = p.trace().unwrap();
            assert_eq!(t.size, r.size);
            t.replay(&m)
                .expect("the projected trace replays on its own instance");
        } else {
            assert_eq!(
                p.verdict.kind(),
                Verdict::NoViolationUpTo(3 * max),
                "size {}",
                r.size
            );
        }
    }
    // The correct sort has no failing size.
    let ok = nfold::lang::load_file(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/families/oddeven_sort.cub"
    ))
    .unwrap();
    let run = check_aggregate(&ok, 1, max, &opts).unwrap();
    assert!(run.reports.iter().all(|r| {
        r.results
            .iter()
            .all(|p| p.verdict.kind() == Verdict::NoViolationUpTo(3 * max))
    }));
}

#[test]
fn cli_prints_the_dollar_picture_and_json_mode() {
    let (code, out, _) = nfold(&[
        "check",
        "families/oddeven_sort_bug.cub",
        "--sizes",
        "1..4",
        "--depth",
        "12",
    ]);
    assert_eq!(code, 1);
    // Odd-even sort's transitions depend on N: width by width by default.
    // The engine line is a wrapped block: read it as words.
    let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("sizes 1..4 in one run, width by width (the encoding depends on N)"),
        "{out}"
    );
    assert!(out.contains("were checked width by width"), "{out}");
    assert!(out.contains("    -  $  $  $    size 1\n"), "{out}");
    assert!(out.contains("    -  -  -  $    size 3\n"), "{out}");
    assert!(
        !out.contains("size 2\n") && !out.contains("size 4\n"),
        "{out}"
    );
    assert!(out.contains("violations at sizes 1, 3;"), "{out}");
    let (_, v) = json_run(&[
        "check",
        "families/mutex_bug.cub",
        "--sizes",
        "1..3",
        "--depth",
        "6",
    ]);
    assert_eq!(v["mode"], "aggregate");
    assert_eq!(v["engine"], "sat");
    assert_eq!(v["bound"], 6);
    let (_, v) = json_run(&[
        "check",
        "families/mutex_bug.cub",
        "--sizes",
        "1..3",
        "--depth",
        "6",
        "--one-by-one",
    ]);
    assert_eq!(v["mode"], "one-by-one");
    // The same picture from one aggregate formula.
    let (code, out, _) = nfold(&[
        "check",
        "families/oddeven_sort_bug.cub",
        "--sizes",
        "1..4",
        "--depth",
        "12",
        "--whole-aggregate",
    ]);
    assert_eq!(code, 1);
    let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("sizes 1..4 in one aggregate run"), "{out}");
    assert!(out.contains("    -  -  -  $    size 3\n"), "{out}");
    assert!(out.contains("violations at sizes 1, 3;"), "{out}");
    let (_, v) = json_run(&[
        "check",
        "families/peterson.cub",
        "--sizes",
        "1..3",
        "--depth",
        "4",
    ]);
    assert_eq!(v["mode"], "per-width");
}

/// The default splits exactly the families whose encoding has a case per width
/// (`N` in a formula or a range over `N`, read from each family's text), and the split
/// run answers like one formula.
#[test]
fn ranges_whose_encoding_depends_on_n_are_checked_width_by_width() {
    for (name, m) in families() {
        let text = std::fs::read_to_string(format!("families/{name}.cub")).unwrap();
        // `N` as a word outside comments.
        let mut code = String::new();
        let mut depth = 0;
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i..].starts_with(b"(*") {
                depth += 1;
                i += 2;
            } else if b[i..].starts_with(b"*)") {
                depth -= 1;
                i += 2;
            } else {
                if depth == 0 {
                    code.push(b[i] as char);
                }
                i += 1;
            }
        }
        let mentions_n = code
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .any(|w| w == "N");
        let opts = BmcOptions {
            depth: 6,
            ..Default::default()
        };
        let run = check_aggregate(&m, 1, 3, &opts).unwrap();
        assert_eq!(run.split, mentions_n, "{name}");
        let whole = check_aggregate(
            &m,
            1,
            3,
            &BmcOptions {
                whole_aggregate: true,
                ..opts
            },
        )
        .unwrap();
        assert_eq!(answers(&run.reports), answers(&whole.reports), "{name}");
    }
}
