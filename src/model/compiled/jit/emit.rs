//! The code emitter of `jit`: one `Gen` per function, emitting the interpreter's
//! steps as Cranelift instructions (the jumping code's tests as branches, trees in
//! `C::eval`'s order, the staged writes), so that the code meets the same range errors
//! at the same place.

use super::super::expr::{C, DynCell};
use super::super::jump::{Atom, FAILS, HOLDS, Jumps};
use super::super::trans::{CTrans, Op, Target};
use super::super::{FAULT, GUARD_HOLDS, INT_BOUND, Write};
use crate::model::ir::{ArithOp, CmpOp};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::{FunctionBuilder, Variable};
use std::mem::offset_of;

/// Emits code into one function: `st` is the state's address; a range error jumps to
/// `fault`.
pub(super) struct Gen<'a, 'b> {
    pub(super) b: &'a mut FunctionBuilder<'b>,
    pub(super) st: Value,
    pub(super) fault: Block,
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
    pub(super) fn ret(&mut self, code: i64) {
        let v = self.b.ins().iconst(I64, code);
        self.b.ins().return_(&[v]);
    }

    /// `st[s]` for a constant slot.
    pub(super) fn slot(&mut self, s: u32) -> Value {
        self.b
            .ins()
            .load(I64, MemFlagsData::trusted(), self.st, (s * 8) as i32)
    }

    /// `st[idx]` for a slot computed at run time (already range checked).
    pub(super) fn slot_at(&mut self, idx: Value) -> Value {
        let off = self.b.ins().ishl_imm_u(idx, 3);
        let addr = self.b.ins().iadd(self.st, off);
        self.b.ins().load(I64, MemFlagsData::trusted(), addr, 0)
    }

    /// Go to `to` when `c` is `when` (non-zero for true); go on otherwise.
    pub(super) fn check(&mut self, c: Value, to: Block, when: bool) {
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
    pub(super) fn guard(&mut self, t: &CTrans, holds: Block, fails: Block) {
        for &test in &t.pre {
            self.leading_test(test, fails);
        }
        self.jumps(&t.guard, holds, fails);
    }

    /// A leading test `st[s] = v` (`<>` when not `eq`): to `fails` when it fails, on
    /// otherwise.
    pub(super) fn leading_test(&mut self, (s, v, eq): (u32, i64, bool), fails: Block) {
        let x = self.slot(s);
        let cc = if eq { IntCC::Equal } else { IntCC::NotEqual };
        let c = self.b.ins().icmp_imm_s(cc, x, v);
        self.check(c, fails, false);
    }

    /// Instance `k` (`t`) in the state function: when it is not disabled, its record at
    /// entry `pos` of `buf` (`(k, code)`, then the writes it staged) and `pos` past it;
    /// the code goes on after it in every case.
    pub(super) fn record(&mut self, k: u32, t: &CTrans, buf: Value, pos: Variable) {
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
    pub(super) fn offset(&mut self, v: Value, lo: i64, size: u64) -> Value {
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
    pub(super) fn cell(&mut self, base: u32, slot: u32, lo: i64, size: u32) -> Value {
        let ix = self.slot(slot);
        let off = self.offset(ix, lo, size as u64);
        let at = self.b.ins().iadd_imm_s(off, base as i64);
        self.slot_at(at)
    }

    /// The slot of a cell of run-time index.
    pub(super) fn dyn_slot(&mut self, d: &DynCell) -> Value {
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
    pub(super) fn jumps(&mut self, j: &Jumps, yes: Block, no: Block) {
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
    pub(super) fn cond(&mut self, c: &C, yes: Block, no: Block) {
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
    pub(super) fn flag(&mut self, op: CmpOp, a: Value, b: Value) -> Value {
        let c = self.b.ins().icmp(cc(op), a, b);
        self.b.ins().uextend(I64, c)
    }

    /// The value of `c` (a formula's as 0 or 1), as `C::eval` computes it.
    pub(super) fn val(&mut self, c: &C) -> Value {
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
    pub(super) fn slot_flag(&mut self, op: CmpOp, s: u32, k: i64) -> Value {
        let (x, k) = (self.slot(s), self.b.ins().iconst(I64, k));
        self.flag(op, x, k)
    }

    /// `a <=> b` as 0 or 1, `a` evaluated first.
    pub(super) fn iff(&mut self, a: &C, b: &C) -> Value {
        let x = self.val(a);
        let x = self.b.ins().icmp_imm_s(IntCC::NotEqual, x, 0);
        let y = self.val(b);
        let y = self.b.ins().icmp_imm_s(IntCC::NotEqual, y, 0);
        let e = self.b.ins().icmp(IntCC::Equal, x, y);
        self.b.ins().uextend(I64, e)
    }

    /// `x op y`, a range error on overflow.
    pub(super) fn arith(&mut self, op: ArithOp, x: Value, y: Value) -> Value {
        let (r, overflow) = match op {
            ArithOp::Add => self.b.ins().sadd_overflow(x, y),
            ArithOp::Sub => self.b.ins().ssub_overflow(x, y),
            ArithOp::Mul => self.b.ins().smul_overflow(x, y),
        };
        self.check(overflow, self.fault, true);
        r
    }

    /// `yes_v` when the formula `c` holds, else `no_v`.
    pub(super) fn branches(&mut self, c: &C, yes_v: Value, no_v: Value) -> Value {
        self.choose(c, |_| yes_v, |_| no_v)
    }

    /// `if c then a else b`, evaluating only the branch taken.
    pub(super) fn ite(&mut self, c: &C, a: &C, b: &C) -> Value {
        self.choose(c, |s| s.val(a), |s| s.val(b))
    }

    /// The value `yes` emits when the formula `c` holds, else the one `no` emits, each
    /// emitted in its own block, joined by a block parameter.
    pub(super) fn choose(
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
    pub(super) fn writes(&mut self, ops: &[Op], out: Value, int_bound: Block) -> i64 {
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
