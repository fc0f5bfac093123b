//! The fast evaluator of the explicit engine. Every transition instance (transition
//! with its parameter values) and every property instance is specialised once per size:
//! parameters and quantified variables become constants (quantifiers are unrolled in
//! ascending order), cells with constant indices become slot numbers, and constant
//! subterms fold. Evaluation order and short-circuiting are those of the reference
//! interpreter, so both meet exactly the same range errors; the engines ask the
//! reference interpreter for the message, and tests compare the two on random states.
//!
//! `expr` compiles and evaluates expressions, `trans` transition instances, `jit`
//! (with the `jit` feature) turns the instances of a size into native code that runs
//! in place of the interpreter (`Compiled::for_search`, `--compile`), `bytecode` into
//! a register bytecode with superinstructions (`--compile bytecode`, the alternative
//! measured against it, docs/engines.md); this module holds
//! the instances of a size, which of them a state may enable (dispatch on a
//! `cell = const` test), and firing one.

mod bytecode;
mod expr;
#[cfg(feature = "jit")]
mod jit;
mod jump;
mod prop;
mod trans;

pub use expr::{C, DynCell, compile};
pub use jump::Jumps;
pub use prop::CProp;
pub use trans::{CTrans, Op, Target};

use super::eval::transition_instances;
use super::instance::Instance;
use trans::compile_trans;

/// How the searches run the transition instances (`--compile`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The interpreter alone (the reference).
    Interp,
    /// The register bytecode (`bytecode`).
    Bytecode,
    /// Native code from the first state (`jit`; the interpreter without the `jit`
    /// feature).
    Jit,
    /// The interpreter first, native code once the search has expanded
    /// `TIER_UP_STATES` states (`auto`, the default): most searches (the small sizes
    /// of a range, `live`'s one search per process and fairness) never earn the
    /// compile back.
    Auto,
}

/// States a tiered search expands interpreted before it compiles. Measured with
/// callgrind (2026-11-30): compiling costs about 21 M instructions (Peterson) to 35 M
/// (German), and native code saves about 1,300 to 1,600 instructions a state, so it
/// pays from about 16,000 to 22,000 states. Compiling at that point, not knowing how
/// large the search will be, costs at most about twice the better choice made in
/// hindsight (the ski-rental bound).
pub const TIER_UP_STATES: i64 = 1 << 14;

/// A search's native code: compiled at once, or by the first thread whose countdown
/// of expanded states reaches zero (the others run the interpreter until it is there).
#[cfg(feature = "jit")]
#[derive(Debug)]
struct Tier {
    code: std::sync::OnceLock<Option<jit::Native>>,
    left: std::sync::atomic::AtomicI64,
}

/// The backend of the searches (`Compiled::for_search`), as `Backend as u8`: one
/// setting for the process, as the code generator is a property of the run
/// (`--compile`), not of a search.
static BACKEND: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(Backend::Auto as u8);

/// Let the searches started from now on run the instances with `b` (tiered native
/// code by default).
pub fn set_backend(b: Backend) {
    BACKEND.store(b as u8, std::sync::atomic::Ordering::Relaxed);
}

/// What the code of an instance returns when it stages no writes (otherwise: the
/// number of writes it staged), in `jit` and `bytecode` alike.
const DISABLED: i64 = -1;
const FAULT: i64 = -2;
const INT_BOUND: i64 = -3;
/// The guard holds; the interpreter stages the updates.
const GUARD_HOLDS: i64 = -4;

/// A staged write as `Scratch::writes` holds it.
type Write = (usize, i64);

/// A range error (details come from the reference interpreter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault;

/// All transition and property instances of a family at one size.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub trans: Vec<CTrans>,
    pub props: Vec<CProp>,
    dispatch: Dispatch,
    /// The number of slots of a state.
    slots: usize,
    /// Native code for the transition instances (`native`, `tiered`), run in place
    /// of the interpreter where it has some, once it is compiled.
    #[cfg(feature = "jit")]
    native: Option<std::sync::Arc<Tier>>,
    /// The register bytecode of the transition instances (`bytecode`), run in place
    /// of the interpreter when there is no native code.
    bytecode: Option<std::sync::Arc<bytecode::Program>>,
}

/// What running an instance's native code or bytecode gave.
enum Ran {
    /// The guard holds and the writes are staged (deterministic updates only).
    Staged,
    /// The guard holds; the interpreter stages the updates.
    Guard,
    /// No successor.
    Out(Outcome),
}

impl Ran {
    /// What the code `r` of an instance's compiled code (`DISABLED`, `FAULT`,
    /// `INT_BOUND`, `GUARD_HOLDS`) stands for; `None` for a number of staged writes.
    fn from_code(r: i64) -> Option<Ran> {
        match r {
            DISABLED => Some(Ran::Out(Outcome::Disabled)),
            FAULT => Some(Ran::Out(Outcome::Fault)),
            INT_BOUND => Some(Ran::Out(Outcome::IntBound)),
            GUARD_HOLDS => Some(Ran::Guard),
            _ => None,
        }
    }
}

/// Which transition instances can be enabled in a state, found without evaluating
/// them: most instances test `cell = const` first, so they are filed under one such
/// test (the rarest among all instances) and looked up by the cell's value.
#[derive(Clone, Debug, Default)]
struct Dispatch {
    /// Instances with no `cell = const` test.
    always: Vec<u32>,
    /// Per dispatch cell: `(slot, lowest value, offset of its first value's entry in
    /// `starts`, number of values)`.
    cells: Vec<(u32, i64, u32, u32)>,
    /// The instances filed under value v of a cell are
    /// `items[starts[off + v]..starts[off + v + 1]]`.
    starts: Vec<u32>,
    items: Vec<u32>,
}

impl Dispatch {
    fn new(inst: &Instance, trans: &[CTrans]) -> Dispatch {
        let mut count: std::collections::HashMap<(u32, i64), usize> = Default::default();
        for t in trans {
            for &(s, v, eq) in &t.pre {
                if eq {
                    *count.entry((s, v)).or_default() += 1;
                }
            }
        }
        let mut always = Vec::new();
        // slot -> lists per value
        let mut groups: Vec<(u32, i64, Vec<Vec<u32>>)> = Vec::new();
        for (k, t) in trans.iter().enumerate() {
            let key = t
                .pre
                .iter()
                .filter(|p| p.2)
                .min_by_key(|p| (count[&(p.0, p.1)], p.0))
                .map(|p| (p.0, p.1));
            let Some((slot, v)) = key else {
                always.push(k as u32);
                continue;
            };
            let sl = &inst.slots[slot as usize];
            if v < sl.lo || v > sl.hi {
                // It tests the cell for a value the cell cannot hold: never enabled.
                continue;
            }
            let g = match groups.iter().position(|g| g.0 == slot) {
                Some(g) => g,
                None => {
                    let size = (sl.hi - sl.lo + 1).max(0) as usize;
                    groups.push((slot, sl.lo, vec![Vec::new(); size]));
                    groups.len() - 1
                }
            };
            let (_, lo, lists) = &mut groups[g];
            lists[(v - *lo) as usize].push(k as u32);
        }
        let mut d = Dispatch {
            always,
            ..Default::default()
        };
        for (slot, lo, lists) in groups {
            d.cells
                .push((slot, lo, d.starts.len() as u32, lists.len() as u32));
            for l in &lists {
                d.starts.push(d.items.len() as u32);
                d.items.extend_from_slice(l);
            }
        }
        d.starts.push(d.items.len() as u32);
        d
    }

    /// Call `f` on the transition instances that may be enabled in `st`, in
    /// `Compiled::candidates`'s order.
    #[inline]
    fn each(&self, st: &[i64], mut f: impl FnMut(u32)) {
        for &t in &self.always {
            f(t);
        }
        for &(slot, lo, off, size) in &self.cells {
            let v = st[slot as usize].wrapping_sub(lo) as u64;
            if v < size as u64 {
                let k = off as usize + v as usize;
                for &t in &self.items[self.starts[k] as usize..self.starts[k + 1] as usize] {
                    f(t);
                }
            }
        }
    }
}

/// Receives `(choice index, successor state, cells written)` from `Compiled::fire`.
pub type SuccessorFn<'a> = dyn FnMut(usize, &[i64], &[(usize, i64)]) + 'a;

/// What firing a compiled transition instance did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Disabled,
    /// It produced this many successors.
    Enabled(usize),
    /// A range error.
    Fault,
    /// A store leaving the int window (`int_bound`).
    IntBound,
}

/// Reusable buffers for `Compiled::fire`.
#[derive(Default)]
pub struct Scratch {
    /// Deterministic writes, then one entry per nondeterministic update.
    writes: Vec<(usize, i64)>,
    nondet: Vec<(usize, Vec<i64>)>,
    choice: Vec<usize>,
    saved: Vec<i64>,
    /// The records of the state function (`Compiled::fire_candidates`).
    fused: Vec<(usize, i64)>,
    /// The bytecode's registers.
    regs: Vec<i64>,
}

impl Compiled {
    pub fn new(inst: &Instance) -> Compiled {
        let mut trans = Vec::new();
        for (t, params) in transition_instances(inst) {
            trans.push(compile_trans(inst, t, params));
        }
        let props = inst
            .model
            .unsafes
            .iter()
            .map(|u| {
                CProp::new(
                    inst.distinct_tuples(u.params)
                        .into_iter()
                        .map(|tuple| {
                            let mut env = vec![0; u.locals.len().max(tuple.len())];
                            env[..tuple.len()].copy_from_slice(&tuple);
                            let c = compile(inst, &mut env, &u.body);
                            (tuple, c)
                        })
                        .collect(),
                )
            })
            .collect();
        let dispatch = Dispatch::new(inst, &trans);
        Compiled {
            trans,
            props,
            dispatch,
            slots: inst.slots.len(),
            #[cfg(feature = "jit")]
            native: None,
            bytecode: None,
        }
    }

    /// The instances for a search: with native code unless `set_backend` said
    /// otherwise (`--compile interp`, `--compile bytecode`).
    pub fn for_search(inst: &Instance) -> Compiled {
        let c = Compiled::new(inst);
        match BACKEND.load(std::sync::atomic::Ordering::Relaxed) {
            b if b == Backend::Interp as u8 => c,
            b if b == Backend::Bytecode as u8 => c.bytecode(),
            b if b == Backend::Jit as u8 => c.native(),
            _ => c.tiered(TIER_UP_STATES),
        }
    }

    /// With the register bytecode for the transition instances (and no native code).
    pub fn bytecode(self) -> Compiled {
        let program = bytecode::Program::new(&self.trans, self.slots);
        Compiled {
            bytecode: Some(std::sync::Arc::new(program)),
            #[cfg(feature = "jit")]
            native: None,
            ..self
        }
    }

    /// Whether the register bytecode runs the transition instances.
    pub fn is_bytecode(&self) -> bool {
        self.bytecode.is_some()
    }

    /// With native code for the transition instances (when built with the `jit`
    /// feature and the host has a code generator; otherwise as it is).
    pub fn native(self) -> Compiled {
        #[cfg(feature = "jit")]
        {
            let code = jit::Native::new(&self.trans, &self.props, &self.dispatch, self.slots);
            self.with_tier(std::sync::OnceLock::from(code), 0)
        }
        #[cfg(not(feature = "jit"))]
        self
    }

    /// With `code` as its native code (compiled, or to be compiled after `left` more
    /// states), and no bytecode.
    #[cfg(feature = "jit")]
    fn with_tier(self, code: std::sync::OnceLock<Option<jit::Native>>, left: i64) -> Compiled {
        let tier = Tier {
            code,
            left: std::sync::atomic::AtomicI64::new(left),
        };
        Compiled {
            native: Some(std::sync::Arc::new(tier)),
            bytecode: None,
            ..self
        }
    }

    /// Interpreted until `candidates` has been asked for `states` states, then with
    /// native code (as `native`).
    pub fn tiered(self, states: i64) -> Compiled {
        #[cfg(feature = "jit")]
        return self.with_tier(std::sync::OnceLock::new(), states);
        #[cfg(not(feature = "jit"))]
        {
            let _ = states;
            self
        }
    }

    /// The native code, once compiled.
    #[cfg(feature = "jit")]
    #[inline]
    fn code(&self) -> Option<&jit::Native> {
        self.native.as_ref()?.code.get()?.as_ref()
    }

    /// One more state expanded: the thread that ends a tiered search's countdown
    /// compiles its native code.
    #[inline]
    fn count_state(&self) {
        #[cfg(feature = "jit")]
        if let Some(t) = &self.native
            && t.code.get().is_none()
            && t.left.fetch_sub(1, std::sync::atomic::Ordering::Relaxed) == 1
        {
            t.code.get_or_init(|| {
                jit::Native::new(&self.trans, &self.props, &self.dispatch, self.slots)
            });
        }
    }

    /// Property `u` on `st`: the first tuple whose body holds (`CProp::check`), by its
    /// native code once there is some.
    #[inline]
    pub fn check_prop(&self, u: usize, st: &[i64]) -> Result<Option<usize>, Fault> {
        #[cfg(feature = "jit")]
        if let Some(r) = self.code().and_then(|n| n.check_prop(u, st)) {
            return r;
        }
        self.props[u].check(st)
    }

    /// How many properties native code checks.
    pub fn native_props(&self) -> usize {
        #[cfg(feature = "jit")]
        return self.code().map_or(0, |n| n.native_props());
        #[cfg(not(feature = "jit"))]
        0
    }

    /// Whether native code runs some transition instances.
    pub fn is_native(&self) -> bool {
        #[cfg(feature = "jit")]
        return self.code().is_some();
        #[cfg(not(feature = "jit"))]
        false
    }

    /// The same instances, run by the interpreter alone (the reference).
    pub fn interpreted(&self) -> Compiled {
        Compiled {
            #[cfg(feature = "jit")]
            native: None,
            bytecode: None,
            ..self.clone()
        }
    }

    /// Instance `k`'s native code or bytecode run on `st`, when it has some.
    #[inline]
    fn run_native(&self, k: usize, st: &[i64], sc: &mut Scratch) -> Option<Ran> {
        #[cfg(feature = "jit")]
        if let Some(n) = self.code() {
            return n.run(k, st, &mut sc.writes);
        }
        let b = self.bytecode.as_ref()?;
        b.run(k, st, &mut sc.regs, &mut sc.writes)
    }

    /// The transition instances that may be enabled in `st`, in a fixed order for a
    /// given state (all others fail one of their `cell = const` tests).
    pub fn candidates(&self, st: &[i64], out: &mut Vec<u32>) {
        self.count_state();
        out.clear();
        self.dispatch.each(st, |t| out.push(t));
    }

    /// Fire transition instance `k` on `st`. For every successor, in the reference
    /// order, `f(choice_index, successor, writes)` is called, where `writes` lists the
    /// cells that differ from `st` (possibly with unchanged values). The successor is
    /// built in place in `st`, which is restored before returning.
    pub fn fire(&self, k: usize, st: &mut [i64], sc: &mut Scratch, f: &mut SuccessorFn) -> Outcome {
        match self.stage(k, st, sc) {
            Ok(det) => Outcome::Enabled(sc.successors(st, det, f)),
            Err(o) => o,
        }
    }

    /// `fire`, giving each successor only as the writes that make it from `st`, which
    /// is left as it is: for callers that patch a packed copy of `st` and need no
    /// unpacked successor. `f(choice index, cells written)` is generic, not `dyn` as in
    /// `fire`: inlined, it costs the hot loops of the searches no call per successor.
    #[inline]
    pub fn fire_writes<F: FnMut(usize, &[(usize, i64)])>(
        &self,
        k: usize,
        st: &[i64],
        sc: &mut Scratch,
        f: &mut F,
    ) -> Outcome {
        match self.stage(k, st, sc) {
            Ok(_) if sc.nondet.is_empty() => {
                f(0, &sc.writes);
                Outcome::Enabled(1)
            }
            Ok(det) => Outcome::Enabled(sc.choices(det, |c, w| f(c, w))),
            Err(o) => o,
        }
    }

    /// The guard of instance `k`, then its writes staged in `sc` (the deterministic
    /// ones first, then one per nondeterministic update with its first value); returns
    /// the number of deterministic writes, or the outcome when there is no successor.
    #[inline]
    fn stage(&self, k: usize, st: &[i64], sc: &mut Scratch) -> Result<usize, Outcome> {
        let t = &self.trans[k];
        match self.run_native(k, st, sc) {
            Some(Ran::Out(o)) => return Err(o),
            Some(Ran::Staged) => sc.nondet.clear(),
            Some(Ran::Guard) => t.stage(st, sc)?,
            None => {
                match t.enabled(st) {
                    Err(Fault) => return Err(Outcome::Fault),
                    Ok(false) => return Err(Outcome::Disabled),
                    Ok(true) => {}
                }
                t.stage(st, sc)?;
            }
        }
        sc.staged(t)
    }

    /// Fire every instance `candidates` gives for `st`, in its order, as `fire_writes`
    /// fires each: `f(k, Fired::Successor(choice, writes))` for each successor, then
    /// `f(k, Fired::Done(outcome))`; an instance found disabled may be left out. With
    /// native code for the whole state, one call runs the dispatch, every guard and
    /// the deterministic writes.
    #[inline]
    pub fn fire_candidates<F: FnMut(u32, Fired)>(
        &self,
        st: &[i64],
        sc: &mut Scratch,
        cands: &mut Vec<u32>,
        f: &mut F,
    ) {
        #[cfg(feature = "jit")]
        if let Some(n) = self.code()
            && self.fire_state(st, sc, f, |_, buf| n.run_state(st, buf))
        {
            return;
        }
        if let Some(b) = &self.bytecode
            && self.fire_state(st, sc, f, |regs, buf| {
                b.run_state(&self.dispatch, st, (regs, &mut *cands), buf)
            })
        {
            return;
        }
        self.candidates(st, cands);
        for &k in cands.iter() {
            let out =
                self.fire_writes(k as usize, st, sc, &mut |c, w| f(k, Fired::Successor(c, w)));
            f(k, Fired::Done(out));
        }
    }

    /// Run a state function (`run`: the native code's or the bytecode's, given the
    /// bytecode's registers and the record buffer) and, when it handled the state,
    /// report its records as `fire_candidates` does; false when it left the state to
    /// the interpreter. Always inlined: left to `#[inline]` it cost about 5
    /// instructions a state (callgrind, Peterson n = 5).
    #[inline(always)]
    fn fire_state<F: FnMut(u32, Fired)>(
        &self,
        st: &[i64],
        sc: &mut Scratch,
        f: &mut F,
        run: impl FnOnce(&mut Vec<i64>, &mut Vec<(usize, i64)>) -> bool,
    ) -> bool {
        let mut buf = std::mem::take(&mut sc.fused);
        let done = run(&mut sc.regs, &mut buf);
        if done {
            self.fire_records(st, sc, &buf, f);
        }
        sc.fused = buf;
        done
    }

    /// Compare every transition instance fired on `st` by this code and by the
    /// interpreter alone (`interpreted`): the same outcome, the same successors in the
    /// same order with the same writes. `Err` names the first instance that differs.
    /// For the differential tests of the native code.
    pub fn agrees_with(&self, interp: &Compiled, st: &[i64]) -> Result<(), String> {
        type Fired = (Outcome, Vec<(usize, Vec<i64>, Vec<(usize, i64)>)>);
        let run = |c: &Compiled, k: usize| -> Fired {
            let (mut cur, mut sc, mut got) = (st.to_vec(), Scratch::default(), Vec::new());
            let out = c.fire(k, &mut cur, &mut sc, &mut |i, next, w| {
                got.push((i, next.to_vec(), w.to_vec()))
            });
            let mut writes = Vec::new();
            let out2 = c.fire_writes(k, st, &mut sc, &mut |i, w| writes.push((i, w.to_vec())));
            let same = out == out2
                && cur == st
                && writes.len() == got.len()
                && writes
                    .iter()
                    .zip(&got)
                    .all(|(a, b)| a.0 == b.0 && a.1 == b.2);
            if !same {
                return (
                    Outcome::Disabled,
                    vec![(usize::MAX, Vec::new(), Vec::new())],
                );
            }
            (out, got)
        };
        for k in 0..self.trans.len().min(interp.trans.len()) {
            let (a, b) = (run(self, k), run(interp, k));
            if a != b {
                return Err(format!(
                    "instance {k} on {st:?}: {:?} vs interpreted {:?}",
                    a, b
                ));
            }
        }
        let (a, b) = (self.all_fired(st), interp.all_fired(st));
        if a != b {
            return Err(format!(
                "all candidates on {st:?}: {a:?} vs interpreted {b:?}"
            ));
        }
        for u in 0..self.props.len().min(interp.props.len()) {
            let (a, b) = (self.check_prop(u, st), interp.check_prop(u, st));
            if a != b {
                return Err(format!(
                    "property {u} on {st:?}: {a:?} vs interpreted {b:?}"
                ));
            }
        }
        Ok(())
    }

    /// What `fire_candidates` reports on `st`, disabled instances left out:
    /// `(instance, Ok((choice, writes)))` per successor, `(instance, Err(outcome))` once
    /// the instance is done.
    fn all_fired(&self, st: &[i64]) -> Vec<(u32, Result<Choice, Outcome>)> {
        let (mut sc, mut cands, mut got) = (Scratch::default(), Vec::new(), Vec::new());
        self.fire_candidates(st, &mut sc, &mut cands, &mut |k, fired| match fired {
            Fired::Successor(c, w) => got.push((k, Ok((c, w.to_vec())))),
            Fired::Done(Outcome::Disabled) => {}
            Fired::Done(o) => got.push((k, Err(o))),
        });
        got
    }

    /// Every successor of `st`, in the order of the reference interpreter
    /// (`model::eval::successors`: transition instances in order, each one's choices in
    /// order); an instance that meets an error gives none, as there. `st` is restored.
    pub fn each_successor(&self, st: &mut [i64], sc: &mut Scratch, f: &mut dyn FnMut(&[i64])) {
        for k in 0..self.trans.len() {
            self.fire(k, st, sc, &mut |_, next, _| f(next));
        }
    }
}

/// A successor's choice index and writes, as the differential tests keep them.
type Choice = (usize, Vec<(usize, i64)>);

/// What `Compiled::fire_candidates` reports of an instance.
pub enum Fired<'w> {
    /// A successor: its choice index and the writes that make it.
    Successor(usize, &'w [(usize, i64)]),
    /// The instance is done, with this outcome.
    Done(Outcome),
}

impl Compiled {
    /// Report the records the state function left in `buf` (`jit::Native::run_state`,
    /// `bytecode::Program::run_state`) as `fire_candidates` reports them.
    fn fire_records<F: FnMut(u32, Fired)>(
        &self,
        st: &[i64],
        sc: &mut Scratch,
        buf: &[(usize, i64)],
        f: &mut F,
    ) {
        let mut at = 0;
        while let Some(&(k, code)) = buf.get(at) {
            at += 1;
            let t = &self.trans[k];
            let out = match code {
                FAULT => Outcome::Fault,
                INT_BOUND => Outcome::IntBound,
                GUARD_HOLDS => match t.stage(st, sc).and_then(|()| sc.staged(t)) {
                    Err(o) => o,
                    Ok(det) => Outcome::Enabled(
                        sc.choices(det, |c, w| f(k as u32, Fired::Successor(c, w))),
                    ),
                },
                n => {
                    let w = &buf[at..at + n as usize];
                    at += n as usize;
                    if t.may_conflict && conflict(w) {
                        Outcome::Fault
                    } else {
                        f(k as u32, Fired::Successor(0, w));
                        Outcome::Enabled(1)
                    }
                }
            };
            f(k as u32, Fired::Done(out));
        }
    }
}

/// Whether two writes hit one cell.
#[inline]
fn conflict(w: &[(usize, i64)]) -> bool {
    (1..w.len()).any(|i| w[..i].iter().any(|x| x.0 == w[i].0))
}

impl Scratch {
    /// The writes staged for `t` completed: one per nondeterministic update, with its
    /// first value, after the deterministic ones; their number, or a range error when
    /// two hit one cell.
    #[inline]
    fn staged(&mut self, t: &CTrans) -> Result<usize, Outcome> {
        let det = self.writes.len();
        for (slot, options) in &self.nondet {
            self.writes.push((*slot, options[0]));
        }
        if t.may_conflict && conflict(&self.writes) {
            return Err(Outcome::Fault);
        }
        Ok(det)
    }

    /// Apply the staged writes (the first `det` deterministic) to `st` and call `f` on
    /// every combination of the nondeterministic choices, the last fastest; restores
    /// `st` and returns the number of successors.
    #[inline]
    fn successors(&mut self, st: &mut [i64], det: usize, f: &mut SuccessorFn) -> usize {
        self.saved.clear();
        self.saved.extend(self.writes.iter().map(|&(s, _)| st[s]));
        for &(s, v) in &self.writes[..det] {
            st[s] = v;
        }
        let count = self.choices(det, |c, w| {
            for &(s, v) in &w[det..] {
                st[s] = v;
            }
            f(c, st, w)
        });
        for (&(s, _), &old) in self.writes.iter().zip(&self.saved) {
            st[s] = old;
        }
        count
    }

    /// Call `f(index, writes)` on every combination of the nondeterministic choices
    /// (the writes from `det` on), the last fastest; returns their number.
    #[inline]
    fn choices(&mut self, det: usize, mut f: impl FnMut(usize, &[(usize, i64)])) -> usize {
        self.choice.clear();
        self.choice.resize(self.nondet.len(), 0);
        let mut count = 0;
        loop {
            for (k, (_, options)) in self.nondet.iter().enumerate() {
                self.writes[det + k].1 = options[self.choice[k]];
            }
            f(count, &self.writes);
            count += 1;
            let mut k = self.nondet.len();
            let more = loop {
                if k == 0 {
                    break false;
                }
                k -= 1;
                self.choice[k] += 1;
                if self.choice[k] < self.nondet[k].1.len() {
                    break true;
                }
                self.choice[k] = 0;
            };
            if !more {
                return count;
            }
        }
    }
}
