//! The engine contract: every safety engine (explicit search, BMC, IC3, k-induction,
//! and `portfolio::auto`, which combines them) takes one `Problem` (a family, a range of sizes,
//! its properties) under one `Control` (limits, interrupt, progress) and hands one
//! `SizeReport` per size to the caller, every verdict carrying its evidence
//! (`verdict`). The command line renders and ranks those reports the same way
//! whichever engine produced them.
//!
//! This module holds the contract alone and imports only from below it (model,
//! verdict, certificates, the SAT limits): every engine implements it from above, and
//! the engines made of engines (`portfolio`) combine them from further up. What every
//! proof engine ends with (shortest counterexamples, certified invariants) is
//! `proof::finish`.

use crate::cert::Certificate;
use crate::model::init::for_each_initial;
use crate::model::instance::Instance;
use crate::model::ir::Model;
use crate::sat::Stop;
use crate::verdict::{Limit, PropId, PropResult, SizeReport, Verdict};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What to check.
#[derive(Clone, Debug)]
pub struct Problem<'m> {
    pub model: &'m Model,
    /// The sizes `min..=max`.
    pub min: usize,
    pub max: usize,
    /// The `unsafe` properties (indices into `model.unsafes`); range errors are always
    /// checked.
    pub props: Vec<usize>,
    /// The `ltl` properties (indices into `model.ltls`), for engines that answer
    /// them (`Engine::answers`).
    pub ltls: Vec<usize>,
    /// Only weakly fair runs count for the `ltl` properties: every process that stays
    /// enabled eventually executes (the process of a step is its transition's first
    /// parameter).
    pub fair: bool,
}

impl<'m> Problem<'m> {
    /// A safety problem: `unsafe` properties `props` (and range errors) at sizes
    /// `min..=max`.
    pub fn new(model: &'m Model, min: usize, max: usize, props: Vec<usize>) -> Problem<'m> {
        Problem {
            model,
            min,
            max,
            props,
            ltls: Vec::new(),
            fair: false,
        }
    }

    pub fn sizes(&self) -> Vec<usize> {
        (self.min..=self.max).collect()
    }

    /// `, sizes A..B in one aggregate run` for a range, nothing for one size: how an
    /// engine that answers a range in one run says so in its description.
    pub fn aggregate_text(&self) -> String {
        if self.max > self.min {
            format!(", sizes {}..{} in one aggregate run", self.min, self.max)
        } else {
            String::new()
        }
    }
}

/// Limits, interrupt and progress, shared by every engine.
#[derive(Clone, Debug, Default)]
pub struct Control {
    pub deadline: Option<Instant>,
    pub stop: Option<Arc<AtomicBool>>,
    /// Stop when the process's resident memory exceeds this many bytes.
    pub max_memory: Option<usize>,
    /// Raised when it did (`limits::memory_guard`), for the engines that cannot count
    /// their own bytes.
    pub memory: Option<Arc<AtomicBool>>,
    /// Progress lines on stderr.
    pub progress: bool,
    /// Threads an engine may search on (0: one per core).
    pub threads: usize,
}

impl Control {
    /// The user's limit, if one has been reached: memory, Ctrl-C, or the deadline.
    pub fn users_limit(&self) -> Option<Limit> {
        if self
            .memory
            .as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
        {
            Some(Limit::Memory)
        } else if self
            .stop
            .as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
        {
            Some(Limit::Interrupted)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Limit::Timeout)
        } else {
            None
        }
    }

    /// The control of a phase with a budget of its own: these limits, and a deadline
    /// `seconds` from now at the latest.
    pub fn within(&self, seconds: f64) -> Control {
        let own = std::time::Instant::now() + std::time::Duration::from_secs_f64(seconds);
        Control {
            deadline: Some(self.deadline.map_or(own, |d| d.min(own))),
            ..self.clone()
        }
    }

    /// The control of a phase whose budget counts the CPU time of the calling thread,
    /// which does the phase's work, rather than the wall clock: beside other work on a
    /// busy machine the phase gets as much done before its budget ends as on an idle
    /// one (the route does not fall off a cliff under load). The wall clock still caps
    /// it, at `CPU_STRETCH` times the budget; the user's limits stand. A watchdog
    /// thread sets the phase's own stop flag when its budget is spent, or when the
    /// flag it replaces (Ctrl-C, a race) is set; it ends with the last copy of the
    /// control.
    pub fn within_cpu(&self, seconds: f64) -> Control {
        use crate::limits::{cpu_seconds, thread_cpu_clock};
        use std::sync::atomic::Ordering::Relaxed;
        let wall = self.within(seconds * CPU_STRETCH);
        let Some(clock) = thread_cpu_clock() else {
            return self.within(seconds);
        };
        let Some(start) = cpu_seconds(clock) else {
            return self.within(seconds);
        };
        let own = Arc::new(AtomicBool::new(false));
        let (flag, parent) = (own.clone(), self.stop.clone());
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(std::time::Duration::from_millis(20));
                if Arc::strong_count(&flag) == 1 {
                    return;
                }
                let asked = parent.as_ref().is_some_and(|f| f.load(Relaxed));
                let spent = cpu_seconds(clock).is_none_or(|c| c - start >= seconds);
                if asked || spent {
                    flag.store(true, Relaxed);
                    return;
                }
            }
        });
        Control {
            stop: Some(own),
            ..wall
        }
    }

    /// The SAT solvers' view of the limits.
    pub fn sat_stop(&self) -> Stop {
        Stop {
            deadline: self.deadline,
            flag: self.stop.clone(),
            memory: self.memory.clone(),
        }
    }
}

/// How far a phase's budget in CPU time (`Control::within_cpu`) may stretch on the
/// wall clock when its thread gets less than a core.
pub const CPU_STRETCH: f64 = 2.5;

/// How a run ended, beside its reports.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The limit that stopped the run, if any.
    pub limit: Option<Limit>,
    /// The checked certificate of the sizes proved, for `--certificate`.
    pub certificate: Option<Arc<Certificate>>,
    /// Every checked certificate of the run when it has several (the safety
    /// properties', then one per `ltl` property, each about its liveness product).
    pub certificates: Vec<Arc<Certificate>>,
    /// The sizes were answered as one aggregate (the report draws them as rows of it).
    pub aggregate: bool,
    /// The sizes of a SAT run were checked width by width, each on its own formula.
    pub per_width: bool,
    /// Notes for the report's end (e.g. which engine answered which sizes).
    pub notes: Vec<String>,
}

/// How an engine presents itself in reports: the words and columns a renderer uses, so
/// that no renderer needs to know the engines by name.
#[derive(Clone, Copy, Debug)]
pub struct Presentation {
    /// How the engine uses symmetry, in the header's words ("reduction",
    /// "lex-leader symmetry breaking", "symmetric lemma orbits").
    pub symmetry: &'static str,
    /// Whether (and by which part, e.g. " (explicit search)") interchangeable data
    /// values are permuted too: `None` for an engine that does not.
    pub data_symmetry: Option<&'static str>,
    /// The header of the table's count column ("states", "clauses", "lemmas").
    pub count: &'static str,
    /// The sizes are answered one at a time, so a limit stops the run at one size
    /// (otherwise the run covers all sizes at once).
    pub size_by_size: bool,
    /// The engine stores states up to their dead cells (`model::dead`), announced in
    /// the header.
    pub dead_cells: bool,
    /// The engine renumbers ints by their rank (`model::ints::ranked`).
    pub ranks_ints: bool,
    /// For a family that is not fully symmetric: the engine's lemmas stand for their
    /// orbits under the order-preserving renamings, and what the header adds about the
    /// reductions it does not use then (e.g. ", reduction (explicit) off").
    pub lemma_orbits: Option<&'static str>,
}

impl Presentation {
    /// An engine that uses symmetry as `symmetry` says and counts `count`, answering
    /// the sizes together, with no dead cells, ranked ints or lemma orbits.
    pub const fn new(symmetry: &'static str, count: &'static str) -> Presentation {
        Presentation {
            symmetry,
            data_symmetry: None,
            count,
            size_by_size: false,
            dead_cells: false,
            ranks_ints: false,
            lemma_orbits: None,
        }
    }
}

/// An engine: safety, and liveness for those that say so (`liveness`).
pub trait Engine {
    /// One line describing the engine and its settings for this problem.
    fn describe(&self, p: &Problem) -> String;
    /// The name used in JSON (`explicit`, `sat`, `ic3`, `kind`, `auto`).
    fn name(&self) -> &'static str;
    /// The words and columns of its reports on this problem.
    fn presentation(&self, p: &Problem) -> Presentation;
    /// Whether the engine can go on to try a proof for every n (`portfolio::every`)
    /// after its sizes hold.
    fn every_n(&self) -> bool {
        false
    }
    /// What the engine answers; it is never given what it does not.
    fn answers(&self) -> Answers {
        Answers::SAFETY
    }
    /// The `unsafe` properties of `p` (its `ltls` set aside), each size's report handed
    /// to `report` once final. An engine that answers them implements this.
    fn check_safety(&self, p: &Problem, ctl: &Control, report: Report) -> Checked {
        let _ = (p, ctl, report);
        Err(format!(
            "the {0} engine answers `ltl` properties only (`nfold live --engine {0}`)",
            self.name()
        ))
    }
    /// `ltl` property `k` of `p` at every size. An engine that answers `ltl`
    /// properties implements this.
    fn check_ltl(&self, p: &Problem, ctl: &Control, k: usize) -> Result<LtlAnswer, String> {
        let _ = (p, ctl, k);
        Err(format!(
            "the {} engine does not check `ltl` properties",
            self.name()
        ))
    }
    /// Check the problem, handing each size's report to `report` once final: by
    /// default the `unsafe` properties, then each `ltl` property (`safety_then_ltl`).
    fn check(&self, p: &Problem, ctl: &Control, report: Report) -> Checked {
        safety_then_ltl(p, report, &mut |r| self.check_safety(p, ctl, r), &mut |k| {
            self.check_ltl(p, ctl, k)
        })
    }
}

/// What an engine answers: `unsafe` (and `invariant`) properties, `ltl` properties.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answers {
    pub safety: bool,
    pub ltl: bool,
}

impl Answers {
    pub const SAFETY: Answers = Answers {
        safety: true,
        ltl: false,
    };
    pub const BOTH: Answers = Answers {
        safety: true,
        ltl: true,
    };
    pub const LTL: Answers = Answers {
        safety: false,
        ltl: true,
    };
}

/// Whether the instance of size n has an initial state (by the interpreter; an init
/// range error counts as one, since it is reported as a violation).
pub fn has_initial_state(model: &Model, n: usize) -> bool {
    let inst = Instance::new(model, n);
    let mut any = false;
    let r = for_each_initial(&inst, &mut |_| {
        any = true;
        false
    });
    any || r.is_err()
}

/// Run an engine, making every non-violated verdict of a size without initial state
/// `vacuous` (an engine would otherwise report a proof or a bound about nothing), and
/// every proof or bound of a size where a run leaves the int window `within ints`
/// (`verdict::qualify_by_int_window`).
pub fn run(engine: &dyn Engine, p: &Problem, ctl: &Control, report: Report) -> Checked {
    let answered: std::cell::RefCell<Vec<(usize, PropId)>> = Default::default();
    let mut finish = |mut r: SizeReport| {
        if !has_initial_state(p.model, r.size) {
            for x in &mut r.results {
                if x.verdict.trace().is_none() {
                    x.verdict = Verdict::Vacuous;
                }
            }
        }
        let window = p.model.int_window.as_ref().map(|w| (w.lo, w.hi));
        crate::verdict::qualify_by_int_window(&mut r, window);
        answered
            .borrow_mut()
            .extend(r.results.iter().map(|x| (r.size, x.prop)));
        report(r)
    };
    let out = engine.check(p, ctl, &mut finish)?;
    // Every (property, size) asked gets a row: one the engine left out is `unknown`.
    for n in p.sizes() {
        let asked = p
            .props
            .iter()
            .map(|&u| (PropId::Unsafe(u), p.model.unsafes[u].name.clone()))
            .chain(
                p.ltls
                    .iter()
                    .map(|&k| (PropId::Ltl(k), p.model.ltls[k].name.clone())),
            );
        let missing: Vec<PropResult> = asked
            .filter(|(id, _)| !answered.borrow().contains(&(n, *id)))
            .map(|(prop, name)| PropResult {
                size: n,
                prop,
                name,
                verdict: Verdict::Unknown,
            })
            .collect();
        if !missing.is_empty() {
            let ran = answered.borrow().iter().any(|a| a.0 == n);
            finish(SizeReport {
                size: n,
                engine: engine.name(),
                results: missing,
                not_run: !ran,
                ..SizeReport::default()
            });
        }
    }
    Ok(out)
}

/// The per-size answer of one `ltl` property, and how its run ended.
pub type LtlAnswer = (Vec<SizeReport>, Outcome);

/// Where an engine hands each size's report, once final.
pub type Report<'a> = &'a mut dyn FnMut(SizeReport);

/// What a check gives: how the run ended, or why the engine could not run.
pub type Checked = Result<Outcome, String>;

/// What the check of one `ltl` property gives.
pub type LtlChecked = Result<LtlAnswer, String>;

/// An engine's safety check, handing each size's report to the callback.
pub type SafetyCheck<'a> = &'a mut dyn FnMut(&mut dyn FnMut(SizeReport)) -> Checked;

/// The usual shape of an engine that answers `ltl` properties through liveness
/// products: its safety check of the `unsafe` properties (`safety`), then each `ltl`
/// property in turn (`ltl`) until a limit stops the run; the rows of a size merged
/// into one report (`live::merge`), the outcomes into one (limits, notes and every
/// certificate kept).
pub fn safety_then_ltl(
    p: &Problem,
    report: Report,
    safety: SafetyCheck,
    ltl: &mut dyn FnMut(usize) -> Result<LtlAnswer, String>,
) -> Checked {
    if p.ltls.is_empty() {
        return safety(report);
    }
    let mut all = Vec::new();
    let mut out = Outcome::default();
    if !p.props.is_empty() {
        out = safety(&mut |r| all.push(r))?;
        out.certificates.extend(out.certificate.clone());
    }
    for &k in &p.ltls {
        if out.limit.is_some() {
            break;
        }
        let (reports, o) = ltl(k)?;
        all = crate::live::merge(all, reports);
        out.limit = out.limit.or(o.limit);
        out.aggregate |= o.aggregate;
        out.per_width |= o.per_width;
        for n in o.notes {
            if !out.notes.contains(&n) {
                out.notes.push(n);
            }
        }
        out.certificates.extend(o.certificates);
        out.certificate = out.certificate.or(o.certificate);
    }
    for r in all {
        report(r);
    }
    Ok(out)
}
