//! The explicit search with partial symmetry (`--partial-symmetry`,
//! `explicit::reach::partial`: adaptive symmetry reduction) against the search without
//! reduction, on the families that are not fully symmetric (order comparisons on ids,
//! arithmetic on ids, `#1`) and on mutants of them that break mutual exclusion: the
//! same verdicts, the same shortest depths, every trace replayed (an internal error
//! fails the test). The exactness of the reduction itself (members of the stored
//! states = the reachable states, by the interpreter) is the unit test in
//! `src/explicit/partial/tests.rs`; generated models go through the same comparison
//! in `tests/generated.rs`.

use crate::common;

use common::{json_run, load, model};
use nfold::explicit::reach::{ReachOptions, ReachResult, check_size};
use nfold::model::ir::Model;
use nfold::verdict::Counterexample;

fn run(m: &Model, n: usize, partial: bool) -> ReachResult {
    let r = check_size(
        m,
        n,
        &ReachOptions {
            symmetry: partial,
            partial_symmetry: partial,
            ..Default::default()
        },
    );
    assert!(r.internal_errors.is_empty(), "{:?}", r.internal_errors);
    assert!(r.limit.is_none());
    r
}

/// Same verdicts and depths at sizes 1..=top; the number of violations seen.
fn same_answers(name: &str, m: &Model, top: usize) -> usize {
    let mut violated = 0;
    for n in 1..=top {
        let plain = run(m, n, false);
        let partial = run(m, n, true);
        let answers = |r: &ReachResult| -> Vec<_> {
            r.results
                .iter()
                .map(|p| (p.prop, p.verdict.kind(), p.depth()))
                .collect()
        };
        assert_eq!(answers(&plain), answers(&partial), "{name} n={n}");
        for p in &partial.results {
            if let Some(Counterexample::Trace(t)) = p.verdict.counterexample() {
                violated += 1;
                assert_eq!(Some(t.depth()), p.depth(), "{name} n={n}");
            }
        }
        assert!(
            partial.stats.states <= 2 * plain.stats.states,
            "{name} n={n}"
        );
    }
    violated
}

const ORDERED: &[(&str, usize)] = &[
    ("families/burns.cub", 4),
    ("families/oddeven_sort.cub", 3),
    ("families/oddeven_sort_bug.cub", 3),
    ("families/token_ring.cub", 4),
    ("benches/models/burns.cub", 3),
    ("benches/models/szymanski.cub", 3),
    ("benches/models/bakery_bug.cub", 3),
];

#[test]
fn same_verdicts_and_depths_as_the_unreduced_search() {
    let mut violated = 0;
    for &(file, top) in ORDERED {
        let m = load(file);
        assert!(!m.is_symmetric(), "{file}");
        violated += same_answers(file, &m, top);
    }
    assert!(violated >= 2, "the bug families are violated: {violated}");
}

/// Burns' algorithm with one comparison turned around or one guard conjunct dropped:
/// mutual exclusion breaks in some of them, and the traces must stay the shortest.
#[test]
fn burns_mutants_agree() {
    let text =
        std::fs::read_to_string(format!("{}/families/burns.cub", env!("CARGO_MANIFEST_DIR")))
            .unwrap();
    let edits = [
        (
            "forall_other j. (j < i || F[j] = False)",
            "forall_other j. (i < j || F[j] = False)",
        ),
        ("j < i && F[j] = True", "i < j && F[j] = True"),
        (
            "Pc[i] = L2 && forall_other j. (i < j || F[j] = False)",
            "Pc[i] = L2",
        ),
        (
            "Pc[i] = L3 && forall_other j. (j < i || F[j] = False)",
            "Pc[i] = L3",
        ),
    ];
    let mut violated = 0;
    for (from, to) in edits {
        assert!(text.contains(from), "{from}");
        let m = model(&text.replacen(from, to, 1));
        violated += same_answers(to, &m, 4);
    }
    assert!(violated >= 2, "{violated} mutants violated");
}

#[test]
fn the_flag_reaches_the_explicit_engine() {
    let (code, v) = json_run(&[
        "check",
        "benches/models/szymanski.cub",
        "--engine",
        "explicit",
        "--sizes",
        "3",
        "--partial-symmetry",
    ]);
    assert_eq!(code, 0);
    let states = |v: &serde_json::Value| v["results"][0]["states"].as_u64().unwrap();
    let (_, plain) = json_run(&[
        "check",
        "benches/models/szymanski.cub",
        "--engine",
        "explicit",
        "--sizes",
        "3",
    ]);
    assert!(
        states(&v) < states(&plain),
        "{} vs {}",
        states(&v),
        states(&plain)
    );
    let (code, _, err) = common::nfold(&[
        "check",
        "families/burns.cub",
        "--partial-symmetry",
        "--no-symmetry",
    ]);
    assert_eq!(code, 2, "{err}");
}
