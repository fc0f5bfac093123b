//! Int windows that follow the size. Cubicle's `int` is checked over a finite window
//! (`model::ir::IntWindow`); by default it is derived from the model's literals and is
//! the same at every size, so a counter or a ticket that grows with n leaves it and the
//! answers at that size speak only of the runs within it (`within ints`). When the
//! window was derived (not `--int-range`), the sizes where some run leaves it are run
//! again with a window twice as wide on both sides, until no run leaves it or the window
//! reaches the cap `-M..M` (`--int-max M`).
//!
//! Why an answer in a wider window replaces the narrower one: a size where no run
//! leaves the window has the same reachable states in every wider window (every step
//! from them stores a value inside it), so its answers are the answers of the
//! unbounded model; and where runs still leave the widest window, its answers say so
//! (`within ints LO..HI`), naming the cell that grows. Only when `init` fixes every
//! initial `int` value: a free initial value ranges over the window, so a wider window
//! would be a different set of initial states, and nothing is widened.

use super::{Event, Run};
use crate::engine::{self, Control, Engine, Problem};
use crate::lang;
use crate::model::ir::{Model, VarId};
use crate::trace::Violation;
use crate::verdict::{Kind, PropId, SizeReport};

/// The default of `--int-max`.
pub const DEFAULT_MAX: i64 = 64;

/// What the widening did: the model of the widest window it ran (its reports are in
/// the run's), the notes for the report's end.
pub(super) struct Widened {
    pub model: Option<Model>,
    pub notes: Vec<String>,
}

/// The sizes where a run leaves the window (`int_bound` violated).
fn leaving(reports: &[SizeReport]) -> Vec<usize> {
    reports
        .iter()
        .filter(|r| {
            r.results
                .iter()
                .any(|p| p.prop == PropId::IntBound && p.verdict.kind() == Kind::Violated)
        })
        .map(|r| r.size)
        .collect()
}

/// The cell and value of the store that leaves the window at `size`, from its
/// `int_bound` counterexample (`storing V in `CELL``).
fn growing(reports: &[SizeReport], size: usize) -> Option<(String, String)> {
    let r = reports.iter().find(|r| r.size == size)?;
    r.results.iter().find_map(|p| {
        let t = p.verdict.trace()?;
        let Violation::IntBound { message, .. } = &t.violation else {
            return None;
        };
        let rest = message.split("storing ").nth(1)?;
        let (value, rest) = rest.split_once(" in `")?;
        let (cell, _) = rest.split_once('`')?;
        Some((cell.to_string(), value.to_string()))
    })
}

/// The next window: the sides that a run crossed (`up`, `down`) twice as far from 0
/// (at least one more value), within `-max..max` but never narrower than the current
/// one.
fn wider((lo, hi): (i64, i64), (down, up): (bool, bool), max: i64) -> (i64, i64) {
    let lo2 = if down {
        (2 * lo).min(lo - 1).max(-max).min(lo)
    } else {
        lo
    };
    let hi2 = if up {
        (2 * hi).max(hi + 1).min(max).max(hi)
    } else {
        hi
    };
    (lo2, hi2)
}

/// Which sides of `window` the runs leaving it at `sizes` cross (both when a store's
/// value cannot be read).
fn crossed(reports: &[SizeReport], sizes: &[usize], (lo, hi): (i64, i64)) -> (bool, bool) {
    let (mut down, mut up) = (false, false);
    for &n in sizes {
        match growing(reports, n).and_then(|(_, v)| v.parse::<i64>().ok()) {
            Some(v) if v < lo => down = true,
            Some(v) if v > hi => up = true,
            _ => (down, up) = (true, true),
        }
    }
    (down, up)
}

/// Runs the sizes of `run` that leave the int window again in wider windows (module
/// comment), replacing their reports; `show` prints each new line of the table.
pub(super) fn widen(
    run: &mut Run,
    engine: &dyn Engine,
    problem: &Problem,
    ctl: &Control,
    max: i64,
    show: &mut dyn FnMut(Event),
) -> Result<Widened, String> {
    let mut out = Widened {
        model: None,
        notes: Vec::new(),
    };
    let model = problem.model;
    let Some(w) = &model.int_window else {
        return Ok(out);
    };
    let first = leaving(&run.reports);
    if w.given || first.is_empty() || run.limit.is_some() {
        return Ok(out);
    }
    if !w.free.is_empty() {
        out.notes.push(free_note(model, &w.free));
        return Ok(out);
    }
    let mut window = (w.lo, w.hi);
    // The notes of the last run in a wider window (how its sizes were answered).
    let mut notes: Vec<String> = Vec::new();
    loop {
        let left = leaving(&run.reports);
        let (Some(&smallest), Some(&largest)) = (left.first(), left.last()) else {
            break;
        };
        if ctl.sat_stop().now() {
            break;
        }
        let sides = crossed(&run.reports, &left, window);
        let next = wider(window, sides, max);
        if next == window {
            out.notes
                .extend(unbounded_notes(&run.reports, &left, window, max));
            break;
        }
        // At the cap every row is final; below it only those that stay inside.
        let last = wider(next, sides, max) == next;
        let mut m = lang::with_int_window(model, next).map_err(|e| e.render())?;
        if let Some(iw) = m.int_window.as_mut() {
            iw.given = false;
            iw.widened_from = Some((w.lo, w.hi));
        }
        let p = Problem {
            model: &m,
            min: smallest,
            max: largest,
            ..problem.clone()
        };
        let heading = format!(
            "int window widened to {}..{} at {} (a run left {}..{}):\n",
            next.0,
            next.1,
            crate::cert::sizes_phrase(&left),
            window.0,
            window.1
        );
        show(Event::Text(&heading));
        let (fresh, outcome) = run_wider(engine, &p, ctl, &left, last, run.started, show)?;
        replace_rows(&mut run.reports, fresh, outcome.limit.is_some());
        run.certificates.extend(outcome.certificate);
        run.certificates.extend(outcome.certificates);
        notes = outcome.notes;
        if let Some(l) = outcome.limit {
            run.limit = Some(l);
        }
        window = next;
        out.model = Some(m);
        if run.limit.is_some() {
            break;
        }
    }
    // The wider windows' runs say again much of what the first said.
    for note in notes {
        if !run.notes.contains(&note) {
            run.notes.push(note);
        }
    }
    if out.model.is_some() {
        out.notes.insert(
            0,
            format!(
                "int window widened from {}..{} to {}..{} at {}: a run left the narrower one (--int-max {max} caps it, --int-range fixes it)",
                w.lo,
                w.hi,
                window.0,
                window.1,
                crate::cert::sizes_phrase(&first)
            ),
        );
    }
    Ok(out)
}

/// Puts the `fresh` reports in place of the narrower window's (`cut`: the run in the
/// wider window stopped at a limit).
fn replace_rows(reports: &mut [SizeReport], fresh: Vec<SizeReport>, cut: bool) {
    // A size the limit cut short keeps its answer in the narrower window.
    for r in fresh {
        let whole =
            r.limit.is_none() && !r.results.iter().any(|p| p.verdict.kind() == Kind::Unknown);
        let Some(slot) = reports.iter_mut().find(|x| x.size == r.size) else {
            continue;
        };
        if whole || !cut {
            *slot = r;
        } else {
            // Its run leaving the narrower window stays within the wider one, which
            // the rows are read in: the `within ints` rows keep their own window.
            slot.results.retain(|x| x.prop != PropId::IntBound);
        }
    }
}

/// The note saying why the window was not widened: `init` leaves the `free` ints free.
fn free_note(model: &Model, free: &[VarId]) -> String {
    let names: Vec<String> = free
        .iter()
        .map(|&v| format!("`{}`", model.vars[v].name))
        .collect();
    format!(
        "the int window was not widened: `init` leaves {} free over it, so a wider window has other initial states (set one with --int-range)",
        names.join(", ")
    )
}

/// One note per growing cell and value, with the sizes of `left` it was met at, when
/// `window` is the widest (`--int-max max`).
fn unbounded_notes(
    reports: &[SizeReport],
    left: &[usize],
    window: (i64, i64),
    max: i64,
) -> Vec<String> {
    let mut whats: Vec<(String, Vec<usize>)> = Vec::new();
    for &n in left {
        let what = match growing(reports, n) {
            Some((cell, v)) => format!("`{cell}` reaches {v}"),
            None => "a run leaves it".into(),
        };
        match whats.iter_mut().find(|x| x.0 == what) {
            Some(x) => x.1.push(n),
            None => whats.push((what, vec![n])),
        }
    }
    whats
        .into_iter()
        .map(|(what, sizes)| {
            format!(
                "{}: {what}, past the widest int window {}..{} (--int-max {max}): unbounded?",
                crate::cert::sizes_phrase(&sizes),
                window.0,
                window.1
            )
        })
        .collect()
}

/// Runs the sizes `left` again on `p` (its wider window); shows the rows that are final
/// (all of them when the window is the `last`, otherwise those that stay inside) and
/// returns the new reports of `left` (`started`: when the run began, for `shown_at`).
fn run_wider(
    engine: &dyn Engine,
    p: &Problem,
    ctl: &Control,
    left: &[usize],
    last: bool,
    started: std::time::Instant,
    show: &mut dyn FnMut(Event),
) -> Result<(Vec<SizeReport>, engine::Outcome), String> {
    // The new reports, with whether each row was shown.
    let mut fresh: Vec<(SizeReport, bool)> = Vec::new();
    let outcome = engine::run(engine, p, ctl, &mut |mut r| {
        if !left.contains(&r.size) {
            return;
        }
        if last || leaving(std::slice::from_ref(&r)).is_empty() {
            r.shown_at = Some(started.elapsed().as_secs_f64());
            let shown = fresh.iter().rev().find(|x| x.1).map(|x| &x.0);
            show(Event::Rows {
                model: p.model,
                report: &r,
                prev: shown,
            });
            fresh.push((r, true));
        } else {
            fresh.push((r, false));
        }
    })?;
    Ok((fresh.into_iter().map(|(r, _)| r).collect(), outcome))
}

#[cfg(test)]
mod tests {
    use super::{replace_rows, wider};
    use crate::verdict::{Limit, PropId, PropResult, SizeReport, Verdict};

    fn report(size: usize, rows: Vec<(PropId, Verdict)>, limit: Option<Limit>) -> SizeReport {
        let results = rows
            .into_iter()
            .map(|(prop, verdict)| PropResult {
                size,
                prop,
                name: String::new(),
                verdict,
            })
            .collect();
        SizeReport {
            size,
            results,
            limit,
            ..SizeReport::default()
        }
    }

    /// A size the limit cut short in the wider window keeps its narrower answer, but
    /// not its run leaving the narrower window: that run is no run leaving the wider
    /// one, in which the rows are read.
    #[test]
    fn a_size_cut_short_keeps_its_answer_without_its_narrower_run() {
        let within = Verdict::WithinInts {
            lo: -2,
            hi: 3,
            within: Box::new(Verdict::Holds(crate::verdict::Proof::Exhaustive)),
        };
        let narrow = |n| {
            report(
                n,
                vec![
                    (PropId::Unsafe(0), within.clone()),
                    (PropId::IntBound, Verdict::Unknown),
                ],
                None,
            )
        };
        let mut reports = vec![narrow(2), narrow(3)];
        let fresh = vec![
            report(2, vec![(PropId::Unsafe(0), within.clone())], None),
            report(
                3,
                vec![(PropId::Unsafe(0), Verdict::Unknown)],
                Some(Limit::Timeout),
            ),
        ];
        replace_rows(&mut reports, fresh, true);
        assert_eq!(reports[0].results.len(), 1);
        let kept: Vec<PropId> = reports[1].results.iter().map(|x| x.prop).collect();
        assert_eq!(kept, vec![PropId::Unsafe(0)]);
        assert!(matches!(
            reports[1].results[0].verdict,
            Verdict::WithinInts { hi: 3, .. }
        ));
    }

    #[test]
    fn windows_double_up_to_the_cap() {
        let both = (true, true);
        assert_eq!(wider((-2, 4), both, 64), (-4, 8));
        assert_eq!(wider((-2, 4), (false, true), 64), (-2, 8));
        assert_eq!(wider((-2, 4), (true, false), 64), (-4, 4));
        assert_eq!(wider((0, 1), both, 64), (-1, 2));
        assert_eq!(wider((-40, 40), both, 64), (-64, 64));
        assert_eq!(wider((-64, 64), both, 64), (-64, 64));
        // A window past the cap (large literals) is never narrowed.
        assert_eq!(wider((-2, 100), both, 64), (-4, 100));
    }
}
