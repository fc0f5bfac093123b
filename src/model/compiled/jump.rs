//! A formula as jumping code (the short-circuit code of Aho, Sethi and Ullman,
//! *Compilers*, §6.6): a flat array of atomic tests, each with the test to go to when
//! it holds and when it fails, so `&&`, `||`, `not` and `=>` cost no recursion and no
//! intermediate values. The tests run in the order the tree evaluator (`C::eval`)
//! evaluates their operands and stop where it stops, so both meet exactly the same
//! range errors; a subterm with no atomic test of its own (arithmetic, `if`, `<=>`) is
//! one test that evaluates it as a tree.

use super::Fault;
use super::expr::C;
use crate::model::ir::CmpOp;

/// Where a test goes next: a test's index, or one of the two ends.
pub(super) const HOLDS: u32 = u32::MAX;
pub(super) const FAILS: u32 = u32::MAX - 1;

/// A compiled formula as jumping code; no tests at all for one that always holds.
#[derive(Clone, Debug)]
pub struct Jumps {
    pub(super) tests: Box<[Test]>,
}

#[derive(Clone, Debug)]
pub(super) struct Test {
    pub(super) atom: Atom,
    /// The next test when the atom holds, and when it fails.
    pub(super) then: u32,
    pub(super) other: u32,
}

/// One atomic test on the state.
#[derive(Clone, Debug)]
pub(super) enum Atom {
    Const(bool),
    /// `st[slot] op k`.
    SlotConst(CmpOp, u32, i64),
    /// `st[a] op st[b]`.
    SlotSlot(CmpOp, u32, u32),
    /// `A[st[slot]] op k` for a one-dimensional array at `base` (a range error unless
    /// `st[slot] - lo < size`).
    CellConst(CmpOp, Cell, i64),
    /// `A[st[slot]] op st[b]`.
    CellSlot(CmpOp, Cell, u32),
    /// Any other subterm, evaluated as a tree: it holds when not 0.
    Tree(C),
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Cell {
    pub(super) base: u32,
    pub(super) slot: u32,
    pub(super) lo: i64,
    pub(super) size: u32,
}

impl Cell {
    #[inline]
    pub(super) fn read(self, st: &[i64]) -> Result<i64, Fault> {
        let off = st[self.slot as usize].wrapping_sub(self.lo);
        if off < 0 || off >= self.size as i64 {
            return Err(Fault);
        }
        Ok(st[self.base as usize + off as usize])
    }
}

impl Jumps {
    /// The jumping code of `c`, read as a formula (it holds when not 0).
    pub fn new(c: &C) -> Jumps {
        if matches!(c, C::Const(v) if *v != 0) {
            return Jumps {
                tests: Box::new([]),
            };
        }
        let mut b = Builder::default();
        let (holds, fails) = (b.label(), b.label());
        b.emit(c, holds, fails);
        b.finish(holds, fails)
    }

    /// Whether the formula holds in `st` (a range error where the tree evaluator meets
    /// one).
    #[inline]
    pub fn holds(&self, st: &[i64]) -> Result<bool, Fault> {
        if self.tests.is_empty() {
            return Ok(true);
        }
        let mut at = 0usize;
        loop {
            let t = &self.tests[at];
            let next = if t.atom.holds(st)? { t.then } else { t.other };
            if next >= FAILS {
                return Ok(next == HOLDS);
            }
            at = next as usize;
        }
    }
}

impl Atom {
    #[inline(always)]
    fn holds(&self, st: &[i64]) -> Result<bool, Fault> {
        Ok(match self {
            Atom::SlotConst(op, s, k) => op.apply(st[*s as usize], *k),
            Atom::SlotSlot(op, a, b) => op.apply(st[*a as usize], st[*b as usize]),
            Atom::CellConst(op, c, k) => op.apply(c.read(st)?, *k),
            Atom::CellSlot(op, c, b) => op.apply(c.read(st)?, st[*b as usize]),
            Atom::Const(v) => *v,
            Atom::Tree(c) => c.eval(st)? != 0,
        })
    }

    /// The atom of a comparison the code can test at once, if it is one.
    fn of(c: &C) -> Option<Atom> {
        let cell = |c: &C| match *c {
            C::Dyn1 {
                base,
                slot,
                lo,
                size,
            } => Some(Cell {
                base,
                slot,
                lo,
                size,
            }),
            _ => None,
        };
        Some(match c {
            C::Const(v) => Atom::Const(*v != 0),
            C::SlotEq(s, v) => Atom::SlotConst(CmpOp::Eq, *s, *v),
            C::SlotNe(s, v) => Atom::SlotConst(CmpOp::Ne, *s, *v),
            C::CmpSC(op, s, v) => Atom::SlotConst(*op, *s, *v),
            C::CmpSS(op, a, b) => Atom::SlotSlot(*op, *a, *b),
            // The cell is read first, as the tree reads its left operand first; a slot
            // or a constant on either side cannot fail, so the order is the tree's.
            C::Cmp(op, a, b) => match (&**a, &**b) {
                (x, C::Const(k)) => Atom::CellConst(*op, cell(x)?, *k),
                (C::Const(k), x) => Atom::CellConst(op.flip(), cell(x)?, *k),
                (x, C::Slot(s)) => Atom::CellSlot(*op, cell(x)?, *s),
                (C::Slot(s), x) => Atom::CellSlot(op.flip(), cell(x)?, *s),
                _ => return None,
            },
            _ => return None,
        })
    }
}

/// Builds the code: labels stand for tests not yet placed.
#[derive(Default)]
struct Builder {
    tests: Vec<(Atom, usize, usize)>,
    /// Per label, the index of the test it names (once placed).
    at: Vec<Option<u32>>,
}

impl Builder {
    fn label(&mut self) -> usize {
        self.at.push(None);
        self.at.len() - 1
    }

    /// The label names the next test emitted.
    fn place(&mut self, l: usize) {
        self.at[l] = Some(self.tests.len() as u32);
    }

    /// Code that goes to `yes` when `c` holds and to `no` when it fails.
    fn emit(&mut self, c: &C, yes: usize, no: usize) {
        match c {
            C::And(xs) => self.chain(xs, true, yes, no),
            C::Or(xs) => self.chain(xs, false, yes, no),
            C::Not(a) => self.emit(a, no, yes),
            C::Imp(a, b) => {
                let l = self.label();
                self.emit(a, l, yes);
                self.place(l);
                self.emit(b, yes, no);
            }
            _ => {
                let atom = Atom::of(c).unwrap_or_else(|| Atom::Tree(c.clone()));
                self.tests.push((atom, yes, no));
            }
        }
    }

    /// `&&` (`and_`) or `||` of `xs`, left to right, stopping at the first that
    /// decides.
    fn chain(&mut self, xs: &[C], and_: bool, yes: usize, no: usize) {
        let Some((last, init)) = xs.split_last() else {
            self.tests.push((Atom::Const(and_), yes, no));
            return;
        };
        for x in init {
            let l = self.label();
            if and_ {
                self.emit(x, l, no);
            } else {
                self.emit(x, yes, l);
            }
            self.place(l);
        }
        self.emit(last, yes, no);
    }

    fn finish(self, holds: usize, fails: usize) -> Jumps {
        let at = |l: usize| match l {
            _ if l == holds => HOLDS,
            _ if l == fails => FAILS,
            _ => self.at[l].expect("every label is placed before the code ends"),
        };
        let tests = self
            .tests
            .iter()
            .map(|(atom, yes, no)| Test {
                atom: atom.clone(),
                then: at(*yes),
                other: at(*no),
            })
            .collect();
        Jumps { tests }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ir::ArithOp;

    /// Random formulas over four slots (slot 3 indexes a two-cell array at slots 4..5,
    /// so reading it may fail), checked against the tree evaluator on every state of a
    /// small grid: the same truth value, and a range error exactly where it meets one.
    #[test]
    fn jumps_agree_with_the_tree_evaluator() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        let cell = C::Dyn1 {
            base: 4,
            slot: 3,
            lo: 0,
            size: 2,
        };
        fn formula(next: &mut dyn FnMut(u64) -> u64, cell: &C, depth: u32) -> C {
            let op = [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le][next(4) as usize];
            let leaf = |next: &mut dyn FnMut(u64) -> u64| match next(7) {
                0 => C::SlotEq(next(3) as u32, next(3) as i64),
                1 => C::CmpSC(op, next(3) as u32, next(3) as i64),
                2 => C::CmpSS(op, next(3) as u32, next(3) as u32),
                3 => C::Cmp(
                    op,
                    Box::new(cell.clone()),
                    Box::new(C::Const(next(3) as i64)),
                ),
                4 => C::Cmp(
                    op,
                    Box::new(C::Slot(next(3) as u32)),
                    Box::new(cell.clone()),
                ),
                5 => C::Const(next(2) as i64),
                _ => C::Arith(ArithOp::Sub, Box::new(cell.clone()), Box::new(C::Const(1))),
            };
            if depth == 0 {
                return leaf(next);
            }
            let sub = |next: &mut dyn FnMut(u64) -> u64, n: u64| {
                (0..n)
                    .map(|_| formula(next, cell, depth - 1))
                    .collect::<Box<[C]>>()
            };
            match next(5) {
                0 => {
                    let n = 1 + next(3);
                    C::And(sub(next, n))
                }
                1 => {
                    let n = 1 + next(3);
                    C::Or(sub(next, n))
                }
                2 => C::Not(Box::new(formula(next, cell, depth - 1))),
                3 => {
                    let a = formula(next, cell, depth - 1);
                    C::Imp(Box::new(a), Box::new(formula(next, cell, depth - 1)))
                }
                _ => leaf(next),
            }
        }
        for _ in 0..400 {
            let c = formula(&mut next, &cell, 3);
            let j = Jumps::new(&c);
            for code in 0..3u64.pow(6) {
                let mut st = [0i64; 6];
                let mut x = code;
                for v in st.iter_mut() {
                    *v = (x % 3) as i64;
                    x /= 3;
                }
                let tree = c.eval(&st).map(|v| v != 0);
                assert_eq!(j.holds(&st), tree, "{c:?} on {st:?}");
            }
        }
    }
}
