//! Native code for the transition instances of one size (Cranelift, through
//! `cranelift-jit`). Two kinds of function: the state function, which runs the
//! candidate dispatch (a switch on each dispatch cell, in `Compiled::candidates`'s
//! order) and every candidate's guard (its leading `cell = const` tests, then its
//! jumping code as branches) and, when its updates are all deterministic writes,
//! stages them, leaving a record per instance not disabled in a buffer; and one
//! function per instance doing the same for that instance alone (the searches that
//! fire instances one by one); and one function per `unsafe` property, which checks its
//! tuples in `CProp::check`'s order. An instance with a nondeterministic update has its
//! guard compiled and its updates staged by the interpreter. The code follows the
//! interpreter step by step (the jumping code's tests in order, each tree's operands in
//! `C::eval`'s order, the writes' targets before their values, the same overflow and
//! index checks), so it meets the same range errors at the same place; the interpreter
//! stays the reference (`Compiled::interpreted`, `Compiled::agrees_with`, which the
//! tests run on every generated model and family). This module owns the code memory
//! of a size and the calls into it.

mod emit;

use super::expr::{C, DynCell};
use super::jump::{Atom, Cell, Jumps};
use super::trans::{CTrans, Op, Target};
use super::{CProp, DISABLED, Dispatch, FAULT, Fault, GUARD_HOLDS, INT_BOUND, Ran, Write};
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{AbiParam, Block, InstBuilder, UserFuncName};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Switch};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{Module, default_libcall_names};
use emit::Gen;

/// The most instances fused into one state function (its compile time grows faster
/// than their number).
const STATE_FN_MAX: usize = 4096;

/// The most tuples of a property compiled into one function (as `STATE_FN_MAX`).
const PROP_FN_MAX: usize = 4096;

/// `fn(state, writes) -> code`: reads `state[..slots]`, writes `writes[..n]`.
type Entry = unsafe extern "C" fn(*const i64, *mut Write) -> i64;

/// The native code of a size's transition instances.
pub struct Native {
    /// Kept for its drop, which frees the code.
    _code: Code,
    /// Per instance: its function and the number of writes it stages (`None` for a
    /// guard alone), when it has one.
    fns: Vec<Option<(Entry, Option<u32>)>>,
    /// The state function (`run_state`) and the entries its buffer needs at most.
    state: Option<(Entry, usize)>,
    /// Per property, its check (`check_prop`), when it has one.
    props: Vec<Option<Entry>>,
    /// The number of slots of a state.
    slots: usize,
}

impl std::fmt::Debug for Native {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.fns.iter().filter(|x| x.is_some()).count();
        write!(f, "Native({n} of {} instances)", self.fns.len())
    }
}

/// The module owning the code memory, freed when dropped.
struct Code(Option<JITModule>);

// SAFETY: once its functions are finalized the module is never used again but to be
// freed on drop, which needs the `Code` by value; the code memory it holds is
// read-only and executable, so calling into it from several threads at once is safe
// (the functions touch nothing but their two arguments).
unsafe impl Send for Code {}
// SAFETY: as for `Send`: a shared `Code` gives no access to the module.
unsafe impl Sync for Code {}

impl Drop for Code {
    fn drop(&mut self) {
        if let Some(m) = self.0.take() {
            // SAFETY: the functions' pointers live in the `Native` that owns this
            // `Code` and are dropped with it; no call is running (it would borrow it).
            unsafe { m.free_memory() };
        }
    }
}

impl Native {
    /// Native code for the instances `trans` and the properties `props` over states of
    /// `slots` slots; `None` when the host has no code generator. An instance or a
    /// property the code generator cannot take keeps none (the interpreter runs it).
    pub fn new(
        trans: &[CTrans],
        props: &[CProp],
        dispatch: &Dispatch,
        slots: usize,
    ) -> Option<Native> {
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").ok()?;
        flags.set("is_pic", "false").ok()?;
        // The IR verifier costs compile time on every size; the differential tests
        // (tests/native.rs) are what check the code, and debug builds keep it on.
        let verify = if cfg!(debug_assertions) {
            "true"
        } else {
            "false"
        };
        flags.set("enable_verifier", verify).ok()?;
        let isa = cranelift_native::builder()
            .ok()?
            .finish(settings::Flags::new(flags))
            .ok()?;
        let mut module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
        let mut fctx = FunctionBuilderContext::new();
        let ids: Vec<_> = trans
            .iter()
            .map(|t| {
                let emit = |b: &mut FunctionBuilder| body(b, t);
                fits(t, slots).then(|| define(&mut module, &mut fctx, emit))?
            })
            .collect();
        let whole = trans.len() <= STATE_FN_MAX && trans.iter().all(|t| fits(t, slots));
        let emit = |b: &mut FunctionBuilder| state_body(b, trans, dispatch);
        let state_id = whole
            .then(|| define(&mut module, &mut fctx, emit))
            .flatten();
        let prop_ids: Vec<_> = props
            .iter()
            .map(|p| {
                let emit = |b: &mut FunctionBuilder| prop_body(b, p);
                prop_fits(p, slots).then(|| define(&mut module, &mut fctx, emit))?
            })
            .collect();
        module.finalize_definitions().ok()?;
        let entry = |id| {
            let ptr = module.get_finalized_function(id);
            // SAFETY: `define` gave every function the signature of `Entry` (two
            // pointers in, one i64 out, the host's C calling convention).
            unsafe { std::mem::transmute::<*const u8, Entry>(ptr) }
        };
        let fns = ids
            .iter()
            .zip(trans)
            .map(|(id, t)| Some((entry((*id)?), t.staged().then_some(t.ops.len() as u32))))
            .collect();
        let room = trans
            .iter()
            .map(|t| 1 + if t.staged() { t.ops.len() } else { 0 });
        let state = state_id.map(|id| (entry(id), room.sum()));
        let props = prop_ids.into_iter().map(|id| id.map(entry)).collect();
        Some(Native {
            _code: Code(Some(module)),
            fns,
            state,
            props,
            slots,
        })
    }

    /// How many properties have a native check.
    pub fn native_props(&self) -> usize {
        self.props.iter().filter(|p| p.is_some()).count()
    }

    /// Property `u`'s native check on `st` (what `CProp::check` answers), when it has
    /// one.
    #[inline]
    pub fn check_prop(&self, u: usize, st: &[i64]) -> Option<Result<Option<usize>, Fault>> {
        let f = (*self.props.get(u)?)?;
        if st.len() != self.slots {
            return None;
        }
        // SAFETY: `prop_fits` checked that every slot the function can read lies below
        // `slots` (a run-time index only after its range check), and `st` has that
        // many; the function writes nothing (its second argument is never read).
        let r = unsafe { f(st.as_ptr(), std::ptr::null_mut()) };
        Some(match r {
            FAULT => Err(Fault),
            r if r < 0 => Ok(None),
            r => Ok(Some(r as usize)),
        })
    }

    /// Run the state function on `st`: every candidate instance (`Compiled::candidates`)
    /// in order, the record of each one not disabled in `buf`: `(k, code)`, where code
    /// is `n` for `n` writes staged (the next `n` entries), or `FAULT`, `INT_BOUND` or
    /// `GUARD_HOLDS`. False (and nothing run) when there is no state function.
    #[inline]
    pub fn run_state(&self, st: &[i64], buf: &mut Vec<Write>) -> bool {
        let Some((f, room)) = self.state else {
            return false;
        };
        if st.len() != self.slots {
            return false;
        }
        buf.clear();
        buf.reserve(room);
        // SAFETY: as in `run`, every slot read lies below `slots` (`fits` held for
        // every instance); the function writes at most one header and the staged
        // writes of each instance, `room` entries in all, which `reserve` made room
        // for.
        let n = unsafe { f(st.as_ptr(), buf.as_mut_ptr()) };
        // SAFETY: the function returns the number of entries it wrote from the start
        // of `buf`, each an initialized `(usize, i64)`, at most `room`.
        unsafe { buf.set_len((n as usize).min(room)) };
        true
    }

    /// Run instance `k`'s native code on `st`, staging into `writes`; `None` when it
    /// has none.
    #[inline]
    pub fn run(&self, k: usize, st: &[i64], writes: &mut Vec<Write>) -> Option<Ran> {
        let (f, n) = (*self.fns.get(k)?)?;
        if st.len() != self.slots {
            return None;
        }
        let n = n.unwrap_or(0) as usize;
        writes.clear();
        writes.reserve(n);
        // SAFETY: `fits` checked that every slot the function can read lies below
        // `slots` (a run-time index only after its range check), and `st` has that
        // many; it writes `writes[..n]` at most, which `reserve` made room for, as
        // plain integers of a `(usize, i64)`'s layout (`offset_of!` at definition).
        let r = unsafe { f(st.as_ptr(), writes.as_mut_ptr()) };
        Some(Ran::from_code(r).unwrap_or_else(|| {
            // SAFETY: returning the number of writes, the function wrote all `n`
            // (`Gen::writes` stores each before it counts it; `r == n`), each an
            // initialized `(usize, i64)`, in the room `reserve` made.
            unsafe { writes.set_len(n) };
            Ran::Staged
        }))
    }
}

/// Whether every slot the instance can read or write lies below `slots` (constant
/// slots, and every cell a run-time index reaches), with room for the code's offsets.
fn fits(t: &CTrans, slots: usize) -> bool {
    if !offsets_fit(slots) {
        return false;
    }
    let mark = |c: &C| in_bounds(c, slots);
    let guard_ok = jumps_fit(&t.guard, slots);
    let pre_ok = t.pre.iter().all(|&(s, _, _)| (s as usize) < slots);
    let ops_ok = !t.staged()
        || t.ops.iter().all(|op| match op {
            Op::Write { target, value, .. } => {
                let target_ok = match target {
                    Target::Slot(s) => (*s as usize) < slots,
                    Target::Dyn(d) => dyn_fits(d, slots),
                };
                target_ok && mark(value)
            }
            _ => false,
        });
    guard_ok && pre_ok && ops_ok
}

/// Whether a slot's byte offset fits the code's 32-bit offsets.
fn offsets_fit(slots: usize) -> bool {
    slots.checked_mul(8).is_some_and(|b| b <= i32::MAX as usize)
}

/// Whether every slot the jumping code `j` can read lies below `slots`.
fn jumps_fit(j: &Jumps, slots: usize) -> bool {
    j.tests.iter().all(|x| match &x.atom {
        Atom::Const(_) => true,
        Atom::SlotConst(_, s, _) => (*s as usize) < slots,
        Atom::SlotSlot(_, a, b) => (*a as usize) < slots && (*b as usize) < slots,
        Atom::CellConst(_, c, _) => cell_fits(c, slots),
        Atom::CellSlot(_, c, b) => cell_fits(c, slots) && (*b as usize) < slots,
        Atom::Tree(c) => in_bounds(c, slots),
    })
}

/// Whether a property's check fits one function and reads no slot at or past `slots`.
fn prop_fits(p: &CProp, slots: usize) -> bool {
    offsets_fit(slots)
        && p.tests.len() <= PROP_FN_MAX
        && p.tests.iter().all(|t| {
            t.pre.iter().all(|&(s, _, _)| (s as usize) < slots) && jumps_fit(&t.rest, slots)
        })
}

fn cell_fits(c: &Cell, slots: usize) -> bool {
    (c.slot as usize) < slots && c.base as usize + c.size as usize <= slots
}

/// Whether the index terms of `d` and every cell they can reach lie below `slots`.
fn dyn_fits(d: &DynCell, slots: usize) -> bool {
    if !d.idx.iter().all(|(c, ..)| in_bounds(c, slots)) {
        return false;
    }
    // A position of no values faults before any read.
    if d.idx.iter().any(|x| x.2 == 0) {
        return true;
    }
    let last = d.idx.iter().try_fold(d.base, |acc, (_, _, size, stride)| {
        acc.checked_add((size - 1).checked_mul(*stride)?)
    });
    last.is_some_and(|s| s < slots)
}

/// Whether every slot `c` reads lies below `slots`.
fn in_bounds(c: &C, slots: usize) -> bool {
    let ok = |s: &u32| (*s as usize) < slots;
    match c {
        C::Const(_) | C::Fail => true,
        C::Slot(s) | C::SlotEq(s, _) | C::SlotNe(s, _) | C::CmpSC(_, s, _) | C::SlotAdd(s, _) => {
            ok(s)
        }
        C::CmpSS(_, a, b) => ok(a) && ok(b),
        C::Dyn1 {
            base, slot, size, ..
        } => ok(slot) && *base as usize + *size as usize <= slots,
        C::Dyn(d) => dyn_fits(d, slots),
        C::Arith(_, a, b) | C::Cmp(_, a, b) | C::Imp(a, b) | C::Iff(a, b) => {
            in_bounds(a, slots) && in_bounds(b, slots)
        }
        C::Not(a) => in_bounds(a, slots),
        C::And(xs) | C::Or(xs) => xs.iter().all(|x| in_bounds(x, slots)),
        C::Ite(x) => in_bounds(&x.0, slots) && in_bounds(&x.1, slots) && in_bounds(&x.2, slots),
    }
}

/// Define a function of two pointers returning an i64 in `module`, its body emitted
/// by `emit`; `None` when the code generator fails.
fn define(
    module: &mut JITModule,
    fctx: &mut FunctionBuilderContext,
    emit: impl FnOnce(&mut FunctionBuilder),
) -> Option<cranelift_module::FuncId> {
    let ptr = module.target_config().pointer_type();
    if ptr != I64 {
        return None;
    }
    let mut sig = module.make_signature();
    sig.params.push(AbiParam::new(ptr));
    sig.params.push(AbiParam::new(ptr));
    sig.returns.push(AbiParam::new(I64));
    let id = module.declare_anonymous_function(&sig).ok()?;
    let mut ctx = module.make_context();
    ctx.func.signature = sig;
    ctx.func.name = UserFuncName::user(0, id.as_u32());
    let frontend = module.target_config();
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, fctx);
        emit(&mut b);
        b.seal_all_blocks();
        b.finalize(frontend);
    }
    let ok = module.define_function(id, &mut ctx).is_ok();
    module.clear_context(&mut ctx);
    ok.then_some(id)
}

/// The state function's body: every instance the dispatch lists for the state, in
/// `Compiled::candidates`'s order, each appending its record to the buffer (none when
/// disabled); returns the number of entries written.
fn state_body(b: &mut FunctionBuilder, trans: &[CTrans], d: &Dispatch) {
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let (st, buf) = (b.block_params(entry)[0], b.block_params(entry)[1]);
    let pos = b.declare_var(I64);
    let zero = b.ins().iconst(I64, 0);
    b.def_var(pos, zero);
    let mut g = Gen {
        b,
        st,
        fault: entry,
    };
    let rec = |g: &mut Gen, k: u32| g.record(k, &trans[k as usize], buf, pos);
    for &k in &d.always {
        rec(&mut g, k);
    }
    for &(slot, lo, off, size) in &d.cells {
        let after = g.b.create_block();
        let x = g.slot(slot);
        let lo = g.b.ins().iconst(I64, lo);
        let v = g.b.ins().isub(x, lo);
        let mut arms = Vec::new();
        let mut sw = Switch::new();
        for j in 0..size as usize {
            let (from, to) = (d.starts[off as usize + j], d.starts[off as usize + j + 1]);
            if from < to {
                let arm = g.b.create_block();
                sw.set_entry(j as u128, arm);
                arms.push((arm, &d.items[from as usize..to as usize]));
            }
        }
        sw.emit(g.b, v, after);
        for (arm, items) in arms {
            g.b.switch_to_block(arm);
            for &k in items {
                rec(&mut g, k);
            }
            g.b.ins().jump(after, &[]);
        }
        g.b.switch_to_block(after);
    }
    let n = g.b.use_var(pos);
    g.b.ins().return_(&[n]);
}

/// The function's body: the leading tests, the jumping code, then the writes.
fn body(b: &mut FunctionBuilder, t: &CTrans) {
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let (st, out) = (b.block_params(entry)[0], b.block_params(entry)[1]);
    let ends = [DISABLED, FAULT, INT_BOUND].map(|_| b.create_block());
    let mut g = Gen {
        b,
        st,
        fault: ends[1],
    };
    let holds = g.b.create_block();
    g.guard(t, holds, ends[0]);
    g.b.switch_to_block(holds);
    if t.staged() {
        let n = g.writes(&t.ops, out, ends[2]);
        g.ret(n);
    } else {
        g.ret(GUARD_HOLDS);
    }
    for (blk, code) in ends.into_iter().zip([DISABLED, FAULT, INT_BOUND]) {
        g.b.switch_to_block(blk);
        g.ret(code);
    }
}

/// A property's check, in `CProp::check`'s order: per tuple its leading tests (the
/// first failing skips the run of tuples that share it), then its jumping code;
/// returns the first tuple whose body holds, `DISABLED` when none does, `FAULT` at a
/// range error.
fn prop_body(b: &mut FunctionBuilder, p: &CProp) {
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let st = b.block_params(entry)[0];
    let starts: Vec<Block> = (0..=p.tests.len()).map(|_| b.create_block()).collect();
    let fault = b.create_block();
    b.ins().jump(starts[0], &[]);
    let mut g = Gen { b, st, fault };
    for (k, t) in p.tests.iter().enumerate() {
        g.b.switch_to_block(starts[k]);
        let (next, found) = (starts[k + 1], g.b.create_block());
        for (j, &test) in t.pre.iter().enumerate() {
            g.leading_test(test, if j == 0 { starts[t.skip] } else { next });
        }
        g.jumps(&t.rest, found, next);
        g.b.switch_to_block(found);
        g.ret(k as i64);
    }
    g.b.switch_to_block(starts[p.tests.len()]);
    g.ret(DISABLED);
    g.b.switch_to_block(fault);
    g.ret(FAULT);
}
