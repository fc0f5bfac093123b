//! The shipped budgets of the default route, in one place: how long each phase of `auto`
//! may take before the next takes the open (property, size) pairs, how long the
//! attempts at every n may take when the user did not ask for them, and the probe that
//! speaks for the explicit search. The user's `--timeout`, `--max-memory` and Ctrl-C
//! bound every phase on top of these. The figures were chosen by measurement on the
//! shipped families (docs/engines.md, "The default route").

/// Seconds (and the bounded pass's depth) of each phase.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budgets {
    /// Safety: one size of the explicit phase.
    pub explicit: f64,
    /// Safety: the bounded pass on the aggregate of the sizes left.
    pub bmc: f64,
    /// Safety and `ltl`: the depth of the bounded pass (`--depth` replaces it).
    pub bmc_depth: usize,
    /// Safety: IC3 on the aggregate, before the explicit search takes the open sizes
    /// back.
    pub ic3: f64,
    /// Safety: after IC3, its counterexamples made shortest (BMC) and its invariant
    /// checked, before the open pairs go on.
    pub conclude: f64,
    /// Safety: one size searched over the int window where the ranking of its ints
    /// cannot follow (ranked ints otherwise need no budget: each size is finite).
    pub window: f64,
    /// `ltl`: the ranking proofs, once their probe at the smallest sizes succeeded.
    pub rank: f64,
    /// `ltl`: one size of the explicit phase. 0.2 s as for safety (it was 1 s): on
    /// two cores the search goes on beside the SAT route anyway, and a size that
    /// outgrows the budget was a second lost before the BDD fixpoint, which answers
    /// the sorting networks at every width in a tenth of that (`live --fair` 1..8 of
    /// the liveness sort: 1.9 s to 0.85 s; readers/writers 3.0 s to 2.2 s; the MCS
    /// lock without fairness 1.7 s to 2.0 s, the one loss; docs/engines.md).
    pub live_explicit: f64,
    /// `ltl`: the bounded lasso search.
    pub lasso: f64,
    /// `ltl`: the bounded lasso search again, deeper (`deep_depth`), on the sizes IC3
    /// left: lassos longer than the first search's depth (Peterson's lock written with
    /// range errors, where neither the explicit search, the BDD fixpoint nor IC3
    /// answers: lassos of 15 and 19 steps at sizes 3 and 4, which `--engine sat` finds).
    pub deep_lasso: f64,
    /// `ltl`: the depth of that second search (`--engine sat`'s default depth); it is
    /// skipped when `bmc_depth` (`--depth`) is not below it.
    pub deep_depth: usize,
    /// `ltl`: the BDD fixpoint on the sizes the bounded lasso search left.
    pub live_bdd: f64,
    /// `ltl`: IC3 on the liveness product, before the explicit search takes the open
    /// sizes back.
    pub live_ic3: f64,
    /// Every n before the sizes (short: a model with a bug loses little), in CPU
    /// time.
    pub every_first: f64,
    /// Every n before the sizes with `--every-n`, in CPU time: the answer asked for
    /// comes first, and a model whose every-n argument is long but ends (the bakery
    /// over the order of its tickets with a write buffer: 18 s) is not searched size
    /// by size; a model where it does not end (a bug IC3 takes long to find) loses
    /// this much before the sizes.
    pub every_first_asked: f64,
    /// Every n after the sizes, when tried without `--every-n`.
    pub every_after: f64,
    /// The probe before an engine the user chose (it delays that engine by at most
    /// this).
    pub probe: f64,
}

/// The budgets nfold ships with.
pub const SHIPPED: Budgets = Budgets {
    explicit: 0.2,
    bmc: 1.0,
    bmc_depth: 10,
    ic3: 20.0,
    conclude: 20.0,
    window: 2.0,
    rank: 30.0,
    live_explicit: 0.2,
    lasso: 2.0,
    live_bdd: 10.0,
    live_ic3: 20.0,
    deep_lasso: 20.0,
    deep_depth: 20,
    every_first: 3.0,
    every_first_asked: 30.0,
    every_after: 10.0,
    probe: 0.25,
};
