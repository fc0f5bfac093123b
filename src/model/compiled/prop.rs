//! A compiled `unsafe` property of one size: its body for every tuple of distinct
//! processes, with the leading `cell = const` tests split off so that a run of tuples
//! sharing a failed first test is skipped at once (`CProp::check`, which the native
//! code of `jit` follows tuple by tuple).

use super::expr::C;
use super::jump::Jumps;
use super::{Fault, trans};

/// A compiled `unsafe` property: its body for every tuple of distinct processes.
#[derive(Clone, Debug)]
pub struct CProp {
    /// The tuples of distinct processes, in the reference order.
    pub tuples: Vec<Vec<i64>>,
    /// Per tuple, its body as the leading `cell = const` tests and the rest.
    pub(super) tests: Vec<TupleTest>,
}

/// A tuple's body split for a quick check: most bodies start with a test of one cell
/// of the tuple's first process, shared by the run of tuples that follow it, and most
/// states fail it, so the whole run is skipped at once.
#[derive(Clone, Debug)]
pub(super) struct TupleTest {
    pub(super) pre: Vec<(u32, i64, bool)>,
    pub(super) rest: Jumps,
    /// The next tuple whose first test differs from this one's.
    pub(super) skip: usize,
}

impl CProp {
    pub(super) fn new(bodies: Vec<(Vec<i64>, C)>) -> CProp {
        let (tuples, mut tests): (Vec<Vec<i64>>, Vec<TupleTest>) = bodies
            .into_iter()
            .map(|(tuple, c)| {
                let (pre, rest) = trans::split_prefix(c);
                (
                    tuple,
                    TupleTest {
                        pre,
                        rest: Jumps::new(&rest),
                        skip: 0,
                    },
                )
            })
            .unzip();
        for k in (0..tests.len()).rev() {
            let same_next = tests
                .get(k + 1)
                .is_some_and(|n| !n.pre.is_empty() && n.pre.first() == tests[k].pre.first());
            tests[k].skip = if same_next { tests[k + 1].skip } else { k + 1 };
        }
        CProp { tuples, tests }
    }

    /// Index of the first tuple whose body holds. The leading tests cannot fail, so
    /// checking them first meets the range errors the reference order meets.
    #[inline]
    pub fn check(&self, st: &[i64]) -> Result<Option<usize>, Fault> {
        let holds = |&(s, v, eq): &(u32, i64, bool)| (st[s as usize] == v) == eq;
        let mut k = 0;
        while let Some(t) = self.tests.get(k) {
            if let Some(first) = t.pre.first()
                && !holds(first)
            {
                k = t.skip;
                continue;
            }
            if t.pre.iter().skip(1).all(holds) && t.rest.holds(st)? {
                return Ok(Some(k));
            }
            k += 1;
        }
        Ok(None)
    }
}
