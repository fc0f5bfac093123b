//! The run pipeline of `nfold check` and `nfold live`, below the command line: every n
//! first, the engine over the sizes, int windows widened, every n after the sizes,
//! and the pass that assumes the `invariant`s, into one `Run`. The command line parses,
//! loads, and prints what the pipeline shows (`Event`) and returns; tests drive this
//! pipeline with the shipped budgets (`portfolio::budgets`).

mod every;
mod widen;

pub use every::{AssumedRun, assumed_model};
pub use widen::DEFAULT_MAX as INT_MAX;

use crate::cert::Certificate;
use crate::engine::{self, Control, Engine, Presentation, Problem};
use crate::model::ir::Model;
use crate::portfolio::budgets::SHIPPED;
use crate::portfolio::every::{EveryAnswers, EveryN};
use crate::sat::SolverKind;
use crate::verdict::{Kind, Limit, PropId, PropResult, SizeReport};
use std::cell::OnceCell;
use std::sync::Arc;
use std::time::Instant;

/// Everything known about a run: what was asked, how the engine presents itself, and
/// every answer.
pub struct Run<'a> {
    pub model: &'a Model,
    /// The engine's JSON name.
    pub engine: &'static str,
    /// One line describing the engine and its settings.
    pub engine_text: String,
    /// How the engine presents itself.
    pub presentation: Presentation,
    pub symmetry_requested: bool,
    /// The arrays whose dead cells the explicit search normalizes, described.
    pub dead_cells: Vec<String>,
    pub sizes: Vec<usize>,
    pub reports: Vec<SizeReport>,
    pub limit: Option<Limit>,
    pub seconds: f64,
    /// The sizes were answered as one aggregate.
    pub aggregate: bool,
    /// The aggregate run checked its widths one by one (`bmc::driver::check_aggregate`).
    pub per_width: bool,
    pub notes: Vec<String>,
    /// The checked certificates of the sizes proved: the `unsafe` properties' and one
    /// per `ltl` property (of its liveness product).
    pub certificates: Vec<Arc<Certificate>>,
    /// The answers for every size, per property, when asked for (or tried by default).
    pub every: Option<EveryAnswers>,
    /// The `unsafe` properties answered again assuming the `invariant`s, when some
    /// `invariant` is not proved.
    pub assumed: Option<AssumedRun>,
    /// `--every-n` was given (an answer short of it is then not what was asked).
    pub every_requested: bool,
    /// For a run with `ltl` properties: whether only weakly fair runs count.
    pub fair: Option<bool>,
    /// The `ltl` properties of the run.
    pub ltls: Vec<usize>,
    /// Whether the ints are ranked, and why not (`model::ints::ranked`), for the header;
    /// empty for a model without ints.
    pub ints_ranked: String,
    /// What the reduction left out (`model::reduce::Plan::summary`); empty when
    /// nothing.
    pub reduced: String,
    /// When the run began (`execute`): each report's `shown_at` counts from here.
    pub started: Instant,
}

/// How a run is made, beyond the engine and the problem.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub solver: SolverKind,
    /// Symmetry asked for (not `--no-symmetry`).
    pub symmetry: bool,
    /// The model is reduced to what is asked (not `--no-reduce`).
    pub reduce: bool,
    /// Deadlocks are asked for too (`--deadlock`).
    pub deadlock: bool,
    /// Ints may be ranked (not `--no-rank-ints`).
    pub rank_ints: bool,
    /// `--every-n`: asked for, bounded by the run's limits only.
    pub every_requested: bool,
    /// The sizes were given (`--sizes`, `--size`): every n is then not tried unasked.
    pub sizes_given: bool,
    /// The widest int window a derived one may widen to (`--int-max`).
    pub int_max: i64,
}

impl Settings {
    /// How the argument for every n is made, within `ctl`.
    fn every<'c>(&self, ctl: &'c Control) -> every::EveryOpts<'c> {
        every::EveryOpts {
            solver: self.solver,
            symmetry: self.symmetry,
            reduce: self.reduce,
            ctl,
        }
    }
}

/// What the pipeline shows as it goes.
pub enum Event<'e> {
    /// A size's report, final; the report shown before it (for the table's rows).
    Rows {
        model: &'e Model,
        report: &'e SizeReport,
        prev: Option<&'e SizeReport>,
    },
    /// A line of its own (a heading before sizes run again in a wider window).
    Text(&'e str),
}

impl<'a> Run<'a> {
    /// The run before any answer: the header's facts.
    pub fn new(model: &'a Model, engine: &dyn Engine, p: &Problem, s: &Settings) -> Self {
        let presentation = engine.presentation(p);
        let dead_cells = if !presentation.dead_cells {
            Vec::new()
        } else if p.props.is_empty() {
            // `ltl` properties only: arrays their atoms read stay live.
            let d = crate::model::dead::analyse_live(model);
            d.iter().map(|d| d.describe(model)).collect()
        } else {
            let d = crate::model::dead::analyse(model);
            d.iter().map(|d| d.describe(model)).collect()
        };
        Run {
            model,
            engine: engine.name(),
            engine_text: engine.describe(p),
            presentation,
            symmetry_requested: s.symmetry,
            dead_cells,
            sizes: (p.min..=p.max).collect(),
            reports: Vec::new(),
            limit: None,
            seconds: 0.0,
            aggregate: false,
            per_width: false,
            notes: Vec::new(),
            certificates: Vec::new(),
            every: None,
            assumed: None,
            every_requested: s.every_requested,
            fair: (!p.ltls.is_empty()).then_some(p.fair),
            ltls: p.ltls.clone(),
            reduced: if s.reduce {
                crate::portfolio::reduced::summary(p, s.deadlock)
            } else {
                String::new()
            },
            ints_ranked: ranked_ints_text(
                model,
                engine.name(),
                presentation.ranks_ints,
                s,
                !p.ltls.is_empty(),
            ),
            started: Instant::now(),
        }
    }

    /// The certificates a `--certificate` file gets: those of every n when it proved
    /// every property, else those of the sizes.
    pub fn certificates_to_write(&self) -> Vec<Arc<Certificate>> {
        let mut out: Vec<Arc<Certificate>> = Vec::new();
        let assumed_every = self.assumed.as_ref().and_then(|x| x.every.as_ref());
        for e in [self.every.as_ref(), assumed_every].into_iter().flatten() {
            out.extend(e.certificates());
        }
        if !self.every.as_ref().is_some_and(|e| e.all_proved()) {
            out.extend(self.certificates.iter().cloned());
        }
        if let Some(x) = &self.assumed
            && !x.every.as_ref().is_some_and(|e| e.all_proved())
        {
            out.extend(x.certificates.iter().cloned());
        }
        out
    }
}

/// The engine as the pipeline runs it: reduced to what is asked
/// (`portfolio::reduced`) unless `--no-reduce`.
pub fn with_reduction(engine: Box<dyn Engine>, s: &Settings) -> Box<dyn Engine> {
    if !s.reduce {
        return engine;
    }
    Box::new(crate::portfolio::reduced::Reduced {
        inner: engine,
        deadlock: s.deadlock,
        solver: s.solver,
    })
}

/// The limits of the attempt at every n before the sizes, in CPU time, so that a loaded
/// machine does not cut it down to nothing (the route would then differ with the
/// load). Tried by default, it is short (a model with a bug loses little). Asked for
/// (`--every-n`), the answer for every n is what the run is for: the attempt gets
/// `every_first_asked`, and when it proves every property no size is searched on its
/// own (the size-4 explicit search of Cubicle's bakery over ranked tickets, 7.6
/// million states, cost more than the proof that answers it). Its answers are reused
/// after the sizes when it ends without proving all and was not cut short
/// (`every::First::Partial`). With a `--timeout` it gets half the time left at most,
/// so that the sizes still have their turn; the wall clock does not cap it otherwise.
fn first_budget(ctl: &Control, asked: bool) -> Control {
    if !asked {
        return ctl.within_cpu(SHIPPED.every_first);
    }
    let own = ctl.deadline.map_or(ctl.clone(), |d| {
        ctl.within(d.saturating_duration_since(Instant::now()).as_secs_f64() / 2.0)
    });
    Control {
        deadline: own.deadline,
        ..own.within_cpu(SHIPPED.every_first_asked)
    }
}

/// Whether every n is tried: asked for, or by default for an engine that can when the
/// sizes were not given and the model is not one instance.
fn tries_every(engine: &dyn Engine, p: &Problem, s: &Settings) -> bool {
    let unasked =
        engine.every_n() && p.ltls.is_empty() && !s.sizes_given && p.model.number_procs.is_none();
    s.every_requested || unasked
}

/// Checks that the engine can answer what is asked (an `Err` is a usage error).
pub fn admit(engine: &dyn Engine, p: &Problem, s: &Settings) -> Result<(), String> {
    if !p.ltls.is_empty() && !engine.answers().ltl {
        return Err(format!(
            "the {} engine does not check `ltl` properties (use --engine explicit or auto)",
            engine.name()
        ));
    }
    if s.every_requested && !engine.every_n() {
        return Err("--every-n needs --engine auto or ic3".into());
    }
    crate::explicit::engine::prepare(p.model, &p.ltls).map(|_| ())
}

/// The whole run: fills `run` (made by `Run::new` for `p`), showing each size's rows as
/// they are final. A model with a wider int window, when sizes went on to one, is kept
/// in `wide`. An `Err` is a usage error (a model the engines cannot take).
pub fn execute<'m>(
    run: &mut Run<'m>,
    engine: &dyn Engine,
    p: &Problem<'m>,
    ctl: &Control,
    s: &Settings,
    wide: &'m OnceCell<Model>,
    show: &mut dyn FnMut(Event),
) -> Result<(), String> {
    run.started = Instant::now();
    let try_every = tries_every(engine, p, s);
    // Every n first: when it proves every property, the sizes follow from it and are
    // not searched (a bounded attempt; otherwise the sizes, then every n as usual).
    let first = if try_every && p.ltls.is_empty() {
        let fctl = first_budget(ctl, s.every_requested);
        every::proved_first(p.model, &p.props, &run.sizes, s.every(&fctl))?
    } else {
        every::First::None
    };
    let known = match first {
        every::First::Proved(answers, reports) => {
            every::take_first(run, answers, reports, show);
            Vec::new()
        }
        every::First::Partial(known) => {
            // The properties it proved need no search of the sizes (their rows come
            // from the invariant), unless a window could be widened: the proof is
            // about the model as read.
            let shown = every::Shown::of(p.model, &known);
            let open = Problem {
                props: shown.open(&p.props),
                ..p.clone()
            };
            let widened = sizes(run, engine, &open, ctl, s, wide, show, &|r| shown.fill(r))?;
            run.notes.extend(shown.note(&run.sizes));
            // The attempt before the sizes was about the model as read: a window
            // widened since asks again.
            if widened { Vec::new() } else { known }
        }
        every::First::None => {
            sizes(run, engine, p, ctl, s, wide, show, &|_| ())?;
            Vec::new()
        }
    };
    let p = Problem {
        model: run.model,
        ..p.clone()
    };
    // Tried by default, every n gets a budget; asked for, only the run's limits.
    let ectl = if s.every_requested {
        ctl.clone()
    } else {
        ctl.within(SHIPPED.every_after)
    };
    let out_of_budget = |e: EveryAnswers| budget_out(e, &ectl, ctl);
    if try_every && run.every.is_none() {
        let limited = run.limit.is_some();
        let e = every::answers(
            run.model,
            &run.reports,
            limited,
            &p.props,
            s.every(&ectl),
            &known,
        )?;
        run.every = Some(out_of_budget(e));
        let lifted = every::lift_sizes(run);
        if !lifted.is_empty() {
            run.notes.push(format!(
                "{}: the rows above fell short of a proof (a bound, or an int window some run leaves); the invariant for every n (below) proves them, and the summary counts them as proved",
                crate::cert::sizes_phrase(&lifted)
            ));
        }
    }
    // `ltl` properties for every n: only when asked (a ranking checked up to a cutoff).
    if s.every_requested && !p.ltls.is_empty() {
        let l = every::ltl_answers(run.model, &run.reports, &p.ltls, p.fair, s.every(&ectl))?;
        let e = run.every.get_or_insert_with(EveryAnswers::default);
        e.seconds += l.iter().map(|x| x.answer.seconds()).sum::<f64>();
        e.props.extend(l);
    }
    // Cubicle assumes its `invariant`s: when one is not proved, the `unsafe` properties
    // are answered again on the states satisfying them.
    if p.ltls.is_empty() && every::invariant_unproved(run, &p.props) {
        let o = try_every.then_some(s.every(&ectl));
        run.assumed = every::assumed_pass(engine, run, &p, o, ctl)?.map(|mut x| {
            x.every = x.every.take().map(out_of_budget);
            x
        });
    }
    run.seconds = run.started.elapsed().as_secs_f64();
    Ok(())
}

/// The sizes by the engine, each report completed by `fill` (the rows of properties
/// answered otherwise), then wider int windows where runs left the window; whether
/// the run ended on another model than `p`'s (a wider window).
#[allow(clippy::too_many_arguments)]
fn sizes<'m>(
    run: &mut Run<'m>,
    engine: &dyn Engine,
    p: &Problem<'m>,
    ctl: &Control,
    s: &Settings,
    wide: &'m OnceCell<Model>,
    show: &mut dyn FnMut(Event),
    fill: &dyn Fn(&mut SizeReport),
) -> Result<bool, String> {
    let model = p.model;
    let started = run.started;
    let mut reports: Vec<SizeReport> = Vec::new();
    let outcome = engine::run(engine, p, ctl, &mut |mut r| {
        fill(&mut r);
        r.shown_at = Some(started.elapsed().as_secs_f64());
        show(Event::Rows {
            model,
            report: &r,
            prev: reports.last(),
        });
        reports.push(r);
    })?;
    run.reports = reports;
    run.limit = outcome.limit.or(run.reports.iter().find_map(|r| r.limit));
    run.aggregate = outcome.aggregate;
    run.per_width = outcome.per_width;
    // Two routes of one run (safety and `ltl`) may say the same thing: once.
    for n in outcome.notes {
        if !run.notes.contains(&n) {
            run.notes.push(n);
        }
    }
    run.certificates = if outcome.certificates.is_empty() {
        outcome.certificate.into_iter().collect()
    } else {
        outcome.certificates
    };
    let widened = widen::widen(run, engine, p, ctl, s.int_max, show)?;
    run.notes.extend(widened.notes);
    if let Some(m) = widened.model {
        run.model = wide.get_or_init(|| m);
    }
    show_ranked_wide_enough(run, wide);
    Ok(!std::ptr::eq(run.model, model))
}

/// Ranked ints: the counterexamples hold the unranked values of their runs, which may
/// leave the window the model was read with; they are shown in a window wide enough
/// for their length.
fn show_ranked_wide_enough<'m>(run: &mut Run<'m>, wide: &'m OnceCell<Model>) {
    use crate::model::ints::ranked;
    let ranked_run = run.reports.iter().any(|r| r.stats.ints_ranked.is_some());
    if let (true, Some(r)) = (ranked_run, ranked::applies(run.model)) {
        let depth = run
            .reports
            .iter()
            .flat_map(|r| r.results.iter().filter_map(|p| p.depth()))
            .max()
            .unwrap_or(0);
        let m = ranked::Ranking::with_hi(run.model, r.concrete_hi(depth));
        run.model = wide.get_or_init(|| m);
    }
}

/// An attempt at every n that its own budget (`ectl`, not the run's `ctl`) stopped says
/// so in its reason.
fn budget_out(mut e: EveryAnswers, ectl: &Control, ctl: &Control) -> EveryAnswers {
    if ectl.sat_stop().now() && !ctl.sat_stop().now() {
        for p in &mut e.props {
            if let EveryN::NotReached {
                reason, violated, ..
            } = &mut p.answer
                && violated.is_empty()
            {
                *reason = format!(
                    "the {:.0} s an attempt gets without --every-n ran out (--every-n goes on until --timeout)",
                    SHIPPED.every_after
                );
            }
        }
    }
    e
}

/// The header's `ints` line about ranks: whether the model's ints are replaced by their
/// rank (`model::ints::ranked`), by which engines, and the construct that prevents it.
fn ranked_ints_text(model: &Model, engine: &str, ranks: bool, s: &Settings, ltl: bool) -> String {
    match crate::model::ints::ranked::analyse(model) {
        Ok(None) => String::new(),
        Err(e) => format!(
            "ints not ranked: {} at {}",
            e.what,
            model.source.file_line(e.span.lo)
        ),
        Ok(Some(_)) if !s.rank_ints => "ints not ranked (--no-rank-ints)".into(),
        Ok(Some(_)) if model.int_window.as_ref().is_some_and(|w| w.given) => {
            "ints not ranked (--int-range fixes the window)".into()
        }
        Ok(Some(r)) if ranks => format!(
            "ints ranked: {} (only compared, copied and incremented from the largest: each size is finite and its answers exact{}; docs/language.md 4.6)",
            r.names(model).join(", "),
            if ltl {
                "; `ltl` properties keep the int window"
            } else {
                ""
            }
        ),
        Ok(Some(_)) => format!(
            "ints not ranked: the {engine} engine checks the int window (ranking needs --engine explicit or auto)"
        ),
    }
}

/// A violation of the model: any violated row but `int_bound` (leaving the int window
/// is where the check stops, not an error of the model).
pub fn real_violation(p: &PropResult) -> bool {
    p.verdict.kind() == Kind::Violated && p.prop != PropId::IntBound
}

/// The run's exit code (docs/cli.md, "Exit codes").
pub fn exit_code(run: &Run) -> i32 {
    let failed = run.limit.is_some() || run.reports.iter().any(|r| !r.internal_errors.is_empty());
    let code = crate::verdict::exit_code(
        run.reports
            .iter()
            .flat_map(|r| r.results.iter().map(|p| &p.verdict)),
        failed,
    );
    debug_assert_ne!(code, crate::verdict::EXIT_USAGE);
    // `--every-n` asked for a proof at every size: short of it, not what was asked.
    let short = run.every_requested && !run.every.as_ref().is_some_and(|e| e.all_proved());
    if code == crate::verdict::EXIT_OK && short {
        crate::verdict::EXIT_NOT_PROVED
    } else {
        code
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::portfolio::auto::AutoEngine;
    use crate::verdict::EXIT_OK;

    /// A semaphore mutex: `racy` splits testing the semaphore from taking it, so two
    /// processes can both see it free (a violation from n = 2, in 6 steps: two
    /// requests, two tests, two entries); atomic, it holds at every n.
    fn mutex(racy: bool) -> Model {
        let enter = if racy {
            "transition test (i) requires { A[i] = Want && Sem = False } { A[i] := Ready; }\n\
             transition enter (i) requires { A[i] = Ready } { A[i] := Crit; Sem := True; }"
        } else {
            "transition enter (i) requires { A[i] = Want && Sem = False } { A[i] := Crit; Sem := True; }"
        };
        let text = format!(
            "type state = Idle | Want | Ready | Crit\n\
             var Sem : bool\narray A[proc] : state\n\
             init (z) {{ A[z] = Idle && Sem = False }}\n\
             unsafe mutex (z1 z2) {{ A[z1] = Crit && A[z2] = Crit }}\n\
             transition req (i) requires {{ A[i] = Idle }} {{ A[i] := Want; }}\n\
             {enter}\n\
             transition exit (i) requires {{ A[i] = Crit }} {{ A[i] := Idle; Sem := False; }}\n"
        );
        crate::lang::load_str("mutex.cub", &text).expect("the test model loads")
    }

    /// The pipeline users get by default (auto with the shipped budgets, reduced) on
    /// `model` at `sizes` (`None`: not given, so every n is tried first).
    fn run_default(model: &Model, sizes: Option<(usize, usize)>) -> (Run<'_>, Vec<usize>) {
        let s = Settings {
            solver: SolverKind::default_kind(),
            symmetry: true,
            reduce: true,
            deadlock: false,
            rank_ints: true,
            every_requested: false,
            sizes_given: sizes.is_some(),
            int_max: INT_MAX,
        };
        let engine = with_reduction(Box::new(AutoEngine::shipped(s.solver, true)), &s);
        let (lo, hi) = sizes.unwrap_or((1, 4));
        let p = Problem::new(model, lo, hi, vec![0]);
        admit(engine.as_ref(), &p, &s).expect("auto answers safety");
        let leaked: &OnceCell<Model> = Box::leak(Box::new(OnceCell::new()));
        let mut run = Run::new(model, engine.as_ref(), &p, &s);
        let mut shown = Vec::new();
        let mut show = |e: Event| {
            if let Event::Rows { report, .. } = e {
                shown.push(report.size);
            }
        };
        execute(
            &mut run,
            engine.as_ref(),
            &p,
            &Control::default(),
            &s,
            leaked,
            &mut show,
        )
        .expect("the pipeline runs");
        (run, shown)
    }

    fn verdicts(run: &Run) -> Vec<(usize, Kind)> {
        let rows = run.reports.iter().flat_map(|r| r.results.iter());
        rows.filter(|p| p.prop == PropId::Unsafe(0))
            .map(|p| (p.size, p.verdict.kind()))
            .collect()
    }

    #[test]
    fn the_default_pipeline_proves_every_n_before_the_sizes() {
        let m = mutex(false);
        let (run, shown) = run_default(&m, None);
        assert_eq!(shown, vec![1, 2, 3, 4], "every size's rows are shown once");
        assert!(verdicts(&run).iter().all(|&(_, k)| k == Kind::Holds));
        assert!(run.every.as_ref().is_some_and(|e| e.all_proved()));
        assert!(run.assumed.is_none());
        assert_eq!(exit_code(&run), EXIT_OK);
    }

    #[test]
    fn the_default_pipeline_finds_the_race_from_two_processes_in_six_steps() {
        let m = mutex(true);
        let (run, shown) = run_default(&m, Some((1, 4)));
        assert_eq!(shown, vec![1, 2, 3, 4]);
        let want: Vec<(usize, Kind)> = (1..=4)
            .map(|n| (n, if n == 1 { Kind::Holds } else { Kind::Violated }))
            .collect();
        assert_eq!(verdicts(&run), want);
        let depths: Vec<Option<usize>> = run.reports[1..]
            .iter()
            .map(|r| r.results[0].depth())
            .collect();
        assert_eq!(depths, vec![Some(6); 3], "shortest counterexamples");
        assert!(
            run.every.is_none(),
            "sizes given: every n is not tried unasked"
        );
        assert_eq!(exit_code(&run), crate::verdict::EXIT_VIOLATION);
    }

    #[test]
    fn a_proof_for_every_n_answers_the_rows_short_of_a_proof() {
        use crate::verdict::{PropResult, Verdict};
        let m = mutex(false);
        let (mut run, _) = run_default(&m, None);
        // As the window search leaves them: within the window at sizes 1..2, a
        // bounded row at 3, vacuous at 4; each size with its `int_bound` row.
        let leaves = crate::trace::Trace {
            size: 1,
            init: vec![],
            steps: vec![],
            violation: crate::trace::Violation::Deadlock,
        };
        for r in &mut run.reports {
            r.results[0].verdict = match r.size {
                1 | 2 => Verdict::WithinInts {
                    lo: 0,
                    hi: 3,
                    within: Box::new(Verdict::NoViolationUpTo(9)),
                },
                3 => Verdict::NoViolationUpTo(9),
                _ => Verdict::Vacuous,
            };
            r.results.push(PropResult {
                size: r.size,
                prop: PropId::IntBound,
                name: "int_bound".into(),
                verdict: Verdict::violated(leaves.clone()),
            });
        }
        assert_ne!(exit_code(&run), EXIT_OK);
        assert_eq!(every::lift_sizes(&mut run), vec![1, 2, 3]);
        let kinds: Vec<(usize, Kind)> = run
            .reports
            .iter()
            .flat_map(|r| r.results.iter().map(|x| (x.size, x.verdict.kind())))
            .collect();
        // Size 4 keeps its rows: vacuous is not lifted, so its `int_bound` row stays.
        let want = vec![
            (1, Kind::Holds),
            (2, Kind::Holds),
            (3, Kind::Holds),
            (4, Kind::Vacuous),
            (4, Kind::Violated),
        ];
        assert_eq!(kinds, want);
        // Without the proof for every n nothing is lifted.
        run.every = None;
        run.reports[0].results[0].verdict = Verdict::NoViolationUpTo(9);
        assert!(every::lift_sizes(&mut run).is_empty());
    }
}
