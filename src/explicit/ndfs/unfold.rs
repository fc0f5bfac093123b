//! Counterexamples from the search's stacks: the real path along the stack, a finite
//! trace to a range error, and the lasso of a found cycle, unfolded under symmetry by
//! the permutation between the fragment's ends (the proof of Theorem 2 of D. Bošnački,
//! *A Light-weight Algorithm for Model Checking with Symmetry Reduction and Weak
//! Fairness*, SPIN 2003).

use super::search::{EPSILON, STUTTER, Search};
use crate::explicit::steps::{step_for, step_to};
use crate::lasso::Lasso;
use crate::model::eval::{self, Fire, Step};
use crate::model::instance::State;
use crate::trace::{RangeSite, Trace, Violation};

/// The real states and steps along the stack (ε moves and stutters dropped, as they
/// do not move the system), from the record at `recs[0]`.
fn real_path(s: &Search, recs: &[&[u64]]) -> Result<(Vec<State>, Vec<Step>), String> {
    let w = s.w;
    let mut st: State = vec![0; s.inst.slots.len()];
    s.inst.unpack(&recs[0][..w], &mut st);
    let mut states = vec![st];
    let mut steps = Vec::new();
    for r in &recs[1..] {
        let via = r[w + s.kw + 1];
        if via == EPSILON || via == STUTTER {
            continue;
        }
        let (k, c) = ((via >> 32) as usize, (via & 0xFFFF_FFFF) as usize);
        let (step, next) = step_for(s.inst, s.compiled, states.last().unwrap(), k, c)?;
        let mut expect = vec![0; s.inst.slots.len()];
        s.inst.unpack(&r[..w], &mut expect);
        if next != expect {
            return Err("a recorded step leads elsewhere".into());
        }
        steps.push(step);
        states.push(next);
    }
    Ok((states, steps))
}

fn stack_records<'b>(s: &'b Search) -> Vec<&'b [u64]> {
    s.stack
        .iter()
        .map(|f| &s.arena[f.rec..f.rec + s.rw])
        .collect()
}

/// A finite trace to a range error (or a store leaving the int window) met at the top
/// of the stack.
pub(super) fn range_trace(
    s: &Search,
    next: Option<Vec<u64>>,
    site: RangeSite,
) -> Result<Trace, String> {
    let mut recs = stack_records(s);
    let extra: Vec<u64>;
    if let Some(nx) = next {
        // `nx` is the successor's real state and its via; widen it to a record.
        let w = s.w;
        let mut r = nx[..w].to_vec();
        r.extend(std::iter::repeat_n(0, s.kw));
        r.push(0);
        r.push(nx[w]);
        extra = r;
        recs.push(&extra);
    }
    let (states, steps) = real_path(s, &recs)?;
    let last = states.last().unwrap();
    let message = match &site {
        RangeSite::Transition { trans, params } => match eval::fire(s.inst, last, *trans, params) {
            Fire::Error(e) if e.is_int_bound() => {
                let t = Trace {
                    size: s.n,
                    init: states[0].clone(),
                    steps,
                    violation: Violation::IntBound {
                        trans: *trans,
                        params: params.clone(),
                        message: e.message,
                    },
                };
                t.replay(s.inst.model)?;
                return Ok(t);
            }
            Fire::Error(e) => e.message,
            _ => return Err("the reference interpreter meets no range error".into()),
        },
        RangeSite::Ltl { prop, process } => {
            crate::trace::ltl_atoms_error(s.inst, last, *prop, *process)
                .ok_or("the reference interpreter meets no range error")?
                .message
        }
        _ => return Err("unexpected range error site".into()),
    };
    let t = Trace {
        size: s.n,
        init: states[0].clone(),
        steps,
        violation: Violation::Range { site, message },
    };
    t.replay(s.inst.model)?;
    Ok(t)
}

/// Compose permutations: `(a ∘ b)(p) = a(b(p))`.
fn compose(a: &[i64], b: &[i64]) -> Vec<i64> {
    b.iter().map(|&x| a[(x - 1) as usize]).collect()
}

fn invert(a: &[i64]) -> Vec<i64> {
    let mut inv = vec![0; a.len()];
    for (p, &x) in a.iter().enumerate() {
        inv[(x - 1) as usize] = p as i64 + 1;
    }
    inv
}

/// Build the lasso of a found cycle: the stack records, the closing record, and the
/// index of the stack frame where the cycle's fragment starts. Under symmetry the
/// closing state may be a permuted image π(t) of the fragment's start t; the fragment
/// is then repeated under π, π², … until it returns to t.
pub(super) fn build_lasso(s: &Search, closing: &[u64], start: usize) -> Result<Lasso, String> {
    let mut recs = stack_records(s);
    recs.push(closing);
    // A stutter means the run has reached a deadlock, which repeats forever.
    if let Some(i) = recs
        .iter()
        .skip(1)
        .position(|r| r[s.w + s.kw + 1] == STUTTER)
    {
        let (states, steps) = real_path(s, &recs[..=i])?;
        return Ok(Lasso {
            size: s.n,
            prop: s.prop,
            process: s.process,
            init: states[0].clone(),
            loop_start: steps.len(),
            steps,
            fair: s.fair,
        });
    }
    let (stem_states, stem_steps) = real_path(s, &recs[..=start])?;
    let (frag_states, frag_steps) = real_path(s, &recs[start..])?;
    let t = frag_states[0].clone();
    let end = frag_states.last().unwrap().clone();
    if frag_steps.is_empty() {
        return Err("the cycle has no step".into());
    }
    let mut steps = stem_steps;
    let loop_start = steps.len();
    if end == t {
        steps.extend(frag_steps);
    } else {
        let sym = s
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
        let mut power: Vec<i64> = (1..=s.n as i64).collect();
        let mut cur = t.clone();
        let mut img = vec![0; t.len()];
        for _round in 0..10_000 {
            for (k, step) in frag_steps.iter().enumerate() {
                sym.apply(&power, &frag_states[k + 1], &mut img);
                let params: Vec<i64> = step
                    .params
                    .iter()
                    .map(|&p| power[(p - 1) as usize])
                    .collect();
                let st = step_to(s.inst, &cur, step.trans, &params, &img)
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
        size: s.n,
        prop: s.prop,
        process: s.process,
        init: stem_states[0].clone(),
        steps,
        loop_start,
        fair: s.fair,
    })
}
