//! The parallel explicit safety search (`check --engine explicit --threads T`) against
//! the one-thread search: the same states stored, the same counts, the same verdicts,
//! depths and traces (the search numbers states in the sequential order at every
//! thread count, so the first violation found, its parent chain and the cut of a
//! `--max-states` limit are the same). The instances cover blocks expanded by several
//! threads and by one thread alone (small levels), violations and deadlocks met in
//! parallel blocks, a limit cutting a level, and a lossy store.

use crate::common;
use common::json_run;
use serde_json::Value;

/// The JSON document of a run, without what differs from run to run (times, memory,
/// the command line).
fn run(case: &[&str], threads: usize) -> (i32, Value) {
    let t = threads.to_string();
    let mut args = vec!["check"];
    args.extend_from_slice(case);
    args.extend_from_slice(&["--engine", "explicit", "--threads", &t]);
    let (code, mut v) = json_run(&args);
    common::without_keys(
        &mut v,
        &["seconds", "shown_at", "peak_memory_bytes", "command"],
    );
    (code, v)
}

#[test]
fn every_thread_count_stores_the_same_states_and_finds_the_same_traces() {
    let cases: &[&[&str]] = &[
        // Violations found in blocks expanded on several threads: one shortest trace.
        &["families/german_bug.cub", "--size", "5", "--no-symmetry"],
        &["families/german_bug.cub", "--size", "4"],
        &["families/mutex_bug.cub", "--size", "8", "--no-symmetry"],
        &["families/oddeven_sort_bug.cub", "--size", "5"],
        // A deadlock, as well as a property that holds.
        &["families/oddeven_sort.cub", "--size", "5", "--deadlock"],
        // Many levels too small to share, between levels that are shared.
        &["families/ticket_lock.cub", "--size", "5", "--no-dead-cells"],
        // A limit cutting a level: the same states kept.
        &[
            "families/peterson.cub",
            "--size",
            "4",
            "--no-symmetry",
            "--max-states",
            "5000",
        ],
        // Hash compaction: "incomplete" at every count, the same states.
        &[
            "families/german.cub",
            "--size",
            "4",
            "--store",
            "hash-compact",
        ],
    ];
    for case in cases {
        let one = run(case, 1);
        assert!(
            one.1["results"][0]["states"].as_u64().unwrap() > 1000,
            "{case:?}: too small to be shared between threads"
        );
        for threads in [2, 3] {
            assert_eq!(run(case, threads), one, "{case:?} on {threads} threads");
        }
    }
}
