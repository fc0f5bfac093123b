//! One time frame of the unrolling: every cell of the instance as literals, in binary
//! (⌈log2 d⌉ bits, least significant first) or one-hot (one literal per value), with
//! the cell's value decoded into a `Term` on demand.

use super::term::Term;
use crate::model::instance::Instance;
use crate::sat::Lit;
use crate::sat::circuit::{Circuit, FALSE};

/// How cells are encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Binary,
    OneHot,
}

/// One cell's literals; the value is `lo + number` (binary) or `lo + index of the true
/// literal` (one-hot).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    Binary(Vec<Lit>),
    OneHot(Vec<Lit>),
}

fn width(size: usize) -> usize {
    (usize::BITS - (size.max(1) - 1).leading_zeros()) as usize
}

impl Cell {
    /// A cell of fresh variables constrained to the `size` values of its domain.
    pub fn fresh(c: &mut Circuit, enc: Encoding, size: usize) -> Cell {
        match enc {
            Encoding::Binary => {
                let bits: Vec<Lit> = (0..width(size)).map(|_| c.var()).collect();
                // Forbid the codes past the domain.
                for k in size..(1usize << bits.len()) {
                    let clause: Vec<Lit> = bits
                        .iter()
                        .enumerate()
                        .map(|(b, &l)| if k >> b & 1 == 1 { -l } else { l })
                        .collect();
                    c.clause(&clause);
                }
                Cell::Binary(bits)
            }
            Encoding::OneHot => {
                let hots: Vec<Lit> = (0..size).map(|_| c.var()).collect();
                c.clause(&hots);
                c.at_most_one(&hots);
                Cell::OneHot(hots)
            }
        }
    }

    /// The value as a term over `lo .. lo + size - 1`.
    pub fn decode(&self, _c: &mut Circuit, lo: i64, size: usize) -> Term {
        match self {
            Cell::OneHot(h) => Term::Alts(
                h.iter()
                    .enumerate()
                    .filter(|(_, l)| **l != FALSE)
                    .map(|(k, &l)| (lo + k as i64, l))
                    .collect(),
            ),
            Cell::Binary(bits) => Term::Bits {
                lo,
                bits: bits.clone(),
                size,
            },
        }
    }

    /// A cell holding a term's value (the term's values must lie in the domain).
    pub fn from_term(c: &mut Circuit, enc: Encoding, t: &Term, lo: i64, size: usize) -> Cell {
        match enc {
            Encoding::OneHot => Cell::OneHot((0..size).map(|k| t.cond(c, lo + k as i64)).collect()),
            Encoding::Binary => Cell::Binary(t.to_bits(c, lo, width(size))),
        }
    }

    /// The literals, in the order used for lexicographic comparison: binary from the
    /// most significant bit, one-hot from the highest value.
    pub fn lex_lits(&self) -> Vec<Lit> {
        match self {
            Cell::Binary(b) | Cell::OneHot(b) => b.iter().rev().copied().collect(),
        }
    }

    pub fn lits(&self) -> &[Lit] {
        match self {
            Cell::Binary(b) | Cell::OneHot(b) => b,
        }
    }

    /// The value under a model.
    pub fn value(&self, lo: i64, model: &dyn Fn(Lit) -> bool) -> i64 {
        match self {
            Cell::Binary(bits) => {
                lo + bits
                    .iter()
                    .enumerate()
                    .map(|(b, &l)| (model(l) as i64) << b)
                    .sum::<i64>()
            }
            Cell::OneHot(h) => lo + h.iter().position(|&l| model(l)).unwrap_or(0) as i64,
        }
    }
}

/// All cells of one time frame.
#[derive(Clone, Debug)]
pub struct Frame {
    pub cells: Vec<Cell>,
    terms: Vec<Option<Term>>,
}

impl Frame {
    pub fn new(cells: Vec<Cell>) -> Frame {
        let terms = vec![None; cells.len()];
        Frame { cells, terms }
    }

    /// A frame of fresh, domain-constrained cells.
    pub fn fresh(c: &mut Circuit, inst: &Instance, enc: Encoding) -> Frame {
        Frame::new(
            inst.slots
                .iter()
                .map(|s| Cell::fresh(c, enc, (s.hi - s.lo + 1).max(0) as usize))
                .collect(),
        )
    }

    /// The value of a cell as a term (decoded once).
    pub fn term(&mut self, c: &mut Circuit, inst: &Instance, slot: usize) -> Term {
        if let Some(t) = &self.terms[slot] {
            return t.clone();
        }
        let s = &inst.slots[slot];
        let t = self.cells[slot].decode(c, s.lo, (s.hi - s.lo + 1).max(0) as usize);
        self.terms[slot] = Some(t.clone());
        t
    }

    /// The state under a model.
    pub fn state(&self, inst: &Instance, model: &dyn Fn(Lit) -> bool) -> Vec<i64> {
        self.cells
            .iter()
            .zip(&inst.slots)
            .map(|(cell, s)| cell.value(s.lo, model))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::circuit::TRUE;

    #[test]
    fn widths_and_round_trip() {
        assert_eq!(width(1), 0);
        assert_eq!(width(2), 1);
        assert_eq!(width(5), 3);
        assert_eq!(width(8), 3);
        let mut c = Circuit::new();
        for enc in [Encoding::Binary, Encoding::OneHot] {
            let t = Term::Alts(vec![(3, TRUE)]);
            let cell = Cell::from_term(&mut c, enc, &t, 1, 5);
            let model = |l: Lit| l == TRUE;
            assert_eq!(cell.value(1, &model), 3);
        }
    }
}
