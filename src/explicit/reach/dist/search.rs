//! The distributed search itself (see the module `dist`): timely's workers over this
//! process's threads or TCP, and the report assembled from their summaries.

use super::msg::{Find, FindKind, NONE, Totals, limit_of};
use super::{Cluster, net, unsupported, worker};
use crate::explicit::par::prof::Prof;
use crate::explicit::reach::expand::Ctx;
use crate::explicit::reach::report::{SearchEnd, init_trace, trace_from_steps};
use crate::explicit::reach::{ReachOptions, ReachResult, ReachStats};
use crate::model::compiled::Compiled;
use crate::model::instance::{Instance, State};
use crate::model::ir::Model;
use crate::verdict::{Coverage, Limit, PropId, PropResult};
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::communication::{Config as CommConfig, Hooks};
use timely::worker::Worker;

/// Search size `n` distributed over `cluster` (every process calls it with the same
/// model, size and options, and gets the same result).
pub fn check_size(
    model: &Model,
    n: usize,
    opts: &ReachOptions,
    cluster: &Cluster,
) -> Result<ReachResult, String> {
    if let Some(why) = unsupported(model, opts) {
        return Err(why);
    }
    // The time of a size includes connecting and starting the workers.
    let start = Instant::now();
    let (builders, others) = builders(model, n, opts, cluster)?;
    let model = Arc::new(model.clone());
    let shared = opts.clone();
    let workers = cluster.workers;
    // The profile of this process's workers (`par::prof`; inert unless asked for).
    let prof: Arc<Prof<worker::Phase>> =
        Arc::new(Prof::new(workers, "distributed search", "levels"));
    let profile = Arc::clone(&prof);
    // A peer lost during the search makes timely's threads panic (a closed socket, a
    // poisoned queue): that is turned into one clear error, said once.
    let first: Arc<Mutex<Option<String>>> = Arc::default();
    let record = Arc::clone(&first);
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let mut f = record.lock().unwrap_or_else(|e| e.into_inner());
        if f.is_none() {
            *f = Some(info.to_string());
        }
    }));
    let run = std::panic::catch_unwind(AssertUnwindSafe(move || {
        let guards = timely::execute::execute_from(
            builders,
            others,
            timely::WorkerConfig::default(),
            move |worker| run_worker(worker, &model, n, &shared, (workers, start), &profile),
        )?;
        let mut lead = None;
        let mut failed = false;
        for r in guards.join() {
            match r {
                Ok(r) => lead = lead.or(r),
                Err(_) => failed = true,
            }
        }
        Ok::<_, String>((lead, failed))
    }));
    std::panic::set_hook(previous);
    prof.report(n);
    let why = first.lock().unwrap_or_else(|e| e.into_inner()).take();
    match run {
        Ok(Ok((Some(r), false))) => Ok(r),
        Ok(Err(e)) => Err(e),
        _ => Err(format!(
            "the distributed search of size {n} stopped: a process was lost or a worker failed ({})",
            why.unwrap_or_else(|| "no message".into())
        )),
    }
}

/// The communication of this process's workers: threads, or TCP to the other processes.
type Builders = (Vec<AllocatorBuilder>, Box<dyn std::any::Any + Send>);

fn builders(model: &Model, n: usize, opts: &ReachOptions, c: &Cluster) -> Result<Builders, String> {
    if c.processes == 1 {
        let config = if c.workers == 1 {
            CommConfig::Thread
        } else {
            CommConfig::Process(c.workers)
        };
        return config.try_build();
    }
    let print = fingerprint(model, n, opts, c);
    let sockets = net::connect(&c.addresses, c.process, print, c.connect_timeout)?;
    let hooks = Hooks::default();
    let local = ProcessBuilder::new_typed_vector(c.workers, hooks.refill.clone(), None);
    let (tcp, guard) =
        initialize_networking_from_sockets(local, sockets, c.process, c.workers, hooks)
            .map_err(|e| format!("process {}: starting the network: {e}", c.process))?;
    Ok((
        tcp.into_iter().map(AllocatorBuilder::Tcp).collect(),
        Box::new(guard),
    ))
}

/// What every process must agree on: the model, the size, the options that change
/// the search, the workers per process.
fn fingerprint(model: &Model, n: usize, opts: &ReachOptions, c: &Cluster) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    format!("{model:?}").hash(&mut h);
    (
        n,
        opts.symmetry,
        opts.deadlock,
        opts.dead_cells,
        &opts.props,
    )
        .hash(&mut h);
    (opts.max_states, c.workers).hash(&mut h);
    h.finish()
}

/// One worker's whole search of size `n`.
fn run_worker(
    worker: &mut Worker,
    model: &Model,
    n: usize,
    opts: &ReachOptions,
    (workers, start): (usize, Instant),
    prof: &Prof<worker::Phase>,
) -> Option<ReachResult> {
    let inst = Instance::new(model, n);
    let compiled = Compiled::for_search(&inst);
    let dead_arrays = opts.dead_arrays(model);
    let ctx = Ctx::new(model, (&inst, &compiled), opts, &dead_arrays, None);
    let use_sym = ctx.sym.is_some();
    let ints = model.int_window.is_some();
    let mut chan = worker::Chan::new(worker);
    let slot = worker.index() % workers;
    let mut part = worker::Part::new(ctx, worker.index(), worker.peers(), (prof, slot));
    part.initial_states();
    let (reached, limit, complete) = search_levels(&mut part, &mut chan, worker, opts, ints);
    let rows = violation_rows(model, &part, opts, complete);
    let walks: Vec<(u32, u64)> = rows
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.2.as_ref().map(|f| (i as u32, f.gid)))
        .collect();
    let hops = rows
        .iter()
        .filter_map(|r| r.2.as_ref().filter(|f| f.gid != NONE).map(|f| f.depth + 1))
        .max()
        .unwrap_or(0);
    let leaders: Vec<usize> = (0..worker.peers()).step_by(workers).collect();
    let (roots, totals) = part.walk_back(&walks, hops, &leaders, &mut chan, worker);
    if !worker.index().is_multiple_of(workers) {
        return None;
    }
    // The first worker of a process: the report.
    let mut internal_errors = Vec::new();
    let results = prop_results(
        (model, n, &inst, &compiled),
        rows,
        &roots,
        part.init_count,
        &mut internal_errors,
    );
    let coverage = coverage(model, &compiled, &totals, complete);
    let stats = ReachStats {
        states: totals.iter().map(|t| t.stored as usize).sum(),
        transitions: totals.iter().map(|t| t.transitions).sum(),
        depth: reached as usize,
        seconds: start.elapsed().as_secs_f64(),
        bytes: totals.iter().map(|t| t.bytes as usize).sum(),
        store_bytes: None,
        initial_states: part.init_count,
    };
    Some(ReachResult {
        size: n,
        symmetry: use_sym,
        dead_cells: dead_arrays.iter().map(|a| a.describe(model)).collect(),
        results,
        stats,
        limit,
        complete,
        internal_errors,
        ranked: Vec::new(),
        rank_error: None,
        coverage,
        omission: None,
    })
}

/// The level-synchronous search, level by level until the frontier is empty, every
/// property is decided, or a limit is reached: (the deepest level reached, the limit,
/// whether the search completed).
fn search_levels(
    part: &mut worker::Part,
    chan: &mut worker::Chan,
    worker: &mut Worker,
    opts: &ReachOptions,
    ints: bool,
) -> (u32, Option<Limit>, bool) {
    let (mut depth, mut reached) = (0u32, 0u32);
    let (mut limit, mut complete) = (None, false);
    loop {
        part.expand(depth, chan, worker);
        let here = part.limit(opts);
        let sums = part.finish_level(depth, here, chan, worker);
        let frontier: u64 = sums.iter().map(|s| s.frontier).sum();
        let stored: u64 = sums.iter().map(|s| s.stored).sum();
        for s in &sums {
            part.global.merge(&s.finds);
        }
        if frontier == 0 {
            complete = true;
            break;
        }
        reached = depth;
        if part.global.all_done(opts.deadlock, ints, depth) {
            break;
        }
        if let Some(l) = sums.iter().find_map(|s| s.limit) {
            limit = Some(limit_of(l));
            break;
        }
        if opts.max_states.is_some_and(|m| stored >= m as u64) {
            limit = Some(Limit::MaxStates);
            break;
        }
        depth += 1;
    }
    (reached, limit, complete)
}

/// A row of the report: the key, its name, the violation found, whether it is decided.
type Row = (PropId, String, Option<Find>, bool);

/// The violations reported, the same on every worker: one per property, then a range
/// error and a store leaving the int window decided up to the deepest.
fn violation_rows(
    model: &Model,
    part: &worker::Part,
    opts: &ReachOptions,
    complete: bool,
) -> Vec<Row> {
    let g = part.global.clone();
    let decided_to = g.decided_to(opts.deadlock);
    let within = |f: &&Find| decided_to.is_none_or(|d| f.depth <= d);
    let mut rows: Vec<Row> = Vec::new();
    for (k, &u) in part.ctx.props.iter().enumerate() {
        let name = model.unsafes[u].name.clone();
        rows.push((PropId::Unsafe(u), name, g.unsafes[k].clone(), complete));
    }
    if opts.deadlock {
        rows.push((
            PropId::Deadlock,
            "deadlock".into(),
            g.deadlock.clone(),
            complete,
        ));
    }
    if let Some(r) = g.range.as_ref().filter(within) {
        rows.push((PropId::Range, "range_error".into(), Some(r.clone()), true));
    }
    if let Some(r) = g.int.as_ref().filter(within) {
        rows.push((PropId::IntBound, "int_bound".into(), Some(r.clone()), true));
    }
    rows
}

/// Each row's verdict, its trace rebuilt from the root the walk back ended at.
fn prop_results(
    (model, n, inst, compiled): (&Model, usize, &Instance, &Compiled),
    rows: Vec<Row>,
    roots: &[worker::Walked],
    initial_states: usize,
    internal_errors: &mut Vec<String>,
) -> Vec<PropResult> {
    let mut results = Vec::new();
    for (i, (prop, name, found, decided)) in rows.into_iter().enumerate() {
        let trace = found.map(|f| match &f.kind {
            FindKind::RangeInit { state } => init_trace(model, inst, state),
            kind => match roots.iter().find(|r| r.0 == i as u32) {
                Some((_, words, steps)) => {
                    let mut init: State = vec![0; inst.slots.len()];
                    inst.unpack(words, &mut init);
                    let fired: Vec<(usize, usize)> = steps
                        .iter()
                        .map(|&(k, c)| (k as usize, c as usize))
                        .collect();
                    trace_from_steps(model, inst, compiled, init, &fired, &kind.kind())
                }
                None => Err("the parent records did not lead to a root".into()),
            },
        });
        // The distributed search refuses the lossy stores (`unsupported`).
        let end = SearchEnd {
            decided,
            initial_states,
            exact: true,
        };
        let verdict = end.verdict(trace, || format!("size {n}, {name}"), internal_errors);
        results.push(PropResult {
            size: n,
            prop,
            name,
            verdict,
        });
    }
    results
}

/// The coverage: every compiled transition instance examined, fired where any worker
/// fired it.
fn coverage(model: &Model, compiled: &Compiled, totals: &[Totals], complete: bool) -> Coverage {
    let mut coverage = Coverage {
        exhaustive: complete,
        instances: vec![false; model.transitions.len()],
        fired: vec![false; model.transitions.len()],
        skipped: complete.then(|| "the distributed search does not examine them".to_string()),
        ..Coverage::default()
    };
    for (k, ct) in compiled.trans.iter().enumerate() {
        coverage.instances[ct.trans] = true;
        coverage.fired[ct.trans] |= totals.iter().any(|t| t.fired[k]);
    }
    coverage
}
