//! `--store tree` (lossless tree compression, `explicit::store::tree`) against
//! `--store exact` through the CLI: the same states, transitions, verdicts and traces,
//! on one thread and on two (the partitions share the node tables), with the counts
//! pinned to the exact store's (cross-checked elsewhere: tests/parallel_search.rs,
//! tests/counting.rs).

use crate::common;
use common::json_run;
use serde_json::Value;

/// The JSON document of a run without what differs between stores and runs (times,
/// memory, the command line, the engine's description and the store's size).
fn run(case: &[&str], store: &str, threads: usize) -> (i32, Value) {
    let t = threads.to_string();
    let mut args = vec!["check"];
    args.extend_from_slice(case);
    args.extend_from_slice(&["--engine", "explicit", "--threads", &t, "--store", store]);
    let (code, mut v) = json_run(&args);
    common::without_keys(
        &mut v,
        &[
            "seconds",
            "shown_at",
            "peak_memory_bytes",
            "command",
            "store_bytes",
            "engine_text",
            "notes",
        ],
    );
    (code, v)
}

#[test]
fn tree_store_finds_what_the_exact_store_finds() {
    // (case, states stored by the exact store)
    let cases: &[(&[&str], u64)] = &[
        (
            &["families/peterson.cub", "--size", "4", "--no-symmetry"],
            PETERSON_4,
        ),
        (&["families/peterson.cub", "--size", "4"], PETERSON_4_SYM),
        (&["families/german.cub", "--size", "4"], GERMAN_4),
        (
            &["families/german.cub", "--size", "3", "--no-symmetry"],
            GERMAN_3,
        ),
        // 72 bits: compressed (the others fit in one word and are stored as they are).
        (&["families/german.cub", "--size", "5"], GERMAN_5),
        // A violation: the same shortest trace.
        (&["families/german_bug.cub", "--size", "4"], GERMAN_BUG_4),
        (
            &["families/german_bug.cub", "--size", "5", "--no-symmetry"],
            GERMAN_BUG_5,
        ),
    ];
    for &(case, states) in cases {
        let exact = run(case, "exact", 1);
        assert_eq!(
            exact.1["results"][0]["states"].as_u64(),
            Some(states),
            "{case:?}: the exact store's count moved"
        );
        for threads in [1, 2] {
            let tree = run(case, "tree", threads);
            assert_eq!(tree, exact, "{case:?} --store tree on {threads} thread(s)");
        }
    }
}

#[test]
fn tree_store_reports_its_bytes() {
    let args = [
        "check",
        "families/german.cub",
        "--size",
        "5",
        "--engine",
        "explicit",
        "--store",
        "tree",
    ];
    let (_, v) = json_run(&args);
    let r = &v["results"][0];
    let (bytes, states) = (r["store_bytes"].as_u64(), r["states"].as_u64());
    // At least a root of 8 bytes a state; less than the exact table's 16-byte slots
    // (two words) at most 70 % full: 22.8 bytes a state at least (31 here).
    let (b, n) = (bytes.unwrap(), states.unwrap());
    assert!(b > 8 * n && b < 20 * n, "{r}");
    let (_, out, _) = common::nfold(&args);
    assert!(out.contains("the tree store holds"), "{out}");
    // The exact store reports none.
    let (_, v) = json_run(&args[..args.len() - 2]);
    assert!(v["results"][0].get("store_bytes").is_none());
}

const PETERSON_4: u64 = 9168;
const PETERSON_4_SYM: u64 = 470;
const GERMAN_4: u64 = 28514;
const GERMAN_3: u64 = 28647;
const GERMAN_BUG_4: u64 = 1272;
const GERMAN_5: u64 = 134355;
const GERMAN_BUG_5: u64 = 62060;
