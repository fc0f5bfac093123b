//! The extra process id (`model::extra`): a `proc` global that `init` declares
//! different from every process (Flash's `Home <> p`) holds the id 0, which is not a
//! process. State counts and verdicts derived by hand; symmetry on and off agree; the
//! SAT engine (per size and on the aggregate) and the proof engines agree with the
//! explicit engine; certificates name the extra id `#0` and are checked; the lock
//! holds for every n with the cutoff derived by hand, its mutants are not proved; the
//! command line warns, saves and replays a trace.

use crate::common;
use common::{explicit, model, nfold};
use nfold::bmc::driver::{BmcOptions, check_aggregate, check_size as bmc};
use nfold::cert::Certificate;
use nfold::engine::{self, Control, Engine, Problem};
use nfold::explicit::reach::ReachResult;
use nfold::ic3::engine::Ic3Engine;
use nfold::kind::KindEngine;
use nfold::lang::load_str;
use nfold::model::init::initial_states;
use nfold::model::instance::Instance;
use nfold::model::ir::Model;
use nfold::proof::check as proof_check;
use nfold::proof::cutoff;
use nfold::sat::{SolverKind, Stop};
use nfold::transys::query::SymBreak;
use nfold::verdict::{Kind as Verdict, PropId};

/// A directory-style lock: `Owner` is `Home` while the lock is free. Reachable states,
/// counted by hand (Home = 0 always): Owner = 0 with every process Idle or Waiting
/// (2^n), or Owner = k with process k in Crit and the others Idle or Waiting
/// (n 2^(n-1)): 3, 8, 20 states for n = 1, 2, 3. Up to permutations of the processes
/// (which fix 0): Owner = 0 and 0..n waiting (n + 1 orbits), or Owner a process and
/// 0..n-1 others waiting (n orbits): 3, 5, 7.
const LOCK: &str = "type st = I | W | S\nvar Home : proc\nvar Owner : proc\narray C[proc] : st\n\
                    init (p) { Home <> p && C[p] = I && Owner = Home }\n\
                    unsafe mutex (p q) { C[p] = S && C[q] = S }\n\
                    transition req (i) requires { C[i] = I } { C[i] := W; }\n\
                    transition grant (i) requires { C[i] = W && Owner = Home } { C[i] := S; Owner := i; }\n\
                    transition release (i) requires { C[i] = S && Owner = i } { C[i] := I; Owner := Home; }\n";

/// The same lock granting without looking at `Owner`: violated from n = 2 at depth 4
/// (req, grant, req, grant).
const LOCK_BUG: &str = "type st = I | W | S\nvar Home : proc\nvar Owner : proc\narray C[proc] : st\n\
                        init (p) { Home <> p && C[p] = I && Owner = Home }\n\
                        unsafe mutex (p q) { C[p] = S && C[q] = S }\n\
                        transition req (i) requires { C[i] = I } { C[i] := W; }\n\
                        transition grant (i) requires { C[i] = W } { C[i] := S; Owner := i; }\n\
                        transition release (i) requires { C[i] = S && Owner = i } { C[i] := I; Owner := Home; }\n";

fn verdict(r: &ReachResult, prop: PropId) -> (Verdict, Option<usize>) {
    let p = r.results.iter().find(|x| x.prop == prop).unwrap();
    (p.verdict.kind(), p.depth())
}

#[test]
fn the_reading_applies_only_to_init_distinct_from_every_process() {
    let m = model(LOCK);
    let x = m.extra_proc.as_ref().expect("extra id");
    assert_eq!(x.vars, vec!["Home".to_string()]);
    assert!(m.is_symmetric());
    assert!(
        m.warnings
            .iter()
            .any(|w| w.message.contains("one extra process id, 0")),
        "{:?}",
        m.warnings
    );
    // Also `not (Home = p)`, `p <> Home` and a `forall` in an init without parameters.
    for init in [
        "init (p) { not (Home = p) }",
        "init (p) { p <> Home && C[p] = I }",
        "init () { forall p. Home <> p }",
    ] {
        let src = format!("type st = I | S\nvar Home : proc\narray C[proc] : st\n{init}\n");
        assert!(model(&src).extra_proc.is_some(), "{init}");
    }
    // Not when the process may equal it, nor for a disjunction or an array cell.
    for init in [
        "init (p) { Home = p }",
        "init (p) { Home <> p || C[p] = I }",
        "init (p) { P[p] <> p }",
        "init (p q) { C[p] = I }",
    ] {
        let src = format!(
            "type st = I | S\nvar Home : proc\narray P[proc] : proc\narray C[proc] : st\n{init}\n"
        );
        assert!(model(&src).extra_proc.is_none(), "{init}");
    }
}

#[test]
fn state_counts_and_verdicts_by_hand() {
    let m = model(LOCK);
    for (n, plain, orbits) in [(1, 3, 3), (2, 8, 5), (3, 20, 7)] {
        let a = explicit(&m, n, false);
        let b = explicit(&m, n, true);
        assert_eq!(a.stats.states, plain, "n={n} without symmetry");
        assert_eq!(b.stats.states, orbits, "n={n} with symmetry");
        assert_eq!(b.symmetry, n > 1);
        for r in [&a, &b] {
            assert_eq!(verdict(r, PropId::Unsafe(0)).0, Verdict::Holds, "n={n}");
            assert!(!r.results.iter().any(|x| x.prop == PropId::Range));
        }
    }
    // Every initial state has Home = Owner = 0, the extra id.
    let inst = Instance::new(&m, 3);
    let inits = initial_states(&inst).unwrap();
    assert_eq!(inits.len(), 1);
    let (home, owner) = (
        m.var_by_name("Home").unwrap(),
        m.var_by_name("Owner").unwrap(),
    );
    assert_eq!(inits[0][inst.vars[home].base], 0);
    assert_eq!(inits[0][inst.vars[owner].base], 0);

    let bug = model(LOCK_BUG);
    for n in 1..=3 {
        for symmetry in [false, true] {
            let r = explicit(&bug, n, symmetry);
            let want = if n == 1 {
                (Verdict::Holds, None)
            } else {
                (Verdict::Violated, Some(4))
            };
            assert_eq!(verdict(&r, PropId::Unsafe(0)), want, "n={n} sym={symmetry}");
        }
    }
}

/// An unconstrained `proc` cell starts with any of the n + 1 values; up to
/// permutations, with the extra id or with a process (2 orbits for n ≥ 1).
#[test]
fn unconstrained_proc_cells_may_hold_the_extra_id() {
    let src = "var Home : proc\nvar Ptr : proc\narray B[proc] : bool\n\
               init (p) { Home <> p && B[p] = False }\n\
               transition point (i) { Ptr := i; }\n\
               transition drop () { Ptr := Home; }\n\
               transition pick () { Ptr := .; }\n\
               unsafe (p) { B[p] = True }\n";
    let m = model(src);
    for n in 1..=3 {
        let inst = Instance::new(&m, n);
        assert_eq!(initial_states(&inst).unwrap().len(), n + 1, "n={n}");
        assert_eq!(explicit(&m, n, false).stats.states, n + 1);
        assert_eq!(explicit(&m, n, true).stats.states, 2);
    }
}

/// Indexing a `proc`-indexed array with the extra id is a range error, found by both
/// engines at the same depth.
#[test]
fn indexing_with_the_extra_id_is_a_range_error() {
    let src = "var Home : proc\nvar Ptr : proc\narray B[proc] : bool\n\
               init (p) { Home <> p && B[p] = False && Ptr <> p }\n\
               transition set (i) { B[i] := True; }\n\
               transition poke () requires { B[Ptr] = True } { Ptr := Home; }\n\
               unsafe (p) { B[p] = True }\n";
    let m = model(src);
    let x = m.extra_proc.as_ref().unwrap();
    assert_eq!(x.vars, vec!["Home".to_string(), "Ptr".to_string()]);
    for n in 1..=2 {
        let r = explicit(&m, n, true);
        assert_eq!(verdict(&r, PropId::Range), (Verdict::Violated, Some(0)));
        assert_eq!(verdict(&r, PropId::Unsafe(0)), (Verdict::Violated, Some(1)));
        let s = bmc(
            &m,
            n,
            &BmcOptions {
                depth: 3,
                ..Default::default()
            },
        )
        .unwrap();
        let by = |p: PropId| {
            let x = s.report.results.iter().find(|x| x.prop == p).unwrap();
            (x.verdict.kind(), x.depth())
        };
        assert_eq!(by(PropId::Range), (Verdict::Violated, Some(0)), "n={n}");
        assert_eq!(by(PropId::Unsafe(0)), (Verdict::Violated, Some(1)), "n={n}");
    }
}

#[test]
fn sat_agrees_with_explicit_per_size_and_on_the_aggregate() {
    for (src, name) in [(LOCK, "lock"), (LOCK_BUG, "lock_bug")] {
        let m = model(src);
        for (n, symbreak) in (1..=3).flat_map(|n| {
            [SymBreak::WitnessLex, SymBreak::LexLeader, SymBreak::Off].map(|s| (n, s))
        }) {
            let want = verdict(&explicit(&m, n, true), PropId::Unsafe(0));
            assert_eq!(want, verdict(&explicit(&m, n, false), PropId::Unsafe(0)));
            let r = bmc(
                &m,
                n,
                &BmcOptions {
                    depth: 8,
                    symbreak,
                    ..Default::default()
                },
            )
            .unwrap();
            assert!(
                r.report.internal_errors.is_empty(),
                "{:?}",
                r.report.internal_errors
            );
            let p = &r.report.results[0];
            match want {
                (Verdict::Violated, d) => {
                    assert_eq!(
                        (p.verdict.kind(), p.depth()),
                        (Verdict::Violated, d),
                        "{name} n={n}"
                    )
                }
                _ => assert_eq!(
                    p.verdict.kind(),
                    Verdict::NoViolationUpTo(8),
                    "{name} n={n}"
                ),
            }
            assert!(!r.report.results.iter().any(|x| x.prop == PropId::Range));
        }
        let run = check_aggregate(
            &m,
            1,
            3,
            &BmcOptions {
                depth: 8,
                whole_aggregate: true,
                ..Default::default()
            },
        )
        .unwrap();
        for rep in &run.reports {
            assert!(rep.internal_errors.is_empty(), "{:?}", rep.internal_errors);
            let want = verdict(&explicit(&m, rep.size, true), PropId::Unsafe(0));
            let p = rep
                .results
                .iter()
                .find(|x| x.prop == PropId::Unsafe(0))
                .unwrap();
            match want {
                (Verdict::Violated, d) => assert_eq!(
                    (p.verdict.kind(), p.depth()),
                    (Verdict::Violated, d),
                    "{name} aggregate n={}",
                    rep.size
                ),
                _ => assert_ne!(p.verdict.kind(), Verdict::Violated, "{name} n={}", rep.size),
            }
        }
    }
}

/// The proof engines' verdicts per size, from one aggregate run over 1..4.
fn proved(m: &Model, engine: &dyn Engine) -> Vec<(usize, Verdict, Option<usize>)> {
    let p = Problem::new(m, 1, 4, vec![0]);
    let mut got = Vec::new();
    engine::run(engine, &p, &Control::default(), &mut |r| {
        assert!(r.internal_errors.is_empty(), "{:?}", r.internal_errors);
        let x = r
            .results
            .iter()
            .find(|x| x.prop == PropId::Unsafe(0))
            .unwrap();
        got.push((r.size, x.verdict.kind(), x.depth()));
    })
    .unwrap();
    got.sort_by_key(|x| x.0);
    got
}

/// Mutants of the lock, each refuted by the explicit engine from n = 2: the grant
/// that ignores `Owner` (LOCK_BUG), a grant that only asks that the owner be another
/// process, and a release that frees the lock but keeps the process critical.
fn mutants() -> Vec<String> {
    vec![
        LOCK_BUG.to_string(),
        LOCK.replace("W && Owner = Home }", "W && Owner <> i }"),
        LOCK.replace("{ C[i] := I; Owner := Home; }", "{ Owner := Home; }"),
    ]
}

/// IC3 (symmetric orbits that fix the extra id, and without them) and k-induction
/// with IC3's strengthening answer the lock and its mutants at sizes 1..4 as the
/// explicit engine does: proved where it finds no violation, the same shortest depth
/// where it finds one.
#[test]
fn proof_engines_agree_with_explicit_search() {
    let solver = SolverKind::default_kind();
    let engines: Vec<Box<dyn Engine>> = vec![
        Box::new(Ic3Engine::new(solver, true)),
        Box::new(Ic3Engine::new(solver, false)),
        Box::new(KindEngine {
            solver,
            symmetry: true,
            max_depth: 8,
            strengthen: true,
        }),
    ];
    let mut models = vec![LOCK.to_string()];
    models.extend(mutants());
    for (k, src) in models.iter().enumerate() {
        let m = model(src);
        let want: Vec<(usize, Verdict, Option<usize>)> = (1..=4)
            .map(|n| {
                let (v, d) = verdict(&explicit(&m, n, false), PropId::Unsafe(0));
                (n, v, d)
            })
            .collect();
        if k > 0 {
            assert_eq!(want[1].1, Verdict::Violated, "mutant {k} refuted at n = 2");
        }
        for e in &engines {
            assert_eq!(proved(&m, e.as_ref()), want, "model {k}");
        }
    }
}

/// IC3's invariant for the lock speaks of the extra id as the constant `#0`; it is
/// checked at every size on its own instance, and tampered copies are rejected.
#[test]
fn certificates_name_the_extra_id_and_are_checked() {
    let m = model(LOCK);
    let p = Problem::new(&m, 1, 4, vec![0]);
    let ic3 = Ic3Engine::new(SolverKind::default_kind(), true);
    let out = engine::run(&ic3, &p, &Control::default(), &mut |_| {}).unwrap();
    let cert = out.certificate.expect("a certificate");
    let text = cert.to_text();
    // With Owner = Home no process is critical: a lemma must mention the extra id.
    assert!(text.contains("#0"), "{text}");
    let sizes = [1, 2, 3, 4];
    let ok = |c: &Certificate| {
        proof_check::check(&m, c, &sizes, SolverKind::default_kind(), &Stop::default())
            .map(|r| r.iter().all(|s| s.failures.is_empty()))
    };
    assert_eq!(ok(&cert), Ok(true));
    // Without the lemmas that mention the extra id, mutual exclusion alone is not
    // inductive (grant from a state where the owner is free and another is critical).
    let mut t = (*cert).clone();
    t.lemmas.retain(|l| !l.body.contains("#0"));
    assert_eq!(ok(&t), Ok(false), "{}", t.to_text());
    // The extra id replaced by process 1: the lemma is false at size 1 initially.
    let mut t = (*cert).clone();
    for l in &mut t.lemmas {
        l.body = l.body.replace("#0", "#1");
    }
    assert_eq!(ok(&t), Ok(false), "{}", t.to_text());
    // `#0` means the extra id only where the model has one.
    let plain = LOCK.replace("Home <> p && ", "");
    let e = load_str(
        "t.cub",
        &format!(
            "{plain}unsafe u (i) {{ Owner = #0 && C[i] = S }}
"
        ),
    )
    .unwrap_err();
    assert!(
        e.diagnostic.message.contains("extra process id"),
        "{}",
        e.diagnostic.message
    );
    let with = model(&format!(
        "{LOCK}unsafe u (i) {{ Owner = #0 && C[i] = S }}
"
    ));
    assert!(with.is_symmetric());
}

/// The cutoff for the lock, by hand: g = 1 process-valued global that may point to a
/// process (`Owner`; `Home` is the extra id for ever: init puts it apart from every
/// process and no transition assigns it), step = 1 (one parameter, no quantifier, no
/// `any`), bad = 2 (`mutex (p q)`); c = g + max(k + step, bad) with k the most
/// processes of a lemma of the certificate (its variables).
#[test]
fn every_n_with_the_hand_derived_cutoff() {
    let m = model(LOCK);
    assert_eq!(
        cutoff::fragment(&m).unwrap(),
        cutoff::Fragment {
            pointers: 1,
            step: 1,
            bad: 2,
            standin: false,
            ints: false,
        }
    );
    let dir = common::scratch_dir("extra-every");
    let file = dir.join("lock.cub");
    std::fs::write(&file, LOCK).unwrap();
    let cert = dir.join("lock.cert");
    let f = file.to_str().unwrap();
    let c = cert.to_str().unwrap();
    let (code, out, err) = nfold(&["check", f, "--every-n", "--certificate", c]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("every n: holds for every n"), "{out}");
    let text = std::fs::read_to_string(&cert).unwrap();
    let k = text
        .lines()
        .filter_map(|l| l.strip_prefix("lemma forall distinct "))
        .map(|l| l.split('.').next().unwrap().split_whitespace().count())
        .max()
        .unwrap();
    let want = 1 + (k + 1).max(2);
    assert!(text.contains(&format!("every n cutoff {want}\n")), "{text}");
    let (code, out, err) = nfold(&["certify", f, c]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!(
            "the cutoff computed from the model and the lemmas is {want}"
        )),
        "{out}"
    );
    // A smaller cutoff written in the file is ignored; a lemma naming a process and a
    // dropped lemma are rejected.
    std::fs::write(
        &cert,
        text.replace(&format!("every n cutoff {want}"), "every n cutoff 1"),
    )
    .unwrap();
    let (code, out, _) = nfold(&["certify", f, c]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(&format!("is {want}")), "{out}");
    let named = text.replacen("#0", "#1", 1);
    std::fs::write(&cert, &named).unwrap();
    let (code, out, err) = nfold(&["certify", f, c]);
    assert_ne!(code, 0, "{out}{err}");
    let dropped: String = text
        .lines()
        .filter(|l| !l.contains("#0"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&cert, &dropped).unwrap();
    let (code, out, err) = nfold(&["certify", f, c]);
    assert_eq!(code, 1, "{out}{err}");
    // No mutant is proved for every n.
    for (i, src) in mutants().iter().enumerate() {
        std::fs::write(&file, src).unwrap();
        let (code, out, err) = nfold(&["check", f, "--every-n"]);
        assert_eq!(code, 1, "mutant {i}: {out}{err}");
        assert!(!out.contains("holds for every n"), "mutant {i}: {out}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// What the argument does not cover with the extra id is named: an index that may hold
/// it (a range error), and, as without it, an array of processes indexed by processes.
#[test]
fn the_cutoff_names_what_it_does_not_cover() {
    let e = cutoff::fragment(&model(&format!(
        "{LOCK}transition peek () requires {{ C[Owner] = S }} {{ Owner := Home; }}\n"
    )))
    .unwrap_err();
    assert!(
        e.what
            .contains("the array `C` is indexed by a term that may hold the extra process id"),
        "{}",
        e.what
    );
    // An array of processes indexed by processes is covered as a stand-in array
    // (tests/flash_ptr.rs) when its cells are compared with kept terms only (here the
    // `unsafe` parameter), and named otherwise (a universally quantified variable).
    let ptr = "var Home : proc\narray P[proc] : proc\ninit (p) { Home <> p && P[p] = Home }\n\
         transition t (i j) { P[i] := j; }\nunsafe (p) { P[p] = p }\n";
    assert!(cutoff::fragment(&model(ptr)).unwrap().standin);
    let e = cutoff::fragment(&model(&format!(
        "{ptr}transition u (i) requires {{ forall k. P[i] <> k }} {{ P[i] := Home; }}\n"
    )))
    .unwrap_err();
    assert!(e.what.contains("indexed by processes"), "{}", e.what);
    // A `proc` global that is assigned counts as a pointer, even one declared apart.
    let m = model(&LOCK.replace("Owner := i;", "Owner := i; Home := i;"));
    assert_eq!(cutoff::fragment(&m).unwrap().pointers, 2);
}

#[test]
fn command_line_warns_answers_and_replays() {
    let dir = common::scratch_dir("extra");
    let file = dir.join("lock_bug.cub");
    std::fs::write(&file, LOCK_BUG).unwrap();
    let trail = dir.join("trail.json");
    let f = file.to_str().unwrap();
    // The default engine answers by explicit search.
    let (code, out, err) = nfold(&["check", f, "--sizes", "1..3"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("one extra process id, 0"), "{err}");
    assert!(out.contains("VIOLATED"), "{out}");
    assert!(!out.contains("every n: holds"), "{out}");
    let (code, out, err) = nfold(&[
        "check",
        f,
        "--size",
        "2",
        "--engine",
        "explicit",
        "--trace-out",
        trail.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("Home=0"), "{out}");
    let (code, out, err) = nfold(&["replay", f, trail.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = nfold(&["check", f, "--size", "2", "--engine", "sat"]);
    assert_eq!(code, 1, "{out}{err}");
    for engine in ["ic3", "kind"] {
        let (code, out, err) = nfold(&["check", f, "--size", "2", "--engine", engine]);
        assert_eq!(code, 1, "{engine}: {out}{err}");
        assert!(out.contains("VIOLATED"), "{engine}: {out}");
    }
    // Liveness: a waiting process can be overtaken forever from n = 2 on, with and
    // without symmetry reduction, with and without weak fairness.
    let live = dir.join("lock_live.cub");
    std::fs::write(
        &live,
        format!("{LOCK}ltl served (i) {{ G (C[i] = W => F C[i] = S) }}\n"),
    )
    .unwrap();
    let l = live.to_str().unwrap();
    for extra in [
        &[][..],
        &["--no-symmetry"],
        &["--fair"],
        &["--fair", "--no-symmetry"],
    ] {
        let mut args = vec!["live", l, "--sizes", "1..3"];
        args.extend_from_slice(extra);
        let (code, out, err) = nfold(&args);
        assert_eq!(code, 1, "{extra:?}: {out}{err}");
        assert!(
            out.contains("violated at sizes 2..3; holds at size"),
            "{extra:?}: {out}"
        );
    }
    let (_, out, _) = nfold(&["info", f]);
    assert!(out.contains("the extra id 0"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}
