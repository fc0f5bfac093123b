//! IC3 / property-directed reachability (A. R. Bradley, *SAT-Based Model Checking
//! without Unrolling*, VMCAI 2011; N. Eén, A. Mishchenko and R. Brayton, *Efficient
//! Implementation of Property Directed Reachability*, FMCAD 2011) over a transition
//! system (`transys`), one size or the aggregate of a range of sizes, at the level
//! of values: cubes are conjunctions of "cell = value" and presence atoms
//! (`proof::lemma`).
//!
//! - Frames F_1..F_k as levels of lemmas (delta encoding), one incremental solver per
//!   frame holding the transition system and the lemmas of its level and above; F_0 is
//!   `init`, asked as an assumption.
//! - Proof obligations in a queue by level; a predecessor found by relative induction is
//!   *lifted* against the functional next state (a solver without the fire
//!   constraints: the inputs and an unsat core of the state atoms), keeping the
//!   presence atoms, so every obligation has one width.
//! - Generalization: unsat cores of relative induction, then MIC with counterexamples
//!   to generalization (Z. Hassan, A. R. Bradley and F. Somenzi, *Better Generalization
//!   in IC3*, FMCAD 2013).
//! - Propagation of lemmas to the next level; a level left empty is an inductive
//!   invariant (every frame above it).
//! - For a fully symmetric family every lemma is added with its orbit under process
//!   renamings (`Lemma::orbit`): small orbits as clauses at once, large ones lazily,
//!   an instance added when a model violates it. Frames stay symmetric, so every
//!   renamed lemma is as relatively inductive as the one proved.
//! - For an ordered-symmetric family (process ids compared by `<`) a lemma stands
//!   for its instances on the increasing tuples of processes: a guess at one size,
//!   so the invariant found is filtered by Houdini over every member and, when it
//!   loses a clause, the search runs again from the inductive part, finally without
//!   orbits (`prove`).
//! - Several properties and widths at once: a counterexample at one width of one
//!   property excludes that pair from the bad states and the search goes on with the
//!   same frames (lemmas hold whatever the property).
//!
//! Counterexamples are reported as (property, width, depth): the caller finds a
//! shortest trace with BMC and replays it; invariants are checked by `proof::check`.

pub mod brab;
pub mod cone;
mod counter_view;
pub mod engine;
mod frames;
mod generalize;
pub mod houdini;
pub mod klive;
mod query;
mod reach;

use crate::proof::lemma::{self, Cube, Lemma};
use crate::sat::circuit::FALSE;
use crate::sat::{Backend, Lit, SolverKind, Stop};
use crate::transys::{FIRE, STATE, STEP, StateVar, Transys};
use crate::verdict::{Limit, PropId};
use std::collections::HashMap;
use std::time::Instant;

/// Orbits up to this many clauses are added at once; larger ones lazily.
const EAGER_ORBIT: usize = 2000;
/// Orbits up to this many clauses are the hypothesis of relative induction.
const TEMP_ORBIT: usize = 160;
/// The level of lemmas known to be inductive (seeds): in every frame, never pushed.
const INF: usize = usize::MAX;

/// How to run IC3.
#[derive(Clone, Debug)]
pub struct Ic3Options {
    pub solver: SolverKind,
    /// The `unsafe` properties to prove (range errors always).
    pub props: Vec<usize>,
    /// Add lemmas with their orbits (fully symmetric families only).
    pub symmetry: bool,
    /// Counterexamples to generalization.
    pub ctg: bool,
    pub stop: Stop,
    pub max_memory: Option<usize>,
    /// Progress lines on stderr.
    pub progress: bool,
    /// (property, width) pairs already answered: not searched.
    pub exclude: Vec<(PropId, usize)>,
    /// Stop (without an answer) once this many frames are open: for the lemmas.
    pub max_frames: Option<usize>,
    /// Lemmas whose conjunction is known to be an inductive invariant of the system
    /// (`houdini`): part of every frame from the start.
    pub seed: Vec<Lemma>,
    /// Widen generalized lemmas' equalities on ordered cells into range atoms
    /// (`cell >= v`, `cell <= v`).
    pub range_atoms: bool,
}

/// A violation found: property, width, and the length of IC3's run to it (a shortest
/// one is at most this long).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cex {
    pub key: PropId,
    pub width: usize,
    pub depth: usize,
}

/// Counters, for reports.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ic3Stats {
    pub frames: usize,
    pub lemmas: usize,
    pub obligations: usize,
    pub sat_calls: usize,
    /// SAT calls asking whether a cube meets the initial states.
    pub init_calls: usize,
    pub ctgs: usize,
    pub seconds: f64,
}

/// What IC3 found.
#[derive(Clone, Debug)]
pub struct Ic3Outcome {
    pub cexs: Vec<Cex>,
    /// The lemmas of an inductive invariant that excludes every bad state of every
    /// property at every width not in `cexs`, when the search converged.
    pub invariant: Option<Vec<Lemma>>,
    /// Every lemma alive at the end, with its level (frames from which it holds on).
    pub lemmas: Vec<(Lemma, usize)>,
    pub limit: Option<Limit>,
    pub stats: Ic3Stats,
}

struct Entry {
    lemma: Lemma,
    /// A concrete member of the orbit.
    rep: Cube,
    level: usize,
    alive: bool,
    lazy: bool,
}

/// A state found by a solver.
struct Found {
    values: Vec<i64>,
    width: usize,
    inputs: Vec<Lit>,
    initial: bool,
}

struct Obligation {
    cube: Cube,
    width: usize,
    level: usize,
    /// Steps from the cube's states to a bad state.
    depth: usize,
}

enum RelInd {
    /// Relatively inductive; the unsat core's cube.
    Holds(Cube),
    /// A predecessor outside the cube.
    Pred(Found),
}

struct Pdr<'a, 'm> {
    ts: &'a mut Transys<'m>,
    opts: &'a Ic3Options,
    sym: bool,
    svars: Vec<StateVar>,
    /// solvers[0]: init; solvers[i]: frame i.
    solvers: Vec<Box<dyn Backend>>,
    lift: Box<dyn Backend>,
    /// Asks whether a cube meets the initial states (cell domains only, no steps), so
    /// that those queries leave the frame solvers' search state alone.
    init_solver: Box<dyn Backend>,
    entries: Vec<Entry>,
    keys: Vec<PropId>,
    excluded: HashMap<PropId, Vec<usize>>,
    bad: Lit,
    /// The bad literal of every open key.
    bad_keys: Vec<(PropId, Lit)>,
    cexs: Vec<Cex>,
    stats: Ic3Stats,
    start: Instant,
    last_progress: Instant,
    limit: Option<Limit>,
    /// Whether some initial state satisfies an atom, for the atoms asked so far.
    init_atoms: HashMap<(StateVar, i64), bool>,
    /// The top frame k.
    top: usize,
    /// States reached by the interpreter (`reach`): `None` until computed.
    reached: Option<Option<reach::Reached>>,
}

/// A stop of the search (limit or interrupt).
struct Stopped;

/// Rounds of IC3 with order-preserving orbits before one without (`prove`).
const ORDERED_ROUNDS: usize = 2;

/// Run IC3 on a transition system. For an ordered-symmetric family with orbits asked
/// for, the orbits under the order-preserving maps are guesses (`proof::lemma`): an
/// invariant found with them is kept only when Houdini, asking every member of every
/// orbit, keeps all of it; otherwise the inductive part seeds another round, and the
/// last round runs without orbits, so every invariant returned is one whose members
/// were all checked (and `proof::check` checks it again before any claim).
pub fn prove(ts: &mut Transys, opts: &Ic3Options) -> Result<Ic3Outcome, String> {
    let model = ts.inst.model;
    let multi = opts.symmetry && ts.agg.max > 1;
    if !(multi && !model.is_symmetric() && model.has_lemma_orbits()) {
        return prove_once(ts, opts, multi && model.is_symmetric());
    }
    let mut o = opts.clone();
    let mut cexs: Vec<Cex> = Vec::new();
    let mut stats = Ic3Stats::default();
    for round in 0..=ORDERED_ROUNDS {
        let orbits = round < ORDERED_ROUNDS;
        if !orbits {
            // Seeds stand for their whole orbits (Houdini kept them so): without
            // orbits each member is a lemma of its own.
            o.seed = o
                .seed
                .iter()
                .flat_map(|l| l.members_as_lemmas(ts))
                .collect();
        }
        let mut out = prove_once(ts, &o, orbits)?;
        stats = Ic3Stats {
            frames: stats.frames.max(out.stats.frames),
            lemmas: out.stats.lemmas,
            obligations: stats.obligations + out.stats.obligations,
            sat_calls: stats.sat_calls + out.stats.sat_calls,
            init_calls: stats.init_calls + out.stats.init_calls,
            ctgs: stats.ctgs + out.stats.ctgs,
            seconds: stats.seconds + out.stats.seconds,
        };
        o.exclude.extend(out.cexs.iter().map(|c| (c.key, c.width)));
        cexs.append(&mut out.cexs);
        let finish = |mut out: Ic3Outcome, cexs: Vec<Cex>| {
            out.cexs = cexs;
            out.stats = stats;
            out
        };
        let Some(inv) = out.invariant.take() else {
            return Ok(finish(out, cexs));
        };
        if !orbits {
            out.invariant = Some(inv);
            return Ok(finish(out, cexs));
        }
        let n = inv.len();
        let Some(kept) = houdini::houdini(ts, inv.clone(), true, opts.solver, &opts.stop)? else {
            out.limit = out.limit.or(Some(Limit::of(&opts.stop)));
            return Ok(finish(out, cexs));
        };
        if opts.progress {
            crate::progress::line(format!(
                "ic3 with order-preserving orbits, round {}: {} of {n} lemmas inductive with every member of their orbits",
                round + 1,
                kept.len()
            ));
        }
        if kept.len() == n {
            out.invariant = Some(inv);
            return Ok(finish(out, cexs));
        }
        for l in kept {
            if !o.seed.contains(&l) {
                o.seed.push(l);
            }
        }
    }
    unreachable!("the last round runs without orbits and returns")
}

/// One run of IC3; `sym`: lemmas stand for their orbits.
fn prove_once(ts: &mut Transys, opts: &Ic3Options, sym: bool) -> Result<Ic3Outcome, String> {
    let lift = new_solver(ts, opts.solver, &[STATE, STEP])?;
    let init_solver = new_solver(ts, opts.solver, &[STATE])?;
    let init = new_solver(ts, opts.solver, &[STATE, STEP, FIRE])?;
    let mut keys: Vec<PropId> = opts.props.iter().map(|&p| PropId::Unsafe(p)).collect();
    keys.push(PropId::Range);
    if ts.inst.model.int_window.is_some() {
        keys.push(PropId::IntBound);
    }
    let mut excluded: HashMap<PropId, Vec<usize>> = HashMap::new();
    for &(k, w) in &opts.exclude {
        excluded.entry(k).or_default().push(w);
    }
    let mut e = Pdr {
        svars: ts.state_vars(),
        ts,
        opts,
        sym,
        solvers: vec![init],
        lift,
        init_solver,
        entries: Vec::new(),
        keys,
        excluded,
        bad: FALSE,
        bad_keys: Vec::new(),
        cexs: Vec::new(),
        stats: Ic3Stats::default(),
        start: Instant::now(),
        last_progress: Instant::now(),
        limit: None,
        init_atoms: HashMap::new(),
        top: 0,
        reached: None,
    };
    // A stop (limit or interrupt) leaves no invariant; `e.limit` says which.
    for l in &opts.seed {
        if let Some(rep) = l.representative(e.ts) {
            e.add_lemma(rep, INF);
        }
    }
    let invariant = e.run().unwrap_or_default();
    e.stats.seconds = e.start.elapsed().as_secs_f64();
    e.stats.lemmas = e.entries.iter().filter(|x| x.alive).count();
    if opts.progress {
        crate::progress::line(format!(
            "ic3 at sizes {}..{}: {} frames, {} lemmas, {} obligations, {} SAT calls ({} on init), {} ctgs, {:.2}s",
            e.ts.agg.min,
            e.ts.agg.max,
            e.stats.frames,
            e.stats.lemmas,
            e.stats.obligations,
            e.stats.sat_calls,
            e.stats.init_calls,
            e.stats.ctgs,
            e.stats.seconds
        ));
    }
    Ok(Ic3Outcome {
        lemmas: e
            .entries
            .iter()
            .filter(|x| x.alive)
            .map(|x| (x.lemma.clone(), x.level))
            .collect(),
        cexs: e.cexs,
        invariant,
        limit: e.limit,
        stats: e.stats,
    })
}

/// Lemma `l` (its orbit with `symmetric`, else its representative) as clauses of solver
/// `s` only, one per member, under a fresh activation literal, returned: assuming it
/// asserts the lemma. Gates in the shared circuit would cost a clause per atom more and
/// burden every later solver.
pub(crate) fn add_guarded(
    ts: &mut Transys,
    s: &mut dyn Backend,
    l: &Lemma,
    symmetric: bool,
) -> Lit {
    let clauses = orbit_clauses(ts, l, symmetric);
    add_guarded_clauses(ts, s, &clauses)
}

/// The clauses `clauses` in solver `s` under a fresh activation literal, returned.
pub(crate) fn add_guarded_clauses(
    ts: &mut Transys,
    s: &mut dyn Backend,
    clauses: &[Vec<Lit>],
) -> Lit {
    let act = ts.c.var();
    let mut guarded = Vec::new();
    for cl in clauses {
        guarded.clear();
        guarded.extend_from_slice(cl);
        guarded.push(-act);
        s.add_clause(&guarded);
    }
    act
}

/// The clauses of lemma `l`: its orbit's members (symmetric) or its representative,
/// each negated.
pub(crate) fn orbit_clauses(ts: &mut Transys, l: &Lemma, symmetric: bool) -> Vec<Vec<Lit>> {
    let members = if symmetric {
        l.orbit(ts)
    } else {
        l.representative(ts).into_iter().collect()
    };
    members
        .iter()
        .map(|m| {
            m.iter()
                .map(|&(v, x)| -lemma::atom_lit(ts, v, x, false))
                .collect()
        })
        .collect()
}

/// The literal "x (x' with `next`) lies in the cube of `l`'s representative", i.e.
/// violates it; false when the lemma has no instance in the system. For a symmetric
/// system and symmetric frames, a state violating some member of the orbit is a
/// renaming of one violating the representative. In an ordered-symmetric family no
/// orbit is a symmetry of the system (not even that of a lemma over one process:
/// process 1 is the lowest): the literal is then that some member is violated.
pub(crate) fn rep_violated(ts: &mut Transys, l: &Lemma, next: bool) -> Lit {
    if l.ordered || (l.procs > 0 && !ts.inst.model.is_symmetric()) {
        let members: Vec<Lit> = l
            .orbit(ts)
            .iter()
            .map(|m| {
                let lits: Vec<Lit> = m
                    .iter()
                    .map(|&(v, x)| lemma::atom_lit(ts, v, x, next))
                    .collect();
                ts.c.and(&lits)
            })
            .collect();
        return ts.c.or(&members);
    }
    match l.representative(ts) {
        None => FALSE,
        Some(rep) => {
            let lits: Vec<Lit> = rep
                .iter()
                .map(|&(v, x)| lemma::atom_lit(ts, v, x, next))
                .collect();
            ts.c.and(&lits)
        }
    }
}

fn new_solver(
    ts: &Transys,
    kind: SolverKind,
    groups: &[usize],
) -> Result<Box<dyn Backend>, String> {
    let mut s = kind.create_plain()?;
    for &g in groups {
        for c in ts.c.group(g) {
            s.add_clause(c);
        }
    }
    Ok(s)
}

/// The clause ¬cube: some atom of the cube is false (on the current state).
fn blocking_clause(ts: &mut Transys, cube: &Cube) -> Vec<Lit> {
    cube.iter()
        .map(|&(v, x)| -lemma::atom_lit(ts, v, x, false))
        .collect()
}
