//! What the partial-symmetry search reports: transition coverage, and one verdict per
//! property with its trace. A trace is found backwards, member by member (each node's
//! members are successors of its parent's members, `super`), then fired forwards from
//! a real initial state and replayed on the reference interpreter.

use super::{Explored, Found, Kind, Search};
use crate::explicit::reach::{FoundKind, ReachOptions, SearchEnd, trace_from_steps};
use crate::model::compiled::Scratch;
use crate::model::instance::State;
use crate::trace::Trace;
use crate::verdict::{Coverage, PropId, PropResult};

/// Which transitions fired (no conjunct pass: it reads the plain search's store).
pub(super) fn coverage(s: &Search, e: &Explored) -> Coverage {
    let model = s.inst.model;
    let mut c = Coverage {
        exhaustive: e.complete,
        instances: vec![false; model.transitions.len()],
        fired: vec![false; model.transitions.len()],
        ..Coverage::default()
    };
    for (k, ct) in s.compiled.trans.iter().enumerate() {
        c.instances[ct.trans] = true;
        c.fired[ct.trans] |= s.fired[k];
    }
    c
}

/// One verdict per property (and range errors when decided), traces replayed; and
/// the traces that failed to replay.
pub(super) fn results(
    s: &mut Search,
    e: &Explored,
    opts: &ReachOptions,
) -> (Vec<PropResult>, Vec<String>) {
    let model = s.inst.model;
    let n = s.inst.n;
    let tracked = !s.props.is_empty() || opts.deadlock;
    let mut rows: Vec<(PropId, String, Option<Found>, bool)> = Vec::new();
    for (k, &u) in s.props.iter().enumerate() {
        rows.push((
            PropId::Unsafe(u),
            model.unsafes[u].name.clone(),
            s.unsafe_found[k].clone(),
            e.complete,
        ));
    }
    if opts.deadlock {
        rows.push((
            PropId::Deadlock,
            "deadlock".into(),
            s.deadlock_found.clone(),
            e.complete,
        ));
    }
    let decided_to = (tracked
        && s.unsafe_found.iter().all(|f| f.is_some())
        && (!opts.deadlock || s.deadlock_found.is_some()))
    .then(|| {
        s.unsafe_found
            .iter()
            .chain(std::iter::once(&s.deadlock_found))
            .flatten()
            .map(|f| f.depth)
            .max()
            .unwrap_or(0)
    });
    if let Some(r) = s
        .range_found
        .clone()
        .filter(|r| decided_to.is_none_or(|d| r.depth <= d))
    {
        rows.push((PropId::Range, "range_error".into(), Some(r), true));
    }
    let mut results = Vec::new();
    let mut errors = Vec::new();
    for (prop, name, found, decided) in rows {
        // The partial-symmetry store keeps its nodes exactly.
        let end = SearchEnd {
            decided,
            initial_states: e.initial_states,
            exact: true,
        };
        let t = found.map(|f| trace(s, &f));
        let verdict = end.verdict(t, || format!("size {n}, {name}"), &mut errors);
        results.push(PropResult {
            size: n,
            prop,
            name,
            verdict,
        });
    }
    (results, errors)
}

/// A member of node `parent` and a transition instance and choice leading from it to
/// `target`.
fn predecessor(s: &mut Search, parent: usize, target: &[i64]) -> Option<(State, usize, usize)> {
    let compiled = s.compiled;
    let mut sc = Scratch::default();
    let mut cand = Vec::new();
    for u in s.members(parent) {
        let mut cur = u.clone();
        compiled.candidates(&u, &mut cand);
        for &k in &cand {
            let mut hit = None;
            compiled.fire(k as usize, &mut cur, &mut sc, &mut |c, next, _| {
                if hit.is_none() && next == target {
                    hit = Some(c);
                }
            });
            if let Some(c) = hit {
                return Some((u, k as usize, c));
            }
        }
    }
    None
}

/// The run to a violation's member, replayed on the reference interpreter.
fn trace(s: &mut Search, f: &Found) -> Result<Trace, String> {
    let (inst, compiled) = (s.inst, s.compiled);
    let mut cur = f.member.clone();
    let mut node = f.node;
    let mut back: Vec<(usize, usize)> = Vec::new();
    while s.parent[node] != u32::MAX {
        let parent = s.parent[node] as usize;
        let (u, k, c) = predecessor(s, parent, &cur)
            .ok_or("no member of a parent node leads to the state of its child")?;
        back.push((k, c));
        cur = u;
        node = parent;
    }
    back.reverse();
    let kind = match f.kind {
        Kind::Unsafe { prop, tuple } => FoundKind::Unsafe { prop, tuple },
        Kind::Deadlock => FoundKind::Deadlock,
        Kind::RangeTrans { ctrans } => FoundKind::RangeTrans { ctrans },
        Kind::RangeProp { prop } => FoundKind::RangeProp { prop },
    };
    trace_from_steps(inst.model, inst, compiled, cur, &back, &kind)
}
