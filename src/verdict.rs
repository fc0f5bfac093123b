//! Engine-neutral results: one verdict per (size, property), safety or liveness,
//! carrying its evidence (a replayed trace or lasso, how a `holds` was proved, the bound
//! reached), and the exit code every command derives from its verdicts.

use crate::cert::Certificate;
use crate::lasso::Lasso;
use crate::model::ir::Model;
use crate::trace::Trace;
use std::sync::Arc;

/// How a property was proved at a size.
#[derive(Clone, Debug)]
pub enum Proof {
    /// Every reachable state was explored.
    Exhaustive,
    /// An inductive invariant found by `engine`, checked independently of it before
    /// the verdict was given.
    Invariant {
        engine: &'static str,
        certificate: Arc<Certificate>,
    },
}

/// The answer for one property at one size, with its evidence.
#[derive(Clone, Debug)]
pub enum Verdict {
    Holds(Proof),
    /// A counterexample, replayed on the reference interpreter.
    Violated(Box<Counterexample>),
    /// No violation up to this depth (bounded search only: not a proof).
    NoViolationUpTo(usize),
    /// No violation found by a search that may miss one (not a proof).
    Incomplete,
    /// The size has no initial state: nothing was checked.
    Vacuous,
    /// A limit (or an internal check) stopped the search before an answer.
    Unknown,
    /// No violation among the runs that stay within the int window `lo..hi`, and some
    /// run leaves it (`int_bound` is violated at this size): not a proof. `within` is
    /// the answer for the runs within the window (`Holds` or `NoViolationUpTo`), kept
    /// with its evidence.
    WithinInts {
        lo: i64,
        hi: i64,
        within: Box<Verdict>,
    },
}

/// The evidence of a violation, replayed on the reference interpreter of the unreduced
/// instance before it is reported.
#[derive(Clone, Debug)]
pub enum Counterexample {
    /// A finite run to a state violating an `unsafe` property (or to a range error, a
    /// store leaving the int window, a deadlock).
    Trace(Trace),
    /// An infinite run violating an `ltl` property: a stem and a cycle (or a deadlocked
    /// last state repeating forever).
    Lasso(Lasso),
}

impl Counterexample {
    /// The number of steps: of the trace, or of the lasso's stem and cycle together.
    pub fn depth(&self) -> usize {
        match self {
            Counterexample::Trace(t) => t.depth(),
            Counterexample::Lasso(l) => l.steps.len(),
        }
    }
}

/// The kind of a verdict without its evidence, for comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Holds,
    Violated,
    NoViolationUpTo(usize),
    Incomplete,
    Vacuous,
    Unknown,
    /// `Verdict::WithinInts`, with the bound of a bounded answer within the window.
    WithinInts(Option<usize>),
}

impl Verdict {
    pub fn kind(&self) -> Kind {
        match self {
            Verdict::Holds(_) => Kind::Holds,
            Verdict::Violated(_) => Kind::Violated,
            Verdict::NoViolationUpTo(k) => Kind::NoViolationUpTo(*k),
            Verdict::Incomplete => Kind::Incomplete,
            Verdict::Vacuous => Kind::Vacuous,
            Verdict::Unknown => Kind::Unknown,
            Verdict::WithinInts { within, .. } => Kind::WithinInts(match **within {
                Verdict::NoViolationUpTo(k) => Some(k),
                _ => None,
            }),
        }
    }

    /// A violation with a finite trace as its evidence.
    pub fn violated(t: Trace) -> Verdict {
        Verdict::Violated(Box::new(Counterexample::Trace(t)))
    }

    /// A violation with a lasso as its evidence.
    pub fn violated_by_lasso(l: Lasso) -> Verdict {
        Verdict::Violated(Box::new(Counterexample::Lasso(l)))
    }

    /// The verdict of a width an engine proved: `holds` by the invariant of `engine`
    /// when the independent check accepted its certificate at width `n` (`checked`: the
    /// certificate and the widths it was accepted at), else `unknown` (no certificate,
    /// because a limit came first, or one not accepted there).
    pub fn proved_if_checked(
        engine: &'static str,
        checked: Option<&(Arc<Certificate>, Vec<usize>)>,
        n: usize,
    ) -> Verdict {
        match checked {
            Some((c, widths)) if widths.contains(&n) => Verdict::Holds(Proof::Invariant {
                engine,
                certificate: c.clone(),
            }),
            _ => Verdict::Unknown,
        }
    }

    /// The evidence of a violation.
    pub fn counterexample(&self) -> Option<&Counterexample> {
        match self {
            Verdict::Violated(c) => Some(c),
            _ => None,
        }
    }

    /// The trace of a violation of a safety property.
    pub fn trace(&self) -> Option<&Trace> {
        match self.counterexample() {
            Some(Counterexample::Trace(t)) => Some(t),
            _ => None,
        }
    }

    /// The lasso of a violation of an `ltl` property.
    pub fn lasso(&self) -> Option<&Lasso> {
        match self.counterexample() {
            Some(Counterexample::Lasso(l)) => Some(l),
            _ => None,
        }
    }

    /// Take the trace out of a violation of a safety property.
    pub fn into_trace(self) -> Option<Trace> {
        match self {
            Verdict::Violated(c) => match *c {
                Counterexample::Trace(t) => Some(t),
                Counterexample::Lasso(_) => None,
            },
            _ => None,
        }
    }

    /// The length of the counterexample.
    pub fn depth(&self) -> Option<usize> {
        self.counterexample().map(|c| c.depth())
    }

    /// The JSON spelling: `holds`, `violated`, `no_violation_up_to` (with a bound),
    /// `incomplete`, `vacuous`, `unknown` or `within_int_window` (with the window).
    pub fn json_name(&self) -> &'static str {
        match self {
            Verdict::Holds(_) => "holds",
            Verdict::Violated(_) => "violated",
            Verdict::NoViolationUpTo(_) => "no_violation_up_to",
            Verdict::Incomplete => "incomplete",
            Verdict::Vacuous => "vacuous",
            Verdict::Unknown => "unknown",
            Verdict::WithinInts { .. } => "within_int_window",
        }
    }

    /// The table's spelling. None but a proof reads `holds`; nothing else can be read
    /// as a pass.
    pub fn text(&self) -> String {
        match self {
            Verdict::Holds(Proof::Exhaustive) => "holds".into(),
            Verdict::Holds(Proof::Invariant { .. }) => "holds (proved)".into(),
            Verdict::Violated(_) => "VIOLATED".into(),
            Verdict::NoViolationUpTo(k) => format!("none up to {k}"),
            Verdict::Incomplete => "none found*".into(),
            Verdict::Vacuous => "vacuous".into(),
            Verdict::Unknown => "unknown".into(),
            Verdict::WithinInts { lo, hi, within } => match **within {
                Verdict::NoViolationUpTo(k) => format!("none up to {k} within ints {lo}..{hi}"),
                _ => format!("within ints {lo}..{hi}"),
            },
        }
    }

    /// The int window of a `WithinInts` verdict.
    pub fn int_window(&self) -> Option<(i64, i64)> {
        match self {
            Verdict::WithinInts { lo, hi, .. } => Some((*lo, *hi)),
            _ => None,
        }
    }

    /// The depth bound of a bounded answer (also within the int window).
    pub fn bound(&self) -> Option<usize> {
        match self {
            Verdict::NoViolationUpTo(k) => Some(*k),
            Verdict::WithinInts { within, .. } => within.bound(),
            _ => None,
        }
    }
}

/// Qualify the verdicts of one size by the int window: when `int_bound` is violated
/// at the size (some run leaves the window), every answer that is not a violation
/// but a proof or a bound (`holds`, `none up to K`) speaks only of the runs within
/// the window and becomes `WithinInts`. When `int_bound` is not violated the verdicts
/// are exact and stay as they are. Violations are real either way.
pub fn qualify_by_int_window(report: &mut SizeReport, window: Option<(i64, i64)>) {
    let Some((lo, hi)) = window else {
        return;
    };
    let left = report
        .results
        .iter()
        .any(|r| r.prop == PropId::IntBound && r.verdict.kind() == Kind::Violated);
    if !left {
        return;
    }
    for r in &mut report.results {
        if matches!(r.verdict, Verdict::Holds(_) | Verdict::NoViolationUpTo(_)) {
            let within = std::mem::replace(&mut r.verdict, Verdict::Unknown);
            r.verdict = Verdict::WithinInts {
                lo,
                hi,
                within: Box::new(within),
            };
        }
    }
}

/// The pseudo-properties beside the model's `unsafe` ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PropId {
    Unsafe(usize),
    /// Values or indices out of range.
    Range,
    /// A store leaving the int window.
    IntBound,
    /// A reachable state with no enabled transition (`--deadlock`).
    Deadlock,
    /// An `ltl` property (index into `model.ltls`): for a property of a process, every
    /// process (one for a fully symmetric family, the others following by symmetry).
    Ltl(usize),
}

impl PropId {
    /// The property's name: its own for `unsafe`, `invariant` and `ltl` properties;
    /// `range_error`, `int_bound` and `deadlock` for the others (as certificates, JSON
    /// and tables name them).
    pub fn name(self, model: &Model) -> String {
        match self {
            PropId::Unsafe(u) => model.unsafes[u].name.clone(),
            PropId::Ltl(k) => model.ltls[k].name.clone(),
            PropId::Range => "range_error".into(),
            PropId::IntBound => "int_bound".into(),
            PropId::Deadlock => "deadlock".into(),
        }
    }
}

/// One row of a report.
#[derive(Clone, Debug)]
pub struct PropResult {
    pub size: usize,
    pub prop: PropId,
    pub name: String,
    pub verdict: Verdict,
}

impl PropResult {
    /// The row of property `prop` at `size`, named as the model names it.
    pub fn new(model: &Model, size: usize, prop: PropId, verdict: Verdict) -> PropResult {
        PropResult {
            size,
            name: prop.name(model),
            prop,
            verdict,
        }
    }

    /// The length of the (shortest) counterexample.
    pub fn depth(&self) -> Option<usize> {
        self.verdict.depth()
    }

    pub fn trace(&self) -> Option<&Trace> {
        self.verdict.trace()
    }
}

/// Why a search stopped before an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    MaxStates,
    Timeout,
    Memory,
    Interrupted,
}

impl Limit {
    pub fn text(self) -> &'static str {
        match self {
            Limit::MaxStates => "state limit (--max-states) reached",
            Limit::Timeout => "time limit (--timeout) reached",
            Limit::Memory => "memory limit (--max-memory) reached",
            Limit::Interrupted => "interrupted",
        }
    }

    /// The limit that gave up a search stopped by `stop`: the memory limit, an
    /// interrupt, else the time.
    pub fn of(stop: &crate::sat::Stop) -> Limit {
        if stop.out_of_memory() {
            Limit::Memory
        } else if stop.interrupted() {
            Limit::Interrupted
        } else {
            Limit::Timeout
        }
    }
}

/// Everything an engine reports for one size, for rendering.
#[derive(Clone, Debug, Default)]
pub struct SizeReport {
    pub size: usize,
    /// The engine that answered this size (`explicit`, `sat`, `ic3`, `k-induction`).
    pub engine: &'static str,
    /// Whether the engine's use of symmetry (`engine::Presentation::symmetry`) was
    /// applied at this size.
    pub symmetry: bool,
    pub results: Vec<PropResult>,
    pub seconds: f64,
    /// `seconds` is the time of one run that answered several sizes together (an
    /// aggregate), the same on each of their reports, not this size's own.
    pub shared_time: bool,
    pub limit: Option<Limit>,
    /// Counterexamples that failed to replay, certificates that failed their check
    /// (an engine bug; the verdicts concerned are then unknown).
    pub internal_errors: Vec<String>,
    /// The depth up to which every requested property was answered (explicit: every
    /// state of a smaller depth expanded; SAT: every query up to it solved).
    pub answered_depth: Option<usize>,
    /// The engine's own figures, as it chose to give them.
    pub stats: Stats,
    /// Explicit engine: which transitions fired and which property conjuncts were ever
    /// true, for the warnings about dead code.
    pub coverage: Option<Coverage>,
    /// No engine ran this size (a limit came first): its rows are `unknown`, given so
    /// that every (property, size) asked has one.
    pub not_run: bool,
    /// Seconds from the run's start until these rows were shown (`run::execute`): rows
    /// are printed as each is decided, so a size's rows may come at different times.
    pub shown_at: Option<f64>,
}

pub use crate::schema::Stats;

/// What a search saw of the model's text at one size: which transitions fired, and
/// which conjuncts of the properties that hold were ever true. A transition that never
/// fires, or a conjunct never true, is dead code the author should hear about.
#[derive(Clone, Debug, Default)]
pub struct Coverage {
    /// Every reachable state was explored, so `fired` and `conjuncts` are exact.
    pub exhaustive: bool,
    /// Per transition: whether it has an instance at this size.
    pub instances: Vec<bool>,
    /// Per transition: whether some instance of it fired in a state the search
    /// expanded.
    pub fired: Vec<bool>,
    /// Per property examined (index into `model.unsafes`: the checked properties with
    /// two conjuncts or more that hold and have tuples at this size), per conjunct as
    /// written: whether it may be true for some pairwise distinct processes in some
    /// reachable state (`false`: certainly never).
    pub conjuncts: Vec<(usize, Vec<bool>)>,
    /// Why the conjuncts were not examined at this size although the search was
    /// exhaustive (too costly), if so.
    pub skipped: Option<String>,
    /// Per property that holds and has tuples at this size (index into
    /// `model.unsafes`): whether some state at all, reachable or not, satisfies its
    /// formula (`explicit::vacuity`); `false`: the formula contradicts itself.
    /// Properties left undecided (a limit) are absent.
    pub satisfiable: Vec<(usize, bool)>,
}

/// Exit codes, for every command.
pub const EXIT_OK: i32 = 0;
pub const EXIT_VIOLATION: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
pub const EXIT_LIMIT: i32 = 3;
pub const EXIT_NOT_PROVED: i32 = 4;

/// The exit code of a set of verdicts: 1 when any is violated (`int_bound` aside: a
/// run leaving the int window makes the answers not proofs, code 4); else 3 when a limit
/// stopped the run, an internal check failed or any answer is unknown; else 4 when any
/// answer is not a proof (bounded, incomplete, vacuous, within the int window); else 0
/// (everything proved).
pub fn exit_code<'a>(
    verdicts: impl IntoIterator<Item = &'a Verdict>,
    limited_or_failed: bool,
) -> i32 {
    let (mut unknown, mut weak) = (limited_or_failed, false);
    for v in verdicts {
        match v.kind() {
            // Leaving the int window is a limit of the check, not an error of the model.
            Kind::Violated
                if v.trace()
                    .is_some_and(|t| t.violation.kind_name() == "int_bound") =>
            {
                weak = true
            }
            Kind::Violated => return EXIT_VIOLATION,
            Kind::Unknown => unknown = true,
            Kind::NoViolationUpTo(_) | Kind::Incomplete | Kind::Vacuous | Kind::WithinInts(_) => {
                weak = true
            }
            Kind::Holds => {}
        }
    }
    if unknown {
        EXIT_LIMIT
    } else if weak {
        EXIT_NOT_PROVED
    } else {
        EXIT_OK
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_rank_violations_then_unknowns_then_weak_answers() {
        let h = Verdict::Holds(Proof::Exhaustive);
        assert_eq!(exit_code([&h], false), EXIT_OK);
        assert_eq!(
            exit_code([&h, &Verdict::NoViolationUpTo(3)], false),
            EXIT_NOT_PROVED
        );
        assert_eq!(exit_code([&h, &Verdict::Vacuous], false), EXIT_NOT_PROVED);
        assert_eq!(
            exit_code([&Verdict::Incomplete, &Verdict::Unknown], false),
            EXIT_LIMIT
        );
        assert_eq!(exit_code([&h], true), EXIT_LIMIT);
        let t = Trace {
            size: 1,
            init: vec![],
            steps: vec![],
            violation: crate::trace::Violation::Deadlock,
        };
        let v = Verdict::violated(t);
        assert_eq!(exit_code([&Verdict::Unknown, &v], true), EXIT_VIOLATION);
        assert_eq!(v.depth(), Some(0));
        for v in [
            &h,
            &v,
            &Verdict::NoViolationUpTo(2),
            &Verdict::Incomplete,
            &Verdict::Vacuous,
        ] {
            assert_eq!(v.text().starts_with("holds"), v.kind() == Kind::Holds);
        }
    }
}
