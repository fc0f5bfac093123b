//! A register bytecode for the transition instances of one size (`--compile bytecode`):
//! the alternative to the native code of `jit` that issue 46 asked to measure before
//! choosing. Each instance becomes one straight segment of a flat program: its leading
//! `cell = const` tests, its jumping code, and, when its updates are all deterministic
//! writes, the writes, ending in a return code; expressions that are not one test run
//! on a small register file. The commonest shapes of Peterson's and German's guards and
//! updates are single superinstructions: a slot compared with a constant (or a slot, or
//! an array cell read through a slot) and branched on, a run of `cell = const` tests
//! or of `st[a] < st[b]` tests of one `b` (unrolled quantifiers), a slot plus a
//! constant, a constant, a run of constants or a slot stored. Measured against the
//! native code it runs 3 % fewer instructions than the interpreter where the native
//! code runs 14 to 33 % fewer (docs/engines.md, "Native code or bytecode"), so it is
//! not the default. Outcomes, codes and records are those of `jit` (a record
//! per instance not disabled: `(k, code)`, then the writes), so `Compiled` runs either
//! the same way; the code follows the interpreter step by step (tests in order,
//! operands in `C::eval`'s order, targets before values, the same overflow and index
//! checks), so it meets the same range errors, and the interpreter stays the reference
//! (`Compiled::agrees_with`, run by tests/native.rs and tests/generated.rs). This module
//! owns the program of a size and its interpreter loop; `asm` assembles it.

mod asm;

use super::jump::Cell;
use super::trans::CTrans;
use super::{DISABLED, Dispatch, FAULT, Ran, Write};
use crate::model::ir::{ArithOp, CmpOp};

/// An instruction's index (a label's number while the program is assembled).
type Pc = u32;
/// A register.
type Reg = u16;

/// The range a stored value must lie in, and the code for leaving it.
#[derive(Clone, Copy, Debug)]
struct Range {
    lo: i64,
    hi: i64,
    /// `INT_BOUND` for an `int` target (leaving the int window), else `FAULT`.
    code: i64,
}

impl Range {
    #[inline(always)]
    fn holds(self, v: i64) -> bool {
        v >= self.lo && v <= self.hi
    }
}

/// One instruction: an operation and, for a test, where it goes when it holds
/// (`then`) and when it fails (`other`); every other operation goes on to the next
/// instruction (`Jmp` to `then`).
#[derive(Clone, Copy, Debug)]
struct Ins {
    op: Code,
    then: Pc,
    other: Pc,
}

/// An operation. The tests come in `=`, `<` and `<=` only: `<>`, `>=` and `>` are
/// those with their targets swapped. An operation that meets a range error returns
/// `FAULT` at once.
#[derive(Clone, Copy, Debug)]
enum Code {
    /// `st[s] = k` (the commonest test: every leading test and most guards).
    EqSK {
        s: u32,
        k: i64,
    },
    LtSK {
        s: u32,
        k: i64,
    },
    LeSK {
        s: u32,
        k: i64,
    },
    /// `st[a] = st[b]`.
    EqSS {
        a: u32,
        b: u32,
    },
    LtSS {
        a: u32,
        b: u32,
    },
    LeSS {
        a: u32,
        b: u32,
    },
    /// `A[st[slot]] = k`: the indexed cell loaded, compared and branched on.
    EqCK {
        c: Cell,
        k: i64,
    },
    LtCK {
        c: Cell,
        k: i64,
    },
    LeCK {
        c: Cell,
        k: i64,
    },
    /// `A[st[slot]] = st[b]`.
    EqCS {
        c: Cell,
        b: u32,
    },
    LtCS {
        c: Cell,
        b: u32,
    },
    LeCS {
        c: Cell,
        b: u32,
    },
    /// Every `st[s] = k` of `pairs[from..from + len]` (a run of leading tests, or
    /// an unrolled `forall j. A[j] = k`), tested in order.
    AllEqK {
        from: u32,
        len: u32,
    },
    /// Every `st[a] < st[b]` for the `a` of `slots[from..from + len]` (an unrolled
    /// `forall_other j. Lev[j] < Lev[i]`), in order; `Le` and `Eq` likewise.
    AllLtS {
        b: u32,
        from: u32,
        len: u32,
    },
    AllLeS {
        b: u32,
        from: u32,
        len: u32,
    },
    AllEqS {
        b: u32,
        from: u32,
        len: u32,
    },
    /// Register `r` is not 0.
    Br {
        r: Reg,
    },
    Jmp,
    LdK {
        d: Reg,
        k: i64,
    },
    Ld {
        d: Reg,
        s: u32,
    },
    /// `d = A[st[slot]]`.
    LdCell {
        d: Reg,
        c: Cell,
    },
    /// `d = st[r[a]]` (a slot computed and checked by `Idx` or `CellAt`).
    LdAt {
        d: Reg,
        a: Reg,
    },
    /// `d = (st[s] op k)` as 0 or 1.
    FlagSK {
        op: CmpOp,
        d: Reg,
        s: u32,
        k: i64,
    },
    FlagSS {
        op: CmpOp,
        d: Reg,
        a: u32,
        b: u32,
    },
    /// `d = st[s] + k` (overflow faults).
    AddSK {
        d: Reg,
        s: u32,
        k: i64,
    },
    Arith {
        op: ArithOp,
        d: Reg,
        a: Reg,
        b: Reg,
    },
    Cmp {
        op: CmpOp,
        d: Reg,
        a: Reg,
        b: Reg,
    },
    Iff {
        d: Reg,
        a: Reg,
        b: Reg,
    },
    /// `acc += (r[v] - lo) * stride`, a fault unless `r[v] - lo` lies in `0..size`.
    Idx {
        acc: Reg,
        v: Reg,
        lo: i64,
        size: usize,
        stride: usize,
    },
    /// `d = base + st[slot] - lo`, a fault unless the offset lies in `0..size`.
    CellAt {
        d: Reg,
        c: Cell,
    },
    /// Stage the writes `consts[from..from + len]` (constants checked against their
    /// ranges when assembled: the two to four constant stores of most updates).
    PutAllK {
        from: u32,
        len: u32,
    },
    /// Stage `(s, k)` (`k` checked against the range when assembled).
    PutK {
        s: u32,
        k: i64,
    },
    /// Stage `(s, st[src])`.
    PutS {
        s: u32,
        src: u32,
        range: Range,
    },
    /// Stage `(s, st[src] + k)` (overflow faults first).
    PutAddK {
        s: u32,
        src: u32,
        k: i64,
        range: Range,
    },
    PutR {
        s: u32,
        r: Reg,
        range: Range,
    },
    /// Stage `(r[at], k)`.
    PutAtK {
        at: Reg,
        k: i64,
    },
    PutAtR {
        at: Reg,
        r: Reg,
        range: Range,
    },
    /// Return a code (`DISABLED`, `FAULT`, `INT_BOUND`, `GUARD_HOLDS`).
    Ret(i64),
    /// Return the number of writes staged.
    Done,
}

/// The program of a size's transition instances.
#[derive(Debug)]
pub struct Program {
    code: Box<[Ins]>,
    /// The `(slot, value)` tests of the `AllEqK` runs.
    pairs: Box<[(u32, i64)]>,
    /// The slots of the `AllLtS`, `AllLeS`, `AllEqS` runs.
    slots_of: Box<[u32]>,
    /// The writes of the `PutAllK` runs.
    consts: Box<[Write]>,
    /// Per instance: its first instruction and the writes it stages (`None` when it
    /// runs the guard alone and the interpreter stages the updates).
    entry: Box<[(Pc, Option<u32>)]>,
    /// The registers the program needs.
    regs: usize,
    /// The number of slots of a state.
    slots: usize,
}

/// The target of an instruction that goes on to the next one.
const NEXT: Pc = Pc::MAX;

impl Program {
    /// The program of the instances `trans` over states of `slots` slots.
    pub fn new(trans: &[CTrans], slots: usize) -> Program {
        let mut a = asm::Asm::default();
        let entry = trans
            .iter()
            .map(|t| {
                let start = a.label();
                a.place(start);
                a.instance(t);
                (start, t.staged().then_some(t.ops.len() as u32))
            })
            .collect::<Vec<_>>();
        let labels = a.labels;
        let at = |l: Pc| match l {
            NEXT => NEXT,
            l => labels[l as usize].expect("every label jumped to is placed"),
        };
        let code = a.code.into_iter().map(|i| Ins {
            then: at(i.then),
            other: at(i.other),
            ..i
        });
        Program {
            code: code.collect(),
            pairs: a.pairs.into(),
            slots_of: a.slots_of.into(),
            consts: a.consts.into(),
            entry: entry.into_iter().map(|(l, n)| (at(l), n)).collect(),
            regs: a.regs,
            slots,
        }
    }

    /// Run instance `k` on `st`, staging into `writes` (`regs` is scratch); `None`
    /// when `st` is not a state of this size.
    #[inline]
    pub fn run(
        &self,
        k: usize,
        st: &[i64],
        regs: &mut Vec<i64>,
        writes: &mut Vec<Write>,
    ) -> Option<Ran> {
        let &(pc, n) = self.entry.get(k)?;
        if st.len() != self.slots {
            return None;
        }
        writes.clear();
        writes.reserve(n.unwrap_or(0) as usize);
        regs.resize(self.regs, 0);
        Some(Ran::from_code(self.exec(pc, st, regs, writes)).unwrap_or(Ran::Staged))
    }

    /// Run every instance the dispatch lists for `st` (gathered in `cands` first, so
    /// that one call runs them all), in `Compiled::candidates`'s order, leaving the
    /// record of each one not disabled in `buf`, as `jit::Native::run_state` does;
    /// false (and nothing run) when `st` is not a state of this size.
    #[inline]
    pub fn run_state(
        &self,
        d: &Dispatch,
        st: &[i64],
        (regs, cands): (&mut Vec<i64>, &mut Vec<u32>),
        buf: &mut Vec<Write>,
    ) -> bool {
        if st.len() != self.slots {
            return false;
        }
        cands.clear();
        d.each(st, |k| cands.push(k));
        buf.clear();
        regs.resize(self.regs, 0);
        self.run_all(cands, st, regs, buf);
        true
    }

    /// Run the instances `cands`, leaving their records in `buf`.
    #[inline(never)]
    fn run_all(&self, cands: &[u32], st: &[i64], regs: &mut [i64], buf: &mut Vec<Write>) {
        for &k in cands {
            let (pc, n) = self.entry[k as usize];
            let h = buf.len();
            buf.reserve(1 + n.unwrap_or(0) as usize);
            buf.push((k as usize, 0));
            match self.exec(pc, st, regs, buf) {
                DISABLED => buf.truncate(h),
                code => {
                    buf[h].1 = code;
                    if code < 0 {
                        buf.truncate(h + 1);
                    }
                }
            }
        }
    }

    /// Run the code from `pc` to its return: the code it returns, or the number of
    /// writes it appended to `out`.
    #[inline(always)]
    fn exec(&self, mut pc: Pc, st: &[i64], r: &mut [i64], out: &mut Vec<Write>) -> i64 {
        use Code::*;
        let start = out.len();
        let check = |v: i64, range: Range| if range.holds(v) { 0 } else { range.code };
        loop {
            let ins = &self.code[pc as usize];
            let go = |c: bool| if c { ins.then } else { ins.other };
            let cell = |c: Cell| c.read(st).map_err(|_| FAULT);
            pc = match ins.op {
                EqSK { s, k } => go(st[s as usize] == k),
                LtSK { s, k } => go(st[s as usize] < k),
                LeSK { s, k } => go(st[s as usize] <= k),
                EqSS { a, b } => go(st[a as usize] == st[b as usize]),
                LtSS { a, b } => go(st[a as usize] < st[b as usize]),
                LeSS { a, b } => go(st[a as usize] <= st[b as usize]),
                EqCK { c, k } => match cell(c) {
                    Ok(x) => go(x == k),
                    Err(e) => return e,
                },
                LtCK { c, k } => match cell(c) {
                    Ok(x) => go(x < k),
                    Err(e) => return e,
                },
                LeCK { c, k } => match cell(c) {
                    Ok(x) => go(x <= k),
                    Err(e) => return e,
                },
                AllEqK { from, len } => {
                    let run = &self.pairs[from as usize..(from + len) as usize];
                    go(run.iter().all(|&(s, k)| st[s as usize] == k))
                }
                AllLtS { b, from, len } => {
                    let (run, y) = (
                        &self.slots_of[from as usize..(from + len) as usize],
                        st[b as usize],
                    );
                    go(run.iter().all(|&a| st[a as usize] < y))
                }
                Jmp => ins.then,
                PutK { s, k } => {
                    out.push((s as usize, k));
                    pc + 1
                }
                PutAllK { from, len } => {
                    out.extend_from_slice(&self.consts[from as usize..(from + len) as usize]);
                    pc + 1
                }
                PutS { s, src, range } => {
                    let v = st[src as usize];
                    match check(v, range) {
                        0 => out.push((s as usize, v)),
                        e => return e,
                    }
                    pc + 1
                }
                PutAddK { s, src, k, range } => {
                    let Some(v) = st[src as usize].checked_add(k) else {
                        return FAULT;
                    };
                    match check(v, range) {
                        0 => out.push((s as usize, v)),
                        e => return e,
                    }
                    pc + 1
                }
                Ret(code) => return code,
                Done => return (out.len() - start) as i64,
                op => match self.step(op, st, r, out) {
                    Ok(None) => pc + 1,
                    Ok(Some(c)) => go(c),
                    Err(e) => return e,
                },
            };
        }
    }

    /// The rarer operations (registers, writes through a computed slot, the rarer
    /// tests): `Ok(Some(truth))` for a test, `Ok(None)` to go on, `Err` the code to
    /// return.
    #[inline(never)]
    fn step(
        &self,
        op: Code,
        st: &[i64],
        r: &mut [i64],
        out: &mut Vec<Write>,
    ) -> Result<Option<bool>, i64> {
        use Code::*;
        let check = |v: i64, range: Range| {
            if range.holds(v) {
                Ok(v)
            } else {
                Err(range.code)
            }
        };
        let cell = |c: Cell| c.read(st).map_err(|_| FAULT);
        let slots = |from: u32, len: u32| &self.slots_of[from as usize..(from + len) as usize];
        let test = |c: bool| Ok(Some(c));
        match op {
            EqCS { c, b } => return test(cell(c)? == st[b as usize]),
            LtCS { c, b } => return test(cell(c)? < st[b as usize]),
            LeCS { c, b } => return test(cell(c)? <= st[b as usize]),
            AllLeS { b, from, len } => {
                return test(
                    slots(from, len)
                        .iter()
                        .all(|&a| st[a as usize] <= st[b as usize]),
                );
            }
            AllEqS { b, from, len } => {
                return test(
                    slots(from, len)
                        .iter()
                        .all(|&a| st[a as usize] == st[b as usize]),
                );
            }
            Br { r: x } => return test(r[x as usize] != 0),
            LdK { d, k } => r[d as usize] = k,
            Ld { d, s } => r[d as usize] = st[s as usize],
            LdCell { d, c } => r[d as usize] = cell(c)?,
            LdAt { d, a } => r[d as usize] = st[r[a as usize] as usize],
            FlagSK { op, d, s, k } => r[d as usize] = op.apply(st[s as usize], k) as i64,
            FlagSS { op, d, a, b } => {
                r[d as usize] = op.apply(st[a as usize], st[b as usize]) as i64
            }
            AddSK { d, s, k } => r[d as usize] = st[s as usize].checked_add(k).ok_or(FAULT)?,
            Arith { op, d, a, b } => {
                let (x, y) = (r[a as usize], r[b as usize]);
                r[d as usize] = match op {
                    ArithOp::Add => x.checked_add(y),
                    ArithOp::Sub => x.checked_sub(y),
                    ArithOp::Mul => x.checked_mul(y),
                }
                .ok_or(FAULT)?
            }
            Cmp { op, d, a, b } => r[d as usize] = op.apply(r[a as usize], r[b as usize]) as i64,
            Iff { d, a, b } => {
                r[d as usize] = ((r[a as usize] != 0) == (r[b as usize] != 0)) as i64
            }
            Idx {
                acc,
                v,
                lo,
                size,
                stride,
            } => {
                let off = r[v as usize].wrapping_sub(lo);
                if off < 0 || off as usize >= size {
                    return Err(FAULT);
                }
                r[acc as usize] += (off as usize * stride) as i64;
            }
            CellAt { d, c } => {
                let off = st[c.slot as usize].wrapping_sub(c.lo);
                if off < 0 || off >= c.size as i64 {
                    return Err(FAULT);
                }
                r[d as usize] = c.base as i64 + off;
            }
            PutR { s, r: x, range } => out.push((s as usize, check(r[x as usize], range)?)),
            PutAtK { at, k } => out.push((r[at as usize] as usize, k)),
            PutAtR { at, r: x, range } => {
                out.push((r[at as usize] as usize, check(r[x as usize], range)?))
            }
            _ => unreachable!("exec runs the commonest operations"),
        }
        Ok(None)
    }
}
