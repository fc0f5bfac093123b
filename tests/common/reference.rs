//! Oracles written from the definitions on top of the reference interpreter
//! (`model::eval`), independent of the engines' own machinery: breadth-first reachable
//! states, the action of a process permutation (and a renaming of abstract values) on
//! a state, and the compiled evaluator compared with the interpreter on one state.

use nfold::model::compiled::{Compiled, Outcome, Scratch};
use nfold::model::eval::{self, Fire};
use nfold::model::init::initial_states;
use nfold::model::instance::{Instance, State};
use nfold::model::ir::Ty;
use std::collections::{HashSet, VecDeque};

/// Reachable states by the reference interpreter, in breadth-first order; the search
/// stops once more than `cap` are found (small instances: `usize::MAX`, all of them).
pub fn reference_reach(inst: &Instance, cap: usize) -> Vec<State> {
    let mut seen: HashSet<State> = HashSet::new();
    let mut order = Vec::new();
    let mut q = VecDeque::new();
    for s in initial_states(inst).unwrap() {
        if seen.insert(s.clone()) {
            q.push_back(s.clone());
            order.push(s);
        }
    }
    while let Some(s) = q.pop_front() {
        if order.len() > cap {
            break;
        }
        for (_, t) in eval::successors(inst, &s).0 {
            if seen.insert(t.clone()) {
                q.push_back(t.clone());
                order.push(t);
            }
        }
    }
    order
}

/// The action of a process permutation `pi` and, when given, a renaming `data` of the
/// values of the model's (first) abstract type, written from the definition
/// independently of `canon`: cells indexed by processes move, process-valued cells are
/// renamed, data-valued cells are renamed.
pub fn act(inst: &Instance, pi: &[i64], data: Option<&[i64]>, st: &[i64]) -> State {
    let m = inst.model;
    let data = data.map(|d| (Ty::Enum(m.data_types[0].enum_id), d));
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
        out[target] = match data {
            _ if var.ty == Ty::Proc => pi[(st[a] - 1) as usize],
            Some((ty, d)) if var.ty == ty => d[st[a] as usize],
            _ => st[a],
        };
    }
    out
}

/// The permutation action of `pi` alone (`act` without renaming abstract values).
pub fn permute(inst: &Instance, pi: &[i64], st: &[i64]) -> State {
    act(inst, pi, None, st)
}

/// The compiled evaluator agrees with the reference interpreter on `st`: every
/// transition instance (disabled, faulting, or the same successors in the same order,
/// the state restored) and every `unsafe` property.
pub fn compare_on(inst: &Instance, compiled: &Compiled, st: &State) {
    let mut sc = Scratch::default();
    for (k, ct) in compiled.trans.iter().enumerate() {
        let mut got = Vec::new();
        let mut work = st.clone();
        let out = compiled.fire(k, &mut work, &mut sc, &mut |_, s, _| got.push(s.to_vec()));
        assert_eq!(&work, st, "fire must restore the state");
        match (eval::fire(inst, st, ct.trans, &ct.params), out) {
            (Fire::Disabled, Outcome::Disabled) => {}
            (Fire::Error(_), Outcome::Fault) => {}
            (Fire::Enabled(v), Outcome::Enabled(c)) => {
                assert_eq!(v.len(), c);
                let want: Vec<State> = v.into_iter().map(|x| x.1).collect();
                assert_eq!(want, got, "successors of {st:?} by {:?}", ct.params);
            }
            (r, c) => panic!(
                "reference {r:?} vs compiled {c:?} on {st:?}, transition {} {:?}",
                ct.trans, ct.params
            ),
        }
    }
    for (u, cp) in compiled.props.iter().enumerate() {
        let r = eval::violation(inst, st, &inst.model.unsafes[u]);
        let c = cp.check(st);
        match (r, c) {
            (Ok(None), Ok(None)) | (Err(_), Err(_)) => {}
            (Ok(Some(t)), Ok(Some(k))) => assert_eq!(t, cp.tuples[k]),
            (r, c) => panic!("property {u}: reference {r:?} vs compiled {c:?} on {st:?}"),
        }
    }
}
