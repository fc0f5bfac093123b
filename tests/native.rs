//! The native code of the explicit engine (`model::compiled`, built with the `jit`
//! feature) and its register bytecode (`--compile bytecode`) against the interpreter
//! they replace, on every shipped family: every
//! transition instance fired on the same state gives the same outcome (range errors
//! included), the same successors in the same order and the same writes. States: the
//! first reachable ones in breadth-first order, then random valuations (which meet the
//! range errors reachable states rarely meet). The generated models get the same check
//! in `generated.rs` (`check_compiled`).

use crate::common;

use common::Rng;
use nfold::model::compiled::Compiled;
use nfold::model::init::for_each_initial;
use nfold::model::instance::Instance;
use nfold::model::ir::Model;
use std::collections::{HashSet, VecDeque};

/// Reachable states checked per family and size.
const REACHABLE: usize = 1500;
/// Random valuations checked per family and size.
const RANDOM: usize = 300;

/// Check native and bytecode against interpreted successors on `m` at size `n`; `Err`
/// names the first disagreement.
fn agree(m: &Model, n: usize, rng: &mut Rng) -> Result<(), String> {
    let inst = Instance::new(m, n);
    if !inst.has_states() {
        return Ok(());
    }
    let interp = Compiled::new(&inst);
    let native = interp.interpreted().native();
    let bytecode = interp.interpreted().bytecode();
    let both = |st: &[i64]| -> Result<(), String> {
        native.agrees_with(&interp, st)?;
        bytecode
            .agrees_with(&interp, st)
            .map_err(|e| format!("bytecode: {e}"))
    };
    let mut queue: VecDeque<Vec<i64>> = VecDeque::new();
    let mut seen: HashSet<Vec<i64>> = HashSet::new();
    let _ = for_each_initial(&inst, &mut |st| {
        if seen.insert(st.to_vec()) {
            queue.push_back(st.to_vec());
        }
        seen.len() < REACHABLE
    });
    let mut checked = 0;
    while let Some(mut st) = queue.pop_front() {
        both(&st)?;
        checked += 1;
        if checked >= REACHABLE {
            break;
        }
        let mut sc = nfold::model::compiled::Scratch::default();
        interp.each_successor(&mut st, &mut sc, &mut |next| {
            if seen.len() < 4 * REACHABLE && seen.insert(next.to_vec()) {
                queue.push_back(next.to_vec());
            }
        });
    }
    for _ in 0..RANDOM {
        let st: Vec<i64> = inst
            .slots
            .iter()
            .map(|s| rng.range(s.lo, s.hi.max(s.lo)))
            .collect();
        both(&st)?;
    }
    Ok(())
}

#[test]
fn native_code_agrees_with_the_interpreter_on_families() {
    let mut rng = Rng::new(46);
    for (name, m) in common::families() {
        for n in 1..=4 {
            if let Err(e) = agree(&m, n, &mut rng) {
                panic!("{name}, size {n}: {e}");
            }
        }
    }
}

/// The native code is there when the feature is built (this test would otherwise
/// compare the interpreter with itself).
#[cfg(feature = "jit")]
#[test]
fn native_code_is_built_for_the_families() {
    let m = common::load(&common::family("peterson"));
    let inst = Instance::new(&m, 3);
    let native = Compiled::new(&inst).interpreted().native();
    assert!(native.is_native());
    // the one property, `mutex`
    assert_eq!(native.native_props(), 1);
}

/// A tiered search (`--compile auto`, the default) runs the interpreter until its
/// countdown of expanded states ends, then native code: it is not native before and is
/// after, mid-search.
#[cfg(feature = "jit")]
#[test]
fn a_tiered_search_compiles_when_its_countdown_ends() {
    let m = common::load(&common::family("peterson"));
    let inst = Instance::new(&m, 3);
    let tiered = Compiled::new(&inst).tiered(3);
    let st = vec![0; inst.slots.len()];
    let mut out = Vec::new();
    for _ in 0..2 {
        tiered.candidates(&st, &mut out);
        assert!(!tiered.is_native());
    }
    tiered.candidates(&st, &mut out);
    assert!(tiered.is_native());
}

/// Every `--compile` mode stores the same states and fires the same transitions, on one
/// thread and on two, where the search passes the tiered countdown (16,384 states) and
/// so switches from the interpreter to native code mid-search. The state counts are
/// those of `cli.rs` (`COUNTS`).
#[test]
fn every_compile_mode_gives_the_same_search() {
    for (fam, n, states) in [("peterson", "5", 386_800u64), ("german", "4", 566_892)] {
        let f = common::family(fam);
        let mut seen = Vec::new();
        for compile in ["interp", "jit", "auto"] {
            for threads in ["1", "2"] {
                let (code, v) = common::json_run(&[
                    "check",
                    &f,
                    "--size",
                    n,
                    "--engine",
                    "explicit",
                    "--no-symmetry",
                    "--compile",
                    compile,
                    "--threads",
                    threads,
                ]);
                assert_eq!(code, 0, "{fam} {compile} {threads}");
                let r = &v["results"][0];
                assert_eq!(
                    r["states"].as_u64(),
                    Some(states),
                    "{fam} {compile} {threads}"
                );
                seen.push(r["transitions"].as_u64().expect("transitions"));
            }
        }
        assert!(seen.iter().all(|&t| t == seen[0]), "{fam}: {seen:?}");
    }
}

/// The bytecode is built on every build (it needs no feature).
#[test]
fn bytecode_is_built_for_the_families() {
    let m = common::load(&common::family("peterson"));
    let inst = Instance::new(&m, 3);
    let b = Compiled::new(&inst).interpreted().bytecode();
    assert!(b.is_bytecode() && !b.is_native());
}
