//! k-induction (M. Sheeran, S. Singh and G. Stålmarck, *Checking Safety Properties
//! Using Induction and a SAT-Solver*, FMCAD 2000) over a transition system, one size or
//! the aggregate of a range, on the same layer as BMC and IC3:
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

use crate::cert::CertLemma;
use crate::engine::{Checked, Report};
use crate::engine::{Control, Engine, LtlAnswer, Presentation, Problem};
use crate::ic3::engine::Ic3Engine;
use crate::ic3::prove;
use crate::live::{self, LOOP_PROP, Product};
use crate::proof::finish::{self, Findings};
use crate::proof::lemma::Lemma;
use crate::sat::{Backend, Lit, SolveResult, SolverKind, Stop};
use crate::transys::Transys;
use crate::transys::frame::Encoding;
use crate::transys::unroll::Unroller;
use crate::verdict::{Limit, PropId, SizeReport};
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
    keys: Vec<PropId>,
    excluded: HashMap<PropId, Vec<usize>>,
}

impl Open {
    /// The literal "frame j violates an open property at a width not excluded", and the
    /// literal of each key there.
    fn bad(&self, u: &mut Unroller, props: &[usize], j: usize) -> (Lit, Vec<(PropId, Lit)>) {
        let mut parts = Vec::new();
        let mut keyed = Vec::new();
        for &k in &self.keys {
            let b = match k {
                PropId::Unsafe(p) => {
                    let (b, e) = u.bad(p, j);
                    u.c.and2(b, -e)
                }
                PropId::IntBound => {
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
            SolveResult::Unknown => Err(stopped_by(&self.stop)),
        }
    }
}

/// The limit that gave up a search stopped by `stop`: an interrupt, else the time.
fn stopped_by(stop: &crate::sat::Stop) -> Limit {
    Limit::of(stop)
}

/// One k-induction search: the base-case and step-case unrollings with their solvers,
/// the properties still open, the strengthening lemmas (and which are still alive),
/// and the findings so far.
struct Induction<'a> {
    engine: &'a KindEngine,
    p: &'a Problem<'a>,
    ctl: &'a Control,
    lemmas: Vec<Lemma>,
    alive: Vec<bool>,
    base: Unroller<'a>,
    step: Unroller<'a>,
    bs: Solver,
    ss: Solver,
    open: Open,
    f: Findings,
    start: Instant,
    last_progress: Instant,
    /// The pairs of step frames constrained to differ (`distinct`).
    distinct_pairs: std::collections::HashSet<(usize, usize)>,
}

impl<'a> Induction<'a> {
    fn new(
        engine: &'a KindEngine,
        p: &'a Problem<'a>,
        ctl: &'a Control,
        lemmas: Vec<Lemma>,
    ) -> Result<Option<Induction<'a>>, String> {
        let sym = engine.symmetry && p.model.is_symmetric() && p.max > 1;
        let stop = ctl.sat_stop();
        let built = || Transys::within(p.model, p.min, p.max, Encoding::Binary, &stop);
        let (Some(base), Some(step)) = (built(), built()) else {
            return Ok(None);
        };
        let (base, step) = (Unroller::from_transys(base), Unroller::from_transys(step));
        let bs = Solver {
            s: engine.solver.create()?,
            stop: stop.clone(),
        };
        let ss = Solver {
            s: engine.solver.create()?,
            stop,
        };
        let open = Open {
            keys: finish::keys(p),
            excluded: HashMap::new(),
        };
        Ok(Some(Induction {
            engine,
            p,
            ctl,
            alive: vec![true; lemmas.len()],
            lemmas,
            base,
            step,
            bs,
            ss,
            open,
            f: Findings {
                symmetry: sym,
                ..Findings::default()
            },
            start: Instant::now(),
            last_progress: Instant::now(),
            distinct_pairs: Default::default(),
        }))
    }

    /// k = 1, 2, ...: the base case at depth k-1, then the step case at k, until every
    /// property is proved or refuted at every width, or k passes the largest depth.
    fn run(&mut self) -> Result<(), Limit> {
        for k in 1..=self.engine.max_depth + 1 {
            let d = k - 1;
            self.base_case(d)?;
            self.f.bounded = Some(d);
            if self.all_refuted() || k > self.engine.max_depth {
                return Ok(());
            }
            self.drop_failing_lemmas(d)?;
            self.extend_step(k);
            if self.step_case(k)? {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Every open property is refuted at every width.
    fn all_refuted(&self) -> bool {
        let widths = self.p.sizes();
        self.open.keys.iter().all(|k| {
            widths
                .iter()
                .all(|w| self.open.excluded.get(k).is_some_and(|e| e.contains(w)))
        })
    }

    /// Base case at depth d: every violation d steps from an initial state (a range
    /// error evaluating `init` is one at depth 0) is recorded and its (property, width)
    /// excluded.
    fn base_case(&mut self, d: usize) -> Result<(), Limit> {
        let base = &mut self.base;
        while base.depth() < d {
            base.add_step();
        }
        if d == 0 {
            let a = [base.init_err];
            if self.bs.solve(base, &a)? {
                let w = base.width(&|l| self.bs.s.value(l));
                self.f.cexs.push((PropId::Range, w, 0));
                self.open.excluded.entry(PropId::Range).or_default().push(w);
            }
        }
        loop {
            let (bad, keyed) = self.open.bad(base, &self.p.props, d);
            if !self.bs.solve(base, &[base.init_ok, bad])? {
                return Ok(());
            }
            let w = base.width(&|l| self.bs.s.value(l));
            let key = keyed
                .iter()
                .find(|(_, l)| self.bs.s.value(*l))
                .map(|x| x.0)
                .unwrap_or(PropId::Range);
            self.f.cexs.push((key, w, d));
            self.open.excluded.entry(key).or_default().push(w);
        }
    }

    /// Strengthening lemmas that fail within d steps of an initial state are dropped.
    fn drop_failing_lemmas(&mut self, d: usize) -> Result<(), Limit> {
        let base = &mut self.base;
        loop {
            let lits: Vec<(usize, Lit)> = (0..self.lemmas.len())
                .filter(|&i| self.alive[i])
                .map(|i| (i, lemma_lit(base, &self.lemmas[i], d)))
                .collect();
            let neg: Vec<Lit> = lits.iter().map(|x| -x.1).collect();
            let any = base.c.or(&neg);
            if !self.bs.solve(base, &[base.init_ok, any])? {
                return Ok(());
            }
            for (i, l) in lits {
                if !self.bs.s.value(l) {
                    self.alive[i] = false;
                }
            }
        }
    }

    /// The step unrolling up to frame k. Its frames are made pairwise distinct (simple
    /// paths) lazily, by `distinct`: only the pairs a failed step case showed equal
    /// (N. Eén, N. Sörensson, "Temporal induction by incremental SAT solving", 2003),
    /// so a property whose step case fails on no repeated state is proved without them
    /// and its certificate is checked without them.
    fn extend_step(&mut self, k: usize) {
        while self.step.depth() < k {
            let j = self.step.depth();
            self.step.add_step();
            self.step.forbid_idle(j);
        }
    }

    /// In the step case's model, the pairs of frames 0..=k holding the same state get a
    /// constraint that they differ; false when there is none (the model is a simple
    /// path, a true failure of the step).
    fn distinct(&mut self, k: usize) -> bool {
        let step = &mut self.step;
        let value = |l: Lit| self.ss.s.value(l);
        let bits: Vec<Vec<bool>> = (0..=k)
            .map(|j| {
                step.frames[j]
                    .cells
                    .iter()
                    .flat_map(|c| c.lits().iter().map(|&l| value(l)).collect::<Vec<_>>())
                    .collect()
            })
            .collect();
        let mut added = false;
        for j in 0..=k {
            for i in 0..j {
                if bits[i] != bits[j] || !self.distinct_pairs.insert((i, j)) {
                    continue;
                }
                let dl = step.differ(i, j);
                step.c.assert(dl);
                added = true;
            }
        }
        added
    }

    /// Step case at k: k states satisfying Inv are followed by one satisfying Inv.
    /// True when it holds (the invariant and the proof depth are then recorded);
    /// strengthening lemmas that alone fail it are dropped and it is asked again.
    fn step_case(&mut self, k: usize) -> Result<bool, Limit> {
        loop {
            self.progress(k);
            let step = &mut self.step;
            let mut a = Vec::new();
            for j in 0..k {
                let (bad, _) = self.open.bad(step, &self.p.props, j);
                a.push(-bad);
                for (i, l) in self.lemmas.iter().enumerate() {
                    if self.alive[i] {
                        a.push(lemma_lit(step, l, j));
                    }
                }
            }
            let (bad_k, _) = self.open.bad(step, &self.p.props, k);
            let at_k: Vec<(usize, Lit)> = (0..self.lemmas.len())
                .filter(|&i| self.alive[i])
                .map(|i| (i, lemma_lit(step, &self.lemmas[i], k)))
                .collect();
            let mut viol: Vec<Lit> = at_k.iter().map(|x| -x.1).collect();
            viol.push(bad_k);
            let v = step.c.or(&viol);
            a.push(v);
            if !self.ss.solve(step, &a)? {
                self.f.invariant = Some((
                    self.engine.certificate_lemmas(
                        self.p,
                        &self.open,
                        &self.lemmas,
                        &self.alive,
                        &self.step,
                    ),
                    k,
                    !self.distinct_pairs.is_empty(),
                ));
                self.f.proof_depth = Some(k);
                return Ok(true);
            }
            if self.distinct(k) {
                continue;
            }
            let ss = &self.ss.s;
            if ss.value(bad_k) || at_k.iter().all(|x| ss.value(x.1)) {
                return Ok(false);
            }
            // Only strengthening lemmas fail: drop them and try again.
            for (i, l) in at_k {
                if !ss.value(l) {
                    self.alive[i] = false;
                }
            }
        }
    }

    fn progress(&mut self, k: usize) {
        if self.ctl.progress && self.last_progress.elapsed().as_secs_f64() >= 2.0 {
            self.last_progress = Instant::now();
            crate::progress::line(format!(
                "k-induction depth {k}, {} strengthening lemmas, {:.1}s",
                self.alive.iter().filter(|a| **a).count(),
                self.start.elapsed().as_secs_f64()
            ));
        }
    }
}

impl KindEngine {
    fn strengthening(&self, p: &Problem, ctl: &Control) -> Result<Vec<Lemma>, String> {
        if !self.strengthen {
            return Ok(Vec::new());
        }
        let stop = ctl.sat_stop();
        let Some(mut ts) = Transys::within(p.model, p.min, p.max, Encoding::Binary, &stop) else {
            return Ok(Vec::new());
        };
        let mut opts = Ic3Engine::new(self.solver, self.symmetry).options(p, ctl);
        opts.progress = false;
        opts.max_frames = Some(STRENGTHEN_FRAMES);
        let out = prove(&mut ts, &opts)?;
        Ok(out.lemmas.into_iter().map(|(l, _)| l).collect())
    }

    /// Base and step cases for k = 1, 2, ...: the findings (a limit that stops the
    /// search is among them).
    fn search(&self, p: &Problem, ctl: &Control) -> Result<Findings, String> {
        let lemmas = self.strengthening(p, ctl)?;
        let Some(mut run) = Induction::new(self, p, ctl, lemmas)? else {
            // Stopped while its transition system was built: nothing answered.
            return Ok(Findings {
                limit: Some(stopped_by(&ctl.sat_stop())),
                ..Findings::default()
            });
        };
        if let Err(l) = run.run() {
            run.f.limit = Some(l);
        }
        Ok(run.f)
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
                    PropId::Unsafe(u) => {
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
                            ordered: false,
                            bdd: None,
                        }
                    }
                    _ => CertLemma {
                        sizes,
                        vars: Vec::new(),
                        body: String::new(),
                        no_range: k == PropId::Range,
                        no_int_bound: k == PropId::IntBound,
                        ordered: false,
                        bdd: None,
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
        Presentation::new("symmetric lemma orbits", "lemmas")
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

    fn answers(&self) -> crate::engine::Answers {
        crate::engine::Answers::BOTH
    }

    /// k-induction of the problem's `unsafe` properties (and range errors).
    fn check_safety(&self, p: &Problem, ctl: &Control, report: Report) -> Checked {
        finish::check_with(
            p,
            ctl,
            "k-induction",
            self.solver,
            || self.search(p, ctl),
            report,
        )
    }

    /// `ltl` property `k`: k-induction on its liveness-to-safety product. The base case
    /// is a bounded lasso search (a violation is a lasso, decoded and replayed); the
    /// step case proves the property outright when no run of the product, from any
    /// state, is longer than the depth without closing a loop — as for a property
    /// `F p` that every state reaches within a bounded number of steps (the sorting
    /// networks), where IC3 would have to learn the whole invariant. The certificate
    /// (`induction k`, about the product) is checked like any other.
    fn check_ltl(&self, p: &Problem, ctl: &Control, k: usize) -> Result<LtlAnswer, String> {
        let prod = Product::new(p.model, k, p.fair)?;
        let pp = Problem::new(&prod.model, p.min, p.max, vec![LOOP_PROP]);
        let mut reports = Vec::new();
        // Without IC3's strengthening: on the product its short run mostly learns
        // about the shadow copies, and cost more than it saved (odd-even sort 1..6:
        // 233 lemmas, 13-inductive, 19 s of CPU; plain: 19-inductive, 11 s).
        let plain = KindEngine {
            strengthen: false,
            ..self.clone()
        };
        let mut out = plain.check_safety(&pp, ctl, &mut |r| reports.push(r))?;
        out.certificate = out
            .certificate
            .map(|c| live::mark_certificate(&c, p.model, &prod, &mut reports));
        out.certificates.extend(out.certificate.clone());
        let mut reports: Vec<SizeReport> = reports
            .into_iter()
            .map(|r| live::translate(p.model, &prod, r))
            .collect();
        live::fill_unknown(&mut reports, p.model, k);
        Ok((reports, out))
    }
}
