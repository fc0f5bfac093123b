//! The values of a relation cell of `model::ints::order` and their algebra. With width
//! K = 0 they are the order `<`, `=`, `>` of two cells; with K ≥ 1 the difference A - B
//! kept exactly while it lies in -K..K, and `far below` (A - B < -K) or `far above`
//! (A - B > K) beyond (docs/every-n.md, "Difference-bounded relations"). The last value
//! is `lost`. Every operation here is exact where it does not give `lost`: applied to
//! the true clamped difference, it gives the true clamped difference of the result.

use std::cmp::Ordering;

/// The widest difference kept exactly: a wider one would make the relation type large
/// for little gain (a step of more than this is not read with differences).
pub(super) const MAX_WIDTH: i64 = 4;

/// The relation values of width `k`, numbered 0 (far below) .. 2k+2 (far above), then
/// 2k+3 (`lost`); the difference d (|d| ≤ k) is k + 1 + d.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Rels {
    pub k: i64,
}

impl Rels {
    pub fn lost(self) -> i64 {
        2 * self.k + 3
    }

    pub fn eq(self) -> i64 {
        self.k + 1
    }

    fn gt_far(self) -> i64 {
        2 * self.k + 2
    }

    /// The value of the difference `d`, clamped to the far values.
    pub fn of(self, d: i64) -> i64 {
        if d < -self.k {
            0
        } else if d > self.k {
            self.gt_far()
        } else {
            self.k + 1 + d
        }
    }

    /// The far value on the side `o` (equal: the difference 0).
    pub fn far(self, o: Ordering) -> i64 {
        match o {
            Ordering::Less => 0,
            Ordering::Equal => self.eq(),
            Ordering::Greater => self.gt_far(),
        }
    }

    /// How A compares with B when the relation (not `lost`) is `r`.
    pub fn sign(self, r: i64) -> Ordering {
        r.cmp(&self.eq())
    }

    /// The relation of B with A, given that of A with B.
    pub fn flip(self, r: i64) -> i64 {
        if r == self.lost() {
            r
        } else {
            self.gt_far() - r
        }
    }

    /// The relation of A + m with B, given that of A with B: exact from a small
    /// difference, and from the far side the shift moves away from; `lost` otherwise.
    pub fn shift(self, r: i64, m: i64) -> i64 {
        if r == self.lost() {
            return r;
        }
        if r == 0 {
            return if m <= 0 { 0 } else { self.lost() };
        }
        if r == self.gt_far() {
            return if m >= 0 { r } else { self.lost() };
        }
        self.of((r - self.eq()).saturating_add(m))
    }

    /// The constructors' names, in order.
    pub fn names(self) -> Vec<String> {
        if self.k == 0 {
            return ["Ord_lt", "Ord_eq", "Ord_gt", "Ord_lost"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        }
        let mut out = vec!["Ord_lt_far".to_string()];
        out.extend((1..=self.k).rev().map(|d| format!("Ord_m{d}")));
        out.push("Ord_eq".into());
        out.extend((1..=self.k).map(|d| format!("Ord_p{d}")));
        out.push("Ord_gt_far".into());
        out.push("Ord_lost".into());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The true clamped difference, for checking the operations against integers.
    fn clamp(k: i64, d: i64) -> i64 {
        Rels { k }.of(d)
    }

    #[test]
    fn width_zero_is_the_order() {
        let r = Rels { k: 0 };
        assert_eq!(r.names(), ["Ord_lt", "Ord_eq", "Ord_gt", "Ord_lost"]);
        // A step `C + k` against a cell: `<` lost, `=` and `>` give `>`.
        assert_eq!(
            [0, 1, 2, 3].map(|x| r.shift(x, 1)),
            [r.lost(), 2, 2, r.lost()]
        );
        assert_eq!([0, 1, 2, 3].map(|x| r.flip(x)), [2, 1, 0, 3]);
    }

    #[test]
    fn shifts_are_exact_where_not_lost() {
        // Every pair of differences a (before) and m (the shift) in a range wide
        // enough to cross the far values on both sides.
        for k in 0..=3 {
            let r = Rels { k };
            for a in -12..=12 {
                for m in -6..=6 {
                    let got = r.shift(clamp(k, a), m);
                    if got != r.lost() {
                        assert_eq!(got, clamp(k, a + m), "k {k} a {a} m {m}");
                    }
                    assert_eq!(r.flip(clamp(k, a)), clamp(k, -a));
                    assert_eq!(r.sign(clamp(k, a)), a.cmp(&0));
                }
            }
            // A step up from far below is lost; from a small difference it never is.
            assert_eq!(r.shift(0, 1), r.lost());
            assert!((-k..=k).all(|d| r.shift(clamp(k, d), 1) != r.lost()));
        }
        assert_eq!(
            Rels { k: 1 }.names(),
            [
                "Ord_lt_far",
                "Ord_m1",
                "Ord_eq",
                "Ord_p1",
                "Ord_gt_far",
                "Ord_lost"
            ]
        );
    }
}
