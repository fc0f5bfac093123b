//! IC3 / property-directed reachability (Bradley, VMCAI 2011; Eén, Mishchenko and
//! Brayton, FMCAD 2011) over a transition system (`bmc::transys`), one size or the
//! aggregate of a range of sizes, at the level of values: cubes are conjunctions of
//! "cell = value" and presence atoms (`proof::lemma`).
//!
//! - Frames F_1..F_k as levels of lemmas (delta encoding), one incremental solver per
//!   frame holding the transition system and the lemmas of its level and above; F_0 is
//!   `init`, asked as an assumption.
//! - Proof obligations in a queue by level; a predecessor found by relative induction is
//!   *lifted* against the functional next state (a solver without the fire
//!   constraints: the inputs and an unsat core of the state atoms), keeping the
//!   presence atoms, so every obligation has one width.
//! - Generalization: unsat cores of relative induction, then MIC with counterexamples
//!   to generalization (Hassan, Bradley and Somenzi, FMCAD 2013).
//! - Propagation of lemmas to the next level; a level left empty is an inductive
//!   invariant (every frame above it).
//! - For a fully symmetric family every lemma is added with its orbit under process
//!   renamings (`Lemma::orbit`): small orbits as clauses at once, large ones lazily,
//!   an instance added when a model violates it. Frames stay symmetric, so every
//!   renamed lemma is as relatively inductive as the one proved.
//! - Several properties and widths at once: a counterexample at one width of one
//!   property excludes that pair from the bad states and the search goes on with the
//!   same frames (lemmas hold whatever the property).
//!
//! Counterexamples are reported as (property, width, depth): the caller finds a
//! shortest trace with BMC and replays it; invariants are checked by `proof::check`.

pub mod engine;
mod generalize;
pub mod houdini;
pub mod live;

use crate::bmc::transys::{FIRE, STATE, STEP, StateVar, Transys};
use crate::proof::lemma::{self, Cube, Lemma};
use crate::sat::circuit::FALSE;
use crate::sat::{Backend, Lit, SolveResult, SolverKind, Stop};
use crate::verdict::Limit;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::time::Instant;

/// Orbits up to this many clauses are added at once; larger ones lazily.
const EAGER_ORBIT: usize = 2000;
/// Orbits up to this many clauses are the hypothesis of relative induction.
const TEMP_ORBIT: usize = 160;
/// The level of lemmas known to be inductive (seeds): in every frame, never pushed.
const INF: usize = usize::MAX;

/// Which property a bad state violates: `Unsafe(p)`, `Range` for range errors,
/// `IntBound` for stores leaving the int window.
pub type PropKey = crate::verdict::PropId;

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
    pub exclude: Vec<(PropKey, usize)>,
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
    pub key: PropKey,
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

struct Engine<'a, 'm> {
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
    keys: Vec<PropKey>,
    excluded: HashMap<PropKey, Vec<usize>>,
    bad: Lit,
    /// The bad literal of every open key.
    bad_keys: Vec<(PropKey, Lit)>,
    cexs: Vec<Cex>,
    stats: Ic3Stats,
    start: Instant,
    last_progress: Instant,
    limit: Option<Limit>,
    /// Whether some initial state satisfies an atom, for the atoms asked so far.
    init_atoms: HashMap<(StateVar, i64), bool>,
    /// The top frame k.
    top: usize,
}

/// A stop of the search (limit or interrupt).
struct Stopped;

/// Run IC3 on a transition system.
pub fn prove(ts: &mut Transys, opts: &Ic3Options) -> Result<Ic3Outcome, String> {
    let sym = opts.symmetry && ts.inst.model.is_symmetric() && ts.agg.max > 1;
    let lift = new_solver(ts, opts.solver, &[STATE, STEP])?;
    let init_solver = new_solver(ts, opts.solver, &[STATE])?;
    let init = new_solver(ts, opts.solver, &[STATE, STEP, FIRE])?;
    let mut keys: Vec<PropKey> = opts.props.iter().map(|&p| PropKey::Unsafe(p)).collect();
    keys.push(PropKey::Range);
    if ts.inst.model.int_window.is_some() {
        keys.push(PropKey::IntBound);
    }
    let mut excluded: HashMap<PropKey, Vec<usize>> = HashMap::new();
    for &(k, w) in &opts.exclude {
        excluded.entry(k).or_default().push(w);
    }
    let mut e = Engine {
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
        eprintln!(
            "nfold: ic3 at sizes {}..{}: {} frames, {} lemmas, {} obligations, {} SAT calls ({} on init), {} ctgs, {:.2}s",
            e.ts.agg.min,
            e.ts.agg.max,
            e.stats.frames,
            e.stats.lemmas,
            e.stats.obligations,
            e.stats.sat_calls,
            e.stats.init_calls,
            e.stats.ctgs,
            e.stats.seconds
        );
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
    let act = ts.c.var();
    let members = if symmetric {
        l.orbit(ts)
    } else {
        l.representative(ts).into_iter().collect()
    };
    for m in &members {
        let mut cl: Vec<Lit> = m
            .iter()
            .map(|&(v, x)| -lemma::atom_lit(ts, v, x, false))
            .collect();
        cl.push(-act);
        s.add_clause(&cl);
    }
    act
}

/// The literal "x (x' with `next`) lies in the cube of `l`'s representative", i.e.
/// violates it; false when the lemma has no instance in the system. For a symmetric
/// system and symmetric frames, a state violating some member of the orbit is a
/// renaming of one violating the representative.
pub(crate) fn rep_violated(ts: &mut Transys, l: &Lemma, next: bool) -> Lit {
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

impl Engine<'_, '_> {
    fn run(&mut self) -> Result<Option<Vec<Lemma>>, Stopped> {
        self.rebuild_bad();
        // Depth 0: initial bad states.
        loop {
            if self.bad == FALSE {
                return Ok(Some(Vec::new()));
            }
            let a = vec![self.ts.init, self.bad];
            match self.solve(0, &a)? {
                SolveResult::Sat => {
                    let f = self.found(0);
                    let key = self.key_of(0);
                    self.record(key, f.width, 0);
                }
                _ => break,
            }
        }
        self.push_frame()?;
        let mut k = 1;
        loop {
            self.top = k;
            // Block every bad state of frame k.
            loop {
                if self.bad == FALSE {
                    return Ok(Some(Vec::new()));
                }
                self.check_limits()?;
                let a = vec![self.bad];
                if self.solve(k, &a)? != SolveResult::Sat {
                    break;
                }
                let f = self.found(k);
                let key = self.key_of(k);
                let cube = self.lift_bad(&f)?;
                if let Some(depth) = self.block(cube, f.width, k)? {
                    self.record(key, f.width, depth);
                }
            }
            // Propagate, looking for a level left empty.
            self.push_frame()?;
            for i in 1..=k {
                let ids: Vec<usize> = (0..self.entries.len())
                    .filter(|&x| self.entries[x].alive && self.entries[x].level == i)
                    .collect();
                let mut left = 0;
                for id in ids {
                    let rep = self.entries[id].rep.clone();
                    match self.relind(&rep, i + 1, false)? {
                        RelInd::Holds(_) => self.raise(id, i + 1),
                        RelInd::Pred(_) => left += 1,
                    }
                }
                if left == 0 {
                    self.stats.frames = k + 1;
                    let inv: Vec<Lemma> = self
                        .entries
                        .iter()
                        .filter(|x| x.alive && x.level > i)
                        .map(|x| x.lemma.clone())
                        .collect();
                    let inv = lemma::simplify(self.minimize(inv)?);
                    return Ok(Some(inv));
                }
            }
            k += 1;
            self.stats.frames = k;
            self.progress(k);
            if self.opts.max_frames.is_some_and(|m| k > m) {
                return Ok(None);
            }
        }
    }

    fn check_limits(&mut self) -> Result<(), Stopped> {
        if self.opts.stop.now() {
            self.limit = Some(stopped(&self.opts.stop));
            return Err(Stopped);
        }
        if self
            .opts
            .max_memory
            .is_some_and(|m| crate::limits::current_memory().is_some_and(|r| r > m))
        {
            self.limit = Some(Limit::Memory);
            return Err(Stopped);
        }
        Ok(())
    }

    fn progress(&mut self, k: usize) {
        if self.opts.progress && self.last_progress.elapsed().as_secs_f64() >= 2.0 {
            self.last_progress = Instant::now();
            eprintln!(
                "nfold: ic3 frame {k}, {} lemmas, {} obligations, {} SAT calls, {:.1}s",
                self.entries.iter().filter(|x| x.alive).count(),
                self.stats.obligations,
                self.stats.sat_calls,
                self.start.elapsed().as_secs_f64()
            );
        }
    }

    /// The bad literal: every open property at every width not excluded.
    fn rebuild_bad(&mut self) {
        let mut parts = Vec::new();
        self.bad_keys.clear();
        let widths: Vec<usize> = (self.ts.agg.min..=self.ts.agg.max).collect();
        for &key in &self.keys.clone() {
            let ex = self.excluded.get(&key).cloned().unwrap_or_default();
            if widths.iter().all(|w| ex.contains(w)) {
                continue;
            }
            let b = match key {
                PropKey::Unsafe(p) => {
                    let (b, e) = self.ts.bad(p);
                    self.ts.c.and2(b, -e)
                }
                PropKey::IntBound => self.ts.int_bound(false),
                _ => self.ts.range(&self.opts.props, false),
            };
            let blocked: Vec<Lit> = ex.iter().map(|&w| self.ts.agg.width[w - 1]).collect();
            let any = self.ts.c.or(&blocked);
            let l = self.ts.c.and2(b, -any);
            self.bad_keys.push((key, l));
            parts.push(l);
        }
        self.bad = self.ts.c.or(&parts);
    }

    fn key_of(&self, solver: usize) -> PropKey {
        let s = &self.solvers[solver];
        self.bad_keys
            .iter()
            .find(|(_, l)| s.value(*l))
            .map(|x| x.0)
            .unwrap_or(PropKey::Range)
    }

    fn record(&mut self, key: PropKey, width: usize, depth: usize) {
        self.cexs.push(Cex { key, width, depth });
        self.excluded.entry(key).or_default().push(width);
        self.rebuild_bad();
    }

    fn push_frame(&mut self) -> Result<(), Stopped> {
        let mut s =
            new_solver(self.ts, self.opts.solver, &[STATE, STEP, FIRE]).map_err(|_| Stopped)?;
        // Lemmas known inductive belong to every frame.
        for id in 0..self.entries.len() {
            let e = &self.entries[id];
            if !(e.alive && e.level == INF) {
                continue;
            }
            let members = if self.sym && !e.lazy {
                e.lemma.orbit(self.ts)
            } else {
                vec![e.rep.clone()]
            };
            for m in &members {
                let cl: Vec<Lit> = m
                    .iter()
                    .map(|&(v, x)| -lemma::atom_lit(self.ts, v, x, false))
                    .collect();
                s.add_clause(&cl);
            }
        }
        self.solvers.push(s);
        Ok(())
    }

    /// Solve with solver i; for frames, lazily add every orbit instance a model
    /// violates until none does.
    fn solve(&mut self, i: usize, assumptions: &[Lit]) -> Result<SolveResult, Stopped> {
        loop {
            self.stats.sat_calls += 1;
            let r = self.solvers[i].solve(&self.ts.c.cnf, assumptions, &self.opts.stop);
            match r {
                SolveResult::Unknown => {
                    self.limit = Some(stopped(&self.opts.stop));
                    return Err(Stopped);
                }
                SolveResult::Unsat => return Ok(r),
                SolveResult::Sat if i == 0 => return Ok(r),
                SolveResult::Sat => {}
            }
            if !self
                .entries
                .iter()
                .any(|e| e.alive && e.lazy && e.level >= i)
            {
                return Ok(r);
            }
            let (values, width) = {
                let s = &self.solvers[i];
                (
                    self.ts.values(&|l| s.value(l)),
                    self.ts.width(&|l| s.value(l)),
                )
            };
            // Lemmas read cells only, and cells come first among the state variables.
            let value = |v: StateVar| match v {
                StateVar::Cell(s) => values[s],
                StateVar::Absent(_) => 0,
            };
            let mut added = false;
            for e in self
                .entries
                .iter()
                .filter(|e| e.alive && e.lazy && e.level >= i)
            {
                if let Some(c) = e.lemma.matching(self.ts, width, &value) {
                    let cl: Vec<Lit> = c
                        .iter()
                        .map(|&(v, x)| -lemma::atom_lit(self.ts, v, x, false))
                        .collect();
                    self.solvers[i].add_clause(&cl);
                    added = true;
                }
            }
            if !added {
                return Ok(r);
            }
        }
    }

    /// The state (and inputs) of solver i's model.
    fn found(&self, i: usize) -> Found {
        let s = &self.solvers[i];
        let val = |l: Lit| s.value(l);
        Found {
            values: self.ts.values(&val),
            width: self.ts.width(&val),
            inputs: self
                .ts
                .inputs
                .iter()
                .map(|&v| if val(v) { v } else { -v })
                .collect(),
            initial: val(self.ts.init),
        }
    }

    /// The state as a cube: every cell that exists at its width, and the presence bits.
    fn full_cube(&self, f: &Found) -> Cube {
        self.svars
            .iter()
            .zip(&f.values)
            .filter(|(v, _)| match v {
                StateVar::Cell(s) => lemma::cell_exists(self.ts, *s, f.width),
                StateVar::Absent(_) => true,
            })
            .map(|(&v, &x)| (v, x))
            .collect()
    }

    fn atoms(&mut self, cube: &Cube, next: bool) -> Vec<Lit> {
        cube.iter()
            .map(|&(v, x)| lemma::atom_lit(self.ts, v, x, next))
            .collect()
    }

    /// Does the cube contain an initial state?
    fn init_intersects(&mut self, cube: &Cube) -> Result<bool, Stopped> {
        // Most cubes have an atom no initial state satisfies; each atom is asked once.
        for &atom in cube {
            let possible = match self.init_atoms.get(&atom) {
                Some(&b) => b,
                None => {
                    let a = [
                        lemma::atom_lit(self.ts, atom.0, atom.1, false),
                        self.ts.init,
                    ];
                    let b = self.init_sat(&a)?;
                    self.init_atoms.insert(atom, b);
                    b
                }
            };
            if !possible {
                return Ok(false);
            }
        }
        let mut a = self.atoms(cube, false);
        a.push(self.ts.init);
        self.init_sat(&a)
    }

    fn init_sat(&mut self, assumptions: &[Lit]) -> Result<bool, Stopped> {
        self.stats.sat_calls += 1;
        self.stats.init_calls += 1;
        match self
            .init_solver
            .solve(&self.ts.c.cnf, assumptions, &self.opts.stop)
        {
            SolveResult::Sat => Ok(true),
            SolveResult::Unsat => Ok(false),
            SolveResult::Unknown => {
                self.limit = Some(stopped(&self.opts.stop));
                Err(Stopped)
            }
        }
    }

    /// Relative induction of ¬cube at `level`: F_{level-1} ∧ ¬cube ∧ T ∧ cube'
    /// unsatisfiable (`temp`: add ¬cube for the query; without it the clause must be in
    /// the frame already, as in propagation). With symmetry the hypothesis is the
    /// whole orbit of ¬cube: frames and steps are symmetric, so if no state of the frame
    /// outside the orbit steps into the cube, the orbit is inductive relative to the
    /// frame. The cube must be `restrict`ed (its orbit is what is added). The core
    /// keeps the presence atoms, so that it stays restricted.
    fn relind(&mut self, cube: &Cube, level: usize, temp: bool) -> Result<RelInd, Stopped> {
        let f = level - 1;
        let next = self.atoms(cube, true);
        let mut a = next.clone();
        if f == 0 {
            a.push(self.ts.init);
        }
        let mut act = None;
        if temp && f > 0 {
            let x = self.ts.c.var();
            // A large orbit costs more clauses than its stronger hypothesis saves;
            // ¬cube alone is a weaker hypothesis, so the check stays sound.
            let lemma = Lemma::from_cube(self.ts, cube, self.sym);
            let members =
                if self.sym && lemma.orbit_size(self.ts.agg.max.min(lemma.hi)) <= TEMP_ORBIT {
                    lemma.orbit(self.ts)
                } else {
                    vec![cube.clone()]
                };
            for m in &members {
                let mut cl: Vec<Lit> = self.atoms(m, false).iter().map(|&l| -l).collect();
                cl.push(-x);
                self.solvers[f].add_clause(&cl);
            }
            a.push(x);
            act = Some(x);
        }
        let r = self.solve(f, &a);
        let out = match r {
            Err(s) => Err(s),
            Ok(SolveResult::Sat) => Ok(RelInd::Pred(self.found(f))),
            Ok(_) => {
                let s = &self.solvers[f];
                let core: Cube = cube
                    .iter()
                    .zip(&next)
                    .filter(|((v, _), l)| {
                        matches!(v, StateVar::Absent(_)) || s.failed(**l).unwrap_or(true)
                    })
                    .map(|(x, _)| *x)
                    .collect();
                Ok(RelInd::Holds(if core.is_empty() {
                    cube.clone()
                } else {
                    core
                }))
            }
        };
        if let Some(x) = act {
            self.solvers[f].add_clause(&[-x]);
        }
        out
    }

    /// A bad state's cube, reduced to atoms that force it to be bad.
    fn lift_bad(&mut self, f: &Found) -> Result<Cube, Stopped> {
        let full = self.full_cube(f);
        let mut a = self.atoms(&full, false);
        a.push(-self.bad);
        self.reduce(full, a)
    }

    /// A predecessor's cube, reduced to atoms that (with its inputs) force the step into
    /// `target`.
    fn lift_pred(&mut self, f: &Found, target: &Cube) -> Result<Cube, Stopped> {
        let full = self.full_cube(f);
        let x = self.ts.c.var();
        let mut cl: Vec<Lit> = self.atoms(target, true).iter().map(|&l| -l).collect();
        cl.push(-x);
        self.lift.add_clause(&cl);
        let mut a = self.atoms(&full, false);
        a.push(x);
        a.extend_from_slice(&f.inputs);
        let r = self.reduce(full, a);
        self.lift.add_clause(&[-x]);
        r
    }

    /// Solve with the lifting solver under `a` (the cube's atoms first); on unsat keep
    /// the atoms in the core, and every presence atom (an obligation keeps its width).
    fn reduce(&mut self, full: Cube, a: Vec<Lit>) -> Result<Cube, Stopped> {
        self.stats.sat_calls += 1;
        match self.lift.solve(&self.ts.c.cnf, &a, &self.opts.stop) {
            SolveResult::Unknown => {
                self.limit = Some(stopped(&self.opts.stop));
                Err(Stopped)
            }
            SolveResult::Sat => Ok(full),
            SolveResult::Unsat => Ok(full
                .iter()
                .zip(&a)
                .filter(|((v, _), l)| {
                    matches!(v, StateVar::Absent(_)) || self.lift.failed(**l).unwrap_or(true)
                })
                .map(|(x, _)| *x)
                .collect()),
        }
    }

    /// Is the cube already excluded by frame `level`?
    fn blocked(&mut self, cube: &Cube, level: usize) -> Result<bool, Stopped> {
        let a = self.atoms(cube, false);
        Ok(self.solve(level, &a)? == SolveResult::Unsat)
    }

    /// Block a bad cube at frame k through proof obligations; `Some(depth)` when it
    /// is reachable (a counterexample of that length).
    fn block(&mut self, cube: Cube, width: usize, k: usize) -> Result<Option<usize>, Stopped> {
        let mut obs = vec![Obligation {
            cube,
            width,
            level: k,
            depth: 0,
        }];
        let mut heap = BinaryHeap::new();
        heap.push(Reverse((k, 0usize, 0usize)));
        while let Some(Reverse((level, _, id))) = heap.pop() {
            self.check_limits()?;
            self.stats.obligations += 1;
            self.progress(k);
            let (cube, w, depth) = {
                let o = &obs[id];
                (o.cube.clone(), o.width, o.depth)
            };
            if self.init_intersects(&cube)? {
                return Ok(Some(depth));
            }
            if self.blocked(&cube, level)? {
                if level < k {
                    obs[id].level = level + 1;
                    heap.push(Reverse((level + 1, depth, id)));
                }
                continue;
            }
            match self.relind(&cube, level, true)? {
                RelInd::Holds(core) => {
                    let core = if core.len() < cube.len() && self.init_intersects(&core)? {
                        cube.clone()
                    } else {
                        core
                    };
                    let core = self.canon(core);
                    let g = self.generalize(core, level, w, 0)?;
                    let mut lvl = level;
                    while lvl < k {
                        match self.relind(&g, lvl + 1, true)? {
                            RelInd::Holds(_) => lvl += 1,
                            RelInd::Pred(_) => break,
                        }
                    }
                    self.add_lemma(g, lvl);
                    if lvl < k {
                        obs[id].level = lvl + 1;
                        heap.push(Reverse((lvl + 1, depth, id)));
                    }
                }
                RelInd::Pred(f) => {
                    if level == 1 || f.initial {
                        return Ok(Some(depth + 1));
                    }
                    let t = self.lift_pred(&f, &cube)?;
                    obs.push(Obligation {
                        cube: t,
                        width: f.width,
                        level: level - 1,
                        depth: depth + 1,
                    });
                    heap.push(Reverse((level - 1, depth + 1, obs.len() - 1)));
                    heap.push(Reverse((level, depth, id)));
                }
            }
        }
        Ok(None)
    }

    /// A subset of an inductive invariant that is still inductive and still excludes
    /// the bad states: the lemmas the bad states' exclusion needs, closed under the
    /// lemmas each needed lemma's consecution needs (unsat cores over one literal per
    /// lemma, with the whole invariant assumed). Cores are not minimal, but the result
    /// is an invariant by construction: every kept lemma follows in one step from kept
    /// lemmas, and the kept ones exclude the bad states.
    fn minimize(&mut self, inv: Vec<Lemma>) -> Result<Vec<Lemma>, Stopped> {
        if inv.len() < 2 {
            return Ok(inv);
        }
        let mut s =
            new_solver(self.ts, self.opts.solver, &[STATE, STEP, FIRE]).map_err(|_| Stopped)?;
        let sym = self.sym;
        let cur: Vec<Lit> = inv
            .iter()
            .map(|l| add_guarded(self.ts, s.as_mut(), l, sym))
            .collect();
        // Inv and the steps are symmetric: the next state's violation is asked of
        // each representative only.
        let nxt_bad: Vec<Lit> = inv.iter().map(|l| rep_violated(self.ts, l, true)).collect();
        let mut need = vec![false; inv.len()];
        let mut work: Vec<Option<usize>> = vec![None];
        while let Some(w) = work.pop() {
            let mut a = cur.clone();
            a.push(match w {
                None => self.bad,
                Some(m) => nxt_bad[m],
            });
            self.stats.sat_calls += 1;
            match s.solve(&self.ts.c.cnf, &a, &self.opts.stop) {
                SolveResult::Unsat => {}
                // Not an invariant after all, or stopped: keep everything.
                _ => return Ok(inv),
            }
            for (j, &c) in cur.iter().enumerate() {
                if !need[j] && s.failed(c).unwrap_or(true) {
                    need[j] = true;
                    work.push(Some(j));
                }
            }
        }
        Ok(inv
            .into_iter()
            .zip(need)
            .filter(|x| x.1)
            .map(|x| x.0)
            .collect())
    }

    /// With symmetry, the member of the cube's orbit on processes 1..k: what is
    /// generalized, so that widths down to k stay open to it.
    fn canon(&self, cube: Cube) -> Cube {
        if !self.sym {
            return cube;
        }
        Lemma::from_cube(self.ts, &cube, true)
            .representative(self.ts)
            .unwrap_or(cube)
    }

    /// Add ¬cube (with its orbit) to frames 1..=level.
    fn add_lemma(&mut self, cube: Cube, level: usize) {
        let lemma = Lemma::from_cube(self.ts, &cube, self.sym);
        let lazy = self.sym && lemma.orbit_size(self.ts.agg.max.min(lemma.hi)) > EAGER_ORBIT;
        let members = if self.sym && !lazy {
            lemma.orbit(self.ts)
        } else {
            vec![cube.clone()]
        };
        // Older lemmas at this level or below that a member implies are dropped.
        for e in self
            .entries
            .iter_mut()
            .filter(|e| e.alive && e.level <= level)
        {
            if members.iter().any(|m| lemma::cube_within(&e.rep, m)) {
                e.alive = false;
            }
        }
        let top = level.min(self.solvers.len() - 1);
        for m in &members {
            let cl: Vec<Lit> = m
                .iter()
                .map(|&(v, x)| -lemma::atom_lit(self.ts, v, x, false))
                .collect();
            for i in 1..=top {
                self.solvers[i].add_clause(&cl);
            }
        }
        self.entries.push(Entry {
            lemma,
            rep: cube,
            level,
            alive: true,
            lazy,
        });
    }

    /// Move lemma `id` up to `level` (its orbit: the new frame's solver gets it).
    fn raise(&mut self, id: usize, level: usize) {
        let e = &self.entries[id];
        let members = if self.sym && !e.lazy {
            e.lemma.orbit(self.ts)
        } else {
            vec![e.rep.clone()]
        };
        let from = e.level;
        for m in &members {
            let cl: Vec<Lit> = m
                .iter()
                .map(|&(v, x)| -lemma::atom_lit(self.ts, v, x, false))
                .collect();
            for i in from + 1..=level {
                self.solvers[i].add_clause(&cl);
            }
        }
        self.entries[id].level = level;
    }
}

/// Which limit stopped a solve.
fn stopped(stop: &Stop) -> Limit {
    if stop
        .flag
        .as_ref()
        .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
    {
        Limit::Interrupted
    } else {
        Limit::Timeout
    }
}
