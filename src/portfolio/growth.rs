//! When `auto` still gives a size to the explicit search: the cost of the next size
//! predicted from the growth of the sizes searched before it (time, states, bytes),
//! against the phase's budgets. Shared by the safety search (`auto`) and the `ltl`
//! search (`portfolio::ltl_route`), so that both follow one policy.
//!
//! The prediction continues the growth factor per size between the last two sizes
//! searched (explicit state spaces of parameterized families grow about geometrically
//! with n): for consecutive sizes t(n+1) = t(n) · t(n)/t(n-1), and across a gap of
//! sizes answered by another engine the factor is taken per size. Sizes too small to
//! measure (under `PREDICT_FROM` seconds, under `PREDICT_STATES` states) say nothing.

/// Sizes faster than this (seconds) say nothing about the growth of the search.
pub const PREDICT_FROM: f64 = 0.01;

/// Sizes with fewer states than this say nothing about the growth of the memory.
pub const PREDICT_STATES: usize = 1000;

/// What one explicit search of one size cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cost {
    pub size: usize,
    pub seconds: f64,
    /// States stored.
    pub states: usize,
    /// Bytes the search's tables and stacks held at their largest (0: not measured).
    pub bytes: usize,
}

/// The limits a size must be predicted to stay within to be searched.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Budget {
    /// Seconds one size may take (`None`: no time budget).
    pub seconds: Option<f64>,
    /// States one size may store (`--max-states`).
    pub states: Option<usize>,
    /// Bytes the search's tables may take.
    pub bytes: Option<usize>,
}

/// Why a size is not given to the explicit search: its predicted cost and the budget
/// it exceeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Refusal {
    Seconds { predicted: f64, budget: f64 },
    States { predicted: f64, budget: usize },
    Bytes { predicted: f64, budget: usize },
}

impl Refusal {
    /// `predicted to take 63s, over the 1s a size gets` and the like.
    pub fn text(&self) -> String {
        let mib = |b: f64| b / (1u64 << 20) as f64;
        match *self {
            Refusal::Seconds { predicted, budget } => {
                format!("predicted to take {predicted:.1}s, over the {budget:.1}s a size gets")
            }
            Refusal::States { predicted, budget } => format!(
                "predicted to store {predicted:.0} states, over the limit of {budget} (--max-states)"
            ),
            Refusal::Bytes { predicted, budget } => format!(
                "predicted to need {:.0} MiB, over the memory budget of {:.0} MiB",
                mib(predicted),
                mib(budget as f64)
            ),
        }
    }
}

/// The costs of the sizes searched so far, and the predictions they give.
#[derive(Clone, Debug, Default)]
pub struct Growth {
    /// The last two sizes searched, the older first.
    last: Vec<Cost>,
}

impl Growth {
    /// Record the cost of a size searched to its answer.
    pub fn record(&mut self, c: Cost) {
        self.last.push(c);
        if self.last.len() > 2 {
            self.last.remove(0);
        }
    }

    /// The value at size `n` of a quantity measured as `a` at the older size and `b` at
    /// the newer, growing by the same factor per size; `None` when `a` is below `from`.
    fn extrapolate(&self, n: usize, a: f64, b: f64, from: f64) -> Option<f64> {
        let [x, y] = self.last.as_slice() else {
            return None;
        };
        if a < from || a <= 0.0 || n <= y.size || y.size <= x.size {
            return None;
        }
        let per_size = (b / a).powf(1.0 / (y.size - x.size) as f64);
        Some(b * per_size.powf((n - y.size) as f64))
    }

    /// Whether size `n` should not be searched within `budget`: the first limit its
    /// predicted cost exceeds.
    pub fn refuse(&self, n: usize, budget: &Budget) -> Option<Refusal> {
        let [x, y] = self.last.as_slice() else {
            return None;
        };
        if let Some(b) = budget.seconds
            && let Some(t) = self.extrapolate(n, x.seconds, y.seconds, PREDICT_FROM)
            && t > b
        {
            return Some(Refusal::Seconds {
                predicted: t,
                budget: b,
            });
        }
        let states =
            self.extrapolate(n, x.states as f64, y.states as f64, PREDICT_STATES as f64)?;
        if let Some(b) = budget.states
            && states > b as f64
        {
            return Some(Refusal::States {
                predicted: states,
                budget: b,
            });
        }
        if let Some(b) = budget.bytes
            && y.bytes > 0
        {
            // Bytes per state as at the newer size.
            let bytes = states * y.bytes as f64 / y.states.max(1) as f64;
            if bytes > b as f64 {
                return Some(Refusal::Bytes {
                    predicted: bytes,
                    budget: b,
                });
            }
        }
        None
    }
}

/// The memory an explicit search may be predicted to take: the user's cap (`--max-memory`,
/// by default 3/4 of physical memory), but no more than this process holds now plus what
/// the machine has available (other processes share it).
pub fn memory_budget(cap: Option<usize>) -> Option<usize> {
    let free =
        crate::limits::available_memory().map(|a| a + crate::limits::current_memory().unwrap_or(0));
    match (cap, free) {
        (Some(c), Some(f)) => Some(c.min(f)),
        (c, f) => c.or(f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cost(size: usize, seconds: f64, states: usize, bytes: usize) -> Cost {
        Cost {
            size,
            seconds,
            states,
            bytes,
        }
    }

    fn budget(seconds: Option<f64>, states: Option<usize>, bytes: Option<usize>) -> Budget {
        Budget {
            seconds,
            states,
            bytes,
        }
    }

    /// The budget a refusal names (0 for seconds, 1 for states, 2 for bytes) and the
    /// cost it predicts.
    fn refused(r: Option<Refusal>) -> Option<(usize, f64)> {
        r.map(|r| match r {
            Refusal::Seconds { predicted, .. } => (0, predicted),
            Refusal::States { predicted, .. } => (1, predicted),
            Refusal::Bytes { predicted, .. } => (2, predicted),
        })
    }

    #[test]
    fn consecutive_sizes_continue_their_factor() {
        let mut g = Growth::default();
        g.record(cost(4, 0.01, 1000, 32_000));
        assert_eq!(g.refuse(5, &Budget::default()), None);
        g.record(cost(5, 0.1, 10_000, 320_000));
        // Size 6: 0.1 · 10 = 1s, 100,000 states at 32 bytes each.
        for (b, kind, want, within) in [
            (budget(Some(0.5), None, None), 0, 1.0, 1e-9),
            (budget(Some(2.0), Some(50_000), None), 1, 100_000.0, 1e-6),
            (budget(None, None, Some(3_000_000)), 2, 3_200_000.0, 1e-3),
        ] {
            let (k, predicted) = refused(g.refuse(6, &b)).expect("a refusal");
            assert_eq!(k, kind);
            assert!((predicted - want).abs() < within, "{predicted} for {want}");
        }
        let b = budget(Some(2.0), Some(200_000), Some(4_000_000));
        assert_eq!(g.refuse(6, &b), None);
    }

    /// A growth that recorded `costs`.
    fn grown(costs: &[Cost]) -> Growth {
        let mut g = Growth::default();
        costs.iter().for_each(|&c| g.record(c));
        g
    }

    #[test]
    fn a_gap_takes_the_factor_per_size() {
        let g = grown(&[cost(6, 1.0, 100_000, 0), cost(8, 100.0, 10_000_000, 0)]);
        // Factor 10 per size: size 10 is 100 times size 8.
        let b = budget(None, Some(500_000_000), None);
        let (kind, predicted) = refused(g.refuse(10, &b)).expect("a refusal");
        assert!(kind == 1 && (predicted - 1e9).abs() < 1.0);
        assert_eq!(g.refuse(9, &b), None);
    }

    #[test]
    fn tiny_sizes_predict_nothing() {
        let g = grown(&[cost(1, 0.001, 4, 100), cost(2, 0.002, 20, 500)]);
        assert_eq!(g.refuse(3, &budget(Some(0.0), Some(0), Some(0))), None);
    }
}
