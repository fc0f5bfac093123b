//! What a finished search reports: the coverage of transitions and property conjuncts
//! (for dead-code warnings), and one verdict per property with its trace rebuilt from
//! the parent records and replayed on the reference interpreter.

use super::ReachOptions;
use super::conjuncts::conjunct_pass;
use super::search::{Explored, Found, Kind, NO_PARENT, Search};
use crate::explicit::steps::step_for;
use crate::model::compiled::Compiled;
use crate::model::eval::{self, Fire};
use crate::model::instance::{Instance, State};
use crate::model::ints::ranked::Ranking;
use crate::model::ir::Model;
use crate::trace::{RangeSite, Trace, Violation};
use crate::verdict::{Coverage, Proof, PropId, PropResult, Verdict};
use std::time::Instant;

/// Which transitions fired and, after an exhaustive search with `opts.coverage`, which
/// property conjuncts were ever true and which properties are satisfiable at all.
pub(super) fn coverage(
    inst: &Instance,
    compiled: &Compiled,
    s: &Search,
    e: &Explored,
    opts: &ReachOptions,
    start: Instant,
) -> Coverage {
    let model = inst.model;
    // A search over hash compaction or bitstate may have missed states: it tells
    // which transitions fired, never which cannot.
    let exhaustive = e.complete && s.ctx.kind.exact();
    let mut coverage = Coverage {
        exhaustive,
        instances: vec![false; model.transitions.len()],
        fired: vec![false; model.transitions.len()],
        ..Coverage::default()
    };
    for (k, ct) in compiled.trans.iter().enumerate() {
        coverage.instances[ct.trans] = true;
        coverage.fired[ct.trans] |= s.rec.fired[k];
    }
    if exhaustive && opts.coverage {
        let holding: Vec<usize> = s
            .ctx
            .props
            .iter()
            .zip(&s.rec.unsafe_found)
            .filter(|(_, f)| f.is_none())
            .map(|(&u, _)| u)
            .collect();
        let search = start.elapsed().as_secs_f64();
        match conjunct_pass(inst, s, &holding, search, opts) {
            Ok(c) => coverage.conjuncts = c,
            Err(why) => coverage.skipped = Some(why),
        }
        // One SAT query per property; a second at most, or the run's own limits.
        let budget = Instant::now() + std::time::Duration::from_secs(1);
        let stop = crate::sat::Stop {
            deadline: Some(opts.deadline.map_or(budget, |d| d.min(budget))),
            flag: opts.stop.clone(),
            memory: None,
        };
        coverage.satisfiable =
            crate::explicit::vacuity::satisfiable_anywhere(model, inst.n, &holding, &stop)
                .into_iter()
                .filter_map(|(u, a)| a.map(|a| (u, a)))
                .collect();
    }
    coverage
}

/// How a search ended for one property, beside what it found.
pub(in crate::explicit) struct SearchEnd {
    /// The search covered every state the property could be violated in.
    pub decided: bool,
    pub initial_states: usize,
    /// The store kept states exactly (not hash compaction or bitstate).
    pub exact: bool,
}

impl SearchEnd {
    /// The property's verdict: violated by its trace when one was found (a trace that
    /// could not be rebuilt or replayed makes it unknown, the reason pushed to `errors`
    /// after `label()`); otherwise vacuous without an initial state (nothing was
    /// checked), holds after a decided search of an exact store, incomplete after one
    /// of a lossy store (states may have been missed), unknown when not decided.
    pub fn verdict(
        &self,
        trace: Option<Result<Trace, String>>,
        label: impl FnOnce() -> String,
        errors: &mut Vec<String>,
    ) -> Verdict {
        match trace {
            Some(Ok(t)) => Verdict::violated(t),
            Some(Err(why)) => {
                errors.push(format!("{}: {why}", label()));
                Verdict::Unknown
            }
            None if self.decided && self.initial_states == 0 => Verdict::Vacuous,
            None if self.decided && self.exact => Verdict::Holds(Proof::Exhaustive),
            None if self.decided => Verdict::Incomplete,
            None => Verdict::Unknown,
        }
    }
}

/// One verdict per property (and a row for a range error or a store leaving the int
/// window when one is decided), traces replayed; and the traces that failed to replay.
/// A property no search of a lossy store (hash compaction, bitstate) found violated is
/// `incomplete`, never `holds`.
pub(super) fn results(
    inst: &Instance,
    compiled: &Compiled,
    s: &Search,
    e: &Explored,
    opts: &ReachOptions,
    concrete: Option<(&Model, &Ranking)>,
) -> (Vec<PropResult>, Vec<String>) {
    let model = concrete.map_or(inst.model, |c| c.0);
    let tracked = !s.ctx.props.is_empty() || opts.deadlock;
    // Build the results, with replayed traces.
    let mut results = Vec::new();
    let mut internal_errors = Vec::new();
    let mut push = |prop: PropId, name: String, found: Option<&Found>, decided: bool| {
        let end = SearchEnd {
            decided,
            initial_states: e.initial_states,
            exact: s.ctx.kind.exact(),
        };
        let trace = found.map(|f| concrete_trace(inst, compiled, s, f, concrete));
        let verdict = end.verdict(
            trace,
            || format!("size {}, {name}", inst.n),
            &mut internal_errors,
        );
        results.push(PropResult {
            size: inst.n,
            prop,
            name,
            verdict,
        });
    };
    for (k, &u) in s.ctx.props.iter().enumerate() {
        push(
            PropId::Unsafe(u),
            model.unsafes[u].name.clone(),
            s.rec.unsafe_found[k].as_ref(),
            e.complete,
        );
    }
    if opts.deadlock {
        push(
            PropId::Deadlock,
            "deadlock".into(),
            s.rec.deadlock_found.as_ref(),
            e.complete,
        );
    }
    // When every property was violated, the last at depth D, range errors are decided
    // up to D: one found deeper (evaluating a property on a new state) is not reported.
    let decided_to = (tracked
        && s.rec.unsafe_found.iter().all(|f| f.is_some())
        && (!opts.deadlock || s.rec.deadlock_found.is_some()))
    .then(|| {
        s.rec
            .unsafe_found
            .iter()
            .chain(std::iter::once(&s.rec.deadlock_found))
            .flatten()
            .map(|f| f.depth)
            .max()
            .unwrap_or(0)
    });
    if let Some(r) = s
        .rec
        .range_found
        .as_ref()
        .filter(|r| decided_to.is_none_or(|d| r.depth <= d))
    {
        push(PropId::Range, "range_error".into(), Some(r), true);
    }
    if let Some(r) = s
        .rec
        .int_found
        .as_ref()
        .filter(|r| decided_to.is_none_or(|d| r.depth <= d))
    {
        push(PropId::IntBound, "int_bound".into(), Some(r), true);
    }
    (results, internal_errors)
}

/// The trace to a found state: on a ranked search, the run re-fired on the unranked
/// instance (its window wide enough for the concrete values of that many steps), where
/// every transition is enabled as on the ranked one since ranks preserve every guard,
/// then replayed there (`model::ints::ranked`).
fn concrete_trace(
    inst: &Instance,
    compiled: &Compiled,
    s: &Search,
    f: &Found,
    concrete: Option<(&Model, &Ranking)>,
) -> Result<Trace, String> {
    let Some((model, r)) = concrete else {
        return build_trace(inst.model, inst, compiled, s, f, None);
    };
    let wide = Ranking::with_hi(model, r.concrete_hi(f.depth));
    let cinst = Instance::new(&wide, inst.n);
    let ccompiled = Compiled::new(&cinst);
    build_trace(&wide, &cinst, &ccompiled, s, f, Some(inst))
}

/// Rebuild the real run to a found state and replay it on the reference interpreter.
/// The parent records are packed for `search` (the ranked instance) when it is given,
/// else for `inst`.
fn build_trace(
    model: &Model,
    inst: &Instance,
    compiled: &Compiled,
    s: &Search,
    f: &Found,
    search: Option<&Instance>,
) -> Result<Trace, String> {
    let packed = search.unwrap_or(inst);
    if let Kind::RangeInit { state } = &f.kind {
        return init_trace(model, inst, state);
    }
    let mut path = vec![f.node];
    let mut at = f.node;
    while s.rec.parent[at] != NO_PARENT {
        at = s.rec.parent[at] as usize;
        path.push(at);
    }
    path.reverse();
    let root = path[0];
    let mut init: State = vec![0; inst.slots.len()];
    packed.unpack(
        &s.rec.roots[root * packed.words..(root + 1) * packed.words],
        &mut init,
    );
    let fired: Vec<(usize, usize)> = path[1..].iter().map(|&i| s.rec.step_of(i)).collect();
    trace_from_steps(model, inst, compiled, init, &fired, &f.kind)
}

/// The empty run of a range error met evaluating `init` in `state`, replayed.
pub(super) fn init_trace(model: &Model, inst: &Instance, state: &State) -> Result<Trace, String> {
    let message = match eval::satisfies_init(inst, state) {
        Err(e) => e.message,
        Ok(_) => return Err("init error did not reproduce".into()),
    };
    let t = Trace {
        size: inst.n,
        init: state.clone(),
        steps: Vec::new(),
        violation: Violation::Range {
            site: RangeSite::Init,
            message,
        },
    };
    t.replay(model)?;
    Ok(t)
}

/// The run from the real initial state `init` firing `fired` (compiled transition
/// instance, choice) in turn, ending in the violation `kind` met in its last state,
/// replayed on the reference interpreter. Shared with the distributed search
/// (`dist`), whose parent records live on several workers, and the partial-symmetry
/// search, whose runs are found member by member.
pub(in crate::explicit) fn trace_from_steps(
    model: &Model,
    inst: &Instance,
    compiled: &Compiled,
    init: State,
    fired: &[(usize, usize)],
    kind: &Kind,
) -> Result<Trace, String> {
    let mut st = init.clone();
    let mut steps = Vec::new();
    for &(k, c) in fired {
        let (step, next) = step_for(inst, compiled, &st, k, c)?;
        steps.push(step);
        st = next;
    }
    let violation = match kind {
        Kind::Unsafe { prop, tuple } => Violation::Unsafe {
            prop: *prop,
            tuple: compiled.props[*prop].tuples[*tuple].clone(),
        },
        Kind::Deadlock => Violation::Deadlock,
        Kind::RangeTrans { ctrans } => {
            let ct = &compiled.trans[*ctrans];
            match eval::fire(inst, &st, ct.trans, &ct.params) {
                Fire::Error(e) if !e.is_int_bound() => Violation::Range {
                    site: RangeSite::Transition {
                        trans: ct.trans,
                        params: ct.params.clone(),
                    },
                    message: e.message,
                },
                _ => return Err("the reference interpreter meets no range error".into()),
            }
        }
        Kind::RangeProp { prop } => match eval::violation(inst, &st, &model.unsafes[*prop]) {
            Err(e) => Violation::Range {
                site: RangeSite::Property(*prop),
                message: e.message,
            },
            Ok(_) => return Err("the reference interpreter meets no range error".into()),
        },
        Kind::RangeInit { .. } => return Err("an init error has no run".into()),
        Kind::IntBound { ctrans } => {
            let ct = &compiled.trans[*ctrans];
            match eval::fire(inst, &st, ct.trans, &ct.params) {
                Fire::Error(e) if e.is_int_bound() => Violation::IntBound {
                    trans: ct.trans,
                    params: ct.params.clone(),
                    message: e.message,
                },
                _ => return Err("the reference interpreter does not leave the int window".into()),
            }
        }
    };
    let t = Trace {
        size: inst.n,
        init,
        steps,
        violation,
    };
    t.replay(model)?;
    Ok(t)
}
