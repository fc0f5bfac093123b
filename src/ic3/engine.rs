//! IC3 as an engine of the command line: one run over the aggregate of the sizes,
//! counterexamples made shortest by BMC, the invariant certified (`proof::finish`).
//! An `ltl` property is proved as the `unsafe` property of its liveness product
//! (`live::Product`): its certificate, marked with the property (`liveness NAME`), is
//! checked against the product at every size, and a product counterexample becomes a
//! replayed lasso.

use super::{Cex, Ic3Options, Ic3Outcome, Ic3Stats, houdini, prove};
use crate::bmc::driver::{self, BmcOptions};
use crate::engine::{Checked, LtlChecked, Report};
use crate::engine::{Control, Engine, Outcome, Presentation, Problem};
use crate::live::{self, LOOP_PROP, Product};
use crate::model::ir::{Model, Ty};
use crate::proof::finish::{self, Findings};
use crate::proof::lemma::{Anchor, Lemma};
use crate::sat::SolverKind;
use crate::transys::Transys;
use crate::transys::frame::Encoding;
use crate::transys::query::SymBreak;
use crate::verdict::PropId;
use std::time::{Duration, Instant};

/// IC3 with its settings.
#[derive(Clone, Debug)]
pub struct Ic3Engine {
    pub solver: SolverKind,
    /// Symmetric lemma orbits (fully symmetric families only).
    pub symmetry: bool,
    /// How an `ltl` property is reduced to safety.
    pub to_safety: ToSafety,
}

/// How IC3 reduces an `ltl` property to a safety property (`live::Product`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ToSafety {
    /// k-liveness (Claessen, Sörensson 2012) for k = 1, 2, 4, ... up to a bound, then
    /// liveness-to-safety for the sizes it left open.
    #[default]
    Both,
    /// Liveness-to-safety only (Biere, Artho, Schuppan 2002).
    L2s,
    /// k-liveness only (sizes it cannot settle stay unknown).
    Klive,
}

impl Ic3Engine {
    /// IC3 with `solver`, symmetric lemma orbits when `symmetry`, and the default
    /// reduction of `ltl` properties to safety.
    pub fn new(solver: SolverKind, symmetry: bool) -> Ic3Engine {
        Ic3Engine {
            solver,
            symmetry,
            to_safety: ToSafety::default(),
        }
    }
}

/// The smallest sizes, up to the most processes a transition or property names (at
/// least 2, at most 3), are proved first, to seed a larger range with their lemmas.
fn seed_size(m: &crate::model::ir::Model) -> usize {
    let most = m
        .transitions
        .iter()
        .map(|t| t.params)
        .chain(m.unsafes.iter().map(|u| u.params))
        .max()
        .unwrap_or(0);
    most.clamp(2, 3)
}

/// Whether some state variable has a range type (as its values or an index) whose
/// bounds depend on N: then lemmas talk about sizes through their constants, and the
/// ladder of widths carries them from one size to the next (`Lemma::carried`).
fn size_dependent(m: &Model) -> bool {
    let dep = |t: Ty| matches!(t, Ty::Range(r) if m.ranges[r].lo.uses_size() || m.ranges[r].hi.uses_size());
    m.vars
        .iter()
        .any(|v| dep(v.ty) || v.dims.iter().any(|&d| dep(d)))
}

/// How many rungs of the ladder a lemma goes on being carried without being part of a
/// rung's invariant. Peterson 1..12: 17.1 s carrying every true lemma, 104 s carrying
/// the invariants only, 9.3 s with 1, 10.2 s with 2.
const MAX_AGE: usize = 1;

/// The IC3 invariant of the smallest sizes, and the depth of its deepest violation.
#[derive(Clone)]
struct Small {
    seed: usize,
    invariant: Option<Vec<Lemma>>,
    bug_depth: Option<usize>,
    /// The first violation the run found.
    bug: Option<Cex>,
}

/// What a run on a few sizes answered: the model (its address and a hash of its text),
/// the properties, the sizes lo..seed and the settings.
#[derive(Clone, PartialEq)]
struct SmallKey {
    model: usize,
    text: u64,
    props: Vec<usize>,
    lo: usize,
    seed: usize,
    solver: SolverKind,
    symmetry: bool,
}

/// The small sizes' runs of this process that converged or found a violation, and the
/// runs on a few sizes that converged (a first chunk, or a try of the every-n step).
/// The run of auto on the sizes the explicit search left and the every-n step both
/// begin with IC3 at sizes 1..seed on the same properties (German: 0.2-1 s of IC3,
/// twice), and each try of the every-n step proves the last one's sizes again as its
/// first chunk (Cubicle's szymanski_boleslaw_bool_na: IC3 at 1..4, 7 s, twice). Their
/// lemmas only seed the larger runs, filtered by Houdini on their own system (`seed`,
/// `ladder`), so a stale entry could cost time, never an answer.
static SMALL_RUNS: std::sync::Mutex<Vec<(SmallKey, Small)>> = std::sync::Mutex::new(Vec::new());

/// Sizes of the first chunk of a range proved apart (`Ic3Engine::chunk`).
const CHUNK: usize = 4;

/// The entries kept in `SMALL_RUNS`.
const SMALL_KEPT: usize = 4;

impl Ic3Engine {
    /// IC3's settings for problem `p` under `ctl`: no seeds, exclusions or frame bound.
    pub(crate) fn options(&self, p: &Problem, ctl: &Control) -> Ic3Options {
        Ic3Options {
            solver: self.solver,
            props: p.props.clone(),
            symmetry: self.symmetry,
            ctg: true,
            stop: ctl.sat_stop(),
            max_memory: ctl.max_memory,
            progress: ctl.progress,
            exclude: Vec::new(),
            max_frames: None,
            seed: Vec::new(),
            range_atoms: true,
        }
    }

    /// IC3 at sizes 1..`seed_size`, when the problem reaches beyond them: the smallest
    /// system is the cheapest to prove, and its lemmas seed the larger ones.
    fn small(&self, p: &Problem, ctl: &Control) -> Result<Small, String> {
        let seed = seed_size(p.model);
        if p.max <= seed {
            return Ok(Small {
                seed,
                invariant: None,
                bug_depth: None,
                bug: None,
            });
        }
        if let Some(s) = self.recall(p, 1, seed) {
            return Ok(s);
        }
        let mut small = Transys::new(p.model, 1, seed, Encoding::Binary);
        let out = prove(&mut small, &self.options(p, ctl))?;
        let answer = Small {
            seed,
            invariant: out.invariant,
            bug_depth: out.cexs.iter().map(|c| c.depth).max(),
            bug: out.cexs.first().copied(),
        };
        if out.limit.is_none() {
            self.remember(p, 1, &answer);
        }
        Ok(answer)
    }

    /// The run of `p`'s properties at sizes lo..hi this process remembers.
    fn recall(&self, p: &Problem, lo: usize, hi: usize) -> Option<Small> {
        let key = self.small_key(p, lo, hi);
        let runs = SMALL_RUNS.lock().unwrap_or_else(|e| e.into_inner());
        runs.iter().find(|(k, _)| *k == key).map(|(_, s)| s.clone())
    }

    /// Remember the run of `p`'s properties at sizes lo..`s.seed`.
    fn remember(&self, p: &Problem, lo: usize, s: &Small) {
        let key = self.small_key(p, lo, s.seed);
        let mut runs = SMALL_RUNS.lock().unwrap_or_else(|e| e.into_inner());
        runs.retain(|(k, _)| *k != key);
        if runs.len() >= SMALL_KEPT {
            runs.remove(0);
        }
        runs.push((key, s.clone()));
    }

    /// A violation at the small sizes 1..seed of `p` (IC3's first run there, or the one
    /// this process remembers), with that seed: a caller that needs a proof of every
    /// property gives up at once, without `run`'s search for the violations at every
    /// size. `None` when `p` reaches no further than the seed.
    pub fn small_bug(&self, p: &Problem, ctl: &Control) -> Result<Option<(Cex, usize)>, String> {
        let small = self.small(p, ctl)?;
        Ok(small.bug.map(|c| (c, small.seed)))
    }

    /// The invariant of IC3's run at the small sizes 1..seed of `p` (run now, or the one
    /// this process remembers: the every-n step asks for it again before its IC3 tries),
    /// with that seed; `None` when it found a violation, stopped, or `p` reaches no
    /// further than the seed.
    pub fn small_invariant(
        &self,
        p: &Problem,
        ctl: &Control,
    ) -> Result<Option<(Vec<Lemma>, usize)>, String> {
        let small = self.small(p, ctl)?;
        let inv = small.invariant.filter(|_| small.bug.is_none());
        Ok(inv.map(|inv| (inv, small.seed)))
    }

    /// Whether this process already has the small sizes' run of `p` (`run` on it would
    /// begin with that run's invariant, not with IC3 at sizes 1..seed).
    pub fn has_small_run(&self, p: &Problem) -> bool {
        let key = self.small_key(p, 1, seed_size(p.model));
        SMALL_RUNS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .any(|(k, s)| *k == key && s.invariant.is_some())
    }

    /// What identifies the run of `p`'s properties at sizes lo..seed.
    fn small_key(&self, p: &Problem, lo: usize, seed: usize) -> SmallKey {
        SmallKey {
            model: p.model as *const Model as usize,
            text: p
                .model
                .source
                .text
                .bytes()
                .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                    (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
                }),
            props: p.props.clone(),
            lo,
            seed,
            solver: self.solver,
            symmetry: self.symmetry,
        }
    }

    /// Seeds for the aggregate run: the small sizes' lemmas claimed up to the largest
    /// size, filtered to an inductive subset of the full system (`houdini`). Symmetric
    /// lemmas rarely depend on the size.
    fn seed(
        &self,
        p: &Problem,
        ctl: &Control,
        ts: &mut Transys,
        runs: &[&Small],
        (extra, extra_inductive): (&[Lemma], bool),
    ) -> Result<Vec<Lemma>, String> {
        let mut widened: Vec<Lemma> = Vec::new();
        // Each run's lemmas claimed at its largest size go up to the problem's; the
        // extra candidates are read as the first (smallest) run's.
        let first = runs.first().map_or(0, |r| r.seed);
        let lists = runs
            .iter()
            .filter_map(|r| {
                r.invariant
                    .as_ref()
                    .map(|inv| (r.seed, inv.as_slice(), false))
            })
            .chain(std::iter::once((first, extra, extra_inductive)));
        let mut known: Vec<bool> = Vec::new();
        for (seed, lemmas, inductive) in lists {
            // Inductive extras are kept as given (a changed range is another set).
            let whole = inductive && lemmas.iter().all(|l| l.lo <= p.min && l.hi == p.max);
            for mut l in lemmas.iter().cloned() {
                if l.hi == seed {
                    l.hi = p.max;
                }
                l.lo = l.lo.max(p.min);
                match widened.iter().position(|w| *w == l) {
                    // A small size's lemma that is also a known one is known.
                    Some(i) => known[i] |= whole,
                    None if l.lo <= l.hi => {
                        widened.push(l);
                        known.push(whole);
                    }
                    None => {}
                }
            }
        }
        if widened.is_empty() {
            return Ok(Vec::new());
        }
        let sym = self.symmetry && p.model.has_lemma_orbits() && p.max > 1;
        let (found, t1) = (widened.len(), Instant::now());
        let kept = houdini::houdini_known(ts, widened, &known, sym, self.solver, &ctl.sat_stop())?
            .unwrap_or_default();
        if ctl.progress {
            crate::progress::line(format!(
                "ic3 seeds: {found} lemmas of sizes up to {}, {} of them inductive at sizes {}..{} ({:.2}s)",
                runs.iter().map(|r| r.seed).max().unwrap_or(0),
                kept.len(),
                p.min,
                p.max,
                t1.elapsed().as_secs_f64()
            ));
        }
        Ok(kept)
    }

    /// The ladder of widths, for a family whose ranges depend on N: IC3 on each size
    /// w beyond the small ones alone (the aggregate w..w), seeded with the lemmas true
    /// at w - 1 restated at w (`Lemma::carried`, every anchor) and filtered by Houdini.
    /// Peterson's invariant at one size is mostly the last one's, one level up, so
    /// each rung has little left to find. The rungs' invariants together, each lemma
    /// at the sizes it was proved for, are an invariant of the aggregate (its widths
    /// never meet); it is checked like any other.
    ///
    /// `None` unless every rung converged without a violation: the aggregate run then
    /// answers instead.
    fn ladder(
        &self,
        p: &Problem,
        ctl: &Control,
        small: &Small,
    ) -> Result<Option<Ic3Outcome>, String> {
        let Some(inv) = &small.invariant else {
            return Ok(None);
        };
        let sym = self.symmetry && p.model.has_lemma_orbits() && p.max > 1;
        let mut all: Vec<Lemma> = inv.clone();
        let mut prev: Vec<Lemma> = inv.iter().filter(|l| l.hi == small.seed).cloned().collect();
        // Rungs since each lemma of `prev` (by position) was last part of an invariant.
        let mut ages: Vec<usize> = vec![0; prev.len()];
        let mut stats = Ic3Stats::default();
        let start = Instant::now();
        for w in small.seed + 1..=p.max {
            let (cands, cand_ages) = carried(p, w, &prev, &ages);
            let mut ts = Transys::new(p.model, w, w, Encoding::Binary);
            let (n, t0) = (cands.len(), Instant::now());
            let Some(kept) =
                houdini::houdini(&mut ts, cands.clone(), sym, self.solver, &ctl.sat_stop())?
            else {
                return Ok(None);
            };
            if ctl.progress {
                crate::progress::line(format!(
                    "ic3 ladder, size {w}: {n} lemmas carried from size {}, {} of them inductive ({:.2}s)",
                    w - 1,
                    kept.len(),
                    t0.elapsed().as_secs_f64()
                ));
            }
            let mut opts = self.options(p, ctl);
            opts.seed = kept.clone();
            let out = prove(&mut ts, &opts)?;
            stats.frames = stats.frames.max(out.stats.frames);
            stats.obligations += out.stats.obligations;
            stats.sat_calls += out.stats.sat_calls;
            stats.init_calls += out.stats.init_calls;
            stats.ctgs += out.stats.ctgs;
            let (Some(found), true) = (out.invariant, out.cexs.is_empty()) else {
                return Ok(None);
            };
            all.extend(found.iter().cloned());
            (prev, ages) = going_up(found, kept, &cands, &cand_ages);
        }
        let merged = merge_adjacent(all, p);
        stats.lemmas = merged.len();
        stats.seconds = start.elapsed().as_secs_f64();
        Ok(Some(Ic3Outcome {
            cexs: Vec::new(),
            lemmas: merged.iter().map(|l| (l.clone(), usize::MAX)).collect(),
            invariant: Some(merged),
            limit: None,
            stats,
        }))
    }

    /// IC3 on `CHUNK` sizes at the start of a longer range (or just above the small
    /// run's sizes, if the range starts beyond them), within half the time left:
    /// a few sizes are far cheaper to prove than the whole range, and their lemmas,
    /// widened to the largest size, are often inductive over all of it (the MCS lock:
    /// 7..10 proved with 35 lemmas in 5 s, inductive at 11..15 as well, where IC3 on
    /// 7..15 made 1,007 SAT calls in 20 s). `None` unless that run proved every
    /// property there.
    fn chunk(&self, p: &Problem, ctl: &Control) -> Result<Option<Small>, String> {
        if p.max < p.min + CHUNK {
            return Ok(None);
        }
        // The sizes just above the small run's when the range starts higher: IC3 there
        // is cheaper still (MCS: 3..6 in 4.7 s, where 8..11 did not converge in 10 s),
        // and their lemmas were inductive at 8..15 as well.
        let lo = p.min.min(seed_size(p.model) + 1);
        let sub = Problem {
            min: lo,
            max: lo + CHUNK - 1,
            ..p.clone()
        };
        if let Some(s) = self.recall(&sub, sub.min, sub.max) {
            if ctl.progress {
                crate::progress::line(format!(
                    "ic3 at sizes {}..{} first: proved earlier in this run",
                    sub.min, sub.max
                ));
            }
            return Ok(Some(s));
        }
        let now = Instant::now();
        let inner = Control {
            deadline: ctl
                .deadline
                .map(|d| now + d.saturating_duration_since(now) / 2),
            ..ctl.clone()
        };
        let (_, out) = self.run(&sub, &inner, &[])?;
        if ctl.progress {
            crate::progress::line(format!(
                "ic3 at sizes {}..{} first: {} ({:.2}s)",
                sub.min,
                sub.max,
                if out.invariant.is_some() && out.cexs.is_empty() {
                    "proved"
                } else {
                    "not proved"
                },
                now.elapsed().as_secs_f64()
            ));
        }
        Ok(match (out.invariant, out.cexs.is_empty(), out.limit) {
            (Some(inv), true, None) => Some(Small {
                seed: sub.max,
                invariant: Some(inv),
                bug_depth: None,
                bug: None,
            }),
            _ => None,
        })
    }

    /// The violations at every size of the problem up to `depth`, by BMC on the
    /// aggregate (each shortest for its property and size): a bug of the small sizes
    /// usually recurs at the larger ones at about the same depth, where BMC finds it at
    /// every size at once, while IC3 would meet it size by size.
    fn bmc_up_to(&self, p: &Problem, ctl: &Control, depth: usize) -> Result<Vec<Cex>, String> {
        let opts = BmcOptions {
            depth,
            symbreak: if self.symmetry {
                SymBreak::WitnessLex
            } else {
                SymBreak::Off
            },
            solver: self.solver,
            props: Some(p.props.clone()),
            deadline: ctl.deadline,
            stop: ctl.stop.clone(),
            max_memory: ctl.max_memory,
            memory: ctl.memory.clone(),
            ..BmcOptions::default()
        };
        let run = driver::check_aggregate(p.model, p.min, p.max, &opts)?;
        let mut out = Vec::new();
        for r in &run.reports {
            for x in &r.results {
                if let Some(t) = x.verdict.trace() {
                    out.push(Cex {
                        key: x.prop,
                        width: r.size,
                        depth: t.depth(),
                    });
                }
            }
        }
        Ok(out)
    }

    /// IC3 on the aggregate of the problem's sizes, seeded with the lemmas of the
    /// smallest sizes; every (property, size) of `skip` already answered. Returns the
    /// transition system the lemmas are over, and IC3's outcome.
    pub fn run<'m>(
        &self,
        p: &Problem<'m>,
        ctl: &Control,
        skip: &[(PropId, usize)],
    ) -> Result<(Transys<'m>, Ic3Outcome), String> {
        self.run_seeded(p, ctl, skip, &[], false)
    }

    /// `run`, with `extra` candidate lemmas (over sizes reaching the largest, which
    /// are claimed up to it) filtered by Houdini with the small sizes' lemmas;
    /// `extra_inductive`: they hold initially and their orbits are inductive together
    /// on the problem's aggregate already (Houdini kept them there), so Houdini asks
    /// only about the small sizes' lemmas (`houdini::houdini_known`).
    pub fn run_seeded<'m>(
        &self,
        p: &Problem<'m>,
        ctl: &Control,
        skip: &[(PropId, usize)],
        extra: &[Lemma],
        extra_inductive: bool,
    ) -> Result<(Transys<'m>, Ic3Outcome), String> {
        let mut ts = Transys::new(p.model, p.min, p.max, Encoding::Binary);
        let small = self.small(p, ctl)?;
        if small.bug_depth.is_none()
            && size_dependent(p.model)
            && let Some(out) = self.ladder(p, ctl, &small)?
        {
            return Ok((ts, out));
        }
        let chunk = if small.bug_depth.is_none() && skip.is_empty() {
            self.chunk(p, ctl)?
        } else {
            None
        };
        let runs: Vec<&Small> = std::iter::once(&small).chain(chunk.as_ref()).collect();
        let seed = self.seed(p, ctl, &mut ts, &runs, (extra, extra_inductive))?;
        let bug_depth = small.bug_depth;
        let mut found = match bug_depth {
            Some(d) => self.bmc_up_to(p, ctl, d)?,
            None => Vec::new(),
        };
        found.retain(|c| !skip.contains(&(c.key, c.width)));
        if let (true, Some(d)) = (ctl.progress, bug_depth) {
            crate::progress::line(format!(
                "bmc to depth {d} at sizes {}..{}: {} violations",
                p.min,
                p.max,
                found.len()
            ));
        }
        let mut exclude = skip.to_vec();
        exclude.extend(found.iter().map(|c| (c.key, c.width)));
        let mut opts = self.options(p, ctl);
        opts.exclude = exclude;
        opts.seed = seed;
        let mut out = prove(&mut ts, &opts)?;
        out.cexs.extend(found);
        if let (Some(inv), true, None) = (&out.invariant, out.cexs.is_empty(), out.limit) {
            let s = Small {
                seed: p.max,
                invariant: Some(inv.clone()),
                bug_depth: None,
                bug: None,
            };
            self.remember(p, p.min, &s);
        }
        Ok((ts, out))
    }

    /// Run IC3 on the problem, every (property, size) of `skip` already answered. For a
    /// family in the counter view's fragment with a global that counts processes, first
    /// on the counter view for at most `COUNTER_BUDGET` (`counting`, kept only when
    /// its certificate checks), then on the per-process aggregate.
    pub fn findings(
        &self,
        p: &Problem,
        ctl: &Control,
        skip: &[(PropId, usize)],
    ) -> Result<Findings, String> {
        if p.model.number_procs.is_none() && crate::counter::fragment(p.model).is_ok() {
            let now = Instant::now();
            let share = ctl.deadline.map_or(COUNTER_BUDGET, |d| {
                COUNTER_BUDGET.min(d.saturating_duration_since(now) / 2)
            });
            let limited = Control {
                deadline: Some(now + share),
                ..ctl.clone()
            };
            if let Some(f) = super::counter_view::findings(self, p, &limited, ctl, skip)? {
                return Ok(f);
            }
        }
        self.plain_findings(p, ctl, skip)
    }

    /// IC3 on the per-process aggregate.
    fn plain_findings(
        &self,
        p: &Problem,
        ctl: &Control,
        skip: &[(PropId, usize)],
    ) -> Result<Findings, String> {
        let (ts, out) = self.run(p, ctl, skip)?;
        let sym = self.symmetry && p.model.is_symmetric() && p.max > 1;
        Ok(Findings {
            cexs: out.cexs.iter().map(|c| (c.key, c.width, c.depth)).collect(),
            invariant: out.invariant.map(|inv| {
                (
                    inv.iter().map(|l| l.to_cert(&ts, (p.min, p.max))).collect(),
                    1,
                    false,
                )
            }),
            limit: out.limit,
            symmetry: sym,
            proof_depth: Some(out.stats.frames),
            ..Findings::default()
        })
    }
}

impl Engine for Ic3Engine {
    fn name(&self) -> &'static str {
        "ic3"
    }

    fn presentation(&self, _p: &Problem) -> Presentation {
        Presentation {
            lemma_orbits: Some(""),
            ..Presentation::new("symmetric lemma orbits", "lemmas")
        }
    }

    fn every_n(&self) -> bool {
        true
    }

    fn describe(&self, p: &Problem) -> String {
        format!(
            "IC3 / property-directed reachability ({}{}){}; invariants checked independently",
            self.solver.name(),
            if self.symmetry && p.model.is_symmetric() {
                ", symmetric lemma orbits"
            } else if self.symmetry && p.model.has_lemma_orbits() {
                ", order-preserving lemma orbits, checked by Houdini"
            } else {
                ""
            },
            p.aggregate_text()
        )
    }

    fn answers(&self) -> crate::engine::Answers {
        crate::engine::Answers::BOTH
    }

    /// `ltl` property `k`: k-liveness first (`live`: proofs, and the lassos its
    /// shortest counterexamples close), then IC3 on the liveness-to-safety product for
    /// the widths it left open (lassos or proofs). Every certificate is marked as being
    /// about the property.
    fn check_ltl(&self, p: &Problem, ctl: &Control, k: usize) -> LtlChecked {
        if self.to_safety == ToSafety::L2s {
            let (mut reports, mut out) = self.loop_closing(p, ctl, k)?;
            out.certificates.extend(out.certificate.clone());
            live::fill_unknown(&mut reports, p.model, k);
            return Ok((reports, out));
        }
        let c = self.klive(p, ctl, k, super::klive::MAX_ROUNDS, None)?;
        let mut reports = c.reports;
        let mut out = Outcome {
            limit: c.limit,
            aggregate: p.max > p.min,
            ..Outcome::default()
        };
        out.certificates.extend(c.certificate.clone());
        out.certificate = c.certificate;
        if self.to_safety == ToSafety::Klive {
            live::fill_unknown(&mut reports, p.model, k);
            return Ok((reports, out));
        }
        if out.limit.is_none() {
            for (a, b) in super::klive::runs(&c.open) {
                let part = Problem {
                    min: a,
                    max: b,
                    ..p.clone()
                };
                let (r, o) = self.loop_closing(&part, ctl, k)?;
                reports = live::merge(reports, r);
                out.certificates.extend(o.certificate.clone());
                out.certificate = out.certificate.or(o.certificate);
                out.limit = out.limit.or(o.limit);
                if out.limit.is_some() {
                    break;
                }
            }
        }
        live::fill_unknown(&mut reports, p.model, k);
        Ok((reports, out))
    }

    /// IC3 on the problem's `unsafe` properties (and range errors).
    fn check_safety(&self, p: &Problem, ctl: &Control, report: Report) -> Checked {
        finish::check_with(
            p,
            ctl,
            "ic3",
            self.solver,
            || self.findings(p, ctl, &[]),
            report,
        )
    }
}

impl Ic3Engine {
    /// IC3 on the liveness-to-safety product of `ltl` property `k`; the certificate is
    /// marked as being about the property.
    fn loop_closing(&self, p: &Problem, ctl: &Control, k: usize) -> LtlChecked {
        let prod = Product::new(p.model, k, p.fair)?;
        let pp = Problem::new(&prod.model, p.min, p.max, vec![LOOP_PROP]);
        let mut reports = Vec::new();
        let mut out = self.check_safety(&pp, ctl, &mut |r| reports.push(r))?;
        out.certificate = out
            .certificate
            .map(|c| live::mark_certificate(&c, p.model, &prod, &mut reports));
        let reports = reports
            .into_iter()
            .map(|r| live::translate(p.model, &prod, r))
            .collect();
        Ok((reports, out))
    }
}

/// How long IC3 may search the counter view before the per-process aggregate is
/// tried (at most half the time left under `--timeout`). Only families with a global
/// that counts processes try the view (`counting::findings`), and theirs is the
/// per-process search that stalls (issue 26), so the view gets most of the time: the
/// counting families take 0.5-1 s for all their widths (barrier 1..16: 0.5 s unloaded,
/// past 1 s on a shared machine, where a budget of 0.5 s sent it to the per-process
/// search and no answer in a minute); a counting family the view cannot close loses at
/// most this much. Running the per-process search first for a short time instead is
/// not possible today: its lemma matching does not look at the deadline (barrier_bug
/// 1..16 runs past `--timeout`).
const COUNTER_BUDGET: Duration = Duration::from_secs(10);

/// The candidates at width `w` from the lemmas `prev` true at w - 1 (of rung ages
/// `ages`): each lemma at w as it stands and restated at w by every anchor
/// (`Lemma::carried`), without repeats, each with its age one rung older.
fn carried(p: &Problem, w: usize, prev: &[Lemma], ages: &[usize]) -> (Vec<Lemma>, Vec<usize>) {
    let mut cands: Vec<Lemma> = Vec::new();
    let mut cand_ages: Vec<usize> = Vec::new();
    for (l, &age) in prev.iter().zip(ages) {
        let mut same = l.clone();
        (same.lo, same.hi) = (w, w);
        let moved = [Anchor::Nearer, Anchor::Upper, Anchor::Lower]
            .into_iter()
            .filter_map(|a| l.carried(p.model, w - 1, a));
        for c in std::iter::once(same).chain(moved) {
            if !cands.contains(&c) {
                cands.push(c);
                cand_ages.push(age + 1);
            }
        }
    }
    (cands, cand_ages)
}

/// The lemmas carried to the next rung, with their ages: the invariant `found` (age 0)
/// and the others Houdini `kept`. The lemmas true at w go on up, not only those the
/// proof needed (the next size's proof may need them), unless no proof needed them for
/// MAX_AGE rungs: carried with three guesses each, they would snowball.
fn going_up(
    found: Vec<Lemma>,
    kept: Vec<Lemma>,
    cands: &[Lemma],
    cand_ages: &[usize],
) -> (Vec<Lemma>, Vec<usize>) {
    let mut ages = vec![0; found.len()];
    let mut prev = found;
    for k in kept {
        if prev.contains(&k) {
            continue;
        }
        let age = cands
            .iter()
            .position(|c| *c == k)
            .map_or(usize::MAX, |i| cand_ages[i]);
        if age <= MAX_AGE {
            prev.push(k);
            ages.push(age);
        }
    }
    (prev, ages)
}

/// The rungs' lemmas as one invariant: equal lemmas of adjacent sizes become one over
/// both; then each is cut to the problem's sizes (and dropped if none is left).
fn merge_adjacent(mut all: Vec<Lemma>, p: &Problem) -> Vec<Lemma> {
    all.sort_by(|a, b| (&a.atoms, a.procs, a.lo).cmp(&(&b.atoms, b.procs, b.lo)));
    let mut merged: Vec<Lemma> = Vec::new();
    for mut l in all {
        if let Some(m) = merged.last_mut()
            && (&m.atoms, m.procs) == (&l.atoms, l.procs)
            && l.lo <= m.hi + 1
        {
            m.hi = m.hi.max(l.hi);
            continue;
        }
        (l.lo, l.hi) = (l.lo.max(p.min), l.hi.min(p.max));
        merged.push(l);
    }
    merged.retain(|l| l.lo <= l.hi);
    merged
}
