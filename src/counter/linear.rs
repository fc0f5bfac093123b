//! Place invariants of a counter system: the linear equalities y·x = y·x0 over the
//! counters and the integer globals that every transition keeps, whatever its guard
//! (y·Δ = 0 for the change Δ of every transition; K. Lautenbach, *Linear algebraic
//! techniques for place/transition nets*, 1987). Exact rational Gaussian elimination on
//! small matrices.

/// A rational number, kept normalized (positive denominator, no common factor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Q(pub i128, pub i128);

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

impl Q {
    pub fn int(v: i128) -> Q {
        Q(v, 1)
    }
    fn norm(n: i128, d: i128) -> Q {
        let g = gcd(n, d).max(1);
        let s = if d < 0 { -1 } else { 1 };
        Q(s * n / g, s * d / g)
    }
    pub fn is_zero(self) -> bool {
        self.0 == 0
    }
    fn sub(self, o: Q) -> Q {
        Q::norm(self.0 * o.1 - o.0 * self.1, self.1 * o.1)
    }
    fn mul(self, o: Q) -> Q {
        Q::norm(self.0 * o.0, self.1 * o.1)
    }
    fn div(self, o: Q) -> Q {
        Q::norm(self.0 * o.1, self.1 * o.0)
    }
    /// The integer value, when it is one.
    pub fn as_int(self) -> Option<i64> {
        (self.1 == 1).then_some(self.0 as i64)
    }
}

/// Reduced row echelon form in place; returns the pivot column of each row kept.
pub fn rref(rows: &mut Vec<Vec<Q>>) -> Vec<usize> {
    let cols = rows.first().map_or(0, |r| r.len());
    let mut pivots = Vec::new();
    let mut r = 0;
    for c in 0..cols {
        let Some(p) = (r..rows.len()).find(|&i| !rows[i][c].is_zero()) else {
            continue;
        };
        rows.swap(r, p);
        let lead = rows[r][c];
        for x in rows[r].iter_mut() {
            *x = x.div(lead);
        }
        for i in 0..rows.len() {
            if i != r && !rows[i][c].is_zero() {
                let f = rows[i][c];
                let pr = rows[r].clone();
                for (x, y) in rows[i].iter_mut().zip(pr) {
                    *x = x.sub(f.mul(y));
                }
            }
        }
        pivots.push(c);
        r += 1;
    }
    rows.truncate(r);
    pivots
}

/// A basis of {y : y·d = 0 for every row d of `deltas`} over `cols` columns, in reduced
/// row echelon form (columns in the order given: the first ones are eliminated first).
pub fn invariants(deltas: &[Vec<i64>], cols: usize) -> Vec<Vec<Q>> {
    let mut a: Vec<Vec<Q>> = deltas
        .iter()
        .map(|d| d.iter().map(|&x| Q::int(x as i128)).collect())
        .collect();
    let pivots = rref(&mut a);
    let free: Vec<usize> = (0..cols).filter(|c| !pivots.contains(c)).collect();
    let mut basis: Vec<Vec<Q>> = free
        .iter()
        .map(|&f| {
            let mut y = vec![Q::int(0); cols];
            y[f] = Q::int(1);
            for (row, &p) in a.iter().zip(&pivots) {
                y[p] = Q::int(0).sub(row[f]);
            }
            y
        })
        .collect();
    rref(&mut basis);
    basis
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reader_count_and_the_conservation_law() {
        // Columns: Idle, Reading, Writing, Cnt. start_read, end_read, start_write,
        // end_write.
        let d = vec![
            vec![-1, 1, 0, 1],
            vec![1, -1, 0, -1],
            vec![-1, 0, 1, 0],
            vec![1, 0, -1, 0],
        ];
        let b = invariants(&d, 4);
        let ints: Vec<Vec<i64>> = b
            .iter()
            .map(|r| r.iter().map(|q| q.as_int().unwrap()).collect())
            .collect();
        // Idle + Writing + Cnt = const; Reading - Cnt = const.
        assert_eq!(ints, vec![vec![1, 0, 1, 1], vec![0, 1, 0, -1]]);
    }
}
