//! k-induction (Sheeran, Singh and Stålmarck, FMCAD 2000) over a transition system,
//! one size or the aggregate of a range, on the same layer as BMC and IC3:
//! - base case: no violation within k-1 steps of an initial state (a violation found
//!   at depth d is shortest for its property and width, which is then excluded);
//! - step case: k consecutive states satisfying Inv = P ∧ S, pairwise distinct
//!   (simple path), are followed by one satisfying Inv, where P is "no open property
//!   violated" and S are strengthening lemmas: the (symmetric orbit) lemmas a short
//!   IC3 run learnt, filtered Houdini-style (a lemma that fails in the base case, or
//!   alone fails the step, is dropped).
//!
//! A proof is the certificate Inv with `induction k simple-path`, checked by
//! `proof::check` like any other.

use crate::bmc::frame::Encoding;
use crate::bmc::transys::Transys;
use crate::bmc::unroll::Unroller;
use crate::cert::CertLemma;
use crate::engine::{Control, Engine, Outcome, Presentation, Problem};
use crate::ic3::engine::Ic3Engine;
use crate::ic3::prove;
use crate::proof::finish::{self, Findings, PropKey};
use crate::proof::lemma::Lemma;
use crate::sat::{Backend, Lit, SolveResult, SolverKind, Stop};
use crate::verdict::{Limit, SizeReport};
use std::collections::HashMap;
use std::time::Instant;

/// Frames of the IC3 run that supplies strengthening lemmas.
const STRENGTHEN_FRAMES: usize = 4;

/// k-induction with its settings.
#[derive(Clone, Debug)]
pub struct KindEngine {
    pub solver: SolverKind,
    /// Symmetric lemma orbits in the strengthening (fully symmetric families only).
    pub symmetry: bool,
    /// The largest k tried.
    pub max_depth: usize,
    /// Strengthen by the lemmas of a short IC3 run.
    pub strengthen: bool,
}

/// The properties still open: a key with the widths already refuted.
struct Open {
    keys: Vec<PropKey>,
    excluded: HashMap<PropKey, Vec<usize>>,
}

impl Open {
    /// The literal "frame j violates an open property at a width not excluded", and the
    /// literal of each key there.
    fn bad(&self, u: &mut Unroller, props: &[usize], j: usize) -> (Lit, Vec<(PropKey, Lit)>) {
        let mut parts = Vec::new();
        let mut keyed = Vec::new();
        for &k in &self.keys {
            let b = match k {
                PropKey::Unsafe(p) => {
                    let (b, e) = u.bad(p, j);
                    u.c.and2(b, -e)
                }
                PropKey::IntBound => {
                    let r = u.ts.int_bound(false);
                    u.lit(j, r)
                }
                _ => {
                    let r = u.ts.range(props, false);
                    u.lit(j, r)
                }
            };
            let ex: Vec<Lit> = self
                .excluded
                .get(&k)
                .map(|ws| ws.iter().map(|&w| u.agg.width[w - 1]).collect())
                .unwrap_or_default();
            let any = u.c.or(&ex);
            let l = u.c.and2(b, -any);
            keyed.push((k, l));
            parts.push(l);
        }
        (u.c.or(&parts), keyed)
    }
}

/// The literal "frame j satisfies lemma l" (its whole orbit).
fn lemma_lit(u: &mut Unroller, l: &Lemma, j: usize) -> Lit {
    let mut clauses = Vec::new();
    for cube in l.orbit(&u.ts) {
        let mut cl = Vec::new();
        for (v, x) in cube {
            let a = crate::proof::lemma::atom_lit(&mut u.ts, v, x, false);
            cl.push(-u.lit(j, a));
        }
        clauses.push(u.c.or(&cl));
    }
    u.c.and(&clauses)
}

struct Solver {
    s: Box<dyn Backend>,
    stop: Stop,
}

impl Solver {
    fn solve(&mut self, u: &Unroller, a: &[Lit]) -> Result<bool, Limit> {
        match self.s.solve(&u.c.cnf, a, &self.stop) {
            SolveResult::Sat => Ok(true),
            SolveResult::Unsat => Ok(false),
            SolveResult::Unknown => Err(
                if self
                    .stop
                    .flag
                    .as_ref()
                    .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
                {
                    Limit::Interrupted
                } else {
                    Limit::Timeout
                },
            ),
        }
    }
}

impl KindEngine {
    fn strengthening(&self, p: &Problem, ctl: &Control) -> Result<Vec<Lemma>, String> {
        if !self.strengthen {
            return Ok(Vec::new());
        }
        let mut ts = Transys::new(p.model, p.min, p.max, Encoding::Binary);
        let mut opts = Ic3Engine {
            solver: self.solver,
            symmetry: self.symmetry,
        }
        .options(p, ctl);
        opts.progress = false;
        opts.max_frames = Some(STRENGTHEN_FRAMES);
        let out = prove(&mut ts, &opts)?;
        Ok(out.lemmas.into_iter().map(|(l, _)| l).collect())
    }

    /// Base and step cases for k = 1, 2, ...: the findings.
    fn search(&self, p: &Problem, ctl: &Control) -> Result<Findings, String> {
        let lemmas = self.strengthening(p, ctl)?;
        let sym = self.symmetry && p.model.is_symmetric() && p.max > 1;
        let mut base =
            Unroller::from_transys(Transys::new(p.model, p.min, p.max, Encoding::Binary));
        let mut step =
            Unroller::from_transys(Transys::new(p.model, p.min, p.max, Encoding::Binary));
        let stop = ctl.sat_stop();
        let mut bs = Solver {
            s: self.solver.create()?,
            stop: stop.clone(),
        };
        let mut ss = Solver {
            s: self.solver.create()?,
            stop,
        };
        let keys = finish::keys(p);
        let mut open = Open {
            keys,
            excluded: HashMap::new(),
        };
        let widths = p.sizes();
        let mut alive = vec![true; lemmas.len()];
        let mut f = Findings {
            symmetry: sym,
            ..Findings::default()
        };
        let all_refuted = |open: &Open| {
            open.keys.iter().all(|k| {
                widths
                    .iter()
                    .all(|w| open.excluded.get(k).is_some_and(|e| e.contains(w)))
            })
        };
        let start = Instant::now();
        let mut last_progress = Instant::now();
        for k in 1..=self.max_depth + 1 {
            let d = k - 1;
            // Base case at depth d.
            while base.depth() < d {
                base.add_step();
            }
            if d == 0 {
                // A range error evaluating `init` is a violation at depth 0.
                let a = [base.init_err];
                match bs.solve(&base, &a) {
                    Err(l) => {
                        f.limit = Some(l);
                        return Ok(f);
                    }
                    Ok(true) => {
                        let w = base.width(&|l| bs.s.value(l));
                        f.cexs.push((PropKey::Range, w, 0));
                        open.excluded.entry(PropKey::Range).or_default().push(w);
                    }
                    Ok(false) => {}
                }
            }
            loop {
                let (bad, keyed) = open.bad(&mut base, &p.props, d);
                match bs.solve(&base, &[base.init_ok, bad]) {
                    Err(l) => {
                        f.limit = Some(l);
                        return Ok(f);
                    }
                    Ok(false) => break,
                    Ok(true) => {
                        let w = base.width(&|l| bs.s.value(l));
                        let key = keyed
                            .iter()
                            .find(|(_, l)| bs.s.value(*l))
                            .map(|x| x.0)
                            .unwrap_or(PropKey::Range);
                        f.cexs.push((key, w, d));
                        open.excluded.entry(key).or_default().push(w);
                    }
                }
            }
            f.bounded = Some(d);
            if all_refuted(&open) || k > self.max_depth {
                return Ok(f);
            }
            // Strengthening lemmas that fail within d steps are dropped.
            loop {
                let lits: Vec<(usize, Lit)> = (0..lemmas.len())
                    .filter(|&i| alive[i])
                    .map(|i| (i, lemma_lit(&mut base, &lemmas[i], d)))
                    .collect();
                let neg: Vec<Lit> = lits.iter().map(|x| -x.1).collect();
                let any = base.c.or(&neg);
                match bs.solve(&base, &[base.init_ok, any]) {
                    Err(l) => {
                        f.limit = Some(l);
                        return Ok(f);
                    }
                    Ok(false) => break,
                    Ok(true) => {
                        for (i, l) in lits {
                            if !bs.s.value(l) {
                                alive[i] = false;
                            }
                        }
                    }
                }
            }
            // Step case at k: frames 0..k of distinct states.
            while step.depth() < k {
                step.add_step();
                let j = step.depth();
                for i in 0..j {
                    let (a, b) = (step.frames[i].cells.clone(), step.frames[j].cells.clone());
                    let mut diff = Vec::new();
                    for (ca, cb) in a.iter().zip(&b) {
                        for (&x, &y) in ca.lits().iter().zip(cb.lits()) {
                            let same = step.c.iff(x, y);
                            diff.push(-same);
                        }
                    }
                    let dl = step.c.or(&diff);
                    step.c.assert(dl);
                }
            }
            loop {
                if ctl.progress && last_progress.elapsed().as_secs_f64() >= 2.0 {
                    last_progress = Instant::now();
                    eprintln!(
                        "nfold: k-induction depth {k}, {} strengthening lemmas, {:.1}s",
                        alive.iter().filter(|a| **a).count(),
                        start.elapsed().as_secs_f64()
                    );
                }
                let mut a = Vec::new();
                for j in 0..k {
                    let (bad, _) = open.bad(&mut step, &p.props, j);
                    a.push(-bad);
                    for (i, l) in lemmas.iter().enumerate() {
                        if alive[i] {
                            a.push(lemma_lit(&mut step, l, j));
                        }
                    }
                }
                let (bad_k, _) = open.bad(&mut step, &p.props, k);
                let at_k: Vec<(usize, Lit)> = (0..lemmas.len())
                    .filter(|&i| alive[i])
                    .map(|i| (i, lemma_lit(&mut step, &lemmas[i], k)))
                    .collect();
                let mut viol: Vec<Lit> = at_k.iter().map(|x| -x.1).collect();
                viol.push(bad_k);
                let v = step.c.or(&viol);
                a.push(v);
                match ss.solve(&step, &a) {
                    Err(l) => {
                        f.limit = Some(l);
                        return Ok(f);
                    }
                    Ok(false) => {
                        f.invariant = Some((
                            self.certificate_lemmas(p, &open, &lemmas, &alive, &step),
                            k,
                            true,
                        ));
                        f.proof_depth = Some(k);
                        return Ok(f);
                    }
                    Ok(true) if !ss.s.value(bad_k) && at_k.iter().any(|x| !ss.s.value(x.1)) => {
                        // Only strengthening lemmas fail: drop them and try again.
                        for (i, l) in at_k {
                            if !ss.s.value(l) {
                                alive[i] = false;
                            }
                        }
                    }
                    Ok(true) => break,
                }
            }
        }
        Ok(f)
    }

    /// Inv as certificate lemmas: every open property (each interval of widths where
    /// it is not refuted) and the strengthening lemmas still alive.
    fn certificate_lemmas(
        &self,
        p: &Problem,
        open: &Open,
        lemmas: &[Lemma],
        alive: &[bool],
        u: &Unroller,
    ) -> Vec<CertLemma> {
        let mut out = Vec::new();
        for &k in &open.keys {
            let ex = open.excluded.get(&k).cloned().unwrap_or_default();
            let mut w = p.min;
            while w <= p.max {
                if ex.contains(&w) {
                    w += 1;
                    continue;
                }
                let a = w;
                while w < p.max && !ex.contains(&(w + 1)) {
                    w += 1;
                }
                let sizes = ((a, w) != (p.min, p.max)).then_some((a, w));
                out.push(match k {
                    PropKey::Unsafe(u) => {
                        let prop = &p.model.unsafes[u];
                        let text = p.model.source.snippet(prop.span);
                        let body = match (text.find('{'), text.rfind('}')) {
                            (Some(i), Some(j)) if i < j => text[i + 1..j].trim().to_string(),
                            _ => "False".into(),
                        };
                        CertLemma {
                            sizes,
                            vars: prop.locals[..prop.params]
                                .iter()
                                .map(|l| l.name.clone())
                                .collect(),
                            body,
                            no_range: false,
                            no_int_bound: false,
                        }
                    }
                    _ => CertLemma {
                        sizes,
                        vars: Vec::new(),
                        body: String::new(),
                        no_range: k == PropKey::Range,
                        no_int_bound: k == PropKey::IntBound,
                    },
                });
                w += 1;
            }
        }
        for (l, _) in lemmas.iter().zip(alive).filter(|x| *x.1) {
            out.push(l.to_cert(&u.ts, (p.min, p.max)));
        }
        // A strengthening lemma may be a property under other variable names.
        CertLemma::dedup(&mut out);
        out
    }
}

impl Engine for KindEngine {
    fn name(&self) -> &'static str {
        "kind"
    }

    fn presentation(&self, _p: &Problem) -> Presentation {
        Presentation {
            symmetry: "symmetric lemma orbits",
            data_symmetry: None,
            count: "lemmas",
            size_by_size: false,
            dead_cells: false,
        }
    }

    fn describe(&self, p: &Problem) -> String {
        format!(
            "k-induction up to depth {} ({}, simple paths{}){}; invariants checked independently",
            self.max_depth,
            self.solver.name(),
            if self.strengthen {
                if self.symmetry && p.model.is_symmetric() {
                    ", strengthened by IC3's symmetric lemmas"
                } else {
                    ", strengthened by IC3's lemmas"
                }
            } else {
                ""
            },
            p.aggregate_text()
        )
    }

    fn check(
        &self,
        p: &Problem,
        ctl: &Control,
        report: &mut dyn FnMut(SizeReport),
    ) -> Result<Outcome, String> {
        finish::check_with(
            p,
            ctl,
            "k-induction",
            self.solver,
            || self.search(p, ctl),
            report,
        )
    }
}
