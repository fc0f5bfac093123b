//! The aggregate family of T. Wahl, *Exploiting Replication in Automated Program
//! Verification*, PhD thesis, UT Austin 2007, ch. 11 (§11.1-11.5): sizes min..=max as
//! one system of `max` process slots. Slot p is *absent* (`$`) or present; absent slots
//! form a suffix and never change, so every run keeps its *width* (the number of
//! present slots), and a state of width w behaves exactly as the instance of size w:
//! parameters, quantifiers, `any` and `unsafe` tuples range over present slots, `N` is
//! the width, range types take their values at the width, process values are at most
//! the width, and a cell that does not exist at the width (an absent process's, or a
//! range index outside the width's range) is a range error when indexed. Cells are laid
//! out for `max` and the union of the range types' values over the widths.

use super::term::Term;
use crate::model::ir::{Model, Ty};
use crate::sat::Lit;
use crate::sat::circuit::{Circuit, FALSE, TRUE};

/// Presence bits, width literals and per-width range bounds.
#[derive(Clone, Debug)]
pub struct Agg {
    pub min: usize,
    pub max: usize,
    /// `absent[p - 1]`: slot p holds `$`.
    pub absent: Vec<Lit>,
    /// `width[w - 1]`: the state has width w (FALSE below `min`).
    pub width: Vec<Lit>,
    /// `ranges_at[r][w - 1]`: range type r at width w (empty when hi < lo).
    pub ranges_at: Vec<Vec<(i64, i64)>>,
    /// The lowest `proc` value: 1, or the extra process id 0 (`model::extra`).
    pub proc_lo: i64,
    /// Set once the encoding asked for a case per width beyond process presence: `N`
    /// in a formula, or a range type whose values depend on `N`.
    width_cases: std::cell::Cell<bool>,
}

impl Agg {
    /// Presence variables for slots 1..=max with the properness constraints: slots
    /// 1..=min present, an absent slot followed only by absent ones.
    pub fn new(c: &mut Circuit, model: &Model, min: usize, max: usize) -> Agg {
        let absent: Vec<Lit> = (1..=max)
            .map(|p| if p <= min.max(1) { FALSE } else { c.var() })
            .collect();
        for p in 1..max {
            c.imply(absent[p - 1], absent[p]);
        }
        let width: Vec<Lit> = (1..=max)
            .map(|w| {
                if w < min {
                    FALSE
                } else if w == max {
                    -absent[w - 1]
                } else {
                    c.and2(-absent[w - 1], absent[w])
                }
            })
            .collect();
        let ranges_at = model
            .ranges
            .iter()
            .map(|r| {
                (1..=max)
                    .map(|w| (r.lo.eval(w as i64), r.hi.eval(w as i64)))
                    .collect()
            })
            .collect();
        Agg {
            min,
            max,
            absent,
            width,
            ranges_at,
            proc_lo: model.proc_value_lo(),
            width_cases: std::cell::Cell::new(false),
        }
    }

    /// Slot p is present (FALSE outside 1..=max).
    pub fn present(&self, p: i64) -> Lit {
        if p < 1 || p as usize > self.max {
            FALSE
        } else {
            -self.absent[p as usize - 1]
        }
    }

    /// All of these slots are present: since absent slots form a suffix, the largest.
    pub fn all_present(&self, ps: &[i64]) -> Lit {
        match ps.iter().max() {
            Some(&p) => self.present(p),
            None => TRUE,
        }
    }

    /// Width w, for a state known to have width at least `floor` (evaluation under the
    /// assumption that slots 1..=floor are present).
    fn width_at(&self, w: usize, floor: usize) -> Lit {
        if w < floor { FALSE } else { self.width[w - 1] }
    }

    /// Slot p is present, given width at least `floor`.
    pub fn present_above(&self, p: i64, floor: usize) -> Lit {
        if p >= 1 && p as usize <= floor {
            TRUE
        } else {
            self.present(p)
        }
    }

    /// Whether the formulas built so far have a case per width beyond process
    /// presence (`N` in a formula, a range type whose values depend on `N`): such
    /// cases keep what the solver learns at one width from serving the others.
    pub fn has_width_cases(&self) -> bool {
        self.width_cases.get()
    }

    /// `N`: the width (at least `floor`).
    pub fn width_term(&self, floor: usize) -> Term {
        if self.min < self.max {
            self.width_cases.set(true);
        }
        Term::Alts(
            (1..=self.max)
                .filter(|&w| self.width_at(w, floor) != FALSE)
                .map(|w| (w as i64, self.width_at(w, floor)))
                .collect(),
        )
    }

    /// The values of a type at each width, `None` for types that do not depend on it.
    fn bounds_at(&self, ty: Ty) -> Option<Vec<(i64, i64)>> {
        match ty {
            Ty::Proc => Some((1..=self.max).map(|w| (self.proc_lo, w as i64)).collect()),
            Ty::Range(r) => {
                let b = &self.ranges_at[r];
                if b.iter().all(|x| *x == b[self.max - 1]) {
                    None
                } else {
                    if b[self.min.max(1) - 1..]
                        .iter()
                        .any(|x| *x != b[self.max - 1])
                    {
                        self.width_cases.set(true);
                    }
                    Some(b.clone())
                }
            }
            _ => None,
        }
    }

    /// The index value v of a dimension of type `ty` exists at the state's width (at
    /// least `floor`).
    pub fn index_exists(&self, c: &mut Circuit, ty: Ty, v: i64, floor: usize) -> Lit {
        match ty {
            Ty::Proc => self.present_above(v, floor),
            _ => match self.bounds_at(ty) {
                None => TRUE,
                Some(b) => {
                    let live: Vec<usize> = (floor.max(1)..=self.max)
                        .filter(|&w| self.width[w - 1] != FALSE)
                        .collect();
                    if live.iter().all(|&w| b[w - 1].0 <= v && v <= b[w - 1].1) {
                        return TRUE;
                    }
                    let ws: Vec<Lit> = live
                        .into_iter()
                        .filter(|&w| b[w - 1].0 <= v && v <= b[w - 1].1)
                        .map(|w| self.width[w - 1])
                        .collect();
                    c.or(&ws)
                }
            },
        }
    }

    /// The term's value lies outside type `ty` at the state's width (at least `floor`),
    /// for types whose values depend on the width (`None` for the others).
    pub fn outside_at_width(&self, c: &mut Circuit, ty: Ty, t: &Term, floor: usize) -> Option<Lit> {
        let b = self.bounds_at(ty)?;
        let parts: Vec<Lit> = (floor.max(1)..=self.max)
            .filter(|&w| self.width[w - 1] != FALSE)
            .map(|w| {
                let out = t.outside(c, b[w - 1].0, b[w - 1].1);
                c.and2(self.width[w - 1], out)
            })
            .collect();
        Some(c.or(&parts))
    }
}
