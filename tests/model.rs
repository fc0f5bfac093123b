//! Model-layer tests on every shipped family: the compiled evaluator agrees with the
//! reference interpreter, the permutation action agrees with an independent
//! definition, canonical representatives are orbit invariants, and the explicit
//! engine's counts equal brute-force counts (all n! permutations) of the reference BFS.

use crate::common;
use common::reference::{compare_on, permute, reference_reach};
use common::{Rng, families};
use itertools::Itertools;
use nfold::explicit::reach::{ReachOptions, check_size};
use nfold::model::canon::Symmetry;
use nfold::model::compiled::Compiled;
use nfold::model::instance::{Instance, State};
use std::collections::HashSet;

fn random_state(inst: &Instance, rng: &mut Rng) -> State {
    inst.slots.iter().map(|s| rng.range(s.lo, s.hi)).collect()
}

#[test]
fn compiled_evaluator_agrees_with_reference_interpreter() {
    let mut rng = Rng(0x5EED_1234);
    for (name, m) in families() {
        for n in 1..=4 {
            let inst = Instance::new(&m, n);
            let compiled = Compiled::new(&inst);
            for st in reference_reach(&inst, 3000) {
                compare_on(&inst, &compiled, &st);
            }
            for _ in 0..300 {
                let st = random_state(&inst, &mut rng);
                compare_on(&inst, &compiled, &st);
            }
            let _ = &name;
        }
    }
}

#[test]
fn permutation_action_and_canonical_forms() {
    let mut rng = Rng(42);
    for (name, m) in families() {
        if !m.is_symmetric() {
            continue;
        }
        for n in 2..=5 {
            let inst = Instance::new(&m, n);
            let sym = Symmetry::new(&inst);
            let perms: Vec<Vec<i64>> = (1..=n as i64).permutations(n).collect();
            let mut buf = vec![0; inst.slots.len()];
            for _ in 0..200 {
                let st = random_state(&inst, &mut rng);
                let pi = &perms[rng.range(0, perms.len() as i64 - 1) as usize];
                sym.apply(pi, &st, &mut buf);
                assert_eq!(buf, permute(&inst, pi, &st), "{name} n={n}");
                let (c, by) = sym.canonical(&st);
                assert_eq!(
                    permute(&inst, &by, &st),
                    c,
                    "{name}: representative not in the orbit"
                );
                assert_eq!(
                    sym.canonical_state(&buf),
                    c,
                    "{name} n={n}: not invariant under {pi:?}"
                );
            }
        }
    }
}

#[test]
fn symmetric_counts_are_orbit_counts_and_plain_counts_match_reference_bfs() {
    for (name, m) in families() {
        for n in 1..=4 {
            let inst = Instance::new(&m, n);
            let reach = reference_reach(&inst, 50_000);
            if reach.len() > 50_000 {
                continue; // too big for brute force; pinned from tests/oracle in tests/cli.rs
            }
            let opts = ReachOptions {
                props: Some(Vec::new()),
                ..Default::default()
            };
            let plain = check_size(&m, n, &opts);
            assert!(plain.complete);
            assert_eq!(
                plain.stats.states,
                reach.len(),
                "{name} n={n} without symmetry"
            );
            if !m.is_symmetric() {
                continue;
            }
            let orbits: HashSet<State> = reach
                .iter()
                .map(|s| {
                    (1..=n as i64)
                        .permutations(n)
                        .map(|pi| permute(&inst, &pi, s))
                        .min()
                        .unwrap()
                })
                .collect();
            let reduced = check_size(
                &m,
                n,
                &ReachOptions {
                    symmetry: true,
                    ..opts.clone()
                },
            );
            assert_eq!(
                reduced.stats.states,
                orbits.len(),
                "{name} n={n} with symmetry"
            );
        }
    }
}

/// The general canonicalisation path (process-valued arrays indexed by processes, a
/// process-valued `[proc, proc]` array, pointers) on random states, including states
/// with many equal blocks.
#[test]
fn canonical_forms_with_process_valued_arrays() {
    let m = nfold::lang::load_str(
        "t.cub",
        "type s = A | B\nvar P : proc\narray Next[proc] : proc\narray L[proc] : s\n\
         array M[proc, proc] : proc\narray V[1 .. 3] : proc\ninit () { true }",
    )
    .unwrap();
    assert!(m.is_symmetric());
    let mut rng = Rng(7);
    for n in 2..=5 {
        let inst = Instance::new(&m, n);
        let sym = Symmetry::new(&inst);
        let perms: Vec<Vec<i64>> = (1..=n as i64).permutations(n).collect();
        for round in 0..300 {
            let mut st = random_state(&inst, &mut rng);
            if round % 2 == 0 {
                // Mostly uniform states: many ties for the refinement to break.
                for (v, slot) in st.iter_mut().zip(&inst.slots) {
                    if rng.range(0, 3) > 0 {
                        *v = slot.lo;
                    }
                }
            }
            let (c, by) = sym.canonical(&st);
            assert_eq!(permute(&inst, &by, &st), c);
            let pi = &perms[rng.range(0, perms.len() as i64 - 1) as usize];
            assert_eq!(sym.canonical_state(&permute(&inst, pi, &st)), c, "n={n}");
            // The representative is the least image over the whole orbit only in the
            // sorted cases; in general it is some fixed member, the same for the orbit.
            if n <= 3 {
                let orbit: HashSet<State> = perms.iter().map(|p| permute(&inst, p, &st)).collect();
                assert!(orbit.contains(&c));
            }
        }
    }
}

/// Canonical forms under the stabiliser of process 1 (used for LTL properties about
/// process 1): the permutation found fixes process 1, the representative is invariant
/// under every permutation fixing 1, and over all reachable states the number of
/// representatives is the number of orbits of that subgroup (brute force), for both the
/// sorting and the general canonicalisation paths.
#[test]
fn canonical_forms_under_the_stabiliser_of_process_one() {
    let extra = nfold::lang::load_str(
        "t.cub",
        "type s = A | B\nvar P : proc\narray Next[proc] : proc\narray L[proc] : s\n\
         array M[proc, proc] : bool\ninit (z) { L[z] = A && Next[z] = z && P = z && M[z,z] = False }\n\
         transition t (i j) requires { L[i] = A } { L[i] := B; Next[i] := j; M[i,j] := True; P := j; }\n\
         transition u (i) requires { L[i] = B } { L[i] := A; }\n\
         unsafe (z) { L[z] = B && P = z && Next[z] = z }",
    )
    .unwrap();
    let mut all = families();
    all.push(("extra".into(), extra));
    let mut rng = Rng(11);
    for (name, m) in all {
        if !m.is_symmetric() {
            assert_ne!(name, "extra");
            continue;
        }
        for n in 2..=4 {
            let inst = Instance::new(&m, n);
            let sym = Symmetry::new(&inst).fixing_first();
            let stab: Vec<Vec<i64>> = (1..=n as i64)
                .permutations(n)
                .filter(|p| p[0] == 1)
                .collect();
            for _ in 0..100 {
                let st = random_state(&inst, &mut rng);
                let (c, by) = sym.canonical(&st);
                assert_eq!(by[0], 1, "{name} n={n}: process 1 moved");
                assert_eq!(permute(&inst, &by, &st), c);
                let pi = &stab[rng.range(0, stab.len() as i64 - 1) as usize];
                assert_eq!(sym.canonical_state(&permute(&inst, pi, &st)), c);
            }
            let reach = reference_reach(&inst, 20_000);
            if reach.len() > 20_000 {
                continue;
            }
            let orbits: HashSet<State> = reach
                .iter()
                .map(|s| stab.iter().map(|pi| permute(&inst, pi, s)).min().unwrap())
                .collect();
            let reps: HashSet<State> = reach.iter().map(|s| sym.canonical_state(s)).collect();
            assert_eq!(reps.len(), orbits.len(), "{name} n={n}");
        }
    }
}
