//! Liveness for every n (`nfold live --every-n`): ranking proofs checked up to the
//! cutoff of docs/every-n.md ("Liveness for every n"). The three correct families get
//! "holds for every n" with the cutoffs derived by hand from their text, and `nfold
//! certify` accepts their certificates (tampered ones rejected); families whose
//! starvation appears only from n = 3, 4 or 5 (tests/models/live_every, verdicts
//! derived by hand in their headers and confirmed here by the explicit search) are
//! never claimed from smaller sizes; and a campaign over mutants of the correct
//! families: no mutant that the explicit search refutes at some size gets the claim.

use crate::common;

use common::{Rng, json_run, nfold, scratch_dir};
use nfold::engine::Control;
use nfold::explicit::ndfs::{self, NdfsOptions, NdfsVerdict};
use nfold::ltl::LtlProperty;
use nfold::portfolio::every::EveryN;
use nfold::portfolio::every_live::prove_live;
use nfold::sat::SolverKind;

/// (family, cutoff): 1 (process i) + the process-valued globals + the quantifier rank of
/// "no step is possible" (every family here has a guard with `forall_other`, so the
/// count of local states bounds the stalls) times the local states of a process.
const CORRECT: &[(&str, usize)] = &[
    // A : 4 values; rank 2 (`admit (i)` with `forall_other j`).
    ("batch_mutex", 1 + 2 * 4),
    // Pc : 4 values; rank 2 (`hand_over (i j)`; `admit (i)` with `forall_other j`).
    ("handoff_batch", 1 + 2 * 4),
    // Tok : proc; A : 3 values, Served : 2; rank 2 (`pass (i j)`; `new_round (i)` with
    // `forall_other j`).
    ("token_rounds", 1 + 1 + 2 * (3 * 2)),
];

#[test]
fn correct_families_hold_for_every_n_with_the_cutoff_of_their_text() {
    let dir = scratch_dir("live-every");
    for &(fam, cutoff) in CORRECT {
        let f = format!("families/{fam}.cub");
        for fair in [true, false] {
            let cert = dir.join(format!("{fam}-{fair}.cert"));
            let cert = cert.to_str().unwrap();
            let mut args = vec!["live", &f, "--every-n", "--sizes", "1..2"];
            args.extend(["--certificate", cert]);
            if fair {
                args.push("--fair");
            }
            let (code, v) = json_run(&args);
            assert_eq!(code, 0, "{fam} fair={fair}: {v}");
            let p = &v["every_n"]["properties"][0];
            assert_eq!(p["property"], "starvation_free", "{fam}");
            assert_eq!(p["kind"], "ltl");
            assert_eq!(p["verdict"], "holds", "{fam} fair={fair}: {p}");
            assert_eq!(p["cutoff"], cutoff as u64, "{fam}");
            assert_eq!(p["how"], "ranking proof over a quantified invariant");
            let (code, out, err) = nfold(&["certify", &f, cert]);
            assert_eq!(code, 0, "{fam}: {out}{err}");
            assert!(
                out.contains(&format!(
                    "the cutoff computed from the model and the lemmas and the ranking is {cutoff}"
                )) && out.contains("the properties hold at every size"),
                "{out}"
            );
        }
        let (_, out, _) = nfold(&["live", &f, "--every-n", "--fair", "--sizes", "1"]);
        assert!(
            out.contains(&format!(
                "  starvation_free: holds for every n (ranking proof, cutoff {cutoff}: "
            )),
            "{out}"
        );
    }
}

#[test]
fn certify_rejects_a_tampered_ranking_claimed_for_every_size() {
    let dir = scratch_dir("live-every-tamper");
    let f = "families/batch_mutex.cub";
    let cert = dir.join("b.cert");
    let cert = cert.to_str().unwrap();
    let (code, _, _) = nfold(&[
        "live",
        f,
        "--every-n",
        "--sizes",
        "1",
        "--certificate",
        cert,
    ]);
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(cert).unwrap();
    // A Ready process weighing least: entering (Ready -> Crit) raises its weight.
    let light = text.replacen("3: (A[j] = Ready)", "1: (A[j] = Ready)", 1);
    assert_ne!(light, text, "{text}");
    let path = common::write_file(&dir, "light.cert", &light);
    let (code, out, _) = nfold(&["certify", f, &path]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("the certificate is rejected"), "{out}");
    // A smaller cutoff written in the file does not shrink the check.
    let small = text.replace("every n cutoff 9", "every n cutoff 2");
    assert_ne!(small, text);
    let path = common::write_file(&dir, "small.cert", &small);
    let (code, out, _) = nfold(&["certify", f, &path]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("size   9: checked"), "{out}");
}

/// (model, first size where `starvation_free` is violated, fair or not), derived by
/// hand in each file's header.
const LATE: &[(&str, usize)] = &[
    ("tests/models/live_every/batch_leak2.cub", 3),
    ("tests/models/live_every/batch_leak3.cub", 4),
    ("tests/models/live_every/batch_leak4.cub", 5),
    ("families/handoff_lock.cub", 3),
];

#[test]
fn starvation_beyond_the_sizes_searched_is_never_claimed_away() {
    for &(f, first) in LATE {
        // The search confirms the first violated size.
        let sizes = format!("1..{}", first);
        let (code, v) = json_run(&["live", f, "--fair", "--sizes", &sizes]);
        assert_eq!(code, 1, "{f}");
        let rows = v["results"].as_array().unwrap();
        for r in rows {
            let violated = r["verdict"] == "violated";
            assert_eq!(violated, r["size"] == first as u64, "{f}: {r}");
        }
        // Below it, the sizes hold, and every n is not claimed: exit 4, a reason.
        let below = format!("1..{}", first - 1);
        for fair in [true, false] {
            let mut args = vec!["live", f, "--every-n", "--sizes", &below];
            if fair {
                args.push("--fair");
            }
            let (code, v) = json_run(&args);
            let p = &v["every_n"]["properties"][0];
            assert_eq!(code, 4, "{f} fair={fair}: {p}");
            assert_eq!(p["verdict"], "not_proved", "{f}: {p}");
            assert!(p["reason"].as_str().is_some_and(|r| !r.is_empty()), "{p}");
        }
    }
}

#[test]
fn outside_the_argument_every_n_is_refused_with_a_reason() {
    let cases = [
        // Neighbour arithmetic on process ids.
        ("families/token_ring.cub", "1", "outside the fragment"),
        // Not a property of one process.
        (
            "families/readers_writers.cub",
            "1",
            "not a property of one process",
        ),
        // Starving from size 2: no ranking at size 3.
        ("families/token_mutex.cub", "1", "no ranking at size 3"),
        // Violated at a size searched: violated for every n.
        ("families/token_mutex.cub", "1..3", "VIOLATED at sizes 2..3"),
    ];
    for (f, sizes, why) in cases {
        let (code, out, _) = nfold(&["live", f, "--every-n", "--fair", "--sizes", sizes]);
        assert!(code == 4 || code == 1, "{f}: {code}\n{out}");
        assert!(out.contains(why), "{f}: {out}");
        assert!(!out.contains("holds for every n"), "{f}: {out}");
    }
}

/// Whether the explicit search refutes `starvation_free` (weakly fair when `fair`) of
/// `m` at some size 1..`max`.
fn refuted(m: &nfold::model::ir::Model, max: usize, fair: bool) -> Option<usize> {
    let p = LtlProperty::new(m, 0).ok()?;
    (1..=max).find(|&n| {
        let opts = NdfsOptions {
            symmetry: m.is_symmetric(),
            fair,
            ..Default::default()
        };
        let process = m.is_symmetric().then_some(1);
        let procs: Vec<Option<i64>> = match process {
            Some(_) => vec![Some(1)],
            None => (1..=n as i64).map(Some).collect(),
        };
        procs
            .into_iter()
            .any(|q| ndfs::check(m, n, &p, q, &opts).verdict == NdfsVerdict::Violated)
    })
}

#[test]
fn no_refuted_mutant_is_live_for_every_n() {
    let all = std::env::var("NFOLD_MUTANTS").is_ok_and(|v| v == "all");
    let (max, keep) = if all { (6, usize::MAX) } else { (5, 6) };
    let mut rng = Rng::new(20261128);
    let (mut tried, mut proved, mut refuted_n) = (0, 0, 0);
    let mut bad = Vec::new();
    for &(fam, _) in CORRECT {
        let path = format!("families/{fam}.cub");
        let text = std::fs::read_to_string(&path).unwrap();
        let model = nfold::lang::load_file(&path).unwrap();
        let ctors: Vec<Vec<String>> = model.enums.iter().map(|e| e.ctors.clone()).collect();
        let mut ms = crate::every::mutants(&text, &ctors);
        let keep = keep.min(ms.len());
        for i in 0..keep {
            let j = i + (rng.next() as usize) % (ms.len() - i);
            ms.swap(i, j);
        }
        ms.truncate(keep);
        for (what, t) in ms {
            let Ok(m) = nfold::lang::load_str(&path, &t) else {
                continue;
            };
            if m.ltls.is_empty() {
                continue;
            }
            let fair = rng.chance(50);
            tried += 1;
            let ctl = Control {
                deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(20)),
                ..Default::default()
            };
            let every = prove_live(&m, 0, fair, SolverKind::default_kind(), &ctl).unwrap();
            let refutation = refuted(&m, max, fair);
            match (&every, refutation) {
                (EveryN::Proved { .. }, Some(n)) => {
                    bad.push(format!("{fam} {what} fair={fair}: violated at {n}\n{t}"))
                }
                (EveryN::Proved { .. }, None) => proved += 1,
                (_, Some(_)) => refuted_n += 1,
                _ => {}
            }
        }
    }
    eprintln!(
        "liveness every-n soundness: {tried} mutants, {proved} proved for every n, {refuted_n} refuted"
    );
    assert!(
        bad.is_empty(),
        "every n claimed for refuted mutants:\n{}",
        bad.join("\n\n")
    );
    assert!(tried >= 12, "{tried}");
    assert!(proved > 0 && refuted_n > 0, "{proved} {refuted_n}");
}
