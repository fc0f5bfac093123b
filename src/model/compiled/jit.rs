//! Native code for the transition instances of one size (Cranelift, through
//! `cranelift-jit`). Two kinds of function: the state function, which runs the
//! candidate dispatch (a switch on each dispatch cell, in `Compiled::candidates`'s
//! order) and every candidate's guard (its leading `cell = const` tests, then its
//! jumping code as branches) and, when its updates are all deterministic writes,
//! stages them, leaving a record per instance not disabled in a buffer; and one
//! function per instance doing the same for that instance alone (the searches that
//! fire instances one by one). An instance with a nondeterministic update has its
//! guard compiled and its updates staged by the interpreter. The code follows the
//! interpreter step by step (the jumping code's tests in order, each tree's operands in
//! `C::eval`'s order, the writes' targets before their values, the same overflow and
//! index checks), so it meets the same range errors at the same place; the interpreter
//! stays the reference (`Compiled::interpreted`, `Compiled::agrees_with`, which the
//! tests run on every generated model and family). This module owns the code memory
//! of a size and the calls into it.

use super::expr::{C, DynCell};
use super::jump::{Atom, Cell, FAILS, HOLDS, Jumps};
use super::trans::{CTrans, Op, Target};
use super::{DISABLED, Dispatch, FAULT, GUARD_HOLDS, INT_BOUND, Ran, Write};
use crate::model::ir::{ArithOp, CmpOp};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{
    AbiParam, Block, BlockArg, InstBuilder, MemFlagsData, UserFuncName, Value,
};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Switch, Variable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{Module, default_libcall_names};
use std::mem::offset_of;

/// The most instances fused into one state function (its compile time grows faster
/// than their number).
const STATE_FN_MAX: usize = 4096;

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
    /// Native code for the instances `trans` over states of `slots` slots; `None` when
    /// the host has no code generator. An instance the code generator cannot take
    /// keeps none (the interpreter runs it).
    pub fn new(trans: &[CTrans], dispatch: &Dispatch, slots: usize) -> Option<Native> {
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
        Some(Native {
            _code: Code(Some(module)),
            fns,
            state,
            slots,
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
    if slots.checked_mul(8).is_none_or(|b| b > i32::MAX as usize) {
        return false;
    }
    let mark = |c: &C| in_bounds(c, slots);
    let guard_ok = t.guard.tests.iter().all(|x| match &x.atom {
        Atom::Const(_) => true,
        Atom::SlotConst(_, s, _) => (*s as usize) < slots,
        Atom::SlotSlot(_, a, b) => (*a as usize) < slots && (*b as usize) < slots,
        Atom::CellConst(_, c, _) => cell_fits(c, slots),
        Atom::CellSlot(_, c, b) => cell_fits(c, slots) && (*b as usize) < slots,
        Atom::Tree(c) => mark(c),
    });
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

/// Emits code into one function: `st` is the state's address; a range error jumps to
/// `fault`.
struct Gen<'a, 'b> {
    b: &'a mut FunctionBuilder<'b>,
    st: Value,
    fault: Block,
}

fn cc(op: CmpOp) -> IntCC {
    match op {
        CmpOp::Eq => IntCC::Equal,
        CmpOp::Ne => IntCC::NotEqual,
        CmpOp::Lt => IntCC::SignedLessThan,
        CmpOp::Le => IntCC::SignedLessThanOrEqual,
        CmpOp::Gt => IntCC::SignedGreaterThan,
        CmpOp::Ge => IntCC::SignedGreaterThanOrEqual,
    }
}

impl Gen<'_, '_> {
    fn ret(&mut self, code: i64) {
        let v = self.b.ins().iconst(I64, code);
        self.b.ins().return_(&[v]);
    }

    /// `st[s]` for a constant slot.
    fn slot(&mut self, s: u32) -> Value {
        self.b
            .ins()
            .load(I64, MemFlagsData::trusted(), self.st, (s * 8) as i32)
    }

    /// `st[idx]` for a slot computed at run time (already range checked).
    fn slot_at(&mut self, idx: Value) -> Value {
        let off = self.b.ins().ishl_imm_u(idx, 3);
        let addr = self.b.ins().iadd(self.st, off);
        self.b.ins().load(I64, MemFlagsData::trusted(), addr, 0)
    }

    /// Go to `to` when `c` is `when` (non-zero for true); go on otherwise.
    fn check(&mut self, c: Value, to: Block, when: bool) {
        let go_on = self.b.create_block();
        if when {
            self.b.ins().brif(c, to, &[], go_on, &[]);
        } else {
            self.b.ins().brif(c, go_on, &[], to, &[]);
        }
        self.b.switch_to_block(go_on);
    }

    /// The guard of `t`: its leading tests, then its jumping code; to `holds` when it
    /// holds, `fails` when it fails.
    fn guard(&mut self, t: &CTrans, holds: Block, fails: Block) {
        for &(s, v, eq) in &t.pre {
            let x = self.slot(s);
            let cc = if eq { IntCC::Equal } else { IntCC::NotEqual };
            let c = self.b.ins().icmp_imm_s(cc, x, v);
            self.check(c, fails, false);
        }
        self.jumps(&t.guard, holds, fails);
    }

    /// Instance `k` (`t`) in the state function: when it is not disabled, its record at
    /// entry `pos` of `buf` (`(k, code)`, then the writes it staged) and `pos` past it;
    /// the code goes on after it in every case.
    fn record(&mut self, k: u32, t: &CTrans, buf: Value, pos: Variable) {
        let [next, fault, int_bound, holds] = [(); 4].map(|_| self.b.create_block());
        self.fault = fault;
        self.guard(t, holds, next);
        let ends = [(holds, GUARD_HOLDS), (fault, FAULT), (int_bound, INT_BOUND)];
        for (blk, code) in ends {
            self.b.switch_to_block(blk);
            let p = self.b.use_var(pos);
            let at = self.b.ins().imul_imm_s(p, size_of::<Write>() as i64);
            let at = self.b.ins().iadd(buf, at);
            let mut n = 0;
            if blk == holds && t.staged() {
                let out = self.b.ins().iadd_imm_s(at, size_of::<Write>() as i64);
                n = self.writes(&t.ops, out, int_bound);
            }
            let code = if blk == holds && t.staged() { n } else { code };
            let (k, code) = (
                self.b.ins().iconst(I64, k as i64),
                self.b.ins().iconst(I64, code),
            );
            let flags = MemFlagsData::trusted();
            self.b
                .ins()
                .store(flags, k, at, offset_of!(Write, 0) as i32);
            self.b
                .ins()
                .store(flags, code, at, offset_of!(Write, 1) as i32);
            let p = self.b.ins().iadd_imm_s(p, 1 + n);
            self.b.def_var(pos, p);
            self.b.ins().jump(next, &[]);
        }
        self.b.switch_to_block(next);
    }

    /// `v - lo`, a range error unless it lies in `0..size`.
    fn offset(&mut self, v: Value, lo: i64, size: u64) -> Value {
        let lo = self.b.ins().iconst(I64, lo);
        let off = self.b.ins().isub(v, lo);
        let bad = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, off, size as i64);
        self.check(bad, self.fault, true);
        off
    }

    /// A cell of a one-dimensional array indexed by a slot.
    fn cell(&mut self, base: u32, slot: u32, lo: i64, size: u32) -> Value {
        let ix = self.slot(slot);
        let off = self.offset(ix, lo, size as u64);
        let at = self.b.ins().iadd_imm_s(off, base as i64);
        self.slot_at(at)
    }

    /// The slot of a cell of run-time index.
    fn dyn_slot(&mut self, d: &DynCell) -> Value {
        let mut at = self.b.ins().iconst(I64, d.base as i64);
        for (c, lo, size, stride) in &d.idx {
            let v = self.val(c);
            let off = self.offset(v, *lo, *size as u64);
            let scaled = self.b.ins().imul_imm_s(off, *stride as i64);
            at = self.b.ins().iadd(at, scaled);
        }
        at
    }

    /// The jumping code of a guard: to `yes` when it holds, `no` when it fails.
    fn jumps(&mut self, j: &Jumps, yes: Block, no: Block) {
        let blocks: Vec<Block> = j.tests.iter().map(|_| self.b.create_block()).collect();
        let to = |l: u32| match l {
            HOLDS => yes,
            FAILS => no,
            l => blocks[l as usize],
        };
        match blocks.first() {
            Some(&first) => self.b.ins().jump(first, &[]),
            None => self.b.ins().jump(yes, &[]),
        };
        for (test, &blk) in j.tests.iter().zip(&blocks) {
            self.b.switch_to_block(blk);
            let (then, other) = (to(test.then), to(test.other));
            let c = match &test.atom {
                Atom::Const(v) => {
                    self.b.ins().jump(if *v { then } else { other }, &[]);
                    continue;
                }
                Atom::Tree(c) => {
                    self.cond(c, then, other);
                    continue;
                }
                Atom::SlotConst(op, s, k) => {
                    let x = self.slot(*s);
                    self.b.ins().icmp_imm_s(cc(*op), x, *k)
                }
                Atom::SlotSlot(op, a, b) => {
                    let (x, y) = (self.slot(*a), self.slot(*b));
                    self.b.ins().icmp(cc(*op), x, y)
                }
                Atom::CellConst(op, c, k) => {
                    let x = self.cell(c.base, c.slot, c.lo, c.size);
                    self.b.ins().icmp_imm_s(cc(*op), x, *k)
                }
                Atom::CellSlot(op, c, b) => {
                    let x = self.cell(c.base, c.slot, c.lo, c.size);
                    let y = self.slot(*b);
                    self.b.ins().icmp(cc(*op), x, y)
                }
            };
            self.b.ins().brif(c, then, &[], other, &[]);
        }
    }

    /// Go to `yes` when `c` holds (is not 0), to `no` otherwise, evaluating what
    /// `C::eval` evaluates, in its order, and stopping where it stops.
    fn cond(&mut self, c: &C, yes: Block, no: Block) {
        match c {
            C::And(xs) | C::Or(xs) => {
                let and_ = matches!(c, C::And(_));
                let Some((last, init)) = xs.split_last() else {
                    self.b.ins().jump(if and_ { yes } else { no }, &[]);
                    return;
                };
                for x in init {
                    let next = self.b.create_block();
                    if and_ {
                        self.cond(x, next, no);
                    } else {
                        self.cond(x, yes, next);
                    }
                    self.b.switch_to_block(next);
                }
                self.cond(last, yes, no);
            }
            C::Not(a) => self.cond(a, no, yes),
            C::Imp(a, b) => {
                let next = self.b.create_block();
                self.cond(a, next, yes);
                self.b.switch_to_block(next);
                self.cond(b, yes, no);
            }
            C::Const(v) => {
                self.b.ins().jump(if *v != 0 { yes } else { no }, &[]);
            }
            _ => {
                let v = self.val(c);
                self.b.ins().brif(v, yes, &[], no, &[]);
            }
        }
    }

    /// A comparison's truth as 0 or 1.
    fn flag(&mut self, op: CmpOp, a: Value, b: Value) -> Value {
        let c = self.b.ins().icmp(cc(op), a, b);
        self.b.ins().uextend(I64, c)
    }

    /// The value of `c` (a formula's as 0 or 1), as `C::eval` computes it.
    fn val(&mut self, c: &C) -> Value {
        match c {
            C::Const(v) => self.b.ins().iconst(I64, *v),
            C::Slot(s) => self.slot(*s),
            C::SlotEq(s, v) => self.slot_flag(CmpOp::Eq, *s, *v),
            C::SlotNe(s, v) => self.slot_flag(CmpOp::Ne, *s, *v),
            C::CmpSC(op, s, v) => self.slot_flag(*op, *s, *v),
            C::CmpSS(op, a, b) => {
                let (x, y) = (self.slot(*a), self.slot(*b));
                self.flag(*op, x, y)
            }
            C::SlotAdd(s, k) => {
                let (x, k) = (self.slot(*s), self.b.ins().iconst(I64, *k));
                self.arith(ArithOp::Add, x, k)
            }
            C::Dyn1 {
                base,
                slot,
                lo,
                size,
            } => self.cell(*base, *slot, *lo, *size),
            C::Dyn(d) => {
                let at = self.dyn_slot(d);
                self.slot_at(at)
            }
            C::Arith(op, a, b) => {
                let (x, y) = (self.val(a), self.val(b));
                self.arith(*op, x, y)
            }
            C::Cmp(op, a, b) => {
                let (x, y) = (self.val(a), self.val(b));
                self.flag(*op, x, y)
            }
            C::Iff(a, b) => self.iff(a, b),
            C::Ite(x) => self.ite(&x.0, &x.1, &x.2),
            C::Fail => {
                self.b.ins().jump(self.fault, &[]);
                let dead = self.b.create_block();
                self.b.switch_to_block(dead);
                self.b.ins().iconst(I64, 0)
            }
            C::Not(_) | C::And(_) | C::Or(_) | C::Imp(..) => {
                let one = self.b.ins().iconst(I64, 1);
                let zero = self.b.ins().iconst(I64, 0);
                self.branches(c, one, zero)
            }
        }
    }

    /// `st[s] op k` as 0 or 1.
    fn slot_flag(&mut self, op: CmpOp, s: u32, k: i64) -> Value {
        let (x, k) = (self.slot(s), self.b.ins().iconst(I64, k));
        self.flag(op, x, k)
    }

    /// `a <=> b` as 0 or 1, `a` evaluated first.
    fn iff(&mut self, a: &C, b: &C) -> Value {
        let x = self.val(a);
        let x = self.b.ins().icmp_imm_s(IntCC::NotEqual, x, 0);
        let y = self.val(b);
        let y = self.b.ins().icmp_imm_s(IntCC::NotEqual, y, 0);
        let e = self.b.ins().icmp(IntCC::Equal, x, y);
        self.b.ins().uextend(I64, e)
    }

    /// `x op y`, a range error on overflow.
    fn arith(&mut self, op: ArithOp, x: Value, y: Value) -> Value {
        let (r, overflow) = match op {
            ArithOp::Add => self.b.ins().sadd_overflow(x, y),
            ArithOp::Sub => self.b.ins().ssub_overflow(x, y),
            ArithOp::Mul => self.b.ins().smul_overflow(x, y),
        };
        self.check(overflow, self.fault, true);
        r
    }

    /// `yes_v` when the formula `c` holds, else `no_v`.
    fn branches(&mut self, c: &C, yes_v: Value, no_v: Value) -> Value {
        self.choose(c, |_| yes_v, |_| no_v)
    }

    /// `if c then a else b`, evaluating only the branch taken.
    fn ite(&mut self, c: &C, a: &C, b: &C) -> Value {
        self.choose(c, |s| s.val(a), |s| s.val(b))
    }

    /// The value `yes` emits when the formula `c` holds, else the one `no` emits, each
    /// emitted in its own block, joined by a block parameter.
    fn choose(
        &mut self,
        c: &C,
        yes: impl FnOnce(&mut Self) -> Value,
        no: impl FnOnce(&mut Self) -> Value,
    ) -> Value {
        let (yes_b, no_b, join) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        let v = self.b.append_block_param(join, I64);
        self.cond(c, yes_b, no_b);
        self.b.switch_to_block(yes_b);
        let x = yes(self);
        self.b.ins().jump(join, &[BlockArg::Value(x)]);
        self.b.switch_to_block(no_b);
        let y = no(self);
        self.b.ins().jump(join, &[BlockArg::Value(y)]);
        self.b.switch_to_block(join);
        v
    }

    /// Stage the writes of `ops` (deterministic writes only) into `out`, in order: each
    /// target, then its value, then the value's range; returns their number.
    fn writes(&mut self, ops: &[Op], out: Value, int_bound: Block) -> i64 {
        let stride = size_of::<Write>() as i32;
        let (at_slot, at_val) = (offset_of!(Write, 0) as i32, offset_of!(Write, 1) as i32);
        let mut n = 0i32;
        for op in ops {
            let Op::Write {
                target,
                value,
                lo,
                hi,
                int,
            } = op
            else {
                continue;
            };
            let slot = match target {
                Target::Slot(s) => self.b.ins().iconst(I64, *s as i64),
                Target::Dyn(d) => self.dyn_slot(d),
            };
            let v = self.val(value);
            let below = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, v, *lo);
            let above = self.b.ins().icmp_imm_s(IntCC::SignedGreaterThan, v, *hi);
            let out_of = self.b.ins().bor(below, above);
            self.check(out_of, if *int { int_bound } else { self.fault }, true);
            let flags = MemFlagsData::trusted();
            self.b.ins().store(flags, slot, out, n * stride + at_slot);
            self.b.ins().store(flags, v, out, n * stride + at_val);
            n += 1;
        }
        n as i64
    }
}
