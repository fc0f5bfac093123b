//! Assembling the bytecode of the transition instances (`super::Program::new`): the
//! leading tests, the jumping code and the writes of each instance, with labels for
//! targets until the whole program is placed, and the superinstructions picked where
//! the code has their shape.

use super::super::expr::{C, DynCell};
use super::super::jump::{Atom, Cell, FAILS, HOLDS, Jumps, Test};
use super::super::trans::{CTrans, Op, Target};
use super::super::{DISABLED, FAULT, GUARD_HOLDS, INT_BOUND};
use super::{Code, Ins, NEXT, Pc, Range, Reg};
use crate::model::ir::CmpOp;

/// The operands of a comparison test.
#[derive(Clone, Copy)]
enum Operands {
    SK(u32, i64),
    SS(u32, u32),
    CK(Cell, i64),
    CS(Cell, u32),
}

/// The test `x op y` going to `then` when it holds, `other` otherwise: `<>`, `>=`
/// and `>` as `=`, `<` and `<=` with the targets swapped.
fn compare(op: CmpOp, x: Operands, then: Pc, other: Pc) -> Ins {
    use Operands::*;
    let (kind, then, other) = match op {
        CmpOp::Eq => (0, then, other),
        CmpOp::Ne => (0, other, then),
        CmpOp::Lt => (1, then, other),
        CmpOp::Ge => (1, other, then),
        CmpOp::Le => (2, then, other),
        CmpOp::Gt => (2, other, then),
    };
    let op = match (x, kind) {
        (SK(s, k), 0) => Code::EqSK { s, k },
        (SK(s, k), 1) => Code::LtSK { s, k },
        (SK(s, k), _) => Code::LeSK { s, k },
        (SS(a, b), 0) => Code::EqSS { a, b },
        (SS(a, b), 1) => Code::LtSS { a, b },
        (SS(a, b), _) => Code::LeSS { a, b },
        (CK(c, k), 0) => Code::EqCK { c, k },
        (CK(c, k), 1) => Code::LtCK { c, k },
        (CK(c, k), _) => Code::LeCK { c, k },
        (CS(c, b), 0) => Code::EqCS { c, b },
        (CS(c, b), 1) => Code::LtCS { c, b },
        (CS(c, b), _) => Code::LeCS { c, b },
    };
    Ins { op, then, other }
}

/// The kind of run a jumping-code test may join (`Asm::jumps`): `cell = k` tests,
/// or `st[a] op st[b]` tests of one `op` (`=`, `<`, `<=`) and one `b`.
fn run_key(a: &Atom) -> Option<(u8, u32)> {
    match *a {
        Atom::SlotConst(CmpOp::Eq, ..) => Some((0, 0)),
        Atom::SlotSlot(CmpOp::Eq, _, b) => Some((1, b)),
        Atom::SlotSlot(CmpOp::Lt, _, b) => Some((2, b)),
        Atom::SlotSlot(CmpOp::Le, _, b) => Some((3, b)),
        _ => None,
    }
}

/// The length of the run of tests from `i` that one `All` superinstruction can take:
/// tests of one kind, each going on to the next when it holds, all going to the same
/// test when they fail, and none but the first jumped to from elsewhere.
fn run_len(tests: &[Test], i: usize, refs: &[u32]) -> usize {
    let Some(key) = run_key(&tests[i].atom) else {
        return 1;
    };
    let mut n = 1;
    while let Some(t) = tests.get(i + n) {
        let chained = tests[i + n - 1].then as usize == i + n && refs[i + n] == 1;
        if !chained || run_key(&t.atom) != Some(key) || t.other != tests[i].other {
            break;
        }
        n += 1;
    }
    n
}

/// Assembles the program: targets are labels until `Program::new` resolves them.
#[derive(Default)]
pub(super) struct Asm {
    pub(super) code: Vec<Ins>,
    /// Per label, the instruction it names (once placed).
    pub(super) labels: Vec<Option<Pc>>,
    pub(super) pairs: Vec<(u32, i64)>,
    pub(super) slots_of: Vec<u32>,
    pub(super) consts: Vec<(usize, i64)>,
    pub(super) regs: usize,
}

impl Asm {
    pub(super) fn label(&mut self) -> Pc {
        self.labels.push(None);
        (self.labels.len() - 1) as Pc
    }

    /// The label names the next instruction emitted.
    pub(super) fn place(&mut self, l: Pc) {
        self.labels[l as usize] = Some(self.code.len() as Pc);
    }

    fn emit(&mut self, i: Ins) {
        self.code.push(i);
    }

    /// An operation that goes on to the next instruction.
    fn op(&mut self, op: Code) {
        self.emit(Ins {
            op,
            then: NEXT,
            other: NEXT,
        });
    }

    fn test(&mut self, op: Code, then: Pc, other: Pc) {
        self.emit(Ins { op, then, other });
    }

    fn jmp(&mut self, to: Pc) {
        self.test(Code::Jmp, to, to);
    }

    /// Register `d`, counted among those the program needs.
    fn reg(&mut self, d: usize) -> Reg {
        self.regs = self.regs.max(d + 1);
        Reg::try_from(d).expect("expressions nest fewer than 65536 deep")
    }

    /// An instance's segment: the leading tests (a run of `cell = const` as one
    /// `AllEqK`), the jumping code, then the writes (or `GUARD_HOLDS`); a failed test
    /// returns `DISABLED`.
    pub(super) fn instance(&mut self, t: &CTrans) {
        let (holds, fails) = (self.label(), self.label());
        let mut i = 0;
        while let Some(&(s, k, eq)) = t.pre.get(i) {
            let next = self.label();
            let n = t.pre[i..].iter().take_while(|p| p.2).count();
            if n >= 2 {
                let from = self.pairs.len() as u32;
                self.pairs
                    .extend(t.pre[i..i + n].iter().map(|p| (p.0, p.1)));
                self.test(
                    Code::AllEqK {
                        from,
                        len: n as u32,
                    },
                    next,
                    fails,
                );
                i += n;
            } else {
                let op = if eq { CmpOp::Eq } else { CmpOp::Ne };
                self.emit(compare(op, Operands::SK(s, k), next, fails));
                i += 1;
            }
            self.place(next);
        }
        self.jumps(&t.guard, holds, fails);
        self.place(holds);
        if t.staged() {
            self.writes(&t.ops);
            self.op(Code::Done);
        } else {
            self.op(Code::Ret(GUARD_HOLDS));
        }
        self.place(fails);
        self.op(Code::Ret(DISABLED));
    }

    /// The jumping code of a guard: to `yes` when it holds, `no` when it fails; a run
    /// of like tests (`run_len`) as one `All` superinstruction.
    fn jumps(&mut self, j: &Jumps, yes: Pc, no: Pc) {
        let tests = &j.tests;
        let blocks: Vec<Pc> = tests.iter().map(|_| self.label()).collect();
        let to = |l: u32| match l {
            HOLDS => yes,
            FAILS => no,
            l => blocks[l as usize],
        };
        // No tests: the code goes on to `yes`, which `instance` places next.
        let mut refs = vec![0u32; tests.len()];
        for t in tests.iter() {
            for l in [t.then, t.other].into_iter().filter(|&l| l < FAILS) {
                refs[l as usize] += 1;
            }
        }
        let mut i = 0;
        while let Some(test) = tests.get(i) {
            self.place(blocks[i]);
            let n = run_len(tests, i, &refs);
            if n >= 2 {
                let (then, other) = (to(tests[i + n - 1].then), to(test.other));
                self.run(&tests[i..i + n], then, other);
                i += n;
                continue;
            }
            i += 1;
            let (then, other) = (to(test.then), to(test.other));
            let x = match test.atom {
                Atom::Const(v) => {
                    self.jmp(if v { then } else { other });
                    continue;
                }
                Atom::Tree(ref c) => {
                    self.cond(c, then, other, 0);
                    continue;
                }
                Atom::SlotConst(op, s, k) => (op, Operands::SK(s, k)),
                Atom::SlotSlot(op, a, b) => (op, Operands::SS(a, b)),
                Atom::CellConst(op, c, k) => (op, Operands::CK(c, k)),
                Atom::CellSlot(op, c, b) => (op, Operands::CS(c, b)),
            };
            self.emit(compare(x.0, x.1, then, other));
        }
    }

    /// A run of like tests (`run_len`) as one superinstruction.
    fn run(&mut self, tests: &[Test], then: Pc, other: Pc) {
        let len = tests.len() as u32;
        let op = match tests[0].atom {
            Atom::SlotConst(..) => {
                let from = self.pairs.len() as u32;
                for t in tests {
                    if let Atom::SlotConst(_, s, k) = t.atom {
                        self.pairs.push((s, k));
                    }
                }
                Code::AllEqK { from, len }
            }
            Atom::SlotSlot(op, _, b) => {
                let from = self.slots_of.len() as u32;
                for t in tests {
                    if let Atom::SlotSlot(_, a, _) = t.atom {
                        self.slots_of.push(a);
                    }
                }
                match op {
                    CmpOp::Eq => Code::AllEqS { b, from, len },
                    CmpOp::Lt => Code::AllLtS { b, from, len },
                    _ => Code::AllLeS { b, from, len },
                }
            }
            _ => unreachable!("run_key admits slot tests only"),
        };
        self.test(op, then, other);
    }

    /// Go to `yes` when `c` holds (is not 0), to `no` otherwise, evaluating what
    /// `C::eval` evaluates, in its order, and stopping where it stops; registers from
    /// `d` on are free.
    fn cond(&mut self, c: &C, yes: Pc, no: Pc, d: usize) {
        match c {
            C::And(xs) | C::Or(xs) => {
                let and_ = matches!(c, C::And(_));
                let Some((last, init)) = xs.split_last() else {
                    self.jmp(if and_ { yes } else { no });
                    return;
                };
                for x in init {
                    let next = self.label();
                    if and_ {
                        self.cond(x, next, no, d);
                    } else {
                        self.cond(x, yes, next, d);
                    }
                    self.place(next);
                }
                self.cond(last, yes, no, d);
            }
            C::Not(a) => self.cond(a, no, yes, d),
            C::Imp(a, b) => {
                let next = self.label();
                self.cond(a, next, yes, d);
                self.place(next);
                self.cond(b, yes, no, d);
            }
            C::Const(v) => self.jmp(if *v != 0 { yes } else { no }),
            &C::SlotEq(s, k) => self.emit(compare(CmpOp::Eq, Operands::SK(s, k), yes, no)),
            &C::SlotNe(s, k) => self.emit(compare(CmpOp::Ne, Operands::SK(s, k), yes, no)),
            &C::CmpSC(op, s, k) => self.emit(compare(op, Operands::SK(s, k), yes, no)),
            &C::CmpSS(op, a, b) => self.emit(compare(op, Operands::SS(a, b), yes, no)),
            _ => {
                let r = self.val(c, d);
                self.test(Code::Br { r }, yes, no);
            }
        }
    }

    /// Code leaving the value of `c` (a formula's as 0 or 1) in register `d`, as
    /// `C::eval` computes it; registers above `d` are scratch.
    fn val(&mut self, c: &C, d: usize) -> Reg {
        let r = self.reg(d);
        let ins = match c {
            &C::Const(k) => Code::LdK { d: r, k },
            &C::Slot(s) => Code::Ld { d: r, s },
            &C::SlotEq(s, k) => Code::FlagSK {
                op: CmpOp::Eq,
                d: r,
                s,
                k,
            },
            &C::SlotNe(s, k) => Code::FlagSK {
                op: CmpOp::Ne,
                d: r,
                s,
                k,
            },
            &C::CmpSC(op, s, k) => Code::FlagSK { op, d: r, s, k },
            &C::CmpSS(op, a, b) => Code::FlagSS { op, d: r, a, b },
            &C::SlotAdd(s, k) => Code::AddSK { d: r, s, k },
            &C::Dyn1 {
                base,
                slot,
                lo,
                size,
            } => Code::LdCell {
                d: r,
                c: Cell {
                    base,
                    slot,
                    lo,
                    size,
                },
            },
            C::Dyn(dc) => {
                let a = self.dyn_slot(dc, d);
                Code::LdAt { d: r, a }
            }
            C::Arith(op, a, b) => {
                let (x, y) = self.pair(a, b, d);
                Code::Arith {
                    op: *op,
                    d: r,
                    a: x,
                    b: y,
                }
            }
            C::Cmp(op, a, b) => {
                let (x, y) = self.pair(a, b, d);
                Code::Cmp {
                    op: *op,
                    d: r,
                    a: x,
                    b: y,
                }
            }
            C::Iff(a, b) => {
                let (x, y) = self.pair(a, b, d);
                Code::Iff { d: r, a: x, b: y }
            }
            C::Ite(x) => {
                self.choose(&x.0, d, |s| s.val(&x.1, d), |s| s.val(&x.2, d));
                return r;
            }
            C::Not(_) | C::And(_) | C::Or(_) | C::Imp(..) => {
                let one = |s: &mut Asm| s.val(&C::Const(1), d);
                self.choose(c, d, one, |s| s.val(&C::Const(0), d));
                return r;
            }
            C::Fail => Code::Ret(FAULT),
        };
        self.op(ins);
        r
    }

    /// Code leaving `a` in register `d` and then `b` in register `d + 1`.
    fn pair(&mut self, a: &C, b: &C, d: usize) -> (Reg, Reg) {
        let x = self.val(a, d);
        (x, self.val(b, d + 1))
    }

    /// The code `yes` emits when the formula `c` holds, else the code `no` emits (each
    /// leaving its value in register `d`).
    fn choose(
        &mut self,
        c: &C,
        d: usize,
        yes: impl FnOnce(&mut Self) -> Reg,
        no: impl FnOnce(&mut Self) -> Reg,
    ) {
        let (yes_l, no_l, join) = (self.label(), self.label(), self.label());
        self.cond(c, yes_l, no_l, d);
        self.place(yes_l);
        yes(self);
        self.jmp(join);
        self.place(no_l);
        no(self);
        self.place(join);
    }

    /// Code leaving the slot of a cell of run-time index in register `d` (its
    /// indices evaluated in order, each range checked).
    fn dyn_slot(&mut self, dc: &DynCell, d: usize) -> Reg {
        let acc = self.reg(d);
        if let [(C::Slot(slot), lo, size, 1)] = dc.idx[..]
            && let (Ok(base), Ok(size)) = (u32::try_from(dc.base), u32::try_from(size))
        {
            let c = Cell {
                base,
                slot,
                lo,
                size,
            };
            self.op(Code::CellAt { d: acc, c });
            return acc;
        }
        self.op(Code::LdK {
            d: acc,
            k: dc.base as i64,
        });
        for &(ref c, lo, size, stride) in &dc.idx {
            let v = self.val(c, d + 1);
            self.op(Code::Idx {
                acc,
                v,
                lo,
                size,
                stride,
            });
        }
        acc
    }

    /// Stage the writes of `ops` (deterministic writes only), in order: a run of
    /// constants stored into constant slots as one `PutAllK`.
    fn writes(&mut self, ops: &[Op]) {
        let constant = |op: &Op| match *op {
            Op::Write {
                target: Target::Slot(s),
                value: C::Const(k),
                lo,
                hi,
                ..
            } if (lo..=hi).contains(&k) => Some((s as usize, k)),
            _ => None,
        };
        let mut i = 0;
        while let Some(op) = ops.get(i) {
            let n = ops[i..]
                .iter()
                .take_while(|op| constant(op).is_some())
                .count();
            if n >= 2 {
                let from = self.consts.len() as u32;
                self.consts
                    .extend(ops[i..i + n].iter().filter_map(constant));
                self.op(Code::PutAllK {
                    from,
                    len: n as u32,
                });
                i += n;
                continue;
            }
            if let Op::Write {
                target,
                value,
                lo,
                hi,
                int,
            } = op
            {
                let code = if *int { INT_BOUND } else { FAULT };
                self.write(
                    target,
                    value,
                    Range {
                        lo: *lo,
                        hi: *hi,
                        code,
                    },
                );
            }
            i += 1;
        }
    }

    /// Stage one write: its target, then its value, then the value's range.
    fn write(&mut self, target: &Target, value: &C, range: Range) {
        match (target, value) {
            (&Target::Slot(s), &C::Const(k)) => self.op(match range.holds(k) {
                true => Code::PutK { s, k },
                false => Code::Ret(range.code),
            }),
            (&Target::Slot(s), &C::Slot(src)) => self.op(Code::PutS { s, src, range }),
            (&Target::Slot(s), &C::SlotAdd(src, k)) => self.op(Code::PutAddK { s, src, k, range }),
            (&Target::Slot(s), value) => {
                let r = self.val(value, 0);
                self.op(Code::PutR { s, r, range });
            }
            (Target::Dyn(dc), value) => {
                let at = self.dyn_slot(dc, 0);
                match *value {
                    C::Const(k) if range.holds(k) => self.op(Code::PutAtK { at, k }),
                    C::Const(_) => self.op(Code::Ret(range.code)),
                    _ => {
                        let r = self.val(value, 1);
                        self.op(Code::PutAtR { at, r, range });
                    }
                }
            }
        }
    }
}
