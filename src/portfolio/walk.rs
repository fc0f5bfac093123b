//! `auto`'s one loop: a route's table (`portfolio::route`) run phase by phase over one
//! ledger of open (property, size) pairs (`portfolio::ledger`), for safety and for
//! `ltl` properties alike.
//! - The phases per size come first (the explicit search while it is quick).
//! - The aggregate phases then take the sizes left, while on a second core the explicit
//!   search of the same sizes runs beside them (`portfolio::beside`). A run of
//!   consecutive phases that go property by property (the `ltl` route's bounded lasso
//!   search, BDD fixpoint and IC3) runs them for one property after another.
//! - The last phase, the explicit search again, takes what they left open for their own
//!   budgets: from the search beside them where it answered, else searched now.
//!
//! After every phase the user's limit is read; once it is reached no phase starts, and
//! the ledger gives every pair still open its row. The engine `auto` is this walk: its
//! contract (`Engine for AutoEngine`) is at the end.

use super::auto::{AutoEngine, Searched};
use super::beside::Beside;
use super::growth::{Growth, Refusal};
use super::ledger::{Book, Ledger, Pair};
use super::route::{self, Phase, Scope, Step};
use crate::cert::sizes_phrase;
use crate::engine::{Checked, Control, Engine, Outcome, Presentation, Problem, Report};
use crate::ltl::LtlProperty;
use crate::trace::Trace;
use crate::verdict::{Kind, PropId, SizeReport};
use std::cell::RefCell;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// The bounded pass's violations (shortest, replayed) and the depth it reached, handed
/// to the IC3 phase that concludes them with its own findings.
pub(super) struct Bounded {
    pub traces: Vec<(PropId, Trace)>,
    pub depth: Option<usize>,
    pub began: Instant,
}

impl Bounded {
    /// No bounded pass: nothing refuted, no depth.
    fn none() -> Bounded {
        Bounded {
            traces: Vec::new(),
            depth: None,
            began: Instant::now(),
        }
    }
}

/// Which properties a walk answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Track {
    /// The `unsafe` properties and range errors, all at once in every phase.
    Safety,
    /// The `ltl` properties.
    Ltl,
}

/// One walk's problem and what its searches need.
pub(super) struct Walk<'a, 'm> {
    pub track: Track,
    pub p: &'a Problem<'m>,
    /// `ltl`: the properties, prepared for the explicit search.
    pub live: Vec<LtlProperty>,
    /// `ltl`: another search of these sizes answers the range errors, so that their
    /// rows are left to it.
    pub range_known: bool,
}

impl Walk<'_, '_> {
    /// The pairs the walk answers at every size.
    fn props(&self) -> Vec<PropId> {
        match self.track {
            Track::Safety => self.p.props.iter().map(|&u| PropId::Unsafe(u)).collect(),
            Track::Ltl => self.p.ltls.iter().map(|&k| PropId::Ltl(k)).collect(),
        }
    }
}

/// The aggregate phases of one walk and what they run under: `actl`, the user's limits
/// `ctl` and the race; `from_small`, IC3 from the smallest size (every size answered so
/// far holds).
#[derive(Clone, Copy)]
pub(super) struct Apart<'a, 'w, 'm> {
    pub w: &'a Walk<'w, 'm>,
    pub phases: &'a [Phase],
    pub actl: &'a Control,
    pub ctl: &'a Control,
    pub from_small: bool,
}

/// Whether a step goes property by property.
fn per_property(s: Step) -> bool {
    matches!(s, Step::Lassos | Step::Bdd | Step::LiveIc3)
}

/// One size the search beside the aggregate phases answered, handed over as it
/// answers it: its report and its notes.
pub(super) type Answer = (SizeReport, Vec<String>);

/// What the search beside the aggregate phases did (`AutoEngine::ahead`); its answers
/// were handed over as it had them.
#[derive(Default)]
pub(super) struct Ahead {
    /// The sizes it answered, in order.
    pub done: Vec<usize>,
    /// The report of the size it stopped at, as it stands.
    pub stopped: Option<SizeReport>,
    /// The size it did not start, predicted to exceed a budget.
    pub refused: Option<(usize, Refusal)>,
}

/// The search beside the aggregate phases.
type Aside<'s> = Beside<'s, Ahead, Answer>;

/// An answer of the search beside the aggregate phases into the ledger, when its size
/// is still open (`taken` records it); else dropped.
fn take_answer(l: &mut Ledger, (r, notes): Answer, taken: &mut Vec<usize>) {
    let n = r.size;
    if l.open_at(n).is_empty() {
        return;
    }
    l.notes.extend(notes);
    l.answer(r);
    taken.push(n);
}

impl AutoEngine {
    /// Runs `table` for `w` under the user's limits `ctl`, handing each size's report
    /// on in order.
    pub(super) fn walk(&self, w: &Walk, table: &[Phase], ctl: &Control, report: Report) -> Checked {
        let mut l = Ledger::new(w.p, &w.props(), report);
        let split = table.iter().position(|ph| ph.scope != Scope::EachSize);
        let (each, rest) = table.split_at(split.unwrap_or(table.len()));
        for ph in each.iter().filter(|ph| ph.runs()) {
            if l.limit.is_some() || l.done() {
                break;
            }
            self.each_size(w, ph, ctl, &mut l);
        }
        let mut aggregate = false;
        if l.limit.is_none() && !l.done() {
            let sizes = l.open_sizes();
            aggregate = sizes.len() > 1;
            self.aggregate(w, rest, ctl, &mut l, &sizes)?;
        }
        let closed = l.close(w.p);
        let mut out = Outcome {
            limit: closed.limit,
            aggregate,
            notes: closed.notes,
            ..Outcome::default()
        };
        match w.track {
            Track::Safety => out.certificate = closed.certificates.into_iter().next(),
            Track::Ltl => out.certificates = closed.certificates,
        }
        Ok(out)
    }

    /// A phase per size (`explicit` under the phase's budget), on the sizes still open
    /// from the smallest.
    fn each_size(&self, w: &Walk, ph: &Phase, ctl: &Control, l: &mut Ledger) {
        let sizes = l.open_sizes();
        let run = self.search_into(w, ctl, l, &sizes, ph.budget, None);
        l.limit = run.users;
        if ph.step == Step::RankedInts {
            let window = super::auto::not_ranked(&l.notes);
            let ranked: Vec<usize> = run
                .done
                .iter()
                .copied()
                .filter(|n| !window.contains(n))
                .collect();
            // Sizes searched over the window instead have their own note.
            if !ranked.is_empty() || window.is_empty() {
                l.notes.push(self.ranked_note(w.p, &ranked));
            }
        } else if !run.done.is_empty() {
            l.notes.push(format!(
                "{} answered by exhaustive explicit search",
                sizes_phrase(&run.done)
            ));
        }
    }

    /// The aggregate phases on `sizes`, the explicit search beside them (its answers
    /// taken as it has them, `apart`), and the last phase for what they left open.
    fn aggregate(
        &self,
        w: &Walk,
        phases: &[Phase],
        ctl: &Control,
        l: &mut Ledger,
        sizes: &[usize],
    ) -> Result<(), String> {
        let growth = l.growth.clone();
        let from_small = !l.any_violated();
        std::thread::scope(|scope| {
            let beside = Beside::start(scope, ctl, sizes, self.race, |sizes, bctl, hand| {
                let ahead = self.ahead(w, bctl, sizes, growth, hand);
                let all = ahead.done.len() == sizes.len();
                (ahead, all)
            });
            let actl = beside
                .as_ref()
                .map_or_else(|| ctl.clone(), |b| b.racing(ctl));
            let began = Instant::now();
            let mut taken = Vec::new();
            let run = Apart {
                w,
                phases,
                actl: &actl,
                ctl,
                from_small,
            };
            self.apart(&run, l, beside.as_ref(), &mut taken)?;
            let raced = (actl.users_limit().is_some()
                && ctl.users_limit().is_none()
                && beside.as_ref().is_some_and(|b| b.complete()))
            .then(|| began.elapsed().as_secs_f64());
            if let (Some(s), Track::Ltl) = (raced, w.track) {
                l.notes.push(format!(
                    "the SAT route stopped after {s:.1}s, when the explicit search beside it had answered every size"
                ));
            }
            l.limit = ctl.users_limit();
            // The search's answers as it has them; it is stopped once nothing is open.
            let done = l.done();
            let ahead = beside.map(|b| {
                b.finish(ctl, done, &mut |u| {
                    take_answer(l, u, &mut taken);
                    l.done()
                })
            });
            if phases.iter().any(|ph| ph.step == Step::Again) {
                self.again(w, ctl, l, ahead, raced, taken);
            }
            Ok(())
        })
    }

    /// The aggregate phases (`run`) on a book of their own (`Book::detached`), replayed
    /// into the ledger when they end. When they race the search `beside` them, they run
    /// on a thread of their own while this one takes the search's answers into the
    /// ledger as it has them (`taken`), so that each size is handed on, and checked by
    /// whoever reads the reports (the reduction, `portfolio::reduced`), as soon as it is
    /// answered; in order (no race), those answers wait for the phases.
    fn apart(
        &self,
        run: &Apart,
        l: &mut Ledger,
        beside: Option<&Aside>,
        taken: &mut Vec<usize>,
    ) -> Result<(), String> {
        let mut book = l.detached();
        let Some(b) = beside.filter(|_| self.race) else {
            self.aggregate_phases(run, &mut book)?;
            l.replay(book);
            return Ok(());
        };
        let book = std::thread::scope(|s| {
            let phases = s.spawn(move || self.aggregate_phases(run, &mut book).map(|_| book));
            loop {
                let finished = phases.is_finished();
                for u in b.poll(Duration::from_millis(20)) {
                    take_answer(l, u, taken);
                }
                if finished {
                    break;
                }
            }
            match phases.join() {
                Ok(r) => r,
                Err(e) => std::panic::resume_unwind(e),
            }
        })?;
        l.replay(book);
        Ok(())
    }

    /// The aggregate phases in order under `actl` (the user's limits, and the race),
    /// each run of phases that go property by property run for one property after
    /// another.
    fn aggregate_phases(&self, run: &Apart, l: &mut Book) -> Result<(), String> {
        let Apart {
            w,
            phases,
            actl,
            ctl,
            from_small,
        } = *run;
        let live: Vec<&Phase> = phases
            .iter()
            .filter(|ph| ph.scope == Scope::Aggregate && ph.runs())
            .collect();
        let mut i = 0;
        let mut stash = None;
        while i < live.len() {
            if actl.users_limit().is_some() || l.done() {
                break;
            }
            if !per_property(live[i].step) {
                self.whole(w, live[i], actl, ctl, l, from_small, &mut stash)?;
                i += 1;
                continue;
            }
            let block: Vec<&Phase> = live[i..]
                .iter()
                .take_while(|ph| per_property(ph.step))
                .copied()
                .collect();
            i += block.len();
            self.by_property(w, &block, actl, l)?;
        }
        // A bounded pass no IC3 phase concluded is concluded alone.
        if let Some(s) = stash {
            self.conclude(w, None, s, actl, ctl, l)?;
        }
        Ok(())
    }

    /// A phase on the aggregate of the open sizes for all properties at once: the
    /// bounded pass (its findings kept in `stash` for IC3), IC3 (from the smallest size
    /// when the sizes answered so far hold, `from_small`), the ranking proofs.
    #[allow(clippy::too_many_arguments)]
    fn whole(
        &self,
        w: &Walk,
        ph: &Phase,
        actl: &Control,
        ctl: &Control,
        l: &mut Book,
        from_small: bool,
        stash: &mut Option<Bounded>,
    ) -> Result<(), String> {
        let rest = l.open_range(w.p);
        match ph.step {
            Step::Bounded => *stash = Some(self.bounded(&rest, actl, ctl)?),
            Step::Ic3 => {
                let b = stash.take().unwrap_or_else(Bounded::none);
                let from = if from_small { w.p.min } else { rest.min };
                self.conclude(w, Some(from), b, actl, ctl, l)?;
            }
            Step::Rank => self.ranked(w, actl, l)?,
            _ => {}
        }
        Ok(())
    }

    /// The explicit search of `sizes` without a time budget, beside the aggregate
    /// phases: each size answered handed over (`hand`) with its notes, in order.
    fn ahead(
        &self,
        w: &Walk,
        ctl: &Control,
        sizes: &[usize],
        mut growth: Growth,
        hand: &Sender<Answer>,
    ) -> Ahead {
        let notes = RefCell::new(Vec::new());
        let mut stopped = None;
        let run = {
            let mut search = |n: usize, d: Option<Instant>| {
                self.search_one(w, ctl, n, d, None, &mut notes.borrow_mut())
            };
            let mut take = |r: SizeReport| {
                let ns = std::mem::take(&mut *notes.borrow_mut());
                let open = r.limit.is_some()
                    || r.results.iter().any(|x| x.verdict.kind() == Kind::Unknown);
                if open {
                    stopped = Some(r);
                } else {
                    // The run's thread may have ended (an error): nothing to hand to.
                    let _ = hand.send((r, ns));
                }
            };
            self.explicit(sizes, ctl, None, &mut growth, &mut search, &mut take)
        };
        Ahead {
            done: run.done,
            stopped,
            refused: run.refused,
        }
    }

    /// The last phase: every size still open, in order, searched now without a time
    /// budget, unless the search beside the aggregate phases ran (its answers are in
    /// the ledger, `taken`): then it ends where that search stopped; stops at the
    /// user's limit or at a size predicted to exceed a budget. `raced`: the seconds
    /// after which the search beside the aggregate phases stopped them by answering
    /// every size first, if it did (for the notes).
    fn again(
        &self,
        w: &Walk,
        ctl: &Control,
        l: &mut Ledger,
        mut ahead: Option<Ahead>,
        raced: Option<f64>,
        taken: Vec<usize>,
    ) {
        let mut searched = taken.clone();
        // Why the sizes from the one the phase stopped at on are left open.
        let mut stop: Option<String> = l.limit.map(|x| x.text().to_string());
        let mut refused = None;
        let open = l.open_sizes();
        for &n in &open {
            if stop.is_some() {
                break;
            }
            let pairs = l.open_at(n).to_vec();
            if let Some(a) = ahead.as_mut() {
                // Answered by the search beside, whose rows left pairs open.
                if a.done.contains(&n) {
                    continue;
                }
                // The search beside stopped here, at the user's limit or before a size
                // predicted to exceed a budget: searching it again would too.
                if let Some(r) = a.stopped.take_if(|r| r.size == n) {
                    l.settle(r);
                }
                l.limit = ctl.users_limit();
                let why = match (l.limit, a.refused) {
                    (Some(x), _) => x.text().to_string(),
                    (None, Some((m, why))) if m == n => {
                        refused = a.refused;
                        format!("explicit search not started: {}", why.text())
                    }
                    (None, _) => "explicit search stopped".to_string(),
                };
                stop = Some(why);
                break;
            }
            let run = self.search_into(w, ctl, l, &[n], None, Some(&pairs));
            if run.done.contains(&n) {
                searched.push(n);
                continue;
            }
            if let Some(x) = run.users {
                l.limit = Some(x);
                stop = Some(x.text().to_string());
            } else if let Some((_, why)) = run.refused {
                refused = run.refused;
                stop = Some(format!("explicit search not started: {}", why.text()));
            }
        }
        let beside = ahead.is_some();
        let left = !open.is_empty();
        let mut open = open;
        open.extend(taken);
        open.sort_unstable();
        let notes = match w.track {
            Track::Safety => self.again_notes(raced, &searched, &open, left, beside, refused),
            Track::Ltl => {
                let why = stop.unwrap_or_default();
                let rest: Vec<(usize, String, Vec<Pair>)> = l
                    .open_sizes()
                    .into_iter()
                    .map(|n| (n, why.clone(), l.open_at(n).to_vec()))
                    .collect();
                close_notes(w.p.model, &searched, beside, &rest)
            }
        };
        l.notes.extend(notes);
    }

    /// The explicit searches of `sizes` in order (`explicit`, within `budget` a size),
    /// of the pairs `open` (every property when `None`), their reports and notes into
    /// the ledger, the growth it keeps fed.
    fn search_into(
        &self,
        w: &Walk,
        ctl: &Control,
        l: &mut Ledger,
        sizes: &[usize],
        budget: Option<f64>,
        open: Option<&[Pair]>,
    ) -> Searched {
        let mut notes = Vec::new();
        let mut growth = std::mem::take(&mut l.growth);
        let run = {
            let mut search =
                |n: usize, d: Option<Instant>| self.search_one(w, ctl, n, d, open, &mut notes);
            let mut take = |r: SizeReport| l.take_search(r);
            self.explicit(sizes, ctl, budget, &mut growth, &mut search, &mut take)
        };
        l.growth = growth;
        l.notes.append(&mut notes);
        run
    }

    /// One size's search by the explicit engine of the walk's track: the open pairs
    /// `open` (every property when `None`), under `deadline`; its notes added to
    /// `notes`.
    pub(super) fn search_one(
        &self,
        w: &Walk,
        ctl: &Control,
        n: usize,
        deadline: Option<Instant>,
        open: Option<&[Pair]>,
        notes: &mut Vec<String>,
    ) -> SizeReport {
        let asked = |k: PropId| open.is_none_or(|o| o.iter().any(|x| x.0 == k));
        match w.track {
            Track::Safety => {
                let props = w.p.props.iter().copied();
                let p = Problem {
                    props: props.filter(|&u| asked(PropId::Unsafe(u))).collect(),
                    ..w.p.clone()
                };
                self.reach(&p, ctl, n, deadline, notes)
            }
            Track::Ltl => {
                let live = w.live.iter().filter(|q| asked(PropId::Ltl(q.prop)));
                let which: Vec<LtlProperty> = live.cloned().collect();
                self.ndfs(w.p, ctl, n, deadline, &which, w.range_known, notes)
            }
        }
    }
}

impl Engine for AutoEngine {
    fn name(&self) -> &'static str {
        "auto"
    }

    fn presentation(&self, _p: &Problem) -> Presentation {
        Presentation {
            data_symmetry: Some(" (explicit search)"),
            dead_cells: self.dead_cells,
            ranks_ints: true,
            lemma_orbits: Some(", reduction (explicit) off"),
            ..Presentation::new(
                "reduction (explicit) and symmetric lemma orbits (IC3)",
                "states/lemmas",
            )
        }
    }

    fn every_n(&self) -> bool {
        true
    }

    fn describe(&self, p: &Problem) -> String {
        let sym = if self.symmetry && p.model.is_symmetric() {
            ", symmetry"
        } else {
            ""
        };
        let search = crate::explicit::engine::live_text(p, 1);
        // Phase 0 (`portfolio::ltl_route`) when every property is a response one.
        let ranks = crate::rank::engine::applies(p.model, &p.ltls);
        let live = format!(
            "{} ({}{sym}); lassos replayed, invariants checked independently",
            route::text(&route::ltl(&self.budgets, &search, ranks)),
            self.solver.name()
        );
        if p.props.is_empty() && !p.ltls.is_empty() {
            return format!("auto: {live}");
        }
        let live = if p.ltls.is_empty() {
            String::new()
        } else {
            format!("; then for `ltl` properties, {live}")
        };
        if self.rank_ints && crate::model::ints::ranked::applies(p.model).is_some() {
            return format!(
                "auto: ints ranked, every size by exhaustive explicit search (sizes it cannot finish: BMC up to depth {} and IC3 over the int window) ({}{sym})",
                self.budgets.bmc_depth,
                self.solver.name(),
            ) + &live;
        }
        format!(
            "auto: {} ({}{sym}); invariants checked independently",
            route::text(&route::safety(&self.budgets, false)),
            self.solver.name(),
        ) + &live
    }

    fn answers(&self) -> crate::engine::Answers {
        crate::engine::Answers::BOTH
    }

    fn check(&self, p: &Problem, ctl: &Control, report: Report) -> Checked {
        let safety = !p.props.is_empty() || p.ltls.is_empty();
        let mut outcome = if safety {
            let only = Problem {
                ltls: Vec::new(),
                ..p.clone()
            };
            let w = Walk {
                track: Track::Safety,
                p: &only,
                live: Vec::new(),
                range_known: false,
            };
            let ranked = self.rank_ints && crate::model::ints::ranked::applies(p.model).is_some();
            self.walk(&w, &route::safety(&self.budgets, ranked), ctl, report)?
        } else {
            Outcome::default()
        };
        if p.ltls.is_empty() || outcome.limit.is_some() {
            return Ok(outcome);
        }
        let live = self.live(p, ctl, safety, report)?;
        outcome.certificates.extend(outcome.certificate.clone());
        outcome.certificates.extend(live.certificates);
        outcome.limit = live.limit;
        outcome.aggregate |= live.aggregate;
        outcome.notes.extend(live.notes);
        Ok(outcome)
    }
}

/// The notes of the last phase: the sizes it answered (`beside`: by the search run beside
/// the SAT route), and each size left open, why, with the bounded search's depths.
pub(super) fn close_notes(
    m: &crate::model::ir::Model,
    searched: &[usize],
    beside: bool,
    left: &[(usize, String, Vec<Pair>)],
) -> Vec<String> {
    let mut notes = Vec::new();
    if !searched.is_empty() {
        notes.push(format!(
            "{} answered by explicit search without a time budget{}",
            sizes_phrase(searched),
            if beside {
                " (run beside the SAT route from its start)"
            } else {
                ""
            }
        ));
    }
    for (n, why, open) in left {
        let bounds: Vec<String> = open
            .iter()
            .filter_map(|&(k, d)| {
                let (PropId::Ltl(k), Some(d)) = (k, d) else {
                    return None;
                };
                Some(format!(
                    "no lasso of at most {d} steps for `{}`",
                    m.ltls[k].name
                ))
            })
            .collect();
        notes.push(format!(
            "size {n} left open: {why}{}",
            if bounds.is_empty() {
                String::new()
            } else {
                format!(" (bounded search: {})", bounds.join(", "))
            }
        ));
    }
    notes
}
