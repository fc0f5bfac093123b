//! The `ltl` route's IC3 phase with the deeper bounded lasso search beside it, at the
//! sizes where a range error was met (`route::Phase::ranged_beside`). There the explicit
//! search beside the SAT route (`portfolio::beside`) answers nothing, and the deeper
//! search, which runs there to its depth, would come only after IC3's budget: it runs
//! instead on the second core from IC3's start, size by size from the smallest. IC3
//! takes those sizes one at a time, from the smallest open (IC3 answers an aggregate
//! only when it ends, and its sizes may be far apart in cost: `CHAIN_RANGED` in
//! tests/live_auto.rs, whose size 1 IC3 proves in 0.04 s alone, after 3.6 s on the
//! aggregate 1..4, whose size 4 it does not answer within 60 s; the search finds the
//! lassos at 2..4 in 2.6 s). A lasso found at the size IC3 is on stops its run; once
//! the search has found one, IC3 takes only the sizes the search went past without one
//! (it waits for the search; both on the same size spend two cores on one answer),
//! until IC3 proves a size again or the search ends. A size IC3 ends on without an
//! answer is not given to it again. IC3's budget counts its CPU time over all its runs;
//! the search is stopped at a size once IC3 answers it, and everywhere once every size
//! it was given is answered; else it goes on to its depth after IC3.

use super::auto::AutoEngine;
use super::beside::cores;
use super::ledger::{Book, answers};
use super::ltl_route::{Tally, lassos_into};
use super::route::Phase;
use super::walk::Walk;
use crate::engine::{Control, Problem};
use crate::limits::{cpu_seconds, thread_cpu_clock};
use crate::verdict::{PropId, SizeReport};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the search beside IC3 shares with it: the sizes of the IC3 run under way and its
/// stop flag (set when the search finds a lasso at one of them; it hands its reports
/// over first, under the same lock), and the search's own state.
struct Shared {
    /// The sizes the search runs at.
    at: Vec<usize>,
    ic3: Mutex<(Vec<usize>, Arc<AtomicBool>)>,
    search: Mutex<Search>,
    /// IC3's phase has ended: the watcher of the user's interrupt ends too.
    ended: AtomicBool,
}

/// The search's state: the sizes answered so far (it skips them, and stops at the one
/// it is on), the size it is on with the stop flag of its run there, and whether it
/// was stopped (IC3 answered every size, or the user's limit).
struct Search {
    answered: Vec<usize>,
    on: usize,
    flag: Arc<AtomicBool>,
    stopped: bool,
}

impl Shared {
    fn new(at: &[usize]) -> Shared {
        let fresh = || Arc::new(AtomicBool::new(false));
        Shared {
            at: at.to_vec(),
            ic3: Mutex::new((Vec::new(), fresh())),
            search: Mutex::new(Search {
                answered: Vec::new(),
                on: 0,
                flag: fresh(),
                stopped: false,
            }),
            ended: AtomicBool::new(false),
        }
    }

    /// Stops the search where it is.
    fn stop_search(&self) {
        let mut s = self.search.lock().unwrap();
        s.stopped = true;
        s.flag.store(true, Relaxed);
    }

    fn stopped(&self) -> bool {
        self.search.lock().unwrap().stopped
    }

    /// The sizes `sizes` answered: the search skips them, or stops its run there.
    fn answered(&self, sizes: &[usize]) {
        let mut s = self.search.lock().unwrap();
        s.answered.extend(sizes);
        if s.answered.contains(&s.on) {
            s.flag.store(true, Relaxed);
        }
    }

    /// The stop flag of the search's run at size `n` (`None`: the search was stopped,
    /// or `n` is answered).
    fn start(&self, n: usize) -> Option<Arc<AtomicBool>> {
        let mut s = self.search.lock().unwrap();
        if s.stopped || s.answered.contains(&n) {
            return None;
        }
        s.on = n;
        s.flag = Arc::new(AtomicBool::new(false));
        Some(s.flag.clone())
    }
}

/// One size the search beside IC3 is done with: its reports, whether they hold a lasso,
/// and whether it went to its depth there without one.
struct Done {
    size: usize,
    reports: Vec<SizeReport>,
    lasso: bool,
    cleared: bool,
}

/// Ends the search and the watcher when dropped (at the end of IC3's phase, or when a
/// panic unwinds it).
struct Ending<'a>(&'a Shared);

impl Drop for Ending<'_> {
    fn drop(&mut self) {
        self.0.stop_search();
        self.0.ended.store(true, Relaxed);
    }
}

/// The seconds of CPU time the calling thread has taken since the first call (the wall
/// clock where the thread's clock cannot be read).
fn cpu_meter() -> impl Fn() -> f64 {
    let clock = thread_cpu_clock();
    let (c0, w0) = (clock.and_then(cpu_seconds), Instant::now());
    move || match (c0, clock.and_then(cpu_seconds)) {
        (Some(a), Some(b)) => b - a,
        _ => w0.elapsed().as_secs_f64(),
    }
}

impl AutoEngine {
    /// The open sizes where phase `deep` runs beside IC3: where a range error was met
    /// and it has time, on two cores or more (none otherwise: it runs after IC3).
    pub(super) fn beside_at(
        &self,
        deep: &Phase,
        open: &[usize],
        ctl: &Control,
        l: &Book,
    ) -> Vec<usize> {
        if cores(ctl) < 2 || deep.budget_at(true) == Some(0.0) {
            return Vec::new();
        }
        open.iter().copied().filter(|&n| l.ranged(n)).collect()
    }

    /// IC3 on the open sizes of `one`'s `ltl` property, within its budget of CPU time,
    /// with the bounded lasso search of phase `deep` beside it at the sizes `at`, one
    /// size after another (within `deep`'s budget there): IC3's tally, and the
    /// search's depth reached and tally.
    pub(super) fn ic3_beside(
        &self,
        w: &Walk,
        one: &Problem,
        deep: &Phase,
        at: &[usize],
        actl: &Control,
        l: &mut Book,
    ) -> Result<(Tally, (Option<usize>, Tally)), String> {
        let shared = Shared::new(at);
        let (tx, rx) = channel::<Done>();
        let k = one.ltls[0];
        let mut lassos = Tally {
            sizes: at.to_vec(),
            ..Tally::default()
        };
        std::thread::scope(|s| {
            let sh = &shared;
            // A panic here stops the threads below, which the scope waits for.
            let _ending = Ending(sh);
            let search = s.spawn(move || self.search_beside(one, deep, actl, sh, tx));
            s.spawn(move || watch(actl, sh));
            let out = self.ic3_runs(w, one, k, actl, l, sh, &rx, &mut lassos);
            // The search goes on to its depth where nothing answered, unless stopped.
            let left = at
                .iter()
                .any(|n| l.open_sizes_of(PropId::Ltl(k)).contains(n));
            if out.is_err() || !left || actl.users_limit().is_some() {
                sh.stop_search();
            }
            let searched = search
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e));
            sh.ended.store(true, Relaxed);
            let rest = rx.try_iter().flat_map(|d| d.reports).collect();
            let reached = lassos_into(w, k, rest, l, &mut lassos);
            let (ic3, before) = out?;
            searched?;
            Ok((ic3, (reached.max(before), lassos)))
        })
    }

    /// The bounded lasso search of phase `deep` at the sizes `sh.at` of `one`'s `ltl`
    /// property, one after another, each within `deep`'s budget there, under the
    /// user's limits of `actl`: each size's reports handed over (`tx`), then IC3's run
    /// stopped if they hold a lasso.
    fn search_beside(
        &self,
        one: &Problem,
        deep: &Phase,
        actl: &Control,
        sh: &Shared,
        tx: Sender<Done>,
    ) -> Result<(), String> {
        let k = one.ltls[0];
        for &n in &sh.at {
            if sh.stopped() || actl.users_limit().is_some() {
                break;
            }
            let Some(flag) = sh.start(n) else {
                continue;
            };
            let sctl = Control {
                stop: Some(flag.clone()),
                ..actl.clone()
            };
            let part = Problem {
                min: n,
                max: n,
                ..one.clone()
            };
            let reports = self.lasso_reports(&part, deep, deep.ranged_budget, &sctl)?;
            let lasso = reports.iter().any(|r| {
                let row = r.results.iter().find(|x| x.prop == PropId::Ltl(k));
                row.is_some_and(|x| answers(&x.verdict))
            });
            let cleared = !lasso && !flag.load(Relaxed);
            let ic3 = sh.ic3.lock().unwrap();
            let _ = tx.send(Done {
                size: n,
                reports,
                lasso,
                cleared,
            });
            if lasso && ic3.0.contains(&n) {
                ic3.1.store(true, Relaxed);
            }
        }
        Ok(())
    }

    /// IC3's runs beside the search (`sh`, its sizes done through `rx`, taken into `l`
    /// and `lassos` between the runs), on the sizes of property `k` still open as
    /// `Pace` picks them, until its budget of CPU time is spent or no size is left for
    /// it. IC3's tally, and the deepest bound the search reached so far.
    #[allow(clippy::too_many_arguments)]
    fn ic3_runs(
        &self,
        w: &Walk,
        one: &Problem,
        k: usize,
        actl: &Control,
        l: &mut Book,
        sh: &Shared,
        rx: &Receiver<Done>,
        lassos: &mut Tally,
    ) -> Result<(Tally, Option<usize>), String> {
        let used = cpu_meter();
        let mut tally = Tally {
            sizes: l.open_sizes_of(PropId::Ltl(k)),
            ..Tally::default()
        };
        let mut pace = Pace::default();
        let mut reached = None;
        let mut take = |d: Done, l: &mut Book, pace: &mut Pace| {
            pace.heard(&d);
            reached = reached.max(lassos_into(w, k, d.reports, l, lassos));
        };
        loop {
            let left = self.budgets.live_ic3 - used();
            if left <= 0.0 || actl.users_limit().is_some() {
                break;
            }
            // The sizes done beside, and the next run, under the lock the search
            // reports a lasso under.
            let run = {
                let mut slot = sh.ic3.lock().unwrap();
                for d in rx.try_iter() {
                    take(d, l, &mut pace);
                }
                let mut open = l.open_sizes_of(PropId::Ltl(k));
                open.retain(|n| !pace.tried.contains(n));
                if open.is_empty() {
                    break;
                }
                pace.next(&open, &sh.at).map(|next| {
                    *slot = (next.clone(), Arc::new(AtomicBool::new(false)));
                    (next, slot.1.clone())
                })
            };
            let Some((next, flag)) = run else {
                // Wait for the search's next size.
                match rx.recv_timeout(Duration::from_millis(20)) {
                    Ok(d) => take(d, l, &mut pace),
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => pace.ended = true,
                }
                continue;
            };
            let inner = Control {
                stop: Some(flag.clone()),
                ..actl.clone()
            }
            .within_cpu(left);
            let t = self.live_ic3(w, one, &next, &inner, l)?;
            sh.answered(&[&t.proved[..], &t.lassos[..]].concat());
            pace.lead |= !t.proved.is_empty();
            // Ended by itself (not by a lasso found beside it): its budget, or every
            // size of the run answered or given up.
            if !flag.load(Relaxed) {
                pace.tried.extend(next);
            }
            tally.proved.extend(t.proved);
            tally.lassos.extend(t.lassos);
        }
        Ok((tally, reached))
    }
}

/// Which sizes IC3 takes next beside the search: the smallest open (`lead`, from the
/// start and after IC3 proves a size), or, after the search found a lasso, only those
/// the search went past without one (`cleared`) or does not search, until the search
/// has `ended`; never the sizes IC3 ended on without an answer (`tried`).
struct Pace {
    lead: bool,
    cleared: Vec<usize>,
    ended: bool,
    tried: Vec<usize>,
}

impl Default for Pace {
    fn default() -> Pace {
        Pace {
            lead: true,
            cleared: Vec::new(),
            ended: false,
            tried: Vec::new(),
        }
    }
}

impl Pace {
    /// A size the search is done with.
    fn heard(&mut self, d: &Done) {
        if d.lasso {
            self.lead = false;
        }
        if d.cleared {
            self.cleared.push(d.size);
        }
    }

    /// IC3's next run among the open sizes `open` (the search runs at `at`), or none
    /// for now.
    fn next(&self, open: &[usize], at: &[usize]) -> Option<Vec<usize>> {
        let free =
            |n: &usize| self.lead || self.ended || !at.contains(n) || self.cleared.contains(n);
        let i = open.iter().position(free)?;
        Some(next_run(&open[i..], at))
    }
}

/// IC3's next run among the open sizes `open`: the smallest alone when the search runs
/// beside it there (`at`), else the run of consecutive sizes it starts where the search
/// does not.
fn next_run(open: &[usize], at: &[usize]) -> Vec<usize> {
    let first = open[0];
    if at.contains(&first) {
        return vec![first];
    }
    let mut run = vec![first];
    for &n in &open[1..] {
        if n != run[run.len() - 1] + 1 || at.contains(&n) {
            break;
        }
        run.push(n);
    }
    run
}

/// Passes the interrupt of `actl` (the race, Ctrl-C) on to the search and to the IC3 run
/// under way, until IC3's phase has ended.
fn watch(actl: &Control, sh: &Shared) {
    let asked = || actl.stop.as_ref().is_some_and(|f| f.load(Relaxed));
    while !sh.ended.load(Relaxed) {
        if asked() {
            sh.stop_search();
            sh.ic3.lock().unwrap().1.store(true, Relaxed);
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}
