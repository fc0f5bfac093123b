//! The check of a ranking proof of a response property `G (A => F B)` of process i
//! under weak fairness (`cert::Ranking`): the proof rule of Z. Manna and A. Pnueli
//! for response under justice (*Temporal Verification of Reactive Systems: Progress*,
//! the rule with helpful transitions and a well-founded ranking), with the ranking
//! a lexicographic pair (the phase, then a sum of per-process weights) and process i
//! as the only helpful process. At each size, for each process i the property must be
//! checked for (process 1 of a fully symmetric family):
//! - the lemmas are an inductive invariant Inv of the model, and no state of Inv meets
//!   a range error (the plain check of `proof::check`);
//! - Inv ∧ A ∧ ¬B lies in some phase;
//! - from a state of Inv ∧ ¬B in phase k (the first phase, nearest the goal, whose
//!   formula holds), every step (a deadlocked state's stutter included) reaches B, or
//!   a phase before k, or stays in phase k where: a helpful phase's step is not one of
//!   process i, a ranked phase's step lowers the weight of some process other than i
//!   and raises none;
//! - in a helpful phase, process i is enabled (only with `fair`).
//!
//! Then no weakly fair run stays in ¬B from a state of A on: its phases never rise, so
//! they settle; in a ranked phase the sum of weights would fall forever, and in a
//! helpful one process i would stay enabled and never execute. The formulas are read
//! back as `unsafe` blocks of the model (`with_lemmas_and`), so the text is what is
//! checked, on the one-hot unrolling of each size's own instance. The search (`rank`)
//! asks the same one-step questions with its own queries over its own reading of its
//! text; the two share only the layers of the trust base, among them the transition
//! system's `Unroller::fair_step` (what a weakly fair step is; docs/internals.md, "The
//! trust base").

use super::{Checker, NOT_CHECKED, SizeCheck, check_size, with_lemmas_and};
use crate::cert::{Certificate, Ranking};
use crate::live::response;
use crate::model::ir::Model;
use crate::proof::cutoff::Fragment;
use crate::proof::live_cutoff::{LiveCutoff, RankFormulas, live_cutoff};
use crate::sat::{Lit, SolveResult, SolverKind, Stop};
use crate::transys::frame::Encoding;
use crate::transys::unroll::Unroller;

/// The `unsafe` blocks of a ranking: A, B, each phase, each phase's weights (in that
/// order), and the index of each phase's first weight block among them.
fn blocks(model: &Model, r: &Ranking, resp: &response::Response) -> (Vec<String>, Vec<usize>) {
    let pre = crate::lang::unused_prefix(model, "nfold_rank_");
    let mut out = vec![
        format!("unsafe {pre}a ({}) {{ {} }}", resp.var, resp.a),
        format!("unsafe {pre}b ({}) {{ {} }}", resp.var, resp.b),
    ];
    for (k, ph) in r.phases.iter().enumerate() {
        out.push(format!("unsafe {pre}p{k} ({}) {{ {} }}", r.var, ph.formula));
    }
    let mut first = Vec::new();
    for (k, ph) in r.phases.iter().enumerate() {
        first.push(out.len());
        for (c, (_, f)) in ph.weights.iter().enumerate() {
            out.push(format!(
                "unsafe {pre}w{k}_{c} ({} {}) {{ {f} }}",
                r.var, r.other
            ));
        }
    }
    (out, first)
}

/// The cutoff at which the ranking of `cert` is a proof at every size
/// (`proof::live_cutoff`), for a model in the safety fragment `frag`; or why the
/// argument does not cover it.
pub fn every_cutoff(
    model: &Model,
    cert: &Certificate,
    frag: &Fragment,
) -> Result<LiveCutoff, String> {
    let (Some(r), Some((name, _))) = (cert.ranking(), &cert.liveness) else {
        return Err("not a ranking proof".into());
    };
    let resp = response::of(model, name)?;
    let (extra, first_weight) = blocks(model, r, &resp);
    let (m, _, _) = with_lemmas_and(model, cert, &extra)?;
    let base = m.unsafes.len() - extra.len();
    let body = |i: usize| &m.unsafes[base + i].body;
    let f = RankFormulas {
        a: body(0),
        b: body(1),
        phases: (r.phases.iter().enumerate())
            .map(|(k, p)| (body(2 + k), p.helpful))
            .collect(),
        weights: (r.phases.iter().zip(&first_weight))
            .flat_map(|(p, &first)| (0..p.weights.len()).map(move |c| first + c))
            .map(body)
            .collect(),
    };
    live_cutoff(&m, &f, frag)
}

/// Check a ranking certificate at each of `sizes`, in their order, up to the first
/// one rejected: the claim is rejected there, and the sizes after it (larger, in a
/// claim for every size 1..c) cost the most.
pub fn check(
    model: &Model,
    cert: &Certificate,
    sizes: &[usize],
    solver: SolverKind,
    stop: &Stop,
) -> Result<Vec<SizeCheck>, String> {
    let r = cert.ranking().expect("a ranking certificate");
    let Some((name, fair)) = &cert.liveness else {
        return Err("a ranking proof needs a `liveness` line".into());
    };
    let resp = response::of(model, name)?;
    if let Some(l) = cert
        .lemmas
        .iter()
        .find(|l| l.bdd.is_some() || l.no_int_bound)
    {
        return Err(format!(
            "a ranking proof's invariant is made of formula lemmas (`{}`)",
            l.text()
        ));
    }
    if model.int_window.is_some() {
        return Err("a ranking proof is about a model without `int`".into());
    }
    if r.phases.iter().any(|p| p.helpful) && !fair {
        return Err("a helpful phase needs weak fairness (`liveness NAME fair ranks`)".into());
    }
    let (extra, first_weight) = blocks(model, r, &resp);
    let (m, lemma_props, counts) = with_lemmas_and(model, cert, &extra)?;
    if !counts.is_empty() {
        return Err("a ranking proof's invariant has no counting lemmas".into());
    }
    let base_extra = m.unsafes.len() - extra.len();
    let mut out = Vec::new();
    for &n in sizes {
        if stop.now() {
            out.push(SizeCheck {
                size: n,
                certified: Vec::new(),
                failures: Vec::new(),
                unchecked: vec![format!("size {n}: {NOT_CHECKED}")],
                by: Checker::Sat,
            });
            continue;
        }
        let lemmas: Vec<(usize, Option<bool>)> = cert
            .lemmas
            .iter()
            .zip(&lemma_props)
            .filter(|(l, _)| l.at(n))
            .map(|(l, &p)| (p, l.no_range.then_some(false)))
            .collect();
        let claims = vec!["range_error".to_string()];
        let (mut failures, mut unchecked) =
            check_size(&m, model, cert, n, &claims, &lemmas, &counts, solver, stop)?;
        if failures.is_empty() && unchecked.is_empty() {
            for p in crate::ltl::processes_to_check(model, resp.prop, n)
                .into_iter()
                .flatten()
            {
                let q = RankQueries {
                    m: &m,
                    model,
                    r,
                    lemmas: &lemmas,
                    base_extra,
                    first_weight: &first_weight,
                    n,
                    p,
                };
                q.run(solver, stop, &mut failures, &mut unchecked)?;
                if !failures.is_empty() || !unchecked.is_empty() {
                    break;
                }
            }
        }
        let ok = failures.is_empty() && unchecked.is_empty();
        out.push(SizeCheck {
            size: n,
            certified: if ok { vec![name.clone()] } else { Vec::new() },
            failures,
            unchecked,
            by: Checker::Sat,
        });
        if !ok {
            break;
        }
    }
    Ok(out)
}

/// The literals the queries of process i ask about: a range error of the property's
/// formulas, A, B at frames 0 and 1, each phase at frames 0 and 1, and the step's
/// "i is enabled" and "i steps".
struct Frames {
    err: Lit,
    a0: Lit,
    b0: Lit,
    b1: Lit,
    ph: [Vec<Lit>; 2],
    en_p: Lit,
    by_p: Lit,
}

/// The queries of one size and one process i.
struct RankQueries<'a> {
    m: &'a Model,
    model: &'a Model,
    r: &'a Ranking,
    lemmas: &'a [(usize, Option<bool>)],
    base_extra: usize,
    first_weight: &'a [usize],
    n: usize,
    p: i64,
}

impl RankQueries<'_> {
    fn run(
        &self,
        solver: SolverKind,
        stop: &Stop,
        failures: &mut Vec<String>,
        unchecked: &mut Vec<String>,
    ) -> Result<(), String> {
        let (n, p) = (self.n, self.p);
        let mut u = Unroller::new(self.m, n, Encoding::OneHot);
        u.add_step();
        let Frames {
            err,
            a0,
            b0,
            b1,
            ph,
            en_p,
            by_p,
        } = self.frames(&mut u);
        let k_phases = self.r.phases.len();
        let mut s = solver.create_plain()?;
        let mut ask = |u: &mut Unroller,
                       s: &mut Box<dyn crate::sat::Backend>,
                       assumptions: &[Lit],
                       what: String|
         -> Result<bool, String> {
            match s.solve(&u.c.cnf, assumptions, stop) {
                SolveResult::Unsat => Ok(true),
                SolveResult::Sat => {
                    failures.push(format!("size {n}, process {p}: {what}"));
                    Ok(false)
                }
                SolveResult::Unknown => {
                    unchecked.push(format!("size {n}, process {p}: {what}: {NOT_CHECKED}"));
                    Ok(false)
                }
            }
        };
        if !ask(
            &mut u,
            &mut s,
            &[err],
            "evaluating the property's formulas meets a range error in a state of the invariant"
                .into(),
        )? {
            return Ok(());
        }
        // Coverage.
        let none = u.c.or(&ph[0]);
        if !ask(
            &mut u,
            &mut s,
            &[a0, -b0, -none],
            "a state of the invariant where the request holds and the response does not lies in no phase".into(),
        )? {
            return Ok(());
        }
        for k in 0..k_phases {
            let (in_k, lower1, good) = self.phase_lits(&mut u, &ph, by_p, k);
            let what = if self.r.phases[k].helpful {
                "a step of the process from it stays in it, or a step leaves it for no phase before it"
            } else {
                "a step from it stays in it without lowering a weight (or raises one), or leaves it for no phase before it"
            };
            if !ask(
                &mut u,
                &mut s,
                &[in_k, -b0, -b1, -lower1, -good],
                format!("phase {}: {what}", k + 1),
            )? {
                return Ok(());
            }
            // (`check` refuses helpful phases without fairness.)
            if self.r.phases[k].helpful
                && !ask(
                    &mut u,
                    &mut s,
                    &[in_k, -b0, -en_p],
                    format!(
                        "phase {}: the process is not enabled in a state of it",
                        k + 1
                    ),
                )?
            {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Inv asserted at frame 0, and the literals the queries of process p ask about.
    fn frames(&self, u: &mut Unroller) -> Frames {
        let p = self.p;
        // Inv at frame 0.
        let all_props: Vec<usize> = (0..self.model.unsafes.len()).collect();
        let lemmas: Vec<(usize, bool)> =
            self.lemmas.iter().map(|&(p, s)| (p, s.is_some())).collect();
        let any = u.some_violated(0, &lemmas, &all_props);
        u.c.assert(-any);
        // The property's formulas meet no range error in a state of Inv (the nested
        // search would report one).
        let (_, ea) = u.bad_tuple(self.base_extra, 0, &[p]);
        let (_, eb) = u.bad_tuple(self.base_extra + 1, 0, &[p]);
        let err = u.c.or2(ea, eb);
        let a0 = u.holds(self.base_extra, 0, &[p]);
        let b0 = u.holds(self.base_extra + 1, 0, &[p]);
        let b1 = u.holds(self.base_extra + 1, 1, &[p]);
        let mut ph = [Vec::new(), Vec::new()];
        for (f, at) in ph.iter_mut().enumerate() {
            for k in 0..self.r.phases.len() {
                at.push(u.holds(self.base_extra + 2 + k, f, &[p]));
            }
        }
        // The step: an instance fires, or (deadlock) the idle selector stutters.
        let (en_p, by_p) = u.fair_step(0, p);
        Frames {
            err,
            a0,
            b0,
            b1,
            ph,
            en_p,
            by_p,
        }
    }

    /// For phase k: "in phase k and no phase before it" at frame 0, "in a phase before
    /// it" at frame 1, and "in it at frame 1 and the step keeps its promise" (a helpful
    /// phase: the process does not step; a ranked one: a weight falls).
    fn phase_lits(
        &self,
        u: &mut Unroller,
        ph: &[Vec<Lit>; 2],
        by_p: Lit,
        k: usize,
    ) -> (Lit, Lit, Lit) {
        let earlier0: Vec<Lit> = ph[0][..k].to_vec();
        let e0 = u.c.or(&earlier0);
        let in_k = u.c.and2(ph[0][k], -e0);
        let earlier1: Vec<Lit> = ph[1][..k].to_vec();
        let lower1 = u.c.or(&earlier1);
        let stays_ok = if self.r.phases[k].helpful {
            -by_p
        } else {
            self.falls(u, k, self.p)
        };
        let good = u.c.and2(ph[1][k], stays_ok);
        (in_k, lower1, good)
    }

    /// "The step lowers the weight of some process other than i and raises none", for
    /// ranked phase k.
    fn falls(&self, u: &mut Unroller, k: usize, p: i64) -> Lit {
        let weights = &self.r.phases[k].weights;
        let first = self.base_extra + self.first_weight[k];
        let mut lower = Vec::new();
        let mut raise = Vec::new();
        for j in (1..=self.n as i64).filter(|&j| j != p) {
            // The classes of j at both frames: class c where its formula is the first
            // to hold (none holds: weight 0).
            let mut class = [Vec::new(), Vec::new()];
            for (f, cl) in class.iter_mut().enumerate() {
                let mut before = Vec::new();
                for c in 0..weights.len() {
                    let h = u.holds(first + c, f, &[p, j]);
                    let prior = u.c.or(&before);
                    cl.push(u.c.and2(h, -prior));
                    before.push(h);
                }
            }
            // Order encoding: "the weight is at least w" for each weight w > 0 named,
            // at both frames; a fall is some w held before and not after.
            let w = |c: usize| weights[c].0;
            let mut levels: Vec<u64> = weights.iter().map(|x| x.0).filter(|&x| x > 0).collect();
            levels.sort_unstable();
            levels.dedup();
            for &lv in &levels {
                let mut ge = [0; 2];
                for (f, g) in ge.iter_mut().enumerate() {
                    let at: Vec<Lit> = (0..weights.len())
                        .filter(|&c| w(c) >= lv)
                        .map(|c| class[f][c])
                        .collect();
                    *g = u.c.or(&at);
                }
                lower.push(u.c.and2(ge[0], -ge[1]));
                raise.push(u.c.and2(-ge[0], ge[1]));
            }
        }
        // No weight named: no step falls (the empty `or` is false).
        let l = u.c.or(&lower);
        let r = u.c.or(&raise);
        u.c.and2(l, -r)
    }
}
