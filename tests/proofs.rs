//! The proof engines through the command line: IC3, k-induction and auto give the
//! verdicts the family headers promise (derived by hand there, and pinned for the
//! explicit engine in tests/cli.rs), every `holds` comes with a checked invariant, and
//! `nfold certify` accepts the certificates they write and rejects tampered ones.

use crate::common;

use common::{VERDICTS, family, json_run, nfold, rows};

#[test]
fn proof_engines_give_the_verdicts_the_headers_promise() {
    for engine in ["ic3", "auto", "kind"] {
        for (fam, prop, fails) in VERDICTS {
            // The ticket lock's counting invariant is costly for cube lemmas beyond 2.
            let top = if *fam == "ticket_lock" {
                "1..2"
            } else {
                "1..3"
            };
            let f = family(fam);
            let (code, v) = json_run(&["check", &f, "--sizes", top, "--engine", engine]);
            let mut any = false;
            let mut bounded = false;
            for r in rows(&v).into_iter().filter(|r| r.property == *prop) {
                let (n, p, verdict) = (r.size, &r.property, r.verdict.as_str());
                let how = r.proof.as_ref().map(|x| x.how.as_str());
                match fails {
                    Some((from, d)) if n as u64 >= *from => {
                        assert_eq!(verdict, "violated", "{engine} {fam} {p} n={n}");
                        let depth = r.depth.map(|x| x as u64);
                        assert_eq!(depth, Some(*d), "{engine} {fam} {p} n={n} shortest");
                        any = true;
                    }
                    // k-induction may run out of depth without a proof; it then says so.
                    _ if engine == "kind" && verdict == "no_violation_up_to" => bounded = true,
                    _ => {
                        assert_eq!(verdict, "holds", "{engine} {fam} {p} n={n}");
                        // auto answers small sizes by exhaustive search.
                        let proofs: &[&str] = if engine == "auto" {
                            &["inductive invariant, checked", "exhaustive search"]
                        } else {
                            &["inductive invariant, checked"]
                        };
                        assert!(
                            proofs.contains(&how.unwrap_or("")),
                            "{engine} {fam} {p} n={n}: {how:?}"
                        );
                    }
                }
            }
            let want = if any {
                1
            } else if bounded {
                4
            } else {
                0
            };
            assert_eq!(code, want, "{engine} {fam} exit code");
            for r in v["results"].as_array().unwrap() {
                assert_eq!(r["internal_errors"].as_array().map(Vec::len), Some(0));
            }
        }
    }
}

#[test]
fn german_is_proved_for_sizes_1_to_6_with_a_small_invariant() {
    let dir = common::scratch_dir("proofs");
    for top in [4, 6] {
        let cert = dir.join(format!("g{top}.cert"));
        let c = cert.to_str().unwrap();
        let range = format!("1..{top}");
        let (code, out, _) = nfold(&[
            "check",
            "families/german.cub",
            "--sizes",
            &range,
            "--engine",
            "ic3",
            "--certificate",
            c,
        ]);
        assert_eq!(code, 0, "{out}");
        for n in 1..=top {
            assert!(
                out.contains(&format!("{n:>4}  coherence            holds (proved)")),
                "{out}"
            );
        }
        let text = std::fs::read_to_string(&cert).unwrap();
        let lemmas = text.lines().filter(|l| l.starts_with("lemma ")).count();
        assert!((1..=50).contains(&lemmas), "{lemmas} lemmas");
        let (code, out, _) = nfold(&["certify", "families/german.cub", c]);
        assert_eq!(code, 0, "{out}");
        assert!(out.contains("the certificate is accepted"), "{out}");
    }
}

#[test]
fn certify_rejects_tampered_certificates() {
    let dir = common::scratch_dir("tamper");
    let cert = dir.join("m.cert");
    let c = cert.to_str().unwrap();
    let (code, _, _) = nfold(&[
        "check",
        "families/mutex.cub",
        "--sizes",
        "1..5",
        "--engine",
        "ic3",
        "--certificate",
        c,
    ]);
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(&cert).unwrap();
    // The semaphore mutex needs both lemmas: no two critical, none critical while the
    // semaphore is free (derived by hand: each alone is not inductive).
    assert!(text.contains("lemma forall distinct i. not (Sem = False && A[i] = Crit)"));
    assert!(text.contains("lemma forall distinct i j. not (A[i] = Crit && A[j] = Crit)"));
    let write = |name: &str, t: &str| common::write_file(&dir, name, t);
    let tampered = [
        // A lemma dropped: the rest is not inductive.
        (
            "drop.cert",
            text.replace(
                "lemma forall distinct i. not (Sem = False && A[i] = Crit)\n",
                "",
            ),
            "not inductive",
        ),
        // A lemma that is false: an initial state violates it.
        (
            "false.cert",
            format!("{text}lemma forall distinct i. not (A[i] = Idle)\n"),
            "an initial state violates the invariant",
        ),
        // A lemma weakened in a way that breaks the proof.
        (
            "weak.cert",
            text.replace(
                "not (Sem = False && A[i] = Crit)",
                "not (Sem = False && A[i] = Want)",
            ),
            "REJECTED",
        ),
        // A lemma about one process only (true of process 1 forever, false of the
        // others): the check of a step from Inv asks the first tuple only when the
        // model and the lemmas are symmetric, which a process constant breaks.
        (
            "asym.cert",
            format!("{text}lemma forall distinct i. not (A[i] = Crit && i <> #1)\n"),
            "not inductive",
        ),
        // A claim the invariant does not support: a property it does not imply.
        (
            "claim.cert",
            text.replace(
                "lemma forall distinct i j. not (A[i] = Crit && A[j] = Crit)\n",
                "",
            )
            .replace(
                "lemma forall distinct i. not (Sem = False && A[i] = Crit)\n",
                "",
            ),
            "violates `mutex`",
        ),
    ];
    for (name, t, why) in tampered {
        let p = write(name, &t);
        let (code, out, _) = nfold(&["certify", "families/mutex.cub", &p]);
        assert_eq!(code, 1, "{name}: {out}");
        assert!(out.contains("the certificate is rejected"), "{name}: {out}");
        assert!(out.contains(why), "{name}: {out}");
    }
    // A certificate that does not parse is an input error with its line.
    let p = write(
        "bad.cert",
        "sizes 1..2\nlemma forall distinct I. not (A[I] = Crit)\n",
    );
    let (code, _, err) = nfold(&["certify", "families/mutex.cub", &p]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.cert:2:1: error:"), "{err}");
    // A diagram node refers only to the nodes before it: no cycle to follow.
    let p = write("loop.cert", "sizes 1..2\nnode 1 Sem 0 0 1 F\n");
    let (code, _, err) = nfold(&["certify", "families/mutex.cub", &p]);
    assert_eq!(code, 2);
    assert!(
        err.contains("loop.cert:2:1: error: node 1 refers to node 1, which is not before it"),
        "{err}"
    );
    // A lemma that is not a formula of the model is named.
    let p = write(
        "name.cert",
        "sizes 1..2\nlemma forall distinct i. not (B[i] = Crit)\n",
    );
    let (code, _, err) = nfold(&["certify", "families/mutex.cub", &p]);
    assert_eq!(code, 2);
    assert!(
        err.contains("does not read as a formula of the model"),
        "{err}"
    );
}

#[test]
fn range_atoms_in_certificates_are_checked() {
    // IC3 widens Peterson's level equalities into range atoms (`Lev[i] >= 2`); the
    // certificate carries them as text, and `certify` checks them on its own encoding.
    let dir = common::scratch_dir("range");
    let cert = dir.join("p.cert");
    let c = cert.to_str().unwrap();
    let (code, _, _) = nfold(&[
        "check",
        "families/peterson.cub",
        "--sizes",
        "1..4",
        "--engine",
        "ic3",
        "--certificate",
        c,
    ]);
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(&cert).unwrap();
    assert!(text.contains(">= ") || text.contains("<= "), "{text}");
    let (code, out, _) = nfold(&["certify", "families/peterson.cub", c]);
    assert_eq!(code, 0, "{out}");
    let write = |name: &str, t: &str| common::write_file(&dir, name, t);
    // A hand-written range lemma that holds: no idle process is above level 0.
    let p = write(
        "ok.cert",
        &format!("{text}lemma forall distinct i. not (Pc[i] = Idle && Lev[i] >= 1)\n"),
    );
    let (code, out, _) = nfold(&["certify", "families/peterson.cub", &p]);
    assert_eq!(code, 0, "{out}");
    let tampered = [
        // False at the initial states (every level starts at 0).
        (
            "init.cert",
            format!("{text}lemma forall distinct i. not (Lev[i] <= 0)\n"),
            "an initial state violates the invariant",
        ),
        // True initially, but a step reaches level 1.
        (
            "step.cert",
            format!("{text}lemma forall distinct i. not (Lev[i] >= 1)\n"),
            "not inductive",
        ),
        // Every range lemma dropped: what is left does not prove the property.
        (
            "drop.cert",
            text.lines()
                .filter(|l| !(l.contains(">= ") || l.contains("<= ")))
                .map(|l| format!("{l}\n"))
                .collect::<String>(),
            "REJECTED",
        ),
    ];
    for (name, t, why) in tampered {
        let p = write(name, &t);
        let (code, out, _) = nfold(&["certify", "families/peterson.cub", &p]);
        assert_eq!(code, 1, "{name}: {out}");
        assert!(out.contains(why), "{name}: {out}");
    }
}

#[test]
fn certificate_needs_a_proof_engine() {
    let (code, _, err) = nfold(&[
        "check",
        "families/mutex.cub",
        "--engine",
        "explicit",
        "--certificate",
        "/tmp/x.cert",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--certificate needs a proof engine"), "{err}");
}

#[test]
fn k_induction_proves_the_semaphore_mutex_at_small_depth() {
    let (code, v) = json_run(&[
        "check",
        "families/mutex.cub",
        "--size",
        "10",
        "--engine",
        "kind",
    ]);
    assert_eq!(code, 0);
    let r = &v["results"][0];
    assert_eq!(r["verdict"], "holds");
    assert!(r["proof_depth"].as_u64().unwrap() <= 2, "{r}");
    assert_eq!(r["proof"]["induction"].as_u64(), r["proof_depth"].as_u64());
}

#[test]
fn the_ladder_of_sizes_proves_peterson_and_falls_back_on_a_violation() {
    // Peterson's ranges depend on N, so IC3 proves each size alone, seeded with the
    // last size's lemmas restated one level up; the rungs' invariants together are
    // certified at every size.
    let (code, out, err) = nfold(&[
        "check",
        "families/peterson.cub",
        "--sizes",
        "1..6",
        "--engine",
        "ic3",
        "--progress",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("] ic3 ladder, size 6:"), "{err}");
    assert!(out.contains("holds at sizes 1..6"), "{out}");
    assert_eq!(out.matches("holds (proved)").count(), 6, "{out}");
    // One size alone goes up the same ladder, and only its own lemmas are certified.
    let (code, v) = json_run(&[
        "check",
        "families/peterson.cub",
        "--sizes",
        "6..6",
        "--engine",
        "ic3",
    ]);
    assert_eq!(code, 0);
    let got: Vec<_> = rows(&v)
        .into_iter()
        .map(|r| {
            (
                r.size,
                r.property,
                r.verdict,
                r.depth,
                r.proof.map(|x| x.how),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![(
            6,
            "mutex".to_string(),
            "holds".to_string(),
            None,
            Some("inductive invariant, checked".to_string())
        )]
    );
    // C counts up to N, and `three` fails from size 3 on, at depth 3 (0, 1, 2, 3):
    // the rung of size 3 meets the violation, and the aggregate run answers instead.
    let dir = common::scratch_dir("ladder");
    let file = dir.join("count.cub");
    std::fs::write(
        &file,
        "var C : 0 .. N\ninit (z) { C = 0 }\nunsafe three () { C = 3 }\n\
         transition inc (i) requires { C < N } { C := C + 1; }\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let (code, out, err) = nfold(&[
        "check",
        f,
        "--sizes",
        "1..5",
        "--engine",
        "ic3",
        "--progress",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("] ic3 ladder, size 3:"), "{err}");
    let (_, v) = json_run(&["check", f, "--sizes", "1..5", "--engine", "ic3"]);
    let got: Vec<(u64, String, Option<u64>)> = rows(&v)
        .into_iter()
        .map(|r| (r.size as u64, r.verdict, r.depth.map(|d| d as u64)))
        .collect();
    let want: Vec<(u64, String, Option<u64>)> = (1..=5)
        .map(|n| {
            if n < 3 {
                (n, "holds".to_string(), None)
            } else {
                (n, "violated".to_string(), Some(3))
            }
        })
        .collect();
    assert_eq!(got, want);
}
