//! `--timeout` is honoured by every engine in every phase: each run below is stopped at
//! a random point (a time limit drawn between 0.2 s and 3 s) and must end within 1 s
//! of it, with the summary of what it answered: the limit named in the document, open
//! answers `unknown` (or bounded, where a bounded pass ran), no internal error, and
//! exit code 3 (1 when a violation was found before the limit), as docs/cli.md says.
//!
//! The stop must not depend on an engine being slow: every instance here runs far
//! past 10 s without a limit (measured on an idle 2-core machine, 2026-11-28: each is
//! a size range or a depth no engine of today finishes), so the limit is always what
//! ends it. A time drawn early stops the route in its first phases, a late one in its
//! last. Before these tests, IC3's lazy lemma matching, the lasso shortening of the
//! explicit search, the width-by-width SAT runs and the certificate checks ran on past
//! the deadline; the BDD check of a certificate, whose single operations cannot be
//! interrupted, now leaves its thread behind at the limit.
//! `NFOLD_STOP_SEED` fixes the draw (it is printed with a failure).

use crate::common;

use common::{Rng, check_doc, json_run};
use std::time::Instant;

/// How long after its limit a run may end: the summary, and a busy machine.
const SLACK_SECONDS: f64 = 1.0;

/// Run `nfold ARGS --timeout T --json` with T drawn by `rng`, and check that it
/// stopped in time, for the time limit, with the summary of a limited run.
fn stops_in_time(args: &str, rng: &mut Rng, seed: u64) {
    let limit = 0.2 + rng.below(2800) as f64 / 1000.0;
    let t = format!("{limit:.3}s");
    let mut a: Vec<&str> = args.split_whitespace().collect();
    a.extend(["--timeout", &t]);
    let what = format!("`nfold {args} --timeout {t}` (NFOLD_STOP_SEED={seed})");
    let t0 = Instant::now();
    let (code, v) = json_run(&a);
    let secs = t0.elapsed().as_secs_f64();
    assert!(
        secs < limit + SLACK_SECONDS,
        "{what} ran {secs:.2}s, more than {SLACK_SECONDS}s past its limit"
    );
    let doc = check_doc(&v);
    assert_eq!(
        doc.limit.as_deref(),
        Some("time limit (--timeout) reached"),
        "{what}: the limit is not reported"
    );
    // What the limit left open is `unknown`, or bounded where a bounded pass ran.
    assert!(
        doc.results
            .iter()
            .any(|r| r.verdict == "unknown" || r.verdict == "no_violation_up_to"),
        "{what}: no answer left open by the limit"
    );
    for r in &doc.results {
        assert!(
            r.internal_errors.is_empty(),
            "{what}: size {} reports internal errors under a limit: {:?}",
            r.size,
            r.internal_errors
        );
    }
    let violated = doc.results.iter().any(|r| r.verdict == "violated");
    assert_eq!(code, if violated { 1 } else { 3 }, "{what}: exit code");
}

/// Every run of `runs`, each at its own random point.
fn all_stop_in_time(runs: &[&str]) {
    let seed = std::env::var("NFOLD_STOP_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        });
    let mut rng = Rng::new(seed);
    for args in runs {
        stops_in_time(args, &mut rng, seed);
    }
}

#[test]
fn auto_stops_in_time() {
    all_stop_in_time(&[
        // The probe, the explicit search, IC3 on the aggregate, the explicit search
        // again.
        "check families/peterson.cub --sizes 1..20",
        // Ranking proofs, the explicit fair search, lassos by BMC, BDD, IC3.
        "live families/mcs_lock.cub --sizes 1..20 --fair",
        "live families/peterson.cub --sizes 1..20 --fair",
        // The explicit phase of `live` at the larger widths of a sort (1..13 ends in
        // 2.5 s since the BDD fixpoint joined the route: a limit drawn after that
        // found nothing to stop; 1..30 runs past 12 s).
        "live families/oddeven_sort_live_bug.cub --sizes 1..30 --no-reduce",
    ]);
}

#[test]
fn explicit_stops_in_time() {
    all_stop_in_time(&[
        "check families/german.cub --size 12 --engine explicit --no-symmetry",
        "live families/mcs_lock.cub --sizes 1..30 --fair --engine explicit",
        // The parallel SCC search: its threads poll the limit while exploring.
        "live families/peterson.cub --size 9 --fair --engine explicit --threads 2",
    ]);
}

#[test]
fn sat_stops_in_time() {
    all_stop_in_time(&[
        "check families/german.cub --sizes 1..12 --engine sat --depth 200",
        // Width by width (the product's encoding depends on N): the widths after the
        // limit are not built.
        "live families/peterson.cub --sizes 1..20 --engine sat --fair --depth 200",
    ]);
}

#[test]
fn proof_engines_stop_in_time() {
    all_stop_in_time(&[
        "check families/oddeven_sort.cub --sizes 1..20 --engine ic3",
        // Lazy orbits of lemmas over many processes: the matching polls the limit.
        "check families/german.cub --sizes 1..40 --engine ic3 --no-symmetry",
        "check families/ticket_lock.cub --sizes 1..30 --engine kind",
        "live families/mutex.cub --sizes 1..40 --fair --engine ic3",
    ]);
}

#[test]
fn ltl_engines_stop_in_time() {
    all_stop_in_time(&[
        // The fixpoint, then the check of its certificate.
        "live families/oddeven_sort_live.cub --sizes 1..40 --engine bdd",
        // One BDD operation of Peterson's aggregate 1..16 runs for seconds: the engine
        // is given up in the middle of it.
        "live families/peterson.cub --sizes 1..16 --engine bdd",
        "live families/peterson.cub --sizes 1..20 --fair --engine rank",
    ]);
}

/// The route on a model the reduction rewrites (a constant row in every guard, a
/// duplicated cell: tests/common/variants.rs): a limit met while the reduction is
/// checked on the model leaves the pairs `unknown`, not an internal error (Cubicle's
/// Flash files under `--timeout 10` printed one internal error per pair before).
#[test]
fn reduced_models_stop_in_time() {
    let dir = common::fresh_dir("timeouts-reduced");
    let m = common::model(&std::fs::read_to_string("families/peterson.cub").expect("family"));
    let files: Vec<String> = [3, 5]
        .iter()
        .filter_map(|&k| common::variants::variant(&m, k))
        .enumerate()
        .map(|(i, text)| common::write_file(&dir, &format!("peterson_v{i}.cub"), &text))
        .collect();
    assert_eq!(files.len(), 2, "both variants apply to Peterson's lock");
    let runs: Vec<String> = files
        .iter()
        .map(|f| format!("check {f} --sizes 1..20"))
        .collect();
    all_stop_in_time(&runs.iter().map(String::as_str).collect::<Vec<_>>());
}
