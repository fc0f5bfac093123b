//! Counterexamples from a search's stack: the real path along it, a finite trace to a
//! range error, and the lasso of a cycle found by the nested search, unfolded under
//! symmetry by the permutation between the fragment's ends (the proof of Theorem 2 of
//! D. Bošnački, *A Light-weight Algorithm for Model Checking with Symmetry Reduction and
//! Weak Fairness*, SPIN 2003).
//!
//! A record starts with the real state (`w` words), then `kw` words of key, the
//! automaton state and `via`, whatever follows.
//!
//! With dead cells (`model::dead`) the searches walk the normalized system: every state
//! has its dead cells at their fillers. Paths along records are rebuilt in that system
//! (`Expander::settle` after each step), and `realize` turns the result into a run of
//! the instance: a real initial state of the same class, the same steps fired on it,
//! and the cycle repeated until it closes exactly. One more turn always suffices: the
//! real run's states stay equal to the normalized ones up to dead cells, a turn writes
//! the same cells with values read from live cells only, and a cell it does not write
//! keeps its value, so the second turn ends where the first ended.

use super::expand::{Expander, STUTTER};
use crate::explicit::steps::step_for;
use crate::lasso::Lasso;
use crate::model::dead::Dead;
use crate::model::eval::{self, Fire, Step};
use crate::model::init::for_each_initial;
use crate::model::instance::Instance;
use crate::model::instance::{State, last_state};
use crate::trace::{RangeSite, Trace, Violation};

/// `via` of a record with `kw` words of key.
pub(super) fn via_of(x: &Expander, kw: usize, rec: &[u64]) -> u64 {
    rec[x.w + kw + 1]
}

/// The real states and steps along a path of records (stutters dropped, as they do not
/// move the system), from `recs[0]`.
pub(super) fn real_path(
    x: &Expander,
    kw: usize,
    recs: &[&[u64]],
) -> Result<(Vec<State>, Vec<Step>), String> {
    let w = x.w;
    let mut st: State = vec![0; x.inst.slots.len()];
    x.inst.unpack(&recs[0][..w], &mut st);
    let mut states = vec![st];
    let mut steps = Vec::new();
    for r in &recs[1..] {
        let via = via_of(x, kw, r);
        if via == STUTTER {
            continue;
        }
        let (k, c) = ((via >> 32) as usize, (via & 0xFFFF_FFFF) as usize);
        let (step, mut next) = step_for(x.inst, x.compiled, last_state(&states), k, c)?;
        x.settle(&mut next);
        let mut expect = vec![0; x.inst.slots.len()];
        x.inst.unpack(&r[..w], &mut expect);
        if next != expect {
            return Err("a recorded step leads elsewhere".into());
        }
        steps.push(step);
        states.push(next);
    }
    Ok((states, steps))
}

/// A finite trace to a range error (or a store leaving the int window) met at the last
/// of `recs` (or at its successor `next`: real state and via).
pub(super) fn range_trace(
    x: &Expander,
    rw: usize,
    kw: usize,
    recs: &[&[u64]],
    next: Option<Vec<u64>>,
    site: RangeSite,
) -> Result<Trace, String> {
    let mut recs = recs.to_vec();
    let extra: Vec<u64>;
    if let Some(nx) = next {
        // `nx` is the successor's real state and its via; widen it to a record.
        let w = x.w;
        let mut r = nx[..w].to_vec();
        r.resize(w + kw + 1, 0);
        r.push(nx[w]);
        r.resize(rw, 0);
        extra = r;
        recs.push(&extra);
    }
    let (mut states, steps) = real_path(x, kw, &recs)?;
    if let Some(d) = &x.dead {
        let init = realize_init(x.inst, d, &states[0])?;
        states = fire_all(x.inst, init, &steps)?;
    }
    let last = last_state(&states);
    let message = match &site {
        RangeSite::Transition { trans, params } => match eval::fire(x.inst, last, *trans, params) {
            Fire::Error(e) if e.is_int_bound() => {
                let t = Trace {
                    size: x.n,
                    init: states[0].clone(),
                    steps,
                    violation: Violation::IntBound {
                        trans: *trans,
                        params: params.clone(),
                        message: e.message,
                    },
                };
                t.replay(x.inst.model)?;
                return Ok(t);
            }
            Fire::Error(e) => e.message,
            _ => return Err("the reference interpreter meets no range error".into()),
        },
        RangeSite::Ltl { prop, process } => {
            crate::trace::ltl_atoms_error(x.inst, last, *prop, *process)
                .ok_or("the reference interpreter meets no range error")?
                .message
        }
        _ => return Err("unexpected range error site".into()),
    };
    let t = Trace {
        size: x.n,
        init: states[0].clone(),
        steps,
        violation: Violation::Range { site, message },
    };
    t.replay(x.inst.model)?;
    Ok(t)
}

/// Compose permutations: `(a ∘ b)(p) = a(b(p))`.
pub(super) fn compose(a: &[i64], b: &[i64]) -> Vec<i64> {
    b.iter().map(|&x| a[(x - 1) as usize]).collect()
}

pub(super) fn invert(a: &[i64]) -> Vec<i64> {
    let mut inv = vec![0; a.len()];
    for (p, &x) in a.iter().enumerate() {
        inv[(x - 1) as usize] = p as i64 + 1;
    }
    inv
}

/// The lasso that ends in the deadlock reached at the first stutter of `recs`, if any
/// (a stutter means the run has reached a deadlock, which repeats forever).
pub(super) fn deadlock_lasso(
    x: &Expander,
    kw: usize,
    recs: &[&[u64]],
    fair: bool,
) -> Option<Result<Lasso, String>> {
    let i = recs
        .iter()
        .skip(1)
        .position(|r| via_of(x, kw, r) == STUTTER)?;
    Some(real_path(x, kw, &recs[..=i]).map(|(states, steps)| Lasso {
        size: x.n,
        prop: x.prop,
        process: x.process,
        init: states[0].clone(),
        loop_start: steps.len(),
        steps,
        fair,
    }))
}

/// Build the lasso of a found cycle: the records from an initial node to the node that
/// closes the cycle, and the index of the record where the cycle's fragment starts.
/// Under symmetry the closing state may be a permuted image π(t) of the fragment's
/// start t; the fragment is then repeated under π, π², … until it returns to t.
pub(super) fn build_lasso(
    x: &Expander,
    kw: usize,
    recs: &[&[u64]],
    start: usize,
    fair: bool,
) -> Result<Lasso, String> {
    if let Some(l) = deadlock_lasso(x, kw, recs, fair) {
        return l;
    }
    let (stem_states, stem_steps) = real_path(x, kw, &recs[..=start])?;
    let (frag_states, frag_steps) = real_path(x, kw, &recs[start..])?;
    let t = frag_states[0].clone();
    let end = last_state(&frag_states).clone();
    if frag_steps.is_empty() {
        return Err("the cycle has no step".into());
    }
    let mut steps = stem_steps;
    let loop_start = steps.len();
    if end == t {
        steps.extend(frag_steps);
    } else {
        let sym = x
            .sym
            .as_ref()
            .ok_or("the cycle does not close without symmetry")?;
        let (ct, pt) = sym.canonical(&t);
        let (ce, pe) = sym.canonical(&end);
        if ct != ce {
            return Err("the cycle's ends are not symmetric".into());
        }
        // end = pe⁻¹(pt(t))
        let pi = compose(&invert(&pe), &pt);
        let mut power: Vec<i64> = (1..=x.n as i64).collect();
        let mut cur = t.clone();
        let mut img = vec![0; t.len()];
        for _round in 0..10_000 {
            for (k, step) in frag_steps.iter().enumerate() {
                sym.apply(&power, &frag_states[k + 1], &mut img);
                // A process-valued filler is permuted too: settle it back.
                x.settle(&mut img);
                let params: Vec<i64> = step
                    .params
                    .iter()
                    .map(|&p| power[(p - 1) as usize])
                    .collect();
                let st = settled_step_to(x, &cur, step.trans, &params, &img)
                    .ok_or("a permuted step of the cycle does not fire")?;
                steps.push(st);
                cur = img.clone();
            }
            if cur == t {
                break;
            }
            power = compose(&pi, &power);
        }
        if cur != t {
            return Err("the unfolded cycle does not return".into());
        }
    }
    Ok(Lasso {
        size: x.n,
        prop: x.prop,
        process: x.process,
        init: stem_states[0].clone(),
        steps,
        loop_start,
        fair,
    })
}

/// The reference interpreter's step of transition `trans` with `params` from `st` to
/// `target` in the system the search walks (successors with their dead cells settled).
fn settled_step_to(
    x: &Expander,
    st: &[i64],
    trans: usize,
    params: &[i64],
    target: &[i64],
) -> Option<Step> {
    match eval::fire(x.inst, st, trans, params) {
        Fire::Enabled(v) => v.into_iter().find_map(|(choices, mut s2)| {
            x.settle(&mut s2);
            (s2 == target).then(|| Step {
                trans,
                params: params.to_vec(),
                choices,
            })
        }),
        _ => None,
    }
}

/// An initial state of the instance whose dead cells settle to `st` (`st` itself when
/// it is initial).
pub(super) fn realize_init(inst: &Instance, dead: &Dead, st: &[i64]) -> Result<State, String> {
    if eval::satisfies_init(inst, st) == Ok(true) {
        return Ok(st.to_vec());
    }
    let mut found = None;
    let mut c = Vec::new();
    let res = for_each_initial(inst, &mut |r| {
        c.clear();
        c.extend_from_slice(r);
        dead.normalize(&mut c);
        if c == st {
            found = Some(r.to_vec());
            return false;
        }
        true
    });
    match (found, res) {
        (Some(r), _) => Ok(r),
        _ => Err("no initial state settles to the search's initial state".into()),
    }
}

/// The states of `steps` fired from `init` by the reference interpreter, each step
/// taking the successor its choices name.
fn fire_all(inst: &Instance, init: State, steps: &[Step]) -> Result<Vec<State>, String> {
    let mut states = vec![init];
    for s in steps {
        let next = match eval::fire(inst, last_state(&states), s.trans, &s.params) {
            Fire::Enabled(v) => v.into_iter().find(|(c, _)| *c == s.choices).map(|(_, n)| n),
            _ => None,
        };
        states.push(next.ok_or("a step of the normalized lasso does not fire on the real run")?);
    }
    Ok(states)
}

/// A lasso of the normalized system as a lasso of the instance (see the module
/// comment): a real initial state, the same steps, the cycle turned until it closes.
pub(super) fn realize(inst: &Instance, dead: &Dead, l: Lasso) -> Result<Lasso, String> {
    let init = realize_init(inst, dead, &l.init)?;
    let mut states = fire_all(inst, init.clone(), &l.steps)?;
    let mut steps = l.steps.clone();
    let mut loop_start = l.loop_start;
    if !l.is_deadlock() {
        let turn: Vec<Step> = l.steps[l.loop_start..].to_vec();
        let mut turns = 0;
        while states[loop_start] != *last_state(&states) {
            turns += 1;
            if turns > 3 {
                return Err("the real run of a normalized cycle does not close".into());
            }
            loop_start = steps.len();
            let more = fire_all(inst, last_state(&states).clone(), &turn)?;
            states.extend(more.into_iter().skip(1));
            steps.extend(turn.iter().cloned());
        }
    }
    Ok(Lasso {
        init,
        steps,
        loop_start,
        ..l
    })
}
