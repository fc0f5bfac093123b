//! Abstract types and nondeterministic array updates in the model layer and the
//! explicit engine: symmetry reduction under permutations of data values (with and
//! without process permutations) against counts derived by hand and against brute-force
//! orbits of the reference interpreter's reachable states; the same verdicts and
//! shortest depths with reduction on and off; `A[i] := .` in the compiled evaluator
//! against the reference interpreter.

use crate::common;
use common::Rng;
use itertools::Itertools;
use nfold::explicit::reach::{ReachOptions, ReachResult, check_size};
use nfold::lang::{LoadOptions, load_str, load_str_with};
use nfold::model::canon::Symmetry;
use nfold::model::compiled::{Compiled, Outcome, Scratch};
use nfold::model::eval::{self, Fire};
use nfold::model::init::initial_states;
use nfold::model::instance::{Instance, State};
use nfold::model::ir::{Model, Ty};
use nfold::verdict::Kind as Verdict;
use std::collections::{HashSet, VecDeque};

/// A cache line per process: `C[i]` says process i holds a copy, `D[i]` is its data.
/// A copy is fetched from `Mem`, and `Mem` is written only when nobody holds a copy,
/// so a holder's data always equals `Mem`. The property reads two data cells (`D[z]`
/// and `Mem`), and nothing but the property compares data: d = 3 values.
///
/// Reachable states, counted by hand: every C; D[i] = Mem where C[i]; any D[i]
/// elsewhere; any Mem. With k holders that is d * d^(n-k) states, C(n, k) ways, so
/// d (d + 1)^n in all: 12, 48, 192 for n = 1, 2, 3 at d = 3.
const CACHE: &str = "type data\narray C[proc] : bool\narray D[proc] : data\nvar Mem : data\n\
                     init (z) { C[z] = False }\n\
                     transition fetch (i) requires { C[i] = False } { C[i] := True; D[i] := Mem; }\n\
                     transition drop (i) requires { C[i] = True } { C[i] := False; }\n\
                     transition write () requires { forall j. C[j] = False } { Mem := .; }\n\
                     unsafe (z) { C[z] = True && D[z] <> Mem }\n";

/// The same with a transition that names process 1 (`#1`) and changes nothing: the
/// family is no longer fully symmetric, so only data values are permuted.
const CACHE_ASYM: &str =
    "transition touch (i) requires { i = #1 && C[i] = True } { C[i] := True; }\n";

/// The bug: `Mem` is written while copies are held. Violated at depth 2 (fetch, write)
/// from n = 1 on.
const CACHE_BUG: &str = "type data\narray C[proc] : bool\narray D[proc] : data\nvar Mem : data\n\
                         init (z) { C[z] = False }\n\
                         transition fetch (i) requires { C[i] = False } { C[i] := True; D[i] := Mem; }\n\
                         transition drop (i) requires { C[i] = True } { C[i] := False; }\n\
                         transition write () { Mem := .; }\n\
                         unsafe (z) { C[z] = True && D[z] <> Mem }\n";

fn model(src: &str) -> Model {
    load_str("t.cub", src).unwrap_or_else(|e| panic!("{}", e.render()))
}

fn states(m: &Model, n: usize, symmetry: bool) -> ReachResult {
    let r = check_size(
        m,
        n,
        &ReachOptions {
            symmetry,
            ..Default::default()
        },
    );
    assert!(r.internal_errors.is_empty(), "{:?}", r.internal_errors);
    r
}

/// Reachable states by the reference interpreter.
fn reference_reach(inst: &Instance) -> Vec<State> {
    let mut seen: HashSet<State> = HashSet::new();
    let mut q: VecDeque<State> = initial_states(inst).unwrap().into();
    for s in &q {
        seen.insert(s.clone());
    }
    let mut order: Vec<State> = q.iter().cloned().collect();
    while let Some(s) = q.pop_front() {
        for (_, t) in eval::successors(inst, &s).0 {
            if seen.insert(t.clone()) {
                q.push_back(t.clone());
                order.push(t);
            }
        }
    }
    order
}

/// The action of a process permutation `pi` and a renaming `data` of the values of the
/// (single) abstract type, written from the definition: cells indexed by processes
/// move, process-valued cells are renamed, data-valued cells are renamed.
fn act(inst: &Instance, pi: &[i64], data: &[i64], st: &[i64]) -> State {
    let m = inst.model;
    let data_ty = Ty::Enum(m.data_types[0].enum_id);
    let mut out = st.to_vec();
    for (a, slot) in inst.slots.iter().enumerate() {
        let var = &m.vars[slot.var];
        let index: Vec<i64> = slot
            .index
            .iter()
            .zip(&var.dims)
            .map(|(&i, &t)| {
                if t == Ty::Proc {
                    pi[(i - 1) as usize]
                } else {
                    i
                }
            })
            .collect();
        let target = inst.slot_of(slot.var, &index).unwrap();
        out[target] = if var.ty == Ty::Proc {
            pi[(st[a] - 1) as usize]
        } else if var.ty == data_ty {
            data[st[a] as usize]
        } else {
            st[a]
        };
    }
    out
}

/// The number of orbits of `states` under the group generated by `procs` (process
/// permutations) times `datas` (renamings of data values), by brute force.
fn orbit_count(inst: &Instance, states: &[State], procs: &[Vec<i64>], datas: &[Vec<i64>]) -> usize {
    let reps: HashSet<State> = states
        .iter()
        .map(|s| {
            procs
                .iter()
                .cartesian_product(datas)
                .map(|(p, d)| act(inst, p, d, s))
                .min()
                .unwrap()
        })
        .collect();
    reps.len()
}

#[test]
fn reduced_counts_match_hand_counts() {
    let m = model(CACHE);
    let d = &m.data_types[0];
    assert_eq!(d.values, 3);
    assert!(d.symmetric && m.is_symmetric() && m.has_data_symmetry());
    // Without reduction: d (d + 1)^n.
    // With process and data permutations, counted by hand: an orbit is fixed by the
    // number k of holders and, among the n - k others, how many hold Mem's value (j)
    // and how the rest split into at most d - 1 = 2 other values up to order (an
    // integer partition of n - k - j into at most 2 parts: p(0) = 1, p(1) = 1,
    // p(2) = 2, p(3) = 2). f(m) = sum over j of p(m - j): f(0) = 1, f(1) = 2, f(2) = 4,
    // f(3) = 6; the orbit count is f(n) + ... + f(0): 3, 7, 13 for n = 1, 2, 3.
    for (n, plain, reduced) in [(1, 12, 3), (2, 48, 7), (3, 192, 13)] {
        let a = states(&m, n, false);
        let b = states(&m, n, true);
        assert!(!a.symmetry && b.symmetry);
        assert_eq!(a.stats.states, plain, "n={n} without symmetry");
        assert_eq!(b.stats.states, reduced, "n={n} with symmetry");
        assert_eq!(a.results[0].verdict.kind(), Verdict::Holds);
        assert_eq!(b.results[0].verdict.kind(), Verdict::Holds);
    }
    // Only data values permuted (the family is not fully symmetric), counted by hand:
    // no holder: set partitions of {Mem, D1, .., Dn} into at most 3 blocks; each holder
    // is tied to Mem's block. n = 2: 5 + 2 + 2 + 1 = 10; n = 3: 14 + 3 * 5 + 3 * 2 + 1
    // = 36. (Burnside agrees: (48 + 3 * 4) / 6 = 10 and (192 + 3 * 8) / 6 = 36.)
    let m = model(&format!("{CACHE}{CACHE_ASYM}"));
    assert!(!m.is_symmetric() && m.has_data_symmetry());
    for (n, plain, reduced) in [(1, 12, 3), (2, 48, 10), (3, 192, 36)] {
        assert_eq!(states(&m, n, false).stats.states, plain, "n={n}");
        assert_eq!(states(&m, n, true).stats.states, reduced, "n={n}");
    }
}

/// The reduced counts are the orbit counts of the reachable states (reference
/// interpreter, all process permutations times all renamings of the values), for the
/// two cache models and for every data value count from 1 to 4.
#[test]
fn reduced_counts_are_brute_force_orbit_counts() {
    for (src, proc_sym) in [
        (CACHE.to_string(), true),
        (format!("{CACHE}{CACHE_ASYM}"), false),
    ] {
        for d in 1..=4 {
            let m = load_str_with(
                "t.cub",
                &src,
                &LoadOptions {
                    data_values: Some(d),
                    ..Default::default()
                },
            )
            .unwrap();
            for n in 1..=3 {
                let inst = Instance::new(&m, n);
                let reach = reference_reach(&inst);
                // d (d + 1)^n, as above.
                assert_eq!(reach.len(), d * (d + 1).pow(n as u32), "d={d} n={n}");
                let procs: Vec<Vec<i64>> = if proc_sym {
                    (1..=n as i64).permutations(n).collect()
                } else {
                    vec![(1..=n as i64).collect()]
                };
                let datas: Vec<Vec<i64>> = (0..d as i64).permutations(d).collect();
                let want = orbit_count(&inst, &reach, &procs, &datas);
                assert_eq!(
                    states(&m, n, true).stats.states,
                    want,
                    "d={d} n={n} {proc_sym}"
                );
                assert_eq!(states(&m, n, false).stats.states, reach.len());
            }
        }
    }
}

/// Canonical forms are invariant under process permutations and renamings of the
/// values, and lie in the orbit.
#[test]
fn canonical_forms_under_data_and_process_permutations() {
    // Two abstract types, one of them in a process-indexed array beside a
    // process-valued one (the general canonicalisation path).
    let src = "type a\ntype b\nvar X : a\nvar P : proc\narray A[proc] : a\narray B[proc] : b\n\
               array Nx[proc] : proc\ninit () { true }\n";
    let m = load_str_with(
        "t.cub",
        src,
        &LoadOptions {
            data_values: Some(3),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(m.data_types.len(), 2);
    let mut rng = Rng(99);
    for n in 1..=4 {
        let inst = Instance::new(&m, n);
        let sym = Symmetry::for_search(&inst, true).unwrap();
        assert!(sym.permutes_data());
        let procs: Vec<Vec<i64>> = (1..=n as i64).permutations(n).collect();
        let datas: Vec<Vec<i64>> = (0..3).permutations(3).collect();
        let mut buf = nfold::model::canon::CanonBuf::default();
        for round in 0..200 {
            let mut st: State = inst.slots.iter().map(|s| rng.range(s.lo, s.hi)).collect();
            if round % 2 == 0 {
                for (v, s) in st.iter_mut().zip(&inst.slots) {
                    if rng.range(0, 2) > 0 {
                        *v = s.lo;
                    }
                }
            }
            let c = sym.canonical_state(&st);
            let mut into = vec![0; st.len()];
            sym.canonical_into(&st, &mut into, &mut buf);
            assert_eq!(into, c);
            // Invariant under a random element of the group (both types renamed).
            let pi = &procs[rng.range(0, procs.len() as i64 - 1) as usize];
            let da = &datas[rng.range(0, 5) as usize];
            let db = &datas[rng.range(0, 5) as usize];
            let mut moved = vec![0; st.len()];
            sym.apply(pi, &st, &mut moved);
            let mut renamed = vec![0; st.len()];
            sym.relabel_data(&[da.clone(), db.clone()], &moved, &mut renamed);
            assert_eq!(sym.canonical_state(&renamed), c, "n={n}");
            // In the orbit.
            if n <= 3 {
                let found = procs.iter().any(|p| {
                    datas.iter().cartesian_product(&datas).any(|(x, y)| {
                        let mut t = vec![0; st.len()];
                        sym.apply(p, &st, &mut t);
                        let mut u = vec![0; st.len()];
                        sym.relabel_data(&[x.clone(), y.clone()], &t, &mut u);
                        u == c
                    })
                });
                assert!(found, "n={n}: representative not in the orbit");
            }
        }
    }
}

/// Reduction on and off give the same verdicts and the same shortest depths.
#[test]
fn same_verdicts_with_and_without_data_symmetry() {
    let bug = model(CACHE_BUG);
    let bug_asym = model(&format!("{CACHE_BUG}{CACHE_ASYM}"));
    for m in [&bug, &bug_asym] {
        for n in 1..=3 {
            let a = states(m, n, false);
            let b = states(m, n, true);
            for r in [&a, &b] {
                assert_eq!(r.results[0].verdict.kind(), Verdict::Violated, "n={n}");
                assert_eq!(r.results[0].depth(), Some(2), "n={n}");
                assert!(r.results[0].trace().is_some());
            }
        }
    }
    let ok = model(CACHE);
    for n in 1..=3 {
        assert_eq!(
            states(&ok, n, false).results[0].verdict.kind(),
            Verdict::Holds
        );
        assert_eq!(
            states(&ok, n, true).results[0].verdict.kind(),
            Verdict::Holds
        );
    }
}

fn compare_on(inst: &Instance, compiled: &Compiled, st: &State) {
    let mut sc = Scratch::default();
    for (k, ct) in compiled.trans.iter().enumerate() {
        let mut got = Vec::new();
        let mut work = st.clone();
        let out = compiled.fire(k, &mut work, &mut sc, &mut |_, s, _| got.push(s.to_vec()));
        assert_eq!(&work, st);
        match (eval::fire(inst, st, ct.trans, &ct.params), out) {
            (Fire::Disabled, Outcome::Disabled) | (Fire::Error(_), Outcome::Fault) => {}
            (Fire::Enabled(v), Outcome::Enabled(c)) => {
                assert_eq!(v.len(), c);
                let want: Vec<State> = v.into_iter().map(|x| x.1).collect();
                assert_eq!(want, got, "{st:?} {} {:?}", ct.trans, ct.params);
            }
            (r, c) => panic!("reference {r:?} vs compiled {c:?} on {st:?}"),
        }
    }
}

/// `A[i] := .` (any value of the cell's type): the compiled evaluator agrees with the
/// reference interpreter, including range errors and cells chosen by a computed index.
#[test]
fn array_cell_choices_in_the_compiled_evaluator() {
    let m = model(
        "type data\narray A[proc] : 0 .. 2\narray C[proc, proc] : bool\narray D[proc] : data\n\
         init (z) { A[z] = 0 }\n\
         transition r (i) { A[i] := .; }\n\
         transition s (i j) requires { A[i] = 1 } { C[i, j] := .; A[j] := 1; D[j] := .; }\n\
         transition bad (i) requires { A[i] = 2 } { A[i + 1] := .; }\n\
         transition dyn (i) requires { A[i] <> 1 } { A[A[i] - 1] := .; }\n\
         unsafe (z1 z2) { A[z1] = 2 && A[z2] = 2 }",
    );
    let mut rng = Rng(5);
    for n in 1..=3 {
        let inst = Instance::new(&m, n);
        let compiled = Compiled::new(&inst);
        for st in reference_reach(&inst).iter().take(3000) {
            compare_on(&inst, &compiled, st);
        }
        for _ in 0..300 {
            let st: State = inst.slots.iter().map(|s| rng.range(s.lo, s.hi)).collect();
            compare_on(&inst, &compiled, &st);
        }
    }
}

/// Hand counts for `A[i] := .` alone: every A in 0..2 is reachable, 3^n states; with
/// symmetry, the multisets of n values out of 3: 6 for n = 2, 10 for n = 3. Two
/// processes at 2 are reached in two steps.
#[test]
fn array_cell_choices_in_the_explicit_engine() {
    let m = model(
        "array A[proc] : 0 .. 2\ninit (z) { A[z] = 0 }\ntransition r (i) { A[i] := .; }\n\
         unsafe (z1 z2) { A[z1] = 2 && A[z2] = 2 }",
    );
    let m_safe = model(
        "array A[proc] : 0 .. 2\ninit (z) { A[z] = 0 }\ntransition r (i) { A[i] := .; }\n\
         unsafe (z) { A[z] = 3 }",
    );
    for (n, plain, reduced) in [(1, 3, 3), (2, 9, 6), (3, 27, 10)] {
        assert_eq!(states(&m_safe, n, false).stats.states, plain);
        assert_eq!(states(&m_safe, n, true).stats.states, reduced);
        if n >= 2 {
            for sym in [false, true] {
                let r = states(&m, n, sym);
                assert_eq!(r.results[0].verdict.kind(), Verdict::Violated);
                assert_eq!(r.results[0].depth(), Some(2));
            }
        }
    }
}

/// A proof on a model with an abstract type: the certificate names data values `d1`,
/// `d2`, ..., which `nfold certify` reads back (and refuses beyond the values used);
/// `--every-n` proves the cache for every n (the invariant "a holder's data equals
/// `Mem`" mentions one process).
#[test]
fn certificates_name_data_values() {
    let bin = env!("CARGO_BIN_EXE_nfold");
    let dir = std::env::temp_dir().join(format!("nfold-data-cert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cache.cub");
    std::fs::write(&file, CACHE).unwrap();
    let cert = dir.join("cache.cert");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(bin).args(args).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let f = file.to_str().unwrap();
    let c = cert.to_str().unwrap();
    let (code, text) = run(&[
        "check",
        f,
        "--sizes",
        "1..3",
        "--engine",
        "ic3",
        "--certificate",
        c,
    ]);
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = run(&["certify", f, c]);
    assert_eq!(code, Some(0), "{text}");
    let written = std::fs::read_to_string(&cert).unwrap();
    // The lemmas are data-value cubes such as `D[i] = d1 && Mem = d2`.
    assert!(written.contains("Mem = d2"), "{written}");
    std::fs::write(&cert, written.replace("d2", "d9")).unwrap();
    let (code, text) = run(&["certify", f, c]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("`d9` is not a value of `data`"), "{text}");
    let (code, text) = run(&["check", f, "--every-n"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("holds for every n"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}
