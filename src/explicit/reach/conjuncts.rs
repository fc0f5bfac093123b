//! The pass over the stored states after an exhaustive search that finds the conjuncts
//! of the properties that are never true (reported as warnings: a conjunct never true
//! makes its property hold vacuously in part).

use super::ReachOptions;
use super::search::Search;
use crate::model::instance::{Instance, State};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// How many times the search's time the pass over the stored states may take.
const CONJUNCT_BUDGET: f64 = 4.0;
/// ... but never less than this many seconds (tiny searches time poorly).
const CONJUNCT_MIN_SECONDS: f64 = 0.2;

/// For each property of `props` with two conjuncts or more (and tuples at this size),
/// per conjunct as written: whether it is true for some tuple of pairwise distinct
/// processes in some reachable state. Called after an exhaustive search, on the stored
/// states. Under symmetry reduction those are canonical representatives, one per
/// orbit, and that is enough: the family and its properties are fully symmetric (the
/// symmetry analysis covers properties too, and holds for every subformula, a
/// conjunct included), so a conjunct true for processes z in a reachable state s is
/// true for π(z) in π(s), and π(z) is pairwise distinct when z is; every orbit of
/// reachable states has its representative stored, and representatives are reachable
/// since reachable states are closed under π. The same holds for permutations of
/// interchangeable data values. Errors: why the pass was skipped (too costly: more
/// than `CONJUNCT_BUDGET` times `search_seconds`, judged on its first states; or a
/// limit of the run).
pub(super) fn conjunct_pass(
    inst: &Instance,
    s: &Search,
    props: &[usize],
    search_seconds: f64,
    opts: &ReachOptions,
) -> Result<Vec<(usize, Vec<bool>)>, String> {
    let model = inst.model;
    // Per (property, conjunct): its compiled form for every tuple.
    let mut out: Vec<(usize, Vec<bool>)> = Vec::new();
    let mut todo: Vec<(usize, usize, Vec<crate::model::compiled::C>)> = Vec::new();
    for &u in props {
        let p = &model.unsafes[u];
        let tuples = inst.distinct_tuples(p.params);
        if p.conjuncts.len() < 2 || tuples.is_empty() {
            continue;
        }
        for (c, conj) in p.conjuncts.iter().enumerate() {
            let cs = tuples
                .iter()
                .map(|t| {
                    let mut env = vec![0; p.locals.len().max(t.len())];
                    env[..t.len()].copy_from_slice(t);
                    crate::model::compiled::compile(inst, &mut env, &conj.expr)
                })
                .collect();
            todo.push((out.len(), c, cs));
        }
        out.push((u, vec![false; p.conjuncts.len()]));
    }
    if todo.is_empty() {
        return Ok(out);
    }
    let start = Instant::now();
    let budget = (CONJUNCT_BUDGET * search_seconds).max(CONJUNCT_MIN_SECONDS);
    let mut st: State = vec![0; inst.slots.len()];
    let mut done = 0usize;
    let mut skipped = None;
    s.for_each_key(|key| {
        inst.unpack(key, &mut st);
        // A conjunct once seen true is not evaluated again; a range error counts as
        // possibly true (the conjunct alone may read what the body's earlier
        // conjuncts guard), so only conjuncts certainly false everywhere are reported.
        todo.retain(|(p, c, cs)| {
            let hit = cs.iter().any(|x| !matches!(x.eval(&st), Ok(0)));
            if hit {
                out[*p].1[*c] = true;
            }
            !hit
        });
        done += 1;
        if todo.is_empty() {
            return false;
        }
        if done.is_multiple_of(1024) {
            let t = start.elapsed().as_secs_f64();
            // The estimate assumes the conjuncts left stay false (the costly case).
            let estimate = t * s.rec.count as f64 / done as f64;
            if estimate > budget {
                skipped = Some(format!(
                    "it would take about {estimate:.1}s, more than {CONJUNCT_BUDGET} times the search ({search_seconds:.1}s)"
                ));
                return false;
            }
            if opts.deadline.is_some_and(|d| Instant::now() >= d)
                || opts
                    .stop
                    .as_ref()
                    .is_some_and(|f| f.load(Ordering::Relaxed))
            {
                skipped = Some("the run was stopped (time limit or interrupt)".into());
                return false;
            }
        }
        true
    });
    match skipped {
        Some(why) => Err(why),
        None => Ok(out),
    }
}
