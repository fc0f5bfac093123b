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
    assert!(Compiled::new(&inst).interpreted().native().is_native());
}

/// The bytecode is built on every build (it needs no feature).
#[test]
fn bytecode_is_built_for_the_families() {
    let m = common::load(&common::family("peterson"));
    let inst = Instance::new(&m, 3);
    let b = Compiled::new(&inst).interpreted().bytecode();
    assert!(b.is_bytecode() && !b.is_native());
}
